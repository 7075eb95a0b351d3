//! The part of the facets phrase one page holds, and the note of what is left.

/// Part of the facets phrase: the clauses one page holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FacetsPart {
    /// The clauses shown, joined (no note of what is left).
    pub(crate) text: String,
    /// Clauses shown.
    pub(crate) shown: usize,
    /// The position of the first clause not shown, for the next page's `skip`.
    pub(crate) next: usize,
    /// Clauses left for later pages.
    pub(crate) left: usize,
    /// The note that the facets were counted over the first records only, if they were.
    pub(crate) over: String,
}

impl FacetsPart {
    /// A part of one note and no counted clause (records two lists down, said when the
    /// records themselves have no facets).
    pub(crate) fn alone(text: String) -> FacetsPart {
        FacetsPart { text, shown: 0, next: 0, left: 0, over: String::new() }
    }

    /// The clauses with the note of how many are left and where to find them (`how`: "next",
    /// "a larger budget").
    pub(crate) fn with_note(&self, how: &str) -> String {
        let mut out = self.text.clone();
        if self.left > 0 {
            let sep = if out.is_empty() { "" } else { "; " };
            out.push_str(&format!("{sep}{} more facets with {how}", self.left));
        }
        out.push_str(&self.over);
        out
    }
}
