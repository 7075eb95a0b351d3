//! Masks: the config file and the engine that turns wide upstream tools into the narrow,
//! prompt-engineered tools a model sees.
//!
//! A mask is a configured tool over a handler (an upstream tool): its own name,
//! description and input schema, templates that map the model's input to the handler's
//! arguments, and a result plan for the shaping core. This crate is pure: it takes config
//! text (and a file name for messages) and an environment lookup for `${VAR}`; it reads no
//! file, clock or environment itself. The CLI and the gateway do the reading.
//!
//! The flow:
//! 1. [`load`] (or [`Config::parse`] then [`MaskSet::compile`]) turns config text into a
//!    [`MaskSet`], or into [`ConfigErrors`]: every problem at once, each with its line and
//!    column and what to write instead.
//! 2. [`MaskSet::surface`] gives the [`Surface`] a profile sees: the masks, plus unmasked
//!    upstream tools (namespaced, default shaping) unless hidden.
//! 3. [`MaskSet::prepare_call`] checks a call against the surface and the mask's input
//!    schema, runs `validate`, picks the switch case, renders `handler_input`, and returns a
//!    [`PreparedCall`]: the upstream, its tool, the arguments and the `Shaper` for the result.
//!
//! ```
//! use toolshape_mask::{load, CallContext};
//!
//! let yaml = r#"
//! upstreams:
//!   github: { command: [npx, -y, "@modelcontextprotocol/server-github"] }
//! masks:
//!   - name: open_issues
//!     handler: github/list_issues
//!     description: Open issues of acme/widgets.
//!     input_schema:
//!       type: object
//!       properties: { label: { type: string } }
//!     handler_input: { owner: acme, repo: widgets, state: open, labels: ["{{ input.label }}"] }
//! "#;
//! let (_config, masks) = load(yaml, "toolshape.yaml", &|_| None).unwrap();
//! let surface = masks.surface(None, &[]).unwrap();
//! let call = masks
//!     .prepare_call(&surface, "open_issues", serde_json::json!({"label": "bug"}), &CallContext::default())
//!     .unwrap();
//! assert_eq!(call.upstream_tool, "list_issues");
//! assert_eq!(call.arguments["labels"], serde_json::json!(["bug"]));
//!
//! let refused = masks
//!     .prepare_call(&surface, "open_issues", serde_json::json!({"owner": "evil"}), &CallContext::default())
//!     .unwrap_err();
//! assert!(refused.message().contains("unknown argument `owner`"));
//! ```
//!
//! Templates and their typing rules are described in [`template`]; `${VAR}` rules in
//! [`config`].

pub mod advice;
pub mod audit;
mod call;
mod clients;
mod compile;
pub mod config;
mod de;
mod error;
mod media;
pub mod schema;
mod search_hint;
pub mod sections;
mod surface;
pub mod template;
mod trust;
mod yaml;

pub use call::{CallContext, CallError, PreparedCall};
pub use clients::{ClientsConfig, StructuredContent};
pub use compile::{CONTEXT_KEYS, MaskSet, load};
pub use config::{
    Case, Config, Defaults, EnvLookup, Mask, PrefixPolicy, ProfileTools, StartPolicy, Switch, UnknownArguments,
    Upstream,
};
pub use error::{ConfigError, ConfigErrors, did_you_mean};
pub use media::MediaSettings;
pub use schema::{config_schema, config_schema_text};
pub use search_hint::MAX_SEARCH_HINT_CHARS;
pub use sections::{
    AuthConfig, HttpConfig, Principal, SearchConfig, SearchMode, StoreBackend, StoreConfig, TelemetryConfig, glob_match,
};
pub use surface::{Surface, ToolDefinition, UnknownProfile, UpstreamTool};
pub use template::TemplateError;
pub use yaml::Pos;
