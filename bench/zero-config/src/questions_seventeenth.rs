//! The questions asked of the seventeenth part of the catalog: what a user of each
//! service or command asks of a result like it (why a deploy failed, who opened a pull
//! request and how many comments it has, which café is closest, how often a paper was
//! cited, which release failed, which GPU runs hottest, how large a copied file was,
//! which statement is slowest), with records named from the middle and the end of the
//! result as well as the head. The answers are computed from the generated data, never
//! written by hand.
//!
//! Text results (a padded release table, a GPU report of nested sections, a transfer log
//! with progress lines, a psql table) are first read into records of their rows, GPUs or
//! files, so the same builders ask of them; their readers are in
//! `questions_seventeenth_text.rs`.

use serde_json::Value;

use crate::question::{Kind, Question, Records, text, value};
use crate::questions_blind::{about, count, extreme, lines, most_frequent, only, scored_by, together};

#[path = "questions_seventeenth_text.rs"]
mod readers;

#[path = "questions_seventeenth_more.rs"]
mod more;

use more::{helm_questions, nvidia_questions, pg_questions, rsync_questions};

/// Every question about a seventeenth-part shape's JSON result; `None` for other shapes.
pub(crate) fn json_questions(name: &str, v: &Value) -> Option<Vec<Question>> {
    let list = |path: &str| value(v, path).and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    let qs = match name {
        "netlify_deploys" => deploy_questions(list("")),
        "bitbucket_pull_requests" => pull_request_questions(list("values")),
        "yelp_business_search" => business_questions(list("businesses")),
        "openalex_works" => work_questions(list("results")),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}

/// A string field as a score, for the latest or earliest of ISO times.
fn stamp(path: &'static str) -> impl Fn(&Value) -> Option<String> {
    move |x| Some(value(x, path)?.as_str()?.to_owned())
}

/// Netlify deploys, newest first: the newest deploy's title, when the oldest
/// was created; a deploy's state, branch, build time, commit and error; how many deploys
/// errored, are of a context or were triggered by a committer; the slowest build, the
/// busiest branch besides `main` and the latest production publish.
fn deploy_questions(ds: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: ds };
    let errors = only(ds, |x| x["state"] == "error");
    vec![
        r.head("What is the title of the newest deploy?", "title"),
        r.tail("When was the oldest deploy on this page created?", "created_at"),
        r.lookup("What state is deploy {key} in?", 0.6, "id", "state"),
        r.lookup("Which branch was deploy {key} built from?", 0.3, "id", "branch"),
        r.lookup("How many seconds did deploy {key} take to build?", 0.9, "id", "deploy_time"),
        r.lookup("Which commit was deploy {key} built from?", 0.45, "id", "commit_ref"),
        Records { list: &errors }.lookup("Why did deploy {key} fail?", 0.7, "id", "error_message"),
        Some(count("How many deploys are in the error state?", &["error"], errors.len(), Some("state"))),
        about("context", r.count("How many deploys have the context {value}?", "context", None)),
        about("committer", r.count("How many deploys were triggered by {value}?", "committer", None)),
        about(
            "deploy_time",
            r.extreme("Which deploy took the longest to build? Give its id.", "deploy_time", "id", true),
        ),
        extreme(
            "Which branch other than main has the most deploys on this page?",
            most_frequent(ds.iter().filter_map(|x| x["branch"].as_str()).filter(|b| *b != "main")),
            true,
            Some("branch"),
        ),
        extreme(
            "Which deploy was published most recently? Give its id.",
            scored_by(ds, stamp("published_at"), "id"),
            true,
            Some("published_at"),
        ),
    ]
}

/// Bitbucket pull requests, newest first: the newest one's title, the last one's id and
/// title; a pull request's author, source branch, comments, state and target; how many
/// are in a state or target a branch; the most discussed one, the author of most and the
/// oldest still open.
fn pull_request_questions(prs: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: prs };
    let open = only(prs, |x| x["state"] == "OPEN");
    let last = prs.last().and_then(|x| {
        let (id, title) = (value(x, "id").map(text)?, value(x, "title").map(text)?);
        Some(together(
            Kind::Tail,
            "Which pull request is the last on this page? Give its id and title.".into(),
            None,
            &[&id, &title],
        ))
    });
    vec![
        r.head("What is the title of the newest pull request?", "title"),
        last,
        r.lookup("Who opened the pull request \"{key}\"?", 0.6, "title", "author.display_name"),
        r.lookup("Which branch is \"{key}\" merging from?", 0.3, "title", "source.branch.name"),
        r.lookup("How many comments does \"{key}\" have?", 0.9, "title", "comment_count"),
        r.lookup("What state is \"{key}\" in?", 0.45, "title", "state"),
        r.lookup("Which branch does \"{key}\" target?", 0.75, "title", "destination.branch.name"),
        about("state", r.count("How many pull requests are {value}?", "state", None)),
        about(
            "destination",
            r.count("How many pull requests target the branch {value}?", "destination.branch.name", None),
        ),
        about(
            "comment_count",
            r.extreme("Which pull request has the most comments? Give its title.", "comment_count", "title", true),
        ),
        extreme(
            "Who authored the most pull requests on this page?",
            most_frequent(prs.iter().filter_map(|x| x["author"]["display_name"].as_str())),
            true,
            Some("author"),
        ),
        extreme(
            "Which open pull request was created longest ago? Give its title.",
            scored_by(&open, stamp("created_on"), "title"),
            false,
            Some("created_on"),
        ),
    ]
}

/// Yelp businesses, best match first: the top result, the last result's address; a
/// business's rating, phone, review count, street address and price; how many are at a
/// price level, in a category or open now; the most reviewed, the nearest and the
/// farthest.
fn business_questions(bs: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: bs };
    let open_now = bs.iter().filter(|x| x["business_hours"][0]["is_open_now"] == true).count();
    vec![
        r.head("Which business is the top result?", "name"),
        r.tail("What is the street address of the last business on this page?", "location.address1"),
        r.lookup("What is the rating of {key}?", 0.6, "name", "rating"),
        r.lookup("What is the phone number of {key}?", 0.3, "name", "display_phone"),
        r.lookup("How many reviews does {key} have?", 0.9, "name", "review_count"),
        r.lookup("What is the street address of {key}?", 0.45, "name", "location.address1"),
        r.lookup("What price level is {key}?", 0.75, "name", "price"),
        about("price", r.count("How many businesses have the price level {value}?", "price", None)),
        about("categories", r.count("How many businesses are in the category {value}?", "categories[].title", None)),
        Some(count("How many businesses are open now?", &["is_open_now", "open now"], open_now, Some("is_open_now"))),
        about("review_count", r.extreme("Which business has the most reviews?", "review_count", "name", true)),
        about("distance", r.extreme("Which business is nearest to the search centre?", "distance", "name", false)),
        about("distance", r.extreme("Which business is farthest from the search centre?", "distance", "name", true)),
    ]
}

/// OpenAlex works, by relevance: the top result's title, the last result's DOI; a work's
/// year, source, citations, first author and DOI; how many are open access, of a type or
/// of an open-access status; the most cited, the earliest published, the one with most
/// authors and the one citing most works.
fn work_questions(ws: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: ws };
    let oa = ws.iter().filter(|x| x["open_access"]["is_oa"] == true).count();
    vec![
        r.head("What is the title of the top result?", "title"),
        r.tail("What is the DOI of the last result on this page?", "doi"),
        r.lookup("In what year was \"{key}\" published?", 0.6, "title", "publication_year"),
        r.lookup("Where was \"{key}\" published?", 0.3, "title", "primary_location.source.display_name"),
        r.lookup("How many times has \"{key}\" been cited?", 0.9, "title", "cited_by_count"),
        r.lookup("Who is the first author of \"{key}\"?", 0.45, "title", "authorships[0].author.display_name"),
        r.lookup("What is the DOI of \"{key}\"?", 0.75, "title", "doi"),
        Some(count("How many results are open access?", &["is_oa", "open access"], oa, Some("is_oa"))),
        about("type", r.count("How many results are of type {value}?", "type", None)),
        about(
            "oa_status",
            r.count("How many results have the open-access status {value}?", "open_access.oa_status", None),
        ),
        about(
            "cited_by_count",
            r.extreme("Which work has been cited the most? Give its title.", "cited_by_count", "title", true),
        ),
        extreme(
            "Which work was published earliest? Give its title.",
            scored_by(ws, stamp("publication_date"), "title"),
            false,
            Some("publication_date"),
        ),
        extreme(
            "Which work has the most authors? Give its title.",
            scored_by(ws, |x| x["authorships"].as_array().map(Vec::len), "title"),
            true,
            Some("authorships"),
        ),
        about(
            "referenced_works_count",
            r.extreme(
                "Which work references the most other works? Give its title.",
                "referenced_works_count",
                "title",
                true,
            ),
        ),
    ]
}

/// Every question about a seventeenth-part shape's text result; `None` for other shapes.
pub(crate) fn text_questions(name: &str, t: &str) -> Option<Vec<Question>> {
    let ls = lines(t);
    let qs = match name {
        "helm_list" => helm_questions(&ls),
        "nvidia_smi_q" => nvidia_questions(&ls, t),
        "rsync_progress" => rsync_questions(&ls, t),
        "pg_stat_statements" => pg_questions(&ls),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}

#[cfg(test)]
#[path = "questions_seventeenth_tests.rs"]
mod tests;
