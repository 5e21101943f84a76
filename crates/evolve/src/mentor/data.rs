//! A mentor run's data: its positions, labelled by every mentor through the label cache, the
//! positions without a centipawn label dropped.

use crate::mentor::builtin::BuiltinMentor;
use crate::mentor::crowd::combine_labels;
use crate::mentor::labels::{Label, LabelCache, LabelStats, Mentor, label_positions};
use crate::mentor::positions::{PositionSet, extract_from_pgn};
use crate::mentor::settings::{BUILTIN_POSITIONS, MentorRunConfig, MentorSpec, PositionsSource};
use crate::mentor::uci_mentor::UciMentor;
use crate::progress::progress_bar;
use kestrel_chess::Board;

/// A run's positions with their mentors' labels, those without a centipawn label dropped.
pub(super) struct LabelledData {
    /// The label key of the mentor, or of the combination of several.
    pub(super) key: String,
    /// Each mentor's label key.
    pub(super) keys: Vec<String>,
    /// Each mentor's labels of every position (training positions first).
    pub(super) per_mentor: Vec<Vec<Option<Label>>>,
    /// The combined labels of every position.
    pub(super) labels: Vec<Option<Label>>,
    pub(super) label_stats: LabelStats,
    /// Training positions before any was dropped.
    pub(super) n_train: usize,
    pub(super) train: Vec<Board>,
    pub(super) train_labels: Vec<i32>,
    pub(super) test: Vec<Board>,
    pub(super) test_labels: Vec<i32>,
    /// Positions dropped because a mentor saw a mate.
    pub(super) dropped_mates: usize,
    /// Positions dropped because no mentor gave a score.
    pub(super) dropped_failures: usize,
}

/// Loads the positions, labels them with every mentor and keeps the labelled ones.
pub(super) fn labelled_data(cfg: &MentorRunConfig) -> Result<LabelledData, String> {
    let positions = load_positions(cfg)?;
    let all: Vec<Board> = positions
        .train
        .iter()
        .chain(&positions.test)
        .cloned()
        .collect();
    let (keys, per_mentor, label_stats) = label_all(cfg, &all)?;
    let key = match keys.len() {
        1 => keys[0].clone(),
        _ => format!("{:?}({})", cfg.combine, keys.join(", ")).to_lowercase(),
    };
    let labels = combine_labels(&per_mentor, cfg.combine);
    let n_train = positions.train.len();
    let (train, train_labels, m1, f1) = keep_labelled(positions.train, &labels[..n_train]);
    let (test, test_labels, m2, f2) = keep_labelled(positions.test, &labels[n_train..]);
    if train.is_empty() {
        return Err("no training position has a centipawn label".into());
    }
    Ok(LabelledData {
        key,
        keys,
        per_mentor,
        labels,
        label_stats,
        n_train,
        train,
        train_labels,
        test,
        test_labels,
        dropped_mates: m1 + m2,
        dropped_failures: f1 + f2,
    })
}

fn load_positions(cfg: &MentorRunConfig) -> Result<PositionSet, String> {
    match &cfg.positions {
        PositionsSource::Builtin => PositionSet::parse_epd(BUILTIN_POSITIONS)
            .map_err(|e| format!("built-in positions: {e}")),
        PositionsSource::Epd(path) => PositionSet::load(path),
        PositionsSource::Pgn { path, count, rules } => {
            let (boards, _) = extract_from_pgn(path, *count, rules, cfg.ga.seed)?;
            let set = PositionSet::split(boards, cfg.ga.seed);
            let out = cfg.out_dir.join("positions.epd");
            set.save(&out)
                .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
            Ok(set)
        }
    }
}

fn make_mentor(cfg: &MentorRunConfig, spec: &MentorSpec) -> Result<Box<dyn Mentor>, String> {
    Ok(match spec {
        MentorSpec::Builtin => Box::new(BuiltinMentor::new(cfg.depth)),
        MentorSpec::Uci(cmd) => Box::new(UciMentor::new(cmd, cfg.depth, cfg.mentor_processes)?),
    })
}

/// Keeps positions with a centipawn label; counts mates and failures.
fn keep_labelled(
    boards: Vec<Board>,
    labels: &[Option<Label>],
) -> (Vec<Board>, Vec<i32>, usize, usize) {
    let (mut kept, mut values, mut mates, mut failed) = (Vec::new(), Vec::new(), 0, 0);
    for (b, l) in boards.into_iter().zip(labels) {
        match l {
            Some(Label::Cp(cp)) => {
                kept.push(b);
                values.push(*cp);
            }
            Some(Label::Mate) => mates += 1,
            None => failed += 1,
        }
    }
    (kept, values, mates, failed)
}

/// A short hash of positions and labels, so a checkpoint is never resumed on other data.
pub(super) fn data_hash(boards: &[Board], labels: &[i32]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for (b, l) in boards.iter().zip(labels) {
        for byte in b.hash().to_le_bytes().into_iter().chain(l.to_le_bytes()) {
            h = (h ^ byte as u64).wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// Labels `boards` with every mentor (each through the label cache): keys, labels per mentor,
/// and the labelling work summed over mentors.
#[allow(clippy::type_complexity)]
fn label_all(
    cfg: &MentorRunConfig,
    boards: &[Board],
) -> Result<(Vec<String>, Vec<Vec<Option<Label>>>, LabelStats), String> {
    let cache_path = cfg
        .labels
        .clone()
        .unwrap_or_else(|| cfg.out_dir.join("labels.tsv"));
    let (mut keys, mut per_mentor) = (Vec::new(), Vec::new());
    let mut total = LabelStats::default();
    for spec in std::iter::once(&cfg.mentor).chain(&cfg.extra_mentors) {
        let mut mentor = make_mentor(cfg, spec)?;
        let key = mentor.key();
        let mut cache = LabelCache::open(&cache_path, &key)?;
        let pb = progress_bar(cfg.progress, boards.len() as u64, "labelling");
        let (labels, stats) = label_positions(
            boards,
            mentor.as_mut(),
            &mut cache,
            500,
            &mut |done, todo| {
                pb.set_length(todo as u64);
                pb.set_position(done as u64);
            },
        )?;
        pb.finish_and_clear();
        total.cached += stats.cached;
        total.computed += stats.computed;
        total.failed += stats.failed;
        total.seconds += stats.seconds;
        keys.push(key);
        per_mentor.push(labels);
    }
    Ok((keys, per_mentor, total))
}
