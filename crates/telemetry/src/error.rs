//! What can go wrong opening, writing or reading a span log.

use std::path::PathBuf;

/// A telemetry failure. Recording a span never returns one: only starting a sink, reading a
/// span log for a report, and parsing report arguments do.
#[derive(Debug, thiserror::Error)]
pub enum TelemetryError {
    /// The span log does not exist.
    #[error(
        "no span log at `{}`: spans are written there by `toolshape serve` once calls go through it; pass `--spans FILE` to read another log",
        path.display()
    )]
    Missing {
        /// Where it was looked for.
        path: PathBuf,
    },
    /// The file exists but is not a span log (another SQLite database, or not SQLite at all).
    #[error("`{}` is not a toolshape span log ({reason})", path.display())]
    NotASpanLog {
        /// The file.
        path: PathBuf,
        /// What was found instead.
        reason: String,
    },
    /// SQLite failed on the span log.
    #[error("span log `{}`: {source}", path.display())]
    Sqlite {
        /// The file.
        path: PathBuf,
        /// The SQLite error.
        #[source]
        source: rusqlite::Error,
    },
    /// The folder of the span log could not be created.
    #[error("cannot create folder `{}` for the span log: {source}", path.display())]
    CreateFolder {
        /// The folder.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The background writer thread could not be started.
    #[error("cannot start the telemetry thread: {0}")]
    Thread(#[source] std::io::Error),
    /// A `--since` value that is not a duration.
    #[error("bad duration `{given}`: use a number and a unit, like 30m, 24h, 7d or 1h30m (units: s, m, h, d, w)")]
    BadDuration {
        /// What was given.
        given: String,
    },
    /// The OTLP exporter could not be set up.
    #[error("OTLP export: {0}")]
    Otlp(String),
}
