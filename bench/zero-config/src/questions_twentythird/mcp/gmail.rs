//! Questions about a Gmail MCP server's page of full messages, newest first: the newest
//! messages' subjects, senders, ids, dates and threads, and the oldest ones the same way;
//! a message's subject by its id, a sender or a Cc by the subject, what a message has
//! attached and how large an attachment is, a message's labels; and how many messages
//! are unread, important, starred, sent, promotions or updates, carry a PDF, a calendar
//! invitation or an unsubscribe header, how many threads there are, which message is the
//! largest and the smallest, who sent the most, which thread is the longest and which
//! attachment is the largest.

use serde_json::Value;

use super::{ORDINALS, end, find};
use crate::question::{Question, text};
use crate::questions_blind::{count, extreme, most_frequent};

/// The value of header `name` of a message.
pub(super) fn header(m: &Value, name: &str) -> Option<String> {
    m["payload"]["headers"].as_array()?.iter().find(|h| h["name"] == name)?["value"].as_str().map(str::to_owned)
}

/// Every part of a message, depth first.
fn parts(m: &Value) -> Vec<&Value> {
    fn walk<'v>(p: &'v Value, out: &mut Vec<&'v Value>) {
        out.push(p);
        for c in p["parts"].as_array().into_iter().flatten() {
            walk(c, out);
        }
    }
    let mut out = Vec::new();
    walk(&m["payload"], &mut out);
    out
}

/// The attachments of a message: file name, MIME type and size.
pub(super) fn attachments(m: &Value) -> Vec<(String, String, u64)> {
    parts(m)
        .into_iter()
        .filter_map(|p| {
            let name = p["filename"].as_str().filter(|n| !n.is_empty())?;
            Some((name.to_owned(), p["mimeType"].as_str()?.to_owned(), p["body"]["size"].as_u64()?))
        })
        .collect()
}

fn labelled(m: &Value, label: &str) -> bool {
    m["labelIds"].as_array().is_some_and(|l| l.iter().any(|x| x == label))
}

fn s(m: &Value, field: &str) -> Option<String> {
    m.get(field).map(text).filter(|s| !s.is_empty())
}

pub(super) fn gmail_questions(list: &[Value]) -> Vec<Option<Question>> {
    let mut qs = Vec::new();
    // The newest messages come first, the oldest last.
    for (from_end, which) in [(false, "newest"), (true, "oldest")] {
        for (k, ord) in ORDINALS.iter().enumerate() {
            let m = format!("{ord}{which} message");
            qs.push(end(list, k, from_end, &format!("What is the subject of the {m}?"), |x| {
                Some(vec![header(x, "Subject")?])
            }));
            qs.push(end(list, k, from_end, &format!("Who sent the {m}?"), |x| Some(vec![header(x, "From")?])));
            if k < 2 {
                qs.push(end(list, k, from_end, &format!("What is the id of the {m}?"), |x| Some(vec![s(x, "id")?])));
            }
            if k == 0 {
                qs.push(end(list, k, from_end, &format!("When was the {m} sent (its Date header)?"), |x| {
                    Some(vec![header(x, "Date")?])
                }));
                qs.push(end(list, k, from_end, &format!("Which thread is the {m} in?"), |x| {
                    Some(vec![s(x, "threadId")?])
                }));
                qs.push(end(list, k, from_end, &format!("What is the size estimate of the {m}?"), |x| {
                    Some(vec![s(x, "sizeEstimate")?])
                }));
            }
        }
    }
    // Messages named by id or subject.
    let id = |x: &Value| s(x, "id");
    let subject = |x: &Value| header(x, "Subject");
    for f in [0.1, 0.3, 0.5, 0.7, 0.9] {
        qs.push(find(list, f, "What is the subject of message {key}?", id, |x| Some(vec![header(x, "Subject")?])));
    }
    for f in [0.4, 0.8] {
        qs.push(find(list, f, "Who sent the message \"{key}\"?", subject, |x| Some(vec![header(x, "From")?])));
    }
    qs.push(find(list, 0.65, "Which labels does message {key} have?", id, |x| {
        Some(x["labelIds"].as_array()?.iter().map(text).collect())
    }));
    let with_files: Vec<Value> = list.iter().filter(|x| !attachments(x).is_empty()).cloned().collect();
    for f in [0.2, 0.6] {
        qs.push(find(&with_files, f, "Which file is attached to the message \"{key}\"?", subject, |x| {
            Some(attachments(x).into_iter().map(|a| a.0).collect())
        }));
    }
    let files: Vec<(String, String, u64)> = list.iter().flat_map(attachments).collect();
    qs.push(find(
        &files,
        0.5,
        "How large is the attachment {key}, in bytes?",
        |a| Some(a.0.clone()),
        |a| Some(vec![a.2.to_string()]),
    ));
    let copied: Vec<Value> = list.iter().filter(|x| header(x, "Cc").is_some()).cloned().collect();
    qs.push(find(&copied, 0.5, "Who is copied (Cc) on the message \"{key}\"?", subject, |x| {
        Some(vec![header(x, "Cc")?])
    }));
    // How many.
    let n = |keep: &dyn Fn(&Value) -> bool| list.iter().filter(|x| keep(x)).count();
    for (label, q) in [
        ("UNREAD", "How many messages are unread (labelled UNREAD)?"),
        ("IMPORTANT", "How many messages are marked IMPORTANT?"),
        ("STARRED", "How many messages are starred?"),
        ("SENT", "How many of the messages were sent from this mailbox (labelled SENT)?"),
        ("CATEGORY_PROMOTIONS", "How many messages are in the Promotions category?"),
        ("CATEGORY_UPDATES", "How many messages are in the Updates category?"),
    ] {
        qs.push(Some(count(q, &[label], n(&|x| labelled(x, label)), Some("labelIds"))));
    }
    let pdf = n(&|x| attachments(x).iter().any(|a| a.1 == "application/pdf"));
    qs.push(Some(count("How many messages have a PDF attached?", &["PDF", "application/pdf"], pdf, Some("mimeType"))));
    let invites = n(&|x| attachments(x).iter().any(|a| a.1 == "application/ics"));
    qs.push(Some(count(
        "How many messages are calendar invitations?",
        &["invitations", "invitation", "text/calendar"],
        invites,
        Some("mimeType"),
    )));
    let lists = n(&|x| header(x, "List-Unsubscribe").is_some());
    qs.push(Some(count(
        "How many messages carry a List-Unsubscribe header?",
        &["List-Unsubscribe", "newsletters"],
        lists,
        Some("headers"),
    )));
    let threads = most_frequent(list.iter().filter_map(|x| x["threadId"].as_str()));
    qs.push(Some(count("How many threads do the messages belong to?", &["threads"], threads.len(), Some("threadId"))));
    // Which holds the most.
    let size = |x: &Value| Some((x["sizeEstimate"].as_u64()?, s(x, "id")?));
    qs.push(extreme(
        "Which message (id) is the largest by size estimate?",
        list.iter().filter_map(size).collect(),
        true,
        Some("sizeEstimate"),
    ));
    qs.push(extreme(
        "Which message (id) is the smallest by size estimate?",
        list.iter().filter_map(size).collect(),
        false,
        Some("sizeEstimate"),
    ));
    qs.push(extreme(
        "Which sender sent the most messages?",
        most_frequent(list.iter().filter_map(|x| header(x, "From")).collect::<Vec<_>>().iter().map(String::as_str)),
        true,
        Some("From"),
    ));
    qs.push(extreme("Which thread has the most messages on the page?", threads, true, Some("threadId")));
    qs.push(extreme(
        "Which attachment is the largest?",
        files.iter().map(|a| (a.2, a.0.clone())).collect(),
        true,
        Some("size"),
    ));
    qs
}
