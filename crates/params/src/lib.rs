#![warn(missing_docs)]
//! Parameters as data: every tunable evaluation and search parameter is declared once
//! ([`ParamDecl`]: name, defaults, range, bit width, tapered or not). From those declarations come
//! the params file format (TOML), the UCI options, and the chromosome schemas of the GAs.

pub mod atomic;
mod decl;
mod file;
mod schema;
mod spsa;
mod values;

pub use decl::{ParamDecl, ParamTable};
pub use file::{LoadedParams, ParamFileError, ParamsFile};
pub use schema::{BitSchema, Coding, Field};
pub use spsa::{DEFAULT_R_END, SpsaLine, render_openbench, spsa_lines};
pub use values::ParamValues;
