//! A progress bar for long runs (matches, suites), drawn on stderr only when it is a terminal.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    pub fn new(total: u64, what: &str) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        let style = ProgressStyle::with_template(&format!(
            "{what} {{bar:30}} {{pos}}/{{len}} [{{elapsed_precise}} eta {{eta}}] {{msg}}"
        ))
        .unwrap_or_else(|_| ProgressStyle::default_bar());
        bar.set_style(style);
        Progress { bar }
    }

    /// Marks one more item done, with a status message.
    pub fn step(&self, message: String) {
        self.bar.inc(1);
        self.bar.set_message(message);
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

    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
