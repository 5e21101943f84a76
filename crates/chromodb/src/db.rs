//! The SQLite file: schema, writing a run with its chromosomes in one transaction, queries.

use crate::pick::Pick;
use crate::records::{ChromosomeRow, NewChromosome, NewRun, RunRow};
use rusqlite::{Connection, OpenFlags, Row, params};
use std::path::Path;
use thiserror::Error;

/// Schema version stored in `PRAGMA user_version`.
const SCHEMA_VERSION: i64 = 1;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    created TEXT NOT NULL DEFAULT (datetime('now')),
    seed INTEGER NOT NULL,
    settings TEXT NOT NULL,
    generations INTEGER NOT NULL,
    games INTEGER NOT NULL,
    stop_reason TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS chromosomes (
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES runs(id),
    label TEXT NOT NULL,
    niche INTEGER NOT NULL,
    niche_size INTEGER NOT NULL,
    fitness REAL NOT NULL,
    tournaments INTEGER NOT NULL,
    organism INTEGER NOT NULL,
    born INTEGER NOT NULL,
    parents TEXT NOT NULL,
    lineage TEXT NOT NULL,
    genes TEXT NOT NULL,
    params TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS chromosomes_run ON chromosomes(run_id);
";

const CHROMOSOME_COLUMNS: &str = "id, run_id, label, niche, niche_size, fitness, tournaments, \
    organism, born, parents, lineage, genes, params";

/// Why a chromosome database operation failed.
#[derive(Debug, Error)]
pub enum DbError {
    /// The file could not be opened or created, or is not a chromosome database of this
    /// schema version (missing file, wrong `user_version`, dropped table).
    #[error("chromosome database {path}: {message}")]
    Open {
        /// The database file, as displayed.
        path: String,
        /// What went wrong (SQLite's message or Kestrel's own).
        message: String,
    },
    /// A query failed (a damaged file, a missing table): names the file once.
    #[error("chromosome database {path}: {message}")]
    Sql {
        /// The database file, as displayed.
        path: String,
        /// SQLite's error message.
        message: String,
    },
    /// No chromosome has this id.
    #[error("no chromosome {0} in the database")]
    NoSuchChromosome(i64),
    /// No run has this id.
    #[error("no run {0} in the database")]
    NoSuchRun(i64),
    /// `best` or `random` was asked of a database with no chromosome stored.
    #[error("the database holds no chromosome")]
    Empty,
}

/// An open chromosome database.
pub struct ChromosomeDb {
    conn: Connection,
    path: String,
}

impl ChromosomeDb {
    /// Opens the database at `path` for writing, creating the file and schema when missing.
    pub fn create_or_open(path: &Path) -> Result<ChromosomeDb, DbError> {
        let conn = Connection::open(path).map_err(|e| open_error(path, e.to_string()))?;
        let db = ChromosomeDb {
            conn,
            path: path.display().to_string(),
        };
        db.check_version(path, true)?;
        db.conn
            .execute_batch(SCHEMA)
            .map_err(|e| open_error(path, e.to_string()))?;
        db.conn
            .pragma_update(None, "user_version", SCHEMA_VERSION)
            .map_err(|e| open_error(path, e.to_string()))?;
        Ok(db)
    }

    /// Opens an existing database read-only (the engine and `kestrel db`); a missing file or
    /// one that is not a chromosome database is an error, never an empty result.
    pub fn open_existing(path: &Path) -> Result<ChromosomeDb, DbError> {
        if !path.is_file() {
            return Err(open_error(path, "no such file".into()));
        }
        let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY)
            .map_err(|e| open_error(path, e.to_string()))?;
        let db = ChromosomeDb {
            conn,
            path: path.display().to_string(),
        };
        db.check_version(path, false)?;
        db.check_tables(path)?;
        Ok(db)
    }

    /// Accepts a fresh file (when `allow_new`) or one of this schema version.
    fn check_version(&self, path: &Path, allow_new: bool) -> Result<(), DbError> {
        let version: i64 = self
            .conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .map_err(|e| open_error(path, e.to_string()))?;
        match version {
            SCHEMA_VERSION => Ok(()),
            0 if allow_new && self.table_count(path)? == 0 => Ok(()),
            0 => Err(open_error(path, "not a Kestrel chromosome database".into())),
            v => Err(open_error(
                path,
                format!("schema version {v}, this Kestrel reads version {SCHEMA_VERSION}"),
            )),
        }
    }

    /// A file of the right version whose tables were dropped is damaged: say which is missing.
    fn check_tables(&self, path: &Path) -> Result<(), DbError> {
        for table in ["runs", "chromosomes"] {
            let present: i64 = self
                .conn
                .query_row(
                    "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?1",
                    [table],
                    |r| r.get(0),
                )
                .map_err(|e| open_error(path, e.to_string()))?;
            if present == 0 {
                return Err(open_error(
                    path,
                    format!("damaged: the table '{table}' is missing"),
                ));
            }
        }
        Ok(())
    }

    fn table_count(&self, path: &Path) -> Result<i64, DbError> {
        self.conn
            .query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))
            .map_err(|e| open_error(path, e.to_string()))
    }

    /// Stores a run and its chromosomes atomically; returns the run id and chromosome ids.
    pub fn add_run(
        &mut self,
        run: &NewRun,
        chromosomes: &[NewChromosome],
    ) -> Result<(i64, Vec<i64>), DbError> {
        let sql = sql_error(&self.path);
        let tx = self.conn.transaction().map_err(&sql)?;
        tx.execute(
            "INSERT INTO runs (kind, seed, settings, generations, games, stop_reason) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![
                run.kind,
                run.seed as i64,
                run.settings_json,
                run.generations as i64,
                run.games as i64,
                run.stop_reason
            ],
        )
        .map_err(&sql)?;
        let run_id = tx.last_insert_rowid();
        let mut ids = Vec::with_capacity(chromosomes.len());
        for c in chromosomes {
            let parents = format!(
                "[{}]",
                c.parents
                    .iter()
                    .map(u64::to_string)
                    .collect::<Vec<_>>()
                    .join(",")
            );
            tx.execute(
                "INSERT INTO chromosomes (run_id, label, niche, niche_size, fitness, tournaments, \
                 organism, born, parents, lineage, genes, params) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
                params![
                    run_id,
                    c.label,
                    c.niche,
                    c.niche_size,
                    c.fitness,
                    c.tournaments as i64,
                    c.organism as i64,
                    c.born as i64,
                    parents,
                    c.lineage_json,
                    c.genes_json,
                    c.params
                ],
            )
            .map_err(&sql)?;
            ids.push(tx.last_insert_rowid());
        }
        tx.commit().map_err(&sql)?;
        Ok((run_id, ids))
    }

    /// Every run, oldest first.
    pub fn runs(&self) -> Result<Vec<RunRow>, DbError> {
        let sql = sql_error(&self.path);
        let mut stmt = self
            .conn
            .prepare(
                "SELECT r.id, r.kind, r.created, r.seed, r.settings, r.generations, r.games, \
             r.stop_reason, (SELECT count(*) FROM chromosomes c WHERE c.run_id = r.id) \
             FROM runs r ORDER BY r.id",
            )
            .map_err(&sql)?;
        let rows = stmt
            .query_map([], |r| {
                Ok(RunRow {
                    id: r.get(0)?,
                    kind: r.get(1)?,
                    created: r.get(2)?,
                    seed: r.get::<_, i64>(3)? as u64,
                    settings_json: r.get(4)?,
                    generations: r.get::<_, i64>(5)? as u64,
                    games: r.get::<_, i64>(6)? as u64,
                    stop_reason: r.get(7)?,
                    chromosomes: r.get::<_, i64>(8)? as u64,
                })
            })
            .map_err(&sql)?;
        rows.collect::<Result<_, _>>().map_err(&sql)
    }

    /// One run.
    pub fn run(&self, id: i64) -> Result<RunRow, DbError> {
        self.runs()?
            .into_iter()
            .find(|r| r.id == id)
            .ok_or(DbError::NoSuchRun(id))
    }

    /// The chromosomes of one run (all runs when `None`), by id.
    pub fn chromosomes(&self, run: Option<i64>) -> Result<Vec<ChromosomeRow>, DbError> {
        let sql = format!(
            "SELECT {CHROMOSOME_COLUMNS} FROM chromosomes WHERE ?1 IS NULL OR run_id = ?1 \
             ORDER BY id"
        );
        let err = sql_error(&self.path);
        let mut stmt = self.conn.prepare(&sql).map_err(&err)?;
        let rows = stmt.query_map([run], chromosome_row).map_err(&err)?;
        rows.collect::<Result<_, _>>().map_err(&err)
    }

    /// One chromosome by id.
    pub fn chromosome(&self, id: i64) -> Result<ChromosomeRow, DbError> {
        let sql = format!("SELECT {CHROMOSOME_COLUMNS} FROM chromosomes WHERE id = ?1");
        match self.conn.query_row(&sql, [id], chromosome_row) {
            Err(rusqlite::Error::QueryReturnedNoRows) => Err(DbError::NoSuchChromosome(id)),
            other => other.map_err(sql_error(&self.path)),
        }
    }

    /// The chromosome `pick` names. `best` and `random` choose among the newest run's
    /// chromosomes: a fitness is a score against the population that measured it, so fitnesses
    /// of different runs (an MNC lifetime mean, a generational GA's last tournament) do not compare.
    pub fn pick(&self, pick: Pick) -> Result<ChromosomeRow, DbError> {
        match pick {
            Pick::Id(id) => self.chromosome(id),
            Pick::Best | Pick::Random { .. } => {
                let mut all = self.chromosomes(None)?;
                let newest = all.iter().map(|c| c.run_id).max().ok_or(DbError::Empty)?;
                all.retain(|c| c.run_id == newest);
                let fitness: Vec<f64> = all.iter().map(|c| c.fitness).collect();
                let index = pick.choose(&fitness).ok_or(DbError::Empty)?;
                Ok(all[index].clone())
            }
        }
    }
}

/// Turns a query's error into one that names the database file.
fn sql_error(path: &str) -> impl Fn(rusqlite::Error) -> DbError + '_ {
    move |e| DbError::Sql {
        path: path.to_string(),
        message: e.to_string(),
    }
}

fn open_error(path: &Path, message: String) -> DbError {
    DbError::Open {
        path: path.display().to_string(),
        message,
    }
}

fn chromosome_row(r: &Row) -> rusqlite::Result<ChromosomeRow> {
    Ok(ChromosomeRow {
        id: r.get(0)?,
        run_id: r.get(1)?,
        label: r.get(2)?,
        niche: r.get(3)?,
        niche_size: r.get(4)?,
        fitness: r.get(5)?,
        tournaments: r.get::<_, i64>(6)? as u64,
        organism: r.get::<_, i64>(7)? as u64,
        born: r.get::<_, i64>(8)? as u64,
        parents_json: r.get(9)?,
        lineage_json: r.get(10)?,
        genes_json: r.get(11)?,
        params: r.get(12)?,
    })
}
