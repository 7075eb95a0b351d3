//! The questions asked of the twenty-fourth part's second half: the output of
//! command-line tools. `docker inspect` prints JSON and is asked about as it is
//! (`cli/docker.rs`); `ip addr show`, `kubectl get all -A` and ffprobe's frame listing
//! are text, read back into records first (`cli/readers.rs`) and asked about as a user of
//! each tool would ask (`cli/ipaddr.rs`, `cli/kubectl.rs`, `cli/ffprobe.rs`). Every
//! answer is computed from the result.

mod docker;
mod ffprobe;
mod ipaddr;
mod kubectl;
mod readers;

#[cfg(test)]
mod tests;

use serde_json::Value;

use crate::question::{Kind, Question, text, value};
use crate::questions_blind::{at, together};

/// The values of `fields` of a record, each present and not empty, or `None`.
fn fields_of(x: &Value, fields: &[&str]) -> Option<Vec<String>> {
    fields.iter().map(|f| value(x, f).map(text).filter(|s| !s.is_empty())).collect()
}

/// A question about one record (at an end of a list, for `kind` head or tail), answered by
/// the values of `fields` together.
fn about_record(x: Option<&Value>, kind: Kind, q: &str, fields: &[&str]) -> Option<Question> {
    let must = fields_of(x?, fields)?;
    let must: Vec<&str> = must.iter().map(String::as_str).collect();
    Some(together(kind, q.to_owned(), None, &must))
}

/// A lookup of the record about `f` (0..1) of the way down `list` whose `key` no other
/// record shares: `q` with `{key}` replaced, answered by the key and the values of
/// `answers` together. Records lacking an answer are passed over.
fn lookup(list: &[Value], f: f64, q: &str, key: &str, answers: &[&str]) -> Option<Question> {
    let n = list.len();
    let start = at(n, f);
    let key_of = |x: &Value| value(x, key).map(text).filter(|s| !s.is_empty());
    (start..n).chain(0..start).find_map(|i| {
        let k = key_of(&list[i])?;
        if list.iter().filter(|x| key_of(x).as_deref() == Some(k.as_str())).count() != 1 {
            return None;
        }
        let mut must = vec![k.clone()];
        must.extend(fields_of(&list[i], answers)?);
        let must: Vec<&str> = must.iter().map(String::as_str).collect();
        Some(together(Kind::Lookup, q.replace("{key}", &k), Some(&k), &must))
    })
}

/// The record `back` places before the last of a list (0 is the last).
fn from_end(list: &[Value], back: usize) -> Option<&Value> {
    list.len().checked_sub(back + 1).and_then(|i| list.get(i))
}

/// Every question about this half's JSON results; `None` for other shapes.
pub(super) fn json_questions(name: &str, v: &Value) -> Option<Vec<Question>> {
    let qs = match name {
        "docker_inspect" => docker::docker_questions(v),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}

/// Every question about this half's text results; `None` for other shapes.
pub(super) fn text_questions(name: &str, t: &str) -> Option<Vec<Question>> {
    let qs = match name {
        "ip_addr_show" => ipaddr::ip_addr_questions(t),
        "kubectl_get_all" => kubectl::kubectl_questions(t),
        "ffprobe_frames" => ffprobe::ffprobe_questions(t),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}
