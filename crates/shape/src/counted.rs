//! A ranked list of counted values as a summary phrase, cut at whole entries to its room:
//! `exceptions, most first: KeyError 8, ValueError 3 (+2 more types)`.

use crate::numfmt::thousands;

/// `head` followed by the first `top` of `ranked` (already written, with their counts) that
/// fit `room` bytes with a note of how many of `total` were left out (`+N more {noun}`);
/// `None` when not one fits.
pub(crate) fn counted_list(
    head: &str,
    ranked: &[(String, u64)],
    total: usize,
    room: usize,
    noun: &str,
) -> Option<String> {
    let entries: Vec<String> = ranked.iter().map(|(value, n)| format!("{value} {}", thousands(*n))).collect();
    listed_entries(head, &entries, total, room, noun)
}

/// `head` followed by the first of `entries` (already written) that fit `room` bytes, with
/// a note of how many of `total` were left out; `None` when not one fits.
pub(crate) fn listed_entries(head: &str, entries: &[String], total: usize, room: usize, noun: &str) -> Option<String> {
    let shown = entries_fitting(head, entries, room, noun);
    if shown == 0 {
        return None;
    }
    let mut out = head.to_owned();
    for (i, entry) in entries[..shown].iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(entry);
    }
    if shown < total {
        out.push_str(&format!(" (+{} more {noun})", thousands((total - shown) as u64)));
    }
    Some(out)
}

/// How many of `entries`, from the first, [`listed_entries`] shows in `room` bytes.
pub(crate) fn entries_fitting(head: &str, entries: &[String], room: usize, noun: &str) -> usize {
    // Room kept for the note of the rest: ` (+1,000,000 more {noun})`.
    let note_room = 16 + noun.len();
    let mut len = head.len();
    let mut shown = 0;
    for entry in entries {
        let more = entry.len() + if shown > 0 { 2 } else { 0 };
        if len + more + note_room > room {
            break;
        }
        len += more;
        shown += 1;
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_entries_fit_the_room_with_the_note_of_the_rest() {
        let ranked: Vec<(String, u64)> = (0..5).map(|i| (format!("value-{i}"), 100 - i)).collect();
        let all = counted_list("x: ", &ranked, 5, 1_000, "values").unwrap();
        assert_eq!(all, "x: value-0 100, value-1 99, value-2 98, value-3 97, value-4 96");
        let some = counted_list("x: ", &ranked, 9, 60, "values").unwrap();
        assert!(some.len() <= 60 && some.ends_with("more values)"), "{some}");
        assert_eq!(counted_list("x: ", &ranked, 5, 10, "values"), None);
    }
}
