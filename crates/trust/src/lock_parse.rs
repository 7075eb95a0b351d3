//! Reading the lock file back, with an error that names the line and says what to write.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::canonical::strip_json_whitespace;
use crate::definition::{CanonicalParts, DefinitionHash, ToolDefinition, hash_of};
use crate::escape::unescape_line;
use crate::lock::{FIELD_INDENT, JsonTexts, LINE_PREFIX, LOCK_VERSION, Lock, PinnedTool, ToolKey};

/// Why a lock file cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct LockError {
    /// The line, from 1.
    pub line: usize,
    /// What is wrong and what to write instead.
    pub message: String,
}

fn err<T>(line: usize, message: impl Into<String>) -> Result<T, LockError> {
    Err(LockError { line, message: message.into() })
}

/// The fields of a block, in the order they must come.
const FIELDS: [&str; 5] = ["title", "description", "input_schema", "output_schema", "annotations"];

/// A field being read: its name's index in [`FIELDS`], its header line and its lines so far.
struct OpenField {
    index: usize,
    line: usize,
    lines: Vec<String>,
}

/// A block being read.
struct OpenBlock {
    key: ToolKey,
    line: usize,
    hash: Option<(DefinitionHash, usize)>,
    fields: Vec<OpenField>,
}

impl Lock {
    /// Reads a lock file's text. Every block's hash is checked against its definition.
    pub fn parse(text: &str) -> Result<Lock, LockError> {
        let mut tools: BTreeMap<ToolKey, PinnedTool> = BTreeMap::new();
        let mut first_line: BTreeMap<ToolKey, usize> = BTreeMap::new();
        let mut version_seen = false;
        let mut block: Option<OpenBlock> = None;
        for (index, raw) in text.split('\n').enumerate() {
            let n = index + 1;
            // A carriage return is never content (it is escaped in `|` lines), so a file whose
            // line endings were turned into CRLF still reads.
            let line = raw.strip_suffix('\r').unwrap_or(raw);
            if let Some(rest) = line.strip_prefix(LINE_PREFIX) {
                let content = match rest.strip_prefix(' ') {
                    Some(content) => content,
                    None if rest.is_empty() => "",
                    None => return err(n, "a `|` line continues with a space, then the text: `    | text`"),
                };
                let Some(field) = block.as_mut().and_then(|b| b.fields.last_mut()) else {
                    return err(n, "a `|` line must follow a field name such as `  description`");
                };
                let decoded = unescape_line(content).or_else(|bad| {
                    err(n, format!("column {}: `\\u{{` must be followed by a hexadecimal code point and `}}`, like `\\u{{200b}}`", LINE_PREFIX.len() + 2 + bad.at))
                })?;
                field.lines.push(decoded);
                continue;
            }
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            if !version_seen {
                match line.strip_prefix("toolshape-lock ").map(str::trim) {
                    Some(v) if v == LOCK_VERSION.to_string() => version_seen = true,
                    Some(v) => {
                        return err(
                            n,
                            format!(
                                "this lock file is format version {v}; this toolshape reads version {LOCK_VERSION}: run `toolshape pin` to write it again"
                            ),
                        );
                    }
                    None => return err(n, format!("a lock file starts with `toolshape-lock {LOCK_VERSION}`")),
                }
                continue;
            }
            if let Some(rest) = line.strip_prefix("tool ") {
                if let Some(done) = block.take() {
                    finish(done, &mut tools, &mut first_line)?;
                }
                let key = parse_key(rest, n)?;
                if let Some(earlier) = first_line.get(&key) {
                    return err(
                        n,
                        format!("tool `{key}` is already listed at line {earlier}; keep one block per tool"),
                    );
                }
                block = Some(OpenBlock { key, line: n, hash: None, fields: Vec::new() });
                continue;
            }
            let Some(open) = block.as_mut() else {
                return err(n, "expected a block starting `tool \"UPSTREAM\" \"TOOL\"`");
            };
            let Some(name) = line.strip_prefix(FIELD_INDENT).filter(|s| !s.starts_with(' ')) else {
                return err(
                    n,
                    "expected a field indented by two spaces (`  hash …`, `  description`) or a `    |` line",
                );
            };
            if let Some(hash) = name.strip_prefix("hash ") {
                if open.hash.is_some() || !open.fields.is_empty() {
                    return err(n, "`hash` comes once, first in the block");
                }
                let Some(parsed) = DefinitionHash::parse(hash.trim()) else {
                    return err(n, "write the hash as `sha256:` and 64 lowercase hexadecimal digits");
                };
                open.hash = Some((parsed, n));
                continue;
            }
            let Some(index) = FIELDS.iter().position(|f| *f == name.trim_end()) else {
                return err(
                    n,
                    format!("unknown field `{}`; a block has `hash`, then {}", name.trim(), FIELDS.join(", ")),
                );
            };
            if open.hash.is_none() {
                return err(n, "the block's first field is `hash sha256:…`");
            }
            if let Some(last) = open.fields.last() {
                if last.index >= index {
                    return err(
                        n,
                        format!(
                            "`{}` is out of place: fields come once each, in the order {}",
                            FIELDS[index],
                            FIELDS.join(", ")
                        ),
                    );
                }
                check_not_empty(last)?;
            }
            open.fields.push(OpenField { index, line: n, lines: Vec::new() });
        }
        if !version_seen {
            return err(1, format!("an empty lock file: it starts with `toolshape-lock {LOCK_VERSION}`"));
        }
        if let Some(done) = block.take() {
            finish(done, &mut tools, &mut first_line)?;
        }
        Ok(Lock { tools })
    }
}

/// The two JSON strings of a `tool` line.
fn parse_key(rest: &str, n: usize) -> Result<ToolKey, LockError> {
    let mut strings = serde_json::Deserializer::from_str(rest).into_iter::<String>();
    let upstream = strings.next().and_then(Result::ok);
    let tool = strings.next().and_then(Result::ok);
    let trailing = strings.next().is_some();
    match (upstream, tool) {
        (Some(upstream), Some(tool)) if !trailing => Ok(ToolKey { upstream, tool }),
        _ => err(n, "write the block's first line as `tool \"UPSTREAM\" \"TOOL\"` (two JSON strings)"),
    }
}

fn check_not_empty(field: &OpenField) -> Result<(), LockError> {
    if field.lines.is_empty() {
        return err(field.line, format!("`{}` has no `    |` lines under it", FIELDS[field.index]));
    }
    Ok(())
}

/// Checks a finished block and adds it.
fn finish(
    block: OpenBlock,
    tools: &mut BTreeMap<ToolKey, PinnedTool>,
    first_line: &mut BTreeMap<ToolKey, usize>,
) -> Result<(), LockError> {
    let Some((hash, hash_line)) = block.hash else {
        return err(block.line, format!("tool `{}` has no `hash` line", block.key));
    };
    let mut definition = ToolDefinition::named(block.key.tool.clone());
    let mut texts = JsonTexts::default();
    for field in &block.fields {
        check_not_empty(field)?;
        let text = field.lines.join("\n");
        let json = |text: &str| -> Result<Value, LockError> {
            serde_json::from_str(text)
                .or_else(|e| err(field.line + e.line(), format!("`{}` is not valid JSON: {e}", FIELDS[field.index])))
        };
        match FIELDS[field.index] {
            "title" => definition.title = Some(text),
            "description" => definition.description = Some(text),
            "input_schema" => {
                definition.input_schema = Some(json(&text)?);
                texts.input_schema = Some(text);
            }
            "output_schema" => {
                definition.output_schema = Some(json(&text)?);
                texts.output_schema = Some(text);
            }
            _ => {
                definition.annotations = Some(json(&text)?);
                texts.annotations = Some(text);
            }
        }
    }
    let compact = |text: &Option<String>| text.as_deref().map(strip_json_whitespace);
    let (input, output, annotations) =
        (compact(&texts.input_schema), compact(&texts.output_schema), compact(&texts.annotations));
    let written = hash_of(&CanonicalParts {
        name: &definition.name,
        title: definition.title.as_deref(),
        description: definition.description.as_deref(),
        input_schema: input.as_deref(),
        output_schema: output.as_deref(),
        annotations: annotations.as_deref(),
    });
    if written != hash {
        return err(
            hash_line,
            format!(
                "the hash of `{}` does not match the definition under it (edited by hand?); run `toolshape pin` to review and write it again",
                block.key
            ),
        );
    }
    let pinned = PinnedTool::from_parts(definition, hash, texts);
    first_line.insert(block.key.clone(), block.line);
    tools.insert(block.key, pinned);
    Ok(())
}
