//! True positives: every built-in kind, with the exact output text and count.

mod common;

use common::{iban, partial_redactor, redact, redact_with, spaced, with_luhn_digit};

const PEM: &str = "-----BEGIN RSA PRIVATE KEY-----\n\
MIIEowIBAAKCAQEAxDmsQ0b2b8uJ1y7p0Yc2rE4ZK9eWmQpU3l1T0ZbnvQ7JxGcH\n\
c2V0dGluZ3MgYXJlIGZha2UgZm9yIHRlc3RpbmcgcHVycG9zZXMgb25seQ==\n\
-----END RSA PRIVATE KEY-----";

const JWT: &str = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";

/// (kind, input, expected output); each input holds exactly one finding of `kind`.
fn cases() -> Vec<(&'static str, String, String)> {
    let mut cases: Vec<(&'static str, String, String)> = Vec::new();
    let mut add = |kind: &'static str, input: String, output: String| cases.push((kind, input, output));

    // email
    add("email", "mail jane.doe@example.com now".into(), "mail [EMAIL] now".into());
    add("email", "<j.o+tag@mail.example.co.uk>".into(), "<[EMAIL]>".into());
    add("email", "mailto:ops-team@corp.example.org".into(), "mailto:[EMAIL]".into());
    // A unit type is not a domain, but a real top-level domain that looks like one is.
    add("email", "sales@shop.services".into(), "[EMAIL]".into());
    add("email", "hr@brand.target".into(), "[EMAIL]".into());
    // Top-level domains in any case, and the names set aside for internal and test mail.
    add("email", "To: JANE.DOE@EXAMPLE.COM".into(), "To: [EMAIL]".into());
    add("email", "it-desk@corp.internal".into(), "[EMAIL]".into());
    add("email", "ci@build.test and".into(), "[EMAIL] and".into());
    add("email", "bob@printer.local".into(), "[EMAIL]".into());
    add("email", "https://example.com/u?email=jane@example.com".into(), "https://example.com/u?email=[EMAIL]".into());

    // phone
    for phone in [
        "+1 (415) 555-0100",
        "+1-415-555-0100",
        "+44 20 7946 0958",
        "+86 138 0000 0000",
        "+8613800000000",
        "+49 30 901820",
        "(415) 555-0100",
        "415-555-0100",
        "415.555.0100",
        "1-800-555-0199",
        "13800000000",
        "138 0000 0000",
        "139-1234-5678",
    ] {
        add("phone", format!("call {phone}, please"), "call [PHONE], please".into());
    }

    // payment_card: well-known test numbers and generated ones
    for card in [
        "4111 1111 1111 1111".to_owned(),
        "4111-1111-1111-1111".to_owned(),
        "4111111111111111".to_owned(),
        "5555 5555 5555 4444".to_owned(),
        "378282246310005".to_owned(),
        "3782 822463 10005".to_owned(),
        "6011111111111117".to_owned(),
        with_luhn_digit("453201511283036"),
        with_luhn_digit("222100000000000"),
        with_luhn_digit("621234567890123456"),
    ] {
        add("payment_card", format!("card: {card}."), "card: [PAYMENT_CARD].".into());
    }

    // iban
    for value in [
        "DE89 3704 0044 0532 0130 00".to_owned(),
        "DE89370400440532013000".to_owned(),
        "GB82 WEST 1234 5698 7654 32".to_owned(),
        "NL91ABNA0417164300".to_owned(),
        "FR14 2004 1010 0505 0001 3M02 606".to_owned(),
        iban("ES", "21000418450200051332"),
        spaced(&iban("IT", "X0542811101000000123456")),
        iban("NO", "86011117947"),
    ] {
        add("iban", format!("IBAN {value} (main)"), "IBAN [IBAN] (main)".into());
    }

    // private_key
    add("private_key", format!("key:\n{PEM}\ndone"), "key:\n[PRIVATE_KEY]\ndone".into());
    add(
        "private_key",
        "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----".into(),
        "[PRIVATE_KEY]".into(),
    );
    add(
        "private_key",
        "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\nBKcwggSjAgEAAoIBAQC7\n".into(),
        "[PRIVATE_KEY]\n".into(),
    );

    // jwt
    add("jwt", format!("Authorization: Bearer {JWT}"), "Authorization: Bearer [JWT]".into());

    // url_credentials: only the password goes
    add(
        "url_credentials",
        "DATABASE_URL=postgres://admin:s3cr3tP4ss@db.internal:5432/app".into(),
        "DATABASE_URL=postgres://admin:[URL_CREDENTIALS]@db.internal:5432/app".into(),
    );
    add(
        "url_credentials",
        "redis://:hunter2@cache.example.com:6379/0".into(),
        "redis://:[URL_CREDENTIALS]@cache.example.com:6379/0".into(),
    );
    add(
        "url_credentials",
        "git clone https://bob:pa%40ss@git.example.com/repo.git".into(),
        "git clone https://bob:[URL_CREDENTIALS]@git.example.com/repo.git".into(),
    );

    // aws
    add("aws_access_key", "id=AKIAIOSFODNN7EXAMPLE;".into(), "id=[AWS_ACCESS_KEY];".into());
    add("aws_access_key", "ASIAY34FZKBOKMUTVV7A".into(), "[AWS_ACCESS_KEY]".into());
    add(
        "aws_secret_key",
        "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n".into(),
        "aws_secret_access_key = [AWS_SECRET_KEY]\n".into(),
    );
    add(
        "aws_secret_key",
        r#"{"AWS_SECRET_ACCESS_KEY": "je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY"}"#.into(),
        r#"{"AWS_SECRET_ACCESS_KEY": "[AWS_SECRET_KEY]"}"#.into(),
    );
    add(
        "aws_secret_key",
        "SecretAccessKey: je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY".into(),
        "SecretAccessKey: [AWS_SECRET_KEY]".into(),
    );

    // github
    add("github_token", "token ghp_R2d2C3poX9k8J7h6G5f4E3d2C1b0A9z8Y7x6 ok".into(), "token [GITHUB_TOKEN] ok".into());
    add("github_token", "GH_TOKEN=gho_16C7e42F292c6912E7710c838347Ae178B4a".into(), "GH_TOKEN=[GITHUB_TOKEN]".into());
    add(
        "github_token",
        "github_pat_11ABCDEFG0123456789abc_ZYXwvu9876543210TSRqpo1234567890abcdefGHIJKLmnopQRSTuvw".into(),
        "[GITHUB_TOKEN]".into(),
    );
    add("gitlab_token", "glpat-xK9mP2nQ7rS4tV6wY8zA".into(), "[GITLAB_TOKEN]".into());
    add("slack_token", "xoxb-1234567890123-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx".into(), "[SLACK_TOKEN]".into());
    add("slack_token", "SLACK=xoxp-2048-4096-8192-a1b2c3d4e5f6".into(), "SLACK=[SLACK_TOKEN]".into());
    add(
        "slack_webhook",
        "post to https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX now".into(),
        "post to [SLACK_WEBHOOK] now".into(),
    );
    add("stripe_key", "sk_live_4eC39HqLyjWDarjtT1zdp7dc".into(), "[STRIPE_KEY]".into());
    add("stripe_key", "key: sk_test_51HqLyjWDarjtT1zdp7dcXyZ".into(), "key: [STRIPE_KEY]".into());
    add("stripe_key", "rk_live_51H8xYzAbCdEfGhIjKlMn".into(), "[STRIPE_KEY]".into());
    add("stripe_key", "pk_live_51H8xYzAbCdEfGhIjKlMn".into(), "[STRIPE_KEY]".into());
    add(
        "openai_key",
        "OPENAI_API_KEY=sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7cDe0fGh3iJk6lMn9oPq".into(),
        "OPENAI_API_KEY=[OPENAI_KEY]".into(),
    );
    add("openai_key", "sk-svcacct-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1HgFeDcBa0123456789".into(), "[OPENAI_KEY]".into());
    add(
        "openai_key",
        "old key sk-AbCdEfGhIjKlMnOpQrStT3BlbkFJuVwXyZaBcDeFgHiJkLmN".into(),
        "old key [OPENAI_KEY]".into(),
    );
    add(
        "anthropic_key",
        "x-api-key: sk-ant-api03-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1HgFeDcBa0123456789-AbCdEfAA".into(),
        "x-api-key: [ANTHROPIC_KEY]".into(),
    );
    add(
        "google_api_key",
        "?key=AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY&v=3".into(),
        "?key=[GOOGLE_API_KEY]&v=3".into(),
    );
    add(
        "google_oauth_token",
        "Bearer ya29.a0AfH6SMBx-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1".into(),
        "Bearer [GOOGLE_OAUTH_TOKEN]".into(),
    );

    // secret_assignment: the name, the operator and the quotes stay
    for (input, output) in [
        (r#"password = "correct-horse-battery-staple""#, r#"password = "[SECRET_ASSIGNMENT]""#),
        (r#"password: "uJSvuEWtQWnCIKAA""#, r#"password: "[SECRET_ASSIGNMENT]""#),
        ("PASSWORD=hunter2", "PASSWORD=[SECRET_ASSIGNMENT]"),
        ("export API_KEY=abc123def", "export API_KEY=[SECRET_ASSIGNMENT]"),
        (
            r#"config dump: {"user": "bob", "client_secret": "Zm9vYmFy-Qux", "retries": 3}"#,
            r#"config dump: {"user": "bob", "client_secret": "[SECRET_ASSIGNMENT]", "retries": 3}"#,
        ),
        (r#"{\"password\":\"hunter2\"}"#, r#"{\"password\":\"[SECRET_ASSIGNMENT]\"}"#),
        ("db_password: s3cr3t\nhost: db", "db_password: [SECRET_ASSIGNMENT]\nhost: db"),
        // JSON shown as text: escaped line breaks and quotes
        (
            r#"{"body":"My .env:\n\npassword: \"Z9o78Pv1Vc7sJQ9C\"\n"}"#,
            r#"{"body":"My .env:\n\npassword: \"[SECRET_ASSIGNMENT]\"\n"}"#,
        ),
        ("Authorization: Basic dXNlcjpwYXNz", "Authorization: Basic [SECRET_ASSIGNMENT]"),
        ("Authorization: Bearer opaque-Token_42", "Authorization: Bearer [SECRET_ASSIGNMENT]"),
        ("Authorization: Digest username=\"bob\", response=\"6629fae4\"", "Authorization: Digest [SECRET_ASSIGNMENT]"),
        ("GET /v1/me?access_token=abc123&page=2 200", "GET /v1/me?access_token=[SECRET_ASSIGNMENT]&page=2 200"),
        ("redirect to /cb#token=abc123", "redirect to /cb#token=[SECRET_ASSIGNMENT]"),
        ("spring.datasource.password=Tr0ub4dor&3", "spring.datasource.password=[SECRET_ASSIGNMENT]"),
        ("X-Auth-Token: 8f3a2c19e7", "X-Auth-Token: [SECRET_ASSIGNMENT]"),
        ("token := \"abc123\"", "token := \"[SECRET_ASSIGNMENT]\""),
        ("'secret' => 'abcXYZ'", "'secret' => '[SECRET_ASSIGNMENT]'"),
        ("run --password=s3cr3t --verbose", "run --password=[SECRET_ASSIGNMENT] --verbose"),
        ("Cookie: session=abc123; theme=dark", "Cookie: [SECRET_ASSIGNMENT]"),
        ("login user=bob password=hunter ok=1", "login user=bob password=[SECRET_ASSIGNMENT] ok=1"),
        ("user: bob password: hunter status: ok", "user: bob password: [SECRET_ASSIGNMENT] status: ok"),
        ("password = 123456", "password = [SECRET_ASSIGNMENT]"),
        ("signing_key = 9f86d081884c7d659a2feaa0c55ad015", "signing_key = [SECRET_ASSIGNMENT]"),
    ] {
        add("secret_assignment", input.into(), output.into());
    }
    cases
}

#[test]
fn every_builtin_text_kind_has_a_case() {
    let cases = cases();
    for kind in toolshape_redact::BUILTIN_KINDS {
        if *kind == "secret_field" {
            continue; // a field-level kind: see tests/values.rs
        }
        assert!(cases.iter().any(|(k, _, _)| k == kind), "no true-positive case for {kind}");
    }
}

#[test]
fn true_positives_exact_output_and_count() {
    for (kind, input, expected) in cases() {
        let (out, counts) = redact(&input);
        assert_eq!(out, expected, "{kind}: {input}");
        assert_eq!(counts.get(kind), 1, "{kind}: {input}: {counts:?}");
        assert_eq!(counts.total(), 1, "{kind}: {input}: {counts:?}");
    }
}

#[test]
fn true_positives_are_idempotent() {
    for (kind, input, _) in cases() {
        let (once, _) = redact(&input);
        let (twice, counts) = redact(&once);
        assert_eq!(twice, once, "{kind}");
        assert!(counts.is_empty(), "{kind}: {counts:?}");
    }
}

#[test]
fn several_findings_in_one_text() {
    let text = "From jane@example.com, card 4111 1111 1111 1111, phone +44 20 7946 0958, \
                token ghp_R2d2C3poX9k8J7h6G5f4E3d2C1b0A9z8Y7x6 and bob@example.org.";
    let (out, counts) = redact(text);
    assert_eq!(out, "From [EMAIL], card [PAYMENT_CARD], phone [PHONE], token [GITHUB_TOKEN] and [EMAIL].");
    assert_eq!(counts.get("email"), 2);
    assert_eq!(counts.get("payment_card"), 1);
    assert_eq!(counts.get("phone"), 1);
    assert_eq!(counts.get("github_token"), 1);
    assert_eq!(counts.total(), 5);
}

#[test]
fn partial_style() {
    let r = partial_redactor();
    for (input, expected, kind) in [
        ("mail john@example.com", "mail jo***@example.com", "email"),
        ("tel 13800000000", "tel 138****0000", "phone"),
        ("tel 138 0000 0000", "tel 138****0000", "phone"),
        ("card 4111 1111 1111 1111", "card 411****1111", "payment_card"),
        ("DE89 3704 0044 0532 0130 00", "DE8****0 00", "iban"),
        ("ghp_R2d2C3poX9k8J7h6G5f4E3d2C1b0A9z8abcd", "ghp****abcd", "github_token"),
        ("AKIAIOSFODNN7EXAMPLE", "AKI****MPLE", "aws_access_key"),
        ("postgres://u:longpassword1@h/db", "postgres://u:[URL_CREDENTIALS]@h/db", "url_credentials"),
        ("password: long-enough-secret", "password: [SECRET_ASSIGNMENT]", "secret_assignment"),
        // A token that is also a secret's value keeps its kind but shows nothing.
        ("GH_TOKEN=ghp_R2d2C3poX9k8J7h6G5f4E3d2C1b0A9z8abcd", "GH_TOKEN=[GITHUB_TOKEN]", "github_token"),
    ] {
        let (out, counts) = redact_with(&r, input);
        assert_eq!(out, expected, "{input}");
        assert_eq!(counts.get(kind), 1, "{input}");
        let (again, counts) = redact_with(&r, &out);
        assert_eq!(again, out, "partial masks are idempotent: {input}");
        assert!(counts.is_empty(), "{input}");
    }
    // Private keys are never partially shown.
    let (out, _) = redact_with(&r, PEM);
    assert_eq!(out, "[PRIVATE_KEY]");
    // Too short to keep anything.
    let (out, _) = redact_with(&r, "call 415-555-0100");
    assert_eq!(out, "call 415****0100");
    let (out, _) = redact_with(&r, "mail j@example.com");
    assert_eq!(out, "mail ***@example.com");
}

#[test]
fn a_value_that_is_a_known_token_keeps_the_token_kind() {
    // The assignment and the token cover the same span: the token's kind is more telling.
    for (input, expected, kind) in [
        (format!("Authorization: Bearer {JWT}"), "Authorization: Bearer [JWT]", "jwt"),
        ("GH_TOKEN=gho_16C7e42F292c6912E7710c838347Ae178B4a".into(), "GH_TOKEN=[GITHUB_TOKEN]", "github_token"),
        (
            "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY".into(),
            "aws_secret_access_key = [AWS_SECRET_KEY]",
            "aws_secret_key",
        ),
        ("password=4111111111111111".into(), "password=[PAYMENT_CARD]", "payment_card"),
    ] {
        let (out, counts) = redact(&input);
        assert_eq!(out, expected);
        assert_eq!(counts.get(kind), 1, "{input}");
        assert_eq!(counts.total(), 1, "{input}");
    }
    // In partial style no part of it stays visible either.
    let (out, _) = redact_with(&partial_redactor(), "password=4111111111111111");
    assert_eq!(out, "password=[PAYMENT_CARD]");
    let (out, _) = redact_with(&partial_redactor(), "card 4111111111111111");
    assert_eq!(out, "card 411****1111");
}

#[test]
fn secret_assignments_in_a_config_dump() {
    let text = "\
# app.env
DB_HOST=db.internal
DB_PASSWORD=pa55-w0rd!
REDIS_URL=redis://cache:6379/0
STRIPE_KEY=sk_live_4eC39HqLyjWDarjtT1zdp7dc
SESSION_SECRET=\"k8s-9f1b2c\"
MAX_TOKENS=4096
NEXT_PAGE_TOKEN=CAoQAhgB
PASSWORD_MIN_LENGTH=8
SMTP_PASSWORD=${SMTP_PASSWORD}
";
    let (out, counts) = redact(text);
    assert_eq!(
        out,
        "\
# app.env
DB_HOST=db.internal
DB_PASSWORD=[SECRET_ASSIGNMENT]
REDIS_URL=redis://cache:6379/0
STRIPE_KEY=[STRIPE_KEY]
SESSION_SECRET=\"[SECRET_ASSIGNMENT]\"
MAX_TOKENS=4096
NEXT_PAGE_TOKEN=CAoQAhgB
PASSWORD_MIN_LENGTH=8
SMTP_PASSWORD=${SMTP_PASSWORD}
"
    );
    assert_eq!(counts.get("secret_assignment"), 2);
    assert_eq!(counts.get("stripe_key"), 1);
    assert_eq!(counts.total(), 3);
}

#[test]
fn overlapping_findings_merge_under_the_earliest() {
    // The token is the URL's password: one replacement, under the kind that starts first.
    let (out, counts) = redact("https://x:ghp_R2d2C3poX9k8J7h6G5f4E3d2C1b0A9z8Y7x6@github.com/o/r.git");
    assert_eq!(out, "https://x:[URL_CREDENTIALS]@github.com/o/r.git");
    assert_eq!(counts.total(), 1);
    assert_eq!(counts.get("url_credentials"), 1);

    // A phone number run into a card number: nothing of either stays visible.
    let (out, counts) = redact("+1234 4111 1111 1111 1111");
    assert!(!out.contains("1111"), "{out}");
    assert_eq!(counts.total(), 1);
}
