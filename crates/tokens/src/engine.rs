//! The exact count: the encoding's pre-tokenizer split, then byte-pair counts of the pieces.
//!
//! The split is the one `bpe-openai` uses (the same patterns, on the same regex engine),
//! decided by hand for pieces of ASCII (`ascii_split`, held to the regex's pieces), and run
//! with this thread's own search cache instead of one taken from the regex's shared pool for
//! every piece (from any thread but the pool's first, two lock round trips per word,
//! contended when two threads count at once). Counts of short pieces are remembered per
//! thread: a piece's count depends on its bytes alone, text repeats its words, and looking
//! one up costs less than encoding it again.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::OnceLock;

use bpe::byte_pair_encoding::BytePairEncoding;
use regex_automata::meta::{Cache, Regex};
use regex_automata::{Anchored, Input};

use crate::{Encoding, ascii_split, table};

/// What an exact count needs: the encoding's split and its table, both shared by the process.
#[derive(Clone, Copy)]
pub(crate) struct Engine {
    encoding: Encoding,
    splitter: &'static Regex,
    table: &'static BytePairEncoding,
}

impl Engine {
    /// The engine of `encoding`, its split and table made now if this is the first use.
    /// `None` if either cannot be made (the tests rule that out).
    pub(crate) fn of(encoding: Encoding) -> Option<Engine> {
        Some(Engine { encoding, splitter: splitter(encoding)?, table: table::table(encoding)? })
    }

    /// The exact number of tokens of `text`.
    pub(crate) fn count(self, text: &str) -> usize {
        let mut total = 0usize;
        self.for_each_piece(text, |piece, memo| {
            total += memo.count(self.table, piece.as_bytes());
            true
        });
        total
    }

    /// The exact number of tokens of `text` if it is at most `limit`, else `None`; stops at
    /// the first piece past the limit.
    pub(crate) fn count_till_limit(self, text: &str, limit: usize) -> Option<usize> {
        let mut used = Some(0usize);
        self.for_each_piece(text, |piece, memo| {
            used = used.and_then(|u| memo.count_till_limit(self.table, piece.as_bytes(), limit - u).map(|n| u + n));
            used.is_some()
        });
        used
    }

    /// Call `visit` on every pre-tokenizer piece of `text` in order, with this thread's
    /// [`Memo`], until it returns false.
    fn for_each_piece(self, text: &str, mut visit: impl FnMut(&str, &mut Memo) -> bool) {
        let encoding = self.encoding;
        let slot = encoding as usize;
        let regex = self.splitter;
        let mut walk = |cache: &mut Cache, memo: &mut Memo| {
            let mut last = 0usize;
            while last < text.len() {
                // A fresh haystack from `last` on, as `bpe_openai` does: `$` and the
                // look-ahead are judged against the rest of the text.
                let rest = &text[last..];
                let end = match ascii_split::first_piece(encoding, rest.as_bytes()) {
                    Some(end) => end,
                    None => {
                        let Some(found) = regex.search_with(cache, &Input::new(rest).anchored(Anchored::Yes)) else {
                            break;
                        };
                        let mut end = found.end();
                        if found.pattern().as_usize() == LOOKAHEAD_PATTERN {
                            end -= rest[..end].chars().next_back().map_or(0, char::len_utf8);
                        }
                        end
                    }
                };
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
    }
}

/// The pre-tokenizer alternative whose match ends with one look-ahead character that is not
/// part of the piece (`\s+` followed by more white space: the last space opens the next piece).
pub(crate) const LOOKAHEAD_PATTERN: usize = 1;

/// Each encoding's pre-tokenizer, indexed by `Encoding as usize`, built on first use.
static SPLITTERS: [OnceLock<Option<Regex>>; 2] = [OnceLock::new(), OnceLock::new()];

/// The pre-tokenizer of `encoding`: its split pattern in the form `bpe_openai` runs it (its
/// negative look-ahead `\s+(?!\S)` written as three alternatives, the second ending with one
/// look-ahead character). `None` if the pattern failed to build.
pub(crate) fn splitter(encoding: Encoding) -> Option<&'static Regex> {
    SPLITTERS[encoding as usize]
        .get_or_init(|| {
            let words = match encoding {
                Encoding::O200kBase => [
                    "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
                    "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
                    "\\p{N}{1,3}",
                    " ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*",
                    "\\s*[\\r\\n]+",
                    "\\s+$",
                ]
                .join("|"),
                Encoding::Cl100kBase => "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+$".to_owned(),
            };
            Regex::new_many(&[words.as_str(), "\\s+\\s", "\\s+"]).ok()
        })
        .as_ref()
}

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

/// The token counts of short pieces seen lately.
/// Hashed with a per-process random seed, so upstream text cannot aim at one bucket.
#[derive(Default)]
struct Memo(HashMap<Box<[u8]>, u32, foldhash::fast::RandomState>);

impl Memo {
    /// The exact count of `piece`.
    fn count(&mut self, table: &BytePairEncoding, piece: &[u8]) -> usize {
        if piece.len() > MEMO_PIECE_MAX {
            return table.count(piece);
        }
        if let Some(&n) = self.0.get(piece) {
            return n as usize;
        }
        let n = table.count(piece);
        if self.0.len() >= MEMO_ENTRIES {
            self.0.clear();
        }
        // A short piece has at most one token per byte, so its count fits a u32.
        self.0.insert(piece.into(), n as u32);
        n
    }

    /// The exact count of `piece` if it is at most `limit`. A long piece is counted with the
    /// limit, so that one huge piece costs no more than the limit allows.
    fn count_till_limit(&mut self, table: &BytePairEncoding, piece: &[u8], limit: usize) -> Option<usize> {
        if piece.len() > MEMO_PIECE_MAX {
            return table.count_till_limit(piece, limit);
        }
        let n = self.count(table, piece);
        (n <= limit).then_some(n)
    }
}
