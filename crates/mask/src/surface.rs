//! The tool surface: which tools a model sees under a profile, and how each is defined.
//!
//! A [`Surface`] is computed once per profile (and per change of the upstream tool lists)
//! by [`MaskSet::surface`]; calls are then routed through it, so a tool that is not on the
//! surface cannot be called, and is refused with the same error as a tool that does not
//! exist at all.

use std::collections::BTreeSet;

use serde::Serialize;
use serde_json::{Value, json};
use toolshape_tokens::Tokenizer;
use toolshape_trust::Hints;

use crate::compile::{MaskSet, entry_matches, namespaced};
use crate::config::ProfileTools;
use crate::error::did_you_mean;

/// A tool an upstream server lists (from its `tools/list`).
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct UpstreamTool {
    /// The upstream's name in the config.
    pub upstream: String,
    /// The tool name as the upstream spells it.
    pub name: String,
    /// The upstream's description.
    #[serde(default)]
    pub description: String,
    /// The upstream's input schema.
    #[serde(default, rename = "inputSchema")]
    pub input_schema: Value,
    /// The upstream's annotations (`readOnlyHint`, …), kept in the listing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Value>,
}

/// A tool definition as the model sees it (the MCP `Tool` fields toolshape lists).
/// No `outputSchema`: every result is an envelope, and an upstream's output schema would
/// make clients reject it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolDefinition {
    /// The tool name.
    pub name: String,
    /// What the model reads about it.
    pub description: String,
    /// JSON Schema of its arguments.
    #[serde(rename = "inputSchema")]
    pub input_schema: Value,
    /// Behaviour hints: an upstream tool's own annotations; for a mask, what can be said of
    /// every handler it may call (see `Hints::combine`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Value>,
}

impl ToolDefinition {
    /// The definition as MCP lists it: `{"name", "description", "inputSchema"}`, and
    /// `annotations` when there are any.
    pub fn to_json(&self) -> Value {
        let mut tool = json!({ "name": self.name, "description": self.description, "inputSchema": self.input_schema });
        if let (Some(annotations), Value::Object(members)) = (&self.annotations, &mut tool) {
            members.insert("annotations".into(), annotations.clone());
        }
        tool
    }

    /// The behaviour hints of the annotations.
    pub fn hints(&self) -> Hints {
        self.annotations.as_ref().map(Hints::from_annotations).unwrap_or_default()
    }

    /// What the definition costs in the model's context: the tokens of its compact JSON.
    pub fn tokens(&self, tokenizer: &Tokenizer) -> usize {
        tokenizer.count(&self.to_json().to_string())
    }
}

/// Where a listed tool's calls go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Target {
    /// The mask at this index of the mask set.
    Mask(usize),
    /// An upstream tool passed through unmasked.
    Upstream { upstream: String, tool: String },
}

/// One listed tool.
#[derive(Debug, Clone)]
pub(crate) struct Listed {
    pub(crate) definition: ToolDefinition,
    pub(crate) target: Target,
    /// Text for tool search only (the config's `search_hint`): never listed.
    pub(crate) search_hint: Option<String>,
}

/// The tools a model sees under one profile, and where their calls go. A surface belongs
/// to the [`MaskSet`] that made it: make a new one after recompiling the config.
#[derive(Debug, Clone)]
pub struct Surface {
    pub(crate) profile: Option<String>,
    pub(crate) tools: Vec<Listed>,
    pub(crate) notes: Vec<String>,
    /// Tools held back because a handler they call is held (not pinned as served now).
    pub(crate) held: Vec<Held>,
}

/// A tool the surface would list, held back because of one of its handlers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Held {
    /// The listed name.
    pub(crate) name: String,
    /// The held handler: upstream and tool.
    pub(crate) handler: (String, String),
}

impl Surface {
    /// The profile this surface was made for.
    pub fn profile(&self) -> Option<&str> {
        self.profile.as_deref()
    }

    /// The tool definitions, masks first (in config order), then unmasked upstream tools.
    pub fn definitions(&self) -> impl Iterator<Item = &ToolDefinition> {
        self.tools.iter().map(|t| &t.definition)
    }

    /// The definition of `name`, if it is on this surface.
    pub fn get(&self, name: &str) -> Option<&ToolDefinition> {
        self.find(name).map(|t| &t.definition)
    }

    /// How many tools are listed.
    pub fn len(&self) -> usize {
        self.tools.len()
    }

    /// Whether no tool is listed.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    /// The handler (upstream, tool) that holds `name` back, when the surface would list it
    /// but a handler it calls is held.
    pub fn held(&self, name: &str) -> Option<(&str, &str)> {
        self.held.iter().find(|h| h.name == name).map(|h| (h.handler.0.as_str(), h.handler.1.as_str()))
    }

    /// The config's `search_hint` for `name` (its mask's, or its upstream's for an unmasked
    /// tool): text to index for search, never to show.
    pub fn search_hint(&self, name: &str) -> Option<&str> {
        self.find(name).and_then(|t| t.search_hint.as_deref())
    }

    /// Upstream tools left off the surface because their names collided, one line each.
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// The total definition cost in tokens.
    pub fn tokens(&self, tokenizer: &Tokenizer) -> usize {
        self.definitions().map(|d| d.tokens(tokenizer)).sum()
    }

    pub(crate) fn find(&self, name: &str) -> Option<&Listed> {
        self.tools.iter().find(|t| t.definition.name == name)
    }

    /// "did you mean" among the tools on this surface only, so the hint never reveals a
    /// tool outside the profile.
    pub(crate) fn suggest(&self, name: &str) -> Option<String> {
        did_you_mean(name, self.tools.iter().map(|t| t.definition.name.as_str()))
    }
}

/// A profile that is not in the config.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown profile `{name}`{}", hint.as_ref().map(|h| format!("; {h}")).unwrap_or_default())]
pub struct UnknownProfile {
    /// The profile asked for.
    pub name: String,
    /// A suggestion, or the list of profiles.
    pub hint: Option<String>,
}

impl MaskSet {
    /// The surface a model sees under `profile` (`None`: every tool), given the tools the
    /// upstreams list. Masks come first, in config order; then each unmasked upstream tool,
    /// namespaced per the prefix policy, unless its upstream hides unmasked tools, a mask
    /// uses it as a handler, or its name collides with a tool already listed (see
    /// [`Surface::notes`]).
    pub fn surface(&self, profile: Option<&str>, upstream_tools: &[UpstreamTool]) -> Result<Surface, UnknownProfile> {
        self.surface_holding(profile, upstream_tools, &BTreeSet::new())
    }

    /// [`MaskSet::surface`], holding back every upstream tool in `held` (by upstream and
    /// tool name) and every mask that may call one: they are not listed, and
    /// [`Surface::held`] names the handler that holds each back.
    pub fn surface_holding(
        &self,
        profile: Option<&str>,
        upstream_tools: &[UpstreamTool],
        held: &BTreeSet<(String, String)>,
    ) -> Result<Surface, UnknownProfile> {
        let allowed: Option<&ProfileTools> = match profile {
            None => None,
            Some(p) => Some(self.profiles.get(p).ok_or_else(|| UnknownProfile {
                name: p.to_owned(),
                hint: did_you_mean(p, self.profiles.keys().map(String::as_str)).or_else(|| {
                    Some(if self.profiles.is_empty() {
                        "the config defines no profiles".to_owned()
                    } else {
                        format!(
                            "profiles: {}",
                            self.profiles.keys().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")
                        )
                    })
                }),
            })?),
        };
        let shows = |name: &str| match allowed.and_then(ProfileTools::names) {
            None => true,
            Some(entries) => entries.iter().any(|e| entry_matches(e, name)),
        };
        let read_only = allowed.is_some_and(ProfileTools::read_only);
        let mut tools = Vec::new();
        let mut notes = Vec::new();
        let mut holds = Vec::new();
        let mut taken = BTreeSet::new();
        for (i, mask) in self.masks.iter().enumerate() {
            taken.insert(mask.name.clone());
            if !shows(&mask.name) {
                continue;
            }
            let handlers = mask.handler_keys();
            if let Some(handler) = handlers.iter().find(|h| held.contains(h)) {
                holds.push(Held { name: mask.name.clone(), handler: handler.clone() });
                continue;
            }
            let hints = mask.hints(&handlers, upstream_tools);
            if read_only && !hints.is_read_only() {
                continue;
            }
            tools.push(Listed {
                definition: ToolDefinition {
                    name: mask.name.clone(),
                    description: mask.description.clone(),
                    input_schema: mask.input_schema.clone(),
                    annotations: hints.to_annotations(),
                },
                target: Target::Mask(i),
                search_hint: mask.search_hint.clone(),
            });
        }
        for tool in upstream_tools {
            if self.handlers.contains(&(tool.upstream.clone(), tool.name.clone())) {
                continue;
            }
            let Some(naming) = self.upstreams.get(&tool.upstream) else { continue };
            if !naming.expose {
                continue;
            }
            let name = namespaced(self.defaults.prefix, &self.defaults.prefix_separator, &naming.prefix, &tool.name);
            if !taken.insert(name.clone()) {
                notes.push(format!(
                    "upstream tool `{}/{}` is not listed: the name `{name}` is already taken",
                    tool.upstream, tool.name
                ));
                continue;
            }
            if !shows(&name) {
                continue;
            }
            if read_only && !tool.annotations.as_ref().is_some_and(|a| Hints::from_annotations(a).is_read_only()) {
                continue;
            }
            let key = (tool.upstream.clone(), tool.name.clone());
            if held.contains(&key) {
                holds.push(Held { name, handler: key });
                continue;
            }
            let input_schema =
                if tool.input_schema.is_object() { tool.input_schema.clone() } else { json!({"type": "object"}) };
            tools.push(Listed {
                definition: ToolDefinition {
                    name,
                    description: tool.description.clone(),
                    input_schema,
                    annotations: tool.annotations.clone(),
                },
                target: Target::Upstream { upstream: tool.upstream.clone(), tool: tool.name.clone() },
                search_hint: naming.search_hint.clone(),
            });
        }
        Ok(Surface { profile: profile.map(str::to_owned), tools, notes, held: holds })
    }
}
