//! The first read in parts shows exactly the bytes the whole-text redaction has at the same
//! places, resumes where that text goes on, and shows no planted secret.

use proptest::prelude::*;
use serde_json::Value;
use toolshape_fixtures::logs::LogLines;
use toolshape_fixtures::rng::Rng;
use toolshape_fixtures::secrets;
use toolshape_redact::{CustomPattern, RedactSpec, RedactStyle, RedactionCounts, Redactor};
use toolshape_tokens::Tokenizer;

use super::*;
use crate::context::{OffsetContinuation, Resume};
use crate::envelope::Data;
use crate::text::count_lines;

/// A log of `lines` lines with secrets planted at `plants` (line index, kind), some of them
/// hazards of their own: key blocks without an END line, long lines, `\r\n` endings.
fn leaky_text(seed: u64, lines: usize, plants: &[(usize, usize)], crlf: bool, open_end: bool) -> (String, Vec<String>) {
    let mut rng = Rng::new(seed);
    let mut out = String::new();
    let mut planted = Vec::new();
    let eol = if crlf { "\r\n" } else { "\n" };
    for (i, line) in LogLines::new(seed).take(lines).enumerate() {
        out.push_str(&line);
        out.push_str(eol);
        for &(_, kind) in plants.iter().filter(|(at, _)| *at == i) {
            let (leak, secret) = match kind {
                // A key block cut short: no END line, the base64 lines run on.
                19 => {
                    let body = rng.alnum(60);
                    (format!("-----BEGIN PRIVATE KEY-----\n{body}\n{}", rng.alnum(60)), body)
                }
                // A token at the end of a line longer than any look-back.
                20 => {
                    let token = secrets::github_token(&mut rng);
                    (format!("{} {token}", "x".repeat(3000)), token)
                }
                // Two secrets on one line, one a URL password after a long word.
                21 => {
                    let email = secrets::email(&mut rng);
                    (format!("https://{}x/{email} api_key={}", "a".repeat(600), rng.alnum(20)), email)
                }
                k => secrets::of_every_kind(&mut rng, k),
            };
            out.push_str(&leak.replace('\n', eol));
            out.push_str(eol);
            planted.push(secret);
        }
    }
    if open_end {
        out.push_str("last line without a break");
    }
    (out, planted)
}

struct Read {
    data: String,
    next: Option<serde_json::Map<String, Value>>,
    summary: String,
    rendered: String,
}

/// The context of a first read (no cursor), with `next` for the pages after it.
fn first_context(next: &OffsetContinuation) -> ShapeContext<'_> {
    ShapeContext {
        tool: "t",
        tokenizer: Tokenizer::default(),
        nonce: "0123456789",
        now_unix: None,
        resume: None,
        continuation: next,
    }
}

fn first_read(raw: &str, budget: usize, part: usize, redactor: &Redactor) -> Option<Read> {
    let plan = ShapePlan { budget_tokens: budget, ..ShapePlan::default() };
    let next = OffsetContinuation { tool: "read".into(), base: serde_json::Map::new() };
    let ctx = first_context(&next);
    let shaped = shape_in_parts(&plan, redactor, raw, false, raw.len() as u64, &ctx, part, raw.len())?;
    let shaped = shaped.unwrap_or_else(|e| panic!("{e}"));
    let data = match &shaped.envelope.data {
        Data::Text(t) => t.clone(),
        other => panic!("not text: {other:?}"),
    };
    Some(Read {
        data,
        next: shaped.envelope.next.as_ref().map(|n| n.arguments.clone()),
        summary: shaped.envelope.summary.clone(),
        rendered: shaped.text,
    })
}

/// Reads every page of `full` from `resume` as the snapshot's pages are read.
fn read_pages(full: &str, budget: usize, mut resume: Resume) -> String {
    let plan = ShapePlan { budget_tokens: budget, ..ShapePlan::default() }.for_pages();
    let next = OffsetContinuation { tool: "read".into(), base: serde_json::Map::new() };
    let mut out = String::new();
    for _ in 0..10_000 {
        let ctx = ShapeContext {
            tool: "t",
            tokenizer: Tokenizer::default(),
            nonce: "0123456789",
            now_unix: None,
            resume: Some(resume.clone()),
            continuation: &next,
        };
        let shaped = text::shape_text(&plan, full, false, full.len() as u64, RedactionCounts::default(), &ctx)
            .unwrap_or_else(|e| panic!("{e}"));
        if let Data::Text(t) = &shaped.envelope.data {
            out.push_str(t);
        }
        let Some(next) = shaped.envelope.next else {
            return out;
        };
        let byte = next.arguments.get("byte").and_then(Value::as_u64).unwrap_or(0);
        resume = match next.arguments.get("before_end").and_then(Value::as_u64) {
            Some(before_end) => Resume::TextBefore { offset: byte, before_end },
            None => Resume::Text { offset: byte, end: next.arguments.get("end").and_then(Value::as_u64) },
        };
    }
    panic!("paging does not end");
}

/// Checks a first read against the whole-text redaction `full`; returns where its head ends
/// and how many bytes its tail holds.
fn check(read: &Read, full: &str, planted: &[String]) -> Result<(usize, usize), TestCaseError> {
    for secret in planted {
        prop_assert!(!read.rendered.contains(secret.as_str()), "leaked {secret}");
    }
    let next = read.next.as_ref().ok_or_else(|| TestCaseError::fail("a gapped read has a next"))?;
    let kept_end = next.get("byte").and_then(Value::as_u64).unwrap_or(u64::MAX) as usize;
    let before_end = next.get("before_end").and_then(Value::as_u64).unwrap_or(0) as usize;
    prop_assert!(next.get("end").is_none(), "no absolute end from a gapped read");
    prop_assert!(kept_end <= full.len() - before_end);
    let (head, tail) = match read.data.split_once(" lines omitted …]\n") {
        Some((head, tail)) => {
            let marker = head.rfind("[… ").ok_or_else(|| TestCaseError::fail("marker"))?;
            let omitted: u64 =
                head[marker + "[… ".len()..].replace(',', "").parse().map_err(|_| TestCaseError::fail("count"))?;
            prop_assert_eq!(omitted, count_lines(&full[kept_end..full.len() - before_end]));
            let head = &head[..marker];
            // The marker gets a line of its own when the head ends inside a line.
            (if full[..kept_end].ends_with('\n') { head } else { head.strip_suffix('\n').unwrap_or(head) }, tail)
        }
        None => (read.data.as_str(), ""),
    };
    // What is shown is the whole-text redaction, byte for byte, at the same places.
    prop_assert_eq!(head, &full[..kept_end]);
    prop_assert_eq!(tail.len(), before_end);
    prop_assert_eq!(tail, &full[full.len() - before_end..]);
    let total = format!(" of {} (", crate::numfmt::thousands(count_lines(full)));
    prop_assert!(read.summary.contains(&total), "{} lacks{}", read.summary, total);
    Ok((kept_end, before_end))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Secrets of every kind, planted anywhere (so at and across the parts' edges for some
    /// part size), are redacted in the parts exactly as in the whole text.
    #[test]
    fn parts_show_what_the_whole_redaction_shows(
        seed in any::<u64>(),
        lines in 40usize..300,
        plants in proptest::collection::vec((0usize..300, 0usize..22), 0..40),
        budget in 200usize..600,
        part in 64usize..6000,
        crlf in any::<bool>(),
        open_end in any::<bool>(),
        partial in any::<bool>(),
        custom in any::<bool>(),
    ) {
        let (raw, planted) = leaky_text(seed, lines, &plants, crlf, open_end);
        let spec = RedactSpec {
            style: if partial { RedactStyle::Partial } else { RedactStyle::Placeholder },
            patterns: if custom {
                vec![CustomPattern { name: "request".into(), pattern: r"req=[0-9a-f]{4}".into() }]
            } else {
                Vec::new()
            },
            ..RedactSpec::default()
        };
        let redactor = Redactor::new(&spec).unwrap_or_else(|e| panic!("{e}"));
        let full = redactor.redact_text(&raw, &mut RedactionCounts::default()).into_owned();
        for secret in &planted {
            prop_assert!(!full.contains(secret.as_str()), "the whole redaction misses {}", secret);
        }
        if let Some(read) = first_read(&raw, budget, part, &redactor) {
            let (kept_end, before_end) = check(&read, &full, &planted)?;
            // Paging the snapshot from the cursor gives the rest, up to the tail.
            if seed % 4 == 0 {
                let rest = read_pages(&full, budget.max(300), Resume::TextBefore {
                    offset: kept_end as u64,
                    before_end: before_end as u64,
                });
                prop_assert_eq!(rest.as_str(), &full[kept_end..full.len() - before_end]);
            }
        }
    }
}

#[test]
fn a_secret_on_the_last_line_of_the_head_is_redacted() {
    let (raw, planted) = leaky_text(3, 400, &[(5, 9), (6, 4), (7, 13)], false, false);
    let redactor = Redactor::new(&RedactSpec::default()).unwrap_or_else(|e| panic!("{e}"));
    let full = redactor.redact_text(&raw, &mut RedactionCounts::default()).into_owned();
    // Parts that end inside each planted line, at every byte of it.
    let first = raw.find("ghp_").unwrap_or(0);
    let last = raw.find("stripe client").unwrap_or(0) + 40;
    let mut reads = 0;
    for part in (first - 10..last).step_by(7) {
        if let Some(read) = first_read(&raw, 2000, part, &redactor) {
            check(&read, &full, &planted).unwrap_or_else(|e| panic!("part {part}: {e}"));
            reads += 1;
        }
    }
    assert!(reads > 10, "{reads}");
}

#[test]
fn a_pattern_across_lines_redacts_the_whole_text() {
    let (raw, _) = leaky_text(5, 300, &[], false, false);
    let spec = RedactSpec {
        patterns: vec![CustomPattern { name: "span".into(), pattern: r"(?s)req=\w+.*?DEBUG".into() }],
        ..RedactSpec::default()
    };
    let redactor = Redactor::new(&spec).unwrap_or_else(|e| panic!("{e}"));
    assert!(first_read(&raw, 300, 1000, &redactor).is_none());
    let line_local = RedactSpec {
        patterns: vec![CustomPattern { name: "req".into(), pattern: r"req=[0-9a-f]{12}".into() }],
        ..RedactSpec::default()
    };
    let redactor = Redactor::new(&line_local).unwrap_or_else(|e| panic!("{e}"));
    let read = first_read(&raw, 300, 1000, &redactor).unwrap_or_else(|| panic!("read in parts"));
    let full = redactor.redact_text(&raw, &mut RedactionCounts::default()).into_owned();
    check(&read, &full, &[]).unwrap_or_else(|e| panic!("{e}"));
    assert!(read.data.contains("[REQ]"));
}

#[test]
fn level_counts_of_parts_say_what_they_cover() {
    let (raw, _) = leaky_text(9, 3000, &[], false, false);
    let redactor = Redactor::new(&RedactSpec::default()).unwrap_or_else(|e| panic!("{e}"));
    let read = first_read(&raw, 400, 4000, &redactor).unwrap_or_else(|| panic!("read in parts"));
    assert!(read.summary.contains("log levels in the first "), "{}", read.summary);
    assert!(read.summary.contains(" and the last "), "{}", read.summary);
    assert!(!read.summary.contains("log levels: "), "{}", read.summary);
}

/// Regression: a mask that asks for level counts (`log_levels: true`, the quickstart's
/// `recent_errors`) got counts of the head and tail only once large texts were read in parts,
/// so "how many ERROR lines" in a 50,000-line log had no answer. Asked for, they are of every
/// line, as counting the whole text gives them; unset, they stay those of the parts.
#[test]
fn level_counts_asked_for_are_of_every_line() {
    let (raw, _) = leaky_text(9, 3000, &[], false, false);
    let exact = crate::logs::level_counts(&raw).phrase().unwrap_or_else(|| panic!("a log"));
    let next = OffsetContinuation { tool: "read".into(), base: serde_json::Map::new() };
    let ctx = first_context(&next);
    for (asked, whole) in [(Some(true), true), (None, false)] {
        let mut plan = ShapePlan { budget_tokens: 400, ..ShapePlan::default() };
        plan.text.log_levels = asked;
        let shaper = crate::Shaper::new(plan).unwrap_or_else(|e| panic!("{e}"));
        let first = shaper.shape(raw.as_bytes(), &ctx).unwrap_or_else(|e| panic!("{e}"));
        let summary = &first.envelope.summary;
        assert!(matches!(first.envelope.data, Data::Text(_)), "{summary}");
        assert_eq!(summary.contains(&format!("log levels: {exact}")), whole, "{asked:?}: {summary}");
        assert_eq!(summary.contains("log levels in the first "), !whole, "{asked:?}: {summary}");
    }
    // Turned off, none at all.
    let mut plan = ShapePlan { budget_tokens: 400, ..ShapePlan::default() };
    plan.text.log_levels = Some(false);
    let shaper = crate::Shaper::new(plan).unwrap_or_else(|e| panic!("{e}"));
    let first = shaper.shape(raw.as_bytes(), &ctx).unwrap_or_else(|e| panic!("{e}"));
    assert!(!first.envelope.summary.contains("log levels"), "{}", first.envelope.summary);
}

/// Through the shaper, as the gateway and the CLI run it: a first read in parts, then every
/// page of the snapshot from its cursor, give back the whole redacted text, in both
/// renderings and with or without a tail.
#[test]
fn the_shaper_reads_a_large_text_in_parts_and_pages_give_back_the_rest() {
    let (raw, planted) = leaky_text(21, 1500, &[(3, 4), (700, 9), (1497, 13), (1499, 19)], false, true);
    assert!(raw.len() > 8 * first_part(&ShapePlan { budget_tokens: 250, ..ShapePlan::default() }));
    for (keep, render) in
        [(TextKeep::HeadTail, crate::plan::RenderMode::Json), (TextKeep::Head, crate::plan::RenderMode::Prose)]
    {
        let mut plan = ShapePlan { budget_tokens: 250, render, ..ShapePlan::default() };
        plan.text.keep = keep;
        plan.auto.tail = false;
        let shaper = crate::Shaper::new(plan).unwrap_or_else(|e| panic!("{e}"));
        let next = OffsetContinuation { tool: "read".into(), base: serde_json::Map::new() };
        let ctx = |resume| ShapeContext {
            tool: "t",
            tokenizer: Tokenizer::default(),
            nonce: "0123456789",
            now_unix: None,
            resume,
            continuation: &next,
        };
        let first = shaper.shape(raw.as_bytes(), &ctx(None)).unwrap_or_else(|e| panic!("{e}"));
        assert!(first.envelope.summary.contains("log levels in the first"), "{}", first.envelope.summary);
        let snapshot = shaper.snapshot(raw.as_bytes(), &ctx(None));
        let full = String::from_utf8(snapshot.bytes.clone()).unwrap_or_default();
        let Data::Text(shown) = &first.envelope.data else { panic!("no text") };
        let args = first.envelope.next.as_ref().map(|n| n.arguments.clone()).unwrap_or_default();
        let byte = args.get("byte").and_then(Value::as_u64).unwrap_or(0) as usize;
        let before_end = args.get("before_end").and_then(Value::as_u64);
        assert_eq!(before_end.is_some(), keep == TextKeep::HeadTail, "{args:?}");
        let tail = &full[full.len() - before_end.unwrap_or(0) as usize..];
        assert!(shown.starts_with(&full[..byte]) && shown.ends_with(tail));
        let resume = match before_end {
            Some(before_end) => Resume::TextBefore { offset: byte as u64, before_end },
            None => Resume::Text { offset: byte as u64, end: None },
        };
        let mut read = full[..byte].to_owned();
        let pages = shaper.for_pages();
        let mut resume = Some(resume);
        for _ in 0..10_000 {
            let Some(r) = resume.take() else { break };
            let page = pages.shape(&snapshot.bytes, &ctx(Some(r))).unwrap_or_else(|e| panic!("{e}"));
            assert!(page.text.len() < 250 * 16);
            for secret in &planted {
                assert!(!page.text.contains(secret.as_str()), "{secret}");
            }
            if let Data::Text(t) = &page.envelope.data {
                read.push_str(t);
            }
            resume = page.envelope.next.as_ref().map(|n| {
                let byte = n.arguments.get("byte").and_then(Value::as_u64).unwrap_or(0);
                match n.arguments.get("before_end").and_then(Value::as_u64) {
                    Some(before_end) => Resume::TextBefore { offset: byte, before_end },
                    None => Resume::Text { offset: byte, end: n.arguments.get("end").and_then(Value::as_u64) },
                }
            });
        }
        read.push_str(tail);
        assert!(read == full, "pages give back the whole redacted text ({keep:?})");
        for secret in &planted {
            assert!(!first.text.contains(secret.as_str()) && !full.contains(secret.as_str()), "{secret}");
        }
    }
}

/// Regression: a gapped log whose map took the summary past a 200-token budget was refused
/// ("needs at least 204"); the map is dropped instead and the text is still shown.
#[test]
fn a_tight_budget_drops_the_map_before_it_refuses_the_text() {
    let (raw, planted) =
        leaky_text(2190889366939404462, 57, &[(0, 0), (0, 2), (39, 20), (28, 19), (0, 4)], false, false);
    let redactor = Redactor::new(&RedactSpec::default()).unwrap_or_else(|e| panic!("{e}"));
    let full = redactor.redact_text(&raw, &mut RedactionCounts::default()).into_owned();
    let roomy = first_read(&raw, 1200, 3823, &redactor).expect("a gapped read");
    assert!(roomy.summary.contains("key=value fields"), "{}", roomy.summary);
    let tight = first_read(&raw, 200, 3823, &redactor).expect("a gapped read");
    assert!(!tight.summary.contains("key=value fields"), "{}", tight.summary);
    assert!(tight.summary.contains("log levels"), "{}", tight.summary);
    for budget in 150..1200 {
        let read = first_read(&raw, budget, 3823, &redactor).expect("a gapped read");
        assert!(!read.data.is_empty(), "nothing shown at {budget}");
        assert!(Tokenizer::default().count(&read.rendered) <= budget, "over {budget}");
        check(&read, &full, &planted).unwrap_or_else(|e| panic!("at {budget}: {e}"));
    }
}
