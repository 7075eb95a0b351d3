//! Tests of the detectors: the windows of candidates find what a search of the whole text
//! finds, for every detector, on fragments made to be near misses.

use proptest::prelude::*;

use super::*;
use crate::scan::Needs;

#[test]
fn every_pattern_compiles() {
    let all: [&LazyRegex; 17] = [
        &EMAIL,
        &CARD_RUN,
        &IBAN_START,
        &JWT,
        &URL_CREDENTIALS,
        &AWS_ACCESS_KEY,
        &AWS_SECRET_KEY,
        &GITHUB_TOKEN,
        &GITLAB_TOKEN,
        &SLACK_TOKEN,
        &SLACK_WEBHOOK,
        &STRIPE_KEY,
        &OPENAI_KEY,
        &ANTHROPIC_KEY,
        &GOOGLE_API_KEY,
        &GOOGLE_OAUTH_TOKEN,
        &crate::pem::BEGIN,
    ];
    for re in all {
        assert!(re.is_some());
    }
    for re in crate::phone::ALL {
        assert!(re.is_some());
    }
}

#[test]
fn every_text_kind_has_a_detector() {
    for kind in Kind::ALL {
        let handled = matches!(
            kind,
            Kind::Email
                | Kind::Phone
                | Kind::PaymentCard
                | Kind::Iban
                | Kind::PrivateKey
                | Kind::UrlCredentials
                | Kind::AwsSecretKey
                | Kind::SecretAssignment
                | Kind::SecretField
        ) || token_rule(kind).is_some();
        assert!(handled, "{kind:?}");
    }
    let mut out = Vec::new();
    let candidates = Candidates::of("password=x", Needs::of(&Kind::ALL));
    find(Kind::SecretField, "password=x", &candidates, &mut out);
    assert!(out.is_empty());
}

#[test]
fn card_windows_inside_a_run() {
    let text = "ref 512 4111 1111 1111 1111 end";
    let mut out = Vec::new();
    find_cards_in_run(text, 4, 27, &mut out);
    assert!(out.iter().any(|f| &text[f.start..f.end] == "4111 1111 1111 1111"));
}

#[test]
fn a_tables_numbers_one_space_apart_are_no_card() {
    // A `vmstat -w` row: `bi bo in cs` of 4, 5, 5 and 5 digits, Luhn-valid by chance.
    let row =
        "   6    0      6446870      2954208       727066    159614572    0    0  6945 21764 47897 80610  19   5  75";
    let mut out = Vec::new();
    for m in CARD_RUN.as_ref().into_iter().flat_map(|re| re.find_iter(row)) {
        find_cards_in_run(row, m.start(), m.end(), &mut out);
    }
    assert!(out.is_empty(), "{:?}", out.iter().map(|f| &row[f.start..f.end]).collect::<Vec<_>>());
    // The layouts cards are printed in are still found.
    for (card, sizes) in [
        ("4111 1111 1111 1111", &[4, 4, 4, 4][..]),
        ("3782 822463 10005", &[4, 6, 5]),
        ("4111111111111111", &[16]),
        ("6011 0009 9013 9424 3", &[4, 4, 4, 4, 1]),
    ] {
        assert!(card_layout(sizes), "{card}");
    }
    for sizes in [&[4, 5, 5, 5][..], &[4, 4, 6, 4], &[4, 6, 6], &[4, 3, 4, 4]] {
        assert!(!card_layout(sizes), "{sizes:?}");
    }
}

/// What a detector finds searching the whole text, as it did before the prefilter: the
/// same precise code, with the whole text as its one window.
fn whole_text(kind: Kind, text: &str) -> Vec<Finding> {
    let mut out = Vec::new();
    let len = text.len();
    match kind {
        Kind::Email => find_emails(text, 0, len, &mut out),
        Kind::Phone => crate::phone::find(text, 0, len, &mut out),
        Kind::PaymentCard => {
            for m in CARD_RUN.as_ref().into_iter().flat_map(|re| re.find_iter(text)) {
                find_cards_in_run(text, m.start(), m.end(), &mut out);
            }
        }
        Kind::Iban => {
            for m in IBAN_START.as_ref().into_iter().flat_map(|re| re.find_iter(text)) {
                if let Some(end) = iban_at(text, m.start()) {
                    out.push(Finding::whole(m.start(), end, Rule::Builtin(Kind::Iban)));
                }
            }
        }
        Kind::PrivateKey => crate::pem::find(text, &mut out),
        Kind::UrlCredentials => {
            if let Some(re) = URL_CREDENTIALS.as_ref() {
                find_url_credentials_in(re, text, 0, len, &mut out);
            }
        }
        Kind::AwsSecretKey => find_aws_secret_keys(text, 0, len, &mut out),
        // Every position as a hit: checks that the words the scan looks for are in
        // every secret-like name.
        Kind::SecretAssignment => crate::assign::find(text, (0..len).filter(|&i| text.is_char_boundary(i)), &mut out),
        Kind::SecretField => {}
        other => {
            if let Some((rule, re)) = token_rule(other).and_then(|r| r.regex.as_ref().map(|re| (r, re))) {
                find_tokens_in(&rule, re, text, 0, len, &mut out);
            }
        }
    }
    out
}

fn windowed(kind: Kind, text: &str) -> Vec<Finding> {
    let mut out = Vec::new();
    find(kind, text, &Candidates::of(text, Needs::of(&Kind::ALL)), &mut out);
    out
}

fn sorted(mut findings: Vec<Finding>) -> Vec<(usize, usize, usize, usize)> {
    let mut v: Vec<_> = findings.drain(..).map(|f| (f.claim_start, f.claim_end, f.start, f.end)).collect();
    v.sort_unstable();
    v.dedup();
    v
}

fn assert_same(text: &str) -> Result<(), TestCaseError> {
    for kind in Kind::ALL {
        prop_assert_eq!(sorted(windowed(kind, text)), sorted(whole_text(kind, text)), "{:?} in {:?}", kind, text);
    }
    let c = Candidates::of(text, Needs::of(&Kind::ALL));
    let runs: Vec<(usize, usize)> =
        CARD_RUN.as_ref().into_iter().flat_map(|re| re.find_iter(text)).map(|m| (m.start(), m.end())).collect();
    prop_assert_eq!(&c.cards, &runs);
    let starts: Vec<usize> =
        IBAN_START.as_ref().into_iter().flat_map(|re| re.find_iter(text)).map(|m| m.start()).collect();
    prop_assert_eq!(&c.ibans, &starts);
    // Key blocks from the header positions alone are the blocks of the whole search.
    let headers: Vec<usize> = memchr::memmem::find_iter(text.as_bytes(), b"-----BEGIN ").collect();
    let mut at_headers = Vec::new();
    crate::pem::find_at(text, &headers, &mut at_headers);
    prop_assert_eq!(sorted(at_headers), sorted(whole_text(Kind::PrivateKey, text)));
    Ok(())
}

/// Pieces that make every detector's candidates, their near misses and their edges.
fn fragment() -> impl Strategy<Value = String> {
    prop_oneof![
        "[0-9]{1,12}",
        "[0-9]{3}[ .\\-][0-9]{3,4}",
        "[ .\\-+()]",
        "[A-Z]{2}[0-9]{2}",
        "[A-Za-z]{1,6}",
        "[A-Za-z0-9_\\-./:+=]{0,40}",
        any::<char>().prop_map(String::from),
        prop::sample::select(vec![
            "@",
            "://",
            "https://",
            "a:b@",
            "u:p@h.io/",
            ".com",
            "example",
            " ",
            "\n",
            "\t",
            "\"",
            "'",
            "=",
            ":",
            ": ",
            " = ",
            ",",
            ";",
            "&",
            "?",
            "(",
            ")",
            "[",
            "]",
            "{",
            "}",
            "\\",
            "\\\"",
            "sk-",
            "sk-ant-",
            "ghp_",
            "github_pat_",
            "AKIA",
            "A3T",
            "eyJ",
            "eyJhbGciOi.",
            "xoxb-",
            "glpat-",
            "sk_live_",
            "whsec_",
            "AIza",
            "ya29.",
            "https://hooks.slack.com/services/",
            "-----BEGIN ",
            "RSA ",
            "PRIVATE KEY-----",
            "-----END PRIVATE KEY-----",
            "secret",
            "ſecret",
            "SECRET",
            "access",
            "_access_",
            "key",
            "Key",
            "aws_",
            "ſ",
            "K",
            "password",
            "Password",
            "PASSWORD",
            "pass",
            "pwd",
            "token",
            "Token",
            "auth",
            "Authorization",
            "Bearer ",
            "Basic ",
            "cookie",
            "session",
            "credential",
            "api_key",
            "max_tokens",
            "next_page_token",
            "public_key",
            "encryption_key",
            "$",
            "${",
            "{{",
            "null",
            "None",
            "self.",
            "****",
            "[SECRET_ASSIGNMENT]",
            "+44 20 7946 0958",
            "4111 1111 1111 1111",
            "415-555-0100",
            "13800000000",
            "DE89 3704 0044 0532 0130 00",
            "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        ])
        .prop_map(str::to_owned),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2048, ..ProptestConfig::default() })]

    /// The prefilter and the windows lose nothing and add nothing: every detector finds
    /// exactly what it finds searching the whole text.
    #[test]
    fn windows_find_what_the_whole_text_search_finds(parts in proptest::collection::vec(fragment(), 0..40)) {
        assert_same(&parts.concat())?;
    }

    #[test]
    fn windows_on_arbitrary_text(text in any::<String>()) {
        assert_same(&text)?;
    }
}

#[test]
fn windows_at_the_edges() {
    for text in [
        "sk-----BEGIN PRIVATE KEY-----\nMIIE\n",
        "a://bhttps://u:p@host",
        "http://u:p@hostftp://a:b@h",
        "passecret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "ſecret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "01 415-555-0100",
        "x+1 415-555-0100",
        "ASIAIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY",
        "id@host@example.com",
        // Found by the property test: the windows skipped a name that the whole-text
        // search read again inside a rejected value.
        "password=password = AA00",
        "password=0Password = AA00",
        "a password=0Password = AA00 = b",
    ] {
        assert_same(text).unwrap_or_else(|e| panic!("{e}"));
    }
}
