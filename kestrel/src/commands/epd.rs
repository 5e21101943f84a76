//! `kestrel epd` (work in progress).

#[derive(clap::Args)]
pub struct EpdArgs {}

pub fn run(_args: EpdArgs) -> anyhow::Result<()> {
    anyhow::bail!("this subcommand is not available yet")
}
