//! The gateway's nonces cost the same whatever their words: each listed word is one token
//! after a space in every encoding, so the delimiter lines of every nonce count alike, and
//! where a page ends does not depend on the nonce drawn.
#![allow(clippy::unwrap_used)]

use proptest::prelude::*;
use toolshape_shape::{close_delimiter, open_delimiter};
use toolshape_tokens::{Encoding, Tokenizer};
use toolshape_util::nonce::{WORDS_PER_NONCE, from_bits, words};

#[test]
fn every_nonce_word_is_one_token_after_a_space() {
    for encoding in Encoding::ALL {
        let tok = Tokenizer::new(encoding);
        let long: Vec<&str> = words().iter().copied().filter(|w| tok.count(&format!(" {w}")) != 1).collect();
        assert!(
            long.is_empty(),
            "{encoding}: {} words are not one token: {:?}",
            long.len(),
            &long[..long.len().min(10)]
        );
    }
}

proptest! {
    #[test]
    fn every_nonce_s_delimiters_cost_the_same(bits in any::<u128>()) {
        let nonce = from_bits(bits);
        let first = from_bits(0);
        for encoding in Encoding::ALL {
            let tok = Tokenizer::new(encoding);
            for (line, same) in [(open_delimiter(&nonce), open_delimiter(&first)), (close_delimiter(&nonce), close_delimiter(&first))] {
                // A line as the envelope holds it: between line breaks and the JSON.
                let framed = |l: &str| format!("{l}\n{{\"status\":\"ok\"}}\n{l}");
                prop_assert_eq!(tok.count(&framed(&line)), tok.count(&framed(&same)), "{}: {}", encoding, line);
            }
            prop_assert_eq!(tok.count(&format!(" {nonce}")), WORDS_PER_NONCE);
        }
    }
}
