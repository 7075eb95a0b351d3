//! Tests of the cli half's questions: the readers of `ip -s -s link`, `dig AXFR`, `cargo
//! test` and `virsh domstats` and the question builders on small hand-made outputs, and
//! every shape of the half at several seeds (nine questions of every kind, every answer in
//! the raw result, head answers near the start and tail answers near the end).

use toolshape_fixtures::apis::Split;

use super::readers::{cargo_run, domain_stats, ip_links, zone_records};
use super::*;
use crate::half_checks::check_half;
use crate::question::{Check, Kind};
use crate::questions::tests::checks;

/// This half's shapes.
const SHAPES: [&str; 4] = ["ip_s_s_link", "dig_axfr", "cargo_test_workspace", "virsh_domstats"];

/// The seeds each shape's questions are checked at.
const SEEDS: [u64; 3] = [1, 2, 5];

#[test]
fn every_shape_of_the_half_asks_nine_questions_of_every_kind_answered_from_the_raw_result() {
    check_half(&SHAPES, Split::ThirtyFirst, &SEEDS);
}

const LINKS: &str = "1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN mode DEFAULT group default qlen 1000
    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00
    RX:  bytes packets errors dropped  missed   mcast           
     812340000 1200000      0       0       0       0 
    RX errors:  length    crc   frame    fifo overrun           
                     0      0       0       0       0 
    TX:  bytes packets errors dropped carrier collsns           
     812340000 1200000      0       0       0       0 
    TX errors: aborted   fifo  window heartbt transns
                     0      0       0       0       0 
3: eno2: <BROADCAST,MULTICAST,SLAVE,UP,LOWER_UP> mtu 9000 qdisc mq master bond0 state UP mode DEFAULT group default qlen 1000
    link/ether 3c:ec:ef:16:5e:1e brd ff:ff:ff:ff:ff:ff permaddr 3c:ec:ef:a6:cf:c3
    RX:      bytes     packets errors dropped  missed   mcast           
    29231470467612 38513136321  18042    2544   64446 7096710 
    RX errors:          length    crc   frame    fifo overrun           
                             0  15035    3007     248       0 
    TX:      bytes     packets errors dropped carrier collsns           
    18985761824942 25213495120      0       0       0       0 
    TX errors:         aborted   fifo  window heartbt transns
                             0      0       0       0      16 
    altname enp24s0f1
1815: cali411b98bf019@if4: <NO-CARRIER,BROADCAST,MULTICAST,UP> mtu 8950 qdisc noqueue state LOWERLAYERDOWN mode DEFAULT group default 
    link/ether ee:ee:ee:ee:ee:ee brd ff:ff:ff:ff:ff:ff link-netns cni-fa9b56c8-3ee3-b953-0f15-c76a6e75d232
    RX:  bytes packets errors dropped  missed   mcast           
    2405261407 3194239      0       0       0       0 
    RX errors:  length    crc   frame    fifo overrun           
                     0      0       0       0       0 
    TX:  bytes packets errors dropped carrier collsns           
     336258549  273381      0   12618       0       0 
    TX errors: aborted   fifo  window heartbt transns
                     0      0       0       0       3 
";

#[test]
fn ip_links_read_each_table_under_its_own_column_widths() {
    let links = ip_links(LINKS);
    assert_eq!(links.len(), 3);
    assert_eq!(links[1].name, "eno2");
    assert_eq!(links[1].get("rx.bytes"), "29231470467612");
    assert_eq!(links[1].get("rx_errors.crc"), "15035");
    assert_eq!(links[1].get("tx_errors.transns"), "16");
    assert_eq!(links[1].attr("master"), "bond0");
    assert_eq!(links[1].link_attr("permaddr"), "3c:ec:ef:a6:cf:c3");
    assert_eq!(links[1].altnames, vec!["enp24s0f1".to_owned()]);
    assert_eq!(links[2].full, "cali411b98bf019@if4");
    assert_eq!(links[2].name, "cali411b98bf019");
    assert_eq!(links[2].index, "1815");
    assert_eq!(links[2].attr("state"), "LOWERLAYERDOWN");
    assert_eq!(links[2].link_attr("link-netns"), "cni-fa9b56c8-3ee3-b953-0f15-c76a6e75d232");
    assert_eq!(links[2].get("tx.dropped"), "12618");
    let qs = text_questions("ip_s_s_link", LINKS).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Extreme { id: "eno2".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "cali411b98bf019".into(), max: true }), "{c:?}");
    let down = Check::Count { labels: vec!["LOWERLAYERDOWN".into()], value: "1".into() };
    assert!(c.contains(&&down), "{c:?}");
    let netns = Check::Together(vec!["cali411b98bf019".into(), "cni-fa9b56c8-3ee3-b953-0f15-c76a6e75d232".into()]);
    assert!(c.contains(&&netns), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["eno2".into(), "bond0".into(), "enp24s0f1".into()])), "{c:?}");
}

const ZONE: &str = "
; <<>> DiG 9.18.28-1~deb12u2-Debian <<>> @10.22.0.53 example.com AXFR
; (1 server found)
;; global options: +cmd
example.com.\t\t3600\tIN\tSOA\tns1.example.com. hostmaster.example.com. 2026120701 3600 900 1209600 300
example.com.\t\t86400\tIN\tNS\tns1.example.com.
example.com.\t\t3600\tIN\tMX\t1 aspmx.l.google.com.
_dmarc.example.com.\t3600\tIN\tTXT\t\"v=DMARC1; p=quarantine; pct=100\"
grafana.example.com.\t300\tIN\tCNAME\tingress.fra2.example.com.
vault.example.com.\t300\tIN\tCNAME\tingress.fra2.example.com.
*.apps.fra2.example.com.\t300\tIN\tA\t10.16.0.55
ingress.fra2.example.com.\t60\tIN\tA\t10.16.0.55
lb.fra2.example.com.\t60\tIN\tA\t10.16.0.10
lb.fra2.example.com.\t60\tIN\tA\t10.16.0.11
web01.fra2.example.com.\t3600\tIN\tA\t10.16.10.11
web01.fra2.example.com.\t3600\tIN\tAAAA\t2001:db8:4b0:a::b
example.com.\t\t3600\tIN\tSOA\tns1.example.com. hostmaster.example.com. 2026120701 3600 900 1209600 300
;; Query time: 85 msec
;; SERVER: 10.22.0.53#53(10.22.0.53) (TCP)
;; WHEN: Mon Dec 07 06:20:11 UTC 2026
;; XFR size: 13 records (messages 1, bytes 612)

";

#[test]
fn zone_records_split_on_tabs_and_keep_the_footer() {
    let (records, footer) = zone_records(ZONE);
    assert_eq!(records.len(), 13);
    assert_eq!(records[3].owner, "_dmarc.example.com.");
    assert_eq!(records[3].data, "\"v=DMARC1; p=quarantine; pct=100\"");
    assert_eq!(records[6].owner, "*.apps.fra2.example.com.");
    assert_eq!(records[6].ttl, "300");
    assert_eq!(records[11].kind, "AAAA");
    let size = ("XFR size".to_owned(), "13 records (messages 1, bytes 612)".to_owned());
    assert_eq!(footer.last(), Some(&size));
    let qs = text_questions("dig_axfr", ZONE).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Extreme { id: "10.16.0.55".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "lb.fra2.example.com.".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "ingress.fra2.example.com.".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["records".into()], value: "13".into() }), "{c:?}");
    let ttl60 = Check::Count { labels: vec!["TTL 60".into(), "60".into()], value: "3".into() };
    assert!(c.contains(&&ttl60), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["2026120701".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["10.22.0.53#53".into()])), "{c:?}");
}

const CARGO: &str = "   Compiling lumen-core v0.4.1 (/builds/platform/lumen/crates/lumen-core)
    Finished `test` profile [unoptimized + debuginfo] target(s) in 1m 38s
     Running unittests crates/lumen-core/src/lib.rs (target/debug/deps/lumen_core-5f3c2a9e81b4d7c0)

running 4 tests
test money::tests::rounds_half_cent_values ... ok
test money::tests::rejects_negative_amounts ... FAILED
test money::tests::rounds_half_cent_values_by_default ... ignored, needs DATABASE_URL
test clock::tests::parses_leap_days ... ok

failures:

---- money::tests::rejects_negative_amounts stdout ----

thread 'money::tests::rejects_negative_amounts' panicked at crates/lumen-core/src/money.rs:412:9:
assertion `left == right` failed
  left: 3
 right: 4
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace


failures:
    money::tests::rejects_negative_amounts

test result: FAILED. 2 passed; 1 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.41s

error: test failed, to rerun pass `-p lumen-core --lib`
     Running crates/lumen-core/tests/soak.rs (target/debug/deps/soak-0a1b2c3d4e5f6789)

running 1 test
test soak_ten_thousand_jobs has been running for over 60 seconds
test soak_ten_thousand_jobs ... ok

test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 75.20s

   Doc-tests lumen_core

running 2 tests
test src/money.rs - money::Money::parse (line 58) ... ok
test src/lib.rs - (line 12) - compile fail ... ok

test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 1.02s

error: 1 target failed:
    `-p lumen-core --lib`
";

#[test]
fn cargo_runs_keep_binaries_panics_and_failed_targets() {
    let run = cargo_run(CARGO);
    assert_eq!(run.build_time, "1m 38s");
    assert_eq!(run.compiled, vec!["lumen-core v0.4.1".to_owned()]);
    assert_eq!(run.binaries.len(), 3);
    let lib = &run.binaries[0];
    assert_eq!(lib.source, "crates/lumen-core/src/lib.rs");
    assert_eq!(lib.deps, "target/debug/deps/lumen_core-5f3c2a9e81b4d7c0");
    assert_eq!((lib.passed, lib.failed, lib.ignored), (2, 1, 1));
    assert_eq!(lib.tests[1].panicked_at, "crates/lumen-core/src/money.rs:412:9");
    assert_eq!(lib.tests[2].reason, "needs DATABASE_URL");
    assert_eq!(run.binaries[1].slow, vec!["soak_ten_thousand_jobs".to_owned()]);
    assert_eq!(run.binaries[1].seconds, "75.20s");
    assert!(run.binaries[2].doc);
    assert_eq!(run.binaries[2].tests[1].name, "src/lib.rs - (line 12) - compile fail");
    assert_eq!(run.failed_targets, vec!["-p lumen-core --lib".to_owned()]);
    let qs = text_questions("cargo_test_workspace", CARGO).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Count { labels: vec!["failed".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["passed".into()], value: "5".into() }), "{c:?}");
    let longest = Check::Extreme { id: "target/debug/deps/soak-0a1b2c3d4e5f6789".into(), max: true };
    assert!(c.contains(&&longest), "{c:?}");
    let panic = Check::Together(vec![
        "money::tests::rejects_negative_amounts".into(),
        "crates/lumen-core/src/money.rs:412:9".into(),
    ]);
    assert!(c.contains(&&panic), "{c:?}");
    // `rounds_half_cent_values` is part of a longer name: it is not looked up.
    let prefix = "money::tests::rounds_half_cent_values";
    assert!(qs.iter().filter(|q| q.kind == Kind::Lookup).all(|q| q.needle.as_deref() != Some(prefix)));
    assert!(c.contains(&&Check::Together(vec!["Doc-tests lumen_core".into()])), "{c:?}");
}

const DOMAINS: &str = "Domain: 'pg-01'
  state.state=1
  state.reason=1
  cpu.time=4838438089117245
  balloon.current=67108864
  balloon.maximum=67108864
  balloon.unused=3271557
  vcpu.current=8
  vcpu.maximum=8
  vcpu.0.state=1
  vcpu.0.time=463377257814180
  vcpu.0.wait=0
  vcpu.0.delay=386792368793
  vcpu.1.state=1
  vcpu.1.time=326244987983100
  vcpu.1.wait=0
  vcpu.1.delay=94866236691
  net.count=1
  net.0.name=vnet50
  net.0.rx.bytes=373230643790
  block.count=1
  block.0.name=vda
  block.0.path=/var/lib/libvirt/images/pg-01.qcow2
  block.0.wr.bytes=204775927628

Domain: 'win2022-build-01'
  state.state=3
  state.reason=5
  cpu.time=1948326829932308
  balloon.current=33554432
  balloon.maximum=33554432
  balloon.rss=33100000
  vcpu.current=8
  vcpu.maximum=8
  vcpu.0.state=1
  vcpu.0.time=163377257814180
  vcpu.0.wait=0
  vcpu.0.delay=986792368793
  net.count=1
  net.0.name=vnet12
  net.0.rx.bytes=973230643790
  block.count=2
  block.0.name=vda
  block.0.path=/var/lib/libvirt/images/win2022-build-01.qcow2
  block.0.wr.bytes=104775927628
  block.1.name=sda

Domain: 'dev-hsato'
  state.state=5
  state.reason=1
  balloon.current=4194304
  balloon.maximum=4194304
  vcpu.current=2
  vcpu.maximum=2
  block.count=1
  block.0.name=vda
  block.0.path=/var/lib/libvirt/images/dev-hsato.qcow2

";

#[test]
fn domain_stats_keep_each_block_and_sum_numbered_keys() {
    let all = domain_stats(DOMAINS);
    assert_eq!(all.len(), 3);
    assert_eq!(all[0].name, "pg-01");
    assert_eq!(all[0].sum("vcpu.", ".delay"), 386_792_368_793 + 94_866_236_691);
    assert_eq!(all[1].get("block.1.name"), "sda");
    assert_eq!(all[1].get("block.1.path"), "");
    assert_eq!(all[2].get("cpu.time"), "");
    let qs = text_questions("virsh_domstats", DOMAINS).unwrap_or_default();
    let c = checks(&qs);
    let paused = Check::Count { labels: vec!["paused".into(), "state.state=3".into()], value: "1".into() };
    assert!(c.contains(&&paused), "{c:?}");
    let vcpus = Check::Count { labels: vec!["vCPUs".into(), "vcpu.current".into()], value: "8".into() };
    assert!(c.contains(&&vcpus), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "win2022-build-01".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "pg-01".into(), max: true }), "{c:?}");
    let no_stats = Check::Count { labels: vec!["domains".into(), "balloon".into()], value: "1".into() };
    assert!(c.contains(&&no_stats), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["dev-hsato".into(), "vcpu.current=2".into()])), "{c:?}");
}
