//! A run's output folder: claimed before the run writes anything, so that a repeated command
//! never replaces an earlier run by accident and two runs never share one folder, and closed
//! with a `summary.txt` that keeps what the run printed at its end.

use anyhow::{Context, bail};
use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The lock file inside a claimed folder; it holds the owner's process id.
const LOCK_FILE: &str = ".kestrel.lock";
/// Caches a new run may reuse (keyed by what they hold): kept by `--overwrite`, and a folder
/// holding only these is not refused.
const CACHES: &[&str] = &["labels.tsv"];
/// The file a finished run writes last, with what it printed at its end.
pub const SUMMARY_FILE: &str = "summary.txt";
/// Files whose presence marks a folder as holding a Kestrel run.
const RUN_MARKERS: &[&str] = &[
    "checkpoint.json",
    "log.csv",
    SUMMARY_FILE,
    "best.toml",
    "progress.json",
];

/// How a command may treat a folder that already holds a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reuse {
    /// Refuse it (the default).
    Refuse,
    /// Continue it (`--resume`).
    Resume,
    /// Delete its files and start again (`--overwrite`).
    Overwrite,
}

impl Reuse {
    /// For the commands continued by running them again: `--overwrite` if given, else resume
    /// when the folder holds the run's `marker` file, else refuse a folder of other runs.
    pub fn rerun(overwrite: bool, marker: &std::path::Path) -> Reuse {
        if overwrite {
            Reuse::Overwrite
        } else if marker.exists() {
            Reuse::Resume
        } else {
            Reuse::Refuse
        }
    }

    /// The reuse the `--resume` and `--overwrite` flags ask for.
    pub fn from_flags(resume: bool, overwrite: bool) -> anyhow::Result<Reuse> {
        match (resume, overwrite) {
            (true, true) => bail!("--resume and --overwrite exclude each other"),
            (true, false) => Ok(Reuse::Resume),
            (false, true) => Ok(Reuse::Overwrite),
            (false, false) => Ok(Reuse::Refuse),
        }
    }
}

/// A claimed output folder. The lock is the operating system's (released on exit, crash or
/// kill), so a stale lock file from a killed run never blocks the next one.
pub struct RunFolder {
    dir: PathBuf,
    _lock: File,
    started: Instant,
    figures: Vec<String>,
}

/// Prints a closing line of a run and keeps it for the run's `summary.txt`.
macro_rules! say {
    ($folder:expr, $($arg:tt)*) => {
        $folder.say(format!($($arg)*))
    };
}
pub(crate) use say;

impl RunFolder {
    /// Creates `dir` if needed, locks it, and checks it against `reuse`: a folder holding a
    /// run is refused unless resumed or overwritten; a folder holding other files is refused.
    pub fn claim(dir: &Path, reuse: Reuse) -> anyhow::Result<RunFolder> {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create output folder {}", dir.display()))?;
        let lock = lock(dir)?;
        let entries = entries(dir)?;
        let holds_run = RUN_MARKERS.iter().any(|m| entries.iter().any(|e| e == m));
        match reuse {
            _ if entries.is_empty() => {}
            Reuse::Resume => {}
            Reuse::Overwrite if holds_run => clear(dir)?,
            Reuse::Refuse if holds_run => bail!(
                "output folder {} holds an earlier run ({}): continue it with --resume, replace it \
                 with --overwrite, or name another --out",
                dir.display(),
                present_markers(&entries)
            ),
            _ => bail!(
                "output folder {} is not empty and holds no Kestrel run ({} entries, e.g. {}): \
                 name another --out",
                dir.display(),
                entries.len(),
                entries[0]
            ),
        }
        Ok(RunFolder {
            dir: dir.to_path_buf(),
            _lock: lock,
            started: Instant::now(),
            figures: Vec::new(),
        })
    }

    /// Prints `line` and keeps it for `summary.txt` (use the [`say!`] macro).
    pub fn say(&mut self, line: String) {
        println!("{line}");
        self.figures.push(line);
    }

    /// Prints a rendered report (lines ending in newlines) and keeps its lines for `summary.txt`.
    pub fn report(&mut self, text: &str) {
        print!("{text}");
        self.figures.extend(text.lines().map(str::to_string));
    }

    /// Writes `summary.txt` and prints where it is: the run is complete.
    pub fn finish(self, seed: u64) -> anyhow::Result<()> {
        let path = self.write_summary(seed, &self.figures)?;
        println!("summary           {}", path.display());
        Ok(())
    }

    /// Writes `summary.txt` (atomically): the command line, the seed, the build, the wall time
    /// and `figures`, the lines the command printed at its end.
    pub fn write_summary(&self, seed: u64, figures: &[String]) -> anyhow::Result<PathBuf> {
        let command: Vec<String> = std::env::args().collect();
        let mut text = format!(
            "command   {}\nseed      {seed}\nbuild     kestrel {}\nwall      {:.1} s\nfinished  {}\n\n",
            command.join(" "),
            kestrel_uci::VERSION,
            self.started.elapsed().as_secs_f64(),
            utc_now(),
        );
        for line in figures {
            text.push_str(line);
            text.push('\n');
        }
        let path = self.dir.join(SUMMARY_FILE);
        kestrel_params::atomic::write_atomic(&path, text.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
        Ok(path)
    }
}

/// The current time as `YYYY-MM-DD HH:MM:SS UTC` (civil date from days since 1970).
fn utc_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs()) as i64;
    let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Howard Hinnant's days-to-civil conversion (proleptic Gregorian calendar).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02} UTC",
        rest / 3_600,
        rest % 3_600 / 60,
        rest % 60
    )
}

/// Takes the folder's lock without waiting, and writes this process's id into it.
fn lock(dir: &Path) -> anyhow::Result<File> {
    let path = dir.join(LOCK_FILE);
    let mut file = File::options()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .with_context(|| format!("cannot open lock file {}", path.display()))?;
    if let Err(e) = file.try_lock() {
        let mut owner = String::new();
        let _ = file.read_to_string(&mut owner);
        let owner = owner.trim();
        let who = if owner.is_empty() {
            "another process".to_string()
        } else {
            format!("process {owner}")
        };
        bail!(
            "output folder {} is in use by {who} ({}): wait for that run or name another --out",
            dir.display(),
            match e {
                std::fs::TryLockError::WouldBlock => "locked".to_string(),
                std::fs::TryLockError::Error(e) => e.to_string(),
            }
        );
    }
    file.set_len(0)?;
    file.seek(SeekFrom::Start(0))?;
    writeln!(file, "{}", std::process::id())?;
    file.flush()?;
    Ok(file)
}

/// The folder's entry names, sorted, without the lock file.
fn entries(dir: &Path) -> anyhow::Result<Vec<String>> {
    let mut names = Vec::new();
    for entry in
        std::fs::read_dir(dir).with_context(|| format!("cannot read folder {}", dir.display()))?
    {
        let name = entry?.file_name().to_string_lossy().into_owned();
        if name != LOCK_FILE && !CACHES.contains(&name.as_str()) {
            names.push(name);
        }
    }
    names.sort();
    Ok(names)
}

fn present_markers(entries: &[String]) -> String {
    let found: Vec<&str> = RUN_MARKERS
        .iter()
        .copied()
        .filter(|m| entries.iter().any(|e| e == m))
        .collect();
    found.join(", ")
}

/// Deletes the files at the top of a run folder (subfolders are left alone).
fn clear(dir: &Path) -> anyhow::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let keep = name == LOCK_FILE || CACHES.contains(&name.as_str());
        if !keep && entry.file_type()?.is_file() {
            std::fs::remove_file(entry.path())
                .with_context(|| format!("cannot remove {}", entry.path().display()))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("kestrel-runfolder-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn a_folder_with_a_run_is_refused_unless_resumed_or_overwritten() {
        let dir = temp_dir("refuse");
        drop(RunFolder::claim(&dir, Reuse::Refuse).unwrap());
        std::fs::write(dir.join("log.csv"), "x").unwrap();
        let err = RunFolder::claim(&dir, Reuse::Refuse)
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("--resume") && err.contains("log.csv"), "{err}");
        drop(RunFolder::claim(&dir, Reuse::Resume).unwrap());
        assert!(dir.join("log.csv").exists());
        drop(RunFolder::claim(&dir, Reuse::Overwrite).unwrap());
        assert!(!dir.join("log.csv").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_folder_of_other_files_is_refused_even_with_overwrite() {
        let dir = temp_dir("foreign");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("notes.md"), "mine").unwrap();
        let err = RunFolder::claim(&dir, Reuse::Overwrite)
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("holds no Kestrel run"), "{err}");
        assert!(dir.join("notes.md").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_held_folder_is_refused_and_freed_when_the_holder_drops() {
        let dir = temp_dir("lock");
        let held = RunFolder::claim(&dir, Reuse::Refuse).unwrap();
        let err = RunFolder::claim(&dir, Reuse::Resume)
            .err()
            .unwrap()
            .to_string();
        assert!(
            err.contains("in use by process") && err.contains(&std::process::id().to_string()),
            "{err}"
        );
        drop(held);
        drop(RunFolder::claim(&dir, Reuse::Resume).unwrap());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_summary_names_seed_build_and_figures() {
        let dir = temp_dir("summary");
        let folder = RunFolder::claim(&dir, Reuse::Refuse).unwrap();
        let path = folder.write_summary(7, &["best 1.5 cp".into()]).unwrap();
        let text = std::fs::read_to_string(path).unwrap();
        assert!(
            text.contains("seed      7") && text.contains("best 1.5 cp"),
            "{text}"
        );
        assert!(text.contains(kestrel_uci::VERSION), "{text}");
        drop(folder);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
