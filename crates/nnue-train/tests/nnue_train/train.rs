//! The trainer: its forward pass is kestrel-nnue's `FloatNetwork::evaluate`, its gradient the
//! loss's derivative; on positions labelled by a known small network it drives the loss near
//! zero and recovers that network's scores; the same seed gives the same network on 1 and 2
//! threads, with `--mirror` too; a stopped run resumes to the same network; `--mirror` learns a
//! mirror-symmetric teacher better from the same few positions.

use kestrel_chess::Board;
use kestrel_nnue::{FloatNetwork, InputLayout, Network};
use kestrel_nnue_train::format::{Outcome, PackedPosition, write_all};
use kestrel_nnue_train::train::data::{Holdout, Target, load, load_first};
use kestrel_nnue_train::train::mirror::{Sample, can_mirror};
use kestrel_nnue_train::train::model::{
    Features, Layout, Scratch, centipawns, forward, from_network, to_network,
};
use kestrel_nnue_train::train::step::{Loss, Workspace, batch_gradient, mean_loss};
use kestrel_nnue_train::train::{
    NET_FILE, StartWeights, TrainConfig, TrainData, TrainReport, run_train,
};
use kestrel_testdata::ScratchDir;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// An empty folder for one test, removed when the test passes.
fn temp_dir(name: &str) -> ScratchDir {
    ScratchDir::new(&format!("nnue-train-{name}"))
}

/// Positions of random playouts: every fifth ply from the eighth on.
fn random_boards(count: usize, seed: u64) -> Vec<Board> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut board = Board::startpos();
        for ply in 0..rng.random_range(8..160) {
            let moves = board.legal_moves();
            if moves.is_empty() || out.len() == count {
                break;
            }
            board.make_move(moves.as_slice()[rng.random_range(0..moves.len())]);
            if ply >= 8 && ply % 5 == 0 && !board.legal_moves().is_empty() {
                out.push(board.clone());
            }
        }
    }
    out
}

fn random_network(hidden: usize, spread: f32, seed: u64) -> FloatNetwork {
    random_bucketed_network(hidden, 1, spread, seed)
}

/// A random network with `buckets` output buckets (one bucket draws as `random_network`
/// always did).
fn random_bucketed_network(hidden: usize, buckets: usize, spread: f32, seed: u64) -> FloatNetwork {
    random_layout_network(hidden, buckets, InputLayout::PLAIN, spread, seed)
}

/// As [`random_bucketed_network`], with the `inputs` layout.
fn random_layout_network(
    hidden: usize,
    buckets: usize,
    inputs: InputLayout,
    spread: f32,
    seed: u64,
) -> FloatNetwork {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut net = FloatNetwork::zeros_with_layout(hidden, buckets, inputs);
    for w in net.ft_weights.iter_mut().chain(&mut net.ft_bias) {
        *w = rng.random_range(-spread..spread);
    }
    for w in &mut net.out_weights {
        *w = rng.random_range(-1.0..1.0);
    }
    for b in &mut net.out_bias {
        *b = rng.random_range(-0.1..0.1);
    }
    net
}

/// Positions scored by `teacher` (side to move's view), with random results.
fn teacher_data(teacher: &FloatNetwork, count: usize, seed: u64) -> Vec<PackedPosition> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 99);
    random_boards(count, seed)
        .iter()
        .map(|b| {
            let score = teacher.evaluate(b).round() as i16;
            let result =
                [Outcome::BlackWin, Outcome::Draw, Outcome::WhiteWin][rng.random_range(0..3)];
            PackedPosition::pack(b, score, result)
        })
        .collect()
}

fn king_buckets(n: usize) -> InputLayout {
    InputLayout::king_buckets(n).unwrap()
}

#[test]
fn the_forward_pass_is_the_float_networks_evaluation() {
    for (buckets, inputs) in [
        (1, InputLayout::PLAIN),
        (8, InputLayout::PLAIN),
        (1, king_buckets(1)),
        (8, king_buckets(4)),
    ] {
        let net = random_layout_network(24, buckets, inputs, 0.3, 5);
        let layout = Layout {
            hidden: 24,
            buckets,
            inputs,
        };
        let params = from_network(&net);
        assert_eq!(params.len(), layout.len());
        assert_eq!(to_network(layout, &params), net);
        let mut scratch = Scratch::new(24);
        let mut used = std::collections::BTreeSet::new();
        for board in random_boards(500, 8) {
            let rec = PackedPosition::pack(&board, 0, Outcome::Draw);
            let features = Features::of(&rec, inputs);
            used.insert(features.bucket(buckets));
            let ours = centipawns(forward(layout, &params, &features, &mut scratch));
            let reference = net.evaluate(&board);
            assert!(
                (ours - reference).abs() <= 1e-3 * (1.0 + reference.abs()),
                "{ours} vs {reference}"
            );
        }
        assert!(used.len() * 2 > buckets, "buckets used: {used:?}");
    }
}

#[test]
fn the_gradient_matches_finite_differences() {
    for (buckets, inputs) in [
        (1, InputLayout::PLAIN),
        (3, InputLayout::PLAIN),
        (3, king_buckets(2)),
    ] {
        gradient_matches_finite_differences(buckets, inputs);
    }
}

fn gradient_matches_finite_differences(buckets: usize, inputs: InputLayout) {
    let hidden = 6;
    let layout = Layout {
        hidden,
        buckets,
        inputs,
    };
    let net = random_layout_network(hidden, buckets, inputs, 0.3, 2);
    let records = teacher_data(
        &random_layout_network(hidden, buckets, inputs, 0.3, 3),
        40,
        4,
    );
    let refs: Vec<Sample> = records.iter().map(Sample::plain).collect();
    let loss = Loss {
        target: Target {
            lambda: 0.7,
            scale: 400.0,
        },
        out_factor: 1.0,
    };
    let mut params = from_network(&net);
    let mut ws = Workspace::new(layout, refs.len());
    batch_gradient(layout, &params, &refs, &loss, &mut ws);
    let grad = ws.grad.clone();
    // Features that occur (pawns, kings), biases, output weights and the output bias.
    let mut checked = 0;
    for i in (0..layout.len()).step_by(7) {
        if grad[i] == 0.0 && i < layout.ft_bias() {
            continue;
        }
        let h = 1e-3;
        let keep = params[i];
        params[i] = keep + h;
        let up = mean_loss(layout, &params, &records, &loss);
        params[i] = keep - h;
        let down = mean_loss(layout, &params, &records, &loss);
        params[i] = keep;
        let numeric = ((up - down) / (2.0 * h as f64)) as f32;
        assert!(
            (numeric - grad[i]).abs() <= 2e-3 * grad[i].abs().max(1e-3),
            "parameter {i}: analytic {} numeric {numeric}",
            grad[i]
        );
        checked += 1;
    }
    assert!(checked > 50, "{checked} parameters checked");
    // Every bucket the positions use gets a gradient in its own output layer only.
    let used: std::collections::BTreeSet<usize> = records
        .iter()
        .map(|r| Features::of(r, inputs).bucket(buckets))
        .collect();
    for b in 0..buckets {
        let start = layout.bucket_weights(b);
        let touched = grad[start..start + 2 * hidden].iter().any(|&g| g != 0.0)
            || grad[layout.out_bias() + b] != 0.0;
        assert_eq!(touched, used.contains(&b), "bucket {b} of {buckets}");
    }
}

fn config(epochs: usize, seed: u64) -> TrainConfig {
    TrainConfig {
        hidden: 16,
        epochs,
        batch: 256,
        lr: 0.01,
        warmup_steps: 20,
        final_lr_factor: 0.05,
        lambda: 1.0,
        scale: 400.0,
        validation_fraction: 0.1,
        seed,
        mirror: false,
        output_buckets: 1,
        king_buckets: 0,
        holdout: Holdout::Positions,
        start: None,
    }
}

/// A small teacher, a wider student (as usual, the extra width makes the fit easy to find).
const TEACHER_HIDDEN: usize = 8;
const STUDENT_HIDDEN: usize = 32;
const TEACHER_POSITIONS: usize = 60_000;
const TEACHER_EPOCHS: usize = 30;

#[test]
fn a_run_started_from_the_teacher_begins_at_its_loss_and_keeps_to_its_start() {
    let dir = temp_dir("start");
    let mut teacher = random_network(TEACHER_HIDDEN, 0.15, 41);
    // Within the output clip, so that the teacher quantises.
    teacher.out_weights.iter_mut().for_each(|w| *w *= 0.95);
    let records = teacher_data(&teacher, 6_000, 42);
    let file = dir.join("teacher.kpos");
    write_all(&file, &records).unwrap();
    let data = load(&[file], 1.0, 0.1, 3).unwrap();
    let layout = Layout {
        hidden: TEACHER_HIDDEN,
        buckets: 1,
        inputs: InputLayout::PLAIN,
    };
    let quantised = Network::quantise(&teacher).unwrap();
    let mut cfg = config(1, 3);
    cfg.hidden = TEACHER_HIDDEN;
    cfg.lr = 1e-6;
    cfg.start = Some(StartWeights::new(&quantised, "teacher", layout).unwrap());
    let started = run_train(&dir.join("started"), &cfg, &data, &|_| true)
        .unwrap()
        .unwrap();
    let random = run_train(
        &dir.join("random"),
        &TrainConfig {
            start: None,
            ..cfg.clone()
        },
        &data,
        &|_| true,
    )
    .unwrap()
    .unwrap();
    let (from_teacher, from_random) = (
        started.log[0].validation_loss,
        random.log[0].validation_loss,
    );
    // The quantised teacher is a few centipawns from its float scores: a loss near zero.
    assert!(
        from_teacher < 2e-5 && from_random > 20.0 * from_teacher,
        "validation loss {from_teacher} from the teacher, {from_random} from random weights"
    );
    assert_eq!(
        Network::quantise(&started.network).unwrap(),
        quantised,
        "a step of 1e-6 leaves the teacher's integers as they were"
    );
    // A checkpoint continues only from the start it began with.
    let mut other = quantised.clone();
    other.out_bias[0] += 1;
    cfg.start = Some(StartWeights::new(&other, "other", layout).unwrap());
    assert!(run_train(&dir.join("started"), &cfg, &data, &|_| true).is_err());
    // A network of another shape is refused.
    let wider = Layout {
        hidden: 16,
        ..layout
    };
    let err = StartWeights::new(&quantised, "teacher", wider).unwrap_err();
    assert!(
        err.contains("hidden 8") && err.contains("hidden 16"),
        "{err}"
    );
}

#[test]
fn training_recovers_a_teacher_network() {
    let dir = temp_dir("teacher");
    let teacher = random_network(TEACHER_HIDDEN, 0.15, 21);
    let records = teacher_data(&teacher, TEACHER_POSITIONS, 22);
    let file = dir.join("teacher.kpos");
    write_all(&file, &records).unwrap();
    let data = load(&[file], 1.0, 0.1, 3).unwrap();
    let spread = records
        .iter()
        .map(|r| r.score().unwrap().unsigned_abs() as f64)
        .sum::<f64>()
        / records.len() as f64;
    let mut cfg = config(TEACHER_EPOCHS, 3);
    cfg.hidden = STUDENT_HIDDEN;
    cfg.lr = 0.002;
    let report = run_train(&dir.join("run"), &cfg, &data, &|_| true)
        .unwrap()
        .unwrap();
    assert_loss_near_zero(&report);
    // The teacher's scores are recovered on held-out positions.
    assert!(
        report.validation_mean_abs_cp < 4.0 && spread > 100.0,
        "mean |student - teacher| {} cp, mean |teacher| {spread} cp",
        report.validation_mean_abs_cp
    );
    let (mean_q, max_q) = report.quantisation_error;
    // Rounding 2 x 32 output weights to 1/64 moves a score by a few centipawns.
    assert!(
        mean_q < 4.0 && max_q < 30.0,
        "quantisation {mean_q} / {max_q} cp"
    );
    let net = kestrel_nnue::file::read(&dir.join("run").join(NET_FILE)).unwrap();
    assert_eq!(net.hidden, STUDENT_HIDDEN);
}

/// Positions per bucket (of `buckets`) and `net`'s mean |net − score| in each (centipawns),
/// for the buckets with at least 50 positions.
fn per_bucket_error(
    net: &FloatNetwork,
    buckets: usize,
    records: &[PackedPosition],
) -> Vec<(usize, usize, f32)> {
    let layout = Layout {
        hidden: net.hidden,
        buckets: net.buckets,
        inputs: net.inputs,
    };
    let params = from_network(net);
    let mut scratch = Scratch::new(net.hidden);
    let mut sums = vec![(0usize, 0.0f32); buckets];
    for r in records {
        let f = Features::of(r, net.inputs);
        let cp = centipawns(forward(layout, &params, &f, &mut scratch));
        let slot = &mut sums[f.bucket(buckets)];
        slot.0 += 1;
        slot.1 += (cp - r.score().unwrap() as f32).abs();
    }
    sums.iter()
        .enumerate()
        .filter(|(_, (n, _))| *n >= 50)
        .map(|(b, &(n, sum))| (b, n, sum / n as f32))
        .collect()
}

#[test]
fn training_recovers_a_bucketed_teacher_network() {
    const BUCKETS: usize = 8;
    let dir = temp_dir("bucketed-teacher");
    let teacher = random_bucketed_network(TEACHER_HIDDEN, BUCKETS, 0.15, 23);
    let records = teacher_data(&teacher, TEACHER_POSITIONS, 24);
    let file = dir.join("teacher.kpos");
    write_all(&file, &records).unwrap();
    let data = load(&[file], 1.0, 0.1, 3).unwrap();
    let train = |buckets: usize| {
        let mut cfg = config(TEACHER_EPOCHS, 3);
        cfg.hidden = STUDENT_HIDDEN;
        cfg.lr = 0.002;
        cfg.output_buckets = buckets;
        let out = dir.join(format!("buckets-{buckets}"));
        run_train(&out, &cfg, &data, &|_| true).unwrap().unwrap()
    };
    let (bucketed, plain) = (train(BUCKETS), train(1));
    assert_loss_near_zero(&bucketed);
    let last = bucketed.log.last().unwrap();
    assert!(
        bucketed.validation_mean_abs_cp < 4.0,
        "mean |student - teacher| {} cp",
        bucketed.validation_mean_abs_cp
    );
    // Each bucket's own output layer is learned (buckets 0 and 1, few pieces, are rare in
    // random playouts: 2.0-2.6 cp in the others here).
    let per_bucket = per_bucket_error(&bucketed.network, BUCKETS, &data.validation);
    assert!(
        per_bucket.len() >= 5 && per_bucket.iter().all(|&(_, _, cp)| cp < 5.0),
        "held-out positions and mean error by bucket: {per_bucket:?}"
    );
    // A student without buckets cannot follow eight unrelated output layers (validation loss
    // 6.3e-3 against 3.5e-6 here, 99 cp against 2 cp).
    let plain_last = plain.log.last().unwrap();
    assert!(
        plain_last.validation_loss > 10.0 * last.validation_loss
            && plain.validation_mean_abs_cp > 5.0 * bucketed.validation_mean_abs_cp,
        "one bucket: validation {} ({} cp); eight: {} ({} cp)",
        plain_last.validation_loss,
        plain.validation_mean_abs_cp,
        last.validation_loss,
        bucketed.validation_mean_abs_cp
    );
    let (mean_q, max_q) = bucketed.quantisation_error;
    assert!(
        mean_q < 4.0 && max_q < 30.0,
        "quantisation {mean_q} / {max_q} cp"
    );
    let net = kestrel_nnue::file::read(&dir.join("buckets-8").join(NET_FILE)).unwrap();
    assert_eq!((net.hidden, net.buckets), (STUDENT_HIDDEN, BUCKETS));
    assert_eq!(
        net,
        kestrel_nnue::Network::quantise(&bucketed.network).unwrap()
    );
}

#[test]
fn output_buckets_are_deterministic_resume_exactly_and_are_a_setting() {
    let dir = temp_dir("bucket-determinism");
    let data = determinism_data(&dir);
    let mut bucketed = config(6, 5);
    bucketed.output_buckets = 8;
    bucketed.mirror = true;
    let one = same_on_any_threads_and_resumed(&dir, &data, &bucketed);
    assert_eq!(one.network.buckets, 8);

    // A run is not continued with another bucket count (nor its checkpoint read as one of
    // another size, as for another hidden size).
    let mut four = bucketed.clone();
    four.output_buckets = 4;
    let err = run_train(&dir.join("one"), &four, &data, &|_| true).unwrap_err();
    assert!(err.to_string().contains("another network size"), "{err}");
    let err = run_train(&dir.join("one"), &config(6, 5), &data, &|_| true).unwrap_err();
    assert!(err.to_string().contains("another network size"), "{err}");
    for bad in [0, 32] {
        let mut cfg = bucketed.clone();
        cfg.output_buckets = bad;
        let err = run_train(&dir.join(format!("bad-{bad}")), &cfg, &data, &|_| true).unwrap_err();
        assert!(err.to_string().contains("1 to 31"), "{err}");
    }
}

/// The training loss fell a hundredfold and the validation loss is near zero.
fn assert_loss_near_zero(report: &TrainReport) {
    let (first, last) = (&report.log[0], report.log.last().unwrap());
    assert!(
        last.train_loss < first.train_loss / 100.0 && last.validation_loss < 2e-5,
        "loss {} -> {} (validation {})",
        first.train_loss,
        last.train_loss,
        last.validation_loss
    );
}

/// Trains `cfg` into `one` (1 thread), `two` (2 threads) and `resumed` (stopped after epoch 3,
/// resumed on 1 thread), asserts the three networks and files are the same, returns `one`.
fn same_on_any_threads_and_resumed(
    dir: &std::path::Path,
    data: &TrainData,
    cfg: &TrainConfig,
) -> TrainReport {
    let train = |out: &str, threads: usize, stop_after: usize| {
        train_on_threads(dir, out, cfg, data, threads, stop_after)
    };
    let one = train("one", 1, usize::MAX).unwrap();
    let two = train("two", 2, usize::MAX).unwrap();
    let bytes = |out: &str| std::fs::read(dir.join(out).join(NET_FILE)).unwrap();
    assert_eq!(one.network, two.network);
    assert_eq!(bytes("one"), bytes("two"));
    assert!(train("resumed", 2, 3).is_none());
    let resumed = train("resumed", 1, usize::MAX).unwrap();
    assert_eq!((resumed.resumed_at, &resumed.network), (3, &one.network));
    assert_eq!(bytes("resumed"), bytes("one"));
    one
}

/// The small teacher-labelled set the determinism tests train on, written into `dir`.
fn determinism_data(dir: &std::path::Path) -> TrainData {
    let records = teacher_data(&random_network(16, 0.15, 31), 1500, 32);
    let file = dir.join("d.kpos");
    write_all(&file, &records).unwrap();
    load(&[file], 1.0, 0.1, 5).unwrap()
}

/// Trains `cfg` on `data` into `dir/out` on a pool of `threads`, stopping after epoch
/// `stop_after` (`None` when stopped early).
fn train_on_threads(
    dir: &std::path::Path,
    out: &str,
    cfg: &TrainConfig,
    data: &TrainData,
    threads: usize,
    stop_after: usize,
) -> Option<TrainReport> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| run_train(&dir.join(out), cfg, data, &|row| row.epoch < stop_after).unwrap())
}

#[test]
fn same_seed_same_network_on_any_thread_count_and_resume_is_exact() {
    let dir = temp_dir("determinism");
    let data = determinism_data(&dir);
    let train = |out: &str, threads: usize, stop_after: usize| {
        train_on_threads(&dir, out, &config(6, 5), &data, threads, stop_after)
    };
    let one = train("one", 1, usize::MAX).unwrap();
    let two = train("two", 2, usize::MAX).unwrap();
    assert_eq!(one.network, two.network);
    let bytes = |out: &str| std::fs::read(dir.join(out).join(NET_FILE)).unwrap();
    assert_eq!(bytes("one"), bytes("two"));

    assert!(train("resumed", 2, 3).is_none(), "stopped after epoch 3");
    let resumed = train("resumed", 1, usize::MAX).unwrap();
    assert_eq!(resumed.resumed_at, 3);
    assert_eq!(resumed.network, one.network);
    assert_eq!(bytes("resumed"), bytes("one"));
    let losses = |r: &TrainReport| {
        r.log
            .iter()
            .map(|l| (l.train_loss, l.validation_loss))
            .collect::<Vec<_>>()
    };
    assert_eq!(losses(&resumed), losses(&one));

    let other = train("other-seed", 2, usize::MAX);
    assert!(other.is_some());
    let mut changed = config(6, 5);
    changed.lr = 0.02;
    let err = run_train(&dir.join("one"), &changed, &data, &|_| true).unwrap_err();
    assert!(err.to_string().contains("other settings"), "{err}");
}

#[test]
fn max_positions_takes_the_first_records_and_changes_the_fingerprint() {
    let dir = temp_dir("first-n");
    let teacher = random_network(TEACHER_HIDDEN, 0.15, 31);
    let records = teacher_data(&teacher, 1_000, 32);
    let file = dir.join("data.kpos");
    write_all(&file, &records).unwrap();
    let all = load(std::slice::from_ref(&file), 1.0, 0.1, 3).unwrap();
    let same = load_first(
        std::slice::from_ref(&file),
        Some(5_000),
        1.0,
        0.1,
        3,
        Holdout::Positions,
    )
    .unwrap();
    assert_eq!(
        same.fingerprint, all.fingerprint,
        "a limit above the size changes nothing"
    );
    let first = load_first(
        std::slice::from_ref(&file),
        Some(400),
        1.0,
        0.1,
        3,
        Holdout::Positions,
    )
    .unwrap();
    assert_eq!(first.train.len() + first.validation.len(), 400);
    assert_ne!(
        first.fingerprint, all.fingerprint,
        "a checkpoint must not resume across sizes"
    );
    let kept: std::collections::HashSet<[u8; 32]> = first
        .train
        .iter()
        .chain(&first.validation)
        .map(|r| r.0)
        .collect();
    assert!(records[..400].iter().all(|r| kept.contains(&r.0)));
}

/// `net` made symmetric under the file mirror (each feature's row equals its mirror's), so
/// it scores a position and its mirror alike: a teacher whose labels stay right when mirrored.
fn mirror_symmetric(mut net: FloatNetwork) -> FloatNetwork {
    let h = net.hidden;
    for f in (0..kestrel_nnue::INPUTS).filter(|f| f & 7 < 4) {
        let row = net.ft_weights[f * h..(f + 1) * h].to_vec();
        net.ft_weights[(f ^ 7) * h..((f ^ 7) + 1) * h].copy_from_slice(&row);
    }
    net
}

/// Mean |student − stored score| in centipawns over the mirrorable `records`, each mirrored.
fn mirrored_mean_abs_cp(net: &FloatNetwork, records: &[PackedPosition]) -> f32 {
    let layout = Layout {
        hidden: net.hidden,
        buckets: net.buckets,
        inputs: InputLayout::PLAIN,
    };
    let params = from_network(net);
    let mut scratch = Scratch::new(net.hidden);
    let errors: Vec<f32> = records
        .iter()
        .filter(|r| can_mirror(r))
        .map(|r| {
            let f = Features::of(r, InputLayout::PLAIN).mirrored();
            let cp = centipawns(forward(layout, &params, &f, &mut scratch));
            (cp - r.score().unwrap() as f32).abs()
        })
        .collect();
    assert!(errors.len() > 100, "{} mirrorable positions", errors.len());
    errors.iter().sum::<f32>() / errors.len() as f32
}

#[test]
fn training_with_mirror_learns_a_symmetric_teacher_from_fewer_positions() {
    let seed = 41;
    let dir = temp_dir("mirror-teacher");
    let teacher = mirror_symmetric(random_network(TEACHER_HIDDEN, 0.15, seed));
    let records = teacher_data(&teacher, 30_000, seed + 1);
    let file = dir.join("teacher.kpos");
    write_all(&file, &records).unwrap();
    let data = load(&[file], 1.0, 0.1, 3).unwrap();
    let mirrorable = data.train.iter().filter(|r| can_mirror(r)).count();
    assert!(mirrorable * 4 > data.train.len(), "{mirrorable} mirrorable");
    let train = |mirror: bool| {
        let mut cfg = config(20, 3);
        cfg.hidden = STUDENT_HIDDEN;
        cfg.lr = 0.002;
        cfg.mirror = mirror;
        let out = dir.join(format!("mirror-{mirror}"));
        run_train(&out, &cfg, &data, &|_| true).unwrap().unwrap()
    };
    let (mirrored, plain) = (train(true), train(false));
    let (first, last) = (&mirrored.log[0], mirrored.log.last().unwrap());
    let plain_last = plain.log.last().unwrap();
    assert!(
        last.train_loss < first.train_loss / 20.0,
        "loss {} -> {}",
        first.train_loss,
        last.train_loss,
    );
    // On 27,000 positions the mirrored ones make up for missing data (validation loss
    // 2.3e-4 against 4.5e-4 here; 0.4-0.6 of it for teacher seeds 41, 51, 61).
    assert!(
        last.validation_loss < 0.75 * plain_last.validation_loss
            && mirrored.validation_mean_abs_cp < plain.validation_mean_abs_cp,
        "validation loss {} ({} cp) with --mirror, {} ({} cp) without",
        last.validation_loss,
        mirrored.validation_mean_abs_cp,
        plain_last.validation_loss,
        plain.validation_mean_abs_cp
    );
    // The held-out positions mirrored: the symmetric teacher scores them as unmirrored.
    let (with, without) = (
        mirrored_mean_abs_cp(&mirrored.network, &data.validation),
        mirrored_mean_abs_cp(&plain.network, &data.validation),
    );
    assert!(
        with < 25.0 && with < without,
        "mirrored held-out positions: {with} cp with --mirror, {without} cp without"
    );
}

#[test]
fn mirror_is_deterministic_on_any_thread_count_resumes_exactly_and_is_a_setting() {
    let dir = temp_dir("mirror-determinism");
    let data = determinism_data(&dir);
    let mut mirrored = config(6, 5);
    mirrored.mirror = true;
    let one = same_on_any_threads_and_resumed(&dir, &data, &mirrored);
    let plain = train_on_threads(&dir, "plain", &config(6, 5), &data, 2, usize::MAX).unwrap();
    assert_ne!(
        plain.network, one.network,
        "--mirror changes what is learned"
    );

    // A run is not continued with the other --mirror, either way.
    for (out, cfg) in [("one", config(6, 5)), ("plain", mirrored.clone())] {
        let err = run_train(&dir.join(out), &cfg, &data, &|_| true).unwrap_err();
        assert!(err.to_string().contains("other settings"), "{err}");
    }
}

#[test]
fn training_recovers_a_king_relative_teacher_network() {
    let dir = temp_dir("king-teacher");
    let teacher = random_layout_network(TEACHER_HIDDEN, 1, king_buckets(2), 0.15, 25);
    let records = teacher_data(&teacher, TEACHER_POSITIONS, 26);
    let file = dir.join("teacher.kpos");
    write_all(&file, &records).unwrap();
    let data = load(&[file], 1.0, 0.1, 3).unwrap();
    let train = |king_buckets: usize| {
        let mut cfg = config(TEACHER_EPOCHS, 3);
        cfg.hidden = STUDENT_HIDDEN;
        cfg.lr = 0.002;
        cfg.king_buckets = king_buckets;
        let out = dir.join(format!("king-buckets-{king_buckets}"));
        run_train(&out, &cfg, &data, &|_| true).unwrap().unwrap()
    };
    let (king, plain) = (train(2), train(0));
    // Twice the first layer of the plain student, fitted from the same 54,000 positions:
    // the training loss falls as far, the held-out error stays a little higher (7.1 cp here,
    // validation loss 3.8e-5).
    let (first, last) = (&king.log[0], king.log.last().unwrap());
    assert!(
        last.train_loss < first.train_loss / 100.0 && last.validation_loss < 1e-4,
        "loss {} -> {} (validation {})",
        first.train_loss,
        last.train_loss,
        last.validation_loss
    );
    assert!(
        king.validation_mean_abs_cp < 10.0,
        "mean |student - teacher| {} cp",
        king.validation_mean_abs_cp
    );
    // Plain inputs cannot follow weights that change with the king's rank (53 cp here).
    assert!(
        plain.validation_mean_abs_cp > 5.0 * king.validation_mean_abs_cp,
        "plain {} cp, king buckets {} cp",
        plain.validation_mean_abs_cp,
        king.validation_mean_abs_cp
    );
    let net = kestrel_nnue::file::read(&dir.join("king-buckets-2").join(NET_FILE)).unwrap();
    assert_eq!(net.inputs, king_buckets(2));
    assert_eq!(net, kestrel_nnue::Network::quantise(&king.network).unwrap());
    let (mean_q, max_q) = king.quantisation_error;
    assert!(
        mean_q < 4.0 && max_q < 30.0,
        "quantisation {mean_q} / {max_q} cp"
    );
}

#[test]
fn king_buckets_are_deterministic_resume_exactly_and_are_a_setting() {
    let dir = temp_dir("king-determinism");
    let data = determinism_data(&dir);
    let mut king = config(6, 5);
    king.king_buckets = 2;
    king.output_buckets = 8;
    let one = same_on_any_threads_and_resumed(&dir, &data, &king);
    assert_eq!(one.network.inputs, king_buckets(2));

    // A run is not continued with other inputs.
    let mut other = king.clone();
    other.king_buckets = 4;
    let err = run_train(&dir.join("one"), &other, &data, &|_| true).unwrap_err();
    assert!(err.to_string().contains("another network size"), "{err}");
    let mut bad = king.clone();
    bad.king_buckets = 3;
    let err = run_train(&dir.join("bad"), &bad, &data, &|_| true).unwrap_err();
    assert!(err.to_string().contains("3 king buckets"), "{err}");
}
