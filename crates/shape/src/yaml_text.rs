//! YAML text that holds a list of records (`kubectl get -o yaml`, a Helm or Compose
//! bundle, a tool that prints YAML instead of JSON): the records are read and counted like
//! a JSON result's, so the map of the first read says how many there are and what their
//! fields add up to. The text itself is shown as text; only the map comes from the parse.
//!
//! Read with `saphyr-parser`'s events into JSON values. Hostile input is bounded: at most
//! [`MAX_BYTES`] are parsed, nesting deeper than [`MAX_DEPTH`] or more than [`MAX_NODES`]
//! values stop the parse, and aliases are not expanded (each reads as null), so a small
//! text cannot grow into a large tree. A text that is not YAML, or holds no list of
//! records, gives no map.

use saphyr_parser::{Event, Parser, ScalarStyle};
use serde_json::{Map, Value};

use crate::aligned::{cell_value, rows_map};
use crate::numfmt::thousands;

/// Largest text parsed, in bytes.
const MAX_BYTES: usize = 1024 * 1024;
/// Deepest nesting parsed.
const MAX_DEPTH: usize = 64;
/// Most values parsed.
const MAX_NODES: usize = 500_000;
/// Records a list needs, at least.
const MIN_RECORDS: usize = 3;
/// How deep the records are looked for.
const SEARCH_DEPTH: usize = 4;

enum Frame {
    Seq(Vec<Value>),
    Map(Map<String, Value>, Option<String>),
}

/// Whether the text starts as block YAML does: a `key:` line, a `- ` item or `---`.
fn looks_like_yaml(text: &str) -> bool {
    let Some(first) = text.lines().map(str::trim_end).find(|l| !l.is_empty() && !l.starts_with('#')) else {
        return false;
    };
    if first == "---" || first.starts_with("- ") {
        return true;
    }
    let Some((key, rest)) = first.split_once(':') else { return false };
    !key.is_empty()
        && !key.starts_with(' ')
        && key.chars().all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '/' | '"' | '\''))
        && (rest.is_empty() || rest.starts_with(' '))
}

/// A scalar as YAML's core schema reads it; quoted ones stay text.
fn scalar(text: &str, style: ScalarStyle) -> Value {
    if style != ScalarStyle::Plain {
        return Value::from(text);
    }
    match text {
        "" | "~" | "null" | "Null" | "NULL" => Value::Null,
        "true" | "True" | "TRUE" => Value::Bool(true),
        "false" | "False" | "FALSE" => Value::Bool(false),
        _ => cell_value(text),
    }
}

/// The documents of `text` (one value, or a list of them for several), or `None` when it
/// is not YAML within the bounds.
fn parse(text: &str) -> Option<Value> {
    if text.len() > MAX_BYTES {
        return None;
    }
    let mut stack: Vec<Frame> = Vec::new();
    let mut docs: Vec<Value> = Vec::new();
    let mut nodes = 0usize;
    for event in Parser::new_from_str(text) {
        let (event, _) = event.ok()?;
        let done = match event {
            Event::Scalar(t, style, _, _) => scalar(&t, style),
            Event::Alias(_) => Value::Null,
            Event::SequenceStart(..) | Event::MappingStart(..) => {
                if stack.len() >= MAX_DEPTH {
                    return None;
                }
                stack.push(if matches!(event, Event::SequenceStart(..)) {
                    Frame::Seq(Vec::new())
                } else {
                    Frame::Map(Map::new(), None)
                });
                continue;
            }
            Event::SequenceEnd | Event::MappingEnd => match stack.pop()? {
                Frame::Seq(items) => Value::Array(items),
                Frame::Map(m, _) => Value::Object(m),
            },
            _ => continue,
        };
        nodes += 1;
        if nodes > MAX_NODES {
            return None;
        }
        match stack.last_mut() {
            None => docs.push(done),
            Some(Frame::Seq(items)) => items.push(done),
            Some(Frame::Map(m, key)) => match key.take() {
                Some(k) => {
                    m.insert(k, done);
                }
                None => {
                    *key = Some(match done {
                        Value::String(s) => s,
                        other => other.to_string(),
                    });
                }
            },
        }
    }
    match docs.len() {
        0 => None,
        1 => docs.pop(),
        _ => Some(Value::Array(docs)),
    }
}

/// The largest list of records in `v`, with the path that leads to it.
fn records<'v>(v: &'v Value, path: &str, depth: usize) -> Option<(String, &'v Vec<Value>)> {
    let here = match v {
        Value::Array(items)
            if items.len() >= MIN_RECORDS && items.iter().filter(|i| i.is_object()).count() * 10 >= items.len() * 9 =>
        {
            Some((path.to_owned(), items))
        }
        _ => None,
    };
    if depth == 0 {
        return here;
    }
    let inner = match v {
        Value::Object(m) => m
            .iter()
            .filter_map(|(k, child)| {
                let p = if path.is_empty() { k.clone() } else { format!("{path}.{k}") };
                records(child, &p, depth - 1)
            })
            .max_by_key(|(_, items)| items.len()),
        _ => None,
    };
    match (here, inner) {
        (Some(h), Some(i)) => Some(if i.1.len() > h.1.len() { i } else { h }),
        (h, i) => h.or(i),
    }
}

/// A map of the records a YAML text holds, at most `room` characters.
pub(crate) fn yaml_records(text: &str, room: usize) -> Option<String> {
    if !looks_like_yaml(text) {
        return None;
    }
    let root = parse(text)?;
    let (path, items) = records(&root, "", SEARCH_DEPTH)?;
    let at = if path.is_empty() { String::new() } else { format!(" under `{path}`") };
    let head = format!("YAML with {} records{at}", thousands(items.len() as u64));
    rows_map(items, head, room)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pods() -> String {
        let mut t = String::from("apiVersion: v1\nkind: List\nitems:\n");
        for i in 0..9 {
            t.push_str(&format!(
                "- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: web-{i}\n    namespace: {}\n  status:\n    phase: {}\n    restarts: {}\n",
                ["shop", "auth", "shop"][i % 3],
                if i == 4 { "Pending" } else { "Running" },
                i * 2
            ));
        }
        t
    }

    #[test]
    fn records_in_yaml_are_counted() {
        let map = yaml_records(&pods(), 2_000).unwrap();
        assert!(map.starts_with("YAML with 9 records under `items`"), "{map}");
        assert!(map.contains("metadata.namespace: shop 6, auth 3"), "{map}");
        assert!(map.contains("status.phase: Running 8, Pending 1"), "{map}");
        assert!(map.contains("status.restarts: max 16 (metadata.name web-8)"), "{map}");
    }

    #[test]
    fn several_documents_are_a_list() {
        let docs: String =
            (0..4).map(|i| format!("---\nkind: Service\nname: s{i}\nport: {}\n", 8000 + i % 2)).collect();
        let map = yaml_records(&docs, 2_000).unwrap();
        assert!(map.starts_with("YAML with 4 records;"), "{map}");
    }

    #[test]
    fn prose_broken_yaml_and_aliases_give_no_records() {
        assert_eq!(yaml_records("Hello there.\nThis is prose.\n", 2_000), None);
        assert_eq!(yaml_records("key: [unclosed\nother: 1\n", 2_000), None);
        let laughs = "a: &a [x, x, x]\nb: &b [*a, *a, *a]\nc: [*b, *b, *b]\n";
        assert_eq!(yaml_records(laughs, 2_000), None);
        let deep = format!("k: {}{}\n", "[".repeat(200), "]".repeat(200));
        assert_eq!(yaml_records(&deep, 2_000), None);
    }
}
