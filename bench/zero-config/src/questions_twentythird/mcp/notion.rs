//! Questions about a Notion page's block children: the first blocks (the newest
//! meeting's heading, attendees, callout and agenda) and the last ones (the oldest
//! meeting's heading, action items and decision, the cursor to the next page); what a
//! block says by its id, whether an action item is done, a code block's language, who
//! wrote a block, a child page's title and a table row's cells; and how many to-dos are
//! open or done, how many code blocks, meetings, bullets, dividers, child pages, table
//! rows and blocks with children there are, which language is pasted most, who wrote and
//! edited the most blocks, which meeting is the longest and has the most open items.

use serde_json::Value;

use super::{end, find, list};
use crate::question::{Question, text};
use crate::questions_blind::{count, extreme, most_frequent};

fn s(v: &Value, field: &str) -> Option<String> {
    v.get(field).map(text).filter(|s| !s.is_empty())
}

/// A block's type.
fn ty(b: &Value) -> &str {
    b["type"].as_str().unwrap_or_default()
}

/// The texts of a block as its runs write them (a mention reads `@Name`), without the
/// separators between them; a child page's title; a table row's cells.
pub(super) fn runs(b: &Value) -> Vec<String> {
    let body = &b[ty(b)];
    if let Some(title) = body["title"].as_str() {
        return vec![title.to_owned()];
    }
    let rich: Vec<&Value> = match body["cells"].as_array() {
        Some(cells) => cells.iter().filter_map(Value::as_array).flatten().collect(),
        None => body["rich_text"].as_array().map_or_else(Vec::new, |r| r.iter().collect()),
    };
    rich.iter()
        .filter_map(|r| r["plain_text"].as_str())
        .map(|t| t.trim().trim_end_matches(',').trim().to_owned())
        .filter(|t| t.chars().any(char::is_alphanumeric))
        .collect()
}

/// The first run of a block, what a user quotes it by.
fn first_run(b: &Value) -> Option<String> {
    runs(b).into_iter().next()
}

pub(super) fn notion_questions(v: &Value) -> Vec<Option<Question>> {
    let blocks = list(v, "results");
    let of = |t: &str| blocks.iter().filter(|b| ty(b) == t).cloned().collect::<Vec<_>>();
    let (todos, h1, h3, bullets, numbered) =
        (of("to_do"), of("heading_1"), of("heading_3"), of("bulleted_list_item"), of("numbered_list_item"));
    let decisions: Vec<Value> = of("callout").into_iter().filter(|b| b["callout"]["icon"]["emoji"] == "✅").collect();
    let said = |b: &Value| Some(runs(b)).filter(|r| !r.is_empty());
    let todo = |b: &Value| {
        let mut r = runs(b);
        r.push(text(&b["to_do"]["checked"]));
        Some(r)
    };
    let mut qs = vec![
        end(blocks, 0, false, "What does the first block say, and what type is it?", |b| {
            let mut r = runs(b);
            r.push(s(b, "type")?);
            Some(r)
        }),
        end(blocks, 0, false, "What is the id of the first block?", |b| Some(vec![s(b, "id")?])),
        end(blocks, 0, false, "When was the first block created?", |b| Some(vec![s(b, "created_time")?])),
        end(blocks, 1, false, "Who attended the most recent meeting (the second block)?", said),
        end(blocks, 1, false, "What is the id of the second block?", |b| Some(vec![s(b, "id")?])),
        end(blocks, 2, false, "What does the third block (the first callout) say?", said),
        end(&numbered, 0, false, "What is the first agenda item?", said),
        end(&numbered, 1, false, "What is the second agenda item?", said),
        end(&h3, 0, false, "What is the first topic heading (heading_3)?", said),
        end(&bullets, 0, false, "What does the first bullet say?", said),
        end(blocks, 0, true, "What type is the last block, and what is its id?", |b| {
            Some(vec![s(b, "type")?, s(b, "id")?])
        }),
        end(blocks, 0, true, "When was the last block created?", |b| Some(vec![s(b, "created_time")?])),
        end(&h1, 0, true, "What is the last heading_1 on the page?", said),
        end(&todos, 0, true, "What is the last to-do item, and is it checked?", todo),
        end(&todos, 1, true, "What is the second to last to-do item, and is it checked?", todo),
        end(&decisions, 0, true, "What did the oldest meeting on the page decide (its last decision callout)?", said),
        end(&h3, 0, true, "What is the last topic heading (heading_3)?", said),
        end(&numbered, 0, true, "What is the last agenda item?", said),
        end(&bullets, 0, true, "What does the last bullet say?", said),
    ];
    if let Some(cursor) = v["next_cursor"].as_str() {
        qs.push(end(&[v], 0, true, "Is there another page of blocks, and what is its cursor?", |_| {
            Some(vec![cursor.to_owned()])
        }));
    }
    // Blocks by id, to-dos by their text.
    let with_text: Vec<Value> = blocks.iter().filter(|b| !runs(b).is_empty()).cloned().collect();
    let id = |b: &Value| s(b, "id");
    for f in [0.1, 0.3, 0.5, 0.7, 0.9] {
        qs.push(find(&with_text, f, "What does block {key} say?", id, said));
    }
    for f in [0.3, 0.7] {
        qs.push(find(&todos, f, "Is the to-do \"{key}\" checked?", first_run, |b| {
            Some(vec![text(&b["to_do"]["checked"])])
        }));
    }
    let code = of("code");
    qs.push(find(&code, 0.5, "Which language is the code block {key} in?", id, |b| {
        Some(vec![s(&b["code"], "language")?])
    }));
    qs.push(find(blocks, 0.6, "Who (user id) created block {key}?", id, |b| Some(vec![s(&b["created_by"], "id")?])));
    qs.push(find(&of("child_page"), 0.5, "What is the title of the child page {key}?", id, said));
    qs.push(find(&of("table_row"), 0.5, "What does table row {key} hold?", id, said));
    // How many.
    let checked = todos.iter().filter(|b| b["to_do"]["checked"] == true).count();
    qs.push(Some(count(
        "How many to-do items are unchecked?",
        &["unchecked", "not done", "open"],
        todos.len() - checked,
        Some("checked"),
    )));
    qs.push(Some(count("How many to-do items are checked?", &["checked", "done"], checked, Some("checked"))));
    for (t, q, labels) in [
        ("code", "How many code blocks are there?", &["code"][..]),
        ("heading_1", "How many meetings (heading_1 blocks) are on the page?", &["heading_1", "meetings"]),
        ("bulleted_list_item", "How many bulleted list items are there?", &["bulleted_list_item", "bullets"]),
        ("divider", "How many dividers are there?", &["divider", "dividers"]),
        ("table_row", "How many table rows are there?", &["table_row", "rows"]),
    ] {
        qs.push(Some(count(q, labels, of(t).len(), Some("type"))));
    }
    let parents = blocks.iter().filter(|b| b["has_children"] == true).count();
    qs.push(Some(count("How many blocks have children?", &["has_children"], parents, Some("has_children"))));
    qs.push(Some(count(
        "How many blocks are in this page of results?",
        &["blocks", "results"],
        blocks.len(),
        Some("results"),
    )));
    // Which holds the most.
    qs.push(extreme(
        "Which language is used most in code blocks?",
        most_frequent(code.iter().filter_map(|b| b["code"]["language"].as_str())),
        true,
        Some("language"),
    ));
    qs.push(extreme(
        "Which user (id) created the most blocks?",
        most_frequent(blocks.iter().filter_map(|b| b["created_by"]["id"].as_str())),
        true,
        Some("created_by"),
    ));
    qs.push(extreme(
        "Which user (id) last edited the most blocks?",
        most_frequent(blocks.iter().filter_map(|b| b["last_edited_by"]["id"].as_str())),
        true,
        Some("last_edited_by"),
    ));
    // Each meeting runs from its heading_1 to the next.
    let mut meetings: Vec<(String, usize, usize)> = Vec::new();
    for b in blocks {
        if ty(b) == "heading_1" {
            meetings.push((first_run(b).unwrap_or_default(), 0, 0));
        }
        if let Some(m) = meetings.last_mut() {
            m.1 += 1;
            m.2 += usize::from(ty(b) == "to_do" && b["to_do"]["checked"] == false);
        }
    }
    qs.push(extreme(
        "Which meeting (heading_1) has the most blocks?",
        meetings.iter().map(|m| (m.1, m.0.clone())).collect(),
        true,
        Some("heading_1"),
    ));
    qs.push(extreme(
        "Which meeting (heading_1) has the most unchecked to-dos?",
        meetings.iter().map(|m| (m.2, m.0.clone())).collect(),
        true,
        Some("checked"),
    ));
    qs
}
