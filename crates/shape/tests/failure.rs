//! Failures as one actionable line, and stack traces shrunk to what a model can act on.

use std::borrow::Cow;
use std::collections::HashSet;

use proptest::prelude::*;
use toolshape_shape::thousands;
use toolshape_shape::{Failure, LINE_MAX, TOOL_ERROR_MAX, shrink_trace, shrink_traces};

fn all_variants() -> Vec<Failure> {
    vec![
        Failure::Timeout { upstream: "github".into(), after_ms: 30_000 },
        Failure::Crashed { upstream: "github".into(), detail: "exit status 1".into() },
        Failure::Unavailable { upstream: "search".into(), detail: "connection refused".into() },
        Failure::UnknownTool { name: "list_isues".into(), suggestions: vec!["list_issues".into()] },
        Failure::InvalidArguments { detail: "label: at most 50 characters".into() },
        Failure::Protocol { upstream: "github".into(), code: -32602, message: "missing `owner`".into() },
        Failure::InvalidResponse { upstream: "github".into(), detail: "response id 7 does not match request 3".into() },
        Failure::ResponseTooLarge { upstream: "files".into(), limit_bytes: 10_000_000 },
        Failure::ToolError { text: "Not Found: repository acme/widget does not exist".into() },
        Failure::CursorInvalid { detail: "signature does not match".into() },
        Failure::CursorExpired,
    ]
}

#[test]
fn every_variant_has_its_own_line_and_kind() {
    let expected = [
        ("timeout", "upstream `github` timed out after 30 s on `list_issues`; retry, or narrow the request"),
        (
            "crashed",
            "upstream `github` stopped while running `list_issues` (exit status 1); retry once, and use another tool if it fails again",
        ),
        (
            "unavailable",
            "upstream `search` is unavailable (connection refused), so `list_issues` cannot run now; try again later or use another tool",
        ),
        ("unknown_tool", "no tool named `list_isues`; did you mean `list_issues`?"),
        (
            "invalid_arguments",
            "invalid arguments for `list_issues`: label: at most 50 characters; fix them and call again",
        ),
        (
            "protocol",
            "upstream `github` returned error -32602 (invalid params) for `list_issues`: missing `owner`; check the arguments against the tool's input schema and call again",
        ),
        (
            "invalid_response",
            "upstream `github` sent an invalid response for `list_issues` (response id 7 does not match request 3); retry once, and use another tool if it happens again",
        ),
        (
            "response_too_large",
            "upstream `files` sent more than 10.0 MB for `list_issues`; ask for less: filter, page or narrow the request",
        ),
        ("tool_error", "`list_issues` reported an error: Not Found: repository acme/widget does not exist"),
        (
            "cursor_invalid",
            "that cursor is not valid (signature does not match); repeat the original call to get a fresh one",
        ),
        ("cursor_expired", "that cursor has expired; repeat the original call to get fresh results"),
    ];
    let variants = all_variants();
    assert_eq!(variants.len(), expected.len());
    let mut kinds = HashSet::new();
    for (f, (kind, line)) in variants.iter().zip(expected) {
        assert_eq!(f.kind(), kind);
        assert!(kinds.insert(f.kind()));
        assert_eq!(f.line("list_issues"), line, "{kind}");
        assert!(!f.line("list_issues").contains('\n'));
    }
}

#[test]
fn protocol_codes_get_their_own_advice() {
    let line = |code| Failure::Protocol { upstream: "u".into(), code, message: String::new() }.line("t");
    assert!(line(-32601).contains("(method not found) for `t`; the upstream does not offer this; use another tool"));
    assert!(line(-32603).contains("(internal error)"));
    assert!(line(-32050).contains("(server error)"));
    assert!(line(-32002).contains("(resource not found)"));
    assert!(line(-32700).contains("(parse error)"));
    assert!(line(42).contains("error 42 (upstream error) for `t`; retry once"));
}

#[test]
fn durations_read_naturally_in_timeouts() {
    let t = |ms| Failure::Timeout { upstream: "u".into(), after_ms: ms }.line("t");
    assert!(t(250).contains("after 250 ms"));
    assert!(t(1_500).contains("after 1.5 s"));
    assert!(t(90_000).contains("after 1 min 30 s"));
    assert!(t(600_000).contains("after 10 min"));
}

#[test]
fn unknown_tool_shows_at_most_three_suggestions() {
    let f = Failure::UnknownTool {
        name: "serch".into(),
        suggestions: vec!["search".into(), "search".into(), "fetch".into(), "research".into(), "seek".into()],
    };
    assert_eq!(f.line("serch"), "no tool named `serch`; did you mean `search`, `fetch` or `research`?");
    let two = Failure::UnknownTool { name: "x".into(), suggestions: vec!["a".into(), "b".into()] };
    assert_eq!(two.line("x"), "no tool named `x`; did you mean `a` or `b`?");
    let none = Failure::UnknownTool { name: "x".into(), suggestions: vec![] };
    assert_eq!(none.line("x"), "no tool named `x`; search or list the tools to find the right name");
}

#[test]
fn hostile_details_stay_on_one_bounded_line() {
    let long = "boom ".repeat(2_000);
    for f in [
        Failure::Crashed { upstream: "a`b\nc".repeat(50), detail: long.clone() },
        Failure::InvalidArguments { detail: long.clone() },
        Failure::Protocol { upstream: "u".into(), code: -1, message: format!("\u{1b}[31m{long}\u{1b}[0m") },
        Failure::ToolError { text: long.clone() },
        Failure::CursorInvalid { detail: "\n\n\t".into() },
    ] {
        let line = f.line(&"tool\n".repeat(100));
        let max = if matches!(f, Failure::ToolError { .. }) { TOOL_ERROR_MAX } else { LINE_MAX };
        assert!(line.chars().count() <= max, "{} chars: {line}", line.chars().count());
        assert!(!line.contains('\n') && !line.contains('\u{1b}'), "{line}");
    }
    let cut = Failure::InvalidArguments { detail: long }.line("t");
    assert!(cut.contains("more characters]"), "{cut}");
    assert!(cut.ends_with("; fix them and call again"), "{cut}");
    // An empty detail leaves no empty parentheses behind.
    assert_eq!(
        Failure::CursorInvalid { detail: " ".into() }.line("t"),
        "that cursor is not valid; repeat the original call to get a fresh one"
    );
}

#[test]
fn tool_error_text_is_cut_with_an_exact_count() {
    let text = "x".repeat(3_000);
    let line = Failure::ToolError { text }.line("t");
    assert!(line.chars().count() <= TOOL_ERROR_MAX);
    let kept = line.chars().filter(|&c| c == 'x').count();
    assert!(line.ends_with(&format!("… [{} more characters]", thousands(3_000 - kept as u64))), "{line}");
    // Multi-byte text is cut at a character boundary, and the count is in characters.
    let text = "界".repeat(3_000);
    let line = Failure::ToolError { text }.line("t");
    let kept = line.chars().filter(|&c| c == '界').count();
    assert!(line.ends_with(&format!("… [{} more characters]", thousands(3_000 - kept as u64))), "{line}");
    // Beyond what is read, the rest still counts.
    let huge = "y".repeat(200_000);
    let line = Failure::ToolError { text: huge }.line("t");
    let kept = line.chars().filter(|&c| c == 'y').count();
    assert!(line.ends_with(&format!("… [{} more characters]", fmt_thousands(200_000 - kept))), "{line}");
    // Prose is cut between words, and the count still covers exactly what is missing.
    let prose = format!("Error: {}", "word ".repeat(400));
    let line = Failure::ToolError { text: prose.clone() }.line("t");
    let body = line.strip_prefix("`t` reported an error: ").unwrap();
    let (head, marker) = body.split_once(" … [").unwrap();
    assert!(head.ends_with(" word"), "{line}");
    let left = prose.trim_end().chars().count() - head.chars().count();
    assert_eq!(marker, format!("{} more characters]", fmt_thousands(left)));
    assert_eq!(
        Failure::ToolError { text: "  \n".into() }.line("t").split(';').next(),
        Some("`t` reported an error without a message")
    );
}

fn fmt_thousands(n: usize) -> String {
    toolshape_shape::thousands(n as u64)
}

#[test]
fn tool_error_shrinks_a_trace_and_joins_lines() {
    let text = format!("Error executing tool search:\n{PYTHON}");
    let line = Failure::ToolError { text }.line("search");
    assert!(
        line.starts_with("`search` reported an error: Error executing tool search: | KeyError: 'items' | File"),
        "{line}"
    );
    assert!(line.contains("client.py\", line 88, in fetch_page"), "{line}");
    assert!(!line.contains("main.py"), "{line}");
}

const PYTHON: &str = r#"Traceback (most recent call last):
  File "/srv/app/main.py", line 12, in <module>
    main()
  File "/srv/app/main.py", line 8, in main
    run(config)
  File "/srv/app/runner.py", line 40, in run
    results = search(query)
  File "/srv/app/search.py", line 21, in search
    page = fetch_page(url)
  File "/srv/app/client.py", line 88, in fetch_page
    return payload["items"]
           ~~~~~~~^^^^^^^^^
KeyError: 'items'
"#;

#[test]
fn python_traceback_keeps_exception_and_innermost_frames() {
    let s = shrink_trace(PYTHON).unwrap();
    assert_eq!(
        s,
        "KeyError: 'items'\n  File \"/srv/app/client.py\", line 88, in fetch_page\n  File \"/srv/app/search.py\", line 21, in search\n  File \"/srv/app/runner.py\", line 40, in run\n  … 2 more frames omitted"
    );
}

#[test]
fn python_chained_tracebacks_each_shrink() {
    let text = format!(
        "{PYTHON}\nDuring handling of the above exception, another exception occurred:\n\n{}",
        PYTHON.replace("KeyError: 'items'", "RuntimeError: search failed")
    );
    let out = shrink_traces(&text);
    assert_eq!(out.matches("more frames omitted").count(), 2);
    assert!(out.contains("KeyError: 'items'") && out.contains("RuntimeError: search failed"));
    assert!(out.contains("\nDuring handling of the above exception, another exception occurred:\n\n"));
}

const JAVA: &str = "Exception in thread \"main\" java.lang.IllegalStateException: could not load widgets
\tat com.acme.widgets.Loader.load(Loader.java:42)
\tat com.acme.widgets.Service.refresh(Service.java:17)
\tat com.acme.widgets.Main.main(Main.java:9)
Caused by: java.io.FileNotFoundException: /etc/widgets.yaml (No such file or directory)
\tat java.base/java.io.FileInputStream.open0(Native Method)
\tat java.base/java.io.FileInputStream.open(FileInputStream.java:216)
\tat java.base/java.io.FileInputStream.<init>(FileInputStream.java:157)
\tat com.acme.widgets.Loader.read(Loader.java:60)
\tat com.acme.widgets.Loader.load(Loader.java:40)
\t... 2 more
";

#[test]
fn jvm_trace_keeps_outer_and_root_exception_and_root_frames() {
    let s = shrink_trace(JAVA).unwrap();
    assert_eq!(
        s,
        "Exception in thread \"main\" java.lang.IllegalStateException: could not load widgets\nCaused by: java.io.FileNotFoundException: /etc/widgets.yaml (No such file or directory)\n  at java.base/java.io.FileInputStream.open0(Native Method)\n  at java.base/java.io.FileInputStream.open(FileInputStream.java:216)\n  at java.base/java.io.FileInputStream.<init>(FileInputStream.java:157)\n  … 5 more frames omitted"
    );
}

#[test]
fn jvm_trace_in_a_log_keeps_the_log_around_it() {
    let text =
        format!("2024-05-01 12:00:00 ERROR [main] request failed\n{JAVA}2024-05-01 12:00:01 INFO [main] retrying\n");
    let out = shrink_traces(&text);
    assert!(out.starts_with("2024-05-01 12:00:00 ERROR [main] request failed\nException in thread"), "{out}");
    assert!(out.ends_with("… 5 more frames omitted\n2024-05-01 12:00:01 INFO [main] retrying\n"), "{out}");
    assert!(!out.contains("Main.java"));
}

const NODE: &str = "/app/server.js:27
    throw new TypeError(`bad id: ${id}`);
    ^

TypeError: bad id: undefined
    at parseId (/app/lib/ids.js:10:11)
    at Object.getIssue (/app/lib/issues.js:33:14)
    at async handler (/app/server.js:27:5)
    at async Server.<anonymous> (/app/server.js:51:7)
    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)

Node.js v20.11.0
";

#[test]
fn javascript_trace_keeps_error_and_innermost_frames() {
    let s = shrink_trace(NODE).unwrap();
    assert_eq!(
        s,
        "TypeError: bad id: undefined\n  at parseId (/app/lib/ids.js:10:11)\n  at Object.getIssue (/app/lib/issues.js:33:14)\n  at async handler (/app/server.js:27:5)\n  … 2 more frames omitted"
    );
    let out = shrink_traces(NODE);
    assert!(out.starts_with("/app/server.js:27\n"));
    assert!(out.ends_with("omitted\n\nNode.js v20.11.0\n"), "{out}");
}

const RUST: &str = "thread 'main' panicked at src/parse.rs:41:22:
called `Result::unwrap()` on an `Err` value: ParseIntError { kind: InvalidDigit }
stack backtrace:
   0: rust_begin_unwind
             at /rustc/90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf/library/std/src/panicking.rs:665:5
   1: core::panicking::panic_fmt
             at /rustc/90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf/library/core/src/panicking.rs:74:14
   2: core::result::unwrap_failed
             at /rustc/90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf/library/core/src/result.rs:1700:5
   3: widgets::parse::count
             at ./src/parse.rs:41:22
   4: widgets::load::h1a2b3c4d5e6f7a8b
             at ./src/load.rs:12:9
   5: widgets::run
             at ./src/main.rs:20:5
   6: widgets::main
             at ./src/main.rs:5:5
   7: core::ops::function::FnOnce::call_once
             at /rustc/90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf/library/core/src/ops/function.rs:250:5
note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.
";

#[test]
fn rust_panic_keeps_message_and_innermost_application_frames() {
    let s = shrink_trace(RUST).unwrap();
    assert_eq!(
        s,
        "thread 'main' panicked at src/parse.rs:41:22: called `Result::unwrap()` on an `Err` value: ParseIntError { kind: InvalidDigit }\n  widgets::parse::count at ./src/parse.rs:41:22\n  widgets::load at ./src/load.rs:12:9\n  widgets::run at ./src/main.rs:20:5\n  … 5 more frames omitted"
    );
}

#[test]
fn rust_panic_without_backtrace_keeps_the_message() {
    let text = "running 1 test\nthread 'main' panicked at src/main.rs:2:5:\nexplicit panic\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\nerror: process didn't exit successfully\n";
    assert_eq!(shrink_trace(text).unwrap(), "thread 'main' panicked at src/main.rs:2:5: explicit panic");
    assert_eq!(
        shrink_traces(text),
        "running 1 test\nthread 'main' panicked at src/main.rs:2:5: explicit panic\nerror: process didn't exit successfully\n"
    );
    let old = "thread 'main' panicked at 'index out of bounds: the len is 3 but the index is 5', src/main.rs:4:5";
    assert_eq!(shrink_trace(old).unwrap(), old);
}

const GO: &str = "panic: runtime error: index out of range [5] with length 3

goroutine 1 [running]:
main.pick(...)
\t/home/dev/widgets/pick.go:8
main.choose(0xc000012345, 0x3)
\t/home/dev/widgets/choose.go:14 +0x1d
main.run()
\t/home/dev/widgets/run.go:30 +0x45
main.main()
\t/home/dev/widgets/main.go:5 +0x19

goroutine 6 [chan receive]:
main.worker(0xc00001e0c0)
\t/home/dev/widgets/worker.go:11 +0x2a
created by main.main in goroutine 1
\t/home/dev/widgets/main.go:4 +0x65
exit status 2
";

#[test]
fn go_panic_keeps_message_and_innermost_frames_and_drops_other_goroutines() {
    let s = shrink_trace(GO).unwrap();
    assert_eq!(
        s,
        "panic: runtime error: index out of range [5] with length 3\n  main.pick(...) at /home/dev/widgets/pick.go:8\n  main.choose(0xc000012345, 0x3) at /home/dev/widgets/choose.go:14\n  main.run() at /home/dev/widgets/run.go:30\n  … 1 more frame omitted\n  … 1 other goroutine omitted"
    );
    assert!(shrink_traces(GO).ends_with("goroutine omitted\nexit status 2\n"));
}

#[test]
fn go_runtime_frames_are_skipped() {
    let text = "panic: boom\n\ngoroutine 1 [running]:\npanic({0x45a0e0?, 0x4cb3c0?})\n\t/usr/local/go/src/runtime/panic.go:770 +0x132\nmain.explode()\n\t/src/x.go:3 +0x25\nmain.main()\n\t/src/x.go:7 +0x13\n";
    assert_eq!(
        shrink_trace(text).unwrap(),
        "panic: boom\n  main.explode() at /src/x.go:3\n  main.main() at /src/x.go:7\n  … 1 more frame omitted"
    );
}

#[test]
fn text_without_a_trace_is_unchanged() {
    for text in [
        "",
        "plain output\nwith lines\n",
        "we met at noon (sharp)\n    at the station (platform 2)\n",
        "panic: disk full\nno goroutines here\n",
        "Traceback (most recent call last):\nnothing indented follows\n",
        "thread 'worker' has overflowed its stack\n",
    ] {
        assert!(shrink_trace(text).is_none(), "{text}");
        assert!(matches!(shrink_traces(text), Cow::Borrowed(t) if t == text), "{text}");
    }
}

#[test]
fn crlf_line_endings_are_kept_around_a_trace() {
    let text = PYTHON.replace('\n', "\r\n");
    let out = shrink_traces(&text);
    assert!(out.starts_with("KeyError: 'items'\n"));
    assert!(out.ends_with("omitted\r\n"), "{out:?}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn lines_are_bounded_for_any_text(tool in ".{0,200}", text in ".{0,3000}", code in any::<i64>(), ms in any::<u64>()) {
        for f in [
            Failure::ToolError { text: text.clone() },
            Failure::Protocol { upstream: text.clone(), code, message: text.clone() },
            Failure::Timeout { upstream: text.clone(), after_ms: ms },
            Failure::UnknownTool { name: text.clone(), suggestions: vec![text.clone(); 5] },
            Failure::ResponseTooLarge { upstream: tool.clone(), limit_bytes: ms },
        ] {
            let line = f.line(&tool);
            let max = if matches!(f, Failure::ToolError { .. }) { TOOL_ERROR_MAX } else { LINE_MAX };
            prop_assert!(line.chars().count() <= max);
            prop_assert!(!line.contains('\n'));
        }
    }

    #[test]
    fn shrinking_never_panics_and_is_identity_without_traces(
        lines in prop::collection::vec(prop_oneof![
            Just("Traceback (most recent call last):".to_owned()),
            Just("  File \"a.py\", line 1, in f".to_owned()),
            Just("\tat a.B.c(B.java:1)".to_owned()),
            Just("Caused by: x.Y: z".to_owned()),
            Just("    at f (a.js:1:2)".to_owned()),
            Just("thread 'main' panicked at a.rs:1:1:".to_owned()),
            Just("stack backtrace:".to_owned()),
            Just("   3: app::f".to_owned()),
            Just("panic: x".to_owned()),
            Just("goroutine 1 [running]:".to_owned()),
            Just("main.f()".to_owned()),
            Just("\t/a.go:1 +0x1".to_owned()),
            ".{0,40}",
        ], 0..30),
        crlf in any::<bool>(),
    ) {
        let text = lines.join(if crlf { "\r\n" } else { "\n" });
        let out = shrink_traces(&text);
        match (shrink_trace(&text), &out) {
            (None, Cow::Borrowed(t)) => prop_assert_eq!(*t, text.as_str()),
            (Some(_), Cow::Owned(_)) => {}
            (a, b) => prop_assert!(false, "shrink_trace {:?} disagrees with shrink_traces {:?}", a, b),
        }
    }
}
