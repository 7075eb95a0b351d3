//! `toolshape search`: rank a catalog's tools for one query or a file of queries, offline,
//! and with `--gold` measure the ranking against labelled answers.
//!
//! A gold line lists the tools a query needs; an entry may be a list of names, any one of
//! which serves (catalogs that combine several servers have more than one screenshot tool),
//! and an empty list says that no tool fits. Metrics: over the queries that some tool fits,
//! with gold entries `G` and ranked results `R`, Recall@k is the mean share of `G` served in
//! the top k of `R`; all-gold-in-top-5 is the share of queries with every entry served in
//! the top 5 (also given for multi-tool queries alone); nDCG@10 uses binary relevance (a
//! result serving a not yet served entry is relevant) and the ideal ordering of
//! `min(|G|, 10)` relevant results. Declining: precision is the share of declined queries
//! that no tool fits, recall the share of no-fit queries declined.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use anyhow::{Context, anyhow};
use clap::{Args, ValueEnum};
use serde_json::{Value, json};
use toolshape_search::{Fusion, Merge, Mode, PlainBm25, Ranking, SearchIndex, ToolDoc};

use super::{Failure, print_line};

/// How many results each query is ranked to when measuring: nDCG@10 needs ten.
const MEASURED_DEPTH: usize = 10;
/// What a declined search tells the caller to do.
const DECLINE_HINT: &str = "no tool fits this request; rephrase it with what the tool should do, or name the tool";

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
    /// `bm25` (ranked keywords and meaning), `regex` (case-insensitive pattern), or
    /// `bm25-plain` (the unweighted, unstemmed BM25 baseline, for comparison).
    #[arg(long, value_enum, default_value_t = SearchMode::Bm25)]
    mode: SearchMode,
    /// The longest BM25 query accepted, in characters. The gateway's search tool keeps the
    /// default; raise it to rank long real-world requests whole.
    #[arg(long, value_name = "N", default_value_t = toolshape_search::MAX_QUERY_CHARS)]
    max_query_chars: usize,
    /// JSON lines `{"id": ..., "tools": [gold tool names]}`: print only the metrics
    /// (Recall@1, Recall@5, all gold in the top 5, nDCG@10, decline precision and recall)
    /// instead of the rankings; each query is then ranked to at least 10 tools, whatever
    /// --limit says. An entry may be a list of interchangeable names; `[]` means no tool fits.
    #[arg(long, value_name = "FILE")]
    gold: Option<PathBuf>,
    /// Ranking components to turn off, comma-separated, to measure what each contributes:
    /// `embeddings`, `split`, `cover`, `names`, `decline`, `word-vectors`, `diversity`.
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    without: Vec<Component>,
    /// How keyword and meaning rankings are fused: `rrf` or `rrf:K`, or `linear:SHARE`
    /// (the keyword score's share).
    #[arg(long, value_name = "HOW", value_parser = parse_fusion, hide = true)]
    fusion: Option<Fusion>,
    /// How the rankings of a request and its parts are merged: `best-part`, `anchored` or `interleave`.
    #[arg(long, value_name = "HOW", hide = true)]
    merge: Option<MergeMode>,
    /// Override the discount with which the parts of a request are served in turn (0 to 1).
    #[arg(long, value_name = "SHARE", hide = true)]
    cover: Option<f32>,
    /// Override the meaning floor below which the search declines (a cosine).
    #[arg(long, value_name = "COSINE", hide = true)]
    floor_cosine: Option<f32>,
    /// Override the keyword floor below which the search declines (a share of 0 to 1).
    #[arg(long, value_name = "SHARE", hide = true)]
    floor_coverage: Option<f32>,
    /// Add the decline evidence (best cosine, keyword coverage) to each result line.
    #[arg(long)]
    evidence: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum SearchMode {
    Bm25,
    Regex,
    #[value(name = "bm25-plain")]
    Bm25Plain,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum MergeMode {
    Anchored,
    Interleave,
    BestPart,
}

/// A part of the ranking that `--without` turns off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Component {
    Embeddings,
    Split,
    Cover,
    Names,
    Decline,
    WordVectors,
    Diversity,
}

fn parse_fusion(text: &str) -> Result<Fusion, String> {
    let (kind, number) = text.split_once(':').map_or((text, None), |(k, n)| (k, Some(n)));
    let number = number.map(|n| n.parse::<f32>().map_err(|e| format!("`{n}` is not a number: {e}"))).transpose()?;
    match kind {
        "rrf" => Ok(Fusion::Rrf(number.unwrap_or(60.0))),
        "linear" => Ok(Fusion::Linear(number.unwrap_or(0.5))),
        other => Err(format!("unknown fusion `{other}`; use `rrf`, `rrf:K` or `linear:SHARE`")),
    }
}

fn ranking(args: &SearchArgs) -> Ranking {
    let mut ranking = Ranking::default();
    for component in &args.without {
        match component {
            Component::Embeddings => ranking.embeddings = false,
            Component::Split => ranking.split = false,
            Component::Cover => ranking.cover = 0.0,
            Component::Names => ranking.exact_names = false,
            Component::Decline => ranking.decline = false,
            Component::WordVectors => ranking.bm25.semantic_weight = 0.0,
            Component::Diversity => ranking.bm25.diversity = 1.0,
        }
    }
    if let Some(fusion) = args.fusion {
        ranking.fusion = fusion;
    }
    if let Some(cover) = args.cover {
        ranking.cover = cover;
    }
    if let Some(merge) = args.merge {
        ranking.merge = match merge {
            MergeMode::Anchored => Merge::Anchored,
            MergeMode::Interleave => Merge::Interleave,
            MergeMode::BestPart => Merge::BestPart,
        };
    }
    if let Some(floor) = args.floor_cosine {
        ranking.floor_cosine = floor;
    }
    if let Some(floor) = args.floor_coverage {
        ranking.floor_coverage = floor;
    }
    ranking
}

/// One query to answer: its id as given and where it came from, for messages.
struct Query {
    id: Value,
    text: String,
    origin: String,
}

/// One query's answer.
struct Answer {
    names: Vec<String>,
    matched: usize,
    declined: bool,
    evidence: Option<Value>,
}

enum Ranker {
    Index(SearchIndex, Mode, usize),
    Plain(PlainBm25, Vec<ToolDoc>, usize),
}

impl Ranker {
    fn answer(&self, query: &str, limit: usize) -> Result<Answer, toolshape_search::SearchError> {
        match self {
            Ranker::Index(index, Mode::Bm25, max_query_chars) => {
                let found = index.find(query, limit, *max_query_chars)?;
                let names =
                    found.hits.iter().filter_map(|h| index.tools().get(h.tool)).map(|t| t.name.clone()).collect();
                let evidence = json!({
                    "best_cosine": found.evidence.best_cosine,
                    "coverage": found.evidence.coverage,
                    "named": found.evidence.named,
                });
                Ok(Answer { names, matched: found.matched, declined: found.declined, evidence: Some(evidence) })
            }
            Ranker::Index(index, mode, max_query_chars) => {
                let all = index.search_with_query_limit(*mode, query, toolshape_search::MAX_TOOLS, *max_query_chars)?;
                let names = all.iter().take(limit).filter_map(|h| index.tools().get(h.tool)).map(|t| t.name.clone());
                Ok(Answer { names: names.collect(), matched: all.len(), declined: false, evidence: None })
            }
            Ranker::Plain(plain, tools, max_query_chars) => {
                let chars = query.chars().count();
                if chars > *max_query_chars {
                    return Err(toolshape_search::SearchError::QueryTooLong { chars, limit: *max_query_chars });
                }
                let all = plain.search(query, tools.len());
                let names = all.iter().take(limit).filter_map(|h| tools.get(h.tool)).map(|t| t.name.clone());
                Ok(Answer { names: names.collect(), matched: all.len(), declined: false, evidence: None })
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
            let index = SearchIndex::build_ranked(tools, ranking(&args))
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
                let answer = rank(&ranker, query, args.limit)?;
                let mut line = json!({
                    "id": query.id,
                    "status": if answer.declined { "empty" } else { "ok" },
                    "matched": answer.matched,
                    "shown": answer.names.len(),
                    "tools": answer.names,
                });
                if answer.declined {
                    line["hint"] = json!(DECLINE_HINT);
                }
                if args.evidence
                    && let Some(evidence) = answer.evidence
                {
                    line["evidence"] = evidence;
                }
                print_line(&line.to_string())?;
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
                let answer = rank(&ranker, query, args.limit.max(MEASURED_DEPTH))?;
                metrics.add(&answer.names, answer.declined, expected);
            }
            print_line(&metrics.summary().to_string())
        }
    }
}

fn rank(ranker: &Ranker, query: &Query, limit: usize) -> Result<Answer, Failure> {
    ranker.answer(&query.text, limit).map_err(|e| Failure::input(anyhow!("{}: {e}", query.origin)))
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

/// One gold entry: the names of the tools that serve it, any one of which will do.
type GoldEntry = Vec<String>;

/// Gold answers by query id (the id's JSON text, so `1` and `"1"` stay distinct); an empty
/// list means no tool fits the query.
fn read_gold(path: &Path) -> Result<HashMap<String, Vec<GoldEntry>>, Failure> {
    let mut gold = HashMap::new();
    read_json_lines(path, "gold", |object, origin| {
        let expected = "expected {\"id\": ..., \"tools\": [\"name\" or [\"name\", ...], ...]}";
        let Some(id) = object.get("id") else {
            return Err(Failure::input(anyhow!("{origin} has no `id`; {expected}")));
        };
        let Some(Value::Array(tools)) = object.get("tools") else {
            return Err(Failure::input(anyhow!("{origin} has no `tools` array; {expected}")));
        };
        let entries = tools
            .iter()
            .map(|entry| match entry {
                Value::String(name) => Some(vec![name.clone()]),
                Value::Array(names) => names
                    .iter()
                    .map(|n| n.as_str().map(str::to_owned))
                    .collect::<Option<Vec<String>>>()
                    .filter(|names| !names.is_empty()),
                _ => None,
            })
            .collect::<Option<Vec<GoldEntry>>>()
            .ok_or_else(|| {
                Failure::input(anyhow!("{origin}: each entry of `tools` must be a name or a non-empty list of names"))
            })?;
        gold.insert(id_key(id), entries);
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
    /// Queries some tool fits.
    queries: usize,
    recall_at_1: f64,
    recall_at_5: f64,
    all_gold_at_5: f64,
    ndcg_at_10: f64,
    multi_queries: usize,
    multi_all_gold_at_5: f64,
    /// Queries no tool fits.
    no_fit: usize,
    /// Declined queries that no tool fits, and that some tool fits.
    declined_right: usize,
    declined_wrong: usize,
}

impl Metrics {
    fn add(&mut self, ranked: &[String], declined: bool, gold: &[GoldEntry]) {
        if gold.is_empty() {
            self.no_fit += 1;
            self.declined_right += usize::from(declined);
            return;
        }
        self.declined_wrong += usize::from(declined);
        // For each rank, the gold entry it serves first (a name serving an entry already
        // served, or listed twice, is not relevant again).
        let mut served: HashSet<usize> = HashSet::new();
        let mut serves: Vec<Option<usize>> = Vec::with_capacity(ranked.len());
        for name in ranked {
            let entry = gold.iter().enumerate().find(|(i, names)| !served.contains(i) && names.contains(name));
            serves.push(entry.map(|(i, _)| i));
            if let Some((i, _)) = entry {
                served.insert(i);
            }
        }
        let found_in = |k: usize| serves.iter().take(k).flatten().count();
        let total = gold.len() as f64;
        self.queries += 1;
        self.recall_at_1 += found_in(1) as f64 / total;
        self.recall_at_5 += found_in(5) as f64 / total;
        let complete = found_in(5) == gold.len();
        self.all_gold_at_5 += f64::from(u8::from(complete));
        if gold.len() >= 2 {
            self.multi_queries += 1;
            self.multi_all_gold_at_5 += f64::from(u8::from(complete));
        }
        let gain = |rank: usize| 1.0 / ((rank + 2) as f64).log2();
        let dcg: f64 = serves
            .iter()
            .take(MEASURED_DEPTH)
            .enumerate()
            .filter(|(_, s)| s.is_some())
            .map(|(rank, _)| gain(rank))
            .sum();
        let ideal: f64 = (0..gold.len().min(MEASURED_DEPTH)).map(gain).sum();
        self.ndcg_at_10 += dcg / ideal;
    }

    fn summary(&self) -> Value {
        let round = |x: f64| (x * 1000.0).round() / 1000.0;
        let mean = |sum: f64, n: usize| if n == 0 { Value::Null } else { json!(round(sum / n as f64)) };
        let declined = self.declined_right + self.declined_wrong;
        json!({
            "queries": self.queries,
            "recall@1": mean(self.recall_at_1, self.queries),
            "recall@5": mean(self.recall_at_5, self.queries),
            "all_gold@5": mean(self.all_gold_at_5, self.queries),
            "ndcg@10": mean(self.ndcg_at_10, self.queries),
            "multi_queries": self.multi_queries,
            "multi_all_gold@5": mean(self.multi_all_gold_at_5, self.multi_queries),
            "no_fit_queries": self.no_fit,
            "declined": declined,
            "decline_precision": mean(self.declined_right as f64, declined),
            "decline_recall": mean(self.declined_right as f64, self.no_fit),
        })
    }
}
