//! The gateway's own errors: what stops it from starting or serving. Failures of single
//! calls are not errors here; they become error envelopes.

use toolshape_mask::UnknownProfile;

/// Why the gateway could not start or keep serving.
#[derive(Debug, thiserror::Error)]
pub enum GatewayError {
    /// `--profile` names a profile the config does not define.
    #[error(transparent)]
    Profile(UnknownProfile),
    /// The HTTP address is not on this machine's loopback interface and remote access was
    /// not allowed.
    #[error(
        "refusing to listen on {addr}: it is not a loopback address; pass --allow-remote to expose the gateway (and configure `auth.principals` so that callers need a bearer token)"
    )]
    NotLoopback {
        /// The address asked for.
        addr: std::net::SocketAddr,
    },
    /// A non-loopback HTTP address was allowed, but no principal is configured, so anyone
    /// who reaches the port could call every tool.
    #[error(
        "refusing to listen on {addr} without authentication: a non-loopback address needs bearer tokens; add to the config `auth: {{principals: {{NAME: {{token_env: VAR}}}}}}` and set VAR to a random token of at least 16 characters (like `openssl rand -hex 32`)"
    )]
    NoAuth {
        /// The address asked for.
        addr: std::net::SocketAddr,
    },
    /// The listening socket could not be opened.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address asked for.
        addr: std::net::SocketAddr,
        /// Why.
        source: std::io::Error,
    },
    /// The store the config's `store:` section names could not be opened (a SQLite file
    /// that cannot be made, a Redis server that does not answer).
    #[error("cannot open the store: {0}")]
    Store(toolshape_store::StoreError),
    /// The agent connection failed at the protocol level (initialize refused, transport
    /// broken before the session began).
    #[error("the agent connection failed: {0}")]
    Session(String),
    /// The lock file of pinned tool definitions exists but cannot be read.
    #[error("{}: {error}; fix the line, or write the file again with `toolshape pin`", path.display())]
    Lock {
        /// The lock file.
        path: std::path::PathBuf,
        /// What is wrong, with its line.
        error: toolshape_trust::LockError,
    },
    /// Serving stopped on an I/O error.
    #[error("serving failed: {0}")]
    Io(#[from] std::io::Error),
}
