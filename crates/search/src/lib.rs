//! Tool search: the pure index and ranking behind deferred tool loading.
//!
//! An agent connected to hundreds of tools sees only a few of them plus a search tool; this
//! crate answers that search. [`SearchIndex::build`] indexes a list of [`ToolDoc`]s (name,
//! description, parameter names and parameter descriptions) once per tool-list change, and
//! [`SearchIndex::search`] ranks them for a query in one of two [`Mode`]s.
//!
//! # BM25 ranking
//! Each tool is a document with four fields, tokenized alike: text splits at anything that
//! is not a letter or digit and at camelCase boundaries, is lowercased and reduced by the
//! Snowball English stemmer; English stop words are dropped. Names get extra terms: each
//! prefix of their parts (`github_create_issue` also indexes `github_create` and the whole
//! name, so a namespace prefix such as `github` reaches every `github_*` tool and a query
//! that spells a tool's name finds it first), joined adjacent camelCase parts (`GitHub` →
//! `github`), and the known words inside a lowercase run written without separators
//! (`weatherforecast` → `weather`, `forecast`, using the catalog's own descriptions as the
//! dictionary).
//!
//! Every word is indexed three ways: its stem, its exact form and its first five letters.
//! A query matches on all three with falling weights (stem 1, exact form 0.5, prefix 0.3), so
//! an exact match outranks a match of stems, and words the stemmer keeps apart (`rental`,
//! `renting`) still meet a little. In a query, English stop words are dropped (unless nothing
//! else is left) and conversational request words (`help`, `need`, `tell`) count half.
//!
//! Scoring is BM25F: a term's frequency in each field is normalised by the field's length
//! relative to its average, multiplied by the field's weight (name 2, description 1,
//! parameter names and parameter descriptions 0.5) and summed before one saturation
//! (`k1 = 1.2`) per term, times the term's inverse document frequency. These per-posting
//! frequencies are computed at build time, so a query costs a few hash lookups and a pass
//! over the matching postings.
//!
//! A request often asks for several things at once ("find the film, then book a table"),
//! and plain scoring fills the top with near-duplicates that all match one part of it. So
//! the top 30 are re-ranked greedily: each pick discounts the query terms it matched (by up
//! to 30 %, in proportion to how strongly it matched them) for the picks after it, and the
//! tools that serve the rest of the request move up. Ties break by catalog order, so results
//! are deterministic.
//!
//! # Vocabulary gaps
//! A request can share no word with the tool it needs ("Is it going to rain?" and a
//! weather tool). A query word the catalog never uses is therefore expanded into the
//! catalog's words closest to it by embedded word vectors (at most 3, cosine at least 0.5,
//! each weighted by half its cosine), which then score as ordinary query terms. Words the
//! catalog uses are matched as written and never expanded. The vectors are a fixed table of
//! 40,000 English words (see the `semantic` module), so the ranking stays deterministic and
//! needs nothing at run time.
//!
//! # Regex matching
//! A case-insensitive regular expression (at most [`MAX_REGEX_CHARS`] characters, with a
//! bounded compiled size) is tried on the same fields. A tool ranks by the best field it
//! matches in (name, then parameter name, then description, then parameter description),
//! then by catalog order.
//!
//! # Invariants
//! Nothing panics on any input; scores are finite and positive; results are distinct, at
//! most `limit`, best first; no match is an empty list, not an error.

mod baseline;
mod bm25;
mod catalog;
#[cfg(feature = "embeddings")]
mod cover;
#[cfg(feature = "embeddings")]
mod embed;
mod embedded;
mod names;
mod nibbles;
mod rank;
mod semantic;
mod split;
mod text;
#[cfg(feature = "embeddings")]
mod wordpiece;

use std::str::FromStr;

pub use baseline::PlainBm25;
pub use catalog::{CatalogError, ParamDoc, ToolDoc, parse_catalog};

#[doc(hidden)]
pub use bm25::Tuning;
pub use rank::{Evidence, Found};
#[doc(hidden)]
pub use rank::{Fusion, Merge, Ranking, ToolEvidence};

/// The most tools one index holds.
pub const MAX_TOOLS: usize = 10_000;
/// The longest regular expression accepted, in characters.
pub const MAX_REGEX_CHARS: usize = 200;
/// The longest BM25 query accepted, in characters.
pub const MAX_QUERY_CHARS: usize = 500;
/// How many results a search returns when the caller does not say.
pub const DEFAULT_LIMIT: usize = 5;

/// The compiled size a regular expression may reach, in bytes: generous for any pattern that
/// fits in [`MAX_REGEX_CHARS`] but for ones built to blow up (`(a{100}){100}`).
const REGEX_SIZE_LIMIT: usize = 1 << 20;

/// How a query is matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// Ranked keyword search (BM25F) over names, descriptions and parameters.
    #[default]
    Bm25,
    /// A case-insensitive regular expression over the same fields.
    Regex,
}

impl FromStr for Mode {
    type Err = String;

    fn from_str(text: &str) -> Result<Mode, String> {
        match text.trim().to_ascii_lowercase().as_str() {
            "bm25" => Ok(Mode::Bm25),
            "regex" => Ok(Mode::Regex),
            other => Err(format!("unknown search mode `{other}`; use `bm25` or `regex`")),
        }
    }
}

impl std::fmt::Display for Mode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Mode::Bm25 => "bm25",
            Mode::Regex => "regex",
        })
    }
}

/// One found tool.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hit {
    /// The tool's position in the list given to [`SearchIndex::build`].
    pub tool: usize,
    /// How well it matched: higher is better, always finite and positive. Comparable only
    /// within one search.
    pub score: f32,
}

/// A search that cannot run, or an index that cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    /// More tools than one index holds.
    #[error(
        "{count} tools are too many to search: the limit is {limit}; keep more tools always loaded or split them across gateways"
    )]
    TooManyTools {
        /// How many tools were given.
        count: usize,
        /// The limit, [`MAX_TOOLS`].
        limit: usize,
    },
    /// A keyword query over the length limit.
    #[error("the search query is {chars} characters long, over the limit of {limit}; use a few keywords instead")]
    QueryTooLong {
        /// The query's length in characters.
        chars: usize,
        /// The limit, [`MAX_QUERY_CHARS`].
        limit: usize,
    },
    /// A regular expression over the length limit.
    #[error("the regular expression is {chars} characters long, over the limit of {limit}; use a shorter pattern")]
    RegexTooLong {
        /// The pattern's length in characters.
        chars: usize,
        /// The limit, [`MAX_REGEX_CHARS`].
        limit: usize,
    },
    /// A regular expression that does not compile (or compiles too large).
    #[error("the regular expression is invalid: {message}")]
    InvalidRegex {
        /// Why, as the regex compiler says it.
        message: String,
    },
    /// A query with nothing in it.
    #[error("the search query is empty; give some words that describe the tool you need")]
    EmptyQuery,
}

/// An index over a list of tools, built once per tool-list change and searched many times.
/// Immutable after [`SearchIndex::build`], so it can be shared between threads.
#[derive(Debug)]
pub struct SearchIndex {
    tools: Vec<ToolDoc>,
    ranker: rank::Ranker,
}

impl SearchIndex {
    /// Index `tools`. Their order is kept: a [`Hit::tool`] is a position in this list.
    ///
    /// # Errors
    /// [`SearchError::TooManyTools`] for more than [`MAX_TOOLS`] tools.
    pub fn build(tools: Vec<ToolDoc>) -> Result<SearchIndex, SearchError> {
        SearchIndex::build_ranked(tools, Ranking::default())
    }

    /// [`SearchIndex::build`] with other ranking components and constants, for evaluation.
    ///
    /// # Errors
    /// As [`SearchIndex::build`].
    #[doc(hidden)]
    pub fn build_ranked(tools: Vec<ToolDoc>, ranking: Ranking) -> Result<SearchIndex, SearchError> {
        if tools.len() > MAX_TOOLS {
            return Err(SearchError::TooManyTools { count: tools.len(), limit: MAX_TOOLS });
        }
        let ranker = rank::Ranker::build(&tools, ranking);
        Ok(SearchIndex { tools, ranker })
    }

    /// The best `limit` tools for `query`, best first; an empty list when nothing matches.
    ///
    /// # Errors
    /// [`SearchError::EmptyQuery`] for a blank query; [`SearchError::QueryTooLong`] for a
    /// BM25 query over [`MAX_QUERY_CHARS`]; [`SearchError::RegexTooLong`] or
    /// [`SearchError::InvalidRegex`] for a pattern over [`MAX_REGEX_CHARS`] or one that does
    /// not compile.
    pub fn search(&self, mode: Mode, query: &str, limit: usize) -> Result<Vec<Hit>, SearchError> {
        self.search_with_query_limit(mode, query, limit, MAX_QUERY_CHARS)
    }

    /// [`SearchIndex::search`] with another limit on BM25 query length, for offline
    /// evaluation against real requests, which can be longer than a model's search query.
    /// Regular expressions keep their limit: it bounds compile time.
    ///
    /// # Errors
    /// As [`SearchIndex::search`], with `max_query_chars` in place of [`MAX_QUERY_CHARS`].
    pub fn search_with_query_limit(
        &self,
        mode: Mode,
        query: &str,
        limit: usize,
        max_query_chars: usize,
    ) -> Result<Vec<Hit>, SearchError> {
        if query.trim().is_empty() {
            return Err(SearchError::EmptyQuery);
        }
        match mode {
            Mode::Bm25 => {
                let chars = query.chars().count();
                if chars > max_query_chars {
                    return Err(SearchError::QueryTooLong { chars, limit: max_query_chars });
                }
                Ok(self.ranker.find(query, limit).hits)
            }
            Mode::Regex => self.search_regex(query, limit),
        }
    }

    /// A ranked search that also says how many tools matched and whether it declined: the
    /// answer behind a search envelope (`matched` against `hits.len()` shown).
    ///
    /// # Errors
    /// As [`SearchIndex::search_with_query_limit`] in [`Mode::Bm25`].
    pub fn find(&self, query: &str, limit: usize, max_query_chars: usize) -> Result<Found, SearchError> {
        if query.trim().is_empty() {
            return Err(SearchError::EmptyQuery);
        }
        let chars = query.chars().count();
        if chars > max_query_chars {
            return Err(SearchError::QueryTooLong { chars, limit: max_query_chars });
        }
        Ok(self.ranker.find(query, limit))
    }

    /// The tools [`SearchIndex::find`] counts in [`Found::matched`], in catalog order.
    ///
    /// # Errors
    /// As [`SearchIndex::find`].
    #[doc(hidden)]
    pub fn matching_tools(&self, query: &str, limit: usize, max_query_chars: usize) -> Result<Vec<usize>, SearchError> {
        self.find(query, limit, max_query_chars)?;
        let (_, flags) = self.ranker.find_matching(query, limit);
        Ok(flags.iter().enumerate().filter(|(_, m)| **m).map(|(t, _)| t).collect())
    }

    /// Per tool, in catalog order, the evidence that it matches `query`: for measuring
    /// which tools a search counts as matched against the tools a request needs.
    #[doc(hidden)]
    pub fn tool_evidence(&self, query: &str) -> Vec<ToolEvidence> {
        self.ranker.tool_evidence(query)
    }

    fn search_regex(&self, pattern: &str, limit: usize) -> Result<Vec<Hit>, SearchError> {
        let chars = pattern.chars().count();
        if chars > MAX_REGEX_CHARS {
            return Err(SearchError::RegexTooLong { chars, limit: MAX_REGEX_CHARS });
        }
        let regex = regex::RegexBuilder::new(pattern)
            .case_insensitive(true)
            .size_limit(REGEX_SIZE_LIMIT)
            .dfa_size_limit(REGEX_SIZE_LIMIT)
            .build()
            .map_err(|e| SearchError::InvalidRegex { message: regex_message(&e) })?;
        // Rank 0 is the best field; a tool's rank is the best field it matches in.
        let mut matched: Vec<(usize, usize)> = Vec::new();
        for (index, tool) in self.tools.iter().enumerate() {
            let rank = if regex.is_match(&tool.name) {
                Some(0)
            } else if tool.params.iter().any(|p| regex.is_match(&p.name)) {
                Some(1)
            } else if regex.is_match(&tool.description) {
                Some(2)
            } else if tool.params.iter().any(|p| regex.is_match(&p.description)) {
                Some(3)
            } else {
                None
            };
            if let Some(rank) = rank {
                matched.push((rank, index));
            }
        }
        matched.sort_unstable();
        Ok(matched.into_iter().take(limit).map(|(rank, tool)| Hit { tool, score: (4 - rank) as f32 }).collect())
    }

    /// The indexed tools, in the order given to [`SearchIndex::build`].
    pub fn tools(&self) -> &[ToolDoc] {
        &self.tools
    }

    /// How many tools are indexed.
    pub fn len(&self) -> usize {
        self.tools.len()
    }

    /// Whether no tool is indexed.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }
}

/// The regex compiler's message on one line: its multi-line form points at the pattern with
/// a caret, which reads badly inside a JSON error.
fn regex_message(error: &regex::Error) -> String {
    match error {
        regex::Error::CompiledTooBig(limit) => {
            format!("it compiles to more than {limit} bytes; use a simpler pattern (fewer repetitions or alternatives)")
        }
        other => {
            let text = other.to_string();
            let last = text.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("syntax error").trim().to_owned();
            last.strip_prefix("error: ").map(str::to_owned).unwrap_or(last)
        }
    }
}
