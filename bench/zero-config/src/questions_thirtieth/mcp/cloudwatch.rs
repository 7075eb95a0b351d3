//! Questions about a CloudWatch `GetMetricData` answer, whose series pair
//! `Timestamps[i]` with `Values[i]`, newest first: the first and the last series (id and
//! label, latest and oldest points, the points next to them, their time range and
//! status); a series' value at a given time, its peak, its lowest point and its latest
//! value by its label; and how many series there are, how many are complete or
//! partial, how many points a series has, which series or CPU reached the highest or
//! lowest value, which has the fewest points, and when requests or latency peaked.

use serde_json::Value;

use super::{field, list};
use crate::question::{Question, text};
use crate::questions_blind::{count, extreme};
use crate::record_questions::{ORDINALS, end, lookup_by, lookup_one as lookup, to_last};

/// A series' points, newest first: (timestamp, value as written, value).
pub(super) fn points(s: &Value) -> Vec<(String, String, f64)> {
    let stamps = list(s, "Timestamps");
    let values = list(s, "Values");
    stamps.iter().zip(values).filter_map(|(t, v)| Some((text(t), text(v), v.as_f64()?))).collect()
}

/// The point of a series holding its largest (or smallest) value, `None` when two share
/// it.
pub(super) fn extreme_point(s: &Value, max: bool) -> Option<(String, String)> {
    let ps = points(s);
    let best = ps.iter().map(|p| p.2).fold(None, |b: Option<f64>, x| match b {
        Some(b) if (max && b >= x) || (!max && b <= x) => Some(b),
        _ => Some(x),
    })?;
    let holders: Vec<&(String, String, f64)> = ps.iter().filter(|p| p.2 == best).collect();
    match holders.as_slice() {
        [one] => Some((one.0.clone(), one.1.clone())),
        _ => None,
    }
}

/// The largest (or smallest) value of a series.
fn bound(s: &Value, max: bool) -> Option<f64> {
    let ps = points(s);
    let values = ps.iter().map(|p| p.2);
    if max { values.reduce(f64::max) } else { values.reduce(f64::min) }
}

pub(super) fn cloudwatch_questions(v: &Value) -> Vec<Option<Question>> {
    let series = list(v, "MetricDataResults");
    let label = |s: &Value| field(s, "Label");
    let at = |s: &Value, k: usize, from_end: bool| {
        let ps = points(s);
        let i = if from_end { ps.len().checked_sub(k + 1)? } else { k };
        let (t, value, _) = ps.get(i)?.clone();
        Some(vec![label(s), t, value])
    };
    let range = |s: &Value| {
        let ps = points(s);
        Some(vec![label(s), ps.first()?.0.clone(), ps.last()?.0.clone()])
    };
    let id_label = |s: &Value| Some(vec![field(s, "Id"), label(s)]);
    let mut qs = vec![
        end(series, 0, false, "What is the id and label of the first query?", id_label),
        end(series, 1, false, "What is the id and label of the second query?", id_label),
        end(series, 0, false, "What is the latest value of the first series, and at what time?", |s| at(s, 0, false)),
        end(series, 0, false, "What is the oldest data point of the first series?", |s| at(s, 0, true)),
        end(series, 0, false, "Over what time range does the first series run?", range),
        end(series, 0, false, "Did the first series come back complete?", |s| {
            Some(vec![label(s), field(s, "StatusCode")])
        }),
        end(series, 0, true, "What is the id and label of the last query?", id_label),
        end(series, 1, true, "What is the id and label of the second to last query?", id_label),
        end(series, 0, true, "What is the latest value of the last series, and at what time?", |s| at(s, 0, false)),
        end(series, 0, true, "Over what time range does the last series run?", range),
        end(series, 0, true, "Did the last series come back complete?", |s| {
            Some(vec![label(s), field(s, "StatusCode")])
        }),
    ];
    for (k, ordinal) in ORDINALS.iter().enumerate().take(5).skip(1) {
        qs.push(end(
            series,
            0,
            false,
            &format!("What is the {ordinal} most recent data point of the first series?"),
            |s| at(s, k, false),
        ));
    }
    for k in 0..5 {
        qs.push(end(series, 0, true, &format!("What is the {} data point of the last series?", to_last(k)), |s| {
            at(s, k, true)
        }));
    }
    // Lookups: a value at a time, a series' peak, its lowest point, its latest value.
    let every_point: Vec<(String, String, String)> =
        series.iter().flat_map(|s| points(s).into_iter().map(move |(t, v, _)| (label(s), t, v))).collect();
    for f in [0.15, 0.35, 0.55, 0.75, 0.95] {
        qs.push(lookup_by(
            &every_point,
            f,
            "What was {key0} at {key1}?",
            |p| Some(vec![p.0.clone(), p.1.clone()]),
            |p| Some(vec![p.2.clone()]),
        ));
    }
    for f in [0.2, 0.5, 0.8] {
        qs.push(lookup(series, f, "When did {key} peak, and at what value?", label, |s| {
            extreme_point(s, true).map(|(t, v)| vec![t, v])
        }));
    }
    for f in [0.4, 0.9] {
        qs.push(lookup(series, f, "What was the lowest value of {key}, and when?", label, |s| {
            extreme_point(s, false).map(|(t, v)| vec![t, v])
        }));
    }
    qs.push(lookup(series, 0.65, "What is the latest value of {key}?", label, |s| {
        let ps = points(s);
        let (t, v, _) = ps.first()?.clone();
        Some(vec![t, v])
    }));
    // How many, and which stands out.
    let status = |code: &str| series.iter().filter(|s| field(s, "StatusCode") == code).count();
    qs.push(Some(count(
        "How many series came back as PartialData?",
        &["PartialData"],
        status("PartialData"),
        Some("StatusCode"),
    )));
    qs.push(Some(count("How many series came back Complete?", &["Complete"], status("Complete"), Some("StatusCode"))));
    qs.push(Some(count(
        "How many metric series does the answer hold?",
        &["series", "MetricDataResults", "results"],
        series.len(),
        Some("Label"),
    )));
    let errors = series.iter().find(|s| label(s).ends_with("5XX_Count"));
    for s in [series.first(), errors, series.last()].into_iter().flatten() {
        qs.push(Some(count(
            &format!("How many data points does {} have?", label(s)),
            &["points", "datapoints", "data points", "Timestamps", "Values"],
            points(s).len(),
            Some("Timestamps"),
        )));
    }
    let peaks = |among: &[&Value], max: bool| -> Vec<(f64, String)> {
        among.iter().filter_map(|s| Some((bound(s, max)?, label(s)))).collect()
    };
    let all: Vec<&Value> = series.iter().collect();
    qs.push(extreme("Which series reached the highest value?", peaks(&all, true), true, Some("Values")));
    let cpu: Vec<&Value> = series.iter().filter(|s| label(s).ends_with("CPUUtilization")).collect();
    qs.push(extreme("Which CPUUtilization series peaked highest?", peaks(&cpu, true), true, Some("Values")));
    qs.push(extreme("Which CPUUtilization series dipped lowest?", peaks(&cpu, false), false, Some("Values")));
    let sizes: Vec<(usize, String)> = series.iter().map(|s| (points(s).len(), label(s))).collect();
    qs.push(extreme("Which series has the fewest data points?", sizes, false, Some("Timestamps")));
    for suffix in ["RequestCount", "TargetResponseTime p99", "DatabaseConnections"] {
        if let Some(s) = series.iter().find(|s| label(s).ends_with(suffix)) {
            let timed: Vec<(f64, String)> = points(s).into_iter().map(|(t, _, x)| (x, t)).collect();
            qs.push(extreme(&format!("At what time was {} highest?", label(s)), timed, true, Some("Timestamps")));
        }
    }
    qs
}
