//! The trust keys of the config: `pin`, `defaults.guard` and a mask's `guard`,
//! `repeat_limit`/`repeat_window`, a mask's `idempotent`, a profile's `read_only`; what they
//! compile to, and every mistake reported at its line with what to write.

use serde_json::{Value, json};
use toolshape_mask::{CallContext, MaskSet, ProfileTools, UpstreamTool, load};
use toolshape_trust::{GuardAction, GuardMode, OnChange};

fn loaded(yaml: &str) -> (toolshape_mask::Config, MaskSet) {
    load(yaml, "t.yaml", &|_| None).unwrap_or_else(|e| panic!("{e}"))
}

fn problems(yaml: &str) -> String {
    load(yaml, "t.yaml", &|_| None).map(|_| ()).expect_err("should not load").to_string()
}

const BASE: &str = "upstreams:\n  gh: { command: [x] }\n";

#[test]
fn defaults_apply_when_nothing_is_written() {
    let (config, masks) = loaded(BASE);
    assert_eq!(config.pin, None);
    assert_eq!(config.defaults.guard.arguments, GuardMode::Warn);
    assert_eq!(masks.guard_for(None).mode(), GuardMode::Warn);
    assert_eq!(masks.guard_for(None).kinds().len(), toolshape_trust::DEFAULT_GUARD_KINDS.len());
    let repeat = masks.repeat_policy();
    assert_eq!((repeat.limit, repeat.window.as_secs()), (3, 60));
}

#[test]
fn every_key_is_read() {
    let yaml = format!(
        "{BASE}pin: {{ file: locks/tools.lock, on_change: warn }}\n\
         defaults:\n  guard: {{ arguments: block, kinds: [github_token, email] }}\n  repeat_limit: 5\n  repeat_window: 30\n\
         masks:\n  - name: post\n    handler: gh/create_issue\n    description: d\n    idempotent: false\n    \
         guard: {{ arguments: redact, patterns: [{{ name: ticket, pattern: 'TCK-[0-9]+' }}] }}\n    \
         input_schema: {{ type: object, properties: {{ body: {{ type: string }} }} }}\n    \
         handler_input: {{ body: '{{{{ input.body }}}}', owner: acme }}\n"
    );
    let (config, masks) = loaded(&yaml);
    let pin = config.pin.clone().expect("a pin section");
    assert_eq!((pin.file.as_deref(), pin.on_change), (Some("locks/tools.lock"), Some(OnChange::Warn)));
    assert_eq!(masks.guard_for(None).mode(), GuardMode::Block);
    assert_eq!(masks.guard_for(None).kinds(), ["email", "github_token"]);
    assert_eq!(masks.guard_for(Some("post")).mode(), GuardMode::Redact);
    assert!(masks.guard_for(Some("post")).kinds().contains(&"ticket"));
    assert!(masks.declares_non_idempotent("post"));
    assert_eq!((masks.repeat_policy().limit, masks.repeat_policy().window.as_secs()), (5, 30));

    // The mask's fixed parameter is exempt from its guard; the model's is not.
    let surface = masks.surface(None, &[]).expect("surface");
    let mut call = masks
        .prepare_call(&surface, "post", json!({"body": "see TCK-1234"}), &CallContext::default())
        .expect("prepared");
    assert_eq!(call.fixed.iter().map(ToString::to_string).collect::<Vec<_>>(), ["owner"]);
    let verdict = masks.guard_for(call.mask).check(&mut call.arguments, &call.fixed);
    assert_eq!(verdict.action, GuardAction::Redacted);
    assert_eq!(call.arguments, json!({"body": "see [TICKET]", "owner": "acme"}));
}

#[test]
fn guard_mistakes_are_reported_at_their_line() {
    let yaml = format!("{BASE}defaults:\n  guard:\n    arguments: block\n    kinds: [private_key, githb_token]\n");
    let text = problems(&yaml);
    assert!(text.contains("t.yaml:6:26: unknown kind `githb_token` (at `defaults.guard.kinds[1]`)"), "{text}");
    assert!(text.contains("did you mean `github_token`?"), "{text}");

    let text = problems(&format!("{BASE}defaults:\n  guard: {{ arguments: stop }}\n"));
    assert!(text.contains("t.yaml:4:") && text.contains("block") && text.contains("redact"), "{text}");

    let yaml = format!(
        "{BASE}masks:\n  - name: m\n    handler: gh/t\n    description: d\n    guard: {{ patterns: [{{ name: x, pattern: '(' }}] }}\n"
    );
    let text = problems(&yaml);
    assert!(text.contains("masks[0].guard.patterns") || text.contains("t.yaml:7:"), "{text}");
    assert!(text.contains("invalid regular expression"), "{text}");
}

#[test]
fn repeat_and_pin_mistakes_are_reported() {
    let text = problems(&format!("{BASE}defaults:\n  repeat_window: 0\n"));
    assert!(text.contains("t.yaml:4:") && text.contains("repeat_window is 0 seconds"), "{text}");
    let text = problems(&format!("{BASE}defaults:\n  repeat_limit: 5000\n"));
    assert!(text.contains("repeat_limit is 5000") && text.contains("at most 1000"), "{text}");
    let text = problems(&format!("{BASE}pin: {{ on_change: block }}\n"));
    assert!(text.contains("t.yaml:3:") && text.contains("quarantine"), "{text}");
    let text = problems(&format!("{BASE}pin: {{ lock: x }}\n"));
    assert!(text.contains("unknown") && text.contains("lock"), "{text}");
}

fn tool(name: &str, annotations: Option<Value>) -> UpstreamTool {
    UpstreamTool {
        upstream: "gh".into(),
        name: name.into(),
        description: String::new(),
        input_schema: json!({"type": "object"}),
        annotations,
    }
}

#[test]
fn a_read_only_profile_keeps_tools_declared_read_only() {
    let yaml = format!(
        "{BASE}masks:\n  - {{ name: reader, handler: gh/get, description: d }}\n  - {{ name: writer, handler: gh/put, description: d }}\n\
         profiles:\n  viewer: {{ read_only: true }}\n  some: {{ tools: [reader, writer, gh_list], read_only: true }}\n  all: \"*\"\n"
    );
    let (config, masks) = loaded(&yaml);
    assert!(matches!(&config.profiles["viewer"], ProfileTools::ReadOnly(inner) if **inner == ProfileTools::All));
    let listed = [
        tool("get", Some(json!({"readOnlyHint": true}))),
        tool("put", Some(json!({"readOnlyHint": false, "destructiveHint": true}))),
        tool("list", Some(json!({"readOnlyHint": true}))),
        tool("search", Some(json!({"readOnlyHint": true}))),
        tool("silent", None),
    ];
    let names = |profile: &str| -> Vec<String> {
        masks.surface(Some(profile), &listed).expect("surface").definitions().map(|d| d.name.clone()).collect()
    };
    assert_eq!(names("viewer"), ["reader", "gh_list", "gh_search"]);
    assert_eq!(names("some"), ["reader", "gh_list"]);
    assert_eq!(names("all").len(), 5);
    // The listing carries the hints: the upstream's own, and what a mask can claim.
    let surface = masks.surface(None, &listed).expect("surface");
    assert_eq!(surface.get("reader").and_then(|d| d.annotations.clone()), Some(json!({"readOnlyHint": true})));
    assert_eq!(
        surface.get("writer").and_then(|d| d.annotations.clone()),
        Some(json!({"readOnlyHint": false, "destructiveHint": true}))
    );
    assert_eq!(surface.get("gh_silent").and_then(|d| d.annotations.clone()), None);
}

#[test]
fn profile_mistakes_name_the_keys() {
    let text = problems(&format!("{BASE}profiles:\n  viewer: {{ readonly: true }}\n"));
    assert!(text.contains("unknown key `readonly`") && text.contains("read_only"), "{text}");
    let text = problems(&format!("{BASE}profiles:\n  viewer: {{ tools: [nope], read_only: true }}\n"));
    assert!(text.contains("nope"), "{text}");
}

#[test]
fn held_handlers_hold_their_masks() {
    let yaml = format!(
        "{BASE}masks:\n  - {{ name: reader, handler: gh/get, description: d }}\n  - {{ name: other, handler: gh/other, description: d }}\n"
    );
    let (_, masks) = loaded(&yaml);
    let listed = [tool("get", None), tool("other", None), tool("list", None)];
    let held = [("gh".to_owned(), "get".to_owned()), ("gh".to_owned(), "list".to_owned())].into_iter().collect();
    let surface = masks.surface_holding(None, &listed, &held).expect("surface");
    let names: Vec<&str> = surface.definitions().map(|d| d.name.as_str()).collect();
    assert_eq!(names, ["other"]);
    assert_eq!(surface.held("reader"), Some(("gh", "get")));
    assert_eq!(surface.held("gh_list"), Some(("gh", "list")));
    assert_eq!(surface.held("other"), None);
    assert_eq!(masks.handlers_of("reader", &listed), [("gh".to_owned(), "get".to_owned())]);
    assert_eq!(masks.handlers_of("gh_list", &listed), [("gh".to_owned(), "list".to_owned())]);
    assert_eq!(masks.handlers_of("gh/anything", &listed), [("gh".to_owned(), "anything".to_owned())]);
    assert!(masks.handlers_of("nope", &listed).is_empty());
}
