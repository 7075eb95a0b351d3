//! The questions asked of the pod listing and the browser snapshot: what an operator
//! asks of `kubectl get pods -A -o wide` (a pod's status, node, IP and restarts, how
//! many pods crash-loop or wait, which node and namespace hold the most, which pod
//! restarted most) and what a shopper's agent asks of a product listing (a product's
//! price, reviews, rating and brand, how many products are on sale or nearly gone, which
//! has the most reviews, which is cheapest and dearest, which brand the filter counts
//! most of).

use serde_json::Value;

use super::readers::{age_seconds, filter_options, page_links, pods, products};
use super::tools::{ends, field};
use crate::question::{Kind, Question, Records};
use crate::questions_blind::{about, count, extreme, most_frequent, only, scored_by, together};

/// `kubectl get pods -A -o wide`: the first pod and the last with its status; a pod's
/// status, node, IP, restarts and age; how many pods crash-loop, are pending, cannot pull
/// their image, have restarted, or are in a namespace; the node, namespace and pod with
/// the most pods or restarts, the namespace with the most pods in trouble and the pod
/// longest in trouble.
pub(crate) fn pod_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let ps = pods(ls);
    let r = Records { list: &ps };
    let placed = only(&ps, |x| x["NODE"] != "<none>");
    let addressed = only(&ps, |x| x["IP"] != "<none>");
    let restarted = only(&ps, |x| x["restarts"].as_u64().is_some_and(|n| n > 0));
    let status = |s: &str| ps.iter().filter(|x| x["STATUS"] == s).count();
    let troubled = only(&ps, |x| x["STATUS"] != "Running" && x["STATUS"] != "Completed");
    vec![
        ends(ps.first(), Kind::Head, "Which pod is listed first? Give its namespace and name.", &["NAMESPACE", "NAME"]),
        ends(ps.last(), Kind::Tail, "Which pod is listed last, and what is its status?", &["NAME", "STATUS"]),
        r.lookup("What is the status of pod {key}?", 0.3, "NAME", "STATUS"),
        Records { list: &troubled }.lookup("What is the status of pod {key}?", 0.5, "NAME", "STATUS"),
        Records { list: &placed }.lookup("Which node is pod {key} running on?", 0.6, "NAME", "NODE"),
        Records { list: &addressed }.lookup("What is the IP address of pod {key}?", 0.9, "NAME", "IP"),
        Records { list: &restarted }.lookup("How many times has {key} restarted?", 0.75, "NAME", "RESTARTS"),
        r.lookup("How old is pod {key}?", 0.15, "NAME", "AGE"),
        Some(count(
            "How many pods are in CrashLoopBackOff?",
            &["CrashLoopBackOff"],
            status("CrashLoopBackOff"),
            Some("STATUS"),
        )),
        Some(count("How many pods are Pending?", &["Pending"], status("Pending"), Some("STATUS"))),
        Some(count(
            "How many pods cannot pull their image (ImagePullBackOff or ErrImagePull)?",
            &["ImagePullBackOff", "ErrImagePull", "image"],
            status("ImagePullBackOff") + status("ErrImagePull"),
            Some("STATUS"),
        )),
        Some(count("How many pods have restarted at least once?", &["restarted"], restarted.len(), Some("RESTARTS"))),
        about("NAMESPACE", r.count("How many pods are in the namespace {value}?", "NAMESPACE", None)),
        extreme(
            "Which node runs the most pods?",
            most_frequent(placed.iter().filter_map(field("NODE"))),
            true,
            Some("NODE"),
        ),
        extreme(
            "Which namespace has the most pods?",
            most_frequent(ps.iter().filter_map(field("NAMESPACE"))),
            true,
            Some("NAMESPACE"),
        ),
        extreme(
            "Which pod has restarted the most times?",
            scored_by(&ps, |x| x["restarts"].as_u64(), "NAME"),
            true,
            Some("RESTARTS"),
        ),
        extreme(
            "Which namespace has the most pods that are neither Running nor Completed?",
            most_frequent(troubled.iter().filter_map(field("NAMESPACE"))),
            true,
            Some("STATUS"),
        ),
        extreme(
            "Which pod that is neither Running nor Completed has been around the longest?",
            scored_by(&troubled, |x| age_seconds(x["AGE"].as_str()?), "NAME"),
            true,
            Some("AGE"),
        ),
    ]
}

/// The Playwright snapshot of a listing: the first product and the results line, the
/// last product and the last page; a product's price, reviews, rating, brand, regular
/// price, badge and link; how many products are listed, on sale, sold out or low in
/// stock, or by a brand; the product with the most reviews, the cheapest and dearest,
/// and the brand the filter counts most products of.
pub(crate) fn snapshot_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let ps = products(ls);
    let r = Records { list: &ps };
    let sale = only(&ps, |x| x["regular"].is_string());
    let badged = only(&ps, |x| x["badge"].is_string());
    let reviewed = only(&ps, |x| x["reviews"].is_string());
    let low = ps.iter().filter(|x| x["badge"].as_str().is_some_and(|b| b.starts_with("Only ") && b.ends_with(" left")));
    let sold_out = ps.iter().filter(|x| x["sold_out"] == true).count();
    let showing = ls.iter().find_map(|l| l.split_once("]: Showing ").map(|(_, t)| format!("Showing {t}")));
    let brands: Vec<(u64, String)> = filter_options(ls, "Brand").into_iter().map(|(_, b, n)| (n, b)).collect();
    let price = |x: &Value| x["price_cents"].as_u64();
    vec![
        r.head("Which product is listed first?", "name"),
        showing
            .map(|t| together(Kind::Head, "Which products of the collection does this page show?".into(), None, &[&t])),
        r.tail("Which product is listed last in the results?", "name"),
        page_links(ls).last().map(|p| {
            together(Kind::Tail, "How many pages of results are there (the last page link)?".into(), None, &[p])
        }),
        r.lookup("What is the price of {key}?", 0.3, "name", "price"),
        Records { list: &reviewed }.lookup("How many reviews does {key} have?", 0.6, "name", "reviews"),
        Records { list: &reviewed }.lookup("What is the star rating of {key}?", 0.9, "name", "rating"),
        r.lookup("Which brand makes {key}?", 0.75, "name", "brand"),
        Records { list: &sale }.lookup("What was the regular price of {key} before the sale?", 0.5, "name", "regular"),
        Records { list: &badged }.lookup("What badge does {key} show?", 0.4, "name", "badge"),
        r.lookup("Which page does {key} link to?", 0.2, "name", "url"),
        Some(count("How many products are listed on this page?", &["products"], ps.len(), Some("name"))),
        Some(count("How many products on this page are on sale?", &["on sale", "sale"], sale.len(), Some("regular"))),
        Some(count("How many products are sold out?", &["Sold out", "sold out"], sold_out, Some("badge"))),
        Some(count(
            "How many products are marked as low in stock (\"Only N left\")?",
            &["left", "low in stock"],
            low.count(),
            Some("badge"),
        )),
        about("brand", r.count("How many products on this page are made by {value}?", "brand", None)),
        extreme(
            "Which product has the most reviews?",
            scored_by(&ps, |x| x["review_count"].as_u64(), "name"),
            true,
            Some("reviews"),
        ),
        extreme("Which product is the cheapest?", scored_by(&ps, price, "name"), false, Some("price")),
        extreme("Which product is the most expensive?", scored_by(&ps, price, "name"), true, Some("price")),
        extreme(
            "Which brand has the most products in the collection, by the Brand filter?",
            brands,
            true,
            Some("Brand"),
        ),
    ]
}
