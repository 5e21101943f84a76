//! A match between two engines: each opening played twice with colours swapped, games in
//! parallel on worker threads, an optional SPRT that stops the match early. Games `2k` and
//! `2k+1` form a pair (one opening, colours reversed) counted in the pentanomial statistics;
//! a pentanomial SPRT is decided only when a pair completes.

use crate::earlier_results::EarlierResults;
use crate::game::{GameRecord, GameResult, GameSettings, Termination, play_game};
use crate::openings::{Opening, opening_of_game};
use crate::pentanomial::{Outcome, Penta};
use crate::player::{EngineSpec, PlayerError};
use crate::sprt::{Sprt, SprtDecision, SprtModel};
use crate::stats::Wdl;
use kestrel_chess::Color;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// How a match between two engines is run.
#[derive(Clone, Debug)]
pub struct MatchSettings {
    /// Games to play (game `2k` and `2k+1` share opening `k`, A is White in the even ones).
    pub games: usize,
    /// Games played at the same time (each worker owns one player per engine).
    pub concurrency: usize,
    /// Settings of every game: limit, adjudication and time margin.
    pub game: GameSettings,
    /// A test that may stop the match early; `None` plays all `games`.
    pub sprt: Option<Sprt>,
}

/// The outcome from engine A's point of view.
#[derive(Clone, Debug)]
pub struct MatchResult {
    /// Name of engine A (White in the even-numbered games).
    pub engine_a: String,
    /// Name of engine B (White in the odd-numbered games).
    pub engine_b: String,
    /// Finished games in game order (fewer than asked when the SPRT stopped the match).
    pub games: Vec<GameRecord>,
    /// A's wins, draws and losses over the finished games.
    pub wdl: Wdl,
    /// A's complete pairs (both games of an opening finished).
    pub penta: Penta,
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
    /// The game's 0-based number in the match (A is White when it is even).
    pub index: usize,
    /// The finished game.
    pub game: &'a GameRecord,
    /// A's results so far.
    pub wdl: Wdl,
    /// A's complete pairs so far.
    pub penta: Penta,
    /// The SPRT's log-likelihood ratio after this game, when an SPRT runs.
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

/// A's outcome in game `index`.
pub fn outcome_for_a(index: usize, game: &GameRecord) -> Outcome {
    let w = wdl_for_a(index, game);
    if w.wins > 0 {
        Outcome::Win
    } else if w.draws > 0 {
        Outcome::Draw
    } else {
        Outcome::Loss
    }
}

/// Results gathered as games finish (in any order): games, W/D/L, complete pairs.
struct Tally {
    slots: Vec<Option<GameRecord>>,
    wdl: Wdl,
    penta: Penta,
}

impl Tally {
    /// Records game `index`; returns whether it completed its pair.
    fn record(&mut self, index: usize, game: GameRecord) -> bool {
        self.wdl += wdl_for_a(index, &game);
        self.slots[index] = Some(game);
        let first = index & !1;
        let outcomes = match (self.slots.get(first), self.slots.get(first + 1)) {
            (Some(Some(g1)), Some(Some(g2))) => {
                (outcome_for_a(first, g1), outcome_for_a(first + 1, g2))
            }
            _ => return false,
        };
        self.penta.add_pair(outcomes.0, outcomes.1);
        true
    }

    /// The SPRT's LLR and whether it may stop now (a pentanomial test only at a pair end).
    fn sprt(&self, sprt: &Sprt, pair_done: bool) -> (f64, bool) {
        let llr = sprt.llr_of(&self.wdl, &self.penta);
        let may_stop = pair_done || sprt.model == SprtModel::Trinomial;
        (llr, may_stop && sprt.decide(llr) != SprtDecision::Continue)
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
    run_match_resumed(
        a,
        b,
        openings,
        settings,
        max_faults_in_a_row,
        Resume::default(),
        on_game,
    )
}

/// What a resumed match starts from.
#[derive(Default)]
pub struct Resume {
    /// Counts of an earlier part (games `0..n`) that is not replayed: its games are only
    /// counted (see [`EarlierResults`]).
    pub earlier: EarlierResults,
    /// Games already finished (`(index, game)`, from a checkpoint); those inside the earlier
    /// part are ignored, as its counts already hold them.
    pub finished: Vec<(usize, GameRecord)>,
}

/// [`run_match_guarded`] that starts from an earlier part's counts and from games already
/// finished: they count as if just played and only the others are played, so a resumed match
/// ends where an uninterrupted one would. `on_game` is called for new games only; the result's
/// games are those finished, its counts and SPRT include the earlier part.
pub fn run_match_resumed(
    a: &EngineSpec,
    b: &EngineSpec,
    openings: &[Opening],
    settings: &MatchSettings,
    max_faults_in_a_row: usize,
    resume: Resume,
    on_game: &(dyn Fn(&GameDone) + Sync),
) -> MatchResult {
    let first_game = resume.earlier.games();
    let mut tally = Tally {
        slots: (0..settings.games).map(|_| None).collect(),
        wdl: resume.earlier.wdl,
        penta: resume.earlier.penta,
    };
    for (index, game) in resume.finished {
        if (first_game..settings.games).contains(&index) && tally.slots[index].is_none() {
            tally.record(index, game);
        }
    }
    // A test already decided by the restored games plays nothing more.
    let decided = settings
        .sprt
        .is_some_and(|s| s.decide(s.llr_of(&tally.wdl, &tally.penta)) != SprtDecision::Continue);
    let pending: Vec<usize> = (first_game..settings.games)
        .filter(|&i| tally.slots[i].is_none())
        .collect();
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(decided);
    let finished = Mutex::new(tally);
    let watch = Mutex::new((FaultWatch::default(), None::<String>));
    let names = [a.name(), b.name()];
    let workers = settings
        .concurrency
        .clamp(1, settings.games.max(1))
        .min(if decided { 0 } else { pending.len() });
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                let mut player_a = a.create();
                let mut player_b = b.create();
                loop {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let Some(&index) = pending.get(next.fetch_add(1, Ordering::Relaxed)) else {
                        break;
                    };
                    let opening = &opening_of_game(openings, index);
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
                    let pair_done = guard.record(index, game);
                    let llr = settings.sprt.map(|s| {
                        let (llr, stop_now) = guard.sprt(&s, pair_done);
                        if stop_now {
                            stop.store(true, Ordering::Relaxed);
                        }
                        llr
                    });
                    on_game(&GameDone {
                        index,
                        game: guard.slots[index].as_ref().expect("just recorded"),
                        wdl: guard.wdl,
                        penta: guard.penta,
                        llr,
                    });
                }
            });
        }
    });
    let tally = finished.into_inner().unwrap_or_else(|e| e.into_inner());
    let sprt = settings.sprt.map(|s| {
        let llr = s.llr_of(&tally.wdl, &tally.penta);
        (llr, s.decide(llr))
    });
    let games: Vec<GameRecord> = tally.slots.into_iter().flatten().collect();
    MatchResult {
        engine_a: a.name().to_string(),
        engine_b: b.name().to_string(),
        games,
        wdl: tally.wdl,
        penta: tally.penta,
        sprt,
        aborted: watch.into_inner().unwrap_or_else(|e| e.into_inner()).1,
    }
}
