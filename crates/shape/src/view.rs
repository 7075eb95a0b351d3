//! Views of a stored result: what `result_read` makes when the model narrows a result with
//! a `query`, a `pattern`, an `offset` or a `limit`, instead of reading the next page.
//!
//! A view is made over the whole stored result (the snapshot of its first read) and is then
//! shaped from its start like any result. Pure: bytes in, bytes out, bounded by the size of
//! what was stored.
//!
//! - `query`: RFC 9535 JSONPath over the stored JSON (`$` is the list of records).
//! - `pattern`: a case-insensitive regular expression; keeps the lines of a text (in a text
//!   of `Key: value` records, the small records holding a match), the records of a list, and
//!   in an object the members it matches. A member or record whose
//!   compact JSON is at most [`WHOLE_MEMBER_BYTES`] is kept whole when anything in it
//!   matches; a larger one is narrowed the same way, so a match deep in a large document
//!   comes back with the keys that lead to it and not with the whole branch. When any
//!   record of a list was narrowed, the view holds the records under `records` beside a
//!   `narrowed` note, which the summary shows: a narrowed record must not read as whole.
//! - `offset` and `limit`: slice the lines, records or members left.

use regex::{Regex, RegexBuilder};
use serde_json::{Map, Value};

use crate::key_blocks::blocks;
use crate::line_fields::MAX_LINES;
use crate::sections::sections;

/// Longest `query` accepted, in characters.
pub const MAX_QUERY_CHARS: usize = 500;
/// Longest `pattern` accepted, in characters.
pub const MAX_PATTERN_CHARS: usize = 200;
/// An object member at most this large (compact JSON) is kept whole when a pattern matches
/// anywhere in it; a larger one is narrowed to what matches inside.
pub const WHOLE_MEMBER_BYTES: usize = 4096;
/// A record of a text whose heading a pattern matches is kept whole up to this many times
/// [`WHOLE_MEMBER_BYTES`].
const HEADING_GROWTH: usize = 4;
/// A record narrowed by a pattern keeps its own members up to this size (JSON).
const RECORD_SCALAR_BYTES: usize = 512;
/// How deep inside a record a value the pattern spells whole names the record: a member
/// object's own values (a pod's `metadata.name`). Deeper, a value names a record of its own
/// inside this one (an item of a board's `items_page.items`), and the read is about that.
const NAMING_DEPTH: usize = 1;
/// The member beside a pattern view's records that says how many of them were narrowed.
pub(crate) const NARROWED_KEY: &str = "narrowed";
/// Most bytes a view may have, as a multiple of the stored result (plus a floor): a query
/// like `$..*` repeats nested values, and this keeps it bounded.
const VIEW_GROWTH: usize = 4;
const VIEW_FLOOR: usize = 1 << 20;

/// A view of a stored result, with what a model must know of the records a pattern
/// narrowed: they are not whole, and one can be read whole.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct View {
    /// The view (JSON or text), shaped like any result.
    pub bytes: Vec<u8>,
    /// How many of its records a pattern narrowed (said beside them under [`NARROWED_KEY`]).
    pub narrowed: usize,
    /// Where the first narrowed record is in the stored list (`$[i]` reads it whole), when
    /// the view's records are the stored list's (not a query's).
    pub first_narrowed: Option<usize>,
}

impl View {
    fn plain(bytes: Vec<u8>) -> View {
        View { bytes, narrowed: 0, first_narrowed: None }
    }
}

/// What to keep of a stored result.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ViewSpec {
    /// An RFC 9535 JSONPath query over the stored JSON.
    pub query: Option<String>,
    /// A regular expression (case-insensitive).
    pub pattern: Option<String>,
    /// Skip this many lines, records or members.
    pub offset: Option<u64>,
    /// Keep at most this many lines, records or members.
    pub limit: Option<u64>,
}

impl ViewSpec {
    /// Whether anything narrows the stored result.
    pub fn is_empty(&self) -> bool {
        self.query.is_none() && self.pattern.is_none() && self.offset.is_none() && self.limit.is_none()
    }
}

/// Why a view could not be made; each message says what to do instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ViewError {
    /// The query is not valid JSONPath, or too long.
    #[error("invalid query: {0}")]
    Query(String),
    /// The pattern is not a valid regular expression, or too long or complex.
    #[error("invalid pattern: {0}")]
    Pattern(String),
    /// A query was given for a text result.
    #[error("`query` works on JSON results; this one is text: use `pattern`, `offset` and `limit`")]
    QueryOnText,
    /// The view would be too large.
    #[error("the view would exceed {limit} bytes; narrow the query or pattern")]
    TooLarge {
        /// The bound that was hit.
        limit: usize,
    },
}

/// Make the view `spec` asks for over a stored result (a JSON value or text).
pub fn make_view(stored: &[u8], spec: &ViewSpec) -> Result<View, ViewError> {
    let limit_bytes = stored.len().saturating_mul(VIEW_GROWTH).max(VIEW_FLOOR);
    let pattern = spec.pattern.as_deref().map(compile_pattern).transpose()?;
    match serde_json::from_slice::<Value>(stored) {
        Ok(mut value) => {
            let (mut narrowed_count, mut first_narrowed) = (0, None);
            if let Some(q) = &spec.query {
                value = Value::Array(run_query(q, &value, limit_bytes)?);
            }
            let out = match value {
                Value::Object(members) => {
                    let members = match &pattern {
                        Some(re) => narrow_members(members, re),
                        None => members,
                    };
                    Value::Object(slice(members.into_iter().collect(), spec.offset, spec.limit).into_iter().collect())
                }
                Value::Array(items) => {
                    let kept = match &pattern {
                        Some(re) => narrow_items(items, re),
                        None => items.into_iter().enumerate().map(|(i, v)| (i, v, false)).collect(),
                    };
                    // Counted after the slice: a narrowed record the offset skipped is not shown.
                    let kept = slice(kept, spec.offset, spec.limit);
                    let narrowed = kept.iter().filter(|(_, _, n)| *n).count();
                    first_narrowed =
                        kept.iter().find(|(_, _, n)| *n).map(|(i, _, _)| *i).filter(|_| spec.query.is_none());
                    narrowed_count = narrowed;
                    let items = Value::Array(kept.into_iter().map(|(_, v, _)| v).collect());
                    if narrowed == 0 {
                        items
                    } else {
                        // Said beside the records, where the summary shows a wrapper's values:
                        // a record narrowed must not read as the whole record.
                        let note = format!(
                            "{narrowed} large {}: short values and what matched only; a query reads one whole",
                            if narrowed == 1 { "record" } else { "records" }
                        );
                        serde_json::json!({ NARROWED_KEY: note, "records": items })
                    }
                }
                other => {
                    let keep = pattern.as_ref().is_none_or(|re| re.is_match(&other.to_string()));
                    Value::Array(slice(if keep { vec![other] } else { Vec::new() }, spec.offset, spec.limit))
                }
            };
            let bytes = serde_json::to_vec(&out).unwrap_or_default();
            if bytes.len() > limit_bytes {
                return Err(ViewError::TooLarge { limit: limit_bytes });
            }
            Ok(View { bytes, narrowed: narrowed_count, first_narrowed })
        }
        Err(_) => {
            if spec.query.is_some() {
                return Err(ViewError::QueryOnText);
            }
            let text = String::from_utf8_lossy(stored);
            let lines: Vec<&str> = text.split_inclusive('\n').collect();
            let kept: Vec<&str> = match &pattern {
                Some(re) => matching_lines(lines, re),
                None => lines,
            };
            Ok(View::plain(slice(kept, spec.offset, spec.limit).concat().into_bytes()))
        }
    }
}

/// The lines of a text that `re` matches. In a text of `Key: value` records (`git log`,
/// `kubectl describe`) or of sections (a heading and the lines under it: a linter's file and
/// its problems, a scanned host), a match keeps its whole record when it is at most
/// [`WHOLE_MEMBER_BYTES`], as a small record of a list is kept whole: the line holding a
/// commit's hash says nothing of its author or message. A match in the heading keeps it
/// whole up to [`HEADING_GROWTH`] times that. Lines before the first record, and lines of a
/// larger record, are kept with the lines written under them ([`with_deeper_lines`]).
fn matching_lines<'a>(lines: Vec<&'a str>, re: &Regex) -> Vec<&'a str> {
    let matches = |l: &str| re.is_match(l.trim_end_matches(['\n', '\r']));
    let bare: Vec<&str> = lines.iter().map(|l| l.trim_end_matches(['\n', '\r'])).collect();
    let small = lines.len() <= MAX_LINES;
    let starts = small
        .then(|| {
            blocks(&bare).map(|b| with_lines_above(&bare, b.first_lines)).or_else(|| sections(&bare).map(|s| s.starts))
        })
        .flatten()
        .unwrap_or_default();
    // The text in segments: what comes before the first record, then each record up to the
    // next one's start.
    if starts.is_empty()
        && small
        && let Some(rows) = crate::aligned::rows_under_headers(&bare, &lines, &matches)
    {
        return rows;
    }
    let bounds: Vec<usize> = std::iter::once(0).chain(starts.iter().copied()).chain([lines.len()]).collect();
    let mut kept = Vec::new();
    for (n, pair) in bounds.windows(2).enumerate() {
        let segment = &lines[pair[0]..pair[1]];
        let is_record = n > 0;
        let bytes = segment.iter().map(|l| l.len()).sum::<usize>();
        // A record found by its heading (a file's path, a host's address) is what the read
        // is about: kept whole up to a larger size.
        let by_heading = is_record && segment.first().is_some_and(|l| matches(l));
        if is_record && bytes <= WHOLE_MEMBER_BYTES * if by_heading { HEADING_GROWTH } else { 1 } {
            if segment.iter().any(|l| matches(l)) {
                kept.extend_from_slice(segment);
            }
        } else {
            kept.extend(with_deeper_lines(segment, &matches));
        }
    }
    kept
}

/// Where `Key: value` records start, each moved up to the lines above its first key when a
/// blank line comes right before them: those lines (LDIF's `# quinn.ito, People` over its
/// `dn:`) belong to the record below, not to the one the blank line ended.
fn with_lines_above(lines: &[&str], starts: Vec<usize>) -> Vec<usize> {
    let mut moved = Vec::with_capacity(starts.len());
    let mut floor = 0;
    for start in starts {
        let mut first = start;
        while first > floor && !lines[first - 1].trim().is_empty() {
            first -= 1;
        }
        let blank_above = first > 0 && lines[first - 1].trim().is_empty();
        let at = if first < start && blank_above { first } else { start };
        moved.push(at);
        floor = start + 1;
    }
    moved
}

/// The lines of `segment` that match, each with the lines right after it that are indented
/// deeper (a list entry's items, a file's progress line, a stanza's details), up to
/// [`WHOLE_MEMBER_BYTES`] of them: what is written under a line belongs to it. Lines that
/// match inside what an earlier match brought are not repeated.
fn with_deeper_lines<'a>(segment: &[&'a str], matches: &dyn Fn(&str) -> bool) -> Vec<&'a str> {
    let indent = |l: &str| l.len() - l.trim_start_matches([' ', '\t']).len();
    let mut kept = Vec::new();
    let mut i = 0;
    while i < segment.len() {
        if !matches(segment[i]) {
            i += 1;
            continue;
        }
        let depth = indent(segment[i]);
        kept.push(segment[i]);
        let mut bytes = 0usize;
        let mut j = i + 1;
        while let Some(line) = segment.get(j) {
            let blank = line.trim().is_empty();
            if blank || indent(line) <= depth || bytes + line.len() > WHOLE_MEMBER_BYTES {
                break;
            }
            bytes += line.len();
            kept.push(line);
            j += 1;
        }
        i = j;
    }
    kept
}

/// The members of an object that `re` matches: by name (kept whole), or inside (kept whole
/// when small, else narrowed in turn). Iterative over the members, recursive over depth,
/// which the parser already bounded.
fn narrow_members(members: Map<String, Value>, re: &Regex) -> Map<String, Value> {
    let mut out = Map::new();
    for (key, value) in members {
        let member_text = member_text(&key, &value);
        if !re.is_match(&member_text) {
            continue;
        }
        if re.is_match(&Value::String(key.clone()).to_string()) || member_text.len() <= WHOLE_MEMBER_BYTES {
            out.insert(key, value);
            continue;
        }
        let narrowed = match value {
            Value::Object(inner) => Value::Object(narrow_members(inner, re)),
            Value::Array(items) => Value::Array(narrow_items(items, re).into_iter().map(|(_, v, _)| v).collect()),
            other => other,
        };
        out.insert(key, narrowed);
    }
    out
}

/// The items of a list that `re` matches; an object item larger than
/// [`WHOLE_MEMBER_BYTES`] is narrowed to its matching members, and keeps its own short
/// members besides: an item of a list is a record, and a match deep inside it is only
/// useful with the values that say which record it is and what it is (its id, title,
/// state, a small object such as its size or its owner). Only its large branches are
/// narrowed.
fn narrow_items(items: Vec<Value>, re: &Regex) -> Vec<(usize, Value, bool)> {
    items
        .into_iter()
        .enumerate()
        .filter(|(_, v)| re.is_match(&v.to_string()))
        .map(|(i, v)| match v {
            Value::Object(inner) if inner_len(&inner) > WHOLE_MEMBER_BYTES => {
                // Found by one of its own values (its key, id or name): the read is about this
                // record, so each large branch keeps its short values too (an issue's
                // `fields.summary` beside the `fields.watches` link that holds its key). So is
                // a record found by a value the pattern spells whole one level down (a pod's
                // `metadata.name`, [`NAMING_DEPTH`]): the pattern names it, where a match
                // inside a longer value (a link, a sentence) only says where a word occurs.
                let named = inner.iter().any(|(k, v)| {
                    !v.is_object() && !v.is_array() && is_short_member(v) && re.is_match(&member_text(k, v))
                }) || inner.values().any(|v| spelled_whole(v, re, NAMING_DEPTH));
                (i, Value::Object(keep_short_and_matching(inner, re, named)), true)
            }
            other => (i, other, false),
        })
        .collect()
}

/// `record`'s short members and, narrowed, those that match, in its own order; with
/// `branches`, its large members too, down to their short values at every depth (objects
/// and lists of them), so only long leaves (a description, a certificate) are left out.
fn keep_short_and_matching(record: Map<String, Value>, re: &Regex, branches: bool) -> Map<String, Value> {
    let mut out = Map::new();
    for (key, value) in record {
        if is_short_member(&value) {
            out.insert(key, value);
            continue;
        }
        let matches = re.is_match(&member_text(&key, &value));
        match value {
            Value::Object(inner) if branches => {
                let kept = keep_short_and_matching(inner, re, true);
                if !kept.is_empty() {
                    out.insert(key, Value::Object(kept));
                }
            }
            Value::Array(items) if branches => {
                let kept: Vec<Value> = items
                    .into_iter()
                    .filter_map(|item| match item {
                        Value::Object(m) => Some(Value::Object(keep_short_and_matching(m, re, true))),
                        v if is_short_member(&v) => Some(v),
                        _ => None,
                    })
                    .filter(|v| !matches!(v, Value::Object(m) if m.is_empty()))
                    .collect();
                if !kept.is_empty() {
                    out.insert(key, Value::Array(kept));
                }
            }
            value if matches => {
                if let Some((k, v)) = narrow_members(Map::from_iter([(key, value)]), re).into_iter().next() {
                    out.insert(k, v);
                }
            }
            _ => {}
        }
    }
    out
}

/// Whether `re`'s first match is the whole of a short scalar inside `value` (a string's
/// text, a number as written), looking at most `depth` levels of objects and lists down.
fn spelled_whole(value: &Value, re: &Regex, depth: usize) -> bool {
    match value {
        Value::String(s) if s.len() + 2 <= RECORD_SCALAR_BYTES => re.find(s).is_some_and(|m| m.len() == s.len()),
        Value::Number(n) => {
            let text = n.to_string();
            re.find(&text).is_some_and(|m| m.len() == text.len())
        }
        Value::Object(members) if depth > 0 => members.values().any(|v| spelled_whole(v, re, depth - 1)),
        Value::Array(items) if depth > 0 => items.iter().any(|v| spelled_whole(v, re, depth - 1)),
        _ => false,
    }
}

/// A member as a pattern sees it: `"key":value`.
fn member_text(key: &str, value: &Value) -> String {
    format!("{}:{value}", Value::String(key.to_owned()))
}

/// A value that is not null or empty and is at most [`RECORD_SCALAR_BYTES`] as JSON.
fn is_short_member(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::String(s) => s.len() + 2 <= RECORD_SCALAR_BYTES,
        Value::Number(_) | Value::Bool(_) => true,
        Value::Array(a) if a.is_empty() => false,
        Value::Object(m) if m.is_empty() => false,
        other => approx_size(other, RECORD_SCALAR_BYTES + 1) <= RECORD_SCALAR_BYTES,
    }
}

fn inner_len(m: &Map<String, Value>) -> usize {
    m.iter().map(|(k, v)| k.len() + v.to_string().len() + 4).sum()
}

fn compile_pattern(p: &str) -> Result<Regex, ViewError> {
    if p.chars().count() > MAX_PATTERN_CHARS {
        return Err(ViewError::Pattern(format!("at most {MAX_PATTERN_CHARS} characters")));
    }
    // Bounded compiled size: a hostile pattern cannot make the regex engine take much memory.
    RegexBuilder::new(p)
        .case_insensitive(true)
        .size_limit(1 << 20)
        .dfa_size_limit(1 << 20)
        .build()
        .map_err(|e| ViewError::Pattern(e.to_string().lines().last().unwrap_or("not a regular expression").to_owned()))
}

fn run_query(q: &str, value: &Value, limit_bytes: usize) -> Result<Vec<Value>, ViewError> {
    if q.chars().count() > MAX_QUERY_CHARS {
        return Err(ViewError::Query(format!("at most {MAX_QUERY_CHARS} characters")));
    }
    let path = serde_json_path::JsonPath::parse(q.trim()).map_err(|e| {
        ViewError::Query(format!("{e} (write RFC 9535 JSONPath starting with `$`, like `$[?@.state == 'open'].title`)"))
    })?;
    let mut out = Vec::new();
    let mut size = 0usize;
    for v in path.query(value).all() {
        // Counted before cloning, so a query that repeats huge subtrees stops early.
        size = size.saturating_add(approx_size(v, limit_bytes));
        if size > limit_bytes {
            return Err(ViewError::TooLarge { limit: limit_bytes });
        }
        out.push(v.clone());
    }
    Ok(out)
}

/// The serialized size of `v` (compact JSON), counted only up to `cap`: past it the count
/// stops, so the cost follows `cap`, not `v`. Nothing is allocated.
pub(crate) fn approx_size(v: &Value, cap: usize) -> usize {
    struct Counter {
        n: usize,
        cap: usize,
    }
    impl std::io::Write for Counter {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.n += b.len();
            if self.n > self.cap { Err(std::io::Error::other("over")) } else { Ok(b.len()) }
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut c = Counter { n: 0, cap };
    let _ = serde_json::to_writer(&mut c, v);
    c.n
}

fn slice<T>(items: Vec<T>, offset: Option<u64>, limit: Option<u64>) -> Vec<T> {
    let skip = usize::try_from(offset.unwrap_or(0)).unwrap_or(usize::MAX);
    let take = limit.map_or(usize::MAX, |l| usize::try_from(l).unwrap_or(usize::MAX));
    items.into_iter().skip(skip).take(take).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn view(stored: &Value, spec: ViewSpec) -> Value {
        serde_json::from_slice(&make_view(stored.to_string().as_bytes(), &spec).unwrap().bytes).unwrap()
    }

    /// A pattern view whose records were narrowed: the records, after checking the note.
    fn narrowed(v: Value, count: usize) -> Value {
        let note = v[NARROWED_KEY].as_str().unwrap_or_default().to_owned();
        assert!(note.starts_with(&format!("{count} large record")), "{v}");
        v["records"].clone()
    }

    fn pattern(p: &str) -> ViewSpec {
        ViewSpec { pattern: Some(p.into()), ..ViewSpec::default() }
    }

    fn text_view(text: &str, p: &str) -> String {
        String::from_utf8(make_view(text.as_bytes(), &pattern(p)).unwrap().bytes).unwrap()
    }

    fn git_log(message_lines: usize) -> String {
        let mut log = String::new();
        for (i, author) in ["Ada Berg", "Lin Ito", "Ada Berg", "Kofi Dube"].iter().enumerate() {
            log.push_str(&format!(
                "commit {i}f3bb7e07904d3ca49b3facdfaeb18bbb06c420d\nAuthor: {author} <x@example.org>\n"
            ));
            log.push_str(&format!("Date:   Wed Dec 3{i} 19:19:25 2025 +0000\n\n"));
            for n in 0..message_lines {
                log.push_str(&format!("    fix: change {i}.{n}\n"));
            }
            log.push_str(&format!("\n src/lib.rs | {} ++--\n 1 file changed\n\n", i + 3));
        }
        log
    }

    #[test]
    fn a_comment_over_a_record_is_read_with_the_record_below_it() {
        let mut ldif = String::from("# extended LDIF\n\n");
        for u in ["ada", "lin", "kofi", "mei"] {
            ldif.push_str(&format!("# {u}, People\ndn: uid={u},ou=People\nobjectClass: top\nobjectClass: person\nuid: {u}\ntitle: T-{u}\n\n"));
        }
        let got = text_view(&ldif, "kofi");
        assert!(got.starts_with("# kofi, People\ndn: uid=kofi"), "{got}");
        assert!(got.contains("title: T-kofi") && !got.contains("lin"), "only kofi's entry: {got}");
    }

    #[test]
    fn a_pattern_keeps_the_whole_key_value_record_it_matches() {
        let got = text_view(&git_log(1), "2f3bb7e0790");
        assert!(got.starts_with("commit 2f3bb7e07904"), "{got}");
        assert!(got.contains("Author: Ada Berg") && got.contains("fix: change 2.0") && got.contains("1 file changed"));
        assert!(!got.contains("commit 1f3b") && !got.contains("commit 3f3b"), "{got}");
        // Two matching records, each once, in order.
        let got = text_view(&git_log(1), "Ada Berg");
        assert_eq!(got.matches("commit ").count(), 2, "{got}");
        assert!(got.find("change 0.0") < got.find("change 2.0"));
    }

    #[test]
    fn a_large_record_and_plain_text_keep_only_matching_lines() {
        // Found by its heading, a record is kept whole up to four times the size of one
        // found by a line inside it; larger, only the matching lines.
        let got = text_view(&git_log(200), "2f3bb7e0790");
        assert!(
            got.starts_with("commit 2f3bb7e0790")
                && got.contains("change 2.199")
                && got.ends_with("1 file changed\n\n")
        );
        let got = text_view(&git_log(200), "change 2.17$");
        assert_eq!(got, "    fix: change 2.17\n");
        let got = text_view(&git_log(900), "2f3bb7e0790");
        assert_eq!(got, "commit 2f3bb7e07904d3ca49b3facdfaeb18bbb06c420d\n");
        let log: String = (0..40).map(|i| format!("2025-12-01 INFO request {i} done\n")).collect();
        assert_eq!(text_view(&log, "request 17 "), "2025-12-01 INFO request 17 done\n");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(128))]

        /// Over texts of `Key: value` lines and free lines, a pattern view keeps every line
        /// that matches, adds only whole records that hold a match, and keeps the text's
        /// order: it is the matching lines' records, never a rewrite.
        #[test]
        fn a_pattern_view_keeps_every_match_in_order(
            lines in proptest::collection::vec(
                proptest::prop_oneof![
                    "Name: [a-c]{1,3}\nKind: [a-c]{1,3}\nStatus: [a-c]{1,3}",
                    "(Name|Kind|Status): [a-c]{1,3}",
                    "  [a-c ]{0,12}",
                    "[a-c]{0,8}",
                    proptest::strategy::Just(String::new()),
                ],
                0..80,
            ),
            needle in "[a-c]{1,2}",
        ) {
            let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
            let got = text_view(&text, &needle);
            let kept: Vec<&str> = got.split_inclusive('\n').collect();
            let all: Vec<&str> = text.split_inclusive('\n').collect();
            // In order: each kept line is found after the one before it.
            let mut at = 0;
            for line in &kept {
                let found = all[at..].iter().position(|l| l == line);
                proptest::prop_assert!(found.is_some(), "{:?} is not in the text after line {}", line, at);
                at += found.unwrap_or_default() + 1;
            }
            let matching = all.iter().filter(|l| l.to_lowercase().contains(&needle)).count();
            let kept_matching = kept.iter().filter(|l| l.to_lowercase().contains(&needle)).count();
            proptest::prop_assert_eq!(kept_matching, matching);
            // Without records or sections, exactly the matching lines and the lines written
            // under one: a line is kept when it matches, or when every line from a matching
            // one above it down to it is filled and indented deeper than that one.
            let bare: Vec<&str> = text.lines().collect();
            if blocks(&bare).is_none() && sections(&bare).is_none() {
                let indent = |l: &str| l.len() - l.trim_start().len();
                let hit = |l: &str| l.to_lowercase().contains(&needle);
                let under = |k: usize| {
                    (0..k).any(|i| {
                        hit(bare[i]) && bare[i + 1..=k].iter().all(|l| !l.trim().is_empty() && indent(l) > indent(bare[i]))
                    })
                };
                let expected: Vec<&str> =
                    (0..bare.len()).filter(|&k| hit(bare[k]) || under(k)).map(|k| all[k]).collect();
                proptest::prop_assert_eq!(kept, expected);
            }
        }
    }

    #[test]
    fn records_queries_patterns_and_slices() {
        let stored = json!([{"n": 1, "state": "open"}, {"n": 2, "state": "closed", "t": "CRASH"}, {"n": 3, "state": "open", "t": "crash"}]);
        assert_eq!(
            view(&stored, ViewSpec { query: Some("$[?@.state == 'open'].n".into()), ..ViewSpec::default() }),
            json!([1, 3])
        );
        assert_eq!(
            view(&stored, ViewSpec { offset: Some(1), ..pattern("CRASH") }),
            json!([{"n": 3, "state": "open", "t": "crash"}])
        );
        assert_eq!(
            view(&stored, ViewSpec { limit: Some(1), ..ViewSpec::default() }),
            json!([{"n": 1, "state": "open"}])
        );
        assert!(matches!(make_view(b"[]", &pattern("(")), Err(ViewError::Pattern(_))));
    }

    #[test]
    fn a_match_deep_in_a_large_object_keeps_the_keys_that_lead_to_it() {
        let mut paths = Map::new();
        for k in 0..200 {
            paths.insert(
                format!("/v1/items{k}"),
                json!({"get": {"operationId": format!("getItem{k}"), "description": "x".repeat(40)}}),
            );
        }
        let doc = json!({"openapi": "3.0.3", "paths": paths});
        let v = view(&doc, pattern("getItem117\\b"));
        assert_eq!(
            v,
            json!({"paths": {"/v1/items117": {"get": {"operationId": "getItem117", "description": "x".repeat(40)}}}})
        );
        // A small object is filtered by its members, each kept whole.
        assert_eq!(view(&json!({"a": {"x": 1}, "b": 2}), pattern("x")), json!({"a": {"x": 1}}));
    }

    #[test]
    fn a_large_record_found_deep_inside_keeps_the_values_that_name_it() {
        let record = |n: u64| json!({"number": n, "title": format!("issue {n}"), "body": "b".repeat(900), "links": {"self": format!("https://x/issues/{n}"), "pad": "p".repeat(5000)}});
        let stored = json!([record(1), record(2), record(3)]);
        let v = narrowed(view(&stored, pattern("issues/2\\b")), 1);
        assert_eq!(v, json!([{"number": 2, "title": "issue 2", "links": {"self": "https://x/issues/2"}}]));
    }

    #[test]
    fn a_large_record_found_by_its_name_keeps_its_small_objects() {
        // A virtual machine: its size sits in a small object of its own; its key data is large.
        let record = |n: u64| json!({"name": format!("vm-{n}"), "hardwareProfile": {"vmSize": "Standard_F8s_v2", "extra": null}, "identity": null, "osProfile": {"keys": "k".repeat(6000)}});
        let stored = json!([record(1), record(2)]);
        let v = narrowed(view(&stored, pattern("vm-2\\b")), 1);
        assert_eq!(v, json!([{"name": "vm-2", "hardwareProfile": {"vmSize": "Standard_F8s_v2", "extra": null}}]));
    }

    /// Regression: a Jira issue found by its key came back with only the members whose
    /// links held the key (`fields.watches`), without its summary.
    #[test]
    fn a_large_record_found_by_its_own_key_keeps_the_short_values_of_its_branches() {
        let record = |n: u64| {
            json!({"key": format!("PAY-{n}"), "fields": {
                "summary": format!("issue {n}"),
                "watches": {"self": format!("https://x/issue/PAY-{n}/watchers"), "watchCount": 1},
                "description": "d".repeat(6000),
            }})
        };
        let stored = json!([record(1), record(2)]);
        let v = narrowed(view(&stored, pattern("PAY-2\\b")), 1);
        assert_eq!(
            v,
            json!([{"key": "PAY-2", "fields": {"summary": "issue 2", "watches": {"self": "https://x/issue/PAY-2/watchers", "watchCount": 1}}}])
        );
        // Found only deep inside, a record keeps what matched there and its own short values.
        let v = narrowed(view(&stored, pattern("PAY-2/watchers")), 1);
        assert_eq!(
            v,
            json!([{"key": "PAY-2", "fields": {"watches": {"self": "https://x/issue/PAY-2/watchers", "watchCount": 1}}}])
        );
    }

    /// Regression: a Kubernetes pod found by its `metadata.name` came back with its metadata
    /// alone, without `spec.nodeName`, and said nothing of what it had left out.
    #[test]
    fn a_record_named_inside_its_own_metadata_keeps_its_other_branches() {
        let pod = |name: &str, node: &str| {
            json!({"kind": "Pod", "metadata": {"name": name, "managedFields": "m".repeat(5000)},
                   "spec": {"nodeName": node, "containers": [{"name": "app", "image": "app:1"}], "script": "s".repeat(600)},
                   "status": {"phase": "Running"}})
        };
        let stored = json!([pod("api-1", "node-a"), pod("api-2", "node-b")]);
        let v = narrowed(view(&stored, pattern("api-2")), 1);
        assert_eq!(
            v,
            json!([{"kind": "Pod", "metadata": {"name": "api-2"},
                    "spec": {"nodeName": "node-b", "containers": [{"name": "app", "image": "app:1"}]},
                    "status": {"phase": "Running"}}])
        );
        // Only its long leaves are left out (`spec.script`), and the note (checked by
        // `narrowed`) says so.
        // A value of a record inside the record (an item of a board) names that item, not the
        // board: the board keeps only what leads to the match and its own short values.
        let board = json!([{"name": "board", "items": [
            {"name": "api-2", "owner": "Ana"}, {"name": "web", "owner": "Bo", "notes": "n".repeat(5000)},
        ]}]);
        let v = narrowed(view(&board, pattern("api-2")), 1);
        assert_eq!(v, json!([{"name": "board", "items": [{"name": "api-2", "owner": "Ana"}]}]));
        // Small records come back as they were, with no note.
        let small = json!([{"name": "api-2", "spec": {"nodeName": "node-b"}}, {"name": "web"}]);
        assert_eq!(view(&small, pattern("api-2")), json!([{"name": "api-2", "spec": {"nodeName": "node-b"}}]));
    }

    /// Regression: a MongoDB Atlas cluster found by its name lost its `replicationSpecs`
    /// (a list of objects, larger than a short member), where its instance size sits.
    #[test]
    fn a_record_found_by_its_name_keeps_the_short_values_inside_its_lists() {
        let record = |name: &str| {
            json!({"name": name, "replicationSpecs": [{"zoneName": "Zone 1", "regionConfigs": [
                {"electableSpecs": {"instanceSize": "M80", "diskSizeGB": 640}, "certificate": "c".repeat(3000)},
                {"readOnlySpecs": {"instanceSize": "M40"}, "notes": "n".repeat(2000)},
            ]}]})
        };
        let stored = json!([record("search-prod"), record("orders-prod")]);
        let v = narrowed(view(&stored, pattern("search-prod")), 1);
        assert_eq!(
            v,
            json!([{"name": "search-prod", "replicationSpecs": [{"zoneName": "Zone 1", "regionConfigs": [
                {"electableSpecs": {"instanceSize": "M80", "diskSizeGB": 640}},
                {"readOnlySpecs": {"instanceSize": "M40"}},
            ]}]}])
        );
    }

    #[test]
    fn an_entry_found_by_its_first_line_comes_with_the_lines_under_it() {
        // `redis-cli SLOWLOG GET`: entries numbered to the right, their fields below.
        let mut log = String::new();
        for (n, id) in [(1, 903), (2, 902), (10, 894), (100, 803)] {
            log.push_str(&format!("{n:>3}) 1) (integer) {id}\n     2) (integer) 17672{id}\n"));
            log.push_str(&format!("     3) (integer) {}\n     4) 1) \"GET\"\n        2) \"k:{id}\"\n", id * 3));
        }
        assert_eq!(
            text_view(&log, r"\(integer\) 894$"),
            " 10) 1) (integer) 894\n     2) (integer) 17672894\n     3) (integer) 2682\n     4) 1) \"GET\"\n        2) \"k:894\"\n"
        );
    }

    #[test]
    fn a_file_found_in_a_transfer_log_comes_with_its_progress_line() {
        let mut log = String::from("sending incremental file list\n");
        for folder in ["invoices", "photos", "raw"] {
            log.push_str(&format!("{folder}/\n"));
            for n in 0..6 {
                log.push_str(&format!("{folder}/f{n}.bin\n        {n},512 100%   3.{n}0MB/s    0:00:00 (xfr#{n})\n"));
            }
        }
        assert_eq!(
            text_view(&log, r"photos/f3\.bin"),
            "photos/f3.bin\n        3,512 100%   3.30MB/s    0:00:00 (xfr#3)\n"
        );
    }

    #[test]
    fn text_keeps_matching_lines_and_refuses_queries() {
        let stored = b"INFO start\nerror: one\nWARN two\nerror: three\n";
        assert_eq!(make_view(stored, &pattern("^error")).unwrap().bytes, b"error: one\nerror: three\n");
        assert_eq!(
            make_view(stored, &ViewSpec { offset: Some(1), limit: Some(2), ..ViewSpec::default() }).unwrap().bytes,
            b"error: one\nWARN two\n"
        );
        assert_eq!(
            make_view(stored, &ViewSpec { query: Some("$".into()), ..ViewSpec::default() }),
            Err(ViewError::QueryOnText)
        );
    }

    /// A pattern view says how many records it narrowed and where the first is in the
    /// stored list, so that the answer can be marked partial and offer the record whole.
    #[test]
    fn a_view_says_which_records_the_pattern_narrowed() {
        let big = |id: u32| json!({"id": format!("vm-{id}"), "log": "x".repeat(WHOLE_MEMBER_BYTES), "tag": "blue"});
        let stored = json!([{"id": "vm-0", "tag": "blue"}, big(1), {"id": "vm-2"}, big(3)]).to_string();
        let v = make_view(stored.as_bytes(), &pattern("blue")).unwrap();
        assert_eq!((v.narrowed, v.first_narrowed), (2, Some(1)));
        // The offset skips the first narrowed record: the second is the one to read whole.
        let spec = ViewSpec { offset: Some(2), ..pattern("blue") };
        let v = make_view(stored.as_bytes(), &spec).unwrap();
        assert_eq!((v.narrowed, v.first_narrowed), (1, Some(3)));
        // Nothing narrowed, and a query's records are not the stored list's.
        let v = make_view(stored.as_bytes(), &pattern("vm-2")).unwrap();
        assert_eq!((v.narrowed, v.first_narrowed), (0, None));
        let spec = ViewSpec { query: Some("$[1:]".into()), ..pattern("blue") };
        let v = make_view(stored.as_bytes(), &spec).unwrap();
        assert_eq!((v.narrowed, v.first_narrowed), (2, None));
        let v = make_view(b"one blue line\nanother\n", &pattern("blue")).unwrap();
        assert_eq!((v.narrowed, v.first_narrowed), (0, None));
    }
}
