//! The spec: its serde shape, its errors, custom patterns and `disable`.

mod common;

use common::redact_with;
use serde_json::json;
use toolshape_redact::{BUILTIN_KINDS, CustomPattern, RedactError, RedactSpec, RedactStyle, RedactionCounts, Redactor};

fn spec(value: serde_json::Value) -> RedactSpec {
    serde_json::from_value(value).expect("valid spec")
}

#[test]
fn spec_defaults_and_shape() {
    let s = spec(json!({}));
    assert_eq!(s, RedactSpec::default());
    assert!(s.builtins);
    let s = spec(json!({
        "builtins": true,
        "disable": ["phone"],
        "patterns": [{"name": "employee_id", "pattern": "EMP-[0-9]{6}"}],
        "style": "partial"
    }));
    assert_eq!(s.style, RedactStyle::Partial);
    assert_eq!(s.patterns[0].name, "employee_id");
    assert!(serde_json::from_value::<RedactSpec>(json!({"builtin": true})).is_err());
    assert!(
        serde_json::from_value::<RedactSpec>(json!({"patterns": [{"name": "a", "pattern": "b", "x": 1}]})).is_err()
    );
    assert!(serde_json::from_value::<RedactSpec>(json!({"style": "mask"})).is_err());
}

#[test]
fn unknown_disabled_kind_lists_the_valid_ones() {
    let err = Redactor::new(&RedactSpec { disable: vec!["phones".into()], ..RedactSpec::default() }).unwrap_err();
    assert!(matches!(err, RedactError::UnknownKind { ref kind, .. } if kind == "phones"));
    let message = err.to_string();
    assert!(message.contains("`phones`"), "{message}");
    for kind in BUILTIN_KINDS {
        assert!(message.contains(kind), "{message}");
    }
}

#[test]
fn invalid_pattern_names_the_pattern_and_says_what_to_write() {
    let err = Redactor::new(&RedactSpec {
        patterns: vec![CustomPattern { name: "ticket".into(), pattern: "(?<=T)[0-9]+".into() }],
        ..RedactSpec::default()
    })
    .unwrap_err();
    assert!(matches!(err, RedactError::InvalidPattern { ref name, .. } if name == "ticket"));
    let message = err.to_string();
    assert!(message.contains("`ticket`"), "{message}");
    assert!(message.contains("look-around"), "{message}");
    assert!(message.contains("EMP-[0-9]{6}"), "{message}");
}

#[test]
fn empty_name_and_empty_match_are_refused() {
    let err = Redactor::new(&RedactSpec {
        patterns: vec![
            CustomPattern { name: "ok".into(), pattern: "x+".into() },
            CustomPattern { name: "  ".into(), pattern: "y+".into() },
        ],
        ..RedactSpec::default()
    })
    .unwrap_err();
    assert_eq!(err, RedactError::EmptyPatternName { index: 1 });
    assert!(err.to_string().contains("patterns[1]"));
    let err = Redactor::new(&RedactSpec {
        patterns: vec![CustomPattern { name: "any".into(), pattern: "[0-9]*".into() }],
        ..RedactSpec::default()
    })
    .unwrap_err();
    assert_eq!(err, RedactError::EmptyMatch { name: "any".into() });
}

#[test]
fn custom_patterns_count_under_their_name() {
    let r = Redactor::new(&RedactSpec {
        patterns: vec![CustomPattern { name: "employee_id".into(), pattern: "EMP-[0-9]{6}".into() }],
        ..RedactSpec::default()
    })
    .unwrap();
    let (out, counts) = redact_with(&r, "EMP-123456 and EMP-654321 mailed jane@example.com");
    assert_eq!(out, "[EMPLOYEE_ID] and [EMPLOYEE_ID] mailed [EMAIL]");
    assert_eq!(counts.get("employee_id"), 2);
    assert_eq!(counts.get("email"), 1);
    let (again, counts) = redact_with(&r, &out);
    assert_eq!(again, out);
    assert!(counts.is_empty());
}

#[test]
fn custom_patterns_cannot_re_match_their_own_output() {
    // Matches its own placeholder and a partial mask's tail; neither may be redacted again.
    for style in [RedactStyle::Placeholder, RedactStyle::Partial] {
        let r = Redactor::new(&RedactSpec {
            builtins: false,
            patterns: vec![CustomPattern { name: "code".into(), pattern: r"\[?[A-Z0-9_]{4,}\]?".into() }],
            style,
            ..RedactSpec::default()
        })
        .unwrap();
        let (once, counts) = redact_with(&r, "codes ABCDEFGHIJKL and WXYZ");
        assert_eq!(counts.get("code"), 2);
        let (twice, counts) = redact_with(&r, &once);
        assert_eq!(twice, once, "{style:?}");
        assert!(counts.is_empty(), "{style:?}: {counts:?}");
    }
}

#[test]
fn disable_switches_a_kind_off() {
    let r =
        Redactor::new(&RedactSpec { disable: vec!["phone".into(), "email".into()], ..RedactSpec::default() }).unwrap();
    let text = "call +44 20 7946 0958 or jane@example.com, card 4111 1111 1111 1111";
    let (out, counts) = redact_with(&r, text);
    assert_eq!(out, "call +44 20 7946 0958 or jane@example.com, card [PAYMENT_CARD]");
    assert_eq!(counts.total(), 1);
    assert!(!r.kinds().contains(&"phone"));
}

#[test]
fn builtins_off_keeps_custom_patterns() {
    let r = Redactor::new(&RedactSpec {
        builtins: false,
        patterns: vec![CustomPattern { name: "Ticket Ref".into(), pattern: "T-[0-9]+".into() }],
        ..RedactSpec::default()
    })
    .unwrap();
    assert!(!r.is_noop());
    let mut counts = RedactionCounts::default();
    let mut value = json!({"password": "hunter2", "t": "see T-42, jane@example.com"});
    r.redact_value(&mut value, &mut counts);
    assert_eq!(value, json!({"password": "hunter2", "t": "see [TICKET_REF], jane@example.com"}));
    assert_eq!(counts.get("Ticket Ref"), 1);
}

#[test]
fn counts_arithmetic() {
    let mut a = RedactionCounts::default();
    assert!(a.is_empty());
    a.add("email", 2);
    a.add("phone", 0);
    assert_eq!(a.0.len(), 1);
    let mut b = RedactionCounts::default();
    b.add("email", 1);
    b.add("iban", 3);
    a.merge(&b);
    assert_eq!(a.get("email"), 3);
    assert_eq!(a.get("iban"), 3);
    assert_eq!(a.total(), 6);
    assert!(!a.is_empty());
}
