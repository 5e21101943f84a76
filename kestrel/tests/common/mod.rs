//! Helpers the command-line tests share: run the built binary, read its output, a temp folder.
// Each test binary uses a different subset of these helpers.
#![allow(dead_code)]

pub mod ray;

use kestrel_testdata::ScratchDir;
use std::path::Path;
use std::process::{Command, Output};

/// Runs the `kestrel` binary that Cargo built for these tests.
pub fn kestrel(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kestrel"))
        .args(args)
        .output()
        .expect("kestrel runs")
}

/// Standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// An empty folder for one test (named by the test and this process), removed when the test
/// passes.
pub fn temp_dir(name: &str) -> ScratchDir {
    ScratchDir::new(name)
}

/// A file of `crates/testdata/fixtures`, as a command-line argument.
pub fn fixture(name: &str) -> String {
    kestrel_testdata::fixture(name).display().to_string()
}

/// Starts `kestrel args` (standard output discarded) and kills it as soon as `file` exists, or
/// lets it end first: how a test interrupts a run right after its first checkpoint.
pub fn kill_once_written(args: &[&str], file: &Path) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kestrel"))
        .args(args)
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("kestrel starts");
    while !file.exists() && child.try_wait().unwrap().is_none() {
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
}
