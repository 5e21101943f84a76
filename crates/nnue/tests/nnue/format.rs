//! The float network, its quantised form and the file format agree with each other.

use kestrel_chess::Board;
use kestrel_nnue::{FloatNetwork, InputLayout, Network, file};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn random_net(hidden: usize, seed: u64) -> FloatNetwork {
    random_bucketed_net(hidden, 1, seed)
}

/// A random network with `buckets` output buckets, each its own weights and bias.
fn random_bucketed_net(hidden: usize, buckets: usize, seed: u64) -> FloatNetwork {
    random_layout_net(hidden, buckets, InputLayout::PLAIN, seed)
}

/// As [`random_bucketed_net`], with the `inputs` layout.
fn random_layout_net(
    hidden: usize,
    buckets: usize,
    inputs: InputLayout,
    seed: u64,
) -> FloatNetwork {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut net = FloatNetwork::zeros_with_layout(hidden, buckets, inputs);
    for w in net.ft_weights.iter_mut().chain(net.ft_bias.iter_mut()) {
        *w = rng.random_range(-0.08..0.08);
    }
    for w in net.out_weights.iter_mut() {
        *w = rng.random_range(-0.9..0.9);
    }
    for b in net.out_bias.iter_mut() {
        *b = rng.random_range(-0.1..0.1);
    }
    net
}

const FENS: [&str; 7] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
    "2r3k1/pp3ppp/4p3/8/3P4/4P3/PP3PPP/2R3K1 w - - 0 1",
    "r1bq1rk1/pp3ppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2QK2R b KQ - 0 9",
];

/// `net`, quantised from `float`, scores every one of [`FENS`] as `float` does: rounding a
/// random net's output weights moves its score by a few per cent.
fn assert_follows(float: &FloatNetwork, net: &Network) {
    for fen in FENS {
        let board = Board::from_fen(fen).unwrap();
        let (f, q) = (float.evaluate(&board), net.evaluate(&board) as f32);
        assert!(
            (f - q).abs() <= 4.0 + f.abs() * 0.05,
            "{fen}: float {f} int {q}"
        );
    }
}

#[test]
fn the_quantised_network_follows_the_float_one() {
    let float = random_net(32, 1);
    let net = Network::quantise(&float).unwrap();
    assert_follows(&float, &net);
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

#[test]
fn a_bucketed_quantised_network_follows_the_float_one() {
    // The tolerance is the one-bucket test's. It is tight for random first layers: some seeds
    // exceed it with one bucket as with eight (the first layer's rounding, not the buckets).
    let float = random_bucketed_net(32, 8, 3);
    let net = Network::quantise(&float).unwrap();
    assert_eq!((net.buckets, net.out_bias.len()), (8, 8));
    let mut buckets = std::collections::BTreeSet::new();
    for fen in FENS {
        let board = Board::from_fen(fen).unwrap();
        buckets.insert(kestrel_nnue::board_bucket(&board, 8));
        let (f, q) = (float.evaluate(&board), net.evaluate(&board) as f32);
        assert!(
            (f - q).abs() <= 4.0 + f.abs() * 0.05,
            "{fen}: float {f} int {q}"
        );
    }
    assert!(buckets.len() >= 4, "the positions use buckets {buckets:?}");
}

#[test]
fn the_float_network_scores_each_position_with_its_buckets_layer() {
    let float = random_bucketed_net(16, 4, 12);
    for fen in FENS {
        let board = Board::from_fen(fen).unwrap();
        let bucket = kestrel_nnue::board_bucket(&board, 4);
        // The same first layer through one bucket alone: the evaluation is that bucket's.
        let mut single = FloatNetwork::zeros(16);
        single.ft_weights.clone_from(&float.ft_weights);
        single.ft_bias.clone_from(&float.ft_bias);
        single.out_weights = float.out_weights[32 * bucket..32 * (bucket + 1)].to_vec();
        single.out_bias = vec![float.out_bias[bucket]];
        assert_eq!(float.evaluate(&board), single.evaluate(&board), "{fen}");
    }
}

#[test]
fn a_bucketed_network_file_round_trips() {
    let net = Network::quantise(&random_bucketed_net(16, 8, 13)).unwrap();
    let bytes = file::to_bytes(&net);
    let word = |i: usize| u32::from_le_bytes(bytes[8 + 4 * i..12 + 4 * i].try_into().unwrap());
    assert_eq!(
        (word(1), word(2), word(6)),
        (file::ARCH_OUTPUT_BUCKETS, 16, 8)
    );
    assert_eq!(file::from_bytes(&bytes).unwrap(), net);
    let dir = std::env::temp_dir().join(format!("kestrel-nnue-buckets-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("b8.knet");
    file::write(&path, &net).unwrap();
    assert_eq!(file::read(&path).unwrap(), net);
    std::fs::remove_dir_all(&dir).unwrap();
    // One bucket is written as before buckets existed: architecture 1, no bucket word.
    let plain = Network::quantise(&random_net(16, 13)).unwrap();
    let old = file::to_bytes(&plain);
    assert_eq!(old[12..16], file::ARCH_PERSPECTIVE_SCRELU.to_le_bytes());
    assert_eq!(old.len(), 32 + 2 * (768 * 16 + 16 + 32) + 4 + 8);
}

#[test]
fn the_shipped_network_reads_and_writes_back_byte_for_byte() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("nets/default.knet");
    if !path.exists() {
        eprintln!("no nets/default.knet in this checkout");
        return;
    }
    let bytes = std::fs::read(&path).unwrap();
    let net = file::from_bytes(&bytes).unwrap();
    assert_eq!((net.buckets, net.out_bias.len()), (1, 1));
    assert_eq!(file::to_bytes(&net), bytes);
}

#[test]
fn a_dequantised_network_quantises_back_to_itself() {
    let king_relative = InputLayout::king_buckets(2).unwrap();
    for float in [
        random_net(16, 31),
        random_bucketed_net(8, 8, 32),
        random_layout_net(8, 2, king_relative, 33),
    ] {
        let net = Network::quantise(&float).unwrap();
        let back = net.dequantise();
        assert!(back.within_clip() && back.shape_is_consistent());
        assert_eq!(Network::quantise(&back).unwrap(), net);
        assert_follows(&back, &net);
    }
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("nets/default.knet");
    if let Ok(shipped) = file::read(&path) {
        assert_eq!(Network::quantise(&shipped.dequantise()).unwrap(), shipped);
    }
}

/// `bytes` with header word `i` set to `value` and the checksum made right again, so that
/// only the word's meaning can be refused.
fn with_word(bytes: &[u8], i: usize, value: u32) -> Vec<u8> {
    let mut out = bytes.to_vec();
    out[8 + 4 * i..12 + 4 * i].copy_from_slice(&value.to_le_bytes());
    let n = out.len() - 8;
    let sum = file::fnv1a64(&out[..n]);
    out[n..].copy_from_slice(&sum.to_le_bytes());
    out
}

#[test]
fn a_bad_bucket_count_or_length_is_a_clear_error() {
    let net = Network::quantise(&random_bucketed_net(4, 3, 14)).unwrap();
    let bytes = file::to_bytes(&net);
    for count in [0, 32, 1000, u32::MAX] {
        let err = file::from_bytes(&with_word(&bytes, 6, count)).unwrap_err();
        assert!(
            err.to_string()
                .contains(&format!("output bucket count {count} is not in 1..=31")),
            "{err}"
        );
    }
    // A count in range that does not match the weights: the length says so.
    for count in [1, 2, 4, 31] {
        let err = file::from_bytes(&with_word(&bytes, 6, count)).unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains(&format!("{count} output bucket(s)")) && text.contains("truncated"),
            "{text}"
        );
    }
    // An old one-bucket file relabelled as bucketed, and the reverse.
    let plain = file::to_bytes(&Network::quantise(&random_net(4, 14)).unwrap());
    let err = file::from_bytes(&with_word(&plain, 1, file::ARCH_OUTPUT_BUCKETS)).unwrap_err();
    assert!(err.to_string().contains("not a usable"), "{err}");
    let err = file::from_bytes(&with_word(&bytes, 1, file::ARCH_PERSPECTIVE_SCRELU)).unwrap_err();
    assert!(err.to_string().contains("truncated"), "{err}");
    let err = file::from_bytes(&with_word(&bytes, 1, 4)).unwrap_err();
    assert!(err.to_string().contains("unknown architecture 4"), "{err}");
    // Every prefix of the file, and the file with a byte more, is refused without a panic.
    for len in 0..bytes.len() {
        assert!(
            file::from_bytes(&bytes[..len]).is_err(),
            "prefix of {len} bytes"
        );
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(file::from_bytes(&longer).is_err());
}

#[test]
fn inconsistent_bucketed_networks_are_refused() {
    let mut float = random_bucketed_net(8, 4, 15);
    float.out_bias.pop();
    let err = Network::quantise(&float).unwrap_err();
    assert!(err.to_string().contains("4 output buckets"), "{err}");
    let mut float = random_bucketed_net(8, 4, 15);
    float.buckets = 0;
    assert!(Network::quantise(&float).is_err());
    let mut net = Network::quantise(&random_bucketed_net(8, 4, 15)).unwrap();
    net.buckets = 5;
    let err =
        kestrel_nnue::NetEval::new(&net, kestrel_nnue::Kernel::portable(), "odd.knet").unwrap_err();
    assert!(err.to_string().contains("5 output buckets"), "{err}");
}

#[test]
fn a_king_relative_network_follows_its_float_form_and_round_trips() {
    // A position without castling rights and its a↔h mirror: the same chess position.
    let (fen, mirror) = (
        "2r3k1/pp3ppp/4p3/8/3P4/4P3/PP3PPP/2R3K1 w - - 0 1",
        "1k3r2/ppp3pp/3p4/8/4P3/3P4/PPP3PP/1K3R2 w - - 0 1",
    );
    for (king_buckets, buckets) in [(1, 1), (2, 8), (4, 1)] {
        let inputs = InputLayout::king_buckets(king_buckets).unwrap();
        let float = random_layout_net(16, buckets, inputs, 21);
        let net = Network::quantise(&float).unwrap();
        assert_follows(&float, &net);
        let (a, b) = (
            Board::from_fen(fen).unwrap(),
            Board::from_fen(mirror).unwrap(),
        );
        assert_eq!(net.evaluate(&a), net.evaluate(&b), "mirrored inputs");
        assert_ne!(
            Network::quantise(&random_bucketed_net(16, buckets, 21))
                .unwrap()
                .evaluate(&a),
            net.evaluate(&a),
            "the layout changes the features"
        );

        let bytes = file::to_bytes(&net);
        let word = |i: usize| u32::from_le_bytes(bytes[8 + 4 * i..12 + 4 * i].try_into().unwrap());
        assert_eq!(
            (word(1), word(2), word(6), word(7)),
            (
                file::ARCH_KING_BUCKETS,
                16,
                buckets as u32,
                king_buckets as u32
            )
        );
        let (kb, ob) = (king_buckets, buckets);
        assert_eq!(
            bytes.len(),
            40 + 2 * (768 * kb * 16 + 16 + 32 * ob) + 4 * ob + 8
        );
        assert_eq!(file::from_bytes(&bytes).unwrap(), net);
        for bad in [0, 3, 8, u32::MAX] {
            let err = file::from_bytes(&with_word(&bytes, 7, bad)).unwrap_err();
            assert!(
                err.to_string().contains(&format!("{bad} king buckets")),
                "{err}"
            );
        }
        for len in (0..bytes.len()).step_by(97) {
            assert!(file::from_bytes(&bytes[..len]).is_err(), "prefix {len}");
        }
    }
    // Plain inputs are never written as architecture 3.
    let plain = file::to_bytes(&Network::quantise(&random_bucketed_net(16, 8, 21)).unwrap());
    assert_eq!(plain[12..16], file::ARCH_OUTPUT_BUCKETS.to_le_bytes());
}
