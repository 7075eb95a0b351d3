//! The questions asked of the sixth part of the catalog: what a user of each tool asks of
//! a result like it (the state of one deployment, how many events are warnings, which
//! request took longest, which consumer group lags most, whether one test passed), with
//! records named from the middle and the end of the result as well as the head. The
//! answers are computed from the generated data, never written by hand.

use serde_json::{Map, Value};

use crate::question::{Kind, Question, Records, text, value, values};
use crate::questions_blind::{about, at, count, extreme, lines, most_frequent, together};

/// Every question about a sixth-part shape's JSON result; `None` for other shapes.
pub(crate) fn json_questions(name: &str, v: &Value) -> Option<Vec<Question>> {
    let list = |path: &str| value(v, path).and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    let qs: Vec<Option<Question>> = match name {
        "vercel_deployments" => {
            let deployments = list("deployments");
            let r = Records { list: deployments };
            let build = deployments
                .iter()
                .filter_map(|d| {
                    let ms = |p: &str| value(d, p).and_then(Value::as_i64);
                    Some((ms("ready")? - ms("buildingAt")?, value(d, "url").map(text)?))
                })
                .collect();
            let production = deployments.iter().filter(|d| d["target"] == "production").count();
            vec![
                r.head("What is the URL of the newest deployment?", "url"),
                r.tail("What is the URL of the oldest deployment on this page?", "url"),
                r.lookup("What state is deployment {key} in?", 0.6, "url", "state"),
                r.lookup("Which branch was deployment {key} built from?", 0.9, "url", "meta.githubCommitRef"),
                r.lookup("Which deployment was built from commit {key}?", 0.3, "meta.githubCommitSha", "url"),
                about("state", r.count("How many deployments are in state {value}?", "state", None)),
                Some(count("How many deployments went to production?", &["production"], production, Some("target"))),
                extreme("Which deployment took the longest to build?", build, true, Some("ready")),
            ]
        }
        "k8s_events" => {
            let events = list("items");
            let r = Records { list: events };
            let last = events.last().map(|e| (value(e, "involvedObject.name").map(text), value(e, "reason").map(text)));
            let warnings = most_frequent(
                events.iter().filter(|e| e["type"] == "Warning").filter_map(|e| e["metadata"]["namespace"].as_str()),
            );
            vec![
                r.head("Which object is the first event about?", "involvedObject.name"),
                match last {
                    Some((Some(object), Some(reason))) => Some(together(
                        Kind::Tail,
                        "What is the last event about, and why was it raised?".into(),
                        None,
                        &[&object, &reason],
                    )),
                    _ => None,
                },
                r.lookup("Why was the event about {key} raised?", 0.6, "involvedObject.name", "reason"),
                r.lookup("Why was the event about {key} raised?", 0.9, "involvedObject.name", "reason"),
                about("type", r.count("How many {value} events are there?", "type", None)),
                about("reason", r.count("How many events have reason {value}?", "reason", None)),
                r.extreme("Which object's event was repeated the most times?", "count", "involvedObject.name", true),
                extreme("Which namespace has the most Warning events?", warnings, true, Some("namespace")),
            ]
        }
        "snowflake_statement" => snowflake_questions(v, list("data")),
        "spotify_search" => {
            let tracks = list("tracks.items");
            let r = Records { list: tracks };
            let leads = most_frequent(tracks.iter().filter_map(|t| t["artists"][0]["name"].as_str()));
            let explicit = tracks.iter().filter(|t| t["explicit"] == true).count();
            vec![
                r.head("What is the first track in the results?", "name"),
                r.tail("What is the last track on this page?", "name"),
                r.lookup("Who is the artist of {key}?", 0.6, "name", "artists[0].name"),
                r.lookup("When was the album with {key} released?", 0.3, "name", "album.release_date"),
                r.lookup("How long is {key}, in milliseconds?", 0.9, "name", "duration_ms"),
                about("album_type", r.count("How many of the tracks come from a {value}?", "album.album_type", None)),
                Some(count("How many tracks are explicit?", &["explicit"], explicit, Some("explicit"))),
                r.extreme("Which track is the longest?", "duration_ms", "name", true),
                extreme("Which artist leads the most tracks in the results?", leads, true, Some("artists")),
            ]
        }
        "npm_ls" => npm_questions(v),
        "cloudwatch_insights" => {
            // Each row as an object of its fields.
            let rows: Vec<Value> = list("results")
                .iter()
                .map(|row| {
                    let fields: Map<String, Value> = values(row, "[]")
                        .into_iter()
                        .filter_map(|p| Some((p.get("field")?.as_str()?.to_owned(), p.get("value")?.clone())))
                        .collect();
                    Value::Object(fields)
                })
                .collect();
            let r = Records { list: &rows };
            let cold = rows.iter().filter(|row| row.get("@initDuration").is_some()).count();
            vec![
                r.head("What is the request id of the most recent invocation?", "@requestId"),
                r.tail("What is the request id of the earliest invocation in the result?", "@requestId"),
                r.lookup("How long did request {key} run?", 0.6, "@requestId", "@duration"),
                r.lookup("How long did request {key} run?", 0.9, "@requestId", "@duration"),
                r.lookup("How much memory did request {key} use at most?", 0.3, "@requestId", "@maxMemoryUsed"),
                Some(count(
                    "How many invocations were cold starts?",
                    &["cold starts", "@initDuration"],
                    cold,
                    Some("@initDuration"),
                )),
                about("@duration", r.extreme("Which request ran the longest?", "@duration", "@requestId", true)),
                about(
                    "@maxMemoryUsed",
                    r.extreme("Which request used the most memory?", "@maxMemoryUsed", "@requestId", true),
                ),
            ]
        }
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}

/// A Snowflake result: `data` rows of strings in the column order of `rowType`.
fn snowflake_questions(v: &Value, rows: &[Value]) -> Vec<Option<Question>> {
    let names: Vec<&str> =
        values(v, "resultSetMetaData.rowType[].name").into_iter().filter_map(Value::as_str).collect();
    let col = |name: &str| names.iter().position(|n| *n == name).map(|i| format!("[{i}]"));
    let (Some(id), Some(customer), Some(plan), Some(amount), Some(status)) =
        (col("INVOICE_ID"), col("CUSTOMER_NAME"), col("PLAN"), col("AMOUNT_USD"), col("STATUS"))
    else {
        return Vec::new();
    };
    let r = Records { list: rows };
    vec![
        r.head("Which invoice is in the first row?", &id),
        r.tail("Which invoice is in the last row?", &id),
        r.lookup("Which customer is invoice {key} for?", 0.3, &id, &customer),
        r.lookup("What is the status of invoice {key}?", 0.6, &id, &status),
        r.lookup("What is the amount of invoice {key}?", 0.9, &id, &amount),
        about("STATUS", r.count("How many invoices are {value}?", &status, None)),
        about("PLAN", r.count("How many invoices are on the {value} plan?", &plan, None)),
        about("AMOUNT_USD", r.extreme("Which invoice has the largest amount?", &amount, &id, true)),
    ]
}

/// One package of an npm tree, in the order `npm ls --json` prints it.
struct Node<'v> {
    name: &'v str,
    version: String,
    /// The direct dependency it sits under (itself for a direct one).
    top: &'v str,
}

fn walk<'v>(deps: &'v Value, top: Option<&'v str>, out: &mut Vec<Node<'v>>) {
    for (name, node) in deps.as_object().into_iter().flatten() {
        let top = top.unwrap_or(name);
        out.push(Node { name, version: node.get("version").map(text).unwrap_or_default(), top });
        if let Some(children) = node.get("dependencies") {
            walk(children, Some(top), out);
        }
    }
}

/// `npm ls --all --json`: a tree of maps keyed by package name.
fn npm_questions(v: &Value) -> Vec<Option<Question>> {
    let Some(deps) = v.get("dependencies") else { return Vec::new() };
    let mut nodes = Vec::new();
    walk(deps, None, &mut nodes);
    let direct = deps.as_object().map_or(0, Map::len);
    let pair = |kind, q: &str, n: Option<&Node>| n.map(|n| together(kind, q.to_owned(), None, &[n.name, &n.version]));
    let mut qs = vec![
        pair(Kind::Head, "Which package is listed first, and at what version?", nodes.first()),
        pair(Kind::Tail, "Which package is listed last in the tree, and at what version?", nodes.last()),
        Some(count("How many direct dependencies does the project have?", &["dependencies", "direct"], direct, None)),
    ];
    let once: Vec<&Node> = nodes.iter().filter(|n| nodes.iter().filter(|o| o.name == n.name).count() == 1).collect();
    for f in [0.6, 0.9] {
        if let Some(n) = once.get(at(once.len(), f)) {
            qs.push(Some(together(
                Kind::Lookup,
                format!("Which version of {} is installed?", n.name),
                Some(n.name),
                &[n.name, &n.version],
            )));
        }
    }
    let repeats = most_frequent(nodes.iter().map(|n| n.name));
    if let Some((times, name)) = repeats.iter().max_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1))) {
        qs.push(Some(count(&format!("How many times does {name} appear in the tree?"), &[name], *times, None)));
    }
    let sizes = most_frequent(nodes.iter().filter(|n| n.name != n.top).map(|n| n.top));
    qs.push(extreme("Which direct dependency pulls in the most packages?", sizes, true, None));
    qs
}

/// Every question about a sixth-part shape's text result; `None` for other shapes.
pub(crate) fn text_questions(name: &str, t: &str) -> Option<Vec<Question>> {
    let ls = lines(t);
    let mut qs = Vec::new();
    match name {
        "pytest_output" => pytest_questions(&mut qs, &ls),
        "kafka_consumer_groups" => kafka_questions(&mut qs, &ls),
        _ => return None,
    }
    Some(qs)
}

/// `pytest -v`: a line per test (`path::test OUTCOME … [ 12%]`), then the failures, the
/// short summary (`FAILED path::test - Error: …`) and the closing counts.
fn pytest_questions(qs: &mut Vec<Question>, ls: &[&str]) {
    const OUTCOMES: &[&str] = &["PASSED", "FAILED", "SKIPPED", "XFAIL", "XPASS", "ERROR"];
    let results: Vec<(&str, &str)> = ls
        .iter()
        .filter(|l| l.ends_with("%]") && l.contains("::"))
        .filter_map(|l| {
            let mut words = l.split_whitespace();
            let id = words.next()?;
            let outcome = words.next().filter(|w| OUTCOMES.contains(w))?;
            Some((id, outcome))
        })
        .collect();
    let failed: Vec<(&str, &str)> = ls.iter().filter_map(|l| l.strip_prefix("FAILED ")?.split_once(" - ")).collect();
    if let Some(collected) = ls.iter().find_map(|l| l.split_once("collected ")?.1.strip_suffix(" items")) {
        qs.push(together(Kind::Head, "How many tests did pytest collect?".into(), None, &["collected", collected]));
    }
    if let Some(closing) = ls.last().filter(|l| l.starts_with('=') && l.contains(" in ")) {
        let counts = closing.trim_matches(|c: char| c == '=' || c == ' ');
        qs.push(together(Kind::Tail, "What is the final tally of the run?".into(), None, &[counts]));
    }
    let tally = |o: &str| results.iter().filter(|r| r.1 == o).count();
    qs.push(count("How many tests failed?", &["failed"], tally("FAILED"), None));
    qs.push(count("How many tests were skipped?", &["skipped"], tally("SKIPPED"), None));
    let files = most_frequent(failed.iter().map(|(id, _)| id.split("::").next().unwrap_or(id)));
    qs.extend(extreme("Which test file has the most failures?", files, true, None));
    for f in [0.6, 0.9] {
        if let Some((id, outcome)) = results.get(at(results.len(), f)) {
            qs.push(together(Kind::Lookup, format!("What was the outcome of {id}?"), Some(id), &[id, outcome]));
        }
    }
    if let Some((id, reason)) = failed.get(at(failed.len(), 0.5)) {
        qs.push(together(Kind::Lookup, format!("Why did {id} fail?"), Some(id), &[id, reason]));
    }
}

/// `kafka-consumer-groups --describe`: per group a header and a row per partition
/// (group, topic, partition, current offset, log end, lag, consumer, host, client).
fn kafka_questions(qs: &mut Vec<Question>, ls: &[&str]) {
    let rows: Vec<Vec<&str>> = ls
        .iter()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|c| c.len() == 9 && c[2].parse::<u32>().is_ok())
        .collect();
    for (kind, q, row) in [
        (Kind::Head, "Which group, topic and partition are listed first, and what is their lag?", rows.first()),
        (Kind::Tail, "Which group, topic and partition are listed last, and what is their lag?", rows.last()),
    ] {
        if let Some(row) = row {
            qs.push(together(kind, q.to_owned(), None, &[row[0], row[1], row[2], row[5]]));
        }
    }
    let idle = ls.iter().filter(|l| l.ends_with("has no active members.")).count();
    qs.push(count("How many consumer groups have no active members?", &["no active members"], idle, None));
    let mut groups: Vec<(&str, u64, usize)> = Vec::new();
    for row in &rows {
        let lag = row[5].parse::<u64>().unwrap_or(0);
        match groups.iter_mut().find(|g| g.0 == row[0]) {
            Some(g) => {
                g.1 += lag;
                g.2 += 1;
            }
            None => groups.push((row[0], lag, 1)),
        }
    }
    qs.extend(extreme(
        "Which consumer group has the largest total lag?",
        groups.iter().map(|g| (g.1, g.0.to_owned())).collect(),
        true,
        None,
    ));
    if let Some((group, _, partitions)) = groups.get(at(groups.len(), 0.5)) {
        qs.push(count(&format!("How many partitions does group {group} read?"), &[group], *partitions, None));
    }
    let lagging: Vec<&Vec<&str>> = rows.iter().filter(|r| r[5] != "-").collect();
    for f in [0.6, 0.9] {
        if let Some(row) = lagging.get(at(lagging.len(), f)) {
            qs.push(together(
                Kind::Lookup,
                format!("What is the lag of group {} on {} partition {}?", row[0], row[1], row[2]),
                Some(row[0]),
                &[row[0], row[1], row[2], row[5]],
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use toolshape_fixtures::apis::Split;

    use super::*;
    use crate::question::Check;

    #[test]
    fn the_sixth_part_asks_at_least_45_questions_of_every_kind() {
        let asked = crate::questions::tests::asks_every_kind(Split::Sixth);
        assert!(asked >= 45, "the sixth part asks {asked} questions");
    }

    #[test]
    fn npm_trees_are_walked_in_print_order_under_their_direct_dependency() {
        let v = serde_json::json!({"name": "app", "dependencies": {
            "a": {"version": "1.0.0", "dependencies": {"c": {"version": "3.0.0"}, "d": {"version": "4.0.0"}}},
            "b": {"version": "2.0.0", "dependencies": {"c": {"version": "3.0.0"}}}
        }});
        let mut nodes = Vec::new();
        walk(&v["dependencies"], None, &mut nodes);
        let seen: Vec<(&str, &str, &str)> = nodes.iter().map(|n| (n.name, n.version.as_str(), n.top)).collect();
        assert_eq!(
            seen,
            vec![
                ("a", "1.0.0", "a"),
                ("c", "3.0.0", "a"),
                ("d", "4.0.0", "a"),
                ("b", "2.0.0", "b"),
                ("c", "3.0.0", "b")
            ]
        );
        let qs: Vec<Question> = npm_questions(&v).into_iter().flatten().collect();
        let checks: Vec<&Check> = qs.iter().map(|q| &q.check).collect();
        assert!(checks.contains(&&Check::Extreme { id: "a".into(), max: true }), "{checks:?}");
        assert!(checks.contains(&&Check::Count { labels: vec!["c".into()], value: "2".into() }), "{checks:?}");
        assert!(checks.contains(&&Check::Together(vec!["c".into(), "3.0.0".into()])), "{checks:?}");
    }

    #[test]
    fn kafka_rows_sum_lag_per_group_and_skip_unknown_offsets() {
        let text = "\nGROUP TOPIC PARTITION CURRENT-OFFSET LOG-END-OFFSET LAG CONSUMER-ID HOST CLIENT-ID\n\
                    g1 t 0 90 100 10 c1 /h c\ng1 t 1 - 50 - c1 /h c\n\n\
                    Consumer group 'g2' has no active members.\n\n\
                    GROUP TOPIC PARTITION CURRENT-OFFSET LOG-END-OFFSET LAG CONSUMER-ID HOST CLIENT-ID\n\
                    g2 t 0 10 40 30 - - -\n";
        let qs = text_questions("kafka_consumer_groups", text).unwrap_or_default();
        let checks: Vec<&Check> = qs.iter().map(|q| &q.check).collect();
        assert!(checks.contains(&&Check::Extreme { id: "g2".into(), max: true }), "{checks:?}");
        assert!(
            checks.contains(&&Check::Count { labels: vec!["no active members".into()], value: "1".into() }),
            "{checks:?}"
        );
        // The partition whose offset is unknown is never asked about.
        assert!(qs.iter().filter(|q| q.kind == Kind::Lookup).all(|q| !q.text.contains("partition 1")));
    }
}
