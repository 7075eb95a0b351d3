//! The questions asked of the fourteenth part of the catalog: what a user of each service
//! or command asks of a result like it (who acknowledged an alert and how often it fired,
//! who made a release and what it changed, what became of an email, when a post was
//! published, what a database connection is running, how much space a snapshot holds,
//! what a system call returned, what a packet carried), with records named from the
//! middle and the end of the result as well as the head. The answers are computed from
//! the generated data, never written by hand.
//!
//! Text results (a process list, a list of snapshots, a system call trace, a packet
//! capture) are first read into records of their rows, lines or packets, so the same
//! builders ask of them; their readers are in `questions_fourteenth_text.rs`.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::question::{Check, Kind, Question, Records, value};
use crate::questions_blind::{about, at, count, extreme, lines, most_frequent, only, scored_by, together};

#[path = "questions_fourteenth_text.rs"]
mod readers;

#[path = "questions_fourteenth_more.rs"]
mod more;

use more::{processlist_questions, snapshot_questions, strace_questions, tcpdump_questions};

/// Every question about a fourteenth-part shape's JSON result; `None` for other shapes.
pub(crate) fn json_questions(name: &str, v: &Value) -> Option<Vec<Question>> {
    let list = |path: &str| value(v, path).and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    let qs = match name {
        "opsgenie_alerts" => alert_questions(list("data")),
        "heroku_releases" => release_questions(v.as_array().map_or(&[][..], Vec::as_slice)),
        "sendgrid_messages" => message_questions(list("messages")),
        "contentful_entries" => entry_questions(v),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}

/// A string field as a score, for the latest or earliest of ISO times.
fn stamp(path: &'static str) -> impl Fn(&Value) -> Option<String> {
    move |x| Some(value(x, path)?.as_str()?.to_owned())
}

/// Opsgenie alerts, newest first: an alert's priority, who acknowledged it, which
/// integration made it and how often it fired; how many are open, open and unacknowledged,
/// carry a tag or came from a source; the alert that fired most, took longest to
/// acknowledge and fired last.
fn alert_questions(alerts: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: alerts };
    let acked = only(alerts, |x| x["report"]["acknowledgedBy"].is_string());
    let timed = only(alerts, |x| x["report"]["ackTime"].is_number());
    let open = alerts.iter().filter(|x| x["status"] == "open").count();
    let waiting = alerts.iter().filter(|x| x["status"] == "open" && x["acknowledged"] == false).count();
    vec![
        r.head("What is the most recent alert?", "message"),
        r.tail("What is the tiny ID of the oldest alert on this page?", "tinyId"),
        r.lookup("What priority is alert #{key}?", 0.6, "tinyId", "priority"),
        Records { list: &acked }.lookup("Who acknowledged alert #{key}?", 0.3, "tinyId", "report.acknowledgedBy"),
        r.lookup("Which integration created the alert with alias {key}?", 0.9, "alias", "integration.name"),
        r.lookup("How many times has alert #{key} fired?", 0.45, "tinyId", "count"),
        Some(count("How many alerts are still open?", &["open"], open, Some("status"))),
        Some(count(
            "How many open alerts has nobody acknowledged yet?",
            &["unacknowledged", "not acknowledged"],
            waiting,
            Some("acknowledged"),
        )),
        about("tags", r.count("How many alerts are tagged {value}?", "tags[]", None)),
        about("source", r.count("How many alerts came from {value}?", "source", None)),
        about("count", r.extreme("Which alert has fired the most times? Give its tiny ID.", "count", "tinyId", true)),
        about(
            "ackTime",
            Records { list: &timed }.extreme(
                "Which alert took the longest to acknowledge? Give its tiny ID.",
                "report.ackTime",
                "tinyId",
                true,
            ),
        ),
        extreme(
            "Which alert fired most recently? Give its tiny ID.",
            scored_by(alerts, stamp("lastOccurredAt"), "tinyId"),
            true,
            Some("lastOccurredAt"),
        ),
    ]
}

/// The config vars a release's description names (`Set A, B config vars`).
fn config_vars(description: &str) -> Vec<&str> {
    let rest = description.strip_prefix("Set ").or_else(|| description.strip_prefix("Remove "));
    rest.and_then(|r| r.strip_suffix(" config vars")).map_or_else(Vec::new, |r| r.split(", ").collect())
}

/// Heroku releases, newest first: the latest and the oldest, who made a release, when and
/// what it changed, which release deployed a commit; how many failed, were made by
/// someone or rolled back; who made most, the last failed release and the config var
/// changed most often.
fn release_questions(rels: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: rels };
    let desc = |x: &Value| x["description"].as_str().unwrap_or("").to_owned();
    let deploys = only(rels, |x| desc(x).starts_with("Deploy "));
    let failed = only(rels, |x| x["status"] == "failed");
    let rollbacks = rels.iter().filter(|x| desc(x).starts_with("Rollback to ")).count();
    let latest = rels.first().and_then(|x| {
        let v = x["version"].to_string();
        Some(together(
            Kind::Head,
            "What is the latest release, and what did it do?".into(),
            None,
            &[&v, x["description"].as_str()?],
        ))
    });
    let deployed = deploys.get(at(deploys.len(), 0.45)).and_then(|x| {
        let d = x["description"].as_str()?;
        let sha = d.strip_prefix("Deploy ")?;
        let v = x["version"].to_string();
        Some(together(Kind::Lookup, format!("Which release deployed commit {sha}?"), Some(sha), &[&v, d]))
    });
    let vars: Vec<String> =
        rels.iter().flat_map(|x| config_vars(&desc(x)).into_iter().map(str::to_owned).collect::<Vec<_>>()).collect();
    vec![
        latest,
        r.tail("Which version is the oldest release on this page?", "version"),
        r.lookup("Who created release v{key}?", 0.6, "version", "user.email"),
        r.lookup("When was v{key} released?", 0.3, "version", "created_at"),
        r.lookup("What did release v{key} change?", 0.9, "version", "description"),
        deployed,
        Some(count("How many releases failed?", &["failed"], failed.len(), Some("status"))),
        about("email", r.count("How many releases did {value} create?", "user.email", None)),
        Some(count("How many rollbacks are on this page?", &["Rollback", "rollbacks"], rollbacks, Some("description"))),
        extreme(
            "Who created the most releases?",
            most_frequent(rels.iter().filter_map(|x| x["user"]["email"].as_str())),
            true,
            Some("email"),
        ),
        extreme(
            "Which is the most recent release that failed? Give its version.",
            scored_by(&failed, stamp("created_at"), "version"),
            true,
            Some("status"),
        ),
        extreme(
            "Which config var was set or removed in the most releases?",
            most_frequent(vars.iter().map(String::as_str)),
            true,
            Some("description"),
        ),
    ]
}

/// SendGrid's Email Activity, newest first: the newest recipient and the oldest subject,
/// what became of the email to someone and what it was about, how often a message was
/// opened and who got it; how many were not delivered, came from an address or were
/// password resets; the most opened email, the busiest recipient and the domain that
/// bounced most.
fn message_questions(msgs: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: msgs };
    let failed = only(msgs, |x| x["status"] == "not_delivered");
    let resets = msgs.iter().filter(|x| x["subject"] == "Reset your Makerly password").count();
    let domain = |x: &Value| x["to_email"].as_str().and_then(|e| e.split_once('@')).map(|(_, d)| d.to_owned());
    let domains: Vec<String> = failed.iter().filter_map(domain).collect();
    vec![
        r.head("Who was the most recent email sent to?", "to_email"),
        r.tail("What was the subject of the oldest message in this list?", "subject"),
        r.lookup("What is the status of the email sent to {key}?", 0.6, "to_email", "status"),
        r.lookup("What was the subject of the email to {key}?", 0.3, "to_email", "subject"),
        r.lookup("How many times was message {key} opened?", 0.9, "msg_id", "opens_count"),
        r.lookup("Who received message {key}?", 0.45, "msg_id", "to_email"),
        Some(count(
            "How many emails were not delivered?",
            &["not_delivered", "not delivered"],
            failed.len(),
            Some("status"),
        )),
        about("from_email", r.count("How many emails were sent from {value}?", "from_email", None)),
        Some(count(
            "How many password reset emails were sent?",
            &["Reset your Makerly password", "password reset"],
            resets,
            Some("subject"),
        )),
        about(
            "opens_count",
            r.extreme("Which email was opened the most times? Give its recipient.", "opens_count", "to_email", true),
        ),
        extreme(
            "Which address received the most emails?",
            most_frequent(msgs.iter().filter_map(|x| x["to_email"].as_str())),
            true,
            Some("to_email"),
        ),
        extreme(
            "Which email domain had the most messages that were not delivered?",
            most_frequent(domains.iter().map(String::as_str)),
            true,
            Some("to_email"),
        ),
    ]
}

/// Contentful blog posts, newest first, with their authors included: the newest and the
/// last post, when a post was published, its slug and entry id; how many posts carry a
/// tag, are in the space in all or are by an author; who wrote most, the post updated
/// last, the one published most often and the longest.
fn entry_questions(v: &Value) -> Vec<Option<Question>> {
    let items = value(v, "items").and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    let r = Records { list: items };
    let names: BTreeMap<&str, &str> = value(v, "includes.Entry")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|e| Some((e["sys"]["id"].as_str()?, e["fields"]["name"].as_str()?)))
        .collect();
    fn author(x: &Value) -> Option<&str> {
        x["fields"]["author"]["sys"]["id"].as_str()
    }
    let by: Vec<&str> = items.iter().filter_map(|x| names.get(author(x)?).copied()).collect();
    let total = v["total"].as_u64().unwrap_or(0) as usize;
    // The author with the second most posts whose count no other author shares.
    let mut per: BTreeMap<&str, usize> = BTreeMap::new();
    for id in items.iter().filter_map(author) {
        *per.entry(id).or_default() += 1;
    }
    let mut ranked: Vec<(usize, &str)> = per.iter().map(|(id, n)| (*n, *id)).collect();
    ranked.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
    let unique = |n: usize| ranked.iter().filter(|p| p.0 == n).count() == 1;
    let second = ranked.iter().skip(1).chain(ranked.iter().take(1)).find(|p| unique(p.0));
    let author_count = second.map(|&(n, id)| {
        let name = names.get(id).copied().unwrap_or("");
        Question {
            kind: Kind::Aggregate,
            text: format!("How many posts on this page did {name} write?"),
            needle: None,
            check: Check::Count { labels: vec![name.to_owned(), id.to_owned()], value: n.to_string() },
            field: Some("author".into()),
        }
    });
    vec![
        r.head("What is the title of the newest post?", "fields.title"),
        r.tail("Which post is last on this page?", "fields.title"),
        r.lookup("When was \"{key}\" published?", 0.6, "fields.title", "fields.publishDate"),
        r.lookup("What is the slug of \"{key}\"?", 0.3, "fields.title", "fields.slug"),
        r.lookup("What is the entry ID of \"{key}\"?", 0.9, "fields.title", "sys.id"),
        about("tags", r.count("How many posts on this page are tagged {value}?", "fields.tags[]", None)),
        Some(count("How many blog posts are there in all?", &["total"], total, Some("total"))),
        author_count,
        extreme("Who wrote the most posts on this page?", most_frequent(by.iter().copied()), true, Some("author")),
        extreme(
            "Which post was updated most recently?",
            scored_by(items, stamp("sys.updatedAt"), "fields.title"),
            true,
            Some("updatedAt"),
        ),
        about(
            "revision",
            r.extreme("Which post has been published the most times?", "sys.revision", "fields.title", true),
        ),
        extreme(
            "Which is the longest post?",
            scored_by(items, |x| x["fields"]["body"].as_str().map(str::len), "fields.title"),
            true,
            Some("body"),
        ),
    ]
}

/// Every question about a fourteenth-part shape's text result; `None` for other shapes.
pub(crate) fn text_questions(name: &str, t: &str) -> Option<Vec<Question>> {
    let ls = lines(t);
    let qs = match name {
        "mysql_processlist" => processlist_questions(&ls),
        "zfs_list_snapshots" => snapshot_questions(&ls),
        "strace_f" => strace_questions(&ls),
        "tcpdump_nn" => tcpdump_questions(&ls),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}

#[cfg(test)]
#[path = "questions_fourteenth_tests.rs"]
mod tests;
