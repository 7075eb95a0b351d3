//! Questions about a Prometheus `/api/v1/rules` listing: the first rule groups and rules
//! (name, file, interval, evaluation time, query) and the last ones; an alerting rule's
//! state, health, `for`, severity or expression, since when an alert has been active and
//! its value, a failing rule's error, a group's evaluation time or file; and how many
//! groups, rules, alerting, recording, firing, pending and failing rules there are, which
//! group and which rule evaluate slowest, which alert has the most instances and which has
//! been active longest.

use serde_json::Value;

use super::{field, list, lookup};
use crate::question::{Kind, Question};
use crate::questions_blind::{count, extreme, together};
use crate::record_questions::end;

/// An active alert of a rule.
pub(super) struct Alert {
    pub(super) active_at: String,
    pub(super) value: String,
    pub(super) state: String,
}

/// A rule with what the questions read of it.
pub(super) struct Rule {
    pub(super) name: String,
    pub(super) kind: String,
    pub(super) state: String,
    pub(super) health: String,
    pub(super) duration: String,
    pub(super) query: String,
    pub(super) severity: String,
    pub(super) eval_time: String,
    pub(super) last_eval: String,
    pub(super) last_error: String,
    pub(super) alerts: Vec<Alert>,
}

/// A rule group with what the questions read of it.
pub(super) struct Group {
    pub(super) name: String,
    pub(super) file: String,
    pub(super) interval: String,
    pub(super) eval_time: String,
    pub(super) last_eval: String,
    pub(super) rules: Vec<Rule>,
}

impl Group {
    fn seconds(&self) -> f64 {
        self.eval_time.parse().unwrap_or(0.0)
    }
}

/// The rule groups of the listing, in order.
pub(super) fn groups(v: &Value) -> Vec<Group> {
    list(v, "data.groups")
        .iter()
        .map(|g| Group {
            name: field(g, "name"),
            file: field(g, "file"),
            interval: field(g, "interval"),
            eval_time: field(g, "evaluationTime"),
            last_eval: field(g, "lastEvaluation"),
            rules: list(g, "rules")
                .iter()
                .map(|r| Rule {
                    name: field(r, "name"),
                    kind: field(r, "type"),
                    state: field(r, "state"),
                    health: field(r, "health"),
                    duration: field(r, "duration"),
                    query: field(r, "query"),
                    severity: r.get("labels").map(|l| field(l, "severity")).unwrap_or_default(),
                    eval_time: field(r, "evaluationTime"),
                    last_eval: field(r, "lastEvaluation"),
                    last_error: field(r, "lastError"),
                    alerts: list(r, "alerts")
                        .iter()
                        .map(|a| Alert {
                            active_at: field(a, "activeAt"),
                            value: field(a, "value"),
                            state: field(a, "state"),
                        })
                        .collect(),
                })
                .collect(),
        })
        .collect()
}

fn name_file(g: &Group) -> Option<Vec<String>> {
    Some(vec![g.name.clone(), g.file.clone()])
}

fn name_kind(r: &Rule) -> Option<Vec<String>> {
    Some(vec![r.name.clone(), r.kind.clone()])
}

pub(super) fn prometheus_questions(v: &Value) -> Vec<Option<Question>> {
    let all = groups(v);
    let rules: Vec<&Rule> = all.iter().flat_map(|g| &g.rules).collect();
    let first = all.first().map_or(&[][..], |g| g.rules.as_slice());
    let last = all.last().map_or(&[][..], |g| g.rules.as_slice());
    let status = field(v, "status");
    let mut qs = vec![
        (!status.is_empty())
            .then(|| together(Kind::Head, "What status did the rules API return?".into(), None, &[&status])),
        end(&all, 0, false, "Which rule group is listed first, and from which file is it loaded?", name_file),
        end(&all, 0, false, "How often is the first rule group evaluated (its interval)?", |g| {
            Some(vec![g.name.clone(), g.interval.clone()])
        }),
        end(&all, 0, false, "How long did the first rule group's last evaluation take?", |g| {
            Some(vec![g.name.clone(), g.eval_time.clone()])
        }),
        end(&all, 0, false, "When was the first rule group last evaluated?", |g| Some(vec![g.last_eval.clone()])),
        end(&all, 1, false, "Which rule group is listed second?", |g| Some(vec![g.name.clone()])),
        end(first, 0, false, "What is the first rule of the first group, and is it alerting or recording?", name_kind),
        end(first, 0, false, "What query does the first rule of the first group evaluate?", |r| {
            Some(vec![r.name.clone(), r.query.clone()])
        }),
        end(first, 0, false, "How long did the first rule take to evaluate?", |r| {
            Some(vec![r.name.clone(), r.eval_time.clone()])
        }),
        end(first, 1, false, "Which rule comes second in the first group?", name_kind),
        end(first, 2, false, "Which rule comes third in the first group, and what is its query?", |r| {
            Some(vec![r.name.clone(), r.query.clone()])
        }),
        end(&all, 0, true, "Which rule group is listed last, and from which file is it loaded?", name_file),
        end(&all, 0, true, "How long did the last rule group's last evaluation take?", |g| {
            Some(vec![g.name.clone(), g.eval_time.clone()])
        }),
        end(&all, 0, true, "When was the last rule group last evaluated?", |g| Some(vec![g.last_eval.clone()])),
        end(&all, 0, true, "What interval is the last rule group evaluated at?", |g| {
            Some(vec![g.name.clone(), g.interval.clone()])
        }),
        end(last, 0, true, "Which rule is the last of the last group, and is it alerting or recording?", name_kind),
        end(last, 0, true, "What query does the last rule of the last group evaluate?", |r| {
            Some(vec![r.name.clone(), r.query.clone()])
        }),
        end(last, 0, true, "What is the health and evaluation time of the very last rule?", |r| {
            Some(vec![r.name.clone(), r.health.clone(), r.eval_time.clone()])
        }),
        end(last, 0, true, "When was the very last rule last evaluated?", |r| Some(vec![r.last_eval.clone()])),
        end(last, 1, true, "Which rule is second to last in the last group?", name_kind),
        end(last, 2, true, "Which rule is third to last in the last group?", |r| Some(vec![r.name.clone()])),
    ];
    // Lookups: alerting rule names are unique across the listing.
    let alerting: Vec<&Rule> = rules.iter().copied().filter(|r| r.kind == "alerting").collect();
    let name = |r: &&Rule| r.name.clone();
    for at in [0.05, 0.25, 0.45, 0.65, 0.85] {
        qs.push(lookup(
            &alerting,
            at,
            "What state is the alerting rule {key} in, and what is its health?",
            name,
            |r| Some(vec![r.state.clone(), r.health.clone()]),
        ));
    }
    for at in [0.15, 0.55] {
        qs.push(lookup(
            &alerting,
            at,
            "For how many seconds must {key} hold before it fires (its duration)?",
            name,
            |r| Some(vec![r.duration.clone()]),
        ));
    }
    for at in [0.35, 0.75] {
        qs.push(lookup(&alerting, at, "What severity label does the alert {key} carry?", name, |r| {
            Some(vec![r.severity.clone()])
        }));
    }
    qs.push(lookup(&alerting, 0.95, "What expression does the alert {key} evaluate?", name, |r| {
        Some(vec![r.query.clone()])
    }));
    let active: Vec<&Rule> = alerting.iter().copied().filter(|r| !r.alerts.is_empty()).collect();
    for at in [0.2, 0.6, 0.9] {
        qs.push(lookup(&active, at, "Since when has the alert {key} been active, and with what value?", name, |r| {
            let a = r.alerts.first()?;
            Some(vec![a.active_at.clone(), a.value.clone()])
        }));
    }
    let failing: Vec<&Rule> = rules.iter().copied().filter(|r| !r.last_error.is_empty()).collect();
    qs.push(lookup(&failing, 0.5, "Why did the rule {key} fail its last evaluation?", name, |r| {
        Some(vec![r.last_error.clone()])
    }));
    let group_name = |g: &Group| g.name.clone();
    for at in [0.3, 0.6, 0.85] {
        qs.push(lookup(&all, at, "How long did the rule group {key} take to evaluate?", group_name, |g| {
            Some(vec![g.eval_time.clone()])
        }));
    }
    qs.push(lookup(&all, 0.45, "Which file is the rule group {key} loaded from?", group_name, |g| {
        Some(vec![g.file.clone()])
    }));
    // How many, and which is the largest.
    let how_many = |keep: &dyn Fn(&Rule) -> bool| rules.iter().filter(|r| keep(r)).count();
    qs.push(Some(count("How many rule groups are there?", &["groups"], all.len(), Some("name"))));
    qs.push(Some(count("How many rules are there in all?", &["rules"], rules.len(), Some("type"))));
    qs.push(Some(count(
        "How many alerting rules are there?",
        &["alerting"],
        how_many(&|r| r.kind == "alerting"),
        Some("type"),
    )));
    qs.push(Some(count(
        "How many recording rules are there?",
        &["recording"],
        how_many(&|r| r.kind == "recording"),
        Some("type"),
    )));
    qs.push(Some(count(
        "How many alerting rules are firing?",
        &["firing"],
        how_many(&|r| r.state == "firing"),
        Some("state"),
    )));
    qs.push(Some(count(
        "How many alerting rules are pending?",
        &["pending"],
        how_many(&|r| r.state == "pending"),
        Some("state"),
    )));
    qs.push(Some(count(
        "How many alerting rules are inactive?",
        &["inactive"],
        how_many(&|r| r.state == "inactive"),
        Some("state"),
    )));
    qs.push(Some(count(
        "How many rules are unhealthy (health err)?",
        &["err"],
        how_many(&|r| r.health == "err"),
        Some("health"),
    )));
    let critical = how_many(&|r| r.kind == "alerting" && r.severity == "critical");
    qs.push(Some(count("How many alerting rules have severity critical?", &["critical"], critical, Some("severity"))));
    let instances = rules.iter().flat_map(|r| &r.alerts).filter(|a| a.state == "firing").count();
    qs.push(Some(count("How many alert instances are firing in all?", &["alerts"], instances, Some("alerts"))));
    let slowest_groups: Vec<(f64, String)> = all.iter().map(|g| (g.seconds(), g.name.clone())).collect();
    qs.push(extreme("Which rule group takes the longest to evaluate?", slowest_groups, true, Some("evaluationTime")));
    let run: Vec<(f64, String)> =
        all.iter().filter(|g| g.seconds() > 0.0).map(|g| (g.seconds(), g.name.clone())).collect();
    qs.push(extreme("Which evaluated rule group is the quickest to evaluate?", run, false, Some("evaluationTime")));
    let slowest_alerts: Vec<(f64, String)> =
        alerting.iter().map(|r| (r.eval_time.parse().unwrap_or(0.0), r.name.clone())).collect();
    qs.push(extreme(
        "Which alerting rule takes the longest to evaluate?",
        slowest_alerts,
        true,
        Some("evaluationTime"),
    ));
    let sizes: Vec<(usize, String)> = all.iter().map(|g| (g.rules.len(), g.name.clone())).collect();
    qs.push(extreme("Which rule group holds the most rules?", sizes, true, Some("rules")));
    let most_alerts: Vec<(usize, String)> = active.iter().map(|r| (r.alerts.len(), r.name.clone())).collect();
    qs.push(extreme("Which alerting rule has the most active alerts?", most_alerts, true, Some("alerts")));
    // Watchdog fires all the time by design: the question is about real alerts.
    let oldest: Vec<(String, String)> = active
        .iter()
        .filter(|r| r.name != "Watchdog")
        .filter_map(|r| Some((r.alerts.iter().map(|a| a.active_at.clone()).min()?, r.name.clone())))
        .collect();
    qs.push(extreme(
        "Apart from Watchdog, which alert has been active the longest (the smallest activeAt)?",
        oldest,
        false,
        Some("activeAt"),
    ));
    let longest_for: Vec<(i64, String)> =
        alerting.iter().map(|r| (r.duration.parse().unwrap_or(0), r.name.clone())).collect();
    qs.push(extreme("Which alerting rule has the longest for duration?", longest_for, true, Some("duration")));
    qs
}
