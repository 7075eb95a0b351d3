//! The questions asked of `ethtool -S` of a multi-queue NIC: what someone chasing drops
//! or imbalance asks (a counter's value, a queue's packets, bytes or allocation errors,
//! a priority's bytes, CRC errors and discards at the port; how many queues there are,
//! how many send queues were stopped or dropped, how many receive queues failed to
//! allocate buffers, which queue carried or dropped the most, which channel woke the
//! most, which priority carried the most; the first counters and the last ones).

use serde_json::Value;

use super::readers::ethtool_counters;
use super::{ORDINALS, to_last};
use crate::question::Question;
use crate::questions_blind::{count, extreme, only, scored_by};
use crate::record_questions::{end, fields_of, lookup};

/// The queue counters of one kind: `rx` (`rx12_packets`), `tx`, or `ch`, with `what`
/// after the number.
pub(crate) fn queue_counters(all: &[Value], kind: &str, what: &str) -> Vec<Value> {
    only(all, |c| {
        let name = c["name"].as_str().unwrap_or_default();
        name.strip_prefix(kind)
            .and_then(|rest| rest.split_once('_'))
            .is_some_and(|(n, w)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) && w == what)
    })
}

/// Every question about the output `t`.
pub(crate) fn ethtool_questions(t: &str) -> Vec<Option<Question>> {
    let all = ethtool_counters(t);
    let mut qs = lookups(&all);
    qs.extend(aggregates(&all));
    qs.extend(heads_and_tails(&all));
    qs
}

/// A counter's value, named by the counter.
fn lookups(all: &[Value]) -> Vec<Option<Question>> {
    let nonzero = |list: Vec<Value>| only(&list, |c| c["n"].as_u64().is_some_and(|n| n > 0));
    let value_q = "What is the value of {key}?";
    let named = |name: &str| nonzero(only(all, |c| c["name"] == name));
    vec![
        lookup(
            &queue_counters(all, "rx", "packets"),
            0.3,
            "How many packets has the receive queue counter {key} counted?",
            "name",
            &["value"],
        ),
        lookup(
            &queue_counters(all, "tx", "bytes"),
            0.6,
            "How many bytes has the send queue counter {key} counted?",
            "name",
            &["value"],
        ),
        lookup(&queue_counters(all, "ch", "events"), 0.5, value_q, "name", &["value"]),
        lookup(&nonzero(queue_counters(all, "rx", "buff_alloc_err")), 0.5, value_q, "name", &["value"]),
        lookup(&nonzero(queue_counters(all, "tx", "stopped")), 0.4, value_q, "name", &["value"]),
        lookup(&queue_counters(all, "rx", "gro_packets"), 0.8, value_q, "name", &["value"]),
        lookup(&queue_counters(all, "rx", "cqe_compress_pkts"), 0.15, value_q, "name", &["value"]),
        lookup(&named("rx_crc_errors_phy"), 0.0, value_q, "name", &["value"]),
        lookup(
            &named("rx_discards_phy"),
            0.0,
            "How many packets did the port discard on receive ({key})?",
            "name",
            &["value"],
        ),
        lookup(&named("rx_out_of_buffer"), 0.0, value_q, "name", &["value"]),
        lookup(&named("rx_prio3_bytes"), 0.0, "How many bytes arrived on priority 3 ({key})?", "name", &["value"]),
        lookup(&named("rx_prio3_pause"), 0.0, value_q, "name", &["value"]),
    ]
}

/// How many queues are in a state; which queue holds an extreme.
fn aggregates(all: &[Value]) -> Vec<Option<Question>> {
    let nonzero = |list: &[Value]| list.iter().filter(|c| c["n"].as_u64().is_some_and(|n| n > 0)).count();
    let by_n = |list: &[Value]| scored_by(list, |c| c["n"].as_u64(), "name");
    let rx_packets = queue_counters(all, "rx", "packets");
    let prio_bytes = only(all, |c| {
        c["name"].as_str().is_some_and(|n| n.starts_with("rx_prio") && n.ends_with("_bytes") && !n.contains("pause"))
    });
    vec![
        Some(count("How many receive queues does the NIC have?", &["queues"], rx_packets.len(), Some("name"))),
        Some(count(
            "How many send queues were stopped at least once (txN_stopped above 0)?",
            &["stopped"],
            nonzero(&queue_counters(all, "tx", "stopped")),
            Some("name"),
        )),
        Some(count(
            "How many send queues dropped packets (txN_dropped above 0)?",
            &["dropped"],
            nonzero(&queue_counters(all, "tx", "dropped")),
            Some("name"),
        )),
        Some(count(
            "How many receive queues had buffer allocation errors (rxN_buff_alloc_err above 0)?",
            &["buff_alloc_err"],
            nonzero(&queue_counters(all, "rx", "buff_alloc_err")),
            Some("name"),
        )),
        Some(count(
            "How many receive queues dropped oversize packets (rxN_oversize_pkts_sw_drop above 0)?",
            &["oversize_pkts_sw_drop"],
            nonzero(&queue_counters(all, "rx", "oversize_pkts_sw_drop")),
            Some("name"),
        )),
        Some(count(
            "How many counters are zero?",
            &["zero"],
            all.iter().filter(|c| c["n"] == 0).count(),
            Some("value"),
        )),
        extreme("Which receive queue has received the most packets?", by_n(&rx_packets), true, Some("packets")),
        extreme("Which receive queue has received the fewest packets?", by_n(&rx_packets), false, Some("packets")),
        extreme(
            "Which send queue has sent the most bytes?",
            by_n(&queue_counters(all, "tx", "bytes")),
            true,
            Some("bytes"),
        ),
        extreme(
            "Which receive queue has the most buffer allocation errors?",
            by_n(&queue_counters(all, "rx", "buff_alloc_err")),
            true,
            Some("buff_alloc_err"),
        ),
        extreme(
            "Which send queue has dropped the most packets?",
            by_n(&queue_counters(all, "tx", "dropped")),
            true,
            Some("dropped"),
        ),
        extreme(
            "Which channel has handled the most events?",
            by_n(&queue_counters(all, "ch", "events")),
            true,
            Some("events"),
        ),
        extreme("Which priority has received the most bytes?", by_n(&prio_bytes), true, Some("bytes")),
    ]
}

/// The first counters at the top; the last counters at the end.
fn heads_and_tails(all: &[Value]) -> Vec<Option<Question>> {
    let mut qs = Vec::new();
    let answer = |c: &Value| fields_of(c, &["name", "value"]);
    for (k, ordinal) in ORDINALS.iter().enumerate() {
        qs.push(end(all, k, false, &format!("Which counter is listed {ordinal}, and what is its value?"), answer));
    }
    for back in 0..9 {
        qs.push(end(
            all,
            back,
            true,
            &format!("Which counter is listed {}, and what is its value?", to_last(back)),
            answer,
        ));
    }
    qs
}
