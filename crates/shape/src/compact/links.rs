//! Links a reader does not need first: those carrying a long random token.
//!
//! A search result's favicon and thumbnail through an image proxy, a signed download, a
//! content-addressed avatar: each costs tens of tokens of random characters per record and
//! tells a reader nothing it can read. When the record keeps a readable link of its own
//! (its page), such links are left out like any other field, and listed as left out.

use super::Compactor;

impl Compactor {
    /// Leave out the columns of token-carrying links if a column of readable links is kept.
    pub(super) fn drop_token_links(&mut self) {
        let links = std::mem::take(&mut self.links);
        let kept = |name: &str| self.columns.iter().any(|c| c.name == name);
        let readable = links.iter().any(|(name, token)| !token && kept(name));
        if !readable {
            return;
        }
        let tokens: Vec<&String> = links.iter().filter(|(name, token)| *token && kept(name)).map(|(n, _)| n).collect();
        if tokens.is_empty() {
            return;
        }
        self.columns.retain(|c| !tokens.contains(&&c.name));
        self.dropped.extend(tokens.into_iter().cloned());
    }
}
