//! Compiling a [`Config`] into a [`MaskSet`]: every template compiled, every input schema
//! turned into a validator, every result plan into a `Shaper`, and every cross-reference
//! (handler upstreams, profile tools, template variables, switch cases) checked, with all
//! problems reported together.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Value, json};
use toolshape_media::MediaPolicy;
use toolshape_shape::{PlanError, ShapePlan, Shaper};

use crate::config::{
    Config, Defaults, EnvLookup, Mask, PrefixPolicy, ProfileTools, UnknownArguments, backticked, is_name,
};
use crate::error::{ConfigError, ConfigErrors, did_you_mean, nearest};
use crate::search_hint::{clean_search_hint, search_hint_problem};
use crate::template::{ArgTree, TemplateError, TemplateRef, Templates, compile_tree, is_template, root_of};

/// The keys of `context` in templates.
pub const CONTEXT_KEYS: &[&str] = &["session", "profile", "principal", "vars", "env"];

/// A compiled config: the masks, ready to list and to call.
#[derive(Debug)]
pub struct MaskSet {
    pub(crate) masks: Vec<CompiledMask>,
    pub(crate) templates: Templates,
    pub(crate) defaults: Defaults,
    pub(crate) upstreams: BTreeMap<String, UpstreamNaming>,
    pub(crate) profiles: BTreeMap<String, ProfileTools>,
    pub(crate) context_vars: Value,
    pub(crate) context_env: Value,
    /// Shaping of unmasked tools.
    pub(crate) passthrough: Shaper,
    /// `(upstream, tool)` pairs some mask calls: never exposed unmasked.
    pub(crate) handlers: BTreeSet<(String, String)>,
    /// The argument guards and the repeat policy.
    pub(crate) trust: crate::trust::TrustPlan,
}

/// How an upstream's unmasked tools are named and whether they are shown.
#[derive(Debug, Clone)]
pub(crate) struct UpstreamNaming {
    pub(crate) expose: bool,
    pub(crate) prefix: String,
    /// Indexed for search with each unmasked tool, never shown.
    pub(crate) search_hint: Option<String>,
}

/// One compiled mask.
#[derive(Debug)]
pub(crate) struct CompiledMask {
    pub(crate) name: String,
    pub(crate) description: String,
    /// The input schema as listed to the model.
    pub(crate) input_schema: Value,
    pub(crate) validator: jsonschema::Validator,
    /// Top-level argument names, when the schema refuses others (the default).
    pub(crate) declared: Option<Vec<String>>,
    /// Schema defaults of top-level properties, filled in when the model leaves them out.
    pub(crate) schema_defaults: Vec<(String, Value)>,
    pub(crate) unknown: UnknownArguments,
    pub(crate) validate: Option<TemplateRef>,
    pub(crate) route: Route,
    pub(crate) shaper: Shaper,
    /// What the result's media may take (`result.media` over `defaults.media`).
    pub(crate) media: MediaPolicy,
    /// Indexed for search with the mask, never shown.
    pub(crate) search_hint: Option<String>,
}

/// Which handler a mask calls.
#[derive(Debug)]
pub(crate) enum Route {
    One(HandlerCall),
    Switch { on: String, cases: BTreeMap<String, (HandlerCall, Option<Shaper>)>, default: Option<String> },
}

/// A handler and the template of its arguments.
#[derive(Debug)]
pub(crate) struct HandlerCall {
    pub(crate) upstream: String,
    pub(crate) tool: String,
    pub(crate) input: ArgTree,
}

/// Load and compile a config in one step, reporting the problems of both at once.
pub fn load(text: &str, file: &str, lookup: EnvLookup<'_>) -> Result<(Config, MaskSet), ConfigErrors> {
    let (config, mut errors) = Config::parse_partial(text, file, lookup);
    let (set, more) = MaskSet::compile_partial(&config);
    errors.extend(more);
    if errors.is_empty() { Ok((config, set)) } else { Err(ConfigErrors::sorted(errors)) }
}

impl MaskSet {
    /// Compile `config`. Returns every problem found, each with its place in the file.
    pub fn compile(config: &Config) -> Result<MaskSet, ConfigErrors> {
        let (set, errors) = MaskSet::compile_partial(config);
        if errors.is_empty() { Ok(set) } else { Err(ConfigErrors::sorted(errors)) }
    }

    /// The defaults the set was compiled with.
    pub fn defaults(&self) -> &Defaults {
        &self.defaults
    }

    /// The profile names, sorted.
    pub fn profiles(&self) -> impl Iterator<Item = &str> {
        self.profiles.keys().map(String::as_str)
    }

    /// The mask names, in config order.
    pub fn mask_names(&self) -> impl Iterator<Item = &str> {
        self.masks.iter().map(|m| m.name.as_str())
    }

    /// The shaper for unmasked upstream tools.
    pub fn passthrough_shaper(&self) -> &Shaper {
        &self.passthrough
    }

    /// The upstreams a call to `tool` can reach, judged from the config alone: a mask's
    /// handlers, or the upstreams whose namespace prefix begins the name. `None` when the
    /// name alone cannot tell (unprefixed upstream tools). A gateway that does not know
    /// `tool` yet asks only these upstreams for their tools, so a call never waits for an
    /// unrelated upstream that is slow to start.
    pub fn upstreams_for(&self, tool: &str) -> Option<BTreeSet<String>> {
        if let Some(mask) = self.masks.iter().find(|m| m.name == tool) {
            let handlers: Vec<&HandlerCall> = match &mask.route {
                Route::One(call) => vec![call],
                Route::Switch { cases, .. } => cases.values().map(|(call, _)| call).collect(),
            };
            return Some(handlers.into_iter().map(|call| call.upstream.clone()).collect());
        }
        if self.defaults.prefix == PrefixPolicy::None {
            return None;
        }
        let separator = &self.defaults.prefix_separator;
        Some(
            self.upstreams
                .iter()
                .filter(|(_, naming)| {
                    naming.expose
                        && tool
                            .strip_prefix(naming.prefix.as_str())
                            .is_some_and(|rest| rest.starts_with(separator.as_str()))
                })
                .map(|(name, _)| name.clone())
                .collect(),
        )
    }

    pub(crate) fn compile_partial(config: &Config) -> (MaskSet, Vec<ConfigError>) {
        let mut errors = Vec::new();
        let defaults = config.defaults.clone();
        let mut templates = Templates::new(defaults.template_fuel);
        let passthrough_plan =
            ShapePlan { budget_tokens: defaults.budget_tokens, render: defaults.render, ..ShapePlan::default() };
        // A bad defaults budget was already reported while loading; fall back to the default
        // plan so the rest can still be checked. That plan always compiles (the shape crate
        // tests it), so the `expect` cannot fire.
        let passthrough = Shaper::new(passthrough_plan)
            .or_else(|_| Shaper::new(ShapePlan::default()))
            .expect("the default shaping plan compiles");

        let upstreams: BTreeMap<String, UpstreamNaming> = config
            .upstreams
            .iter()
            .map(|(name, up)| {
                let expose = up.expose_unmasked.unwrap_or(defaults.expose_unmasked);
                if let Some((message, hint)) = up.search_hint.as_deref().and_then(search_hint_problem) {
                    errors.push(config.error(&format!("upstreams.{name}.search_hint"), message).with_hint(Some(hint)));
                }
                let naming = UpstreamNaming {
                    expose,
                    prefix: up.prefix.clone().unwrap_or_else(|| name.clone()),
                    search_hint: clean_search_hint(up.search_hint.as_deref()),
                };
                (name.clone(), naming)
            })
            .collect();

        let mut masks = Vec::new();
        let mut handlers = BTreeSet::new();
        let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
        for (i, mask) in config.masks.iter().enumerate() {
            let path = format!("masks[{i}]");
            if let Some(first) = seen.get(mask.name.as_str()) {
                let first_line = config.position(&format!("masks[{first}].name")).map_or(0, |p| p.line);
                errors.push(
                    config
                        .error(
                            &format!("{path}.name"),
                            format!("duplicate mask name `{}` (first at line {first_line})", mask.name),
                        )
                        .with_hint(Some("give each mask its own name; many masks may share one handler".into())),
                );
            } else {
                seen.insert(&mask.name, i);
            }
            let mut cx = MaskCx { config, path: &path, mask, errors: &mut errors, templates: &mut templates };
            if let Some(compiled) = cx.compile() {
                match &compiled.route {
                    Route::One(call) => {
                        handlers.insert((call.upstream.clone(), call.tool.clone()));
                    }
                    Route::Switch { cases, .. } => {
                        for (call, _) in cases.values() {
                            handlers.insert((call.upstream.clone(), call.tool.clone()));
                        }
                    }
                }
                masks.push(compiled);
            }
        }

        check_profiles(config, &upstreams, &handlers, &mut errors);
        let trust = crate::trust::TrustPlan::compile(config, &mut errors);

        let context_vars = serde_json::to_value(&config.vars).unwrap_or(Value::Null);
        let context_env = serde_json::to_value(&config.meta.env).unwrap_or(Value::Null);
        let set = MaskSet {
            masks,
            templates,
            defaults,
            upstreams,
            profiles: config.profiles.clone(),
            context_vars,
            context_env,
            passthrough,
            handlers,
            trust,
        };
        (set, errors)
    }
}

/// The namespaced name of an unmasked upstream tool.
pub(crate) fn namespaced(policy: PrefixPolicy, separator: &str, prefix: &str, tool: &str) -> String {
    let raw = match policy {
        PrefixPolicy::Upstream => format!("{prefix}{separator}{tool}"),
        PrefixPolicy::None => tool.to_owned(),
    };
    // Clients refuse names with other characters; the call is routed by the surface, so
    // the listed name need not be the upstream's exact spelling.
    raw.chars().map(|c| if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') { c } else { '_' }).collect()
}

/// Whether a profile entry (a name, or a prefix ending in `*`) matches `tool`.
pub(crate) fn entry_matches(entry: &str, tool: &str) -> bool {
    match entry.strip_suffix('*') {
        Some(prefix) => tool.starts_with(prefix),
        None => entry == tool,
    }
}

fn check_profiles(
    config: &Config,
    upstreams: &BTreeMap<String, UpstreamNaming>,
    handlers: &BTreeSet<(String, String)>,
    errors: &mut Vec<ConfigError>,
) {
    let defaults = &config.defaults;
    let mask_names: Vec<&str> = config.masks.iter().map(|m| m.name.as_str()).collect();
    let handler_names: BTreeMap<String, String> = handlers
        .iter()
        .filter_map(|(up, tool)| {
            let naming = upstreams.get(up)?;
            Some((
                namespaced(defaults.prefix, &defaults.prefix_separator, &naming.prefix, tool),
                format!("{up}/{tool}"),
            ))
        })
        .collect();
    let exposed_prefixes: Vec<String> =
        upstreams.values().filter(|u| u.expose).map(|u| format!("{}{}", u.prefix, defaults.prefix_separator)).collect();
    let any_unprefixed = defaults.prefix == PrefixPolicy::None && upstreams.values().any(|u| u.expose);
    for (profile, tools) in &config.profiles {
        let Some(names) = tools.names() else { continue };
        for (i, name) in names.iter().enumerate() {
            let path = if tools.read_only() {
                format!("profiles.{profile}.tools[{i}]")
            } else {
                format!("profiles.{profile}[{i}]")
            };
            if name.ends_with('*') || mask_names.contains(&name.as_str()) || config.meta.broken_masks.contains(name) {
                continue;
            }
            if let Some(handler) = handler_names.get(name) {
                errors.push(
                    config
                        .error(&path, format!("profile `{profile}` names `{name}`, but `{handler}` is a mask handler, so it is not listed unmasked"))
                        .with_hint(Some("name the masks over it instead".into())),
                );
                continue;
            }
            // Unmasked upstream tools are known only once the upstream runs; a name under an
            // exposed upstream's prefix may be one of them.
            if any_unprefixed || exposed_prefixes.iter().any(|p| name.starts_with(p.as_str())) {
                continue;
            }
            let hint = did_you_mean(name, mask_names.iter().copied()).or_else(|| {
                let mut known = mask_names.clone();
                known.truncate(12);
                Some(if known.is_empty() {
                    "define a mask with that name first".to_owned()
                } else {
                    format!("tools defined here: {}", backticked(&known))
                })
            });
            errors.push(
                config.error(&path, format!("profile `{profile}` names `{name}`, which is not a tool")).with_hint(hint),
            );
        }
    }
}

struct MaskCx<'a> {
    config: &'a Config,
    path: &'a str,
    mask: &'a Mask,
    errors: &'a mut Vec<ConfigError>,
    templates: &'a mut Templates,
}

impl MaskCx<'_> {
    fn err(&mut self, sub: &str, message: String, hint: Option<String>) {
        let path = if sub.is_empty() { self.path.to_owned() } else { format!("{}.{sub}", self.path) };
        self.errors.push(self.config.error(&path, message).with_hint(hint));
    }

    fn compile(&mut self) -> Option<CompiledMask> {
        let mask = self.mask;
        let before = self.errors.len();
        if !is_name(&mask.name) {
            self.err(
                "name",
                format!("mask name `{}` is not a valid tool name", mask.name),
                Some("use 1 to 64 letters, digits, `_` or `-`, like `open_issues`".into()),
            );
        }
        if mask.description.trim().is_empty() {
            self.err(
                "description",
                "the description is empty; it is all the model knows about the tool".into(),
                Some("say what the tool returns and when to use it".into()),
            );
        }
        let schema = self.input_schema();
        let declared = schema.as_ref().and_then(|(_, d, _)| d.clone());
        let props: Option<BTreeSet<String>> = declared.as_ref().map(|d| d.iter().cloned().collect());

        let prefix = format!("{}#{}", mask.name, self.path);
        let route = self.route(&prefix, props.as_ref(), schema.as_ref().map(|(s, _, _)| s));
        let validate = mask.validate.as_ref().and_then(|src| {
            if !is_template(src) && !src.trim().is_empty() {
                self.err(
                    "validate",
                    "`validate` has no template syntax, so it would refuse every call".into(),
                    Some("write a condition: `{% if input.n > 50 %}n: at most 50{% endif %}`".into()),
                );
                return None;
            }
            self.template(&prefix, "validate", src, props.as_ref())
        });
        let shaper = self.shaper("result", mask.result.as_ref(), props.as_ref());
        if let Some((message, hint)) = mask.search_hint.as_deref().and_then(search_hint_problem) {
            self.err("search_hint", message, Some(hint));
        }
        if self.errors.len() > before {
            return None;
        }
        let (input_schema, _, validator) = schema?;
        let validator = validator?;
        Some(CompiledMask {
            name: mask.name.clone(),
            description: mask.description.trim().to_owned(),
            schema_defaults: schema_defaults(&input_schema),
            input_schema,
            validator,
            declared,
            unknown: mask.unknown_arguments,
            validate,
            route: route?,
            shaper: shaper?,
            media: mask.media.unwrap_or_default().over(self.config.defaults.media.over(MediaPolicy::default())),
            search_hint: clean_search_hint(mask.search_hint.as_deref()),
        })
    }

    /// The listed schema, the declared top-level names (when others are refused), and the
    /// validator.
    #[allow(clippy::type_complexity)]
    fn input_schema(&mut self) -> Option<(Value, Option<Vec<String>>, Option<jsonschema::Validator>)> {
        let schema = self.mask.input_schema.clone().unwrap_or_else(|| json!({"type": "object", "properties": {}}));
        let Some(obj) = schema.as_object() else {
            self.err(
                "input_schema",
                "input_schema is not a mapping".into(),
                Some("write `input_schema: { type: object, properties: { … } }`".into()),
            );
            return None;
        };
        if obj.get("type") != Some(&json!("object")) {
            self.err(
                "input_schema",
                "input_schema must describe an object (`type: object`): tool arguments are always an object".into(),
                Some("add `type: object` and list the arguments under `properties`".into()),
            );
            return None;
        }
        let props: Vec<String> =
            obj.get("properties").and_then(Value::as_object).map(|p| p.keys().cloned().collect()).unwrap_or_default();
        if let Some(required) = obj.get("required").and_then(Value::as_array) {
            for (i, r) in required.iter().enumerate() {
                if let Some(r) = r.as_str()
                    && !props.iter().any(|p| p == r)
                {
                    let hint = did_you_mean(r, props.iter().map(String::as_str))
                        .or_else(|| Some(format!("add `{r}` under `properties`, or remove it from `required`")));
                    self.err(
                        &format!("input_schema.required[{i}]"),
                        format!("`{r}` is required but not a property"),
                        hint,
                    );
                }
            }
        }
        const OPEN: &[&str] =
            &["additionalProperties", "patternProperties", "unevaluatedProperties", "allOf", "anyOf", "oneOf", "$ref"];
        let closed = !OPEN.iter().any(|k| obj.contains_key(*k));
        let mut validating = schema.clone();
        if closed && let Some(o) = validating.as_object_mut() {
            o.insert("additionalProperties".into(), Value::Bool(false));
        }
        let validator = match jsonschema::validator_for(&validating) {
            Ok(v) => Some(v),
            Err(e) => {
                let at = schema_location(&schema, &e.instance_path().to_string());
                let sub = if at.is_empty() { "input_schema".to_owned() } else { format!("input_schema.{at}") };
                let sub = sub.replace(".[", "[");
                self.err(
                    &sub,
                    format!("input_schema is not a valid JSON Schema: {e}"),
                    Some("write JSON Schema, like `{type: object, properties: {label: {type: string}}}`; `type` is one of string, number, integer, boolean, object, array, null".into()),
                );
                None
            }
        };
        Some((schema, closed.then_some(props), validator))
    }

    fn handler(&mut self, sub: &str, handler: &str) -> Option<(String, String)> {
        let config = self.config;
        let Some((up, tool)) = handler.split_once('/').filter(|(u, t)| !u.is_empty() && !t.is_empty()) else {
            self.err(
                sub,
                format!("handler `{handler}` is not `upstream/tool`"),
                Some("write it like `github/list_issues`".into()),
            );
            return None;
        };
        if !config.upstreams.contains_key(up) && !config.meta.broken_upstreams.contains(up) {
            let hint = did_you_mean(up, config.upstreams.keys().map(String::as_str)).or_else(|| {
                Some(if config.upstreams.is_empty() {
                    format!("add it under `upstreams:`, like `{up}: {{ command: [...] }}`")
                } else {
                    format!(
                        "upstreams defined here: {}",
                        config.upstreams.keys().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")
                    )
                })
            });
            self.err(sub, format!("handler `{handler}` names upstream `{up}`, which is not defined"), hint);
            return None;
        }
        Some((up.to_owned(), tool.to_owned()))
    }

    fn route(&mut self, prefix: &str, props: Option<&BTreeSet<String>>, schema: Option<&Value>) -> Option<Route> {
        let mask = self.mask;
        match (&mask.handler, &mask.switch) {
            (Some(_), Some(_)) => {
                self.err(
                    "switch",
                    "a mask has both `handler` and `switch`".into(),
                    Some("keep `handler` for one upstream tool, or `switch` to pick one per input value".into()),
                );
                None
            }
            (None, None) => {
                self.err(
                    "",
                    "a mask needs a `handler`".into(),
                    Some("add `handler: upstream/tool`, like `github/list_issues`".into()),
                );
                None
            }
            (Some(handler), None) => {
                let target = self.handler("handler", handler);
                let input = self.arg_tree(prefix, "handler_input", &mask.handler_input, props);
                let (upstream, tool) = target?;
                Some(Route::One(HandlerCall { upstream, tool, input: input? }))
            }
            (None, Some(switch)) => {
                if !mask.handler_input.is_empty() {
                    self.err(
                        "handler_input",
                        "with `switch`, each case has its own `handler_input`".into(),
                        Some("move these values into the cases".into()),
                    );
                }
                let on = switch.on.strip_prefix("input.").unwrap_or(&switch.on).to_owned();
                let prop_schema = schema.and_then(|s| s.get("properties")).and_then(|p| p.get(&on));
                match prop_schema {
                    None => {
                        let hint = props.and_then(|p| did_you_mean(&on, p.iter().map(String::as_str))).or_else(|| {
                            Some(format!("add `{on}` to input_schema.properties, with an `enum` of the case names"))
                        });
                        self.err("switch.on", format!("switch on `{on}`, which input_schema does not declare"), hint);
                    }
                    Some(ps) => {
                        if let Some(values) = ps.get("enum").and_then(Value::as_array) {
                            let names: Vec<String> = values
                                .iter()
                                .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned))
                                .collect();
                            let missing: Vec<&str> =
                                names.iter().filter(|n| !switch.cases.contains_key(*n)).map(String::as_str).collect();
                            if !missing.is_empty() {
                                self.err(
                                    "switch.cases",
                                    format!("switch on `{on}` has no case for {}", backticked(&missing)),
                                    Some("add a case for every value of the enum, or remove the value from it".into()),
                                );
                            }
                            for case in switch.cases.keys() {
                                if !names.contains(case) {
                                    self.err(
                                        &format!("switch.cases.{case}"),
                                        format!("case `{case}` is not a value of `{on}`'s enum"),
                                        did_you_mean(case, names.iter().map(String::as_str))
                                            .or_else(|| Some(format!("add `{case}` to the enum of `{on}`"))),
                                    );
                                }
                            }
                        }
                        let required = schema
                            .and_then(|s| s.get("required"))
                            .and_then(Value::as_array)
                            .is_some_and(|r| r.iter().any(|v| v.as_str() == Some(on.as_str())));
                        if !required && ps.get("default").is_none() && switch.default.is_none() {
                            self.err(
                                "switch",
                                format!("the model may leave `{on}` out, and the switch has no case for that"),
                                Some(format!("add `{on}` to input_schema.required, give it a `default`, or add `default: <case>` to the switch")),
                            );
                        }
                    }
                }
                if let Some(d) = &switch.default
                    && !switch.cases.contains_key(d)
                {
                    let hint = did_you_mean(d, switch.cases.keys().map(String::as_str));
                    self.err("switch.default", format!("default case `{d}` is not one of the cases"), hint);
                }
                if switch.cases.is_empty() {
                    self.err("switch.cases", "a switch without cases".into(), Some("add one case per value".into()));
                }
                let mut cases = BTreeMap::new();
                let mut ok = true;
                for (name, case) in &switch.cases {
                    let sub = format!("switch.cases.{name}");
                    let target = self.handler(&format!("{sub}.handler"), &case.handler);
                    let input = self.arg_tree(
                        &format!("{prefix}:{name}"),
                        &format!("{sub}.handler_input"),
                        &case.handler_input,
                        props,
                    );
                    let shaper = match &case.result {
                        Some(plan) => self.shaper(&format!("{sub}.result"), Some(plan), props).map(Some),
                        None => Some(None),
                    };
                    match (target, input, shaper) {
                        (Some((upstream, tool)), Some(input), Some(shaper)) => {
                            cases.insert(name.clone(), (HandlerCall { upstream, tool, input }, shaper));
                        }
                        _ => ok = false,
                    }
                }
                ok.then(|| Route::Switch { on, cases, default: switch.default.clone() })
            }
        }
    }

    fn arg_tree(
        &mut self,
        prefix: &str,
        field: &str,
        input: &serde_json::Map<String, Value>,
        props: Option<&BTreeSet<String>>,
    ) -> Option<ArgTree> {
        let mut vars = Vec::new();
        let mut errs = Vec::new();
        let tree = compile_tree(self.templates, prefix, field, &Value::Object(input.clone()), &mut vars, &mut errs);
        let ok = errs.is_empty();
        for (f, e) in errs {
            self.template_error(&f, &e);
        }
        let mut vars_ok = true;
        for (f, used) in vars {
            vars_ok &= self.check_vars(&f, &used, props);
        }
        (ok && vars_ok).then_some(tree)
    }

    fn template(
        &mut self,
        prefix: &str,
        field: &str,
        src: &str,
        props: Option<&BTreeSet<String>>,
    ) -> Option<TemplateRef> {
        match self.templates.add(&format!("{prefix}:{field}"), field, src) {
            Ok((t, used)) => self.check_vars(field, &used, props).then_some(t),
            Err(e) => {
                self.template_error(field, &e);
                None
            }
        }
    }

    fn template_error(&mut self, field: &str, e: &TemplateError) {
        let line = e.line.map(|l| format!(", line {l} of the template")).unwrap_or_default();
        let name = self.mask.name.clone();
        self.err(
            field,
            format!("template error in mask `{name}`, `{field}`{line}: {}", e.detail),
            Some("fix the Jinja syntax; quote the whole value in YAML: `\"{{ input.x }}\"`".into()),
        );
    }

    /// Check that every variable a template reads exists. Returns whether all do.
    fn check_vars(&mut self, field: &str, used: &BTreeSet<String>, props: Option<&BTreeSet<String>>) -> bool {
        let mut ok = true;
        let config = self.config;
        for var in used {
            let parts: Vec<&str> = var.split('.').collect();
            let problem: Option<(String, Option<String>)> = match root_of(var) {
                "input" => match (parts.get(1), props) {
                    (Some(name), Some(props)) if !props.contains(*name) => Some((
                        format!("template reads `input.{name}`, which input_schema does not declare"),
                        nearest(name, props.iter().map(String::as_str))
                            .map(|n| format!("did you mean `input.{n}`?"))
                            .or_else(|| Some(format!("add `{name}` to input_schema.properties"))),
                    )),
                    _ => None,
                },
                "context" => match parts.get(1).copied() {
                    None => None,
                    Some("vars") => match parts.get(2) {
                        Some(v) if !config.vars.contains_key(*v) => Some((
                            format!("template reads `context.vars.{v}`, which `vars` does not define"),
                            did_you_mean(v, config.vars.keys().map(String::as_str))
                                .or_else(|| Some(format!("add `{v}: …` under `vars:`"))),
                        )),
                        _ => None,
                    },
                    Some("env") => match parts.get(2) {
                        Some(v) if !config.allowed_env.iter().any(|a| a == v) => Some((
                            format!("template reads `context.env.{v}`, which `allowed_env` does not list"),
                            Some(format!("add `{v}` to `allowed_env` (only listed variables are visible)")),
                        )),
                        _ => None,
                    },
                    Some(k) if CONTEXT_KEYS.contains(&k) => None,
                    Some(k) => Some((
                        format!("template reads `context.{k}`, which does not exist"),
                        did_you_mean(k, CONTEXT_KEYS.iter().copied())
                            .or_else(|| Some(format!("context has {}", backticked(CONTEXT_KEYS)))),
                    )),
                },
                other => Some((
                    format!("template reads `{other}`, which is not defined"),
                    Some("templates see `input.*` (the model's arguments) and `context.*` (session, profile, principal, vars, env)".into()),
                )),
            };
            if let Some((message, hint)) = problem {
                let name = self.mask.name.clone();
                self.err(field, format!("mask `{name}`, `{field}`: {message}"), hint);
                ok = false;
            }
        }
        ok
    }

    fn shaper(&mut self, sub: &str, plan: Option<&ShapePlan>, props: Option<&BTreeSet<String>>) -> Option<Shaper> {
        let plan = plan.cloned().unwrap_or_default();
        if let (Some(narrow), Some(props)) = (&plan.narrow_by, props)
            && !props.contains(narrow)
        {
            self.err(
                &format!("{sub}.narrow_by"),
                format!("narrow_by names `{narrow}`, which is not an argument of this mask"),
                did_you_mean(narrow, props.iter().map(String::as_str)),
            );
        }
        let budget_inherited = !self.config.meta.positions.contains_key(&format!("{}.{sub}.budget_tokens", self.path))
            && plan.budget_tokens == self.config.defaults.budget_tokens
            && self.config.defaults.budget_tokens < toolshape_shape::MIN_BUDGET_TOKENS;
        match Shaper::new(plan) {
            Ok(s) => Some(s),
            // A budget this result did not write is `defaults.budget_tokens`, already reported
            // there: one problem, reported once, where it is written.
            Err(PlanError::BudgetTooLow(_)) if budget_inherited => None,
            Err(e) => {
                let (key, hint) = match &e {
                    PlanError::BudgetTooLow(_) => ("budget_tokens", "raise `budget_tokens`"),
                    PlanError::SortFansOut(_) => ("sort.by", "sort by one value per record"),
                    PlanError::Redact(_) => ("redact", "fix the pattern (Rust `regex` syntax)"),
                };
                // One problem, one line: some messages (regex errors) span several.
                let message = e.to_string().split_whitespace().collect::<Vec<_>>().join(" ");
                self.err(&format!("{sub}.{key}"), message, Some(hint.into()));
                None
            }
        }
    }
}

/// The dotted config path of a JSON pointer into `schema` (`/properties/a/type` →
/// `properties.a.type`, array indexes as `[n]`).
fn schema_location(schema: &Value, pointer: &str) -> String {
    let mut out = String::new();
    let mut cur = Some(schema);
    for seg in pointer.split('/').filter(|s| !s.is_empty()) {
        let seg = seg.replace("~1", "/").replace("~0", "~");
        match cur {
            Some(Value::Array(items)) => {
                out.push_str(&format!("[{seg}]"));
                cur = seg.parse::<usize>().ok().and_then(|i| items.get(i));
            }
            _ => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(&seg);
                cur = cur.and_then(|c| c.get(&seg));
            }
        }
    }
    out
}

fn schema_defaults(schema: &Value) -> Vec<(String, Value)> {
    schema
        .get("properties")
        .and_then(Value::as_object)
        .map(|props| props.iter().filter_map(|(k, v)| v.get("default").map(|d| (k.clone(), d.clone()))).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The gateway shares one mask set across tasks and threads.
    #[test]
    fn mask_sets_and_surfaces_are_send_and_sync() {
        fn assert_send_sync<T: Send + Sync>() {}
        assert_send_sync::<MaskSet>();
        assert_send_sync::<crate::Surface>();
        assert_send_sync::<Config>();
    }

    #[test]
    fn namespacing_replaces_characters_clients_refuse() {
        assert_eq!(namespaced(PrefixPolicy::Upstream, "_", "slack", "list channels"), "slack_list_channels");
        assert_eq!(namespaced(PrefixPolicy::None, "_", "slack", "a/b"), "a_b");
        assert!(entry_matches("github_*", "github_create_issue"));
        assert!(!entry_matches("github_*", "gitlab_x"));
        assert!(entry_matches("x", "x") && !entry_matches("x", "xy"));
    }
}
