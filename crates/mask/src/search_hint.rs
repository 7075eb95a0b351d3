//! `search_hint`: words a mask or an upstream adds to what tool search indexes, never shown
//! to the model. Its limits and the errors that say what to write instead.

/// The most characters a `search_hint` holds: enough for the words a search would use,
/// not a second description.
pub const MAX_SEARCH_HINT_CHARS: usize = 500;

/// What is wrong with a `search_hint`, and what to write instead.
pub(crate) fn search_hint_problem(hint: &str) -> Option<(String, String)> {
    let chars = hint.chars().count();
    if hint.trim().is_empty() {
        Some((
            "`search_hint` is empty".to_owned(),
            "write the words a search for this tool would use (tasks, other names), or remove the key".to_owned(),
        ))
    } else if chars > MAX_SEARCH_HINT_CHARS {
        Some((
            format!("`search_hint` is {chars} characters long, over the limit of {MAX_SEARCH_HINT_CHARS}"),
            "keep a few words a search would use; the description is the place for prose".to_owned(),
        ))
    } else {
        None
    }
}

/// A hint as indexed: trimmed, `None` when empty.
pub(crate) fn clean_search_hint(hint: Option<&str>) -> Option<String> {
    hint.map(str::trim).filter(|h| !h.is_empty()).map(str::to_owned)
}
