//! The questions asked of the twenty-eighth part's first half: results of MCP servers and
//! of the services behind them. What a user of each tool asks of its result: an entry's
//! severity and message by its insert id, what a request returned and how long it took,
//! who made an audited call, how many errors there are and which request was slowest (a
//! Cloud Logging entries page); an invoice's customer, total, balance and due date, how
//! many invoices are overdue or unpaid and which is largest (a QuickBooks Online invoice
//! query); how many events a segment had on a day, which segment led a day or the whole
//! range, and the first and last days (a Mixpanel segmentation); a span's operation,
//! status and error, a trace's root, how many spans failed and which span or trace took
//! longest (an OTLP/JSON trace export). Records are named from the middle and the end of
//! each result as well as its start, and every answer is computed from the data.

mod gcp_logging;
mod mixpanel;
mod otlp;
mod quickbooks;

#[cfg(test)]
mod tests;

use serde_json::Value;

use crate::question::Question;
use crate::record_questions::{field, list, number};

/// A protobuf duration as JSON writes it (`"0.115847170s"`), in seconds.
fn duration_seconds(d: &str) -> Option<f64> {
    d.strip_suffix('s')?.parse().ok()
}

/// Every question about one of this half's JSON results; `None` for other shapes.
pub(super) fn json_questions(name: &str, v: &Value) -> Option<Vec<Question>> {
    let qs = match name {
        "gcp_logging_entries" => gcp_logging::gcp_logging_questions(v),
        "quickbooks_invoices_query" => quickbooks::quickbooks_questions(v),
        "mixpanel_segmentation" => mixpanel::mixpanel_questions(v),
        "otlp_traces_json" => otlp::otlp_questions(v),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}

/// Every question about one of this half's text results; `None` for other shapes.
pub(super) fn text_questions(name: &str, t: &str) -> Option<Vec<Question>> {
    // This half's shapes are all JSON.
    let _ = (name, t);
    None
}
