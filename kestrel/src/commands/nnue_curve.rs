//! `kestrel nnue curve`: draw the network's strength by training data and hidden size from a
//! file of measured points (docs/nnue.md, "Strength so far").

use anyhow::anyhow;
use clap::Args;
use kestrel_nnue_train::curve::{read_points, write_curve_chart};
use std::path::PathBuf;

#[derive(Args)]
pub struct NnueCurveArgs {
    /// The measured points: a CSV with the header labels,hidden,positions,elo,error,games,limit.
    #[arg(long, value_name = "FILE.csv")]
    points: PathBuf,
    /// The chart to write (SVG).
    #[arg(long, value_name = "CHART.svg")]
    out: PathBuf,
}

/// Draws the chart from the measured points.
pub fn run(args: NnueCurveArgs) -> anyhow::Result<()> {
    let points = read_points(&args.points).map_err(|e| anyhow!(e))?;
    write_curve_chart(&args.out, &points).map_err(|e| anyhow!(e))?;
    println!("wrote {} ({} points)", args.out.display(), points.len());
    Ok(())
}
