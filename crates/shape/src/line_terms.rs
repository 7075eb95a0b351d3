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
//! more than half of the lines (a column every line has) or in only one. Nothing is known
//! about any format; at most [`MAX_LINES`] lines and [`MAX_WORDS`] distinct words are read,
//! so the cost is bounded whatever the text.

use rustc_hash::FxHashMap as HashMap;

use crate::counted::counted_list;
use crate::line_fields::MAX_LINES;

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
/// The most digits a word may hold.
const MOST_DIGITS: usize = 2;
/// The longest extension read as a file's type.
const LONGEST_EXTENSION: usize = 5;

/// The phrase of the words in most lines of `text`, at most `room` bytes (whole entries
/// only), or `None` when no word recurs or the room holds none.
pub(crate) fn terms_phrase(text: &str, room: usize) -> Option<String> {
    // Each word with the lines that hold it and the last of them (so a word twice in a
    // line counts once), found without a set per line.
    let mut counts: HashMap<&str, (u64, u64)> = HashMap::default();
    let mut lines = 0u64;
    for line in text.lines().take(MAX_LINES) {
        if line.trim().is_empty() {
            continue;
        }
        lines += 1;
        words_of(line, &mut |w| {
            let full = counts.len() >= MAX_WORDS;
            match counts.get_mut(w) {
                Some((n, last)) if *last != lines => {
                    *n += 1;
                    *last = lines;
                }
                Some(_) => {}
                None if !full => {
                    counts.insert(w, (1, lines));
                }
                None => {}
            }
        });
    }
    if lines < MIN_LINES as u64 {
        return None;
    }
    let mut ranked: Vec<(&str, u64)> =
        counts.into_iter().map(|(w, (n, _))| (w, n)).filter(|&(_, n)| n >= 2 && n * 2 <= lines).collect();
    // Most lines first; of words in as many lines, the shortest first, so that a word
    // holding a shorter one in the same lines (`ops@gmail.com` and `gmail.com`, a path and
    // its file's type) is said once, by the shorter.
    ranked.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.len().cmp(&b.0.len())).then(a.0.cmp(b.0)));
    let mut listed: Vec<(String, u64)> = Vec::new();
    let mut said_by_shorter = 0;
    // Bounded twice: by the words listed and by the words looked at.
    for (word, n) in ranked.iter().copied().take(MOST_LISTED * 2) {
        if listed.len() >= MOST_LISTED {
            break;
        }
        if !listed.iter().rev().take_while(|(_, m)| *m == n).any(|(shorter, _)| word.contains(shorter.as_str())) {
            listed.push((word.to_owned(), n));
        } else {
            said_by_shorter += 1;
        }
    }
    counted_list("words by lines, most first: ", &listed, ranked.len() - said_by_shorter, room, "words")
}

/// Hands each of `line`'s words (see the module's comment) to `out`, a word perhaps more
/// than once.
fn words_of<'a>(line: &'a str, out: &mut impl FnMut(&'a str)) {
    // Separators are ASCII, so the line is cut at bytes (never inside a character).
    for raw in line.split(|c: char| c.is_ascii() && SEPARATOR[c as usize]) {
        let whole = raw.trim_matches(|c| matches!(c, '.' | ':' | '-'));
        if whole.is_empty() {
            continue;
        }
        keep(whole, out);
        if whole.contains(['@', '/', ':']) {
            for part in whole.split(['@', '/', ':']) {
                keep(part.trim_matches('.'), out);
            }
        }
        // A file's type; an address's top-level domain is not one.
        if let Some((_, extension)) = whole.rsplit_once('.')
            && !whole.contains('@')
            && (2..=LONGEST_EXTENSION).contains(&extension.len())
            && extension.bytes().all(|b| b.is_ascii_alphanumeric())
        {
            keep(extension, out);
        }
    }
}

/// Hands `word` to `out` when it is one: not too long, starting with a letter, and with
/// at most [`MOST_DIGITS`] digits (`MP4`, `accept4` and `eno2` are words; a hash, a time
/// or a size is a value).
fn keep<'a>(word: &'a str, out: &mut impl FnMut(&'a str)) {
    if word.len() <= LONGEST
        && word.chars().next().is_some_and(char::is_alphabetic)
        && word.bytes().filter(u8::is_ascii_digit).count() <= MOST_DIGITS
    {
        out(word);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_words_of_a_log_are_counted_by_the_lines_that_hold_them() {
        let mut text = String::new();
        for i in 0..60 {
            let outcome = if i % 4 == 0 { "= -1 ENOENT (No such file)" } else { "= 3" };
            text.push_str(&format!("12:00:{i:02} [pid {}] openat(\"/srv/app/f{i}.py\") {outcome}\n", 100 + i % 3));
        }
        let phrase = terms_phrase(&text, 2000).unwrap();
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
        let phrase = terms_phrase(&text, 2000).unwrap();
        for want in ["NEF 10", "gmail.com 10", "MP4 10", "corp.example 10"] {
            assert!(phrase.contains(want), "{want} in {phrase}");
        }
        // `media` and `tank` are in every line: a column, not a kind of line.
        assert!(!phrase.contains("media") && !phrase.contains(" com "), "{phrase}");
        // Said once, by the shortest word in those lines.
        assert!(!phrase.contains("clip.MP4") && !phrase.contains("ops@gmail.com"), "{phrase}");
    }

    #[test]
    fn the_phrase_keeps_to_its_room_and_short_texts_have_none() {
        let text: String = (0..200).map(|i| format!("line {i} 0x{:x}{} 7kind\n", i * 7919, i % 11)).collect();
        // Numbers, hashes and words after a digit are values: only `line` is a word, and it
        // is in every line.
        assert!(terms_phrase(&text, 2000).is_none());
        let text: String = (0..200).map(|i| format!("event {}\n", ["alpha", "beta", "gamma"][i % 3])).collect();
        let phrase = terms_phrase(&text, 70).unwrap();
        assert!(phrase.len() <= 70 && phrase.contains("alpha 67"), "{phrase}");
        assert!(terms_phrase("a b\nc d\n", 2000).is_none());
    }
}
