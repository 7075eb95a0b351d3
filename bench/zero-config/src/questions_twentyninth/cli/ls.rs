//! The questions asked of `ls -lR`: what someone looking after a deployed application asks
//! of its tree (how big a file is, who owns it, when it changed, where a link points; how
//! many files a folder holds, how many entries root owns, how many symlinks and releases
//! there are, the largest and newest files and the biggest folder; the first sections and
//! the last).

use super::readers::{LsEntry, Section, ls_sections};
use super::{ORDINALS, to_last};
use crate::question::{Kind, Question};
use crate::questions_blind::{at, count, extreme, together};
use crate::record_questions::end;

/// Every question about the output `t`.
pub(crate) fn ls_questions(t: &str) -> Vec<Option<Question>> {
    let sections = ls_sections(t);
    let entries: Vec<LsEntry> = sections.iter().flat_map(|s| s.entries.iter().cloned()).collect();
    let mut qs = lookups(&entries);
    qs.extend(aggregates(&sections, &entries));
    qs.extend(heads_and_tails(&sections, &entries));
    qs
}

/// An entry's path from where `ls` ran (`./shared/storage/logs/laravel-2026-10-03.log`).
fn path(e: &LsEntry) -> String {
    format!("{}/{}", e.dir, e.name)
}

/// Entries of `kind` (`-`, `d`, `l`) whose name no other entry shares, so the name finds them.
fn unique(entries: &[LsEntry], kind: char) -> Vec<&LsEntry> {
    entries
        .iter()
        .filter(|e| e.mode.starts_with(kind) && entries.iter().filter(|o| o.name == e.name).count() == 1)
        .collect()
}

/// A lookup of the entry `f` of the way down `list` by its path (`{path}` in `q`), which
/// a model finds by its name: answered by the name and what `answer` gives, together.
fn by_path(list: &[&LsEntry], f: f64, q: &str, answer: impl Fn(&LsEntry) -> Vec<String>) -> Option<Question> {
    let e = list.get(at(list.len(), f))?;
    let mut must = vec![e.name.clone()];
    must.extend(answer(e));
    let must: Vec<&str> = must.iter().map(String::as_str).collect();
    Some(together(Kind::Lookup, q.replace("{path}", &path(e)), Some(&e.name), &must))
}

fn lookups(entries: &[LsEntry]) -> Vec<Option<Question>> {
    let files = unique(entries, '-');
    let links = unique(entries, 'l');
    let mut qs = Vec::new();
    for f in [0.15, 0.4, 0.6, 0.85] {
        qs.push(by_path(&files, f, "How big is {path}, in bytes?", |e| vec![e.size.clone()]));
    }
    for f in [0.3, 0.7] {
        qs.push(by_path(&files, f, "Who owns {path} (owner and group)?", |e| vec![e.owner.clone(), e.group.clone()]));
    }
    for f in [0.5, 0.95] {
        qs.push(by_path(&files, f, "When was {path} last modified?", |e| vec![e.time.clone()]));
    }
    qs.push(by_path(&files, 0.05, "What are the permissions of {path}?", |e| vec![e.mode.clone()]));
    qs.push(by_path(&links, 0.0, "Where does the symlink {path} point?", |e| vec![e.target.clone()]));
    qs
}

fn aggregates(sections: &[Section], entries: &[LsEntry]) -> Vec<Option<Question>> {
    let files_in = |s: &Section| s.entries.iter().filter(|e| e.mode.starts_with('-')).count();
    let mut with_files: Vec<&Section> = sections.iter().filter(|s| files_in(s) > 0).collect();
    with_files.sort_by(|a, b| files_in(b).cmp(&files_in(a)).then(a.path.cmp(&b.path)));
    let mut qs = Vec::new();
    for i in [0, with_files.len() / 3, with_files.len() * 2 / 3] {
        if let Some(s) = with_files.get(i) {
            let q = format!("How many regular files are directly in {}?", s.path);
            qs.push(Some(count(&q, &["files", "file"], files_in(s), None)));
        }
    }
    let n = |keep: &dyn Fn(&LsEntry) -> bool| entries.iter().filter(|e| keep(e)).count();
    qs.push(Some(count("How many entries are owned by root?", &["root"], n(&|e| e.owner == "root"), Some("owner"))));
    qs.push(Some(count(
        "How many symlinks are in the listing?",
        &["symlinks", "links"],
        n(&|e| e.mode.starts_with('l')),
        None,
    )));
    qs.push(Some(count(
        "How many releases are there under ./releases?",
        &["releases"],
        sections.iter().find(|s| s.path == "./releases").map_or(0, |s| s.entries.len()),
        None,
    )));
    qs.push(Some(count(
        "How many directories does the listing walk (sections)?",
        &["directories", "sections"],
        sections.len(),
        None,
    )));
    qs.push(Some(count(
        "How many files are owned by www-data?",
        &["www-data"],
        n(&|e| e.owner == "www-data" && e.mode.starts_with('-')),
        Some("owner"),
    )));
    let files = unique(entries, '-');
    let largest = files.iter().filter_map(|e| Some((e.size.parse::<u64>().ok()?, e.name.clone()))).collect();
    qs.push(extreme("Which file is the largest?", largest, true, Some("size")));
    let newest = files.iter().map(|e| (e.time.clone(), e.name.clone())).collect();
    qs.push(extreme("Which file was modified most recently?", newest, true, Some("date")));
    let oldest = files.iter().map(|e| (e.time.clone(), e.name.clone())).collect();
    qs.push(extreme("Which file is the oldest (earliest modification time)?", oldest, false, Some("date")));
    let biggest = sections.iter().filter_map(|s| Some((s.total.parse::<u64>().ok()?, s.path.clone()))).collect();
    qs.push(extreme("Which directory has the largest total?", biggest, true, Some("total")));
    let crowded = sections.iter().map(|s| (s.entries.len(), s.path.clone())).collect();
    qs.push(extreme("Which directory holds the most entries?", crowded, true, None));
    qs
}

fn heads_and_tails(sections: &[Section], entries: &[LsEntry]) -> Vec<Option<Question>> {
    let mut qs = Vec::new();
    if let Some(first) = sections.first() {
        let text = "What total does the top-level section report?".to_owned();
        qs.push(Some(together(Kind::Head, text, None, &[&format!("total {}", first.total)])));
    }
    for (k, ordinal) in ORDINALS.iter().enumerate().take(8) {
        let text = format!("What is the {ordinal} entry of the top-level listing, and its size?");
        qs.push(end(&entries.iter().take(8).collect::<Vec<_>>(), k, false, &text, |e| {
            Some(vec![e.name.clone(), e.size.clone()])
        }));
    }
    if let Some(second) = sections.get(1) {
        let text = format!("What is the first entry listed in {}, and its size?", second.path);
        qs.push(end(&second.entries, 0, false, &text, |e| Some(vec![e.name.clone(), e.size.clone()])));
    }
    if let Some(last) = sections.last() {
        let text = "Which directory is the last section of the listing?".to_owned();
        qs.push(Some(together(Kind::Tail, text, None, &[&format!("{}:", last.path)])));
    }
    for back in 0..8 {
        let text = format!("What is the {} entry of the whole listing: its name, size and time?", to_last(back));
        qs.push(end(entries, back, true, &text, |e| Some(vec![e.name.clone(), e.size.clone(), e.time.clone()])));
    }
    qs
}
