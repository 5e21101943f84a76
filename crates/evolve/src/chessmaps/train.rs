//! Backpropagation for the Chessmaps network (Greer's supervised training): plain stochastic
//! gradient descent on the squared error of the tanh outputs, seeded initialisation and
//! shuffling, then the loss and per-sector accuracy on training and test sets.

use super::data::Example;
use kestrel_search::chessmaps::network::clamp_unit;
use kestrel_search::chessmaps::{HIDDEN, INPUTS, Network, SECTORS};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Training settings.
#[derive(Clone, Debug)]
pub struct TrainSettings {
    /// Passes over the training set (each in a freshly shuffled order).
    pub epochs: usize,
    /// SGD step size applied to every weight and bias gradient.
    pub learning_rate: f32,
    /// Seed of the shuffling order (the initial weights come from `initial_network`'s own seed).
    pub seed: u64,
}

/// Loss and accuracy of a network on a set.
#[derive(Clone, Debug, PartialEq)]
pub struct Scores {
    /// Mean squared error per output.
    pub loss: f64,
    /// Per sector, the share of positions whose output rounds (at ±0.5) to the target.
    pub accuracy: [f64; SECTORS],
    /// Per sector, the share of the most common target (what a constant guess gets).
    pub baseline: [f64; SECTORS],
}

/// A network with small seeded random weights.
pub fn initial_network(seed: u64) -> Network {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut w = || rng.random_range(-0.1f32..0.1);
    let mut net = Network::zeros();
    net.w1 = std::array::from_fn(|_| std::array::from_fn(|_| w()));
    net.w2 = std::array::from_fn(|_| std::array::from_fn(|_| w()));
    net
}

/// One SGD step on `ex` (index loops: the backpropagation formulas read best that way).
#[allow(clippy::needless_range_loop)]
fn step(net: &mut Network, ex: &Example, lr: f32) {
    let sums = net.hidden_sums(&ex.inputs);
    let hidden = sums.map(clamp_unit);
    let out = net.output_sums(&hidden).map(f32::tanh);
    // d(loss)/d(output sum), loss = mean of (out - target)^2.
    let mut d_out = [0.0f32; SECTORS];
    for k in 0..SECTORS {
        d_out[k] = 2.0 * (out[k] - ex.target[k]) / SECTORS as f32 * (1.0 - out[k] * out[k]);
    }
    let mut d_hidden = [0.0f32; HIDDEN];
    for j in 0..HIDDEN {
        if sums[j].abs() < 1.0 {
            d_hidden[j] = (0..SECTORS).map(|k| net.w2[j][k] * d_out[k]).sum();
        }
        for k in 0..SECTORS {
            net.w2[j][k] -= lr * d_out[k] * hidden[j];
        }
    }
    for k in 0..SECTORS {
        net.b2[k] -= lr * d_out[k];
    }
    for i in 0..INPUTS {
        let x = ex.inputs[i];
        if x != 0.0 {
            for j in 0..HIDDEN {
                net.w1[i][j] -= lr * d_hidden[j] * x;
            }
        }
    }
    for j in 0..HIDDEN {
        net.b1[j] -= lr * d_hidden[j];
    }
}

/// Trains `net` on `train` for the set number of epochs; `on_epoch(epoch, train_loss)` after
/// each.
pub fn train(
    net: &mut Network,
    train: &[Example],
    settings: &TrainSettings,
    on_epoch: &mut dyn FnMut(usize, f64),
) {
    let mut rng = ChaCha8Rng::seed_from_u64(settings.seed ^ 0x5EC7_0125);
    let mut order: Vec<usize> = (0..train.len()).collect();
    for epoch in 1..=settings.epochs {
        order.shuffle(&mut rng);
        for &i in &order {
            step(net, &train[i], settings.learning_rate);
        }
        on_epoch(epoch, evaluate(net, train).loss);
    }
}

/// Loss, per-sector accuracy and majority baseline of `net` on `set`.
#[allow(clippy::needless_range_loop)]
pub fn evaluate(net: &Network, set: &[Example]) -> Scores {
    let mut loss = 0.0;
    let mut correct = [0usize; SECTORS];
    let mut class_counts = [[0usize; 3]; SECTORS];
    for ex in set {
        let out = net.forward(&ex.inputs);
        for k in 0..SECTORS {
            let e = (out[k] - ex.target[k]) as f64;
            loss += e * e;
            let predicted = if out[k] > 0.5 {
                1.0
            } else if out[k] < -0.5 {
                -1.0
            } else {
                0.0
            };
            correct[k] += (predicted == ex.target[k]) as usize;
            class_counts[k][(ex.target[k] + 1.0) as usize] += 1;
        }
    }
    let n = set.len().max(1) as f64;
    Scores {
        loss: loss / (n * SECTORS as f64),
        accuracy: correct.map(|c| c as f64 / n),
        baseline: class_counts.map(|c| *c.iter().max().unwrap_or(&0) as f64 / n),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kestrel_chess::{Board, GenKind, MoveList};

    /// Positions of seeded random games from the start, with the random move played.
    fn random_examples(n: usize, seed: u64) -> Vec<Example> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut out = Vec::new();
        let mut board = Board::startpos();
        while out.len() < n {
            let mut moves = MoveList::new();
            board.generate(GenKind::All, &mut moves);
            if moves.is_empty() || board.ply_count() > 80 {
                board = Board::startpos();
                continue;
            }
            let mv = moves[rng.random_range(0..moves.len())];
            out.push(Example::new(&board, mv));
            board.make_move(mv);
        }
        out
    }

    #[test]
    fn training_lowers_the_loss_and_is_seeded() {
        let set = random_examples(300, 7);
        let settings = TrainSettings {
            epochs: 15,
            learning_rate: 0.05,
            seed: 3,
        };
        let mut net = initial_network(settings.seed);
        let before = evaluate(&net, &set).loss;
        train(&mut net, &set, &settings, &mut |_, _| {});
        let after = evaluate(&net, &set).loss;
        assert!(after < before * 0.8, "loss {before} -> {after}");
        let mut again = initial_network(settings.seed);
        train(&mut again, &set, &settings, &mut |_, _| {});
        assert_eq!(again, net, "same seed, same network");
    }
}
