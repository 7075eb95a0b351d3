//! Sentence embeddings from a static token table: the semantic half of tool search.
//!
//! Keyword ranking cannot match "is it going to rain" to a weather tool. A sentence
//! transformer can, but running one costs milliseconds and hundreds of megabytes. The table
//! embedded here (`data/token-vectors.bin`, built by `scripts/embedding-table.py`) is
//! distilled from the sentence-transformer all-MiniLM-L6-v2: one row per WordPiece token,
//! the model's output for that token alone, reduced by PCA and weighted down for frequent
//! tokens, then trained on whole sentences (`scripts/train-table.py`) and packed to four
//! bits per number (`scripts/pack-nibbles.py`, decoded by [`crate::nibbles`]). A text's
//! embedding is the normalised mean of its tokens' rows, which costs a tokenizer pass and
//! one addition per token: microseconds.
//!
//! The table is parsed once per process, on first use; a malformed table (which the tests
//! rule out) turns embeddings off rather than failing a search.

use std::sync::OnceLock;

#[cfg(test)]
use crate::semantic::dot;

use crate::nibbles::Codebook;
use crate::wordpiece::WordPiece;

const MAGIC: &[u8] = b"TSTV2\n";

/// A parsed table: the tokenizer of its vocabulary and one scaled row of four-bit codes per
/// token (`scripts/pack-nibbles.py` describes the format).
#[derive(Debug)]
pub(crate) struct TokenTable {
    tokenizer: WordPiece,
    dimensions: usize,
    codebook: Codebook,
    scales: Vec<f32>,
    /// `dimensions / 2` bytes per row.
    values: &'static [u8],
}

impl TokenTable {
    /// The embedded table, parsed on first use; `None` when it is malformed.
    pub(crate) fn embedded() -> Option<&'static TokenTable> {
        static PARSED: OnceLock<Option<TokenTable>> = OnceLock::new();
        PARSED.get_or_init(|| TokenTable::parse(crate::embedded::token_vectors()?)).as_ref()
    }

    pub(crate) fn parse(bytes: &'static [u8]) -> Option<TokenTable> {
        let rest = bytes.strip_prefix(MAGIC)?;
        let count = u32::from_le_bytes(rest.get(..4)?.try_into().ok()?) as usize;
        let dimensions = usize::from(u16::from_le_bytes(rest.get(4..6)?.try_into().ok()?));
        let lowercase = rest.get(6)? & 1 == 1;
        let mut rest = rest.get(7..)?;
        let mut tokens = Vec::with_capacity(count);
        for _ in 0..count {
            let end = rest.iter().position(|b| *b == b'\n')?;
            tokens.push(std::str::from_utf8(rest.get(..end)?).ok()?);
            rest = rest.get(end + 1..)?;
        }
        let codebook = Codebook::parse(rest)?;
        let rest = rest.get(Codebook::BYTES..)?;
        let scale_bytes = rest.get(..count.checked_mul(4)?)?;
        let scales = scale_bytes.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
        let values = rest.get(count * 4..)?;
        if dimensions == 0 || dimensions % 2 == 1 || values.len() != count.checked_mul(dimensions / 2)? {
            return None;
        }
        Some(TokenTable { tokenizer: WordPiece::new(&tokens, lowercase), dimensions, codebook, scales, values })
    }

    /// How many numbers make one embedding.
    pub(crate) fn dimensions(&self) -> usize {
        self.dimensions
    }

    /// The unit-length embedding of `text`, or `None` when no token of it carries meaning.
    pub(crate) fn embed(&self, text: &str) -> Option<Vec<f32>> {
        let mut sum = vec![0f32; self.dimensions];
        let row_bytes = self.dimensions / 2;
        self.tokenizer.for_each_id(text, |id| {
            let row = id as usize;
            let (Some(scale), Some(packed)) =
                (self.scales.get(row), self.values.get(row * row_bytes..(row + 1) * row_bytes))
            else {
                return;
            };
            self.codebook.add_scaled(&mut sum, *scale, packed);
        });
        let norm = sum.iter().map(|x| x * x).sum::<f32>().sqrt();
        if !norm.is_normal() {
            return None;
        }
        for x in &mut sum {
            *x /= norm;
        }
        Some(sum)
    }
}

/// Unit embeddings of a list of texts, one row each (a zero row for a text without meaning).
#[derive(Debug, Default)]
pub(crate) struct Embeddings {
    dimensions: usize,
    rows: Vec<f32>,
}

impl Embeddings {
    /// Embed each text with `table`.
    pub(crate) fn build<'a>(table: &TokenTable, texts: impl Iterator<Item = &'a str>) -> Embeddings {
        let dimensions = table.dimensions();
        let mut rows = Vec::new();
        for text in texts {
            match table.embed(text) {
                Some(vector) => rows.extend_from_slice(&vector),
                None => rows.resize(rows.len() + dimensions, 0.0),
            }
        }
        Embeddings { dimensions, rows }
    }

    /// Row `row`'s cosine with `query` (a unit vector); 0 for a row or query out of shape.
    pub(crate) fn cosine(&self, row: usize, query: &[f32]) -> f32 {
        if query.len() != self.dimensions {
            return 0.0;
        }
        let start = row.saturating_mul(self.dimensions);
        self.rows
            .get(start..start.saturating_add(self.dimensions))
            .map_or(0.0, |r| r.iter().zip(query).map(|(x, y)| x * y).sum())
    }

    /// Each row's best cosine with any of `queries` (unit vectors), in row order. One pass
    /// over the rows however many queries there are: a multi-part request reads the table
    /// once, not once per part.
    pub(crate) fn best_cosines(&self, queries: &[Vec<f32>]) -> Vec<f32> {
        if queries.is_empty() || self.dimensions == 0 || queries.iter().any(|q| q.len() != self.dimensions) {
            return Vec::new();
        }
        pulp::Arch::new().dispatch(BestCosines { rows: &self.rows, dimensions: self.dimensions, queries })
    }
}

/// The kernel of [`Embeddings::best_cosines`], written once over pulp's SIMD vectors and run
/// with the widest instructions the CPU has (AVX2 with FMA on most x86-64 machines, SSE2 at
/// least), chosen at run time: the dot products of every tool with every part of a request
/// are most of a multi-part query's time.
struct BestCosines<'a> {
    rows: &'a [f32],
    dimensions: usize,
    queries: &'a [Vec<f32>],
}

impl pulp::WithSimd for BestCosines<'_> {
    type Output = Vec<f32>;

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, simd: S) -> Vec<f32> {
        let mut out = Vec::with_capacity(self.rows.len() / self.dimensions.max(1));
        for row in self.rows.chunks_exact(self.dimensions) {
            let (row_vectors, row_tail) = S::as_simd_f32s(row);
            let mut best = f32::NEG_INFINITY;
            for query in self.queries {
                let (query_vectors, query_tail) = S::as_simd_f32s(query);
                // Two accumulators, so that one addition need not wait for the other.
                let (mut even, mut odd) = (simd.splat_f32s(0.0), simd.splat_f32s(0.0));
                let pairs = row_vectors.chunks_exact(2).zip(query_vectors.chunks_exact(2));
                for (r, q) in pairs {
                    even = simd.mul_add_e_f32s(r[0], q[0], even);
                    odd = simd.mul_add_e_f32s(r[1], q[1], odd);
                }
                if let (Some(r), Some(q)) =
                    (row_vectors.chunks_exact(2).remainder().first(), query_vectors.chunks_exact(2).remainder().first())
                {
                    even = simd.mul_add_e_f32s(*r, *q, even);
                }
                let tail: f32 = row_tail.iter().zip(query_tail).map(|(x, y)| x * y).sum();
                best = best.max(simd.reduce_sum_f32s(simd.add_f32s(even, odd)) + tail);
            }
            out.push(best);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cosine(table: &TokenTable, a: &str, b: &str) -> f32 {
        let (Some(a), Some(b)) = (table.embed(a), table.embed(b)) else { panic!("no embedding for {a} or {b}") };
        dot(&a, &b)
    }

    #[test]
    fn the_embedded_table_parses_and_relates_meanings() {
        let table = TokenTable::embedded().expect("the embedded table parses");
        assert!(table.dimensions() >= 64);
        let rain = cosine(table, "is it going to rain tomorrow", "get the weather forecast for a city");
        let unrelated = cosine(table, "is it going to rain tomorrow", "merge a pull request");
        assert!(rain > unrelated + 0.15, "{rain} vs {unrelated}");
        let save = cosine(table, "save the summary to disk", "write content to a file");
        let other = cosine(table, "save the summary to disk", "post a message to a chat channel");
        assert!(save > other + 0.1, "{save} vs {other}");
        assert!(table.embed("").is_none() && table.embed(" \u{200b}\t").is_none(), "nothing to embed");
    }

    #[test]
    fn best_cosines_are_each_rows_best_dot() {
        let table = TokenTable::embedded().expect("the embedded table parses");
        let tools = ["read a file from disk", "send a chat message", "", "get the weather forecast"];
        let embeddings = Embeddings::build(table, tools.into_iter());
        let queries: Vec<Vec<f32>> =
            ["will it rain", "save notes", "post to the team"].iter().filter_map(|q| table.embed(q)).collect();
        assert_eq!(queries.len(), 3);
        let best = embeddings.best_cosines(&queries);
        assert_eq!(best.len(), tools.len());
        for (row, cosine) in embeddings.rows.chunks_exact(embeddings.dimensions).zip(&best) {
            let expected = queries.iter().map(|q| dot(row, q)).reduce(f32::max).unwrap_or_default();
            // The SIMD kernel sums in another order (and fuses multiply and add where it can).
            assert!((cosine - expected).abs() < 1e-5, "{cosine} against {expected}");
        }
        assert!(embeddings.best_cosines(&[]).is_empty());
        assert!(embeddings.best_cosines(&[vec![1.0]]).is_empty(), "a vector of the wrong length");
    }

    /// The SIMD kernel's edges: rows shorter than one vector, an odd number of vectors, and a
    /// tail of single numbers, at every width the CPU's instructions may take.
    #[test]
    fn best_cosines_agree_with_the_plain_dot_at_any_length() {
        for dimensions in [1usize, 3, 7, 8, 9, 17, 24, 103, 256] {
            let value = |i: usize| ((i * 7919 % 1000) as f32 / 500.0) - 1.0;
            let rows: Vec<f32> = (0..5 * dimensions).map(value).collect();
            let queries: Vec<Vec<f32>> =
                (0..3).map(|q| (0..dimensions).map(|i| value(i * 31 + q * 977 + 13)).collect()).collect();
            let embeddings = Embeddings { dimensions, rows };
            let best = embeddings.best_cosines(&queries);
            assert_eq!(best.len(), 5, "{dimensions} dimensions");
            for (row, got) in embeddings.rows.chunks_exact(dimensions).zip(&best) {
                let expected = queries.iter().map(|q| dot(row, q)).reduce(f32::max).unwrap_or_default();
                assert!((got - expected).abs() < 1e-3, "{dimensions} dimensions: {got} against {expected}");
            }
        }
    }

    #[test]
    fn the_embedded_table_is_the_one_the_docs_name() {
        use sha2::Digest;
        let digest: String = sha2::Sha256::digest(crate::embedded::token_vectors().unwrap())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        let recorded = include_str!("../data/token-vectors.sha256");
        let recorded = recorded.split_whitespace().next().unwrap_or_default();
        assert_eq!(
            digest, recorded,
            "data/token-vectors.bin changed: rebuilt on another machine (BLAS rounding) or edited; record the new checksum with `sha256sum token-vectors.bin > token-vectors.sha256` in crates/search/data after checking it"
        );
    }

    #[test]
    fn a_truncated_table_is_refused_not_a_panic() {
        let table = crate::embedded::token_vectors().unwrap();
        for cut in [0, 3, MAGIC.len(), MAGIC.len() + 5, table.len() / 2, table.len() - 1] {
            let bytes: &'static [u8] = table.get(..cut).unwrap_or_default();
            assert!(TokenTable::parse(bytes).is_none(), "cut at {cut}");
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
}
