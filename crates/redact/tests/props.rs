//! Property tests: never panics, valid output, idempotence, borrowed when nothing is found,
//! generated secrets always removed, arbitrary and very deep JSON.

mod common;

use std::borrow::Cow;

use common::{default_redactor, iban, partial_redactor, with_luhn_digit};
use proptest::prelude::*;
use serde_json::{Map, Value};
use toolshape_redact::{CustomPattern, RedactSpec, RedactStyle, RedactionCounts, Redactor};

/// A generated secret: its kind, the text to embed, and the part that must disappear.
#[derive(Debug, Clone)]
struct Secret {
    kind: &'static str,
    text: String,
    core: String,
}

fn secret(kind: &'static str, text: String) -> Secret {
    Secret { kind, core: text.clone(), text }
}

fn digits(n: usize) -> impl Strategy<Value = String> {
    proptest::collection::vec(0u8..10, n).prop_map(|d| d.iter().map(|d| char::from(b'0' + d)).collect())
}

fn alnum(range: std::ops::RangeInclusive<usize>) -> impl Strategy<Value = String> {
    proptest::string::string_regex(&format!("[A-Za-z0-9]{{{},{}}}", range.start(), range.end())).expect("valid regex")
}

/// Random keys always mix cases and digits; forcing one of each keeps the generator honest
/// about what the detectors require.
fn mixed(range: std::ops::RangeInclusive<usize>) -> impl Strategy<Value = String> {
    alnum(range).prop_map(|s| format!("a{s}Z9"))
}

fn emails() -> impl Strategy<Value = Secret> {
    ("[a-z][a-z0-9]{1,9}(\\.[a-z]{1,8})?", "[a-z]{2,10}", prop::sample::select(vec!["com", "org", "io", "de", "co.uk"]))
        .prop_map(|(local, domain, tld)| secret("email", format!("{local}@{domain}.{tld}")))
}

fn phones() -> impl Strategy<Value = Secret> {
    (digits(8), 2u8..10, 3u8..10, 0usize..6).prop_map(|(d, a, m, form)| {
        let text = match form {
            0 => format!("+1 ({a}{}) {a}{}-{}", &d[..2], &d[2..4], &d[4..8]),
            1 => format!("+44 20 {} {}", &d[..4], &d[4..8]),
            2 => format!("1{m}{}{}", &d[..1], &d[..8]),
            3 => format!("1{m}{} {} {}", &d[..1], &d[..4], &d[4..8]),
            4 => format!("{a}{}-{a}{}-{}", &d[..2], &d[2..4], &d[4..8]),
            _ => format!("+86 1{m}{} {} {}", &d[..1], &d[..4], &d[4..8]),
        };
        secret("phone", text)
    })
}

/// Issuer prefixes of networks whose cards have 16 digits (Visa, Mastercard in both ranges,
/// Discover, UnionPay, JCB, Diners Club, Maestro).
const CARD_PREFIXES: [&str; 14] =
    ["4", "51", "53", "55", "2221", "2400", "2720", "6011", "65", "62", "3528", "3589", "36", "6759"];

fn cards() -> impl Strategy<Value = Secret> {
    (0..CARD_PREFIXES.len(), digits(14), 0usize..3).prop_map(|(p, rest, form)| {
        let prefix = CARD_PREFIXES[p];
        let number = with_luhn_digit(&format!("{prefix}{}", &rest[..15 - prefix.len()]));
        let text = match form {
            0 => number,
            _ => {
                let sep = if form == 1 { " " } else { "-" };
                let chunks: Vec<&str> = (0..4).map(|i| &number[i * 4..i * 4 + 4]).collect();
                chunks.join(sep)
            }
        };
        secret("payment_card", text)
    })
}

fn ibans() -> impl Strategy<Value = Secret> {
    (digits(18), "[A-Z]{4}", any::<bool>(), 0usize..3).prop_map(|(d, bank, spaced, form)| {
        let compact = match form {
            0 => iban("DE", &d),
            1 => iban("GB", &format!("{bank}{}", &d[..14])),
            _ => iban("NL", &format!("{bank}{}", &d[..10])),
        };
        let text = if spaced { common::spaced(&compact) } else { compact };
        secret("iban", text)
    })
}

fn private_keys() -> impl Strategy<Value = Secret> {
    (
        prop::sample::select(vec!["", "RSA ", "EC ", "OPENSSH ", "ENCRYPTED "]),
        proptest::collection::vec("[A-Za-z0-9+/]{20,64}", 1..5),
    )
        .prop_map(|(label, lines)| {
            secret(
                "private_key",
                format!("-----BEGIN {label}PRIVATE KEY-----\n{}\n-----END {label}PRIVATE KEY-----", lines.join("\n")),
            )
        })
}

fn tokens() -> impl Strategy<Value = Secret> {
    prop_oneof![
        ("[A-Za-z0-9_-]{10,40}", "[A-Za-z0-9_-]{10,60}", "[A-Za-z0-9_-]{10,43}")
            .prop_map(|(a, b, c)| secret("jwt", format!("eyJ{a}.eyJ{b}.{c}"))),
        "[A-Z0-9]{16}".prop_map(|s| secret("aws_access_key", format!("AKIA{s}"))),
        (prop::sample::select(vec!["p", "o", "u", "s", "r"]), alnum(36..=36))
            .prop_map(|(k, s)| secret("github_token", format!("gh{k}_{s}"))),
        "[A-Za-z0-9_]{22,82}".prop_map(|s| secret("github_token", format!("github_pat_{s}"))),
        "[A-Za-z0-9_-]{20,30}".prop_map(|s| secret("gitlab_token", format!("glpat-{s}"))),
        (prop::sample::select(vec!["b", "p", "a", "r", "s"]), digits(12), alnum(24..=24))
            .prop_map(|(k, d, s)| secret("slack_token", format!("xox{k}-{d}-{s}"))),
        ("T[A-Z0-9]{8,10}", "B[A-Z0-9]{8,10}", alnum(24..=24))
            .prop_map(|(t, b, s)| { secret("slack_webhook", format!("https://hooks.slack.com/services/{t}/{b}/{s}")) }),
        (prop::sample::select(vec!["sk_live_", "sk_test_", "rk_live_", "pk_live_"]), alnum(10..=40))
            .prop_map(|(p, s)| secret("stripe_key", format!("{p}{s}"))),
        (prop::sample::select(vec!["sk-proj-", "sk-svcacct-", "sk-admin-"]), mixed(40..=120))
            .prop_map(|(p, s)| secret("openai_key", format!("{p}{s}"))),
        alnum(48..=48).prop_map(|s| secret("openai_key", format!("sk-{s}"))),
        mixed(40..=95).prop_map(|s| secret("anthropic_key", format!("sk-ant-api03-{s}"))),
        "[A-Za-z0-9_-]{35}".prop_map(|s| secret("google_api_key", format!("AIza{s}"))),
        "[A-Za-z0-9_-]{20,120}".prop_map(|s| secret("google_oauth_token", format!("ya29.{s}"))),
    ]
}

fn credentials() -> impl Strategy<Value = Secret> {
    prop_oneof![
        ("[a-z]{1,8}", "[A-Za-z0-9!$%&*;=~]{6,20}", "[a-z]{2,10}").prop_map(|(user, password, host)| Secret {
            kind: "url_credentials",
            text: format!("https://{user}:{password}@{host}.example.com/x"),
            core: format!(":{password}@"),
        }),
        (
            "[A-Za-z0-9/+]{40}",
            prop::sample::select(vec!["aws_secret_access_key = ", "AWS_SECRET_ACCESS_KEY=", "\"aws_secret_key\": \""])
        )
            .prop_map(|(value, name)| Secret {
                kind: "aws_secret_key",
                text: format!("{name}{value}"),
                core: value,
            }),
    ]
}

/// Secret-like names (as JSON keys would be classified), in the shapes they take in text.
const SECRET_NAMES: &[&str] = &[
    "password",
    "DB_PASSWORD",
    "passwd",
    "api_key",
    "apiKey",
    "client_secret",
    "X-Auth-Token",
    "access_token",
    "secret",
    "spring.datasource.password",
    "--password",
];

const OPERATORS: &[&str] = &["=", " = ", ":", ": ", ":=", " := ", " => "];

fn assignments() -> impl Strategy<Value = Secret> {
    (
        prop::sample::select(SECRET_NAMES.to_vec()),
        prop::sample::select(OPERATORS.to_vec()),
        // Letters, digits and a symbol: a credential, never an identifier or a literal.
        "[A-Za-z]{2,10}[0-9]{1,3}[-+/~!%^][A-Za-z0-9]{0,12}",
        0usize..4,
    )
        .prop_map(|(name, op, value, quoting)| {
            let text = match quoting {
                0 => format!("{name}{op}{value}"),
                1 => format!("{name}{op}\"{value}\""),
                2 => format!("\"{name}\"{op}\"{value}\""),
                _ => format!("{name}{op}'{value}'"),
            };
            Secret { kind: "secret_assignment", text, core: value }
        })
}

fn secrets() -> impl Strategy<Value = Secret> {
    prop_oneof![emails(), phones(), cards(), ibans(), private_keys(), tokens(), credentials(), assignments()]
}

/// Surrounding text: arbitrary Unicode, printable ASCII, digit-and-punctuation soup, or
/// fragments that look like earlier redaction output.
fn filler() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>().prop_map(|s| s.chars().take(60).collect()),
        "[ -~]{0,60}",
        "[0-9 .:+()@/-]{0,40}",
        "[A-Za-z0-9_\\-]{0,30}",
        prop::sample::select(vec!["[EMAIL]", "[PHONE]", "[SECRET_FIELD]", "****", "***@", "[", "]", "EMP-1234"])
            .prop_map(str::to_owned),
    ]
}

fn custom_redactor(style: RedactStyle) -> Redactor {
    Redactor::new(&RedactSpec {
        patterns: vec![
            CustomPattern { name: "employee_id".into(), pattern: "EMP-[0-9]{4,8}".into() },
            CustomPattern { name: "ticket".into(), pattern: "[A-Z]{3}[0-9]{3}".into() },
        ],
        style,
        ..RedactSpec::default()
    })
    .expect("valid spec")
}

fn redact(r: &Redactor, text: &str) -> (String, RedactionCounts, bool) {
    let mut counts = RedactionCounts::default();
    let out = r.redact_text(text, &mut counts);
    let borrowed = matches!(out, Cow::Borrowed(_));
    (out.into_owned(), counts, borrowed)
}

/// Strings without any trigger: no ASCII digit, `@` or `-`, no known prefix, and no
/// secret-like name followed by `:` or `=` (see [`assigns_to_a_secret_name`]).
const PREFIXES: &[&str] = &[
    "AKIA",
    "ASIA",
    "AGPA",
    "AIDA",
    "AROA",
    "AIPA",
    "ANPA",
    "ANVA",
    "ABIA",
    "ACCA",
    "A3T",
    "gh",
    "github_pat",
    "gl",
    "xox",
    "sk",
    "rk_",
    "pk_",
    "whsec",
    "AIza",
    "ya29",
    "eyJ",
    "secret",
    "hooks",
];

/// Words one of which every secret-like name contains.
const SECRET_NAME_WORDS: &[&str] =
    &["pass", "pwd", "secret", "token", "key", "auth", "cookie", "session", "credential"];

/// Whether `text` has a name holding a secret-like word followed (past a closing quote and
/// blanks) by `:` or `=`: the trigger of `secret_assignment`.
fn assigns_to_a_secret_name(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    let b = lower.as_bytes();
    SECRET_NAME_WORDS.iter().any(|word| {
        lower.match_indices(word).any(|(i, _)| {
            let mut j = i;
            while b.get(j).is_some_and(|c| c.is_ascii_alphanumeric() || b"_.-".contains(c)) {
                j += 1;
            }
            if b.get(j) == Some(&b'\\') {
                j += 1;
            }
            if matches!(b.get(j), Some(b'"' | b'\'' | b'`')) {
                j += 1;
            }
            while matches!(b.get(j), Some(b' ' | b'\t')) {
                j += 1;
            }
            matches!(b.get(j), Some(b':' | b'='))
        })
    })
}

/// Text with `:` and `=` and secret-like words, but (after the filter) no trigger.
fn text_without_triggers() -> impl Strategy<Value = String> {
    let part = prop_oneof![
        "[^0-9@\\-]{0,30}",
        "[a-zA-Z _.:=\"'\n]{0,30}",
        prop::sample::select(vec![
            "password",
            "Password",
            "TOKEN",
            "api_key",
            "Authorization",
            "cookie",
            "session_id",
            "pwd",
            " = ",
            ": ",
            "=",
            ":",
            ":=",
            "\"",
            " ",
            "\n",
            " is ",
            "the ",
            "your ",
            "max_tokens",
            "user",
            "name",
            "host",
        ])
        .prop_map(str::to_owned),
    ];
    proptest::collection::vec(part, 0..12).prop_map(|parts| parts.concat()).prop_filter("no trigger", |t| {
        let lower = t.to_lowercase();
        !PREFIXES.iter().any(|p| lower.contains(&p.to_lowercase()))
            && !lower.contains("\u{17f}ecret")
            && !assigns_to_a_secret_name(t)
    })
}

/// Assignments that must stay: names that only look secret-like, and secret-like names whose
/// value is no secret (a literal, a reference, a type, code, a mask, prose).
fn assignments_without_secrets() -> impl Strategy<Value = String> {
    let plain = (
        prop::sample::select(vec![
            "max_tokens",
            "token_count",
            "next_page_token",
            "password_min_length",
            "password_hint",
            "token_type",
            "public_key",
            "sort_key",
            "secret_name",
            "key_id",
            "keyboard",
            "passenger",
            "author",
            "tokenizer",
            "cookie_policy",
            "key",
        ]),
        prop::sample::select(OPERATORS.to_vec()),
        "[a-z]{1,12}",
        any::<bool>(),
    )
        .prop_map(
            |(name, op, value, quoted)| {
                if quoted { format!("\"{name}\"{op}\"{value}\"") } else { format!("{name}{op}{value}") }
            },
        );
    let non_value = (
        prop::sample::select(SECRET_NAMES.to_vec()),
        prop::sample::select(OPERATORS.to_vec()),
        prop::sample::select(vec![
            "null",
            "None",
            "undefined",
            "true",
            "42",
            "\"\"",
            "''",
            "${DB_PASSWORD}",
            "$DB_PASSWORD",
            "\"${DB_PASSWORD}\"",
            "{{ .Values.secret }}",
            "<your-password>",
            "\"<your-password>\"",
            "********",
            "\"****\"",
            "[SECRET_ASSIGNMENT]",
            "\"[SECRET_ASSIGNMENT]\"",
            "required",
            "self.token",
            "get_password()",
            "os.environ[\"PASSWORD\"]",
            "access_token",
            "!vault",
            "",
        ]),
    )
        .prop_map(|(name, op, value)| format!("{name}{op}{value}"));
    let prose = (prop::sample::select(SECRET_NAMES.to_vec()), "[a-z]{1,8}( [a-z]{1,8}){1,4}")
        .prop_map(|(name, words)| format!("{name}: Your {words}"));
    proptest::collection::vec(
        prop_oneof![plain, non_value, prose, prop::sample::select(vec![" ", "\n", ", ", "; "]).prop_map(str::to_owned)],
        1..6,
    )
    .prop_map(|parts| parts.join("\n"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Valid output: the text itself, borrowed, when nothing was found; otherwise changed
    /// text that shows each kind it counted (its placeholder, with the placeholder style) and
    /// that a second pass leaves alone. Any string, alone or around a secret.
    #[test]
    fn never_panics_and_output_is_valid(
        text in prop_oneof![
            any::<String>(),
            (any::<String>(), secrets(), any::<String>()).prop_map(|(a, s, b)| format!("{a} {} {b}", s.text)),
        ],
    ) {
        for (r, placeholders) in [(default_redactor(), true), (partial_redactor(), false)] {
            let (out, counts, borrowed) = redact(&r, &text);
            prop_assert_eq!(borrowed, counts.is_empty());
            if borrowed {
                prop_assert_eq!(&out, &text);
                continue;
            }
            prop_assert_ne!(&out, &text);
            if placeholders {
                for kind in counts.0.keys() {
                    let placeholder = format!("[{}]", kind.to_uppercase().replace(' ', "_"));
                    prop_assert!(out.contains(&placeholder), "{placeholder} missing from {out:?}");
                }
            }
            let (again, more, _) = redact(&r, &out);
            prop_assert_eq!(&again, &out);
            prop_assert!(more.is_empty(), "{:?}", more);
        }
    }

    #[test]
    fn idempotent(parts in proptest::collection::vec(prop_oneof![secrets().prop_map(|s| s.text), filler()], 0..8)) {
        let text = parts.concat();
        for r in [
            default_redactor(),
            partial_redactor(),
            custom_redactor(RedactStyle::Placeholder),
            custom_redactor(RedactStyle::Partial),
        ] {
            let (once, _, _) = redact(&r, &text);
            let (twice, counts, borrowed) = redact(&r, &once);
            prop_assert_eq!(&twice, &once);
            prop_assert!(counts.is_empty(), "{:?}", counts);
            prop_assert!(borrowed);
        }
    }

    #[test]
    fn text_without_triggers_is_borrowed(text in text_without_triggers()) {
        let (out, counts, borrowed) = redact(&default_redactor(), &text);
        prop_assert!(borrowed);
        prop_assert_eq!(out, text);
        prop_assert!(counts.is_empty());
    }

    #[test]
    fn assignments_without_secrets_are_borrowed(text in assignments_without_secrets()) {
        for r in [default_redactor(), partial_redactor()] {
            let (out, counts, borrowed) = redact(&r, &text);
            prop_assert!(borrowed, "{:?} -> {:?}", text, out);
            prop_assert!(counts.is_empty());
        }
    }

    #[test]
    fn embedded_secret_is_removed(before in filler(), s in secrets(), after in filler()) {
        // Eleven unbroken digits as a field's value are a counter unless the field names a
        // phone: that case has its own property below.
        let field_value = s.kind == "phone" && s.text.bytes().all(|b| b.is_ascii_digit()) && before.ends_with([':', '=']);
        prop_assume!(!field_value);
        let text = format!("{before} {} {after}", s.text);
        for r in [default_redactor(), partial_redactor()] {
            let (out, counts, _) = redact(&r, &text);
            prop_assert!(!out.contains(&s.core), "{} not removed from {:?}: {:?}", s.kind, text, out);
            prop_assert!(counts.total() >= 1);
        }
        // Alone, it is found as its own kind.
        let (out, counts, _) = redact(&default_redactor(), &s.text);
        prop_assert!(counts.get(s.kind) == 1 && counts.total() == 1, "{} as {:?}: {:?}", s.kind, counts, out);
    }

    /// Eleven unbroken digits of a mobile's form as a field's value (`calls=14158304207`,
    /// `rx_bytes: 14158304207`) are kept unless the field's name says phone; standing in
    /// prose, they are a phone.
    #[test]
    fn eleven_digits_as_a_field_s_value_are_a_phone_only_where_the_field_names_one(
        number in (3u8..10, digits(9)).prop_map(|(m, d)| format!("1{m}{d}")),
        counter in "[a-z][a-z0-9_]{0,10}(\\.[a-z][a-z0-9_]{0,6})?"
            .prop_filter("names a phone", |n| !["phone", "mobile", "msisdn", "fax", "tel", "cell", "contact", "sms"].iter().any(|w| n.contains(w))),
        phone in prop::sample::select(vec!["phone", "mobile", "tel", "telephoneNumber", "contact_phone", "cell", "fax", "msisdn", "user.mobile_number"]),
        separator in prop::sample::select(vec!["=", ":", ": "]),
    ) {
        let kept = format!("{counter}{separator}{number},next=1");
        let (out, counts, _) = redact(&default_redactor(), &kept);
        prop_assert!(out.contains(&number) && counts.get("phone") == 0, "{kept:?} -> {out:?}");
        for text in [format!("{phone}{separator}{number}"), format!("call {number} today")] {
            let (out, counts, _) = redact(&default_redactor(), &text);
            prop_assert!(!out.contains(&number) && counts.get("phone") == 1, "{text:?} -> {out:?}");
        }
    }

    #[test]
    fn redact_value_never_panics_and_is_idempotent(value in json()) {
        for r in [default_redactor(), partial_redactor()] {
            let mut once = value.clone();
            let mut counts = RedactionCounts::default();
            r.redact_value(&mut once, &mut counts);
            let mut twice = once.clone();
            let mut again = RedactionCounts::default();
            r.redact_value(&mut twice, &mut again);
            prop_assert_eq!(&twice, &once);
            prop_assert!(again.is_empty(), "{:?}", again);
        }
    }
}

fn json_keys() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "password",
            "token",
            "api_key",
            "max_tokens",
            "token_type",
            "public_key",
            "encryption_key",
            "id",
            "body",
            "email",
            "next_page_token",
            "Authorization",
            "cookie",
        ])
        .prop_map(str::to_owned),
        any::<String>().prop_map(|s| s.chars().take(12).collect()),
    ]
}

fn json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        filler().prop_map(Value::String),
        secrets().prop_map(|s| Value::String(s.text)),
    ];
    leaf.prop_recursive(6, 64, 8, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            proptest::collection::vec((json_keys(), inner), 0..8)
                .prop_map(|members| Value::Object(members.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// Cases the properties above once found, kept as plain tests.
#[test]
fn regressions() {
    let all = [
        default_redactor(),
        partial_redactor(),
        custom_redactor(RedactStyle::Placeholder),
        custom_redactor(RedactStyle::Partial),
    ];
    for text in [
        "+1 (200) 200-00002000 0000 0000 0006",
        "sk-ant-api03-aA0AaaaA0A0A0AaaAAA0aaAAaaaAAAaAA0aAaAA0AZ92000 0000 0000 0006(",
        "+1 (200) 200-0000@a0.aa@aa.com",
        "[EMAIL]+8613800000000",
        "EMP-1234****",
    ] {
        for r in &all {
            let (once, _, _) = redact(r, text);
            let (twice, counts, borrowed) = redact(r, &once);
            assert_eq!(twice, once, "{text}");
            assert!(counts.is_empty() && borrowed, "{text}");
        }
    }
    // A rejected candidate does not hide the number after it.
    assert_eq!(redact(&default_redactor(), "01 200-200-0000").0, "01 [PHONE]");
    // Already-redacted neighbours do not shield a new finding.
    assert_eq!(redact(&default_redactor(), "[EMAIL]+8613800000000").0, "[EMAIL][PHONE]");
    // Stars in the text are not taken for a mask unless they have its exact shape.
    assert_eq!(redact(&partial_redactor(), " a0@aa.com ***@").0, " a***@aa.com ***@");
    assert_eq!(redact(&partial_redactor(), "Email: john@example.com ****1234").0, "Email: jo***@example.com ****1234");
    // An address in a URL password is part of the password, and the host stays.
    assert_eq!(
        redact(&default_redactor(), "https://a:$a!$aa@aa.example.com/x").0,
        "https://a:[URL_CREDENTIALS]@aa.example.com/x"
    );
    let mut value = serde_json::json!({"encryption_key": "https://a:$a!$aa@aa.example.com/x"});
    let mut counts = RedactionCounts::default();
    default_redactor().redact_value(&mut value, &mut counts);
    assert_eq!(value, serde_json::json!({"encryption_key": "https://a:[URL_CREDENTIALS]@aa.example.com/x"}));
}
