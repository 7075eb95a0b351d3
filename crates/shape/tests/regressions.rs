//! Regression tests, each named after the problem it pins.

use std::collections::BTreeMap;

use toolshape_shape::{Data, Form, OffsetContinuation, ShapeContext, ShapePlan, Shaper, Status};
use toolshape_tokens::Tokenizer;

fn shape(plan: ShapePlan, payload: &[u8]) -> toolshape_shape::Shaped {
    let shaper = Shaper::new(plan).expect("a valid plan");
    let next = OffsetContinuation { tool: "result_read".into(), base: Default::default() };
    let ctx = ShapeContext {
        tool: "issue",
        tokenizer: Tokenizer::default(),
        nonce: "0123456789abcdef",
        now_unix: None,
        resume: None,
        continuation: &next,
    };
    shaper.shape(payload, &ctx).expect("shaping succeeds")
}

/// An object that is mostly one long string used to be read as text before projection and
/// field caps, so upstream data alone could put a whole body where the plan capped it.
#[test]
fn a_mostly_one_string_object_cannot_step_around_field_caps() {
    let body = "attacker text ".repeat(600);
    let payload = serde_json::json!({"number": 7, "title": "t", "body": body}).to_string();
    let plan = ShapePlan { field_tokens: BTreeMap::from([("body".to_owned(), 50)]), ..ShapePlan::default() };
    let shaped = shape(plan, payload.as_bytes());
    let Data::Value(value) = &shaped.envelope.data else {
        panic!("expected the object, got {:?}", shaped.envelope.data)
    };
    let shown = value["body"].as_str().unwrap();
    let tokens = Tokenizer::default().count(shown);
    assert!(tokens <= 60, "body shown with {tokens} tokens despite a cap of 50");
    assert_eq!(value["number"], 7);

    // Without any declared structure, the same object still reads as text (a file's content).
    let shaped = shape(ShapePlan::default(), payload.as_bytes());
    assert!(matches!(shaped.envelope.data, Data::Text(_)), "{:?}", shaped.envelope.status);
}

/// `form: reference` used to apply to lists of records only: a text or a single value came
/// back whole (up to the budget) instead of as a handle.
#[test]
fn reference_form_stores_text_and_single_values_too() {
    let plan = ShapePlan { form: Form::Reference, ..ShapePlan::default() };
    let text = "line one\nline two\nline three\n".repeat(200);
    let shaped = shape(plan.clone(), text.as_bytes());
    assert_eq!(shaped.envelope.status, Status::Ok);
    assert!(matches!(shaped.envelope.data, Data::Null));
    assert!(shaped.envelope.next.is_some() && shaped.report.needs_snapshot);
    let omitted = shaped.envelope.omitted.as_ref().unwrap();
    assert_eq!((omitted.unit.as_str(), omitted.count), ("lines", 600));
    assert!(shaped.envelope.summary.contains("600 lines"), "{}", shaped.envelope.summary);

    let value = serde_json::json!({"tree": {"a": 1}}).to_string();
    let shaped = shape(plan, value.as_bytes());
    assert!(matches!(shaped.envelope.data, Data::Null) && shaped.envelope.next.is_some());
}

mod same_cursor_same_page {
    //! Each answer carries a fresh random nonce, and nonces tokenize to different lengths;
    //! the fit used to count the real nonce, so reading the same cursor twice could give pages
    //! one record apart. Fitting now measures the widest nonce of that length instead.

    #![allow(clippy::unwrap_used)]

    use proptest::prelude::*;
    use serde_json::json;
    use toolshape_shape::{
        OffsetContinuation, RenderMode, Resume, ShapeContext, ShapeError, ShapePlan, Shaped, Shaper,
    };
    use toolshape_shape::{close_delimiter, open_delimiter, widest_nonce};
    use toolshape_tokens::{Encoding, Tokenizer};

    fn try_shape(
        shaper: &Shaper,
        payload: &[u8],
        resume: Option<Resume>,
        tokenizer: Tokenizer,
        nonce: &str,
    ) -> Result<Shaped, ShapeError> {
        let next = OffsetContinuation { tool: "result_read".into(), base: Default::default() };
        let ctx = ShapeContext { tool: "list", tokenizer, nonce, now_unix: None, resume, continuation: &next };
        shaper.shape(payload, &ctx)
    }

    /// Records whose words vary, so page ends fall anywhere.
    fn records() -> impl Strategy<Value = Vec<u8>> {
        prop::collection::vec(("[a-z]{1,9}( [a-z0-9]{1,7}){0,12}", 0u32..100_000), 1..80).prop_map(|rows| {
            let list: Vec<_> =
                rows.into_iter().enumerate().map(|(i, (title, n))| json!({"id": i, "title": title, "n": n})).collect();
            serde_json::to_vec(&list).unwrap()
        })
    }

    /// Lines of text, for the text path's head (and tail) fit.
    fn text() -> impl Strategy<Value = Vec<u8>> {
        prop::collection::vec("[a-z0-9 ]{0,60}", 1..120).prop_map(|lines| lines.join("\n").into_bytes())
    }

    fn encoding() -> impl Strategy<Value = Encoding> {
        prop::sample::select(Encoding::ALL.to_vec())
    }

    fn check_same_page(
        shaper: &Shaper,
        payload: &[u8],
        resume: Option<Resume>,
        tokenizer: Tokenizer,
        nonces: [&str; 2],
    ) {
        let budget = shaper.plan().budget_tokens;
        // A budget below what the page's frame takes with the widest nonce is refused, the
        // same way whatever the nonce (a random case found a frame of 105 tokens at 104).
        let tried = nonces.map(|n| try_shape(shaper, payload, resume.clone(), tokenizer, n));
        if let [Err(a), Err(b)] = &tried {
            assert_eq!(a, b, "the refusal does not depend on the nonce");
            assert!(matches!(a, ShapeError::BudgetTooSmall { minimum, .. } if *minimum > budget), "{a:?}");
            return;
        }
        let [a, b] = tried.map(|t| t.expect("shaping succeeds with both nonces or with neither"));
        // The same page: same records, same omissions, same cursor.
        assert_eq!(a.envelope, b.envelope);
        assert_eq!(a.report.records_kept, b.report.records_kept);
        assert_eq!(a.report.cut_at, b.report.cut_at);
        // Only the nonce differs in what the model reads.
        assert_eq!(a.text.replace(nonces[0], nonces[1]), b.text);
        for (shaped, nonce) in [(&a, nonces[0]), (&b, nonces[1])] {
            assert!(shaped.text.starts_with(&open_delimiter(nonce)), "{}", shaped.text);
            assert!(shaped.text.ends_with(&close_delimiter(nonce)), "{}", shaped.text);
            // The budget still holds with the real nonce, and the report counts the real text.
            let tokens = tokenizer.count(&shaped.text);
            assert!(tokens <= budget, "{tokens} tokens > budget {budget}");
            assert_eq!(Some(tokens as u64), shaped.report.tokens_out);
            assert_eq!(shaped.text.len() as u64, shaped.report.bytes_out);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 160, ..ProptestConfig::default() })]

        #[test]
        fn records_pages_do_not_depend_on_the_nonce(
            payload in records(),
            budget in 100usize..700,
            offset in 0u64..40,
            prose in any::<bool>(),
            encoding in encoding(),
            // Hex nonces with a letter: a nonce of digits only is of the other kind, which
            // fitting measures with its own stand-in (see `pages_do_not_depend_on_a_nonce_of_digits`).
            first in "[a-f][0-9a-f]{15}",
            second in "[a-f][0-9a-f]{15}",
        ) {
            let render = if prose { RenderMode::Prose } else { RenderMode::Json };
            let shaper = Shaper::new(ShapePlan { budget_tokens: budget, render, ..ShapePlan::default() }).unwrap();
            let resume = (offset > 0).then_some(Resume::Records { offset, end: None, facets: None });
            check_same_page(&shaper, &payload, resume, Tokenizer::new(encoding), [&first, &second]);
        }

        #[test]
        fn text_pages_do_not_depend_on_the_nonce(
            payload in text(),
            budget in 200usize..600,
            encoding in encoding(),
            // Hex nonces with a letter: a nonce of digits only is of the other kind, which
            // fitting measures with its own stand-in (see `pages_do_not_depend_on_a_nonce_of_digits`).
            first in "[a-f][0-9a-f]{15}",
            second in "[a-f][0-9a-f]{15}",
        ) {
            let shaper = Shaper::new(ShapePlan { budget_tokens: budget, ..ShapePlan::default() }).unwrap();
            check_same_page(&shaper, &payload, None, Tokenizer::new(encoding), [&first, &second]);
        }

        /// The gateway's nonces are 20 decimal digits, fitted against 20 zeros.
        #[test]
        fn pages_do_not_depend_on_a_nonce_of_digits(
            records in records(),
            lines in text(),
            budget in 100usize..700,
            encoding in encoding(),
            first in "[0-9]{20}",
            second in "[0-9]{20}",
        ) {
            let shaper = Shaper::new(ShapePlan { budget_tokens: budget, ..ShapePlan::default() }).unwrap();
            check_same_page(&shaper, &records, None, Tokenizer::new(encoding), [&first, &second]);
            let shaper = Shaper::new(ShapePlan { budget_tokens: budget.max(200), ..ShapePlan::default() }).unwrap();
            check_same_page(&shaper, &lines, None, Tokenizer::new(encoding), [&first, &second]);
        }

        /// What fitting relies on: no nonce of letters and digits costs more than the widest
        /// one of its length, in either delimiter, with either encoding.
        #[test]
        fn no_nonce_costs_more_than_the_widest(nonce in "[0-9A-Za-z]{1,32}", encoding in encoding()) {
            let tok = Tokenizer::new(encoding);
            let widest = widest_nonce(&nonce).unwrap();
            prop_assert_eq!(widest.len(), nonce.len());
            for delimiter in [open_delimiter, close_delimiter] {
                let with_real = tok.count(&format!("{}\n{{}}", delimiter(&nonce)));
                let with_widest = tok.count(&format!("{}\n{{}}", delimiter(&widest)));
                prop_assert!(with_real <= with_widest, "{} costs {} > {} for {}", nonce, with_real, with_widest, widest);
            }
        }
    }

    /// Hex nonces really do differ in cost (the reason for the fix); if they ever stopped
    /// differing, the properties above would prove nothing.
    #[test]
    fn hex_nonces_differ_in_token_cost() {
        let tok = Tokenizer::default();
        let costs: std::collections::BTreeSet<usize> =
            ["0123456789abcdef", "deadbeefcafebabe", "0a1b2c3d4e5f6a7b", "ffffffffffffffff"]
                .iter()
                .map(|n| tok.count(&open_delimiter(n)))
                .collect();
        assert!(costs.len() > 1, "{costs:?}");
    }

    #[test]
    fn a_nonce_with_other_characters_is_fitted_as_it_is() {
        assert_eq!(widest_nonce("ab-cd"), None);
        assert_eq!(widest_nonce("abc").as_deref(), Some("0a1"));
    }
}

/// A record larger than a whole page, read with its full fields, used to come back as its
/// leading scalars alone (an Envoy config dump's `RoutesConfigDump`: `{"@type": …}` and
/// nothing else, `next: null`): the one member that held the data was dropped whole. It now
/// shows the head of that member, in document order, within the budget.
#[test]
fn a_record_larger_than_a_page_shows_the_head_of_its_large_member() {
    use serde_json::json;
    use toolshape_shape::Resume;
    let routes: Vec<_> = (0..60)
        .map(|i| {
            let hosts: Vec<_> =
                (0..10).map(|j| json!({"domains": [format!("svc-{i}-{j}.shop.svc")], "timeout": "15s"})).collect();
            json!({"name": format!("route-{i}"), "virtual_hosts": hosts})
        })
        .collect();
    let record =
        json!({"@type": "type.googleapis.com/envoy.admin.v3.RoutesConfigDump", "dynamic_route_configs": routes});
    // Beside another config, as a config dump lists them: a list of that one record alone
    // would be entered, its routes read as the records.
    let listeners = json!({"@type": "type.googleapis.com/envoy.admin.v3.ListenersConfigDump", "version_info": "7"});
    let payload = serde_json::to_vec(&json!([record, listeners])).unwrap();
    let budget = 1000;
    let shaper = Shaper::new(ShapePlan { budget_tokens: budget, ..ShapePlan::default() }).unwrap().without_caps();
    let next = OffsetContinuation { tool: "result_read".into(), base: Default::default() };
    for resume in [None, Some(Resume::Fields { offset: 0 })] {
        let ctx = ShapeContext {
            tool: "config_dump",
            tokenizer: Tokenizer::default(),
            nonce: "0123456789abcdef",
            now_unix: None,
            resume: resume.clone(),
            continuation: &next,
        };
        let shaped = shaper.shape(&payload, &ctx).unwrap();
        let tokens = Tokenizer::default().count(&shaped.text);
        assert!(tokens <= budget, "{tokens}: {}", shaped.text);
        let Data::Records(records) = &shaped.envelope.data else { panic!("{}", shaped.text) };
        let shown = records[0]["dynamic_route_configs"].as_array().map_or(0, Vec::len);
        assert!(shown >= 1, "{resume:?}: no route shown: {}", shaped.text);
        assert_eq!(records[0]["dynamic_route_configs"][0]["name"], "route-0", "{}", shaped.text);
        let omitted = shaped.envelope.omitted.as_ref().expect("what was left out is said");
        assert!(
            omitted.fields_cut.as_ref().is_some_and(|f| f.contains_key("dynamic_route_configs")),
            "{}",
            shaped.text
        );
    }
}

/// Alerts acknowledged by different people were summarized as "same in every record that
/// has it: acknowledgedBy=[EMAIL]": the sample is redacted before the view is learned, so
/// different addresses looked equal. A redacted value is never said to be shared; the field
/// is listed with those left out.
#[test]
fn values_redacted_alike_are_not_said_to_be_the_same() {
    let alerts: Vec<serde_json::Value> = (0..60)
        .map(|i| {
            serde_json::json!({
                "tinyId": 34_000 + i,
                "status": (["open", "closed"][i % 2]),
                "acknowledgedBy": format!("person{}@example.com", i % 7),
                "source": "Datadog",
            })
        })
        .collect();
    let payload = serde_json::json!({ "data": alerts }).to_string();
    let shaped = shape(ShapePlan::default(), payload.as_bytes());
    let summary = &shaped.envelope.summary;
    assert!(!summary.contains("acknowledgedBy=[EMAIL]"), "{summary}");
    assert!(summary.contains("source=Datadog"), "a real constant is still said once: {summary}");
    let omitted = serde_json::to_value(shaped.envelope.omitted.as_ref().expect("something is left out")).unwrap();
    assert!(omitted["fields"].to_string().contains("acknowledgedBy"), "{omitted}");
    assert!(!shaped.text.contains("example.com"), "addresses stay redacted");
}

/// A list of one object larger than a page (a GraphQL board around its items) used to be
/// one record: the first read showed the head of the first item and counted nothing. Its
/// items are now the records, paged and counted like any list, the board's scalars noted.
#[test]
fn a_list_of_one_large_object_is_read_by_the_records_inside_it() {
    use serde_json::json;
    // More bytes than any page of the default budget holds (eight per token).
    let items: Vec<_> = (0..900)
        .map(|i| json!({"id": format!("{}", 9_000 + i), "name": format!("task {i}"), "state": if i % 3 == 0 { "done" } else { "open" }}))
        .collect();
    let board = json!({"id": "17", "name": "Relaunch", "items_page": {"cursor": "c1", "items": items}});
    let payload = json!({"data": {"boards": [board]}, "account_id": 4}).to_string();
    let shaped = shape(ShapePlan::default(), payload.as_bytes());
    let Data::Table { columns, rows, .. } = &shaped.envelope.data else { panic!("{}", shaped.text) };
    let name = columns.iter().position(|c| c == "name").expect("a name column");
    assert_eq!(rows[0][name], "task 0", "{}", shaped.text);
    let summary = &shaped.envelope.summary;
    assert!(payload.len() > 4000 * 8, "{}", payload.len());
    assert!(summary.contains("of 900 items"), "{summary}");
    assert!(summary.contains("name=\"Relaunch\""), "{summary}");
    assert!(summary.contains("done 300"), "the items' states are counted: {summary}");
}

/// An access log written as JSON Lines was read as text: its lines counted as line
/// patterns, no field counted and no record found by a `pattern` read. One object per line
/// is a list of records.
#[test]
fn json_lines_are_read_as_records() {
    let log: String = (0..200)
        .map(|i| {
            let status = [200, 200, 201, 404][i % 4];
            format!(
                "{}\n",
                serde_json::json!({"level": "info", "ts": 1_767_225_175 + i, "request": {"method": "GET", "uri": format!("/api/items/{i}")}, "status": status, "size": 100 + i})
            )
        })
        .collect();
    let shaped = shape(ShapePlan { budget_tokens: 1000, ..ShapePlan::default() }, log.as_bytes());
    let Data::Table { rows, .. } = &shaped.envelope.data else { panic!("{}", shaped.text) };
    assert!(!rows.is_empty() && rows.len() < 200, "{}", shaped.text);
    let summary = &shaped.envelope.summary;
    assert!(summary.contains(" of 200 records"), "{summary}");
    assert!(summary.contains("status, most first: 200 100, 201 50, 404 50"), "{summary}");
    assert!(shaped.envelope.next.is_some(), "{}", shaped.text);
}

/// A head-and-tail read of one line longer than the page (a minified file) left the tail's
/// share of the room unused: the tail had no whole line to show. The head now takes it.
#[test]
fn a_tail_with_nothing_to_show_leaves_its_room_to_the_head() {
    let line: String = (0..20_000).map(|i| format!("v{i}=")).collect();
    let read = |tail: bool| {
        let mut plan = ShapePlan { budget_tokens: 400, ..ShapePlan::default() };
        plan.text.keep = toolshape_shape::TextKeep::Head;
        plan.auto.tail = tail;
        let shaped = shape(plan, line.as_bytes());
        let Data::Text(shown) = &shaped.envelope.data else { panic!("a text page") };
        shown.len()
    };
    let (head_tail, head_only) = (read(true), read(false));
    // The same room, less the few tokens the page's summary may spend on saying so.
    assert!(head_tail * 10 >= head_only * 9, "head and tail {head_tail} bytes, head only {head_only}");
}

/// Head and tail share a page's room equally: the last lines of a command's output or a log
/// (its outcome, its latest state) get as much room as the first.
#[test]
fn head_and_tail_share_the_room_equally() {
    let text: String = (1..=600).map(|i| format!("line {i}: the widgets service handles request {i}\n")).collect();
    let mut plan = ShapePlan { budget_tokens: 1_000, ..ShapePlan::default() };
    plan.text.keep = toolshape_shape::TextKeep::HeadTail;
    let shaped = shape(plan, text.as_bytes());
    let Data::Text(shown) = &shaped.envelope.data else { panic!("a text page") };
    let (head, tail) = shown.split_once("omitted …]\n").expect("a gap between head and tail");
    let (head_lines, tail_lines) = (head.lines().count() - 1, tail.lines().count());
    assert!(head_lines.abs_diff(tail_lines) <= 2, "head {head_lines} lines, tail {tail_lines}");
}

/// `npm audit --json` keeps its findings in `vulnerabilities`, an object keyed by package
/// name, beside a version and a `metadata` of totals. Read as one object, the first read
/// showed `auditReportVersion` alone and named the rest as not shown; the packages are
/// now its records, and the totals are said beside them.
#[test]
fn a_wrappers_map_of_records_is_read_as_records() {
    let mut vulnerabilities = serde_json::Map::new();
    for i in 0..300 {
        let severity = ["low", "moderate", "high", "critical"][i % 4];
        vulnerabilities.insert(
            format!("pkg-{i}"),
            serde_json::json!({"name": format!("pkg-{i}"), "severity": severity, "isDirect": i % 5 == 0, "range": "<2.0.0"}),
        );
    }
    let audit = serde_json::json!({
        "auditReportVersion": 2,
        "vulnerabilities": vulnerabilities,
        "metadata": {"vulnerabilities": {"low": 75, "moderate": 75, "high": 75, "critical": 75, "total": 300}},
    });
    let shaped = shape(ShapePlan::default(), audit.to_string().as_bytes());
    let summary = &shaped.envelope.summary;
    assert!(summary.contains("records: the 300 vulnerabilities, each named in `key`"), "{summary}");
    assert!(summary.contains("critical 75"), "{summary}");
    assert!(
        shaped.text.contains("pkg-0") && shaped.text.contains("pkg-299"),
        "first and last package: {}",
        shaped.text
    );
}

/// A list of request lines under a title and a sub-title was mapped by its two headings
/// alone, so "how many requests returned 404" or "which host got the most requests" had no
/// answer in the first read: the body under the headings is now read as the table it is,
/// the group `[failed - 404]` counted as its values, and its links' hosts counted.
#[test]
fn a_table_framed_by_two_headings_is_mapped_as_a_table() {
    let hosts = ["img.shop.example", "api.shop.example", "cdn.tracker.example"];
    let mut text = String::from("# list_network_requests response\n## Network requests\n");
    for i in 1..=300 {
        let status = if i % 25 == 0 { "failed - 404" } else { "success - 200" };
        let method = if i % 6 == 0 { "POST" } else { "GET" };
        let host = hosts[i % 7 % 3];
        let word = ["sofa", "lamp", "rug", "desk", "chair"][i % 5];
        text.push_str(&format!("reqid={i} {method} https://{host}/{word}/{i}?v=2 [{status}]\n"));
    }
    let plan = ShapePlan { budget_tokens: 2_000, ..ShapePlan::default() };
    let shaped = shape(plan, text.as_bytes());
    let summary = &shaped.envelope.summary;
    assert!(summary.contains("2 headings"), "the headings are still listed: {summary}");
    assert!(summary.contains("table of 300 rows"), "{summary}");
    let failed = (1..=300).filter(|i| i % 25 == 0).count();
    assert!(summary.contains(&format!("404 {failed}")), "the status is counted without its bracket: {summary}");
    let on = |h: &str| (1..=300).filter(|i| hosts[i % 7 % 3] == h).count();
    for h in hosts {
        assert!(summary.contains(&format!("{h} {}", on(h))), "{h} counted in {summary}");
    }
}

/// A document whose sections share its lines keeps its map of headings.
#[test]
fn a_document_of_sections_keeps_its_headings_map() {
    let mut doc = String::new();
    for s in 0..6 {
        doc.push_str(&format!("## Step {s}\n"));
        for l in 0..60 {
            doc.push_str(&format!("item {l} of step {s} takes {} ms while the queue drains slowly\n", l * 3 + s));
        }
    }
    let shaped = shape(ShapePlan { budget_tokens: 2_000, ..ShapePlan::default() }, doc.as_bytes());
    let summary = &shaped.envelope.summary;
    assert!(summary.contains("6 headings; by line: 1 ## Step 0"), "{summary}");
    assert!(!summary.contains("table of"), "{summary}");
}

/// A report whose audits sit in a map by id beside its settings and categories was shown
/// member by member, the audits named only by their count, so "how many audits are manual"
/// had no answer short of paging every audit whole. The first read now says them as
/// records with their facets; a mask's read and later pages do not.
#[test]
fn a_documents_map_of_records_is_counted_in_its_first_read() {
    let modes = ["binary", "binary", "notApplicable", "manual"];
    let audits: serde_json::Map<String, serde_json::Value> = (0..120)
        .map(|i| {
            let details = "detail text ".repeat(40);
            (
                format!("audit-{i}"),
                serde_json::json!({"id": format!("audit-{i}"), "title": format!("Audit {i}"), "scoreDisplayMode": modes[i % 4], "details": details}),
            )
        })
        .collect();
    let report = serde_json::json!({
        "version": "12.2.1",
        "fetchTime": "2025-12-31T20:13:29.677Z",
        "audits": audits,
        "configSettings": {"formFactor": "mobile", "locale": "en-US"},
        "categories": {"performance": {"score": 0.5}, "seo": {"score": 0.9}},
        "entities": [{"name": "Shop", "isFirstParty": true}, {"name": "Tag Manager"}],
    });
    let payload = report.to_string();
    let shaped = shape(ShapePlan { budget_tokens: 2_000, ..ShapePlan::default() }, payload.as_bytes());
    let summary = &shaped.envelope.summary;
    assert!(summary.contains("audits: 120 records, each named in `key`"), "{summary}");
    let manual = (0..120).filter(|i| modes[i % 4] == "manual").count();
    assert!(summary.contains(&format!("manual {manual}")), "{summary}");
    let masked = ShapePlan { budget_tokens: 2_000, project: vec!["version".parse().unwrap()], ..ShapePlan::default() };
    let shaped = shape(masked, payload.as_bytes());
    assert!(!shaped.envelope.summary.contains("records, each named"), "{}", shaped.envelope.summary);
}

/// A report's `timing.total` sat after its audits, a member larger than a page, so no read
/// short of paging past the audits showed it. The members after one too large for the page
/// were then listed with their short values; since a large member is read in parts, the
/// first read shows the document's end as well, and these members with it.
#[test]
fn short_members_behind_a_large_one_are_said_with_their_values() {
    let big: serde_json::Map<String, serde_json::Value> =
        (0..200).map(|i| (format!("k{i}"), serde_json::json!("padding ".repeat(20)))).collect();
    let doc = serde_json::json!({
        "version": "1.2",
        "blob": big,
        "timing": {"total": 24606.11, "note": "whole run"},
        "finished": true,
        "link": "https://example.com/a/report",
    });
    let shaped = shape(ShapePlan { budget_tokens: 1_000, ..ShapePlan::default() }, doc.to_string().as_bytes());
    let Data::Value(data) = &shaped.envelope.data else { panic!("a document: {:?}", shaped.envelope.data) };
    assert_eq!(data["timing"]["total"], 24606.11, "{data}");
    assert_eq!(data["finished"], true, "{data}");
    let summary = &shaped.envelope.summary;
    assert!(
        summary.contains("; next from blob.k") && summary.contains("not shown: the rest of blob (200 members)"),
        "{summary}"
    );
}

/// A mail's headers are a list of `{name, value}` objects in which `Received` comes twice.
/// The repeat made the list read as a list of things, so the view showed each message's
/// header names and no subject or sender. Names may now repeat within a list for a few of
/// its items (the first value is shown), and long values are cut as a field's would be.
#[test]
fn a_list_of_name_value_pairs_with_a_repeated_name_is_read_as_fields() {
    let messages: Vec<serde_json::Value> = (0..40)
        .map(|i| {
            let signature = format!("v=1; a=rsa-sha256; b={}", "Zm9vYmFyYmF6cXV4".repeat(12 + i % 3));
            serde_json::json!({
                "id": format!("19b7{i:012x}"),
                "payload": {"headers": [
                    {"name": "Received", "value": format!("by 10.0.0.{i} with SMTP id x{i}")},
                    {"name": "Received", "value": format!("from relay-{i}.mail.example.net")},
                    {"name": "DKIM-Signature", "value": signature},
                    {"name": "Subject", "value": format!("Order #{} arrived damaged", 1000 + i)},
                    {"name": "Date", "value": format!("Wed, {} Dec 2025 10:31:19 -0700", 1 + i % 28)},
                    {"name": "MIME-Version", "value": "1.0"},
                ]},
            })
        })
        .collect();
    let payload = serde_json::Value::Array(messages).to_string();
    let shaped = shape(ShapePlan { budget_tokens: 2_000, ..ShapePlan::default() }, payload.as_bytes());
    let data = format!("{:?}", shaped.envelope.data);
    assert!(data.contains("payload.headers.Subject"), "{data}");
    assert!(data.contains("Order #1000 arrived damaged"), "{data}");
    assert!(data.contains("by 10.0.0.0 with SMTP id x0"), "the first of a repeated name's values: {data}");
    assert!(!data.contains(&"Zm9vYmFyYmF6cXV4".repeat(12)), "a long signature is cut: {data}");
}

/// coverage.py's report ends with a `TOTAL` row, which was counted as a file: every
/// column's largest value was `TOTAL`'s. A last row whose numbers sum the rows above it is
/// now said as the table's totals and left out of its facets.
#[test]
fn a_tables_totals_row_is_not_its_largest_row() {
    let mut text = format!("{:<40}{:>8}{:>8}{:>8}\n{}\n", "Name", "Stmts", "Miss", "Cover", "-".repeat(64));
    let (mut stmts, mut miss) = (0, 0);
    for i in 0..300 {
        let (s, m) = (10 + (i * 37) % 400, (i * 13) % 9);
        stmts += s;
        miss += m;
        text.push_str(&format!("{:<40}{s:>8}{m:>8}{:>7}%\n", format!("app/module_{i}.py"), 100 - m));
    }
    text.push_str(&format!("{}\n{:<40}{stmts:>8}{miss:>8}{:>7}%\n", "-".repeat(64), "TOTAL", 97));
    let shaped = shape(ShapePlan { budget_tokens: 2_000, ..ShapePlan::default() }, text.as_bytes());
    let summary = &shaped.envelope.summary;
    assert!(summary.contains(&format!("the last row totals the 300 above it: Name TOTAL, Stmts {stmts}")), "{summary}");
    assert!(!summary.contains("(Name TOTAL)"), "{summary}");
    assert!(summary.contains("Stmts: max 409 (Name app/module_"), "{summary}");
}

/// The MySQL client's vertical rows write a missing value as `NULL`: it was counted as the
/// most common coupon (`NULL 264`). `NULL` is now no value, and the records without one
/// are counted.
#[test]
fn sql_nulls_are_missing_values() {
    let mut text = String::from("mysql> SELECT * FROM orders\\G\n");
    let (mut without, mut rows) = (0, 0);
    for i in 0..120u64 {
        let coupon = if i % 3 == 0 { ["WINTER15", "VIP30", "WELCOME10"][(i % 9 / 3) as usize] } else { "NULL" };
        without += usize::from(coupon == "NULL");
        rows += 1;
        text.push_str(&format!(
            "*************************** {}. row ***************************\n         id: {}\ncustomer_id: {}\n    country: {}\n      total: {}.{:02}\ncoupon_code: {coupon}\n",
            i + 1,
            9000 - i,
            1000 + (i * 37) % 50,
            ["US", "GB", "DE", "FR", "NL", "CA", "AU", "SE"][(i * 5 % 8) as usize],
            10 + (i * 13) % 90,
            i % 100
        ));
    }
    text.push_str(&format!("{rows} rows in set (0.01 sec)\n"));
    let shaped = shape(ShapePlan { budget_tokens: 2_000, ..ShapePlan::default() }, text.as_bytes());
    let summary = &shaped.envelope.summary;
    assert!(summary.contains(&format!("without coupon_code: {without}")), "{summary}");
    assert!(summary.contains("coupon_code, most first: WINTER15 14, VIP30 13, WELCOME10 13;"), "{summary}");
}

/// A document larger than a page was shown as its first members with every string cut to a
/// dozen tokens: a file report's SHA-256 came back as `dc2583f84c …[+54 chars]`, which
/// answers nothing. One-word strings (hashes, ids) of a few dozen tokens stay whole. Since
/// a large member is read in parts, its first members are not shrunk at all: the prose
/// fits whole, and the engines follow through `next`.
#[test]
fn a_large_documents_first_members_keep_their_hashes_whole() {
    let sha256 = "dc2583f84c335a5c397ea215b6ec9ba3b1d5e3594d1a92d0f200eac62079dd8b";
    let engines: serde_json::Map<String, serde_json::Value> = (0..3000)
        .map(|i| {
            let verdict =
                serde_json::json!({"category": "undetected", "engine_version": format!("1.{i}.0"), "result": null});
            (format!("Engine{i}"), verdict)
        })
        .collect();
    let report = serde_json::json!({"data": {
        "sha256": sha256,
        "meaningful_name": "remcos.exe",
        "description": "a dropper that unpacks its payload at start and hides it from the list of processes ".repeat(8),
        "last_analysis_results": engines,
    }});
    let shaped = shape(ShapePlan::default(), report.to_string().as_bytes());
    let Data::Value(value) = &shaped.envelope.data else { panic!("expected a value, got {:?}", shaped.envelope.data) };
    assert_eq!(value["data"]["sha256"], sha256, "{value}");
    let description = value["data"]["description"].as_str().unwrap_or_default();
    assert_eq!(description, report["data"]["description"], "the prose fits whole: {description}");
    assert!(shaped.envelope.next.is_some());
    let summary = &shaped.envelope.summary;
    assert!(summary.contains("; next from data.last_analysis_results.Engine"), "{summary}");
}
