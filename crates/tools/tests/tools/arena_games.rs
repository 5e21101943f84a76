//! Games between players: every way a game ends, adjudication, PGN output, determinism.

use kestrel_chess::{Board, Color, PgnReader};
use kestrel_search::{EngineConfig, Score};
use kestrel_tools::adjudication::{
    Adjudication, DrawRule, MoveLimit, MoveLimitScoring, ResignRule,
};
use kestrel_tools::match_runner::{MatchSettings, run_match};
use kestrel_tools::{
    EngineSpec, GameResult, GameSettings, Limit, MoveRequest, Opening, Player, PlayerError,
    PlayerMove, Termination, play_game,
};
use std::time::Duration;

/// Plays a fixed list of UCI moves (cycling), reporting a fixed score; optionally slow.
struct Scripted {
    name: String,
    moves: Vec<&'static str>,
    next: usize,
    score: Option<i32>,
    eval: Option<i32>,
    delay: Duration,
}

impl Scripted {
    fn new(name: &str, moves: &[&'static str]) -> Scripted {
        Scripted {
            name: name.into(),
            moves: moves.to_vec(),
            next: 0,
            score: None,
            eval: None,
            delay: Duration::ZERO,
        }
    }
}

impl Player for Scripted {
    fn name(&self) -> &str {
        &self.name
    }
    fn new_game(&mut self) -> Result<(), PlayerError> {
        self.next = 0;
        Ok(())
    }
    fn choose_move(&mut self, req: &MoveRequest) -> Result<PlayerMove, PlayerError> {
        std::thread::sleep(self.delay);
        let text = self.moves[self.next % self.moves.len()];
        self.next += 1;
        let mv = req
            .board
            .parse_uci_move(text)
            .map_err(|_| PlayerError::IllegalMove(text.into()))?;
        Ok(PlayerMove {
            mv,
            score: self.score.map(Score::Cp),
            depth: 1,
            nodes: 1,
        })
    }
    fn evaluate_white(&mut self, _board: &Board) -> Option<i32> {
        self.eval
    }
}

fn depth(d: i32) -> GameSettings {
    GameSettings::new(Limit::Depth(d))
}

fn fen(f: &str) -> Opening {
    Opening::from_board(Board::from_fen(f).unwrap())
}

#[test]
fn knight_shuffle_ends_in_threefold_repetition() {
    let mut w = Scripted::new("w", &["g1f3", "f3g1"]);
    let mut b = Scripted::new("b", &["g8f6", "f6g8"]);
    let g = play_game(&mut w, &mut b, &Opening::startpos(), &depth(1));
    assert_eq!(g.termination, Termination::ThreefoldRepetition);
    assert_eq!(g.result, GameResult::Draw);
    // The start position occurs a third time after 8 plies.
    assert_eq!(g.moves.len(), 8);
}

#[test]
fn fifty_move_rule_and_insufficient_material() {
    // Halfmove clock at 99: one more quiet move ends it.
    let mut w = Scripted::new("w", &["a1b1"]);
    let mut b = Scripted::new("b", &["h8g8"]);
    let g = play_game(
        &mut w,
        &mut b,
        &fen("7k/8/8/8/8/8/8/R3K3 w - - 99 80"),
        &depth(1),
    );
    assert_eq!(g.termination, Termination::FiftyMoveRule);
    assert_eq!(g.moves.len(), 1);
    // Bare kings: over before a move.
    let g = play_game(
        &mut w,
        &mut b,
        &fen("7k/8/8/8/8/8/8/4K3 w - - 0 1"),
        &depth(1),
    );
    assert_eq!(g.termination, Termination::InsufficientMaterial);
    assert!(g.moves.is_empty());
}

#[test]
fn builtin_engines_mate_and_stalemate() {
    let spec = EngineSpec::builtin("k", EngineConfig::default());
    let (mut w, mut b) = (spec.create(), spec.create());
    // Mate in one for White (back rank).
    let g = play_game(
        &mut *w,
        &mut *b,
        &fen("6k1/5ppp/8/8/8/8/8/4R1K1 w - - 0 1"),
        &depth(3),
    );
    assert_eq!(g.termination, Termination::Checkmate);
    assert_eq!(g.result, GameResult::WhiteWins);
    assert_eq!(g.moves.len(), 1);
    // Black to move and stalemated.
    let g = play_game(
        &mut *w,
        &mut *b,
        &fen("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1"),
        &depth(3),
    );
    assert_eq!(g.termination, Termination::Stalemate);
    assert_eq!(g.result, GameResult::Draw);
}

#[test]
fn a_clock_counted_in_nodes_repeats_and_charges_nodes() {
    let spec = EngineSpec::builtin("k", EngineConfig::default());
    let limit = Limit::parse_tc("0.2+0.01")
        .unwrap()
        .with_nodestime(50)
        .unwrap();
    let mut settings = GameSettings::new(limit);
    settings.adjudication.move_limit = Some(MoveLimit {
        moves: 30,
        scoring: MoveLimitScoring::Draw,
    });
    let opening = fen("rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    let play = || {
        let (mut w, mut b) = (spec.create(), spec.create());
        play_game(&mut *w, &mut *b, &opening, &settings)
    };
    let first = play();
    // Without a clock in nodes a busy machine would change these games; with it they repeat.
    let second = play();
    assert_eq!(first.all_moves(), second.all_moves());
    assert_eq!(first.result, second.result);
    assert!(first.moves.len() >= 20, "{:?}", first.termination);
    // Each side's clock, charged its nodes at 50 per ms: 200 ms + 10 ms a move is
    // 10,000 + 500 nodes a move, and no move may search more than what is left.
    let mut left = [10_000u64, 10_000];
    for (ply, info) in first.infos.iter().enumerate() {
        let side = ply % 2;
        assert!(
            info.nodes <= left[side],
            "ply {ply}: {} > {}",
            info.nodes,
            left[side]
        );
        left[side] = left[side] - info.nodes + 500;
    }
    assert!(!matches!(first.termination, Termination::TimeForfeit(_)));
}

#[test]
fn illegal_move_loses() {
    let mut w = Scripted::new("w", &["e2e5"]);
    let mut b = Scripted::new("b", &["e7e5"]);
    let g = play_game(&mut w, &mut b, &Opening::startpos(), &depth(1));
    assert_eq!(g.result, GameResult::BlackWins);
    assert_eq!(
        g.termination,
        Termination::Fault(Color::White, PlayerError::IllegalMove("e2e5".into()))
    );
    let pgn = g.to_pgn("t", 1).to_pgn_string();
    assert!(
        pgn.contains("[Termination \"White: illegal move 'e2e5'\"]"),
        "{pgn}"
    );
}

#[test]
fn slow_player_forfeits_on_time() {
    let mut w = Scripted::new("w", &["g1f3", "f3g1"]);
    let mut b = Scripted::new("b", &["g8f6", "f6g8"]);
    b.delay = Duration::from_millis(250);
    let mut settings = GameSettings::new(Limit::Clock {
        base: Duration::from_millis(400),
        increment: Duration::ZERO,
        nodes_per_ms: None,
    });
    settings.time_margin = Duration::from_millis(50);
    let g = play_game(&mut w, &mut b, &Opening::startpos(), &settings);
    // Black's first move leaves at most 150 ms (+50 ms margin); the second (>= 250 ms)
    // always overruns it.
    assert_eq!(g.termination, Termination::TimeForfeit(Color::Black));
    assert_eq!(g.result, GameResult::WhiteWins);
    assert_eq!(g.moves.len(), 3);
    assert!(
        g.to_pgn("t", 1)
            .to_pgn_string()
            .contains("[TimeControl \"0.4\"]")
    );
}

#[test]
fn resign_and_draw_adjudication() {
    let mut w = Scripted::new("w", &["g1f3", "f3g1", "b1c3", "c3b1"]);
    let mut b = Scripted::new("b", &["g8f6", "f6g8", "b8c6", "c6b8"]);
    // Both report +600 for the side to move: alternating signs from White's view, so no
    // agreement and no resignation...
    w.score = Some(600);
    b.score = Some(600);
    let mut settings = depth(1);
    settings.adjudication.resign = Some(ResignRule {
        score_cp: 500,
        moves: 2,
    });
    settings.adjudication.move_limit = Some(MoveLimit {
        moves: 3,
        scoring: MoveLimitScoring::Draw,
    });
    let g = play_game(&mut w, &mut b, &Opening::startpos(), &settings);
    assert!(
        matches!(g.termination, Termination::MoveLimit { .. }),
        "{:?}",
        g.termination
    );
    assert_eq!(g.moves.len(), 6);
    // ...but when Black agrees it is losing, Black resigns after two moves each.
    b.score = Some(-600);
    let g = play_game(&mut w, &mut b, &Opening::startpos(), &settings);
    assert_eq!(g.termination, Termination::ResignAdjudication(Color::Black));
    assert_eq!(g.result, GameResult::WhiteWins);
    assert_eq!(g.moves.len(), 4);
    // Quiet scores: a draw from move 2 on after two moves each.
    w.score = Some(3);
    b.score = Some(-5);
    settings.adjudication = Adjudication {
        draw: Some(DrawRule {
            from_move: 2,
            score_cp: 10,
            moves: 2,
        }),
        ..Adjudication::default()
    };
    let g = play_game(&mut w, &mut b, &Opening::startpos(), &settings);
    assert_eq!(g.termination, Termination::DrawAdjudication);
    assert_eq!(g.moves.len(), 4);
}

#[test]
fn move_limit_scored_by_each_sides_evaluation() {
    let mut settings = depth(1);
    settings.adjudication.move_limit = Some(MoveLimit {
        moves: 2,
        scoring: MoveLimitScoring::OwnEvaluation { margin_cp: 0 },
    });
    let mut w = Scripted::new("w", &["g1f3", "f3g1"]);
    let mut b = Scripted::new("b", &["g8f6", "f6g8"]);
    w.eval = Some(-40);
    b.eval = Some(-10);
    let g = play_game(&mut w, &mut b, &Opening::startpos(), &settings);
    assert_eq!(g.result, GameResult::BlackWins);
    assert_eq!(
        g.termination,
        Termination::MoveLimit {
            white_eval: Some(-40),
            black_eval: Some(-10)
        }
    );
    // Disagreement is a draw.
    b.eval = Some(25);
    let g = play_game(&mut w, &mut b, &Opening::startpos(), &settings);
    assert_eq!(g.result, GameResult::Draw);
    // Built-in players evaluate with their own parameters: a position a knight up for White.
    let spec = EngineSpec::builtin("k", EngineConfig::default());
    let (mut kw, mut kb) = (spec.create(), spec.create());
    settings.adjudication.move_limit = Some(MoveLimit {
        moves: 0,
        scoring: MoveLimitScoring::OwnEvaluation { margin_cp: 100 },
    });
    let start = fen("4k3/pppp4/8/8/8/8/PPPP4/1N2K3 w - - 0 1");
    let g = play_game(&mut *kw, &mut *kb, &start, &settings);
    assert_eq!(g.result, GameResult::WhiteWins, "{:?}", g.termination);
}

#[test]
fn pgn_round_trips_with_opening_and_fen() {
    let spec = EngineSpec::builtin("kestrel", EngineConfig::default());
    let (mut w, mut b) = (spec.create(), spec.create());
    let mut settings = depth(2);
    settings.adjudication.move_limit = Some(MoveLimit {
        moves: 6,
        scoring: MoveLimitScoring::Draw,
    });
    let start = Board::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
        .unwrap();
    let mut opening = Opening::from_board(start.clone());
    opening.moves = vec![start.parse_uci_move("f1b5").unwrap()];
    opening.name = Some("Ruy Lopez".into());
    let g = play_game(&mut *w, &mut *b, &opening, &settings);
    assert_eq!(g.moves.len(), 12);
    let text = g.to_pgn("test", 7).to_pgn_string();
    for tag in [
        "[Round \"7\"]",
        "[Opening \"Ruy Lopez\"]",
        "[SetUp \"1\"]",
        "[Termination \"move limit",
        "[Result \"1/2-1/2\"]",
    ] {
        assert!(text.contains(tag), "missing {tag} in\n{text}");
    }
    let back = PgnReader::new(text.as_bytes()).next().unwrap().unwrap();
    assert_eq!(back.moves, g.all_moves());
    assert_eq!(back.start.to_fen(), start.to_fen());
}

#[test]
fn depth_matches_are_deterministic_across_concurrency() {
    let a = EngineSpec::builtin("a", EngineConfig::default());
    let b = EngineSpec::builtin("b", EngineConfig::default());
    let openings: Vec<Opening> = [
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
        "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
    ]
    .iter()
    .map(|f| fen(f))
    .collect();
    let mut game = depth(3);
    game.adjudication.move_limit = Some(MoveLimit {
        moves: 15,
        scoring: MoveLimitScoring::Draw,
    });
    let run = |concurrency| {
        let settings = MatchSettings {
            games: 4,
            concurrency,
            game,
            sprt: None,
        };
        run_match(&a, &b, &openings, &settings, &|_| {})
    };
    let one = run(1);
    let two = run(2);
    assert_eq!(one.games.len(), 4);
    for (x, y) in one.games.iter().zip(&two.games) {
        assert_eq!(x.all_moves(), y.all_moves());
        assert_eq!(x.result, y.result);
    }
    // Colours alternate and each opening is used twice.
    assert_eq!(one.games[0].white, "a");
    assert_eq!(one.games[1].white, "b");
    assert_eq!(one.games[1].opening.start, openings[0].start);
    assert_eq!(one.games[2].opening.start, openings[1].start);
    assert_eq!(one.wdl.games(), 4);
}
