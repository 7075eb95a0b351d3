//! `toolshape serve`: run the gateway for an agent, over stdio (the default, for MCP client
//! configs) or Streamable HTTP (`--http ADDR`).
//!
//! In stdio mode standard output is the protocol channel, so everything else (logs,
//! upstream stderr) goes to standard error. `TOOLSHAPE_SECRET` signs cursors (so several
//! processes accept each other's); without it each process makes a random key.
//! `TOOLSHAPE_LOG` (or `RUST_LOG`) sets the log filter, `info` by default.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use clap::Args;
use toolshape_gateway::{Gateway, GatewayOptions};

use super::{EXIT_PROBLEMS, Failure, load_masks};

/// Exit code for a command line that asks for something refused (as clap's usage errors).
const EXIT_USAGE: u8 = 2;

#[derive(Debug, Args)]
pub(crate) struct ServeArgs {
    /// The config file.
    #[arg(long)]
    config: PathBuf,
    /// Show only this profile's tools.
    #[arg(long)]
    profile: Option<String>,
    /// Serve Streamable HTTP at http://ADDR/mcp instead of stdio (e.g. 127.0.0.1:8750).
    #[arg(long, value_name = "ADDR")]
    http: Option<SocketAddr>,
    /// Allow --http on a non-loopback address (put authentication in front of it).
    #[arg(long)]
    allow_remote: bool,
    /// A `Host` header value to accept besides the loopback names (repeatable).
    #[arg(long = "allowed-host", value_name = "HOST")]
    allowed_hosts: Vec<String>,
    /// How long stored results (and their cursors) live, in seconds.
    #[arg(long, default_value_t = 1800)]
    snapshot_ttl_secs: u64,
    /// The most memory stored results may take, in MiB.
    #[arg(long, default_value_t = 256)]
    store_mib: usize,
    /// Do not advertise the envelope schema as each tool's outputSchema.
    #[arg(long)]
    no_output_schema: bool,
}

/// Log to standard error with the filter from `TOOLSHAPE_LOG` or `RUST_LOG`.
pub(crate) fn init_logging(default: &str) {
    let filter =
        std::env::var("TOOLSHAPE_LOG").or_else(|_| std::env::var("RUST_LOG")).unwrap_or_else(|_| default.to_owned());
    let filter =
        tracing_subscriber::EnvFilter::try_new(&filter).unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    let _ = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).with_ansi(false).try_init();
}

/// Gateway options from the environment and these flags.
pub(crate) fn options(profile: Option<String>, ttl_secs: u64, store_mib: usize, output_schema: bool) -> GatewayOptions {
    GatewayOptions {
        profile,
        snapshot_ttl: Duration::from_secs(ttl_secs.max(1)),
        store_bytes: store_mib.max(1).saturating_mul(1024 * 1024),
        output_schema,
        secret: std::env::var("TOOLSHAPE_SECRET").ok().filter(|s| !s.is_empty()).map(String::into_bytes),
    }
}

pub(crate) fn run(args: ServeArgs) -> Result<(), Failure> {
    init_logging("info");
    let (config, masks) = load_masks(&args.config)?;
    if let Some(addr) = args.http {
        toolshape_gateway::check_bind(addr, args.allow_remote)
            .map_err(|e| Failure { error: e.into(), code: EXIT_USAGE })?;
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")
        .map_err(Failure::input)?;
    let opts = options(args.profile, args.snapshot_ttl_secs, args.store_mib, !args.no_output_schema);
    runtime.block_on(async move {
        let gateway =
            Gateway::launch(config, masks, opts).await.map_err(|e| Failure { error: e.into(), code: EXIT_PROBLEMS })?;
        let served = match args.http {
            Some(addr) => {
                let shutdown = tokio_util::sync::CancellationToken::new();
                let trigger = shutdown.clone();
                tokio::spawn(async move {
                    let _ = tokio::signal::ctrl_c().await;
                    tracing::info!("interrupted; shutting down");
                    trigger.cancel();
                });
                toolshape_gateway::serve_http(
                    gateway.clone(),
                    addr,
                    args.allow_remote,
                    args.allowed_hosts,
                    shutdown,
                    None,
                )
                .await
            }
            None => toolshape_gateway::serve_stdio(gateway.clone()).await,
        };
        gateway.shutdown().await;
        served.map_err(|e| Failure::input(e.into()))
    })
}
