//! Ending games early: resign and draw adjudication from the engines' own scores, and a move
//! limit with an optional scoring rule for unfinished games.

use kestrel_chess::Color;

/// Resign when both engines agree one side is ahead by at least `score_cp` for `moves`
/// consecutive moves of each side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    /// Advantage in centipawns (White's view, for either side) that every score in the window
    /// must reach.
    pub score_cp: i32,
    /// Moves of each side the agreement must last (the last `2 * moves` engine scores); 0 turns
    /// the rule off.
    pub moves: usize,
}

/// Draw when, from move `from_move` on, both engines' scores stay within ±`score_cp` for
/// `moves` consecutive moves of each side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    /// Full-move number (as in the PGN) from which a draw may be adjudicated.
    pub from_move: usize,
    /// Largest absolute score in centipawns that still counts as drawn.
    pub score_cp: i32,
    /// Moves of each side the scores must stay in the window (the last `2 * moves` engine
    /// scores); 0 turns the rule off.
    pub moves: usize,
}

/// How a game cut at the move limit is scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveLimitScoring {
    /// Every game cut at the move limit is a draw.
    Draw,
    /// The teaching engine's rule: each side scores the final position with its own
    /// evaluation. If both see the same side ahead by more than `margin_cp`, that side wins;
    /// if they disagree (or it is close, or a player cannot evaluate), it is a draw.
    OwnEvaluation {
        /// Advantage in centipawns both evaluations must exceed for a win.
        margin_cp: i32,
    },
}

/// Stop after `moves` full moves played by the engines (book moves not counted).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveLimit {
    /// Full moves (two engine plies each) after which the game is stopped.
    pub moves: usize,
    /// How the unfinished game is scored.
    pub scoring: MoveLimitScoring,
}

/// Rules for ending a game before the rules of chess do; each is off when `None` (the default).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adjudication {
    /// Resign when both engines see the same side clearly lost.
    pub resign: Option<ResignRule>,
    /// Draw when both engines' scores stay close to zero late in the game.
    pub draw: Option<DrawRule>,
    /// Stop after a fixed number of engine moves and score the game by a rule.
    pub move_limit: Option<MoveLimit>,
}

/// A verdict from the scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// This side resigns.
    Resign(Color),
    /// The game is adjudicated a draw.
    Draw,
}

impl Adjudication {
    /// Looks at the scores (White's view, one per engine move, `None` when the engine gave
    /// none) after `full_moves` moves of the game (numbered as in the PGN).
    pub fn check(&self, white_scores: &[Option<i32>], full_moves: usize) -> Option<Verdict> {
        if let Some(rule) = self.resign {
            let window = last(white_scores, 2 * rule.moves);
            if window.len() == 2 * rule.moves && rule.moves > 0 {
                if window.iter().all(|s| s.is_some_and(|v| v >= rule.score_cp)) {
                    return Some(Verdict::Resign(Color::Black));
                }
                if window
                    .iter()
                    .all(|s| s.is_some_and(|v| v <= -rule.score_cp))
                {
                    return Some(Verdict::Resign(Color::White));
                }
            }
        }
        if let Some(rule) = self.draw {
            let window = last(white_scores, 2 * rule.moves);
            if full_moves >= rule.from_move
                && rule.moves > 0
                && window.len() == 2 * rule.moves
                && window
                    .iter()
                    .all(|s| s.is_some_and(|v| v.abs() <= rule.score_cp))
            {
                return Some(Verdict::Draw);
            }
        }
        None
    }
}

fn last<T>(xs: &[T], n: usize) -> &[T] {
    &xs[xs.len().saturating_sub(n)..]
}

/// The move-limit rule's result: `Some(winner)` or `None` for a draw.
pub fn own_evaluation_winner(
    white_eval: Option<i32>,
    black_eval: Option<i32>,
    margin_cp: i32,
) -> Option<Color> {
    match (white_eval, black_eval) {
        (Some(w), Some(b)) if w > margin_cp && b > margin_cp => Some(Color::White),
        (Some(w), Some(b)) if w < -margin_cp && b < -margin_cp => Some(Color::Black),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resign_needs_agreement_for_the_whole_window() {
        let adj = Adjudication {
            resign: Some(ResignRule {
                score_cp: 500,
                moves: 2,
            }),
            ..Default::default()
        };
        // Three plies are not two moves each.
        assert_eq!(adj.check(&[Some(600), Some(700), Some(800)], 10), None);
        let scores = [Some(0), Some(600), Some(700), Some(800), Some(900)];
        assert_eq!(adj.check(&scores, 10), Some(Verdict::Resign(Color::Black)));
        // One engine disagreeing (or silent) blocks it.
        let scores = [Some(600), Some(100), Some(800), Some(900)];
        assert_eq!(adj.check(&scores, 10), None);
        let scores = [Some(600), None, Some(800), Some(900)];
        assert_eq!(adj.check(&scores, 10), None);
        let scores = [Some(-600), Some(-600), Some(-800), Some(-900)];
        assert_eq!(adj.check(&scores, 10), Some(Verdict::Resign(Color::White)));
    }

    #[test]
    fn draw_waits_for_the_start_move() {
        let adj = Adjudication {
            draw: Some(DrawRule {
                from_move: 40,
                score_cp: 10,
                moves: 3,
            }),
            ..Default::default()
        };
        let quiet = [Some(5), Some(-3), Some(0), Some(10), Some(-10), Some(2)];
        assert_eq!(adj.check(&quiet, 39), None);
        assert_eq!(adj.check(&quiet, 40), Some(Verdict::Draw));
        let noisy = [Some(5), Some(-3), Some(0), Some(11), Some(-10), Some(2)];
        assert_eq!(adj.check(&noisy, 50), None);
    }

    #[test]
    fn own_evaluation_rule() {
        assert_eq!(
            own_evaluation_winner(Some(50), Some(30), 0),
            Some(Color::White)
        );
        assert_eq!(
            own_evaluation_winner(Some(-50), Some(-30), 0),
            Some(Color::Black)
        );
        // Each side thinks it is winning: a draw.
        assert_eq!(own_evaluation_winner(Some(50), Some(-30), 0), None);
        assert_eq!(own_evaluation_winner(Some(50), Some(30), 40), None);
        assert_eq!(own_evaluation_winner(None, Some(300), 0), None);
    }
}
