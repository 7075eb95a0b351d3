//! Questions about a CircleCI project's recent pipelines with their workflows and jobs:
//! the first and the last pipelines (number, branch, actor, commit, revision, workflow
//! status) and the next page token; a pipeline's branch and trigger actor, commit, its
//! workflows' statuses, the job that failed in one of its workflows and its longest job by
//! its number, a workflow's status by its id and a job's status and duration by its number;
//! and how many workflows succeeded, failed, were canceled or are on hold, how many
//! pipelines ran on main, were scheduled, came from the dependency bot or from the most
//! active person, how many jobs failed, and which job and workflow took longest and who
//! triggered the most pipelines.

use serde_json::Value;

use super::{field, list, lookup};
use crate::question::{Kind, Question};
use crate::questions_blind::{count, extreme, most_frequent, together};
use crate::record_questions::{end, lookup_by};

/// A workflow with the pipeline it belongs to.
pub(super) struct Workflow<'v> {
    pub(super) pipeline: &'v Value,
    pub(super) workflow: &'v Value,
}

/// Every workflow of every pipeline, in order.
pub(super) fn workflows(pipelines: &[Value]) -> Vec<Workflow<'_>> {
    pipelines
        .iter()
        .flat_map(|p| list(p, "workflows").iter().map(move |w| Workflow { pipeline: p, workflow: w }))
        .collect()
}

/// Every job of every workflow, in order.
pub(super) fn jobs(pipelines: &[Value]) -> Vec<&Value> {
    pipelines.iter().flat_map(|p| list(p, "workflows")).flat_map(|w| list(w, "jobs")).collect()
}

/// A time as CircleCI writes it (`2025-12-31T10:34:56.287Z`), in milliseconds since the
/// start of its year 0; only differences between two of them mean anything.
pub(super) fn millis(t: &str) -> Option<i64> {
    let (date, time) = t.trim_end_matches('Z').split_once('T')?;
    let mut d = date.split('-').map(str::parse::<i64>);
    let (y, m, day) = (d.next()?.ok()?, d.next()?.ok()?, d.next()?.ok()?);
    let (hms, ms) = time.split_once('.').unwrap_or((time, "0"));
    let mut h = hms.split(':').map(str::parse::<i64>);
    let (hh, mm, ss) = (h.next()?.ok()?, h.next()?.ok()?, h.next()?.ok()?);
    // Days by the civil calendar, from March so leap days fall at the end of a year.
    let (y, m) = if m <= 2 { (y - 1, m + 9) } else { (y, m - 3) };
    let days = y * 365 + y / 4 - y / 100 + y / 400 + (153 * m + 2) / 5 + day;
    Some(((days * 24 + hh) * 60 + mm) * 60_000 + ss * 1_000 + ms.parse::<i64>().ok()?)
}

pub(super) fn circleci_questions(v: &Value) -> Vec<Option<Question>> {
    let pipelines = list(v, "items");
    let number = |p: &Value| field(p, "number");
    let first_workflow = |p: &Value| {
        let w = list(p, "workflows").first()?;
        Some(vec![number(p), field(w, "name"), field(w, "status")])
    };
    let mut qs = vec![
        end(pipelines, 0, false, "What number and branch is the most recent pipeline?", |p| {
            Some(vec![number(p), field(p, "vcs.branch")])
        }),
        end(pipelines, 0, false, "Who triggered the most recent pipeline, and how?", |p| {
            Some(vec![number(p), field(p, "trigger.actor.login"), field(p, "trigger.type")])
        }),
        end(pipelines, 0, false, "What revision did the most recent pipeline build?", |p| {
            Some(vec![number(p), field(p, "vcs.revision")])
        }),
        end(pipelines, 0, false, "What is the status of the most recent pipeline's first workflow?", first_workflow),
        end(pipelines, 0, false, "When was the most recent pipeline created?", |p| {
            Some(vec![number(p), field(p, "created_at")])
        }),
        end(pipelines, 1, false, "What number and branch is the second pipeline listed?", |p| {
            Some(vec![number(p), field(p, "vcs.branch")])
        }),
        end(pipelines, 1, false, "Who triggered the second pipeline listed?", |p| {
            Some(vec![number(p), field(p, "trigger.actor.login")])
        }),
        end(pipelines, 2, false, "What is the number and id of the third pipeline listed?", |p| {
            Some(vec![number(p), field(p, "id")])
        }),
        end(pipelines, 3, false, "What revision did the fourth pipeline listed build?", |p| {
            Some(vec![number(p), field(p, "vcs.revision")])
        }),
        end(pipelines, 4, false, "What is the status of the fifth pipeline's first workflow?", first_workflow),
        end(pipelines, 0, true, "What number and branch is the oldest pipeline on the page?", |p| {
            Some(vec![number(p), field(p, "vcs.branch")])
        }),
        end(pipelines, 0, true, "Who triggered the oldest pipeline on the page?", |p| {
            Some(vec![number(p), field(p, "trigger.actor.login")])
        }),
        end(pipelines, 0, true, "What revision did the oldest pipeline on the page build?", |p| {
            Some(vec![number(p), field(p, "vcs.revision")])
        }),
        end(pipelines, 0, true, "When was the oldest pipeline on the page created?", |p| {
            Some(vec![number(p), field(p, "created_at")])
        }),
        end(pipelines, 0, true, "What is the status of the oldest pipeline's first workflow?", first_workflow),
        end(pipelines, 1, true, "What number and branch is the second oldest pipeline on the page?", |p| {
            Some(vec![number(p), field(p, "vcs.branch")])
        }),
        end(pipelines, 2, true, "Who triggered the third oldest pipeline on the page?", |p| {
            Some(vec![number(p), field(p, "trigger.actor.login")])
        }),
        end(pipelines, 3, true, "What is the id of the fourth oldest pipeline on the page?", |p| {
            Some(vec![number(p), field(p, "id")])
        }),
        end(pipelines, 4, true, "What revision did the fifth oldest pipeline on the page build?", |p| {
            Some(vec![number(p), field(p, "vcs.revision")])
        }),
    ];
    let token = field(v, "next_page_token");
    if !token.is_empty() {
        qs.push(Some(together(Kind::Tail, "What is the token of the next page?".to_owned(), None, &[&token])));
    }
    for at in [0.3, 0.75] {
        qs.push(lookup(pipelines, at, "Which branch was pipeline {key} on, and who triggered it?", number, |p| {
            Some(vec![field(p, "vcs.branch"), field(p, "trigger.actor.login")])
        }));
    }
    qs.push(lookup(pipelines, 0.55, "What commit did pipeline {key} build?", number, |p| {
        Some(vec![field(p, "vcs.revision"), field(p, "vcs.commit.subject")]).filter(|a| !a[1].is_empty())
    }));
    qs.push(lookup(pipelines, 0.9, "What are the statuses of the workflows of pipeline {key}?", number, |p| {
        let statuses: Vec<String> =
            list(p, "workflows").iter().flat_map(|w| [field(w, "name"), field(w, "status")]).collect();
        (!statuses.is_empty()).then_some(statuses)
    }));
    qs.push(lookup(pipelines, 0.4, "Which job of pipeline {key} took the longest?", number, |p| {
        let mut durations: Vec<(i64, String)> = list(p, "workflows")
            .iter()
            .flat_map(|w| list(w, "jobs"))
            .filter_map(|j| Some((j["duration"].as_i64()?, field(j, "name"))))
            .collect();
        durations.sort_by_key(|d| std::cmp::Reverse(d.0));
        match durations.as_slice() {
            [best, next, ..] if best.0 > next.0 => Some(vec![best.1.clone(), best.0.to_string()]),
            [only] => Some(vec![only.1.clone(), only.0.to_string()]),
            _ => None,
        }
    }));
    let all_workflows = workflows(pipelines);
    for at in [0.2, 0.65] {
        qs.push(lookup_by(
            &all_workflows,
            at,
            "Which job failed in pipeline {key0}'s {key1} workflow?",
            |w| Some(vec![number(w.pipeline), field(w.workflow, "name")]),
            |w| {
                let failed: Vec<String> = list(w.workflow, "jobs")
                    .iter()
                    .filter(|j| j["status"] == "failed")
                    .map(|j| field(j, "name"))
                    .collect();
                (!failed.is_empty()).then_some(failed)
            },
        ));
    }
    qs.push(lookup(
        &all_workflows,
        0.5,
        "What is the status of the workflow {key}, and what is its name?",
        |w| field(w.workflow, "id"),
        |w| Some(vec![field(w.workflow, "status"), field(w.workflow, "name")]),
    ));
    let all_jobs = jobs(pipelines);
    for at in [0.15, 0.6, 0.95] {
        qs.push(lookup(
            &all_jobs,
            at,
            "What did job {key} run, what is its status and how long did it take?",
            |j| field(j, "job_number"),
            |j| Some(vec![field(j, "name"), field(j, "status"), field(j, "duration")]),
        ));
    }
    // How many, and which is the largest.
    for (status, labels) in [
        ("success", &["success", "succeeded"][..]),
        ("failed", &["failed"][..]),
        ("canceled", &["canceled", "cancelled"][..]),
        ("on_hold", &["on_hold", "on hold"][..]),
    ] {
        let n = all_workflows.iter().filter(|w| w.workflow["status"] == status).count();
        qs.push(Some(count(&format!("How many workflows have the status {status}?"), labels, n, Some("status"))));
    }
    let pipelines_where = |keep: &dyn Fn(&Value) -> bool| pipelines.iter().filter(|p| keep(p)).count();
    let n = pipelines_where(&|p| p["vcs"]["branch"] == "main");
    qs.push(Some(count("How many pipelines ran on the main branch?", &["main"], n, Some("branch"))));
    let n = pipelines_where(&|p| p["trigger"]["type"] == "scheduled_pipeline");
    qs.push(Some(count(
        "How many pipelines were started by a schedule?",
        &["scheduled_pipeline", "scheduled"],
        n,
        Some("type"),
    )));
    let n = pipelines_where(&|p| field(p, "vcs.branch").starts_with("dependabot/"));
    qs.push(Some(count("How many pipelines were for Dependabot branches?", &["dependabot"], n, Some("branch"))));
    let n = all_jobs.iter().filter(|j| j["status"] == "failed").count();
    qs.push(Some(count("How many jobs failed across all the workflows?", &["failed"], n, Some("status"))));
    let actors = most_frequent(pipelines.iter().filter_map(|p| p["trigger"]["actor"]["login"].as_str()));
    qs.push(extreme("Who triggered the most pipelines?", actors.clone(), true, Some("login")));
    let mut people: Vec<(usize, String)> = actors.into_iter().filter(|(_, a)| !a.contains("bot")).collect();
    people.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    if let Some((n, login)) = people.get(1) {
        qs.push(Some(count(&format!("How many pipelines did {login} trigger?"), &[login], *n, Some("login"))));
    }
    let durations: Vec<(i64, String)> = all_jobs
        .iter()
        .filter_map(|j| Some((j["duration"].as_i64()?, field(j, "job_number"))))
        .filter(|j| !j.1.is_empty())
        .collect();
    qs.push(extreme("Which job took the longest?", durations, true, Some("duration")));
    let integration: Vec<(i64, String)> = all_jobs
        .iter()
        .filter(|j| j["name"] == "integration-tests" && j["status"] == "success")
        .filter_map(|j| Some((j["duration"].as_i64()?, field(j, "job_number"))))
        .collect();
    qs.push(extreme("Which successful integration-tests job was the fastest?", integration, false, Some("duration")));
    let spans: Vec<(i64, String)> = all_workflows
        .iter()
        .filter_map(|w| {
            let span = millis(w.workflow["stopped_at"].as_str()?)? - millis(w.workflow["created_at"].as_str()?)?;
            Some((span, field(w.workflow, "id")))
        })
        .collect();
    qs.push(extreme(
        "Which finished workflow took the longest from creation to stop?",
        spans,
        true,
        Some("stopped_at"),
    ));
    let failed_jobs: Vec<(usize, String)> = pipelines
        .iter()
        .map(|p| {
            let n =
                list(p, "workflows").iter().flat_map(|w| list(w, "jobs")).filter(|j| j["status"] == "failed").count();
            (n, number(p))
        })
        .collect();
    qs.push(extreme("Which pipeline had the most failed jobs?", failed_jobs, true, Some("status")));
    qs
}
