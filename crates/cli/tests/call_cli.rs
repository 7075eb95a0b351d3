//! `toolshape call` for people: a failed call exits non-zero and shows the upstream's own
//! error, and `--help` says how to see more of the log.

use assert_cmd::Command;

#[test]
fn a_failed_call_exits_5_and_shows_the_upstreams_stderr() {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = dir.path().join("broken.yaml");
    std::fs::write(
        &config,
        "upstreams:\n  tracker:\n    command: [sh, -c, \"echo 'error: could not find Cargo.toml in /elsewhere' >&2; exit 1\"]\n",
    )
    .expect("write");
    let out = Command::cargo_bin("toolshape")
        .expect("binary")
        .args(["call", "--config", config.to_str().expect("utf-8"), "tracker_list_issues"])
        .env_remove("TOOLSHAPE_LOG")
        .env_remove("RUST_LOG")
        .env("XDG_STATE_HOME", dir.path())
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(5), "{stderr}");
    assert!(stderr.contains("the call failed"), "{stderr}");
    assert!(stderr.contains("tracker: error: could not find Cargo.toml in /elsewhere"), "{stderr}");
    // The model's envelope is still printed, and says it failed.
    assert!(String::from_utf8_lossy(&out.stdout).contains("\"status\":\"error\""));
}

#[test]
fn help_tells_how_to_see_the_log() {
    let out = Command::cargo_bin("toolshape").expect("binary").arg("--help").output().expect("runs");
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains("TOOLSHAPE_LOG") && help.contains("--verbose"), "{help}");
    assert!(help.contains("5 the call failed"), "{help}");
}

#[test]
fn each_config_has_its_own_span_log() {
    let dir = tempfile::tempdir().expect("tempdir");
    let run = |args: &[&str]| {
        Command::cargo_bin("toolshape")
            .expect("binary")
            .args(args)
            .current_dir(dir.path())
            .env("XDG_STATE_HOME", dir.path().join("state"))
            .output()
            .expect("runs")
    };
    for name in ["a.yaml", "b.yaml"] {
        std::fs::write(dir.path().join(name), "upstreams:\n  up:\n    command: [sh, -c, \"exit 1\"]\n").expect("write");
    }
    assert_eq!(run(&["call", "--config", "a.yaml", "up_x"]).status.code(), Some(5));
    assert_eq!(run(&["call", "--config", "a.yaml", "up_y"]).status.code(), Some(5));
    assert_eq!(run(&["call", "--config", "b.yaml", "up_x"]).status.code(), Some(5));
    let report = |config: &str| -> serde_json::Value {
        let out = run(&["report", "--config", config, "--json"]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice(&out.stdout).expect("json")
    };
    assert_eq!(report("a.yaml")["calls"], 2);
    assert_eq!(report("b.yaml")["calls"], 1);
}
