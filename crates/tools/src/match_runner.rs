//! A match between two engines: each opening played twice with colours swapped, games in
//! parallel on worker threads, an optional SPRT that stops the match early.

use crate::game::{GameRecord, GameResult, GameSettings, Termination, play_game};
use crate::openings::Opening;
use crate::player::{EngineSpec, PlayerError};
use crate::sprt::{Sprt, SprtDecision};
use crate::stats::Wdl;
use kestrel_chess::Color;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

#[derive(Clone, Debug)]
pub struct MatchSettings {
    /// Games to play (game `2k` and `2k+1` share opening `k`, A is White in the even ones).
    pub games: usize,
    /// Games played at the same time (each worker owns one player per engine).
    pub concurrency: usize,
    pub game: GameSettings,
    pub sprt: Option<Sprt>,
}

/// The outcome from engine A's point of view.
#[derive(Clone, Debug)]
pub struct MatchResult {
    pub engine_a: String,
    pub engine_b: String,
    /// Finished games in game order (fewer than asked when the SPRT stopped the match).
    pub games: Vec<GameRecord>,
    pub wdl: Wdl,
    /// The SPRT's final log-likelihood ratio and decision, when one was run.
    pub sprt: Option<(f64, SprtDecision)>,
    /// Why the match was stopped early because an engine kept failing, if it was.
    pub aborted: Option<String>,
}

/// Which engine (0 = A, 1 = B) failed to start, crashed or hung in game `index`, if one did:
/// the failures after which a UCI engine is restarted.
pub fn engine_fault(index: usize, game: &GameRecord) -> Option<(usize, &PlayerError)> {
    let Termination::Fault(color, error) = &game.termination else {
        return None;
    };
    let restarts = matches!(
        error,
        PlayerError::StartFailed(_) | PlayerError::Crashed(_) | PlayerError::Hung(_)
    );
    let a_color = if index.is_multiple_of(2) {
        Color::White
    } else {
        Color::Black
    };
    restarts.then_some((usize::from(*color != a_color), error))
}

/// Counts each engine's failures in a row and says when one has failed too often.
#[derive(Default)]
struct FaultWatch {
    in_a_row: [usize; 2],
}

impl FaultWatch {
    /// Records a finished game; returns the reason to abort once an engine has failed
    /// `limit` games in a row.
    fn record(
        &mut self,
        index: usize,
        game: &GameRecord,
        limit: usize,
        names: [&str; 2],
    ) -> Option<String> {
        let fault = engine_fault(index, game);
        for (engine, count) in self.in_a_row.iter_mut().enumerate() {
            match fault {
                Some((faulty, _)) if faulty == engine => *count += 1,
                _ => *count = 0,
            }
        }
        let (engine, error) = fault?;
        (self.in_a_row[engine] >= limit).then(|| {
            format!(
                "{} failed {} games in a row (last: {error}); match aborted",
                names[engine], self.in_a_row[engine]
            )
        })
    }
}

/// Progress report after each finished game.
pub struct GameDone<'a> {
    pub index: usize,
    pub game: &'a GameRecord,
    /// A's results so far.
    pub wdl: Wdl,
    pub llr: Option<f64>,
}

/// Results of one game from A's point of view (A is White in even-numbered games).
pub fn wdl_for_a(index: usize, game: &GameRecord) -> Wdl {
    let a_color = if index.is_multiple_of(2) {
        Color::White
    } else {
        Color::Black
    };
    match game.result {
        GameResult::Draw => Wdl::new(0, 1, 0),
        r if r == GameResult::win_for(a_color) => Wdl::new(1, 0, 0),
        _ => Wdl::new(0, 0, 1),
    }
}

/// Plays the match. Openings are used in order (game `i` uses opening `(i / 2) % len`); an
/// empty list means the standard start position. With depth or node limits, built-in games
/// are reproducible whatever the concurrency. A failing engine loses each game it fails and
/// the match goes on (see [`run_match_guarded`] to stop it instead).
pub fn run_match(
    a: &EngineSpec,
    b: &EngineSpec,
    openings: &[Opening],
    settings: &MatchSettings,
    on_game: &(dyn Fn(&GameDone) + Sync),
) -> MatchResult {
    run_match_guarded(a, b, openings, settings, usize::MAX, on_game)
}

/// [`run_match`] that stops (with [`MatchResult::aborted`] set) once an engine has failed to
/// start, crashed or hung in `max_faults_in_a_row` consecutive games.
pub fn run_match_guarded(
    a: &EngineSpec,
    b: &EngineSpec,
    openings: &[Opening],
    settings: &MatchSettings,
    max_faults_in_a_row: usize,
    on_game: &(dyn Fn(&GameDone) + Sync),
) -> MatchResult {
    let start_only = [Opening::startpos()];
    let openings = if openings.is_empty() {
        &start_only[..]
    } else {
        openings
    };
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let finished: Mutex<(Vec<Option<GameRecord>>, Wdl)> =
        Mutex::new(((0..settings.games).map(|_| None).collect(), Wdl::default()));
    let watch = Mutex::new((FaultWatch::default(), None::<String>));
    let names = [a.name(), b.name()];
    let workers = settings.concurrency.clamp(1, settings.games.max(1));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                let mut player_a = a.create();
                let mut player_b = b.create();
                loop {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= settings.games {
                        break;
                    }
                    let opening = &openings[(index / 2) % openings.len()];
                    let game = if index.is_multiple_of(2) {
                        play_game(&mut *player_a, &mut *player_b, opening, &settings.game)
                    } else {
                        play_game(&mut *player_b, &mut *player_a, opening, &settings.game)
                    };
                    let mut guard = finished.lock().unwrap_or_else(|e| e.into_inner());
                    {
                        let mut w = watch.lock().unwrap_or_else(|e| e.into_inner());
                        if let Some(why) = w.0.record(index, &game, max_faults_in_a_row, names) {
                            stop.store(true, Ordering::Relaxed);
                            w.1.get_or_insert(why);
                        }
                    }
                    guard.1 += wdl_for_a(index, &game);
                    let wdl = guard.1;
                    let llr = settings.sprt.map(|s| s.llr(&wdl));
                    if let Some(s) = settings.sprt
                        && s.decision(&wdl) != SprtDecision::Continue
                    {
                        stop.store(true, Ordering::Relaxed);
                    }
                    on_game(&GameDone {
                        index,
                        game: &game,
                        wdl,
                        llr,
                    });
                    guard.0[index] = Some(game);
                }
            });
        }
    });
    let (slots, wdl) = finished.into_inner().unwrap_or_else(|e| e.into_inner());
    let games: Vec<GameRecord> = slots.into_iter().flatten().collect();
    MatchResult {
        engine_a: a.name().to_string(),
        engine_b: b.name().to_string(),
        games,
        wdl,
        sprt: settings.sprt.map(|s| (s.llr(&wdl), s.decision(&wdl))),
        aborted: watch.into_inner().unwrap_or_else(|e| e.into_inner()).1,
    }
}
