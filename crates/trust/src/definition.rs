//! A tool's definition as far as trust goes: everything of an upstream tool that reaches the
//! model's context or decides how it may be used, and the hash that pins it.
//!
//! Pinned: the name, the title, the description, the input and output schemas and the
//! annotations, each exactly as the upstream sent it (annotations whole, unknown hints
//! included). Not pinned: icons and `_meta`, which a client does not show the model as
//! instructions.

use std::fmt;

use serde_json::{Map, Value};

use toolshape_util::hex;

use crate::canonical::{canonical_text, sha256};

/// The hash of a canonical tool definition: `sha256:` and 64 hexadecimal digits.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DefinitionHash(String);

impl DefinitionHash {
    /// The text form, `sha256:…`.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Reads the text form; `None` unless it is `sha256:` and 64 lowercase hex digits.
    pub fn parse(text: &str) -> Option<DefinitionHash> {
        let digits = text.strip_prefix("sha256:")?;
        let valid = digits.len() == 64 && digits.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
        valid.then(|| DefinitionHash(text.to_owned()))
    }
}

impl fmt::Display for DefinitionHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Why a tool listing entry is not a tool definition.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DefinitionError {
    /// The entry is not a JSON object.
    #[error("a tool definition must be a JSON object")]
    NotAnObject,
    /// `name` is missing or not a string.
    #[error("a tool definition needs a string `name`")]
    NoName,
    /// A text field is present but not a string.
    #[error("tool `{tool}`: `{field}` must be a string")]
    NotText {
        /// The tool's name.
        tool: String,
        /// `title` or `description`.
        field: &'static str,
    },
}

/// The pinned parts of one upstream tool.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolDefinition {
    /// The upstream's name for the tool.
    pub name: String,
    /// The human-readable title, if any.
    pub title: Option<String>,
    /// The description the model reads.
    pub description: Option<String>,
    /// The JSON Schema of the arguments.
    pub input_schema: Option<Value>,
    /// The JSON Schema of structured results.
    pub output_schema: Option<Value>,
    /// The annotations object, whole.
    pub annotations: Option<Value>,
}

impl ToolDefinition {
    /// A definition with a name and nothing else.
    pub fn named(name: impl Into<String>) -> ToolDefinition {
        ToolDefinition {
            name: name.into(),
            title: None,
            description: None,
            input_schema: None,
            output_schema: None,
            annotations: None,
        }
    }

    /// Reads an MCP `Tool` object (`name`, `title`, `description`, `inputSchema`,
    /// `outputSchema`, `annotations`). A JSON `null` counts as absent.
    pub fn from_mcp(tool: &Value) -> Result<ToolDefinition, DefinitionError> {
        let Value::Object(members) = tool else {
            return Err(DefinitionError::NotAnObject);
        };
        let name = members.get("name").and_then(Value::as_str).ok_or(DefinitionError::NoName)?.to_owned();
        let text = |field: &'static str| -> Result<Option<String>, DefinitionError> {
            match members.get(field) {
                None | Some(Value::Null) => Ok(None),
                Some(Value::String(s)) => Ok(Some(s.clone())),
                Some(_) => Err(DefinitionError::NotText { tool: name.clone(), field }),
            }
        };
        let json = |field: &str| members.get(field).filter(|v| !v.is_null()).cloned();
        Ok(ToolDefinition {
            title: text("title")?,
            description: text("description")?,
            input_schema: json("inputSchema"),
            output_schema: json("outputSchema"),
            annotations: json("annotations"),
            name,
        })
    }

    /// The definition as an MCP `Tool` object with only the pinned members.
    pub fn to_mcp(&self) -> Value {
        let mut members = Map::new();
        members.insert("name".into(), Value::String(self.name.clone()));
        if let Some(title) = &self.title {
            members.insert("title".into(), Value::String(title.clone()));
        }
        if let Some(description) = &self.description {
            members.insert("description".into(), Value::String(description.clone()));
        }
        if let Some(schema) = &self.input_schema {
            members.insert("inputSchema".into(), schema.clone());
        }
        if let Some(schema) = &self.output_schema {
            members.insert("outputSchema".into(), schema.clone());
        }
        if let Some(annotations) = &self.annotations {
            members.insert("annotations".into(), annotations.clone());
        }
        Value::Object(members)
    }

    /// The hash of the canonical form of [`ToolDefinition::to_mcp`]: the same whatever the
    /// key order or whitespace the upstream used, different when any pinned part differs.
    pub fn hash(&self) -> DefinitionHash {
        let input = self.input_schema.as_ref().map(canonical_text);
        let output = self.output_schema.as_ref().map(canonical_text);
        let annotations = self.annotations.as_ref().map(canonical_text);
        hash_of(&CanonicalParts {
            name: &self.name,
            title: self.title.as_deref(),
            description: self.description.as_deref(),
            input_schema: input.as_deref(),
            output_schema: output.as_deref(),
            annotations: annotations.as_deref(),
        })
    }

    /// The behaviour hints of the annotations.
    pub fn hints(&self) -> Hints {
        self.annotations.as_ref().map(Hints::from_annotations).unwrap_or_default()
    }
}

/// A definition with its JSON parts already in compact canonical text.
///
/// The lock file hashes the JSON text it holds rather than values parsed back from it:
/// `serde_json` may read a float with seventeen significant digits one unit in the last
/// place off, which would make a faithfully written lock fail its own check.
pub(crate) struct CanonicalParts<'a> {
    pub(crate) name: &'a str,
    pub(crate) title: Option<&'a str>,
    pub(crate) description: Option<&'a str>,
    pub(crate) input_schema: Option<&'a str>,
    pub(crate) output_schema: Option<&'a str>,
    pub(crate) annotations: Option<&'a str>,
}

/// The hash of the canonical MCP object of `parts`: exactly `canonical_text` of
/// [`ToolDefinition::to_mcp`], written member by member in sorted key order.
pub(crate) fn hash_of(parts: &CanonicalParts<'_>) -> DefinitionHash {
    let string = |s: &str| serde_json::to_string(s).unwrap_or_default();
    // Sorted by key: annotations, description, inputSchema, name, outputSchema, title.
    let members = [
        ("annotations", parts.annotations.map(str::to_owned)),
        ("description", parts.description.map(string)),
        ("inputSchema", parts.input_schema.map(str::to_owned)),
        ("name", Some(string(parts.name))),
        ("outputSchema", parts.output_schema.map(str::to_owned)),
        ("title", parts.title.map(string)),
    ];
    let mut text = String::from("{");
    for (key, value) in members {
        if let Some(value) = value {
            if text.len() > 1 {
                text.push(',');
            }
            text.push_str(&format!("\"{key}\":{value}"));
        }
    }
    text.push('}');
    DefinitionHash(format!("sha256:{}", hex(&sha256(text.as_bytes()))))
}

/// The behaviour hints of MCP tool annotations. Each is `None` when the upstream did not say
/// (or said something that is not a boolean); hints are claims of the upstream, not
/// guarantees.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Hints {
    /// `readOnlyHint`: the tool does not change its environment.
    pub read_only: Option<bool>,
    /// `destructiveHint`: a change it makes may destroy data (meaningful when not read-only).
    pub destructive: Option<bool>,
    /// `idempotentHint`: calling it again with the same arguments has no further effect.
    pub idempotent: Option<bool>,
    /// `openWorldHint`: it reaches outside systems (the web, other people's data).
    pub open_world: Option<bool>,
}

impl Hints {
    /// Reads the hints of an `annotations` object.
    pub fn from_annotations(annotations: &Value) -> Hints {
        let hint = |key: &str| annotations.get(key).and_then(Value::as_bool);
        Hints {
            read_only: hint("readOnlyHint"),
            destructive: hint("destructiveHint"),
            idempotent: hint("idempotentHint"),
            open_world: hint("openWorldHint"),
        }
    }

    /// What can be said of a tool that may call any of `parts` (a mask over several
    /// handlers): read-only and idempotent only when every part says so, destructive and
    /// open-world when any part says so; unknown where the parts leave it open.
    pub fn combine(parts: impl IntoIterator<Item = Hints>) -> Hints {
        let parts: Vec<Hints> = parts.into_iter().collect();
        if parts.is_empty() {
            return Hints::default();
        }
        // `every`: true only if all say true; false if any says false. `any`: the mirror.
        let every = |get: fn(&Hints) -> Option<bool>| {
            let values: Vec<Option<bool>> = parts.iter().map(get).collect();
            if values.contains(&Some(false)) {
                Some(false)
            } else if values.iter().all(|v| *v == Some(true)) {
                Some(true)
            } else {
                None
            }
        };
        let any = |get: fn(&Hints) -> Option<bool>| {
            let values: Vec<Option<bool>> = parts.iter().map(get).collect();
            if values.contains(&Some(true)) {
                Some(true)
            } else if values.iter().all(|v| *v == Some(false)) {
                Some(false)
            } else {
                None
            }
        };
        Hints {
            read_only: every(|h| h.read_only),
            destructive: any(|h| h.destructive),
            idempotent: every(|h| h.idempotent),
            open_world: any(|h| h.open_world),
        }
    }

    /// The hints as an MCP `annotations` object; `None` when nothing is known.
    pub fn to_annotations(&self) -> Option<Value> {
        let mut members = Map::new();
        for (key, value) in [
            ("readOnlyHint", self.read_only),
            ("destructiveHint", self.destructive),
            ("idempotentHint", self.idempotent),
            ("openWorldHint", self.open_world),
        ] {
            if let Some(v) = value {
                members.insert(key.to_owned(), Value::Bool(v));
            }
        }
        (!members.is_empty()).then_some(Value::Object(members))
    }

    /// Whether the upstream declared the tool read-only.
    pub fn is_read_only(&self) -> bool {
        self.read_only == Some(true)
    }

    /// Whether the upstream declared that a repeated call has an effect of its own, so a
    /// repeat must always reach it: a tool declared not read-only, or destructive, that is
    /// not also declared idempotent. A tool with no hints is not declared anything.
    pub fn declares_non_idempotent(&self) -> bool {
        let writes = self.read_only == Some(false) || self.destructive == Some(true);
        writes && self.idempotent != Some(true) && self.read_only != Some(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_an_mcp_tool() {
        let tool = json!({
            "name": "echo", "description": "Echo it", "inputSchema": {"type": "object"},
            "annotations": {"readOnlyHint": true, "openWorldHint": false}, "icons": [], "_meta": {"x": 1}
        });
        let def = ToolDefinition::from_mcp(&tool).unwrap();
        assert_eq!(def.name, "echo");
        assert_eq!(def.description.as_deref(), Some("Echo it"));
        assert_eq!(def.output_schema, None);
        assert!(def.hints().is_read_only());
        assert_eq!(def.hints().open_world, Some(false));
        // Icons and _meta are not pinned.
        assert_eq!(def.to_mcp().get("icons"), None);
    }

    #[test]
    fn refuses_what_is_not_a_tool() {
        assert_eq!(ToolDefinition::from_mcp(&json!([1])), Err(DefinitionError::NotAnObject));
        assert_eq!(ToolDefinition::from_mcp(&json!({"description": "x"})), Err(DefinitionError::NoName));
        assert!(matches!(
            ToolDefinition::from_mcp(&json!({"name": "x", "description": 3})),
            Err(DefinitionError::NotText { field: "description", .. })
        ));
    }

    #[test]
    fn every_pinned_part_changes_the_hash() {
        let base = ToolDefinition::from_mcp(&json!({
            "name": "t", "title": "T", "description": "d", "inputSchema": {"type": "object"},
            "outputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}
        }))
        .unwrap();
        let h = base.hash();
        assert!(DefinitionHash::parse(h.as_str()).is_some());
        let variants = [
            ToolDefinition { name: "u".into(), ..base.clone() },
            ToolDefinition { title: None, ..base.clone() },
            ToolDefinition { description: Some("d ".into()), ..base.clone() },
            ToolDefinition { input_schema: Some(json!({"type": "object", "required": []})), ..base.clone() },
            ToolDefinition { output_schema: None, ..base.clone() },
            ToolDefinition { annotations: Some(json!({"readOnlyHint": false})), ..base.clone() },
        ];
        for v in variants {
            assert_ne!(v.hash(), h, "{v:?}");
        }
    }

    #[test]
    fn member_wise_hash_is_the_hash_of_the_canonical_object() {
        let def = ToolDefinition::from_mcp(&json!({
            "name": "t\"q", "title": "T", "description": "d\n", "inputSchema": {"b": 1, "a": [0.5]},
            "outputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}
        }))
        .unwrap();
        let whole = DefinitionHash(format!("sha256:{}", hex(&sha256(canonical_text(&def.to_mcp()).as_bytes()))));
        assert_eq!(def.hash(), whole);
    }

    #[test]
    fn hash_ignores_key_order_and_null_members() {
        let a = ToolDefinition::from_mcp(&json!({"name": "t", "inputSchema": {"a": 1, "b": 2}, "title": null}));
        let b = ToolDefinition::from_mcp(&json!({"inputSchema": {"b": 2, "a": 1.0}, "name": "t"}));
        assert_eq!(a.unwrap().hash(), b.unwrap().hash());
    }

    #[test]
    fn non_idempotence_must_be_declared() {
        let hints = |v: Value| Hints::from_annotations(&v);
        assert!(!hints(json!({})).declares_non_idempotent());
        assert!(!hints(json!({"readOnlyHint": true})).declares_non_idempotent());
        assert!(hints(json!({"readOnlyHint": false})).declares_non_idempotent());
        assert!(!hints(json!({"readOnlyHint": false, "idempotentHint": true})).declares_non_idempotent());
        assert!(hints(json!({"destructiveHint": true})).declares_non_idempotent());
        assert!(!hints(json!({"readOnlyHint": "yes"})).declares_non_idempotent());
    }

    #[test]
    fn combined_hints_are_conservative() {
        let h = |v: Value| Hints::from_annotations(&v);
        let reader = h(json!({"readOnlyHint": true, "idempotentHint": true, "openWorldHint": false}));
        let writer = h(json!({"readOnlyHint": false, "destructiveHint": true}));
        let silent = Hints::default();
        assert_eq!(Hints::combine([reader, reader]), reader);
        let mixed = Hints::combine([reader, writer]);
        assert_eq!(mixed.read_only, Some(false));
        assert_eq!(mixed.destructive, Some(true));
        assert!(mixed.declares_non_idempotent());
        let unknown = Hints::combine([reader, silent]);
        assert_eq!((unknown.read_only, unknown.open_world), (None, None));
        assert_eq!(Hints::combine([]), Hints::default());
        assert_eq!(
            reader.to_annotations(),
            Some(json!({"readOnlyHint": true, "idempotentHint": true, "openWorldHint": false}))
        );
        assert_eq!(silent.to_annotations(), None);
    }

    #[test]
    fn hash_text_is_checked() {
        assert!(DefinitionHash::parse("sha256:00").is_none());
        assert!(DefinitionHash::parse(&format!("md5:{}", "0".repeat(64))).is_none());
        assert!(DefinitionHash::parse(&format!("sha256:{}", "A".repeat(64))).is_none());
    }
}
