//! The search with a network: the accumulators follow every make, unmake and null move (the
//! worker checks each evaluation against a full refresh in debug builds), the network
//! changes the search, and a search with it is as deterministic as the linear one.

use kestrel_chess::Board;
use kestrel_nnue::{FloatNetwork, InputLayout, NetEval, Network};
use kestrel_search::{EngineConfig, SearchLimits, Searcher};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

const FENS: [&str; 4] = [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "8/pp3k2/2p5/3p1pp1/3P4/2P3PP/PP3K2/8 w - - 0 1",
];

/// A random network with a material-like output: a search with it plays sensible moves.
fn random_network(seed: u64) -> Arc<NetEval> {
    random_bucketed_network(seed, 1)
}

/// As [`random_network`], with `buckets` output buckets (each its own random layer).
fn random_bucketed_network(seed: u64, buckets: usize) -> Arc<NetEval> {
    random_layout_network(seed, buckets, InputLayout::PLAIN)
}

/// As [`random_bucketed_network`], with the `inputs` layout.
fn random_layout_network(seed: u64, buckets: usize, inputs: InputLayout) -> Arc<NetEval> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut float = FloatNetwork::zeros_with_layout(64, buckets, inputs);
    for w in float.ft_weights.iter_mut().chain(float.ft_bias.iter_mut()) {
        *w = rng.random_range(-0.1..0.3);
    }
    for w in float.out_weights.iter_mut() {
        *w = rng.random_range(-0.5..0.5);
    }
    let net = Network::quantise(&float).unwrap();
    Arc::new(NetEval::with_detected_kernel(&net, "test").unwrap())
}

fn search(config: EngineConfig, fen: &str, depth: i32) -> (Option<String>, u64, i32) {
    let board = Board::from_fen(fen).unwrap();
    let mut searcher = Searcher::new(config);
    let r = searcher.search(&board, &SearchLimits::depth(depth), &mut |_| {});
    let mv = r.best_move.map(|m| m.to_string());
    if let Some(m) = r.best_move {
        assert!(board.legal_moves().contains(m), "{fen}: illegal {m}");
    }
    (mv, r.nodes, r.score_internal)
}

#[test]
fn a_network_search_is_deterministic_and_differs_from_the_linear_one() {
    let net = random_network(9);
    let with_net = || EngineConfig {
        network: Some(net.clone()),
        ..EngineConfig::default()
    };
    let mut differs = false;
    for fen in FENS {
        let a = search(with_net(), fen, 6);
        assert_eq!(a, search(with_net(), fen, 6), "{fen}");
        differs |= a != search(EngineConfig::default(), fen, 6);
    }
    assert!(differs, "the network never changed the search");
}

/// Captures in the search change the bucket: every evaluation, checked against a full
/// refresh in the test build, uses the bucket of its own position's material.
#[test]
fn a_bucketed_network_search_is_deterministic_and_differs_from_one_bucket() {
    let bucketed = random_bucketed_network(9, 8);
    assert_eq!(bucketed.buckets(), 8);
    let config = |net: &Arc<NetEval>| EngineConfig {
        network: Some(net.clone()),
        ..EngineConfig::default()
    };
    let plain = random_network(9);
    let mut differs = false;
    for fen in FENS {
        let a = search(config(&bucketed), fen, 6);
        assert_eq!(a, search(config(&bucketed), fen, 6), "{fen}");
        differs |= a != search(config(&plain), fen, 6);
    }
    assert!(differs, "the buckets never changed the search");
}

/// King moves in the search change their side's orientation: every evaluation, checked
/// against a full refresh in the test build, sees the board through its own kings.
#[test]
fn a_king_relative_network_search_is_deterministic_and_differs_from_plain_inputs() {
    let king = random_layout_network(9, 8, InputLayout::king_buckets(4).unwrap());
    assert_eq!(king.shape(), "hidden 64, 8 output buckets, 4 king buckets");
    let config = |net: &Arc<NetEval>| EngineConfig {
        network: Some(net.clone()),
        threads: 1,
        ..EngineConfig::default()
    };
    let plain = random_bucketed_network(9, 8);
    let mut differs = false;
    for fen in FENS {
        let a = search(config(&king), fen, 6);
        assert_eq!(a, search(config(&king), fen, 6), "{fen}");
        differs |= a != search(config(&plain), fen, 6);
    }
    assert!(differs, "the king-relative inputs never changed the search");
}

#[test]
fn threads_search_with_the_network() {
    let config = EngineConfig {
        network: Some(random_network(3)),
        threads: 2,
        ..EngineConfig::default()
    };
    for fen in FENS {
        let (mv, nodes, _) = search(config.clone(), fen, 6);
        assert!(mv.is_some() && nodes > 0, "{fen}");
    }
}

#[test]
fn set_network_switches_the_evaluation_and_back() {
    let board = Board::from_fen(FENS[0]).unwrap();
    let mut searcher = Searcher::new(EngineConfig::default());
    let linear = searcher.search(&board, &SearchLimits::depth(6), &mut |_| {});
    searcher.set_network(Some(random_network(5)));
    searcher.new_game();
    let net = searcher.search(&board, &SearchLimits::depth(6), &mut |_| {});
    searcher.set_network(None);
    searcher.new_game();
    let again = searcher.search(&board, &SearchLimits::depth(6), &mut |_| {});
    assert_eq!(
        (linear.nodes, linear.score_internal),
        (again.nodes, again.score_internal)
    );
    assert_ne!(
        (linear.nodes, linear.score_internal),
        (net.nodes, net.score_internal)
    );
}
