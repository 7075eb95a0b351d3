//! `toolshape check`, `toolshape tools` and `toolshape shape --config` on the example configs.

use std::path::PathBuf;

use assert_cmd::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn toolshape() -> Command {
    let mut cmd = Command::cargo_bin("toolshape").expect("the toolshape binary");
    cmd.current_dir(root()).env("GITHUB_TOKEN", "ghp_test").env("HOME_TOKEN", "home_test");
    cmd
}

fn stdout(cmd: &mut Command) -> (i32, String, String) {
    let out = cmd.output().expect("run toolshape");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn check_passes_every_example() {
    for name in ["github-triage", "filesystem-reader", "device-status", "profiles"] {
        let file = format!("examples/{name}.yaml");
        let (code, out, err) = stdout(toolshape().args(["check", "--config", &file]));
        assert_eq!(code, 0, "{file}: {out}{err}");
        assert!(out.starts_with(&format!("{file}: OK: 1 upstream, ")), "{out}");
        assert_eq!(out.lines().count(), 1, "{out}");
    }
}

#[test]
fn check_reports_every_problem_with_its_place_and_exits_1() {
    let dir = std::env::temp_dir().join(format!("toolshape-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("broken.yaml");
    std::fs::write(
        &file,
        "upstreams:\n  github: { command: [npx, server] }\nmasks:\n  - name: a\n    handler: github/x\n    description: d\n    result:\n      budget: 10\nprofiles:\n  p: [b]\n",
    )
    .unwrap();
    let path = file.display().to_string();
    let (code, out, err) = stdout(toolshape().args(["check", "--config", &path]));
    assert_eq!(code, 1, "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert_eq!(
        lines[0],
        format!("{path}:8:7: unknown key `budget` in `masks[0].result`; did you mean `budget_tokens`?")
    );
    assert!(lines[1].starts_with(&format!("{path}:10:7: profile `p` names `b`, which is not a tool")), "{}", lines[1]);
    assert!(err.contains("2 problems"), "{err}");
}

#[test]
fn check_names_a_missing_environment_variable() {
    let (code, out, _) =
        stdout(toolshape().env_remove("GITHUB_TOKEN").args(["check", "--config", "examples/github-triage.yaml"]));
    assert_eq!(code, 1);
    assert!(out.contains("environment variable `GITHUB_TOKEN` is not set"), "{out}");
    assert!(out.starts_with("examples/github-triage.yaml:19:"), "{out}");
}

#[test]
fn tools_lists_the_surface_with_token_costs() {
    let (code, out, err) = stdout(toolshape().args(["tools", "--config", "examples/github-triage.yaml"]));
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("TOOL"), "{out}");
    assert!(lines[1].starts_with("open_issues"), "{out}");
    assert!(lines.iter().any(|l| l.starts_with("total: 6 tools, ")), "{out}");
    // Without --live it says what a static listing leaves out.
    assert!(lines.last().unwrap().starts_with("note: a static listing"), "{out}");

    let (code, out, _) = stdout(toolshape().args([
        "tools",
        "--config",
        "examples/profiles.yaml",
        "--profile",
        "maintainer",
        "--format",
        "json",
        "--upstream-tools",
        "github=examples/upstream-tools/github.json",
    ]));
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let names: Vec<&str> = v["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert!(names.contains(&"close_issue") && names.contains(&"github_create_issue"), "{names:?}");
    assert!(!names.contains(&"github_list_issues"), "a mask handler is not listed unmasked");
    let sum: u64 = v["tools"].as_array().unwrap().iter().map(|t| t["tokens"].as_u64().unwrap()).sum();
    assert_eq!(v["total_tokens"].as_u64(), Some(sum));
    assert_eq!(v["upstream_tools"]["count"].as_u64(), Some(8));

    let (code, _, err) =
        stdout(toolshape().args(["tools", "--config", "examples/profiles.yaml", "--profile", "readr"]));
    assert_eq!(code, 4);
    assert!(err.contains("did you mean `reader`?"), "{err}");
}

#[test]
fn shape_uses_the_plan_of_a_mask() {
    let (code, out, err) = stdout(toolshape().args([
        "shape",
        "--config",
        "examples/github-triage.yaml",
        "--tool",
        "open_issues",
        "--nonce",
        "abc123",
        "examples/payloads/github-list-issues.json",
    ]));
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("<<<tool-result abc123\n{\"status\":\"partial\",\"summary\":\"26 of 30 issues"), "{out}");
    assert!(out.contains("\"author\":\"evanphx\""), "projection renames apply: {out}");

    // `--arguments` are checked like a real call and pick the switch case.
    let (code, out, _) = stdout(toolshape().args([
        "shape",
        "--config",
        "examples/device-status.yaml",
        "--tool",
        "switch_light",
        "--arguments",
        r#"{"room": "kitchen", "state": "on"}"#,
        "examples/payloads/home-light-turn-on.json",
    ]));
    assert_eq!(code, 0);
    assert!(out.contains("\"summary\":\"switch_light succeeded\""), "{out}");
    let (code, _, err) = stdout(toolshape().args([
        "shape",
        "--config",
        "examples/device-status.yaml",
        "--tool",
        "switch_light",
        "--arguments",
        r#"{"room": "kitchen", "state": "on", "entity_id": "lock.front_door"}"#,
        "examples/payloads/home-light-turn-on.json",
    ]));
    assert_eq!(code, 4);
    assert!(err.contains("unknown argument `entity_id`"), "{err}");

    // A tool outside the profile is unknown.
    let (code, _, err) = stdout(toolshape().args([
        "shape",
        "--config",
        "examples/profiles.yaml",
        "--profile",
        "reader",
        "--tool",
        "close_issue",
        "examples/payloads/github-add-issue-comment.json",
    ]));
    assert_eq!(code, 4);
    assert!(err.contains("unknown tool `close_issue`"), "{err}");

    // Plan flags and a config do not mix.
    let (code, _, _) = stdout(toolshape().args([
        "shape",
        "--config",
        "examples/github-triage.yaml",
        "--tool",
        "open_issues",
        "--budget",
        "500",
        "examples/payloads/github-list-issues.json",
    ]));
    assert_eq!(code, 2);
}
