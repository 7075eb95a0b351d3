//! A progress line while upstreams start: "starting upstream tracker (sh -c exec …) 3 s".
//!
//! Shown on a terminal only, and only once the wait has passed [`PROGRESS_AFTER`] (most
//! starts take milliseconds); cleared when the wait ends, so the output starts on a clean line.

use std::io::{IsTerminal, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use toolshape_mask::Config;

use super::progress::PROGRESS_AFTER;

/// The progress line of one wait; it stops when dropped.
pub(crate) struct Waiting {
    done: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Waiting {
    /// Start showing `what` (e.g. "starting upstream tracker (npx …)") after a second.
    pub(crate) fn start(what: String) -> Waiting {
        let done = Arc::new(AtomicBool::new(false));
        if !std::io::stderr().is_terminal() {
            return Waiting { done, thread: None };
        }
        let flag = done.clone();
        let thread = std::thread::spawn(move || {
            let started = Instant::now();
            let mut shown = false;
            while !flag.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(100));
                let waited = started.elapsed();
                if waited >= PROGRESS_AFTER && !flag.load(Ordering::Relaxed) {
                    let _ = write!(std::io::stderr().lock(), "\r\x1b[2K{what} {} s", waited.as_secs());
                    shown = true;
                }
            }
            if shown {
                let _ = write!(std::io::stderr().lock(), "\r\x1b[2K");
            }
        });
        Waiting { done, thread: Some(thread) }
    }

    /// The line for starting `config`'s upstreams, naming the one `tool` needs when known.
    pub(crate) fn upstreams(config: &Config, tool: Option<&str>) -> Waiting {
        let handler = tool.and_then(|t| config.masks.iter().find(|m| m.name == t)).and_then(|m| m.handler.clone());
        let named: Vec<(&String, &toolshape_mask::Upstream)> = config
            .upstreams
            .iter()
            .filter(|(name, _)| match (&handler, tool) {
                (Some(h), _) => h.split('/').next() == Some(name.as_str()),
                (None, Some(t)) => t.starts_with(&format!("{name}_")),
                (None, None) => true,
            })
            .collect();
        let list = if named.is_empty() { config.upstreams.iter().collect() } else { named };
        let described: Vec<String> = list.iter().map(|(name, spec)| format!("{name} ({})", how(spec))).collect();
        let noun = if described.len() == 1 { "upstream" } else { "upstreams" };
        Waiting::start(format!("starting {noun} {}", described.join(", ")))
    }
}

/// `npx -y …` (the program and its first argument: later ones may hold substituted secrets),
/// or the URL without its query; cut to 60 characters.
fn how(spec: &toolshape_mask::Upstream) -> String {
    let text = match (&spec.command, &spec.url) {
        (Some(argv), _) if argv.len() > 2 => format!("{} …", argv[..2].join(" ")),
        (Some(argv), _) => argv.join(" "),
        (None, Some(url)) => url.split('?').next().unwrap_or_default().to_owned(),
        (None, None) => String::new(),
    };
    if text.chars().count() > 60 { format!("{}…", text.chars().take(59).collect::<String>()) } else { text }
}

impl Drop for Waiting {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
