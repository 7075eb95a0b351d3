//! The questions asked of `git status --porcelain=v2 --branch`: what someone finishing a
//! merge in the middle of a refactor asks (the status of a file, where a renamed file came
//! from, what kind of conflict a file has, which blob the index holds; how many files are
//! untracked, ignored, unmerged, renamed, staged, deleted or added, which directory has the
//! most changes and the most new files; the branch, its upstream and how far ahead and
//! behind it is, the first entries and the last).

use super::readers::{GitEntry, git_status, lookup_at};
use super::{ORDINALS, to_last};
use crate::question::{Kind, Question};
use crate::questions_blind::{count, extreme, most_frequent, together};

/// Every question about the output `t`.
pub(crate) fn git_status_questions(t: &str) -> Vec<Option<Question>> {
    let (headers, entries) = git_status(t);
    let mut qs = lookups(&entries);
    qs.extend(aggregates(&entries));
    qs.extend(heads_and_tails(&headers, &entries));
    qs
}

fn path(e: &&GitEntry) -> String {
    e.path.clone()
}

fn lookups(entries: &[GitEntry]) -> Vec<Option<Question>> {
    let of = |kind: char| -> Vec<&GitEntry> { entries.iter().filter(|e| e.kind == kind).collect() };
    let (ordinary, renamed, unmerged) = (of('1'), of('2'), of('u'));
    let mut qs = Vec::new();
    for f in [0.1, 0.35, 0.6, 0.85] {
        qs.push(lookup_at(
            &ordinary,
            f,
            |e| format!("What is the git status of {}?", e.path),
            path,
            |e| vec![e.xy.clone()],
        ));
    }
    for f in [0.2, 0.5, 0.8] {
        qs.push(lookup_at(
            &renamed,
            f,
            |e| format!("Which file was {} renamed from?", e.path),
            path,
            |e| vec![e.orig.clone()],
        ));
    }
    for f in [0.3, 0.7] {
        qs.push(lookup_at(
            &unmerged,
            f,
            |e| format!("What kind of merge conflict does {} have (its XY status)?", e.path),
            path,
            |e| vec![e.xy.clone()],
        ));
    }
    let staged: Vec<&GitEntry> = ordinary.iter().copied().filter(|e| !e.index.starts_with("0000000")).collect();
    qs.push(lookup_at(
        &staged,
        0.45,
        |e| format!("Which object does the index hold for {}?", e.path),
        path,
        |e| vec![e.index.clone()],
    ));
    qs
}

/// The directory of `path` (`services/billing/internal/store` of `…/store/cache.go`).
fn parent(path: &str) -> &str {
    path.rsplit_once('/').map_or(".", |(dir, _)| dir)
}

fn aggregates(entries: &[GitEntry]) -> Vec<Option<Question>> {
    let n = |keep: &dyn Fn(&GitEntry) -> bool| entries.iter().filter(|e| keep(e)).count();
    let x = |e: &GitEntry, c: char| e.kind == '1' && e.xy.starts_with(c);
    let y = |e: &GitEntry, c: char| e.kind == '1' && e.xy.ends_with(c);
    let mut qs = vec![
        Some(count("How many untracked files are there?", &["untracked"], n(&|e| e.kind == '?'), None)),
        Some(count("How many ignored files are listed?", &["ignored"], n(&|e| e.kind == '!'), None)),
        Some(count(
            "How many files are unmerged (in conflict)?",
            &["unmerged", "conflicts"],
            n(&|e| e.kind == 'u'),
            None,
        )),
        Some(count("How many files are renamed?", &["renamed", "renames"], n(&|e| e.kind == '2'), None)),
        Some(count(
            "How many files have modifications staged in the index (X is M)?",
            &["staged", "modified"],
            n(&|e| x(e, 'M')),
            None,
        )),
        Some(count(
            "How many files have unstaged modifications in the worktree (Y is M)?",
            &["unstaged", "modified"],
            n(&|e| y(e, 'M')),
            None,
        )),
        Some(count("How many files are deleted, staged or not?", &["deleted"], n(&|e| x(e, 'D') || y(e, 'D')), None)),
        Some(count("How many files are newly added to the index?", &["added", "new"], n(&|e| x(e, 'A')), None)),
        Some(count(
            "How many conflicts are both-modified (UU)?",
            &["UU", "both modified"],
            n(&|e| e.kind == 'u' && e.xy == "UU"),
            None,
        )),
    ];
    let tracked: Vec<&GitEntry> = entries.iter().filter(|e| matches!(e.kind, '1' | '2' | 'u')).collect();
    let top = most_frequent(tracked.iter().map(|e| e.path.split('/').next().unwrap_or_default()));
    qs.push(extreme("Which top-level directory has the most tracked changes?", top, true, None));
    let services = most_frequent(
        tracked
            .iter()
            .filter(|e| e.path.starts_with("services/"))
            .map(|e| e.path.splitn(3, '/').take(2).last().unwrap_or_default()),
    );
    let services = services.into_iter().map(|(c, s)| (c, format!("services/{s}"))).collect();
    qs.push(extreme("Which service under services/ has the most changed files?", services, true, None));
    let new_dirs = most_frequent(entries.iter().filter(|e| e.kind == '?').map(|e| parent(&e.path)));
    qs.push(extreme("Which directory holds the most untracked files?", new_dirs, true, None));
    qs
}

fn heads_and_tails(headers: &[(String, String)], entries: &[GitEntry]) -> Vec<Option<Question>> {
    let header = |key: &str| headers.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str());
    let mut qs = Vec::new();
    for (key, text) in [
        ("branch.head", "Which branch is checked out?"),
        ("branch.upstream", "Which upstream branch does it track?"),
        ("branch.oid", "Which commit is HEAD at?"),
    ] {
        if let Some(v) = header(key) {
            qs.push(Some(together(Kind::Head, text.to_owned(), None, &[key, v])));
        }
    }
    if let Some((ahead, behind)) = header("branch.ab").and_then(|ab| ab.split_once(' ')) {
        let text = "How many commits is the branch ahead of and behind its upstream?".to_owned();
        qs.push(Some(together(Kind::Head, text, None, &[ahead, behind])));
    }
    for (k, ordinal) in ORDINALS.iter().enumerate().take(6) {
        let Some(e) = entries.get(k).filter(|e| !e.xy.is_empty()) else { continue };
        let text = format!("Which file is the {ordinal} entry after the branch headers, and what is its status?");
        qs.push(Some(together(Kind::Head, text, None, &[&e.path, &e.xy])));
    }
    for back in 0..9 {
        let Some(e) = entries.len().checked_sub(back + 1).and_then(|i| entries.get(i)) else { continue };
        let text = format!("Which path is listed {}?", to_last(back));
        qs.push(Some(together(Kind::Tail, text, None, &[&e.path])));
    }
    if let Some(e) = entries.iter().rev().find(|e| e.kind == '?') {
        let text = "Which untracked file is listed last?".to_owned();
        qs.push(Some(together(Kind::Tail, text, None, &[&e.path])));
    }
    qs
}
