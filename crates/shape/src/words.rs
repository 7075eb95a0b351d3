//! The words of names and values, for telling whether two of them say the same thing: a
//! slug and the name it was made from, two spellings of one value, two fields named for
//! one thing. Words are runs of letters and digits; a field's name also splits where
//! camelCase starts a word.

/// The runs of letters and digits in `s`, as written.
pub(crate) fn words(s: &str) -> impl Iterator<Item = &str> {
    s.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty())
}

/// Whether `a` and `b` are the same words, whatever their case and separators
/// (`In Progress`, `in_progress`).
pub(crate) fn same_words(a: &str, b: &str) -> bool {
    words(a).map(str::to_lowercase).eq(words(b).map(str::to_lowercase))
}

/// The words of a field's name, in lower case, split at separators and where camelCase
/// starts a word (`countryCode`: `country`, `code`).
pub(crate) fn name_words(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    for w in words(name) {
        let mut word = String::new();
        let mut after_lower = false;
        for c in w.chars() {
            if c.is_uppercase() && after_lower {
                out.push(std::mem::take(&mut word));
            }
            word.extend(c.to_lowercase());
            after_lower = c.is_lowercase();
        }
        out.push(word);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_runs_of_letters_and_digits() {
        assert_eq!(words("tov-coffee-and-bakery-2").collect::<Vec<_>>(), ["tov", "coffee", "and", "bakery", "2"]);
        assert!(same_words("In Progress", "in_progress"));
        assert!(!same_words("In Progress", "in_review"));
        assert_eq!(name_words("properties.$geoip_countryCode"), ["properties", "geoip", "country", "code"]);
        assert_eq!(name_words("URL"), ["url"]);
    }
}
