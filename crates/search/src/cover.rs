//! Serving the parts of a multi-part request in turn.
//!
//! The fused ranking gives each tool its best cosine with the request or any of its parts.
//! When one part is easy to match ("search for movie reviews"), its near-duplicates (book
//! reviews, restaurant reviews) all score well and fill the top five, and the tool of a part
//! worded less closely ("encrypt the result") falls to sixth. So the head of the ranking is
//! chosen greedily, as coverage of the parts: after each pick, every part remembers the best
//! cosine it has been served with, and a later tool's cosine with that part counts less by a
//! share (`discount`) of it. A tool for a part nothing serves yet keeps its whole cosine, so
//! it moves up past the second and third answers to a part already served. The keyword
//! score is not discounted: the keyword ranking already discounts the words its picks
//! matched (see `bm25.rs`).
//!
//! The discount (.25) is the one with the best mean Recall@5 over the three tuning sets
//! among .25, .5, .75 and 1 (BENCHMARKS.md, "Parts served in turn").

/// How many places of the ranking are chosen greedily; the rest keeps its fused order.
const HEAD: usize = 10;
/// How many of the best fused tools compete for those places.
const POOL: usize = 30;

/// The fusion's weights, as the greedy choice needs them.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Weights {
    /// The keyword score's share of the fused score (the cosine has the rest).
    pub(crate) keyword_share: f32,
    /// The share of a part's best cosine so far that later tools lose on that part.
    pub(crate) discount: f32,
}

/// One tool competing for the head: its normalised keyword score and its cosine with each
/// text of the request (the whole request, then its parts).
struct Candidate {
    tool: usize,
    keyword: f32,
    cosines: Vec<f32>,
}

/// Re-rank the head of `fused` (best first) so that the `parts` texts of a request are
/// served in turn; `keyword` is the keyword ranking (best first) the fusion used, and
/// `cosine(tool, part)` a tool's cosine with one text. The result holds the same tools,
/// with non-increasing scores.
pub(crate) fn serve_parts_in_turn(
    fused: Vec<(usize, f32)>,
    keyword: &[(usize, f32)],
    weights: Weights,
    parts: usize,
    cosine: impl Fn(usize, usize) -> f32,
) -> Vec<(usize, f32)> {
    let best_keyword = keyword.first().map_or(1.0, |(_, s)| *s).max(f32::MIN_POSITIVE);
    let keyword_of = |tool: usize| keyword.iter().find(|(t, _)| *t == tool).map_or(0.0, |(_, s)| s / best_keyword);
    let mut pool: Vec<Candidate> = fused
        .iter()
        .take(POOL)
        .map(|(tool, _)| Candidate {
            tool: *tool,
            keyword: keyword_of(*tool),
            cosines: (0..parts).map(|part| finite(cosine(*tool, part))).collect(),
        })
        .collect();
    let mut served = vec![0.0_f32; parts];
    let mut ranked: Vec<(usize, f32)> = Vec::with_capacity(fused.len());
    let mut last = f32::INFINITY;
    while ranked.len() < HEAD && !pool.is_empty() {
        let score_of = |c: &Candidate| {
            let meaning = c
                .cosines
                .iter()
                .zip(&served)
                .map(|(cosine, best)| cosine - weights.discount * best)
                .fold(0.0_f32, f32::max);
            weights.keyword_share * c.keyword + (1.0 - weights.keyword_share) * meaning
        };
        // The first of equals wins, so ties keep the fused order.
        let (pick, score) = pool
            .iter()
            .map(score_of)
            .enumerate()
            .fold((0, f32::NEG_INFINITY), |best, (i, s)| if s > best.1 { (i, s) } else { best });
        let chosen = pool.remove(pick);
        for (best, cosine) in served.iter_mut().zip(&chosen.cosines) {
            *best = best.max(*cosine);
        }
        last = last.min(finite(score)).max(f32::MIN_POSITIVE);
        ranked.push((chosen.tool, last));
    }
    for (tool, score) in fused {
        if !ranked.iter().any(|(t, _)| *t == tool) {
            last = last.min(finite(score)).max(f32::MIN_POSITIVE);
            ranked.push((tool, last));
        }
    }
    ranked
}

/// `value`, or 0 when it is not a finite number.
fn finite(value: f32) -> f32 {
    if value.is_finite() { value } else { 0.0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WEIGHTS: Weights = Weights { keyword_share: 0.3, discount: 0.25 };

    /// Tools 0 to 2 serve part 1 closely; tool 3 serves part 2 a little less closely.
    fn cosines(tool: usize, part: usize) -> f32 {
        match (tool, part) {
            (0, 1) => 0.70,
            (1, 1) => 0.66,
            (2, 1) => 0.64,
            (3, 2) => 0.58,
            (_, 0) => 0.30,
            _ => 0.05,
        }
    }

    fn fused() -> Vec<(usize, f32)> {
        vec![(0, 0.70), (1, 0.66), (2, 0.64), (3, 0.58), (4, 0.20)]
    }

    #[test]
    fn a_part_nothing_serves_yet_moves_up_past_a_served_parts_second_answer() {
        let ranked = serve_parts_in_turn(fused(), &[], WEIGHTS, 3, cosines);
        let order: Vec<usize> = ranked.iter().map(|(t, _)| *t).collect();
        assert_eq!(order, [0, 3, 1, 2, 4]);
        assert!(ranked.windows(2).all(|w| w[0].1 >= w[1].1), "{ranked:?}");
    }

    #[test]
    fn without_a_discount_the_fused_order_stays() {
        let weights = Weights { discount: 0.0, ..WEIGHTS };
        let ranked = serve_parts_in_turn(fused(), &[], weights, 3, cosines);
        let order: Vec<usize> = ranked.iter().map(|(t, _)| *t).collect();
        assert_eq!(order, [0, 1, 2, 3, 4]);
    }

    #[test]
    fn nothing_is_lost_or_repeated_and_odd_numbers_do_no_harm() {
        let fused: Vec<(usize, f32)> = (0..40).map(|t| (t, 1.0 - t as f32 / 50.0)).collect();
        let odd = |tool: usize, part: usize| match (tool + part) % 3 {
            0 => f32::NAN,
            1 => f32::INFINITY,
            _ => -0.5,
        };
        let ranked = serve_parts_in_turn(fused.clone(), &[(5, f32::NAN), (7, 2.0)], WEIGHTS, 4, odd);
        let mut tools: Vec<usize> = ranked.iter().map(|(t, _)| *t).collect();
        tools.sort_unstable();
        assert_eq!(tools, (0..40).collect::<Vec<_>>());
        assert!(ranked.iter().all(|(_, s)| s.is_finite() && *s > 0.0), "{ranked:?}");
        assert!(ranked.windows(2).all(|w| w[0].1 >= w[1].1), "{ranked:?}");
    }
}
