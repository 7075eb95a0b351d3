//! Sandboxed Jinja templates (minijinja) for `handler_input` and `validate`.
//!
//! The sandbox: no loader (so no file access; minijinja has no network access at all), a
//! fuel budget per render that bounds its time and memory (an endless loop stops with "ran
//! out of fuel", it does not hang), a recursion limit, no auto-escaping, and templates that
//! see only `input` (the model's validated arguments) and `context` (values the system sets).
//! Model-supplied strings are data: a value containing `{{ … }}` is never rendered again.
//!
//! # How a value becomes a handler argument
//!
//! - A string without `{{`, `{%` or `{#` is a literal, sent as written; so is every non-string
//!   YAML value (`per_page: 20` is the number 20). These are the fixed values.
//! - A string that is exactly one expression, `"{{ input.limit }}"`, keeps the expression's
//!   type: limit 5 gives the number 5, a list stays a list, a string stays a string (even
//!   `"42"`).
//! - Any other template renders to text. If the text (trimmed) is JSON other than a string
//!   (a number, `true`/`false`, `null`, a list or an object), it becomes that value; otherwise
//!   it is the trimmed text. To force text, use one expression: `"{{ x | string }}"`.
//! - An empty result leaves the parameter out: an expression that is undefined, `none` or an
//!   empty string, or a text template that renders to only whitespace. This is how an
//!   optional input the model did not give is left out of the handler call.

use std::collections::BTreeSet;

use minijinja::{AutoEscape, Environment, UndefinedBehavior};
use serde_json::Value;

/// Recursion limit for templates (macros, nested blocks).
pub const TEMPLATE_RECURSION_LIMIT: usize = 100;

/// How a template is evaluated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// One `{{ expression }}`: typed result.
    Expr,
    /// Anything else: text, typed when it is JSON other than a string.
    Text,
}

/// A compiled template, by its name in the environment.
#[derive(Debug, Clone)]
pub(crate) struct TemplateRef {
    pub(crate) name: String,
    pub(crate) kind: Kind,
    /// Where the template sits in the mask (`handler_input.labels`), for messages.
    pub(crate) field: String,
}

/// A handler argument tree: literals and templates.
#[derive(Debug, Clone)]
pub(crate) enum ArgTree {
    Literal(Value),
    Template(TemplateRef),
    Object(Vec<(String, ArgTree)>),
    Array(Vec<ArgTree>),
}

/// A template that does not compile, or fails when rendered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{detail}")]
pub struct TemplateError {
    /// Line within the template, from 1, when minijinja knows it.
    pub line: Option<usize>,
    /// What went wrong.
    pub detail: String,
    /// Whether the render ran out of fuel.
    pub out_of_fuel: bool,
}

impl TemplateError {
    fn from_jinja(e: &minijinja::Error) -> TemplateError {
        let mut detail = e.kind().to_string();
        if let Some(d) = e.detail() {
            detail.push_str(": ");
            detail.push_str(d);
        }
        TemplateError { line: e.line(), detail, out_of_fuel: e.kind() == minijinja::ErrorKind::OutOfFuel }
    }
}

/// Whether `s` holds template syntax.
pub(crate) fn is_template(s: &str) -> bool {
    s.contains("{{") || s.contains("{%") || s.contains("{#")
}

/// The expression of a template that is exactly one `{{ … }}`, if it is.
pub(crate) fn single_expression(s: &str) -> Option<&str> {
    let t = s.trim();
    let inner = t.strip_prefix("{{")?.strip_suffix("}}")?;
    if inner.contains("{{") || inner.contains("}}") || inner.contains("{%") || inner.contains("{#") {
        return None;
    }
    let inner = inner.strip_prefix(['-', '+']).unwrap_or(inner);
    let inner = inner.strip_suffix(['-', '+']).unwrap_or(inner);
    (!inner.trim().is_empty()).then_some(inner)
}

/// The template environment of one mask set.
pub(crate) struct Templates {
    env: Environment<'static>,
}

impl std::fmt::Debug for Templates {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Templates").field("count", &self.env.templates().count()).finish()
    }
}

impl Templates {
    /// A sandboxed environment with `fuel` per render.
    pub(crate) fn new(fuel: u64) -> Templates {
        let mut env = Environment::new();
        env.set_fuel(Some(fuel));
        env.set_recursion_limit(TEMPLATE_RECURSION_LIMIT);
        env.set_auto_escape_callback(|_| AutoEscape::None);
        // Chainable: `input.filter.label` is simply undefined when `filter` was not given,
        // so optional nested inputs need no guards; misspelled names are caught at compile
        // time against the input schema instead.
        env.set_undefined_behavior(UndefinedBehavior::Chainable);
        Templates { env }
    }

    /// Compile `source` under `name`; returns the variables it reads (`input.label`).
    pub(crate) fn add(
        &mut self,
        name: &str,
        field: &str,
        source: &str,
    ) -> Result<(TemplateRef, BTreeSet<String>), TemplateError> {
        let (kind, text) = match single_expression(source) {
            // The expression's value is carried out as JSON so its type survives rendering.
            Some(expr) => (Kind::Expr, format!("{{{{ ({expr}) | tojson }}}}")),
            None => (Kind::Text, source.to_owned()),
        };
        self.env.add_template_owned(name.to_owned(), text).map_err(|e| TemplateError::from_jinja(&e))?;
        let tmpl = self.env.get_template(name).map_err(|e| TemplateError::from_jinja(&e))?;
        let globals: BTreeSet<String> = self.env.globals().map(|(n, _)| n.to_owned()).collect();
        let vars = tmpl.undeclared_variables(true).into_iter().filter(|v| !globals.contains(root_of(v))).collect();
        Ok((TemplateRef { name: name.to_owned(), kind, field: field.to_owned() }, vars))
    }

    /// Render `t` over `ctx`; `None` means "leave the parameter out".
    pub(crate) fn eval(&self, t: &TemplateRef, ctx: &minijinja::Value) -> Result<Option<Value>, TemplateError> {
        let tmpl = self.env.get_template(&t.name).map_err(|e| TemplateError::from_jinja(&e))?;
        let text = tmpl.render(ctx).map_err(|e| TemplateError::from_jinja(&e))?;
        Ok(match t.kind {
            Kind::Expr => match serde_json::from_str::<Value>(&text) {
                Ok(Value::Null) => None,
                Ok(Value::String(s)) if s.is_empty() => None,
                Ok(v) => Some(v),
                Err(e) => {
                    return Err(TemplateError {
                        line: None,
                        detail: format!("the expression's value is not JSON: {e}"),
                        out_of_fuel: false,
                    });
                }
            },
            Kind::Text => typed_text(&text),
        })
    }

    /// Render `t` as plain text (for `validate`).
    pub(crate) fn render_text(&self, t: &TemplateRef, ctx: &minijinja::Value) -> Result<String, TemplateError> {
        let tmpl = self.env.get_template(&t.name).map_err(|e| TemplateError::from_jinja(&e))?;
        tmpl.render(ctx).map_err(|e| TemplateError::from_jinja(&e))
    }
}

/// The first segment of a variable path (`input` of `input.label`).
pub(crate) fn root_of(var: &str) -> &str {
    var.split('.').next().unwrap_or(var)
}

/// Text output: empty means absent; JSON other than a string is that value.
fn typed_text(text: &str) -> Option<Value> {
    let t = text.trim();
    if t.is_empty() {
        return None;
    }
    match serde_json::from_str::<Value>(t) {
        Ok(Value::String(_)) | Err(_) => Some(Value::String(t.to_owned())),
        Ok(v) => Some(v),
    }
}

/// Build the argument tree of `value`, compiling every template in it.
pub(crate) fn compile_tree(
    templates: &mut Templates,
    prefix: &str,
    field: &str,
    value: &Value,
    vars: &mut Vec<(String, BTreeSet<String>)>,
    errors: &mut Vec<(String, TemplateError)>,
) -> ArgTree {
    match value {
        Value::String(s) if is_template(s) => {
            let name = format!("{prefix}:{field}");
            match templates.add(&name, field, s) {
                Ok((t, used)) => {
                    vars.push((field.to_owned(), used));
                    ArgTree::Template(t)
                }
                Err(e) => {
                    errors.push((field.to_owned(), e));
                    ArgTree::Literal(Value::Null)
                }
            }
        }
        Value::Object(map) => ArgTree::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), compile_tree(templates, prefix, &format!("{field}.{k}"), v, vars, errors)))
                .collect(),
        ),
        Value::Array(items) => ArgTree::Array(
            items
                .iter()
                .enumerate()
                .map(|(i, v)| compile_tree(templates, prefix, &format!("{field}[{i}]"), v, vars, errors))
                .collect(),
        ),
        other => ArgTree::Literal(other.clone()),
    }
}

/// Evaluate an argument tree; `None` when it is left out.
pub(crate) fn eval_tree(
    templates: &Templates,
    tree: &ArgTree,
    ctx: &minijinja::Value,
) -> Result<Option<Value>, (String, TemplateError)> {
    Ok(match tree {
        ArgTree::Literal(v) => Some(v.clone()),
        ArgTree::Template(t) => templates.eval(t, ctx).map_err(|e| (t.field.clone(), e))?,
        ArgTree::Object(entries) => {
            let mut map = serde_json::Map::new();
            for (k, sub) in entries {
                if let Some(v) = eval_tree(templates, sub, ctx)? {
                    map.insert(k.clone(), v);
                }
            }
            Some(Value::Object(map))
        }
        ArgTree::Array(items) => {
            let mut out = Vec::with_capacity(items.len());
            for sub in items {
                if let Some(v) = eval_tree(templates, sub, ctx)? {
                    out.push(v);
                }
            }
            Some(Value::Array(out))
        }
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn ctx(v: Value) -> minijinja::Value {
        minijinja::Value::from(minijinja::value::Serde(&v))
    }

    #[test]
    fn single_expressions_are_recognised() {
        assert_eq!(single_expression("{{ input.limit }}"), Some(" input.limit "));
        assert_eq!(single_expression(" {{- input.limit -}} "), Some(" input.limit "));
        assert_eq!(single_expression("x{{ a }}"), None);
        assert_eq!(single_expression("{{ a }}{{ b }}"), None);
        assert_eq!(single_expression("{{ }}"), None);
    }

    #[test]
    fn values_keep_their_types() {
        let mut t = Templates::new(10_000);
        let c = ctx(json!({"input": {"limit": 5, "label": "42", "tags": ["a"], "empty": ""}}));
        let mut eval = |src: &str| {
            let name = format!("t{}", src.len());
            let (r, _) = t.add(&name, "f", src).unwrap();
            t.eval(&r, &c).unwrap()
        };
        assert_eq!(eval("{{ input.limit }}"), Some(json!(5)));
        assert_eq!(eval("{{ input.label }}"), Some(json!("42")));
        assert_eq!(eval("{{ input.tags }}"), Some(json!(["a"])));
        assert_eq!(eval("{{ input.missing }}"), None);
        assert_eq!(eval("{{ input.empty }}"), None);
        assert_eq!(eval("{% if input.limit %}{{ input.limit * 2 }}{% endif %}"), Some(json!(10)));
        assert_eq!(eval("is:{{ input.label }}"), Some(json!("is:42")));
        assert_eq!(eval("{% if input.missing %}x{% endif %}   "), None);
        assert_eq!(eval("{{ input.tags | length }} tags"), Some(json!("1 tags")));
    }

    #[test]
    fn model_text_is_never_rendered_again() {
        let mut t = Templates::new(10_000);
        let c = ctx(json!({"input": {"q": "{{ context.secret }}"}, "context": {"secret": "s3cr3t"}}));
        let (r, _) = t.add("q", "q", "{{ input.q }}").unwrap();
        assert_eq!(t.eval(&r, &c).unwrap(), Some(json!("{{ context.secret }}")));
        let (r, _) = t.add("q2", "q", "search {{ input.q }}").unwrap();
        assert_eq!(t.eval(&r, &c).unwrap(), Some(json!("search {{ context.secret }}")));
    }

    #[test]
    fn runaway_templates_stop() {
        let mut t = Templates::new(10_000);
        let c = ctx(json!({}));
        let (r, _) = t
            .add("loop", "f", "{% for i in range(100000) %}{% for j in range(100000) %}x{% endfor %}{% endfor %}")
            .unwrap();
        let err = t.eval(&r, &c).unwrap_err();
        assert!(err.out_of_fuel, "{err:?}");
        let (r, _) = t.add("rec", "f", "{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}").unwrap();
        let err = t.eval(&r, &c).unwrap_err();
        assert!(err.detail.contains("recursion") || err.out_of_fuel, "{err:?}");
    }

    #[test]
    fn undeclared_variables_are_reported() {
        let mut t = Templates::new(10_000);
        let (_, vars) =
            t.add("v", "f", "{{ input.label }}{% for x in range(3) %}{{ context.vars.org }}{% endfor %}").unwrap();
        assert!(vars.contains("input.label"), "{vars:?}");
        assert!(vars.contains("context.vars.org"), "{vars:?}");
        assert!(!vars.iter().any(|v| v == "range"), "{vars:?}");
        let err = t.add("bad", "f", "line one\n{% if %}").unwrap_err();
        assert_eq!(err.line, Some(2));
    }
}
