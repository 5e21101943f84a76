//! Kestrel's own search as a player, in-process (no UCI overhead).

use crate::player::{MoveRequest, Player, PlayerError, PlayerMove};
use kestrel_chess::Board;
use kestrel_search::{EngineConfig, Searcher};

/// A built-in engine configuration with its own searcher (hash table and histories).
pub struct BuiltinPlayer {
    name: String,
    searcher: Searcher,
}

impl BuiltinPlayer {
    /// A player named `name` searching with `config`, on a fresh searcher.
    pub fn new(name: String, config: EngineConfig) -> BuiltinPlayer {
        BuiltinPlayer {
            name,
            searcher: Searcher::new(config),
        }
    }
}

impl Player for BuiltinPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self) -> Result<(), PlayerError> {
        // A fresh game starts from a clean hash table, which keeps depth/node games
        // reproducible whatever was played before on this thread.
        self.searcher.new_game();
        Ok(())
    }

    fn choose_move(&mut self, request: &MoveRequest) -> Result<PlayerMove, PlayerError> {
        // The searcher leaves its stop flag set after a search; clear it for this one.
        self.searcher.control().reset();
        let result = self
            .searcher
            .search(request.board, request.limits, &mut |_| {});
        let mv = result.best_move.ok_or_else(|| {
            PlayerError::Protocol("search returned no move in a position with legal moves".into())
        })?;
        Ok(PlayerMove {
            mv,
            score: Some(result.score),
            depth: result.depth,
            nodes: result.nodes,
        })
    }

    fn evaluate_white(&mut self, board: &Board) -> Option<i32> {
        let config = self.searcher.config();
        Some(match &config.network {
            Some(net) => net.evaluate(board) * board.side_to_move().sign(),
            None => config.evaluator.evaluate_white(board),
        })
    }
}
