//! `kestrel db list|show|export|distances`: the chromosome database (runs and their niche
//! leaders).

use crate::commands::checked;
use anyhow::Context;
use clap::{Args, Subcommand};
use kestrel_chromodb::{ChromosomeDb, Pick};
use std::path::PathBuf;

#[derive(Args)]
pub struct DbArgs {
    /// The database file.
    #[arg(long, global = true, default_value = "chromosomes.sqlite")]
    db: PathBuf,
    #[command(subcommand)]
    command: DbCommand,
}

#[derive(Subcommand)]
enum DbCommand {
    /// Every run with its chromosomes (id, niche, fitness).
    List,
    /// One chromosome: run settings, fitness, parents, ancestry, tables.
    Show {
        /// An id, `best` or `random[:SEED]` (weighted by fitness).
        chromosome: String,
    },
    /// A chromosome as a params file (stdout, or `--output`), for `kestrel match` or ParamsFile.
    Export {
        /// An id, `best` or `random[:SEED]` (weighted by fitness).
        chromosome: String,
        /// The params file to write (`--out` is an old spelling; default: standard output).
        #[arg(long = "output", alias = "out", value_name = "FILE", value_parser = checked::writable_file)]
        out: Option<PathBuf>,
    },
    /// Phenotypic distances (cp) between piece-square-table chromosomes, and to Kestrel's tables.
    Distances {
        /// Only this run's chromosomes (default: all).
        #[arg(long)]
        run: Option<i64>,
    },
}

/// Lists, shows, exports or compares the chromosome database's runs, as the subcommand says.
pub fn run(args: DbArgs) -> anyhow::Result<()> {
    let db = ChromosomeDb::open_existing(&args.db)?;
    match args.command {
        DbCommand::List => list(&db),
        DbCommand::Show { chromosome } => show(&db, &chromosome),
        DbCommand::Distances { run } => distances(&db, run),
        DbCommand::Export { chromosome, out } => {
            let c = db.pick(chromosome.parse::<Pick>().map_err(anyhow::Error::msg)?)?;
            match out {
                Some(path) => {
                    kestrel_params::atomic::write_atomic(&path, c.params.as_bytes())
                        .with_context(|| format!("cannot write {}", path.display()))?;
                    println!("chromosome {} written to {}", c.id, path.display());
                }
                None => print!("{}", c.params),
            }
            Ok(())
        }
    }
}

fn list(db: &ChromosomeDb) -> anyhow::Result<()> {
    let runs = db.runs()?;
    if runs.is_empty() {
        println!("no run stored");
    }
    for r in runs {
        println!(
            "run {} [{}] {} seed {}: {} generations, {} games, stopped: {}",
            r.id, r.kind, r.created, r.seed, r.generations, r.games, r.stop_reason
        );
        for c in db.chromosomes(Some(r.id))? {
            println!(
                "  chromosome {:>4}  niche {:>2} ({:>2} organisms)  fitness {:.3} over {} \
                 tournaments  organism #{} born gen {}",
                c.id, c.niche, c.niche_size, c.fitness, c.tournaments, c.organism, c.born
            );
        }
    }
    Ok(())
}

fn show(db: &ChromosomeDb, which: &str) -> anyhow::Result<()> {
    let c = db.pick(which.parse::<Pick>().map_err(anyhow::Error::msg)?)?;
    let r = db.run(c.run_id)?;
    println!("chromosome   {} ({})", c.id, c.label);
    println!(
        "run          {} [{}] {} seed {}",
        r.id, r.kind, r.created, r.seed
    );
    println!("settings     {}", r.settings_json);
    println!(
        "fitness      {:.4} over {} tournaments",
        c.fitness, c.tournaments
    );
    println!("niche        {} ({} organisms)", c.niche, c.niche_size);
    println!(
        "organism     #{} born in generation {}, parents {}",
        c.organism, c.born, c.parents_json
    );
    println!("lineage      {}", c.lineage_json);
    println!("genes        {}", c.genes_json);
    Ok(())
}

/// The distance matrix: mean |difference| of the rounded table values over the 608 entries
/// that can change play (`kestrel_evolve::mnc::tables::distance`), the niche-counting metric.
fn distances(db: &ChromosomeDb, run: Option<i64>) -> anyhow::Result<()> {
    use kestrel_evolve::mnc::tables::{GENES, distance, kestrel_chromosome};
    use kestrel_ga::RealGenome;
    let rows = db.chromosomes(run)?;
    if rows.is_empty() {
        anyhow::bail!(
            "no chromosome stored{}",
            run.map_or(String::new(), |r| format!(" for run {r}"))
        );
    }
    let mut genomes = Vec::new();
    for c in &rows {
        let genome: RealGenome = serde_json::from_str(&c.genes_json)
            .with_context(|| format!("chromosome {} has no real genes", c.id))?;
        if genome.0.len() != GENES {
            anyhow::bail!(
                "chromosome {} has {} genes, not a piece-square-table chromosome ({GENES})",
                c.id,
                genome.0.len()
            );
        }
        genomes.push(genome);
    }
    println!("distances in cp (mean |difference| over the 608 playable table entries)");
    let header: String = rows
        .iter()
        .map(|c| format!("{:>7}", format!("#{}", c.id)))
        .collect();
    println!("{:<22}{header}{:>9}", "chromosome", "Kestrel");
    let kestrel = kestrel_chromosome();
    for (c, a) in rows.iter().zip(&genomes) {
        let cells: String = genomes
            .iter()
            .map(|b| format!("{:>7.1}", distance(a, b)))
            .collect();
        let name = format!("#{} run {} niche {}", c.id, c.run_id, c.niche);
        println!("{name:<22}{cells}{:>9.1}", distance(a, &kestrel));
    }
    Ok(())
}
