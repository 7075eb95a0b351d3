//! The words of a text counted by the lines that hold them: `words by lines, most first:
//! ENOENT 74, upgradable 39, NEF 623, …`. A log or a command's output says what each line
//! is about in words that recur (an error code, a state, a file type, a host's role); the
//! number of lines holding one answers "how many calls failed with ENOENT" or "how many
//! branches are behind" from the first read, for formats no reader was written for, and
//! where the line patterns split one kind of line into many.
//!
//! A line's words are its runs between spaces, brackets, quotes and separators (`=`, `,`,
//! `;`, `|`), each also cut at `@`, `/` and `:` (the domain of an address, a path's parts)
//! and with its extension when it ends in one (`DSC_0042.NEF` holds `NEF`). A word that
//! does not start with a letter or holds more than two digits is a value, not a word (a
//! time, a size, an id), and is left out, as is a word in
//! more than half of the lines (a column every line has) or in only one.
//!
//! A word whose neighbours, one space away, are the same words wherever it stands is said
//! with them (`Failed password 171`, `Link is Down 2`): labels of a kind of line are often
//! phrases, and a phrase names the kind where a single word (`Failed`) may not. Nothing is
//! known about any format; at most [`MAX_LINES`] lines and [`MAX_WORDS`] distinct words
//! are read, so the cost is bounded whatever the text.

use rustc_hash::FxHashMap as HashMap;

use crate::counted::counted_list;
use crate::line_fields::MAX_LINES;
use crate::numfmt::thousands;

/// How the words' clause begins.
pub(crate) const WORDS_HEAD: &str = "words by lines, most first: ";
/// How the words' clause ends when it does not list every word.
const MORE_WORDS: &str = " more words)";

/// Distinct words counted; words first seen after that are not.
const MAX_WORDS: usize = 20_000;
/// Lines a text needs for its words to be worth counting.
const MIN_LINES: usize = 20;
/// The longest word counted, in bytes.
const LONGEST: usize = 40;
/// The bytes that end a word: ASCII white space, brackets, quotes and `= , ; |`.
const SEPARATOR: [bool; 128] = {
    let mut table = [false; 128];
    let bytes = b" \t\r\n\x0b\x0c[](){}\"'<>,;=|";
    let mut i = 0;
    while i < bytes.len() {
        table[bytes[i] as usize] = true;
        i += 1;
    }
    table
};
/// Words listed at most, more than any map's room holds.
const MOST_LISTED: usize = 400;
/// The most words a phrase holds.
const PHRASE_WORDS: usize = 4;
/// Words that join others (`Failed password for root`): a phrase does not begin or end
/// with one, since what it joins to varies.
const JOINING: [&str; 20] = [
    "a", "an", "and", "as", "at", "be", "by", "for", "from", "in", "into", "is", "of", "on", "or", "than", "the", "to",
    "was", "with",
];
/// The most digits a word may hold.
const MOST_DIGITS: usize = 2;
/// The longest extension read as a file's type.
const LONGEST_EXTENSION: usize = 5;

/// A word's neighbour on one side, over all the places it stands: none seen yet, always
/// the same word (joined to it by one space), or anything else.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Unseen,
    Always(u32),
    Varies,
}

impl Side {
    fn see(&mut self, neighbour: Option<u32>) {
        *self = match (*self, neighbour) {
            (Side::Unseen, Some(n)) => Side::Always(n),
            (Side::Always(a), Some(n)) if a == n => Side::Always(a),
            _ => Side::Varies,
        };
    }
}

/// What is known of one word: the lines that hold it, the last of them (so a word twice in
/// a line counts once), and its neighbours.
struct Seen<'a> {
    word: &'a str,
    lines: u64,
    last: u64,
    before: Side,
    after: Side,
}

/// The phrase of the words in most lines of `text`, at most `room` bytes (whole entries
/// only), or `None` when no word recurs or the room holds none. A word or phrase that a
/// line pattern of `map` (the map so far) holds, with the same count, is said already.
pub(crate) fn terms_phrase(text: &str, room: usize, map: &str) -> Option<String> {
    let mut ids: HashMap<&str, u32> = HashMap::default();
    let mut seen: Vec<Seen> = Vec::new();
    let mut lines = 0u64;
    for line in text.lines().take(MAX_LINES) {
        if line.trim().is_empty() {
            continue;
        }
        lines += 1;
        // The previous whole word of the line, when one space joins it to what follows.
        let mut joined: Option<u32> = None;
        words_of(line, &mut |token| {
            let word = match token {
                Token::Whole(w, _) | Token::Part(w) => w,
                Token::Value => {
                    if let Some(prev) = joined.take() {
                        seen[prev as usize].after.see(None);
                    }
                    return;
                }
            };
            let id = match ids.get(word) {
                Some(&id) => id,
                None if seen.len() < MAX_WORDS => {
                    let id = seen.len() as u32;
                    ids.insert(word, id);
                    seen.push(Seen { word, lines: 0, last: 0, before: Side::Unseen, after: Side::Unseen });
                    id
                }
                None => {
                    if let (Some(prev), Token::Whole(..)) = (joined, token) {
                        seen[prev as usize].after.see(None);
                        joined = None;
                    }
                    return;
                }
            };
            let entry = &mut seen[id as usize];
            if entry.last != lines {
                entry.lines += 1;
                entry.last = lines;
            }
            // Only a whole word has neighbours; a word also seen as a part of one (a domain,
            // a file type) is in lines no phrase of it tells.
            let Token::Whole(_, link) = token else {
                entry.before.see(None);
                entry.after.see(None);
                return;
            };
            let before = joined.take();
            let prev = before.filter(|_| link.after_space);
            entry.before.see(prev);
            if let Some(p) = before {
                seen[p as usize].after.see(prev.map(|_| id));
            }
            if link.space_next {
                joined = Some(id);
            } else {
                seen[id as usize].after.see(None);
            }
        });
        if let Some(last) = joined {
            seen[last as usize].after.see(None);
        }
    }
    if lines < MIN_LINES as u64 {
        return None;
    }
    let mut ranked: Vec<(usize, u64)> =
        seen.iter().enumerate().map(|(i, s)| (i, s.lines)).filter(|&(_, n)| n >= 2 && n * 2 <= lines).collect();
    // Most lines first; of words in as many lines, the shortest first, so that a word
    // holding a shorter one in the same lines (`ops@gmail.com` and `gmail.com`, a path and
    // its file's type) is said once, by the shorter.
    ranked.sort_unstable_by(|a, b| {
        let (x, y) = (seen[a.0].word, seen[b.0].word);
        b.1.cmp(&a.1).then(x.len().cmp(&y.len())).then(x.cmp(y))
    });
    // Each entry with its count and the word it grew from.
    let mut listed: Vec<(String, u64, &str)> = Vec::new();
    let mut said_before = 0;
    // Bounded twice: by the words listed and by the words looked at.
    for &(id, n) in ranked.iter().take(MOST_LISTED * 2) {
        if listed.len() >= MOST_LISTED {
            break;
        }
        let word = seen[id].word;
        // A joining word alone says nothing of a line.
        if is_joining(word) {
            said_before += 1;
            continue;
        }
        let phrase = phrase_of(&seen, id, lines);
        if said_by_pattern(map, &phrase, n) {
            said_before += 1;
            continue;
        }
        let mut same_lines = listed.iter().rev().take_while(|(_, m, _)| *m == n);
        // Said already: by a shorter word this one holds (`gmail.com` in `ops@gmail.com`, a
        // file's type in its path), or by a phrase that holds this word.
        if same_lines.any(|(other, _, base)| *other == phrase || word.contains(base) || holds_word(other, word)) {
            said_before += 1;
            continue;
        }
        // A phrase says the single words of its lines that it holds: it takes their place.
        let held = listed.iter().rposition(|(other, m, base)| *m == n && other == base && holds_word(&phrase, base));
        match held {
            Some(at) => {
                listed[at] = (phrase, n, word);
                said_before += 1;
            }
            None => listed.push((phrase, n, word)),
        }
    }
    let listed: Vec<(String, u64)> = listed.into_iter().map(|(p, n, _)| (p, n)).collect();
    counted_list(WORDS_HEAD, &listed, ranked.len().saturating_sub(said_before), room, "words")
}

/// How many entries the words' clause `clause` lists.
pub(crate) fn words_listed(clause: &str) -> usize {
    split_words(clause).map_or(0, |(entries, _)| entries.len())
}

/// The words' clause `clause` with only its first `keep` entries, its note counting the
/// ones left out; `None` when it keeps none or is not a words' clause.
pub(crate) fn first_words(clause: &str, keep: usize) -> Option<String> {
    let (entries, more) = split_words(clause)?;
    let keep = keep.min(entries.len());
    if keep == 0 {
        return None;
    }
    let left = more + (entries.len() - keep) as u64;
    let mut out = format!("{WORDS_HEAD}{}", entries[..keep].join(", "));
    if left > 0 {
        out.push_str(&format!(" (+{}{MORE_WORDS}", thousands(left)));
    }
    Some(out)
}

/// The entries of a words' clause and the number its note says were left out. An entry
/// holds no comma: a comma parts words.
fn split_words(clause: &str) -> Option<(Vec<&str>, u64)> {
    let body = clause.strip_prefix(WORDS_HEAD)?;
    let (list, more) = match body.strip_suffix(MORE_WORDS).and_then(|b| b.rsplit_once(" (+")) {
        Some((list, n)) => (list, n.replace(',', "").parse().ok()?),
        None => (body, 0),
    };
    Some((list.split(", ").collect(), more))
}

/// Whether a quoted line pattern of `map` holds `phrase` as whole words and is followed by
/// `n`, its count (`"* Connection reset by * port * [preauth]" 13` says `Connection reset
/// 13`): the lines of that pattern are the lines of the phrase.
fn said_by_pattern(map: &str, phrase: &str, n: u64) -> bool {
    let count = format!("\" {}", thousands(n));
    let part_of_word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    map.match_indices(phrase).any(|(at, _)| {
        let rest = &map[at + phrase.len()..];
        if part_of_word(map[..at].chars().next_back()) || part_of_word(rest.chars().next()) {
            return false;
        }
        // The end of this pattern, and the count after it (not the start of a longer one).
        rest.find('"').is_some_and(|end| {
            let after = &rest[end..];
            after.starts_with(&count) && {
                let more = &after.as_bytes()[count.len()..];
                !(more.first().is_some_and(u8::is_ascii_digit)
                    || (more.first() == Some(&b',') && more.get(1).is_some_and(u8::is_ascii_digit)))
            }
        })
    })
}

/// Whether `phrase` has more than one word and `word` is one of them.
fn holds_word(phrase: &str, word: &str) -> bool {
    phrase.contains(' ') && phrase.split(' ').any(|w| w == word)
}

/// Whether `word` joins others (see [`JOINING`]).
fn is_joining(word: &str) -> bool {
    word.len() <= 5 && JOINING.iter().any(|j| j.eq_ignore_ascii_case(word))
}

/// The words that always stand around word `id` in its lines, joined to it by single
/// spaces (`Failed` is always followed by `password`; `Link` by `is Down`), at most
/// [`PHRASE_WORDS`] in all and without a joining word at either end (`for`, `of`).
fn phrase_of(seen: &[Seen], id: usize, lines: u64) -> String {
    // A word in most lines is a column, not a part of what a kind of line says.
    let joins = |w: u32| seen[w as usize].lines * 2 <= lines;
    let mut words: std::collections::VecDeque<usize> = std::collections::VecDeque::from([id]);
    let mut at = id;
    while words.len() < PHRASE_WORDS {
        match seen[at].before {
            Side::Always(prev) if joins(prev) && !words.contains(&(prev as usize)) => {
                at = prev as usize;
                words.push_front(at);
            }
            _ => break,
        }
    }
    at = id;
    while words.len() < PHRASE_WORDS {
        match seen[at].after {
            Side::Always(next) if joins(next) && !words.contains(&(next as usize)) => {
                at = next as usize;
                words.push_back(at);
            }
            _ => break,
        }
    }
    let joining = |w: &usize| *w != id && is_joining(seen[*w].word);
    while words.front().is_some_and(joining) {
        words.pop_front();
    }
    while words.back().is_some_and(joining) {
        words.pop_back();
    }
    words.iter().map(|&w| seen[w].word).collect::<Vec<_>>().join(" ")
}

/// How a whole word stands in its line: whether one space parts it from the word before,
/// and from the word after.
#[derive(Clone, Copy)]
struct Link {
    after_space: bool,
    space_next: bool,
}

/// What [`words_of`] hands on: a whole word, a part of one (a domain, a path's step, a
/// file type), or a run that is a value and parts the words around it.
#[derive(Clone, Copy)]
enum Token<'a> {
    Whole(&'a str, Link),
    Part(&'a str),
    Value,
}

/// Whether byte `b` ends a word.
fn separates(b: u8) -> bool {
    b < 128 && SEPARATOR[b as usize]
}

/// Hands each of `line`'s words (see the module's comment) to `out` in their order, a word
/// perhaps more than once.
fn words_of<'a>(line: &'a str, out: &mut impl FnMut(Token<'a>)) {
    let bytes = line.as_bytes();
    let mut start = 0;
    // Whether one space parts the previous run from this one.
    let mut after_space = false;
    while start <= bytes.len() {
        // Separators are ASCII, so the line is cut at bytes (never inside a character).
        let end = bytes[start..].iter().position(|&b| separates(b)).map_or(bytes.len(), |i| start + i);
        let raw = &line[start..end];
        let space_next = bytes.get(end) == Some(&b' ') && bytes.get(end + 1).is_some_and(|&b| !separates(b));
        let whole = raw.trim_matches(|c| matches!(c, '.' | ':' | '-'));
        if !whole.is_empty() {
            // Punctuation trimmed off a side parts the word from its neighbour there, and a
            // key or a value of `key=value` is no part of a phrase.
            let paired = bytes.get(end) == Some(&b'=') || (start > 0 && bytes[start - 1] == b'=');
            let link = Link {
                after_space: after_space && !paired && raw.starts_with(whole),
                space_next: space_next && !paired && raw.ends_with(whole),
            };
            // The key of a `key=value` pair names a column, which the map's fields count; it
            // does not say what kind of line this is.
            let key = bytes.get(end) == Some(&b'=');
            out(if is_word(whole) && !key { Token::Whole(whole, link) } else { Token::Value });
            // Hexadecimal groups (a MAC or an IPv6 address) are one value, not words.
            if whole.contains(['@', '/', ':']) && !hex_groups(whole) {
                for part in whole.split(['@', '/', ':']).map(|p| p.trim_matches('.')).filter(|p| is_word(p)) {
                    out(Token::Part(part));
                }
            }
            // A file's type; an address's top-level domain is not one.
            if let Some((_, extension)) = whole.rsplit_once('.')
                && !whole.contains('@')
                && (2..=LONGEST_EXTENSION).contains(&extension.len())
                && extension.bytes().all(|b| b.is_ascii_alphanumeric())
                && is_word(extension)
            {
                out(Token::Part(extension));
            }
        } else if !raw.is_empty() {
            out(Token::Value);
        }
        after_space = space_next;
        start = end + 1;
    }
}

/// Whether `run` is three or more groups of one to four hexadecimal digits parted by `:`
/// (`52:54:00:12:34:b4`, `fe80::1:a8`), as hardware and IPv6 addresses are written.
fn hex_groups(run: &str) -> bool {
    let mut groups = 0;
    for group in run.split(':') {
        if group.len() > 4 || !group.bytes().all(|b| b.is_ascii_hexdigit()) {
            return false;
        }
        groups += 1;
    }
    groups >= 3
}

/// Whether `word` is one: not too long, starting with a letter, and with at most
/// [`MOST_DIGITS`] digits (`MP4`, `accept4` and `eno2` are words; a hash, a time or a size
/// is a value).
fn is_word(word: &str) -> bool {
    !word.is_empty()
        && word.len() <= LONGEST
        && word.chars().next().is_some_and(char::is_alphabetic)
        && word.bytes().filter(u8::is_ascii_digit).count() <= MOST_DIGITS
        && !lowercase_hex(word)
        // An escape (`close\r\nContent-Type`, `\"id\"`) marks encoded data: a traced
        // call's buffer, a quoted payload.
        && !word.contains('\\')
}

/// Whether `word` is a number in lowercase hexadecimal (`a8`, `a80a`, `c1`): digits and
/// `a` to `f` only, both present, as hex dumps and device ids write them (`EC2` and `eno1`
/// are words).
fn lowercase_hex(word: &str) -> bool {
    word.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        && word.bytes().any(|b| b.is_ascii_digit())
        && word.bytes().any(|b| b.is_ascii_alphabetic())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A text of `lines` lines, the `i`-th written by `line(i)`.
    fn text_of(lines: usize, line: impl Fn(usize) -> String) -> String {
        (0..lines).map(|i| line(i) + "\n").collect()
    }

    #[test]
    fn the_words_of_a_log_are_counted_by_the_lines_that_hold_them() {
        let mut text = String::new();
        for i in 0..60 {
            let outcome = if i % 4 == 0 { "= -1 ENOENT (No such file)" } else { "= 3" };
            text.push_str(&format!("12:00:{i:02} [pid {}] openat(\"/srv/app/f{i}.py\") {outcome}\n", 100 + i % 3));
        }
        let phrase = terms_phrase(&text, 2000, "").unwrap();
        assert!(phrase.starts_with("words by lines, most first: "), "{phrase}");
        assert!(phrase.contains("ENOENT 15"), "{phrase}");
        // Words in every line are a column, not a kind of line; values with digits are left out.
        assert!(!phrase.contains("pid ") && !phrase.contains("openat") && !phrase.contains("12:00"), "{phrase}");
    }

    #[test]
    fn a_path_an_address_and_a_file_type_are_read_as_words_too() {
        let mut text = String::new();
        for i in 0..30 {
            let (file, to) = match i % 3 {
                0 => ("DSC_0042.NEF", "ops@gmail.com"),
                1 => ("clip.MP4", "ops@corp.example"),
                _ => ("notes.txt", "ops@mail.example"),
            };
            text.push_str(&format!("{i} sent tank/media/{file} to <{to}>\n"));
        }
        let phrase = terms_phrase(&text, 2000, "").unwrap();
        for want in ["NEF 10", "gmail.com 10", "MP4 10", "corp.example 10"] {
            assert!(phrase.contains(want), "{want} in {phrase}");
        }
        // `media` and `tank` are in every line: a column, not a kind of line.
        assert!(!phrase.contains("media") && !phrase.contains(" com "), "{phrase}");
        // Said once, by the shortest word in those lines.
        assert!(!phrase.contains("clip.MP4") && !phrase.contains("ops@gmail.com"), "{phrase}");
    }

    #[test]
    fn words_always_said_together_are_counted_as_one_phrase() {
        let text = text_of(80, |i| match i % 10 {
            0 | 1 => format!("sshd[{i}00]: Failed password for root from 10.0.0.{i} port 5{i:03} ssh2"),
            2 | 3 => format!("sshd[{i}00]: Failed password for invalid user u{i} from 10.0.0.{i} port 6{i:03}"),
            4 => format!("kernel: eno{} Link is Down", i % 3),
            5 => format!("pam_unix(sshd:auth): logname= tty=ssh ruser= rhost=10.0.0.{i} user=root"),
            6 => format!("sshd[{i}00]: Accepted publickey for deploy from 10.0.0.{i} port 7{i:03} ssh2"),
            _ => format!("systemd[1]: Started session {i} of user root"),
        });
        let phrase = terms_phrase(&text, 4000, "").unwrap();
        // `Failed` is always followed by `password`, then `for`, which joins it to what varies.
        for want in ["Failed password 32", "Link is Down 8", "Accepted publickey 8", "Started session 24"] {
            assert!(phrase.contains(want), "{want} in {phrase}");
        }
        // The phrase says its words of the same lines; a word in other lines too keeps its own count.
        assert!(!phrase.contains(", Down 8") && !phrase.contains(", Accepted 8"), "{phrase}");
        assert!(!phrase.contains("password for") && !phrase.contains(" for "), "{phrase}");
        // The key and the value of `key=value` pairs are no part of a phrase.
        assert!(!phrase.contains("ssh ruser") && !phrase.contains("logname tty"), "{phrase}");
    }

    #[test]
    fn a_word_also_seen_inside_a_path_is_not_given_a_phrase() {
        let mut text = String::new();
        for i in 0..40 {
            if i % 2 == 0 {
                text.push_str(&format!("   Compiling ledger-store v0.{i}.0\n"));
            } else {
                text.push_str(&format!("warning: unused import at crates/ledger-store/src/f{i}.rs\n"));
            }
        }
        let phrase = terms_phrase(&text, 4000, "").unwrap();
        // `ledger-store` is in every line, half of them in a path: no phrase claims all 40.
        assert!(!phrase.contains("Compiling ledger-store"), "{phrase}");
        assert!(phrase.contains("Compiling 20") && phrase.contains("unused import 20"), "{phrase}");
    }

    #[test]
    fn what_a_line_pattern_of_the_map_says_with_its_count_is_not_said_again() {
        let map =
            r#"line patterns, most first: "* Connection reset by * port * [preauth]" 13, "* Removed session *" 1,300"#;
        assert!(said_by_pattern(map, "Connection reset", 13));
        assert!(said_by_pattern(map, "Removed session", 1300));
        // Another count, a word inside a longer one, a count that only begins the same.
        assert!(!said_by_pattern(map, "Connection reset", 12));
        assert!(!said_by_pattern(map, "Connect", 13));
        assert!(!said_by_pattern(map, "Removed session", 1));
        let text = text_of(40, |i| {
            if i % 4 == 0 {
                format!("sshd[{i}]: Connection reset by 10.0.0.{i}")
            } else {
                format!("cron[{i}]: job {i} ran")
            }
        });
        let alone = terms_phrase(&text, 2000, "").unwrap();
        assert!(alone.contains("Connection reset 10"), "{alone}");
        let after = terms_phrase(&text, 2000, r#""* Connection reset by *" 10"#).unwrap();
        assert!(!after.contains("Connection reset"), "{after}");
    }

    #[test]
    fn keys_hexadecimal_numbers_and_hardware_addresses_are_not_words() {
        let text = text_of(40, |i| {
            if i % 2 == 0 {
                format!("[UFW BLOCK] IN=eno1 MAC=52:54:00:ab:cd:{i:02} SRC=10.0.0.{i} PROTO=TCP")
            } else {
                format!("pci 0000:00:0{}.0: [144d:a80a] EC2 node Code: 7f d1 a8 c1", i % 7)
            }
        });
        let phrase = terms_phrase(&text, 4000, "").unwrap();
        assert!(phrase.contains("UFW BLOCK 20") && phrase.contains("EC2 node Code 20"), "{phrase}");
        for value in ["MAC", "SRC", "PROTO", " ab ", "cd", "a80a", "a8", "c1", "d1"] {
            assert!(!phrase.contains(value), "{value} in {phrase}");
        }
        // `TCP` is a value here, but a word elsewhere: a value after `=` is counted.
        assert!(phrase.contains("TCP 20"), "{phrase}");
    }

    #[test]
    fn the_words_clause_can_be_cut_to_its_first_entries() {
        let clause = "words by lines, most first: a 9, b c 8, d 7 (+1,200 more words)";
        assert_eq!(words_listed(clause), 3);
        assert_eq!(
            first_words(clause, 2).as_deref(),
            Some("words by lines, most first: a 9, b c 8 (+1,201 more words)")
        );
        assert_eq!(
            first_words(clause, 5).as_deref(),
            Some("words by lines, most first: a 9, b c 8, d 7 (+1,200 more words)")
        );
        assert_eq!(first_words(clause, 0), None);
        assert_eq!(
            first_words("words by lines, most first: a 9", 1).as_deref(),
            Some("words by lines, most first: a 9")
        );
        assert_eq!(first_words("line patterns: a 9", 1), None);
    }

    #[test]
    fn escaped_text_is_not_words() {
        let text = text_of(30, |i| {
            if i % 3 == 0 {
                format!("[pid {i}] sendto(5, \"HTTP/1.1 200 OK\\r\\nConnection: close\\r\\n\", 90) = 90")
            } else {
                format!("[pid {i}] recvfrom(5, \"{{\\\"id\\\": {i}}}\", 64) = 12")
            }
        });
        let phrase = terms_phrase(&text, 4000, "").unwrap();
        assert!(!phrase.contains('\\'), "{phrase}");
        assert!(phrase.contains("sendto 10"), "{phrase}");
    }

    #[test]
    fn the_phrase_keeps_to_its_room_and_short_texts_have_none() {
        let text: String = (0..200).map(|i| format!("line {i} 0x{:x}{} 7kind\n", i * 7919, i % 11)).collect();
        // Numbers, hashes and words after a digit are values: only `line` is a word, and it
        // is in every line.
        assert!(terms_phrase(&text, 2000, "").is_none());
        let text: String = (0..200).map(|i| format!("event {}\n", ["alpha", "beta", "gamma"][i % 3])).collect();
        let phrase = terms_phrase(&text, 70, "").unwrap();
        assert!(phrase.len() <= 70 && phrase.contains("alpha 67"), "{phrase}");
        assert!(terms_phrase("a b\nc d\n", 2000, "").is_none());
    }
}
