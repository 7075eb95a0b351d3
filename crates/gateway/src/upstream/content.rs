//! An upstream's `tools/call` result as what the call path shapes: the one place that
//! decides what an upstream's content blocks (text, images, audio, embedded resources,
//! resource links) and structured content become.
//!
//! Text is shaped as it is (JSON inside it is read as JSON); structured content is shaped
//! as JSON unless it only wraps the text; content with images, audio, embedded resources or
//! links goes on as its blocks, which the gateway's media step lists in the envelope and
//! attaches after it.

use rmcp::model::{CallToolResult, ContentBlock, ResourceContents};
use toolshape_shape::Failure;

/// What an upstream answered to a `tools/call`, reduced to what shaping needs.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Reply {
    /// A result: the bytes to shape (structured content or text).
    Result(Vec<u8>),
    /// A result holding images, audio, embedded resources or links: its blocks, for the
    /// media step (`gateway/media.rs`) to list, fit and attach.
    Mixed(Vec<ContentBlock>),
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
        (Some(v), Some(_)) => serde_json::to_vec(v).unwrap_or_default(),
        (None, Some(text)) => text.into_bytes(),
        // Media, links or resources: the blocks themselves go on (structured content, which
        // can only mirror them, is left aside).
        (_, None) => {
            if content_size(&result.content) > cap {
                return Err(too_large());
            }
            return Ok(Reply::Mixed(result.content));
        }
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

/// About how many bytes `blocks` hold (base64 and text as sent).
fn content_size(blocks: &[ContentBlock]) -> u64 {
    blocks
        .iter()
        .map(|b| match b {
            ContentBlock::Text(t) => t.text.len(),
            ContentBlock::Image(i) => i.data.len(),
            ContentBlock::Audio(a) => a.data.len(),
            ContentBlock::Resource(r) => match &r.resource {
                ResourceContents::TextResourceContents { text, .. } => text.len(),
                ResourceContents::BlobResourceContents { blob, .. } => blob.len(),
                _ => 0,
            },
            _ => 0,
        } as u64)
        .sum()
}

/// Whether structured content is an object of one string member equal to `text`.
pub(super) fn wraps_text(structured: &serde_json::Value, text: &str) -> bool {
    structured.as_object().is_some_and(|m| m.len() == 1 && m.values().next().and_then(|v| v.as_str()) == Some(text))
}
