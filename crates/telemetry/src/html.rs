//! The report as one self-contained HTML page: inline CSS and SVG, no script, no external
//! fonts, styles or images, so it opens from a file and can be mailed around.
//!
//! Charts: tokens before and after shaping per tool (bars), each tool's share of the tokens
//! the model read (donut), and tokens over time (lines). Every figure is written twice: as a
//! visible label, and as `data-*` attributes on the chart element that draws it
//! (`data-tool`, `data-tokens-before`, `data-tokens-after`, `data-share`, ...), so a reader or
//! a test can take the numbers back out of the page.

use std::fmt::Write as _;

use toolshape_shape::thousands;

use crate::report::{
    Report, SAVED_LEGEND, ToolReport, format_time, percent, ratio, saved_share, signed_thousands, window,
};

/// Slice and bar colours, in order of cost; the last is for "other".
const PALETTE: [&str; 8] = ["#2563eb", "#db2777", "#16a34a", "#ea580c", "#7c3aed", "#0891b2", "#ca8a04", "#64748b"];
/// Tools shown by name in the donut; the rest are one "other" slice.
const DONUT_TOOLS: usize = 7;
/// The width of every chart, in SVG units.
const WIDTH: f64 = 820.0;

const STYLE: &str = "
:root { color-scheme: light; --ink: #0f172a; --muted: #64748b; --line: #e2e8f0; --before: #cbd5e1; --after: #2563eb; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; color: var(--ink); background: #f8fafc; }
main { max-width: 900px; margin: 0 auto; padding: 32px 24px 64px; }
h1 { font-size: 26px; margin: 0 0 4px; }
h2 { font-size: 18px; margin: 0 0 4px; }
p.sub, p.note { color: var(--muted); margin: 0 0 16px; }
.cards { display: grid; grid-template-columns: repeat(4, 1fr); gap: 12px; margin: 24px 0; }
.card { background: #fff; border: 1px solid var(--line); border-radius: 10px; padding: 12px 16px; }
.card .label { color: var(--muted); font-size: 13px; }
.card .value { font-size: 24px; font-weight: 650; font-variant-numeric: tabular-nums; }
section { background: #fff; border: 1px solid var(--line); border-radius: 10px; padding: 20px; margin: 0 0 20px; }
svg { display: block; width: 100%; height: auto; }
svg text { font: 12px system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; fill: var(--ink); }
svg text.muted { fill: var(--muted); }
svg .bar.before { fill: var(--before); }
svg .bar.after { fill: var(--after); }
svg .grid { stroke: var(--line); }
svg .line.before { stroke: #94a3b8; }
svg .line.after { stroke: var(--after); }
.table-wrap { overflow-x: auto; }
table { width: 100%; border-collapse: collapse; font-variant-numeric: tabular-nums; font-size: 13px; }
th, td { padding: 6px 8px; border-bottom: 1px solid var(--line); text-align: right; white-space: nowrap; }
th:first-child, td:first-child { text-align: left; }
th.largest, td.largest { text-align: left; white-space: normal; min-width: 150px; }
th { color: var(--muted); font-weight: 600; }
.swatch { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 6px; }
";

impl Report {
    /// The report as a self-contained HTML page.
    pub fn to_html(&self) -> String {
        let mut out = String::with_capacity(16 * 1024);
        let window = match (self.first_ms, self.last_ms) {
            (Some(first), Some(last)) => window(first, last),
            _ => "no calls in this window".to_owned(),
        };
        let _ = writeln!(
            out,
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
             <title>toolshape report</title><style>{STYLE}</style></head>\n<body><main \
             data-calls=\"{}\" data-tokens-before=\"{}\" data-tokens-after=\"{}\" data-tokens-saved=\"{}\" data-tools=\"{}\">\n\
             <h1>Where the context goes</h1><p class=\"sub\">{} · generated {}</p>",
            self.calls,
            self.tokens_before,
            self.tokens_after,
            self.tokens_saved,
            self.tools.len(),
            escape(&window),
            escape(&format_time(self.generated_ms)),
        );
        let saved = saved_share(self.tokens_saved, self.tokens_before);
        let _ = writeln!(
            out,
            "<div class=\"cards\">{}{}{}{}</div>",
            card("calls", &thousands(self.calls), "calls"),
            card("tokens before shaping", &thousands(self.tokens_before), "tokens-before"),
            card("tokens the model read", &thousands(self.tokens_after), "tokens-after"),
            card("saved by shaping", &saved, "saved"),
        );
        if self.tools.is_empty() {
            out.push_str("<section><p>No calls were recorded in this window.</p></section>\n");
        } else {
            self.bars(&mut out);
            self.donut(&mut out);
            self.lines(&mut out);
            self.table(&mut out);
        }
        if let Some(search) = &self.search {
            out.push_str(&search.to_html());
        }
        if self.estimated_calls > 0 {
            let _ = writeln!(
                out,
                "<p class=\"note\">{} call(s) had their tokens before shaping estimated (bytes / 4): too large to \
                 count, or recorded under load.</p>",
                thousands(self.estimated_calls)
            );
        }
        out.push_str("</main></body></html>\n");
        out
    }

    /// Tokens before and after per tool, as pairs of horizontal bars.
    fn bars(&self, out: &mut String) {
        const LABEL: f64 = 230.0;
        const VALUE_ROOM: f64 = 110.0;
        const ROW: f64 = 46.0;
        const TOP: f64 = 28.0;
        let area = WIDTH - LABEL - VALUE_ROOM;
        let max = self.tools.iter().map(|t| t.tokens_before.max(t.tokens_after)).max().unwrap_or(0).max(1) as f64;
        let height = TOP + ROW * self.tools.len() as f64 + 8.0;
        let _ = writeln!(
            out,
            "<section><h2>Tokens before and after shaping, per tool</h2>\
             <p class=\"sub\">Most costly first: what each tool's results weighed, and what the model read of them.</p>\
             <svg id=\"tokens-per-tool\" class=\"chart\" viewBox=\"0 0 {WIDTH} {height}\" role=\"img\" \
             aria-label=\"Tokens before and after shaping per tool\">\
             <rect class=\"bar before\" x=\"{LABEL}\" y=\"6\" width=\"12\" height=\"12\"/>\
             <text x=\"{}\" y=\"16\" class=\"muted\">before shaping</text>\
             <rect class=\"bar after\" x=\"{}\" y=\"6\" width=\"12\" height=\"12\"/>\
             <text x=\"{}\" y=\"16\" class=\"muted\">after shaping (what the model read)</text>",
            LABEL + 18.0,
            LABEL + 130.0,
            LABEL + 148.0,
        );
        for (i, tool) in self.tools.iter().enumerate() {
            let y = TOP + ROW * i as f64;
            let name = escape(&tool.tool);
            let width = |v: u64| if v == 0 { 0.0 } else { (v as f64 / max * area).max(1.5) };
            let (before_w, after_w) = (width(tool.tokens_before), width(tool.tokens_after));
            let _ = writeln!(
                out,
                "<g class=\"tool-row\" data-tool=\"{name}\" data-calls=\"{}\" data-tokens-before=\"{}\" \
                 data-tokens-after=\"{}\" data-tokens-saved=\"{}\">\
                 <text class=\"tool-name\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{}<title>{name}</title></text>\
                 <rect class=\"bar before\" data-tool=\"{name}\" data-tokens-before=\"{}\" x=\"{LABEL}\" y=\"{}\" \
                 width=\"{before_w:.1}\" height=\"16\" rx=\"2\"><title>{name}: {} tokens before shaping</title></rect>\
                 <text class=\"value before\" data-tool=\"{name}\" x=\"{:.1}\" y=\"{}\">{}</text>\
                 <rect class=\"bar after\" data-tool=\"{name}\" data-tokens-after=\"{}\" x=\"{LABEL}\" y=\"{}\" \
                 width=\"{after_w:.1}\" height=\"16\" rx=\"2\"><title>{name}: {} tokens after shaping</title></rect>\
                 <text class=\"value after\" data-tool=\"{name}\" x=\"{:.1}\" y=\"{}\">{}</text></g>",
                tool.calls,
                tool.tokens_before,
                tool.tokens_after,
                tool.tokens_saved,
                LABEL - 10.0,
                y + 23.0,
                escape(&fit(&tool.tool, LABEL - 10.0 - NAME_MARGIN)),
                tool.tokens_before,
                y + 2.0,
                thousands(tool.tokens_before),
                LABEL + before_w + 6.0,
                y + 14.0,
                thousands(tool.tokens_before),
                tool.tokens_after,
                y + 21.0,
                thousands(tool.tokens_after),
                LABEL + after_w + 6.0,
                y + 33.0,
                thousands(tool.tokens_after),
            );
        }
        out.push_str("</svg></section>\n");
    }

    /// Each tool's share of the tokens the model read, as a donut with a legend.
    fn donut(&self, out: &mut String) {
        const CX: f64 = 150.0;
        const CY: f64 = 140.0;
        const R: f64 = 100.0;
        const THICK: f64 = 44.0;
        let circumference = 2.0 * std::f64::consts::PI * R;
        // One tool past the named ones is shown by name: an "other" slice stands for several.
        let named = if self.tools.len() == DONUT_TOOLS + 1 { DONUT_TOOLS + 1 } else { DONUT_TOOLS };
        let mut slices: Vec<(String, u64, f64)> =
            self.tools.iter().take(named).map(|t| (t.tool.clone(), t.tokens_after, t.share)).collect();
        let rest: Vec<&ToolReport> = self.tools.iter().skip(named).collect();
        if !rest.is_empty() {
            let after: u64 = rest.iter().map(|t| t.tokens_after).sum();
            slices.push((format!("other ({} tools)", rest.len()), after, ratio(after, self.tokens_after)));
        }
        let legend_rows = slices.len() as f64;
        let height = (CY * 2.0).max(40.0 + 26.0 * legend_rows);
        let _ = writeln!(
            out,
            "<section><h2>Share of the bill</h2>\
             <p class=\"sub\">Each tool's part of the {} tokens the model read.</p>\
             <svg id=\"share-of-bill\" class=\"chart\" viewBox=\"0 0 {WIDTH} {height}\" role=\"img\" \
             aria-label=\"Share of tokens after shaping per tool\">\
             <circle cx=\"{CX}\" cy=\"{CY}\" r=\"{R}\" fill=\"none\" stroke=\"#f1f5f9\" stroke-width=\"{THICK}\"/>",
            thousands(self.tokens_after)
        );
        let mut offset = 0.0;
        for (i, (raw_name, after, share)) in slices.iter().enumerate() {
            let color = PALETTE[i.min(PALETTE.len() - 1)];
            let length = share * circumference;
            let name = escape(raw_name);
            if length > 0.0 {
                let _ = writeln!(
                    out,
                    "<circle class=\"slice\" data-tool=\"{name}\" data-share=\"{share:.6}\" data-tokens-after=\"{after}\" \
                     cx=\"{CX}\" cy=\"{CY}\" r=\"{R}\" fill=\"none\" stroke=\"{color}\" stroke-width=\"{THICK}\" \
                     stroke-dasharray=\"{length:.3} {:.3}\" stroke-dashoffset=\"{:.3}\" transform=\"rotate(-90 {CX} {CY})\">\
                     <title>{name}: {} ({} tokens)</title></circle>",
                    circumference - length,
                    -offset,
                    percent(*share),
                    thousands(*after),
                );
            }
            offset += length;
            let y = 40.0 + 26.0 * i as f64;
            let _ = writeln!(
                out,
                "<g class=\"legend\" data-tool=\"{name}\" data-share=\"{share:.6}\" data-tokens-after=\"{after}\">\
                 <rect x=\"330\" y=\"{}\" width=\"12\" height=\"12\" rx=\"2\" fill=\"{color}\"/>\
                 <text class=\"legend-name\" x=\"350\" y=\"{y}\">{}<title>{name}</title></text>\
                 <text class=\"share-label\" x=\"{}\" y=\"{y}\" text-anchor=\"end\">{}</text>\
                 <text class=\"muted\" x=\"{}\" y=\"{y}\" text-anchor=\"end\">{} tokens</text></g>",
                y - 10.0,
                escape(&fit(raw_name, LEGEND_TEXT_PX)),
                WIDTH - 150.0,
                percent(*share),
                WIDTH - 10.0,
                thousands(*after),
            );
        }
        let _ = writeln!(
            out,
            "<text x=\"{CX}\" y=\"{}\" text-anchor=\"middle\" style=\"font-size:20px;font-weight:650\">{}</text>\
             <text x=\"{CX}\" y=\"{}\" text-anchor=\"middle\" class=\"muted\">tokens read</text></svg></section>",
            CY + 2.0,
            thousands(self.tokens_after),
            CY + 20.0,
        );
    }

    /// Tokens before and after shaping over time.
    fn lines(&self, out: &mut String) {
        const LEFT: f64 = 80.0;
        const RIGHT: f64 = 20.0;
        const TOP: f64 = 30.0;
        const PLOT: f64 = 200.0;
        const HEIGHT: f64 = TOP + PLOT + 40.0;
        let buckets = &self.timeline;
        let max = buckets.iter().map(|b| b.tokens_before.max(b.tokens_after)).max().unwrap_or(0).max(1) as f64;
        let plot_width = WIDTH - LEFT - RIGHT;
        let x = |i: usize| {
            if buckets.len() <= 1 {
                LEFT + plot_width / 2.0
            } else {
                LEFT + plot_width * i as f64 / (buckets.len() - 1) as f64
            }
        };
        let y = |v: u64| TOP + PLOT - v as f64 / max * PLOT;
        let width_ms = buckets.first().map_or(0, |b| b.end_ms - b.start_ms);
        let _ = writeln!(
            out,
            "<section><h2>Sizes over time</h2>\
             <p class=\"sub\">Tokens per {} before and after shaping.</p>\
             <svg id=\"tokens-over-time\" class=\"chart\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" role=\"img\" \
             aria-label=\"Tokens over time\" data-bucket-ms=\"{width_ms}\">\
             <rect class=\"bar before\" x=\"{LEFT}\" y=\"6\" width=\"12\" height=\"12\"/>\
             <text x=\"{}\" y=\"16\" class=\"muted\">before shaping</text>\
             <rect class=\"bar after\" x=\"{}\" y=\"6\" width=\"12\" height=\"12\"/>\
             <text x=\"{}\" y=\"16\" class=\"muted\">after shaping</text>",
            bucket_name(width_ms),
            LEFT + 18.0,
            LEFT + 130.0,
            LEFT + 148.0,
        );
        for fraction in [0.0, 0.5, 1.0] {
            let value = (max * fraction).round() as u64;
            let gy = y(value);
            let _ = writeln!(
                out,
                "<line class=\"grid\" x1=\"{LEFT}\" x2=\"{}\" y1=\"{gy:.1}\" y2=\"{gy:.1}\"/>\
                 <text class=\"muted axis\" x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
                WIDTH - RIGHT,
                LEFT - 8.0,
                gy + 4.0,
                thousands(value),
            );
        }
        for (class, pick) in [
            ("before", (|b: &crate::report::TimeBucket| b.tokens_before) as fn(&crate::report::TimeBucket) -> u64),
            ("after", |b| b.tokens_after),
        ] {
            let points: Vec<String> =
                buckets.iter().enumerate().map(|(i, b)| format!("{:.1},{:.1}", x(i), y(pick(b)))).collect();
            let _ = writeln!(
                out,
                "<polyline class=\"line {class}\" fill=\"none\" stroke-width=\"2\" points=\"{}\"/>",
                points.join(" ")
            );
        }
        for (i, bucket) in buckets.iter().enumerate() {
            let _ = writeln!(
                out,
                "<g class=\"point\" data-start-ms=\"{}\" data-calls=\"{}\" data-tokens-before=\"{}\" data-tokens-after=\"{}\">\
                 <circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\" fill=\"#94a3b8\"/><circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\" \
                 fill=\"#2563eb\"/><title>{}: {} calls, {} tokens before, {} after</title></g>",
                bucket.start_ms,
                bucket.calls,
                bucket.tokens_before,
                bucket.tokens_after,
                x(i),
                y(bucket.tokens_before),
                x(i),
                y(bucket.tokens_after),
                escape(&axis_time(bucket.start_ms, width_ms)),
                thousands(bucket.calls),
                thousands(bucket.tokens_before),
                thousands(bucket.tokens_after),
            );
        }
        if let (Some(first), Some(last)) = (buckets.first(), buckets.last()) {
            let _ = writeln!(
                out,
                "<text class=\"muted axis time-start\" x=\"{LEFT}\" y=\"{}\">{}</text>\
                 <text class=\"muted axis time-end\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
                HEIGHT - 12.0,
                escape(&axis_time(first.start_ms, width_ms)),
                WIDTH - RIGHT,
                HEIGHT - 12.0,
                escape(&axis_time(last.end_ms, width_ms)),
            );
        }
        out.push_str("</svg></section>\n");
    }

    /// Every figure per tool, and the largest calls.
    fn table(&self, out: &mut String) {
        out.push_str(
            "<section><h2>Per tool</h2><div class=\"table-wrap\"><table id=\"per-tool\"><thead><tr><th>tool</th><th>calls</th>\
             <th>before</th><th>after</th><th>saved</th><th>share</th><th>errors</th>\
             <th class=\"largest\">largest calls (tokens before)</th></tr></thead><tbody>\n",
        );
        for (i, tool) in self.tools.iter().enumerate() {
            let color = PALETTE[i.min(DONUT_TOOLS).min(PALETTE.len() - 1)];
            let largest: Vec<String> = tool.largest.iter().map(|c| thousands(c.tokens_before)).collect();
            let _ = writeln!(
                out,
                "<tr data-tool=\"{}\" data-error-rate=\"{:.6}\"><td><span class=\"swatch\" style=\"background:{color}\">\
                 </span>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{} ({})</td><td>{}</td><td>{}</td><td class=\"largest\">{}</td></tr>",
                escape(&tool.tool),
                tool.error_rate,
                escape(&tool.tool),
                thousands(tool.calls),
                thousands(tool.tokens_before),
                thousands(tool.tokens_after),
                signed_thousands(tool.tokens_saved),
                saved_share(tool.tokens_saved, tool.tokens_before),
                percent(tool.share),
                percent(tool.error_rate),
                largest.join(" · "),
            );
        }
        let _ = writeln!(out, "</tbody></table></div><p class=\"note legend\">{}.</p></section>", escape(SAVED_LEGEND));
    }
}

fn card(label: &str, value: &str, key: &str) -> String {
    format!(
        "<div class=\"card\" data-card=\"{key}\"><div class=\"label\">{}</div><div class=\"value\">{}</div></div>",
        escape(label),
        escape(value)
    )
}

/// The width of a timeline bucket in words.
fn bucket_name(ms: i64) -> String {
    match ms {
        1_000 => "second".into(),
        60_000 => "minute".into(),
        3_600_000 => "hour".into(),
        86_400_000 => "day".into(),
        ms if ms % 86_400_000 == 0 => format!("{} days", ms / 86_400_000),
        ms if ms % 3_600_000 == 0 => format!("{} hours", ms / 3_600_000),
        ms if ms % 60_000 == 0 => format!("{} minutes", ms / 60_000),
        ms => format!("{} seconds", (ms + 999) / 1000),
    }
}

/// The time at a timeline's ends and points, to the second when its buckets are shorter
/// than a minute (else two ends in the same minute would read the same).
fn axis_time(ms: i64, bucket_ms: i64) -> String {
    if bucket_ms >= 60_000 {
        return format_time(ms);
    }
    match jiff::Timestamp::from_millisecond(ms) {
        Ok(ts) => ts.strftime("%Y-%m-%d %H:%M:%S UTC").to_string(),
        Err(_) => ms.to_string(),
    }
}

/// Room kept between a bar chart's tool names and the left edge of the chart, in SVG units.
const NAME_MARGIN: f64 = 4.0;
/// The width a donut legend's tool name may take, in SVG units.
const LEGEND_TEXT_PX: f64 = 250.0;

/// An upper bound on the width of `c` at the charts' 12px font, in SVG units: wider than the
/// glyph in the wide fonts a browser falls back to (DejaVu Sans, Verdana), so a label cut to
/// fit by this measure fits in any of them. Characters outside ASCII (CJK, emoji) count as
/// the widest.
fn char_width(c: char) -> f64 {
    match c {
        'W' | 'M' | 'm' | 'w' | '@' | '%' | '…' => 12.5,
        'I' => 6.0,
        'A'..='Z' => 10.0,
        '0'..='9' | '_' | '#' | '$' | '&' | '+' | '<' | '=' | '>' | '?' | '~' | '^' => 8.5,
        'i' | 'j' | 'l' | 't' | 'f' | 'r' | '.' | ',' | ':' | ';' | '|' | '!' | '\'' | ' ' | '(' | ')' | '[' | ']'
        | '{' | '}' | '/' | '\\' | '-' | '"' | '`' | '*' => 6.0,
        c if c.is_ascii() => 8.5,
        _ => 17.0,
    }
}

/// `text` whole when its estimated width is at most `max_px`, else its start and its end
/// around an ellipsis (tool names differ as often at the end as at the start) within it.
fn fit(text: &str, max_px: f64) -> String {
    let width = |s: &[char]| s.iter().map(|c| char_width(*c)).sum::<f64>();
    let chars: Vec<char> = text.chars().collect();
    if width(&chars) <= max_px {
        return text.to_owned();
    }
    let room = max_px - char_width('…');
    // Two thirds of the room for the start, the rest for the end.
    let (mut head, mut head_px) = (0, 0.0);
    while head < chars.len() && head_px + char_width(chars[head]) <= room * 2.0 / 3.0 {
        head_px += char_width(chars[head]);
        head += 1;
    }
    let (mut tail, mut tail_px) = (chars.len(), 0.0);
    while tail > head && head_px + tail_px + char_width(chars[tail - 1]) <= room {
        tail_px += char_width(chars[tail - 1]);
        tail -= 1;
    }
    let mut out: String = chars[..head].iter().collect();
    out.push('…');
    out.extend(&chars[tail..]);
    out
}

/// Text made safe for HTML content and attribute values.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::span::{CallStatus, Span, TokensBefore};

    #[test]
    fn tool_names_are_escaped() {
        let span = Span {
            tokens_before: TokensBefore::Exact(10),
            tokens_after: 5,
            ..Span::new("<script>alert(\"x\")</script>", CallStatus::Ok)
        };
        let html = Report::build(&[span], None, 0).to_html();
        assert!(!html.contains("<script>"));
        assert!(html.contains("data-tool=\"&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;\""));
    }

    fn span(tool: &str, time_ms: i64, before: u64, after: u64) -> Span {
        Span {
            time_ms,
            tokens_before: TokensBefore::Exact(before),
            tokens_after: after,
            ..Span::new(tool, CallStatus::Ok)
        }
    }

    #[test]
    fn one_tool_past_the_named_ones_is_named_not_other_of_one() {
        let eight: Vec<Span> = (0..8).map(|i| span(&format!("tool{i}"), 0, 1_000, 100 + i)).collect();
        let html = Report::build(&eight, None, 0).to_html();
        assert!(!html.contains("other ("), "eight tools are eight slices");
        assert_eq!(html.matches("<circle class=\"slice\"").count(), 8);
        assert!(html.contains("<circle class=\"slice\" data-tool=\"tool0\""), "the cheapest tool has its own slice");

        let nine: Vec<Span> = (0..9).map(|i| span(&format!("tool{i}"), 0, 1_000, 100 + i)).collect();
        let html = Report::build(&nine, None, 0).to_html();
        assert!(html.contains("data-tool=\"other (2 tools)\""), "two cheapest tools share a slice");
        assert!(!html.contains("(1 tools)"));
    }

    #[test]
    fn a_timeline_within_one_second_has_distinct_start_and_end_labels() {
        let base = 1_796_083_200_000 + 5_000;
        let spans = [span("a", base + 10, 100, 10), span("b", base + 400, 200, 20), span("a", base + 990, 50, 5)];
        let html = Report::build(&spans, None, base + 1_000).to_html();
        let label = |class: &str| {
            let at = html.find(&format!("class=\"muted axis {class}\"")).unwrap();
            let text = &html[at..];
            text[text.find('>').unwrap() + 1..text.find("</text>").unwrap()].to_owned()
        };
        assert_eq!(label("time-start"), "2026-12-01 00:00:05 UTC");
        assert_eq!(label("time-end"), "2026-12-01 00:00:06 UTC");
        assert!(html.contains("2026-12-01 00:00:05 UTC, within one second"), "the page's window says so too");

        // Buckets of a minute or more keep minute labels, and the two ends still differ.
        let spans = [span("a", base, 1, 1), span("a", base + 3 * 3_600_000, 1, 1)];
        let html = Report::build(&spans, None, base).to_html();
        assert!(
            html.contains(">2026-12-01 00:00 UTC</text>") && html.contains(">2026-12-01 03:05 UTC</text>"),
            "{html}"
        );
    }

    #[test]
    fn long_names_are_cut_in_the_middle_to_the_room_they_have() {
        assert_eq!(fit("list_issues", 200.0), "list_issues");
        let long = "github__list_issues_for_a_repository_with_labels";
        let cut = fit(long, 216.0);
        assert!(cut.starts_with("github__list") && cut.ends_with("labels") && cut.contains('…'), "{cut}");
        assert!(cut.chars().map(char_width).sum::<f64>() <= 216.0, "{cut}");
        for name in ["W".repeat(60), "ツール".repeat(20), "x".repeat(3)] {
            let cut = fit(&name, 100.0);
            assert!(cut.chars().map(char_width).sum::<f64>() <= 100.0, "{cut}");
            assert!(!cut.is_empty());
        }
    }

    #[test]
    fn negative_savings_are_shown_with_their_sign_and_explained() {
        let html = Report::build(&[span("tiny", 0, 10, 70)], None, 0).to_html();
        assert!(html.contains("<td>-60 (-600.0%)</td>"), "{html}");
        assert!(html.contains("data-tokens-saved=\"-60\""));
        assert!(html.contains("negative where shaping cost tokens"));
    }

    #[test]
    fn an_empty_report_still_renders() {
        let html = Report::build(&[], None, 0).to_html();
        assert!(html.contains("No calls were recorded"));
        assert!(html.ends_with("</html>\n"));
    }
}
