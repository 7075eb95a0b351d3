//! Redacting parts of a text apart: where a text may be cut so that redacting each part gives
//! exactly the matching part of redacting the whole.
//!
//! Every built-in detector but one finds its matches inside one line, and decides on them from
//! that line alone (the context checks look at most 2 KiB back, and never past a line break
//! when one is nearer). Replacements never add or remove a line break, so further passes stay
//! inside the line too. So a part made of whole lines, taken with a margin of [`MARGIN`] bytes
//! of whole lines before it, redacts to exactly what the whole text gives there.
//!
//! The exception is `private_key`: a block runs over many lines, to an END line that can be
//! anywhere after its header. [`Cuts`] finds every block in the whole text first (one SIMD
//! search for `-----BEGIN `; nothing more when there is none), and a part is widened so that
//! no block crosses its edges. A block is replaced by one placeholder, so it is also the only
//! thing that changes the line count: [`Cuts::newlines_removed`] says by how much.
//!
//! Custom patterns are checked when compiled: one that can match a line break (`\n`, `\s`,
//! `[^x]`, `(?s).`) or that anchors to the start or end of the text (`^`, `$` without `(?m)`,
//! `\A`, `\z`) is not line-local, and [`Redactor::cuts`] then answers `None`: the text is
//! redacted whole.

use std::ops::Range;

use regex_syntax::hir::{Class, Hir, HirKind, Look};

use crate::kinds::Kind;
use crate::redactor::Redactor;
use crate::text::Finding;

/// Bytes of whole lines kept before a part: more than any detector looks back.
pub const MARGIN: usize = 4096;

/// Private-key blocks in one text, found once, so that parts of it can be cut where no
/// block crosses.
#[derive(Debug, Clone, Default)]
pub struct Cuts {
    /// Byte ranges of the blocks, sorted and disjoint.
    blocks: Vec<(usize, usize)>,
}

/// Most private-key headers a text may have to be cut into parts; past this it is redacted
/// whole (finding their END lines would cost a search each).
const MAX_BLOCKS: usize = 64;

impl Redactor {
    /// Where `text` may be cut into parts that are redacted apart, or `None` when it must be
    /// redacted whole: a custom pattern is not line-local, or the text holds too many
    /// private-key headers.
    pub fn cuts(&self, text: &str) -> Option<Cuts> {
        if !self.custom_line_local() {
            return None;
        }
        let mut blocks = Vec::new();
        if self.finds_kind(Kind::PrivateKey) {
            let headers = key_headers(text.as_bytes())?;
            let mut found: Vec<Finding> = Vec::new();
            crate::pem::find_at(text, &headers, &mut found);
            blocks.extend(found.iter().map(|f| (f.start, f.end)));
            blocks.sort_unstable();
        }
        Some(Cuts { blocks })
    }
}

impl Cuts {
    /// `range` widened to a safe part of `text`: whole lines, no private-key block across
    /// either edge, and [`MARGIN`] bytes of lines before it (when it does not start the
    /// text). Returns the part and where, inside it, the lines of `range` start (after the
    /// margin).
    pub fn widen(&self, text: &str, range: Range<usize>) -> (Range<usize>, usize) {
        let bytes = text.as_bytes();
        let len = bytes.len();
        let mut start = line_start(bytes, range.start.min(len));
        let mut end = line_end(bytes, range.end.min(len).max(start));
        // Blocks pull the edges out; a wider part can meet another block, so repeat.
        loop {
            let (s, e) = (self.outside(bytes, start, true), self.outside(bytes, end, false));
            if (s, e) == (start, end) {
                break;
            }
            (start, end) = (s, e);
        }
        let trusted = start;
        if start > 0 {
            start = self.outside(bytes, line_start(bytes, start.saturating_sub(MARGIN)), true);
        }
        (start..end, trusted - start)
    }

    /// `at` (a line start or the end), moved out of any block that holds it: back to the
    /// start of the block's first line, or on to the end of its last one.
    fn outside(&self, bytes: &[u8], at: usize, back: bool) -> usize {
        let inside = self.blocks.iter().find(|(s, e)| *s < at && at < *e + usize::from(!back));
        match inside {
            Some(&(s, _)) if back => line_start(bytes, s),
            Some(&(_, e)) => line_end(bytes, e),
            None => at,
        }
    }

    /// Line breaks the redaction removes in `range`: those inside private-key blocks, each
    /// replaced by one placeholder. `range` must not cut a block.
    pub fn newlines_removed(&self, text: &str, range: Range<usize>) -> u64 {
        self.blocks
            .iter()
            .filter(|(s, e)| *s >= range.start && *e <= range.end)
            .filter_map(|&(s, e)| text.as_bytes().get(s..e))
            .map(|b| memchr::memchr_iter(b'\n', b).count() as u64)
            .sum()
    }

    /// Whether any private-key block was found.
    pub fn has_blocks(&self) -> bool {
        !self.blocks.is_empty()
    }
}

/// What every private-key block starts with.
const HEADER: &[u8] = b"-----BEGIN ";

/// Where `-----BEGIN ` occurs in `bytes`, or `None` past [`MAX_BLOCKS`] of them.
///
/// A SIMD search looks first for two bytes of the needle at their distance, then checks
/// the rest. The pair it would choose by itself (by how rare each byte is in typical text)
/// matches on most lines of a log; the first and fifth dash, two dashes four bytes apart,
/// are not in dates, times or UUIDs.
fn key_headers(bytes: &[u8]) -> Option<Vec<usize>> {
    let mut headers = Vec::new();
    let mut pos = 0;
    #[cfg(target_arch = "x86_64")]
    {
        use memchr::arch::all::packedpair::Pair;
        use memchr::arch::x86_64::avx2::packedpair::Finder;
        if let Some(finder) = Pair::with_indices(HEADER, 0, 4).and_then(|pair| Finder::with_pair(HEADER, pair)) {
            while bytes.len() - pos >= finder.min_haystack_len().max(HEADER.len()) {
                let Some(i) = finder.find(&bytes[pos..], HEADER) else {
                    pos = bytes.len();
                    break;
                };
                if headers.len() == MAX_BLOCKS {
                    return None;
                }
                headers.push(pos + i);
                pos += i + 1;
            }
        }
    }
    for i in memchr::memmem::find_iter(bytes.get(pos..).unwrap_or_default(), HEADER) {
        if headers.len() == MAX_BLOCKS {
            return None;
        }
        headers.push(pos + i);
    }
    Some(headers)
}

/// The start of the line `at` is in.
fn line_start(bytes: &[u8], at: usize) -> usize {
    memchr::memrchr(b'\n', &bytes[..at]).map_or(0, |i| i + 1)
}

/// The end of the line `at` is in, its line break included; `at` itself when it already is a
/// line start (or the end).
fn line_end(bytes: &[u8], at: usize) -> usize {
    if at == 0 || at >= bytes.len() || bytes[at - 1] == b'\n' {
        return at.min(bytes.len());
    }
    memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i + 1)
}

/// Whether a custom pattern can only ever match inside one line and never anchors to the
/// start or end of the whole text, so that a part of whole lines finds what the whole finds.
pub(crate) fn line_local(pattern: &str) -> bool {
    match regex_syntax::Parser::new().parse(pattern) {
        Ok(hir) => hir_line_local(&hir),
        Err(_) => false,
    }
}

fn hir_line_local(hir: &Hir) -> bool {
    match hir.kind() {
        HirKind::Empty => true,
        HirKind::Literal(lit) => !lit.0.contains(&b'\n'),
        HirKind::Class(Class::Unicode(c)) => !c.ranges().iter().any(|r| r.start() <= '\n' && '\n' <= r.end()),
        HirKind::Class(Class::Bytes(c)) => !c.ranges().iter().any(|r| r.start() <= b'\n' && b'\n' <= r.end()),
        HirKind::Look(look) => !matches!(look, Look::Start | Look::End),
        HirKind::Repetition(rep) => hir_line_local(&rep.sub),
        HirKind::Capture(cap) => hir_line_local(&cap.sub),
        HirKind::Concat(subs) | HirKind::Alternation(subs) => subs.iter().all(hir_line_local),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CustomPattern, RedactSpec, RedactionCounts};

    fn custom(pattern: &str) -> Redactor {
        let spec = RedactSpec {
            patterns: vec![CustomPattern { name: "x".into(), pattern: pattern.into() }],
            ..RedactSpec::default()
        };
        Redactor::new(&spec).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn patterns_that_can_cross_a_line_break_are_not_line_local() {
        for p in [r"EMP-\d{6}", r"(?m)^id: \w+$", r"\bacct_[a-z]+\b", r"[A-Z]{3}-[0-9]+", r"x[ \t]+y"] {
            assert!(line_local(p), "{p}");
        }
        for p in [r"a\nb", r"key:\s+\w+", r"(?s)BEGIN.*END", r#""[^"]*""#, r"^start", r"end$", r"\Ax", r"x\z"] {
            assert!(!line_local(p), "{p}");
        }
        assert!(custom(r"EMP-\d{6}").cuts("text").is_some());
        assert!(custom(r"(?s)BEGIN.*?END").cuts("text").is_none());
    }

    #[test]
    fn a_key_block_across_an_edge_is_taken_whole() {
        let key = "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nAAAA\n-----END RSA PRIVATE KEY-----";
        let text = format!("a\nb\n{key}\nc\nd\n");
        let redactor = Redactor::new(&RedactSpec::default()).unwrap_or_else(|e| panic!("{e}"));
        let cuts = redactor.cuts(&text).unwrap_or_else(|| panic!("cuts"));
        assert!(cuts.has_blocks());
        let block = text.find("-----BEGIN").unwrap_or(0)..text.find("\nc").unwrap_or(0) + 1;
        // A part ending inside the block runs on to the end of the block's last line.
        let inside = text.find("AAAA").unwrap_or(0);
        let (part, trusted) = cuts.widen(&text, 0..inside);
        assert_eq!((part.clone(), trusted), (0..block.end, 0));
        // A part starting inside it starts at the block's first line (then the margin).
        let (part, trusted) = cuts.widen(&text, inside..text.len());
        assert_eq!(part, 0..text.len());
        assert_eq!(&text[part.start + trusted..], &text[block.start..]);
        assert_eq!(cuts.newlines_removed(&text, 0..text.len()), 3);
        let mut counts = RedactionCounts::default();
        let whole = redactor.redact_text(&text, &mut counts);
        assert_eq!(whole.lines().count(), text.lines().count() - 3);
    }

    #[test]
    fn key_headers_are_every_occurrence() {
        let mut text = String::new();
        for i in 0..300 {
            text.push_str(["2026-01-02 a-b-c-d-e ", "-----BEGIN ", "---- -----BEGIN", "x"][i % 4]);
            let want: Vec<usize> = memchr::memmem::find_iter(text.as_bytes(), HEADER).collect();
            match key_headers(text.as_bytes()) {
                Some(found) => assert_eq!(found, want, "{text}"),
                None => assert!(want.len() > MAX_BLOCKS),
            }
        }
    }

    #[test]
    fn parts_are_whole_lines() {
        let text = "one\ntwo\nthree";
        let cuts = Cuts::default();
        assert_eq!(cuts.widen(text, 5..6), (0..8, 4));
        assert_eq!(cuts.widen(text, 9..10), (0..text.len(), 8));
        assert_eq!(cuts.widen(text, 0..0), (0..0, 0));
        assert_eq!(cuts.widen(text, 4..8), (0..8, 4));
    }
}
