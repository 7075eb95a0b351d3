//! Kinds in the names of records: counts of a part of the record's key.
//!
//! A name often says what kind of thing it names: a home automation entity its domain
//! (`light.kitchen_ceiling`), a systemd unit its type (`nginx.service`), an object key its
//! folder and its format (`logs/…/app.log.gz`), a repository its owner (`acme/api`), an image
//! its repository (`nginx:1.27`). "How many lights are there", "which kind of unit is the
//! most common" and "how many objects are under `logs/`" are answered by counting that part
//! over every record. Which part is worth counting is decided by the counts themselves, as
//! for any other field: a part that is the same everywhere, that every record holds
//! differently, or that many records lack, is not said. Within each kind, the records' first
//! field of categories is counted too where it takes few values there (`light 27 (off 20,
//! on 7)`): "how many lights are on" needs both.

use std::borrow::Cow;
// Counts are keyed by upstream values: a fast hash, seeded per process.
use foldhash::HashMap;

use serde_json::Value;

use super::{MAX_DISTINCT, quoted_if_ambiguous};
use crate::numfmt::thousands;

/// A part of a name, cut at a separator; or of a link, its host or its file's type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Part {
    /// The part before the first separator (a domain, a folder).
    Before(char),
    /// The part after the last separator, with it (a type, an extension: `.go`), so that it
    /// reads as the kind it is.
    After(char),
    /// The folder a path names its file in (`src/auth` of `./src/auth/token.rs`): where the
    /// changes, the findings or the space are. The part before the first `/` says only the
    /// top of a tree; most questions about one ask about the folder.
    Folder,
    /// The host of a link (`cdn.example.com`): which site a request or a result is from.
    Host,
    /// The type of the file a link's path names (`js` of `…/app.4f1c.js?v=2`).
    LinkType,
}

/// The parts tried on every name.
pub(crate) const PARTS: [Part; 5] =
    [Part::Before('.'), Part::After('.'), Part::Before('/'), Part::Folder, Part::Before(':')];

/// The parts tried on every link.
pub(crate) const LINK_PARTS: [Part; 2] = [Part::Host, Part::LinkType];

/// Kinds a part may take at most to be said; more, and it names rather than sorts. Folders
/// are the exception: a tree has many, and they are said while most records share one.
pub(crate) const MAX_KINDS: usize = 30;
/// Parts counted in one summary at most.
pub(crate) const MAX_SAID: usize = 3;
/// The longest part before a separator counted; a type after the last one is shorter.
const MAX_BEFORE: usize = 40;
const MAX_AFTER: usize = 12;
/// The longest folder counted.
const MAX_FOLDER: usize = 80;

impl Part {
    /// The part of `name` (one that [`reads_as_name`], or a link for [`Part::of_links`]);
    /// `None` where it has no such part. Separators at the start (`/usr/…`) are passed over;
    /// a type after the last `.` is letters and digits, not digits alone (`1.27` has no
    /// type).
    pub(crate) fn of(self, name: &str) -> Option<&str> {
        match self {
            Part::Before(separator) => {
                let name = if separator == '/' { relative(name) } else { name };
                let (part, _) = name.trim_start_matches(separator).split_once(separator)?;
                (!part.is_empty() && part.len() <= MAX_BEFORE).then_some(part)
            }
            Part::Folder => {
                let (folder, file) = relative(name).trim_start_matches('/').rsplit_once('/')?;
                (!folder.is_empty() && !file.is_empty() && folder.len() <= MAX_FOLDER).then_some(folder)
            }
            Part::After(separator) => {
                let name = name.trim_start_matches(separator);
                let at = name.rfind(separator)?;
                is_type(&name[at + separator.len_utf8()..]).then_some(&name[at..])
            }
            Part::Host => link_parts(name).map(|(host, _)| host),
            Part::LinkType => {
                let (_, path) = link_parts(name)?;
                let file = path.rsplit('/').next()?;
                let (_, kind) = file.rsplit_once('.')?;
                is_type(kind).then_some(kind)
            }
        }
    }

    /// Whether this part is read from links rather than from names.
    pub(crate) fn of_links(self) -> bool {
        matches!(self, Part::Host | Part::LinkType)
    }

    /// How a summary names the counts of this part of `field`.
    pub(crate) fn label(self, field: &str) -> String {
        match self {
            Part::Before(separator) => format!("kinds of {field} (before \"{separator}\")"),
            Part::After(separator) => format!("kinds of {field} (after the last \"{separator}\")"),
            Part::Folder => format!("folders of {field}"),
            Part::Host => format!("hosts of {field}"),
            Part::LinkType => format!("file types of {field}"),
        }
    }
}

/// A path without the `./` (or `../`) that makes it relative: `./libs/auth` is under
/// `libs`, not under `.`.
fn relative(name: &str) -> &str {
    let mut name = name;
    while let Some(rest) = name.strip_prefix("./").or_else(|| name.strip_prefix("../")) {
        name = rest;
    }
    name
}

/// Whether `part` reads as a type: a short run of letters and digits, not digits alone
/// (`1.27` has no type).
fn is_type(part: &str) -> bool {
    !part.is_empty()
        && part.len() <= MAX_AFTER
        && part.chars().all(char::is_alphanumeric)
        && part.chars().any(char::is_alphabetic)
}

/// The host and the path of an `http` or `https` link (the path without its query or
/// fragment), or `None` for anything else.
pub(crate) fn link_parts(link: &str) -> Option<(&str, &str)> {
    let rest = link.strip_prefix("https://").or_else(|| link.strip_prefix("http://"))?;
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..end];
    // Credentials before the host are not the host; a port after it is not either.
    let host = authority.rsplit('@').next().unwrap_or(authority);
    let host = match host.rsplit_once(':') {
        Some((h, port)) if !h.is_empty() && port.bytes().all(|b| b.is_ascii_digit()) => h,
        _ => host,
    };
    if host.is_empty() || host.contains(char::is_whitespace) {
        return None;
    }
    let path = &rest[end..];
    let path = &path[..path.find(['?', '#']).unwrap_or(path.len())];
    Some((host, path))
}

/// Fields considered for counting within the kinds, at most (the first countable ones).
pub(crate) const MAX_WITHIN_FIELDS: usize = 8;
/// Whether `name` may hold kinds: words (a date, a title) and links do not. Checked byte by
/// byte: it runs on every record's key.
pub(crate) fn reads_as_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    let spaced =
        if name.is_ascii() { bytes.iter().any(u8::is_ascii_whitespace) } else { name.contains(char::is_whitespace) };
    let link = memchr::memchr_iter(b':', bytes).any(|at| bytes.get(at + 1..at + 3) == Some(b"//"));
    !spaced && !link
}

/// Values of another field told within a kind at most; more, and only the kind is counted.
const MAX_WITHIN: usize = 4;

/// Counts of another field's values within each kind: how many lights are `on`.
#[derive(Debug)]
pub(crate) struct Within {
    /// The field counted within each kind: the records' first field of categories.
    pub(crate) column: usize,
    /// Its name, as the summary says it.
    pub(crate) name: String,
    /// Each kind's values and their counts; `None` once a kind has more than [`MAX_WITHIN`].
    per_kind: HashMap<String, Option<HashMap<String, u64>>>,
}

impl Within {
    pub(crate) fn new(column: usize, name: String) -> Within {
        Within { column, name, per_kind: HashMap::default() }
    }

    /// Count `value` within `kind`. Memory is bounded as a facet's is: kinds past the
    /// counter's own bound are not broken down.
    pub(crate) fn add(&mut self, kind: &str, value: &Value) {
        let text = match value {
            Value::String(s) => Cow::Borrowed(s.as_str()),
            Value::Array(_) | Value::Object(_) => return,
            other => Cow::Owned(other.to_string()),
        };
        if !self.per_kind.contains_key(kind) {
            if self.per_kind.len() >= MAX_DISTINCT {
                return;
            }
            self.per_kind.insert(kind.to_owned(), Some(HashMap::default()));
        }
        let Some(slot) = self.per_kind.get_mut(kind) else { return };
        let Some(counts) = slot.as_mut() else { return };
        if let Some(n) = counts.get_mut(text.as_ref()) {
            *n += 1;
        } else if counts.len() < MAX_WITHIN {
            counts.insert(text.into_owned(), 1);
        } else {
            // A fifth value: too many to tell within this kind.
            *slot = None;
        }
    }

    /// How much knowing a record's kind tells about its value of this field (their mutual
    /// information, in nats), over the kinds broken down; and the records those hold.
    pub(crate) fn information(&self) -> (f64, u64) {
        let kinds: Vec<&HashMap<String, u64>> = self.per_kind.values().flatten().collect();
        let total: u64 = kinds.iter().flat_map(|k| k.values()).sum();
        if total == 0 {
            return (0.0, 0);
        }
        let mut per_value: HashMap<&str, u64> = HashMap::default();
        for (v, n) in kinds.iter().flat_map(|k| k.iter()) {
            *per_value.entry(v.as_str()).or_default() += n;
        }
        let n = total as f64;
        let mut mi = 0.0;
        for k in &kinds {
            let in_kind = k.values().sum::<u64>() as f64;
            for (v, &joint) in k.iter() {
                let joint = joint as f64;
                let value = per_value.get(v.as_str()).copied().unwrap_or(1) as f64;
                mi += joint / n * (joint * n / (in_kind * value)).ln();
            }
        }
        (mi, total)
    }

    /// The counts within `kind`, most first (`off 20, on 7`), where it has few values.
    pub(crate) fn detail(&self, kind: &str) -> Option<String> {
        let counts = self.per_kind.get(kind)?.as_ref()?;
        let mut ranked: Vec<(&String, &u64)> = counts.iter().collect();
        ranked.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        let shown: Vec<String> =
            ranked.iter().map(|(v, n)| format!("{} {}", quoted_if_ambiguous(v), thousands(**n))).collect();
        Some(shown.join(", "))
    }
}
