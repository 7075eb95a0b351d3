//! The bundled examples pass their own audit, or the audit says for each flagged tool why it
//! stays flagged or what to write.

use assert_cmd::Command;

#[test]
fn every_flagged_tool_of_every_example_gets_advice() {
    let examples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let mut audited = 0;
    for entry in std::fs::read_dir(&examples).expect("examples") {
        let path = entry.expect("entry").path();
        if path.extension().and_then(|e| e.to_str()) != Some("yaml") {
            continue;
        }
        let out = Command::cargo_bin("toolshape")
            .expect("binary")
            .args(["audit", "--json", "--config", path.to_str().expect("utf-8")])
            // The examples read tokens from the environment; any value will do offline.
            .env("GITHUB_TOKEN", "x")
            .env("HOME_TOKEN", "x")
            .output()
            .expect("runs");
        let report: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|_| panic!("{}: {}", path.display(), String::from_utf8_lossy(&out.stderr)));
        for tool in report["tools"].as_array().expect("tools") {
            if tool["flagged"] != true {
                continue;
            }
            let advice = &tool["advice"];
            let lines = advice["lines"].as_array().map_or(0, Vec::len);
            let notes = advice["remaining"].as_array().map_or(0, Vec::len);
            assert!(lines + notes > 0, "{}: {} flagged without advice", path.display(), tool["tool"]);
        }
        audited += 1;
    }
    assert!(audited >= 5, "only {audited} examples");
}
