//! Serving the gateway to agents: over stdio (one agent, the usual MCP client setup), over
//! any byte stream (tests, embedding), or over Streamable HTTP (several agents).
//!
//! HTTP is guarded in layers, outermost first:
//! - Binding: loopback unless remote access is allowed explicitly, and a non-loopback
//!   address also needs configured principals ([`check_exposure`]). TLS is not served
//!   in-process: a reverse proxy terminates it.
//! - Headers over [`MAX_HEADER_BYTES`](crate::auth::MAX_HEADER_BYTES) in all are refused
//!   with `431` and a message. Beyond what the HTTP parser buffers (about 400 KiB) or past
//!   100 header lines, the parser itself answers `431` with an empty body and closes the
//!   connection, before any of this code runs.
//! - Bearer tokens and session owners ([`crate::auth`]): `401` without a valid token,
//!   `404` for another principal's session.
//! - rmcp's checks against DNS rebinding and cross-site requests: the `Host` must be a
//!   loopback name or one of `http.allowed_hosts`, and an `Origin` (browsers send one) a
//!   loopback origin, an allowed host's origin or one of `http.allowed_origins`; otherwise
//!   `403`. A body over `http.max_body_bytes` is refused with `413` while it streams in.
//!
//! With `http.metrics` (the default) and a gateway that keeps metrics, `/metrics` serves them
//! in the Prometheus text format, behind the same bearer check.

use std::net::SocketAddr;
use std::sync::Arc;

use rmcp::ServiceExt;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio_util::sync::CancellationToken;
use toolshape_mask::{AuthConfig, HttpConfig};

use crate::GatewayError;
use crate::auth::{Authenticator, Guard, SessionBinder};
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

/// Check that `addr` may be served on: loopback, or, with `allow_remote`, any address as
/// long as callers must authenticate (`auth_enabled`: principals are configured).
pub fn check_exposure(addr: SocketAddr, allow_remote: bool, auth_enabled: bool) -> Result<(), GatewayError> {
    check_bind(addr, allow_remote)?;
    if addr.ip().is_loopback() || auth_enabled { Ok(()) } else { Err(GatewayError::NoAuth { addr }) }
}

/// How the Streamable HTTP endpoint is exposed and guarded.
#[derive(Debug, Clone)]
pub struct HttpOptions {
    /// The address to listen on (port 0: any free port).
    pub addr: SocketAddr,
    /// Whether a non-loopback address may be used (it also needs principals in `auth`).
    pub allow_remote: bool,
    /// Who may call; no principals means no token is asked for (loopback only).
    pub auth: AuthConfig,
    /// Body limit and the `Host` and `Origin` values accepted besides the loopback ones.
    pub http: HttpConfig,
}

impl HttpOptions {
    /// Loopback-style defaults on `addr`: no remote access, no principals, default limits.
    pub fn new(addr: SocketAddr) -> HttpOptions {
        HttpOptions { addr, allow_remote: false, auth: AuthConfig::default(), http: HttpConfig::default() }
    }
}

/// Listen on `addr` (see [`check_bind`]) and serve Streamable HTTP at `/mcp` until
/// `shutdown` fires, without authentication. `allowed_hosts` adds `Host` header values to
/// the loopback ones. See [`serve_http_with`] for the guarded form.
pub async fn serve_http(
    gateway: Arc<Gateway>,
    addr: SocketAddr,
    allow_remote: bool,
    allowed_hosts: Vec<String>,
    shutdown: CancellationToken,
    ready: Option<tokio::sync::oneshot::Sender<SocketAddr>>,
) -> Result<(), GatewayError> {
    let mut options = HttpOptions::new(addr);
    options.allow_remote = allow_remote;
    options.http.allowed_hosts = allowed_hosts;
    serve_http_with(gateway, options, shutdown, ready).await
}

/// The `Origin` values accepted: each allowed host's own origins on any port, then the
/// configured ones as written.
fn allowed_origins(hosts: &[String], configured: &[String]) -> Vec<String> {
    let mut origins: Vec<String> = hosts
        .iter()
        .flat_map(|h| {
            let host = if h.contains(':') && !h.starts_with('[') { format!("[{h}]") } else { h.clone() };
            [format!("http://{host}:*"), format!("https://{host}:*")]
        })
        .collect();
    origins.extend(configured.iter().cloned());
    origins
}

/// Listen on `options.addr` (see [`check_exposure`]) and serve Streamable HTTP at `/mcp`
/// until `shutdown` fires, guarded as the module documentation describes. `ready` receives
/// the bound address, which tells the caller the port when the address asked for port 0.
pub async fn serve_http_with(
    gateway: Arc<Gateway>,
    options: HttpOptions,
    shutdown: CancellationToken,
    ready: Option<tokio::sync::oneshot::Sender<SocketAddr>>,
) -> Result<(), GatewayError> {
    let HttpOptions { addr, allow_remote, auth, http } = options;
    let authenticator = Authenticator::new(&auth);
    check_exposure(addr, allow_remote, authenticator.is_enabled())?;
    let secret = gateway.options().secret.clone();
    if secret.is_none() {
        tracing::warn!(
            "TOOLSHAPE_SECRET is not set: cursors, handles and session ids are signed with a random key, so they \
             stop working when this process restarts and other replicas refuse them; set it to the same long \
             random value on every replica"
        );
    }
    if !authenticator.is_enabled() {
        tracing::info!("no `auth.principals` configured: HTTP callers are not authenticated (loopback only)");
    }
    let listener = tokio::net::TcpListener::bind(addr).await.map_err(|source| GatewayError::Bind { addr, source })?;
    let bound = listener.local_addr()?;
    let mut hosts: Vec<String> = vec!["localhost".into(), "127.0.0.1".into(), "::1".into()];
    hosts.extend(http.allowed_hosts.iter().cloned());
    // Browsers send `Origin`: a page elsewhere must not drive the gateway (DNS rebinding and
    // cross-site requests). Requests without an `Origin` (every non-browser client) are not
    // affected.
    let origins = allowed_origins(&hosts, &http.allowed_origins);
    let mut config = StreamableHttpServerConfig::default()
        .with_allowed_hosts(hosts)
        .with_allowed_origins(origins)
        .enforce_origin_validation()
        .with_max_request_body_bytes(usize::try_from(http.max_body_bytes).unwrap_or(usize::MAX))
        .with_cancellation_token(shutdown.child_token());
    // With a shared store, sessions are kept in it: any replica can serve any request.
    config.session_store = crate::sessions::for_gateway(&gateway);
    let metrics = if http.metrics { gateway.options().metrics.clone() } else { None };
    // The factory runs per session: a clone of two `Arc`s.
    let server = GatewayServer::new(gateway, "http");
    let service =
        StreamableHttpService::new(move || Ok(server.clone()), Arc::new(LocalSessionManager::default()), config);
    let guard = Arc::new(Guard { authenticator, sessions: SessionBinder::new(secret.as_deref()) });
    let mut router = axum::Router::new().nest_service("/mcp", service);
    if let Some(metrics) = metrics {
        // Prometheus scrapes here, behind the same bearer check as `/mcp`.
        router = router.route(
            "/metrics",
            axum::routing::get(move || {
                let metrics = metrics.clone();
                async move {
                    ([(axum::http::header::CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")], metrics.render())
                }
            }),
        );
    }
    let router = router
        .layer(axum::middleware::from_fn(crate::sessions::outage_as_unavailable))
        .layer(axum::middleware::from_fn_with_state(guard, crate::auth::guard));
    tracing::info!(address = %bound, "serving MCP over Streamable HTTP at /mcp");
    if let Some(tx) = ready {
        let _ = tx.send(bound);
    }
    axum::serve(listener, router).with_graceful_shutdown(async move { shutdown.cancelled().await }).await?;
    Ok(())
}
