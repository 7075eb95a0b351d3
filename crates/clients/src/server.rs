//! One server entry of a client's config, read into one shape whatever the client.
//!
//! The clients agree on `command`, `args` and `env` for servers they start; they differ for
//! remote servers (`url`, Windsurf's `serverUrl`, Gemini's `httpUrl`, a `type` of `http` or
//! `sse`), for switching a server off (`disabled: true`, Codex's `enabled = false`) and for
//! Codex's variables taken from the environment (`env_vars`, `bearer_token_env_var`,
//! `env_http_headers`). Codex's TOML is read as the same JSON value first.

use serde_json::{Map, Value};

use crate::client::{Client, Location};
use crate::text::{ClientText, Folders, Segment, parse};

/// A server as a client configures it.
#[derive(Debug, Clone, PartialEq)]
pub struct ClientServer {
    /// Its name in the client's file.
    pub name: String,
    /// How it is reached.
    pub transport: Transport,
    /// Seconds a call may take, when the client sets it (Gemini `timeout` in ms, Codex
    /// `tool_timeout_sec`).
    pub timeout_secs: Option<u64>,
    /// Why it is not imported, when it is not.
    pub skip: Option<Skip>,
    /// Things the client does that toolshape will not (e.g. VS Code's `envFile`).
    pub notes: Vec<String>,
}

/// How a server is reached.
#[derive(Debug, Clone, PartialEq)]
pub enum Transport {
    /// A command the client starts, speaking MCP over standard input and output.
    Stdio {
        /// The program.
        command: ClientText,
        /// Its arguments.
        args: Vec<ClientText>,
        /// Its environment, in the file's order.
        env: Vec<(String, ClientText)>,
        /// Its working folder.
        cwd: Option<ClientText>,
    },
    /// A remote server over Streamable HTTP (or the older SSE transport, `sse: true`).
    Http {
        /// The endpoint.
        url: ClientText,
        /// Headers sent with every request, in the file's order.
        headers: Vec<(String, ClientText)>,
        /// The older SSE transport, which toolshape does not speak.
        sse: bool,
    },
}

/// Why a server is left where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Skip {
    /// Switched off in the client.
    Disabled,
    /// It is toolshape itself.
    Toolshape,
    /// A remote server over SSE.
    Sse,
    /// The entry could not be read; what is wrong.
    Invalid(String),
}

impl Skip {
    /// Why, for people.
    pub fn reason(&self) -> String {
        match self {
            Skip::Disabled => "switched off in the client".to_owned(),
            Skip::Toolshape => "it is toolshape".to_owned(),
            Skip::Sse => "it uses the older SSE transport; toolshape connects to Streamable HTTP servers".to_owned(),
            Skip::Invalid(why) => why.clone(),
        }
    }
}

/// Read one server entry of `location`'s client.
pub fn read_server(location: &Location, name: &str, value: &Value, home: &std::path::Path) -> ClientServer {
    let folders = Folders { home, workspace: &location.base_dir };
    let client = location.client;
    let mut server = ClientServer {
        name: name.to_owned(),
        transport: Transport::Stdio { command: ClientText::literal(""), args: Vec::new(), env: Vec::new(), cwd: None },
        timeout_secs: None,
        skip: None,
        notes: Vec::new(),
    };
    let Some(entry) = value.as_object() else {
        server.skip = Some(Skip::Invalid("the entry is not an object".to_owned()));
        return server;
    };
    let text = |v: &str| parse(client, v, folders);
    let disabled = entry.get("disabled").and_then(Value::as_bool) == Some(true)
        || entry.get("enabled").and_then(Value::as_bool) == Some(false);
    server.timeout_secs = match client {
        Client::Gemini => entry.get("timeout").and_then(Value::as_u64).map(|ms| ms.div_ceil(1000).max(1)),
        Client::Codex => entry.get("tool_timeout_sec").and_then(Value::as_f64).map(|s| s.ceil().max(1.0) as u64),
        _ => None,
    };
    if let Some(file) = entry.get("envFile").and_then(Value::as_str) {
        server.notes.push(format!(
            "reads its variables from `{file}` (envFile), which toolshape does not: set them in its `env`"
        ));
    }
    let kind = entry.get("type").and_then(Value::as_str).unwrap_or("");
    let url_key = ["url", "serverUrl", "httpUrl"].into_iter().find(|k| entry.get(*k).and_then(Value::as_str).is_some());
    let command = entry.get("command").and_then(Value::as_str);
    if let (None, Some(key)) = (command, url_key) {
        let url = entry.get(key).and_then(Value::as_str).unwrap_or_default();
        // Gemini's `url` without a type is SSE; `httpUrl` is Streamable HTTP. Elsewhere a
        // bare `url` is Streamable HTTP unless the type says `sse`.
        let sse = kind == "sse" || (client == Client::Gemini && key == "url" && kind != "http");
        let mut headers = string_map(entry.get("headers"), &text);
        if client == Client::Codex {
            headers = string_map(entry.get("http_headers"), &text);
            if let Some(var) = entry.get("bearer_token_env_var").and_then(Value::as_str) {
                headers.push(("Authorization".to_owned(), env_text(&format!("Bearer ${{{var}}}"), "Bearer ", var)));
            }
            for (header, var) in entry.get("env_http_headers").and_then(Value::as_object).into_iter().flatten() {
                if let Some(var) = var.as_str() {
                    headers.push((header.clone(), env_text(&format!("${{{var}}}"), "", var)));
                }
            }
        }
        server.transport = Transport::Http { url: text(url), headers, sse };
        server.skip = if disabled {
            Some(Skip::Disabled)
        } else if sse {
            Some(Skip::Sse)
        } else {
            None
        };
        return server;
    }
    let Some(command) = command else {
        server.skip = Some(Skip::Invalid("it has neither `command` nor a URL".to_owned()));
        return server;
    };
    let args: Vec<ClientText> = match entry.get("args") {
        None => Vec::new(),
        Some(Value::Array(items)) => {
            let mut out = Vec::new();
            for item in items {
                match item {
                    Value::String(s) => out.push(text(s)),
                    Value::Number(n) => out.push(text(&n.to_string())),
                    Value::Bool(b) => out.push(text(&b.to_string())),
                    _ => {
                        server.skip = Some(Skip::Invalid("an argument is not a string".to_owned()));
                        return server;
                    }
                }
            }
            out
        }
        Some(_) => {
            server.skip = Some(Skip::Invalid("`args` is not a list".to_owned()));
            return server;
        }
    };
    let mut env = string_map(entry.get("env"), &text);
    if client == Client::Codex {
        for var in entry.get("env_vars").and_then(Value::as_array).into_iter().flatten() {
            if let Some(var) = var.as_str() {
                env.push((var.to_owned(), env_text(&format!("${{{var}}}"), "", var)));
            }
        }
    }
    let cwd = entry.get("cwd").and_then(Value::as_str).map(&text);
    let looks_like_us = command_is_toolshape(command, &args);
    server.transport = Transport::Stdio { command: text(command), args, env, cwd };
    server.skip = if looks_like_us {
        Some(Skip::Toolshape)
    } else if disabled {
        Some(Skip::Disabled)
    } else {
        None
    };
    server
}

/// A value that is `prefix` then environment variable `var` (Codex's `*_env_var` keys).
fn env_text(raw: &str, prefix: &str, var: &str) -> ClientText {
    let mut segments = Vec::new();
    if !prefix.is_empty() {
        segments.push(Segment::Literal(prefix.to_owned()));
    }
    segments.push(Segment::Env { name: var.to_owned(), default: None });
    ClientText { raw: raw.to_owned(), segments }
}

/// The string values of an object, in order; other values are left out.
fn string_map(value: Option<&Value>, text: &impl Fn(&str) -> ClientText) -> Vec<(String, ClientText)> {
    value
        .and_then(Value::as_object)
        .map(|m: &Map<String, Value>| {
            m.iter()
                .filter_map(|(k, v)| match v {
                    Value::String(s) => Some((k.clone(), text(s))),
                    Value::Number(n) => Some((k.clone(), text(&n.to_string()))),
                    Value::Bool(b) => Some((k.clone(), text(&b.to_string()))),
                    _ => None,
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Whether a command starts toolshape's gateway (an entry `install` wrote).
fn command_is_toolshape(command: &str, args: &[ClientText]) -> bool {
    let program = command.rsplit(['/', '\\']).next().unwrap_or(command);
    let program = program.strip_suffix(".exe").unwrap_or(program);
    program == "toolshape" && args.first().is_some_and(|a| a.raw == "serve")
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use serde_json::json;

    use super::*;
    use crate::client::{Format, Scope, ServersAt};

    fn at(client: Client) -> Location {
        Location {
            client,
            scope: Scope::User,
            path: PathBuf::from("/x"),
            format: Format::Json,
            servers_at: ServersAt::McpServers,
            base_dir: PathBuf::from("/home/me"),
        }
    }

    fn read(client: Client, value: Value) -> ClientServer {
        read_server(&at(client), "s", &value, Path::new("/home/me"))
    }

    #[test]
    fn remote_keys_of_each_client() {
        let w = read(Client::Windsurf, json!({"serverUrl": "https://w/mcp", "headers": {"A": "b"}}));
        assert!(matches!(w.transport, Transport::Http { sse: false, .. }) && w.skip.is_none());
        let g = read(Client::Gemini, json!({"url": "https://g/sse"}));
        assert_eq!(g.skip, Some(Skip::Sse));
        let g = read(Client::Gemini, json!({"httpUrl": "https://g/mcp", "timeout": 1500}));
        assert_eq!((g.skip, g.timeout_secs), (None, Some(2)));
        let g = read(Client::Gemini, json!({"url": "https://g/mcp", "type": "http"}));
        assert!(g.skip.is_none());
        let c = read(Client::ClaudeCode, json!({"type": "sse", "url": "https://c/sse"}));
        assert_eq!(c.skip, Some(Skip::Sse));
        let x = read(
            Client::Codex,
            json!({"url": "https://x/mcp", "bearer_token_env_var": "TOK", "env_http_headers": {"X-Key": "KEY"}}),
        );
        let Transport::Http { headers, .. } = x.transport else { panic!("not http") };
        assert_eq!(headers[0].1.segments[1], Segment::Env { name: "TOK".into(), default: None });
        assert_eq!(headers[1].0, "X-Key");
    }

    #[test]
    fn switched_off_broken_and_our_own_entries_are_skipped() {
        assert_eq!(read(Client::Windsurf, json!({"command": "a", "disabled": true})).skip, Some(Skip::Disabled));
        assert_eq!(read(Client::Codex, json!({"command": "a", "enabled": false})).skip, Some(Skip::Disabled));
        assert!(matches!(read(Client::Cursor, json!({"args": []})).skip, Some(Skip::Invalid(_))));
        assert!(matches!(read(Client::Cursor, json!({"command": "a", "args": [{}]})).skip, Some(Skip::Invalid(_))));
        assert!(matches!(read(Client::Cursor, json!("npx")).skip, Some(Skip::Invalid(_))));
        let us =
            read(Client::ClaudeDesktop, json!({"command": "/usr/bin/toolshape", "args": ["serve", "--config", "x"]}));
        assert_eq!(us.skip, Some(Skip::Toolshape));
    }

    #[test]
    fn codex_forwarded_variables_become_env_references() {
        let s = read(Client::Codex, json!({"command": "srv", "env": {"A": "1"}, "env_vars": ["HOME_TOKEN"]}));
        let Transport::Stdio { env, .. } = s.transport else { panic!("not stdio") };
        assert_eq!(env.len(), 2);
        assert!(env[0].1.is_literal());
        assert_eq!(env[1].1.segments, vec![Segment::Env { name: "HOME_TOKEN".into(), default: None }]);
        let v = read(Client::VsCode, json!({"command": "srv", "envFile": "${workspaceFolder}/.env"}));
        assert_eq!(v.notes.len(), 1);
    }
}
