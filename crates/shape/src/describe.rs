//! The words of an envelope around records or object members: summaries ("20 of 1,412
//! issues, by updated_at descending; more with next"), what was omitted, and the `next` call.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::aggregate::Aggregate;
use crate::auto::AutoView;
use crate::context::{Resume, ShapeContext};
use crate::envelope::{Data, Envelope, Omitted, Original, Status};
use crate::input::Wrapper;
use crate::numfmt::{bytes as fmt_bytes, thousands};
use crate::plan::{ShapePlan, SortOrder};
use crate::record_index::{BEFORE_LAST_ROWS, LazyIndex};

/// The noun for a count of one: `issues` → `issue`, `entries` → `entry`, `matches` →
/// `match`, `boxes` → `box`. Nouns that do not end in `s`, or end in `ss`, are kept.
fn singular(noun: &str) -> Cow<'_, str> {
    if noun.ends_with("ss") || noun.len() < 2 {
        return Cow::Borrowed(noun);
    }
    if let Some(stem) = noun.strip_suffix("ies").filter(|s| !s.is_empty()) {
        return Cow::Owned(format!("{stem}y"));
    }
    for suffix in ["sses", "shes", "ches", "xes", "zes"] {
        if noun.ends_with(suffix) {
            return Cow::Borrowed(&noun[..noun.len() - 2]);
        }
    }
    Cow::Borrowed(noun.strip_suffix('s').filter(|n| !n.is_empty()).unwrap_or(noun))
}

/// A list's name as the noun for its records, when it is a plural word or two: `spans`,
/// `line_items` → `line items`, `pullRequests` → `pull requests`. Anything else (`data`,
/// `status`, `x1`) names nothing.
fn list_noun(name: &str) -> Option<String> {
    if !(3..=32).contains(&name.len()) || !name.bytes().all(|b| b.is_ascii_alphabetic() || b == b'_') {
        return None;
    }
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    for c in name.chars() {
        let starts_word =
            c == '_' || (c.is_ascii_uppercase() && word.chars().last().is_some_and(|l| l.is_ascii_lowercase()));
        if starts_word && !word.is_empty() {
            words.push(std::mem::take(&mut word));
        }
        if c != '_' {
            word.push(c.to_ascii_lowercase());
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    let last = words.last()?;
    let plural = last.len() >= 3 && last.ends_with('s') && !["ss", "us", "is"].iter().any(|e| last.ends_with(e));
    (plural && words.len() <= 3).then(|| words.join(" "))
}

pub(crate) fn kind_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "list",
        Value::Object(_) => "object",
    }
}

fn member_range(start: u64, shown: u64) -> String {
    if shown == 0 { "none".into() } else { format!("{}-{}", thousands(start + 1), thousands(start + shown)) }
}

/// Writes summaries and envelopes for a list of records.
pub(crate) struct Describe<'a> {
    pub(crate) plan: &'a ShapePlan,
    pub(crate) wrapper: &'a Wrapper,
    pub(crate) aggregate: Option<&'a Aggregate>,
    pub(crate) total: u64,
    pub(crate) before_filter: u64,
    pub(crate) start: u64,
    /// Where reading stops: the total, or before records a first read already showed.
    pub(crate) end: u64,
    /// The view the data decided, for a plan that names no fields.
    pub(crate) auto: Option<&'a AutoView>,
    /// A first read's index of the records after its rows, when the fit made one.
    pub(crate) index: Option<&'a LazyIndex<'a>>,
}

impl<'a> Describe<'a> {
    /// What the records are called: the plan's noun; when the data decides the view, the
    /// name of the list they were found in if that is a plural word (`515 spans`); else
    /// `records`.
    pub(crate) fn noun(&self) -> Cow<'a, str> {
        if let Some(noun) = &self.plan.noun {
            return Cow::Borrowed(noun);
        }
        let named = self.auto.and(self.wrapper.list_name.as_deref()).and_then(list_noun);
        named.map_or(Cow::Borrowed("records"), Cow::Owned)
    }

    /// What the summary adds after the count; `paging`: a next page of records follows.
    fn qualifiers_for(&self, paging: bool) -> String {
        let mut q = String::new();
        if let Some(f) = &self.plan.filter {
            q.push_str(&format!(" matching `{}` (of {})", f.as_str(), thousands(self.before_filter)));
        }
        if let Some(s) = &self.plan.sort {
            let dir = match s.order {
                SortOrder::Asc => "ascending",
                SortOrder::Desc => "descending",
            };
            q.push_str(&format!(", by {} {dir}", s.by));
        }
        if let Some(a) = self.aggregate {
            let details = a.details();
            if !details.is_empty() {
                q.push_str("; ");
                q.push_str(&details);
            }
        }
        if !self.wrapper.notes.is_empty() {
            q.push_str(&format!(" ({})", self.wrapper.notes.join(", ")));
        }
        if let Some(a) = self.auto {
            q.push_str(&a.qualifiers(paging));
        }
        // Last, so that the clauses after a list's name are all about that list.
        for list in &self.wrapper.lists {
            q.push_str("; beside them, ");
            q.push_str(list);
        }
        if let Some(p) = &self.wrapper.path_missing {
            q.push_str(&format!(" [records path `{p}` not found; records located automatically]"));
        }
        q
    }

    pub(crate) fn complete(&self, shown: u64) -> String {
        let noun = self.noun();
        let noun = if self.total == 1 { singular(&noun) } else { Cow::Borrowed(noun.as_ref()) };
        if self.start > 0 {
            format!(
                "{noun} {} of {}{}",
                member_range(self.start, shown),
                thousands(self.total),
                self.qualifiers_for(false)
            )
        } else {
            format!("{} {noun}{}", thousands(self.total), self.qualifiers_for(false))
        }
    }

    pub(crate) fn empty(&self) -> String {
        let noun = self.noun();
        match &self.plan.filter {
            Some(f) => format!(
                "no {noun} match `{}` ({} before the filter); loosen the criteria",
                f.as_str(),
                thousands(self.before_filter)
            ),
            None => format!("no {noun}{}", self.qualifiers_for(false)),
        }
    }

    pub(crate) fn reference(&self, bytes_in: u64) -> String {
        format!(
            "{} {} stored ({}){}; open them with next, adding a query to pick what you need",
            thousands(self.total),
            self.noun(),
            fmt_bytes(bytes_in),
            self.qualifiers_for(false)
        )
    }

    pub(crate) fn records_envelope(
        &self,
        kept: &[Value],
        last: &[Value],
        fields_cut: &BTreeMap<String, u64>,
        ambiguous: bool,
        bytes_in: u64,
        ctx: &ShapeContext<'_>,
    ) -> Envelope {
        let shown = kept.len() as u64;
        let noun = self.noun();
        let original = Original { bytes: bytes_in, records: Some(self.total), lines: None };
        if ambiguous {
            let left = self.total - self.start - shown;
            let narrow = self
                .plan
                .narrow_by
                .as_ref()
                .map_or_else(|| "add an argument that picks one".to_owned(), |a| format!("narrow with `{a}`"));
            return Envelope {
                status: Status::Ambiguous,
                summary: format!(
                    "{} {noun} matched where one was expected; {narrow}; {} candidates shown",
                    thousands(self.total),
                    thousands(shown)
                ),
                data: Data::Records(kept.to_vec()),
                omitted: (left > 0).then(|| Omitted {
                    count: left,
                    unit: "records".into(),
                    reason: "ambiguous".into(),
                    chars: None,
                    fields_cut: None,
                    fields: None,
                    original: original.clone(),
                }),
                next: (left > 0).then(|| {
                    ctx.continuation.next(&Resume::Records { offset: self.start + shown, end: None, facets: None })
                }),
            };
        }
        // Where this run of pages stops: before the last records when the first read showed
        // them, or where the resume point says.
        let stop = if last.is_empty() { self.end } else { self.total - last.len() as u64 };
        let left = stop.saturating_sub(self.start + shown);
        let end_arg = (stop < self.total).then_some(stop);
        let dropped = self.auto.map(AutoView::dropped).unwrap_or_default();
        let partial = left > 0 || !fields_cut.is_empty() || !dropped.is_empty();
        // The end of the result is in the first read down to the sixth record from the
        // end: what the last records do not show, rows before them do.
        let end_wanted = if last.is_empty() { 0 } else { (BEFORE_LAST_ROWS + 1).saturating_sub(last.len()) };
        let index = self
            .index
            .and_then(LazyIndex::made)
            .filter(|_| left > 0)
            .and_then(|i| i.part(self.start + shown, stop, end_wanted));
        let summary = if left > 0 {
            let mut range = if self.start > 0 {
                format!("{noun} {} of {}", member_range(self.start, shown), thousands(self.total))
            } else if last.len() == 1 {
                format!("{} and the last of {} {noun}", thousands(shown), thousands(self.total))
            } else if !last.is_empty() {
                format!("{} and the last {} of {} {noun}", thousands(shown), last.len(), thousands(self.total))
            } else {
                format!("{} of {} {noun}", thousands(shown), thousands(self.total))
            };
            if let Some(index) = &index {
                // Rows before the last come only with the last records (`end_wanted`).
                let ends = match index.before_last.len() {
                    0 => None,
                    n => Some(format!("the {n} before the last")),
                };
                let rows = match (index.rows.len(), ends) {
                    (n, None) => format!("the next {}", thousands(n as u64)),
                    (0, Some(ends)) => ends,
                    (n, Some(ends)) => format!("the next {} and {ends}", thousands(n as u64)),
                };
                range.push_str(&format!("; {rows} in index, by {} only", index.columns.join(", ")));
            }
            format!("{range}{}; more with next", self.qualifiers_for(true))
        } else if !fields_cut.is_empty() || !dropped.is_empty() {
            format!("{}; compact view, full records with next", self.complete(shown))
        } else {
            self.complete(shown)
        };
        let omitted = partial.then(|| Omitted {
            count: if left > 0 {
                left
            } else {
                fields_cut.values().copied().max().unwrap_or(0).max(dropped.len() as u64)
            },
            unit: if left > 0 { "records".into() } else { "fields".into() },
            reason: if left > 0 { "budget".into() } else { "field_caps".into() },
            chars: None,
            fields_cut: (!fields_cut.is_empty()).then(|| fields_cut.clone()),
            fields: (!dropped.is_empty()).then_some(dropped),
            original,
        });
        // Reading without caps already: a field still too large for the whole budget is not
        // offered again (that would loop); `omitted` says it stayed too large.
        let full = matches!(ctx.resume, Some(Resume::Fields { .. }));
        let next = if left > 0 {
            Some(ctx.continuation.next(&Resume::Records {
                offset: self.start + shown,
                end: end_arg,
                facets: self.auto.and_then(AutoView::facets_next).map(|f| f as u64),
            }))
        } else if partial && !full {
            Some(ctx.continuation.next(&Resume::Fields { offset: self.start }))
        } else {
            None
        };
        let omitted = omitted.map(|mut o| {
            if left == 0 && full {
                o.reason = "too_large".into();
            }
            o
        });
        Envelope {
            status: if partial { Status::Partial } else { Status::Ok },
            summary,
            data: match self.auto {
                Some(a) => a.data(kept, index, last, self.start == 0 && ctx.resume.is_none()),
                None if last.is_empty() => Data::Records(kept.to_vec()),
                None => {
                    let mut m = serde_json::Map::new();
                    m.insert("records".into(), Value::Array(kept.to_vec()));
                    m.insert("last".into(), Value::Array(last.to_vec()));
                    Data::Value(Value::Object(m))
                }
            },
            omitted,
            next,
        }
    }
}

/// Members named in a summary's list of those not shown; past it, how many more.
const OUTLINE_MEMBERS: usize = 12;

/// Characters one member's outline may take in a summary.
const OUTLINE_CHARS: usize = 600;

/// A member as the summary lists it when it is not shown: its name, and how much it holds
/// when that is more than one value (`paths (57 members)`, `tags (12 items)`), so the
/// first read answers "how many" and says where the bulk is. A list of plain values (a
/// series) also gives its first and last value, and an object of such lists (columns of a
/// table, a forecast's hours) gives each list's, while they fit [`OUTLINE_CHARS`].
///
/// `valued`: short values are said too (a number, a word; inside an object, its members'),
/// for members the page could not reach because a larger one stands before them.
pub(crate) fn member_outline(name: &str, value: &Value, valued: bool) -> String {
    let mut out = match value {
        Value::Object(m) => format!("{name} ({})", counted(m.len(), "member")),
        Value::Array(a) => match series_ends(a) {
            Some(ends) => format!("{name} ({}: {ends})", counted(a.len(), "item")),
            None => format!("{name} ({})", counted(a.len(), "item")),
        },
        Value::String(t) if t.len() > 200 => format!("{name} ({})", counted(t.chars().count(), "character")),
        // A short value is said whole: a member after a large one (a report's `total`
        // after its `entries`) is answered from the list of members not shown.
        other => {
            return short_scalar(other).filter(|_| valued).map_or_else(|| name.to_owned(), |v| format!("{name} {v}"));
        }
    };
    if let Value::Object(m) = value {
        let mut inner = Vec::new();
        let mut used = out.len();
        for (k, v) in m {
            let entry = match v.as_array().and_then(|a| series_ends(a).map(|e| (a.len(), e))) {
                Some(ends) => format!("{k} {}: {}", counted(ends.0, "item"), ends.1),
                None => match short_scalar(v).filter(|_| valued) {
                    Some(value) => format!("{k} {value}"),
                    None => continue,
                },
            };
            if used + entry.len() + 2 > OUTLINE_CHARS {
                inner.push("…".to_owned());
                break;
            }
            used += entry.len() + 2;
            inner.push(entry);
        }
        if !inner.is_empty() {
            out.pop();
            out.push_str(&format!(": {})", inner.join(", ")));
        }
    }
    out
}

/// The longest string a member's outline says whole, in characters.
const SHORT_CHARS: usize = 60;

/// A number, a boolean or a short string that is not a link, as the outline writes it;
/// `None` for anything else.
fn short_scalar(v: &Value) -> Option<String> {
    match v {
        Value::Number(_) | Value::Bool(_) => Some(v.to_string()),
        // A link is left out: it reads as a name, and costs tokens for what the member's
        // name already says (`events_url`).
        Value::String(s)
            if !s.is_empty()
                && s.chars().count() <= SHORT_CHARS
                && !s.contains(['\n', ',', ';'])
                && !crate::compact::is_url(s) =>
        {
            Some(s.clone())
        }
        _ => None,
    }
}

/// `n thing` or `n things`.
fn counted(n: usize, thing: &str) -> String {
    if n == 1 { format!("1 {thing}") } else { format!("{} {thing}s", thousands(n as u64)) }
}

/// The first and last value of a list of two or more plain values (`3.1 … 5.2`).
fn series_ends(items: &[Value]) -> Option<String> {
    let scalar = |v: &Value| match v {
        Value::String(s) if s.chars().count() <= 40 => Some(s.clone()),
        Value::Number(_) | Value::Bool(_) | Value::Null => Some(v.to_string()),
        _ => None,
    };
    if items.len() < 2 || !items.iter().all(|v| !v.is_object() && !v.is_array()) {
        return None;
    }
    Some(format!("{} … {}", scalar(items.first()?)?, scalar(items.last()?)?))
}

/// The members after those a page shows: each one's outline, and for a few, a note that
/// says their records ([`crate::member_records`]).
pub(crate) struct Rest<'a> {
    /// Each member's outline: with its short values when the first of them is too large for
    /// a page (the members after it are then not on the next page either).
    pub(crate) outline: &'a [String],
    pub(crate) notes: &'a [Option<String>],
}

/// The envelope for members `start..` of one object of `total` members, `kept` of them
/// shown (each a one-member object, in order); `rest` outlines the members after them.
pub(crate) fn object_envelope(
    kept: &[Value],
    rest: Rest<'_>,
    fields_cut: &BTreeMap<String, u64>,
    total: u64,
    start: u64,
    bytes_in: u64,
    ctx: &ShapeContext<'_>,
) -> Envelope {
    let mut merged = Map::new();
    for one in kept {
        if let Value::Object(m) = one {
            for (k, v) in m {
                merged.insert(k.clone(), v.clone());
            }
        }
    }
    let shown = kept.len() as u64;
    let left = total - start - shown;
    let partial = left > 0 || !fields_cut.is_empty();
    let noun = if total == 1 { "field" } else { "fields" };
    let summary = if partial || start > 0 {
        let mut s = format!("object with {} {noun}; {} shown", thousands(total), member_range(start, shown));
        if left > 0 && !rest.outline.is_empty() {
            let outline = rest.outline;
            let named = outline.len().min(OUTLINE_MEMBERS);
            s.push_str(&format!("; not shown: {}", outline[..named].join(", ")));
            if outline.len() > named {
                s.push_str(&format!(" and {} more", thousands((outline.len() - named) as u64)));
            }
        }
        for note in rest.notes.iter().flatten() {
            s.push_str(&format!("; {note}"));
        }
        s
    } else {
        format!("object with {} {noun}", thousands(total))
    };
    let omitted = partial.then(|| Omitted {
        count: if left > 0 { left } else { fields_cut.values().sum() },
        unit: "fields".into(),
        reason: if left > 0 { "budget".into() } else { "field_caps".into() },
        chars: None,
        fields_cut: (!fields_cut.is_empty()).then(|| fields_cut.clone()),
        fields: None,
        original: Original { bytes: bytes_in, records: None, lines: None },
    });
    let full = matches!(ctx.resume, Some(Resume::Fields { .. }));
    let next = if left > 0 {
        Some(ctx.continuation.next(&Resume::Records { offset: start + shown, end: None, facets: None }))
    } else if partial && !full {
        Some(ctx.continuation.next(&Resume::Fields { offset: start }))
    } else {
        None
    };
    let omitted = omitted.map(|mut o| {
        if left == 0 && full {
            o.reason = "too_large".into();
        }
        o
    });
    Envelope {
        status: if partial { Status::Partial } else { Status::Ok },
        summary,
        data: Data::Value(Value::Object(merged)),
        omitted,
        next,
    }
}

#[cfg(test)]
mod singular_tests {
    use super::{list_noun, singular};

    #[test]
    fn plural_list_names_name_their_records() {
        for (name, noun) in [
            ("spans", Some("spans")),
            ("line_items", Some("line items")),
            ("pullRequests", Some("pull requests")),
            ("data", None),
            ("status", None),
            ("analysis", None),
            ("address", None),
            ("x1s", None),
            ("a_b_c_items", None),
        ] {
            assert_eq!(list_noun(name).as_deref(), noun, "{name}");
        }
    }

    #[test]
    fn plural_nouns_become_singular() {
        for (plural, one) in [
            ("issues", "issue"),
            ("entries", "entry"),
            ("matches", "match"),
            ("boxes", "box"),
            ("addresses", "address"),
            ("records", "record"),
            ("lines", "line"),
            ("class", "class"),
            ("data", "data"),
            ("s", "s"),
        ] {
            assert_eq!(singular(plural), one, "{plural}");
        }
    }
}
