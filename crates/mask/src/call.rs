//! Preparing a call: from the model's tool name and arguments to the upstream call to make
//! and the shaper for its result.
//!
//! Order of checks, each failing with a message the model can act on: the tool must be on
//! the surface; the arguments must be an object; arguments the input schema does not
//! declare are refused (or dropped, per mask); the rest must validate against the schema;
//! schema defaults fill what was left out; the `validate` template may refuse the call; then
//! the switch picks a case and `handler_input` is rendered. The model's arguments are only
//! ever visible to templates as `input.*`: `context.*` comes from the system, and handler
//! parameters without a template are fixed by the config.

use serde_json::{Map, Value, json};
use toolshape_media::MediaPolicy;
use toolshape_shape::Shaper;
use toolshape_trust::ArgPath;
use toolshape_util::json_kind;

use crate::compile::{CompiledMask, HandlerCall, MaskSet, Route};
use crate::config::UnknownArguments;
use crate::error::did_you_mean;
use crate::surface::{Surface, Target};
use crate::template::{TemplateError, eval_tree};
use crate::trust::fixed_paths;

/// Most schema problems listed in one refusal: enough to fix, short enough to read.
const MAX_PROBLEMS: usize = 5;

/// What the system knows about a call; templates read it as `context.*`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CallContext {
    /// The client session, if any.
    pub session: Option<String>,
    /// The authenticated principal (HTTP mode), if any.
    pub principal: Option<String>,
}

/// A call ready to send upstream.
#[derive(Debug, Clone)]
pub struct PreparedCall<'s> {
    /// The tool name the model called.
    pub tool: String,
    /// The mask that handled it; `None` for an unmasked upstream tool.
    pub mask: Option<&'s str>,
    /// The upstream to call.
    pub upstream: String,
    /// The upstream's tool name.
    pub upstream_tool: String,
    /// The arguments for the upstream tool (always an object).
    pub arguments: Value,
    /// The shaper for the result.
    pub shaper: &'s Shaper,
    /// What the result's images, audio and embedded resources may take.
    pub media: MediaPolicy,
    /// Places in `arguments` fixed by the config (literal `handler_input` values), which
    /// the argument guard does not look into: they come from the config, not the model.
    pub fixed: Vec<ArgPath>,
}

/// Why a call was refused. [`CallError::message`] is what the model reads.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CallError {
    /// No such tool on the surface (whether it does not exist or the profile hides it).
    #[error("unknown tool `{name}`")]
    UnknownTool {
        /// The name called.
        name: String,
        /// A close name from the same surface.
        hint: Option<String>,
    },
    /// The arguments do not fit the tool's input schema.
    #[error("invalid arguments for `{tool}`: {}", problems.join("; "))]
    InvalidArguments {
        /// The tool called.
        tool: String,
        /// Each problem, in words a model can act on.
        problems: Vec<String>,
    },
    /// The mask's `validate` template refused the call.
    #[error("`{tool}` refused the call: {message}")]
    Rejected {
        /// The tool called.
        tool: String,
        /// The template's output.
        message: String,
    },
    /// A template failed while preparing the call: a config problem, not the model's.
    #[error("mask `{tool}`: template `{field}` failed: {error}")]
    Template {
        /// The tool called.
        tool: String,
        /// The template's place in the mask (`handler_input.labels`).
        field: String,
        /// What went wrong.
        error: TemplateError,
    },
}

impl CallError {
    /// The message for the model: what happened and what to do next. It never shows
    /// configuration internals or `context` values.
    pub fn message(&self) -> String {
        match self {
            CallError::UnknownTool { name, hint } => match hint {
                Some(h) => format!("unknown tool `{name}`; {h}"),
                None => format!("unknown tool `{name}`; call one of the tools in the tool list"),
            },
            CallError::InvalidArguments { tool, problems } => {
                format!("invalid arguments for `{tool}`: {}. Fix them and call again.", problems.join("; "))
            }
            CallError::Rejected { tool, message } => format!("`{tool}` refused the call: {message}"),
            CallError::Template { tool, error, .. } if error.out_of_fuel => {
                format!("`{tool}` could not prepare the call: its input template ran too long; try simpler arguments")
            }
            CallError::Template { tool, .. } => {
                format!("`{tool}` could not prepare the call because of a configuration problem; use another tool")
            }
        }
    }
}

impl MaskSet {
    /// Prepare a call of `tool` with the model's `args` (a JSON object, or null for none).
    pub fn prepare_call<'s>(
        &'s self,
        surface: &Surface,
        tool: &str,
        args: Value,
        ctx: &CallContext,
    ) -> Result<PreparedCall<'s>, CallError> {
        let unknown = || CallError::UnknownTool { name: tool.to_owned(), hint: surface.suggest(tool) };
        let listed = surface.find(tool).ok_or_else(unknown)?;
        let args = match args {
            Value::Null => Map::new(),
            Value::Object(m) => m,
            other => {
                return Err(CallError::InvalidArguments {
                    tool: tool.to_owned(),
                    problems: vec![format!("arguments must be an object, not {}", json_kind(&other))],
                });
            }
        };
        match &listed.target {
            Target::Upstream { upstream, tool: upstream_tool } => Ok(PreparedCall {
                tool: tool.to_owned(),
                mask: None,
                upstream: upstream.clone(),
                upstream_tool: upstream_tool.clone(),
                // Unmasked tools have no templates and no context: the upstream validates.
                arguments: Value::Object(args),
                shaper: &self.passthrough,
                media: self.defaults.media.over(MediaPolicy::default()),
                fixed: Vec::new(),
            }),
            Target::Mask(i) => {
                let mask = self.masks.get(*i).ok_or_else(unknown)?;
                self.prepare_mask(mask, surface, args, ctx)
            }
        }
    }

    /// The shaper of `tool` on `surface`, for shaping saved results offline. For a switch
    /// whose cases shape differently this is the mask-level plan; prepare a call to get a
    /// case's shaper.
    pub fn shaper(&self, surface: &Surface, tool: &str) -> Result<&Shaper, CallError> {
        let unknown = || CallError::UnknownTool { name: tool.to_owned(), hint: surface.suggest(tool) };
        match &surface.find(tool).ok_or_else(unknown)?.target {
            Target::Upstream { .. } => Ok(&self.passthrough),
            Target::Mask(i) => self.masks.get(*i).map(|m| &m.shaper).ok_or_else(unknown),
        }
    }

    fn prepare_mask<'s>(
        &'s self,
        mask: &'s CompiledMask,
        surface: &Surface,
        mut args: Map<String, Value>,
        ctx: &CallContext,
    ) -> Result<PreparedCall<'s>, CallError> {
        let invalid = |problems: Vec<String>| CallError::InvalidArguments { tool: mask.name.clone(), problems };
        if let Some(declared) = &mask.declared {
            let extra: Vec<String> = args.keys().filter(|k| !declared.contains(k)).cloned().collect();
            match mask.unknown {
                UnknownArguments::Ignore => {
                    for k in &extra {
                        args.remove(k);
                    }
                }
                UnknownArguments::Refuse if !extra.is_empty() => {
                    let problems = extra
                        .iter()
                        .take(MAX_PROBLEMS)
                        .map(|k| {
                            let hint = did_you_mean(k, declared.iter().map(String::as_str)).unwrap_or_else(|| {
                                if declared.is_empty() {
                                    "this tool takes no arguments".to_owned()
                                } else {
                                    format!("this tool takes: {}", declared.join(", "))
                                }
                            });
                            format!("unknown argument `{}` ({hint})", short(k))
                        })
                        .collect();
                    return Err(invalid(problems));
                }
                UnknownArguments::Refuse => {}
            }
        }
        let instance = Value::Object(args);
        let problems: Vec<String> = mask
            .validator
            .iter_errors(&instance)
            .take(MAX_PROBLEMS)
            .map(|e| {
                let at = e.instance_path().to_string();
                let field = at.trim_start_matches('/').replace('/', ".");
                let text = short(&e.to_string());
                if field.is_empty() { text } else { format!("`{field}`: {text}") }
            })
            .collect();
        if !problems.is_empty() {
            return Err(invalid(problems));
        }
        let Value::Object(mut args) = instance else { return Err(invalid(vec!["arguments must be an object".into()])) };
        for (k, v) in &mask.schema_defaults {
            args.entry(k.clone()).or_insert_with(|| v.clone());
        }

        let context = json!({
            "session": ctx.session,
            "principal": ctx.principal,
            "profile": surface.profile,
            "vars": self.context_vars,
            "env": self.context_env,
        });
        let root = json!({ "input": Value::Object(args.clone()), "context": context });
        let jinja = minijinja::Value::from(minijinja::value::Serde(&root));
        let template_error =
            |field: String, error: TemplateError| CallError::Template { tool: mask.name.clone(), field, error };

        if let Some(v) = &mask.validate {
            let text = self.templates.render_text(v, &jinja).map_err(|e| template_error("validate".into(), e))?;
            let text = text.trim();
            if !text.is_empty() {
                return Err(CallError::Rejected { tool: mask.name.clone(), message: text.to_owned() });
            }
        }

        let (call, shaper): (&HandlerCall, &Shaper) = match &mask.route {
            Route::One(call) => (call, &mask.shaper),
            Route::Switch { on, cases, default } => {
                let chosen = match args.get(on) {
                    None | Some(Value::Null) => default.clone(),
                    Some(Value::String(s)) => Some(s.clone()),
                    Some(other) => Some(other.to_string()),
                };
                let names = || cases.keys().cloned().collect::<Vec<_>>().join(", ");
                let Some(name) = chosen else {
                    return Err(invalid(vec![format!("`{on}` is required: one of {}", names())]));
                };
                let Some((call, case_shaper)) = cases.get(&name) else {
                    return Err(invalid(vec![format!("`{on}` is `{}`: use one of {}", short(&name), names())]));
                };
                (call, case_shaper.as_ref().unwrap_or(&mask.shaper))
            }
        };
        let arguments = eval_tree(&self.templates, &call.input, &jinja)
            .map_err(|(field, e)| template_error(field, e))?
            .unwrap_or_else(|| Value::Object(Map::new()));
        Ok(PreparedCall {
            tool: mask.name.clone(),
            mask: Some(&mask.name),
            upstream: call.upstream.clone(),
            upstream_tool: call.tool.clone(),
            arguments,
            shaper,
            media: mask.media,
            fixed: fixed_paths(&call.input),
        })
    }
}

/// Model-supplied text in messages is cut short: an error must not echo a huge argument.
fn short(s: &str) -> String {
    const MAX: usize = 120;
    if s.chars().count() > MAX { format!("{}…", s.chars().take(MAX).collect::<String>()) } else { s.to_owned() }
}
