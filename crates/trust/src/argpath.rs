//! Where in a call's arguments something was found: `body`, `headers.Authorization`,
//! `files[2].content`, `["a.b"].c`. The same spelling as the field paths of masks.

use std::fmt;

/// One step into a JSON value.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Step {
    /// An object member.
    Key(String),
    /// An array element.
    Index(usize),
}

/// A place in a call's arguments. The empty path is the arguments themselves.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ArgPath(pub Vec<Step>);

impl ArgPath {
    /// The arguments themselves.
    pub fn root() -> ArgPath {
        ArgPath(Vec::new())
    }

    /// The path of one top-level argument.
    pub fn key(name: impl Into<String>) -> ArgPath {
        ArgPath(vec![Step::Key(name.into())])
    }

    /// This path, one step further.
    pub fn child(&self, step: Step) -> ArgPath {
        let mut steps = Vec::with_capacity(self.0.len() + 1);
        steps.extend_from_slice(&self.0);
        steps.push(step);
        ArgPath(steps)
    }

    /// Whether `self` is `other` or lies inside it.
    pub fn starts_with(&self, other: &ArgPath) -> bool {
        self.0.starts_with(&other.0)
    }
}

/// Whether a key can be written bare (`user.login`) rather than bracketed (`["a.b"]`).
fn is_bare(key: &str) -> bool {
    !key.is_empty() && key.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-' || c == '$')
}

impl fmt::Display for ArgPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("$");
        }
        for (i, step) in self.0.iter().enumerate() {
            match step {
                Step::Key(key) if is_bare(key) => {
                    if i > 0 {
                        f.write_str(".")?;
                    }
                    f.write_str(key)?;
                }
                Step::Key(key) => {
                    let quoted = serde_json::to_string(key).map_err(|_| fmt::Error)?;
                    write!(f, "[{quoted}]")?;
                }
                Step::Index(index) => write!(f, "[{index}]")?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spelled_like_field_paths() {
        let p = ArgPath::key("files").child(Step::Index(2)).child(Step::Key("content".into()));
        assert_eq!(p.to_string(), "files[2].content");
        assert_eq!(ArgPath::key("a.b").child(Step::Key("c".into())).to_string(), "[\"a.b\"].c");
        assert_eq!(ArgPath::root().to_string(), "$");
        assert_eq!(ArgPath::key("").to_string(), "[\"\"]");
    }

    #[test]
    fn prefixes() {
        let p = ArgPath::key("a").child(Step::Index(0));
        assert!(p.starts_with(&ArgPath::key("a")));
        assert!(p.starts_with(&ArgPath::root()));
        assert!(!ArgPath::key("a").starts_with(&p));
        assert!(!ArgPath::key("ab").starts_with(&ArgPath::key("a")));
    }
}
