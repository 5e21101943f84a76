//! Game fitness: racing spends its pairs on the contenders and keeps their order; the chess
//! fitness ranks a halved knight last and is the same on 1 and 2 threads.

use crate::support::openings_file;
use kestrel_evolve::games::{GameFitness, GamePlay, Opponents, RaceSettings, race};
use kestrel_evolve::spsa::chess::TunedElement;
use kestrel_ga::{FitnessFunction, RealGenome};
use kestrel_search::EngineParams;
use kestrel_tools::{GameSettings, Limit, MoveLimit, MoveLimitScoring, Outcome, load_openings};
use std::sync::atomic::{AtomicUsize, Ordering};

/// A reproducible game between candidate `c` (strength `c · 60` Elo over the reference) and
/// the reference: a hash of (c, j, game) against the expected score.
fn synthetic(c: usize, j: usize, game: usize) -> Outcome {
    let mut z =
        (c as u64 * 1_000_003 + j as u64 * 7919 + game as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z ^= z >> 29;
    z = z.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z ^= z >> 32;
    let u = (z % 1_000_000) as f64 / 1_000_000.0;
    let p_win = 1.0 / (1.0 + 10f64.powf(-(c as f64 * 60.0 - 200.0) / 400.0));
    if u < p_win * 0.8 {
        Outcome::Win
    } else if u < 1.0 - (1.0 - p_win) * 0.8 {
        Outcome::Draw
    } else {
        Outcome::Loss
    }
}

fn settings() -> RaceSettings {
    RaceSettings {
        first_pairs: 4,
        rounds: 3,
        keep: 0.5,
        growth: 2,
    }
}

#[test]
fn racing_spends_pairs_on_contenders() {
    let calls = AtomicUsize::new(0);
    let play = |c: usize, j: usize| {
        calls.fetch_add(1, Ordering::Relaxed);
        (synthetic(c, j, 0), synthetic(c, j, 1))
    };
    let entries = race(&settings(), 8, &play);
    // 8 × 4 pairs, then 4 survivors to 8 pairs (+16), then 2 to 16 (+16): 64, not 8 × 16.
    assert_eq!(calls.load(Ordering::Relaxed), 64);
    assert_eq!(entries.iter().filter(|e| e.rounds == 3).count(), 2);
    assert_eq!(entries.iter().filter(|e| e.rounds >= 2).count(), 4);
    let pairs: Vec<u64> = entries.iter().map(|e| e.penta.pairs()).collect();
    assert_eq!(pairs.iter().sum::<u64>(), 64);
    // The fittest is one of the two strongest, and survivors outrank the dropped.
    let best = (0..8)
        .max_by(|&a, &b| entries[a].fitness().total_cmp(&entries[b].fitness()))
        .unwrap();
    assert!(best >= 6, "best {best}: {entries:?}");
    for e in &entries {
        assert!(e.fitness() >= e.rounds as f64 && e.fitness() <= e.rounds as f64 + 1.0);
    }
    // The same on one and two threads.
    let pool = |n| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .unwrap()
    };
    let plain = |c: usize, j: usize| (synthetic(c, j, 0), synthetic(c, j, 1));
    let one = pool(1).install(|| race(&settings(), 8, &plain));
    let two = pool(2).install(|| race(&settings(), 8, &plain));
    assert_eq!(one, two);
    assert_eq!(one, entries);
    assert!(
        RaceSettings {
            growth: 1,
            ..settings()
        }
        .validate()
        .is_err()
    );
    assert!(
        RaceSettings {
            keep: 0.0,
            ..settings()
        }
        .validate()
        .is_err()
    );
}

fn knight_fitness() -> GameFitness {
    knight_fitness_against(Opponents::Reference)
}

/// KNIGHT_VALUE evolved at 500 nodes on the repository's openings, 4 first pairs, 2 rounds.
fn knight_fitness_against(opponents: Opponents) -> GameFitness {
    let openings = load_openings(&openings_file()).unwrap();
    let mut game = GameSettings::new(Limit::Nodes(500));
    game.adjudication.move_limit = Some(MoveLimit {
        moves: 200,
        scoring: MoveLimitScoring::Draw,
    });
    let elements = vec![TunedElement {
        section: "eval",
        name: "KNIGHT_VALUE".into(),
    }];
    let race = RaceSettings {
        first_pairs: 4,
        rounds: 2,
        keep: 0.5,
        growth: 2,
    };
    let play = GamePlay::new(EngineParams::default(), openings, game, race, 2, opponents).unwrap();
    GameFitness::new(EngineParams::default(), elements, play).unwrap()
}

/// The built-in KNIGHT_VALUE (the reference every knight organism plays).
fn default_knight() -> f64 {
    EngineParams::default().eval.get("KNIGHT_VALUE").unwrap()[0] as f64
}

/// Knight organisms: the default, the default halved, and the default less 50 (then `more`).
fn knight_genomes(more: &[f64]) -> Vec<RealGenome> {
    let k = default_knight();
    [k, k / 2.0, k - 50.0]
        .iter()
        .chain(more)
        .map(|v| RealGenome(vec![*v]))
        .collect()
}

#[test]
fn chess_fitness_ranks_a_halved_knight_last_on_any_thread_count() {
    let fitness = knight_fitness();
    let genomes = knight_genomes(&[]);
    let pool = |n| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .unwrap()
    };
    let one = pool(1).install(|| fitness.evaluate(5, &genomes));
    let two = pool(2).install(|| fitness.evaluate(5, &genomes));
    assert_eq!(one, two);
    // The default against itself: every pair one point, 0 Elo, and it survives.
    assert_eq!(one[0].objective, 0.0);
    assert!(one[0].fitness >= 2.0, "{one:?}");
    assert!(
        one[1].fitness < one[0].fitness && one[1].fitness < one[2].fitness,
        "{one:?}"
    );
    assert!(one[1].objective < -50.0, "{one:?}");
    // Another sample seed plays other openings.
    let entries = fitness.measure(6, &genomes);
    assert_eq!(entries[0].penta.five(), [0, 0, 8, 0, 0]);
    let space = fitness.space(0.1);
    assert_eq!((space.min[0], space.max[0]), (0.0, 1023.0));
    let params = fitness.params_of(&[2000.0]).unwrap();
    assert_eq!(params.eval.get("KNIGHT_VALUE"), Some(&[1023][..]));
}

#[test]
fn organisms_playing_each_other_rank_a_halved_knight_last_on_any_thread_count() {
    let genomes = knight_genomes(&[default_knight()]);
    let pool = |n| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .unwrap()
    };
    // Only each other: 4 pairs each (2 cycles), fitness = the fitted Elo's expected score.
    let fitness = knight_fitness_against(Opponents::Population);
    let one = pool(1).install(|| fitness.evaluate(5, &genomes));
    assert_eq!(one, pool(2).install(|| fitness.evaluate(5, &genomes)));
    assert!(
        one.iter().all(|e| e.fitness > 0.0 && e.fitness < 1.0),
        "{one:?}"
    );
    let worst = (0..4)
        .min_by(|&a, &b| one[a].fitness.total_cmp(&one[b].fitness))
        .unwrap();
    assert_eq!(worst, 1, "{one:?}");
    assert!(one[1].objective < -100.0, "{one:?}");
    // Both: the race's rounds come first, the fitted Elo orders within them.
    let both = knight_fitness_against(Opponents::Both);
    let evals = pool(2).install(|| both.evaluate(5, &genomes));
    assert!(
        evals[1].fitness < 2.0,
        "the halved knight is dropped: {evals:?}"
    );
    assert!(
        evals.iter().all(|e| e.fitness >= 1.0 && e.fitness <= 3.0),
        "{evals:?}"
    );
    assert!(evals[1].objective < evals[0].objective.min(evals[3].objective));
    // Reference-only fingerprints are unchanged; the others name their opponents.
    assert!(!knight_fitness().fingerprint().contains("opponents"));
    assert!(both.fingerprint().ends_with(&format!(
        "opponents both | values {}",
        knight_fitness().fingerprint().rsplit_once("values ").unwrap().1
    )));
}

#[test]
fn bad_game_fitness_settings_are_errors() {
    let bad = |elements: Vec<TunedElement>, openings: Vec<kestrel_tools::Opening>| {
        GamePlay::new(
            EngineParams::default(),
            openings,
            GameSettings::new(Limit::Nodes(100)),
            settings(),
            1,
            Opponents::Reference,
        )
        .and_then(|play| GameFitness::new(EngineParams::default(), elements, play))
        .err()
        .unwrap()
    };
    let opening = vec![kestrel_tools::Opening::startpos()];
    let unknown = vec![TunedElement {
        section: "eval",
        name: "NOT_A_PARAM".into(),
    }];
    assert!(bad(unknown, opening.clone()).contains("unknown parameter 'NOT_A_PARAM'"));
    let knight = vec![TunedElement {
        section: "eval",
        name: "KNIGHT_VALUE".into(),
    }];
    assert!(bad(knight, Vec::new()).contains("opening"));
    assert!(bad(Vec::new(), opening).contains("parameter"));
}

#[test]
fn fingerprint_names_the_values() {
    let a = knight_fitness();
    let mut other = EngineParams::default();
    other.eval.set_element("BISHOP_PAIR", 1).unwrap();
    let play = GamePlay::new(
        other,
        vec![kestrel_tools::Opening::startpos()],
        GameSettings::new(Limit::Nodes(500)),
        settings(),
        2,
        Opponents::Reference,
    )
    .unwrap();
    let b = GameFitness::new(
        EngineParams::default(),
        vec![TunedElement {
            section: "eval",
            name: "KNIGHT_VALUE".into(),
        }],
        play,
    )
    .unwrap();
    assert!(a.fingerprint().contains("eval:KNIGHT_VALUE"));
    assert_ne!(
        a.fingerprint().rsplit_once("values").unwrap().1,
        b.fingerprint().rsplit_once("values").unwrap().1
    );
}
