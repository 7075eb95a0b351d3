//! Readers of the cli half's text results, each making records of what a tool printed,
//! values kept as they are written so an answer reads as it does in the output: the
//! module objects of `go list -m -json all` and the counters of `ethtool -S`.

use serde_json::{Value, json};

/// Every JSON object `go list -m -json` printed, one after another, in order.
pub(crate) fn go_modules(t: &str) -> Vec<Value> {
    serde_json::Deserializer::from_str(t).into_iter::<Value>().map_while(Result::ok).collect()
}

/// Every `name: value` line of `ethtool -S` as `{"name", "value"}` (the value as
/// printed) with `"n"`, the value as a number.
pub(crate) fn ethtool_counters(t: &str) -> Vec<Value> {
    t.lines()
        .filter(|l| l.starts_with(' '))
        .filter_map(|l| {
            let (name, value) = l.trim().split_once(": ")?;
            let n: u64 = value.trim().parse().ok()?;
            Some(json!({"name": name, "value": value.trim(), "n": n}))
        })
        .collect()
}
