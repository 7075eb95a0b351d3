//! Questions about an Elasticsearch search response with nested aggregations over web
//! logs: how long the search took, the hit total and the documents left out of the
//! terms buckets, the first services (their traffic, latency and first hour) and the
//! last ones (traffic, percentiles, last hour); a service's request count, 95th or 99th
//! percentile, average or maximum duration and its traffic in an hour; and how many
//! services there are and returned 5xx or 503s, which service has the largest maximum,
//! the highest percentiles or the most server errors, and which hour was busiest.

use std::collections::BTreeMap;

use serde_json::Value;

use super::{end, list};
use crate::question::{Kind, Question, text};
use crate::questions_blind::{count, extreme, together};
use crate::record_questions::lookup_by;

/// One hour of a service: when it starts, its requests and its status codes.
pub(super) struct Hour {
    pub(super) at: String,
    pub(super) docs: i64,
    pub(super) statuses: Vec<(i64, i64)>,
}

/// A service bucket with what the questions read of it.
pub(super) struct Service {
    pub(super) key: String,
    pub(super) docs: i64,
    /// The 50th, 95th and 99th percentiles, as the response writes them.
    pub(super) percentiles: [String; 3],
    pub(super) stats: BTreeMap<String, String>,
    pub(super) hours: Vec<Hour>,
}

impl Service {
    fn stat(&self, name: &str) -> Option<String> {
        self.stats.get(name).filter(|s| *s != "null").cloned()
    }

    fn percentile(&self, k: usize) -> f64 {
        self.percentiles[k].parse().unwrap_or(f64::NAN)
    }

    fn server_errors(&self, code: Option<i64>) -> i64 {
        let hit = |c: i64| code.map_or(c >= 500, |k| c == k);
        self.hours.iter().flat_map(|h| &h.statuses).filter(|(c, _)| hit(*c)).map(|(_, n)| n).sum()
    }
}

/// The service buckets of the `services` terms aggregation.
pub(super) fn services(v: &Value) -> Vec<Service> {
    list(v, "aggregations.services.buckets")
        .iter()
        .map(|b| {
            let p = &b["latency_percentiles"]["values"];
            Service {
                key: text(&b["key"]),
                docs: b["doc_count"].as_i64().unwrap_or_default(),
                percentiles: [text(&p["50.0"]), text(&p["95.0"]), text(&p["99.0"])],
                stats: b["latency_stats"]
                    .as_object()
                    .map(|m| m.iter().map(|(k, v)| (k.clone(), text(v))).collect())
                    .unwrap_or_default(),
                hours: list(b, "requests_over_time.buckets")
                    .iter()
                    .map(|h| Hour {
                        at: text(&h["key_as_string"]),
                        docs: h["doc_count"].as_i64().unwrap_or_default(),
                        statuses: list(h, "status_codes.buckets")
                            .iter()
                            .map(|s| {
                                (s["key"].as_i64().unwrap_or_default(), s["doc_count"].as_i64().unwrap_or_default())
                            })
                            .collect(),
                    })
                    .collect(),
            }
        })
        .collect()
}

fn key_docs(s: &Service) -> Option<Vec<String>> {
    Some(vec![s.key.clone(), s.docs.to_string()])
}

fn key(s: &Service) -> Option<Vec<String>> {
    Some(vec![s.key.clone()])
}

/// A question about hour `h` of the service `f` of the way down, answered by the hour's
/// start and its request count.
fn hour_lookup(all: &[Service], f: f64, h: usize) -> Option<Question> {
    let s = all.get(crate::questions_blind::at(all.len(), f))?;
    let hour = s.hours.get(h)?;
    Some(together(
        Kind::Lookup,
        format!("How many requests did {} get in the hour starting {}?", s.key, hour.at),
        Some(&s.key),
        &[&hour.at, &hour.docs.to_string()],
    ))
}

pub(super) fn elasticsearch_questions(v: &Value) -> Vec<Option<Question>> {
    let all = services(v);
    let head = |q: &str, path: &str| {
        let t = crate::question::value(v, path).map(text)?;
        Some(together(Kind::Head, q.to_owned(), None, &[&t]))
    };
    let mut qs = vec![
        head("How many milliseconds did the search take?", "took"),
        head("How many shards were searched?", "_shards.total"),
        head(
            "How many documents were left out of the service buckets (sum_other_doc_count)?",
            "aggregations.services.sum_other_doc_count",
        ),
        end(&all, 0, false, "Which service has the most requests, and how many?", key_docs),
        end(&all, 0, false, "What is the 95th percentile duration of the busiest service?", |s| {
            Some(vec![s.key.clone(), s.percentiles[1].clone()])
        }),
        end(&all, 0, false, "What is the average duration of the busiest service?", |s| Some(vec![s.stat("avg")?])),
        end(&all, 0, false, "How many requests did the first service get in its first hour bucket?", |s| {
            let h = s.hours.first()?;
            Some(vec![h.at.clone(), h.docs.to_string()])
        }),
        end(&all, 1, false, "Which service is second by requests, and how many?", key_docs),
        end(&all, 1, false, "What is the 99th percentile duration of the second service?", |s| {
            Some(vec![s.percentiles[2].clone()])
        }),
        end(&all, 2, false, "Which service is the third bucket?", key),
        end(&all, 0, true, "Which service is the last bucket, and how many requests did it get?", key_docs),
        end(&all, 0, true, "What is the 99th percentile duration of the last service?", |s| {
            Some(vec![s.percentiles[2].clone()])
        }),
        end(&all, 0, true, "What is the maximum duration of the last service?", |s| Some(vec![s.stat("max")?])),
        end(&all, 0, true, "What is the minimum duration of the last service?", |s| Some(vec![s.stat("min")?])),
        end(&all, 0, true, "How many requests did the last service get in the last hour bucket?", |s| {
            let h = s.hours.last()?;
            Some(vec![h.at.clone(), h.docs.to_string()])
        }),
        end(&all, 0, true, "Which status code was most common in the last service's last hour, and how often?", |s| {
            let (code, n) = s.hours.last()?.statuses.first()?;
            Some(vec![code.to_string(), n.to_string()])
        }),
        end(&all, 1, true, "Which service is second to last, and how many requests did it get?", key_docs),
        end(&all, 1, true, "What is the 95th percentile duration of the second to last service?", |s| {
            Some(vec![s.percentiles[1].clone()])
        }),
        end(&all, 2, true, "Which service is third to last?", key),
    ];
    for at in [0.3, 0.5, 0.7, 0.9] {
        qs.push(lookup_by(&all, at, "How many requests did {key} get?", key, |s| Some(vec![s.docs.to_string()])));
    }
    for at in [0.4, 0.8] {
        qs.push(lookup_by(&all, at, "What is the 95th percentile of event.duration for {key}?", key, |s| {
            Some(vec![s.percentiles[1].clone()])
        }));
    }
    qs.push(lookup_by(&all, 0.6, "What is the 99th percentile of event.duration for {key}?", key, |s| {
        Some(vec![s.percentiles[2].clone()])
    }));
    qs.push(lookup_by(&all, 0.25, "What is the longest request duration of {key}?", key, |s| {
        Some(vec![s.stat("max")?])
    }));
    qs.push(lookup_by(&all, 0.95, "What is the average request duration of {key}?", key, |s| {
        Some(vec![s.stat("avg")?])
    }));
    qs.push(hour_lookup(&all, 0.45, 14));
    qs.push(hour_lookup(&all, 0.85, 5));
    // How many, and which holds the most.
    qs.push(Some(count("How many service buckets are there?", &["services", "buckets"], all.len(), Some("key"))));
    let with = |code: Option<i64>| all.iter().filter(|s| s.server_errors(code) > 0).count();
    qs.push(Some(count("How many services returned any 5xx status code?", &["5xx"], with(None), Some("status_codes"))));
    qs.push(Some(count("How many services returned any 503?", &["503"], with(Some(503)), Some("status_codes"))));
    qs.push(Some(count("How many services returned any 504?", &["504"], with(Some(504)), Some("status_codes"))));
    let scored = |f: &dyn Fn(&Service) -> Option<f64>| -> Vec<(f64, String)> {
        all.iter().filter_map(|s| Some((f(s)?, s.key.clone()))).collect()
    };
    let stat = |name: &'static str| move |s: &Service| s.stat(name)?.parse::<f64>().ok();
    qs.push(extreme(
        "Which service had the longest single request (max duration)?",
        scored(&stat("max")),
        true,
        Some("max"),
    ));
    qs.push(extreme("Which service has the highest average duration?", scored(&stat("avg")), true, Some("avg")));
    qs.push(extreme("Which service has the lowest average duration?", scored(&stat("avg")), false, Some("avg")));
    qs.push(extreme(
        "Which service has the highest 95th percentile?",
        scored(&|s| Some(s.percentile(1))),
        true,
        Some("95.0"),
    ));
    qs.push(extreme(
        "Which service has the highest 99th percentile?",
        scored(&|s| Some(s.percentile(2))),
        true,
        Some("99.0"),
    ));
    qs.push(extreme("Which service has the fastest median?", scored(&|s| Some(s.percentile(0))), false, Some("50.0")));
    let errors: Vec<(i64, String)> = all.iter().map(|s| (s.server_errors(None), s.key.clone())).collect();
    qs.push(extreme("Which service returned the most 5xx responses?", errors, true, Some("status_codes")));
    for k in [0, 1, all.len() / 2] {
        if let Some(s) = all.get(k) {
            let hours = s.hours.iter().map(|h| (h.docs, h.at.clone())).collect();
            qs.push(extreme(
                &format!("In which hour did {} get the most requests?", s.key),
                hours,
                true,
                Some("doc_count"),
            ));
        }
    }
    let mut per_hour: BTreeMap<&str, i64> = BTreeMap::new();
    for h in all.iter().flat_map(|s| &s.hours) {
        *per_hour.entry(h.at.as_str()).or_default() += h.docs;
    }
    let quietest = per_hour.iter().map(|(at, n)| (*n, (*at).to_owned())).collect();
    qs.push(extreme("Across these services, which hour had the fewest requests?", quietest, false, Some("doc_count")));
    qs
}
