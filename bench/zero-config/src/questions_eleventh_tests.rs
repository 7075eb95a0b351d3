//! Tests of the eleventh part's questions: every shape asked every kind, at least nine
//! questions each, every answer found in the raw result, the JSON answers computed from
//! the records, and the readers of nmap reports, lint output, playbook runs and nginx
//! dumps computing their answers from the lines.

use toolshape_fixtures::apis::Split;

use serde_json::json;

use super::*;
use crate::question::Check;
use crate::questions::tests::checks;

#[test]
fn the_eleventh_part_asks_at_least_nine_questions_of_every_shape_and_kind() {
    crate::questions::tests::asks_nine_of_every_shape(Split::Eleventh, &[1]);
}

#[test]
fn every_answer_is_in_the_raw_result() {
    crate::questions::tests::answers_are_in_the_raw_result(Split::Eleventh);
}

#[test]
fn json_answers_come_from_the_records() {
    let event = |ty: &str, ip: &str, user: &str, logins: u64| {
        json!({"date": "2025-12-31T10:00:00.000Z", "type": ty, "client_name": "Web", "ip": ip, "user_name": user,
               "details": {"stats": {"loginsCount": logins}}, "log_id": format!("900{ip}{user}"),
               "location_info": {"country_name": "Germany", "city_name": "Berlin"}})
    };
    let v = json!([
        event("s", "1.1.1.1", "a@x.example", 4),
        event("fu", "6.6.6.6", "b@x.example", 0),
        event("fp", "6.6.6.6", "a@x.example", 0),
        event("fp", "2.2.2.2", "c@x.example", 0),
        event("s", "3.3.3.3", "d@x.example", 40),
    ]);
    let qs = json_questions("auth0_logs", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["a@x.example".into()])), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "6.6.6.6".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "d@x.example".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["fp".into()], value: "2".into() }), "{c:?}");

    let panel = |title: &str, ty: &str| json!({"title": title, "type": ty, "targets": [{"expr": format!("up{{job=\"{title}\"}}")}]});
    let v = json!({"meta": {"folderTitle": "Shop"}, "dashboard": {"panels": [
        {"title": "A", "type": "row"}, panel("a1", "stat"), panel("a2", "timeseries"),
        {"title": "B", "type": "row"}, panel("b1", "stat"), panel("b2", "stat"), panel("b3", "logs"),
    ], "templating": {"list": [{"name": "cluster"}, {"name": "namespace"}]}}});
    let qs = json_questions("grafana_dashboard", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["Shop".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["b3".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["namespace".into()])), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "B".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["rows".into(), "row".into()], value: "2".into() }), "{c:?}");

    let cluster = |name: &str, disk: u64, created: &str, paused: bool| {
        json!({"createDate": created, "mongoDBMajorVersion": "7.0", "mongoDBVersion": "7.0.14", "name": name, "paused": paused,
               "replicationSpecs": [{"regionConfigs": [{"electableSpecs": {"diskSizeGB": disk, "instanceSize": "M30"}}]}],
               "stateName": "IDLE"})
    };
    let v = json!({"results": [
        cluster("orders-prod", 80, "2024-05-01T00:00:00Z", false),
        cluster("events-prod", 4096, "2024-03-01T00:00:00Z", false),
        cluster("orders-dev", 10, "2024-09-01T00:00:00Z", true),
    ], "totalCount": 3});
    let qs = json_questions("atlas_clusters", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Extreme { id: "events-prod".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "events-prod".into(), max: false }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["paused".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["3".into()])), "{c:?}");
}

#[test]
fn nmap_reports_and_lint_output_are_read_by_their_lines() {
    let scan = "Starting Nmap 7.94SVN ( https://nmap.org ) at 2025-12-31 14:25 UTC\n\
                Nmap scan report for db-01.corp.example (10.0.0.5)\n\
                Host is up (0.00041s latency).\n\
                Not shown: 997 closed tcp ports (reset)\n\
                PORT     STATE SERVICE    VERSION\n\
                22/tcp   open  ssh        OpenSSH 9.6p1 Ubuntu 3ubuntu13.5 (Ubuntu Linux; protocol 2.0)\n\
                5432/tcp open  postgresql PostgreSQL DB 16.4 - 16.6\n\
                9100/tcp open  http       Prometheus node_exporter 1.8.2\n\
                MAC Address: F8:BC:12:23:66:04 (Dell)\n\
                \n\
                Nmap scan report for 10.0.2.9\n\
                Host is up (0.21s latency).\n\
                All 1000 scanned ports on 10.0.2.9 are in ignored states.\n\
                Not shown: 1000 filtered tcp ports (no-response)\n\
                \n\
                Nmap done: 1024 IP addresses (2 hosts up) scanned in 99.10 seconds\n";
    let hosts = nmap_hosts(&lines(scan));
    assert_eq!(hosts.len(), 2);
    assert_eq!(hosts[0]["name"], "db-01.corp.example");
    assert_eq!(hosts[0]["vendor"], "Dell");
    assert_eq!(hosts[0]["ports"][1]["version"], "PostgreSQL DB 16.4 - 16.6");
    assert_eq!(hosts[1]["closed"], "all");
    let qs = text_questions("nmap_scan", scan).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["2 hosts up".into()])), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "10.0.0.5".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "10.0.2.9".into(), max: true }), "{c:?}");

    let lint = "\n/w/src/a/Cart.tsx\n\
                \x20  12:10  error    'x' is defined but never used  @typescript-eslint/no-unused-vars\n\
                \x20 103:1   warning  Unexpected console statement    no-console\n\
                \n/w/src/b/use.ts\n\
                \x20 7:3  warning  Unexpected console statement  no-console\n\
                \n\u{2716} 3 problems (1 error, 2 warnings)\n";
    let rows = eslint_rows(&lines(lint));
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0]["message"], "'x' is defined but never used");
    assert_eq!(rows[1]["position"], "103:1");
    assert_eq!(rows[2]["file"], "/w/src/b/use.ts");
    let qs = text_questions("eslint_stylish", lint).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["3 problems".into()])), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "no-console".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["warnings".into()], value: "2".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["files".into()], value: "2".into() }), "{c:?}");
}

#[test]
fn playbook_runs_and_nginx_dumps_are_read_by_their_blocks() {
    let run = "\nPLAY [Baseline] ****\n\nTASK [Gathering Facts] ****\nok: [a-01]\n\
               fatal: [a-02]: UNREACHABLE! => {\"changed\": false, \"msg\": \"ssh timed out\", \"unreachable\": true}\n\
               \nTASK [common : Install keys] ****\nchanged: [a-01] => (item=deploy)\nok: [a-01] => (item=ops)\n\
               \nTASK [common : Apt] ****\nfatal: [a-01]: FAILED! => {\"changed\": false, \"msg\": \"apt broke\"}\n\
               \nPLAY RECAP ****\n\
               a-01                       : ok=2    changed=1    unreachable=0    failed=1    skipped=0    rescued=0    ignored=0\n\
               a-02                       : ok=0    changed=0    unreachable=1    failed=0    skipped=0    rescued=0    ignored=0\n";
    let (results, recap) = ansible_rows(&lines(run));
    assert_eq!(results.len(), 5);
    assert_eq!(results[2]["item"], "deploy");
    assert_eq!(results[4]["msg"], "apt broke");
    assert_eq!(recap[1]["unreachable"], "unreachable=1");
    let qs = text_questions("ansible_playbook", run).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["Baseline".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["common : Apt".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["a-02".into()])), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "a-01".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["tasks".into(), "TASK".into()], value: "3".into() }), "{c:?}");

    let dump = "# configuration file /etc/nginx/nginx.conf:\nevents {\n\tworker_connections 4096;\n}\n\n\
                # configuration file /etc/nginx/conf.d/up.conf:\nupstream api {\n    least_conn;\n    server 10.0.0.1:8080;\n    server 10.0.0.2:8080 backup;\n}\n\
                upstream web {\n    server 10.0.1.1:3000;\n}\n\n\
                # configuration file /etc/nginx/sites-enabled/shop.conf:\n\
                server {\n    listen 80;\n    server_name shop.example www.shop.example;\n    return 301 https://$host$request_uri;\n}\n\
                server {\n    listen 443 ssl;\n    server_name shop.example;\n    ssl_certificate /etc/ssl/shop.pem;\n\
                \x20   location / {\n        proxy_pass http://web;\n    }\n    location /api/ {\n        proxy_pass http://api;\n    }\n}\n";
    let (servers, locations, upstreams) = nginx_blocks(&lines(dump));
    assert_eq!(servers.len(), 2);
    assert_eq!(servers[0]["redirect"], "301");
    assert_eq!(servers[1]["cert"], "/etc/ssl/shop.pem");
    assert_eq!(locations[1]["upstream"], "api");
    assert_eq!(upstreams[0]["method"], "least_conn");
    assert_eq!(upstreams[0]["servers"], json!(["10.0.0.1:8080", "10.0.0.2:8080"]));
    let qs = text_questions("nginx_conf_dump", dump).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["worker_connections".into(), "4096".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["/etc/nginx/sites-enabled/shop.conf".into()])), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "api".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["upstreams".into(), "upstream".into()], value: "2".into() }));
}
