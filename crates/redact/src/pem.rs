//! Private-key blocks: `-----BEGIN … PRIVATE KEY-----` through the matching END line.
//!
//! When the END line is missing (output cut short, a key pasted in part), the block runs to the
//! end of the base64 lines that follow the header: a partial key is still a leak.

use crate::chars::lazy_regex;
use crate::kinds::Kind;
use crate::text::{Finding, Rule};

lazy_regex!(BEGIN, r"-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY( BLOCK)?-----");

/// Finds every private-key block in `text`.
pub(crate) fn find(text: &str, out: &mut Vec<Finding>) {
    let Some(re) = BEGIN.as_ref() else {
        return;
    };
    // END markers already known to be absent after some point; remembering them keeps many
    // unterminated headers from costing a scan to the end of the text each.
    let mut missing: Vec<String> = Vec::new();
    let mut pos = 0;
    while let Some(caps) = re.captures_at(text, pos) {
        let Some(end) = block(text, &caps, &mut missing, out) else {
            break;
        };
        pos = end;
    }
}

/// What [`find`] finds, given where every `-----BEGIN ` of `text` starts (sorted): each
/// header is matched on its own line only, so the text is not searched again.
pub(crate) fn find_at(text: &str, headers: &[usize], out: &mut Vec<Finding>) {
    let Some(re) = BEGIN.as_ref() else {
        return;
    };
    let mut missing: Vec<String> = Vec::new();
    let mut pos = 0;
    for &at in headers {
        if at < pos {
            continue;
        }
        // A header has no line break in it: its line is all the regex needs to see.
        let line_end =
            memchr::memchr(b'\n', text.as_bytes().get(at..).unwrap_or_default()).map_or(text.len(), |i| at + i);
        let Some(caps) = text.get(..line_end).and_then(|line| re.captures_at(line, at)) else {
            continue;
        };
        if let Some(end) = block(text, &caps, &mut missing, out) {
            pos = end;
        }
    }
}

/// The block a header match starts: pushed to `out`; returns where searching goes on.
fn block(text: &str, caps: &regex::Captures<'_>, missing: &mut Vec<String>, out: &mut Vec<Finding>) -> Option<usize> {
    let header = caps.get(0)?;
    let label = caps.get(1).map_or("", |m| m.as_str());
    let block = if caps.get(2).is_some() { " BLOCK" } else { "" };
    let end_marker = format!("-----END {label}PRIVATE KEY{block}-----");
    let mut end = None;
    if !missing.contains(&end_marker) {
        match text.get(header.end()..).and_then(|rest| rest.find(&end_marker)) {
            Some(i) => end = Some(header.end() + i + end_marker.len()),
            None => missing.push(end_marker),
        }
    }
    let end = end.unwrap_or_else(|| body_end(text.as_bytes(), header.end()));
    out.push(Finding::whole(header.start(), end, Rule::Builtin(Kind::PrivateKey)));
    Some(end.max(header.end()))
}

/// The length of the line break at `i`: a real one, or `\n` / `\r\n` written as escapes (a key
/// inside a JSON string that is shown as text).
fn line_break(bytes: &[u8], i: usize) -> usize {
    let at = |k: usize| bytes.get(i + k).copied();
    match (at(0), at(1), at(2), at(3)) {
        (Some(b'\r'), Some(b'\n'), _, _) => 2,
        (Some(b'\n' | b'\r'), _, _, _) => 1,
        (Some(b'\\'), Some(b'r'), Some(b'\\'), Some(b'n')) => 4,
        (Some(b'\\'), Some(b'n' | b'r'), _, _) => 2,
        _ => 0,
    }
}

fn is_base64(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=')
}

/// The end of the key material after a header with no END line: the following lines that are
/// pure base64, plus `Proc-Type:`-style header lines and single blank lines among them.
fn body_end(bytes: &[u8], from: usize) -> usize {
    let mut end = from;
    let mut i = from;
    let mut blank_run = 0;
    loop {
        let brk = line_break(bytes, i);
        if brk == 0 {
            return end;
        }
        i += brk;
        let line_start = i;
        let mut name_end = i;
        while bytes.get(name_end).is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'-') {
            name_end += 1;
        }
        if name_end > line_start && bytes.get(name_end) == Some(&b':') {
            // A header line such as `DEK-Info: AES-128-CBC,…`: skip to its end.
            i = name_end;
            while i < bytes.len() && line_break(bytes, i) == 0 {
                i += 1;
            }
            end = i;
            blank_run = 0;
            continue;
        }
        while bytes.get(i).copied().is_some_and(is_base64) {
            i += 1;
        }
        if i == line_start {
            blank_run += 1;
            if blank_run > 1 {
                return end;
            }
            continue;
        }
        let terminated =
            i == bytes.len() || line_break(bytes, i) > 0 || matches!(bytes.get(i), Some(b'"' | b'\'' | b'`'));
        if !terminated {
            return end;
        }
        end = i;
        blank_run = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<&str> {
        let mut out = Vec::new();
        find(text, &mut out);
        out.iter().map(|f| &text[f.start..f.end]).collect()
    }

    #[test]
    fn whole_block_to_matching_end() {
        let text = "a\n-----BEGIN EC PRIVATE KEY-----\nMHcCAQEE\nq0Tr==\n-----END EC PRIVATE KEY-----\nb";
        assert_eq!(found(text), ["-----BEGIN EC PRIVATE KEY-----\nMHcCAQEE\nq0Tr==\n-----END EC PRIVATE KEY-----"]);
    }

    #[test]
    fn missing_end_takes_the_base64_lines() {
        let text = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADAN\nBgkqhkiG9w0B\nthis line is prose";
        assert_eq!(found(text), ["-----BEGIN PRIVATE KEY-----\nMIIEvQIBADAN\nBgkqhkiG9w0B"]);
        let escaped = r#"{"k":"-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n\nMIIE\nAAAA"}"#;
        assert_eq!(found(escaped), [r#"-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n\nMIIE\nAAAA"#]);
    }

    #[test]
    fn many_unterminated_headers_stay_linear() {
        let text = "-----BEGIN PRIVATE KEY----- ".repeat(20_000);
        assert_eq!(found(&text).len(), 20_000);
    }
}
