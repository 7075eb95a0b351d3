//! The questions asked of `kubectl get all -A`: what someone on call for the cluster asks
//! (the status and restarts of a pod, the cluster IP and ports of a service, how ready a
//! deployment or statefulset is, the schedule of a cronjob; how many pods are not running
//! or crash-looping, how many deployments are not fully available, how many services are
//! load balancers; which pod restarted most; the first pods at the top, the last jobs and
//! cronjobs at the bottom).

use serde_json::Value;

use super::readers::{Table, kubectl_tables, num};
use super::{about_record, from_end, lookup};
use crate::question::{Kind, Question, Records};
use crate::questions_blind::{about, count, extreme, most_frequent, only, scored_by};

/// The rows of the table whose names carry `prefix` (`pod/`, `service/`).
fn rows_of(tables: &[Table], prefix: &str) -> Vec<Value> {
    tables
        .iter()
        .find(|t| t.rows.first().and_then(|r| r["NAME"].as_str()).is_some_and(|n| n.starts_with(prefix)))
        .map(|t| t.rows.clone())
        .unwrap_or_default()
}

/// Whether a `READY` cell (`2/3`) is short of its total.
fn short(x: &Value) -> bool {
    x["READY"].as_str().and_then(|r| r.split_once('/')).is_some_and(|(a, b)| a != b)
}

/// Every question about the output `t`.
pub(crate) fn kubectl_questions(t: &str) -> Vec<Option<Question>> {
    let tables = kubectl_tables(t);
    let mut qs = lookups(&tables);
    qs.extend(aggregates(&tables));
    qs.extend(heads_and_tails(&tables));
    qs
}

/// A pod's status and restarts, a service's IP and ports, a workload's readiness.
fn lookups(tables: &[Table]) -> Vec<Option<Question>> {
    let pods = rows_of(tables, "pod/");
    let services = rows_of(tables, "service/");
    let balancers = only(&services, |x| x["TYPE"] == "LoadBalancer");
    let troubled = only(&pods, |x| x["STATUS"] != "Running" && x["STATUS"] != "Completed");
    let restarted = only(&pods, |x| x["RESTARTS"] != "0");
    let deployments = rows_of(tables, "deployment.apps/");
    let replicasets = rows_of(tables, "replicaset.apps/");
    let statefulsets = rows_of(tables, "statefulset.apps/");
    let cronjobs = rows_of(tables, "cronjob.batch/");
    let autoscalers = rows_of(tables, "horizontalpodautoscaler.autoscaling/");
    let daemonsets = rows_of(tables, "daemonset.apps/");
    vec![
        lookup(&pods, 0.2, "What is the status of {key}?", "NAME", &["STATUS", "READY"]),
        lookup(
            &pods,
            0.55,
            "What is the status of {key}, and how often has it restarted?",
            "NAME",
            &["STATUS", "RESTARTS"],
        ),
        lookup(&restarted, 0.5, "How many times has {key} restarted, and when last?", "NAME", &["RESTARTS"]),
        lookup(&troubled, 0.4, "What is wrong with {key}?", "NAME", &["STATUS"]),
        lookup(&pods, 0.85, "How old is {key}?", "NAME", &["AGE"]),
        lookup(&services, 0.3, "What cluster IP and ports does {key} have?", "NAME", &["CLUSTER-IP", "PORT(S)"]),
        lookup(&services, 0.75, "Which ports does {key} expose?", "NAME", &["PORT(S)"]),
        lookup(&balancers, 0.5, "What is the external address of {key}?", "NAME", &["EXTERNAL-IP"]),
        lookup(&deployments, 0.6, "How many replicas of {key} are ready?", "NAME", &["READY"]),
        lookup(
            &replicasets,
            0.45,
            "How many pods does {key} want, and how many are ready?",
            "NAME",
            &["DESIRED", "READY"],
        ),
        lookup(&statefulsets, 0.5, "How ready is {key}?", "NAME", &["READY"]),
        lookup(
            &cronjobs,
            0.5,
            "On which schedule does {key} run, and when did it last run?",
            "NAME",
            &["SCHEDULE", "LAST SCHEDULE"],
        ),
        lookup(&autoscalers, 0.5, "What are the CPU targets of {key}?", "NAME", &["TARGETS"]),
        lookup(&daemonsets, 0.5, "How many pods of {key} are ready?", "NAME", &["READY"]),
    ]
}

/// How many pods are not running, crash-looping or pending; how many deployments are
/// not fully available; services by type; which pod restarted most.
fn aggregates(tables: &[Table]) -> Vec<Option<Question>> {
    let pods = rows_of(tables, "pod/");
    let services = rows_of(tables, "service/");
    let deployments = rows_of(tables, "deployment.apps/");
    let replicasets = rows_of(tables, "replicaset.apps/");
    let jobs = rows_of(tables, "job.batch/");
    let n = |list: &[Value], keep: &dyn Fn(&Value) -> bool| list.iter().filter(|x| keep(x)).count();
    let status = |s: &'static str| move |x: &Value| x["STATUS"] == s;
    vec![
        Some(count(
            "How many pods are not Running?",
            &["not Running"],
            n(&pods, &|x| x["STATUS"] != "Running"),
            Some("STATUS"),
        )),
        Some(count(
            "How many pods are in CrashLoopBackOff?",
            &["CrashLoopBackOff"],
            n(&pods, &status("CrashLoopBackOff")),
            Some("STATUS"),
        )),
        Some(count("How many pods are Completed?", &["Completed"], n(&pods, &status("Completed")), Some("STATUS"))),
        Some(count("How many pods are listed?", &["pods"], pods.len(), Some("NAME"))),
        Some(count(
            "How many pods have restarted at least once?",
            &["restarted"],
            n(&pods, &|x| x["RESTARTS"] != "0"),
            Some("RESTARTS"),
        )),
        about(
            "NAMESPACE",
            Records { list: &pods }.count("How many pods run in the namespace {value}?", "NAMESPACE", None),
        ),
        Some(count(
            "How many deployments are not fully available?",
            &["not fully available", "deployments"],
            n(&deployments, &short),
            Some("READY"),
        )),
        Some(count(
            "How many services are of type LoadBalancer?",
            &["LoadBalancer"],
            n(&services, &|x| x["TYPE"] == "LoadBalancer"),
            Some("TYPE"),
        )),
        Some(count(
            "How many services are headless (cluster IP None)?",
            &["None", "headless"],
            n(&services, &|x| x["CLUSTER-IP"] == "None"),
            Some("CLUSTER-IP"),
        )),
        Some(count(
            "How many replica sets are scaled to zero?",
            &["scaled to zero", "DESIRED 0"],
            n(&replicasets, &|x| x["DESIRED"] == "0"),
            Some("DESIRED"),
        )),
        Some(count("How many jobs failed?", &["Failed"], n(&jobs, &status("Failed")), Some("STATUS"))),
        extreme(
            "Which pod has restarted the most?",
            scored_by(&pods, |x| num(x, "RESTARTS"), "NAME"),
            true,
            Some("RESTARTS"),
        ),
        extreme(
            "Which namespace runs the most pods?",
            most_frequent(pods.iter().filter_map(|x| x["NAMESPACE"].as_str())),
            true,
            Some("NAMESPACE"),
        ),
        extreme(
            "Which deployment has the most desired replicas?",
            scored_by(&deployments, |x| num(x, "UP-TO-DATE"), "NAME"),
            true,
            Some("UP-TO-DATE"),
        ),
    ]
}

/// The first pods at the top; the last jobs and cronjobs at the bottom.
fn heads_and_tails(tables: &[Table]) -> Vec<Option<Question>> {
    let pods = rows_of(tables, "pod/");
    let jobs = rows_of(tables, "job.batch/");
    let cronjobs = rows_of(tables, "cronjob.batch/");
    let first = pods.first();
    let last = jobs.last();
    vec![
        about_record(first, Kind::Head, "Which pod is listed first?", &["NAME"]),
        about_record(first, Kind::Head, "What is the status of the first pod listed?", &["NAME", "STATUS"]),
        about_record(first, Kind::Head, "How many containers of the first pod are ready?", &["NAME", "READY"]),
        about_record(first, Kind::Head, "How old is the first pod listed?", &["NAME", "AGE"]),
        about_record(first, Kind::Head, "In which namespace is the first pod listed?", &["NAME", "NAMESPACE"]),
        about_record(pods.get(1), Kind::Head, "Which pod is listed second, and its status?", &["NAME", "STATUS"]),
        about_record(pods.get(2), Kind::Head, "Which pod is listed third?", &["NAME"]),
        about_record(
            pods.get(3),
            Kind::Head,
            "How many restarts does the fourth pod listed have?",
            &["NAME", "RESTARTS"],
        ),
        about_record(pods.get(4), Kind::Head, "Which pod is listed fifth, and how old is it?", &["NAME", "AGE"]),
        about_record(last, Kind::Tail, "Which job is listed last?", &["NAME"]),
        about_record(last, Kind::Tail, "What is the status of the last job listed?", &["NAME", "STATUS"]),
        about_record(last, Kind::Tail, "How many completions does the last job have?", &["NAME", "COMPLETIONS"]),
        about_record(last, Kind::Tail, "How long did the last job listed take?", &["NAME", "DURATION"]),
        about_record(last, Kind::Tail, "How old is the last job listed?", &["NAME", "AGE"]),
        about_record(
            from_end(&jobs, 1),
            Kind::Tail,
            "Which job is second to last, and its status?",
            &["NAME", "STATUS"],
        ),
        about_record(from_end(&jobs, 2), Kind::Tail, "Which job is third to last?", &["NAME"]),
        about_record(
            cronjobs.last(),
            Kind::Tail,
            "Which cronjob is listed last, and its schedule?",
            &["NAME", "SCHEDULE"],
        ),
        about_record(
            cronjobs.last(),
            Kind::Tail,
            "When did the last cronjob listed last run?",
            &["NAME", "LAST SCHEDULE"],
        ),
    ]
}
