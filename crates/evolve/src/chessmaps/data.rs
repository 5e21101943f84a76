//! Training examples for the Chessmaps network: one position per game of a PGN file (a
//! seeded random ply), its 70 inputs, and the sector targets of the move the grandmaster
//! played. Games go to the training or the test set as a whole.

use kestrel_chess::{Board, Move};
use kestrel_search::chessmaps::{INPUTS, SECTORS, inputs, move_target};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::Path;

/// One position: the network's inputs and the target (+1/0/-1 per sector).
#[derive(Clone, Debug)]
pub struct Example {
    /// The 70 network inputs of the position, from the side to move's point of view.
    pub inputs: [f32; INPUTS],
    /// Per sector of the mover's frame: +1 if the played move raised the mover's control, -1 if
    /// it lowered it, 0 if unchanged.
    pub target: [f32; SECTORS],
}

impl Example {
    /// The example of `mv` (legal) played in `board`.
    pub fn new(board: &Board, mv: Move) -> Example {
        Example {
            inputs: inputs(board),
            target: move_target(board, mv).map(f32::from),
        }
    }
}

/// Training and test examples read from `path`: `train` and `test` positions from distinct
/// games (a game joins the test set with probability test / (train + test)).
pub fn examples_from_pgn(
    path: &Path,
    train: usize,
    test: usize,
    seed: u64,
) -> Result<(Vec<Example>, Vec<Example>), String> {
    let games = crate::mentor::positions::open_games(path)?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut train_set, mut test_set) = (Vec::new(), Vec::new());
    let test_share = test as f64 / (train + test).max(1) as f64;
    for game in games {
        if train_set.len() >= train && test_set.len() >= test {
            break;
        }
        let Ok(game) = game else { continue };
        if game.moves.is_empty() {
            continue;
        }
        let ply = rng.random_range(0..game.moves.len());
        let to_test = rng.random_bool(test_share);
        let set = if to_test {
            &mut test_set
        } else {
            &mut train_set
        };
        if set.len() >= if to_test { test } else { train } {
            continue;
        }
        let mut board = game.start.clone();
        for &mv in &game.moves[..ply] {
            board.make_move(mv);
        }
        let mv = game.moves[ply];
        if board.is_legal(mv) {
            set.push(Example::new(&board, mv));
        }
    }
    if train_set.len() < train || test_set.len() < test {
        return Err(format!(
            "{} holds too few games: {} training and {} test positions of {train} and {test}",
            path.display(),
            train_set.len(),
            test_set.len()
        ));
    }
    Ok((train_set, test_set))
}
