//! Lines that begin with a place in a file: what `grep -n` and `rg` print for each match
//! (`src/cart.rs:42:    // TODO …`), and what compilers and linters print for each finding
//! (`src/cart.ts(42,17): error TS2345: …`, `app.py:12:5: E501 line too long`,
//! `main.c:7:3: warning: unused variable`). Each such line is read as a record of its file,
//! directory, extension and, where the line says them, its severity and code, and those
//! fields are counted over every line: the first read then says which file, directory or
//! kind of file holds the most lines, and how many lines each severity or code has.
//!
//! Recognised by syntax on most of the first lines, never by the tool that printed them.

use std::collections::HashSet;
use std::sync::OnceLock;

use regex::Regex;
use serde_json::{Map, Value};

use crate::line_fields::{MAX_LINES, fields_map};
use crate::numfmt::thousands;

/// Lines looked at to recognise the format.
const PROBE: usize = 100;
/// Share of the probed lines, in percent, that must begin with a place: a compiler's
/// findings are followed by indented lines that elaborate them.
const LOCATED_PERCENT: usize = 60;
/// Probed lines with a place needed, at least.
const LOCATED_MIN: usize = 5;

/// `path:line:` or `path:line:col:` (grep, rg, gcc, ruff, mypy, go vet), or
/// `path(line,col):` (tsc, MSBuild). The path holds no space, starts with neither a digit
/// nor a colon, ends in no digit, and names a file: it has a folder or an extension. A line
/// number starts with no zero. So a time inside a name (`tank/data@auto_2025-12-31_00:00:00`)
/// is not a place.
fn place() -> Option<&'static Regex> {
    static RE: OnceLock<Option<Regex>> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"^((?:[A-Za-z]:)?[^\s:()\d][^\s:()]*[^\s:()\d])(?::([1-9]\d*)(?::\d+)?:|\(([1-9]\d*),\d+\):)(.*)$")
            .ok()
    })
    .as_ref()
}

/// A finding's code: a few capitals then digits (`TS2345`, `E501`, `SC2086`, `CS0103`).
fn code_word() -> Option<&'static Regex> {
    static RE: OnceLock<Option<Regex>> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"^[A-Z]{1,6}\d{2,5}$").ok()).as_ref()
}

/// One line that begins with a place, as a record; `None` for any other line.
fn located_record(line: &str) -> Option<Value> {
    let c = place()?.captures(line)?;
    let file = c.get(1)?.as_str();
    let (folder, name) = file.rsplit_once('/').unwrap_or((".", file));
    let extension = name.rsplit_once('.').filter(|(stem, ext)| {
        !stem.is_empty() && !ext.is_empty() && ext.len() <= 10 && ext.chars().all(char::is_alphanumeric)
    });
    if folder == "." && extension.is_none() {
        return None;
    }
    let mut m = Map::new();
    m.insert("file".to_owned(), Value::from(file));
    m.insert("directory".to_owned(), Value::from(folder));
    if let Some((_, ext)) = extension {
        m.insert("extension".to_owned(), Value::from(format!(".{ext}")));
    }
    let rest = c.get(4).map_or("", |g| g.as_str()).trim_start();
    let mut words = rest.split_whitespace().map(|w| w.trim_end_matches(':'));
    let first = words.next().unwrap_or("");
    let severity =
        ["error", "warning", "note", "info", "hint", "fatal"].into_iter().find(|s| first.eq_ignore_ascii_case(s));
    let code_at = if let Some(s) = severity {
        m.insert("severity".to_owned(), Value::from(s));
        words.next().unwrap_or("")
    } else {
        first
    };
    let code = code_word()
        .filter(|re| re.is_match(code_at))
        .map(|_| code_at)
        // mypy writes its code last, in brackets: `… has no attribute "x"  [attr-defined]`.
        .or_else(|| rest.trim_end().strip_suffix(']').and_then(|r| r.rsplit_once("  [")).map(|(_, c)| c))
        .filter(|c| !c.is_empty() && !c.contains(' '));
    if let Some(code) = code {
        m.insert("code".to_owned(), Value::from(code));
    }
    Some(Value::Object(m))
}

/// A map of a text whose lines begin with places in files, at most `room` characters:
/// `1,219 lines at places in 375 files: directory, most first: …; extension, …`. `None`
/// when most of the first lines do not begin with one.
pub(crate) fn located_lines(text: &str, room: usize) -> Option<String> {
    let probe: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).take(PROBE).collect();
    let sample: Vec<Value> = probe.iter().filter_map(|l| located_record(l)).collect();
    if sample.len() < LOCATED_MIN || sample.len() * 100 < probe.len() * LOCATED_PERCENT {
        return None;
    }
    fields_map(&sample, room, |facets| {
        let (mut read_lines, mut total, mut located) = (0usize, 0usize, 0usize);
        let mut files: HashSet<String> = HashSet::new();
        for line in text.lines() {
            total += 1;
            if read_lines < MAX_LINES {
                read_lines += 1;
                if let Some(r) = located_record(line) {
                    located += 1;
                    // The record holds its file: the line is matched once.
                    if let Some(file) = r.get("file").and_then(Value::as_str) {
                        files.insert(file.to_owned());
                    }
                    facets.add(&r);
                }
            }
        }
        let head = format!("{} lines at places in {} files", thousands(located as u64), thousands(files.len() as u64));
        if read_lines < total {
            format!("{head} (of the first {} of {} lines)", thousands(read_lines as u64), thousands(total as u64))
        } else {
            head
        }
    })
}

#[cfg(test)]
#[path = "located_tests.rs"]
mod tests;
