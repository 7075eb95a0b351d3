//! Value counts of one field over every record, and the clause that says them.

// Counts are keyed by upstream values: a fast hash, seeded per process.
use foldhash::HashMap;

use serde_json::Value;

use super::part::{MAX_KINDS, Part, Within};
use super::{MAX_DISTINCT, mix, quoted_if_ambiguous, scalar_text};
use crate::distinct::{MAX_CHARS, shorten_together};
use crate::numfmt::thousands;
use crate::words::same_words;

/// The longest most-common value written whole, in characters: twice what the others
/// keep, so a file's path or a rule's dotted id at the top of a ranking is named in full.
const TOP_CHARS: usize = 2 * MAX_CHARS;
/// The values of a field that tags records of several kinds listed, at most.
pub(super) const TAG_VALUES: usize = 24;

/// Value counts of one column.
pub(super) struct Counter {
    pub(super) column: usize,
    /// Each value's count and the first record that held it.
    pub(super) counts: HashMap<String, (u64, u64)>,
    /// Values past [`MAX_DISTINCT`], counted together.
    pub(super) other: u64,
    /// Records that had a value.
    pub(super) present: u64,
    /// Records whose value was an empty list (no assignees, no labels): counted as present,
    /// but holding none of the values.
    pub(super) empty: u64,
    /// A hash of the records holding a value (a sum of each one's mixed number): two fields
    /// missing from the same records (every field of an event's properties, where some
    /// events have none) have the same, and their records without are counted once.
    pub(super) holders: u64,
    /// The sample already showed the column's values repeat; otherwise the counts over
    /// every record decide whether they are worth a clause.
    pub(super) learned: bool,
    /// Every value so far was new ([`UNIQUE_AFTER`] records or more): an id, not counted on.
    pub(super) given_up: bool,
    /// How the records fall into groups of equal values, as a hash of each record's number
    /// and the number of the first record holding its value: two fields with the same
    /// split the records alike. `None` past [`MAX_DISTINCT`] values.
    pub(super) split: Option<u64>,
    /// The first record holding each list of values (a single value's is in `counts`).
    pub(super) first_holder: HashMap<String, u64>,
    /// What is counted is this part of each value, not the value ([`part`](super::part)).
    pub(super) part: Option<Part>,
    /// Other fields counted within each part ([`Within`]); the one that tells most is said.
    pub(super) within: Vec<Within>,
    /// Values are counted with their runs of digits written `*` ([`digits_as_star`]): the
    /// values all differed, but only in their numbers.
    pub(super) masked: bool,
}

/// The longest a code is (characters): a country's, a currency's, a region's (`fra1`).
const CODE_CHARS: usize = 6;

/// Records after which a column whose values were all different stops being counted.
const UNIQUE_AFTER: u64 = 64;

impl Counter {
    pub(super) fn new(column: usize, learned: bool) -> Counter {
        Counter {
            column,
            counts: HashMap::default(),
            other: 0,
            present: 0,
            empty: 0,
            holders: 0,
            learned,
            given_up: false,
            split: Some(0),
            first_holder: HashMap::default(),
            part: None,
            within: Vec::new(),
            masked: false,
        }
    }

    /// Counts of a part of each value of `column` (the records' key).
    pub(super) fn of_part(column: usize, part: Part, within: &[(usize, &str)]) -> Counter {
        let within = within.iter().map(|&(column, name)| Within::new(column, name.to_owned())).collect();
        Counter { part: Some(part), within, ..Counter::new(column, false) }
    }

    /// Whether most of the counted records hold a value that reads as words (a list's
    /// name, a runtime's) rather than as an id: a random-looking one (`cus_1V8vLDn8gOgvot`),
    /// hexadecimal digits (`4f1c2e9a7b`) or a number.
    pub(super) fn reads_as_words(&self) -> bool {
        let (mut words, mut all) = (0u64, 0u64);
        for (value, (n, _)) in &self.counts {
            all += n;
            let hex = value.len() >= 6
                && value.bytes().all(|b| b.is_ascii_hexdigit())
                && value.bytes().any(|b| b.is_ascii_digit());
            let id = hex || crate::compact::is_opaque(value) || !value.chars().any(char::is_alphabetic);
            if !id {
                words += n;
            }
        }
        all > 0 && words * 2 > all
    }

    /// Whether a part's counts sort the records: nearly every record has the part (half, for
    /// a file's type), and it takes a few kinds.
    pub(super) fn sorts(&self, records: u64) -> bool {
        // A type after the last `.` is a file's, which half the records may have (files
        // among their folders); other parts name what nearly every record is.
        let held = match self.part {
            Some(Part::After(_)) => self.present * 2 >= records,
            _ => self.present * 10 >= records * 9,
        };
        let kinds = self.counts.len() as u64;
        // A tree has many folders, and "which folder has the most" is asked of all of them:
        // folders sort the records while most records share their folder with another; the
        // folders with the most are said first.
        let few = match self.part {
            Some(Part::Folder) => {
                let shared: u64 = self.counts.values().map(|&(n, _)| n).filter(|&n| n >= 2).sum();
                shared * 2 >= self.present
            }
            _ => kinds <= MAX_KINDS as u64,
        };
        held && self.other == 0 && kinds >= 2 && few
    }

    /// Whether a link's part is held by enough records to be said: a host by nine in ten
    /// (a field of links, not one that holds a link now and then), a file type by half (an
    /// API's paths name no file, a page's assets do).
    pub(super) fn held_by_most(&self, records: u64) -> bool {
        match self.part {
            Some(Part::LinkType) => self.present * 2 >= records,
            _ => self.present * 10 >= records * 9,
        }
    }

    pub(super) fn add(&mut self, v: &Value, record: u64) {
        if self.given_up {
            return;
        }
        match v {
            Value::Array(items) => {
                self.present += 1;
                self.empty += u64::from(items.is_empty());
                if !items.is_empty() {
                    self.holders = self.holders.wrapping_add(super::mix(record));
                }
                let mut values: Vec<String> = items.iter().map(scalar_text).collect();
                values.sort();
                values.dedup();
                if self.split.is_some() {
                    let group = values.join("\u{1f}");
                    let first = match self.first_holder.get(&group) {
                        Some(first) => Some(*first),
                        None if self.first_holder.len() < MAX_DISTINCT => {
                            self.first_holder.insert(group, record);
                            Some(record)
                        }
                        None => None,
                    };
                    self.note_split(record, first);
                }
                for s in &values {
                    self.count(s, record);
                }
                self.give_up_if_unique();
            }
            Value::String(s) => self.add_text(s, record),
            other => self.add_text(&scalar_text(other), record),
        }
    }

    /// Add one value given as text: a scalar, or a part of one.
    pub(super) fn add_text(&mut self, s: &str, record: u64) {
        if self.given_up {
            return;
        }
        self.present += 1;
        self.holders = self.holders.wrapping_add(super::mix(record));
        // One value: its own first holder is kept with its count.
        let first = self.count(s, record);
        self.note_split(record, first);
        self.give_up_if_unique();
    }

    /// Stop counting a field whose values were all different so far: an id. Unless the
    /// values differ only in their numbers and repeat once those are written `*`
    /// (`users:(("haproxy",pid=1187,fd=3203))`, a process and a descriptor each): then
    /// what is counted from now on is that pattern, which tells the process.
    fn give_up_if_unique(&mut self) {
        if self.learned || self.present < UNIQUE_AFTER || (self.counts.len() as u64) < self.present {
            return;
        }
        if let Some(patterns) = self.patterns().filter(|p| (p.len() as u64) * 2 <= self.present) {
            self.counts = patterns;
            self.masked = true;
            self.first_holder = HashMap::default();
            self.split = None;
            return;
        }
        self.given_up = true;
        self.counts = HashMap::default();
        self.first_holder = HashMap::default();
        self.split = None;
    }

    /// The counts with each value's runs of digits written `*`, when that says something:
    /// fewer values than before, two or more, each with a letter left. One pattern they all
    /// share is an id with a prefix; patterns without a letter (`*`, `*.*.*.*:*`) are
    /// numbers and addresses, and name nothing. Values already counted by pattern, or
    /// parts of a name, are not.
    fn patterns(&self) -> Option<HashMap<String, (u64, u64)>> {
        if self.masked || self.part.is_some() {
            return None;
        }
        let mut patterns: HashMap<String, (u64, u64)> = HashMap::default();
        for (value, &(n, first)) in &self.counts {
            let e = patterns.entry(digits_as_star(value).into_owned()).or_insert((0, first));
            e.0 += n;
            e.1 = e.1.min(first);
        }
        let named = patterns.keys().all(|p| p.chars().any(char::is_alphabetic));
        (named && patterns.len() >= 2 && patterns.len() < self.counts.len()).then_some(patterns)
    }

    /// The same counts by pattern ([`Counter::patterns`]), when every value was counted.
    fn by_pattern(&self) -> Option<Counter> {
        if self.given_up || self.other > 0 {
            return None;
        }
        Some(Counter {
            counts: self.patterns()?,
            masked: true,
            present: self.present,
            split: None,
            first_holder: HashMap::default(),
            within: Vec::new(),
            ..Counter::new(self.column, self.learned)
        })
    }

    /// Count one value; the first record that held it, when it is counted on its own.
    fn count(&mut self, s: &str, record: u64) -> Option<u64> {
        let masked = if self.masked { digits_as_star(s) } else { std::borrow::Cow::Borrowed(s) };
        let s: &str = &masked;
        if let Some((n, first)) = self.counts.get_mut(s) {
            *n += 1;
            Some(*first)
        } else if self.counts.len() < MAX_DISTINCT {
            self.counts.insert(s.to_owned(), (1, record));
            Some(record)
        } else {
            self.other += 1;
            None
        }
    }

    /// Fold a record's group (the first record holding its value) into the split's hash.
    fn note_split(&mut self, record: u64, first: Option<u64>) {
        self.split = match (self.split, first) {
            (Some(split), Some(first)) => Some(mix(split ^ mix(record.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ first))),
            _ => None,
        };
    }

    /// Whether the counts say something a reader could not get otherwise: values repeat,
    /// in that at least half the records hold a value some other record holds too.
    fn worth_saying(&self) -> bool {
        if self.given_up || self.present < 4 {
            return false;
        }
        if self.learned {
            return true;
        }
        let repeated: u64 = self.counts.values().map(|(n, _)| *n).filter(|n| *n >= 2).sum();
        repeated * 2 >= self.present
    }

    /// Whether this field is the tag of records of several kinds: at least half of its
    /// values (and two or more) name fields of their own beside it (a Notion block's
    /// `type: "to_do"` beside its `to_do.checked`, a payment method's `type: "card"` beside
    /// its `card.brand`). Each value is then a kind of record, and all of them are listed
    /// (up to [`TAG_VALUES`]), not only the most common.
    ///
    /// A field of more than twice as many values as are listed is not looked at: it could
    /// not be listed whole, and a field of ids would cost a look-up per value and column on
    /// every first read. Each column is looked at once, for the value its first step after
    /// the field's parent names.
    pub(super) fn tags_kinds(&self, field: &str, columns: &[String]) -> bool {
        if self.counts.len() > 2 * TAG_VALUES {
            return false;
        }
        let parent = field.rsplit_once('.').map_or("", |(p, _)| p);
        let named: std::collections::HashSet<&str> = columns
            .iter()
            .filter_map(|c| {
                let own = if parent.is_empty() { c.as_str() } else { c.strip_prefix(parent)?.strip_prefix('.')? };
                own.split_once('.').map(|(first, _)| first)
            })
            .collect();
        let naming = self.counts.keys().filter(|v| named.contains(v.as_str())).count();
        naming >= 2 && naming * 2 >= self.counts.len()
    }

    /// The clause of the counts, and whether it counts patterns rather than values.
    pub(super) fn clause(&self, name: &str, records: u64, top: usize) -> Option<(String, bool)> {
        self.clause_beside(name, records, top, None)
    }

    /// `; without {name}: {n}`, the records holding none of the values: "how many are
    /// unassigned" asks for them, and no sum of the counts gives it (a list's values overlap,
    /// and the ones past the listed are not shown). Of a field with one value, it is the
    /// records less that value's count, said already; of a part, not asked.
    /// Records already counted this way (the [`holders`](Counter::holders) of fields said
    /// before) are not counted again.
    pub(super) fn without_note(&self, name: &str, records: u64, said: &mut Vec<u64>) -> String {
        let without = records.saturating_sub(self.present) + self.empty;
        if self.part.is_some() || without == 0 || self.counts.len() < 2 || said.contains(&self.holders) {
            return String::new();
        }
        said.push(self.holders);
        format!("; without {name}: {}", thousands(without))
    }

    /// Whether every value counted is a code: one short token (`GB`, `ams3`, `P1`), as a
    /// field written beside a longer name of the same thing holds.
    pub(super) fn holds_codes(&self) -> bool {
        !self.counts.is_empty()
            && self.counts.keys().all(|v| {
                v.chars().count() <= CODE_CHARS
                    && v.chars().all(char::is_alphanumeric)
                    && v.chars().any(char::is_alphabetic)
            })
    }

    /// The values of this field by the first record holding each, for [`clause_beside`]:
    /// of a field that splits the records as another does, these are the other's names for
    /// its values. `None` for lists (a record's values are not one value) and ids.
    ///
    /// [`clause_beside`]: Counter::clause_beside
    pub(super) fn names_by_first_record(&self) -> Option<HashMap<u64, &str>> {
        if !self.first_holder.is_empty() || self.masked || self.part.is_some() || !self.reads_as_words() {
            return None;
        }
        Some(self.counts.iter().map(|(v, (_, first))| (*first, v.as_str())).collect())
    }

    /// [`clause`](Counter::clause), each value written with the name another field that
    /// splits the records alike gives it (`GB / United Kingdom 23`), where that name is not
    /// the same words: a reader may ask by either.
    pub(super) fn clause_beside(
        &self,
        name: &str,
        records: u64,
        top: usize,
        beside: Option<&HashMap<u64, &str>>,
    ) -> Option<(String, bool)> {
        // One value in every record says nothing a constant would not; nor do values every
        // record holds (a list with the same items in each).
        if self.counts.values().all(|(n, _)| *n >= records) && self.other == 0 {
            return None;
        }
        if !self.worth_saying() {
            return self.by_pattern().filter(Counter::worth_saying)?.clause_beside(name, records, top, None);
        }
        // Counted by pattern: the name says so, since no listed value is a value as such.
        let patterned;
        let name = if self.masked {
            patterned = format!("{name} (digits as *)");
            patterned.as_str()
        } else {
            name
        };
        let mut ranked: Vec<(&String, &u64)> = self.counts.iter().map(|(v, (n, _))| (v, n)).collect();
        ranked.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        // A note of one or two more values costs about what they would: they are shown.
        // Where more values are left out anyway, those seen once are not listed: which of
        // the many would be is chance (ties go in text order), and the room they take is
        // another field's.
        let repeated = ranked.iter().take_while(|(_, n)| **n >= 2).count().max(1);
        let top = if ranked.len() <= top + 2 { ranked.len() } else { top.min(repeated) };
        let listed: Vec<&str> = ranked.iter().take(top).map(|(v, _)| v.as_str()).collect();
        // The field whose values the kinds tell most about, if they tell anything, and its
        // values within at least half the records.
        let within = self
            .within
            .iter()
            .map(|w| (w, w.information()))
            .filter(|(_, (information, covered))| *information > 1e-9 && covered * 2 >= self.present)
            .max_by(|a, b| a.1.0.total_cmp(&b.1.0))
            .map(|(w, _)| w);
        let detail = |v: &str| within.and_then(|w| w.detail(v)).map(|d| format!(" ({d})"));
        // The most common value is what "which … has the most" asks for: written whole
        // unless it is a document rather than a name; the others are shortened together.
        let shown: Vec<String> = shorten_together(&listed)
            .into_iter()
            .zip(&ranked)
            .enumerate()
            .map(|(i, (v, (full, n)))| {
                let v = if i == 0 && full.chars().count() <= TOP_CHARS { (*full).clone() } else { v };
                let other = beside
                    .zip(self.counts.get(*full))
                    .and_then(|(names, (_, first))| names.get(first))
                    .filter(|other| !same_words(other, full))
                    .map(|other| format!(" / {}", quoted_if_ambiguous(other)));
                format!(
                    "{}{} {}{}",
                    quoted_if_ambiguous(&v),
                    other.unwrap_or_default(),
                    thousands(**n),
                    detail(full).unwrap_or_default()
                )
            })
            .collect();
        let more = ranked.len().saturating_sub(top);
        // Where three or more values are listed, the order is said: a reader asked which
        // value is the most common should not have to guess whether the list is ranked.
        let order = if shown.len() >= 3 { ", most first" } else { "" };
        // The field counted within each value is named once.
        let within = match (within, listed.iter().any(|v| detail(v).is_some())) {
            (Some(w), true) => format!(" with {} in each", w.name),
            _ => String::new(),
        };
        let mut c = format!("{name}{within}{order}: {}", shown.join(", "));
        if more > 0 || self.other > 0 {
            c.push_str(&format!(" (+{} more values)", thousands(more as u64 + u64::from(self.other > 0))));
        }
        Some((c, self.masked))
    }
}

/// `s` with every run of ASCII digits written `*`: the pattern values that differ only in
/// their numbers share. A spaced value (a release's `Deploy f5ba806f`, a certificate's
/// `2026-03-01 … (VALID: 88 days)`) is read as a line of words instead
/// ([`words_as_pattern`]): an id with letters among its digits is one open word, where digit
/// runs alone would leave it a different value in every record.
fn digits_as_star(s: &str) -> std::borrow::Cow<'_, str> {
    if s.bytes().any(|b| b.is_ascii_whitespace()) {
        return std::borrow::Cow::Owned(words_as_pattern(s));
    }
    if !s.bytes().any(|b| b.is_ascii_digit()) {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut in_digits = false;
    for c in s.chars() {
        if c.is_ascii_digit() {
            if !in_digits {
                out.push('*');
            }
            in_digits = true;
        } else {
            out.push(c);
            in_digits = false;
        }
    }
    std::borrow::Cow::Owned(out)
}

/// A spaced value's pattern, made as a line's is ([`crate::line_patterns`]): each word
/// that holds a digit written `*`, runs of them once.
fn words_as_pattern(s: &str) -> String {
    let mut words = Vec::new();
    crate::line_patterns::pattern_into(s, &mut words);
    words.join(" ")
}
