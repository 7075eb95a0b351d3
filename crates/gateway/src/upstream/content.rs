//! An upstream's `tools/call` result as what the call path shapes: the one place that
//! decides what an upstream's content blocks (text, images, audio, embedded resources,
//! resource links) and structured content become.
//!
//! Text is shaped as it is (JSON inside it is read as JSON); structured content is shaped
//! as JSON unless it only wraps the text; mixed content becomes a JSON list of records the
//! shaper can cut, binary data described by type and size, never passed as base64.

use rmcp::model::{CallToolResult, ContentBlock, ResourceContents};
use serde_json::Value;
use toolshape_shape::Failure;

/// What an upstream answered to a `tools/call`, reduced to what shaping needs.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Reply {
    /// A result: the bytes to shape (structured content, text, or a JSON list of blocks).
    Result(Vec<u8>),
    /// An `isError` result: its text.
    ToolError(String),
}

/// `upstream`'s `CallToolResult` as bytes to shape, or its own error text; a result over
/// `cap` bytes is refused.
pub(super) fn reduce(result: CallToolResult, upstream: &str, cap: u64) -> Result<Reply, Failure> {
    let too_large = || Failure::ResponseTooLarge { upstream: upstream.to_owned(), limit_bytes: cap };
    if result.is_error == Some(true) {
        let text = match (&result.structured_content, all_text(&result.content)) {
            (_, Some(t)) if !t.is_empty() => t,
            (Some(v), _) => v.to_string(),
            _ => String::new(),
        };
        return Ok(Reply::ToolError(text));
    }
    let bytes = match (&result.structured_content, all_text(&result.content)) {
        // `{"content": "<the text block>"}` only wraps the text (server-filesystem does
        // this): shape the text itself, so JSON inside it is read as JSON.
        (Some(v), Some(text)) if wraps_text(v, &text) => text.into_bytes(),
        (Some(v), _) => serde_json::to_vec(v).unwrap_or_default(),
        (None, Some(text)) => text.into_bytes(),
        (None, None) => blocks_as_json(&result.content),
    };
    if bytes.len() as u64 > cap {
        return Err(too_large());
    }
    Ok(Reply::Result(bytes))
}

/// All blocks' text joined by newlines, when every block is text.
pub(super) fn all_text(blocks: &[ContentBlock]) -> Option<String> {
    let mut out = String::new();
    for (i, b) in blocks.iter().enumerate() {
        let t = b.as_text()?;
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&t.text);
    }
    Some(out)
}

/// Mixed content (text with images, audio or resources) as a JSON list of records the
/// shaper can cut: binary data is described by type and size, never passed as base64.
pub(super) fn blocks_as_json(blocks: &[ContentBlock]) -> Vec<u8> {
    let items: Vec<Value> = blocks
        .iter()
        .map(|b| match b {
            ContentBlock::Text(t) => serde_json::json!({"type": "text", "text": t.text}),
            ContentBlock::Image(i) => {
                serde_json::json!({"type": "image", "mimeType": i.mime_type, "base64_chars": i.data.len(), "note": "binary data not shown"})
            }
            ContentBlock::Audio(a) => {
                serde_json::json!({"type": "audio", "mimeType": a.mime_type, "base64_chars": a.data.len(), "note": "binary data not shown"})
            }
            ContentBlock::Resource(r) => match &r.resource {
                ResourceContents::TextResourceContents { uri, mime_type, text, .. } => {
                    serde_json::json!({"type": "resource", "uri": uri, "mimeType": mime_type, "text": text})
                }
                ResourceContents::BlobResourceContents { uri, mime_type, blob, .. } => {
                    serde_json::json!({"type": "resource", "uri": uri, "mimeType": mime_type, "base64_chars": blob.len(), "note": "binary data not shown"})
                }
                _ => serde_json::json!({"type": "resource"}),
            },
            ContentBlock::ResourceLink(l) => {
                serde_json::json!({"type": "resource_link", "uri": l.uri, "name": l.name, "description": l.description})
            }
            _ => serde_json::json!({"type": "unknown"}),
        })
        .collect();
    serde_json::to_vec(&items).unwrap_or_default()
}

/// Whether structured content is an object of one string member equal to `text`.
pub(super) fn wraps_text(structured: &serde_json::Value, text: &str) -> bool {
    structured.as_object().is_some_and(|m| m.len() == 1 && m.values().next().and_then(|v| v.as_str()) == Some(text))
}
