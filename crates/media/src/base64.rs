//! Base64 as MCP carries binary data, read leniently (padding optional, line breaks ignored)
//! because servers differ, and written in the standard alphabet with padding.

use base64::Engine;
use base64::engine::DecodePaddingMode;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig, STANDARD};

use crate::note::MediaNote;

const LENIENT: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// Decodes MCP base64 data.
///
/// # Errors
/// [`MediaNote::NotBase64`] when it is not base64 even with whitespace removed.
pub fn decode_base64(data: &str) -> Result<Vec<u8>, MediaNote> {
    LENIENT.decode(data).or_else(|_| {
        let compact: String = data.chars().filter(|c| !c.is_ascii_whitespace()).collect();
        LENIENT.decode(compact).map_err(|_| MediaNote::NotBase64)
    })
}

/// Encodes bytes as MCP base64 data.
#[must_use]
pub fn encode_base64(bytes: &[u8]) -> String {
    STANDARD.encode(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_reads_leniently() {
        let bytes = b"\x89PNG\r\n\x1a\n\x00\xff";
        let text = encode_base64(bytes);
        assert_eq!(decode_base64(&text).as_deref(), Ok(&bytes[..]));
        assert_eq!(decode_base64(text.trim_end_matches('=')).as_deref(), Ok(&bytes[..]));
        let wrapped = format!("{}\n{}", &text[..4], &text[4..]);
        assert_eq!(decode_base64(&wrapped).as_deref(), Ok(&bytes[..]));
        assert_eq!(decode_base64("not base64!"), Err(MediaNote::NotBase64));
    }
}
