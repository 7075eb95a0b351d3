//! The media step by example: what the listing says and which blocks follow the envelope.

use image::{DynamicImage, RgbImage};
use rmcp::model::{ContentBlock, Resource, ResourceContents};
use serde_json::Value;
use toolshape_media::{DecodeLimits, Formula, ImageKind, MediaMode, MediaPolicy, decode_base64, encode_base64};
use toolshape_tokens::{Encoding, Tokenizer};

use super::*;

fn png(width: u32, height: u32) -> Vec<u8> {
    let img = RgbImage::from_fn(width, height, |x, y| image::Rgb([(x % 256) as u8, (y % 256) as u8, 128]));
    toolshape_media::encode(&DynamicImage::ImageRgb8(img), ImageKind::Png).unwrap().bytes
}

fn wav(len: usize) -> Vec<u8> {
    let mut bytes = b"RIFF\0\0\0\0WAVEfmt ".to_vec();
    bytes.resize(len, 0);
    bytes
}

fn run(blocks: Vec<ContentBlock>, policy: MediaPolicy) -> Converted {
    convert(blocks, &policy, 4000, Tokenizer::new(Encoding::O200kBase), &DecodeLimits::default())
}

fn listing(converted: &Converted) -> Vec<Value> {
    converted.records.iter().map(|(r, _)| r.clone()).collect()
}

#[test]
fn a_small_image_passes_byte_for_byte_and_is_listed_in_place() {
    let data = encode_base64(&png(40, 30));
    let blocks =
        vec![ContentBlock::text("before"), ContentBlock::image(data.clone(), "image/png"), ContentBlock::text("after")];
    let out = run(blocks, MediaPolicy::default());
    let records = listing(&out);
    assert_eq!(records[0]["text"], "before");
    assert_eq!(records[1]["type"], "image");
    assert_eq!(records[1]["index"], 1);
    assert_eq!((records[1]["width"].as_u64(), records[1]["height"].as_u64()), (Some(40), Some(30)));
    assert_eq!(records[1]["tokens"], Formula::Anthropic.tokens(40, 30));
    assert!(records[1].get("omitted").is_none());
    assert_eq!(records[2]["text"], "after");
    assert_eq!(out.blocks.len(), 1);
    assert_eq!(out.blocks[0].as_image().unwrap().data, data, "byte for byte");
    assert!(out.keep.is_empty());
    assert_eq!(out.stats.items, 1);
    assert_eq!(out.stats.cut, 0);
}

#[test]
fn a_large_image_is_downscaled_into_the_budget_and_its_original_kept() {
    let original = png(2000, 1000);
    let blocks = vec![ContentBlock::image(encode_base64(&original), "image/png")];
    let policy = MediaPolicy { budget_tokens: 500, ..MediaPolicy::default() };
    let out = run(blocks, policy);
    let record = &listing(&out)[0];
    assert!(record["tokens"].as_u64().unwrap() <= 500);
    assert_eq!(record["omitted"]["original"]["width"], 2000);
    assert_eq!(record["omitted"]["original"]["bytes"], original.len());
    let sent = decode_base64(&out.blocks[0].as_image().unwrap().data).unwrap();
    let decoded = image::load_from_memory(&sent).unwrap();
    assert_eq!(Some(u64::from(decoded.width())), record["width"].as_u64());
    assert_eq!(out.keep.len(), 1);
    assert_eq!(out.keep[0].1.bytes, original);
    assert_eq!(out.records[0].1, Some(1), "the listing names the kept original");
    assert!(out.stats.tokens_after <= 500 && out.stats.tokens_before > out.stats.tokens_after);
}

#[test]
fn indexes_count_only_the_blocks_that_follow_the_envelope() {
    let big = encode_base64(&png(400, 400));
    let small = encode_base64(&png(20, 20));
    let blocks = vec![
        ContentBlock::image(big, "image/png"),
        ContentBlock::image(small, "image/png"),
        ContentBlock::resource_link(Resource::new("file:///r.csv", "r.csv")),
    ];
    let out = run(blocks, MediaPolicy { mode: MediaMode::Drop, ..MediaPolicy::default() });
    let records = listing(&out);
    assert_eq!(records[0]["index"], Value::Null);
    assert_eq!(records[1]["index"], Value::Null);
    assert_eq!(records[2]["index"], 1);
    assert_eq!(records[2]["uri"], "file:///r.csv");
    assert_eq!(out.blocks.len(), 1);
    assert_eq!(out.keep.len(), 2);
    assert!(records[0]["omitted"]["reason"].as_str().unwrap().contains("drop"));
}

#[test]
fn audio_passes_under_the_limit_and_is_kept_over_it() {
    let policy = MediaPolicy { audio_max_bytes: 1000, ..MediaPolicy::default() };
    let blocks = vec![
        ContentBlock::audio(encode_base64(&wav(500)), "audio/wav"),
        ContentBlock::audio(encode_base64(&wav(5000)), "audio/wav"),
    ];
    let out = run(blocks, policy);
    let records = listing(&out);
    assert_eq!(records[0]["index"], 1);
    assert_eq!(records[0]["bytes"], 500);
    assert_eq!(records[1]["index"], Value::Null);
    assert!(records[1]["omitted"]["reason"].as_str().unwrap().contains("audio_max_bytes"));
    assert_eq!(out.blocks.len(), 1);
    assert_eq!(out.keep.len(), 1);
    assert_eq!(out.keep[0].0, 2, "kept under its position in the upstream's content");
}

#[test]
fn embedded_text_passes_while_it_fits_and_is_shaped_when_it_does_not() {
    let small = ResourceContents::text("a,b\n1,2\n", "file:///small.csv");
    let large = ResourceContents::text("word ".repeat(5000), "file:///large.txt");
    let out = run(vec![ContentBlock::resource(small), ContentBlock::resource(large)], MediaPolicy::default());
    let records = listing(&out);
    assert_eq!(records[0]["index"], 1);
    assert!(records[0]["tokens"].as_u64().unwrap() > 0);
    assert!(records[0].get("text").is_none());
    assert_eq!(records[1].get("index"), None);
    assert!(records[1]["text"].as_str().unwrap().starts_with("word"));
    assert_eq!(out.blocks.len(), 1);
    assert_eq!(out.passed_text_tokens as u64, records[0]["tokens"].as_u64().unwrap());
}

#[test]
fn an_image_blob_is_fitted_and_stays_a_resource() {
    let blob = ResourceContents::blob(encode_base64(&png(3000, 2000)), "file:///shot.png").with_mime_type("image/png");
    let out = run(vec![ContentBlock::resource(blob)], MediaPolicy { budget_tokens: 300, ..MediaPolicy::default() });
    let record = &listing(&out)[0];
    assert_eq!(record["type"], "resource");
    assert_eq!(record["uri"], "file:///shot.png");
    assert!(record["tokens"].as_u64().unwrap() <= 300);
    let ContentBlock::Resource(r) = &out.blocks[0] else { panic!("{:?}", out.blocks[0]) };
    let ResourceContents::BlobResourceContents { blob, uri, .. } = &r.resource else { panic!() };
    assert_eq!(uri, "file:///shot.png");
    assert!(image::load_from_memory(&decode_base64(blob).unwrap()).unwrap().width() < 3000);
}

#[test]
fn hostile_images_are_noted_and_the_rest_is_intact() {
    let blocks = vec![
        ContentBlock::image("not base64!", "image/png"),
        ContentBlock::image(encode_base64(b"GIF89a but not really"), "image/gif"),
        ContentBlock::image(encode_base64(&png(10, 10)), "image/jpeg"),
        ContentBlock::text("still here"),
    ];
    let out = run(blocks, MediaPolicy::default());
    let records = listing(&out);
    assert!(records[0]["omitted"]["reason"].as_str().unwrap().contains("base64"));
    assert_eq!(records[1]["index"], Value::Null);
    assert!(records[1]["omitted"]["reason"].is_string());
    assert_eq!(records[2]["index"], 1);
    assert_eq!(records[2]["mimeType"], "image/png");
    assert!(records[2]["note"].as_str().unwrap().contains("image/jpeg"));
    assert_eq!(records[3]["text"], "still here");
    assert_eq!(out.blocks.len(), 1);
    assert_eq!(out.blocks[0].as_image().unwrap().mime_type, "image/png");
}

#[test]
fn listing_offers_next_or_says_why_not() {
    let records =
        vec![(serde_json::json!({"type": "image"}), Some(1)), (serde_json::json!({"type": "image"}), Some(2))];
    let bytes = render_listing(records, |item| {
        if item == 1 { Ok(serde_json::json!({"tool": "result_read"})) } else { Err("too large".into()) }
    });
    let v: Vec<Value> = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(v[0]["next"]["tool"], "result_read");
    assert_eq!(v[1]["note"], "too large");
    assert!(v[1].get("next").is_none());
}
