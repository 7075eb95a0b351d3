//! Properties of the view a plan without fields gets (compact records, tables, facets, the
//! last records in the first read), over arbitrary records:
//!
//! - every field listed as left out is absent from every record shown, and comes back with
//!   the full records;
//! - facet counts equal the counts over the input, and an extreme names a record that holds it;
//! - a table stands for exactly the records the same page shows without the table;
//! - following `next` from the first read yields every record once.

use std::collections::BTreeMap;

use proptest::prelude::*;
use serde_json::{Map, Value, json};
use toolshape_redact::RedactSpec;
use toolshape_shape::{
    AutoSpec, Data, OffsetContinuation, Resume, ShapeContext, ShapePlan, Shaped, Shaper, SnapshotHead, table_records,
};
use toolshape_tokens::Tokenizer;

const NONCE: &str = "0123456789abcdef";

fn no_redaction() -> RedactSpec {
    RedactSpec { builtins: false, ..RedactSpec::default() }
}

fn shape(shaper: &Shaper, input: &[u8], resume: Option<Resume>) -> Shaped {
    let next = OffsetContinuation { tool: "read".into(), base: Map::new() };
    let ctx = ShapeContext {
        tool: "t",
        tokenizer: Tokenizer::default(),
        nonce: NONCE,
        now_unix: None,
        resume,
        continuation: &next,
    };
    shaper.shape(input, &ctx).expect("a budget this size always fits an envelope")
}

fn snapshot(shaper: &Shaper, input: &[u8]) -> Vec<u8> {
    snapshot_after(shaper, input, &SnapshotHead::default())
}

/// The snapshot made after a first read that gave `head`.
fn snapshot_after(shaper: &Shaper, input: &[u8], head: &SnapshotHead) -> Vec<u8> {
    let next = OffsetContinuation { tool: "read".into(), base: Map::new() };
    let ctx = ShapeContext {
        tool: "t",
        tokenizer: Tokenizer::default(),
        nonce: NONCE,
        now_unix: None,
        resume: None,
        continuation: &next,
    };
    shaper.snapshot_after(input, &ctx, head).bytes
}

fn plan(budget: usize) -> ShapePlan {
    ShapePlan { budget_tokens: budget, redact: no_redaction(), ..ShapePlan::default() }
}

/// The pages `next` leads to from `first`, in order, until it offers none or offers the
/// full fields (at most 100).
fn pages_after(shaper: &Shaper, input: &[u8], first: &Shaped) -> Vec<Shaped> {
    let stored = snapshot(shaper, input);
    let pages = shaper.for_pages();
    let mut out = Vec::new();
    let mut next = first.envelope.next.clone();
    while let Some(link) = next {
        let a = &link.arguments;
        let Some(offset) = a.get("offset").and_then(Value::as_u64) else { break };
        if a.get("full_fields").is_some() {
            break;
        }
        let resume = Resume::Records {
            offset,
            end: a.get("end").and_then(Value::as_u64),
            facets: a.get("facets").and_then(Value::as_u64),
        };
        let page = shape(&pages, &stored, Some(resume));
        next = page.envelope.next.clone();
        out.push(page);
        assert!(out.len() < 100, "no end");
    }
    out
}

/// Records of a realistic kind: an id, a status of few values, an amount, a link made of
/// the id, a user object that recurs, labels, sometimes a null, and text.
fn arb_records() -> impl Strategy<Value = Vec<Value>> {
    let row =
        (0usize..4, 0i64..100_000, 0usize..9, prop::collection::vec(0usize..4, 0..3), any::<bool>(), "[a-z ]{0,200}");
    prop::collection::vec(row, 3..90).prop_map(|rows| {
        rows.into_iter()
            .enumerate()
            .map(|(i, (status, amount, user, labels, gone, text))| {
                json!({
                    "id": format!("rec-{i}"),
                    "url": format!("https://api.example.com/things/rec-{i}"),
                    "status": (["open", "closed", "blocked", "draft"][status]),
                    "amount": amount,
                    "user": {"login": format!("user{user}"), "id": 100 + user, "avatar_url": format!("https://img.example.com/u/{}.png", 100 + user)},
                    "labels": labels.iter().map(|l| json!({"name": (["bug", "ui", "docs", "api"][*l]), "color": "ededed"})).collect::<Vec<_>>(),
                    "closed_at": if gone { Value::Null } else { json!("2025-12-01T10:00:00Z") },
                    "body": text,
                })
            })
            .collect()
    })
}

/// The records a page shows, as objects: rows of a table, records, or the head and the last.
fn shown(data: &Data) -> Vec<Value> {
    match data {
        Data::Table { columns, rows, last, .. } => {
            let mut all = table_records(columns, rows);
            all.extend(table_records(columns, last));
            all
        }
        Data::Records(r) => r.clone(),
        Data::Value(Value::Object(m)) => {
            let mut all: Vec<Value> = m.get("records").and_then(Value::as_array).cloned().unwrap_or_default();
            all.extend(m.get("last").and_then(Value::as_array).cloned().unwrap_or_default());
            all
        }
        _ => Vec::new(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]

    /// Fields listed as left out are in no record shown, and the full records have them.
    #[test]
    fn dropped_fields_are_absent_and_come_back(records in arb_records(), budget in 800usize..6000) {
        let shaper = Shaper::new(plan(budget)).unwrap();
        let input = serde_json::to_vec(&records).unwrap();
        let first = shape(&shaper, &input, None);
        let Some(fields) = first.envelope.omitted.as_ref().and_then(|o| o.fields.clone()) else { return Ok(()) };
        for rec in shown(&first.envelope.data) {
            for f in &fields {
                let name = f.trim_start_matches("*.");
                let present = rec.as_object().unwrap().keys().any(|k| k == name || k.ends_with(&format!(".{name}")));
                prop_assert!(!present, "`{}` is listed as left out but shown: {}", f, rec);
            }
        }
        // The full records, read as `next` offers them, have every field of the input.
        let full = shape(&shaper.for_pages().without_caps(), &snapshot(&shaper, &input), Some(Resume::Fields { offset: 0 }));
        if let Data::Records(full) = &full.envelope.data {
            prop_assert_eq!(full.as_slice(), &records[..full.len()]);
        } else {
            prop_assert!(false, "full records expected: {}", full.text);
        }
    }

    /// Facet counts are the counts over every record, and the extreme names its holder.
    #[test]
    fn facet_counts_equal_counts_over_the_input(records in arb_records()) {
        let shaper = Shaper::new(plan(8000)).unwrap();
        let s = shape(&shaper, &serde_json::to_vec(&records).unwrap(), None);
        let summary = &s.envelope.summary;
        let mut counts: BTreeMap<&str, u64> = BTreeMap::new();
        for r in &records {
            *counts.entry(r["status"].as_str().unwrap()).or_default() += 1;
        }
        let clause = summary.split("; ").find_map(|c| c.split_once("status: ").or_else(|| c.split_once("status, most first: ")).map(|(_, rest)| rest));
        // Eight records or more of at most four values always repeat enough to be counted.
        if records.len() >= 8 && counts.len() > 1 {
            prop_assert!(clause.is_some(), "status is not counted: {}", summary);
        }
        if let Some(clause) = clause {
            // Fields named as splitting the records alike must hold one value per status.
            let (clause, alike) = match clause.split_once(" (split alike: ") {
                Some((counts, names)) => (counts, names.trim_end_matches(')').split(", ").collect::<Vec<_>>()),
                None => (clause, Vec::new()),
            };
            if alike.contains(&"user.login") {
                let group = |f: &dyn Fn(&Value) -> Value| -> Vec<usize> {
                    records.iter().map(|r| records.iter().position(|o| f(o) == f(r)).unwrap()).collect()
                };
                prop_assert_eq!(group(&|r| r["status"].clone()), group(&|r| r["user"]["login"].clone()), "in: {}", summary);
            }
            let mut stated: Vec<&str> = clause.split(", ").collect();
            let mut want: Vec<String> = counts.iter().map(|(s, n)| format!("{s} {n}")).collect();
            stated.sort_unstable();
            want.sort();
            prop_assert_eq!(stated, want, "in: {}", summary);
        }
        let max = records.iter().map(|r| r["amount"].as_i64().unwrap()).max().unwrap();
        let holders: Vec<String> = records.iter().filter(|r| r["amount"] == json!(max)).map(|r| r["id"].as_str().unwrap().to_owned()).collect();
        if let Some(i) = summary.find("amount: max ") {
            let clause = &summary[i..];
            prop_assert!(clause.starts_with(&format!("amount: max {max} (")), "{}", clause);
            prop_assert!(holders.iter().any(|h| clause.contains(&format!("(id {h})"))), "{} not held by {:?}", clause, holders);
        }
    }

    /// A table stands for the records the same page shows without tables.
    #[test]
    fn tables_round_trip_to_the_records_shown(records in arb_records(), budget in 600usize..5000) {
        let input = serde_json::to_vec(&records).unwrap();
        let with = shape(&Shaper::new(plan(budget)).unwrap(), &input, None);
        let mut p = plan(budget);
        p.auto.table = false;
        let without = shape(&Shaper::new(p).unwrap(), &input, None);
        if let Data::Table { columns, rows, .. } = &with.envelope.data {
            let from_table = table_records(columns, rows);
            let plain = match &without.envelope.data {
                Data::Value(Value::Object(m)) => m.get("records").and_then(Value::as_array).cloned().unwrap_or_default(),
                other => shown(other),
            };
            // The table fits more rows in the same budget; those it shares must be equal.
            let n = from_table.len().min(plain.len());
            prop_assert_eq!(&from_table[..n], &plain[..n]);
        }
    }

    /// Following `next` from the first read (which also shows the last record) yields every
    /// record once.
    #[test]
    fn pages_after_the_first_read_yield_every_record_once(records in arb_records(), budget in 500usize..3000) {
        let shaper = Shaper::new(plan(budget)).unwrap();
        let input = serde_json::to_vec(&records).unwrap();
        let first = shape(&shaper, &input, None);
        let stored = snapshot(&shaper, &input);
        let pages = shaper.for_pages();
        let mut ids: Vec<String> = shown(&first.envelope.data).iter().map(|r| r["id"].as_str().unwrap().to_owned()).collect();
        let mut next = first.envelope.next.clone();
        let mut guard = 0;
        while let Some(n) = next {
            let a = &n.arguments;
            if a.get("full_fields").is_some() {
                break;
            }
            let offset = a["offset"].as_u64().unwrap();
            let end = a.get("end").and_then(Value::as_u64);
            let facets = a.get("facets").and_then(Value::as_u64);
            let page = shape(&pages, &stored, Some(Resume::Records { offset, end, facets }));
            let more = shown(&page.envelope.data);
            prop_assert!(!more.is_empty(), "a page must make progress: {}", page.text);
            ids.extend(more.iter().map(|r| r["id"].as_str().unwrap().to_owned()));
            next = page.envelope.next.clone();
            guard += 1;
            prop_assert!(guard < 200);
        }
        let mut want: Vec<String> = records.iter().map(|r| r["id"].as_str().unwrap().to_owned()).collect();
        let mut got = ids.clone();
        want.sort();
        got.sort();
        prop_assert_eq!(got, want, "ids read: {:?}", ids);
    }
}

/// Facets the first read has no room for are not lost: the pages after it go on with them,
/// each where the last stopped, until every field's counts were said.
#[test]
fn facets_left_out_of_the_first_read_come_with_the_next_pages() {
    let records: Vec<Value> = (0..80)
        .map(|i| {
            let mut m = Map::new();
            m.insert("id".into(), json!(format!("r{i:03}")));
            for f in 0..30 {
                // Each field splits the records its own way (fields that split them alike are
                // said together).
                m.insert(format!("field{f:02}"), json!(format!("v{}", (i / (f + 1)) % 3)));
            }
            Value::Object(m)
        })
        .collect();
    let shaper = Shaper::new(plan(1200)).unwrap();
    let input = serde_json::to_vec(&records).unwrap();
    let first = shape(&shaper, &input, None);
    let summary = |s: &Shaped| s.envelope.summary.clone();
    assert!(summary(&first).contains("more facets with next"), "{}", summary(&first));
    let mut said = vec![summary(&first)];
    said.extend(pages_after(&shaper, &input, &first).iter().map(summary));
    for f in 0..30 {
        let clause = format!("field{f:02}");
        let pages_saying: Vec<usize> = (0..said.len()).filter(|p| said[*p].contains(&clause)).collect();
        assert_eq!(pages_saying.len(), 1, "field{f:02} is said once, on {pages_saying:?}: {said:#?}");
    }
    assert!(!said.last().unwrap().contains("more facets with next"), "the last page leaves none: {said:#?}");
}

#[test]
fn the_full_view_is_off_switchable() {
    let records: Vec<Value> = (0..20).map(|i| json!({"id": i, "url": format!("https://x/{i}"), "s": "a"})).collect();
    let input = serde_json::to_vec(&records).unwrap();
    let off = shape(&Shaper::new(ShapePlan { auto: AutoSpec::OFF, ..plan(4000) }).unwrap(), &input, None);
    assert_eq!(off.envelope.data, Data::Records(records));
}

/// Records found in a list with a plural name are counted by that name (`40 spans`), so a
/// question about how many there are finds its word; a plan's own noun still comes first,
/// and a list with no such name keeps `records`.
#[test]
fn records_are_named_by_their_lists_name() {
    let spans: Vec<Value> =
        (0..40).map(|i| json!({"spanID": format!("{i:016x}"), "operationName": "GET", "duration": i})).collect();
    let input = serde_json::to_vec(&json!({"data": [{"traceID": "t1", "spans": spans}]})).unwrap();
    let summary = |plan: ShapePlan| shape(&Shaper::new(plan).unwrap(), &input, None).envelope.summary;
    assert!(summary(plan(300)).contains(" of 40 spans"), "{}", summary(plan(300)));
    let named = summary(ShapePlan { noun: Some("calls".into()), ..plan(300) });
    assert!(named.contains(" of 40 calls"), "{named}");
    let plain = serde_json::to_vec(&json!({"data": spans})).unwrap();
    let plain = shape(&Shaper::new(plan(300)).unwrap(), &plain, None).envelope.summary;
    assert!(plain.contains(" of 40 records"), "{plain}");
}

#[test]
fn records_two_lists_down_are_counted_in_the_first_read() {
    // Rule groups, each holding a dozen rules: the groups are the records, the rules what
    // a reader asks about.
    let groups: Vec<Value> = (0..25)
        .map(|g| {
            let rules: Vec<Value> = (0..12)
                .map(|r| {
                    let i = g * 12 + r;
                    json!({"name": format!("Rule{i}"), "health": if i % 30 == 7 { "err" } else { "ok" },
                           "type": if r < 8 { "alerting" } else { "recording" }, "evaluationTime": i})
                })
                .collect();
            // A group's own fields are more than a fifth of it, so the groups stay the
            // records (a wrapper around nothing but its list would be entered instead).
            let notes = format!("Rules of team {g}, evaluated every 30 seconds. ").repeat(12);
            json!({"name": format!("group-{g}.rules"), "interval": 30, "notes": notes, "rules": rules})
        })
        .collect();
    let input = serde_json::to_vec(&json!({"status": "success", "data": {"groups": groups}})).unwrap();
    let summary = shape(&Shaper::new(plan(4000)).unwrap(), &input, None).envelope.summary;
    assert!(summary.contains("300 rules inside the records"), "{summary}");
    assert!(summary.contains("err 10"), "{summary}");
    assert!(summary.contains("alerting 200, recording 100"), "{summary}");
}

#[test]
fn the_record_with_the_longest_list_is_named_in_the_first_read() {
    let packages: Vec<Value> = (0..60)
        .map(|i| {
            let deps: Vec<String> = (0..(i * 7) % 17).map(|d| format!("lib{d}")).collect();
            json!({"name": format!("pkg{i:02}"), "version": format!("1.{i}.0"), "dependencies": deps})
        })
        .collect();
    let input = serde_json::to_vec(&json!({"formulae": packages})).unwrap();
    let summary = shape(&Shaper::new(plan(4000)).unwrap(), &input, None).envelope.summary;
    // 7·i mod 17 is 16 first at i = 12.
    assert!(summary.contains("dependencies per record: most 16 (name pkg12), least 0 (name pkg00)"), "{summary}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

    /// The snapshot made after a first read, which takes that read's shaped records as its
    /// head, is byte for byte the snapshot made from the input alone, with the built-in
    /// redaction on and secrets in some records.
    #[test]
    fn a_snapshot_after_the_first_read_is_the_snapshot(
        records in arb_records(),
        budget in 800usize..6000,
        leaky in any::<bool>(),
    ) {
        let mut records = records;
        if leaky {
            for (i, r) in records.iter_mut().enumerate().filter(|(i, _)| i % 3 == 0) {
                r["body"] = json!(format!("write to ada{i}@example.com, key AKIAIOSFODNN7EXAMPLE"));
            }
        }
        let shaper = Shaper::new(ShapePlan { budget_tokens: budget, ..ShapePlan::default() }).unwrap();
        let input = serde_json::to_vec(&records).unwrap();
        let first = shape(&shaper, &input, None);
        let after = snapshot_after(&shaper, &input, &first.snapshot_head);
        let alone = snapshot(&shaper, &input);
        prop_assert_eq!(String::from_utf8_lossy(&after), String::from_utf8_lossy(&alone));
        // A first read that leaves records for `next` hands its sample on.
        if first.report.needs_snapshot {
            prop_assert!(!first.snapshot_head.is_empty(), "no head: {}", first.text);
        }
        if leaky {
            prop_assert!(!String::from_utf8_lossy(&after).contains("@example.com"));
        }
    }
}

/// A head made from one result is not used for another result's snapshot.
#[test]
fn a_head_from_another_result_is_not_used() {
    let shaper = Shaper::new(ShapePlan { budget_tokens: 800, ..ShapePlan::default() }).unwrap();
    let records = |prefix: &str| -> Vec<u8> {
        let list: Vec<Value> = (0..60)
            .map(|i| json!({"id": format!("{prefix}-{i}"), "status": (["open", "closed"][i % 2]), "body": "x".repeat(200)}))
            .collect();
        serde_json::to_vec(&list).unwrap()
    };
    let (first, other) = (records("a"), records("bee"));
    let head = shape(&shaper, &first, None).snapshot_head;
    assert!(!head.is_empty());
    assert_eq!(snapshot_after(&shaper, &other, &head), snapshot(&shaper, &other));
    assert_eq!(snapshot_after(&shaper, &first, &head), snapshot(&shaper, &first));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, .. ProptestConfig::default() })]

    /// A value said once as the same in every record (`same in every record that has it:
    /// status=open`) is the value of every record that has the field, even when the records
    /// that differ come long after the first ones; and a record that differs shows its own
    /// value wherever a page shows it. The first records alone once decided it, and the
    /// closed indices at the end of a listing were lost from every page.
    #[test]
    fn a_value_said_once_is_every_records_value(
        n in 60usize..400,
        differing in proptest::collection::btree_set(40usize..400, 0..4),
        budget in 800usize..4000,
    ) {
        let records: Vec<Value> = (0..n)
            .map(|i| {
                let status = if differing.contains(&i) { "close" } else { "open" };
                json!({"id": format!("idx-{i:04}"), "status": status, "docs": i * 31 % 97})
            })
            .collect();
        let closed: Vec<String> =
            records.iter().filter(|r| r["status"] == "close").map(|r| r["id"].as_str().unwrap().to_owned()).collect();
        let shaper = Shaper::new(plan(budget)).unwrap();
        let input = serde_json::to_vec(&records).unwrap();
        let first = shape(&shaper, &input, None);
        let said_once = first.envelope.summary.contains("same in every record that has it: status=open");
        prop_assert_eq!(said_once, closed.is_empty(), "{}", first.envelope.summary);
        // Every record read, on the first read and each page, shows its own status when
        // some record differs.
        let mut read = shown(&first.envelope.data);
        for page in pages_after(&shaper, &input, &first) {
            // A page may say what its own records share, never that every record does.
            let of_all = page.envelope.summary.contains("same in every record that has it: status=open");
            prop_assert!(closed.is_empty() || !of_all, "{}", page.envelope.summary);
            read.extend(shown(&page.envelope.data));
        }
        prop_assert!(read.len() <= 2 * n, "records read once: {}", read.len());
        for id in &closed {
            let record = read.iter().find(|r| r["id"] == id.as_str());
            prop_assert!(record.is_some_and(|r| r["status"] == "close"), "{id} read as {record:?}");
        }
    }
}

/// A field only a record far past the first ones holds (one failed job's `error`, a field
/// null in every record the view was learned from) was left out of every page, unlisted.
/// It is shown on the page that holds its record, and the first read counts it and names
/// its holder.
#[test]
fn a_field_only_a_late_record_holds_is_shown_where_it_is() {
    let records: Vec<Value> = (0..3000)
        .map(|i| {
            let state = ["ok", "slow"][i % 2];
            let mut r = json!({"id": i, "name": format!("job-{i:04}"), "state": state, "note": "x".repeat(300)});
            r["finished_at"] = if i == 2700 { json!("2026-01-02T03:04:05Z") } else { Value::Null };
            if i == 2500 {
                r["error"] = json!("disk full on /var");
            }
            r
        })
        .collect();
    let shaper = Shaper::new(plan(4000)).unwrap();
    let input = serde_json::to_vec(&records).unwrap();
    let first = shape(&shaper, &input, None);
    assert!(first.envelope.summary.contains("error (1 of 3,000 records: name job-2500)"), "{}", first.envelope.summary);
    let stored = snapshot(&shaper, &input);
    let pages = shaper.for_pages();
    for (offset, field, want) in [(2490, "error", "disk full on /var"), (2690, "finished_at", "2026-01-02T03:04:05Z")] {
        let page = shape(&pages, &stored, Some(Resume::Records { offset, end: None, facets: None }));
        let read = shown(&page.envelope.data);
        let holder = read.iter().find(|r| r[field] == want);
        assert!(holder.is_some(), "{field} not shown at {offset}: {}", page.text);
    }
}

#[test]
fn the_first_read_shows_a_few_records_at_the_end_and_the_pages_stop_before_them() {
    // 300 small records, far more than a page: the end of the result is shown as its last
    // few records in order, and the pages from `next` stop just before them.
    let records: Vec<Value> = (0..300)
        .map(|i| {
            let note =
                format!("entry {i} of the ledger, reconciled against batch {} on day {}", i * 7919 % 1000, i % 28);
            json!({"id": format!("rec-{i}"), "seq": i, "kind": (["a", "b", "c"][i % 3]), "note": note})
        })
        .collect();
    let input = serde_json::to_vec(&records).unwrap();
    let shaper = Shaper::new(plan(4000)).unwrap();
    let first = shape(&shaper, &input, None);
    let seqs = |page: &Shaped| -> Vec<u64> {
        shown(&page.envelope.data).iter().filter_map(|r| r.get("seq").and_then(Value::as_u64)).collect()
    };
    let seen = seqs(&first);
    let tail: Vec<u64> = seen.iter().copied().skip_while(|s| *s < 150).collect();
    assert!(tail.len() > 1, "more than the last record is shown: {seen:?}");
    let from = 300 - tail.len() as u64;
    assert_eq!(tail, (from..300).collect::<Vec<_>>(), "the end, in order");
    assert!(
        first.envelope.summary.contains(&format!("and the last {} of 300", tail.len())),
        "{}",
        first.envelope.summary
    );
    let head = seen.len() - tail.len();
    assert!(head > tail.len(), "the start keeps most of the page: {head} against {}", tail.len());
    let pages = pages_after(&shaper, &input, &first);
    let after: Vec<u64> = pages.iter().flat_map(seqs).collect();
    assert_eq!(after.first().copied(), Some(head as u64), "the pages go on after the head");
    assert_eq!(after.last().copied(), Some(from - 1), "and stop before the end already shown");
}

#[test]
fn a_list_written_as_names_lists_its_other_members_as_left_out_and_offers_them() {
    // `tree -J`: a folder and a report, the folder's `contents` written as names: what the
    // folders hold is not in the compact view, so the first read says so and `next` offers
    // the full records, though the view fits.
    let folder = |name: &str| {
        let contents: Vec<Value> =
            (0..6).map(|i| json!({"type": "file", "name": format!("{name}-{i}.txt"), "size": 1000 + i * 37})).collect();
        json!({"type": "directory", "name": name, "contents": contents})
    };
    let mut home = folder(".");
    home["contents"] = json!([folder("docs"), folder("src"), folder("notes")]);
    let input = serde_json::to_vec(&json!([home, {"type": "report", "directories": 4, "files": 18}])).unwrap();
    let first = shape(&Shaper::new(plan(4000)).unwrap(), &input, None);
    let left_out = first.envelope.omitted.as_ref().and_then(|o| o.fields.clone()).unwrap_or_default();
    assert!(left_out.iter().any(|f| f == "contents[].contents"), "{left_out:?} in {}", first.text);
    let next = first.envelope.next.as_ref().expect("the full records are offered");
    assert_eq!(next.arguments.get("full_fields"), Some(&json!(true)), "{next:?}");
}
