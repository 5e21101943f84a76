//! The leaves of a 1-ply search with quiescence: every legal move of a position leads to a
//! child, and the child's value is the static evaluation at the end of its principal
//! capture sequence. The capture sequence is found once, with Kestrel's hand-tuned evaluation
//! (captures and promotions only, stand-pat, losing captures pruned by SEE), so each leaf is a
//! fixed position whose feature trace an organism's evaluation scores as one dot product. The
//! organisms then differ in how they value those leaves, not in which exchanges they follow:
//! the price of scoring a whole population with one matrix product.

use kestrel_chess::{Board, GenKind, MoveList};
use kestrel_eval::Evaluator;
use kestrel_search::see::{see, value};

/// What a child position is worth regardless of evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Terminal {
    /// The move mates: always the best choice.
    Mate,
    /// Stalemate: a draw (score 0).
    Draw,
}

/// One child of a root position.
#[derive(Clone, Debug)]
pub struct Leaf {
    /// The position whose static evaluation stands for the child.
    pub board: Board,
    /// Set when the child ends the game.
    pub terminal: Option<Terminal>,
}

/// Side-to-move alpha-beta over captures; returns the score and the principal capture line.
fn qsearch(
    board: &mut Board,
    eval: &Evaluator,
    mut alpha: i32,
    beta: i32,
    depth_left: i32,
) -> (i32, Vec<kestrel_chess::Move>) {
    let stand_pat = eval.evaluate(board);
    if stand_pat >= beta || depth_left == 0 {
        return (stand_pat, Vec::new());
    }
    let mut best_line = Vec::new();
    alpha = alpha.max(stand_pat);
    let mut moves = MoveList::new();
    board.generate(GenKind::Noisy, &mut moves);
    // Most valuable victim first; cheap and deterministic.
    let mut ordered: Vec<(i32, kestrel_chess::Move)> = moves
        .iter()
        .filter(|&&mv| see(board, mv) >= 0)
        .map(|&mv| {
            let victim = board.piece_at(mv.to()).map_or(0, |p| value(p.kind));
            (-victim, mv)
        })
        .collect();
    ordered.sort_by_key(|&(key, mv)| (key, mv.to_string()));
    for (_, mv) in ordered {
        board.make_move(mv);
        let (score, line) = qsearch(board, eval, -beta, -alpha, depth_left - 1);
        board.unmake_move();
        let score = -score;
        if score > alpha {
            alpha = score;
            best_line = std::iter::once(mv).chain(line).collect();
            if score >= beta {
                break;
            }
        }
    }
    (alpha, best_line)
}

/// The leaf standing for `child`: the position at the end of its principal capture line
/// (searched at most `max_captures` plies deep), or the child itself when it is quiet.
pub fn quiescence_leaf(child: &Board, eval: &Evaluator, max_captures: i32) -> Leaf {
    if child.legal_moves().is_empty() {
        let terminal = if child.in_check() {
            Terminal::Mate
        } else {
            Terminal::Draw
        };
        return Leaf {
            board: child.clone(),
            terminal: Some(terminal),
        };
    }
    let mut board = child.clone();
    let (_, line) = qsearch(&mut board, eval, -1_000_000, 1_000_000, max_captures);
    for mv in line {
        board.make_move(mv);
    }
    board.clear_history();
    Leaf {
        board,
        terminal: None,
    }
}

/// Every legal move of `root` with its leaf (`max_captures` 0: the children themselves).
pub fn children(
    root: &Board,
    eval: &Evaluator,
    max_captures: i32,
) -> Vec<(kestrel_chess::Move, Leaf)> {
    root.legal_moves()
        .iter()
        .map(|&mv| {
            let mut child = root.clone();
            child.make_move(mv);
            (mv, quiescence_leaf(&child, eval, max_captures))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use kestrel_eval::EVAL_TABLE;
    use kestrel_params::ParamValues;

    fn expert() -> Evaluator {
        Evaluator::new(ParamValues::defaults(&EVAL_TABLE))
    }

    #[test]
    fn a_hanging_recapture_is_followed_to_the_quiet_end() {
        // White takes the knight on d5; Rxd5 would lose the rook to Rxd5, so the leaf is
        // quiet: no capture in it gains much.
        let root = Board::from_fen("3rk3/8/8/3n4/4P3/8/8/3RK3 w - - 0 1").unwrap();
        let mv = root.parse_uci_move("e4d5").unwrap();
        let mut child = root.clone();
        child.make_move(mv);
        let leaf = quiescence_leaf(&child, &expert(), 8);
        assert!(leaf.terminal.is_none());
        let mut noisy = MoveList::new();
        leaf.board.generate(GenKind::Noisy, &mut noisy);
        let e = expert();
        let stand = e.evaluate(&leaf.board);
        for &m in noisy.iter() {
            let mut b = leaf.board.clone();
            b.make_move(m);
            assert!(
                -e.evaluate(&b) <= stand + 200,
                "profitable capture {m} left"
            );
        }
        // Zero capture depth: the leaf is the child itself.
        let flat = quiescence_leaf(&child, &expert(), 0);
        assert_eq!(flat.board.hash(), {
            let mut c = child.clone();
            c.clear_history();
            c.hash()
        });
    }

    #[test]
    fn mates_and_stalemates_are_terminal() {
        let root = Board::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
        let kids = children(&root, &expert(), 8);
        assert_eq!(kids.len(), root.legal_moves().len());
        let mate = kids.iter().find(|(m, _)| m.to_string() == "a1a8").unwrap();
        assert_eq!(mate.1.terminal, Some(Terminal::Mate));
        let stale = Board::from_fen("7k/8/6QK/8/8/8/8/8 w - - 0 1").unwrap();
        let kids = children(&stale, &expert(), 8);
        let qg7 = kids.iter().find(|(m, _)| m.to_string() == "g6g7").unwrap();
        assert_eq!(qg7.1.terminal, Some(Terminal::Mate));
        let qf7 = kids.iter().find(|(m, _)| m.to_string() == "g6f7").unwrap();
        assert_eq!(qf7.1.terminal, Some(Terminal::Draw));
    }
}
