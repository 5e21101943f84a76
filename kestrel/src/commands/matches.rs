//! `kestrel matches` (work in progress).

#[derive(clap::Args)]
pub struct MatchArgs {}

pub fn run(_args: MatchArgs) -> anyhow::Result<()> {
    anyhow::bail!("this subcommand is not available yet")
}
