//! The config file (`toolshape.yaml`): its types, and loading them from text.
//!
//! Loading is pure: [`Config::parse`] takes the text, a file name for messages and a lookup
//! for `${VAR}`; it reads no file and no environment itself. Each section (and each mask,
//! upstream and profile) is read on its own, so one broken mask does not hide the problems
//! of the next: every problem comes back at once, each with its line and column.
//!
//! `${VAR}` rules: substitution applies to values (never keys), after YAML parsing, so a
//! variable's value can never add structure to the document. `${VAR:-fallback}` uses the
//! fallback when `VAR` is unset; `$${` writes a literal `${`. A substituted plain scalar is
//! typed again (`budget_tokens: ${BUDGET}` with `BUDGET=2000` is the number 2000); a quoted
//! one stays a string. Values that came from the environment are never echoed in errors.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;

use schemars::JsonSchema;
use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use toolshape_media::MediaPolicy;
use toolshape_shape::{MIN_BUDGET_TOKENS, RenderMode, ShapePlan};
use toolshape_tokens::Encoding;

use crate::de::{DeError, DeErrorKind, from_node};
use crate::error::{ConfigError, ConfigErrors, did_you_mean};
use crate::media::MediaSettings;
use crate::sections::{
    AuthConfig, HttpConfig, MAX_SEARCH_LIMIT, MIN_TOKEN_CHARS, SearchConfig, StoreBackend, StoreConfig, TelemetryConfig,
};
use crate::yaml::{self, Node, Pos, Scalar, resolve_plain};

/// Looks up an environment variable for `${VAR}`; `None` when it is not set.
pub type EnvLookup<'a> = &'a dyn Fn(&str) -> Option<String>;

/// A loaded config. Built by [`Config::parse`]; compiled into masks by
/// [`crate::MaskSet::compile`].
///
/// After loading, every mask's `result` holds its effective plan: `defaults.budget_tokens` and
/// `defaults.render` fill in what the mask left out.
#[derive(Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "toolshape config", description = "The toolshape config file (toolshape.yaml).")]
pub struct Config {
    /// The MCP servers toolshape starts or connects to, by name. The name is the `upstream`
    /// half of a handler (`github/list_issues`) and the default prefix of its unmasked tools.
    #[serde(default)]
    pub upstreams: BTreeMap<String, Upstream>,
    /// Settings that apply to every tool unless a mask says otherwise.
    #[serde(default)]
    pub defaults: Defaults,
    /// The tools the model sees, each over an upstream tool (its handler).
    #[serde(default)]
    pub masks: Vec<Mask>,
    /// Role-scoped views: a profile name and the tool names it shows, or `"*"` for all.
    #[serde(default)]
    pub profiles: BTreeMap<String, ProfileTools>,
    /// Values templates read as `context.vars.NAME`.
    #[serde(default)]
    pub vars: BTreeMap<String, Value>,
    /// Environment variables templates may read as `context.env.NAME`. Others are invisible.
    #[serde(default)]
    pub allowed_env: Vec<String>,
    /// Tool search with deferred loading: absent means every tool is listed.
    #[serde(default)]
    pub search: Option<SearchConfig>,
    /// Where snapshots, handles and search sessions live.
    #[serde(default)]
    pub store: StoreConfig,
    /// Who may call in HTTP mode: principals with bearer tokens and profiles.
    #[serde(default)]
    pub auth: AuthConfig,
    /// Limits and checks of the HTTP endpoint.
    #[serde(default)]
    pub http: HttpConfig,
    /// The span log and exports.
    #[serde(default)]
    pub telemetry: TelemetryConfig,
    #[serde(skip)]
    pub(crate) meta: Meta,
}

/// What loading knows beyond the typed values: the file name, positions, environment
/// values for `context.env`, and the names of parts that failed to load (so checks that
/// follow do not report them a second time as missing).
#[derive(Clone, Default)]
pub(crate) struct Meta {
    pub(crate) file: String,
    pub(crate) positions: HashMap<String, Pos>,
    pub(crate) env: BTreeMap<String, String>,
    pub(crate) broken_masks: BTreeSet<String>,
    pub(crate) broken_upstreams: BTreeSet<String>,
}

impl fmt::Debug for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Config")
            .field("file", &self.meta.file)
            .field("upstreams", &self.upstreams)
            .field("defaults", &self.defaults)
            .field("masks", &self.masks)
            .field("profiles", &self.profiles)
            .field("vars", &self.vars.keys().collect::<Vec<_>>())
            .field("allowed_env", &self.allowed_env)
            .field("search", &self.search)
            .field("store", &self.store)
            .field("auth", &self.auth)
            .field("http", &self.http)
            .field("telemetry", &self.telemetry)
            .finish()
    }
}

/// One upstream MCP server: a command to start (stdio) or a URL to connect to
/// (Streamable HTTP). Exactly one of `command` and `url`.
#[derive(Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Upstream {
    /// The program and its arguments, like `[npx, -y, "@modelcontextprotocol/server-github"]`.
    #[serde(default)]
    pub command: Option<Vec<String>>,
    /// Environment variables for the command (values usually `${VAR}` from toolshape's own
    /// environment). Never logged.
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    /// Working directory for the command.
    #[serde(default)]
    pub cwd: Option<String>,
    /// The server's MCP endpoint, like `http://127.0.0.1:9000/mcp`.
    #[serde(default)]
    pub url: Option<String>,
    /// HTTP headers sent with every request to `url` (e.g. `Authorization`). Never logged.
    #[serde(default)]
    pub headers: BTreeMap<String, String>,
    /// Seconds a call may take before it fails with a time-out envelope.
    #[serde(default = "default_timeout_secs")]
    pub timeout_secs: u64,
    /// Largest upstream response read, in bytes; a larger one is cut off with an error.
    #[serde(default = "default_max_response_bytes")]
    pub max_response_bytes: u64,
    /// Calls in flight to this upstream at once; more wait.
    #[serde(default = "default_max_concurrency")]
    pub max_concurrency: u32,
    /// Start the upstream at the first call to it (`lazy`) or when the gateway starts.
    #[serde(default)]
    pub start: StartPolicy,
    /// Overrides `defaults.expose_unmasked` for this upstream.
    #[serde(default)]
    pub expose_unmasked: Option<bool>,
    /// The prefix of this upstream's unmasked tool names (default: the upstream's name
    /// under `defaults.prefix: upstream`).
    #[serde(default)]
    pub prefix: Option<String>,
}

impl fmt::Debug for Upstream {
    // Env and header values are usually secrets: show their names only.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Upstream")
            .field("command", &self.command)
            .field("env", &self.env.keys().collect::<Vec<_>>())
            .field("cwd", &self.cwd)
            .field("url", &self.url)
            .field("headers", &self.headers.keys().collect::<Vec<_>>())
            .field("timeout_secs", &self.timeout_secs)
            .field("max_response_bytes", &self.max_response_bytes)
            .field("max_concurrency", &self.max_concurrency)
            .field("start", &self.start)
            .field("expose_unmasked", &self.expose_unmasked)
            .field("prefix", &self.prefix)
            .finish()
    }
}

fn default_timeout_secs() -> u64 {
    30
}
fn default_max_response_bytes() -> u64 {
    16 * 1024 * 1024
}
fn default_max_concurrency() -> u32 {
    8
}

/// When an upstream is started or connected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum StartPolicy {
    /// At the first call that needs it, or the first listing of tools, prompts or resources.
    #[default]
    Lazy,
    /// When the gateway starts.
    Eager,
}

/// Settings for every tool unless a mask says otherwise.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Defaults {
    /// Token budget of a result when its mask does not set `result.budget_tokens`, and of
    /// every unmasked tool.
    pub budget_tokens: usize,
    /// The tokenizer budgets are counted with: `o200k_base` or `cl100k_base`.
    #[schemars(schema_with = "crate::schema::encoding")]
    pub tokenizer: Encoding,
    /// How results are written for the model: `json` (compact) or `prose`.
    #[schemars(schema_with = "crate::schema::render_mode")]
    pub render: RenderMode,
    /// Whether upstream tools no mask covers are listed (namespaced, default shaping).
    pub expose_unmasked: bool,
    /// How unmasked tools are named: `upstream` (`github_list_issues`) or `none` (as is).
    pub prefix: PrefixPolicy,
    /// What joins the prefix and the tool name.
    pub prefix_separator: String,
    /// Fuel for one template render: bounds its time and memory (about 64 bytes a unit).
    pub template_fuel: u64,
    /// What images, audio and embedded resources of a result may take (`result.media` of a
    /// mask overrides it key by key).
    #[schemars(schema_with = "crate::schema::media")]
    pub media: MediaSettings,
}

impl Default for Defaults {
    fn default() -> Self {
        Defaults {
            budget_tokens: toolshape_shape::DEFAULT_BUDGET_TOKENS,
            tokenizer: Encoding::O200kBase,
            render: RenderMode::Json,
            expose_unmasked: true,
            prefix: PrefixPolicy::Upstream,
            prefix_separator: "_".to_owned(),
            template_fuel: DEFAULT_TEMPLATE_FUEL,
            media: MediaSettings::default(),
        }
    }
}

/// Fuel one template render gets unless `defaults.template_fuel` says otherwise.
pub const DEFAULT_TEMPLATE_FUEL: u64 = 100_000;
/// The most fuel a config may give a template.
pub const MAX_TEMPLATE_FUEL: u64 = 10_000_000;

/// How unmasked upstream tools are named.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PrefixPolicy {
    /// `{prefix}{separator}{tool}`, the prefix being the upstream's name or its `prefix`.
    #[default]
    Upstream,
    /// The upstream's tool name as is (collisions are hidden and reported).
    None,
}

/// What to do with arguments the mask's `input_schema` does not declare.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum UnknownArguments {
    /// Refuse the call with a message naming the unknown arguments.
    #[default]
    Refuse,
    /// Drop them before validation. They are never forwarded either way.
    Ignore,
}

/// A mask: one tool the model sees, over one upstream tool (or several, through `switch`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Mask {
    /// The tool name the model sees: letters, digits, `_` and `-`, at most 64.
    pub name: String,
    /// What the model reads about the tool. Say what it returns and when to use it.
    pub description: String,
    /// The upstream tool called: `upstream/tool`, like `github/list_issues`. Leave it out
    /// when `switch` picks the handler.
    #[serde(default)]
    pub handler: Option<String>,
    /// JSON Schema of the model's arguments (`type: object`). Arguments it does not declare
    /// are refused unless it sets `additionalProperties`. Leave it out for a tool that
    /// takes no arguments.
    #[serde(default)]
    pub input_schema: Option<Value>,
    /// The handler's arguments. Values are literals (fixed by the config) or templates:
    /// `"{{ input.label }}"` (typed: a number stays a number), `"state:{{ input.state }}"`
    /// (text). An empty result leaves the parameter out.
    #[serde(default)]
    pub handler_input: Map<String, Value>,
    /// Pick the handler by an input value, instead of `handler`.
    #[serde(default)]
    pub switch: Option<Switch>,
    /// A template whose non-empty output refuses the call, as a message to the model.
    #[serde(default)]
    pub validate: Option<String>,
    /// How the result is shaped: every shaping option of the core.
    #[serde(default)]
    #[schemars(schema_with = "crate::schema::shape_plan")]
    pub result: Option<ShapePlan>,
    /// Refuse (default) or ignore arguments the input schema does not declare.
    #[serde(default)]
    pub unknown_arguments: UnknownArguments,
    /// `result.media`, read apart from the shaping plan (see `crate::media`).
    #[serde(skip)]
    #[schemars(skip)]
    pub media: Option<MediaSettings>,
}

/// Pick a handler call by the value of one input argument.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Switch {
    /// The input argument whose value names the case: `kind` or `input.kind`.
    pub on: String,
    /// One handler call per value.
    pub cases: BTreeMap<String, Case>,
    /// The case used when the argument is left out.
    #[serde(default)]
    pub default: Option<String>,
}

/// One case of a [`Switch`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// The upstream tool called in this case: `upstream/tool`.
    pub handler: String,
    /// The handler's arguments in this case (templates as in the mask's `handler_input`).
    #[serde(default)]
    pub handler_input: Map<String, Value>,
    /// Shaping for this case; the mask's `result` when left out.
    #[serde(default)]
    #[schemars(schema_with = "crate::schema::shape_plan")]
    pub result: Option<ShapePlan>,
}

/// The tools a profile shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProfileTools {
    /// `"*"`: every tool.
    All,
    /// These tool names (mask names or namespaced upstream tools); a trailing `*` matches
    /// a prefix (`github_*`).
    Tools(Vec<String>),
}

impl Serialize for ProfileTools {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            ProfileTools::All => s.serialize_str("*"),
            ProfileTools::Tools(names) => names.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for ProfileTools {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = ProfileTools;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a list of tool names, or \"*\" for every tool")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<ProfileTools, E> {
                if s == "*" {
                    Ok(ProfileTools::All)
                } else {
                    Err(E::custom(format!("`{s}`: write a list of tool names, like `[{s}]`, or \"*\" for every tool")))
                }
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<ProfileTools, A::Error> {
                let mut names = Vec::new();
                while let Some(n) = seq.next_element::<String>()? {
                    names.push(n);
                }
                Ok(ProfileTools::Tools(names))
            }
        }
        d.deserialize_any(V)
    }
}

impl JsonSchema for ProfileTools {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "ProfileTools".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "Tool names this profile shows (a trailing `*` matches a prefix), or \"*\" for every tool.",
            "anyOf": [
                { "const": "*" },
                { "type": "array", "items": { "type": "string" } }
            ]
        })
    }
}

/// The top-level keys of a config file.
pub(crate) const TOP_KEYS: &[&str] = &[
    "upstreams",
    "defaults",
    "masks",
    "profiles",
    "vars",
    "allowed_env",
    "search",
    "store",
    "auth",
    "http",
    "telemetry",
];

/// Whether `s` is a valid tool or upstream name: 1 to 64 of `A-Z a-z 0-9 _ -`.
pub(crate) fn is_name(s: &str) -> bool {
    !s.is_empty() && s.len() <= 64 && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

fn is_env_name(s: &str) -> bool {
    let mut bytes = s.bytes();
    matches!(bytes.next(), Some(b) if b.is_ascii_alphabetic() || b == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

impl Config {
    /// Load a config from `text`. `file` names it in messages; `lookup` answers `${VAR}`.
    /// Returns every problem found, each with its line and column.
    pub fn parse(text: &str, file: &str, lookup: EnvLookup<'_>) -> Result<Config, ConfigErrors> {
        let (config, errors) = Config::parse_partial(text, file, lookup);
        if errors.is_empty() { Ok(config) } else { Err(ConfigErrors::sorted(errors)) }
    }

    /// The file name given to the loader.
    pub fn file_name(&self) -> &str {
        &self.meta.file
    }

    /// Where `path` (`masks[0].handler`) was written, or its nearest written parent.
    pub fn position(&self, path: &str) -> Option<Pos> {
        let mut p = path;
        loop {
            if let Some(pos) = self.meta.positions.get(p) {
                return Some(*pos);
            }
            let cut = p.rfind(['.', '['])?;
            p = &p[..cut];
        }
    }

    /// The mask named `name`.
    pub fn mask(&self, name: &str) -> Option<&Mask> {
        self.masks.iter().find(|m| m.name == name)
    }

    pub(crate) fn error(&self, path: &str, message: impl Into<String>) -> ConfigError {
        ConfigError::new(&self.meta.file, self.position(path), Some(path), message)
    }

    /// Load what can be loaded, and every problem met on the way.
    pub(crate) fn parse_partial(text: &str, file: &str, lookup: EnvLookup<'_>) -> (Config, Vec<ConfigError>) {
        let mut config = Config { meta: Meta { file: file.to_owned(), ..Meta::default() }, ..Config::default() };
        let mut errors = Vec::new();
        let mut root = match yaml::parse(text) {
            Ok(node) => node,
            Err(e) => {
                errors.push(ConfigError::new(file, Some(e.pos), None, e.message).with_hint(e.hint));
                return (config, errors);
            }
        };
        substitute_env(&mut root, file, lookup, &mut errors);
        root.index_paths("", &mut config.meta.positions);
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
            return (config, errors);
        };
        for (key, _) in entries {
            let name = key.as_str().unwrap_or("~");
            if !TOP_KEYS.contains(&name) {
                let hint = did_you_mean(name, TOP_KEYS.iter().copied())
                    .or_else(|| Some(format!("valid keys are {}", backticked(TOP_KEYS))));
                errors
                    .push(ConfigError::new(file, Some(key.pos), None, format!("unknown key `{name}`")).with_hint(hint));
            }
        }
        let ctx = Loader { file };

        if let Some(node) = root.get("vars")
            && let Some(v) = ctx.read(node, "vars", &mut errors)
        {
            config.vars = v;
        }
        if let Some(node) = root.get("allowed_env")
            && let Some(names) = ctx.read::<Vec<String>>(node, "allowed_env", &mut errors)
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
                    config.meta.env.insert(name.clone(), value);
                }
            }
            config.allowed_env = names;
        }
        if let Some(node) = root.get("defaults")
            && let Some(d) = ctx.read::<Defaults>(node, "defaults", &mut errors)
        {
            check_defaults(&d, node, &ctx, &mut errors);
            config.defaults = d;
        }
        if let Some(node) = root.get("upstreams") {
            match node.entries() {
                Some(entries) => {
                    for (key, value) in entries {
                        let name = key.as_str().unwrap_or("~").to_owned();
                        let path = format!("upstreams.{name}");
                        if !is_name(&name) {
                            errors.push(ctx.at(
                                key,
                                &path,
                                format!(
                                    "upstream name `{name}` has characters other than letters, digits, `_` and `-`"
                                ),
                                Some("rename it, like `github`".into()),
                            ));
                        }
                        match ctx.read::<Upstream>(value, &path, &mut errors) {
                            Some(up) => {
                                check_upstream(&up, value, &path, &ctx, &mut errors);
                                config.upstreams.insert(name, up);
                            }
                            None => {
                                config.meta.broken_upstreams.insert(name);
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
        if let Some(node) = root.get("masks") {
            match &node.value {
                yaml::Value::Seq(items) => {
                    for (i, item) in items.iter().enumerate() {
                        let path = format!("masks[{i}]");
                        let (item, media) = crate::media::split_result_media(item);
                        let item = &item;
                        match ctx.read::<Mask>(item, &path, &mut errors) {
                            Some(mut mask) => {
                                if let Some(node) = &media {
                                    let at = format!("{path}.result.media");
                                    mask.media = ctx.read::<MediaSettings>(node, &at, &mut errors);
                                    if let Some(m) = mask.media {
                                        let base = config.defaults.media.over(MediaPolicy::default());
                                        if let Some((message, hint)) = crate::media::problem(&m.over(base)) {
                                            errors.push(ctx.at(node, &at, message, Some(hint)));
                                        }
                                    }
                                }
                                fill_plan(&mut mask.result, item.get("result"), &config.defaults);
                                if let Some(switch) = &mut mask.switch {
                                    let cases = item.get("switch").and_then(|s| s.get("cases"));
                                    for (name, case) in &mut switch.cases {
                                        if case.result.is_some() {
                                            let written = cases.and_then(|c| c.get(name)).and_then(|c| c.get("result"));
                                            fill_plan(&mut case.result, written, &config.defaults);
                                        }
                                    }
                                }
                                config.masks.push(mask);
                            }
                            None => {
                                if let Some(name) = item.get("name").and_then(Node::as_str) {
                                    config.meta.broken_masks.insert(name.to_owned());
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
        if let Some(node) = root.get("profiles") {
            match node.entries() {
                Some(entries) => {
                    for (key, value) in entries {
                        let name = key.as_str().unwrap_or("~").to_owned();
                        let path = format!("profiles.{name}");
                        if let Some(tools) = ctx.read::<ProfileTools>(value, &path, &mut errors) {
                            config.profiles.insert(name, tools);
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
        if let Some(node) = root.get("search").filter(|n| !n.is_null())
            && let Some(search) = ctx.read::<SearchConfig>(node, "search", &mut errors)
        {
            check_search(&search, node, &ctx, &mut errors);
            for (key, name) in [("tool_name", &search.tool_name), ("call_tool_name", &search.call_tool_name)] {
                if config.masks.iter().any(|m| &m.name == name) {
                    errors.push(ctx.at(
                        node.get(key).unwrap_or(node),
                        &format!("search.{key}"),
                        format!("a mask is already named `{name}`"),
                        Some(format!("rename the mask, or set `search.{key}` to another name")),
                    ));
                }
            }
            config.search = Some(search);
        }
        if let Some(node) = root.get("store").filter(|n| !n.is_null())
            && let Some(store) = ctx.read::<StoreConfig>(node, "store", &mut errors)
        {
            check_store(&store, node, &ctx, &mut errors);
            config.store = store;
        }
        if let Some(node) = root.get("http").filter(|n| !n.is_null())
            && let Some(http) = ctx.read::<HttpConfig>(node, "http", &mut errors)
        {
            if http.max_body_bytes < 1024 {
                errors.push(ctx.at(
                    node.get("max_body_bytes").unwrap_or(node),
                    "http.max_body_bytes",
                    format!("max_body_bytes is {}; no MCP request fits", http.max_body_bytes),
                    Some("use at least 1024, like `max_body_bytes: 4194304` (4 MiB)".into()),
                ));
            }
            config.http = http;
        }
        if let Some(node) = root.get("telemetry").filter(|n| !n.is_null())
            && let Some(telemetry) = ctx.read::<TelemetryConfig>(node, "telemetry", &mut errors)
        {
            config.telemetry = telemetry;
        }
        if let Some(node) = root.get("auth").filter(|n| !n.is_null())
            && let Some(mut auth) = ctx.read::<AuthConfig>(node, "auth", &mut errors)
        {
            read_tokens(&mut auth, node, &config.profiles, lookup, &ctx, &mut errors);
            config.auth = auth;
        }
        (config, errors)
    }
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

fn node_at(node: &Node, i: usize) -> &Node {
    match &node.value {
        yaml::Value::Seq(items) => items.get(i).unwrap_or(node),
        _ => node,
    }
}

pub(crate) fn backticked(names: &[&str]) -> String {
    names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
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
