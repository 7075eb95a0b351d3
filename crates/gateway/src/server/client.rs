//! What is decided per client from who it says it is: the one place where a client's name
//! changes what it is sent.
//!
//! Whether a tool result carries the envelope as `structuredContent` (and tool definitions
//! its `outputSchema`): some clients show the model `structuredContent` instead of the text
//! when a result has both, so the model would never see the provenance delimiters and would
//! read JSON the budget did not count. Those clients get the text alone. Checked on the wire
//! (a tool answering different text and `structuredContent`, the client's request to its
//! model recorded):
//!
//! | client (`clientInfo.name`) | what its model reads | sent |
//! |---|---|---|
//! | `claude-code` (Claude Code 2.1) | `structuredContent` as JSON, text dropped | text alone |
//! | `codex-mcp-client` (Codex CLI 0.171) | `structuredContent` as JSON, text dropped | text alone |
//! | `Visual Studio Code…` | `structuredContent` (reported, not run here) | text alone |
//! | `gemini-cli-mcp-client` (Gemini CLI 0.61) | the text | both |
//! | any other, or none given | — | both |
//!
//! Sending these clients a `structuredContent` that holds the delimited text instead would
//! not do: they pass it on as JSON, escaped, which is not the text the budget counted.
//! The config's `clients:` section overrides the choice for every client or by name.
//!
//! The name comes from `initialize` for a session, or from each request's metadata for a
//! 2026-07-28 agent (which has no handshake; Claude Code speaks that version when the
//! server offers it).
//!
//! Whether the tools that must stay in the model's context carry `_meta:
//! {"anthropic/alwaysLoad": true}` (with a `search:` section: the `always_loaded` tools and
//! the search and call tools). Claude Code defers MCP tools behind a tool search of its own
//! and reads that key to keep a tool's definition loaded from the first turn; without it the
//! model would have to find toolshape's search tool before it could search. Other clients
//! ignore the key, so it is sent only to `claude-code`.

use rmcp::model::Implementation;
use toolshape_mask::{ClientsConfig, StructuredContent};

/// How one client is served.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ClientPolicy {
    /// Whether tool results carry the envelope as `structuredContent`, and tool
    /// definitions its `outputSchema` (a tool that declares one must send it).
    pub(crate) structured_content: bool,
    /// Whether tools that must stay loaded carry `_meta: {"anthropic/alwaysLoad": true}`.
    pub(crate) always_load_meta: bool,
}

/// The `_meta` key that asks a client not to defer a tool behind its own tool search.
pub(crate) const ALWAYS_LOAD_KEY: &str = "anthropic/alwaysLoad";

/// The `clientInfo.name` of the clients that read [`ALWAYS_LOAD_KEY`].
const READS_ALWAYS_LOAD: [&str; 1] = ["claude-code"];

impl Default for ClientPolicy {
    fn default() -> Self {
        ClientPolicy { structured_content: true, always_load_meta: false }
    }
}

/// Whether the client named `name` shows its model `structuredContent` in place of the text.
fn reads_structured_content_instead_of_text(name: &str) -> bool {
    name == "claude-code" || name == "codex-mcp-client" || name.starts_with("Visual Studio Code")
}

impl ClientPolicy {
    /// The policy for `client` (`None`: it did not say who it is) under the config's choices.
    pub(crate) fn of(client: Option<&Implementation>, config: &ClientsConfig) -> ClientPolicy {
        let name = client.map(|c| c.name.as_str());
        let structured_content = match config.structured_content_for(name) {
            StructuredContent::Always => true,
            StructuredContent::Never => false,
            StructuredContent::Auto => !name.is_some_and(reads_structured_content_instead_of_text),
        };
        ClientPolicy { structured_content, always_load_meta: name.is_some_and(|n| READS_ALWAYS_LOAD.contains(&n)) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn client(name: &str) -> Implementation {
        Implementation::new(name, "1.0")
    }

    #[test]
    fn clients_that_read_structured_content_instead_of_text_get_the_text_alone() {
        let auto = ClientsConfig::default();
        for name in ["claude-code", "codex-mcp-client", "Visual Studio Code", "Visual Studio Code - Insiders"] {
            assert!(!ClientPolicy::of(Some(&client(name)), &auto).structured_content, "{name}");
        }
        for name in ["gemini-cli-mcp-client", "mcp", "any-client", "Claude Code", "claude-code-x"] {
            assert!(ClientPolicy::of(Some(&client(name)), &auto).structured_content, "{name}");
        }
        assert!(ClientPolicy::of(None, &auto).structured_content, "a client that gave no name gets both");
    }

    #[test]
    fn the_config_overrides_the_choice_for_every_client_or_by_name() {
        let never = ClientsConfig { structured_content: StructuredContent::Never, ..ClientsConfig::default() };
        assert!(!ClientPolicy::of(Some(&client("any-client")), &never).structured_content);
        assert!(!ClientPolicy::of(None, &never).structured_content);
        let always = ClientsConfig { structured_content: StructuredContent::Always, ..ClientsConfig::default() };
        assert!(ClientPolicy::of(Some(&client("claude-code")), &always).structured_content);
        let by_name = ClientsConfig {
            overrides: [
                ("claude-code".to_owned(), StructuredContent::Always),
                ("my-agent".to_owned(), StructuredContent::Never),
            ]
            .into(),
            ..ClientsConfig::default()
        };
        assert!(ClientPolicy::of(Some(&client("claude-code")), &by_name).structured_content);
        assert!(!ClientPolicy::of(Some(&client("my-agent")), &by_name).structured_content);
        assert!(!ClientPolicy::of(Some(&client("codex-mcp-client")), &by_name).structured_content);
    }

    #[test]
    fn only_claude_code_is_sent_the_always_load_key() {
        let auto = ClientsConfig::default();
        assert!(ClientPolicy::of(Some(&client("claude-code")), &auto).always_load_meta);
        for name in ["Claude Code", "cursor", "mcp", "codex-mcp-client"] {
            assert!(!ClientPolicy::of(Some(&client(name)), &auto).always_load_meta, "{name}");
        }
        assert!(!ClientPolicy::of(None, &auto).always_load_meta);
    }
}
