//! The quiet moves that give check, generated directly: quiescence searches them at its first
//! ply, and generating every quiet move to keep a few cost more than the rest of the node.

use crate::movegen::GenKind;
use crate::{Board, MoveList};

impl Board {
    /// Appends the quiet moves but castling that give check, in the order in which
    /// `generate(GenKind::Quiet, ..)` lists them: exactly that list filtered by
    /// [`crate::CheckInfo::gives_check`], without building the moves that are dropped.
    pub fn generate_quiet_checks(&self, list: &mut MoveList) {
        let info = self.check_info();
        self.generate_masked(
            GenKind::Quiet,
            |from, kind| info.check_targets(from, kind),
            list,
        );
    }
}
