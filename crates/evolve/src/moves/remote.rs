//! The move-agreement fitnesses as data for cluster workers: settings plus the training
//! positions with their played moves as one blob (shipped once per node); a worker rebuilds
//! the 1-ply leaf matrix (depth 1) or searches (deeper) exactly as the leader does.

use crate::mentor::organism::GenomeKind;
use crate::mentor::run::ParamSet;
use crate::moves::data::MovePosition;
use crate::moves::fitness::{ChildSet, MovesFitness};
use crate::moves::run::base_values;
use crate::moves::search_fitness::SearchMovesFitness;
use kestrel_chess::Board;
use kestrel_eval::{EVAL_TABLE, Evaluator};
use kestrel_ga::cluster::{
    BlobStore, FitnessSpec, RemoteFitness, get_lines, put_lines, remote_fitness,
};
use kestrel_ga::{BitGenome, FitnessFunction, RealGenome};
use kestrel_params::{Coding, ParamValues};
use serde::{Deserialize, Serialize};

/// Everything that defines the moves GA's fitness.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MovesRemoteSpec {
    /// Bit or real genomes.
    pub genome: GenomeKind,
    /// Which evaluation values evolve.
    pub set: ParamSet,
    /// Bit coding of the schema (bit genomes only).
    pub coding: Coding,
    /// 1: the leaf-matrix fitness; more: real searches of that depth.
    pub depth: i32,
    /// Longest capture line followed to a leaf, in plies (0: the children themselves).
    pub max_captures: i32,
    /// Training positions drawn per generation (0: all).
    pub sample: usize,
    /// Names the data (positions, leaves, parameter set) for checkpoints.
    pub data_id: String,
    /// Blob hash: the training positions, one `FEN<TAB>played move (UCI)` line each.
    pub train: String,
}

impl FitnessSpec for MovesRemoteSpec {
    const KIND: &'static str = "moves";
    fn blobs(&self) -> Vec<String> {
        vec![self.train.clone()]
    }
    fn build(&self, blobs: &BlobStore) -> Result<Box<dyn RemoteFitness>, String> {
        let positions = load_positions(blobs, &self.train)?;
        let schema = self.set.schema(self.coding);
        if self.depth == 1 {
            let expert = Evaluator::new(ParamValues::defaults(&EVAL_TABLE));
            let train = ChildSet::build(
                &positions,
                &schema,
                &base_values(),
                &expert,
                self.max_captures,
            );
            return Ok(boxed(
                self.genome,
                MovesFitness {
                    schema,
                    train,
                    sample: self.sample,
                    data_id: self.data_id.clone(),
                },
            ));
        }
        Ok(boxed(
            self.genome,
            SearchMovesFitness {
                schema,
                positions,
                depth: self.depth,
                sample: self.sample,
                data_id: self.data_id.clone(),
            },
        ))
    }
}

/// Stores training positions as one blob; returns its hash for [`MovesRemoteSpec::train`].
pub fn store_positions(positions: &[MovePosition], store: &BlobStore) -> Result<String, String> {
    let lines: Vec<String> = positions
        .iter()
        .map(|p| format!("{}\t{}", p.board.to_fen(), p.played))
        .collect();
    put_lines(store, &lines)
}

fn load_positions(store: &BlobStore, hash: &str) -> Result<Vec<MovePosition>, String> {
    get_lines(store, hash)?
        .iter()
        .enumerate()
        .map(|(i, line)| {
            let bad = |e: String| format!("moves blob line {}: {e}", i + 1);
            let (fen, mv) = line.split_once('\t').ok_or_else(|| bad("no move".into()))?;
            let board = Board::from_fen(fen).map_err(|e| bad(e.to_string()))?;
            let played = board.parse_uci_move(mv).map_err(|e| bad(e.to_string()))?;
            Ok(MovePosition {
                board,
                played,
                game: 0,
                player: String::new(),
            })
        })
        .collect()
}

fn boxed<F>(genome: GenomeKind, fitness: F) -> Box<dyn RemoteFitness>
where
    F: FitnessFunction<BitGenome> + FitnessFunction<RealGenome> + 'static,
{
    match genome {
        GenomeKind::Bits => remote_fitness::<BitGenome, _>(fitness),
        GenomeKind::Real => remote_fitness::<RealGenome, _>(fitness),
    }
}
