//! What is decided per client from what it said when its session began (`initialize`):
//! the one place where a client's name, version or capabilities change what it is sent.
//!
//! Today every client gets the same: each tool result carries the envelope as
//! `structuredContent` next to the text the model reads. A 2026-07-28 agent has no
//! `initialize`; it gets the defaults.

use rmcp::model::InitializeRequestParams;

/// How one client is served.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ClientPolicy {
    /// Whether tool results carry the envelope as `structuredContent`.
    pub(crate) structured_content: bool,
}

impl Default for ClientPolicy {
    fn default() -> Self {
        ClientPolicy { structured_content: true }
    }
}

impl ClientPolicy {
    /// The policy for the client whose session began with `init` (`None`: no `initialize`).
    pub(crate) fn of(init: Option<&InitializeRequestParams>) -> ClientPolicy {
        // No client is served differently yet; its `clientInfo` and capabilities are here.
        let _ = init;
        ClientPolicy::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_client_gets_structured_content_by_default() {
        assert!(ClientPolicy::of(None).structured_content);
        let init: InitializeRequestParams = serde_json::from_value(serde_json::json!({
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "any-client", "version": "1.0"}
        }))
        .unwrap();
        assert!(ClientPolicy::of(Some(&init)).structured_content);
    }
}
