//! Tests of the cli half's questions: the readers of cargo's JSON lines, `lspci -vvv`,
//! `ls -lR` and `last -F` and the question builders on small hand-made outputs, and every
//! shape of the half at several seeds (nine questions of every kind, every answer in the
//! raw result, head answers near the start and tail answers near the end).

use toolshape_fixtures::apis::Split;

use super::readers::{last_logins, ls_sections, lspci_devices, minutes, region_bytes};
use super::*;
use crate::half_checks::check_half;
use crate::question::Check;
use crate::questions::tests::checks;

/// This half's shapes.
const SHAPES: [&str; 4] = ["cargo_clippy_json", "lspci_vvv", "ls_lR", "last_F"];

/// The seeds each shape's questions are checked at.
const SEEDS: [u64; 3] = [1, 2, 5];

#[test]
fn every_shape_of_the_half_asks_nine_questions_of_every_kind_answered_from_the_raw_result() {
    check_half(&SHAPES, Split::TwentyNinth, &SEEDS);
}

const CLIPPY: &str = r#"{"reason":"compiler-artifact","package_id":"registry+https://github.com/rust-lang/crates.io-index#serde@1.0.217","target":{"name":"serde"},"fresh":true}
{"reason":"compiler-message","package_id":"path+file:///w/crates/core#app-core@0.1.0","message":{"rendered":"warning: redundant clone","$message_type":"diagnostic","children":[{"children":[],"code":null,"level":"help","message":"remove this","rendered":null,"spans":[{"suggested_replacement":""}]}],"code":{"code":"clippy::redundant_clone","explanation":null},"level":"warning","message":"redundant clone","spans":[{"file_name":"crates/core/src/a.rs","line_start":4,"column_start":9}]}}
{"reason":"compiler-message","package_id":"path+file:///w/crates/core#app-core@0.1.0","message":{"rendered":"warning: redundant clone","$message_type":"diagnostic","children":[],"code":{"code":"clippy::redundant_clone","explanation":null},"level":"warning","message":"redundant clone","spans":[{"file_name":"crates/core/src/a.rs","line_start":9,"column_start":5}]}}
{"reason":"compiler-message","package_id":"path+file:///w/crates/api#app-api@0.1.0","message":{"rendered":"error[E0308]: mismatched types","$message_type":"diagnostic","children":[],"code":{"code":"E0308","explanation":"x"},"level":"error","message":"mismatched types","spans":[{"file_name":"crates/api/src/b.rs","line_start":12,"column_start":3}]}}
{"reason":"compiler-message","package_id":"path+file:///w/crates/api#app-api@0.1.0","message":{"rendered":"warning: 1 warning emitted","$message_type":"diagnostic","children":[],"code":null,"level":"warning","message":"1 warning emitted","spans":[]}}
{"reason":"build-finished","success":false}
"#;

#[test]
fn clippy_diagnostics_are_counted_by_crate_lint_and_level() {
    let qs = text_questions("cargo_clippy_json", CLIPPY).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Count { labels: vec!["errors".into(), "error".into()], value: "1".into() }), "{c:?}");
    assert!(
        c.contains(&&Check::Count { labels: vec!["warnings".into(), "warning".into()], value: "2".into() }),
        "{c:?}"
    );
    assert!(c.contains(&&Check::Extreme { id: "crates/core/src/a.rs".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["build-finished".into(), "false".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["clippy::redundant_clone".into(), "crates/core/src/a.rs:9:5".into()])));
}

const LSPCI: &str = "0000:17:00.0 Non-Volatile memory controller [0108]: Samsung Electronics Co Ltd NVMe SSD Controller PM173X [144d:a824] (prog-if 02 [NVM Express])
\tSubsystem: Samsung Electronics Co Ltd Device [144d:a801]
\tNUMA node: 0
\tIOMMU group: 41
\tRegion 0: Memory at a5e10000 (64-bit, non-prefetchable) [size=32K]
\tCapabilities: [70] Express (v2) Endpoint, MSI 00
\t\tLnkCap:\tPort #0, Speed 16GT/s, Width x4, ASPM L1, Exit Latency L1 <64us
\t\tLnkSta:\tSpeed 8GT/s (downgraded), Width x4 (ok)
\tKernel driver in use: nvme
\tKernel modules: nvme

0000:98:00.0 3D controller [0302]: NVIDIA Corporation GA100 [A100 PCIe 80GB] [10de:20b5] (rev a1)
\tNUMA node: 1
\tIOMMU group: 7
\tRegion 0: Memory at 9e000000 (32-bit, non-prefetchable) [size=16M]
\tRegion 1: Memory at 203000000000 (64-bit, prefetchable) [size=128G]
\tCapabilities: [160 v1] Single Root I/O Virtualization (SR-IOV)
\t\tRegion 0: Memory at 0000204000000000 (64-bit, prefetchable)
\tKernel driver in use: nvidia
";

#[test]
fn lspci_blocks_are_read_with_their_links_regions_and_drivers() {
    assert_eq!(region_bytes("128G"), Some(128 << 30));
    assert_eq!(region_bytes("32K"), Some(32 << 10));
    let all = lspci_devices(LSPCI);
    assert_eq!(all.len(), 2);
    assert_eq!(all[0].sta, Some(("8GT/s".into(), "x4".into())));
    assert_eq!(all[0].cap, Some(("16GT/s".into(), "x4".into())));
    assert_eq!(all[1].largest, Some((128 << 30, "128G".into())));
    assert_eq!(all[1].name, "NVIDIA Corporation GA100 [A100 PCIe 80GB] [10de:20b5] (rev a1)");
    let qs = text_questions("lspci_vvv", LSPCI).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Extreme { id: "0000:98:00.0".into(), max: true }), "{c:?}");
    let slower = Check::Count { labels: vec!["downgraded".into(), "below".into()], value: "1".into() };
    assert!(c.contains(&&slower), "{c:?}");
}

const LS: &str = ".:
total 8
lrwxrwxrwx 1 deploy www-data   23 2026-11-01 17:46 current -> releases/20261102174640
drwxr-xr-x 2 root   root     4096 2026-11-03 17:46 backups

./backups:
total 12
-rw-r--r-- 1 root root 7344 2026-10-29 13:57 db-2026-10-29.sql.gz
-rw-r--r-- 1 root root 3253 2026-10-30 14:09 db 2026-10-30.sql.gz
";

#[test]
fn ls_sections_keep_names_with_spaces_and_link_targets() {
    let s = ls_sections(LS);
    assert_eq!(s.len(), 2);
    assert_eq!(s[0].entries[0].target, "releases/20261102174640");
    assert_eq!(s[1].entries[1].name, "db 2026-10-30.sql.gz");
    assert_eq!(s[1].entries[0].time, "2026-10-29 13:57");
    let qs = text_questions("ls_lR", LS).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Extreme { id: "db-2026-10-29.sql.gz".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["root".into()], value: "3".into() }), "{c:?}");
}

const LAST: &str = "alice    pts/3        10.20.4.17       Tue Nov 24 09:12:44 2026   still logged in
s.nakamura pts/0        10.20.4.26       Mon Nov 23 18:51:01 2026 - Mon Nov 23 19:37:03 2026  (00:46)
runlevel (to lvl 3)   5.14.0-427.42.1.el9_4.x86_64 Mon Nov 23 03:12:09 2026 - Tue Nov 24 18:00:00 2026 (1+14:47)
reboot   system boot  5.14.0-427.42.1.el9_4.x86_64 Mon Nov 23 03:11:58 2026   still running
bob      pts/2        10.20.4.17       Sun Nov  1 01:02:03 2026 - down                      (1+02:08)

wtmp begins Sun Nov  1 00:02:11 2026
";

#[test]
fn last_lines_are_read_with_pseudo_users_and_padded_days() {
    assert_eq!(minutes("(1+02:13)"), Some(1440 + 133));
    assert_eq!(minutes(" (08:27)"), Some(507));
    let all = last_logins(LAST);
    assert_eq!(all.len(), 5);
    assert_eq!(all[0].end, "still logged in");
    assert_eq!(all[2].tty, "(to lvl 3)");
    assert_eq!(all[4].start, "Sun Nov  1 01:02:03 2026");
    assert_eq!(all[4].end, "down");
    let qs = text_questions("last_F", LAST).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Extreme { id: "bob".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "10.20.4.17".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["reboot".into(), "reboots".into()], value: "1".into() }), "{c:?}");
}
