//! Questions about a GitHub Projects (v2) board's items from a GraphQL query: the board's
//! item total, its next-page cursor and the first items (title, status, number,
//! estimate, assignee) and the last ones; an item's status, sprint, target date,
//! assignee, labels or estimate by its title or by its number and repository; and how
//! many items are in each status, are pull requests or drafts, carry a label or are in a
//! sprint, which item has the largest estimate or the latest target date, and who,
//! which status and which repository hold the most items.

use std::collections::BTreeMap;

use serde_json::Value;

use super::{end, list};
use crate::question::{Kind, Question, text, value};
use crate::questions_blind::{count, extreme, most_frequent, together};
use crate::record_questions::lookup_by;

/// An item with what the questions read of it.
#[derive(Default)]
pub(super) struct Item {
    pub(super) id: String,
    pub(super) kind: String,
    pub(super) title: String,
    pub(super) number: String,
    pub(super) repo: String,
    pub(super) assignees: Vec<String>,
    pub(super) labels: Vec<String>,
    /// Field values by field name (`Status`, `Estimate`, `Sprint`, `Target date`).
    pub(super) fields: BTreeMap<String, String>,
}

impl Item {
    fn field(&self, name: &str) -> Option<String> {
        self.fields.get(name).cloned()
    }
}

/// The items of the page, with their field values by field name.
pub(super) fn items(v: &Value) -> Vec<Item> {
    list(v, "data.organization.projectV2.items.nodes")
        .iter()
        .map(|n| {
            let c = &n["content"];
            let names = |path: &str, field: &str| list(c, path).iter().map(|x| text(&x[field])).collect();
            let fields = list(n, "fieldValues.nodes")
                .iter()
                .filter_map(|f| {
                    let name = f["field"]["name"].as_str()?;
                    let value = ["name", "text", "title", "number", "date"].iter().find_map(|k| f.get(*k))?;
                    Some((name.to_owned(), text(value)))
                })
                .collect();
            Item {
                id: text(&n["id"]),
                kind: text(&n["type"]),
                title: c["title"].as_str().unwrap_or_default().to_owned(),
                number: c.get("number").map(text).unwrap_or_default(),
                repo: c["repository"]["nameWithOwner"].as_str().unwrap_or_default().to_owned(),
                assignees: names("assignees.nodes", "login"),
                labels: names("labels.nodes", "name"),
                fields,
            }
        })
        .collect()
}

fn title(x: &Item) -> Option<Vec<String>> {
    Some(vec![x.title.clone()])
}

fn numbered(x: &Item) -> Option<Vec<String>> {
    (!x.number.is_empty()).then(|| vec![x.number.clone(), x.repo.clone()])
}

fn status(x: &Item) -> Option<Vec<String>> {
    Some(vec![x.title.clone(), x.field("Status")?])
}

pub(super) fn project_questions(v: &Value) -> Vec<Option<Question>> {
    let all = items(v);
    let head = |q: &str, path: &str| {
        let t = value(v, path).map(text)?;
        Some(together(Kind::Head, q.to_owned(), None, &[&t]))
    };
    let items_path = "data.organization.projectV2.items";
    let mut qs = vec![
        head("How many items does the project have in all?", &format!("{items_path}.totalCount")),
        head("What cursor fetches the next page of items?", &format!("{items_path}.pageInfo.endCursor")),
        head("What is the project called?", "data.organization.projectV2.title"),
        end(&all, 0, false, "What is the first item, and what is its status?", status),
        end(&all, 0, false, "What is the node id of the first item?", |x| Some(vec![x.id.clone()])),
        end(&all, 0, false, "Which repository and number is the first item?", numbered),
        end(&all, 0, false, "Who is assigned to the first item?", |x| {
            Some(x.assignees.clone()).filter(|a| !a.is_empty())
        }),
        end(&all, 0, false, "What is the first item's estimate?", |x| Some(vec![x.field("Estimate")?])),
        end(&all, 1, false, "What is the second item, and what is its status?", status),
        end(&all, 1, false, "What type is the second item (issue, pull request, draft)?", |x| {
            Some(vec![x.title.clone(), x.kind.clone()])
        }),
        end(&all, 2, false, "What is the third item's title?", title),
        end(&all, 3, false, "What is the fourth item's title?", title),
        end(&all, 0, true, "What is the last item on the page, and what is its status?", status),
        end(&all, 0, true, "What is the node id of the last item?", |x| Some(vec![x.id.clone()])),
        end(&all, 0, true, "Which repository and number is the last item?", numbered),
        end(&all, 0, true, "Who is assigned to the last item?", |x| {
            Some(x.assignees.clone()).filter(|a| !a.is_empty())
        }),
        end(&all, 0, true, "Which sprint is the last item in?", |x| Some(vec![x.field("Sprint")?])),
        end(&all, 1, true, "What is the second to last item, and what is its status?", status),
        end(&all, 1, true, "Which repository and number is the second to last item?", numbered),
        end(&all, 2, true, "What is the third to last item's title?", title),
        end(&all, 3, true, "What is the fourth to last item's title?", title),
        end(&all, 4, true, "What is the fifth to last item's title?", title),
        end(&all, 0, true, "What type is the last item (issue, pull request, draft)?", |x| {
            Some(vec![x.title.clone(), x.kind.clone()])
        }),
        end(&all, 0, true, "Which labels does the last item have?", |x| {
            Some(x.labels.clone()).filter(|l| !l.is_empty())
        }),
        end(&all, 1, true, "Who is assigned to the second to last item?", |x| {
            Some(x.assignees.clone()).filter(|a| !a.is_empty())
        }),
        end(&all, 2, true, "What is the status of the third to last item?", status),
    ];
    for at in [0.25, 0.55, 0.85] {
        qs.push(lookup_by(&all, at, "What is the status of \"{key}\"?", title, |x| Some(vec![x.field("Status")?])));
    }
    for at in [0.4, 0.95] {
        qs.push(lookup_by(&all, at, "Who is assigned to \"{key}\"?", title, |x| {
            Some(x.assignees.clone()).filter(|a| !a.is_empty())
        }));
    }
    qs.push(lookup_by(&all, 0.7, "Which sprint is \"{key}\" in?", title, |x| Some(vec![x.field("Sprint")?])));
    qs.push(lookup_by(&all, 0.5, "What is the target date of \"{key}\"?", title, |x| {
        Some(vec![x.field("Target date")?])
    }));
    for at in [0.35, 0.65, 0.9] {
        qs.push(lookup_by(&all, at, "What is the estimate of #{key0} in {key1}?", numbered, |x| {
            Some(vec![x.field("Estimate")?])
        }));
    }
    qs.push(lookup_by(&all, 0.8, "Which labels does #{key0} in {key1} have?", numbered, |x| {
        Some(x.labels.clone()).filter(|l| !l.is_empty())
    }));
    // How many, and which holds the most.
    let n = |keep: &dyn Fn(&Item) -> bool| all.iter().filter(|x| keep(x)).count();
    for s in ["Backlog", "Todo", "In Progress", "In Review", "Blocked", "Done"] {
        let c = n(&|x| x.field("Status").as_deref() == Some(s));
        qs.push(Some(count(&format!("How many items have Status {s}?"), &[s], c, Some("Status"))));
    }
    qs.push(Some(count(
        "How many items are pull requests?",
        &["PULL_REQUEST", "pull requests"],
        n(&|x| x.kind == "PULL_REQUEST"),
        Some("type"),
    )));
    qs.push(Some(count(
        "How many items are draft issues?",
        &["DRAFT_ISSUE", "drafts"],
        n(&|x| x.kind == "DRAFT_ISSUE"),
        Some("type"),
    )));
    qs.push(Some(count(
        "How many items are labelled bug?",
        &["bug"],
        n(&|x| x.labels.iter().any(|l| l == "bug")),
        Some("labels"),
    )));
    let sprints = most_frequent(all.iter().filter_map(|x| x.fields.get("Sprint")).map(String::as_str));
    if let Some((c, sprint)) = sprints.iter().max() {
        qs.push(Some(count(&format!("How many items are in {sprint}?"), &[sprint], *c, Some("Sprint"))));
    }
    let estimate = |x: &Item| x.field("Estimate")?.parse::<f64>().ok();
    let points: Vec<(f64, String)> = all.iter().filter_map(|x| Some((estimate(x)?, x.title.clone()))).collect();
    qs.push(extreme("Which item has the largest estimate?", points, true, Some("Estimate")));
    let dates: Vec<(String, String)> =
        all.iter().filter_map(|x| Some((x.field("Target date")?, x.title.clone()))).collect();
    qs.push(extreme("Which item has the latest target date?", dates.clone(), true, Some("Target date")));
    qs.push(extreme("Which item has the earliest target date?", dates, false, Some("Target date")));
    let people = most_frequent(all.iter().flat_map(|x| &x.assignees).map(String::as_str));
    qs.push(extreme("Who is assigned the most items?", people, true, Some("assignees")));
    let mut load: BTreeMap<&str, f64> = BTreeMap::new();
    for x in &all {
        for a in &x.assignees {
            *load.entry(a).or_default() += estimate(x).unwrap_or(0.0);
        }
    }
    let load = load.into_iter().map(|(a, p)| (p, a.to_owned())).collect();
    qs.push(extreme("Who carries the most estimate points?", load, true, Some("Estimate")));
    let statuses = most_frequent(all.iter().filter_map(|x| x.fields.get("Status")).map(String::as_str));
    qs.push(extreme("Which status has the most items?", statuses, true, Some("Status")));
    let repos = most_frequent(all.iter().map(|x| x.repo.as_str()).filter(|r| !r.is_empty()));
    qs.push(extreme("Which repository has the most items on the board?", repos, true, Some("nameWithOwner")));
    qs
}
