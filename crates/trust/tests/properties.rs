//! Property tests of the trust core: the canonical hash ignores key order and whitespace; lock
//! files round-trip; the guard never changes arguments where it found nothing and never lets
//! a planted secret through; the repeat detector agrees with a model that keeps every call.

use std::collections::HashMap;
use std::time::Duration;

use proptest::prelude::*;
use serde_json::{Map, Value};
use toolshape_fixtures::{rng::Rng, secrets};
use toolshape_redact::BUILTIN_KINDS;
use toolshape_trust::{
    ArgPath, ArgumentGuard, CallKey, GuardAction, GuardMode, GuardSpec, Lock, PinStatus, Repeat, RepeatDetector,
    RepeatPolicy, Step, ToolDefinition, canonical_text,
};

/// Text of every sort: plain words, any Unicode, invisible characters, backslash escapes,
/// line endings, blanks at the end.
fn any_text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z ]{0,20}",
        any::<String>(),
        prop::collection::vec(
            prop::sample::select(vec![
                "a",
                " ",
                "\n",
                "\r\n",
                "\t",
                "\\",
                "\\u{",
                "\\u{41}",
                "}",
                "\u{200b}",
                "\u{202e}",
                "\u{e0041}",
                "\u{feff}",
                "\u{0}",
                "é",
                "|",
                "#",
                "tool \"x\" \"y\"",
                "  hash sha256:",
                "    | ",
            ]),
            0..12
        )
        .prop_map(|parts| parts.concat()),
    ]
}

fn json_leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(Value::from),
        prop::sample::select(vec![0.5, 1.0, -0.0, 1e-7, 0.1, 3.0e10]).prop_map(Value::from),
        any_text().prop_map(Value::String),
    ]
}

fn any_json() -> impl Strategy<Value = Value> {
    json_leaf().prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((any_text(), inner), 0..6)
                .prop_map(|members| Value::Object(members.into_iter().collect())),
        ]
    })
}

/// `value` with every object's members in an order picked by `seed`.
fn shuffled(value: &Value, seed: &mut u64) -> Value {
    match value {
        Value::Object(members) => {
            let mut entries: Vec<(&String, &Value)> = members.iter().collect();
            for i in (1..entries.len()).rev() {
                *seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                let j = usize::try_from(*seed >> 33).unwrap_or(0) % (i + 1);
                entries.swap(i, j);
            }
            let mut out = Map::new();
            for (k, v) in entries {
                out.insert(k.clone(), shuffled(v, seed));
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(|v| shuffled(v, seed)).collect()),
        other => other.clone(),
    }
}

fn definitions() -> impl Strategy<Value = ToolDefinition> {
    (
        any_text(),
        prop::option::of(any_text()),
        prop::option::of(any_text()),
        prop::option::of(any_json()),
        prop::option::of(any_json()),
        prop::option::of(any_json()),
    )
        .prop_map(|(name, title, description, input_schema, output_schema, annotations)| ToolDefinition {
            name,
            title,
            description,
            input_schema,
            output_schema,
            annotations,
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Key order and whitespace never change the canonical text or a definition's hash.
    #[test]
    fn canonical_hash_ignores_key_order_and_whitespace(def in definitions(), seed in any::<u64>()) {
        let mut s = seed;
        let reordered = ToolDefinition {
            input_schema: def.input_schema.as_ref().map(|v| shuffled(v, &mut s)),
            output_schema: def.output_schema.as_ref().map(|v| shuffled(v, &mut s)),
            annotations: def.annotations.as_ref().map(|v| shuffled(v, &mut s)),
            ..def.clone()
        };
        prop_assert_eq!(reordered.hash(), def.hash());
        let tool = def.to_mcp();
        let compact: Value = serde_json::from_str(&serde_json::to_string(&tool).unwrap()).unwrap();
        let pretty: Value = serde_json::from_str(&serde_json::to_string_pretty(&shuffled(&tool, &mut s)).unwrap()).unwrap();
        prop_assert_eq!(canonical_text(&compact), canonical_text(&pretty));
        prop_assert_eq!(
            ToolDefinition::from_mcp(&compact).unwrap().hash(),
            ToolDefinition::from_mcp(&pretty).unwrap().hash()
        );
    }

    /// Any lock reads back to the same text and hashes, and each pinned definition still
    /// compares as unchanged.
    #[test]
    fn lock_files_round_trip(entries in prop::collection::vec((any_text(), definitions()), 0..5)) {
        let mut lock = Lock::new();
        for (upstream, def) in &entries {
            lock.pin(upstream, def.clone());
        }
        let text = lock.render();
        let back = Lock::parse(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(back.render(), text);
        prop_assert_eq!(back.len(), lock.len());
        for ((key, a), (key_back, b)) in lock.iter().zip(back.iter()) {
            prop_assert_eq!(key, key_back);
            prop_assert_eq!(a.hash(), b.hash());
            prop_assert_eq!(back.check(&key.upstream, a.definition()), PinStatus::Same);
            prop_assert_eq!(&a.definition().title, &b.definition().title);
            prop_assert_eq!(&a.definition().description, &b.definition().description);
        }
    }
}

/// Argument values the way models write them: words, numbers, ids, paths, URLs, some that
/// look like (but are not) secrets.
fn arg_text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[A-Za-z0-9 _./:@-]{0,40}",
        prop::sample::select(vec![
            "sk-learn",
            "AKIA is a prefix",
            "ghp_short",
            "eyJhbGciOi",
            "-----BEGIN PUBLIC KEY-----",
            "https://example.com/a?b=c",
            "jane@example.com",
            "+1 415 555 0100",
            "4111 1111 1111 1111",
            "password: string",
            "token_count: 12",
            "xoxb-",
            "ya29.",
            "AIza",
            "glpat-x",
        ])
        .prop_map(str::to_owned),
        any::<String>(),
    ]
}

fn arguments() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        arg_text().prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 40, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec(("[a-z_]{1,12}", inner), 0..5).prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn guard_specs() -> impl Strategy<Value = GuardSpec> {
    (
        prop::sample::select(vec![GuardMode::Block, GuardMode::Redact, GuardMode::Warn]),
        prop::option::of(prop::sample::subsequence(BUILTIN_KINDS.to_vec(), 0..=BUILTIN_KINDS.len())),
    )
        .prop_map(|(arguments, kinds)| GuardSpec {
            arguments,
            kinds: kinds.map(|k| k.into_iter().map(str::to_owned).collect()),
            patterns: Vec::new(),
        })
}

/// Every leaf of `value` with its path.
fn leaves(value: &Value, path: ArgPath, out: &mut Vec<(ArgPath, Value)>) {
    match value {
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                leaves(v, path.child(Step::Index(i)), out);
            }
        }
        Value::Object(members) => {
            for (k, v) in members {
                leaves(v, path.child(Step::Key(k.clone())), out);
            }
        }
        other => out.push((path, other.clone())),
    }
}

/// A generated secret of a default kind, and the part of it that must never be sent.
fn planted(seed: u64, which: u8) -> (&'static str, String) {
    let mut rng = Rng::new(seed);
    match which % 5 {
        0 => ("github_token", secrets::github_token(&mut rng)),
        1 => ("aws_access_key", secrets::aws_access_key(&mut rng)),
        2 => ("stripe_key", secrets::stripe_key(&mut rng)),
        3 => ("jwt", secrets::jwt(&mut rng)),
        _ => ("private_key", secrets::private_key(&mut rng)),
    }
}

/// Puts `text` into `value` at a place chosen by `pick`, as part of a string.
fn plant(value: &mut Value, text: &str, pick: usize) {
    let mut slots: Vec<&mut Value> = Vec::new();
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(items) => stack.extend(items.iter_mut()),
            Value::Object(members) => stack.extend(members.values_mut()),
            other => slots.push(other),
        }
    }
    let n = slots.len();
    if let Some(slot) = slots.into_iter().nth(pick % n.max(1)) {
        *slot = Value::String(format!("see {text} here"));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Arguments where the guard finds nothing are never changed, whatever the mode; under
    /// `redact`, every leaf not at a finding is unchanged.
    #[test]
    fn nothing_found_nothing_changed(spec in guard_specs(), args in arguments()) {
        let guard = ArgumentGuard::new(&spec).unwrap();
        let mut sent = args.clone();
        let verdict = guard.check(&mut sent, &[]);
        if verdict.findings.is_empty() {
            prop_assert_eq!(verdict.action, GuardAction::Pass);
            prop_assert_eq!(&sent, &args);
        }
        if spec.arguments != GuardMode::Redact {
            prop_assert_eq!(&sent, &args);
        }
        let mut before = Vec::new();
        leaves(&args, ArgPath::root(), &mut before);
        let mut after = Vec::new();
        leaves(&sent, ArgPath::root(), &mut after);
        prop_assert_eq!(before.len(), after.len());
        for ((path, old), (path_after, new)) in before.iter().zip(&after) {
            prop_assert_eq!(path, path_after);
            let at_finding = verdict.findings.iter().any(|f| &f.path == path);
            if !at_finding {
                prop_assert_eq!(old, new, "changed without a finding at {}", path);
            }
        }
    }

    /// A planted secret of a default kind is always found: `block` refuses without naming
    /// it, `redact` never sends it.
    #[test]
    fn planted_secrets_never_leave(args in arguments(), seed in any::<u64>(), which in any::<u8>(), pick in any::<usize>()) {
        let (kind, secret) = planted(seed, which);
        // At least one leaf to plant into.
        let mut args = serde_json::json!({ "context": args, "note": "" });
        plant(&mut args, &secret, pick);
        let block = ArgumentGuard::new(&GuardSpec { arguments: GuardMode::Block, ..GuardSpec::default() }).unwrap();
        let mut sent = args.clone();
        let verdict = block.check(&mut sent, &[]);
        prop_assert_eq!(verdict.action, GuardAction::Block);
        prop_assert!(verdict.findings.iter().any(|f| f.kinds.iter().any(|k| k == kind)), "{kind}: {verdict:?}");
        let message = verdict.block_message("t");
        let core = secret.lines().nth(1).unwrap_or(&secret);
        prop_assert!(!message.contains(core));
        prop_assert_eq!(&sent, &args);
        let redact = ArgumentGuard::new(&GuardSpec { arguments: GuardMode::Redact, ..GuardSpec::default() }).unwrap();
        let verdict = redact.check(&mut sent, &[]);
        prop_assert_eq!(verdict.action, GuardAction::Redacted);
        prop_assert!(!serde_json::to_string(&sent).unwrap().contains(core));
    }
}

/// The model: every call time per key; a call is a repeat when at least `limit` earlier
/// calls are within the window, and `calls` counts the streak without a window-long gap.
fn model_verdicts(policy: RepeatPolicy, calls: &[(usize, Duration)]) -> Vec<Option<u32>> {
    let mut seen: HashMap<usize, Vec<Duration>> = HashMap::new();
    let mut out = Vec::new();
    for (key, now) in calls {
        let times = seen.entry(*key).or_default();
        let in_window = times.iter().filter(|t| now.saturating_sub(**t) < policy.window).count();
        let mut streak = 1u32;
        let mut later = *now;
        for t in times.iter().rev() {
            if later.saturating_sub(*t) >= policy.window {
                break;
            }
            streak += 1;
            later = *t;
        }
        out.push((policy.limit > 0 && in_window >= policy.limit as usize).then_some(streak));
        times.push(*now);
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// With room for every key, the detector answers exactly as the model that keeps every
    /// call; with little room, it never holds more keys than its capacity.
    #[test]
    fn repeat_detector_matches_the_model(
        limit in 0u32..5,
        window_s in 1u64..30,
        steps in prop::collection::vec((0usize..4, 0u64..20), 1..60),
        capacity in 1usize..4,
    ) {
        let policy = RepeatPolicy { limit, window: Duration::from_secs(window_s) };
        let mut now = Duration::ZERO;
        let calls: Vec<(usize, Duration)> = steps
            .iter()
            .map(|(k, dt)| {
                now += Duration::from_secs(*dt);
                (*k, now)
            })
            .collect();
        let key = |k: usize| CallKey::new(Some("s"), "t", &serde_json::json!({ "k": k }));
        let expected = model_verdicts(policy, &calls);
        let mut roomy = RepeatDetector::new(policy, 16);
        let mut tight = RepeatDetector::new(policy, capacity);
        for ((k, t), want) in calls.iter().zip(expected) {
            let got = match roomy.observe(key(*k), *t) {
                Repeat::Fresh => None,
                Repeat::Repeated { calls, .. } => Some(calls),
            };
            prop_assert_eq!(got, want);
            tight.observe(key(*k), *t);
            prop_assert!(tight.len() <= capacity);
        }
    }
}
