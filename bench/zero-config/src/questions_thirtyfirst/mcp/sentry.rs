//! Questions about a Sentry issue's events, newest first, whose tags are `{key, value}`
//! pairs: the issue they belong to, the latest events (id and time, release, user,
//! transaction, environment) and the oldest ones (id and time, release, user,
//! transaction, environment, browser or host); an event's time, release, user, URL,
//! environment, browser or host by its id; and how many events there are, how many came
//! with the commonest releases or from staging, how many had no signed-in user and how
//! many users were hit, and which release, user, browser, host or transaction saw the
//! most events and which release the fewest.

use std::collections::BTreeMap;

use serde_json::Value;

use super::{ask_at, field, list};
use crate::question::Question;
use crate::questions_blind::{count, extreme, most_frequent};
use crate::record_questions::{ORDINALS, end, to_last};

/// The value of an event's tag `key`, if it has one.
pub(super) fn tag(e: &Value, key: &str) -> Option<String> {
    list(e, "tags").iter().find(|t| t["key"] == key).map(|t| field(t, "value"))
}

/// Where an event came from: the browser for a browser SDK, the host for a server.
fn source(e: &Value) -> Option<(&'static str, String)> {
    tag(e, "browser").map(|b| ("browser", b)).or_else(|| tag(e, "server_name").map(|s| ("server_name", s)))
}

pub(super) fn sentry_questions(v: &Value) -> Vec<Option<Question>> {
    let events = list(v, "");
    let id = |e: &Value| field(e, "eventID");
    let tagged = |e: &Value, key: &str| Some(vec![id(e), tag(e, key)?]);
    let timed = |e: &Value| Some(vec![id(e), field(e, "dateCreated")]);
    let mut qs = vec![
        end(events, 0, false, "Which issue are these events for?", |e| {
            Some(vec![field(e, "groupID"), field(e, "title")])
        }),
        end(events, 0, false, "What is the latest event, and when did it happen?", timed),
        end(events, 0, false, "Which release was the latest event on?", |e| tagged(e, "release")),
        end(events, 0, false, "Which user hit the latest event?", |e| tagged(e, "user")),
        end(events, 0, false, "Which transaction was the latest event in?", |e| tagged(e, "transaction")),
        end(events, 0, false, "Which environment was the latest event in?", |e| tagged(e, "environment")),
        end(events, 0, true, "What is the oldest event on this page, and when did it happen?", timed),
        end(events, 0, true, "Which release was the oldest event on?", |e| tagged(e, "release")),
        end(events, 0, true, "Which user hit the oldest event?", |e| tagged(e, "user")),
        end(events, 0, true, "Which transaction was the oldest event in?", |e| tagged(e, "transaction")),
        end(events, 0, true, "Which environment was the oldest event in?", |e| tagged(e, "environment")),
        end(events, 0, true, "Which browser or host did the oldest event come from?", |e| {
            Some(vec![id(e), source(e)?.1])
        }),
    ];
    for (k, ordinal) in ORDINALS.iter().enumerate().take(5).skip(1) {
        qs.push(end(
            events,
            k,
            false,
            &format!("What is the {ordinal} most recent event, and when did it happen?"),
            timed,
        ));
        qs.push(end(
            events,
            k,
            true,
            &format!("What is the {} event on this page, and when did it happen?", to_last(k)),
            timed,
        ));
    }
    // Lookups by event id.
    let all: Vec<&Value> = events.iter().collect();
    let by_id = |e: &&Value| Some(vec![id(e)]);
    for f in [0.2, 0.5, 0.85] {
        qs.push(ask_at(&all, f, by_id, |e| {
            Some((format!("When did event {} happen?", id(e)), vec![field(e, "dateCreated")]))
        }));
    }
    for f in [0.3, 0.7] {
        qs.push(ask_at(&all, f, by_id, |e| {
            Some((format!("Which release was event {} on?", id(e)), vec![tag(e, "release")?]))
        }));
    }
    for f in [0.4, 0.95] {
        qs.push(ask_at(&all, f, by_id, |e| Some((format!("Which user hit event {}?", id(e)), vec![tag(e, "user")?]))));
    }
    qs.push(ask_at(&all, 0.6, by_id, |e| {
        Some((
            format!("On which URL or transaction did event {} happen?", id(e)),
            vec![tag(e, "url").or_else(|| tag(e, "transaction"))?],
        ))
    }));
    qs.push(ask_at(&all, 0.15, by_id, |e| {
        let (what, value) = source(e)?;
        let what = if what == "browser" { "browser" } else { "host" };
        Some((format!("Which {what} did event {} come from?", id(e)), vec![value]))
    }));
    let staging: Vec<&Value> = events.iter().filter(|e| tag(e, "environment").as_deref() == Some("staging")).collect();
    qs.push(ask_at(&staging, 0.5, by_id, |e| {
        Some((format!("Which environment was event {} in?", id(e)), vec![tag(e, "environment")?]))
    }));
    // How many, and which stands out.
    qs.push(Some(count("How many events are on this page?", &["events"], events.len(), Some("eventID"))));
    let releases = most_frequent(
        events
            .iter()
            .filter_map(|e| e["tags"].as_array())
            .flat_map(|tags| tags.iter().filter(|t| t["key"] == "release").filter_map(|t| t["value"].as_str())),
    );
    let mut ranked = releases.clone();
    ranked.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    for (n, release) in ranked.iter().take(2) {
        qs.push(Some(count(
            &format!("How many of these events came from {release}?"),
            &[release],
            *n,
            Some("release"),
        )));
    }
    qs.push(Some(count("How many events came from staging?", &["staging"], staging.len(), Some("environment"))));
    // A service that always knows its caller has no anonymous events to count.
    let signed_out = events.iter().filter(|e| e["user"]["id"].as_str().is_none()).count();
    if signed_out > 0 {
        qs.push(Some(count(
            "How many events had no signed-in user?",
            &["no user", "anonymous"],
            signed_out,
            Some("user"),
        )));
    }
    let users =
        most_frequent(events.iter().filter_map(|e| tag(e, "user")).collect::<Vec<_>>().iter().map(String::as_str));
    qs.push(Some(count("How many different users hit this issue?", &["users"], users.len(), Some("user"))));
    qs.push(extreme("Which release has the most events?", releases.clone(), true, Some("release")));
    qs.push(extreme("Which release has the fewest events?", releases, false, Some("release")));
    qs.push(extreme("Which user hit this issue the most times?", users, true, Some("user")));
    let mut by_tag: BTreeMap<&str, Vec<(usize, String)>> = BTreeMap::new();
    for key in ["browser.name", "server_name", "transaction", "os.name"] {
        let values: Vec<String> = events.iter().filter_map(|e| tag(e, key)).collect();
        by_tag.insert(key, most_frequent(values.iter().map(String::as_str)));
    }
    for (key, what) in [
        ("browser.name", "browser"),
        ("server_name", "host"),
        ("transaction", "transaction"),
        ("os.name", "operating system"),
    ] {
        let counted = by_tag.remove(key).unwrap_or_default();
        if counted.len() > 1 {
            qs.push(extreme(&format!("Which {what} saw the most of these events?"), counted, true, Some(key)));
        }
    }
    qs
}
