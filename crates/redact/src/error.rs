//! Errors in a [`RedactSpec`](crate::RedactSpec), worded for the person editing the config.

/// Why a [`RedactSpec`](crate::RedactSpec) cannot be compiled into a
/// [`Redactor`](crate::Redactor).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RedactError {
    /// A custom pattern is not a valid regular expression.
    #[error(
        "redact pattern `{name}`: invalid regular expression: {message}\n\
         write a Rust `regex` expression (no look-around, no back-references), \
         for example `EMP-[0-9]{{6}}`"
    )]
    InvalidPattern {
        /// The pattern's name.
        name: String,
        /// What the regex compiler said.
        message: String,
    },
    /// A custom pattern matches the empty string, so it would fire between every character.
    #[error(
        "redact pattern `{name}` matches the empty string, so it would match everywhere; \
         require at least one character (use `+` instead of `*`, for example `EMP-[0-9]+`)"
    )]
    EmptyMatch {
        /// The pattern's name.
        name: String,
    },
    /// `disable` names a kind that is not built in.
    #[error("redact.disable: unknown kind `{kind}`; valid kinds are: {valid}")]
    UnknownKind {
        /// What was written.
        kind: String,
        /// The valid kinds, comma-separated.
        valid: String,
    },
    /// A custom pattern has an empty name.
    #[error(
        "redact.patterns[{index}]: `name` is empty; give it a name such as `employee_id`, \
         which becomes the placeholder `[EMPLOYEE_ID]` and the key of the counts"
    )]
    EmptyPatternName {
        /// The pattern's position in `patterns`, from 0.
        index: usize,
    },
}
