//! Hot reload for `serve`: the config is read again when it changes on disk (checked every
//! [`POLL`]) or when the process gets SIGHUP, validated, and handed to the gateway; a config
//! with problems is not applied, and every problem is logged.
//!
//! Changes are noticed by content, not by time stamps: editors that replace the file, and
//! several writes within one second, are all seen, and saving the same text again does
//! nothing.

use std::future::Future;
use std::path::PathBuf;
use std::time::Duration;

use toolshape_mask::{Config, MaskSet};

/// How often the file is looked at.
pub(crate) const POLL: Duration = Duration::from_secs(1);

/// Why a reload was tried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Trigger {
    /// The file's content changed.
    FileChanged,
    /// SIGHUP.
    Signal,
}

/// Watch `path` until the process ends; each changed, valid config goes to `apply`.
pub(crate) async fn watch<F, Fut>(path: PathBuf, apply: F)
where
    F: Fn(Config, MaskSet) -> Fut,
    Fut: Future<Output = Result<(), String>>,
{
    let mut seen = digest(&path);
    let mut hangups = hangups();
    loop {
        let trigger = tokio::select! {
            () = tokio::time::sleep(POLL) => Trigger::FileChanged,
            Some(()) = recv(&mut hangups) => Trigger::Signal,
        };
        let now = digest(&path);
        if trigger == Trigger::FileChanged && now == seen {
            continue;
        }
        seen = now;
        let what = if trigger == Trigger::Signal { "SIGHUP" } else { "the file changed" };
        match super::load_masks(&path) {
            Ok((config, masks)) => match apply(config, masks).await {
                Ok(()) => tracing::info!(config = %path.display(), "config reloaded ({what})"),
                Err(e) => tracing::warn!(config = %path.display(), "config not applied ({what}): {e}"),
            },
            Err(failure) => {
                // Every problem on its own line, as `check` prints them; the running config stays.
                for line in format!("{:#}", failure.error).lines() {
                    tracing::warn!(config = %path.display(), "config not reloaded ({what}), the running one is kept: {line}");
                }
            }
        }
    }
}

/// The file's content digest; `None` while it cannot be read (mid-save, say).
fn digest(path: &std::path::Path) -> Option<String> {
    std::fs::read(path).ok().map(|bytes| toolshape_clients::digest(&bytes))
}

#[cfg(unix)]
type Hangups = Option<tokio::signal::unix::Signal>;
#[cfg(not(unix))]
type Hangups = Option<()>;

#[cfg(unix)]
fn hangups() -> Hangups {
    tokio::signal::unix::signal(tokio::signal::unix::SignalKind::hangup()).ok()
}
#[cfg(not(unix))]
fn hangups() -> Hangups {
    None
}

/// The next SIGHUP; never, where there are none.
async fn recv(hangups: &mut Hangups) -> Option<()> {
    #[cfg(unix)]
    if let Some(signal) = hangups {
        return signal.recv().await;
    }
    let _ = hangups;
    std::future::pending().await
}
