//! Inference: every kernel gives the integers of the reference, and the incremental
//! accumulators equal a full refresh after every move of random playouts.

use kestrel_chess::{Board, Color, Move};
use kestrel_nnue::{AccumulatorStack, FloatNetwork, InputLayout, Kernel, NetEval, Network, file};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// A random network whose first layer is large enough that accumulators often leave
/// `0..=255` on both sides (so the clamp is exercised).
fn random_net(hidden: usize, seed: u64) -> Network {
    random_bucketed_net(hidden, 1, seed)
}

/// As [`random_net`], with `buckets` output buckets (each its own weights and bias).
fn random_bucketed_net(hidden: usize, buckets: usize, seed: u64) -> Network {
    random_layout_net(hidden, buckets, InputLayout::PLAIN, seed)
}

/// As [`random_bucketed_net`], with the `inputs` layout.
fn random_layout_net(hidden: usize, buckets: usize, inputs: InputLayout, seed: u64) -> Network {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut net = FloatNetwork::zeros_with_layout(hidden, buckets, inputs);
    for w in net.ft_weights.iter_mut().chain(net.ft_bias.iter_mut()) {
        *w = rng.random_range(-0.6..0.6);
    }
    for w in net.out_weights.iter_mut() {
        *w = rng.random_range(-0.99..0.99);
    }
    for b in net.out_bias.iter_mut() {
        *b = rng.random_range(-0.2..0.2);
    }
    Network::quantise(&net).unwrap()
}

fn padded(values: &[i16], len: usize) -> Vec<i16> {
    let mut v = values.to_vec();
    v.resize(len, 0);
    v
}

#[test]
fn every_kernel_gives_the_reference_output() {
    let kernels = Kernel::supported();
    eprintln!(
        "kernels on this machine: {:?}",
        kernels.iter().map(|k| k.name()).collect::<Vec<_>>()
    );
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for hidden in [1, 16, 40, 256, 1024] {
        let net = random_net(hidden, hidden as u64);
        for _ in 0..20 {
            let us: Vec<i16> = (0..hidden).map(|_| rng.random_range(-400..700)).collect();
            let them: Vec<i16> = (0..hidden).map(|_| rng.random_range(-400..700)).collect();
            let want = net.output(&us, &them, 0);
            for &k in &kernels {
                let eval = NetEval::new(&net, k, "test").unwrap();
                let p = eval.padded();
                let got = eval.output(&padded(&us, p), &padded(&them, p), 0);
                assert_eq!(got, want, "kernel {} hidden {hidden}", k.name());
            }
        }
    }
}

#[test]
fn every_kernel_gives_the_reference_output_in_every_bucket() {
    let kernels = Kernel::supported();
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    for (hidden, buckets) in [(1, 2), (40, 8), (256, 8), (100, 31)] {
        let net = random_bucketed_net(hidden, buckets, 100 + hidden as u64);
        let evals: Vec<NetEval> = kernels
            .iter()
            .map(|&k| NetEval::new(&net, k, "test").unwrap())
            .collect();
        assert!(evals.iter().all(|e| e.buckets() == buckets));
        for _ in 0..10 {
            let us: Vec<i16> = (0..hidden).map(|_| rng.random_range(-400..700)).collect();
            let them: Vec<i16> = (0..hidden).map(|_| rng.random_range(-400..700)).collect();
            let wants: Vec<i32> = (0..buckets).map(|b| net.output(&us, &them, b)).collect();
            if hidden > 1 {
                assert!(
                    wants.iter().any(|&w| w != wants[0]),
                    "the buckets must score differently: {wants:?}"
                );
            }
            for eval in &evals {
                let p = eval.padded();
                let (us, them) = (padded(&us, p), padded(&them, p));
                for (b, &want) in wants.iter().enumerate() {
                    let got = eval.output(&us, &them, b);
                    let k = eval.kernel().name();
                    assert_eq!(got, want, "kernel {k} hidden {hidden} bucket {b}");
                }
            }
        }
    }
}

/// Buckets that differ only in their bias: the score names the bucket the material chose,
/// on every kernel.
#[test]
fn the_material_on_the_board_chooses_the_bucket() {
    let (hidden, buckets) = (8, 8);
    let mut net = random_bucketed_net(hidden, buckets, 9);
    net.out_weights.iter_mut().for_each(|w| *w = 0);
    // Bias b·QA·QB is b·EVAL_SCALE centipawns.
    net.out_bias = (0..buckets as i32)
        .map(|b| b * 255 * kestrel_nnue::QB)
        .collect();
    let cases = [
        (kestrel_chess::START_FEN, 7),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", 0),
        ("4k3/8/8/8/8/8/4P3/3QK3 b - - 0 1", 0),
        ("r3k3/pppp4/8/8/8/8/PPPP4/R3K3 w - - 0 1", 2),
        ("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1", 5),
    ];
    for k in Kernel::supported() {
        let eval = Arc::new(NetEval::new(&net, k, "bias.knet").unwrap());
        for (fen, bucket) in cases {
            let board = Board::from_fen(fen).unwrap();
            assert_eq!(eval.bucket(&board), bucket, "{fen}");
            assert_eq!(eval.evaluate(&board), 400 * bucket as i32, "{fen}");
            assert_eq!(net.evaluate(&board), 400 * bucket as i32, "{fen}");
            let mut stack = AccumulatorStack::new(eval.clone(), &board);
            assert_eq!(stack.evaluate(&board), 400 * bucket as i32, "{fen}");
        }
    }
}

/// The largest sums a lane can see: every activation at its clamp and every output weight at
/// ±128, for hidden sizes up to the file format's largest (the lanes are flushed to `i64`
/// before they can overflow).
#[test]
fn the_output_sum_does_not_overflow_at_the_extremes() {
    for hidden in [1024, 1040, 2048, 4096] {
        for (acc, w) in [(255i16, 127i16), (300, 128), (32000, -128), (255, -127)] {
            let net = Network {
                hidden,
                buckets: 1,
                inputs: InputLayout::PLAIN,
                ft_weights: vec![0; kestrel_nnue::INPUTS * hidden],
                ft_bias: vec![0; hidden],
                out_weights: vec![w; 2 * hidden],
                out_bias: vec![0],
            };
            let values = vec![acc; hidden];
            let want = net.output(&values, &values, 0);
            let exact = 2 * hidden as i64 * 255 * 255 * w as i64 / 255 * 400
                / (255 * kestrel_nnue::QB as i64);
            assert_eq!(want as i64, exact, "reference at hidden {hidden}");
            for k in Kernel::supported() {
                let eval = NetEval::new(&net, k, "test").unwrap();
                let values = padded(&values, eval.padded());
                assert_eq!(
                    eval.output(&values, &values, 0),
                    want,
                    "kernel {} hidden {hidden} acc {acc} w {w}",
                    k.name()
                );
            }
        }
    }
}

#[test]
fn every_kernel_updates_like_the_portable_one() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let n = 256;
    let mut row = || -> Vec<i16> { (0..n).map(|_| rng.random::<i16>()).collect() };
    let (src, a0, a1, s0, s1) = (row(), row(), row(), row(), row());
    let run = |k: Kernel| {
        let mut out = vec![vec![0i16; n]; 3];
        k.update(&mut out[0], &src, [&a0[..]], [&s0[..]]);
        k.update(&mut out[1], &src, [&a0[..]], [&s0[..], &s1[..]]);
        k.update(&mut out[2], &src, [&a0[..], &a1[..]], [&s0[..], &s1[..]]);
        out
    };
    let want = run(Kernel::portable());
    // Random i16 values overflow: every kernel wraps alike.
    assert_eq!(want[0][0], src[0].wrapping_add(a0[0]).wrapping_sub(s0[0]));
    for k in Kernel::supported() {
        assert_eq!(run(k), want, "kernel {}", k.name());
    }
}

#[test]
fn a_full_refresh_equals_the_reference_network() {
    for (hidden, buckets) in [(8, 1), (40, 1), (256, 1), (40, 8), (256, 8)] {
        let net = random_bucketed_net(hidden, buckets, 11 + hidden as u64);
        for fen in [
            kestrel_chess::START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
        ] {
            let board = Board::from_fen(fen).unwrap();
            for k in Kernel::supported() {
                let eval = NetEval::new(&net, k, "test").unwrap();
                assert_eq!(eval.evaluate(&board), net.evaluate(&board), "{fen}");
            }
        }
    }
}

/// What one playout step did (each must occur for the test to mean something).
#[derive(Default, Debug)]
struct Seen {
    captures: usize,
    promotions: usize,
    castles: usize,
    en_passant: usize,
    nulls: usize,
    unmakes: usize,
    /// King moves that changed their side's orientation (king-relative inputs only).
    reorientations: usize,
}

/// A random legal move, captures and promotions preferred (so that they happen often).
fn pick(board: &Board, rng: &mut ChaCha8Rng) -> Option<Move> {
    let moves: Vec<Move> = board.legal_moves().iter().copied().collect();
    let special: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| m.is_capture() || m.is_promotion() || m.is_castle())
        .collect();
    if !special.is_empty() && rng.random_bool(0.5) {
        return Some(special[rng.random_range(0..special.len())]);
    }
    (!moves.is_empty()).then(|| moves[rng.random_range(0..moves.len())])
}

fn check_against_refresh(stack: &mut AccumulatorStack, eval: &NetEval, board: &Board) {
    let p = eval.padded();
    for c in [Color::White, Color::Black] {
        let mut fresh = vec![0i16; p];
        eval.refresh(board, c, &mut fresh);
        assert_eq!(
            stack.accumulator(board, c),
            &fresh[..],
            "{}",
            board.to_fen()
        );
    }
    assert_eq!(
        stack.evaluate(board),
        eval.evaluate(board),
        "{}",
        board.to_fen()
    );
}

/// Plays random moves (and null moves, and takebacks) from `fen`, checking after each step
/// (`every`) or after random steps only, so the lazy updates catch up over several moves.
fn playout(eval: &Arc<NetEval>, fen: &str, every: bool, rng: &mut ChaCha8Rng, seen: &mut Seen) {
    let mut board = Board::from_fen(fen).unwrap();
    let mut stack = AccumulatorStack::new(eval.clone(), &board);
    let mut path: Vec<bool> = Vec::new(); // true: a null move
    for _ in 0..120 {
        let roll = rng.random_range(0..10);
        if roll == 0 && !path.is_empty() {
            if path.pop().unwrap() {
                board.unmake_null();
            } else {
                board.unmake_move();
                stack.pop();
            }
            seen.unmakes += 1;
        } else if roll == 1 && !board.in_check() && board.last_move().is_none_or(|m| !m.is_null()) {
            board.make_null();
            path.push(true);
            seen.nulls += 1;
        } else {
            let Some(mv) = pick(&board, rng) else { break };
            seen.captures += mv.is_capture() as usize;
            seen.promotions += mv.is_promotion() as usize;
            seen.castles += mv.is_castle() as usize;
            seen.en_passant += mv.is_en_passant() as usize;
            let mover = board.side_to_move();
            let before = eval.inputs().board_orientation(&board, mover);
            stack.push_move(&board, mv);
            board.make_move(mv);
            let after = eval.inputs().board_orientation(&board, mover);
            seen.reorientations += (!eval.inputs().is_plain() && before != after) as usize;
            path.push(false);
        }
        if every || rng.random_bool(0.4) {
            check_against_refresh(&mut stack, eval, &board);
        }
    }
    check_against_refresh(&mut stack, eval, &board);
    assert_eq!(stack.depth(), path.iter().filter(|n| !**n).count());
}

#[test]
fn incremental_accumulators_equal_a_full_refresh() {
    let fens = [
        kestrel_chess::START_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let mut seen = Seen::default();
    for k in Kernel::supported() {
        // 40: padded to 64, so the padding neurons are updated too; 8 buckets as material
        // comes off in the playouts; king-relative inputs as the kings walk.
        let mirrored = |n| InputLayout::king_buckets(n).unwrap();
        for (hidden, buckets, inputs) in [
            (40, 1, InputLayout::PLAIN),
            (256, 1, InputLayout::PLAIN),
            (40, 8, InputLayout::PLAIN),
            (40, 1, mirrored(1)),
            (40, 8, mirrored(4)),
        ] {
            let net = random_layout_net(hidden, buckets, inputs, 5);
            let eval = Arc::new(NetEval::new(&net, k, "test").unwrap());
            for i in 0..30 {
                for fen in fens {
                    playout(&eval, fen, i % 2 == 0, &mut rng, &mut seen);
                }
            }
        }
    }
    eprintln!("{seen:?}");
    assert!(
        seen.captures > 100
            && seen.promotions > 20
            && seen.castles > 20
            && seen.en_passant > 5
            && seen.nulls > 100
            && seen.unmakes > 100
            && seen.reorientations > 100,
        "the playouts missed a kind of move: {seen:?}"
    );
}

#[test]
fn unsafe_networks_and_bad_files_are_refused() {
    let mut net = random_net(8, 1);
    net.out_weights[3] = 200;
    let err = NetEval::new(&net, Kernel::portable(), "big.knet").unwrap_err();
    assert!(err.to_string().contains("output weight 200"), "{err}");
    let mut net = random_net(8, 1);
    net.ft_weights[8 * 100 + 2] = 2000;
    let err = NetEval::new(&net, Kernel::portable(), "wide.knet").unwrap_err();
    assert!(err.to_string().contains("neuron 2"), "{err}");

    let dir = std::env::temp_dir().join(format!("kestrel-nnue-inf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let missing = dir.join("missing.knet");
    let err = NetEval::load(missing.to_str().unwrap()).unwrap_err();
    assert!(err.to_string().contains("missing.knet"), "{err}");
    let good = dir.join("good.knet");
    file::write(&good, &random_net(16, 4)).unwrap();
    let eval = NetEval::load(good.to_str().unwrap()).unwrap();
    assert_eq!((eval.hidden(), eval.padded()), (16, 32));
    assert_eq!(eval.kernel(), Kernel::detect());
    let mut bytes = std::fs::read(&good).unwrap();
    bytes.truncate(bytes.len() - 1);
    std::fs::write(&good, &bytes).unwrap();
    let err = NetEval::load(good.to_str().unwrap()).unwrap_err();
    assert!(err.to_string().contains("truncated"), "{err}");
    let builtin = NetEval::load("<builtin>");
    assert_eq!(builtin.is_ok(), kestrel_nnue::has_builtin_network());
    if let Err(e) = builtin {
        assert!(e.to_string().contains("no built-in network"), "{e}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
