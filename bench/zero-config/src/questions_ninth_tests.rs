//! Tests of the ninth part's questions: every shape asked every kind, at least nine
//! questions each, every answer found in the raw result, and the readers of package
//! lists, directory listings, socket and image tables computing their answers from the
//! lines.

use toolshape_fixtures::apis::Split;

use serde_json::json;

use super::*;
use crate::question::Check;
use crate::questions::tests::checks;

#[test]
fn the_ninth_part_asks_at_least_nine_questions_of_every_shape_and_kind() {
    crate::questions::tests::asks_nine_of_every_shape(Split::Ninth, &[1]);
}

#[test]
fn every_answer_is_in_the_raw_result() {
    crate::questions::tests::answers_are_in_the_raw_result(Split::Ninth);
}

#[test]
fn json_answers_come_from_the_records() {
    let f = |name: &str, rt: Option<&str>, size: u64, vpc: &str, when: &str| {
        let mut v = json!({"FunctionName": name, "CodeSize": size, "MemorySize": 128, "Timeout": 3, "LastModified": when, "VpcConfig": {"VpcId": vpc}});
        if let Some(rt) = rt {
            v["Runtime"] = json!(rt);
        }
        v
    };
    let v = json!({"Functions": [
        f("prod-a-api", Some("python3.12"), 10, "", "2025-01-01T00:00:00.000+0000"),
        f("prod-b-api", None, 0, "vpc-1", "2025-06-01T00:00:00.000+0000"),
        f("prod-c-api", Some("nodejs20.x"), 99, "", "2025-03-01T00:00:00.000+0000"),
        f("prod-d-api", Some("nodejs20.x"), 5, "vpc-2", "2024-03-01T00:00:00.000+0000"),
    ]});
    let qs = json_questions("lambda_functions", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Extreme { id: "prod-c-api".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "prod-b-api".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["VPC".into(), "VpcId".into(), "vpc".into()], value: "2".into() }));
    assert!(c.contains(&&Check::Count { labels: vec!["python3.12".into()], value: "1".into() }), "{c:?}");

    let file = |name: &str, size: Option<&str>, created: &str, shared: bool| {
        let mut v = json!({"name": name, "mimeType": "application/pdf", "createdTime": created, "modifiedTime": created, "shared": shared, "owners": [{"displayName": "Ada Berg"}]});
        if let Some(s) = size {
            v["size"] = json!(s);
        }
        v
    };
    let v = json!({"files": [
        file("Plan", None, "2025-02-01T00:00:00.000Z", true),
        file("Deck.pdf", Some("900"), "2024-01-01T00:00:00.000Z", false),
        file("Notes.pdf", Some("12000"), "2025-01-01T00:00:00.000Z", true),
    ]});
    let qs = json_questions("drive_files", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Extreme { id: "Notes.pdf".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Deck.pdf".into(), max: false }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["shared".into()], value: "2".into() }), "{c:?}");
}

#[test]
fn package_lists_and_directory_listings_are_read_by_their_columns() {
    let apt = "Listing... Done\n\
               adduser/noble,now 3.137ubuntu1 all [installed]\n\
               bash/noble-updates,now 5.2.21-2ubuntu4 amd64 [installed,upgradable to: 5.2.21-2ubuntu5]\n\
               libc6/noble-security,now 2.39-0ubuntu8.3 amd64 [installed,automatic]\n";
    let rows = apt_rows(&lines(apt));
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[1]["state"], "[installed,upgradable to: 5.2.21-2ubuntu5]");
    let qs = text_questions("apt_list_installed", apt).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["Listing... Done".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["libc6".into()])), "{c:?}");
    assert!(
        qs.iter()
            .any(|q| q.text.contains("upgraded") && matches!(&q.check, Check::Count { value, .. } if value == "1"))
    );
    assert!(
        qs.iter()
            .any(|q| q.text.contains("manually") && matches!(&q.check, Check::Count { value, .. } if value == "1"))
    );

    let ls = "total 120\n\
              drwxrwsr-x    4 exporter exporter         69632 Dec 31 23:01 .\n\
              drwxr-xr-x    9 root     root              4096 Nov 26  2024 ..\n\
              -rw-rw-r--    1 exporter exporter         52000 Dec  3 10:00 a.csv.gz\n\
              lrwxrwxrwx    1 root     exporter            12 Dec  3 10:00 a-latest -> a.csv.gz\n\
              drwxrwsr-x    2 exporter exporter          4096 Nov  1 09:00 b-2025-11\n\
              -rw-rw-r--    1 www-data exporter       9000000 Oct  2  2024 c.json\n";
    let rows = ls_rows(&lines(ls));
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[1]["target"], "a.csv.gz");
    let qs = text_questions("ls_la", ls).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Extreme { id: "c.json".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["a.csv.gz".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["c.json".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["a-latest".into(), "a.csv.gz".into()])), "{c:?}");
}

#[test]
fn socket_and_image_tables_are_read_by_their_columns() {
    let ss = "State      Recv-Q Send-Q       Local Address:Port  Peer Address:Port Process\n\
              LISTEN     0      4096         0.0.0.0:443  0.0.0.0:* users:((\"haproxy\",pid=1,fd=5))\n\
              ESTAB      0      9000         10.0.0.1:443  1.2.3.4:50000 users:((\"haproxy\",pid=1,fd=9))\n\
              ESTAB      0      0            10.0.0.1:41000  10.0.0.9:5432 users:((\"nginx\",pid=2,fd=7))\n\
              TIME-WAIT  0      0            10.0.0.1:443  5.6.7.8:50001\n\
              ESTAB      0      10           10.0.0.1:443  1.2.3.5:50002 users:((\"haproxy\",pid=1,fd=10))\n";
    let rows = ss_rows(&lines(ss));
    assert_eq!(rows[3]["Process"], "");
    assert_eq!(rows[2]["program"], "nginx");
    let qs = text_questions("ss_tanp", ss).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Extreme { id: "haproxy".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "1.2.3.4:50000".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["0.0.0.0:443".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["1.2.3.5:50002".into()])), "{c:?}");

    let images = "REPOSITORY     TAG          IMAGE ID       CREATED             SIZE\n\
                  ghcr.io/x/api  sha-abc1234  0123456789ab   About an hour ago   312MB\n\
                  <none>         <none>       ba9876543210   3 days ago          1.21GB\n\
                  node           20-alpine    aaaaaaaaaaaa   2 weeks ago         8.83MB\n";
    let rows = image_rows(&lines(images));
    assert_eq!(rows[0]["CREATED"], "About an hour ago");
    assert_eq!(megabytes("1.21GB"), Some(1210.0));
    let qs = text_questions("docker_images", images).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Extreme { id: "ba9876543210".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["images".into()], value: "3".into() }), "{c:?}");
    assert!(
        c.contains(&&Check::Count {
            labels: vec!["<none>".into(), "dangling".into(), "untagged".into()],
            value: "1".into()
        }),
        "{c:?}"
    );
}
