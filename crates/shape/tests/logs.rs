//! Log levels: which lines carry one (and which must not count), and counts over a
//! generated log whose counts are known.

use proptest::prelude::*;
use toolshape_shape::{Level, LevelCounts, SCAN_BYTES, level_counts, line_level};

#[test]
fn detection_table() {
    use Level::*;
    let table: &[(&str, Option<Level>)] = &[
        // Plain upper-case levels, wherever the format puts them.
        ("2024-05-01T12:00:00Z ERROR [main] request failed", Some(Error)),
        ("2024-05-01 12:00:00,123 WARNING root: disk almost full", Some(Warn)),
        ("WARNING:root:low disk", Some(Warn)),
        ("CRITICAL: out of memory", Some(Fatal)),
        ("PANIC: could not write to log file", Some(Fatal)),
        ("2024-05-01 12:00:00 [main] SEVERE com.acme.Y - boom", Some(Error)),
        ("10:00:00 INF started server addr=:8080", Some(Info)),
        ("12:00:01 DBG cache miss", Some(Debug)),
        ("time=12:00:01 TRACE entering f", Some(Trace)),
        ("INFO[0000] starting up", Some(Info)),
        ("ERRO[0001] connection lost", Some(Error)),
        ("npm ERR! code E404", Some(Error)),
        ("[2024-05-01 12:00:00] production.NOTICE: user logged in", Some(Info)),
        ("FATAL: password authentication failed", Some(Fatal)),
        // Brackets and angle brackets, any case.
        ("[error] upstream timed out", Some(Error)),
        ("[2024-05-01 12:00:00] [ Warn ] slow query", Some(Warn)),
        ("<info> started", Some(Info)),
        ("2024/05/01 12:00:00 [E] failed to bind", Some(Error)),
        ("2024/05/01 12:00:00 [D] tick", Some(Debug)),
        // Level fields.
        ("time=2024-05-01T12:00:00Z level=error msg=boom", Some(Error)),
        ("ts=1 lvl=dbug msg=x", Some(Debug)),
        ("level=\"warn\" msg=\"x\"", Some(Warn)),
        (r#"{"level":"warn","msg":"disk"}"#, Some(Warn)),
        (r#"{"severity": "ERROR", "message": "x"}"#, Some(Error)),
        (r#"{"level":50,"time":1,"msg":"x"}"#, Some(Error)),
        (r#"{"level":30,"msg":"x"}"#, Some(Info)),
        (r#"{"@timestamp":"2024","log.level":"info","message":"x"}"#, Some(Info)),
        (r#"{"levelname": "CRITICAL", "msg": "x"}"#, Some(Fatal)),
        // The field wins over a level word in the message before it.
        (r#"{"msg":"ERROR in payload","level":"info"}"#, Some(Info)),
        ("msg=\"WARN: retry\" level=debug", Some(Debug)),
        // glog.
        ("E1130 12:34:56.789012    1234 server.go:12] bind failed", Some(Error)),
        ("I0101 00:00:00.000000 1 main.go:1] hello", Some(Info)),
        ("W0101 00:00:00.000000 1 main.go:1] careful", Some(Warn)),
        ("F0101 00:00:00.000000 1 main.go:1] dead", Some(Fatal)),
        // Compilers and command-line tools: a level word and a colon opening the line.
        ("error: could not compile `widgets`", Some(Error)),
        ("error[E0308]: mismatched types", Some(Error)),
        ("warning: unused variable: `x`", Some(Warn)),
        ("fatal: not a git repository", Some(Fatal)),
        ("panic: runtime error: index out of range", Some(Fatal)),
        ("fail: Microsoft.AspNetCore.Server[1]", Some(Error)),
        ("info: Microsoft.Hosting.Lifetime[0]", Some(Info)),
        ("   Error: ENOENT: no such file or directory", Some(Error)),
        ("src/app.ts(3,1): Error: cannot find name", Some(Error)),
        ("make: *** [all] Warning: ignored", Some(Warn)),
        // Not levels.
        ("", None),
        ("errors: 0", None),
        ("Build finished with 0 errors and 2 warnings", None),
        ("no error found", None),
        ("retry on error: yes", None),
        ("the debug build is slower", None),
        ("ERRORS: 3", None),
        ("ERROR_CODE=5", None),
        ("I/O timeout while reading", None),
        ("if err != nil {", None),
        ("Error handling is hard", None),
        ("Informational only", None),
        ("EVERYTHING IS FINE", None),
        ("the water level=high today", None),
        ("E = mc^2", None),
        ("[x] done", None),
        ("I1234", None),
        ("    at com.acme.Foo.bar(Foo.java:12)", None),
        ("Traceback (most recent call last):", None),
        ("ERRORé", None),
    ];
    let mut failures = Vec::new();
    for (line, want) in table {
        let got = line_level(line);
        if got != *want {
            failures.push(format!("{line:?}: got {got:?}, want {want:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn only_the_first_bytes_of_a_line_are_read() {
    let late = format!("{}ERROR late", "a ".repeat(70));
    assert_eq!(line_level(&late), None);
    let early = format!("ERROR early {}", "a ".repeat(10_000));
    assert_eq!(line_level(&early), Some(Level::Error));
    // A multi-byte character straddling the limit is harmless.
    let straddle = format!("{}é ERROR", "a".repeat(119));
    assert_eq!(line_level(&straddle), None);
}

/// A log of known make-up: every level in several formats, plus lines without a level.
fn generated_log(lines: usize) -> (String, LevelCounts) {
    let mut text = String::new();
    let mut expected = LevelCounts::default();
    let mut state: u64 = 99;
    for i in 0..lines {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let pick = (state >> 33) % 9;
        let level = match pick {
            0 => Some(Level::Fatal),
            1 | 2 => Some(Level::Error),
            3 | 4 => Some(Level::Warn),
            5 => Some(Level::Info),
            6 => Some(Level::Debug),
            7 => Some(Level::Trace),
            _ => None,
        };
        let line = match (level, i % 4) {
            (None, 0) => "    at com.acme.Worker.run(Worker.java:42)".to_owned(),
            (None, 1) => format!("processed {i} items with 0 errors"),
            (None, 2) => String::new(),
            (None, _) => "the debug build is slower, no error found".to_owned(),
            (Some(l), 0) => format!("2024-05-01T12:00:{:02}Z {} [worker-{i}] step {i} done", i % 60, l.as_str()),
            (Some(l), 1) => format!(r#"{{"level":"{}","msg":"step {i}","n":{i}}}"#, l.as_str().to_lowercase()),
            (Some(l), 2) => format!("ts={i} level={} msg=\"step {i}\"", l.as_str().to_lowercase()),
            (Some(l), _) => format!("[{}] step {i}", l.as_str().to_lowercase()),
        };
        text.push_str(&line);
        text.push(if i % 7 == 0 { '\r' } else { ' ' });
        text.push('\n');
        expected.lines += 1;
        match level {
            Some(Level::Fatal) => expected.fatal += 1,
            Some(Level::Error) => expected.error += 1,
            Some(Level::Warn) => expected.warn += 1,
            Some(Level::Info) => expected.info += 1,
            Some(Level::Debug) => expected.debug += 1,
            Some(Level::Trace) => expected.trace += 1,
            None => {}
        }
    }
    (text, expected)
}

#[test]
fn counts_a_generated_log_exactly() {
    let (text, expected) = generated_log(10_000);
    let got = level_counts(&text);
    assert_eq!(got, expected);
    assert!(got.looks_like_log());
    let phrase = got.phrase().unwrap();
    let want: Vec<String> =
        Level::ALL.iter().map(|&l| format!("{} {}", l.as_str(), toolshape_shape::thousands(expected.get(l)))).collect();
    assert_eq!(phrase, want.join(", "));
}

#[test]
fn phrase_lists_levels_seen_most_severe_first() {
    let mut text = String::new();
    for _ in 0..340 {
        text.push_str("WARN slow\n");
    }
    for _ in 0..12 {
        text.push_str("ERROR boom\n");
    }
    text.push_str("plain\n");
    let c = level_counts(&text);
    assert_eq!(c.phrase().as_deref(), Some("ERROR 12, WARN 340"));
    assert_eq!(
        (c.lines, c.get(Level::Error), c.get(Level::Warn), c.get(Level::Info), c.leveled()),
        (353, 12, 340, 0, 352)
    );
    assert_eq!(serde_json::to_string(&c).unwrap(), r#"{"lines":353,"error":12,"warn":340}"#);
    assert_eq!(level_counts("just text\nmore text").phrase(), None);
}

#[test]
fn lines_are_counted_like_an_editor_would() {
    assert_eq!(level_counts("").lines, 0);
    assert_eq!(level_counts("a").lines, 1);
    assert_eq!(level_counts("a\n").lines, 1);
    assert_eq!(level_counts("a\nb").lines, 2);
    assert_eq!(level_counts("\n\n").lines, 2);
    assert_eq!(level_counts("ERROR x\r\nWARN y\r\n").get(Level::Warn), 1);
    let mut c = LevelCounts::default();
    c.add_line("ERROR a");
    c.add_line("b");
    assert_eq!((c.lines, c.error), (2, 1));
}

#[test]
fn looks_like_log_needs_three_leveled_lines_and_a_fifth() {
    let make = |leveled: usize, plain: usize| {
        let mut t = "INFO x\n".repeat(leveled);
        t.push_str(&"plain\n".repeat(plain));
        level_counts(&t)
    };
    assert!(make(3, 12).looks_like_log());
    assert!(!make(3, 13).looks_like_log());
    assert!(!make(2, 0).looks_like_log());
    assert!(make(100, 0).looks_like_log());
    assert!(!make(0, 100).looks_like_log());
}

#[test]
fn levels_serialise_in_upper_case_and_order_by_severity() {
    assert_eq!(serde_json::to_string(&Level::Warn).unwrap(), "\"WARN\"");
    assert_eq!(serde_json::from_str::<Level>("\"FATAL\"").unwrap(), Level::Fatal);
    assert!(Level::Fatal < Level::Error && Level::Debug < Level::Trace);
    assert_eq!(Level::from_name(" Warning "), Some(Level::Warn));
    assert_eq!(Level::from_name("err"), Some(Level::Error));
    assert_eq!(Level::from_name("critical"), Some(Level::Fatal));
    assert_eq!(Level::from_name("nope"), None);
    assert_eq!(Level::Info.to_string(), "INFO");
    let e = "loudest".parse::<Level>().unwrap_err().to_string();
    assert!(e.contains("use one of FATAL, ERROR, WARN, INFO, DEBUG, TRACE"), "{e}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn any_text_is_counted_without_panicking(text in "(.|\n|\r){0,400}") {
        let c = level_counts(&text);
        let expected_lines = text.matches('\n').count() + usize::from(!text.is_empty() && !text.ends_with('\n'));
        prop_assert_eq!(c.lines, expected_lines as u64);
        prop_assert!(c.leveled() <= c.lines);
        // Counting lines one by one agrees with counting the text.
        let by_line = text.split('\n').filter_map(line_level).count() as u64;
        prop_assert_eq!(by_line, c.leveled());
    }

    /// A level word is found wherever it starts in a line, as long as it ends within the
    /// scanned bytes; one that starts past them is never judged, and nothing past the first
    /// bytes of a line changes its level, however long the line.
    #[test]
    fn level_words_in_lines_of_any_length(
        prefix in "[xyz0-9 ,./-]{0,200}",
        word in "(ERROR|WARN|\\[info\\]|level=error)",
        rest in "[ -~]{0,300}",
    ) {
        let line = format!("{prefix} {word} {rest}");
        let expected = match word.as_str() {
            "ERROR" | "level=error" => Level::Error,
            "WARN" => Level::Warn,
            _ => Level::Info,
        };
        let start = prefix.len() + 1;
        let found = line_level(&line);
        if start + word.len() < SCAN_BYTES {
            // The prefix holds no level of its own, so the word decides, unless `rest` holds
            // a level field (which wins) inside the scanned bytes.
            let lower = rest.to_ascii_lowercase();
            if !["level", "lvl", "severity"].iter().any(|key| lower.contains(key)) {
                prop_assert_eq!(found, Some(expected), "{}", line);
            }
        } else if start >= SCAN_BYTES {
            prop_assert_eq!(found, None, "{}", line);
        } else {
            // Cut by the scan limit: either not judged, or judged right.
            prop_assert!(found.is_none() || found == Some(expected), "{line}: {found:?}");
        }
        // Only the scanned bytes and the one after them (which tells whether the last word
        // was cut) decide.
        let window = &line[..line.len().min(SCAN_BYTES + 1)];
        prop_assert_eq!(line_level(window), found, "{}", line);
    }
}
