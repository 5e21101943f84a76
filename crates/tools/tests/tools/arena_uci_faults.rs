//! The UCI client against small fake engines (POSIX shell scripts) that misbehave in each of
//! the ways a real engine can: cannot start, never finishes the handshake, hangs on `go`,
//! dies mid-game, sends an illegal move. Each is a lost game for it, and the match goes on.

use kestrel_chess::Color;
use kestrel_search::EngineConfig;
use kestrel_tools::match_runner::{MatchSettings, run_match};
use kestrel_tools::uci_client::UciEngine;
use kestrel_tools::uci_player::UciTimeouts;
use kestrel_tools::{
    EngineSpec, GameResult, GameSettings, Limit, MoveLimit, MoveLimitScoring, PlayerError,
    Termination,
};
use std::path::PathBuf;
use std::time::Duration;

/// A fake engine: `sh fake.sh MODE N LOG`. It plays a knight shuffle (Ng1-f3-g1 as White,
/// Ng8-f6-g8 as Black) and misbehaves on its N-th `go` according to MODE. Every start is
/// appended to LOG.
const FAKE_ENGINE: &str = r#"
mode="$1"; at="$2"; log="$3"
echo start >> "$log"
[ "$mode" = "die_at_start" ] && exit 3
n=0
pos=""
while IFS= read -r line; do
  case "$line" in
    uci)
      echo "id name Fake $mode"
      [ "$mode" = "no_uciok" ] || echo "uciok" ;;
    isready) echo "readyok" ;;
    position*) pos="$line" ;;
    go*)
      n=$((n + 1))
      if [ "$n" -ge "$at" ]; then
        case "$mode" in
          crash) exit 7 ;;
          hang) exec sleep 30 ;;
          illegal) echo "bestmove e2e5"; continue ;;
          garbage) echo "bestmove zz99"; continue ;;
          slow) sleep 1 ;;
        esac
      fi
      set -- $pos
      if [ "$3" = "moves" ]; then plies=$(($# - 3)); else plies=0; fi
      k=$((plies / 2))
      if [ $((plies % 2)) -eq 0 ]; then
        if [ $((k % 2)) -eq 0 ]; then mv=g1f3; else mv=f3g1; fi
      else
        if [ $((k % 2)) -eq 0 ]; then mv=g8f6; else mv=f6g8; fi
      fi
      echo "info depth 1 score cp 12 nodes 42 pv $mv"
      echo "bestmove $mv" ;;
    quit) exit 0 ;;
  esac
done
"#;

struct Fake {
    dir: PathBuf,
}

impl Fake {
    fn new(test: &str) -> Fake {
        let dir = std::env::temp_dir().join(format!("kestrel-fake-{test}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("fake.sh"), FAKE_ENGINE).unwrap();
        Fake { dir }
    }

    fn spec(&self, mode: &str, at: u32) -> EngineSpec {
        EngineSpec::Uci {
            name: format!("fake-{mode}"),
            command: "sh".into(),
            args: vec![
                self.dir.join("fake.sh").display().to_string(),
                mode.into(),
                at.to_string(),
                self.dir.join("starts.log").display().to_string(),
            ],
            options: vec![("Hash".into(), "1".into())],
            timeouts: UciTimeouts {
                handshake: Duration::from_millis(1500),
                move_without_clock: Duration::from_millis(1500),
                grace: Duration::from_millis(500),
            },
        }
    }

    fn starts(&self) -> usize {
        std::fs::read_to_string(self.dir.join("starts.log")).map_or(0, |s| s.lines().count())
    }
}

impl Drop for Fake {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn builtin() -> EngineSpec {
    EngineSpec::builtin("kestrel", EngineConfig::default())
}

fn settings(games: usize) -> MatchSettings {
    let mut game = GameSettings::new(Limit::Depth(1));
    game.adjudication.move_limit = Some(MoveLimit {
        moves: 3,
        scoring: MoveLimitScoring::Draw,
    });
    MatchSettings {
        games,
        concurrency: 1,
        game,
        sprt: None,
    }
}

/// The fake engine's colour in game `i` (it is engine A: White in even games).
fn fake_color(i: usize) -> Color {
    if i.is_multiple_of(2) {
        Color::White
    } else {
        Color::Black
    }
}

#[test]
fn well_behaved_fake_plays_to_the_move_limit() {
    let fake = Fake::new("ok");
    let r = run_match(
        &fake.spec("none", 0),
        &builtin(),
        &[],
        &settings(2),
        &|_| {},
    );
    for g in &r.games {
        assert!(
            matches!(g.termination, Termination::MoveLimit { .. }),
            "{:?}",
            g.termination
        );
        assert_eq!(g.moves.len(), 6);
    }
    // The engine's reported score, depth and nodes are read from its info line.
    let info = &r.games[0].infos[0];
    assert_eq!((info.depth, info.nodes), (1, 42));
    // At the move limit a UCI engine's last score (cp 12 for the side it played) stands in
    // for its evaluation: White's view +12 as White in game 0, -12 as Black in game 1.
    assert!(matches!(
        r.games[0].termination,
        Termination::MoveLimit {
            white_eval: Some(12),
            ..
        }
    ));
    assert!(matches!(
        r.games[1].termination,
        Termination::MoveLimit {
            black_eval: Some(-12),
            ..
        }
    ));
    // One process served both games.
    assert_eq!(fake.starts(), 1);
    assert_eq!(r.wdl.draws, 2);
}

#[test]
fn missing_engine_loses_every_game_and_the_match_goes_on() {
    let spec = builtin();
    let missing = EngineSpec::uci("missing", "/nonexistent/engine-binary");
    let r = run_match(&missing, &spec, &[], &settings(3), &|_| {});
    assert_eq!(r.games.len(), 3);
    assert_eq!((r.wdl.wins, r.wdl.draws, r.wdl.losses), (0, 0, 3));
    for (i, g) in r.games.iter().enumerate() {
        match &g.termination {
            Termination::Fault(c, PlayerError::StartFailed(msg)) => {
                assert_eq!(*c, fake_color(i));
                assert!(msg.contains("/nonexistent/engine-binary"), "{msg}");
            }
            t => panic!("game {i}: {t:?}"),
        }
        assert!(g.moves.is_empty());
    }
}

#[test]
fn engine_that_exits_at_start_or_never_sends_uciok_fails_to_start() {
    let fake = Fake::new("start");
    for mode in ["die_at_start", "no_uciok"] {
        let r = run_match(&fake.spec(mode, 0), &builtin(), &[], &settings(1), &|_| {});
        let g = &r.games[0];
        assert!(
            matches!(
                &g.termination,
                Termination::Fault(Color::White, PlayerError::StartFailed(_))
            ),
            "{mode}: {:?}",
            g.termination
        );
        assert_eq!(g.result, GameResult::BlackWins);
    }
}

#[test]
fn crash_mid_game_loses_and_the_engine_is_restarted() {
    let fake = Fake::new("crash");
    let r = run_match(
        &fake.spec("crash", 2),
        &builtin(),
        &[],
        &settings(3),
        &|_| {},
    );
    assert_eq!(r.games.len(), 3);
    for (i, g) in r.games.iter().enumerate() {
        match &g.termination {
            Termination::Fault(c, PlayerError::Crashed(msg)) => {
                assert_eq!(*c, fake_color(i));
                assert!(msg.contains("exit status: 7"), "{msg}");
            }
            t => panic!("game {i}: {t:?}"),
        }
        // The fake made exactly one move before dying on its second `go`: as White the
        // game stops after 2 plies, as Black after 3.
        let expected = if fake_color(i) == Color::White { 2 } else { 3 };
        assert_eq!(g.moves.len(), expected, "game {i}");
        let text = g.to_pgn("t", i + 1).to_pgn_string();
        assert!(text.contains("engine crashed"), "{text}");
    }
    assert_eq!((r.wdl.wins, r.wdl.losses), (0, 3));
    // A fresh process for every game.
    assert_eq!(fake.starts(), 3);
}

#[test]
fn hung_engine_is_killed_and_loses() {
    let fake = Fake::new("hang");
    let r = run_match(
        &fake.spec("hang", 2),
        &builtin(),
        &[],
        &settings(2),
        &|_| {},
    );
    assert_eq!(r.games.len(), 2);
    for (i, g) in r.games.iter().enumerate() {
        assert!(
            matches!(&g.termination, Termination::Fault(c, PlayerError::Hung(_)) if *c == fake_color(i)),
            "game {i}: {:?}",
            g.termination
        );
        let text = g.to_pgn("t", 1).to_pgn_string();
        assert!(text.contains("engine hung"), "{text}");
    }
    assert_eq!(fake.starts(), 2);
}

#[test]
fn slow_engine_loses_on_time() {
    let fake = Fake::new("slow");
    let mut s = settings(1);
    // 0.3 s for the game; the fake's first move takes a full second, within the 5 s grace
    // past the clock, so it is a time forfeit and not a hang.
    s.game = GameSettings::new(Limit::parse_tc("0.3").unwrap());
    let mut spec = fake.spec("slow", 1);
    if let EngineSpec::Uci { timeouts, .. } = &mut spec {
        timeouts.grace = Duration::from_secs(5);
    }
    let r = run_match(&spec, &builtin(), &[], &s, &|_| {});
    assert_eq!(
        r.games[0].termination,
        Termination::TimeForfeit(Color::White)
    );
    assert_eq!(r.games[0].result, GameResult::BlackWins);
    assert!(r.games[0].moves.is_empty());
}

#[test]
fn illegal_and_malformed_moves_lose() {
    let fake = Fake::new("illegal");
    for (mode, text) in [("illegal", "e2e5"), ("garbage", "zz99")] {
        let r = run_match(&fake.spec(mode, 1), &builtin(), &[], &settings(1), &|_| {});
        assert_eq!(
            r.games[0].termination,
            Termination::Fault(Color::White, PlayerError::IllegalMove(text.into()))
        );
        assert_eq!(r.games[0].result, GameResult::BlackWins);
    }
}

#[test]
fn client_handshake_reports_name_and_timeouts() {
    let fake = Fake::new("client");
    let EngineSpec::Uci { args, .. } = fake.spec("hang", 1) else {
        unreachable!()
    };
    let mut engine = UciEngine::start("sh", &args, Duration::from_secs(2)).unwrap();
    assert_eq!(engine.id_name.as_deref(), Some("Fake hang"));
    engine.sync(Duration::from_secs(2)).unwrap();
    let err = engine
        .go(
            "position startpos",
            "go depth 1",
            Duration::from_millis(200),
        )
        .unwrap_err();
    assert_eq!(err, PlayerError::Hung(Duration::from_millis(200)));
    // The hung process was killed.
    assert!(!engine.is_alive());
}
