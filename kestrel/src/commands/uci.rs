//! The default mode: the UCI loop on stdin/stdout.

pub fn run() -> anyhow::Result<()> {
    anyhow::bail!("the UCI loop is not available yet")
}
