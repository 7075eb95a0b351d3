//! The span log on disk: one SQLite table, written by the sink's background thread and read by
//! `toolshape report`.
//!
//! The file is opened in WAL mode, so a report can read while gateways write, and several
//! stdio gateway processes can share one file (each waits its turn to commit).
//!
//! **Size bound.** After each committed batch the writer measures the pages in use; when they
//! exceed `max_bytes` it deletes the oldest quarter of the rows. SQLite reuses the freed pages
//! for new rows, so the file settles at about `max_bytes` (plus at most one batch) and never
//! grows past it, keeping the most recent calls. Deleting rows rather than renaming the file
//! keeps this safe when several processes share the log: a rename would leave another
//! process's write-ahead log pointing at the wrong file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags, params};

use crate::TelemetryError;
use crate::span::{CallStatus, SearchCall, Span, TokensBefore};

/// The smallest size bound a span log accepts (a few hundred spans).
pub const MIN_MAX_BYTES: u64 = 64 * 1024;

/// The columns of the `spans` table, in order: those of the first version of the log, then
/// those added since (see [`ADDED_COLUMNS`]).
const COLUMNS: [&str; 19] = [
    "id",
    "time_ms",
    "tool",
    "mask",
    "upstream",
    "principal",
    "session",
    "status",
    "tokens_before",
    "tokens_before_estimated",
    "tokens_after",
    "bytes_before",
    "bytes_after",
    "records_kept",
    "records_omitted",
    "cut",
    "redactions",
    "upstream_ms",
    "shaping_ms",
];

/// Columns added after the first version, with their SQL types, in order. A log written
/// before them is still read (they read as empty), and the writer adds them to it on open.
const ADDED_COLUMNS: [(&str, &str); 4] =
    [("media", "TEXT"), ("search_query", "TEXT"), ("search_returned", "TEXT"), ("search_matched", "INTEGER")];

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS spans (
    id INTEGER PRIMARY KEY,
    time_ms INTEGER NOT NULL,
    tool TEXT NOT NULL,
    mask TEXT,
    upstream TEXT,
    principal TEXT,
    session TEXT,
    status TEXT NOT NULL,
    tokens_before INTEGER NOT NULL,
    tokens_before_estimated INTEGER NOT NULL,
    tokens_after INTEGER NOT NULL,
    bytes_before INTEGER NOT NULL,
    bytes_after INTEGER NOT NULL,
    records_kept INTEGER NOT NULL,
    records_omitted INTEGER NOT NULL,
    cut TEXT,
    redactions TEXT NOT NULL,
    upstream_ms REAL NOT NULL,
    shaping_ms REAL NOT NULL,
    media TEXT,
    search_query TEXT,
    search_returned TEXT,
    search_matched INTEGER
);
CREATE INDEX IF NOT EXISTS spans_by_time ON spans (time_ms);
";

/// The writing side of a span log.
pub(crate) struct SpanStore {
    conn: Connection,
    path: PathBuf,
    max_bytes: u64,
}

impl SpanStore {
    /// Open or create the span log at `path`, creating its folder.
    pub(crate) fn open(path: &Path, max_bytes: u64) -> Result<SpanStore, TelemetryError> {
        if let Some(parent) = path.parent()
            && !parent.as_os_str().is_empty()
        {
            std::fs::create_dir_all(parent)
                .map_err(|source| TelemetryError::CreateFolder { path: parent.to_owned(), source })?;
        }
        let sqlite = |source| TelemetryError::Sqlite { path: path.to_owned(), source };
        let conn = Connection::open(path).map_err(sqlite)?;
        conn.busy_timeout(Duration::from_secs(5)).map_err(sqlite)?;
        let setup = |conn: &Connection| -> rusqlite::Result<bool> {
            conn.query_row("PRAGMA journal_mode = WAL", [], |row| row.get::<_, String>(0))?;
            conn.execute_batch("PRAGMA synchronous = NORMAL; PRAGMA journal_size_limit = 1048576;")?;
            conn.query_row("SELECT count(*) > 0 FROM pragma_table_info('spans')", [], |row| row.get(0))
        };
        let exists = setup(&conn).map_err(|source| classify(path, source))?;
        // An existing table must be ours before anything is added to it; one written before
        // the newer columns gets them now.
        if exists && check_columns(&conn, path)? < ADDED_COLUMNS.len() {
            add_columns(&conn, path)?;
        }
        conn.execute_batch(SCHEMA).map_err(|source| classify(path, source))?;
        Ok(SpanStore { conn, path: path.to_owned(), max_bytes: max_bytes.max(MIN_MAX_BYTES) })
    }

    /// Insert `spans` in one transaction. Every span's `tokens_before` must be resolved;
    /// a pending count is stored as its estimate.
    pub(crate) fn insert(&mut self, spans: &[Span]) -> Result<(), TelemetryError> {
        let sqlite = |source| TelemetryError::Sqlite { path: self.path.clone(), source };
        let tx = self.conn.transaction().map_err(sqlite)?;
        {
            let mut insert = tx
                .prepare_cached(
                    "INSERT INTO spans (time_ms, tool, mask, upstream, principal, session, status, tokens_before,
                     tokens_before_estimated, tokens_after, bytes_before, bytes_after, records_kept, records_omitted,
                     cut, redactions, upstream_ms, shaping_ms, media, search_query, search_returned, search_matched)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19,
                     ?20, ?21, ?22)",
                )
                .map_err(sqlite)?;
            for span in spans {
                let redactions = serde_json::to_string(&span.redactions).unwrap_or_else(|_| "{}".to_owned());
                let media = span.media.and_then(|m| serde_json::to_string(&m).ok());
                let search = span.search.as_ref();
                let returned = search.map(|s| serde_json::to_string(&s.returned).unwrap_or_else(|_| "[]".to_owned()));
                insert
                    .execute(params![
                        span.time_ms,
                        span.tool,
                        span.mask,
                        span.upstream,
                        span.principal,
                        span.session,
                        span.status.as_str(),
                        to_sql_int(span.tokens_before.value()),
                        span.tokens_before.is_estimated(),
                        to_sql_int(span.tokens_after),
                        to_sql_int(span.bytes_before),
                        to_sql_int(span.bytes_after),
                        to_sql_int(span.records_kept),
                        to_sql_int(span.records_omitted),
                        span.cut,
                        redactions,
                        span.upstream_ms,
                        span.shaping_ms,
                        media,
                        search.map(|s| s.query.as_str()),
                        returned,
                        search.map(|s| to_sql_int(s.matched)),
                    ])
                    .map_err(sqlite)?;
            }
        }
        tx.commit().map_err(sqlite)
    }

    /// Delete the oldest rows while the pages in use exceed the size bound. Returns how many
    /// rows were deleted.
    pub(crate) fn enforce_bound(&mut self) -> Result<u64, TelemetryError> {
        let sqlite = |source| TelemetryError::Sqlite { path: self.path.clone(), source };
        let mut deleted = 0;
        // Each pass removes a quarter of what is left, so a few passes always suffice; the
        // limit only guards against a bound that cannot be met (schema pages alone).
        for _ in 0..16 {
            if self.used_bytes().map_err(sqlite)? <= self.max_bytes {
                break;
            }
            let rows: i64 = self.conn.query_row("SELECT count(*) FROM spans", [], |row| row.get(0)).map_err(sqlite)?;
            if rows == 0 {
                break;
            }
            let remove = (rows / 4).max(1);
            let n = self
                .conn
                .execute("DELETE FROM spans WHERE id IN (SELECT id FROM spans ORDER BY id LIMIT ?1)", [remove])
                .map_err(sqlite)?;
            deleted += n as u64;
        }
        Ok(deleted)
    }

    /// Bytes of the pages that hold data (free pages excluded).
    fn used_bytes(&self) -> rusqlite::Result<u64> {
        let page_size: i64 = self.conn.query_row("PRAGMA page_size", [], |row| row.get(0))?;
        let pages: i64 = self.conn.query_row("PRAGMA page_count", [], |row| row.get(0))?;
        let free: i64 = self.conn.query_row("PRAGMA freelist_count", [], |row| row.get(0))?;
        Ok(u64::try_from((pages - free).max(0) * page_size).unwrap_or(0))
    }
}

/// Progress of [`read_spans`]: rows read so far of the rows selected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadProgress {
    /// Rows read.
    pub read: u64,
    /// Rows selected in all.
    pub total: u64,
}

/// How many rows [`read_spans`] reads between progress calls.
const PROGRESS_EVERY: u64 = 4096;

/// Read every span of the log at `path` with `time_ms >= since_ms` (all with `None`), oldest
/// first. `progress` is called every few thousand rows.
pub fn read_spans(
    path: &Path,
    since_ms: Option<i64>,
    progress: &mut dyn FnMut(ReadProgress),
) -> Result<Vec<Span>, TelemetryError> {
    if !path.is_file() {
        return Err(TelemetryError::Missing { path: path.to_owned() });
    }
    let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX)
        .map_err(|source| classify(path, source))?;
    conn.busy_timeout(Duration::from_secs(5)).map_err(|source| classify(path, source))?;
    let added = check_columns(&conn, path)?;
    let since = since_ms.unwrap_or(i64::MIN);
    // A log written before the newer columns reads them as empty.
    let newer: Vec<&str> =
        ADDED_COLUMNS.iter().enumerate().map(|(i, (name, _))| if i < added { *name } else { "NULL" }).collect();
    let sqlite = |source| classify(path, source);
    let total: i64 =
        conn.query_row("SELECT count(*) FROM spans WHERE time_ms >= ?1", [since], |row| row.get(0)).map_err(sqlite)?;
    let total = u64::try_from(total).unwrap_or(0);
    let mut statement = conn
        .prepare(&format!(
            "SELECT time_ms, tool, mask, upstream, principal, session, status, tokens_before, tokens_before_estimated,
             tokens_after, bytes_before, bytes_after, records_kept, records_omitted, cut, redactions, upstream_ms,
             shaping_ms, {} FROM spans WHERE time_ms >= ?1 ORDER BY time_ms, id",
            newer.join(", ")
        ))
        .map_err(sqlite)?;
    let mut rows = statement.query([since]).map_err(sqlite)?;
    let mut spans = Vec::with_capacity(usize::try_from(total).unwrap_or(0).min(1 << 20));
    while let Some(row) = rows.next().map_err(sqlite)? {
        spans.push(span_from_row(row, path)?);
        let read = spans.len() as u64;
        if read.is_multiple_of(PROGRESS_EVERY) {
            progress(ReadProgress { read, total });
        }
    }
    progress(ReadProgress { read: spans.len() as u64, total });
    Ok(spans)
}

fn span_from_row(row: &rusqlite::Row<'_>, path: &Path) -> Result<Span, TelemetryError> {
    let sqlite = |source| classify(path, source);
    let status: String = row.get(6).map_err(sqlite)?;
    let status: CallStatus = status.parse().map_err(|e: crate::span::UnknownStatus| TelemetryError::NotASpanLog {
        path: path.to_owned(),
        reason: e.to_string(),
    })?;
    let tokens_before = from_sql_int(row.get(7).map_err(sqlite)?);
    let estimated: bool = row.get(8).map_err(sqlite)?;
    let redactions: String = row.get(15).map_err(sqlite)?;
    let redactions: BTreeMap<String, u64> = serde_json::from_str(&redactions).unwrap_or_default();
    let media: Option<String> = row.get(18).map_err(sqlite)?;
    let media = media.and_then(|m| serde_json::from_str(&m).ok());
    Ok(Span {
        time_ms: row.get(0).map_err(sqlite)?,
        tool: row.get(1).map_err(sqlite)?,
        mask: row.get(2).map_err(sqlite)?,
        upstream: row.get(3).map_err(sqlite)?,
        principal: row.get(4).map_err(sqlite)?,
        session: row.get(5).map_err(sqlite)?,
        status,
        tokens_before: if estimated {
            TokensBefore::Estimated(tokens_before)
        } else {
            TokensBefore::Exact(tokens_before)
        },
        tokens_after: from_sql_int(row.get(9).map_err(sqlite)?),
        bytes_before: from_sql_int(row.get(10).map_err(sqlite)?),
        bytes_after: from_sql_int(row.get(11).map_err(sqlite)?),
        records_kept: from_sql_int(row.get(12).map_err(sqlite)?),
        records_omitted: from_sql_int(row.get(13).map_err(sqlite)?),
        cut: row.get(14).map_err(sqlite)?,
        redactions,
        upstream_ms: row.get(16).map_err(sqlite)?,
        shaping_ms: row.get(17).map_err(sqlite)?,
        media,
        search: search_from_row(row).map_err(sqlite)?,
    })
}

/// The search columns of a row: `None` for a call of any other tool (no query).
fn search_from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<Option<SearchCall>> {
    let Some(query) = row.get::<_, Option<String>>(19)? else { return Ok(None) };
    let returned: Option<String> = row.get(20)?;
    let returned = returned.and_then(|r| serde_json::from_str(&r).ok()).unwrap_or_default();
    let matched = from_sql_int(row.get::<_, Option<i64>>(21)?.unwrap_or(0));
    Ok(Some(SearchCall { query, returned, matched }))
}

/// Fail unless the `spans` table has the first version's columns, then a leading part of
/// [`ADDED_COLUMNS`]; returns how many of those it has.
fn check_columns(conn: &Connection, path: &Path) -> Result<usize, TelemetryError> {
    let columns = (|| -> rusqlite::Result<Vec<String>> {
        let mut statement = conn.prepare("SELECT name FROM pragma_table_info('spans') ORDER BY cid")?;
        let names = statement.query_map([], |row| row.get::<_, String>(0))?;
        names.collect()
    })()
    .map_err(|source| classify(path, source))?;
    if columns.is_empty() {
        return Err(TelemetryError::NotASpanLog { path: path.to_owned(), reason: "it has no `spans` table".into() });
    }
    let (first, added) = columns.split_at(columns.len().min(COLUMNS.len()));
    let ours = first.iter().map(String::as_str).eq(COLUMNS)
        && added.len() <= ADDED_COLUMNS.len()
        && added.iter().zip(ADDED_COLUMNS).all(|(have, (want, _))| have == want);
    if !ours {
        return Err(TelemetryError::NotASpanLog {
            path: path.to_owned(),
            reason: format!("its `spans` table has columns {}", columns.join(", ")),
        });
    }
    Ok(added.len())
}

/// Add the columns an older log lacks, in one transaction. Another process may add them at
/// the same time: the columns are counted again inside the transaction.
fn add_columns(conn: &Connection, path: &Path) -> Result<(), TelemetryError> {
    let sqlite = |source| classify(path, source);
    conn.execute_batch("BEGIN IMMEDIATE").map_err(sqlite)?;
    let result = check_columns(conn, path).and_then(|have| {
        for (name, kind) in &ADDED_COLUMNS[have..] {
            conn.execute_batch(&format!("ALTER TABLE spans ADD COLUMN {name} {kind}")).map_err(sqlite)?;
        }
        Ok(())
    });
    let end = if result.is_ok() { "COMMIT" } else { "ROLLBACK" };
    conn.execute_batch(end).map_err(sqlite)?;
    result
}

/// A SQLite error, with "this is not a database" told apart from other failures.
fn classify(path: &Path, source: rusqlite::Error) -> TelemetryError {
    match source.sqlite_error_code() {
        Some(rusqlite::ErrorCode::NotADatabase) => {
            TelemetryError::NotASpanLog { path: path.to_owned(), reason: "not a SQLite database".into() }
        }
        Some(rusqlite::ErrorCode::DatabaseCorrupt) => {
            TelemetryError::NotASpanLog { path: path.to_owned(), reason: "the SQLite file is corrupt".into() }
        }
        _ => TelemetryError::Sqlite { path: path.to_owned(), source },
    }
}

/// SQLite integers are signed; figures beyond `i64::MAX` are clamped (never reached in practice).
fn to_sql_int(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

fn from_sql_int(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}
