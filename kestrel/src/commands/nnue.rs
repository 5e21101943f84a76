//! `kestrel nnue data|label|blend|train|error|curve`: the learned evaluation's training data, trainer,
//! error against a data set and strength curve (see docs/nnue.md).

use clap::{Args, Subcommand};

#[derive(Args)]
pub struct NnueArgs {
    #[command(subcommand)]
    command: NnueCommand,
}

#[derive(Subcommand)]
enum NnueCommand {
    /// Make training positions by Kestrel's self-play at fixed nodes (resumable).
    Data(Box<super::nnue_data::NnueDataArgs>),
    /// Rescore a data file's positions by a UCI mentor (resumable).
    Label(Box<super::nnue_label::NnueLabelArgs>),
    /// Mix Kestrel's own scores with a mentor's rescoring of the same positions into one data set.
    Blend(super::nnue_blend::NnueBlendArgs),
    /// Train a network on scored positions (every core; resumable) and export it quantised.
    Train(Box<super::nnue_train::NnueTrainArgs>),
    /// Measure how far evaluations (linear, params files, networks) are from a data set's scores.
    Error(super::nnue_error::NnueErrorArgs),
    /// Draw the network's strength by training positions and hidden size from measured points.
    Curve(super::nnue_curve::NnueCurveArgs),
}

/// Runs the `nnue` subcommand.
pub fn run(args: NnueArgs) -> anyhow::Result<()> {
    match args.command {
        NnueCommand::Data(args) => super::nnue_data::run(*args),
        NnueCommand::Label(args) => super::nnue_label::run(*args),
        NnueCommand::Blend(args) => super::nnue_blend::run(args),
        NnueCommand::Train(args) => super::nnue_train::run(*args),
        NnueCommand::Error(args) => super::nnue_error::run(args),
        NnueCommand::Curve(args) => super::nnue_curve::run(args),
    }
}
