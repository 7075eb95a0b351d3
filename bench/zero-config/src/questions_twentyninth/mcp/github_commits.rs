//! Questions about a GitHub commit list, newest first: the newest and the oldest commits
//! (sha, title, author and date, committer, signature, parent); a commit's author and
//! date, title, signature and account by its sha, which pull request a merge commit
//! merged and which commit a squashed pull request became; and how many commits the
//! busiest author made, how many are merges, unverified, unsigned, co-authored, signed
//! off, made by bots or by e-mails no account claims, and who authored most, which day
//! saw the most commits, which commit was authored earliest and which waited longest
//! between authoring and landing.

use serde_json::Value;

use super::{field, list};
use crate::question::Question;
use crate::questions_blind::{count, extreme, most_frequent};
use crate::record_questions::{end, lookup_one as lookup};

/// A commit's title: the first line of its message.
pub(super) fn title(c: &Value) -> String {
    field(c, "commit.message").lines().next().unwrap_or_default().to_owned()
}

/// Whether a commit merges a branch (has more than one parent).
pub(super) fn is_merge(c: &Value) -> bool {
    list(c, "parents").len() > 1
}

/// The pull request a commit landed (`#1234`): the one a merge commit merged, or the one
/// a squash merge's title ends with.
pub(super) fn pull_request(c: &Value) -> String {
    let t = title(c);
    if let Some(rest) = t.strip_prefix("Merge pull request ") {
        return rest.split_whitespace().next().unwrap_or_default().to_owned();
    }
    match t.rsplit_once("(#") {
        Some((_, n)) if n.ends_with(')') => format!("#{}", n.trim_end_matches(')')),
        _ => String::new(),
    }
}

/// The branch a merge commit merged (`user/branch`), or an empty string.
pub(super) fn merged_branch(c: &Value) -> String {
    title(c).split_once(" from ").map(|(_, b)| b.to_owned()).unwrap_or_default()
}

/// Seconds since 1970 of an ISO 8601 UTC time (`2025-12-31T14:15:16Z`).
pub(super) fn seconds(t: &str) -> Option<i64> {
    let n = |a: usize, b: usize| t.get(a..b)?.parse::<i64>().ok();
    let (y, m, d) = (n(0, 4)?, n(5, 7)?, n(8, 10)?);
    // Days from the civil date (Howard Hinnant's algorithm).
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d - 1;
    let days = era * 146_097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719_468;
    Some(days * 86_400 + n(11, 13)? * 3_600 + n(14, 16)? * 60 + n(17, 19)?)
}

pub(super) fn github_commits_questions(v: &Value) -> Vec<Option<Question>> {
    let commits = list(v, "");
    let sha = |c: &Value| field(c, "sha");
    let short = |c: &Value| sha(c).chars().take(7).collect::<String>();
    let with = |c: &Value, paths: &[&str]| Some([vec![sha(c)], paths.iter().map(|p| field(c, p)).collect()].concat());
    let sha_title = |c: &Value| Some(vec![sha(c), title(c)]);
    let authored = |c: &Value| with(c, &["commit.author.name", "commit.author.date"]);
    let title_author = |c: &Value| Some(vec![title(c), field(c, "commit.author.name")]);
    let first_parent = |c: &Value| with(c, &["parents[0].sha"]);
    let mut qs = vec![
        end(commits, 0, false, "What is the sha and title of the latest commit?", sha_title),
        end(commits, 0, false, "Who authored the latest commit, and when?", authored),
        end(commits, 0, false, "Who committed the latest commit, and when?", |c| {
            with(c, &["commit.committer.name", "commit.committer.date"])
        }),
        end(commits, 0, false, "Is the latest commit's signature verified, and why?", |c| {
            with(c, &["commit.verification.reason"])
        }),
        end(commits, 0, false, "What is the parent of the latest commit?", first_parent),
        end(commits, 1, false, "What is the title of the second commit, and who wrote it?", title_author),
        end(commits, 2, false, "What is the title of the third commit, and who wrote it?", title_author),
        end(commits, 3, false, "What is the sha of the fourth commit, and when was it committed?", |c| {
            with(c, &["commit.committer.date"])
        }),
        end(commits, 4, false, "What is the title of the fifth commit?", sha_title),
        end(commits, 0, true, "What is the sha and title of the oldest commit on this page?", sha_title),
        end(commits, 0, true, "Who authored the oldest commit on this page, and when?", authored),
        end(commits, 0, true, "Who committed the oldest commit on this page, and when?", |c| {
            with(c, &["commit.committer.name", "commit.committer.date"])
        }),
        end(commits, 0, true, "Is the oldest commit's signature verified, and why?", |c| {
            with(c, &["commit.verification.reason"])
        }),
        end(commits, 0, true, "What is the parent of the oldest commit on this page?", first_parent),
        end(commits, 1, true, "What is the title of the second to last commit, and who wrote it?", title_author),
        end(commits, 2, true, "What is the title of the third to last commit, and who wrote it?", title_author),
        end(commits, 3, true, "What is the sha of the fourth to last commit, and when was it committed?", |c| {
            with(c, &["commit.committer.date"])
        }),
        end(commits, 4, true, "What is the title of the fifth to last commit?", sha_title),
    ];
    for f in [0.15, 0.5, 0.85] {
        qs.push(lookup(commits, f, "Who authored commit {key}, and when?", short, |c| {
            Some(vec![field(c, "commit.author.name"), field(c, "commit.author.date")])
        }));
    }
    for f in [0.3, 0.7] {
        qs.push(lookup(commits, f, "What is the title of commit {key}?", sha, |c| Some(vec![title(c)])));
    }
    qs.push(lookup(commits, 0.6, "Is the signature of commit {key} verified?", short, |c| {
        Some(vec![field(c, "commit.verification.reason")])
    }));
    qs.push(lookup(commits, 0.4, "Which GitHub account authored commit {key}?", short, |c| {
        Some(vec![field(c, "author.login")])
    }));
    let merges: Vec<&Value> = commits.iter().filter(|c| is_merge(c)).collect();
    for f in [0.3, 0.8] {
        qs.push(lookup(
            &merges,
            f,
            "Which pull request did merge commit {key} merge, and from which branch?",
            |c| short(c),
            |c| Some(vec![pull_request(c), merged_branch(c)]),
        ));
    }
    let squashed: Vec<&Value> = commits.iter().filter(|c| !is_merge(c) && !pull_request(c).is_empty()).collect();
    for f in [0.45, 0.9] {
        qs.push(lookup(
            &squashed,
            f,
            "Which commit landed pull request {key}?",
            |c| pull_request(c),
            |c| Some(vec![sha(c)]),
        ));
    }
    // How many, and who or which stands out.
    let authors = most_frequent(commits.iter().map(|c| c["commit"]["author"]["name"].as_str().unwrap_or_default()));
    if let Some((n, name)) = authors.iter().max_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1))) {
        qs.push(Some(count(&format!("How many commits on this page did {name} author?"), &[name], *n, Some("author"))));
    }
    let message = |c: &Value| field(c, "commit.message");
    let tally = |keep: &dyn Fn(&Value) -> bool| commits.iter().filter(|c| keep(c)).count();
    let counted: [(&str, &[&str], usize, &str); 8] = [
        ("How many merge commits are on this page?", &["merge"], merges.len(), "parents"),
        (
            "How many commits are not verified?",
            &["unverified", "not verified"],
            tally(&|c| c["commit"]["verification"]["verified"] == false),
            "verification",
        ),
        (
            "How many commits are unsigned?",
            &["unsigned"],
            tally(&|c| c["commit"]["verification"]["reason"] == "unsigned"),
            "verification",
        ),
        (
            "How many commits have a Co-authored-by trailer?",
            &["Co-authored-by", "co-authored"],
            tally(&|c| message(c).contains("\nCo-authored-by: ")),
            "message",
        ),
        (
            "How many commits are signed off (Signed-off-by)?",
            &["Signed-off-by", "signed off"],
            tally(&|c| message(c).contains("\nSigned-off-by: ")),
            "message",
        ),
        ("How many commits were made by bots?", &["bot"], tally(&|c| c["author"]["type"] == "Bot"), "author"),
        (
            "How many commits have an author e-mail that no GitHub account is linked to?",
            &["unlinked", "no account"],
            tally(&|c| c["author"].is_null()),
            "author",
        ),
        (
            "How many commits did GitHub (web-flow) commit?",
            &["web-flow", "GitHub"],
            tally(&|c| field(c, "committer.login") == "web-flow"),
            "committer",
        ),
    ];
    for (q, labels, n, f) in counted {
        qs.push(Some(count(q, labels, n, Some(f))));
    }
    qs.push(extreme("Who authored the most commits on this page?", authors, true, Some("author")));
    let days = most_frequent(
        commits
            .iter()
            .map(|c| c["commit"]["committer"]["date"].as_str().unwrap_or_default().get(..10).unwrap_or_default()),
    );
    qs.push(extreme("On which day were the most of these commits committed?", days, true, Some("date")));
    let authored_at: Vec<(i64, String)> =
        commits.iter().filter_map(|c| Some((seconds(&field(c, "commit.author.date"))?, sha(c)))).collect();
    qs.push(extreme("Which commit on this page was authored earliest?", authored_at, false, Some("date")));
    let waited: Vec<(i64, String)> = commits
        .iter()
        .filter_map(|c| {
            let wait = seconds(&field(c, "commit.committer.date"))? - seconds(&field(c, "commit.author.date"))?;
            Some((wait, sha(c)))
        })
        .collect();
    qs.push(extreme(
        "Which commit waited longest between being authored and being committed?",
        waited,
        true,
        Some("date"),
    ));
    qs
}
