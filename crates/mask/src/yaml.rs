//! A YAML document as a tree of nodes that remember where they were written.
//!
//! Config errors must say where the problem is, and `check` must report every problem at
//! once, including semantic ones found long after parsing (a profile naming a missing tool).
//! `yaml_serde` stops at the first error and keeps no positions once a value is built, so the
//! document is read here from `saphyr-parser` events into [`Node`]s that carry their line and
//! column; [`crate::de`] then deserializes typed config from any node, one section at a time.
//!
//! Scalars resolve with the YAML 1.2 core schema (`true`, `~`, `0x1F`, `.inf`); quoted
//! scalars and `!!str` stay strings. Hostile input is bounded: the text size, the nesting
//! depth and the number of nodes after alias expansion (the "billion laughs" attack) are all
//! capped, and custom tags are refused rather than ignored.

use std::collections::HashMap;
use std::fmt;

use saphyr_parser::{Event, Parser, ScalarStyle, Span};

/// Largest config text accepted, in bytes.
pub(crate) const MAX_TEXT_BYTES: usize = 4 * 1024 * 1024;
/// Deepest nesting of mappings and sequences accepted.
pub(crate) const MAX_DEPTH: usize = 64;
/// Most nodes a document may hold once aliases are expanded.
pub(crate) const MAX_NODES: usize = 200_000;

/// A place in the config text: 1-based line and column (in characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Pos {
    /// Line, from 1.
    pub line: usize,
    /// Column, from 1, counted in characters.
    pub column: usize,
}

impl Pos {
    fn of(span: &Span) -> Pos {
        Pos { line: span.start.line(), column: span.start.col() + 1 }
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// What a scalar resolved to.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Scalar {
    Null,
    Bool(bool),
    Int(i64),
    UInt(u64),
    Float(f64),
    Str,
}

/// One value of the document.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value {
    /// A scalar: its text as written (after `${VAR}` substitution) and what it resolved to.
    Scalar {
        text: String,
        kind: Scalar,
        plain: bool,
    },
    Seq(Vec<Node>),
    /// Entries in document order; keys are scalars.
    Map(Vec<(Node, Node)>),
}

/// A value and where it starts.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Node {
    pub(crate) value: Value,
    pub(crate) pos: Pos,
    /// Nodes in this subtree, for the alias expansion budget.
    size: usize,
    /// `${VAR}` values substituted into this scalar, so error messages can hide them.
    pub(crate) secrets: Vec<(String, String)>,
}

impl Node {
    pub(crate) fn scalar(text: String, kind: Scalar, plain: bool, pos: Pos) -> Node {
        Node { value: Value::Scalar { text, kind, plain }, pos, size: 1, secrets: Vec::new() }
    }

    /// The scalar text, if this is a non-null scalar.
    pub(crate) fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::Scalar { text, kind, .. } if *kind != Scalar::Null => Some(text),
            _ => None,
        }
    }

    /// The mapping entries, if this is a mapping.
    pub(crate) fn entries(&self) -> Option<&[(Node, Node)]> {
        match &self.value {
            Value::Map(entries) => Some(entries),
            _ => None,
        }
    }

    /// The value under `key`, if this is a mapping that has it.
    pub(crate) fn get(&self, key: &str) -> Option<&Node> {
        self.entries()?.iter().find(|(k, _)| k.as_str() == Some(key)).map(|(_, v)| v)
    }

    /// Whether this is the null scalar.
    pub(crate) fn is_null(&self) -> bool {
        matches!(self.value, Value::Scalar { kind: Scalar::Null, .. })
    }

    /// A short name of this node's kind, for messages.
    pub(crate) fn kind_name(&self) -> &'static str {
        match &self.value {
            Value::Scalar { kind: Scalar::Null, .. } => "nothing",
            Value::Scalar { kind: Scalar::Bool(_), .. } => "a boolean",
            Value::Scalar { kind: Scalar::Int(_) | Scalar::UInt(_) | Scalar::Float(_), .. } => "a number",
            Value::Scalar { .. } => "text",
            Value::Seq(_) => "a list",
            Value::Map(_) => "a mapping",
        }
    }

    /// Record every path in this subtree with its position (`masks[0].handler`).
    pub(crate) fn index_paths(&self, path: &str, out: &mut HashMap<String, Pos>) {
        out.insert(path.to_owned(), self.pos);
        match &self.value {
            Value::Scalar { .. } => {}
            Value::Seq(items) => {
                for (i, item) in items.iter().enumerate() {
                    item.index_paths(&format!("{path}[{i}]"), out);
                }
            }
            Value::Map(entries) => {
                for (k, v) in entries {
                    let key = k.as_str().unwrap_or("~");
                    let child = if path.is_empty() { key.to_owned() } else { format!("{path}.{key}") };
                    // The key's position is where a person looks for a problem with the entry.
                    out.insert(child.clone(), k.pos);
                    v.index_paths_under(&child, out);
                }
            }
        }
    }

    /// Like [`Node::index_paths`] but keeps an already recorded position for `path` itself.
    fn index_paths_under(&self, path: &str, out: &mut HashMap<String, Pos>) {
        let keep = out.get(path).copied();
        self.index_paths(path, out);
        if let Some(p) = keep {
            out.insert(path.to_owned(), p);
        }
    }

    /// Apply `f` to every scalar in this subtree (values only, not keys).
    pub(crate) fn for_each_scalar_mut(&mut self, f: &mut dyn FnMut(&mut Node)) {
        match &mut self.value {
            Value::Scalar { .. } => f(self),
            Value::Seq(items) => items.iter_mut().for_each(|n| n.for_each_scalar_mut(f)),
            Value::Map(entries) => entries.iter_mut().for_each(|(_, v)| v.for_each_scalar_mut(f)),
        }
    }
}

/// Why the text is not a YAML document this loader accepts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SyntaxError {
    pub(crate) pos: Pos,
    pub(crate) message: String,
    pub(crate) hint: Option<String>,
}

impl SyntaxError {
    fn new(pos: Pos, message: impl Into<String>) -> SyntaxError {
        SyntaxError { pos, message: message.into(), hint: None }
    }

    fn hint(mut self, hint: impl Into<String>) -> SyntaxError {
        self.hint = Some(hint.into());
        self
    }
}

enum Frame {
    Seq { items: Vec<Node>, pos: Pos, anchor: usize, size: usize },
    Map { entries: Vec<(Node, Node)>, key: Option<Node>, pos: Pos, anchor: usize, size: usize },
}

/// Resolve a plain scalar with the YAML 1.2 core schema.
pub(crate) fn resolve_plain(text: &str) -> Scalar {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return Scalar::Null,
        "true" | "True" | "TRUE" => return Scalar::Bool(true),
        "false" | "False" | "FALSE" => return Scalar::Bool(false),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => return Scalar::Float(f64::INFINITY),
        "-.inf" | "-.Inf" | "-.INF" => return Scalar::Float(f64::NEG_INFINITY),
        ".nan" | ".NaN" | ".NAN" => return Scalar::Float(f64::NAN),
        _ => {}
    }
    if let Some(hex) = text.strip_prefix("0x") {
        if !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return u64::from_str_radix(hex, 16).map_or(Scalar::Str, int_kind);
        }
        return Scalar::Str;
    }
    if let Some(oct) = text.strip_prefix("0o") {
        if !oct.is_empty() && oct.bytes().all(|b| (b'0'..=b'7').contains(&b)) {
            return u64::from_str_radix(oct, 8).map_or(Scalar::Str, int_kind);
        }
        return Scalar::Str;
    }
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        if let Ok(n) = text.parse::<i64>() {
            return Scalar::Int(n);
        }
        if let Ok(n) = text.strip_prefix('+').unwrap_or(text).parse::<u64>() {
            return Scalar::UInt(n);
        }
        return Scalar::Str;
    }
    if looks_like_float(digits)
        && let Ok(f) = text.parse::<f64>()
    {
        return Scalar::Float(f);
    }
    Scalar::Str
}

fn int_kind(n: u64) -> Scalar {
    i64::try_from(n).map_or(Scalar::UInt(n), Scalar::Int)
}

/// `[0-9]*(\.[0-9]*)?([eE][-+]?[0-9]+)?` with at least one digit before the exponent.
fn looks_like_float(s: &str) -> bool {
    let (mantissa, exponent) = match s.find(['e', 'E']) {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    let (int, frac) = match mantissa.split_once('.') {
        Some((a, b)) => (a, b),
        None => (mantissa, ""),
    };
    let digits_ok = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    if int.is_empty() && frac.is_empty() || !digits_ok(int) || !digits_ok(frac) {
        return false;
    }
    match exponent {
        None => true,
        Some(e) => {
            let e = e.strip_prefix(['-', '+']).unwrap_or(e);
            !e.is_empty() && digits_ok(e)
        }
    }
}

/// Parse `text` as one YAML document. An empty text gives a null node.
pub(crate) fn parse(text: &str) -> Result<Node, SyntaxError> {
    if text.len() > MAX_TEXT_BYTES {
        return Err(SyntaxError::new(
            Pos { line: 1, column: 1 },
            format!("the config is {} bytes; at most {MAX_TEXT_BYTES} are accepted", text.len()),
        ));
    }
    let mut parser = Parser::new_from_str(text);
    let mut stack: Vec<Frame> = Vec::new();
    let mut anchors: HashMap<usize, Node> = HashMap::new();
    let mut root: Option<Node> = None;
    let mut documents = 0usize;
    let mut total = 0usize;

    while let Some(event) = parser.next_event() {
        let (event, span) = event.map_err(|e| {
            let m = e.marker();
            SyntaxError::new(Pos { line: m.line(), column: m.col() + 1 }, format!("invalid YAML: {}", e.info()))
        })?;
        let pos = Pos::of(&span);
        let done: Option<(Node, usize)> = match event {
            Event::StreamStart | Event::StreamEnd | Event::Nothing | Event::DocumentEnd => None,
            Event::DocumentStart(_) => {
                documents += 1;
                if documents > 1 {
                    return Err(SyntaxError::new(pos, "a second YAML document (`---`)")
                        .hint("keep the whole config in one document"));
                }
                None
            }
            Event::Alias(id) => {
                let node = anchors
                    .get(&id)
                    .cloned()
                    .ok_or_else(|| SyntaxError::new(pos, "an alias (`*name`) to an anchor that is not defined"))?;
                Some((node, 0))
            }
            Event::Scalar(text, style, anchor, tag) => {
                let plain = style == ScalarStyle::Plain;
                let kind = match tag.as_deref() {
                    None => {
                        if plain {
                            resolve_plain(&text)
                        } else {
                            Scalar::Str
                        }
                    }
                    Some(tag) if tag.is_yaml_core_schema() => {
                        if tag.suffix == "str" {
                            Scalar::Str
                        } else {
                            resolve_plain(&text)
                        }
                    }
                    Some(tag) => {
                        return Err(SyntaxError::new(pos, format!("the YAML tag `{}{}`", tag.handle, tag.suffix))
                            .hint("remove the tag: toolshape configs use plain YAML values"));
                    }
                };
                Some((Node::scalar(text.into_owned(), kind, plain, pos), anchor))
            }
            Event::SequenceStart(ref anchor, ref tag) | Event::MappingStart(ref anchor, ref tag) => {
                let (anchor, tag) = (*anchor, tag.clone());
                if let Some(tag) = tag.filter(|t| !t.is_yaml_core_schema()) {
                    return Err(SyntaxError::new(pos, format!("the YAML tag `{}{}`", tag.handle, tag.suffix))
                        .hint("remove the tag: toolshape configs use plain YAML values"));
                }
                if stack.len() >= MAX_DEPTH {
                    return Err(SyntaxError::new(pos, format!("nesting deeper than {MAX_DEPTH} levels")));
                }
                if matches!(event, Event::SequenceStart(..)) {
                    stack.push(Frame::Seq { items: Vec::new(), pos, anchor, size: 1 });
                } else {
                    stack.push(Frame::Map { entries: Vec::new(), key: None, pos, anchor, size: 1 });
                }
                None
            }
            Event::SequenceEnd => match stack.pop() {
                Some(Frame::Seq { items, pos, anchor, size }) => {
                    Some((Node { value: Value::Seq(items), pos, size, secrets: Vec::new() }, anchor))
                }
                _ => return Err(SyntaxError::new(pos, "a list ends where none was open")),
            },
            Event::MappingEnd => match stack.pop() {
                Some(Frame::Map { entries, key: None, pos, anchor, size }) => {
                    Some((Node { value: Value::Map(entries), pos, size, secrets: Vec::new() }, anchor))
                }
                _ => return Err(SyntaxError::new(pos, "a mapping ends where none was open")),
            },
        };
        let Some((node, anchor)) = done else { continue };
        total = total.saturating_add(node.size);
        if total > MAX_NODES {
            return Err(SyntaxError::new(
                node.pos,
                format!("the document expands to more than {MAX_NODES} values (through aliases?)"),
            ));
        }
        if anchor > 0 {
            anchors.insert(anchor, node.clone());
        }
        match stack.last_mut() {
            None => root = Some(node),
            Some(Frame::Seq { items, size, .. }) => {
                *size += node.size;
                items.push(node);
            }
            Some(Frame::Map { entries, key, size, .. }) => {
                *size += node.size;
                match key.take() {
                    Some(k) => entries.push((k, node)),
                    None => {
                        if !matches!(node.value, Value::Scalar { .. }) {
                            let err = SyntaxError::new(node.pos, format!("{} used as a mapping key", node.kind_name()));
                            return Err(if matches!(node.value, Value::Map(_)) {
                                err.hint(
                                    "quote Jinja templates: write `\"{{ input.label }}\"`, not `{{ input.label }}`",
                                )
                            } else {
                                err.hint("keys are plain names")
                            });
                        }
                        if let Some((first, _)) = entries.iter().find(|(k, _)| k.as_str() == node.as_str()) {
                            return Err(SyntaxError::new(
                                node.pos,
                                format!(
                                    "duplicate key `{}` (first written at line {})",
                                    node_text(&node),
                                    first.pos.line
                                ),
                            )
                            .hint("keep one of them"));
                        }
                        *key = Some(node);
                    }
                }
            }
        }
    }
    Ok(root.unwrap_or_else(|| Node::scalar(String::new(), Scalar::Null, true, Pos { line: 1, column: 1 })))
}

fn node_text(node: &Node) -> &str {
    match &node.value {
        Value::Scalar { text, .. } => text,
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalars_resolve_with_the_core_schema() {
        assert_eq!(resolve_plain("42"), Scalar::Int(42));
        assert_eq!(resolve_plain("-7"), Scalar::Int(-7));
        assert_eq!(resolve_plain("0x1F"), Scalar::Int(31));
        assert_eq!(resolve_plain("1.5"), Scalar::Float(1.5));
        assert_eq!(resolve_plain("1e3"), Scalar::Float(1000.0));
        assert_eq!(resolve_plain("true"), Scalar::Bool(true));
        assert_eq!(resolve_plain("~"), Scalar::Null);
        assert_eq!(resolve_plain("yes"), Scalar::Str);
        assert_eq!(resolve_plain("1.2.3"), Scalar::Str);
        assert_eq!(resolve_plain("."), Scalar::Str);
        assert_eq!(resolve_plain("18446744073709551615"), Scalar::UInt(u64::MAX));
        assert_eq!(resolve_plain("99999999999999999999999"), Scalar::Str);
    }

    #[test]
    fn nodes_know_their_lines() {
        let node = parse("a: 1\nb:\n  c: [x, 'y']\n").unwrap();
        let b = node.get("b").unwrap();
        assert_eq!(b.pos.line, 3);
        let c = b.get("c").unwrap();
        assert_eq!(c.pos, Pos { line: 3, column: 6 });
        let mut paths = HashMap::new();
        node.index_paths("", &mut paths);
        assert_eq!(paths["b.c"], Pos { line: 3, column: 3 });
        assert_eq!(paths["b.c[1]"].line, 3);
    }

    #[test]
    fn aliases_expand_within_a_budget() {
        let ok = parse("a: &x [1, 2]\nb: *x\n").unwrap();
        assert_eq!(ok.get("b"), ok.get("a").map(|n| Node { pos: n.pos, ..n.clone() }).as_ref());
        let mut laughs = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..10 {
            let prev = i - 1;
            laughs.push_str(&format!("a{i}: &a{i} [*a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}]\n"));
        }
        let err = parse(&laughs).unwrap_err();
        assert!(err.message.contains("more than"), "{err:?}");
    }

    #[test]
    fn refuses_what_it_cannot_represent() {
        assert!(parse("a: 1\na: 2\n").unwrap_err().message.contains("duplicate key `a`"));
        let err = parse("labels: {{ input.label }}\n").unwrap_err();
        assert!(err.hint.unwrap_or_default().contains("quote"), "{}", err.message);
        assert!(parse("a: !custom 1\n").unwrap_err().message.contains("tag"));
        assert!(parse("a: 1\n---\nb: 2\n").unwrap_err().message.contains("second"));
        let deep = "[".repeat(200) + &"]".repeat(200);
        assert!(parse(&deep).unwrap_err().message.contains("nesting"));
        assert!(parse("a: [1, 2\n").is_err());
        assert!(parse("").unwrap().is_null());
    }
}
