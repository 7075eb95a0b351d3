//! How tool search served the model: of the searches that showed tools, how many were
//! followed by a call of one of them in the same session (the hit rate), and which queries
//! led to no call at all.
//!
//! A search's span keeps its query and the tools it returned ([`SearchCall`]); whether one of
//! them was called is read from the later spans of the same session (same principal and
//! session), so the log never rewrites a row. A call counts for the most recent search
//! before it that returned the tool.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

use serde::Serialize;

use crate::html::escape;
use crate::span::Span;

/// How many queries that led to no call a report lists.
pub const MAX_UNUSED_QUERIES: usize = 20;

/// Tool search over a window of spans.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SearchReport {
    /// Calls of the search tool.
    pub searches: u64,
    /// Searches that showed no tool (nothing matched, or the search declined).
    pub empty: u64,
    /// Searches that showed tools, one of which was then called in the same session.
    pub followed: u64,
    /// `followed` over the searches that showed tools (0 when none did).
    pub hit_rate: f64,
    /// The queries that led to no call, most frequent first.
    pub unused: Vec<UnusedQuery>,
}

/// A query after which no tool it could have led to was called.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UnusedQuery {
    /// The query.
    pub query: String,
    /// How many times it was searched and not followed.
    pub times: u64,
    /// Whether it showed no tool at all (the last time).
    pub empty: bool,
    /// The tools it showed (the last time), best first.
    pub returned: Vec<String>,
}

impl SearchReport {
    /// The search figures of `spans` (any order), or `None` when none is a search.
    pub fn build<'a>(spans: impl Iterator<Item = &'a Span>) -> Option<SearchReport> {
        let mut spans: Vec<&Span> = spans.collect();
        spans.sort_by_key(|s| s.time_ms);
        // Per session, the searches not yet followed, as indexes into `outcomes`.
        let mut open: HashMap<(Option<&str>, Option<&str>), Vec<usize>> = HashMap::new();
        // Each search: its span and whether it was followed.
        let mut outcomes: Vec<(&Span, bool)> = Vec::new();
        for span in spans {
            let session = (span.principal.as_deref(), span.session.as_deref());
            if span.search.is_some() {
                open.entry(session).or_default().push(outcomes.len());
                outcomes.push((span, false));
                continue;
            }
            let Some(pending) = open.get_mut(&session) else { continue };
            let hit = pending
                .iter()
                .rposition(|&i| outcomes[i].0.search.as_ref().is_some_and(|s| s.returned.contains(&span.tool)));
            if let Some(at) = hit {
                outcomes[pending.remove(at)].1 = true;
            }
        }
        if outcomes.is_empty() {
            return None;
        }
        let mut report =
            SearchReport { searches: outcomes.len() as u64, empty: 0, followed: 0, hit_rate: 0.0, unused: Vec::new() };
        let mut unused: BTreeMap<&str, UnusedQuery> = BTreeMap::new();
        for (span, followed) in &outcomes {
            let Some(search) = &span.search else { continue };
            let empty = search.returned.is_empty();
            report.empty += u64::from(empty);
            report.followed += u64::from(*followed);
            if !followed {
                let entry = unused.entry(search.query.as_str()).or_insert_with(|| UnusedQuery {
                    query: search.query.clone(),
                    times: 0,
                    empty,
                    returned: Vec::new(),
                });
                entry.times += 1;
                entry.empty = empty;
                entry.returned.clone_from(&search.returned);
            }
        }
        let showed = report.searches - report.empty;
        report.hit_rate = if showed == 0 { 0.0 } else { report.followed as f64 / showed as f64 };
        let mut unused: Vec<UnusedQuery> = unused.into_values().collect();
        // Most frequent first; ties alphabetical (the map's order), so the list is stable.
        unused.sort_by_key(|q| std::cmp::Reverse(q.times));
        unused.truncate(MAX_UNUSED_QUERIES);
        report.unused = unused;
        Some(report)
    }

    /// The section of the plain-text report.
    pub fn to_table(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "\ntool search · {} searches · {} showed nothing · hit rate {:.0}% ({} of {} that showed tools were followed by a call of one)",
            self.searches,
            self.empty,
            self.hit_rate * 100.0,
            self.followed,
            self.searches - self.empty,
        );
        if self.unused.is_empty() {
            return out;
        }
        let _ = writeln!(out, "queries that led to no call:");
        for q in &self.unused {
            let what = if q.empty { "showed nothing".to_owned() } else { format!("showed {}", q.returned.join(", ")) };
            let _ = writeln!(out, "  {:>4}×  {:?}  ({what})", q.times, q.query);
        }
        out
    }

    /// The section of the HTML report: the figures (also as `data-*` attributes) and a table
    /// of the queries that led to no call.
    pub fn to_html(&self) -> String {
        let mut out = String::new();
        let _ = write!(
            out,
            "<section id=\"search\" data-searches=\"{}\" data-empty=\"{}\" data-followed=\"{}\" data-hit-rate=\"{:.4}\">\
             <h2>Tool search</h2><p class=\"sub\">{} searches · {} showed nothing · hit rate {:.0}%: {} of {} \
             searches that showed tools were followed by a call of one of them in the same session</p>",
            self.searches,
            self.empty,
            self.followed,
            self.hit_rate,
            self.searches,
            self.empty,
            self.hit_rate * 100.0,
            self.followed,
            self.searches - self.empty,
        );
        if !self.unused.is_empty() {
            out.push_str(
                "<div class=\"table-wrap\"><table id=\"unused-queries\"><thead><tr><th>query that led to no call</th>\
                 <th>times</th><th class=\"largest\">what it showed</th></tr></thead><tbody>",
            );
            for q in &self.unused {
                let what = if q.empty { "nothing".to_owned() } else { q.returned.join(", ") };
                let _ = write!(
                    out,
                    "<tr data-query=\"{0}\" data-times=\"{1}\"><td>{0}</td><td>{1}</td><td class=\"largest\">{2}</td></tr>",
                    escape(&q.query),
                    q.times,
                    escape(&what),
                );
            }
            out.push_str("</tbody></table></div>");
        }
        out.push_str("</section>\n");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::span::{CallStatus, SearchCall};

    fn search(time_ms: i64, session: &str, query: &str, returned: &[&str]) -> Span {
        Span {
            time_ms,
            session: Some(session.to_owned()),
            search: Some(SearchCall {
                query: query.to_owned(),
                returned: returned.iter().map(|s| (*s).to_owned()).collect(),
                matched: returned.len() as u64,
            }),
            ..Span::new("search_tools", CallStatus::Ok)
        }
    }

    fn call(time_ms: i64, session: &str, tool: &str) -> Span {
        Span { time_ms, session: Some(session.to_owned()), ..Span::new(tool, CallStatus::Ok) }
    }

    #[test]
    fn a_search_is_a_hit_when_the_same_session_then_calls_a_tool_it_returned() {
        let spans = [
            search(1, "a", "read a file", &["fs_read", "fs_stat"]),
            call(2, "a", "fs_read"),
            // Another session calling the tool does not count for session b's search.
            search(3, "b", "send mail", &["mail_send"]),
            call(4, "a", "mail_send"),
            search(5, "a", "zzqx", &[]),
            search(6, "b", "send mail", &["mail_send"]),
            // A call before the search does not count for it.
            call(0, "c", "x_tool"),
            search(7, "c", "x", &["x_tool"]),
        ];
        let report = SearchReport::build(spans.iter()).unwrap();
        assert_eq!((report.searches, report.empty, report.followed), (5, 1, 1));
        assert!((report.hit_rate - 0.25).abs() < 1e-12, "{}", report.hit_rate);
        let unused: Vec<(&str, u64, bool)> =
            report.unused.iter().map(|q| (q.query.as_str(), q.times, q.empty)).collect();
        assert_eq!(unused, [("send mail", 2, false), ("x", 1, false), ("zzqx", 1, true)]);
        assert!(report.to_table().contains("hit rate 25%"), "{}", report.to_table());
        assert!(report.to_table().contains("\"zzqx\"  (showed nothing)"), "{}", report.to_table());
        let html = report.to_html();
        assert!(
            html.contains("data-hit-rate=\"0.2500\"") && html.contains("data-query=\"send mail\" data-times=\"2\"")
        );
    }

    #[test]
    fn one_call_follows_one_search_and_no_search_means_no_section() {
        let spans = [search(1, "a", "q1", &["t"]), search(2, "a", "q2", &["t"]), call(3, "a", "t")];
        let report = SearchReport::build(spans.iter()).unwrap();
        assert_eq!(report.followed, 1);
        assert_eq!(report.unused[0].query, "q1", "the most recent search gets the call");
        assert_eq!(SearchReport::build([call(1, "a", "t")].iter()), None);
    }
}
