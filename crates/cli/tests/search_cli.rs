//! `toolshape search`: output lines (with how many matched and were shown, and declining),
//! `--gold` metrics on hand-computed examples, and the message and exit code of each kind of
//! bad input.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::{Value, json};

/// A fresh folder for one test's files, removed when the test ends.
struct Folder(PathBuf);

impl std::ops::Deref for Folder {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn folder(test: &str) -> Folder {
    let dir = std::env::temp_dir().join(format!("toolshape-search-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp folder");
    Folder(dir)
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write fixture");
    path.display().to_string()
}

fn json_lines(values: &[Value]) -> String {
    values.iter().map(|v| format!("{v}\n")).collect()
}

/// A small catalog as an MCP `tools/list` result.
fn catalog(dir: &Path) -> String {
    let tools = json!({"tools": [
        {"name": "alpha_one", "description": "Send an email to one person.",
         "inputSchema": {"type": "object", "properties": {"to": {"type": "string", "description": "Recipient address"}}}},
        {"name": "alpha_two", "description": "Archive old email threads."},
        {"name": "beta_one", "description": "Book a meeting room for a team."},
        {"name": "gamma", "description": "Convert a currency amount at today's rate."}
    ]});
    write(dir, "tools.json", &tools.to_string())
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("toolshape").expect("the toolshape binary").args(args).output().expect("run");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn one_query_prints_one_line_with_a_null_id() {
    let dir = folder("one");
    let catalog = catalog(&dir);
    let (code, out, err) = run(&["search", "--catalog", &catalog, "--query", "convert currency"]);
    assert_eq!(code, 0, "{err}");
    let line: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(line["id"], Value::Null);
    assert_eq!(line["tools"][0], "gamma");
    assert_eq!(out.lines().count(), 1);
}

#[test]
fn a_queries_file_prints_one_line_per_query_in_order_within_the_limit() {
    let dir = folder("many");
    let catalog = catalog(&dir);
    let queries = write(
        &dir,
        "q.jsonl",
        &json_lines(&[json!({"id": "mail", "query": "send an email"}), json!({"id": 7, "query": "book a room"})]),
    );
    let (code, out, err) = run(&["search", "--catalog", &catalog, "--queries", &queries, "--limit", "1"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 2);
    assert_eq!((&lines[0]["id"], &lines[0]["tools"]), (&json!("mail"), &json!(["alpha_one"])));
    assert_eq!((&lines[1]["id"], &lines[1]["tools"]), (&json!(7), &json!(["beta_one"])));
    for line in &lines {
        assert_eq!((&line["status"], &line["shown"]), (&json!("ok"), &json!(1)), "{line}");
    }
    // Both email tools fit "send an email": one shown of two matched. Only the room tool
    // fits "book a room": a tool that merely shares a word (or some likeness) is not
    // counted as matched.
    assert_eq!(lines[0]["matched"], json!(2), "{}", lines[0]);
    assert_eq!(lines[1]["matched"], json!(1), "{}", lines[1]);

    // Regex mode: names first, in catalog order.
    let (code, out, err) = run(&["search", "--catalog", &catalog, "--query", "^alpha", "--mode", "regex"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(serde_json::from_str::<Value>(out.trim()).unwrap()["tools"], json!(["alpha_one", "alpha_two"]));
}

/// A catalog large enough for the search to decline (it declines from 20 tools on).
fn servers_catalog(dir: &Path) -> String {
    let described = [
        ("read_file", "Read the contents of a file from disk."),
        ("write_file", "Write text to a file on disk."),
        ("list_directory", "List the files in a directory."),
        ("move_file", "Move or rename a file."),
        ("create_issue", "Create an issue in a GitHub repository."),
        ("list_pull_requests", "List the pull requests of a repository."),
        ("merge_pull_request", "Merge a pull request."),
        ("post_message", "Post a message to a Slack channel."),
        ("channel_history", "Read recent messages of a Slack channel."),
        ("get_current_time", "Get the current time in a timezone."),
        ("convert_time", "Convert a time between timezones."),
        ("web_search", "Search the web for pages and news."),
        ("fetch_url", "Fetch a web page and return it as markdown."),
        ("geocode", "Convert an address into coordinates."),
        ("directions", "Get driving directions between two places."),
        ("sql_query", "Run a read-only SQL query on the database."),
        ("navigate", "Open a URL in the browser."),
        ("screenshot", "Take a screenshot of the browser page."),
        ("click", "Click an element on the page."),
        ("git_commit", "Record staged changes in the git repository."),
        ("git_status", "Show the git working tree status."),
        ("create_entities", "Add entities to the knowledge graph."),
    ];
    let tools: Vec<Value> = described.iter().map(|(name, text)| json!({"name": name, "description": text})).collect();
    write(dir, "servers.json", &json!({"tools": tools}).to_string())
}

#[test]
fn a_request_no_tool_fits_prints_an_empty_list_with_a_hint() {
    let dir = folder("decline");
    let catalog = servers_catalog(&dir);
    let (code, out, err) = run(&["search", "--catalog", &catalog, "--query", "order a large pepperoni pizza"]);
    assert_eq!(code, 0, "{err}");
    let line: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!((&line["status"], &line["tools"], &line["shown"]), (&json!("empty"), &json!([]), &json!(0)), "{line}");
    assert!(line["hint"].as_str().unwrap().contains("no tool fits"), "{line}");

    // The same request with declining off gets the least bad tools; one that fits is served.
    let (_, out, _) =
        run(&["search", "--catalog", &catalog, "--query", "order a large pepperoni pizza", "--without", "decline"]);
    assert!(!serde_json::from_str::<Value>(out.trim()).unwrap()["tools"].as_array().unwrap().is_empty());
    let (_, out, _) = run(&["search", "--catalog", &catalog, "--query", "take a screenshot of the page"]);
    assert_eq!(serde_json::from_str::<Value>(out.trim()).unwrap()["tools"][0], "screenshot");
}

#[test]
fn gold_counts_alternatives_and_declines() {
    let dir = folder("gold-declines");
    let catalog = servers_catalog(&dir);
    let queries = write(
        &dir,
        "q.jsonl",
        &json_lines(&[
            json!({"id": 1, "query": "take a screenshot of the page"}),
            json!({"id": 2, "query": "order a large pepperoni pizza"}),
            json!({"id": 3, "query": "play jazz on the living room speaker"}),
        ]),
    );
    let gold = write(
        &dir,
        "gold.jsonl",
        &json_lines(&[
            json!({"id": 1, "tools": [["screenshot", "navigate"]]}),
            json!({"id": 2, "tools": []}),
            json!({"id": 3, "tools": []}),
        ]),
    );
    let (code, out, err) = run(&["search", "--catalog", &catalog, "--queries", &queries, "--gold", &gold]);
    assert_eq!(code, 0, "{err}");
    let metrics: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!((&metrics["queries"], &metrics["no_fit_queries"]), (&json!(1), &json!(2)), "{metrics}");
    assert_eq!(metrics["recall@1"], 1.0, "either alternative serves: {metrics}");
    assert_eq!((&metrics["decline_precision"], &metrics["decline_recall"]), (&json!(1.0), &json!(1.0)), "{metrics}");
}

#[test]
fn gold_prints_the_metrics_of_a_hand_computed_example() {
    let dir = folder("gold");
    let catalog = catalog(&dir);
    // Regex mode makes the rankings easy to know: name matches, in catalog order.
    let queries = write(
        &dir,
        "q.jsonl",
        &json_lines(&[
            json!({"id": 1, "query": "alpha"}), // alpha_one, alpha_two
            json!({"id": 2, "query": "one"}),   // alpha_one, beta_one
            json!({"id": 3, "query": "gamma"}), // gamma
        ]),
    );
    let gold = write(
        &dir,
        "gold.jsonl",
        &json_lines(&[
            json!({"id": 1, "tools": ["alpha_two"]}),
            json!({"id": 2, "tools": ["beta_one", "gamma"]}),
            json!({"id": 3, "tools": ["gamma"]}),
        ]),
    );
    let (code, out, err) =
        run(&["search", "--catalog", &catalog, "--queries", &queries, "--gold", &gold, "--mode", "regex"]);
    assert_eq!(code, 0, "{err}");
    let metrics: Value = serde_json::from_str(out.trim()).unwrap();
    let rounded = |x: f64| (x * 1000.0).round() / 1000.0;
    let gain = |rank: i32| 1.0 / f64::from(rank + 1).log2(); // rank counts from 1
    assert_eq!(metrics["queries"], 3);
    // Share of gold at rank 1: 0, 0, 1.
    assert_eq!(metrics["recall@1"], rounded(1.0 / 3.0));
    // Share of gold in the top 5: 1, 1/2, 1.
    assert_eq!(metrics["recall@5"], rounded(2.5 / 3.0));
    // Every gold in the top 5: yes, no, yes.
    assert_eq!(metrics["all_gold@5"], rounded(2.0 / 3.0));
    // Gold at rank 2 of 1; at rank 2 of 2 (ideal ranks 1 and 2); at rank 1 of 1.
    let ndcg = (gain(2) + gain(2) / (gain(1) + gain(2)) + 1.0) / 3.0;
    assert_eq!(metrics["ndcg@10"], rounded(ndcg));
}

#[test]
fn the_plain_baseline_ranks_too() {
    let dir = folder("plain");
    let catalog = catalog(&dir);
    let (code, out, err) =
        run(&["search", "--catalog", &catalog, "--query", "email", "--mode", "bm25-plain", "--limit", "5"]);
    assert_eq!(code, 0, "{err}");
    let tools = serde_json::from_str::<Value>(out.trim()).unwrap()["tools"].clone();
    let mut names: Vec<&str> = tools.as_array().unwrap().iter().map(|t| t.as_str().unwrap()).collect();
    names.sort_unstable();
    assert_eq!(names, ["alpha_one", "alpha_two"]);
}

#[test]
fn each_bad_input_says_what_and_where_and_exits_3() {
    let dir = folder("errors");
    let catalog = catalog(&dir);
    let missing = dir.join("missing.json").display().to_string();
    let bad_catalog = write(&dir, "bad.json", r#"[{"name": "ok"}, {"description": "no name"}]"#);
    let not_json = write(&dir, "q1.jsonl", "{\"id\": 1, \"query\": \"mail\"}\n\n{oops\n");
    let no_query = write(&dir, "q2.jsonl", "{\"id\": 1, \"text\": \"mail\"}\n");
    let one = write(&dir, "q3.jsonl", "{\"id\": 1, \"query\": \"mail\"}\n");
    let gold_other = write(&dir, "g1.jsonl", "{\"id\": 2, \"tools\": [\"gamma\"]}\n");
    let gold_bad = write(&dir, "g2.jsonl", "{\"id\": 1, \"tools\": [[]]}\n");
    let long = "mail ".repeat(120);

    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--catalog", &missing, "--query", "x"], "cannot read catalog"),
        (
            vec!["--catalog", &bad_catalog, "--query", "x"],
            "catalog entry 2 (counting from 1) is invalid: it has no `name`",
        ),
        (vec!["--catalog", &catalog, "--queries", &not_json], "line 3 of"),
        (vec!["--catalog", &catalog, "--queries", &no_query], "line 1 of"),
        (vec!["--catalog", &catalog, "--queries", &missing], "cannot read queries file"),
        (vec!["--catalog", &catalog, "--queries", &one, "--gold", &gold_other], "query id 1 has no line in gold file"),
        (vec!["--catalog", &catalog, "--queries", &one, "--gold", &gold_bad], "a name or a non-empty list of names"),
        (vec!["--catalog", &catalog, "--query", "mail(", "--mode", "regex"], "the regular expression is invalid"),
        (vec!["--catalog", &catalog, "--query", &long], "over the limit of 500"),
        (vec!["--catalog", &catalog, "--query", " "], "the search query is empty"),
    ];
    for (args, expected) in cases {
        let mut full = vec!["search"];
        full.extend(args.iter().copied());
        let (code, out, err) = run(&full);
        assert_eq!(code, 3, "{full:?}: {out}{err}");
        assert!(err.starts_with("toolshape: ") && err.contains(expected), "{full:?}: expected {expected:?} in {err}");
        assert!(out.is_empty(), "{full:?} printed {out}");
    }
    // The error of a malformed line says which file, which line and why.
    let (_, _, err) = run(&["search", "--catalog", &catalog, "--queries", &no_query]);
    assert!(err.contains("has no string `query`"), "{err}");

    // A longer query passes once the limit is raised.
    let (code, _, err) = run(&["search", "--catalog", &catalog, "--query", &long, "--max-query-chars", "1000"]);
    assert_eq!(code, 0, "{err}");

    // Usage errors are clap's: exit 2.
    let (code, _, err) = run(&["search", "--catalog", &catalog]);
    assert_eq!(code, 2, "{err}");
}
