//! The image and audio formats toolshape recognises, told from the bytes themselves (their
//! magic numbers), never from the MIME type a server declares.

/// An image format this crate decodes: the four that model providers accept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ImageKind {
    /// Portable Network Graphics.
    Png,
    /// JPEG (JFIF or Exif).
    Jpeg,
    /// WebP (lossy or lossless).
    Webp,
    /// GIF (its first frame).
    Gif,
}

impl ImageKind {
    /// The MIME type of this format.
    #[must_use]
    pub fn mime_type(self) -> &'static str {
        match self {
            ImageKind::Png => "image/png",
            ImageKind::Jpeg => "image/jpeg",
            ImageKind::Webp => "image/webp",
            ImageKind::Gif => "image/gif",
        }
    }

    /// The format a MIME type names, if it is one of these four (`image/jpg` accepted;
    /// parameters and case ignored).
    #[must_use]
    pub fn from_mime(mime: &str) -> Option<ImageKind> {
        let essence = mime.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
        match essence.as_str() {
            "image/png" => Some(ImageKind::Png),
            "image/jpeg" | "image/jpg" | "image/pjpeg" => Some(ImageKind::Jpeg),
            "image/webp" => Some(ImageKind::Webp),
            "image/gif" => Some(ImageKind::Gif),
            _ => None,
        }
    }

    /// The format of `bytes`, from their first bytes.
    #[must_use]
    pub fn sniff(bytes: &[u8]) -> Option<ImageKind> {
        if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
            Some(ImageKind::Png)
        } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
            Some(ImageKind::Jpeg)
        } else if bytes.len() >= 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
            Some(ImageKind::Webp)
        } else if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
            Some(ImageKind::Gif)
        } else {
            None
        }
    }

    /// The `image` crate's name for this format.
    pub(crate) fn codec(self) -> image::ImageFormat {
        match self {
            ImageKind::Png => image::ImageFormat::Png,
            ImageKind::Jpeg => image::ImageFormat::Jpeg,
            ImageKind::Webp => image::ImageFormat::WebP,
            ImageKind::Gif => image::ImageFormat::Gif,
        }
    }
}

/// An audio container told from its bytes, for checking a declared MIME type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AudioKind {
    /// RIFF WAVE.
    Wav,
    /// MPEG audio (with or without an ID3 tag).
    Mp3,
    /// Ogg (Vorbis or Opus).
    Ogg,
    /// FLAC.
    Flac,
}

impl AudioKind {
    /// The usual MIME type of this container.
    #[must_use]
    pub fn mime_type(self) -> &'static str {
        match self {
            AudioKind::Wav => "audio/wav",
            AudioKind::Mp3 => "audio/mpeg",
            AudioKind::Ogg => "audio/ogg",
            AudioKind::Flac => "audio/flac",
        }
    }

    /// The container a MIME type names, if it is one of these (common aliases accepted).
    #[must_use]
    pub fn from_mime(mime: &str) -> Option<AudioKind> {
        let essence = mime.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
        match essence.as_str() {
            "audio/wav" | "audio/wave" | "audio/x-wav" | "audio/vnd.wave" => Some(AudioKind::Wav),
            "audio/mpeg" | "audio/mp3" => Some(AudioKind::Mp3),
            "audio/ogg" | "audio/opus" | "audio/vorbis" => Some(AudioKind::Ogg),
            "audio/flac" | "audio/x-flac" => Some(AudioKind::Flac),
            _ => None,
        }
    }

    /// The container of `bytes`, from their first bytes.
    #[must_use]
    pub fn sniff(bytes: &[u8]) -> Option<AudioKind> {
        if bytes.len() >= 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WAVE" {
            Some(AudioKind::Wav)
        } else if bytes.starts_with(b"ID3") || (bytes.len() >= 2 && bytes[0] == 0xFF && bytes[1] & 0xE0 == 0xE0) {
            Some(AudioKind::Mp3)
        } else if bytes.starts_with(b"OggS") {
            Some(AudioKind::Ogg)
        } else if bytes.starts_with(b"fLaC") {
            Some(AudioKind::Flac)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_are_told_by_their_bytes() {
        assert_eq!(ImageKind::sniff(b"\x89PNG\r\n\x1a\nrest"), Some(ImageKind::Png));
        assert_eq!(ImageKind::sniff(&[0xFF, 0xD8, 0xFF, 0xE0]), Some(ImageKind::Jpeg));
        assert_eq!(ImageKind::sniff(b"RIFF\0\0\0\0WEBPVP8 "), Some(ImageKind::Webp));
        assert_eq!(ImageKind::sniff(b"GIF89a"), Some(ImageKind::Gif));
        assert_eq!(ImageKind::sniff(b"<svg"), None);
        assert_eq!(ImageKind::sniff(b""), None);
    }

    #[test]
    fn mime_types_are_read_leniently() {
        assert_eq!(ImageKind::from_mime("IMAGE/PNG; charset=binary"), Some(ImageKind::Png));
        assert_eq!(ImageKind::from_mime("image/jpg"), Some(ImageKind::Jpeg));
        assert_eq!(ImageKind::from_mime("image/svg+xml"), None);
        for kind in [ImageKind::Png, ImageKind::Jpeg, ImageKind::Webp, ImageKind::Gif] {
            assert_eq!(ImageKind::from_mime(kind.mime_type()), Some(kind));
        }
    }

    #[test]
    fn audio_is_told_by_its_bytes() {
        assert_eq!(AudioKind::sniff(b"RIFF\0\0\0\0WAVEfmt "), Some(AudioKind::Wav));
        assert_eq!(AudioKind::sniff(b"ID3\x04"), Some(AudioKind::Mp3));
        assert_eq!(AudioKind::sniff(b"OggS\0"), Some(AudioKind::Ogg));
        assert_eq!(AudioKind::sniff(b"fLaC"), Some(AudioKind::Flac));
        assert_eq!(AudioKind::sniff(b"hello"), None);
        for kind in [AudioKind::Wav, AudioKind::Mp3, AudioKind::Ogg, AudioKind::Flac] {
            assert_eq!(AudioKind::from_mime(kind.mime_type()), Some(kind));
        }
    }
}
