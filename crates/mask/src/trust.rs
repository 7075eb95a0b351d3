//! The masks' side of trust at the tool boundary: which handlers a mask may call (a mask is
//! held while any of them is), what its annotations can honestly say, and which of its
//! handler arguments are fixed by the config (and so exempt from the argument guard).

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Serialize};
use toolshape_redact::BUILTIN_KINDS;
use toolshape_trust::{
    ArgPath, ArgumentGuard, DEFAULT_GUARD_KINDS, GuardError, GuardSpec, Hints, MAX_REPEAT_LIMIT, OnChange,
    RepeatPolicy, Step,
};

use crate::compile::{CompiledMask, MaskSet, Route};
use crate::config::Config;
use crate::error::ConfigError;
use crate::surface::UpstreamTool;
use crate::template::ArgTree;

/// The `pin:` section: where the lock file is and what to do with tools that differ from it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct PinConfig {
    /// The lock file, relative to the config's folder (default `toolshape.lock`).
    pub file: Option<String>,
    /// What to do with a tool that is new or differs from the lock: `quarantine` (not
    /// listed, calls refused), `warn` (listed, logged) or `off`. Default: `quarantine` when
    /// the lock file exists.
    #[schemars(schema_with = "on_change_schema")]
    pub on_change: Option<OnChange>,
}

fn on_change_schema(_: &mut SchemaGenerator) -> Schema {
    json_schema!({
        "description": "What to do with a tool that is new or differs from the lock file: `quarantine` (not listed, calls refused until `toolshape pin --approve`), `warn` (listed, logged) or `off`.",
        "type": ["string", "null"],
        "enum": ["quarantine", "warn", "off", null]
    })
}

/// The `guard:` block (of `defaults` or of a mask): `toolshape_trust::GuardSpec`.
pub(crate) fn guard_schema(_: &mut SchemaGenerator) -> Schema {
    let mut schema = guard_object();
    schema
        .insert("description".into(), "What the argument guard does with secrets found in a call's arguments.".into());
    schema
}

/// A mask's `guard:`, which may be left out.
pub(crate) fn optional_guard_schema(_: &mut SchemaGenerator) -> Schema {
    json_schema!({
        "description": "This mask's argument guard, replacing `defaults.guard` whole.",
        "anyOf": [guard_object(), { "type": "null" }]
    })
}

fn guard_object() -> Schema {
    json_schema!({
        "type": "object",
        "additionalProperties": false,
        "properties": {
            "arguments": {
                "description": "`block` refuses the call naming the kind found, `redact` replaces it with its placeholder, `warn` sends it and logs, `off` does not look.",
                "type": "string",
                "enum": ["block", "redact", "warn", "off"],
                "default": "warn"
            },
            "kinds": {
                "description": "The built-in detector kinds to look for; the high-confidence ones when left out.",
                "type": ["array", "null"],
                "items": { "type": "string", "enum": BUILTIN_KINDS },
                "default": DEFAULT_GUARD_KINDS
            },
            "patterns": {
                "description": "Extra patterns, each a `name` and a Rust `regex` `pattern`.",
                "type": "array",
                "items": {
                    "type": "object",
                    "additionalProperties": false,
                    "required": ["name", "pattern"],
                    "properties": { "name": { "type": "string" }, "pattern": { "type": "string" } }
                }
            }
        }
    })
}

/// What the config decided about the argument guard and repeated calls, compiled.
#[derive(Debug)]
pub(crate) struct TrustPlan {
    /// `defaults.guard`: every unmasked tool, and masks without a `guard` of their own.
    default_guard: ArgumentGuard,
    /// Masks with a `guard` of their own, by name.
    mask_guards: BTreeMap<String, ArgumentGuard>,
    /// Masks declared `idempotent: false`.
    non_idempotent: BTreeSet<String>,
    /// `defaults.repeat_limit` and `defaults.repeat_window`.
    repeat: RepeatPolicy,
}

impl TrustPlan {
    /// Compiles the guards of the defaults and of every mask; a spec that cannot be used is
    /// reported at its place in the file.
    pub(crate) fn compile(config: &Config, errors: &mut Vec<ConfigError>) -> TrustPlan {
        let defaults = &config.defaults;
        let default_guard = compile_guard(config, &defaults.guard, "defaults.guard", errors);
        let mut mask_guards = BTreeMap::new();
        let mut non_idempotent = BTreeSet::new();
        for (i, mask) in config.masks.iter().enumerate() {
            if let Some(spec) = &mask.guard {
                let guard = compile_guard(config, spec, &format!("masks[{i}].guard"), errors);
                mask_guards.insert(mask.name.clone(), guard);
            }
            if mask.idempotent == Some(false) {
                non_idempotent.insert(mask.name.clone());
            }
        }
        if defaults.repeat_limit > MAX_REPEAT_LIMIT {
            errors.push(
                config.error("defaults.repeat_limit", format!("repeat_limit is {}", defaults.repeat_limit)).with_hint(
                    Some(format!(
                        "use at most {MAX_REPEAT_LIMIT} (the default is 3), or 0 to answer every repeat in full"
                    )),
                ),
            );
        }
        if defaults.repeat_limit > 0 && defaults.repeat_window == 0 {
            errors.push(
                config
                    .error("defaults.repeat_window", "repeat_window is 0 seconds, so no call would ever be a repeat")
                    .with_hint(Some(
                        "use a number of seconds such as 60, or `repeat_limit: 0` to turn this off".into(),
                    )),
            );
        }
        let repeat = RepeatPolicy {
            limit: defaults.repeat_limit.min(MAX_REPEAT_LIMIT),
            window: Duration::from_secs(defaults.repeat_window),
        };
        TrustPlan { default_guard, mask_guards, non_idempotent, repeat }
    }
}

/// Compiles one guard spec; a problem is reported at `path` and the guard is off.
fn compile_guard(config: &Config, spec: &GuardSpec, path: &str, errors: &mut Vec<ConfigError>) -> ArgumentGuard {
    match ArgumentGuard::new(spec) {
        Ok(guard) => guard,
        Err(e) => {
            let (at, message, hint) = match &e {
                GuardError::UnknownKind { kind, .. } => {
                    let index = spec.kinds.iter().flatten().position(|k| k == kind).unwrap_or(0);
                    let hint = crate::error::did_you_mean(kind, BUILTIN_KINDS.iter().copied())
                        .unwrap_or_else(|| format!("valid kinds are {}", BUILTIN_KINDS.join(", ")));
                    (format!("{path}.kinds[{index}]"), format!("unknown kind `{kind}`"), hint)
                }
                GuardError::Pattern(inner) => {
                    (format!("{path}.patterns"), inner.to_string(), "fix the pattern, or remove it".to_owned())
                }
            };
            errors.push(config.error(&at, message).with_hint(Some(hint)));
            ArgumentGuard::off()
        }
    }
}

impl MaskSet {
    /// The argument guard for a call of `mask` (`None`: an unmasked tool).
    pub fn guard_for(&self, mask: Option<&str>) -> &ArgumentGuard {
        mask.and_then(|m| self.trust.mask_guards.get(m)).unwrap_or(&self.trust.default_guard)
    }

    /// When a call counts as a repeat.
    pub fn repeat_policy(&self) -> RepeatPolicy {
        self.trust.repeat
    }

    /// The upstream tools behind a tool name as `toolshape pin --approve` takes it: a mask
    /// (every handler it may call), an unmasked tool's listed name, or `upstream/tool`.
    /// Empty when the name is none of these.
    pub fn handlers_of(&self, name: &str, upstream_tools: &[UpstreamTool]) -> Vec<(String, String)> {
        if let Some(mask) = self.masks.iter().find(|m| m.name == name) {
            return mask.handler_keys();
        }
        if let Ok(surface) = self.surface(None, upstream_tools)
            && let Some(listed) = surface.find(name)
            && let crate::surface::Target::Upstream { upstream, tool } = &listed.target
        {
            return vec![(upstream.clone(), tool.clone())];
        }
        match name.split_once('/') {
            Some((upstream, tool)) if self.upstreams.contains_key(upstream) => {
                vec![(upstream.to_owned(), tool.to_owned())]
            }
            _ => Vec::new(),
        }
    }

    /// Whether `mask` is declared non-idempotent (`idempotent: false`), so a repeated call
    /// of it always runs.
    pub fn declares_non_idempotent(&self, mask: &str) -> bool {
        self.trust.non_idempotent.contains(mask)
    }
}

impl CompiledMask {
    /// Every handler the mask may call, as (upstream, tool), each once.
    pub(crate) fn handler_keys(&self) -> Vec<(String, String)> {
        let mut keys: Vec<(String, String)> = match &self.route {
            Route::One(call) => vec![(call.upstream.clone(), call.tool.clone())],
            Route::Switch { cases, .. } => {
                cases.values().map(|(call, _)| (call.upstream.clone(), call.tool.clone())).collect()
            }
        };
        keys.sort();
        keys.dedup();
        keys
    }

    /// The hints a mask over `handlers` can claim, from what the upstreams listed: only what
    /// holds for every handler (a handler not listed yet makes its part unknown).
    pub(crate) fn hints(&self, handlers: &[(String, String)], upstream_tools: &[UpstreamTool]) -> Hints {
        Hints::combine(handlers.iter().map(|(upstream, tool)| {
            upstream_tools
                .iter()
                .find(|t| &t.upstream == upstream && &t.name == tool)
                .and_then(|t| t.annotations.as_ref())
                .map(Hints::from_annotations)
                .unwrap_or_default()
        }))
    }
}

/// The places in a handler's arguments that only the config decides: members whose whole
/// value is literal (no template anywhere inside), reached through object members only.
///
/// Array elements are never exempt by position: a template element left out shifts the
/// elements after it, and a model-made value could then land on a literal's index.
pub(crate) fn fixed_paths(tree: &ArgTree) -> Vec<ArgPath> {
    let mut out = Vec::new();
    let mut stack: Vec<(&ArgTree, ArgPath)> = vec![(tree, ArgPath::root())];
    while let Some((node, path)) = stack.pop() {
        if let ArgTree::Object(members) = node {
            for (key, member) in members {
                let at = path.child(Step::Key(key.clone()));
                if is_literal(member) {
                    out.push(at);
                } else {
                    stack.push((member, at));
                }
            }
        }
    }
    out.sort();
    out
}

/// Whether a tree holds no template at all.
fn is_literal(tree: &ArgTree) -> bool {
    let mut stack = vec![tree];
    while let Some(node) = stack.pop() {
        match node {
            ArgTree::Literal(_) => {}
            ArgTree::Template(_) => return false,
            ArgTree::Object(members) => stack.extend(members.iter().map(|(_, m)| m)),
            ArgTree::Array(items) => stack.extend(items.iter()),
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::load;

    fn mask_set(handler_input: serde_json::Value) -> crate::MaskSet {
        let yaml = format!(
            "upstreams: {{ gh: {{ command: [x] }} }}\nmasks:\n  - name: m\n    handler: gh/t\n    description: d\n    \
             input_schema: {{ type: object, properties: {{ q: {{ type: string }} }} }}\n    handler_input: {handler_input}\n"
        );
        load(&yaml, "t.yaml", &|_| None).map(|(_, set)| set).expect("config loads")
    }

    #[test]
    fn only_wholly_literal_members_are_fixed() {
        let set = mask_set(json!({
            "owner": "acme", "limit": 5, "query": "{{ input.q }}", "text": "repo:{{ input.q }}",
            "opts": {"auth": {"token": "fixed"}, "mixed": ["a", "{{ input.q }}"], "list": ["x", "y"]}
        }));
        let Route::One(call) = &set.masks[0].route else { panic!("one handler") };
        let fixed: Vec<String> = fixed_paths(&call.input).iter().map(ToString::to_string).collect();
        assert_eq!(fixed, ["limit", "opts.auth", "opts.list", "owner"]);
    }

    #[test]
    fn mask_hints_hold_for_every_handler() {
        let set = mask_set(json!({"q": "{{ input.q }}"}));
        let mask = &set.masks[0];
        let handlers = mask.handler_keys();
        assert_eq!(handlers, [("gh".to_owned(), "t".to_owned())]);
        let listed = |annotations| UpstreamTool {
            upstream: "gh".into(),
            name: "t".into(),
            description: String::new(),
            input_schema: json!({}),
            annotations,
        };
        let reader = listed(Some(json!({"readOnlyHint": true})));
        assert!(mask.hints(&handlers, &[reader]).is_read_only());
        assert!(!mask.hints(&handlers, &[listed(None)]).is_read_only());
        assert!(!mask.hints(&handlers, &[]).is_read_only());
    }
}
