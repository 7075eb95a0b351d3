//! Tests of the cli half's questions: the readers of compiler errors, pod listings,
//! browser snapshots and search matches computing their records and answers from small
//! hand-made outputs. Every shape's questions (nine of every kind, every answer in the raw
//! output, at several seeds) are checked for the whole part in `questions_twentyfirst`.

use super::readers::{
    age_seconds, cents, issues, matches, owner_of, page_links, pods, products, tsc_errors, tsc_table,
};
use super::*;
use crate::question::Check;
use crate::questions::tests::checks;

#[test]
fn compiler_errors_and_their_table_are_read_by_their_lines() {
    let out = "src/types/api.ts(8,24): error TS2305: Module '\"@/types/catalog\"' has no exported member 'Paginated'.\n\
               src/lib/money.ts(12,5): error TS2322: Type 'string | undefined' is not assignable to type 'string'.\n\
               \x20 Type 'undefined' is not assignable to type 'string'.\n\
               src/lib/money.ts(40,9): error TS18048: 'order' is possibly 'undefined'.\n\
               src/lib/money.ts(41,3): error TS2532: Object is possibly 'undefined'.\n\
               src/__tests__/cart.test.ts(3,10): error TS2307: Cannot find module 'lodash.debounce' or its corresponding type declarations.\n\
               \n\
               Found 5 errors in 3 files.\n\
               \n\
               Errors  Files\n\
               \x20    1  src/types/api.ts:8\n\
               \x20    3  src/lib/money.ts:12\n\
               \x20    1  src/__tests__/cart.test.ts:3\n";
    let ls = lines(out);
    let errors = tsc_errors(&ls);
    assert_eq!(errors.len(), 5);
    assert_eq!(errors[1]["location"], "src/lib/money.ts(12,5)");
    assert_eq!(errors[1]["code"], "TS2322");
    assert_eq!(errors[2]["message"], "'order' is possibly 'undefined'.");
    let table = tsc_table(&ls);
    assert_eq!(table.len(), 3);
    assert_eq!(table[1]["count"], 3);
    assert_eq!(table[2]["first"], "src/__tests__/cart.test.ts:3");
    let qs = text_questions("tsc_noemit", out).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["src/types/api.ts(8,24)".into(), "TS2305".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["src/__tests__/cart.test.ts(3,10)".into(), "TS2307".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["src/__tests__/cart.test.ts:3".into(), "1".into()])), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["errors".into()], value: "5".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["files".into()], value: "3".into() }), "{c:?}");
    assert!(
        c.contains(&&Check::Count {
            labels: vec!["possibly 'undefined'".into(), "possibly undefined".into()],
            value: "2".into()
        }),
        "{c:?}"
    );
    assert!(c.contains(&&Check::Extreme { id: "src/lib/money.ts".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "src/lib".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "src/__tests__/cart.test.ts".into(), max: true }), "{c:?}");
}

#[test]
fn pods_are_read_by_the_columns_of_their_header() {
    let out = "NAMESPACE     NAME                       READY   STATUS             RESTARTS          AGE   IP            NODE                NOMINATED NODE   READINESS GATES\n\
               checkout      checkout-api-7d9f8-x2kqp   1/1     Running            0                 45d   10.0.17.4     ip-10-0-16-9.int    <none>           <none>\n\
               checkout      checkout-api-7d9f8-b8zzt   0/1     CrashLoopBackOff   147 (4m12s ago)   3h12m 10.0.17.9     ip-10-0-16-9.int    <none>           <none>\n\
               ml-serving    recommender-55f-gk2lp      0/2     Pending            0                 12m   <none>        <none>              <none>           <none>\n\
               staging       search-api-6c4-q7r2m       0/1     ImagePullBackOff   0                 2d4h  10.0.33.20    ip-10-0-32-7.int    <none>           <none>\n\
               staging       postgres-0                 1/1     Running            3 (2d4h ago)      45d   10.0.33.21    ip-10-0-16-9.int    <none>           <none>\n";
    let ls = lines(out);
    let ps = pods(&ls);
    assert_eq!(ps.len(), 5);
    assert_eq!(ps[1]["RESTARTS"], "147 (4m12s ago)");
    assert_eq!(ps[1]["restarts"], 147);
    assert_eq!(ps[2]["NODE"], "<none>");
    assert_eq!(ps[4]["NOMINATED NODE"], "<none>");
    assert_eq!(age_seconds("3h12m"), Some(3 * 3600 + 12 * 60));
    assert_eq!(age_seconds("2d4h"), Some(2 * 86_400 + 4 * 3600));
    assert_eq!(age_seconds("45"), None);
    let qs = text_questions("kubectl_get_pods_wide", out).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["checkout".into(), "checkout-api-7d9f8-x2kqp".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["postgres-0".into(), "Running".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["postgres-0".into(), "3 (2d4h ago)".into()])), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["CrashLoopBackOff".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["Pending".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["restarted".into()], value: "2".into() }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "ip-10-0-16-9.int".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "checkout-api-7d9f8-b8zzt".into(), max: true }), "{c:?}");
    // Checkout and staging hold two pods each: no namespace holds the most.
    assert!(!qs.iter().any(|q| q.text == "Which namespace has the most pods?"), "{c:?}");
}

#[test]
fn product_cards_filters_and_pages_are_read_from_the_snapshot() {
    let out = "### Page state\n- Page URL: https://shop.example/collections/run\n- Page Title: Run\n- Page Snapshot:\n```yaml\n\
               - generic [active] [ref=e1]:\n\
               \x20 - main [ref=e2]:\n\
               \x20   - complementary \"Filters\" [ref=e3]:\n\
               \x20     - group \"Brand\" [ref=e4]:\n\
               \x20       - list [ref=e5]:\n\
               \x20         - listitem [ref=e6]:\n\
               \x20           - checkbox \"Kestrel (202)\" [ref=e7]\n\
               \x20         - listitem [ref=e8]:\n\
               \x20           - checkbox \"Lumen Run (44)\" [ref=e9]\n\
               \x20   - status [ref=e10]: Showing 1–2 of 246 products\n\
               \x20   - list \"Products\" [ref=e11]:\n\
               \x20     - listitem [ref=e12]:\n\
               \x20       - link \"Kestrel Trail Runner 2 in Citrus\" [ref=e13] [cursor=pointer]:\n\
               \x20         - /url: /products/kestrel-trail-runner-2\n\
               \x20       - generic [ref=e14]: Only 3 left\n\
               \x20       - generic [ref=e15]:\n\
               \x20         - paragraph [ref=e16]: Kestrel\n\
               \x20         - heading \"Trail Runner 2\" [level=3] [ref=e17]:\n\
               \x20           - link \"Trail Runner 2\" [ref=e18] [cursor=pointer]:\n\
               \x20             - /url: /products/kestrel-trail-runner-2\n\
               \x20         - generic [ref=e19]:\n\
               \x20           - img \"4.6 out of 5 stars\" [ref=e20]\n\
               \x20           - generic [ref=e21]: 1,284 reviews\n\
               \x20         - generic [ref=e22]:\n\
               \x20           - generic [ref=e23]: Sale price\n\
               \x20           - text: $99.95\n\
               \x20           - generic [ref=e24]: Regular price\n\
               \x20           - deletion [ref=e25]: $129.00\n\
               \x20       - button \"Quick add Trail Runner 2\" [ref=e26] [cursor=pointer]\n\
               \x20     - listitem [ref=e27]:\n\
               \x20       - generic [ref=e28]: Sold out\n\
               \x20       - generic [ref=e29]:\n\
               \x20         - paragraph [ref=e30]: Lumen Run\n\
               \x20         - heading \"Comet 4 \\\"Night\\\"\" [level=3] [ref=e31]\n\
               \x20         - generic [ref=e32]:\n\
               \x20           - generic [ref=e33]: No reviews yet\n\
               \x20         - generic [ref=e34]:\n\
               \x20           - generic [ref=e35]: Regular price\n\
               \x20           - text: $1,149.00\n\
               \x20       - button \"Sold out\" [disabled] [ref=e36]\n\
               \x20   - navigation \"Pagination\" [ref=e37]:\n\
               \x20     - link \"Page 1\" [disabled] [ref=e38]\n\
               \x20     - link \"Page 2\" [ref=e39] [cursor=pointer]:\n\
               \x20       - /url: /collections/run?page=2\n\
               \x20     - link \"Next page\" [ref=e40] [cursor=pointer]:\n\
               \x20       - /url: /collections/run?page=2\n```\n";
    let ls = lines(out);
    let ps = products(&ls);
    assert_eq!(ps.len(), 2);
    assert_eq!(ps[0]["name"], "Trail Runner 2");
    assert_eq!(ps[0]["brand"], "Kestrel");
    assert_eq!(ps[0]["price"], "$99.95");
    assert_eq!(ps[0]["regular"], "$129.00");
    assert_eq!(ps[0]["review_count"], 1284);
    assert_eq!(ps[0]["badge"], "Only 3 left");
    assert_eq!(ps[1]["name"], "Comet 4 \"Night\"");
    assert_eq!(ps[1]["price_cents"], 114_900);
    assert_eq!(ps[1]["sold_out"], true);
    assert!(ps[1]["rating"].is_null());
    assert_eq!(cents("$1,149.00"), Some(114_900));
    assert_eq!(page_links(&ls), vec!["Page 1".to_owned(), "Page 2".to_owned()]);
    let qs = text_questions("playwright_snapshot", out).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["Trail Runner 2".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["Showing 1–2 of 246 products".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["Page 2".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["Trail Runner 2".into(), "$129.00".into()])), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["on sale".into(), "sale".into()], value: "1".into() }), "{c:?}");
    assert!(
        c.contains(&&Check::Count { labels: vec!["left".into(), "low in stock".into()], value: "1".into() }),
        "{c:?}"
    );
    assert!(c.contains(&&Check::Extreme { id: "Trail Runner 2".into(), max: false }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Comet 4 \"Night\"".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Kestrel".into(), max: true }), "{c:?}");
}

#[test]
fn search_matches_are_read_with_their_owners_and_issues() {
    let out = "services/checkout/internal/legacy/pricing.go:88:\t// TODO(priya): use errors.Is (#2231)\n\
               services/checkout/internal/legacy/pricing.go:140:\t\t// FIXME: rounding, see https://github.com/northwind/monorepo/issues/2231\n\
               services/checkout/internal/legacy/pricing.go:311:\tconst maskedPAN = \"XXXX-XXXX-XXXX-%s\"\n\
               ml/recommender/recommender/features.py:12:    # TODO(@priya): vectorise (#4410)\n\
               ml/recommender/recommender/features.py:97:    df = df.dropna()  # HACK - drop pandas here (#2231)\n\
               web/storefront/src/lib/money.ts:5:  // TODO(mateo) hardcoded to USD (PLAT-1182)\n";
    let ls = lines(out);
    let ms = matches(&ls);
    assert_eq!(ms.len(), 6);
    assert_eq!(ms[0]["at"], "services/checkout/internal/legacy/pricing.go:88");
    assert_eq!(ms[0]["text"], "// TODO(priya): use errors.Is (#2231)");
    assert_eq!(ms[3]["owner"], "priya");
    assert_eq!(ms[5]["owner"], "mateo");
    assert_eq!(ms[2]["extension"], ".go");
    assert_eq!(ms[3]["directory"], "ml/recommender/recommender");
    assert_eq!(owner_of("FIXME(lena): x", "FIXME").as_deref(), Some("lena"));
    assert_eq!(owner_of("TODO(see below)", "TODO"), None);
    assert_eq!(issues("see #2231 and #12 and a#999 (#4410)"), vec!["#2231".to_owned(), "#4410".to_owned()]);
    let qs = text_questions("rg_todo_search", out).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["services/checkout/internal/legacy/pricing.go:88".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["web/storefront/src/lib/money.ts:5".into()])), "{c:?}");
    assert!(
        c.contains(&&Check::Together(vec!["#4410".into(), "ml/recommender/recommender/features.py".into()])),
        "{c:?}"
    );
    assert!(c.contains(&&Check::Count { labels: vec!["matches".into(), "lines".into()], value: "6".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["files".into()], value: "3".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["FIXME".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec![".py".into(), "Python".into()], value: "2".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["mateo".into()], value: "1".into() }), "{c:?}");
    assert!(
        c.contains(&&Check::Extreme { id: "services/checkout/internal/legacy/pricing.go".into(), max: true }),
        "{c:?}"
    );
    assert!(c.contains(&&Check::Extreme { id: "priya".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: ".go".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "#2231".into(), max: true }), "{c:?}");
}
