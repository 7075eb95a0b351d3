//! A document larger than a page, through the gateway: the first read shows its start and
//! its end, and `result_read` goes on inside the large member until every part was shown.

use serde_json::Value;

use super::{rig, tracker::file_report};

/// Every scalar of `v` with its path (items not numbered), in document order.
fn leaves(v: &Value, path: &str, out: &mut Vec<String>) {
    match v {
        Value::Object(m) if !m.is_empty() => m.iter().for_each(|(k, inner)| leaves(inner, &format!("{path}.{k}"), out)),
        Value::Array(a) if !a.is_empty() => a.iter().for_each(|item| leaves(item, &format!("{path}[]"), out)),
        other => out.push(format!("{path}={other}")),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_document_larger_than_a_page_is_read_in_parts_to_its_end() {
    let rig = rig().await;
    let (_, first) = rig.call("svc_report", serde_json::json!({})).await;
    let summary = first["summary"].as_str().unwrap();
    assert!(
        summary.contains("read in") && summary.contains("; next from data.attributes.last_analysis_results.Engine"),
        "{summary}"
    );
    // The end of the document is in the first read.
    assert!(first["data"].to_string().contains("CRYPT32.dll"), "{first}");
    let pages = rig.follow(first).await;
    assert!(pages.len() > 2, "{} pages", pages.len());
    let mut shown = Vec::new();
    for page in &pages {
        leaves(&page["data"], "", &mut shown);
    }
    let mut want = Vec::new();
    leaves(&file_report(), "", &mut want);
    shown.sort();
    want.sort();
    assert_eq!(shown, want, "every value shown once");
    assert_eq!(pages.last().unwrap()["status"], "ok");
}
