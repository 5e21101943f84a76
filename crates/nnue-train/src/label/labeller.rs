//! What a labelling run asks of its mentor: verdicts on batches of positions, whether the
//! mentor runs here ([`super::UciPool`]) or on cluster workers ([`super::RemoteLabeller`]).

use super::pool::Verdict;
use crate::format::PackedPosition;

/// Scores batches of positions for [`super::run_label`].
pub trait Labeller {
    /// Names the mentor and its limit, e.g. `uci:/usr/games/stockfish [Stockfish 15.1]/d8`;
    /// a run is continued only by a labeller with the same key, wherever it runs.
    fn key(&self) -> String;
    /// Mentor restarts (crashes and hangs) so far.
    fn restarts(&self) -> usize;
    /// The verdicts on `records`, in their order.
    fn label(&mut self, records: &[PackedPosition]) -> Result<Vec<Verdict>, String>;
}
