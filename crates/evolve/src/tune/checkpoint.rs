//! The tuner's state every N epochs (JSON, written atomically) and its log, so `--resume`
//! continues a killed run with exactly the steps an uninterrupted run would take.

use crate::tune::optimise::Adam;
use kestrel_params::atomic::write_atomic;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::path::Path;

/// Losses after `epoch` steps.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct LogRow {
    /// Adam steps taken before these losses were measured (0: the start values).
    pub epoch: u64,
    /// Mean squared error of σ(eval) to the targets on the training set (no L2 penalty).
    pub train: f64,
    /// Mean squared error of σ(eval) to the targets on the test set.
    pub test: f64,
}

/// `log.csv`: one row per epoch.
pub fn render_log(rows: &[LogRow]) -> String {
    let mut s = String::from("epoch,train_loss,test_loss\n");
    for r in rows {
        writeln!(s, "{},{:.9},{:.9}", r.epoch, r.train, r.test).expect("writing to a String");
    }
    s
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
/// The tuner's full state after some epochs, saved as JSON so `--resume` continues exactly.
pub struct TuneCheckpoint {
    /// Names the data and settings; a resume must match it.
    pub fingerprint: String,
    /// Steps taken.
    pub epoch: u64,
    /// Float value of every flat parameter of the evaluation table, after `epoch` steps.
    pub values: Vec<f64>,
    /// Adam's settings and moment estimates after `epoch` steps.
    pub adam: Adam,
    /// Rows for epochs `0..epoch`.
    pub log: Vec<LogRow>,
}

impl TuneCheckpoint {
    /// Writes the checkpoint to `path` atomically; errors when the file cannot be written.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let bytes = serde_json::to_vec(self).expect("a checkpoint is plain data");
        write_atomic(path, &bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))
    }

    /// The checkpoint at `path`, or `None` when there is none.
    pub fn load(path: &Path) -> Result<Option<TuneCheckpoint>, String> {
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(format!("cannot read checkpoint {}: {e}", path.display())),
        };
        serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(|e| format!("checkpoint {} is damaged: {e}", path.display()))
    }
}

/// FNV-1a over 64-bit words: a cheap fingerprint of the data and settings.
#[derive(Clone, Copy, Debug)]
pub struct Fingerprint(u64);

impl Default for Fingerprint {
    fn default() -> Self {
        Fingerprint(0xcbf2_9ce4_8422_2325)
    }
}

impl Fingerprint {
    /// Mixes the eight bytes of `word` (little-endian) into the hash.
    pub fn eat(&mut self, word: u64) {
        for byte in word.to_le_bytes() {
            self.0 = (self.0 ^ byte as u64).wrapping_mul(0x0100_0000_01b3);
        }
    }

    /// Mixes the exact bits of `x` into the hash.
    pub fn eat_f64(&mut self, x: f64) {
        self.eat(x.to_bits());
    }

    /// The hash as 16 lowercase hex digits.
    pub fn hex(self) -> String {
        format!("{:016x}", self.0)
    }
}
