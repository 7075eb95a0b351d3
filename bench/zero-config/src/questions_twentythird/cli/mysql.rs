//! The questions asked of the MySQL client's vertical rows: what someone looking into
//! recent orders asks of them (the status, total, customer, payment, coupon, address or
//! notes of one order; how many orders have a status, a payment method, a coupon; which
//! order is largest or smallest, which customer ordered most; the newest orders at the
//! top, the oldest and the `rows in set` footer at the bottom).

use serde_json::Value;

use super::readers::mysql_rows;
use super::{about_record, before_last, lookup};
use crate::question::{Kind, Question, Records};
use crate::questions_blind::{about, count, extreme, most_frequent, only, scored_by, together};

/// A money column of a row (`129.90`).
fn money(field: &'static str) -> impl Fn(&Value) -> Option<f64> {
    move |x| x[field].as_str()?.parse().ok()
}

/// The city of a row's shipping address, from its JSON column, as a field of the row.
fn with_city(rows: &[Value]) -> Vec<Value> {
    rows.iter()
        .filter_map(|x| {
            let address: Value = serde_json::from_str(x["shipping_address"].as_str()?).ok()?;
            let mut x = x.clone();
            x["city"] = address["city"].clone();
            Some(x)
        })
        .collect()
}

/// Every question about the query's output `t`.
pub(crate) fn mysql_questions(t: &str) -> Vec<Option<Question>> {
    let (rows, footer) = mysql_rows(t);
    let mut qs = lookups(&rows);
    qs.extend(aggregates(&rows));
    qs.extend(heads_and_tails(t, &rows, footer.as_deref()));
    qs
}

/// One order's status and total, customer, payment, coupon, city, notes, times; the
/// order of a customer who placed only one.
fn lookups(rows: &[Value]) -> Vec<Option<Question>> {
    let shipped = only(rows, |x| x["shipped_at"] != "NULL");
    let couponed = only(rows, |x| x["coupon_code"] != "NULL");
    let noted = only(rows, |x| x["notes"] != "NULL");
    let cities = with_city(rows);
    vec![
        lookup(rows, 0.3, "What is the status and total of order {key}?", "order_number", &["status", "total"]),
        lookup(rows, 0.5, "Which customer (email) placed order {key}?", "order_number", &["email"]),
        lookup(&shipped, 0.7, "When was order {key} shipped?", "order_number", &["shipped_at"]),
        lookup(rows, 0.9, "How was order {key} paid?", "order_number", &["payment_method"]),
        lookup(&couponed, 0.4, "Which coupon was used on order {key}?", "order_number", &["coupon_code"]),
        lookup(&cities, 0.6, "To which city does order {key} ship?", "order_number", &["city"]),
        lookup(&noted, 0.55, "What do the notes of order {key} say?", "order_number", &["notes"]),
        lookup(rows, 0.15, "When was order {key} placed?", "order_number", &["created_at"]),
        lookup(
            rows,
            0.8,
            "How much tax was charged on order {key}, and in which currency?",
            "order_number",
            &["tax", "currency"],
        ),
        lookup(rows, 0.2, "Which order did {key} place, and what was its total?", "email", &["order_number", "total"]),
        lookup(rows, 0.65, "What discount did order {key} get?", "order_number", &["discount"]),
    ]
}

/// How many orders have a status, payment method, currency, country, coupon; which
/// order is largest or smallest, which customer ordered most or has most orders in all.
fn aggregates(rows: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: rows };
    let couponed = only(rows, |x| x["coupon_code"] != "NULL");
    let n_status = |s: &str| rows.iter().filter(|x| x["status"] == s).count();
    let free = rows.iter().filter(|x| x["shipping_fee"] == "0.00").count();
    // One row per customer: their lifetime count is the same on each of their rows.
    let mut customers: Vec<Value> = Vec::new();
    for x in rows {
        if !customers.iter().any(|c| c["email"] == x["email"]) {
            customers.push(x.clone());
        }
    }
    let mut qs = vec![
        about("status", r.count("How many orders have status {value}?", "status", None)),
        about("payment_method", r.count("How many orders were paid with {value}?", "payment_method", None)),
        about("currency", r.count("How many orders are in {value}?", "currency", None)),
        about("country", r.count("How many orders are from customers in {value}?", "country", None)),
        about(
            "coupon_code",
            Records { list: &couponed }.count("How many orders used the coupon {value}?", "coupon_code", None),
        ),
        Some(count("How many orders used a coupon?", &["coupon"], couponed.len(), Some("coupon_code"))),
        Some(count(
            "How many orders shipped for free (a shipping fee of 0.00)?",
            &["0.00", "free"],
            free,
            Some("shipping_fee"),
        )),
        extreme(
            "Which order has the largest total?",
            scored_by(rows, money("total"), "order_number"),
            true,
            Some("total"),
        ),
        extreme(
            "Which order has the smallest total?",
            scored_by(rows, money("total"), "order_number"),
            false,
            Some("total"),
        ),
        extreme(
            "Which order got the largest discount?",
            scored_by(rows, money("discount"), "order_number"),
            true,
            Some("discount"),
        ),
        extreme(
            "Which customer (email) has the most orders in all (lifetime_orders)?",
            scored_by(&customers, money("lifetime_orders"), "email"),
            true,
            Some("lifetime_orders"),
        ),
        extreme(
            "Which customer (email) placed the most of these orders?",
            most_frequent(rows.iter().filter_map(|x| x["email"].as_str())),
            true,
            Some("email"),
        ),
        extreme(
            "Which payment method was used most often?",
            most_frequent(rows.iter().filter_map(|x| x["payment_method"].as_str())),
            true,
            Some("payment_method"),
        ),
    ];
    for status in ["refunded", "cancelled"] {
        let n = n_status(status);
        if n > 0 {
            qs.push(Some(count(&format!("How many orders are {status}?"), &[status], n, Some("status"))));
        }
    }
    qs
}

/// The query's limit and newest orders at the top; the footer and the oldest at the
/// bottom.
fn heads_and_tails(t: &str, rows: &[Value], footer: Option<&str>) -> Vec<Option<Question>> {
    let (first, last) = (rows.first(), rows.last());
    let limit = t.lines().find_map(|l| l.trim().strip_prefix("-> ")?.trim().strip_prefix("LIMIT "));
    let limit = limit.map(|l| format!("LIMIT {}", l.trim_end_matches("\\G")));
    let mut qs = vec![
        limit.map(|l| together(Kind::Head, "How many rows does the query ask for at most?".into(), None, &[&l])),
        about_record(first, Kind::Head, "Which order is the newest (the first row)?", &["order_number"]),
        about_record(
            first,
            Kind::Head,
            "What is the status and total of the first order listed?",
            &["order_number", "status", "total"],
        ),
        about_record(first, Kind::Head, "When was the newest order placed?", &["order_number", "created_at"]),
        about_record(first, Kind::Head, "Who placed the first order listed?", &["order_number", "email"]),
        about_record(rows.get(1), Kind::Head, "Which order is in the second row?", &["order_number"]),
        about_record(
            rows.get(2),
            Kind::Head,
            "How was the order in the third row paid?",
            &["order_number", "payment_method"],
        ),
        about_record(last, Kind::Tail, "Which order is the oldest returned (the last row)?", &["order_number"]),
        about_record(
            last,
            Kind::Tail,
            "What is the status and total of the last order listed?",
            &["order_number", "status", "total"],
        ),
        about_record(last, Kind::Tail, "When was the last order listed placed?", &["order_number", "created_at"]),
        about_record(last, Kind::Tail, "Who placed the last order listed?", &["order_number", "email"]),
        about_record(before_last(rows), Kind::Tail, "Which order is in the second-to-last row?", &["order_number"]),
    ];
    if let Some(f) = footer {
        let (n, took) = f.split_once(" in set (").map_or((f, ""), |(n, t)| (n, t.trim_end_matches(')')));
        qs.push(Some(together(Kind::Tail, "How many rows did the query return?".into(), None, &[n])));
        qs.push(Some(together(Kind::Tail, "How long did the query take?".into(), None, &[took])));
    }
    qs
}
