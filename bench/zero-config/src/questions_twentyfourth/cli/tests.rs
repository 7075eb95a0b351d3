//! Tests of the cli half's questions: the readers of `ip addr show`, `kubectl get all`
//! and ffprobe's frames, and the question builders, on small hand-made outputs; and every
//! shape of the half at several seeds (nine questions of every kind, every answer in the
//! raw result, head answers near the start and tail answers near the end).

use serde_json::json;
use toolshape_fixtures::apis::Split;

use super::readers::{ffprobe_frames, ip_links, kubectl_tables, num};
use super::*;
use crate::half_checks::check_half;
use crate::question::Check;

/// This half's shapes.
const SHAPES: [&str; 4] = ["ip_addr_show", "kubectl_get_all", "docker_inspect", "ffprobe_frames"];

/// The seeds each shape's questions are checked at.
const SEEDS: [u64; 3] = [1, 2, 5];

#[test]
fn every_shape_of_the_half_asks_nine_questions_of_every_kind_answered_from_the_raw_result() {
    check_half(&SHAPES, Split::TwentyFourth, &SEEDS);
}

const IP: &str = "1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN group default qlen 1000
    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00
    inet 127.0.0.1/8 scope host lo
       valid_lft forever preferred_lft forever
2: eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc mq state UP group default qlen 1000
    link/ether 0a:11:22:33:44:55 brd ff:ff:ff:ff:ff:ff
    altname enp0s5
    inet 10.0.1.5/20 metric 100 brd 10.0.15.255 scope global dynamic eth0
       valid_lft 3000sec preferred_lft 3000sec
7: veth1a2b3c4d@if3: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1450 qdisc noqueue master cni0 state UP group default 
    link/ether 6e:2b:9c:41:0a:f3 brd ff:ff:ff:ff:ff:ff link-netns cni-1111
    inet6 fe80::6c2b:9cff:fe41:af3/64 scope link 
       valid_lft forever preferred_lft forever
9: veth5e6f7a8b@if2: <BROADCAST,MULTICAST> mtu 1450 qdisc noop master cni0 state DOWN group default qlen 1000
    link/ether 6e:2b:9c:41:0a:f4 brd ff:ff:ff:ff:ff:ff link-netns cni-2222
";

#[test]
fn ip_blocks_are_read_with_their_link_and_addresses() {
    let links = ip_links(IP);
    assert_eq!(links.len(), 4);
    assert_eq!(links[1]["altname"], "enp0s5");
    assert_eq!(links[1]["inet"], "10.0.1.5/20");
    assert_eq!(links[2]["name"], "veth1a2b3c4d");
    assert_eq!(links[2]["peer"], "if3");
    assert_eq!(links[2]["master"], "cni0");
    assert_eq!(links[2]["netns"], "cni-1111");
    assert_eq!(links[3]["state"], "DOWN");
    assert_eq!(links[3]["mtu"], "1450");
    let qs: Vec<Question> = ipaddr::ip_addr_questions(IP).into_iter().flatten().collect();
    let down = qs.iter().find(|q| q.text == "How many interfaces are DOWN?").map(|q| &q.check);
    assert_eq!(down, Some(&Check::Count { labels: vec!["DOWN".into()], value: "1".into() }));
    let mtu = qs.iter().find(|q| q.text == "How many interfaces have mtu 1450?").map(|q| &q.check);
    assert_eq!(mtu, Some(&Check::Count { labels: vec!["mtu 1450".into()], value: "2".into() }));
    let largest = qs.iter().find(|q| q.text == "Which interface has the largest index?").map(|q| &q.check);
    assert_eq!(largest, Some(&Check::Extreme { id: "veth5e6f7a8b".into(), max: true }));
}

const KUBECTL: &str = "NAMESPACE     NAME                    READY   STATUS             RESTARTS        AGE
kube-system   pod/coredns-5d78-x2k4p  1/1     Running            0               41d
shop          pod/cart-7d9f-abcde     0/1     CrashLoopBackOff   47 (3m12s ago)  2d4h
shop          pod/cart-7d9f-fghij     1/1     Running            2 (5h ago)      2d4h

NAMESPACE   NAME                  TYPE        CLUSTER-IP    EXTERNAL-IP   PORT(S)          AGE
shop        service/cart          ClusterIP   10.100.3.4    <none>        7070/TCP         41d

NAMESPACE   NAME                   READY   UP-TO-DATE   AVAILABLE   AGE
shop        deployment.apps/cart   1/2     2            1           41d

NAMESPACE   NAME                       SCHEDULE    TIMEZONE   SUSPEND   ACTIVE   LAST SCHEDULE   AGE
shop        cronjob.batch/db-backup    30 2 * * *  <none>     False     0        21h             41d
";

#[test]
fn kubectl_tables_are_cut_at_their_header_columns() {
    let tables = kubectl_tables(KUBECTL);
    assert_eq!(tables.len(), 4);
    let pods = &tables[0].rows;
    assert_eq!(pods[1]["RESTARTS"], "47 (3m12s ago)");
    assert_eq!(num(&pods[1], "RESTARTS"), Some(47.0));
    assert_eq!(tables[1].rows[0]["PORT(S)"], "7070/TCP");
    assert_eq!(tables[3].rows[0]["TIMEZONE"], "<none>");
    assert_eq!(tables[3].rows[0]["SCHEDULE"], "30 2 * * *");
    assert_eq!(tables[3].rows[0]["LAST SCHEDULE"], "21h");
    let qs: Vec<Question> = kubectl::kubectl_questions(KUBECTL).into_iter().flatten().collect();
    let most = qs.iter().find(|q| q.text == "Which pod has restarted the most?").map(|q| &q.check);
    assert_eq!(most, Some(&Check::Extreme { id: "pod/cart-7d9f-abcde".into(), max: true }));
    let short = qs.iter().find(|q| q.text == "How many deployments are not fully available?").map(|q| &q.check);
    assert!(matches!(short, Some(Check::Count { value, .. }) if value == "1"));
    let not_running = qs.iter().find(|q| q.text == "How many pods are not Running?").map(|q| &q.check);
    assert!(matches!(not_running, Some(Check::Count { value, .. }) if value == "1"));
}

const FRAMES: &str = "[FRAME]
media_type=video
key_frame=1
pts=0
pts_time=0.000000
pkt_pos=48
pkt_size=90000
pict_type=I
coded_picture_number=0
[SIDE_DATA]
side_data_type=H.26[45] User Data Unregistered SEI message
[/SIDE_DATA]
[/FRAME]
[FRAME]
media_type=video
key_frame=0
pts=512
pts_time=0.033333
pkt_pos=95000
pkt_size=2100
pict_type=B
coded_picture_number=2
[/FRAME]
[FRAME]
media_type=video
key_frame=0
pts=1024
pts_time=0.066667
pkt_pos=90400
pkt_size=14000
pict_type=P
coded_picture_number=1
[/FRAME]
";

#[test]
fn ffprobe_frames_are_read_without_their_side_data() {
    let frames = ffprobe_frames(FRAMES);
    assert_eq!(frames.len(), 3);
    assert!(frames[0].get("side_data_type").is_none());
    assert_eq!(frames[2]["coded_picture_number"], "1");
    let qs: Vec<Question> = ffprobe::ffprobe_questions(FRAMES).into_iter().flatten().collect();
    let b = qs.iter().find(|q| q.text == "How many B frames are there?").map(|q| &q.check);
    assert!(matches!(b, Some(Check::Count { value, .. }) if value == "1"));
    let largest = qs.iter().find(|q| q.text == "Which frame has the largest packet (by pts_time)?").map(|q| &q.check);
    assert_eq!(largest, Some(&Check::Extreme { id: "0.000000".into(), max: true }));
    let coded = qs.iter().find(|q| q.text.starts_with("Which frame has coded_picture_number 2")).map(|q| &q.check);
    let want = vec!["coded_picture_number=2".to_owned(), "0.033333".to_owned(), "B".to_owned()];
    assert_eq!(coded, Some(&Check::Together(want)));
}

#[test]
fn docker_containers_are_asked_by_name_without_the_slash() {
    let c = |name: &str, status: &str, code: i64, restarts: u64| {
        json!({"Id": "abc", "Created": "2025-12-01T00:00:00.1Z", "Name": format!("/{name}"), "RestartCount": restarts,
               "State": {"Status": status, "ExitCode": code, "StartedAt": "2025-12-01T00:00:01Z", "OOMKilled": false},
               "HostConfig": {"RestartPolicy": {"Name": "no"}},
               "Config": {"Image": "alpine:3.20", "Labels": {}},
               "NetworkSettings": {"Networks": {"bridge": {"IPAddress": if status == "running" { "172.17.0.2" } else { "" }}}}})
    };
    let v = json!([c("web-1", "running", 0, 0), c("jolly_turing", "exited", 137, 0), c("api-1", "restarting", 1, 12)]);
    let qs: Vec<Question> = docker::docker_questions(&v).into_iter().flatten().collect();
    let exited = qs.iter().find(|q| q.text == "How many containers have exited?").map(|q| &q.check);
    assert!(matches!(exited, Some(Check::Count { value, .. }) if value == "1"));
    let most = qs.iter().find(|q| q.text == "Which container has restarted the most?").map(|q| &q.check);
    assert_eq!(most, Some(&Check::Extreme { id: "api-1".into(), max: true }));
    let ip = qs.iter().find(|q| q.text == "What IP address does web-1 have?").map(|q| &q.check);
    assert_eq!(ip, Some(&Check::Together(vec!["web-1".into(), "172.17.0.2".into()])));
}

#[test]
fn lookups_skip_keys_that_name_several_records() {
    let list = vec![json!({"k": "a", "v": "1"}), json!({"k": "a", "v": "2"}), json!({"k": "b", "v": "3"})];
    let q = lookup(&list, 0.0, "v of {key}?", "k", &["v"]).map(|q| q.check);
    assert_eq!(q, Some(Check::Together(vec!["b".into(), "3".into()])));
    assert!(lookup(&list[..2], 0.0, "v of {key}?", "k", &["v"]).is_none());
    assert_eq!(from_end(&list, 2), Some(&list[0]));
    assert_eq!(from_end(&list, 3), None);
}
