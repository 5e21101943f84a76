//! What a mentor run is asked to do: the parameters that evolve, the mentors, where the
//! positions come from, and the whole run's configuration.

use crate::mentor::crowd::Combine;
use crate::mentor::organism::GenomeKind;
use crate::mentor::positions::PickRules;
use kestrel_eval::{COMPACT_SET, EVAL_TABLE};
use kestrel_ga::GaSettings;
use kestrel_ga::cluster::RayOptions;
use kestrel_params::{BitSchema, Coding};
use std::path::PathBuf;

/// The shipped positions: 10,000 quiet positions, one per game, from 2600+ GM games.
pub const BUILTIN_POSITIONS: &str = include_str!("../../../../data/positions-gm2600.epd");

/// Which evaluation parameters evolve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ParamSet {
    /// The paper's 35 values (230 bits); every other term is zero.
    Compact,
    /// Every value of `EVAL_TABLE`.
    Full,
}

impl ParamSet {
    /// The bit schema of this set's values in `coding` (the GA's genome layout).
    pub fn schema(self, coding: Coding) -> BitSchema {
        let names = match self {
            ParamSet::Compact => Some(COMPACT_SET),
            ParamSet::Full => None,
        };
        BitSchema::new(&EVAL_TABLE, names, coding).expect("the evaluation declares its sets")
    }
}

/// Who scores the positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MentorSpec {
    /// Kestrel's own search.
    Builtin,
    /// A UCI engine command line, e.g. `stockfish` or `/usr/games/toga2`.
    Uci(String),
}

impl std::str::FromStr for MentorSpec {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "builtin" => Ok(MentorSpec::Builtin),
            _ => match s.strip_prefix("uci:") {
                Some(cmd) if !cmd.trim().is_empty() => Ok(MentorSpec::Uci(cmd.trim().into())),
                _ => Err(format!(
                    "unknown mentor '{s}' (expected builtin or uci:COMMAND)"
                )),
            },
        }
    }
}

/// Where the positions come from.
#[derive(Clone, Debug)]
pub enum PositionsSource {
    /// The positions shipped inside the binary.
    Builtin,
    /// An EPD file with `c0 "train"` / `c0 "test"` tags.
    Epd(PathBuf),
    /// One position per game of a PGN file, `count` games in all, split in halves.
    Pgn {
        /// The PGN file (a `builtin:` name reads the compiled-in games; `.gz` is decompressed).
        path: PathBuf,
        /// Positions to extract in all (one per game), before the split.
        count: usize,
        /// Which positions of a game may be picked.
        rules: PickRules,
    },
}

/// Everything one mentor run needs.
#[derive(Clone, Debug)]
pub struct MentorRunConfig {
    /// Where the positions come from.
    pub positions: PositionsSource,
    /// The first (or only) mentor.
    pub mentor: MentorSpec,
    /// Further mentors: every mentor labels the positions, `combine` makes one label of them.
    pub extra_mentors: Vec<MentorSpec>,
    /// How several mentors' labels make one.
    pub combine: Combine,
    /// The mentors' search depth.
    pub depth: i32,
    /// Which evaluation values evolve.
    pub set: ParamSet,
    /// Bit strings (the paper) or real vectors.
    pub genome: GenomeKind,
    /// Bit coding (bit genomes only).
    pub coding: Coding,
    /// Training positions drawn per generation.
    pub sample: usize,
    /// The GA's settings.
    pub ga: GaSettings,
    /// The output folder.
    pub out_dir: PathBuf,
    /// Label cache file (default `<out>/labels.tsv`).
    pub labels: Option<PathBuf>,
    /// Continue from the folder's checkpoint.
    pub resume: bool,
    /// Show progress bars.
    pub progress: bool,
    /// UCI mentor processes (default: one per core).
    pub mentor_processes: usize,
    /// Run the fitness on Ray with these options (`None`: in process).
    pub ray: Option<RayOptions>,
}
