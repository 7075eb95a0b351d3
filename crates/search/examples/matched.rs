//! How well a search's "matched" count tracks the tools a request needs, on labelled sets.
//!
//! Usage: `cargo run --release -p toolshape-search --example matched -- CATALOG QUERIES GOLD
//! [--sweep]`, with the files `bench/tool-search/eval.py` writes (a catalog of MCP tool
//! definitions, `{"id", "query"}` lines, `{"id", "tools"}` lines; a gold entry is a name or a
//! list of interchangeable names). Prints one JSON line: over the requests some tool fits,
//! the precision of the matched set (share of matched tools a request needs), its recall
//! (share of needed tools matched) and the mean number matched; over requests no tool fits,
//! the mean number matched. `--sweep` prints the same for other definitions of a match
//! (keyword hit or cosine above a floor, for several floors; cosine alone; the decline's fit
//! test per tool), from each tool's evidence.

// A measuring tool: it prints its results.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::collections::{HashMap, HashSet};

use serde_json::{Value, json};
use toolshape_search::{DEFAULT_LIMIT, SearchIndex, ToolEvidence, parse_catalog};

/// Longer than a model's search query: requests in the sets run to about 1,300 characters.
const MAX_QUERY_CHARS: usize = 5000;

fn lines(path: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    text.lines().filter(|l| !l.trim().is_empty()).map(|l| serde_json::from_str(l).expect("a JSON line")).collect()
}

/// Precision and recall sums over requests, and how many tools were matched.
#[derive(Default)]
struct Tally {
    answerable: usize,
    matched_right: usize,
    matched: usize,
    needed: usize,
    needed_found: usize,
    no_fit: usize,
    no_fit_matched: usize,
}

impl Tally {
    fn add(&mut self, matched: &HashSet<usize>, gold: &[Vec<usize>]) {
        if gold.is_empty() {
            self.no_fit += 1;
            self.no_fit_matched += matched.len();
            return;
        }
        let relevant: HashSet<usize> = gold.iter().flatten().copied().collect();
        self.answerable += 1;
        self.matched += matched.len();
        self.matched_right += matched.intersection(&relevant).count();
        self.needed += gold.len();
        self.needed_found += gold.iter().filter(|names| names.iter().any(|t| matched.contains(t))).count();
    }

    fn summary(&self, definition: &str) -> Value {
        let ratio = |a: usize, b: usize| {
            if b == 0 { Value::Null } else { json!((a as f64 / b as f64 * 1000.0).round() / 1000.0) }
        };
        json!({
            "matched_as": definition,
            "precision": ratio(self.matched_right, self.matched),
            "recall": ratio(self.needed_found, self.needed),
            "mean_matched": ratio(self.matched, self.answerable),
            "mean_matched_no_fit": ratio(self.no_fit_matched, self.no_fit),
        })
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [catalog, queries, gold_path, rest @ ..] = args.as_slice() else {
        eprintln!("usage: matched CATALOG QUERIES GOLD [--sweep]");
        std::process::exit(2);
    };
    let sweep = rest.iter().any(|a| a == "--sweep");
    let tools = parse_catalog(&std::fs::read_to_string(catalog).expect("catalog")).expect("a catalog");
    let position: HashMap<String, usize> = tools.iter().enumerate().map(|(i, t)| (t.name.clone(), i)).collect();
    let tool_count = tools.len();
    let index = SearchIndex::build(tools).expect("an index");
    let gold: HashMap<String, Vec<Vec<usize>>> = lines(gold_path)
        .into_iter()
        .map(|row| {
            let entries = row["tools"]
                .as_array()
                .expect("tools")
                .iter()
                .map(|entry| match entry {
                    Value::String(name) => vec![name.clone()],
                    Value::Array(names) => names.iter().filter_map(|n| n.as_str().map(str::to_owned)).collect(),
                    _ => Vec::new(),
                })
                .map(|names| names.iter().filter_map(|n| position.get(n).copied()).collect())
                .collect();
            (row["id"].to_string(), entries)
        })
        .collect();
    let floors = [0.0f32, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6];
    let mut shipped = Tally::default();
    let mut keyword_or_cosine: Vec<Tally> = floors.iter().map(|_| Tally::default()).collect();
    let mut cosine_only: Vec<Tally> = floors.iter().map(|_| Tally::default()).collect();
    let mut keyword_only = Tally::default();
    let mut fit_test = Tally::default();
    for row in lines(queries) {
        let query = row["query"].as_str().expect("query");
        let needed = gold.get(&row["id"].to_string()).cloned().unwrap_or_default();
        let found = index.find(query, DEFAULT_LIMIT, MAX_QUERY_CHARS).expect("a search");
        let matched: HashSet<usize> =
            index.matching_tools(query, DEFAULT_LIMIT, MAX_QUERY_CHARS).expect("a search").into_iter().collect();
        assert_eq!(matched.len(), found.matched, "the count is the set's size");
        shipped.add(&matched, &needed);
        if !sweep {
            continue;
        }
        let evidence: Vec<ToolEvidence> = index.tool_evidence(query);
        let set = |keep: &dyn Fn(&ToolEvidence) -> bool| -> HashSet<usize> {
            (0..tool_count).filter(|t| keep(&evidence[*t])).collect()
        };
        for (i, floor) in floors.iter().enumerate() {
            let cosine = move |e: &ToolEvidence| e.cosine.is_some_and(|c| c > 0.0 && c >= *floor);
            keyword_or_cosine[i].add(&set(&|e| e.keyword > 0.0 || cosine(e)), &needed);
            cosine_only[i].add(&set(&cosine), &needed);
        }
        keyword_only.add(&set(&|e| e.keyword > 0.0), &needed);
        fit_test.add(&set(&|e| e.coverage >= 0.30 || e.cosine.is_some_and(|c| c >= 0.50)), &needed);
    }
    println!("{}", shipped.summary("shipped"));
    if sweep {
        println!("{}", keyword_only.summary("keyword hit"));
        for (i, floor) in floors.iter().enumerate() {
            println!("{}", keyword_or_cosine[i].summary(&format!("keyword hit or cosine >= {floor}")));
        }
        for (i, floor) in floors.iter().enumerate() {
            println!("{}", cosine_only[i].summary(&format!("cosine >= {floor}")));
        }
        println!("{}", fit_test.summary("coverage >= .30 or cosine >= .50"));
    }
}
