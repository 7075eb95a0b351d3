//! What a string looks like at a glance: a link, a link to an image or carrying a token,
//! a random-looking id, and whether words stand in one. Every test here is made byte by
//! byte where the bytes it looks for are ASCII, since the record statistics ask them of
//! every value of a sample.

pub(crate) fn is_url(s: &str) -> bool {
    (s.starts_with("https://") || s.starts_with("http://")) && !has_whitespace(s)
}

/// Whether `s` holds whitespace; ASCII text (nearly every URL and id) is read byte by byte.
fn has_whitespace(s: &str) -> bool {
    if s.is_ascii() {
        // `char::is_whitespace` on ASCII: space, tab, line feed, vertical tab, form feed, return.
        s.bytes().any(|b| matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r'))
    } else {
        s.contains(char::is_whitespace)
    }
}

/// A URL whose path (or an encoded URL in its query) ends in an image file name.
pub(super) fn is_image(s: &str) -> bool {
    // The separators and extensions are ASCII, so bytes compared in any ASCII case answer as
    // the lower-cased text would.
    let path = &s.as_bytes()[..memchr::memchr2(b'?', b'#', s.as_bytes()).unwrap_or(s.len())];
    let ends_with = |text: &[u8], ext: &str| {
        text.len() >= ext.len() && text[text.len() - ext.len()..].eq_ignore_ascii_case(ext.as_bytes())
    };
    IMAGE_EXTENSIONS.iter().any(|ext| ends_with(path, ext) || ends_with(s.as_bytes(), ext))
}

/// The file name endings of images.
const IMAGE_EXTENSIONS: [&str; 7] = [".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".ico"];

/// A token long enough to be a signature or a content address, not an id a reader types.
const TOKEN_CHARS: usize = 32;

/// Whether the URL `s` holds, between its separators, a random-looking part of at least
/// [`TOKEN_CHARS`] characters: a proxied image, a signed or content-addressed download.
pub(crate) fn carries_token(s: &str) -> bool {
    // The separators are ASCII: splitting the bytes gives the parts splitting the characters
    // would, at character boundaries.
    let mut start = 0;
    for (i, &b) in s.as_bytes().iter().enumerate() {
        if matches!(b, b'/' | b'?' | b'&' | b'=' | b'#' | b';') {
            if i - start >= TOKEN_CHARS && is_opaque(&s[start..i]) {
                return true;
            }
            start = i + 1;
        }
    }
    s.len() - start >= TOKEN_CHARS && is_opaque(&s[start..])
}

/// A string that reads as random: no whitespace, at least 16 characters of letters and
/// digits (with `-`, `_`, `=`, `+`, `/`, `:`, `.`), and mostly not a word: digits mixed
/// with letters throughout, as in hashes, UUIDs, tokens and base64 ids, or letters whose
/// case changes every few letters, as a base64 id that happens to hold no digit does
/// (`WFR_kwLOJlZzZtNaqkB`; one GitHub node id in about fourteen).
pub(crate) fn is_opaque(s: &str) -> bool {
    if s.len() < 16 {
        return false;
    }
    // One pass: the bytes allowed (no whitespace among them), and what the tests below count.
    let (mut digits, mut letters, mut upper, mut lower, mut hexish, mut switches) = (0, 0, false, false, 0, 0);
    let mut last_was_digit = None;
    for b in s.bytes() {
        let digit = b.is_ascii_digit();
        if digit {
            digits += 1;
        } else if b.is_ascii_alphabetic() {
            letters += 1;
            upper |= b.is_ascii_uppercase();
            lower |= b.is_ascii_lowercase();
        } else if !b"-_=+/:.".contains(&b) {
            return false;
        }
        hexish += usize::from(b.is_ascii_hexdigit() || b == b'-');
        if b.is_ascii_alphanumeric() {
            // Switches between letters and digits: words and paths have few, random strings
            // many.
            switches += usize::from(last_was_digit.is_some_and(|d| d != digit));
            last_was_digit = Some(digit);
        }
    }
    if digits == 0 && letters >= 12 {
        return case_changes_often(s);
    }
    if digits == 0 || letters == 0 {
        return false;
    }
    (upper && lower) || hexish == s.len() || (digits * 8 >= s.len() && switches * 5 >= s.len())
}

/// Whether `s`'s letters switch case as random letters do (about every other pair of
/// neighbours): in two pairs in five at least, with capitals next to each other and lower
/// case before a capital twice or more each. A PascalCase name switches often too
/// (`NewReplicaSetAvailable`, seven times in 21 pairs), but its capitals stand alone; one
/// with an acronym (`HTTPServerErrorOnRead`, seven in 20) switches less.
fn case_changes_often(s: &str) -> bool {
    let letters: Vec<u8> = s.bytes().filter(u8::is_ascii_alphabetic).collect();
    let pairs = letters.windows(2);
    let changes = pairs.clone().filter(|w| w[0].is_ascii_uppercase() != w[1].is_ascii_uppercase()).count();
    let capitals_together = pairs.clone().filter(|w| w[0].is_ascii_uppercase() && w[1].is_ascii_uppercase()).count();
    let rising = pairs.filter(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase()).count();
    changes * 5 >= letters.len().saturating_sub(1) * 2 && capitals_together >= 2 && rising >= 2
}

/// Whether `s`, random-looking as a whole, holds two or more words between its separators:
/// a path or a name with random parts (`athena-results/0062fb81-….csv`,
/// `query-api-8bv5rskg7p-ddmj5`), which is cut or passed over only at the cost of what it
/// names, not a token with a type prefix (`cus_NffrFeUfNV2Hib`). A word here is three or
/// more lower-case letters, one of them past `f` so that no run of hexadecimal digits reads
/// as one; a file's extension does not count.
pub(crate) fn is_worded(s: &str) -> bool {
    let stem = match s.rsplit_once('.') {
        Some((stem, ext)) if ext.len() <= 5 && ext.bytes().all(|b| b.is_ascii_alphanumeric()) => stem,
        _ => s,
    };
    let word =
        |part: &&str| part.len() >= 3 && part.bytes().all(|b| b.is_ascii_lowercase()) && part.bytes().any(|b| b > b'f');
    stem.split(|c: char| !c.is_ascii_alphanumeric()).filter(word).nth(1).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The byte-level shortcut answers as the standard library's search does, on any
        /// text (ASCII or not, with any whitespace).
        #[test]
        fn the_whitespace_shortcut_agrees_with_the_standard_search(
            haystack in "[a-c/ \t\u{0b}\u{a0}\u{2003}é\n]{0,24}",
        ) {
            prop_assert_eq!(has_whitespace(&haystack), haystack.contains(char::is_whitespace));
        }

        /// The one-pass tests answer as the tests by characters they replaced, on ids,
        /// paths, URLs and text (upper case, digits, separators, whitespace, non-ASCII).
        #[test]
        fn one_pass_tests_answer_as_before(
            s in "[a-fA-Z0-9_/.=:?#&; \t\u{a0}é-]{0,24}|[a-zA-Z0-9]{12,40}|https://x[a-f0-9/?=.GIFPNpng]{0,50}",
        ) {
            prop_assert_eq!(is_opaque(&s), opaque_before(&s), "is_opaque {}", s);
            prop_assert_eq!(is_image(&s), image_before(&s), "is_image {}", s);
            prop_assert_eq!(carries_token(&s), token_before(&s), "carries_token {}", s);
        }
    }

    fn opaque_before(s: &str) -> bool {
        if s.len() < 16 || has_whitespace(s) {
            return false;
        }
        if !s.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_=+/:.".contains(&b)) {
            return false;
        }
        let digits = s.bytes().filter(u8::is_ascii_digit).count();
        let letters = s.bytes().filter(u8::is_ascii_alphabetic).count();
        if digits == 0 && letters >= 12 {
            return case_changes_often(s);
        }
        if digits == 0 || letters == 0 {
            return false;
        }
        let upper = s.bytes().any(|b| b.is_ascii_uppercase());
        let lower = s.bytes().any(|b| b.is_ascii_lowercase());
        let hex = s.bytes().filter(u8::is_ascii_hexdigit).count() + s.bytes().filter(|b| *b == b'-').count() == s.len();
        let alnum: Vec<u8> = s.bytes().filter(u8::is_ascii_alphanumeric).collect();
        let switches = alnum.windows(2).filter(|w| w[0].is_ascii_digit() != w[1].is_ascii_digit()).count();
        (upper && lower) || hex || (digits * 8 >= s.len() && switches * 5 >= s.len())
    }

    fn image_before(s: &str) -> bool {
        let lower = s.to_ascii_lowercase();
        let path = lower.split(['?', '#']).next().unwrap_or("");
        IMAGE_EXTENSIONS.iter().any(|ext| path.ends_with(ext) || lower.ends_with(ext))
    }

    fn token_before(s: &str) -> bool {
        s.split(['/', '?', '&', '=', '#', ';']).any(|part| part.len() >= TOKEN_CHARS && opaque_before(part))
    }

    #[test]
    fn images_and_tokens_are_found_in_links() {
        assert!(is_image("https://x.org/a/B.PNG?size=2"));
        assert!(is_image("https://proxy.x/p?u=https%3A%2F%2Fa.org%2Fc.jpeg"));
        assert!(!is_image("https://x.org/a/png"));
        assert!(carries_token("https://camo.x/4f2a9c01b7e3d5a8c6f0e1d2b3a49587/img"));
        assert!(carries_token("https://x.org/d?sig=4f2a9c01b7e3d5a8c6f0e1d2b3a49587"));
        assert!(!carries_token("https://x.org/releases/download/v1.2.3/tool.tar.gz"));
    }

    #[test]
    fn opaque_strings_are_told_from_words_and_names() {
        for s in [
            "MDU6SXNzdWUxMzQ3",
            "5b10a2844c20165700ede21g",
            "0f8fad5b-d9cb-469f-a165-70867728950e",
            "ch_3RzmKrkbKgrSqxrFuXsLvQFG",
            "WFR_kwLOJlZzZtNaqkB",
        ] {
            assert!(is_opaque(s), "{s}");
        }
        for s in [
            "octocat",
            "Search index crashes",
            "api-prod-7",
            "2025-12-31T10:00:00Z",
            "/v1/projects/members",
            "checkout.shop.svc",
            "getUserAccountSettings",
            "PaymentIntentSucceeded",
            "KUBE-SVC-ERIFXISQEP",
            "NewReplicaSetAvailable",
            "HTTPServerErrorOnRead",
        ] {
            assert!(!is_opaque(s), "{s}");
        }
    }
}
