//! The Python side as a child process: `python3 -m kestrel_ray` speaking JSON lines over its
//! stdin/stdout. Every wait is bounded or ends when the child does, so nothing hangs.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Lines of the child's stderr kept for error messages.
const STDERR_TAIL: usize = 25;

/// A running driver process.
pub struct DriverProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    replies: Receiver<String>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    /// How long dropping waits for a clean shutdown (zero until the driver said hello).
    grace: Duration,
}

impl DriverProcess {
    /// Starts `program args...` with piped stdin/stdout/stderr.
    pub fn spawn(program: &str, args: &[String]) -> Result<Self, String> {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start '{program}' for the Ray executor: {e}"))?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr_pipe = child.stderr.take().expect("piped stderr");
        let (tx, replies) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let tail = Arc::clone(&stderr);
        std::thread::spawn(move || {
            for line in BufReader::new(stderr_pipe).lines() {
                let Ok(line) = line else { break };
                let mut t = tail.lock().expect("stderr tail lock");
                if t.len() == STDERR_TAIL {
                    t.pop_front();
                }
                t.push_back(line);
            }
        });
        Ok(DriverProcess {
            child,
            stdin,
            replies,
            stderr,
            grace: Duration::ZERO,
        })
    }

    /// The last lines the child wrote to stderr (for error messages).
    pub fn stderr_tail(&self) -> String {
        let t = self.stderr.lock().expect("stderr tail lock");
        if t.is_empty() {
            return "(no output)".into();
        }
        t.iter().cloned().collect::<Vec<_>>().join("\n")
    }

    /// Lets a started driver shut Ray down cleanly when dropped.
    pub fn set_grace(&mut self, grace: Duration) {
        self.grace = grace;
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), String> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or("the Ray driver's input is closed")?;
        stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush())
            .map_err(|e| self.died(&format!("cannot write to it ({e})")))
    }

    /// The next line; `timeout` bounds the wait (`None`: until the child answers or exits).
    pub fn receive(&mut self, timeout: Option<Duration>) -> Result<String, String> {
        let got = match timeout {
            Some(t) => self.replies.recv_timeout(t),
            None => self
                .replies
                .recv()
                .map_err(|_| RecvTimeoutError::Disconnected),
        };
        match got {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(format!(
                "no answer from the Ray driver within {:.0} s; its last output:\n{}",
                timeout.unwrap_or_default().as_secs_f64(),
                self.stderr_tail()
            )),
            Err(RecvTimeoutError::Disconnected) => Err(self.died("it exited")),
        }
    }

    fn died(&mut self, what: &str) -> String {
        // Give the stderr reader a moment to collect the last words.
        let status = self.child.wait().map(|s| s.to_string()).unwrap_or_default();
        std::thread::sleep(Duration::from_millis(100));
        format!(
            "the Ray driver stopped: {what} ({status}); its last output:\n{}",
            self.stderr_tail()
        )
    }

    /// Asks the driver to shut Ray down (closing its input, then SIGTERM), then kills it.
    pub fn stop(&mut self, grace: Duration) {
        self.stdin = None;
        if self.wait_for(grace) {
            return;
        }
        // SIGTERM lets Python run `ray.shutdown()`; std only has SIGKILL.
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        if self.wait_for(Duration::from_secs(10)) {
            return;
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    fn wait_for(&mut self, limit: Duration) -> bool {
        let start = std::time::Instant::now();
        while start.elapsed() < limit {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        false
    }
}

impl Drop for DriverProcess {
    fn drop(&mut self) {
        self.stop(self.grace);
    }
}
