//! Typed notes about one media item: why it was not sent as it came, or what was odd about
//! it. Each renders as one sentence a model (or its user) can act on; the gateway puts it in
//! the item's listing in the envelope's `data`, next to what was done with the item (sent,
//! fitted or omitted) and the `next` call that reads the original.

use std::fmt;

/// Something about one media item worth telling the reader.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MediaNote {
    /// The payload is not valid base64.
    NotBase64,
    /// The payload is empty.
    Empty,
    /// The bytes are none of the image formats toolshape decodes.
    UnknownFormat {
        /// The MIME type the server declared.
        declared: String,
    },
    /// The declared MIME type disagrees with the bytes; the item is labelled by its bytes.
    WrongMime {
        /// The MIME type the server declared.
        declared: String,
        /// The MIME type of the bytes.
        actual: &'static str,
    },
    /// The header declares more pixels than may be decoded (a decompression bomb or a lying
    /// header): refused before any pixel was decoded.
    TooLarge {
        /// Declared width.
        width: u32,
        /// Declared height.
        height: u32,
        /// The most pixels decoded for one image.
        max_pixels: u64,
    },
    /// Decoding would need more memory than allowed.
    OverMemory {
        /// The allowed memory for one decode, in bytes.
        max_bytes: u64,
    },
    /// The image data stops before the image is complete.
    Truncated {
        /// What the decoder reported.
        detail: String,
    },
    /// The image data does not decode (corrupt, or not what its header says).
    Corrupt {
        /// What the decoder reported.
        detail: String,
    },
    /// Even the smallest version of the image costs more than the budget left for it.
    OverBudget {
        /// Tokens of the image as it came.
        tokens: u32,
        /// Tokens left for it.
        share: u32,
    },
    /// Left out because the configured media mode is `drop`.
    Dropped,
    /// Audio larger than `audio_max_bytes`.
    AudioTooLarge {
        /// Its size in bytes.
        bytes: u64,
        /// The configured limit.
        max_bytes: u64,
    },
    /// Audio whose declared MIME type disagrees with its bytes.
    AudioWrongMime {
        /// The MIME type the server declared.
        declared: String,
        /// The MIME type of the bytes.
        actual: &'static str,
    },
    /// Re-encoding the fitted image failed (should not happen; the image was left out).
    EncodeFailed {
        /// What the encoder reported.
        detail: String,
    },
}

impl MediaNote {
    /// A stable name for this kind of note (`too_large`, `truncated`, …).
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            MediaNote::NotBase64 => "not_base64",
            MediaNote::Empty => "empty",
            MediaNote::UnknownFormat { .. } => "unknown_format",
            MediaNote::WrongMime { .. } => "wrong_mime",
            MediaNote::TooLarge { .. } => "too_large",
            MediaNote::OverMemory { .. } => "over_memory",
            MediaNote::Truncated { .. } => "truncated",
            MediaNote::Corrupt { .. } => "corrupt",
            MediaNote::OverBudget { .. } => "over_budget",
            MediaNote::Dropped => "dropped",
            MediaNote::AudioTooLarge { .. } => "audio_too_large",
            MediaNote::AudioWrongMime { .. } => "wrong_mime",
            MediaNote::EncodeFailed { .. } => "encode_failed",
        }
    }

    /// Whether the item was still sent (the note only reports something odd about it).
    #[must_use]
    pub fn is_warning(&self) -> bool {
        matches!(self, MediaNote::WrongMime { .. } | MediaNote::AudioWrongMime { .. })
    }
}

impl fmt::Display for MediaNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MediaNote::NotBase64 => f.write_str("the data is not valid base64"),
            MediaNote::Empty => f.write_str("the data is empty"),
            MediaNote::UnknownFormat { declared } => write!(
                f,
                "declared {declared:?} but the bytes are not PNG, JPEG, WebP or GIF, so their size is unknown"
            ),
            MediaNote::WrongMime { declared, actual } => {
                write!(f, "declared {declared:?} but the bytes are {actual}; sent as {actual}")
            }
            MediaNote::TooLarge { width, height, max_pixels } => write!(
                f,
                "the header declares {width}×{height} pixels, over the decode limit of {max_pixels} pixels (a decompression bomb or a lying header); not decoded"
            ),
            MediaNote::OverMemory { max_bytes } => {
                write!(f, "decoding needs more than {max_bytes} bytes of memory; not decoded")
            }
            MediaNote::Truncated { detail } => write!(f, "the image data is truncated ({detail})"),
            MediaNote::Corrupt { detail } => {
                write!(f, "the image data does not decode ({detail})")
            }
            MediaNote::OverBudget { tokens, share } => {
                write!(f, "costs {tokens} tokens and even its smallest version exceeds the {share} tokens left for it")
            }
            MediaNote::Dropped => f.write_str("left out (media mode `drop`)"),
            MediaNote::AudioTooLarge { bytes, max_bytes } => {
                write!(f, "{bytes} bytes of audio, over `audio_max_bytes` ({max_bytes})")
            }
            MediaNote::AudioWrongMime { declared, actual } => {
                write!(f, "declared {declared:?} but the bytes are {actual}")
            }
            MediaNote::EncodeFailed { detail } => write!(f, "re-encoding failed ({detail})"),
        }
    }
}
