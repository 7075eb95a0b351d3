//! The questions asked of `last -F -w -x`: what someone auditing a bastion asks (when a
//! session ended and how long it lasted, where it came from; how many sessions a user
//! had, how many reboots, crashes and open sessions there are, who stayed longest, which
//! address and user logged in most; the newest lines at the top and the oldest, with the
//! start of wtmp, at the bottom).

use super::readers::{Login, last_logins, minutes};
use super::{ORDINALS, to_last};
use crate::question::{Kind, Question};
use crate::questions_blind::{count, extreme, most_frequent, together};
use crate::record_questions::{end, lookup_by};

/// The users `last -x` writes for the system's own records.
const PSEUDO: [&str; 3] = ["reboot", "shutdown", "runlevel"];

/// Every question about the output `t`.
pub(crate) fn last_questions(t: &str) -> Vec<Option<Question>> {
    let all = last_logins(t);
    let sessions: Vec<&Login> = all.iter().filter(|l| !PSEUDO.contains(&l.user.as_str())).collect();
    let mut qs = lookups(&sessions);
    qs.extend(aggregates(&all, &sessions));
    qs.extend(heads_and_tails(t, &all));
    qs
}

fn session_key(l: &&Login) -> Option<Vec<String>> {
    Some(vec![l.start.clone(), l.user.clone(), l.tty.clone()])
}

fn lookups(sessions: &[&Login]) -> Vec<Option<Question>> {
    let ended: Vec<&Login> = sessions.iter().copied().filter(|l| !l.length.is_empty()).collect();
    let mut qs = Vec::new();
    for f in [0.1, 0.3, 0.5, 0.7, 0.8, 0.9] {
        qs.push(lookup_by(
            &ended,
            f,
            "When did {key1}'s session on {key2} that started {key0} end, and how long did it last?",
            session_key,
            |l| Some(vec![l.end.clone(), l.length.clone()]),
        ));
    }
    for f in [0.2, 0.4, 0.6, 0.95] {
        qs.push(lookup_by(
            sessions,
            f,
            "Which address did {key1} connect from for the session on {key2} that started {key0}?",
            session_key,
            |l| Some(vec![l.host.clone()]),
        ));
    }
    qs
}

fn aggregates(all: &[Login], sessions: &[&Login]) -> Vec<Option<Question>> {
    let mut qs = Vec::new();
    let mut users = most_frequent(sessions.iter().map(|l| l.user.as_str()));
    users.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    for i in [1, users.len() / 2, users.len().saturating_sub(2)] {
        if let Some((n, user)) = users.get(i) {
            qs.push(Some(count(&format!("How many sessions did {user} have?"), &[user, "sessions"], *n, Some("user"))));
        }
    }
    qs.dedup_by(|a, b| a.as_ref().map(|q| &q.text) == b.as_ref().map(|q| &q.text));
    let n = |keep: &dyn Fn(&Login) -> bool| all.iter().filter(|l| keep(l)).count();
    qs.push(Some(count(
        "How many times was the host rebooted (reboot system boot lines)?",
        &["reboot", "reboots"],
        n(&|l| l.user == "reboot"),
        None,
    )));
    qs.push(Some(count(
        "How many sessions are still logged in?",
        &["still logged in"],
        n(&|l| l.end == "still logged in"),
        None,
    )));
    qs.push(Some(count("How many sessions ended in a crash?", &["crash"], n(&|l| l.end == "crash"), None)));
    qs.push(Some(count(
        "How many sessions were ended by a shutdown (down)?",
        &["down"],
        n(&|l| l.end == "down"),
        None,
    )));
    let mut hosts = most_frequent(sessions.iter().map(|l| l.host.as_str()));
    hosts.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    if let Some((c, host)) = hosts.get(hosts.len() / 3) {
        qs.push(Some(count(&format!("How many sessions came from {host}?"), &[host, "sessions"], *c, Some("host"))));
    }
    qs.push(Some(count(
        "How many sessions does the output list in all (not counting reboot, shutdown and runlevel lines)?",
        &["sessions", "logins"],
        sessions.len(),
        None,
    )));
    let distinct = most_frequent(sessions.iter().map(|l| l.user.as_str())).len();
    qs.push(Some(count("How many different users logged in?", &["users"], distinct, Some("user"))));
    let longest = sessions.iter().filter_map(|l| Some((minutes(&l.length)?, l.user.clone()))).collect();
    qs.push(extreme("Which user had the longest session?", longest, true, None));
    qs.push(extreme(
        "Which address made the most logins?",
        most_frequent(sessions.iter().map(|l| l.host.as_str())),
        true,
        None,
    ));
    qs.push(extreme(
        "Which user logged in most often?",
        most_frequent(sessions.iter().map(|l| l.user.as_str())),
        true,
        None,
    ));
    qs
}

fn heads_and_tails(t: &str, all: &[Login]) -> Vec<Option<Question>> {
    let mut qs = Vec::new();
    for (k, ordinal) in ORDINALS.iter().enumerate() {
        let text = format!("Who is on the {ordinal} line of the output, on which terminal, and when did they log in?");
        qs.push(end(all, k, false, &text, |l| Some(vec![l.user.clone(), l.tty.clone(), l.start.clone()])));
    }
    if let Some(begins) = t.lines().rev().find_map(|l| l.strip_prefix("wtmp begins ")) {
        qs.push(Some(together(Kind::Tail, "When does the wtmp file begin?".into(), None, &[begins])));
    }
    for back in 0..8 {
        let text = format!("Who is on the {} session line of the output, and when did they log in?", to_last(back));
        qs.push(end(all, back, true, &text, |l| Some(vec![l.user.clone(), l.start.clone()])));
    }
    qs
}
