//! The SQLite store: one file, kept across restarts and shared by every process that opens it.
//!
//! The file is in WAL mode, so readers do not wait for the writer and several stdio gateway
//! processes on one machine can share it; a write waits up to [`BUSY_TIMEOUT`] for another
//! process's write to finish. One table holds the entries (key, value, size, wall-clock
//! expiry, insertion sequence); triggers keep a one-row table of totals in step with it, so
//! the total-bytes cap is checked without summing every row, and every process sharing the
//! file sees the same totals. A write runs in one `IMMEDIATE` transaction: drop the old
//! value under the key, purge expired rows, evict the oldest rows until the new value fits,
//! insert it.
//!
//! SQLite calls block, so they run on a thread of the store's own, fed through a channel;
//! the async methods only wait for its answer and never block the runtime.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rusqlite::{Connection, ErrorCode, OpenFlags, OptionalExtension, TransactionBehavior, params};
use tokio::sync::oneshot;

use crate::{Store, StoreError, StoreFuture, StoreStats, ttl_millis};

/// How long a write waits for another process's write before giving up as unavailable.
pub(crate) const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// The schema this code writes; a file with a newer one is refused rather than damaged.
const SCHEMA_VERSION: i64 = 1;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS toolshape_entries (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    key TEXT NOT NULL UNIQUE,
    value BLOB NOT NULL,
    size INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS toolshape_entries_expiry ON toolshape_entries (expires_at);
CREATE TABLE IF NOT EXISTS toolshape_totals (
    id INTEGER PRIMARY KEY CHECK (id = 0),
    bytes INTEGER NOT NULL,
    entries INTEGER NOT NULL,
    evicted INTEGER NOT NULL
);
INSERT OR IGNORE INTO toolshape_totals (id, bytes, entries, evicted) VALUES (0, 0, 0, 0);
CREATE TRIGGER IF NOT EXISTS toolshape_entries_added AFTER INSERT ON toolshape_entries BEGIN
    UPDATE toolshape_totals SET bytes = bytes + NEW.size, entries = entries + 1 WHERE id = 0;
END;
CREATE TRIGGER IF NOT EXISTS toolshape_entries_removed AFTER DELETE ON toolshape_entries BEGIN
    UPDATE toolshape_totals SET bytes = bytes - OLD.size, entries = entries - 1 WHERE id = 0;
END;
";

/// A unit of work for the store's thread.
type Job = Box<dyn FnOnce(&mut Db) + Send>;

/// The store backed by a SQLite file. See the module docs.
#[derive(Debug)]
pub struct SqliteStore {
    /// `None` only while dropping, so the thread sees the channel close and ends.
    jobs: Option<mpsc::Sender<Job>>,
    worker: Option<JoinHandle<()>>,
    backend: Arc<str>,
    /// The largest value accepted: the per-entry cap, or the total cap when that is smaller.
    max_value: usize,
}

/// The connection and limits, owned by the store's thread.
struct Db {
    conn: Connection,
    backend: Arc<str>,
    max_bytes: i64,
}

impl SqliteStore {
    /// Open the file at `path` (made when missing; its directory must exist), holding at most
    /// `max_bytes` of values, each at most `max_entry_bytes`. Expired rows left by an earlier
    /// run are purged. A file that is not a SQLite database, or a path that cannot be written,
    /// is refused with an error naming the path.
    pub async fn open(path: &Path, max_bytes: usize, max_entry_bytes: usize) -> Result<SqliteStore, StoreError> {
        let backend: Arc<str> = format!("SQLite ({})", path.display()).into();
        let (jobs, inbox) = mpsc::channel::<Job>();
        let (ready, opened) = oneshot::channel();
        let worker = {
            let path = path.to_path_buf();
            let thread_backend = backend.clone();
            let max_bytes = i64::try_from(max_bytes).unwrap_or(i64::MAX);
            std::thread::Builder::new()
                .name("toolshape-sqlite".into())
                .spawn(move || {
                    let mut db = match Db::open(&path, thread_backend, max_bytes) {
                        Ok(db) => {
                            let _ = ready.send(Ok(()));
                            db
                        }
                        Err(e) => {
                            let _ = ready.send(Err(e));
                            return;
                        }
                    };
                    // Ends when the store is dropped and the channel closes.
                    for job in inbox {
                        job(&mut db);
                    }
                })
                .map_err(|e| StoreError::Backend(format!("{backend}: cannot start its thread: {e}")))?
        };
        let store =
            SqliteStore { jobs: Some(jobs), worker: Some(worker), backend, max_value: max_entry_bytes.min(max_bytes) };
        match opened.await {
            Ok(result) => result.map(|()| store),
            Err(_) => Err(StoreError::Backend(format!("{}: its thread stopped while opening", store.backend))),
        }
    }

    /// What the file holds now (after purging expired rows), counted over every process
    /// sharing it.
    pub async fn stats(&self) -> Result<StoreStats, StoreError> {
        self.run(|db| db.stats()).await
    }

    /// Run `work` on the store's thread and wait for its answer.
    async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut Db) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let (reply, answer) = oneshot::channel();
        let job: Job = Box::new(move |db| {
            let _ = reply.send(work(db));
        });
        let stopped = || StoreError::Backend(format!("{}: its thread has stopped", self.backend));
        self.jobs.as_ref().ok_or_else(stopped)?.send(job).map_err(|_| stopped())?;
        answer.await.map_err(|_| stopped())?
    }
}

impl Drop for SqliteStore {
    fn drop(&mut self) {
        // Close the channel, then wait for the thread to finish its queue and close the file,
        // so that a store reopened right after sees every write and no lingering connection.
        self.jobs.take();
        if let Some(worker) = self.worker.take() {
            let _ = worker.join();
        }
    }
}

impl Store for SqliteStore {
    fn put<'a>(&'a self, key: &'a str, value: Vec<u8>, ttl: Duration) -> StoreFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            if value.len() > self.max_value {
                return Err(StoreError::TooLarge { size: value.len(), limit: self.max_value });
            }
            let key = key.to_owned();
            self.run(move |db| db.put(&key, value, ttl)).await
        })
    }

    fn get<'a>(&'a self, key: &'a str) -> StoreFuture<'a, Result<Option<Arc<Vec<u8>>>, StoreError>> {
        Box::pin(async move {
            let key = key.to_owned();
            self.run(move |db| db.get(&key)).await
        })
    }

    fn delete<'a>(&'a self, key: &'a str) -> StoreFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let key = key.to_owned();
            self.run(move |db| db.delete(&key)).await
        })
    }
}

/// Milliseconds since the Unix epoch: expiry is wall-clock time so that it means the same
/// after a restart and in every process sharing the file.
fn now_millis() -> i64 {
    let since = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
    i64::try_from(since.as_millis()).unwrap_or(i64::MAX)
}

impl Db {
    fn open(path: &PathBuf, backend: Arc<str>, max_bytes: i64) -> Result<Db, StoreError> {
        let cannot_open = |e: rusqlite::Error| {
            let hint = match e.sqlite_error_code() {
                Some(ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt) => {
                    " (the file is not a toolshape store: point the store at a new path)"
                }
                Some(ErrorCode::CannotOpen | ErrorCode::ReadOnly | ErrorCode::PermissionDenied) => {
                    " (check that the directory exists and is writable)"
                }
                _ => "",
            };
            StoreError::Backend(format!("cannot open the {backend} store: {e}{hint}"))
        };
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_CREATE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags).map_err(cannot_open)?;
        conn.busy_timeout(BUSY_TIMEOUT).map_err(cannot_open)?;
        // Snapshots are mostly large blobs: bigger pages mean shorter overflow chains to
        // walk on every read and delete. Only takes effect on a new, empty file.
        conn.pragma_update(None, "page_size", 16384).map_err(cannot_open)?;
        // The first statements read the file: a file that is not a database fails here.
        let mode: String =
            conn.pragma_update_and_check(None, "journal_mode", "WAL", |row| row.get(0)).map_err(cannot_open)?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(StoreError::Backend(format!(
                "cannot open the {backend} store: the file system refused WAL mode (journal mode is {mode})"
            )));
        }
        // NORMAL is durable across process crashes in WAL mode; only a power cut may lose the
        // last writes, which for snapshots only means a cursor that reports them expired.
        conn.pragma_update(None, "synchronous", "NORMAL").map_err(cannot_open)?;
        let version: i64 = conn.pragma_query_value(None, "user_version", |row| row.get(0)).map_err(cannot_open)?;
        if version > SCHEMA_VERSION {
            return Err(StoreError::Backend(format!(
                "cannot open the {backend} store: it was written by a newer toolshape (schema {version}, this one knows {SCHEMA_VERSION})"
            )));
        }
        conn.execute_batch(SCHEMA).map_err(cannot_open)?;
        conn.pragma_update(None, "user_version", SCHEMA_VERSION).map_err(cannot_open)?;
        let db = Db { conn, backend, max_bytes };
        db.purge_expired().map_err(|e| db.error(e))?;
        Ok(db)
    }

    fn error(&self, e: rusqlite::Error) -> StoreError {
        match e.sqlite_error_code() {
            Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => StoreError::Unavailable {
                backend: self.backend.to_string(),
                reason: format!("another process held the file locked for more than {} s", BUSY_TIMEOUT.as_secs()),
            },
            _ => StoreError::Backend(format!("{}: {e}", self.backend)),
        }
    }

    fn purge_expired(&self) -> rusqlite::Result<usize> {
        self.conn.prepare_cached("DELETE FROM toolshape_entries WHERE expires_at <= ?1")?.execute([now_millis()])
    }

    fn put(&mut self, key: &str, value: Vec<u8>, ttl: Duration) -> Result<(), StoreError> {
        // The caller checked the caps already.
        let size = i64::try_from(value.len()).unwrap_or(i64::MAX);
        let now = now_millis();
        let expires_at = now.saturating_add(i64::try_from(ttl_millis(ttl)).unwrap_or(i64::MAX));
        let max_bytes = self.max_bytes;
        let write = |conn: &mut Connection| -> rusqlite::Result<()> {
            // IMMEDIATE takes the write lock at once, so the totals read below cannot change
            // under us through another process.
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            tx.prepare_cached("DELETE FROM toolshape_entries WHERE key = ?1")?.execute([key])?;
            tx.prepare_cached("DELETE FROM toolshape_entries WHERE expires_at <= ?1")?.execute([now])?;
            let mut bytes: i64 =
                tx.prepare_cached("SELECT bytes FROM toolshape_totals WHERE id = 0")?.query_row([], |r| r.get(0))?;
            let mut evicted: i64 = 0;
            while bytes.saturating_add(size) > max_bytes {
                let oldest: Option<(i64, i64)> = tx
                    .prepare_cached("SELECT seq, size FROM toolshape_entries ORDER BY seq LIMIT 1")?
                    .query_row([], |r| Ok((r.get(0)?, r.get(1)?)))
                    .optional()?;
                let Some((seq, oldest_size)) = oldest else { break };
                tx.prepare_cached("DELETE FROM toolshape_entries WHERE seq = ?1")?.execute([seq])?;
                bytes -= oldest_size;
                evicted += 1;
            }
            if evicted > 0 {
                tx.prepare_cached("UPDATE toolshape_totals SET evicted = evicted + ?1 WHERE id = 0")?
                    .execute([evicted])?;
            }
            tx.prepare_cached("INSERT INTO toolshape_entries (key, value, size, expires_at) VALUES (?1, ?2, ?3, ?4)")?
                .execute(params![key, value, size, expires_at])?;
            tx.commit()
        };
        write(&mut self.conn).map_err(|e| self.error(e))
    }

    fn get(&mut self, key: &str) -> Result<Option<Arc<Vec<u8>>>, StoreError> {
        let read = |conn: &Connection| -> rusqlite::Result<Option<Vec<u8>>> {
            conn.prepare_cached("SELECT value FROM toolshape_entries WHERE key = ?1 AND expires_at > ?2")?
                .query_row(params![key, now_millis()], |r| r.get(0))
                .optional()
        };
        // Expired rows are left for the next write to purge: a read never takes the write lock.
        read(&self.conn).map(|v| v.map(Arc::new)).map_err(|e| self.error(e))
    }

    fn delete(&mut self, key: &str) -> Result<(), StoreError> {
        let delete =
            |conn: &Connection| conn.prepare_cached("DELETE FROM toolshape_entries WHERE key = ?1")?.execute([key]);
        delete(&self.conn).map(|_| ()).map_err(|e| self.error(e))
    }

    fn stats(&mut self) -> Result<StoreStats, StoreError> {
        let read = |conn: &Connection| -> rusqlite::Result<(i64, i64, i64)> {
            conn.prepare_cached("DELETE FROM toolshape_entries WHERE expires_at <= ?1")?.execute([now_millis()])?;
            conn.prepare_cached("SELECT entries, bytes, evicted FROM toolshape_totals WHERE id = 0")?
                .query_row([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        };
        let (entries, bytes, evicted) = read(&self.conn).map_err(|e| self.error(e))?;
        Ok(StoreStats {
            entries: usize::try_from(entries).unwrap_or(0),
            bytes: usize::try_from(bytes).unwrap_or(0),
            // Values are stored as given.
            uncompressed_bytes: usize::try_from(bytes).unwrap_or(0),
            evicted: u64::try_from(evicted).unwrap_or(0),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TTL: Duration = Duration::from_secs(60);

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
    }

    /// The workspace builds SQLite without the extensions it does not use
    /// (`.cargo/config.toml`); if the build script stopped honouring the flags, the binary
    /// would silently grow again.
    #[test]
    fn sqlite_is_built_without_the_unused_extensions() {
        let conn = rusqlite::Connection::open_in_memory().unwrap();
        let used = |option: &str| -> bool {
            conn.query_row("SELECT sqlite_compileoption_used(?1)", [option], |row| row.get(0)).unwrap()
        };
        assert!(used("OMIT_JSON") && used("OMIT_LOAD_EXTENSION"), "the omissions are compiled in");
        assert!(!used("ENABLE_FTS5") && !used("ENABLE_RTREE") && !used("ENABLE_FTS3"), "the extensions are left out");
        // What the stores need still builds: a table and an index (the tests below run the
        // store itself, in WAL mode, on files).
        conn.execute_batch("CREATE TABLE t (k TEXT PRIMARY KEY, v BLOB); CREATE INDEX tv ON t (v);").unwrap();
    }

    #[test]
    fn survives_a_restart() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("store.db");
        let rt = runtime();
        let value: Vec<u8> = (0..=255u8).cycle().take(70_000).collect();
        {
            let store = rt.block_on(SqliteStore::open(&path, 1 << 20, 1 << 20)).unwrap();
            rt.block_on(store.put("snap", value.clone(), TTL)).unwrap();
            rt.block_on(store.put("gone", vec![1], Duration::ZERO)).unwrap();
        }
        let store = rt.block_on(SqliteStore::open(&path, 1 << 20, 1 << 20)).unwrap();
        assert_eq!(rt.block_on(store.get("snap")).unwrap().as_deref(), Some(&value));
        assert!(rt.block_on(store.get("gone")).unwrap().is_none());
        assert_eq!(
            rt.block_on(store.stats()).unwrap(),
            StoreStats { entries: 1, bytes: 70_000, uncompressed_bytes: 70_000, evicted: 0 }
        );
    }

    #[test]
    fn evicts_oldest_to_stay_bounded_and_counts_replacements_once() {
        let dir = tempfile::tempdir().unwrap();
        let rt = runtime();
        let store = rt.block_on(SqliteStore::open(&dir.path().join("s.db"), 10, 10)).unwrap();
        for key in ["a", "b", "b", "c"] {
            rt.block_on(store.put(key, vec![0; 4], TTL)).unwrap();
        }
        assert!(rt.block_on(store.get("a")).unwrap().is_none());
        assert!(rt.block_on(store.get("b")).unwrap().is_some());
        assert!(rt.block_on(store.get("c")).unwrap().is_some());
        assert_eq!(
            rt.block_on(store.stats()).unwrap(),
            StoreStats { entries: 2, bytes: 8, uncompressed_bytes: 8, evicted: 1 }
        );
    }

    #[test]
    fn caps_refuse_without_touching_the_old_value() {
        let dir = tempfile::tempdir().unwrap();
        let rt = runtime();
        let store = rt.block_on(SqliteStore::open(&dir.path().join("s.db"), 100, 8)).unwrap();
        rt.block_on(store.put("a", vec![7; 8], TTL)).unwrap();
        assert_eq!(rt.block_on(store.put("a", vec![1; 9], TTL)), Err(StoreError::TooLarge { size: 9, limit: 8 }));
        assert_eq!(rt.block_on(store.get("a")).unwrap().as_deref(), Some(&vec![7; 8]));
        let small_total = rt.block_on(SqliteStore::open(&dir.path().join("t.db"), 5, 8)).unwrap();
        assert_eq!(rt.block_on(small_total.put("a", vec![1; 6], TTL)), Err(StoreError::TooLarge { size: 6, limit: 5 }));
    }

    #[test]
    fn delete_and_expiry() {
        let dir = tempfile::tempdir().unwrap();
        let rt = runtime();
        let store = rt.block_on(SqliteStore::open(&dir.path().join("s.db"), 100, 100)).unwrap();
        rt.block_on(store.put("a", vec![1; 10], TTL)).unwrap();
        rt.block_on(store.put("short", vec![1; 10], Duration::from_millis(30))).unwrap();
        rt.block_on(store.delete("a")).unwrap();
        rt.block_on(store.delete("never-there")).unwrap();
        assert!(rt.block_on(store.get("a")).unwrap().is_none());
        assert!(rt.block_on(store.get("short")).unwrap().is_some());
        std::thread::sleep(Duration::from_millis(60));
        assert!(rt.block_on(store.get("short")).unwrap().is_none());
        assert_eq!(
            rt.block_on(store.stats()).unwrap(),
            StoreStats { entries: 0, bytes: 0, uncompressed_bytes: 0, evicted: 0 }
        );
    }

    #[test]
    fn two_stores_on_one_file_share_entries_and_the_cap() {
        // Two connections to one file behave as two gateway processes would.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("shared.db");
        let rt = runtime();
        let first = rt.block_on(SqliteStore::open(&path, 10, 10)).unwrap();
        let second = rt.block_on(SqliteStore::open(&path, 10, 10)).unwrap();
        rt.block_on(first.put("a", vec![1; 6], TTL)).unwrap();
        assert_eq!(rt.block_on(second.get("a")).unwrap().as_deref(), Some(&vec![1; 6]));
        rt.block_on(second.put("b", vec![2; 6], TTL)).unwrap();
        assert!(rt.block_on(first.get("a")).unwrap().is_none(), "the second process's write evicted it");
        assert_eq!(
            rt.block_on(first.stats()).unwrap(),
            StoreStats { entries: 1, bytes: 6, uncompressed_bytes: 6, evicted: 1 }
        );
    }

    #[test]
    fn concurrent_writers_in_many_tasks_stay_within_the_cap() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("busy.db");
        let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
        rt.block_on(async {
            let stores = [
                Arc::new(SqliteStore::open(&path, 1000, 100).await.unwrap()),
                Arc::new(SqliteStore::open(&path, 1000, 100).await.unwrap()),
            ];
            let mut tasks = Vec::new();
            for i in 0..40usize {
                let store = stores[i % 2].clone();
                tasks.push(tokio::spawn(async move {
                    let key = format!("k{}", i % 13);
                    store.put(&key, vec![u8::try_from(i).unwrap(); 10 + i], TTL).await.unwrap();
                    store.get(&key).await.unwrap();
                }));
            }
            for task in tasks {
                task.await.unwrap();
            }
            let stats = stores[0].stats().await.unwrap();
            assert!(stats.bytes <= 1000, "{stats:?}");
            assert!(stats.entries <= 13, "{stats:?}");
        });
    }

    #[test]
    fn a_file_that_is_not_a_database_is_refused_clearly() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("not-a-db.db");
        std::fs::write(&path, vec![b'x'; 8192]).unwrap();
        let err = runtime().block_on(SqliteStore::open(&path, 100, 100)).unwrap_err();
        let message = err.to_string();
        assert!(message.contains("not-a-db.db"), "{message}");
        assert!(message.contains("not a database"), "{message}");
    }

    #[test]
    fn a_path_in_a_missing_directory_is_refused_clearly() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("no-such-dir").join("store.db");
        let err = runtime().block_on(SqliteStore::open(&path, 100, 100)).unwrap_err();
        let message = err.to_string();
        assert!(message.contains("no-such-dir"), "{message}");
        assert!(message.contains("writable"), "{message}");
    }
}
