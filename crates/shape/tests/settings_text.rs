//! A text of one setting per line under dotted names (`sysctl -a`), shaped with no mask:
//! the first read says how many keys there are and how many sit under each branch.
#![allow(clippy::unwrap_used)]

use serde_json::Map;
use toolshape_shape::{OffsetContinuation, ShapeContext, ShapePlan, Shaper, Status};
use toolshape_tokens::Tokenizer;

#[test]
fn a_sysctl_listing_is_counted_by_branch_in_the_first_read() {
    let mut text = String::new();
    for i in 0..300 {
        text.push_str(&format!("kernel.param_{i:03} = {}\n", i % 3));
    }
    for i in 0..49 {
        text.push_str(&format!("vm.knob_{i:02} = {}\n", 1_000 + i * 10));
    }
    for iface in ["eth0", "eth1", "docker0", "lo"] {
        for k in 0..50 {
            text.push_str(&format!("net.ipv6.conf.{iface}.option_{k:02} = 0\n"));
        }
    }
    let shaper = Shaper::new(ShapePlan { budget_tokens: 1_500, ..ShapePlan::default() }).unwrap();
    let next = OffsetContinuation { tool: "result_read".into(), base: Map::new() };
    let ctx = ShapeContext {
        tool: "run_command",
        tokenizer: Tokenizer::default(),
        nonce: "18446744073709551615",
        now_unix: None,
        resume: None,
        continuation: &next,
    };
    let shaped = shaper.shape(text.as_bytes(), &ctx).unwrap();
    let summary = shaped.envelope.summary;
    assert_eq!(shaped.envelope.status, Status::Partial);
    assert!(summary.contains("549 keys (key = value lines)"), "{summary}");
    assert!(summary.contains("kernel 300"), "{summary}");
    assert!(summary.contains("vm 49 (max vm.knob_48 1480)"), "{summary}");
    assert!(summary.contains("net.ipv6.conf.docker0 50"), "{summary}");
}
