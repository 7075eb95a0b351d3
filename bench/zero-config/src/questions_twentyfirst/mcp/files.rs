//! Questions about a page of a pull request's files: the first and last file and their
//! status; a file's status, added and removed lines, and a renamed file's old name; how
//! many files were added, removed or renamed, show no patch, are tests, and how many
//! lines were added in all; the file with most added and most removed lines, the
//! component and the test file with most changes, the largest removed file, and the
//! folder and the package or app with the most changed files.

use serde_json::Value;

use crate::question::{Kind, Question, Records};
use crate::questions_blind::{count, extreme, most_frequent, only, s, scored_by, together};

/// The folder of a path (`apps/web/src/App.tsx` → `apps/web/src`); `None` at the root.
pub(super) fn folder(path: &str) -> Option<&str> {
    path.rsplit_once('/').map(|(dir, _)| dir)
}

/// The package or app a path is in (`packages/ui/src/index.ts` → `packages/ui`).
pub(super) fn workspace(path: &str) -> Option<&str> {
    let mut parts = path.splitn(3, '/');
    let (top, name, _) = (parts.next()?, parts.next()?, parts.next()?);
    matches!(top, "apps" | "packages" | "services").then(|| &path[..top.len() + 1 + name.len()])
}

/// Whether a path is a test file (`Button.test.tsx`, `handler_test.go`, `e2e/x.spec.ts`).
pub(super) fn is_test(path: &str) -> bool {
    let file = path.rsplit('/').next().unwrap_or(path);
    file.contains(".test.") || file.contains(".spec.") || file.ends_with("_test.go")
}

fn status_count(list: &[Value], status: &str, q: &str) -> Question {
    count(q, &[status], list.iter().filter(|x| x["status"] == status).count(), Some("status"))
}

pub(super) fn files_questions(list: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list };
    let ends = |x: Option<&Value>, kind: Kind, q: &str| {
        let x = x?;
        Some(together(kind, q.into(), None, &[&s(x, "filename")?, &s(x, "status")?]))
    };
    let renamed = only(list, |x| x["status"] == "renamed");
    let removed = only(list, |x| x["status"] == "removed");
    let tests = only(list, |x| x["filename"].as_str().is_some_and(is_test));
    // Components: React files that are not tests.
    let components = only(list, |x| x["filename"].as_str().is_some_and(|f| f.ends_with(".tsx") && !is_test(f)));
    // Files asked about by a count of lines they have, so that the answer is not zero.
    let adding = only(list, |x| x["additions"].as_u64().is_some_and(|n| n > 0));
    let deleting = only(list, |x| x["deletions"].as_u64().is_some_and(|n| n > 0));
    let lines = |field: &'static str| move |x: &Value| x[field].as_u64();
    let added: u64 = list.iter().filter_map(lines("additions")).sum();
    let paths = || list.iter().filter_map(|x| x["filename"].as_str());
    vec![
        ends(list.first(), Kind::Head, "Which file is listed first, and what is its status?"),
        ends(list.last(), Kind::Tail, "Which file is listed last on this page, and what is its status?"),
        r.lookup("What is the status of {key}?", 0.3, "filename", "status"),
        Records { list: &adding }.lookup("How many lines were added to {key}?", 0.6, "filename", "additions"),
        Records { list: &deleting }.lookup("How many lines were removed from {key}?", 0.9, "filename", "deletions"),
        Records { list: &renamed }.lookup(
            "What was {key} called before this pull request?",
            0.5,
            "filename",
            "previous_filename",
        ),
        Some(status_count(list, "added", "How many files were added?")),
        Some(status_count(list, "removed", "How many files were removed?")),
        Some(status_count(list, "renamed", "How many files were renamed?")),
        Some(count(
            "How many files have no patch shown (binary, too large to diff, or renamed unchanged)?",
            &["patch", "no patch"],
            list.iter().filter(|x| x.get("patch").is_none()).count(),
            Some("patch"),
        )),
        Some(count("How many test files were changed?", &["test"], tests.len(), Some("filename"))),
        Some(count(
            "How many lines were added in total across these files?",
            &["additions", "added"],
            added as usize,
            Some("additions"),
        )),
        extreme(
            "Which file has the most added lines?",
            scored_by(list, lines("additions"), "filename"),
            true,
            Some("additions"),
        ),
        extreme(
            "Which file has the most removed lines?",
            scored_by(list, lines("deletions"), "filename"),
            true,
            Some("deletions"),
        ),
        extreme(
            "Which component (a .tsx file that is not a test) has the most changed lines?",
            scored_by(&components, lines("changes"), "filename"),
            true,
            Some("changes"),
        ),
        extreme(
            "Which test file has the most changed lines?",
            scored_by(&tests, lines("changes"), "filename"),
            true,
            Some("changes"),
        ),
        extreme(
            "Which removed file was the longest?",
            scored_by(&removed, lines("deletions"), "filename"),
            true,
            Some("deletions"),
        ),
        extreme(
            "Which folder has the most changed files?",
            most_frequent(paths().filter_map(folder)),
            true,
            Some("filename"),
        ),
        extreme(
            "Which app or package has the most changed files?",
            most_frequent(paths().filter_map(workspace)),
            true,
            Some("filename"),
        ),
    ]
}
