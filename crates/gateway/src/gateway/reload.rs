//! Reloading the config of a running gateway, without a restart.
//!
//! A reload puts a new [`Loaded`] (config, masks, tokenizer) in place, keeps every upstream
//! whose spec did not change (its process, connection and tool list go on), starts the new
//! and changed ones as the config says (lazily unless `start: eager`), stops the removed and
//! replaced ones, and tells every agent that its tool, prompt and resource lists changed.
//! Calls under way finish on what they started with. The store, keys, `auth:` and `http:`
//! are the process's, not the config's, once running: a reload that changes them says so and
//! leaves them for the next start.

use std::collections::BTreeMap;
use std::sync::Arc;

use toolshape_mask::{Config, MaskSet, StartPolicy};
use toolshape_tokens::Tokenizer;

use super::{Gateway, Loaded};
use crate::GatewayError;
use crate::agent::ListKind;
use crate::upstream::Upstream;

/// What a reload changed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reloaded {
    /// Upstreams the new config adds.
    pub added: Vec<String>,
    /// Upstreams whose spec changed: stopped, and started again from the new spec.
    pub restarted: Vec<String>,
    /// Upstreams the new config no longer has: stopped.
    pub removed: Vec<String>,
    /// Sections that changed but apply only at the next start (`store`, `auth`, `http`,
    /// `telemetry`).
    pub needs_restart: Vec<&'static str>,
}

impl Gateway {
    /// Replace the running config with `config` (compiled into `masks`, already checked). A
    /// config whose profiles no longer include the gateway's `--profile` is refused, and the
    /// running config kept.
    pub async fn reload(&self, config: Config, masks: MaskSet) -> Result<Reloaded, GatewayError> {
        masks.surface(self.options.profile.as_deref(), &[]).map_err(GatewayError::Profile)?;
        let old_loaded = self.loaded();
        let old = self.upstreams();
        let mut out = Reloaded::default();
        let mut next = BTreeMap::new();
        for (name, spec) in &config.upstreams {
            match old.get(name) {
                Some(up) if old_loaded.config.upstreams.get(name) == Some(spec) => {
                    next.insert(name.clone(), up.clone());
                }
                existing => {
                    if existing.is_some() {
                        out.restarted.push(name.clone());
                    } else {
                        out.added.push(name.clone());
                    }
                    let fresh = Upstream::new(name, spec.clone(), self.events.clone(), self.log_levels.clone());
                    next.insert(name.clone(), Arc::new(fresh));
                }
            }
        }
        out.removed = old.keys().filter(|name| !config.upstreams.contains_key(*name)).cloned().collect();
        let was = &old_loaded.config;
        for (section, changed) in [
            ("store", was.store != config.store),
            ("auth", was.auth != config.auth),
            ("http", was.http != config.http),
            ("telemetry", was.telemetry != config.telemetry),
        ] {
            if changed {
                out.needs_restart.push(section);
            }
        }
        let eager: Vec<String> = out
            .added
            .iter()
            .chain(&out.restarted)
            .filter(|n| config.upstreams.get(*n).is_some_and(|s| s.start == StartPolicy::Eager))
            .cloned()
            .collect();
        let stopped: Vec<Arc<Upstream>> =
            out.removed.iter().chain(&out.restarted).filter_map(|name| old.get(name).cloned()).collect();
        let tokenizer = Tokenizer::new(masks.defaults().tokenizer);
        *self.loaded.write().unwrap_or_else(std::sync::PoisonError::into_inner) =
            Arc::new(Loaded { config, masks, tokenizer });
        *self.upstreams.write().unwrap_or_else(std::sync::PoisonError::into_inner) = Arc::new(next);
        let forgotten: Vec<String> = out.removed.iter().chain(&out.restarted).cloned().collect();
        self.catalog.forget_upstreams(&forgotten);
        for up in stopped {
            tokio::spawn(async move { up.stop().await });
        }
        for name in eager {
            if let Some(up) = self.upstream(&name) {
                tokio::spawn(async move { up.start().await });
            }
        }
        for kind in [ListKind::Tools, ListKind::Prompts, ListKind::Resources] {
            self.listeners.notify_all(kind).await;
        }
        Ok(out)
    }
}
