//! Errors are results too: what went wrong, as one actionable line for a model.
//!
//! A [`Failure`] names what happened (a time-out, a crashed upstream, a JSON-RPC error, an
//! upstream `isError` result, a stale cursor, ...); [`Failure::line`] writes it as one line of
//! at most [`LINE_MAX`] characters saying what happened and what to do next, and
//! [`Failure::kind`] gives a short machine-readable name for telemetry.
//!
//! Text that came from an upstream (details, messages, tool error text) is untrusted and
//! unbounded: it is put on one line (terminal escapes and control characters removed,
//! whitespace collapsed), cut to a bounded length with a marker saying how much was left out,
//! and stack traces in it are shrunk first by [`shrink_traces`] to the exception type, its
//! message and the three innermost frames, which is what a model can act on.

mod tally;
mod trace;

pub(crate) use tally::exceptions_phrase;
pub use trace::{shrink_trace, shrink_traces};

use crate::numfmt::{bytes, thousands};

/// Longest line [`Failure::line`] writes, in characters.
pub const LINE_MAX: usize = 300;

/// The longest line for an upstream's own error text ([`Failure::ToolError`]): room for the
/// exception, its message and the last three frames of a shrunk trace.
pub const TOOL_ERROR_MAX: usize = 1200;
/// Frames kept per shrunk stack trace.
pub const FRAMES_KEPT: usize = 3;
/// Longest name (upstream, tool) quoted in a line, in characters.
const NAME_MAX: usize = 64;
/// Longest detail quoted in a line, in characters.
const DETAIL_MAX: usize = 160;
/// How much of a tool's error text is read at most; the rest only counts as left out, so a
/// 100 MB error costs no more than a short one.
const TOOL_TEXT_SCAN: usize = 64 * 1024;
/// Suggestions shown for an unknown tool.
const SUGGESTIONS_MAX: usize = 3;

/// What went wrong with a call.
#[derive(Debug, Clone, PartialEq)]
pub enum Failure {
    /// The upstream did not answer in time.
    Timeout {
        /// The upstream's configured name.
        upstream: String,
        /// How long toolshape waited.
        after_ms: u64,
    },
    /// The upstream went away during the call: its process exited or the connection dropped.
    Crashed {
        /// The upstream's configured name.
        upstream: String,
        /// What was observed, e.g. "exit status 1".
        detail: String,
    },
    /// The upstream could not be started or connected to.
    Unavailable {
        /// The upstream's configured name.
        upstream: String,
        /// Why, e.g. "connection refused".
        detail: String,
    },
    /// The model called a tool that does not exist (or is outside its profile).
    UnknownTool {
        /// The name the model used.
        name: String,
        /// Close names that do exist, best first; at most three are shown.
        suggestions: Vec<String>,
    },
    /// The arguments were refused before any upstream saw them.
    InvalidArguments {
        /// What is wrong, written for the model.
        detail: String,
    },
    /// The upstream answered with a JSON-RPC error.
    Protocol {
        /// The upstream's configured name.
        upstream: String,
        /// The JSON-RPC error code.
        code: i64,
        /// The JSON-RPC error message.
        message: String,
    },
    /// The upstream answered with something that is not a valid MCP response (garbage, a
    /// wrong id, a wrong shape).
    InvalidResponse {
        /// The upstream's configured name.
        upstream: String,
        /// What was wrong with it.
        detail: String,
    },
    /// The upstream's response exceeded the size limit and was abandoned.
    ResponseTooLarge {
        /// The upstream's configured name.
        upstream: String,
        /// The limit that was exceeded.
        limit_bytes: u64,
    },
    /// The tool ran and reported an error itself (`isError: true`); this is its text.
    ToolError {
        /// The text of the error result.
        text: String,
    },
    /// A cursor or handle could not be used: tampered, malformed, or for someone else.
    CursorInvalid {
        /// Why it was refused.
        detail: String,
    },
    /// A cursor or handle outlived its snapshot.
    CursorExpired,
}

impl Failure {
    /// A short machine-readable kind: `timeout`, `crashed`, `unavailable`, `unknown_tool`,
    /// `invalid_arguments`, `protocol`, `invalid_response`, `response_too_large`,
    /// `tool_error`, `cursor_invalid` or `cursor_expired`.
    pub fn kind(&self) -> &'static str {
        match self {
            Failure::Timeout { .. } => "timeout",
            Failure::Crashed { .. } => "crashed",
            Failure::Unavailable { .. } => "unavailable",
            Failure::UnknownTool { .. } => "unknown_tool",
            Failure::InvalidArguments { .. } => "invalid_arguments",
            Failure::Protocol { .. } => "protocol",
            Failure::InvalidResponse { .. } => "invalid_response",
            Failure::ResponseTooLarge { .. } => "response_too_large",
            Failure::ToolError { .. } => "tool_error",
            Failure::CursorInvalid { .. } => "cursor_invalid",
            Failure::CursorExpired => "cursor_expired",
        }
    }

    /// One line, at most [`LINE_MAX`] characters, saying what happened and what to do next,
    /// e.g. "upstream `github` timed out after 30 s on `list_issues`; retry, or narrow the
    /// request". `tool` is the tool the model called.
    pub fn line(&self, tool: &str) -> String {
        let t = quoted(tool);
        let line = match self {
            Failure::Timeout { upstream, after_ms } => format!(
                "upstream {} timed out after {} on {t}; retry, or narrow the request",
                quoted(upstream),
                duration(*after_ms)
            ),
            Failure::Crashed { upstream, detail } => fit(
                &format!("upstream {} stopped while running {t}", quoted(upstream)),
                (" (", detail, ")"),
                "; retry once, and use another tool if it fails again",
            ),
            Failure::Unavailable { upstream, detail } => fit(
                &format!("upstream {} is unavailable", quoted(upstream)),
                (" (", detail, ")"),
                &format!(", so {t} cannot run now; try again later or use another tool"),
            ),
            Failure::UnknownTool { name, suggestions } => unknown_tool(name, suggestions),
            Failure::InvalidArguments { detail } if one_line(detail, " ").is_empty() => {
                format!("invalid arguments for {t}; check them against its input schema and call again")
            }
            Failure::InvalidArguments { detail } => {
                fit(&format!("invalid arguments for {t}"), (": ", detail, ""), "; fix them and call again")
            }
            Failure::Protocol { upstream, code, message } => {
                let (meaning, advice) = rpc_code(*code);
                fit(
                    &format!("upstream {} returned error {code} ({meaning}) for {t}", quoted(upstream)),
                    (": ", message, ""),
                    &format!("; {advice}"),
                )
            }
            Failure::InvalidResponse { upstream, detail } => fit(
                &format!("upstream {} sent an invalid response for {t}", quoted(upstream)),
                (" (", detail, ")"),
                "; retry once, and use another tool if it happens again",
            ),
            Failure::ResponseTooLarge { upstream, limit_bytes } => format!(
                "upstream {} sent more than {} for {t}; ask for less: filter, page or narrow the request",
                quoted(upstream),
                bytes(*limit_bytes)
            ),
            // Bounded by TOOL_ERROR_MAX inside, so the kept frames survive the line cap.
            Failure::ToolError { text } => return tool_error(&t, text),
            Failure::CursorInvalid { detail } => {
                fit("that cursor is not valid", (" (", detail, ")"), "; repeat the original call to get a fresh one")
            }
            Failure::CursorExpired => {
                "that cursor has expired; repeat the original call to get fresh results".to_owned()
            }
        };
        // Every part above is bounded, so this only guards against the sum of them.
        clip_plain(&line, LINE_MAX)
    }
}

fn unknown_tool(name: &str, suggestions: &[String]) -> String {
    let mut seen: Vec<String> = Vec::new();
    for s in suggestions {
        let q = quoted(s);
        if !s.trim().is_empty() && !seen.contains(&q) {
            seen.push(q);
        }
        if seen.len() == SUGGESTIONS_MAX {
            break;
        }
    }
    let name = quoted(name);
    match seen.as_slice() {
        [] => format!("no tool named {name}; search or list the tools to find the right name"),
        [one] => format!("no tool named {name}; did you mean {one}?"),
        [init @ .., last] => format!("no tool named {name}; did you mean {} or {last}?", init.join(", ")),
    }
}

fn tool_error(tool: &str, text: &str) -> String {
    // The upstream's own message is the actionable part: toolshape does not guess advice.
    let prefix = format!("{tool} reported an error: ");
    let mut end = TOOL_TEXT_SCAN.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let (head, unread) = (&text[..end], text[end..].chars().count());
    let body = one_line(&shrink_traces(head), " | ");
    if body.is_empty() {
        return format!("{tool} reported an error without a message; check the arguments or try another tool");
    }
    let room = TOOL_ERROR_MAX.saturating_sub(prefix.chars().count()).max(60);
    format!("{prefix}{}", clip_counting(&body, room, unread))
}

/// `name` in backticks, on one line, without backticks of its own, at most 64 characters.
fn quoted(name: &str) -> String {
    let n: String = one_line(name, " ").chars().filter(|&c| c != '`').collect();
    if n.is_empty() { "`?`".to_owned() } else { format!("`{}`", clip_plain(&n, NAME_MAX)) }
}

/// `before`, the untrusted detail between its `open` and `close` marks, then `after`: the
/// detail is cut to the room the rest of the line leaves, so the advice at the end survives.
/// An empty detail leaves no empty marks behind.
fn fit(before: &str, (open, detail, close): (&str, &str, &str), after: &str) -> String {
    let d = one_line(detail, " ");
    if d.is_empty() {
        return format!("{before}{after}");
    }
    let fixed = [before, open, close, after].iter().map(|s| s.chars().count()).sum::<usize>();
    let room = LINE_MAX.saturating_sub(fixed).clamp(20, DETAIL_MAX);
    format!("{before}{open}{}{close}{after}", clip(&d, room))
}

/// `800 ms`, `30 s`, `1.5 s`, `2 min`, `2 min 30 s`.
fn duration(ms: u64) -> String {
    if ms < 1_000 {
        format!("{ms} ms")
    } else if ms < 60_000 {
        if ms.is_multiple_of(1_000) { format!("{} s", ms / 1_000) } else { format!("{:.1} s", ms as f64 / 1_000.0) }
    } else {
        let (min, s) = (ms / 60_000, (ms % 60_000) / 1_000);
        if s == 0 { format!("{} min", thousands(min)) } else { format!("{} min {s} s", thousands(min)) }
    }
}

/// What a JSON-RPC error code means, and what to do about it.
fn rpc_code(code: i64) -> (&'static str, &'static str) {
    const RETRY: &str = "retry once; if it fails again, try different arguments or another tool";
    match code {
        -32700 => ("parse error", "the upstream could not read the request; retry once, then use another tool"),
        -32600 => ("invalid request", "the upstream refused the request; retry once, then use another tool"),
        -32601 => ("method not found", "the upstream does not offer this; use another tool"),
        -32602 => ("invalid params", "check the arguments against the tool's input schema and call again"),
        -32603 => ("internal error", RETRY),
        -32002 => ("resource not found", "check the name or URI, or list what exists first"),
        -32800 => ("request cancelled", RETRY),
        -32099..=-32000 => ("server error", RETRY),
        _ => ("upstream error", RETRY),
    }
}

/// Text on one line: terminal escape sequences and bidirectional or other control characters
/// removed, runs of whitespace collapsed to one space, or to `newline_sep` when the run holds
/// a line break; trimmed.
fn one_line(text: &str, newline_sep: &str) -> String {
    let mut out = String::with_capacity(text.len().min(4096));
    let mut pending: Option<bool> = None; // Some(saw_newline) while inside a whitespace run
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            skip_escape(&mut chars);
            continue;
        }
        let is_bidi = matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}');
        if is_bidi {
            continue;
        }
        if c.is_whitespace() || c.is_control() {
            let nl = matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}');
            pending = Some(pending.unwrap_or(false) || nl);
            continue;
        }
        if let Some(nl) = pending.take()
            && !out.is_empty()
        {
            out.push_str(if nl { newline_sep } else { " " });
        }
        out.push(c);
    }
    out
}

/// Skip the rest of an ANSI escape sequence whose ESC was just read.
fn skip_escape(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    match chars.peek() {
        Some('[') => {
            chars.next();
            // CSI: parameters and intermediates, then one final byte in @..~.
            for c in chars.by_ref() {
                if ('@'..='~').contains(&c) {
                    break;
                }
            }
        }
        Some(']') => {
            chars.next();
            // OSC: ends at BEL or ESC \.
            while let Some(c) = chars.next() {
                if c == '\u{7}' {
                    break;
                }
                if c == '\u{1b}' {
                    if chars.peek() == Some(&'\\') {
                        chars.next();
                    }
                    break;
                }
            }
        }
        Some(_) => {
            chars.next();
        }
        None => {}
    }
}

/// Cut `s` to at most `max` characters, ending with `…` when cut.
fn clip_plain(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        None => s.to_owned(),
        Some(_) => {
            let keep = max.saturating_sub(1);
            let end = s.char_indices().nth(keep).map_or(s.len(), |(i, _)| i);
            format!("{}…", s[..end].trim_end())
        }
    }
}

/// Cut `s` to at most `max` characters, ending with a marker that says how many characters
/// were left out.
fn clip(s: &str, max: usize) -> String {
    clip_counting(s, max, 0)
}

/// As [`clip`], with `extra` more characters known to be left out beyond `s`. The cut
/// prefers a word boundary close before the limit; the count is exact either way.
fn clip_counting(s: &str, max: usize, extra: usize) -> String {
    let total = s.chars().count();
    if total <= max && extra == 0 {
        return s.to_owned();
    }
    let byte_at = |k: usize| s.char_indices().nth(k).map_or(s.len(), |(i, _)| i);
    // The marker's width depends on the count it reports: shrink until the whole fits.
    let mut keep = total.min(max);
    loop {
        let mut end = byte_at(keep);
        if keep < total && !s[end..].starts_with(char::is_whitespace) {
            let window = byte_at(keep.saturating_sub(20));
            if let Some(ws) = s[window..end].rfind(char::is_whitespace) {
                end = window + ws;
            }
        }
        let head = s[..end].trim_end();
        let kept = head.chars().count();
        let marker = format!("… [{} more characters]", thousands((total - kept + extra) as u64));
        let len = kept + usize::from(kept > 0) + marker.chars().count();
        if len <= max || keep == 0 {
            return if head.is_empty() { marker } else { format!("{head} {marker}") };
        }
        keep = keep.saturating_sub(len - max);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_strips_escapes_and_collapses() {
        assert_eq!(one_line("\u{1b}[31mError\u{1b}[0m:\n\n  bad   thing\t", " | "), "Error: | bad thing");
        assert_eq!(one_line("a\u{202e}b\u{7}c", " "), "ab c");
        assert_eq!(one_line("   ", " "), "");
    }

    #[test]
    fn clip_counts_what_it_leaves_out() {
        let s = "x".repeat(500);
        let c = clip(&s, 100);
        assert!(c.chars().count() <= 100, "{c}");
        let kept = c.chars().take_while(|&ch| ch == 'x').count();
        assert!(c.ends_with(&format!("… [{} more characters]", 500 - kept)), "{c}");
        assert_eq!(clip("short", 100), "short");
        let multi = "é".repeat(400);
        assert!(clip(&multi, 50).chars().count() <= 50);
    }

    #[test]
    fn durations_read_naturally() {
        assert_eq!(duration(800), "800 ms");
        assert_eq!(duration(30_000), "30 s");
        assert_eq!(duration(1_500), "1.5 s");
        assert_eq!(duration(120_000), "2 min");
        assert_eq!(duration(150_000), "2 min 30 s");
    }
}
