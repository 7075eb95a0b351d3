//! `search_hint` on a mask and on an upstream entry: read from the config, refused with a
//! clear error when empty or too long, given to search through the surface, and never part
//! of a tool definition the model sees.

use serde_json::json;
use toolshape_mask::{MAX_SEARCH_HINT_CHARS, UpstreamTool};

const CONFIG: &str = r#"
upstreams:
  tracker:
    command: [tracker-mcp]
    search_hint: tickets kanban board bugs
  files: { command: [files-mcp] }
masks:
  - name: open_issues
    handler: tracker/list_issues
    description: The open issues.
    search_hint: "  backlog triage  "
"#;

fn tool(upstream: &str, name: &str) -> UpstreamTool {
    UpstreamTool {
        upstream: upstream.into(),
        name: name.into(),
        description: format!("{upstream} {name}"),
        input_schema: json!({"type": "object"}),
        annotations: None,
    }
}

#[test]
fn hints_reach_the_surface_but_never_the_definitions() {
    let (config, masks) = toolshape_mask::load(CONFIG, "t.yaml", &|_| None).unwrap();
    assert_eq!(config.upstreams["tracker"].search_hint.as_deref(), Some("tickets kanban board bugs"));
    let surface = masks
        .surface(None, &[tool("tracker", "list_issues"), tool("tracker", "close"), tool("files", "read")])
        .unwrap();
    assert_eq!(surface.search_hint("open_issues"), Some("backlog triage"), "the mask's own, trimmed");
    assert_eq!(surface.search_hint("tracker_close"), Some("tickets kanban board bugs"), "the upstream's");
    assert_eq!(surface.search_hint("files_read"), None);
    assert_eq!(surface.search_hint("no_such_tool"), None);
    for def in surface.definitions() {
        let listed = def.to_json().to_string() + &serde_json::to_string(def).unwrap();
        assert!(!listed.contains("kanban") && !listed.contains("backlog"), "{listed}");
    }
}

#[test]
fn empty_or_long_hints_are_refused_with_the_line_and_what_to_write() {
    let empty = CONFIG.replace("\"  backlog triage  \"", "\"  \"");
    let error = toolshape_mask::load(&empty, "t.yaml", &|_| None).unwrap_err().to_string();
    assert!(error.contains("t.yaml:11:") && error.contains("`search_hint` is empty"), "{error}");
    assert!(error.contains("masks[0].search_hint") && error.contains("remove the key"), "{error}");

    let long = CONFIG.replace("tickets kanban board bugs", &"word ".repeat(MAX_SEARCH_HINT_CHARS));
    let error = toolshape_mask::load(&long, "t.yaml", &|_| None).unwrap_err().to_string();
    assert!(error.contains("t.yaml:5:") && error.contains("over the limit of 500"), "{error}");
    assert!(error.contains("upstreams.tracker.search_hint"), "{error}");

    let typo = CONFIG.replace("search_hint: tickets", "search_hints: tickets");
    let error = toolshape_mask::load(&typo, "t.yaml", &|_| None).unwrap_err().to_string();
    assert!(error.contains("search_hints"), "{error}");
}
