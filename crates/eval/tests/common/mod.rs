//! Positions for the evaluation tests: real GM game positions plus the EPD suites.

#![allow(dead_code)]

use kestrel_chess::{Board, PgnReader};
use kestrel_eval::EVAL_TABLE;
use kestrel_params::ParamValues;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::io::BufReader;

/// Every `stride`-th position of the first games of the GM file (of its 40-game fixture on a
/// clone without `../shared/data`), `limit` positions at most.
pub fn game_positions(limit: usize, stride: usize) -> Vec<Board> {
    let path = kestrel_testdata::shared_or_fixture("games/gm2600-train.pgn", "gm-games-40.pgn");
    let file = std::fs::File::open(&path).expect("GM games file is readable");
    let mut out = Vec::with_capacity(limit);
    let mut ply = 0usize;
    for game in PgnReader::new(BufReader::new(file)) {
        let game = game.expect("the GM file parses");
        let mut board = game.start.clone();
        for mv in game.moves {
            board.make_move(mv);
            ply += 1;
            if ply.is_multiple_of(stride) {
                let mut b = board.clone();
                b.clear_history();
                out.push(b);
                if out.len() == limit {
                    return out;
                }
            }
        }
    }
    out
}

/// The positions of an EPD suite in `shared/data/epd` (none, with a note, when it is absent;
/// Bratko-Kopec ships as a fixture).
pub fn epd_positions(name: &str) -> Vec<Board> {
    let path = if name == "bk.epd" {
        kestrel_testdata::fixture(name)
    } else {
        match kestrel_testdata::shared_if_present(&format!("epd/{name}")) {
            Some(path) => path,
            None => return Vec::new(),
        }
    };
    let text = std::fs::read_to_string(path).expect("EPD suite");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let fields: Vec<&str> = l.split_whitespace().take(4).collect();
            Board::from_fen(&format!("{} 0 1", fields.join(" "))).expect("suite FEN is valid")
        })
        .collect()
}

/// Game positions and the tactical/strategic suites (many unusual material balances).
pub fn test_positions() -> Vec<Board> {
    let mut all = game_positions(3000, 7);
    for suite in [
        "wac.epd",
        "bk.epd",
        "lct2.epd",
        "kaufman.epd",
        "zugzwang-allgeuer.epd",
    ] {
        all.extend(epd_positions(suite));
    }
    all
}

/// A parameter vector with every value uniform in its declared range.
pub fn random_values(seed: u64) -> ParamValues {
    ParamValues::random(&EVAL_TABLE, &mut ChaCha8Rng::seed_from_u64(seed))
}

/// Evaluators of the default, the compact and three random parameter sets (drawn in turn
/// from one generator seeded with `seed`).
pub fn evaluators(seed: u64) -> Vec<kestrel_eval::Evaluator> {
    use kestrel_eval::{Evaluator, compact_values};
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let defaults = ParamValues::defaults(&EVAL_TABLE);
    let mut out = vec![
        Evaluator::new(defaults.clone()),
        Evaluator::new(compact_values(&defaults)),
    ];
    out.extend((0..3).map(|_| Evaluator::new(ParamValues::random(&EVAL_TABLE, &mut rng))));
    out
}
