//! `kestrel bench` (work in progress).

#[derive(clap::Args)]
pub struct BenchArgs {}

pub fn run(_args: BenchArgs) -> anyhow::Result<()> {
    anyhow::bail!("this subcommand is not available yet")
}
