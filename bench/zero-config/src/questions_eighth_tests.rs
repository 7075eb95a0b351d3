//! Tests of the eighth part's questions: every shape asked every kind, at least eight
//! questions each, and the readers of test runs, logs and tables computing their answers
//! from the lines.

use toolshape_fixtures::apis::{CATALOG, Split};

use serde_json::json;

use super::*;
use crate::question::Check;
use crate::questions::tests::checks;

#[test]
fn the_eighth_part_asks_at_least_eight_questions_of_every_shape_and_kind() {
    let asked = crate::questions::tests::asks_every_kind(Split::Eighth);
    assert!(asked >= 64, "the eighth part asks {asked} questions");
    for shape in CATALOG.iter().filter(|s| s.split == Split::Eighth) {
        let qs = crate::questions::questions(shape, &shape.generate(1));
        assert!(qs.len() >= 8, "{} gets {} questions", shape.name, qs.len());
    }
}

#[test]
fn times_are_read_as_seconds_since_the_epoch() {
    assert_eq!(unix("1970-01-01T00:00:00Z"), Some(0));
    assert_eq!(unix("2000-02-29T00:00:00Z"), Some(951_782_400));
    assert_eq!(unix("2026-01-01T00:00:00Z"), Some(1_767_225_600));
    assert_eq!(unix("2011-04-22T13:33:48Z"), Some(1_303_479_228));
    assert_eq!(unix("soon"), None);
}

#[test]
fn check_runs_are_timed_and_customers_owe_what_their_open_invoices_leave() {
    let run = |name: &str, start: &str, end: Option<&str>, conclusion: Option<&str>| {
        json!({"name": name, "status": if end.is_some() { "completed" } else { "in_progress" }, "conclusion": conclusion,
               "started_at": start, "completed_at": end, "output": {"annotations_count": 0}, "app": {"name": "GitHub Actions"}})
    };
    let v = json!({"total_count": 3, "check_runs": [
        run("lint", "2025-12-31T10:00:00Z", Some("2025-12-31T10:01:00Z"), Some("success")),
        run("e2e (webkit, 1/8)", "2025-12-31T10:00:00Z", Some("2025-12-31T10:20:00Z"), Some("failure")),
        run("build", "2025-12-31T10:05:00Z", None, None),
    ]});
    let qs = json_questions("github_check_runs", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Extreme { id: "e2e (webkit, 1/8)".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["failure".into(), "failed".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["build".into()])), "{c:?}");

    let invoice = |id: &str, number: Option<&str>, who: &str, left: i64, status: &str| json!({"id": id, "number": number, "customer_name": who, "amount_remaining": left, "amount_due": left, "total": left + 100, "status": status, "billing_reason": "subscription_cycle"});
    let v = json!({"object": "list", "data": [
        invoice("in_3", None, "Costa Ltd", 900, "draft"),
        invoice("in_2", Some("A-0002"), "Berg GmbH", 500, "open"),
        invoice("in_1", Some("B-0001"), "Costa Ltd", 0, "paid"),
        invoice("in_0", Some("A-0001"), "Berg GmbH", 700, "open"),
    ]});
    let qs = json_questions("stripe_invoices", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Extreme { id: "Berg GmbH".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "in_3".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["in_3".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["A-0001".into()])), "{c:?}");
}

#[test]
fn go_test_runs_are_read_into_top_level_tests_with_their_messages() {
    let run = "=== RUN   TestA_Parses\n--- PASS: TestA_Parses (0.01s)\n\
               === RUN   TestB_Slow\n=== PAUSE TestB_Slow\n\
               === RUN   TestC_Subs\n=== RUN   TestC_Subs/empty\n--- PASS: TestC_Subs (0.30s)\n    --- PASS: TestC_Subs/empty (0.30s)\n\
               === CONT  TestB_Slow\n    b_test.go:12: got status 502, want 200\n--- FAIL: TestB_Slow (2.50s)\n\
               FAIL\nFAIL\tgithub.com/x/y/pkg/a\t2.811s\n\
               === RUN   TestD_Skips\n    d_test.go:20: skipping: needs DOCKER_HOST\n--- SKIP: TestD_Skips (0.00s)\n\
               PASS\nok  \tgithub.com/x/y/pkg/b\t0.012s\n?   \tgithub.com/x/y/tools\t[no test files]\nFAIL\n";
    let (tests, packages) = go_tests(&lines(run));
    let seen: Vec<(&str, &str, &str, usize)> = tests.iter().map(|t| (t.name, t.outcome, t.took, t.subtests)).collect();
    assert_eq!(
        seen,
        vec![
            ("TestA_Parses", "PASS", "0.01s", 0),
            ("TestC_Subs", "PASS", "0.30s", 1),
            ("TestB_Slow", "FAIL", "2.50s", 0),
            ("TestD_Skips", "SKIP", "0.00s", 0)
        ]
    );
    assert_eq!(tests[2].logged, vec!["b_test.go:12: got status 502, want 200"]);
    assert_eq!(packages.len(), 3);
    let qs = text_questions("go_test_v", run).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["b_test.go:12: got status 502, want 200".into()])), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "TestB_Slow".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "github.com/x/y/pkg/a".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["github.com/x/y/tools".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["TestA_Parses".into()])), "{c:?}");
    assert!(
        qs.iter().any(|q| q.text.contains("skipped") && matches!(&q.check, Check::Count { value, .. } if value == "1"))
    );
}

#[test]
fn spring_lines_are_split_into_their_fields_and_errors_named_by_trace() {
    let blank = format!("[{}]", " ".repeat(49));
    let line = |t: &str, level: &str, corr: &str, logger: &str, msg: &str| {
        format!("{t} {level:>5} 1 --- [order-service] [nio-8080-exec-1] {corr} {logger:<40} : {msg}")
    };
    let log = [
        line("2025-12-31T10:00:00.000Z", "INFO", &blank, "c.n.o.App", "Starting App v1.2.3 using Java 21.0.5 with PID 1"),
        line("2025-12-31T10:00:08.000Z", "INFO", &blank, "c.n.o.App", "Started App in 8.012 seconds (process running for 9.0)"),
        line("2025-12-31T10:01:00.000Z", "INFO", "[aaa-111]", "c.n.o.OrderService", "Order 7 placed for customer C-42, 1 items, total 9.00 EUR"),
        line("2025-12-31T10:01:00.001Z", "INFO", "[aaa-111]", "c.n.o.web.RequestLoggingFilter", "POST /api/orders -> 201 (30 ms)"),
        line("2025-12-31T10:02:00.000Z", "ERROR", "[bbb-222]", "o.a.c.c.C.[.[.[/].[dispatcherServlet]", "Servlet.service() threw exception [Request processing failed: java.lang.IllegalStateException: Inventory reservation expired for order 7] with root cause"),
        "java.lang.IllegalStateException: Inventory reservation expired for order 7".to_owned(),
        "\tat c.n.o.Service.place(Service.java:1)".to_owned(),
        line("2025-12-31T10:02:00.001Z", "INFO", "[bbb-222]", "c.n.o.web.RequestLoggingFilter", "POST /api/orders -> 500 (900 ms)"),
        line("2025-12-31T10:03:00.000Z", "INFO", &blank, "com.zaxxer.hikari.HikariDataSource", "HikariPool-1 - Shutdown completed."),
    ]
    .join("\n");
    let fifth = log.lines().nth(4).unwrap_or_default();
    let parsed = spring_line(fifth).map(|p| (p.1, p.2, p.3)).unwrap_or_default();
    assert_eq!(parsed, ("ERROR", "bbb-222", "o.a.c.c.C.[.[.[/].[dispatcherServlet]"));
    let qs = text_questions("spring_boot_log", &log).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["8.012 seconds".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["v1.2.3".into(), "Java 21.0.5".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["7".into(), "C-42".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["bbb".into(), "IllegalStateException".into()])), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "bbb".into(), max: true }), "{c:?}");
    assert!(
        c.contains(&&Check::Together(vec![
            "2025-12-31T10:03:00.000Z".into(),
            "HikariPool-1 - Shutdown completed".into()
        ])),
        "{c:?}"
    );
    assert!(
        c.contains(&&Check::Count { labels: vec!["ERROR".into(), "error".into(), "errors".into()], value: "1".into() }),
        "{c:?}"
    );
}

#[test]
fn unit_and_pod_tables_are_read_by_their_columns() {
    let units = "  UNIT                LOAD      ACTIVE   SUB       DESCRIPTION\n  \
                 dev-sda.device      loaded    active   plugged   QEMU disk\n\
                 ● auditd.service      not-found inactive dead      auditd.service\n\
                 ● nginx.service       loaded    failed   failed    A high performance web server\n  \
                 ssh.service         loaded    active   running   OpenBSD Secure Shell server\n  \
                 cron.service        loaded    active   running   Regular background program processing daemon\n\n\
                 Legend: LOAD   → Reflects whether the unit definition was properly loaded.\n\n5 loaded units listed.\n";
    let rows = unit_rows(&lines(units));
    assert_eq!(rows.len(), 5);
    assert_eq!(rows[2]["UNIT"], "nginx.service");
    assert_eq!(rows[2]["DESCRIPTION"], "A high performance web server");
    let qs = text_questions("systemctl_list_units", units).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["5 loaded units listed".into()])), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "service".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["failed".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["cron.service".into()])), "{c:?}");

    let top = "NAMESPACE   NAME        CPU(cores)   MEMORY(bytes)   \n\
               data        kafka-0     220m         2400Mi          \n\
               shop        cart-a1     12m          310Mi           \n\
               shop        cart-b2     980m         95Mi            \n";
    let qs = text_questions("kubectl_top_pods", top).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Extreme { id: "kafka-0".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "cart-b2".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["cart-b2".into()])), "{c:?}");
}
