//! `kestrel evolve` (work in progress).

#[derive(clap::Args)]
pub struct EvolveArgs {}

pub fn run(_args: EvolveArgs) -> anyhow::Result<()> {
    anyhow::bail!("this subcommand is not available yet")
}
