//! Stack traces in error text, shrunk to what a model can act on: the exception type and
//! message, and the innermost frames.

use std::borrow::Cow;
use std::fmt::Write as _;

use super::FRAMES_KEPT;
use crate::numfmt::thousands;

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

/// The exception type of every stack trace in `text`, in order: the name before the first
/// `:` of the trace's first line (`shop.errors.OutOfStock`, `java.lang.IllegalStateException`,
/// `TypeError`), for traces whose first line starts with one. Traces of a Rust panic, and JVM
/// frames under a log line rather than an exception line, name none and are not listed.
pub(crate) fn exception_types(text: &str) -> Vec<String> {
    let lines = Lines::new(text);
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        match detect(&lines, i) {
            Some(trace) => {
                let first = trace.header.first().map_or("", String::as_str);
                let name = first.split(':').next().unwrap_or("").trim();
                if looks_like_exception(first) && !name.contains(' ') {
                    out.push(name.to_owned());
                }
                i = trace.end.max(i + 1);
            }
            None => i += 1,
        }
    }
    out
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
