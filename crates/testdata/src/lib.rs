//! Test-only helper for the shared data set (GM games, EPD suites, perft suites, openings) that
//! lives beside the repository in `../shared/data`, not inside it.
//!
//! A fresh clone has no `../shared`: tests that need it print a `skipped:` line and pass, so the
//! README's test command works anywhere. CI sets `KESTREL_REQUIRE_SHARED=1`, which turns a missing
//! file into a failure, so CI can never skip these tests silently. `KESTREL_SHARED_DATA` points
//! at another copy of the data folder.

use std::path::{Path, PathBuf};

/// The environment variable that makes a missing shared file a test failure (set by `.ci/run`).
pub const REQUIRE_VAR: &str = "KESTREL_REQUIRE_SHARED";

/// The environment variable that overrides where the shared data folder is.
pub const DATA_VAR: &str = "KESTREL_SHARED_DATA";

/// The repository's root folder (the workspace root).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The shared data folder: `$KESTREL_SHARED_DATA`, else `../shared/data` beside the repository.
pub fn data_dir() -> PathBuf {
    match std::env::var_os(DATA_VAR) {
        Some(dir) => PathBuf::from(dir),
        None => repo_root().join("../shared/data"),
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
    eprintln!(
        "skipped: needs {} (the shared data set beside the repository is absent)",
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
        let outcome = std::panic::catch_unwind(|| shared_data("no/such/file.epd"));
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
    fn the_repo_root_holds_the_workspace_manifest() {
        assert!(repo_root().join("Cargo.toml").exists());
        assert!(repo_root().join("crates/testdata").exists());
    }
}
