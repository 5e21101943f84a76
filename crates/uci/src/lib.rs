#![warn(missing_docs)]
//! Kestrel's UCI protocol: the engine side of the Universal Chess Interface.
//!
//! [`UciEngine`] is the protocol core, fed one line at a time and writing to any
//! [`std::io::Write`], so it can be tested in-process; [`run`] drives it from a reader and
//! [`run_stdio`] from stdin/stdout. Besides the standard commands it understands `d`, `eval`,
//! `bench [depth]` and `perft N`.

mod book_state;
mod chromosome;
mod diagnostics;
mod engine;
mod go;
mod options;
mod output;
mod position;
mod reader;
mod search_job;
mod settings;
pub mod strength;
mod tunables;
mod version;

pub use engine::{Flow, UciEngine, tunable_tables};
pub use go::parse_go;
pub use options::{OptionValue, UciOptionDecl, UciOptionKind};
pub use output::{Output, format_bestmove, format_info};
pub use position::parse_position;
pub use reader::{MAX_LINE, run};
pub use settings::{BUILTIN_BOOK, Settings};
pub use tunables::{Tunable, tunables};
pub use version::{COMMIT, VERSION};

/// Speaks UCI on stdin/stdout until `quit` or end of input.
pub fn run_stdio() -> std::io::Result<()> {
    run(std::io::stdin().lock(), std::io::stdout())
}
