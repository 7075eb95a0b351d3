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
use toolshape_shape::{RenderMode, ShapePlan};
use toolshape_tokens::Encoding;
use toolshape_trust::GuardSpec;

use crate::error::{ConfigError, ConfigErrors};
use crate::media::MediaSettings;
use crate::sections::{AuthConfig, HttpConfig, SearchConfig, StoreConfig, TelemetryConfig};
use crate::trust::PinConfig;
use crate::yaml::Pos;

mod load;

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
    /// How results are sent to each kind of MCP client.
    #[serde(default)]
    pub clients: crate::clients::ClientsConfig,
    /// Pinned tool definitions: the lock file and what to do with tools that differ from it.
    #[serde(default)]
    pub pin: Option<PinConfig>,
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
            .field("clients", &self.clients)
            .field("pin", &self.pin)
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
    /// Words that help tool search find this upstream's unmasked tools (the tasks they
    /// serve, other names for them). Indexed with each tool's own text, never shown to the
    /// model.
    #[serde(default)]
    pub search_hint: Option<String>,
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
            .field("search_hint", &self.search_hint)
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
    /// What the argument guard does with secrets in a call's arguments; a mask's own
    /// `guard` replaces this one whole.
    #[schemars(schema_with = "crate::trust::guard_schema")]
    pub guard: GuardSpec,
    /// Calls of one tool with the same arguments allowed in a session within
    /// `repeat_window`; the next gets a short "repeat" answer instead. 0 turns this off.
    pub repeat_limit: u32,
    /// Seconds over which `repeat_limit` counts.
    pub repeat_window: u64,
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
            guard: GuardSpec::default(),
            repeat_limit: toolshape_trust::DEFAULT_REPEAT_LIMIT,
            repeat_window: toolshape_trust::DEFAULT_REPEAT_WINDOW.as_secs(),
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
    /// This mask's argument guard, instead of `defaults.guard`.
    #[serde(default)]
    #[schemars(schema_with = "crate::trust::optional_guard_schema")]
    pub guard: Option<GuardSpec>,
    /// `false` when calling the tool twice does something twice (sends two messages): a
    /// repeated call then always runs. Upstream annotations can say so too.
    #[serde(default)]
    pub idempotent: Option<bool>,
    /// Words that help tool search find this tool (the tasks it serves, other names for
    /// it). Indexed with the tool's name and description, never shown to the model.
    #[serde(default)]
    pub search_hint: Option<String>,
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
    /// `{tools: …, read_only: true}`: of those tools, only the ones declared read-only
    /// (`readOnlyHint`; a mask when every handler it calls is).
    ReadOnly(Box<ProfileTools>),
}

impl ProfileTools {
    /// The names (and prefixes) the profile lists; `None` for every tool.
    pub fn names(&self) -> Option<&[String]> {
        match self {
            ProfileTools::All => None,
            ProfileTools::Tools(names) => Some(names),
            ProfileTools::ReadOnly(inner) => inner.names(),
        }
    }

    /// Whether only read-only tools are shown.
    pub fn read_only(&self) -> bool {
        matches!(self, ProfileTools::ReadOnly(_))
    }
}

impl Serialize for ProfileTools {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        match self {
            ProfileTools::All => s.serialize_str("*"),
            ProfileTools::Tools(names) => names.serialize(s),
            ProfileTools::ReadOnly(inner) => {
                let mut m = s.serialize_map(Some(2))?;
                m.serialize_entry("tools", inner)?;
                m.serialize_entry("read_only", &true)?;
                m.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for ProfileTools {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = ProfileTools;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a list of tool names, \"*\" for every tool, or `{tools: [...], read_only: true}`")
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
            fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<ProfileTools, A::Error> {
                let mut tools = ProfileTools::All;
                let mut read_only = false;
                while let Some(key) = map.next_key::<String>()? {
                    match key.as_str() {
                        "tools" => tools = map.next_value()?,
                        "read_only" => read_only = map.next_value()?,
                        other => {
                            return Err(de::Error::custom(format!(
                                "unknown key `{other}` in a profile: write `tools` (a list, or \"*\") and `read_only` (true or false)"
                            )));
                        }
                    }
                }
                if read_only && !tools.read_only() { Ok(ProfileTools::ReadOnly(Box::new(tools))) } else { Ok(tools) }
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
            "description": "Tool names this profile shows (a trailing `*` matches a prefix), \"*\" for every tool, or `{tools, read_only}` to show only the tools declared read-only.",
            "anyOf": [
                { "const": "*" },
                { "type": "array", "items": { "type": "string" } },
                {
                    "type": "object",
                    "additionalProperties": false,
                    "properties": {
                        "tools": {
                            "description": "The tool names, or \"*\" (the default) for every tool.",
                            "anyOf": [{ "const": "*" }, { "type": "array", "items": { "type": "string" } }]
                        },
                        "read_only": {
                            "description": "Show only tools whose upstream declares `readOnlyHint: true` (a mask when every handler it calls does).",
                            "type": "boolean",
                            "default": false
                        }
                    }
                }
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
    "clients",
    "pin",
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
}

/// `names` as a list of backticked names, for messages.
pub(crate) fn backticked(names: &[&str]) -> String {
    names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
}
