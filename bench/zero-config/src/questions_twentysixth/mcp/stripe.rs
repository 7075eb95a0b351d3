//! Questions about a Stripe subscription list: the newest and the oldest subscriptions
//! (id, customer, status, creation, price and quantity, period end, invoice, currency);
//! a subscription's customer, price nickname and quantity, status and period end, latest
//! invoice, coupon, company and payment method by its id; and how many subscriptions are
//! active, past due, canceled or unpaid, cancel at the period's end, are invoiced, yearly,
//! in euros, discounted or carry the SSO add-on, and which has the largest and the
//! smallest monthly amount, the most seats, and renews soonest.

use serde_json::Value;

use super::{field, list, lookup};
use crate::question::Question;
use crate::questions_blind::{count, extreme};
use crate::record_questions::end;

/// The nickname and quantity of each item of `s`, in order.
fn prices(s: &Value) -> Option<Vec<String>> {
    let items: Vec<String> =
        list(s, "items.data").iter().flat_map(|i| [field(i, "price.nickname"), field(i, "quantity")]).collect();
    (!items.is_empty()).then_some(items)
}

/// What `s` bills a month before discounts and tax, in the currency's smallest unit: each
/// item's unit amount times its quantity, yearly prices spread over twelve months.
pub(super) fn monthly_amount(s: &Value) -> f64 {
    list(s, "items.data")
        .iter()
        .map(|i| {
            let amount = i["price"]["unit_amount"].as_f64().unwrap_or(0.0) * i["quantity"].as_f64().unwrap_or(0.0);
            if i["price"]["recurring"]["interval"] == "year" { amount / 12.0 } else { amount }
        })
        .sum()
}

pub(super) fn stripe_questions(v: &Value) -> Vec<Option<Question>> {
    let subs = list(v, "data");
    let id = |s: &Value| field(s, "id");
    let mut qs = vec![
        end(subs, 0, false, "Which subscription is the newest, and whose is it?", |s| {
            Some(vec![id(s), field(s, "customer")])
        }),
        end(subs, 0, false, "What is the status of the newest subscription, and when was it created?", |s| {
            Some(vec![id(s), field(s, "status"), field(s, "created")])
        }),
        end(subs, 0, false, "Which prices and quantities does the newest subscription have?", |s| {
            Some([vec![id(s)], prices(s)?].concat())
        }),
        end(subs, 0, false, "When does the current period of the newest subscription end?", |s| {
            Some(vec![id(s), field(s, "current_period_end")])
        }),
        end(subs, 0, false, "In which currency is the newest subscription billed?", |s| {
            Some(vec![id(s), field(s, "currency")])
        }),
        end(subs, 1, false, "Which subscription is second, and whose is it?", |s| {
            Some(vec![id(s), field(s, "customer")])
        }),
        end(subs, 1, false, "What is the status of the second subscription?", |s| {
            Some(vec![id(s), field(s, "status")])
        }),
        end(subs, 2, false, "Which prices and quantities does the third subscription have?", |s| {
            Some([vec![id(s)], prices(s)?].concat())
        }),
        end(subs, 3, false, "Which subscription is fourth, and when was it created?", |s| {
            Some(vec![id(s), field(s, "created")])
        }),
        end(subs, 4, false, "Which customer has the fifth subscription?", |s| Some(vec![id(s), field(s, "customer")])),
        end(subs, 0, true, "Which subscription on the page is the oldest, and whose is it?", |s| {
            Some(vec![id(s), field(s, "customer")])
        }),
        end(
            subs,
            0,
            true,
            "What is the status of the oldest subscription on the page, and when was it created?",
            |s| Some(vec![id(s), field(s, "status"), field(s, "created")]),
        ),
        end(subs, 0, true, "Which prices and quantities does the oldest subscription on the page have?", |s| {
            Some([vec![id(s)], prices(s)?].concat())
        }),
        end(subs, 0, true, "When does the current period of the oldest subscription on the page end?", |s| {
            Some(vec![id(s), field(s, "current_period_end")])
        }),
        end(subs, 0, true, "What collection method does the oldest subscription on the page use?", |s| {
            Some(vec![id(s), field(s, "collection_method")])
        }),
        end(subs, 1, true, "Which subscription is second to last, and whose is it?", |s| {
            Some(vec![id(s), field(s, "customer")])
        }),
        end(subs, 1, true, "What is the status of the second to last subscription?", |s| {
            Some(vec![id(s), field(s, "status")])
        }),
        end(subs, 2, true, "Which prices and quantities does the third to last subscription have?", |s| {
            Some([vec![id(s)], prices(s)?].concat())
        }),
        end(subs, 3, true, "Which subscription is fourth to last, and when was it created?", |s| {
            Some(vec![id(s), field(s, "created")])
        }),
        end(subs, 4, true, "Which customer has the fifth to last subscription?", |s| {
            Some(vec![id(s), field(s, "customer")])
        }),
    ];
    for at in [0.25, 0.7] {
        qs.push(lookup(subs, at, "Which customer is the subscription {key} for?", id, |s| {
            Some(vec![field(s, "customer")])
        }));
    }
    for at in [0.4, 0.9] {
        qs.push(lookup(subs, at, "What price nickname and quantity does {key} have?", id, prices));
    }
    for at in [0.15, 0.6] {
        qs.push(lookup(subs, at, "What is the status of {key}, and when does its current period end?", id, |s| {
            Some(vec![field(s, "status"), field(s, "current_period_end")])
        }));
    }
    qs.push(lookup(subs, 0.5, "What is the latest invoice of {key}?", id, |s| Some(vec![field(s, "latest_invoice")])));
    qs.push(lookup(subs, 0.35, "Which coupon is applied to {key}?", id, |s| {
        Some(vec![field(s, "discount.coupon.id"), field(s, "discount.coupon.percent_off")])
    }));
    qs.push(lookup(subs, 0.8, "Which company is {key} for, according to its metadata?", id, |s| {
        Some(vec![field(s, "metadata.company")])
    }));
    qs.push(lookup(subs, 0.05, "What is the default payment method of {key}?", id, |s| {
        Some(vec![field(s, "default_payment_method")])
    }));
    // How many, and which is the largest.
    let subs_where = |keep: &dyn Fn(&Value) -> bool| subs.iter().filter(|s| keep(s)).count();
    for status in ["active", "past_due", "canceled", "unpaid"] {
        let n = subs_where(&|s| s["status"] == status);
        qs.push(Some(count(&format!("How many subscriptions are {status}?"), &[status], n, Some("status"))));
    }
    let n = subs_where(&|s| s["cancel_at_period_end"] == Value::Bool(true));
    qs.push(Some(count(
        "How many subscriptions cancel at the end of their period?",
        &["cancel_at_period_end"],
        n,
        Some("cancel_at_period_end"),
    )));
    let n = subs_where(&|s| s["collection_method"] == "send_invoice");
    qs.push(Some(count(
        "How many subscriptions are paid by invoice (send_invoice)?",
        &["send_invoice"],
        n,
        Some("collection_method"),
    )));
    let n = subs_where(&|s| list(s, "items.data").iter().any(|i| i["price"]["recurring"]["interval"] == "year"));
    qs.push(Some(count(
        "How many subscriptions are billed yearly?",
        &["yearly", "year", "annual"],
        n,
        Some("interval"),
    )));
    let n = subs_where(&|s| s["currency"] == "eur");
    qs.push(Some(count("How many subscriptions are billed in euros?", &["eur", "euros"], n, Some("currency"))));
    let n = subs_where(&|s| s["discount"].is_object());
    qs.push(Some(count("How many subscriptions have a discount?", &["discount"], n, Some("discount"))));
    let n = subs_where(&|s| list(s, "items.data").iter().any(|i| field(i, "price.nickname").starts_with("SSO add-on")));
    qs.push(Some(count("How many subscriptions include the SSO add-on?", &["SSO add-on"], n, Some("nickname"))));
    let amounts: Vec<(f64, String)> = subs.iter().map(|s| (monthly_amount(s), id(s))).collect();
    qs.push(extreme("Which subscription has the largest monthly amount?", amounts.clone(), true, Some("unit_amount")));
    qs.push(extreme("Which subscription has the smallest monthly amount?", amounts, false, Some("unit_amount")));
    let seats: Vec<(i64, String)> =
        subs.iter().filter_map(|s| Some((list(s, "items.data").first()?["quantity"].as_i64()?, id(s)))).collect();
    qs.push(extreme("Which subscription has the most seats on its plan?", seats, true, Some("quantity")));
    let renewals: Vec<(i64, String)> = subs
        .iter()
        .filter(|s| s["status"] == "active")
        .filter_map(|s| Some((s["current_period_end"].as_i64()?, id(s))))
        .collect();
    qs.push(extreme("Which active subscription renews soonest?", renewals, false, Some("current_period_end")));
    qs
}
