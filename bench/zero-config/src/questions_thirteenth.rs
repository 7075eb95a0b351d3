//! The questions asked of the thirteenth part of the catalog: what a user of each service
//! or command asks of a result like it (when a card is due and who works on it, what a
//! payment came to and which card paid, a droplet's address and size, when someone joined
//! a meeting and how long they stayed, which process the OOM killer ended, who last
//! changed a line, what a compiler warning says, when a certificate expires), with
//! records named from the middle and the end of the result as well as the head. The
//! answers are computed from the generated data, never written by hand.
//!
//! Text results (a kernel log, a blame, a build's output, a list of certificates) are
//! first read into records of their lines, diagnostics or stanzas, so the same builders
//! ask of them; their readers are in `questions_thirteenth_text.rs`.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use crate::question::{Question, Records, value};
use crate::questions_blind::{about, count, extreme, lines, only, scored_by};

#[path = "questions_thirteenth_text.rs"]
mod readers;

#[path = "questions_thirteenth_more.rs"]
mod more;

use more::{blame_questions, cargo_questions, certbot_questions, dmesg_questions};

/// Every question about a thirteenth-part shape's JSON result; `None` for other shapes.
pub(crate) fn json_questions(name: &str, v: &Value) -> Option<Vec<Question>> {
    let list = |path: &str| value(v, path).and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    let qs = match name {
        "trello_cards" => card_questions(v.as_array().map_or(&[][..], Vec::as_slice)),
        "square_payments" => payment_questions(list("payments")),
        "digitalocean_droplets" => droplet_questions(list("droplets")),
        "zoom_participants" => participant_questions(list("participants")),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}

/// The number of elements of the array at `field` of `x`.
fn len_of(x: &Value, field: &str) -> usize {
    x[field].as_array().map_or(0, Vec::len)
}

/// A string field as a score, for the latest or earliest of ISO times.
fn stamp(field: &'static str) -> impl Fn(&Value) -> Option<String> {
    move |x| Some(x[field].as_str()?.to_owned())
}

/// Trello cards of a board, list by list: when a card is due, who works on it, its link
/// and label, how many cards carry a label or a member or are done, the most discussed
/// card, the one worked on last and the open card due soonest.
fn card_questions(cards: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: cards };
    let due = only(cards, |x| x["due"].is_string());
    let one_member = only(cards, |x| len_of(x, "members") == 1);
    let one_label = only(cards, |x| len_of(x, "labels") == 1);
    let open_due = only(cards, |x| x["due"].is_string() && x["dueComplete"] == false);
    let done = cards.iter().filter(|x| x["dueComplete"] == true).count();
    vec![
        r.head("Which card is at the top of the board?", "name"),
        r.tail("Which card is at the bottom of the last list?", "name"),
        Records { list: &due }.lookup("When is \"{key}\" due?", 0.6, "name", "due"),
        Records { list: &one_member }.lookup("Who is working on \"{key}\"?", 0.3, "name", "members[0].fullName"),
        r.lookup("What is the link to the card \"{key}\"?", 0.9, "name", "shortUrl"),
        Records { list: &one_label }.lookup("Which label does \"{key}\" have?", 0.45, "name", "labels[0].name"),
        about("name", r.count("How many cards are labelled {value}?", "labels[].name", None)),
        about("fullName", r.count("How many cards is {value} a member of?", "members[].fullName", None)),
        Some(count("How many cards have their due date marked complete?", &["dueComplete"], done, Some("dueComplete"))),
        about("comments", r.extreme("Which card has the most comments?", "badges.comments", "name", true)),
        extreme(
            "Which card was worked on most recently?",
            scored_by(cards, stamp("dateLastActivity"), "name"),
            true,
            Some("dateLastActivity"),
        ),
        extreme("Which open card is due soonest?", scored_by(&open_due, stamp("due"), "name"), false, Some("due")),
    ]
}

/// Square payments, newest first: what a receipt came to, which card paid, the tip, why a
/// payment was declined, how many were by a card brand, in cash, at a location or failed,
/// and the largest payment and tip.
fn payment_questions(payments: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: payments };
    let cards = only(payments, |x| x["card_details"].is_object());
    let tipped = only(payments, |x| x["tip_money"].is_object());
    let failed = only(payments, |x| x["status"] == "FAILED");
    let cash = payments.iter().filter(|x| x["source_type"] == "CASH").count();
    vec![
        r.head("What is the receipt number of the most recent payment?", "receipt_number"),
        r.tail("When was the oldest payment on this page taken?", "created_at"),
        r.lookup(
            "How much was charged in total on receipt {key}, in cents?",
            0.6,
            "receipt_number",
            "total_money.amount",
        ),
        Records { list: &cards }.lookup(
            "What are the last four digits of the card that paid receipt {key}?",
            0.3,
            "receipt_number",
            "card_details.card.last_4",
        ),
        Records { list: &tipped }.lookup(
            "How much was the tip on receipt {key}, in cents?",
            0.9,
            "receipt_number",
            "tip_money.amount",
        ),
        Records { list: &failed }.lookup("Why was payment {key} declined?", 0.5, "id", "card_details.errors[0].code"),
        about(
            "card_brand",
            Records { list: &cards }.count(
                "How many payments were made with a {value} card?",
                "card_details.card.card_brand",
                None,
            ),
        ),
        Some(count("How many payments were paid in cash?", &["CASH", "cash"], cash, Some("source_type"))),
        about("location_id", r.count("How many payments were taken at location {value}?", "location_id", None)),
        (!failed.is_empty())
            .then(|| count("How many payments failed?", &["FAILED", "failed"], failed.len(), Some("status"))),
        about(
            "amount",
            r.extreme(
                "Which payment was the largest? Give its receipt number.",
                "total_money.amount",
                "receipt_number",
                true,
            ),
        ),
        about(
            "tip_money",
            Records { list: &tipped }.extreme(
                "Which payment had the biggest tip? Give its receipt number.",
                "tip_money.amount",
                "receipt_number",
                true,
            ),
        ),
    ]
}

/// DigitalOcean droplets, oldest first: a droplet's addresses, size and region, how many
/// are in a region, carry a tag or are off, and the most expensive, the newest and the one
/// with most volumes.
fn droplet_questions(droplets: &[Value]) -> Vec<Option<Question>> {
    let address = |d: &Value, kind: &str| {
        d["networks"]["v4"].as_array()?.iter().find(|n| n["type"] == kind).map(|n| n["ip_address"].clone())
    };
    let rows: Vec<Value> = droplets
        .iter()
        .map(|d| {
            json!({
                "name": d["name"],
                "public": address(d, "public"),
                "private": address(d, "private"),
                "size": d["size_slug"],
                "region": d["region"]["slug"],
                "status": d["status"],
                "created": d["created_at"],
                "price": d["size"]["price_monthly"],
                "volumes": len_of(d, "volume_ids"),
            })
        })
        .collect();
    let r = Records { list: droplets };
    let rs = Records { list: &rows };
    let off = rows.iter().filter(|x| x["status"] == "off").count();
    vec![
        r.head("Which droplet is listed first?", "name"),
        r.tail("Which droplet is listed last?", "name"),
        rs.lookup("What is the public IP address of {key}?", 0.6, "name", "public"),
        rs.lookup("Which size is {key}?", 0.3, "name", "size"),
        rs.lookup("Which region is {key} in?", 0.9, "name", "region"),
        rs.lookup("What is the private IP address of {key}?", 0.45, "name", "private"),
        about("slug", rs.count("How many droplets are in {value}?", "region", None)),
        about("tags", r.count("How many droplets are tagged {value}?", "tags[]", None)),
        Some(count("How many droplets are switched off?", &["off"], off, Some("status"))),
        about("price_monthly", rs.extreme("Which droplet costs the most per month?", "price", "name", true)),
        extreme(
            "Which droplet was created most recently?",
            scored_by(&rows, stamp("created"), "name"),
            true,
            Some("created_at"),
        ),
        about("volume_ids", rs.extreme("Which droplet has the most volumes attached?", "volumes", "name", true)),
    ]
}

/// A Zoom participant report in join order: when someone joined or left, how long they
/// stayed, their email, how many waited in the waiting room, joined with a staff address
/// or rejoined, who spent the longest and the least time in the meeting, who left first.
fn participant_questions(rows: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: rows };
    let meeting = only(rows, |x| x["status"] == "in_meeting");
    let waiting = rows.iter().filter(|x| x["status"] == "in_waiting_room").count();
    let staff =
        rows.iter().filter(|x| x["user_email"].as_str().is_some_and(|e| e.ends_with("@northwind.example"))).count();
    // Per person: time in the meeting, sessions, when they last left.
    let mut per: BTreeMap<&str, (i64, usize, &str)> = BTreeMap::new();
    for x in &meeting {
        if let (Some(name), Some(left)) = (x["name"].as_str(), x["leave_time"].as_str()) {
            let e = per.entry(name).or_default();
            e.0 += x["duration"].as_i64().unwrap_or(0);
            e.1 += 1;
            e.2 = e.2.max(left);
        }
    }
    let rejoined = per.values().filter(|p| p.1 > 1).count();
    let stayed = || per.iter().map(|(n, p)| (p.0, (*n).to_owned())).collect::<Vec<_>>();
    let left: Vec<(&str, String)> = per.iter().map(|(n, p)| (p.2, (*n).to_owned())).collect();
    vec![
        r.head("Who joined the meeting first?", "name"),
        r.tail("Who is the last participant on this page of the report?", "name"),
        r.lookup("When did {key} join?", 0.6, "name", "join_time"),
        r.lookup("How long was {key} in the meeting, in seconds?", 0.3, "name", "duration"),
        r.lookup("What is {key}'s email address?", 0.9, "name", "user_email"),
        r.lookup("When did {key} leave?", 0.45, "name", "leave_time"),
        Some(count(
            "How many participants waited in the waiting room?",
            &["in_waiting_room", "waiting room"],
            waiting,
            Some("status"),
        )),
        Some(count(
            "How many participants joined with a northwind.example email address?",
            &["northwind.example"],
            staff,
            Some("user_email"),
        )),
        Some(count("How many people dropped out and rejoined?", &["rejoined", "rejoins"], rejoined, Some("name"))),
        extreme("Who spent the longest time in the meeting?", stayed(), true, Some("duration")),
        extreme("Who spent the least time in the meeting?", stayed(), false, Some("duration")),
        extreme("Who left the meeting first?", left, false, Some("leave_time")),
    ]
}

/// Every question about a thirteenth-part shape's text result; `None` for other shapes.
pub(crate) fn text_questions(name: &str, t: &str) -> Option<Vec<Question>> {
    let ls = lines(t);
    let qs = match name {
        "dmesg_t" => dmesg_questions(&ls),
        "git_blame" => blame_questions(&ls),
        "cargo_build" => cargo_questions(&ls),
        "certbot_certificates" => certbot_questions(&ls),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}

#[cfg(test)]
#[path = "questions_thirteenth_tests.rs"]
mod tests;
