//! Questions about a QuickBooks Online invoice query, newest first: the newest and the
//! oldest invoices on the page (number, customer, date, total, balance, due date, e-mail
//! status, first line) and how many invoices match in all and when the answer was made;
//! an invoice's customer and total, balance and due date, e-mail status and address by
//! its number, an invoice's number by its id and what an invoice charged for an item; and
//! how many invoices are overdue, unpaid, paid in full or paid in part, were e-mailed or
//! still need sending, and were billed to the busiest customer, and which invoice is the
//! largest or smallest, which has the largest balance, which overdue invoice has been due
//! longest, which customer owes the most and which was billed most often.

use std::collections::BTreeMap;

use serde_json::Value;

use super::{field, list, number};
use crate::question::Question;
use crate::questions_blind::{count, extreme, most_frequent};
use crate::record_questions::{end, lookup_by, lookup_one as lookup};

/// The day the query ran, in the company's time zone: an invoice due before it and not
/// paid is overdue.
pub(super) fn today(v: &Value) -> String {
    field(v, "time").get(..10).unwrap_or_default().to_owned()
}

/// Whether an invoice still has money owing.
pub(super) fn unpaid(i: &Value) -> bool {
    number(i, "Balance").unwrap_or(0.0) > 0.0
}

/// The sales item lines of an invoice (not its subtotal).
pub(super) fn item_lines(i: &Value) -> Vec<&Value> {
    list(i, "Line").iter().filter(|l| l["DetailType"] == "SalesItemLineDetail").collect()
}

pub(super) fn quickbooks_questions(v: &Value) -> Vec<Option<Question>> {
    let invoices = list(v, "QueryResponse.Invoice");
    let doc = |i: &Value| field(i, "DocNumber");
    let with = |i: &Value, paths: &[&str]| Some([vec![doc(i)], paths.iter().map(|p| field(i, p)).collect()].concat());
    let customer_total = |i: &Value| with(i, &["CustomerRef.name", "TotalAmt"]);
    let balance_due = |i: &Value| with(i, &["Balance", "DueDate"]);
    let first_line = |i: &Value| {
        let line = item_lines(i).first().copied()?;
        Some(vec![doc(i), field(line, "SalesItemLineDetail.ItemRef.name"), field(line, "Amount")])
    };
    let page = std::slice::from_ref(v);
    let mut qs = vec![
        end(invoices, 0, false, "What is the newest invoice's number, and which customer is it for?", |i| {
            with(i, &["CustomerRef.name", "TxnDate"])
        }),
        end(invoices, 0, false, "What is the total of the newest invoice?", customer_total),
        end(invoices, 0, false, "What balance is left on the newest invoice, and when is it due?", balance_due),
        end(invoices, 0, false, "Was the newest invoice e-mailed, and to which address?", |i| {
            with(i, &["EmailStatus", "BillEmail.Address"])
        }),
        end(invoices, 0, false, "What is the first line item of the newest invoice, and its amount?", first_line),
        end(invoices, 1, false, "Which customer is the second invoice for, and what is its total?", customer_total),
        end(invoices, 2, false, "What balance is left on the third invoice, and when is it due?", balance_due),
        end(invoices, 3, false, "Which customer is the fourth invoice for, and what is its total?", customer_total),
        end(invoices, 4, false, "What is the number and date of the fifth invoice?", |i| with(i, &["TxnDate"])),
        end(invoices, 0, false, "What is the QuickBooks id of the newest invoice?", |i| with(i, &["Id"])),
        end(
            invoices,
            0,
            true,
            "What is the oldest invoice's number on this page, and which customer is it for?",
            |i| with(i, &["CustomerRef.name", "TxnDate"]),
        ),
        end(invoices, 0, true, "What is the total of the oldest invoice on this page?", customer_total),
        end(
            invoices,
            0,
            true,
            "What balance is left on the oldest invoice on this page, and when was it due?",
            balance_due,
        ),
        end(
            invoices,
            0,
            true,
            "What is the first line item of the oldest invoice on this page, and its amount?",
            first_line,
        ),
        end(
            invoices,
            1,
            true,
            "Which customer is the second to last invoice for, and what is its total?",
            customer_total,
        ),
        end(invoices, 2, true, "What balance is left on the third to last invoice, and when was it due?", balance_due),
        end(
            invoices,
            3,
            true,
            "Which customer is the fourth to last invoice for, and what is its total?",
            customer_total,
        ),
        end(invoices, 0, true, "What is the QuickBooks id of the oldest invoice on this page?", |i| with(i, &["Id"])),
        end(page, 0, true, "How many invoices match the query in all?", |v| {
            Some(vec![field(v, "QueryResponse.totalCount")])
        }),
        end(page, 0, true, "When did QuickBooks answer the query?", |v| Some(vec![field(v, "time")])),
    ];
    for f in [0.2, 0.55, 0.9] {
        qs.push(lookup(invoices, f, "Which customer is invoice {key} for, and what is its total?", doc, |i| {
            Some(vec![field(i, "CustomerRef.name"), field(i, "TotalAmt")])
        }));
    }
    for f in [0.35, 0.75] {
        qs.push(lookup(invoices, f, "What balance is left on invoice {key}, and when is it due?", doc, |i| {
            Some(vec![field(i, "Balance"), field(i, "DueDate")])
        }));
    }
    qs.push(lookup(invoices, 0.65, "Was invoice {key} e-mailed, and to which address?", doc, |i| {
        Some(vec![field(i, "EmailStatus"), field(i, "BillEmail.Address")])
    }));
    for f in [0.45, 0.85] {
        qs.push(lookup(
            invoices,
            f,
            "Which invoice number has the QuickBooks id {key}?",
            |i| field(i, "Id"),
            |i| Some(vec![doc(i)]),
        ));
    }
    let lines: Vec<(&Value, &Value)> =
        invoices.iter().flat_map(|i| item_lines(i).into_iter().map(move |l| (i, l))).collect();
    for f in [0.3, 0.8] {
        qs.push(lookup_by(
            &lines,
            f,
            "How many {key1} did invoice {key0} charge for, at what unit price?",
            |(i, l)| Some(vec![doc(i), field(l, "SalesItemLineDetail.ItemRef.name")]),
            |(_, l)| Some(vec![field(l, "SalesItemLineDetail.Qty"), field(l, "SalesItemLineDetail.UnitPrice")]),
        ));
    }
    // How many, and which is the largest.
    let today = today(v);
    let overdue: Vec<&Value> = invoices.iter().filter(|i| unpaid(i) && field(i, "DueDate") < today).collect();
    qs.push(Some(count("How many invoices on this page are overdue?", &["overdue"], overdue.len(), Some("DueDate"))));
    let open = invoices.iter().filter(|i| unpaid(i)).count();
    qs.push(Some(count("How many invoices still have a balance to pay?", &["unpaid", "open"], open, Some("Balance"))));
    let paid = invoices.len() - open;
    qs.push(Some(count("How many invoices are paid in full?", &["paid"], paid, Some("Balance"))));
    let part = invoices.iter().filter(|i| unpaid(i) && number(i, "Balance") < number(i, "TotalAmt")).count();
    qs.push(Some(count("How many invoices are partly paid?", &["partly paid", "partial"], part, Some("Balance"))));
    for status in ["EmailSent", "NeedToSend"] {
        let n = invoices.iter().filter(|i| field(i, "EmailStatus") == status).count();
        qs.push(Some(count(
            &format!("How many invoices have e-mail status {status}?"),
            &[status],
            n,
            Some("EmailStatus"),
        )));
    }
    let billed = most_frequent(invoices.iter().map(|i| i["CustomerRef"]["name"].as_str().unwrap_or_default()));
    if let Some((n, name)) = billed.iter().max_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1))) {
        qs.push(Some(count(
            &format!("How many invoices on this page are for {name}?"),
            &[name],
            *n,
            Some("CustomerRef"),
        )));
    }
    let scored = |path: &str, list: &[&Value]| -> Vec<(f64, String)> {
        list.iter().filter_map(|i| Some((number(i, path)?, doc(i)))).collect()
    };
    let all: Vec<&Value> = invoices.iter().collect();
    qs.push(extreme("Which invoice has the largest total?", scored("TotalAmt", &all), true, Some("TotalAmt")));
    qs.push(extreme("Which invoice has the smallest total?", scored("TotalAmt", &all), false, Some("TotalAmt")));
    qs.push(extreme(
        "Which invoice has the largest balance still owed?",
        scored("Balance", &all),
        true,
        Some("Balance"),
    ));
    let due: Vec<(String, String)> = overdue.iter().map(|i| (field(i, "DueDate"), doc(i))).collect();
    qs.push(extreme("Which overdue invoice has been due the longest?", due, false, Some("DueDate")));
    let mut owed: BTreeMap<String, f64> = BTreeMap::new();
    for i in invoices {
        *owed.entry(field(i, "CustomerRef.name")).or_default() += number(i, "Balance").unwrap_or(0.0);
    }
    // Sums of cents rounded to cents, so two equal balances compare equal.
    let owed: Vec<(i64, String)> = owed.into_iter().map(|(c, b)| ((b * 100.0).round() as i64, c)).collect();
    qs.push(extreme("Which customer owes the most on this page's invoices?", owed, true, Some("Balance")));
    qs.push(extreme("Which customer was billed most often on this page?", billed, true, Some("CustomerRef")));
    qs
}
