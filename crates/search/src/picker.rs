//! The move picker: a node's moves handed out best first, the hash move staged before any
//! move is generated.

use crate::ordering::{HASH_SCORE, MoveOrderer, OrderContext};
use kestrel_chess::{Board, Move, MoveList};
use std::mem::MaybeUninit;

// `next_move` keeps a move's place in the low 8 bits of its key.
const _: () = assert!(kestrel_chess::MAX_MOVES <= 256);

/// Hands out moves best-first by lazy selection sort (a cut-off usually comes early, so most
/// lists are never fully sorted).
pub struct MovePicker {
    moves: MoveList,
    /// The ordering scores; only the first `moves.len()` are initialised.
    scores: [MaybeUninit<i32>; kestrel_chess::MAX_MOVES],
    next: usize,
    stage: Stage,
}

/// Where a picker is: handing out a staged hash move, about to generate the rest, or
/// handing out its list.
#[derive(Clone, Copy)]
enum Stage {
    Hash(Move),
    Generate(Move),
    List,
}

impl MovePicker {
    /// A picker with no moves; [`MovePicker::fill`] gives it its moves.
    #[inline(always)]
    pub fn empty() -> MovePicker {
        // Written field by field: a struct literal with uninitialised arrays let the compiler
        // zero them at some call sites.
        let mut picker = MaybeUninit::<MovePicker>::uninit();
        let p = picker.as_mut_ptr();
        // SAFETY: every field that is not an array of `MaybeUninit` is written before
        // `assume_init`.
        unsafe {
            std::ptr::addr_of_mut!((*p).moves).write(MoveList::new());
            std::ptr::addr_of_mut!((*p).next).write(0);
            std::ptr::addr_of_mut!((*p).stage).write(Stage::List);
            picker.assume_init()
        }
    }

    /// Replaces the moves by those `fill` writes into the list, scored by `orderer`. The
    /// picker is filled where it lives rather than built and moved: a node makes one, and
    /// copying its 1.5 KB showed in the profile.
    #[inline(always)]
    pub fn fill(
        &mut self,
        fill: impl FnOnce(&mut MoveList),
        board: &Board,
        orderer: &dyn MoveOrderer,
        ctx: &OrderContext,
    ) {
        self.moves.clear();
        self.next = 0;
        self.stage = Stage::List;
        fill(&mut self.moves);
        let n = self.moves.len();
        for s in &mut self.scores[..n] {
            s.write(0);
        }
        let scores = written_prefix(&mut self.scores, n);
        orderer.score(board, self.moves.as_slice(), ctx, scores);
    }

    /// Stages `hash_move` (legal here): [`MovePicker::next_staged`] hands it out first and
    /// generates the other moves only when they are asked for, so a hash move that cuts off
    /// saves the generation and the scoring.
    pub fn stage(&mut self, hash_move: Move) {
        self.moves.clear();
        self.next = 0;
        self.stage = Stage::Hash(hash_move);
    }

    /// The next move: the staged hash move first, then the list that `fill` makes (through
    /// [`MovePicker::fill`]) without it; without a staged move, [`MovePicker::next_move`].
    /// When the orderer puts the hash move first, the order is the unstaged picker's.
    #[inline]
    pub fn next_staged(&mut self, fill: impl FnOnce(&mut MovePicker)) -> Option<(Move, i32)> {
        match self.stage {
            Stage::Hash(mv) => {
                self.stage = Stage::Generate(mv);
                return Some((mv, HASH_SCORE));
            }
            Stage::Generate(mv) => {
                fill(self);
                self.skip(mv);
            }
            Stage::List => {}
        }
        self.next_move()
    }

    /// Takes `mv` out of the moves still to come as handing it out would: swapped into the
    /// next place, which is then passed.
    fn skip(&mut self, mv: Move) {
        let next = self.next;
        let Some(i) = self.moves.as_slice()[next..].iter().position(|&m| m == mv) else {
            return;
        };
        self.scores_mut().swap(next, next + i);
        self.moves.swap(next, next + i);
        self.next += 1;
    }

    /// The scores of the list's moves.
    fn scores_mut(&mut self) -> &mut [i32] {
        written_prefix(&mut self.scores, self.moves.len())
    }

    pub fn len(&self) -> usize {
        self.moves.len()
    }

    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The next move and its ordering score.
    pub fn next_move(&mut self) -> Option<(Move, i32)> {
        let next = self.next;
        if next >= self.moves.len() {
            return None;
        }
        // The first of the highest scores (as a scan keeping the first strict maximum would
        // find), in one branch-free pass the compiler vectorises: each score is widened with
        // its place below it, earlier places ranking higher, so the largest key names both.
        let scores = self.scores_mut();
        let rest = &scores[next..];
        let key = rest
            .iter()
            .enumerate()
            .map(|(i, &s)| (s as i64) << 8 | (255 - i) as i64)
            .max()
            .expect("moves remain");
        let (top, best) = ((key >> 8) as i32, next + 255 - (key & 0xff) as usize);
        scores.swap(next, best);
        self.moves.swap(next, best);
        self.next += 1;
        Some((self.moves[next], top))
    }
}

/// The first `n` scores, which the caller has written (only `MovePicker` calls it, with
/// `n` at most the length its `fill` wrote).
fn written_prefix(scores: &mut [MaybeUninit<i32>], n: usize) -> &mut [i32] {
    let prefix = &mut scores[..n];
    // SAFETY: `MovePicker::fill` writes the first `moves.len()` scores before any read, and
    // the list (private to the picker) only changes in `fill`; `MaybeUninit<i32>` has `i32`'s
    // layout.
    unsafe { std::slice::from_raw_parts_mut(prefix.as_mut_ptr().cast::<i32>(), n) }
}

#[cfg(test)]
mod picker_tests {
    use super::*;
    use crate::ordering::TriedMoves;

    /// Scores each move by a fixed table lookup on its index in the list, so the test knows
    /// the order to expect.
    struct ByTable(Vec<i32>);

    impl MoveOrderer for ByTable {
        fn score(&self, _: &Board, moves: &[Move], _: &OrderContext, scores: &mut [i32]) {
            assert_eq!(scores.len(), moves.len());
            scores.copy_from_slice(&self.0[..moves.len()]);
        }
        fn on_cutoff(&mut self, _: &Board, _: Move, _: &TriedMoves, _: i32, _: &OrderContext) {}
        fn clear(&mut self) {}
    }

    fn ctx() -> OrderContext {
        OrderContext {
            hash_move: None,
            ply: 0,
            depth: 0,
            prev_move: None,
            own_prev: None,
        }
    }

    #[test]
    fn hands_out_every_move_best_first_and_refills_cleanly() {
        let board = Board::startpos();
        let mut all = MoveList::new();
        board.generate(kestrel_chess::GenKind::All, &mut all);
        assert_eq!(all.len(), 20);
        let table: Vec<i32> = (0..20).map(|i| [5, -3, 5, 9, 0][i % 5]).collect();
        let orderer = ByTable(table.clone());
        let mut picker = MovePicker::empty();
        picker.fill(
            |m| board.generate(kestrel_chess::GenKind::All, m),
            &board,
            &orderer,
            &ctx(),
        );
        let mut expected: Vec<(Move, i32)> = all.iter().copied().zip(table).collect();
        // Scores come out in descending order; the unique top score names its move.
        expected.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
        let got: Vec<(Move, i32)> = std::iter::from_fn(|| picker.next_move()).collect();
        assert_eq!(got.len(), 20);
        assert_eq!(got.iter().map(|g| g.1).collect::<Vec<_>>(), {
            expected.iter().map(|e| e.1).collect::<Vec<_>>()
        });
        assert_eq!(got[0].0, expected[0].0);
        // Refilled with fewer moves, the picker forgets the old ones.
        picker.fill(|m| m.push(all[7]), &board, &orderer, &ctx());
        assert_eq!(picker.len(), 1);
        assert_eq!(picker.next_move(), Some((all[7], 5)));
        assert_eq!(picker.next_move(), None);
    }

    /// A staged hash move comes first without generating; the rest then come in exactly the
    /// unstaged picker's order (ties included) when the orderer puts the hash move on top.
    #[test]
    fn a_staged_hash_move_keeps_the_unstaged_order() {
        let board = Board::startpos();
        let mut all = MoveList::new();
        board.generate(kestrel_chess::GenKind::All, &mut all);
        // Many ties, and the hash move (index 13) alone on top.
        let mut table: Vec<i32> = (0..20).map(|i| [5, -3, 5, 9, 0][i % 5]).collect();
        table[13] = 100;
        let orderer = ByTable(table);
        let generate = |p: &mut MovePicker| {
            p.fill(
                |m| board.generate(kestrel_chess::GenKind::All, m),
                &board,
                &orderer,
                &ctx(),
            )
        };
        let mut unstaged = MovePicker::empty();
        generate(&mut unstaged);
        let expected: Vec<(Move, i32)> = std::iter::from_fn(|| unstaged.next_move()).collect();

        let mut staged = MovePicker::empty();
        staged.stage(all[13]);
        let mut generations = 0;
        let first = staged.next_staged(|p| {
            generations += 1;
            generate(p)
        });
        assert_eq!(first, Some((all[13], HASH_SCORE)));
        assert_eq!(generations, 0, "the hash move comes before any generation");
        let mut got = vec![(first.unwrap().0, 100)];
        while let Some(next) = staged.next_staged(|p| {
            generations += 1;
            generate(p)
        }) {
            got.push(next);
        }
        assert_eq!(generations, 1);
        assert_eq!(got, expected);
    }
}
