//! The mentor's scores, cached on disk so each (position, mentor, depth) is computed once.
//!
//! The cache is a tab-separated text file, one `mentor-key <TAB> FEN <TAB> cp|mate` per line.
//! Labelling appends and flushes one batch at a time, so a killed run keeps what it finished
//! and the next run labels only the rest; a torn last line is ignored on reading.

use kestrel_chess::Board;
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// A mentor's verdict: white-relative centipawns, or a mate score (such positions are dropped).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Label {
    /// A white-relative score in centipawns.
    Cp(i32),
    /// The mentor found a forced mate; the position is left out of training.
    Mate,
}

/// Labels one batch of positions; `None` marks a position the mentor failed on (not cached).
pub trait Mentor: Send {
    /// Names the mentor and its settings (e.g. `builtin-1a2b3c4d/d2`, `uci:stockfish/d2`).
    fn key(&self) -> String;
    /// Labels `boards` in order (one entry each); errs when the mentor cannot run at all.
    fn label(&mut self, boards: &[Board]) -> Result<Vec<Option<Label>>, String>;
    /// Engine restarts so far (crashes and hangs of an external engine).
    fn restarts(&self) -> usize {
        0
    }
}

/// Labels already computed for one mentor key.
pub struct LabelCache {
    path: PathBuf,
    key: String,
    entries: HashMap<String, Label>,
    /// Lines that could not be read (e.g. the torn last line of a killed run).
    pub unreadable_lines: usize,
}

impl LabelCache {
    /// Reads `path` if it exists, keeping the entries of `key`.
    pub fn open(path: &Path, key: &str) -> Result<LabelCache, String> {
        let mut cache = LabelCache {
            path: path.to_path_buf(),
            key: key.to_string(),
            entries: HashMap::new(),
            unreadable_lines: 0,
        };
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(cache),
            Err(e) => return Err(format!("cannot read label cache {}: {e}", path.display())),
        };
        for line in text.lines() {
            let mut parts = line.split('\t');
            let (Some(k), Some(fen), Some(value), None) =
                (parts.next(), parts.next(), parts.next(), parts.next())
            else {
                cache.unreadable_lines += 1;
                continue;
            };
            let label = match value {
                "mate" => Label::Mate,
                v => match v.parse() {
                    Ok(cp) => Label::Cp(cp),
                    Err(_) => {
                        cache.unreadable_lines += 1;
                        continue;
                    }
                },
            };
            if k == key {
                cache.entries.insert(fen.to_string(), label);
            }
        }
        Ok(cache)
    }

    /// The cached label of a position, by its FEN.
    pub fn get(&self, fen: &str) -> Option<Label> {
        self.entries.get(fen).copied()
    }

    /// Number of cached labels for this mentor key.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no label is cached for this mentor key.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Appends a batch and flushes it to disk.
    pub fn append(&mut self, batch: &[(String, Label)]) -> Result<(), String> {
        if batch.is_empty() {
            return Ok(());
        }
        let mut text = String::new();
        for (fen, label) in batch {
            let value = match label {
                Label::Cp(cp) => cp.to_string(),
                Label::Mate => "mate".to_string(),
            };
            text.push_str(&format!("{}\t{fen}\t{value}\n", self.key));
        }
        let write = || -> std::io::Result<()> {
            if let Some(dir) = self.path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir)?;
            }
            let mut f = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&self.path)?;
            // A torn line left by a killed writer would swallow our first line: start afresh.
            if f.metadata()?.len() > 0 && !ends_with_newline(&self.path)? {
                f.write_all(b"\n")?;
            }
            f.write_all(text.as_bytes())?;
            f.sync_data()
        };
        write()
            .map_err(|e| format!("cannot append to label cache {}: {e}", self.path.display()))?;
        for (fen, label) in batch {
            self.entries.insert(fen.clone(), *label);
        }
        Ok(())
    }
}

fn ends_with_newline(path: &Path) -> std::io::Result<bool> {
    use std::io::{Read, Seek, SeekFrom};
    let mut f = std::fs::File::open(path)?;
    f.seek(SeekFrom::End(-1))?;
    let mut last = [0u8];
    f.read_exact(&mut last)?;
    Ok(last[0] == b'\n')
}

/// What labelling did.
#[derive(Clone, Debug, Default)]
pub struct LabelStats {
    /// Positions whose label was already in the cache.
    pub cached: usize,
    /// Positions the mentor labelled in this run.
    pub computed: usize,
    /// Positions the mentor failed on (after its own retries); left out of this run.
    pub failed: usize,
    /// Mentor engine restarts (crashes and hangs) while labelling.
    pub restarts: usize,
    /// Wall-clock time spent labelling, in seconds.
    pub seconds: f64,
}

/// Labels for `boards`, from the cache where possible; the rest is computed by `mentor` in
/// batches of `batch` positions, each appended to the cache as soon as it is done.
pub fn label_positions(
    boards: &[Board],
    mentor: &mut dyn Mentor,
    cache: &mut LabelCache,
    batch: usize,
    on_batch: &mut dyn FnMut(usize, usize),
) -> Result<(Vec<Option<Label>>, LabelStats), String> {
    let start = std::time::Instant::now();
    let fens: Vec<String> = boards.iter().map(Board::to_fen).collect();
    let mut todo: Vec<usize> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut stats = LabelStats::default();
    for (i, fen) in fens.iter().enumerate() {
        if cache.get(fen).is_some() {
            stats.cached += 1;
        } else if seen.insert(fen.as_str()) {
            todo.push(i);
        }
    }
    let mut failed = std::collections::HashSet::new();
    let mut done = 0;
    for chunk in todo.chunks(batch.max(1)) {
        let chunk_boards: Vec<Board> = chunk.iter().map(|&i| boards[i].clone()).collect();
        let labels = mentor.label(&chunk_boards)?;
        if labels.len() != chunk.len() {
            return Err(format!(
                "mentor returned {} labels for {} positions",
                labels.len(),
                chunk.len()
            ));
        }
        let mut fresh = Vec::new();
        for (&i, label) in chunk.iter().zip(labels) {
            match label {
                Some(l) => fresh.push((fens[i].clone(), l)),
                None => {
                    failed.insert(i);
                }
            }
        }
        stats.computed += fresh.len();
        cache.append(&fresh)?;
        done += chunk.len();
        on_batch(done, todo.len());
    }
    stats.failed = failed.len();
    stats.restarts = mentor.restarts();
    stats.seconds = start.elapsed().as_secs_f64();
    let labels = fens.iter().map(|f| cache.get(f)).collect();
    Ok((labels, stats))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Scores positions by piece count, fails on one FEN, counts how often it is asked.
    struct Counting {
        calls: usize,
        fail_fen: String,
    }

    impl Mentor for Counting {
        fn key(&self) -> String {
            "counting/d1".into()
        }
        fn label(&mut self, boards: &[Board]) -> Result<Vec<Option<Label>>, String> {
            self.calls += boards.len();
            Ok(boards
                .iter()
                .map(|b| {
                    if b.to_fen() == self.fail_fen {
                        None
                    } else if b.is_checkmate() {
                        Some(Label::Mate)
                    } else {
                        Some(Label::Cp(b.occupied().count() as i32))
                    }
                })
                .collect())
        }
    }

    #[test]
    fn labels_are_cached_appended_and_reused() {
        let dir = std::env::temp_dir().join(format!("kestrel-labels-{}", std::process::id()));
        let path = dir.join("labels.tsv");
        let _ = std::fs::remove_file(&path);
        let boards: Vec<Board> = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "8/8/4k3/8/2P5/8/5K2/8 w - - 0 60",
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
            "8/5pk1/6p1/3P4/1r6/5PP1/R5K1/8 b - - 1 45",
        ]
        .iter()
        .map(|f| Board::from_fen(f).unwrap())
        .collect();
        let mut mentor = Counting {
            calls: 0,
            fail_fen: boards[3].to_fen(),
        };
        let mut cache = LabelCache::open(&path, &mentor.key()).unwrap();
        let (labels, stats) =
            label_positions(&boards, &mut mentor, &mut cache, 2, &mut |_, _| {}).unwrap();
        assert_eq!(
            labels,
            vec![
                Some(Label::Cp(32)),
                Some(Label::Cp(3)),
                Some(Label::Mate),
                None
            ]
        );
        assert_eq!((stats.computed, stats.failed, stats.cached), (3, 1, 0));
        // Simulate a torn line from a killed writer, then reopen: only the failure is redone.
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap()
            .write_all(b"counting/d1\trnbq")
            .unwrap();
        let mut cache = LabelCache::open(&path, &mentor.key()).unwrap();
        assert_eq!(cache.unreadable_lines, 1);
        assert_eq!(cache.len(), 3);
        mentor.fail_fen.clear();
        let before = mentor.calls;
        let (labels, stats) =
            label_positions(&boards, &mut mentor, &mut cache, 2, &mut |_, _| {}).unwrap();
        assert_eq!(mentor.calls - before, 1);
        assert_eq!(labels[3], Some(Label::Cp(9)));
        assert_eq!(stats.cached, 3);
        // Another mentor key sees nothing of this one.
        assert!(LabelCache::open(&path, "other/d2").unwrap().is_empty());
        let reread = LabelCache::open(&path, "counting/d1").unwrap();
        assert_eq!(reread.len(), 4);
        assert_eq!(reread.unreadable_lines, 1);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
