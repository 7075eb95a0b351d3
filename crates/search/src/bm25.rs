//! The BM25F inverted index: field-weighted term frequencies, precomputed per posting.
//!
//! Each tool is one document with four fields. A term's frequency in each field is
//! normalised by that field's length against the field's average length (BM25F), weighted
//! by the field's weight and summed into one pseudo frequency, stored in the posting. A
//! query then only sums `idf × saturate(frequency)` over its terms' postings, so a query is
//! a few hash lookups and a pass over short posting lists.

use std::collections::{HashMap, HashSet};

use crate::catalog::ToolDoc;
use crate::semantic::{CatalogWords, WordVectors};
use crate::text::{self, Analyzer, MAX_WORD_CHARS, is_request_word, is_stop_word};

/// The four searchable fields of a tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Field {
    Name = 0,
    ParamName = 1,
    Description = 2,
    ParamDescription = 3,
}

const FIELD_COUNT: usize = 4;

/// The ranking's constants. The defaults were chosen on a development set; they are not
/// specific to any catalog.
#[derive(Debug, Clone, PartialEq)]
#[doc(hidden)]
pub struct Tuning {
    /// Field weights, in [`Field`] order.
    pub weights: [f32; FIELD_COUNT],
    /// Length normalisation per field, in [`Field`] order.
    pub b: [f32; FIELD_COUNT],
    /// Term-frequency saturation.
    pub k1: f32,
    /// How much a query term counts again once a higher result matched it (1 turns
    /// diversification off).
    pub diversity: f32,
    /// How many top results diversification re-ranks.
    pub diverse_pool: usize,
    /// Weight of conversational request words (`help`, `need`) in a query.
    pub request_word_weight: f32,
    /// Whether words are stemmed.
    pub stem: bool,
    /// Whether names get joined-pair, prefix and dictionary-split terms.
    pub name_extras: bool,
    /// Weight of a word's exact (unstemmed) form in a query; 0 does not index exact forms.
    pub exact_weight: f32,
    /// Weight of a word's first [`PREFIX_CHARS`] letters in a query, a looser match than the
    /// stem (`rental` and `renting`); 0 does not index prefixes.
    pub prefix_weight: f32,
    /// Weight of a catalog word found by word vectors for a query word the catalog never
    /// uses, times the two words' cosine; 0 turns the expansion off.
    pub semantic_weight: f32,
    /// The least cosine at which a catalog word expands a query word.
    pub semantic_threshold: f32,
    /// How many catalog words one query word expands into, at most.
    pub semantic_neighbours: usize,
}

impl Default for Tuning {
    fn default() -> Tuning {
        Tuning {
            weights: [2.0, 0.5, 1.0, 0.5],
            b: [0.5, 0.75, 0.5, 0.75],
            k1: 1.2,
            diversity: 0.7,
            diverse_pool: 30,
            request_word_weight: 0.5,
            stem: true,
            name_extras: true,
            exact_weight: 0.5,
            prefix_weight: 0.3,
            semantic_weight: 0.5,
            semantic_threshold: 0.5,
            semantic_neighbours: 3,
        }
    }
}

/// One document in a term's posting list.
#[derive(Debug, Clone, Copy)]
struct Posting {
    doc: u32,
    /// The field-weighted, length-normalised term frequency.
    frequency: f32,
}

/// The index over a list of tools.
#[derive(Debug)]
pub(crate) struct Bm25Index {
    analyzer: Analyzer,
    tuning: Tuning,
    terms: HashMap<String, u32>,
    postings: Vec<Vec<Posting>>,
    idf: Vec<f32>,
    doc_count: usize,
    /// The catalog's words with word vectors, for expanding query words it never uses.
    catalog_words: CatalogWords,
}

/// Turns text into term ids while the index is built. Words and names repeat a lot across
/// a catalog (`query`, `limit`, `the user`), so each distinct one is analysed once.
struct Interner<'a> {
    analyzer: &'a Analyzer,
    vocabulary: &'a HashSet<String>,
    /// (name extras, (exact forms, prefixes)).
    options: (bool, (bool, bool)),
    terms: HashMap<String, u32>,
    segments: HashMap<String, Vec<u32>>,
    names: HashMap<String, Vec<u32>>,
}

impl Interner<'_> {
    fn intern(&mut self, term: &str) -> u32 {
        if let Some(id) = self.terms.get(term) {
            return *id;
        }
        let id = u32::try_from(self.terms.len()).unwrap_or(u32::MAX);
        self.terms.insert(term.to_owned(), id);
        id
    }

    /// The terms of natural-language text: each segment (as written, before lowercasing) is
    /// analysed once per build.
    fn prose(&mut self, text: &str, out: &mut Vec<u32>) {
        let mut strings = Vec::new();
        let mut words = Vec::new();
        text::for_each_segment(text, |segment| {
            if let Some(ids) = self.segments.get(segment) {
                out.extend_from_slice(ids);
                return;
            }
            words.clear();
            text::split_camel(segment, &mut words);
            strings.clear();
            for word in words.iter().filter(|w| !is_stop_word(w)) {
                push_word(self.analyzer, word, self.options.1, &mut strings);
            }
            let ids: Vec<u32> = strings.iter().map(|t| self.intern(t)).collect();
            out.extend_from_slice(&ids);
            self.segments.insert(segment.to_owned(), ids);
        });
    }

    fn name(&mut self, name: &str, out: &mut Vec<u32>) {
        if let Some(ids) = self.names.get(name) {
            out.extend_from_slice(ids);
            return;
        }
        let mut strings = Vec::new();
        name_terms(self.analyzer, self.vocabulary, name, self.options, &mut strings);
        let ids: Vec<u32> = strings.iter().map(|t| self.intern(t)).collect();
        out.extend_from_slice(&ids);
        self.names.insert(name.to_owned(), ids);
    }
}

/// A query's terms: term id and weight.
pub(crate) type WeightedTerms = Vec<(u32, f32)>;

impl Bm25Index {
    pub(crate) fn build(tools: &[ToolDoc], tuning: Tuning) -> Bm25Index {
        let analyzer = if tuning.stem { Analyzer::english() } else { Analyzer::identity() };
        let vocabulary = natural_vocabulary(tools);
        let mut interner = Interner {
            analyzer: &analyzer,
            vocabulary: &vocabulary,
            options: (tuning.name_extras, (tuning.exact_weight > 0.0, tuning.prefix_weight > 0.0)),
            terms: HashMap::new(),
            segments: HashMap::new(),
            names: HashMap::new(),
        };
        // Per document, per field: term ids, with repeats.
        let mut fields: Vec<[Vec<u32>; FIELD_COUNT]> = Vec::with_capacity(tools.len());
        for tool in tools {
            let mut doc: [Vec<u32>; FIELD_COUNT] = Default::default();
            interner.name(&tool.name, &mut doc[Field::Name as usize]);
            interner.prose(&tool.description, &mut doc[Field::Description as usize]);
            for param in &tool.params {
                interner.name(&param.name, &mut doc[Field::ParamName as usize]);
                interner.prose(&param.description, &mut doc[Field::ParamDescription as usize]);
            }
            fields.push(doc);
        }
        let terms = interner.terms;

        let doc_count = tools.len();
        let mut average = [0f32; FIELD_COUNT];
        for doc in &fields {
            for (sum, field) in average.iter_mut().zip(doc) {
                *sum += field.len() as f32;
            }
        }
        for sum in &mut average {
            *sum /= doc_count.max(1) as f32;
        }

        let mut postings: Vec<Vec<Posting>> = vec![Vec::new(); terms.len()];
        let mut frequencies: HashMap<u32, f32> = HashMap::new();
        for (doc_index, doc) in fields.iter().enumerate() {
            frequencies.clear();
            for (field, ids) in doc.iter().enumerate() {
                let length_ratio = if average[field] > 0.0 { ids.len() as f32 / average[field] } else { 1.0 };
                let norm = 1.0 - tuning.b[field] + tuning.b[field] * length_ratio;
                let contribution = tuning.weights[field] / norm.max(f32::EPSILON);
                for id in ids {
                    *frequencies.entry(*id).or_insert(0.0) += contribution;
                }
            }
            let doc_id = u32::try_from(doc_index).unwrap_or(u32::MAX);
            let mut own: Vec<(u32, f32)> = frequencies.iter().map(|(id, f)| (*id, *f)).collect();
            own.sort_unstable_by_key(|(id, _)| *id);
            for (id, frequency) in &own {
                if let Some(list) = postings.get_mut(*id as usize) {
                    list.push(Posting { doc: doc_id, frequency: *frequency });
                }
            }
        }
        let n = doc_count as f32;
        let idf = postings
            .iter()
            .map(|list| {
                let df = list.len() as f32;
                (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
            })
            .collect();
        let catalog_words = catalog_words(tools, &analyzer, &terms, &tuning);
        Bm25Index { analyzer, tuning, terms, postings, idf, doc_count, catalog_words }
    }

    /// Every tool's score for `query` (0 for a tool that matches no term), and the query's
    /// weighted terms.
    pub(crate) fn scores(&self, query: &str) -> (Vec<f32>, WeightedTerms) {
        let mut scores = vec![0f32; self.doc_count];
        let weighted = self.query_terms(query);
        self.accumulate(&weighted, &mut scores);
        (scores, weighted)
    }

    /// The best `limit` documents by `scores`, the top re-ranked to cover more of the query.
    pub(crate) fn top(&self, scores: &[f32], weighted: &[(u32, f32)], limit: usize) -> Vec<(usize, f32)> {
        let pool = limit.min(self.tuning.diverse_pool.max(1));
        if self.tuning.diversity >= 1.0 || pool < 2 {
            return top_documents(scores, limit);
        }
        let candidates = top_documents(scores, self.tuning.diverse_pool.max(limit));
        self.diversify(candidates, weighted, limit)
    }

    /// Re-rank `candidates` (best first) so that the top covers more of the query: a request
    /// often asks for several things at once, and plain scoring fills the top with tools that
    /// all match the same part of it. Each pick discounts the query terms it matched for the
    /// picks after it: by the factor `diversity` where it matched a term as strongly as any
    /// candidate does, proportionally less where it matched it weakly. Past the first
    /// `diverse_pool` picks the order stays as scored. Scores stay non-increasing.
    fn diversify(&self, candidates: Vec<(usize, f32)>, weighted: &[(u32, f32)], limit: usize) -> Vec<(usize, f32)> {
        let k1 = self.tuning.k1;
        // contributions[candidate][term] = that term's part of the candidate's score. A
        // posting list is sorted by document and holds each once: a binary search per
        // candidate and term, not a pass over lists that can hold most of the catalog.
        let mut contributions = vec![vec![0f32; weighted.len()]; candidates.len()];
        for (term_index, (id, weight)) in weighted.iter().enumerate() {
            let (Some(list), Some(idf)) = (self.postings.get(*id as usize), self.idf.get(*id as usize)) else {
                continue;
            };
            for (candidate, (doc, _)) in candidates.iter().enumerate() {
                let doc = u32::try_from(*doc).unwrap_or(u32::MAX);
                if let Ok(found) = list.binary_search_by_key(&doc, |p| p.doc)
                    && let Some(posting) = list.get(found)
                {
                    let saturated = posting.frequency * (k1 + 1.0) / (k1 + posting.frequency);
                    contributions[candidate][term_index] += weight * idf * saturated;
                }
            }
        }
        let mut strongest = vec![0f32; weighted.len()];
        for terms in &contributions {
            for (s, c) in strongest.iter_mut().zip(terms) {
                *s = s.max(*c);
            }
        }
        let mut discount = vec![1f32; weighted.len()];
        let mut taken = vec![false; candidates.len()];
        let mut ranked = Vec::with_capacity(limit.min(candidates.len()));
        let rounds = limit.min(candidates.len()).min(self.tuning.diverse_pool);
        let mut last = f32::INFINITY;
        for _ in 0..rounds {
            let mut best: Option<(usize, f32)> = None;
            for (candidate, terms) in contributions.iter().enumerate() {
                if taken[candidate] {
                    continue;
                }
                let score: f32 = terms.iter().zip(&discount).map(|(c, d)| c * d).sum();
                if best.is_none_or(|(_, s)| score > s) {
                    best = Some((candidate, score));
                }
            }
            let Some((candidate, score)) = best else { break };
            taken[candidate] = true;
            for ((d, c), strongest) in discount.iter_mut().zip(&contributions[candidate]).zip(&strongest) {
                if *c > 0.0 {
                    // A term matched weakly is only partly covered.
                    *d *= 1.0 - (1.0 - self.tuning.diversity) * (c / strongest.max(f32::MIN_POSITIVE)).min(1.0);
                }
            }
            last = last.min(score).max(f32::MIN_POSITIVE);
            ranked.push((candidates[candidate].0, last));
        }
        for (candidate, (doc, score)) in candidates.iter().enumerate() {
            if ranked.len() >= limit {
                break;
            }
            if !taken[candidate] {
                last = last.min(*score).max(f32::MIN_POSITIVE);
                ranked.push((*doc, last));
            }
        }
        ranked
    }

    fn accumulate(&self, weighted: &[(u32, f32)], scores: &mut [f32]) {
        let k1 = self.tuning.k1;
        for (id, weight) in weighted {
            let (Some(list), Some(idf)) = (self.postings.get(*id as usize), self.idf.get(*id as usize)) else {
                continue;
            };
            for posting in list {
                let saturated = posting.frequency * (k1 + 1.0) / (k1 + posting.frequency);
                if let Some(score) = scores.get_mut(posting.doc as usize) {
                    *score += weight * idf * saturated;
                }
            }
        }
    }

    /// The query's known terms, each weighted by how often it occurs in the query.
    fn query_terms(&self, query: &str) -> WeightedTerms {
        let mut counts: HashMap<u32, f32> = HashMap::new();
        let exact = (self.tuning.exact_weight > 0.0, self.tuning.prefix_weight > 0.0);
        for (term, request_word) in query_terms(&self.analyzer, query, exact) {
            if let Some(id) = self.terms.get(&term) {
                let weight = match term.as_bytes().first() {
                    Some(b'=') => self.tuning.exact_weight,
                    Some(b'^') => self.tuning.prefix_weight,
                    _ => 1.0,
                };
                let weight = if request_word { weight * self.tuning.request_word_weight } else { weight };
                *counts.entry(*id).or_insert(0.0) += weight;
            }
        }
        self.expand_unknown_words(query, &mut counts);
        let mut weighted: WeightedTerms = counts.into_iter().collect();
        weighted.sort_unstable_by_key(|(id, _)| *id);
        weighted
    }

    /// The query's content words as the catalog knows them: each known word's term and
    /// inverse document frequency, and the total information of all of them. A word no tool
    /// uses counts in the total with the highest inverse document frequency, so a query about
    /// things the catalog never mentions is covered little by every tool.
    fn content_terms(&self, query: &str) -> (Vec<(u32, f32)>, f32) {
        let n = self.doc_count as f32;
        let rarest = (1.0 + (n + 0.5) / 0.5).ln();
        let mut terms = Vec::new();
        let mut total = 0f32;
        let mut seen = HashSet::new();
        for word in text::words(query) {
            if is_stop_word(&word) || is_request_word(&word) || !seen.insert(word.clone()) {
                continue;
            }
            let Some(id) = self.terms.get(&self.analyzer.stem(&word)) else {
                total += rarest;
                continue;
            };
            let idf = self.idf.get(*id as usize).copied().unwrap_or(rarest);
            total += idf;
            terms.push((*id, idf));
        }
        (terms, total)
    }

    /// The share of the query's word information (inverse document frequency) that tool
    /// `doc` contains: 1 when it has every content word of the query, 0 when it has none.
    pub(crate) fn coverage(&self, query: &str, doc: usize) -> f32 {
        let (terms, total) = self.content_terms(query);
        let doc = u32::try_from(doc).unwrap_or(u32::MAX);
        let covered: f32 = terms
            .iter()
            .filter(|(id, _)| {
                self.postings.get(*id as usize).is_some_and(|list| list.binary_search_by_key(&doc, |p| p.doc).is_ok())
            })
            .map(|(_, idf)| idf)
            .sum();
        if total > 0.0 { covered / total } else { 0.0 }
    }

    /// [`Bm25Index::coverage`] of every tool at once: one pass over the postings of the
    /// query's content words instead of a lookup per word and tool.
    pub(crate) fn coverages(&self, query: &str) -> Vec<f32> {
        let (terms, total) = self.content_terms(query);
        let mut covered = vec![0f32; self.doc_count];
        for (id, idf) in terms {
            for posting in self.postings.get(id as usize).map_or(&[][..], Vec::as_slice) {
                if let Some(share) = covered.get_mut(posting.doc as usize) {
                    *share += idf;
                }
            }
        }
        for share in &mut covered {
            *share = if total > 0.0 { *share / total } else { 0.0 };
        }
        covered
    }

    /// Add, for each content word of the query that the catalog never uses, the catalog
    /// words closest to it by word vectors, weighted by their cosine.
    fn expand_unknown_words(&self, query: &str, counts: &mut HashMap<u32, f32>) {
        let weight = self.tuning.semantic_weight;
        let Some(vectors) = WordVectors::embedded().filter(|_| weight > 0.0) else {
            return;
        };
        let mut expansions: HashMap<u32, f32> = HashMap::new();
        let mut seen = HashSet::new();
        for word in text::words(query) {
            if is_stop_word(&word) || is_request_word(&word) || !seen.insert(word.clone()) {
                continue;
            }
            if self.terms.contains_key(&self.analyzer.stem(&word)) {
                continue;
            }
            let Some(vector) = vectors.unit_vector(&word) else { continue };
            let found =
                self.catalog_words.nearest(&vector, self.tuning.semantic_neighbours, self.tuning.semantic_threshold);
            for (term, cosine) in found {
                if !counts.contains_key(&term) {
                    let entry = expansions.entry(term).or_insert(0.0);
                    *entry = entry.max(weight * cosine);
                }
            }
        }
        counts.extend(expansions);
    }
}

/// The `count` highest-scoring documents with a positive score, best first.
pub(crate) fn top_documents(scores: &[f32], count: usize) -> Vec<(usize, f32)> {
    let mut hits: Vec<(usize, f32)> =
        scores.iter().copied().enumerate().filter(|(_, s)| *s > 0.0 && s.is_finite()).collect();
    let order = |a: &(usize, f32), b: &(usize, f32)| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0));
    if count == 0 {
        return Vec::new();
    }
    if hits.len() > count {
        hits.select_nth_unstable_by(count - 1, order);
        hits.truncate(count);
    }
    hits.sort_unstable_by(order);
    hits
}

/// Push a word's stem and, when `exact`, its exact form (marked with `=`, so it never meets
/// a stem): an exact match then counts more than a match of stems alone.
fn push_word(analyzer: &Analyzer, word: &str, (exact, prefix): (bool, bool), out: &mut Vec<String>) {
    out.push(analyzer.stem(word));
    if exact {
        out.push(format!("={word}"));
    }
    if prefix && word.chars().count() > PREFIX_CHARS {
        out.push(format!("^{}", word.chars().take(PREFIX_CHARS).collect::<String>()));
    }
}

/// Letters kept by prefix matching.
pub(crate) const PREFIX_CHARS: usize = 5;

/// The terms of a query: stemmed words without stop words (all words when the query is
/// nothing but stop words), plus, for each chunk written as an identifier
/// (`github_create_issue`, `addSongToPlaylist`), the identifier's compound key so that a
/// query naming a tool finds exactly that tool.
pub(crate) fn query_terms(analyzer: &Analyzer, query: &str, exact: (bool, bool)) -> Vec<(String, bool)> {
    let words = text::words(query);
    let content: Vec<&String> = words.iter().filter(|w| !is_stop_word(w)).collect();
    let chosen: Vec<&String> = if content.is_empty() { words.iter().collect() } else { content };
    let mut terms = Vec::new();
    let mut word_terms = Vec::new();
    for word in chosen {
        push_word(analyzer, word, exact, &mut word_terms);
        let request_word = is_request_word(word);
        terms.extend(word_terms.drain(..).map(|term| (term, request_word)));
    }
    for chunk in query.split_whitespace() {
        let parts = text::words(chunk);
        if parts.len() >= 2 {
            terms.push((parts.join("_"), false));
        }
    }
    terms
}

/// The terms of a tool or parameter name: each part stemmed; each pair of adjacent
/// camelCase parts joined (`GitHub` → `git`, `hub`, `github`); each prefix of two or more
/// parts as a compound key (`github_create_issue` → `github_create`, `github_create_issue`),
/// so a namespace prefix or the whole name matches; and the known words inside a run of
/// lowercase letters written without separators (`airqualityforecast` → `air`, `quality`,
/// `forecast`).
fn name_terms(
    analyzer: &Analyzer,
    vocabulary: &HashSet<String>,
    name: &str,
    (extras, extras_exact): (bool, (bool, bool)),
    out: &mut Vec<String>,
) {
    let mut all_parts: Vec<String> = Vec::new();
    text::for_each_segment(name, |segment| {
        let mut parts = Vec::new();
        text::split_camel(segment, &mut parts);
        for pair in parts.windows(if extras { 2 } else { usize::MAX }) {
            out.push(analyzer.stem(&format!("{}{}", pair[0], pair[1])));
        }
        if let [single] = parts.as_slice()
            && extras
            && !vocabulary.contains(single)
        {
            for piece in segment_known_words(single, vocabulary) {
                out.push(analyzer.stem(piece));
            }
        }
        all_parts.extend(parts);
    });
    // Stop words stay: a name is short and deliberate, and a tool named `undo` or `all`
    // must be findable by its name.
    for part in &all_parts {
        push_word(analyzer, part, extras_exact, out);
    }
    if extras {
        for end in 2..=all_parts.len() {
            out.push(all_parts[..end].join("_"));
        }
    }
}

/// The words of the tools' names and descriptions that have word vectors, each with the
/// term of its stem: what a query word the catalog never uses can expand into.
fn catalog_words(
    tools: &[ToolDoc],
    analyzer: &Analyzer,
    terms: &HashMap<String, u32>,
    tuning: &Tuning,
) -> CatalogWords {
    let Some(vectors) = WordVectors::embedded().filter(|_| tuning.semantic_weight > 0.0) else {
        return CatalogWords::default();
    };
    let mut words = CatalogWords::new(vectors.dimensions());
    let mut seen = HashSet::new();
    for tool in tools {
        for word in text::words(&tool.name).into_iter().chain(text::words(&tool.description)) {
            if is_stop_word(&word) || !seen.insert(word.clone()) {
                continue;
            }
            let (Some(term), Some(vector)) = (terms.get(&analyzer.stem(&word)), vectors.unit_vector(&word)) else {
                continue;
            };
            words.push(*term, &vector);
        }
    }
    words
}

/// Words of the catalog's prose (descriptions), lowercased and unstemmed: the dictionary
/// for splitting names written without separators.
fn natural_vocabulary(tools: &[ToolDoc]) -> HashSet<String> {
    let mut vocabulary = HashSet::new();
    let mut add = |text: &str| {
        for word in text::words(text) {
            if word.chars().count() >= 3 && word.chars().all(|c| c.is_ascii_lowercase()) && !is_stop_word(&word) {
                vocabulary.insert(word);
            }
        }
    };
    for tool in tools {
        add(&tool.description);
        for param in &tool.params {
            add(&param.description);
        }
    }
    vocabulary
}

/// The known words inside `word` (ASCII lowercase letters), chosen to cover the most letters
/// with the fewest words. Empty when under half the word is covered.
fn segment_known_words<'a>(word: &'a str, vocabulary: &HashSet<String>) -> Vec<&'a str> {
    const MIN_PIECE: usize = 3;
    let n = word.len();
    if !(2 * MIN_PIECE..=MAX_WORD_CHARS).contains(&n) || !word.bytes().all(|b| b.is_ascii_lowercase()) {
        return Vec::new();
    }
    // best[i]: (letters covered, -words used, where the last word started or usize::MAX for a skip)
    let mut best: Vec<(usize, isize, usize)> = vec![(0, 0, usize::MAX); n + 1];
    for end in 1..=n {
        let skip = (best[end - 1].0, best[end - 1].1, usize::MAX);
        let mut choice = skip;
        for start in 0..=end.saturating_sub(MIN_PIECE) {
            if vocabulary.contains(&word[start..end]) {
                let candidate = (best[start].0 + end - start, best[start].1 - 1, start);
                if (candidate.0, candidate.1) > (choice.0, choice.1) {
                    choice = candidate;
                }
            }
        }
        best[end] = choice;
    }
    if best[n].0 * 2 < n {
        return Vec::new();
    }
    let mut pieces = Vec::new();
    let mut end = n;
    while end > 0 {
        match best[end].2 {
            usize::MAX => end -= 1,
            start => {
                pieces.push(&word[start..end]);
                end = start;
            }
        }
    }
    pieces.reverse();
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vocabulary(words: &[&str]) -> HashSet<String> {
        words.iter().map(|w| (*w).to_owned()).collect()
    }

    #[test]
    fn segments_concatenated_words() {
        let known = vocabulary(&["air", "quality", "forecast", "dice"]);
        assert_eq!(segment_known_words("airqualityforecast", &known), ["air", "quality", "forecast"]);
        assert_eq!(segment_known_words("airqualityforeast", &known), ["air", "quality"]);
        assert!(segment_known_words("diceroller", &known).is_empty(), "under half covered");
    }

    #[test]
    fn name_terms_have_parts_pairs_and_prefixes() {
        let analyzer = Analyzer::english();
        let mut out = Vec::new();
        name_terms(&analyzer, &HashSet::new(), "github_createIssue", (true, (false, false)), &mut out);
        for expected in ["github", "creat", "issu", "createissu", "github_create", "github_create_issue"] {
            assert!(out.iter().any(|t| t == expected), "{expected} missing from {out:?}");
        }
    }

    #[test]
    fn query_terms_drop_stop_words_unless_nothing_else_is_left() {
        let analyzer = Analyzer::english();
        let terms = |query: &str, options| -> Vec<String> {
            query_terms(&analyzer, query, options).into_iter().map(|(term, _)| term).collect()
        };
        assert_eq!(terms("Please find the papers", (false, false)), ["find", "paper"]);
        assert_eq!(terms("the", (false, false)), ["the"]);
        assert_eq!(
            terms("run github_create_issue", (false, false)),
            ["run", "github", "creat", "issu", "github_create_issue"]
        );
        assert_eq!(terms("rental papers", (true, true)), ["rental", "=rental", "^renta", "paper", "=papers", "^paper"]);
        let request: Vec<bool> =
            query_terms(&analyzer, "help with invoices", (false, false)).iter().map(|t| t.1).collect();
        assert_eq!(request, [true, false]);
    }

    #[test]
    fn top_documents_orders_by_score_then_index() {
        let top = top_documents(&[0.5, 2.0, 0.0, 2.0, 1.0], 3);
        assert_eq!(top, [(1, 2.0), (3, 2.0), (4, 1.0)]);
        assert!(top_documents(&[1.0], 0).is_empty());
    }
}
