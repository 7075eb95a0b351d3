//! Tests of the cli half's questions: the readers of `sysctl -a` and `conntrack -L`, the
//! lsblk tree walk and size reading, and the question builders, on small hand-made
//! outputs; and every shape of the half at several seeds (nine questions of every kind,
//! every answer in the raw result, head answers near the start and tail answers near the
//! end).

use serde_json::json;
use toolshape_fixtures::apis::Split;

use super::readers::{conntrack_flows, sysctl_keys};
use super::*;
use crate::half_checks::check_half;
use crate::question::{Check, Question};

/// This half's shapes.
const SHAPES: [&str; 4] = ["lsblk_json", "sysctl_a", "conntrack_l", "brew_info_json"];

/// The seeds each shape's questions are checked at.
const SEEDS: [u64; 3] = [1, 2, 5];

#[test]
fn every_shape_of_the_half_asks_nine_questions_of_every_kind_answered_from_the_raw_result() {
    check_half(&SHAPES, Split::TwentySixth, &SEEDS);
}

/// The check of the question whose text is `text`.
fn check_of(qs: &[Question], text: &str) -> Option<Check> {
    qs.iter().find(|q| q.text == text).map(|q| q.check.clone())
}

const SYSCTL: &str = "abi.vsyscall32 = 1
kernel.hostname = node-07
kernel.printk = 4\t4\t1\t7
kernel.hotplug = 
net.ipv4.conf.all.rp_filter = 2
net.ipv4.conf.eno1.proxy_arp = 0
net.ipv4.conf.eno1.rp_filter = 2
net.ipv4.conf.wg0.proxy_arp = 1
net.ipv4.conf.wg0.rp_filter = 0
net.ipv6.conf.eno1.disable_ipv6 = 0
net.ipv6.conf.eno1.mtu = 9000
net.ipv6.conf.eno1.autoconf = 1
net.ipv6.conf.wg0.disable_ipv6 = 1
net.ipv6.conf.wg0.mtu = 1420
vm.swappiness = 10
";

#[test]
fn sysctl_keys_keep_their_values_and_interfaces_are_gathered() {
    let keys = sysctl_keys(SYSCTL);
    assert_eq!(keys.len(), 15);
    assert_eq!(keys[2]["value"], "4\t4\t1\t7");
    assert_eq!(keys[3]["value"], "");
    assert_eq!(keys[14]["top"], "vm");
    let ifaces = sysctl::interfaces(&keys);
    assert_eq!(ifaces.len(), 2);
    assert_eq!(ifaces[0]["iface"], "eno1");
    assert_eq!(ifaces[0]["ipv6_ones"], 1);
    assert_eq!(ifaces[1]["mtu"], 1420);
    let qs: Vec<Question> = sysctl::sysctl_questions(SYSCTL).into_iter().flatten().collect();
    let largest = check_of(&qs, "Which interface other than lo has the largest IPv6 MTU?");
    assert_eq!(largest, Some(Check::Extreme { id: "eno1".into(), max: true }));
    let disabled = check_of(&qs, "How many interfaces have IPv6 disabled (disable_ipv6 = 1)?");
    assert_eq!(disabled, Some(Check::Count { labels: vec!["disable_ipv6".into()], value: "1".into() }));
    let ones = check_of(&qs, "How many keys under net.ipv6.conf.wg0 are set to 1?");
    assert_eq!(ones, Some(Check::Count { labels: vec!["wg0".into()], value: "1".into() }));
}

const CONNTRACK: &str = "tcp      6 86399 ESTABLISHED src=10.244.3.7 dst=10.96.14.2 sport=51234 dport=5432 src=10.244.9.4 dst=10.244.3.7 sport=5432 dport=51234 [ASSURED] mark=0 use=1
udp      17 27 src=10.244.3.7 dst=10.96.0.10 sport=40001 dport=53 src=10.244.1.2 dst=10.244.3.7 sport=53 dport=40001 mark=0 use=1
tcp      6 118 SYN_SENT src=10.244.3.8 dst=10.96.14.2 sport=44312 dport=5432 [UNREPLIED] src=10.244.9.4 dst=10.244.3.8 sport=5432 dport=44312 mark=0 use=1
tcp      6 57 TIME_WAIT src=10.244.3.7 dst=140.82.112.3 sport=39000 dport=443 src=140.82.112.3 dst=10.0.3.14 sport=443 dport=39000 [ASSURED] mark=0 use=1
icmp     1 29 src=10.0.3.14 dst=8.8.8.8 type=8 code=0 id=4242 src=8.8.8.8 dst=10.0.3.14 type=0 code=0 id=4242 mark=0 use=1
conntrack v1.4.7 (conntrack-tools): 5 flow entries have been shown.
";

#[test]
fn conntrack_flows_split_into_original_and_reply() {
    let c = conntrack_flows(CONNTRACK);
    assert_eq!(c.flows.len(), 5);
    assert_eq!(c.shown.as_deref(), Some("5"));
    let first = &c.flows[0];
    assert_eq!((first["src"].as_str(), first["dport"].as_str()), (Some("10.244.3.7"), Some("5432")));
    assert_eq!((first["reply_src"].as_str(), first["reply_dport"].as_str()), (Some("10.244.9.4"), Some("51234")));
    assert_eq!(first["state"], "ESTABLISHED");
    assert_eq!(first["assured"], true);
    assert!(c.flows[1].get("state").is_none());
    assert_eq!(c.flows[2]["unreplied"], true);
    assert_eq!(c.flows[4]["id"], "4242");
    assert_eq!(c.flows[4]["reply_type"], "0");
    let qs: Vec<Question> = conntrack::conntrack_questions(CONNTRACK).into_iter().flatten().collect();
    let most = check_of(&qs, "Which source address has the most entries?");
    assert_eq!(most, Some(Check::Extreme { id: "10.244.3.7".into(), max: true }));
    let wait = check_of(&qs, "How many connections are in TIME_WAIT?");
    assert_eq!(wait, Some(Check::Count { labels: vec!["TIME_WAIT".into()], value: "1".into() }));
    let https = check_of(&qs, "How many flows go to port 443?");
    assert_eq!(https, Some(Check::Count { labels: vec!["443".into()], value: "1".into() }));
}

#[test]
fn lsblk_sizes_and_the_tree_are_read_back() {
    assert_eq!(lsblk::lsblk_bytes("512M"), Some(512.0 * 1024.0 * 1024.0));
    assert_eq!(lsblk::lsblk_bytes("1.5T"), Some(1.5 * 1024f64.powi(4)));
    let md = json!({"name": "md0", "type": "raid1", "children": [{"name": "vg-data", "type": "lvm", "mountpoint": "/data", "fsuse%": "91%"}]});
    let v = json!({"blockdevices": [
        {"name": "sda", "type": "disk", "tran": "sata", "rota": false, "children": [{"name": "sda1", "type": "part", "children": [md.clone()]}]},
        {"name": "sdb", "type": "disk", "tran": "sas", "rota": true, "children": [{"name": "sdb1", "type": "part", "children": [md]}]},
        {"name": "nvme0n1", "type": "disk", "tran": "nvme", "rota": false, "children": [
            {"name": "nvme0n1p1", "type": "part", "mountpoint": "/srv", "fsuse%": "12%", "children": []}]},
    ]});
    let all = lsblk::devices(&v);
    assert_eq!(all.len(), 8, "md0 and its volume are listed once");
    assert_eq!(all[3]["disk"], "sda");
    assert_eq!(all[3]["via_md"], true);
    assert_eq!(lsblk::holders(&v, "md0"), 2);
    let qs: Vec<Question> = lsblk::lsblk_questions(&v).into_iter().flatten().collect();
    let fullest = check_of(&qs, "Which filesystem is the fullest (highest FSUSE%)?");
    assert_eq!(fullest, Some(Check::Extreme { id: "/data".into(), max: true }));
    let nvme = check_of(&qs, "How many NVMe disks are there?");
    assert_eq!(nvme, Some(Check::Count { labels: vec!["nvme".into()], value: "1".into() }));
    let members = check_of(&qs, "How many member devices does the RAID array md0 have?");
    assert_eq!(members, Some(Check::Count { labels: vec!["md0".into()], value: "2".into() }));
}

#[test]
fn brew_kegs_are_lifted_and_counted() {
    let keg = |v: &str, request: bool, deps: usize, time: i64| {
        json!([{"version": v, "installed_on_request": request, "installed_as_dependency": !request, "time": time,
                "runtime_dependencies": vec![json!({"full_name": "x"}); deps]}])
    };
    let v = json!({"formulae": [
        {"name": "jq", "tap": "homebrew/core", "license": "MIT", "outdated": false, "keg_only": false, "installed": keg("1.8.1", true, 1, 100)},
        {"name": "oniguruma", "tap": "homebrew/core", "license": "BSD-2-Clause", "outdated": true, "keg_only": false, "installed": keg("6.9.9", false, 0, 50)},
        {"name": "curl", "tap": "homebrew/core", "license": "curl", "outdated": true, "keg_only": true, "installed": keg("8.16.0", true, 9, 300)},
    ], "casks": [{"token": "iterm2", "installed": "3.6.5", "outdated": false, "auto_updates": true}]});
    let f = brew::formulae(&v);
    assert_eq!(f[1]["installed_version"], "6.9.9");
    assert_eq!(f[2]["runtime"], 9);
    let qs: Vec<Question> = brew::brew_questions(&v).into_iter().flatten().collect();
    let outdated = check_of(&qs, "How many installed formulae are outdated?");
    assert_eq!(outdated, Some(Check::Count { labels: vec!["outdated".into()], value: "2".into() }));
    let most = check_of(&qs, "Which formula has the most runtime dependencies?");
    assert_eq!(most, Some(Check::Extreme { id: "curl".into(), max: true }));
    let recent = check_of(&qs, "Which formula was installed most recently?");
    assert_eq!(recent, Some(Check::Extreme { id: "curl".into(), max: true }));
}
