//! The ranked search: names first, keywords fused with meaning, requests cut into parts,
//! and a floor below which the search declines.
//!
//! For one query:
//! 1. Tools the query names (see `names.rs`) come first, most specific name first.
//! 2. The query is ranked by BM25F over the tools' words (whose greedy re-ranking already
//!    serves each part of a multi-part request, see `bm25.rs`), and by meaning: each tool's
//!    cosine with the query's embedding, or with the embedding of any part of a multi-part
//!    request (see `split.rs`, `embed.rs`), whichever is highest. A mean of token vectors
//!    over a long request blurs into noise; each part keeps its own meaning.
//! 3. The two are fused linearly: `0.3 × keyword score / best keyword score + 0.7 × cosine`.
//!    Measured on the tuning sets, this beat reciprocal rank fusion (`Σ 1 / (k + rank)`,
//!    k = 10 or 60) by .02 to .05 Recall@5, and ranking each part separately and
//!    interleaving the rankings (whole request's best, then each part's best, …) lost
//!    .02 to .05 against the best-part cosine; both remain selectable for measurement.
//! 4. For a multi-part request, the first ten places are then chosen in turn among the
//!    thirty best, so that a part nothing serves yet gets its tool before another part gets
//!    its second (see `cover.rs`).
//! 5. When no tool is named, the best cosine is under the meaning floor and the best
//!    keyword match covers less than the keyword floor of the query's word information,
//!    nothing fits: the search returns no tools rather than the least bad ones. The floors
//!    (cosine .30, coverage .30) were calibrated on the tuning sets (AgentDojo with requests
//!    no tool fits, Seal-Tools dev, ToolE single-tool) as the highest that decline under
//!    1 % of answerable requests there. The cosine floor is the table's: the table trained
//!    on whole sentences puts cosines on the transformer's scale, lower than the per-token
//!    table it replaced (whose floor was .50).

use std::collections::HashSet;

use crate::Hit;
use crate::bm25::{Bm25Index, Tuning};
#[cfg(feature = "embeddings")]
use crate::cover;
use crate::names::NameIndex;
use crate::split;

#[cfg(feature = "embeddings")]
use crate::embed::{Embeddings, TokenTable};

/// How many candidates each ranking keeps before fusing and merging.
const POOL: usize = 50;
/// The smallest catalog the search declines in. The best cosine grows with the number of
/// tools it is the best of, and the floor was calibrated on catalogs of 74 to 4,076 tools;
/// a catalog of a handful of tools is better listed than searched anyway.
const MIN_DECLINE_TOOLS: usize = 20;

/// How two rankings are fused.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Fusion {
    /// Reciprocal rank fusion with this `k`.
    Rrf(f32),
    /// `share × keyword score / best keyword score + (1 − share) × cosine`.
    Linear(f32),
}

/// How the rankings of a request and of its parts are merged.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Merge {
    /// Rank by rank: the first of each ranking, then the second of each, and so on.
    Interleave,
    /// The whole request's best, then each part's best, then the whole request's ranking.
    Anchored,
    /// One ranking: keywords over the whole request (whose re-ranking already serves each
    /// part), fused with each tool's best cosine with the request or any of its parts.
    BestPart,
}

/// The ranking's components and constants; every component can be turned off, so its
/// contribution can be measured.
#[doc(hidden)]
#[derive(Debug, Clone, PartialEq)]
pub struct Ranking {
    /// Keyword ranking constants.
    pub bm25: Tuning,
    /// Whether the embedding ranking is fused in (only with the `embeddings` feature).
    pub embeddings: bool,
    /// How keyword and embedding rankings are fused.
    pub fusion: Fusion,
    /// Whether multi-part requests are ranked part by part.
    pub split: bool,
    /// How the whole request's ranking and its parts' rankings are merged.
    pub merge: Merge,
    /// Whether named tools come first.
    pub exact_names: bool,
    /// How much of a part's best cosine among the tools already ranked is taken off the
    /// cosines of the tools after it with that part, while the head of a multi-part
    /// request's ranking is chosen (see `cover.rs`); 0 turns this off.
    pub cover: f32,
    /// Whether the search declines when nothing fits.
    pub decline: bool,
    /// The meaning floor: the least best cosine at which something fits.
    pub floor_cosine: f32,
    /// The keyword floor: the least share of the query's word information the best keyword
    /// match must cover for something to fit.
    pub floor_coverage: f32,
}

impl Default for Ranking {
    fn default() -> Ranking {
        Ranking {
            bm25: Tuning::default(),
            embeddings: cfg!(feature = "embeddings"),
            fusion: Fusion::Linear(0.3),
            split: true,
            merge: Merge::BestPart,
            exact_names: true,
            cover: 0.25,
            decline: true,
            floor_cosine: 0.30,
            floor_coverage: 0.30,
        }
    }
}

/// What one ranked search found.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    /// The best tools, best first; empty when nothing matched or the search declined.
    pub hits: Vec<Hit>,
    /// How many tools match: each one that alone passes the fit test the decline applies
    /// (its cosine with the query or one of its parts reaches the meaning floor, or it
    /// covers the keyword floor's share of their word information), is named, or is shown.
    /// A word in common is not enough: in a long request nearly every tool shares one.
    /// Never fewer than are shown; 0 when the search declined.
    pub matched: usize,
    /// Whether tools matched but none scored above the floor, so none is shown.
    pub declined: bool,
    /// The evidence the decline decision was taken on.
    pub evidence: Evidence,
}

/// The two signals the decline decision weighs.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Evidence {
    /// The best cosine between the query (or one of its parts) and a tool; `None` without
    /// embeddings.
    pub best_cosine: Option<f32>,
    /// The largest share of a query's (or part's) word information that its best keyword
    /// match contains, from 0 to 1.
    pub coverage: f32,
    /// Whether the query names a tool.
    pub named: bool,
}

/// One tool's evidence of matching a query (see [`crate::SearchIndex::tool_evidence`]).
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ToolEvidence {
    /// Its BM25F score for the whole query (0: no query word, stem, prefix or word-vector
    /// neighbour in common).
    pub keyword: f32,
    /// The largest share of the query's (or one part's) word information it contains.
    pub coverage: f32,
    /// Its best cosine with the query or one of its parts; `None` without embeddings.
    pub cosine: Option<f32>,
}

/// The indexes behind a ranked search.
#[derive(Debug)]
pub(crate) struct Ranker {
    bm25: Bm25Index,
    names: NameIndex,
    #[cfg(feature = "embeddings")]
    embeddings: Option<(&'static TokenTable, Embeddings)>,
    ranking: Ranking,
    tool_count: usize,
}

/// One text's ranking and its evidence.
struct Ranked {
    list: Vec<(usize, f32)>,
    best_cosine: Option<f32>,
    coverage: f32,
}

impl Ranker {
    pub(crate) fn build(tools: &[crate::ToolDoc], ranking: Ranking) -> Ranker {
        let bm25 = Bm25Index::build(tools, ranking.bm25.clone());
        let names = NameIndex::build(tools);
        #[cfg(feature = "embeddings")]
        let embeddings = if ranking.embeddings {
            TokenTable::embedded().map(|table| {
                let texts: Vec<String> = tools.iter().map(tool_text).collect();
                (table, Embeddings::build(table, texts.iter().map(String::as_str)))
            })
        } else {
            None
        };
        Ranker {
            bm25,
            names,
            #[cfg(feature = "embeddings")]
            embeddings,
            ranking,
            tool_count: tools.len(),
        }
    }

    pub(crate) fn find(&self, query: &str, limit: usize) -> Found {
        self.find_matching(query, limit).0
    }

    /// [`Ranker::find`], and which tools it counted as matched (a flag per tool).
    pub(crate) fn find_matching(&self, query: &str, limit: usize) -> (Found, Vec<bool>) {
        let named: Vec<usize> = if self.ranking.exact_names {
            self.names.named(query).into_iter().map(|n| n.tool as usize).collect()
        } else {
            Vec::new()
        };
        let texts = self.texts(query);
        let depth = limit.max(POOL);
        // A flag per tool, not a hash set: a search over 10,000 tools can match thousands.
        let mut matching = vec![false; self.tool_count];
        let ranked: Vec<Ranked> = match self.ranking.merge {
            Merge::BestPart => {
                let all: Vec<&str> = texts.iter().map(String::as_str).collect();
                vec![self.rank_text(query, &all, depth, &mut matching)]
            }
            Merge::Interleave | Merge::Anchored => {
                texts.iter().map(|t| self.rank_text(t, &[t.as_str()], depth, &mut matching)).collect()
            }
        };
        let evidence = Evidence {
            best_cosine: ranked.iter().filter_map(|r| r.best_cosine).reduce(f32::max),
            coverage: ranked.iter().map(|r| r.coverage).fold(0.0, f32::max),
            named: !named.is_empty(),
        };
        let anything = ranked.iter().any(|r| !r.list.is_empty());
        let calibrated = self.tool_count >= MIN_DECLINE_TOOLS;
        if self.ranking.decline && calibrated && !evidence.named && anything && !self.fits(&evidence) {
            return (Found { hits: Vec::new(), matched: 0, declined: true, evidence }, vec![false; self.tool_count]);
        }
        let lists: Vec<Vec<(usize, f32)>> = ranked.into_iter().map(|r| r.list).collect();
        let merged = match self.ranking.merge {
            Merge::Interleave | Merge::BestPart => interleave(&lists),
            Merge::Anchored => anchored(&lists),
        };
        let mut hits: Vec<Hit> = Vec::with_capacity(limit);
        let top = merged.first().map_or(1.0, |(_, s)| *s);
        for (rank, tool) in named.iter().enumerate() {
            if hits.len() < limit {
                // Above every ranked score, in name order.
                hits.push(Hit { tool: *tool, score: top + (named.len() - rank) as f32 });
            }
        }
        for (tool, score) in merged {
            if hits.len() >= limit {
                break;
            }
            if !named.contains(&tool) {
                hits.push(Hit { tool, score });
            }
        }
        // The shown and the named tools count as matched too, so never fewer are matched
        // than shown.
        for doc in named.iter().chain(hits.iter().map(|h| &h.tool)) {
            if let Some(flag) = matching.get_mut(*doc) {
                *flag = true;
            }
        }
        let matched = matching.iter().filter(|m| **m).count();
        (Found { hits, matched, declined: false, evidence }, matching)
    }

    /// Per tool, the evidence that it matches `query`, for measuring what "matched" counts.
    pub(crate) fn tool_evidence(&self, query: &str) -> Vec<ToolEvidence> {
        let texts = self.texts(query);
        let (scores, _) = self.bm25.scores(query);
        let mut evidence: Vec<ToolEvidence> =
            scores.iter().map(|s| ToolEvidence { keyword: *s, coverage: 0.0, cosine: None }).collect();
        for text in &texts {
            for (tool, share) in evidence.iter_mut().zip(self.bm25.coverages(text)) {
                tool.coverage = tool.coverage.max(share);
            }
        }
        #[cfg(feature = "embeddings")]
        if let Some((table, embeddings)) = &self.embeddings {
            let queries: Vec<Vec<f32>> = texts.iter().filter_map(|t| table.embed(t)).collect();
            for (tool, cosine) in evidence.iter_mut().zip(embeddings.best_cosines(&queries)) {
                tool.cosine = Some(cosine);
            }
        }
        evidence
    }

    /// The texts a query is ranked by: the query, then its parts when it has several.
    fn texts(&self, query: &str) -> Vec<String> {
        let mut texts = vec![query.to_owned()];
        if self.ranking.split {
            let parts = split::parts(query);
            if parts.len() > 1 {
                texts.extend(parts);
            }
        }
        texts
    }

    /// Whether the evidence says some tool fits the query.
    ///
    /// Without embeddings every matching request fits: keyword coverage alone cannot tell a
    /// request no tool serves from one worded unlike its tool (on AgentDojo, any coverage
    /// floor that declines half the misfits also declines half the answerable requests).
    fn fits(&self, evidence: &Evidence) -> bool {
        match evidence.best_cosine {
            Some(cosine) => cosine >= self.ranking.floor_cosine || evidence.coverage >= self.ranking.floor_coverage,
            None => true,
        }
    }

    /// Rank by keywords on `text` fused with meaning: each tool's cosine is its best with any
    /// of `meaning_texts` (the text itself, or also the parts of a multi-part request).
    /// Sets the flag of each tool with evidence of matching `text` in `matching`.
    fn rank_text(&self, text: &str, meaning_texts: &[&str], depth: usize, matching: &mut [bool]) -> Ranked {
        let (scores, weighted) = self.bm25.scores(text);
        let keyword = self.bm25.top(&scores, &weighted, depth);
        let coverage = keyword.first().map_or(0.0, |(doc, _)| self.bm25.coverage(text, *doc));
        // A tool matches when it alone passes the fit test the decline applies to the best
        // ones: it covers the floor's share of the request's (or a part's) word
        // information, or its cosine reaches the meaning floor.
        for meaning_text in meaning_texts {
            for (flag, share) in matching.iter_mut().zip(self.bm25.coverages(meaning_text)) {
                *flag |= share >= self.ranking.floor_coverage;
            }
        }
        #[cfg(feature = "embeddings")]
        if let Some((table, embeddings)) = &self.embeddings {
            let queries: Vec<Vec<f32>> = meaning_texts.iter().filter_map(|t| table.embed(t)).collect();
            let best = (!queries.is_empty()).then(|| embeddings.best_cosines(&queries));
            if let Some(cosines) = best {
                let meaning = crate::bm25::top_documents(&cosines, depth);
                let best_cosine = meaning.first().map(|(_, c)| *c);
                for (flag, cosine) in matching.iter_mut().zip(&cosines) {
                    *flag |= *cosine >= self.ranking.floor_cosine;
                }
                let mut list = fuse(&keyword, &meaning, &cosines, self.ranking.fusion);
                if let Fusion::Linear(share) = self.ranking.fusion
                    && queries.len() > 1
                    && self.ranking.cover > 0.0
                {
                    let weights = cover::Weights { keyword_share: share, discount: self.ranking.cover };
                    list = cover::serve_parts_in_turn(list, &keyword, weights, queries.len(), |tool, part| {
                        queries.get(part).map_or(0.0, |q| embeddings.cosine(tool, q))
                    });
                }
                return Ranked { list, best_cosine, coverage };
            }
        }
        Ranked { list: keyword, best_cosine: None, coverage }
    }
}

/// The text a tool is embedded from: its name's words, its description and its parameter
/// names.
#[cfg(feature = "embeddings")]
fn tool_text(tool: &crate::ToolDoc) -> String {
    let mut text = crate::text::words(&tool.name).join(" ");
    text.push_str(". ");
    text.push_str(&tool.description);
    for param in &tool.params {
        text.push(' ');
        text.push_str(&crate::text::words(&param.name).join(" "));
    }
    text
}

/// Fuse a keyword ranking and a meaning ranking (both best first) into one, best first.
#[cfg(feature = "embeddings")]
fn fuse(keyword: &[(usize, f32)], meaning: &[(usize, f32)], cosines: &[f32], fusion: Fusion) -> Vec<(usize, f32)> {
    let mut fused: std::collections::HashMap<usize, f32> = std::collections::HashMap::new();
    match fusion {
        Fusion::Rrf(k) => {
            for list in [keyword, meaning] {
                for (rank, (doc, _)) in list.iter().enumerate() {
                    *fused.entry(*doc).or_insert(0.0) += 1.0 / (k + rank as f32 + 1.0);
                }
            }
        }
        Fusion::Linear(share) => {
            let best = keyword.first().map_or(1.0, |(_, s)| *s).max(f32::MIN_POSITIVE);
            for (doc, score) in keyword {
                *fused.entry(*doc).or_insert(0.0) += share * score / best;
            }
            for (doc, _) in keyword.iter().chain(meaning) {
                fused.entry(*doc).or_insert(0.0);
            }
            for (doc, score) in &mut fused {
                *score += (1.0 - share) * cosines.get(*doc).copied().unwrap_or(0.0).max(0.0);
            }
        }
    }
    let mut list: Vec<(usize, f32)> = fused
        .into_iter()
        .map(|(doc, score)| (doc, if score.is_finite() { score.max(f32::MIN_POSITIVE) } else { f32::MIN_POSITIVE }))
        .collect();
    list.sort_unstable_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    list
}

/// Merge rankings rank by rank: the first of each list in list order, then the second of
/// each, skipping tools already taken. Scores are made non-increasing.
fn interleave(lists: &[Vec<(usize, f32)>]) -> Vec<(usize, f32)> {
    let Some(first) = lists.first() else { return Vec::new() };
    if lists.len() == 1 {
        return first.clone();
    }
    let longest = lists.iter().map(Vec::len).max().unwrap_or(0);
    let mut taken = HashSet::new();
    let mut merged = Vec::new();
    let mut last = f32::INFINITY;
    for rank in 0..longest {
        for list in lists {
            if let Some((doc, score)) = list.get(rank)
                && taken.insert(*doc)
            {
                last = last.min(*score).max(f32::MIN_POSITIVE);
                merged.push((*doc, last));
            }
        }
    }
    merged
}

/// Merge rankings so that each part's best comes right after the whole request's best, and
/// the whole request's ranking follows: the parts add their best tool, they do not push the
/// whole request's second and third choices (often the rest of what it needs) down.
fn anchored(lists: &[Vec<(usize, f32)>]) -> Vec<(usize, f32)> {
    let Some(whole) = lists.first() else { return Vec::new() };
    if lists.len() == 1 {
        return whole.clone();
    }
    let firsts: Vec<Vec<(usize, f32)>> = lists.iter().map(|l| l.iter().take(1).copied().collect()).collect();
    let rests: Vec<Vec<(usize, f32)>> = lists.iter().skip(1).map(|l| l.iter().skip(1).copied().collect()).collect();
    let mut merged = interleave(&firsts);
    let mut taken: HashSet<usize> = merged.iter().map(|(d, _)| *d).collect();
    let mut last = merged.last().map_or(f32::INFINITY, |(_, s)| *s);
    for (doc, score) in whole.iter().skip(1).copied().chain(interleave(&rests)) {
        if taken.insert(doc) {
            last = last.min(score).max(f32::MIN_POSITIVE);
            merged.push((doc, last));
        }
    }
    merged
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interleave_takes_each_lists_best_first() {
        let whole = vec![(1, 0.9), (2, 0.8), (3, 0.7)];
        let part_a = vec![(1, 0.5), (4, 0.4)];
        let part_b = vec![(5, 0.6), (2, 0.3)];
        let merged = interleave(&[whole, part_a, part_b]);
        let order: Vec<usize> = merged.iter().map(|(d, _)| *d).collect();
        assert_eq!(order, [1, 5, 2, 4, 3]);
        assert!(merged.windows(2).all(|w| w[0].1 >= w[1].1));
    }

    #[test]
    fn anchored_adds_each_parts_best_then_keeps_the_whole_ranking() {
        let whole = vec![(1, 0.9), (2, 0.8), (3, 0.7)];
        let part_a = vec![(1, 0.5), (4, 0.4)];
        let part_b = vec![(5, 0.6), (6, 0.3)];
        let merged = anchored(&[whole, part_a, part_b]);
        let order: Vec<usize> = merged.iter().map(|(d, _)| *d).collect();
        assert_eq!(order, [1, 5, 2, 3, 4, 6]);
        assert!(merged.windows(2).all(|w| w[0].1 >= w[1].1));
    }
}
