//! The questions asked of `git log --graph` of a project merging pull requests: what a
//! developer digging through history asks (who made a commit and when, its subject, the
//! commit with a subject, the merge of a pull request or branch, the commit a release tag
//! is on; how many commits an author made, how many merges and releases there are, who
//! committed or merged the most, which pull request brought the most commits; the newest
//! commits at the top and the first commits of the project at the bottom).

use serde_json::{Value, json};

use super::from_end;
use super::readers::git_commits;
use crate::question::{Kind, Question};
use crate::questions_blind::{count, extreme, most_frequent, only};
use crate::record_questions::{about_record, lookup};

/// Every question about the output `t`.
pub(crate) fn git_log_questions(t: &str) -> Vec<Option<Question>> {
    let commits = git_commits(t);
    let mut qs = lookups(&commits);
    qs.extend(aggregates(&commits));
    qs.extend(heads_and_tails(&commits));
    qs
}

/// The merges with the pull request (`pull request #688`) and branch they merged.
fn merges(commits: &[Value]) -> Vec<Value> {
    commits
        .iter()
        .filter(|c| c["merge"] == true)
        .filter_map(|c| {
            let subject = c["subject"].as_str()?;
            let rest = subject.strip_prefix("Merge ")?;
            let (pr, branch) = rest.split_once(" from ")?;
            let mut m = c.clone();
            m["pr"] = json!(pr);
            m["branch"] = json!(branch);
            Some(m)
        })
        .collect()
}

/// The tagged commits with their tag (`v1.4.2`).
fn tagged(commits: &[Value]) -> Vec<Value> {
    commits
        .iter()
        .filter_map(|c| {
            let tag = c["refs"].as_str()?.split(", ").find_map(|r| r.strip_prefix("tag: "))?;
            let mut c = c.clone();
            c["tag"] = json!(tag);
            Some(c)
        })
        .collect()
}

/// A commit's author, date, subject; a subject's, pull request's, branch's, tag's commit.
fn lookups(commits: &[Value]) -> Vec<Option<Question>> {
    let merged = merges(commits);
    let plain = only(commits, |c| c["merge"] == false);
    let tags = tagged(commits);
    vec![
        lookup(commits, 0.3, "Who authored commit {key}?", "hash", &["author"]),
        lookup(commits, 0.65, "Who authored commit {key}?", "hash", &["author"]),
        lookup(commits, 0.9, "When was commit {key} authored?", "hash", &["date"]),
        lookup(commits, 0.5, "What is the subject of commit {key}?", "hash", &["subject"]),
        lookup(&plain, 0.4, "Which commit has the subject \"{key}\"?", "subject", &["hash"]),
        lookup(
            &plain,
            0.8,
            "Which commit has the subject \"{key}\", and who wrote it?",
            "subject",
            &["hash", "author"],
        ),
        lookup(&merged, 0.35, "Which commit merged {key}, and who merged it?", "pr", &["hash", "author"]),
        lookup(&merged, 0.7, "When was {key} merged?", "pr", &["date"]),
        lookup(&merged, 0.55, "Which commit merged the branch {key}?", "branch", &["hash"]),
        lookup(&tags, 0.5, "Which commit is tagged {key}, and when was it made?", "tag", &["hash", "date"]),
    ]
}

/// How many commits an author made, merges, releases; who committed or merged most.
fn aggregates(commits: &[Value]) -> Vec<Option<Question>> {
    let authors = most_frequent(commits.iter().filter_map(|c| c["author"].as_str()));
    let mut ranked = authors.clone();
    ranked.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let by = |k: usize| {
        ranked.get(k).map(|(n, a)| count(&format!("How many commits did {a} author?"), &[a], *n, Some("author")))
    };
    let merged = merges(commits);
    let months = most_frequent(commits.iter().filter_map(|c| c["month"].as_str()));
    let busiest_month = months.iter().max_by_key(|m| (m.0, m.1.clone())).cloned();
    let branch_sizes = most_frequent(commits.iter().filter_map(|c| c["merged_by"].as_str().filter(|m| !m.is_empty())));
    let n = |keep: &dyn Fn(&Value) -> bool| commits.iter().filter(|c| keep(c)).count();
    vec![
        Some(count("How many commits are in the log?", &["commits"], commits.len(), Some("hash"))),
        Some(count("How many merge commits are there?", &["merge"], n(&|c| c["merge"] == true), Some("subject"))),
        Some(count("How many release tags are there?", &["tag"], tagged(commits).len(), Some("refs"))),
        Some(count(
            "How many commits did dependabot[bot] make?",
            &["dependabot[bot]"],
            n(&|c| c["author"] == "dependabot[bot]"),
            Some("author"),
        )),
        Some(count(
            "How many different people and bots authored commits?",
            &["authors"],
            authors.len(),
            Some("author"),
        )),
        by(1),
        by(4),
        by(8),
        busiest_month.map(|(c, m)| count(&format!("How many commits were made in {m}?"), &[&m], c, Some("date"))),
        extreme("Who authored the most commits?", authors, true, Some("author")),
        extreme(
            "Who merged the most pull requests?",
            most_frequent(merged.iter().filter_map(|m| m["author"].as_str())),
            true,
            Some("author"),
        ),
        extreme("Which merge commit brought in the most commits from its branch?", branch_sizes, true, Some("hash")),
    ]
}

/// The newest commits at the top; the project's first commits at the bottom.
fn heads_and_tails(commits: &[Value]) -> Vec<Option<Question>> {
    let head = commits.first();
    let mut qs = vec![
        about_record(head, Kind::Head, "What is the hash of the newest commit (HEAD)?", &["hash", "refs"]),
        about_record(head, Kind::Head, "Who authored the newest commit, and when?", &["author", "date"]),
        about_record(head, Kind::Head, "What is the subject of the newest commit?", &["subject"]),
    ];
    for (k, ordinal) in ["second", "third", "fourth", "fifth", "sixth", "seventh"].iter().enumerate() {
        qs.push(about_record(
            commits.get(k + 1),
            Kind::Head,
            &format!("Which commit is listed {ordinal}, and who authored it?"),
            &["hash", "author"],
        ));
    }
    qs.push(about_record(
        from_end(commits, 0),
        Kind::Tail,
        "What is the hash of the first (root) commit?",
        &["hash", "subject"],
    ));
    qs.push(about_record(from_end(commits, 0), Kind::Tail, "Who made the root commit, and when?", &["author", "date"]));
    for (k, ordinal) in ["second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"].iter().enumerate() {
        qs.push(about_record(
            from_end(commits, k + 1),
            Kind::Tail,
            &format!("Which commit is listed {ordinal} from the bottom of the log, and what is its subject?"),
            &["hash", "subject"],
        ));
    }
    qs
}
