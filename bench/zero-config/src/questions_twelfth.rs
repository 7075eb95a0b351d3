//! The questions asked of the twelfth part of the catalog: what a user of each service or
//! command asks of a result like it (which commit a build built and how many tests it
//! failed, who wrote a message and what it answers, who a support conversation is from,
//! which image a service runs, how busy an interface was at a time of day, why a queued
//! mail is stuck, who a person's manager is, how many rows a partition's scan returned),
//! with records named from the middle and the end of the result as well as the head. The
//! answers are computed from the generated data, never written by hand.
//!
//! Text results (a day of network statistics, a mail queue, a directory's LDIF, a query
//! plan) are first read into records of their rows, stanzas, entries or nodes, so the same
//! builders ask of them; their readers are in `questions_twelfth_text.rs`.

use serde_json::{Value, json};

use crate::question::{Kind, Question, Records, value};
use crate::questions_blind::{about, count, extreme, lines, most_frequent, only, scored_by, together};

#[path = "questions_twelfth_text.rs"]
mod readers;

#[cfg(test)]
use readers::{ldif_entries, mailq_rows, plan_nodes, sar_rows};

/// Every question about a twelfth-part shape's JSON result; `None` for other shapes.
pub(crate) fn json_questions(name: &str, v: &Value) -> Option<Vec<Question>> {
    let list = |path: &str| value(v, path).and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    let qs = match name {
        "jenkins_builds" => build_questions(list("builds")),
        "discord_messages" => message_questions(v.as_array().map_or(&[][..], Vec::as_slice)),
        "intercom_conversations" => conversation_questions(list("conversations")),
        "cloud_run_services" => service_questions(list("services")),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}

/// The first action of a Jenkins build holding `field`.
fn action<'v>(build: &'v Value, field: &str) -> Option<&'v Value> {
    build["actions"].as_array()?.iter().find_map(|a| a.get(field))
}

/// Jenkins builds, newest first: which commit a build built, who started it, how many of
/// its tests failed, how long it took, how many builds ended each way or were started by
/// the timer, the longest build, the worst test run and the most frequent committer.
fn build_questions(builds: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: builds };
    let rows: Vec<Value> = builds
        .iter()
        .map(|b| {
            let cause = action(b, "causes").and_then(|c| c.as_array()?.last().cloned()).unwrap_or(Value::Null);
            json!({
                "build": b["displayName"],
                "result": b["result"],
                "sha": action(b, "lastBuiltRevision").map_or(Value::Null, |rev| rev["SHA1"].clone()),
                "cause": cause["shortDescription"],
                "user": cause["userName"],
                "failed": action(b, "failCount").cloned().unwrap_or(Value::Null),
            })
        })
        .collect();
    let rs = Records { list: &rows };
    let unstable = only(&rows, |x| x["result"] == "UNSTABLE");
    let by_hand = only(&rows, |x| x["user"].is_string());
    let timer = rows.iter().filter(|x| x["cause"] == "Started by timer").count();
    let authors = builds
        .iter()
        .flat_map(|b| b["changeSets"].as_array().into_iter().flatten())
        .flat_map(|c| c["items"].as_array().into_iter().flatten())
        .filter_map(|i| i["author"]["fullName"].as_str());
    let oldest = builds.last().and_then(|b| Some((b["displayName"].as_str()?, b["result"].as_str()?)));
    vec![
        r.head("Which build is the newest?", "displayName"),
        oldest.map(|(b, res)| {
            together(Kind::Tail, "What was the result of the oldest build listed?".into(), None, &[b, res])
        }),
        rs.lookup("Which commit did build {key} build?", 0.6, "build", "sha"),
        Records { list: &unstable }.lookup("How many tests failed in build {key}?", 0.3, "build", "failed"),
        Records { list: &by_hand }.lookup("Who started build {key}?", 0.5, "build", "user"),
        r.lookup("How long did build {key} take, in milliseconds?", 0.9, "displayName", "duration"),
        about("result", r.count("How many builds ended in {value}?", "result", None)),
        Some(count("How many builds were started by the timer?", &["timer"], timer, Some("causes"))),
        about("fullName", r.count("How many builds name {value} as a culprit?", "culprits[].fullName", None)),
        r.extreme("Which build took the longest?", "duration", "displayName", true),
        about("failCount", rs.extreme("Which build had the most failing tests?", "failed", "build", true)),
        extreme("Who wrote the most commits built here?", most_frequent(authors), true, Some("author")),
    ]
}

/// Discord messages, newest first: who wrote a message, what a reply answers, what a
/// message attached or the bot posted, how many messages a member posted, how many are
/// replies or joins, the most reacted message and the most active member.
fn message_questions(messages: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: messages };
    let replies = only(messages, |x| x["type"] == 19);
    let attached = only(messages, |x| x["attachments"].as_array().is_some_and(|a| !a.is_empty()));
    let posted = only(messages, |x| x["embeds"].as_array().is_some_and(|a| !a.is_empty()));
    let joins = messages.iter().filter(|x| x["type"] == 7).count();
    let reactions = |x: &Value| -> Option<u64> {
        Some(x["reactions"].as_array()?.iter().filter_map(|e| e["count"].as_u64()).sum())
    };
    vec![
        r.head("Who wrote the newest message?", "author.username"),
        r.tail("When was the oldest message on this page posted?", "timestamp"),
        r.lookup("Who wrote message {key}?", 0.6, "id", "author.username"),
        Records { list: &replies }.lookup(
            "Which message does message {key} reply to?",
            0.3,
            "id",
            "message_reference.message_id",
        ),
        Records { list: &attached }.lookup(
            "Which file is attached to message {key}?",
            0.5,
            "id",
            "attachments[0].filename",
        ),
        Records { list: &posted }.lookup(
            "What did the GitHub bot post in message {key}?",
            0.9,
            "id",
            "embeds[0].title",
        ),
        about("username", r.count("How many messages did {value} post?", "author.username", None)),
        Some(count("How many messages are replies?", &["replies"], replies.len(), Some("type"))),
        Some(count("How many new members joined?", &["joined", "joins"], joins, Some("type"))),
        extreme("Which message got the most reactions?", scored_by(messages, reactions, "id"), true, Some("reactions")),
        extreme(
            "Who posted the most messages?",
            most_frequent(messages.iter().filter_map(|x| x["author"]["username"].as_str())),
            true,
            Some("username"),
        ),
    ]
}

/// Intercom conversations, most recently updated first: who a conversation is from, what
/// they wrote, its tag and plan, how many are open or carry a tag or missed their SLA,
/// the longest wait for a first reply and the longest conversation.
fn conversation_questions(conversations: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: conversations };
    let missed = conversations.iter().filter(|x| x["sla_applied"]["sla_status"] == "missed").count();
    vec![
        r.head("Who started the most recently updated conversation?", "source.author.name"),
        r.tail("Who started the last conversation on this page?", "source.author.email"),
        r.lookup("Who started conversation {key}?", 0.6, "id", "source.author.email"),
        r.lookup("What did {key} write to support?", 0.3, "source.author.name", "source.body"),
        r.lookup("Which tag does conversation {key} have?", 0.45, "id", "tags.tags[0].name"),
        r.lookup("Which plan is the customer of conversation {key} on?", 0.9, "id", "custom_attributes.Plan"),
        about("state", r.count("How many conversations are {value}?", "state", None)),
        about("name", r.count("How many conversations are tagged {value}?", "tags.tags[].name", None)),
        Some(count("How many conversations missed their SLA?", &["missed"], missed, Some("sla_status"))),
        r.extreme(
            "Which conversation waited longest for the team's first reply?",
            "statistics.time_to_admin_reply",
            "id",
            true,
        ),
        r.extreme("Which conversation has the most parts?", "statistics.count_conversation_parts", "id", true),
    ]
}

/// Cloud Run services by name: a service's URL, image, memory and serving revision, how
/// many have an ingress, failed their latest deployment or keep instances warm, the one
/// deployed longest ago and the one through the most generations.
fn service_questions(services: &[Value]) -> Vec<Option<Question>> {
    let short = |path: &Value| path.as_str().and_then(|p| p.rsplit('/').next()).map(str::to_owned);
    let rows: Vec<Value> = services
        .iter()
        .map(|s| {
            let c = &s["template"]["containers"][0];
            json!({
                "service": short(&s["name"]),
                "uri": s["uri"],
                "image": c["image"],
                "memory": c["resources"]["limits"]["memory"],
                "serving": short(&s["latestReadyRevision"]),
                "state": s["terminalCondition"]["state"],
                "min": s["template"]["scaling"]["minInstanceCount"],
                "updated": s["updateTime"],
                "generation": s["generation"],
                "ingress": s["ingress"],
            })
        })
        .collect();
    let r = Records { list: &rows };
    let failed = only(&rows, |x| x["state"] == "CONDITION_FAILED");
    let warm = rows.iter().filter(|x| x["min"].as_u64().is_some_and(|n| n > 0)).count();
    vec![
        r.head("Which service is listed first?", "service"),
        r.tail("Which service is listed last?", "service"),
        r.lookup("What is the URL of {key}?", 0.6, "service", "uri"),
        r.lookup("Which image does {key} run?", 0.3, "service", "image"),
        r.lookup("How much memory may {key} use?", 0.9, "service", "memory"),
        Records { list: &failed }.lookup("Which revision of {key} is serving traffic?", 0.5, "service", "serving"),
        about("ingress", r.count("How many services have ingress {value}?", "ingress", None)),
        Some(count(
            "How many services failed their latest deployment?",
            &["CONDITION_FAILED", "failed"],
            failed.len(),
            Some("state"),
        )),
        Some(count(
            "How many services keep at least one instance running?",
            &["minInstanceCount"],
            warm,
            Some("minInstanceCount"),
        )),
        extreme(
            "Which service was deployed longest ago?",
            scored_by(&rows, |x| Some(x["updated"].as_str()?.to_owned()), "service"),
            false,
            Some("updateTime"),
        ),
        about(
            "generation",
            r.extreme("Which service has gone through the most generations?", "generation", "service", true),
        ),
    ]
}

/// Every question about a twelfth-part shape's text result; `None` for other shapes.
pub(crate) fn text_questions(name: &str, t: &str) -> Option<Vec<Question>> {
    let ls = lines(t);
    let qs = match name {
        "sar_net_dev" => sar_questions(&ls),
        "postfix_mailq" => mailq_questions(&ls),
        "ldapsearch_directory" => ldap_questions(&ls),
        "explain_analyze" => plan_questions(&ls),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}

#[path = "questions_twelfth_more.rs"]
mod more;

use more::{ldap_questions, mailq_questions, plan_questions, sar_questions};

#[cfg(test)]
#[path = "questions_twelfth_tests.rs"]
mod tests;
