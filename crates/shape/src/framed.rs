//! Text whose Markdown headings only frame one body: a tool that prints a title, a
//! sub-title and then four hundred request lines, or a table under `## Results`. The
//! headings say little (two of them); the body under the largest says what the result
//! holds. So the body is read as if the headings were not there, by the readers of tables,
//! log fields and sections, and its map follows the list of headings.
//!
//! The heading lines are blanked, not removed, so every line number a map gives is still
//! the line's number in the text.

use crate::outline::heading_lines;

/// Lines the framed body needs, at least: fewer are read whole in the first page anyway.
const MIN_BODY_LINES: usize = 10;
/// The share of the text's lines (blank and heading lines aside) the largest section must
/// hold, in percent: a document whose sections share its lines is read by its headings.
const BODY_SHARE_PERCENT: usize = 75;

/// `text` with its heading lines blanked, when it has two headings or more and the lines
/// under one of them (or before the first) are most of its lines; otherwise `None`.
pub(crate) fn framed_body(text: &str) -> Option<String> {
    let headings = heading_lines(text);
    if headings.len() < 2 {
        return None;
    }
    // Non-blank lines in each section: before the first heading, then under each heading.
    let mut sections = vec![0usize; headings.len() + 1];
    let mut next_heading = 0;
    for (i, line) in text.lines().enumerate() {
        if next_heading < headings.len() && headings[next_heading].0 == i + 1 {
            next_heading += 1;
            continue;
        }
        if !line.trim().is_empty() {
            sections[next_heading] += 1;
        }
    }
    let lines: usize = sections.iter().sum();
    let largest = sections.iter().copied().max().unwrap_or(0);
    if largest < MIN_BODY_LINES || largest * 100 < lines * BODY_SHARE_PERCENT {
        return None;
    }
    let mut heading = headings.iter().map(|h| h.0).peekable();
    let blanked: Vec<&str> = text
        .lines()
        .enumerate()
        .map(|(i, line)| {
            if heading.peek() == Some(&(i + 1)) {
                heading.next();
                ""
            } else {
                line
            }
        })
        .collect();
    Some(blanked.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn requests(n: usize) -> String {
        let mut t = String::from("# list_network_requests response\n## Network requests\nShowing 1-9 of 9.\n");
        for i in 1..=n {
            t.push_str(&format!("reqid={i} GET https://cdn.example.com/a{i}.js [success - 200]\n"));
        }
        t
    }

    #[test]
    fn headings_over_one_body_are_blanked_and_lines_keep_their_numbers() {
        let text = requests(12);
        let body = framed_body(&text).expect("two headings over twelve lines frame a body");
        assert_eq!(body.lines().count(), text.lines().count(), "no line is removed");
        assert_eq!(body.lines().next(), Some(""));
        assert_eq!(body.lines().nth(3), text.lines().nth(3), "the body's lines stay where they were");
        assert!(!body.contains("## Network"));
    }

    #[test]
    fn a_document_whose_sections_share_its_lines_is_not_framed() {
        let mut doc = String::new();
        for s in 0..4 {
            doc.push_str(&format!("## Part {s}\n"));
            for l in 0..8 {
                doc.push_str(&format!("Sentence {l} of part {s}.\n"));
            }
        }
        assert_eq!(framed_body(&doc), None);
    }

    #[test]
    fn one_heading_or_a_short_body_is_not_framed() {
        assert_eq!(framed_body("# Title\nline\nline\n"), None);
        assert_eq!(framed_body(&requests(5)), None, "five lines are read whole anyway");
        let single = format!("# One\n{}", "row 1 2 3\n".repeat(20));
        assert_eq!(framed_body(&single), None, "a single heading leaves the text to the other readers");
    }

    #[test]
    fn headings_inside_fenced_code_are_not_headings() {
        let text = format!("# Log\n```\n# not a heading\n```\n## Lines\n{}", "a b c\n".repeat(12));
        let body = framed_body(&text).expect("framed");
        assert!(body.contains("# not a heading"), "{body}");
    }
}
