//! The questions asked of the eighteenth part of the catalog: what a user of each service
//! or command asks of a result like it (what a streamer is playing and to how many, who
//! an issue is assigned to, what a shoe costs, how far a run was, which process holds a
//! file or a port, who committed most, which request was slowest, why a job ended), with
//! records named from the middle and the end of the result as well as the head. The
//! answers are computed from the generated data, never written by hand.
//!
//! YouTrack's custom fields (a list of named fields, each with a typed value) are first
//! read into one record per issue keyed by the fields' names. Text results (an lsof
//! listing, a shortlog, a JSON-lines access log, a fixed-width sacct table) are first read
//! into records of their rows, authors, requests and jobs, so the same builders ask of
//! them; their readers are in `questions_eighteenth_text.rs`.

use serde_json::{Map, Value, json};

use crate::question::{Kind, Question, Records, text, value};
use crate::questions_blind::{about, count, extreme, lines, most_frequent, only, scored_by, together};

#[path = "questions_eighteenth_text.rs"]
pub(crate) mod readers;

#[path = "questions_eighteenth_more.rs"]
mod more;

use more::{caddy_questions, lsof_questions, sacct_questions, shortlog_questions};

/// Every question about an eighteenth-part shape's JSON result; `None` for other shapes.
pub(crate) fn json_questions(name: &str, v: &Value) -> Option<Vec<Question>> {
    let list = |path: &str| value(v, path).and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    let qs = match name {
        "twitch_streams" => stream_questions(list("data")),
        "youtrack_issues" => issue_questions(&issues(list(""))),
        "algolia_search" => hit_questions(list("hits")),
        "strava_activities" => activity_questions(list("")),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}

/// A string field as a score, for the latest or earliest of ISO times.
fn stamp(path: &'static str) -> impl Fn(&Value) -> Option<String> {
    move |x| Some(value(x, path)?.as_str()?.to_owned())
}

/// A number field as a score.
fn num(path: &'static str) -> impl Fn(&Value) -> Option<f64> {
    move |x| value(x, path)?.as_f64()
}

/// Twitch streams, most watched first: the top and the last channel; a channel's game,
/// viewers, start, title and language; how many streams play a game, are in a language
/// or are for mature audiences; the channel live longest and the one gone live last, the
/// game with most streams and the most watched Spanish stream.
fn stream_questions(ss: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: ss };
    let mature = ss.iter().filter(|x| x["is_mature"] == true).count();
    let spanish = only(ss, |x| x["language"] == "es");
    let last = ss.last().and_then(|x| {
        let (n, c) = (value(x, "user_name").map(text)?, value(x, "viewer_count").map(text)?);
        Some(together(
            Kind::Tail,
            "Which channel is the last stream on this page, and how many viewers does it have?".into(),
            None,
            &[&n, &c],
        ))
    });
    vec![
        r.head("Which channel is the most watched stream on this page?", "user_name"),
        last,
        r.lookup("What game is {key} streaming?", 0.6, "user_name", "game_name"),
        r.lookup("How many viewers does {key} have?", 0.3, "user_name", "viewer_count"),
        r.lookup("When did {key} go live?", 0.9, "user_name", "started_at"),
        r.lookup("What is the title of {key}'s stream?", 0.45, "user_name", "title"),
        r.lookup("What language is {key} streaming in?", 0.75, "user_name", "language"),
        about("game_name", r.count("How many streams on this page are playing {value}?", "game_name", None)),
        about("language", r.count("How many streams are in the language {value}?", "language", None)),
        Some(count("How many streams are marked as mature?", &["is_mature", "mature"], mature, Some("is_mature"))),
        extreme(
            "Which channel has been live the longest?",
            scored_by(ss, stamp("started_at"), "user_name"),
            false,
            Some("started_at"),
        ),
        extreme(
            "Which channel went live most recently?",
            scored_by(ss, stamp("started_at"), "user_name"),
            true,
            Some("started_at"),
        ),
        extreme(
            "Which game has the most streams on this page?",
            most_frequent(ss.iter().filter_map(|x| x["game_name"].as_str())),
            true,
            Some("game_name"),
        ),
        extreme(
            "Which Spanish-language stream has the most viewers?",
            scored_by(&spanish, num("viewer_count"), "user_name"),
            true,
            Some("viewer_count"),
        ),
    ]
}

/// YouTrack issues as records: id, summary, comments, creation time, reporter, tags, and
/// every custom field by its name (a user's full name, an enum's name, a period's
/// presentation and minutes, versions' names joined).
pub(crate) fn issues(list: &[Value]) -> Vec<Value> {
    list.iter()
        .map(|x| {
            let mut m = Map::new();
            for k in ["idReadable", "summary", "commentsCount", "votes", "created", "updated"] {
                m.insert(k.into(), x[k].clone());
            }
            m.insert("reporter".into(), x["reporter"]["fullName"].clone());
            let tags: Vec<Value> = x["tags"].as_array().into_iter().flatten().map(|t| t["name"].clone()).collect();
            m.insert("tags".into(), Value::Array(tags));
            for f in x["customFields"].as_array().into_iter().flatten() {
                let Some(name) = f["name"].as_str() else { continue };
                let v = &f["value"];
                let read = match v {
                    Value::Object(o) if o.contains_key("fullName") => o["fullName"].clone(),
                    Value::Object(o) if o.contains_key("presentation") => {
                        m.insert(format!("{name} minutes"), o["minutes"].clone());
                        o["presentation"].clone()
                    }
                    Value::Object(o) => o.get("name").cloned().unwrap_or(Value::Null),
                    Value::Array(a) => {
                        let names: Vec<&str> = a.iter().filter_map(|e| e["name"].as_str()).collect();
                        if names.is_empty() { Value::Null } else { json!(names.join(", ")) }
                    }
                    other => other.clone(),
                };
                m.insert(name.into(), read);
            }
            Value::Object(m)
        })
        .collect()
}

/// YouTrack issues, most recently updated first: the first issue's summary and the last
/// one's id; an issue's assignee, priority, state, summary, subsystem and estimation; how
/// many are in a state, of a priority or a type, unassigned or tagged as regressions; the
/// most discussed, the oldest, the one with the largest estimation and the person
/// assigned most.
fn issue_questions(is: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: is };
    let unassigned = is.iter().filter(|x| x["Assignee"].is_null()).count();
    let regressions =
        is.iter().filter(|x| x["tags"].as_array().is_some_and(|t| t.iter().any(|t| t == "regression"))).count();
    vec![
        r.head("What is the summary of the most recently updated issue?", "summary"),
        r.tail("Which issue is the last on this page? Give its ID.", "idReadable"),
        r.lookup("Who is {key} assigned to?", 0.6, "idReadable", "Assignee"),
        r.lookup("What is the priority of {key}?", 0.3, "idReadable", "Priority"),
        r.lookup("What state is {key} in?", 0.9, "idReadable", "State"),
        r.lookup("What is the summary of {key}?", 0.45, "idReadable", "summary"),
        r.lookup("Which subsystem is {key} filed under?", 0.75, "idReadable", "Subsystem"),
        r.lookup("What is the estimation of {key}?", 0.5, "idReadable", "Estimation"),
        about("State", r.count("How many issues are in the state {value}?", "State", None)),
        about("Priority", r.count("How many issues have the priority {value}?", "Priority", None)),
        about("Type", r.count("How many issues are of type {value}?", "Type", None)),
        Some(count("How many issues are unassigned?", &["unassigned", "Assignee"], unassigned, Some("Assignee"))),
        Some(count("How many issues are tagged regression?", &["regression"], regressions, Some("tags"))),
        about(
            "commentsCount",
            r.extreme("Which issue has the most comments? Give its ID.", "commentsCount", "idReadable", true),
        ),
        about(
            "created",
            r.extreme("Which issue was created longest ago? Give its ID.", "created", "idReadable", false),
        ),
        about(
            "Estimation",
            r.extreme("Which issue has the largest estimation? Give its ID.", "Estimation minutes", "idReadable", true),
        ),
        extreme(
            "Who is assigned the most issues on this page?",
            most_frequent(is.iter().filter_map(|x| x["Assignee"].as_str())),
            true,
            Some("Assignee"),
        ),
    ]
}

/// Algolia hits, by relevance: the top hit and the last one's object id; a product's
/// price, rating, object id, type and popularity; how many hits on the page are of a
/// brand or a type or ship free; the cheapest, dearest and most popular hit and the brand
/// with most hits.
fn hit_questions(hs: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: hs };
    let free = hs.iter().filter(|x| x["free_shipping"] == true).count();
    vec![
        r.head("What is the top hit for this search?", "name"),
        r.tail("What is the objectID of the last hit on this page?", "objectID"),
        r.lookup("What is the price of the {key}?", 0.6, "name", "price"),
        r.lookup("What is the rating of the {key}?", 0.3, "name", "rating"),
        r.lookup("What is the objectID of the {key}?", 0.9, "name", "objectID"),
        r.lookup("What type of product is the {key}?", 0.45, "name", "type"),
        r.lookup("What is the popularity of the {key}?", 0.75, "name", "popularity"),
        about("brand", r.count("How many hits on this page are by {value}?", "brand", None)),
        about("type", r.count("How many hits on this page are {value}?", "type", None)),
        Some(count(
            "How many hits on this page have free shipping?",
            &["free_shipping", "free shipping"],
            free,
            Some("free_shipping"),
        )),
        about("price", r.extreme("Which hit on this page is the cheapest?", "price", "name", false)),
        about("price", r.extreme("Which hit on this page is the most expensive?", "price", "name", true)),
        about("popularity", r.extreme("Which hit on this page is the most popular?", "popularity", "name", true)),
        extreme(
            "Which brand has the most hits on this page?",
            most_frequent(hs.iter().filter_map(|x| x["brand"].as_str())),
            true,
            Some("brand"),
        ),
    ]
}

/// Strava activities, newest first: the newest one's name and when the oldest started;
/// an activity's distance, moving time and elevation gain by its name, its heart rate and
/// kudos by its local start time; how many
/// are of a sport type, commutes or on a trainer; the longest, the hilliest, the fastest,
/// the ride with most power and the run with the highest heart rate.
fn activity_questions(acts: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: acts };
    let commutes = acts.iter().filter(|x| x["commute"] == true).count();
    let trainer = acts.iter().filter(|x| x["trainer"] == true).count();
    let runs = only(acts, |x| x["type"] == "Run");
    let rides = only(acts, |x| x["type"] == "Ride" || x["type"] == "VirtualRide");
    vec![
        r.head("What is the name of the most recent activity?", "name"),
        r.tail("When did the oldest activity on this page start, in local time?", "start_date_local"),
        r.lookup("How far was \"{key}\"? Give the distance in metres.", 0.6, "name", "distance"),
        r.lookup("What was the moving time of \"{key}\", in seconds?", 0.3, "name", "moving_time"),
        r.lookup(
            "What was the average heart rate of the activity that started at {key}, local time?",
            0.9,
            "start_date_local",
            "average_heartrate",
        ),
        r.lookup("How much elevation was gained on \"{key}\"?", 0.45, "name", "total_elevation_gain"),
        r.lookup(
            "How many kudos did the activity that started at {key}, local time, get?",
            0.75,
            "start_date_local",
            "kudos_count",
        ),
        about("sport_type", r.count("How many activities are of the sport type {value}?", "sport_type", None)),
        Some(count("How many activities were commutes?", &["commute", "commutes"], commutes, Some("commute"))),
        Some(count("How many activities were on a trainer?", &["trainer"], trainer, Some("trainer"))),
        about("distance", r.extreme("Which activity was the longest? Give its id.", "distance", "id", true)),
        about(
            "total_elevation_gain",
            r.extreme("Which activity had the most elevation gain? Give its id.", "total_elevation_gain", "id", true),
        ),
        about(
            "max_speed",
            r.extreme("Which activity reached the highest speed? Give its id.", "max_speed", "id", true),
        ),
        extreme(
            "Which ride had the highest average power? Give its id.",
            scored_by(&rides, num("average_watts"), "id"),
            true,
            Some("average_watts"),
        ),
        extreme(
            "Which run had the highest average heart rate? Give its id.",
            scored_by(&runs, num("average_heartrate"), "id"),
            true,
            Some("average_heartrate"),
        ),
    ]
}

/// Every question about an eighteenth-part shape's text result; `None` for other shapes.
pub(crate) fn text_questions(name: &str, t: &str) -> Option<Vec<Question>> {
    let ls = lines(t);
    let qs = match name {
        "lsof" => lsof_questions(&ls, t),
        "git_shortlog" => shortlog_questions(&ls),
        "caddy_access_log" => caddy_questions(&ls),
        "sacct" => sacct_questions(&ls),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}

#[cfg(test)]
#[path = "questions_eighteenth_tests.rs"]
mod tests;
