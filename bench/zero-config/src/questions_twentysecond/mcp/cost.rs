//! Questions about Cost Explorer's daily costs grouped by service and linked account: what
//! the costs are grouped by, the first day and what its services cost; the accounts' names
//! (listed at the end), the last day and what its services cost; what a service cost, and
//! how much it was used, in an account on a day of the period; and which service, account
//! and day cost the most or least, which service cost most on a day or in an account,
//! which day a service peaked, how many days are estimated, how many groups a day has, on
//! how many days an occasional service was billed, and how many accounts there are.

use std::collections::BTreeMap;

use serde_json::Value;

use super::{list, occurrences};
use crate::question::{Kind, Question};
use crate::questions_blind::{at, count, extreme, together};

/// One group of one day: the service, the account, the cost as written and as a number,
/// and the usage as written.
#[derive(Debug, Clone)]
pub(super) struct Group {
    pub(super) day: String,
    pub(super) service: String,
    pub(super) account: String,
    pub(super) amount: String,
    pub(super) cost: f64,
    pub(super) usage: String,
}

/// Every group of every day, in order.
pub(super) fn groups(v: &Value) -> Vec<Group> {
    let mut out = Vec::new();
    for day in list(v, "ResultsByTime") {
        let start = day["TimePeriod"]["Start"].as_str().unwrap_or_default();
        for g in day["Groups"].as_array().into_iter().flatten() {
            let key = |i: usize| g["Keys"][i].as_str().unwrap_or_default().to_owned();
            let amount = g["Metrics"]["UnblendedCost"]["Amount"].as_str().unwrap_or_default().to_owned();
            out.push(Group {
                day: start.to_owned(),
                service: key(0),
                account: key(1),
                cost: amount.parse().unwrap_or(0.0),
                amount,
                usage: g["Metrics"]["UsageQuantity"]["Amount"].as_str().unwrap_or_default().to_owned(),
            });
        }
    }
    out
}

/// Sums of cost by a key of the groups `keep` accepts.
fn totals<'g>(
    groups: &'g [Group],
    key: impl Fn(&'g Group) -> &'g str,
    keep: impl Fn(&Group) -> bool,
) -> Vec<(f64, String)> {
    let mut sums: BTreeMap<&str, f64> = BTreeMap::new();
    for g in groups.iter().filter(|g| keep(g)) {
        *sums.entry(key(g)).or_default() += g.cost;
    }
    sums.into_iter().map(|(k, c)| (c, k.to_owned())).collect()
}

/// The question "what did a service cost in an account on a day", answered by the service
/// and its amount; `None` when the amount is written elsewhere too, or is nothing.
fn cost_of(raw: &str, g: &Group, names: &BTreeMap<String, String>, kind: Kind) -> Option<Question> {
    if g.cost == 0.0 || occurrences(raw, &g.amount) != 1 {
        return None;
    }
    let account = names.get(&g.account).map_or(g.account.clone(), |n| format!("{} ({n})", g.account));
    let text = format!("How much did {} cost in account {account} on {}?", g.service, g.day);
    let needle = (kind == Kind::Lookup).then_some(g.day.as_str());
    Some(together(kind, text, needle, &[&g.service, &g.amount]))
}

pub(super) fn cost_questions(v: &Value) -> Vec<Option<Question>> {
    let raw = serde_json::to_string(v).unwrap_or_default();
    let all = groups(v);
    let days: Vec<&str> = list(v, "ResultsByTime").iter().filter_map(|d| d["TimePeriod"]["Start"].as_str()).collect();
    let names: BTreeMap<String, String> = list(v, "DimensionValueAttributes")
        .iter()
        .filter_map(|a| Some((a["Value"].as_str()?.to_owned(), a["Attributes"]["description"].as_str()?.to_owned())))
        .collect();
    let on = |day: &str| all.iter().filter(|g| g.day == day).cloned().collect::<Vec<Group>>();
    let (first, last) = (days.first().copied().unwrap_or_default(), days.last().copied().unwrap_or_default());
    let (first_groups, last_groups) = (on(first), on(last));
    let biggest = |gs: &[Group]| gs.iter().max_by(|a, b| a.cost.total_cmp(&b.cost)).cloned();
    let mut qs = vec![
        Some(together(
            Kind::Head,
            "Which dimensions are the costs grouped by?".into(),
            None,
            &["SERVICE", "LINKED_ACCOUNT"],
        )),
        Some(together(Kind::Head, "What is the first day of the report?".into(), None, &[first])),
        biggest(&first_groups).map(|g| {
            together(
                Kind::Head,
                format!("Which service cost the most in one account on the first day, {first}?"),
                None,
                &[&g.service, &g.amount],
            )
        }),
        first_groups.first().filter(|g| !g.usage.is_empty()).map(|g| {
            let text = format!("What was the usage quantity of {} in account {} on {first}?", g.service, g.account);
            together(Kind::Head, text, None, &[&g.service, &g.usage])
        }),
        Some(together(Kind::Tail, "What is the last day of the report?".into(), None, &[last])),
        biggest(&last_groups).map(|g| {
            together(
                Kind::Tail,
                format!("Which service cost the most in one account on the last day, {last}?"),
                None,
                &[&g.service, &g.amount],
            )
        }),
    ];
    // The first day's first groups and the last day's last groups.
    qs.extend(first_groups.iter().filter_map(|g| cost_of(&raw, g, &names, Kind::Head)).take(6).map(Some));
    qs.extend(last_groups.iter().rev().filter_map(|g| cost_of(&raw, g, &names, Kind::Tail)).take(4).map(Some));
    // The accounts' names, which the result lists at its end.
    for (id, name) in &names {
        qs.push(Some(together(Kind::Tail, format!("What is the name of account {id}?"), None, &[id, name])));
    }
    // Groups of days through the period, named by service, account and day.
    for (k, f) in [0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9].iter().enumerate() {
        let day = on(days.get(at(days.len(), *f)).copied().unwrap_or_default());
        let n = day.len();
        qs.push((0..n).map(|i| &day[(k * 5 + i) % n]).find_map(|g| cost_of(&raw, g, &names, Kind::Lookup)));
    }
    for f in [0.35, 0.65] {
        let day = on(days.get(at(days.len(), f)).copied().unwrap_or_default());
        qs.push(day.iter().find(|g| g.usage.len() > 3 && occurrences(&raw, &g.usage) == 1).map(|g| {
            let text = format!("What was the usage quantity of {} in account {} on {}?", g.service, g.account, g.day);
            together(Kind::Lookup, text, Some(&g.day), &[&g.service, &g.usage])
        }));
    }
    qs.extend(aggregates(v, &all, &days, &names));
    qs
}

/// Which service, account and day cost the most or least, and how many of a kind.
fn aggregates(v: &Value, all: &[Group], days: &[&str], names: &BTreeMap<String, String>) -> Vec<Option<Question>> {
    let mid = days.get(at(days.len(), 0.5)).copied().unwrap_or_default();
    let later = days.get(at(days.len(), 0.75)).copied().unwrap_or_default();
    let paid = |g: &Group| g.cost > 0.0;
    let estimated = list(v, "ResultsByTime").iter().filter(|d| d["Estimated"] == true).count();
    let services = totals(all, |g| &g.service, |_| true);
    let accounts = totals(all, |g| &g.account, |_| true);
    let per_day = totals(all, |g| &g.day, |_| true);
    // The account spending most, and its most costly service by day.
    let top_account = accounts.iter().max_by(|a, b| a.0.total_cmp(&b.0)).map(|a| a.1.clone()).unwrap_or_default();
    let mut ranked = accounts.clone();
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
    let nth_account = |i: usize| ranked.get(i).map(|a| a.1.clone()).unwrap_or_default();
    let (second_account, third_account) = (nth_account(1), nth_account(2));
    // Its costliest service among those billed on most days (not a monthly charge).
    let daily = |s: &str| all.iter().filter(|g| g.account == top_account && g.service == s).count() * 2 > days.len();
    let top_service = totals(all, |g| &g.service, |g| g.account == top_account)
        .into_iter()
        .filter(|(_, s)| daily(s))
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, s)| s)
        .unwrap_or_default();
    let named = |id: &str| names.get(id).map_or(id.to_owned(), |n| format!("{id} ({n})"));
    // A service billed on some days only, in one account.
    let mut occasional: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for g in all {
        *occasional.entry((&g.service, &g.account)).or_default() += 1;
    }
    let sometimes = occasional
        .iter()
        .filter(|(_, n)| **n > 3 && **n < days.len() * 9 / 10)
        .max_by_key(|(_, n)| **n)
        .map(|((s, a), n)| (s.to_string(), a.to_string(), *n));
    let mid_groups = all.iter().filter(|g| g.day == mid).count();
    vec![
        extreme(
            "Which service cost the most over the whole period, across all accounts?",
            services.clone(),
            true,
            Some("UnblendedCost"),
        ),
        extreme(
            "Which service cost the least over the whole period, among those that cost anything?",
            services.iter().filter(|s| s.0 > 0.0).cloned().collect(),
            false,
            Some("UnblendedCost"),
        ),
        extreme("Which linked account spent the most over the period?", accounts, true, Some("UnblendedCost")),
        extreme("Which day had the highest total cost?", per_day.clone(), true, Some("UnblendedCost")),
        extreme("Which day had the lowest total cost?", per_day, false, Some("UnblendedCost")),
        extreme(
            &format!("Which service cost the most on {mid}, across all accounts?"),
            totals(all, |g| &g.service, |g| g.day == mid),
            true,
            Some("UnblendedCost"),
        ),
        extreme(
            &format!("Which account spent the most on {later}?"),
            totals(all, |g| &g.account, |g| g.day == later),
            true,
            Some("UnblendedCost"),
        ),
        extreme(
            &format!("Which service cost the most in account {} over the period?", named(&second_account)),
            totals(all, |g| &g.service, |g| g.account == second_account),
            true,
            Some("UnblendedCost"),
        ),
        extreme(
            &format!("Which service cost the most in account {} over the period?", named(&third_account)),
            totals(all, |g| &g.service, |g| g.account == third_account),
            true,
            Some("UnblendedCost"),
        ),
        extreme(
            &format!("On which day did {top_service} cost the most in account {}?", named(&top_account)),
            all.iter()
                .filter(|g| g.service == top_service && g.account == top_account)
                .map(|g| (g.cost, g.day.clone()))
                .collect(),
            true,
            Some("UnblendedCost"),
        ),
        Some(count(
            "How many days are marked as estimated?",
            &["Estimated", "estimated"],
            estimated,
            Some("Estimated"),
        )),
        Some(count(
            &format!("How many service and account groups were billed on {mid}?"),
            &["Groups", "groups"],
            mid_groups,
            Some("Groups"),
        )),
        Some(count(
            &format!("How many service and account groups cost more than nothing on {later}?"),
            &["Groups", "groups"],
            all.iter().filter(|g| g.day == later && paid(g)).count(),
            Some("Groups"),
        ))
        .filter(|_| all.iter().any(|g| g.day == later && !paid(g))),
        sometimes.map(|(s, a, n)| {
            count(&format!("On how many days was {s} billed in account {}?", named(&a)), &[&s], n, Some("Keys"))
        }),
        Some(count(
            "How many linked accounts does the report name?",
            &["accounts", "DimensionValueAttributes"],
            names.len(),
            Some("DimensionValueAttributes"),
        )),
    ]
}
