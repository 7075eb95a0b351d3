//! Tests of the cli half's questions: the readers of `zpool status -v`, `nft list
//! ruleset` and `git log --graph`, and the question builders, on small hand-made outputs;
//! and every shape of the half at several seeds (nine questions of every kind, every
//! answer in the raw result, head answers near the start and tail answers near the end).

use serde_json::json;
use toolshape_fixtures::apis::Split;

use super::readers::{git_commits, nft_ruleset, zpool_count, zpool_status};
use super::*;
use crate::half_checks::check_half;
use crate::question::Check;

/// This half's shapes.
const SHAPES: [&str; 4] = ["zpool_status_v", "nft_list_ruleset", "git_log_graph", "ansible_inventory_list"];

/// The seeds each shape's questions are checked at.
const SEEDS: [u64; 3] = [1, 2, 5];

#[test]
fn every_shape_of_the_half_asks_nine_questions_of_every_kind_answered_from_the_raw_result() {
    check_half(&SHAPES, Split::TwentyFifth, &SEEDS);
}

/// The check of the question whose text is `text`.
fn check_of(qs: &[Question], text: &str) -> Option<Check> {
    qs.iter().find(|q| q.text == text).map(|q| q.check.clone())
}

const ZPOOL: &str = "  pool: tank
 state: DEGRADED
status: One or more devices are faulted in response to persistent errors.
action: Replace the faulted device, or use 'zpool clear' to mark the device
\trepaired.
  scan: scrub repaired 0B in 05:12:33 with 0 errors on Sun Dec  7 05:36:34 2025
config:

\tNAME                STATE     READ WRITE CKSUM
\ttank                DEGRADED     0     0     0
\t  raidz2-0          DEGRADED     0     0     0
\t    ata-DISK_A      ONLINE       0     0    12
\t    ata-DISK_B      FAULTED     40 2.48K     0  too many errors
\t    ata-DISK_C      ONLINE       0     0     0
\tlogs
\t  mirror-1          ONLINE       0     0     0
\t    nvme-LOG_A      ONLINE       0     0     0
\tspares
\t  ata-DISK_S        AVAIL     

errors: Permanent errors have been detected in the following files:

        /tank/projects/a.bam
        <metadata>:<0x3f>
";

#[test]
fn zpool_rows_know_their_pool_section_and_vdev() {
    assert_eq!(zpool_count("2.48K"), Some(2.48 * 1024.0));
    assert_eq!(zpool_count("12"), Some(12.0));
    let z = zpool_status(ZPOOL);
    assert_eq!(z.pools.len(), 1);
    assert_eq!(z.pools[0]["disks"], 3);
    assert_eq!(z.rows.len(), 8);
    let b = &z.rows[3];
    assert_eq!(
        (b["name"].as_str(), b["vdev"].as_str(), b["write"].as_str()),
        (Some("ata-DISK_B"), Some("raidz2-0"), Some("2.48K"))
    );
    assert_eq!(b["note"], "too many errors");
    assert_eq!(z.rows[5]["kind"], "vdev");
    assert_eq!(z.rows[6]["section"], "logs");
    assert_eq!(z.rows[7]["state"], "AVAIL");
    assert_eq!(z.files.len(), 2);
    let qs: Vec<Question> = zpool::zpool_questions(ZPOOL).into_iter().flatten().collect();
    let faulted = check_of(&qs, "How many disks are FAULTED?");
    assert_eq!(faulted, Some(Check::Count { labels: vec!["FAULTED".into()], value: "1".into() }));
    let most = check_of(&qs, "Which disk has the most checksum (CKSUM) errors?");
    assert_eq!(most, Some(Check::Extreme { id: "ata-DISK_A".into(), max: true }));
    let writes = check_of(&qs, "Which disk has the most WRITE errors?");
    assert_eq!(writes, Some(Check::Extreme { id: "ata-DISK_B".into(), max: true }));
}

const NFT: &str = "table inet filter {
\tset allowed_ssh {
\t\ttype ipv4_addr
\t\tflags interval
\t\telements = { 10.0.0.0/8, 192.168.1.0/24,
\t\t\t     203.0.113.7 }
\t}

\tchain input {
\t\ttype filter hook input priority filter - 10; policy drop;
\t\tct state established,related counter packets 900 bytes 81000 accept comment \"return traffic\"
\t\ttcp dport 22 counter packets 77 bytes 4620 drop comment \"ssh from elsewhere\"
\t\tiifname \"lo\" accept
\t}
}
table ip nat {
\tchain prerouting {
\t\ttype nat hook prerouting priority dstnat; policy accept;
\t\tiifname \"wan0\" tcp dport 32400 counter packets 5 bytes 300 dnat to 192.168.10.5:32400 comment \"fwd plex\"
\t}
}
";

#[test]
fn nft_rules_carry_their_counters_verdicts_and_comments() {
    let rs = nft_ruleset(NFT);
    assert_eq!(rs.tables, vec!["inet filter".to_owned(), "ip nat".to_owned()]);
    assert_eq!(rs.sets[0]["elements"], json!(["10.0.0.0/8", "192.168.1.0/24", "203.0.113.7"]));
    assert_eq!(rs.chains[0]["priority"], "priority filter - 10");
    assert_eq!(rs.chains[0]["hook"], "hook input");
    assert_eq!(rs.chains[0]["policy"], "policy drop");
    assert_eq!(rs.chains[0]["rules"], 3);
    assert_eq!(rs.rules[1]["verdict"], "drop");
    assert_eq!(rs.rules[1]["packets"], "packets 77");
    assert_eq!(rs.rules[3]["verdict"], "dnat to 192.168.10.5:32400");
    assert!(rs.rules[2].get("packets").is_none());
    let qs: Vec<Question> = nft::nft_questions(NFT).into_iter().flatten().collect();
    let drops = check_of(&qs, "How many counted rules drop the packets they match?");
    assert_eq!(drops, Some(Check::Count { labels: vec!["drop".into()], value: "1".into() }));
    let most = check_of(&qs, "Which commented rule has counted the most packets?");
    assert_eq!(most, Some(Check::Extreme { id: "return traffic".into(), max: true }));
}

const GIT: &str = "*   3d27d42 2026-01-01 10:22:25 +0000 Daniel Okafor (HEAD -> main, origin/main) Merge pull request #12 from acme/fix/a
|\\  
| * 584afc2 2025-12-31 23:48:57 +0100 Jonas Lindqvist (origin/fix/a) fix(api): handle a
| * b35c31c 2025-12-31 18:53:36 +0100 Jonas Lindqvist Rename b
* | 48eba62 2025-12-31 04:28:17 +0100 dependabot[bot] build(deps): bump x from 1.0.0 to 1.1.0
|/  
* 92bed18 2025-12-30 09:00:00 +0100 Marta Kowalczyk (tag: v0.1.0) Initial commit
";

#[test]
fn git_commits_are_split_into_author_refs_and_subject() {
    let commits = git_commits(GIT);
    assert_eq!(commits.len(), 5);
    assert_eq!(commits[0]["merge"], true);
    assert_eq!(commits[0]["refs"], "HEAD -> main, origin/main");
    assert_eq!(commits[0]["subject"], "Merge pull request #12 from acme/fix/a");
    assert_eq!(commits[1]["author"], "Jonas Lindqvist");
    assert_eq!(commits[1]["merged_by"], "3d27d42");
    assert_eq!(commits[2]["subject"], "Rename b");
    assert_eq!(commits[3]["author"], "dependabot[bot]");
    assert!(commits[3].get("merged_by").is_none());
    assert_eq!(commits[3]["date"], "2025-12-31 04:28:17 +0100");
    assert_eq!(
        (commits[4]["refs"].as_str(), commits[4]["subject"].as_str()),
        (Some("tag: v0.1.0"), Some("Initial commit"))
    );
    let qs: Vec<Question> = gitlog::git_log_questions(GIT).into_iter().flatten().collect();
    let most = check_of(&qs, "Which merge commit brought in the most commits from its branch?");
    assert_eq!(most, Some(Check::Extreme { id: "3d27d42".into(), max: true }));
    let merges = check_of(&qs, "How many merge commits are there?");
    assert_eq!(merges, Some(Check::Count { labels: vec!["merge".into()], value: "1".into() }));
}

#[test]
fn ansible_groups_are_counted_and_the_largest_named() {
    let v = json!({
        "_meta": {"hostvars": {
            "a.example": {"ansible_host": "10.0.0.1", "datacenter": "fra1", "tags": ["maintenance"]},
            "b.example": {"ansible_host": "10.0.0.2", "datacenter": "fra1", "tags": []},
            "c.example": {"ansible_host": "10.0.0.3", "datacenter": "ams3", "tags": []}}},
        "all": {"children": ["ungrouped", "webservers", "postgres"]},
        "postgres": {"hosts": ["c.example"]},
        "webservers": {"hosts": ["a.example", "b.example"]},
    });
    let qs: Vec<Question> = ansible::ansible_questions(&v).into_iter().flatten().collect();
    let web = check_of(&qs, "How many hosts are in the group webservers?");
    assert_eq!(web, Some(Check::Count { labels: vec!["webservers".into()], value: "2".into() }));
    let largest = check_of(&qs, "Which group has the most hosts?");
    assert_eq!(largest, Some(Check::Extreme { id: "webservers".into(), max: true }));
    let maintenance = check_of(&qs, "How many hosts are tagged maintenance?");
    assert_eq!(maintenance, Some(Check::Count { labels: vec!["maintenance".into()], value: "1".into() }));
}
