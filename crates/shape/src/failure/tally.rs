//! The exceptions a log's stack traces raised, counted by type for the first read's map
//! (over its first [`MAX_LINES`] lines, like the rest of the map):
//! `exceptions, most first: shop.inventory.errors.OutOfStock 16, KeyError 8`. A log of a
//! service that failed a few dozen times holds as many tracebacks; the level counts say how
//! many errors there were, and this says which. The types are read from the traces the
//! shrinker already recognises (Python, JVM with `Caused by:`, JavaScript, Go), never from a
//! list of known exception names.

use std::collections::HashMap;

use super::trace::exception_types;
use crate::counted::counted_list;
use crate::line_fields::MAX_LINES;

/// Types listed, at most; the rest are counted in a note.
const TOP: usize = 6;

/// The phrase for `text`'s traces, at most `room` bytes (whole entries only), or `None` when
/// no trace names its exception or the room holds none.
pub(crate) fn exceptions_phrase(text: &str, room: usize) -> Option<String> {
    // The first lines only, like the rest of the map, so the cost is bounded.
    let end = memchr::memchr_iter(b'\n', text.as_bytes()).nth(MAX_LINES).map_or(text.len(), |i| i + 1);
    let types = exception_types(&text[..end]);
    if types.is_empty() {
        return None;
    }
    let mut counts: HashMap<&str, u64> = HashMap::new();
    for t in &types {
        *counts.entry(t.as_str()).or_default() += 1;
    }
    let mut ranked: Vec<(&str, u64)> = counts.into_iter().collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let head = if ranked.len() >= 3 { "exceptions, most first: " } else { "exceptions: " };
    let listed: Vec<(String, u64)> = ranked.iter().take(TOP).map(|(name, n)| ((*name).to_owned(), *n)).collect();
    counted_list(head, &listed, ranked.len(), room, "types")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn python_trace(exception: &str) -> String {
        format!(
            "Traceback (most recent call last):\n  File \"/app/views.py\", line 10, in post\n    place()\n  File \"/app/stock.py\", line 57, in reserve\n    raise Boom()\n{exception}\n"
        )
    }

    #[test]
    fn traces_are_counted_by_their_exception_type() {
        let mut log = String::new();
        for i in 0..7 {
            log.push_str(&format!(
                "2025-12-31 15:53:{i:02},167 ERROR [req:7118] django.request: Internal Server Error\n"
            ));
            let e = if i % 3 == 2 { "KeyError: 'sku'" } else { "shop.errors.OutOfStock: FJ-3775 has 0 units left" };
            log.push_str(&python_trace(e));
        }
        log.push_str("java.lang.IllegalStateException: closed\n\tat com.acme.Pool.get(Pool.java:12)\n\tat com.acme.Api.run(Api.java:40)\n");
        let p = exceptions_phrase(&log, 1_000).unwrap();
        assert_eq!(
            p,
            "exceptions, most first: shop.errors.OutOfStock 5, KeyError 2, java.lang.IllegalStateException 1"
        );
    }

    #[test]
    fn no_trace_no_phrase_and_the_room_is_kept() {
        assert_eq!(exceptions_phrase("INFO started\nERROR failed: timeout\n", 1_000), None);
        let log: String = (0..20).map(|i| python_trace(&format!("pkg.Error{i}: x"))).collect();
        let p = exceptions_phrase(&log, 120).unwrap();
        assert!(p.len() <= 120, "{p}");
        assert!(p.ends_with("more types)"), "{p}");
        assert_eq!(exceptions_phrase(&log, 10), None);
    }

    #[test]
    fn only_the_first_lines_are_read() {
        let mut log = "INFO ok\n".repeat(MAX_LINES);
        log.push_str(&python_trace("KeyError: 'late'"));
        assert_eq!(exceptions_phrase(&log, 1_000), None);
        let early = format!("{}{log}", python_trace("KeyError: 'early'"));
        assert_eq!(exceptions_phrase(&early, 1_000).as_deref(), Some("exceptions: KeyError 1"));
    }

    #[test]
    fn a_log_line_above_jvm_frames_is_not_a_type() {
        let log = "2025-01-01 12:00:00 ERROR request failed for user 7\n\tat com.acme.Api.run(Api.java:40)\n";
        assert_eq!(exceptions_phrase(log, 1_000), None);
    }
}
