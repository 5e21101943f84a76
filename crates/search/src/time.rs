//! Time management: how long to think, from the `go` limits.
//!
//! Two budgets: the *soft* one decides whether to start another iteration, the *hard* one
//! aborts an iteration in progress. A ponder search has no budget until `ponderhit`; the
//! budget then counts from that moment.

use crate::SearchLimits;
use kestrel_chess::{Color, Move};
use std::time::{Duration, Instant};

/// How long a timed search may think.
#[derive(Clone, Debug)]
pub struct TimeBudget {
    /// No new iteration starts once (a share of) this has passed.
    pub soft: Duration,
    /// An iteration in progress is aborted once this has passed; at least `soft`.
    pub hard: Duration,
}

/// How a clock is shared out (the `TM_*` search parameters).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimePlan {
    /// Moves the remaining time is shared over when the GUI sends no `movestogo`.
    pub moves_to_go: u32,
    /// Percentage of the increment added to the soft budget.
    pub inc_percent: u32,
    /// The hard budget in tenths of the soft one.
    pub hard_tenths: u32,
    /// No new iteration starts after this percentage of the soft budget.
    pub soft_stop_percent: u32,
}

impl Default for TimePlan {
    fn default() -> Self {
        TimePlan::of(&crate::SearchParams::default())
    }
}

impl TimePlan {
    /// The plan of a parameter set.
    pub fn of(p: &crate::SearchParams) -> TimePlan {
        let positive = |v: i32| v.max(1) as u32;
        TimePlan {
            moves_to_go: positive(p.tm_moves_to_go),
            inc_percent: p.tm_inc_percent.max(0) as u32,
            hard_tenths: positive(p.tm_hard_tenths),
            soft_stop_percent: positive(p.tm_soft_stop_percent),
        }
    }
}

/// The budget for `side` under `limits`, or `None` when the search is not timed.
pub fn budget(
    limits: &SearchLimits,
    side: Color,
    overhead: Duration,
    plan: &TimePlan,
) -> Option<TimeBudget> {
    if limits.infinite {
        return None;
    }
    // Nodes as time: no process or pipe lag to allow for.
    let overhead = if limits.nodestime.is_some() {
        Duration::ZERO
    } else {
        overhead
    };
    if let Some(t) = limits.movetime {
        let t = t.saturating_sub(overhead).max(Duration::from_millis(1));
        return Some(TimeBudget { soft: t, hard: t });
    }
    let (time, inc) = match side {
        Color::White => (limits.wtime, limits.winc),
        Color::Black => (limits.btime, limits.binc),
    };
    let time = time?;
    let inc = inc.unwrap_or(Duration::ZERO);
    let avail = time.saturating_sub(overhead).max(Duration::from_millis(1));
    let moves_to_go = limits.movestogo.unwrap_or(plan.moves_to_go).clamp(1, 50);
    let soft = (avail / moves_to_go + inc * plan.inc_percent / 100).min(avail * 4 / 5);
    let hard = (soft * plan.hard_tenths / 10).min(avail * 9 / 10).max(soft);
    Some(TimeBudget { soft, hard })
}

/// The clock of one search.
pub struct Clock {
    budget: Option<TimeBudget>,
    /// When the budget started counting (search start, or `ponderhit`).
    start: Instant,
    /// Nodes as time: this many nodes are one millisecond (`SearchLimits::nodestime`).
    nodes_per_ms: Option<u64>,
    /// The main thread's node count when the budget started counting.
    start_nodes: u64,
    pondering: bool,
    /// Stretches the soft budget by how settled the search is (`USE_TIME_STABILITY`).
    stability: Option<Stability>,
    /// Scales the soft budget by the best move's share of the nodes (`USE_TM_NODE_SHARE`).
    node_share: bool,
    /// The factor on the soft budget after the last finished iteration.
    scale: f64,
    /// No new iteration after this share of the soft budget.
    soft_stop: f64,
}

impl Clock {
    /// A clock that started counting at `start` (when `go` arrived, so set-up time counts).
    pub fn starting_at(
        start: Instant,
        limits: &SearchLimits,
        side: Color,
        overhead: Duration,
        plan: &TimePlan,
    ) -> Clock {
        Clock {
            budget: budget(limits, side, overhead, plan),
            soft_stop: f64::from(plan.soft_stop_percent) / 100.0,
            start,
            nodes_per_ms: limits.nodestime.filter(|&n| n > 0),
            start_nodes: 0,
            pondering: limits.ponder,
            stability: None,
            node_share: false,
            scale: 1.0,
        }
    }

    /// Lets the soft budget follow the search's stability (see [`Stability`]); `root_moves`
    /// is the number of moves the root may play.
    pub fn with_stability(mut self, root_moves: usize) -> Clock {
        self.stability = Some(Stability::new(root_moves));
        self
    }

    /// Lets the soft budget follow the best move's share of the nodes (see
    /// [`node_share_scale`]).
    pub fn with_node_share(mut self) -> Clock {
        self.node_share = true;
        self
    }

    /// Records a finished iteration's best move, its score and the share of the search's
    /// nodes spent under it so far.
    pub fn iteration_done(&mut self, best: Move, score: i32, best_share: f64) {
        let stability = self
            .stability
            .as_mut()
            .map_or(1.0, |s| s.update(best, score));
        let effort = if self.node_share {
            node_share_scale(best_share)
        } else {
            1.0
        };
        self.scale = stability * effort;
    }

    /// Called when `ponderhit` is seen, after `nodes` of the main thread: the budget starts
    /// now.
    pub fn ponderhit(&mut self, nodes: u64) {
        if self.pondering {
            self.pondering = false;
            self.start = Instant::now();
            self.start_nodes = nodes;
        }
    }

    /// True while pondering: no budget counts until `ponderhit`.
    pub fn is_pondering(&self) -> bool {
        self.pondering
    }

    /// Time spent since the budget started: the wall clock, or the main thread's `nodes`
    /// since then converted at the nodes-as-time rate.
    pub fn elapsed(&self, nodes: u64) -> Duration {
        match self.nodes_per_ms {
            Some(rate) => {
                let spent = nodes.saturating_sub(self.start_nodes);
                Duration::from_micros(spent.saturating_mul(1000) / rate)
            }
            None => self.start.elapsed(),
        }
    }

    fn limit(&self, nodes: u64, pick: impl Fn(&TimeBudget) -> Duration) -> bool {
        match &self.budget {
            Some(b) if !self.pondering => self.elapsed(nodes) >= pick(b),
            _ => false,
        }
    }

    /// Past the hard limit after the main thread's `nodes`: abort the current iteration.
    pub fn hard_expired(&self, nodes: u64) -> bool {
        self.limit(nodes, |b| b.hard)
    }

    /// Another iteration is unlikely to finish in the soft budget (stretched by the stability
    /// factor, if on), after the main thread's `nodes`. A fixed `movetime` is used in full: the iteration in progress is cut at
    /// the hard limit.
    pub fn soft_expired(&self, nodes: u64) -> bool {
        self.limit(nodes, |b| {
            if b.soft == b.hard {
                b.hard
            } else {
                b.soft.mul_f64(self.soft_stop * self.scale).min(b.hard)
            }
        })
    }
}

/// The soft budget's factor for a best move that has taken `share` of the search's nodes: a
/// search that spent nearly everything proving one move has little left to find (0.675 at
/// 100%, 0.81 at 90%), one that kept looking at the others is still deciding (1.215 at 60%, at
/// most 1.6); linear, 1.0 at a share of about 76%, where a settled PVS search usually sits.
pub fn node_share_scale(share: f64) -> f64 {
    ((1.5 - share) * 1.35).clamp(0.5, 1.6)
}

/// How settled the iterative deepening is, as a factor on the soft budget: a best move that
/// keeps changing or a score that falls earns more time, a best move that has held for many
/// iterations less (the habit of most modern engines).
#[derive(Clone, Debug)]
pub struct Stability {
    /// Moves the root may play: with one, there is nothing to decide.
    root_moves: usize,
    best: Option<Move>,
    /// Iterations in a row that ended with the same best move.
    held: usize,
    last_score: Option<i32>,
}

impl Stability {
    /// Soft-budget factor by iterations the best move has held.
    const HELD_SCALE: [f64; 6] = [1.8, 1.4, 1.15, 1.0, 0.9, 0.8];

    /// A tracker for a root with `root_moves` legal moves (1: answer almost at once).
    pub fn new(root_moves: usize) -> Stability {
        Stability {
            root_moves,
            best: None,
            held: 0,
            last_score: None,
        }
    }

    /// Records a finished iteration and returns the new factor.
    pub fn update(&mut self, best: Move, score: i32) -> f64 {
        if self.best == Some(best) {
            self.held = (self.held + 1).min(Self::HELD_SCALE.len() - 1);
        } else {
            self.held = 0;
        }
        self.best = Some(best);
        // A falling score means trouble that a deeper search may still find a way out of.
        let drop = self
            .last_score
            .map_or(0, |last| last - score)
            .clamp(-100, 300);
        self.last_score = Some(score);
        let score_scale = (1.0 + drop as f64 / 250.0).clamp(0.9, 1.6);
        // With a single legal move there is nothing to decide: answer at once.
        let forced = if self.root_moves == 1 { 0.05 } else { 1.0 };
        Self::HELD_SCALE[self.held] * score_scale * forced
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets() {
        let ms = Duration::from_millis;
        let plan = TimePlan::default();
        let limits = SearchLimits {
            wtime: Some(ms(60_000)),
            btime: Some(ms(1_000)),
            winc: Some(ms(1_000)),
            ..Default::default()
        };
        let w = budget(&limits, Color::White, ms(10), &plan).unwrap();
        assert!(w.soft > ms(2000) && w.soft < ms(3500), "{w:?}");
        assert!(w.hard > w.soft && w.hard < ms(60_000));
        let b = budget(&limits, Color::Black, ms(10), &plan).unwrap();
        assert!(b.hard < ms(1_000));
        let one = SearchLimits {
            wtime: Some(ms(500)),
            movestogo: Some(1),
            ..Default::default()
        };
        let o = budget(&one, Color::White, ms(50), &plan).unwrap();
        assert!(o.hard <= ms(450), "{o:?}");
        assert!(budget(&SearchLimits::depth(5), Color::White, ms(10), &plan).is_none());
        let mt = budget(
            &SearchLimits::movetime(ms(100)),
            Color::White,
            ms(10),
            &plan,
        )
        .unwrap();
        assert_eq!(mt.hard, ms(90));
    }

    #[test]
    fn nodes_as_time_counts_nodes_not_the_wall_clock() {
        let ms = Duration::from_millis;
        let plan = TimePlan::default();
        let limits = SearchLimits {
            movetime: Some(ms(100)),
            nodestime: Some(50),
            ..Default::default()
        };
        // No overhead under nodes as time: the whole 100 ms are 5,000 nodes.
        let mut clock = Clock::starting_at(Instant::now(), &limits, Color::White, ms(30), &plan);
        assert_eq!(clock.elapsed(2_500), ms(50));
        assert!(!clock.hard_expired(4_999));
        assert!(clock.hard_expired(5_000));
        std::thread::sleep(ms(2));
        assert!(!clock.hard_expired(0), "the wall clock must not count");
        // A ponder search counts from ponderhit's node count.
        let pondering = SearchLimits {
            ponder: true,
            ..limits
        };
        clock = Clock::starting_at(Instant::now(), &pondering, Color::White, ms(30), &plan);
        assert!(!clock.hard_expired(1_000_000));
        clock.ponderhit(1_000_000);
        assert!(!clock.hard_expired(1_004_999));
        assert!(clock.hard_expired(1_005_000));
        // Without nodestime the same limits keep the overhead and read the wall clock.
        let real = SearchLimits {
            nodestime: None,
            ..SearchLimits::movetime(ms(100))
        };
        let clock = Clock::starting_at(Instant::now(), &real, Color::White, ms(30), &plan);
        assert!(!clock.hard_expired(u64::MAX));
    }

    #[test]
    fn the_plan_shares_out_the_clock() {
        let ms = Duration::from_millis;
        let limits = SearchLimits {
            wtime: Some(ms(30_000)),
            winc: Some(ms(400)),
            ..Default::default()
        };
        let default = TimePlan::default();
        assert_eq!(
            (
                default.moves_to_go,
                default.inc_percent,
                default.hard_tenths
            ),
            (30, 75, 30)
        );
        let b = budget(&limits, Color::White, ms(0), &default).unwrap();
        assert_eq!((b.soft, b.hard), (ms(1_300), ms(3_900)));
        let eager = TimePlan {
            moves_to_go: 20,
            inc_percent: 100,
            hard_tenths: 20,
            soft_stop_percent: 50,
        };
        let b = budget(&limits, Color::White, ms(0), &eager).unwrap();
        assert_eq!((b.soft, b.hard), (ms(1_900), ms(3_800)));
        // The soft stop: no new iteration after half the soft budget (nodes as time).
        let timed = SearchLimits {
            nodestime: Some(1),
            ..limits
        };
        let clock = Clock::starting_at(Instant::now(), &timed, Color::White, ms(0), &eager);
        assert!(!clock.soft_expired(949) && clock.soft_expired(950));
    }

    #[test]
    fn stability_scales_the_soft_budget() {
        use kestrel_chess::Board;
        let board = Board::startpos();
        let moves: Vec<Move> = board.legal_moves().iter().copied().collect();
        let mut s = Stability::new(20);
        let first = s.update(moves[0], 20);
        // The same move and score for many iterations: less time than a fresh best move.
        let mut settled = first;
        for _ in 0..10 {
            settled = s.update(moves[0], 20);
        }
        assert!(settled < first, "{settled} vs {first}");
        // A new best move resets the count; a score drop stretches further.
        let changed = s.update(moves[1], 20);
        assert_eq!(changed, first);
        let mut t = Stability::new(20);
        t.update(moves[0], 50);
        let dropped = t.update(moves[0], -100);
        let mut u = Stability::new(20);
        u.update(moves[0], 50);
        let steady = u.update(moves[0], 50);
        assert!(dropped > steady, "{dropped} vs {steady}");
        // A forced move takes almost nothing.
        assert!(Stability::new(1).update(moves[0], 0) < 0.1);
    }

    #[test]
    fn the_best_moves_share_of_the_nodes_scales_the_soft_budget() {
        let ms = Duration::from_millis;
        // Less time the more of the nodes the best move took, within [0.5, 1.6].
        let shares = [0.0, 0.2, 0.4, 0.6, 0.8, 0.95, 1.0];
        let factors: Vec<f64> = shares.iter().map(|&s| node_share_scale(s)).collect();
        assert!(factors.windows(2).all(|w| w[0] >= w[1]), "{factors:?}");
        assert_eq!(factors[0], 1.6);
        assert!((factors[6] - 0.675).abs() < 1e-9);
        assert!((node_share_scale(0.6) - 1.215).abs() < 1e-9);
        // On a clock: the soft stop moves with the factor (nodes as time, 1 node a ms).
        let limits = SearchLimits {
            wtime: Some(ms(30_000)),
            nodestime: Some(1),
            ..Default::default()
        };
        let plan = TimePlan::default();
        let soft_stop_at = |share: Option<f64>| {
            let clock = Clock::starting_at(Instant::now(), &limits, Color::White, ms(0), &plan);
            let mut clock = match share {
                Some(_) => clock.with_node_share(),
                None => clock,
            };
            clock.iteration_done(Move::NULL, 0, share.unwrap_or(0.99));
            (1..100_000).find(|&n| clock.soft_expired(n)).unwrap()
        };
        let plain = soft_stop_at(None);
        let settled = soft_stop_at(Some(0.99));
        let open = soft_stop_at(Some(0.1));
        assert!(settled < plain && plain < open, "{settled} {plain} {open}");
    }
}
