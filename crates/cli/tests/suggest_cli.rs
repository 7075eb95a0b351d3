//! `toolshape suggest`: the `result:` block it writes from a saved result is a valid mask
//! block, and `toolshape shape --config … --tool …` shapes with it.

use std::path::PathBuf;

use assert_cmd::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("toolshape")
        .expect("the toolshape binary")
        .current_dir(root())
        .args(args)
        .output()
        .expect("run");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_suggested_block_is_a_mask_that_shapes() {
    let dir = std::env::temp_dir().join(format!("toolshape-suggest-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let payload = "examples/payloads/github-list-issues.json";

    let (code, block, err) = run(&["suggest", payload]);
    assert_eq!(code, 0, "{block}{err}");
    assert!(block.starts_with("result:\n"), "{block}");
    assert!(block.contains("\"number\"") && block.contains("\"title\""), "{block}");
    let project = block.lines().find(|l| l.trim_start().starts_with("project:")).expect("a project line");
    assert!(!project.contains("\"url\"") && !project.contains("avatar_url"), "links are left out: {project}");
    assert!(block.contains("# left out: ") && block.contains("avatar_url"), "and listed: {block}");
    assert!(block.contains("group_by"), "{block}");

    let indented: String = block.lines().map(|l| format!("    {l}\n")).collect();
    let config = format!(
        "upstreams:\n  gh: {{ command: [gh-server] }}\nmasks:\n  - name: issues\n    handler: gh/list_issues\n    description: Issues.\n{indented}"
    );
    let config_path = dir.join("suggested.yaml");
    std::fs::write(&config_path, config).expect("write the config");
    let config_path = config_path.display().to_string();
    let (code, out, err) = run(&["check", "--config", &config_path]);
    assert_eq!(code, 0, "the suggested block checks clean: {out}{err}");
    let (code, out, err) = run(&["shape", "--config", &config_path, "--tool", "issues", payload]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("\"number\":"), "{out}");
    assert!(!out.contains("\"html_url\""), "a field the suggestion leaves out: {out}");
}

#[test]
fn text_has_no_records_to_suggest_for() {
    let dir = std::env::temp_dir().join(format!("toolshape-suggest-text-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let file = dir.join("log.txt");
    std::fs::write(&file, "INFO started\nERROR failed\n").expect("write");
    let (code, _, err) = run(&["suggest", &file.display().to_string()]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("no list of records"), "{err}");
}
