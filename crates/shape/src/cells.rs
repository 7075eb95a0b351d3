//! Rows whose values sit in lists by position, named by a header elsewhere in the result
//! (BigQuery's `rows[].f[].v` under `schema.fields[].name`, GA4's `dimensionValues` under
//! `dimensionHeaders[].name`): rewritten as records of named fields before shaping, so that
//! they are compacted, counted and paged like any records, on every page alike.

use serde_json::value::RawValue;
use serde_json::{Map, Value};

/// Siblings larger than this are not looked into for a header.
pub(crate) const HEADER_BYTES: usize = 64 << 10;

/// Names found beside the records: a list of objects that each name themselves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Header {
    /// Where the list sits, for the note (`schema.fields`).
    pub(crate) at: String,
    pub(crate) names: Vec<String>,
}

/// The headers in the member `name` of a wrapper: a list of at least two objects that each
/// have a `name` string (in any case: AWS writes `Name`), at the member or one level inside
/// it.
pub(crate) fn headers_in(name: &str, raw: &str) -> Vec<Header> {
    if raw.len() > HEADER_BYTES {
        return Vec::new();
    }
    let Ok(value) = serde_json::from_str::<Value>(raw) else { return Vec::new() };
    let mut out = Vec::new();
    let mut consider = |at: String, v: &Value| {
        let Some(items) = v.as_array().filter(|a| a.len() >= 2) else { return };
        let named = |i: &Value| {
            let m = i.as_object()?;
            m.iter().find(|(k, _)| k.eq_ignore_ascii_case("name"))?.1.as_str().map(str::to_owned)
        };
        let names: Option<Vec<String>> = items.iter().map(named).collect();
        if let Some(names) = names {
            out.push(Header { at, names });
        }
    };
    consider(name.to_owned(), &value);
    if let Value::Object(m) = &value {
        for (k, v) in m {
            consider(format!("{name}.{k}"), v);
        }
    }
    out
}

/// The records as a JSON list with each positional list replaced by its cells under the
/// header of its length (the one whose place shares most of the list's name), and a note
/// of what was named; `None` when no list of the first record has a header.
pub(crate) fn named(items: &[&RawValue], headers: &[Header]) -> Option<(String, String)> {
    if items.first()?.get().starts_with('[') {
        return lists_named(items, headers);
    }
    let first: Value = serde_json::from_str(items.first()?.get()).ok()?;
    let members: Vec<(String, &Header)> = first
        .as_object()?
        .iter()
        .filter_map(|(k, v)| {
            let cells = v.as_array()?;
            let fitting = headers.iter().filter(|h| h.names.len() == cells.len());
            let header = fitting.max_by_key(|h| shared_prefix(k, h.at.rsplit('.').next().unwrap_or(&h.at)))?;
            Some((k.clone(), header))
        })
        .collect();
    if members.is_empty() {
        return None;
    }
    let mut out = String::with_capacity(items.iter().map(|i| i.get().len()).sum::<usize>() + 2);
    out.push('[');
    let mut written = 0;
    for (n, raw) in items.iter().enumerate() {
        let record = match serde_json::from_str::<Value>(raw.get()) {
            Ok(Value::Object(m)) => Value::Object(rename(m, &members)),
            Ok(other) => other,
            Err(_) => return None,
        };
        // A first row that repeats the header's names (Athena's row 0) is the header again,
        // not a record.
        if n == 0 && repeats_header(&record, &members) {
            continue;
        }
        if written > 0 {
            out.push(',');
        }
        written += 1;
        out.push_str(&serde_json::to_string(&record).ok()?);
    }
    out.push(']');
    let said: Vec<String> = members.iter().map(|(k, h)| format!("{k}[] by {}[].name", h.at)).collect();
    Some((out, format!("cells named: {}", said.join(", "))))
}

/// Records that are lists themselves: of `{name, value}` pairs (CloudWatch Logs Insights'
/// `[{"field": …, "value": …}]`), each pair a field; or of plain values under a header of
/// their length beside them (a SQL API's `data` under `resultSetMetaData.rowType`).
fn lists_named(items: &[&RawValue], headers: &[Header]) -> Option<(String, String)> {
    let first: Vec<Value> = serde_json::from_str(items.first()?.get()).ok()?;
    if let Some((key, value)) = pair_names(&first) {
        let note = format!("records from [{{{key}, {value}}}] pairs");
        let pairs = |row: Vec<Value>| {
            let m: Map<String, Value> = row
                .into_iter()
                .filter_map(|mut pair| {
                    let k = pair.get(&key)?.as_str()?.to_owned();
                    Some((k, pair.get_mut(&value).map(Value::take).unwrap_or(Value::Null)))
                })
                .collect();
            Value::Object(m)
        };
        return write_records(items, &pairs, note);
    }
    if !first.iter().all(|v| !v.is_array() && !v.is_object()) {
        return None;
    }
    let header = headers.iter().find(|h| h.names.len() == first.len())?;
    let note = format!("cells named: rows by {}[].name", header.at);
    let cells = |row: Vec<Value>| {
        if row.len() != header.names.len() {
            return Value::Array(row);
        }
        Value::Object(header.names.iter().cloned().zip(row).collect())
    };
    write_records(items, &cells, note)
}

/// The two member names of `{key, value}` pairs: every item an object of the same two
/// members, the first always a string (the field's name).
fn pair_names(row: &[Value]) -> Option<(String, String)> {
    let first = row.first()?.as_object()?;
    let names: Vec<&String> = first.keys().collect();
    let [key, value] = names.as_slice() else { return None };
    let same = row.iter().all(|p| {
        p.as_object()
            .is_some_and(|m| m.len() == 2 && m.contains_key(*value) && m.get(*key).is_some_and(Value::is_string))
    });
    same.then(|| ((*key).clone(), (*value).clone()))
}

/// The records, each list converted by `convert`, as a JSON list; `None` if one is not a list.
fn write_records(items: &[&RawValue], convert: &dyn Fn(Vec<Value>) -> Value, note: String) -> Option<(String, String)> {
    let mut out = String::with_capacity(items.iter().map(|i| i.get().len()).sum::<usize>() + 2);
    out.push('[');
    for (n, raw) in items.iter().enumerate() {
        if n > 0 {
            out.push(',');
        }
        let row: Vec<Value> = serde_json::from_str(raw.get()).ok()?;
        out.push_str(&serde_json::to_string(&convert(row)).ok()?);
    }
    out.push(']');
    Some((out, note))
}

/// One record with its positional lists spread into named fields, in the record's order.
fn rename(record: Map<String, Value>, members: &[(String, &Header)]) -> Map<String, Value> {
    let mut out = Map::new();
    for (k, v) in record {
        match (members.iter().find(|(m, _)| *m == k), v) {
            (Some((_, header)), Value::Array(cells)) if cells.len() == header.names.len() => {
                for (name, cell) in header.names.iter().zip(cells) {
                    out.insert(name.clone(), unwrap_cell(cell));
                }
            }
            (_, v) => {
                out.insert(k, v);
            }
        }
    }
    out
}

/// A cell's value: the one member of an object (`{"v": …}`, `{"VarCharValue": …}`), null
/// for an empty one (Athena's null), or the cell.
fn unwrap_cell(cell: Value) -> Value {
    match cell {
        Value::Object(m) if m.len() <= 1 => m.into_iter().next().map(|(_, v)| v).unwrap_or(Value::Null),
        other => other,
    }
}

/// Whether a renamed record holds, under each header name, that name itself.
fn repeats_header(record: &Value, members: &[(String, &Header)]) -> bool {
    let Some(m) = record.as_object() else { return false };
    members.iter().all(|(_, h)| h.names.iter().all(|name| m.get(name).and_then(Value::as_str) == Some(name.as_str())))
}

fn shared_prefix(a: &str, b: &str) -> usize {
    a.chars().zip(b.chars()).take_while(|(x, y)| x.eq_ignore_ascii_case(y)).count()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn raw(v: &Value) -> Box<RawValue> {
        RawValue::from_string(v.to_string()).unwrap()
    }

    #[test]
    fn typed_cells_under_a_header_in_capitals_lose_their_header_row() {
        let headers = headers_in(
            "ResultSetMetadata",
            r#"{"ColumnInfo": [{"Name": "eventname", "Type": "varchar"}, {"Name": "errorcode", "Type": "varchar"}]}"#,
        );
        assert_eq!(headers.len(), 1);
        let rows = [
            raw(&json!({"Data": [{"VarCharValue": "eventname"}, {"VarCharValue": "errorcode"}]})),
            raw(&json!({"Data": [{"VarCharValue": "AssumeRole"}, {}]})),
            raw(&json!({"Data": [{"VarCharValue": "PutObject"}, {"VarCharValue": "AccessDenied"}]})),
        ];
        let items: Vec<&RawValue> = rows.iter().map(|r| r.as_ref()).collect();
        let (text, _) = named(&items, &headers).unwrap();
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            v,
            json!([{"eventname": "AssumeRole", "errorcode": null}, {"eventname": "PutObject", "errorcode": "AccessDenied"}])
        );
    }

    #[test]
    fn bigquery_cells_are_named_by_the_schema() {
        let headers = headers_in(
            "schema",
            r#"{"fields": [{"name": "order_id", "type": "STRING"}, {"name": "revenue", "type": "FLOAT"}]}"#,
        );
        assert_eq!(headers, [Header { at: "schema.fields".into(), names: vec!["order_id".into(), "revenue".into()] }]);
        let rows =
            [raw(&json!({"f": [{"v": "ord_1"}, {"v": "12.5"}]})), raw(&json!({"f": [{"v": "ord_2"}, {"v": null}]}))];
        let items: Vec<&RawValue> = rows.iter().map(|r| r.as_ref()).collect();
        let (text, note) = named(&items, &headers).unwrap();
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v, json!([{"order_id": "ord_1", "revenue": "12.5"}, {"order_id": "ord_2", "revenue": null}]));
        assert_eq!(note, "cells named: f[] by schema.fields[].name");
    }

    #[test]
    fn each_list_takes_the_header_of_its_own_name() {
        let mut headers = headers_in("dimensionHeaders", r#"[{"name": "pagePath"}, {"name": "pageTitle"}]"#);
        headers.extend(headers_in(
            "metricHeaders",
            r#"[{"name": "views", "type": "TYPE_INTEGER"}, {"name": "users", "type": "TYPE_INTEGER"}]"#,
        ));
        let row = raw(
            &json!({"dimensionValues": [{"value": "/"}, {"value": "Home"}], "metricValues": [{"value": "10"}, {"value": "7"}]}),
        );
        let (text, _) = named(&[row.as_ref()], &headers).unwrap();
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v, json!([{"pagePath": "/", "pageTitle": "Home", "views": "10", "users": "7"}]));
    }

    #[test]
    fn lists_of_another_length_or_no_header_stay_as_they_are() {
        let headers = headers_in("schema", r#"{"fields": [{"name": "a"}, {"name": "b"}, {"name": "c"}]}"#);
        let row = raw(&json!({"f": [{"v": 1}, {"v": 2}]}));
        assert_eq!(named(&[row.as_ref()], &headers), None);
        assert!(headers_in("labels", r#"["bug", "ui"]"#).is_empty());
    }

    #[test]
    fn rows_of_values_take_the_header_of_their_length() {
        let headers = headers_in(
            "resultSetMetaData",
            r#"{"numRows": 2, "rowType": [{"name": "INVOICE_ID"}, {"name": "AMOUNT"}]}"#,
        );
        let rows = [raw(&json!(["in_1", "12.50"])), raw(&json!(["in_2", "7.00"]))];
        let items: Vec<&RawValue> = rows.iter().map(|r| r.as_ref()).collect();
        let (text, note) = named(&items, &headers).unwrap();
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v, json!([{"INVOICE_ID": "in_1", "AMOUNT": "12.50"}, {"INVOICE_ID": "in_2", "AMOUNT": "7.00"}]));
        assert_eq!(note, "cells named: rows by resultSetMetaData.rowType[].name");
    }

    #[test]
    fn rows_of_name_value_pairs_are_records() {
        let rows = [
            raw(&json!([{"field": "@requestId", "value": "r-1"}, {"field": "@duration", "value": "812.5"}])),
            raw(&json!([{"field": "@requestId", "value": "r-2"}, {"field": "@duration", "value": "3.1"}])),
        ];
        let items: Vec<&RawValue> = rows.iter().map(|r| r.as_ref()).collect();
        let (text, note) = named(&items, &[]).unwrap();
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v[1], json!({"@requestId": "r-2", "@duration": "3.1"}));
        assert_eq!(note, "records from [{field, value}] pairs");
    }
}
