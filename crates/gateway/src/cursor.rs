//! Signed cursors: the opaque strings in `next` that name a stored snapshot and where to read
//! it from.
//!
//! A cursor is URL-safe base64 (no padding) of a small binary record followed by a truncated
//! HMAC-SHA256 tag over it:
//!
//! ```text
//! version (1) | snapshot id (16) | expiry, unix seconds (4, BE) | scope tag (8) | resume | tag (16)
//! resume = kind (1) [offset varint] [end varint]
//!          kind 0 handle · 1 records · 2 text to the end · 3 text up to `end` · 4 fields
//!               5 records up to `end` · 6 text up to `end` bytes before the end
//! ```
//!
//! The scope tag is the start of SHA-256 over the principal or session that made the
//! snapshot, so a cursor read from another session is refused without revealing whose it
//! is. Binary and truncated because every character of a cursor is paid for in the model's
//! budget: a cursor is about 70 characters. The 128-bit tag makes forgery impractical; the
//! 128-bit random snapshot id makes handles unguessable even without it.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, KeyInit, Mac};
use sha2::{Digest, Sha256};
use toolshape_shape::Resume;

const VERSION: u8 = 1;
const TAG_LEN: usize = 16;
pub(crate) const SCOPE_LEN: usize = 8;
/// Longest cursor text accepted: bounds the work done on hostile input.
const MAX_CURSOR_CHARS: usize = 200;

/// A snapshot's identity: 16 random bytes, written as 32 hex characters in store keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct SnapshotId(pub(crate) [u8; 16]);

impl SnapshotId {
    /// A fresh random id.
    pub(crate) fn random() -> SnapshotId {
        let mut b = [0u8; 16];
        toolshape_util::random::fill(&mut b);
        SnapshotId(b)
    }

    /// The id as 32 lowercase hex characters.
    pub(crate) fn hex(&self) -> String {
        toolshape_util::hex(&self.0)
    }
}

/// What a cursor says: which snapshot, from where, for whom, until when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Cursor {
    /// The snapshot it reads.
    pub(crate) snapshot: SnapshotId,
    /// Where reading resumes.
    pub(crate) resume: Resume,
    /// Unix seconds after which it is refused.
    pub(crate) expires_unix: u32,
    /// The scope tag of the principal or session it belongs to.
    pub(crate) scope: [u8; SCOPE_LEN],
}

/// Why a cursor was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum CursorError {
    /// Not a cursor toolshape wrote (bad base64, wrong length or version).
    #[error("it is not a cursor toolshape wrote")]
    Malformed,
    /// The signature does not match: it was changed or made up.
    #[error("its signature does not match")]
    Tampered,
    /// It is past its expiry.
    #[error("it has expired")]
    Expired,
    /// It belongs to another session or principal.
    #[error("it belongs to another session")]
    OtherScope,
}

/// The secret that signs cursors.
#[derive(Clone)]
pub(crate) struct CursorKey {
    key: [u8; 32],
}

impl std::fmt::Debug for CursorKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The key itself is a secret: never printed.
        f.write_str("CursorKey(..)")
    }
}

impl CursorKey {
    /// A key derived from a configured secret (any length; hashed to 32 bytes), so that
    /// several processes sharing the secret accept each other's cursors.
    pub(crate) fn from_secret(secret: &[u8]) -> CursorKey {
        let mut h = Sha256::new();
        h.update(b"toolshape cursor key v1\0");
        h.update(secret);
        CursorKey { key: h.finalize().into() }
    }

    /// A random key, good for this process only.
    pub(crate) fn random() -> CursorKey {
        let mut key = [0u8; 32];
        toolshape_util::random::fill(&mut key);
        CursorKey { key }
    }

    /// The scope tag for a principal or session name.
    pub(crate) fn scope_tag(scope: &str) -> [u8; SCOPE_LEN] {
        let mut h = Sha256::new();
        h.update(b"toolshape scope\0");
        h.update(scope.as_bytes());
        let d = h.finalize();
        let mut out = [0u8; SCOPE_LEN];
        out.copy_from_slice(&d[..SCOPE_LEN]);
        out
    }

    fn tag(&self, body: &[u8]) -> [u8; TAG_LEN] {
        // A 32-byte key is always a valid HMAC key; the fallback is never taken.
        let mut mac = match <Hmac<Sha256> as KeyInit>::new_from_slice(&self.key) {
            Ok(m) => m,
            Err(_) => return [0u8; TAG_LEN],
        };
        mac.update(body);
        let full = mac.finalize().into_bytes();
        let mut out = [0u8; TAG_LEN];
        out.copy_from_slice(&full[..TAG_LEN]);
        out
    }

    /// Write `cursor` as signed text.
    pub(crate) fn encode(&self, cursor: &Cursor) -> String {
        let mut body = Vec::with_capacity(64);
        body.push(VERSION);
        body.extend_from_slice(&cursor.snapshot.0);
        body.extend_from_slice(&cursor.expires_unix.to_be_bytes());
        body.extend_from_slice(&cursor.scope);
        match cursor.resume {
            Resume::Handle => body.push(0),
            Resume::Records { offset, end: None, facets: None } => {
                body.push(1);
                put_varint(&mut body, offset);
            }
            Resume::Records { offset, end, facets: Some(facets) } => {
                body.push(7);
                put_varint(&mut body, offset);
                // 0 for no end; else the end plus one.
                put_varint(&mut body, end.map_or(0, |e| e.saturating_add(1)));
                put_varint(&mut body, facets);
            }
            Resume::Records { offset, end: Some(end), facets: None } => {
                body.push(5);
                put_varint(&mut body, offset);
                put_varint(&mut body, end);
            }
            Resume::Text { offset, end: None } => {
                body.push(2);
                put_varint(&mut body, offset);
            }
            Resume::Text { offset, end: Some(end) } => {
                body.push(3);
                put_varint(&mut body, offset);
                put_varint(&mut body, end);
            }
            Resume::Fields { offset } => {
                body.push(4);
                put_varint(&mut body, offset);
            }
            Resume::TextBefore { offset, before_end } => {
                body.push(6);
                put_varint(&mut body, offset);
                put_varint(&mut body, before_end);
            }
        }
        let tag = self.tag(&body);
        body.extend_from_slice(&tag);
        URL_SAFE_NO_PAD.encode(&body)
    }

    /// Read and check a cursor: its signature, its expiry against `now_unix`, and that it
    /// belongs to `scope`.
    pub(crate) fn decode(&self, text: &str, scope: &[u8; SCOPE_LEN], now_unix: u64) -> Result<Cursor, CursorError> {
        let text = text.trim();
        if text.is_empty() || text.len() > MAX_CURSOR_CHARS {
            return Err(CursorError::Malformed);
        }
        let raw = URL_SAFE_NO_PAD.decode(text).map_err(|_| CursorError::Malformed)?;
        let fixed = 1 + 16 + 4 + SCOPE_LEN + 1;
        if raw.len() < fixed + TAG_LEN {
            return Err(CursorError::Malformed);
        }
        let (body, tag) = raw.split_at(raw.len() - TAG_LEN);
        // Constant-time comparison: the tag must not be guessable byte by byte.
        let want = self.tag(body);
        let diff = want.iter().zip(tag).fold(0u8, |acc, (a, b)| acc | (a ^ b));
        if diff != 0 {
            return Err(CursorError::Tampered);
        }
        if body[0] != VERSION {
            return Err(CursorError::Malformed);
        }
        let mut snapshot = [0u8; 16];
        snapshot.copy_from_slice(&body[1..17]);
        let mut exp = [0u8; 4];
        exp.copy_from_slice(&body[17..21]);
        let expires_unix = u32::from_be_bytes(exp);
        let mut cursor_scope = [0u8; SCOPE_LEN];
        cursor_scope.copy_from_slice(&body[21..21 + SCOPE_LEN]);
        let mut rest = &body[21 + SCOPE_LEN..];
        let kind = take_byte(&mut rest)?;
        let resume = match kind {
            0 => Resume::Handle,
            1 => Resume::Records { offset: take_varint(&mut rest)?, end: None, facets: None },
            2 => Resume::Text { offset: take_varint(&mut rest)?, end: None },
            3 => {
                let offset = take_varint(&mut rest)?;
                Resume::Text { offset, end: Some(take_varint(&mut rest)?) }
            }
            4 => Resume::Fields { offset: take_varint(&mut rest)? },
            5 => {
                let offset = take_varint(&mut rest)?;
                Resume::Records { offset, end: Some(take_varint(&mut rest)?), facets: None }
            }
            7 => {
                let offset = take_varint(&mut rest)?;
                let end = take_varint(&mut rest)?.checked_sub(1);
                Resume::Records { offset, end, facets: Some(take_varint(&mut rest)?) }
            }
            6 => {
                let offset = take_varint(&mut rest)?;
                Resume::TextBefore { offset, before_end: take_varint(&mut rest)? }
            }
            _ => return Err(CursorError::Malformed),
        };
        if !rest.is_empty() {
            return Err(CursorError::Malformed);
        }
        if u64::from(expires_unix) <= now_unix {
            return Err(CursorError::Expired);
        }
        if &cursor_scope != scope {
            return Err(CursorError::OtherScope);
        }
        Ok(Cursor { snapshot: SnapshotId(snapshot), resume, expires_unix, scope: cursor_scope })
    }
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

fn take_byte(rest: &mut &[u8]) -> Result<u8, CursorError> {
    let (&b, tail) = rest.split_first().ok_or(CursorError::Malformed)?;
    *rest = tail;
    Ok(b)
}

fn take_varint(rest: &mut &[u8]) -> Result<u64, CursorError> {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let b = take_byte(rest)?;
        v |= u64::from(b & 0x7f) << shift;
        if b & 0x80 == 0 {
            return Ok(v);
        }
    }
    Err(CursorError::Malformed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(resume: Resume) -> Cursor {
        Cursor { snapshot: SnapshotId([7; 16]), resume, expires_unix: 2_000_000_000, scope: CursorKey::scope_tag("s") }
    }

    #[test]
    fn round_trips_every_resume_kind() {
        let key = CursorKey::random();
        let scope = CursorKey::scope_tag("s");
        for r in [
            Resume::Handle,
            Resume::Records { offset: 0, end: None, facets: None },
            Resume::Records { offset: u64::MAX, end: None, facets: None },
            Resume::Records { offset: 20, end: Some(99), facets: None },
            Resume::Records { offset: 7, end: Some(99), facets: Some(12) },
            Resume::Records { offset: 7, end: None, facets: Some(0) },
            Resume::Records { offset: 3, end: Some(u64::MAX - 1), facets: Some(40) },
            Resume::Text { offset: 81_234, end: None },
            Resume::Text { offset: 5, end: Some(9_000_000) },
            Resume::TextBefore { offset: 4_096, before_end: 7_311 },
            Resume::TextBefore { offset: 0, before_end: u64::MAX },
            Resume::Fields { offset: 3 },
        ] {
            let c = sample(r);
            let text = key.encode(&c);
            assert!(text.len() < 80, "{text}");
            assert_eq!(key.decode(&text, &scope, 1_000).unwrap(), c);
        }
    }

    #[test]
    fn a_text_cursor_cut_before_its_tail_length_is_malformed() {
        let key = CursorKey::random();
        let scope = CursorKey::scope_tag("s");
        let whole = key.encode(&sample(Resume::TextBefore { offset: 300, before_end: 5_000 }));
        let body = URL_SAFE_NO_PAD.decode(&whole).unwrap();
        // Signed as it is, but without the second number kind 6 carries.
        let mut cut = body[..body.len() - TAG_LEN - 2].to_vec();
        assert_eq!(cut[cut.len() - 3], 6, "kind, then the offset's two bytes");
        let tag = key.tag(&cut);
        cut.extend_from_slice(&tag);
        assert_eq!(key.decode(&URL_SAFE_NO_PAD.encode(&cut), &scope, 0), Err(CursorError::Malformed));
    }

    #[test]
    fn refuses_tampering_expiry_scope_and_other_keys() {
        let key = CursorKey::from_secret(b"k");
        let scope = CursorKey::scope_tag("s");
        let text = key.encode(&sample(Resume::Records { offset: 20, end: None, facets: None }));
        let mut bytes = URL_SAFE_NO_PAD.decode(&text).unwrap();
        bytes[20] ^= 1;
        assert_eq!(key.decode(&URL_SAFE_NO_PAD.encode(&bytes), &scope, 0), Err(CursorError::Tampered));
        assert_eq!(key.decode(&text, &scope, 3_000_000_000), Err(CursorError::Expired));
        assert_eq!(key.decode(&text, &CursorKey::scope_tag("t"), 0), Err(CursorError::OtherScope));
        assert_eq!(CursorKey::from_secret(b"other").decode(&text, &scope, 0), Err(CursorError::Tampered));
        assert_eq!(key.decode("not a cursor!", &scope, 0), Err(CursorError::Malformed));
        assert_eq!(key.decode("", &scope, 0), Err(CursorError::Malformed));
        // The same secret in another process accepts it.
        assert!(CursorKey::from_secret(b"k").decode(&text, &scope, 0).is_ok());
    }
}
