//! The default mode: the UCI loop on stdin/stdout.

/// Speaks UCI on stdin/stdout until `quit` or the end of input.
pub fn run() -> anyhow::Result<()> {
    kestrel_uci::run_stdio()?;
    Ok(())
}
