//! Tests of the cli half's questions: the readers of JUnit reports, journal entries and
//! Actions logs on small hand-made outputs, and every shape of the half asked at least
//! nine questions of every kind at several seeds, each answer in the raw result.

use toolshape_fixtures::apis::{CATALOG, Generated, Split};

use super::readers::{attr, journal, junit, run_log, seconds_between};
use super::*;
use crate::question::{Check, Kind};
use crate::questions::questions;
use crate::questions::tests::checks;

/// The seeds this half's questions are checked at.
const SEEDS: [u64; 3] = [1, 2, 5];

/// This half's shapes.
const SHAPES: [&str; 4] = ["npm_audit_json", "junit_xml", "journalctl_json", "gh_run_log"];

#[test]
fn every_shape_of_the_half_is_asked_nine_questions_of_every_kind() {
    for name in SHAPES {
        let shape = CATALOG.iter().find(|s| s.name == name).expect("the shape is in the catalog");
        assert_eq!(shape.split, Split::TwentySecond);
        for seed in SEEDS {
            let qs = questions(shape, &shape.generate(seed));
            for kind in Kind::ALL {
                let n = qs.iter().filter(|q| q.kind == kind).count();
                assert!(n >= 9, "{name} is asked {n} {} questions at seed {seed}", kind.name());
            }
            for q in qs.iter().filter(|q| q.kind == Kind::Lookup) {
                assert!(q.needle.is_some(), "{name}: {}", q.text);
            }
        }
    }
}

#[test]
fn every_answer_of_the_half_is_in_the_raw_result() {
    for name in SHAPES {
        let shape = CATALOG.iter().find(|s| s.name == name).expect("the shape is in the catalog");
        for seed in SEEDS {
            let result = shape.generate(seed);
            let raw = String::from_utf8_lossy(&result.bytes()).into_owned();
            for q in questions(shape, &result) {
                let must = match &q.check {
                    Check::Together(must) => must.clone(),
                    Check::Extreme { id, .. } => vec![id.clone()],
                    Check::Count { value, .. } => {
                        assert!(value.parse::<u64>().is_ok(), "{name}: {} counts {value}", q.text);
                        Vec::new()
                    }
                };
                // A JSON result escapes a few characters the parsed value holds bare; a
                // text result must hold every answer as it is.
                let json = matches!(result, Generated::Json(_));
                for m in must.iter().chain(&q.needle) {
                    let escaped = serde_json::to_string(m).unwrap_or_default();
                    let found = raw.contains(m.as_str()) || json && raw.contains(escaped.trim_matches('"'));
                    assert!(found, "{name} at seed {seed}: {} needs {m:?}", q.text);
                }
            }
        }
    }
}

#[test]
fn every_shape_of_the_half_is_as_large_as_a_real_result_at_every_seed() {
    for name in SHAPES {
        let shape = CATALOG.iter().find(|s| s.name == name).expect("the shape is in the catalog");
        for seed in 0..=5 {
            let bytes = shape.generate(seed).bytes().len();
            assert!((40_000..=400_000).contains(&bytes), "{name} is {bytes} bytes at seed {seed}");
        }
    }
}

#[test]
fn junit_suites_and_cases_are_read_with_their_outcomes() {
    let out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
               <testsuites name=\"shop\" tests=\"4\" failures=\"1\" errors=\"1\" skipped=\"1\" time=\"3.500\" timestamp=\"2025-12-31T09:14:02\">\n\
               \x20 <testsuite name=\"com.shop.CartTest\" tests=\"3\" skipped=\"1\" failures=\"1\" errors=\"0\" timestamp=\"2025-12-31T09:14:02\" hostname=\"ci-a\" time=\"3.000\">\n\
               \x20   <properties>\n\
               \x20     <property name=\"module\" value=\"orders-service\"/>\n\
               \x20   </properties>\n\
               \x20   <testcase name=\"addsItem()\" classname=\"com.shop.CartTest\" time=\"0.012\" file=\"a/CartTest.java\" line=\"40\"/>\n\
               \x20   <testcase name=\"rejectsEmpty()\" classname=\"com.shop.CartTest\" time=\"2.400\" file=\"a/CartTest.java\" line=\"58\">\n\
               \x20     <failure message=\"expected: &lt;400&gt; but was: &lt;500&gt;\" type=\"org.opentest4j.AssertionFailedError\"><![CDATA[org.opentest4j.AssertionFailedError: expected: <400> but was: <500>\n\
               \tat com.shop.CartTest.rejectsEmpty(CartTest.java:61)\n\
               ]]></failure>\n\
               \x20   </testcase>\n\
               \x20   <testcase name=\"mergesCarts()\" classname=\"com.shop.CartTest\" time=\"0.000\" file=\"a/CartTest.java\" line=\"77\">\n\
               \x20     <skipped message=\"Flaky on CI\"/>\n\
               \x20   </testcase>\n\
               \x20 </testsuite>\n\
               \x20 <testsuite name=\"com.shop.StockIT\" tests=\"1\" skipped=\"0\" failures=\"0\" errors=\"1\" timestamp=\"2025-12-31T09:14:05\" hostname=\"ci-b\" time=\"0.500\">\n\
               \x20   <testcase name=\"reserves()\" classname=\"com.shop.StockIT\" time=\"0.100\" file=\"b/StockIT.java\" line=\"20\">\n\
               \x20     <error message=\"Read timed out\" type=\"java.net.SocketTimeoutException\"><![CDATA[java.net.SocketTimeoutException: Read timed out\n\
               ]]></error>\n\
               \x20   </testcase>\n\
               \x20 </testsuite>\n\
               </testsuites>\n";
    let ls = lines(out);
    let report = junit(&ls);
    assert_eq!(report.root["tests"], "4");
    assert_eq!(report.suites.len(), 2);
    assert_eq!(report.suites[0]["module"], "orders-service");
    assert_eq!(report.cases.len(), 4);
    assert_eq!(report.cases[1]["outcome"], "failed");
    assert_eq!(report.cases[1]["message"], "expected: &lt;400&gt; but was: &lt;500&gt;");
    assert_eq!(report.cases[2]["message"], "Flaky on CI");
    assert_eq!(report.cases[3]["outcome"], "error");
    assert_eq!(report.cases[3]["suite"], "com.shop.StockIT");
    assert_eq!(attr("<a b=\"1\" bb=\"2\">", "bb"), Some("2"));
    let qs = text_questions("junit_xml", out).unwrap_or_default();
    let c = checks(&qs);
    assert!(
        c.contains(&&Check::Count { labels: vec!["failed".into(), "failures".into()], value: "1".into() }),
        "{c:?}"
    );
    assert!(c.contains(&&Check::Count { labels: vec!["skipped".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "com.shop.CartTest".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "rejectsEmpty()".into(), max: true }), "{c:?}");
    let failed = Check::Together(vec!["rejectsEmpty()".into(), "org.opentest4j.AssertionFailedError".into()]);
    assert!(c.contains(&&failed), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["mergesCarts()".into(), "Flaky on CI".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["com.shop.StockIT".into(), "ci-b".into()])), "{c:?}");
}

#[test]
fn journal_entries_are_read_and_counted_by_unit_and_priority() {
    let out = concat!(
        "{\"__CURSOR\":\"s=a;i=1\",\"__REALTIME_TIMESTAMP\":\"100\",\"__MONOTONIC_TIMESTAMP\":\"5\",\"__SEQNUM\":\"1\",\"PRIORITY\":\"3\",\"MESSAGE\":\"[1-1] FATAL:  password authentication failed\",\"_PID\":\"900\",\"_SYSTEMD_UNIT\":\"postgresql.service\",\"_TRANSPORT\":\"syslog\"}\n",
        "{\"__CURSOR\":\"s=a;i=2\",\"__REALTIME_TIMESTAMP\":\"200\",\"__MONOTONIC_TIMESTAMP\":\"6\",\"__SEQNUM\":\"2\",\"PRIORITY\":\"6\",\"MESSAGE\":\"[2-1] LOG:  duration: 1523.118 ms  execute <unnamed>: SELECT 1\",\"_PID\":\"901\",\"_SYSTEMD_UNIT\":\"postgresql.service\",\"_TRANSPORT\":\"syslog\"}\n",
        "{\"__CURSOR\":\"s=a;i=3\",\"__REALTIME_TIMESTAMP\":\"300\",\"__MONOTONIC_TIMESTAMP\":\"7\",\"__SEQNUM\":\"3\",\"PRIORITY\":\"6\",\"UNIT\":\"app@payments.service\",\"MESSAGE\":\"app@payments.service: Scheduled restart job, restart counter is at 1.\",\"_PID\":\"1\",\"_SYSTEMD_UNIT\":\"init.scope\",\"_TRANSPORT\":\"journal\"}\n",
        "{\"__CURSOR\":\"s=a;i=4\",\"__REALTIME_TIMESTAMP\":\"400\",\"__MONOTONIC_TIMESTAMP\":\"8\",\"__SEQNUM\":\"4\",\"PRIORITY\":\"4\",\"MESSAGE\":\"Payment provider slow\",\"CODE_FILE\":\"/srv/p/x.py\",\"CODE_LINE\":\"9\",\"CODE_FUNC\":\"capture\",\"_PID\":\"1500\",\"_SYSTEMD_UNIT\":\"app@payments.service\",\"_TRANSPORT\":\"journal\"}\n",
    );
    let ls = lines(out);
    let entries = journal(&ls);
    assert_eq!(entries.len(), 4);
    let quoted = journal(&["{\"MESSAGE\":\"zone \\\"api\\\"\\nnext\"}"]);
    assert_eq!(quoted[0]["MESSAGE"], "zone \\\"api\\\"\\nnext");
    let qs = text_questions("journalctl_json", out).unwrap_or_default();
    let c = checks(&qs);
    let errors = Check::Count { labels: vec!["postgresql".into(), "err".into()], value: "1".into() };
    assert!(c.contains(&&errors), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["restart".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["syslog".into()], value: "2".into() }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "postgresql.service".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "1523.118 ms".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["s=a;i=1".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["s=a;i=4".into()])), "{c:?}");
    let site = Check::Together(vec!["Payment provider slow".into(), "/srv/p/x.py".into(), "9".into()]);
    assert!(c.contains(&&site), "{c:?}");
}

#[test]
fn run_log_lines_are_split_into_job_step_time_and_text() {
    let out = "lint\tSet up job\t2025-12-31T08:44:43.1160291Z Current runner version: '2.330.0'\n\
               lint\tRun npm ci\t2025-12-31T08:44:50.0000000Z added 1350 packages, and audited 1351 packages in 39s\n\
               lint\tRun eslint\t2025-12-31T08:45:00.0000000Z ##[warning]src/a.ts:4:2 'x' is defined but never used.\n\
               lint\tRun eslint\t2025-12-31T08:45:01.0000000Z ##[warning]src/a.ts:9:2 'y' is defined but never used.\n\
               rust\tRun cargo build --locked\t2025-12-31T08:44:44.0000000Z    Compiling serde v1.0.228\n\
               rust\tRun cargo test\t2025-12-31T08:47:00.0000000Z test pricing::tests::tax ... FAILED\n\
               rust\tRun cargo test\t2025-12-31T08:47:01.5000000Z ##[error]Process completed with exit code 101.\n";
    let ls = run_log(out);
    assert_eq!(ls.len(), 7);
    assert_eq!(ls[1]["step"], "Run npm ci");
    assert_eq!(ls[4]["text"], "   Compiling serde v1.0.228");
    assert_eq!(seconds_between("2025-12-31T08:44:43.5Z", "2025-12-31T08:45:00.0Z"), Some(16.5));
    let qs = text_questions("gh_run_log", out).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Extreme { id: "lint".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["failed".into(), "jobs".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["serde".into(), "Compiling serde v1.0.228".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["rust".into(), "pricing::tests::tax".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["lint".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["2025-12-31T08:47:01.5000000Z".into()])), "{c:?}");
}
