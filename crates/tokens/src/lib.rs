//! Token counting for what the model reads.
//!
//! Budgets in toolshape are token budgets, so every byte shown to a model is counted with the
//! tokenizer of that model family. The BPE tables are compiled into the binary (no download
//! at run time). Counting is exact and linear in the input; [`Tokenizer::count_till_limit`]
//! stops as soon as a limit is passed, which is what lets budget fitting cost grow with the
//! budget rather than with the payload.
//!
//! Special-token look-alikes such as `<|endoftext|>` are counted as the plain text they are:
//! upstream data never gets to emit a control token.

use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;
use std::sync::LazyLock;

use bpe_openai::byte_pair_encoding::BytePairEncoding;
use regex_automata::meta::{Cache, Regex};
use regex_automata::{Anchored, Input};
use serde::{Deserialize, Serialize};

/// The BPE vocabularies toolshape can count with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Encoding {
    /// GPT-4o and later (the default).
    #[default]
    O200kBase,
    /// GPT-4 and GPT-3.5.
    Cl100kBase,
}

impl Encoding {
    /// Every encoding, in the order they are documented.
    pub const ALL: [Encoding; 2] = [Encoding::O200kBase, Encoding::Cl100kBase];

    /// The name used in configs and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::O200kBase => "o200k_base",
            Encoding::Cl100kBase => "cl100k_base",
        }
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An encoding name that toolshape does not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown tokenizer `{given}`: use `o200k_base` or `cl100k_base`")]
pub struct UnknownEncoding {
    /// What was asked for.
    pub given: String,
}

impl FromStr for Encoding {
    type Err = UnknownEncoding;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "o200k_base" | "o200k" => Ok(Encoding::O200kBase),
            "cl100k_base" | "cl100k" => Ok(Encoding::Cl100kBase),
            _ => Err(UnknownEncoding { given: s.to_owned() }),
        }
    }
}

/// A token counter for one encoding. Cheap to copy; the tables are loaded once per process.
#[derive(Clone, Copy)]
pub struct Tokenizer {
    encoding: Encoding,
    bpe: &'static bpe_openai::Tokenizer,
}

impl fmt::Debug for Tokenizer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tokenizer").field("encoding", &self.encoding).finish()
    }
}

impl Default for Tokenizer {
    fn default() -> Self {
        Tokenizer::new(Encoding::default())
    }
}

impl Tokenizer {
    /// The counter for `encoding`. The first call per encoding deserializes its table
    /// (tens of milliseconds); later calls are free.
    pub fn new(encoding: Encoding) -> Self {
        let bpe = match encoding {
            Encoding::O200kBase => bpe_openai::o200k_base(),
            Encoding::Cl100kBase => bpe_openai::cl100k_base(),
        };
        Tokenizer { encoding, bpe }
    }

    /// Which encoding this counter uses.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// The exact number of tokens of `text`, on this thread.
    pub fn count(&self, text: &str) -> usize {
        let normalized = self.bpe.normalize(text);
        let mut total = 0usize;
        let split = self.for_each_piece(normalized.as_str(), |piece, memo| {
            total += memo.count(&self.bpe.bpe, piece.as_bytes());
            true
        });
        if split { total } else { self.bpe.count(text) }
    }

    /// Call `visit` on every pre-tokenizer piece of `text` in order, with this thread's
    /// [`Memo`], until it returns false. Exactly the pieces `bpe_openai` splits into, but with
    /// this thread's own search cache instead of one taken from the regex's shared pool for
    /// every piece (from any thread but the pool's first, two lock round trips per word,
    /// contended when two threads count at once). False when this encoding's pattern could
    /// not be built; the caller then counts with `bpe_openai` itself.
    fn for_each_piece(&self, text: &str, mut visit: impl FnMut(&str, &mut Memo) -> bool) -> bool {
        let slot = self.encoding as usize;
        let Some(regex) = SPLITTERS[slot].as_ref() else {
            return false;
        };
        let mut walk = |cache: &mut Cache, memo: &mut Memo| {
            let mut last = 0usize;
            while last < text.len() {
                // A fresh haystack from `last` on, as `bpe_openai` does: `$` and the
                // look-ahead are judged against the rest of the text.
                let rest = &text[last..];
                let Some(found) = regex.search_with(cache, &Input::new(rest).anchored(Anchored::Yes)) else {
                    break;
                };
                let mut end = found.end();
                if found.pattern().as_usize() == LOOKAHEAD_PATTERN {
                    end -= rest[..end].chars().next_back().map_or(0, char::len_utf8);
                }
                if end == 0 || !visit(&rest[..end], memo) {
                    break;
                }
                last += end;
            }
        };
        let used = PER_THREAD.with(|state| match state.try_borrow_mut() {
            Ok(mut state) => {
                let PerThread { caches, memos } = &mut *state;
                walk(caches[slot].get_or_insert_with(|| regex.create_cache()), &mut memos[slot]);
                true
            }
            Err(_) => false,
        });
        if !used {
            walk(&mut regex.create_cache(), &mut Memo::default());
        }
        true
    }

    /// [`Tokenizer::count`] on every core for long texts (one process owning the machine,
    /// like `toolshape tokens` on a big file); the gateway counts on one thread so that
    /// concurrent calls are not slowed down by one large result.
    pub fn count_parallel(&self, text: &str) -> usize {
        let threads = std::thread::available_parallelism().map_or(1, usize::from);
        if text.len() < PARALLEL_MIN_BYTES || threads < 2 {
            return self.count(text);
        }
        self.count_in_pieces(text, threads)
    }

    /// [`Tokenizer::count`] over `pieces` parallel pieces (at most), whatever the length.
    pub fn count_in_pieces(&self, text: &str, pieces: usize) -> usize {
        let cuts = split_points(text, pieces);
        if cuts.len() <= 2 {
            return self.count(text);
        }
        std::thread::scope(|scope| {
            let handles: Vec<_> = cuts
                .windows(2)
                .skip(1)
                .map(|w| {
                    let piece = &text[w[0]..w[1]];
                    (piece, scope.spawn(move || self.count(piece)))
                })
                .collect();
            // The first piece is counted on this thread while the others run. A piece whose
            // thread failed is counted again here: an undercount would break budgets.
            let first = self.count(&text[cuts[0]..cuts[1]]);
            first + handles.into_iter().map(|(piece, h)| h.join().unwrap_or_else(|_| self.count(piece))).sum::<usize>()
        })
    }

    /// The exact number of tokens of `text` if it is at most `limit`, else `None`.
    ///
    /// Work stops at the first pre-tokenized piece that passes the limit, so the cost is
    /// bounded by the limit (plus one piece), not by the length of `text`.
    pub fn count_till_limit(&self, text: &str, limit: usize) -> Option<usize> {
        let normalized = self.bpe.normalize(text);
        let mut used = Some(0usize);
        let split = self.for_each_piece(normalized.as_str(), |piece, memo| {
            used = used.and_then(|u| memo.count_till_limit(&self.bpe.bpe, piece.as_bytes(), limit - u).map(|n| u + n));
            used.is_some()
        });
        if split { used } else { self.bpe.count_till_limit(&normalized, limit) }
    }

    /// Whether `text` fits in `limit` tokens.
    pub fn fits(&self, text: &str, limit: usize) -> bool {
        // Every token stands for at least one byte, so a text no longer than the limit fits
        // without being counted.
        text.len() <= limit || self.count_till_limit(text, limit).is_some()
    }

    /// The longest prefix of `text`, cut at a character boundary, whose count is at most
    /// `limit`, with its count. Work is bounded by the limit, not by the length of `text`.
    pub fn prefix_within<'t>(&self, text: &'t str, limit: usize) -> (&'t str, usize) {
        if let Some(n) = self.count_till_limit(text, limit) {
            return (text, n);
        }
        // Tokens are at least one byte, so a prefix longer than `limit * MAX_TOKEN_BYTES`
        // cannot fit; search by bisection on byte length inside that window.
        let window = text.floor_char_boundary(limit.saturating_mul(MAX_TOKEN_BYTES).min(text.len()));
        let (mut lo, mut hi) = (0usize, window);
        let mut best = (0usize, 0usize);
        while lo <= hi {
            let mid = text.floor_char_boundary(lo + (hi - lo) / 2);
            match self.count_till_limit(&text[..mid], limit) {
                Some(n) => {
                    if mid >= best.0 {
                        best = (mid, n);
                    }
                    let next = text.ceil_char_boundary(mid + 1);
                    if next <= lo || next > hi {
                        break;
                    }
                    lo = next;
                }
                None => {
                    if mid == 0 {
                        break;
                    }
                    hi = text.floor_char_boundary(mid - 1);
                }
            }
        }
        (&text[..best.0], best.1)
    }
}

/// The pre-tokenizer alternative whose match ends with one look-ahead character that is not
/// part of the piece (`\s+` followed by more white space: the last space opens the next piece).
const LOOKAHEAD_PATTERN: usize = 1;

/// Each encoding's pre-tokenizer, indexed by `Encoding as usize`: the encoding's split
/// pattern in the form `bpe_openai` runs it (its negative look-ahead `\s+(?!\S)` written as
/// three alternatives, the second ending with one look-ahead character). `None` if a pattern
/// failed to build; counting then falls back to `bpe_openai`'s own split.
static SPLITTERS: LazyLock<[Option<Regex>; 2]> = LazyLock::new(|| {
    let build = |words: &str| Regex::new_many(&[words, "\\s+\\s", "\\s+"]).ok();
    let o200k_words = [
        "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
        "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
        "\\p{N}{1,3}",
        " ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*",
        "\\s*[\\r\\n]+",
        "\\s+$",
    ]
    .join("|");
    let cl100k_words = "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+$";
    let mut out = [None, None];
    out[Encoding::O200kBase as usize] = build(&o200k_words);
    out[Encoding::Cl100kBase as usize] = build(cl100k_words);
    out
});

/// What one thread keeps between counts, per encoding (indexed like [`SPLITTERS`]).
#[derive(Default)]
struct PerThread {
    /// Search caches for [`SPLITTERS`], made on first use.
    caches: [Option<Cache>; 2],
    /// Counts of short pieces seen lately.
    memos: [Memo; 2],
}

thread_local! {
    static PER_THREAD: RefCell<PerThread> = RefCell::new(PerThread::default());
}

/// Pieces up to this many bytes have their counts remembered: words, numbers, punctuation
/// runs, the bulk of any text. Longer ones are rare and counted each time.
const MEMO_PIECE_MAX: usize = 24;
/// Remembered pieces per thread and encoding (a few hundred KiB at most); when full, the
/// memo starts over, so it stays bounded whatever the input.
const MEMO_ENTRIES: usize = 8192;

/// The token counts of short pieces seen lately. A piece's count depends on its bytes
/// alone, so a remembered count is the count; text repeats its words, and looking one up
/// costs less than encoding it again.
/// Hashed with a per-process random seed, so upstream text cannot aim at one bucket.
#[derive(Default)]
struct Memo(HashMap<Box<[u8]>, u32, foldhash::fast::RandomState>);

impl Memo {
    /// The exact count of `piece`.
    fn count(&mut self, bpe: &BytePairEncoding, piece: &[u8]) -> usize {
        if piece.len() > MEMO_PIECE_MAX {
            return bpe.count(piece);
        }
        if let Some(&n) = self.0.get(piece) {
            return n as usize;
        }
        let n = bpe.count(piece);
        if self.0.len() >= MEMO_ENTRIES {
            self.0.clear();
        }
        // A short piece has at most one token per byte, so its count fits a u32.
        self.0.insert(piece.into(), n as u32);
        n
    }

    /// The exact count of `piece` if it is at most `limit`. A long piece is counted with the
    /// limit, so that one huge piece costs no more than the limit allows.
    fn count_till_limit(&mut self, bpe: &BytePairEncoding, piece: &[u8], limit: usize) -> Option<usize> {
        if piece.len() > MEMO_PIECE_MAX {
            return bpe.count_till_limit(piece, limit);
        }
        let n = self.count(bpe, piece);
        (n <= limit).then_some(n)
    }
}

/// Below this many bytes, one thread counts faster than several can start.
const PARALLEL_MIN_BYTES: usize = 256 * 1024;

/// Up to `pieces + 1` byte offsets (first 0, last `text.len()`) cutting `text` into about
/// equal pieces, each cut where both pre-tokenizers (o200k_base, cl100k_base) always end a
/// piece (see [`is_piece_boundary`]), so counting the pieces apart gives the same total as
/// counting the whole (checked by a property test).
pub fn split_points(text: &str, pieces: usize) -> Vec<usize> {
    let bytes = text.as_bytes();
    let mut cuts = vec![0];
    let step = text.len() / pieces.max(1);
    for k in 1..pieces.max(1) {
        let from = (k * step).max(cuts.last().copied().unwrap_or(0) + 1);
        let found = (from.max(1)..bytes.len().saturating_sub(1)).find(|&i| is_piece_boundary(bytes, i));
        match found {
            Some(cut) if cut < bytes.len() => cuts.push(cut),
            _ => break,
        }
    }
    cuts.push(text.len());
    cuts.dedup();
    cuts
}

/// Whether every pre-tokenizer piece ends just before byte `i`:
/// - after a newline, before an ASCII letter or digit: no pattern starts with a newline and
///   goes on into a letter or digit, and the patterns that take trailing newlines
///   (`[\r\n/]*`) stop before letters and digits;
/// - after an ASCII letter, before a space that an ASCII letter follows: the letter run
///   ends at the letter, and the space opens the next word (` word`).
fn is_piece_boundary(bytes: &[u8], i: usize) -> bool {
    let (Some(&before), Some(&at), Some(&after)) = (bytes.get(i.wrapping_sub(1)), bytes.get(i), bytes.get(i + 1))
    else {
        return false;
    };
    (before == b'\n' && at.is_ascii_alphanumeric())
        || (before.is_ascii_alphabetic() && at == b' ' && after.is_ascii_alphabetic())
}

/// No token of the supported vocabularies is longer than this many bytes.
const MAX_TOKEN_BYTES: usize = 128;

/// A cheap, conservative-leaning estimate: about one token per four bytes of text, never
/// zero for non-empty text. For places where an exact count is not needed (progress, sizing,
/// reports of payloads too large to count).
pub fn estimate(text: &str) -> usize {
    estimate_bytes(text.len())
}

/// [`estimate`] from a byte length alone.
pub fn estimate_bytes(len: usize) -> usize {
    len.div_ceil(4)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for e in Encoding::ALL {
            assert_eq!(e.name().parse::<Encoding>(), Ok(e));
        }
        assert!("gpt2".parse::<Encoding>().is_err());
    }

    #[test]
    fn special_token_lookalikes_are_plain_text() {
        let t = Tokenizer::default();
        assert!(t.count("<|endoftext|>") > 1);
    }

    #[test]
    fn count_till_limit_agrees_with_count() {
        let t = Tokenizer::default();
        let text = "The quick brown fox jumps over the lazy dog. ".repeat(20);
        let n = t.count(&text);
        assert_eq!(t.count_till_limit(&text, n), Some(n));
        assert_eq!(t.count_till_limit(&text, n - 1), None);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1024))]
        /// Counting in pieces cut at [`split_points`] equals counting the whole.
        #[test]
        fn pieces_sum_to_the_whole(
            lines in proptest::collection::vec("([ -~\t\r/é中🙂]{0,12}|[a-zA-Z]{1,6} [a-zA-Z]{1,6}|'s |\\n{0,2}[a-z]|  +[a-z])*", 0..60),
            pieces in 2usize..8,
            encoding in proptest::sample::select(Encoding::ALL.to_vec()),
        ) {
            let text = lines.join("\n");
            let t = Tokenizer::new(encoding);
            proptest::prop_assert_eq!(t.count_in_pieces(&text, pieces), t.bpe.count(&text));
        }
    }

    #[test]
    fn own_split_is_built_for_every_encoding() {
        assert!(SPLITTERS.iter().all(Option::is_some));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2048))]
        /// The split with a per-thread cache gives `bpe_openai`'s counts, whole and with a limit.
        #[test]
        fn counts_equal_the_reference_split(
            text in "([ -~\t\r\n/é中🙂ǅ\u{300}\u{a0}]|'s|'LL|  +|\n\n| \n|[0-9]{1,5}|[A-Z]?[a-z]{1,8})*",
            limit in 0usize..80,
            encoding in proptest::sample::select(Encoding::ALL.to_vec()),
        ) {
            let t = Tokenizer::new(encoding);
            let reference = t.bpe.count(text.as_str());
            proptest::prop_assert_eq!(t.count(&text), reference);
            proptest::prop_assert_eq!(t.count_till_limit(&text, limit), (reference <= limit).then_some(reference));
            proptest::prop_assert_eq!(t.count_till_limit(&text, reference), Some(reference));
            // `fits` answers short texts by their byte length alone: it must agree with the count.
            proptest::prop_assert_eq!(t.fits(&text, limit), reference <= limit);
            // Again, now that the memo holds these pieces.
            proptest::prop_assert_eq!(t.count(&text), reference);
        }
    }

    #[test]
    fn counts_equal_the_reference_split_from_other_threads() {
        let text = "Log line 42: ERROR   user's token   expired\n\n  détails: 中文 🙂\r\n".repeat(400);
        for encoding in Encoding::ALL {
            let t = Tokenizer::new(encoding);
            let reference = t.bpe.count(text.as_str());
            let counted: Vec<usize> = std::thread::scope(|scope| {
                let handles: Vec<_> = (0..3).map(|_| scope.spawn(|| t.count(&text))).collect();
                handles.into_iter().map(|h| h.join().unwrap()).collect()
            });
            assert_eq!(counted, vec![reference; 3]);
        }
    }

    #[test]
    fn prefix_within_is_maximal_and_fits() {
        let t = Tokenizer::default();
        let text = "héllo wörld, ünïcode everywhere! ".repeat(50);
        for limit in [0, 1, 2, 7, 50, 100] {
            let (p, n) = t.prefix_within(&text, limit);
            assert!(n <= limit);
            assert_eq!(t.count(p), n);
            if p.len() < text.len() {
                let next = text.ceil_char_boundary(p.len() + 1);
                assert!(t.count(&text[..next]) > limit, "prefix not maximal at limit {limit}");
            }
        }
    }
}
