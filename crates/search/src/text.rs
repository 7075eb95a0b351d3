//! Text analysis shared by the index and the queries: splitting, lowercasing, stemming and
//! stop words.
//!
//! Words are runs of letters and digits; inside a run, camelCase and acronym boundaries
//! split further (`getHTTPStatus` → `get`, `http`, `status`), while a letter followed by a
//! digit stays joined so that `ipv4` or `ec2` survive. Every word is lowercased and reduced
//! by the Snowball English stemmer, so `papers`, `paper` and `papering` meet.

use rust_stemmers::{Algorithm, Stemmer};

/// Words longer than this are identifiers, hashes or noise, not language: they are skipped
/// so that hostile text cannot make the vocabulary hold huge terms.
pub(crate) const MAX_WORD_CHARS: usize = 64;

/// Whether `word` (lowercase, unstemmed) is an English function word or request phrasing
/// that says nothing about which tool is wanted. A `match` compiles to a length switch and a
/// few comparisons, much faster than a search through a list.
pub(crate) fn is_stop_word(word: &str) -> bool {
    matches!(
        word,
        "a" | "about"
            | "above"
            | "after"
            | "again"
            | "all"
            | "also"
            | "am"
            | "an"
            | "and"
            | "any"
            | "are"
            | "as"
            | "at"
            | "be"
            | "because"
            | "been"
            | "before"
            | "being"
            | "below"
            | "between"
            | "both"
            | "but"
            | "by"
            | "can"
            | "could"
            | "did"
            | "do"
            | "does"
            | "doing"
            | "down"
            | "during"
            | "each"
            | "either"
            | "etc"
            | "few"
            | "for"
            | "from"
            | "further"
            | "had"
            | "has"
            | "have"
            | "having"
            | "he"
            | "hello"
            | "her"
            | "here"
            | "hers"
            | "herself"
            | "hi"
            | "him"
            | "himself"
            | "his"
            | "how"
            | "i"
            | "if"
            | "in"
            | "into"
            | "is"
            | "it"
            | "its"
            | "itself"
            | "just"
            | "kindly"
            | "let"
            | "may"
            | "me"
            | "might"
            | "mine"
            | "more"
            | "most"
            | "must"
            | "my"
            | "myself"
            | "no"
            | "nor"
            | "not"
            | "of"
            | "off"
            | "on"
            | "once"
            | "only"
            | "or"
            | "other"
            | "our"
            | "ours"
            | "ourselves"
            | "out"
            | "over"
            | "own"
            | "please"
            | "same"
            | "shall"
            | "she"
            | "should"
            | "so"
            | "some"
            | "such"
            | "than"
            | "thank"
            | "thanks"
            | "that"
            | "the"
            | "their"
            | "theirs"
            | "them"
            | "themselves"
            | "then"
            | "there"
            | "these"
            | "they"
            | "this"
            | "those"
            | "through"
            | "to"
            | "too"
            | "under"
            | "until"
            | "up"
            | "us"
            | "very"
            | "was"
            | "we"
            | "were"
            | "what"
            | "when"
            | "where"
            | "which"
            | "while"
            | "who"
            | "whom"
            | "why"
            | "will"
            | "with"
            | "would"
            | "you"
            | "your"
            | "yours"
            | "yourself"
            | "yourselves"
    )
}

/// Whether `word` (lowercase, unstemmed) is a word of conversational requests ("can you
/// help me", "I need", "tell me") that appears in requests for any tool: kept in a query,
/// but weighed less.
pub(crate) fn is_request_word(word: &str) -> bool {
    matches!(
        word,
        "assist"
            | "give"
            | "help"
            | "hey"
            | "know"
            | "looking"
            | "need"
            | "provide"
            | "tell"
            | "want"
            | "wish"
            | "wondering"
    )
}

/// Lowercasing, splitting and stemming, with the stemmer built once.
pub(crate) struct Analyzer {
    stemmer: Option<Stemmer>,
}

impl std::fmt::Debug for Analyzer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Analyzer(english)")
    }
}

impl Analyzer {
    /// An analyzer for English text.
    pub(crate) fn english() -> Analyzer {
        Analyzer { stemmer: Some(Stemmer::create(Algorithm::English)) }
    }

    /// An analyzer that keeps words as they are.
    pub(crate) fn identity() -> Analyzer {
        Analyzer { stemmer: None }
    }

    /// The stem of a lowercase word.
    pub(crate) fn stem(&self, word: &str) -> String {
        match &self.stemmer {
            Some(stemmer) => stemmer.stem(word).into_owned(),
            None => word.to_owned(),
        }
    }
}

/// Split `text` into runs of letters and digits (the segments between separators such as
/// spaces, `_`, `-`, `.`, `/`), calling `segment` with each run as written.
pub(crate) fn for_each_segment(text: &str, mut segment: impl FnMut(&str)) {
    text.split(|c: char| !c.is_alphanumeric()).filter(|s| !s.is_empty()).for_each(&mut segment);
}

/// Split one segment (letters and digits only) at camelCase and acronym boundaries and push
/// each part, lowercased, onto `out`. Parts longer than [`MAX_WORD_CHARS`] are dropped.
pub(crate) fn split_camel(segment: &str, out: &mut Vec<String>) {
    let chars: Vec<char> = segment.chars().collect();
    let mut start = 0;
    for i in 1..chars.len() {
        let (prev, cur) = (chars[i - 1], chars[i]);
        let next_is_lower = chars.get(i + 1).is_some_and(|c| c.is_lowercase());
        let boundary = (cur.is_uppercase() && (prev.is_lowercase() || prev.is_numeric()))
            // The last capital of an acronym starts the next word: `HTTPServer` → `HTTP`, `Server`.
            || (cur.is_uppercase() && prev.is_uppercase() && next_is_lower);
        if boundary {
            push_lower(&chars[start..i], out);
            start = i;
        }
    }
    push_lower(&chars[start..], out);
}

fn push_lower(chars: &[char], out: &mut Vec<String>) {
    if chars.is_empty() || chars.len() > MAX_WORD_CHARS {
        return;
    }
    out.push(chars.iter().flat_map(|c| c.to_lowercase()).collect());
}

/// All words of `text`, lowercased and split at separators and camelCase, unstemmed.
pub(crate) fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for_each_segment(text, |segment| split_camel(segment, &mut out));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_and_request_words_are_recognised() {
        assert!(is_stop_word("the") && is_stop_word("please") && !is_stop_word("weather"));
        assert!(is_request_word("help") && !is_request_word("weather"));
    }

    #[test]
    fn splits_separators_camel_case_and_acronyms() {
        assert_eq!(words("github_create-issue.v2/now"), ["github", "create", "issue", "v2", "now"]);
        assert_eq!(words("getHTTPStatus"), ["get", "http", "status"]);
        assert_eq!(words("addSongToPlaylist"), ["add", "song", "to", "playlist"]);
        assert_eq!(words("ipv4Lookup EC2"), ["ipv4", "lookup", "ec2"]);
        assert_eq!(words("  "), Vec::<String>::new());
    }

    #[test]
    fn stems_inflections_together() {
        let analyzer = Analyzer::english();
        assert_eq!(analyzer.stem("papers"), analyzer.stem("paper"));
        assert_eq!(analyzer.stem("running"), analyzer.stem("runs"));
    }
}
