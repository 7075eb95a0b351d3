//! Profile scoping and unmasked upstream tools: what each profile lists, and that a tool
//! outside the profile is refused exactly like a tool that does not exist.

mod common;

use common::load_str;
use serde_json::json;
use toolshape_mask::{CallContext, CallError, UpstreamTool};

const CONFIG: &str = r#"
upstreams:
  github: { command: [npx, server-github] }
  slack: { url: "http://127.0.0.1:9000/mcp", prefix: chat }
  secret: { command: [vault-mcp], expose_unmasked: false }
masks:
  - { name: list_issues_acme, handler: github/list_issues, description: Open issues. }
  - { name: read_issue, handler: github/get_issue, description: One issue. }
  - { name: delete_repo, handler: github/delete_repository, description: Delete the repository. }
profiles:
  reader: [list_issues_acme, read_issue]
  chat: [read_issue, "chat_*"]
  admin: "*"
"#;

/// The same config without `delete_repo`: what "does not exist" looks like.
const WITHOUT_ADMIN_TOOL: &str = r#"
upstreams:
  github: { command: [npx, server-github] }
masks:
  - { name: list_issues_acme, handler: github/list_issues, description: Open issues. }
  - { name: read_issue, handler: github/get_issue, description: One issue. }
"#;

fn upstream_tools() -> Vec<UpstreamTool> {
    let tool = |upstream: &str, name: &str| UpstreamTool {
        upstream: upstream.into(),
        name: name.into(),
        description: format!("{upstream} {name}"),
        input_schema: json!({"type": "object", "properties": {"x": {"type": "string"}}}),
        annotations: None,
    };
    vec![
        tool("github", "list_issues"),
        tool("github", "create_issue"),
        tool("github", "get_issue"),
        tool("slack", "post_message"),
        tool("slack", "list channels"),
        tool("secret", "read_secret"),
        tool("unknown", "whatever"),
    ]
}

fn names(masks: &toolshape_mask::MaskSet, profile: Option<&str>) -> Vec<String> {
    masks.surface(profile, &upstream_tools()).expect("surface").definitions().map(|d| d.name.clone()).collect()
}

#[test]
fn each_profile_lists_its_tools() {
    let masks = load_str(CONFIG);
    assert_eq!(names(&masks, Some("reader")), ["list_issues_acme", "read_issue"]);
    assert_eq!(names(&masks, Some("chat")), ["read_issue", "chat_post_message", "chat_list_channels"]);
    let everything = [
        "list_issues_acme",
        "read_issue",
        "delete_repo",
        "github_create_issue",
        "chat_post_message",
        "chat_list_channels",
    ];
    assert_eq!(names(&masks, Some("admin")), everything);
    assert_eq!(names(&masks, None), everything);
}

#[test]
fn handlers_hidden_upstreams_and_unknown_upstreams_are_not_listed() {
    let masks = load_str(CONFIG);
    let all = names(&masks, None);
    // `github/list_issues` and `github/get_issue` are mask handlers: only the masks show.
    assert!(!all.iter().any(|n| n == "github_list_issues" || n == "github_get_issue"));
    // `secret` hides its unmasked tools; tools of an upstream not in the config are ignored.
    assert!(!all.iter().any(|n| n.contains("read_secret") || n.contains("whatever")));
}

#[test]
fn a_tool_outside_the_profile_is_refused_like_a_missing_one() {
    let masks = load_str(CONFIG);
    let reader = masks.surface(Some("reader"), &upstream_tools()).unwrap();
    let hidden = masks.prepare_call(&reader, "delete_repo", json!({}), &CallContext::default()).unwrap_err();

    let other = load_str(WITHOUT_ADMIN_TOOL);
    let everything = other.surface(None, &upstream_tools()).unwrap();
    let missing = other.prepare_call(&everything, "delete_repo", json!({}), &CallContext::default()).unwrap_err();

    assert_eq!(hidden, missing);
    assert_eq!(hidden.message(), missing.message());
    assert!(matches!(hidden, CallError::UnknownTool { .. }));
    // The hint comes from the profile's own tools, so it cannot reveal hidden ones.
    let near = masks.prepare_call(&reader, "delete_rep", json!({}), &CallContext::default()).unwrap_err();
    assert!(!near.message().contains("delete_repo"), "{}", near.message());
    // Unmasked tools are scoped the same way.
    let err = masks.prepare_call(&reader, "github_create_issue", json!({}), &CallContext::default()).unwrap_err();
    assert!(matches!(err, CallError::UnknownTool { .. }));
    // And the shaper lookup too.
    assert!(masks.shaper(&reader, "delete_repo").is_err());
}

#[test]
fn unmasked_tools_are_routed_to_their_upstream_by_original_name() {
    let masks = load_str(CONFIG);
    let chat = masks.surface(Some("chat"), &upstream_tools()).unwrap();
    let call =
        masks.prepare_call(&chat, "chat_list_channels", json!({"x": "general"}), &CallContext::default()).unwrap();
    assert_eq!((call.upstream.as_str(), call.upstream_tool.as_str()), ("slack", "list channels"));
    assert_eq!(call.mask, None);
    assert_eq!(call.arguments, json!({"x": "general"}));
    assert_eq!(call.shaper.plan().budget_tokens, masks.defaults().budget_tokens);
}

#[test]
fn an_unknown_profile_is_an_error_with_a_suggestion() {
    let masks = load_str(CONFIG);
    let err = masks.surface(Some("readr"), &[]).unwrap_err();
    assert_eq!(err.to_string(), "unknown profile `readr`; did you mean `reader`?");
    let err = masks.surface(Some("zzz"), &[]).unwrap_err();
    assert_eq!(err.to_string(), "unknown profile `zzz`; profiles: `admin`, `chat`, `reader`");
}

#[test]
fn prefix_policy_none_and_collisions() {
    let masks = load_str(
        r#"
upstreams:
  a: { command: [a] }
  b: { command: [b] }
defaults: { prefix: none }
masks:
  - { name: search, handler: a/find, description: Search. }
"#,
    );
    let tools = vec![
        UpstreamTool {
            upstream: "a".into(),
            name: "search".into(),
            description: String::new(),
            input_schema: json!(null),
            annotations: None,
        },
        UpstreamTool {
            upstream: "a".into(),
            name: "fetch".into(),
            description: String::new(),
            input_schema: json!(null),
            annotations: None,
        },
        UpstreamTool {
            upstream: "b".into(),
            name: "fetch".into(),
            description: String::new(),
            input_schema: json!(null),
            annotations: None,
        },
    ];
    let surface = masks.surface(None, &tools).unwrap();
    let listed: Vec<&str> = surface.definitions().map(|d| d.name.as_str()).collect();
    assert_eq!(listed, ["search", "fetch"]);
    assert_eq!(surface.notes().len(), 2, "{:?}", surface.notes());
    assert!(surface.notes()[0].contains("`a/search`"));
    // A missing upstream schema is listed as an empty object schema.
    assert_eq!(surface.get("fetch").unwrap().input_schema, json!({"type": "object"}));
    let call = masks.prepare_call(&surface, "fetch", json!(null), &CallContext::default()).unwrap();
    assert_eq!(call.upstream, "a");
}

#[test]
fn hiding_all_unmasked_tools() {
    let masks = load_str(
        r#"
upstreams:
  github: { command: [npx, server-github] }
defaults: { expose_unmasked: false }
masks:
  - { name: read_issue, handler: github/get_issue, description: One issue. }
"#,
    );
    assert_eq!(names(&masks, None), ["read_issue"]);
}

#[test]
fn the_config_names_the_upstreams_a_tool_can_reach() {
    let masks = load_str(CONFIG);
    let set = |names: &[&str]| Some(names.iter().map(|n| (*n).to_owned()).collect::<std::collections::BTreeSet<_>>());
    assert_eq!(masks.upstreams_for("read_issue"), set(&["github"]));
    assert_eq!(masks.upstreams_for("github_create_issue"), set(&["github"]));
    // The upstream's `prefix`, not its name, begins its tools' names.
    assert_eq!(masks.upstreams_for("chat_post_message"), set(&["slack"]));
    assert_eq!(masks.upstreams_for("slack_post_message"), set(&[]));
    // Hidden upstreams list no unmasked tools, so no name reaches them.
    assert_eq!(masks.upstreams_for("secret_read_secret"), set(&[]));
    assert_eq!(masks.upstreams_for("githubcreate"), set(&[]), "the separator must follow the prefix");
    let unprefixed = load_str("upstreams:\n  github: { command: [npx, server-github] }\ndefaults: { prefix: none }\n");
    assert_eq!(unprefixed.upstreams_for("create_issue"), None, "an unprefixed name could be any upstream's");
}
