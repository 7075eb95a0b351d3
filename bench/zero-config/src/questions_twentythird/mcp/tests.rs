//! Tests of the mcp half's questions: its readers on small hand-made results, and every
//! shape of the half at several seeds (nine questions of every kind, every answer in the
//! raw result, head answers near the start and tail answers near the end). The part-wide
//! checks in `questions_twentythird` cover both halves together.

use serde_json::json;
use toolshape_fixtures::apis::Split;

use super::k8s::{documents, quantity};
use super::*;
use crate::half_checks::check_half;
use crate::question::Check;
use crate::questions::tests::checks;

/// This half's shapes.
const SHAPES: [&str; 4] = ["gmail_messages", "figma_file_nodes", "k8s_resources_yaml", "notion_block_children"];

/// The seeds each shape's questions are checked at.
const SEEDS: [u64; 3] = [1, 2, 5];

#[test]
fn every_shape_of_the_half_asks_nine_questions_of_every_kind_answered_from_the_raw_result() {
    check_half(&SHAPES, Split::TwentyThird, &SEEDS);
}

/// A message as `users.messages.get` returns it, with the fields the questions read.
fn message(
    id: &str,
    thread: &str,
    labels: &[&str],
    from: &str,
    subject: &str,
    file: Option<(&str, &str, u64)>,
    size: u64,
) -> Value {
    let mut parts =
        vec![json!({"partId": "0", "mimeType": "text/plain", "filename": "", "body": {"size": 2, "data": "aGk"}})];
    if let Some((name, mime, bytes)) = file {
        parts.push(
            json!({"partId": "1", "mimeType": mime, "filename": name, "body": {"attachmentId": "ANGj", "size": bytes}}),
        );
    }
    json!({
        "id": id, "threadId": thread, "labelIds": labels, "snippet": "hi",
        "payload": {"mimeType": "multipart/mixed", "filename": "", "headers": [{"name": "From", "value": from}, {"name": "Subject", "value": subject}], "parts": parts},
        "sizeEstimate": size, "historyId": "1", "internalDate": "1"
    })
}

#[test]
fn gmail_messages_are_counted_by_label_attachment_and_thread() {
    let v = json!([
        message(
            "a1",
            "t1",
            &["UNREAD", "INBOX"],
            "Ada <ada@x.com>",
            "Order #1 arrived damaged",
            Some(("IMG_1.jpg", "image/jpeg", 900)),
            40
        ),
        message(
            "a2",
            "t2",
            &["Label_3", "INBOX"],
            "Kilnworks <k@y.com>",
            "Invoice KW-1",
            Some(("Invoice-KW-1.pdf", "application/pdf", 5_000)),
            70
        ),
        message("a3", "t1", &["SENT"], "Me <me@shop.com>", "Re: Order #1 arrived damaged", None, 10),
        message("a4", "t1", &["UNREAD", "INBOX"], "Ada <ada@x.com>", "Re: Order #1 arrived damaged", None, 12)
    ]);
    let qs = json_questions("gmail_messages", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Count { labels: vec!["UNREAD".into()], value: "2".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["PDF".into(), "application/pdf".into()], value: "1".into() }));
    assert!(c.contains(&&Check::Count { labels: vec!["threads".into()], value: "2".into() }));
    assert!(c.contains(&&Check::Extreme { id: "a2".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "a3".into(), max: false }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "t1".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Ada <ada@x.com>".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Invoice-KW-1.pdf".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["Invoice KW-1".into(), "Invoice-KW-1.pdf".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["Re: Order #1 arrived damaged".into()])), "{c:?}");
}

#[test]
fn yaml_documents_read_into_paths_and_quantities() {
    let t = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  annotations:\n    note: |\n      {\"a\":1}\n  name: api\n  namespace: shop\nspec:\n  replicas: 3\n  template:\n    spec:\n      containers:\n      - env:\n        - name: LOG_LEVEL\n          value: info\n        image: ghcr.io/x/api:1.2.3\n        name: api\n        resources:\n          requests:\n            cpu: 250m\n            memory: 512Mi\n      dnsPolicy: ClusterFirst\nstatus:\n  readyReplicas: 1\n  replicas: 3\n---\napiVersion: v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: shop\nspec:\n  replicas: 2\n  template:\n    spec:\n      containers:\n      - image: web:2\n        resources:\n          requests:\n            cpu: \"1\"\n            memory: 1Gi\nstatus:\n  readyReplicas: 2\n  replicas: 2\n";
    let docs = documents(t);
    assert_eq!(docs.len(), 2);
    let get = |d: &[(String, String)], p: &str| d.iter().find(|(k, _)| k == p).map(|(_, v)| v.clone());
    assert_eq!(get(&docs[0], "metadata.annotations.note").as_deref(), Some("{\"a\":1}"));
    assert_eq!(get(&docs[0], "spec.template.spec.containers.image").as_deref(), Some("ghcr.io/x/api:1.2.3"));
    assert_eq!(get(&docs[0], "spec.template.spec.containers.env.value").as_deref(), Some("info"));
    assert_eq!(get(&docs[0], "spec.template.spec.dnsPolicy").as_deref(), Some("ClusterFirst"));
    assert_eq!(get(&docs[1], "spec.template.spec.containers.resources.requests.cpu").as_deref(), Some("1"));
    assert_eq!(quantity("512Mi"), Some(512.0 * 1024.0 * 1024.0));
    assert_eq!(quantity("1"), Some(1000.0));
    let qs = text_questions("k8s_resources_yaml", t).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Extreme { id: "web".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "api".into(), max: false }), "{c:?}");
    assert!(c.contains(&&Check::Count {
        labels: vec!["unavailable".into(), "not ready".into(), "MinimumReplicasUnavailable".into()],
        value: "1".into()
    }));
    assert!(c.contains(&&Check::Together(vec!["api".into(), "ghcr.io/x/api:1.2.3".into()])), "{c:?}");
}

#[test]
fn notion_to_dos_and_meetings_are_counted_from_the_blocks() {
    let block = |id: &str, ty: &str, body: Value| {
        let mut b = json!({"object": "block", "id": id, "created_by": {"object": "user", "id": "u1"}, "last_edited_by": {"object": "user", "id": "u1"}, "has_children": false, "type": ty});
        b[ty] = body;
        b
    };
    let rt = |t: &str| json!([{"type": "text", "text": {"content": t}, "plain_text": t}]);
    let v = json!({"object": "list", "results": [
        block("b1", "heading_1", json!({"rich_text": rt("Weekly sync 2025-12-18")})),
        block("b2", "to_do", json!({"rich_text": rt("Bump the chart"), "checked": false})),
        block("b3", "to_do", json!({"rich_text": rt("Rotate secrets"), "checked": false})),
        block("b4", "heading_1", json!({"rich_text": rt("Weekly sync 2025-12-11")})),
        block("b5", "to_do", json!({"rich_text": rt("Write the postmortem"), "checked": true})),
        block("b6", "code", json!({"rich_text": rt("kubectl get pods"), "language": "bash"}))
    ], "next_cursor": null, "has_more": false});
    let qs = json_questions("notion_block_children", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Count {
        labels: vec!["unchecked".into(), "not done".into(), "open".into()],
        value: "2".into()
    }));
    assert!(c.contains(&&Check::Extreme { id: "Weekly sync 2025-12-18".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["Write the postmortem".into(), "true".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["Weekly sync 2025-12-11".into()])), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "bash".into(), max: true }), "{c:?}");
}
