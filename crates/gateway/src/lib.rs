//! The toolshape gateway: one MCP server in front of many, enforcing the result contract
//! where every call passes.
//!
//! Toward the agent it serves MCP over stdio or Streamable HTTP ([`serve_stdio`],
//! [`serve_http`]): the masked surface of the config, the unmasked upstream tools it
//! exposes, and toolshape's own `result_read`. Toward upstreams it starts child processes or
//! connects Streamable HTTP servers, each under a time-out, a response size cap and a
//! concurrency limit, restarted with backoff after a crash.
//!
//! Modules, from the agent inward:
//! - `server`: the rmcp `ServerHandler`; converts between MCP messages and [`Gateway`] calls.
//!   The only module that implements rmcp server traits, kept thin.
//! - [`gateway`]: [`Gateway::call`], the one dispatch path, and the snapshots behind cursors.
//! - `input`: calls of 2026-07-28 agents parked while they wait for the agent's input.
//! - `listeners`: the agent sessions and subscriptions told of list changes.
//! - `watches`: resource subscriptions, by session, made once per resource upstream.
//! - `log_levels`: the log level each session set; upstream log messages are filtered by it.
//! - [`read`]: `result_read` arguments and views (JSONPath queries, patterns, slices).
//! - [`cursor`]: signed, expiring, scoped cursors.
//! - [`auth`]: bearer tokens, principals and sessions bound to them (HTTP mode).
//! - [`store`]: the [`Store`] trait and the bounded in-memory store.
//! - [`sessions`]: MCP session records in the store, so any replica can resume a session.
//! - `upstream`: connections to upstream servers (rmcp client side).
//!
//! ```no_run
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let text = std::fs::read_to_string("toolshape.yaml")?;
//! let (config, masks) = toolshape_mask::load(&text, "toolshape.yaml", &|v| std::env::var(v).ok())
//!     .map_err(|e| e.to_string())?;
//! let gateway = toolshape_gateway::Gateway::launch(config, masks, Default::default()).await?;
//! let caller = toolshape_gateway::Caller::local("cli");
//! let outcome = gateway.call("open_issues", None, &caller).await;
//! println!("{}", outcome.text);
//! # Ok(()) }
//! ```

pub mod auth;
pub mod cursor;
mod error;
pub mod gateway;
mod input;
mod listeners;
mod log_levels;
mod random;
pub mod read;
mod search;
mod serve;
mod server;
pub mod sessions;
pub mod store;
mod upstream;
mod watches;
mod wire;

pub use cursor::{Cursor, CursorError, CursorKey, SnapshotId};
pub use error::GatewayError;
pub use gateway::{Caller, Gateway, GatewayOptions, Outcome, ResourceError};
pub use serve::{HttpOptions, check_bind, check_exposure, serve_http, serve_http_with, serve_io, serve_stdio};
pub use server::GatewayServer;
pub use store::{MemoryStore, Store, StoreError, StoreFuture, StoreStats};
