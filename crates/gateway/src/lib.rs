//! The toolshape gateway: one MCP server in front of many, enforcing the result contract
//! where every call passes.
//!
//! Toward the agent it serves MCP over stdio or Streamable HTTP ([`serve_stdio`],
//! [`serve_http_with`]): the masked surface of the config, the unmasked upstream tools it
//! exposes, and toolshape's own `result_read`. Toward upstreams it starts child processes or
//! connects Streamable HTTP servers, each under a time-out, a response size cap and a
//! concurrency limit, restarted with backoff after a crash.
//!
//! Modules, from the agent inward:
//! - `serve`: stdio and Streamable HTTP serving, and the HTTP layers that guard it.
//! - `server`: the rmcp `ServerHandler`, the only module that knows rmcp's server handles:
//!   `server::link` (the `AgentLink` over a session's peer), `server::input`
//!   (calls of 2026-07-28 agents parked while they wait for the agent's input),
//!   `server::client` (what is decided per client at `initialize`).
//! - `agent`: the `AgentLink` seam: what the rest of the gateway needs of an agent.
//! - `auth`: bearer tokens, principals and sessions bound to them (HTTP mode).
//! - `sessions`: MCP session records in the store, so any replica can resume a session.
//! - `gateway`: [`Gateway`], its parts and [`Gateway::call`], the one dispatch path
//!   (`gateway/call.rs`), with the tool catalog, tool search, shaping, snapshots, call
//!   records, the pass-through of prompts and resources, list-change listeners and
//!   resource watches each in a file of its own.
//! - `search`: tool search as served (index per surface, the search and call tools).
//! - `read`: `result_read` arguments and views (JSONPath queries, patterns, slices).
//! - `cursor`: signed, expiring, scoped cursors.
//! - `store`: the store the config names (re-exported from `toolshape-store`).
//! - `log_levels`: the log level each session set; upstream log messages are filtered by it.
//! - `upstream`: connections to upstream servers (rmcp client side): lifecycle, requests,
//!   content reduction, failures, relays, child processes, the stdout line guard and the
//!   stdio transport.
//! - `error`: [`GatewayError`], why the gateway could not start or keep serving.
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

mod agent;
mod auth;
mod cursor;
mod error;
mod gateway;
mod json_answers;
mod log_levels;
mod read;
mod rpc_body;
mod search;
mod serve;
mod server;
mod sessions;
mod store;
mod upstream;

pub use error::GatewayError;
pub use gateway::{Caller, FailureKind, Gateway, GatewayOptions, Outcome, PinOptions, Reloaded, RequestError};
pub use serve::{HttpOptions, check_bind, check_exposure, serve_http_with, serve_io, serve_stdio};
/// How often a replica checks that an HTTP session it holds still has its record in the
/// shared store (a session ended on another replica ends here within this time).
pub use sessions::RECHECK_AFTER as SESSION_RECHECK_INTERVAL;
pub use store::{MemoryStore, Store, StoreError, StoreFuture, StoreStats};
