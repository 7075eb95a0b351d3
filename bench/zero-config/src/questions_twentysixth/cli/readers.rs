//! Readers of the cli half's text results, each making records of what a tool printed,
//! values kept as they are written so an answer reads as it does in the output: the
//! `key = value` lines of `sysctl -a` and the flows of `conntrack -L`.

use serde_json::{Map, Value, json};

/// Every `key = value` line of `sysctl -a`: `key`, `value` (tabs kept), `top` (the first
/// dotted part).
pub(crate) fn sysctl_keys(t: &str) -> Vec<Value> {
    t.lines()
        .filter_map(|line| {
            let (key, value) = line.split_once(" = ").or_else(|| line.strip_suffix(" =").map(|k| (k, "")))?;
            let top = key.split('.').next().unwrap_or(key);
            Some(json!({"key": key, "value": value, "top": top}))
        })
        .collect()
}

/// What `conntrack -L` printed: its flows and the count of its closing line.
pub(crate) struct Conntrack {
    /// `proto`, `timeout`, `state` (TCP only), the original `src`, `dst`, `sport`,
    /// `dport` (`type`, `code`, `id` for ICMP), the reply's `reply_src`, `reply_dst`,
    /// `reply_sport`, `reply_dport`, `unreplied`, `assured`, `mark`, `use`.
    pub(crate) flows: Vec<Value>,
    /// The N of "N flow entries have been shown.".
    pub(crate) shown: Option<String>,
}

/// Reads `conntrack -L`.
pub(crate) fn conntrack_flows(t: &str) -> Conntrack {
    let mut c = Conntrack { flows: Vec::new(), shown: None };
    for line in t.lines() {
        if let Some(rest) = line.strip_prefix("conntrack v") {
            c.shown = rest.split_once("): ").and_then(|(_, n)| n.split_whitespace().next()).map(str::to_owned);
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let [proto, _number, timeout, rest @ ..] = words.as_slice() else { continue };
        let mut flow = Map::new();
        flow.insert("proto".into(), json!(proto));
        flow.insert("timeout".into(), json!(timeout));
        flow.insert("unreplied".into(), json!(false));
        flow.insert("assured".into(), json!(false));
        // The first src=…dport= run is the original direction, the second the reply.
        let mut reply = false;
        for w in rest {
            match w.split_once('=') {
                Some((k, v)) => {
                    let k = if k == "src" && flow.contains_key("src") { "reply_src" } else { k };
                    reply |= k == "reply_src";
                    let k = match k {
                        "mark" | "use" | "reply_src" => k.to_owned(),
                        _ if reply => format!("reply_{k}"),
                        _ => k.to_owned(),
                    };
                    flow.insert(k, json!(v));
                }
                None if *w == "[UNREPLIED]" => {
                    flow.insert("unreplied".into(), json!(true));
                }
                None if *w == "[ASSURED]" => {
                    flow.insert("assured".into(), json!(true));
                }
                None => {
                    flow.insert("state".into(), json!(w));
                }
            }
        }
        c.flows.push(Value::Object(flow));
    }
    c
}
