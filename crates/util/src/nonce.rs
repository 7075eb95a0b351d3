//! Delimiter nonces made of words: five words drawn from a list of 8,192 (13 bits each, 65
//! bits in all), such as `amber copper maple river harbor`.
//!
//! Why words: each listed word is one token after a space in every encoding toolshape
//! counts with (a test in `crates/shape/tests/nonce.rs` checks all of them), so a nonce
//! costs five tokens where 64 random bits as 20 digits cost seven, and every nonce costs
//! the same, which lets a page be fitted without knowing its nonce. The list is made by
//! `scripts/nonce-words.py` from an English dictionary, without words that read as an
//! instruction, a role, a part of the envelope, or violence. The dictionary is the SCOWL
//! word list as Debian's `wamerican` ships it; its copyright and permission notices, which
//! the list's licence asks to be kept with it, are in `nonce-words.COPYRIGHT` beside it.

use std::sync::OnceLock;

/// The list, one word per line, alphabetical.
const LIST: &str = include_str!("nonce-words.txt");
/// How many words a nonce has.
pub const WORDS_PER_NONCE: usize = 5;
/// Random bits each word carries: the list has `2^BITS_PER_WORD` words.
pub const BITS_PER_WORD: u32 = 13;
/// Random bits a nonce carries.
pub const NONCE_BITS: u32 = BITS_PER_WORD * WORDS_PER_NONCE as u32;

/// The words a nonce is made of, in the list's order.
pub fn words() -> &'static [&'static str] {
    static WORDS: OnceLock<Vec<&'static str>> = OnceLock::new();
    WORDS.get_or_init(|| LIST.lines().collect())
}

/// The nonce that the low [`NONCE_BITS`] of `bits` spell: the words they pick, joined by
/// single spaces. Higher bits are not read.
pub fn from_bits(bits: u128) -> String {
    let words = words();
    let mask = (1u128 << BITS_PER_WORD) - 1;
    let mut out = String::with_capacity(WORDS_PER_NONCE * 9);
    for i in 0..WORDS_PER_NONCE {
        if i > 0 {
            out.push(' ');
        }
        let index = ((bits >> (BITS_PER_WORD * i as u32)) & mask) as usize;
        out.push_str(words[index]);
    }
    out
}

/// Whether `nonce` is one [`from_bits`] can spell: five listed words, single spaces.
pub fn is_word_nonce(nonce: &str) -> bool {
    let mut n = 0;
    for word in nonce.split(' ') {
        n += 1;
        if n > WORDS_PER_NONCE || words().binary_search(&word).is_err() {
            return false;
        }
    }
    n == WORDS_PER_NONCE
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_has_two_to_the_thirteen_distinct_words_in_order() {
        let words = words();
        assert_eq!(words.len(), 1 << BITS_PER_WORD);
        assert!(words.windows(2).all(|w| w[0] < w[1]), "sorted and distinct");
        assert!(words.iter().all(|w| (3..=8).contains(&w.len()) && w.bytes().all(|b| b.is_ascii_lowercase())));
    }

    #[test]
    fn every_bit_picks_a_word() {
        let zero = from_bits(0);
        assert_eq!(zero.split(' ').count(), WORDS_PER_NONCE);
        for bit in 0..NONCE_BITS {
            assert_ne!(from_bits(1 << bit), zero, "bit {bit} is not read");
        }
        // Bits above the nonce's are not read.
        assert_eq!(from_bits(1 << NONCE_BITS), zero);
        assert!(is_word_nonce(&zero));
        assert!(is_word_nonce(&from_bits(u128::MAX)));
    }

    #[test]
    fn only_five_listed_words_make_a_nonce() {
        let w = words();
        assert!(!is_word_nonce(&format!("{} {} {} {}", w[0], w[1], w[2], w[3])));
        assert!(!is_word_nonce(&format!("{} {} {} {} {} {}", w[0], w[1], w[2], w[3], w[4], w[5])));
        assert!(!is_word_nonce(&format!("{} {}  {} {} {}", w[0], w[1], w[2], w[3], w[4])));
        assert!(!is_word_nonce("12345678901234567890"));
        assert!(!is_word_nonce(&format!("{} {} {} {} zzzzzzzz", w[0], w[1], w[2], w[3])));
    }
}
