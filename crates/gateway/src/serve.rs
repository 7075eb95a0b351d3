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
//! - Ending a session: `DELETE` with its `Mcp-Session-Id` closes it and answers `200`; later
//!   requests naming it get `404`, on every replica ([`crate::sessions::session_guard`]).
//! - rmcp's checks against DNS rebinding and cross-site requests: the `Host` must be a
//!   loopback name or one of `http.allowed_hosts`, and an `Origin` (browsers send one) a
//!   loopback origin, an allowed host's origin or one of `http.allowed_origins`; otherwise
//!   `403`. A body over `http.max_body_bytes` is refused with `413` while it streams in.
//! - A JSON body that is not a JSON-RPC message gets `400` with a JSON-RPC error (`-32700`
//!   parse error, `-32600` invalid request), not rmcp's `415` ([`crate::rpc_body`]).
//!
//! With `http.metrics` (the default) and a gateway that keeps metrics, `/metrics` serves them
//! in the Prometheus text format, behind the same bearer check.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::serve::ListenerExt;
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
///
/// When stdin and stdout are pipes or sockets (as MCP clients start servers), they are read
/// and written by the runtime itself, woken by the operating system when there is something
/// to do; otherwise (a terminal, a file) through tokio's standard streams, which do every
/// read and write on a helper thread. The first way saves a thread hand-off each way on
/// every message, which is most of what a small call costs beyond the upstream's own time.
pub async fn serve_stdio(gateway: Arc<Gateway>) -> Result<(), GatewayError> {
    #[cfg(unix)]
    if let Some((read, write)) = direct_stdio::open() {
        let served = serve_io(gateway, read, write).await;
        direct_stdio::restore_blocking();
        return served;
    }
    serve_io(gateway, tokio::io::stdin(), tokio::io::stdout()).await
}

/// Stdin and stdout driven by the runtime's own event loop when they are pipes or sockets.
#[cfg(unix)]
mod direct_stdio {
    use std::fs::File;
    use std::os::fd::{AsFd, OwnedFd};
    use std::os::unix::fs::FileTypeExt;
    use std::pin::Pin;
    use std::task::{Context, Poll};

    use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
    use tokio::net::unix::pipe;

    /// One end of a pipe or a socket, as the runtime drives it.
    pub(super) enum Direct<P> {
        /// A pipe end.
        Pipe(P),
        /// A stream socket (some clients connect their children's stdio with socket pairs).
        Socket(tokio::net::UnixStream),
    }

    impl AsyncRead for Direct<pipe::Receiver> {
        fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
            match self.get_mut() {
                Direct::Pipe(p) => Pin::new(p).poll_read(cx, buf),
                Direct::Socket(s) => Pin::new(s).poll_read(cx, buf),
            }
        }
    }

    impl AsyncWrite for Direct<pipe::Sender> {
        fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<std::io::Result<usize>> {
            match self.get_mut() {
                Direct::Pipe(p) => Pin::new(p).poll_write(cx, buf),
                Direct::Socket(s) => Pin::new(s).poll_write(cx, buf),
            }
        }

        fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
            match self.get_mut() {
                Direct::Pipe(p) => Pin::new(p).poll_flush(cx),
                Direct::Socket(s) => Pin::new(s).poll_flush(cx),
            }
        }

        fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
            match self.get_mut() {
                Direct::Pipe(p) => Pin::new(p).poll_shutdown(cx),
                Direct::Socket(s) => Pin::new(s).poll_shutdown(cx),
            }
        }
    }

    /// What kind of file a standard stream is.
    #[derive(Clone, Copy, PartialEq, Eq)]
    enum Kind {
        Pipe,
        Socket,
    }

    /// A duplicate of `fd` (the standard stream itself stays open) and its kind, if it is a
    /// pipe or a socket.
    fn duplicate(fd: std::os::fd::BorrowedFd<'_>) -> Option<(OwnedFd, Kind)> {
        let owned = fd.try_clone_to_owned().ok()?;
        let file = File::from(owned);
        let kind = file.metadata().ok()?.file_type();
        let kind = if kind.is_fifo() {
            Kind::Pipe
        } else if kind.is_socket() {
            Kind::Socket
        } else {
            return None;
        };
        Some((OwnedFd::from(file), kind))
    }

    fn socket(fd: OwnedFd) -> Option<tokio::net::UnixStream> {
        let stream = std::os::unix::net::UnixStream::from(fd);
        stream.set_nonblocking(true).ok()?;
        tokio::net::UnixStream::from_std(stream).ok()
    }

    /// Stdin and stdout for the runtime's event loop, or `None` when either is something
    /// else (then both stay with tokio's standard streams). Must run inside the runtime.
    pub(super) fn open() -> Option<(Direct<pipe::Receiver>, Direct<pipe::Sender>)> {
        let (input, input_kind) = duplicate(std::io::stdin().as_fd())?;
        let (output, output_kind) = duplicate(std::io::stdout().as_fd())?;
        let read = match input_kind {
            Kind::Pipe => Direct::Pipe(pipe::Receiver::from_owned_fd(input).ok()?),
            Kind::Socket => Direct::Socket(socket(input)?),
        };
        let write = match output_kind {
            Kind::Pipe => Direct::Pipe(pipe::Sender::from_owned_fd(output).ok()?),
            Kind::Socket => Direct::Socket(socket(output)?),
        };
        Some((read, write))
    }

    /// Put stdin and stdout back in blocking mode: the mode belongs to the open file, which
    /// whoever started this process may share and use after it ends.
    pub(super) fn restore_blocking() {
        let restore = |fd: std::os::fd::BorrowedFd<'_>, pipe_end: fn(OwnedFd) -> std::io::Result<OwnedFd>| {
            let Some((fd, kind)) = duplicate(fd) else { return };
            let _ = match kind {
                Kind::Pipe => pipe_end(fd).map(drop),
                Kind::Socket => std::os::unix::net::UnixStream::from(fd).set_nonblocking(false),
            };
        };
        restore(std::io::stdin().as_fd(), |fd| pipe::Receiver::from_owned_fd_unchecked(fd)?.into_blocking_fd());
        restore(std::io::stdout().as_fd(), |fd| pipe::Sender::from_owned_fd_unchecked(fd)?.into_blocking_fd());
    }
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
    let listener = listener.tap_io(send_without_delay);
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
    let records = crate::sessions::for_gateway(&gateway);
    config.session_store = records.clone().map(|r| r as _);
    let held_sessions = Arc::new(LocalSessionManager::default());
    let session_places = crate::sessions::SessionPlaces::new(held_sessions.clone(), records);
    let metrics = if http.metrics { gateway.options().metrics.clone() } else { None };
    // The factory runs per session: a clone of two `Arc`s.
    let server = GatewayServer::new(gateway, "http");
    let service = StreamableHttpService::new(move || Ok(server.clone()), held_sessions, config);
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
    let body_limit = crate::rpc_body::BodyLimit(usize::try_from(http.max_body_bytes).unwrap_or(usize::MAX));
    let answer_wait = crate::json_answers::AnswerWait(crate::json_answers::WAIT_FOR_ANSWER);
    let router = router
        .layer(axum::middleware::from_fn_with_state(answer_wait, crate::json_answers::answers_as_json))
        .layer(axum::middleware::from_fn_with_state(body_limit, crate::rpc_body::json_rpc_errors))
        .layer(axum::middleware::from_fn_with_state(session_places, crate::sessions::session_guard))
        .layer(axum::middleware::from_fn(crate::sessions::outage_as_unavailable))
        .layer(axum::middleware::from_fn_with_state(guard, crate::auth::guard));
    tracing::info!(address = %bound, "serving MCP over Streamable HTTP at /mcp");
    if let Some(tx) = ready {
        let _ = tx.send(bound);
    }
    axum::serve(listener, router).with_graceful_shutdown(async move { shutdown.cancelled().await }).await?;
    Ok(())
}

/// Turns Nagle's algorithm off on an accepted connection. An answer leaves in several small
/// writes (the headers, then the event stream's frames); with Nagle on, a write waits for the
/// client's acknowledgement of the one before, which a client that delays its ACKs sends up
/// to 40 ms later (Linux), on every call.
fn send_without_delay(tcp: &mut tokio::net::TcpStream) {
    if let Err(error) = tcp.set_nodelay(true) {
        tracing::debug!(%error, "could not turn Nagle's algorithm off on a connection");
    }
}

#[cfg(test)]
mod tests {
    use axum::serve::{Listener, ListenerExt};

    use super::send_without_delay;

    /// Regression: answers over HTTP waited for the client's delayed ACK (about 40 ms per
    /// small call from Python's `http.client`, against 1.7 ms through a Rust proxy).
    #[tokio::test]
    async fn accepted_connections_send_without_delay() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let mut listener = listener.tap_io(send_without_delay);
        let _client = tokio::net::TcpStream::connect(addr).await.unwrap();
        let (accepted, _) = listener.accept().await;
        assert!(accepted.nodelay().unwrap());
    }
}
