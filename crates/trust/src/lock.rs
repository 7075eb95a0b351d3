//! The lock file: the tool definitions a person approved, one block per upstream tool.
//!
//! The format is text meant to be read in a review and kept under version control:
//!
//! ```text
//! # toolshape.lock: the upstream tool definitions approved for use.
//! toolshape-lock 1
//!
//! tool "everything" "echo"
//!   hash sha256:…
//!   description
//!     | Echoes back the input.
//!   input_schema
//!     | {
//!     |   "properties": {
//!     |     "message": {
//!     |       "type": "string"
//!     |     }
//!     |   },
//!     |   "type": "object"
//!     | }
//! ```
//!
//! - Blocks are sorted by upstream, then tool name; both are JSON strings on the `tool` line,
//!   so any name can be written.
//! - Fields come in a fixed order (`hash`, then `title`, `description`, `input_schema`,
//!   `output_schema`, `annotations`, each only when the upstream sent it). Text fields are
//!   their lines; JSON fields are their canonical pretty form (sorted keys, two-space
//!   indentation), so the file changes exactly where the definition did.
//! - Every `|` line is escaped as [`crate::escape`] says: invisible characters and blanks at
//!   the end of a line show as `\u{…}`.
//! - `#` lines and blank lines between blocks are comments.
//!
//! Reading checks every hash against the definition under it, so a block edited by hand
//! without running `toolshape pin` is reported, not trusted.

use std::collections::BTreeMap;
use std::fmt;

use crate::canonical::{canonical_pretty, canonicalize};
use crate::definition::{DefinitionHash, ToolDefinition};
use crate::escape::escape_line;

/// The format version this crate writes and reads.
pub const LOCK_VERSION: u32 = 1;

/// The header comment of a written lock file.
const HEADER: &str = "\
# toolshape.lock: the upstream tool definitions approved for use.
# Written by `toolshape pin`. See what changed since with `toolshape pin --diff`, and approve
# a change with `toolshape pin --approve TOOL`. Keep this file under version control.
# In `|` lines, \\u{HEX} stands for a character that would otherwise be invisible.
";

/// Indentation of the fields of a block, and of the `|` lines of a field.
pub(crate) const FIELD_INDENT: &str = "  ";
pub(crate) const LINE_PREFIX: &str = "    |";

/// Which tool of which upstream.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ToolKey {
    /// The upstream's name in the config.
    pub upstream: String,
    /// The upstream's name for the tool.
    pub tool: String,
}

impl ToolKey {
    /// The key of `tool` on `upstream`.
    pub fn new(upstream: impl Into<String>, tool: impl Into<String>) -> ToolKey {
        ToolKey { upstream: upstream.into(), tool: tool.into() }
    }
}

impl fmt::Display for ToolKey {
    /// `upstream/tool`, the way a mask's `handler` names it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.upstream, self.tool)
    }
}

/// One approved definition, its hash, and the text of its JSON parts as the lock holds them.
#[derive(Debug, Clone, PartialEq)]
pub struct PinnedTool {
    definition: ToolDefinition,
    hash: DefinitionHash,
    texts: JsonTexts,
}

/// The pretty canonical text of a definition's JSON parts. The lock writes these back as
/// they were read, so a lock read and written again is the same text byte for byte.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct JsonTexts {
    pub(crate) input_schema: Option<String>,
    pub(crate) output_schema: Option<String>,
    pub(crate) annotations: Option<String>,
}

impl PinnedTool {
    /// Pins `definition`; its JSON parts are kept in canonical form.
    pub fn new(definition: ToolDefinition) -> PinnedTool {
        let hash = definition.hash();
        let texts = JsonTexts {
            input_schema: definition.input_schema.as_ref().map(canonical_pretty),
            output_schema: definition.output_schema.as_ref().map(canonical_pretty),
            annotations: definition.annotations.as_ref().map(canonical_pretty),
        };
        let definition = ToolDefinition {
            input_schema: definition.input_schema.as_ref().map(canonicalize),
            output_schema: definition.output_schema.as_ref().map(canonicalize),
            annotations: definition.annotations.as_ref().map(canonicalize),
            ..definition
        };
        PinnedTool { definition, hash, texts }
    }

    /// A tool read from a lock file, whose hash was checked against `texts`.
    pub(crate) fn from_parts(definition: ToolDefinition, hash: DefinitionHash, texts: JsonTexts) -> PinnedTool {
        PinnedTool { definition, hash, texts }
    }

    /// The approved definition.
    pub fn definition(&self) -> &ToolDefinition {
        &self.definition
    }

    /// Its hash.
    pub fn hash(&self) -> &DefinitionHash {
        &self.hash
    }
}

/// The approved tool definitions, by upstream and tool.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Lock {
    pub(crate) tools: BTreeMap<ToolKey, PinnedTool>,
}

impl Lock {
    /// A lock that approves nothing.
    pub fn new() -> Lock {
        Lock::default()
    }

    /// Approves `definition` as the tool of that name on `upstream`, replacing what was
    /// approved before.
    pub fn pin(&mut self, upstream: &str, definition: ToolDefinition) {
        let key = ToolKey::new(upstream, definition.name.clone());
        self.tools.insert(key, PinnedTool::new(definition));
    }

    /// Forgets a tool; returns whether it was pinned.
    pub fn unpin(&mut self, key: &ToolKey) -> bool {
        self.tools.remove(key).is_some()
    }

    /// The approved definition of a tool.
    pub fn get(&self, key: &ToolKey) -> Option<&PinnedTool> {
        self.tools.get(key)
    }

    /// Every pinned tool, sorted by upstream, then name.
    pub fn iter(&self) -> impl Iterator<Item = (&ToolKey, &PinnedTool)> {
        self.tools.iter()
    }

    /// The pinned tools of one upstream, sorted by name.
    pub fn of_upstream<'a>(&'a self, upstream: &'a str) -> impl Iterator<Item = (&'a ToolKey, &'a PinnedTool)> + 'a {
        self.tools.iter().filter(move |(key, _)| key.upstream == upstream)
    }

    /// How many tools are pinned.
    pub fn len(&self) -> usize {
        self.tools.len()
    }

    /// Whether no tool is pinned.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    /// The lock file's text. Reading it back gives an equal lock.
    pub fn render(&self) -> String {
        let mut out = String::from(HEADER);
        out.push_str(&format!("toolshape-lock {LOCK_VERSION}\n"));
        for (key, pinned) in &self.tools {
            out.push('\n');
            out.push_str(&render_block(key, pinned));
        }
        out
    }
}

/// One tool's block, ending with a newline; also what `pin --diff` compares.
pub fn render_block(key: &ToolKey, pinned: &PinnedTool) -> String {
    let mut out = format!("tool {} {}\n", json_string(&key.upstream), json_string(&key.tool));
    out.push_str(&format!("{FIELD_INDENT}hash {}\n", pinned.hash));
    let d = &pinned.definition;
    let t = &pinned.texts;
    let fields = [
        ("title", d.title.as_deref()),
        ("description", d.description.as_deref()),
        ("input_schema", t.input_schema.as_deref()),
        ("output_schema", t.output_schema.as_deref()),
        ("annotations", t.annotations.as_deref()),
    ];
    for (name, text) in fields {
        let Some(text) = text else { continue };
        out.push_str(&format!("{FIELD_INDENT}{name}\n"));
        for line in text.split('\n') {
            let escaped = escape_line(line);
            if escaped.is_empty() {
                out.push_str(&format!("{LINE_PREFIX}\n"));
            } else {
                out.push_str(&format!("{LINE_PREFIX} {escaped}\n"));
            }
        }
    }
    out
}

/// `s` as a JSON string literal.
fn json_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| String::from("\"\""))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn echo() -> ToolDefinition {
        ToolDefinition::from_mcp(&json!({
            "name": "echo",
            "description": "Echoes back the input.\nSecond line ",
            "inputSchema": {"type": "object", "properties": {"message": {"type": "string"}}},
            "annotations": {"readOnlyHint": true}
        }))
        .unwrap()
    }

    #[test]
    fn renders_a_reviewable_block() {
        let mut lock = Lock::new();
        lock.pin("everything", echo());
        let text = lock.render();
        let hash = echo().hash();
        let expected_block = format!(
            "tool \"everything\" \"echo\"\n  hash {hash}\n  description\n    | Echoes back the input.\n    | Second line\\u{{20}}\n  input_schema\n    | {{\n    |   \"properties\": {{\n    |     \"message\": {{\n    |       \"type\": \"string\"\n    |     }}\n    |   }},\n    |   \"type\": \"object\"\n    | }}\n  annotations\n    | {{\n    |   \"readOnlyHint\": true\n    | }}\n"
        );
        assert!(text.ends_with(&expected_block), "{text}");
        assert!(text.contains("\ntoolshape-lock 1\n"));
    }

    #[test]
    fn blocks_are_sorted() {
        let mut lock = Lock::new();
        lock.pin("b", ToolDefinition::named("a"));
        lock.pin("a", ToolDefinition::named("z"));
        lock.pin("a", ToolDefinition::named("b"));
        let text = lock.render();
        let order: Vec<&str> = text.lines().filter(|l| l.starts_with("tool ")).collect();
        assert_eq!(order, ["tool \"a\" \"b\"", "tool \"a\" \"z\"", "tool \"b\" \"a\""]);
        assert_eq!(lock.of_upstream("a").count(), 2);
    }

    #[test]
    fn empty_text_is_an_empty_line() {
        let mut lock = Lock::new();
        let mut def = ToolDefinition::named("t");
        def.description = Some(String::new());
        lock.pin("u", def);
        assert!(lock.render().ends_with("  description\n    |\n"));
    }
}
