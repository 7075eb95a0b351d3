//! Tests of the tenth part's questions: every shape asked every kind, at least nine
//! questions each, every answer found in the raw result, and the readers of disk usage
//! listings, NAT chains, branch lists and dependency trees computing their answers from
//! the lines.

use toolshape_fixtures::apis::Split;

use serde_json::json;

use super::*;
use crate::question::Check;
use crate::questions::tests::checks;

#[test]
fn the_tenth_part_asks_at_least_nine_questions_of_every_shape_and_kind() {
    crate::questions::tests::asks_nine_of_every_shape(Split::Tenth, &[1]);
}

#[test]
fn every_answer_is_in_the_raw_result() {
    crate::questions::tests::answers_are_in_the_raw_result(Split::Tenth);
}

#[test]
fn times_are_read_as_seconds() {
    assert_eq!(unix_seconds("1970-01-01T00:00:00Z"), Some(0));
    assert_eq!(unix_seconds("2026-01-01T00:00:00Z"), Some(1_767_225_600));
    assert_eq!(unix_seconds("2024-02-29T12:00:30Z"), Some(1_709_208_030));
    assert_eq!(unix_seconds("soon"), None);
}

#[test]
fn json_answers_come_from_the_records() {
    let run = |id: u64, name: &str, status: &str, conclusion: Option<&str>, secs: u32| {
        json!({"id": id, "name": name, "display_title": format!("run {id}"), "head_branch": "main", "event": "push",
               "status": status, "conclusion": conclusion,
               "run_started_at": "2025-12-31T10:00:00Z", "updated_at": format!("2025-12-31T10:{:02}:{:02}Z", secs / 60, secs % 60)})
    };
    let v = json!({"workflow_runs": [
        run(9, "CI", "in_progress", None, 5),
        run(8, "Lint", "completed", Some("failure"), 40),
        run(7, "CI", "completed", Some("failure"), 600),
        run(6, "CI", "completed", Some("failure"), 30),
        run(5, "Deploy", "completed", Some("success"), 90),
    ]});
    let qs = json_questions("github_workflow_runs", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Extreme { id: "CI".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "7".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["in_progress".into(), "in progress".into()], value: "1".into() }));

    let file = |name: &str, size: u64, at: &str, yanked: bool| {
        json!({"filename": name, "size": size, "packagetype": if name.ends_with(".whl") { "bdist_wheel" } else { "sdist" },
               "upload_time": at, "upload_time_iso_8601": format!("{at}.000001Z"), "yanked": yanked, "digests": {"sha256": "ab"}})
    };
    let v = json!({
        "info": {"version": "1.1.0"},
        "releases": {
            "1.0.0": [file("p-1.0.0.tar.gz", 900, "2024-01-01T00:00:00", true), file("p-1.0.0-py3-none-any.whl", 300, "2024-01-01T00:00:05", true)],
            "1.0.1": [],
            "1.1.0": [file("p-1.1.0.tar.gz", 9000, "2024-03-01T00:00:00", false), file("p-1.1.0-py3-none-any.whl", 400, "2024-03-01T00:00:04", false)]
        },
        "urls": [file("p-1.1.0.tar.gz", 9000, "2024-03-01T00:00:00", false), file("p-1.1.0-py3-none-any.whl", 400, "2024-03-01T00:00:04", false)],
        "vulnerabilities": [{"id": "PYSEC-1"}]
    });
    assert_eq!(pypi_files(&v)[2]["version"], "1.1.0");
    let qs = json_questions("pypi_project", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Extreme { id: "p-1.1.0.tar.gz".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "p-1.0.0.tar.gz".into(), max: false }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["releases".into(), "versions".into()], value: "3".into() }));
    assert!(c.contains(&&Check::Count { labels: vec!["yanked".into()], value: "2".into() }), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["p-1.1.0-py3-none-any.whl".into()])), "{c:?}");

    let v = json!({"terraform_version": "1.9.8", "values": {"root_module": {
        "resources": [
            {"address": "data.aws_ami.ubuntu", "mode": "data", "type": "aws_ami", "values": {"id": "ami-1"}},
            {"address": "aws_instance.web[0]", "mode": "managed", "type": "aws_instance", "values": {"id": "i-1", "instance_type": "m7i.large", "private_ip": "10.0.0.1", "root_block_device": [{"volume_size": 30}]}},
            {"address": "aws_instance.web[1]", "mode": "managed", "type": "aws_instance", "values": {"id": "i-2", "instance_type": "m7i.large", "private_ip": "10.0.0.2", "root_block_device": [{"volume_size": 500}]}}
        ],
        "child_modules": [{"address": "module.eks", "resources": [
            {"address": "module.eks.aws_eks_node_group.this[\"gpu\"]", "mode": "managed", "type": "aws_eks_node_group", "values": {"id": "production:gpu"}}
        ]}]
    }}});
    assert_eq!(state_resources(&v).len(), 4);
    let qs = json_questions("terraform_state", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Extreme { id: "aws_instance.web[1]".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["production:gpu".into()])), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["data".into()], value: "1".into() }), "{c:?}");
}

#[test]
fn disk_usage_and_nat_chains_are_read_by_their_columns() {
    let du = "4.0K\t./logs/app.log\n1.3M\t./logs/app.log.2.gz\n1.4M\t./logs\n31G\t./backups/db/a.sql.gz\n7.0G\t./backups/db/b.sql.gz\n38G\t./backups/db\n38G\t./backups\n4.0K\t./tmp\n39G\t.\n";
    let rows = du_rows(&lines(du));
    assert_eq!(rows[2]["kind"], "dir");
    assert_eq!(rows[3]["ext"], "gz");
    assert_eq!(du_kib("1.5M"), Some(1536.0));
    let qs = text_questions("du_ah", du).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Extreme { id: "./backups/db/a.sql.gz".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "./backups".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["39G".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["./tmp".into()])), "{c:?}");

    let nat = "Chain PREROUTING (policy ACCEPT 6644K packets, 648M bytes)\n\
               \x20pkts bytes target     prot opt in     out     source               destination\n\
               11M  793M KUBE-SERVICES all  --  *      *       0.0.0.0/0            0.0.0.0/0            /* kubernetes service portals */\n\
               \n\
               Chain KUBE-SERVICES (2 references)\n\
               \x20pkts bytes target     prot opt in     out     source               destination\n\
               \x20483K  151M KUBE-SVC-AAAA tcp  --  *      *       0.0.0.0/0            10.96.0.1            /* default/kubernetes:https cluster IP */ tcp dpt:443\n\
               \x20 207 18009 KUBE-SVC-BBBB tcp  --  *      *       0.0.0.0/0            10.96.4.7            /* shop/api:http cluster IP */ tcp dpt:80\n\
               \n\
               Chain KUBE-SVC-BBBB (1 references)\n\
               \x20pkts bytes target     prot opt in     out     source               destination\n\
               \x20 100  8000 KUBE-SEP-CCCC all  --  *      *       0.0.0.0/0            0.0.0.0/0            /* shop/api:http -> 10.244.1.5:8080 */ statistic mode random probability 0.50000000000\n\
               \x20 107  8560 KUBE-SEP-DDDD all  --  *      *       0.0.0.0/0            0.0.0.0/0            /* shop/api:http -> 10.244.2.9:8080 */\n\
               \n\
               Chain KUBE-SEP-DDDD (1 references)\n\
               \x20pkts bytes target     prot opt in     out     source               destination\n\
               \x20 107  8560 DNAT       tcp  --  *      *       0.0.0.0/0            0.0.0.0/0            /* shop/api:http */ tcp to:10.244.2.9:8080\n";
    let rows = nat_rows(&lines(nat));
    assert_eq!(rows.len(), 6);
    assert_eq!(rows[1]["service"], "default/kubernetes:https");
    assert_eq!(rows[3]["endpoint"], "10.244.1.5:8080");
    assert_eq!(rows[5]["service"], "");
    assert_eq!(ipt_number("483K"), Some(483_000.0));
    let qs = text_questions("iptables_nat", nat).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["PREROUTING".into(), "ACCEPT".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["KUBE-SEP-DDDD".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["10.244.2.9:8080".into()])), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "default/kubernetes:https".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "shop/api:http".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["chains".into()], value: "4".into() }), "{c:?}");
}

#[test]
fn branch_lists_and_dependency_trees_are_read_by_their_columns() {
    let branches = "  chore/a      1111111 [origin/chore/a: ahead 2, behind 40] Tidy the cache layer\n\
                    * develop      2222222 [origin/develop: behind 3] Merge pull request #4100 from northwind/fix/b\n\
                    + fix/b        3333333 [origin/fix/b: gone] WIP\n\
                    \x20 spike/c      4444444 Try a different key\n\
                    \x20 spike/d      5555555 [fork/spike/d: ahead 5] Faster parser\n";
    let rows = branch_rows(&lines(branches));
    assert_eq!(rows.len(), 5);
    assert_eq!(rows[0]["behind"], "40");
    assert_eq!(rows[1]["current"], "*");
    assert_eq!(rows[2]["gone"], "gone");
    assert_eq!(rows[3]["upstream"], "");
    assert_eq!(rows[3]["subject"], "Try a different key");
    let qs = text_questions("git_branch_vv", branches).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Extreme { id: "chore/a".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "spike/d".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["behind".into()], value: "2".into() }), "{c:?}");

    let mvn = "[INFO] Reactor Build Order:\n[INFO] \n[INFO] app-parent       [pom]\n[INFO] app-core         [jar]\n[INFO] \n\
               [INFO] --- dependency:3.7.0:tree (default-cli) @ app-parent ---\n[INFO] com.x:app-parent:pom:1.0\n[INFO] \n\
               [INFO] --- dependency:3.7.0:tree (default-cli) @ app-core ---\n[INFO] com.x:app-core:jar:1.0\n\
               [INFO] +- com.google.guava:guava:jar:33.3.1-jre:compile\n\
               [INFO] |  \\- com.google.guava:failureaccess:jar:1.0.2:compile\n\
               [INFO] \\- org.junit.jupiter:junit-jupiter:jar:5.10.5:test\n\
               [INFO] app-parent ........ SUCCESS [  0.718 s]\n[INFO] app-core .......... SUCCESS [ 11.820 s]\n\
               [INFO] BUILD SUCCESS\n[INFO] Total time:  13.001 s\n";
    let rows = maven_rows(&lines(mvn));
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[1]["key"], "com.google.guava:failureaccess");
    assert_eq!(rows[1]["depth"], "2");
    assert_eq!(rows[2]["module"], "app-core");
    let qs = text_questions("mvn_dependency_tree", mvn).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["app-parent".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["13.001 s".into()])), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "app-core".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["modules".into(), "projects".into()], value: "2".into() }));
}
