//! Images made for the tests: deterministic pictures in every format, and hostile ones
//! (decompression bombs, truncated data, lying headers, bad CRCs in optional chunks).

#![allow(dead_code, unreachable_pub, clippy::unwrap_used)]

use image::codecs::gif::GifEncoder;
use image::codecs::jpeg::JpegEncoder;
use image::codecs::png::PngEncoder;
use image::codecs::webp::WebPEncoder;
use image::{DynamicImage, ImageEncoder, Rgb, RgbImage, Rgba, RgbaImage};
use toolshape_media::ImageKind;

/// A deterministic picture: gradients, a grid and a diagonal, so that resampling has
/// something to average.
pub fn picture(width: u32, height: u32, seed: u32) -> RgbImage {
    RgbImage::from_fn(width, height, |x, y| {
        let grid = if (x / 16 + y / 16) % 2 == 0 { 40 } else { 0 };
        let r = ((x * 255) / width.max(1)) as u8;
        let g = ((y * 255) / height.max(1)) as u8;
        let b = (x.wrapping_mul(7).wrapping_add(y.wrapping_mul(13)).wrapping_add(seed) % 200) as u8;
        let diagonal = if x.abs_diff(y) < 2 { 255 } else { 0 };
        Rgb([r.saturating_add(grid), g.max(diagonal), b])
    })
}

/// `picture` encoded as `kind`.
pub fn encoded(kind: ImageKind, width: u32, height: u32, seed: u32) -> Vec<u8> {
    let img = picture(width, height, seed);
    let mut out = Vec::new();
    match kind {
        ImageKind::Png => {
            PngEncoder::new(&mut out).write_image(img.as_raw(), width, height, image::ExtendedColorType::Rgb8).unwrap()
        }
        ImageKind::Jpeg => JpegEncoder::new_with_quality(&mut out, 90)
            .write_image(img.as_raw(), width, height, image::ExtendedColorType::Rgb8)
            .unwrap(),
        ImageKind::Webp => WebPEncoder::new_lossless(&mut out)
            .write_image(img.as_raw(), width, height, image::ExtendedColorType::Rgb8)
            .unwrap(),
        ImageKind::Gif => {
            let rgba: RgbaImage = DynamicImage::ImageRgb8(img).to_rgba8();
            let mut encoder = GifEncoder::new_with_speed(&mut out, 30);
            encoder.encode(rgba.as_raw(), width, height, image::ExtendedColorType::Rgba8).unwrap();
        }
    }
    out
}

/// A PNG with transparency.
pub fn transparent_png(width: u32, height: u32) -> Vec<u8> {
    let img =
        RgbaImage::from_fn(width, height, |x, y| Rgba([(x % 256) as u8, (y % 256) as u8, 90, ((x + y) % 256) as u8]));
    let mut out = Vec::new();
    PngEncoder::new(&mut out).write_image(img.as_raw(), width, height, image::ExtendedColorType::Rgba8).unwrap();
    out
}

/// One PNG chunk with its length and CRC.
pub fn png_chunk(kind: &[u8; 4], data: &[u8], good_crc: bool) -> Vec<u8> {
    let mut out = (data.len() as u32).to_be_bytes().to_vec();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let mut hasher = crc32fast::Hasher::new();
    hasher.update(kind);
    hasher.update(data);
    let crc = hasher.finalize() ^ if good_crc { 0 } else { 0xDEAD_BEEF };
    out.extend_from_slice(&crc.to_be_bytes());
    out
}

/// A valid PNG with an `iCCP` chunk whose CRC is wrong inserted after `IHDR`, as some real
/// servers send.
pub fn png_with_bad_optional_crc(width: u32, height: u32) -> Vec<u8> {
    let png = encoded(ImageKind::Png, width, height, 1);
    let ihdr_end = 8 + 4 + 4 + 13 + 4;
    let mut out = png[..ihdr_end].to_vec();
    out.extend(png_chunk(b"iCCP", b"profile\0\0\x78\x9c\x03\x00\x00\x00\x00\x01", false));
    out.extend_from_slice(&png[ihdr_end..]);
    out
}

/// A PNG whose header declares `width` × `height` (a decompression bomb: one small IDAT).
pub fn png_bomb(width: u32, height: u32) -> Vec<u8> {
    let mut ihdr = width.to_be_bytes().to_vec();
    ihdr.extend_from_slice(&height.to_be_bytes());
    ihdr.extend_from_slice(&[8, 2, 0, 0, 0]); // 8-bit RGB
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    out.extend(png_chunk(b"IHDR", &ihdr, true));
    // A zlib stream of one zero byte: the header alone makes it a bomb.
    out.extend(png_chunk(b"IDAT", b"\x78\x9c\x63\x00\x00\x00\x01\x00\x01", true));
    out.extend(png_chunk(b"IEND", b"", true));
    out
}

/// A real JPEG whose frame header (SOF0) is patched to declare `width` × `height`.
pub fn jpeg_bomb(width: u16, height: u16) -> Vec<u8> {
    let mut out = encoded(ImageKind::Jpeg, 16, 16, 0);
    let sof = out.windows(2).position(|w| w == [0xFF, 0xC0]).unwrap();
    out[sof + 5..sof + 7].copy_from_slice(&height.to_be_bytes());
    out[sof + 7..sof + 9].copy_from_slice(&width.to_be_bytes());
    out
}

/// A real PNG whose IHDR is patched (CRC fixed) to declare `width` × `height`.
pub fn png_lying(width: u32, height: u32) -> Vec<u8> {
    let mut out = encoded(ImageKind::Png, 8, 8, 0);
    out[16..20].copy_from_slice(&width.to_be_bytes());
    out[20..24].copy_from_slice(&height.to_be_bytes());
    let crc = crc32fast::hash(&out[12..29]);
    out[29..33].copy_from_slice(&crc.to_be_bytes());
    out
}

/// A GIF whose logical screen and first frame declare `width` × `height`.
pub fn gif_bomb(width: u16, height: u16) -> Vec<u8> {
    let mut out = b"GIF89a".to_vec();
    out.extend_from_slice(&width.to_le_bytes());
    out.extend_from_slice(&height.to_le_bytes());
    out.extend_from_slice(&[0x80, 0, 0]); // global colour table of 2 entries
    out.extend_from_slice(&[0, 0, 0, 255, 255, 255]);
    out.push(0x2C); // image descriptor
    out.extend_from_slice(&[0, 0, 0, 0]);
    out.extend_from_slice(&width.to_le_bytes());
    out.extend_from_slice(&height.to_le_bytes());
    out.push(0);
    out.extend_from_slice(&[2, 2, 0x4C, 0x01, 0]); // a tiny LZW stream
    out.push(0x3B);
    out
}

/// A real lossless WebP whose VP8L header is patched to declare `width` × `height`
/// (each at most 16,384).
pub fn webp_bomb(width: u32, height: u32) -> Vec<u8> {
    let mut out = encoded(ImageKind::Webp, 16, 16, 0);
    assert_eq!(&out[12..16], b"VP8L");
    let old = u32::from_le_bytes(out[21..25].try_into().unwrap());
    let bits = (old & 0xF000_0000) | (width - 1) | ((height - 1) << 14);
    out[21..25].copy_from_slice(&bits.to_le_bytes());
    out
}

/// A deterministic screenshot-like picture: a title bar, a side panel, and lines of dark
/// "words" on white, as a browser page or an editor shows; compresses as screenshots do.
pub fn screenshot(width: u32, height: u32) -> RgbImage {
    let mut state = 0x9E37_79B9u32;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        state
    };
    let mut img = RgbImage::from_pixel(width, height, Rgb([255, 255, 255]));
    let bar = height / 20;
    let panel = width / 6;
    for y in 0..height {
        for x in 0..width {
            if y < bar {
                img.put_pixel(x, y, Rgb([40, 44, 52]));
            } else if x < panel {
                img.put_pixel(x, y, Rgb([245, 246, 248]));
            }
        }
    }
    let line = 28.max(height / 100);
    let mut y = bar + line;
    while y + line < height {
        let mut x = panel + 40;
        while x + 200 < width {
            let word = 20 + next() % 120;
            let shade = (next() % 60) as u8;
            for dy in 0..line / 2 {
                for dx in 0..word {
                    img.put_pixel(x + dx, y + dy, Rgb([shade, shade, shade + 20]));
                }
            }
            x += word + 14;
        }
        y += line + line / 2;
    }
    img
}

/// A deterministic photo-like picture: smooth light, a horizon and fine grain.
pub fn photo(width: u32, height: u32) -> RgbImage {
    RgbImage::from_fn(width, height, |x, y| {
        let grain = ((x.wrapping_mul(2_654_435_761) ^ y.wrapping_mul(40_503)) >> 27) as u8;
        let sky = y < height * 2 / 5;
        let fx = (x * 255 / width.max(1)) as u8;
        let fy = (y * 255 / height.max(1)) as u8;
        if sky {
            Rgb([90 + fx / 4 + grain, 140 + fy / 4 + grain, 230 - fy / 8])
        } else {
            Rgb([60 + fy / 3 + grain, 110 + fx / 5 + grain, 40 + grain])
        }
    })
}

/// `img` encoded as PNG (the encoder's default settings) or JPEG (quality 90).
pub fn encode_as(img: &RgbImage, kind: ImageKind) -> Vec<u8> {
    let mut out = Vec::new();
    let (w, h) = img.dimensions();
    match kind {
        ImageKind::Jpeg => JpegEncoder::new_with_quality(&mut out, 90)
            .write_image(img.as_raw(), w, h, image::ExtendedColorType::Rgb8)
            .unwrap(),
        _ => PngEncoder::new(&mut out).write_image(img.as_raw(), w, h, image::ExtendedColorType::Rgb8).unwrap(),
    }
    out
}
