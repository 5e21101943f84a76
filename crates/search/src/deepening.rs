//! Iterative deepening: the main thread's loop over depths (MultiPV lines, `info` reports,
//! the clock's verdict after each iteration, the line of an unfinished iteration) and the
//! helper threads' simpler loop (Lazy SMP).

use crate::SearchLimits;
use crate::types::{Bound, MATE, MATE_BOUND, Score, SearchInfo, SearchResult};
use crate::worker::{RootLine, Worker};
use kestrel_chess::Move;
use std::time::{Duration, Instant};

/// Iterative deepening on a helper thread: no reports, no clock (the main thread stops it).
/// Every other helper starts a ply deeper, so the threads diversify.
pub(crate) fn helper_loop(w: &mut Worker, index: usize, max_depth: i32) {
    let mut prev = None;
    for depth in (1 + index as i32 % 2)..=max_depth {
        match w.search_root(depth, prev, &mut |_, _, _| {}) {
            Some(line) => prev = Some(line.score),
            None => break,
        }
        w.poll();
        if w.stopped {
            break;
        }
    }
    w.publish_nodes();
}

/// Iterative deepening on the main thread; returns the last complete iteration's result.
pub(crate) fn main_loop(
    w: &mut Worker,
    limits: &SearchLimits,
    max_depth: i32,
    multipv: usize,
    start: Instant,
    on_info: &mut dyn FnMut(&SearchInfo),
) -> SearchResult {
    let mut result = SearchResult {
        best_move: None,
        ponder_move: None,
        score: Score::Cp(0),
        score_internal: 0,
        depth: 0,
        seldepth: 0,
        nodes: 0,
        time: Duration::ZERO,
        pv: vec![],
    };
    let mut prev_scores: Vec<Option<i32>> = vec![None; multipv];
    'deepening: for depth in 1..=max_depth {
        w.seldepth = 0;
        w.root_excluded.clear();
        let mut lines: Vec<RootLine> = Vec::with_capacity(multipv);
        for (k, prev) in prev_scores.iter_mut().enumerate() {
            // Aspiration failures of the best line: `lowerbound`/`upperbound` reports.
            let last_pv = result.pv.clone();
            // The score of a fail low that is still the last word on this iteration.
            let mut fail_low = None;
            let mut on_fail = |w: &Worker, score: i32, bound: Bound| {
                if k > 0 {
                    return;
                }
                fail_low = (bound == Bound::Upper).then_some(score);
                let pv = match bound {
                    Bound::Lower if !w.root_pv().is_empty() => w.root_pv().to_vec(),
                    _ => last_pv.clone(),
                };
                on_info(&progress(w, depth, start.elapsed(), 1, score, bound, pv));
            };
            let searched = w.search_root(depth, *prev, &mut on_fail);
            let Some(line) = searched else {
                if k == 0 && multipv == 1 {
                    if let Some(line) = w.unfinished_line() {
                        adopt_unfinished(w, line, &mut result, depth, start, on_info);
                    } else if let Some(score) = fail_low {
                        // Stopped while re-searching a fail low: the move stays, but its
                        // score is the deeper bound last reported, as the GUI shows it.
                        result.score_internal = score;
                        result.score = Score::from_internal(score);
                    }
                }
                break 'deepening;
            };
            if line.pv.is_empty() {
                break;
            }
            *prev = Some(line.score);
            w.root_excluded.push(line.pv[0]);
            lines.push(line);
        }
        if lines.is_empty() {
            break;
        }
        // MultiPV lines come out in search order; report them best first.
        lines.sort_by_key(|l| std::cmp::Reverse(l.score));
        w.enable_stop();
        let elapsed = start.elapsed();
        for (k, line) in lines.iter().enumerate() {
            let info = progress(
                w,
                depth,
                elapsed,
                k + 1,
                line.score,
                Bound::Exact,
                line.pv.clone(),
            );
            on_info(&info);
        }
        let best = &lines[0];
        take_line(&mut result, best.score, best.pv.clone());
        result.depth = depth;
        result.seldepth = w.seldepth as i32;

        if let Some(n) = limits.mate
            && best.score >= MATE_BOUND
            && MATE - best.score <= 2 * n
        {
            break;
        }
        w.poll();
        if w.stopped {
            break;
        }
        let best_share = w.root_effort_share(best.pv[0]);
        if let Some(clock) = &mut w.clock {
            clock.iteration_done(best.pv[0], best.score, best_share);
            if clock.soft_expired(w.nodes) {
                break;
            }
        }
    }
    // UCI: never answer an infinite search, or a ponder search before ponderhit, unasked.
    let control = w.shared_control();
    if let Some(clock) = &mut w.clock {
        while (limits.infinite || clock.is_pondering()) && !control.is_stopped() {
            if control.is_ponderhit() {
                clock.ponderhit(w.nodes);
                break;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }
    if result.best_move.is_none() {
        // Depth 1 always completes unless the root has no legal move (handled by the caller).
        result.best_move = w.board.legal_moves().iter().next().copied();
    }
    result
}

/// A search stopped inside an iteration whose root already has a fully searched move
/// scoring above alpha: that deeper result replaces the last complete iteration's (it is
/// the previous best move re-searched deeper, or a move that beat it). Reported as a
/// `lowerbound`, since the root's remaining moves were not searched.
fn adopt_unfinished(
    w: &Worker,
    line: RootLine,
    result: &mut SearchResult,
    depth: i32,
    start: Instant,
    on_info: &mut dyn FnMut(&SearchInfo),
) {
    let RootLine { score, pv } = line;
    on_info(&progress(
        w,
        depth,
        start.elapsed(),
        1,
        score,
        Bound::Lower,
        pv.clone(),
    ));
    take_line(result, score, pv);
}

/// Makes `pv` (non-empty) with `score` the search's answer.
fn take_line(result: &mut SearchResult, score: i32, pv: Vec<Move>) {
    result.best_move = Some(pv[0]);
    result.ponder_move = pv.get(1).copied();
    result.score_internal = score;
    result.score = Score::from_internal(score);
    result.pv = pv;
}

/// One `info` report: the line's score and PV plus the worker's counters.
fn progress(
    w: &Worker,
    depth: i32,
    elapsed: Duration,
    multipv: usize,
    score: i32,
    bound: Bound,
    pv: Vec<Move>,
) -> SearchInfo {
    let nodes = w.total_nodes();
    SearchInfo {
        depth,
        seldepth: w.seldepth as i32,
        multipv,
        score: Score::from_internal(score),
        bound,
        nodes,
        nps: nps(nodes, elapsed),
        hashfull: w.shared_tt_hashfull(),
        time: elapsed,
        pv,
    }
}

fn nps(nodes: u64, elapsed: Duration) -> u64 {
    (nodes as u128 * 1000 / elapsed.as_millis().max(1)) as u64
}
