//! Questions about a Todoist account's active tasks: the first and the last task; when a
//! task is due, its priority and labels, what a task id is and which task a subtask
//! belongs to; how many tasks are due today, are overdue, are urgent, recur, carry a
//! label or are assigned to someone, and how many subtasks a task has; the task with most
//! comments, the latest created and the longest planned, the project and the person with
//! most tasks, and the label used most.

use serde_json::Value;

use crate::question::{Kind, Question, Records, text};
use crate::questions_blind::{about, at, count, extreme, most_frequent, only, s, scored_by, together};

/// The day the tasks are read on: the fixtures' "now", 2026-01-01.
pub(super) const TODAY: &str = "2026-01-01";

/// A task's due date (`2026-01-05`), if it has one.
fn due_date(x: &Value) -> Option<&str> {
    x["due"]["date"].as_str()
}

/// A task's planned duration in minutes (a day counts 24 hours).
pub(super) fn minutes(x: &Value) -> Option<u64> {
    let amount = x["duration"]["amount"].as_u64()?;
    match x["duration"]["unit"].as_str()? {
        "day" => Some(amount * 24 * 60),
        _ => Some(amount),
    }
}

/// A lookup of the task `f` of the way down `list`, named by its content and answered by
/// it and every string `answer` gives.
fn about_task(list: &[Value], f: f64, q: &str, answer: impl Fn(&Value) -> Option<Vec<String>>) -> Option<Question> {
    let x = list.get(at(list.len(), f))?;
    let name = s(x, "content")?;
    let mut must = vec![name.clone()];
    must.extend(answer(x)?);
    let must: Vec<&str> = must.iter().map(String::as_str).collect();
    Some(together(Kind::Lookup, q.replace("{key}", &name), Some(&name), &must))
}

pub(super) fn task_questions(tasks: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: tasks };
    // Tasks named by a content no other task has, and that JSON writes as it is (no quotes).
    let named = only(tasks, |x| {
        let c = x["content"].as_str().unwrap_or("\"");
        !c.contains(['"', '\\']) && tasks.iter().filter(|y| y["content"] == c).count() == 1
    });
    let dated = only(&named, |x| due_date(x).is_some());
    let labelled = only(&named, |x| x["labels"].as_array().is_some_and(|l| !l.is_empty()));
    let subtasks = only(&named, |x| x["parent_id"].is_string());
    let ends = |x: Option<&Value>, kind: Kind, q: &str| Some(together(kind, q.into(), None, &[&s(x?, "content")?]));
    let due_on = |day: &str| tasks.iter().filter(|x| due_date(x) == Some(day)).count();
    let overdue = tasks.iter().filter(|x| due_date(x).is_some_and(|d| d < TODAY)).count();
    let recurring = tasks.iter().filter(|x| x["due"]["is_recurring"] == true).count();
    let urgent = tasks.iter().filter(|x| x["priority"] == 4).count();
    // Subtasks per parent, and the parent `at` 0.5 of those that have any.
    let parents = most_frequent(tasks.iter().filter_map(|x| x["parent_id"].as_str()));
    let subtask_count = parents.get(at(parents.len(), 0.5)).and_then(|(n, id)| {
        let parent = tasks.iter().find(|x| x["id"] == id.as_str())?;
        let content = s(parent, "content")?;
        Some(count(
            &format!("How many subtasks does \"{content}\" (task {id}) have?"),
            &["subtasks", "parent_id"],
            *n,
            Some("parent_id"),
        ))
    });
    let labels = || tasks.iter().filter_map(|x| x["labels"].as_array()).flatten().filter_map(Value::as_str);
    vec![
        ends(tasks.first(), Kind::Head, "What is the first task in the list?"),
        ends(tasks.last(), Kind::Tail, "What is the last task in the list?"),
        about_task(&dated, 0.3, "When is \"{key}\" due?", |x| Some(vec![due_date(x)?.to_owned()])),
        about_task(&named, 0.6, "What priority does \"{key}\" have?", |x| Some(vec![text(&x["priority"])])),
        about_task(&labelled, 0.9, "Which labels does \"{key}\" have?", |x| {
            Some(x["labels"].as_array()?.iter().filter_map(Value::as_str).map(str::to_owned).collect())
        }),
        about_task(&subtasks, 0.5, "Which task (its id) is \"{key}\" a subtask of?", |x| {
            Some(vec![s(x, "parent_id")?])
        }),
        r.lookup("What is task {key}?", 0.75, "id", "content"),
        Some(count(&format!("How many tasks are due today ({TODAY})?"), &[TODAY, "today"], due_on(TODAY), Some("due"))),
        Some(count(&format!("How many tasks are overdue (due before {TODAY})?"), &["overdue"], overdue, Some("due"))),
        Some(count("How many tasks have priority 4 (urgent)?", &["priority 4", "urgent"], urgent, Some("priority"))),
        Some(count("How many tasks are recurring?", &["recurring", "is_recurring"], recurring, Some("is_recurring"))),
        about("labels", r.count("How many tasks carry the label {value}?", "labels[]", None)),
        about("assignee_id", r.count("How many tasks are assigned to user {value}?", "assignee_id", None)),
        subtask_count,
        extreme(
            "Which task has the most comments?",
            scored_by(tasks, |x| x["comment_count"].as_u64(), "content"),
            true,
            Some("comment_count"),
        ),
        extreme(
            "Which task was created most recently?",
            scored_by(tasks, |x| s(x, "created_at"), "content"),
            true,
            Some("created_at"),
        ),
        extreme(
            "Which task has the longest planned duration?",
            scored_by(tasks, minutes, "content"),
            true,
            Some("duration"),
        ),
        extreme(
            "Which project (its id) has the most tasks?",
            most_frequent(tasks.iter().filter_map(|x| x["project_id"].as_str())),
            true,
            Some("project_id"),
        ),
        extreme(
            "Who (which user id) is assigned the most tasks?",
            most_frequent(tasks.iter().filter_map(|x| x["assignee_id"].as_str())),
            true,
            Some("assignee_id"),
        ),
        extreme("Which label is used most often?", most_frequent(labels()), true, Some("labels")),
    ]
}
