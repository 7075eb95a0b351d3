//! A URL or path with the record's other values taken out (`…/issues/{}`): what tells a
//! link made from the record from one of its own.
//!
//! Most links hold one of their record's values (a user's links their login, an issue's its
//! number), so the replacing costs as much as the searching: both are done here by `memchr`
//! on the value's first byte, since `str::replace` and `str::contains` set up a two-way
//! searcher on every call, which costs more than the short strings compared here.

use std::borrow::Cow;

/// `s` with every occurrence of the record's other values (given longest first) replaced
/// by `{}`.
pub(super) fn template<'s>(s: &'s str, scalars_longest_first: &[Cow<'_, str>]) -> Cow<'s, str> {
    let mut out = Cow::Borrowed(s);
    for v in scalars_longest_first {
        let v = v.as_ref();
        if v != s
            && v.len() <= out.len()
            && let Some(at) = find(&out, v, 0)
        {
            out = Cow::Owned(replace_from(&out, v, at));
        }
    }
    out
}

/// Where `needle` first occurs in `haystack` at or after `from`.
fn find(haystack: &str, needle: &str, from: usize) -> Option<usize> {
    let (h, n) = (haystack.as_bytes(), needle.as_bytes());
    let Some(&first) = n.first() else { return Some(from) };
    memchr::memchr_iter(first, h.get(from..)?).map(|at| from + at).find(|&at| h.get(at..at + n.len()) == Some(n))
}

/// `haystack` with every occurrence of `needle`, the first at `first`, replaced by `{}`, as
/// `str::replace` replaces them: left to right, none overlapping the one before.
fn replace_from(haystack: &str, needle: &str, first: usize) -> String {
    if needle.is_empty() {
        // Between every character (no value is empty; kept as the standard library does).
        return haystack.replace(needle, "{}");
    }
    let mut out = String::with_capacity(haystack.len());
    let mut done = 0;
    let mut next = Some(first);
    while let Some(at) = next {
        out.push_str(&haystack[done..at]);
        out.push_str("{}");
        done = at + needle.len();
        next = find(haystack, needle, done);
    }
    out.push_str(&haystack[done..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The template as the standard library's searches make it.
    fn template_by_the_standard_searches<'s>(s: &'s str, scalars: &[Cow<'_, str>]) -> Cow<'s, str> {
        let mut out = Cow::Borrowed(s);
        for v in scalars {
            let v = v.as_ref();
            if v != s && v.len() <= out.len() && out.contains(v) {
                out = Cow::Owned(out.replace(v, "{}"));
            }
        }
        out
    }

    proptest! {
        /// The byte-level search and replacement answer as the standard library's do, on
        /// any text, with needles that overlap themselves (`aa` in `aaa`).
        #[test]
        fn the_byte_searches_agree_with_the_standard_ones(
            haystack in "[a-c/ \t\u{a0}é\n]{0,24}",
            needle in "[a-c/é]{1,4}",
        ) {
            let found = find(&haystack, &needle, 0);
            prop_assert_eq!(found, haystack.find(needle.as_str()));
            if let Some(at) = found {
                prop_assert_eq!(replace_from(&haystack, &needle, at), haystack.replace(needle.as_str(), "{}"));
            }
        }

        /// Templates are made as by the standard searches, with values that are in the
        /// text, next to each other, made of `{}`, or one byte long.
        #[test]
        fn templates_are_made_as_by_the_standard_searches(
            s in "[ab/{}é1-3]{0,30}",
            mut scalars in proptest::collection::vec("[ab/{}é1-3]{0,6}", 0..12),
        ) {
            scalars.sort_by_key(|v| std::cmp::Reverse(v.len()));
            let scalars: Vec<Cow<'_, str>> = scalars.into_iter().map(Cow::Owned).collect();
            prop_assert_eq!(template(&s, &scalars), template_by_the_standard_searches(&s, &scalars));
        }
    }

    #[test]
    fn values_of_the_record_are_taken_out_longest_first() {
        let scalars: Vec<Cow<'_, str>> = ["octo-org", "206359", "12"].map(Cow::Borrowed).to_vec();
        assert_eq!(template("https://x.com/octo-org/issues/206359", &scalars), "https://x.com/{}/issues/{}");
        assert_eq!(template("https://x.com/users/9", &scalars), "https://x.com/users/9");
    }
}
