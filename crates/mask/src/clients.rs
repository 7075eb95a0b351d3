//! `clients:` how tool results are sent to the MCP clients that connect (the agents).
//!
//! A tool result carries the text the model reads (the envelope inside its delimiters) and,
//! for clients that want data, the envelope as `structuredContent`. Some clients hand the
//! model `structuredContent` instead of the text when both are there: the model would then
//! never see the delimiters, and would read JSON the budget did not count. The gateway knows
//! which clients do (by the name a client gives at `initialize`, or in each request's
//! metadata) and sends them the text alone; this section overrides that choice.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `clients:` per-client choices, made when a client connects.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct ClientsConfig {
    /// Whether tool results carry the envelope as `structuredContent` (and tool definitions
    /// its `outputSchema`): `auto` decides per client (none for the clients known to show
    /// the model `structuredContent` instead of the text), `always` or `never` for every
    /// client.
    pub structured_content: StructuredContent,
    /// Per client, by the name it gives (`clientInfo.name`, exactly): `always` or `never`,
    /// over the choice above (`auto` here means the built-in choice).
    pub overrides: BTreeMap<String, StructuredContent>,
}

/// Whether results carry `structuredContent`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum StructuredContent {
    /// Decided per client: none for clients known to read it instead of the text.
    #[default]
    Auto,
    /// Always: the text, and the envelope as `structuredContent`.
    Always,
    /// Never: the text alone, and no `outputSchema` on tool definitions.
    Never,
}

impl ClientsConfig {
    /// The choice for the client named `client` (`None`: it gave no name), before the
    /// built-in per-client decision `auto` stands for.
    pub fn structured_content_for(&self, client: Option<&str>) -> StructuredContent {
        match client.and_then(|name| self.overrides.get(name)) {
            Some(StructuredContent::Auto) | None => self.structured_content,
            Some(choice) => *choice,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_override_wins_over_the_mode() {
        let config = ClientsConfig {
            structured_content: StructuredContent::Never,
            overrides: [("my-agent".to_owned(), StructuredContent::Always), ("x".to_owned(), StructuredContent::Auto)]
                .into(),
        };
        assert_eq!(config.structured_content_for(Some("my-agent")), StructuredContent::Always);
        assert_eq!(config.structured_content_for(Some("x")), StructuredContent::Never);
        assert_eq!(config.structured_content_for(Some("other")), StructuredContent::Never);
        assert_eq!(config.structured_content_for(None), StructuredContent::Never);
        assert_eq!(ClientsConfig::default().structured_content_for(Some("a")), StructuredContent::Auto);
    }
}
