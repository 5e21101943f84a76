//! `kestrel match` against engines that cannot play: an engine that does not start, or dies
//! right after `uci`, is an error naming it (never a won match); one that crashes in every
//! game stops the match with an error after a few games, its failures counted apart.

use std::process::{Command, Output};

use crate::common;
use common::{kestrel, temp_dir};

const KESTREL: &str = env!("CARGO_BIN_EXE_kestrel");

fn text(o: &Output) -> String {
    format!(
        "{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// A fake engine script in a fresh temporary folder.
fn script(name: &str, body: &str) -> (kestrel_testdata::ScratchDir, String) {
    let dir = temp_dir(&format!("fail-{name}"));
    let path = dir.join(format!("{name}.sh"));
    std::fs::write(&path, body).unwrap();
    let spec = format!("uci:sh {}", path.display());
    (dir, spec)
}

fn play(engine_b: &str) -> Output {
    kestrel(&[
        "match",
        "-b",
        engine_b,
        "--games",
        "6",
        "--depth",
        "1",
        "--concurrency",
        "1",
    ])
}

#[test]
fn an_engine_that_cannot_start_is_an_error() {
    let o = play("uci:/nonexistent/kestrel-no-engine");
    let all = text(&o);
    assert!(!o.status.success(), "{all}");
    assert!(all.contains("/nonexistent/kestrel-no-engine"), "{all}");
    assert!(!all.contains("Elo"), "no result is reported: {all}");
}

#[test]
fn an_engine_that_dies_after_uci_is_an_error_quoting_it() {
    let body = "read -r line; echo 'id name Fragile'; echo uciok;\n\
                echo 'fatal: cannot load weights' >&2; exit 5\n";
    let (dir, spec) = script("dies", body);
    let o = play(&spec);
    let all = text(&o);
    assert!(!o.status.success(), "{all}");
    assert!(all.contains("cannot load weights"), "{all}");
    assert!(all.contains("dies.sh"), "the command is named: {all}");
    assert!(!all.contains("Elo"), "no result is reported: {all}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn an_engine_that_crashes_in_every_game_stops_the_match() {
    let body = "while read -r line; do case \"$line\" in\n\
                uci) echo uciok ;; isready) echo readyok ;; go*) exit 9 ;; quit) exit 0 ;;\n\
                esac; done\n";
    let (dir, spec) = script("crashes", body);
    let o = play(&spec);
    let all = text(&o);
    assert!(!o.status.success(), "{all}");
    assert!(all.contains("failed 3 games in a row"), "{all}");
    assert!(all.contains("engine failures of"), "{all}");
    assert!(all.contains("crash 3"), "{all}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_closed_stdout_ends_quietly_without_a_panic() {
    use std::io::Read;
    use std::process::Stdio;
    for args in [
        &["bench", "3", "--verbose"][..],
        &["book", "probe", "--book", "<builtin>"][..],
    ] {
        let mut child = Command::new(KESTREL)
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Read one byte, then close the pipe, as `| head -c 1` does.
        let mut stdout = child.stdout.take().unwrap();
        let mut one = [0u8; 1];
        stdout.read_exact(&mut one).unwrap();
        drop(stdout);
        let o = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(o.status.success(), "{args:?}: {:?} {err}", o.status);
    }
}

#[test]
fn a_book_from_garbage_is_refused() {
    let dir = temp_dir("garbage");
    let pgn = dir.join("garbage.pgn");
    std::fs::write(&pgn, "this is not a game\n(((\n1. Zz9 *\n").unwrap();
    let out = dir.join("book.bin");
    let o = kestrel(&[
        "book",
        "build",
        "--pgn",
        pgn.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let all = text(&o);
    assert!(!o.status.success(), "{all}");
    assert!(all.contains("no valid PGN game"), "{all}");
    assert!(!out.exists(), "no empty book is written");
}
