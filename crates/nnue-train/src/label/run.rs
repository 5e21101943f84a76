//! A labelling run: the positions of a data file rescored by a UCI mentor, in batches that are
//! each written as one block of the output (input order kept) before `progress.json` is
//! rewritten, so a killed run continues from its last batch. Positions the mentor scores as a
//! mate, whose best move is a capture or promotion, or that it fails on are dropped (counted).

use super::labeller::Labeller;
use super::pool::Verdict;
use crate::format::{DataReader, DataWriter, PackedPosition};
use crate::progress::{DATA_FILE, RunError, other_settings, read_progress, write_progress};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// `progress.json` of a labelling run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LabelProgress {
    /// The input data file.
    pub input: String,
    /// Records in the input (a changed input is refused).
    pub input_records: u64,
    /// The mentor and its limit ([`Labeller::key`]).
    pub mentor: String,
    /// Positions per batch (one output block each).
    pub batch: u64,
    /// Input records done.
    pub consumed: u64,
    /// Records written.
    pub written: u64,
    /// Bytes of the output that hold complete blocks.
    pub bytes: u64,
    /// Dropped: mate scores.
    pub mates: u64,
    /// Dropped: the mentor's best move is a capture or promotion.
    pub noisy: u64,
    /// Dropped: the mentor failed on them.
    pub failed: u64,
}

/// What a call of [`run_label`] did.
#[derive(Clone, Debug)]
pub struct LabelReport {
    /// The progress at the end.
    pub progress: LabelProgress,
    /// Input records done by this call.
    pub consumed_now: u64,
    /// Seconds this call took.
    pub seconds: f64,
    /// Whether this call continued an earlier run.
    pub resumed: bool,
    /// Mentor restarts in this call.
    pub restarts: usize,
}

/// The records of a data file one at a time, across its blocks.
struct RecordStream {
    reader: DataReader,
    buffer: VecDeque<PackedPosition>,
}

impl RecordStream {
    fn next_batch(&mut self, n: usize) -> Result<Vec<PackedPosition>, RunError> {
        while self.buffer.len() < n {
            match self.reader.next_block()? {
                Some(block) => self.buffer.extend(block),
                None => break,
            }
        }
        let take = n.min(self.buffer.len());
        Ok(self.buffer.drain(..take).collect())
    }
}

/// Counts the input's records, checking every block.
fn count_records(input: &Path) -> Result<u64, RunError> {
    let mut reader = DataReader::open(input)?;
    let mut n = 0;
    while let Some(block) = reader.next_block()? {
        n += block.len() as u64;
    }
    Ok(n)
}

/// Labels (or continues labelling) the first `limit` (default: all) positions of `input` into
/// `dir`, `batch` positions at a time, calling `on_batch` after each. A later call with a larger
/// limit continues where this one stopped.
pub fn run_label(
    dir: &Path,
    input: &Path,
    batch: usize,
    limit: Option<u64>,
    mentor: &mut dyn Labeller,
    on_batch: &dyn Fn(&LabelProgress),
) -> Result<LabelReport, RunError> {
    let started = Instant::now();
    let restarts_before = mentor.restarts();
    let fresh = LabelProgress {
        input: input.display().to_string(),
        input_records: count_records(input)?,
        mentor: mentor.key(),
        batch: batch.max(1) as u64,
        consumed: 0,
        written: 0,
        bytes: 0,
        mates: 0,
        noisy: 0,
        failed: 0,
    };
    let (mut writer, mut progress, resumed) = open(dir, fresh)?;
    let mut stream = RecordStream {
        reader: DataReader::open(input)?,
        buffer: VecDeque::new(),
    };
    skip(&mut stream, progress.consumed)?;
    let consumed_before = progress.consumed;
    on_batch(&progress);
    let total = limit.map_or(progress.input_records, |n| n.min(progress.input_records));
    while progress.consumed < total {
        // Batches end at multiples of `batch`, so a run stopped early cuts where a full one does.
        let end = ((progress.consumed / progress.batch + 1) * progress.batch).min(total);
        let records = stream.next_batch((end - progress.consumed) as usize)?;
        if records.is_empty() {
            break;
        }
        let verdicts = mentor.label(&records).map_err(RunError::Mentor)?;
        let mut kept = Vec::with_capacity(records.len());
        for (record, verdict) in records.iter().zip(&verdicts) {
            match verdict {
                Verdict::Score(cp) => kept.push(record.with_score(*cp)),
                Verdict::Mate => progress.mates += 1,
                Verdict::Noisy => progress.noisy += 1,
                Verdict::Failed => progress.failed += 1,
            }
        }
        writer.write_block(&kept)?;
        progress.consumed += records.len() as u64;
        progress.written += kept.len() as u64;
        progress.bytes = writer.bytes();
        write_progress(dir, &progress)?;
        on_batch(&progress);
    }
    Ok(LabelReport {
        consumed_now: progress.consumed - consumed_before,
        progress,
        seconds: started.elapsed().as_secs_f64(),
        resumed,
        restarts: mentor.restarts() - restarts_before,
    })
}

fn skip(stream: &mut RecordStream, mut n: u64) -> Result<(), RunError> {
    while n > 0 {
        let step = n.min(1 << 16) as usize;
        if stream.next_batch(step)?.len() < step {
            return Err(RunError::Input(
                "the input is shorter than the labelled part".into(),
            ));
        }
        n -= step as u64;
    }
    Ok(())
}

fn open(dir: &Path, fresh: LabelProgress) -> Result<(DataWriter, LabelProgress, bool), RunError> {
    let data: PathBuf = dir.join(DATA_FILE);
    match read_progress::<LabelProgress>(dir)? {
        Some(stored) => {
            let same = stored.input == fresh.input
                && stored.input_records == fresh.input_records
                && stored.mentor == fresh.mentor
                && stored.batch == fresh.batch;
            if !same {
                return Err(other_settings(
                    dir,
                    (
                        &stored.input,
                        stored.input_records,
                        &stored.mentor,
                        stored.batch,
                    ),
                ));
            }
            let writer = DataWriter::resume(&data, stored.bytes)?;
            Ok((writer, stored, true))
        }
        None => {
            let writer = DataWriter::create(&data)?;
            let progress = LabelProgress {
                bytes: writer.bytes(),
                ..fresh
            };
            write_progress(dir, &progress)?;
            Ok((writer, progress, false))
        }
    }
}
