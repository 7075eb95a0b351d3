//! Readers of the cli half's text results, each making records of what a tool printed,
//! values kept as they are written so an answer reads as it does in the output: the
//! sections of `redis-cli INFO`, the samples of `vmstat -w -t`, the rows of `systemctl
//! list-timers` and the entries of `git status --porcelain=v2`.

use crate::question::{Kind, Question};
use crate::questions_blind::{at, together};

/// A lookup of the item `f` of the way down `items`: the question `text` gives, found by
/// the needle `needle` gives, answered by the needle and what `answer` gives, together;
/// none when any of them is empty.
pub(crate) fn lookup_at<T>(
    items: &[T],
    f: f64,
    text: impl Fn(&T) -> String,
    needle: impl Fn(&T) -> String,
    answer: impl Fn(&T) -> Vec<String>,
) -> Option<Question> {
    let item = items.get(at(items.len(), f))?;
    let needle = needle(item);
    let mut must = vec![needle.clone()];
    must.extend(answer(item));
    if must.iter().any(String::is_empty) {
        return None;
    }
    let must: Vec<&str> = must.iter().map(String::as_str).collect();
    Some(together(Kind::Lookup, text(item), Some(&needle), &must))
}

/// One `key:value` line of `INFO`, with the section it is in.
#[derive(Debug, Clone)]
pub(crate) struct InfoLine {
    pub(crate) section: String,
    pub(crate) key: String,
    pub(crate) value: String,
}

impl InfoLine {
    /// A field of a `a=1,b=2` value (`calls`, `p99`, `keys`), as written.
    pub(crate) fn field(&self, name: &str) -> Option<&str> {
        self.value.split(',').find_map(|kv| kv.split_once('=').filter(|(k, _)| *k == name).map(|(_, v)| v))
    }

    /// A field of the value as a number.
    pub(crate) fn number(&self, name: &str) -> Option<f64> {
        self.field(name)?.parse().ok()
    }
}

/// Every `key:value` line of `redis-cli INFO`, in order, with its section; `\r` dropped.
pub(crate) fn info_lines(t: &str) -> Vec<InfoLine> {
    let mut section = String::new();
    let mut all = Vec::new();
    for line in t.lines().map(|l| l.trim_end_matches('\r')) {
        if let Some(title) = line.strip_prefix("# ") {
            section = title.to_owned();
        } else if let Some((key, value)) = line.split_once(':') {
            all.push(InfoLine { section: section.clone(), key: key.to_owned(), value: value.to_owned() });
        }
    }
    all
}

/// The column names of `vmstat`'s sample lines, in order.
pub(crate) const VMSTAT_COLUMNS: [&str; 18] =
    ["r", "b", "swpd", "free", "buff", "cache", "si", "so", "bi", "bo", "in", "cs", "us", "sy", "id", "wa", "st", "gu"];

/// One sample line of `vmstat -t`: its values as written and its timestamp.
#[derive(Debug, Clone)]
pub(crate) struct VmSample {
    pub(crate) values: Vec<String>,
    /// `2026-12-07 06:20:00`.
    pub(crate) stamp: String,
}

impl VmSample {
    /// The value of `column` as written.
    pub(crate) fn get(&self, column: &str) -> String {
        VMSTAT_COLUMNS.iter().position(|c| *c == column).and_then(|i| self.values.get(i)).cloned().unwrap_or_default()
    }

    /// The value of `column` as a number.
    pub(crate) fn num(&self, column: &str) -> u64 {
        self.get(column).parse().unwrap_or(0)
    }
}

/// Every sample line of `vmstat -t`, in order, headers (and repeated headers) passed over.
pub(crate) fn vmstat_samples(t: &str) -> Vec<VmSample> {
    t.lines()
        .filter_map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            if words.len() != VMSTAT_COLUMNS.len() + 2 || words[0].parse::<u64>().is_err() {
                return None;
            }
            let n = VMSTAT_COLUMNS.len();
            Some(VmSample {
                values: words[..n].iter().map(|w| (*w).to_owned()).collect(),
                stamp: format!("{} {}", words[n], words[n + 1]),
            })
        })
        .collect()
}

/// One row of `systemctl list-timers`, its cells as printed (`-` where empty).
#[derive(Debug, Clone)]
pub(crate) struct TimerRow {
    /// `Mon 2026-12-07 06:25:00 UTC` or `-`.
    pub(crate) next: String,
    /// `4min 12s` or `-`.
    pub(crate) left: String,
    pub(crate) last: String,
    /// `47s ago` or `-`.
    pub(crate) passed: String,
    pub(crate) unit: String,
    pub(crate) activates: String,
}

/// The sortable part of a list-timers time (`2026-12-07 06:25:00`), empty for `-`.
pub(crate) fn sortable(time: &str) -> String {
    let words: Vec<&str> = time.split(' ').collect();
    if words.len() >= 3 { format!("{} {}", words[1], words[2]) } else { String::new() }
}

const WEEKDAYS: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

/// A time cell at the start of `words` (`-`, or weekday, date, time and zone) and the rest.
fn take_time<'a>(words: &'a [&'a str]) -> Option<(String, &'a [&'a str])> {
    match words.first()? {
        &"-" => Some(("-".to_owned(), &words[1..])),
        w if WEEKDAYS.contains(w) && words.len() >= 4 => Some((words[..4].join(" "), &words[4..])),
        _ => None,
    }
}

/// Every row of `systemctl list-timers`, in order: the lines between the header and the
/// blank line before the footer.
pub(crate) fn timer_rows(t: &str) -> Vec<TimerRow> {
    let mut all = Vec::new();
    for line in t.lines().skip(1) {
        if line.trim().is_empty() {
            break;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.len() < 6 {
            continue;
        }
        let (unit, activates) = (words[words.len() - 2], words[words.len() - 1]);
        let cells = &words[..words.len() - 2];
        let Some((next, rest)) = take_time(cells) else { continue };
        // LEFT runs up to the LAST cell: a weekday, or `-`.
        let left_len = if next == "-" {
            1
        } else {
            rest.iter().position(|w| *w == "-" || WEEKDAYS.contains(w)).unwrap_or(rest.len())
        };
        let left = rest[..left_len.min(rest.len())].join(" ");
        let Some((last, passed)) = take_time(&rest[left_len.min(rest.len())..]) else { continue };
        all.push(TimerRow {
            next,
            left,
            last,
            passed: passed.join(" "),
            unit: unit.to_owned(),
            activates: activates.to_owned(),
        });
    }
    all
}

/// One entry of `git status --porcelain=v2`.
#[derive(Debug, Clone, Default)]
pub(crate) struct GitEntry {
    /// `1`, `2`, `u`, `?` or `!`.
    pub(crate) kind: char,
    /// The XY status (`M.`, `.M`, `R.`, `UU`…); empty for `?` and `!`.
    pub(crate) xy: String,
    /// The object name in the index (`<hI>`), for `1` and `2` entries.
    pub(crate) index: String,
    pub(crate) path: String,
    /// The path a rename or copy came from.
    pub(crate) orig: String,
}

/// The `# branch.*` headers (`branch.head`, value) and every entry of `git status
/// --porcelain=v2`, in order.
pub(crate) fn git_status(t: &str) -> (Vec<(String, String)>, Vec<GitEntry>) {
    let mut headers = Vec::new();
    let mut entries = Vec::new();
    for line in t.lines() {
        if let Some(h) = line.strip_prefix("# ") {
            if let Some((k, v)) = h.split_once(' ') {
                headers.push((k.to_owned(), v.to_owned()));
            }
            continue;
        }
        let Some(kind) = line.chars().next() else { continue };
        let entry = match kind {
            '?' | '!' => GitEntry { kind, path: line[2..].to_owned(), ..GitEntry::default() },
            '1' | '2' | 'u' => {
                // Fields before the path: 8 for `1`, 9 for `2` (with the score), 10 for `u`.
                let fields = match kind {
                    '1' => 8,
                    '2' => 9,
                    _ => 10,
                };
                let parts: Vec<&str> = line.splitn(fields + 1, ' ').collect();
                let Some(rest) = parts.get(fields) else { continue };
                let (path, orig) = rest.split_once('\t').unwrap_or((rest, ""));
                GitEntry {
                    kind,
                    xy: parts[1].to_owned(),
                    index: if kind == 'u' { String::new() } else { parts[7].to_owned() },
                    path: path.to_owned(),
                    orig: orig.to_owned(),
                }
            }
            _ => continue,
        };
        entries.push(entry);
    }
    (headers, entries)
}
