//! Randomness for nonces, ids and per-process keys.
//!
//! The operating system's generator is the source. Should it ever fail, the fallback is
//! SHA-256 over the time, the process id, a counter and the block's position: unpredictable
//! to anyone who cannot read this process's clock at nanosecond resolution, distinct for
//! every call, and better than stopping; the failure is logged.

use std::sync::atomic::{AtomicU64, Ordering};

use sha2::{Digest, Sha256};

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// Fill `buf` with random bytes.
pub fn fill(buf: &mut [u8]) {
    if getrandom::fill(buf).is_ok() {
        return;
    }
    tracing::warn!("the system random generator failed; using a time-based fallback");
    fallback(buf);
}

/// The fallback: hashed time, process id and counter, 32 bytes a block.
fn fallback(buf: &mut [u8]) {
    for (block, chunk) in buf.chunks_mut(32).enumerate() {
        let mut h = Sha256::new();
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
        h.update(now.as_nanos().to_le_bytes());
        h.update(std::process::id().to_le_bytes());
        h.update(COUNTER.fetch_add(1, Ordering::Relaxed).to_le_bytes());
        h.update((block as u64).to_le_bytes());
        let d = h.finalize();
        chunk.copy_from_slice(&d[..chunk.len()]);
    }
}

/// `n` random bytes as lowercase hex (`2 * n` characters).
pub fn hex(n: usize) -> String {
    let mut bytes = vec![0u8; n];
    fill(&mut bytes);
    crate::hex(&bytes)
}

/// A fresh delimiter nonce: five words carrying 65 random bits ([`crate::nonce`]). Each
/// word is one token, so the nonce costs five tokens (20 random digits cost seven), and
/// every nonce costs the same, so a small answer's delimiters stay cheap.
pub fn nonce() -> String {
    let mut bytes = [0u8; 16];
    fill(&mut bytes[..9]);
    crate::nonce::from_bits(u128::from_le_bytes(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nonces_are_five_listed_words_and_differ() {
        let (a, b) = (nonce(), nonce());
        assert!(crate::nonce::is_word_nonce(&a), "{a}");
        assert_ne!(a, b);
    }

    #[test]
    fn the_fallback_fills_every_byte_and_never_repeats() {
        let (mut a, mut b) = ([0u8; 70], [0u8; 70]);
        fallback(&mut a);
        fallback(&mut b);
        assert_ne!(a, b);
        // Three blocks, each from its own hash: no block repeats another.
        assert_ne!(a[..32], a[32..64]);
        assert!(a[64..].iter().any(|&x| x != 0) || a[64..] != b[64..]);
    }
}
