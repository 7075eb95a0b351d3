//! The HTML report rendered by a real browser (headless Chromium): the page parses, renders,
//! and its charts hold the numbers of the span log it was made from.
//!
//! Chromium is required: install it with `apt-get install -y chromium` (Debian and Ubuntu), or
//! point `CHROMIUM` at a Chrome or Chromium binary. `scripts/test.sh` installs it when missing.
//! The test runs when `TOOLSHAPE_HEAVY_TESTS=1` asks for it (as `scripts/test.sh` does), and
//! otherwise skips, saying so.

#![allow(clippy::unwrap_used)]

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{END_MS, expected, generate, write_log};
use regex::Regex;
use toolshape_telemetry::{Report, read_spans};

fn chromium() -> PathBuf {
    if let Some(path) = std::env::var_os("CHROMIUM") {
        return PathBuf::from(path);
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for name in ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"] {
        for dir in std::env::split_paths(&path) {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return candidate;
            }
        }
    }
    panic!(
        "headless Chromium is needed to test the HTML report but was not found on PATH: install it with \
         `sudo apt-get install -y chromium` (or run scripts/test.sh, which does), or set CHROMIUM=/path/to/chromium"
    );
}

/// Run Chromium headless with `args`, returning its standard output; fails after a minute.
fn run_chromium(profile: &Path, args: &[String]) -> String {
    let mut child = Command::new(chromium())
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars"])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("cannot start chromium");
    let stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || std::io::read_to_string(stdout).unwrap());
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "chromium failed: {status}");
            break;
        }
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("chromium did not finish within a minute");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    reader.join().unwrap()
}

fn unescape(text: &str) -> String {
    text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'").replace("&amp;", "&")
}

/// `1234567` → `1,234,567`, written here independently of the crate.
fn with_commas(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[test]
fn the_html_report_renders_in_chromium_with_the_span_log_numbers() {
    if !toolshape_fixtures::heavy::run("headless Chromium") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("spans.sqlite");
    let spans = generate(2_000, 23);
    write_log(&log, &spans);
    let read = read_spans(&log, None, &mut |_| {}).unwrap();
    let html = Report::build(&read, None, END_MS).to_html();
    // Self-contained: nothing is fetched and nothing runs.
    for outside in ["http://", "https://", "<script", "<link", "@import", "url("] {
        assert!(!html.contains(outside), "the page refers to something outside itself: {outside}");
    }
    let page = dir.path().join("report.html");
    std::fs::write(&page, &html).unwrap();
    let url = format!("file://{}", page.display());
    let profile = dir.path().join("profile");

    let dom = run_chromium(&profile, &["--dump-dom".into(), url.clone()]);
    assert!(dom.contains("<svg id=\"tokens-per-tool\""), "chromium did not produce the page's DOM:\n{dom:.2000}");

    let (tools, order) = expected(&spans, None);
    let total_after: u64 = tools.values().map(|e| e.after).sum();
    let total_before: u64 = tools.values().map(|e| e.before).sum();

    // Page totals.
    let main = Regex::new(r#"<main data-calls="(\d+)" data-tokens-before="(\d+)" data-tokens-after="(\d+)""#).unwrap();
    let caps = main.captures(&dom).expect("main element with totals");
    assert_eq!(caps[1].parse::<u64>().unwrap(), spans.len() as u64);
    assert_eq!(caps[2].parse::<u64>().unwrap(), total_before);
    assert_eq!(caps[3].parse::<u64>().unwrap(), total_after);

    // Bars: one row per tool, most costly first, with the figures as attributes and labels.
    let row = Regex::new(
        r#"<g class="tool-row" data-tool="([^"]*)" data-calls="(\d+)" data-tokens-before="(\d+)" data-tokens-after="(\d+)" data-tokens-saved="(-?\d+)">"#,
    )
    .unwrap();
    let rows: Vec<(String, [i64; 4])> = row
        .captures_iter(&dom)
        .map(|c| (unescape(&c[1]), [2, 3, 4, 5].map(|i| c[i].parse::<i64>().unwrap())))
        .collect();
    assert_eq!(rows.iter().map(|(t, _)| t.clone()).collect::<Vec<_>>(), order);
    for (tool, [calls, before, after, saved]) in &rows {
        let e = &tools[tool];
        assert_eq!([*calls, *before, *after], [e.calls, e.before, e.after].map(|n| n as i64), "{tool}");
        assert_eq!(*saved, e.saved, "{tool}");
        assert_eq!(*saved, before - after, "{tool}: saved is before minus after");
    }
    let label = Regex::new(r#"<text class="value (before|after)" data-tool="([^"]*)"[^>]*>([0-9,]+)</text>"#).unwrap();
    let labels: BTreeMap<(String, String), String> =
        label.captures_iter(&dom).map(|c| ((unescape(&c[2]), c[1].to_owned()), c[3].to_owned())).collect();
    for (tool, e) in &tools {
        assert_eq!(labels[&(tool.clone(), "before".to_owned())], with_commas(e.before), "{tool}");
        assert_eq!(labels[&(tool.clone(), "after".to_owned())], with_commas(e.after), "{tool}");
    }
    // Bar lengths follow the figures: the longest bar is the largest figure.
    let bar = Regex::new(r#"<rect class="bar before" data-tool="([^"]*)" data-tokens-before="\d+" x="[^"]*" y="[^"]*" width="([0-9.]+)""#).unwrap();
    let widths: BTreeMap<String, f64> =
        bar.captures_iter(&dom).map(|c| (unescape(&c[1]), c[2].parse().unwrap())).collect();
    let widest = widths.iter().max_by(|a, b| a.1.total_cmp(b.1)).unwrap().0;
    let largest = tools.iter().max_by_key(|(_, e)| e.before).unwrap().0;
    assert_eq!(widest, largest);

    // Donut: one slice per tool with its share of the tokens the model read.
    let slice =
        Regex::new(r#"<circle class="slice" data-tool="([^"]*)" data-share="([0-9.]+)" data-tokens-after="(\d+)""#)
            .unwrap();
    let slices: Vec<(String, f64, u64)> =
        slice.captures_iter(&dom).map(|c| (unescape(&c[1]), c[2].parse().unwrap(), c[3].parse().unwrap())).collect();
    assert_eq!(slices.len(), tools.len());
    for (tool, share, after) in &slices {
        assert_eq!(*after, tools[tool].after, "{tool}");
        assert!((share - tools[tool].after as f64 / total_after as f64).abs() < 1e-6, "{tool}: {share}");
    }

    // Timeline: the points add up to the totals.
    let point = Regex::new(r#"<g class="point" data-start-ms="(-?\d+)" data-calls="(\d+)" data-tokens-before="(\d+)" data-tokens-after="(\d+)""#).unwrap();
    let points: Vec<[u64; 3]> = point.captures_iter(&dom).map(|c| [2, 3, 4].map(|i| c[i].parse().unwrap())).collect();
    assert!(points.len() > 10 && points.len() <= 60, "{} points", points.len());
    let sums = points.iter().fold([0; 3], |acc, p| [acc[0] + p[0], acc[1] + p[1], acc[2] + p[2]]);
    assert_eq!(sums, [spans.len() as u64, total_before, total_after]);

    // It renders to pixels, too.
    let shot = dir.path().join("report.png");
    run_chromium(&profile, &[format!("--screenshot={}", shot.display()), "--window-size=1000,2400".into(), url]);
    let png = std::fs::read(&shot).expect("chromium wrote no screenshot");
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n") && png.len() > 20_000, "screenshot of {} bytes", png.len());
}

/// The page with a script that measures, in the browser's own layout, where each label
/// of the charts was drawn, and writes the boxes into the DOM for `--dump-dom`.
fn with_measurements(html: &str) -> String {
    const MEASURE: &str = r#"<script>
const out = [];
for (const svg of document.querySelectorAll('svg.chart')) {
  const view = svg.viewBox.baseVal;
  for (const t of svg.querySelectorAll('text')) {
    const b = t.getBBox();
    out.push({chart: svg.id, cls: t.getAttribute('class') || '', text: t.firstChild ? t.firstChild.nodeValue : '',
              x: b.x, right: b.x + b.width, width: view.width});
  }
  const bar = svg.querySelector('rect.bar.before[data-tool]');
  if (bar) out.push({chart: svg.id, cls: 'bars-start', text: '', x: bar.x.baseVal.value, right: 0, width: view.width});
}
const pre = document.createElement('pre');
pre.id = 'measured';
pre.textContent = JSON.stringify(out);
document.body.appendChild(pre);
</script>"#;
    html.replace("</body>", &format!("{MEASURE}</body>"))
}

#[test]
fn long_tool_names_and_a_one_second_timeline_stay_inside_the_charts_in_chromium() {
    // All calls within one second; names long, wide, narrow and not ASCII.
    let names = [
        "github__list_issues_for_a_repository_with_labels_and_milestones",
        "WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW",
        "mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm",
        "ツール_検索_とても長い名前のツール_です",
        "lllllllllllllllllllllllllllllllllllllllllllllllllllllllllll",
        "short",
    ];
    let base = END_MS + 7_000;
    let spans: Vec<toolshape_telemetry::Span> = names
        .iter()
        .enumerate()
        .map(|(i, name)| toolshape_telemetry::Span {
            time_ms: base + 100 * i as i64,
            tokens_before: toolshape_telemetry::TokensBefore::Exact(1_000 * (i as u64 + 1)),
            tokens_after: 100 + i as u64,
            ..toolshape_telemetry::Span::new(*name, toolshape_telemetry::CallStatus::Ok)
        })
        .collect();
    let html = Report::build(&spans, None, base + 1_000).to_html();
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("measured.html");
    std::fs::write(&page, with_measurements(&html)).unwrap();
    let dom = run_chromium(
        &dir.path().join("profile"),
        &["--dump-dom".into(), "--virtual-time-budget=5000".into(), format!("file://{}", page.display())],
    );
    let measured = Regex::new(r#"<pre id="measured">(.*?)</pre>"#).unwrap();
    let json = unescape(&measured.captures(&dom).expect("the measuring script did not run")[1]);
    let boxes: Vec<serde_json::Value> = serde_json::from_str(&json).unwrap();
    let f = |b: &serde_json::Value, key: &str| b[key].as_f64().unwrap();
    let of = |chart: &str, cls: &str| -> Vec<&serde_json::Value> {
        boxes.iter().filter(|b| b["chart"] == chart && b["cls"].as_str().unwrap().contains(cls)).collect()
    };

    // Every label of every chart is drawn inside its chart.
    for b in &boxes {
        if b["cls"] == "bars-start" {
            continue;
        }
        assert!(f(b, "x") >= -0.5 && f(b, "right") <= f(b, "width") + 0.5, "label drawn outside its chart: {b}");
    }
    // Tool names end before the bars begin.
    let bars_start = f(of("tokens-per-tool", "bars-start")[0], "x");
    let names_drawn = of("tokens-per-tool", "tool-name");
    assert_eq!(names_drawn.len(), names.len());
    for b in names_drawn {
        assert!(f(b, "x") >= 0.0 && f(b, "right") < bars_start, "tool name clipped or over the bars: {b}");
    }
    // Donut legend names end before the share figures.
    let shares: Vec<f64> = of("share-of-bill", "share-label").iter().map(|b| f(b, "x")).collect();
    let leftmost_share = shares.iter().copied().fold(f64::INFINITY, f64::min);
    for b in of("share-of-bill", "legend-name") {
        assert!(f(b, "right") < leftmost_share, "legend name runs into the share figures: {b}");
    }
    // The timeline's two ends are labelled differently, to the second, without overlapping.
    let start = of("tokens-over-time", "time-start")[0];
    let end = of("tokens-over-time", "time-end")[0];
    assert_ne!(start["text"], end["text"], "one-second timeline labelled the same at both ends");
    assert!(start["text"].as_str().unwrap().ends_with(":07 UTC"), "{start}");
    assert!(end["text"].as_str().unwrap().ends_with(":08 UTC"), "{end}");
    assert!(f(start, "right") < f(end, "x"), "the two time labels overlap");
}
