//! Questions about a ServiceNow incident query, newest first, whether it was asked with
//! display values (`{"display_value", "value"}` fields) or without: the newest and the
//! oldest incidents (number, short description, state, priority, assignee, caller, group,
//! when opened); an incident's short description, state and priority, assignee and group,
//! caller, resolution and reassignments by its number; and how many incidents are P1,
//! open, on hold, resolved or closed, reassigned more than twice, unassigned or past
//! their SLA, and which was reassigned most, took longest to resolve, was updated most
//! or has been open longest, and which agent holds the most incidents.

use serde_json::Value;

use super::list;
use crate::question::Question;
use crate::questions_blind::{count, extreme, most_frequent};
use crate::record_questions::{end, lookup_one as lookup};

/// A field as the user sees it: the display value when the query asked for one, else
/// the stored value (a reference's sys_id).
pub(super) fn shown(x: &Value, name: &str) -> String {
    match &x[name] {
        Value::String(s) => s.clone(),
        Value::Object(o) => {
            let display = o.get("display_value").and_then(Value::as_str).unwrap_or_default();
            let stored = o.get("value").and_then(Value::as_str).unwrap_or_default();
            if display.is_empty() { stored.to_owned() } else { display.to_owned() }
        }
        _ => String::new(),
    }
}

/// A field's stored value (`"1"` for priority 1 - Critical, a sys_id for a reference).
pub(super) fn stored(x: &Value, name: &str) -> String {
    match &x[name] {
        Value::String(s) => s.clone(),
        Value::Object(o) => o.get("value").and_then(Value::as_str).unwrap_or_default().to_owned(),
        _ => String::new(),
    }
}

/// Seconds since 1970 of a stored date-time (`2025-12-30 14:22:05`, UTC).
pub(super) fn seconds(t: &str) -> Option<i64> {
    super::github_commits::seconds(t)
}

pub(super) fn servicenow_questions(v: &Value) -> Vec<Option<Question>> {
    let incidents = list(v, "result");
    let number = |i: &Value| shown(i, "number");
    let with =
        |i: &Value, names: &[&str]| Some([vec![number(i)], names.iter().map(|n| shown(i, n)).collect()].concat());
    let described = |i: &Value| with(i, &["short_description"]);
    let state_priority = |i: &Value| with(i, &["state", "priority"]);
    let assignee = |i: &Value| with(i, &["assigned_to", "assignment_group"]);
    let mut qs = Vec::new();
    for from_end in [false, true] {
        let (newest, second, third, fourth) = if from_end {
            ("oldest", "second to last", "third to last", "fourth to last")
        } else {
            ("newest", "second", "third", "fourth")
        };
        qs.extend([
            end(
                incidents,
                0,
                from_end,
                &format!("What is the {newest} incident's number and short description?"),
                described,
            ),
            end(
                incidents,
                0,
                from_end,
                &format!("What state and priority is the {newest} incident in?"),
                state_priority,
            ),
            end(
                incidents,
                0,
                from_end,
                &format!("Who is the {newest} incident assigned to, and in which group?"),
                assignee,
            ),
            end(incidents, 0, from_end, &format!("Who raised the {newest} incident, and when was it opened?"), |i| {
                with(i, &["caller_id", "opened_at"])
            }),
            end(incidents, 0, from_end, &format!("What category is the {newest} incident filed under?"), |i| {
                with(i, &["category", "subcategory"])
            }),
            end(
                incidents,
                1,
                from_end,
                &format!("What is the {second} incident's number and short description?"),
                described,
            ),
            end(
                incidents,
                2,
                from_end,
                &format!("What is the {third} incident's number and short description?"),
                described,
            ),
            end(
                incidents,
                2,
                from_end,
                &format!("What state and priority is the {third} incident in?"),
                state_priority,
            ),
            end(
                incidents,
                3,
                from_end,
                &format!("What is the {fourth} incident's number and short description?"),
                described,
            ),
        ]);
    }
    for f in [0.2, 0.5, 0.9] {
        qs.push(lookup(incidents, f, "What is the short description of {key}?", number, |i| {
            Some(vec![shown(i, "short_description")])
        }));
    }
    for f in [0.35, 0.75] {
        qs.push(lookup(incidents, f, "What state and priority is {key} in?", number, |i| {
            Some(vec![shown(i, "state"), shown(i, "priority")])
        }));
    }
    // Without display values a reference is only a sys_id, and the question asks for it.
    let displayed = incidents.first().is_some_and(|i| i["number"].is_object());
    let (assigned_q, raised_q) = if displayed {
        ("Who is {key} assigned to, and in which group?", "Who raised {key}?")
    } else {
        (
            "What are the sys_ids of the user and the group {key} is assigned to?",
            "What is the sys_id of the caller of {key}?",
        )
    };
    qs.push(lookup(incidents, 0.6, assigned_q, number, |i| {
        Some(vec![shown(i, "assigned_to"), shown(i, "assignment_group")])
    }));
    qs.push(lookup(incidents, 0.45, raised_q, number, |i| Some(vec![shown(i, "caller_id")])));
    qs.push(lookup(incidents, 0.8, "How many times was {key} reassigned?", number, |i| {
        Some(vec![shown(i, "reassignment_count")])
    }));
    let resolved: Vec<&Value> = incidents.iter().filter(|i| !stored(i, "resolved_at").is_empty()).collect();
    qs.push(lookup(
        &resolved,
        0.5,
        "When was {key} resolved, and with which close code?",
        |i: &&Value| number(i),
        |i| Some(vec![shown(i, "resolved_at"), shown(i, "close_code")]),
    ));
    // How many, and which stands out.
    let reassigned = |i: &Value| stored(i, "reassignment_count").parse::<i64>().ok();
    let tally = |keep: &dyn Fn(&Value) -> bool| incidents.iter().filter(|i| keep(i)).count();
    let counted: [(&str, &[&str], usize, &str); 8] = [
        (
            "How many P1 (critical) incidents are there?",
            &["P1", "Critical"],
            tally(&|i| stored(i, "priority") == "1"),
            "priority",
        ),
        (
            "How many incidents are still open?",
            &["open", "active"],
            tally(&|i| stored(i, "active") == "true"),
            "active",
        ),
        ("How many incidents are on hold?", &["On Hold", "on hold"], tally(&|i| stored(i, "state") == "3"), "state"),
        (
            "How many incidents are resolved but not yet closed?",
            &["Resolved"],
            tally(&|i| stored(i, "state") == "6"),
            "state",
        ),
        ("How many incidents are closed?", &["Closed"], tally(&|i| stored(i, "state") == "7"), "state"),
        (
            "How many incidents were reassigned more than twice?",
            &["reassigned"],
            tally(&|i| reassigned(i) > Some(2)),
            "reassignment_count",
        ),
        (
            "How many incidents have nobody assigned?",
            &["unassigned"],
            tally(&|i| stored(i, "assigned_to").is_empty()),
            "assigned_to",
        ),
        (
            "How many incidents missed their SLA?",
            &["missed", "breached"],
            tally(&|i| stored(i, "made_sla") == "false"),
            "made_sla",
        ),
    ];
    for (q, labels, n, f) in counted {
        qs.push(Some(count(q, labels, n, Some(f))));
    }
    let scored = |score: &dyn Fn(&Value) -> Option<i64>, among: &[&Value]| -> Vec<(i64, String)> {
        among.iter().filter_map(|i| Some((score(i)?, number(i)))).collect()
    };
    let all: Vec<&Value> = incidents.iter().collect();
    qs.push(extreme(
        "Which incident was reassigned the most?",
        scored(&reassigned, &all),
        true,
        Some("reassignment_count"),
    ));
    let took = |i: &Value| Some(seconds(&stored(i, "resolved_at"))? - seconds(&stored(i, "opened_at"))?);
    qs.push(extreme("Which incident took longest to resolve?", scored(&took, &resolved), true, Some("resolved_at")));
    qs.push(extreme("Which incident was resolved fastest?", scored(&took, &resolved), false, Some("resolved_at")));
    let updates = |i: &Value| stored(i, "sys_mod_count").parse::<i64>().ok();
    qs.push(extreme(
        "Which incident has been updated the most times?",
        scored(&updates, &all),
        true,
        Some("sys_mod_count"),
    ));
    let open: Vec<&Value> = incidents.iter().filter(|i| stored(i, "active") == "true").collect();
    let opened = |i: &Value| seconds(&stored(i, "opened_at"));
    qs.push(extreme(
        "Which open incident has been open the longest?",
        scored(&opened, &open),
        false,
        Some("opened_at"),
    ));
    let holders: Vec<String> = open.iter().map(|i| shown(i, "assigned_to")).filter(|a| !a.is_empty()).collect();
    let busiest = most_frequent(holders.iter().map(String::as_str));
    qs.push(extreme("Who holds the most open incidents?", busiest, true, Some("assigned_to")));
    qs
}
