//! A client's config file, parsed so that it can be changed and written back with every
//! other key, comment and blank line where it was.
//!
//! JSON files are read as JSONC (comments and trailing commas, which VS Code and Gemini CLI
//! accept) into a concrete syntax tree; Codex's TOML into a `toml_edit` document. Both only
//! change the server entries asked for.

use jsonc_parser::ParseOptions;
use jsonc_parser::cst::{CstInputValue, CstNode, CstObject, CstRootNode};
use serde_json::{Map, Value};
use toml_edit::{DocumentMut, Item, Table};

use crate::client::{Format, ServersAt};
use crate::error::ClientsError;

/// A parsed config file.
pub enum Document {
    /// A JSON or JSONC file.
    Json(CstRootNode),
    /// A TOML file.
    Toml(DocumentMut),
}

impl Document {
    /// Parse `text` written in `format`. An empty file is an empty object (or table).
    pub fn parse(text: &str, format: Format) -> Result<Document, ClientsError> {
        match format {
            Format::Json => {
                let options = ParseOptions::default();
                let root = CstRootNode::parse(text, &options).map_err(|e| ClientsError::Syntax(e.to_string()))?;
                if let Some(value) = root.value()
                    && value.as_object().is_none()
                {
                    return Err(ClientsError::Syntax("the file is not a JSON object".to_owned()));
                }
                Ok(Document::Json(root))
            }
            Format::Toml => {
                text.parse::<DocumentMut>().map(Document::Toml).map_err(|e| ClientsError::Syntax(e.to_string()))
            }
        }
    }

    /// The server entries at `at`, in the file's order, as JSON values. A missing list is
    /// empty; a list that is not an object is an error.
    pub fn servers(&self, at: &ServersAt) -> Result<Vec<(String, Value)>, ClientsError> {
        match self {
            Document::Json(root) => {
                let Some(servers) = json_servers(root, at, false)? else { return Ok(Vec::new()) };
                Ok(servers
                    .properties()
                    .into_iter()
                    .filter_map(|p| {
                        let name = p.name()?.decoded_value().ok()?;
                        let value = p.value()?.to_serde_value()?;
                        Some((name, value))
                    })
                    .collect())
            }
            Document::Toml(doc) => {
                let Some(item) = doc.get("mcp_servers") else { return Ok(Vec::new()) };
                let table = item.as_table_like().ok_or_else(|| not_a_table("mcp_servers"))?;
                Ok(table.iter().map(|(k, v)| (k.to_owned(), toml_to_json(v))).collect())
            }
        }
    }

    /// Remove the servers named `names` from `at` (names not there are ignored).
    pub fn remove_servers(&mut self, at: &ServersAt, names: &[String]) -> Result<(), ClientsError> {
        match self {
            Document::Json(root) => {
                if let Some(servers) = json_servers(root, at, false)? {
                    for name in names {
                        if let Some(prop) = servers.get(name) {
                            remove_leading_comments(&prop);
                            prop.remove();
                        }
                    }
                }
            }
            Document::Toml(doc) => {
                if let Some(table) = doc.get_mut("mcp_servers").and_then(Item::as_table_like_mut) {
                    for name in names {
                        table.remove(name);
                    }
                }
            }
        }
        Ok(())
    }

    /// Add (or replace) the server `name` at `at`, creating the list and the objects above
    /// it when missing. `entry` is a JSON object.
    pub fn set_server(&mut self, at: &ServersAt, name: &str, entry: &Value) -> Result<(), ClientsError> {
        match self {
            Document::Json(root) => {
                let servers = json_servers(root, at, true)?.ok_or_else(|| not_a_table(&at.describe()))?;
                let input = to_cst_input(entry);
                match servers.get(name) {
                    Some(prop) => prop.set_value(input),
                    None => {
                        servers.append(name, input);
                    }
                }
                Ok(())
            }
            Document::Toml(doc) => {
                let root = doc.as_table_mut();
                if !root.contains_key("mcp_servers") {
                    let mut table = Table::new();
                    table.set_implicit(true);
                    root.insert("mcp_servers", Item::Table(table));
                }
                let servers = root
                    .get_mut("mcp_servers")
                    .and_then(Item::as_table_mut)
                    .ok_or_else(|| not_a_table("mcp_servers"))?;
                servers.insert(name, json_to_toml_table(entry));
                Ok(())
            }
        }
    }

    /// The file's text.
    pub fn render(&self) -> String {
        match self {
            Document::Json(root) => root.to_string(),
            Document::Toml(doc) => doc.to_string(),
        }
    }
}

/// Remove the comments on their own lines right above `prop`: they describe it, and would
/// otherwise describe whatever comes next. A comment ending the line before (after a comma)
/// belongs to that line and stays.
fn remove_leading_comments(prop: &jsonc_parser::cst::CstObjectProp) {
    let nearest_first: Vec<CstNode> = prop.previous_siblings().collect();
    let mut doomed = Vec::new();
    let mut i = 0;
    while i < nearest_first.len() {
        let node = &nearest_first[i];
        if node.is_whitespace() || node.is_newline() {
            i += 1;
            continue;
        }
        if !node.is_comment() {
            break;
        }
        // Own line: only whitespace, then a line break (or nothing), before it.
        let farther = nearest_first[i + 1..].iter().find(|n| !n.is_whitespace());
        if farther.is_some_and(|n| !n.is_newline()) {
            break;
        }
        doomed.push(node.clone());
        // Its indentation and its line break go with it, so no blank line is left.
        if let Some(indent) = nearest_first.get(i + 1).filter(|n| n.is_whitespace()) {
            doomed.push(indent.clone());
        }
        if let Some(newline) = nearest_first[..i].iter().rev().find(|n| n.is_newline()) {
            doomed.push(newline.clone());
        }
        i += 1;
    }
    for node in doomed {
        node.remove();
    }
}

fn not_a_table(what: &str) -> ClientsError {
    ClientsError::Shape(format!("`{what}` is not an object"))
}

/// The object holding the servers; `create` makes it (and its parents) when missing.
fn json_servers(root: &CstRootNode, at: &ServersAt, create: bool) -> Result<Option<CstObject>, ClientsError> {
    let top = if create {
        root.object_value_or_create().ok_or_else(|| ClientsError::Shape("the file is not a JSON object".to_owned()))?
    } else {
        match root.object_value() {
            Some(o) => o,
            None => return Ok(None),
        }
    };
    let child = |parent: &CstObject, key: &str| -> Result<Option<CstObject>, ClientsError> {
        match parent.get(key) {
            Some(prop) => match prop.value() {
                Some(v) if v.as_object().is_some() => Ok(v.as_object()),
                _ => Err(not_a_table(key)),
            },
            None if create => Ok(parent.object_value_or_create(key)),
            None => Ok(None),
        }
    };
    match at {
        ServersAt::McpServers | ServersAt::McpServersTable => child(&top, "mcpServers"),
        ServersAt::Servers => child(&top, "servers"),
        ServersAt::ProjectMcpServers(folder) => {
            let Some(projects) = child(&top, "projects")? else { return Ok(None) };
            let Some(project) = child(&projects, folder)? else { return Ok(None) };
            child(&project, "mcpServers")
        }
    }
}

/// A JSON value as the CST's input.
fn to_cst_input(value: &Value) -> CstInputValue {
    match value {
        Value::Null => CstInputValue::Null,
        Value::Bool(b) => CstInputValue::Bool(*b),
        Value::Number(n) => CstInputValue::Number(n.to_string()),
        Value::String(s) => CstInputValue::String(s.clone()),
        Value::Array(items) => CstInputValue::Array(items.iter().map(to_cst_input).collect()),
        Value::Object(map) => CstInputValue::Object(map.iter().map(|(k, v)| (k.clone(), to_cst_input(v))).collect()),
    }
}

/// A TOML item as JSON (dates become strings).
fn toml_to_json(item: &Item) -> Value {
    match item {
        Item::None => Value::Null,
        Item::Value(v) => toml_value_to_json(v),
        Item::Table(t) => Value::Object(t.iter().map(|(k, v)| (k.to_owned(), toml_to_json(v))).collect()),
        Item::ArrayOfTables(a) => Value::Array(
            a.iter().map(|t| Value::Object(t.iter().map(|(k, v)| (k.to_owned(), toml_to_json(v))).collect())).collect(),
        ),
    }
}

fn toml_value_to_json(value: &toml_edit::Value) -> Value {
    use toml_edit::Value as T;
    match value {
        T::String(s) => Value::String(s.value().clone()),
        T::Integer(i) => Value::from(*i.value()),
        T::Float(f) => serde_json::Number::from_f64(*f.value()).map_or(Value::Null, Value::Number),
        T::Boolean(b) => Value::Bool(*b.value()),
        T::Datetime(d) => Value::String(d.value().to_string()),
        T::Array(a) => Value::Array(a.iter().map(toml_value_to_json).collect()),
        T::InlineTable(t) => {
            Value::Object(t.iter().map(|(k, v)| (k.to_owned(), toml_value_to_json(v))).collect::<Map<_, _>>())
        }
    }
}

/// A JSON object as a TOML table: nested objects become inline tables (`env = { A = "b" }`).
fn json_to_toml_table(value: &Value) -> Item {
    let mut table = Table::new();
    if let Value::Object(map) = value {
        for (k, v) in map {
            if let Some(v) = json_to_toml_value(v) {
                table.insert(k, Item::Value(v));
            }
        }
    }
    Item::Table(table)
}

fn json_to_toml_value(value: &Value) -> Option<toml_edit::Value> {
    Some(match value {
        Value::Null => return None,
        Value::Bool(b) => toml_edit::Value::from(*b),
        Value::Number(n) => match n.as_i64() {
            Some(i) => toml_edit::Value::from(i),
            None => toml_edit::Value::from(n.as_f64().unwrap_or_default()),
        },
        Value::String(s) => toml_edit::Value::from(s.as_str()),
        Value::Array(items) => {
            toml_edit::Value::Array(items.iter().filter_map(json_to_toml_value).collect::<toml_edit::Array>())
        }
        Value::Object(map) => {
            let mut inline = toml_edit::InlineTable::new();
            for (k, v) in map {
                if let Some(v) = json_to_toml_value(v) {
                    inline.insert(k, v);
                }
            }
            toml_edit::Value::InlineTable(inline)
        }
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    const JSONC: &str = r#"{
  // my servers
  "theme": "dark",
  "mcpServers": {
    "a": { "command": "x" }, // first
    "b": { "command": "y", },
  },
  "other": [1, 2],
}
"#;

    #[test]
    fn json_edits_keep_comments_and_other_keys() {
        let mut doc = Document::parse(JSONC, Format::Json).unwrap();
        let servers = doc.servers(&ServersAt::McpServers).unwrap();
        assert_eq!(servers.iter().map(|s| s.0.as_str()).collect::<Vec<_>>(), ["a", "b"]);
        doc.remove_servers(&ServersAt::McpServers, &["a".into(), "b".into()]).unwrap();
        doc.set_server(&ServersAt::McpServers, "t", &json!({"command": "/bin/t", "args": ["serve"]})).unwrap();
        let text = doc.render();
        assert!(text.contains("// my servers") && text.contains("\"theme\": \"dark\"") && text.contains("[1, 2]"));
        assert!(!text.contains("\"a\"") && text.contains("\"/bin/t\""), "{text}");
        let back = Document::parse(&text, Format::Json).unwrap();
        assert_eq!(back.servers(&ServersAt::McpServers).unwrap().len(), 1);
    }

    #[test]
    fn missing_lists_and_parents_are_created() {
        let mut doc = Document::parse("", Format::Json).unwrap();
        assert!(doc.servers(&ServersAt::Servers).unwrap().is_empty());
        let at = ServersAt::ProjectMcpServers("/p".into());
        doc.set_server(&at, "t", &json!({"command": "c"})).unwrap();
        let value: Value = serde_json::from_str(&doc.render()).unwrap();
        assert_eq!(value["projects"]["/p"]["mcpServers"]["t"]["command"], "c");
        let wrong = Document::parse(r#"{"mcpServers": []}"#, Format::Json).unwrap();
        assert!(wrong.servers(&ServersAt::McpServers).is_err());
        assert!(Document::parse("[1]", Format::Json).is_err());
        assert!(Document::parse("{", Format::Json).is_err());
    }

    #[test]
    fn toml_edits_keep_comments_and_other_tables() {
        let text = "# codex\nmodel = \"o3\"\n\n[mcp_servers.a]\ncommand = \"x\" # start it\nenv = { K = \"v\" }\n\n[mcp_servers.a.extra]\nq = 1\n\n[profiles.fast]\nmodel = \"m\"\n";
        let mut doc = Document::parse(text, Format::Toml).unwrap();
        let servers = doc.servers(&ServersAt::McpServersTable).unwrap();
        assert_eq!(servers[0].1["env"]["K"], "v");
        assert_eq!(servers[0].1["extra"]["q"], 1);
        doc.remove_servers(&ServersAt::McpServersTable, &["a".into()]).unwrap();
        doc.set_server(&ServersAt::McpServersTable, "t", &json!({"command": "c", "env": {"A": "b"}, "args": ["x"]}))
            .unwrap();
        let out = doc.render();
        assert!(out.starts_with("# codex\nmodel = \"o3\""), "{out}");
        assert!(out.contains("[profiles.fast]") && out.contains("[mcp_servers.t]") && !out.contains("mcp_servers.a"));
        assert!(out.contains("env = { A = \"b\" }"), "{out}");
        let mut empty = Document::parse("", Format::Toml).unwrap();
        empty.set_server(&ServersAt::McpServersTable, "t", &json!({"command": "c"})).unwrap();
        assert_eq!(empty.render().trim(), "[mcp_servers.t]\ncommand = \"c\"");
    }
}
