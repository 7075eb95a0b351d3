//! Tool search with deferred loading, as the gateway serves it.
//!
//! With a `search:` section, a session starts with the `always_loaded` tools, the search
//! tool, the generic call tool and `result_read`. Every other tool of the surface is
//! deferred: the search tool finds it (BM25 or regex over names, descriptions and
//! parameters, ranked by `toolshape-search`), and a found tool is *activated* for the
//! session: listed from then on (the client is sent `tools/list_changed`) and callable by
//! its own name. Clients that never re-list call it through the call tool instead.
//!
//! Activations are kept in the store under the caller's scope, so every replica sharing a
//! store lists the same tools for a session. The index is built once per surface (that is,
//! once per tool-list change and profile) and shared by every session.

use std::collections::BTreeSet;
use std::sync::Arc;

use serde_json::{Map, Value, json};
use toolshape_mask::{SearchConfig, SearchMode, Surface, ToolDefinition};
use toolshape_search::{MAX_QUERY_CHARS, MAX_TOOLS, Mode, ParamDoc, SearchError, SearchIndex, ToolDoc};

use crate::read;
use toolshape_mask::sections::MAX_SEARCH_LIMIT;

/// The index over one surface's searchable tools.
pub(crate) struct Catalog {
    /// The surface it was built from (compared by pointer to know when to rebuild).
    pub(crate) surface: Arc<Surface>,
    /// The index; hit `i` is `names[i]`.
    index: SearchIndex,
    names: Vec<String>,
}

impl Catalog {
    /// Index every tool of `surface` except the gateway's own.
    pub(crate) fn build(surface: Arc<Surface>, own: &[&str]) -> Result<Catalog, SearchError> {
        let mut names = Vec::new();
        let mut docs = Vec::new();
        for def in surface.definitions().filter(|d| !own.contains(&d.name.as_str())) {
            names.push(def.name.clone());
            docs.push(tool_doc(def, surface.search_hint(&def.name)));
        }
        let index = SearchIndex::build(docs)?;
        Ok(Catalog { surface, index, names })
    }

    /// The best tools for `query`, best first, with how many matched at all and whether
    /// the search declined (tools matched, but none well enough to show).
    pub(crate) fn find(&self, mode: SearchMode, query: &str, limit: usize) -> Result<Findings, SearchError> {
        match mode {
            SearchMode::Bm25 => {
                let found = self.index.find(query, limit, MAX_QUERY_CHARS)?;
                let names: Vec<String> = found.hits.iter().filter_map(|h| self.names.get(h.tool).cloned()).collect();
                Ok(Findings { matched: found.matched.max(names.len()), declined: found.declined, names })
            }
            SearchMode::Regex => {
                // Every match is counted, so the answer can say how many were left out.
                let all = self.index.search(Mode::Regex, query, MAX_TOOLS)?;
                let names = all.iter().take(limit).filter_map(|h| self.names.get(h.tool).cloned()).collect();
                Ok(Findings { matched: all.len(), declined: false, names })
            }
        }
    }

    /// How many tools the index holds.
    pub(crate) fn len(&self) -> usize {
        self.names.len()
    }

    /// The name prefixes (`github` of `github_create_issue`) that two or more tools share,
    /// most tools first: what a declined search suggests searching by.
    pub(crate) fn namespaces(&self) -> Vec<String> {
        let mut counts: Vec<(String, usize)> = Vec::new();
        for name in &self.names {
            let Some((prefix, _)) = name.split_once(['_', '.', '-', '/', ':']) else { continue };
            if prefix.is_empty() {
                continue;
            }
            match counts.iter_mut().find(|(p, _)| p == prefix) {
                Some((_, n)) => *n += 1,
                None => counts.push((prefix.to_owned(), 1)),
            }
        }
        counts.retain(|(_, n)| *n >= 2);
        // Stable: ties keep catalog order.
        counts.sort_by_key(|c| std::cmp::Reverse(c.1));
        counts.into_iter().take(MAX_NAMESPACES_SUGGESTED).map(|(p, _)| p).collect()
    }
}

/// The most namespaces a declined search lists.
const MAX_NAMESPACES_SUGGESTED: usize = 12;

/// What one search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Findings {
    /// The tools to show, best first.
    pub(crate) names: Vec<String>,
    /// How many tools matched at all (never fewer than are shown).
    pub(crate) matched: usize,
    /// Tools matched, but none scored well enough to show.
    pub(crate) declined: bool,
}

/// The summary of a search that shows nothing, with what the model can do next: rephrase,
/// switch mode, or search by one of the namespaces that exist.
pub(crate) fn nothing_found_summary(
    query: &str,
    mode: SearchMode,
    findings: &Findings,
    total: usize,
    namespaces: &[String],
) -> String {
    let what = if findings.declined {
        // No count here: a declined search matches no tool closely enough to count it.
        format!("No tool fits {query:?} well enough among {total} tools")
    } else {
        format!("No tool matched {query:?} among {total} tools")
    };
    let retry = match mode {
        SearchMode::Bm25 => {
            "rephrase with what the tool should do (\"read a file\", \"create an issue\"), or name the tool"
        }
        SearchMode::Regex => "try a shorter pattern, or mode \"bm25\" with words describing the task",
    };
    let spaces = if namespaces.is_empty() {
        String::new()
    } else {
        let list: Vec<String> = namespaces.iter().map(|n| format!("`{n}`")).collect();
        format!("; the tools' namespaces are {} (search by one to see its tools)", list.join(", "))
    };
    format!("{what}; {retry}{spaces}.")
}

/// What a search that shows tools says before the shaped summary: how many matched and how
/// many are shown, so a cut list is never mistaken for the whole. `kept` is how many of the
/// returned tools fit the answer (the rest are behind `next`).
pub(crate) fn found_lead(query: &str, findings: &Findings, kept: usize) -> String {
    let returned = findings.names.len();
    let kept = kept.min(returned);
    let matched = findings.matched.max(returned);
    let tools = if matched == 1 { "tool" } else { "tools" };
    if matched == kept {
        return format!("{matched} {tools} matched {query:?}, all shown");
    }
    let best = if kept == 1 { "the best is shown".to_owned() } else { format!("the best {kept} are shown") };
    let mut rest = Vec::new();
    if returned > kept {
        rest.push(format!("{} more behind `next`", returned - kept));
    }
    if matched > returned {
        rest.push(format!("{} more: raise `limit` or refine the query", matched - returned));
    }
    format!("{matched} {tools} matched {query:?}; {best} ({})", rest.join("; "))
}

/// A tool definition as the index reads it: name, description, and each parameter's name
/// and description (nested object properties included, by their dotted path). The config's
/// `search_hint` is indexed as more description: the index's text is never shown (a search
/// answers with the surface's definitions), so the hint reaches the ranking and not the model.
fn tool_doc(def: &ToolDefinition, hint: Option<&str>) -> ToolDoc {
    let mut params = Vec::new();
    collect_params(&def.input_schema, "", 0, &mut params);
    let description = match hint {
        Some(hint) => format!("{}\n{hint}", def.description),
        None => def.description.clone(),
    };
    ToolDoc { name: def.name.clone(), description, params }
}

fn collect_params(schema: &Value, prefix: &str, depth: usize, out: &mut Vec<ParamDoc>) {
    // Deep schemas add little to search and could be hostile; three levels is plenty.
    if depth > 3 || out.len() > 200 {
        return;
    }
    let Some(props) = schema.get("properties").and_then(Value::as_object) else { return };
    for (name, prop) in props {
        let path = if prefix.is_empty() { name.clone() } else { format!("{prefix}.{name}") };
        let description = prop.get("description").and_then(Value::as_str).unwrap_or_default().to_owned();
        out.push(ParamDoc { name: path.clone(), description });
        collect_params(prop, &path, depth + 1, out);
        if let Some(items) = prop.get("items") {
            collect_params(items, &path, depth + 1, out);
        }
    }
}

/// Why the arguments of the search tool or the generic call tool were refused; each
/// message says what to write instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum ArgsError {
    /// The search tool was given an argument it does not take.
    #[error("unknown argument `{0}`; the arguments are `query`, `mode` and `limit`")]
    UnknownSearchArgument(String),
    /// No query, or an empty one.
    #[error("`query` is missing; say what the tool should do, like \"read a file\"")]
    MissingQuery,
    /// A query that is not text.
    #[error("`query` must be a string")]
    QueryNotText,
    /// A mode other than the two.
    #[error("`mode` must be \"bm25\" (keywords) or \"regex\"")]
    UnknownMode,
    /// A limit out of range.
    #[error("`limit` must be a whole number from 1 to {MAX_SEARCH_LIMIT}")]
    LimitOutOfRange,
    /// The call tool was given an argument it does not take.
    #[error("unknown argument `{0}`; the arguments are `name` and `arguments`")]
    UnknownCallArgument(String),
    /// No tool name.
    #[error("`name` is missing; give the name of a tool found by search")]
    MissingName,
    /// Arguments that are not an object.
    #[error("`arguments` must be an object of the tool's arguments")]
    ArgumentsNotObject,
}

/// What a search call asked for.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SearchArgs {
    pub(crate) query: String,
    pub(crate) mode: SearchMode,
    pub(crate) limit: usize,
}

impl SearchArgs {
    /// Read the search tool's arguments, with the config's defaults.
    pub(crate) fn parse(
        arguments: Option<&Map<String, Value>>,
        config: &SearchConfig,
    ) -> Result<SearchArgs, ArgsError> {
        let empty = Map::new();
        let args = arguments.unwrap_or(&empty);
        if let Some(unknown) = args.keys().find(|k| !matches!(k.as_str(), "query" | "mode" | "limit")) {
            return Err(ArgsError::UnknownSearchArgument(unknown.clone()));
        }
        let query = match args.get("query") {
            Some(Value::String(q)) if !q.trim().is_empty() => q.clone(),
            Some(Value::String(_)) | None => return Err(ArgsError::MissingQuery),
            Some(_) => return Err(ArgsError::QueryNotText),
        };
        let mode = match args.get("mode") {
            None | Some(Value::Null) => config.mode,
            Some(Value::String(m)) if m == "bm25" => SearchMode::Bm25,
            Some(Value::String(m)) if m == "regex" => SearchMode::Regex,
            Some(_) => return Err(ArgsError::UnknownMode),
        };
        let limit = match args.get("limit") {
            None | Some(Value::Null) => config.limit,
            Some(v) => match v.as_u64() {
                Some(n) if (1..=MAX_SEARCH_LIMIT as u64).contains(&n) => n as usize,
                _ => return Err(ArgsError::LimitOutOfRange),
            },
        };
        Ok(SearchArgs { query, mode, limit })
    }
}

/// What a generic call asked for: a tool name and its arguments.
pub(crate) fn parse_call(
    arguments: Option<Map<String, Value>>,
) -> Result<(String, Option<Map<String, Value>>), ArgsError> {
    let mut args = arguments.unwrap_or_default();
    if let Some(unknown) = args.keys().find(|k| !matches!(k.as_str(), "name" | "arguments")) {
        return Err(ArgsError::UnknownCallArgument(unknown.clone()));
    }
    let name = match args.remove("name") {
        Some(Value::String(n)) if !n.is_empty() => n,
        _ => return Err(ArgsError::MissingName),
    };
    let inner = match args.remove("arguments") {
        None | Some(Value::Null) => None,
        Some(Value::Object(m)) => Some(m),
        Some(_) => return Err(ArgsError::ArgumentsNotObject),
    };
    Ok((name, inner))
}

/// The records a search answers with: name, a one-line description, the input schema.
pub(crate) fn found_records(surface: &Surface, names: &[String]) -> Vec<u8> {
    let records: Vec<Value> = names
        .iter()
        .filter_map(|n| surface.get(n))
        .map(|def| {
            json!({
                "name": def.name,
                "description": one_line(&def.description, 200),
                "input_schema": def.input_schema,
            })
        })
        .collect();
    serde_json::to_vec(&records).unwrap_or_else(|_| b"[]".to_vec())
}

/// The first line (or sentence) of `text`, at most `max` characters.
fn one_line(text: &str, max: usize) -> String {
    let first = text.trim().lines().next().unwrap_or_default().trim();
    let cut = first.find(". ").map_or(first, |i| &first[..=i]);
    if cut.chars().count() <= max {
        return cut.to_owned();
    }
    let mut s: String = cut.chars().take(max.saturating_sub(1)).collect();
    s.push('…');
    s
}

/// The search tool's definition.
pub(crate) fn search_tool(config: &SearchConfig, deferred: usize) -> ToolDefinition {
    ToolDefinition {
        name: config.tool_name.clone(),
        description: format!(
            "Find tools by what they do: {deferred} more tools are available but not listed. Returns the best \
             matches (name, description, input schema); a found tool can then be called by its name, or through \
             `{}` if it does not appear in your tool list.",
            config.call_tool_name
        ),
        input_schema: json!({
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "What the tool should do, in a few words (or a regular expression with mode regex)."},
                "mode": {"type": "string", "enum": ["bm25", "regex"], "description": "bm25: ranked keywords (default). regex: a case-insensitive pattern over names, descriptions and parameters."},
                "limit": {"type": "integer", "minimum": 1, "maximum": MAX_SEARCH_LIMIT, "description": format!("How many tools to return (default {}).", config.limit)}
            },
            "required": ["query"],
            "additionalProperties": false
        }),
        annotations: None,
    }
}

/// The generic call tool's definition.
pub(crate) fn call_tool(config: &SearchConfig) -> ToolDefinition {
    ToolDefinition {
        name: config.call_tool_name.clone(),
        description: format!(
            "Call a tool found by `{}` by its name, with its arguments (as its input schema describes).",
            config.tool_name
        ),
        input_schema: json!({
            "type": "object",
            "properties": {
                "name": {"type": "string", "description": "The tool's name, as the search returned it."},
                "arguments": {"type": "object", "description": "The tool's arguments."}
            },
            "required": ["name"],
            "additionalProperties": false
        }),
        annotations: None,
    }
}

/// The names the search and call tools must not collide with.
pub(crate) fn own_names(config: &SearchConfig) -> [&str; 3] {
    [config.tool_name.as_str(), config.call_tool_name.as_str(), read::TOOL_NAME]
}

/// The definitions a session lists: the always-loaded and activated tools of `surface`,
/// then the search and call tools.
pub(crate) fn session_tools(
    surface: &Surface,
    config: &SearchConfig,
    activated: &BTreeSet<String>,
    deferred: usize,
) -> Vec<ToolDefinition> {
    let mut defs: Vec<ToolDefinition> = surface
        .definitions()
        .filter(|d| config.is_always_loaded(&d.name) || activated.contains(&d.name))
        .cloned()
        .collect();
    defs.push(search_tool(config, deferred));
    defs.push(call_tool(config));
    defs
}

/// Patterns of `always_loaded` that name no tool of `surface`, each with a suggestion.
pub(crate) fn dangling_patterns(surface: &Surface, config: &SearchConfig) -> Vec<String> {
    config
        .always_loaded
        .iter()
        .filter(|p| !surface.definitions().any(|d| toolshape_mask::glob_match(p, &d.name)))
        .map(|p| {
            let near = toolshape_mask::did_you_mean(p, surface.definitions().map(|d| d.name.as_str()))
                .map(|hint| format!("; {hint}"))
                .unwrap_or_default();
            format!("search.always_loaded: no tool named `{p}`{near}")
        })
        .collect()
}

/// The store key of a scope's activations.
pub(crate) fn activation_key(scope_hex: &str) -> String {
    format!("search:{scope_hex}")
}

/// Activations as stored: a JSON array of names.
pub(crate) fn decode_activations(bytes: &[u8]) -> BTreeSet<String> {
    serde_json::from_slice(bytes).unwrap_or_default()
}

/// Activations to store.
pub(crate) fn encode_activations(names: &BTreeSet<String>) -> Vec<u8> {
    serde_json::to_vec(names).unwrap_or_else(|_| b"[]".to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> SearchConfig {
        SearchConfig { always_loaded: vec!["a".into()], ..SearchConfig::default() }
    }

    #[test]
    fn search_arguments_default_and_refuse_clearly() {
        let c = config();
        let args = json!({"query": "read a file"});
        let parsed = SearchArgs::parse(args.as_object(), &c).unwrap();
        assert_eq!(parsed, SearchArgs { query: "read a file".into(), mode: SearchMode::Bm25, limit: 5 });
        let args = json!({"query": "x", "mode": "regex", "limit": 7});
        let parsed = SearchArgs::parse(args.as_object(), &c).unwrap();
        assert_eq!((parsed.mode, parsed.limit), (SearchMode::Regex, 7));
        for (bad, says) in [
            (json!({}), "`query` is missing"),
            (json!({"query": "  "}), "`query` is missing"),
            (json!({"query": 3}), "must be a string"),
            (json!({"query": "x", "mode": "fuzzy"}), "`mode` must be"),
            (json!({"query": "x", "limit": 0}), "`limit` must be"),
            (json!({"query": "x", "limit": 51}), "`limit` must be"),
            (json!({"query": "x", "top": 3}), "unknown argument `top`"),
        ] {
            let e = SearchArgs::parse(bad.as_object(), &c).unwrap_err().to_string();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

    #[test]
    fn call_arguments_need_a_name_and_an_object() {
        let (name, inner) = parse_call(json!({"name": "t", "arguments": {"a": 1}}).as_object().cloned()).unwrap();
        assert_eq!(name, "t");
        assert_eq!(inner.unwrap()["a"], 1);
        let refused = |args: Option<Map<String, Value>>| parse_call(args).unwrap_err().to_string();
        assert!(refused(None).contains("`name` is missing"));
        assert!(refused(json!({"name": "t", "arguments": [1]}).as_object().cloned()).contains("object"));
        assert!(refused(json!({"name": "t", "args": {}}).as_object().cloned()).contains("`args`"));
    }

    #[test]
    fn one_line_takes_the_first_sentence_and_caps_it() {
        assert_eq!(one_line("Read a file. Then more.\nSecond line", 200), "Read a file.");
        assert_eq!(one_line("abcdef", 4), "abc…");
        assert_eq!(one_line("", 10), "");
    }

    #[test]
    fn nested_parameters_are_indexed_by_path() {
        let def = ToolDefinition {
            name: "t".into(),
            description: String::new(),
            input_schema: json!({"properties": {"a": {"description": "outer", "properties": {"b": {"description": "inner"}}}}}),
            annotations: None,
        };
        let doc = tool_doc(&def, None);
        let names: Vec<&str> = doc.params.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["a", "a.b"]);
        assert_eq!(doc.params[1].description, "inner");
    }

    #[test]
    fn always_loaded_names_that_match_nothing_are_reported_with_a_suggestion() {
        let yaml =
            "upstreams:\n  memory: { command: [x] }\nsearch:\n  always_loaded: [memory_read_grph, \"memory_*\", zzz]\n";
        let (config, masks) = toolshape_mask::load(yaml, "t.yaml", &|_| None).unwrap();
        let tool = |name: &str| toolshape_mask::UpstreamTool {
            upstream: "memory".into(),
            name: name.into(),
            description: String::new(),
            input_schema: json!({"type": "object"}),
            annotations: None,
        };
        let surface = masks.surface(None, &[tool("read_graph"), tool("create_entities")]).unwrap();
        let problems = dangling_patterns(&surface, config.search.as_ref().unwrap());
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(
            problems[0].contains("`memory_read_grph`") && problems[0].contains("did you mean `memory_read_graph`?")
        );
        assert!(problems[1].contains("`zzz`"));
    }

    fn findings(shown: usize, matched: usize, declined: bool) -> Findings {
        Findings { names: (0..shown).map(|i| format!("t{i}")).collect(), matched, declined }
    }

    #[test]
    fn the_lead_says_how_many_matched_and_how_many_are_shown() {
        assert_eq!(found_lead("issue", &findings(3, 3, false), 3), "3 tools matched \"issue\", all shown");
        assert_eq!(found_lead("x", &findings(1, 1, false), 1), "1 tool matched \"x\", all shown");
        assert_eq!(
            found_lead("issue", &findings(5, 12, false), 5),
            "12 tools matched \"issue\"; the best 5 are shown (7 more: raise `limit` or refine the query)"
        );
        assert!(found_lead("x", &findings(1, 4, false), 1).contains("the best is shown (3 more"));
        // The budget fit 2 of the 5 returned: the other 3 are behind `next`.
        assert_eq!(
            found_lead("x", &findings(5, 9, false), 2),
            "9 tools matched \"x\"; the best 2 are shown (3 more behind `next`; 4 more: raise `limit` or refine the query)"
        );
        assert!(found_lead("x", &findings(4, 4, false), 3).ends_with("the best 3 are shown (1 more behind `next`)"));
        // A count below what is returned (never expected) reads as all shown.
        assert!(found_lead("x", &findings(2, 0, false), 2).starts_with("2 tools matched"));
    }

    #[test]
    fn nothing_found_says_what_to_try() {
        let spaces = vec!["github".to_owned(), "memory".to_owned()];
        let declined = nothing_found_summary("bake a cake", SearchMode::Bm25, &findings(0, 4, true), 40, &spaces);
        assert!(declined.starts_with("No tool fits \"bake a cake\" well enough among 40 tools;"), "{declined}");
        assert!(!declined.contains("share a word"), "{declined}");
        assert!(declined.contains("rephrase") && declined.contains("`github`, `memory`"), "{declined}");
        let none = nothing_found_summary("zzqx", SearchMode::Bm25, &findings(0, 0, false), 40, &[]);
        assert!(none.starts_with("No tool matched \"zzqx\" among 40 tools; rephrase"), "{none}");
        assert!(!none.contains("namespaces"), "{none}");
        let regex = nothing_found_summary("^x_", SearchMode::Regex, &findings(0, 0, false), 40, &spaces);
        assert!(regex.contains("shorter pattern") && regex.contains("`github`"), "{regex}");
    }

    #[test]
    fn activations_round_trip_and_tolerate_damage() {
        let names: BTreeSet<String> = ["x".to_owned(), "y".to_owned()].into();
        assert_eq!(decode_activations(&encode_activations(&names)), names);
        assert!(decode_activations(b"not json").is_empty());
    }
}
