//! Logging for people: what goes to standard error, and the upstreams' stderr kept aside.
//!
//! `TOOLSHAPE_LOG` (or `RUST_LOG`) sets the filter; without it, `--verbose` raises the
//! command's default (`-v` info, `-vv` debug). Whatever the filter, the last lines each
//! upstream wrote to its stderr are kept, so a command whose call failed can show the person
//! the cause (`call` prints them) while the model only reads its one-line error.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use tracing::field::{Field, Visit};
use tracing_subscriber::Layer;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

/// How many stderr lines are kept, over all upstreams.
const TAIL_LINES: usize = 20;

static VERBOSE: AtomicU8 = AtomicU8::new(0);
static TAIL: OnceLock<Arc<Mutex<VecDeque<String>>>> = OnceLock::new();

/// `--verbose`, counted.
pub(crate) fn set_verbosity(level: u8) {
    VERBOSE.store(level, Ordering::Relaxed);
}

/// Log to standard error with the filter from `TOOLSHAPE_LOG` or `RUST_LOG`, else from
/// `--verbose`, else `default`; keep the upstreams' stderr tail.
pub(crate) fn init(default: &str) {
    let from_flag = match VERBOSE.load(Ordering::Relaxed) {
        0 => default,
        1 => "info",
        _ => "debug",
    };
    let filter =
        std::env::var("TOOLSHAPE_LOG").or_else(|_| std::env::var("RUST_LOG")).unwrap_or_else(|_| from_flag.to_owned());
    let filter = tracing_subscriber::EnvFilter::try_new(&filter)
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(from_flag));
    let fmt = tracing_subscriber::fmt::layer().with_writer(std::io::stderr).with_ansi(false).with_filter(filter);
    let tail = TAIL.get_or_init(|| Arc::new(Mutex::new(VecDeque::new()))).clone();
    let capture = StderrTail { lines: tail }.with_filter(tracing_subscriber::filter::LevelFilter::INFO);
    let _ = tracing_subscriber::registry().with(fmt).with(capture).try_init();
}

/// The last stderr lines of the upstreams, oldest first, as `upstream: line`.
pub(crate) fn stderr_tail() -> Vec<String> {
    TAIL.get().and_then(|t| t.lock().ok().map(|l| l.iter().cloned().collect())).unwrap_or_default()
}

/// Keeps the gateway's `stderr: …` events of upstreams.
struct StderrTail {
    lines: Arc<Mutex<VecDeque<String>>>,
}

#[derive(Default)]
struct Fields {
    message: String,
    upstream: String,
}

impl Visit for Fields {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        match field.name() {
            "message" => self.message = format!("{value:?}"),
            "upstream" => self.upstream = format!("{value:?}"),
            _ => {}
        }
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        match field.name() {
            "message" => value.clone_into(&mut self.message),
            "upstream" => value.clone_into(&mut self.upstream),
            _ => {}
        }
    }
}

impl<S: tracing::Subscriber> Layer<S> for StderrTail {
    fn on_event(&self, event: &tracing::Event<'_>, _: tracing_subscriber::layer::Context<'_, S>) {
        let mut fields = Fields::default();
        event.record(&mut fields);
        let Some(line) = fields.message.strip_prefix("stderr: ") else { return };
        if let Ok(mut lines) = self.lines.lock() {
            if lines.len() == TAIL_LINES {
                lines.pop_front();
            }
            lines.push_back(format!("{}: {line}", fields.upstream));
        }
    }
}
