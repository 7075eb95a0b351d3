//! BERT's uncased WordPiece tokenizer: text to the token ids of the embedding table.
//!
//! The static embedding table has one row per token of the sentence-transformer's
//! vocabulary, so text must be cut exactly as that model cut it: clean control characters,
//! put spaces around CJK ideographs, split at whitespace, lowercase, strip accents (NFD, then
//! drop combining marks), split every punctuation character off as its own token, then cut
//! each word greedily into the longest vocabulary pieces (`embeddings` → `em`, `##bed`,
//! `##ding`, `##s`), a word that cannot be cut becoming the unknown token. Written here
//! rather than taken from a general tokenizer library: it is this one algorithm, and the
//! table carries its own vocabulary.

use std::collections::HashMap;

use unicode_general_category::{GeneralCategory, get_general_category};
use unicode_normalization::UnicodeNormalization;

/// Words longer than this (in characters) become the unknown token, as in BERT.
const MAX_WORD_CHARS: usize = 100;
/// The marker of a piece that continues a word.
const CONTINUATION: &str = "##";

/// A vocabulary and the rules to cut text into its pieces.
#[derive(Debug)]
pub(crate) struct WordPiece {
    /// Pieces that start a word, by text.
    starts: HashMap<&'static str, u32>,
    /// Pieces that continue a word, by text without the `##` marker.
    continuations: HashMap<&'static str, u32>,
    unknown: Option<u32>,
    lowercase: bool,
}

impl WordPiece {
    /// A tokenizer over `tokens` (a token's id is its position), lowercasing and stripping
    /// accents when `lowercase`.
    pub(crate) fn new(tokens: &[&'static str], lowercase: bool) -> WordPiece {
        let mut starts = HashMap::with_capacity(tokens.len());
        let mut continuations = HashMap::new();
        for (id, token) in tokens.iter().enumerate() {
            let id = u32::try_from(id).unwrap_or(u32::MAX);
            match token.strip_prefix(CONTINUATION) {
                Some(rest) if !rest.is_empty() => {
                    continuations.entry(rest).or_insert(id);
                }
                _ => {
                    starts.entry(*token).or_insert(id);
                }
            }
        }
        let unknown = starts.get("[UNK]").copied();
        WordPiece { starts, continuations, unknown, lowercase }
    }

    /// Call `each` with the id of every piece of `text`, in order (unknown words included).
    pub(crate) fn for_each_id(&self, text: &str, mut each: impl FnMut(u32)) {
        let mut word = String::new();
        for c in text.chars() {
            if c == '\0' || c == '\u{fffd}' || is_control(c) {
                continue;
            }
            if c.is_whitespace() {
                self.flush(&mut word, &mut each);
            } else if is_cjk(c) || is_punctuation(c) {
                self.flush(&mut word, &mut each);
                word.push(c);
                self.flush(&mut word, &mut each);
            } else {
                word.push(c);
            }
        }
        self.flush(&mut word, &mut each);
    }

    /// Normalise the word gathered so far, cut it into pieces, and start a new one.
    fn flush(&self, word: &mut String, each: &mut impl FnMut(u32)) {
        if word.is_empty() {
            return;
        }
        let normalised: String = if self.lowercase {
            word.to_lowercase().nfd().filter(|c| get_general_category(*c) != GeneralCategory::NonspacingMark).collect()
        } else {
            word.clone()
        };
        word.clear();
        // Stripping accents can leave punctuation that was hidden in a composed character;
        // BERT splits after normalising, so split again.
        let mut piece_start = 0;
        for (at, c) in normalised.char_indices() {
            if is_punctuation(c) {
                self.cut(&normalised[piece_start..at], each);
                self.cut(&normalised[at..at + c.len_utf8()], each);
                piece_start = at + c.len_utf8();
            }
        }
        self.cut(&normalised[piece_start..], each);
    }

    /// Greedy longest-match-first cut of one word.
    fn cut(&self, word: &str, each: &mut impl FnMut(u32)) {
        if word.is_empty() {
            return;
        }
        if word.chars().count() > MAX_WORD_CHARS {
            self.unknown.into_iter().for_each(&mut *each);
            return;
        }
        let mut pieces = Vec::new();
        let mut start = 0;
        while start < word.len() {
            let table = if start == 0 { &self.starts } else { &self.continuations };
            let rest = &word[start..];
            let found = rest
                .char_indices()
                .map(|(at, c)| at + c.len_utf8())
                .rev()
                .find_map(|end| table.get(&rest[..end]).map(|id| (end, *id)));
            match found {
                Some((end, id)) => {
                    pieces.push(id);
                    start += end;
                }
                None => {
                    self.unknown.into_iter().for_each(&mut *each);
                    return;
                }
            }
        }
        pieces.into_iter().for_each(each);
    }
}

fn is_control(c: char) -> bool {
    if matches!(c, '\t' | '\n' | '\r') {
        return false;
    }
    matches!(
        get_general_category(c),
        GeneralCategory::Control | GeneralCategory::Format | GeneralCategory::PrivateUse | GeneralCategory::Unassigned
    )
}

/// BERT's punctuation: every ASCII non-alphanumeric printable character, and the Unicode
/// punctuation categories.
fn is_punctuation(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_punctuation();
    }
    matches!(
        get_general_category(c),
        GeneralCategory::ConnectorPunctuation
            | GeneralCategory::DashPunctuation
            | GeneralCategory::OpenPunctuation
            | GeneralCategory::ClosePunctuation
            | GeneralCategory::InitialPunctuation
            | GeneralCategory::FinalPunctuation
            | GeneralCategory::OtherPunctuation
    )
}

/// The CJK ideograph blocks that BERT tokenizes one character at a time.
fn is_cjk(c: char) -> bool {
    matches!(u32::from(c),
        0x4E00..=0x9FFF | 0x3400..=0x4DBF | 0x20000..=0x2A6DF | 0x2A700..=0x2B73F
        | 0x2B740..=0x2B81F | 0x2B820..=0x2CEAF | 0xF900..=0xFAFF | 0x2F800..=0x2FA1F)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(tokenizer: &WordPiece, text: &str) -> Vec<u32> {
        let mut out = Vec::new();
        tokenizer.for_each_id(text, |id| out.push(id));
        out
    }

    const VOCAB: &[&str] = &["[PAD]", "[UNK]", "un", "##aff", "##able", "the", ",", "cafe", "!", "读", "a", "##b"];

    #[test]
    fn cuts_words_into_the_longest_pieces() {
        let tokenizer = WordPiece::new(VOCAB, true);
        assert_eq!(ids(&tokenizer, "unaffable"), [2, 3, 4]);
        assert_eq!(ids(&tokenizer, "The  UNAFFABLE,"), [5, 2, 3, 4, 6]);
        assert_eq!(ids(&tokenizer, "unaffablex"), [1], "an uncuttable word is one unknown token");
        assert_eq!(ids(&tokenizer, "Café!"), [7, 8], "accents stripped, punctuation split");
        assert_eq!(ids(&tokenizer, "a读ab"), [10, 9, 10, 11], "ideographs stand alone");
        assert_eq!(ids(&tokenizer, "\u{0}\u{200b}  "), Vec::<u32>::new());
    }

    #[test]
    fn long_words_are_unknown() {
        let tokenizer = WordPiece::new(VOCAB, true);
        let long = "a".repeat(MAX_WORD_CHARS + 1);
        assert_eq!(ids(&tokenizer, &long), [1]);
    }
}
