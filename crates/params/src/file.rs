//! The params file: TOML with one section per parameter table.
//!
//! ```toml
//! [eval]
//! BISHOP_PAIR = [30, 50]          # tapered scalar: [middle game, end game]
//! ROOK_OPEN_FILE = 20             # plain scalar
//! PST_KNIGHT = { mg = [...64], eg = [...64] }
//! [search]
//! NULL_MOVE_R = 4
//! ```
//! Missing names keep their defaults; unknown sections or names and out-of-range values are errors.
//! One element of a tapered or array parameter may also be set alone by its element name
//! (`PST_KNIGHT_EG_12 = 5`, `BISHOP_PAIR_MG = 30`), as SPSA tuners report them.

use crate::{ParamDecl, ParamTable, ParamValues};
use std::fmt::Write as _;
use std::path::Path;
use thiserror::Error;

/// Errors reading a params file.
#[derive(Debug, Error)]
pub enum ParamFileError {
    /// The file could not be read.
    #[error("cannot read params file {path}: {source}")]
    Io {
        /// The file, as displayed.
        path: String,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The text is not valid TOML (holds the parser's message).
    #[error("params file is not valid TOML: {0}")]
    Toml(String),
    /// A section no given table owns: the section, then the known sections joined by `, `.
    #[error("unknown section [{0}] (known: {1})")]
    UnknownSection(String, String),
    /// A key that is neither a declared parameter nor one of its element names.
    #[error("[{section}] unknown parameter '{name}'")]
    UnknownName {
        /// The section the key is in.
        section: String,
        /// The unknown key.
        name: String,
    },
    /// A value of the wrong shape or type, or out of the declared range.
    #[error("[{section}] {name}: {message}")]
    BadValue {
        /// The section the value is in.
        section: String,
        /// The parameter's key (empty when the section itself is not a table).
        name: String,
        /// What is wrong with it.
        message: String,
    },
    /// Any of the above, with the flag or option that named the file
    /// (`--params best.toml: [search] unknown parameter 'X'`).
    /// (`inner` is not a `source`: its message is already part of this one.)
    #[error("{origin} {path}: {}", located_message(inner))]
    Located {
        /// What named the file: a flag such as `--params`, or a UCI option.
        origin: String,
        /// The file, as displayed.
        path: String,
        /// The error itself.
        inner: Box<ParamFileError>,
    },
}

/// The inner message of a located error (a read error's path is already in front of it).
fn located_message(e: &ParamFileError) -> String {
    match e {
        ParamFileError::Io { source, .. } => format!("cannot read the file: {source}"),
        other => other.to_string(),
    }
}

/// A params file read for a set of tables: one value set per table (defaults where the file is
/// silent) and the sections the file held.
#[derive(Clone, Debug)]
pub struct LoadedParams {
    /// One set per table, in the order the tables were given.
    pub sets: Vec<ParamValues>,
    /// The tables' sections present in the file, in the order the tables were given.
    pub sections: Vec<&'static str>,
}

/// Reading and writing params files for a set of tables.
pub struct ParamsFile;

impl ParamsFile {
    /// Parses `text`; returns one [`ParamValues`] per table, in the order of `tables`.
    pub fn parse(
        text: &str,
        tables: &[&'static ParamTable],
    ) -> Result<Vec<ParamValues>, ParamFileError> {
        Self::parse_sections(text, tables).map(|l| l.sets)
    }

    /// [`ParamsFile::parse`], also telling which sections the text held.
    pub fn parse_sections(
        text: &str,
        tables: &[&'static ParamTable],
    ) -> Result<LoadedParams, ParamFileError> {
        let doc: toml::Table = text
            .parse()
            .map_err(|e: toml::de::Error| ParamFileError::Toml(e.to_string()))?;
        let mut out: Vec<ParamValues> = tables.iter().map(|t| ParamValues::defaults(t)).collect();
        for (section, body) in &doc {
            let Some(ti) = tables.iter().position(|t| t.section == section) else {
                let known: Vec<&str> = tables.iter().map(|t| t.section).collect();
                return Err(ParamFileError::UnknownSection(
                    section.clone(),
                    known.join(", "),
                ));
            };
            let body = body.as_table().ok_or_else(|| ParamFileError::BadValue {
                section: section.clone(),
                name: String::new(),
                message: "a section must be a table".into(),
            })?;
            for (name, value) in body {
                let table = tables[ti];
                let Some(di) = table.find(name) else {
                    set_element(&mut out[ti], section, name, value)?;
                    continue;
                };
                let decl = &table.decls[di];
                let bad = |message: String| ParamFileError::BadValue {
                    section: section.clone(),
                    name: name.clone(),
                    message,
                };
                let flat = flatten(decl, value).map_err(bad)?;
                out[ti]
                    .set(decl.name, &flat)
                    .map_err(|m| ParamFileError::BadValue {
                        section: section.clone(),
                        name: name.clone(),
                        message: m,
                    })?;
            }
        }
        let sections = tables
            .iter()
            .map(|t| t.section)
            .filter(|s| doc.contains_key(*s))
            .collect();
        Ok(LoadedParams {
            sets: out,
            sections,
        })
    }

    /// Reads a params file; one [`ParamValues`] per table, in the order of `tables`.
    pub fn load(
        path: &Path,
        tables: &[&'static ParamTable],
    ) -> Result<Vec<ParamValues>, ParamFileError> {
        let text = std::fs::read_to_string(path).map_err(|source| ParamFileError::Io {
            path: path.display().to_string(),
            source,
        })?;
        Self::parse(&text, tables)
    }

    /// Reads a params file named by `origin` (a flag such as `--params`, or a UCI option);
    /// every error names both the flag and the file.
    pub fn load_for(
        path: &Path,
        tables: &[&'static ParamTable],
        origin: &str,
    ) -> Result<LoadedParams, ParamFileError> {
        let located = |source: ParamFileError| ParamFileError::Located {
            origin: origin.to_string(),
            path: path.display().to_string(),
            inner: Box::new(source),
        };
        let text = std::fs::read_to_string(path).map_err(|source| {
            located(ParamFileError::Io {
                path: path.display().to_string(),
                source,
            })
        })?;
        Self::parse_sections(&text, tables).map_err(located)
    }

    /// Renders values as a params file (every parameter written, with its doc as a comment).
    pub fn render(sets: &[&ParamValues]) -> String {
        let mut s = String::from(
            "# Kestrel parameters (see `kestrel eval --help`); missing names keep defaults.\n",
        );
        for set in sets {
            writeln!(s, "\n[{}]", set.table.section).unwrap();
            let offsets = set.table.offsets();
            for (d, off) in set.table.decls.iter().zip(offsets) {
                let v = &set.values[off..off + d.width()];
                let list =
                    |xs: &[i32]| xs.iter().map(i32::to_string).collect::<Vec<_>>().join(", ");
                let rendered = match (d.len, d.tapered) {
                    (1, false) => v[0].to_string(),
                    (1, true) => format!("[{}, {}]", v[0], v[1]),
                    (_, false) => format!("[{}]", list(v)),
                    (n, true) => {
                        format!("{{ mg = [{}], eg = [{}] }}", list(&v[..n]), list(&v[n..]))
                    }
                };
                writeln!(s, "# {}", d.doc).unwrap();
                writeln!(s, "{} = {}", d.name, rendered).unwrap();
            }
        }
        s
    }

    /// Writes a params file atomically.
    pub fn save(path: &Path, sets: &[&ParamValues]) -> std::io::Result<()> {
        crate::atomic::write_atomic(path, Self::render(sets).as_bytes())
    }
}

fn int(v: &toml::Value) -> Result<i32, String> {
    let i = v
        .as_integer()
        .ok_or_else(|| format!("expected an integer, found {v}"))?;
    i32::try_from(i).map_err(|_| format!("{i} does not fit in 32 bits"))
}

fn int_list(v: &toml::Value, len: usize) -> Result<Vec<i32>, String> {
    let arr = v
        .as_array()
        .ok_or_else(|| format!("expected a list of {len} integers"))?;
    if arr.len() != len {
        return Err(format!("expected {len} values, found {}", arr.len()));
    }
    arr.iter().map(int).collect()
}

/// Turns a TOML value into the declaration's flat layout (mg entries, then eg entries).
fn flatten(d: &ParamDecl, v: &toml::Value) -> Result<Vec<i32>, String> {
    match (d.len, d.tapered) {
        (1, false) => Ok(vec![int(v)?]),
        (1, true) => int_list(v, 2).map_err(|e| format!("{e} (tapered: [middle game, end game])")),
        (n, false) => int_list(v, n),
        (n, true) => {
            let t = v.as_table().ok_or("expected { mg = [...], eg = [...] }")?;
            for k in t.keys() {
                if k != "mg" && k != "eg" {
                    return Err(format!("unexpected key '{k}' (expected mg and eg)"));
                }
            }
            let mg = int_list(t.get("mg").ok_or("missing mg")?, n)?;
            let eg = int_list(t.get("eg").ok_or("missing eg")?, n)?;
            Ok(mg.into_iter().chain(eg).collect())
        }
    }
}

/// Sets one element named like `PST_KNIGHT_EG_12`; unknown names are errors.
fn set_element(
    values: &mut ParamValues,
    section: &str,
    name: &str,
    value: &toml::Value,
) -> Result<(), ParamFileError> {
    if values.table.find_element(name).is_none() {
        return Err(ParamFileError::UnknownName {
            section: section.to_string(),
            name: name.to_string(),
        });
    }
    let bad = |message: String| ParamFileError::BadValue {
        section: section.to_string(),
        name: name.to_string(),
        message,
    };
    values
        .set_element(name, int(value).map_err(bad)?)
        .map_err(bad)
}
