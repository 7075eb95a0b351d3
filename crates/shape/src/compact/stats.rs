//! What a sample of records says about each field: how often it is there, how many
//! distinct values it takes, how large they are and what they look like.

use std::hash::{Hash, Hasher};

// Values are hashed to count distinct ones, many times per record: a fast hasher, fixed
// and deterministic (the counts decide the view, so they must not vary between runs).
use rustc_hash::{FxHashSet as HashSet, FxHasher};

use super::looks::is_image;
pub(crate) use super::looks::{carries_token, is_opaque, is_url, is_worded};
use super::quantity::quantity;
use super::scope::Scope;
use super::template::template;

use serde_json::Value;

/// Distinct values remembered per field; past it, a field counts as "many".
const DISTINCT_CAP: usize = 512;

/// Statistics of one field (or of the elements of an array field) over a sample.
#[derive(Debug, Default)]
pub(crate) struct Node {
    /// Occurrences with a value that is not null or empty.
    pub(crate) present: usize,
    /// Occurrences (the parent was there).
    pub(crate) seen: usize,
    /// Hashes of the distinct non-empty values (capped).
    distinct: HashSet<u64>,
    /// More distinct values than were kept.
    pub(crate) many: bool,
    /// Serialized bytes of the non-empty values.
    pub(crate) bytes: usize,
    pub(crate) scalars: usize,
    pub(crate) strings: usize,
    pub(crate) numbers: usize,
    /// Whole numbers in the range of Unix times of this century, in seconds or
    /// milliseconds (2001 to 2033), and the least and greatest number seen: times written
    /// as numbers span a few years at most, where ids and measures spread further.
    pub(crate) epochs: usize,
    pub(crate) least: f64,
    pub(crate) greatest: f64,
    pub(crate) bools: usize,
    pub(crate) objects: usize,
    pub(crate) arrays: usize,
    /// Strings that hold whitespace (free text).
    pub(crate) spaced: usize,
    /// Strings with a line break, or longer than a few sentences.
    pub(crate) long_text: usize,
    /// Strings that read as timestamps.
    pub(crate) times: usize,
    /// Strings of ten characters or more with more digits than letters (times, stamped
    /// versions, numbers written as text): not names, where a short `v1.9` may be.
    pub(crate) digity: usize,
    /// Strings without a single letter (`"10001"`, `"3"`): numbers written as text, which
    /// name nothing a reader knows, whatever their length.
    pub(crate) letterless: usize,
    /// Strings that are decimals (`"129.95"`, `"-0.75"`): quantities written as text to
    /// keep their precision, as money often is.
    pub(crate) decimals: usize,
    /// Strings that are measures with a unit: spans of time (`"2m30s"`, `"350ms"`,
    /// `"PT1H5M"`, `"64d"`), sizes and shares (`"1023Mi"`, `"37.5%"`).
    pub(crate) measures: usize,
    /// Strings that are whole numbers (`"215"`), and the least and greatest of them.
    pub(crate) integers: usize,
    pub(crate) least_integer: i64,
    pub(crate) greatest_integer: i64,
    /// Strings that are URLs or URL templates.
    pub(crate) urls: usize,
    /// URLs that point at an image.
    pub(crate) images: usize,
    /// URLs that carry a long random token ([`carries_token`]).
    pub(crate) token_links: usize,
    /// URLs that are the same once the record's other values are taken out of them.
    pub(crate) url_templates: HashSet<u64>,
    /// Strings without whitespace that look random (hashes, tokens, UUIDs, base64).
    pub(crate) opaque: usize,
    /// Of those, the ones with readable words in them: paths and names ([`is_worded`]).
    pub(crate) worded: usize,
    /// Of those, the paths (a `/` or more), and what they are once the record's other
    /// values are taken out of them (as for URLs).
    pub(crate) paths: usize,
    pub(crate) path_templates: HashSet<u64>,
    /// Longest array seen, and the arrays of one element.
    pub(crate) max_len: usize,
    pub(crate) single: usize,
    /// Arrays whose elements are arrays.
    pub(crate) nested_arrays: usize,
    /// Members of object values, in first-seen order.
    pub(crate) children: Vec<(String, Node)>,
    /// Elements of array values (objects or scalars).
    pub(crate) elements: Option<Box<Node>>,
}

impl Node {
    pub(crate) fn distinct(&self) -> usize {
        self.distinct.len()
    }

    pub(crate) fn child(&self, key: &str) -> Option<&Node> {
        self.children.iter().find(|(k, _)| k == key).map(|(_, n)| n)
    }

    /// The child named `key` and its place; `hint` is where it is likely to be (records of
    /// one list mostly write their members in one order, so the next member is usually
    /// the next child), tried before the children are searched.
    fn child_mut(&mut self, key: &str, hint: usize) -> (usize, &mut Node) {
        let at_hint = self.children.get(hint).is_some_and(|(k, _)| k == key);
        let place = if at_hint { Some(hint) } else { self.children.iter().position(|(k, _)| k == key) };
        let place = place.unwrap_or_else(|| {
            self.children.push((key.to_owned(), Node::default()));
            self.children.len() - 1
        });
        (place, &mut self.children[place].1)
    }

    /// Average serialized size of a present value.
    pub(crate) fn avg_bytes(&self) -> usize {
        self.bytes / self.present.max(1)
    }

    /// Whether its values are ones a reader names or counts things by: no links, random
    /// ids in fewer than half, no long text, short.
    pub(crate) fn is_plain(&self) -> bool {
        self.urls == 0 && self.opaque * 2 < self.present && self.long_text == 0 && self.avg_bytes() <= 64
    }

    /// Add one occurrence of `v`; `scope` gives the record's other short values, taken out
    /// of URLs to tell a link made from them.
    ///
    /// Returns the hash and serialized length of `v`, made from its members' own, so that a
    /// nested value is walked once and not serialized again at every level above it.
    pub(crate) fn add<'v>(&mut self, v: &'v Value, scope: &Scope<'_, 'v>, depth: usize) -> (u64, usize) {
        self.seen += 1;
        if is_empty(v) {
            return digest(v);
        }
        self.present += 1;
        let (value_hash, value_bytes) = self.add_present(v, scope, depth);
        self.bytes += value_bytes;
        if self.distinct.len() < DISTINCT_CAP {
            self.distinct.insert(value_hash);
        } else if !self.distinct.contains(&value_hash) {
            self.many = true;
        }
        (value_hash, value_bytes)
    }

    /// The statistics of a value that is there, and its digest.
    fn add_present<'v>(&mut self, v: &'v Value, scope: &Scope<'_, 'v>, depth: usize) -> (u64, usize) {
        match v {
            Value::String(s) => {
                self.scalars += 1;
                self.strings += 1;
                let Classes { digits, letters, spaced, broken } = Classes::of(s);
                if spaced {
                    self.spaced += 1;
                }
                if s.len() >= 10 && digits > letters {
                    self.digity += 1;
                }
                if letters == 0 {
                    self.letterless += 1;
                }
                if duration_millis(s).is_some() || quantity(s).is_some() {
                    self.measures += 1;
                }
                if letters <= 1 && is_decimal(s) {
                    self.decimals += 1;
                } else if letters == 0
                    && !s.is_empty()
                    && s.len() <= 15
                    && s.trim_start_matches('-').bytes().all(|b| b.is_ascii_digit())
                {
                    self.integers += 1;
                    if let Ok(x) = s.parse::<i64>() {
                        if self.integers == 1 {
                            (self.least_integer, self.greatest_integer) = (x, x);
                        }
                        self.least_integer = self.least_integer.min(x);
                        self.greatest_integer = self.greatest_integer.max(x);
                    }
                }
                if broken || s.len() > 280 {
                    self.long_text += 1;
                }
                // `is_url`, with the whitespace already looked for.
                let link = !spaced && (s.starts_with("https://") || s.starts_with("http://"));
                // ISO dates have their dash at 4; mail, log and `ctime` forms have a clock
                // (and a link's colon is not one: no time is written as a link).
                if s.len() >= 10
                    && (s.as_bytes().get(4) == Some(&b'-') || (!link && s.contains(':')))
                    && crate::aggregate::timestamp_millis(v).is_some()
                {
                    self.times += 1;
                }
                if link {
                    self.urls += 1;
                    if is_image(s) {
                        self.images += 1;
                    }
                    if carries_token(s) {
                        self.token_links += 1;
                    }
                    if self.url_templates.len() < DISTINCT_CAP {
                        self.url_templates.insert(hash(&template(s, scope.scalars())));
                    }
                } else if is_opaque(s) {
                    self.opaque += 1;
                    if is_worded(s) {
                        self.worded += 1;
                    }
                    if s.contains('/') {
                        self.paths += 1;
                        if self.path_templates.len() < DISTINCT_CAP {
                            self.path_templates.insert(hash(&template(s, scope.scalars())));
                        }
                    }
                }
            }
            Value::Number(n) => {
                self.scalars += 1;
                self.numbers += 1;
                if let Some(x) = n.as_f64() {
                    if self.numbers == 1 {
                        (self.least, self.greatest) = (x, x);
                    }
                    self.least = self.least.min(x);
                    self.greatest = self.greatest.max(x);
                    self.epochs += usize::from(n.is_u64() && is_epoch(x));
                }
            }
            Value::Bool(_) => {
                self.scalars += 1;
                self.bools += 1;
            }
            Value::Object(m) if depth < MAX_DEPTH => {
                self.objects += 1;
                let scope = Scope::inside(scope, m);
                let mut hasher = FxHasher::default();
                hasher.write_u8(b'{');
                // `{`, `}` and the commas between members.
                let mut len = 2 + m.len().saturating_sub(1);
                let mut hint = 0;
                for (k, child) in m {
                    let (place, node) = self.child_mut(k, hint);
                    hint = place + 1;
                    let (child_hash, child_len) = node.add(child, &scope, depth + 1);
                    k.hash(&mut hasher);
                    hasher.write_u64(child_hash);
                    // The quoted name and its colon.
                    len += quoted_len(k) + 1 + child_len;
                }
                return (hasher.finish(), len);
            }
            Value::Array(a) if depth < MAX_DEPTH => {
                self.arrays += 1;
                self.max_len = self.max_len.max(a.len());
                self.single += usize::from(a.len() == 1);
                if a.iter().any(Value::is_array) {
                    self.nested_arrays += 1;
                }
                let elements = self.elements.get_or_insert_with(Box::default);
                let mut hasher = FxHasher::default();
                hasher.write_u8(b'[');
                let mut len = 2 + a.len().saturating_sub(1);
                for (i, item) in a.iter().enumerate() {
                    // Elements past the ones looked at still count in the array's digest.
                    let (item_hash, item_len) =
                        if i < MAX_ELEMENTS { elements.add(item, scope, depth + 1) } else { digest(item) };
                    hasher.write_u64(item_hash);
                    len += item_len;
                }
                return (hasher.finish(), len);
            }
            _ => {}
        }
        digest(v)
    }
}

/// What several tests of a string need, counted in one pass.
#[derive(Debug, PartialEq, Eq)]
struct Classes {
    /// ASCII digits.
    digits: usize,
    /// Letters of any script.
    letters: usize,
    /// Whether it holds whitespace.
    spaced: bool,
    /// Whether it holds a line break.
    broken: bool,
}

impl Classes {
    fn of(s: &str) -> Classes {
        let (mut digits, mut letters, mut spaced, mut broken) = (0usize, 0usize, false, false);
        if s.is_ascii() {
            // Byte by byte, without branches, for the text that most values are.
            for &b in s.as_bytes() {
                digits += usize::from(b.is_ascii_digit());
                letters += usize::from(b.is_ascii_alphabetic());
                // `char::is_whitespace` on ASCII.
                spaced |= matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r');
                broken |= b == b'\n';
            }
        } else {
            for c in s.chars() {
                if c.is_ascii_digit() {
                    digits += 1;
                } else if c.is_alphabetic() {
                    letters += 1;
                } else if c.is_whitespace() {
                    spaced = true;
                    broken |= c == '\n';
                }
            }
        }
        Classes { digits, letters, spaced, broken }
    }
}

/// Deeper values are not looked into: they are kept or dropped whole.
const MAX_DEPTH: usize = 12;
/// Elements of one array looked at.
const MAX_ELEMENTS: usize = 64;

/// Learn the statistics of `records`.
pub(crate) fn learn(records: &[Value]) -> Node {
    let mut root = Node::default();
    for r in records {
        // A record's own values are gathered where it is entered, as an object's are.
        let _ = root.add(r, &Scope::record(), 0);
    }
    root
}

pub(crate) fn is_empty(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(m) => m.is_empty(),
        _ => false,
    }
}

/// The length of `s` written as a JSON string: its quotes, and the escapes `serde_json`
/// writes (a quote, a backslash and control characters; nothing else).
fn quoted_len(s: &str) -> usize {
    // Most text has nothing to escape: found in a pass without branches first.
    if !s.bytes().fold(false, |any, b| any | (b < 0x20 || b == b'"' || b == b'\\')) {
        return s.len() + 2;
    }
    let escapes: usize = s
        .bytes()
        .map(|b| match b {
            b'"' | b'\\' | b'\n' | b'\r' | b'\t' | 0x08 | 0x0c => 1,
            0..=0x1f => 5,
            _ => 0,
        })
        .sum();
    s.len() + 2 + escapes
}

/// The hash and length of `v` serialized, written straight into the hasher: no string is
/// made. Used for scalars and for what [`Node::add`] does not look into.
fn digest(v: &Value) -> (u64, usize) {
    // A string, the most common scalar, is hashed as it stands: its serialized form is only
    // its escapes apart, which its length counts.
    if let Value::String(s) = v {
        let mut hasher = FxHasher::default();
        hasher.write_u8(b'"');
        hasher.write(s.as_bytes());
        return (hasher.finish(), quoted_len(s));
    }
    let mut sink = Digest { hasher: FxHasher::default(), len: 0 };
    // Writing to the sink cannot fail, and a `Value` always serializes.
    let _ = serde_json::to_writer(&mut sink, v);
    (sink.hasher.finish(), sink.len)
}

/// A writer that only hashes and counts what it is given.
struct Digest {
    hasher: FxHasher,
    len: usize,
}

impl std::io::Write for Digest {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.hasher.write(buf);
        self.len += buf.len();
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn hash(s: &str) -> u64 {
    let mut h = FxHasher::default();
    s.hash(&mut h);
    h.finish()
}

/// Member names that wrap values as type tags: the one member of their object in two or
/// more fields (`{"S": …}` around a status and a currency), or in a field whose siblings
/// are mostly wrapped so too (`{"M": …}` beside them). A one-member object among plain
/// fields (`metadata: {order_id}`) keeps its member's name.
pub(crate) fn wrapper_tags(root: &Node) -> Vec<String> {
    fn lone_member(node: &Node) -> Option<&String> {
        match node.children.as_slice() {
            [(key, _)] if node.objects * 10 >= node.present.max(1) * 9 => Some(key),
            _ => None,
        }
    }
    fn walk(node: &Node, seen: &mut Vec<(String, usize)>, wrapped: &mut Vec<String>, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        if let Some(key) = lone_member(node) {
            match seen.iter_mut().find(|(k, _)| k == key) {
                Some((_, n)) => *n += 1,
                None => seen.push((key.clone(), 1)),
            }
        }
        let lone: Vec<&String> = node.children.iter().filter_map(|(_, c)| lone_member(c)).collect();
        if lone.len() >= 2 && lone.len() * 2 >= node.children.len() {
            wrapped.extend(lone.into_iter().cloned());
        }
        for (_, child) in &node.children {
            walk(child, seen, wrapped, depth + 1);
        }
        if let Some(el) = &node.elements {
            walk(el, seen, wrapped, depth + 1);
        }
    }
    let (mut seen, mut wrapped) = (Vec::new(), Vec::new());
    walk(root, &mut seen, &mut wrapped, 0);
    let mut tags: Vec<String> = seen.into_iter().filter(|(_, n)| *n >= 2).map(|(k, _)| k).collect();
    for k in wrapped {
        if !tags.contains(&k) {
            tags.push(k);
        }
    }
    tags
}

/// A whole number in the range of Unix times from 2001 to 2033, in seconds or milliseconds.
fn is_epoch(x: f64) -> bool {
    (1e9..2e9).contains(&x) || (1e12..2e12).contains(&x)
}

impl Node {
    /// Whether the field holds quantities written as whole numbers in text (a report's
    /// `"149731"` sessions): mostly different values, spread over more than a factor of
    /// two, where codes and ids written so repeat or sit close together.
    pub(crate) fn holds_counted_text(&self) -> bool {
        self.integers * 10 >= self.present * 9
            && self.present >= 4
            && self.distinct() * 2 >= self.present
            && self.greatest_integer >= 0
            && self.greatest_integer > self.least_integer.max(0).saturating_mul(2)
    }

    /// Whether the field holds Unix times written as numbers: every value in the range,
    /// within about five years of each other.
    pub(crate) fn holds_epochs(&self) -> bool {
        self.present >= 2 && self.epochs == self.present && self.greatest <= self.least * 1.1
    }
}

/// A span of time written as text, in milliseconds: Go's and Kubernetes' form (`2m30s`,
/// `350ms`, `1h5m`, `3d4h`, `1.5s`, `120 ms`) or ISO 8601's (`PT1H5M3.5S`, `P2DT4H`).
/// A unit is required: a bare number is a number, not a duration.
pub(crate) fn duration_millis(s: &str) -> Option<f64> {
    if s.is_empty() || s.len() > 32 {
        return None;
    }
    if let Some(iso) = s.strip_prefix('P') {
        return iso_duration(iso);
    }
    // Go's form starts with its number (most text does not: answered without a copy).
    if !s.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
        return None;
    }
    if let Some(clock) = clock_millis(s) {
        return Some(clock);
    }
    // A number and its unit may be written apart (`120 ms`), and parts may be (`2d 1h 30m`,
    // as YouTrack writes an estimate): a space only ever parts a number from a unit.
    let bytes = s.as_bytes();
    let apart = |i: usize| {
        let (before, after) = (bytes[i - 1], bytes[i + 1]);
        (before.is_ascii_digit() && after.is_ascii_alphabetic())
            || (before.is_ascii_alphabetic() && after.is_ascii_digit())
    };
    if (1..bytes.len().saturating_sub(1)).any(|i| bytes[i] == b' ' && !apart(i)) || s.ends_with(' ') {
        return None;
    }
    let compact = s.replace(' ', "");
    let mut rest = compact.as_str();
    let mut total = 0.0;
    while !rest.is_empty() {
        let digits = rest.find(|c: char| !(c.is_ascii_digit() || c == '.')).filter(|&d| d > 0)?;
        let x: f64 = rest[..digits].parse().ok()?;
        rest = &rest[digits..];
        let (unit, len) = [
            ("ns", 1e-6),
            ("us", 1e-3),
            ("µs", 1e-3),
            ("ms", 1.0),
            ("sec", 1e3),
            ("s", 1e3),
            ("min", 6e4),
            ("m", 6e4),
            ("h", 3.6e6),
            ("d", 8.64e7),
        ]
        .into_iter()
        .find_map(|(u, ms)| rest.strip_prefix(u).map(|r| (ms, rest.len() - r.len())))?;
        total += x * unit;
        rest = &rest[len..];
    }
    Some(total)
}

/// A span of time on a clock, in milliseconds: hours, minutes and seconds (`10:11:49`,
/// `240:03:07.5`), with days before a dash as Slurm writes them (`1-00:30:29`), or minutes
/// and seconds with a fraction as `top` writes CPU time (`12:34.56`). Two parts without a
/// fraction (`0:15`, an exit code or a ratio) are not one.
fn clock_millis(s: &str) -> Option<f64> {
    let (days, clock) = match s.split_once('-') {
        Some((d, rest)) if !d.is_empty() && d.len() <= 5 && d.bytes().all(|b| b.is_ascii_digit()) => {
            (d.parse::<f64>().ok()?, rest)
        }
        Some(_) => return None,
        None => (0.0, s),
    };
    let (whole, fraction) = match clock.split_once('.') {
        Some((w, f)) if !f.is_empty() && f.len() <= 9 && f.bytes().all(|b| b.is_ascii_digit()) => (w, Some(f)),
        Some(_) => return None,
        None => (clock, None),
    };
    let parts: Vec<&str> = whole.split(':').collect();
    let two_digits = |p: &&str| p.len() == 2 && p.bytes().all(|b| b.is_ascii_digit()) && p < &"60";
    let lead_ok = |p: &str| !p.is_empty() && p.len() <= 6 && p.bytes().all(|b| b.is_ascii_digit());
    let seconds = match parts.as_slice() {
        [h, m, sec] if lead_ok(h) && two_digits(m) && two_digits(sec) => {
            h.parse::<f64>().ok()? * 3600.0 + m.parse::<f64>().ok()? * 60.0 + sec.parse::<f64>().ok()?
        }
        [m, sec] if fraction.is_some() && days == 0.0 && lead_ok(m) && two_digits(sec) => {
            m.parse::<f64>().ok()? * 60.0 + sec.parse::<f64>().ok()?
        }
        _ => return None,
    };
    let fraction: f64 = fraction.map_or(Ok(0.0), |f| format!("0.{f}").parse()).ok()?;
    Some((days * 86_400.0 + seconds + fraction) * 1000.0)
}

/// The part of an ISO 8601 duration after its `P`: days, then `T` and hours, minutes and
/// seconds.
fn iso_duration(s: &str) -> Option<f64> {
    let (date, time) = match s.split_once('T') {
        Some((d, t)) if !t.is_empty() => (d, t),
        Some(_) => return None,
        None => (s, ""),
    };
    let mut total = 0.0;
    let mut parts = 0;
    for (text, units) in
        [(date, &[('W', 6.048e8), ('D', 8.64e7)][..]), (time, &[('H', 3.6e6), ('M', 6e4), ('S', 1e3)][..])]
    {
        let mut rest = text;
        let mut next_unit = 0;
        while !rest.is_empty() {
            let digits = rest.find(|c: char| !(c.is_ascii_digit() || c == '.')).filter(|&d| d > 0)?;
            let x: f64 = rest[..digits].parse().ok()?;
            let letter = rest[digits..].chars().next()?;
            let at = units.iter().skip(next_unit).position(|(u, _)| *u == letter)? + next_unit;
            total += x * units[at].1;
            next_unit = at + 1;
            parts += 1;
            rest = &rest[digits + 1..];
        }
    }
    (parts > 0).then_some(total)
}

/// A decimal written as text: an optional minus, an optional currency sign, digits (in
/// groups of three after commas, as a sheet formats them), a point, digits (`"129.95"`,
/// `"$82,539.63"`); or a whole amount with its currency sign or thousands commas
/// (`"£49,500"`), money as much as `"£49,500.00"` is.
pub(crate) fn is_decimal(s: &str) -> bool {
    s.contains(['.', ',', '$', '€', '£', '¥']) && decimal_value(s).is_some()
}

/// The number a decimal (or a whole number) written as text stands for, with its currency
/// sign and thousands commas taken off.
pub(crate) fn decimal_value(s: &str) -> Option<f64> {
    if s.is_empty() || s.len() > 24 {
        return None;
    }
    let (negative, body) = match s.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, s),
    };
    let body = body.strip_prefix(['$', '€', '£', '¥']).unwrap_or(body);
    // An exponent, as a float written by a database (`1.767225025E9`).
    let (body, exponent) = match body.split_once(['e', 'E']) {
        Some((mantissa, e)) => {
            let digits = e.strip_prefix(['+', '-']).unwrap_or(e);
            if digits.is_empty() || digits.len() > 3 || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            (mantissa, Some(e))
        }
        None => (body, None),
    };
    let (whole, fraction) = match body.split_once('.') {
        Some((w, f)) if !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()) => (w, Some(f)),
        Some(_) => return None,
        None => (body, None),
    };
    let groups: Vec<&str> = whole.split(',').collect();
    let grouped = groups.len() == 1
        || (!groups[0].is_empty() && groups[0].len() <= 3 && groups[1..].iter().all(|g| g.len() == 3));
    if whole.is_empty() || !grouped || !groups.iter().all(|g| g.bytes().all(|b| b.is_ascii_digit())) {
        return None;
    }
    let digits: String = groups.concat();
    let mut text = match fraction {
        Some(f) => format!("{digits}.{f}"),
        None => digits,
    };
    if let Some(e) = exponent {
        text = format!("{text}e{e}");
    }
    let x: f64 = text.parse().ok()?;
    Some(if negative { -x } else { x })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    proptest! {
        /// The byte-by-byte count of ASCII text gives what the count by characters gives.
        #[test]
        fn classes_of_ascii_text_are_counted_as_by_characters(s in "[a-zA-Z0-9 \t\n\r\u{0b}\u{0c}/._-]{0,40}") {
            let mut by_chars = Classes { digits: 0, letters: 0, spaced: false, broken: false };
            for c in s.chars() {
                by_chars.digits += usize::from(c.is_ascii_digit());
                by_chars.letters += usize::from(c.is_alphabetic());
                by_chars.spaced |= c.is_whitespace();
                by_chars.broken |= c == '\n';
            }
            prop_assert_eq!(Classes::of(&s), by_chars);
        }
    }

    #[test]
    fn links_made_of_the_records_values_share_a_template() {
        let recs = vec![
            json!({"number": 12, "url": "https://api.x.com/issues/12"}),
            json!({"number": 345, "url": "https://api.x.com/issues/345"}),
        ];
        let root = learn(&recs);
        let url = root.child("url").unwrap();
        assert_eq!(url.urls, 2);
        assert_eq!(url.url_templates.len(), 1);
        assert_eq!(root.child("number").unwrap().distinct(), 2);
    }

    /// A record whose nesting goes past what is looked into, with an array longer than the
    /// elements looked at, names and strings that need escapes, and empty members.
    fn awkward_record(leaf: &str) -> Value {
        let mut deep = json!({"leaf": leaf});
        for i in 0..MAX_DEPTH + 3 {
            deep = json!({ format!("level\"{i}"): deep, "n": i });
        }
        let long: Vec<Value> = (0..MAX_ELEMENTS + 7).map(|i| json!({"i": i, "tab\tname": "a\u{1}b"})).collect();
        json!({"deep": deep, "long": long, "empty": {}, "none": null, "text": "line\nbreak \"quoted\" \\ é", "n": -1.5})
    }

    #[test]
    fn the_digest_made_from_members_measures_what_serde_json_writes() {
        for leaf in ["x", "y\u{7f}", ""] {
            let record = awkward_record(leaf);
            let mut root = Node::default();
            let (_, len) = root.add(&record, &Scope::record(), 0);
            assert_eq!(len, serde_json::to_string(&record).unwrap().len(), "{leaf:?}");
            assert_eq!(root.bytes, len);
            let deep = root.child("deep").unwrap();
            assert_eq!(deep.bytes, serde_json::to_string(&record["deep"]).unwrap().len());
        }
    }

    #[test]
    fn equal_values_share_a_digest_and_a_difference_anywhere_tells_them_apart() {
        // Differences at the deepest leaf (past what is looked into) and past the elements
        // looked at still make distinct values.
        let mut recs = vec![awkward_record("x"), awkward_record("x"), awkward_record("y")];
        let mut longer = awkward_record("x");
        longer["long"].as_array_mut().unwrap().last_mut().unwrap()["i"] = json!(-1);
        recs.push(longer);
        let root = learn(&recs);
        assert_eq!(root.distinct(), 3);
        assert_eq!(root.child("deep").unwrap().distinct(), 2);
        assert_eq!(root.child("long").unwrap().distinct(), 2);
        assert_eq!(root.child("n").unwrap().distinct(), 1);
    }
}
