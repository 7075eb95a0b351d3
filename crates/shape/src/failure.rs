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

use std::borrow::Cow;
use std::fmt::Write as _;

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

/// Shrink the first stack trace found in `text` to its exception type and message plus the
/// three innermost frames (where it failed), and say how many frames were left out. Only the
/// trace is returned, not the text around it; `None` when there is no trace.
///
/// Recognised: Python tracebacks, JVM traces (`at pkg.Class.method(File.java:12)`, with
/// `Caused by:` chains, reported by their outermost and root exception and the root's
/// frames), JavaScript (`    at fn (file.js:1:2)`), Rust panics with or without a backtrace
/// (runtime frames of `std`/`core` are skipped), and Go panics (`goroutine 1 [running]:`;
/// runtime frames are skipped and other goroutines dropped). Frames are listed innermost
/// first whatever the language's own order.
pub fn shrink_trace(text: &str) -> Option<String> {
    let lines = Lines::new(text);
    (0..lines.len()).find_map(|i| detect(&lines, i)).map(|t| t.render())
}

/// `text` with every stack trace in it shrunk as by [`shrink_trace`], the text around them
/// kept byte for byte. Text without a trace comes back unchanged (borrowed).
pub fn shrink_traces(text: &str) -> Cow<'_, str> {
    let lines = Lines::new(text);
    let mut out: Option<String> = None;
    let mut copied_to = 0; // byte offset in `text` up to which `out` is complete
    let mut i = 0;
    while i < lines.len() {
        let Some(trace) = detect(&lines, i) else {
            i += 1;
            continue;
        };
        let o = out.get_or_insert_with(|| String::with_capacity(text.len()));
        let (start, _, _) = lines.spans[trace.start];
        let (_, last_end, last_next) = lines.spans[trace.end - 1];
        o.push_str(&text[copied_to..start]);
        o.push_str(&trace.render());
        // Keep the line break that ended the trace's last line, whichever it was.
        o.push_str(&text[last_end..last_next]);
        copied_to = last_next;
        i = trace.end;
    }
    match out {
        None => Cow::Borrowed(text),
        Some(mut o) => {
            o.push_str(&text[copied_to..]);
            Cow::Owned(o)
        }
    }
}

/// The lines of a text with their byte spans: (start, end without the line break, start of
/// the next line).
struct Lines<'a> {
    text: &'a str,
    spans: Vec<(usize, usize, usize)>,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Self {
        let mut spans = Vec::new();
        let mut start = 0;
        for nl in memchr::memchr_iter(b'\n', text.as_bytes()) {
            let end = if nl > start && text.as_bytes()[nl - 1] == b'\r' { nl - 1 } else { nl };
            spans.push((start, end, nl + 1));
            start = nl + 1;
        }
        if start < text.len() {
            spans.push((start, text.len(), text.len()));
        }
        Lines { text, spans }
    }

    fn len(&self) -> usize {
        self.spans.len()
    }

    fn get(&self, i: usize) -> Option<&'a str> {
        self.spans.get(i).map(|&(s, e, _)| &self.text[s..e])
    }
}

/// A stack trace found at lines `start..end`.
struct Trace {
    start: usize,
    end: usize,
    /// Exception type and message (and, for chains, the root cause's).
    header: Vec<String>,
    /// Useful frames, innermost first.
    frames: Vec<String>,
    /// All frames the trace listed, kept or not.
    total_frames: usize,
    /// Other threads or goroutines dropped whole.
    other_threads: usize,
}

impl Trace {
    fn render(&self) -> String {
        let mut out = self.header.join("\n");
        for f in self.frames.iter().take(FRAMES_KEPT) {
            out.push_str("\n  ");
            out.push_str(f);
        }
        let omitted = self.total_frames.saturating_sub(self.frames.len().min(FRAMES_KEPT));
        if omitted > 0 {
            let s = if omitted == 1 { "" } else { "s" };
            let _ = write!(out, "\n  … {} more frame{s} omitted", thousands(omitted as u64));
        }
        if self.other_threads > 0 {
            let s = if self.other_threads == 1 { "" } else { "s" };
            let _ = write!(out, "\n  … {} other goroutine{s} omitted", thousands(self.other_threads as u64));
        }
        out
    }
}

fn detect(lines: &Lines<'_>, i: usize) -> Option<Trace> {
    let line = lines.get(i)?;
    if line.trim_end().ends_with("Traceback (most recent call last):") {
        return python(lines, i);
    }
    if line.contains("panicked at") && line.contains("thread '") {
        return rust(lines, i);
    }
    let t = line.trim_start();
    if (t.starts_with("panic: ") || t.starts_with("fatal error: ") || is_goroutine_header(line))
        && let Some(trace) = go(lines, i)
    {
        return Some(trace);
    }
    if !line.trim().is_empty() && !is_at_frame(line) && lines.get(i + 1).is_some_and(is_at_frame) {
        return at_style(lines, i);
    }
    None
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// Python: frames outermost first, then the exception line at the left margin.
fn python(lines: &Lines<'_>, i: usize) -> Option<Trace> {
    let mut frames = Vec::new();
    let mut j = i + 1;
    while let Some(l) = lines.get(j) {
        let t = l.trim();
        if indent(l) == 0 || t.is_empty() {
            break;
        }
        if t.starts_with("File \"") {
            frames.push(t.to_owned());
        }
        // Source lines, caret lines and "[Previous line repeated N more times]" are dropped.
        j += 1;
    }
    if frames.is_empty() {
        return None;
    }
    let mut header = Vec::new();
    if let Some(l) = lines.get(j).filter(|l| !l.trim().is_empty() && looks_like_exception(l)) {
        header.push(l.trim().to_owned());
        j += 1;
    } else {
        header.push("Python traceback (no exception line)".to_owned());
    }
    let total = frames.len();
    frames.reverse();
    Some(Trace { start: i, end: j, header, frames, total_frames: total, other_threads: 0 })
}

/// `ValueError: bad`, `KeyboardInterrupt`, `requests.exceptions.HTTPError: 404`.
fn looks_like_exception(line: &str) -> bool {
    let name = line.split(':').next().unwrap_or("").trim();
    !name.is_empty()
        && name.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '.')
}

/// A JVM or JavaScript frame line: indented `at name(location)`, `at name (location)` or
/// `at location`, where a location has a `file:line` or is a known stand-in
/// (`Native Method`, `Unknown Source`, `native`, `<anonymous>`, `index N`).
fn is_at_frame(line: &str) -> bool {
    if indent(line) == 0 {
        return false;
    }
    let Some(mut rest) = line.trim().strip_prefix("at ") else {
        return false;
    };
    // Logback appends the jar: `at x.Y.m(Y.java:1) ~[app.jar:1.0]`.
    if rest.ends_with(']')
        && let Some(p) = rest.rfind(" [").or_else(|| rest.rfind(" ~["))
    {
        rest = rest[..p].trim_end();
    }
    rest = rest.strip_prefix("async ").unwrap_or(rest);
    if let Some(body) = rest.strip_suffix(')') {
        let Some(open) = body.rfind('(') else {
            return false;
        };
        let (name, loc) = (body[..open].trim(), &body[open + 1..]);
        let known =
            matches!(loc, "Native Method" | "Unknown Source" | "native" | "<anonymous>") || loc.starts_with("index ");
        !name.is_empty() && (loc.contains(':') || known)
    } else {
        // `at /app/x.js:1:2`: a bare location ending in line and column numbers.
        !rest.contains(' ') && {
            let mut parts = rest.rsplitn(3, ':');
            let col = parts.next().unwrap_or("");
            let line_no = parts.next().unwrap_or("");
            parts.next().is_some() && is_digits(col) && is_digits(line_no)
        }
    }
}

fn is_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// JVM and JavaScript: the exception line, then frames innermost first; JVM chains add
/// `Caused by:` sections whose last is the root cause.
fn at_style(lines: &Lines<'_>, i: usize) -> Option<Trace> {
    let top = lines.get(i)?.trim().to_owned();
    let base = lines.get(i + 1).map_or(1, indent);
    let mut root: Option<String> = None;
    let mut root_frames: Vec<String> = Vec::new();
    let mut total = 0;
    let mut in_suppressed = false;
    let mut j = i + 1;
    while let Some(l) = lines.get(j) {
        let t = l.trim();
        if is_at_frame(l) {
            total += 1;
            if !(in_suppressed && indent(l) > base) {
                root_frames.push(t.to_owned());
            }
        } else if let Some(cause) = t.strip_prefix("Caused by:") {
            if in_suppressed && indent(l) > 0 {
                // A cause of a suppressed exception: not the chain we report.
            } else {
                in_suppressed = false;
                root = Some(format!("Caused by: {}", cause.trim()));
                root_frames.clear();
            }
        } else if t.starts_with("Suppressed:") {
            in_suppressed = true;
        } else if !(t.starts_with("...") && (t.ends_with("more") || t.ends_with("omitted"))) {
            break;
        }
        j += 1;
    }
    let mut header = vec![top];
    header.extend(root);
    Some(Trace { start: i, end: j, header, frames: root_frames, total_frames: total, other_threads: 0 })
}

/// Rust: `thread 'main' panicked at src/main.rs:10:5:` and the message on the next lines
/// (older toolchains: `panicked at 'message', src/main.rs:10:5`), then an optional
/// `stack backtrace:` of numbered frames, innermost first.
fn rust(lines: &Lines<'_>, i: usize) -> Option<Trace> {
    let first = lines.get(i)?.trim();
    let mut header = first.to_owned();
    let mut j = i + 1;
    if first.ends_with(':') {
        // Newer format: the message follows, up to a note, the backtrace or a blank line.
        let mut taken = 0;
        while let Some(l) = lines.get(j) {
            let t = l.trim();
            if t.is_empty() || t.starts_with("note:") || t.starts_with("stack backtrace:") || taken == 5 {
                break;
            }
            header.push(' ');
            header.push_str(t);
            taken += 1;
            j += 1;
        }
    }
    let mut frames = Vec::new();
    let mut total = 0;
    while let Some(l) = lines.get(j) {
        let t = l.trim();
        if t.starts_with("note:") || t == "stack backtrace:" {
            j += 1;
            continue;
        }
        let Some((num, sym)) = t.split_once(": ") else { break };
        if !is_digits(num) {
            break;
        }
        total += 1;
        j += 1;
        let mut frame = strip_rust_hash(sym.trim()).to_owned();
        if let Some(loc) = lines.get(j).and_then(|l| l.trim().strip_prefix("at ")) {
            frame.push_str(" at ");
            frame.push_str(loc);
            j += 1;
        }
        if !is_rust_runtime(sym.trim()) {
            frames.push(frame);
        }
    }
    // A trailing "note: Some details are omitted ..." belongs to the trace too.
    while lines.get(j).is_some_and(|l| l.trim().starts_with("note:")) {
        j += 1;
    }
    Some(Trace { start: i, end: j, header: vec![header], frames, total_frames: total, other_threads: 0 })
}

/// `myapp::parse::h0123456789abcdef` → `myapp::parse`.
fn strip_rust_hash(sym: &str) -> &str {
    match sym.rsplit_once("::h") {
        Some((head, hash)) if hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()) => head,
        _ => sym,
    }
}

/// Frames of the panic machinery and the process start-up, which say nothing about the bug.
fn is_rust_runtime(sym: &str) -> bool {
    const PREFIXES: [&str; 15] = [
        "std::",
        "core::",
        "alloc::",
        "<std::",
        "<core::",
        "<alloc::",
        "rust_begin_unwind",
        "__rustc::",
        "rust_panic",
        "__rust",
        "_start",
        "__libc_start",
        "start_thread",
        "clone",
        "test::",
    ];
    sym == "main" || PREFIXES.iter().any(|p| sym.starts_with(p))
}

fn is_goroutine_header(line: &str) -> bool {
    line.strip_prefix("goroutine ")
        .and_then(|r| r.split_once(' '))
        .is_some_and(|(n, rest)| is_digits(n) && rest.starts_with('[') && rest.trim_end().ends_with("]:"))
}

/// Go: `panic: ...` (or `fatal error: ...`), then `goroutine N [state]:` blocks of a function
/// line and a tab-indented `file:line +0x..` line per frame, innermost first. The first
/// goroutine is the one that failed; the others are dropped and counted.
fn go(lines: &Lines<'_>, i: usize) -> Option<Trace> {
    let first = lines.get(i)?;
    let (header, mut j) = if is_goroutine_header(first) {
        (first.trim().to_owned(), i)
    } else {
        // Between the panic line and the first goroutine: "[recovered]" panics, a signal line,
        // blank lines. Not found within a few lines: just a line that starts with "panic:".
        let g = (i + 1..(i + 10).min(lines.len())).find(|&k| lines.get(k).is_some_and(is_goroutine_header))?;
        (first.trim().to_owned(), g)
    };
    let mut frames = Vec::new();
    let mut total = 0;
    let mut goroutines = 0;
    while lines.get(j).is_some_and(is_goroutine_header) {
        goroutines += 1;
        j += 1;
        while let Some(func) = lines.get(j) {
            let t = func.trim();
            if t.is_empty() || is_goroutine_header(func) {
                break;
            }
            if t.starts_with("...") {
                // "...additional frames elided..."
                j += 1;
                continue;
            }
            let Some(loc) = lines.get(j + 1).filter(|l| l.starts_with('\t')) else {
                break;
            };
            j += 2;
            if goroutines > 1 {
                continue;
            }
            total += 1;
            let loc = loc.trim();
            let loc = loc.rsplit_once(" +0x").map_or(loc, |(l, _)| l);
            let runtime = t.starts_with("runtime.") || t.starts_with("panic(") || t.starts_with("runtime/debug.");
            if !runtime {
                frames.push(format!("{t} at {loc}"));
            }
        }
        // Goroutine blocks are separated by one blank line.
        if lines.get(j).is_some_and(|l| l.trim().is_empty()) && lines.get(j + 1).is_some_and(is_goroutine_header) {
            j += 1;
        }
    }
    if goroutines == 0 {
        return None;
    }
    Some(Trace { start: i, end: j, header: vec![header], frames, total_frames: total, other_threads: goroutines - 1 })
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

    #[test]
    fn frames_are_recognised_strictly() {
        assert!(is_at_frame("\tat com.acme.Foo.bar(Foo.java:12)"));
        assert!(is_at_frame("    at async handler (/app/x.js:1:2)"));
        assert!(is_at_frame("    at /app/x.js:10:3"));
        assert!(is_at_frame("\tat java.base/java.lang.Thread.run(Thread.java:833) ~[na:na]"));
        assert!(!is_at_frame("    at home (tomorrow)"));
        assert!(!is_at_frame("at com.acme.Foo.bar(Foo.java:12)"));
        assert!(!is_at_frame("    at the end of the day"));
    }
}
