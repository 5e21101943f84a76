//! The input loop: reads raw lines (any bytes), hands them to the engine, quits on EOF.

use crate::engine::{Flow, UciEngine};
use crate::output::Output;
use std::io::{BufRead, Read, Write};

/// Longest accepted input line; longer lines are skipped whole (a game of 1000 moves is 5 KB).
pub const MAX_LINE: usize = 1 << 20;

/// Runs the protocol until `quit` or end of input (which counts as `quit`).
pub fn run<R: BufRead>(mut input: R, output: impl Write + Send + 'static) -> std::io::Result<()> {
    let out = Output::new(output);
    let mut engine = UciEngine::new(out.clone());
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let n = input
            .by_ref()
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut buf)?;
        if n == 0 {
            engine.quit();
            return Ok(());
        }
        if buf.len() > MAX_LINE && buf.last() != Some(&b'\n') {
            skip_rest_of_line(&mut input)?;
            out.info_string(&format!(
                "ignored an input line longer than {MAX_LINE} bytes"
            ));
            continue;
        }
        while matches!(buf.last(), Some(b'\n' | b'\r')) {
            buf.pop();
        }
        if engine.handle_bytes(&buf) == Flow::Quit {
            return Ok(());
        }
    }
}

fn skip_rest_of_line<R: BufRead>(input: &mut R) -> std::io::Result<()> {
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            return Ok(());
        }
        if let Some(i) = chunk.iter().position(|&b| b == b'\n') {
            input.consume(i + 1);
            return Ok(());
        }
        let len = chunk.len();
        input.consume(len);
    }
}
