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
    pub epoch: u64,
    pub train: f64,
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
pub struct TuneCheckpoint {
    /// Names the data and settings; a resume must match it.
    pub fingerprint: String,
    /// Steps taken.
    pub epoch: u64,
    pub values: Vec<f64>,
    pub adam: Adam,
    /// Rows for epochs `0..epoch`.
    pub log: Vec<LogRow>,
}

impl TuneCheckpoint {
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
    pub fn eat(&mut self, word: u64) {
        for byte in word.to_le_bytes() {
            self.0 = (self.0 ^ byte as u64).wrapping_mul(0x0100_0000_01b3);
        }
    }

    pub fn eat_f64(&mut self, x: f64) {
        self.eat(x.to_bits());
    }

    pub fn hex(self) -> String {
        format!("{:016x}", self.0)
    }
}
