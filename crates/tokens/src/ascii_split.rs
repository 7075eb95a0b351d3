//! The pre-tokenizer's split, decided by hand where the text is ASCII.
//!
//! Most of what a gateway counts is ASCII (JSON, logs, code, English), and on ASCII the
//! encodings' split patterns reduce to a few runs of byte classes. Deciding a piece that way
//! costs a handful of comparisons per byte, where the regex engine's lazy DFA costs several
//! times that. The rule that keeps it exact: a piece is decided here only if every byte
//! looked at while deciding it is ASCII. The first time a byte at or above 0x80 would be
//! looked at, the answer is `None`, and the caller asks the regex for that piece. A property
//! test holds the two to the same pieces on text mixed from every class, ASCII or not.
//!
//! The patterns (see `engine::splitter`) are alternations tried in order at the start of the
//! rest of the text (leftmost-first); each function below follows the alternatives of one
//! encoding in that order, on these classes: upper- and lower-case letters, digits, the
//! line breaks `\r` and `\n`, the other white space (`\t`, `\x0B`, `\x0C`, space), and
//! everything else.

use crate::Encoding;

/// A byte's class, as the split patterns see an ASCII character.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Upper,
    Lower,
    Digit,
    /// `\r` or `\n`.
    Break,
    /// White space that is not a line break.
    Space,
    /// Not a letter, digit or white space: punctuation, symbols, control characters.
    Other,
}

impl Class {
    fn is_letter(self) -> bool {
        matches!(self, Class::Upper | Class::Lower)
    }

    fn is_white(self) -> bool {
        matches!(self, Class::Break | Class::Space)
    }

    /// `[^\r\n\p{L}\p{N}]`: the optional character before a word.
    fn opens_word(self) -> bool {
        matches!(self, Class::Space | Class::Other)
    }
}

/// A look at the text that gives up at the first byte that is not ASCII.
struct Bytes<'t>(&'t [u8]);

/// Reached a byte that is not ASCII: the regex must decide this piece.
struct NotAscii;

impl Bytes<'_> {
    /// The class of the byte at `i`; `Ok(None)` past the end.
    fn class(&self, i: usize) -> Result<Option<Class>, NotAscii> {
        let Some(&b) = self.0.get(i) else { return Ok(None) };
        Ok(Some(match b {
            b'A'..=b'Z' => Class::Upper,
            b'a'..=b'z' => Class::Lower,
            b'0'..=b'9' => Class::Digit,
            b'\r' | b'\n' => Class::Break,
            b'\t' | b'\x0B' | b'\x0C' | b' ' => Class::Space,
            0x80.. => return Err(NotAscii),
            _ => Class::Other,
        }))
    }

    fn is(&self, i: usize, want: impl Fn(Class) -> bool) -> Result<bool, NotAscii> {
        Ok(self.class(i)?.is_some_and(want))
    }

    /// The end of the run of bytes from `i` whose class passes `want`.
    fn run(&self, mut i: usize, want: impl Fn(Class) -> bool) -> Result<usize, NotAscii> {
        while self.is(i, &want)? {
            i += 1;
        }
        Ok(i)
    }

    /// The end of `(?i:'s|'t|'re|'ve|'m|'ll|'d)` matched at `i`, if it matches. The letter
    /// after the apostrophe is looked at as a class first: a non-ASCII letter there (the
    /// long s folds to `s` when case is ignored) is the regex's to judge.
    fn contraction(&self, i: usize) -> Result<Option<usize>, NotAscii> {
        if self.0.get(i) != Some(&b'\'') {
            return Ok(None);
        }
        if self.class(i + 1)?.is_none() {
            return Ok(None);
        }
        let lower = |at: usize| self.0.get(at).map(u8::to_ascii_lowercase);
        Ok(match lower(i + 1) {
            Some(b's' | b't' | b'm' | b'd') => Some(i + 2),
            Some(b'r' | b'v') if lower(i + 2) == Some(b'e') => Some(i + 3),
            Some(b'l') if lower(i + 2) == Some(b'l') => Some(i + 3),
            _ => None,
        })
    }

    /// The piece of the white-space alternatives shared by both encodings, at the start:
    /// `\s*[\r\n]+` (white space up to its last line break), `\s+$` (white space to the
    /// end), then `\s+\s` less its last character, then `\s+`.
    fn white_piece(&self) -> Result<Option<usize>, NotAscii> {
        let end = self.run(0, Class::is_white)?;
        if end == 0 {
            return Ok(None);
        }
        // Where the run ends the text may go on with a non-ASCII space, which would
        // lengthen it: `run` has already given up in that case.
        if let Some(last_break) = (0..end).rev().find(|&i| matches!(self.0[i], b'\r' | b'\n')) {
            return Ok(Some(last_break + 1));
        }
        if end == self.0.len() || end == 1 {
            return Ok(Some(end));
        }
        Ok(Some(end - 1))
    }
}

/// The length of the first pre-tokenizer piece of `text` in `encoding` (at least 1 for a
/// text that is not empty), or `None` if deciding it would mean looking at a byte that is
/// not ASCII, or the text is empty.
pub(crate) fn first_piece(encoding: Encoding, text: &[u8]) -> Option<usize> {
    let bytes = Bytes(text);
    let found = match encoding {
        Encoding::O200kBase => o200k(&bytes),
        Encoding::Cl100kBase => cl100k(&bytes),
    };
    found.ok().flatten()
}

/// o200k_base:
/// `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|…)?`,
/// then the same with `+` and `*` swapped, `\p{N}{1,3}`, ` ?[^\s\p{L}\p{N}]+[\r\n/]*`,
/// and the white-space alternatives.
fn o200k(b: &Bytes<'_>) -> Result<Option<usize>, NotAscii> {
    let Some(first) = b.class(0)? else { return Ok(None) };
    // The two word alternatives. On ASCII, upper and lower case do not overlap, so the
    // first matches an upper-case run followed by a lower-case one, and the second, tried
    // only when the first failed, an upper-case run with nothing lower-case after it.
    let start = usize::from(first.opens_word());
    let upper_end = b.run(start, |c| c == Class::Upper)?;
    let lower_end = b.run(upper_end, |c| c == Class::Lower)?;
    if lower_end > upper_end || upper_end > start {
        let end = b.contraction(lower_end)?.unwrap_or(lower_end);
        return Ok(Some(end));
    }
    if first == Class::Digit {
        return Ok(Some(digits(b)?));
    }
    if let Some(end) = symbols(b, first, |c| c == b'\r' || c == b'\n' || c == b'/')? {
        return Ok(Some(end));
    }
    b.white_piece()
}

/// cl100k_base: `(?i:'s|'t|'re|'ve|'m|'ll|'d)`, `[^\r\n\p{L}\p{N}]?\p{L}+`, `\p{N}{1,3}`,
/// ` ?[^\s\p{L}\p{N}]+[\r\n]*`, and the white-space alternatives.
fn cl100k(b: &Bytes<'_>) -> Result<Option<usize>, NotAscii> {
    let Some(first) = b.class(0)? else { return Ok(None) };
    if let Some(end) = b.contraction(0)? {
        return Ok(Some(end));
    }
    let start = usize::from(first.opens_word());
    let letters_end = b.run(start, Class::is_letter)?;
    if letters_end > start {
        return Ok(Some(letters_end));
    }
    if first == Class::Digit {
        return Ok(Some(digits(b)?));
    }
    if let Some(end) = symbols(b, first, |c| c == b'\r' || c == b'\n')? {
        return Ok(Some(end));
    }
    b.white_piece()
}

/// `\p{N}{1,3}` at the start, which holds a digit.
fn digits(b: &Bytes<'_>) -> Result<usize, NotAscii> {
    let mut end = 1;
    while end < 3 && b.is(end, |c| c == Class::Digit)? {
        end += 1;
    }
    Ok(end)
}

/// ` ?[^\s\p{L}\p{N}]+` followed by a run of the bytes `trailing` takes, at the start.
fn symbols(b: &Bytes<'_>, first: Class, trailing: impl Fn(u8) -> bool) -> Result<Option<usize>, NotAscii> {
    let start = if first == Class::Other {
        0
    } else if b.0[0] == b' ' && b.is(1, |c| c == Class::Other)? {
        1
    } else {
        return Ok(None);
    };
    let mut end = b.run(start, |c| c == Class::Other)?;
    while b.0.get(end).is_some_and(|&c| trailing(c)) {
        end += 1;
    }
    Ok(Some(end))
}

#[cfg(test)]
#[path = "ascii_split_tests.rs"]
mod tests;
