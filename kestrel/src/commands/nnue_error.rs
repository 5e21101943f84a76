//! `kestrel nnue error`: how far each evaluation (linear, a params file, a network) is from the
//! scores of a data set (docs/nnue.md).

use super::job_options::threads_or_all_cores;
use anyhow::{Context, bail};
use clap::Args;
use kestrel_nnue_train::eval_error::{Evaluation, measure, read_records, report};
use kestrel_nnue_train::train::DEFAULT_SCALE;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Args)]
pub struct NnueErrorArgs {
    /// Scored positions: data files (.kpos) or run folders of `nnue data`/`nnue label` (their
    /// complete blocks so far), comma-separated or repeated.
    #[arg(long, value_name = "FILE", num_args = 1.., value_delimiter = ',', required = true)]
    data: Vec<PathBuf>,
    /// Evaluations to measure, comma-separated or repeated: `linear` (default values), a params
    /// `.toml` file (the linear evaluation with its `[eval]` values), `builtin` (the compiled-in
    /// network) or a `.knet` network.
    #[arg(
        long = "eval",
        value_name = "EVAL",
        value_delimiter = ',',
        default_values_t = ["linear".to_string(), "builtin".to_string()]
    )]
    evals: Vec<String>,
    /// Measure the first N positions of the data only (scored or not; default: all).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    max_positions: Option<u64>,
    /// K of the loss (σ(cp/K)), as `nnue train --scale`.
    #[arg(long, default_value_t = f64::from(DEFAULT_SCALE))]
    scale: f64,
    /// Worker threads (default: all cores); the figures do not depend on it.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    threads: Option<u64>,
    /// Also write the table's rows to this CSV file (default: none).
    #[arg(long, value_name = "OUT.csv")]
    csv: Option<PathBuf>,
}

/// Prints each evaluation's distance from the data's scores.
pub fn run(args: NnueErrorArgs) -> anyhow::Result<()> {
    if !(args.scale > 0.0 && args.scale.is_finite()) {
        bail!("--scale must be a positive number, not {}", args.scale);
    }
    let evaluations = args
        .evals
        .iter()
        .map(|spec| Evaluation::from_spec(spec))
        .collect::<Result<Vec<_>, _>>()?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads_or_all_cores(args.threads.map(|n| n as usize)))
        .build()
        .context("cannot start the worker threads")?;
    let started = Instant::now();
    let records = read_records(&args.data, args.max_positions.map(|n| n as usize))?;
    let measured = pool.install(|| measure(&records, &evaluations, args.scale))?;
    for e in &evaluations {
        eprintln!("{}: {}", e.name(), e.describe());
    }
    eprintln!(
        "measured in {:.1} s on {} threads",
        started.elapsed().as_secs_f64(),
        pool.current_num_threads()
    );
    let names: Vec<&str> = evaluations.iter().map(Evaluation::name).collect();
    println!("{}", report::data_line(&measured));
    print!("{}", report::table(&measured, &names, args.scale));
    if let Some(path) = &args.csv {
        kestrel_params::atomic::write_atomic(path, report::csv(&measured, &names).as_bytes())
            .with_context(|| format!("--csv {}: cannot write", path.display()))?;
        eprintln!("wrote {}", path.display());
    }
    Ok(())
}
