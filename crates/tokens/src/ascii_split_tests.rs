//! The split decided by hand must be the regex's split, piece for piece, on any text: where
//! the hand gives up, the regex decides, so the pieces of the two ways must be equal.

use proptest::prelude::*;
use regex_automata::{Anchored, Input};

use super::first_piece;
use crate::Encoding;
use crate::engine::{LOOKAHEAD_PATTERN, splitter};

/// The pieces of `text` as the regex alone cuts them.
fn regex_pieces(encoding: Encoding, text: &str) -> Vec<String> {
    let regex = splitter(encoding).expect("the split patterns build");
    let mut pieces = Vec::new();
    let mut last = 0;
    while last < text.len() {
        let rest = &text[last..];
        let found = regex.search(&Input::new(rest).anchored(Anchored::Yes)).expect("every text splits");
        let mut end = found.end();
        if found.pattern().as_usize() == LOOKAHEAD_PATTERN {
            end -= rest[..end].chars().next_back().map_or(0, char::len_utf8);
        }
        assert!(end > 0, "empty piece at {last} of {text:?}");
        pieces.push(rest[..end].to_owned());
        last += end;
    }
    pieces
}

/// The pieces of `text` cut by hand where the hand decides, by the regex elsewhere; and
/// how many the hand decided.
fn mixed_pieces(encoding: Encoding, text: &str) -> (Vec<String>, usize) {
    let mut pieces = Vec::new();
    let mut by_hand = 0;
    let mut last = 0;
    while last < text.len() {
        let rest = &text[last..];
        let end = match first_piece(encoding, rest.as_bytes()) {
            Some(end) => {
                by_hand += 1;
                end
            }
            None => regex_pieces(encoding, rest)[0].len(),
        };
        pieces.push(rest[..end].to_owned());
        last += end;
    }
    (pieces, by_hand)
}

#[test]
fn ascii_text_is_cut_by_hand_as_the_regex_cuts_it() {
    let text = "Hello, WORLD! It's DON'T we'll 12345 x=1/2\r\n\n  \t {\"a\": [1, 2]}\n/* c */ \
                HTTPServer getHTTP aB 'S 'll  \n  end  ";
    for encoding in Encoding::ALL {
        let (pieces, by_hand) = mixed_pieces(encoding, text);
        assert_eq!(pieces, regex_pieces(encoding, text), "{encoding}");
        assert_eq!(by_hand, pieces.len(), "{encoding}: every piece of ASCII text is decided by hand");
    }
}

#[test]
fn a_byte_that_is_not_ascii_is_left_to_the_regex() {
    // A letter, a space and a digit that are not ASCII, each where it would extend a piece,
    // and the long s, which a contraction matches when case is ignored.
    for text in ["caf\u{e9}", "a\u{a0}\u{a0}b", "12\u{663}", "'\u{17f}", "-\u{2014}"] {
        for encoding in Encoding::ALL {
            assert_eq!(first_piece(encoding, text.as_bytes()), None, "{encoding}: {text:?}");
        }
    }
    assert_eq!(first_piece(Encoding::O200kBase, b""), None);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4096))]
    /// Text mixed from every class the patterns tell apart, with non-ASCII letters, marks,
    /// digits, spaces and symbols among them: the same pieces.
    #[test]
    fn the_same_pieces_as_the_regex(
        text in "([ -~]|[\t\r\n\x0B\x0C\x1C\x7F]|'[sStTmMdD]|'[rRvV][eE]|'[lL][lL]|  +|\n\n| \n|[0-9]{1,5}|[A-Z]{1,4}[a-z]{0,4}|[éǅ\u{300}\u{a0}\u{85}\u{2028}\u{17f}\u{212a}²٣—中🙂])*",
        encoding in proptest::sample::select(Encoding::ALL.to_vec()),
    ) {
        prop_assert_eq!(mixed_pieces(encoding, &text).0, regex_pieces(encoding, &text));
    }

    /// Any ASCII text is cut entirely by hand.
    #[test]
    fn ascii_is_decided_by_hand(
        text in "[\\x00-\\x7F]{0,80}",
        encoding in proptest::sample::select(Encoding::ALL.to_vec()),
    ) {
        let (pieces, by_hand) = mixed_pieces(encoding, &text);
        prop_assert_eq!(by_hand, pieces.len());
        prop_assert_eq!(pieces, regex_pieces(encoding, &text));
    }
}
