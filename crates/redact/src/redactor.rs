//! [`Redactor`]: a [`RedactSpec`] compiled once and applied to text and JSON values.

use std::borrow::Cow;

use regex::Regex;
use serde_json::Value;

use crate::detectors;
use crate::kinds::{BUILTIN_KINDS, Kind, placeholder_for};
use crate::mask::{inside_placeholder, overlaps_partial_mask, partial, partial_email};
use crate::scan::{Candidates, Needs};
use crate::text::{self, Finding, Rule};
use crate::value;
use crate::{RedactError, RedactSpec, RedactStyle, RedactionCounts};

/// Passes over a text before giving up on reaching a fixpoint. Each pass only runs when the
/// previous one replaced something, and real text settles after one or two.
const MAX_PASSES: usize = 8;

/// A user-defined pattern, compiled.
#[derive(Debug, Clone)]
struct CustomRule {
    name: String,
    placeholder: String,
    regex: Regex,
    /// Whether it only ever matches inside one line (see [`crate::window`]).
    line_local: bool,
}

/// Finds and replaces secrets and personal data in text and JSON values.
///
/// Built once per [`RedactSpec`] (compiling custom patterns), then cheap to share: it is
/// `Clone`, `Send` and `Sync`, and every method takes `&self`.
#[derive(Debug, Clone)]
pub struct Redactor {
    /// Enabled built-in detectors that work on text (all but `secret_field`), in tie order.
    text_kinds: Vec<Kind>,
    /// The prefilter searches those detectors need.
    needs: Needs,
    secret_fields: bool,
    custom: Vec<CustomRule>,
    style: RedactStyle,
}

impl Redactor {
    /// Compiles a spec: checks `disable` against the built-in kinds and compiles every custom
    /// pattern.
    pub fn new(spec: &RedactSpec) -> Result<Redactor, RedactError> {
        let mut disabled = Vec::with_capacity(spec.disable.len());
        for name in &spec.disable {
            let kind = Kind::from_name(name.trim())
                .ok_or_else(|| RedactError::UnknownKind { kind: name.clone(), valid: BUILTIN_KINDS.join(", ") })?;
            disabled.push(kind);
        }
        let enabled: Vec<Kind> =
            if spec.builtins { Kind::ALL.into_iter().filter(|k| !disabled.contains(k)).collect() } else { Vec::new() };
        let mut custom = Vec::with_capacity(spec.patterns.len());
        for (index, pattern) in spec.patterns.iter().enumerate() {
            let name = pattern.name.trim();
            if name.is_empty() {
                return Err(RedactError::EmptyPatternName { index });
            }
            let regex = Regex::new(&pattern.pattern)
                .map_err(|e| RedactError::InvalidPattern { name: name.to_owned(), message: e.to_string() })?;
            if regex.is_match("") {
                return Err(RedactError::EmptyMatch { name: name.to_owned() });
            }
            let line_local = crate::window::line_local(&pattern.pattern);
            custom.push(CustomRule { name: name.to_owned(), placeholder: placeholder_for(name), regex, line_local });
        }
        let text_kinds: Vec<Kind> = enabled.iter().copied().filter(|k| *k != Kind::SecretField).collect();
        Ok(Redactor {
            secret_fields: enabled.contains(&Kind::SecretField),
            needs: Needs::of(&text_kinds),
            text_kinds,
            custom,
            style: spec.style,
        })
    }

    /// A redactor that changes nothing (spec with builtins off and no patterns).
    pub fn none() -> Redactor {
        Redactor {
            text_kinds: Vec::new(),
            needs: Needs::default(),
            secret_fields: false,
            custom: Vec::new(),
            style: RedactStyle::Placeholder,
        }
    }

    /// True when this redactor can never change anything.
    pub fn is_noop(&self) -> bool {
        !self.secret_fields && !self.has_text_detectors()
    }

    /// The replacement style.
    pub fn style(&self) -> RedactStyle {
        self.style
    }

    /// The kinds this redactor can report: enabled built-ins, then custom pattern names.
    pub fn kinds(&self) -> Vec<&str> {
        let mut kinds: Vec<&str> = self.text_kinds.iter().map(|k| k.name()).collect();
        if self.secret_fields {
            kinds.push(Kind::SecretField.name());
        }
        kinds.extend(self.custom.iter().map(|c| c.name.as_str()));
        kinds
    }

    /// Replace every finding in text; borrowed when nothing was found.
    ///
    /// Replacing can make new neighbours: once `…Z92000 0000 0000 0006` has become
    /// `sk-****2000 0000 0000 0006`, the tail reads as a card number. So the output is redacted
    /// again until nothing more is found (a few passes at most), which makes redaction
    /// idempotent by construction: what this returns has nothing left to find.
    pub fn redact_text<'t>(&self, text: &'t str, counts: &mut RedactionCounts) -> Cow<'t, str> {
        if text.is_empty() || !self.has_text_detectors() {
            return Cow::Borrowed(text);
        }
        let Some(mut current) = self.redact_once(text, counts) else {
            return Cow::Borrowed(text);
        };
        for _ in 1..MAX_PASSES {
            match self.redact_once(&current, counts) {
                Some(next) => current = next,
                None => break,
            }
        }
        Cow::Owned(current)
    }

    /// One pass of every detector; `None` when nothing was found.
    ///
    /// The built-in detectors share one prefilter pass ([`Candidates`]) and then look only
    /// where it found something; custom patterns search the whole text.
    fn redact_once(&self, text: &str, counts: &mut RedactionCounts) -> Option<String> {
        let candidates = Candidates::of(text, self.needs);
        let mut findings: Vec<Finding> = Vec::new();
        if !candidates.is_empty() {
            for &kind in &self.text_kinds {
                detectors::find(kind, text, &candidates, &mut findings);
            }
        }
        for (i, rule) in self.custom.iter().enumerate() {
            for m in rule.regex.find_iter(text) {
                if !m.is_empty() {
                    findings.push(Finding::whole(m.start(), m.end(), Rule::Custom(i)));
                }
            }
        }
        if findings.is_empty() {
            return None;
        }
        text::apply(self, text, findings, counts)
    }

    /// Walk a JSON value (iteratively: values may nest thousands deep) and redact every string,
    /// plus the whole value of any object member whose key names a secret; object keys are left
    /// as they are.
    pub fn redact_value(&self, value: &mut Value, counts: &mut RedactionCounts) {
        value::walk(self, value, counts);
    }

    /// Redact `value` as if it were found under object key `key` (used when a single field is
    /// looked at out of its record, e.g. a sort key).
    pub fn redact_field(&self, key: &str, value: &mut Value, counts: &mut RedactionCounts) {
        if self.secret_fields && value::is_secret_member(key, value) {
            value::hide_secret(value, counts);
        } else {
            self.redact_value(value, counts);
        }
    }

    /// Replace a whole value found at a user-declared field path: placeholder `[<KIND>]` or a
    /// partial mask per style; counts under `kind`.
    ///
    /// Null, booleans and empty strings, arrays and objects are left alone (nothing to hide), and
    /// so is a value that already is this kind's placeholder or a partial mask, so masking twice
    /// counts once.
    pub fn mask_whole(&self, kind: &str, value: &mut Value, counts: &mut RedactionCounts) {
        if !value::has_content(value) {
            return;
        }
        let placeholder = placeholder_for(kind);
        let always_placeholder = Kind::from_name(kind).is_some_and(Kind::always_placeholder);
        if let Value::String(s) = value {
            if *s == placeholder {
                return;
            }
            if self.style == RedactStyle::Partial && !always_placeholder && (s.contains("****") || s.contains("***@")) {
                return;
            }
        }
        let masked = match (&*value, self.style) {
            (_, RedactStyle::Placeholder) => None,
            (_, RedactStyle::Partial) if always_placeholder => None,
            (Value::String(s), RedactStyle::Partial) if kind == "email" && s.contains('@') => partial_email(s),
            (Value::String(s), RedactStyle::Partial) => partial(s),
            (Value::Number(n), RedactStyle::Partial) => partial(&n.to_string()),
            _ => None,
        };
        *value = Value::String(masked.unwrap_or(placeholder));
        counts.add(kind, 1);
    }

    pub(crate) fn has_text_detectors(&self) -> bool {
        !self.text_kinds.is_empty() || !self.custom.is_empty()
    }

    /// Whether every custom pattern only ever matches inside one line.
    pub(crate) fn custom_line_local(&self) -> bool {
        self.custom.iter().all(|c| c.line_local)
    }

    /// Whether the built-in text detector `kind` is on.
    pub(crate) fn finds_kind(&self, kind: Kind) -> bool {
        self.text_kinds.contains(&kind)
    }

    pub(crate) fn secret_fields_enabled(&self) -> bool {
        self.secret_fields
    }

    /// The kind name a rule counts under.
    pub(crate) fn rule_name(&self, rule: Rule) -> &str {
        match rule {
            Rule::Builtin(kind) => kind.name(),
            Rule::Custom(i) => self.custom.get(i).map_or("custom", |c| c.name.as_str()),
        }
    }

    /// What `matched` becomes; with `force_placeholder` the placeholder even in partial style.
    pub(crate) fn replacement(&self, rule: Rule, matched: &str, force_placeholder: bool) -> String {
        let (placeholder, kind) = match rule {
            Rule::Builtin(kind) => (kind.placeholder(), Some(kind)),
            Rule::Custom(i) => (self.custom.get(i).map_or("[CUSTOM]", |c| c.placeholder.as_str()), None),
        };
        if self.style == RedactStyle::Partial && !force_placeholder && !kind.is_some_and(Kind::always_placeholder) {
            let masked = if kind == Some(Kind::Email) { partial_email(matched) } else { partial(matched) };
            if let Some(masked) = masked {
                return masked;
            }
        }
        placeholder.to_owned()
    }

    /// Whether `s` is a placeholder this redactor (or any built-in kind) writes.
    pub(crate) fn is_known_placeholder(&self, s: &str) -> bool {
        Kind::ALL.iter().any(|k| k.placeholder() == s) || self.custom.iter().any(|c| c.placeholder == s)
    }

    /// Whether a finding lies inside earlier output of redaction, where matching again would
    /// mask the mask. Only custom patterns can match inside a partial mask.
    pub(crate) fn is_protected(&self, text: &str, finding: &Finding) -> bool {
        let (start, end) = (finding.start, finding.end);
        if inside_placeholder(text, start, end, |s| self.is_known_placeholder(s)) {
            return true;
        }
        self.style == RedactStyle::Partial
            && matches!(finding.rule, Rule::Custom(_))
            && overlaps_partial_mask(text, start, end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send_sync<T: Send + Sync + Clone + std::fmt::Debug>() {}

    #[test]
    fn redactor_is_shareable() {
        assert_send_sync::<Redactor>();
    }

    #[test]
    fn none_is_noop() {
        let r = Redactor::none();
        assert!(r.is_noop());
        let mut counts = RedactionCounts::default();
        assert!(matches!(r.redact_text("a@b.com", &mut counts), Cow::Borrowed(_)));
        assert!(counts.is_empty());
    }
}
