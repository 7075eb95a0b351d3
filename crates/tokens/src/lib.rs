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

use std::fmt;
use std::str::FromStr;

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
        self.bpe.count(text)
    }

    /// [`Tokenizer::count`] on every core for long texts (one process owning the machine,
    /// like `toolshape tokens` on a big file); the gateway counts on one thread so that
    /// concurrent calls are not slowed down by one large result.
    pub fn count_parallel(&self, text: &str) -> usize {
        let threads = std::thread::available_parallelism().map_or(1, usize::from);
        if text.len() < PARALLEL_MIN_BYTES || threads < 2 {
            return self.bpe.count(text);
        }
        self.count_in_pieces(text, threads)
    }

    /// [`Tokenizer::count`] over `pieces` parallel pieces (at most), whatever the length.
    pub fn count_in_pieces(&self, text: &str, pieces: usize) -> usize {
        let cuts = split_points(text, pieces);
        if cuts.len() <= 2 {
            return self.bpe.count(text);
        }
        std::thread::scope(|scope| {
            let handles: Vec<_> = cuts
                .windows(2)
                .skip(1)
                .map(|w| {
                    let piece = &text[w[0]..w[1]];
                    (piece, scope.spawn(move || self.bpe.count(piece)))
                })
                .collect();
            // The first piece is counted on this thread while the others run. A piece whose
            // thread failed is counted again here: an undercount would break budgets.
            let first = self.bpe.count(&text[cuts[0]..cuts[1]]);
            first
                + handles
                    .into_iter()
                    .map(|(piece, h)| h.join().unwrap_or_else(|_| self.bpe.count(piece)))
                    .sum::<usize>()
        })
    }

    /// The exact number of tokens of `text` if it is at most `limit`, else `None`.
    ///
    /// Work stops at the first pre-tokenized piece that passes the limit, so the cost is
    /// bounded by the limit (plus one piece), not by the length of `text`.
    pub fn count_till_limit(&self, text: &str, limit: usize) -> Option<usize> {
        let normalized = self.bpe.normalize(text);
        self.bpe.count_till_limit(&normalized, limit)
    }

    /// Whether `text` fits in `limit` tokens.
    pub fn fits(&self, text: &str, limit: usize) -> bool {
        self.count_till_limit(text, limit).is_some()
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
