//! The record's short values around a value in the record statistics: what a URL or a
//! path made from the record would contain, gathered once per object and only when a URL
//! or path inside it needs them.

use std::borrow::Cow;
use std::cell::OnceCell;

use serde_json::{Map, Value};

use super::stats::is_url;

/// Where a value sits: the objects around it in its record, whose short values are
/// gathered (once per object) only when a URL or path inside needs them, since most
/// objects hold none.
pub(crate) struct Scope<'s, 'v> {
    parent: Option<&'s Scope<'s, 'v>>,
    members: Option<&'v Map<String, Value>>,
    gathered: OnceCell<Vec<Cow<'v, str>>>,
}

impl<'s, 'v> Scope<'s, 'v> {
    /// Outside every object of a record.
    pub(crate) fn record() -> Self {
        Scope { parent: None, members: None, gathered: OnceCell::new() }
    }

    /// Inside the object `members`, itself within `parent`.
    pub(crate) fn inside(parent: &'s Scope<'s, 'v>, members: &'v Map<String, Value>) -> Self {
        Scope { parent: Some(parent), members: Some(members), gathered: OnceCell::new() }
    }

    /// The short values of this object and of those around it, longest first.
    pub(crate) fn scalars(&self) -> &[Cow<'v, str>] {
        self.gathered.get_or_init(|| {
            let inherited = self.parent.map_or(&[][..], Scope::scalars);
            match self.members {
                Some(m) => scalars_of(m, inherited),
                None => inherited.to_vec(),
            }
        })
    }
}

/// The short scalar values of an object (and those passed down), as text: what a URL
/// made from the record would contain. Longest first, the order the statistics' URL templates
/// take them out in (a stable sort, so values of one length keep the record's order).
fn scalars_of<'v>(m: &'v Map<String, Value>, inherited: &[Cow<'v, str>]) -> Vec<Cow<'v, str>> {
    let mut out = inherited.to_vec();
    let before = out.len();
    for v in m.values() {
        match v {
            Value::String(s) if s.len() >= 3 && s.len() <= 80 && !is_url(s) => out.push(Cow::Borrowed(s)),
            Value::Number(n) => {
                let text = n.to_string();
                if text.len() >= 2 {
                    out.push(Cow::Owned(text));
                }
            }
            _ => {}
        }
    }
    if out.len() > before {
        out.sort_by_key(|v| std::cmp::Reverse(v.len()));
    }
    out
}
