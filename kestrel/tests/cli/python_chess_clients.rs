//! Kestrel with python-chess as the referee (`python/tests/test_python_chess_clients.py`):
//! Chess960 perft and legal moves against python-chess on random positions, Chess960 and
//! double Chess960 games between two Kestrels driven by python-chess, and pondering (go
//! ponder, ponderhit, stop mid-ponder). Skips when python3 cannot import `chess`, unless
//! KESTREL_REQUIRE_PYTHON_CHESS=1 (CI: `pip install chess`), which turns the skip into a failure.

use std::process::Command;

const KESTREL: &str = env!("CARGO_BIN_EXE_kestrel");

fn python_chess_available() -> bool {
    let ok = Command::new("python3")
        .args(["-c", "import chess.engine"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var("KESTREL_REQUIRE_PYTHON_CHESS").is_err(),
            "KESTREL_REQUIRE_PYTHON_CHESS is set but python3 cannot import chess (pip install chess)"
        );
        eprintln!("skipped: python3 cannot import chess (pip install chess)");
    }
    ok
}

#[test]
fn python_chess_referees_chess960_games_and_pondering() {
    if !python_chess_available() {
        return;
    }
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let out = Command::new("python3")
        .args([
            "-m",
            "unittest",
            "-v",
            "python/tests/test_python_chess_clients.py",
        ])
        .current_dir(root)
        .env("KESTREL_BIN", KESTREL)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "python-chess tests failed:\n{stderr}");
    assert!(stderr.contains("Ran 6 tests"), "{stderr}");
}
