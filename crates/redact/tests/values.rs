//! JSON values: strings everywhere, secret fields, keys left alone, `redact_field`,
//! `mask_whole`, and deep nesting.

mod common;

use common::{default_redactor, partial_redactor};
use serde_json::{Value, json};
use toolshape_redact::{RedactSpec, RedactionCounts, Redactor};

fn redact_value(r: &Redactor, mut value: Value) -> (Value, RedactionCounts) {
    let mut counts = RedactionCounts::default();
    r.redact_value(&mut value, &mut counts);
    (value, counts)
}

#[test]
fn strings_everywhere_are_redacted_keys_are_not() {
    let value = json!({
        "jane@example.com": "owner",
        "items": [
            {"body": "mail jane@example.com or call +44 20 7946 0958", "n": 13800000000u64},
            ["nested", ["deeper", "AKIAIOSFODNN7EXAMPLE"]]
        ],
        "ok": true
    });
    let (value, counts) = redact_value(&default_redactor(), value);
    assert_eq!(
        value,
        json!({
            "jane@example.com": "owner",
            "items": [
                {"body": "mail [EMAIL] or call [PHONE]", "n": 13800000000u64},
                ["nested", ["deeper", "[AWS_ACCESS_KEY]"]]
            ],
            "ok": true
        })
    );
    assert_eq!(counts.get("email"), 1);
    assert_eq!(counts.get("phone"), 1);
    assert_eq!(counts.get("aws_access_key"), 1);
    assert_eq!(counts.total(), 3);
}

#[test]
fn secret_fields_hide_the_whole_value() {
    let value = json!({
        "password": "hunter2",
        "db_password": 123456,
        "clientSecret": "abc",
        "Authorization": "Bearer abc.def",
        "X-Api-Key": "k",
        "session_id": "s-1",
        "credentials": {"user": "bob", "pass": "x"},
        "cookie": ["a=b"],
        "aws_secret_access_key": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "encryption_key": "9f86d081884c7d659a2feaa0c55ad015",
        "max_tokens": 4096,
        "token_type": "bearer",
        "password_hint": "pet name",
        "secret": null,
        "token": true,
        "api_key": ""
    });
    let (value, counts) = redact_value(&default_redactor(), value);
    let hidden = json!("[SECRET_FIELD]");
    for key in [
        "password",
        "db_password",
        "clientSecret",
        "Authorization",
        "X-Api-Key",
        "session_id",
        "credentials",
        "cookie",
        "aws_secret_access_key",
        "encryption_key",
    ] {
        assert_eq!(value[key], hidden, "{key}");
    }
    assert_eq!(value["max_tokens"], json!(4096));
    assert_eq!(value["token_type"], json!("bearer"));
    assert_eq!(value["password_hint"], json!("pet name"));
    assert_eq!(value["secret"], Value::Null);
    assert_eq!(value["token"], json!(true));
    assert_eq!(value["api_key"], json!(""));
    assert_eq!(counts.get("secret_field"), 10);
    assert_eq!(counts.total(), 10);

    // Again: nothing changes, nothing is counted.
    let (again, counts) = redact_value(&default_redactor(), value.clone());
    assert_eq!(again, value);
    assert!(counts.is_empty(), "{counts:?}");
}

#[test]
fn secret_fields_also_hide_in_partial_style() {
    let (value, _) = redact_value(&partial_redactor(), json!({"token": "abcdefghijklmnop"}));
    assert_eq!(value, json!({"token": "[SECRET_FIELD]"}));
}

#[test]
fn disabling_secret_field_keeps_text_detectors() {
    let spec = RedactSpec { disable: vec!["secret_field".into()], ..RedactSpec::default() };
    let r = Redactor::new(&spec).unwrap();
    let (value, counts) = redact_value(&r, json!({"password": "hunter2", "note": "jane@example.com"}));
    assert_eq!(value, json!({"password": "hunter2", "note": "[EMAIL]"}));
    assert_eq!(counts.total(), 1);
}

#[test]
fn redact_field_uses_the_key() {
    let r = default_redactor();
    let mut counts = RedactionCounts::default();
    let mut v = json!("hunter2");
    r.redact_field("password", &mut v, &mut counts);
    assert_eq!(v, json!("[SECRET_FIELD]"));
    let mut v = json!("mail jane@example.com");
    r.redact_field("note", &mut v, &mut counts);
    assert_eq!(v, json!("mail [EMAIL]"));
    let mut v = json!({"inner": {"token": "abc"}});
    r.redact_field("sort", &mut v, &mut counts);
    assert_eq!(v, json!({"inner": {"token": "[SECRET_FIELD]"}}));
    assert_eq!(counts.get("secret_field"), 2);
    assert_eq!(counts.get("email"), 1);
}

#[test]
fn mask_whole_placeholder_and_partial() {
    let r = default_redactor();
    let mut counts = RedactionCounts::default();
    let mut v = json!("E-12345");
    r.mask_whole("employee_id", &mut v, &mut counts);
    assert_eq!(v, json!("[EMPLOYEE_ID]"));
    r.mask_whole("employee_id", &mut v, &mut counts);
    assert_eq!(v, json!("[EMPLOYEE_ID]"));
    let mut v = json!({"street": "1 Main St"});
    r.mask_whole("address", &mut v, &mut counts);
    assert_eq!(v, json!("[ADDRESS]"));
    for mut empty in [Value::Null, json!(false), json!(""), json!([]), json!({})] {
        let before = empty.clone();
        r.mask_whole("address", &mut empty, &mut counts);
        assert_eq!(empty, before);
    }
    assert_eq!(counts.get("employee_id"), 1);
    assert_eq!(counts.get("address"), 1);
    assert_eq!(counts.total(), 2);

    let p = partial_redactor();
    let mut counts = RedactionCounts::default();
    let mut v = json!("13800000000");
    p.mask_whole("phone", &mut v, &mut counts);
    assert_eq!(v, json!("138****0000"));
    p.mask_whole("phone", &mut v, &mut counts);
    assert_eq!(v, json!("138****0000"));
    let mut v = json!(13800000000u64);
    p.mask_whole("phone", &mut v, &mut counts);
    assert_eq!(v, json!("138****0000"));
    let mut v = json!("john@example.com");
    p.mask_whole("email", &mut v, &mut counts);
    assert_eq!(v, json!("jo***@example.com"));
    let mut v = json!("short");
    p.mask_whole("nickname", &mut v, &mut counts);
    assert_eq!(v, json!("[NICKNAME]"));
    let mut v = json!("a-very-long-private-value");
    p.mask_whole("private_key", &mut v, &mut counts);
    assert_eq!(v, json!("[PRIVATE_KEY]"));
    assert_eq!(counts.get("phone"), 2);
    assert_eq!(counts.total(), 5);
}

/// Builds `[[[…["jane@example.com"]…]]]` (or objects) `depth` levels deep without recursion.
fn deep(depth: usize, objects: bool) -> Value {
    let mut v = json!("jane@example.com");
    // `json!` would serialize `v` again at every level (and recursively); build by hand.
    for i in 0..depth {
        v = if objects && i % 2 == 0 {
            let mut members = serde_json::Map::new();
            members.insert("password".into(), json!("x"));
            members.insert("k".into(), v);
            Value::Object(members)
        } else {
            Value::Array(vec![v])
        };
    }
    v
}

/// Owns a deep value and takes it apart without recursion when dropped (also while unwinding
/// from a failed assertion): serde_json's own drop recurses once per level.
struct Deep(Value);

impl Drop for Deep {
    fn drop(&mut self) {
        dismantle(std::mem::take(&mut self.0));
    }
}

fn dismantle(value: Value) {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(items) => stack.extend(items),
            Value::Object(members) => stack.extend(members.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}

#[test]
fn ten_thousand_levels_deep() {
    let r = default_redactor();
    for objects in [false, true] {
        let mut guard = Deep(deep(10_000, objects));
        let mut counts = RedactionCounts::default();
        r.redact_value(&mut guard.0, &mut counts);
        let value = &guard.0;
        assert_eq!(counts.get("email"), 1);
        if objects {
            assert_eq!(counts.get("secret_field"), 5_000);
        }
        // Find the innermost string iteratively.
        let mut cursor = value;
        loop {
            cursor = match cursor {
                Value::Array(items) => &items[0],
                Value::Object(members) => &members["k"],
                _ => break,
            };
        }
        assert_eq!(cursor, &json!("[EMAIL]"));
    }
}

#[test]
fn none_changes_nothing() {
    let r = Redactor::none();
    assert!(r.is_noop());
    let value = json!({"password": "hunter2", "mail": "jane@example.com"});
    let (out, counts) = redact_value(&r, value.clone());
    assert_eq!(out, value);
    assert!(counts.is_empty());
    let spec = RedactSpec { builtins: false, ..RedactSpec::default() };
    assert!(Redactor::new(&spec).unwrap().is_noop());
}

#[test]
fn declared_field_then_walk_counts_once() {
    // How the shaper uses it: mask declared paths first, then walk the whole record.
    let r = default_redactor();
    let mut record = json!({"token": "abc123", "password": "[REDACTED]", "note": "x"});
    let mut counts = RedactionCounts::default();
    r.mask_whole("field", &mut record["token"], &mut counts);
    r.redact_value(&mut record, &mut counts);
    assert_eq!(record, json!({"token": "[FIELD]", "password": "[REDACTED]", "note": "x"}));
    assert_eq!(counts.get("field"), 1);
    assert_eq!(counts.total(), 1);
}
