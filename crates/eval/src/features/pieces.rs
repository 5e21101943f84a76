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

pub(super) fn pieces<S: Sink>(board: &Board, ctx: &Context, us: Color, sink: &mut S) {
    let them = us.flip();
    let own = board.color(us);
    let enemy = board.color(them);
    let protectable = own & !board.pieces(us, PieceKind::King);
    let mobility_area = !own & !ctx.p.pawn_attacks[them.index()];
    let zone = ctx.king_zone[them.index()];
    let activity = sink.wants(ACTIVITY);
    let safe_mobility = sink.wants(SAFE_MOBILITY);
    let pressure = sink.wants(KING_PRESSURE);
    let danger = sink.wants(KING_DANGER);
    let knights = sink.wants(KNIGHT_PLACEMENT);
    let rooks = sink.wants(ROOK_PLACEMENT);
    let mobility_tables = sink.wants(MOBILITY_TABLES);

    if activity {
        pawn_activity(ctx, us, enemy, protectable, sink);
    }

    let mut attackers = 0;
    let mut units = 0;
    let mut zone_hits = Bitboard::EMPTY;
    if sink.wants(NEEDS_PIECE_ATTACKS) {
        for kind in SLIDERS_AND_KNIGHTS {
            let k = kind.index();
            for sq in board.pieces(us, kind) {
                let att = match &ctx.attacks_from {
                    Some(from) => from[sq.index()],
                    None => attacks(kind, sq, ctx.occ),
                };
                if activity {
                    sink.add(us, Term::MOBILITY, k, n(att & !own));
                    sink.add(us, Term::THREATS, k, n(att & enemy));
                    sink.add(us, Term::PROTECTS, k, n(att & protectable));
                }
                if mobility_tables {
                    let moves = n(att & mobility_area) as usize;
                    sink.add(us, MOBILITY_TABLE[k - 1], moves, 1);
                }
                let hits = att & zone;
                if hits.any() {
                    attackers += 1;
                    units += ATTACK_UNITS[k - 1];
                    zone_hits |= hits;
                    if pressure {
                        sink.add_mg(us, Term::KING_PRESSURE_MULT, 0, n(hits));
                    }
                }
                match kind {
                    PieceKind::Knight if knights => knight(ctx, us, sq, sink),
                    PieceKind::Knight => {}
                    PieceKind::Bishop if safe_mobility => {
                        sink.add(us, Term::BISHOP_MOBILITY, 0, n(att & mobility_area))
                    }
                    PieceKind::Rook => {
                        if safe_mobility {
                            sink.add(us, Term::ROOK_MOBILITY, 0, n(att & mobility_area));
                        }
                        if rooks {
                            rook(board, ctx, us, sq, att, sink);
                        }
                    }
                    PieceKind::Queen if safe_mobility => {
                        sink.add(us, Term::QUEEN_MOBILITY, 0, n(att & mobility_area))
                    }
                    _ => {}
                }
            }
        }
    } else if knights {
        for sq in board.pieces(us, PieceKind::Knight) {
            knight(ctx, us, sq, sink);
        }
    }
    if danger && attackers >= 2 {
        let bucket = (units + n(zone_hits)).min(DANGER_BUCKETS - 1);
        sink.add(us, Term::KING_DANGER, bucket as usize, 1);
    }
    if sink.wants(BISHOP_PAIR) && board.pieces(us, PieceKind::Bishop).several() {
        sink.add(us, Term::BISHOP_PAIR, 0, 1);
    }

    if activity {
        let king = king_attacks(ctx.king[us.index()]);
        let k = PieceKind::King.index();
        sink.add(us, Term::MOBILITY, k, n(king & !own));
        sink.add(us, Term::THREATS, k, n(king & enemy));
        sink.add(us, Term::PROTECTS, k, n(king & protectable));
    }
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
