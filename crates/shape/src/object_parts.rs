//! An object with a member too large for a page, read in parts.
//!
//! A document's members are the units its pages are made of. A member larger than a page
//! (a file report's `attributes`, a segmentation's `values` by city) was a dead end: cut to
//! what fit, its rest never shown, and `next` went on to the member after it. So a member
//! larger than [`PART_BYTES`] is read as its own members, a list as its items, down to
//! parts no larger (or [`MAX_DEPTH`] deep); a page holds a run of parts, nested again as they
//! were in the object, and `next` goes on from the first part not shown. Like a list's last
//! records, the first read also shows the object's last parts, and the pages after it stop
//! where they begin. A document whose members are all small is read member by member, as
//! before.
//!
//! The split depends on the object alone (not on the budget), so the pages read from the
//! stored snapshot cut where the first read counted.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use toolshape_redact::RedactionCounts;

use crate::context::{Resume, ShapeContext};
use crate::describe::member_outline;
use crate::envelope::{Data, Envelope, Omitted, Original, Status};
use crate::fit::{Fit, Units};
use crate::member_records::member_notes;
use crate::numfmt::thousands;
use crate::path::{Segment, path_text};
use crate::report::{ShapeError, Shaped};
use crate::shaper::Shaper;
use crate::view::approx_size;

/// Members and items larger than this many bytes (compact JSON) are read as their own
/// members or items: under a sixth of a page at the default budget, so a part fits a page
/// whole at any budget a plan is likely to set.
pub(crate) const PART_BYTES: usize = 2048;
/// How deep an object is read into, at most; deeper values are parts whatever their size.
const MAX_DEPTH: usize = 8;
/// Members of the object said as not shown, at most.
const OUTLINE_MEMBERS: usize = 8;

/// One part of the object: where it sits and which of the object's members it is in. The
/// value stays in the object (see [`Part::value_in`]), so a large document is not copied.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Part {
    pub(crate) path: Vec<Segment>,
    pub(crate) member: usize,
}

impl Part {
    /// The path as a mask writes it: `data.attributes.pe_info.import_list[12]`.
    pub(crate) fn path_text(&self) -> String {
        path_text(&self.path)
    }

    /// The part's value in the object whose `members` it was split from.
    pub(crate) fn value_in<'v>(&self, members: &'v [(String, Value)]) -> Option<&'v Value> {
        let mut value = &members.get(self.member)?.1;
        for step in self.path.get(1..)? {
            value = match step {
                Segment::Key(k) => value.get(k.as_str())?,
                Segment::Index(i) => value.get(*i)?,
                Segment::Each => return None,
            };
        }
        Some(value)
    }

    /// The part as a unit of a page: its value under its last step's name.
    pub(crate) fn unit(&self, members: &[(String, Value)]) -> Value {
        let name = match self.path.last() {
            Some(Segment::Key(k)) => k.clone(),
            Some(Segment::Index(i)) => format!("[{i}]"),
            Some(Segment::Each) | None => String::new(),
        };
        let mut m = Map::new();
        m.insert(name, self.value_in(members).cloned().unwrap_or(Value::Null));
        Value::Object(m)
    }
}

/// The parts of an object's `members`, in order; `None` when no member is larger than
/// [`PART_BYTES`] (the object is then read member by member).
pub(crate) fn split(members: &[(String, Value)]) -> Option<Vec<Part>> {
    let mut parts = Vec::new();
    for (member, (name, value)) in members.iter().enumerate() {
        push_parts(vec![Segment::Key(name.clone())], member, value, &mut parts);
    }
    // A member read as its own members or items gives parts below it: otherwise each part
    // is a whole member.
    parts.iter().any(|p| p.path.len() > 1).then_some(parts)
}

/// Whether `v` is a container larger than a part.
fn too_large(v: &Value) -> bool {
    let container = matches!(v, Value::Object(m) if !m.is_empty()) || matches!(v, Value::Array(a) if !a.is_empty());
    container && approx_size(v, PART_BYTES + 1) > PART_BYTES
}

fn push_parts(path: Vec<Segment>, member: usize, value: &Value, out: &mut Vec<Part>) {
    if path.len() >= MAX_DEPTH || !too_large(value) {
        out.push(Part { path, member });
        return;
    }
    match value {
        Value::Object(m) => {
            for (k, v) in m {
                let mut inner = path.clone();
                inner.push(Segment::Key(k.clone()));
                push_parts(inner, member, v, out);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                let mut inner = path.clone();
                inner.push(Segment::Index(i));
                push_parts(inner, member, v, out);
            }
        }
        _ => out.push(Part { path, member }),
    }
}

/// A node of the object as a page rebuilds it: the parts in order, nested again.
enum Node {
    Leaf(Value),
    Object(Vec<(String, Node)>),
    Array(Vec<(usize, Node)>),
}

impl Node {
    fn place(&mut self, steps: &[Segment], value: Value) {
        let Some((first, rest)) = steps.split_first() else {
            *self = Node::Leaf(value);
            return;
        };
        match first {
            Segment::Key(k) => {
                if !matches!(self, Node::Object(_)) {
                    *self = Node::Object(Vec::new());
                }
                let Node::Object(entries) = self else { return };
                // Parts come in order, so a member already begun is the last one.
                if entries.last().is_none_or(|(last, _)| last != k) {
                    entries.push((k.clone(), Node::Object(Vec::new())));
                }
                if let Some((_, node)) = entries.last_mut() {
                    node.place(rest, value);
                }
            }
            // Parts are split at keys and positions only.
            Segment::Each => {}
            Segment::Index(i) => {
                if !matches!(self, Node::Array(_)) {
                    *self = Node::Array(Vec::new());
                }
                let Node::Array(items) = self else { return };
                if items.last().is_none_or(|(last, _)| last != i) {
                    items.push((*i, Node::Object(Vec::new())));
                }
                if let Some((_, node)) = items.last_mut() {
                    node.place(rest, value);
                }
            }
        }
    }

    fn into_value(self) -> Value {
        match self {
            Node::Leaf(v) => v,
            Node::Object(entries) => Value::Object(entries.into_iter().map(|(k, n)| (k, n.into_value())).collect()),
            Node::Array(items) => Value::Array(items.into_iter().map(|(_, n)| n.into_value()).collect()),
        }
    }
}

/// The page's units (each a part's [`Part::unit`], perhaps cut) nested again as in the
/// object; `parts` are the parts they came from, in the same order.
pub(crate) fn rebuild(parts: &[Part], units: &[Value]) -> Value {
    let mut root = Node::Object(Vec::new());
    for (part, unit) in parts.iter().zip(units) {
        let value = match unit {
            Value::Object(m) if m.len() == 1 => m.values().next().cloned().unwrap_or(Value::Null),
            other => other.clone(),
        };
        root.place(&part.path, value);
    }
    root.into_value()
}

/// Where a page of parts stands: the object's members, its parts, and the run of pages.
pub(crate) struct PartsPage<'a> {
    pub(crate) members: &'a [(String, Value)],
    pub(crate) parts: &'a [Part],
    /// The first part of this page.
    pub(crate) start: usize,
    /// Where this run of pages stops: before the last parts, when the first read showed
    /// them; else after the last part.
    pub(crate) stop: usize,
    /// Notes on the object's members (their records, on a first read), by member.
    pub(crate) notes: &'a [Option<String>],
    pub(crate) bytes_in: u64,
}

impl PartsPage<'_> {
    /// The envelope of a page showing `kept` units from `start`, and `last` units at the
    /// end of the object (a first read).
    pub(crate) fn envelope(
        &self,
        kept: &[Value],
        last: &[Value],
        fields_cut: &BTreeMap<String, u64>,
        ctx: &ShapeContext<'_>,
    ) -> Envelope {
        let total = self.parts.len();
        let start = self.start.min(total);
        let end = (start + kept.len()).min(total);
        let stop = if last.is_empty() { self.stop.min(total) } else { total.saturating_sub(last.len()) }.max(end);
        let left = stop - end;
        let partial = left > 0 || !fields_cut.is_empty();
        let noun = if self.members.len() == 1 { "field" } else { "fields" };
        let fields = format!("object with {} {noun}", thousands(self.members.len() as u64));
        let run = |from: usize, to: usize| format!("{}-{}", thousands(from as u64 + 1), thousands(to as u64));
        let mut summary = if !partial && start == 0 && stop == total {
            fields
        } else {
            let mut range = if end > start { run(start, end) } else { "none".into() };
            if !last.is_empty() {
                range.push_str(&format!(" and {}", run(stop, total)));
            }
            format!("{fields}, read in {} parts; parts {range} shown", thousands(total as u64))
        };
        if start > 0
            && let Some(first) = self.parts.get(start)
        {
            summary.push_str(&format!(", from {}", first.path_text()));
        }
        if left == 0 && last.is_empty() && stop < total {
            summary.push_str(&format!("; parts {} were shown first", run(stop, total)));
        }
        if let Some(next) = self.parts.get(end).filter(|_| left > 0) {
            summary.push_str(&format!("; next from {}", next.path_text()));
            // The member the page stops in, then those after it up to the end shown, each
            // with what it holds.
            let upto = self.parts.get(stop).map_or(self.members.len(), |p| {
                let begins_there = stop == 0 || self.parts[stop - 1].member != p.member;
                if begins_there { p.member } else { p.member + 1 }
            });
            let between = self.members.get(next.member..upto.max(next.member)).unwrap_or_default();
            let mut outline: Vec<String> =
                between.iter().take(OUTLINE_MEMBERS).map(|(name, value)| member_outline(name, value, true)).collect();
            // A member the pages have begun is not shown only in part.
            let begun = end > 0 && self.parts[end - 1].member == next.member;
            if let Some(first) = outline.first_mut().filter(|_| begun) {
                first.insert_str(0, "the rest of ");
            }
            if !outline.is_empty() {
                summary.push_str(&format!("; not shown: {}", outline.join(", ")));
            }
            if between.len() > outline.len() {
                summary.push_str(&format!(" and {} more", thousands((between.len() - outline.len()) as u64)));
            }
            // Notes of the members not shown whole: the one the page stops in and those after.
            for note in self.notes.iter().skip(next.member).flatten() {
                summary.push_str(&format!("; {note}"));
            }
        }
        let omitted = partial.then(|| Omitted {
            count: if left > 0 { left as u64 } else { fields_cut.values().sum() },
            unit: if left > 0 { "parts".into() } else { "fields".into() },
            reason: if left > 0 { "budget".into() } else { "field_caps".into() },
            chars: None,
            fields_cut: (!fields_cut.is_empty()).then(|| fields_cut.clone()),
            fields: None,
            original: Original { bytes: self.bytes_in, records: None, lines: None },
        });
        // Reading without caps already: a part still too large for the whole budget is not
        // offered again (that would loop); `omitted` says it stayed too large.
        let full = matches!(ctx.resume, Some(Resume::Fields { .. }));
        let next = if left > 0 {
            let end_arg = (stop < total).then_some(stop as u64);
            Some(ctx.continuation.next(&Resume::Records { offset: end as u64, end: end_arg, facets: None }))
        } else if partial && !full {
            Some(ctx.continuation.next(&Resume::Fields { offset: start as u64 }))
        } else {
            None
        };
        let omitted = omitted.map(|mut o| {
            if left == 0 && full {
                o.reason = "too_large".into();
            }
            o
        });
        let shown: Vec<Part> =
            self.parts[start..end].iter().chain(&self.parts[total - last.len()..]).cloned().collect();
        let units: Vec<Value> = kept.iter().chain(last).cloned().collect();
        Envelope {
            status: if partial { Status::Partial } else { Status::Ok },
            summary,
            data: Data::Value(rebuild(&shown, &units)),
            omitted,
            next,
        }
    }
}

impl Shaper {
    /// The page of an object read in `parts` (see [`split`]) from the resume point.
    pub(crate) fn shape_parts(
        &self,
        members: &[(String, Value)],
        parts: &[Part],
        counts: RedactionCounts,
        bytes_in: u64,
        ctx: &ShapeContext<'_>,
    ) -> Result<Shaped, ShapeError> {
        let total = parts.len() as u64;
        let (start, stop) = match ctx.resume {
            Some(Resume::Records { offset, end, .. }) => {
                (offset.min(total), end.map_or(total, |e| e.clamp(offset.min(total), total)))
            }
            Some(Resume::Fields { offset }) => (offset.min(total), total),
            _ => (0, total),
        };
        // The first read of a document with no mask says its largest members of records as
        // records, with their facets.
        let notes = if ctx.resume.is_none() && self.plan().decides_fields() {
            member_notes(members)
        } else {
            vec![None; members.len()]
        };
        let page = PartsPage {
            members,
            parts,
            start: start as usize,
            stop: stop as usize,
            notes: &notes,
            bytes_in: self.original_size(bytes_in),
        };
        let fetch = |pos: u64, _: &mut RedactionCounts| -> (Value, Vec<String>) {
            (parts.get(pos as usize).map_or(Value::Null, |p| p.unit(members)), Vec::new())
        };
        let build = |kept: &[Value], last: &[Value], fields_cut: &BTreeMap<String, u64>| {
            page.envelope(kept, last, fields_cut, ctx)
        };
        // A first read shows the object's end too, as far as it fits, as it does a list's
        // last records: the end of a document is read as often as its start.
        let tail = (ctx.resume.is_none() && total > 1).then(|| total - 1);
        let units = Units { available: stop - start, start, tail, fetch, build, index: None };
        let mut shaped = Fit { shaper: self, ctx, bytes_in, units }.run(counts)?;
        shaped.report.records_total = None;
        Ok(shaped)
    }
}

#[cfg(test)]
#[path = "object_parts_tests.rs"]
mod tests;
