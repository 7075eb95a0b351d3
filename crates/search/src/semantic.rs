//! Word vectors that bridge vocabulary gaps: "rain" in a request, "weather" in a tool.
//!
//! Keyword ranking cannot match a request to a tool that shares no word, stem or prefix
//! with it. The search embeds a small table of English word vectors (GloVe, 100 dimensions,
//! public domain; `scripts/word-vectors.py` builds the file and says where it comes from),
//! and a query word that the catalog never uses is expanded into the catalog's own words
//! closest to it, with weights below one. Words the catalog already uses are not expanded:
//! they match as written, and expanding them would only add noise.
//!
//! The table is parsed once per process, on the first index built, and never fails the
//! search: a malformed table (which the tests rule out) just turns expansion off.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::nibbles::Codebook;

const MAGIC: &[u8] = b"TSWV2\n";

/// The parsed table: a word's row in a flat array of four-bit codes, two per byte
/// (`scripts/pack-nibbles.py` describes the format).
#[derive(Debug)]
pub(crate) struct WordVectors {
    dimensions: usize,
    rows: HashMap<&'static str, usize>,
    codebook: Codebook,
    values: &'static [u8],
}

impl WordVectors {
    /// The embedded table, parsed on first use; `None` when it is malformed.
    pub(crate) fn embedded() -> Option<&'static WordVectors> {
        static PARSED: OnceLock<Option<WordVectors>> = OnceLock::new();
        PARSED.get_or_init(|| WordVectors::parse(crate::embedded::word_vectors()?)).as_ref()
    }

    fn parse(bytes: &'static [u8]) -> Option<WordVectors> {
        let rest = bytes.strip_prefix(MAGIC)?;
        let count = u32::from_le_bytes(rest.get(..4)?.try_into().ok()?) as usize;
        let dimensions = usize::from(u16::from_le_bytes(rest.get(4..6)?.try_into().ok()?));
        let mut rest = rest.get(6..)?;
        let mut rows = HashMap::with_capacity(count);
        for row in 0..count {
            let end = rest.iter().position(|b| *b == b'\n')?;
            let word = std::str::from_utf8(rest.get(..end)?).ok()?;
            rows.insert(word, row);
            rest = rest.get(end + 1..)?;
        }
        let codebook = Codebook::parse(rest)?;
        let values = rest.get(Codebook::BYTES..)?.get(..count.checked_mul(dimensions / 2)?)?;
        (dimensions > 0 && dimensions % 2 == 0).then_some(WordVectors { dimensions, rows, codebook, values })
    }

    /// How many numbers make one vector.
    pub(crate) fn dimensions(&self) -> usize {
        self.dimensions
    }

    /// A word's vector scaled to unit length, or `None` for a word the table lacks.
    pub(crate) fn unit_vector(&self, word: &str) -> Option<Vec<f32>> {
        let row = *self.rows.get(word)?;
        let row_bytes = self.dimensions / 2;
        let mut vector = self.codebook.decode(self.values.get(row * row_bytes..(row + 1) * row_bytes)?);
        let norm = vector.iter().map(|x| x * x).sum::<f32>().sqrt();
        if !norm.is_normal() {
            return None;
        }
        for x in &mut vector {
            *x /= norm;
        }
        Some(vector)
    }
}

/// The catalog's words that have vectors, each with the index term it expands into.
#[derive(Debug, Default)]
pub(crate) struct CatalogWords {
    /// The BM25 term id each word expands into, one per row of `vectors`.
    terms: Vec<u32>,
    /// Unit vectors, `terms.len() × dimensions`, row-major.
    vectors: Vec<f32>,
    dimensions: usize,
}

impl CatalogWords {
    /// An empty set, for a catalog with no word the table knows (or expansion turned off).
    pub(crate) fn new(dimensions: usize) -> CatalogWords {
        CatalogWords { terms: Vec::new(), vectors: Vec::new(), dimensions }
    }

    /// Add a catalog word whose unit vector is `vector`, expanding into `term`.
    pub(crate) fn push(&mut self, term: u32, vector: &[f32]) {
        if vector.len() == self.dimensions {
            self.terms.push(term);
            self.vectors.extend_from_slice(vector);
        }
    }

    /// The terms of the catalog words closest to `query` (a unit vector): at most
    /// `neighbours` distinct terms whose cosine is at least `threshold`, closest first.
    pub(crate) fn nearest(&self, query: &[f32], neighbours: usize, threshold: f32) -> Vec<(u32, f32)> {
        if query.len() != self.dimensions || self.dimensions == 0 || neighbours == 0 {
            return Vec::new();
        }
        let mut best: Vec<(u32, f32)> = Vec::with_capacity(neighbours + 1);
        for (term, row) in self.terms.iter().zip(self.vectors.chunks_exact(self.dimensions)) {
            let cosine = dot(row, query);
            // NaN never passes.
            if cosine.partial_cmp(&threshold).is_none_or(|order| order.is_lt()) {
                continue;
            }
            // Several words (`forecast`, `forecasts`) share one term: keep its best cosine.
            if let Some(seen) = best.iter_mut().find(|(t, _)| t == term) {
                seen.1 = seen.1.max(cosine);
            } else {
                best.push((*term, cosine));
            }
            best.sort_unstable_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            best.truncate(neighbours);
        }
        best
    }
}

/// The dot product of two equally long vectors, summed in eight lanes so that it compiles to
/// SIMD instructions (a single running sum must be added in order, which forbids that).
pub(crate) fn dot(a: &[f32], b: &[f32]) -> f32 {
    const LANES: usize = 8;
    let mut lanes = [0f32; LANES];
    let (a_chunks, b_chunks) = (a.chunks_exact(LANES), b.chunks_exact(LANES));
    let tail: f32 = a_chunks.remainder().iter().zip(b_chunks.remainder()).map(|(x, y)| x * y).sum();
    for (x, y) in a_chunks.zip(b_chunks) {
        for lane in 0..LANES {
            lanes[lane] += x[lane] * y[lane];
        }
    }
    lanes.iter().sum::<f32>() + tail
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cosine(table: &WordVectors, a: &str, b: &str) -> f32 {
        let (Some(a), Some(b)) = (table.unit_vector(a), table.unit_vector(b)) else {
            panic!("missing {a} or {b}");
        };
        a.iter().zip(&b).map(|(x, y)| x * y).sum()
    }

    #[test]
    fn the_embedded_table_parses_and_knows_common_words() {
        let table = WordVectors::embedded().expect("the embedded table parses");
        assert_eq!(table.dimensions(), 100);
        assert!(table.rows.len() >= 10_000, "{} words", table.rows.len());
        for word in ["weather", "rain", "stock", "music", "restaurant"] {
            assert!(table.unit_vector(word).is_some(), "{word}");
        }
        assert!(table.unit_vector("qqqxyzzy").is_none());
    }

    #[test]
    fn related_words_are_closer_than_unrelated_ones() {
        let table = WordVectors::embedded().expect("the embedded table parses");
        assert!(cosine(table, "rain", "weather") > cosine(table, "rain", "receipt") + 0.2);
        assert!(cosine(table, "song", "music") > cosine(table, "song", "mortgage") + 0.2);
        let own = cosine(table, "weather", "weather");
        assert!((own - 1.0).abs() < 1e-4, "{own}");
    }

    #[test]
    fn a_truncated_table_is_refused_not_a_panic() {
        let table = crate::embedded::word_vectors().unwrap();
        for cut in [0, 3, MAGIC.len(), MAGIC.len() + 5, table.len() / 2, table.len() - 1] {
            let bytes: &'static [u8] = table.get(..cut).unwrap_or_default();
            assert!(WordVectors::parse(bytes).is_none(), "cut at {cut}");
        }
    }

    #[test]
    fn dot_equals_the_plain_sum() {
        let a: Vec<f32> = (0..103).map(|i| (i as f32 * 0.37).sin()).collect();
        let b: Vec<f32> = (0..103).map(|i| (i as f32 * 0.11).cos()).collect();
        let plain: f32 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
        assert!((dot(&a, &b) - plain).abs() < 1e-4);
        assert_eq!(dot(&[], &[]), 0.0);
    }

    #[test]
    fn nearest_keeps_the_best_cosine_per_term_and_respects_the_threshold() {
        let mut words = CatalogWords::new(2);
        words.push(7, &[1.0, 0.0]);
        words.push(7, &[0.8, 0.6]);
        words.push(9, &[0.0, 1.0]);
        words.push(5, &[0.6, 0.8]);
        let found = words.nearest(&[1.0, 0.0], 5, 0.5);
        assert_eq!(found, vec![(7, 1.0), (5, 0.6)]);
        assert_eq!(words.nearest(&[1.0, 0.0], 1, 0.5), vec![(7, 1.0)]);
        assert!(words.nearest(&[1.0], 5, 0.0).is_empty(), "wrong dimensions");
    }
}
