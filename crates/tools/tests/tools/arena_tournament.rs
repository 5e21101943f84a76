//! Matches with an SPRT stop, round robins and gauntlets.

use kestrel_search::EngineConfig;
use kestrel_tools::match_runner::{MatchSettings, run_match};
use kestrel_tools::stats::Wdl;
use kestrel_tools::{
    EngineSpec, GameSettings, Limit, MoveLimit, MoveLimitScoring, Penta, Sprt, SprtDecision,
    SprtModel, gauntlet, round_robin,
};

fn settings(games: usize) -> MatchSettings {
    let mut game = GameSettings::new(Limit::Depth(1));
    game.adjudication.move_limit = Some(MoveLimit {
        moves: 4,
        scoring: MoveLimitScoring::Draw,
    });
    MatchSettings {
        games,
        concurrency: 1,
        game,
        sprt: None,
    }
}

#[test]
fn sprt_stops_a_hopeless_match_early() {
    // An engine that cannot start loses every game; the SPRT should give up on it as soon
    // as the log-likelihood ratio crosses the lower bound.
    let broken = EngineSpec::uci("broken", "/nonexistent/engine");
    let good = EngineSpec::builtin("kestrel", EngineConfig::default());
    let sprt = Sprt::new(0.0, 20.0, 0.05, 0.05).unwrap();
    // Only lost pairs is a degenerate distribution the generalised SPRT is slow to judge
    // (fastchess's regularisation): about 50 pairs for these bounds.
    let mut s = settings(200);
    s.sprt = Some(sprt);
    let r = run_match(&broken, &good, &[], &s, &|_| {});
    let n = r.games.len() as u64;
    assert!(n < 200, "played all {n} games");
    assert_eq!(r.wdl, Wdl::new(0, 0, n));
    let (llr, decision) = r.sprt.unwrap();
    assert_eq!(decision, SprtDecision::AcceptH0);
    assert!(llr <= sprt.lower_bound());
    // Pentanomial: it stopped at the end of the first pair that crossed the bound.
    assert!(n.is_multiple_of(2), "stopped inside a pair after {n} games");
    assert_eq!(r.penta.ll, n / 2);
    let one_pair_fewer = Penta {
        ll: n / 2 - 1,
        ..Penta::default()
    };
    assert!(sprt.llr_penta(&one_pair_fewer) > sprt.lower_bound());
}

#[test]
fn trinomial_sprt_stops_at_a_game() {
    let broken = EngineSpec::uci("broken", "/nonexistent/engine");
    let good = EngineSpec::builtin("kestrel", EngineConfig::default());
    let sprt = Sprt::new(0.0, 20.0, 0.05, 0.05)
        .unwrap()
        .with_model(SprtModel::Trinomial);
    let mut s = settings(100);
    s.sprt = Some(sprt);
    let r = run_match(&broken, &good, &[], &s, &|_| {});
    let n = r.games.len() as u64;
    assert_eq!(r.sprt.unwrap().1, SprtDecision::AcceptH0);
    // It stopped at the first game that crossed the bound.
    assert!(sprt.llr(&Wdl::new(0, 0, n - 1)) > sprt.lower_bound());
}

#[test]
fn round_robin_and_gauntlet_tables() {
    let specs: Vec<EngineSpec> = ["a", "b", "c"]
        .iter()
        .map(|n| EngineSpec::builtin(*n, EngineConfig::default()))
        .collect();
    let t = round_robin(&specs, &[], &settings(2), &|_, _, _| {});
    assert_eq!(t.pairings.len(), 3);
    let standings = t.standings();
    assert_eq!(standings.len(), 3);
    for row in &standings {
        assert_eq!(row.wdl.games(), 4, "{}", row.name);
    }
    let points: f64 = standings.iter().map(|r| r.wdl.points()).sum();
    assert_eq!(points, 6.0);
    // Head to head is antisymmetric.
    assert_eq!(t.head_to_head(0, 1), t.head_to_head(1, 0).flipped());
    let table = t.table();
    assert_eq!(table.lines().count(), 4, "{table}");
    for name in ["a", "b", "c"] {
        assert!(
            table
                .lines()
                .skip(1)
                .any(|l| l.split_whitespace().nth(1) == Some(name))
        );
    }

    let g = gauntlet(&specs, &[], &settings(2), &|_, _, _| {});
    assert_eq!(g.pairings.len(), 2);
    assert!(g.pairings.iter().all(|(i, _, _)| *i == 0));
    // b and c never met.
    assert_eq!(g.head_to_head(1, 2).games(), 0);
    assert_eq!(
        g.standings()[0].wdl.games() + g.standings()[1].wdl.games() + g.standings()[2].wdl.games(),
        8
    );
}
