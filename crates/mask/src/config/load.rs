//! Loading a config from text, one named step at a time: the document (YAML, `${VAR}`
//! substitution, the top-level keys), then each section on its own (`vars` and
//! `allowed_env`, `defaults`, `upstreams`, `masks`, `profiles`, then the service sections),
//! so that one broken section, mask or upstream does not hide the problems of the next.
//! Every problem is collected with its line and column; what could be read is kept.

use std::collections::BTreeMap;

use serde::Deserialize;
use toolshape_media::MediaPolicy;
use toolshape_shape::{MIN_BUDGET_TOKENS, ShapePlan};

use super::{
    Config, DEFAULT_TEMPLATE_FUEL, Defaults, EnvLookup, MAX_TEMPLATE_FUEL, Mask, Meta, ProfileTools, TOP_KEYS,
    Upstream, backticked, is_env_name, is_name,
};
use crate::de::{DeError, DeErrorKind, from_node};
use crate::error::{ConfigError, did_you_mean};
use crate::media::MediaSettings;
use crate::sections::{
    AuthConfig, HttpConfig, MAX_SEARCH_LIMIT, MIN_TOKEN_CHARS, SearchConfig, StoreBackend, StoreConfig, TelemetryConfig,
};
use crate::trust::PinConfig;
use crate::yaml::{self, Node, Pos, Scalar, resolve_plain};

impl Config {
    /// Load what can be loaded, and every problem met on the way.
    pub(crate) fn parse_partial(text: &str, file: &str, lookup: EnvLookup<'_>) -> (Config, Vec<ConfigError>) {
        let mut config = Config { meta: Meta { file: file.to_owned(), ..Meta::default() }, ..Config::default() };
        let mut errors = Vec::new();
        let Some(root) = read_document(text, file, lookup, &mut config.meta, &mut errors) else {
            return (config, errors);
        };
        let ctx = Loader { file };
        config.read_vars(&root, &ctx, lookup, &mut errors);
        config.read_defaults(&root, &ctx, &mut errors);
        config.read_upstreams(&root, &ctx, &mut errors);
        config.read_masks(&root, &ctx, &mut errors);
        config.read_profiles(&root, &ctx, &mut errors);
        config.read_search(&root, &ctx, &mut errors);
        config.read_services(&root, &ctx, lookup, &mut errors);
        (config, errors)
    }

    /// `vars`, and `allowed_env` with the values of the variables it names.
    fn read_vars(&mut self, root: &Node, ctx: &Loader<'_>, lookup: EnvLookup<'_>, errors: &mut Vec<ConfigError>) {
        if let Some(node) = root.get("vars")
            && let Some(v) = ctx.read(node, "vars", errors)
        {
            self.vars = v;
        }
        if let Some(node) = root.get("allowed_env")
            && let Some(names) = ctx.read::<Vec<String>>(node, "allowed_env", errors)
        {
            for (i, name) in names.iter().enumerate() {
                if !is_env_name(name) {
                    errors.push(ctx.at(
                        node_at(node, i),
                        &format!("allowed_env[{i}]"),
                        format!("`{name}` is not an environment variable name"),
                        Some("write names like `GITHUB_ORG`".into()),
                    ));
                } else if let Some(value) = lookup(name) {
                    self.meta.env.insert(name.clone(), value);
                }
            }
            self.allowed_env = names;
        }
    }

    /// `defaults`.
    fn read_defaults(&mut self, root: &Node, ctx: &Loader<'_>, errors: &mut Vec<ConfigError>) {
        if let Some(node) = root.get("defaults")
            && let Some(d) = ctx.read::<Defaults>(node, "defaults", errors)
        {
            check_defaults(&d, node, ctx, errors);
            self.defaults = d;
        }
    }

    /// `upstreams`, each on its own; one that cannot be read is remembered as broken, so
    /// that masks naming it are not reported a second time.
    fn read_upstreams(&mut self, root: &Node, ctx: &Loader<'_>, errors: &mut Vec<ConfigError>) {
        let Some(node) = root.get("upstreams") else { return };
        match node.entries() {
            Some(entries) => {
                for (key, value) in entries {
                    let name = key.as_str().unwrap_or("~").to_owned();
                    let path = format!("upstreams.{name}");
                    if !is_name(&name) {
                        errors.push(ctx.at(
                            key,
                            &path,
                            format!("upstream name `{name}` has characters other than letters, digits, `_` and `-`"),
                            Some("rename it, like `github`".into()),
                        ));
                    }
                    match ctx.read::<Upstream>(value, &path, errors) {
                        Some(up) => {
                            check_upstream(&up, value, &path, ctx, errors);
                            self.upstreams.insert(name, up);
                        }
                        None => {
                            self.meta.broken_upstreams.insert(name);
                        }
                    }
                }
            }
            None if node.is_null() => {}
            None => errors.push(ctx.at(
                node,
                "upstreams",
                format!("`upstreams` is {}, not a mapping", node.kind_name()),
                Some("write `upstreams: { github: { command: [...] } }`".into()),
            )),
        }
    }

    /// `masks`, each on its own, with the defaults filled into each plan (the mask's own and
    /// each switch case's); one that cannot be read is remembered as broken.
    fn read_masks(&mut self, root: &Node, ctx: &Loader<'_>, errors: &mut Vec<ConfigError>) {
        let Some(node) = root.get("masks") else { return };
        match &node.value {
            yaml::Value::Seq(items) => {
                for (i, item) in items.iter().enumerate() {
                    let path = format!("masks[{i}]");
                    // `result.media` is read apart from the shaping plan in the same block.
                    let (item, media) = crate::media::split_result_media(item);
                    let item = &item;
                    match ctx.read::<Mask>(item, &path, errors) {
                        Some(mut mask) => {
                            if let Some(node) = &media {
                                let at = format!("{path}.result.media");
                                mask.media = ctx.read::<MediaSettings>(node, &at, errors);
                                if let Some(m) = mask.media {
                                    let base = self.defaults.media.over(MediaPolicy::default());
                                    if let Some((message, hint)) = crate::media::problem(&m.over(base)) {
                                        errors.push(ctx.at(node, &at, message, Some(hint)));
                                    }
                                }
                            }
                            fill_plan(&mut mask.result, item.get("result"), &self.defaults);
                            if let Some(switch) = &mut mask.switch {
                                let cases = item.get("switch").and_then(|s| s.get("cases"));
                                for (name, case) in &mut switch.cases {
                                    if case.result.is_some() {
                                        let written = cases.and_then(|c| c.get(name)).and_then(|c| c.get("result"));
                                        fill_plan(&mut case.result, written, &self.defaults);
                                    }
                                }
                            }
                            self.masks.push(mask);
                        }
                        None => {
                            if let Some(name) = item.get("name").and_then(Node::as_str) {
                                self.meta.broken_masks.insert(name.to_owned());
                            }
                        }
                    }
                }
            }
            _ if node.is_null() => {}
            _ => errors.push(ctx.at(
                node,
                "masks",
                format!("`masks` is {}, not a list", node.kind_name()),
                Some("write each mask as a list item: `masks:\\n  - name: …`".into()),
            )),
        }
    }

    /// `profiles`, each on its own.
    fn read_profiles(&mut self, root: &Node, ctx: &Loader<'_>, errors: &mut Vec<ConfigError>) {
        let Some(node) = root.get("profiles") else { return };
        match node.entries() {
            Some(entries) => {
                for (key, value) in entries {
                    let name = key.as_str().unwrap_or("~").to_owned();
                    let path = format!("profiles.{name}");
                    if let Some(tools) = ctx.read::<ProfileTools>(value, &path, errors) {
                        self.profiles.insert(name, tools);
                    }
                }
            }
            None if node.is_null() => {}
            None => errors.push(ctx.at(
                node,
                "profiles",
                format!("`profiles` is {}, not a mapping", node.kind_name()),
                Some("write `profiles: { triage: [open_issues], admin: \"*\" }`".into()),
            )),
        }
    }

    /// `search`, whose tools must not take a mask's name (so it is read after the masks).
    fn read_search(&mut self, root: &Node, ctx: &Loader<'_>, errors: &mut Vec<ConfigError>) {
        if let Some(node) = root.get("search").filter(|n| !n.is_null())
            && let Some(search) = ctx.read::<SearchConfig>(node, "search", errors)
        {
            check_search(&search, node, ctx, errors);
            for (key, name) in [("tool_name", &search.tool_name), ("call_tool_name", &search.call_tool_name)] {
                if self.masks.iter().any(|m| &m.name == name) {
                    errors.push(ctx.at(
                        node.get(key).unwrap_or(node),
                        &format!("search.{key}"),
                        format!("a mask is already named `{name}`"),
                        Some(format!("rename the mask, or set `search.{key}` to another name")),
                    ));
                }
            }
            self.search = Some(search);
        }
    }

    /// The service sections: `store`, `http`, `telemetry`, and `auth`, whose tokens are read
    /// through `lookup` and whose profiles must exist (so it is read after the profiles).
    fn read_services(&mut self, root: &Node, ctx: &Loader<'_>, lookup: EnvLookup<'_>, errors: &mut Vec<ConfigError>) {
        if let Some(node) = root.get("store").filter(|n| !n.is_null())
            && let Some(store) = ctx.read::<StoreConfig>(node, "store", errors)
        {
            check_store(&store, node, ctx, errors);
            self.store = store;
        }
        if let Some(node) = root.get("http").filter(|n| !n.is_null())
            && let Some(http) = ctx.read::<HttpConfig>(node, "http", errors)
        {
            if http.max_body_bytes < 1024 {
                errors.push(ctx.at(
                    node.get("max_body_bytes").unwrap_or(node),
                    "http.max_body_bytes",
                    format!("max_body_bytes is {}; no MCP request fits", http.max_body_bytes),
                    Some("use at least 1024, like `max_body_bytes: 4194304` (4 MiB)".into()),
                ));
            }
            self.http = http;
        }
        if let Some(node) = root.get("telemetry").filter(|n| !n.is_null())
            && let Some(telemetry) = ctx.read::<TelemetryConfig>(node, "telemetry", errors)
        {
            self.telemetry = telemetry;
        }
        if let Some(node) = root.get("clients").filter(|n| !n.is_null())
            && let Some(clients) = ctx.read::<crate::clients::ClientsConfig>(node, "clients", errors)
        {
            self.clients = clients;
        }
        if let Some(node) = root.get("pin").filter(|n| !n.is_null()) {
            self.pin = ctx.read::<PinConfig>(node, "pin", errors);
        }
        if let Some(node) = root.get("auth").filter(|n| !n.is_null())
            && let Some(mut auth) = ctx.read::<AuthConfig>(node, "auth", errors)
        {
            read_tokens(&mut auth, node, &self.profiles, lookup, ctx, errors);
            self.auth = auth;
        }
    }
}

/// The `i`-th item of a sequence node, or the node itself.
fn node_at(node: &Node, i: usize) -> &Node {
    match &node.value {
        yaml::Value::Seq(items) => items.get(i).unwrap_or(node),
        _ => node,
    }
}

/// The document: parsed, `${VAR}` substituted, every path's position recorded in `meta`,
/// and its top-level keys checked. `None` when there is nothing more to read (not YAML, or
/// not a mapping).
fn read_document(
    text: &str,
    file: &str,
    lookup: EnvLookup<'_>,
    meta: &mut Meta,
    errors: &mut Vec<ConfigError>,
) -> Option<Node> {
    let mut root = match yaml::parse(text) {
        Ok(node) => node,
        Err(e) => {
            errors.push(ConfigError::new(file, Some(e.pos), None, e.message).with_hint(e.hint));
            return None;
        }
    };
    substitute_env(&mut root, file, lookup, errors);
    root.index_paths("", &mut meta.positions);
    let Some(entries) = root.entries() else {
        let message = if root.is_null() {
            "the config is empty".to_owned()
        } else {
            format!("the config is {}, not a mapping", root.kind_name())
        };
        errors.push(
            ConfigError::new(file, Some(root.pos), None, message)
                .with_hint(Some("start with `upstreams:` and `masks:`".into())),
        );
        return None;
    };
    for (key, _) in entries {
        let name = key.as_str().unwrap_or("~");
        if !TOP_KEYS.contains(&name) {
            let hint = did_you_mean(name, TOP_KEYS.iter().copied())
                .or_else(|| Some(format!("valid keys are {}", backticked(TOP_KEYS))));
            errors.push(ConfigError::new(file, Some(key.pos), None, format!("unknown key `{name}`")).with_hint(hint));
        }
    }
    Some(root)
}

fn check_search(search: &SearchConfig, node: &Node, ctx: &Loader<'_>, errors: &mut Vec<ConfigError>) {
    let at = |key: &str| node.get(key).unwrap_or(node);
    if search.always_loaded.is_empty() {
        errors.push(ctx.at(
            at("always_loaded"),
            "search.always_loaded",
            "every tool would be deferred: the model would start with nothing but the search tool".into(),
            Some("list the tools to keep loaded, like `always_loaded: [open_issues, \"memory_*\"]`".into()),
        ));
    }
    if search.limit == 0 || search.limit > MAX_SEARCH_LIMIT {
        errors.push(ctx.at(
            at("limit"),
            "search.limit",
            format!("limit is {}", search.limit),
            Some(format!("use between 1 and {MAX_SEARCH_LIMIT}; the default is 5")),
        ));
    }
    for (key, name) in [("tool_name", &search.tool_name), ("call_tool_name", &search.call_tool_name)] {
        if !is_name(name) {
            errors.push(ctx.at(
                at(key),
                &format!("search.{key}"),
                format!("`{name}` is not a valid tool name"),
                Some("use 1 to 64 letters, digits, `_` or `-`".into()),
            ));
        }
    }
    if search.tool_name == search.call_tool_name {
        errors.push(ctx.at(
            at("call_tool_name"),
            "search.call_tool_name",
            format!("the search tool and the call tool are both named `{}`", search.tool_name),
            Some("give them different names".into()),
        ));
    }
}

fn check_store(store: &StoreConfig, node: &Node, ctx: &Loader<'_>, errors: &mut Vec<ConfigError>) {
    let at = |key: &str| node.get(key).unwrap_or(node);
    match store.backend {
        StoreBackend::Sqlite if store.path.as_deref().is_none_or(str::is_empty) => errors.push(ctx.at(
            at("backend"),
            "store.path",
            "the sqlite store needs a file".into(),
            Some("add `path: ./toolshape-store.sqlite`".into()),
        )),
        StoreBackend::Redis => match store.url.as_deref() {
            None | Some("") => errors.push(ctx.at(
                at("backend"),
                "store.url",
                "the redis store needs a server".into(),
                Some("add `url: redis://127.0.0.1:6379/0`".into()),
            )),
            Some(url) if !url.starts_with("redis://") && !url.starts_with("rediss://") => errors.push(ctx.at(
                at("url"),
                "store.url",
                "the redis URL must start with `redis://` or `rediss://`".into(),
                Some("write it like `redis://127.0.0.1:6379/0`".into()),
            )),
            Some(_) => {}
        },
        _ => {}
    }
    if store.max_entry_bytes == 0 || store.max_bytes == 0 {
        errors.push(ctx.at(
            at("max_bytes"),
            "store.max_bytes",
            "the store would hold nothing".into(),
            Some("use sizes above 0, like `max_bytes: 268435456` (256 MiB)".into()),
        ));
    } else if store.max_entry_bytes > store.max_bytes {
        errors.push(ctx.at(
            at("max_entry_bytes"),
            "store.max_entry_bytes",
            format!("max_entry_bytes ({}) is larger than max_bytes ({})", store.max_entry_bytes, store.max_bytes),
            Some("one entry cannot be larger than the whole store".into()),
        ));
    }
    if store.ttl_secs == 0 {
        errors.push(ctx.at(
            at("ttl_secs"),
            "store.ttl_secs",
            "ttl_secs is 0: every cursor would expire at once".into(),
            Some("use at least 1, like `ttl_secs: 1800`".into()),
        ));
    }
}

/// Read each principal's token from the environment; check names, lengths and profiles.
/// Token values are never put into a message.
fn read_tokens(
    auth: &mut AuthConfig,
    node: &Node,
    profiles: &BTreeMap<String, ProfileTools>,
    lookup: EnvLookup<'_>,
    ctx: &Loader<'_>,
    errors: &mut Vec<ConfigError>,
) {
    let principals = node.get("principals");
    let mut seen: BTreeMap<String, String> = BTreeMap::new();
    for (name, principal) in &auth.principals {
        let path = format!("auth.principals.{name}");
        let here = principals.and_then(|p| p.get(name)).unwrap_or(node);
        let at = |key: &str| here.get(key).unwrap_or(here);
        if !is_name(name) {
            errors.push(ctx.at(
                here,
                &path,
                format!("principal name `{name}` has characters other than letters, digits, `_` and `-`"),
                Some("rename it, like `ci-bot`".into()),
            ));
        }
        if let Some(profile) = &principal.profile
            && !profiles.contains_key(profile)
        {
            let hint = did_you_mean(profile, profiles.keys().map(String::as_str))
                .or_else(|| Some("define it under `profiles:`".into()));
            errors.push(ctx.at(
                at("profile"),
                &format!("{path}.profile"),
                format!("no profile named `{profile}`"),
                hint,
            ));
        }
        if !is_env_name(&principal.token_env) {
            errors.push(ctx.at(
                at("token_env"),
                &format!("{path}.token_env"),
                format!("`{}` is not an environment variable name", principal.token_env),
                Some("name the variable that holds the token, like `token_env: CI_BOT_TOKEN`".into()),
            ));
            continue;
        }
        match lookup(&principal.token_env) {
            None => errors.push(ctx.at(
                at("token_env"),
                &format!("{path}.token_env"),
                format!("the environment variable `{}` is not set", principal.token_env),
                Some(format!(
                    "set it to a random token of at least {MIN_TOKEN_CHARS} characters, like `export {}=$(openssl rand -hex 32)`",
                    principal.token_env
                )),
            )),
            Some(token) if token.chars().count() < MIN_TOKEN_CHARS => errors.push(ctx.at(
                at("token_env"),
                &format!("{path}.token_env"),
                format!("the token in `{}` is shorter than {MIN_TOKEN_CHARS} characters", principal.token_env),
                Some("use a long random token, like the output of `openssl rand -hex 32`".into()),
            )),
            Some(token) => {
                if let Some(other) = seen.insert(token.clone(), name.clone()) {
                    errors.push(ctx.at(
                        at("token_env"),
                        &format!("{path}.token_env"),
                        format!("principals `{other}` and `{name}` have the same token"),
                        Some("give each principal its own token".into()),
                    ));
                }
                auth.tokens.insert(name.clone(), token);
            }
        }
    }
}

/// Fill what a written `result` block left out from `defaults`, or make the default plan.
fn fill_plan(plan: &mut Option<ShapePlan>, written: Option<&Node>, defaults: &Defaults) {
    let written = written.filter(|n| !n.is_null());
    let mut p = plan.take().unwrap_or_default();
    if written.and_then(|n| n.get("budget_tokens")).is_none() {
        p.budget_tokens = defaults.budget_tokens;
    }
    if written.and_then(|n| n.get("render")).is_none() {
        p.render = defaults.render;
    }
    *plan = Some(p);
}

struct Loader<'f> {
    file: &'f str,
}

impl Loader<'_> {
    fn at(&self, node: &Node, path: &str, message: String, hint: Option<String>) -> ConfigError {
        ConfigError::new(self.file, Some(node.pos), Some(path), message).with_hint(hint)
    }

    /// Deserialize `node` as a `T`; on failure, record the problem and return `None`.
    fn read<'a, T: Deserialize<'a>>(&self, node: &'a Node, path: &str, errors: &mut Vec<ConfigError>) -> Option<T> {
        match from_node::<T>(node, path) {
            Ok(v) => Some(v),
            Err(e) => {
                errors.push(self.convert(e, node.pos, path));
                None
            }
        }
    }

    fn convert(&self, e: DeError, fallback: Pos, path: &str) -> ConfigError {
        let pos = e.pos.unwrap_or(fallback);
        let err_path = e.path.clone().unwrap_or_else(|| path.to_owned());
        let parent = |p: &str| p.rfind(['.', '[']).map_or(String::new(), |i| p[..i].to_owned());
        match &e.kind {
            DeErrorKind::UnknownKey { key, expected } => {
                let within = parent(&err_path);
                let message = if within.is_empty() {
                    format!("unknown key `{key}`")
                } else {
                    format!("unknown key `{key}` in `{within}`")
                };
                let hint = did_you_mean(key, expected.iter().copied()).or_else(|| {
                    if expected.is_empty() {
                        Some("this mapping takes no keys".into())
                    } else {
                        Some(format!("valid keys are {}", backticked(expected)))
                    }
                });
                ConfigError { file: self.file.to_owned(), pos: Some(pos), path: None, message, hint }
            }
            DeErrorKind::UnknownVariant { variant, expected } => {
                let hint = did_you_mean(variant, expected.iter().copied())
                    .or_else(|| Some(format!("write one of {}", backticked(expected))));
                ConfigError::new(self.file, Some(pos), Some(&err_path), format!("unknown value `{variant}`"))
                    .with_hint(hint)
            }
            DeErrorKind::MissingKey { key } => {
                ConfigError::new(self.file, Some(pos), Some(&err_path), format!("missing key `{key}`"))
                    .with_hint(Some(format!("add `{key}: …`")))
            }
            DeErrorKind::Other(msg) => ConfigError::new(self.file, Some(pos), Some(&err_path), friendlier(msg)),
        }
    }
}

/// Serde's type errors, in the words of a config file.
fn friendlier(msg: &str) -> String {
    msg.replace("invalid type: unit value", "invalid type: nothing")
        .replace("expected usize", "expected a whole number")
        .replace("expected u64", "expected a whole number")
        .replace("expected u32", "expected a whole number")
        .replace("a sequence", "a list")
        .replace("struct ", "")
}

fn check_defaults(d: &Defaults, node: &Node, ctx: &Loader<'_>, errors: &mut Vec<ConfigError>) {
    if let Some((message, hint)) = crate::media::problem(&d.media.over(MediaPolicy::default())) {
        let at = node.get("media").unwrap_or(node);
        errors.push(ctx.at(at, "defaults.media", message, Some(hint)));
    }
    let at = |key: &str| node.get(key).unwrap_or(node);
    if d.budget_tokens < MIN_BUDGET_TOKENS {
        errors.push(ctx.at(
            at("budget_tokens"),
            "defaults.budget_tokens",
            format!("budget_tokens is {}; a result needs room for its envelope and delimiters", d.budget_tokens),
            Some(format!("use at least {MIN_BUDGET_TOKENS}, like `budget_tokens: 4000`")),
        ));
    }
    if d.prefix_separator.is_empty() || !d.prefix_separator.bytes().all(|b| matches!(b, b'_' | b'-' | b'.')) {
        errors.push(ctx.at(
            at("prefix_separator"),
            "defaults.prefix_separator",
            format!("prefix_separator `{}` would make tool names clients refuse", d.prefix_separator),
            Some("use `_`, `-` or `.`".into()),
        ));
    }
    if d.template_fuel == 0 || d.template_fuel > MAX_TEMPLATE_FUEL {
        errors.push(ctx.at(
            at("template_fuel"),
            "defaults.template_fuel",
            format!("template_fuel is {}", d.template_fuel),
            Some(format!("use between 1 and {MAX_TEMPLATE_FUEL}; the default is {DEFAULT_TEMPLATE_FUEL}")),
        ));
    }
}

fn check_upstream(up: &Upstream, node: &Node, path: &str, ctx: &Loader<'_>, errors: &mut Vec<ConfigError>) {
    let at = |key: &str| node.get(key).unwrap_or(node);
    let mut push = |key: &str, message: String, hint: &str| {
        let p = if key.is_empty() { path.to_owned() } else { format!("{path}.{key}") };
        errors.push(ctx.at(at(key), &p, message, Some(hint.to_owned())));
    };
    match (&up.command, &up.url) {
        (Some(_), Some(_)) => push(
            "url",
            "an upstream has both `command` and `url`".into(),
            "keep `command` to start a stdio server, or `url` to connect to a running one",
        ),
        (None, None) => push(
            "",
            "an upstream needs `command` or `url`".into(),
            "add `command: [npx, -y, \"@modelcontextprotocol/server-github\"]` or `url: \"http://127.0.0.1:9000/mcp\"`",
        ),
        _ => {}
    }
    if let Some(cmd) = &up.command
        && cmd.first().is_none_or(|c| c.trim().is_empty())
    {
        push("command", "`command` is empty".into(), "write the program and its arguments, like `[npx, -y, server]`");
    }
    if let Some(url) = &up.url {
        if !(url.starts_with("http://") || url.starts_with("https://")) {
            push("url", format!("url `{url}` is not an http(s) URL"), "write `http://HOST:PORT/mcp` or `https://…`");
        }
        if !up.env.is_empty() {
            push("env", "`env` applies to a started `command`, not to a `url`".into(), "set headers with `headers:`");
        }
        if up.cwd.is_some() {
            push("cwd", "`cwd` applies to a started `command`, not to a `url`".into(), "remove `cwd`");
        }
    }
    if up.command.is_some() && !up.headers.is_empty() {
        push("headers", "`headers` apply to a `url`, not to a started `command`".into(), "pass values with `env:`");
    }
    if up.timeout_secs == 0 {
        push("timeout_secs", "timeout_secs is 0".into(), "use a number of seconds, like `timeout_secs: 30`");
    }
    if up.max_concurrency == 0 {
        push("max_concurrency", "max_concurrency is 0: no call could run".into(), "use at least 1");
    }
    if up.max_response_bytes == 0 {
        push("max_response_bytes", "max_response_bytes is 0: no response could be read".into(), "use a size in bytes");
    }
    if let Some(prefix) = &up.prefix
        && !is_name(prefix)
    {
        push("prefix", format!("prefix `{prefix}` is not a valid name part"), "use letters, digits, `_` and `-`");
    }
}

/// Why a `${…}` could not be substituted.
enum Subst {
    Missing(String),
    Syntax(String),
}

/// Variable names and the values substituted for them.
type Used = Vec<(String, String)>;

/// Substitute `${VAR}` in `text`; returns the new text and the values used.
fn substitute(text: &str, lookup: EnvLookup<'_>) -> Result<(String, Used), Vec<Subst>> {
    let mut out = String::with_capacity(text.len());
    let mut used = Vec::new();
    let mut problems = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find('$') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        if let Some(lit) = after.strip_prefix("${") {
            out.push_str("${");
            rest = lit;
            continue;
        }
        let Some(body) = after.strip_prefix('{') else {
            out.push('$');
            rest = after;
            continue;
        };
        let Some(end) = body.find('}') else {
            problems.push(Subst::Syntax(format!("`${{` without `}}` in `{}`", shorten(text))));
            break;
        };
        let inner = &body[..end];
        let (name, fallback) = match inner.split_once(":-") {
            Some((n, f)) => (n, Some(f)),
            None => (inner, None),
        };
        if !is_env_name(name) {
            problems.push(Subst::Syntax(format!("`${{{inner}}}` does not name an environment variable")));
        } else {
            match (lookup(name), fallback) {
                (Some(v), _) => {
                    out.push_str(&v);
                    used.push((name.to_owned(), v));
                }
                (None, Some(f)) => out.push_str(f),
                (None, None) => problems.push(Subst::Missing(name.to_owned())),
            }
        }
        rest = &body[end + 1..];
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    out.push_str(rest);
    Ok((out, used))
}

fn shorten(s: &str) -> String {
    if s.chars().count() > 40 { format!("{}…", s.chars().take(40).collect::<String>()) } else { s.to_owned() }
}

fn substitute_env(root: &mut Node, file: &str, lookup: EnvLookup<'_>, errors: &mut Vec<ConfigError>) {
    root.for_each_scalar_mut(&mut |node| {
        let pos = node.pos;
        let yaml::Value::Scalar { text, kind, plain } = &mut node.value else { return };
        if !text.contains('$') {
            return;
        }
        match substitute(text, lookup) {
            Ok((new, used)) => {
                if used.is_empty() && new == *text {
                    return;
                }
                *text = new;
                if *plain {
                    *kind = resolve_plain(text);
                } else if *kind != Scalar::Str {
                    *kind = Scalar::Str;
                }
                node.secrets = used;
            }
            Err(problems) => {
                for p in problems {
                    let e = match p {
                        Subst::Missing(name) => ConfigError::new(
                            file,
                            Some(pos),
                            None,
                            format!("environment variable `{name}` is not set (used as `${{{name}}}`)"),
                        )
                        .with_hint(Some(format!("set `{name}`, or write `${{{name}:-default}}` for a fallback"))),
                        Subst::Syntax(msg) => ConfigError::new(file, Some(pos), None, msg)
                            .with_hint(Some("write `${NAME}`, or `$${` for a literal `${`".into())),
                    };
                    errors.push(e);
                }
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(name: &str) -> Option<String> {
        match name {
            "TOKEN" => Some("s3cr3t-value".into()),
            "BUDGET" => Some("2000".into()),
            _ => None,
        }
    }

    #[test]
    fn substitution_rules() {
        let ok = |t: &str| substitute(t, &env).ok().map(|(s, _)| s);
        assert_eq!(ok("Bearer ${TOKEN}").as_deref(), Some("Bearer s3cr3t-value"));
        assert_eq!(ok("$${TOKEN} and $5").as_deref(), Some("${TOKEN} and $5"));
        assert_eq!(ok("${NOPE:-fallback}").as_deref(), Some("fallback"));
        assert!(matches!(substitute("${NOPE}", &env).unwrap_err()[0], Subst::Missing(ref n) if n == "NOPE"));
        assert!(matches!(substitute("${1X}", &env).unwrap_err()[0], Subst::Syntax(_)));
        assert!(matches!(substitute("${OPEN", &env).unwrap_err()[0], Subst::Syntax(_)));
    }

    #[test]
    fn substituted_plain_scalars_are_typed_again() {
        let c = Config::parse("defaults:\n  budget_tokens: ${BUDGET}\n", "t.yaml", &env).unwrap();
        assert_eq!(c.defaults.budget_tokens, 2000);
        // Flow mappings need the quotes; a number field still reads the number.
        let c = Config::parse("defaults: { budget_tokens: \"${BUDGET}\" }\n", "t.yaml", &env).unwrap();
        assert_eq!(c.defaults.budget_tokens, 2000);
        // A quoted value stays text where any value is accepted.
        let c = Config::parse("vars: { a: \"${BUDGET}\", b: ${BUDGET}x }\nvars2: 1\n", "t.yaml", &env);
        assert!(c.is_err());
        let c = Config::parse("vars:\n  a: \"${BUDGET}\"\n  b: ${BUDGET}\n", "t.yaml", &env).unwrap();
        assert_eq!(c.vars["a"], serde_json::json!("2000"));
        assert_eq!(c.vars["b"], serde_json::json!(2000));
    }

    #[test]
    fn secrets_never_appear_in_errors() {
        let err = Config::parse("upstreams:\n  a: { url: 'http://x/mcp', timeout_secs: '${TOKEN}' }\n", "t.yaml", &env)
            .unwrap_err();
        let text = err.to_string();
        assert!(!text.contains("s3cr3t"), "{text}");
        assert!(text.contains("${TOKEN}"), "{text}");
        let c = Config::parse("upstreams:\n  a: { url: 'http://x/mcp', headers: { A: '${TOKEN}' } }\n", "t.yaml", &env)
            .unwrap();
        assert!(!format!("{c:?}").contains("s3cr3t"));
    }
}
