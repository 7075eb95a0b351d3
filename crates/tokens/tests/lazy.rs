//! Tables are loaded on demand: making a tokenizer loads nothing, and a count loads only its
//! own encoding's table. A test binary of its own, so that no other test has loaded a table
//! in this process first.

use toolshape_tokens::{Encoding, Tokenizer};

#[test]
fn only_the_tables_counted_with_are_loaded() {
    let o200k = Tokenizer::new(Encoding::O200kBase);
    let cl100k = Tokenizer::new(Encoding::Cl100kBase);
    assert!(!o200k.is_loaded() && !cl100k.is_loaded(), "made, not yet used");

    // Answered by byte length alone: a short text fits without a table.
    assert!(o200k.fits("short", 100));
    assert!(!o200k.is_loaded());

    assert_eq!(o200k.count("hello world"), 2);
    assert!(o200k.is_loaded());
    assert!(!cl100k.is_loaded(), "the other encoding's table stays out of memory");

    // Copies share the loaded table.
    let copy = o200k;
    assert!(copy.is_loaded());
    assert!(cl100k.load());
    assert!(cl100k.is_loaded());
}
