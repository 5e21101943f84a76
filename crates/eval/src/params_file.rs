//! Reading the `[eval]` section of a params file that may also hold other engines' sections.

use crate::EVAL_TABLE;
use kestrel_params::{ParamFileError, ParamValues, ParamsFile};
use std::path::Path;

/// Sections owned by other parameter tables, which the evaluation skips (the search reads
/// `[search]`); any other unknown section is still an error.
pub const FOREIGN_SECTIONS: &[&str] = &["search"];

/// Evaluation parameters from params-file text: defaults for missing names, errors for unknown
/// names, out-of-range values and unknown sections.
pub fn parse_eval_params(text: &str) -> Result<ParamValues, ParamFileError> {
    let mut doc: toml::Table = text
        .parse()
        .map_err(|e: toml::de::Error| ParamFileError::Toml(e.to_string()))?;
    for section in FOREIGN_SECTIONS {
        doc.remove(*section);
    }
    let mut sets = ParamsFile::parse(&doc.to_string(), &[&EVAL_TABLE])?;
    Ok(sets.remove(0))
}

/// [`parse_eval_params`] on a file.
pub fn load_eval_params(path: &Path) -> Result<ParamValues, ParamFileError> {
    let text = std::fs::read_to_string(path).map_err(|source| ParamFileError::Io {
        path: path.display().to_string(),
        source,
    })?;
    parse_eval_params(&text)
}
