//! The media tools: deterministic images and sounds of any size, every MCP content type in
//! one result, and hostile media, for testing what a gateway does with them.
//!
//! - `render_image`: a dashboard chart of `width` × `height` pixels (4000 × 3000 by default)
//!   as PNG or JPEG, `count` times.
//! - `render_audio`: `seconds` of a rising tone as 16 kHz 16-bit mono WAV (32,000 bytes a
//!   second plus a 44-byte header).
//! - `mixed_media`: text, an image, audio, a resource link, embedded text resources (one
//!   small, one of `resource_kb` kilobytes) and an embedded blob, in that order.
//! - `hostile_media`: a decompression bomb's header, a truncated JPEG, a PNG labelled as JPEG,
//!   data that is not base64, and one good image.

use std::io::Cursor;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use image::{ImageFormat, Rgb, RgbImage};
use rmcp::model::{CallToolResult, ContentBlock, Resource, ResourceContents, Tool};
use serde_json::json;

use crate::catalog::{Args, read_only, tool};

/// The longest side `render_image` draws.
const MAX_SIDE: i64 = 8000;
/// The most images one `render_image` call answers.
const MAX_COUNT: i64 = 4;
/// The longest sound `render_audio` makes, in seconds.
const MAX_SECONDS: i64 = 600;
/// Audio samples per second.
const SAMPLE_RATE: u32 = 16_000;

/// The media tools, in listing order.
pub(crate) fn tools() -> Vec<Tool> {
    vec![
        tool(
            "render_image",
            "Render the sample dashboard (a bar chart with a title band and a grid) as a PNG or JPEG \
             image of `width` × `height` pixels, 4000 × 3000 by default: a large screenshot for testing \
             how images are fitted. `count` repeats it (up to 4 images in one result).",
            json!({
                "type": "object",
                "properties": {
                    "width": { "type": "integer", "minimum": 1, "maximum": MAX_SIDE, "default": 4000, "description": "Width in pixels" },
                    "height": { "type": "integer", "minimum": 1, "maximum": MAX_SIDE, "default": 3000, "description": "Height in pixels" },
                    "format": { "type": "string", "enum": ["png", "jpeg"], "default": "png", "description": "Image format" },
                    "count": { "type": "integer", "minimum": 1, "maximum": MAX_COUNT, "default": 1, "description": "How many images" }
                },
                "additionalProperties": false
            }),
        )
        .with_title("Render an image")
        .with_annotations(read_only()),
        tool(
            "render_audio",
            "Render `seconds` of a rising tone as a WAV file (16 kHz, 16-bit mono: 32,000 bytes a \
             second), 40 seconds (about 1.3 MB) by default: for testing how audio is passed.",
            json!({
                "type": "object",
                "properties": {
                    "seconds": { "type": "integer", "minimum": 1, "maximum": MAX_SECONDS, "default": 40, "description": "Length in seconds" }
                },
                "additionalProperties": false
            }),
        )
        .with_title("Render a sound")
        .with_annotations(read_only()),
        tool(
            "mixed_media",
            "Answer one result holding every MCP content type, in this order: text, a 320 × 200 PNG, \
             one second of WAV audio, a resource link, a small embedded text resource, an embedded text \
             resource of `resource_kb` kilobytes (64 by default), and an embedded PNG blob.",
            json!({
                "type": "object",
                "properties": {
                    "resource_kb": { "type": "integer", "minimum": 0, "maximum": 4096, "default": 64, "description": "Size of the large embedded text resource, in KiB" }
                },
                "additionalProperties": false
            }),
        )
        .with_title("Mixed content")
        .with_annotations(read_only()),
        tool(
            "hostile_media",
            "Answer hostile images for tests: a PNG whose header declares 100,000 × 100,000 pixels, a \
             JPEG cut in half, a PNG labelled image/jpeg, image data that is not base64, then one good \
             64 × 48 PNG.",
            json!({ "type": "object", "properties": {}, "additionalProperties": false }),
        )
        .with_title("Hostile media")
        .with_annotations(read_only()),
    ]
}

/// Runs media tool `name`, or `None` when it is not one of them.
pub(crate) fn call(name: &str, args: &Args) -> Option<Result<CallToolResult, String>> {
    Some(match name {
        "render_image" => render_image(args),
        "render_audio" => render_audio(args),
        "mixed_media" => mixed_media(args),
        "hostile_media" => Ok(hostile_media()),
        _ => return None,
    })
}

fn render_image(args: &Args) -> Result<CallToolResult, String> {
    let width = args.int("width", 1, MAX_SIDE)?.unwrap_or(4000) as u32;
    let height = args.int("height", 1, MAX_SIDE)?.unwrap_or(3000) as u32;
    let jpeg = args.choice("format", &["png", "jpeg"])? == Some("jpeg");
    let count = args.int("count", 1, MAX_COUNT)?.unwrap_or(1) as usize;
    let (format, mime) = if jpeg { (ImageFormat::Jpeg, "image/jpeg") } else { (ImageFormat::Png, "image/png") };
    let data = STANDARD.encode(encode(&dashboard(width, height), format)?);
    let mut content = vec![ContentBlock::text(format!(
        "The sample dashboard as {count} {width}×{height} {} image(s).",
        if jpeg { "JPEG" } else { "PNG" }
    ))];
    content.extend((0..count).map(|_| ContentBlock::image(data.clone(), mime)));
    Ok(CallToolResult::success(content))
}

fn render_audio(args: &Args) -> Result<CallToolResult, String> {
    let seconds = args.int("seconds", 1, MAX_SECONDS)?.unwrap_or(40) as u32;
    let wav = tone(seconds);
    Ok(CallToolResult::success(vec![
        ContentBlock::text(format!("{seconds} s of a rising tone, {} bytes of WAV.", wav.len())),
        ContentBlock::audio(STANDARD.encode(wav), "audio/wav"),
    ]))
}

fn mixed_media(args: &Args) -> Result<CallToolResult, String> {
    let kb = args.int("resource_kb", 0, 4096)?.unwrap_or(64) as usize;
    let image = STANDARD.encode(encode(&dashboard(320, 200), ImageFormat::Png)?);
    let blob = STANDARD.encode(encode(&dashboard(64, 64), ImageFormat::Png)?);
    let line = "2026-01-01T00:00:00Z INFO sample line of the large embedded resource\n";
    let large: String = line.repeat((kb * 1024).div_ceil(line.len())).chars().take(kb * 1024).collect();
    let link = Resource::new("sample://reports/q3.csv", "q3.csv")
        .with_description("Quarterly sales report")
        .with_mime_type("text/csv");
    Ok(CallToolResult::success(vec![
        ContentBlock::text("Every content type, in order."),
        ContentBlock::image(image, "image/png"),
        ContentBlock::audio(STANDARD.encode(tone(1)), "audio/wav"),
        ContentBlock::resource_link(link),
        ContentBlock::resource(
            ResourceContents::text("region,total\nEMEA,1200\nAMER,3400\n", "sample://reports/summary.csv")
                .with_mime_type("text/csv"),
        ),
        ContentBlock::resource(ResourceContents::text(large, "sample://logs/large.log")),
        ContentBlock::resource(ResourceContents::blob(blob, "sample://images/icon.png").with_mime_type("image/png")),
    ]))
}

fn hostile_media() -> CallToolResult {
    let good = encode(&dashboard(64, 48), ImageFormat::Png).unwrap_or_default();
    let jpeg = encode(&dashboard(200, 150), ImageFormat::Jpeg).unwrap_or_default();
    CallToolResult::success(vec![
        ContentBlock::text("Hostile images follow, then a good one."),
        ContentBlock::image(STANDARD.encode(png_bomb(100_000, 100_000)), "image/png"),
        ContentBlock::image(STANDARD.encode(&jpeg[..jpeg.len() / 2]), "image/jpeg"),
        ContentBlock::image(STANDARD.encode(&good), "image/jpeg"),
        ContentBlock::image("this is not base64!", "image/png"),
        ContentBlock::image(STANDARD.encode(&good), "image/png"),
    ])
}

fn encode(image: &RgbImage, format: ImageFormat) -> Result<Vec<u8>, String> {
    let mut out = Cursor::new(Vec::new());
    image.write_to(&mut out, format).map_err(|e| format!("could not encode the image: {e}"))?;
    Ok(out.into_inner())
}

/// The dashboard: a dark title band, a light grid every 100 pixels, and twelve bars whose
/// heights follow a fixed pattern, each in its own colour.
fn dashboard(width: u32, height: u32) -> RgbImage {
    const COLOURS: [[u8; 3]; 6] =
        [[66, 133, 244], [219, 68, 55], [244, 180, 0], [15, 157, 88], [171, 71, 188], [0, 172, 193]];
    let band = height / 12;
    let bars = 12u32;
    let slot = (width / bars).max(1);
    let mut img = RgbImage::from_pixel(width, height, Rgb([255, 255, 255]));
    for (y, row) in img.enumerate_rows_mut() {
        for (x, _, pixel) in row {
            if y < band {
                *pixel = Rgb([32, 36, 44]);
                continue;
            }
            let bar = (x / slot).min(bars - 1);
            let level = 30 + (bar * 37 + 11) % 60; // percent of the chart's height
            let top = band + (height - band) * (100 - level) / 100;
            let in_bar = x % slot >= slot / 6 && x % slot < slot - slot / 6;
            if in_bar && y >= top {
                *pixel = Rgb(COLOURS[(bar % 6) as usize]);
            } else if x % 100 == 0 || y % 100 == 0 {
                *pixel = Rgb([228, 230, 234]);
            }
        }
    }
    img
}

/// `seconds` of a tone rising from 220 to 880 Hz, as a 16-bit mono WAV file.
fn tone(seconds: u32) -> Vec<u8> {
    let samples = SAMPLE_RATE * seconds;
    let data_len = samples * 2;
    let mut wav = Vec::with_capacity(44 + data_len as usize);
    wav.extend_from_slice(b"RIFF");
    wav.extend_from_slice(&(36 + data_len).to_le_bytes());
    wav.extend_from_slice(b"WAVEfmt ");
    wav.extend_from_slice(&16u32.to_le_bytes()); // format chunk size
    wav.extend_from_slice(&1u16.to_le_bytes()); // PCM
    wav.extend_from_slice(&1u16.to_le_bytes()); // mono
    wav.extend_from_slice(&SAMPLE_RATE.to_le_bytes());
    wav.extend_from_slice(&(SAMPLE_RATE * 2).to_le_bytes()); // bytes per second
    wav.extend_from_slice(&2u16.to_le_bytes()); // block align
    wav.extend_from_slice(&16u16.to_le_bytes()); // bits per sample
    wav.extend_from_slice(b"data");
    wav.extend_from_slice(&data_len.to_le_bytes());
    let mut phase = 0f64;
    for i in 0..samples {
        let progress = f64::from(i) / f64::from(samples);
        phase += (220.0 + 660.0 * progress) / f64::from(SAMPLE_RATE);
        let sample = ((phase * std::f64::consts::TAU).sin() * 12_000.0) as i16;
        wav.extend_from_slice(&sample.to_le_bytes());
    }
    wav
}

/// A PNG whose header declares `width` × `height` pixels and whose data is one byte.
fn png_bomb(width: u32, height: u32) -> Vec<u8> {
    fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
        out.extend_from_slice(&(data.len() as u32).to_be_bytes());
        let start = out.len();
        out.extend_from_slice(kind);
        out.extend_from_slice(data);
        let crc = crc32(&out[start..]);
        out.extend_from_slice(&crc.to_be_bytes());
    }
    let mut ihdr = width.to_be_bytes().to_vec();
    ihdr.extend_from_slice(&height.to_be_bytes());
    ihdr.extend_from_slice(&[8, 2, 0, 0, 0]);
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    chunk(&mut out, b"IHDR", &ihdr);
    chunk(&mut out, b"IDAT", b"\x78\x9c\x63\x00\x00\x00\x01\x00\x01");
    chunk(&mut out, b"IEND", b"");
    out
}

/// The CRC-32 PNG chunks carry (bitwise; the bomb is a few dozen bytes).
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in bytes {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(name: &str, value: serde_json::Value) -> Args {
        let tool = tools().into_iter().find(|t| t.name == name).unwrap();
        Args::new(&tool, value.as_object().cloned()).unwrap()
    }

    fn image_of(block: &ContentBlock) -> image::DynamicImage {
        let data = STANDARD.decode(&block.as_image().unwrap().data).unwrap();
        image::load_from_memory(&data).unwrap()
    }

    #[test]
    fn render_image_draws_the_size_and_count_asked() {
        let out =
            call("render_image", &args("render_image", json!({"width": 800, "height": 600, "count": 2}))).unwrap();
        let out = out.unwrap();
        assert_eq!(out.content.len(), 3);
        let img = image_of(&out.content[1]);
        assert_eq!((img.width(), img.height()), (800, 600));
        // Deterministic: the same call draws the same bytes.
        let again = call("render_image", &args("render_image", json!({"width": 800, "height": 600}))).unwrap().unwrap();
        assert_eq!(out.content[1], again.content[1]);
        let jpeg = call("render_image", &args("render_image", json!({"width": 90, "height": 40, "format": "jpeg"})));
        assert_eq!(jpeg.unwrap().unwrap().content[1].as_image().unwrap().mime_type, "image/jpeg");
    }

    #[test]
    fn render_audio_is_a_wav_of_the_length_asked() {
        let out = call("render_audio", &args("render_audio", json!({"seconds": 2}))).unwrap().unwrap();
        let ContentBlock::Audio(audio) = &out.content[1] else { panic!("{:?}", out.content[1]) };
        let wav = STANDARD.decode(&audio.data).unwrap();
        assert_eq!(wav.len(), 44 + 2 * 32_000);
        assert_eq!(&wav[..4], b"RIFF");
        assert_eq!(&wav[8..12], b"WAVE");
    }

    #[test]
    fn mixed_media_holds_every_content_type_in_order() {
        let out = call("mixed_media", &args("mixed_media", json!({"resource_kb": 3}))).unwrap().unwrap();
        let kinds: Vec<&str> = out
            .content
            .iter()
            .map(|b| match b {
                ContentBlock::Text(_) => "text",
                ContentBlock::Image(_) => "image",
                ContentBlock::Audio(_) => "audio",
                ContentBlock::ResourceLink(_) => "resource_link",
                ContentBlock::Resource(_) => "resource",
                _ => "other",
            })
            .collect();
        assert_eq!(kinds, ["text", "image", "audio", "resource_link", "resource", "resource", "resource"]);
        let ContentBlock::Resource(large) = &out.content[5] else { panic!() };
        assert_eq!(large.get_text().len(), 3 * 1024);
    }

    #[test]
    fn the_bomb_declares_its_size_with_valid_crcs() {
        let bomb = png_bomb(100_000, 100_000);
        assert_eq!(&bomb[16..20], &100_000u32.to_be_bytes());
        // The CRC of IHDR matches a known-good implementation's (zlib's check value for
        // "123456789" is 0xCBF43926).
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        let out = hostile_media();
        assert_eq!(out.content.len(), 6);
        assert_eq!(image_of(&out.content[5]).width(), 64);
    }
}
