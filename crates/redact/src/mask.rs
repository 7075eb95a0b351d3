//! What a finding becomes (placeholder or partial mask), and how earlier output is recognised so
//! that redacting it again changes nothing.

/// Characters kept at the start and at the end by a partial mask.
const KEEP_HEAD: usize = 3;
const KEEP_TAIL: usize = 4;
/// Shorter values get the placeholder: keeping 7 characters of 10 would hide nothing.
const PARTIAL_MIN_CHARS: usize = 11;

/// `13800000000` → `138****0000`; `None` when the value is too short to keep anything.
pub(crate) fn partial(value: &str) -> Option<String> {
    let count = value.chars().count();
    if count < PARTIAL_MIN_CHARS {
        return None;
    }
    let mut out = String::with_capacity(KEEP_HEAD + 4 + KEEP_TAIL * 4);
    out.extend(value.chars().take(KEEP_HEAD));
    out.push_str("****");
    out.extend(value.chars().skip(count - KEEP_TAIL));
    Some(out)
}

/// `john@example.com` → `jo***@example.com`: the domain stays, most of the mailbox goes.
pub(crate) fn partial_email(value: &str) -> Option<String> {
    let at = value.rfind('@')?;
    let (local, domain) = (&value[..at], &value[at + 1..]);
    if domain.is_empty() {
        return None;
    }
    let keep = match local.chars().count() {
        0 => return None,
        1 => 0,
        2 => 1,
        _ => 2,
    };
    let mut out = String::with_capacity(keep * 4 + 4 + domain.len());
    out.extend(local.chars().take(keep));
    out.push_str("***@");
    out.push_str(domain);
    Some(out)
}

fn is_name_byte(b: u8) -> bool {
    b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_'
}

/// `[SOMETHING]`: the shape of a placeholder (an uppercase letter, then uppercase letters,
/// digits and underscores, in brackets).
pub(crate) fn is_placeholder_shaped(s: &str) -> bool {
    let Some(inner) = s.strip_prefix('[').and_then(|s| s.strip_suffix(']')) else {
        return false;
    };
    inner.as_bytes().first().is_some_and(u8::is_ascii_uppercase) && inner.bytes().all(is_name_byte)
}

/// Whether `text` holds what redaction writes in place of a finding: a placeholder
/// (`[EMAIL]`) or a partial mask (`138****0000`, `jo***@example.com`). Values redacted alike
/// may have differed before, so a reader of redacted values must not take them for equal.
pub fn holds_redaction(text: &str) -> bool {
    if text.contains("****") || text.contains("***@") {
        return true;
    }
    let bytes = text.as_bytes();
    memchr::memchr_iter(b'[', bytes).any(|open| {
        let tail = &bytes[open..bytes.len().min(open + 66)];
        tail.iter()
            .position(|b| *b == b']')
            .is_some_and(|close| std::str::from_utf8(&tail[..=close]).is_ok_and(is_placeholder_shaped))
    })
}

/// Whether `start..end` lies inside a placeholder `[NAME]` for which `known` is true.
pub(crate) fn inside_placeholder(text: &str, start: usize, end: usize, known: impl Fn(&str) -> bool) -> bool {
    let bytes = text.as_bytes();
    let mut open = start;
    // A finding may also begin on the closing bracket itself.
    if bytes.get(open) == Some(&b']') && open > 0 {
        open -= 1;
    }
    loop {
        match bytes.get(open) {
            Some(b'[') => break,
            Some(b) if is_name_byte(*b) => {}
            _ => return false,
        }
        if open == 0 || start - open >= 64 {
            return false;
        }
        open -= 1;
    }
    let mut close = open + 1;
    while bytes.get(close).is_some_and(|b| is_name_byte(*b)) && close - open <= 64 {
        close += 1;
    }
    if bytes.get(close) != Some(&b']') || end > close + 1 {
        return false;
    }
    text.get(open..=close).is_some_and(known)
}

/// Whether `c` can be one of the characters a partial mask keeps around its stars.
fn kept_char(c: char) -> bool {
    c != '*' && c != '\n' && c != '\r'
}

/// Whether `c` can be a character of a mailbox (the part of an email before `@`).
fn mailbox_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "._%+-".contains(c)
}

/// Steps back from `i` over at most `n` characters for which `keep` holds; returns the new
/// offset and how many characters were stepped over.
fn back_over(text: &str, i: usize, n: usize, keep: fn(char) -> bool) -> (usize, usize) {
    let head = text.get(..i).unwrap_or_default();
    head.char_indices().rev().take(n).take_while(|(_, c)| keep(*c)).fold((i, 0), |(_, count), (k, _)| (k, count + 1))
}

/// Steps forward from `i` over at most `n` characters a mask may keep; returns the new offset
/// and how many characters were stepped over.
fn forward_over(text: &str, i: usize, n: usize) -> (usize, usize) {
    let tail = text.get(i..).unwrap_or_default();
    tail.chars().take(n).take_while(|c| kept_char(*c)).fold((i, 0), |(end, count), c| (end + c.len_utf8(), count + 1))
}

fn floor_boundary(text: &str, mut i: usize) -> usize {
    i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn ceil_boundary(text: &str, mut i: usize) -> usize {
    i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i += 1;
    }
    i
}

/// Whether `start..end` overlaps a partial mask this crate writes: `abc****wxyz` (exactly three
/// and four characters kept around four stars) or `jo***@example.com`.
///
/// Built-in detectors never match inside a mask, but a custom pattern can (`[0-9]{4}` matches
/// the kept `0000` of `138****0000`), and masking the mask again on a second pass would break
/// idempotence.
pub(crate) fn overlaps_partial_mask(text: &str, start: usize, end: usize) -> bool {
    let lo = floor_boundary(text, start.saturating_sub(300));
    let hi = ceil_boundary(text, end.saturating_add(16));
    let Some(window) = text.get(lo..hi) else {
        return false;
    };
    let bytes = text.as_bytes();
    for (offset, _) in window.match_indices("***") {
        let run_start = lo + offset;
        if run_start > 0 && bytes.get(run_start - 1) == Some(&b'*') {
            continue;
        }
        let mut run_end = run_start;
        while bytes.get(run_end) == Some(&b'*') {
            run_end += 1;
        }
        let (region_start, region_end) = match run_end - run_start {
            4 => {
                let (head, head_len) = back_over(text, run_start, KEEP_HEAD, kept_char);
                let (tail, tail_len) = forward_over(text, run_end, KEEP_TAIL);
                if head_len != KEEP_HEAD || tail_len != KEEP_TAIL {
                    continue;
                }
                (head, tail)
            }
            3 if bytes.get(run_end) == Some(&b'@') => {
                let mut domain_end = run_end + 1;
                while bytes.get(domain_end).is_some_and(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-'))
                    && domain_end - run_end < 256
                {
                    domain_end += 1;
                }
                if domain_end == run_end + 1 {
                    continue;
                }
                (back_over(text, run_start, 2, mailbox_char).0, domain_end)
            }
            _ => continue,
        };
        if start < region_end && end > region_start {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partial_keeps_three_and_four() {
        assert_eq!(partial("13800000000").as_deref(), Some("138****0000"));
        assert_eq!(partial("4155550100"), None);
        assert_eq!(partial("ğğğğğğğğğğğ").as_deref(), Some("ğğğ****ğğğğ"));
    }

    #[test]
    fn partial_email_keeps_the_domain() {
        assert_eq!(partial_email("john@example.com").as_deref(), Some("jo***@example.com"));
        assert_eq!(partial_email("jo@example.com").as_deref(), Some("j***@example.com"));
        assert_eq!(partial_email("j@example.com").as_deref(), Some("***@example.com"));
        assert_eq!(partial_email("@example.com"), None);
    }

    #[test]
    fn redaction_is_recognised_in_a_value() {
        assert!(holds_redaction("[EMAIL]"));
        assert!(holds_redaction("by [EMAIL] at noon"));
        assert!(holds_redaction("[EMPLOYEE_ID]"));
        assert!(holds_redaction("138****0000"));
        assert!(holds_redaction("jo***@example.com"));
        assert!(!holds_redaction("[x]"), "a placeholder is upper case");
        assert!(!holds_redaction("see [1] and [Note]"));
        assert!(!holds_redaction("release-2025"));
        assert!(!holds_redaction("[unclosed EMAIL"));
    }

    #[test]
    fn placeholder_regions() {
        let known = |s: &str| s == "[EMAIL]";
        let text = "a [EMAIL] b";
        assert!(inside_placeholder(text, 2, 9, known));
        assert!(inside_placeholder(text, 3, 8, known));
        assert!(inside_placeholder(text, 8, 9, known));
        assert!(!inside_placeholder(text, 0, 9, known));
        assert!(!inside_placeholder(text, 2, 10, known));
        assert!(!inside_placeholder("[OTHER]", 1, 6, known));
    }

    #[test]
    fn partial_regions() {
        let text = "x 138****0000 y jo***@example.com";
        assert!(overlaps_partial_mask(text, 9, 13));
        assert!(overlaps_partial_mask(text, 9, 15));
        assert!(overlaps_partial_mask(text, 0, 5));
        assert!(overlaps_partial_mask(text, 2, 13));
        assert!(!overlaps_partial_mask(text, 0, 2));
        assert!(!overlaps_partial_mask(text, 13, 15));
        assert!(overlaps_partial_mask(text, 22, 33));
        assert!(!overlaps_partial_mask("no stars here", 0, 4));
        // Kept characters may be spaces (`+1 ****0100`, `DE8****0 00`).
        assert!(overlaps_partial_mask("+1 ****2000 0000", 7, 16));
        // Not the shape of a mask.
        assert!(!overlaps_partial_mask("****4111111111111111", 4, 20));
        assert!(!overlaps_partial_mask("ab****4111111111111111", 6, 22));
        assert!(!overlaps_partial_mask("a0@aa.com ***@", 1, 9));
    }
}
