//! Four-bit numbers of the embedded vector tables: two codes per byte, read through a codebook.
//!
//! The search's two tables (`data/token-vectors.bin`, `data/word-vectors.bin`) are most of the
//! data in the binary. `scripts/pack-nibbles.py` stores each number as the index of the
//! nearest of 16 values fitted to the tables' own distribution (Lloyd-Max), which keeps a
//! row's direction to a mean cosine above .99 in half the bytes a signed byte per number takes. Decoding goes
//! through a table of both codes of every byte, so a row costs one lookup per two numbers.

/// The 16 values a code stands for, expanded to the pair of values of every byte.
#[derive(Debug)]
pub(crate) struct Codebook {
    /// `pairs[b]` = (value of `b`'s low nibble, value of its high nibble).
    pairs: Box<[[f32; 2]; 256]>,
}

impl Codebook {
    /// How many bytes a stored codebook takes: 16 little-endian `f32`.
    pub(crate) const BYTES: usize = 16 * 4;

    /// A codebook from its stored bytes; `None` when they are short or not finite numbers.
    pub(crate) fn parse(bytes: &[u8]) -> Option<Codebook> {
        let stored = bytes.get(..Self::BYTES)?;
        let mut values = [0f32; 16];
        for (value, chunk) in values.iter_mut().zip(stored.chunks_exact(4)) {
            *value = f32::from_le_bytes(chunk.try_into().ok()?);
            if !value.is_finite() {
                return None;
            }
        }
        let mut pairs = Box::new([[0f32; 2]; 256]);
        for (byte, pair) in pairs.iter_mut().enumerate() {
            *pair = [values[byte & 15], values[byte >> 4]];
        }
        Some(Codebook { pairs })
    }

    /// Adds `scale` times the row `packed` encodes to `sum` (two numbers per byte).
    #[cfg(any(feature = "embeddings", test))]
    pub(crate) fn add_scaled(&self, sum: &mut [f32], scale: f32, packed: &[u8]) {
        for (out, byte) in sum.chunks_exact_mut(2).zip(packed) {
            let [low, high] = self.pairs[usize::from(*byte)];
            out[0] += scale * low;
            out[1] += scale * high;
        }
    }

    /// The numbers the row `packed` encodes.
    pub(crate) fn decode(&self, packed: &[u8]) -> Vec<f32> {
        packed.iter().flat_map(|byte| self.pairs[usize::from(*byte)]).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stored(values: [f32; 16]) -> Vec<u8> {
        values.iter().flat_map(|v| v.to_le_bytes()).collect()
    }

    #[test]
    fn a_byte_holds_its_low_code_first() {
        let values: [f32; 16] = std::array::from_fn(|i| i as f32 - 8.0);
        let book = Codebook::parse(&stored(values)).expect("16 finite numbers");
        assert_eq!(book.decode(&[0x21, 0xf0]), vec![-7.0, -6.0, -8.0, 7.0]);
        let mut sum = vec![1.0, 1.0, 1.0, 1.0];
        book.add_scaled(&mut sum, 0.5, &[0x21, 0xf0]);
        assert_eq!(sum, vec![-2.5, -2.0, -3.0, 4.5]);
    }

    #[test]
    fn a_short_or_broken_codebook_is_refused() {
        let values: [f32; 16] = std::array::from_fn(|i| i as f32);
        let bytes = stored(values);
        assert!(Codebook::parse(&bytes[..Codebook::BYTES - 1]).is_none());
        let mut broken = values;
        broken[3] = f32::NAN;
        assert!(Codebook::parse(&stored(broken)).is_none());
    }
}
