//! The Redis store: shared by every replica that points at the same server.
//!
//! Every value is written with `SET key value PX ttl`, so no key outlives its time to live
//! even if every replica dies. Keys carry a prefix (e.g. `toolshape:`) so one Redis can serve
//! other users too. One multiplexed connection per store, managed by redis'
//! `ConnectionManager`: when the server goes away it reconnects with exponential backoff,
//! while every operation is bounded by [`RedisOptions::operation_timeout`], so a dead server
//! answers [`StoreError::Unavailable`] in about that time instead of hanging a call.
//!
//! The total size is bounded by Redis itself, not here: set `maxmemory` with
//! `maxmemory-policy volatile-lru` (every key of this store has a TTL, so the volatile
//! policies apply to all of them) or `allkeys-lru`. With `noeviction` a full Redis refuses
//! writes, which callers see as [`StoreError::Backend`]. [`RedisStore::connect`] logs a
//! warning when the server has no `maxmemory`.
//!
//! A password in the URL is used to authenticate and never appears in an error, a log line
//! or a `Debug` output.

use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use redis::{AsyncConnectionConfig, ErrorKind, FromRedisValue, RedisError, ServerErrorKind};

use crate::{Store, StoreError, StoreFuture, ttl_millis};

/// How a [`RedisStore`] names keys and how long it waits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RedisOptions {
    /// Put before every key, e.g. `toolshape:`.
    pub key_prefix: String,
    /// The largest single value.
    pub max_entry_bytes: usize,
    /// The most one operation may take, reconnecting included, before it fails as unavailable.
    pub operation_timeout: Duration,
    /// The most one connection attempt may take.
    pub connect_timeout: Duration,
}

impl Default for RedisOptions {
    fn default() -> RedisOptions {
        RedisOptions {
            key_prefix: "toolshape:".into(),
            max_entry_bytes: 64 * 1024 * 1024,
            operation_timeout: Duration::from_secs(2),
            connect_timeout: Duration::from_secs(1),
        }
    }
}

/// The store backed by a Redis server. See the module docs.
pub struct RedisStore {
    manager: ConnectionManager,
    options: RedisOptions,
    /// `Redis (host:port/db)`: names the server in errors without credentials.
    backend: Arc<str>,
    /// Strings that must never appear in an error message (the URL's password and user).
    secrets: Vec<String>,
}

impl fmt::Debug for RedisStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RedisStore").field("backend", &self.backend).field("options", &self.options).finish()
    }
}

impl RedisStore {
    /// Connect to the server at `url` (`redis://[[user]:password@]host:port/db`) and check that
    /// it answers within the operation timeout. An unreachable server is
    /// [`StoreError::Unavailable`]; a URL that does not parse or a refused password is
    /// [`StoreError::Backend`]. Later outages are survived: the store reconnects by itself.
    pub async fn connect(url: &str, options: RedisOptions) -> Result<RedisStore, StoreError> {
        let client = redis::Client::open(url).map_err(|_| {
            // The parser's message may quote the URL: say what is expected instead.
            StoreError::Backend(format!(
                "invalid Redis URL {}: expected redis://[[user]:password@]host:port/db",
                redact_url(url)
            ))
        })?;
        let info = client.get_connection_info();
        let backend: Arc<str> = format!("Redis ({}/{})", info.addr(), info.redis_settings().db()).into();
        let secrets: Vec<String> = [info.redis_settings().password(), info.redis_settings().username()]
            .into_iter()
            .flatten()
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect();
        // A first connection of our own, not retried: an unreachable server or a refused
        // password is reported as what it is, at once, rather than after the manager's retries.
        let probe_config = AsyncConnectionConfig::new()
            .set_connection_timeout(Some(options.connect_timeout))
            .set_response_timeout(Some(options.operation_timeout));
        let probe = async {
            let mut connection = client.get_multiplexed_async_connection_with_config(&probe_config).await?;
            redis::cmd("PING").query_async::<String>(&mut connection).await
        };
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(options.connect_timeout))
            .set_response_timeout(Some(options.operation_timeout))
            // Reconnect attempts back off from 50 ms, and give up after three so that an
            // operation during an outage fails fast (connection refused) instead of waiting
            // out the timeout; the next operation starts a new round.
            .set_min_delay(Duration::from_millis(50))
            .set_max_delay(Duration::from_millis(500))
            .set_exponent_base(2.0)
            .set_number_of_retries(2);
        let manager = ConnectionManager::new_lazy_with_config(client.clone(), config).map_err(|e| {
            StoreError::Backend(format!("{backend}: cannot set up a connection: {}", scrub(&e.to_string(), &secrets)))
        })?;
        let store = RedisStore { manager, options, backend, secrets };
        match tokio::time::timeout(store.options.operation_timeout, probe).await {
            Ok(Ok(pong)) if pong == "PONG" => {}
            Ok(Ok(other)) => {
                return Err(StoreError::Backend(format!("{}: PING answered {other:?}", store.backend)));
            }
            Ok(Err(e)) => return Err(store.classify(&e)),
            Err(_) => return Err(store.timed_out()),
        }
        store.warn_when_unbounded().await;
        Ok(store)
    }

    /// The key under which `key` is kept in Redis.
    fn redis_key(&self, key: &str) -> String {
        format!("{}{key}", self.options.key_prefix)
    }

    /// Send `cmd`, bounded by the operation timeout, and read its answer as `T`.
    fn run<T: FromRedisValue + Send + 'static>(
        &self,
        cmd: redis::Cmd,
    ) -> impl Future<Output = Result<T, StoreError>> + Send + '_ {
        let mut connection = self.manager.clone();
        async move {
            let sent = async move { cmd.query_async::<T>(&mut connection).await };
            match tokio::time::timeout(self.options.operation_timeout, sent).await {
                Ok(Ok(answer)) => Ok(answer),
                Ok(Err(e)) => Err(self.classify(&e)),
                Err(_) => Err(self.timed_out()),
            }
        }
    }

    fn timed_out(&self) -> StoreError {
        StoreError::Unavailable {
            backend: self.backend.to_string(),
            reason: format!("no answer within {} ms", self.options.operation_timeout.as_millis()),
        }
    }

    /// Sort a redis error into retryable (the server is unreachable or not ready) or not.
    fn classify(&self, e: &RedisError) -> StoreError {
        let reason = scrub(&e.to_string(), &self.secrets);
        let unreachable = e.is_io_error()
            || e.is_timeout()
            || e.is_connection_refusal()
            || e.is_connection_dropped()
            || matches!(
                e.kind(),
                ErrorKind::Server(
                    ServerErrorKind::BusyLoading
                        | ServerErrorKind::TryAgain
                        | ServerErrorKind::MasterDown
                        | ServerErrorKind::ClusterDown
                )
            );
        if unreachable {
            StoreError::Unavailable { backend: self.backend.to_string(), reason }
        } else {
            StoreError::Backend(format!("{}: {reason}", self.backend))
        }
    }

    /// Warn when the server's memory is unbounded or never evicts: the total size of this
    /// store is Redis' to bound. Servers that disable `CONFIG` are left alone.
    async fn warn_when_unbounded(&self) {
        let mut cmd = redis::cmd("CONFIG");
        cmd.arg("GET").arg("maxmemory*");
        let settings: HashMap<String, String> = match self.run(cmd).await {
            Ok(settings) => settings,
            Err(e) => {
                tracing::debug!(error = %e, "could not read the Redis memory settings");
                return;
            }
        };
        if settings.get("maxmemory").is_some_and(|v| v == "0") {
            tracing::warn!(
                backend = %self.backend,
                "Redis has no maxmemory: snapshots expire by TTL but their total size is unbounded; \
                 set maxmemory and maxmemory-policy volatile-lru"
            );
        } else if settings.get("maxmemory-policy").is_some_and(|v| v == "noeviction") {
            tracing::warn!(
                backend = %self.backend,
                "Redis maxmemory-policy is noeviction: when it is full, storing a snapshot fails; \
                 volatile-lru evicts the oldest snapshots instead"
            );
        }
    }
}

impl Store for RedisStore {
    fn put<'a>(&'a self, key: &'a str, value: Vec<u8>, ttl: Duration) -> StoreFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            if value.len() > self.options.max_entry_bytes {
                return Err(StoreError::TooLarge { size: value.len(), limit: self.options.max_entry_bytes });
            }
            let millis = ttl_millis(ttl);
            let mut cmd;
            if millis == 0 {
                // Redis refuses PX 0; a value that expires at once is a value that is gone.
                cmd = redis::cmd("DEL");
                cmd.arg(self.redis_key(key));
            } else {
                cmd = redis::cmd("SET");
                cmd.arg(self.redis_key(key)).arg(value.as_slice()).arg("PX").arg(millis);
            }
            self.run::<redis::Value>(cmd).await.map(|_| ())
        })
    }

    fn get<'a>(&'a self, key: &'a str) -> StoreFuture<'a, Result<Option<Arc<Vec<u8>>>, StoreError>> {
        Box::pin(async move {
            let mut cmd = redis::cmd("GET");
            cmd.arg(self.redis_key(key));
            let value: Option<Vec<u8>> = self.run(cmd).await?;
            Ok(value.map(Arc::new))
        })
    }

    fn delete<'a>(&'a self, key: &'a str) -> StoreFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let mut cmd = redis::cmd("DEL");
            cmd.arg(self.redis_key(key));
            self.run::<i64>(cmd).await.map(|_| ())
        })
    }
}

/// `message` with every secret replaced by `***`.
fn scrub(message: &str, secrets: &[String]) -> String {
    secrets.iter().fold(message.to_owned(), |m, secret| m.replace(secret.as_str(), "***"))
}

/// `url` without its user, password and query (where a password may also be given), for
/// messages and `Debug` output.
pub(crate) fn redact_url(url: &str) -> String {
    let without_query = url.split(['?', '#']).next().unwrap_or_default();
    let Some((scheme, rest)) = without_query.split_once("://") else {
        // Not a URL at all: show nothing of it rather than risk showing a secret.
        return "(unparsable)".into();
    };
    let authority_end = rest.find('/').unwrap_or(rest.len());
    match rest[..authority_end].rfind('@') {
        Some(at) => format!("{scheme}://***@{}", &rest[at + 1..]),
        None => format!("{scheme}://{rest}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redact_url_drops_credentials_and_query() {
        assert_eq!(redact_url("redis://:hunter22@localhost:6379/0"), "redis://***@localhost:6379/0");
        assert_eq!(redact_url("redis://me:p%40ss@h:1/2"), "redis://***@h:1/2");
        assert_eq!(redact_url("redis://h:1/2"), "redis://h:1/2");
        assert_eq!(redact_url("redis+unix:///run/redis.sock?db=1&pass=hunter22"), "redis+unix:///run/redis.sock");
        assert_eq!(redact_url("hunter22"), "(unparsable)");
    }

    #[test]
    fn scrub_removes_every_secret() {
        let secrets = vec!["hunter22".to_owned(), "alice".to_owned()];
        assert_eq!(scrub("alice failed with hunter22 twice: hunter22", &secrets), "*** failed with *** twice: ***");
    }

    #[tokio::test]
    async fn an_unparsable_url_is_a_clear_error_without_the_password() {
        let err = RedisStore::connect("redis://:hunter22@host:notaport/0", RedisOptions::default()).await.unwrap_err();
        let message = err.to_string();
        assert!(!message.contains("hunter22"), "{message}");
        assert!(message.contains("expected redis://"), "{message}");
    }
}
