//! What can go wrong reading or rewriting a client's config.

/// A client config that cannot be read or rewritten as asked.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ClientsError {
    /// The file is not valid JSON(C) or TOML.
    #[error("cannot parse it: {0}")]
    Syntax(String),
    /// The file parses, but a part toolshape needs has another shape than the client's.
    #[error("unexpected shape: {0}")]
    Shape(String),
    /// Two servers need one variable to hold two different values.
    #[error("variable `{0}` would have to hold two different values (from {1} and {2}); rename one in toolshape.yaml")]
    VariableClash(String, String, String),
    /// The client has no way to pass an environment variable through to toolshape.
    #[error("{0}")]
    Unsupported(String),
}
