//! Questions about a Stack Overflow advanced search page: the first and the last
//! questions (title and id, score and views, answers, asker, tags) and the quota left;
//! a question's score and views, answers, asker and title by its id, and its id and score
//! by its title; and how many questions are answered, have an accepted answer, have no
//! answers, are closed, score below zero or carry the commonest other tag, and which is
//! the most viewed, highest or lowest scored, most answered, oldest, or asked by the
//! asker with the most reputation.

use serde_json::Value;

use super::{field, list, number};
use crate::question::Question;
use crate::questions_blind::{count, extreme, most_frequent};
use crate::record_questions::{end, lookup_one as lookup};

/// The tags of a question other than `searched`.
pub(super) fn other_tags<'v>(q: &'v Value, searched: &str) -> Vec<&'v str> {
    list(q, "tags").iter().filter_map(Value::as_str).filter(|t| *t != searched).collect()
}

/// The tag every question carries: the one the search was restricted to.
pub(super) fn searched_tag(items: &[Value]) -> String {
    let first = list(items.first().unwrap_or(&Value::Null), "tags");
    first
        .iter()
        .filter_map(Value::as_str)
        .find(|t| items.iter().all(|q| list(q, "tags").iter().any(|x| x == t)))
        .unwrap_or_default()
        .to_owned()
}

pub(super) fn stackexchange_questions(v: &Value) -> Vec<Option<Question>> {
    let items = list(v, "items");
    let id = |q: &Value| field(q, "question_id");
    let with = |q: &Value, paths: &[&str]| Some([vec![id(q)], paths.iter().map(|p| field(q, p)).collect()].concat());
    let titled = |q: &Value| with(q, &["title"]);
    let score_views = |q: &Value| with(q, &["score", "view_count"]);
    let mut qs = Vec::new();
    for from_end in [false, true] {
        let (first, second, third, fourth, fifth) = if from_end {
            ("last", "second to last", "third to last", "fourth to last", "fifth to last")
        } else {
            ("first", "second", "third", "fourth", "fifth")
        };
        qs.extend([
            end(items, 0, from_end, &format!("What is the title and id of the {first} question?"), titled),
            end(
                items,
                0,
                from_end,
                &format!("What score and how many views does the {first} question have?"),
                score_views,
            ),
            end(items, 0, from_end, &format!("How many answers does the {first} question have?"), |q| {
                with(q, &["answer_count"])
            }),
            end(items, 0, from_end, &format!("Who asked the {first} question?"), |q| with(q, &["owner.display_name"])),
            end(items, 0, from_end, &format!("What is the link to the {first} question?"), |q| {
                Some(vec![field(q, "link")])
            }),
            end(items, 1, from_end, &format!("What is the title and id of the {second} question?"), titled),
            end(items, 2, from_end, &format!("What is the title and id of the {third} question?"), titled),
            end(
                items,
                3,
                from_end,
                &format!("What score and how many views does the {fourth} question have?"),
                score_views,
            ),
            end(items, 4, from_end, &format!("What is the title and id of the {fifth} question?"), titled),
        ]);
    }
    let page = std::slice::from_ref(v);
    qs.push(end(page, 0, true, "How much API quota is left?", |v| {
        Some(vec![field(v, "quota_remaining"), field(v, "quota_max")])
    }));
    for f in [0.2, 0.6, 0.9] {
        qs.push(lookup(items, f, "What score and how many views does question {key} have?", id, |q| {
            Some(vec![field(q, "score"), field(q, "view_count")])
        }));
    }
    qs.push(lookup(items, 0.4, "How many answers does question {key} have, and is it answered?", id, |q| {
        Some(vec![field(q, "answer_count"), field(q, "is_answered")])
    }));
    qs.push(lookup(items, 0.75, "Who asked question {key}?", id, |q| Some(vec![field(q, "owner.display_name")])));
    qs.push(lookup(items, 0.5, "What is the title of question {key}?", id, |q| Some(vec![field(q, "title")])));
    qs.push(lookup(items, 0.55, "Which tags does question {key} carry?", id, |q| {
        Some(list(q, "tags").iter().map(crate::question::text).collect())
    }));
    let accepted: Vec<&Value> = items.iter().filter(|q| q.get("accepted_answer_id").is_some()).collect();
    qs.push(lookup(
        &accepted,
        0.65,
        "Which answer was accepted on question {key}?",
        |q: &&Value| id(q),
        |q| Some(vec![field(q, "accepted_answer_id")]),
    ));
    for f in [0.3, 0.8] {
        qs.push(lookup(
            items,
            f,
            "What is the id and score of the question titled \"{key}\"?",
            |q| field(q, "title"),
            |q| Some(vec![id(q), field(q, "score")]),
        ));
    }
    // How many, and which stands out.
    let tally = |keep: &dyn Fn(&Value) -> bool| items.iter().filter(|q| keep(q)).count();
    let counted: [(&str, &[&str], usize, &str); 6] = [
        (
            "How many of these questions are answered?",
            &["answered"],
            tally(&|q| q["is_answered"] == true),
            "is_answered",
        ),
        (
            "How many questions have an accepted answer?",
            &["accepted"],
            tally(&|q| q.get("accepted_answer_id").is_some()),
            "accepted_answer_id",
        ),
        (
            "How many questions have no answers at all?",
            &["no answers", "unanswered"],
            tally(&|q| number(q, "answer_count") == Some(0.0)),
            "answer_count",
        ),
        ("How many questions are closed?", &["closed"], tally(&|q| q.get("closed_date").is_some()), "closed_date"),
        (
            "How many questions have a negative score?",
            &["negative"],
            tally(&|q| number(q, "score").is_some_and(|s| s < 0.0)),
            "score",
        ),
        (
            "How many questions were asked by deleted users?",
            &["deleted", "does_not_exist"],
            tally(&|q| field(q, "owner.user_type") == "does_not_exist"),
            "owner",
        ),
    ];
    for (q, labels, n, f) in counted {
        qs.push(Some(count(q, labels, n, Some(f))));
    }
    let searched = searched_tag(items);
    let tags = most_frequent(items.iter().flat_map(|q| other_tags(q, &searched)));
    if let Some((n, tag)) = tags.iter().max_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1))) {
        qs.push(Some(count(&format!("How many questions are tagged {tag}?"), &[tag], *n, Some("tags"))));
    }
    let scored =
        |path: &str| -> Vec<(f64, String)> { items.iter().filter_map(|q| Some((number(q, path)?, id(q)))).collect() };
    qs.push(extreme("Which question has the most views?", scored("view_count"), true, Some("view_count")));
    qs.push(extreme("Which question has the highest score?", scored("score"), true, Some("score")));
    qs.push(extreme("Which question has the lowest score?", scored("score"), false, Some("score")));
    qs.push(extreme("Which question has the most answers?", scored("answer_count"), true, Some("answer_count")));
    qs.push(extreme("Which question was asked first?", scored("creation_date"), false, Some("creation_date")));
    qs.push(extreme(
        "Which question's asker has the most reputation?",
        scored("owner.reputation"),
        true,
        Some("reputation"),
    ));
    qs.push(extreme("Which tag other than the searched one is most common?", tags, true, Some("tags")));
    qs
}
