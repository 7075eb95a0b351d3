//! `toolshape search`: rank a catalog's tools for one query or a file of queries, offline,
//! and with `--gold` measure the ranking against labelled answers.
//!
//! Metrics, over the queries in the gold file, with a query's gold tools `G` and its ranked
//! results `R`: Recall@k is the mean share of `G` found in the top k of `R`; all-gold-in-top-5
//! is the share of queries with every gold tool in the top 5; nDCG@10 uses binary relevance
//! (a gold tool is relevant) and the ideal ordering of `min(|G|, 10)` relevant results.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use anyhow::{Context, anyhow};
use clap::{Args, ValueEnum};
use serde_json::{Value, json};
use toolshape_search::{Mode, PlainBm25, SearchIndex, ToolDoc};

use super::{Failure, print_line};

/// How many results each query is ranked to when measuring: nDCG@10 needs ten.
const MEASURED_DEPTH: usize = 10;

#[derive(Debug, Args)]
pub(crate) struct SearchArgs {
    /// The tools: a `tools/list` result (`{"tools": [...]}`) or a JSON array of tools.
    #[arg(long, value_name = "FILE")]
    catalog: PathBuf,
    /// One query; its result line has `"id": null`.
    #[arg(long, value_name = "TEXT", conflicts_with = "queries", required_unless_present = "queries")]
    query: Option<String>,
    /// JSON lines `{"id": ..., "query": ...}`, one result line per query.
    #[arg(long, value_name = "FILE")]
    queries: Option<PathBuf>,
    /// How many tools to list per query.
    #[arg(long, default_value_t = toolshape_search::DEFAULT_LIMIT)]
    limit: usize,
    /// `bm25` (ranked keywords), `regex` (case-insensitive pattern), or `bm25-plain` (the
    /// unweighted, unstemmed BM25 baseline, for comparison).
    #[arg(long, value_enum, default_value_t = SearchMode::Bm25)]
    mode: SearchMode,
    /// The longest BM25 query accepted, in characters. The gateway's search tool keeps the
    /// default; raise it to rank long real-world requests whole.
    #[arg(long, value_name = "N", default_value_t = toolshape_search::MAX_QUERY_CHARS)]
    max_query_chars: usize,
    /// JSON lines `{"id": ..., "tools": [gold tool names]}`: print only the metrics
    /// (Recall@1, Recall@5, all gold in the top 5, nDCG@10) instead of the rankings; each
    /// query is then ranked to at least 10 tools, whatever --limit says.
    #[arg(long, value_name = "FILE")]
    gold: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum SearchMode {
    Bm25,
    Regex,
    #[value(name = "bm25-plain")]
    Bm25Plain,
}

/// One query to answer: its id as given and where it came from, for messages.
struct Query {
    id: Value,
    text: String,
    origin: String,
}

enum Ranker {
    Index(SearchIndex, Mode, usize),
    Plain(PlainBm25, Vec<ToolDoc>, usize),
}

impl Ranker {
    fn names(&self, query: &str, limit: usize) -> Result<Vec<String>, toolshape_search::SearchError> {
        match self {
            Ranker::Index(index, mode, max_query_chars) => {
                let hits = index.search_with_query_limit(*mode, query, limit, *max_query_chars)?;
                Ok(hits.iter().filter_map(|h| index.tools().get(h.tool)).map(|t| t.name.clone()).collect())
            }
            Ranker::Plain(plain, tools, max_query_chars) => {
                let chars = query.chars().count();
                if chars > *max_query_chars {
                    return Err(toolshape_search::SearchError::QueryTooLong { chars, limit: *max_query_chars });
                }
                Ok(plain
                    .search(query, limit)
                    .iter()
                    .filter_map(|h| tools.get(h.tool))
                    .map(|t| t.name.clone())
                    .collect())
            }
        }
    }
}

pub(crate) fn run(args: SearchArgs) -> Result<(), Failure> {
    let catalog_name = args.catalog.display().to_string();
    let catalog_text = std::fs::read_to_string(&args.catalog)
        .with_context(|| format!("cannot read catalog `{catalog_name}`"))
        .map_err(Failure::input)?;
    let tools = toolshape_search::parse_catalog(&catalog_text)
        .with_context(|| format!("cannot use catalog `{catalog_name}`"))
        .map_err(Failure::input)?;
    let ranker = match args.mode {
        SearchMode::Bm25Plain => Ranker::Plain(PlainBm25::build(&tools), tools, args.max_query_chars),
        mode => {
            let mode = if mode == SearchMode::Regex { Mode::Regex } else { Mode::Bm25 };
            let index = SearchIndex::build(tools)
                .with_context(|| format!("cannot index catalog `{catalog_name}`"))
                .map_err(Failure::input)?;
            Ranker::Index(index, mode, args.max_query_chars)
        }
    };

    let queries = match (&args.query, &args.queries) {
        (Some(text), _) => vec![Query { id: Value::Null, text: text.clone(), origin: "--query".to_owned() }],
        (None, Some(path)) => read_queries(path)?,
        (None, None) => return Err(Failure::input(anyhow!("give --query TEXT or --queries FILE"))),
    };

    match &args.gold {
        None => {
            for query in &queries {
                let names = rank(&ranker, query, args.limit)?;
                print_line(&json!({"id": query.id, "tools": names}).to_string())?;
            }
            Ok(())
        }
        Some(gold_path) => {
            let gold = read_gold(gold_path)?;
            let mut metrics = Metrics::default();
            for query in &queries {
                let key = id_key(&query.id);
                let expected = gold.get(&key).ok_or_else(|| {
                    Failure::input(anyhow!(
                        "{}: query id {key} has no line in gold file `{}`",
                        query.origin,
                        gold_path.display()
                    ))
                })?;
                let names = rank(&ranker, query, args.limit.max(MEASURED_DEPTH))?;
                metrics.add(&names, expected);
            }
            print_line(&metrics.summary().to_string())
        }
    }
}

fn rank(ranker: &Ranker, query: &Query, limit: usize) -> Result<Vec<String>, Failure> {
    ranker.names(&query.text, limit).map_err(|e| Failure::input(anyhow!("{}: {e}", query.origin)))
}

/// Read a JSON-lines file, calling `each` with the parsed object and where it came from.
/// Blank lines are skipped.
fn read_json_lines(
    path: &Path,
    what: &str,
    mut each: impl FnMut(&serde_json::Map<String, Value>, String) -> Result<(), Failure>,
) -> Result<(), Failure> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read {what} file `{name}`"))
        .map_err(Failure::input)?;
    for (index, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let origin = format!("line {} of `{name}`", index + 1);
        let value: Value = serde_json::from_str(line).map_err(|e| {
            Failure::input(anyhow!("{origin} is not valid JSON ({e}); each line must be one JSON object"))
        })?;
        let Value::Object(object) = value else {
            return Err(Failure::input(anyhow!("{origin} is not a JSON object")));
        };
        each(&object, origin)?;
    }
    Ok(())
}

fn read_queries(path: &Path) -> Result<Vec<Query>, Failure> {
    let mut queries = Vec::new();
    read_json_lines(path, "queries", |object, origin| {
        let Some(Value::String(text)) = object.get("query") else {
            return Err(Failure::input(anyhow!(
                "{origin} has no string `query`; expected {{\"id\": ..., \"query\": \"...\"}}"
            )));
        };
        let id = object.get("id").cloned().unwrap_or(Value::Null);
        queries.push(Query { id, text: text.clone(), origin });
        Ok(())
    })?;
    Ok(queries)
}

/// Gold answers by query id (the id's JSON text, so `1` and `"1"` stay distinct).
fn read_gold(path: &Path) -> Result<HashMap<String, Vec<String>>, Failure> {
    let mut gold = HashMap::new();
    read_json_lines(path, "gold", |object, origin| {
        let expected = "expected {\"id\": ..., \"tools\": [\"name\", ...]}";
        let Some(id) = object.get("id") else {
            return Err(Failure::input(anyhow!("{origin} has no `id`; {expected}")));
        };
        let Some(Value::Array(tools)) = object.get("tools") else {
            return Err(Failure::input(anyhow!("{origin} has no `tools` array; {expected}")));
        };
        let names = tools
            .iter()
            .map(|t| t.as_str().map(str::to_owned))
            .collect::<Option<Vec<String>>>()
            .filter(|names| !names.is_empty())
            .ok_or_else(|| Failure::input(anyhow!("{origin}: `tools` must be a non-empty array of tool names")))?;
        gold.insert(id_key(id), names);
        Ok(())
    })?;
    Ok(gold)
}

fn id_key(id: &Value) -> String {
    id.to_string()
}

/// Running sums of the per-query metrics.
#[derive(Debug, Default)]
struct Metrics {
    queries: usize,
    recall_at_1: f64,
    recall_at_5: f64,
    all_gold_at_5: f64,
    ndcg_at_10: f64,
}

impl Metrics {
    fn add(&mut self, ranked: &[String], gold: &[String]) {
        let gold: HashSet<&str> = gold.iter().map(String::as_str).collect();
        // A name listed twice (two tools sharing it) counts once.
        let found_in =
            |k: usize| ranked.iter().take(k).filter(|name| gold.contains(name.as_str())).collect::<HashSet<_>>().len();
        let total = gold.len() as f64;
        self.queries += 1;
        self.recall_at_1 += found_in(1) as f64 / total;
        self.recall_at_5 += found_in(5) as f64 / total;
        if found_in(5) == gold.len() {
            self.all_gold_at_5 += 1.0;
        }
        let gain = |rank: usize| 1.0 / ((rank + 2) as f64).log2();
        let dcg: f64 = ranked
            .iter()
            .take(MEASURED_DEPTH)
            .enumerate()
            .filter(|(rank, name)| gold.contains(name.as_str()) && !ranked[..*rank].contains(name))
            .map(|(rank, _)| gain(rank))
            .sum();
        let ideal: f64 = (0..gold.len().min(MEASURED_DEPTH)).map(gain).sum();
        self.ndcg_at_10 += dcg / ideal;
    }

    fn summary(&self) -> Value {
        let mean =
            |sum: f64| if self.queries == 0 { 0.0 } else { (sum / self.queries as f64 * 1000.0).round() / 1000.0 };
        json!({
            "queries": self.queries,
            "recall@1": mean(self.recall_at_1),
            "recall@5": mean(self.recall_at_5),
            "all_gold@5": mean(self.all_gold_at_5),
            "ndcg@10": mean(self.ndcg_at_10),
        })
    }
}
