//! Scratch folders for tests: each test gets an empty folder of its own under the system's
//! temporary folder, and the folder goes when the test ends, so repeated `cargo test` runs do not
//! fill `/tmp`. A failing test keeps its folder (and says where) for a look at what it wrote.

use std::ffi::OsStr;
use std::ops::Deref;
use std::path::{Path, PathBuf};

/// An empty folder `kestrel-NAME-PID` in the temporary folder, removed when dropped unless the
/// thread is panicking (a failed assertion). Dereferences to its [`Path`].
#[derive(Debug)]
pub struct ScratchDir {
    path: PathBuf,
}

impl ScratchDir {
    /// Creates the folder for `name`, first clearing one left by an earlier process of the same
    /// id. `name` must be unique among the tests of one test binary (they share the process).
    pub fn new(name: &str) -> ScratchDir {
        let path = std::env::temp_dir().join(format!("kestrel-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        if let Err(e) = std::fs::create_dir_all(&path) {
            panic!("cannot create the scratch folder {}: {e}", path.display());
        }
        ScratchDir { path }
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Deref for ScratchDir {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.path
    }
}

impl AsRef<Path> for ScratchDir {
    fn as_ref(&self) -> &Path {
        &self.path
    }
}

impl AsRef<OsStr> for ScratchDir {
    fn as_ref(&self) -> &OsStr {
        self.path.as_os_str()
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("kept the failed test's folder {}", self.path.display());
        } else {
            // Best effort: a folder a child process still holds open is left, not a failure.
            let _ = std::fs::remove_dir_all(&self.path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ScratchDir;

    #[test]
    fn the_folder_is_empty_at_first_and_gone_after_the_test() {
        let path = {
            let dir = ScratchDir::new("scratch-self-test");
            assert!(dir.is_dir());
            assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
            std::fs::write(dir.join("a.txt"), "x").unwrap();
            std::fs::create_dir(dir.join("sub")).unwrap();
            dir.path().to_path_buf()
        };
        assert!(!path.exists(), "{} was left behind", path.display());
    }

    #[test]
    fn a_panicking_test_keeps_its_folder() {
        let kept = std::thread::spawn(|| {
            let dir = ScratchDir::new("scratch-self-test-panic");
            std::fs::write(dir.join("evidence.txt"), "x").unwrap();
            let path = dir.path().to_path_buf();
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || {
                let _dir = dir;
                panic!("a failed assertion");
            }))
            .expect_err("the closure panics");
            path
        })
        .join()
        .unwrap();
        assert!(kept.join("evidence.txt").exists());
        std::fs::remove_dir_all(&kept).unwrap();
    }

    #[test]
    fn a_leftover_folder_of_the_same_name_is_cleared() {
        let first = ScratchDir::new("scratch-self-test-reuse");
        std::fs::write(first.join("old.txt"), "x").unwrap();
        std::mem::forget(first);
        let second = ScratchDir::new("scratch-self-test-reuse");
        assert!(!second.join("old.txt").exists());
    }
}
