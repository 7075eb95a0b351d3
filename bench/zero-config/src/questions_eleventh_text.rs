//! Readers of the eleventh part's text results: an nmap report read into a record per
//! host with its open ports, ESLint's stylish output into a record per problem with its
//! file, an ansible-playbook run into a record per host result with its task and a record
//! per recap line, and an `nginx -T` dump into its server blocks, locations and upstreams.

use serde_json::{Map, Value, json};

/// A record of named string cells.
fn cells(pairs: &[(&str, &str)]) -> Value {
    let map: Map<String, Value> = pairs.iter().map(|(k, v)| ((*k).to_owned(), Value::from(*v))).collect();
    Value::Object(map)
}

/// `s` without its first `n` whitespace-separated words.
fn after_words(s: &str, n: usize) -> &str {
    let mut rest = s.trim_start();
    for _ in 0..n {
        rest = rest.split_once(' ').map_or("", |(_, r)| r).trim_start();
    }
    rest
}

/// The hosts of an nmap report: address, name, latency, MAC vendor, whether every port
/// was closed or filtered (`all`), the services found and each open port with its
/// service and version.
pub(crate) fn nmap_hosts(ls: &[&str]) -> Vec<Value> {
    let mut hosts: Vec<Value> = Vec::new();
    for l in ls {
        if let Some(target) = l.strip_prefix("Nmap scan report for ") {
            let (name, ip) = match target.split_once(" (") {
                Some((n, ip)) => (n, ip.trim_end_matches(')')),
                None => ("", target),
            };
            let mut h = cells(&[("ip", ip), ("name", name), ("latency", ""), ("vendor", ""), ("closed", "")]);
            h["services"] = json!([]);
            h["ports"] = json!([]);
            hosts.push(h);
            continue;
        }
        let Some(h) = hosts.last_mut() else { continue };
        if let Some(rest) = l.strip_prefix("Host is up (") {
            h["latency"] = json!(rest.split("s latency").next().unwrap_or(""));
        } else if l.starts_with("All ") && l.contains("scanned ports on") {
            h["closed"] = json!("all");
        } else if let Some(rest) = l.strip_prefix("MAC Address: ") {
            let vendor = rest.split_once(" (").map_or("", |(_, v)| v.trim_end_matches(')'));
            h["vendor"] = json!(vendor);
        } else {
            let c: Vec<&str> = l.split_whitespace().collect();
            let is_port = c.first().is_some_and(|p| {
                p.split_once('/')
                    .is_some_and(|(n, proto)| n.parse::<u32>().is_ok() && (proto == "tcp" || proto == "udp"))
            });
            if !is_port || c.len() < 3 {
                continue;
            }
            let version = after_words(l, 3).trim();
            let port = cells(&[("port", c[0]), ("state", c[1]), ("service", c[2]), ("version", version)]);
            if let Some(ports) = h["ports"].as_array_mut() {
                ports.push(port);
            }
            if let Some(services) = h["services"].as_array_mut()
                && !services.iter().any(|s| s == c[2])
            {
                services.push(json!(c[2]));
            }
        }
    }
    hosts
}

/// The problems of ESLint's stylish output, each with its file, `line:column`, line,
/// severity, message and rule.
pub(crate) fn eslint_rows(ls: &[&str]) -> Vec<Value> {
    let mut file = "";
    let mut rows = Vec::new();
    for l in ls {
        if l.starts_with('/') {
            file = l.trim();
            continue;
        }
        let t = l.trim_start();
        let Some((pos, rest)) = t.split_once(' ') else { continue };
        let Some((line, column)) = pos.split_once(':') else { continue };
        if line.parse::<u32>().is_err() || column.parse::<u32>().is_err() {
            continue;
        }
        let rest = rest.trim_start();
        let Some((severity, rest)) = rest.split_once(' ') else { continue };
        let Some((message, rule)) = rest.trim().rsplit_once("  ") else { continue };
        rows.push(cells(&[
            ("file", file),
            ("position", pos),
            ("line", line),
            ("severity", severity),
            ("message", message.trim()),
            ("rule", rule.trim()),
        ]));
    }
    rows
}

/// An ansible-playbook run: a record per host result line (its task or handler, status,
/// host, loop item and, for a failure, the message) and a record per recap line (each
/// count as written, `changed=9`, and as a number, `changed_n`).
pub(crate) fn ansible_rows(ls: &[&str]) -> (Vec<Value>, Vec<Value>) {
    let mut task = "";
    let mut in_recap = false;
    let (mut results, mut recap) = (Vec::new(), Vec::new());
    for l in ls {
        if let Some(rest) = l.strip_prefix("TASK [").or_else(|| l.strip_prefix("RUNNING HANDLER [")) {
            task = rest.split("] ").next().unwrap_or("");
            continue;
        }
        if l.starts_with("PLAY RECAP") {
            in_recap = true;
            continue;
        }
        if in_recap {
            let Some((host, counts)) = l.split_once(" : ") else { continue };
            let mut row = json!({"host": host.trim()});
            for cell in counts.split_whitespace() {
                if let Some((k, n)) = cell.split_once('=') {
                    row[k] = json!(cell);
                    row[format!("{k}_n")] = json!(n);
                }
            }
            recap.push(row);
            continue;
        }
        let Some((status, rest)) = l.split_once(": [") else { continue };
        if !matches!(status, "ok" | "changed" | "skipping" | "fatal" | "failed") {
            continue;
        }
        let Some((host, rest)) = rest.split_once(']') else { continue };
        let item = rest.split("(item=").nth(1).map_or("", |i| i.trim_end_matches(')'));
        let msg = rest
            .split_once("=> ")
            .and_then(|(_, j)| serde_json::from_str::<Value>(j).ok())
            .and_then(|j| j["msg"].as_str().map(str::to_owned))
            .unwrap_or_default();
        results.push(cells(&[("task", task), ("status", status), ("host", host), ("item", item), ("msg", &msg)]));
    }
    (results, recap)
}

/// The blocks of an `nginx -T` dump: server blocks (file, first server name, listen
/// addresses, certificate, `301` for a redirect), locations (the site's first server
/// name, path and the upstream of its `proxy_pass`) and upstreams (name, method and
/// server addresses).
pub(crate) fn nginx_blocks(ls: &[&str]) -> (Vec<Value>, Vec<Value>, Vec<Value>) {
    let (mut servers, mut locations, mut upstreams) = (Vec::new(), Vec::new(), Vec::new());
    let mut file = "";
    let mut stack: Vec<String> = Vec::new();
    for l in ls {
        if let Some(f) = l.strip_prefix("# configuration file ") {
            file = f.trim_end_matches(':');
            stack.clear();
            continue;
        }
        let t = l.trim();
        if t.starts_with('#') {
            continue;
        }
        if let Some(head) = t.strip_suffix('{') {
            let head = head.trim();
            let word = head.split_whitespace().next().unwrap_or("");
            match word {
                "server" => {
                    servers.push(json!({"file": file, "server_name": "", "listen": "", "cert": "", "redirect": ""}))
                }
                "upstream" => upstreams.push(json!({"name": after_words(head, 1), "method": "", "servers": []})),
                "location" => {
                    let server =
                        servers.last().and_then(|s: &Value| s["server_name"].as_str()).unwrap_or("").to_owned();
                    locations.push(json!({"server": server, "path": after_words(head, 1), "upstream": ""}));
                }
                _ => {}
            }
            stack.push(word.to_owned());
            continue;
        }
        if t == "}" {
            stack.pop();
            continue;
        }
        let Some(directive) = t.strip_suffix(';') else { continue };
        let (name, args) = directive.split_once(' ').unwrap_or((directive, ""));
        match (stack.last().map(String::as_str), name) {
            (Some("server"), "server_name") => {
                if let Some(s) = servers.last_mut() {
                    s["server_name"] = json!(args.split_whitespace().next().unwrap_or(""));
                }
            }
            (Some("server"), "listen") => {
                if let Some(s) = servers.last_mut() {
                    let before = s["listen"].as_str().unwrap_or("").to_owned();
                    s["listen"] = json!(if before.is_empty() { args.to_owned() } else { format!("{before}, {args}") });
                }
            }
            (Some("server"), "ssl_certificate") => {
                if let Some(s) = servers.last_mut() {
                    s["cert"] = json!(args);
                }
            }
            (Some("server"), "return") if args.starts_with("301 ") => {
                if let Some(s) = servers.last_mut() {
                    s["redirect"] = json!("301");
                }
            }
            (Some("location"), "proxy_pass") => {
                if let Some(loc) = locations.last_mut() {
                    loc["upstream"] = json!(args.trim_start_matches("http://").trim_start_matches("https://"));
                }
            }
            (Some("upstream"), "server") => {
                if let Some(servers) = upstreams.last_mut().and_then(|u| u["servers"].as_array_mut()) {
                    servers.push(json!(args.split_whitespace().next().unwrap_or("")));
                }
            }
            (Some("upstream"), method) if args.is_empty() => {
                if let Some(u) = upstreams.last_mut() {
                    u["method"] = json!(method);
                }
            }
            _ => {}
        }
    }
    (servers, locations, upstreams)
}
