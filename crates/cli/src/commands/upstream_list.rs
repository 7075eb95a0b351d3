//! Ask each upstream of a config for its full tool list, `outputSchema`s included (for the
//! audit) or as listed (for `toolshape pin`).
//!
//! The gateway keeps only what the tool surface needs (names, descriptions, input schemas);
//! an audit also needs each tool's output schema, so this connects to every upstream once,
//! lists its tools and disconnects. Upstreams that cannot be reached are an error naming
//! them, so an audit never silently covers fewer tools than the gateway would serve.

use std::collections::HashMap;
use std::process::Stdio;
use std::time::Duration;

use anyhow::{Context, anyhow};
use rmcp::ServiceExt;
use rmcp::model::Tool;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use serde_json::Value;
use toolshape_mask::{Config, Upstream, UpstreamTool};

use super::{EXIT_PROBLEMS, Failure};

/// Every tool of every upstream of `config`, each with its output schema when it has one.
pub(crate) fn list_upstream_tools(config: &Config) -> Result<Vec<(UpstreamTool, Option<Value>)>, Failure> {
    let mut out = Vec::new();
    for (name, tools) in list_raw_tools(config)? {
        for tool in tools {
            let listed = UpstreamTool {
                upstream: name.clone(),
                name: tool.name.to_string(),
                description: tool.description.as_deref().unwrap_or_default().to_owned(),
                input_schema: Value::Object((*tool.input_schema).clone()),
                annotations: tool.annotations.as_ref().and_then(|a| serde_json::to_value(a).ok()),
            };
            let schema = tool.output_schema.map(|s| Value::Object((*s).clone()));
            out.push((listed, schema));
        }
    }
    Ok(out)
}

/// Every tool of every upstream of `config`, as each upstream lists it.
pub(crate) fn list_raw_tools(config: &Config) -> Result<Vec<(String, Vec<Tool>)>, Failure> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")
        .map_err(Failure::input)?;
    runtime.block_on(async {
        let mut out = Vec::new();
        for (name, spec) in &config.upstreams {
            let wait = Duration::from_secs(spec.timeout_secs.max(1));
            let waiting = super::waiting::Waiting::start(format!("starting upstream {name}"));
            let tools = tokio::time::timeout(wait, list_one(spec)).await;
            drop(waiting);
            let tools = tools
                .map_err(|_| anyhow!("upstream `{name}` did not list its tools within {} s", wait.as_secs()))
                .and_then(|r| r.with_context(|| format!("cannot list the tools of upstream `{name}`")))
                .map_err(|error| Failure { error, code: EXIT_PROBLEMS })?;
            out.push((name.clone(), tools));
        }
        Ok(out)
    })
}

/// Pinned-definition form back to what the mask engine reads of a listed tool.
pub(crate) fn as_upstream_tools(
    live: &std::collections::BTreeMap<String, Vec<toolshape_trust::ToolDefinition>>,
) -> Vec<UpstreamTool> {
    live.iter()
        .flat_map(|(upstream, defs)| {
            defs.iter().map(move |d| UpstreamTool {
                upstream: upstream.clone(),
                name: d.name.clone(),
                description: d.description.clone().unwrap_or_default(),
                input_schema: d.input_schema.clone().unwrap_or(Value::Null),
                annotations: d.annotations.clone(),
            })
        })
        .collect()
}

pub(crate) async fn list_one(spec: &Upstream) -> anyhow::Result<Vec<Tool>> {
    if let Some(argv) = &spec.command {
        let (program, args) = argv.split_first().ok_or_else(|| anyhow!("`command` is empty"))?;
        let mut cmd = tokio::process::Command::new(program);
        cmd.args(args).envs(&spec.env).kill_on_drop(true);
        if let Some(dir) = &spec.cwd {
            cmd.current_dir(dir);
        }
        let (transport, _) = TokioChildProcess::builder(cmd)
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("cannot start `{program}`"))?;
        let client = ().serve(transport).await.context("initialize failed")?;
        let tools = client.peer().list_all_tools().await.context("tools/list failed")?;
        let _ = client.cancel().await;
        Ok(tools)
    } else if let Some(url) = &spec.url {
        let mut headers = HashMap::new();
        for (k, v) in &spec.headers {
            // Header values are secrets: errors name the header, never its value.
            let name = axum::http::HeaderName::from_bytes(k.as_bytes())
                .map_err(|_| anyhow!("header name `{k}` is not valid"))?;
            let value =
                axum::http::HeaderValue::from_str(v).map_err(|_| anyhow!("header `{k}` has an invalid value"))?;
            headers.insert(name, value);
        }
        let config = StreamableHttpClientTransportConfig::with_uri(url.as_str()).custom_headers(headers);
        let client = ().serve(StreamableHttpClientTransport::from_config(config)).await.context("initialize failed")?;
        let tools = client.peer().list_all_tools().await.context("tools/list failed")?;
        let _ = client.cancel().await;
        Ok(tools)
    } else {
        Err(anyhow!("neither `command` nor `url` is configured"))
    }
}
