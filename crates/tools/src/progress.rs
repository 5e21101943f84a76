//! A progress bar for long runs (matches, suites), drawn on stderr only when it is a terminal.
//! Without a terminal (CI, nohup, a pipe) a plain progress line goes to stderr every
//! [`PLAIN_INTERVAL`] instead, and one at the end, so a long job is never silent.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How often a plain progress line is printed when stderr is not a terminal.
pub const PLAIN_INTERVAL: Duration = Duration::from_secs(10);

/// Progress of a long run over a known number of items: a bar on a terminal, plain lines on
/// stderr otherwise.
pub struct Progress {
    bar: ProgressBar,
    what: String,
    started: Instant,
    interval: Duration,
    /// When the last plain line was printed (`None`: the next one is due at once).
    last_plain: Mutex<Option<Instant>>,
    /// The position the run started from (a resumed run starts past 0), for the ETA.
    first_pos: std::sync::OnceLock<u64>,
    /// Items each [`Progress::set`] reports (a batch of SPSA iterations arrives at once).
    step: u64,
}

impl Progress {
    /// A progress display for `total` items labelled `what`; without a terminal the first plain
    /// line comes after [`PLAIN_INTERVAL`] (see [`Progress::with_first_line`]).
    pub fn new(total: u64, what: &str) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        let style = ProgressStyle::with_template(&format!(
            "{what} {{bar:30}} {{pos}}/{{len}} [{{elapsed_precise}} eta {{eta}}] {{msg}}"
        ))
        .unwrap_or_else(|_| ProgressStyle::default_bar());
        bar.set_style(style);
        let now = Instant::now();
        Progress {
            bar,
            what: what.to_string(),
            started: now,
            interval: PLAIN_INTERVAL,
            last_plain: Mutex::new(Some(now)),
            first_pos: std::sync::OnceLock::new(),
            step: 1,
        }
    }

    /// Each [`Progress::set`] reports `step` items done since the last one, so the first
    /// update of a resumed run places its start `step` items back (1 by default).
    pub fn with_step(mut self, step: u64) -> Progress {
        self.step = step.max(1);
        self
    }

    /// Prints the first plain line at the first update too (long steps such as generations,
    /// so that a job without a terminal shows at once that it runs).
    pub fn with_first_line(self) -> Progress {
        *self.last_plain.lock().unwrap_or_else(|e| e.into_inner()) = None;
        self
    }

    /// Sets how often plain progress lines are printed without a terminal.
    pub fn with_interval(mut self, interval: Duration) -> Progress {
        self.interval = interval;
        self
    }

    /// Marks `pos` items done (a resumed run starts past 0), with a status message.
    pub fn set(&self, pos: u64, message: String) {
        self.first_pos.get_or_init(|| pos.saturating_sub(self.step));
        self.bar.set_position(pos);
        if let Some(line) = self.plain_line(&message) {
            eprintln!("{line}");
        }
        self.bar.set_message(message);
    }

    /// Marks one more item done, with a status message.
    pub fn step(&self, message: String) {
        self.first_pos.get_or_init(|| self.bar.position());
        self.bar.inc(1);
        if let Some(line) = self.plain_line(&message) {
            eprintln!("{line}");
        }
        self.bar.set_message(message);
    }

    /// The plain progress line due now (the interval has passed, or the last item is done),
    /// when no bar is drawn.
    pub fn plain_line(&self, message: &str) -> Option<String> {
        if !self.bar.is_hidden() {
            return None;
        }
        let (pos, len) = (self.bar.position(), self.bar.length().unwrap_or(0));
        let mut last = self.last_plain.lock().unwrap_or_else(|e| e.into_inner());
        if last.is_some_and(|t| t.elapsed() < self.interval) && pos < len {
            return None;
        }
        *last = Some(Instant::now());
        let secs = self.started.elapsed().as_secs_f64();
        let done = pos.saturating_sub(self.first_pos.get().copied().unwrap_or(0));
        let eta = if done > 0 && pos < len {
            format!(", eta {:.0} s", secs / done as f64 * (len - pos) as f64)
        } else {
            String::new()
        };
        Some(format!(
            "{} {pos}/{len} ({secs:.0} s{eta}) {message}",
            self.what
        ))
    }

    /// Prints a line above the bar (plainly when there is no terminal).
    pub fn println(&self, line: &str) {
        if self.bar.is_hidden() {
            use std::io::Write as _;
            // A closed stdout (piped into `head`) is not worth a panic.
            let _ = writeln!(std::io::stdout().lock(), "{line}");
        } else {
            self.bar.println(line);
        }
    }

    /// Clears the bar from the terminal (nothing to do for plain lines).
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_a_terminal_plain_lines_are_printed() {
        let p = Progress::new(3, "match").with_interval(Duration::from_secs(3600));
        if !p.bar.is_hidden() {
            return; // run from a terminal: the bar is drawn instead
        }
        p.bar.inc(1);
        assert_eq!(p.plain_line("+1"), None, "not due yet");
        p.bar.inc(2);
        let last = p.plain_line("+3").expect("the last item always prints");
        assert!(
            last.starts_with("match 3/3 (") && last.ends_with("+3"),
            "{last}"
        );
        let quick = Progress::new(5, "epd").with_interval(Duration::ZERO);
        quick.bar.inc(1);
        assert!(quick.plain_line("x").unwrap().starts_with("epd 1/5"));
        // A resumed GA: the first update is at generation 4 of 10, and prints at once.
        let ga = Progress::new(10, "evolving")
            .with_interval(Duration::from_secs(3600))
            .with_first_line();
        ga.first_pos.get_or_init(|| 3);
        ga.bar.set_position(4);
        let first = ga.plain_line("best 1.0").expect("the first update prints");
        assert!(
            first.starts_with("evolving 4/10 (") && first.contains(", eta "),
            "{first}"
        );
        ga.bar.set_position(5);
        assert_eq!(ga.plain_line("best 0.9"), None, "then every interval");
    }

    #[test]
    fn a_resumed_batched_run_counts_its_first_batch_in_the_eta() {
        // Resumed at 176 of 1,024, batches of 8: the first update at 184 covers 8 items, so the
        // ETA is about (1,024 - 184) / 8 times the time so far, not 840 times it.
        let p = Progress::new(1024, "spsa")
            .with_interval(Duration::ZERO)
            .with_step(8);
        if !p.bar.is_hidden() {
            return; // run from a terminal: the bar is drawn instead
        }
        std::thread::sleep(Duration::from_millis(50));
        p.set(184, String::new());
        assert_eq!(p.first_pos.get(), Some(&176));
        let line = p.plain_line("").unwrap();
        let secs = p.started.elapsed().as_secs_f64();
        let eta: f64 = line
            .split(", eta ")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no eta in {line}"));
        assert!(eta <= (secs / 8.0 * 840.0).ceil() + 1.0, "{line}");
        assert!(eta >= 2.0, "{line}");
    }
}
