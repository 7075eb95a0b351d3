//! Unit tests of the argument guard: every built-in kind, look-alikes, modes, exemptions.

use serde_json::{Value, json};
use toolshape_redact::{BUILTIN_KINDS, CustomPattern};

use super::*;

const PEM: &str = "-----BEGIN RSA PRIVATE KEY-----\n\
MIIEowIBAAKCAQEAxDmsQ0b2b8uJ1y7p0Yc2rE4ZK9eWmQpU3l1T0ZbnvQ7JxGcH\n\
c2V0dGluZ3MgYXJlIGZha2UgZm9yIHRlc3RpbmcgcHVycG9zZXMgb25seQ==\n\
-----END RSA PRIVATE KEY-----";

const JWT: &str = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";

/// One example of every built-in kind, as the text of a `message` argument (or, for
/// `secret_field`, a whole arguments object).
pub(crate) fn examples() -> Vec<(&'static str, Value)> {
    let msg = |s: String| json!({ "message": s });
    vec![
        ("email", msg("write to jane.doe@example.com".into())),
        ("phone", msg("call +44 20 7946 0958 today".into())),
        ("payment_card", msg("card 4111 1111 1111 1111".into())),
        ("iban", msg("IBAN DE89 3704 0044 0532 0130 00".into())),
        ("private_key", msg(format!("here:\n{PEM}\n"))),
        ("jwt", msg(format!("Bearer {JWT}"))),
        ("url_credentials", msg("fetch https://admin:s3cr3tPass@db.example.com/x".into())),
        ("aws_access_key", msg("id AKIAIOSFODNN7EXAMPLE".into())),
        ("aws_secret_key", msg("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY".into())),
        ("github_token", msg(format!("token ghp_{}", "a1B2c3D4e5".repeat(4).get(..36).unwrap_or_default()))),
        ("gitlab_token", msg("glpat-abcdefghij0123456789".into())),
        ("slack_token", msg("xoxb-123456789012-abcdefghijKL".into())),
        ("slack_webhook", msg("https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX".into())),
        ("stripe_key", msg(format!("sk_live_{}", "Ab1".repeat(8)))),
        ("openai_key", msg(format!("sk-proj-{}", "Ab1_".repeat(10)))),
        ("anthropic_key", msg(format!("sk-ant-api03-{}", "Ab1-".repeat(10)))),
        ("google_api_key", msg(format!("AIza{}", "Sy0_a".repeat(7)))),
        ("google_oauth_token", msg(format!("ya29.{}", "a0AfH6SM".repeat(4)))),
        ("secret_assignment", msg("export DB_PASSWORD=hunter2hunter2".into())),
        ("secret_field", json!({ "password": "correct horse battery staple" })),
    ]
}

fn guard(mode: GuardMode, kinds: Option<&[&str]>) -> ArgumentGuard {
    let spec = GuardSpec {
        arguments: mode,
        kinds: kinds.map(|k| k.iter().map(|s| (*s).to_owned()).collect()),
        patterns: Vec::new(),
    };
    ArgumentGuard::new(&spec).unwrap()
}

/// Every string of a value, keys included, joined: what would reach the upstream.
fn all_text(v: &Value) -> String {
    serde_json::to_string(v).unwrap()
}

/// The secret part of an example: what must never reach the upstream.
fn secret_of(kind: &str, args: &Value) -> String {
    let text = args.get("message").or_else(|| args.get("password")).and_then(Value::as_str).unwrap().to_owned();
    match kind {
        "private_key" => PEM.lines().nth(1).unwrap().to_owned(),
        "jwt" => JWT.to_owned(),
        "url_credentials" => "s3cr3tPass".into(),
        "phone" => "7946 0958".into(),
        "iban" => "3704 0044".into(),
        "secret_assignment" => "hunter2hunter2".into(),
        "secret_field" => text,
        _ => text.split_whitespace().last().unwrap().to_owned(),
    }
}

#[test]
fn every_builtin_kind_is_blocked_when_asked_for() {
    let g = guard(GuardMode::Block, Some(BUILTIN_KINDS));
    assert_eq!(examples().len(), BUILTIN_KINDS.len());
    for (kind, args) in examples() {
        let mut sent = args.clone();
        let verdict = g.check(&mut sent, &[]);
        assert_eq!(verdict.action, GuardAction::Block, "{kind}");
        assert!(verdict.findings.iter().any(|f| f.kinds.iter().any(|k| k == kind)), "{kind}: {verdict:?}");
        assert_eq!(sent, args, "block changes nothing");
        let message = verdict.block_message("echo");
        assert!(message.contains(kind), "{message}");
        assert!(!message.contains(&secret_of(kind, &args)), "{message}");
    }
}

#[test]
fn every_builtin_kind_is_redacted_when_asked_for() {
    let g = guard(GuardMode::Redact, Some(BUILTIN_KINDS));
    for (kind, args) in examples() {
        let mut sent = args.clone();
        let verdict = g.check(&mut sent, &[]);
        assert_eq!(verdict.action, GuardAction::Redacted, "{kind}");
        let text = all_text(&sent);
        assert!(!text.contains(&secret_of(kind, &args)), "{kind}: {text}");
        assert!(text.contains(&format!("[{}]", kind.to_uppercase())) || kind == "aws_secret_key", "{kind}: {text}");
    }
}

#[test]
fn default_kinds_are_the_high_confidence_ones() {
    let g = guard(GuardMode::Block, None);
    for (kind, args) in examples() {
        let mut sent = args.clone();
        let verdict = g.check(&mut sent, &[]);
        let expected = if DEFAULT_GUARD_KINDS.contains(&kind) { GuardAction::Block } else { GuardAction::Pass };
        assert_eq!(verdict.action, expected, "{kind}: {verdict:?}");
    }
}

#[test]
fn look_alikes_pass_the_default_guard() {
    let g = guard(GuardMode::Block, None);
    let look_alikes = [
        "use sk-learn or the ask-proj-alpha",
        "the sk-proj-management-dashboard project",
        "tasks: flask_live_reload, mask_test_data_loader",
        "AKIA is a prefix, AKIAshort too",
        "hooks.slack.com is a host",
        "commit 9fceb02d0ae598e95dc970b74767f19372d61af8",
        "id 123e4567-e89b-12d3-a456-426614174000",
        "eyJhbGciOi is only half a header",
        "ghp_short",
        "glpat-short",
        "xoxb-",
        "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqh\n-----END PUBLIC KEY-----",
        "AIzaShort",
        "ya29.short",
        "password: string",
        "jane.doe@example.com, +1 415 555 0100, 4111 1111 1111 1111",
        "dGhpcyBpcyBqdXN0IGJhc2U2NCB0ZXh0IG9mIHNvbWUgbGVuZ3RoIGFuZCBub3RoaW5nIGVsc2U=",
    ];
    for text in look_alikes {
        let mut sent = json!({ "message": text, "password": "hunter2", "api_key": "abc" });
        let before = sent.clone();
        let verdict = g.check(&mut sent, &[]);
        assert_eq!(verdict.action, GuardAction::Pass, "{text}: {verdict:?}");
        assert_eq!(sent, before);
    }
}

#[test]
fn warn_reports_and_changes_nothing_off_does_not_look() {
    let (_, args) = examples().into_iter().find(|(k, _)| *k == "github_token").unwrap();
    let mut sent = args.clone();
    let verdict = guard(GuardMode::Warn, None).check(&mut sent, &[]);
    assert_eq!(verdict.action, GuardAction::Warn);
    assert_eq!(verdict.summary(), "github_token at message");
    assert_eq!(sent, args);
    let verdict = guard(GuardMode::Off, None).check(&mut sent, &[]);
    assert_eq!(verdict, GuardVerdict { action: GuardAction::Pass, findings: Vec::new() });
}

#[test]
fn redact_touches_only_what_holds_a_finding() {
    let token = format!("ghp_{}", "x".repeat(36));
    let mut sent = json!({
        "title": "Report", "count": 3, "flags": [true, null],
        "files": [{"name": "a.txt", "content": format!("line\nGH={token}\nend")}, {"name": "b", "content": "fine"}]
    });
    let verdict = guard(GuardMode::Redact, None).check(&mut sent, &[]);
    assert_eq!(verdict.summary(), "github_token at files[0].content");
    assert_eq!(
        sent,
        json!({
            "title": "Report", "count": 3, "flags": [true, null],
            "files": [{"name": "a.txt", "content": "line\nGH=[GITHUB_TOKEN]\nend"}, {"name": "b", "content": "fine"}]
        })
    );
}

#[test]
fn secrets_in_keys_are_found_and_never_shown() {
    let token = format!("ghp_{}", "k".repeat(36));
    let mut sent = json!({ "labels": { token.clone(): "x", "ok": 1 } });
    let verdict = guard(GuardMode::Block, None).check(&mut sent, &[]);
    assert_eq!(verdict.action, GuardAction::Block);
    assert_eq!(verdict.summary(), r#"github_token at labels["[GITHUB_TOKEN]"]"#);
    assert!(!verdict.block_message("t").contains(&token));
    let mut sent = json!({ "labels": { token.clone(): "x", "ok": 1 } });
    guard(GuardMode::Redact, None).check(&mut sent, &[]);
    assert_eq!(sent, json!({ "labels": { "[GITHUB_TOKEN]": "x", "ok": 1 } }));
    assert!(!all_text(&sent).contains(&token));
}

#[test]
fn renamed_keys_stay_distinct() {
    let a = format!("ghp_{}", "a".repeat(36));
    let b = format!("ghp_{}", "b".repeat(36));
    let mut sent = json!({ a: 1, b: 2 });
    let verdict = guard(GuardMode::Redact, None).check(&mut sent, &[]);
    assert_eq!(verdict.findings.len(), 2);
    assert_eq!(sent, json!({ "[GITHUB_TOKEN]": 1, "[GITHUB_TOKEN]#2": 2 }));
}

#[test]
fn exempt_paths_are_not_looked_into() {
    let token = format!("ghp_{}", "e".repeat(36));
    let mut sent = json!({ "auth": { "token": token.clone() }, "query": token.clone() });
    let exempt = [ArgPath::key("auth")];
    let verdict = guard(GuardMode::Redact, None).check(&mut sent, &exempt);
    assert_eq!(verdict.summary(), "github_token at query");
    assert_eq!(sent, json!({ "auth": { "token": token }, "query": "[GITHUB_TOKEN]" }));
}

#[test]
fn numbers_under_secret_keys_count_when_secret_fields_are_asked_for() {
    let g = guard(GuardMode::Block, Some(&["secret_field"]));
    let mut sent = json!({ "pin": 12345678, "password": 987654 });
    let verdict = g.check(&mut sent, &[]);
    assert_eq!(verdict.summary(), "secret_field at password");
}

#[test]
fn custom_patterns_and_spec_errors() {
    let spec = GuardSpec {
        arguments: GuardMode::Block,
        kinds: Some(Vec::new()),
        patterns: vec![CustomPattern { name: "employee_id".into(), pattern: "EMP-[0-9]{6}".into() }],
    };
    let g = ArgumentGuard::new(&spec).unwrap();
    assert_eq!(g.kinds(), ["employee_id"]);
    let mut sent = json!({ "q": "who is EMP-123456" });
    assert_eq!(g.check(&mut sent, &[]).summary(), "employee_id at q");

    let bad = GuardSpec { kinds: Some(vec!["github".into()]), ..GuardSpec::default() };
    let e = ArgumentGuard::new(&bad).unwrap_err().to_string();
    assert!(e.starts_with("guard.kinds: unknown kind `github`; valid kinds are: email,"), "{e}");
    let bad =
        GuardSpec { patterns: vec![CustomPattern { name: "x".into(), pattern: "(".into() }], ..GuardSpec::default() };
    let e = ArgumentGuard::new(&bad).unwrap_err().to_string();
    assert!(e.starts_with("guard.patterns: redact pattern `x`: invalid regular expression"), "{e}");
}

#[test]
fn nothing_to_look_for_is_a_pass() {
    let g = guard(GuardMode::Block, Some(&[]));
    let mut sent = json!({ "m": format!("ghp_{}", "z".repeat(36)) });
    assert_eq!(g.check(&mut sent, &[]).action, GuardAction::Pass);
}

#[test]
fn spec_reads_from_config_json() {
    let spec: GuardSpec = serde_json::from_value(json!({ "arguments": "redact", "kinds": ["jwt"] })).unwrap();
    assert_eq!(spec.arguments, GuardMode::Redact);
    assert_eq!(GuardSpec::default().arguments, GuardMode::Warn);
    assert!(serde_json::from_value::<GuardSpec>(json!({ "argument": "block" })).is_err());
}
