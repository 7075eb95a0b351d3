//! Re-encoding a fitted image: JPEG stays JPEG (photographs; written with the SIMD
//! `jpeg-encoder`, about three times faster than the `image` crate's own), everything else
//! becomes PNG (lossless, keeps transparency; a GIF's or WebP's first frame included).

use image::DynamicImage;
use image::codecs::png::{CompressionType, FilterType, PngEncoder};
use jpeg_encoder::{ColorType, Encoder as JpegEncoder};

use crate::format::ImageKind;
use crate::note::MediaNote;

/// JPEG quality of a re-encoded photograph: high enough that text in it stays legible.
const JPEG_QUALITY: u8 = 85;

/// An image as it is sent: its encoded bytes and what they are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodedImage {
    /// The encoded bytes.
    pub bytes: Vec<u8>,
    /// Their format.
    pub kind: ImageKind,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
}

/// The format a fitted image of a `source` image is written in.
#[must_use]
pub fn output_kind(source: ImageKind) -> ImageKind {
    match source {
        ImageKind::Jpeg => ImageKind::Jpeg,
        ImageKind::Png | ImageKind::Webp | ImageKind::Gif => ImageKind::Png,
    }
}

/// Encodes `image` in the output format for a `source` image.
///
/// # Errors
/// [`MediaNote::EncodeFailed`] with the encoder's message.
pub fn encode(image: &DynamicImage, source: ImageKind) -> Result<EncodedImage, MediaNote> {
    let kind = output_kind(source);
    let failed = |detail: String| MediaNote::EncodeFailed { detail };
    let mut bytes = Vec::new();
    if kind == ImageKind::Jpeg {
        let rgb = image.to_rgb8();
        let (Ok(width), Ok(height)) = (u16::try_from(rgb.width()), u16::try_from(rgb.height())) else {
            return Err(failed("a JPEG is at most 65,535 pixels a side".to_owned()));
        };
        JpegEncoder::new(&mut bytes, JPEG_QUALITY)
            .encode(rgb.as_raw(), width, height, ColorType::Rgb)
            .map_err(|e| failed(e.to_string()))?;
    } else {
        let encoder = PngEncoder::new_with_quality(&mut bytes, CompressionType::Fast, FilterType::Adaptive);
        // Eight bits per channel: what every client decodes.
        let eight_bit = if image.color().has_alpha() {
            DynamicImage::ImageRgba8(image.to_rgba8())
        } else {
            DynamicImage::ImageRgb8(image.to_rgb8())
        };
        eight_bit.write_with_encoder(encoder).map_err(|e| failed(e.to_string()))?;
    }
    Ok(EncodedImage { bytes, kind, width: image.width(), height: image.height() })
}
