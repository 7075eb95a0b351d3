//! Multi-part requests: "find the paper, summarise it, then save the summary to a file".
//!
//! One ranking of the whole request favours tools that match its longest or rarest part;
//! every part needs its own tool in the top results. The request is cut into parts at
//! sentence ends (`.`, `!`, `?` or `;` before a space), at commas, and at the words that
//! chain steps (`then`, `and`, `also`, `after that`, `afterwards`, `finally`, `next`, `plus`).
//! A part with fewer than two content words (`and then save it`) joins the part before it,
//! so a cut never leaves a fragment that names nothing. Each part is ranked on its own and
//! the rankings are merged (see `rank.rs`).

use crate::text::{self, is_request_word, is_stop_word};

/// The most parts a request is cut into; later parts stay joined to the last.
const MAX_PARTS: usize = 8;
/// The fewest content words a part needs to stand alone.
const MIN_CONTENT_WORDS: usize = 2;

/// Words that chain one step of a request to the next.
const CHAIN_WORDS: &[&str] = &["then", "and", "also", "afterwards", "finally", "next", "plus", "additionally"];
/// Two-word chains.
const CHAIN_PAIRS: &[(&str, &str)] = &[("after", "that"), ("as", "well"), ("once", "done")];

/// The parts of `query`, in order; one part (the whole query) when it does not divide.
pub(crate) fn parts(query: &str) -> Vec<String> {
    let mut pieces: Vec<Vec<&str>> = vec![Vec::new()];
    let tokens: Vec<&str> = query.split_whitespace().collect();
    let mut index = 0;
    while index < tokens.len() {
        let token = tokens[index];
        let bare = token.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase();
        let next = tokens.get(index + 1).map(|t| t.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase());
        if CHAIN_WORDS.contains(&bare.as_str()) {
            pieces.push(Vec::new());
            index += 1;
            continue;
        }
        if let Some(next) = &next
            && CHAIN_PAIRS.iter().any(|(a, b)| *a == bare && b == next)
        {
            pieces.push(Vec::new());
            index += 2;
            continue;
        }
        if let Some(last) = pieces.last_mut() {
            last.push(token);
        }
        if token.ends_with([',', '.', '!', '?', ';', ':']) {
            pieces.push(Vec::new());
        }
        index += 1;
    }
    let mut parts: Vec<String> = Vec::new();
    for piece in pieces.into_iter().filter(|p| !p.is_empty()) {
        let text = piece.join(" ");
        let joins = content_words(&text) < MIN_CONTENT_WORDS || parts.len() >= MAX_PARTS;
        match parts.last_mut() {
            Some(last) if joins => {
                last.push(' ');
                last.push_str(&text);
            }
            _ => parts.push(text),
        }
    }
    // A first part too small to stand alone joins the one after it.
    if parts.len() >= 2 && content_words(&parts[0]) < MIN_CONTENT_WORDS {
        let first = parts.remove(0);
        parts[0] = format!("{first} {}", parts[0]);
    }
    if parts.is_empty() { vec![query.to_owned()] } else { parts }
}

fn content_words(text: &str) -> usize {
    text::words(text).iter().filter(|w| !is_stop_word(w) && !is_request_word(w)).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_of_a_request_become_parts() {
        assert_eq!(
            parts("Find the paper on static embeddings, summarise its findings, then save the summary to a file."),
            ["Find the paper on static embeddings,", "summarise its findings,", "save the summary to a file."]
        );
        assert_eq!(
            parts("Check the weather in Rome and book a table for two. After that email Bob the details"),
            ["Check the weather in Rome", "book a table for two.", "email Bob the details"]
        );
    }

    #[test]
    fn fragments_join_their_neighbours() {
        assert_eq!(parts("salt and pepper grinder prices"), ["salt pepper grinder prices"]);
        assert_eq!(parts("weather forecast"), ["weather forecast"]);
        assert_eq!(parts("and then"), ["and then"]);
        assert_eq!(parts("   "), ["   "]);
    }
}
