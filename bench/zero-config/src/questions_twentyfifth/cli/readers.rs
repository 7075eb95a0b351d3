//! Readers of the cli half's text results, each making records of what a tool printed,
//! values kept as they are written so an answer reads as it does in the output: the pools,
//! config rows and damaged files of `zpool status -v`, the tables, chains, rules and set
//! elements of `nft list ruleset`, and the commits of `git log --graph`.

use serde_json::{Map, Value, json};

/// What `zpool status -v` lists: one record per pool, per config row, per damaged file.
pub(crate) struct Zpool {
    /// `pool`, `state`, `scan` (its first line), `errors` (the `errors:` line), `disks`.
    pub(crate) pools: Vec<Value>,
    /// `pool`, `section` (`data`, `logs`, `cache`, `spares`), `kind` (`pool`, `vdev`,
    /// `leaf`, or `holder` for `replacing-N`/`spare-N`), `name`, `state`, `read`,
    /// `write`, `cksum` (as written: `2.48K`), `note`, and the `vdev` a leaf sits in.
    pub(crate) rows: Vec<Value>,
    /// `pool` and `file`.
    pub(crate) files: Vec<Value>,
}

/// A count as zpool writes it, read back (`2.48K` is 2,539).
pub(crate) fn zpool_count(s: &str) -> Option<f64> {
    let (digits, unit) = match s.chars().last()? {
        'K' => (&s[..s.len() - 1], 1024.0),
        'M' => (&s[..s.len() - 1], 1_048_576.0),
        _ => (s, 1.0),
    };
    digits.parse::<f64>().ok().map(|n| n * unit)
}

/// Reads `zpool status -v`.
pub(crate) fn zpool_status(t: &str) -> Zpool {
    let mut z = Zpool { pools: Vec::new(), rows: Vec::new(), files: Vec::new() };
    let (mut pool, mut section, mut vdev) = (String::new(), "data", String::new());
    let (mut in_config, mut in_files) = (false, false);
    for line in t.lines() {
        if let Some(name) = line.strip_prefix("  pool: ") {
            pool = name.to_owned();
            z.pools.push(json!({"pool": name, "disks": 0}));
            (in_config, in_files, section) = (false, false, "data");
            continue;
        }
        let Some(current) = z.pools.last_mut() else { continue };
        if let Some(state) = line.strip_prefix(" state: ") {
            current["state"] = json!(state);
        } else if let Some(scan) = line.strip_prefix("  scan: ") {
            current["scan"] = json!(scan);
        } else if line == "config:" {
            in_config = true;
        } else if let Some(errors) = line.strip_prefix("errors: ") {
            current["errors"] = json!(errors);
            in_config = false;
            in_files = errors.starts_with("Permanent errors");
        } else if in_files && line.starts_with("        ") {
            z.files.push(json!({"pool": pool, "file": line.trim()}));
        } else if in_config && line.starts_with('\t') {
            let body = &line[1..];
            let depth = body.len() - body.trim_start().len();
            let words: Vec<&str> = body.split_whitespace().collect();
            match words.as_slice() {
                ["NAME", ..] => {}
                [title] if depth == 0 => {
                    section = if *title == "logs" || *title == "cache" || *title == "spares" { title } else { "data" }
                }
                [name, state, rest @ ..] => {
                    let kind = match depth {
                        0 => "pool",
                        2 if section == "data" || section == "logs" => "vdev",
                        4 if name.starts_with("replacing-") || name.starts_with("spare-") => "holder",
                        _ => "leaf",
                    };
                    if kind == "vdev" {
                        vdev = (*name).to_owned();
                    }
                    let mut row = Map::new();
                    for (k, v) in [
                        ("pool", pool.as_str()),
                        ("section", section),
                        ("kind", kind),
                        ("name", name),
                        ("state", state),
                    ] {
                        row.insert(k.into(), json!(v));
                    }
                    let counted = rest.len() >= 3 && rest[..3].iter().all(|c| zpool_count(c).is_some());
                    if counted {
                        row.insert("read".into(), json!(rest[0]));
                        row.insert("write".into(), json!(rest[1]));
                        row.insert("cksum".into(), json!(rest[2]));
                    }
                    let note = if counted { &rest[3..] } else { rest };
                    if !note.is_empty() {
                        row.insert("note".into(), json!(note.join(" ")));
                    }
                    if kind == "leaf" && section == "data" {
                        row.insert("vdev".into(), json!(vdev));
                        current["disks"] = json!(current["disks"].as_u64().unwrap_or(0) + 1);
                    }
                    z.rows.push(Value::Object(row));
                }
                _ => {}
            }
        }
    }
    z
}

/// What `nft list ruleset` lists.
pub(crate) struct Ruleset {
    /// `table` (`inet filter`).
    pub(crate) tables: Vec<String>,
    /// `table`, `chain`, `rules` (how many), and for a base chain `type`, `hook`
    /// (`hook input`), `priority` (`priority filter - 10`) and `policy` (`policy drop`).
    pub(crate) chains: Vec<Value>,
    /// `table`, `chain`, `rule` (the line), and when counted `packets` (`packets 12`),
    /// `bytes`, `hits` (the number); `comment`, and `verdict` (the words between the
    /// counter and the comment, for a counted rule).
    pub(crate) rules: Vec<Value>,
    /// `table`, `set` (its name), `keyword` (`set` or `map`), `type`, `elements` (all).
    pub(crate) sets: Vec<Value>,
}

/// The part of `s` between `from` and the next `;`.
fn clause(s: &str, from: &str) -> Option<String> {
    let start = s.find(from)?;
    Some(s[start..].split(';').next()?.trim().to_owned())
}

fn nft_rule(table: &str, chain: &str, line: &str) -> Value {
    let mut rule = Map::new();
    rule.insert("table".into(), json!(table));
    rule.insert("chain".into(), json!(chain));
    rule.insert("rule".into(), json!(line));
    let (body, comment) = match line.split_once(" comment \"") {
        Some((b, c)) => (b, Some(c.trim_end_matches('"'))),
        None => (line, None),
    };
    if let Some(c) = comment {
        rule.insert("comment".into(), json!(c));
    }
    if let Some((_, counted)) = body.split_once("counter packets ") {
        let mut words = counted.split_whitespace();
        let packets = words.next().unwrap_or_default();
        let bytes = words.nth(1).unwrap_or_default();
        rule.insert("packets".into(), json!(format!("packets {packets}")));
        rule.insert("hits".into(), json!(packets.parse::<u64>().unwrap_or(0)));
        rule.insert("bytes".into(), json!(format!("bytes {bytes}")));
        rule.insert("byte_count".into(), json!(bytes.parse::<u64>().unwrap_or(0)));
        let verdict: Vec<&str> = words.collect();
        if !verdict.is_empty() {
            rule.insert("verdict".into(), json!(verdict.join(" ")));
        }
    }
    Value::Object(rule)
}

/// Reads `nft list ruleset`.
pub(crate) fn nft_ruleset(t: &str) -> Ruleset {
    let mut rs = Ruleset { tables: Vec::new(), chains: Vec::new(), rules: Vec::new(), sets: Vec::new() };
    let mut table = String::new();
    let mut in_chain = false;
    let mut in_elements = false;
    for line in t.lines() {
        if let Some(name) = line.strip_prefix("table ") {
            table = name.trim_end_matches(" {").to_owned();
            rs.tables.push(table.clone());
            continue;
        }
        if let Some(head) = line.strip_prefix('\t').filter(|l| !l.starts_with('\t')) {
            in_chain = false;
            if let Some(name) = head.strip_prefix("chain ") {
                in_chain = true;
                rs.chains.push(json!({"table": table, "chain": name.trim_end_matches(" {"), "rules": 0}));
            } else if let Some((keyword, name)) = head.split_once(' ').filter(|(k, _)| *k == "set" || *k == "map") {
                let name = name.trim_end_matches(" {");
                rs.sets.push(json!({"table": table, "set": name, "keyword": keyword, "elements": []}));
            }
            continue;
        }
        let inner = line.trim();
        if inner.is_empty() || !line.starts_with("\t\t") {
            continue;
        }
        if in_chain {
            let Some(chain) = rs.chains.last_mut() else { continue };
            if inner.starts_with("type ") && inner.contains(" hook ") {
                chain["type"] = json!(inner.split_whitespace().nth(1));
                chain["hook"] =
                    json!(clause(inner, "hook ").and_then(|h| h.split(" priority").next().map(str::to_owned)));
                chain["priority"] = json!(clause(inner, "priority "));
                chain["policy"] = json!(clause(inner, "policy "));
            } else {
                let name = chain["chain"].as_str().unwrap_or_default().to_owned();
                chain["rules"] = json!(chain["rules"].as_u64().unwrap_or(0) + 1);
                rs.rules.push(nft_rule(&table, &name, inner));
            }
            continue;
        }
        let Some(set) = rs.sets.last_mut() else { continue };
        if let Some(ty) = inner.strip_prefix("type ") {
            set["type"] = json!(ty);
        }
        let listed = if let Some(first) = inner.strip_prefix("elements = { ") {
            first
        } else if in_elements {
            inner
        } else {
            continue;
        };
        let closed = listed.ends_with(" }");
        if let Some(elements) = set["elements"].as_array_mut() {
            let listed = listed.trim_end_matches(" }");
            elements.extend(listed.split(", ").map(|e| json!(e.trim_end_matches(','))).filter(|e| e != ""));
        }
        in_elements = !closed;
    }
    rs
}

/// The commits of `git log --graph --format='%h %ad %an%d %s'` with `--date=iso`: `hash`,
/// `date` (`2025-03-10 14:22:31 +0100`), `day`, `month`, `author`, `refs`, `subject`,
/// `merge` (drawn `*   `), and for a commit on a merged branch (`| * `) the `merged_by`
/// hash of the merge above it. The contributors' names are two words, a bot's one
/// (`dependabot[bot]`), which is how the author is told from the subject.
pub(crate) fn git_commits(t: &str) -> Vec<Value> {
    let mut commits = Vec::new();
    let mut last_merge = String::new();
    for line in t.lines() {
        let Some(star) = line.find('*') else { continue };
        let graph_end = line[star..].find(|c: char| c.is_ascii_hexdigit()).map_or(line.len(), |i| star + i);
        let words: Vec<&str> = line[graph_end..].splitn(5, ' ').collect();
        let [hash, day, time, zone, rest] = words.as_slice() else { continue };
        let author_words = if rest.split(' ').next().is_some_and(|w| w.ends_with("[bot]")) { 1 } else { 2 };
        let mut parts = rest.splitn(author_words + 1, ' ');
        let author = parts.by_ref().take(author_words).collect::<Vec<&str>>().join(" ");
        let after = parts.next().unwrap_or_default();
        // `%d` is ` (refs)` after the name, or nothing.
        let (refs, subject) = match after.strip_prefix('(').and_then(|d| d.split_once(") ")) {
            Some((r, s)) => (Some(r), s),
            None => (None, after),
        };
        let column = star / 2;
        let merge = line[star..graph_end].starts_with("*   ");
        let mut c = json!({
            "hash": hash, "date": format!("{day} {time} {zone}"), "day": day, "month": &day[..7.min(day.len())],
            "author": author, "subject": subject, "merge": merge, "column": column,
        });
        if let Some(r) = refs {
            c["refs"] = json!(r);
        }
        if merge {
            last_merge = (*hash).to_owned();
        } else if column == 1 {
            c["merged_by"] = json!(last_merge);
        }
        commits.push(c);
    }
    commits
}
