//! The arena's UCI client driving `kestrel` itself as an external engine.

use kestrel_chess::Board;
use kestrel_search::EngineConfig;
use kestrel_tools::match_runner::{MatchSettings, run_match};
use kestrel_tools::uci_client::UciEngine;
use kestrel_tools::uci_player::UciTimeouts;
use kestrel_tools::{EngineSpec, GameSettings, Limit, MoveLimit, MoveLimitScoring, Termination};
use std::time::Duration;

const KESTREL: &str = env!("CARGO_BIN_EXE_kestrel");

fn kestrel_uci() -> EngineSpec {
    EngineSpec::Uci {
        name: "kestrel-uci".into(),
        command: KESTREL.into(),
        args: vec![],
        options: vec![
            ("Hash".into(), "16".into()),
            ("OwnBook".into(), "false".into()),
        ],
        // Generous: the test machine may be busy.
        timeouts: UciTimeouts {
            handshake: Duration::from_secs(20),
            move_without_clock: Duration::from_secs(60),
            grace: Duration::from_secs(5),
        },
    }
}

#[test]
fn handshake_and_a_search() {
    let mut engine = UciEngine::start(KESTREL, &[], Duration::from_secs(20)).unwrap();
    assert!(engine.id_name.as_deref().is_some_and(|n| !n.is_empty()));
    engine.sync(Duration::from_secs(20)).unwrap();
    let out = engine
        .go(
            "position startpos moves e2e4",
            "go depth 3",
            Duration::from_secs(60),
        )
        .unwrap();
    let mut board = Board::startpos();
    board.make_move(board.parse_uci_move("e2e4").unwrap());
    assert!(
        board.parse_uci_move(&out.bestmove).is_ok(),
        "{}",
        out.bestmove
    );
    assert!(out.depth >= 1 && out.nodes > 0, "{out:?}");
    engine.quit();
    assert!(!engine.is_alive());
}

fn fault_free(games: &[kestrel_tools::GameRecord]) {
    for g in games {
        assert!(
            !matches!(
                g.termination,
                Termination::Fault(..) | Termination::TimeForfeit(_) | Termination::NoGame(_)
            ),
            "{}",
            g.termination
        );
    }
}

#[test]
fn uci_kestrel_against_builtin_at_fixed_depth() {
    // Kestrel as shipped: the UCI engine's default evaluation (the built-in network, if any).
    let shipped = EngineConfig {
        network: kestrel_nnue::default_evaluation()
            .unwrap()
            .map(std::sync::Arc::new),
        ..EngineConfig::default()
    };
    let builtin = EngineSpec::builtin("kestrel-builtin", shipped);
    let mut game = GameSettings::new(Limit::Depth(3));
    game.adjudication.move_limit = Some(MoveLimit {
        moves: 10,
        scoring: MoveLimitScoring::Draw,
    });
    let settings = MatchSettings {
        games: 2,
        concurrency: 1,
        game,
        sprt: None,
    };
    let r = run_match(&kestrel_uci(), &builtin, &[], &settings, &|_| {});
    assert_eq!(r.games.len(), 2);
    fault_free(&r.games);
    // The same search at the same depth: the UCI engine plays the moves the built-in plays.
    assert_eq!(r.games[0].all_moves(), r.games[1].all_moves());
}

#[test]
fn uci_kestrel_on_the_clock() {
    let builtin = EngineSpec::builtin("kestrel-builtin", EngineConfig::default());
    let mut game = GameSettings::new(Limit::parse_tc("5+0.1").unwrap());
    game.adjudication.move_limit = Some(MoveLimit {
        moves: 6,
        scoring: MoveLimitScoring::Draw,
    });
    game.time_margin = Duration::from_millis(500);
    let settings = MatchSettings {
        games: 2,
        concurrency: 1,
        game,
        sprt: None,
    };
    let r = run_match(&kestrel_uci(), &builtin, &[], &settings, &|_| {});
    fault_free(&r.games);
    assert!(r.games.iter().all(|g| g.moves.len() == 12));
}
