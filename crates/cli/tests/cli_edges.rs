//! The command line's edges: usage errors exit 2 with words a person can act on, flags that
//! change nothing say so, and one problem of a config is reported once, where it is written.

use std::path::PathBuf;

use assert_cmd::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Run `toolshape ARGS` from the repository root: exit code, standard output, standard error.
fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("toolshape").expect("the toolshape binary").current_dir(root()).args(args).output();
    let out = out.expect("run toolshape");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const ISSUES: &str = "examples/payloads/github-list-issues.json";
const TEXT: &str = "examples/payloads/fs-read-text-file.txt";

#[test]
fn call_with_arguments_that_are_not_json_is_a_usage_error() {
    for (args, says) in [
        (r#"{"label": "#, "not valid JSON"),
        ("label=bug", "not valid JSON"),
        ("[1, 2]", "must be a JSON object"),
        ("\"bug\"", "must be a JSON object"),
    ] {
        let (code, out, err) = run(&["call", "--config", "examples/quickstart.yaml", "open_issues", args]);
        assert_eq!(code, 2, "{args}: usage errors exit 2, as the README's table says: {err}");
        assert!(err.contains(says) && err.contains(r#"'{"label": "bug"}'"#), "{args}: {err}");
        assert!(out.is_empty(), "{out}");
    }
}

#[test]
fn workers_are_for_http_and_at_least_one() {
    let (code, _, err) = run(&["serve", "--config", "examples/quickstart.yaml", "--workers", "2"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--http"), "the flag it needs is named: {err}");
    let (code, _, err) =
        run(&["serve", "--config", "examples/quickstart.yaml", "--http", "127.0.0.1:0", "--workers", "0"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("'0'") && err.contains("--workers"), "{err}");
}

#[test]
fn a_negative_budget_is_named_as_negative() {
    for flag in [vec!["--budget", "-5"], vec!["--budget=-5"]] {
        let mut args = vec!["shape"];
        args.extend(&flag);
        args.push(ISSUES);
        let (code, _, err) = run(&args);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("a budget cannot be negative"), "{flag:?}: {err}");
        assert!(!err.contains("unexpected argument"), "-5 is a value, not a flag: {err}");
    }
    let (code, _, err) = run(&["shape", "--budget", "lots", ISSUES]);
    assert_eq!(code, 2);
    assert!(err.contains("whole number of tokens"), "{err}");
    let (code, _, err) = run(&["shape", "--offset", "-1", ISSUES]);
    assert_eq!(code, 2);
    assert!(err.contains("a position cannot be negative"), "{err}");
}

#[test]
fn a_sort_key_no_record_has_is_reported_not_silently_ignored() {
    let (code, out, err) = run(&["shape", "--budget", "400", "--sort", "nosuchfield:desc", ISSUES]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("<<<tool-result"), "the result is still printed: {out}");
    assert!(err.contains("--sort `nosuchfield` changed nothing: no record has a value at `nosuchfield`"), "{err}");
    // A key the records have sorts without a note.
    let (code, _, err) = run(&["shape", "--budget", "400", "--sort", "comments:desc", ISSUES]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("note"), "{err}");
    // A key only the filtered-out records have sorts nothing either.
    let (code, _, err) =
        run(&["shape", "--budget", "400", "--filter", "@.state == 'no such state'", "--sort", "comments", ISSUES]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("--sort"), "no records matched, so there was nothing to sort: {err}");
}

#[test]
fn record_flags_on_a_text_result_are_reported_as_ignored() {
    let (code, out, err) = run(&["shape", "--budget", "300", "--project", "number,title", "--sort", "number", TEXT]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Widgets handbook"), "{out}");
    assert!(
        err.contains("--project, --sort were ignored: the result is text, and they apply to lists of JSON records"),
        "{err}"
    );
    let (code, _, err) = run(&["shape", "--budget", "300", "--keep", "head-tail", ISSUES]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("--keep was ignored"), "{err}");
    let (code, _, err) = run(&["shape", "--budget", "300", "--keep", "head-tail", TEXT]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("ignored"), "--keep acts on text: {err}");
}

#[test]
fn a_zero_default_budget_is_reported_once_where_it_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("zero.yaml");
    std::fs::write(
        &file,
        "upstreams:\n  tracker: { command: [tracker] }\ndefaults:\n  budget_tokens: 0\nmasks:\n  - name: a\n    \
         handler: tracker/list\n    description: d\n  - name: b\n    handler: tracker/list\n    description: d\n    \
         result:\n      budget_tokens: 7\n",
    )
    .unwrap();
    let path = file.display().to_string();
    let (code, out, err) = run(&["check", "--config", &path]);
    assert_eq!(code, 1, "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "one line for the defaults, one for the mask that wrote its own: {out}");
    assert!(lines[0].starts_with(&format!("{path}:4:18: budget_tokens is 0")), "{out}");
    assert!(lines[0].contains("defaults.budget_tokens"), "{out}");
    assert!(lines[1].starts_with(&format!("{path}:13:7: budget_tokens is 7")), "{out}");
    assert!(lines[1].contains("masks[1].result.budget_tokens"), "{out}");
}

/// A large text's first read shows its head and tail and leaves `byte` and `before_end`;
/// the page they name starts where the head stopped. `--before-end` needs `--byte`.
#[test]
fn a_large_text_resumes_before_its_tail() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("big.log");
    let text: String =
        (0..6000).map(|i| format!("2026-01-02 INFO line {i} of a long log, nothing to hide\n")).collect();
    std::fs::write(&file, &text).unwrap();
    let path = file.display().to_string();
    let envelope = |out: &str| -> serde_json::Value {
        let lines: Vec<&str> = out.lines().collect();
        serde_json::from_str(&lines[1..lines.len() - 1].join("\n")).expect("an envelope inside delimiters")
    };
    let (code, out, err) = run(&["shape", "--budget", "500", "--keep", "head-tail", "--nonce", "n0", &path]);
    assert_eq!(code, 0, "{err}");
    let first = envelope(&out);
    assert!(first["summary"].as_str().unwrap().contains("of 6,000 ("), "{first}");
    let args = &first["next"]["arguments"];
    let (Some(byte), Some(before_end)) = (args["byte"].as_u64(), args["before_end"].as_u64()) else {
        panic!("no byte and before_end: {first}");
    };
    let tail = &text[text.len() - before_end as usize..];
    assert!(first["data"].as_str().unwrap().ends_with(tail), "{first}");
    let (code, out, err) = run(&[
        "shape",
        "--budget",
        "500",
        "--nonce",
        "n0",
        "--byte",
        &byte.to_string(),
        "--before-end",
        &before_end.to_string(),
        &path,
    ]);
    assert_eq!(code, 0, "{err}");
    let page = envelope(&out);
    assert!(text[byte as usize..].starts_with(page["data"].as_str().unwrap()), "{page}");
    let (code, _, err) = run(&["shape", "--before-end", "10", &path]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn a_fixed_nonce_is_letters_and_digits_or_words_of_them() {
    // Words separated by single spaces, as the gateway's own nonces are, and a single run.
    for nonce in ["quest rolling amber patent harbor", "n0"] {
        let (code, out, err) = run(&["shape", "--nonce", nonce, TEXT]);
        assert_eq!(code, 0, "{nonce}: {err}");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.first().copied(), Some(format!("<<<tool-result {nonce}").as_str()), "{out}");
        assert_eq!(lines.last().copied(), Some(format!("<<<end {nonce}").as_str()), "{out}");
    }
    // Anything else could end the delimiter line early or read as part of the data.
    for nonce in ["", "two  spaces", " lead", "a>b", "line\nbreak", "dash-ed"] {
        let (code, out, err) = run(&["shape", "--nonce", nonce, TEXT]);
        assert_eq!(code, 2, "{nonce:?}: {out}");
        assert!(err.contains("--nonce takes letters and digits"), "{nonce:?}: {err}");
    }
}
