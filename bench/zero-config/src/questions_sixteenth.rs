//! The questions asked of the sixteenth part of the catalog: what a user of each service
//! or command asks of a result like it (who owns a task and when it is due, how much a
//! purchase was, which space a wiki page is in, which channel uploaded a talk, which disk
//! is failing, how busy a device was, which server is down, who logged in from where),
//! with records named from the middle and the end of the result as well as the head. The
//! answers are computed from the generated data, never written by hand.
//!
//! Text results (drive reports, timed device statistics, a CSV of proxy counters, an
//! authentication log) are first read into records of their drives, rows or lines, so
//! the same builders ask of them; their readers are in `questions_sixteenth_text.rs`.

use serde_json::Value;

use crate::question::{Kind, Question, Records, value};
use crate::questions_blind::{about, count, extreme, lines, most_frequent, only, scored_by, together};

#[path = "questions_sixteenth_text.rs"]
mod readers;

#[path = "questions_sixteenth_more.rs"]
mod more;

use more::{auth_questions, haproxy_questions, iostat_questions, smartctl_questions};

/// Every question about a sixteenth-part shape's JSON result; `None` for other shapes.
pub(crate) fn json_questions(name: &str, v: &Value) -> Option<Vec<Question>> {
    let list = |path: &str| value(v, path).and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    let qs = match name {
        "monday_items" => item_questions(list("data.boards[0].items_page.items")),
        "plaid_transactions" => transaction_questions(list("transactions")),
        "confluence_search" => wiki_questions(list("results")),
        "youtube_playlist_items" => playlist_questions(list("items")),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}

/// A string field as a score, for the latest or earliest of ISO times.
fn stamp(path: &'static str) -> impl Fn(&Value) -> Option<String> {
    move |x| Some(value(x, path)?.as_str()?.to_owned())
}

/// The text of the column `id` of a monday item (its position differs by board, so it is
/// found by id).
fn cell<'v>(x: &'v Value, id: &str) -> Option<&'v str> {
    x["column_values"].as_array()?.iter().find(|c| c["id"] == id)?["text"].as_str().filter(|t| !t.is_empty())
}

/// The path of the column `id`'s text in the items of `items`, by its position in the
/// first item.
fn column_path(items: &[Value], id: &str) -> String {
    let at = items
        .first()
        .and_then(|x| x["column_values"].as_array())
        .and_then(|cs| cs.iter().position(|c| c["id"] == id))
        .unwrap_or(0);
    format!("column_values[{at}].text")
}

/// monday items, in board order: the first and last item, an item's owner, status, due
/// date, group and estimate; how many items are at a status or priority, are in a group
/// or are stuck; who owns most items, the largest estimate and the item updated last.
fn item_questions(items: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: items };
    let (owner, status, priority, due, estimate) = (
        column_path(items, "person"),
        column_path(items, "status"),
        column_path(items, "priority"),
        column_path(items, "date4"),
        column_path(items, "numbers"),
    );
    let stuck = items.iter().filter(|x| cell(x, "status") == Some("Stuck")).count();
    vec![
        r.head("What is the first item on the board?", "name"),
        r.tail("What is the last item on this page?", "name"),
        r.lookup("Who owns \"{key}\"?", 0.6, "name", &owner),
        r.lookup("What is the status of \"{key}\"?", 0.3, "name", &status),
        r.lookup("When is \"{key}\" due?", 0.9, "name", &due),
        r.lookup("Which group is \"{key}\" in?", 0.45, "name", "group.title"),
        r.lookup("How many hours is \"{key}\" estimated at?", 0.75, "name", &estimate),
        about("Status", r.count("How many items have the status {value}?", &status, None)),
        about("Priority", r.count("How many items have {value} priority?", &priority, None)),
        about("group", r.count("How many items are in the group {value}?", "group.title", None)),
        (stuck > 0).then(|| count("How many items are stuck?", &["Stuck"], stuck, Some("Status"))),
        extreme(
            "Who owns the most items?",
            most_frequent(items.iter().filter_map(|x| cell(x, "person"))),
            true,
            Some("Owner"),
        ),
        about("Estimate (hrs)", r.extreme("Which item has the largest estimate?", &estimate, "name", true)),
        extreme(
            "Which item was updated most recently?",
            scored_by(items, stamp("updated_at"), "name"),
            true,
            Some("updated_at"),
        ),
    ]
}

/// Plaid transactions, newest first: the newest and the oldest transaction, a
/// transaction's amount, merchant, date and city; how many are pending, are in a category
/// or went through a channel; the largest online or in-store purchase, the merchant paid
/// most often and the largest sum coming in.
fn transaction_questions(txs: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: txs };
    let pending = txs.iter().filter(|x| x["pending"] == true).count();
    // Purchases, not rent, payroll or transfers (whose channel is `other`).
    let purchases = only(txs, |x| x["payment_channel"] == "online" || x["payment_channel"] == "in store");
    let pair = |x: &Value, a: &str, b: &str| {
        Some((value(x, a).map(crate::question::text)?, value(x, b).map(crate::question::text)?))
    };
    let newest = txs.first().and_then(|x| pair(x, "name", "amount")).map(|(n, a)| {
        together(Kind::Head, "What is the most recent transaction, and how much was it?".into(), None, &[&n, &a])
    });
    let oldest = txs.last().and_then(|x| pair(x, "name", "date")).map(|(n, d)| {
        together(
            Kind::Tail,
            "What is the oldest transaction on this page, and on what date did it post?".into(),
            None,
            &[&n, &d],
        )
    });
    vec![
        newest,
        oldest,
        r.lookup("How much was transaction {key}?", 0.6, "transaction_id", "amount"),
        r.lookup("Which merchant was transaction {key} with?", 0.3, "transaction_id", "merchant_name"),
        r.lookup("On what date did transaction {key} post?", 0.9, "transaction_id", "date"),
        r.lookup("In which city did transaction {key} happen?", 0.45, "transaction_id", "location.city"),
        Some(count("How many transactions are still pending?", &["pending"], pending, Some("pending"))),
        about(
            "personal_finance_category",
            r.count("How many transactions are in the {value} category?", "personal_finance_category.primary", None),
        ),
        about(
            "payment_channel",
            r.count("How many transactions have the payment channel \"{value}\"?", "payment_channel", None),
        ),
        about(
            "amount",
            Records { list: &purchases }.extreme(
                "Which purchase (online or in store) was the largest? Give its description.",
                "amount",
                "name",
                true,
            ),
        ),
        extreme(
            "Which merchant appears in the most transactions?",
            most_frequent(txs.iter().filter_map(|x| x["merchant_name"].as_str())),
            true,
            Some("merchant_name"),
        ),
        about(
            "amount",
            r.extreme(
                "Which transaction brought in the most money (the most negative amount)? Give its description.",
                "amount",
                "name",
                false,
            ),
        ),
    ]
}

/// Confluence search results, best first: the top and the last result, a result's space,
/// creator, last change, version and id; how many results are in a space or are blog
/// posts; the most edited result, the one changed last, the one created first and who
/// created most of them.
fn wiki_questions(results: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: results };
    let blogs = results.iter().filter(|x| x["content"]["type"] == "blogpost").count();
    vec![
        r.head("What is the title of the top search result?", "content.title"),
        r.tail("What is the title of the last result on this page?", "content.title"),
        r.lookup("Which space is \"{key}\" in?", 0.6, "content.title", "content.space.name"),
        r.lookup("Who created \"{key}\"?", 0.3, "content.title", "content.history.createdBy.displayName"),
        r.lookup("When was \"{key}\" last modified?", 0.9, "content.title", "lastModified"),
        r.lookup("Which version is \"{key}\" at?", 0.45, "content.title", "content.version.number"),
        r.lookup("What is the content ID of \"{key}\"?", 0.75, "content.title", "content.id"),
        about("space", r.count("How many results are in the {value} space?", "resultGlobalContainer.title", None)),
        (blogs > 0)
            .then(|| count("How many results are blog posts?", &["blogpost", "blog posts"], blogs, Some("type"))),
        about(
            "version",
            r.extreme(
                "Which result has the most versions? Give its title.",
                "content.version.number",
                "content.title",
                true,
            ),
        ),
        extreme(
            "Which result was modified most recently? Give its title.",
            scored_by(results, stamp("lastModified"), "content.title"),
            true,
            Some("lastModified"),
        ),
        extreme(
            "Which result was created longest ago? Give its title.",
            scored_by(results, stamp("content.history.createdDate"), "content.title"),
            false,
            Some("createdDate"),
        ),
        extreme(
            "Who created the most of these results?",
            most_frequent(results.iter().filter_map(|x| x["content"]["history"]["createdBy"]["displayName"].as_str())),
            true,
            Some("createdBy"),
        ),
    ]
}

/// YouTube playlist items, in playlist order: the first video and the last item's video,
/// a video's id, publication time, uploader and position; how many items are private or
/// deleted, were uploaded by a channel or have a privacy status; the newest and the oldest
/// video and the guest channel with most videos.
fn playlist_questions(items: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: items };
    let private = items.iter().filter(|x| x["snippet"]["title"] == "Private video").count();
    let deleted = items.iter().filter(|x| x["snippet"]["title"] == "Deleted video").count();
    let owner = items.first().and_then(|x| x["snippet"]["channelTitle"].as_str()).unwrap_or("");
    let guests = items.iter().filter_map(|x| x["snippet"]["videoOwnerChannelTitle"].as_str()).filter(|c| *c != owner);
    vec![
        r.head("What is the title of the first video in the playlist?", "snippet.title"),
        r.tail("What is the video ID of the last item on this page?", "snippet.resourceId.videoId"),
        r.lookup("What is the video ID of \"{key}\"?", 0.6, "snippet.title", "snippet.resourceId.videoId"),
        r.lookup("When was \"{key}\" published on YouTube?", 0.3, "snippet.title", "contentDetails.videoPublishedAt"),
        r.lookup("Which channel uploaded \"{key}\"?", 0.9, "snippet.title", "snippet.videoOwnerChannelTitle"),
        r.lookup("At what position in the playlist is \"{key}\"?", 0.45, "snippet.title", "snippet.position"),
        (private > 0)
            .then(|| count("How many items are private videos?", &["Private video", "private"], private, None)),
        (deleted > 0)
            .then(|| count("How many items are deleted videos?", &["Deleted video", "deleted"], deleted, None)),
        about(
            "videoOwnerChannelTitle",
            r.count("How many videos were uploaded by {value}?", "snippet.videoOwnerChannelTitle", None),
        ),
        about(
            "privacyStatus",
            r.count("How many items have the privacy status {value}?", "status.privacyStatus", None),
        ),
        extreme(
            "Which video in the playlist was published most recently? Give its title.",
            scored_by(items, stamp("contentDetails.videoPublishedAt"), "snippet.title"),
            true,
            Some("videoPublishedAt"),
        ),
        extreme(
            "Which video in the playlist was published earliest? Give its title.",
            scored_by(items, stamp("contentDetails.videoPublishedAt"), "snippet.title"),
            false,
            Some("videoPublishedAt"),
        ),
        extreme(
            &format!("Apart from {owner} itself, which channel has the most videos in the playlist?"),
            most_frequent(guests),
            true,
            Some("videoOwnerChannelTitle"),
        ),
    ]
}

/// Every question about a sixteenth-part shape's text result; `None` for other shapes.
pub(crate) fn text_questions(name: &str, t: &str) -> Option<Vec<Question>> {
    let ls = lines(t);
    let qs = match name {
        "smartctl_a" => smartctl_questions(&ls, t),
        "iostat_x" => iostat_questions(&ls),
        "haproxy_show_stat" => haproxy_questions(&ls),
        "auth_log" => auth_questions(&ls),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}

#[cfg(test)]
#[path = "questions_sixteenth_tests.rs"]
mod tests;
