//! Writes a stand-in network for speed measurements and tests of the plumbing: half the
//! neurons count the side's own material, half the other side's, each with random noise, so
//! a search with it values captures as a real network does (its play is weak).
//!
//!     cargo run --release -p kestrel-nnue --example material_net -- OUT.knet [HIDDEN] [SEED]

use kestrel_nnue::{FloatNetwork, Network, file};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Pawn, knight, bishop, rook, queen, king, in pawns.
const VALUES: [f32; 6] = [1.0, 3.2, 3.3, 5.0, 9.5, 0.0];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(out) = args.first() else {
        eprintln!("usage: material_net OUT.knet [HIDDEN (256)] [SEED (1)]");
        std::process::exit(2);
    };
    let number = |i: usize, default: u64| match args.get(i).map(|s| s.parse::<u64>()) {
        None => default,
        Some(Ok(v)) => v,
        Some(Err(_)) => {
            eprintln!("'{}' is not a whole number", args[i]);
            std::process::exit(2);
        }
    };
    let (hidden, seed) = (number(1, 256) as usize, number(2, 1));
    if !(1..=file::MAX_HIDDEN).contains(&hidden) {
        eprintln!("HIDDEN must be 1 to {}", file::MAX_HIDDEN);
        std::process::exit(2);
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut float = FloatNetwork::zeros(hidden);
    for f in 0..kestrel_nnue::INPUTS {
        let (own, kind) = (f < 384, (f % 384) / 64);
        for i in 0..hidden {
            let counts = (i % 2 == 0) == own;
            let base = if counts { VALUES[kind] / 80.0 } else { 0.0 };
            float.ft_weights[f * hidden + i] = base + rng.random_range(-0.01..0.01);
        }
    }
    for i in 0..hidden {
        float.ft_bias[i] = 0.2 + rng.random_range(-0.05..0.05);
        let sign = if i % 2 == 0 { 1.0 } else { -1.0 };
        let scale = 16.0 / hidden as f32;
        float.out_weights[i] = sign * scale * rng.random_range(0.5..1.5);
        float.out_weights[hidden + i] = -float.out_weights[i];
    }
    let net = Network::quantise(&float).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1);
    });
    if let Err(e) = file::write(std::path::Path::new(out), &net) {
        eprintln!("{e}");
        std::process::exit(1);
    }
    println!("wrote {out}: hidden {hidden}, seed {seed}");
}
