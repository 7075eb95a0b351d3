//! Questions about a GitHub recursive git tree: the root tree's sha and url and the first
//! entries (path, sha, type, size), the last entries and whether the listing was
//! truncated; a file's size, blob sha or mode and a folder's tree sha by path; and how many
//! entries, blobs, folders, Go files (in all, tests, under one service), TypeScript, proto,
//! Markdown, executable and symlinked files there are, which blob is the largest (of all,
//! of the Go files, of the Markdown files, under one service) and which top-level folder
//! holds the most entries.

use std::collections::BTreeMap;

use serde_json::Value;

use super::{field, list, lookup};
use crate::question::{Kind, Question};
use crate::questions_blind::{count, extreme, together};
use crate::record_questions::end;

/// An entry of the tree.
pub(super) struct Entry {
    pub(super) path: String,
    pub(super) mode: String,
    pub(super) kind: String,
    pub(super) sha: String,
    pub(super) size: Option<i64>,
}

impl Entry {
    fn is_blob(&self) -> bool {
        self.kind == "blob"
    }

    fn size_text(&self) -> Option<String> {
        self.size.map(|s| s.to_string())
    }
}

/// The entries of the tree, in order.
pub(super) fn entries(v: &Value) -> Vec<Entry> {
    list(v, "tree")
        .iter()
        .map(|e| Entry {
            path: field(e, "path"),
            mode: field(e, "mode"),
            kind: field(e, "type"),
            sha: field(e, "sha"),
            size: e.get("size").and_then(Value::as_i64),
        })
        .collect()
}

fn path_sha(e: &Entry) -> Option<Vec<String>> {
    Some(vec![e.path.clone(), e.sha.clone()])
}

fn path_size(e: &Entry) -> Option<Vec<String>> {
    Some(vec![e.path.clone(), e.size_text()?])
}

/// The largest blob among those `keep` holds, by path.
fn largest(all: &[Entry], q: &str, keep: impl Fn(&Entry) -> bool) -> Option<Question> {
    let sized: Vec<(i64, String)> =
        all.iter().filter(|e| keep(e)).filter_map(|e| Some((e.size?, e.path.clone()))).collect();
    extreme(q, sized, true, Some("size"))
}

pub(super) fn git_tree_questions(v: &Value) -> Vec<Option<Question>> {
    let all = entries(v);
    let (sha, url) = (field(v, "sha"), field(v, "url"));
    let head = |q: &str, s: &str| (!s.is_empty()).then(|| together(Kind::Head, q.to_owned(), None, &[s]));
    let blobs: Vec<&Entry> = all.iter().filter(|e| e.is_blob()).collect();
    let trees: Vec<&Entry> = all.iter().filter(|e| !e.is_blob()).collect();
    let truncated = field(v, "truncated");
    let mut qs = vec![
        head("What is the sha of the root tree?", &sha),
        head("What is the API url of the root tree?", &url),
        end(&all, 0, false, "What is the first entry of the tree, and its sha?", path_sha),
        end(&all, 0, false, "What type and mode is the first entry?", |e| {
            Some(vec![e.path.clone(), e.kind.clone(), e.mode.clone()])
        }),
        end(&all, 1, false, "What is the second entry of the tree, and its sha?", path_sha),
        end(&all, 2, false, "What is the third entry of the tree, and is it a blob or a tree?", |e| {
            Some(vec![e.path.clone(), e.kind.clone()])
        }),
        end(&all, 3, false, "Which path is the fourth entry?", |e| Some(vec![e.path.clone()])),
        end(&all, 4, false, "Which path is the fifth entry, and what is its sha?", path_sha),
        end(&blobs, 0, false, "How large is the first file of the tree?", |e| path_size(e)),
        end(&blobs, 1, false, "How large is the second file of the tree?", |e| path_size(e)),
        end(&trees, 0, false, "Which folder comes first in the tree, and what is its sha?", |e| path_sha(e)),
        end(&all, 0, true, "What is the last entry of the tree, and its sha?", path_sha),
        end(&all, 0, true, "How large is the last entry of the tree?", path_size),
        end(&all, 1, true, "What is the second to last entry, and its sha?", path_sha),
        end(&all, 2, true, "What is the third to last entry, and how large is it?", |e| {
            Some(vec![e.path.clone(), e.size_text().unwrap_or_else(|| e.kind.clone())])
        }),
        end(&all, 3, true, "Which path is the fourth to last entry?", |e| Some(vec![e.path.clone()])),
        end(&all, 4, true, "Which path is the fifth to last entry, and what is its mode?", |e| {
            Some(vec![e.path.clone(), e.mode.clone()])
        }),
        end(&all, 5, true, "Which path is the sixth to last entry, and what is its sha?", path_sha),
        end(&blobs, 0, true, "What is the last file's blob sha?", |e| path_sha(e)),
        end(&blobs, 1, true, "How large is the second to last file?", |e| path_size(e)),
        (!truncated.is_empty())
            .then(|| together(Kind::Tail, "Was the tree listing truncated?".into(), None, &["truncated", &truncated])),
    ];
    let path = |e: &&Entry| e.path.clone();
    for at in [0.08, 0.22, 0.38, 0.52, 0.67, 0.81, 0.95] {
        qs.push(lookup(&blobs, at, "What is the size in bytes of {key}?", path, |e| Some(vec![e.size_text()?])));
    }
    for at in [0.3, 0.74] {
        qs.push(lookup(&blobs, at, "What is the blob sha of {key}?", path, |e| Some(vec![e.sha.clone()])));
    }
    let scripts: Vec<&Entry> = blobs.iter().copied().filter(|e| e.mode != "100644").collect();
    qs.push(lookup(&scripts, 0.5, "What mode does {key} have?", path, |e| Some(vec![e.mode.clone()])));
    for at in [0.45, 0.88] {
        qs.push(lookup(&trees, at, "What is the tree sha of the folder {key}?", path, |e| Some(vec![e.sha.clone()])));
    }
    // How many, and which is the largest.
    let how_many = |keep: &dyn Fn(&Entry) -> bool| all.iter().filter(|e| keep(e)).count();
    qs.push(Some(count("How many entries does the tree list?", &["entries", "tree"], all.len(), Some("path"))));
    qs.push(Some(count("How many blobs (files) are there?", &["blob"], blobs.len(), Some("type"))));
    qs.push(Some(count("How many folders (tree entries) are there?", &["tree"], trees.len(), Some("type"))));
    qs.push(Some(count(
        "How many Go files are there?",
        &[".go"],
        how_many(&|e| e.path.ends_with(".go")),
        Some("path"),
    )));
    let tests = how_many(&|e| e.path.ends_with("_test.go"));
    qs.push(Some(count("How many Go test files (_test.go) are there?", &["_test.go"], tests, Some("path"))));
    qs.push(Some(count(
        "How many .tsx files are there?",
        &[".tsx"],
        how_many(&|e| e.path.ends_with(".tsx")),
        Some("path"),
    )));
    qs.push(Some(count(
        "How many .proto files are there?",
        &[".proto"],
        how_many(&|e| e.path.ends_with(".proto")),
        Some("path"),
    )));
    qs.push(Some(count(
        "How many Markdown files are there?",
        &[".md"],
        how_many(&|e| e.path.ends_with(".md")),
        Some("path"),
    )));
    qs.push(Some(count(
        "How many executable files (mode 100755) are there?",
        &["100755"],
        how_many(&|e| e.mode == "100755"),
        Some("mode"),
    )));
    qs.push(Some(count(
        "How many symlinks (mode 120000) are there?",
        &["120000"],
        how_many(&|e| e.mode == "120000"),
        Some("mode"),
    )));
    let services: Vec<&Entry> =
        trees.iter().copied().filter(|e| e.path.starts_with("services/") && e.path.matches('/').count() == 1).collect();
    for k in [0, services.len() / 2, services.len().saturating_sub(1)] {
        if let Some(s) = services.get(k) {
            let prefix = format!("{}/", s.path);
            let n = how_many(&|e| e.path.starts_with(&prefix) && e.path.ends_with(".go"));
            qs.push(Some(count(&format!("How many Go files are under {}?", s.path), &[&s.path], n, Some("path"))));
        }
    }
    qs.push(largest(&all, "Which file is the largest blob?", |_| true));
    qs.push(largest(&all, "Which Go file is the largest?", |e| e.path.ends_with(".go")));
    qs.push(largest(&all, "Which Markdown file is the largest?", |e| e.path.ends_with(".md")));
    qs.push(largest(&all, "Which .tsx file is the largest?", |e| e.path.ends_with(".tsx")));
    if let Some(s) = services.first() {
        let prefix = format!("{}/", s.path);
        qs.push(largest(&all, &format!("Which file under {} is the largest?", s.path), |e| {
            e.path.starts_with(&prefix)
        }));
    }
    let sized: Vec<(i64, String)> =
        all.iter().filter(|e| e.path.ends_with(".go")).filter_map(|e| Some((e.size?, e.path.clone()))).collect();
    qs.push(extreme("Which Go file is the smallest?", sized, false, Some("size")));
    let mut per_top: BTreeMap<&str, usize> = BTreeMap::new();
    for e in all.iter().filter(|e| e.path.contains('/')) {
        *per_top.entry(e.path.split('/').next().unwrap_or_default()).or_default() += 1;
    }
    let tops = per_top.into_iter().map(|(t, n)| (n, t.to_owned())).collect();
    qs.push(extreme("Which top-level folder holds the most entries?", tops, true, Some("path")));
    qs
}
