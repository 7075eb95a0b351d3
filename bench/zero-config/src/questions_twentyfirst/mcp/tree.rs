//! Questions about a filesystem server's directory tree, once it is read into one record
//! per entry: the first and last entry at the top; which folder holds a file, what a
//! small folder holds; how many files, folders, test files and Markdown files there are,
//! how many files a folder holds and how many packages there are; which folder holds the
//! most files and the most subfolders, which package, app and service holds the most
//! files, and which file extension is the most common.

use serde_json::{Value, json};

use crate::question::{Kind, Question};
use crate::questions_blind::{at, count, extreme, most_frequent, only, s, together};

/// Every entry of `tree` in the order it is listed (each directory before its entries):
/// `name`, `type`, `parent` (the name of its directory, `null` at the top), `depth` (1 at
/// the top), and for a directory `files` (its own files), `folders` (its own
/// directories), `all_files` (files at any depth below it) and `entries` (the names of
/// its own entries).
pub(super) fn entries(tree: &[Value]) -> Vec<Value> {
    let mut out = Vec::new();
    walk(tree, None, 1, &mut out);
    out
}

/// Appends the entries of `nodes` and below to `out`; the number of files among them.
fn walk(nodes: &[Value], parent: Option<&str>, depth: usize, out: &mut Vec<Value>) -> usize {
    let mut files = 0;
    for node in nodes {
        let name = node["name"].as_str().unwrap_or_default();
        let at = out.len();
        out.push(json!({"name": name, "type": node["type"], "parent": parent, "depth": depth}));
        let Some(children) = node["children"].as_array() else {
            files += 1;
            continue;
        };
        let below = walk(children, Some(name), depth + 1, out);
        let kind = |t: &str| children.iter().filter(|c| c["type"] == t).count();
        let names: Vec<&Value> = children.iter().map(|c| &c["name"]).collect();
        let entry = &mut out[at];
        entry["files"] = json!(kind("file"));
        entry["folders"] = json!(kind("directory"));
        entry["all_files"] = json!(below);
        entry["entries"] = json!(names);
        files += below;
    }
    files
}

/// Whether a file name is a test's (`x.test.ts`, `x.spec.ts`, `x_test.go`, `test_x.py`).
pub(super) fn is_test_file(name: &str) -> bool {
    name.contains(".test.")
        || name.contains(".spec.")
        || name.ends_with("_test.go")
        || (name.starts_with("test_") && name.ends_with(".py"))
}

/// A file's extension with its dot (`.tsx`), `None` for dotfiles and names without one.
pub(super) fn extension(name: &str) -> Option<&str> {
    let i = name.rfind('.').filter(|&i| i > 0)?;
    Some(&name[i..])
}

/// The holder of the largest `score` among `folders`, asked only when its name is no
/// other folder's (the tree names a folder by its name alone).
fn unique_extreme(q: &str, folders: &[Value], score: &str, field: &str, all: &[Value]) -> Option<Question> {
    let scored: Vec<(u64, String)> = folders.iter().filter_map(|x| Some((x[score].as_u64()?, s(x, "name")?))).collect();
    let top = scored.iter().map(|x| x.0).max()?;
    let holders: Vec<&String> = scored.iter().filter(|x| x.0 == top).map(|x| &x.1).collect();
    let named_once = |n: &str| all.iter().filter(|x| x["type"] == "directory" && x["name"] == n).count() == 1;
    if holders.len() != 1 || !named_once(holders[0]) {
        return None;
    }
    extreme(q, scored, true, Some(field))
}

/// Which of the folders directly under the top-level folder `top` holds the most files.
fn largest_under(q: &str, list: &[Value], top: &str) -> Option<Question> {
    let under = only(list, |x| x["parent"] == top && x["depth"] == 2 && x["type"] == "directory");
    extreme(
        q,
        under.iter().filter_map(|x| Some((x["all_files"].as_u64()?, s(x, "name")?))).collect(),
        true,
        Some("type"),
    )
}

pub(super) fn tree_questions(tree: &[Value]) -> Vec<Option<Question>> {
    let list = entries(tree);
    let of_type = |t: &str| only(&list, |x| x["type"] == t);
    let (files, folders) = (of_type("file"), of_type("directory"));
    let named_once = |x: &Value| list.iter().filter(|y| y["name"] == x["name"]).count() == 1;
    // A file at the top has no folder to name, and a file named after its folder
    // (`Button/Button.tsx`) gives its folder away.
    let unique_files = only(&files, |x| {
        let (name, parent) = (x["name"].as_str().unwrap_or_default(), x["parent"].as_str().unwrap_or_default());
        named_once(x) && !parent.is_empty() && !name.starts_with(parent)
    });
    let unique_folders = only(&folders, named_once);
    let top = |x: Option<&Value>, kind: Kind, q: &str| Some(together(kind, q.into(), None, &[&s(x?, "name")?]));
    let holder = |f: f64| {
        let x = unique_files.get(at(unique_files.len(), f))?;
        let (name, parent) = (s(x, "name")?, s(x, "parent")?);
        Some(together(Kind::Lookup, format!("Which folder is {name} in?"), Some(&name), &[&name, &parent]))
    };
    let small = only(&unique_folders, |x| x["entries"].as_array().is_some_and(|e| (2..=6).contains(&e.len())));
    let contents = small.get(at(small.len(), 0.5)).and_then(|x| {
        let name = s(x, "name")?;
        let inside: Vec<&str> = x["entries"].as_array()?.iter().filter_map(Value::as_str).collect();
        let must: Vec<&str> = std::iter::once(name.as_str()).chain(inside).collect();
        Some(together(Kind::Lookup, format!("What is in the folder {name}?"), Some(&name), &must))
    });
    let full = only(&unique_folders, |x| x["files"].as_u64().is_some_and(|n| n >= 5));
    let files_in = full.get(at(full.len(), 0.4)).and_then(|x| {
        let name = s(x, "name")?;
        let n = x["files"].as_u64()? as usize;
        Some(count(&format!("How many files are directly in the folder {name}?"), &[&name, "files"], n, Some("type")))
    });
    let tops = only(&list, |x| x["depth"] == 1);
    let packages =
        list.iter().filter(|x| x["parent"] == "packages" && x["depth"] == 2 && x["type"] == "directory").count();
    let tests = files.iter().filter_map(|x| x["name"].as_str()).filter(|n| is_test_file(n)).count();
    let markdown = files.iter().filter_map(|x| x["name"].as_str()).filter(|n| n.ends_with(".md")).count();
    vec![
        top(tops.first(), Kind::Head, "What is the first entry at the top of the tree?"),
        top(tops.last(), Kind::Tail, "What is the last entry at the top of the tree?"),
        holder(0.3),
        holder(0.6),
        holder(0.9),
        contents,
        Some(count("How many files are in the tree?", &["files"], files.len(), Some("type"))),
        Some(count("How many folders are in the tree?", &["directories", "folders"], folders.len(), Some("type"))),
        Some(count(
            "How many test files are there (.test. or .spec. files, Go _test.go files, Python test_ files)?",
            &["test"],
            tests,
            Some("name"),
        )),
        Some(count("How many Markdown (.md) files are there?", &[".md", "Markdown"], markdown, Some("name"))),
        files_in,
        Some(count("How many packages are there under packages?", &["packages"], packages, Some("type"))),
        unique_extreme("Which folder directly holds the most files?", &folders, "files", "type", &list),
        unique_extreme("Which folder has the most subfolders?", &folders, "folders", "type", &list),
        largest_under("Which package under packages holds the most files?", &list, "packages"),
        largest_under("Which app under apps holds the most files?", &list, "apps"),
        largest_under("Which service under services holds the most files?", &list, "services"),
        extreme(
            "Which file extension is the most common?",
            most_frequent(files.iter().filter_map(|x| x["name"].as_str()).filter_map(extension)),
            true,
            Some("name"),
        ),
    ]
}
