//! The progress files of resumable runs (JSON, written atomically) and the errors of a run.

use serde::Serialize;
use serde::de::DeserializeOwned;
use std::path::{Path, PathBuf};

/// The progress file of a run folder (data and label runs alike).
pub const PROGRESS_FILE: &str = "progress.json";
/// The data file of a run folder.
pub const DATA_FILE: &str = "positions.kpos";

/// Why a run could not go on.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// A data file could not be read or written.
    #[error("{0}")]
    Data(#[from] crate::format::DataError),
    /// The progress file is unreadable, or from other settings.
    #[error("{path}: {why}")]
    Progress {
        /// The progress file.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
    /// The thread pool could not be built.
    #[error("cannot start {0} threads")]
    Threads(usize),
    /// The mentor engine failed.
    #[error("{0}")]
    Mentor(String),
    /// The input holds nothing to work on.
    #[error("{0}")]
    Input(String),
    /// Cluster workers failed or answered nonsense.
    #[error("{0}")]
    Cluster(String),
}

/// Reads a folder's progress file, if there is one.
pub fn read_progress<T: DeserializeOwned>(dir: &Path) -> Result<Option<T>, RunError> {
    let path = dir.join(PROGRESS_FILE);
    let bad = |why: String| RunError::Progress {
        path: path.clone(),
        why,
    };
    match std::fs::read_to_string(&path) {
        Ok(text) => serde_json::from_str(&text)
            .map(Some)
            .map_err(|e| bad(format!("corrupt or foreign progress file: {e}"))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(bad(e.to_string())),
    }
}

/// Writes a folder's progress file atomically.
pub fn write_progress<T: Serialize>(dir: &Path, progress: &T) -> Result<(), RunError> {
    let path = dir.join(PROGRESS_FILE);
    let text = serde_json::to_string_pretty(progress).expect("progress serialises");
    kestrel_params::atomic::write_atomic(&path, text.as_bytes()).map_err(|e| RunError::Progress {
        path,
        why: e.to_string(),
    })
}

/// The error for a resume whose settings differ from the run's.
pub fn other_settings(dir: &Path, stored: impl Serialize) -> RunError {
    RunError::Progress {
        path: dir.join(PROGRESS_FILE),
        why: format!(
            "the run in this folder was started with other settings ({}); use the same \
             options, or another --out",
            serde_json::to_string(&stored).unwrap_or_default()
        ),
    }
}

/// The records of a data path: a `.kpos` file, or a run folder (`nnue data`, `nnue label`)
/// whose complete blocks so far are read (so a run that is still writing can be trained on).
pub fn read_data(path: &Path) -> Result<Vec<crate::format::PackedPosition>, RunError> {
    if !path.is_dir() {
        return Ok(crate::format::read_all(path)?);
    }
    let bytes = read_progress::<serde_json::Value>(path)?
        .and_then(|p| p.get("bytes").and_then(serde_json::Value::as_u64))
        .ok_or_else(|| {
            RunError::Input(format!(
                "{} is a folder without a run's {PROGRESS_FILE}",
                path.display()
            ))
        })?;
    Ok(crate::format::read_prefix(
        &path.join(DATA_FILE),
        Some(bytes),
    )?)
}

/// The records of `paths` (data files or run folders, see [`read_data`]) in order, only the
/// first `max_positions` when given.
pub fn read_records(
    paths: &[std::path::PathBuf],
    max_positions: Option<usize>,
) -> Result<Vec<crate::format::PackedPosition>, RunError> {
    let mut all = Vec::new();
    for path in paths {
        if max_positions.is_some_and(|n| all.len() >= n) {
            break;
        }
        all.extend(read_data(path)?);
    }
    if let Some(n) = max_positions {
        all.truncate(n);
    }
    Ok(all)
}
