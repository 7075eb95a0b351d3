//! Readers of the fourteenth part's text results: the mysql client's process list read
//! into a record per connection, `zfs list -t snapshot` into a record per snapshot with
//! its sizes in bytes, `strace -f` into a record per line with its process, time, call,
//! return and duration, and `tcpdump -nn -tttt` into a record per packet with its
//! addresses, flags, length and DNS question.

use serde_json::{Value, json};

/// The rows of a `SHOW FULL PROCESSLIST` table: every cell by its column's name, the
/// client's address without its port, and the whole line.
pub(crate) fn processlist(ls: &[&str]) -> Vec<Value> {
    ls.iter()
        .filter_map(|l| {
            let inner = l.strip_prefix("| ")?.strip_suffix(" |")?;
            let c: Vec<&str> = inner.split(" | ").map(str::trim).collect();
            if c.len() != 8 || c[0] == "Id" {
                return None;
            }
            let ip = c[2].split(':').next().unwrap_or(c[2]);
            Some(json!({
                "Id": c[0], "User": c[1], "Host": c[2], "ip": ip, "db": c[3], "Command": c[4],
                "Time": c[5].parse::<u64>().unwrap_or(0), "State": c[6], "Info": c[7], "line": l.trim(),
            }))
        })
        .collect()
}

/// A size as `zfs list` prints it (`0B`, `96K`, `1.21G`), in bytes.
pub(crate) fn zfs_bytes(s: &str) -> Option<f64> {
    let (num, unit) = s.split_at(s.find(|c: char| c.is_ascii_alphabetic())?);
    let power = ["B", "K", "M", "G", "T", "P"].iter().position(|u| *u == unit)?;
    Some(num.parse::<f64>().ok()? * 1024f64.powi(power as i32))
}

/// The snapshots of `zfs list -t snapshot`: name, dataset, the sanoid kind (`hourly`,
/// `daily`, `monthly`), USED and REFER as printed and in bytes.
pub(crate) fn snapshots(ls: &[&str]) -> Vec<Value> {
    ls.iter()
        .filter_map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let [name, used, _, refer, _] = w.as_slice() else { return None };
            let (dataset, snap) = name.split_once('@')?;
            Some(json!({
                "name": name, "dataset": dataset, "kind": snap.rsplit('_').next().unwrap_or(""),
                "used": used, "refer": refer,
                "used_bytes": zfs_bytes(used)?, "refer_bytes": zfs_bytes(refer)?,
            }))
        })
        .collect()
}

/// The lines of `strace -f -tt -T`: the process (from the `[pid N]` prefix, or `master`'s
/// when there is none), the time, the text after it, the call's name, its return (from
/// `= ` on) and its duration in seconds; strace's own lines (`strace: Process N attached`,
/// `+++ exited with 0 +++`) have no call.
pub(crate) fn strace_lines(ls: &[&str]) -> Vec<Value> {
    let attached: Vec<&str> =
        ls.iter().filter_map(|l| l.strip_prefix("strace: Process ")?.strip_suffix(" attached")).collect();
    let prefixed = |l: &str| -> Option<(String, String)> {
        let rest = l.strip_prefix("[pid ")?;
        let (pid, rest) = rest.split_once("] ")?;
        Some((pid.trim().to_owned(), rest.to_owned()))
    };
    // The process strace started: the first prefixed one it did not attach to later.
    let master = ls
        .iter()
        .filter_map(|l| prefixed(l).map(|p| p.0))
        .find(|p| !attached.contains(&p.as_str()))
        .unwrap_or_default();
    ls.iter()
        .map(|l| {
            let (pid, rest) = prefixed(l).unwrap_or_else(|| (master.clone(), (*l).to_owned()));
            let timed = rest.len() > 16 && rest.as_bytes()[2] == b':' && rest.as_bytes()[8] == b'.';
            let (time, text) =
                if timed { (rest[..15].to_owned(), rest[16..].to_owned()) } else { (String::new(), rest) };
            let name = if timed && !text.starts_with("---") {
                text.trim_start_matches("<... ").split(['(', ' ']).next().unwrap_or("").to_owned()
            } else {
                String::new()
            };
            let ret = text.rfind(" = ").map(|i| text[i + 3..].split(" <").next().unwrap_or("").to_owned());
            let dur = text.strip_suffix('>').and_then(|t| t.rsplit_once(" <")).and_then(|(_, d)| d.parse::<f64>().ok());
            json!({"pid": pid, "time": time, "text": text, "name": name, "ret": ret, "dur": dur, "line": l})
        })
        .collect()
}

/// An address as tcpdump prints it with `-nn`: the host, and the port when there is one
/// (`10.20.4.17.8000` gives `10.20.4.17` and `8000`).
fn endpoint(s: &str) -> (String, String) {
    let parts: Vec<&str> = s.split('.').collect();
    if parts.len() == 5 { (parts[..4].join("."), parts[4].to_owned()) } else { (s.to_owned(), String::new()) }
}

/// The packets of `tcpdump -nn -tttt`: time, the text after it, source and destination
/// host and port, TCP flags and length, and for DNS the query's id, type and name or the
/// answer's id, counts and first address.
pub(crate) fn packets(ls: &[&str]) -> Vec<Value> {
    ls.iter()
        .filter_map(|l| {
            let b = l.as_bytes();
            if l.len() < 28 || b[4] != b'-' || b[13] != b':' {
                return None;
            }
            let (time, text) = (&l[..26], &l[27..]);
            let mut p = json!({"time": time, "text": text});
            if let Some(rest) = text.strip_prefix("IP ") {
                let (addrs, payload) = rest.split_once(": ").unwrap_or((rest, ""));
                let (src, dst) = addrs.split_once(" > ").unwrap_or((addrs, ""));
                let ((sh, sp), (dh, dp)) = (endpoint(src), endpoint(dst));
                p["src"] = json!(sh);
                p["sport"] = json!(sp);
                p["dst"] = json!(dh);
                p["dport"] = json!(dp);
                if let Some(f) = payload.strip_prefix("Flags [") {
                    p["flags"] = json!(f.split(']').next().unwrap_or(""));
                    let len = payload.rsplit_once("length ").and_then(|(_, n)| n.parse::<u64>().ok());
                    p["length"] = json!(len);
                } else if sp == "53" || dp == "53" {
                    let mut w = payload.split(' ');
                    let id = w.next().unwrap_or("");
                    if let Some(id) = id.strip_suffix('+') {
                        p["dns_id"] = json!(id);
                        p["qtype"] = json!(w.next().unwrap_or("").trim_end_matches('?'));
                        p["qname"] = json!(w.next().unwrap_or(""));
                    } else {
                        p["dns_id"] = json!(id);
                        p["counts"] = json!(w.next().unwrap_or(""));
                        let first_a = payload.split(", ").flat_map(|x| x.split(' ')).collect::<Vec<_>>();
                        let a = first_a.windows(2).find(|w| w[0] == "A").map(|w| w[1].trim_end_matches(','));
                        p["answer"] = json!(a);
                    }
                }
            }
            Some(p)
        })
        .collect()
}
