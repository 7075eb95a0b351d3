//! Facets computed over every record, checked against counts made here.

use super::*;
use serde_json::json;

/// The facets phrase of `recs`, learned from the first `sample` of them.
fn phrase_of(recs: &[Value], sample: usize, room: usize) -> Option<String> {
    let c = Compactor::learn(&recs[..sample]);
    let mut f = Facets::new(&c);
    recs.iter().for_each(|r| f.add(r));
    f.phrase(room)
}

fn records() -> Vec<Value> {
    (0..40)
        .map(|i| json!({"id": format!("ch_{i:03}"), "status": (["ok", "ok", "ok", "failed"][i % 4]), "amount": (i * 37) % 101, "created": format!("2025-12-{:02}T10:00:00Z", 1 + i % 28), "labels": [(["a", "b"][i % 2])]}))
        .collect()
}

#[test]
fn counts_and_extremes_are_over_every_record() {
    let recs = records();
    let p = phrase_of(&recs, 10, 10_000).unwrap();
    assert!(p.contains("status: ok 30, failed 10"), "{p}");
    assert!(p.contains("labels: a 20, b 20"), "{p}");
    let (max, holder) = recs
        .iter()
        .map(|r| (r["amount"].as_u64().unwrap(), r["id"].as_str().unwrap()))
        .max_by_key(|(a, _)| *a)
        .unwrap();
    assert!(p.contains(&format!("amount: max {max} (id {holder})")), "{p}");
    assert!(p.contains("created: latest 2025-12-28T10:00:00Z"), "{p}");
}

#[test]
fn records_holding_none_of_a_fields_values_are_counted() {
    // Tasks with no assignees (an empty list) and issues with no assignee (no member): "how
    // many are unassigned" is answered by neither the counts nor their sum.
    let recs: Vec<Value> = (0..40)
        .map(|i| {
            let who: Vec<&str> =
                if i % 5 == 0 { vec![] } else { vec![["Sana Wang", "Diego Costa", "Farah Berg"][i % 3]] };
            let mut r = json!({"id": format!("t{i}"), "assignees": who, "state": (["open", "done"][i % 2])});
            if i % 8 != 0 {
                r["owner"] = json!(["ops", "web", "data"][i % 3]);
            }
            r
        })
        .collect();
    let p = phrase_of(&recs, 20, 10_000).unwrap();
    let empty = recs.iter().filter(|r| r["assignees"].as_array().unwrap().is_empty()).count();
    let unowned = recs.iter().filter(|r| r.get("owner").is_none()).count();
    assert!(p.contains(&format!("without assignees: {empty}")), "{p}");
    assert!(p.contains(&format!("without owner: {unowned}")), "{p}");
    assert!(!p.contains("without state"), "every record has a state: {p}");
    // One value: the records without it are the records less its count, said already.
    let mut pinned = counter::Counter::new(0, true);
    for record in 0..30 {
        pinned.add(&json!(true), record);
    }
    let (said, _) = pinned.clause("pinned", 40, 6).unwrap();
    assert_eq!(said, "pinned: true 30");
}

#[test]
fn a_code_is_written_with_the_name_another_field_gives_it() {
    // Events with a country's code and its name: a reader asks by either. A city and its
    // time zone split the records alike too, but neither is a code: each is said alone.
    let places = [
        ("US", "United States", "Austin", "America/Chicago"),
        ("GB", "United Kingdom", "London", "Europe/London"),
        ("AU", "Australia", "Sydney", "Australia/Sydney"),
    ];
    let recs: Vec<Value> = (0..40)
        .map(|i| {
            let (code, country, city, zone) = places[(i % 7 % 3) as usize];
            if i % 10 == 9 {
                return json!({"id": format!("e{i}"), "event": "$pageleave"});
            }
            json!({"id": format!("e{i}"), "event": "$pageview", "country_code": code, "country_name": country, "city": city, "time_zone": zone})
        })
        .collect();
    let p = phrase_of(&recs, 20, 10_000).unwrap();
    let gb = recs.iter().filter(|r| r["country_code"] == "GB").count();
    assert!(p.contains(&format!("GB / United Kingdom {gb}")), "{p}");
    assert!(!p.contains("London / Europe/London") && !p.contains("Europe/London / London"), "{p}");
    // The four fields are missing from the same records: that is said once.
    assert_eq!(p.matches("without ").count(), 1, "{p}");
}

#[test]
fn the_phrase_keeps_whole_clauses_within_its_room() {
    let recs = records();
    let p = phrase_of(&recs, 10, 80).unwrap();
    assert!(p.starts_with("status: ok 30, failed 10; "), "{p}");
    assert!(p.ends_with("more facets with a larger budget"), "{p}");
    assert!(p.len() <= 80, "{} chars: {p}", p.len());
}

/// Regression: the note of facets left out was added after the room was filled, so a
/// phrase ran past its room and the text maps that check their length dropped it whole
/// at some budgets and showed it at smaller ones.
#[test]
fn a_larger_room_never_shows_fewer_facets_and_no_room_is_overrun() {
    let recs = records();
    let c = Compactor::learn(&recs[..10]);
    let mut f = Facets::new(&c);
    recs.iter().for_each(|r| f.add(r));
    let mut shown_before = 0;
    for room in 60..600 {
        let part = f.phrase_with(room, TOP, 0).expect("a phrase");
        let (p, shown) = (part.with_note("a larger budget"), part.shown);
        assert!(p.len() <= room, "{} chars in a room of {room}: {p}", p.len());
        assert!(shown >= shown_before, "room {room} shows {shown} facets, a smaller one {shown_before}");
        shown_before = shown;
    }
    assert!(shown_before >= 4, "{shown_before}");
}

/// The facets a first page has no room for go on in the pages after it: each page starts
/// where the last stopped, every clause is said once, in order, and nothing is lost.
#[test]
fn facets_left_out_go_on_from_where_the_last_page_stopped() {
    let recs = records();
    let c = Compactor::learn(&recs[..10]);
    let mut f = Facets::new(&c);
    recs.iter().for_each(|r| f.add(r));
    let whole = f.phrase_with(usize::MAX, TOP, 0).expect("a phrase");
    assert_eq!(whole.left, 0);
    let mut paged_whole = 0;
    for room in [60, 90, 150, 250] {
        let (mut said, mut skip, mut pages) = (Vec::new(), 0, 0);
        while let Some(part) = f.phrase_with(room, TOP, skip) {
            assert!(part.shown > 0 || part.left > 0, "room {room}: an empty page");
            assert!(part.with_note("next").len() <= room, "room {room}: {}", part.with_note("next"));
            said.push(part.text.clone());
            pages += 1;
            if part.left == 0 {
                break;
            }
            assert!(part.next > skip, "room {room}: the pages do not move on");
            skip = part.next;
            assert!(pages < 50, "room {room}: no end");
        }
        let joined: Vec<&str> = said.iter().filter(|t| !t.is_empty()).map(String::as_str).collect();
        // Where every clause fits a page, the pages say exactly the whole; a clause larger
        // than a page is cut, marked, and the next page goes on after it.
        if whole.text.split("; ").all(|c| c.len() + " more facets with a larger budget".len() + 4 <= room) {
            assert_eq!(joined.join("; "), whole.text, "room {room}");
            paged_whole += usize::from(pages > 1);
        } else {
            assert!(joined.iter().any(|t| t.ends_with(" …")), "room {room}: {joined:?}");
        }
    }
    assert!(paged_whole > 0, "no room paged whole clauses");
    assert!(f.phrase_with(60, TOP, whole.shown).is_none(), "no page past the last clause");
}

#[test]
fn a_field_the_sample_spreads_out_is_counted_when_every_record_repeats_it() {
    // The first records each have their own location; over all of them, a few repeat.
    let recs: Vec<Value> = (0..60)
        .map(|i| {
            let location = if i < 8 { format!("Room {i}") } else { format!("Hall ({})", i % 3) };
            json!({"id": format!("ev{i:03}"), "location": location, "code": ([200, 201, 404][i % 3])})
        })
        .collect();
    let p = phrase_of(&recs, 8, 10_000).unwrap();
    let expected = recs.iter().filter(|r| r["location"] == "Hall (1)").count();
    assert!(p.contains(&format!("Hall (1) {expected}")), "{p}");
    // A number of few values gets its counts besides its range.
    assert!(p.contains("code, most first: 200 20, 201 20, 404 20"), "{p}");
}

#[test]
fn long_values_keep_what_tells_them_apart_and_are_quoted_when_they_hold_separators() {
    let agents = [
        "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
        "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
        "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
    ];
    let recs: Vec<Value> =
        (0..60).map(|i| json!({"id": format!("r{i}"), "agent": agents[[0, 1, 2, 2][i % 4]]})).collect();
    let p = phrase_of(&recs, 10, 10_000).unwrap();
    let googlebot = p.split(", ").find(|entry| entry.contains("Googlebot")).unwrap_or_else(|| panic!("{p}"));
    assert!(googlebot.starts_with('"') && googlebot.ends_with("\" 15"), "{googlebot} in {p}");
    assert!(p.contains("bingbot"), "{p}");
}

#[test]
fn values_that_never_repeat_get_no_counts() {
    let recs: Vec<Value> = (0..200)
        .map(|i| json!({"id": format!("r{i}"), "ref": format!("x-{}", i * 7919 % 1000), "kind": (["a", "b"][i % 2])}))
        .collect();
    let c = Compactor::learn(&recs[..10]);
    let mut f = Facets::new(&c);
    recs.iter().for_each(|r| f.add(r));
    let p = f.phrase(10_000).unwrap_or_default();
    assert!(!p.contains("ref:"), "{p}");
    for acc in &f.accs {
        if let Acc::Counts(counter) = acc
            && c.columns[counter.column].name == "ref"
            && counter.part.is_none()
        {
            assert!(counter.given_up && counter.counts.is_empty(), "an id's values are not kept");
        }
    }
}

#[test]
fn money_written_as_text_has_a_largest() {
    let recs: Vec<Value> = (0..30)
        .map(|i| json!({"name": format!("#{}", 5100 + i), "total_price": format!("{}.{:02}", 10 + (i * 37) % 90, i), "status": (["paid", "pending"][i % 2])}))
        .collect();
    let c = Compactor::learn(&recs[..10]);
    assert_eq!(c.key.map(|k| c.columns[k].name.as_str()), Some("name"), "a price is not a key");
    let mut f = Facets::new(&c);
    recs.iter().for_each(|r| f.add(r));
    let p = f.phrase(10_000).unwrap();
    let top = recs
        .iter()
        .max_by(|a, b| {
            let price = |r: &Value| r["total_price"].as_str().unwrap().parse::<f64>().unwrap();
            price(a).total_cmp(&price(b))
        })
        .unwrap();
    let expected =
        format!("total_price: max {} (name {})", top["total_price"].as_str().unwrap(), top["name"].as_str().unwrap());
    assert!(p.contains(&expected), "{p}");
}
#[test]
fn long_ids_are_counted_whole_and_keys_are_shown_whole() {
    // Resource ids share their first 60 characters: cut, they would all look alike.
    let prefix = "/subscriptions/0000-1111/resourceGroups/RG-PROD/providers/Microsoft.Compute/virtualMachines/";
    let recs: Vec<Value> = (0..80)
        .map(|i| json!({"id": format!("{prefix}vm-{i}"), "name": format!("Zhou Partners - Data Connectors ({i} seats)"), "size": (i * 13) % 97}))
        .collect();
    let c = Compactor::learn(&recs[..20]);
    let mut f = Facets::new(&c);
    recs.iter().for_each(|r| f.add(r));
    let p = f.phrase(10_000).unwrap();
    assert!(!p.contains("id: "), "unique ids are not counted: {p}");
    let max = recs.iter().max_by_key(|r| r["size"].as_u64()).unwrap();
    let key = &c.columns[c.key.unwrap()].name;
    assert!(p.contains(&format!("size: max {} ({key} {})", max["size"], max[key.as_str()].as_str().unwrap())), "{p}");
}

#[test]
fn fields_that_split_the_records_alike_are_said_once() {
    let project = |i: usize| ["shop", "shop", "ci", "analytics"][i % 4];
    let recs: Vec<Value> = (0..40)
        .map(|i| {
            json!({"id": format!("c{i}"), "project": project(i), "dir": format!("/srv/{}", project(i)),
                   // The same counts as `project` (20, 10, 10) but another split.
                   "tier": (if i < 20 { "a" } else if i < 30 { "b" } else { "c" })})
        })
        .collect();
    let p = phrase_of(&recs, recs.len(), 10_000).unwrap();
    assert!(p.contains("project, most first: shop 20, analytics 10, ci 10 (split alike: dir)"), "{p}");
    assert!(!p.contains("dir: "), "{p}");
    assert!(
        p.contains("tier, most first: a 20, b 10, c 10;") || p.ends_with("tier, most first: a 20, b 10, c 10"),
        "same counts, another split: {p}"
    );
}

#[test]
fn counts_of_a_field_few_records_have_come_after_the_others() {
    let recs: Vec<Value> = (0..40)
        .map(|i| {
            let mut r = json!({"id": format!("c{i}"), "state": (["up", "down"][i % 2])});
            if i % 5 == 0 {
                r["gateway"] = json!((["10.0.0.1", "10.0.0.2", "10.0.0.3"][i % 3]));
            }
            r
        })
        .collect();
    let p = phrase_of(&recs, 20, 10_000).unwrap();
    let (state, gateway) = (p.find("state: ").unwrap(), p.find("gateway, most first: ").unwrap());
    assert!(state < gateway, "{p}");
}

#[test]
fn a_unix_time_is_given_in_words_too() {
    let recs: Vec<Value> =
        (0..20).map(|i| json!({"name": format!("c{i}"), "Created": 1_767_219_594u64 - i * 86_400})).collect();
    let p = phrase_of(&recs, recs.len(), 10_000).unwrap();
    assert!(p.contains("Created: latest 1767219594 (2025-12-31T22:19:54Z) (name c0)"), "{p}");
}

#[test]
fn rows_under_a_header_row_are_counted_by_its_names() {
    let mut rows = vec![json!(["SKU", "Warehouse", "Stock Value"])];
    rows.extend((0..30).map(|i| {
        json!([
            format!("SKU-{i:03}"),
            (["Reno NV", "Columbus OH", "Reno NV"][i % 3]),
            format!("${},{:03}.50", 1 + i, i * 7)
        ])
    }));
    let c = Compactor::learn(&rows[..12]);
    let mut f = Facets::new(&c);
    rows.iter().for_each(|r| f.add(r));
    let p = f.phrase(10_000).unwrap();
    assert!(p.contains("Warehouse: Reno NV 20, Columbus OH 10"), "the header row is not a record: {p}");
    assert!(p.contains("Stock Value: max $30,203.50 (SKU SKU-029)"), "{p}");
}

#[test]
fn the_time_between_two_fields_has_a_longest_and_a_shortest() {
    // Run 7 takes the longest, run 3 the shortest; only the first ten are the sample.
    let recs: Vec<Value> = (0..30)
        .map(|i| {
            let minutes = match i {
                7 => 95,
                3 => 1,
                _ => 10 + i % 9,
            };
            json!({"run": format!("run-{i}"), "started": format!("2025-12-31T{:02}:00:00Z", i % 12), "ended": format!("2025-12-31T{:02}:{:02}:00Z", i % 12 + minutes / 60, minutes % 60)})
        })
        .collect();
    let p = phrase_of(&recs, 10, 10_000).unwrap();
    assert!(p.contains("ended − started: max 1 h 35 min (run run-7), min 1 min 0 s (run run-3)"), "{p}");
}

#[test]
fn counts_show_more_values_where_the_room_holds_every_clause() {
    let recs: Vec<Value> =
        (0..60).map(|i| json!({"id": format!("p{i}"), "group": format!("group-{:02}", i % 12)})).collect();
    let c = Compactor::learn(&recs);
    let mut f = Facets::new(&c);
    recs.iter().for_each(|r| f.add(r));
    let wide = f.phrase(10_000).unwrap();
    assert!(wide.contains("group-11 5") && !wide.contains("more values"), "{wide}");
    let narrow = phrase_of(&recs, recs.len(), 120).unwrap();
    assert!(narrow.contains("(+6 more values)") && !narrow.contains("group-11"), "{narrow}");
}

#[test]
fn spans_written_with_units_have_a_longest() {
    let recs: Vec<Value> = (0..20)
        .map(|i| json!({"job": format!("job-{i}"), "duration": if i == 13 { "1h2m".to_owned() } else { format!("{}m{}s", i % 5, i) }}))
        .collect();
    let p = phrase_of(&recs, 8, 10_000).unwrap();
    assert!(p.contains("duration: max 1h2m (job job-13), min 0m0s (job job-0)"), "{p}");
}

#[test]
fn a_range_few_records_have_says_how_many_have_it() {
    let recs: Vec<Value> = (0..40)
        .map(|i| {
            let mut r = json!({"request": format!("r{i}"), "duration": 10 + i});
            if i % 8 == 0 {
                r["init"] = json!(200 + i);
            }
            r
        })
        .collect();
    let p = phrase_of(&recs, recs.len(), 10_000).unwrap();
    assert!(p.contains("init (5 of 40 records): max 232 (request r32)"), "{p}");
    assert!(p.contains("duration: max 49"), "{p}");
}

#[test]
fn values_that_differ_only_in_their_numbers_are_counted_by_pattern() {
    let procs = ["haproxy", "haproxy", "haproxy", "sshd", "nginx"];
    let recs: Vec<Value> = (0..300)
        .map(|i| {
            let mut r = json!({
                "state": (["ESTAB", "LISTEN"][i % 2]),
                "peer": format!("10.0.{}.{}:{}", i % 7, i % 250, 40_000 + i),
            });
            // A socket in TIME-WAIT has no process: the field does not name the records.
            if i % 6 != 5 {
                r["process"] = json!(format!("users:((\"{}\",pid={},fd={}))", procs[i % 5], 900 + i % 5, 3 + i));
            }
            r
        })
        .collect();
    let c = Compactor::learn(&recs[..50]);
    let mut f = Facets::new(&c);
    recs.iter().for_each(|r| f.add(r));
    let p = f.phrase(10_000).unwrap_or_default();
    let held = |name: &str| {
        let pattern = format!("users:((\"{name}\",pid=*,fd=*))");
        let n =
            recs.iter().filter(|r| r["process"].as_str().is_some_and(|p| p.contains(&format!("\"{name}\"")))).count();
        format!("{} {n}", Value::String(pattern))
    };
    let expected =
        format!("process (digits as *), most first: {}, {}, {}", held("haproxy"), held("nginx"), held("sshd"));
    assert!(p.contains(&expected), "{expected} in {p}");
    // An address written with its numbers as `*` names nothing: not counted by pattern.
    assert!(!p.contains("peer (digits as *)"), "{p}");
    // Counts by pattern come after every count of values.
    assert!(p.find("state").unwrap_or(usize::MAX) < p.find("process").unwrap_or(0), "{p}");
}

/// A free-text field whose values differ in an id with letters in it (`Deploy f5ba806f`)
/// is counted by its words: each word holding a digit is `*`, as in a line's pattern, so
/// "how many rollbacks" is answered where digit runs alone left every value apart.
#[test]
fn spaced_values_are_counted_by_their_words_pattern() {
    let recs: Vec<Value> = (0..200)
        .map(|i| {
            let description = match i % 10 {
                0 => format!("Rollback to v{}", 1_000 + i),
                1 | 2 => format!("Promote staging v{}", 2_000 + i),
                _ => format!("Deploy {:08x}", 0x9e37_79b9_u64.wrapping_mul(i as u64 + 1) & 0xffff_ffff),
            };
            json!({"id": format!("rel-{i}"), "description": description})
        })
        .collect();
    let p = phrase_of(&recs, 20, 10_000).unwrap_or_default();
    let n = |prefix: &str| recs.iter().filter(|r| r["description"].as_str().unwrap().starts_with(prefix)).count();
    let expected = format!(
        "description (digits as *), most first: Deploy * {}, Promote staging * {}, Rollback to * {}",
        n("Deploy"),
        n("Promote"),
        n("Rollback")
    );
    assert!(p.contains(&expected), "{expected} in {p}");
}

#[test]
fn a_pattern_every_record_shares_is_not_counted() {
    let recs: Vec<Value> =
        (0..200).map(|i| json!({"ref": format!("order-{}", 10_000 + i * 37), "kind": (["a", "b"][i % 2])})).collect();
    let c = Compactor::learn(&recs[..10]);
    let mut f = Facets::new(&c);
    recs.iter().for_each(|r| f.add(r));
    let p = f.phrase(10_000).unwrap_or_default();
    assert!(!p.contains("ref"), "{p}");
}

/// Regression: Mailchimp campaigns were counted by their list's id (`4f1c2e9a7b 28`), the
/// list's name only said to split them alike, so "how many went to Newsletter Subscribers"
/// had no answer. Of fields that split the records alike, the one whose values read as
/// words is counted, whichever comes first.
#[test]
fn of_fields_split_alike_the_names_are_counted_not_the_ids() {
    let lists = [
        ("4f1c2e9a7b", "Northwind Customers"),
        ("b7d03a61c2", "Newsletter Subscribers"),
        ("0e9f5d3b18", "Beta Testers"),
    ];
    let recs: Vec<Value> = (0..30)
        .map(|i| {
            let (id, name) = lists[[0, 0, 1, 2][i % 4]];
            json!({"id": format!("c{i:03}"), "status": (["sent", "save"][i % 2]), "recipients": {"list_id": id, "list_is_active": true, "list_name": name, "recipient_count": 1000 + i * 17}})
        })
        .collect();
    let p = phrase_of(&recs, 10, 10_000).unwrap();
    let named = recs.iter().filter(|r| r["recipients"]["list_name"] == "Newsletter Subscribers").count();
    assert!(p.contains(&format!("Newsletter Subscribers {named}")), "{p}");
    assert!(p.contains("(split alike: recipients.list_id)"), "{p}");
    assert!(!p.contains("b7d03a61c2"), "{p}");
    // Names that hold digits (`python3.12`) are names too: the first said stays.
    let recs: Vec<Value> = (0..30)
        .map(|i| json!({"name": format!("fn-{i}"), "Runtime": (["python3.12", "nodejs20.x", "java21"][i % 3]), "Handler": (["app.handler", "index.handler", "Main::run"][i % 3])}))
        .collect();
    let p = phrase_of(&recs, 10, 10_000).unwrap();
    assert!(p.contains("Runtime, most first: ") && p.contains("(split alike: Handler)"), "{p}");
}

/// A short random-looking string for test records: mixed cases and digits, as ids are.
fn random_id(seed: u64, len: usize) -> String {
    const CHARS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..len)
        .map(|_| {
            x = mix(x);
            CHARS[(x % CHARS.len() as u64) as usize] as char
        })
        .collect()
}

const FIRST: [&str; 8] = ["Sana", "Diego", "Farah", "Jonas", "Mei", "Kofi", "Lena", "Tariq"];
const LAST: [&str; 7] = ["Wang", "Costa", "Berg", "Okafor", "Silva", "Moreau", "Haddad"];

/// Candidates keyed by a random id, each with a readable name of their own.
fn candidates() -> Vec<Value> {
    (0..56u64)
        .map(|i| {
            json!({
                "id": format!("rec{}", random_id(i, 14)),
                "fields": {"Name": format!("{} {}", FIRST[i as usize % 8], LAST[i as usize % 7]), "Salary": 60_000 + (i * 7_919) % 120_000, "Stage": (["Applied", "Rejected", "Onsite"][i as usize % 3])}
            })
        })
        .collect()
}

#[test]
fn a_record_a_random_id_names_is_named_by_its_readable_name_too() {
    let recs = candidates();
    let p = phrase_of(&recs, 20, 10_000).unwrap();
    let top = recs.iter().max_by_key(|r| r["fields"]["Salary"].as_u64()).unwrap();
    let (id, name) = (top["id"].as_str().unwrap(), top["fields"]["Name"].as_str().unwrap());
    let said = format!("fields.Salary: max {} (id {id}, Name {name})", top["fields"]["Salary"]);
    assert!(p.contains(&said), "{said} not in {p}");
}

#[test]
fn a_key_that_reads_as_a_name_is_said_alone() {
    // Deployments named by words: their name is what a reader asks about; the readable
    // `owner` beside it tells nothing more about which record holds an extreme.
    let recs: Vec<Value> = (0..30u64)
        .map(|i| json!({"name": format!("storefront-web-{i}"), "owner": format!("{} {}", FIRST[i as usize % 4], LAST[i as usize % 2]), "replicas": (i * 13) % 29}))
        .collect();
    let p = phrase_of(&recs, 20, 10_000).unwrap();
    let top = recs.iter().max_by_key(|r| r["replicas"].as_u64()).unwrap();
    let said = format!("replicas: max {} (name {})", top["replicas"], top["name"].as_str().unwrap());
    assert!(p.contains(&said), "{said} not in {p}");
}

#[test]
fn a_slug_key_is_said_with_the_name_it_was_made_from() {
    // Businesses keyed by a slug a machine made from the name (`sana-wang-cafe-3`), since a
    // chain's name repeats: a reader asks for the name as it is written, so the holder is
    // said by both.
    let recs: Vec<Value> = (0..30u64)
        .map(|i| {
            let n = i as usize % 12;
            let name = format!("{} {} Cafe", FIRST[n % 8], LAST[n % 7]);
            let slug = format!("{}-{i}", name.to_lowercase().replace(' ', "-"));
            json!({"alias": slug, "name": name, "reviews": (i * 13) % 29})
        })
        .collect();
    let p = phrase_of(&recs, 20, 10_000).unwrap();
    let top = recs.iter().max_by_key(|r| r["reviews"].as_u64()).unwrap();
    let (alias, name) = (top["alias"].as_str().unwrap(), top["name"].as_str().unwrap());
    let said = format!("reviews: max {} (alias {alias}, name {name})", top["reviews"]);
    assert!(p.contains(&said), "{said} not in {p}");
}

#[test]
fn a_login_is_said_with_the_name_it_was_written_from() {
    // Channels keyed by a login that is the display name in lower case (`echoirl156` of
    // `EchoIRL156`), beside a stream title: the reader asks for the channel, written as the
    // service shows it, so that name is the label, not the title.
    let recs: Vec<Value> = (0..30u64)
        .map(|i| {
            let name = format!("{}{}TV{i}", FIRST[i as usize % 8], LAST[i as usize % 7]);
            json!({"user_login": name.to_lowercase(), "user_name": name,
                   "title": format!("Day {i} of the long stream | come hang out"), "viewers": (i * 13) % 29})
        })
        .collect();
    let p = phrase_of(&recs, 20, 10_000).unwrap();
    let top = recs.iter().max_by_key(|r| r["viewers"].as_u64()).unwrap();
    let (login, name) = (top["user_login"].as_str().unwrap(), top["user_name"].as_str().unwrap());
    let said = format!("viewers: max {} (user_login {login}, user_name {name})", top["viewers"]);
    assert!(p.contains(&said), "{said} not in {p}");
}

#[test]
fn a_code_or_a_copy_of_the_key_is_no_label() {
    // Events keyed `us7000ab12` by the network `us` that reported them, with the key copied
    // between commas (`,us7000ab12,`): neither was written from a name, so the place (a
    // sentence-like title) names the holder.
    let recs: Vec<Value> = (0..30u64)
        .map(|i| {
            let id = format!("us7000{:04x}", i * 977 + 40_000);
            json!({"id": id, "net": "us", "ids": format!(",{id},"),
                   "place": format!("{} km N of {} Town", i + 3, LAST[i as usize % 7]), "mag": (i * 13) % 29})
        })
        .collect();
    let p = phrase_of(&recs, 20, 10_000).unwrap();
    let top = recs.iter().max_by_key(|r| r["mag"].as_u64()).unwrap();
    assert!(!p.contains("net us)") && !p.contains("ids ,us7000"), "{p}");
    assert!(p.contains(top["place"].as_str().unwrap()), "{p}");
}

#[test]
fn a_short_random_id_is_no_label_and_a_title_is() {
    // A video's short id mixes cases and digits: not a name a reader answers with. Its title
    // (a sentence) is, beside the random key, and before its slug (one token).
    let recs: Vec<Value> = (0..30u64)
        .map(|i| {
            json!({
                "etag": random_id(i + 500, 27),
                "snippet": {"slug": format!("query-planner-part-{i}"), "title": format!("Building a query planner, part {i}"), "views": (i * 7_907) % 10_007},
                "contentDetails": {"videoId": random_id(i + 100, 11)}
            })
        })
        .collect();
    let p = phrase_of(&recs, 20, 10_000).unwrap();
    let top = recs.iter().max_by_key(|r| r["snippet"]["views"].as_u64()).unwrap();
    let said = format!(
        "snippet.views: max {} (etag {}, title {})",
        top["snippet"]["views"],
        top["etag"].as_str().unwrap(),
        top["snippet"]["title"].as_str().unwrap()
    );
    assert!(p.contains(&said), "{said} not in {p}");
}

/// Points as GeoJSON writes them: `[longitude, latitude, depth]`, the depth varying over
/// records the sample did not hold.
fn quakes() -> Vec<Value> {
    (0..60)
        .map(|i| {
            let depth = f64::from((i * 53) % 97) + 0.5;
            json!({"id": format!("eq{i:02}"), "mag": 2.0 + f64::from(i % 7) / 10.0,
                   "geometry": {"type": "Point", "coordinates": [-118.0 + f64::from(i) / 10.0, 35.0, depth]}})
        })
        .collect()
}

#[test]
fn each_place_of_a_short_list_of_numbers_gets_its_extremes_over_every_record() {
    let recs = quakes();
    let p = phrase_of(&recs, 10, 10_000).unwrap();
    let (deepest, holder) = recs
        .iter()
        .map(|r| (r["geometry"]["coordinates"][2].as_f64().unwrap(), r["id"].as_str().unwrap()))
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .unwrap();
    assert!(p.contains(&format!("geometry.coordinates[2]: max {deepest} (id {holder})")), "{p}");
    assert!(p.contains("geometry.coordinates[0]: max -112.1 (id eq59)"), "{p}");
    // The latitude is the same in every record: nothing to say.
    assert!(!p.contains("coordinates[1]"), "{p}");
}

#[test]
fn lists_of_numbers_of_differing_lengths_are_series_not_tuples() {
    let recs: Vec<Value> = (0..30)
        .map(|i| json!({"id": format!("s{i}"), "readings": (0..(2 + i % 3)).map(|k| k * i).collect::<Vec<_>>()}))
        .collect();
    let p = phrase_of(&recs, 10, 10_000).unwrap_or_default();
    assert!(!p.contains("readings["), "{p}");
    let long: Vec<Value> =
        (0..30).map(|i| json!({"id": format!("s{i}"), "series": [i, i + 1, i + 2, i + 3, i + 4]})).collect();
    let p = phrase_of(&long, 10, 10_000).unwrap_or_default();
    assert!(!p.contains("series["), "five numbers are a series: {p}");
}

/// Regression: a holder's key was cut to 80 characters, so the largest object of a bucket
/// listing was named by a path with its middle left out, which no lookup finds.
#[test]
fn a_long_key_names_its_holder_whole() {
    let recs: Vec<Value> = (0..30)
        .map(|i| {
            json!({"Key": format!("logs/alb/AWSLogs/538214966407/elasticloadbalancing/eu-west-1/2025/12/{:02}/app.prod-alb.4f1c2b7e9a0d3e55_20251231T2356Z_10.0.3.88_{i:04}.log.gz", 1 + i % 28),
                   "Size": (i * 7919) % 1009})
        })
        .collect();
    let p = phrase_of(&recs, 10, 10_000).unwrap();
    let biggest = recs.iter().max_by_key(|r| r["Size"].as_u64().unwrap()).unwrap()["Key"].as_str().unwrap();
    assert!(biggest.len() > 120, "the key is long: {biggest}");
    assert!(p.contains(&format!("(Key {biggest})")), "{p}");
}

/// A home's entity states: a thermometer's and a battery's readings as text among lamps'
/// `on` and `off`, each reading's kind in `attributes.device_class`.
fn entity_states(kind_of: impl Fn(usize) -> &'static str) -> Vec<Value> {
    (0..60)
        .map(|i| match i % 3 {
            0 => json!({"entity_id": format!("light.lamp_{i}"), "state": (["on", "off"][i % 2]), "attributes": {"friendly_name": format!("Lamp {i}")}}),
            _ => {
                let (reading, class) = if i % 3 == 1 {
                    (format!("{:.1}", 15.0 + f64::from(u32::try_from((i * 7) % 11).unwrap())), "temperature")
                } else {
                    (format!("{}", 60 + (i * 37) % 40), "battery")
                };
                let class = if kind_of(i).is_empty() { class } else { kind_of(i) };
                json!({"entity_id": format!("sensor.s_{i}"), "state": reading, "attributes": {"device_class": class, "friendly_name": format!("Sensor {i}")}})
            }
        })
        .collect()
}

#[test]
fn numbers_among_words_get_their_extremes_within_each_kind() {
    let recs = entity_states(|_| "");
    let p = phrase_of(&recs, 60, 10_000).unwrap();
    // The first record holding the extreme names it, as a summary names it.
    let extreme = |class: &str, max: bool| {
        let reading = |r: &Value| r["state"].as_str().unwrap().parse::<f64>().unwrap();
        let of_class: Vec<&Value> = recs.iter().filter(|r| r["attributes"]["device_class"] == class).collect();
        let best = of_class
            .iter()
            .map(|r| reading(r))
            .fold(if max { f64::MIN } else { f64::MAX }, |a, x| if max { a.max(x) } else { a.min(x) });
        let r = of_class.iter().find(|r| reading(r) == best).unwrap();
        format!("{} (entity_id {})", r["state"].as_str().unwrap(), r["entity_id"].as_str().unwrap())
    };
    assert!(
        p.contains(&format!(
            "state where attributes.device_class is temperature (20 records): max {}",
            extreme("temperature", true)
        )),
        "{p}"
    );
    assert!(p.contains(&format!("min {}", extreme("battery", false))), "{p}");
    // A temperature beside a battery's charge is no extreme of the whole field.
    assert!(!p.contains("state: max"), "{p}");
}

#[test]
fn kinds_that_do_not_explain_the_numbers_are_not_followed() {
    // The kind is given without regard to the reading: each group spreads as widely as the
    // whole (the test fails if any grouping were followed).
    let recs = entity_states(|i| ["temperature", "battery"][(i * 7 / 3) % 2]);
    let p = phrase_of(&recs, 60, 10_000).unwrap();
    assert!(!p.contains("state where"), "{p}");
}

#[test]
fn a_number_is_totalled_per_name_over_every_record() {
    // Partitions of consumer groups: the group with the largest total lag holds no single
    // largest lag.
    let groups = ["orders", "billing", "search", "audit", "mail", "fraud", "ledger"];
    let recs: Vec<Value> = (0..70)
        .map(|i| {
            let group = groups[i % groups.len()];
            let lag = if group == "billing" { 50 } else { (i * 13) % 97 };
            json!({"group": group, "partition": i / groups.len(), "lag": lag})
        })
        .collect();
    let mut totals: Vec<(&str, u64)> = groups
        .iter()
        .map(|g| (*g, recs.iter().filter(|r| r["group"] == *g).map(|r| r["lag"].as_u64().unwrap()).sum()))
        .collect();
    totals.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let p = phrase_of(&recs, 20, 10_000).unwrap();
    let expected: Vec<String> = totals.iter().take(5).map(|(g, t)| format!("{g} {t}")).collect();
    assert!(p.contains(&format!("lag total by group, largest first: {} (+2 more)", expected.join(", "))), "{p}");
}

#[test]
fn a_field_of_numbers_with_other_values_is_not_totalled() {
    // Sizes written with and without a unit: a total of the plain ones alone would be wrong.
    let names = ["a", "b", "c", "d", "e", "f", "g"];
    let recs: Vec<Value> = (0..42)
        .map(|i| {
            let size = if i == 30 { json!("1.5G") } else { json!((i % 4) * 10) };
            json!({"owner": names[i % names.len()], "size": size, "count": i % 5})
        })
        .collect();
    let p = phrase_of(&recs, 20, 10_000).unwrap();
    assert!(!p.contains("size total by"), "{p}");
    assert!(p.contains("count total by owner, largest first:"), "{p}");
}

#[test]
fn a_list_named_by_nothing_but_a_count_is_said_as_its_total() {
    // A chat message's reactions: an emoji object and a count each, and nothing that names
    // them in words. The message with the most reactions is the one with the largest total.
    let recs: Vec<Value> = (0..40u64)
        .map(|i| {
            let reactions: Vec<Value> = (0..i % 4)
                .map(|j| {
                    let emoji = ["👍", "🎉", "🚀"][j as usize % 3];
                    json!({"emoji": {"id": null, "name": emoji}, "count": (i + j) % 5 + 1, "me": false})
                })
                .collect();
            json!({"id": format!("14560{i:05}"), "content": format!("message {i}"), "reactions": reactions})
        })
        .collect();
    let total =
        |r: &Value| r["reactions"].as_array().map_or(0, |a| a.iter().filter_map(|x| x["count"].as_u64()).sum::<u64>());
    let most = recs.iter().map(total).max().unwrap();
    let top = recs.iter().find(|r| total(r) == most).unwrap();
    let p = phrase_of(&recs, 20, 10_000).unwrap();
    let said = format!("reactions.count: max {most} (id {}", top["id"].as_str().unwrap());
    assert!(p.contains(&said), "{said} not in {p}");
}

/// A ranking of long paths named its top file `infra/terraform/modules/exports-bucket/…`:
/// shortened with the others, it lost the file name that answers "which file has the most
/// findings". The most common value is written whole; the others are still shortened.
#[test]
fn the_most_common_long_value_is_written_whole() {
    let top = "infra/terraform/modules/exports-bucket/variables.tf";
    let recs: Vec<Value> = (0..60)
        .map(|i| {
            let path = match i % 10 {
                0..=3 => top.to_owned(),
                k => format!("infra/terraform/modules/module-{k}-bucket/variables-of-module-{k}.tf"),
            };
            let severity = ["ERROR", "WARNING"][i % 2];
            json!({"id": i, "path": path, "severity": severity})
        })
        .collect();
    let c = Compactor::learn(&recs[..20]);
    let mut f = Facets::new(&c);
    recs.iter().for_each(|r| f.add(r));
    let phrase = f.phrase(2_000).unwrap_or_default();
    assert!(phrase.contains(&format!("{top} 24")), "{phrase}");
    assert!(phrase.contains('…'), "the other paths are shortened: {phrase}");
}
