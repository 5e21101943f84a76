//! The shared pool of UCI mentor processes against a scripted fake engine.

use kestrel_search::Score;
use kestrel_tools::engine_pool::{EnginePool, EngineSearch};
use std::time::Duration;

/// Answers `score cp 1` to a `go` right after `ucinewgame`, else `score cp 2`; exits (a crash)
/// on a position whose FEN starts with `8/`.
const FAKE_ENGINE: &str = r#"
fresh=0
while read -r line; do
  case "$line" in
    uci) echo "id name PoolFish"; echo "uciok" ;;
    isready) echo "readyok" ;;
    ucinewgame) fresh=1 ;;
    quit) exit 0 ;;
    "position fen 8/"*) exit 3 ;;
    go*)
      if [ "$fresh" = 1 ]; then echo "info depth 1 score cp 1"; else echo "info depth 1 score cp 2"; fi
      fresh=0
      echo "bestmove e2e4" ;;
  esac
done
"#;

fn search(fen: &str) -> Option<EngineSearch> {
    Some(EngineSearch {
        position: format!("position fen {fen}"),
        go: "go depth 1".to_string(),
    })
}

fn scores(pool: &mut EnginePool, searches: &[Option<EngineSearch>]) -> Vec<Option<Score>> {
    let answers = pool.search(searches).unwrap();
    answers
        .into_iter()
        .map(|a| a.and_then(|a| a.score))
        .collect()
}

#[test]
fn the_pool_answers_in_order_skips_gaps_and_survives_crashes() {
    let dir = std::env::temp_dir().join(format!("kestrel-engine-pool-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("fake.sh");
    std::fs::write(&script, FAKE_ENGINE).unwrap();
    let command = format!("sh {}", script.display());
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let crash = "8/8/8/8/8/8/8/K6k w - - 0 1";
    let searches = [search(start), None, search(crash), search(start)];

    let mut pool = EnginePool::start(&command, 2, Duration::from_secs(5)).unwrap();
    assert_eq!(pool.key("d1"), format!("uci:{command} [PoolFish]/d1"));
    let cp = |v| Some(Score::Cp(v));
    assert_eq!(
        scores(&mut pool, &searches),
        vec![cp(1), None, None, cp(1)],
        "every search from a cleared engine"
    );
    assert_eq!(
        pool.restarts(),
        3,
        "the crashing position had three attempts"
    );

    let mut single = EnginePool::start(&command, 1, Duration::from_secs(5)).unwrap();
    assert_eq!(
        scores(&mut single, &[search(start), search(start)]),
        vec![cp(1), cp(1)]
    );
    assert_eq!(single.restarts(), 0);
    let err = EnginePool::start("/nonexistent/engine", 1, Duration::from_secs(1)).err();
    assert!(err.is_some_and(|e| e.starts_with("UCI mentor '/nonexistent/engine'")));
    let _ = std::fs::remove_dir_all(&dir);
}
