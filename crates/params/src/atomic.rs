//! Atomic file writes: write a sibling temporary file, flush it, then rename over the target,
//! so that a killed process never leaves a half-written file behind. A killed process may leave
//! its temporary file (`.NAME.tmpPID`); [`clean_stale_temps`] removes those on `--resume`.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Writes `bytes` to `path` through a temporary sibling `.NAME.tmpPID` and a rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    fs::create_dir_all(dir)?;
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::other("path has no file name"))?;
    let tmp = dir.join(temp_name(&name.to_string_lossy(), std::process::id()));
    {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
    }
    fs::rename(&tmp, path)
}

/// The temporary file name [`write_atomic`] uses for `name` in process `pid`.
pub fn temp_name(name: &str, pid: u32) -> String {
    format!(".{name}.tmp{pid}")
}

/// The writing process of a temporary file name, if it is one of ours.
fn temp_owner(file_name: &str) -> Option<u32> {
    let rest = file_name.strip_prefix('.')?;
    let (stem, pid) = rest.rsplit_once(".tmp")?;
    if stem.is_empty() || pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    pid.parse().ok()
}

/// Whether process `pid` still runs (Linux `/proc`; elsewhere every other process counts as
/// gone, which is right for the single run that owns an output folder).
fn is_alive(pid: u32) -> bool {
    pid == std::process::id() || Path::new(&format!("/proc/{pid}")).exists()
}

/// Removes the temporary files in `dir` left by atomic writes of processes that no longer run
/// (a killed run); returns the removed paths. A missing folder holds nothing to remove.
pub fn remove_stale_temps(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let mut removed = Vec::new();
    for entry in entries {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let stale = temp_owner(&name).is_some_and(|pid| !is_alive(pid));
        if stale && entry.file_type()?.is_file() {
            fs::remove_file(entry.path())?;
            removed.push(entry.path());
        }
    }
    removed.sort();
    Ok(removed)
}

/// [`remove_stale_temps`] for a resumed run, saying on stderr what it removed (or why it could
/// not); a failure here never stops the resume.
pub fn clean_stale_temps(dir: &Path) -> Vec<PathBuf> {
    match remove_stale_temps(dir) {
        Ok(removed) => {
            if !removed.is_empty() {
                let names: Vec<String> = removed
                    .iter()
                    .filter_map(|p| p.file_name())
                    .map(|n| n.to_string_lossy().into_owned())
                    .collect();
                eprintln!(
                    "resume: removed {} temporary file(s) left by a killed run in {}: {}",
                    removed.len(),
                    dir.display(),
                    names.join(", ")
                );
            }
            removed
        }
        Err(e) => {
            eprintln!(
                "resume: cannot clean temporary files in {}: {e}",
                dir.display()
            );
            Vec::new()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A process id that is not running (beyond Linux's default pid_max).
    const DEAD_PID: u32 = 4_000_000_000;

    #[test]
    fn temp_names_are_recognised() {
        assert_eq!(temp_owner(&temp_name("checkpoint.json", 42)), Some(42));
        assert_eq!(temp_owner("checkpoint.json"), None);
        assert_eq!(temp_owner(".checkpoint.json.tmp"), None);
        assert_eq!(temp_owner(".x.tmp12a"), None);
        assert_eq!(temp_owner("x.tmp12"), None);
    }

    #[test]
    fn stale_temps_are_removed_and_everything_else_kept() {
        let dir = std::env::temp_dir().join(format!("kestrel-atomic-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        write_atomic(&dir.join("checkpoint.json"), b"{}").unwrap();
        let stale = dir.join(temp_name("checkpoint.json", DEAD_PID));
        let own = dir.join(temp_name("log.csv", std::process::id()));
        let other = dir.join("notes.tmp1");
        for p in [&stale, &own, &other] {
            fs::write(p, b"half").unwrap();
        }
        assert_eq!(remove_stale_temps(&dir).unwrap(), vec![stale.clone()]);
        assert!(!stale.exists() && own.exists() && other.exists());
        assert!(dir.join("checkpoint.json").exists());
        assert!(remove_stale_temps(&dir.join("missing")).unwrap().is_empty());
        fs::remove_dir_all(&dir).unwrap();
    }
}
