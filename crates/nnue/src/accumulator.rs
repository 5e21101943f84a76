//! The accumulators of every position on the search path ([`AccumulatorStack`]): one per
//! colour's perspective, so a null move changes nothing. A move records only its feature
//! changes; they are applied when a position is evaluated, from the nearest position whose
//! accumulators are up to date (many positions are never evaluated: cut-offs, hash hits).
//! With king-relative inputs a king move that changes its side's orientation changes every
//! feature of that side's view: that perspective is then refreshed from the board when next
//! evaluated (the other perspective is still updated).

use crate::aligned::AlignedI16;
use crate::inference::NetEval;
use crate::inputs::Orientation;
use kestrel_chess::{Board, Color, Move, Piece, PieceKind, Square};
use std::sync::Arc;

/// A piece placed on or taken off a square.
type PieceOn = (Piece, Square);

/// The feature changes of one move: at most two pieces placed and two removed.
#[derive(Clone, Copy, Debug)]
struct Delta {
    adds: [PieceOn; 2],
    subs: [PieceOn; 2],
    n_adds: u8,
    n_subs: u8,
}

impl Delta {
    const EMPTY: Delta = Delta {
        adds: [(Piece::new(Color::White, PieceKind::Pawn), Square(0)); 2],
        subs: [(Piece::new(Color::White, PieceKind::Pawn), Square(0)); 2],
        n_adds: 0,
        n_subs: 0,
    };

    fn add(&mut self, piece: Piece, square: Square) {
        self.adds[self.n_adds as usize] = (piece, square);
        self.n_adds += 1;
    }

    fn sub(&mut self, piece: Piece, square: Square) {
        self.subs[self.n_subs as usize] = (piece, square);
        self.n_subs += 1;
    }

    /// The changes `mv` makes on `board` (before it is made).
    fn of_move(board: &Board, mv: Move) -> Delta {
        let (from, to) = (mv.from(), mv.to());
        let piece = board
            .piece_at(from)
            .expect("a move starts on an occupied square");
        let mut d = Delta::EMPTY;
        d.sub(piece, from);
        let placed = mv
            .promotion_kind()
            .map_or(piece, |kind| Piece::new(piece.color, kind));
        d.add(placed, to);
        if mv.is_castle() {
            // In Chess960 the king may land on its own rook's square: that rook moves, it is
            // not captured.
            let (rook_from, rook_to) = board.castle_rook_squares(mv);
            let rook = Piece::new(piece.color, PieceKind::Rook);
            d.sub(rook, rook_from);
            d.add(rook, rook_to);
        } else if mv.is_en_passant() {
            let victim = Square(to.0 ^ 8);
            d.sub(Piece::new(piece.color.flip(), PieceKind::Pawn), victim);
        } else if let Some(victim) = board.piece_at(to) {
            d.sub(victim, to);
        }
        d
    }
}

/// The two accumulators (White's view, Black's view) of each position on the path.
pub struct AccumulatorStack {
    net: Arc<NetEval>,
    /// Position `k`, perspective `c`: `values[(2k + c) * padded ..][.. padded]`.
    values: AlignedI16,
    /// The move into position `k` (unused at 0), whether `k`'s values are up to date and
    /// each perspective's orientation at `k`, all by perspective.
    deltas: Vec<Delta>,
    current: Vec<[bool; 2]>,
    orientations: Vec<[Orientation; 2]>,
    top: usize,
}

impl AccumulatorStack {
    /// A stack for `net` starting at `board`.
    pub fn new(net: Arc<NetEval>, board: &Board) -> AccumulatorStack {
        let mut stack = AccumulatorStack {
            values: AlignedI16::zeros(0),
            net,
            deltas: Vec::new(),
            current: Vec::new(),
            orientations: Vec::new(),
            top: 0,
        };
        stack.reserve(1);
        stack.reset(board);
        stack
    }

    /// The network it evaluates with.
    pub fn net(&self) -> &Arc<NetEval> {
        &self.net
    }

    /// Forgets the path: `board` becomes the only position, refreshed from scratch.
    pub fn reset(&mut self, board: &Board) {
        self.top = 0;
        self.current[0] = [true; 2];
        let inputs = self.net.inputs();
        self.orientations[0] = Color::ALL.map(|c| inputs.board_orientation(board, c));
        for c in Color::ALL {
            let range = self.range(0, c);
            self.net
                .refresh(board, c, &mut self.values.as_mut_slice()[range]);
        }
    }

    /// Records `mv`, about to be made on `board` (call before `Board::make_move`).
    #[inline]
    pub fn push_move(&mut self, board: &Board, mv: Move) {
        debug_assert!(!mv.is_null(), "null moves change no accumulator");
        self.top += 1;
        if self.top == self.deltas.len() {
            self.reserve(self.top + 1);
        }
        let delta = Delta::of_move(board, mv);
        let mut orientations = self.orientations[self.top - 1];
        let (mover, from) = delta.subs[0];
        if mover.kind == PieceKind::King && !self.net.inputs().is_plain() {
            let c = mover.color;
            debug_assert_eq!(board.king_square(c), from);
            orientations[c.index()] = self.net.inputs().orientation(c, delta.adds[0].1);
        }
        self.deltas[self.top] = delta;
        self.orientations[self.top] = orientations;
        self.current[self.top] = [false; 2];
    }

    /// Takes back the last [`AccumulatorStack::push_move`].
    #[inline]
    pub fn pop(&mut self) {
        assert!(self.top > 0, "pop without a move to take back");
        self.top -= 1;
    }

    /// Positions on the path after the first.
    pub fn depth(&self) -> usize {
        self.top
    }

    /// The evaluation of `board` (the position after every recorded move) in centipawns,
    /// side to move's view.
    #[inline]
    pub fn evaluate(&mut self, board: &Board) -> i32 {
        self.bring_up_to_date(board);
        let stm = board.side_to_move();
        let values = self.values.as_slice();
        let us = &values[self.range(self.top, stm)];
        let them = &values[self.range(self.top, stm.flip())];
        self.net.output(us, them, self.net.bucket(board))
    }

    /// The accumulator of `perspective` for `board`, the position after every recorded move
    /// (`padded` values).
    pub fn accumulator(&mut self, board: &Board, perspective: Color) -> &[i16] {
        self.bring_up_to_date(board);
        let range = self.range(self.top, perspective);
        &self.values.as_slice()[range]
    }

    fn range(&self, k: usize, perspective: Color) -> std::ops::Range<usize> {
        let p = self.net.padded();
        let start = (2 * k + perspective.index()) * p;
        start..start + p
    }

    fn reserve(&mut self, positions: usize) {
        let positions = positions.max(2 * self.deltas.len()).max(64);
        self.deltas.resize(positions, Delta::EMPTY);
        self.current.resize(positions, [false; 2]);
        self.orientations
            .resize(positions, [Orientation::default(); 2]);
        self.values.resize(2 * positions * self.net.padded());
    }

    /// Brings both perspectives of the top position (`board`) up to date: each from its
    /// last up-to-date position by the moves since, or from `board` when a move since changed
    /// its orientation (a king move: every feature of that view changes).
    #[inline]
    fn bring_up_to_date(&mut self, board: &Board) {
        for c in Color::ALL {
            let ci = c.index();
            let mut k = self.top;
            // Position 0 is always current, so `k - 1` is only read for k >= 1.
            while !self.current[k][ci] && self.orientations[k][ci] == self.orientations[k - 1][ci] {
                k -= 1;
            }
            if self.current[k][ci] {
                for next in k + 1..=self.top {
                    self.apply(next, c);
                }
            } else {
                let range = self.range(self.top, c);
                self.net
                    .refresh(board, c, &mut self.values.as_mut_slice()[range]);
                self.current[self.top][ci] = true;
            }
        }
    }

    /// Computes `perspective`'s accumulator of position `k` from `k - 1` and the move between.
    fn apply(&mut self, k: usize, perspective: Color) {
        let d = self.deltas[k];
        let p = self.net.padded();
        let net = &*self.net;
        let c = perspective;
        let orientation = self.orientations[k][c.index()];
        let (before, after) = self.values.as_mut_slice().split_at_mut(2 * k * p);
        let off = c.index() * p;
        let src = &before[2 * (k - 1) * p + off..2 * (k - 1) * p + off + p];
        let dst = &mut after[off..off + p];
        let add = |i: usize| net.piece_row(orientation, c, d.adds[i].0, d.adds[i].1);
        let sub = |i: usize| net.piece_row(orientation, c, d.subs[i].0, d.subs[i].1);
        let kernel = net.kernel();
        match (d.n_adds, d.n_subs) {
            (1, 1) => kernel.update(dst, src, [add(0)], [sub(0)]),
            (1, 2) => kernel.update(dst, src, [add(0)], [sub(0), sub(1)]),
            (2, 2) => kernel.update(dst, src, [add(0), add(1)], [sub(0), sub(1)]),
            other => unreachable!("a move places and removes {other:?} pieces"),
        }
        self.current[k][c.index()] = true;
    }
}
