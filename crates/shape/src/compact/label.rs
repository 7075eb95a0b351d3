//! Which readable field names a record beside a key that names it only to a machine: the
//! summary says both where it names the holder of a largest value, since a reader asks
//! "which candidate" and answers with a name, while the key is what finds the record again.

use std::collections::HashSet;

use serde_json::Value;

use super::key::{depth, holds_opaque_part, readable_name, reads_as_sentence};
use super::{Compactor, Extract, Holds};
use crate::words::words;

/// Share of the sample's records whose values a label must tell apart, more than: most
/// records have a name of their own (the key tells apart the few that share one), where a
/// field of kinds or owners repeats.
const MOSTLY_DISTINCT: f64 = 0.5;
/// The longest a label may be, on average (characters): a title, not a description.
const LABEL_CHARS: usize = 80;

/// How a candidate names a record, least first: whether a slug key was made from it, how
/// deep it sits, whether it is part of another candidate's names, whether it lacks spaces or
/// reads as something other than a name, and its place.
type Rank = (usize, usize, usize, usize, usize, usize);

impl Compactor {
    /// A column of readable names (or short titles) that tells most records apart, when the
    /// key does not read as one (a random id, a number, a link): the shallowest, words with
    /// spaces (`Sana Wang`, a post's title) before a single token (its slug), names before
    /// sentences, then the first in the record's order.
    /// A key that reads as a name still gets a label when it is a slug (`puff-coffee-portland`,
    /// one token a machine made from a name) and a column holds the name it was made from
    /// (`Puff Coffee`): a reader answers with the name as it is written. Such a column comes
    /// before every other, whatever its letters (`EchoIRL156` beside the login `echoirl156`).
    pub(super) fn pick_label(&self, sample: &[Value]) -> Option<usize> {
        let key = self.key?;
        if sample.len() < 2 {
            return None;
        }
        let spaced_only = self.key_reads_as_name(key, sample);
        let slug_key = self.key_is_slug(key, sample);
        if spaced_only && !slug_key {
            return None;
        }
        let candidates: Vec<(usize, Vec<String>, Rank)> = self
            .columns
            .iter()
            .enumerate()
            .filter(|(i, c)| *i != key && matches!(c.extract, Extract::Value | Extract::Text))
            .filter(|(_, c)| matches!(c.holds, Holds::Other | Holds::Categories))
            .filter_map(|(i, c)| {
                let texts: Vec<String> =
                    sample.iter().filter_map(|r| c.read(r)).filter_map(|v| v.as_str().map(str::to_owned)).collect();
                if texts.len() < sample.len() {
                    return None;
                }
                // The name a slug key was made from is the label however it is written
                // (`EchoIRL156` for `echoirl156`): it is the record's name by construction.
                let made = slug_key && self.slug_made_from(key, i, sample);
                let names = texts.iter().all(|t| readable_name(t) && has_word(t));
                if !made && !names && !texts.iter().all(|t| reads_as_title(t) && has_word(t)) {
                    return None;
                }
                let chars = texts.iter().map(|t| t.chars().count()).sum::<usize>() / texts.len();
                let distinct = texts.iter().collect::<HashSet<_>>().len();
                if chars > LABEL_CHARS || (distinct as f64) <= MOSTLY_DISTINCT * texts.len() as f64 {
                    return None;
                }
                let spaced = texts.iter().all(|t| t.contains(' '));
                if spaced_only && !made {
                    return None;
                }
                Some((i, texts, (usize::from(!made), depth(c), 0, usize::from(!spaced), usize::from(!names), i)))
            })
            .collect();
        // A name that is part of another's in most records (a deal's company, in its title
        // `Driftwood Retail - Renewal`) names what the record belongs to: the one holding it
        // names the record itself.
        let part_of_another = |j: usize| {
            let part = &candidates[j].1;
            candidates.iter().enumerate().any(|(k, (_, whole, _))| {
                k != j
                    && part.iter().zip(whole).filter(|(p, w)| w.len() > p.len() && w.contains(p.as_str())).count() * 2
                        > part.len()
            })
        };
        (0..candidates.len())
            .map(|j| {
                let mut rank = candidates[j].2;
                rank.2 = usize::from(part_of_another(j));
                (candidates[j].0, rank)
            })
            .min_by_key(|(_, rank)| *rank)
            .map(|(i, _)| i)
    }

    /// Whether every sample value of the key is a slug.
    fn key_is_slug(&self, key: usize, sample: &[Value]) -> bool {
        sample.iter().all(|r| self.columns[key].read(r).is_some_and(|v| v.as_str().is_some_and(is_slug)))
    }

    /// Whether the key's slugs were made from column `label`'s names: in most records every
    /// word of the name is a word of the slug (`Tov Coffee & Bakery`,
    /// `tov-coffee-and-bakery-portland`), or the slug is the name's letters and digits run
    /// together in lower case (`echoirl156`, `EchoIRL156`).
    fn slug_made_from(&self, key: usize, label: usize, sample: &[Value]) -> bool {
        let made = sample
            .iter()
            .filter(|r| {
                let read = |c: usize| self.columns[c].read(r).and_then(|v| v.as_str().map(str::to_owned));
                let (Some(slug), Some(written)) = (read(key), read(label)) else { return false };
                let name = written.to_lowercase();
                let slug_words: HashSet<&str> = words(&slug).collect();
                let every_word = words(&name).next().is_some() && words(&name).all(|w| slug_words.contains(w));
                // A handle written as the name run together (`echoirl156` of `EchoIRL156`,
                // `sanawang` of `Sana Wang`) holds the name's letters in order, no word apart.
                let run_together = letters(&slug) == letters(&name);
                // Most of the slug is the name: a short code the slug begins with (a network's
                // `us` in the event id `us7000abcd`) did not make it.
                let covers = letters(&name).len() * 2 >= letters(&slug).len();
                // And the name is written as a person writes it, in capitals or spaced words:
                // a copy of the slug (`,ci48556196,`) names nothing the slug does not.
                covers && written_by_hand(&written) && (every_word || run_together)
            })
            .count();
        made as f64 > MOSTLY_DISTINCT * sample.len() as f64
    }

    /// Whether every sample value of the key reads as a name or a title: words, not digits,
    /// a random-looking id or a link.
    fn key_reads_as_name(&self, key: usize, sample: &[Value]) -> bool {
        sample.iter().all(|r| {
            self.columns[key].read(r).is_some_and(|v| {
                v.as_str()
                    .is_some_and(|s| has_word(s) && (readable_name(s) || reads_as_title(s) && reads_as_sentence(s)))
            })
        })
    }
}

/// Whether `s` is a slug: one token of lower-case letters and digits, its words joined by
/// `-` or `_` or run together, as a machine writes a name for addresses, logins and
/// keys (`puff-coffee-portland`, `echoirl156`). Whether it was made from a name is
/// [`Compactor::slug_made_from`]'s to judge.
fn is_slug(s: &str) -> bool {
    s.chars().any(|c| c.is_ascii_lowercase())
        && s.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '-' | '_'))
}

/// Whether `s` is written as a person writes a name: a capital letter or a space in it.
fn written_by_hand(s: &str) -> bool {
    s.chars().any(|c| c.is_uppercase() || c == ' ')
}

/// The letters and digits of `s` in lower case, nothing between them.
fn letters(s: &str) -> String {
    s.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect()
}

/// Whether `s` holds a word: three letters or more, lower case after the first (`Sana`,
/// `storefront`, `API` aside), where a short random id mixes cases and digits
/// (`nbNTpLunC1V`, `oPdr0u3L`).
fn has_word(s: &str) -> bool {
    s.split(|c: char| !c.is_alphanumeric()).any(|w| {
        let mut chars = w.chars();
        chars.next().is_some_and(char::is_alphabetic) && w.chars().count() >= 3 && chars.all(char::is_lowercase)
    })
}

/// Whether `t` reads as a title: words with letters, no link, path or random-looking id.
fn reads_as_title(t: &str) -> bool {
    t.chars().any(char::is_alphabetic) && !t.contains("://") && t.matches('/').count() < 3 && !holds_opaque_part(t)
}
