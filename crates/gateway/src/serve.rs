//! Serving the gateway to agents: over stdio (one agent, the usual MCP client setup), over
//! any byte stream (tests, embedding), or over Streamable HTTP (several agents).
//!
//! HTTP binds to loopback unless remote access is allowed explicitly, and keeps rmcp's
//! `Host` header check against DNS rebinding: only loopback names, plus the hosts given,
//! are accepted.

use std::net::SocketAddr;
use std::sync::Arc;

use rmcp::ServiceExt;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio_util::sync::CancellationToken;

use crate::GatewayError;
use crate::gateway::Gateway;
use crate::server::GatewayServer;

/// Serve one agent over this process's stdin and stdout until it disconnects. Nothing else
/// may write to stdout meanwhile: it is the protocol channel (logs go to stderr).
pub async fn serve_stdio(gateway: Arc<Gateway>) -> Result<(), GatewayError> {
    serve_io(gateway, tokio::io::stdin(), tokio::io::stdout()).await
}

/// Serve one agent over a pair of byte streams until it disconnects.
pub async fn serve_io<R, W>(gateway: Arc<Gateway>, read: R, write: W) -> Result<(), GatewayError>
where
    R: AsyncRead + Send + Unpin + 'static,
    W: AsyncWrite + Send + Unpin + 'static,
{
    let server = GatewayServer::new(gateway, "stdio");
    let running = server.serve((read, write)).await.map_err(|e| GatewayError::Session(e.to_string()))?;
    running.waiting().await.map_err(|e| GatewayError::Session(e.to_string()))?;
    Ok(())
}

/// Check that `addr` may be listened on: loopback, or anything when `allow_remote`.
pub fn check_bind(addr: SocketAddr, allow_remote: bool) -> Result<(), GatewayError> {
    if addr.ip().is_loopback() || allow_remote { Ok(()) } else { Err(GatewayError::NotLoopback { addr }) }
}

/// Listen on `addr` (see [`check_bind`]) and serve Streamable HTTP at `/mcp` until
/// `shutdown` fires. `allowed_hosts` adds `Host` header values to the loopback ones (for a
/// remote deployment, the names clients use). `ready` receives the bound address, which
/// tells the caller the port when `addr` asked for port 0.
pub async fn serve_http(
    gateway: Arc<Gateway>,
    addr: SocketAddr,
    allow_remote: bool,
    allowed_hosts: Vec<String>,
    shutdown: CancellationToken,
    ready: Option<tokio::sync::oneshot::Sender<SocketAddr>>,
) -> Result<(), GatewayError> {
    check_bind(addr, allow_remote)?;
    let listener = tokio::net::TcpListener::bind(addr).await.map_err(|source| GatewayError::Bind { addr, source })?;
    let bound = listener.local_addr()?;
    let mut hosts: Vec<String> = vec!["localhost".into(), "127.0.0.1".into(), "::1".into()];
    hosts.extend(allowed_hosts);
    // Browsers send `Origin`: a page elsewhere must not drive the gateway (DNS rebinding and
    // cross-site requests), so only the allowed hosts' own origins pass. Requests without an
    // `Origin` (every non-browser client) are not affected.
    let origins: Vec<String> = hosts
        .iter()
        .flat_map(|h| {
            let host = if h.contains(':') && !h.starts_with('[') { format!("[{h}]") } else { h.clone() };
            [
                format!("http://{host}:*"),
                format!("https://{host}:*"),
                format!("http://{host}"),
                format!("https://{host}"),
            ]
        })
        .collect();
    let config = StreamableHttpServerConfig::default()
        .with_allowed_hosts(hosts)
        .with_allowed_origins(origins)
        .enforce_origin_validation()
        .with_cancellation_token(shutdown.child_token());
    // The factory runs per session: a clone of two `Arc`s.
    let server = GatewayServer::new(gateway, "http");
    let service =
        StreamableHttpService::new(move || Ok(server.clone()), Arc::new(LocalSessionManager::default()), config);
    let router = axum::Router::new().nest_service("/mcp", service);
    tracing::info!(address = %bound, "serving MCP over Streamable HTTP at /mcp");
    if let Some(tx) = ready {
        let _ = tx.send(bound);
    }
    axum::serve(listener, router).with_graceful_shutdown(async move { shutdown.cancelled().await }).await?;
    Ok(())
}
