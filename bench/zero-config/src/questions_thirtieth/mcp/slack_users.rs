//! Questions about a Slack member list: the first members (Slackbot's id, the workspace,
//! the founder's title and time zone, the next people's names, handles and e-mails) and
//! the last ones (names, ids, e-mails, titles, and the cursor and cache time that close
//! the page); a person's title or e-mail by name, time zone by handle, name by id, status
//! and phone by name, handle by e-mail; and how many members are admins, owners, bots,
//! deactivated, guests or single-channel guests, how many sit in the two commonest time
//! zones, and which time zone is commonest or furthest east, whose profile changed last
//! or longest ago, and which title is most common.

use serde_json::Value;

use super::{field, list, number};
use crate::question::Question;
use crate::questions_blind::{count, extreme, most_frequent};
use crate::record_questions::{ORDINALS, end, lookup_one as lookup, to_last};

/// A member's full name (deactivated members keep it only in their profile).
pub(super) fn full_name(m: &Value) -> String {
    field(m, "profile.real_name")
}

/// Whether a member is a person: not a bot, not Slackbot.
pub(super) fn is_person(m: &Value) -> bool {
    m["is_bot"] != true && field(m, "id") != "USLACKBOT"
}

pub(super) fn slack_users_questions(v: &Value) -> Vec<Option<Question>> {
    let members = list(v, "members");
    let with = |m: &Value, paths: &[&str]| Some(paths.iter().map(|p| field(m, p)).collect::<Vec<_>>());
    let named =
        |m: &Value, paths: &[&str]| Some([vec![full_name(m)], paths.iter().map(|p| field(m, p)).collect()].concat());
    let mut qs = vec![
        end(members, 0, false, "What is the id and handle of the first member listed?", |m| with(m, &["id", "name"])),
        end(members, 0, false, "Which workspace (team id) do these members belong to?", |m| with(m, &["team_id"])),
        end(members, 1, false, "Who is the second member listed, and what is their handle?", |m| named(m, &["name"])),
        end(members, 1, false, "What is the second member's job title?", |m| named(m, &["profile.title"])),
        end(members, 1, false, "Which time zone is the second member in?", |m| named(m, &["tz", "tz_label"])),
        end(members, 2, false, "When was the third member's profile last updated?", |m| with(m, &["name", "updated"])),
    ];
    for (k, ordinal) in ORDINALS.iter().enumerate().take(4).skip(2) {
        qs.push(end(
            members,
            k,
            false,
            &format!("Who is the {ordinal} member listed, and what is their e-mail?"),
            |m| named(m, &["profile.email"]),
        ));
    }
    for (k, ordinal) in ORDINALS.iter().enumerate().take(7).skip(4) {
        qs.push(end(
            members,
            k,
            false,
            &format!("Who is the {ordinal} member listed, and what is their handle?"),
            |m| named(m, &["name"]),
        ));
    }
    let page = std::slice::from_ref(v);
    qs.extend([
        end(members, 0, true, "Who is the last member on this page, and what is their handle?", |m| {
            named(m, &["name"])
        }),
        end(members, 0, true, "What is the Slack id of the last member on this page?", |m| named(m, &["id"])),
        end(members, 0, true, "What is the e-mail of the last member on this page?", |m| named(m, &["profile.email"])),
        end(members, 0, true, "What is the job title of the last member on this page?", |m| {
            named(m, &["profile.title"])
        }),
        end(members, 1, true, "What is the e-mail of the second to last member?", |m| named(m, &["profile.email"])),
        end(members, 1, true, "What is the Slack id of the second to last member?", |m| named(m, &["id"])),
        end(page, 0, true, "What cursor fetches the next page of members?", |p| {
            with(p, &["response_metadata.next_cursor"])
        }),
        end(page, 0, true, "When was this member list cached (cache_ts)?", |p| with(p, &["cache_ts"])),
    ]);
    for k in 1..5 {
        qs.push(end(
            members,
            k,
            true,
            &format!("Who is the {} member on this page, and what is their handle?", to_last(k)),
            |m| named(m, &["name"]),
        ));
    }
    // Lookups from anywhere in the page.
    for f in [0.2, 0.55, 0.85] {
        qs.push(lookup(members, f, "What is {key}'s job title?", full_name, |m| Some(vec![field(m, "profile.title")])));
    }
    for f in [0.35, 0.7] {
        qs.push(lookup(
            members,
            f,
            "Which time zone is {key} in?",
            |m| field(m, "name"),
            |m| Some(vec![field(m, "tz")]),
        ));
    }
    for f in [0.45, 0.9] {
        qs.push(lookup(members, f, "What is {key}'s e-mail address?", full_name, |m| {
            Some(vec![field(m, "profile.email")])
        }));
    }
    qs.push(lookup(
        members,
        0.6,
        "Who has the Slack id {key}?",
        |m| field(m, "id"),
        |m| Some(vec![full_name(m), field(m, "name")]),
    ));
    qs.push(lookup(
        members,
        0.3,
        "Which member has the e-mail address {key}?",
        |m| field(m, "profile.email"),
        |m| Some(vec![field(m, "name")]),
    ));
    let with_status: Vec<&Value> = members.iter().filter(|m| !field(m, "profile.status_text").is_empty()).collect();
    qs.push(lookup(
        &with_status,
        0.5,
        "What status has {key} set?",
        |m| full_name(m),
        |m| Some(vec![field(m, "profile.status_text"), field(m, "profile.status_emoji")]),
    ));
    let with_phone: Vec<&Value> = members.iter().filter(|m| !field(m, "profile.phone").is_empty()).collect();
    qs.push(lookup(
        &with_phone,
        0.5,
        "What is {key}'s phone number?",
        |m| full_name(m),
        |m| Some(vec![field(m, "profile.phone")]),
    ));
    // How many, and which stands out.
    let tally = |keep: &dyn Fn(&Value) -> bool| members.iter().filter(|m| keep(m)).count();
    let counted: [(&str, &[&str], usize, &str); 6] = [
        (
            "How many members are workspace admins?",
            &["admin", "is_admin"],
            tally(&|m| m["is_admin"] == true),
            "is_admin",
        ),
        (
            "How many members are workspace owners?",
            &["owner", "is_owner"],
            tally(&|m| m["is_owner"] == true),
            "is_owner",
        ),
        ("How many bot users are there?", &["bot", "is_bot"], tally(&|m| m["is_bot"] == true), "is_bot"),
        ("How many members are deactivated?", &["deactivated", "deleted"], tally(&|m| m["deleted"] == true), "deleted"),
        (
            "How many members are guests?",
            &["guest", "is_restricted"],
            tally(&|m| m["is_restricted"] == true),
            "is_restricted",
        ),
        (
            "How many members are single-channel guests?",
            &["single-channel guest", "is_ultra_restricted"],
            tally(&|m| m["is_ultra_restricted"] == true),
            "is_ultra_restricted",
        ),
    ];
    for (q, labels, n, f) in counted {
        qs.push(Some(count(q, labels, n, Some(f))));
    }
    let zones = most_frequent(members.iter().filter_map(|m| m["tz"].as_str()));
    let mut ranked = zones.clone();
    ranked.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    for (n, zone) in ranked.iter().take(2) {
        qs.push(Some(count(&format!("How many members are in the {zone} time zone?"), &[zone], *n, Some("tz"))));
    }
    qs.push(extreme("Which time zone do the most members sit in?", zones, true, Some("tz")));
    let mut offsets: Vec<(f64, String)> = Vec::new();
    for m in members {
        if let (Some(offset), zone) = (number(m, "tz_offset"), field(m, "tz"))
            && !offsets.iter().any(|(_, z)| *z == zone)
        {
            offsets.push((offset, zone));
        }
    }
    qs.push(extreme("Which time zone is furthest east?", offsets, true, Some("tz_offset")));
    let updated: Vec<(f64, String)> =
        members.iter().filter_map(|m| Some((number(m, "updated")?, field(m, "name")))).collect();
    qs.push(extreme("Whose profile was updated most recently?", updated, true, Some("updated")));
    let people: Vec<(f64, String)> = members
        .iter()
        .filter(|m| is_person(m) && m["deleted"] != true)
        .filter_map(|m| Some((number(m, "updated")?, field(m, "name"))))
        .collect();
    qs.push(extreme(
        "Which active person's profile has gone longest without an update?",
        people,
        false,
        Some("updated"),
    ));
    let titles = most_frequent(members.iter().filter_map(|m| m["profile"]["title"].as_str()).filter(|t| !t.is_empty()));
    qs.push(extreme("Which job title is the most common?", titles, true, Some("title")));
    qs
}
