//! How the in-memory store keeps a value: zstd-compressed when that saves room, else as given.
//!
//! Snapshots are JSON and text: zstd at its fastest level shrinks GitHub API answers 3 to 10
//! times for one object and 12 to 17 times for lists of records, logs about 5 times, at about
//! the speed of LZ4 and twice as small (see BENCHMARKS.md). Values too short to gain, or that do not
//! shrink (already compressed media), are kept as they are. Compression contexts are kept
//! per thread: making one per value costs more than compressing a small value.

use std::cell::RefCell;
use std::sync::Arc;

/// Values shorter than this are kept as given: a zstd frame's header and the call cost more
/// than they would save.
const COMPRESS_MIN_BYTES: usize = 256;

/// zstd's fastest standard level: on the calling path, speed comes first.
const LEVEL: i32 = 1;

/// A value as the store holds it. Cloning is cheap (a reference count), so a read takes a
/// clone under the store's lock and decompresses after letting go of it.
#[derive(Debug, Clone)]
pub(crate) enum Held {
    /// As given: short, or did not shrink.
    Plain(Arc<Vec<u8>>),
    /// A zstd frame of a value of `len` bytes.
    Compressed {
        /// The frame.
        frame: Arc<[u8]>,
        /// The value's own length.
        len: usize,
    },
}

impl Held {
    /// `value` compressed when that makes it smaller.
    pub(crate) fn new(value: Vec<u8>) -> Held {
        match smaller_frame(&value) {
            Some(frame) => Held::Compressed { frame: frame.into(), len: value.len() },
            None => Held::Plain(Arc::new(value)),
        }
    }

    /// Bytes this takes in the store: what the store's cap counts.
    pub(crate) fn held_bytes(&self) -> usize {
        match self {
            Held::Plain(value) => value.len(),
            Held::Compressed { frame, .. } => frame.len(),
        }
    }

    /// Bytes of the value itself.
    pub(crate) fn value_bytes(&self) -> usize {
        match self {
            Held::Plain(value) => value.len(),
            Held::Compressed { len, .. } => *len,
        }
    }

    /// The value, decompressed if need be; `None` if a frame fails to decompress to its
    /// recorded length (which would be a bug: frames are only ever made here).
    pub(crate) fn value(&self) -> Option<Arc<Vec<u8>>> {
        match self {
            Held::Plain(value) => Some(value.clone()),
            Held::Compressed { frame, len } => decompress(frame, *len).map(Arc::new),
        }
    }
}

/// `value` as a zstd frame if it is long enough to try and the frame is smaller.
pub(crate) fn smaller_frame(value: &[u8]) -> Option<Vec<u8>> {
    if value.len() < COMPRESS_MIN_BYTES {
        return None;
    }
    compress(value).filter(|frame| frame.len() < value.len())
}

thread_local! {
    static COMPRESSOR: RefCell<Option<zstd::bulk::Compressor<'static>>> = const { RefCell::new(None) };
    static DECOMPRESSOR: RefCell<Option<zstd::bulk::Decompressor<'static>>> = const { RefCell::new(None) };
}

/// `value` as one zstd frame, with this thread's context; `None` if zstd refuses.
fn compress(value: &[u8]) -> Option<Vec<u8>> {
    let with = |c: &mut zstd::bulk::Compressor<'static>| c.compress(value).ok();
    COMPRESSOR
        .try_with(|slot| match slot.try_borrow_mut() {
            Ok(mut slot) => {
                if slot.is_none() {
                    *slot = zstd::bulk::Compressor::new(LEVEL).ok();
                }
                slot.as_mut().and_then(with)
            }
            Err(_) => zstd::bulk::Compressor::new(LEVEL).ok().as_mut().and_then(with),
        })
        .ok()
        .flatten()
}

/// The `len` bytes `frame` holds, with this thread's context; `None` unless exactly `len`.
fn decompress(frame: &[u8], len: usize) -> Option<Vec<u8>> {
    let with = |d: &mut zstd::bulk::Decompressor<'static>| d.decompress(frame, len).ok().filter(|v| v.len() == len);
    DECOMPRESSOR
        .try_with(|slot| match slot.try_borrow_mut() {
            Ok(mut slot) => {
                if slot.is_none() {
                    *slot = zstd::bulk::Decompressor::new().ok();
                }
                slot.as_mut().and_then(with)
            }
            Err(_) => zstd::bulk::Decompressor::new().ok().as_mut().and_then(with),
        })
        .ok()
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_and_incompressible_values_are_kept_as_given() {
        let short = Held::new(b"{\"a\":1}".to_vec());
        assert!(matches!(short, Held::Plain(_)));
        // A xorshift stream: no redundancy for zstd to find.
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let noise: Vec<u8> = (0..4096)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect();
        let held = Held::new(noise.clone());
        assert!(matches!(held, Held::Plain(_)));
        assert_eq!(held.held_bytes(), 4096);
        assert_eq!(held.value().as_deref(), Some(&noise));
    }

    #[test]
    fn redundant_values_shrink_and_come_back_whole() {
        let json = br#"{"id":1,"state":"open","title":"cache timeout when list is empty"},"#.repeat(200);
        let held = Held::new(json.clone());
        assert!(matches!(held, Held::Compressed { .. }));
        assert!(held.held_bytes() * 10 < json.len(), "{} of {}", held.held_bytes(), json.len());
        assert_eq!(held.value_bytes(), json.len());
        assert_eq!(held.value().as_deref(), Some(&json));
    }

    #[test]
    fn a_frame_that_does_not_match_its_length_is_refused() {
        let json = b"abcabcabcabc".repeat(100);
        let frame = compress(&json).unwrap();
        assert_eq!(decompress(&frame, json.len()).as_deref(), Some(&json[..]));
        assert_eq!(decompress(&frame, json.len() + 1), None);
        assert_eq!(decompress(&frame[..frame.len() / 2], json.len()), None);
    }
}
