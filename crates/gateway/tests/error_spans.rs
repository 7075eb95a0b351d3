//! An upstream's error answer is measured like any result: its span records the tokens and
//! bytes the upstream sent before shaping, not zero (a failure the gateway words itself, an
//! unknown tool, has nothing before shaping).

use std::sync::Arc;
use std::time::Duration;

use toolshape_gateway::{Caller, Gateway, GatewayOptions};
use toolshape_telemetry::{SpanLogConfig, SpanSink, Telemetry, TelemetryConfig, read_spans};
use toolshape_tokens::Tokenizer;

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/error_upstream.py");

/// What the fixture sends, recomputed here: the traceback of `fail`, the message of `reject`.
fn traceback() -> String {
    let frames: String = (0..40)
        .map(|i| {
            format!(
                "  File \"/srv/app/module_{i}.py\", line {}, in handler_{i}\n    result = step_{i}(payload)\n",
                10 + i
            )
        })
        .collect();
    format!("Traceback (most recent call last):\n{frames}ValueError: the repository acme/nope does not exist\n")
}

fn rejection() -> String {
    format!("invalid params: {}", "the field `owner` must name an existing organization; ".repeat(30))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_upstream_error_answer_records_its_tokens_and_bytes_before_shaping() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("spans.sqlite");
    let sink =
        Telemetry::start(TelemetryConfig { span_log: Some(SpanLogConfig::at(&log)), ..TelemetryConfig::default() })
            .unwrap();
    let sink: Arc<dyn SpanSink> = Arc::new(sink);
    let yaml = format!("upstreams:\n  broken: {{ command: [python3, \"{FIXTURE}\"], timeout_secs: 10 }}\n");
    let (config, masks) = toolshape_mask::load(&yaml, "test.yaml", &|_| None).unwrap();
    let gateway = Gateway::launch(config, masks, GatewayOptions { spans: sink.clone(), ..GatewayOptions::default() })
        .await
        .unwrap();
    let caller = Caller::local("t");
    for tool in ["broken_fail", "broken_reject", "no_such_tool"] {
        let outcome = gateway.call(tool, None, &caller).await;
        assert!(outcome.is_error(), "{tool}: {}", outcome.text);
    }
    gateway.shutdown().await;
    assert!(sink.flush(Duration::from_secs(30)), "the span log was not written in time");

    let spans = read_spans(&log, None, &mut |_| {}).unwrap();
    let span = |tool: &str| spans.iter().find(|s| s.tool == tool).unwrap_or_else(|| panic!("no span for {tool}"));
    let tokenizer = Tokenizer::default();
    for (tool, sent) in [("broken_fail", traceback()), ("broken_reject", rejection())] {
        let s = span(tool);
        assert_eq!(s.bytes_before, sent.len() as u64, "{tool}: the bytes the upstream sent");
        assert_eq!(s.tokens_before.value(), tokenizer.count(&sent) as u64, "{tool}: the tokens the upstream sent");
        assert!(!s.tokens_before.is_estimated(), "{tool}");
        assert!(s.tokens_after > 0 && s.bytes_after > 0, "{tool}");
    }
    // Nothing came from an upstream for an unknown tool.
    let unknown = span("no_such_tool");
    assert_eq!((unknown.bytes_before, unknown.tokens_before.value()), (0, 0));
}
