//! The questions asked of `systemctl list-timers --all`: what an administrator asks of a
//! host's schedule (when a timer runs next and ran last, how long until it runs or since
//! it ran, which service it starts; how many timers there are, how many never ran or are
//! stopped, how many a template has, how many are due within the hour, which runs
//! soonest and which ran longest ago; the first timers and the last, with the footer).

use super::readers::{TimerRow, lookup_at, sortable, timer_rows};
use super::{ORDINALS, to_last};
use crate::question::{Kind, Question};
use crate::questions_blind::{count, extreme, most_frequent, together};

/// Every question about the output `t`.
pub(crate) fn timers_questions(t: &str) -> Vec<Option<Question>> {
    let rows = timer_rows(t);
    let mut qs = lookups(&rows);
    qs.extend(aggregates(&rows));
    qs.extend(heads_and_tails(t, &rows));
    qs
}

/// The name of a unit without its instance and suffix (`pg-basebackup` of
/// `pg-basebackup@acme.timer`).
fn stem(unit: &str) -> &str {
    unit.split(['@', '.']).next().unwrap_or(unit)
}

fn lookups(rows: &[TimerRow]) -> Vec<Option<Question>> {
    let scheduled: Vec<&TimerRow> = rows.iter().filter(|r| r.next != "-").collect();
    let ran: Vec<&TimerRow> = rows.iter().filter(|r| r.last != "-").collect();
    // Timers whose service is named otherwise, so the name does not give the answer away.
    let renamed: Vec<&TimerRow> = rows.iter().filter(|r| stem(&r.unit) != stem(&r.activates)).collect();
    let unit = |r: &&TimerRow| r.unit.clone();
    let mut qs = Vec::new();
    for f in [0.2, 0.5, 0.8] {
        qs.push(lookup_at(
            &scheduled,
            f,
            |r| format!("When does {} run next?", r.unit),
            unit,
            |r| vec![r.next.clone()],
        ));
    }
    for f in [0.3, 0.6, 0.9] {
        qs.push(lookup_at(&ran, f, |r| format!("When did {} last run?", r.unit), unit, |r| vec![r.last.clone()]));
    }
    for f in [0.4, 0.75] {
        qs.push(lookup_at(
            &renamed,
            f,
            |r| format!("Which service does {} activate?", r.unit),
            unit,
            |r| vec![r.activates.clone()],
        ));
    }
    qs.push(lookup_at(
        &scheduled,
        0.1,
        |r| format!("How long until {} fires?", r.unit),
        unit,
        |r| vec![r.left.clone()],
    ));
    qs.push(lookup_at(
        &ran,
        0.45,
        |r| format!("How long ago did {} last run?", r.unit),
        unit,
        |r| vec![r.passed.clone()],
    ));
    qs
}

fn aggregates(rows: &[TimerRow]) -> Vec<Option<Question>> {
    let n = |keep: &dyn Fn(&TimerRow) -> bool| rows.iter().filter(|r| keep(r)).count();
    let mut qs = vec![
        Some(count("How many timers are listed?", &["timers"], rows.len(), None)),
        Some(count(
            "How many timers have never run (LAST is -)?",
            &["never run", "never"],
            n(&|r| r.last == "-"),
            Some("LAST"),
        )),
        Some(count(
            "How many timers are inactive, with no next run?",
            &["inactive", "stopped"],
            n(&|r| r.next == "-"),
            Some("NEXT"),
        )),
        Some(count(
            "How many timers are due within the next hour?",
            &["within the next hour", "timers"],
            n(&|r| r.next != "-" && !["h", "day", "week", "month"].iter().any(|u| r.left.contains(u))),
            Some("LEFT"),
        )),
    ];
    let mut families = most_frequent(rows.iter().filter(|r| r.unit.contains('@')).map(|r| stem(&r.unit)));
    families.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    for i in [0, families.len() / 2, families.len().saturating_sub(1)] {
        if let Some((c, family)) = families.get(i) {
            let q = format!("How many {family}@ timers are there?");
            qs.push(Some(count(&q, &[family, "timers"], *c, Some("UNIT"))));
        }
    }
    qs.dedup_by(|a, b| a.as_ref().map(|q| &q.text) == b.as_ref().map(|q| &q.text));
    let next: Vec<(String, String)> =
        rows.iter().filter(|r| r.next != "-").map(|r| (sortable(&r.next), r.unit.clone())).collect();
    qs.push(extreme("Which timer runs soonest?", next, false, Some("NEXT")));
    let last: Vec<(String, String)> =
        rows.iter().filter(|r| r.last != "-").map(|r| (sortable(&r.last), r.unit.clone())).collect();
    qs.push(extreme("Which timer ran longest ago (the earliest LAST)?", last.clone(), false, Some("LAST")));
    qs.push(extreme("Which timer ran most recently?", last, true, Some("LAST")));
    qs.push(extreme("Which timer template has the most instances?", families, true, Some("UNIT")));
    qs
}

fn heads_and_tails(t: &str, rows: &[TimerRow]) -> Vec<Option<Question>> {
    let mut qs = Vec::new();
    for (k, ordinal) in ORDINALS.iter().enumerate() {
        let Some(r) = rows.get(k) else { continue };
        let text = format!("Which timer is {ordinal} in the list, and when does it run next?");
        qs.push(Some(together(Kind::Head, text, None, &[&r.unit, &r.next])));
    }
    for back in 0..9 {
        let Some(r) = rows.len().checked_sub(back + 1).and_then(|i| rows.get(i)) else { continue };
        let text = format!("Which timer is listed {}, and which service does it activate?", to_last(back));
        qs.push(Some(together(Kind::Tail, text, None, &[&r.unit, &r.activates])));
    }
    if let Some(footer) = t.lines().rev().find(|l| l.ends_with("timers listed.")) {
        qs.push(Some(together(Kind::Tail, "What does the footer of the listing say?".into(), None, &[footer])));
    }
    qs
}
