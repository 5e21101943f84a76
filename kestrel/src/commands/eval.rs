//! `kestrel eval` (work in progress).

#[derive(clap::Args)]
pub struct EvalArgs {}

pub fn run(_args: EvalArgs) -> anyhow::Result<()> {
    anyhow::bail!("this subcommand is not available yet")
}
