//! `kestrel nnue blend`: one data set whose scores mix Kestrel's own and a mentor's, for a
//! network taught by both (docs/nnue.md).

use super::checked;
use anyhow::{Context, bail};
use clap::Args;
use kestrel_nnue_train::blend::blend;
use kestrel_nnue_train::format::write_all;
use kestrel_nnue_train::progress::read_records;
use kestrel_nnue_train::train::DEFAULT_SCALE;
use std::path::PathBuf;

#[derive(Args)]
pub struct NnueBlendArgs {
    /// Kestrel's own scored positions: a data file (.kpos) or an `nnue data` run folder.
    #[arg(long, value_name = "FILE")]
    own: PathBuf,
    /// The same positions rescored by a mentor: the file or run folder of `nnue label --in OWN`.
    #[arg(long, value_name = "FILE")]
    mentor: PathBuf,
    /// The mentor's share of each blended score, 0 (own only) to 1 (mentor only), taken in
    /// win-probability space σ(cp/K).
    #[arg(long, default_value_t = 0.5, value_parser = checked::probability)]
    mentor_weight: f64,
    /// K of σ(cp/K), as `nnue train --scale`.
    #[arg(long, default_value_t = f64::from(DEFAULT_SCALE), value_parser = checked::positive_f64)]
    scale: f64,
    /// The blended data file to write (.kpos, written atomically; it must not exist).
    #[arg(long, value_name = "OUT.kpos")]
    out: PathBuf,
}

/// Writes the blended data set.
pub fn run(args: NnueBlendArgs) -> anyhow::Result<()> {
    if args.out.exists() {
        bail!("--out {} exists: name another file", args.out.display());
    }
    let own = read_records(std::slice::from_ref(&args.own), None)?;
    let mentor = read_records(std::slice::from_ref(&args.mentor), None)?;
    let (blended, counts) = blend(&own, &mentor, args.mentor_weight, args.scale).map_err(|e| {
        anyhow::anyhow!("{} and {}: {e}", args.own.display(), args.mentor.display())
    })?;
    if blended.is_empty() {
        bail!("no position carries both scores: nothing to write");
    }
    write_all(&args.out, &blended)
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    println!(
        "blended           {} positions (mentor weight {})",
        counts.blended, args.mentor_weight
    );
    println!("not in mentor     {}", counts.not_in_mentor);
    println!("unscored          {}", counts.unscored);
    println!("data              {}", args.out.display());
    Ok(())
}
