//! The sample data: an issue tracker, an application log, a sales table and a few lights.
//!
//! Everything comes from `toolshape-fixtures` and one seed, so every run (and every machine)
//! serves the same bytes for the same call. The issues and the table are generated once, on
//! first use, and kept; the log is generated per call (it is cheap). The lights are the only
//! state that changes, and only through `switch_light`.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};

use serde_json::{Map, Value, json};
use toolshape_fixtures::time::rfc3339;

/// The entities `switch_light` knows, all off at start.
pub(crate) const LIGHTS: [&str; 5] =
    ["light.kitchen", "light.living_room", "light.bedroom", "light.hallway", "light.office"];

/// Log levels from the least to the most severe, as the fixture log writes them.
pub(crate) const LOG_LEVELS: [&str; 4] = ["DEBUG", "INFO", "WARN", "ERROR"];

/// The columns of the sales table, in the order each row lists them.
pub(crate) const TABLE_COLUMNS: [&str; 17] = [
    "id",
    "order_id",
    "date",
    "region",
    "country",
    "product",
    "category",
    "sku",
    "quantity",
    "unit_price",
    "discount_pct",
    "amount",
    "currency",
    "status",
    "channel",
    "customer",
    "sales_rep",
];

/// How big the generated data sets are, and the seed they come from.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Sizes {
    /// The seed of every data set.
    pub(crate) seed: u64,
    /// Issues in the tracker.
    pub(crate) issues: usize,
    /// Rows in the sales table.
    pub(crate) table_rows: usize,
}

/// One light's state.
#[derive(Debug, Clone, PartialEq)]
struct Light {
    on: bool,
    brightness: u8,
    /// How many times it was switched (for a deterministic `last_changed`).
    changes: i64,
}

/// The data one server serves: generated lazily, shared by every session.
#[derive(Debug)]
pub(crate) struct Data {
    sizes: Sizes,
    issues: OnceLock<Vec<Value>>,
    table: OnceLock<Vec<Value>>,
    lights: Mutex<BTreeMap<&'static str, Light>>,
    bonus: AtomicBool,
}

/// Which issues `list_issues` and `search_issues` return, by state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StateFilter {
    /// Open issues only.
    Open,
    /// Closed issues only.
    Closed,
    /// Every issue.
    All,
}

impl StateFilter {
    fn keeps(self, issue: &Value) -> bool {
        match self {
            StateFilter::All => true,
            StateFilter::Open => issue["state"] == "open",
            StateFilter::Closed => issue["state"] == "closed",
        }
    }
}

/// The sort keys of `list_issues`, as GitHub names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum IssueSort {
    /// By `created_at`.
    Created,
    /// By `updated_at`.
    Updated,
    /// By the number of comments.
    Comments,
}

/// The arguments of `list_issues`, checked.
#[derive(Debug, Clone)]
pub(crate) struct IssueQuery {
    pub(crate) state: StateFilter,
    pub(crate) label: Option<String>,
    pub(crate) sort: IssueSort,
    pub(crate) descending: bool,
    pub(crate) per_page: usize,
    pub(crate) page: usize,
}

/// The arguments of `query_table`, checked.
#[derive(Debug, Clone)]
pub(crate) struct TableQuery {
    pub(crate) region: Option<String>,
    pub(crate) status: Option<String>,
    pub(crate) order_by: String,
    pub(crate) descending: bool,
    pub(crate) limit: usize,
}

impl Data {
    /// Data sets of these sizes; nothing is generated yet.
    pub(crate) fn new(sizes: Sizes) -> Data {
        let lights = LIGHTS.iter().map(|&name| (name, Light { on: false, brightness: 0, changes: 0 })).collect();
        Data {
            sizes,
            issues: OnceLock::new(),
            table: OnceLock::new(),
            lights: Mutex::new(lights),
            bonus: AtomicBool::new(false),
        }
    }

    /// Whether `bonus_tool` is listed.
    pub(crate) fn bonus(&self) -> bool {
        self.bonus.load(Ordering::SeqCst)
    }

    /// List `bonus_tool` if it was not, or stop listing it; whether it is listed now.
    pub(crate) fn toggle_bonus(&self) -> bool {
        !self.bonus.fetch_xor(true, Ordering::SeqCst)
    }

    /// Generate the issues and the table now (they take a second or two in a debug build),
    /// so that the first call does not pay for it.
    pub(crate) fn warm(&self) {
        self.issues();
        self.table();
    }

    /// Every issue, newest first.
    pub(crate) fn issues(&self) -> &[Value] {
        self.issues.get_or_init(|| match toolshape_fixtures::issues(self.sizes.issues, self.sizes.seed) {
            Value::Array(issues) => issues,
            _ => Vec::new(),
        })
    }

    fn table(&self) -> &[Value] {
        self.table.get_or_init(|| match toolshape_fixtures::table_rows(self.sizes.table_rows, self.sizes.seed) {
            Value::Array(rows) => rows,
            _ => Vec::new(),
        })
    }

    /// One page of issues, as a compact JSON array (the GitHub REST answer).
    pub(crate) fn list_issues(&self, query: &IssueQuery) -> String {
        let mut selected: Vec<&Value> = self
            .issues()
            .iter()
            .filter(|issue| query.state.keeps(issue))
            .filter(|issue| query.label.as_deref().is_none_or(|label| has_label(issue, label)))
            .collect();
        let key = |issue: &Value| -> (i64, String) {
            match query.sort {
                IssueSort::Created => (0, issue["created_at"].as_str().unwrap_or_default().to_owned()),
                IssueSort::Updated => (0, issue["updated_at"].as_str().unwrap_or_default().to_owned()),
                IssueSort::Comments => (issue["comments"].as_i64().unwrap_or(0), String::new()),
            }
        };
        // Stable: ties keep the tracker's order (newest first).
        selected.sort_by_cached_key(|issue| key(issue));
        if query.descending {
            // Reversing a stable ascending sort would reverse ties too; sort descending instead.
            selected.sort_by_cached_key(|issue| std::cmp::Reverse(key(issue)));
        }
        let start = query.page.saturating_sub(1).saturating_mul(query.per_page);
        let page: Vec<&Value> = selected.into_iter().skip(start).take(query.per_page).collect();
        to_json(&page)
    }

    /// The issue with this number.
    pub(crate) fn get_issue(&self, number: i64) -> Option<&Value> {
        self.issues().iter().find(|issue| issue["number"].as_i64() == Some(number))
    }

    /// The smallest and largest issue numbers, for error messages.
    pub(crate) fn issue_number_range(&self) -> (i64, i64) {
        let numbers = self.issues().iter().filter_map(|issue| issue["number"].as_i64());
        numbers.fold((i64::MAX, i64::MIN), |(lo, hi), n| (lo.min(n), hi.max(n)))
    }

    /// Issues whose title or body contains every word of `query` (case-insensitive), in the
    /// GitHub search shape: `{"total_count", "incomplete_results", "items"}`.
    pub(crate) fn search_issues(&self, query: &str, state: StateFilter, per_page: usize) -> Value {
        let words: Vec<String> = query.split_whitespace().map(str::to_lowercase).collect();
        let matches: Vec<&Value> = self
            .issues()
            .iter()
            .filter(|issue| state.keeps(issue))
            .filter(|issue| {
                let title = issue["title"].as_str().unwrap_or_default().to_lowercase();
                let body = issue["body"].as_str().unwrap_or_default().to_lowercase();
                words.iter().all(|w| title.contains(w.as_str()) || body.contains(w.as_str()))
            })
            .collect();
        let items: Vec<Value> = matches.iter().take(per_page).map(|&issue| issue.clone()).collect();
        json!({ "total_count": matches.len(), "incomplete_results": false, "items": items })
    }

    /// `lines` lines of the application log; with `min_level`, only the entries of that
    /// level or a more severe one, each with its continuation lines (stack traces, dumps).
    pub(crate) fn read_log(&self, lines: usize, min_level: Option<&str>) -> String {
        let text = toolshape_fixtures::log_text(lines, self.sizes.seed);
        let Some(min) = min_level.and_then(|level| LOG_LEVELS.iter().position(|l| *l == level)) else {
            return text;
        };
        let mut out = String::with_capacity(text.len() / 4);
        let mut keeping = false;
        for line in text.split_inclusive('\n') {
            if let Some(level) = entry_level(line) {
                keeping = LOG_LEVELS.iter().position(|l| *l == level).is_some_and(|rank| rank >= min);
            }
            if keeping {
                out.push_str(line);
            }
        }
        out
    }

    /// Rows of the sales table that pass the filters, sorted, at most `limit`:
    /// `{"columns", "rows", "row_count", "total_matching"}`.
    pub(crate) fn query_table(&self, query: &TableQuery) -> Value {
        let mut rows: Vec<&Value> = self
            .table()
            .iter()
            .filter(|row| query.region.as_deref().is_none_or(|r| row["region"] == r))
            .filter(|row| query.status.as_deref().is_none_or(|s| row["status"] == s))
            .collect();
        let column = query.order_by.as_str();
        rows.sort_by(|a, b| compare_json(&a[column], &b[column]));
        if query.descending {
            rows.sort_by(|a, b| compare_json(&b[column], &a[column]));
        }
        let total = rows.len();
        let kept: Vec<Value> = rows.into_iter().take(query.limit).cloned().collect();
        json!({
            "columns": TABLE_COLUMNS,
            "row_count": kept.len(),
            "total_matching": total,
            "rows": kept,
        })
    }

    /// Switch a light; its new status, or `None` for an entity that does not exist.
    pub(crate) fn switch_light(&self, entity: &str, on: bool, brightness: Option<u8>) -> Option<Value> {
        let mut lights = self.lights.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let (name, light) = lights.iter_mut().find(|(name, _)| **name == entity)?;
        let previous = light.clone();
        light.on = on;
        light.brightness =
            if on { brightness.unwrap_or(if previous.on { previous.brightness } else { 255 }) } else { 0 };
        let changed = *light != previous;
        if changed {
            light.changes += 1;
        }
        let mut status = light_status(name, light);
        if let Value::Object(map) = &mut status {
            map.insert("changed".into(), Value::Bool(changed));
            map.insert("previous_state".into(), state_word(previous.on).into());
        }
        Some(status)
    }

    /// The status of every light, or of one (`None` if it does not exist).
    pub(crate) fn light_status(&self, entity: Option<&str>) -> Option<Value> {
        let lights = self.lights.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let statuses: Vec<Value> = lights
            .iter()
            .filter(|(name, _)| entity.is_none_or(|e| **name == e))
            .map(|(name, light)| light_status(name, light))
            .collect();
        if statuses.is_empty() {
            return None;
        }
        Some(json!({ "lights": statuses }))
    }
}

fn state_word(on: bool) -> &'static str {
    if on { "on" } else { "off" }
}

fn light_status(name: &str, light: &Light) -> Value {
    let friendly = name.trim_start_matches("light.").replace('_', " ");
    let mut map = Map::new();
    map.insert("entity".into(), name.into());
    map.insert("state".into(), state_word(light.on).into());
    map.insert("brightness".into(), light.brightness.into());
    map.insert("friendly_name".into(), format!("{friendly} light").into());
    // One minute per change after the fixtures' "now": deterministic, and moving.
    map.insert("last_changed".into(), rfc3339(toolshape_fixtures::NOW_UNIX + 60 * light.changes).into());
    Value::Object(map)
}

fn has_label(issue: &Value, label: &str) -> bool {
    issue["labels"].as_array().is_some_and(|labels| labels.iter().any(|l| l["name"].as_str() == Some(label)))
}

/// The level of a log line that starts an entry (`2025-12-25T00:00:00.036Z ERROR [api] …`);
/// `None` for continuation lines.
pub(crate) fn entry_level(line: &str) -> Option<&str> {
    let bytes = line.as_bytes();
    let starts_entry = bytes.len() > 30 && bytes[0].is_ascii_digit() && bytes[4] == b'-' && bytes[10] == b'T';
    if !starts_entry {
        return None;
    }
    line.get(25..30).map(str::trim_end)
}

/// Order JSON scalars: numbers by value, strings by text, nulls last.
fn compare_json(a: &Value, b: &Value) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    match (a, b) {
        (Value::Null, Value::Null) => Ordering::Equal,
        (Value::Null, _) => Ordering::Greater,
        (_, Value::Null) => Ordering::Less,
        (Value::Number(x), Value::Number(y)) => {
            x.as_f64().unwrap_or(0.0).partial_cmp(&y.as_f64().unwrap_or(0.0)).unwrap_or(Ordering::Equal)
        }
        (Value::String(x), Value::String(y)) => x.cmp(y),
        _ => Ordering::Equal,
    }
}

/// Compact JSON of a serializable value; serializing `Value`s cannot fail.
pub(crate) fn to_json<T: serde::Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|e| format!("\"serialization failed: {e}\""))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data() -> Data {
        Data::new(Sizes { seed: 1, issues: 300, table_rows: 500 })
    }

    fn query() -> IssueQuery {
        IssueQuery {
            state: StateFilter::All,
            label: None,
            sort: IssueSort::Created,
            descending: true,
            per_page: 30,
            page: 1,
        }
    }

    #[test]
    fn list_issues_filters_sorts_and_pages() {
        let data = data();
        let open: Vec<Value> = serde_json::from_str(&data.list_issues(&IssueQuery {
            state: StateFilter::Open,
            per_page: 1000,
            ..query()
        }))
        .unwrap();
        assert!(!open.is_empty() && open.iter().all(|i| i["state"] == "open"));

        let bugs: Vec<Value> = serde_json::from_str(&data.list_issues(&IssueQuery {
            label: Some("bug".into()),
            per_page: 1000,
            ..query()
        }))
        .unwrap();
        assert!(!bugs.is_empty() && bugs.iter().all(|i| has_label(i, "bug")));

        let updated: Vec<Value> = serde_json::from_str(&data.list_issues(&IssueQuery {
            sort: IssueSort::Updated,
            per_page: 1000,
            ..query()
        }))
        .unwrap();
        assert_eq!(updated.len(), 300);
        assert!(updated.windows(2).all(|w| w[0]["updated_at"].as_str() >= w[1]["updated_at"].as_str()));

        // Pages tile the list: no gap, no duplicate.
        let all: Vec<Value> =
            serde_json::from_str(&data.list_issues(&IssueQuery { per_page: 1000, ..query() })).unwrap();
        let mut paged = Vec::new();
        for page in 1..=4 {
            let p: Vec<Value> =
                serde_json::from_str(&data.list_issues(&IssueQuery { per_page: 100, page, ..query() })).unwrap();
            paged.extend(p);
        }
        assert_eq!(all, paged);
    }

    #[test]
    fn get_and_search_issues() {
        let data = data();
        let first = data.issues()[0].clone();
        let number = first["number"].as_i64().unwrap();
        assert_eq!(data.get_issue(number), Some(&first));
        let (lo, hi) = data.issue_number_range();
        assert!(lo <= number && number <= hi);
        assert_eq!(data.get_issue(-1), None);

        let word = first["title"].as_str().unwrap().split_whitespace().next().unwrap().to_owned();
        let found = data.search_issues(&word, StateFilter::All, 5);
        assert!(found["total_count"].as_u64().unwrap() >= 1);
        assert!(found["items"].as_array().unwrap().len() <= 5);
        let none = data.search_issues("zzqqxx-not-a-word", StateFilter::All, 5);
        assert_eq!(none["total_count"], 0);
    }

    #[test]
    fn log_level_filter_keeps_entries_with_their_continuations() {
        let data = data();
        let all = data.read_log(2000, None);
        assert_eq!(all.lines().count(), 2000);
        let errors = data.read_log(2000, Some("ERROR"));
        assert!(!errors.is_empty());
        let first = errors.lines().next().unwrap();
        assert_eq!(entry_level(first), Some("ERROR"));
        assert!(errors.lines().filter_map(entry_level).all(|l| l == "ERROR"));
        assert!(errors.lines().any(|l| entry_level(l).is_none()), "stack traces follow some errors");
        let warn_up = data.read_log(2000, Some("WARN"));
        assert!(warn_up.len() > errors.len());
    }

    #[test]
    fn table_query_filters_and_sorts() {
        let data = data();
        let out = data.query_table(&TableQuery {
            region: Some("EMEA".into()),
            status: None,
            order_by: "amount".into(),
            descending: true,
            limit: 10,
        });
        let rows = out["rows"].as_array().unwrap();
        assert_eq!(rows.len(), 10);
        assert_eq!(out["row_count"], 10);
        assert!(out["total_matching"].as_u64().unwrap() > 10);
        assert!(rows.iter().all(|r| r["region"] == "EMEA"));
        assert!(rows.windows(2).all(|w| w[0]["amount"].as_f64() >= w[1]["amount"].as_f64()));
        let keys: Vec<&str> = rows[0].as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, TABLE_COLUMNS);
    }

    #[test]
    fn bonus_toggles() {
        let data = data();
        assert!(!data.bonus());
        assert!(data.toggle_bonus());
        assert!(data.bonus());
        assert!(!data.toggle_bonus());
        assert!(!data.bonus());
    }

    #[test]
    fn lights_change_state() {
        let data = data();
        let on = data.switch_light("light.kitchen", true, None).unwrap();
        assert_eq!(on["state"], "on");
        assert_eq!(on["brightness"], 255);
        assert_eq!(on["changed"], true);
        assert_eq!(on["previous_state"], "off");
        let again = data.switch_light("light.kitchen", true, None).unwrap();
        assert_eq!(again["changed"], false);
        let status = data.light_status(Some("light.kitchen")).unwrap();
        assert_eq!(status["lights"][0]["state"], "on");
        assert_eq!(data.light_status(None).unwrap()["lights"].as_array().unwrap().len(), LIGHTS.len());
        assert!(data.switch_light("light.garage", true, None).is_none());
        assert!(data.light_status(Some("light.garage")).is_none());
    }
}
