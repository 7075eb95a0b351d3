//! Bounded decoding. The header is read first and its dimensions checked against the limits,
//! so a 100,000 × 100,000 PNG is refused before a single row is allocated; the decode itself
//! then runs under the `image` crate's `Limits` (sides and memory). PNG chunks that are
//! optional and carry a bad CRC are skipped, not fatal.

use std::io::{Cursor, ErrorKind};

use image::{DynamicImage, ImageError, ImageReader, Limits};

use crate::format::ImageKind;
use crate::note::MediaNote;

/// What decoding one image may cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecodeLimits {
    /// The most pixels (width × height) one image may declare.
    pub max_pixels: u64,
    /// The longest side one image may declare.
    pub max_side: u32,
    /// The most bytes the decoder may allocate for one image.
    pub max_alloc: u64,
}

impl Default for DecodeLimits {
    /// 40 megapixels (a 1280 × 30,000 full-page screenshot, or 8,000 × 5,000), sides up to
    /// 32,768 pixels, and 256 MiB for one decode.
    fn default() -> Self {
        DecodeLimits { max_pixels: 40_000_000, max_side: 32_768, max_alloc: 256 * 1024 * 1024 }
    }
}

impl DecodeLimits {
    fn for_decoder(&self) -> Limits {
        let mut limits = Limits::default();
        limits.max_image_width = Some(self.max_side);
        limits.max_image_height = Some(self.max_side);
        limits.max_alloc = Some(self.max_alloc);
        limits
    }
}

/// What the header of an image says, checked against its bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImageInfo {
    /// The format of the bytes (not the declared MIME type).
    pub kind: ImageKind,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Size of the encoded image in bytes.
    pub bytes: usize,
}

/// The header of an image, and the notes about it that do not stop it being used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Probe {
    /// What the header says.
    pub info: ImageInfo,
    /// Warnings (a MIME type that disagrees with the bytes).
    pub notes: Vec<MediaNote>,
}

/// Reads only the header of `bytes`: the format from its magic number, the dimensions, and
/// whether they are within `limits`. Nothing in proportion to the dimensions is allocated.
///
/// # Errors
/// A [`MediaNote`] when the bytes are empty, not a known format, their header is unreadable,
/// or the dimensions are over the limits.
pub fn probe(bytes: &[u8], declared_mime: &str, limits: &DecodeLimits) -> Result<Probe, MediaNote> {
    if bytes.is_empty() {
        return Err(MediaNote::Empty);
    }
    let kind =
        ImageKind::sniff(bytes).ok_or_else(|| MediaNote::UnknownFormat { declared: declared_mime.to_owned() })?;
    let mut notes = Vec::new();
    if ImageKind::from_mime(declared_mime) != Some(kind) {
        notes.push(MediaNote::WrongMime { declared: declared_mime.to_owned(), actual: kind.mime_type() });
    }
    let mut reader = ImageReader::with_format(Cursor::new(bytes), kind.codec());
    // Headers only: no side limit here, so that the real dimensions reach the check below.
    let mut header_limits = Limits::default();
    header_limits.max_alloc = Some(limits.max_alloc);
    reader.limits(header_limits);
    let (width, height) = reader.into_dimensions().map_err(|e| note_for(&e, limits))?;
    if width == 0 || height == 0 {
        return Err(MediaNote::Corrupt { detail: format!("the header declares {width}×{height} pixels") });
    }
    if u64::from(width) * u64::from(height) > limits.max_pixels || width.max(height) > limits.max_side {
        return Err(MediaNote::TooLarge { width, height, max_pixels: limits.max_pixels });
    }
    Ok(Probe { info: ImageInfo { kind, width, height, bytes: bytes.len() }, notes })
}

/// Decodes `bytes` (GIF: the first frame) under `limits`. Call [`probe`] first: this checks
/// that the pixels decoded match the header the probe read.
///
/// # Errors
/// A [`MediaNote`] saying why the image did not decode (truncated, corrupt, over memory).
pub fn decode(bytes: &[u8], info: &ImageInfo, limits: &DecodeLimits) -> Result<DynamicImage, MediaNote> {
    // The JPEG decoder fills in what is missing of a cut-off image: check the ending first.
    if info.kind == ImageKind::Jpeg && !jpeg_has_end_marker(bytes) {
        return Err(MediaNote::Truncated { detail: "the JPEG has no end-of-image marker".to_owned() });
    }
    let mut reader = ImageReader::with_format(Cursor::new(bytes), info.kind.codec());
    reader.limits(limits.for_decoder());
    let image = reader.decode().map_err(|e| note_for(&e, limits))?;
    if (image.width(), image.height()) != (info.width, info.height) {
        return Err(MediaNote::Corrupt {
            detail: format!(
                "the header says {}×{} but {}×{} pixels decoded",
                info.width,
                info.height,
                image.width(),
                image.height()
            ),
        });
    }
    Ok(image)
}

/// Whether a JPEG ends with its end-of-image marker (some writers add padding after it).
fn jpeg_has_end_marker(bytes: &[u8]) -> bool {
    let tail = &bytes[bytes.len().saturating_sub(64)..];
    tail.windows(2).any(|w| w == [0xFF, 0xD9])
}

/// The note for a decoder error.
fn note_for(error: &ImageError, limits: &DecodeLimits) -> MediaNote {
    match error {
        ImageError::Limits(_) => MediaNote::OverMemory { max_bytes: limits.max_alloc },
        ImageError::IoError(e) if e.kind() == ErrorKind::UnexpectedEof => {
            MediaNote::Truncated { detail: "the data ends early".to_owned() }
        }
        other => {
            let detail = other.to_string();
            let lower = detail.to_ascii_lowercase();
            if lower.contains("eof") || lower.contains("end of") || lower.contains("unexpected end") {
                MediaNote::Truncated { detail }
            } else {
                MediaNote::Corrupt { detail }
            }
        }
    }
}
