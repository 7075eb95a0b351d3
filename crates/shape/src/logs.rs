//! Log level awareness for text results: which lines carry a level, and how many of each,
//! so a text summary can say "ERROR 12, WARN 340" and a reader can ask for one level.
//!
//! Only the first [`SCAN_BYTES`] bytes of a line are read, which is where every common format
//! puts its level, so the cost per line is bounded whatever the line's length, and counting
//! 100 MB takes about a second in a release build.
//!
//! Recognised, in order of trust:
//! 1. a level field: `level=error`, `lvl=warn`, `"level":"warn"`, `"severity": "ERROR"`,
//!    `levelname`, `log_level`, `log.level`, and pino's numbers (`"level":50` is `ERROR`);
//!    this wins over anything else on the line, so a JSON log's message cannot override it;
//! 2. glog's prefix: `E1130 12:34:56.789 ...` (`I`, `W`, `E`, `F`);
//! 3. otherwise the first of:
//!    - an upper-case level word anywhere: `ERROR`, `WARN`, `WARNING`, `CRITICAL`, `INFO`,
//!      `ERR`, `WRN`, `DBG`, logrus' `ERRO`, `WARN`, `DEBU`, ...;
//!    - a level word in brackets, in any case: `[error]`, `[ Warn ]`, `<info>`, and single
//!      upper-case letters `[E]`, `[W]`, `[I]`, `[D]`;
//!    - a level word and a colon at the start of the line, in any case, as compilers and
//!      command-line tools write them: `error: ...`, `warning: ...`, `error[E0308]: ...`,
//!      `fatal: ...` (git), `panic: ...` (Go), and .NET's `fail:`, `crit:`, `dbug:`;
//!    - a capitalised `Error:`, `Warning:`, `Fatal:` or `Critical:` anywhere;
//!    - PostgreSQL's `LOG:`, in upper case and followed by a colon, as `INFO`.
//!
//! Deliberately not counted: lower-case level words in running prose (`no error found`,
//! `retry on error`), plurals and other words (`errors: 0`, `warnings: 3`, `ERRORS`,
//! `ERROR_CODE`), and single letters outside brackets. A word cut by the scan limit is not
//! judged. `CRITICAL`, `PANIC`, `EMERG` and `ALERT` count as [`Level::Fatal`]; `SEVERE` as
//! [`Level::Error`]; `NOTICE` as [`Level::Info`]; `FINE` as [`Level::Debug`]; `FINER`,
//! `FINEST` and `VERBOSE` as [`Level::Trace`].

use std::fmt;
use std::str::FromStr;

use crate::numfmt::thousands;

/// Bytes of a line that are read to find its level.
pub const SCAN_BYTES: usize = 120;

/// A log level, most severe first (so `Level::Fatal < Level::Error`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Level {
    /// FATAL, CRITICAL, PANIC, EMERG, ALERT.
    Fatal,
    /// ERROR, ERR, SEVERE.
    Error,
    /// WARN, WARNING.
    Warn,
    /// INFO, NOTICE.
    Info,
    /// DEBUG, FINE.
    Debug,
    /// TRACE, FINER, FINEST, VERBOSE.
    Trace,
}

impl Level {
    /// Every level, most severe first.
    pub const ALL: [Level; 6] = [Level::Fatal, Level::Error, Level::Warn, Level::Info, Level::Debug, Level::Trace];

    /// The canonical name: `FATAL`, `ERROR`, `WARN`, `INFO`, `DEBUG`, `TRACE`.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Fatal => "FATAL",
            Level::Error => "ERROR",
            Level::Warn => "WARN",
            Level::Info => "INFO",
            Level::Debug => "DEBUG",
            Level::Trace => "TRACE",
        }
    }

    /// A level from a name in any case, synonyms included (`warning`, `critical`, `err`).
    pub fn from_name(name: &str) -> Option<Level> {
        let b = name.trim().as_bytes();
        let mut buf = [0u8; 16];
        value_level(lower(b, &mut buf)?)
    }

    /// Whether this level is `other` or more severe: `Error.is_at_least(Warn)` is true.
    pub fn is_at_least(self, other: Level) -> bool {
        self <= other
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a level name was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown log level `{0}`: use one of FATAL, ERROR, WARN, INFO, DEBUG, TRACE")]
pub struct LevelError(pub String);

impl FromStr for Level {
    type Err = LevelError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Level::from_name(s).ok_or_else(|| LevelError(s.chars().take(40).collect()))
    }
}

/// The level a log line carries, if any. See the module documentation for the formats.
pub fn line_level(line: &str) -> Option<Level> {
    level_of(line.as_bytes()).map(|(level, _)| level)
}

/// Which word stated a line's level, where a level has a long form in common use
/// (Python's `logging` writes `WARNING` and `CRITICAL`): a summary names the level as the
/// text does, so a reader asked about `WARNING` lines finds that word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Spelled {
    Warning,
    Critical,
    Other,
}

fn spelled(lw: &[u8]) -> Spelled {
    match lw {
        b"warning" => Spelled::Warning,
        b"critical" => Spelled::Critical,
        _ => Spelled::Other,
    }
}

/// How many lines spelled their level in the long form. Not part of what the counts
/// compare: two counts of the same lines are equal however the lines spell their levels.
#[derive(Debug, Clone, Copy, Default)]
struct Spellings {
    warning: u64,
    critical: u64,
}

impl PartialEq for Spellings {
    fn eq(&self, _: &Spellings) -> bool {
        true
    }
}

impl Eq for Spellings {}

/// Lines per level in a text.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct LevelCounts {
    /// Lines in the text (a last line without a line break counts; an empty text has none).
    pub lines: u64,
    /// Lines at [`Level::Fatal`].
    #[serde(skip_serializing_if = "is_zero")]
    pub fatal: u64,
    /// Lines at [`Level::Error`].
    #[serde(skip_serializing_if = "is_zero")]
    pub error: u64,
    /// Lines at [`Level::Warn`].
    #[serde(skip_serializing_if = "is_zero")]
    pub warn: u64,
    /// Lines at [`Level::Info`].
    #[serde(skip_serializing_if = "is_zero")]
    pub info: u64,
    /// Lines at [`Level::Debug`].
    #[serde(skip_serializing_if = "is_zero")]
    pub debug: u64,
    /// Lines at [`Level::Trace`].
    #[serde(skip_serializing_if = "is_zero")]
    pub trace: u64,
    #[serde(skip)]
    spellings: Spellings,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// Count lines per level. Lines are found with `memchr`; `\r\n` endings are fine.
pub fn level_counts(text: &str) -> LevelCounts {
    let bytes = text.as_bytes();
    let mut counts = LevelCounts::default();
    let mut start = 0;
    for nl in memchr::memchr_iter(b'\n', bytes) {
        counts.add_bytes(&bytes[start..nl]);
        start = nl + 1;
    }
    if start < bytes.len() {
        counts.add_bytes(&bytes[start..]);
    }
    counts
}

impl LevelCounts {
    /// Count one more line (without its line break).
    pub fn add_line(&mut self, line: &str) {
        self.add_bytes(line.as_bytes());
    }

    fn add_bytes(&mut self, line: &[u8]) {
        self.lines += 1;
        if let Some((level, word)) = level_of(line) {
            *self.slot(level) += 1;
            match word {
                Spelled::Warning => self.spellings.warning += 1,
                Spelled::Critical => self.spellings.critical += 1,
                Spelled::Other => {}
            }
        }
    }

    fn slot(&mut self, level: Level) -> &mut u64 {
        match level {
            Level::Fatal => &mut self.fatal,
            Level::Error => &mut self.error,
            Level::Warn => &mut self.warn,
            Level::Info => &mut self.info,
            Level::Debug => &mut self.debug,
            Level::Trace => &mut self.trace,
        }
    }

    /// Add the lines and counts of `other` (another part of the same text).
    pub fn merge(&mut self, other: &LevelCounts) {
        self.lines += other.lines;
        for level in Level::ALL {
            *self.slot(level) += other.get(level);
        }
        self.spellings.warning += other.spellings.warning;
        self.spellings.critical += other.spellings.critical;
    }

    /// Lines at `level`.
    pub fn get(&self, level: Level) -> u64 {
        match level {
            Level::Fatal => self.fatal,
            Level::Error => self.error,
            Level::Warn => self.warn,
            Level::Info => self.info,
            Level::Debug => self.debug,
            Level::Trace => self.trace,
        }
    }

    /// Lines that carry any level.
    pub fn leveled(&self) -> u64 {
        Level::ALL.iter().map(|&l| self.get(l)).sum()
    }

    /// "ERROR 12, WARN 340": every level seen, most severe first; `None` when none was.
    /// A level most of whose lines wrote it in its long form is named so (`WARNING 340`).
    pub fn phrase(&self) -> Option<String> {
        let name = |l: Level| match l {
            Level::Warn if self.spellings.warning * 2 > self.warn => "WARNING",
            Level::Fatal if self.spellings.critical * 2 > self.fatal => "CRITICAL",
            _ => l.as_str(),
        };
        let parts: Vec<String> = Level::ALL
            .iter()
            .filter(|&&l| self.get(l) > 0)
            .map(|&l| format!("{} {}", name(l), thousands(self.get(l))))
            .collect();
        (!parts.is_empty()).then(|| parts.join(", "))
    }

    /// Whether the text reads as a log: at least 3 lines, and at least a fifth of all lines,
    /// carry a level. A fifth, not a majority, because stack traces and wrapped messages add
    /// lines without one.
    pub fn looks_like_log(&self) -> bool {
        let leveled = self.leveled();
        leveled >= 3 && leveled.saturating_mul(5) >= self.lines
    }
}

fn is_word(b: u8) -> bool {
    // Bytes of non-ASCII characters count as word bytes so `ERRORé` stays one word.
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

/// `word` in lower case in `buf`, or `None` when it is longer than any name we know.
fn lower<'b>(word: &[u8], buf: &'b mut [u8; 16]) -> Option<&'b [u8]> {
    let out = buf.get_mut(..word.len())?;
    for (o, &b) in out.iter_mut().zip(word) {
        *o = b.to_ascii_lowercase();
    }
    Some(out)
}

/// Level words valid as a value (`level=...`) or in brackets, in any case.
fn value_level(w: &[u8]) -> Option<Level> {
    Some(match w {
        b"fatal" | b"fata" | b"critical" | b"crit" | b"crt" | b"panic" | b"pani" | b"emerg" | b"emergency"
        | b"alert" | b"ftl" => Level::Fatal,
        b"error" | b"err" | b"erro" | b"eror" | b"severe" | b"fail" => Level::Error,
        b"warn" | b"warning" | b"wrn" => Level::Warn,
        b"info" | b"inf" | b"information" | b"informational" | b"notice" => Level::Info,
        b"debug" | b"debu" | b"dbg" | b"dbug" | b"fine" => Level::Debug,
        b"trace" | b"trac" | b"trc" | b"trce" | b"finer" | b"finest" | b"verbose" => Level::Trace,
        _ => return None,
    })
}

/// Level words that count bare, when written in upper case.
fn upper_level(w: &[u8]) -> Option<Level> {
    match w {
        // Ordinary words that are levels only by convention in some formats.
        b"fine" | b"finer" | b"finest" | b"fail" | b"information" | b"informational" | b"eror" => None,
        _ => value_level(w),
    }
}

/// Level words that count at the start of a line when followed by a colon.
fn colon_level(w: &[u8]) -> Option<Level> {
    Some(match w {
        b"fatal" | b"panic" | b"critical" | b"crit" => Level::Fatal,
        b"error" | b"err" | b"fail" => Level::Error,
        b"warning" | b"warn" => Level::Warn,
        b"info" | b"notice" => Level::Info,
        b"debug" | b"dbug" => Level::Debug,
        b"trace" | b"trce" => Level::Trace,
        _ => return None,
    })
}

/// Level words that count anywhere when capitalised and followed by a colon.
fn title_level(w: &[u8]) -> Option<Level> {
    Some(match w {
        b"fatal" | b"critical" => Level::Fatal,
        b"error" => Level::Error,
        b"warning" => Level::Warn,
        _ => return None,
    })
}

fn is_level_key(w: &[u8]) -> bool {
    matches!(w, b"level" | b"lvl" | b"severity" | b"loglevel" | b"log_level" | b"levelname" | b"severitytext")
}

/// pino's numeric levels.
fn numeric_level(digits: &[u8]) -> Option<Level> {
    Some(match digits {
        b"10" => Level::Trace,
        b"20" => Level::Debug,
        b"30" => Level::Info,
        b"40" => Level::Warn,
        b"50" => Level::Error,
        b"60" => Level::Fatal,
        _ => return None,
    })
}

fn skip_spaces(w: &[u8], mut i: usize) -> usize {
    while i < w.len() && (w[i] == b' ' || w[i] == b'\t') {
        i += 1;
    }
    i
}

/// The level in `level=error`, `"level": "warn"`, `level: 50`, starting just after the key.
fn key_value(w: &[u8], mut i: usize) -> Option<(Level, Spelled)> {
    if i < w.len() && (w[i] == b'"' || w[i] == b'\'') {
        i += 1;
    }
    i = skip_spaces(w, i);
    if i >= w.len() || (w[i] != b':' && w[i] != b'=') {
        return None;
    }
    i = skip_spaces(w, i + 1);
    if i < w.len() && (w[i] == b'"' || w[i] == b'\'') {
        i += 1;
    }
    let start = i;
    while i < w.len() && is_word(w[i]) {
        i += 1;
    }
    let value = &w[start..i];
    if value.is_empty() || i == w.len() && w.len() == SCAN_BYTES {
        // Empty, or possibly cut by the scan limit.
        return None;
    }
    if value[0].is_ascii_digit() {
        return numeric_level(value).map(|l| (l, Spelled::Other));
    }
    let mut buf = [0u8; 16];
    let lw = lower(value, &mut buf)?;
    value_level(lw).map(|l| (l, spelled(lw)))
}

/// glog: `E1130 12:34:56.789012 1234 file.go:12] message`.
fn glog(w: &[u8]) -> Option<Level> {
    let level = match w.first()? {
        b'I' => Level::Info,
        b'W' => Level::Warn,
        b'E' => Level::Error,
        b'F' => Level::Fatal,
        _ => return None,
    };
    let shape_ok = w.len() >= 9
        && w[1..5].iter().all(u8::is_ascii_digit)
        && w[5] == b' '
        && w[6..8].iter().all(u8::is_ascii_digit)
        && w[8] == b':';
    shape_ok.then_some(level)
}

fn level_of(line: &[u8]) -> Option<(Level, Spelled)> {
    let w = &line[..line.len().min(SCAN_BYTES)];
    let cut = line.len() > w.len();
    if let Some(level) = glog(w) {
        return Some((level, Spelled::Other));
    }
    let first = skip_spaces(w, 0);
    let mut candidate: Option<(Level, Spelled)> = None;
    let mut i = first;
    while i < w.len() {
        if !is_word(w[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < w.len() && is_word(w[i]) {
            i += 1;
        }
        if i == w.len() && cut && is_word(line[i]) {
            break;
        }
        let word = &w[start..i];
        let mut buf = [0u8; 16];
        let Some(lw) = lower(word, &mut buf) else {
            continue;
        };
        if is_level_key(lw) {
            // A level field is the line's own statement of its level: it wins.
            if let Some(level) = key_value(w, i) {
                return Some(level);
            }
            continue;
        }
        if candidate.is_some() {
            continue;
        }
        candidate = word_level(w, start, i, word, lw, start == first).map(|l| (l, spelled(lw)));
    }
    candidate
}

/// The level a word at `w[start..end]` states by its form and surroundings, if any.
fn word_level(w: &[u8], start: usize, end: usize, word: &[u8], lw: &[u8], at_line_start: bool) -> Option<Level> {
    let upper = word.iter().all(|b| b.is_ascii_uppercase());
    if upper
        && word.len() > 1
        && let Some(level) = upper_level(lw)
    {
        return Some(level);
    }
    let before = w[..start].iter().rposition(|&b| b != b' ').map(|p| w[p]);
    let after_at = skip_spaces(w, end);
    let after = w.get(after_at).copied();
    if matches!((before, after), (Some(b'['), Some(b']')) | (Some(b'<'), Some(b'>'))) {
        if word.len() == 1 {
            return match word[0] {
                b'F' => Some(Level::Fatal),
                b'E' => Some(Level::Error),
                b'W' => Some(Level::Warn),
                b'I' => Some(Level::Info),
                b'D' => Some(Level::Debug),
                b'T' => Some(Level::Trace),
                _ => None,
            };
        }
        return value_level(lw);
    }
    // `error[E0308]:` is rustc's form of `error:`.
    let mut colon = end;
    if w.get(colon) == Some(&b'[')
        && let Some(close) = w[colon..].iter().take(16).position(|&b| b == b']')
    {
        colon += close + 1;
    }
    if w.get(colon) != Some(&b':') {
        return None;
    }
    if at_line_start && let Some(level) = colon_level(lw) {
        return Some(level);
    }
    // PostgreSQL (and PgBouncer) write their informational severity as `LOG:`.
    if upper && lw == b"log" {
        return Some(Level::Info);
    }
    let title = word[0].is_ascii_uppercase() && word[1..].iter().all(|b| b.is_ascii_lowercase());
    if title { title_level(lw) } else { None }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_value_wins_over_words_in_the_message() {
        assert_eq!(line_level(r#"{"msg":"ERROR in payload","level":"info"}"#), Some(Level::Info));
        assert_eq!(line_level("msg=\"WARN x\" level=debug"), Some(Level::Debug));
        assert_eq!(line_level("ERROR water level=high"), Some(Level::Error));
    }

    #[test]
    fn words_cut_by_the_scan_limit_are_not_judged() {
        let line = format!("{}ERRORS happen", "x ".repeat(58));
        assert_eq!(line.find("ERRORS"), Some(116));
        assert_eq!(line_level(&line), None);
    }

    #[test]
    fn postgres_log_severity_counts_as_info() {
        let pg = "2025-12-31 18:14:37.141 UTC [402424] app@ledger LOG:  duration: 1337.341 ms\n\
                  2025-12-31 18:14:37.141 UTC [402424] app@ledger DETAIL:  Parameters: $1 = 'paid'\n\
                  2025-12-31 18:15:22.826 UTC [402452] app@ledger ERROR:  null value in column\n\
                  2025-12-31 18:15:22.826 UTC [402452] app@ledger STATEMENT:  INSERT INTO invoices\n";
        let c = level_counts(pg);
        assert_eq!(c.phrase().as_deref(), Some("ERROR 1, INFO 1"));
        // The word alone, or in lower case, is no level: a log file, a change log.
        assert_eq!(line_level("wrote LOG to disk"), None);
        assert_eq!(line_level("see the log: it says"), None);
    }

    #[test]
    fn levels_are_named_as_most_of_their_lines_spell_them() {
        let python = "2025-12-31 10:00:00,001 WARNING app: slow\n\
                      2025-12-31 10:00:01,001 WARNING app: slow\n\
                      2025-12-31 10:00:02,001 CRITICAL app: down\n\
                      2025-12-31 10:00:03,001 INFO app: up\n";
        let c = level_counts(python);
        assert_eq!(c.warn, 2);
        assert_eq!(c.phrase().as_deref(), Some("CRITICAL 1, WARNING 2, INFO 1"));
        let mixed = "WARN a\nWARN b\nlevel=warning c\nFATAL d\n";
        assert_eq!(level_counts(mixed).phrase().as_deref(), Some("FATAL 1, WARN 3"));
        // The spelling is not part of what two counts of the same lines compare.
        assert_eq!(level_counts("WARNING a\n"), level_counts("WARN a\n"));
    }

    #[test]
    fn names_parse_with_synonyms() {
        assert_eq!("warning".parse::<Level>(), Ok(Level::Warn));
        assert_eq!("CRITICAL".parse::<Level>(), Ok(Level::Fatal));
        assert!("loud".parse::<Level>().is_err());
        assert!(Level::Error.is_at_least(Level::Warn));
        assert!(!Level::Info.is_at_least(Level::Warn));
    }
}
