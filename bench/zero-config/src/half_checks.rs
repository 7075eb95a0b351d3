//! The check every half of a written-blind part makes of its own shapes: at several seeds,
//! nine questions of every kind, every answer's strings in the raw result, a needle for
//! every lookup, head answers in the first fifth of the result and tail answers in its last
//! three tenths. The part-wide checks (`questions::tests`) cover both halves together.

use toolshape_fixtures::apis::{CATALOG, Generated, Split};

use crate::question::{Check, Kind, Question};
use crate::questions::questions;

/// Where in `raw` the strings a question needs are, as a share of its length: for a tail
/// question the earliest of their last occurrences, for any other the latest of their
/// first; `None` for counts, whose answer is not a string of the result, and when a
/// string is missing.
fn place(raw: &str, json: bool, q: &Question) -> Option<f64> {
    let must = match &q.check {
        Check::Together(must) => must.clone(),
        Check::Extreme { id, .. } => vec![id.clone()],
        Check::Count { .. } => return None,
    };
    let tail = q.kind == Kind::Tail;
    let mut at = if tail { raw.len() } else { 0 };
    for m in must {
        let written = if json { serde_json::to_string(&m).unwrap_or_default() } else { m.clone() };
        let written = written.trim_matches('"');
        let i = if tail {
            raw.rfind(&m).or_else(|| raw.rfind(written))
        } else {
            raw.find(&m).or_else(|| raw.find(written))
        }?;
        at = if tail { at.min(i) } else { at.max(i) };
    }
    Some(at as f64 / raw.len() as f64)
}

/// Asserts the half's check of the shapes `names`, all of `split`, at every seed of `seeds`.
pub(crate) fn check_half(names: &[&str], split: Split, seeds: &[u64]) {
    for &name in names {
        let shape = CATALOG.iter().find(|s| s.name == name).unwrap_or_else(|| panic!("{name} is not in the catalog"));
        assert_eq!(shape.split, split);
        for &seed in seeds {
            let result = shape.generate(seed);
            let raw = String::from_utf8_lossy(&result.bytes()).into_owned();
            let json = matches!(result, Generated::Json(_));
            let qs = questions(shape, &result);
            for kind in Kind::ALL {
                let n = qs.iter().filter(|q| q.kind == kind).count();
                assert!(n >= 9, "{name} at seed {seed} asks {n} {} questions", kind.name());
            }
            for q in &qs {
                let where_ = place(&raw, json, q);
                if !matches!(q.check, Check::Count { .. }) {
                    assert!(where_.is_some(), "{name} at seed {seed}: {} needs {:?}", q.text, q.check);
                }
                if q.kind == Kind::Lookup {
                    let needle = q.needle.as_deref().unwrap_or_default();
                    assert!(
                        !needle.is_empty() && raw.contains(needle),
                        "{name}: {} has no needle in the result",
                        q.text
                    );
                }
                // Head questions are about the first part of the result, tail questions
                // about its last part.
                match (q.kind, where_) {
                    (Kind::Head, Some(p)) => {
                        assert!(p < 0.2, "{name} at seed {seed}: {} is answered at {p:.2}", q.text)
                    }
                    (Kind::Tail, Some(p)) => {
                        assert!(p > 0.7, "{name} at seed {seed}: {} is answered at {p:.2}", q.text)
                    }
                    _ => {}
                }
            }
        }
    }
}
