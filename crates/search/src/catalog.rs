//! Tool documents: the searchable text of a tool, read from an MCP tool definition or a catalog.
//!
//! A catalog is what an MCP server answers to `tools/list` (`{"tools": [...]}`) or a bare
//! JSON array of the same tool objects. Only the text search needs is kept: the tool's name,
//! its description, and the name and description of every parameter in its input schema
//! (nested object properties and array items included, named by their path).

use serde_json::Value;
use toolshape_util::json_kind;

/// How deep nested parameter schemas are followed; deeper levels are rare and a hostile
/// schema must not make indexing recurse without bound.
const MAX_SCHEMA_DEPTH: usize = 8;
/// The most parameters kept for one tool, for the same reason.
const MAX_PARAMS_PER_TOOL: usize = 512;

/// One parameter of a tool: its name (a dotted path for nested properties) and description.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ParamDoc {
    /// The parameter's name; `parent.child` for a property of a nested object.
    pub name: String,
    /// The parameter's description, empty when the schema has none.
    pub description: String,
}

/// The searchable text of one tool.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ToolDoc {
    /// The tool's name, exactly as the server spells it.
    pub name: String,
    /// The tool's description, empty when it has none.
    pub description: String,
    /// The tool's parameters, in schema order.
    pub params: Vec<ParamDoc>,
}

/// A catalog or tool definition that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CatalogError {
    /// The text is not JSON.
    #[error("the tool catalog is not valid JSON ({message}); give a `tools/list` result or a JSON array of tools")]
    InvalidJson {
        /// The parser's message, with line and column.
        message: String,
    },
    /// The JSON is neither `{"tools": [...]}` nor an array.
    #[error(
        "the tool catalog is {found}, but it must be a `tools/list` result (an object with a `tools` array) or a JSON array of tools"
    )]
    NotACatalog {
        /// What the top-level value is instead.
        found: String,
    },
    /// One tool definition is unusable.
    #[error("the tool definition is invalid: {reason}")]
    InvalidTool {
        /// What is wrong with it.
        reason: String,
    },
    /// One entry of a catalog is unusable.
    #[error("catalog entry {number} (counting from 1){} is invalid: {reason}", name.as_ref().map(|n| format!(", tool `{n}`,")).unwrap_or_default())]
    InvalidEntry {
        /// The entry's position in the list, counting from 1.
        number: usize,
        /// The entry's name, when it has a readable one.
        name: Option<String>,
        /// What is wrong with it.
        reason: String,
    },
}

impl ToolDoc {
    /// Read one MCP tool definition: `name` (required, a non-empty string), `description`
    /// (optional) and the `description` of every property in `inputSchema`, nested ones too.
    ///
    /// # Errors
    /// [`CatalogError::InvalidTool`] when the value is not an object, has no non-empty string
    /// `name`, or has a `description` or `inputSchema` of the wrong type.
    pub fn from_mcp_tool(tool: &Value) -> Result<ToolDoc, CatalogError> {
        let invalid = |reason: &str| CatalogError::InvalidTool { reason: reason.to_owned() };
        let object = tool.as_object().ok_or_else(|| CatalogError::InvalidTool {
            reason: format!("it is {}, not a JSON object with a `name`", json_kind(tool)),
        })?;
        let name = match object.get("name") {
            Some(Value::String(name)) if !name.trim().is_empty() => name.clone(),
            Some(Value::String(_)) => return Err(invalid("its `name` is empty")),
            Some(other) => {
                return Err(CatalogError::InvalidTool {
                    reason: format!("its `name` is {}, not a string", json_kind(other)),
                });
            }
            None => return Err(invalid("it has no `name`")),
        };
        let description = match object.get("description") {
            None | Some(Value::Null) => String::new(),
            Some(Value::String(text)) => text.clone(),
            Some(other) => {
                return Err(CatalogError::InvalidTool {
                    reason: format!("its `description` is {}, not a string", json_kind(other)),
                });
            }
        };
        let mut params = Vec::new();
        match object.get("inputSchema") {
            None | Some(Value::Null) => {}
            Some(schema @ Value::Object(_)) => collect_params(schema, "", 0, &mut params),
            Some(other) => {
                return Err(CatalogError::InvalidTool {
                    reason: format!("its `inputSchema` is {}, not a JSON object", json_kind(other)),
                });
            }
        }
        Ok(ToolDoc { name, description, params })
    }
}

/// Read a catalog: a `tools/list` result (`{"tools": [...]}`) or a bare JSON array of tools.
///
/// # Errors
/// [`CatalogError::InvalidJson`] for text that is not JSON, [`CatalogError::NotACatalog`] for
/// JSON of another shape, and [`CatalogError::InvalidEntry`] naming the first unusable tool.
pub fn parse_catalog(json_text: &str) -> Result<Vec<ToolDoc>, CatalogError> {
    let value: Value =
        serde_json::from_str(json_text).map_err(|e| CatalogError::InvalidJson { message: e.to_string() })?;
    let entries = match &value {
        Value::Array(entries) => entries,
        Value::Object(object) => match object.get("tools") {
            Some(Value::Array(entries)) => entries,
            Some(other) => {
                return Err(CatalogError::NotACatalog {
                    found: format!("an object whose `tools` is {}", json_kind(other)),
                });
            }
            None => return Err(CatalogError::NotACatalog { found: "an object without a `tools` array".to_owned() }),
        },
        other => return Err(CatalogError::NotACatalog { found: json_kind(other).to_owned() }),
    };
    entries
        .iter()
        .enumerate()
        .map(|(index, entry)| {
            ToolDoc::from_mcp_tool(entry).map_err(|error| CatalogError::InvalidEntry {
                number: index + 1,
                name: entry.get("name").and_then(Value::as_str).map(str::to_owned),
                reason: match error {
                    CatalogError::InvalidTool { reason } => reason,
                    other => other.to_string(),
                },
            })
        })
        .collect()
}

/// Walk a JSON schema's `properties` (and array `items`), recording each property's path and
/// description. Malformed parts are skipped: a schema is documentation here, not a contract.
fn collect_params(schema: &Value, prefix: &str, depth: usize, params: &mut Vec<ParamDoc>) {
    if depth > MAX_SCHEMA_DEPTH {
        return;
    }
    if let Some(items) = schema.get("items") {
        collect_params(items, prefix, depth + 1, params);
    }
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return;
    };
    for (name, property) in properties {
        if params.len() >= MAX_PARAMS_PER_TOOL {
            return;
        }
        let path = if prefix.is_empty() { name.clone() } else { format!("{prefix}.{name}") };
        let description = property.get("description").and_then(Value::as_str).unwrap_or_default().to_owned();
        params.push(ParamDoc { name: path.clone(), description });
        collect_params(property, &path, depth + 1, params);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_name_description_and_nested_params() {
        let tool = json!({
            "name": "github_create_issue",
            "description": "Open an issue.",
            "inputSchema": {"type": "object", "properties": {
                "title": {"type": "string", "description": "Issue title"},
                "labels": {"type": "array", "items": {"type": "object", "properties": {
                    "color": {"type": "string", "description": "Label colour"}}}},
                "meta": {"type": "object", "properties": {"due": {"type": "string"}}}
            }}
        });
        let doc = ToolDoc::from_mcp_tool(&tool).unwrap();
        assert_eq!(doc.name, "github_create_issue");
        assert_eq!(doc.description, "Open an issue.");
        let names: Vec<&str> = doc.params.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["title", "labels", "labels.color", "meta", "meta.due"]);
        assert_eq!(doc.params[2].description, "Label colour");
        assert_eq!(doc.params[4].description, "");
    }

    #[test]
    fn accepts_both_catalog_shapes() {
        let tools = r#"[{"name": "a"}, {"name": "b", "description": null}]"#;
        assert_eq!(parse_catalog(tools).unwrap().len(), 2);
        let listed = format!(r#"{{"tools": {tools}, "nextCursor": null}}"#);
        assert_eq!(parse_catalog(&listed).unwrap(), parse_catalog(tools).unwrap());
    }

    #[test]
    fn errors_say_which_entry_and_why() {
        let error = parse_catalog(r#"[{"name": "ok"}, {"name": "bad", "description": 3}]"#).unwrap_err();
        assert_eq!(
            error.to_string(),
            "catalog entry 2 (counting from 1), tool `bad`, is invalid: its `description` is a number, not a string"
        );
        let error = parse_catalog(r#"{"tools": [{"description": "x"}]}"#).unwrap_err();
        assert_eq!(error.to_string(), "catalog entry 1 (counting from 1) is invalid: it has no `name`");
        let error = parse_catalog(r#"{"tool": []}"#).unwrap_err();
        assert!(error.to_string().contains("an object without a `tools` array"), "{error}");
        assert!(matches!(parse_catalog("{"), Err(CatalogError::InvalidJson { .. })));
        assert!(matches!(parse_catalog("7"), Err(CatalogError::NotACatalog { .. })));
        let error = ToolDoc::from_mcp_tool(&json!({"name": "  "})).unwrap_err();
        assert_eq!(error.to_string(), "the tool definition is invalid: its `name` is empty");
    }

    #[test]
    fn deep_schemas_are_bounded() {
        let mut schema = json!({"type": "string", "description": "leaf"});
        for _ in 0..100 {
            schema = json!({"type": "object", "properties": {"x": schema}});
        }
        let doc = ToolDoc::from_mcp_tool(&json!({"name": "deep", "inputSchema": schema})).unwrap();
        assert!(doc.params.len() <= MAX_SCHEMA_DEPTH + 1);
    }
}
