//! `kestrel book` (work in progress).

#[derive(clap::Args)]
pub struct BookArgs {}

pub fn run(_args: BookArgs) -> anyhow::Result<()> {
    anyhow::bail!("this subcommand is not available yet")
}
