//! A result with images, audio, embedded resources or links: what the model gets of each.
//!
//! The envelope stays the first content block; the media follow it as native MCP blocks in
//! the upstream's order. Images (and embedded image blobs) are fitted together into the
//! policy's `budget_tokens` by `toolshape-media`; audio and other blobs pass when under
//! `audio_max_bytes`; embedded text resources pass as `resource` blocks while they fit in
//! half the result's text budget, and are shaped into the envelope otherwise; resource links
//! pass unchanged. The envelope's `data` is the list of the upstream's blocks with every
//! block that follows the envelope listed in place (`type`, `index` among the blocks that
//! follow, MIME type, size, tokens), and every item that was cut or left out says so and
//! carries the `next` that reads its original.
//!
//! [`convert`] is pure and CPU-bound (it decodes and resamples images): the caller runs it on
//! the blocking pool. Storing the originals and signing their `next` happen afterwards
//! ([`render_listing`]), once the store said whether it took them.

use rmcp::model::{ContentBlock, EmbeddedResource, ResourceContents};
use serde_json::{Map, Value, json};
use toolshape_media::{
    AudioOutcome, DecodeLimits, Delivery, ImageInput, ImageOutcome, MediaNote, MediaPolicy, audio_outcome,
    decode_base64, encode_base64, fit_images,
};
use toolshape_tokens::Tokenizer;

/// What a media result comes to, before its originals are stored.
pub(super) struct Converted {
    /// The listing records, in the upstream's order, each with the number of the original it
    /// keeps for `next` (when it was cut).
    pub(super) records: Vec<(Value, Option<u32>)>,
    /// The native blocks that follow the envelope, in the upstream's order.
    pub(super) blocks: Vec<ContentBlock>,
    /// Originals to keep, by item number (the block's position in the upstream's content,
    /// from 1).
    pub(super) keep: Vec<(u32, Original)>,
    /// Tokens of the embedded text resources sent as blocks: taken from the text budget.
    pub(super) passed_text_tokens: usize,
    /// Counts for the span.
    pub(super) stats: MediaStats,
}

/// An original kept so that `next` can read it again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Original {
    /// `image`, `audio` or `resource`.
    pub(super) kind: &'static str,
    /// Its MIME type (the real one, for an image whose bytes were recognised).
    pub(super) mime_type: String,
    /// The resource's URI, for an embedded blob.
    pub(super) uri: Option<String>,
    /// The decoded bytes.
    pub(super) bytes: Vec<u8>,
}

/// Media counts of one call, for its span: what came and what was sent.
pub(super) type MediaStats = toolshape_telemetry::MediaCounts;

/// Converts an upstream's `blocks` under `policy`; `text_budget` is the result's budget, of
/// which embedded text resources may take half.
pub(super) fn convert(
    blocks: Vec<ContentBlock>,
    policy: &MediaPolicy,
    text_budget: usize,
    tokenizer: Tokenizer,
    limits: &DecodeLimits,
) -> Converted {
    let images = fit_result_images(&blocks, policy, limits);
    let mut out = Converted {
        records: Vec::with_capacity(blocks.len()),
        blocks: Vec::new(),
        keep: Vec::new(),
        passed_text_tokens: 0,
        stats: MediaStats::default(),
    };
    let text_room = text_budget / 2;
    for (position, block) in blocks.into_iter().enumerate() {
        let item = u32::try_from(position + 1).unwrap_or(u32::MAX);
        let next_index = out.blocks.len() + 1;
        match block {
            ContentBlock::Text(t) => out.records.push((json!({"type": "text", "text": t.text}), None)),
            ContentBlock::ResourceLink(link) => {
                let mut record =
                    json!({"type": "resource_link", "index": next_index, "uri": link.uri, "name": link.name});
                insert_some(&mut record, "description", link.description.clone());
                insert_some(&mut record, "mimeType", link.mime_type.clone());
                out.records.push((record, None));
                out.blocks.push(ContentBlock::ResourceLink(link));
            }
            ContentBlock::Image(image) => {
                let decoded = images.iter().find(|(p, _)| *p == position);
                match decoded {
                    Some((_, Ok((bytes, outcome)))) => {
                        let record = image_record("image", None, &image.mime_type, bytes, outcome, next_index);
                        out.stats.add_image(bytes, outcome);
                        // Annotations and `_meta` stay; the data and its MIME type are what was sent.
                        let mut sent = image.clone();
                        match &outcome.delivery {
                            Delivery::Unchanged => {
                                sent.mime_type = sniffed_mime(outcome, &image.mime_type);
                                out.blocks.push(ContentBlock::Image(sent));
                            }
                            Delivery::Fitted(fitted) => {
                                sent.data = encode_base64(&fitted.bytes);
                                sent.mime_type = fitted.kind.mime_type().to_owned();
                                out.blocks.push(ContentBlock::Image(sent));
                            }
                            Delivery::Omitted => {}
                        }
                        keep_if_cut(&mut out, record, item, outcome.is_cut(), || Original {
                            kind: "image",
                            mime_type: sniffed_mime(outcome, &image.mime_type),
                            uri: None,
                            bytes: bytes.clone(),
                        });
                    }
                    _ => {
                        // Not base64: nothing can be decoded or read again.
                        out.stats.items += 1;
                        out.stats.cut += 1;
                        let record = json!({"type": "image", "index": null, "mimeType": image.mime_type,
                            "omitted": {"reason": MediaNote::NotBase64.to_string()}});
                        out.records.push((record, None));
                    }
                }
            }
            ContentBlock::Audio(audio) => match decode_base64(&audio.data) {
                Ok(bytes) => {
                    let outcome = audio_outcome(&bytes, &audio.mime_type, policy);
                    let record = audio_record("audio", None, &audio.mime_type, &outcome, next_index);
                    out.stats.add_binary(&outcome);
                    let cut = !outcome.sent;
                    if outcome.sent {
                        out.blocks.push(ContentBlock::Audio(audio.clone()));
                    }
                    let mime_type = audio.mime_type.clone();
                    keep_if_cut(&mut out, record, item, cut, || Original {
                        kind: "audio",
                        mime_type,
                        uri: None,
                        bytes,
                    });
                }
                Err(note) => {
                    out.stats.items += 1;
                    out.stats.cut += 1;
                    let record = json!({"type": "audio", "index": null, "mimeType": audio.mime_type,
                        "omitted": {"reason": note.to_string()}});
                    out.records.push((record, None));
                }
            },
            ContentBlock::Resource(resource) => {
                convert_resource(resource, position, item, &images, policy, text_room, tokenizer, &mut out);
            }
            other => {
                // A kind of block this version does not know: passed on as it came, listed.
                let kind = serde_json::to_value(&other)
                    .ok()
                    .and_then(|v| v.get("type").and_then(Value::as_str).map(str::to_owned))
                    .unwrap_or_else(|| "unknown".to_owned());
                out.records.push((json!({"type": kind, "index": next_index}), None));
                out.blocks.push(other);
            }
        }
    }
    out
}

/// Every image of the result (image blocks and embedded blobs whose bytes are an image),
/// decoded from base64 and fitted together: by position in the upstream's content.
type FittedImages = Vec<(usize, Result<(Vec<u8>, ImageOutcome), MediaNote>)>;

/// An image's bytes decoded from base64 with its declared MIME type, or why they could not be.
type DecodedImage = Result<(Vec<u8>, String), MediaNote>;

fn fit_result_images(blocks: &[ContentBlock], policy: &MediaPolicy, limits: &DecodeLimits) -> FittedImages {
    let mut decoded: Vec<(usize, DecodedImage)> = Vec::new();
    for (position, block) in blocks.iter().enumerate() {
        match block {
            ContentBlock::Image(image) => {
                decoded.push((position, decode_base64(&image.data).map(|b| (b, image.mime_type.clone()))));
            }
            ContentBlock::Resource(EmbeddedResource {
                resource: ResourceContents::BlobResourceContents { blob, mime_type, .. },
                ..
            }) => {
                // A blob is fitted as an image when its bytes are one.
                if let Ok(bytes) = decode_base64(blob)
                    && toolshape_media::ImageKind::sniff(&bytes).is_some()
                {
                    decoded.push((position, Ok((bytes, mime_type.clone().unwrap_or_default()))));
                }
            }
            _ => {}
        }
    }
    let inputs: Vec<ImageInput<'_>> = decoded
        .iter()
        .filter_map(|(_, d)| d.as_ref().ok().map(|(bytes, mime_type)| ImageInput { bytes, mime_type }))
        .collect();
    let mut outcomes = fit_images(&inputs, policy, limits).into_iter();
    decoded
        .into_iter()
        .map(|(position, d)| match d {
            Ok((bytes, _)) => match outcomes.next() {
                Some(outcome) => (position, Ok((bytes, outcome))),
                None => (position, Err(MediaNote::Empty)),
            },
            Err(note) => (position, Err(note)),
        })
        .collect()
}

/// An embedded resource: text passes or is shaped into the envelope; a blob is media.
#[allow(clippy::too_many_arguments)]
fn convert_resource(
    resource: EmbeddedResource,
    position: usize,
    item: u32,
    images: &FittedImages,
    policy: &MediaPolicy,
    text_room: usize,
    tokenizer: Tokenizer,
    out: &mut Converted,
) {
    let next_index = out.blocks.len() + 1;
    match &resource.resource {
        ResourceContents::TextResourceContents { uri, mime_type, text, .. } => {
            let room = text_room.saturating_sub(out.passed_text_tokens);
            match tokenizer.count_till_limit(text, room) {
                Some(tokens) => {
                    out.passed_text_tokens += tokens;
                    let mut record = json!({"type": "resource", "index": next_index, "uri": uri, "tokens": tokens});
                    insert_some(&mut record, "mimeType", mime_type.clone());
                    out.records.push((record, None));
                    out.blocks.push(ContentBlock::Resource(resource));
                }
                // Too large to pass whole: shaped like any text, with `next`.
                None => {
                    let mut record = json!({"type": "resource", "uri": uri, "text": text});
                    insert_some(&mut record, "mimeType", mime_type.clone());
                    out.records.push((record, None));
                }
            }
        }
        ResourceContents::BlobResourceContents { uri, mime_type, blob, .. } => {
            let declared = mime_type.clone().unwrap_or_default();
            let uri = uri.clone();
            if let Some((_, Ok((bytes, outcome)))) = images.iter().find(|(p, _)| *p == position) {
                let record = image_record("resource", Some(&uri), &declared, bytes, outcome, next_index);
                out.stats.add_image(bytes, outcome);
                let sent = match &outcome.delivery {
                    Delivery::Unchanged => Some((blob.clone(), sniffed_mime(outcome, &declared))),
                    Delivery::Fitted(f) => Some((encode_base64(&f.bytes), f.kind.mime_type().to_owned())),
                    Delivery::Omitted => None,
                };
                if let Some((blob, mime)) = sent {
                    let contents = ResourceContents::blob(blob, uri.clone()).with_mime_type(mime);
                    let mut sent = resource.clone();
                    sent.resource = contents;
                    out.blocks.push(ContentBlock::Resource(sent));
                }
                keep_if_cut(out, record, item, outcome.is_cut(), || Original {
                    kind: "resource",
                    mime_type: sniffed_mime(outcome, &declared),
                    uri: Some(uri.clone()),
                    bytes: bytes.clone(),
                });
                return;
            }
            match decode_base64(blob) {
                Ok(bytes) => {
                    let outcome = audio_outcome(&bytes, &declared, policy);
                    let record = audio_record("resource", Some(&uri), &declared, &outcome, next_index);
                    out.stats.add_binary(&outcome);
                    let cut = !outcome.sent;
                    if outcome.sent {
                        out.blocks.push(ContentBlock::Resource(resource.clone()));
                    }
                    keep_if_cut(out, record, item, cut, || Original {
                        kind: "resource",
                        mime_type: declared.clone(),
                        uri: Some(uri.clone()),
                        bytes,
                    });
                }
                Err(note) => {
                    out.stats.items += 1;
                    out.stats.cut += 1;
                    let record = json!({"type": "resource", "index": null, "uri": uri, "mimeType": declared,
                        "omitted": {"reason": note.to_string()}});
                    out.records.push((record, None));
                }
            }
        }
        // A kind of resource contents this version does not know: passed on, listed.
        _ => {
            out.records.push((json!({"type": "resource", "index": next_index}), None));
            out.blocks.push(ContentBlock::Resource(resource));
        }
    }
}

/// Adds `record`, and the original when the item was cut.
fn keep_if_cut(out: &mut Converted, record: Value, item: u32, cut: bool, original: impl FnOnce() -> Original) {
    if cut {
        out.keep.push((item, original()));
        out.records.push((record, Some(item)));
    } else {
        out.records.push((record, None));
    }
}

/// The MIME type of an image's own bytes when they were recognised, else the declared one.
fn sniffed_mime(outcome: &ImageOutcome, declared: &str) -> String {
    outcome.original.map_or_else(|| declared.to_owned(), |i| i.kind.mime_type().to_owned())
}

/// The listing of one image (or image blob).
fn image_record(
    kind: &str,
    uri: Option<&str>,
    declared: &str,
    bytes: &[u8],
    outcome: &ImageOutcome,
    next_index: usize,
) -> Value {
    let mut record = Map::new();
    record.insert("type".into(), kind.into());
    let sent = !matches!(outcome.delivery, Delivery::Omitted);
    record.insert("index".into(), if sent { next_index.into() } else { Value::Null });
    if let Some(uri) = uri {
        record.insert("uri".into(), uri.into());
    }
    let mime = outcome.sent_mime(declared).map_or_else(|| sniffed_mime(outcome, declared), str::to_owned);
    record.insert("mimeType".into(), mime.into());
    if let Some((w, h)) = outcome.sent_size() {
        record.insert("width".into(), w.into());
        record.insert("height".into(), h.into());
    }
    record.insert("tokens".into(), outcome.tokens.into());
    let notes: Vec<String> = outcome.notes.iter().map(ToString::to_string).collect();
    if outcome.is_cut() {
        let reason = match (&outcome.delivery, notes.is_empty()) {
            (Delivery::Fitted(_), _) => "downscaled to fit the media budget".to_owned(),
            (_, false) => notes.join("; "),
            (_, true) => "left out".to_owned(),
        };
        let mut original = Map::new();
        if let Some(info) = outcome.original {
            original.insert("width".into(), info.width.into());
            original.insert("height".into(), info.height.into());
        }
        original.insert("bytes".into(), bytes.len().into());
        if let Some(tokens) = outcome.original_tokens {
            original.insert("tokens".into(), tokens.into());
        }
        record.insert("omitted".into(), json!({"reason": reason, "original": original}));
    } else if !notes.is_empty() {
        record.insert("note".into(), notes.join("; ").into());
    }
    Value::Object(record)
}

/// The listing of one audio item (or non-image blob).
fn audio_record(kind: &str, uri: Option<&str>, declared: &str, outcome: &AudioOutcome, next_index: usize) -> Value {
    let mut record = Map::new();
    record.insert("type".into(), kind.into());
    record.insert("index".into(), if outcome.sent { next_index.into() } else { Value::Null });
    if let Some(uri) = uri {
        record.insert("uri".into(), uri.into());
    }
    record.insert("mimeType".into(), declared.into());
    record.insert("bytes".into(), outcome.bytes.into());
    let notes: Vec<String> = outcome.notes.iter().map(ToString::to_string).collect();
    if !outcome.sent {
        record.insert("omitted".into(), json!({"reason": notes.join("; "), "original": {"bytes": outcome.bytes}}));
    } else if !notes.is_empty() {
        record.insert("note".into(), notes.join("; ").into());
    }
    Value::Object(record)
}

fn insert_some(record: &mut Value, key: &str, value: Option<String>) {
    if let (Some(v), Some(map)) = (value, record.as_object_mut()) {
        map.insert(key.into(), v.into());
    }
}

/// Adds one item's figures to a call's counts.
trait Count {
    fn add_image(&mut self, bytes: &[u8], outcome: &ImageOutcome);
    fn add_binary(&mut self, outcome: &AudioOutcome);
}

impl Count for MediaStats {
    fn add_image(&mut self, bytes: &[u8], outcome: &ImageOutcome) {
        self.items += 1;
        self.cut += u64::from(outcome.is_cut());
        self.bytes_before += bytes.len() as u64;
        self.bytes_after += match &outcome.delivery {
            Delivery::Unchanged => bytes.len() as u64,
            Delivery::Fitted(f) => f.bytes.len() as u64,
            Delivery::Omitted => 0,
        };
        self.tokens_before += u64::from(outcome.original_tokens.unwrap_or(0));
        self.tokens_after += u64::from(outcome.tokens);
    }

    fn add_binary(&mut self, outcome: &AudioOutcome) {
        self.items += 1;
        self.cut += u64::from(!outcome.sent);
        self.bytes_before += outcome.bytes as u64;
        self.bytes_after += if outcome.sent { outcome.bytes as u64 } else { 0 };
    }
}

/// The listing as the bytes to shape: each record whose original was kept gets the `next`
/// that reads it (from `next_for`), or a note saying why it cannot be read again.
pub(super) fn render_listing(
    records: Vec<(Value, Option<u32>)>,
    mut next_for: impl FnMut(u32) -> Result<Value, String>,
) -> Vec<u8> {
    let items: Vec<Value> = records
        .into_iter()
        .map(|(mut record, kept)| {
            if let (Some(item), Some(map)) = (kept, record.as_object_mut()) {
                match next_for(item) {
                    Ok(next) => {
                        map.insert("next".into(), next);
                    }
                    Err(why) => {
                        map.insert("note".into(), why.into());
                    }
                }
            }
            record
        })
        .collect();
    serde_json::to_vec(&items).unwrap_or_default()
}

#[cfg(test)]
#[path = "media_tests.rs"]
mod tests;
