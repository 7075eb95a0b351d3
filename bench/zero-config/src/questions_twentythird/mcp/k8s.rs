//! Questions about a Kubernetes MCP server's multi-document YAML list of Deployments,
//! Services and ConfigMaps: the first Deployments (name, namespace, image, replicas,
//! requests, uid, creation time) and the last ConfigMaps and Services; a Deployment's
//! image, memory request, replicas or revision and a Service's type or cluster IP by
//! name; and how many Deployments, Services and ConfigMaps there are, how many
//! Deployments are short of ready replicas, stuck in a rollout or in a namespace, which
//! Deployment requests the most memory or CPU, and which namespace runs the most.
//!
//! The YAML is read by indentation into `path: value` pairs per document, so that a
//! question can name a field by its path (`spec.template.spec.containers.image`).

use serde_json::{Value, json};

use super::{end, find};
use crate::question::Question;
use crate::questions_blind::{count, extreme, most_frequent};

/// One document: its fields as `(dotted path, value)` in order; list items add no index,
/// and block scalars (`|`) are kept as their first line.
pub(super) fn documents(t: &str) -> Vec<Vec<(String, String)>> {
    t.split("\n---\n").map(|d| flatten(d.trim_start_matches("---\n"))).filter(|d| !d.is_empty()).collect()
}

fn unquote(v: &str) -> String {
    if v.starts_with('"') { serde_json::from_str(v).unwrap_or_else(|_| v.to_owned()) } else { v.to_owned() }
}

fn flatten(doc: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    // The keys of the maps that enclose the current line, with their indents.
    let mut stack: Vec<(usize, String)> = Vec::new();
    let mut block: Option<(usize, String)> = None;
    for line in doc.lines().filter(|l| !l.trim().is_empty()) {
        let indent = line.len() - line.trim_start().len();
        if let Some((at, path)) = &block {
            if indent > *at {
                // The first line of a block scalar stands for it.
                if !out.iter().any(|(p, _)| p == path) {
                    out.push((path.clone(), line.trim().to_owned()));
                }
                continue;
            }
            block = None;
        }
        let mut rest = line.trim_start();
        let mut at = indent;
        if let Some(item) = rest.strip_prefix("- ") {
            // A list item: the list's key sits at the dash's indent and stays.
            stack.retain(|(i, _)| *i <= indent);
            rest = item;
            at += 2;
        } else {
            stack.retain(|(i, _)| *i < indent);
        }
        let (key, value) = match rest.split_once(": ") {
            Some((k, v)) => (k, v),
            None if rest.ends_with(':') => (&rest[..rest.len() - 1], ""),
            None => ("", rest),
        };
        let mut path: Vec<&str> = stack.iter().map(|(_, k)| k.as_str()).collect();
        if !key.is_empty() {
            path.push(key);
        }
        let path = path.join(".");
        match value {
            "" => stack.push((at, key.to_owned())),
            "|" | "|-" => block = Some((at, path)),
            v => out.push((path, unquote(v))),
        }
    }
    out
}

/// A document as a record of the fields questions use.
fn record(d: &[(String, String)]) -> Value {
    let get = |p: &str| d.iter().find(|(k, _)| k == p).map(|(_, v)| v.clone()).unwrap_or_default();
    let c = "spec.template.spec.containers";
    json!({
        "kind": get("kind"),
        "name": get("metadata.name"),
        "namespace": get("metadata.namespace"),
        "uid": get("metadata.uid"),
        "created": get("metadata.creationTimestamp"),
        "revision": get("metadata.annotations.deployment.kubernetes.io/revision"),
        "image": get(&format!("{c}.image")),
        "replicas": get("spec.replicas"),
        "ready": get("status.readyReplicas"),
        "memory": get(&format!("{c}.resources.requests.memory")),
        "cpu": get(&format!("{c}.resources.requests.cpu")),
        "memory_limit": get(&format!("{c}.resources.limits.memory")),
        "progressing": d.iter().filter(|(k, _)| k == "status.conditions.reason").map(|(_, v)| v.as_str()).collect::<Vec<_>>().join(" "),
        "type": get("spec.type"),
        "cluster_ip": get("spec.clusterIP"),
        "data": d.iter().filter_map(|(k, _)| k.strip_prefix("data.")).collect::<Vec<_>>().join(" "),
    })
}

/// A quantity in bytes (`512Mi`, `1Gi`) or millicores (`250m`, `1`).
pub(super) fn quantity(q: &str) -> Option<f64> {
    let (n, unit) = q.find(|c: char| c.is_ascii_alphabetic()).map_or((q, ""), |i| (&q[..i], &q[i..]));
    let n: f64 = n.parse().ok()?;
    Some(match unit {
        "" => n * 1000.0,
        "m" => n,
        "Ki" => n * 1024.0,
        "Mi" => n * 1024.0 * 1024.0,
        "Gi" => n * 1024.0 * 1024.0 * 1024.0,
        _ => return None,
    })
}

fn f(x: &Value, field: &str) -> Option<String> {
    x[field].as_str().filter(|s| !s.is_empty()).map(str::to_owned)
}

pub(super) fn k8s_questions(t: &str) -> Vec<Option<Question>> {
    let all: Vec<Value> = documents(t).iter().map(|d| record(d)).collect();
    let kind = |k: &str| all.iter().filter(|x| x["kind"] == k).cloned().collect::<Vec<_>>();
    let (deps, svcs, maps) = (kind("Deployment"), kind("Service"), kind("ConfigMap"));
    let mut qs = vec![
        end(&all, 0, false, "Which resource is listed first (kind, name and namespace)?", |x| {
            Some(vec![f(x, "kind")?, f(x, "name")?, f(x, "namespace")?])
        }),
        end(&deps, 0, false, "Which image does the first Deployment run?", |x| {
            Some(vec![f(x, "name")?, f(x, "image")?])
        }),
        end(&deps, 0, false, "How many replicas does the first Deployment want?", |x| {
            Some(vec![f(x, "name")?, f(x, "replicas")?])
        }),
        end(&deps, 0, false, "How much memory does the first Deployment's container request?", |x| {
            Some(vec![f(x, "memory")?])
        }),
        end(&deps, 0, false, "What is the uid of the first Deployment?", |x| Some(vec![f(x, "uid")?])),
        end(&deps, 0, false, "When was the first Deployment created?", |x| Some(vec![f(x, "created")?])),
        end(&deps, 1, false, "Which Deployment is listed second, and in which namespace?", |x| {
            Some(vec![f(x, "name")?, f(x, "namespace")?])
        }),
        end(&deps, 1, false, "Which image does the second Deployment run?", |x| Some(vec![f(x, "image")?])),
        end(&deps, 1, false, "What is the uid of the second Deployment?", |x| Some(vec![f(x, "uid")?])),
        end(&deps, 2, false, "Which Deployment is listed third?", |x| Some(vec![f(x, "name")?])),
        end(&all, 0, true, "Which resource is listed last (kind, name and namespace)?", |x| {
            Some(vec![f(x, "kind")?, f(x, "name")?, f(x, "namespace")?])
        }),
        end(&all, 0, true, "What is the uid of the last resource?", |x| Some(vec![f(x, "uid")?])),
        end(&all, 0, true, "When was the last resource created?", |x| Some(vec![f(x, "created")?])),
        end(&all, 1, true, "Which resource is listed second to last (name and namespace)?", |x| {
            Some(vec![f(x, "name")?, f(x, "namespace")?])
        }),
        end(&all, 1, true, "What is the uid of the second to last resource?", |x| Some(vec![f(x, "uid")?])),
        end(&maps, 1, true, "Which keys does the second to last ConfigMap hold?", |x| {
            Some(f(x, "data")?.split(' ').map(str::to_owned).collect())
        }),
        end(&svcs, 0, true, "Which Service is listed last, and what is its cluster IP?", |x| {
            Some(vec![f(x, "name")?, f(x, "cluster_ip")?])
        }),
        end(&svcs, 0, true, "What type is the last Service?", |x| Some(vec![f(x, "name")?, f(x, "type")?])),
        end(&svcs, 1, true, "Which Service is listed second to last?", |x| Some(vec![f(x, "name")?])),
    ];
    let name = |x: &Value| f(x, "name");
    for at in [0.3, 0.5, 0.7, 0.9] {
        qs.push(find(&deps, at, "Which image does the Deployment {key} run?", name, |x| Some(vec![f(x, "image")?])));
    }
    for at in [0.2, 0.6] {
        qs.push(find(&deps, at, "How much memory and CPU does the Deployment {key} request?", name, |x| {
            Some(vec![f(x, "memory")?, f(x, "cpu")?])
        }));
    }
    qs.push(find(&deps, 0.8, "What revision is the Deployment {key} at?", name, |x| Some(vec![f(x, "revision")?])));
    qs.push(find(&deps, 0.4, "What is the memory limit of the Deployment {key}?", name, |x| {
        Some(vec![f(x, "memory_limit")?])
    }));
    for at in [0.4, 0.8] {
        qs.push(find(&svcs, at, "What is the cluster IP of the Service {key}?", name, |x| {
            Some(vec![f(x, "cluster_ip")?])
        }));
    }
    // How many, and which holds the most.
    qs.push(Some(count("How many Deployments are listed?", &["Deployments", "Deployment"], deps.len(), Some("kind"))));
    qs.push(Some(count("How many Services are listed?", &["Services", "Service"], svcs.len(), Some("kind"))));
    qs.push(Some(count("How many ConfigMaps are listed?", &["ConfigMaps", "ConfigMap"], maps.len(), Some("kind"))));
    let or_zero = |x: &Value, field: &str| f(x, field).unwrap_or_else(|| "0".to_owned());
    let short = deps.iter().filter(|x| or_zero(x, "ready") != or_zero(x, "replicas")).count();
    qs.push(Some(count(
        "How many Deployments have fewer ready replicas than they want?",
        &["unavailable", "not ready", "MinimumReplicasUnavailable"],
        short,
        Some("readyReplicas"),
    )));
    let stuck = deps
        .iter()
        .filter(|x| x["progressing"].as_str().is_some_and(|p| p.contains("ProgressDeadlineExceeded")))
        .count();
    qs.push(Some(count(
        "How many Deployments have a rollout past its progress deadline?",
        &["ProgressDeadlineExceeded"],
        stuck,
        Some("reason"),
    )));
    let per_ns = most_frequent(deps.iter().filter_map(|x| x["namespace"].as_str()));
    if let Some((n, ns)) = per_ns.iter().find(|(n, _)| per_ns.iter().filter(|(m, _)| m == n).count() == 1) {
        qs.push(Some(count(&format!("How many Deployments are in the namespace {ns}?"), &[ns], *n, Some("namespace"))));
    }
    qs.push(extreme("Which namespace has the most Deployments?", per_ns.clone(), true, Some("namespace")));
    let by = |field: &'static str| {
        deps.iter().filter_map(move |x| Some((quantity(x[field].as_str()?)?, f(x, "name")?))).collect::<Vec<_>>()
    };
    qs.push(extreme("Which Deployment requests the most memory per pod?", by("memory"), true, Some("memory")));
    qs.push(extreme("Which Deployment requests the least memory per pod?", by("memory"), false, Some("memory")));
    qs.push(extreme("Which Deployment has the highest memory limit?", by("memory_limit"), true, Some("memory")));
    qs.push(extreme("Which Deployment requests the most CPU per pod?", by("cpu"), true, Some("cpu")));
    let replicas =
        deps.iter().filter_map(|x| Some((x["replicas"].as_str()?.parse::<u32>().ok()?, f(x, "name")?))).collect();
    qs.push(extreme("Which Deployment runs the most replicas?", replicas, true, Some("replicas")));
    qs
}
