//! Reads and replays a whole PGN file and reports games/s:
//! `cargo bench -p kestrel-bench --bench pgn_read [-- FILE]` (default: the shared GM games).

use kestrel_chess::PgnReader;
use std::fs::File;
use std::io::BufReader;
use std::time::Instant;

/// The shared GM games, or the 40-game fixture on a clone without `../shared/data`.
fn default_file() -> String {
    let path = kestrel_testdata::shared_data("games/gm2600-train.pgn").unwrap_or_else(|| {
        eprintln!("reading the 40-game fixture instead");
        kestrel_testdata::fixture("gm-games-40.pgn")
    });
    path.display().to_string()
}

fn main() {
    // `cargo bench` passes `--bench`; the first other argument, if any, is the file.
    let path = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with("--"))
        .unwrap_or_else(default_file);
    let file = match File::open(&path) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("cannot open {path}: {e}");
            std::process::exit(1);
        }
    };
    let start = Instant::now();
    let (mut games, mut plies, mut errors) = (0usize, 0usize, 0usize);
    for game in PgnReader::new(BufReader::with_capacity(1 << 16, file)) {
        match game {
            Ok(g) => {
                games += 1;
                plies += g.moves.len();
            }
            Err(e) => {
                errors += 1;
                if errors <= 10 {
                    eprintln!("{e}");
                }
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{path}: {games} games parsed and replayed ({plies} plies), {errors} errors, {secs:.2} s, {:.0} games/s, {:.0} plies/s",
        games as f64 / secs,
        plies as f64 / secs
    );
}
