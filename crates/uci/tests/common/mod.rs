//! A capturing output and helpers for driving [`UciEngine`] in-process.
// Each test binary uses a different subset of these helpers.
#![allow(dead_code)]

use kestrel_uci::{Output, UciEngine};
use std::io::Write;
use std::sync::{Arc, Mutex};

#[derive(Clone, Default)]
pub struct Capture(Arc<Mutex<Vec<u8>>>);

impl Write for Capture {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Capture {
    /// Every line written so far, and clears the buffer.
    pub fn take_lines(&self) -> Vec<String> {
        let bytes = std::mem::take(&mut *self.0.lock().unwrap());
        String::from_utf8(bytes)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect()
    }
}

pub fn engine() -> (UciEngine, Capture) {
    let cap = Capture::default();
    (UciEngine::new(Output::new(cap.clone())), cap)
}

/// Feeds lines, waits for any search to finish, and returns the output.
pub fn send(engine: &mut UciEngine, cap: &Capture, lines: &[&str]) -> Vec<String> {
    for l in lines {
        engine.handle_line(l);
    }
    engine.wait_for_search();
    cap.take_lines()
}

pub fn bestmoves(lines: &[String]) -> Vec<&String> {
    lines.iter().filter(|l| l.starts_with("bestmove")).collect()
}

pub fn info_strings(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info string"))
        .collect()
}
