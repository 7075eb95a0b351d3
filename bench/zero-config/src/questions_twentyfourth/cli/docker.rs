//! The questions asked of `docker inspect` of every container: what a developer cleaning
//! up or debugging their machine asks (the image, address, exit code, health, restart
//! policy or project of a container; how many exited, are unhealthy, run, belong to a
//! project; which restarted most, which is oldest; the newest containers at the top and
//! the oldest at the bottom).

use serde_json::{Value, json};

use super::{about_record, from_end, lookup};
use crate::question::{Kind, Question, Records, text, value};
use crate::questions_blind::{about, count, extreme, only, scored_by};

/// A container with the fields asked about pulled up: `name` (without its `/`), `image`,
/// `status`, `exit_code`, `health`, `ip` (on its first network), `restarts`, `project`,
/// `restart_policy`, `created`, `started_at`, `id`, `oom_killed`.
fn flat(x: &Value) -> Value {
    let ip = x["NetworkSettings"]["Networks"]
        .as_object()
        .and_then(|nets| nets.values().next())
        .and_then(|n| n["IPAddress"].as_str())
        .unwrap_or_default()
        .to_owned();
    let s = |path: &str| value(x, path).map(text).unwrap_or_default();
    json!({
        "name": s("Name").trim_start_matches('/'),
        "image": s("Config.Image"),
        "status": s("State.Status"),
        "exit_code": s("State.ExitCode"),
        "health": value(x, "State.Health.Status").map(text),
        "ip": ip,
        "restarts": x["RestartCount"].as_u64(),
        "project": x["Config"]["Labels"]["com.docker.compose.project"].as_str(),
        "restart_policy": s("HostConfig.RestartPolicy.Name"),
        "created": s("Created"),
        "started_at": s("State.StartedAt"),
        "id": s("Id"),
        "oom_killed": x["State"]["OOMKilled"] == true,
    })
}

/// Every question about the inspected containers `v`.
pub(crate) fn docker_questions(v: &Value) -> Vec<Option<Question>> {
    let list: Vec<Value> = v.as_array().map(|a| a.iter().map(flat).collect()).unwrap_or_default();
    let mut qs = lookups(&list);
    qs.extend(aggregates(&list));
    qs.extend(heads_and_tails(&list));
    qs
}

/// One container's image, address, exit code, health, policy, project, times.
fn lookups(list: &[Value]) -> Vec<Option<Question>> {
    let running = only(list, |x| x["status"] == "running");
    let exited = only(list, |x| x["status"] == "exited");
    let checked = only(list, |x| x["health"].is_string());
    let composed = only(list, |x| x["project"].is_string());
    vec![
        lookup(list, 0.3, "Which image does the container {key} run?", "name", &["image"]),
        lookup(list, 0.65, "Which image is {key} created from, and what is its status?", "name", &["image", "status"]),
        lookup(&running, 0.5, "What IP address does {key} have?", "name", &["ip"]),
        lookup(&running, 0.85, "What IP address does {key} have?", "name", &["ip"]),
        lookup(&exited, 0.4, "With which exit code did {key} exit?", "name", &["exit_code"]),
        lookup(&exited, 0.9, "With which exit code did {key} exit?", "name", &["exit_code"]),
        lookup(&checked, 0.6, "What is the health status of {key}?", "name", &["health"]),
        lookup(list, 0.2, "What restart policy does {key} have?", "name", &["restart_policy"]),
        lookup(&composed, 0.7, "Which Compose project does {key} belong to?", "name", &["project"]),
        lookup(list, 0.95, "When was {key} created?", "name", &["created"]),
        lookup(&running, 0.15, "When was {key} started?", "name", &["started_at"]),
    ]
}

/// How many containers exited, run, restart, are unhealthy or healthy, belong to a
/// project; which restarted most, which is oldest or newest.
fn aggregates(list: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list };
    let n = |keep: &dyn Fn(&Value) -> bool| list.iter().filter(|x| keep(x)).count();
    let composed = only(list, |x| x["project"].is_string());
    let exited = only(list, |x| x["status"] == "exited");
    vec![
        Some(count("How many containers have exited?", &["exited"], n(&|x| x["status"] == "exited"), Some("Status"))),
        Some(count("How many containers are running?", &["running"], n(&|x| x["status"] == "running"), Some("Status"))),
        Some(count(
            "How many containers are unhealthy?",
            &["unhealthy"],
            n(&|x| x["health"] == "unhealthy"),
            Some("Health"),
        )),
        Some(count("How many containers are healthy?", &["healthy"], n(&|x| x["health"] == "healthy"), Some("Health"))),
        Some(count(
            "How many containers are restarting?",
            &["restarting"],
            n(&|x| x["status"] == "restarting"),
            Some("Status"),
        )),
        Some(count(
            "How many containers exited with code 0?",
            &["0", "exit code 0"],
            n(&|x| x["status"] == "exited" && x["exit_code"] == "0"),
            Some("ExitCode"),
        )),
        Some(count("How many containers are there in all?", &["containers"], list.len(), Some("Name"))),
        Some(count(
            "How many containers have no restart policy (no)?",
            &["no"],
            n(&|x| x["restart_policy"] == "no"),
            Some("RestartPolicy"),
        )),
        about(
            "com.docker.compose.project",
            Records { list: &composed }.count(
                "How many containers belong to the Compose project {value}?",
                "project",
                None,
            ),
        ),
        about("Image", r.count("How many containers run the image {value}?", "image", None)),
        about(
            "ExitCode",
            Records { list: &exited }.count("How many containers exited with code {value}?", "exit_code", None),
        ),
        extreme(
            "Which container has restarted the most?",
            scored_by(list, |x| x["restarts"].as_u64(), "name"),
            true,
            Some("RestartCount"),
        ),
        extreme(
            "Which container was created first (the oldest)?",
            scored_by(list, |x| x["created"].as_str().map(str::to_owned), "name"),
            false,
            Some("Created"),
        ),
        extreme(
            "Which container was created most recently?",
            scored_by(list, |x| x["created"].as_str().map(str::to_owned), "name"),
            true,
            Some("Created"),
        ),
    ]
}

/// The newest containers at the top; the oldest at the bottom.
fn heads_and_tails(list: &[Value]) -> Vec<Option<Question>> {
    let (first, last) = (list.first(), list.last());
    vec![
        about_record(first, Kind::Head, "Which container comes first?", &["name"]),
        about_record(first, Kind::Head, "Which image does the first container run?", &["name", "image"]),
        about_record(first, Kind::Head, "What is the status of the first container?", &["name", "status"]),
        about_record(first, Kind::Head, "When was the first container created?", &["name", "created"]),
        about_record(first, Kind::Head, "What is the full id of the first container?", &["name", "id"]),
        about_record(
            first,
            Kind::Head,
            "What restart policy does the first container have?",
            &["name", "restart_policy"],
        ),
        about_record(list.get(1), Kind::Head, "Which container comes second, and its image?", &["name", "image"]),
        about_record(list.get(2), Kind::Head, "Which container comes third, and its status?", &["name", "status"]),
        about_record(list.get(1), Kind::Head, "When was the second container created?", &["name", "created"]),
        about_record(last, Kind::Tail, "Which container comes last?", &["name"]),
        about_record(last, Kind::Tail, "Which image does the last container run?", &["name", "image"]),
        about_record(last, Kind::Tail, "What is the status of the last container?", &["name", "status"]),
        about_record(last, Kind::Tail, "When was the last container created?", &["name", "created"]),
        about_record(last, Kind::Tail, "What is the full id of the last container?", &["name", "id"]),
        about_record(
            last,
            Kind::Tail,
            "What restart policy does the last container have?",
            &["name", "restart_policy"],
        ),
        about_record(
            from_end(list, 1),
            Kind::Tail,
            "Which container comes second to last, and its image?",
            &["name", "image"],
        ),
        about_record(
            from_end(list, 2),
            Kind::Tail,
            "Which container comes third to last, and its status?",
            &["name", "status"],
        ),
        about_record(
            from_end(list, 1),
            Kind::Tail,
            "When was the second-to-last container created?",
            &["name", "created"],
        ),
    ]
}
