//! The one params-file loader of the engine: any file with `[eval]` and/or `[search]` (an
//! evolved `best.toml`, `params/falcon.toml`, a tuner's output) gives both value sets, with
//! defaults for every name it does not set. Every `--params` flag and the UCI `ParamsFile`
//! option read files through [`EngineParams::load`], so a file means the same everywhere.

use crate::{EngineConfig, SEARCH_TABLE};
use kestrel_eval::{EVAL_TABLE, Evaluator};
use kestrel_params::{ParamFileError, ParamTable, ParamValues, ParamsFile};
use std::path::Path;

/// The tables a params file may hold, in the order of [`EngineParams`]' fields.
pub const ENGINE_TABLES: [&ParamTable; 2] = [&EVAL_TABLE, &SEARCH_TABLE];

/// Evaluation and search parameters read from one params file.
#[derive(Clone, Debug)]
pub struct EngineParams {
    /// `[eval]` values (defaults where the file is silent).
    pub eval: ParamValues,
    /// `[search]` values (defaults where the file is silent).
    pub search: ParamValues,
    /// The sections the file held (`eval`, `search`).
    pub sections: Vec<&'static str>,
}

impl Default for EngineParams {
    fn default() -> Self {
        EngineParams {
            eval: ParamValues::defaults(&EVAL_TABLE),
            search: ParamValues::defaults(&SEARCH_TABLE),
            sections: Vec::new(),
        }
    }
}

impl EngineParams {
    /// Reads `path`, named by `origin` (`--params`, `ParamsFile`, ...), which every error names
    /// along with the file: `--params best.toml: [search] unknown parameter 'X'`.
    pub fn load(path: &Path, origin: &str) -> Result<EngineParams, ParamFileError> {
        let loaded = ParamsFile::load_for(path, &ENGINE_TABLES, origin)?;
        Ok(Self::from_sets(loaded.sets, loaded.sections))
    }

    /// [`EngineParams::load`] on params-file text (a chromosome database row, a test).
    pub fn parse(text: &str) -> Result<EngineParams, ParamFileError> {
        let loaded = ParamsFile::parse_sections(text, &ENGINE_TABLES)?;
        Ok(Self::from_sets(loaded.sets, loaded.sections))
    }

    fn from_sets(sets: Vec<ParamValues>, sections: Vec<&'static str>) -> EngineParams {
        let [eval, search]: [ParamValues; 2] = sets
            .try_into()
            .expect("ParamsFile returns one set per table");
        EngineParams {
            eval,
            search,
            sections,
        }
    }

    /// Puts both sets into an engine configuration (evaluator and search parameters).
    pub fn apply_to(&self, config: &mut EngineConfig) {
        config.evaluator = Evaluator::new(self.eval.clone());
        config.search_params = self.search.clone();
    }

    /// Whether the file held the section (`"eval"`, `"search"`).
    pub fn has(&self, section: &str) -> bool {
        self.sections.contains(&section)
    }

    /// `[eval] and [search]`, `[eval]`, ... or `no section (defaults)`, for one status line.
    pub fn describe_sections(&self) -> String {
        if self.sections.is_empty() {
            return "no section (defaults)".into();
        }
        let names: Vec<String> = self.sections.iter().map(|s| format!("[{s}]")).collect();
        names.join(" and ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn either_section_or_both_or_none() {
        let both =
            EngineParams::parse("[eval]\nBISHOP_PAIR = 40\n[search]\nNULL_MOVE_R = 2\n").unwrap();
        assert_eq!(both.eval.get("BISHOP_PAIR"), Some(&[40][..]));
        assert_eq!(both.search.get("NULL_MOVE_R"), Some(&[2][..]));
        assert_eq!(both.describe_sections(), "[eval] and [search]");
        let eval_only = EngineParams::parse("[eval]\nBISHOP_PAIR = 40\n").unwrap();
        assert_eq!(eval_only.search, ParamValues::defaults(&SEARCH_TABLE));
        assert!(eval_only.has("eval") && !eval_only.has("search"));
        let search_only = EngineParams::parse("[search]\nNULL_MOVE_R = 2\n").unwrap();
        assert_eq!(search_only.eval, ParamValues::defaults(&EVAL_TABLE));
        assert_eq!(
            EngineParams::parse("").unwrap().describe_sections(),
            "no section (defaults)"
        );
    }

    #[test]
    fn errors_name_the_flag_the_file_and_the_parameter() {
        let path = std::env::temp_dir().join(format!("kestrel-ep-{}.toml", std::process::id()));
        std::fs::write(&path, "[search]\nNOT_A_PARAM = 1\n").unwrap();
        let err = EngineParams::load(&path, "--params")
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            format!(
                "--params {}: [search] unknown parameter 'NOT_A_PARAM'",
                path.display()
            )
        );
        std::fs::remove_file(&path).unwrap();
        let err = EngineParams::load(&path, "ParamsFile")
            .unwrap_err()
            .to_string();
        assert!(err.starts_with(&format!(
            "ParamsFile {}: cannot read the file",
            path.display()
        )));
    }
}
