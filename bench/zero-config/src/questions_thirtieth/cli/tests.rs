//! Tests of the cli half's questions: the readers of `redis-cli INFO`, `vmstat -w -t`,
//! `systemctl list-timers` and `git status --porcelain=v2` and the question builders on
//! small hand-made outputs, and every shape of the half at several seeds (nine questions
//! of every kind, every answer in the raw result, head answers near the start and tail
//! answers near the end).

use toolshape_fixtures::apis::Split;

use super::readers::{git_status, info_lines, sortable, timer_rows, vmstat_samples};
use super::*;
use crate::half_checks::check_half;
use crate::question::Check;
use crate::questions::tests::checks;

/// This half's shapes.
const SHAPES: [&str; 4] =
    ["redis_cli_info_all", "vmstat_wide_t", "systemctl_list_timers_all", "git_status_porcelain_v2"];

/// The seeds each shape's questions are checked at.
const SEEDS: [u64; 3] = [1, 2, 5];

#[test]
fn every_shape_of_the_half_asks_nine_questions_of_every_kind_answered_from_the_raw_result() {
    check_half(&SHAPES, Split::Thirtieth, &SEEDS);
}

const INFO: &str = "# Server\r
redis_version:7.4.1\r
redis_mode:standalone\r
\r
# Memory\r
used_memory_human:23.41G\r
maxmemory_policy:allkeys-lru\r
\r
# Replication\r
role:master\r
slave0:ip=10.40.2.12,port=6379,state=online,offset=918273645512,lag=0\r
\r
# Commandstats\r
cmdstat_get:calls=900,usec=1000,usec_per_call=1.11,rejected_calls=0,failed_calls=4\r
cmdstat_client|list:calls=3,usec=7800,usec_per_call=2600.00,rejected_calls=0,failed_calls=0\r
cmdstat_flushall:calls=0,usec=0,usec_per_call=0.00,rejected_calls=2,failed_calls=0\r
\r
# Errorstats\r
errorstat_NOPERM:count=2\r
errorstat_WRONGTYPE:count=4\r
\r
# Latencystats\r
latency_percentiles_usec_get:p50=1.003,p99=3.007,p99.9=12.031\r
latency_percentiles_usec_client|list:p50=2588.671,p99=2621.439,p99.9=2621.439\r
\r
# Keyspace\r
db0:keys=1200,expires=300,avg_ttl=86400000,subexpiry=0\r
db3:keys=40,expires=0,avg_ttl=0,subexpiry=0\r
";

#[test]
fn info_lines_keep_their_sections_and_fields() {
    let all = info_lines(INFO);
    assert_eq!(all[0].key, "redis_version");
    assert_eq!(all[0].value, "7.4.1");
    let list = all.iter().find(|l| l.key == "cmdstat_client|list").map(|l| l.section.clone());
    assert_eq!(list.as_deref(), Some("Commandstats"));
    let p999 = all.iter().find(|l| l.key == "latency_percentiles_usec_get").and_then(|l| l.field("p99.9"));
    assert_eq!(p999, Some("12.031"));
    assert_eq!(redis::spoken("client|list"), "CLIENT LIST");
    let qs = text_questions("redis_cli_info_all", INFO).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Extreme { id: "cmdstat_get".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "cmdstat_client|list".into(), max: true }), "{c:?}");
    let failed = Check::Count { labels: vec!["failed_calls".into(), "commands".into()], value: "1".into() };
    assert!(c.contains(&&failed), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["keys".into()], value: "1240".into() }), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["db3".into(), "40".into(), "0".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["10.40.2.12".into(), "918273645512".into(), "0".into()])), "{c:?}");
}

const VMSTAT: &str = "--procs-- -----------------------memory---------------------- ---swap-- -----io---- -system-- ----------cpu---------- -----timestamp-----
   r    b         swpd         free         buff        cache   si   so    bi    bo   in   cs  us  sy  id  wa  st  gu                 UTC
   5    0            0      6752871      1748414    211238679    0    1  1889 16217 28386 69022  24   4  69   3   0   0 2026-12-07 05:19:03
  42    0            0      8616509      1641396    209415715    0    0  5210 26868 114842 283798  91   4   3   2   0   0 2026-12-07 05:19:08
   6   14       256070       233201      1644975    216061675  148 51214 441963 739419 63528 70878  10   9  33  48   0   0 2026-12-07 05:19:13
";

#[test]
fn vmstat_samples_read_through_overflowing_columns() {
    let all = vmstat_samples(VMSTAT);
    assert_eq!(all.len(), 3);
    assert_eq!(all[1].get("cs"), "283798");
    assert_eq!(all[2].get("so"), "51214");
    assert_eq!(all[2].stamp, "2026-12-07 05:19:13");
    let qs = text_questions("vmstat_wide_t", VMSTAT).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Extreme { id: "2026-12-07 05:19:13".into(), max: false }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "2026-12-07 05:19:08".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["samples".into(), "so".into()], value: "2".into() }), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["UTC".into()])), "{c:?}");
}

const TIMERS: &str = "NEXT                             LEFT LAST                               PASSED UNIT                         ACTIVATES
Mon 2026-12-07 06:25:00 UTC  4min 12s Mon 2026-12-07 06:20:00 UTC           47s ago certbot.timer                certbot.service
Mon 2026-12-07 07:00:00 UTC 39min 12s -                                            - report-digest@acme.timer     report-generator@acme.service
Tue 2026-12-08 00:00:00 UTC  17h      Mon 2026-12-07 00:00:05 UTC 6h ago            logrotate.timer              logrotate.service
-                                   - Sat 2026-12-05 18:45:28 UTC     1 day 11h ago cache-warm@globex.timer      cache-warm@globex.service

4 timers listed.
";

#[test]
fn timer_rows_split_their_relative_spans_from_their_times() {
    let rows = timer_rows(TIMERS);
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[0].left, "4min 12s");
    assert_eq!(rows[0].passed, "47s ago");
    assert_eq!(rows[1].last, "-");
    assert_eq!(rows[3].next, "-");
    assert_eq!(rows[3].last, "Sat 2026-12-05 18:45:28 UTC");
    assert_eq!(rows[3].passed, "1 day 11h ago");
    assert_eq!(sortable(&rows[2].next), "2026-12-08 00:00:00");
    let qs = text_questions("systemctl_list_timers_all", TIMERS).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Count { labels: vec!["timers".into()], value: "4".into() }), "{c:?}");
    let never = Check::Count { labels: vec!["never run".into(), "never".into()], value: "1".into() };
    assert!(c.contains(&&never), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "certbot.timer".into(), max: false }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "cache-warm@globex.timer".into(), max: false }), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["4 timers listed.".into()])), "{c:?}");
}

const GIT: &str = "# branch.oid 4e1c0a55d2b7f0c1e9a8b3d6f2c4a1e7b9d0c3f5
# branch.head feature/ledger-split
# branch.upstream origin/feature/ledger-split
# branch.ab +3 -7
1 .M N... 100644 100644 100644 f972944243d8bc702d28a71b425084743e3acb2a f972944243d8bc702d28a71b425084743e3acb2a Makefile
2 R. N... 100644 100644 100644 c1016a273a98015584f1905f060029d8efbc4b6c c1016a273a98015584f1905f060029d8efbc4b6c R100 libs/ledger/accounts/cache.go\tlibs/payments/accounts/cache.go
u UU N... 100644 100644 100644 100644 c3d9a358ec1584ea4da07f2c0d7634cf80b871fe a2afeb11a73ea3ab343361beea494dd5eebdc542 9297e8355165a1eec3e00605bbadb876e9ee39fa services/billing/go.sum
1 M. N... 100644 100644 100644 c0d337e777133c716e0b540c44d55b664584d256 400e73aa5d8860000390012c050f634d819cd52a services/billing/internal/store/my file.go
? scratch/notes.md
? scratch/rename-plan.txt
! .env.local
";

#[test]
fn git_entries_keep_renames_spaces_and_headers() {
    let (headers, entries) = git_status(GIT);
    assert_eq!(headers[3], ("branch.ab".to_owned(), "+3 -7".to_owned()));
    assert_eq!(entries.len(), 7);
    assert_eq!(entries[1].path, "libs/ledger/accounts/cache.go");
    assert_eq!(entries[1].orig, "libs/payments/accounts/cache.go");
    assert_eq!(entries[2].xy, "UU");
    assert_eq!(entries[3].path, "services/billing/internal/store/my file.go");
    assert_eq!(entries[3].index, "400e73aa5d8860000390012c050f634d819cd52a");
    let qs = text_questions("git_status_porcelain_v2", GIT).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Count { labels: vec!["untracked".into()], value: "2".into() }), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["+3".into(), "-7".into()])), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "services".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "scratch".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Together(vec![".env.local".into()])), "{c:?}");
}
