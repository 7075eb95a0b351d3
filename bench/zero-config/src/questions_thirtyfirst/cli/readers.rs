//! Readers of the cli half's text results, each making records of what a tool printed,
//! values kept as they are written so an answer reads as it does in the output: the link
//! blocks of `ip -s -s link`, the records and footer of `dig AXFR`, the test binaries and
//! test lines of `cargo test`, and the domain blocks of `virsh domstats`. Also the one
//! helper the question files share: the item near a place in a list that a test allows.

use crate::question::{Kind, Question};
use crate::questions_blind::{at, together};

/// The first item from `f` (0..1) of the way down `items` (wrapping round) that `ok`
/// allows.
pub(crate) fn pick_at<T>(items: &[T], f: f64, ok: impl Fn(&T) -> bool) -> Option<&T> {
    let start = at(items.len(), f);
    (start..items.len()).chain(0..start).map(|i| &items[i]).find(|x| ok(x))
}

/// A lookup question named by `needle` and answered by it and `answer` together; none
/// when any of them is empty.
pub(crate) fn ask(text: String, needle: &str, answer: &[impl AsRef<str>]) -> Option<Question> {
    let mut must = vec![needle];
    must.extend(answer.iter().map(AsRef::as_ref));
    if must.iter().any(|s| s.is_empty()) {
        return None;
    }
    Some(together(Kind::Lookup, text, Some(needle), &must))
}

/// One link of `ip -s -s link`: its header fields and its counters.
#[derive(Debug, Clone, Default)]
pub(crate) struct IpLink {
    /// The ifindex as printed (`14`).
    pub(crate) index: String,
    /// The name as printed, with any `@peer` (`cali3f9a2b1c4de@if4`, `bond0.120@bond0`).
    pub(crate) full: String,
    /// The name alone (`cali3f9a2b1c4de`).
    pub(crate) name: String,
    /// The `mtu`, `qdisc`, `master`, `state`… words of the header, in pairs.
    pub(crate) attrs: Vec<(String, String)>,
    /// `link-netns` of a veth, `permaddr` of a bond port…: the pairs after the address.
    pub(crate) link: Vec<(String, String)>,
    /// Counters by table and column: `rx.bytes`, `rx_errors.crc`, `tx_errors.transns`.
    pub(crate) counters: Vec<(String, String)>,
    pub(crate) altnames: Vec<String>,
}

impl IpLink {
    pub(crate) fn attr(&self, key: &str) -> String {
        self.attrs.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone()).unwrap_or_default()
    }

    pub(crate) fn link_attr(&self, key: &str) -> String {
        self.link.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone()).unwrap_or_default()
    }

    /// A counter as written (`rx.bytes`), empty when the link has no such column.
    pub(crate) fn get(&self, key: &str) -> String {
        self.counters.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone()).unwrap_or_default()
    }

    pub(crate) fn num(&self, key: &str) -> u64 {
        self.get(key).parse().unwrap_or(0)
    }
}

/// The table a `RX:`, `RX errors:`, `TX:` or `TX errors:` line opens, and its words.
fn table_header(line: &str) -> Option<(&'static str, Vec<&str>)> {
    let t = line.trim_start();
    for (label, key) in [("RX errors:", "rx_errors"), ("TX errors:", "tx_errors"), ("RX:", "rx"), ("TX:", "tx")] {
        if let Some(rest) = t.strip_prefix(label) {
            return Some((key, rest.split_whitespace().collect()));
        }
    }
    None
}

/// Every link of `ip -s -s link`, in order.
pub(crate) fn ip_links(t: &str) -> Vec<IpLink> {
    let mut all: Vec<IpLink> = Vec::new();
    let mut pending: Option<(&str, Vec<String>)> = None;
    for line in t.lines() {
        if !line.starts_with(' ') {
            // `14: cali…@if4: <FLAGS> mtu 8950 qdisc noqueue state UP …`
            let Some((index, rest)) = line.split_once(": ") else { continue };
            let Some((full, rest)) = rest.split_once(": <") else { continue };
            let Some((_flags, rest)) = rest.split_once("> ") else { continue };
            let words: Vec<&str> = rest.split_whitespace().collect();
            let attrs = words.chunks(2).filter(|p| p.len() == 2).map(|p| (p[0].to_owned(), p[1].to_owned())).collect();
            all.push(IpLink {
                index: index.to_owned(),
                full: full.to_owned(),
                name: full.split('@').next().unwrap_or(full).to_owned(),
                attrs,
                ..IpLink::default()
            });
            pending = None;
            continue;
        }
        let Some(link) = all.last_mut() else { continue };
        if let Some((table, words)) = pending.take() {
            for (w, v) in words.iter().zip(line.split_whitespace()) {
                link.counters.push((format!("{table}.{w}"), v.to_owned()));
            }
        } else if let Some((table, words)) = table_header(line) {
            pending = Some((table, words.into_iter().map(str::to_owned).collect()));
        } else if let Some(name) = line.trim_start().strip_prefix("altname ") {
            link.altnames.push(name.to_owned());
        } else if line.trim_start().starts_with("link/") {
            // `link/ether MAC brd ff:… [link-netns NAME] [permaddr MAC]`: pairs after the address.
            let words: Vec<&str> = line.split_whitespace().collect();
            link.link = words.chunks(2).filter(|p| p.len() == 2).map(|p| (p[0].to_owned(), p[1].to_owned())).collect();
        }
    }
    all
}

/// One record of a zone transfer, its fields as dig wrote them.
#[derive(Debug, Clone)]
pub(crate) struct ZoneRecord {
    pub(crate) owner: String,
    pub(crate) ttl: String,
    pub(crate) kind: String,
    pub(crate) data: String,
}

/// Every record of `dig AXFR` in order (the SOA first and last), and the `;;` footer's
/// fields (`Query time`, `SERVER`, `WHEN`, `XFR size`) with their values.
pub(crate) fn zone_records(t: &str) -> (Vec<ZoneRecord>, Vec<(String, String)>) {
    let mut records = Vec::new();
    let mut footer = Vec::new();
    for line in t.lines() {
        if let Some(rest) = line.strip_prefix(";; ") {
            if let Some((k, v)) = rest.split_once(": ") {
                footer.push((k.to_owned(), v.to_owned()));
            }
            continue;
        }
        if line.starts_with(';') || line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').filter(|f| !f.is_empty()).collect();
        if fields.len() < 5 {
            continue;
        }
        records.push(ZoneRecord {
            owner: fields[0].to_owned(),
            ttl: fields[1].to_owned(),
            kind: fields[3].to_owned(),
            data: fields[4..].join("\t"),
        });
    }
    (records, footer)
}

/// One `test … ...` line of libtest.
#[derive(Debug, Clone)]
pub(crate) struct TestLine {
    pub(crate) name: String,
    /// `ok`, `FAILED` or `ignored`.
    pub(crate) status: String,
    /// The reason after `ignored, `, if one was given.
    pub(crate) reason: String,
    /// Where it panicked (`crates/…/file.rs:412:9`), for a failure.
    pub(crate) panicked_at: String,
}

/// One test binary of `cargo test`, or a crate's doc-tests.
#[derive(Debug, Clone, Default)]
pub(crate) struct TestBinary {
    /// `crates/x/src/lib.rs`, `crates/x/tests/soak.rs`; the crate for doc-tests.
    pub(crate) source: String,
    /// `target/debug/deps/x-<hash>`; empty for doc-tests.
    pub(crate) deps: String,
    pub(crate) doc: bool,
    /// The `running N tests` line.
    pub(crate) running: String,
    pub(crate) tests: Vec<TestLine>,
    /// Tests announced as running for over 60 seconds.
    pub(crate) slow: Vec<String>,
    pub(crate) passed: usize,
    pub(crate) failed: usize,
    pub(crate) ignored: usize,
    /// `2.41s` of `finished in 2.41s`.
    pub(crate) seconds: String,
}

/// What `cargo test` printed: the `Compiling` crates, the `Finished` line's time, every
/// binary in order and the targets of the closing `error: N targets failed:`.
#[derive(Debug, Clone, Default)]
pub(crate) struct CargoRun {
    pub(crate) compiled: Vec<String>,
    pub(crate) build_time: String,
    pub(crate) binaries: Vec<TestBinary>,
    pub(crate) failed_targets: Vec<String>,
}

/// The count before `word` in a `test result:` line (`232` of `232 passed`).
fn count_of(line: &str, word: &str) -> usize {
    line.split("; ")
        .find_map(|part| part.rsplit_once(' ').filter(|(_, w)| *w == word).and_then(|(n, _)| n.rsplit(' ').next()))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

/// Everything `cargo test` printed, read back.
pub(crate) fn cargo_run(t: &str) -> CargoRun {
    let mut run = CargoRun::default();
    let mut failing = String::new();
    let mut in_targets = false;
    for line in t.lines() {
        if let Some(rest) = line.trim_start().strip_prefix("Compiling ") {
            run.compiled.push(rest.split(" (").next().unwrap_or(rest).to_owned());
        } else if line.trim_start().starts_with("Finished `test` profile") {
            run.build_time = line.rsplit(" in ").next().unwrap_or_default().to_owned();
        } else if let Some(rest) = line.trim_start().strip_prefix("Running ") {
            let rest = rest.strip_prefix("unittests ").unwrap_or(rest);
            let (source, deps) = rest.split_once(" (").unwrap_or((rest, ""));
            let deps = deps.trim_end_matches(')');
            run.binaries.push(TestBinary { source: source.into(), deps: deps.into(), ..TestBinary::default() });
        } else if let Some(krate) = line.trim_start().strip_prefix("Doc-tests ") {
            run.binaries.push(TestBinary { source: krate.into(), doc: true, ..TestBinary::default() });
        } else if let Some(b) = run.binaries.last_mut() {
            if line.starts_with("running ") {
                b.running = line.to_owned();
            } else if let Some(rest) = line.strip_prefix("test result: ") {
                b.passed = count_of(rest, "passed");
                b.failed = count_of(rest, "failed");
                b.ignored = count_of(rest, "ignored");
                b.seconds = rest.rsplit("finished in ").next().unwrap_or_default().to_owned();
            } else if let Some(name) =
                line.strip_prefix("test ").and_then(|l| l.strip_suffix(" has been running for over 60 seconds"))
            {
                b.slow.push(name.to_owned());
            } else if let Some((name, status)) = line.strip_prefix("test ").and_then(|l| l.rsplit_once(" ... ")) {
                let (status, reason) = status.split_once(", ").unwrap_or((status, ""));
                b.tests.push(TestLine {
                    name: name.into(),
                    status: status.into(),
                    reason: reason.into(),
                    panicked_at: String::new(),
                });
            } else if let Some(name) = line.strip_prefix("---- ").and_then(|l| l.strip_suffix(" stdout ----")) {
                failing = name.to_owned();
            } else if let Some(rest) = line.strip_prefix("thread '") {
                // `thread 'name' panicked at file:line:col:` (a doc-test's thread is `main`).
                let at = rest.split_once("' panicked at ").map(|(_, at)| at.trim_end_matches(':')).unwrap_or_default();
                if let Some(test) = b.tests.iter_mut().find(|x| x.name == failing) {
                    test.panicked_at = at.to_owned();
                }
            }
        }
        if line.starts_with("error: ") && line.ends_with(" failed:") {
            in_targets = true;
        } else if in_targets && let Some(target) = line.trim().strip_prefix('`').and_then(|l| l.strip_suffix('`')) {
            run.failed_targets.push(target.to_owned());
        }
    }
    run
}

/// One domain block of `virsh domstats`: its name and its `key=value` lines.
#[derive(Debug, Clone, Default)]
pub(crate) struct DomainStats {
    pub(crate) name: String,
    pub(crate) stats: Vec<(String, String)>,
}

impl DomainStats {
    /// A statistic as written, empty when the domain has none.
    pub(crate) fn get(&self, key: &str) -> String {
        self.stats.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone()).unwrap_or_default()
    }

    pub(crate) fn num(&self, key: &str) -> u64 {
        self.get(key).parse().unwrap_or(0)
    }

    /// The sum of every statistic named `prefix<N>suffix` (`vcpu.` and `.delay`).
    pub(crate) fn sum(&self, prefix: &str, suffix: &str) -> u64 {
        self.stats
            .iter()
            .filter(|(k, _)| {
                k.strip_prefix(prefix)
                    .and_then(|r| r.strip_suffix(suffix))
                    .is_some_and(|n| n.chars().all(|c| c.is_ascii_digit()))
            })
            .map(|(_, v)| v.parse::<u64>().unwrap_or(0))
            .sum()
    }
}

/// Every domain of `virsh domstats`, in order.
pub(crate) fn domain_stats(t: &str) -> Vec<DomainStats> {
    let mut all: Vec<DomainStats> = Vec::new();
    for line in t.lines() {
        if let Some(name) = line.strip_prefix("Domain: ") {
            all.push(DomainStats { name: name.trim_matches('\'').to_owned(), stats: Vec::new() });
        } else if let (Some(d), Some((k, v))) = (all.last_mut(), line.trim_start().split_once('=')) {
            d.stats.push((k.to_owned(), v.to_owned()));
        }
    }
    all
}
