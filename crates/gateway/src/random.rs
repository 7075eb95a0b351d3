//! Randomness for nonces, snapshot ids and per-process keys.
//!
//! The operating system's generator is the source. Should it ever fail, the fallback is a
//! hash of the time, the process id and a counter: unpredictable enough to keep distinct
//! responses distinct, and better than taking the gateway down; the failure is logged.

use std::sync::atomic::{AtomicU64, Ordering};

use sha2::{Digest, Sha256};

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// Fill `buf` with random bytes.
pub(crate) fn fill(buf: &mut [u8]) {
    if getrandom::fill(buf).is_ok() {
        return;
    }
    tracing::warn!("the system random generator failed; using a time-based fallback");
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

/// A fresh delimiter nonce: 16 lowercase hex characters.
pub(crate) fn nonce() -> String {
    let mut b = [0u8; 8];
    fill(&mut b);
    b.iter().map(|x| format!("{x:02x}")).collect()
}
