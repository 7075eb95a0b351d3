//! The numbers in a line pattern's open slots, with the lines that hold the largest and the
//! smallest: `"--- PASS: * *" 1,061 (max 4.21s TestCheckout/retry, min 0.00s TestPing)`. A
//! test run's durations, a request log's latencies and a query plan's row counts sit in
//! the words a pattern leaves open; their extremes answer "which test was slowest" in the
//! first read, for formats nobody wrote a reader for.
//!
//! A slot's word holds a measure when its one number stands alone or after a label (`=`,
//! `:`, a bracket) and is followed by nothing but a unit (`12ms`, `(0.15s)`, `rows=59821`,
//! the end of a range `time=0.01..45.6`). Times (`18:00:48`), dates, versions and names
//! with digits (`events_2025_11_18`) hold several numbers or none alone, and are not
//! measures. The line is named by the pattern's most varied open slot that is not a number
//! itself (a test's name, a trace id), read in the same pass.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use crate::line_patterns::is_value;
use crate::numfmt::thousands;

/// Measures listed per pattern, at most.
const MAX_MEASURES: usize = 2;
/// Distinct values counted per slot (for the values the lines share most, and to choose
/// the slot that names a line); past it a slot stops counting and names every line.
const MAX_DISTINCT: usize = 4_096;
/// Distinct values a measure needs (fewer in a pattern of few lines: half their number) to
/// be ranked; a number with fewer values is a code (`status=404`), not a measure.
const VARIED: usize = 10;
/// Share of a pattern's lines that must hold a measure for it to be listed.
const MEASURED_SHARE: f64 = 0.9;
/// Lines of a pattern read to judge whether a slot holds numbers rather than names; the
/// counts and the measures read them all.
const SAMPLE: usize = 2_000;
/// Characters of a name kept.
const MAX_NAME: usize = 60;
/// Grouping slots listed per pattern, and values listed per slot, at most. One slot per
/// pattern spreads the room the counts leave over more patterns.
const MAX_GROUPS: usize = 1;
const GROUP_VALUES: usize = 3;

/// Where a line's words sit in its pattern: a word's index in the pattern it produces (runs
/// of words holding digits share one index, as the pattern writes them as one `*`).
pub(crate) fn positions(line: &str, max_words: usize) -> impl Iterator<Item = (usize, &str)> {
    let mut next = 0usize;
    let mut last_open = false;
    line.split_whitespace().take(max_words).map(move |word| {
        // As the pattern writes it.
        let open = is_value(word);
        if !(open && last_open) {
            next += 1;
        }
        last_open = open;
        (next - 1, word)
    })
}

/// The number a word holds as a measure, and the word without its enclosing brackets, or
/// `None` (see the module's rules).
fn measure(word: &str) -> Option<(f64, &str)> {
    let bytes = word.as_bytes();
    // Number tokens: a digit, then digits or single separators between digits. Only the
    // first and the last are kept, and how many there are: this runs on every open word.
    let (mut first, mut last, mut tokens) = ((0, 0), (0, 0), 0usize);
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() {
            let start = i;
            while i < bytes.len()
                && (bytes[i].is_ascii_digit()
                    || (matches!(bytes[i], b'.' | b',') && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)))
            {
                i += 1;
            }
            tokens += 1;
            if tokens > 2 {
                return None;
            }
            if tokens == 1 {
                first = (start, i);
            }
            last = (start, i);
        } else {
            i += 1;
        }
    }
    // One number, or a range `a..b` (its end is the measure).
    let (start, end) = last;
    if tokens == 0 || (tokens == 2 && &word[first.1..start] != "..") {
        return None;
    }
    let before = &word[..first.0];
    if !(before.is_empty() || before.ends_with(['(', '[', '=', ':', '$', '+', '~', '<', '>'])) {
        return None;
    }
    // Hex ids (`d927fdc09675fef2`) read as one number followed by letters.
    let after = &word[end..];
    let unit = after.trim_end_matches([')', ']', '>', ',', ';', '"', '\'', '.']);
    if !unit.bytes().all(|b| b.is_ascii_alphabetic() || b == b'%') || unit.len() > 3 {
        return None;
    }
    let digits = &word[start..end];
    let value: f64 = if digits.contains(',') { digits.replace(',', "").parse() } else { digits.parse() }.ok()?;
    let shown =
        word.trim_start_matches(['(', '[', '<', '"', '\'']).trim_end_matches([')', ']', '>', ',', ';', '"', '\'']);
    value.is_finite().then_some((value, shown))
}

/// The label of each open slot of `pattern`: the word before it, without its punctuation,
/// when that word is not open itself.
fn labels(pattern: &[&str]) -> Vec<Option<String>> {
    pattern
        .iter()
        .enumerate()
        .map(|(i, w)| {
            let before = pattern.get(i.checked_sub(1)?)?;
            let label = before.trim_matches(|c: char| !c.is_alphanumeric());
            (*w == "*" && *before != "*" && !label.is_empty()).then(|| label.to_owned())
        })
        .collect()
}

/// Whether a word is a time or a date: numbers joined by `-`, `:`, `.`, `/`, `T`, `Z` or
/// `+` and nothing else (`18:00:48`, `2025-12-31T20:08:48.137Z`).
fn time_like(word: &str) -> bool {
    let numbers = word.split(|c: char| !c.is_ascii_digit()).filter(|n| !n.is_empty()).count();
    numbers >= 2
        && word.trim_matches(['[', ']', '(', ')', ',']).chars().all(|c| c.is_ascii_digit() || "-:./TZ+".contains(c))
}

/// The shape of a measure's word: its label and unit around `#`, so that `rows=5` and
/// `rows=9` are one measure and `width=0` another. Made character by character, so that
/// a word can be compared with a shape without writing its own.
fn shape_chars(word: &str) -> impl Iterator<Item = char> + '_ {
    let mut in_number = false;
    word.chars().filter_map(move |c| {
        if c.is_ascii_digit() || (in_number && (c == '.' || c == ',')) {
            let first = !in_number;
            in_number = true;
            first.then_some('#')
        } else {
            in_number = false;
            Some(c)
        }
    })
}

/// Where a word sits: its pattern word's index and its place in that word's run.
type Place = (usize, usize);

/// The extreme line of one measure so far.
struct Extreme<'a> {
    value: f64,
    shown: &'a str,
    /// The words of the line's open slots, by position and place in the slot.
    slots: Vec<(Place, &'a str)>,
}

/// One measure of a pattern: its shape (`rows=#`), how many lines hold it, its extremes.
struct Measure<'a> {
    shape: String,
    lines: usize,
    values: HashSet<u64>,
    max: Extreme<'a>,
    min: Extreme<'a>,
}

/// What the lines of one pattern hold in its open slots.
#[derive(Default)]
pub(crate) struct SlotStats<'a> {
    lines: usize,
    /// Per open slot and place, how many of its words are numbers or times rather than names.
    numeric: HashMap<Place, usize>,
    /// The measures, by where their words sit (the first shape seen there).
    measures: HashMap<Place, Measure<'a>>,
    /// Per open slot and place, every line's word counted (until it has too many distinct
    /// words to group lines by: then `None`): the values a pattern's lines share most, and
    /// how varied a slot is, for the words that name a line.
    groups: HashMap<Place, Option<HashMap<&'a str, usize>>>,
    /// The word before each open slot of the pattern, its label (`user` of `user *`), by
    /// the slot's index in the pattern.
    labels: Vec<Option<String>>,
    /// The line being read: its open words, and its measures. Kept to spare an allocation
    /// per line.
    slots: Vec<(Place, &'a str)>,
    found: Vec<(Place, f64, &'a str, &'a str)>,
}

impl<'a> SlotStats<'a> {
    /// Reads one line of the pattern `pattern` (the open slots are its `*`).
    pub(crate) fn add(&mut self, pattern: &[&str], line: &'a str, max_words: usize) {
        self.lines += 1;
        if self.labels.is_empty() {
            self.labels = labels(pattern);
        }
        let mut slots = std::mem::take(&mut self.slots);
        let mut found = std::mem::take(&mut self.found);
        slots.clear();
        found.clear();
        for (pos, word) in positions(line, max_words) {
            if pattern.get(pos) != Some(&"*") {
                continue;
            }
            let place = match slots.last() {
                Some(((p, k), _)) if *p == pos => (pos, k + 1),
                _ => (pos, 0),
            };
            slots.push((place, word));
            self.count_group(place, word);
            let measured = measure(word);
            // Whether a slot holds numbers rather than names is judged on the first lines only.
            if self.lines <= SAMPLE && (measured.is_some() || time_like(word)) {
                *self.numeric.entry(place).or_default() += 1;
            }
            if let Some((value, shown)) = measured {
                found.push((place, value, shown, word));
            }
        }
        for &(place, value, shown, word) in &found {
            let extreme = || Extreme { value, shown, slots: slots.clone() };
            match self.measures.get_mut(&place) {
                Some(m) if shape_chars(word).eq(m.shape.chars()) => {
                    m.lines += 1;
                    if m.values.len() < VARIED {
                        m.values.insert(value.to_bits());
                    }
                    if value > m.max.value {
                        m.max = extreme();
                    }
                    if value < m.min.value {
                        m.min = extreme();
                    }
                }
                Some(_) => {}
                None => {
                    let values = HashSet::from_iter([value.to_bits()]);
                    let shape = shape_chars(word).collect();
                    self.measures.insert(place, Measure { shape, lines: 1, values, max: extreme(), min: extreme() });
                }
            }
        }
        self.slots = slots;
        self.found = found;
    }

    /// Counts `word` in its slot's groups, until the slot holds too many distinct words to
    /// group lines by.
    fn count_group(&mut self, place: Place, word: &'a str) {
        let counts = self.groups.entry(place).or_insert_with(|| Some(HashMap::default()));
        let Some(map) = counts else { return };
        let word = word.trim_end_matches([',', ';', ':', '.']);
        if let Some(n) = map.get_mut(word) {
            *n += 1;
        } else if map.len() < MAX_DISTINCT {
            map.insert(word, 1);
        } else {
            *counts = None;
        }
    }

    /// The values the lines share most in the slots that group them: `(user, most first:
    /// admin 12, test 8, oracle 5, 28 more)`, each slot in its own brackets. A slot groups
    /// the lines when its words repeat (on average twice or more) and a word of the pattern
    /// labels them: ports, durations, times and ids take a new value on nearly every line
    /// and are left out by that rule. The slots whose most common value holds the most
    /// lines come first.
    pub(crate) fn groups_phrase(&self) -> Option<String> {
        let mut slots: Vec<(Place, Vec<(&str, usize)>)> = self
            .groups
            .iter()
            .filter_map(|(place, counts)| {
                let counts = counts.as_ref()?;
                // A slot with no word before it would have to be named by its place, which
                // a reader cannot follow.
                self.labels.get(place.0)?.as_ref()?;
                let distinct = counts.len();
                if distinct < 2 || distinct * 2 > self.lines {
                    return None;
                }
                let mut top: Vec<(&str, usize)> = counts.iter().map(|(w, n)| (*w, *n)).collect();
                top.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
                (top[0].1 >= 2).then_some((*place, top))
            })
            .collect();
        slots.sort_by(|a, b| b.1[0].1.cmp(&a.1[0].1).then(a.0.cmp(&b.0)));
        let parts: Vec<String> = slots
            .into_iter()
            .take(MAX_GROUPS)
            .map(|((pos, k), top)| {
                let label = self.labels.get(pos).cloned().flatten().unwrap_or_default();
                let label = if k > 0 { format!("{label} (word {})", k + 1) } else { label };
                let values: Vec<String> = top
                    .iter()
                    .take(GROUP_VALUES)
                    .map(|(w, n)| format!("{} {n}", w.chars().take(MAX_NAME).collect::<String>()))
                    .collect();
                let more = match top.len().saturating_sub(GROUP_VALUES) {
                    0 => String::new(),
                    n => format!(", {} more", thousands(n as u64)),
                };
                format!("({label}, most first: {}{more})", values.join(", "))
            })
            .collect();
        (!parts.is_empty()).then(|| parts.join(" "))
    }

    /// The phrase of this pattern's measures: `max 4.21s TestA, min 0.00s TestB`, or `None`
    /// when none holds in nearly every line and varies.
    pub(crate) fn phrase(&self) -> Option<String> {
        // The slot that names a line: the most varied one that is not a number, and varied
        // enough to tell most lines apart.
        let namer = self
            .groups
            .iter()
            .map(|(place, counts)| (place, counts.as_ref().map_or(MAX_DISTINCT, HashMap::len)))
            .filter(|(place, distinct)| {
                let sampled = self.lines.min(SAMPLE);
                self.numeric.get(place).copied().unwrap_or(0) * 2 <= sampled && distinct * 2 >= self.lines
            })
            .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(a.0)))
            .map(|(place, _)| *place);
        let name = |e: &Extreme| -> String {
            namer
                .and_then(|p| e.slots.iter().find(|(q, _)| *q == p))
                .map(|(_, w)| w.trim_end_matches([',', ';', ':', '.']).chars().take(MAX_NAME).collect())
                .unwrap_or_default()
        };
        let varied = self.lines.div_ceil(2).clamp(2, VARIED);
        let mut listed: Vec<(&Place, &Measure)> = self
            .measures
            .iter()
            .filter(|(_, m)| m.values.len() >= varied && m.lines as f64 >= MEASURED_SHARE * self.lines as f64)
            .collect();
        // Labelled measures (`rows=`, `12ms`) before bare numbers, then the last in the line
        // first: a line says what it is about before what came of it (`took 12ms`).
        listed.sort_by(|a, b| (a.1.shape == "#").cmp(&(b.1.shape == "#")).then(b.0.cmp(a.0)));
        let parts: Vec<String> = listed
            .into_iter()
            .take(MAX_MEASURES)
            .map(|(_, m)| {
                let side = |word: &str, e: &Extreme| {
                    let n = name(e);
                    if n.is_empty() { format!("{word} {}", e.shown) } else { format!("{word} {} {n}", e.shown) }
                };
                format!("{}, {}", side("max", &m.max), side("min", &m.min))
            })
            .collect();
        (!parts.is_empty()).then(|| parts.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measures_are_lone_numbers_with_units_and_labels() {
        assert_eq!(measure("(0.15s)"), Some((0.15, "0.15s")));
        assert_eq!(measure("rows=59821"), Some((59821.0, "rows=59821")));
        assert_eq!(measure("time=10.375..45.5"), Some((45.5, "time=10.375..45.5")));
        assert_eq!(measure("1,234ms"), Some((1234.0, "1,234ms")));
        assert_eq!(measure("(80"), Some((80.0, "80")));
        assert_eq!(measure("<0.000123>"), Some((0.000123, "0.000123")));
        assert!(time_like("2025-12-31T20:08:48.137Z") && time_like("[18:00:48]") && !time_like("events_2025_11"));
        for not in ["18:00:48", "2025-12-31T20:08:48Z", "events_2025_11_18", "d927fdc09675fef2", "v1.2.3", "2/INVALID"]
        {
            assert_eq!(measure(not), None, "{not}");
        }
    }

    #[test]
    fn positions_follow_the_pattern_words() {
        let p: Vec<(usize, &str)> = positions("a 1 2 b 3 c", 24).collect();
        assert_eq!(p, vec![(0, "a"), (1, "1"), (1, "2"), (2, "b"), (3, "3"), (4, "c")]);
    }

    #[test]
    fn extremes_name_their_lines() {
        let lines: Vec<String> = (0..20u8)
            .map(|i| format!("--- PASS: Test{} ({}.{:02}s)", char::from(b'a' + i), i % 3, u32::from(i) * 7 % 100))
            .collect();
        let pattern = ["---", "PASS:", "*", "*"];
        let mut stats = SlotStats::default();
        for l in &lines {
            stats.add(&pattern, l, 24);
        }
        let p = stats.phrase().unwrap();
        assert_eq!(p, "max 2.98s Testo, min 0.00s Testa", "{p}");
    }

    #[test]
    fn constant_or_rare_numbers_are_not_listed() {
        let pattern = ["GET", "*", "*"];
        let mut stats = SlotStats::default();
        let lines: Vec<String> = (0..10).map(|i| format!("GET /item/{i} 200")).collect();
        for l in &lines {
            stats.add(&pattern, l, 24);
        }
        assert_eq!(stats.phrase(), None);
    }

    #[test]
    fn codes_are_not_ranked() {
        let pattern = ["*", "done", "*", "*"];
        let mut stats = SlotStats::default();
        let lines: Vec<String> = (0..40)
            .map(|i| format!("{} done status={} took={}ms", ["GET", "POST"][i % 2], [200, 200, 404, 500][i % 4], i * 3))
            .collect();
        for l in &lines {
            stats.add(&pattern, l, 24);
        }
        let p = stats.phrase().unwrap();
        assert!(p.starts_with("max took=117ms"), "{p}");
        assert!(!p.contains("max status"), "{p}");
        assert_eq!(p.matches("max").count(), 1, "{p}");
    }

    #[test]
    fn the_values_a_slot_shares_most_are_counted_with_its_label() {
        let names = ["admin", "admin", "test", "oracle", "admin", "test", "guest", "admin"];
        let lines: Vec<String> = (0..40)
            .map(|i| format!("Invalid user {} from 10.0.0.{} port {}", names[i % 8], i % 3, 30_000 + i * 7))
            .collect();
        let pattern = ["Invalid", "user", "*", "from", "*", "port", "*"];
        let mut stats = SlotStats::default();
        for l in &lines {
            stats.add(&pattern, l, 24);
        }
        let g = stats.groups_phrase().unwrap();
        // Every port differs: a measure, not a group. The user names' commonest holds more
        // lines than the addresses', so they are the one slot listed.
        assert_eq!(g, "(user, most first: admin 20, test 10, guest 5, 1 more)");
    }

    #[test]
    fn slots_whose_words_rarely_repeat_do_not_group() {
        let pattern = ["*", "request", "*"];
        let mut stats = SlotStats::default();
        let lines: Vec<String> = (0..30).map(|i| format!("2025-12-31T10:00:{:02} request id{}", i, i % 20)).collect();
        for l in &lines {
            stats.add(&pattern, l, 24);
        }
        assert_eq!(stats.groups_phrase(), None);
    }

    proptest::proptest! {
        /// Whatever the words, a listed value's count is the number of lines holding it in
        /// that slot.
        #[test]
        fn group_counts_equal_the_counts_over_the_lines(
            picks in proptest::collection::vec((0usize..5, 0usize..3), 4..120),
        ) {
            let users = ["ana", "bo", "cy", "di", "ed"];
            let hosts = ["web", "db", "cache"];
            let lines: Vec<String> = picks.iter().map(|(u, h)| format!("login {} on {}", users[*u], hosts[*h])).collect();
            let pattern = ["login", "*", "on", "*"];
            let mut stats = SlotStats::default();
            for l in &lines {
                stats.add(&pattern, l, 24);
            }
            let Some(g) = stats.groups_phrase() else { return Ok(()) };
            for (label, words, pick) in [("login", &users[..], 0usize), ("on", &hosts[..], 1)] {
                let Some(start) = g.find(&format!("({label}, most first: ")) else { continue };
                let clause = &g[start..g[start..].find(')').map_or(g.len(), |e| start + e)];
                for (w, word) in words.iter().enumerate() {
                    let truth = picks.iter().filter(|p| if pick == 0 { p.0 == w } else { p.1 == w }).count();
                    if let Some(at) = clause.find(&format!(" {word} ")) {
                        let n: usize = clause[at + word.len() + 2..]
                            .split(|c: char| !c.is_ascii_digit())
                            .next()
                            .and_then(|n| n.parse().ok())
                            .unwrap_or(usize::MAX);
                        proptest::prop_assert_eq!(n, truth, "{}", g);
                    }
                }
            }
        }
    }
}
