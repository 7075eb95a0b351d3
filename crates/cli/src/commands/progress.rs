//! A progress line on standard error for long work (reading a large input, a big span log):
//! shown only on a terminal, only once the work has taken longer than [`PROGRESS_AFTER`], and
//! cleared when the work ends so the output starts on a clean line.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// Work that ends sooner than this shows no progress at all.
pub(crate) const PROGRESS_AFTER: Duration = Duration::from_secs(1);

/// One progress line, rewritten in place.
pub(crate) struct Progress {
    what: &'static str,
    unit: &'static str,
    started: Instant,
    on_terminal: bool,
    shown: bool,
}

impl Progress {
    /// Progress of `what` (e.g. "reading spans"), counted in `unit` (e.g. "bytes").
    pub(crate) fn new(what: &'static str, unit: &'static str) -> Progress {
        Progress { what, unit, started: Instant::now(), on_terminal: std::io::stderr().is_terminal(), shown: false }
    }

    /// `done` of `total` so far (`total` unknown: 0).
    pub(crate) fn update(&mut self, done: u64, total: u64) {
        if !self.on_terminal || self.started.elapsed() < PROGRESS_AFTER {
            return;
        }
        let mut err = std::io::stderr().lock();
        let _ = match (done * 100).checked_div(total) {
            Some(percent) => write!(err, "\r{}: {done} of {total} {} ({percent}%)", self.what, self.unit),
            None => write!(err, "\r{}: {done} {}", self.what, self.unit),
        };
        let _ = err.flush();
        self.shown = true;
    }

    /// Clear the line, if anything was shown.
    pub(crate) fn finish(&mut self) {
        if self.shown {
            let _ = write!(std::io::stderr().lock(), "\r\x1b[2K");
            self.shown = false;
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}
