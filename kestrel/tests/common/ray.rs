//! Helpers of the tests that start Ray: whether Ray can be used here, one session at a time,
//! and a GA log without its timing column.

use std::path::Path;
use std::process::Command;

/// Whether python3 imports `ray` and `kestrel_ray`; otherwise a `skipped:` line, or a failure
/// when KESTREL_REQUIRE_RAY is set (CI).
pub fn ray_available() -> bool {
    let ok = Command::new("python3")
        .args(["-c", "import ray, kestrel_ray"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var("KESTREL_REQUIRE_RAY").is_err(),
            "KESTREL_REQUIRE_RAY is set but python3 cannot import ray and kestrel_ray \
             (pip install ./python)"
        );
        kestrel_testdata::skip("python3 cannot import ray and kestrel_ray (pip install ./python)");
    }
    ok
}

/// Ray sessions of one test binary run one at a time (their default ports would collide).
static RAY_SESSION: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// This test's turn on Ray, or `None` (skipped) when Ray cannot be used here.
pub fn ray_session() -> Option<std::sync::MutexGuard<'static, ()>> {
    ray_available().then(|| RAY_SESSION.lock().unwrap_or_else(|e| e.into_inner()))
}

/// A GA run's `log.csv` without its timing column (the only non-reproducible one).
pub fn log_without_seconds(out: &Path) -> String {
    std::fs::read_to_string(out.join("log.csv"))
        .unwrap()
        .lines()
        .map(|l| l.rsplit_once(',').unwrap().0.to_string() + "\n")
        .collect()
}
