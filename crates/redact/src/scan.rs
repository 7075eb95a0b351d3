//! The prefilter: one cheap pass over a text that finds every place where a built-in detector
//! could match, so that the precise detectors (regexes, check digits, context checks) run only
//! on small windows around those places instead of over the whole text.
//!
//! Each trigger is a *necessary* condition of a finding the detector accepts, so skipping text
//! without triggers loses nothing:
//!
//! | detector | trigger |
//! |---|---|
//! | prefix-anchored tokens | their literal prefix (`ghp_`, `AKIA`, `eyJ`, …) |
//! | `private_key` | `-----BEGIN ` anywhere (the block is then searched for in the whole text) |
//! | `email` | `@` |
//! | `url_credentials` | `@` preceded, back to the nearest `/?#@`, whitespace or quote, by a `:`, that `/` ending `://` |
//! | `aws_secret_key` | `secret` in any case (also `ſecret`, which `(?i)` matches) |
//! | `secret_assignment` | a word of a secret name (`pass`, `token`, `key`, …) in any case |
//! | `phone` | `+` then a digit; a run of exactly 11 digits; a 4-digit run after one separator after a digit |
//! | `payment_card` | a run of 13 or more digits joined by single spaces or dashes |
//! | `iban` | two capital letters then two or more digits |
//!
//! The searches are a literal regex (the engine's SIMD literal search), a search for `@`, a
//! search for lowercase words in a small reused lowercased copy of
//! each chunk, and a scan over digit runs that skips eight bytes at a time where there are no
//! digits. A text with nothing to find costs these scans and nothing else.

use std::sync::LazyLock;

use regex::bytes::Regex as BytesRegex;

use crate::kinds::Kind;

/// Literal prefixes of the prefix-anchored tokens: every match of the detector's regex starts
/// with one of its literals (`xox` stands for all of Slack's `xox?-`).
///
/// The search engine looks first at the first three bytes of each literal, so a literal whose
/// start is common (`https://hooks.slack.com/`, `github_pat_`) is searched for by its rarer
/// rest, and what must stand before it is checked after (see [`SPLIT_LITERALS`]); Stripe's
/// six prefixes are searched for as two. At most 32 literals keep the fastest searcher.
const TOKEN_LITERALS: &[(&str, &[Kind])] = &[
    ("eyJ", &[Kind::Jwt]),
    ("A3T", &[Kind::AwsAccessKey]),
    ("AKIA", &[Kind::AwsAccessKey]),
    ("ASIA", &[Kind::AwsAccessKey]),
    ("AGPA", &[Kind::AwsAccessKey]),
    ("AIDA", &[Kind::AwsAccessKey]),
    ("AROA", &[Kind::AwsAccessKey]),
    ("AIPA", &[Kind::AwsAccessKey]),
    ("ANPA", &[Kind::AwsAccessKey]),
    ("ANVA", &[Kind::AwsAccessKey]),
    ("ABIA", &[Kind::AwsAccessKey]),
    ("ACCA", &[Kind::AwsAccessKey]),
    ("ghp_", &[Kind::GithubToken]),
    ("gho_", &[Kind::GithubToken]),
    ("ghu_", &[Kind::GithubToken]),
    ("ghs_", &[Kind::GithubToken]),
    ("ghr_", &[Kind::GithubToken]),
    ("_pat_", &[Kind::GithubToken]),
    ("glpat-", &[Kind::GitlabToken]),
    ("glptt-", &[Kind::GitlabToken]),
    ("gldt-", &[Kind::GitlabToken]),
    ("glrt-", &[Kind::GitlabToken]),
    ("glcbt-", &[Kind::GitlabToken]),
    ("glsoat-", &[Kind::GitlabToken]),
    ("xox", &[Kind::SlackToken]),
    ("hooks.slack.com/", &[Kind::SlackWebhook]),
    ("k_live_", &[Kind::StripeKey]),
    ("k_test_", &[Kind::StripeKey]),
    ("whsec_", &[Kind::StripeKey]),
    ("sk-", &[Kind::OpenaiKey, Kind::AnthropicKey]),
    ("AIza", &[Kind::GoogleApiKey]),
    ("ya29.", &[Kind::GoogleOauthToken]),
];

/// Literals of [`TOKEN_LITERALS`] searched for by their rest: the searched text and what may
/// stand right before it, where the match starts (all of one length).
const SPLIT_LITERALS: &[(&str, &[&str])] = &[
    ("_pat_", &["github"]),
    ("hooks.slack.com/", &["https://"]),
    ("k_live_", &["s", "r", "p"]),
    ("k_test_", &["s", "r", "p"]),
];

/// Where every private-key block starts.
const PEM_HEADER: &str = "-----BEGIN ";

/// Lowercase words, one of which every secret-like name contains (see `fields.rs`), plus
/// `ſecret`: the `(?i)` of the `aws_secret_key` regex matches `ſ` (long s) for `s`.
const WORDS: &[&str] =
    &["pass", "pwd", "secret", "\u{17f}ecret", "token", "key", "auth", "cookie", "session", "credential"];

/// Whether `name` holds one of the secret-name [`WORDS`] as written, in any ASCII case. Every
/// secret-like name does, except spellings that split the word (`to_ken`, `p_w_d`), which
/// `classify_key` joins back together.
pub(crate) fn has_secret_word(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    WORDS.iter().any(|word| lower.contains(word))
}

/// Bytes looked at per lowercased chunk, and how far a chunk reaches into the next one so that
/// a word across the boundary is still seen whole.
const CHUNK: usize = 16 * 1024;
const CHUNK_OVERLAP: usize = 16;

fn alternation(literals: impl Iterator<Item = &'static str>) -> Option<BytesRegex> {
    let pattern: Vec<String> = literals.map(regex::escape).collect();
    BytesRegex::new(&pattern.join("|")).ok()
}

pub(crate) static TOKENS: LazyLock<Option<BytesRegex>> =
    LazyLock::new(|| alternation(TOKEN_LITERALS.iter().map(|(literal, _)| *literal)));
pub(crate) static WORDS_RE: LazyLock<Option<BytesRegex>> = LazyLock::new(|| alternation(WORDS.iter().copied()));
pub(crate) static AT: LazyLock<Option<BytesRegex>> = LazyLock::new(|| BytesRegex::new("@").ok());
pub(crate) static PEM: LazyLock<Option<BytesRegex>> =
    LazyLock::new(|| BytesRegex::new(&regex::escape(PEM_HEADER)).ok());

/// Which searches a redactor needs, from its enabled detectors.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Needs {
    tokens: bool,
    pem: bool,
    at: bool,
    words: bool,
    digits: bool,
}

impl Needs {
    pub(crate) fn of(kinds: &[Kind]) -> Needs {
        let mut needs = Needs::default();
        for kind in kinds {
            match kind {
                Kind::Email | Kind::UrlCredentials => needs.at = true,
                Kind::Phone | Kind::PaymentCard | Kind::Iban => needs.digits = true,
                Kind::AwsSecretKey | Kind::SecretAssignment => needs.words = true,
                Kind::PrivateKey => needs.pem = true,
                Kind::SecretField => {}
                _ => needs.tokens = true,
            }
        }
        needs
    }
}

/// Where detectors could match in one text. Every list is sorted by position.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Candidates {
    /// Literal token prefixes: position and the literal's index in [`TOKEN_LITERALS`].
    tokens: Vec<(usize, usize)>,
    /// Whether a private-key header occurs.
    pub(crate) pem: bool,
    /// `@` positions.
    pub(crate) at: Vec<usize>,
    /// Secret-name words: position and whether the word is `secret` (or `ſecret`).
    pub(crate) words: Vec<(usize, bool)>,
    /// Starts of digit patterns only a phone number could complete.
    pub(crate) phones: Vec<usize>,
    /// Runs of 13 or more digits joined by single spaces or dashes (what a card can be cut
    /// from): start and end.
    pub(crate) cards: Vec<(usize, usize)>,
    /// Starts of `[A-Z]{2}[0-9]{2}`, where an IBAN can begin.
    pub(crate) ibans: Vec<usize>,
}

impl Candidates {
    /// Runs the searches `needs` asks for over `text`.
    pub(crate) fn of(text: &str, needs: Needs) -> Candidates {
        let bytes = text.as_bytes();
        let mut c = Candidates::default();
        if bytes.len() <= SHORT {
            scan_short(bytes, needs, &mut c);
        } else {
            search_long(bytes, needs, &mut c);
        }
        if needs.digits {
            scan_digits(bytes, &mut c);
        }
        c
    }

    /// Whether no detector could match: every built-in detector starts from one of these
    /// places, so a text without any (most short values) needs no detector run.
    pub(crate) fn is_empty(&self) -> bool {
        // Named one by one, so that a new kind of place cannot be left out of this test.
        let Candidates { tokens, pem, at, words, phones, cards, ibans } = self;
        !pem && tokens.is_empty()
            && at.is_empty()
            && words.is_empty()
            && phones.is_empty()
            && cards.is_empty()
            && ibans.is_empty()
    }

    /// Positions of literal prefixes of `kind`'s tokens.
    pub(crate) fn tokens_of(&self, kind: Kind) -> impl Iterator<Item = usize> + '_ {
        self.tokens.iter().filter_map(move |&(pos, index)| {
            TOKEN_LITERALS.get(index).is_some_and(|(_, kinds)| kinds.contains(&kind)).then_some(pos)
        })
    }
}

/// The searches of [`Candidates::of`] but digits' over a text longer than [`SHORT`]: literal
/// regexes, whose SIMD searches pay for setting them up over a long text.
fn search_long(bytes: &[u8], needs: Needs, c: &mut Candidates) {
    if needs.tokens
        && let Some(re) = TOKENS.as_ref()
    {
        // Overlapping hits too: in `sk-----BEGIN …` the header starts inside `sk-`.
        let mut pos = 0;
        while let Some(m) = re.find_at(bytes, pos) {
            pos = m.start() + 1;
            if let Some(index) = TOKEN_LITERALS.iter().position(|(literal, _)| literal.as_bytes() == m.as_bytes()) {
                push_token(bytes, m.start(), index, &mut c.tokens);
            }
        }
    }
    if needs.pem {
        c.pem = PEM.as_ref().is_some_and(|re| re.is_match(bytes));
    }
    if needs.at
        && let Some(re) = AT.as_ref()
    {
        c.at.extend(re.find_iter(bytes).map(|m| m.start()));
    }
    if needs.words {
        find_words(bytes, &mut c.words);
    }
}

/// Notes the literal `index` of [`TOKEN_LITERALS`] found at `at`, from where its match starts
/// (before it, for the literals searched for by their rest), unless what must stand before it
/// does not.
fn push_token(bytes: &[u8], at: usize, index: usize, tokens: &mut Vec<(usize, usize)>) {
    let mut start = at;
    let literal = TOKEN_LITERALS[index].0;
    if let Some((_, befores)) = SPLIT_LITERALS.iter().find(|(rest, _)| *rest == literal) {
        let before = befores.iter().find(|before| {
            start.checked_sub(before.len()).and_then(|s| bytes.get(s..start)) == Some(before.as_bytes())
        });
        match before {
            Some(before) => start -= before.len(),
            None => return,
        }
    }
    tokens.push((start, index));
}

/// Texts up to this many bytes are searched by [`scan_short`]: most values of a record (ids,
/// names, links, dates), where setting up four searches costs more than reading the bytes.
const SHORT: usize = 128;

/// The searches of [`Candidates::of`] but digits', in one pass over a short text, finding what
/// the literal searches find. Most places start nothing: one look in [`STARTS`] at the pair of
/// bytes there passes over them; only where a pair starts an `@`, a private-key header, a
/// token literal or a secret word (in any ASCII case) are the literals compared.
fn scan_short(bytes: &[u8], needs: Needs, c: &mut Candidates) {
    for (i, pair) in bytes.windows(2).enumerate() {
        let (b, next) = (pair[0], pair[1]);
        if !STARTS.has(b, next) {
            continue;
        }
        // Neither starts a literal or a word.
        if b == b'@' {
            if needs.at {
                c.at.push(i);
            }
            continue;
        }
        if b == b'-' {
            if needs.pem && !c.pem {
                c.pem = bytes[i..].starts_with(PEM_HEADER.as_bytes());
            }
            continue;
        }
        let rest = &bytes[i..];
        if needs.tokens && TOKEN_PAIRS.has(b, next) {
            // No literal is a prefix of another: at most one starts here.
            let starts_here =
                |literal: &str| literal.as_bytes()[1] == next && starts_with(rest, literal.as_bytes(), false);
            if let Some(index) = TOKEN_LITERALS.iter().position(|(literal, _)| starts_here(literal)) {
                push_token(bytes, i, index, &mut c.tokens);
            }
        }
        if needs.words && WORD_PAIRS.has(b.to_ascii_lowercase(), next.to_ascii_lowercase()) {
            // The words are lower case (or not ASCII), and none is a prefix of another.
            let lower = next.to_ascii_lowercase();
            if let Some(word) =
                WORDS.iter().find(|word| word.as_bytes()[1] == lower && starts_with(rest, word.as_bytes(), true))
            {
                c.words.push((i, *word == "secret" || *word == "\u{17f}ecret"));
            }
        }
    }
    if bytes.last() == Some(&b'@') && needs.at {
        c.at.push(bytes.len() - 1);
    }
}

/// Whether `text` starts with `literal` (in any ASCII case when `any_case`, for a literal
/// without capitals), compared byte by byte: a literal is a few bytes long, shorter than a
/// call to `memcmp` costs.
fn starts_with(text: &[u8], literal: &[u8], any_case: bool) -> bool {
    text.len() >= literal.len()
        && text.iter().zip(literal).all(|(&t, &l)| if any_case { t.to_ascii_lowercase() == l } else { t == l })
}

/// A set of byte pairs: one bit for each of the 65,536.
struct Pairs([u64; 1024]);

impl Pairs {
    /// The first two bytes of each of `texts` (each two bytes long or more).
    const fn starts_of(texts: &[&str]) -> Pairs {
        let mut bits = [0u64; 1024];
        let mut i = 0;
        while i < texts.len() {
            let t = texts[i].as_bytes();
            let pair = (t[0] as usize) << 8 | t[1] as usize;
            bits[pair >> 6] |= 1 << (pair & 63);
            i += 1;
        }
        Pairs(bits)
    }

    fn has(&self, a: u8, b: u8) -> bool {
        let pair = usize::from(a) << 8 | usize::from(b);
        self.0[pair >> 6] & (1 << (pair & 63)) != 0
    }
}

/// The first two bytes of every token literal.
static TOKEN_PAIRS: Pairs = Pairs::starts_of(&{
    let mut literals = [""; TOKEN_LITERALS.len()];
    let mut i = 0;
    while i < literals.len() {
        literals[i] = TOKEN_LITERALS[i].0;
        i += 1;
    }
    literals
});

/// The first two bytes of every secret word (lower case).
static WORD_PAIRS: Pairs = Pairs::starts_of(WORDS);

/// Every pair of bytes [`scan_short`] looks at: an `@` and any byte, the private-key header's
/// `--`, and the first two bytes of the token literals and of the secret words, these in every
/// ASCII case.
static STARTS: Pairs = {
    let mut bits = TOKEN_PAIRS.0;
    let mut k = 0;
    while k < 256 {
        let pair = (b'@' as usize) << 8 | k;
        bits[pair >> 6] |= 1 << (pair & 63);
        k += 1;
    }
    let dashes = (b'-' as usize) << 8 | b'-' as usize;
    bits[dashes >> 6] |= 1 << (dashes & 63);
    let mut k = 0;
    while k < WORDS.len() {
        let w = WORDS[k].as_bytes();
        let cases = [
            (w[0], w[1]),
            (w[0].to_ascii_uppercase(), w[1]),
            (w[0], w[1].to_ascii_uppercase()),
            (w[0].to_ascii_uppercase(), w[1].to_ascii_uppercase()),
        ];
        let mut j = 0;
        while j < cases.len() {
            let pair = (cases[j].0 as usize) << 8 | cases[j].1 as usize;
            bits[pair >> 6] |= 1 << (pair & 63);
            j += 1;
        }
        k += 1;
    }
    Pairs(bits)
};

/// Every occurrence of a [`WORDS`] word in any ASCII case, overlapping ones included (so that
/// `passecret` still yields its `secret`). Chunks are lowercased into a small reused buffer.
fn find_words(bytes: &[u8], out: &mut Vec<(usize, bool)>) {
    let Some(re) = WORDS_RE.as_ref() else {
        return;
    };
    let mut buf = Vec::with_capacity(CHUNK + CHUNK_OVERLAP);
    let mut start = 0;
    while start < bytes.len() {
        let end = start.saturating_add(CHUNK).min(bytes.len());
        let reach = end.saturating_add(CHUNK_OVERLAP).min(bytes.len());
        buf.clear();
        buf.extend(bytes[start..reach].iter().map(u8::to_ascii_lowercase));
        let mut pos = 0;
        while let Some(m) = re.find_at(&buf, pos) {
            if start + m.start() >= end {
                break;
            }
            let word = m.as_bytes();
            out.push((start + m.start(), word == b"secret" || word == "\u{17f}ecret".as_bytes()));
            pos = m.start() + 1;
        }
        start = end;
    }
}

/// A mask with bit 7 set in every byte of `word` that is an ASCII digit. Exact per byte: no
/// carry crosses from one byte into the next.
fn digit_mask(word: u64) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let t = word ^ 0x3030_3030_3030_3030;
    // Bit 7 of a byte of `y` is set when the byte of `t`, bit 7 cleared, is 10 or more.
    let y = (t & LOW7) + 0x7676_7676_7676_7676;
    !(y | t) & HIGH
}

/// The digit mask of the eight bytes at `i`, if there are eight.
fn mask_at(bytes: &[u8], i: usize) -> Option<u64> {
    let chunk = bytes.get(i..i.checked_add(8)?)?;
    Some(digit_mask(u64::from_le_bytes(<[u8; 8]>::try_from(chunk).ok()?)))
}

/// The first ASCII digit at or after `i`.
fn next_digit(bytes: &[u8], mut i: usize) -> Option<usize> {
    while let Some(mask) = mask_at(bytes, i) {
        if mask != 0 {
            return Some(i + (mask.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    bytes.get(i..)?.iter().position(u8::is_ascii_digit).map(|p| i + p)
}

/// One pass over the maximal runs of ASCII digits, collecting the phone, card and IBAN
/// triggers (see the module docs for why each is necessary).
fn scan_digits(bytes: &[u8], c: &mut Candidates) {
    // End of the previous digit run, if any.
    let mut prev_end: Option<usize> = None;
    let mut card_start = 0;
    let mut card_digits = 0;
    let mut i = 0;
    while let Some(start) = next_digit(bytes, i) {
        let mut end = start + 1;
        while bytes.get(end).is_some_and(u8::is_ascii_digit) {
            end += 1;
        }
        let len = end - start;
        let before = if start > 0 { bytes[start - 1] } else { 0 };
        // Exactly one byte (necessarily not a digit) between this run and the previous one.
        let one_apart = prev_end.is_some_and(|e| e + 1 == start);

        if one_apart && matches!(before, b' ' | b'-') {
            card_digits += len;
        } else {
            if card_digits >= 13
                && let Some(e) = prev_end
            {
                c.cards.push((card_start, e));
            }
            card_start = start;
            card_digits = len;
        }

        if before == b'+' {
            c.phones.push(start - 1);
        } else if len == 11 || (len == 4 && one_apart && matches!(before, b' ' | b'.' | b'-')) {
            c.phones.push(start);
        }

        if len >= 2 && start >= 2 && bytes[start - 1].is_ascii_uppercase() && bytes[start - 2].is_ascii_uppercase() {
            c.ibans.push(start - 2);
        }

        prev_end = Some(end);
        i = end;
    }
    if card_digits >= 13
        && let Some(e) = prev_end
    {
        c.cards.push((card_start, e));
    }
}

/// The maximal run of bytes for which `member` holds that contains `pos` (which must be a
/// member itself, or the run is empty there).
pub(crate) fn run_around(bytes: &[u8], pos: usize, member: impl Fn(u8) -> bool) -> (usize, usize) {
    let mut start = pos.min(bytes.len());
    while start > 0 && member(bytes[start - 1]) {
        start -= 1;
    }
    (start, run_end(bytes, pos, member))
}

/// The end of the run of bytes for which `member` holds starting at `pos`.
pub(crate) fn run_end(bytes: &[u8], pos: usize, member: impl Fn(u8) -> bool) -> usize {
    let mut end = pos.min(bytes.len());
    while end < bytes.len() && member(bytes[end]) {
        end += 1;
    }
    end
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Pieces a text is made of: every token literal and what stands before the split ones,
    /// secret words in several cases (and with the long s), the header, `@`, digits and
    /// separators, and other text.
    fn piece() -> impl Strategy<Value = String> {
        let mut pieces: Vec<String> = TOKEN_LITERALS.iter().map(|(l, _)| (*l).to_owned()).collect();
        pieces.extend(
            ["github", "https://", "s", "r", "p", "-----BEGIN ", "--", "@", " ", "x", "é", "ſ", "1"].map(String::from),
        );
        for word in WORDS {
            pieces.push((*word).to_owned());
            pieces.push(word.to_ascii_uppercase());
            let mut chars: Vec<char> = word.chars().collect();
            chars[0] = chars[0].to_ascii_uppercase();
            pieces.push(chars.into_iter().collect());
        }
        prop_oneof![proptest::sample::select(pieces), "[a-zA-Z0-9_./:@ -]{1,3}"]
    }

    proptest! {
        /// The one pass over a short text finds what the literal searches find.
        #[test]
        fn the_short_scan_finds_what_the_searches_find(pieces in proptest::collection::vec(piece(), 0..24)) {
            let text: String = pieces.concat();
            let all = Needs::of(&Kind::ALL);
            let (mut short, mut long) = (Candidates::default(), Candidates::default());
            scan_short(text.as_bytes(), all, &mut short);
            search_long(text.as_bytes(), all, &mut long);
            prop_assert_eq!(short, long, "{:?}", text);
        }
    }

    #[test]
    fn digit_mask_is_exact() {
        for b in 0..=255u8 {
            let word = u64::from_le_bytes([b'x', b, b'9', 0xff, b'0', b'/', b':', b]);
            let mask = digit_mask(word);
            for (i, byte) in word.to_le_bytes().iter().enumerate() {
                assert_eq!(mask >> (i * 8 + 7) & 1 == 1, byte.is_ascii_digit(), "{byte:#x} at {i}");
            }
        }
        assert_eq!(next_digit(b"abcdefghijklmnopq7", 0), Some(17));
        assert_eq!(next_digit(b"abcdefgh", 0), None);
        assert_eq!(next_digit(b"1", 1), None);
    }

    #[test]
    fn words_in_any_case_across_chunks() {
        let mut text = "x".repeat(CHUNK - 3);
        text.push_str("PassWord TOKEN ſECRET passecret");
        let mut out = Vec::new();
        find_words(text.as_bytes(), &mut out);
        let found: Vec<(String, bool)> = out.iter().map(|&(p, s)| (text[p..].chars().take(4).collect(), s)).collect();
        let expected = [("Pass", false), ("TOKE", false), ("ſECR", true), ("pass", false), ("secr", true)];
        assert_eq!(found, expected.map(|(w, s)| (w.to_owned(), s)));
    }

    #[test]
    fn digit_triggers() {
        let c = Candidates::of(
            "a +44 20, 13800000000, 415-555-0100, 4111 1111 1111 1111, DE89 3704, 2024-01-02 10.0.0.1",
            Needs { digits: true, ..Needs::default() },
        );
        // Card groups also look like the tail of a spaced phone number; harmless.
        assert_eq!(c.phones, [2, 10, 31, 42, 47, 52, 63]);
        assert_eq!(c.cards, [(37, 56)]);
        assert_eq!(c.ibans, [58]);
    }

    #[test]
    fn no_literal_is_a_prefix_of_another() {
        // Overlapping search reports one literal per start, so two literals must never
        // match at the same place.
        for (i, (a, _)) in TOKEN_LITERALS.iter().enumerate() {
            for (j, (b, _)) in TOKEN_LITERALS.iter().enumerate() {
                assert!(i == j || !b.starts_with(a), "{a} {b}");
            }
        }
        let c = Candidates::of("sk-----BEGIN PRIVATE KEY-----", Needs::of(&Kind::ALL));
        assert!(c.pem);
        assert_eq!(c.tokens_of(Kind::OpenaiKey).collect::<Vec<_>>(), [0]);
        for (rest, befores) in SPLIT_LITERALS {
            assert!(TOKEN_LITERALS.iter().any(|(literal, _)| literal == rest), "{rest}");
            for before in *befores {
                assert_eq!(before.len(), befores[0].len());
                let text = format!("x{rest} {before}{rest}");
                let c = Candidates::of(&text, Needs { tokens: true, ..Needs::default() });
                assert_eq!(c.tokens.iter().map(|t| t.0).collect::<Vec<_>>(), [rest.len() + 2], "{rest}");
            }
        }
    }

    #[test]
    fn every_literal_compiles_and_maps_to_its_kinds() {
        assert!(TOKENS.is_some() && WORDS_RE.is_some() && AT.is_some() && PEM.is_some());
        assert!(TOKEN_LITERALS.len() <= 32, "more literals switch to a slower searcher");
        let text = "hooks.slack.com/ https://hooks.slack.com/services/T0";
        let c = Candidates::of(text, Needs { tokens: true, ..Needs::default() });
        assert_eq!(c.tokens_of(Kind::SlackWebhook).collect::<Vec<_>>(), [17]);
        let c = Candidates::of("x sk-abc eyJ ghp_ sk_live_ xoxb-", Needs { tokens: true, ..Needs::default() });
        assert_eq!(c.tokens_of(Kind::AnthropicKey).collect::<Vec<_>>(), [2]);
        assert_eq!(c.tokens_of(Kind::OpenaiKey).collect::<Vec<_>>(), [2]);
        assert_eq!(c.tokens_of(Kind::Jwt).collect::<Vec<_>>(), [9]);
        assert_eq!(c.tokens_of(Kind::GithubToken).collect::<Vec<_>>(), [13]);
        assert_eq!(c.tokens_of(Kind::StripeKey).collect::<Vec<_>>(), [18]);
        assert_eq!(c.tokens_of(Kind::SlackToken).collect::<Vec<_>>(), [27]);
    }
}
