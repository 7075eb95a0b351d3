//! `toolshape serve`: run the gateway for an agent, over stdio (the default, for MCP client
//! configs) or Streamable HTTP (`--http ADDR`).
//!
//! In stdio mode standard output is the protocol channel, so everything else (logs,
//! upstream stderr) goes to standard error. `TOOLSHAPE_SECRET` signs cursors (so several
//! processes accept each other's); without it each process makes a random key.
//! `TOOLSHAPE_LOG` (or `RUST_LOG`) sets the log filter, `info` by default.
//!
//! The config is watched while serving: an edit (or SIGHUP) is validated and applied without
//! a restart, and agents are told their lists changed; an edit with problems is not applied,
//! and each problem is logged (`reload.rs`).
//!
//! In HTTP mode the config's `auth:` (principals and their bearer tokens) and `http:` (body
//! limit, allowed hosts and origins) sections guard the endpoint; `--allowed-host` adds to
//! `http.allowed_hosts`. A non-loopback address needs both `--allow-remote` and principals.

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
    /// Allow --http on a non-loopback address (the config must then define `auth.principals`).
    #[arg(long)]
    allow_remote: bool,
    /// A `Host` header value to accept besides the loopback names and `http.allowed_hosts`
    /// (repeatable).
    #[arg(long = "allowed-host", value_name = "HOST")]
    allowed_hosts: Vec<String>,
    /// How long stored results (and their cursors) live, in seconds [default: the config's
    /// `store.ttl_secs`, 1800 unless set].
    #[arg(long)]
    snapshot_ttl_secs: Option<u64>,
    /// The most stored results may take, in MiB (memory and SQLite stores) [default: the
    /// config's `store.max_bytes`, 256 MiB unless set].
    #[arg(long)]
    store_mib: Option<usize>,
    /// Do not advertise the envelope schema as each tool's outputSchema.
    #[arg(long)]
    no_output_schema: bool,
    /// Threads that serve HTTP requests [default: half the cores, at least one; the
    /// `TOKIO_WORKER_THREADS` environment variable also sets it].
    #[arg(long, value_name = "N", requires = "http", value_parser = clap::value_parser!(u16).range(1..))]
    workers: Option<u16>,
}

/// Log to standard error with the filter from `TOOLSHAPE_LOG` or `RUST_LOG` (else
/// `--verbose`, else `default`).
pub(crate) fn init_logging(default: &str) {
    super::logging::init(default);
}

/// Gateway options from the environment and these flags; a `None` size or time to live
/// leaves the config's `store:` value.
pub(crate) fn options(
    profile: Option<String>,
    ttl_secs: Option<u64>,
    store_mib: Option<usize>,
    output_schema: bool,
) -> GatewayOptions {
    GatewayOptions {
        profile,
        snapshot_ttl: ttl_secs.map(|s| Duration::from_secs(s.max(1))),
        store_bytes: store_mib.map(|m| m.max(1).saturating_mul(1024 * 1024)),
        output_schema,
        secret: std::env::var("TOOLSHAPE_SECRET").ok().filter(|s| !s.is_empty()).map(String::into_bytes),
        ..GatewayOptions::default()
    }
}

pub(crate) fn run(args: ServeArgs) -> Result<(), Failure> {
    init_logging("info");
    let (config, masks) = load_masks(&args.config)?;
    let mut http_options = None;
    if let Some(addr) = args.http {
        toolshape_gateway::check_exposure(addr, args.allow_remote, config.auth.is_enabled())
            .map_err(|e| Failure { error: e.into(), code: EXIT_USAGE })?;
        let mut options = toolshape_gateway::HttpOptions::new(addr);
        options.allow_remote = args.allow_remote;
        options.auth = config.auth.clone();
        options.http = config.http.clone();
        for host in args.allowed_hosts {
            if !options.http.allowed_hosts.contains(&host) {
                options.http.allowed_hosts.push(host);
            }
        }
        http_options = Some(options);
    }
    // One agent over stdio: one thread runs every task, so a call's messages never wait for
    // another thread to wake up (shaping large results still runs on blocking threads). HTTP
    // serves many agents at once and gets several threads, but not one per core: the
    // upstream servers, the blocking shaping threads and the span log need cores too, and
    // each more worker that sleeps between calls is woken for them (a small call costs a
    // quarter less CPU with one worker than with two on two cores, at the same throughput).
    let runtime = if http_options.is_some() {
        let mut builder = tokio::runtime::Builder::new_multi_thread();
        let from_env = std::env::var_os("TOKIO_WORKER_THREADS").is_some();
        match args.workers {
            Some(n) => {
                builder.worker_threads(usize::from(n));
            }
            None if !from_env => {
                let cores = std::thread::available_parallelism().map_or(1, usize::from);
                builder.worker_threads(http_workers(cores));
            }
            None => {}
        }
        builder.enable_all().build()
    } else {
        tokio::runtime::Builder::new_current_thread().enable_all().build()
    };
    let runtime = runtime.context("cannot start the async runtime").map_err(Failure::input)?;
    let mut opts = options(args.profile, args.snapshot_ttl_secs, args.store_mib, !args.no_output_schema);
    opts.pins = super::pin::pin_options(&args.config, &config);
    let spans = super::spans::start(&config, &args.config, masks.defaults().tokenizer, http_options.is_some());
    opts.spans = spans.sink.clone();
    opts.metrics = spans.metrics.clone();
    let config_path = args.config.clone();
    let served = runtime.block_on(async move {
        let gateway =
            Gateway::launch(config, masks, opts).await.map_err(|e| Failure { error: e.into(), code: EXIT_PROBLEMS })?;
        let watcher = tokio::spawn(watch_config(config_path, gateway.clone()));
        let served = match http_options {
            Some(http_options) => {
                let shutdown = tokio_util::sync::CancellationToken::new();
                let trigger = shutdown.clone();
                tokio::spawn(async move {
                    stop_requested().await;
                    trigger.cancel();
                });
                toolshape_gateway::serve_http_with(gateway.clone(), http_options, shutdown, None).await
            }
            None => tokio::select! {
                served = toolshape_gateway::serve_stdio(gateway.clone()) => served,
                () = stop_requested() => Ok(()),
            },
        };
        watcher.abort();
        gateway.shutdown().await;
        served.map_err(|e| Failure::input(e.into()))
    });
    spans.flush();
    served
}

/// Apply each valid edit of the config file (or SIGHUP) to `gateway` until the process ends.
async fn watch_config(path: PathBuf, gateway: std::sync::Arc<Gateway>) {
    super::reload::watch(path, move |config, masks| {
        let gateway = gateway.clone();
        async move {
            let done = gateway.reload(config, masks).await.map_err(|e| e.to_string())?;
            tracing::info!(
                added = ?done.added,
                restarted = ?done.restarted,
                removed = ?done.removed,
                "upstreams after the reload"
            );
            for section in done.needs_restart {
                tracing::warn!("`{section}:` changed: it takes effect when toolshape is started again");
            }
            Ok(())
        }
    })
    .await;
}

/// The HTTP runtime's worker threads on a machine with `cores` cores: half of them, at least
/// one.
fn http_workers(cores: usize) -> usize {
    (cores / 2).max(1)
}

/// Resolves when toolshape is asked to stop: SIGINT (a terminal's Ctrl-C) or SIGTERM (what
/// agents, service managers and container runtimes send). Stopping this way, not dying of the
/// signal, is what stops the upstreams and writes the last spans.
async fn stop_requested() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut terminate) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => tracing::info!("interrupted; shutting down"),
                    _ = terminate.recv() => tracing::info!("asked to terminate; shutting down"),
                }
            }
            Err(e) => {
                tracing::warn!(error = %e, "cannot watch for SIGTERM; only Ctrl-C stops toolshape cleanly");
                let _ = tokio::signal::ctrl_c().await;
                tracing::info!("interrupted; shutting down");
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
        tracing::info!("interrupted; shutting down");
    }
}

#[cfg(test)]
mod tests {
    use super::http_workers;

    #[test]
    fn http_gets_half_the_cores_and_at_least_one_worker() {
        assert_eq!(http_workers(1), 1);
        assert_eq!(http_workers(2), 1);
        assert_eq!(http_workers(3), 1);
        assert_eq!(http_workers(8), 4);
    }
}
