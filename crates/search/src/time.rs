//! Time management: how long to think, from the `go` limits.
//!
//! Two budgets: the *soft* one decides whether to start another iteration, the *hard* one
//! aborts an iteration in progress. A ponder search has no budget until `ponderhit`; the
//! budget then counts from that moment.

use crate::SearchLimits;
use kestrel_chess::Color;
use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub struct TimeBudget {
    pub soft: Duration,
    pub hard: Duration,
}

/// The budget for `side` under `limits`, or `None` when the search is not timed.
pub fn budget(limits: &SearchLimits, side: Color, overhead: Duration) -> Option<TimeBudget> {
    if limits.infinite {
        return None;
    }
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
    let moves_to_go = limits.movestogo.unwrap_or(30).clamp(1, 50);
    let soft = (avail / moves_to_go + inc * 3 / 4).min(avail * 4 / 5);
    let hard = (soft * 3).min(avail * 9 / 10).max(soft);
    Some(TimeBudget { soft, hard })
}

/// The clock of one search.
pub struct Clock {
    budget: Option<TimeBudget>,
    /// When the budget started counting (search start, or `ponderhit`).
    start: Instant,
    pondering: bool,
}

impl Clock {
    /// A clock that started counting at `start` (when `go` arrived, so set-up time counts).
    pub fn starting_at(
        start: Instant,
        limits: &SearchLimits,
        side: Color,
        overhead: Duration,
    ) -> Clock {
        Clock {
            budget: budget(limits, side, overhead),
            start,
            pondering: limits.ponder,
        }
    }

    /// Called when `ponderhit` is seen: the budget starts now.
    pub fn ponderhit(&mut self) {
        if self.pondering {
            self.pondering = false;
            self.start = Instant::now();
        }
    }

    pub fn is_pondering(&self) -> bool {
        self.pondering
    }

    fn limit(&self, pick: impl Fn(&TimeBudget) -> Duration) -> bool {
        match &self.budget {
            Some(b) if !self.pondering => self.start.elapsed() >= pick(b),
            _ => false,
        }
    }

    /// Past the hard limit: abort the current iteration.
    pub fn hard_expired(&self) -> bool {
        self.limit(|b| b.hard)
    }

    /// Another iteration is unlikely to finish in the soft budget. A fixed `movetime` is used
    /// in full: the iteration in progress is cut at the hard limit.
    pub fn soft_expired(&self) -> bool {
        self.limit(|b| {
            if b.soft == b.hard {
                b.hard
            } else {
                b.soft * 3 / 5
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets() {
        let ms = Duration::from_millis;
        let limits = SearchLimits {
            wtime: Some(ms(60_000)),
            btime: Some(ms(1_000)),
            winc: Some(ms(1_000)),
            ..Default::default()
        };
        let w = budget(&limits, Color::White, ms(10)).unwrap();
        assert!(w.soft > ms(2000) && w.soft < ms(3500), "{w:?}");
        assert!(w.hard > w.soft && w.hard < ms(60_000));
        let b = budget(&limits, Color::Black, ms(10)).unwrap();
        assert!(b.hard < ms(1_000));
        let one = SearchLimits {
            wtime: Some(ms(500)),
            movestogo: Some(1),
            ..Default::default()
        };
        let o = budget(&one, Color::White, ms(50)).unwrap();
        assert!(o.hard <= ms(450), "{o:?}");
        assert!(budget(&SearchLimits::depth(5), Color::White, ms(10)).is_none());
        let mt = budget(&SearchLimits::movetime(ms(100)), Color::White, ms(10)).unwrap();
        assert_eq!(mt.hard, ms(90));
    }
}
