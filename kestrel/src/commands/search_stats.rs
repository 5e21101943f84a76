//! `kestrel search_stats` (work in progress).

#[derive(clap::Args)]
pub struct SearchStatsArgs {}

pub fn run(_args: SearchStatsArgs) -> anyhow::Result<()> {
    anyhow::bail!("this subcommand is not available yet")
}
