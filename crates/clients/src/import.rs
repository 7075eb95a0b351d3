//! Servers of clients into toolshape upstreams, with every literal secret moved out.
//!
//! A server becomes an upstream under its own name (made a valid upstream name). Values that
//! hold secrets are never copied into the config: each becomes a `${VAR}` reference, and the
//! import says where `install` finds the value (the literal in the client's file, or the
//! client's own reference, which the client expands in toolshape's entry). What counts as a
//! secret: every value of `env` and of HTTP headers (the two places servers take them), an
//! argument or URL query value after a name that says key, token, secret or password, and any
//! argument that looks like a generated key (long, letters and digits, no path, high entropy).
//!
//! Variable names depend only on the upstream and the key (`GITHUB_PERSONAL_ACCESS_TOKEN` is
//! kept for upstream `github`; `API_KEY` of upstream `brave` becomes `BRAVE_API_KEY`), so
//! `install` can recompute one client's import and compare it with the config's.

use crate::client::Location;
use crate::server::{ClientServer, Transport};
use crate::text::{ClientText, Segment, escape_for_toolshape, var_name};

/// Where the value of a config variable comes from when the client starts toolshape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A literal secret, copied from the client's file into toolshape's entry.
    Secret(String),
    /// A reference only the client can expand (VS Code's `${input:id}`), written as is.
    ClientRef(String),
    /// An environment variable of the client's own process, passed through.
    Env(String),
}

/// A variable the config reads, and where its value comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Var {
    /// The variable (`${NAME}` in the config).
    pub name: String,
    /// Where its value comes from.
    pub source: Source,
    /// What it was in the client, for people (`env GITHUB_TOKEN`).
    pub what: String,
}

/// An upstream as the config writes it; strings are in toolshape's syntax (`${VAR}`, `$${`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UpstreamSpec {
    /// `command`: the program and its arguments.
    pub command: Option<Vec<String>>,
    /// `env`.
    pub env: Vec<(String, String)>,
    /// `cwd`.
    pub cwd: Option<String>,
    /// `url`.
    pub url: Option<String>,
    /// `headers`.
    pub headers: Vec<(String, String)>,
    /// `timeout_secs`, when the client set one.
    pub timeout_secs: Option<u64>,
}

/// One server imported as an upstream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Imported {
    /// The client file it came from (its label: `claude-code (project)`).
    pub from: String,
    /// Its name in the client.
    pub server: String,
    /// Its upstream name in the config.
    pub upstream: String,
    /// The upstream.
    pub spec: UpstreamSpec,
    /// The variables it reads.
    pub vars: Vec<Var>,
    /// What the client did that toolshape does not.
    pub notes: Vec<String>,
}

/// A server left in its client, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    /// The client file.
    pub from: String,
    /// Its name there.
    pub server: String,
    /// Why.
    pub reason: String,
}

/// The servers of every client file read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Import {
    /// The upstreams, one per distinct server.
    pub upstreams: Vec<Imported>,
    /// Servers also found in another file with the same definition: (file, server, upstream).
    pub duplicates: Vec<(String, String, String)>,
    /// Servers not imported.
    pub skipped: Vec<Skipped>,
}

/// Import the servers of each file, in order. A name taken by a different server gets the
/// client's name after it, then the scope (`github-cursor`, `github-cursor-project`).
pub fn import(files: &[(Location, Vec<ClientServer>)]) -> Import {
    let mut out = Import::default();
    for (location, servers) in files {
        let from = location.label();
        for server in servers {
            if let Some(skip) = &server.skip {
                out.skipped.push(Skipped { from: from.clone(), server: server.name.clone(), reason: skip.reason() });
                continue;
            }
            let mut placed = false;
            for name in name_candidates(&server.name, location) {
                let (spec, vars) = convert(server, &name);
                match out.upstreams.iter().find(|u| u.upstream == name) {
                    Some(existing) if existing.spec == spec && existing.vars == vars => {
                        out.duplicates.push((from.clone(), server.name.clone(), name));
                        placed = true;
                    }
                    Some(_) => continue,
                    None => {
                        let (spec, vars) = keep_apart(&out.upstreams, &name, spec, vars);
                        out.upstreams.push(Imported {
                            from: from.clone(),
                            server: server.name.clone(),
                            upstream: name,
                            spec,
                            vars,
                            notes: server.notes.clone(),
                        });
                        placed = true;
                    }
                }
                break;
            }
            if !placed {
                out.skipped.push(Skipped {
                    from: from.clone(),
                    server: server.name.clone(),
                    reason: "every name for it is taken by another server".to_owned(),
                });
            }
        }
    }
    out
}

/// `vars` renamed where an earlier upstream already reads a variable of that name from
/// another source (two servers whose `GITHUB_TOKEN`s differ): the upstream's name goes in
/// front, then a number.
fn keep_apart(
    earlier: &[Imported],
    upstream: &str,
    mut spec: UpstreamSpec,
    mut vars: Vec<Var>,
) -> (UpstreamSpec, Vec<Var>) {
    let taken = |name: &str, source: &Source| {
        earlier.iter().flat_map(|u| &u.vars).any(|v| v.name == name && v.source != *source)
    };
    for var in &mut vars {
        if !taken(&var.name, &var.source) {
            continue;
        }
        let base = format!("{}_{}", var_name(upstream), var.name);
        let mut new = base.clone();
        let mut n = 2;
        while taken(&new, &var.source) {
            new = format!("{base}_{n}");
            n += 1;
        }
        rename_var(&mut spec, &var.name, &new);
        var.name = new;
    }
    (spec, vars)
}

/// Replace the reference `${old}` (and `${old:-…}`) by `${new}` in every value of `spec`.
fn rename_var(spec: &mut UpstreamSpec, old: &str, new: &str) {
    let fix = |text: &mut String| {
        *text = text
            .replace(&format!("${{{old}}}"), &format!("${{{new}}}"))
            .replace(&format!("${{{old}:-"), &format!("${{{new}:-"));
    };
    for text in spec.command.iter_mut().flatten() {
        fix(text);
    }
    for (_, text) in spec.env.iter_mut().chain(spec.headers.iter_mut()) {
        fix(text);
    }
    for text in spec.url.iter_mut().chain(spec.cwd.iter_mut()) {
        fix(text);
    }
}

/// The upstream names a server of `location` may get, in the order `import` tries them.
pub fn name_candidates(server: &str, location: &Location) -> Vec<String> {
    let base = upstream_name(server);
    let with_client = clip(&format!("{base}-{}", location.client.id()));
    let with_scope = clip(&format!("{with_client}-{}", location.scope.id()));
    let mut out = vec![base, with_client, with_scope.clone()];
    out.extend((2..=9).map(|n| clip(&format!("{with_scope}-{n}"))));
    out.dedup();
    out
}

/// A valid upstream name (1 to 64 of `A-Z a-z 0-9 _ -`) made of a client's server name.
pub fn upstream_name(server: &str) -> String {
    let mut name: String =
        server.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '-' }).collect();
    while name.contains("--") {
        name = name.replace("--", "-");
    }
    let name = name.trim_matches('-');
    if name.is_empty() { "server".to_owned() } else { clip(name) }
}

fn clip(name: &str) -> String {
    name.chars().take(64).collect()
}

/// One server as the upstream `upstream`, and the variables it reads.
pub fn convert(server: &ClientServer, upstream: &str) -> (UpstreamSpec, Vec<Var>) {
    let mut vars = Vars { upstream: var_name(upstream), list: Vec::new() };
    let mut spec = UpstreamSpec { timeout_secs: server.timeout_secs, ..UpstreamSpec::default() };
    match &server.transport {
        Transport::Stdio { command, args, env, cwd } => {
            let mut argv = vec![vars.plain(command)];
            let mut secret_flag: Option<String> = None;
            for (i, arg) in args.iter().enumerate() {
                argv.push(vars.argument(arg, i + 1, secret_flag.take()));
                if let Some(flag) = arg.as_literal().and_then(|a| flag_name(&a))
                    && !arg.raw.contains('=')
                    && is_secret_name(&flag)
                {
                    secret_flag = Some(flag);
                }
            }
            spec.command = Some(argv);
            spec.env = env.iter().map(|(k, v)| (k.clone(), vars.secret(v, k, &format!("env {k}")))).collect();
            spec.cwd = cwd.as_ref().map(|c| vars.plain(c));
        }
        Transport::Http { url, headers, .. } => {
            spec.url = Some(vars.url(url));
            spec.headers = headers.iter().map(|(k, v)| (k.clone(), vars.header(k, v))).collect();
        }
    }
    (spec, vars.list)
}

/// The variables one server's values read, collected while its values are converted.
struct Vars {
    upstream: String,
    list: Vec<Var>,
}

impl Vars {
    fn add(&mut self, name: String, source: Source, what: &str) -> String {
        if !self.list.iter().any(|v| v.name == name && v.source == source) {
            self.list.push(Var { name: name.clone(), source, what: what.to_owned() });
        }
        format!("${{{name}}}")
    }

    /// A name for a moved value: `key` made a variable name, with the upstream in front
    /// unless it already starts with the upstream's first word (`BRAVE_API_KEY` of upstream
    /// `brave-search` stays as it is).
    fn moved_name(&self, key: &str) -> String {
        let key = var_name(key);
        let first = self.upstream.split('_').next().unwrap_or(&self.upstream);
        if key == first || key.starts_with(&format!("{first}_")) || key.starts_with(&format!("{}_", self.upstream)) {
            key
        } else {
            format!("{}_{key}", self.upstream)
        }
    }

    /// A value that is not a secret: its references become toolshape's, its text is escaped.
    fn plain(&mut self, text: &ClientText) -> String {
        let mut out = String::new();
        for segment in &text.segments {
            match segment {
                Segment::Literal(t) => out.push_str(&escape_for_toolshape(t)),
                Segment::Env { name, default } => {
                    let reference = self.add(name.clone(), Source::Env(name.clone()), &format!("${{{name}}}"));
                    match default {
                        Some(d) => out.push_str(&format!("${{{name}:-{}}}", d.replace('}', ""))),
                        None => out.push_str(&reference),
                    }
                }
                Segment::ClientRef { raw, name } => {
                    out.push_str(&self.add(var_name(name), Source::ClientRef(raw.clone()), raw));
                }
            }
        }
        out
    }

    /// A value that is a secret when literal (an `env` value): moved whole to `${NAME}`.
    fn secret(&mut self, text: &ClientText, key: &str, what: &str) -> String {
        match text.as_literal() {
            Some(literal) if !literal.is_empty() => {
                let name = self.moved_name(key);
                self.add(name, Source::Secret(literal), what)
            }
            _ => self.plain(text),
        }
    }

    /// A header value: `Bearer <token>` keeps its scheme and moves the token.
    fn header(&mut self, header: &str, text: &ClientText) -> String {
        if let Some(literal) = text.as_literal()
            && let Some((scheme, token)) = literal.split_once(' ')
            && scheme.eq_ignore_ascii_case("bearer")
            && !token.trim().is_empty()
        {
            let name = self.moved_name("token");
            return format!(
                "{scheme} {}",
                self.add(name, Source::Secret(token.to_owned()), &format!("header {header}"))
            );
        }
        self.secret(text, header, &format!("header {header}"))
    }

    /// An argument: moved when it follows (or carries, `--key=…`) a secret-named flag, or
    /// looks like a generated key.
    fn argument(&mut self, arg: &ClientText, position: usize, after_flag: Option<String>) -> String {
        let Some(literal) = arg.as_literal() else { return self.plain(arg) };
        if let Some(flag) = after_flag {
            let name = self.moved_name(&flag);
            return self.add(name, Source::Secret(literal), &format!("argument after --{flag}"));
        }
        if let Some((flag_part, value)) = literal.split_once('=')
            && let Some(flag) = flag_name(flag_part)
            && (is_secret_name(&flag) || looks_generated(value))
            && !value.is_empty()
        {
            let name = self.moved_name(&flag);
            let reference = self.add(name, Source::Secret(value.to_owned()), &format!("argument --{flag}"));
            return format!("{}={reference}", escape_for_toolshape(flag_part));
        }
        if looks_generated(&literal) {
            let name = self.moved_name(&format!("arg{position}"));
            return self.add(name, Source::Secret(literal), &format!("argument {position}"));
        }
        escape_for_toolshape(&literal)
    }

    /// A URL: query values named like secrets, or looking like keys, are moved.
    fn url(&mut self, url: &ClientText) -> String {
        let Some(literal) = url.as_literal() else { return self.plain(url) };
        let Some((base, query)) = literal.split_once('?') else { return escape_for_toolshape(&literal) };
        let mut parts = Vec::new();
        for pair in query.split('&') {
            match pair.split_once('=') {
                Some((key, value)) if !value.is_empty() && (is_secret_name(key) || looks_generated(value)) => {
                    let name = self.moved_name(key);
                    let reference = self.add(name, Source::Secret(value.to_owned()), &format!("URL parameter {key}"));
                    parts.push(format!("{}={reference}", escape_for_toolshape(key)));
                }
                _ => parts.push(escape_for_toolshape(pair)),
            }
        }
        format!("{}?{}", escape_for_toolshape(base), parts.join("&"))
    }
}

/// `--api-key` or `-k` as `api-key` / `k`; `None` for a value.
fn flag_name(arg: &str) -> Option<String> {
    let name = arg.strip_prefix("--").or_else(|| arg.strip_prefix('-'))?;
    (!name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'))
        .then(|| name.to_owned())
}

/// Whether a key, flag or parameter name says it holds a secret.
pub fn is_secret_name(name: &str) -> bool {
    const WORDS: [&str; 12] = [
        "key",
        "token",
        "secret",
        "password",
        "passwd",
        "pwd",
        "pat",
        "auth",
        "authorization",
        "credential",
        "credentials",
        "apikey",
    ];
    let mut words: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut previous_lower = false;
    for c in name.chars() {
        if !c.is_ascii_alphanumeric() {
            words.push(std::mem::take(&mut current));
            previous_lower = false;
            continue;
        }
        if c.is_ascii_uppercase() && previous_lower {
            words.push(std::mem::take(&mut current));
        }
        previous_lower = c.is_ascii_lowercase();
        current.push(c.to_ascii_lowercase());
    }
    words.push(current);
    words.iter().any(|w| WORDS.contains(&w.as_str()))
}

/// Whether a value looks like a generated key or token: at least 20 characters of one word
/// (no spaces, slashes or colons), letters and digits both, and close to random (over 3.5
/// bits of entropy per character; English words and package names stay well under).
pub fn looks_generated(value: &str) -> bool {
    let chars: Vec<char> = value.chars().collect();
    if chars.len() < 20 || value.starts_with('-') {
        return false;
    }
    if chars.iter().any(|c| c.is_whitespace() || matches!(c, '/' | '\\' | ':' | '@' | '.')) {
        return false;
    }
    if !chars.iter().any(char::is_ascii_digit) || !chars.iter().any(char::is_ascii_alphabetic) {
        return false;
    }
    let mut counts = std::collections::HashMap::new();
    for c in &chars {
        *counts.entry(*c).or_insert(0usize) += 1;
    }
    let n = chars.len() as f64;
    let entropy: f64 = counts.values().map(|&k| k as f64 / n).map(|p| -p * p.log2()).sum();
    entropy > 3.5
}
