//! Weighted random choice among book moves.

use super::BookMove;
use rand::Rng;

/// Picks a move with probability proportional to its weight; `None` if all weights are 0.
pub fn choose_weighted<R: Rng + ?Sized>(moves: &[BookMove], rng: &mut R) -> Option<BookMove> {
    let total: u64 = moves.iter().map(|m| m.weight as u64).sum();
    if total == 0 {
        return None;
    }
    let mut ticket = rng.random_range(0..total);
    for m in moves {
        if ticket < m.weight as u64 {
            return Some(*m);
        }
        ticket -= m.weight as u64;
    }
    unreachable!("the ticket is below the total weight")
}
