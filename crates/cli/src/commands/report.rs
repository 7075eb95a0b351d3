//! `toolshape report`: where the context goes, per tool, read from the gateway's span log.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use clap::Args;
use toolshape_telemetry::{
    ReadProgress, Report, TelemetryError, default_spans_path, now_unix_ms, parse_duration, read_spans,
};

use super::progress::Progress;
use super::{Failure, print_line};

#[derive(Debug, Args)]
pub(crate) struct ReportArgs {
    /// The span log to read. Default: the log of --config (or of `toolshape.yaml` in this
    /// folder), else the shared `$XDG_STATE_HOME/toolshape/spans.sqlite` of older versions.
    #[arg(long, value_name = "FILE", conflicts_with = "config")]
    spans: Option<PathBuf>,
    /// Report the calls served with this config (its span log: `telemetry.spans`, or the
    /// config's own default log).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Only the calls of this last stretch of time: 30m, 24h, 7d, 1h30m (units s, m, h, d, w).
    #[arg(long, value_name = "DURATION", value_parser = parse_since)]
    since: Option<Duration>,
    /// Also write the report as a self-contained HTML page with charts.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// Print the report as JSON instead of a table.
    #[arg(long)]
    json: bool,
}

fn parse_since(text: &str) -> Result<Duration, String> {
    parse_duration(text).map_err(|e| e.to_string())
}

pub(crate) fn run(args: ReportArgs) -> Result<(), Failure> {
    let local = PathBuf::from("toolshape.yaml");
    let path = match (args.spans, args.config) {
        (Some(spans), _) => spans,
        (None, Some(config)) => spans_of(&config)?,
        (None, None) if local.exists() => spans_of(&local)?,
        (None, None) => default_spans_path(),
    };
    let now = now_unix_ms();
    let since_ms = args.since.map(|d| now.saturating_sub(i64::try_from(d.as_millis()).unwrap_or(i64::MAX)));
    let mut progress = Progress::new("reading spans", "spans");
    let spans = read_spans(&path, since_ms, &mut |p: ReadProgress| progress.update(p.read, p.total));
    progress.finish();
    let spans = spans.map_err(|e| match e {
        TelemetryError::Missing { .. } | TelemetryError::NotASpanLog { .. } => Failure::input(e.into()),
        other => Failure::input(anyhow::Error::new(other).context("cannot read the span log")),
    })?;
    let report = Report::build(&spans, since_ms, now);
    if let Some(html_path) = &args.html {
        std::fs::write(html_path, report.to_html())
            .with_context(|| format!("cannot write `{}`", html_path.display()))
            .map_err(Failure::input)?;
    }
    if args.json {
        let json =
            serde_json::to_string_pretty(&report).context("cannot write the report as JSON").map_err(Failure::input)?;
        print_line(&json)
    } else {
        print_line(report.to_table().trim_end())
    }
}

/// The span log of the config at `path`.
fn spans_of(path: &std::path::Path) -> Result<PathBuf, Failure> {
    let (name, text) = super::read_config(path)?;
    match toolshape_mask::Config::parse(&text, &name, &|var| std::env::var(var).ok()) {
        Ok(mut config) => {
            super::config_paths::resolve(&mut config, &super::config_paths::config_dir(path));
            super::spans::span_log_path(&config, path)
                .ok_or_else(|| Failure::input(anyhow::anyhow!("`{name}` keeps no span log (`telemetry.spans: off`)")))
        }
        // A config that does not load now still had its default log.
        Err(_) => Ok(super::spans::config_spans_path(path)),
    }
}
