//! The first record's short values that a compact view leaves out of every record.
//!
//! A compact first read drops what a model rarely needs first (hashes, second ids, paths of
//! a container's files, settings), and says which fields it dropped. A question about the
//! first record ("what is the first entry's sha", "which restart policy has the first
//! container") then needs a read with full fields. The first record is also the one a
//! model learns the records' shape from, so the first read shows its short left-out values
//! beside the rows, named by their path and led by the record's key: one record seen whole
//! in its strings, for a bounded price.

use serde_json::{Map, Value};

use crate::compact::{is_opaque, is_url};

/// A value longer than this (in characters) is not short: text, a link with a token, a
/// certificate. A SHA-256 in hex (64) still is.
const SHORT_CHARS: usize = 64;
/// The values said, at most, in characters of their names and values together: a few
/// hundred tokens of a budget of thousands.
const MAX_CHARS: usize = 800;
/// Objects deeper than this are not walked.
const MAX_DEPTH: usize = 6;

/// The short strings of `record` whose path (members joined by `.`) `shown` does not
/// hold, in the record's order, led by `key` (the column that names records, and its value
/// in this record) when there is one. `None` when there are none.
///
/// A value other records repeat is said too: the facets that would count it may have had
/// no room (over the evaluation catalog, leaving such values out lost a container's
/// restart policy and a repository's description and gained one lookup).
pub(crate) fn first_left_out(
    record: &Value,
    shown: &dyn Fn(&str) -> bool,
    key: Option<(&str, &Value)>,
) -> Option<Map<String, Value>> {
    let mut walk = Walk { shown, depth: 0, path: String::new(), out: Map::new(), room: MAX_CHARS };
    walk.value(record);
    let out = walk.out;
    if out.is_empty() {
        return None;
    }
    let Some((name, value)) = key.filter(|(name, _)| !out.contains_key(*name)) else { return Some(out) };
    let mut led = Map::new();
    led.insert(name.to_owned(), value.clone());
    led.extend(out);
    Some(led)
}

struct Walk<'a> {
    shown: &'a dyn Fn(&str) -> bool,
    /// How deep the value being walked is, and its path.
    depth: usize,
    path: String,
    out: Map<String, Value>,
    /// Characters left to say values in.
    room: usize,
}

impl Walk<'_> {
    fn value(&mut self, v: &Value) {
        match v {
            Value::Object(m) if self.depth < MAX_DEPTH => {
                for (k, child) in m {
                    let before = self.path.len();
                    if !self.path.is_empty() {
                        self.path.push('.');
                    }
                    self.path.push_str(k);
                    self.depth += 1;
                    // A member the view shows whole (an object collapsed to its name, a
                    // list) is not taken apart here.
                    if !(self.shown)(&self.path) {
                        self.value(child);
                    }
                    self.depth -= 1;
                    self.path.truncate(before);
                    if self.room == 0 {
                        return;
                    }
                }
            }
            // Numbers and yes-or-no values are left to the facets, which count them over
            // every record (values, extremes) whether the rows show them or not; strings
            // that name or identify (a hash, a policy's name) are not counted when each
            // record has its own.
            Value::String(s) if is_said(s) => self.take(v, s.len()),
            _ => {}
        }
    }

    /// Say `v` under the path when the room holds it; the first value that does not fit
    /// ends the list (the values after it would come out of order).
    fn take(&mut self, v: &Value, len: usize) {
        if self.path.is_empty() {
            return;
        }
        let cost = self.path.len() + len + 6;
        if cost > self.room {
            self.room = 0;
            return;
        }
        self.room -= cost;
        self.out.insert(self.path.clone(), v.clone());
    }
}

/// Whether a string is worth saying: short and not empty; not a link (the view leaves
/// hypermedia out, and a record's links are made of its other values); and when random-
/// looking, a hex digest or a UUID (a commit's or a blob's hash, named in questions and
/// commands), not an encoded id (a GraphQL node id duplicates the record's plain id).
fn is_said(s: &str) -> bool {
    let hex = || s.bytes().all(|b| b.is_ascii_hexdigit() || b == b'-');
    !s.is_empty() && s.chars().count() <= SHORT_CHARS && !is_url(s) && (!is_opaque(s) || hex())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn short_values_not_shown_are_said_in_order_led_by_the_key() {
        let record = json!({
            "path": ".editorconfig",
            "mode": "100644",
            "sha": "e88eab3d9b51c79268db972b715410cdbcf5035a",
            "url": "https://api.github.com/repos/globex/commerce/git/blobs/e88eab3d",
            "node_id": "MDQ6VXNlcjE4ODc0Mg==",
            "size": 2421,
            "HostConfig": {"RestartPolicy": {"Name": "no", "MaximumRetryCount": 0}, "Binds": null, "Dns": []},
            "note": ""
        });
        let shown = |p: &str| matches!(p, "path" | "mode" | "size");
        let said = first_left_out(&record, &shown, Some(("path", &json!(".editorconfig")))).expect("values");
        let keys: Vec<&str> = said.keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            vec!["path", "sha", "HostConfig.RestartPolicy.Name"],
            "no numbers, no empty values, no links, no encoded ids"
        );
        assert_eq!(said["sha"], json!("e88eab3d9b51c79268db972b715410cdbcf5035a"));
    }

    #[test]
    fn a_member_shown_whole_is_not_taken_apart_and_nothing_left_is_none() {
        let record = json!({"user": {"login": "ada", "id": 7}, "title": "t"});
        let shown = |p: &str| matches!(p, "user" | "title");
        assert!(first_left_out(&record, &shown, None).is_none());
    }

    #[test]
    fn the_values_said_stay_within_their_room() {
        let mut record = Map::new();
        for i in 0..200 {
            record.insert(format!("field_{i:03}"), json!(format!("value number {i}")));
            record.insert(format!("count_{i:03}"), json!(i + 1));
        }
        let said = first_left_out(&Value::Object(record), &|_: &str| false, None).expect("values");
        let chars: usize = said.iter().map(|(k, v)| k.len() + v.to_string().len()).sum();
        assert!(chars <= MAX_CHARS && said.len() > 10, "{said:?}");
        assert!(said.contains_key("field_000") && !said.contains_key("field_199"), "in order");
        assert!(!said.contains_key("count_000"), "numbers are the facets' to say");
    }
}
