//! Unit and property tests of the counts. The reference throughout is `bpe-openai` with its
//! full tables, split by its own pre-tokenizer: what toolshape counted with before its
//! tables were trimmed and compressed. Every count here must equal it exactly.

use std::path::Path;

use proptest::prelude::*;

use super::*;

/// The reference count of `text` in `encoding`.
fn reference(encoding: Encoding, text: &str) -> usize {
    let full = match encoding {
        Encoding::O200kBase => bpe_openai::o200k_base(),
        Encoding::Cl100kBase => bpe_openai::cl100k_base(),
    };
    full.count(text)
}

#[test]
fn names_round_trip() {
    for e in Encoding::ALL {
        assert_eq!(e.name().parse::<Encoding>(), Ok(e));
    }
    assert!("gpt2".parse::<Encoding>().is_err());
}

#[test]
fn special_token_lookalikes_are_plain_text() {
    let t = Tokenizer::default();
    assert!(t.count("<|endoftext|>") > 1);
}

#[test]
fn count_till_limit_agrees_with_count() {
    let t = Tokenizer::default();
    let text = "The quick brown fox jumps over the lazy dog. ".repeat(20);
    let n = t.count(&text);
    assert_eq!(t.count_till_limit(&text, n), Some(n));
    assert_eq!(t.count_till_limit(&text, n - 1), None);
}

#[test]
fn every_encoding_loads_its_split_and_table() {
    for encoding in Encoding::ALL {
        let t = Tokenizer::new(encoding);
        assert!(t.load(), "{encoding}");
        assert!(t.is_loaded(), "{encoding}");
        assert!(engine::splitter(encoding).is_some(), "{encoding}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]
    /// Counting in pieces cut at [`split_points`] equals counting the whole.
    #[test]
    fn pieces_sum_to_the_whole(
        lines in proptest::collection::vec("([ -~\t\r/é中🙂]{0,12}|[a-zA-Z]{1,6} [a-zA-Z]{1,6}|'s |\\n{0,2}[a-z]|  +[a-z])*", 0..60),
        pieces in 2usize..8,
        encoding in proptest::sample::select(Encoding::ALL.to_vec()),
    ) {
        let text = lines.join("\n");
        let t = Tokenizer::new(encoding);
        prop_assert_eq!(t.count_in_pieces(&text, pieces), reference(encoding, &text));
    }
}

/// The checks every count of `text` must pass against the reference: whole, with a limit
/// below, at and above it, `fits`, and again once the per-thread memo holds its pieces.
fn check_against_reference(encoding: Encoding, text: &str, limit: usize) -> Result<(), TestCaseError> {
    let t = Tokenizer::new(encoding);
    let expected = reference(encoding, text);
    prop_assert_eq!(t.count(text), expected);
    prop_assert_eq!(t.count_till_limit(text, limit), (expected <= limit).then_some(expected));
    prop_assert_eq!(t.count_till_limit(text, expected), Some(expected));
    // `fits` answers short texts by their byte length alone: it must agree with the count.
    prop_assert_eq!(t.fits(text, limit), expected <= limit);
    // `fit` says how: uncounted only when the bytes prove it, else the exact count.
    let how =
        if text.len() <= limit { Some(Fit::ByBytes) } else { (expected <= limit).then_some(Fit::Counted(expected)) };
    prop_assert_eq!(t.fit(text, limit), how);
    prop_assert_eq!(t.count(text), expected);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]
    /// Random text: the trimmed tables and the per-thread split count as the reference does.
    #[test]
    fn counts_equal_the_reference_on_random_text(
        text in "([ -~\t\r\n/é中🙂ǅ\u{300}\u{a0}]|'s|'LL|  +|\n\n| \n|[0-9]{1,5}|[A-Z]?[a-z]{1,8})*",
        limit in 0usize..80,
        encoding in proptest::sample::select(Encoding::ALL.to_vec()),
    ) {
        check_against_reference(encoding, &text, limit)?;
    }

    /// Any Unicode at all, including unassigned and control characters.
    #[test]
    fn counts_equal_the_reference_on_any_unicode(
        text in any::<String>(),
        limit in 0usize..40,
        encoding in proptest::sample::select(Encoding::ALL.to_vec()),
    ) {
        check_against_reference(encoding, &text, limit)?;
    }
}

/// Real text: the repository's documents and example payloads, and generated results of
/// every shape the fixtures make (issues, hostile issues with look-alike control tokens and
/// many scripts, pull requests, workflow runs, tables, logs with stack traces, one giant line).
fn real_texts() -> Vec<(String, String)> {
    let mut texts = Vec::new();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut dirs = vec![root.join("docs"), root.join("examples")];
    for file in ["README.md", "ARCHITECTURE.md", "BENCHMARKS.md"] {
        if let Ok(text) = std::fs::read_to_string(root.join(file)) {
            texts.push((file.to_owned(), text));
        }
    }
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if let Ok(text) = std::fs::read_to_string(&path) {
                texts.push((path.display().to_string(), text));
            }
        }
    }
    use toolshape_fixtures::{Kind, Size, generate};
    for kind in Kind::ALL {
        let bytes = generate(kind, Size::Bytes(60_000), 7);
        texts.push((kind.name().to_owned(), String::from_utf8_lossy(&bytes).into_owned()));
    }
    texts
}

#[test]
fn counts_equal_the_reference_on_real_text() {
    let texts = real_texts();
    assert!(texts.len() >= 12, "only {} real texts found", texts.len());
    for encoding in Encoding::ALL {
        let t = Tokenizer::new(encoding);
        for (name, text) in &texts {
            assert_eq!(t.count(text), reference(encoding, text), "{encoding} on {name}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]
    /// Windows of real text, cut anywhere (mid-word, mid-number, mid-escape), with limits
    /// around their counts.
    #[test]
    fn counts_equal_the_reference_on_windows_of_real_text(
        which in any::<proptest::sample::Index>(),
        start in any::<proptest::sample::Index>(),
        len in 0usize..3000,
        limit in 0usize..800,
        encoding in proptest::sample::select(Encoding::ALL.to_vec()),
    ) {
        static TEXTS: std::sync::OnceLock<Vec<(String, String)>> = std::sync::OnceLock::new();
        let texts = TEXTS.get_or_init(real_texts);
        let (_, text) = &texts[which.index(texts.len())];
        let from = text.floor_char_boundary(start.index(text.len().max(1)));
        let to = text.floor_char_boundary((from + len).min(text.len()));
        check_against_reference(encoding, &text[from..to], limit)?;
    }
}

#[test]
fn counts_equal_the_reference_from_other_threads() {
    let text = "Log line 42: ERROR   user's token   expired\n\n  détails: 中文 🙂\r\n".repeat(400);
    for encoding in Encoding::ALL {
        let t = Tokenizer::new(encoding);
        let expected = reference(encoding, &text);
        let counted: Vec<usize> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..3).map(|_| scope.spawn(|| t.count(&text))).collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert_eq!(counted, vec![expected; 3]);
    }
}

#[test]
fn prefix_within_is_maximal_and_fits() {
    let t = Tokenizer::default();
    let text = "héllo wörld, ünïcode everywhere! ".repeat(50);
    for limit in [0, 1, 2, 7, 50, 100] {
        let (p, n) = t.prefix_within(&text, limit);
        assert!(n <= limit);
        assert_eq!(t.count(p), n);
        if p.len() < text.len() {
            let next = text.ceil_char_boundary(p.len() + 1);
            assert!(t.count(&text[..next]) > limit, "prefix not maximal at limit {limit}");
        }
    }
}
