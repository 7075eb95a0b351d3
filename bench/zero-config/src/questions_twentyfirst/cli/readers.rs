//! Readers of the cli half's text results, each making records of the lines a tool
//! printed: `tsc` diagnostics and its summary table, `kubectl get pods -o wide` rows cut
//! at the columns its header marks, the product cards (and filters, pagination) of a
//! Playwright ARIA snapshot, and ripgrep's `path:line:text` matches.

use serde_json::{Value, json};

/// The diagnostics of `tsc --pretty false`: per `file(line,col): error TSxxxx: message`
/// line its file, position, the location as printed (`src/a.ts(4,17)`), the code
/// (`TS2345`) and the first line of the message. Indented elaborations are not records.
pub(crate) fn tsc_errors(ls: &[&str]) -> Vec<Value> {
    ls.iter()
        .filter_map(|l| {
            let (location, rest) = l.split_once("): error ")?;
            let (file, position) = location.rsplit_once('(')?;
            let (line, col) = position.split_once(',')?;
            let (code, message) = rest.split_once(": ")?;
            Some(json!({
                "file": file, "line": line.parse::<u64>().ok()?, "col": col.parse::<u64>().ok()?,
                "location": format!("{location})"), "code": code, "message": message
            }))
        })
        .collect()
}

/// The rows of the table under `Errors  Files`: each file, its error count and where its
/// first error is (`src/a.ts:4`).
pub(crate) fn tsc_table(ls: &[&str]) -> Vec<Value> {
    let Some(h) = ls.iter().position(|l| l.trim_start() == "Errors  Files") else { return Vec::new() };
    ls[h + 1..]
        .iter()
        .map_while(|l| {
            let (count, first) = l.trim_start().split_once("  ")?;
            let count: u64 = count.parse().ok()?;
            let (file, _) = first.rsplit_once(':')?;
            Some(json!({"file": file, "count": count, "first": first}))
        })
        .collect()
}

/// The rows of a table whose header names its columns and whose cells start where their
/// header's name does (kubectl's tab writer pads every cell to its column), so a cell
/// may hold a space (`3 (2d4h ago)`) and a header a space too (`NOMINATED NODE`).
pub(crate) fn columns(ls: &[&str], names: &[&str]) -> Vec<Value> {
    let Some(h) = ls.iter().position(|l| l.starts_with(names.first().copied().unwrap_or_default())) else {
        return Vec::new();
    };
    let header = ls[h];
    let mut starts = Vec::new();
    let mut from = 0;
    for n in names {
        let Some(at) = header[from..].find(n) else { return Vec::new() };
        starts.push(from + at);
        from += at + n.len();
    }
    ls[h + 1..]
        .iter()
        .filter(|l| l.len() > starts.last().copied().unwrap_or(0))
        .map(|l| {
            let cells = names.iter().enumerate().map(|(i, n)| {
                let end = starts.get(i + 1).copied().unwrap_or(l.len());
                let cell = l.get(starts[i]..end.min(l.len())).unwrap_or_default().trim();
                ((*n).to_owned(), json!(cell))
            });
            Value::Object(cells.collect())
        })
        .collect()
}

/// The pods of `kubectl get pods -A -o wide`, each with its restart count as a number.
pub(crate) fn pods(ls: &[&str]) -> Vec<Value> {
    let names =
        ["NAMESPACE", "NAME", "READY", "STATUS", "RESTARTS", "AGE", "IP", "NODE", "NOMINATED NODE", "READINESS GATES"];
    columns(ls, &names)
        .into_iter()
        .map(|mut p| {
            let restarts = p["RESTARTS"].as_str().and_then(|r| r.split(' ').next()?.parse::<u64>().ok());
            p["restarts"] = json!(restarts);
            p
        })
        .collect()
}

/// A kubectl age (`45d`, `3h12m`, `4m12s`, `2d4h`) in seconds.
pub(crate) fn age_seconds(age: &str) -> Option<u64> {
    let mut total = 0;
    let mut digits = String::new();
    for c in age.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        let n: u64 = digits.parse().ok()?;
        digits.clear();
        total += n * match c {
            's' => 1,
            'm' => 60,
            'h' => 3600,
            'd' => 86_400,
            'y' => 365 * 86_400,
            _ => return None,
        };
    }
    digits.is_empty().then_some(total)
}

/// One line of an ARIA snapshot: how deep it is, its role (or `text`, `/url`), its
/// quoted name, and what follows the colon.
pub(crate) struct Node<'a> {
    pub(crate) depth: usize,
    pub(crate) role: &'a str,
    pub(crate) name: Option<String>,
    pub(crate) value: Option<String>,
}

/// A YAML scalar as written: quoted ones unquoted.
fn unquote(s: &str) -> String {
    let s = s.trim();
    match s.strip_prefix('"').and_then(|x| x.strip_suffix('"')) {
        Some(inner) => inner.replace("\\\"", "\""),
        None => s.to_owned(),
    }
}

/// The nodes of the snapshot's YAML block, in order.
pub(crate) fn aria_nodes<'a>(ls: &[&'a str]) -> Vec<Node<'a>> {
    ls.iter()
        .filter_map(|l| {
            let body = l.trim_start();
            let depth = (l.len() - body.len()) / 2;
            let item = body.strip_prefix("- ")?;
            let role_end = item.find([' ', ':']).unwrap_or(item.len());
            let role = &item[..role_end];
            let rest = &item[role_end..];
            let name = rest.strip_prefix(" \"").and_then(|r| {
                // The name ends at the first quote not escaped.
                let bytes = r.as_bytes();
                let end = (0..bytes.len()).find(|&i| bytes[i] == b'"' && (i == 0 || bytes[i - 1] != b'\\'))?;
                Some(r[..end].replace("\\\"", "\""))
            });
            // A value follows the last `]: ` (after the attributes) or, bare, the role's colon.
            let value = match rest.rfind("]: ") {
                Some(i) => Some(unquote(&rest[i + 3..])),
                None => rest.strip_prefix(": ").map(unquote),
            };
            Some(Node { depth, role, name, value })
        })
        .collect()
}

/// The product cards of the list named `Products`: per card its name (the heading),
/// brand, link, price and regular price when on sale, star rating, review count (as
/// shown and as a number), badge and whether it is sold out.
pub(crate) fn products(ls: &[&str]) -> Vec<Value> {
    let nodes = aria_nodes(ls);
    let Some(at) = nodes.iter().position(|n| n.role == "list" && n.name.as_deref() == Some("Products")) else {
        return Vec::new();
    };
    let depth = nodes[at].depth;
    let inside: Vec<&Node> = nodes[at + 1..].iter().take_while(|n| n.depth > depth).collect();
    let mut cards: Vec<Vec<&Node>> = Vec::new();
    for n in inside {
        if n.depth == depth + 1 {
            cards.push(Vec::new());
        } else if let Some(card) = cards.last_mut() {
            card.push(n);
        }
    }
    cards
        .iter()
        .filter_map(|card| {
            let name = card.iter().find(|n| n.role == "heading")?.name.clone()?;
            let value_of = |role: &str| card.iter().find(|n| n.role == role).and_then(|n| n.value.clone());
            let reviews = card
                .iter()
                .filter_map(|n| n.value.as_deref())
                .find(|v| v.ends_with(" reviews") || v.ends_with(" review"))
                .map(str::to_owned);
            let rating = card
                .iter()
                .filter(|n| n.role == "img")
                .filter_map(|n| n.name.clone())
                .find(|s| s.ends_with(" out of 5 stars"));
            // A badge is a text directly in the card, above its details.
            let badge = card.iter().find(|n| n.depth == depth + 2 && n.role == "generic").and_then(|n| n.value.clone());
            let count = reviews.as_deref().and_then(|r| r.split(' ').next()?.replace(',', "").parse::<u64>().ok());
            let price = value_of("text").filter(|t| t.starts_with('$'));
            Some(json!({
                "name": name, "brand": value_of("paragraph"), "url": value_of("/url"),
                "price": price, "price_cents": price.as_deref().and_then(cents),
                "regular": value_of("deletion"), "rating": rating, "reviews": reviews, "review_count": count,
                "badge": badge,
                "sold_out": card.iter().any(|n| n.role == "button" && n.name.as_deref() == Some("Sold out")),
            }))
        })
        .collect()
}

/// `$1,234.50` in cents.
pub(crate) fn cents(price: &str) -> Option<u64> {
    let (dollars, cents) = price.strip_prefix('$')?.split_once('.')?;
    Some(dollars.replace(',', "").parse::<u64>().ok()? * 100 + cents.parse::<u64>().ok()?)
}

/// The checkboxes of the filter group `group`: each label (`Kestrel (202)`), the option
/// and its count.
pub(crate) fn filter_options(ls: &[&str], group: &str) -> Vec<(String, String, u64)> {
    let nodes = aria_nodes(ls);
    let Some(at) = nodes.iter().position(|n| n.role == "group" && n.name.as_deref() == Some(group)) else {
        return Vec::new();
    };
    let depth = nodes[at].depth;
    nodes[at + 1..]
        .iter()
        .take_while(|n| n.depth > depth)
        .filter(|n| n.role == "checkbox")
        .filter_map(|n| {
            let label = n.name.clone()?;
            let (option, count) = label.strip_suffix(')')?.rsplit_once(" (")?;
            Some((label.clone(), option.to_owned(), count.parse().ok()?))
        })
        .collect()
}

/// The page links of the pagination (`Page 1`, `Page 2`, …), in order.
pub(crate) fn page_links(ls: &[&str]) -> Vec<String> {
    let nodes = aria_nodes(ls);
    let Some(at) = nodes.iter().position(|n| n.role == "navigation" && n.name.as_deref() == Some("Pagination")) else {
        return Vec::new();
    };
    let depth = nodes[at].depth;
    nodes[at + 1..]
        .iter()
        .take_while(|n| n.depth > depth)
        .filter(|n| n.role == "link")
        .filter_map(|n| n.name.clone().filter(|s| s.starts_with("Page ")))
        .collect()
}

/// The matches of `rg -n` without a terminal: per `path:line:text` line the path, the
/// line number, `path:line` as printed, the text without its indentation, the file's
/// extension, its directory, the markers it holds, the owner named in
/// `TODO(owner)` and the GitHub issues (`#1234`) it cites.
pub(crate) fn matches(ls: &[&str]) -> Vec<Value> {
    ls.iter()
        .filter_map(|l| {
            let mut parts = l.splitn(3, ':');
            let (path, line, text) = (parts.next()?, parts.next()?, parts.next()?);
            let line: u64 = line.parse().ok()?;
            let text = text.trim_start();
            let file = path.rsplit('/').next().unwrap_or(path);
            let extension = file.rsplit_once('.').map(|(_, e)| format!(".{e}"));
            let directory = path.rsplit_once('/').map(|(d, _)| d.to_owned());
            let markers: Vec<&str> =
                ["TODO", "FIXME", "HACK", "XXX"].into_iter().filter(|m| text.contains(m)).collect();
            let owner = owner_of(text, "TODO");
            let any_owner = ["TODO", "FIXME", "HACK", "XXX"].iter().find_map(|m| owner_of(text, m));
            Some(json!({
                "path": path, "line": line, "at": format!("{path}:{line}"), "text": text,
                "extension": extension, "directory": directory, "markers": markers,
                "owner": owner, "any_owner": any_owner, "issues": issues(text),
            }))
        })
        .collect()
}

/// Who `marker(owner)` in `text` names, without a leading `@`.
pub(crate) fn owner_of(text: &str, marker: &str) -> Option<String> {
    let open = format!("{marker}(");
    let start = text.find(&open)? + open.len();
    let end = start + text[start..].find(')')?;
    let who = text[start..end].trim_start_matches('@');
    let plain = !who.is_empty() && who.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    plain.then(|| who.to_owned())
}

/// The GitHub issue references (`#1234`) of `text`.
pub(crate) fn issues(text: &str) -> Vec<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    for (i, _) in text.match_indices('#') {
        let digits: String = text[i + 1..].chars().take_while(char::is_ascii_digit).collect();
        let after = bytes.get(i + 1 + digits.len()).copied();
        let before = i.checked_sub(1).map(|j| bytes[j]);
        let standalone =
            before.is_none_or(|b| !b.is_ascii_alphanumeric()) && after.is_none_or(|b| !b.is_ascii_alphanumeric());
        if digits.len() >= 3 && standalone {
            out.push(format!("#{digits}"));
        }
    }
    out
}
