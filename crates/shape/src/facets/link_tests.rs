//! The hosts and file types of links, counted over every record and checked against
//! counts made here.

use serde_json::json;

use super::part::Part;
use super::*;

/// The facets phrase of `recs`, learned from the first `sample` of them.
fn phrase_of(recs: &[Value], sample: usize, room: usize) -> Option<String> {
    let c = Compactor::learn(&recs[..sample]);
    let mut f = Facets::new(&c);
    recs.iter().for_each(|r| f.add(r));
    f.phrase(room)
}

/// Requests to a few hosts, each for a named file of some type or an API path with none:
/// links not made from the record's other values and mostly not images, which the view
/// keeps.
fn requests(n: usize) -> Vec<Value> {
    let names = ["sofa", "lamp", "rug", "desk", "chair", "shelf", "bed", "stool", "bench", "mirror", "vase", "clock"];
    (0..n)
        .map(|i| {
            let host = ["images.shop.example", "api.shop.example", "cdn.tracker.example"][i % 7 % 3];
            let name = names[i * 5 % names.len()];
            let path = match i % 4 {
                0 => format!("/p/{name}-oak.jpg?w=640&fm=webp"),
                1 => format!("/v2/cart/{name}"),
                2 => format!("/assets/{name}.js"),
                _ => format!("/css/{name}-blush.css"),
            };
            json!({"id": format!("req-{i}"), "url": format!("https://{host}{path}"), "method": (["GET", "POST"][i % 5 / 4])})
        })
        .collect()
}

#[test]
fn the_hosts_and_file_types_of_links_are_counted_over_every_record() {
    // Some requests repeat (as a page loads one image twice): the links are not an id.
    let recs = requests(120);
    let p = phrase_of(&recs, 120, 10_000).unwrap();
    let count = |part: &dyn Fn(&str) -> Option<String>, value: &str| {
        recs.iter().filter(|r| part(r["url"].as_str().unwrap()).as_deref() == Some(value)).count()
    };
    let host = |u: &str| Part::Host.of(u).map(str::to_owned);
    let kind = |u: &str| Part::LinkType.of(u).map(str::to_owned);
    let hosts = p.split("; ").find(|c| c.starts_with("hosts of url")).unwrap_or_else(|| panic!("no hosts in {p}"));
    for h in ["images.shop.example", "api.shop.example", "cdn.tracker.example"] {
        assert!(hosts.contains(&format!("{h} {}", count(&host, h))), "{h} in {hosts}");
    }
    let types = p.split("; ").find(|c| c.starts_with("file types of url")).unwrap_or_else(|| panic!("no types in {p}"));
    assert!(types.contains(&format!("jpg {}", count(&kind, "jpg"))), "{types}");
    assert!(types.contains(&format!("js {}", count(&kind, "js"))), "{types}");
    assert!(types.contains(&format!("css {}", count(&kind, "css"))), "{types}");
    assert!(!types.contains("webp"), "a query's words are not the file's type: {types}");
}

#[test]
fn links_on_one_host_or_fields_without_links_say_no_hosts() {
    let recs: Vec<Value> = (0..60)
        .map(|i| json!({"id": i, "html_url": format!("https://git.example/acme/api/issues/{i}"), "title": format!("Issue number {i} about things")}))
        .collect();
    let p = phrase_of(&recs, 10, 10_000).unwrap_or_default();
    assert!(!p.contains("hosts of"), "one host in every record is no count: {p}");
    assert!(!p.contains("hosts of title"), "{p}");
}

#[test]
fn a_link_s_host_and_path_leave_out_credentials_port_query_and_fragment() {
    use super::part::link_parts;
    assert_eq!(link_parts("https://u:p@Host.example:8443/a/b.js?x=1#f"), Some(("Host.example", "/a/b.js")));
    assert_eq!(link_parts("http://h.example"), Some(("h.example", "")));
    assert_eq!(link_parts("http://h.example?q=/x.js"), Some(("h.example", "")));
    assert_eq!(link_parts("ftp://h.example/x"), None);
    assert_eq!(link_parts("https:///x"), None);
    assert_eq!(Part::LinkType.of("https://h.example/v1.2/items"), None, "a version is no file type");
    assert_eq!(Part::LinkType.of("https://h.example/a.tar.gz"), Some("gz"));
}

mod link_counts {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]

        /// Every host a summary counts is counted as often as the records' links name it.
        #[test]
        fn host_counts_equal_counts_over_the_records(
            picks in proptest::collection::vec((0usize..5, 0usize..3, 0u32..40), 20..150),
        ) {
            let hosts = ["a.example", "b.example", "cdn.c.example", "d.example:8080", "e.example"];
            let recs: Vec<Value> = picks
                .iter()
                .enumerate()
                .map(|(i, (h, t, n))| {
                    let file = ["sofa.png", "app.js", "api/items"][*t];
                    let word = ["oak", "ash", "elm", "fir", "yew", "box"][*n as usize % 6];
                    json!({"n": i, "link": format!("https://{}/{word}/{file}?v={n}", hosts[*h])})
                })
                .collect();
            let p = phrase_of(&recs, recs.len().min(10), 20_000).unwrap_or_default();
            // Whether the links are kept and their hosts said is the view's to decide (links
            // made of two templates are left out); what is said is checked.
            let Some(clause) = p.split("; ").find(|c| c.starts_with("hosts of link")) else { return Ok(()) };
            let listed = clause.split_once(": ").map_or("", |(_, l)| l);
            for entry in listed.split(", ") {
                let entry = entry.split(" (+").next().unwrap_or(entry);
                let Some((host, n)) = entry.rsplit_once(' ') else { continue };
                let n: usize = n.replace(',', "").parse().unwrap_or(usize::MAX);
                let actual = recs.iter().filter(|r| Part::Host.of(r["link"].as_str().unwrap()) == Some(host)).count();
                prop_assert_eq!(n, actual, "{} in {}", host, clause);
            }
        }
    }
}
