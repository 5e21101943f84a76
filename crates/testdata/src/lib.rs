//! Test-only helpers: scratch folders that tests clean up ([`ScratchDir`]), and the shared data
//! set (GM games, EPD suites, perft suites, openings) that lives beside the repository in
//! `../shared/data`, not inside it.
//!
//! A fresh clone has no `../shared`: tests that need it print a `skipped:` line (visible even
//! when the test passes) and pass, so the README's test command works anywhere; tests that can
//! run on an excerpt read a fixture instead and size their expectations with [`by_data`]. CI
//! sets `KESTREL_REQUIRE_SHARED=1`, which turns a missing file into a failure, so CI can never
//! skip these tests silently. `KESTREL_SHARED_DATA` points at another copy of the data folder
//! (CI points it at an empty folder to run the suite as a bare clone).

mod scratch;

pub use scratch::ScratchDir;

use std::path::{Path, PathBuf};

/// The environment variable that makes a missing shared file a test failure (set by `.ci/run`).
pub const REQUIRE_VAR: &str = "KESTREL_REQUIRE_SHARED";

/// The environment variable that overrides where the shared data folder is.
pub const DATA_VAR: &str = "KESTREL_SHARED_DATA";

/// The repository's root folder (the workspace root).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The environment variable naming a file to which every test that asks for the shared data
/// appends its name, one line a call (`?` when the caller is not a test's own thread). `.ci/run`
/// sets it for the bare-clone run and runs only those tests (and its heavy list) a second time
/// with the data present.
pub const USE_LOG_VAR: &str = "KESTREL_SHARED_USE_LOG";

/// The shared data folder: `$KESTREL_SHARED_DATA`, else `../shared/data` beside the repository.
/// When the variable is set, `../shared` is never looked at: pointing it at an empty folder is
/// how CI runs the suite as a bare clone would, with the data set beside it. Every helper of this
/// crate that looks at the shared data comes through here, so the calling test is logged here.
pub fn data_dir() -> PathBuf {
    log_use(std::env::var_os(USE_LOG_VAR));
    data_dir_from(std::env::var_os(DATA_VAR))
}

/// Appends the calling test's name to the file `log` names (if any). libtest runs each test on a
/// thread named after it; any other thread is logged as `?`, which makes `.ci/run` rerun all.
fn log_use(log: Option<std::ffi::OsString>) {
    use std::io::Write;
    let Some(log) = log.filter(|l| !l.is_empty()) else {
        return;
    };
    let name = match std::thread::current().name() {
        Some(name) if name != "main" => name.to_string(),
        _ => "?".to_string(),
    };
    // One short append a call: lines of concurrent tests do not interleave.
    let written = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&log)
        .and_then(|mut f| f.write_all(format!("{name}\n").as_bytes()));
    if let Err(e) = written {
        panic!(
            "cannot append to {USE_LOG_VAR} {}: {e}",
            Path::new(&log).display()
        );
    }
}

/// [`data_dir`] for a given value of `KESTREL_SHARED_DATA` (`None`: unset).
fn data_dir_from(var: Option<std::ffi::OsString>) -> PathBuf {
    match var {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => repo_root().join("../shared/data"),
    }
}

/// Whether the shared copy of `relative` is present: what [`shared_or_fixture`] reads then.
pub fn has_shared(relative: &str) -> bool {
    data_dir().join(relative).exists()
}

/// `with_shared` when the shared copy of `relative` is present, else `with_fixture`: sizes a
/// test's expectations (counts, floors) to the data [`shared_or_fixture`] actually gave it.
pub fn by_data<T>(relative: &str, with_shared: T, with_fixture: T) -> T {
    if has_shared(relative) {
        with_shared
    } else {
        with_fixture
    }
}

/// The path of a small fixture shipped in the repository (`crates/testdata/fixtures/`): an
/// excerpt of the shared data that every clone has. Panics if the fixture is missing, since that
/// is a broken checkout, not an absent data set.
pub fn fixture(name: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(name);
    assert!(path.exists(), "fixture {} is missing", path.display());
    path
}

/// The path of `relative` inside the shared data folder, or `None` after printing why the
/// calling test is skipped. Panics instead when `KESTREL_REQUIRE_SHARED` is set (CI).
pub fn shared_data(relative: &str) -> Option<PathBuf> {
    shared_data_or(relative, skip)
}

/// [`shared_data`] with `on_skip` told why the test is skipped.
fn shared_data_or(relative: &str, on_skip: fn(&str)) -> Option<PathBuf> {
    let path = data_dir().join(relative);
    if path.exists() {
        return Some(path);
    }
    if required() {
        panic!(
            "{} is missing and {REQUIRE_VAR} is set: the shared data set is required here",
            path.display()
        );
    }
    on_skip(&format!(
        "needs {} (the shared data set beside the repository is absent)",
        path.display()
    ));
    None
}

/// The shared file when present, else `None` after a note: for tests that use the file as one
/// extra source among others and stay meaningful without it. Panics instead under
/// `KESTREL_REQUIRE_SHARED`.
pub fn shared_if_present(relative: &str) -> Option<PathBuf> {
    let path = data_dir().join(relative);
    if path.exists() {
        return Some(path);
    }
    assert!(
        !required(),
        "{} is missing and {REQUIRE_VAR} is set: the shared data set is required here",
        path.display()
    );
    eprintln!(
        "note: {} is absent; the test runs without it",
        path.display()
    );
    None
}

/// The full shared file when present, else the fixture excerpt of it (for tests that only need
/// some real positions). Under `KESTREL_REQUIRE_SHARED` the shared file is required.
pub fn shared_or_fixture(relative: &str, fixture_name: &str) -> PathBuf {
    let path = data_dir().join(relative);
    if path.exists() {
        return path;
    }
    assert!(
        !required(),
        "{} is missing and {REQUIRE_VAR} is set: the shared data set is required here",
        path.display()
    );
    eprintln!(
        "note: {} is absent; using the fixture {fixture_name}",
        path.display()
    );
    fixture(fixture_name)
}

/// Prints `skipped: WHY` for the calling test, visibly: the test harness does not capture it, so
/// `cargo test 2>&1 | grep -c 'skipped: '` counts the skips of a run (CI prints them).
pub fn skip(why: &str) {
    use std::io::Write;
    // One write to the process's stderr, past libtest's capture of `eprintln!` (which hides the
    // output of every test that passes).
    let line = format!("skipped: {why}\n");
    let _ = std::io::stderr().lock().write_all(line.as_bytes());
}

/// Whether `KESTREL_REQUIRE_SHARED` is set to a true value.
fn required() -> bool {
    std::env::var_os(REQUIRE_VAR).is_some_and(|v| v != "0" && !v.is_empty())
}

/// Returns the shared file's path from the calling test, or returns from the test (skipped).
///
/// ```ignore
/// let wac = kestrel_testdata::shared_or_skip!("epd/wac-revised.epd");
/// ```
#[macro_export]
macro_rules! shared_or_skip {
    ($relative:expr) => {
        match $crate::shared_data($relative) {
            Some(path) => path,
            None => return,
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_file_is_skipped_or_required() {
        let required = std::env::var_os(REQUIRE_VAR).is_some_and(|v| v != "0" && !v.is_empty());
        // A skip of its own would count in the run's skips: this one only checks the outcome.
        let outcome = std::panic::catch_unwind(|| shared_data_or("no/such/file.epd", |_| ()));
        match outcome {
            Ok(found) => {
                assert!(
                    !required,
                    "a missing file must fail when {REQUIRE_VAR} is set"
                );
                assert_eq!(found, None);
            }
            Err(_) => assert!(required, "a missing file only panics when required"),
        }
    }

    #[test]
    fn fixtures_ship_with_the_repository() {
        let games = std::fs::read_to_string(fixture("gm-games-40.pgn")).unwrap();
        assert_eq!(games.matches("[Event ").count(), 40);
        assert!(std::panic::catch_unwind(|| fixture("no-such-fixture")).is_err());
    }

    #[test]
    fn a_set_data_folder_replaces_the_one_beside_the_repository() {
        let empty =
            std::env::temp_dir().join(format!("kestrel-empty-shared-{}", std::process::id()));
        std::fs::create_dir_all(&empty).unwrap();
        let dir = data_dir_from(Some(empty.clone().into_os_string()));
        assert_eq!(dir, empty);
        // Nothing of `../shared` leaks through an empty folder.
        assert!(!dir.join("perft/perftsuite.epd").exists());
        assert_eq!(
            data_dir_from(None),
            repo_root().join("../shared/data"),
            "unset: the folder beside the repository"
        );
        assert_eq!(data_dir_from(Some("".into())), data_dir_from(None));
        std::fs::remove_dir_all(&empty).unwrap();
    }

    #[test]
    fn a_use_is_logged_under_the_test_name_and_other_threads_as_unknown() {
        let log = std::env::temp_dir().join(format!("kestrel-use-log-{}", std::process::id()));
        let _ = std::fs::remove_file(&log);
        log_use(None);
        log_use(Some("".into()));
        assert!(!log.exists(), "no variable, no log");
        log_use(Some(log.clone().into_os_string()));
        let other = log.clone();
        std::thread::spawn(move || log_use(Some(other.into_os_string())))
            .join()
            .unwrap();
        let lines = std::fs::read_to_string(&log).unwrap();
        assert_eq!(
            lines,
            "tests::a_use_is_logged_under_the_test_name_and_other_threads_as_unknown\n?\n"
        );
        std::fs::remove_file(&log).unwrap();
    }

    #[test]
    fn expectations_follow_the_data_present() {
        assert!(!has_shared("no/such/file.epd"));
        assert_eq!(by_data("no/such/file.epd", 50_000, 17_000), 17_000);
    }

    #[test]
    fn the_repo_root_holds_the_workspace_manifest() {
        assert!(repo_root().join("Cargo.toml").exists());
        assert!(repo_root().join("crates/testdata").exists());
    }
}
