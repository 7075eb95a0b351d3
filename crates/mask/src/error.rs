//! Config errors: where a problem is, what is wrong, and what to write instead.
//!
//! Every problem found in a config is a [`ConfigError`] with the file, line and column, so
//! `toolshape check` prints lines an editor can jump to (`toolshape.yaml:7:5: …`). Loading
//! collects problems instead of stopping at the first, and returns them all as
//! [`ConfigErrors`], sorted by position.

use std::fmt;

use crate::yaml::Pos;

/// One problem in a config file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    /// The file name given to the loader (for messages only; the loader reads no files).
    pub file: String,
    /// Where the problem is, when it can be placed.
    pub pos: Option<Pos>,
    /// The key path of the problem (`masks[0].result.budget_tokens`), when known.
    pub path: Option<String>,
    /// What is wrong.
    pub message: String,
    /// What to write instead, when there is a concrete suggestion.
    pub hint: Option<String>,
}

impl ConfigError {
    pub(crate) fn new(file: &str, pos: Option<Pos>, path: Option<&str>, message: impl Into<String>) -> ConfigError {
        ConfigError {
            file: file.to_owned(),
            pos,
            path: path.filter(|p| !p.is_empty()).map(str::to_owned),
            message: message.into(),
            hint: None,
        }
    }

    pub(crate) fn with_hint(mut self, hint: Option<String>) -> ConfigError {
        self.hint = hint;
        self
    }

    /// Line, from 1 (0 when the problem has no place in the file).
    pub fn line(&self) -> usize {
        self.pos.map_or(0, |p| p.line)
    }

    /// Column, from 1 (0 when the problem has no place in the file).
    pub fn column(&self) -> usize {
        self.pos.map_or(0, |p| p.column)
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.pos {
            Some(p) => write!(f, "{}:{}:{}: {}", self.file, p.line, p.column, self.message)?,
            None => write!(f, "{}: {}", self.file, self.message)?,
        }
        if let Some(path) = &self.path {
            write!(f, " (at `{path}`)")?;
        }
        if let Some(hint) = &self.hint {
            write!(f, "; {hint}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ConfigError {}

/// Every problem found in a config, sorted by position. Never empty.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigErrors(pub Vec<ConfigError>);

impl ConfigErrors {
    /// The problems, in file order.
    pub fn iter(&self) -> std::slice::Iter<'_, ConfigError> {
        self.0.iter()
    }

    /// How many problems there are.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are none (never true for a returned error).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub(crate) fn sorted(mut errors: Vec<ConfigError>) -> ConfigErrors {
        errors.sort_by_key(|e| (e.pos.is_none(), e.pos));
        errors.dedup();
        ConfigErrors(errors)
    }
}

impl fmt::Display for ConfigErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ConfigErrors {}

impl<'a> IntoIterator for &'a ConfigErrors {
    type Item = &'a ConfigError;
    type IntoIter = std::slice::Iter<'a, ConfigError>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

/// Levenshtein distance in characters.
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// The candidate closest to `given`, if one is close enough to be what was meant: within
/// an edit distance of a third of its length (at least 2), or containing `given` (or
/// contained in it) when `given` has at least three characters (`budget` → `budget_tokens`).
pub(crate) fn nearest<'c, I>(given: &str, candidates: I) -> Option<&'c str>
where
    I: IntoIterator<Item = &'c str>,
{
    let lower = given.to_ascii_lowercase();
    let mut best: Option<(usize, &'c str)> = None;
    for cand in candidates {
        let c = cand.to_ascii_lowercase();
        let d = edit_distance(&lower, &c);
        let close = d <= (c.chars().count() / 3).max(2);
        let contains = lower.chars().count() >= 3 && (c.contains(&lower) || lower.contains(&c));
        if (close || contains) && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, cand));
        }
    }
    best.map(|(_, c)| c)
}

/// "did you mean `x`?" for the nearest candidate, if any (close enough to be a likely typo).
pub fn did_you_mean<'c, I>(given: &str, candidates: I) -> Option<String>
where
    I: IntoIterator<Item = &'c str>,
{
    nearest(given, candidates).map(|c| format!("did you mean `{c}`?"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions_find_typos_and_prefixes() {
        let keys = ["budget_tokens", "render", "project", "field_tokens", "sort"];
        assert_eq!(nearest("budget", keys), Some("budget_tokens"));
        assert_eq!(nearest("projet", keys), Some("project"));
        assert_eq!(nearest("sotr", keys), Some("sort"));
        assert_eq!(nearest("zzzzzz", keys), None);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }

    #[test]
    fn display_is_file_line_column() {
        let e = ConfigError::new(
            "t.yaml",
            Some(Pos { line: 7, column: 5 }),
            Some("masks[0].result"),
            "unknown key `budget`",
        )
        .with_hint(Some("did you mean `budget_tokens`?".into()));
        assert_eq!(
            e.to_string(),
            "t.yaml:7:5: unknown key `budget` (at `masks[0].result`); did you mean `budget_tokens`?"
        );
    }
}
