//! Maps written as lists whose values wrap their scalars in an object naming the type, on
//! hand-made spans as OpenTelemetry's JSON writes them.

use serde_json::{Value, json};

use super::super::Compactor;

/// An attribute as OTLP/JSON writes it: its key, and its value inside an object that
/// names the value's type.
fn attribute(key: &str, value: Value) -> Value {
    let typed = match value {
        Value::String(s) => json!({"stringValue": s}),
        other => json!({"intValue": other.to_string()}),
    };
    json!({"key": key, "value": typed})
}

/// Spans that each hold a few of many attribute names (an HTTP server's, a database
/// client's, a cache's), as a trace export's do.
fn spans(n: usize) -> Vec<Value> {
    (0..n)
        .map(|i| {
            let attributes: Vec<Value> = match i % 3 {
                0 => vec![
                    attribute("http.request.method", json!(["GET", "POST"][i % 2])),
                    attribute("http.response.status_code", json!([200, 201, 500][i % 3 + (i / 3) % 2])),
                    attribute(&format!("app.route.{}", i % 17), json!("/api")),
                ],
                1 => vec![
                    attribute("db.system.name", json!("postgresql")),
                    attribute(&format!("db.query.{i}"), json!(format!("SELECT {i}"))),
                ],
                _ => vec![
                    attribute("db.system.name", json!("redis")),
                    attribute(&format!("cache.key.{}", i % 13), json!(format!("cart:{i}"))),
                ],
            };
            json!({"spanId": format!("{:016x}", 0x5eed_0000 + i * 7919), "name": format!("op {i}"), "attributes": attributes})
        })
        .collect()
}

#[test]
fn typed_values_of_a_sparse_map_are_written_and_counted_as_their_scalars() {
    let sample = spans(40);
    let c = Compactor::learn(&sample);
    let one = c.apply(&sample[1]);
    assert_eq!(one["attributes"]["db.system.name"], json!("postgresql"), "{one}");
    // The names whose values repeat are counted as plain values, not as wrappers.
    let system = c
        .members
        .iter()
        .find(|m| m.name == "attributes.db.system.name")
        .unwrap_or_else(|| panic!("not counted: {:?}", c.members.iter().map(|m| &m.name).collect::<Vec<_>>()));
    assert_eq!(system.read(&sample[2]), Some(json!("redis")));
    let status = c.members.iter().find(|m| m.name == "attributes.http.response.status_code").expect("status counted");
    assert_eq!(status.read(&sample[0]), Some(json!("200")));
}

#[test]
fn typed_values_of_a_few_names_become_scalar_fields_and_larger_objects_stay_whole() {
    let sample: Vec<Value> = (0..12)
        .map(|i| {
            json!({"id": i, "resource": [
                attribute("service.name", json!(["cart", "checkout", "email"][i % 3])),
                attribute("service.instance.id", json!(format!("pod-{i}"))),
            ]})
        })
        .collect();
    let c = Compactor::learn(&sample);
    let one = c.apply(&sample[4]);
    assert_eq!(one["resource.service.name"], json!("checkout"), "{one}");
    // A value object of two members says more than its type: it is not unwrapped.
    let pair = |i: usize| json!({"key": format!("k{}", i % 2), "value": {"amount": i, "currency": "EUR"}});
    let lists = [vec![pair(0), pair(1)], vec![pair(2), pair(3)], vec![pair(4), pair(5)]];
    let lists: Vec<&[Value]> = lists.iter().map(Vec::as_slice).collect();
    assert!(!super::typed_values(&lists, "value"));
    assert!(super::typed_scalar(&json!({"stringValue": "GET"})).is_some());
    assert!(super::typed_scalar(&json!({"kvlistValue": {"values": []}})).is_none());
}
