//! The example configs under `examples/`: each one loads without a problem, its tool
//! surface and the shaping of a saved (or generated) payload are snapshots, and the
//! definition cost of the GitHub triage masks is measured against the raw upstream tools.

mod common;

use common::{example_text, examples_dir, load_example, shape};
use serde_json::{Value, json};
use toolshape_mask::{CallContext, MaskSet, Surface, ToolDefinition, UpstreamTool};
use toolshape_tokens::Tokenizer;

const EXAMPLES: &[&str] = &["github-triage.yaml", "filesystem-reader.yaml", "device-status.yaml", "profiles.yaml"];

fn surface_json(surface: &Surface, tokenizer: &Tokenizer) -> Value {
    let tools: Vec<Value> = surface
        .definitions()
        .map(|d| {
            let mut v = d.to_json();
            v["tokens"] = json!(d.tokens(tokenizer));
            v
        })
        .collect();
    json!({ "profile": surface.profile(), "total_tokens": surface.tokens(tokenizer), "tools": tools })
}

fn payload(name: &str) -> Vec<u8> {
    std::fs::read(examples_dir().join("payloads").join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn github_tools() -> Vec<UpstreamTool> {
    let list: Value = serde_json::from_str(&example_text("upstream-tools/github.json")).expect("JSON");
    list["tools"]
        .as_array()
        .expect("a tools array")
        .iter()
        .map(|t| UpstreamTool {
            upstream: "github".into(),
            name: t["name"].as_str().expect("a name").into(),
            description: t["description"].as_str().expect("a description").into(),
            input_schema: t["inputSchema"].clone(),
            annotations: None,
        })
        .collect()
}

fn shaped_text(masks: &MaskSet, tool: &str, args: Value, payload: &[u8]) -> String {
    let surface = masks.surface(None, &[]).expect("surface");
    let call = masks.prepare_call(&surface, tool, args, &CallContext::default()).expect("call");
    let tokenizer = Tokenizer::new(masks.defaults().tokenizer);
    let shaped = shape(call.shaper, tool, payload, tokenizer);
    assert!(shaped.report.tokens_out.is_some_and(|t| t as usize <= call.shaper.plan().budget_tokens));
    shaped.text
}

#[test]
fn every_example_loads_without_problems() {
    for name in EXAMPLES {
        let (config, masks) = load_example(name);
        assert!(masks.mask_names().count() > 0, "{name} has no masks");
        assert!(!config.upstreams.is_empty(), "{name} has no upstreams");
    }
    // Every example is documented: it starts with a comment block.
    for name in EXAMPLES {
        assert!(example_text(name).starts_with("# "), "{name} should start with a comment");
    }
}

#[test]
fn surfaces_of_the_examples() {
    for name in EXAMPLES {
        let (_, masks) = load_example(name);
        let tokenizer = Tokenizer::new(masks.defaults().tokenizer);
        let surface = masks.surface(None, &[]).unwrap();
        insta::assert_json_snapshot!(
            format!("surface-{}", name.trim_end_matches(".yaml")),
            surface_json(&surface, &tokenizer)
        );
    }
}

#[test]
fn profile_surfaces_of_the_profiles_example() {
    let (_, masks) = load_example("profiles.yaml");
    let tokenizer = Tokenizer::new(masks.defaults().tokenizer);
    let upstream = github_tools();
    for profile in ["reader", "maintainer"] {
        let surface = masks.surface(Some(profile), &upstream).unwrap();
        insta::assert_json_snapshot!(format!("surface-profiles-{profile}"), surface_json(&surface, &tokenizer));
    }
}

#[test]
fn github_triage_shapes_saved_payloads() {
    let (_, masks) = load_example("github-triage.yaml");
    let issues = payload("github-list-issues.json");
    insta::assert_snapshot!("shaped-github-open_issues", shaped_text(&masks, "open_issues", json!({}), &issues));
    insta::assert_snapshot!("shaped-github-issue_stats", shaped_text(&masks, "issue_stats", json!({}), &issues));
    let search = payload("github-search-issues.json");
    insta::assert_snapshot!(
        "shaped-github-find_issues",
        shaped_text(&masks, "find_issues", json!({"words": "crash"}), &search)
    );
    let pulls = payload("github-list-pull-requests.json");
    insta::assert_snapshot!(
        "shaped-github-open_work-pulls",
        shaped_text(&masks, "open_work", json!({"kind": "pulls"}), &pulls)
    );
    let comment = payload("github-add-issue-comment.json");
    insta::assert_snapshot!(
        "shaped-github-comment_on_issue",
        shaped_text(&masks, "comment_on_issue", json!({"number": 1412, "text": "Thanks"}), &comment)
    );
}

#[test]
fn filesystem_reader_shapes_files_and_trees() {
    let (_, masks) = load_example("filesystem-reader.yaml");
    let file = payload("fs-read-text-file.txt");
    insta::assert_snapshot!(
        "shaped-fs-read_doc",
        shaped_text(&masks, "read_doc", json!({"path": "handbook.md"}), &file)
    );
    // A long file: kept head and tail at whole lines, with how to read the middle.
    let long: String = (1..=600).map(|n| format!("line {n}: the widgets service handles request {n}\n")).collect();
    insta::assert_snapshot!(
        "shaped-fs-read_doc-long",
        shaped_text(&masks, "read_doc", json!({"path": "logs/service.log"}), long.as_bytes())
    );
    let tree = payload("fs-directory-tree.json");
    insta::assert_snapshot!("shaped-fs-doc_tree", shaped_text(&masks, "doc_tree", json!({}), &tree));
}

#[test]
fn device_status_shapes_state_changes_as_status_only() {
    let (_, masks) = load_example("device-status.yaml");
    let turned_on = payload("home-light-turn-on.json");
    let text = shaped_text(&masks, "switch_light", json!({"room": "kitchen", "state": "on"}), &turned_on);
    assert!(text.contains("switch_light succeeded"), "{text}");
    insta::assert_snapshot!("shaped-device-switch_light", text);
    let states = payload("home-states.json");
    insta::assert_snapshot!("shaped-device-device_status", shaped_text(&masks, "device_status", json!({}), &states));
}

#[test]
fn profiles_example_shapes_the_reader_view() {
    let (_, masks) = load_example("profiles.yaml");
    let issues = payload("github-list-issues.json");
    let surface = masks.surface(Some("reader"), &[]).unwrap();
    let call =
        masks.prepare_call(&surface, "list_open_issues", json!({"label": "bug"}), &CallContext::default()).unwrap();
    assert_eq!(call.arguments["labels"], json!(["bug"]));
    let shaped = shape(call.shaper, "list_open_issues", &issues, Tokenizer::default());
    insta::assert_snapshot!("shaped-profiles-list_open_issues", shaped.text);
}

/// Prepared calls of the examples: what each mask sends upstream for typical arguments.
#[test]
fn prepared_calls_of_the_examples() {
    let cases: &[(&str, &str, Value)] = &[
        ("github-triage.yaml", "open_issues", json!({"label": "bug"})),
        ("github-triage.yaml", "open_issues", json!({})),
        ("github-triage.yaml", "issue", json!({"number": 7})),
        ("github-triage.yaml", "find_issues", json!({"words": "crash on start", "state": "open"})),
        ("github-triage.yaml", "open_work", json!({})),
        ("github-triage.yaml", "open_work", json!({"kind": "pulls"})),
        ("github-triage.yaml", "comment_on_issue", json!({"number": 3, "text": "On it"})),
        ("filesystem-reader.yaml", "read_doc", json!({"path": "guides/deployment.md", "first_lines": 40})),
        ("filesystem-reader.yaml", "read_docs", json!({"paths": ["a.md", "b/c.md"]})),
        ("filesystem-reader.yaml", "list_docs", json!({})),
        ("filesystem-reader.yaml", "find_docs", json!({"pattern": "*.md"})),
        ("device-status.yaml", "switch_light", json!({"room": "office", "state": "off"})),
        ("device-status.yaml", "set_temperature", json!({"celsius": 21.5})),
        ("profiles.yaml", "close_issue", json!({"number": 12})),
    ];
    let mut out = Vec::new();
    for (file, tool, args) in cases {
        let (_, masks) = load_example(file);
        let surface = masks.surface(None, &[]).unwrap();
        let ctx = CallContext { session: Some("s-1".into()), principal: Some("alice".into()) };
        let call = masks.prepare_call(&surface, tool, args.clone(), &ctx).unwrap_or_else(|e| panic!("{tool}: {e}"));
        out.push(json!({
            "config": file, "tool": tool, "arguments": args,
            "upstream": call.upstream, "upstream_tool": call.upstream_tool, "handler_arguments": call.arguments,
        }));
    }
    insta::assert_json_snapshot!("prepared-calls", out);
}

#[test]
fn example_validations_refuse_with_constructive_messages() {
    let (_, fs) = load_example("filesystem-reader.yaml");
    let surface = fs.surface(None, &[]).unwrap();
    let err =
        fs.prepare_call(&surface, "read_doc", json!({"path": "../etc/passwd"}), &CallContext::default()).unwrap_err();
    assert!(err.message().contains("`..` is not allowed"), "{}", err.message());
    let err =
        fs.prepare_call(&surface, "read_doc", json!({"path": "/etc/passwd"}), &CallContext::default()).unwrap_err();
    assert!(err.message().contains("without a leading `/`"), "{}", err.message());

    let (_, dev) = load_example("device-status.yaml");
    let surface = dev.surface(None, &[]).unwrap();
    let err =
        dev.prepare_call(&surface, "set_temperature", json!({"celsius": 40}), &CallContext::default()).unwrap_err();
    assert_eq!(err.message(), "`set_temperature` refused the call: celsius: choose between 15 and 25 (asked 40)");
    let err = dev
        .prepare_call(&surface, "switch_light", json!({"room": "attic", "state": "on"}), &CallContext::default())
        .unwrap_err();
    assert!(err.message().contains("`room`"), "{}", err.message());
}

/// The definition cost of the GitHub triage masks against the raw upstream definitions.
/// Printed for BENCHMARKS.md (`cargo test -p toolshape-mask --test examples definition_cost -- --nocapture`).
#[test]
fn definition_cost_of_github_triage() {
    let (_, masks) = load_example("github-triage.yaml");
    let tokenizer = Tokenizer::new(masks.defaults().tokenizer);
    let upstream = github_tools();
    let raw_cost = |tools: &[&UpstreamTool]| -> usize {
        tools
            .iter()
            .map(|t| {
                ToolDefinition {
                    name: t.name.clone(),
                    description: t.description.clone(),
                    input_schema: t.input_schema.clone(),
                    annotations: None,
                }
                .tokens(&tokenizer)
            })
            .sum()
    };
    let all: Vec<&UpstreamTool> = upstream.iter().collect();
    let handlers = ["list_issues", "get_issue", "search_issues", "list_pull_requests", "add_issue_comment"];
    let covered: Vec<&UpstreamTool> = upstream.iter().filter(|t| handlers.contains(&t.name.as_str())).collect();
    let masked = masks.surface(None, &upstream).unwrap();
    let masked_tokens = masked.tokens(&tokenizer);
    let raw_all = raw_cost(&all);
    let raw_covered = raw_cost(&covered);
    println!(
        "github-triage: {} masks, {masked_tokens} tokens; raw upstream: {} tools, {raw_all} tokens; \
         the {} handler tools alone: {raw_covered} tokens",
        masked.len(),
        all.len(),
        covered.len()
    );
    assert_eq!(masked.len(), 6, "expose_unmasked is off: only the masks are listed");
    assert!(
        masked_tokens < raw_covered,
        "masks ({masked_tokens}) should cost less than their handlers ({raw_covered})"
    );
    insta::assert_json_snapshot!(
        "definition-cost-github-triage",
        json!({ "masked_tools": masked.len(), "masked_tokens": masked_tokens, "raw_tools": all.len(), "raw_tokens": raw_all,
                "handler_tools": covered.len(), "handler_tokens": raw_covered })
    );
}

#[test]
fn many_servers_example_defers_all_but_a_few_tools() {
    let (config, _) = load_example("many-servers.yaml");
    let search = config.search.expect("the example configures search");
    assert!(search.is_always_loaded("time_get_current_time"));
    assert!(search.is_always_loaded("fs_read_text_file"));
    assert!(!search.is_always_loaded("memory_create_entities"));
    assert_eq!(config.upstreams.len(), 5);
}
