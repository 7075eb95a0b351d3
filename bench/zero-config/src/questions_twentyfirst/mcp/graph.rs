//! Questions about a memory server's knowledge graph: the first entity and the last
//! relation; a person's role, manager and meetings, a service's language, owner and
//! repository, what a meeting decided; how many people, entities of a type and relations
//! of a type there are, and how many people work on a project; who works on the most
//! projects, has the most reports and attended the most meetings, which services depend
//! on most and are depended on most, which team owns most services, and which entity has
//! the most observations.

use serde_json::Value;

use crate::question::{Kind, Question, Records};
use crate::questions_blind::{about, at, count, extreme, most_frequent, only, s, scored_by, together};

/// The relations of one type.
fn of_kind(relations: &[Value], kind: &str) -> Vec<Value> {
    only(relations, |x| x["relationType"] == kind)
}

/// The `end` (`from` or `to`) of every relation of `list`.
fn ends<'v>(list: &'v [Value], end: &'v str) -> impl Iterator<Item = &'v str> {
    list.iter().filter_map(move |x| x[end].as_str())
}

/// A lookup of the relation `f` of the way down `list`, named by its `key` end (`from` or
/// `to`) and answered by both ends.
fn relation_lookup(list: &[Value], f: f64, q: &str, key: &str) -> Option<Question> {
    let x = list.get(at(list.len(), f))?;
    let (from, to) = (s(x, "from")?, s(x, "to")?);
    let k = if key == "from" { &from } else { &to };
    Some(together(Kind::Lookup, q.replace("{key}", k), Some(k), &[&from, &to]))
}

/// An entity's first observation that starts with `prefix` (any first one for `""`).
fn observation(x: &Value, prefix: &str) -> Option<String> {
    x["observations"].as_array()?.iter().filter_map(Value::as_str).find(|o| o.starts_with(prefix)).map(str::to_owned)
}

/// A lookup of the entity `f` of the way down `list`, answered by its name and the
/// observation that starts with `prefix`.
fn observed(list: &[Value], f: f64, q: &str, prefix: &str) -> Option<Question> {
    let x = list.get(at(list.len(), f))?;
    let (name, seen) = (s(x, "name")?, observation(x, prefix)?);
    Some(together(Kind::Lookup, q.replace("{key}", &name), Some(&name), &[&name, &seen]))
}

pub(super) fn graph_questions(entities: &[Value], relations: &[Value]) -> Vec<Option<Question>> {
    let typed = |t: &str| only(entities, |e| e["entityType"] == t);
    let (people, services, projects) = (typed("person"), typed("service"), typed("project"));
    let works_on = of_kind(relations, "works_on");
    let reports_to = of_kind(relations, "reports_to");
    let depends_on = of_kind(relations, "depends_on");
    let attended = of_kind(relations, "attended");
    let owns = of_kind(relations, "owns");
    let decided = of_kind(relations, "decided");
    // A meeting that decided exactly one thing names its decision unambiguously.
    let single: Vec<Value> = only(&decided, |x| decided.iter().filter(|y| y["from"] == x["from"]).count() == 1);
    let first = entities.first().and_then(|x| {
        let (name, kind) = (s(x, "name")?, s(x, "entityType")?);
        Some(together(
            Kind::Head,
            "Which entity comes first in the graph, and of what type is it?".into(),
            None,
            &[&name, &kind],
        ))
    });
    let last = relations.last().and_then(|x| {
        let (from, kind, to) = (s(x, "from")?, s(x, "relationType")?, s(x, "to")?);
        Some(together(
            Kind::Tail,
            "What is the last relation in the graph: what links to what, and how?".into(),
            None,
            &[&from, &kind, &to],
        ))
    });
    let working = projects.get(at(projects.len(), 0.5)).and_then(|p| s(p, "name")).map(|p| {
        let n = works_on.iter().filter(|x| x["to"] == p.as_str()).count();
        count(&format!("How many people work on {p}?"), &["works_on", "people"], n, Some("relationType"))
    });
    let attendees = most_frequent(ends(&attended, "from"));
    let meetings_of = attendees.get(at(attendees.len(), 0.7)).map(|(n, who)| {
        count(&format!("How many meetings did {who} attend?"), &["attended", "meetings"], *n, Some("relationType"))
    });
    let observations = |x: &Value| x["observations"].as_array().map(Vec::len);
    vec![
        first,
        last,
        observed(&people, 0.6, "What is {key}'s role?", ""),
        observed(&services, 0.5, "Which language is {key} written in?", "Written in "),
        relation_lookup(&reports_to, 0.9, "Who does {key} report to?", "from"),
        relation_lookup(&owns, 0.8, "Which team owns {key}?", "to"),
        relation_lookup(&single, 0.6, "What was decided at {key}?", "from"),
        relation_lookup(
            &of_kind(relations, "source_code_in"),
            0.3,
            "Which repository holds the code of {key}?",
            "from",
        ),
        Some(count("How many people are in the graph?", &["person", "people"], people.len(), Some("entityType"))),
        about(
            "entityType",
            Records { list: entities }.count("How many entities are of type {value}?", "entityType", None),
        ),
        about(
            "relationType",
            Records { list: relations }.count("How many relations are of type {value}?", "relationType", None),
        ),
        working,
        meetings_of,
        extreme("Who works on the most projects?", most_frequent(ends(&works_on, "from")), true, Some("relationType")),
        extreme("Who has the most direct reports?", most_frequent(ends(&reports_to, "to")), true, Some("relationType")),
        extreme("Who attended the most meetings?", attendees.clone(), true, Some("relationType")),
        extreme(
            "Which service depends on the most other services?",
            most_frequent(ends(&depends_on, "from")),
            true,
            Some("relationType"),
        ),
        extreme(
            "Which service do the most other services depend on?",
            most_frequent(ends(&depends_on, "to")),
            true,
            Some("relationType"),
        ),
        extreme("Which team owns the most services?", most_frequent(ends(&owns, "from")), true, Some("relationType")),
        extreme(
            "Which entity has the most observations?",
            scored_by(entities, observations, "name"),
            true,
            Some("observations"),
        ),
    ]
}
