//! Questions about a page of GitHub code search results with text matches: the search's
//! count and the first results (their files, repositories, shas, addresses and matching
//! lines); the last results the same way; which repository holds a file, a file's sha and
//! its matching line, a repository's description and id, the one file a repository has;
//! and how many results are YAML, TypeScript, Markdown, `.env` or test files or in public
//! repositories, how many repositories match, which repository has the most files and
//! matches, which file extension and which top-level folder are the most common.

use serde_json::Value;

use super::list;
use crate::question::{Kind, Question, Records, text};
use crate::questions_blind::{at, count, extreme, most_frequent, only, together};

/// A string at a dotted path of a result.
fn get(x: &Value, path: &str) -> Option<String> {
    crate::question::value(x, path).map(text).filter(|s| !s.is_empty())
}

/// A line of the result's text matches that names a searched term and that JSON writes as
/// it is (no quotes, backslashes or tabs), so that it reads the same in the raw result.
fn matching_line(x: &Value) -> Option<String> {
    let fragments = x["text_matches"].as_array()?;
    fragments.iter().find_map(|m| {
        let term = m["matches"][0]["text"].as_str()?;
        let fragment = m["fragment"].as_str()?;
        fragment.lines().find(|l| l.contains(term) && !l.contains(['"', '\\', '\t'])).map(|l| l.trim().to_owned())
    })
}

/// The result `k` from the start (or from the end when `from_end`), named by its file and
/// repository and answered by what `answer` gives.
fn end(
    items: &[Value],
    k: usize,
    from_end: bool,
    q: &str,
    answer: impl Fn(&Value) -> Option<Vec<String>>,
) -> Option<Question> {
    let i = if from_end { items.len().checked_sub(k + 1)? } else { k };
    let x = items.get(i)?;
    let must = answer(x)?;
    let must: Vec<&str> = must.iter().map(String::as_str).collect();
    Some(together(if from_end { Kind::Tail } else { Kind::Head }, q.to_owned(), None, &must))
}

fn file_and_repo(x: &Value) -> Option<Vec<String>> {
    Some(vec![get(x, "path")?, get(x, "repository.full_name")?])
}

/// A file's extension as a user names it (`.yaml`, `.ts`, `.md`); `None` for dotfiles
/// without one.
fn extension(name: &str) -> Option<&str> {
    let i = name.rfind('.').filter(|&i| i > 0)?;
    Some(&name[i..])
}

fn is_test(name: &str) -> bool {
    name.contains(".test.") || name.ends_with("_test.go") || name.starts_with("test_") || name == "conftest.py"
}

pub(super) fn code_questions(v: &Value) -> Vec<Option<Question>> {
    let items = list(v, "items");
    let r = Records { list: items };
    let name = |x: &Value| x["name"].as_str().unwrap_or_default().to_owned();
    // Files whose path no other result has, so that the path alone names them.
    let unique = only(items, |x| {
        let p = &x["path"];
        items.iter().filter(|y| y["path"] == *p).count() == 1
    });
    let mut qs = vec![
        end(items, 0, false, "Which file is the top result, and in which repository?", file_and_repo),
        end(items, 0, false, "What is the blob sha of the top result?", |x| Some(vec![get(x, "sha")?])),
        end(items, 0, false, "What is the html_url of the top result?", |x| Some(vec![get(x, "html_url")?])),
        end(items, 0, false, "Which line of the top result names the variable?", |x| Some(vec![matching_line(x)?])),
        end(items, 0, false, "What is the description of the top result's repository?", |x| {
            Some(vec![get(x, "repository.full_name")?, get(x, "repository.description")?])
        }),
        end(items, 0, false, "What is the id of the top result's repository?", |x| {
            Some(vec![get(x, "repository.id")?])
        }),
        end(items, 1, false, "Which file is the second result, and in which repository?", file_and_repo),
        end(items, 1, false, "What is the blob sha of the second result?", |x| Some(vec![get(x, "sha")?])),
        end(items, 1, false, "Which line of the second result names the variable?", |x| Some(vec![matching_line(x)?])),
        end(items, 1, false, "What is the html_url of the second result?", |x| Some(vec![get(x, "html_url")?])),
        end(items, 2, false, "Which file is the third result, and in which repository?", file_and_repo),
        end(items, 2, false, "What is the blob sha of the third result?", |x| Some(vec![get(x, "sha")?])),
        end(items, 0, true, "Which file is the last result, and in which repository?", file_and_repo),
        end(items, 0, true, "What is the blob sha of the last result?", |x| Some(vec![get(x, "sha")?])),
        end(items, 0, true, "What is the html_url of the last result?", |x| Some(vec![get(x, "html_url")?])),
        end(items, 0, true, "Which line of the last result names the variable?", |x| Some(vec![matching_line(x)?])),
        end(items, 0, true, "What is the description of the last result's repository?", |x| {
            Some(vec![get(x, "repository.full_name")?, get(x, "repository.description")?])
        }),
        end(items, 0, true, "What is the id of the last result's repository?", |x| {
            Some(vec![get(x, "repository.id")?])
        }),
        end(items, 1, true, "Which file is the second to last result, and in which repository?", file_and_repo),
        end(items, 1, true, "What is the blob sha of the second to last result?", |x| Some(vec![get(x, "sha")?])),
        end(items, 1, true, "Which line of the second to last result names the variable?", |x| {
            Some(vec![matching_line(x)?])
        }),
        end(items, 2, true, "Which file is the third to last result, and in which repository?", file_and_repo),
        end(items, 2, true, "What is the blob sha of the third to last result?", |x| Some(vec![get(x, "sha")?])),
    ];
    // Files named by their path.
    let files = Records { list: &unique };
    for f in [0.3, 0.6, 0.9] {
        qs.push(files.lookup("Which repository contains {key}?", f, "path", "repository.full_name"));
    }
    for f in [0.45, 0.75] {
        qs.push(files.lookup("What is the blob sha of {key}?", f, "path", "sha"));
    }
    for f in [0.5, 0.8] {
        let x = unique.get(at(unique.len(), f));
        qs.push(x.and_then(|x| {
            let (path, line) = (get(x, "path")?, matching_line(x)?);
            Some(together(
                Kind::Lookup,
                format!("Which line of {path} names the variable?"),
                Some(&path),
                &[&path, &line],
            ))
        }));
    }
    // Repositories named by their full name.
    qs.push(r.lookup(
        "What is the description of the repository {key}?",
        0.5,
        "repository.full_name",
        "repository.description",
    ));
    qs.push(r.lookup("What is the id of the repository {key}?", 0.7, "repository.full_name", "repository.id"));
    let per_repo = most_frequent(items.iter().filter_map(|x| x["repository"]["full_name"].as_str()));
    let single: Vec<&String> = per_repo.iter().filter(|(c, _)| *c == 1).map(|(_, n)| n).collect();
    qs.push(single.get(at(single.len(), 0.5)).and_then(|repo| {
        let x = items.iter().find(|x| x["repository"]["full_name"] == repo.as_str())?;
        let path = get(x, "path")?;
        Some(together(Kind::Lookup, format!("Which file of {repo} matched?"), Some(repo), &[repo, &path]))
    }));
    // How many, and which has the most.
    let names: Vec<String> = items.iter().map(name).collect();
    let n = |keep: &dyn Fn(&str) -> bool| names.iter().filter(|x| keep(x)).count();
    let matches_in = |x: &Value| {
        x["text_matches"].as_array().map_or(0, |m| m.iter().filter_map(|t| t["matches"].as_array()).map(Vec::len).sum())
    };
    let mut per_repo_matches: Vec<(usize, String)> = Vec::new();
    for (_, repo) in &per_repo {
        let total: usize = items.iter().filter(|x| x["repository"]["full_name"] == repo.as_str()).map(matches_in).sum();
        per_repo_matches.push((total, repo.clone()));
    }
    qs.extend([
        extreme("Which repository has the most matching files?", per_repo.clone(), true, Some("repository")),
        r.count("How many matching files are in {value}?", "repository.full_name", None),
        extreme(
            "Which repository has the most highlighted matches in all?",
            per_repo_matches,
            true,
            Some("text_matches"),
        ),
        v["total_count"].as_u64().map(|n| {
            count(
                "How many files matched the search in all?",
                &["total_count", "results"],
                n as usize,
                Some("total_count"),
            )
        }),
        Some(count(
            "How many repositories have matches?",
            &["repositories", "repos"],
            per_repo.len(),
            Some("repository"),
        )),
        Some(count(
            "How many results are YAML files (.yml or .yaml)?",
            &["YAML", ".yaml", ".yml"],
            n(&|x| x.ends_with(".yml") || x.ends_with(".yaml")),
            Some("name"),
        )),
        Some(count(
            "How many results are TypeScript files (.ts)?",
            &[".ts", "TypeScript"],
            n(&|x| x.ends_with(".ts")),
            Some("name"),
        )),
        Some(count(
            "How many results are Markdown files?",
            &[".md", "Markdown"],
            n(&|x| x.ends_with(".md")),
            Some("name"),
        )),
        Some(count("How many results are .env files?", &[".env"], n(&|x| x.contains(".env")), Some("name"))),
        Some(count("How many results are test files?", &["test", "tests"], n(&is_test), Some("name"))),
        Some(count(
            "How many results are in public repositories?",
            &["public"],
            items.iter().filter(|x| x["repository"]["private"] == false).count(),
            Some("private"),
        )),
        extreme(
            "Which file extension is the most common among the results?",
            most_frequent(names.iter().filter_map(|x| extension(x))),
            true,
            Some("name"),
        ),
        extreme(
            "Which top-level folder holds the most results?",
            most_frequent(items.iter().filter_map(|x| x["path"].as_str()?.split_once('/').map(|(top, _)| top))),
            true,
            Some("path"),
        ),
    ]);
    qs
}
