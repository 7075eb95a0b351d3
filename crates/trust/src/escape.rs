//! Text lines of the lock file that a reviewer can trust to show everything.
//!
//! A rug pull can hide instructions in characters a screen does not show: control
//! characters, zero-width spaces, bidirectional overrides, Unicode tag characters, variation
//! selectors. In the lock file and in `pin --diff` every such character is written as
//! `\u{HEX}`, and so is a space or tab that ends a line (editors strip those silently).
//! Everything else stands as it is, backslashes and JSON escapes included; only a literal
//! `\u{` is itself escaped (its backslash becomes `\u{5c}`), so decoding is exact.

/// Whether `c` is invisible or changes how the text around it is shown.
pub(crate) fn is_hidden(c: char) -> bool {
    matches!(
        u32::from(c),
        0x00..=0x1f
            | 0x7f..=0x9f
            | 0xad
            | 0x034f
            | 0x061c
            | 0x115f..=0x1160
            | 0x17b4..=0x17b5
            | 0x180b..=0x180f
            | 0x200b..=0x200f
            | 0x2028..=0x202e
            | 0x2060..=0x206f
            | 0x3164
            | 0xfe00..=0xfe0f
            | 0xfeff
            | 0xffa0
            | 0xfff0..=0xfffb
            | 0x1bca0..=0x1bca3
            | 0x1d173..=0x1d17a
            | 0xe0000..=0xe0fff
    )
}

/// One line of text (no `\n` inside; a `\n` would be escaped too) in its lock-file form.
pub(crate) fn escape_line(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let trailing_blank = line.len() - line.trim_end_matches([' ', '\t']).len();
    let visible_end = line.len() - trailing_blank;
    for (i, c) in line.char_indices() {
        let escape = is_hidden(c) || i >= visible_end || (c == '\\' && line[i + 1..].starts_with("u{"));
        if escape {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    out
}

/// Why an escaped line does not decode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BadEscape {
    /// Byte offset of the `\u{` that does not decode.
    pub(crate) at: usize,
}

/// Decodes [`escape_line`]'s output. Every `\u{HEX}` is one character; `\u{` without a valid
/// code point and closing brace is an error.
pub(crate) fn unescape_line(line: &str) -> Result<String, BadEscape> {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    let mut offset = 0;
    while let Some(pos) = rest.find("\\u{") {
        out.push_str(&rest[..pos]);
        let after = &rest[pos + 3..];
        let Some(close) = after.find('}') else {
            return Err(BadEscape { at: offset + pos });
        };
        let digits = &after[..close];
        let c = (!digits.is_empty() && digits.len() <= 6)
            .then(|| u32::from_str_radix(digits, 16).ok())
            .flatten()
            .and_then(char::from_u32)
            .ok_or(BadEscape { at: offset + pos })?;
        out.push(c);
        let consumed = pos + 3 + close + 1;
        rest = &rest[consumed..];
        offset += consumed;
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_characters_are_shown() {
        assert_eq!(escape_line("a\u{200b}b\u{202e}c\u{e0041}"), "a\\u{200b}b\\u{202e}c\\u{e0041}");
        assert_eq!(escape_line("tab\there\r"), "tab\\u{9}here\\u{d}");
    }

    #[test]
    fn trailing_blanks_are_shown() {
        assert_eq!(escape_line("end  "), "end\\u{20}\\u{20}");
        assert_eq!(escape_line("end \t"), "end\\u{20}\\u{9}");
        assert_eq!(escape_line(" lead"), " lead");
    }

    #[test]
    fn json_escapes_stay_readable() {
        let line = r#"  "description": "say \"hi\"\n\u0041","#;
        assert_eq!(escape_line(line), line);
    }

    #[test]
    fn a_literal_escape_sequence_round_trips() {
        for s in ["\\u{41}", "\\u{", "\\\\u{zz}", "x\\", "", "ü\u{0}"] {
            let e = escape_line(s);
            assert_eq!(unescape_line(&e).unwrap(), s, "{e}");
        }
        assert_eq!(escape_line("\\u{41}"), "\\u{5c}u{41}");
    }

    #[test]
    fn bad_escapes_are_errors() {
        assert_eq!(unescape_line("ab\\u{zz}"), Err(BadEscape { at: 2 }));
        assert_eq!(unescape_line("\\u{41"), Err(BadEscape { at: 0 }));
        assert_eq!(unescape_line("\\u{d800}"), Err(BadEscape { at: 0 }));
        assert_eq!(unescape_line("\\u{1234567}"), Err(BadEscape { at: 0 }));
    }
}
