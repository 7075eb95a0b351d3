//! Text made of sections, each a heading line and the lines that belong to it: a linter's
//! report (a file's path, its problems indented below), a port scan (one block per host
//! between blank lines), a playbook run (a block per task), firewall chains, a configuration
//! file's top-level blocks, a source file's definitions.
//!
//! The first read's map says how many sections there are, which are the largest (with the
//! line each starts at, to jump to) and, where the headings start with a few words that
//! repeat, how many start with each (`TASK 31, PLAY 3`). A `pattern` read keeps a section
//! whole when its heading matches ([`crate::view`]): looking up a host or a file brings back
//! what is listed under it.
//!
//! Two layouts are recognised, by layout alone, in this order:
//! - **blocks**: runs of lines between blank lines, where most runs begin with the same word
//!   or with an id (a word holding a digit: a mail queue's entries);
//! - **indented**: lines at the text's margin, each followed by lines indented deeper (not
//!   numbers aligned to the right, which indent a line less the longer they are).

use std::collections::HashMap;

use crate::heading_fields::heading_fields;
use crate::line_fields::MAX_LINES;
use crate::numfmt::thousands;

/// Sections a text needs, at least.
const MIN_SECTIONS: usize = 3;
/// Largest sections listed in the map, at most.
const TOP: usize = 6;
/// The longest heading written whole; a longer one keeps its start.
const HEADING_CHARS: usize = 100;
/// The most runs in a cycle that repeats ([`turns`]).
const MAX_PERIOD: usize = 4;
/// First words counted, at most: more, and the headings are names rather than kinds.
const MAX_KINDS: usize = 12;

/// Where a text's sections start, and how many lines each holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Sections {
    /// The zero-based line of each section's heading, in order.
    pub(crate) starts: Vec<usize>,
    /// The non-blank lines of each section, its heading included.
    pub(crate) sizes: Vec<usize>,
    /// Whether the sections are runs between blank lines (else headings with indented lines).
    pub(crate) blocks: bool,
}

/// The sections of `lines`, or `None` when the text is not made of them.
pub(crate) fn sections(lines: &[&str]) -> Option<Sections> {
    let lines = &lines[..lines.len().min(MAX_LINES)];
    blocks(lines).or_else(|| indented(lines))
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start_matches([' ', '\t']).len()
}

fn blank(line: &str) -> bool {
    line.trim().is_empty()
}

/// Headings at the margin, each followed by deeper lines. Most lines must belong to a
/// section (its heading, or a line deeper under it: a file's name with its one progress
/// line below, as `rsync --progress` prints them, is all sections), and the margin lines
/// that head nothing (a closing brace, a last total, a folder's name) must be fewer than
/// the headings.
fn indented(lines: &[&str]) -> Option<Sections> {
    let filled: Vec<usize> = (0..lines.len()).filter(|i| !blank(lines[*i])).collect();
    let margin = filled.iter().map(|i| indent(lines[*i])).min()?;
    let mut starts = Vec::new();
    let mut loose = 0usize;
    for (n, &i) in filled.iter().enumerate() {
        if indent(lines[i]) != margin {
            continue;
        }
        match filled.get(n + 1) {
            Some(&next) if indent(lines[next]) > margin => starts.push(i),
            _ => loose += 1,
        }
    }
    // Numbers aligned to the right (`iptables -v`'s counters, `wc -l`) indent a line by
    // less when its number is longer: the line below ends its first word where the heading
    // does, as a column, not a level, does.
    let first_word_end = |l: &str| indent(l) + l.split_whitespace().next().map_or(0, str::len);
    let aligned = starts
        .iter()
        .filter(|&&i| {
            let next = filled.iter().find(|&&j| j > i).copied().unwrap_or(i);
            first_word_end(lines[next]) == first_word_end(lines[i])
        })
        .count();
    if aligned * 2 >= starts.len() {
        return None;
    }
    let deeper = filled.len() - starts.len() - loose;
    let before_first = filled.iter().take_while(|i| Some(*i) < starts.first()).count();
    if starts.len() < MIN_SECTIONS
        || loose >= starts.len()
        || (starts.len() + deeper) * 2 < filled.len()
        || before_first * 5 > filled.len()
    {
        return None;
    }
    Some(Sections { sizes: sizes(lines, &starts), starts, blocks: false })
}

/// Runs of lines between blank lines, most beginning with the same word, of two lines or
/// more on average.
fn blocks(lines: &[&str]) -> Option<Sections> {
    let mut starts = Vec::new();
    let mut after_blank = true;
    for (i, l) in lines.iter().enumerate() {
        if blank(l) {
            after_blank = true;
        } else if after_blank {
            starts.push(i);
            after_blank = false;
        }
    }
    if starts.len() < MIN_SECTIONS {
        return None;
    }
    let mut firsts: HashMap<&str, usize> = HashMap::new();
    for s in &starts {
        *firsts.entry(lead(lines[*s])).or_default() += 1;
    }
    let most = firsts.values().copied().max().unwrap_or(0);
    if most * 2 < starts.len() || most < MIN_SECTIONS {
        return turns(lines, &starts);
    }
    let starts = with_glued_headings(lines, starts, &firsts, most);
    // The runs before the first whose first word leads another run too are a preamble (a
    // scanner's banner), not sections.
    let first = starts.iter().position(|s| firsts.get(lead(lines[*s])).is_some_and(|n| *n >= 2))?;
    let starts: Vec<usize> = starts[first..].to_vec();
    let sizes = sizes(lines, &starts);
    let filled: usize = sizes.iter().sum();
    if filled < starts.len() * 2 {
        return None;
    }
    Some(Sections { sizes, starts, blocks: true })
}

/// `starts` with the headings a run holds below its first line: a line at the runs' margin
/// led by the word that leads most runs begins a section too, though no blank line comes
/// before it. `nvidia-smi -q` prints its first GPU right under `Attached GPUs : 8`, the
/// others after blank lines; without this, the first GPU would be read as the preamble's
/// and every count over the sections would leave it out. Runs led by ids (`*`) are not
/// split: a line holding a number at the margin is not a heading by its lead alone.
fn with_glued_headings(lines: &[&str], starts: Vec<usize>, firsts: &HashMap<&str, usize>, most: usize) -> Vec<usize> {
    let Some(dominant) = firsts.iter().find(|(_, n)| **n == most).map(|(lead, _)| *lead) else { return starts };
    if dominant == "*" || firsts.values().filter(|n| **n == most).count() > 1 {
        return starts;
    }
    let margin = starts.iter().filter(|s| lead(lines[**s]) == dominant).map(|s| indent(lines[*s])).min();
    let Some(margin) = margin else { return starts };
    let mut all = Vec::with_capacity(starts.len());
    for (n, &start) in starts.iter().enumerate() {
        all.push(start);
        let end = starts.get(n + 1).copied().unwrap_or(lines.len());
        all.extend(
            (start + 1..end).filter(|&i| !blank(lines[i]) && indent(lines[i]) == margin && lead(lines[i]) == dominant),
        );
    }
    all
}

/// Runs that repeat a short cycle of leads, as a report printed again and again does
/// (`iostat -x 5`: a run led by the time, then one led by `Device`): each turn of the cycle
/// is a section, headed by its first run. Up to [`MAX_PERIOD`] runs before the first turn
/// are a preamble; nine in ten runs after it must follow the cycle.
fn turns(lines: &[&str], starts: &[usize]) -> Option<Sections> {
    let leads: Vec<&str> = starts.iter().map(|s| lead(lines[*s])).collect();
    for period in 2..=MAX_PERIOD {
        for first in 0..=period {
            let runs = leads.get(first..)?;
            let cycle = &runs[..period.min(runs.len())];
            if runs.len() < period * MIN_SECTIONS || cycle.iter().all(|l| *l == cycle[0]) {
                continue;
            }
            let kept = runs.iter().enumerate().filter(|(i, l)| **l == cycle[i % period]).count();
            if kept * 10 >= runs.len() * 9 {
                // A turn starts where the cycle's first lead comes back at its place.
                let heads: Vec<usize> = (first..starts.len())
                    .filter(|&i| (i - first) % period == 0 && leads[i] == cycle[0])
                    .map(|i| starts[i])
                    .collect();
                if heads.len() < MIN_SECTIONS {
                    return None;
                }
                return Some(Sections { sizes: sizes(lines, &heads), starts: heads, blocks: true });
            }
        }
    }
    None
}

/// The first word of a heading (`Chain`, `TASK`, `Nmap`).
fn first_word(line: &str) -> &str {
    line.split_whitespace().next().unwrap_or("")
}

/// What leads a run, for telling whether runs start alike: its first word, or `*` for a
/// word holding a digit (a queue id, a number), as ids differ from run to run.
fn lead(line: &str) -> &str {
    let w = first_word(line);
    if w.bytes().any(|b| b.is_ascii_digit()) { "*" } else { w }
}

/// The non-blank lines from each start to the next.
fn sizes(lines: &[&str], starts: &[usize]) -> Vec<usize> {
    starts
        .iter()
        .enumerate()
        .map(|(n, &s)| {
            let end = starts.get(n + 1).copied().unwrap_or(lines.len());
            lines[s..end].iter().filter(|l| !blank(l)).count()
        })
        .collect()
}

/// The map of the sections of `text`, at most `room` characters.
pub(crate) fn sections_map(text: &str, room: usize) -> Option<String> {
    let lines: Vec<&str> = text.lines().take(MAX_LINES).collect();
    let s = sections(&lines)?;
    let layout = if s.blocks {
        "runs of lines between blank lines"
    } else {
        "a line at the margin, the lines indented under it"
    };
    let mut out =
        format!("{} sections ({layout}), the first at line {}", thousands(s.starts.len() as u64), s.starts[0] + 1);
    let mut order: Vec<usize> = (0..s.starts.len()).collect();
    order.sort_by_key(|n| (std::cmp::Reverse(s.sizes[*n]), *n));
    // The largest, when sizes differ: what a question about the section with the most
    // entries asks for.
    if s.sizes[order[0]] > s.sizes[order[order.len() - 1]] {
        let listed: Vec<String> = order
            .iter()
            .take(TOP)
            .map(|n| {
                format!(
                    "{} {} lines (line {})",
                    heading(lines[s.starts[*n]]),
                    s.sizes[*n],
                    thousands(s.starts[*n] as u64 + 1)
                )
            })
            .collect();
        out.push_str(&format!("; sections, most lines first: {}", listed.join(", ")));
    }
    if let Some(kinds) = first_words(&lines, &s.starts) {
        out.push_str(&format!("; sections by first word: {kinds}"));
    }
    // What the sections say of themselves in `Key: value` lines (a device's driver and NUMA
    // node, a host's state), counted across them in what room is left.
    let titles = titles(&lines, &s.starts);
    let titled: Vec<(usize, &str)> = s.starts.iter().copied().zip(titles.iter().map(String::as_str)).collect();
    // Within the lines the sections were found in: the cost follows those, not the text.
    let read = lines.last().map_or(0, |l| l.as_ptr() as usize + l.len() - text.as_ptr() as usize);
    let within = text.get(..read).unwrap_or(text);
    if let Some(fields) = heading_fields(within, &titled, room.saturating_sub(out.len() + 2)) {
        out.push_str("; ");
        out.push_str(&fields);
    }
    if out.len() > room {
        // Whole clauses only: the count alone, then nothing.
        let count = out.split("; ").next().unwrap_or("").to_owned();
        return (count.len() <= room).then_some(count);
    }
    Some(out)
}

/// What names each section where its fields are counted: the heading's first word when no
/// two sections share it (a device's address, a host's name), else the whole heading.
fn titles(lines: &[&str], starts: &[usize]) -> Vec<String> {
    let firsts: Vec<&str> = starts.iter().map(|s| first_word(lines[*s])).collect();
    let distinct: std::collections::HashSet<&&str> = firsts.iter().collect();
    if distinct.len() == firsts.len() && firsts.iter().all(|w| !w.is_empty()) {
        firsts.iter().map(|w| (*w).to_owned()).collect()
    } else {
        starts.iter().map(|s| heading(lines[*s])).collect()
    }
}

/// Headings counted by their first word, when a few words lead them and repeat.
fn first_words(lines: &[&str], starts: &[usize]) -> Option<String> {
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for s in starts {
        *counts.entry(first_word(lines[*s])).or_default() += 1;
    }
    if counts.len() < 2 || counts.len() > MAX_KINDS || counts.values().all(|n| *n == 1) {
        return None;
    }
    let mut listed: Vec<(&str, usize)> = counts.into_iter().collect();
    listed.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    Some(listed.iter().map(|(w, n)| format!("{} {n}", quoted(w))).collect::<Vec<_>>().join(", "))
}

/// A heading for the map: trimmed, whole up to [`HEADING_CHARS`], quoted when it holds a
/// character that would end a clause.
fn heading(line: &str) -> String {
    let t = line.trim();
    let t = match t.char_indices().nth(HEADING_CHARS) {
        Some((at, _)) => format!("{}…", &t[..at]),
        None => t.to_owned(),
    };
    quoted(&t)
}

fn quoted(v: &str) -> String {
    if v.is_empty() || v.contains([';', ',', '"']) {
        serde_json::Value::String(v.to_owned()).to_string()
    } else {
        v.to_owned()
    }
}

#[cfg(test)]
#[path = "sections_tests.rs"]
mod tests;
