//! The bench without the `kestrel` binary: `cargo run --release -p kestrel-search --example
//! quickbench -- [DEPTH]` prints per-position nodes and `N nodes M nps`.

use kestrel_search::EngineConfig;
use kestrel_search::bench::{DEFAULT_BENCH_DEPTH, run};

fn main() {
    let depth = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(DEFAULT_BENCH_DEPTH);
    let mut i = 0;
    let (nodes, time) = run(&EngineConfig::default(), depth, &mut |e| {
        i += 1;
        println!(
            "{i:>3} {:>10} {:>6}ms {:?} {}",
            e.nodes,
            e.time.as_millis(),
            e.best_move,
            e.fen
        );
    });
    println!(
        "{nodes} nodes {} nps",
        nodes as u128 * 1000 / time.as_millis().max(1)
    );
}
