//! The mentor fitness as data for cluster workers: settings plus the training positions with
//! their mentor labels (computed up front by the leader), so a worker needs no engine.

use crate::mentor::fitness::{LabelledSet, MentorFitness};
use crate::mentor::organism::GenomeKind;
use crate::mentor::run::ParamSet;
use kestrel_chess::Board;
use kestrel_eval::EVAL_TABLE;
use kestrel_ga::cluster::blobs::BlobStore;
use kestrel_ga::cluster::registry::{FitnessSpec, RemoteFitness, remote_fitness};
use kestrel_ga::{BitGenome, RealGenome};
use kestrel_params::{Coding, ParamValues};
use serde::{Deserialize, Serialize};

/// Everything that defines a [`MentorFitness`]; `build` rebuilds it in another process.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MentorFitnessSpec {
    /// Bit or real genomes.
    pub genome: GenomeKind,
    /// Which evaluation values evolve.
    pub set: ParamSet,
    /// Bit coding of the schema (bit genomes only).
    pub coding: Coding,
    /// Training positions drawn per generation.
    pub sample: usize,
    /// Names the data for checkpoints (part of the fingerprint).
    pub data_id: String,
    /// Blob hash: the training positions, one `FEN<TAB>label` line each.
    pub train: String,
}

impl FitnessSpec for MentorFitnessSpec {
    const KIND: &'static str = "mentor";
    fn blobs(&self) -> Vec<String> {
        vec![self.train.clone()]
    }
    fn build(&self, blobs: &BlobStore) -> Result<Box<dyn RemoteFitness>, String> {
        let fitness = self.fitness(blobs)?;
        Ok(match self.genome {
            GenomeKind::Bits => remote_fitness::<BitGenome, _>(fitness),
            GenomeKind::Real => remote_fitness::<RealGenome, _>(fitness),
        })
    }
}

impl MentorFitnessSpec {
    /// Stores training `boards` with their `labels` in `store` as one blob; returns the hash
    /// for [`MentorFitnessSpec::train`].
    pub fn store_train(
        boards: &[Board],
        labels: &[i32],
        store: &BlobStore,
    ) -> Result<String, String> {
        let mut text = String::new();
        for (b, l) in boards.iter().zip(labels) {
            text.push_str(&format!("{}\t{l}\n", b.to_fen()));
        }
        store.put(text.as_bytes())
    }

    /// The fitness itself (the genome type is chosen by the caller through `G`).
    pub fn fitness(&self, blobs: &BlobStore) -> Result<MentorFitness, String> {
        let bytes = blobs.get(&self.train)?;
        let text = String::from_utf8(bytes).map_err(|_| "training blob is not UTF-8")?;
        let (mut boards, mut labels) = (Vec::new(), Vec::new());
        for (i, line) in text.lines().enumerate() {
            let (fen, label) = line
                .split_once('\t')
                .ok_or_else(|| format!("training blob line {}: no label", i + 1))?;
            boards.push(
                Board::from_fen(fen).map_err(|e| format!("training blob line {}: {e}", i + 1))?,
            );
            labels.push(
                label
                    .parse::<i32>()
                    .map_err(|e| format!("training blob line {}: {e}", i + 1))?,
            );
        }
        let schema = self.set.schema(self.coding);
        let base = ParamValues::zeros(&EVAL_TABLE);
        Ok(MentorFitness {
            train: LabelledSet::new(&boards, labels, &schema, &base),
            schema,
            sample: self.sample,
            data_id: self.data_id.clone(),
        })
    }
}
