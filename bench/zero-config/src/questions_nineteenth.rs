//! The questions asked of the nineteenth part of the catalog: what a user of each service
//! or command asks of a result like it (why a stack update failed, how large an index is,
//! whether an application is healthy, who a task is assigned to, which process holds the
//! most memory, how full a volume is, why a pod keeps restarting, which test is slowest),
//! with records named from the middle and the end of the result as well as the head. The
//! answers are computed from the generated data, never written by hand.
//!
//! `_cat/indices` names its fields with dots (`docs.count`), which a dotted path cannot
//! reach, so its rows are first read into records with plain keys; a count or an extreme
//! still names the field as the result spells it. Text results (a top listing, a df
//! table, a kubectl events table, a pytest durations report) are first read into records
//! of their rows by the readers in `questions_nineteenth_text.rs`.

use serde_json::{Map, Value, json};

use crate::question::{Kind, Question, Records, value};
use crate::questions_blind::{about, count, extreme, lines, most_frequent, only, s, scored_by, together};

#[path = "questions_nineteenth_text.rs"]
mod readers;

#[path = "questions_nineteenth_more.rs"]
mod more;

use more::{df_questions, events_questions, pytest_questions, top_questions};

/// Every question about a nineteenth-part shape's JSON result; `None` for other shapes.
pub(crate) fn json_questions(name: &str, v: &Value) -> Option<Vec<Question>> {
    let list = |path: &str| value(v, path).and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    let qs = match name {
        "cloudformation_stack_events" => stack_event_questions(list("StackEvents")),
        "elasticsearch_cat_indices" => index_questions(&indices(list(""))),
        "argocd_applications" => application_questions(list("items")),
        "clickup_tasks" => task_questions(list("tasks")),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}

/// A string field as a score, for the latest or earliest of ISO times.
fn stamp(path: &'static str) -> impl Fn(&Value) -> Option<String> {
    move |x| Some(value(x, path)?.as_str()?.to_owned())
}

/// The resources of a stack, one record each from its newest event: logical id, type
/// and physical id.
fn resources(events: &[Value]) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    for e in events.iter().filter(|e| e["ResourceType"] != "AWS::CloudFormation::Stack") {
        if !out.iter().any(|x| x["LogicalResourceId"] == e["LogicalResourceId"]) {
            out.push(e.clone());
        }
    }
    out
}

/// CloudFormation stack events, newest first: the newest event and when the oldest
/// happened; a resource's type and physical id; a stack event's status and time; why a
/// resource failed; how many events have a status or are of a type, how many updates
/// were rolled back or started by a user; the resource and the type with most events.
fn stack_event_questions(es: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: es };
    let res = resources(es);
    let by_resource = Records { list: &res };
    let stack = only(es, |x| x["ResourceType"] == "AWS::CloudFormation::Stack");
    let by_stack = Records { list: &stack };
    let failed = only(es, |x| x["ResourceStatus"].as_str().is_some_and(|s| s.ends_with("_FAILED")));
    let rolled = es.iter().filter(|x| x["ResourceStatus"] == "UPDATE_ROLLBACK_COMPLETE").count();
    let users = es.iter().filter(|x| x["ResourceStatusReason"] == "User Initiated").count();
    let first = es.first().and_then(|x| {
        let (l, st) = (s(x, "LogicalResourceId")?, s(x, "ResourceStatus")?);
        Some(together(
            Kind::Head,
            "Which resource does the most recent event concern, and what is its status?".into(),
            None,
            &[&l, &st],
        ))
    });
    vec![
        first,
        r.tail("When did the oldest event on this list happen?", "Timestamp"),
        by_resource.lookup("What type of resource is {key}?", 0.3, "LogicalResourceId", "ResourceType"),
        by_resource.lookup("What is the physical ID of {key}?", 0.6, "LogicalResourceId", "PhysicalResourceId"),
        by_resource.lookup("What is the physical ID of {key}?", 0.9, "LogicalResourceId", "PhysicalResourceId"),
        by_stack.lookup("What status does the stack event {key} record?", 0.45, "EventId", "ResourceStatus"),
        by_stack.lookup("When did the stack event {key} happen?", 0.75, "EventId", "Timestamp"),
        Records { list: &failed }.lookup(
            "Why did the update of {key} fail?",
            0.0,
            "LogicalResourceId",
            "ResourceStatusReason",
        ),
        about("ResourceStatus", r.count("How many events have the status {value}?", "ResourceStatus", None)),
        about("ResourceType", r.count("How many events are for resources of type {value}?", "ResourceType", None)),
        Some(count(
            "How many updates were rolled back?",
            &["UPDATE_ROLLBACK_COMPLETE", "rolled back"],
            rolled,
            Some("ResourceStatus"),
        )),
        Some(count(
            "How many updates were initiated by a user?",
            &["User Initiated"],
            users,
            Some("ResourceStatusReason"),
        )),
        extreme(
            "Which resource (other than the stack itself) has the most events?",
            most_frequent(
                es.iter()
                    .filter(|x| x["ResourceType"] != "AWS::CloudFormation::Stack")
                    .filter_map(|x| x["LogicalResourceId"].as_str()),
            ),
            true,
            Some("LogicalResourceId"),
        ),
        extreme(
            "Which resource type has the most events?",
            most_frequent(es.iter().filter_map(|x| x["ResourceType"].as_str())),
            true,
            Some("ResourceType"),
        ),
    ]
}

/// Bytes of a `_cat` size (`1.2gb`, `612.3mb`, `86kb`, `225b`).
pub(crate) fn cat_bytes(v: &Value) -> Option<f64> {
    let t = v.as_str()?;
    let (num, unit) = t.split_at(t.find(|c: char| c.is_ascii_alphabetic())?);
    let scale = match unit {
        "b" => 1.0,
        "kb" => 1024.0,
        "mb" => 1024f64.powi(2),
        "gb" => 1024f64.powi(3),
        "tb" => 1024f64.powi(4),
        _ => return None,
    };
    Some(num.parse::<f64>().ok()? * scale)
}

/// `_cat/indices` rows as records whose keys hold no dots, with the store size in bytes.
pub(crate) fn indices(list: &[Value]) -> Vec<Value> {
    list.iter()
        .map(|x| {
            let mut m = Map::new();
            for (k, v) in x.as_object().into_iter().flatten() {
                m.insert(k.replace('.', "_"), v.clone());
            }
            m.insert("store_bytes".into(), cat_bytes(&x["store.size"]).map_or(Value::Null, |b| json!(b)));
            Value::Object(m)
        })
        .collect()
}

/// Elasticsearch indices, by name: the first and the last; an index's documents, size,
/// health, uuid and replicas; how many are of a health, closed or have a number of
/// replicas; the index with most documents, the largest, the one with most deleted
/// documents and the smallest open one.
fn index_questions(is: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: is };
    let closed = is.iter().filter(|x| x["status"] == "close").count();
    vec![
        r.head("Which index is listed first?", "index"),
        r.tail("Which index is listed last?", "index"),
        r.lookup("How many documents does {key} hold?", 0.3, "index", "docs_count"),
        r.lookup("How many documents does {key} hold?", 0.6, "index", "docs_count"),
        r.lookup("What is the total store size of {key}?", 0.9, "index", "store_size"),
        r.lookup("What is the health of {key}?", 0.75, "index", "health"),
        r.lookup("What is the uuid of {key}?", 0.45, "index", "uuid"),
        r.lookup("How many primary shards does {key} have?", 0.5, "index", "pri"),
        about("health", r.count("How many indices are {value}?", "health", None)),
        about("rep", r.count("How many indices have {value} replicas?", "rep", None)),
        Some(count("How many indices are closed?", &["close", "closed"], closed, Some("status"))),
        about("docs.count", r.extreme("Which index holds the most documents?", "docs_count", "index", true)),
        about("store.size", r.extreme("Which index takes the most space?", "store_bytes", "index", true)),
        about("docs.deleted", r.extreme("Which index has the most deleted documents?", "docs_deleted", "index", true)),
        about("docs.count", r.extreme("Which open index holds the fewest documents?", "docs_count", "index", false)),
    ]
}

/// Argo CD applications, by name: the first and the last; an application's sync status,
/// health, target revision, project, destination namespace and synced revision; how
/// many are of a health, a sync status or a project, and how many last syncs failed; the
/// application with most resources, the one reconciled last and the oldest.
fn application_questions(apps: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: apps };
    let failed = apps.iter().filter(|x| x["status"]["operationState"]["phase"] == "Failed").count();
    let resources = |x: &Value| x["status"]["resources"].as_array().map(Vec::len);
    let name = "metadata.name";
    vec![
        r.head("Which application is listed first?", name),
        r.tail("Which application is listed last?", name),
        r.lookup("What is the sync status of {key}?", 0.3, name, "status.sync.status"),
        r.lookup("What is the health of {key}?", 0.6, name, "status.health.status"),
        r.lookup("What revision does {key} target?", 0.9, name, "spec.source.targetRevision"),
        r.lookup("Which project is {key} in?", 0.45, name, "spec.project"),
        r.lookup("Which revision is {key} synced to?", 0.75, name, "status.sync.revision"),
        about("health", r.count("How many applications are {value}?", "status.health.status", None)),
        about("sync", r.count("How many applications have the sync status {value}?", "status.sync.status", None)),
        about("project", r.count("How many applications are in the project {value}?", "spec.project", None)),
        Some(count("How many applications' last sync failed?", &["Failed", "failed"], failed, Some("phase"))),
        extreme(
            "Which application manages the most resources?",
            scored_by(apps, resources, name),
            true,
            Some("resources"),
        ),
        extreme(
            "Which application was reconciled most recently?",
            scored_by(apps, stamp("status.reconciledAt"), name),
            true,
            Some("reconciledAt"),
        ),
        extreme(
            "Which application was created first?",
            scored_by(apps, stamp("metadata.creationTimestamp"), name),
            false,
            Some("creationTimestamp"),
        ),
    ]
}

/// ClickUp tasks, newest first: the first task's name and the last one's id; a task's
/// status, priority, assignee, id and due date; how many are in a status, of a priority,
/// carry a tag or are unassigned; the task with the largest estimate, the one with most
/// time tracked and the person assigned most.
fn task_questions(ts: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: ts };
    let unassigned = ts.iter().filter(|x| x["assignees"].as_array().is_some_and(Vec::is_empty)).count();
    vec![
        r.head("What is the name of the most recently created task?", "name"),
        r.tail("What is the id of the last task on this page?", "id"),
        r.lookup("What is the status of \"{key}\"?", 0.3, "name", "status.status"),
        r.lookup("What is the priority of \"{key}\"?", 0.6, "name", "priority.priority"),
        r.lookup("Who is \"{key}\" assigned to?", 0.9, "name", "assignees[0].username"),
        r.lookup("What is the id of \"{key}\"?", 0.45, "name", "id"),
        r.lookup("What is the custom id of \"{key}\"?", 0.75, "name", "custom_id"),
        about("status", r.count("How many tasks are in the status {value}?", "status.status", None)),
        about("priority", r.count("How many tasks have the priority {value}?", "priority.priority", None)),
        about("tags", r.count("How many tasks are tagged {value}?", "tags[].name", None)),
        Some(count("How many tasks are unassigned?", &["unassigned", "assignees"], unassigned, Some("assignees"))),
        about("time_estimate", r.extreme("Which task has the largest time estimate?", "time_estimate", "name", true)),
        about("time_spent", r.extreme("Which task has the most time tracked?", "time_spent", "name", true)),
        extreme(
            "Who is assigned the most tasks on this page?",
            most_frequent(
                ts.iter()
                    .flat_map(|x| x["assignees"].as_array().into_iter().flatten())
                    .filter_map(|a| a["username"].as_str()),
            ),
            true,
            Some("assignees"),
        ),
    ]
}

/// Every question about a nineteenth-part shape's text result; `None` for other shapes.
pub(crate) fn text_questions(name: &str, t: &str) -> Option<Vec<Question>> {
    let ls = lines(t);
    let qs = match name {
        "top_batch" => top_questions(&ls),
        "df_h_t" => df_questions(&ls),
        "kubectl_get_events" => events_questions(&ls),
        "pytest_durations" => pytest_questions(&ls),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}

#[cfg(test)]
#[path = "questions_nineteenth_tests.rs"]
mod tests;
