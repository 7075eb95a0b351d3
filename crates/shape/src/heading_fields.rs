//! The `Key: value` lines of a document's sections, counted across the sections: a report
//! with a heading per disk, node or host (`smartctl -a` over every drive, `kubectl
//! describe`, `nvidia-smi -q`) says the same things of each, and how many drives failed
//! their health check, or which one is the hottest, is a count or an extreme over those
//! lines. Each section becomes a record of its heading and its first value for each key, and
//! the records are counted like any records (`crate::aligned::rows_map`): `SMART
//! overall-health self-assessment test result: PASSED 11, FAILED 1`.
//!
//! A key starts with a letter, runs to the first `: ` of the line and has at most
//! [`KEY_WORDS`] words; only keys that at least two sections hold are read. Nothing about
//! any format is known.

use serde_json::{Map, Value};

use crate::aligned::rows_map;

/// Sections a document needs for its keys to be counted.
const MIN_SECTIONS: usize = 3;
/// The most words a key may hold.
const KEY_WORDS: usize = 8;
/// The longest key, in bytes.
const KEY_BYTES: usize = 80;
/// The longest value read, in bytes: longer ones are prose.
const VALUE_BYTES: usize = 120;

/// The counts of the `Key: value` lines of `text`'s sections, each starting at a heading
/// line (`starts`: zero-based, in order, with the heading's title), within `room` bytes;
/// `None` when too few sections share keys.
pub(crate) fn heading_fields(text: &str, starts: &[(usize, &str)], room: usize) -> Option<String> {
    if starts.len() < MIN_SECTIONS {
        return None;
    }
    let lines: Vec<&str> = text.lines().collect();
    let mut records: Vec<Map<String, Value>> = Vec::with_capacity(starts.len());
    for (i, &(start, title)) in starts.iter().enumerate() {
        let end = starts.get(i + 1).map_or(lines.len(), |s| s.0).min(lines.len());
        let mut record = Map::new();
        record.insert("heading".into(), Value::String(title.to_owned()));
        for line in lines.get(start + 1..end).unwrap_or_default() {
            if let Some((key, value)) = key_value(line)
                && key != "heading"
            {
                // A measure with its unit (`45 Celsius`, `12,345 hours`) is counted as a
                // number, its unit said with the key.
                let (key, value) = match measure(value) {
                    Some((n, Some(unit))) => (format!("{key} ({unit})"), n),
                    Some((n, None)) => (key.to_owned(), n),
                    None => (key.to_owned(), Value::String(value.to_owned())),
                };
                record.entry(key).or_insert(value);
            }
        }
        records.push(record);
    }
    // Keys one section alone holds say nothing across sections.
    let mut held: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for r in &records {
        for k in r.keys() {
            *held.entry(k.as_str()).or_default() += 1;
        }
    }
    let shared: Vec<String> =
        held.iter().filter(|&(k, n)| *k != "heading" && *n >= 2).map(|(k, _)| (*k).to_owned()).collect();
    if shared.is_empty() {
        return None;
    }
    let rows: Vec<Value> = records
        .into_iter()
        .map(|mut r| {
            r.retain(|k, _| k == "heading" || shared.contains(k));
            Value::Object(r)
        })
        .collect();
    let head = format!("`Key: value` lines of the {} sections", rows.len());
    rows_map(&rows, head, room).filter(|m| m.contains("; "))
}

/// `value` read as a number, written plainly or with thousands separators, and perhaps one
/// word of unit after it (`45 Celsius`); `None` when it is anything else.
fn measure(value: &str) -> Option<(Value, Option<&str>)> {
    let (number, unit) = match value.split_once(' ') {
        Some((n, u)) if u.len() <= 12 && u.chars().all(char::is_alphabetic) => (n, Some(u)),
        Some(_) => return None,
        None => (value, None),
    };
    let grouped = number.contains(',');
    if grouped {
        // Groups of three digits after the first: `16,000,900`, not a list `1,2`.
        let mut groups = number.split(',');
        let first = groups.next()?;
        if first.is_empty() || first.len() > 3 || !groups.all(|g| g.len() == 3) {
            return None;
        }
    }
    let plain = number.replace(',', "");
    if !plain.bytes().all(|b| b.is_ascii_digit() || b == b'.') || plain.is_empty() || plain.starts_with('.') {
        return None;
    }
    let n = match plain.parse::<u64>() {
        Ok(n) => Value::from(n),
        Err(_) => serde_json::Number::from_f64(plain.parse::<f64>().ok()?).map(Value::Number)?,
    };
    Some((n, unit))
}

/// `line` read as `Key: value`: a key starting with a letter, of at most [`KEY_WORDS`]
/// words, then `: ` and a value.
fn key_value(line: &str) -> Option<(&str, &str)> {
    let t = line.trim();
    let (key, value) = t.split_once(": ")?;
    let (key, value) = (key.trim_end(), value.trim());
    let words = key.split_whitespace().count();
    (key.chars().next()?.is_alphabetic()
        && !key.contains("://")
        && key.len() <= KEY_BYTES
        && (1..=KEY_WORDS).contains(&words)
        && !value.is_empty()
        && value.len() <= VALUE_BYTES)
        .then_some((key, value))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report() -> (String, Vec<(usize, String)>) {
        let mut text = String::new();
        let mut starts = Vec::new();
        for d in 0..8 {
            starts.push((text.lines().count(), format!("##### /dev/sd{}", (b'a' + d) as char)));
            text.push_str(&format!("##### /dev/sd{}\n", (b'a' + d) as char));
            let health = if d == 5 { "FAILED!" } else { "PASSED" };
            text.push_str(&format!("SMART overall-health self-assessment test result: {health}\n"));
            text.push_str(&format!("Current Temperature:     {} Celsius\n", 30 + d * 3 % 7));
            text.push_str(&format!("Serial Number:    ZL{d}KN9Q4\n  1 Raw_Read_Error_Rate 0x000f 083 064\n\n"));
        }
        (text, starts)
    }

    #[test]
    fn the_sections_keys_are_counted_across_sections() {
        let (text, starts) = report();
        let starts: Vec<(usize, &str)> = starts.iter().map(|(l, t)| (*l, t.as_str())).collect();
        let map = heading_fields(&text, &starts, 2000).unwrap();
        assert!(map.starts_with("`Key: value` lines of the 8 sections; "), "{map}");
        assert!(map.contains("PASSED 7, FAILED! 1"), "{map}");
        // The hottest drive, named by its heading, the unit with the key.
        let hottest = map.split("Current Temperature (Celsius): max 36 (").nth(1).unwrap_or_default();
        assert!(hottest.split(')').next().unwrap_or_default().contains("/dev/sdc"), "{map}");
    }

    #[test]
    fn measures_are_numbers_with_their_unit_said_apart() {
        assert_eq!(measure("45 Celsius"), Some((Value::from(45), Some("Celsius"))));
        assert_eq!(measure("12,345"), Some((Value::from(12345), None)));
        assert_eq!(measure("0.5 seconds"), Some((Value::from(0.5), Some("seconds"))));
        assert_eq!(measure("1,2"), None);
        assert_eq!(measure("16,000,900,661,248 bytes [16.0 TB]"), None);
        assert_eq!(measure("PASSED"), None);
        assert_eq!(measure("7200 rpm"), Some((Value::from(7200), Some("rpm"))));
    }

    #[test]
    fn keys_are_short_labels_before_a_colon_and_a_space() {
        assert_eq!(key_value("  Serial Number:    ZL2KN9Q4"), Some(("Serial Number", "ZL2KN9Q4")));
        assert_eq!(key_value("http://example.com: x"), None);
        assert_eq!(key_value("12:00: started"), None);
        assert_eq!(key_value("Note: "), None);
        let long = format!("{}: value", "word ".repeat(12));
        assert_eq!(key_value(&long), None);
    }

    #[test]
    fn too_few_sections_or_no_shared_key_give_nothing() {
        let (text, starts) = report();
        let starts: Vec<(usize, &str)> = starts.iter().map(|(l, t)| (*l, t.as_str())).collect();
        assert_eq!(heading_fields(&text, &starts[..2], 2000), None);
        let plain = "# a\nx\n# b\ny\n# c\nz\n";
        assert_eq!(heading_fields(plain, &[(0, "a"), (2, "b"), (4, "c")], 2000), None);
    }
}
