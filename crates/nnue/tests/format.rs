//! The float network, its quantised form and the file format agree with each other.

use kestrel_chess::Board;
use kestrel_nnue::{FloatNetwork, Network, file};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn random_net(hidden: usize, seed: u64) -> FloatNetwork {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut net = FloatNetwork::zeros(hidden);
    for w in net.ft_weights.iter_mut().chain(net.ft_bias.iter_mut()) {
        *w = rng.random_range(-0.08..0.08);
    }
    for w in net.out_weights.iter_mut() {
        *w = rng.random_range(-0.9..0.9);
    }
    net.out_bias = 0.05;
    net
}

const FENS: [&str; 4] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
];

#[test]
fn the_quantised_network_follows_the_float_one() {
    let float = random_net(32, 1);
    let net = Network::quantise(&float).unwrap();
    for fen in FENS {
        let board = Board::from_fen(fen).unwrap();
        let (f, q) = (float.evaluate(&board), net.evaluate(&board) as f32);
        // Rounding a random net's output weights to 1/64 moves its score by a few per cent.
        assert!(
            (f - q).abs() <= 4.0 + f.abs() * 0.05,
            "{fen}: float {f} int {q}"
        );
    }
}

#[test]
fn a_network_file_round_trips_and_refuses_damage() {
    let net = Network::quantise(&random_net(16, 2)).unwrap();
    let bytes = file::to_bytes(&net);
    assert_eq!(file::from_bytes(&bytes).unwrap(), net);
    let truncated = file::from_bytes(&bytes[..bytes.len() - 3]).unwrap_err();
    assert!(truncated.to_string().contains("truncated"), "{truncated}");
    let mut flipped = bytes.clone();
    flipped[100] ^= 1;
    let corrupt = file::from_bytes(&flipped).unwrap_err();
    assert!(corrupt.to_string().contains("checksum"), "{corrupt}");
    let mut magic = bytes.clone();
    magic[0] = b'X';
    assert!(
        file::from_bytes(&magic)
            .unwrap_err()
            .to_string()
            .contains("magic")
    );
    assert!(file::from_bytes(&[]).is_err());
}

#[test]
fn weights_outside_the_clip_are_refused() {
    let mut float = random_net(8, 3);
    float.out_weights[0] = 2.5;
    assert!(Network::quantise(&float).is_err());
    float.out_weights[0] = f32::NAN;
    assert!(Network::quantise(&float).is_err());
}
