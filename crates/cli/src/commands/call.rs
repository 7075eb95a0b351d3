//! `toolshape call`: call one tool through the gateway, in this process, as an agent would,
//! and print exactly what the model reads.
//!
//! The upstreams of the config are started (or connected) as `serve` would, the call goes
//! through the same dispatch path, and the rendered envelope is printed. `--follow N` then
//! reads up to N more pages through `next` (cursors only live as long as this process).
//!
//! A failed call (an error envelope) exits with code 5, and the person also sees the cause
//! the model does not: the last lines the upstreams wrote to their stderr. While upstreams
//! take more than a second to start, a progress line names them.

use std::path::PathBuf;

use anyhow::{Context, anyhow};
use clap::Args;
use serde_json::{Map, Value};
use toolshape_gateway::{Caller, Gateway};

use super::serve::{init_logging, options};
use super::waiting::Waiting;
use super::{EXIT_CALL_FAILED, EXIT_PROBLEMS, Failure, load_masks, print_line};

#[derive(Debug, Args)]
pub(crate) struct CallArgs {
    /// The config file.
    #[arg(long)]
    config: PathBuf,
    /// Call as this profile (a tool outside it is refused).
    #[arg(long)]
    profile: Option<String>,
    /// The tool to call, as the model sees it.
    tool: String,
    /// Its arguments: a JSON object.
    json_args: Option<String>,
    /// Follow `next` up to this many times, printing each page.
    #[arg(long, default_value_t = 0)]
    follow: u32,
    /// Print the envelope as JSON (one line per page) instead of the rendered text.
    #[arg(long)]
    envelope: bool,
}

pub(crate) fn run(args: CallArgs) -> Result<(), Failure> {
    init_logging("warn");
    let arguments: Option<Map<String, Value>> = match &args.json_args {
        None => None,
        Some(text) => match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(m)) => Some(m),
            Ok(_) => {
                return Err(Failure::usage(anyhow!(
                    "the arguments must be a JSON object, like '{{\"label\": \"bug\"}}'"
                )));
            }
            Err(e) => {
                return Err(Failure::usage(anyhow!(
                    "the arguments are not valid JSON ({e}); write one JSON object in single quotes, like \
                     '{{\"label\": \"bug\"}}'"
                )));
            }
        },
    };
    let (config, masks) = load_masks(&args.config)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")
        .map_err(Failure::input)?;
    let mut opts = options(args.profile.clone(), Some(600), Some(256), true);
    opts.pins = super::pin::pin_options(&args.config, &config);
    let spans = super::spans::start(&config, &args.config, masks.defaults().tokenizer, false);
    opts.spans = spans.sink.clone();
    let waiting = Waiting::upstreams(&config, Some(&args.tool));
    let result = runtime.block_on(async move {
        let gateway =
            Gateway::launch(config, masks, opts).await.map_err(|e| Failure { error: e.into(), code: EXIT_PROBLEMS })?;
        let caller = Caller::local("cli");
        let mut outcome = gateway.call(&args.tool, arguments, &caller).await;
        drop(waiting);
        let mut printed = Ok(());
        for page in 0..=args.follow {
            if page > 0 {
                let Some(next) = outcome.envelope.next.clone() else { break };
                outcome = gateway.call(&next.tool, Some(next.arguments), &caller).await;
            }
            let text = if args.envelope {
                serde_json::to_string(&outcome.envelope).unwrap_or_default()
            } else {
                outcome.text.clone()
            };
            printed = print_line(&text);
            if printed.is_err() {
                break;
            }
        }
        gateway.shutdown().await;
        printed?;
        if outcome.is_error() {
            return Err(call_failed(&outcome));
        }
        Ok(())
    });
    spans.flush();
    result
}

/// The failure of a call, for the person: the model's one line, and what the upstreams
/// wrote to their stderr.
fn call_failed(outcome: &toolshape_gateway::Outcome) -> Failure {
    let kind = outcome.failure.map(|k| format!(" ({k})")).unwrap_or_default();
    let mut message = format!("the call failed{kind}: {}", outcome.envelope.summary);
    let tail = super::logging::stderr_tail();
    if tail.is_empty() {
        message.push_str("\n(the upstreams wrote nothing to stderr; run with -v for the gateway's log)");
    } else {
        message.push_str("\nthe upstreams' last stderr lines:");
        for line in tail {
            message.push_str("\n  ");
            message.push_str(&line);
        }
    }
    Failure { error: anyhow!(message), code: EXIT_CALL_FAILED }
}
