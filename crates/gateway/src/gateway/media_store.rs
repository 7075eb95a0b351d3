//! The originals of media that were downscaled or left out: kept in the snapshot store so
//! that `result_read` with `media` returns the original, or with `region` a part of it fitted
//! to the budget again.
//!
//! Each original is one store entry (`media:<id>:<item>`): a JSON header line (tool, scope,
//! kind, MIME type, URI, the policy it was fitted under) and the bytes. It is stored before
//! the answer is written, so a listing only offers a `next` that can be honoured; an
//! original over the store's per-entry limit is listed with a note saying so instead.

use std::collections::HashMap;

use rmcp::model::{ContentBlock, ResourceContents};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use toolshape_media::{DecodeLimits, Delivery, ImageInput, MediaPolicy, RegionError, encode_base64, fit_region, probe};
use toolshape_shape::{Failure, Resume};
use toolshape_util::hex;

use super::finish::{Attached, Payload, Produced, Source};
use super::media::{Original, render_listing};
use super::snapshots::{expiry, now_unix};
use super::{Caller, Gateway};
use crate::cursor::{Cursor, CursorError, CursorKey, SnapshotId};
use crate::read::{self, ReadArgs};
use crate::store::StoreError;

/// What is kept with an original's bytes.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct StoredHeader {
    /// The tool whose result it came in.
    tool: String,
    /// The scope tag of the caller, hex.
    scope: String,
    /// `image`, `audio` or `resource`.
    kind: String,
    /// Its MIME type.
    mime_type: String,
    /// The resource's URI, for an embedded blob.
    uri: Option<String>,
    /// The policy a region is fitted under.
    policy: MediaPolicy,
}

fn store_key(id: SnapshotId, item: u32) -> String {
    format!("media:{}:{item}", id.hex())
}

impl Gateway {
    /// Store `originals` for `caller`; for each item, the `next` that reads it, or why it
    /// cannot be read again.
    pub(super) async fn keep_media(
        &self,
        originals: Vec<(u32, Original)>,
        tool: &str,
        caller: &Caller,
        policy: &MediaPolicy,
    ) -> HashMap<u32, Result<Value, String>> {
        let mut out = HashMap::new();
        if originals.is_empty() {
            return out;
        }
        let id = SnapshotId::random();
        let scope = CursorKey::scope_tag(&caller.scope);
        let ttl = self.snapshots.ttl();
        let expires = expiry(ttl);
        let cursor = Cursor { snapshot: id, resume: Resume::Handle, expires_unix: expires, scope };
        let handle = self.snapshots.key().encode(&cursor);
        for (item, original) in originals {
            let header = StoredHeader {
                tool: tool.to_owned(),
                scope: hex(&scope),
                kind: original.kind.to_owned(),
                mime_type: original.mime_type,
                uri: original.uri,
                policy: *policy,
            };
            let mut value = serde_json::to_vec(&header).unwrap_or_default();
            value.push(b'\n');
            value.extend_from_slice(&original.bytes);
            let stored = match self.snapshots.store().put(&store_key(id, item), value, ttl).await {
                Ok(()) => Ok(json!({"tool": read::TOOL_NAME, "arguments": {"handle": handle, "media": item}})),
                Err(StoreError::TooLarge { limit, .. }) => Err(format!(
                    "the original ({} bytes) is over the snapshot store's limit of {limit} bytes for one entry, so it cannot be read again",
                    original.bytes.len()
                )),
                Err(e) => {
                    tracing::warn!(error = %e, "media original not stored");
                    Err(format!("the original could not be kept for reading again: {e}"))
                }
            };
            out.insert(item, stored);
        }
        out
    }

    /// `result_read` with `media`: the original, or a region of it fitted to the budget.
    pub(super) async fn read_media(&self, args: &ReadArgs, item: u32, caller: &Caller) -> Produced {
        let shaper = self.loaded().masks.passthrough_shaper().clone();
        let failed = |failure: Failure| Produced::Failed { failure, shaper: shaper.clone() };
        let scope = CursorKey::scope_tag(&caller.scope);
        let cursor = match self.snapshots.key().decode(args.token(), &scope, now_unix()) {
            Ok(c) => c,
            Err(CursorError::Expired) => return failed(Failure::CursorExpired),
            Err(e) => return failed(Failure::CursorInvalid { detail: e.to_string() }),
        };
        let found = match self.snapshots.store().get(&store_key(cursor.snapshot, item)).await {
            Ok(Some(found)) => found,
            Ok(None) => return failed(Failure::CursorExpired),
            Err(e) => {
                return failed(Failure::Unavailable { upstream: "snapshot store".into(), detail: e.to_string() });
            }
        };
        let damaged = || Failure::CursorInvalid { detail: "the stored original is damaged".into() };
        let Some(newline) = found.iter().position(|&b| b == b'\n') else { return failed(damaged()) };
        let Ok(header) = serde_json::from_slice::<StoredHeader>(&found[..newline]) else { return failed(damaged()) };
        if header.scope != hex(&scope) {
            return failed(Failure::CursorInvalid { detail: CursorError::OtherScope.to_string() });
        }
        let bytes = Payload::from(found.clone(), newline + 1);
        let region = args.region;
        let header_for_job = header.clone();
        let job = tokio::task::spawn_blocking(move || answer(&header_for_job, bytes.as_slice(), region));
        let answered = match job.await {
            Ok(answered) => answered,
            Err(_) => return failed(Failure::InvalidArguments { detail: "the original could not be read".into() }),
        };
        match answered {
            Ok((record, block)) => Produced::Data {
                payload: Payload::new(render_listing(vec![(record, None)], |_| Err(String::new()))),
                shaper,
                resume: None,
                source: Source::View { narrowed: None },
                label: header.tool,
                attached: Attached { blocks: vec![block], stats: None },
            },
            Err(detail) => failed(Failure::InvalidArguments { detail }),
        }
    }
}

/// The listing record and the block for an original, or for `region` of it.
fn answer(
    header: &StoredHeader,
    bytes: &[u8],
    region: Option<toolshape_media::Region>,
) -> Result<(Value, ContentBlock), String> {
    let limits = DecodeLimits::default();
    let formula = header.policy.formula;
    let data = encode_base64(bytes);
    let Some(region) = region else {
        let mut record = Map::new();
        record.insert("type".into(), header.kind.clone().into());
        record.insert("index".into(), 1.into());
        if let Some(uri) = &header.uri {
            record.insert("uri".into(), uri.clone().into());
        }
        record.insert("mimeType".into(), header.mime_type.clone().into());
        record.insert("bytes".into(), bytes.len().into());
        if header.kind != "audio"
            && let Ok(p) = probe(bytes, &header.mime_type, &limits)
        {
            record.insert("width".into(), p.info.width.into());
            record.insert("height".into(), p.info.height.into());
            record.insert("tokens".into(), formula.tokens(p.info.width, p.info.height).into());
        }
        return Ok((Value::Object(record), block(header, data, header.mime_type.clone())));
    };
    if header.kind == "audio" {
        return Err("`region` applies to images; this item is audio: leave `region` out to read it".to_owned());
    }
    let input = ImageInput { bytes, mime_type: &header.mime_type };
    let outcome = fit_region(input, region, &header.policy, &limits).map_err(|e| match e {
        RegionError::Image(note) => format!("this item is not an image that can be read: {note}"),
        other => other.to_string(),
    })?;
    let Delivery::Fitted(fitted) = &outcome.delivery else {
        return Err("the region could not be made".to_owned());
    };
    let mut record = json!({
        "type": header.kind,
        "index": 1,
        "mimeType": fitted.kind.mime_type(),
        "width": fitted.width,
        "height": fitted.height,
        "tokens": outcome.tokens,
        "region": {"x": region.x, "y": region.y, "width": region.width, "height": region.height},
    });
    if let (Some(info), Some(map)) = (outcome.original, record.as_object_mut()) {
        map.insert(
            "original".into(),
            json!({"width": info.width, "height": info.height, "bytes": bytes.len(), "tokens": outcome.original_tokens}),
        );
    }
    let mime = fitted.kind.mime_type().to_owned();
    Ok((record, block(header, encode_base64(&fitted.bytes), mime)))
}

/// The native block for an item of `header`'s kind.
fn block(header: &StoredHeader, data: String, mime_type: String) -> ContentBlock {
    match header.kind.as_str() {
        "audio" => ContentBlock::audio(data, mime_type),
        "resource" => ContentBlock::resource(
            ResourceContents::blob(data, header.uri.clone().unwrap_or_default()).with_mime_type(mime_type),
        ),
        _ => ContentBlock::image(data, mime_type),
    }
}
