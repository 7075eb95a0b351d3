//! Links a reader does not need first: those carrying a long random token.
//!
//! A search result's favicon and thumbnail through an image proxy, a signed download, a
//! content-addressed avatar: each costs tens of tokens of random characters per record and
//! tells a reader nothing it can read. When the record keeps a readable link of its own
//! (its page), such links are left out like any other field, and listed as left out.

use super::Compactor;

impl Compactor {
    /// Leave out the columns of token-carrying links if a column of readable links is kept.
    /// The columns of links kept stay listed ([`Compactor::holds_links`]).
    pub(super) fn drop_token_links(&mut self) {
        let kept = |c: &Compactor, name: &str| c.columns.iter().any(|col| col.name == name);
        let readable = self.links.iter().any(|(name, token)| !token && kept(self, name));
        let tokens: Vec<String> = if readable {
            self.links.iter().filter(|(name, token)| *token && kept(self, name)).map(|(n, _)| n.clone()).collect()
        } else {
            Vec::new()
        };
        self.columns.retain(|c| !tokens.contains(&c.name));
        self.links.retain(|(name, _)| !tokens.contains(name));
        self.dropped.extend(tokens);
    }

    /// Whether the column at `column` holds links (nine values in ten of the sample).
    pub(crate) fn holds_links(&self, column: usize) -> bool {
        self.columns.get(column).is_some_and(|c| self.links.iter().any(|(name, _)| *name == c.name))
    }
}
