//! The patterns a text's lines follow, counted: `"--- FAIL: * *" 7`, `"Order * placed for
//! customer * items, total * EUR" 226`. A log or a test run says what happened in lines that
//! differ only in their numbers and names; counting them by pattern answers "how many tests
//! failed" or "how many orders were placed" from the first read, for formats nobody wrote a
//! reader for.
//!
//! Each line becomes a pattern by its words, a word holding a digit standing for any value
//! (`*`, runs of them written once). Patterns of as many words that agree on most of their
//! words and on the first two are then merged, the words they differ in becoming `*` too (the
//! clustering of log parsers such as Drain, in one pass). Nothing is known about any format:
//! the patterns come from the text. At most [`MAX_LINES`] lines and [`MAX_PATTERNS`]
//! distinct patterns are read, so the cost is bounded whatever the text.

use rustc_hash::FxHashMap as HashMap;
use serde_json::Value;

use crate::counted::{entries_fitting, listed_entries};
use crate::line_fields::MAX_LINES;
use crate::logs::{Level, line_level};
use crate::numfmt::thousands;
use crate::pattern_slots::{SlotStats, positions};

/// Distinct patterns kept before merging; lines of further new patterns are not counted.
const MAX_PATTERNS: usize = 5_000;
/// Words of a line read into its pattern.
const MAX_WORDS: usize = 24;
/// Merged patterns kept per number of words.
const MAX_CLUSTERS: usize = 200;
/// Share of words two patterns must share to be merged.
const SIMILAR: f64 = 0.6;
/// Lines a word may lead and still be read as a name rather than a kind of line.
const RARE_LINES: u64 = 2;
/// Patterns listed at most.
const TOP: usize = 6;
/// Lines a text needs for its patterns to be worth listing.
const MIN_LINES: usize = 20;
/// Share of the lines the listed patterns must hold in a text that is not a log.
const MIN_SHARE: f64 = 0.5;
/// Or the share of the lines one pattern with an open word must hold.
const VARYING_SHARE: f64 = 0.1;

/// The phrase of `text`'s most common line patterns, at most `room` bytes (whole entries
/// only), or `None` when no pattern repeats or the room holds none. Of a text that is not a
/// `log`, the patterns listed must also hold half its lines: source code and prose repeat a
/// few lines, and a list of them would say nothing.
pub(crate) fn patterns_phrase(text: &str, room: usize, log: bool) -> Option<String> {
    // Each distinct pattern once, with its count; each counted line with its pattern's
    // number, so that the pass over the measures does not make the patterns again.
    let mut ids: HashMap<Vec<&str>, u32> = HashMap::default();
    let mut counts: Vec<u64> = Vec::new();
    let mut read: Vec<(&str, u32)> = Vec::new();
    let mut lines = 0usize;
    // One buffer for every line's pattern: a line of a known pattern allocates nothing.
    let mut pattern: Vec<&str> = Vec::with_capacity(MAX_WORDS);
    for line in text.lines().take(MAX_LINES) {
        pattern_into(line, &mut pattern);
        if pattern.iter().all(|w| *w == "*") {
            continue;
        }
        lines += 1;
        if let Some(&id) = ids.get(pattern.as_slice()) {
            counts[id as usize] += 1;
            read.push((line, id));
        } else if ids.len() < MAX_PATTERNS {
            let id = counts.len() as u32;
            ids.insert(pattern.clone(), id);
            counts.push(1);
            read.push((line, id));
        }
    }
    if lines < MIN_LINES {
        return None;
    }
    // The patterns by their number, moved out of the map (not copied).
    let mut by_id: Vec<Vec<&str>> = vec![Vec::new(); counts.len()];
    for (pattern, id) in ids {
        by_id[id as usize] = pattern;
    }
    let (clusters, cluster_of) = merge(by_id, &counts);
    let mut ranked: Vec<(usize, &Vec<&str>, u64)> = clusters
        .iter()
        .enumerate()
        .map(|(c, (p, n))| (c, p, *n))
        .filter(|(_, p, n)| *n >= 2 && p.iter().any(|w| w.chars().any(char::is_alphabetic)))
        .collect();
    ranked.sort_by(|a, b| b.2.cmp(&a.2).then_with(|| a.1.cmp(b.1)));
    // Text whose lines mostly follow no common pattern (source code, prose) gets no list:
    // the most common patterns must hold a good share of its lines.
    let covered: u64 = ranked.iter().take(TOP).map(|(_, _, n)| n).sum();
    // Or a kind of line that varies in its values holds a good share on its own (`Compiling
    // * v*` among a build's warnings and their code excerpts): code repeats lines whole
    // (`if err != nil {`), not with other values in them.
    let varying =
        ranked.iter().take(TOP).any(|(_, p, n)| p.contains(&"*") && (*n as f64) >= VARYING_SHARE * lines as f64);
    if ranked.len() < 2 || (!log && (covered as f64) < MIN_SHARE * lines as f64 && !varying) {
        return None;
    }
    // In a log, what went wrong is asked about first: patterns of error and warning lines
    // come before the more common ones, each group most first.
    let severe_first = log && severe_first(&mut ranked, &read, &cluster_of, clusters.len());
    // Up to three times as many as the coverage counts, as the room allows: a pattern
    // further down the list (`-> Seq Scan on *`, 8 of a plan's 735 lines) answers a count
    // as well as the first does.
    let listed = &ranked[..ranked.len().min(TOP * 3)];
    let described = measures(&read, &cluster_of, listed, &clusters);
    let entry = |(_, pattern, n): &(usize, &Vec<&str>, u64), measured: &Option<String>| {
        let quoted = Value::String(pattern.join(" ")).to_string();
        match measured {
            Some(m) => format!("{quoted} {} ({m})", thousands(*n)),
            None => format!("{quoted} {}", thousands(*n)),
        }
    };
    let mut entries: Vec<String> = listed.iter().zip(&described).map(|(p, (m, _))| entry(p, m)).collect();
    let label = if severe_first {
        "line patterns, errors and warnings first, each most first: "
    } else {
        "line patterns, most first: "
    };
    // The values a pattern's lines share most only use the room the counts leave: every
    // pattern listed without them stays listed, and the first ones get theirs while the
    // room holds them.
    let shown = |entries: &[String]| entries_fitting(label, entries, room, "patterns");
    let plain = shown(&entries);
    for (i, (_, groups)) in described.iter().enumerate().take(plain) {
        let Some(g) = groups else { continue };
        let before = entries[i].len();
        entries[i].push(' ');
        entries[i].push_str(g);
        if shown(&entries) < plain {
            entries[i].truncate(before);
        }
    }
    listed_entries(label, &entries, ranked.len(), room, "patterns")
}

/// Order `ranked` (most first) so that patterns whose lines carry an error (or fatal) level
/// come first, then those of warnings, then the rest, each group keeping its order; whether
/// any pattern moved. A pattern's level is its first line's.
fn severe_first(
    ranked: &mut [(usize, &Vec<&str>, u64)],
    read: &[(&str, u32)],
    cluster_of: &[usize],
    clusters: usize,
) -> bool {
    let mut first_line: Vec<Option<&str>> = vec![None; clusters];
    for &(line, id) in read {
        let slot = &mut first_line[cluster_of[id as usize]];
        if slot.is_none() {
            *slot = Some(line);
        }
    }
    let group = |cluster: usize| match first_line[cluster].and_then(line_level) {
        Some(Level::Fatal | Level::Error) => 0u8,
        Some(Level::Warn) => 1,
        _ => 2,
    };
    let before: Vec<usize> = ranked.iter().map(|(c, _, _)| *c).collect();
    ranked.sort_by_key(|(c, _, _)| group(*c));
    ranked.iter().map(|(c, _, _)| *c).ne(before)
}

/// The measures of each listed pattern's lines and the values they share most (see
/// [`crate::pattern_slots`]), read in one more pass over the lines the patterns were made of.
fn measures(
    read: &[(&str, u32)],
    cluster_of: &[usize],
    listed: &[(usize, &Vec<&str>, u64)],
    clusters: &[(Vec<&str>, u64)],
) -> Vec<(Option<String>, Option<String>)> {
    let slot_of: HashMap<usize, usize> = listed.iter().enumerate().map(|(i, (c, _, _))| (*c, i)).collect();
    let mut stats: Vec<SlotStats> = listed.iter().map(|_| SlotStats::default()).collect();
    for &(line, id) in read {
        let cluster = cluster_of[id as usize];
        if let Some(&i) = slot_of.get(&cluster) {
            stats[i].add(&clusters[cluster].0, line, MAX_WORDS);
        }
    }
    stats.iter().map(|s| (s.phrase(), s.groups_phrase())).collect()
}

/// Whether a word stands for a value in a pattern: it holds a digit, or it is a day's or a
/// month's name (`[Mon Dec  1 10:00:00 2025]` starts every line of `dmesg -T` with
/// different words), or it is a `*` already.
pub(crate) fn is_value(word: &str) -> bool {
    const CALENDAR: [&str; 19] = [
        "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun", "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep",
        "Oct", "Nov", "Dec",
    ];
    if word.bytes().any(|b| b.is_ascii_digit()) || word == "*" {
        return true;
    }
    // Only a word of three letters, at most a bracket or a comma around them, is looked up.
    word.len() <= 5 && {
        let name = word.trim_matches(|c: char| !c.is_ascii_alphabetic());
        name.len() == 3 && CALENDAR.contains(&name)
    }
}

/// A line's pattern, written into `out` (cleared first): its first [`MAX_WORDS`] words, each
/// standing for a value written `*`, runs of `*` written once.
pub(crate) fn pattern_into<'a>(line: &'a str, out: &mut Vec<&'a str>) {
    out.clear();
    // The words' places come from `positions`, which the measures read lines with too, so
    // that a pattern's `*` and a line's open words always line up.
    for (place, word) in positions(line, MAX_WORDS) {
        if place == out.len() {
            out.push(if is_value(word) { "*" } else { word });
        }
    }
}

/// Patterns of as many words merged where they share their first two words and most others,
/// with their counts, and the cluster each pattern joined, by the pattern's number
/// (`counts[i]` is pattern `i`'s count); patterns are taken most common first, so each
/// cluster is named by its commonest member's words.
type Merged<'a> = (Vec<(Vec<&'a str>, u64)>, Vec<usize>);

fn merge<'a>(patterns: Vec<Vec<&'a str>>, counts: &[u64]) -> Merged<'a> {
    // How many lines of each length hold each word at each of the first two places: a word
    // that leads many lines (`PASS:`) says what kind a line is; one that leads one or two
    // is a name (`ok github.com/acme/store 1.2s`).
    let mut leading: HashMap<(usize, usize, &str), u64> = HashMap::default();
    for (pattern, n) in patterns.iter().zip(counts) {
        for (i, w) in pattern.iter().take(2).enumerate() {
            *leading.entry((pattern.len(), i, *w)).or_default() += n;
        }
    }
    let rare = |len: usize, i: usize, w: &str| leading.get(&(len, i, w)).is_none_or(|n| *n <= RARE_LINES);
    let mut order: Vec<usize> = (0..patterns.len()).collect();
    order.sort_by(|&a, &b| counts[b].cmp(&counts[a]).then_with(|| patterns[a].cmp(&patterns[b])));
    let mut clusters: Vec<(Vec<&str>, u64)> = Vec::new();
    let mut cluster_of = vec![0usize; patterns.len()];
    let mut by_length: HashMap<usize, Vec<usize>> = HashMap::default();
    for id in order {
        let (pattern, n) = (&patterns[id], counts[id]);
        let group = by_length.entry(pattern.len()).or_default();
        let found = group.iter().copied().find(|&c| similar(&clusters[c].0, pattern, &rare));
        cluster_of[id] = found.unwrap_or(clusters.len());
        match found {
            Some(c) => {
                let cluster = &mut clusters[c];
                for (kept, word) in cluster.0.iter_mut().zip(pattern) {
                    if kept != word {
                        *kept = "*";
                    }
                }
                cluster.1 += n;
            }
            None => {
                if group.len() < MAX_CLUSTERS {
                    group.push(clusters.len());
                }
                clusters.push((pattern.clone(), n));
            }
        }
    }
    (clusters, cluster_of)
}

/// Whether two patterns of as many words share their first two words (where a line says
/// what kind it is: `--- PASS:`, `=== RUN`, a level), or differ there only in names (words
/// that lead no other pattern, `rare`), and share at least [`SIMILAR`] of all their words
/// (a `*` agrees only with a `*`, so that a merged pattern does not draw in every line of
/// its length).
fn similar(a: &[&str], b: &[&str], rare: &dyn Fn(usize, usize, &str) -> bool) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let named = |i: usize| a[i] == b[i] || ((a[i] == "*" || rare(a.len(), i, a[i])) && rare(b.len(), i, b[i]));
    if !(0..a.len().min(2)).all(named) {
        return false;
    }
    let same = a.iter().zip(b).filter(|(x, y)| x == y).count();
    same as f64 >= SIMILAR * a.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go_test() -> String {
        let mut t = String::new();
        for i in 0..30 {
            t.push_str(&format!("=== RUN   TestCase{i}\n"));
            match i % 10 {
                3 => t.push_str(&format!("--- FAIL: TestCase{i} ({}.{:02}s)\n", i / 10, i)),
                7 => t.push_str(&format!("--- SKIP: TestCase{i} (0.00s)\n")),
                _ => t.push_str(&format!("--- PASS: TestCase{i} (0.{i:02}s)\n")),
            }
        }
        t.push_str("FAIL\tgithub.com/acme/store\t2.345s\n");
        t
    }

    #[test]
    fn lines_are_counted_by_their_pattern() {
        let p = patterns_phrase(&go_test(), 1_000, false).unwrap();
        assert!(p.contains(r#""--- PASS: *" 24"#), "{p}");
        assert!(p.contains(r#""--- FAIL: *" 3"#), "{p}");
        assert!(p.contains(r#""--- SKIP: *" 3"#), "{p}");
        // Names without digits differ from line to line: merged, PASS and FAIL kept apart.
        let named: String = ["Alpha", "Beta", "Gamma", "Delta", "Epsilon", "Zeta", "Eta", "Theta"]
            .iter()
            .cycle()
            .take(40)
            .enumerate()
            .map(|(i, n)| format!("--- {}: Test{n} (0.{i:02}s)\n", if i % 5 == 3 { "FAIL" } else { "PASS" }))
            .collect();
        let p = patterns_phrase(&named, 1_000, false).unwrap();
        assert!(p.contains(r#""--- PASS: * *" 32"#), "{p}");
        assert!(p.contains(r#""--- FAIL: * *" 8"#), "{p}");
    }

    /// Regression: only the six most common patterns were listed even when the room held
    /// more, so a plan's `Seq Scan` nodes (the eighth pattern) were never counted.
    #[test]
    fn patterns_past_the_sixth_are_listed_when_the_room_holds_them() {
        let kinds = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"];
        let mut text = String::new();
        for (k, kind) in kinds.iter().enumerate() {
            for i in 0..(20 - 2 * k) {
                text.push_str(&format!("step {kind} node took {i} ms\n"));
            }
        }
        let wide = patterns_phrase(&text, 2_000, false).unwrap();
        assert!(wide.contains(r#""step hotel node took * ms" 6"#), "{wide}");
        assert!(!wide.contains("more patterns"), "{wide}");
        // Short of room, the most common come first and the rest are counted.
        let narrow = patterns_phrase(&text, 200, false).unwrap();
        assert!(narrow.len() <= 200 && narrow.contains("more patterns") && !narrow.contains("hotel"), "{narrow}");
    }

    #[test]
    fn names_in_the_leading_words_merge_and_kinds_of_line_do_not() {
        let packages = ["api", "auth", "billing", "cache", "store", "queue", "mail", "search"];
        let mut t = go_test();
        for (i, p) in packages.iter().enumerate() {
            t.push_str(&format!("ok  \tgithub.com/acme/{p}\t{}.{i}s\n", i % 3));
        }
        let p = patterns_phrase(&t, 2_000, false).unwrap();
        // Each package leads one line: a name. `PASS:` leads many: a kind of line.
        assert!(p.contains(r#""ok * *" 8 (max 2.5s github.com/acme/queue, min 0.0s github.com/acme/api)"#), "{p}");
        assert!(p.contains(r#""--- PASS: *" 24"#) && p.contains(r#""--- FAIL: *" 3"#), "{p}");
    }

    #[test]
    fn in_a_log_error_patterns_come_before_more_common_ones() {
        let mut log = String::new();
        for i in 0..300 {
            log.push_str(&format!(
                "2025-12-31 10:{:02}:{:02} UTC [{}] LOG:  connection received: host=10.0.0.{} port={}\n",
                i / 60,
                i % 60,
                4000 + i,
                i % 9,
                30000 + i
            ));
            if i % 20 == 0 {
                log.push_str(&format!(
                    "2025-12-31 10:{:02}:{:02} UTC [{}] ERROR:  canceling statement due to statement timeout\n",
                    i / 60,
                    i % 60,
                    4000 + i
                ));
            }
            if i % 50 == 0 {
                log.push_str(&format!(
                    "2025-12-31 10:{:02}:{:02} UTC [{}] WARNING:  there is no transaction in progress\n",
                    i / 60,
                    i % 60,
                    4000 + i
                ));
            }
        }
        // Room for two entries: the error's and the warning's, not the connections'.
        let p = patterns_phrase(&log, 230, true).unwrap();
        assert!(p.starts_with("line patterns, errors and warnings first, each most first: "), "{p}");
        assert!(p.contains("canceling statement due to statement timeout\" 15"), "{p}");
        let error = p.find("ERROR").unwrap_or(usize::MAX);
        let warning = p.find("WARNING").unwrap_or(usize::MAX);
        assert!(error < warning, "{p}");
        // Not a log: the most common first, as always.
        let p = patterns_phrase(&log, 2_000, false).unwrap();
        assert!(p.starts_with("line patterns, most first: "), "{p}");
        assert!(p.find("connection received").unwrap_or(usize::MAX) < p.find("ERROR").unwrap_or(0), "{p}");
    }

    #[test]
    fn lines_that_differ_in_a_name_are_one_pattern() {
        let names = ["Ada", "Bo", "Chen", "Dara", "Emeka"];
        let mut log = String::new();
        for i in 0..40 {
            log.push_str(&format!(
                "2025-12-31T10:00:{i:02}Z INFO OrderService : Order {} placed for customer {} with 2 items\n",
                58000 + i,
                names[i % 5]
            ));
            if i % 8 == 0 {
                log.push_str(&format!("2025-12-31T10:00:{i:02}Z WARN Payments : retry {i} after timeout\n"));
            }
        }
        let p = patterns_phrase(&log, 1_000, true).unwrap();
        assert!(p.contains(r#""* INFO OrderService : Order * placed for customer * with * items" 40"#), "{p}");
        assert!(p.contains(r#""* WARN Payments : retry * after timeout" 5"#), "{p}");
    }

    #[test]
    fn shared_values_use_only_the_room_the_counts_leave() {
        let names = ["ana", "ana", "bo", "cy"];
        let mut log = String::new();
        for i in 0..60 {
            log.push_str(&format!("login accepted for user {} port p{}\n", names[i % 4], 40_000 + i));
            log.push_str(&format!("session opened by {} on tty{}\n", names[(i + 1) % 4], i));
            log.push_str(&format!("mail queued to {} id q{}\n", names[(i + 2) % 4], 9_000 + i));
        }
        let wide = patterns_phrase(&log, 2_000, false).unwrap();
        assert!(
            wide.contains(r#""login accepted for user * port *" 60 (user, most first: ana 30, bo 15, cy 15)"#),
            "{wide}"
        );
        assert_eq!(wide.matches("most first: ana").count(), 3, "{wide}");
        // However narrow the room, a pattern listed without the shared values is listed with
        // them: they never push a count out.
        let mut listed_before = 0;
        for room in (60..2_000).step_by(7) {
            let listed = patterns_phrase(&log, room, false).map_or(0, |p| {
                assert!(p.len() <= room, "{room}: {p}");
                p.matches("\" ").count()
            });
            assert!(listed >= listed_before, "{room}");
            listed_before = listed;
            let plain: Vec<String> =
                ["login accepted for user * port *", "mail queued to * id *", "session opened by * on *"]
                    .iter()
                    .map(|p| format!("\"{p}\" 60"))
                    .collect();
            assert_eq!(
                listed,
                crate::counted::entries_fitting("line patterns, most first: ", &plain, room, "patterns"),
                "{room}"
            );
        }
    }

    proptest::proptest! {
        /// Whatever the text and the room, the phrase fits the room and never panics.
        #[test]
        fn any_text_gives_a_phrase_within_its_room(
            lines in proptest::collection::vec("[a-c0-9 :*\"é●-]{0,30}", 0..80),
            room in 0usize..400,
            log in proptest::bool::ANY,
        ) {
            let text = lines.join("\n");
            if let Some(p) = patterns_phrase(&text, room, log) {
                proptest::prop_assert!(p.len() <= room, "{} bytes in {room}: {p}", p.len());
            }
        }
    }

    #[test]
    fn unpatterned_or_short_text_has_none_and_the_room_is_kept() {
        assert_eq!(patterns_phrase("one line\nanother one\n", 1_000, true), None);
        let prose: String =
            (0..40).map(|i| format!("{} words here\n", ["alpha", "beta"][i % 2].repeat(i + 1))).collect();
        assert_eq!(patterns_phrase(&prose, 1_000, false), None);
        // Code: lines repeat here and there, but most follow no common pattern.
        let code: String = (0..60)
            .map(|i| match i % 6 {
                0 => "    if err != nil {\n".to_owned(),
                1 => "        return nil, err\n".to_owned(),
                _ => format!("    v{} := compute(alpha{}, beta)\n", "x".repeat(i), "y".repeat(i)),
            })
            .collect();
        assert_eq!(patterns_phrase(&code, 1_000, false), None);
        let p = patterns_phrase(&go_test(), 100, false).unwrap();
        assert!(p.len() <= 100, "{p}");
        // A kind of line with values in it among lines that follow none (a build's warnings
        // and the code they quote) is listed even though it holds under half of them.
        let words =
            ["let", "mut", "alpha", "beta", "fn", "match", "gamma", "return", "self", "into", "iter", "map", "ok"];
        let build: String = (0..120)
            .map(|i| match i % 6 {
                0 => format!("warning: unused variable: `v{i}`\n"),
                1 => format!("   = note: see src/lib.rs:{i}:9\n"),
                _ => {
                    let code: Vec<&str> = (0..i % 11 + 2).map(|k| words[(i * 7 + k * 5) % words.len()]).collect();
                    format!("    {}\n", code.join(" "))
                }
            })
            .collect();
        let p = patterns_phrase(&build, 1_000, false).unwrap();
        assert!(p.contains(r#""warning: unused variable: *" 20"#), "{p}");
        assert_eq!(patterns_phrase(&go_test(), 20, false), None);
    }
}
