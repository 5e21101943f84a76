//! Threats: enemy pieces attacked by cheaper attackers or left undefended, and the safe
//! squares from which our pieces could check the enemy king. Both need the two sides' attack
//! maps, which the context computes only when these terms weigh something.

use super::context::{Context, SLIDERS_AND_KNIGHTS};
use super::groups::{SAFE_CHECKS, THREATS};
use super::n;
use crate::sink::Sink;
use crate::table::Term;
use kestrel_chess::attacks::{bishop_attacks, knight_attacks, rook_attacks};
use kestrel_chess::{Board, Color, PieceKind};

pub(super) fn threats<S: Sink>(board: &Board, ctx: &Context, us: Color, sink: &mut S) {
    let them = us.flip();
    let (u, t) = (us.index(), them.index());
    let by = &ctx.attacked_by[u];
    let defended = ctx.attacked[t];
    if sink.wants(THREATS) {
        let minors = by[PieceKind::Knight.index()] | by[PieceKind::Bishop.index()];
        let rooks = by[PieceKind::Rook.index()];
        // A defended pawn attacked by a piece is no threat: only loose pawns count.
        let loose_pawns = board.pieces(them, PieceKind::Pawn) & !defended;
        sink.add(us, Term::THREAT_BY_MINOR, 0, n(minors & loose_pawns));
        sink.add(us, Term::THREAT_BY_ROOK, 0, n(rooks & loose_pawns));
        // Victims by kind: THREAT_BY_PAWN entries 0..4, the minor/rook threats' entries 1..5.
        // Most positions have few threats: the kinds nothing attacks add nothing.
        let attacked = (ctx.p.pawn_attacks[u] | minors | rooks) & board.color(them);
        for (i, kind) in SLIDERS_AND_KNIGHTS.into_iter().enumerate() {
            let victims = board.pieces(them, kind) & attacked;
            if victims.is_empty() {
                continue;
            }
            sink.add(
                us,
                Term::THREAT_BY_PAWN,
                i,
                n(ctx.p.pawn_attacks[u] & victims),
            );
            sink.add(us, Term::THREAT_BY_MINOR, i + 1, n(minors & victims));
            sink.add(us, Term::THREAT_BY_ROOK, i + 1, n(rooks & victims));
        }
        let pieces = board.color(them) & !board.pieces(them, PieceKind::King);
        sink.add(
            us,
            Term::HANGING,
            0,
            n(ctx.attacked[u] & pieces & !defended),
        );
    }
    if sink.wants(SAFE_CHECKS) {
        let king = ctx.king[t];
        let safe = !board.color(us) & !defended;
        let diagonal = bishop_attacks(king, ctx.occ) & safe;
        let straight = rook_attacks(king, ctx.occ) & safe;
        let knight = knight_attacks(king) & safe;
        let checks = [
            knight & by[PieceKind::Knight.index()],
            diagonal & by[PieceKind::Bishop.index()],
            straight & by[PieceKind::Rook.index()],
            (diagonal | straight) & by[PieceKind::Queen.index()],
        ];
        for (i, squares) in checks.into_iter().enumerate() {
            sink.add(us, Term::SAFE_CHECK, i, n(squares));
        }
    }
}
