//! The default mode: the UCI loop on stdin/stdout.

pub fn run() -> anyhow::Result<()> {
    kestrel_uci::run_stdio()?;
    Ok(())
}
