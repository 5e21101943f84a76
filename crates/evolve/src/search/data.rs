//! The positions and parameter sets of a search-GA command: suites read and split (seeded)
//! into train and test or given apart, a cap on the training positions, a validation share
//! held out of them, the names of the evolved set, and params files to compare or simplify.

use crate::search::suite::{read_suites, split};
use kestrel_params::ParamValues;
use kestrel_search::{EngineParams, FALCON_SET, SEARCH_TABLE};
use std::path::{Path, PathBuf};

/// Seed offset of the validation split, so it does not repeat the train/test shuffle.
pub const VALIDATION_SPLIT_SEED: u64 = 0x7a11_da7e;

/// Where a run's positions come from.
#[derive(Clone, Debug)]
pub struct SuiteChoice {
    /// Suites split into train and test (used when `train` is empty).
    pub suite: Vec<PathBuf>,
    /// Training suites instead of a split.
    pub train: Vec<PathBuf>,
    /// Held-out suites with `train` (none: no test report).
    pub test: Vec<PathBuf>,
    /// Share of `suite` held out for testing, in [0, 1).
    pub test_fraction: f64,
    /// Seed of the train/test shuffle.
    pub split_seed: u64,
    /// Keep only the first N training positions.
    pub train_size: Option<usize>,
}

/// The usable lines of the suites at `paths`; lines left out are named on stderr.
pub fn suite_lines(paths: &[PathBuf]) -> Result<Vec<String>, String> {
    let refs: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
    let suites = read_suites(&refs)?;
    for s in &suites.skipped {
        eprintln!("skipped: {s}");
    }
    Ok(suites.lines)
}

/// (train, test) lines of `choice`.
pub fn train_and_test(choice: &SuiteChoice) -> Result<(Vec<String>, Vec<String>), String> {
    let (mut train, test) = if !choice.train.is_empty() {
        let test = if choice.test.is_empty() {
            Vec::new()
        } else {
            suite_lines(&choice.test)?
        };
        (suite_lines(&choice.train)?, test)
    } else {
        if !(0.0..1.0).contains(&choice.test_fraction) {
            return Err("--test-fraction must be within [0, 1)".into());
        }
        split(
            &suite_lines(&choice.suite)?,
            choice.test_fraction,
            choice.split_seed,
        )
    };
    if let Some(n) = choice.train_size {
        if n == 0 {
            return Err("--train-size must be at least 1".into());
        }
        train.truncate(n);
    }
    Ok((train, test))
}

/// (train, validation) lines: `fraction` of the training lines set aside, shuffled by the
/// GA's `seed`.
pub fn validation_split(
    train: Vec<String>,
    fraction: f64,
    seed: u64,
) -> Result<(Vec<String>, Vec<String>), String> {
    if !(0.0..1.0).contains(&fraction) {
        return Err("--validation-fraction must be within [0, 1)".into());
    }
    if fraction == 0.0 {
        return Ok((train, Vec::new()));
    }
    if train.len() < 2 {
        return Err("--validation-fraction needs at least two training positions".into());
    }
    Ok(split(&train, fraction, seed ^ VALIDATION_SPLIT_SEED))
}

/// The search parameters a set name stands for: `falcon`, `all`, or a comma-separated list.
pub fn set_names(set: &str) -> Vec<String> {
    match set {
        "falcon" => FALCON_SET.iter().map(|s| s.to_string()).collect(),
        "all" => SEARCH_TABLE
            .decls
            .iter()
            .map(|d| d.name.to_string())
            .collect(),
        list => list.split(',').map(|s| s.trim().to_string()).collect(),
    }
}

/// The search parameters of params file `name` (`default`: the defaults); an `[eval]`
/// section is noted on stderr and not used.
pub fn load_search_params(name: &str) -> Result<ParamValues, String> {
    if name == "default" {
        return Ok(ParamValues::defaults(&SEARCH_TABLE));
    }
    let params = EngineParams::load(Path::new(name), "--compare").map_err(|e| e.to_string())?;
    if params.has("eval") {
        eprintln!(
            "note: --compare {name}: its [eval] section is not used (search parameters only)"
        );
    }
    Ok(params.search)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("line {i}")).collect()
    }

    #[test]
    fn validation_is_a_seeded_share_of_the_training_lines() {
        let (train, validation) = validation_split(lines(8), 0.25, 4).unwrap();
        assert_eq!((train.len(), validation.len()), (6, 2));
        let mut all: Vec<String> = train.iter().chain(&validation).cloned().collect();
        all.sort();
        let mut expected = lines(8);
        expected.sort();
        assert_eq!(all, expected, "a split, nothing lost or repeated");
        assert_eq!(validation_split(lines(8), 0.25, 4).unwrap().1, validation);
        assert_eq!(
            validation_split(lines(5), 0.0, 4).unwrap(),
            (lines(5), Vec::new())
        );
        let err = validation_split(lines(5), 1.0, 4).unwrap_err();
        assert_eq!(err, "--validation-fraction must be within [0, 1)");
        let err = validation_split(lines(1), 0.5, 4).unwrap_err();
        assert!(err.contains("at least two training positions"), "{err}");
    }

    #[test]
    fn set_names_and_bad_choices() {
        assert_eq!(set_names("falcon").len(), FALCON_SET.len());
        assert_eq!(set_names("all").len(), SEARCH_TABLE.decls.len());
        assert_eq!(set_names("a, b"), vec!["a".to_string(), "b".to_string()]);
        let choice = SuiteChoice {
            suite: vec![PathBuf::from("no-such-suite.epd")],
            train: Vec::new(),
            test: Vec::new(),
            test_fraction: 1.5,
            split_seed: 1,
            train_size: None,
        };
        let err = train_and_test(&choice).unwrap_err();
        assert_eq!(err, "--test-fraction must be within [0, 1)");
        let missing = SuiteChoice {
            test_fraction: 0.5,
            ..choice
        };
        assert!(
            train_and_test(&missing)
                .unwrap_err()
                .contains("no-such-suite.epd")
        );
        assert!(load_search_params("no-such-params.toml").is_err());
        assert_eq!(
            load_search_params("default").unwrap(),
            ParamValues::defaults(&SEARCH_TABLE)
        );
    }
}
