//! Templates through the public API: the sandbox (fuel, recursion, no file access), the
//! typing rules of handler arguments, `validate`, switches and `context`.

mod common;

use std::time::{Duration, Instant};

use common::load_str;
use serde_json::{Value, json};
use toolshape_mask::{CallContext, CallError, load};

fn one_mask(handler_input: &str, extra: &str) -> String {
    format!(
        r#"
upstreams:
  up: {{ command: [server] }}
vars: {{ org: acme, limits: {{ max: 5 }} }}
allowed_env: [DEPLOY_ENV]
masks:
  - name: t
    handler: up/tool
    description: A test tool.
    input_schema:
      type: object
      properties:
        n: {{ type: integer }}
        s: {{ type: string }}
        tags: {{ type: array, items: {{ type: string }} }}
        flag: {{ type: boolean }}
        kind: {{ type: string, enum: [a, b], default: a }}
    handler_input:
{handler_input}
{extra}
"#
    )
}

fn call(yaml: &str, args: Value) -> Result<Value, CallError> {
    let (_, masks) =
        load(yaml, "t.yaml", &|v| (v == "DEPLOY_ENV").then(|| "staging".to_owned())).unwrap_or_else(|e| panic!("{e}"));
    let surface = masks.surface(None, &[]).expect("no profile");
    let ctx = CallContext { session: Some("sess-1".into()), principal: Some("alice@example.com".into()) };
    masks.prepare_call(&surface, "t", args, &ctx).map(|c| c.arguments)
}

#[test]
fn an_endless_loop_runs_out_of_fuel_instead_of_hanging() {
    let yaml = one_mask(
        "      x: \"{% for i in range(100000) %}{% for j in range(100000) %}{{ i * j }}{% endfor %}{% endfor %}\"",
        "",
    );
    let start = Instant::now();
    let err = call(&yaml, json!({})).unwrap_err();
    assert!(start.elapsed() < Duration::from_secs(5), "took {:?}", start.elapsed());
    match &err {
        CallError::Template { field, error, .. } => {
            assert_eq!(field, "handler_input.x");
            assert!(error.out_of_fuel, "{error:?}");
        }
        other => panic!("{other:?}"),
    }
    assert!(err.message().contains("ran too long"), "{}", err.message());
}

#[test]
fn endless_recursion_stops() {
    let yaml = one_mask("      x: \"{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}\"", "");
    let start = Instant::now();
    let err = call(&yaml, json!({})).unwrap_err();
    assert!(start.elapsed() < Duration::from_secs(5));
    assert!(matches!(err, CallError::Template { .. }), "{err:?}");
    // The model learns it is not its fault, without the config's internals.
    assert!(!err.message().contains("macro"), "{}", err.message());
}

#[test]
fn templates_cannot_read_files() {
    let yaml = one_mask("      x: \"{% include '/etc/passwd' %}\"", "");
    let err = call(&yaml, json!({})).unwrap_err();
    assert!(matches!(err, CallError::Template { .. }), "{err:?}");
    let yaml = one_mask("      x: \"{% import 'Cargo.toml' as c %}\"", "");
    assert!(call(&yaml, json!({})).is_err());
}

#[test]
fn a_huge_output_is_bounded_by_fuel() {
    let yaml = one_mask("      x: \"{{ 'x' * 100000000 }}\"", "");
    let err = call(&yaml, json!({})).unwrap_err();
    assert!(matches!(err, CallError::Template { ref error, .. } if error.out_of_fuel), "{err:?}");
}

#[test]
fn typing_rules_of_handler_arguments() {
    let yaml = one_mask(
        r#"      n: "{{ input.n }}"
      n_text: "{{ input.n }} items"
      s: "{{ input.s }}"
      tags: "{{ input.tags }}"
      flag: "{{ input.flag }}"
      computed: "{% if input.n %}{{ input.n * 2 }}{% endif %}"
      list: "[{% for t in input.tags %}{{ t | tojson }}{% if not loop.last %},{% endif %}{% endfor %}]"
      fixed_number: 7
      fixed_list: [1, "two", "{{ input.s }}"]
      nested: { org: "{{ context.vars.org }}", max: "{{ context.vars.limits.max }}" }
      kind: "{{ input.kind }}""#,
        "",
    );
    let args = call(&yaml, json!({"n": 5, "s": "42", "tags": ["x", "y"], "flag": false})).unwrap();
    assert_eq!(
        args,
        json!({
            "n": 5, "n_text": "5 items", "s": "42", "tags": ["x", "y"], "flag": false, "computed": 10,
            "list": ["x", "y"], "fixed_number": 7, "fixed_list": [1, "two", "42"],
            "nested": {"org": "acme", "max": 5}, "kind": "a"
        })
    );
    // Left out: every templated parameter whose input is missing; fixed ones stay.
    let args = call(&yaml, json!({})).unwrap();
    assert_eq!(
        args,
        json!({"n_text": "items", "list": [], "fixed_number": 7, "fixed_list": [1, "two"], "nested": {"org": "acme", "max": 5}, "kind": "a"})
    );
    // An empty string from the model leaves the parameter out too.
    let args = call(&yaml, json!({"s": ""})).unwrap();
    assert!(args.get("s").is_none());
}

#[test]
fn context_comes_from_the_system() {
    let yaml = one_mask(
        r#"      session: "{{ context.session }}"
      principal: "{{ context.principal }}"
      profile: "{{ context.profile }}"
      env: "{{ context.env.DEPLOY_ENV }}""#,
        "",
    );
    let args = call(&yaml, json!({})).unwrap();
    // No profile is active in this surface, so `profile` is left out.
    assert_eq!(args, json!({"session": "sess-1", "principal": "alice@example.com", "env": "staging"}));
}

#[test]
fn validate_refuses_with_its_message() {
    let yaml = one_mask(
        "      n: \"{{ input.n }}\"",
        "    validate: \"{% if input.n and input.n > context.vars.limits.max %}n: at most {{ context.vars.limits.max }} (got {{ input.n }}){% endif %}\"",
    );
    let err = call(&yaml, json!({"n": 9})).unwrap_err();
    assert_eq!(err, CallError::Rejected { tool: "t".into(), message: "n: at most 5 (got 9)".into() });
    assert_eq!(err.message(), "`t` refused the call: n: at most 5 (got 9)");
    assert_eq!(call(&yaml, json!({"n": 3})).unwrap(), json!({"n": 3}));
}

#[test]
fn schema_violations_are_explained() {
    let yaml = one_mask("      n: \"{{ input.n }}\"", "");
    let err = call(&yaml, json!({"n": "five", "tags": [1]})).unwrap_err();
    let msg = err.message();
    assert!(msg.starts_with("invalid arguments for `t`: "), "{msg}");
    assert!(msg.contains("`n`: \"five\" is not of type \"integer\""), "{msg}");
    assert!(msg.contains("`tags.0`"), "{msg}");
    let err = call(&yaml, json!([1, 2])).unwrap_err();
    assert!(err.message().contains("arguments must be an object, not an array"), "{}", err.message());
    let err = call(&yaml, json!({"kind": "c"})).unwrap_err();
    assert!(err.message().contains("`kind`"), "{}", err.message());
    // A close name gets a suggestion.
    let err = call(&yaml, json!({"tag": ["x"]})).unwrap_err();
    assert!(err.message().contains("unknown argument `tag` (did you mean `tags`?)"), "{}", err.message());
}

#[test]
fn switches_pick_the_handler_and_its_shaping() {
    let masks = load_str(
        r#"
upstreams:
  gh: { command: [server] }
masks:
  - name: work
    description: Issues or pulls.
    input_schema:
      type: object
      properties:
        kind: { type: string, enum: [issues, pulls] }
        label: { type: string }
    switch:
      on: input.kind
      default: issues
      cases:
        issues:
          handler: gh/list_issues
          handler_input: { labels: "{{ input.label }}" }
        pulls:
          handler: gh/list_pull_requests
          handler_input: { state: open }
          result: { budget_tokens: 700, noun: pulls }
    result: { budget_tokens: 900 }
"#,
    );
    let surface = masks.surface(None, &[]).unwrap();
    let ctx = CallContext::default();
    let c = masks.prepare_call(&surface, "work", json!({"label": "bug"}), &ctx).unwrap();
    assert_eq!((c.upstream_tool.as_str(), c.arguments.clone()), ("list_issues", json!({"labels": "bug"})));
    assert_eq!(c.shaper.plan().budget_tokens, 900);
    let c = masks.prepare_call(&surface, "work", json!({"kind": "pulls", "label": "bug"}), &ctx).unwrap();
    assert_eq!((c.upstream_tool.as_str(), c.arguments.clone()), ("list_pull_requests", json!({"state": "open"})));
    assert_eq!(c.shaper.plan().budget_tokens, 700);
    assert_eq!(c.shaper.plan().noun(), "pulls");
}

#[test]
fn template_errors_at_load_name_the_mask_field_and_line() {
    let yaml = one_mask("      x: \"{{ input.n \"", "");
    let err = load(&yaml, "t.yaml", &|_| None).unwrap_err();
    let text = err.to_string();
    assert!(text.contains("template error in mask `t`, `handler_input.x`, line 1 of the template"), "{text}");
    assert!(text.starts_with("t.yaml:19:7: "), "{text}");
}

#[test]
fn masks_without_an_input_schema_take_no_arguments() {
    let masks = load_str(
        "upstreams: { up: { command: [s] } }\nmasks:\n  - { name: ping, handler: up/ping, description: Ping. }\n",
    );
    let surface = masks.surface(None, &[]).unwrap();
    let def = surface.get("ping").unwrap();
    assert_eq!(def.input_schema, json!({"type": "object", "properties": {}}));
    let ok = masks.prepare_call(&surface, "ping", json!(null), &CallContext::default()).unwrap();
    assert_eq!(ok.arguments, json!({}));
    let err = masks.prepare_call(&surface, "ping", json!({"x": 1}), &CallContext::default()).unwrap_err();
    assert!(err.message().contains("unknown argument `x` (this tool takes no arguments)"), "{}", err.message());
}
