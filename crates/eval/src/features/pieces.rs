//! Piece activity: the teaching engine's mobility/threats/protects per kind, the compact
//! mobility terms, knight, bishop and rook specifics, and attacks on the enemy king.

use super::context::{Context, SLIDERS_AND_KNIGHTS, attacks};
use super::groups::{
    ACTIVITY, BISHOP_PAIR, KING_DANGER, KING_PRESSURE, KNIGHT_PLACEMENT, MOBILITY_TABLES,
    NEEDS_PIECE_ATTACKS, ROOK_PLACEMENT, SAFE_MOBILITY,
};
use super::n;
use crate::bits::{pawn_captures, relative_rank};
use crate::sink::Sink;
use crate::table::Term;
use kestrel_chess::attacks::king_attacks;
use kestrel_chess::{Bitboard, Board, Color, PieceKind, Square};

/// Fixed king-attack units per attacking kind (knight, bishop, rook, queen).
const ATTACK_UNITS: [i32; 4] = [2, 2, 3, 5];
const DANGER_BUCKETS: i32 = 16;

/// Mobility table per kind (knight, bishop, rook, queen); each is as long as the most moves.
const MOBILITY_TABLE: [Term; 4] = [
    Term::MOBILITY_KNIGHT,
    Term::MOBILITY_BISHOP,
    Term::MOBILITY_ROOK,
    Term::MOBILITY_QUEEN,
];

/// What one side's piece loop needs to know, fixed for the whole loop.
struct Side {
    us: Color,
    own: Bitboard,
    enemy: Bitboard,
    /// Own pieces but the king: what "protects" counts.
    protectable: Bitboard,
    /// Squares neither own-occupied nor attacked by enemy pawns.
    mobility_area: Bitboard,
    /// The enemy king's zone.
    zone: Bitboard,
    activity: bool,
    safe_mobility: bool,
    mobility_tables: bool,
    knights: bool,
    rooks: bool,
}

/// Attacks on the enemy king's zone, summed over the pieces (king danger, king pressure).
#[derive(Default)]
struct KingAttack {
    attackers: i32,
    units: i32,
    zone_hits: Bitboard,
    /// Zone squares attacked, counted per attacking piece.
    pressure: i32,
}

/// Per-piece terms of `us`. With `attack_maps`, also fills `us`'s maps in
/// [`Context::attacked_by`] and [`Context::attacked`] from the same attack look-ups (the
/// threat terms then need both sides' maps).
pub(super) fn pieces<S: Sink>(
    board: &Board,
    ctx: &mut Context,
    us: Color,
    attack_maps: bool,
    sink: &mut S,
) {
    let them = us.flip();
    let own = board.color(us);
    let enemy = board.color(them);
    let protectable = own & !board.pieces(us, PieceKind::King);
    let side = Side {
        us,
        own,
        enemy,
        protectable,
        mobility_area: !own & !ctx.p.pawn_attacks[them.index()],
        zone: ctx.king_zone[them.index()],
        activity: sink.wants(ACTIVITY),
        safe_mobility: sink.wants(SAFE_MOBILITY),
        mobility_tables: sink.wants(MOBILITY_TABLES),
        knights: sink.wants(KNIGHT_PLACEMENT),
        rooks: sink.wants(ROOK_PLACEMENT),
    };
    if side.activity {
        pawn_activity(ctx, us, enemy, protectable, sink);
    }

    let mut king = KingAttack::default();
    if attack_maps || sink.wants(NEEDS_PIECE_ATTACKS) {
        for kind in SLIDERS_AND_KNIGHTS {
            let att = kind_terms(board, ctx, &side, kind, &mut king, sink);
            ctx.attacked_by[us.index()][kind.index()] = att;
        }
    } else if side.knights {
        for sq in board.pieces(us, PieceKind::Knight) {
            knight(ctx, us, sq, sink);
        }
    }
    if attack_maps {
        ctx.finish_attack_maps(us);
    }
    if sink.wants(KING_PRESSURE) {
        sink.add_mg(us, Term::KING_PRESSURE_MULT, 0, king.pressure);
    }
    if sink.wants(KING_DANGER) && king.attackers >= 2 {
        let bucket = (king.units + n(king.zone_hits)).min(DANGER_BUCKETS - 1);
        sink.add(us, Term::KING_DANGER, bucket as usize, 1);
    }
    if sink.wants(BISHOP_PAIR) && board.pieces(us, PieceKind::Bishop).several() {
        sink.add(us, Term::BISHOP_PAIR, 0, 1);
    }

    if side.activity {
        let king = king_attacks(ctx.king[us.index()]);
        let k = PieceKind::King.index();
        sink.add(us, Term::MOBILITY, k, n(king & !own));
        sink.add(us, Term::THREATS, k, n(king & enemy));
        sink.add(us, Term::PROTECTS, k, n(king & protectable));
    }
}

/// The terms of `side`'s pieces of `kind` (knight, bishop, rook or queen); returns the union
/// of their attacks. Counts that are linear in the pieces are summed over the kind first, so
/// each such term is added once per kind (the same sum, fewer additions).
#[inline(always)]
fn kind_terms<S: Sink>(
    board: &Board,
    ctx: &Context,
    side: &Side,
    kind: PieceKind,
    king: &mut KingAttack,
    sink: &mut S,
) -> Bitboard {
    let us = side.us;
    let squares = board.pieces(us, kind);
    if squares.is_empty() {
        return Bitboard::EMPTY;
    }
    let k = kind.index();
    let mut union = Bitboard::EMPTY;
    let (mut mobility, mut threats, mut protects, mut safe) = (0, 0, 0, 0);
    for sq in squares {
        let att = attacks(kind, sq, ctx.occ);
        union |= att;
        if side.activity {
            mobility += n(att & !side.own);
            threats += n(att & side.enemy);
            protects += n(att & side.protectable);
        }
        let moves = n(att & side.mobility_area);
        safe += moves;
        if side.mobility_tables {
            sink.add(us, MOBILITY_TABLE[k - 1], moves as usize, 1);
        }
        let hits = att & side.zone;
        if hits.any() {
            king.attackers += 1;
            king.units += ATTACK_UNITS[k - 1];
            king.zone_hits |= hits;
            king.pressure += n(hits);
        }
        match kind {
            PieceKind::Knight if side.knights => knight(ctx, us, sq, sink),
            PieceKind::Rook if side.rooks => rook(board, ctx, us, sq, att, sink),
            _ => {}
        }
    }
    if side.activity {
        sink.add(us, Term::MOBILITY, k, mobility);
        sink.add(us, Term::THREATS, k, threats);
        sink.add(us, Term::PROTECTS, k, protects);
    }
    if side.safe_mobility {
        match kind {
            PieceKind::Bishop => sink.add(us, Term::BISHOP_MOBILITY, 0, safe),
            PieceKind::Rook => sink.add(us, Term::ROOK_MOBILITY, 0, safe),
            PieceKind::Queen => sink.add(us, Term::QUEEN_MOBILITY, 0, safe),
            _ => {}
        }
    }
    union
}

/// Pawn mobility (pushes and captures), threats and protects, counted per pawn.
fn pawn_activity<S: Sink>(
    ctx: &Context,
    us: Color,
    enemy: Bitboard,
    protectable: Bitboard,
    sink: &mut S,
) {
    let pawns = ctx.pawns[us.index()];
    let (west, east) = pawn_captures(pawns, us);
    let pushes = pawns.forward(us) & !ctx.occ;
    let double_pushes = (pushes & relative_rank(us, 2)).forward(us) & !ctx.occ;
    let threats = n(west & enemy) + n(east & enemy);
    let p = PieceKind::Pawn.index();
    sink.add(
        us,
        Term::MOBILITY,
        p,
        n(pushes) + n(double_pushes) + threats,
    );
    sink.add(us, Term::THREATS, p, threats);
    sink.add(
        us,
        Term::PROTECTS,
        p,
        n(west & protectable) + n(east & protectable),
    );
}

fn knight<S: Sink>(ctx: &Context, us: Color, sq: Square, sink: &mut S) {
    let (f, r) = (sq.file(), sq.rank());
    let ring = f.min(7 - f).min(r).min(7 - r);
    sink.add(us, Term::KNIGHT_SQ_MULT, 0, ring as i32);
    let rank = sq.relative_rank(us);
    if (3..=5).contains(&rank) && !ctx.p.pawn_attack_span[us.flip().index()].contains(sq) {
        let supported = ctx.p.pawn_attacks[us.index()].contains(sq) as i32;
        sink.add(us, Term::KNIGHT_OUTPOST_MULT, 0, 1 + supported);
    }
}

fn rook<S: Sink>(board: &Board, ctx: &Context, us: Color, sq: Square, att: Bitboard, sink: &mut S) {
    let them = us.flip();
    let file = Bitboard::file(sq.file());
    let own_pawns = ctx.pawns[us.index()];
    let their_pawns = ctx.pawns[them.index()];
    if (file & (own_pawns | their_pawns)).is_empty() {
        sink.add(us, Term::ROOK_OPEN_FILE, 0, 1);
    } else if (file & own_pawns).is_empty() {
        sink.add(us, Term::ROOK_SEMI_OPEN_FILE, 0, 1);
        if (file & ctx.weak_pawns(them)).any() {
            sink.add(us, Term::ROOK_ATCK_WEAK_PAWN_OPEN_COLUMN, 0, 1);
        }
    }
    sink.add(us, Term::ROOK_COLUMN_MULT, 0, n(att & file));
    let their_king = ctx.king[them.index()];
    if sq.relative_rank(us) == 6
        && (their_king.relative_rank(us) == 7 || (their_pawns & relative_rank(us, 6)).any())
    {
        sink.add(us, Term::ROOK_7TH_RANK, 0, 1);
    }
    if (att & board.pieces(us, PieceKind::Rook)).any() {
        sink.add(us, Term::ROOK_CONNECTED, 0, 1);
    }
    let king_file = their_king.file();
    match sq.file().abs_diff(king_file) {
        0 => sink.add_mg(us, Term::ROOK_ATTACK_KING_FILE, 0, 1),
        1 if matches!(king_file, 0 | 1 | 6 | 7) => {
            sink.add_mg(us, Term::ROOK_ATTACK_KING_ADJ_FILE_ABGH, 0, 1)
        }
        1 => sink.add_mg(us, Term::ROOK_ATTACK_KING_ADJ_FILE, 0, 1),
        _ => {}
    }
}
