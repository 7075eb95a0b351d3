//! Text of one setting per line under dotted names: `sysctl -a` (`net.ipv4.tcp_rmem = 4096
//! 131072 6291456`), `git config --list`, a Java `.properties` file. Such a text is a tree
//! written flat, and the first read's map says how many keys there are and how many sit
//! under each branch (`vm 49`, `net.netfilter 62`), with the largest number under each
//! top branch, so "how many vm keys are there" is answered without reading every page.
//!
//! Recognised by layout alone: nine lines in ten are a name without spaces, `=` or `: `,
//! then a value; four names in five hold a dot; nine in ten names differ (settings, not a
//! log of `key=value` events). At most [`MAX_LINES`] lines are read.

use std::collections::HashMap;

use crate::line_fields::MAX_LINES;
use crate::numfmt::thousands;

/// Lines a text needs to be read this way.
const MIN_LINES: usize = 40;
/// Branches listed per depth, at most.
const TOP: usize = 12;
/// Depths of the tree listed (the first part of a name, the first two, …).
const DEPTHS: usize = 4;
/// A branch is listed when it holds at least this many settings.
const MIN_BRANCH: usize = 2;

/// One setting: its name and its value as written.
struct Setting<'t> {
    name: &'t str,
    value: &'t str,
}

/// The setting a line holds, when it is one.
fn setting(line: &str) -> Option<Setting<'_>> {
    let line = line.trim();
    let at = line.find(['=', ':'])?;
    let (name, rest) = (line[..at].trim_end(), &line[at + 1..]);
    // `key: value` needs its space; `key=value` and `key = value` do not.
    if line.as_bytes()[at] == b':' && !rest.starts_with(' ') {
        return None;
    }
    let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '/');
    (!name.is_empty() && name.chars().all(plain)).then(|| Setting { name, value: rest.trim() })
}

/// The largest number a branch's settings hold, as written (a float would round
/// `9223372036854775807`), and the setting holding it.
#[derive(Clone, Copy)]
struct Largest<'t> {
    number: f64,
    written: &'t str,
    holder: &'t str,
}

/// The map of a text of dotted settings in at most `room` characters, or `None` when the
/// text is not one (see the module's rules) or nothing fits.
pub(crate) fn dotted_keys(text: &str, room: usize) -> Option<String> {
    let mut lines = 0usize;
    let mut settings = Vec::new();
    for line in text.lines().take(MAX_LINES).filter(|l| !l.trim().is_empty()) {
        lines += 1;
        if let Some(s) = setting(line) {
            settings.push(s);
        }
    }
    if settings.len() < MIN_LINES || settings.len() * 10 < lines * 9 {
        return None;
    }
    let dotted = settings.iter().filter(|s| s.name.contains('.')).count();
    let distinct: std::collections::HashSet<&str> = settings.iter().map(|s| s.name).collect();
    if dotted * 5 < settings.len() * 4 || distinct.len() * 10 < settings.len() * 9 {
        return None;
    }
    let mut out = format!("{} keys (key = value lines)", thousands(settings.len() as u64));
    for depth in 1..=DEPTHS {
        let Some(clause) = branches(&settings, depth) else { break };
        if out.len() + clause.len() + 2 > room {
            break;
        }
        out.push_str("; ");
        out.push_str(&clause);
    }
    (out.len() <= room).then_some(out)
}

/// The branches `depth` parts deep that hold several settings, most first (the top ones
/// with their largest number): `by the first 2 parts, most first: net.ipv4 412, …`; `None`
/// when no name is that deep or no branch holds several.
fn branches(settings: &[Setting<'_>], depth: usize) -> Option<String> {
    let mut counts: HashMap<&str, (usize, Option<Largest<'_>>)> = HashMap::new();
    for s in settings {
        let Some(end) = s.name.match_indices('.').nth(depth - 1).map(|(i, _)| i) else { continue };
        let entry = counts.entry(&s.name[..end]).or_default();
        entry.0 += 1;
        if depth == 1
            && let Ok(n) = s.value.parse::<f64>()
            && entry.1.is_none_or(|l| n > l.number)
        {
            entry.1 = Some(Largest { number: n, written: s.value, holder: s.name });
        }
    }
    let mut listed: Vec<(&str, (usize, Option<Largest<'_>>))> =
        counts.into_iter().filter(|(_, (n, _))| *n >= MIN_BRANCH).collect();
    if listed.is_empty() {
        return None;
    }
    listed.sort_by(|a, b| b.1.0.cmp(&a.1.0).then(a.0.cmp(b.0)));
    let more = listed.len().saturating_sub(TOP);
    let entries: Vec<String> = listed
        .iter()
        .take(TOP)
        .map(|(name, (n, max))| match max {
            Some(l) => format!("{name} {} (max {} {})", thousands(*n as u64), l.holder, l.written),
            None => format!("{name} {}", thousands(*n as u64)),
        })
        .collect();
    let head = if depth == 1 { "by the first part".to_owned() } else { format!("by the first {depth} parts") };
    let tail = if more > 0 { format!(" (+{more} more)") } else { String::new() };
    Some(format!("{head}, most first: {}{tail}", entries.join(", ")))
}

#[cfg(test)]
#[path = "dotted_keys_tests.rs"]
mod tests;
