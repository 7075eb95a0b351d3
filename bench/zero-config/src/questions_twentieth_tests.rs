//! Tests of the twentieth part's questions: every shape asked every kind, at least nine
//! questions each, every answer found in the raw result, the JSON answers computed from
//! the records (versions keyed by version and work item fields named with dots read into
//! plain records), and the readers of perf reports, nodetool table statistics, queue
//! listings and Apache status pages computing their answers from the lines.

use toolshape_fixtures::apis::Split;

use serde_json::json;

use super::readers::{leading_number, perf_rows, processes, queues, tablestats, workers};
use super::*;
use crate::question::Check;
use crate::questions::tests::checks;

#[test]
fn the_twentieth_part_asks_at_least_nine_questions_of_every_shape_and_kind() {
    crate::questions::tests::asks_nine_of_every_shape(Split::Twentieth, &[1, 2, 5]);
}

#[test]
fn every_answer_is_in_the_raw_result() {
    crate::questions::tests::answers_are_in_the_raw_result(Split::Twentieth);
}

#[test]
fn services_and_workers_are_answered_from_their_records() {
    let ev = |msg: &str, at: &str| json!({"id": format!("id-{at}"), "createdAt": at, "message": msg});
    let svc = |name: &str, created: &str, deployed: &str, events: Vec<Value>| {
        json!({"serviceName": name, "desiredCount": 2, "launchType": "FARGATE", "createdAt": created,
               "taskDefinition": format!("arn:td/{name}:7"), "deployments": [{"createdAt": deployed}], "events": events})
    };
    let v = json!({"services": [
        svc("cart", "2025-01-02T00:00:00.000000+00:00", "2025-12-30T10:00:00.000000+00:00", vec![
            ev("(service cart) has reached a steady state.", "2025-12-31T10:00:00"),
            ev("(service cart) has started 3 tasks: (task a) (task b) (task c).", "2025-12-31T09:00:00"),
            ev("(service cart) has stopped 1 running tasks: (task f00d).", "2025-12-31T08:30:00"),
            ev("(service cart) (task f00d) failed container health checks.", "2025-12-31T08:00:00"),
        ]),
        svc("search", "2024-06-01T00:00:00.000000+00:00", "2025-12-31T11:00:00.000000+00:00", vec![
            ev("(service search) has started 2 tasks: (task d) (task e).", "2025-12-31T07:00:00"),
        ]),
    ], "failures": [{"arn": "arn:service/shop/gone", "reason": "MISSING"}]});
    let qs = json_questions("ecs_describe_services", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["cart".into(), "2".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["arn:service/shop/gone".into(), "MISSING".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["f00d".into(), "2025-12-31T08:30:00".into()])), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "search".into(), max: false }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "search".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "cart".into(), max: true }), "{c:?}");
    assert!(
        c.contains(&&Check::Count { labels: vec!["health checks".into(), "unhealthy".into()], value: "1".into() }),
        "{c:?}"
    );

    let row = |script: &str, hour: &str, status: &str, requests: u64, p99: f64| {
        json!({"dimensions": {"datetimeHour": hour, "scriptName": script, "status": status},
               "sum": {"requests": requests, "subrequests": 0}, "quantiles": {"cpuTimeP99": p99}})
    };
    let rows = vec![
        row("api", "2025-12-31T23:00:00Z", "success", 900, 10.0),
        row("api", "2025-12-31T23:00:00Z", "scriptThrewException", 5, 30.0),
        row("cron", "2025-12-31T23:00:00Z", "success", 12, 400.0),
        row("api", "2025-12-31T22:00:00Z", "success", 1_200, 12.0),
        row("img", "2025-12-31T22:00:00Z", "scriptThrewException", 40, 90.0),
    ];
    let v = json!({"data": {"viewer": {"accounts": [{"workersInvocationsAdaptive": rows}]}}});
    let qs = json_questions("cloudflare_workers_analytics", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["api".into(), "2025-12-31T23:00:00Z".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["img".into(), "2025-12-31T22:00:00Z".into()])), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "api".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "cron".into(), max: false }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "img".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "cron".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "2025-12-31T22:00:00Z".into(), max: true }), "{c:?}");
}

#[test]
fn package_versions_and_work_items_are_answered_from_their_records() {
    let manifest = |v: &str, size: u64, by: &str| {
        json!({"version": v, "dist": {"unpackedSize": size, "shasum": "abc"}, "_npmUser": {"name": by},
               "_nodeVersion": "20.11.1"})
    };
    let mut old = manifest("1.0.0", 900, "ada");
    old["deprecated"] = json!("Published by mistake, use 1.0.1");
    let v = json!({
        "dist-tags": {"latest": "1.0.1", "next": "2.0.0-beta.1"},
        "versions": {"1.0.0": old, "1.0.1": manifest("1.0.1", 1_400, "bot"), "2.0.0-beta.1": manifest("2.0.0-beta.1", 1_100, "bot")},
        "time": {"created": "2024-01-01T00:00:00.000Z", "1.0.0": "2024-01-02T00:00:00.000Z",
                 "1.0.1": "2024-03-01T00:00:00.000Z", "2.0.0-beta.1": "2025-02-01T00:00:00.000Z"},
        "maintainers": [{"name": "ada"}, {"name": "bot"}]
    });
    let records = versions(&v);
    assert_eq!(records[1]["published"], "2024-03-01T00:00:00.000Z");
    let qs = json_questions("npm_packument", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["latest".into(), "1.0.1".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["bot".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["1.0.0".into(), "Published by mistake, use 1.0.1".into()])), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "1.0.1".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "1.0.0".into(), max: false }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["versions".into()], value: "3".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["ada".into()], value: "1".into() }), "{c:?}");

    let item = |id: u64, kind: &str, state: &str, who: Option<&str>, remaining: Option<f64>, created: &str| {
        let mut f = json!({"System.WorkItemType": kind, "System.State": state, "System.Title": format!("Item {id}"),
                           "System.IterationPath": "Shop\\2025\\Sprint 7", "System.CreatedDate": created,
                           "System.ChangedDate": created});
        if let Some(w) = who {
            f["System.AssignedTo"] = json!({"displayName": w});
        }
        if let Some(r) = remaining {
            f["Microsoft.VSTS.Scheduling.RemainingWork"] = json!(r);
        }
        json!({"id": id, "fields": f})
    };
    let list = vec![
        item(11, "Bug", "Active", Some("Ada Berg"), None, "2025-03-01T00:00:00.000Z"),
        item(12, "Task", "Active", Some("Ada Berg"), Some(6.0), "2025-01-01T00:00:00.000Z"),
        item(13, "Task", "New", None, Some(2.5), "2025-06-01T00:00:00.000Z"),
        item(14, "Bug", "Closed", Some("Kofi Li"), None, "2025-05-01T00:00:00.000Z"),
    ];
    let records = work_items(&list);
    assert_eq!(records[0]["sprint"], "Sprint 7");
    assert!(records[2]["assigned"].is_null());
    let qs = json_questions("azure_devops_work_items", &json!({"value": list})).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["11".into(), "Item 11".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["14".into(), "Item 14".into()])), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "12".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "12".into(), max: false }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "13".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Ada Berg".into(), max: true }), "{c:?}");
    assert!(
        c.contains(&&Check::Count { labels: vec!["unassigned".into(), "AssignedTo".into()], value: "1".into() }),
        "{c:?}"
    );
    assert!(c.contains(&&Check::Count { labels: vec!["active bugs".into(), "Active".into()], value: "1".into() }));
}

#[test]
fn perf_reports_and_tablestats_are_read_by_their_lines() {
    let report = "# Samples: 1M of event 'cpu-clock:pppH'\n#\n\
                  # Overhead  Command          Shared Object      Symbol                    \n\
                  # ........  ...............  .................  ..........................\n#\n\
                  \x20   10.06%  swapper          [kernel.kallsyms]  [k] intel_idle\n\
                  \x20    8.55%  postgres         postgres           [.] comparetup_heap\n\
                  \x20    3.10%  GC Thread#3      libjvm.so          [.] SpinPause\n\
                  \x20    2.00%  postgres         [kernel.kallsyms]  [k] intel_idle_irq\n\
                  \x20    0.40%  http-nio-8080-e  perf-4120.map      [.] Ljava/util/HashMap;::getNode\n\
                  \x20    0.01%  GC Thread#3      [kernel.kallsyms]  [k] __schedule\n\n\n#\n# (Tip: …)\n#\n";
    let rows = perf_rows(&lines(report));
    assert_eq!(rows.len(), 6);
    assert_eq!(rows[2]["Command"], "GC Thread#3");
    assert_eq!(rows[4]["function"], "Ljava/util/HashMap;::getNode");
    assert_eq!(rows[0]["kernel"], true);
    let qs = text_questions("perf_report", report).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["swapper".into(), "intel_idle".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["GC Thread#3".into(), "__schedule".into()])), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "postgres".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "[kernel.kallsyms]".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Ljava/util/HashMap;::getNode".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["[k]".into(), "kernel".into()], value: "3".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["commands".into()], value: "4".into() }), "{c:?}");

    let stats = "Total number of tables: 3\n----------------\nKeyspace : shop\n\tRead Count: 900\n\
                 \tRead Latency: 0.25 ms\n\tWrite Count: 40\n\t\tTable: carts\n\t\tSSTable count: 18\n\
                 \t\tSSTables in each level: [1, 3, 14, 0, 0, 0, 0, 0, 0]\n\t\tSpace used (live): 3541981133\n\
                 \t\tLocal read latency: 0.184 ms\n\n\t\tTable: orders\n\t\tSSTable count: 4\n\
                 \t\tSpace used (live): 98000\n\t\tLocal read latency: 1.500 ms\n\n----------------\n\
                 Keyspace : system_traces\n\tRead Count: 0\n\tRead Latency: NaN ms\n\t\tTable: events\n\
                 \t\tSSTable count: 0\n\t\tSpace used (live): 0\n\t\tLocal read latency: NaN ms\n\n----------------\n";
    let (tables, keyspaces) = tablestats(&lines(stats));
    assert_eq!(tables.len(), 3);
    assert_eq!(tables[2]["Keyspace"], "system_traces");
    assert_eq!(tables[0]["Space used (live)"], "3541981133");
    assert_eq!(keyspaces[0]["Read Count"], "900");
    assert_eq!(leading_number(&tables[1]["Local read latency"]), Some(1.5));
    assert_eq!(leading_number(&tables[2]["Local read latency"]), None);
    let qs = text_questions("nodetool_tablestats", stats).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["Total number of tables: 3".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["events".into()])), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "carts".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "orders".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "shop".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["NaN".into(), "never read".into()], value: "1".into() }));
}

#[test]
fn queue_listings_and_status_pages_are_read_by_their_lines() {
    let listing = "Timeout: 60.0 seconds ...\nListing queues for vhost / ...\n\
                   name\ttype\tdurable\tauto_delete\texclusive\tstate\tpolicy\tmessages_ready\tmessages_unacknowledged\tmessages\tconsumers\tmemory\n\
                   billing.order.paid\tquorum\ttrue\tfalse\tfalse\trunning\tdlx\t12\t3\t15\t2\t90000\n\
                   amq.gen-Xy12\tclassic\tfalse\ttrue\ttrue\trunning\t\t0\t0\t0\t1\t9000\n\
                   billing.order.paid.dlq\tquorum\ttrue\tfalse\tfalse\trunning\tttl-14d\t480\t0\t480\t0\t60000\n\
                   webhooks.merchant-77\tclassic\ttrue\tfalse\tfalse\trunning\twebhooks-limits\t35\t0\t35\t0\t20000\n";
    let rows = queues(&lines(listing));
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[1]["policy"], "");
    assert_eq!(rows[2]["messages_ready"], "480");
    let qs = text_questions("rabbitmqctl_list_queues", listing).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["billing.order.paid".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["webhooks.merchant-77".into(), "35".into()])), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "billing.order.paid.dlq".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "webhooks.merchant-77".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["exclusive".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec![".dlq".into(), "dead-letter".into()], value: "1".into() }));

    let page = "   Server Version: Apache/2.4.62 (Debian)\n\n\
                \x20  Slot PID  Stopping      Connections     Threads\n\
                \x20                          total accepting busy idle writing keep-alive closing\n\
                \x20  0    4120 no            21    yes       10   14   5       5          0\n\
                \x20  1    4188 yes (old gen) 18    no        10   0    0       9          0\n\
                \x20  Sum  2    1             39              20   14   5       14         0\n\
                \x20    ______________\n\n\
                \x20  Srv  PID  Acc       M CPU   SS Req  Dur  Conn Child Slot Client     Protocol VHost      Request\n\
                \x20  0-9  4120 1/20/300  W 12.50 0  40   900  1.0  2.00  3.00 192.0.2.7  h2       shop:443   GET /cart HTTP/2.0\n\
                \x20  0-9  4120 0/12/200  _ 80.00 9  4100 800  0.5  1.00  2.00 192.0.2.7  http/1.1 api:443    POST /v2/checkout/confirm HTTP/1.1\n\
                \x20  1-8  4188 0/5/100   R 1.00  0  9000 100  0.1  0.50  1.00 10.0.0.1   http/1.1 shop:443   ..reading..\n\
                \x20    ______________\n\n\
                \x20  total entries stored since starting: 81234\n";
    let ws = workers(&lines(page));
    assert_eq!(ws.len(), 3);
    assert_eq!(ws[1]["Request"], "POST /v2/checkout/confirm HTTP/1.1");
    let ps = processes(&lines(page));
    assert_eq!(ps.len(), 2);
    assert_eq!(ps[1]["Stopping"], "yes (old gen)");
    assert_eq!(ps[1]["keep-alive"], "9");
    let qs = text_questions("apache_server_status", page).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["Server Version: Apache/2.4.62 (Debian)".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["stored".into(), "81234".into()])), "{c:?}");
    // The reading worker's 9000 ms is no request's: the slowest named request is the POST.
    assert!(c.contains(&&Check::Extreme { id: "POST /v2/checkout/confirm HTTP/1.1".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "192.0.2.7".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "4188".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["h2".into(), "HTTP/2".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["stopping".into(), "Stopping".into()], value: "1".into() }));
}
