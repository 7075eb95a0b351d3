//! The shaping plan: every step a mask can declare for its results, as plain data.
//!
//! A plan is what a mask's `result:` block deserializes into, and what the CLI builds from
//! its flags. Unknown keys are refused so a typo in a config is an error, not a no-op.
//! `ShapePlan::default()` is the shaping an unmasked tool gets: auto-located records,
//! built-in redaction, 4,000 tokens, compact JSON.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use toolshape_redact::RedactSpec;

use crate::aggregate::AggregateSpec;
use crate::path::{FieldPath, PathError};

/// The budget an unmasked tool gets.
pub const DEFAULT_BUDGET_TOKENS: usize = 4000;

/// Everything a mask declares about its results. Every step is optional.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ShapePlan {
    /// What kind of answer the model gets.
    pub form: Form,
    /// Where the records are (`$.items`); found automatically when absent.
    pub records: Option<FieldPath>,
    /// What to redact before anything is stored, counted or shown.
    pub redact: RedactSpec,
    /// Extra field paths whose whole value is replaced (`customer.ssn`).
    pub redact_fields: Vec<FieldPath>,
    /// Field paths to keep, with optional renames (`user.login as author`). Empty keeps all.
    pub project: Vec<Projection>,
    /// Token caps for free-text fields, by output name (`body: 80`).
    pub field_tokens: BTreeMap<String, usize>,
    /// A cap for every string field not named in `field_tokens`.
    pub default_field_tokens: Option<usize>,
    /// An RFC 9535 filter expression over each record (`@.state == 'open'`).
    pub filter: Option<Filter>,
    /// Sort key and order.
    pub sort: Option<SortSpec>,
    /// Count, group, stats and recent share.
    pub aggregate: Option<AggregateSpec>,
    /// The most tokens the rendered result may take, delimiters included.
    pub budget_tokens: usize,
    /// Compact JSON (default) or terse prose.
    pub render: RenderMode,
    /// How text results are cut.
    pub text: TextSpec,
    /// What the records are called in summaries (`issues`).
    pub noun: Option<String>,
    /// For `form: expect_one`: the argument that would narrow several matches to one.
    pub narrow_by: Option<String>,
    /// What the shaping decides from the data when the plan names no fields.
    pub auto: AutoSpec,
}

impl Default for ShapePlan {
    fn default() -> Self {
        ShapePlan {
            form: Form::Records,
            records: None,
            redact: RedactSpec::default(),
            redact_fields: Vec::new(),
            project: Vec::new(),
            field_tokens: BTreeMap::new(),
            default_field_tokens: None,
            filter: None,
            sort: None,
            aggregate: None,
            budget_tokens: DEFAULT_BUDGET_TOKENS,
            render: RenderMode::Json,
            text: TextSpec::default(),
            noun: None,
            narrow_by: None,
            auto: AutoSpec::default(),
        }
    }
}

impl ShapePlan {
    /// Whether an object that is mostly one long string (4 KB or more, at least half the
    /// object) is read as that text. Only when the plan says nothing about the result's
    /// fields (no projection, no field caps): a plan that declares them keeps the object an
    /// object, so upstream data alone can never step around its bounds.
    pub fn reads_objects_as_text(&self) -> bool {
        self.project.is_empty() && self.field_tokens.is_empty() && self.default_field_tokens.is_none()
    }

    /// The plan that reads pages of a stored snapshot made under `self`: the records there
    /// are already redacted, projected, filtered and sorted, so only the caps, budget and
    /// rendering remain.
    pub fn for_pages(&self) -> ShapePlan {
        ShapePlan {
            form: Form::Records,
            records: None,
            redact: RedactSpec { builtins: false, ..RedactSpec::default() },
            redact_fields: Vec::new(),
            project: Vec::new(),
            filter: None,
            sort: None,
            aggregate: None,
            narrow_by: None,
            field_tokens: self.field_tokens.clone(),
            default_field_tokens: self.default_field_tokens,
            budget_tokens: self.budget_tokens,
            render: self.render,
            text: self.text.clone(),
            noun: self.noun.clone(),
            // Pages look like the first read: a plan that named its fields keeps them.
            auto: if self.decides_fields() { self.auto } else { AutoSpec::OFF },
        }
    }

    /// Whether the data decides what records show: the plan names no fields to keep.
    pub fn decides_fields(&self) -> bool {
        self.project.is_empty() && self.form == Form::Records
    }

    /// The word for records in summaries.
    pub fn noun(&self) -> &str {
        self.noun.as_deref().unwrap_or("records")
    }
}

/// What the shaping decides from the data when a plan does not say (no `project`). Each
/// part can be turned off; all are on by default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AutoSpec {
    /// Compact records: leave out links, empty and repeated values and second ids,
    /// collapse nested objects to the value that names them, cut long text.
    pub compact: bool,
    /// Show records that share their fields as a table (field names once, then rows).
    pub table: bool,
    /// Count values and find extremes over every record, in the summary.
    pub facets: bool,
    /// Give structured text a map (headings, files and hunks, columns, landmarks).
    pub outline: bool,
    /// Page into a field too large for one page instead of cutting it.
    pub enter: bool,
    /// Show the end of the result in the first read: the last record of a list, the last
    /// lines of a text.
    pub tail: bool,
    /// In a first read that cannot show every record whole, list the records after its
    /// rows by their key and a few short columns (`data.index`).
    pub index: bool,
    /// With facets, the largest and smallest number or time among the records of each
    /// value fewer than half hold of their first field of few values ("the oldest open
    /// one", "the latest that failed").
    pub states: bool,
    /// With an outline, end a text's map with its words counted by the lines that hold them
    /// (`words by lines, most first: ENOENT 74, …`).
    pub words: bool,
}

impl Default for AutoSpec {
    fn default() -> Self {
        AutoSpec {
            compact: true,
            table: true,
            facets: true,
            outline: true,
            enter: true,
            tail: true,
            index: true,
            states: true,
            words: true,
        }
    }
}

impl AutoSpec {
    /// Everything off: records as they come, text by lines only.
    pub const OFF: AutoSpec = AutoSpec {
        compact: false,
        table: false,
        facets: false,
        outline: false,
        enter: false,
        tail: false,
        index: false,
        states: false,
        words: false,
    };
}

/// The kinds of answer a mask can give.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Form {
    /// Records (or text) fitted to the budget.
    #[default]
    Records,
    /// The tool changes state: the model gets "switch_light succeeded", not JSON.
    Status,
    /// Store the whole result; return a handle and a short summary.
    Reference,
    /// Exactly one record is expected; several give `ambiguous`.
    ExpectOne,
}

/// How the envelope is written for the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RenderMode {
    /// Compact JSON.
    #[default]
    Json,
    /// Terse prose: one line per key, records as JSON lines, text as is.
    Prose,
}

/// How text results are cut.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TextSpec {
    /// Keep lines from the head, or from head and tail.
    pub keep: TextKeep,
    /// Add a log level count when the text looks like a log. Unset: counted, over a large
    /// text's head and tail only (the summary says which lines), so that the cost follows
    /// the budget; `true`: over every line, whatever the text's size (a pass over all of
    /// it); `false`: not counted.
    pub log_levels: Option<bool>,
}

impl Default for TextSpec {
    fn default() -> Self {
        TextSpec { keep: TextKeep::Head, log_levels: None }
    }
}

/// Which lines of a text survive a cut.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TextKeep {
    /// The first lines.
    #[default]
    Head,
    /// The first and the last lines, the middle omitted.
    HeadTail,
}

/// One projected field: a path and the name it gets in the output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Projection {
    /// Where the value comes from.
    pub path: FieldPath,
    /// The output key.
    pub name: String,
}

impl FromStr for Projection {
    type Err = PathError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (path_text, name) = match s.rsplit_once(" as ") {
            Some((p, n)) if !n.trim().is_empty() => (p.trim(), n.trim().to_owned()),
            _ => (s.trim(), String::new()),
        };
        let path = FieldPath::parse(path_text)?;
        let name = if name.is_empty() { path.as_str().to_owned() } else { name };
        Ok(Projection { path, name })
    }
}

impl fmt::Display for Projection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.name == self.path.as_str() {
            write!(f, "{}", self.path)
        } else {
            write!(f, "{} as {}", self.path, self.name)
        }
    }
}

impl Serialize for Projection {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Projection {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// A compiled RFC 9535 filter, applied to one record at a time.
#[derive(Clone)]
pub struct Filter {
    text: String,
    query: serde_json_path::JsonPath,
}

/// A filter expression that does not compile.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "invalid filter `{text}`: {reason} (write an RFC 9535 filter over one record, like `@.state == 'open' && @.comments > 3`)"
)]
pub struct FilterError {
    /// The expression as given.
    pub text: String,
    /// The parser's complaint.
    pub reason: String,
}

impl Filter {
    /// Compile `text`, an RFC 9535 logical expression where `@` is the record.
    pub fn parse(text: &str) -> Result<Filter, FilterError> {
        let trimmed = text.trim();
        let source = format!("$[?{trimmed}]");
        let query = serde_json_path::JsonPath::parse(&source)
            .map_err(|e| FilterError { text: trimmed.to_owned(), reason: e.to_string() })?;
        Ok(Filter { text: trimmed.to_owned(), query })
    }

    /// The expression as written.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Whether `record` passes. The record is moved in and handed back so that no clone is
    /// needed to wrap it in the one-element array the query runs over.
    pub fn matches(&self, record: serde_json::Value) -> (bool, serde_json::Value) {
        let wrapped = serde_json::Value::Array(vec![record]);
        let hit = !self.query.query(&wrapped).is_empty();
        let record = match wrapped {
            serde_json::Value::Array(mut items) => items.pop().unwrap_or(serde_json::Value::Null),
            other => other,
        };
        (hit, record)
    }
}

impl fmt::Debug for Filter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Filter").field(&self.text).finish()
    }
}

impl PartialEq for Filter {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

impl Serialize for Filter {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text)
    }
}

impl<'de> Deserialize<'de> for Filter {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Filter::parse(&s).map_err(serde::de::Error::custom)
    }
}

/// Sort key and order. Sorting is stable and puts records without the key last.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SortSpec {
    /// The field to sort by (a path without `[]`).
    pub by: FieldPath,
    /// Ascending (default) or descending.
    #[serde(default)]
    pub order: SortOrder,
}

/// Sort direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SortOrder {
    /// Smallest first.
    #[default]
    Asc,
    /// Largest first.
    Desc,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn projection_parses_renames() {
        let p: Projection = "user.login as author".parse().unwrap();
        assert_eq!(p.path.as_str(), "user.login");
        assert_eq!(p.name, "author");
        let p: Projection = "labels[].name".parse().unwrap();
        assert_eq!(p.name, "labels[].name");
    }

    #[test]
    fn filter_matches_one_record() {
        let f = Filter::parse("@.state == 'open' && @.n > 2").unwrap();
        assert!(f.matches(serde_json::json!({"state": "open", "n": 3})).0);
        assert!(!f.matches(serde_json::json!({"state": "open", "n": 1})).0);
        assert!(!f.matches(serde_json::json!(5)).0);
        assert!(Filter::parse("@.state ==").is_err());
    }

    #[test]
    fn unknown_plan_keys_are_refused() {
        let err = serde_json::from_str::<ShapePlan>(r#"{"budget": 10}"#).unwrap_err();
        assert!(err.to_string().contains("unknown field `budget`"), "{err}");
    }
}
