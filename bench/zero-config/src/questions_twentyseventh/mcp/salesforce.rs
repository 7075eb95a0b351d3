//! Questions about a Salesforce SOQL query of cases: the newest and the oldest cases on the
//! batch (number, subject, status, priority, owner, account, creation) and how many cases
//! match in all with where the next batch is; a case's status and owner, account, contact,
//! priority and origin by its number, its subject by its id and when a closed case was
//! closed; and how many open cases are high priority, how many cases are escalated,
//! closed or new, came in through the web, are about billing, sit in a queue, have no
//! contact or belong to the busiest account, and which open case is oldest, which closed
//! case took longest to close, who owns the most open cases and which account has the
//! most cases.

use serde_json::Value;

use super::{field, list, seconds};
use crate::question::Question;
use crate::questions_blind::{count, extreme, most_frequent};
use crate::record_questions::{end, lookup_one as lookup};

/// Whether a case is still open.
pub(super) fn open(c: &Value) -> bool {
    c["Status"] != "Closed"
}

/// Whether a queue (a Group), not an agent, owns the case.
pub(super) fn queued(c: &Value) -> bool {
    field(c, "Owner.attributes.url").contains("/Group/")
}

pub(super) fn salesforce_questions(v: &Value) -> Vec<Option<Question>> {
    let cases = list(v, "records");
    let number = |c: &Value| field(c, "CaseNumber");
    let subject = |c: &Value| Some(vec![number(c), field(c, "Subject")]);
    let status = |c: &Value| Some(vec![number(c), field(c, "Status"), field(c, "Priority")]);
    let owner = |c: &Value| Some(vec![number(c), field(c, "Owner.Name")]);
    let account = |c: &Value| Some(vec![number(c), field(c, "Account.Name")]);
    let page = std::slice::from_ref(v);
    let mut qs = vec![
        end(cases, 0, false, "What is the newest case's number and subject?", subject),
        end(cases, 0, false, "What status and priority does the newest case have?", status),
        end(cases, 0, false, "Who owns the newest case?", owner),
        end(cases, 0, false, "Which account opened the newest case?", account),
        end(cases, 0, false, "When was the newest case created, and through which channel?", |c| {
            Some(vec![number(c), field(c, "CreatedDate"), field(c, "Origin")])
        }),
        end(cases, 1, false, "What is the second case's number and subject?", subject),
        end(cases, 2, false, "What status and priority does the third case have?", status),
        end(cases, 3, false, "Who owns the fourth case?", owner),
        end(cases, 4, false, "What is the fifth case's number and subject?", subject),
        end(page, 0, false, "How many cases match the query in all, and where is the next batch?", |v| {
            Some(vec![field(v, "totalSize"), field(v, "nextRecordsUrl")])
        }),
        end(cases, 0, true, "What is the number and subject of the oldest case in this batch?", subject),
        end(cases, 0, true, "What status and priority does the oldest case in this batch have?", status),
        end(cases, 0, true, "Who owns the oldest case in this batch?", owner),
        end(cases, 0, true, "Which account opened the oldest case in this batch?", account),
        end(cases, 0, true, "When was the oldest case in this batch created?", |c| {
            Some(vec![number(c), field(c, "CreatedDate")])
        }),
        end(cases, 1, true, "What is the second to last case's number and subject?", subject),
        end(cases, 2, true, "What status and priority does the third to last case have?", status),
        end(cases, 3, true, "Who owns the fourth to last case?", owner),
        end(cases, 4, true, "What is the fifth to last case's number and subject?", subject),
    ];
    for f in [0.2, 0.6] {
        qs.push(lookup(cases, f, "What is the status of case {key}, and who owns it?", number, |c| {
            Some(vec![field(c, "Status"), field(c, "Owner.Name")])
        }));
    }
    for f in [0.4, 0.85] {
        qs.push(lookup(cases, f, "Which account is case {key} for, and what industry is it in?", number, |c| {
            Some(vec![field(c, "Account.Name"), field(c, "Account.Industry")])
        }));
    }
    qs.push(lookup(cases, 0.5, "Who is the contact on case {key}, and what is their email?", number, |c| {
        Some(vec![field(c, "Contact.Name"), field(c, "Contact.Email")])
    }));
    qs.push(lookup(cases, 0.3, "What priority does case {key} have, and how did it come in?", number, |c| {
        Some(vec![field(c, "Priority"), field(c, "Origin")])
    }));
    qs.push(lookup(
        cases,
        0.7,
        "What is the subject of the case with id {key}?",
        |c| field(c, "Id"),
        |c| Some(vec![number(c), field(c, "Subject")]),
    ));
    let closed: Vec<&Value> = cases.iter().filter(|c| !open(c)).collect();
    qs.push(lookup(&closed, 0.5, "When was case {key} closed?", |c| number(c), |c| Some(vec![field(c, "ClosedDate")])));
    qs.push(lookup(cases, 0.95, "What type of case is {key}, and is it escalated?", number, |c| {
        Some(vec![field(c, "Type"), field(c, "IsEscalated")])
    }));
    // How many, and which is the largest.
    let cases_where = |keep: &dyn Fn(&Value) -> bool| cases.iter().filter(|c| keep(c)).count();
    let n = cases_where(&|c| open(c) && c["Priority"] == "High");
    qs.push(Some(count("How many open cases are high priority?", &["High", "high-priority"], n, Some("Priority"))));
    let n = cases_where(&|c| c["IsEscalated"] == Value::Bool(true));
    qs.push(Some(count("How many cases are escalated?", &["escalated", "IsEscalated"], n, Some("IsEscalated"))));
    for status in ["Closed", "New"] {
        let n = cases_where(&|c| c["Status"] == status);
        qs.push(Some(count(&format!("How many cases have status {status}?"), &[status], n, Some("Status"))));
    }
    let n = cases_where(&|c| c["Origin"] == "Web");
    qs.push(Some(count("How many cases came in through the web?", &["Web"], n, Some("Origin"))));
    let n = cases_where(&|c| c["Type"] == "Billing");
    qs.push(Some(count("How many cases are billing cases?", &["Billing"], n, Some("Type"))));
    let n = cases_where(&|c| queued(c));
    qs.push(Some(count("How many cases are owned by a queue rather than an agent?", &["queue"], n, Some("Owner"))));
    let n = cases_where(&|c| c["Contact"].is_null());
    qs.push(Some(count("How many cases have no contact?", &["no contact", "Contact"], n, Some("Contact"))));
    let accounts = most_frequent(cases.iter().filter_map(|c| c["Account"]["Name"].as_str()));
    if let Some((n, name)) = accounts.iter().max_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1))) {
        qs.push(Some(count(&format!("How many cases has {name} opened?"), &[name], *n, Some("Account"))));
    }
    let opened: Vec<(i64, String)> = cases
        .iter()
        .filter(|c| open(c))
        .filter_map(|c| Some((seconds(c["CreatedDate"].as_str()?)?, number(c))))
        .collect();
    qs.push(extreme("Which open case is the oldest?", opened, false, Some("CreatedDate")));
    let took: Vec<(i64, String)> = closed
        .iter()
        .filter_map(|c| Some((seconds(c["ClosedDate"].as_str()?)? - seconds(c["CreatedDate"].as_str()?)?, number(c))))
        .collect();
    qs.push(extreme("Which closed case took the longest to close?", took.clone(), true, Some("ClosedDate")));
    qs.push(extreme("Which closed case was closed the fastest?", took, false, Some("ClosedDate")));
    let owners = most_frequent(cases.iter().filter(|c| open(c)).filter_map(|c| c["Owner"]["Name"].as_str()));
    qs.push(extreme("Who owns the most open cases?", owners, true, Some("Owner")));
    qs.push(extreme("Which account has the most cases?", accounts, true, Some("Account")));
    qs
}
