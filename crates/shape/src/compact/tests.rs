use serde_json::{Value, json};

use super::*;

fn issues(n: usize) -> Vec<Value> {
    (0..n)
        .map(|i| {
            let login = ["ada", "bo", "cy"][i % 3];
            json!({
                "url": format!("https://api.x.com/repos/o/r/issues/{}", 100 + i),
                "id": 9_000_000 + i * 7,
                "node_id": format!("MDU6SXNzdWU{}x{}Q", 9_000_000 + i * 7, i * 13),
                "number": 100 + i,
                "title": format!("Parser crashes on input {i}"),
                "user": {"login": login, "id": 10 + i % 3, "avatar_url": format!("https://avatars.x.com/u/{}.png", 10 + i % 3), "type": "User"},
                "labels": [{"id": 1, "name": "bug", "color": "d73a4a"}, {"id": 2 + i % 2, "name": (["ui", "docs"][i % 2]), "color": "aaaaaa"}],
                "state": if i % 4 == 0 { "closed" } else { "open" },
                "locked": false,
                "assignee": null,
                "comments": i * 3 % 11,
                "body": format!("{i} {}", "word ".repeat(80)),
                "reactions": {"total_count": 0},
                "tags": [{"Key": "team", "Value": (["core", "web"][i % 2])}, {"Key": "env", "Value": "prod"}]
            })
        })
        .collect()
}

#[test]
fn fields_are_judged_by_their_values() {
    let sample = issues(12);
    let c = Compactor::learn(&sample);
    let names: Vec<&str> = c.columns.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        ["id", "number", "title", "user.login", "labels", "state", "comments", "body", "tags.team"],
        "dropped: {:?}",
        c.dropped
    );
    assert!(c.dropped.contains(&"url".to_owned()), "{:?}", c.dropped);
    assert!(c.dropped.contains(&"node_id".to_owned()), "{:?}", c.dropped);
    assert!(c.dropped.contains(&"assignee".to_owned()), "{:?}", c.dropped);
    let constants: Vec<&str> = c.constants.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(constants, ["locked", "reactions", "tags.env"]);
    assert_eq!(c.key.map(|k| c.columns[k].name.as_str()), Some("number"));
    let one = c.apply(&sample[1]);
    assert_eq!(one["user.login"], json!("bo"));
    assert_eq!(one["labels"], json!(["bug", "docs"]));
    assert_eq!(one["tags.team"], json!("web"));
    assert_eq!(c.constants[2].1, json!("prod"));
    assert!(one["body"].as_str().unwrap().ends_with("chars]"), "{one}");
}

#[test]
fn lists_of_anything_but_objects_are_left_alone() {
    let c = Compactor::learn(&[json!(1), json!(2), json!(3)]);
    assert!(!c.is_active());
    assert_eq!(c.apply(&json!(1)), json!(1));
}

#[test]
fn text_is_cut_at_a_word_with_a_marker() {
    let cut = cut_text(&"alpha beta ".repeat(40), 30);
    assert!(cut.starts_with("alpha beta alpha beta alpha"), "{cut}");
    assert!(cut.ends_with("chars]"), "{cut}");
    assert_eq!(cut_text("short", 30), "short");
}

#[test]
fn a_list_of_objects_is_named_by_words_not_by_stamps() {
    let records: Vec<Value> = (0..6)
        .map(|i| {
            let items: Vec<Value> = (0..5)
                .map(|k| json!({"version_info": format!("2025-12-2{k}T0{i}:05:53Z/{}", 40 + k), "label": format!("outbound|8080||{}-v{i}.shop.svc.cluster.local", ["api", "web", "db", "queue", "cache"][k])}))
                .collect();
            json!({"id": i, "items": items})
        })
        .collect();
    let c = Compactor::learn(&records);
    let names = c.apply(&records[2])["items"].clone();
    assert_eq!(names[0], json!("outbound|8080||api-v2.shop.svc.cluster.local"), "{names}");
}

#[test]
fn an_object_is_named_by_its_words_not_by_digits_written_as_text() {
    // A tracker's status: `{"name": "In Progress", "id": "10001"}`. Both go one to one
    // with the status; the id is shorter, but only the name reads as one.
    let sample: Vec<Value> = (0..12)
        .map(|i| {
            let (name, id) = [("To Do", "10000"), ("In Progress", "3"), ("Done", "10001")][i % 3];
            json!({"key": format!("PAY-{}", 100 + i), "status": {"self": format!("https://x.test/status/{id}"), "name": name, "id": id}})
        })
        .collect();
    let c = Compactor::learn(&sample);
    let names: Vec<&str> = c.columns.iter().map(|c| c.name.as_str()).collect();
    assert!(names.contains(&"status.name"), "{names:?}");
}

#[test]
fn an_object_is_named_by_the_member_called_its_name_before_a_shorter_word() {
    // A board's labels: `{"color": "green", "name": "Feature"}`. Both read as words and go
    // one to one with the label; the colour is shorter, but the schema calls the other its
    // name, and that is what a reader asks by ("labelled Feature").
    let labels = [("red", "Bug"), ("green", "Feature"), ("sky", "Frontend"), ("purple", "Design")];
    let sample: Vec<Value> = (0..12)
        .map(|i| {
            let (color, name) = labels[i % labels.len()];
            json!({"id": format!("c{i}"), "labels": [{"color": color, "name": name, "uses": 3}]})
        })
        .collect();
    let c = Compactor::learn(&sample);
    let names: Vec<&str> = c.columns.iter().map(|c| c.name.as_str()).collect();
    assert!(names.contains(&"labels.name"), "{names:?}");
}

#[test]
fn a_member_called_a_name_does_not_name_an_object_it_does_not_tell_apart() {
    // An SLA summary `{"sla_name": "Starter 24h", "sla_status": "missed"}`: neither member
    // tells the summaries apart, so the name has no claim over the shorter status.
    let sample: Vec<Value> = (0..12)
        .map(|i| {
            let name = ["Starter 24h", "Pro 4h", "Enterprise 1h"][i % 3];
            let status = ["hit", "missed", "paused"][(i / 3) % 3];
            json!({"id": format!("c{i}"), "sla": {"sla_name": name, "sla_status": status}})
        })
        .collect();
    let c = Compactor::learn(&sample);
    let names: Vec<&str> = c.columns.iter().map(|c| c.name.as_str()).collect();
    assert!(names.contains(&"sla.sla_status"), "{names:?}");
}

#[test]
fn the_key_is_the_record_s_own_id_not_a_member_s_or_a_measure() {
    // In a short page a member's field (`metadata.order_id`) and a measure (`amount`) can
    // be unique by chance and shorter than the id: neither names the record.
    let sample: Vec<Value> = (0..10)
        .map(|i| {
            json!({
                "id": format!("ch_3Kx{i:02}abcdefghijklmnopq"),
                "amount": 500 + i * i * 997,
                "score": 0.5 + i as f64 / 100.0,
                "metadata": {"order_id": format!("ord_{i}")},
                "status": (["ok", "failed"][i % 2])
            })
        })
        .collect();
    let c = Compactor::learn(&sample);
    let key = c.key.map(|k| c.columns[k].name.as_str());
    assert_eq!(key, Some("id"));
    // Numbers handed out in sequence do name records.
    let numbered: Vec<Value> =
        (0..10).map(|i| json!({"number": 4_100 + i, "user": {"login": format!("u{i}")}})).collect();
    let c = Compactor::learn(&numbered);
    assert_eq!(c.key.map(|k| c.columns[k].name.as_str()), Some("number"));
}

#[test]
fn a_value_in_a_type_tag_is_read_under_its_field_name() {
    // DynamoDB items: every attribute wrapped in a one-member object naming its type.
    let items: Vec<Value> = (0..20)
        .map(|i| {
            json!({"orderId": {"S": format!("ord_{i:04}")}, "status": {"S": (["PAID", "SHIPPED"][i % 2])},
                   "total": {"N": (if i % 3 == 0 { format!("{i}") } else { format!("{i}.5") })},
                   "shipTo": {"M": {"city": {"S": (["Porto", "Lyon"][i % 2])}}}})
        })
        .collect();
    let c = Compactor::learn(&items);
    let names: Vec<&str> = c.columns.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["orderId", "status", "total", "shipTo.city"]);
    let total = c.columns.iter().find(|c| c.name == "total").unwrap();
    assert_eq!(total.holds, Holds::Numbers, "whole numbers beside decimals are numbers");
    assert_eq!(c.columns[c.key.unwrap()].name, "orderId");
    assert_eq!(c.columns[0].projection(), "orderId.S");
    assert_eq!(c.apply(&items[3])["status"], json!("SHIPPED"));
}

#[test]
fn unix_times_written_as_numbers_are_times_and_ids_are_not() {
    let recs: Vec<Value> =
        (0..20).map(|i| json!({"id": 1_521_543_843u64 + i * 97, "name": format!("c{i}"), "created": 1_767_000_000u64 + i * 3_600})).collect();
    let c = Compactor::learn(&recs);
    let holds = |n: &str| c.columns.iter().find(|c| c.name == n).unwrap().holds;
    assert_eq!(holds("created"), Holds::Times);
    assert_eq!(holds("id"), Holds::Numbers);
    assert_ne!(c.columns[c.key.unwrap()].name, "created", "a time never names a record");
}

#[test]
fn a_name_is_the_key_before_an_address() {
    let recs: Vec<Value> = (0..20)
        .map(|i| json!({"privateIp": format!("10.0.{}.{}", i % 3, i), "name": format!("vm-db-prod-{i:02}")}))
        .collect();
    let c = Compactor::learn(&recs);
    assert_eq!(c.columns[c.key.unwrap()].name, "name");
}

/// Regression: Drive files were named by their last editor's `permissionId` (unique in the
/// page by chance) because the file's own name has spaces; the record's own title names it.
#[test]
fn a_member_object_s_id_does_not_name_the_record_when_it_has_its_own_title() {
    let recs: Vec<Value> = (0..30)
        .map(|i| {
            let editor = ["Ada Berg", "Li Chen"][i % 2];
            // A random-looking id, as Drive's are (`1MoEpKYtMAgi3uyIux…`).
            let alphabet = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
            let mut x = (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let id: String = (0..43)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    alphabet[(x % 62) as usize] as char
                })
                .collect();
            json!({
                "id": format!("1{id}"),
                "name": format!("Board update {i} (final)"),
                "lastModifyingUser": {"displayName": editor, "permissionId": format!("{:020}", 7_000_000_000_u64 * (i as u64 + 1) + 13)},
                "size": format!("{}", 1000 + i * 37),
                "webViewLink": format!("https://docs.example.com/document/d/1{id}/edit"),
            })
        })
        .collect();
    let c = Compactor::learn(&recs);
    assert_eq!(c.columns[c.key.unwrap()].name, "name");
}

/// Regression: Mailchimp campaigns were named by their hexadecimal `id` (`9a8b9547c7`), so
/// "which campaign had the highest open rate" had no name a reader knows; the campaign's
/// title in its settings names it, before a slug that comes after it.
#[test]
fn a_proper_name_names_records_before_a_hexadecimal_id() {
    let recs: Vec<Value> = (0..40u64)
        .map(|i| {
            // Ten hexadecimal digits, one in a few with no letter, as random ones are.
            let id = if i % 7 == 3 { format!("{:010}", i * 7_919_333) } else { format!("{:010x}", i * 0x9e37_79b9 + 0xa1) };
            let month = ["May", "Jun", "Jul"][(i % 3) as usize];
            json!({"id": id, "settings": {"title": format!("Flash Sale – {month} #{i}"), "from_name": "Northwind"}, "tracking": {"google_analytics": format!("sale_{i}")}, "opens": i * 13})
        })
        .collect();
    let c = Compactor::learn(&recs);
    assert_eq!(c.columns[c.key.unwrap()].name, "settings.title");
    // A hexadecimal id with no proper name beside it keeps its place.
    let bare: Vec<Value> = recs.iter().map(|r| json!({"id": r["id"], "opens": r["opens"]})).collect();
    let c = Compactor::learn(&bare);
    assert_eq!(c.columns[c.key.unwrap()].name, "id");
}

#[test]
fn a_list_of_one_value_is_that_value_and_can_name_the_record() {
    let recs: Vec<Value> = (0..20)
        .map(|i| json!({"Id": format!("{:064x}", i * 7_919 + 12_345_678), "Names": [format!("/shop-web-{i}")], "State": "running"}))
        .collect();
    let c = Compactor::learn(&recs);
    assert_eq!(c.apply(&recs[2])["Names"], json!("/shop-web-2"));
    assert_eq!(c.columns[c.key.unwrap()].name, "Names");
}

#[test]
fn the_id_other_ids_are_built_from_is_the_one_kept() {
    let recs: Vec<Value> = (0..20)
        .map(|i| {
            let id = format!("006Hs00001{i:02}QxZkAB");
            json!({"attributes": {"type": "Opportunity", "url": format!("/services/data/v61.0/sobjects/Opportunity/{id}")}, "Id": id, "Amount": i * 10})
        })
        .collect();
    let c = Compactor::learn(&recs);
    let names: Vec<&str> = c.columns.iter().map(|c| c.name.as_str()).collect();
    assert!(names.contains(&"Id"), "{names:?}");
    assert!(c.dropped.contains(&"attributes.url".to_owned()), "{:?}", c.dropped);
}

#[test]
fn a_one_member_object_among_plain_fields_keeps_its_member_name() {
    let recs: Vec<Value> = (0..20)
        .map(|i| json!({"id": format!("ch_{i}"), "amount": i * 100, "status": "paid", "metadata": {"order_id": format!("ord_{i}")}}))
        .collect();
    let c = Compactor::learn(&recs);
    assert!(
        c.columns.iter().any(|c| c.name == "metadata.order_id"),
        "{:?}",
        c.columns.iter().map(|c| &c.name).collect::<Vec<_>>()
    );
    assert_eq!(c.columns[c.key.unwrap()].name, "id");
}

#[test]
fn whole_numbers_written_as_text_are_quantities_when_spread_and_codes_when_close() {
    let recs: Vec<Value> = (0..30)
        .map(|i| json!({"page": format!("/p/{i}"), "sessions": format!("{}", 40 + i * i * 37), "code": format!("{}", 10_001 + i)}))
        .collect();
    let c = Compactor::learn(&recs);
    let holds = |n: &str| c.columns.iter().find(|c| c.name == n).unwrap().holds;
    assert_eq!(holds("sessions"), Holds::Numbers);
    assert_ne!(holds("code"), Holds::Numbers, "ids handed out in sequence are not quantities");
}

#[test]
fn a_time_before_an_id_does_not_push_the_id_out() {
    // CloudWatch Logs Insights rows: a unique timestamp first, then the request's id.
    let recs: Vec<Value> = (0..20)
        .map(|i| {
            json!({"@timestamp": format!("2025-12-31 23:{:02}:{:02}.123", 59 - i, i), "@requestId": format!("3a19a741-1086-454d-b0ed-{:012x}", 0x73e5_3dbe_e1b6u64 + i * 977), "@duration": format!("{}.5", i * 13)})
        })
        .collect();
    let c = Compactor::learn(&recs);
    assert!(c.columns.iter().any(|c| c.name == "@requestId"), "dropped: {:?}", c.dropped);
}

#[test]
fn spans_of_time_written_with_units_are_measures() {
    use super::stats::duration_millis;
    for (text, ms) in [
        ("2m30s", 150_000.0),
        ("350ms", 350.0),
        ("1.5s", 1_500.0),
        ("120 ms", 120.0),
        ("3d4h", 273_600_000.0),
        ("PT1H5M3.5S", 3_903_500.0),
        ("P2DT4H", 187_200_000.0),
        ("1m 2s", 62_000.0),
        ("2d 1h 30m", 178_200_000.0),
        ("3 min", 180_000.0),
        // On a clock: hours, minutes and seconds; Slurm's days; `top`'s minutes with a fraction.
        ("10:11:49", 36_709_000.0),
        ("1-00:30:29", 88_229_000.0),
        ("12:34.56", 754_560.0),
    ] {
        assert_eq!(duration_millis(text), Some(ms), "{text}");
    }
    for not_one in [
        "",
        "12",
        "ms",
        "5 apples",
        "PT",
        "P1H",
        "PT5S3M",
        "3x",
        "5 10s",
        "1m  2s",
        "2s ",
        "0:15",
        "127:0",
        "1:2:3",
        "12:75:00",
        "2025-01-02",
        "1-2",
        "10:11:49 AM",
    ] {
        assert_eq!(duration_millis(not_one), None, "{not_one}");
    }
    let sample: Vec<serde_json::Value> = (0..12)
        .map(|i| serde_json::json!({"step": format!("step-{i}"), "took": format!("{}m{}s", i % 4, (i * 7) % 60)}))
        .collect();
    let c = Compactor::learn(&sample);
    let took = c.columns.iter().find(|c| c.name == "took").unwrap();
    assert_eq!(took.holds, Holds::Numbers);
}

#[test]
fn a_proper_name_is_the_key_before_a_random_id_however_short() {
    // Salesforce: a short random `Id` beside a longer `Name`; a reader names the record by
    // its name, and finds it again by it.
    let recs: Vec<Value> = (0..20)
        .map(|i| {
            json!({"Id": format!("0066{i:02}Tr0Zqm2K1TVC"), "Name": format!("Zhou Partners - Data Connectors ({i} seats)"), "Amount": 1000 + i * 37})
        })
        .collect();
    let c = Compactor::learn(&recs);
    assert_eq!(c.columns[c.key.unwrap()].name, "Name");
}

#[test]
fn the_record_s_own_id_names_it_before_a_long_id_from_another_system() {
    // Activities with their own numeric `id` and the id the uploading device gave them.
    let activities: Vec<Value> = (0..20_u64)
        .map(|i| json!({"id": 13_095_024_242_u64 - i * 5_993_575, "external_id": format!("garmin_ping_{}", 397_332_365_179_u64 - i * 911), "distance": 1000.5 * i as f64}))
        .collect();
    let c = Compactor::learn(&activities);
    assert_eq!(c.columns[c.key.unwrap()].name, "id");
    // A short handle (an issue's `number`) still names the record before its long `id`.
    let issues: Vec<Value> = (0..20_u64)
        .map(|i| json!({"id": 3_704_180_000_u64 + i * 7_919, "number": 2_000 + i, "comments": i % 4}))
        .collect();
    let c = Compactor::learn(&issues);
    assert_eq!(c.columns[c.key.unwrap()].name, "number");
}

#[test]
fn a_number_named_as_an_id_names_records_before_a_random_bare_id() {
    // Opsgenie: a UUID `id` and a short `tinyId`; people call an alert by the number.
    let uuid = |i: u64| format!("{:08x}-4477-4fa8-92fc-9df396c1{:04x}", 0x2a9d_11dc_u64 ^ (i * 7919), i);
    let alerts: Vec<Value> = (0..20)
        .map(|i| json!({"id": uuid(i), "tinyId": format!("{}", 34_175 + i), "count": 1 + (i * 37) % 11}))
        .collect();
    let c = Compactor::learn(&alerts);
    assert_eq!(c.columns[c.key.unwrap()].name, "tinyId");
    // A random id named for the record (`order_id`) keeps its place beside another record's
    // number (`customer_id`, unique in a short page by chance).
    let orders: Vec<Value> =
        (0..20).map(|i| json!({"order_id": uuid(i), "customer_id": 120_000 + i * 13, "revenue": 15 + i * 7})).collect();
    let c = Compactor::learn(&orders);
    assert_eq!(c.columns[c.key.unwrap()].name, "order_id");
}

#[test]
fn a_key_built_around_a_random_id_is_no_better_a_name_than_the_id() {
    // DynamoDB: the sort key repeats the order's random id after a type and a time.
    let recs: Vec<Value> = (0..20)
        .map(|i| {
            let ulid = format!("01K066JTQVBDW61F2SGPGH{i:02}C1");
            json!({"orderId": format!("ord_{ulid}"), "sk": format!("ORDER#2025-07-15T04:48:{i:02}Z#{ulid}"), "total": 10 + i * i})
        })
        .collect();
    let c = Compactor::learn(&recs);
    assert_eq!(c.columns[c.key.unwrap()].name, "orderId");
    assert!(holds_opaque_part("ORDER#2025-07-15T04:48:12Z#01K066JTQVBDW61F2SGPGH61C1"));
    assert!(!holds_opaque_part("Zhou Partners - Data Connectors (261 seats)"));
}

/// Tasks whose custom fields are a list of objects with many members: the name of each
/// field and its shown value, not the type of each.
fn tasks(n: usize) -> Vec<Value> {
    (0..n)
        .map(|i| {
            let priority = ["High", "Medium", "Low"][i % 3];
            json!({
                "gid": format!("{}", 1_200_000 + i),
                "name": format!("Task {i}"),
                "custom_fields": [
                    {"gid": "1100", "enabled": true, "name": "Priority", "display_value": priority,
                     "enum_value": {"name": priority}, "type": "enum", "resource_type": "custom_field"},
                    {"gid": "1101", "enabled": true, "name": "Estimate (days)", "display_value": format!("{}.0", i % 5),
                     "number_value": i % 5, "type": "number", "resource_type": "custom_field"}
                ],
                "memberships": [{"section": {"name": (["Backlog", "Done"][i % 2])}}],
                "conditions": [
                    {"lastTransitionTime": format!("2025-01-{:02}T00:00:00Z", 1 + i % 28), "status": if i % 4 == 0 { "False" } else { "True" }, "type": "Ready"},
                    {"lastTransitionTime": format!("2025-02-{:02}T00:00:00Z", 1 + i % 28), "status": "True", "type": "Scheduled"}
                ],
                "labels": [{"name": (["bug", "ui", "docs"][i % 3]), "color": (["red", "grey", "grey"][i % 3])}, {"name": "triage", "color": "red"}]
            })
        })
        .collect()
}

#[test]
fn a_list_that_is_a_map_becomes_fields_named_by_its_items() {
    let sample = tasks(12);
    let c = Compactor::learn(&sample);
    let column =
        |n: &str| c.columns.iter().find(|c| c.name == n).unwrap_or_else(|| panic!("no {n} in {:?}", c.columns));
    // The name, not the type, names each custom field; its shown value is its value.
    assert_eq!(column("custom_fields.Priority").holds, Holds::Categories);
    let one = c.apply(&sample[1]);
    assert_eq!(one["custom_fields.Priority"], json!("Medium"), "{one}");
    assert_eq!(one["custom_fields.Estimate (days)"], json!("1.0"), "{one}");
    // Conditions, written in alphabetical order: named by their type, valued by their
    // status (the most present member with the fewest values), not their time.
    assert_eq!(one["conditions.Ready"], json!("True"), "{one}");
    // A label's colour, shared by two labels, does not make labels a map.
    assert_eq!(one["labels"], json!(["ui", "triage"]), "{one}");
    // The list is one projection for a mask, written once.
    let projected: Vec<String> = c.columns.iter().filter(|c| c.is_pair_value()).map(Column::projection).collect();
    assert!(projected.iter().all(|p| p == "custom_fields" || p == "conditions"), "{projected:?}");
}

#[test]
fn a_map_whose_values_are_objects_is_written_by_their_names() {
    // A tracker's custom fields: each value an object (`{"name": "Major", "$type": …}`), a
    // person, or a list of versions. Each field is counted by what names its value.
    let sample: Vec<Value> = (0..12)
        .map(|i| {
            json!({"id": format!("2-{}", 600 + i), "customFields": [
                {"name": "Priority", "$type": "SingleEnum", "value": {"name": (["Major", "Normal", "Minor"][i % 3]), "$type": "EnumBundleElement"}},
                {"name": "Assignee", "$type": "SingleUser", "value": {"fullName": (["Elena Weber", "Ines Duval", "Hugo Lind", "Greta Kral"][i % 4]), "ringId": format!("a2d29c90-24dc-42d5-8b8d-482c0e00{:04}", i % 4), "$type": "User"}},
                {"name": "Fix versions", "$type": "MultiVersion", "value": [{"name": (["2025.12", "2026.1"][i % 2]), "$type": "VersionBundleElement"}]},
                {"name": "Due Date", "$type": "Date", "value": 1_769_040_000_000_i64 + i as i64 * 86_400_000},
            ]})
        })
        .collect();
    let c = Compactor::learn(&sample);
    let column =
        |n: &str| c.columns.iter().find(|c| c.name == n).unwrap_or_else(|| panic!("no {n} in {:?}", c.columns));
    assert_eq!(column("customFields.Priority").holds, Holds::Categories);
    let one = c.apply(&sample[1]);
    assert_eq!(one["customFields.Priority"], json!("Normal"), "{one}");
    assert_eq!(one["customFields.Assignee"], json!("Ines Duval"), "{one}");
    assert_eq!(one["customFields.Fix versions"], json!(["2026.1"]), "{one}");
    assert_eq!(one["customFields.Due Date"], json!(1_769_126_400_000_i64), "{one}");
}

#[test]
fn a_scalar_that_varies_is_a_map_s_value_before_an_object() {
    // Containers named alike in every pod: the image is each one's value, not its resources.
    let sample: Vec<Value> = (0..12)
        .map(|i| {
            json!({"name": format!("pod-{i}"), "containers": [
                {"name": "app", "image": format!("shop/app:{}", i % 3), "resources": {"cpu": format!("{}m", 100 * (i % 4 + 1))}},
                {"name": "sidecar", "image": format!("envoy:{}", i % 2), "resources": {"cpu": "50m"}},
            ]})
        })
        .collect();
    let c = Compactor::learn(&sample);
    let one = c.apply(&sample[1]);
    assert_eq!(one["containers.app"], json!("shop/app:1"), "{one}");
}

#[test]
fn many_names_make_one_object_per_record() {
    let sample: Vec<Value> = (0..40)
        .map(|i| json!({"id": i, "env": [{"name": format!("VAR_{}", i % 20), "value": format!("v{i}")}, {"name": format!("VAR_{}", (i + 1) % 20), "value": "x"}]}))
        .collect();
    let c = Compactor::learn(&sample);
    let one = c.apply(&sample[3]);
    assert_eq!(one["env"], json!({"VAR_3": "v3", "VAR_4": "x"}), "{one}");
}

#[test]
fn a_link_never_names_a_map_item_and_a_random_id_can_be_its_value() {
    let sample: Vec<Value> = (0..8)
        .map(|i| {
            let state = |ok: bool| if ok { "success" } else { "failure" };
            json!({
                "id": i,
                // Links come first, as in many APIs; each check's name names it.
                "checks": [
                    {"url": "https://ci.x.com/checks/lint", "name": "lint", "conclusion": state(i % 3 != 0)},
                    {"url": "https://ci.x.com/checks/test", "name": "test", "conclusion": state(i % 4 != 0)}
                ],
                "identifiers": [
                    {"type": "GHSA", "value": format!("{:08x}-9c1e-4b7a-a3f2-{:012x}", 0x3f2b_9c1e_u32 ^ i, 0x5d1c_84e2_77a0_u64 + i as u64 * 7919)},
                    {"type": "CVE", "value": format!("CVE-2024-{}", 1000 + i)}
                ]
            })
        })
        .collect();
    let c = Compactor::learn(&sample);
    let one = c.apply(&sample[3]);
    assert_eq!(one["checks.lint"], json!("failure"), "{one}");
    assert_eq!(one["checks.test"], json!("success"), "{one}");
    assert_eq!(one["identifiers.GHSA"], sample[3]["identifiers"][0]["value"], "{one}");
}

#[test]
fn a_name_nearly_every_record_holds_once_names_records_before_a_version_number() {
    // Kubernetes: `resourceVersion` is unique and handed out in order, but names nothing a
    // reader knows; `metadata.name` repeats in a second namespace for one Deployment in ten.
    let recs: Vec<Value> = (0..30)
        .map(|i| {
            let name = if i % 10 == 9 { format!("app-{:02}", i - 1) } else { format!("app-{i:02}") };
            let namespace = if i % 10 == 9 { "staging" } else { "prod" };
            json!({"metadata": {"name": name, "namespace": namespace, "resourceVersion": 41_700_000 + i * 17}, "spec": {"replicas": i % 7}})
        })
        .collect();
    let c = Compactor::learn(&recs);
    assert_eq!(c.columns[c.key.unwrap()].name, "metadata.name");
    // A number named as an id keeps naming records, and so does a random-looking id.
    let ids: Vec<Value> = recs
        .iter()
        .enumerate()
        .map(|(i, r)| json!({"id": 1000 + i, "metadata": r["metadata"]["name"], "size": i * 3}))
        .collect();
    let c = Compactor::learn(&ids);
    assert_eq!(c.columns[c.key.unwrap()].name, "id");
    let uids: Vec<Value> = recs
        .iter()
        .enumerate()
        .map(|(i, r)| json!({"uid": format!("9f3c2a7e-41b0-4c8d-a5e2-{:012x}", 0x5f3a_91c2_7d00 + i * 7919), "metadata": r["metadata"]["name"]}))
        .collect();
    let c = Compactor::learn(&uids);
    assert_eq!(c.columns[c.key.unwrap()].name, "uid");
}

#[test]
fn of_two_fields_that_say_the_same_the_shallower_is_kept() {
    let recs: Vec<Value> = (0..12)
        .map(|i| json!({"metadata": {"labels": {"app.kubernetes.io/name": format!("svc-{i}")}, "name": format!("svc-{i}")}}))
        .collect();
    let c = Compactor::learn(&recs);
    let names: Vec<&str> = c.columns.iter().map(|c| c.name.as_str()).collect();
    assert!(names.contains(&"metadata.name"), "{names:?}");
    assert!(!names.iter().any(|n| n.contains("labels")), "{names:?}");
}

/// A search hit's page link, and a thumbnail through an image proxy: random tokens, no
/// file extension.
fn hits(n: usize, with_page: bool) -> Vec<Value> {
    let token = |i: usize, salt: &str| format!("{salt}Xq7Lm{i}Zp9Rt2Vb8Nc4Wd6Fg1Hj3Kk5Yy0Qa{}Ts", i * 7919);
    (0..n)
        .map(|i| {
            let mut hit = json!({
                "title": format!("How the parser recovers, part {i}"),
                "thumbnail": format!("https://imgs.search.x.com/{}/rs:fit:200:200/{}", token(i, "a"), token(i, "b")),
            });
            if with_page {
                hit["url"] = json!(format!("https://blog.example.org/parser/part-{i}"));
            }
            hit
        })
        .collect()
}

#[test]
fn a_link_carrying_a_random_token_is_left_out_when_the_record_keeps_a_readable_link() {
    assert!(stats::carries_token(hits(1, false)[0]["thumbnail"].as_str().unwrap()));
    assert!(!stats::carries_token("https://blog.example.org/parser/part-3"));
    assert!(!stats::carries_token("https://x.slack.com/archives/C0123ABCD/p1712345678901234"));

    let c = Compactor::learn(&hits(12, true));
    let names: Vec<&str> = c.columns.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["title", "url"]);
    assert!(c.dropped.contains(&"thumbnail".to_owned()), "{:?}", c.dropped);

    // Without a link of its own, the record keeps the only one it has.
    let c = Compactor::learn(&hits(12, false));
    let names: Vec<&str> = c.columns.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["title", "thumbnail"]);
}

#[test]
fn words_in_a_random_looking_path_make_it_a_name_unless_every_record_shares_them() {
    assert!(stats::is_worded("athena-results/0062fb81-7786-446d-a8bf-5126facfa2fd.csv"));
    assert!(stats::is_worded("query-api-8bv5rskg7p-ddmj5"));
    assert!(!stats::is_worded("cus_NffrFeUfNV2Hib"), "a type prefix is one word");
    assert!(!stats::is_worded("0062fb81-7786-446d-a8bf-5126facfa2fd.json"), "hexadecimal runs are not words");
    let firestore: Vec<String> = (0..4)
        .map(|i| format!("projects/acme-prod/databases/(default)/documents/shipments/Ds{i}TWrvfT4lrixObFI79I"))
        .collect();
    let texts: Vec<&str> = firestore.iter().map(String::as_str).collect();
    assert!(!paths::named_by_words(&texts), "the shared start names the collection, not the record");
    let keys =
        ["logs/alb/2025/12/29/app.4f1c2b7e9a0d3e55_20251229T1500Z.log.gz", "exports/invoices/2025/04/INV-36844.pdf"];
    assert!(paths::named_by_words(&keys));
}

/// An object listing: keys are paths with random parts, the entity tag a quoted hash.
fn objects(n: usize) -> Vec<Value> {
    (0..n)
        .map(|i| {
            let prefix = ["athena-results", "raw/events/dt=2025-12-24", "backups/postgres"][i % 3];
            json!({
                "Key": format!("{prefix}/{:08x}-7786-446d-a8bf-{:012x}.csv", 0x0062_fb81 + i * 7919, i * 104_729),
                "ETag": format!("\"{:032x}\"", (i as u128 + 1) * 0x9608_e76c_00c4_3d41_c544_0857),
                "Size": 1000 + i * i * 37,
                "StorageClass": (["STANDARD", "GLACIER_IR"][i % 2]),
            })
        })
        .collect()
}

#[test]
fn an_object_key_with_random_parts_is_kept_whole_and_names_the_record() {
    let sample = objects(20);
    let c = Compactor::learn(&sample);
    let key = c.key.map(|k| c.columns[k].name.as_str());
    assert_eq!(key, Some("Key"), "named by its key, not its entity tag");
    assert_eq!(c.apply(&sample[4])["Key"], sample[4]["Key"], "kept whole");
}

/// Virtual machines whose id is a resource path built from their group and name.
#[test]
fn a_resource_path_made_of_the_record_s_values_is_left_out() {
    let sample: Vec<Value> = (0..12)
        .map(|i| {
            let (group, name) = (["RG-PROD-EUS2", "RG-STG-WEU"][i % 2], format!("vm-web-{i:02}"));
            json!({
                "id": format!("/subscriptions/70649f5e-5051-4358-958f-9c4065fc77b9/resourceGroups/{group}/providers/Microsoft.Compute/virtualMachines/{name}"),
                "name": name,
                "resourceGroup": group,
                "vmSize": (["Standard_E4s_v5", "Standard_F8s_v2"][i % 2]),
            })
        })
        .collect();
    let c = Compactor::learn(&sample);
    assert!(c.dropped.contains(&"id".to_owned()), "{:?}", c.dropped);
    assert_eq!(c.key.map(|k| c.columns[k].name.as_str()), Some("name"));
}

#[test]
fn a_record_s_own_title_names_it_before_a_name_most_records_hold_once() {
    // Search hits: a sequence number no reader names them by, an author nearly every hit
    // has once, and the hit's own title.
    let sample: Vec<Value> = (0..20)
        .map(|i| {
            let author = if i == 7 { "oskarli".to_owned() } else { format!("writer-{i}") };
            json!({
                "title": format!("Rewriting the parser in Rust: lessons from part {i}"),
                "author": if i == 3 { "oskarli".to_owned() } else { author },
                "position": 1000 + i * 13,
                "points": (i * 7919) % 2500,
            })
        })
        .collect();
    let c = Compactor::learn(&sample);
    assert_eq!(c.key.map(|k| c.columns[k].name.as_str()), Some("title"));
}

#[test]
fn an_object_collapsed_to_its_name_lists_its_other_members_and_counts_those_that_repeat() {
    let recs: Vec<Value> = (0..40)
        .map(|i| {
            let (name, ecosystem) = [("lodash", "npm"), ("axios", "npm"), ("django", "pip"), ("semver", "npm")][i % 4];
            json!({
                "number": 100 + i,
                "state": (["open", "fixed"][i % 2]),
                "dependency": {"package": {"ecosystem": ecosystem, "name": name}, "scope": (["runtime", "development"][i % 3 % 2])},
                "advisory": {"ghsa": format!("GHSA-{:04}", i % 10), "severity": (["high", "low"][i % 10 % 2]), "score": i % 10},
            })
        })
        .collect();
    let c = Compactor::learn(&recs);
    // The advisory recurs and is named by its id; its severity is not shown but counted.
    assert!(c.columns.iter().any(|col| col.name == "advisory.ghsa"), "{:?}", c.columns);
    assert!(c.dropped.contains(&"advisory.*".to_owned()), "{:?}", c.dropped);
    assert!(!c.apply(&recs[0]).to_string().contains("severity"));
    let members: Vec<&str> = c.members.iter().map(|m| m.name.as_str()).collect();
    assert!(members.contains(&"advisory.severity"), "{members:?}");
    let mut f = crate::facets::Facets::new(&c);
    recs.iter().for_each(|r| f.add(r));
    let p = f.phrase(10_000).unwrap_or_default();
    let high = recs.iter().filter(|r| r["advisory"]["severity"] == "high").count();
    assert!(p.contains(&format!("advisory.severity: high {high}, low {}", recs.len() - high)), "{p}");
}

#[test]
fn an_object_named_by_a_code_keeps_its_title_beside_it() {
    // A security alert's advisory recurs across alerts and is named by its CVE number (one
    // per advisory, where two advisories can share a summary); what a reader asks about is
    // its summary, which says what the advisory is.
    let summaries = [
        "Lodash vulnerable to prototype pollution",
        "Axios leaks credentials on redirect",
        "Semver regular expression denial of service",
        "Braces uncontrolled resource consumption",
        "Werkzeug debugger allows code execution",
        "Follow redirects leaks proxy credentials",
    ];
    let recs: Vec<Value> = (0..30)
        .map(|i| {
            let advisory = i % 10;
            json!({
                "number": 100 + i,
                "advisory": {"cve_id": format!("CVE-2024-{:05}", 1000 + advisory), "summary": summaries[advisory % 6], "severity": "high"},
                "milestone": {"title": (["Sprint alpha", "Sprint beta"][i % 2]), "description": format!("Goals of the sprint, part {}", i % 2)},
            })
        })
        .collect();
    let c = Compactor::learn(&recs);
    let names: Vec<&str> = c.columns.iter().map(|c| c.name.as_str()).collect();
    assert!(names.contains(&"advisory.cve_id") && names.contains(&"advisory.summary"), "{names:?}");
    assert!(c.apply(&recs[4]).to_string().contains(summaries[4]), "{}", c.apply(&recs[4]));
    // An object named by words needs no title: a milestone's own title says what it is.
    assert!(names.contains(&"milestone.title") && !names.contains(&"milestone.description"), "{names:?}");
}

/// The row read straight from a record is the compact object read by the columns' names,
/// with the same cuts; a record that is no object gives none.
#[test]
fn a_row_is_the_compact_record_read_by_its_names() {
    let sample = issues(12);
    let c = Compactor::learn(&sample);
    assert!(c.names_distinct());
    for record in &sample {
        let (object, cut) = c.apply_noting_cuts(record);
        let by_names: Vec<Value> = c.columns.iter().map(|col| object[&col.name].clone()).collect();
        assert_eq!(c.row_noting_cuts(record), Some((by_names, cut)));
    }
    assert_eq!(c.row_noting_cuts(&json!("text")), None);
    let mut twice = c.clone();
    twice.columns.push(twice.columns[0].clone());
    assert!(!twice.names_distinct());
}

#[test]
fn an_internal_id_of_digits_in_parts_gives_way_to_the_key_people_use() {
    // An issue tracker's own `id` (`2-66676`) and the key people call the issue by
    // (`MOB-5225`): a reader answers "which issue" with the second.
    let items: Vec<Value> = (0..20)
        .map(|i| json!({"id": format!("2-{}", 66_600 + i * 7), "idReadable": format!("MOB-{}", 5_200 + i), "summary": format!("Checkout fails when the cart holds {i} items")}))
        .collect();
    let c = Compactor::learn(&items);
    assert_eq!(c.key.map(|k| c.columns[k].name.as_str()), Some("idReadable"));
}

#[test]
fn a_machine_token_id_gives_way_to_the_number_people_use() {
    // An incident's own `id` is a token of capitals and digits (`QD99DL5B9V36IA`); people
    // call it by its `incident_number`.
    let token = |i: usize| format!("Q{}X{}K{:02}", ["AB", "CD", "EF", "GH"][i % 4], 10 + i * 7, i);
    let items: Vec<Value> = (0..20)
        .map(|i| json!({"id": token(i), "incident_number": 9_300 + i, "title": format!("Checkout fails when the cart holds {i} items")}))
        .collect();
    let c = Compactor::learn(&items);
    assert_eq!(c.key.map(|k| c.columns[k].name.as_str()), Some("incident_number"));
}
