//! `audit`'s advice: the `result:` lines it offers for a flagged tool, written into the
//! config, make the tool pass the same audit; what no line can bound is said instead.

use toolshape_mask::audit::{DEFAULT_THRESHOLD_TOKENS, OutputSchemas, audit};
use toolshape_mask::load;

fn report(yaml: &str) -> toolshape_mask::audit::AuditReport {
    let (_, masks) = load(yaml, "t.yaml", &|_| None).unwrap_or_else(|e| panic!("{e}\n{yaml}"));
    let surface = masks.surface(None, &[]).expect("surface");
    audit(&masks, &surface, &OutputSchemas::new(), DEFAULT_THRESHOLD_TOKENS)
}

fn config(result_lines: &[String]) -> String {
    let mut yaml = String::from(
        "upstreams:\n  gh: { command: [gh-server] }\ndefaults: { expose_unmasked: false }\nmasks:\n  - name: issues\n    handler: gh/list_issues\n    description: Issues.\n    result:\n      project: [number, title, body]\n      budget_tokens: 3000\n",
    );
    // Each line sets its key: one already there is replaced.
    for line in result_lines {
        let line = line.split("   #").next().unwrap_or(line).trim_end();
        let key = line.split(':').next().unwrap_or_default();
        let kept: Vec<&str> = yaml.lines().filter(|l| !l.trim_start().starts_with(&format!("{key}:"))).collect();
        yaml = kept.join("\n") + "\n      " + line + "\n";
    }
    yaml
}

#[test]
fn the_offered_lines_make_the_tool_pass() {
    let before = report(&config(&[]));
    let tool = &before.tools[0];
    assert!(tool.flagged, "{tool:?}");
    let advice = tool.advice.as_ref().expect("advice for a flagged tool");
    assert!(advice.passes, "{advice:?}");
    assert!(advice.lines.iter().any(|l| l.starts_with("records:")), "{:?}", advice.lines);
    assert!(advice.lines.iter().any(|l| l.starts_with("field_tokens:")), "{:?}", advice.lines);
    let after = report(&config(&advice.lines));
    assert!(!after.tools[0].flagged, "{:?}\n{}", after.tools[0], config(&advice.lines));
    assert_eq!(after.tools[0].plan.attacker_tokens, advice.attacker_tokens);
}

#[test]
fn text_by_design_and_unbounded_lists_are_said_not_hidden() {
    let text = "upstreams:\n  app: { command: [app] }\ndefaults: { expose_unmasked: false }\nmasks:\n  - name: log\n    handler: app/read_log\n    description: The log.\n    result:\n      text: { keep: head_tail }\n      budget_tokens: 1500\n";
    let r = report(text);
    let advice = r.tools[0].advice.as_ref().expect("advice");
    assert!(advice.lines.is_empty() && advice.remaining[0].contains("text by design"), "{advice:?}");

    let fans = config(&["project: [number, \"labels[].name as labels\"]".to_owned()])
        .replace("      project: [number, title, body]\n", "");
    let r = report(&fans);
    let advice = r.tools[0].advice.as_ref().expect("advice");
    assert!(!advice.passes, "{advice:?}");
    assert!(advice.remaining.iter().any(|n| n.contains("labels[].name")), "{advice:?}");
}
