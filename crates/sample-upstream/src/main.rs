//! `toolshape-sample-upstream`: a small MCP server with deterministic, realistic large data,
//! for the quickstart and the end-to-end tests. It is not part of the product.
//!
//! It serves an issue tracker (5,000 GitHub-shaped issues by default), a multi-megabyte
//! application log, a 20,000-row sales table and five lights that can be switched, all from
//! `toolshape-fixtures` and one seed; and fault tools that misbehave on request
//! (`fail_with_error`, `slow`, `huge`, `crash`, `garbage`, `drip`); and media tools that answer
//! large images, audio, every content type and hostile images (`media.rs`). See `catalog.rs`
//! for each tool's schema and description.
//!
//! ```text
//! toolshape-sample-upstream                         # MCP over stdio
//! toolshape-sample-upstream --http 127.0.0.1:0      # Streamable HTTP at /mcp, port on stderr
//! ```
//!
//! Standard output belongs to the protocol: the server writes nothing else there (except
//! what the `garbage` and `drip` fault tools write on purpose). Notes go to standard error.

mod catalog;
mod data;
mod faults;
mod media;
mod server;

use std::io::Write as _;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use clap::Parser;
use rmcp::ServiceExt as _;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};

use crate::data::{Data, Sizes};
use crate::server::{SampleServer, Transport};

/// A small MCP server with deterministic sample data and fault tools (for toolshape's
/// quickstart and end-to-end tests).
#[derive(Debug, Parser)]
#[command(name = "toolshape-sample-upstream", version)]
struct Cli {
    /// Serve Streamable HTTP at this address (path `/mcp`) instead of stdio. Port 0 picks a
    /// free port; the address is written to standard error as
    /// `listening on http://ADDR/mcp`.
    #[arg(long, value_name = "ADDR")]
    http: Option<SocketAddr>,
    /// The seed of every data set: each seed is a different, equally realistic one.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Issues in the tracker.
    #[arg(long, default_value_t = 5000)]
    issues: usize,
    /// Rows in the sales table.
    #[arg(long, default_value_t = 20_000)]
    table_rows: usize,
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let data = Arc::new(Data::new(Sizes { seed: cli.seed, issues: cli.issues, table_rows: cli.table_rows }));
    // Generate the data sets in the background, so the first call rarely waits for them.
    let warm = Arc::clone(&data);
    std::thread::spawn(move || warm.warm());

    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    let result = runtime.block_on(async {
        match cli.http {
            Some(addr) => serve_http(data, addr).await,
            None => serve_stdio(data).await,
        }
    });
    // A call still sleeping or generating must not keep the process alive after its client left.
    runtime.shutdown_timeout(Duration::from_millis(200));
    result
}

async fn serve_stdio(data: Arc<Data>) -> anyhow::Result<()> {
    let server = SampleServer::new(data, Transport::Stdio);
    let running = server.serve(rmcp::transport::stdio()).await.context("MCP initialization over stdio failed")?;
    running.waiting().await.context("the stdio session ended with an error")?;
    Ok(())
}

async fn serve_http(data: Arc<Data>, addr: SocketAddr) -> anyhow::Result<()> {
    let server = SampleServer::new(data, Transport::Http);
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let router = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind(addr).await.with_context(|| format!("cannot listen on {addr}"))?;
    let local = listener.local_addr()?;
    note(&format!("listening on http://{local}/mcp"));
    axum::serve(listener, router)
        .with_graceful_shutdown(async {
            // Without a signal handler the process simply dies on Ctrl-C, which is fine too.
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .context("the HTTP server failed")
}

/// A line on standard error (standard output belongs to the protocol).
pub(crate) fn note(line: &str) {
    let mut stderr = std::io::stderr().lock();
    let _ = writeln!(stderr, "toolshape-sample-upstream: {line}");
    let _ = stderr.flush();
}
