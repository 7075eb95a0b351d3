//! Readers of the thirteenth part's text results: `dmesg -T` read into a record per line
//! with its time and message, `git blame` into a record per source line, `cargo build`
//! into its compiled crates, its diagnostics with their locations and its per-crate
//! counts, and `certbot certificates` into a record per certificate.

use regex::Regex;
use serde_json::{Value, json};

/// The lines of `dmesg -T`: the time between the brackets and the message after them.
pub(crate) fn dmesg_lines(ls: &[&str]) -> Vec<Value> {
    ls.iter()
        .filter_map(|l| {
            let (time, msg) = l.strip_prefix('[')?.split_once("] ")?;
            Some(json!({"time": time, "msg": msg}))
        })
        .collect()
}

/// The value of `key=` in a firewall log message (`SRC=1.2.3.4` gives `1.2.3.4`).
pub(crate) fn field<'a>(msg: &'a str, key: &str) -> Option<&'a str> {
    msg.split(' ').find_map(|w| w.strip_prefix(key)?.strip_prefix('='))
}

/// The lines of `git blame`: the commit as printed (`^` and seven digits for a boundary),
/// the commit without its `^`, the path, the author, the date and time, the zone, the line
/// number and the code.
pub(crate) fn blame_rows(ls: &[&str]) -> Vec<Value> {
    let Ok(re) = Regex::new(
        r"^(\^?[0-9a-f]{7,40}) (?:(\S+) +)?\((.+?) +(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d) ([+-]\d{4}) +(\d+)\) ?(.*)$",
    ) else {
        return Vec::new();
    };
    ls.iter()
        .filter_map(|l| {
            let c = re.captures(l)?;
            let g = |i: usize| c.get(i).map_or("", |m| m.as_str());
            Some(json!({
                "commit": g(1),
                "sha": g(1).trim_start_matches('^'),
                "path": g(2),
                "author": g(3),
                "date": g(4),
                "when": format!("{} {}", g(4), g(5)),
                "zone": g(6),
                "line": g(7),
                "code": g(8),
            }))
        })
        .collect()
}

/// What `cargo build` printed: the crates it compiled (name and version), the
/// diagnostics (level, message, location, file and the workspace crate the file is in)
/// and each crate's count of warnings (crate, target, count and the whole line).
pub(crate) struct Build {
    pub(crate) compiled: Vec<Value>,
    pub(crate) diagnostics: Vec<Value>,
    pub(crate) counts: Vec<Value>,
}

pub(crate) fn cargo_output(ls: &[&str]) -> Build {
    let mut b = Build { compiled: Vec::new(), diagnostics: Vec::new(), counts: Vec::new() };
    for (i, l) in ls.iter().enumerate() {
        if let Some(rest) = l.trim_start().strip_prefix("Compiling ") {
            let mut words = rest.split(' ');
            let (name, version) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
            b.compiled.push(json!({"name": name, "version": version, "line": l.trim()}));
            continue;
        }
        let Some((level, message)) = l.split_once(": ") else { continue };
        if level != "warning" && !level.starts_with("error") {
            continue;
        }
        // A crate's count: warning: `name` (lib) generated 12 warnings (run …)
        if let Some((head, n)) = message.split_once(" generated ")
            && let Some((name, target)) = head.strip_prefix('`').and_then(|h| h.split_once("` ("))
        {
            let n = n.split(' ').next().unwrap_or("");
            let line = l.split(" (run ").next().unwrap_or(l);
            b.counts.push(json!({"crate": name, "target": target.trim_end_matches(')'), "count": n, "line": line}));
            continue;
        }
        let Some(at) = ls.get(i + 1).and_then(|n| n.trim_start().strip_prefix("--> ")) else { continue };
        let file = at.split(':').next().unwrap_or("");
        let krate = file.strip_prefix("crates/").and_then(|f| f.split('/').next()).unwrap_or("");
        b.diagnostics.push(json!({"level": level, "message": message, "at": at, "file": file, "crate": krate}));
    }
    b
}

/// The certificates of `certbot certificates`: name, serial, key type, domains (and how
/// many), expiry date, what certbot says of it (`VALID: 12 days`, `INVALID: EXPIRED`) and
/// the paths; and, apart, the renewal configurations it found invalid.
pub(crate) fn certificates(ls: &[&str]) -> (Vec<Value>, Vec<String>) {
    let mut certs: Vec<Value> = Vec::new();
    let mut invalid = Vec::new();
    let mut in_invalid = false;
    for l in ls {
        let t = l.trim();
        if t.starts_with("The following renewal configurations were invalid") {
            in_invalid = true;
            continue;
        }
        if in_invalid && t.starts_with('/') {
            invalid.push(t.to_owned());
            continue;
        }
        let Some((key, v)) = t.split_once(": ") else { continue };
        if key == "Certificate Name" {
            certs.push(json!({"name": v}));
            continue;
        }
        let Some(c) = certs.last_mut() else { continue };
        match key {
            "Serial Number" => c["serial"] = json!(v),
            "Key Type" => c["key"] = json!(v),
            "Domains" => {
                c["domains"] = json!(v);
                c["domain_count"] = json!(v.split(' ').count());
            }
            "Expiry Date" => {
                let (when, status) = v.split_once(" (").unwrap_or((v, ""));
                c["expiry"] = json!(when);
                c["status"] = json!(status.trim_end_matches(')'));
            }
            "Certificate Path" => c["cert_path"] = json!(v),
            "Private Key Path" => c["key_path"] = json!(v),
            _ => {}
        }
    }
    (certs, invalid)
}
