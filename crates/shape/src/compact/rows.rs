//! Rows written as lists of values under a header row (a sheet's `values`, a CSV read into
//! JSON): read as records named by the header, so that they are compacted, counted and
//! tabled like a list of objects.

use serde_json::{Map, Value};

/// The header of positional rows: the first row, when every row is a list of plain values
/// no longer than it, and the first row holds distinct names (letters, no digits) that no
/// later row repeats in its column, above columns at least half of which hold digits (a
/// first row of data is as much like the rows below it as they are like each other).
pub(crate) fn header(sample: &[Value]) -> Option<Vec<String>> {
    let (first, rest) = sample.split_first()?;
    if rest.len() < 2 {
        return None;
    }
    let names: Vec<String> = first.as_array()?.iter().map(|v| v.as_str().map(str::to_owned)).collect::<Option<_>>()?;
    let named = |n: &String| n.chars().any(char::is_alphabetic) && !n.chars().any(|c| c.is_ascii_digit());
    if names.len() < 2 || !names.iter().all(named) {
        return None;
    }
    let mut distinct = names.clone();
    distinct.sort();
    distinct.dedup();
    if distinct.len() != names.len() {
        return None;
    }
    let rows: Vec<&Vec<Value>> = rest.iter().filter_map(Value::as_array).collect();
    let plain = |r: &&Vec<Value>| r.len() <= names.len() && !r.iter().any(|v| v.is_array() || v.is_object());
    if rows.len() != rest.len() || !rows.iter().all(plain) {
        return None;
    }
    let mut with_digits = 0;
    for (i, name) in names.iter().enumerate() {
        let mut digits = false;
        for cell in rows.iter().filter_map(|r| r.get(i)) {
            if cell.as_str() == Some(name.as_str()) {
                return None;
            }
            digits |= cell.is_number() || cell.as_str().is_some_and(|s| s.chars().any(|c| c.is_ascii_digit()));
        }
        with_digits += usize::from(digits);
    }
    (with_digits * 2 >= names.len()).then_some(names)
}

/// A row as the record it stands for: its values under the header's names (cells past the
/// row's end are left out, as a sheet leaves trailing empty cells out).
pub(crate) fn record(header: &[String], row: &[Value]) -> Value {
    let m: Map<String, Value> = header.iter().zip(row).map(|(k, v)| (k.clone(), v.clone())).collect();
    Value::Object(m)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_header_row_names_the_columns_below_it() {
        let sample = vec![
            json!(["SKU", "Warehouse", "On Hand", "Stock Value"]),
            json!(["PAC-1012-L", "Atlanta GA", "639", "$82,539.63"]),
            json!(["FOO-1013-L", "Reno NV", "673", "$77,718.04"]),
            json!(["FOO-1019-S", "Reno NV"]),
        ];
        let h = header(&sample).unwrap();
        assert_eq!(h, ["SKU", "Warehouse", "On Hand", "Stock Value"]);
        assert_eq!(record(&h, sample[3].as_array().unwrap()), json!({"SKU": "FOO-1019-S", "Warehouse": "Reno NV"}));
    }

    #[test]
    fn a_first_row_of_data_is_not_a_header() {
        let names = vec![json!(["Ada", "London"]), json!(["Bo", "Paris"]), json!(["Cy", "Rome"])];
        assert_eq!(header(&names), None, "no column holds digits below it");
        let numbers = vec![json!(["id", "n"]), json!([1, 2]), json!(["id", 3])];
        assert_eq!(header(&numbers), None, "the first row comes again below");
        let nested = vec![json!(["a", "b"]), json!([1, [2]]), json!([3, 4])];
        assert_eq!(header(&nested), None);
    }
}
