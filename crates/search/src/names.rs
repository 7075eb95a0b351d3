//! Exact and near-exact tool names: a query that is, or contains, a tool's name finds that
//! tool first, whatever the separators and case.
//!
//! A name is reduced to its words (split at anything not a letter or digit and at camelCase
//! boundaries, lowercased): `github_createIssue`, `github-create-issue` and
//! `GitHub Create Issue` all become `github create issue`. Namespaced names also match
//! without their namespace (`filesystem__read_file` is found by `read_file`), since a model
//! often quotes the name a server gave, not the gateway's prefixed one. A query matches a
//! name when the whole query is the name, when a run of its words is a name of two or more
//! words, or when one of its chunks is a name written without separators
//! (`readmultiplefiles`). One-word names match only a whole query: the word `fetch` in a
//! sentence is a request, not a name.

use std::collections::HashMap;

use crate::catalog::ToolDoc;
use crate::text;

/// The longest name, in words, looked for inside a query.
const MAX_NAME_WORDS: usize = 12;
/// The fewest letters of a name written without separators inside a longer query.
const MIN_JOINED_CHARS: usize = 8;

/// The catalog's names, by their normalised word sequence.
#[derive(Debug, Default)]
pub(crate) struct NameIndex {
    /// Words joined by one space, to the tools with that name (or that name after the
    /// namespace).
    by_words: HashMap<String, Vec<(u32, bool)>>,
    /// Words joined without separators, for chunks written that way.
    by_joined: HashMap<String, Vec<(u32, bool)>>,
    /// The same, for names of two or more words only: what a run of query words joins to.
    /// camelCase hides some word boundaries (`getXV2` reads as `get`, `xv2`), so a request
    /// that spells `get x v2` finds it by the joined form.
    multi_joined: HashMap<String, Vec<(u32, bool)>>,
}

/// A tool a query names, and how specific the match is: how many words the matched name
/// has (more is more specific), and whether it was the whole name rather than the part after
/// a namespace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Named {
    pub(crate) tool: u32,
    pub(crate) words: usize,
    pub(crate) whole: bool,
}

impl NameIndex {
    pub(crate) fn build(tools: &[ToolDoc]) -> NameIndex {
        let mut index = NameIndex::default();
        for (position, tool) in tools.iter().enumerate() {
            let id = u32::try_from(position).unwrap_or(u32::MAX);
            for (form, words) in name_forms(&tool.name).into_iter().enumerate() {
                if words.is_empty() || words.len() > MAX_NAME_WORDS {
                    continue;
                }
                // The whole name (form 0) outranks a name found after a namespace.
                let entry = (id, form == 0);
                push_unique(index.by_words.entry(words.join(" ")).or_default(), entry);
                push_unique(index.by_joined.entry(words.concat()).or_default(), entry);
                if words.len() >= 2 {
                    push_unique(index.multi_joined.entry(words.concat()).or_default(), entry);
                }
            }
        }
        index
    }

    /// The tools `query` names, most specific (most words) first, then by catalog order.
    pub(crate) fn named(&self, query: &str) -> Vec<Named> {
        let mut found: Vec<Named> = Vec::new();
        let mut add = |tools: &[(u32, bool)], words: usize| {
            for (tool, whole) in tools {
                match found.iter_mut().find(|n| n.tool == *tool) {
                    Some(seen) => {
                        seen.words = seen.words.max(words);
                        seen.whole |= *whole;
                    }
                    None => found.push(Named { tool: *tool, words, whole: *whole }),
                }
            }
        };
        let words = text::words(query);
        if words.is_empty() {
            return Vec::new();
        }
        if let Some(tools) = self.by_words.get(&words.join(" ")) {
            add(tools, words.len().max(2));
        }
        if let Some(tools) = self.by_joined.get(&words.concat()) {
            add(tools, words.len().max(2));
        }
        for length in 2..=MAX_NAME_WORDS.min(words.len()) {
            for run in words.windows(length) {
                if let Some(tools) = self.by_words.get(&run.join(" ")) {
                    add(tools, length);
                } else if let Some(tools) = self.multi_joined.get(&run.concat()) {
                    add(tools, length);
                }
            }
        }
        for chunk in query.split_whitespace() {
            let joined: String = text::words(chunk).concat();
            if joined.chars().count() >= MIN_JOINED_CHARS
                && let Some(tools) = self.by_joined.get(&joined)
            {
                add(tools, 2);
            }
        }
        found.sort_by(|a, b| b.words.cmp(&a.words).then(b.whole.cmp(&a.whole)).then(a.tool.cmp(&b.tool)));
        found
    }
}

fn push_unique(list: &mut Vec<(u32, bool)>, entry: (u32, bool)) {
    match list.iter_mut().find(|(id, _)| *id == entry.0) {
        Some(seen) => seen.1 |= entry.1,
        None => list.push(entry),
    }
}

/// The word sequences a name is known by: the whole name, and the name after a namespace
/// separator (`__`, `.`, `/`, `:`) when it has one.
fn name_forms(name: &str) -> Vec<Vec<String>> {
    let mut forms = vec![text::words(name)];
    for separator in ["__", ".", "/", ":"] {
        if let Some((_, rest)) = name.split_once(separator) {
            let words = text::words(rest);
            if !words.is_empty() && !forms.contains(&words) {
                forms.push(words);
            }
        }
    }
    forms
}

#[cfg(test)]
mod tests {
    use super::*;

    fn catalog(names: &[&str]) -> NameIndex {
        NameIndex::build(
            &names.iter().map(|n| ToolDoc { name: (*n).to_owned(), ..ToolDoc::default() }).collect::<Vec<_>>(),
        )
    }

    fn first(index: &NameIndex, query: &str) -> Option<u32> {
        index.named(query).first().map(|n| n.tool)
    }

    #[test]
    fn any_separator_or_case_names_the_tool() {
        let index = catalog(&["github__create_issue", "filesystem__read_multiple_files", "fetch", "getWeather"]);
        assert_eq!(first(&index, "github_create_issue"), Some(0));
        assert_eq!(first(&index, "Create-Issue"), Some(0));
        assert_eq!(first(&index, "please call read_multiple_files on these"), Some(1));
        assert_eq!(first(&index, "readmultiplefiles"), Some(1));
        assert_eq!(first(&index, "fetch"), Some(2));
        assert_eq!(first(&index, "get weather in Paris"), Some(3));
    }

    #[test]
    fn a_camel_case_name_with_hidden_boundaries_is_found_by_its_words() {
        // `getXV2` splits as `get`, `xv2`: the words `get x v2` join to the same letters.
        let index = catalog(&["get", "getXV2"]);
        assert_eq!(first(&index, "please use get x v2 now"), Some(1));
        assert!(index.named("please get it now").is_empty(), "a one-word name stays a word");
    }

    #[test]
    fn a_one_word_name_inside_a_sentence_is_not_a_name() {
        let index = catalog(&["fetch", "query"]);
        assert!(index.named("fetch the page and query the database").is_empty());
    }

    #[test]
    fn a_whole_name_outranks_the_same_words_after_a_namespace() {
        let index = catalog(&["get.x", "x"]);
        assert_eq!(first(&index, "x"), Some(1));
    }

    #[test]
    fn the_longer_name_wins() {
        let index = catalog(&["git_diff", "git_diff_staged"]);
        assert_eq!(first(&index, "use git_diff_staged"), Some(1));
    }
}
