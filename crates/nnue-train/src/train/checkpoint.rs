//! The trainer's checkpoint (`checkpoint.bin`), written atomically after every epoch:
//!
//! | bytes | field |
//! | --- | --- |
//! | 8 | magic `KSTRLCKP` |
//! | 4 | length L of the header |
//! | L | header, JSON: the run's fingerprint, epochs done, the log |
//! | 4 × 3P | parameters, Adam's first and second moments (`f32`) |
//! | 8 | Adam's step count |
//! | 8 | FNV-1a 64 of every byte before it |

use super::adam::Adam;
use crate::progress::RunError;
use kestrel_nnue::file::fnv1a64;
use serde::{Deserialize, Serialize};
use std::path::Path;

const MAGIC: &[u8; 8] = b"KSTRLCKP";

/// One epoch's line of `log.csv`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LogRow {
    /// The epoch (from 1).
    pub epoch: usize,
    /// Mean training loss over the epoch (before each step).
    pub train_loss: f64,
    /// Validation loss after the epoch.
    pub validation_loss: f64,
    /// The learning rate at the epoch's last step.
    pub lr: f32,
    /// Seconds the epoch took (not part of the exact resume's comparison).
    pub seconds: f64,
}

/// What a checkpoint holds besides the numbers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// The settings and data the run was started with (a resume must match).
    pub fingerprint: String,
    /// Epochs done.
    pub epochs_done: usize,
    /// One row per epoch done.
    pub log: Vec<LogRow>,
}

/// Writes the checkpoint atomically.
pub fn save(path: &Path, header: &Header, params: &[f32], adam: &Adam) -> Result<(), RunError> {
    let json = serde_json::to_vec(header).expect("header serialises");
    let mut out = Vec::with_capacity(json.len() + 12 * params.len() + 32);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&(json.len() as u32).to_le_bytes());
    out.extend_from_slice(&json);
    for v in params.iter().chain(&adam.m).chain(&adam.v) {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(&adam.step.to_le_bytes());
    let sum = fnv1a64(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    kestrel_params::atomic::write_atomic(path, &out).map_err(|e| RunError::Progress {
        path: path.to_path_buf(),
        why: e.to_string(),
    })
}

/// Reads a checkpoint of `n` parameters.
pub fn load(path: &Path, n: usize) -> Result<(Header, Vec<f32>, Adam), RunError> {
    let bad = |why: String| RunError::Progress {
        path: path.to_path_buf(),
        why,
    };
    let bytes = std::fs::read(path).map_err(|e| bad(e.to_string()))?;
    if bytes.len() < 28 || &bytes[..8] != MAGIC {
        return Err(bad("not a Kestrel trainer checkpoint".into()));
    }
    let json_len = u32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize;
    let expected = 12 + json_len + 12 * n + 16;
    if bytes.len() != expected {
        return Err(bad(format!(
            "{} bytes, expected {expected} for {n} parameters (truncated, or another network size)",
            bytes.len()
        )));
    }
    let stored = u64::from_le_bytes(bytes[expected - 8..].try_into().unwrap());
    if fnv1a64(&bytes[..expected - 8]) != stored {
        return Err(bad("checksum mismatch (corrupt checkpoint)".into()));
    }
    let header: Header = serde_json::from_slice(&bytes[12..12 + json_len])
        .map_err(|e| bad(format!("corrupt header: {e}")))?;
    let floats: Vec<f32> = bytes[12 + json_len..12 + json_len + 12 * n]
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let step = u64::from_le_bytes(bytes[expected - 16..expected - 8].try_into().unwrap());
    let adam = Adam {
        m: floats[n..2 * n].to_vec(),
        v: floats[2 * n..].to_vec(),
        step,
    };
    Ok((header, floats[..n].to_vec(), adam))
}
