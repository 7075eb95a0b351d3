//! Long values listed together, shortened to what tells them apart.
//!
//! A facet lists a field's most common values, and a long one must be shortened to fit a
//! summary clause. Keeping a fixed head and tail works where values differ at an end
//! (paths, ARNs, URLs) and fails where they differ in the middle: five user agents that all
//! start `Mozilla/5.0 (` and end in a version number read alike once their middles are cut,
//! and "how many requests came from Googlebot" goes unanswered. So the values of one list
//! are shortened together: each is cut into pieces at separators, and a piece is kept first
//! if few of the other listed values hold it. What the values share is what goes, whatever
//! its place in the value; nothing about any particular kind of value is assumed.

use std::collections::HashMap;

/// The longest value kept whole, in characters, and the most a shortened one shows. A
/// cloud's host names (`ip-10-0-48-221.eu-west-1.compute.internal`, 41) and most pod and
/// package names fit whole: a name cut by a few characters saves little and answers
/// nothing.
pub(crate) const MAX_CHARS: usize = 48;

/// A value cut into more pieces than this keeps its head and tail: choosing among its
/// pieces would cost more than the clause is worth.
const MAX_PIECES: usize = 200;

/// A value longer than this, in bytes, is not cut into pieces at all (it keeps its head and
/// tail), so that the cost of a list does not follow the size of a huge value.
const MAX_SPLIT_BYTES: usize = 4096;

/// `values`, each at most about [`MAX_CHARS`] characters: a longer one keeps the pieces
/// that tell it apart from the other values, in their order, with `…` where pieces were
/// left out. Falls back to [`head_and_tail`] for all values where that would make two
/// shown values read the same, and for a value whose rarest piece alone is too long.
pub(crate) fn shorten_together(values: &[&str]) -> Vec<String> {
    if values.iter().all(|v| v.chars().count() <= MAX_CHARS) {
        return values.iter().map(|v| (*v).to_owned()).collect();
    }
    let pieces: Vec<Vec<&str>> =
        values.iter().map(|v| if v.len() <= MAX_SPLIT_BYTES { split_pieces(v) } else { Vec::new() }).collect();
    // In how many of the listed values each piece occurs.
    let mut holders: HashMap<&str, usize> = HashMap::new();
    for value_pieces in &pieces {
        let mut seen: Vec<&str> = value_pieces.clone();
        seen.sort_unstable();
        seen.dedup();
        for p in seen {
            *holders.entry(p).or_default() += 1;
        }
    }
    let shortened: Vec<String> = values
        .iter()
        .zip(&pieces)
        .map(|(v, ps)| {
            if v.chars().count() <= MAX_CHARS {
                (*v).to_owned()
            } else {
                rarest_pieces(ps, &holders).unwrap_or_else(|| head_and_tail(v))
            }
        })
        .collect();
    let mut sorted: Vec<&String> = shortened.iter().collect();
    sorted.sort_unstable();
    if sorted.windows(2).any(|w| w[0] == w[1]) {
        return values.iter().map(|v| head_and_tail(v)).collect();
    }
    shortened
}

/// One value at most [`MAX_CHARS`] characters: a longer one keeps its start and its end,
/// where values that share a long prefix (ARNs, paths, URLs) differ.
pub(crate) fn head_and_tail(s: &str) -> String {
    let n = s.chars().count();
    if n <= MAX_CHARS {
        return s.to_owned();
    }
    let head: String = s.chars().take(14).collect();
    let tail: String = s.chars().skip(n - 25).collect();
    format!("{head}…{tail}")
}

/// Whether `c` ends a piece: spaces and the punctuation that separates the parts of user
/// agents, URLs, paths, identifiers and lists.
fn is_separator(c: char) -> bool {
    c.is_whitespace() || matches!(c, ';' | ',' | '/' | ':' | '(' | ')' | '?' | '&' | '=' | '|' | '[' | ']')
}

/// `s` cut into pieces, each a run of other characters with the separators that follow it;
/// joined, the pieces are `s` again.
fn split_pieces(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut in_separators = false;
    for (i, c) in s.char_indices() {
        let sep = is_separator(c);
        if !sep && in_separators {
            out.push(&s[start..i]);
            start = i;
        }
        in_separators = sep;
    }
    if start < s.len() {
        out.push(&s[start..]);
    }
    out
}

/// The pieces kept of one value: rarest among the listed values first, and among equally
/// rare ones in reading order (the first piece that sets a value apart usually names it:
/// `Googlebot/`, `Android`, the last segment of a path). `None` when even the rarest piece
/// does not fit.
fn rarest_pieces(pieces: &[&str], holders: &HashMap<&str, usize>) -> Option<String> {
    if pieces.is_empty() || pieces.len() > MAX_PIECES {
        return None;
    }
    let mut order: Vec<usize> = (0..pieces.len()).collect();
    order.sort_by_key(|&i| (holders.get(pieces[i]).copied().unwrap_or(0), i));
    let mut keep = vec![false; pieces.len()];
    for (rank, &i) in order.iter().enumerate() {
        keep[i] = true;
        if shown_chars(pieces, &keep) > MAX_CHARS {
            keep[i] = false;
            if rank == 0 {
                return None;
            }
        }
    }
    let mut out = String::new();
    let mut gap = false;
    for (piece, kept) in pieces.iter().zip(keep) {
        if kept {
            if gap {
                out.push('…');
                gap = false;
            }
            out.push_str(piece);
        } else {
            gap = true;
        }
    }
    if gap {
        out.push('…');
    }
    Some(out)
}

/// How many characters the kept pieces take once rendered, with one `…` per gap.
fn shown_chars(pieces: &[&str], keep: &[bool]) -> usize {
    let mut n = 0;
    let mut gap = false;
    for (piece, &kept) in pieces.iter().zip(keep) {
        if kept {
            n += piece.chars().count() + usize::from(gap);
            gap = false;
        } else {
            gap = true;
        }
    }
    n + usize::from(gap)
}

#[cfg(test)]
mod tests {
    use super::*;

    const AGENTS: [&str; 4] = [
        "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
        "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
        "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
        "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
    ];

    #[test]
    fn values_that_differ_in_the_middle_keep_their_middles() {
        let short = shorten_together(&AGENTS);
        assert!(short[1].contains("Googlebot"), "{short:?}");
        assert!(short[2].contains("bingbot"), "{short:?}");
        assert!(short[0].contains("Android"), "{short:?}");
        assert!(short[3].contains("Firefox") || short[3].contains("X11"), "{short:?}");
        // The fixed head and tail lose the bot's name: what this module is for.
        assert!(!head_and_tail(AGENTS[1]).contains("Googlebot"));
        for s in &short {
            assert!(s.chars().count() <= MAX_CHARS, "{s}");
        }
    }

    #[test]
    fn values_that_differ_at_the_end_keep_their_ends() {
        let arns = [
            "arn:aws:iam::123456789012:instance-profile/checkout-staging",
            "arn:aws:iam::123456789012:instance-profile/notifier-dev",
        ];
        let short = shorten_together(&arns);
        assert!(short[0].ends_with("checkout-staging"), "{short:?}");
        assert!(short[1].ends_with("notifier-dev"), "{short:?}");
    }

    #[test]
    fn host_names_of_a_cloud_are_kept_whole() {
        let nodes = ["ip-10-0-48-221.eu-west-1.compute.internal", "ip-10-0-21-129.eu-west-1.compute.internal"];
        assert_eq!(shorten_together(&nodes), nodes.to_vec());
    }

    #[test]
    fn short_values_are_kept_whole() {
        assert_eq!(shorten_together(&["open", "closed"]), vec!["open", "closed"]);
        let mixed = shorten_together(&["open", AGENTS[1]]);
        assert_eq!(mixed[0], "open");
    }

    #[test]
    fn a_value_with_no_separator_keeps_its_head_and_tail() {
        let long = "x".repeat(100);
        let short = shorten_together(&[long.as_str(), "y"]);
        assert_eq!(short[0], head_and_tail(&long));
    }

    #[test]
    fn values_that_would_read_the_same_fall_back_to_head_and_tail() {
        // Two values whose rare pieces are equally long and shared pairwise could shorten
        // alike; whatever is chosen, two listed values never read the same.
        let a = format!("{} alpha {}", "common ".repeat(8), "end-one");
        let b = format!("{} alpha {}", "common ".repeat(8), "end-two");
        let short = shorten_together(&[a.as_str(), b.as_str()]);
        assert_ne!(short[0], short[1]);
    }

    #[test]
    fn a_huge_value_is_not_split() {
        let huge = format!("{} Googlebot {}", "a b ".repeat(5_000), "c d ".repeat(5_000));
        let short = shorten_together(&[huge.as_str(), "x"]);
        assert_eq!(short[0], head_and_tail(&huge));
    }

    proptest::proptest! {
        /// Whatever the values, each comes back at most `MAX_CHARS` characters long (plus
        /// the one `…` of a head and tail), and one that fits comes back unchanged.
        #[test]
        fn every_value_fits_and_short_ones_are_kept(values in proptest::collection::vec(".{0,120}", 0..8)) {
            let refs: Vec<&str> = values.iter().map(String::as_str).collect();
            let short = shorten_together(&refs);
            proptest::prop_assert_eq!(short.len(), values.len());
            for (v, s) in values.iter().zip(&short) {
                proptest::prop_assert!(s.chars().count() <= MAX_CHARS, "{:?} -> {:?}", v, s);
                if v.chars().count() <= MAX_CHARS {
                    proptest::prop_assert_eq!(s, v);
                }
            }
        }
    }

    #[test]
    fn pieces_join_back_to_the_value() {
        for v in AGENTS.iter().copied().chain(["", "a", "::", "a b", "é/ü;  ñ"]) {
            assert_eq!(split_pieces(v).concat(), v);
        }
    }
}
