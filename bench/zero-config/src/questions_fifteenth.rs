//! The questions asked of the fifteenth part of the catalog: what a user of each service
//! or command asks of a result like it (who sent an email and when, which page an event
//! was on, what stage a candidate is at, where a machine runs, how full a disk is, which
//! version fixes a vulnerability, how long a statement took, which client ran a slow
//! command), with records named from the middle and the end of the result as well as the
//! head. The answers are computed from the generated data, never written by hand.
//!
//! Text results (a CRUSH tree of disks, a vulnerability report, a database server's log,
//! a slow log) are first read into records of their rows, entries or lines, so the same
//! builders ask of them; their readers are in `questions_fifteenth_text.rs`.

use serde_json::Value;

use crate::question::{Kind, Question, Records, value};
use crate::questions_blind::{about, count, extreme, lines, most_frequent, only, scored_by, together};

#[path = "questions_fifteenth_text.rs"]
mod readers;

#[path = "questions_fifteenth_more.rs"]
mod more;

use more::{ceph_questions, postgres_questions, slowlog_questions, trivy_questions};

/// Every question about a fifteenth-part shape's JSON result; `None` for other shapes.
pub(crate) fn json_questions(name: &str, v: &Value) -> Option<Vec<Question>> {
    let list = |path: &str| value(v, path).and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    let qs = match name {
        "graph_messages" => mail_questions(list("value")),
        "posthog_events" => event_questions(list("results")),
        "airtable_records" => candidate_questions(list("records")),
        "fly_machines" => machine_questions(v.as_array().map_or(&[][..], Vec::as_slice)),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}

/// A string field as a score, for the latest or earliest of ISO times.
fn stamp(path: &'static str) -> impl Fn(&Value) -> Option<String> {
    move |x| Some(value(x, path)?.as_str()?.to_owned())
}

/// Outlook messages, newest first: the newest subject and the oldest sender, who sent an
/// email and when it came, when a flagged one is due; how many are unread, have
/// attachments, are marked important or came from an address; who sent most, the email
/// sent to most people and the newest unread one.
fn mail_questions(msgs: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: msgs };
    let unread = only(msgs, |x| x["isRead"] == false);
    let flagged = only(msgs, |x| x["flag"]["flagStatus"] == "flagged");
    let attached = msgs.iter().filter(|x| x["hasAttachments"] == true).count();
    let high = msgs.iter().filter(|x| x["importance"] == "high").count();
    let people = |x: &Value| {
        let n = |k: &str| x[k].as_array().map_or(0, Vec::len);
        Some(n("toRecipients") + n("ccRecipients"))
    };
    vec![
        r.head("What is the subject of the newest email in the inbox?", "subject"),
        r.tail("Who sent the oldest email on this page?", "from.emailAddress.name"),
        r.lookup("Who sent the email \"{key}\"? Give their address.", 0.6, "subject", "from.emailAddress.address"),
        r.lookup("When was \"{key}\" received?", 0.3, "subject", "receivedDateTime"),
        r.lookup("Who sent the email \"{key}\"?", 0.9, "subject", "from.emailAddress.name"),
        Records { list: &flagged }.lookup(
            "When is the flagged email \"{key}\" due?",
            0.5,
            "subject",
            "flag.dueDateTime.dateTime",
        ),
        Some(count("How many emails are unread?", &["unread"], unread.len(), Some("isRead"))),
        Some(count(
            "How many emails have attachments?",
            &["hasAttachments", "attachments"],
            attached,
            Some("hasAttachments"),
        )),
        (high > 0).then(|| count("How many emails are marked high importance?", &["high"], high, Some("importance"))),
        about("address", r.count("How many emails came from {value}?", "from.emailAddress.address", None)),
        extreme(
            "Who sent the most emails on this page?",
            most_frequent(msgs.iter().filter_map(|x| x["from"]["emailAddress"]["name"].as_str())),
            true,
            Some("from"),
        ),
        extreme(
            "Which email went to the most people (To and Cc together)? Give its subject.",
            scored_by(msgs, people, "subject"),
            true,
            Some("toRecipients"),
        ),
        extreme(
            "Which unread email arrived most recently? Give its subject.",
            scored_by(&unread, stamp("receivedDateTime"), "subject"),
            true,
            Some("receivedDateTime"),
        ),
    ]
}

/// PostHog events, newest first: when the newest happened and what the oldest was, the
/// page, city and browser of an event, an invoice's amount; how many events are of a
/// kind, came from a browser or country or from the server; the busiest user, the most
/// viewed page and the largest invoice.
fn event_questions(evs: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: evs };
    let invoices = only(evs, |x| x["properties"]["invoice_id"].is_string() && x["event"] != "payment_recorded");
    let views = only(evs, |x| x["event"] == "$pageview");
    let server = evs.iter().filter(|x| x["properties"]["$lib"] == "posthog-node").count();
    let oldest = evs.last().and_then(|x| {
        let (e, t) = (x["event"].as_str()?, x["timestamp"].as_str()?);
        Some(together(
            Kind::Tail,
            "What was the oldest event on this page, and when did it happen?".into(),
            None,
            &[e, t],
        ))
    });
    vec![
        r.head("When did the most recent event happen?", "timestamp"),
        oldest,
        r.lookup("Which page was event {key} on?", 0.6, "id", "properties.$current_url"),
        r.lookup("Which city did event {key} come from?", 0.3, "id", "properties.$geoip_city_name"),
        r.lookup("Which browser sent event {key}?", 0.9, "id", "properties.$browser"),
        Records { list: &invoices }.lookup(
            "What was the amount of invoice {key}?",
            0.5,
            "properties.invoice_id",
            "properties.amount",
        ),
        about("event", r.count("How many {value} events are there?", "event", None)),
        about("$browser", r.count("How many events came from {value}?", "properties.$browser", None)),
        about(
            "$geoip_country_name",
            r.count("How many events came from {value}?", "properties.$geoip_country_name", None),
        ),
        Some(count(
            "How many events did the server send (posthog-node)?",
            &["posthog-node", "server"],
            server,
            Some("$lib"),
        )),
        extreme(
            "Which user (by email) triggered the most events?",
            most_frequent(evs.iter().filter_map(|x| x["person"]["properties"]["email"].as_str())),
            true,
            Some("email"),
        ),
        extreme(
            "Which page got the most pageviews?",
            most_frequent(views.iter().filter_map(|x| x["properties"]["$pathname"].as_str())),
            true,
            Some("$pathname"),
        ),
        about(
            "amount",
            Records { list: &invoices }.extreme(
                "Which invoice has the largest amount? Give its id.",
                "properties.amount",
                "properties.invoice_id",
                true,
            ),
        ),
    ]
}

/// Airtable candidates, oldest application first: the first and last candidate, a
/// candidate's stage, role, recruiter and email; how many are at a stage, came from a
/// source or applied for a role; the highest salary expectation and interview score, the
/// busiest recruiter and the newest application.
fn candidate_questions(recs: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: recs };
    vec![
        r.head("Who is the first candidate in the list?", "fields.Name"),
        r.tail("Who is the last candidate on this page?", "fields.Name"),
        r.lookup("What stage is {key} at?", 0.6, "fields.Name", "fields.Stage"),
        r.lookup("Which role did {key} apply for?", 0.3, "fields.Name", "fields.Role Title (from Role)[0]"),
        r.lookup("Who is {key}'s recruiter?", 0.9, "fields.Name", "fields.Recruiter.name"),
        r.lookup("What is {key}'s email address?", 0.45, "fields.Name", "fields.Email"),
        about("Stage", r.count("How many candidates are at the {value} stage?", "fields.Stage", None)),
        about("Source", r.count("How many candidates came from {value}?", "fields.Source", None)),
        about("Role", r.count("How many candidates applied for {value}?", "fields.Role Title (from Role)[]", None)),
        about(
            "Salary Expectation",
            r.extreme("Which candidate expects the highest salary?", "fields.Salary Expectation", "fields.Name", true),
        ),
        about(
            "Interview Score",
            r.extreme(
                "Which candidate has the highest interview score?",
                "fields.Interview Score",
                "fields.Name",
                true,
            ),
        ),
        extreme(
            "Which recruiter has the most candidates?",
            most_frequent(recs.iter().filter_map(|x| x["fields"]["Recruiter"]["name"].as_str())),
            true,
            Some("Recruiter"),
        ),
        extreme(
            "Which candidate applied most recently?",
            scored_by(recs, stamp("createdTime"), "fields.Name"),
            true,
            Some("Applied"),
        ),
    ]
}

/// Fly Machines: the first and last machine, a machine's region, state, private address
/// and release; how many are in a state or region, are workers or fail their check; the
/// region with most machines, the newest machine and the one updated longest ago.
fn machine_questions(ms: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: ms };
    let workers = ms.iter().filter(|x| x["config"]["metadata"]["fly_process_group"] == "worker").count();
    let failing = ms.iter().filter(|x| x["checks"][0]["status"] == "critical").count();
    vec![
        r.head("What is the name of the first machine listed?", "name"),
        r.tail("What is the ID of the last machine listed?", "id"),
        r.lookup("Which region is machine {key} in?", 0.6, "name", "region"),
        r.lookup("What state is machine {key} in?", 0.3, "id", "state"),
        r.lookup("What is the private IP address of machine {key}?", 0.9, "name", "private_ip"),
        r.lookup(
            "Which release version is machine {key} running?",
            0.45,
            "name",
            "config.metadata.fly_release_version",
        ),
        about("state", r.count("How many machines are {value}?", "state", None)),
        about("region", r.count("How many machines are in {value}?", "region", None)),
        Some(count("How many worker machines are there?", &["worker"], workers, Some("fly_process_group"))),
        (failing > 0).then(|| {
            count(
                "How many machines are failing their health check?",
                &["critical", "failing"],
                failing,
                Some("checks"),
            )
        }),
        extreme(
            "Which region has the most machines?",
            most_frequent(ms.iter().filter_map(|x| x["region"].as_str())),
            true,
            Some("region"),
        ),
        extreme(
            "Which machine was created most recently? Give its name.",
            scored_by(ms, stamp("created_at"), "name"),
            true,
            Some("created_at"),
        ),
        extreme(
            "Which machine was updated longest ago? Give its name.",
            scored_by(ms, stamp("updated_at"), "name"),
            false,
            Some("updated_at"),
        ),
    ]
}

/// Every question about a fifteenth-part shape's text result; `None` for other shapes.
pub(crate) fn text_questions(name: &str, t: &str) -> Option<Vec<Question>> {
    let ls = lines(t);
    let qs = match name {
        "ceph_osd_df_tree" => ceph_questions(&ls),
        "trivy_image" => trivy_questions(&ls),
        "postgres_log" => postgres_questions(&ls),
        "redis_slowlog" => slowlog_questions(&ls, t),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}

#[cfg(test)]
#[path = "questions_fifteenth_tests.rs"]
mod tests;
