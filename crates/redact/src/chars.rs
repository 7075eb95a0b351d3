//! Helpers every detector shares, with no dependency on any of them: lazily compiled
//! regexes and the characters around a byte offset. A leaf module, so that the detectors
//! (`detectors`, `phone`, `pem`) import it instead of each other.

/// A regex compiled on first use; `None` when its pattern does not compile.
pub(crate) type LazyRegex = std::sync::LazyLock<Option<regex::Regex>>;

/// Declares a lazily compiled regex. A pattern that fails to compile disables its detector
/// instead of panicking; a unit test makes sure every pattern compiles.
macro_rules! lazy_regex {
    ($name:ident, $pattern:expr) => {
        pub(crate) static $name: $crate::chars::LazyRegex =
            std::sync::LazyLock::new(|| regex::Regex::new($pattern).ok());
    };
}
pub(crate) use lazy_regex;

/// The character right before byte offset `i`.
pub(crate) fn char_before(text: &str, i: usize) -> Option<char> {
    text.get(..i).and_then(|s| s.chars().next_back())
}

/// The character starting at byte offset `i`.
pub(crate) fn char_at(text: &str, i: usize) -> Option<char> {
    text.get(i..).and_then(|s| s.chars().next())
}

/// The character after the one starting at byte offset `i`.
pub(crate) fn char_after(text: &str, i: usize) -> Option<char> {
    text.get(i..).and_then(|s| s.chars().nth(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn characters_around_an_offset_respect_boundaries() {
        let text = "aé€b";
        assert_eq!(char_before(text, 0), None);
        assert_eq!(char_before(text, 1), Some('a'));
        assert_eq!(char_at(text, 1), Some('é'));
        assert_eq!(char_after(text, 1), Some('€'));
        // Inside a character, or past the end: nothing.
        assert_eq!(char_at(text, 2), None);
        assert_eq!(char_before(text, 2), None);
        assert_eq!(char_at(text, text.len()), None);
        assert_eq!(char_after(text, text.len() - 1), None);
    }
}
