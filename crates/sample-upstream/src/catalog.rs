//! The tools the sample server lists: names, descriptions, input schemas and, for the tools
//! that answer with `structuredContent`, output schemas.
//!
//! The input schemas are the single source of the arguments a tool accepts: [`Args`] refuses
//! any argument a tool's schema does not declare, so a schema cannot drift from the code.

use std::sync::Arc;

use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use serde_json::{Value, json};

use crate::data::{LIGHTS, LOG_LEVELS, TABLE_COLUMNS};

/// The most issues one `list_issues` page may hold.
pub(crate) const MAX_PER_PAGE: i64 = 10_000;
/// The most log lines one `read_log` call generates.
pub(crate) const MAX_LOG_LINES: i64 = 1_000_000;
/// The default number of log lines: about 4.6 MB of text.
pub(crate) const DEFAULT_LOG_LINES: i64 = 50_000;
/// The most rows one `query_table` call returns.
pub(crate) const MAX_TABLE_LIMIT: i64 = 100_000;
/// The longest `slow` sleep, in milliseconds (one hour).
pub(crate) const MAX_SLOW_MS: i64 = 3_600_000;
/// The most megabytes `huge` writes.
pub(crate) const MAX_HUGE_MB: i64 = 1024;

/// Every tool of the sample server, in listing order.
pub(crate) fn tools() -> Vec<Tool> {
    vec![
        list_issues(),
        get_issue(),
        search_issues(),
        read_log(),
        query_table(),
        switch_light(),
        light_status(),
        fail_with_error(),
        slow(),
        huge(),
        crash(),
        garbage(),
        drip(),
        toggle_bonus_tool(),
    ]
    .into_iter()
    .chain(crate::media::tools())
    .collect()
}

/// The tool `toggle_bonus_tool` adds to (and removes from) the list.
pub(crate) const BONUS_TOOL: &str = "bonus_tool";

fn object(value: Value) -> Arc<JsonObject> {
    match value {
        Value::Object(map) => Arc::new(map),
        _ => Arc::new(JsonObject::new()),
    }
}

pub(crate) fn tool(name: &'static str, description: &'static str, input: Value) -> Tool {
    Tool::new(name, description, object(input))
}

pub(crate) fn read_only() -> ToolAnnotations {
    ToolAnnotations::new().read_only(true).destructive(false).idempotent(true).open_world(false)
}

fn fault() -> ToolAnnotations {
    ToolAnnotations::new().read_only(true).destructive(false).open_world(false)
}

/// The schema of one issue as `get_issue` and `search_issues` return it: the fields every
/// issue has, typed; the other GitHub fields are allowed and not described.
fn issue_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "number": { "type": "integer" },
            "title": { "type": "string" },
            "state": { "type": "string", "enum": ["open", "closed"] },
            "user": {
                "type": "object",
                "properties": { "login": { "type": "string" } },
                "required": ["login"]
            },
            "labels": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": { "name": { "type": "string" } },
                    "required": ["name"]
                }
            },
            "comments": { "type": "integer" },
            "created_at": { "type": "string" },
            "updated_at": { "type": "string" },
            "closed_at": { "type": ["string", "null"] },
            "body": { "type": ["string", "null"] }
        },
        "required": ["number", "title", "state", "user", "labels", "comments", "created_at", "updated_at"]
    })
}

fn list_issues() -> Tool {
    tool(
        "list_issues",
        "List issues of the sample repository's tracker (5,000 issues by default) as a JSON array in \
         the GitHub REST shape: about 5 KB per issue, with the full user, labels, milestone, reactions \
         and markdown body. Newest first unless `sort`/`direction` say otherwise. Filter by `state` and \
         `label`; page with `per_page` (up to 10,000) and `page`.",
        json!({
            "type": "object",
            "properties": {
                "state": { "type": "string", "enum": ["open", "closed", "all"], "default": "open", "description": "Which issues: open (default), closed or all" },
                "label": { "type": "string", "description": "Only issues carrying this label, like `bug` or `area/parser`" },
                "sort": { "type": "string", "enum": ["created", "updated", "comments"], "default": "created", "description": "Sort key" },
                "direction": { "type": "string", "enum": ["asc", "desc"], "default": "desc", "description": "Sort direction" },
                "per_page": { "type": "integer", "minimum": 1, "maximum": MAX_PER_PAGE, "default": 30, "description": "Issues per page, 1 to 10,000" },
                "page": { "type": "integer", "minimum": 1, "default": 1, "description": "Page number, from 1" }
            },
            "additionalProperties": false
        }),
    )
    .with_title("List issues")
    .with_annotations(read_only())
}

fn get_issue() -> Tool {
    tool(
        "get_issue",
        "One issue of the sample repository by number, with every GitHub field (user, labels, body, \
         reactions, ...). Answers with structured content.",
        json!({
            "type": "object",
            "properties": {
                "number": { "type": "integer", "description": "The issue number, as `list_issues` shows it" }
            },
            "required": ["number"],
            "additionalProperties": false
        }),
    )
    .with_title("Get an issue")
    .with_raw_output_schema(object(issue_schema()))
    .with_annotations(read_only())
}

fn search_issues() -> Tool {
    tool(
        "search_issues",
        "Search the sample repository's issues for words in the title or body (every word must \
         appear, case-insensitive). Answers in the GitHub search shape, `{total_count, \
         incomplete_results, items}`, as structured content.",
        json!({
            "type": "object",
            "properties": {
                "query": { "type": "string", "minLength": 1, "description": "Words to look for, like `dark mode`" },
                "state": { "type": "string", "enum": ["open", "closed", "all"], "default": "all", "description": "Only open or only closed issues" },
                "per_page": { "type": "integer", "minimum": 1, "maximum": 100, "default": 30, "description": "Matches returned, 1 to 100" }
            },
            "required": ["query"],
            "additionalProperties": false
        }),
    )
    .with_title("Search issues")
    .with_raw_output_schema(object(json!({
        "type": "object",
        "properties": {
            "total_count": { "type": "integer", "minimum": 0 },
            "incomplete_results": { "type": "boolean" },
            "items": { "type": "array", "items": issue_schema() }
        },
        "required": ["total_count", "incomplete_results", "items"]
    })))
    .with_annotations(read_only())
}

fn read_log() -> Tool {
    tool(
        "read_log",
        "Read the application log of the sample service as plain text: timestamped lines of \
         DEBUG, INFO, WARN and ERROR entries from several services, with stack traces after some \
         errors. 50,000 lines (about 4.6 MB) by default. `min_level` keeps only entries of that \
         level or worse, each with its stack trace.",
        json!({
            "type": "object",
            "properties": {
                "lines": { "type": "integer", "minimum": 1, "maximum": MAX_LOG_LINES, "default": DEFAULT_LOG_LINES, "description": "How many log lines to generate before filtering" },
                "min_level": { "type": "string", "enum": LOG_LEVELS, "description": "Keep entries of this level or more severe" }
            },
            "additionalProperties": false
        }),
    )
    .with_title("Read the log")
    .with_annotations(read_only())
}

fn query_table() -> Tool {
    let mut row_properties = serde_json::Map::new();
    for column in TABLE_COLUMNS {
        let schema = match column {
            "id" | "quantity" | "discount_pct" => json!({ "type": "integer" }),
            "unit_price" | "amount" => json!({ "type": "number" }),
            "sales_rep" => json!({ "type": ["string", "null"] }),
            _ => json!({ "type": "string" }),
        };
        row_properties.insert(column.to_owned(), schema);
    }
    tool(
        "query_table",
        "Query the sample sales table (20,000 orders: date, region, country, product, quantity, \
         amount, currency, status, customer, ...). Filter by `region` and `status`, sort by a \
         column, return at most `limit` rows (default 1,000). Answers with structured content: \
         `{columns, row_count, total_matching, rows}`.",
        json!({
            "type": "object",
            "properties": {
                "region": { "type": "string", "enum": ["EMEA", "AMER", "APAC"], "description": "Only orders of this region" },
                "status": { "type": "string", "enum": ["paid", "pending", "refunded", "cancelled", "overdue"], "description": "Only orders with this status" },
                "order_by": { "type": "string", "enum": TABLE_COLUMNS, "default": "id", "description": "Column to sort by" },
                "descending": { "type": "boolean", "default": false, "description": "Largest first" },
                "limit": { "type": "integer", "minimum": 1, "maximum": MAX_TABLE_LIMIT, "default": 1000, "description": "Most rows returned" }
            },
            "additionalProperties": false
        }),
    )
    .with_title("Query the sales table")
    .with_raw_output_schema(object(json!({
        "type": "object",
        "properties": {
            "columns": { "type": "array", "items": { "type": "string" } },
            "row_count": { "type": "integer", "minimum": 0 },
            "total_matching": { "type": "integer", "minimum": 0 },
            "rows": {
                "type": "array",
                "items": { "type": "object", "properties": row_properties, "required": TABLE_COLUMNS }
            }
        },
        "required": ["columns", "row_count", "total_matching", "rows"]
    })))
    .with_annotations(read_only())
}

fn light_schema(with_change: bool) -> Value {
    let mut schema = json!({
        "type": "object",
        "properties": {
            "entity": { "type": "string", "enum": LIGHTS },
            "state": { "type": "string", "enum": ["on", "off"] },
            "brightness": { "type": "integer", "minimum": 0, "maximum": 255 },
            "friendly_name": { "type": "string" },
            "last_changed": { "type": "string" }
        },
        "required": ["entity", "state", "brightness", "friendly_name", "last_changed"]
    });
    if with_change {
        schema["properties"]["changed"] = json!({ "type": "boolean" });
        schema["properties"]["previous_state"] = json!({ "type": "string", "enum": ["on", "off"] });
        if let Some(required) = schema["required"].as_array_mut() {
            required.extend([json!("changed"), json!("previous_state")]);
        }
    }
    schema
}

fn switch_light() -> Tool {
    tool(
        "switch_light",
        "Turn a light on or off (a state-changing device tool). Answers with the light's new \
         status as structured content, including whether anything changed.",
        json!({
            "type": "object",
            "properties": {
                "entity": { "type": "string", "enum": LIGHTS, "description": "The light, like `light.kitchen`" },
                "on": { "type": "boolean", "description": "true to turn it on, false to turn it off" },
                "brightness": { "type": "integer", "minimum": 1, "maximum": 255, "description": "Brightness when turning on (default: the last one, or 255)" }
            },
            "required": ["entity", "on"],
            "additionalProperties": false
        }),
    )
    .with_title("Switch a light")
    .with_raw_output_schema(object(light_schema(true)))
    .with_annotations(ToolAnnotations::new().read_only(false).destructive(false).idempotent(true).open_world(false))
}

fn light_status() -> Tool {
    tool(
        "light_status",
        "The status of every light, or of one: on or off, brightness, last change.",
        json!({
            "type": "object",
            "properties": {
                "entity": { "type": "string", "enum": LIGHTS, "description": "Only this light" }
            },
            "additionalProperties": false
        }),
    )
    .with_title("Light status")
    .with_raw_output_schema(object(json!({
        "type": "object",
        "properties": { "lights": { "type": "array", "items": light_schema(false) } },
        "required": ["lights"]
    })))
    .with_annotations(read_only())
}

fn fail_with_error() -> Tool {
    tool(
        "fail_with_error",
        "Fault tool for tests: always fails, answering an `isError` result whose text is a long \
         Python traceback ending in the given message.",
        json!({
            "type": "object",
            "properties": {
                "message": { "type": "string", "default": "canceling statement due to statement timeout", "description": "The exception message on the last line" }
            },
            "additionalProperties": false
        }),
    )
    .with_annotations(fault())
}

fn slow() -> Tool {
    tool(
        "slow",
        "Fault tool for tests: sleeps `ms` milliseconds, then answers. Sends progress \
         notifications when the call carries a progress token; stops early when cancelled.",
        json!({
            "type": "object",
            "properties": {
                "ms": { "type": "integer", "minimum": 0, "maximum": MAX_SLOW_MS, "description": "How long to sleep, in milliseconds" }
            },
            "required": ["ms"],
            "additionalProperties": false
        }),
    )
    .with_annotations(fault())
}

fn huge() -> Tool {
    tool(
        "huge",
        "Fault tool for tests: answers `mb` megabytes of output, as numbered text lines or as a \
         JSON array of records.",
        json!({
            "type": "object",
            "properties": {
                "mb": { "type": "integer", "minimum": 1, "maximum": MAX_HUGE_MB, "description": "Megabytes of output (MiB)" },
                "format": { "type": "string", "enum": ["text", "json"], "default": "text", "description": "Text lines or a JSON array" }
            },
            "required": ["mb"],
            "additionalProperties": false
        }),
    )
    .with_annotations(fault())
}

fn crash() -> Tool {
    tool(
        "crash",
        "Fault tool for tests: the server process exits (after `after_ms` milliseconds) without \
         answering this call, or any other.",
        json!({
            "type": "object",
            "properties": {
                "after_ms": { "type": "integer", "minimum": 0, "maximum": 60_000, "default": 0, "description": "Delay before exiting" },
                "exit_code": { "type": "integer", "minimum": 0, "maximum": 255, "default": 101, "description": "The process exit code" }
            },
            "additionalProperties": false
        }),
    )
    .with_annotations(ToolAnnotations::new().read_only(false).destructive(true).open_world(false))
}

fn garbage() -> Tool {
    tool(
        "garbage",
        "Fault tool for tests (stdio only): writes lines that are not JSON-RPC to standard output, \
         where the client reads messages, then answers normally unless `answer` is false. Kinds: \
         `text` (plain lines), `partial` (cut-off JSON), `binary` (invalid UTF-8).",
        json!({
            "type": "object",
            "properties": {
                "lines": { "type": "integer", "minimum": 1, "maximum": 100_000, "default": 3, "description": "How many garbage lines" },
                "kind": { "type": "string", "enum": ["text", "partial", "binary"], "default": "text", "description": "What the garbage looks like" },
                "answer": { "type": "boolean", "default": true, "description": "Answer the call after the garbage" }
            },
            "additionalProperties": false
        }),
    )
    .with_annotations(fault())
}

fn drip() -> Tool {
    tool(
        "drip",
        "Fault tool for tests (stdio only): writes its answer to standard output one byte every \
         `interval_ms` milliseconds (a slow-drip upstream). Its answer is a text of `chars` \
         characters. Do not call other tools meanwhile: their messages would interleave.",
        json!({
            "type": "object",
            "properties": {
                "chars": { "type": "integer", "minimum": 1, "maximum": 100_000, "default": 20, "description": "Length of the answer's text" },
                "interval_ms": { "type": "integer", "minimum": 1, "maximum": 60_000, "default": 1000, "description": "Pause between two bytes" }
            },
            "additionalProperties": false
        }),
    )
    .with_annotations(fault())
}

fn toggle_bonus_tool() -> Tool {
    tool(
        "toggle_bonus_tool",
        "Test tool for list changes: adds `bonus_tool` to this server's tool list (or removes it) \
         and sends `notifications/tools/list_changed`. Answers whether the bonus tool is now listed.",
        json!({ "type": "object", "properties": {}, "additionalProperties": false }),
    )
    .with_annotations(ToolAnnotations::new().read_only(false).destructive(false).idempotent(false).open_world(false))
}

/// The tool `toggle_bonus_tool` lists: it answers a fixed greeting.
pub(crate) fn bonus_tool() -> Tool {
    tool(
        BONUS_TOOL,
        "A tool that appears only after `toggle_bonus_tool`; answers `bonus!` and the `name` it was given.",
        json!({
            "type": "object",
            "properties": { "name": { "type": "string", "description": "A name to greet" } },
            "additionalProperties": false
        }),
    )
    .with_annotations(read_only())
}

/// A tool's arguments, checked against what its input schema declares.
#[derive(Debug)]
pub(crate) struct Args {
    tool: String,
    map: JsonObject,
}

impl Args {
    /// The arguments of a call to `tool`; refuses any argument its schema does not declare.
    pub(crate) fn new(tool: &Tool, arguments: Option<JsonObject>) -> Result<Args, String> {
        let map = arguments.unwrap_or_default();
        let declared = tool.input_schema.get("properties").and_then(Value::as_object);
        let unknown: Vec<&str> =
            map.keys().filter(|k| declared.is_none_or(|d| !d.contains_key(*k))).map(String::as_str).collect();
        if !unknown.is_empty() {
            let known: Vec<&str> = declared.map(|d| d.keys().map(String::as_str).collect()).unwrap_or_default();
            return Err(format!(
                "{}: unknown argument(s) {}; it takes {}",
                tool.name,
                unknown.join(", "),
                if known.is_empty() { "none".to_owned() } else { known.join(", ") }
            ));
        }
        if let Some(required) = tool.input_schema.get("required").and_then(Value::as_array) {
            let missing: Vec<&str> =
                required.iter().filter_map(Value::as_str).filter(|r| !map.contains_key(*r)).collect();
            if !missing.is_empty() {
                return Err(format!("{}: missing required argument(s) {}", tool.name, missing.join(", ")));
            }
        }
        Ok(Args { tool: tool.name.to_string(), map })
    }

    fn present(&self, name: &str) -> Option<&Value> {
        self.map.get(name).filter(|v| !v.is_null())
    }

    /// A string argument.
    pub(crate) fn str(&self, name: &str) -> Result<Option<&str>, String> {
        match self.present(name) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(other) => Err(format!("{}: `{name}` must be a string, got {other}", self.tool)),
        }
    }

    /// A string argument that must be one of `options`.
    pub(crate) fn choice(&self, name: &str, options: &[&str]) -> Result<Option<&str>, String> {
        match self.str(name)? {
            Some(s) if !options.contains(&s) => {
                Err(format!("{}: `{name}` must be one of {}, got `{s}`", self.tool, options.join(", ")))
            }
            other => Ok(other),
        }
    }

    /// An integer argument within `min..=max` (a whole float like `30.0` counts).
    pub(crate) fn int(&self, name: &str, min: i64, max: i64) -> Result<Option<i64>, String> {
        let Some(value) = self.present(name) else { return Ok(None) };
        let n =
            value.as_i64().or_else(|| value.as_f64().filter(|f| f.fract() == 0.0 && f.abs() < 9e15).map(|f| f as i64));
        match n {
            Some(n) if (min..=max).contains(&n) => Ok(Some(n)),
            Some(n) => Err(format!("{}: `{name}` must be between {min} and {max}, got {n}", self.tool)),
            None => Err(format!("{}: `{name}` must be an integer, got {value}", self.tool)),
        }
    }

    /// A boolean argument.
    pub(crate) fn bool(&self, name: &str) -> Result<Option<bool>, String> {
        match self.present(name) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(other) => Err(format!("{}: `{name}` must be true or false, got {other}", self.tool)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find(name: &str) -> Tool {
        tools().into_iter().find(|t| t.name == name).unwrap()
    }

    #[test]
    fn every_tool_has_an_object_schema_and_a_description() {
        let tools = tools();
        assert_eq!(tools.len(), 18);
        for tool in tools.iter().chain([&bonus_tool()]) {
            assert_eq!(tool.input_schema.get("type"), Some(&json!("object")), "{}", tool.name);
            assert!(tool.description.as_deref().is_some_and(|d| d.len() > 40), "{}", tool.name);
            if let Some(out) = &tool.output_schema {
                assert_eq!(out.get("type"), Some(&json!("object")), "{}", tool.name);
            }
        }
        let names: std::collections::BTreeSet<_> = tools.iter().map(|t| t.name.clone()).collect();
        assert_eq!(names.len(), tools.len(), "names are unique");
    }

    #[test]
    fn args_refuse_what_the_schema_does_not_declare() {
        let tool = find("list_issues");
        let err = Args::new(&tool, Some(json!({"owner": "x"}).as_object().unwrap().clone())).unwrap_err();
        assert!(err.contains("unknown argument(s) owner") && err.contains("per_page"), "{err}");
        let err = Args::new(&find("get_issue"), None).unwrap_err();
        assert!(err.contains("missing required argument(s) number"), "{err}");

        let args =
            Args::new(&tool, Some(json!({"per_page": 50.0, "state": "open"}).as_object().unwrap().clone())).unwrap();
        assert_eq!(args.int("per_page", 1, MAX_PER_PAGE), Ok(Some(50)));
        assert_eq!(args.choice("state", &["open", "closed"]), Ok(Some("open")));
        assert_eq!(args.int("page", 1, 10), Ok(None));
        let args =
            Args::new(&tool, Some(json!({"per_page": 0, "state": "weird"}).as_object().unwrap().clone())).unwrap();
        assert!(args.int("per_page", 1, MAX_PER_PAGE).unwrap_err().contains("between 1 and 10000"));
        assert!(args.choice("state", &["open", "closed"]).unwrap_err().contains("one of open, closed"));
        assert!(args.bool("state").is_err());
    }
}
