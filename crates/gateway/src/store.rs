//! Where snapshots live between a call and the `result_read` calls that page through it.
//!
//! The store is its own crate, `toolshape-store`; the gateway re-exports what a caller of
//! [`Gateway::launch_with_store`](crate::Gateway::launch_with_store) needs. [`Store`] is the
//! interface the gateway holds (an `Arc<dyn Store>`): opaque keys and byte values, each with
//! a time to live. [`MemoryStore`] is the default; SQLite and Redis stores are chosen by a
//! [`StoreSpec`] through [`open`]; [`spec`] reads one from the config's `store:` section.

use toolshape_mask::{StoreBackend, StoreConfig};
pub use toolshape_store::{MemoryStore, Store, StoreError, StoreFuture, StoreStats};
pub(crate) use toolshape_store::{StoreSpec, open};

use crate::GatewayError;

/// The store `config` describes, holding at most `max_bytes` when given (a command-line
/// override of `store.max_bytes`).
pub(crate) fn spec(config: &StoreConfig, max_bytes: Option<usize>) -> Result<StoreSpec, GatewayError> {
    let max_bytes = max_bytes.unwrap_or_else(|| usize::try_from(config.max_bytes).unwrap_or(usize::MAX)).max(1);
    let max_entry_bytes = usize::try_from(config.max_entry_bytes).unwrap_or(usize::MAX).max(1);
    let missing =
        |what: &str| GatewayError::Store(StoreError::Backend(format!("the config's store section has no `{what}`")));
    Ok(match config.backend {
        StoreBackend::Memory => StoreSpec::Memory { max_bytes },
        StoreBackend::Sqlite => StoreSpec::Sqlite {
            path: config.path.as_deref().filter(|p| !p.is_empty()).ok_or_else(|| missing("path"))?.into(),
            max_bytes,
            max_entry_bytes,
        },
        StoreBackend::Redis => StoreSpec::Redis {
            url: config.url.clone().filter(|u| !u.is_empty()).ok_or_else(|| missing("url"))?,
            key_prefix: config.key_prefix.clone(),
            max_entry_bytes,
        },
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn each_backend_maps_with_its_limits_and_the_size_override_wins() {
        let mut config = StoreConfig { max_bytes: 1000, max_entry_bytes: 100, ..StoreConfig::default() };
        assert_eq!(spec(&config, None).unwrap(), StoreSpec::Memory { max_bytes: 1000 });
        assert_eq!(spec(&config, Some(5)).unwrap(), StoreSpec::Memory { max_bytes: 5 });
        config.backend = StoreBackend::Sqlite;
        assert!(spec(&config, None).is_err());
        config.path = Some("state/toolshape.sqlite".into());
        assert_eq!(
            spec(&config, None).unwrap(),
            StoreSpec::Sqlite { path: "state/toolshape.sqlite".into(), max_bytes: 1000, max_entry_bytes: 100 }
        );
        config.backend = StoreBackend::Redis;
        assert!(spec(&config, None).is_err());
        config.url = Some("redis://127.0.0.1:6379/3".into());
        config.key_prefix = "ts-a:".into();
        assert_eq!(
            spec(&config, Some(7)).unwrap(),
            StoreSpec::Redis {
                url: "redis://127.0.0.1:6379/3".into(),
                key_prefix: "ts-a:".into(),
                max_entry_bytes: 100
            }
        );
    }
}
