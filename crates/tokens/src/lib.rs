//! Token counting for what the model reads.
//!
//! Budgets in toolshape are token budgets, so every byte shown to a model is counted with the
//! tokenizer of that model family. The BPE tables are compiled into the binary, compressed
//! (no download at run time), and loaded on the first count that needs one: making a
//! [`Tokenizer`] costs nothing, and a process holds only the tables it counts with.
//! Counting is exact and linear in the input; [`Tokenizer::count_till_limit`] stops as soon
//! as a limit is passed, which is what lets budget fitting cost grow with the budget rather
//! than with the payload.
//!
//! Special-token look-alikes such as `<|endoftext|>` are counted as the plain text they are:
//! upstream data never gets to emit a control token.

mod ascii_split;
mod engine;
mod packed;
mod table;
#[cfg(test)]
mod tests;

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::engine::Engine;

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

/// How a text was found to fit a token limit (see [`Tokenizer::fit`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fit {
    /// Its bytes prove it: it was not counted.
    ByBytes,
    /// It was counted: this many tokens.
    Counted(usize),
}

impl Fit {
    /// The count, when one was made.
    pub fn tokens(self) -> Option<usize> {
        match self {
            Fit::ByBytes => None,
            Fit::Counted(n) => Some(n),
        }
    }
}

/// A token counter for one encoding. Cheap to make and to copy: the encoding's table is
/// loaded on the first count that needs it, once per process, and shared by every copy and
/// thread.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Tokenizer {
    encoding: Encoding,
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
    /// The counter for `encoding`. Loads nothing: the table is loaded by the first count
    /// that needs it (tens of milliseconds, once per process), or ahead of time by
    /// [`Tokenizer::load`].
    pub fn new(encoding: Encoding) -> Self {
        Tokenizer { encoding }
    }

    /// Which encoding this counter uses.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// Load this encoding's table now, if no count has yet (for instance on a background
    /// thread, so that the first call that counts does not wait for it). True when the
    /// table is ready; false only if the embedded table is unreadable, which the tests rule
    /// out.
    pub fn load(&self) -> bool {
        Engine::of(self.encoding).is_some()
    }

    /// Whether this encoding's table has been loaded in this process.
    pub fn is_loaded(&self) -> bool {
        table::is_loaded(self.encoding)
    }

    /// The exact number of tokens of `text`, on this thread.
    pub fn count(&self, text: &str) -> usize {
        match Engine::of(self.encoding) {
            Some(engine) => engine.count(text),
            // Every token stands for at least one byte: the byte length never undercounts.
            None => text.len(),
        }
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
        match Engine::of(self.encoding) {
            Some(engine) => engine.count_till_limit(text, limit),
            None => (text.len() <= limit).then_some(text.len()),
        }
    }

    /// Whether `text` fits in `limit` tokens.
    pub fn fits(&self, text: &str, limit: usize) -> bool {
        self.fit(text, limit).is_some()
    }

    /// How `text` fits in `limit` tokens, or `None` when it does not. Every token stands for
    /// at least one byte, so a text no longer than the limit fits without being counted
    /// ([`Fit::ByBytes`]); a longer one is counted, with work bounded by the limit.
    pub fn fit(&self, text: &str, limit: usize) -> Option<Fit> {
        if text.len() <= limit {
            return Some(Fit::ByBytes);
        }
        self.count_till_limit(text, limit).map(Fit::Counted)
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
