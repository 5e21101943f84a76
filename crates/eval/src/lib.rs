//! Kestrel's evaluation (skeleton: material only; the full tapered evaluation replaces the
//! internals behind the same API).

use kestrel_chess::{Board, Color, PieceKind};
use kestrel_params::{ParamDecl, ParamTable, ParamValues};

static DECLS: [ParamDecl; 5] = [
    ParamDecl {
        name: "PAWN_VALUE",
        doc: "value of a pawn",
        len: 1,
        tapered: true,
        defaults: &[100, 100],
        min: 0,
        max: 1023,
        bits: 10,
    },
    ParamDecl {
        name: "KNIGHT_VALUE",
        doc: "value of a knight",
        len: 1,
        tapered: true,
        defaults: &[320, 320],
        min: 0,
        max: 1023,
        bits: 10,
    },
    ParamDecl {
        name: "BISHOP_VALUE",
        doc: "value of a bishop",
        len: 1,
        tapered: true,
        defaults: &[330, 330],
        min: 0,
        max: 1023,
        bits: 10,
    },
    ParamDecl {
        name: "ROOK_VALUE",
        doc: "value of a rook",
        len: 1,
        tapered: true,
        defaults: &[500, 500],
        min: 0,
        max: 1023,
        bits: 10,
    },
    ParamDecl {
        name: "QUEEN_VALUE",
        doc: "value of a queen",
        len: 1,
        tapered: true,
        defaults: &[900, 900],
        min: 0,
        max: 2047,
        bits: 11,
    },
];

/// Every evaluation parameter.
pub static EVAL_TABLE: ParamTable = ParamTable {
    section: "eval",
    decls: &DECLS,
};

/// An evaluation function with its parameters, ready for fast use by search.
#[derive(Clone, Debug)]
pub struct Evaluator {
    params: ParamValues,
}

impl Default for Evaluator {
    fn default() -> Self {
        Evaluator::new(ParamValues::defaults(&EVAL_TABLE))
    }
}

impl Evaluator {
    pub fn new(params: ParamValues) -> Evaluator {
        Evaluator { params }
    }

    pub fn params(&self) -> &ParamValues {
        &self.params
    }

    /// Score in centipawns from White's point of view.
    pub fn evaluate_white(&self, board: &Board) -> i32 {
        let mut score = 0;
        for (i, kind) in [
            PieceKind::Pawn,
            PieceKind::Knight,
            PieceKind::Bishop,
            PieceKind::Rook,
            PieceKind::Queen,
        ]
        .into_iter()
        .enumerate()
        {
            let v = self.params.values[2 * i];
            score += v
                * (board.pieces(Color::White, kind).count() as i32
                    - board.pieces(Color::Black, kind).count() as i32);
        }
        score
    }

    /// Score in centipawns from the side to move's point of view (what search uses).
    pub fn evaluate(&self, board: &Board) -> i32 {
        self.evaluate_white(board) * board.side_to_move().sign()
    }
}
