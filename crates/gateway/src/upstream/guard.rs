//! The line guard on a child's stdout: lines pass to rmcp whole, but never one longer than
//! the response cap. Such a line is cut off and the request it answered gets an error in its
//! place, so the call fails at once instead of hanging; lines that are not JSON are counted,
//! so a time-out can say the upstream was writing garbage.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

use super::child::ChildWatch;

/// JSON-RPC error code the line guard answers an oversized response with.
pub(super) const TOO_LARGE_CODE: i32 = -32099;
/// Marks the line guard's own error message, so it is never confused with an upstream's.
pub(super) const TOO_LARGE_MARK: &str = "toolshape: response exceeded";
/// How much of an oversized line's start and end is kept to find its `id`.
const ID_WINDOW: usize = 256;

/// Copy stdout to rmcp line by line, but never a line longer than `cap`: such a line is cut
/// off (rmcp drops the unparsable stub) and the request it answered, found from the `id` in
/// its first or last bytes, gets an error response in its place. Lines that are not JSON
/// are counted, so a time-out can say the upstream was writing garbage.
pub(super) async fn line_guard(
    name: String,
    stdout: tokio::process::ChildStdout,
    mut out: tokio::io::DuplexStream,
    cap: usize,
    watch: Arc<ChildWatch>,
) {
    let mut reader = BufReader::with_capacity(64 * 1024, stdout);
    let mut line_len = 0usize;
    let mut head: Vec<u8> = Vec::with_capacity(ID_WINDOW);
    let mut tail: Vec<u8> = Vec::with_capacity(ID_WINDOW * 2);
    let mut oversized = false;
    let mut first_byte: Option<u8> = None;
    loop {
        let chunk = match reader.fill_buf().await {
            Ok([]) | Err(_) => break,
            Ok(c) => c,
        };
        let (take, ends_line) = match memchr_newline(chunk) {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        let piece = &chunk[..take];
        if first_byte.is_none() {
            first_byte = piece.iter().copied().find(|b| !b.is_ascii_whitespace());
        }
        if head.len() < ID_WINDOW {
            let n = (ID_WINDOW - head.len()).min(piece.len());
            head.extend_from_slice(&piece[..n]);
        }
        line_len += take;
        let mut write_ok = true;
        if !oversized && line_len > cap {
            oversized = true;
            tracing::warn!(upstream = %name, cap, "upstream response line exceeds the size cap; cutting it off");
            // End the partial line so rmcp drops it as unparsable and reads on.
            write_ok = out.write_all(b"\n").await.is_ok();
        } else if !oversized {
            write_ok = out.write_all(piece).await.is_ok();
        }
        if oversized {
            tail.extend_from_slice(piece);
            if tail.len() > ID_WINDOW {
                tail.drain(..tail.len() - ID_WINDOW);
            }
        }
        reader.consume(take);
        if !write_ok {
            break;
        }
        if ends_line {
            if oversized {
                match find_id(&head).or_else(|| find_id(&tail)) {
                    Some(id) => {
                        let msg = serde_json::json!({
                            "jsonrpc": "2.0",
                            "id": id,
                            "error": {"code": TOO_LARGE_CODE, "message": format!("{TOO_LARGE_MARK} {cap} bytes")}
                        });
                        let mut text = msg.to_string().into_bytes();
                        text.push(b'\n');
                        if out.write_all(&text).await.is_err() {
                            break;
                        }
                    }
                    None => {
                        tracing::warn!(upstream = %name, "oversized line without a recognisable id; the call will time out")
                    }
                }
            } else if line_len > 1 && !matches!(first_byte, Some(b'{' | b'[') | None) {
                watch.garbage_lines.fetch_add(1, Ordering::Relaxed);
                tracing::warn!(upstream = %name, "upstream wrote a line that is not JSON-RPC to stdout");
            }
            line_len = 0;
            head.clear();
            tail.clear();
            oversized = false;
            first_byte = None;
        }
    }
    let _ = out.shutdown().await;
}

fn memchr_newline(b: &[u8]) -> Option<usize> {
    b.iter().position(|&c| c == b'\n')
}

/// The value of a top-level-looking `"id":` in a fragment of JSON: a number or a string.
pub(super) fn find_id(fragment: &[u8]) -> Option<Value> {
    let text = String::from_utf8_lossy(fragment);
    let mut rest: &str = &text;
    while let Some(pos) = rest.find("\"id\"") {
        let after = rest[pos + 4..].trim_start();
        if let Some(v) = after.strip_prefix(':') {
            let v = v.trim_start();
            if let Some(s) = v.strip_prefix('"') {
                if let Some(end) = s.find('"') {
                    return Some(Value::String(s[..end].to_owned()));
                }
            } else {
                let digits: String = v.chars().take_while(|c| c.is_ascii_digit() || *c == '-').collect();
                if let Ok(n) = digits.parse::<i64>() {
                    return Some(Value::from(n));
                }
            }
        }
        rest = &rest[pos + 4..];
    }
    None
}
