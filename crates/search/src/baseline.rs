//! Plain BM25, the reference that [`crate::SearchIndex`]'s ranking is measured against.
//!
//! One bag of words per tool (name, description, parameter names and descriptions run
//! together), split at anything that is not a letter or digit and at camelCase boundaries,
//! lowercased, English stop words dropped; no stemming, no field weights, no name terms;
//! `k1 = 1.2`, `b = 0.75`. Kept so that an evaluation can
//! print both rankings side by side on the same data.

use std::collections::HashMap;

use crate::Hit;
use crate::bm25::top_documents;
use crate::catalog::ToolDoc;
use crate::text::{self, is_stop_word};

const K1: f32 = 1.2;
const B: f32 = 0.75;

/// A plain BM25 index over the concatenated text of each tool.
#[derive(Debug)]
pub struct PlainBm25 {
    terms: HashMap<String, Vec<(u32, f32)>>,
    lengths: Vec<f32>,
    average_length: f32,
}

fn tokens(text: &str) -> impl Iterator<Item = String> {
    text::words(text).into_iter().filter(|w| !is_stop_word(w))
}

impl PlainBm25 {
    /// Index `tools`; a [`Hit::tool`] is a position in this list.
    pub fn build(tools: &[ToolDoc]) -> PlainBm25 {
        let mut terms: HashMap<String, Vec<(u32, f32)>> = HashMap::new();
        let mut lengths = Vec::with_capacity(tools.len());
        for (index, tool) in tools.iter().enumerate() {
            let doc = u32::try_from(index).unwrap_or(u32::MAX);
            let mut counts: HashMap<String, f32> = HashMap::new();
            let mut length = 0usize;
            let texts = [tool.name.as_str(), tool.description.as_str()]
                .into_iter()
                .chain(tool.params.iter().flat_map(|p| [p.name.as_str(), p.description.as_str()]));
            for text in texts {
                for token in tokens(text) {
                    *counts.entry(token).or_insert(0.0) += 1.0;
                    length += 1;
                }
            }
            for (term, count) in counts {
                terms.entry(term).or_default().push((doc, count));
            }
            lengths.push(length as f32);
        }
        let average_length = lengths.iter().sum::<f32>() / lengths.len().max(1) as f32;
        PlainBm25 { terms, lengths, average_length }
    }

    /// The best `limit` tools for `query`, best first.
    pub fn search(&self, query: &str, limit: usize) -> Vec<Hit> {
        let n = self.lengths.len() as f32;
        let mut scores = vec![0f32; self.lengths.len()];
        for token in tokens(query) {
            let Some(postings) = self.terms.get(&token) else { continue };
            let df = postings.len() as f32;
            let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
            for (doc, count) in postings {
                let length = self.lengths.get(*doc as usize).copied().unwrap_or(0.0);
                let norm = 1.0 - B + B * length / self.average_length.max(f32::EPSILON);
                if let Some(score) = scores.get_mut(*doc as usize) {
                    *score += idf * count * (K1 + 1.0) / (count + K1 * norm);
                }
            }
        }
        top_documents(&scores, limit).into_iter().map(|(tool, score)| Hit { tool, score }).collect()
    }
}
