//! Tests of series written as their count, ends and extremes.

use serde_json::{Value, json};

use crate::compact::Compactor;

/// `n` CloudWatch-style series records, newest first, with times and values side by side.
fn beside(n: usize) -> Vec<Value> {
    (0..n)
        .map(|s| {
            let times: Vec<String> = (0..20).map(|i| format!("2025-12-31T{:02}:00:00+00:00", 23 - i)).collect();
            let values: Vec<f64> = (0..20).map(|i| ((i * 7 + s * 3) % 17) as f64 + 0.5).collect();
            json!({"Id": format!("q{s}"), "Label": format!("series {s}"), "Timestamps": times, "Values": values, "StatusCode": "Complete"})
        })
        .collect()
}

#[test]
fn values_beside_their_times_are_one_cell_with_ends_and_extremes() {
    let records = beside(6);
    let c = Compactor::learn(&records);
    let shown = c.apply(&records[1]);
    let cell = shown["Values"].as_str().unwrap_or_default();
    // The expected points are read from the record itself.
    let values: Vec<f64> = records[1]["Values"].as_array().into_iter().flatten().filter_map(Value::as_f64).collect();
    let times: Vec<&str> =
        records[1]["Timestamps"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
    let hi = values.iter().enumerate().fold(0, |b, (i, x)| if *x > values[b] { i } else { b });
    let lo = values.iter().enumerate().fold(0, |b, (i, x)| if *x < values[b] { i } else { b });
    let point = |i: usize| format!("{} at {}", values[i], times[i]);
    let ends =
        format!("20 points: {}, {}, {}, … {}, {}, {};", point(0), point(1), point(2), point(17), point(18), point(19));
    assert!(cell.starts_with(&ends), "{cell}");
    assert!(cell.ends_with(&format!("; highest {}; lowest {}", point(hi), point(lo))), "{cell}");
    // The times are said in the cell: their own column is left out, and listed.
    assert!(shown.get("Timestamps").is_none(), "{shown}");
    assert!(c.dropped.iter().any(|d| d == "Timestamps"), "{:?}", c.dropped);
}

#[test]
fn pairs_of_a_time_and_a_value_written_as_strings_are_a_series() {
    let records: Vec<Value> = (0..4)
        .map(|s| {
            let values: Vec<Value> =
                (0..30).map(|i| json!([1_767_218_400 + 30 * i, format!("0.{:03}", (i * 37 + s) % 1000)])).collect();
            json!({"metric": {"pod": format!("api-{s}")}, "values": values})
        })
        .collect();
    let shown = Compactor::learn(&records).apply(&records[2]);
    let cell = shown["values"].as_str().unwrap_or_default();
    // i = 27 gives (999 + 2) % 1000 = 1, the lowest; i = 26 gives 964, the highest.
    assert!(cell.starts_with("30 points: 0.002 at 1767218400, 0.039 at 1767218430, 0.076 at 1767218460, …"), "{cell}");
    assert!(cell.contains(", 0.075 at 1767219270; "), "{cell}");
    assert!(cell.contains("highest 0.964 at 1767219180; lowest 0.001 at 1767219210"), "{cell}");
}

#[test]
fn long_lists_that_are_not_series_keep_their_head() {
    // Numbers with no times of their length beside them (a histogram's buckets beside 21
    // days), times with no numbers, and words.
    let records: Vec<Value> = (0..4)
        .map(|s| {
            let days: Vec<String> = (1..=21).map(|d| format!("2026-0{}-{d:02}", s + 1)).collect();
            let words: Vec<String> = (0..20).map(|i| format!("w{}", i + s)).collect();
            json!({"id": s, "buckets": (0..20).map(|i| i * s).collect::<Vec<_>>(), "days": days, "words": words})
        })
        .collect();
    let shown = Compactor::learn(&records).apply(&records[1]);
    for list in ["buckets", "days", "words"] {
        let head = shown[list].as_array().map(Vec::len);
        assert_eq!(head, Some(4), "{list}: {shown}");
    }
}

#[test]
fn a_series_without_values_in_places_says_how_many_lack_one() {
    let records: Vec<Value> = (0..3)
        .map(|s| {
            let points: Vec<Value> = (0..10)
                .map(|i| {
                    if i % 4 == 1 {
                        json!([1_700_000_000_000_i64 + i, null])
                    } else {
                        json!([1_700_000_000_000_i64 + i, i + s])
                    }
                })
                .collect();
            json!({"scope": format!("s{s}"), "pointlist": points})
        })
        .collect();
    let shown = Compactor::learn(&records).apply(&records[0]);
    let cell = shown["pointlist"].as_str().unwrap_or_default();
    // Points 1, 5 and 9 have none: those points are written as they are, the extremes
    // come from the points that have a value.
    assert!(cell.starts_with("10 points: 0 at 1700000000000, null at 1700000000001, 2 at 1700000000002, …"), "{cell}");
    assert!(cell.contains(", null at 1700000000009; "), "{cell}");
    assert!(cell.contains("highest 8 at 1700000000008; lowest 0 at 1700000000000; 3 without a value"), "{cell}");
}

mod properties {
    use proptest::prelude::*;
    use serde_json::{Value, json};

    use crate::compact::Compactor;

    proptest! {
        /// Any series of pairs, values missing anywhere, is written with its count, and its
        /// highest and lowest are values it holds, no value above the one nor below the
        /// other, each at the time it came with.
        #[test]
        fn a_series_cell_counts_its_points_and_its_extremes_are_its_own(
            series in proptest::collection::vec(
                proptest::collection::vec(proptest::option::weighted(0.8, -1_000_000i64..1_000_000), 13..60),
                3..6,
            ),
        ) {
            let records: Vec<Value> = series
                .iter()
                .enumerate()
                .map(|(s, values)| {
                    let points: Vec<Value> = values
                        .iter()
                        .enumerate()
                        .map(|(i, v)| json!([1_767_218_400 + 60 * i as i64, v.map(|x| x as f64 / 100.0)]))
                        .collect();
                    json!({"name": format!("s{s}"), "points": points})
                })
                .collect();
            let c = Compactor::learn(&records);
            for (record, values) in records.iter().zip(&series) {
                let shown = c.apply(record);
                let Some(cell) = shown["points"].as_str() else {
                    // Only a record without a single value is no series.
                    prop_assert!(values.iter().all(Option::is_none), "{}", shown);
                    continue;
                };
                let count = format!("{} points: ", values.len());
                prop_assert!(cell.starts_with(&count), "{}", cell);
                let held: Vec<(usize, f64)> =
                    values.iter().enumerate().filter_map(|(i, v)| v.map(|x| (i, x as f64 / 100.0))).collect();
                let extreme = |word: &str| -> Option<(f64, i64)> {
                    let rest = cell.split(&format!("; {word} ")).nth(1)?;
                    let (value, rest) = rest.split_once(" at ")?;
                    let time = rest.split(';').next()?;
                    Some((value.parse().ok()?, time.parse().ok()?))
                };
                match (extreme("highest"), extreme("lowest")) {
                    (Some((hi, hi_at)), Some((lo, lo_at))) => {
                        prop_assert!(held.iter().all(|&(_, x)| x <= hi && x >= lo), "{}", cell);
                        let at = |t: i64| ((t - 1_767_218_400) / 60) as usize;
                        prop_assert_eq!(values[at(hi_at)].map(|x| x as f64 / 100.0), Some(hi));
                        prop_assert_eq!(values[at(lo_at)].map(|x| x as f64 / 100.0), Some(lo));
                    }
                    _ => prop_assert!(held.is_empty(), "{}", cell),
                }
            }
        }
    }
}
