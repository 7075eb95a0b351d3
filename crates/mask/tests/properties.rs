//! Property tests: no text makes the loader panic, and no model-supplied argument reaches a
//! handler parameter the system fixes.

mod common;

use std::sync::OnceLock;

use common::{example_text, fake_env};
use proptest::prelude::*;
use serde_json::{Map, Value, json};
use toolshape_mask::{CallContext, CallError, MaskSet, Surface, load};

fn examples() -> &'static [String] {
    static TEXTS: OnceLock<Vec<String>> = OnceLock::new();
    TEXTS.get_or_init(|| {
        ["github-triage.yaml", "filesystem-reader.yaml", "device-status.yaml", "profiles.yaml"]
            .iter()
            .map(|n| example_text(n))
            .collect()
    })
}

/// A mutation of a text: what an editor (or a fuzzer) might do to a config.
#[derive(Debug, Clone)]
enum Mutation {
    Delete { at: usize, len: usize },
    Insert { at: usize, text: String },
    DuplicateLine { line: usize },
    SwapLines { a: usize, b: usize },
    Indent { line: usize, by: usize },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 0usize..40).prop_map(|(at, len)| Mutation::Delete { at, len }),
        (any::<usize>(), "[-:{}\\[\\],&*!|>'\"#%@`$ a-z0-9\\n\\t{}]{1,12}")
            .prop_map(|(at, text)| Mutation::Insert { at, text }),
        any::<usize>().prop_map(|line| Mutation::DuplicateLine { line }),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Mutation::SwapLines { a, b }),
        (any::<usize>(), 1usize..6).prop_map(|(line, by)| Mutation::Indent { line, by }),
    ]
}

fn floor_boundary(s: &str, at: usize) -> usize {
    let mut at = at.min(s.len());
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn apply(text: &str, m: &Mutation) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let n = lines.len().max(1);
    match m {
        Mutation::Delete { at, len } => {
            let start = floor_boundary(text, at % (text.len() + 1));
            let end = floor_boundary(text, start + len);
            format!("{}{}", &text[..start], &text[end..])
        }
        Mutation::Insert { at, text: ins } => {
            let at = floor_boundary(text, at % (text.len() + 1));
            format!("{}{ins}{}", &text[..at], &text[at..])
        }
        Mutation::DuplicateLine { line } => {
            if !lines.is_empty() {
                let l = lines[line % n].clone();
                lines.insert(line % n, l);
            }
            lines.join("\n")
        }
        Mutation::SwapLines { a, b } => {
            if !lines.is_empty() {
                lines.swap(a % n, b % n);
            }
            lines.join("\n")
        }
        Mutation::Indent { line, by } => {
            if !lines.is_empty() {
                let l = &mut lines[line % n];
                *l = format!("{}{l}", " ".repeat(*by));
            }
            lines.join("\n")
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn no_text_makes_the_loader_panic(text in any::<String>()) {
        let _ = load(&text, "fuzz.yaml", &|_| None);
    }

    #[test]
    fn no_yaml_like_text_makes_the_loader_panic(text in "[-:{}\\[\\],&*!|>'\"#%@`$?~ a-z0-9_.\\n\\t]{0,300}") {
        let _ = load(&text, "fuzz.yaml", &|_| Some("1".into()));
    }

    #[test]
    fn mutated_examples_never_make_the_loader_panic(
        which in 0usize..4,
        mutations in proptest::collection::vec(mutation(), 1..6),
    ) {
        let mut text = examples()[which].clone();
        for m in &mutations {
            text = apply(&text, m);
        }
        if let Err(errors) = load(&text, "mutated.yaml", &fake_env) {
            // Whatever was broken, every problem is placed and described.
            for e in &errors {
                prop_assert!(!e.message.is_empty());
                prop_assert!(e.pos.is_some(), "problem without a place: {e}");
            }
        }
    }
}

const GUARDED: &str = r#"
upstreams:
  github: { command: [npx, server-github] }
vars: { owner: acme }
masks:
  - name: open_issues
    handler: github/list_issues
    description: Open issues.
    input_schema:
      type: object
      properties:
        label: { type: string }
        limit: { type: integer, minimum: 1, maximum: 100 }
    handler_input:
      owner: "{{ context.vars.owner }}"
      repo: widgets
      state: open
      session: "{{ context.session }}"
      labels: "{{ input.label }}"
      per_page: "{{ input.limit }}"
      q: "repo:acme/widgets {{ input.label }}"
  - name: lenient_issues
    handler: github/list_issues
    description: Open issues; unknown arguments are dropped.
    unknown_arguments: ignore
    input_schema:
      type: object
      properties:
        label: { type: string }
    handler_input:
      owner: "{{ context.vars.owner }}"
      repo: widgets
      labels: "{{ input.label }}"
"#;

fn guarded() -> &'static (MaskSet, Surface) {
    static SET: OnceLock<(MaskSet, Surface)> = OnceLock::new();
    SET.get_or_init(|| {
        let masks = common::load_str(GUARDED);
        let surface = masks.surface(None, &[]).expect("surface");
        (masks, surface)
    })
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        ".{0,30}".prop_map(Value::String),
        Just(json!("{{ context.vars.owner }}")),
        Just(json!("evil")),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            proptest::collection::btree_map("[a-z]{1,6}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Names a model might try to smuggle in: handler parameters, context keys, or anything.
fn extra_name() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("owner".to_owned()),
        Just("repo".to_owned()),
        Just("state".to_owned()),
        Just("session".to_owned()),
        Just("context".to_owned()),
        Just("input".to_owned()),
        Just("per_page".to_owned()),
        "[a-zA-Z_]{1,12}",
    ]
    .prop_filter("not a declared argument", |n| n != "label" && n != "limit")
}

const CTX: CallContext = CallContext { session: None, principal: None };

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn extra_arguments_are_refused(
        label in proptest::option::of(".{0,20}"),
        extras in proptest::collection::btree_map(extra_name(), json_value(), 1..4),
    ) {
        let (masks, surface) = guarded();
        let mut args = Map::new();
        if let Some(l) = &label {
            args.insert("label".into(), json!(l));
        }
        for (k, v) in &extras {
            args.insert(k.clone(), v.clone());
        }
        match masks.prepare_call(surface, "open_issues", Value::Object(args), &CTX) {
            Err(CallError::InvalidArguments { problems, .. }) => {
                let first = extras.keys().next().unwrap();
                prop_assert!(problems.iter().any(|p| p.contains(&format!("unknown argument `{first}`"))), "{problems:?}");
            }
            other => prop_assert!(false, "extra arguments were not refused: {other:?}"),
        }
    }

    #[test]
    fn ignored_extra_arguments_are_never_forwarded(
        label in proptest::option::of(".{0,20}"),
        extras in proptest::collection::btree_map(extra_name(), json_value(), 0..4),
    ) {
        let (masks, surface) = guarded();
        let mut clean = Map::new();
        if let Some(l) = &label {
            clean.insert("label".into(), json!(l));
        }
        let mut noisy = clean.clone();
        for (k, v) in &extras {
            noisy.insert(k.clone(), v.clone());
        }
        let a = masks.prepare_call(surface, "lenient_issues", Value::Object(clean), &CTX).unwrap();
        let b = masks.prepare_call(surface, "lenient_issues", Value::Object(noisy), &CTX).unwrap();
        prop_assert_eq!(&a.arguments, &b.arguments);
        prop_assert_eq!(&b.arguments["owner"], &json!("acme"));
        prop_assert_eq!(&b.arguments["repo"], &json!("widgets"));
    }

    #[test]
    fn model_values_never_reach_fixed_or_context_parameters(
        label in prop_oneof![
            ".{0,40}",
            Just("{{ context.vars.owner }}".to_owned()),
            Just("{\"owner\": \"evil\"}".to_owned()),
            Just("[1, 2]".to_owned()),
            Just("\", \"owner\": \"evil".to_owned()),
            Just("evil\nowner: evil".to_owned()),
        ],
        limit in proptest::option::of(1i64..=100),
        session in proptest::option::of("[a-z0-9-]{1,12}"),
    ) {
        let (masks, surface) = guarded();
        let mut args = Map::new();
        args.insert("label".into(), json!(label));
        if let Some(n) = limit {
            args.insert("limit".into(), json!(n));
        }
        let ctx = CallContext { session: session.clone(), principal: None };
        let call = masks.prepare_call(surface, "open_issues", Value::Object(args), &ctx).unwrap();
        let out = call.arguments.as_object().unwrap();
        prop_assert_eq!(&out["owner"], &json!("acme"));
        prop_assert_eq!(&out["repo"], &json!("widgets"));
        prop_assert_eq!(&out["state"], &json!("open"));
        let want_session = session.as_ref().map(|s| json!(s));
        prop_assert_eq!(out.get("session"), want_session.as_ref());
        // A single-expression template keeps the model's string as a string, verbatim.
        if label.is_empty() {
            prop_assert!(!out.contains_key("labels"));
        } else {
            prop_assert_eq!(&out["labels"], &json!(label));
        }
        let want_limit = limit.map(|n| json!(n));
        prop_assert_eq!(out.get("per_page"), want_limit.as_ref());
        // A text template keeps its fixed prefix whatever the model writes.
        let q = out["q"].as_str().unwrap();
        prop_assert!(q.starts_with("repo:acme/widgets"), "{q}");
        let keys: Vec<&str> = out.keys().map(String::as_str).collect();
        for k in keys {
            prop_assert!(["owner", "repo", "state", "session", "labels", "per_page", "q"].contains(&k), "unexpected key {k}");
        }
    }
}

#[test]
fn the_context_key_itself_is_refused() {
    let (masks, surface) = guarded();
    let err =
        masks.prepare_call(surface, "open_issues", json!({"context": {"vars": {"owner": "evil"}}}), &CTX).unwrap_err();
    assert!(err.message().contains("unknown argument `context`"), "{}", err.message());
    assert!(err.message().contains("this tool takes: label, limit"), "{}", err.message());
}
