//! A string value of a client's config, split into literal text and the variable references
//! that client expands.
//!
//! Each client has its own reference syntax: Claude Code `${NAME}` and `${NAME:-default}`;
//! Cursor, Windsurf and VS Code `${env:NAME}`, plus `${workspaceFolder}`, `${userHome}` and
//! (VS Code) `${input:id}` for a value the editor prompts for; Gemini CLI `$NAME` and
//! `${NAME}`. Claude Desktop and Codex expand nothing. Folder references are resolved here,
//! since toolshape knows the folders; the others stay references, and the import turns them
//! into toolshape's own `${VAR}`.

use std::path::Path;

use crate::client::{Client, path_text};

/// One piece of a client's string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Segment {
    /// Text as written (after folder references were resolved).
    Literal(String),
    /// An environment variable of the client's process, with its fallback when one is written.
    Env {
        /// The variable.
        name: String,
        /// `${NAME:-default}`'s default.
        default: Option<String>,
    },
    /// A value the client asks its user for (VS Code `${input:id}`), or another reference
    /// only the client can expand; `raw` is the reference as written.
    ClientRef {
        /// The reference as written, e.g. `${input:api-key}`.
        raw: String,
        /// A name for it: the input's id, or the reference's inside.
        name: String,
    },
}

/// A client's string: as written, and split.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientText {
    /// The value as it stands in the file.
    pub raw: String,
    /// Its pieces.
    pub segments: Vec<Segment>,
}

impl ClientText {
    /// A string the client does not expand.
    pub fn literal(text: &str) -> ClientText {
        ClientText { raw: text.to_owned(), segments: vec![Segment::Literal(text.to_owned())] }
    }

    /// Whether the value holds no reference at all.
    pub fn is_literal(&self) -> bool {
        self.segments.iter().all(|s| matches!(s, Segment::Literal(_)))
    }

    /// The literal text, when the value holds no reference.
    pub fn as_literal(&self) -> Option<String> {
        self.is_literal().then(|| {
            self.segments
                .iter()
                .map(|s| match s {
                    Segment::Literal(t) => t.as_str(),
                    _ => "",
                })
                .collect()
        })
    }
}

/// The folders a client's folder references stand for.
#[derive(Debug, Clone, Copy)]
pub struct Folders<'a> {
    /// `${userHome}`.
    pub home: &'a Path,
    /// `${workspaceFolder}`: the project folder.
    pub workspace: &'a Path,
}

/// Split `text` as `client` reads it.
pub fn parse(client: Client, text: &str, folders: Folders<'_>) -> ClientText {
    let segments = match client {
        Client::ClaudeDesktop | Client::Codex => vec![Segment::Literal(text.to_owned())],
        Client::ClaudeCode => split(text, false, |inner| Some(env_with_default(inner))),
        Client::Cursor | Client::Windsurf | Client::VsCode => split(text, false, |inner| editor_ref(inner, folders)),
        Client::Gemini => split(text, true, |inner| Some(env_with_default(inner))),
    };
    ClientText { raw: text.to_owned(), segments: merge_literals(segments) }
}

/// `NAME` or `NAME:-default` (Claude Code; Gemini's `${NAME}`).
fn env_with_default(inner: &str) -> Segment {
    match inner.split_once(":-") {
        Some((name, default)) => Segment::Env { name: name.to_owned(), default: Some(default.to_owned()) },
        None => Segment::Env { name: inner.to_owned(), default: None },
    }
}

/// The references of Cursor, Windsurf and VS Code.
fn editor_ref(inner: &str, folders: Folders<'_>) -> Option<Segment> {
    let literal = |p: &Path| Some(Segment::Literal(path_text(p)));
    match inner {
        "userHome" => literal(folders.home),
        "workspaceFolder" | "workspaceRoot" => literal(folders.workspace),
        "workspaceFolderBasename" => Some(Segment::Literal(
            folders.workspace.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
        )),
        "pathSeparator" | "/" => Some(Segment::Literal(std::path::MAIN_SEPARATOR.to_string())),
        _ => match inner.split_once(':') {
            Some(("env", name)) => Some(Segment::Env { name: name.to_owned(), default: None }),
            Some((_, name)) => Some(Segment::ClientRef { raw: format!("${{{inner}}}"), name: name.to_owned() }),
            None => Some(Segment::ClientRef { raw: format!("${{{inner}}}"), name: inner.to_owned() }),
        },
    }
}

/// Split at `${…}` (and, with `bare`, `$NAME`); `reference` turns an inside into a segment.
fn split(text: &str, bare: bool, reference: impl Fn(&str) -> Option<Segment>) -> Vec<Segment> {
    let mut out = Vec::new();
    let mut literal = String::new();
    let mut rest = text;
    while let Some(at) = rest.find('$') {
        literal.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        if let Some(body) = after.strip_prefix('{')
            && let Some(end) = body.find('}')
            && let Some(segment) = reference(&body[..end]).filter(|_| end > 0)
        {
            flush(&mut out, &mut literal);
            out.push(segment);
            rest = &body[end + 1..];
            continue;
        }
        let name_len = after.bytes().take_while(|b| b.is_ascii_alphanumeric() || *b == b'_').count();
        if bare && name_len > 0 && !after.as_bytes()[0].is_ascii_digit() {
            flush(&mut out, &mut literal);
            out.push(Segment::Env { name: after[..name_len].to_owned(), default: None });
            rest = &after[name_len..];
            continue;
        }
        literal.push('$');
        rest = after;
    }
    literal.push_str(rest);
    flush(&mut out, &mut literal);
    out
}

fn flush(out: &mut Vec<Segment>, literal: &mut String) {
    if !literal.is_empty() {
        out.push(Segment::Literal(std::mem::take(literal)));
    }
}

fn merge_literals(segments: Vec<Segment>) -> Vec<Segment> {
    let mut out: Vec<Segment> = Vec::new();
    for s in segments {
        match (out.last_mut(), s) {
            (Some(Segment::Literal(prev)), Segment::Literal(next)) => prev.push_str(&next),
            (_, s) => out.push(s),
        }
    }
    if out.is_empty() {
        out.push(Segment::Literal(String::new()));
    }
    out
}

/// `text` as a literal in a toolshape config: `${` becomes `$${`, so nothing in it is read as
/// a variable.
pub fn escape_for_toolshape(text: &str) -> String {
    text.replace("${", "$${")
}

/// An environment variable name made of `text`: upper case, `_` for anything else than a
/// letter or digit, never starting with a digit.
pub fn var_name(text: &str) -> String {
    let mut out: String =
        text.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_uppercase() } else { '_' }).collect();
    while out.contains("__") {
        out = out.replace("__", "_");
    }
    let trimmed = out.trim_matches('_');
    if trimmed.is_empty() {
        return "VALUE".to_owned();
    }
    if trimmed.starts_with(|c: char| c.is_ascii_digit()) { format!("V_{trimmed}") } else { trimmed.to_owned() }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    fn folders() -> (PathBuf, PathBuf) {
        (PathBuf::from("/home/me"), PathBuf::from("/home/me/app"))
    }

    fn p(client: Client, text: &str) -> Vec<Segment> {
        let (home, workspace) = folders();
        parse(client, text, Folders { home: &home, workspace: &workspace }).segments
    }

    fn env(name: &str) -> Segment {
        Segment::Env { name: name.into(), default: None }
    }

    fn lit(text: &str) -> Segment {
        Segment::Literal(text.into())
    }

    #[test]
    fn each_client_reads_its_own_syntax() {
        assert_eq!(p(Client::ClaudeCode, "Bearer ${TOKEN}"), vec![lit("Bearer "), env("TOKEN")]);
        assert_eq!(
            p(Client::ClaudeCode, "${HOST:-localhost}:80"),
            vec![Segment::Env { name: "HOST".into(), default: Some("localhost".into()) }, lit(":80")]
        );
        assert_eq!(p(Client::Cursor, "${env:KEY}"), vec![env("KEY")]);
        assert_eq!(p(Client::Cursor, "${workspaceFolder}/data"), vec![lit("/home/me/app/data")]);
        assert_eq!(p(Client::VsCode, "${userHome}${pathSeparator}x"), vec![lit("/home/me/x")]);
        assert_eq!(
            p(Client::VsCode, "${input:api-key}"),
            vec![Segment::ClientRef { raw: "${input:api-key}".into(), name: "api-key".into() }]
        );
        assert_eq!(p(Client::Gemini, "$TOKEN and ${OTHER}"), vec![env("TOKEN"), lit(" and "), env("OTHER")]);
        assert_eq!(p(Client::Gemini, "costs $5"), vec![lit("costs $5")]);
        assert_eq!(p(Client::ClaudeDesktop, "${NOT_EXPANDED}"), vec![lit("${NOT_EXPANDED}")]);
        assert_eq!(p(Client::Codex, "$HOME"), vec![lit("$HOME")]);
        assert_eq!(p(Client::ClaudeCode, "a ${ unterminated"), vec![lit("a ${ unterminated")]);
        assert_eq!(p(Client::ClaudeCode, ""), vec![lit("")]);
    }

    #[test]
    fn names_and_escapes() {
        assert_eq!(var_name("github-token"), "GITHUB_TOKEN");
        assert_eq!(var_name("X-Api--Key"), "X_API_KEY");
        assert_eq!(var_name("1st"), "V_1ST");
        assert_eq!(var_name("--"), "VALUE");
        assert_eq!(escape_for_toolshape("a ${B} c"), "a $${B} c");
    }
}
