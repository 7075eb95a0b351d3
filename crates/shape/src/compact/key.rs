//! Which field names a record: what the summary names the holder of a largest value by,
//! and what a reader looks the record up with again.

use std::collections::HashSet;

use serde_json::Value;

use super::{Column, Compactor, Extract, Holds, Step, names_an_id, paths, stats};

/// Share of the records whose values a readable name must tell apart, at least, to name
/// records when no unique field reads as a name.
const NEARLY_UNIQUE: f64 = 0.9;
/// The longest a title may be, on average, to name a record (as written in JSON, quotes
/// included): a title, not a description.
const TITLE_CHARS: usize = 100;

/// How a candidate names a record, least first: whether it reads as a sentence, as a link,
/// how deep it sits, whether it is a number or a random-looking id, and how long it is.
type Rank = (usize, usize, usize, usize, usize, usize);

impl Compactor {
    /// The column that names a record: unique and short, the record's own field before one
    /// of a member object, a name before a number; never a measure.
    pub(super) fn pick_key(&self, sample: &[Value]) -> Option<usize> {
        let candidates: Vec<(usize, Rank)> = self
            .columns
            .iter()
            .enumerate()
            // A member of a list's one object (every list of the sample held one) does not
            // name a record: its values were unique only because the sample's lists were
            // short. A list's one value can (a container's name).
            .filter(|(_, c)| {
                let inside_lone_object = c.path.iter().rev().skip(1).any(|s| *s == Step::First);
                c.unique && c.extract == Extract::Value && c.holds != Holds::Times && !inside_lone_object
            })
            .filter_map(|(i, c)| {
                let len: usize = sample.iter().filter_map(|r| c.read(r)).map(|v| v.to_string().len()).sum::<usize>()
                    / sample.len().max(1);
                let values: Vec<Value> = sample.iter().filter_map(|r| c.read(r)).collect();
                // A decimal written as text is a measure like any other.
                if c.holds == Holds::Numbers && !values.iter().all(Value::is_number) {
                    return None;
                }
                let numbers: Vec<f64> = values.iter().filter_map(Value::as_f64).collect();
                // Numbers handed out over years spread wide (a question's id from 2009 beside
                // one from 2025): a record's own field named as an id names it all the same.
                let own_id =
                    depth(c) == 1 && c.name.to_ascii_lowercase().ends_with("id") && whole_and_positive(&values);
                if !numbers.is_empty() && !numbers_name_records(&values, &numbers) && !own_id {
                    return None;
                }
                // Digits, or an address or a stamp (no letter, dotted: `10.13.0.4`), or an
                // internal id of digits in parts (`2-66676`, beside the `MOB-5225` people
                // use): a name reads better.
                let numeric = values.iter().all(|v| {
                    v.is_number()
                        || v.as_str().is_some_and(|s| {
                            s.bytes().all(|b| b.is_ascii_digit())
                                || (!s.chars().any(char::is_alphabetic) && s.contains(['.', ':', '-']))
                        })
                });
                // A link names a page; a random-looking id names the record only to a machine:
                // a reader answers with a name, and finds the record again by it as well.
                // So does a resource path (`projects/p/databases/d/documents/shipments/Lx…`).
                // A path in words with random parts (an object's key, `logs/alb/…/app.log.gz`)
                // is the record's name, and is neither.
                let texts: Vec<&str> = values.iter().filter_map(Value::as_str).collect();
                let worded = paths::named_by_words(&texts);
                let link = texts.iter().any(|s| s.contains("://") || (s.matches('/').count() >= 3 && !worded));
                // A composite key holding one (`ORDER#2025-07-15T04:48:12Z#01K066JT…`) is as
                // random-looking as the id alone.
                let opaque = !worded && texts.iter().filter(|s| holds_opaque_part(s)).count() * 2 > values.len();
                // Words that read as a sentence (a title, a description) are not a name; a
                // proper name with spaces is (`Zhou Partners - Data Connectors`), its words
                // capitalized.
                let spaced = values.iter().any(|v| v.as_str().is_some_and(reads_as_sentence));
                // A field inside a member object names that object (`metadata.order_id`,
                // `user.login`, unique in a short page by chance), not the record: the
                // record's own id is the shallowest.
                let rank =
                    (usize::from(spaced), usize::from(link), depth(c), usize::from(numeric), usize::from(opaque), len);
                Some((i, rank))
            })
            .collect();
        let best = candidates.iter().copied().min_by_key(|(_, score)| *score);
        // A number not named as an id (a version handed out in order, `resourceVersion`)
        // names a record only to a machine. A readable name that nearly every record holds
        // once (a Deployment's name, repeated in another namespace) names it to a reader. A
        // random-looking id keeps its place: it is what the records' own API names them by.
        let machine_only = |&(i, rank): &(usize, Rank)| rank.3 == 1 && !names_an_id(&self.columns[i].name);
        // The record's own unique title (a story's, a file's name with spaces) names it before
        // a name most records hold once (its author's).
        let own_title = || {
            candidates
                .iter()
                .filter(|(_, r)| r.0 == 1 && r.2 == 1 && r.5 <= TITLE_CHARS)
                .min_by_key(|(_, r)| r.5)
                .map(|c| c.0)
        };
        // A field of a member object (`lastModifyingUser.permissionId`, unique in a page
        // by chance) names that object; the record's own title names the record.
        let member_field = |&(_, rank): &(usize, Rank)| rank.2 > 1;
        // Hexadecimal digits (`9a8b9547c7`) name a record to a machine: a proper name
        // (`Flash Sale – Oct #31`, a campaign's title in its settings) names it to a reader.
        let proper_name = || {
            candidates
                .iter()
                .filter(|(i, r)| {
                    r.0 == 0 && r.1 == 0 && r.2 <= 2 && r.3 == 0 && r.4 == 0 && !self.hex_values(*i, sample)
                })
                .filter(|(i, _)| self.readable_values(*i, sample))
                // The first in the record's order: an API puts what names a thing first.
                .min_by_key(|(i, r)| (r.2, *i))
                .map(|c| c.0)
        };
        // A random-looking id (a UUID) names a record to a machine; a number beside it that
        // is named as an id (an alert's `tinyId`, an issue's `number`) is what people call
        // the record by, and it costs a few tokens where the UUID costs twenty in every
        // clause that names a holder.
        let handle = |b: &(usize, Rank)| {
            candidates
                .iter()
                .filter(|(i, r)| {
                    r.0 == 0 && r.1 == 0 && r.2 <= b.1.2 && r.3 == 1 && names_an_id(&self.columns[*i].name)
                })
                .min_by_key(|(i, r)| (r.2, r.5, *i))
                .map(|c| c.0)
        };
        // Only where the random id is the record's own bare `id`: an `order_id` beside a
        // `customer_id` is the record's name, and the number a field of another record.
        let bare_id = |i: usize| {
            let own = self.columns[i].name.rsplit('.').next().unwrap_or_default().to_ascii_lowercase();
            matches!(own.trim_start_matches('_'), "id" | "uuid" | "guid")
        };
        let random = |b: &(usize, Rank)| {
            b.1.3 == 0
                && bare_id(b.0)
                && (b.1.4 == 1 || self.hex_values(b.0, sample) || self.machine_tokens(b.0, sample))
        };
        // An id named for what it is an id of and at least twice as long as the record's
        // own bare `id` (`external_id`: the record's name in another system, written in full)
        // names the record less than that `id`; a shorter one is a handle people use (an
        // issue's `number`, a `shortId`).
        let own_id = |b: &(usize, Rank)| {
            candidates.iter().find(|(i, r)| r.1 == 0 && r.2 == 1 && bare_id(*i) && r.5 * 2 <= b.1.5).map(|c| c.0)
        };
        let other_id = |b: &(usize, Rank)| names_an_id(&self.columns[b.0].name) && !bare_id(b.0);
        let own_before_other = best.filter(other_id).and_then(|b| own_id(&b));
        // A record's own number (an invoice's `DocNumber`, a case's `CaseNumber`) is what
        // people quote; the bare `id` of digits beside it is the API's handle for it.
        let own_number = || {
            candidates
                .iter()
                .filter(|(i, r)| {
                    let own = self.columns[*i].name.rsplit('.').next().unwrap_or_default().to_ascii_lowercase();
                    r.0 == 0 && r.1 == 0 && r.2 == 1 && own.ends_with("number")
                })
                .min_by_key(|(i, r)| (r.5, *i))
                .map(|c| c.0)
        };
        match best {
            Some(b) if member_field(&b) && own_title().is_some() => own_title(),
            Some(_) if own_before_other.is_some() => own_before_other,
            Some(b) if bare_id(b.0) && b.1.3 == 1 && own_number().is_some() => own_number(),
            Some(b) if self.hex_values(b.0, sample) && proper_name().is_some() => proper_name(),
            Some(b) if random(&b) && handle(&b).is_some() => handle(&b),
            Some(b) if !machine_only(&b) => Some(b.0),
            _ => own_title().or_else(|| self.nearly_unique_name(sample)).or(best.map(|b| b.0)),
        }
    }

    /// Whether the sample's values of column `i` are hexadecimal digits (most with letters
    /// and digits both: a random one may have no letter), as ids handed out by a machine are.
    fn hex_values(&self, i: usize, sample: &[Value]) -> bool {
        self.machine_values(i, sample, |b| b.is_ascii_hexdigit())
    }

    /// Whether the sample's values of column `i` are short machine tokens: capitals and
    /// digits mixed, no lower case (`QD99DL5B9V36IA`, `PT4KHLK`), as a service hands out for
    /// its own ids where a person uses a number.
    fn machine_tokens(&self, i: usize, sample: &[Value]) -> bool {
        self.machine_values(i, sample, |b| b.is_ascii_uppercase() || b.is_ascii_digit())
    }

    /// Whether the sample's values of column `i` are all six bytes or more of `allowed`,
    /// most of them mixing letters and digits.
    fn machine_values(&self, i: usize, sample: &[Value], allowed: fn(&u8) -> bool) -> bool {
        let texts: Vec<String> =
            sample.iter().filter_map(|r| self.columns[i].read(r)?.as_str().map(str::to_owned)).collect();
        let mixed = texts
            .iter()
            .filter(|t| t.bytes().any(|b| b.is_ascii_digit()) && t.bytes().any(|b| b.is_ascii_alphabetic()))
            .count();
        !texts.is_empty()
            && mixed * 2 > texts.len()
            && texts.iter().all(|t| t.len() >= 6 && t.bytes().all(|b| allowed(&b)))
    }

    /// Whether every sample value of column `i` reads as a name ([`readable_name`]).
    fn readable_values(&self, i: usize, sample: &[Value]) -> bool {
        sample.iter().all(|r| self.columns[i].read(r).is_some_and(|v| v.as_str().is_some_and(readable_name)))
    }

    /// The shallowest, then shortest, readable field that every record of the sample holds
    /// and that tells at least [`NEARLY_UNIQUE`] of them apart: words, not a number, a link,
    /// a random-looking id, a time or a sentence.
    fn nearly_unique_name(&self, sample: &[Value]) -> Option<usize> {
        if sample.len() < 10 {
            return None;
        }
        self.columns
            .iter()
            .enumerate()
            .filter(|(_, c)| c.extract == Extract::Value && c.holds != Holds::Times && !c.unique)
            .filter_map(|(i, c)| {
                let texts: Vec<String> =
                    sample.iter().filter_map(|r| c.read(r)).filter_map(|v| v.as_str().map(str::to_owned)).collect();
                if texts.len() < sample.len() || !texts.iter().all(|t| readable_name(t)) {
                    return None;
                }
                let distinct = texts.iter().collect::<HashSet<_>>().len();
                if (distinct as f64) < NEARLY_UNIQUE * texts.len() as f64 {
                    return None;
                }
                let len = texts.iter().map(String::len).sum::<usize>() / texts.len();
                Some((i, (depth(c), len)))
            })
            .min_by_key(|(_, rank)| *rank)
            .map(|(i, _)| i)
    }
}

/// How deep a column's field sits, its map tags aside.
pub(super) fn depth(c: &Column) -> usize {
    c.path.iter().filter(|s| !matches!(s, Step::Tag(_))).count()
}

/// Whether `s` reads as a name: letters, at most 64 bytes, no link, path, random-looking id
/// or sentence.
pub(super) fn readable_name(s: &str) -> bool {
    s.len() <= 64
        && s.chars().any(char::is_alphabetic)
        && !s.contains("://")
        && s.matches('/').count() < 3
        && !holds_opaque_part(s)
        && !reads_as_sentence(s)
}

/// Whether `s`, or one of its parts between characters an id does not hold (`#`, spaces,
/// commas), is a random-looking id.
pub(super) fn holds_opaque_part(s: &str) -> bool {
    s.split(|c: char| !(c.is_ascii_alphanumeric() || "-_=+/:.".contains(c))).any(stats::is_opaque)
}

/// Text with spaces whose words are not mostly capitalized: a sentence, not a name.
pub(super) fn reads_as_sentence(s: &str) -> bool {
    if !s.contains(char::is_whitespace) {
        return false;
    }
    let words: Vec<char> =
        s.split_whitespace().filter_map(|w| w.chars().next()).filter(|c| c.is_alphabetic()).collect();
    let capitalized = words.iter().filter(|c| c.is_uppercase()).count();
    capitalized * 2 <= words.len()
}

/// Whether every value is a whole number above zero.
fn whole_and_positive(values: &[Value]) -> bool {
    values.iter().all(|v| v.as_u64().is_some_and(|n| n > 0))
}

/// Whether unique numbers are ids rather than measures that happen to differ (amounts,
/// sizes, download counts, scores): whole and positive, within a factor of two of each
/// other, as numbers handed out in sequence are, where measures spread over magnitudes.
pub(crate) fn numbers_name_records(values: &[Value], numbers: &[f64]) -> bool {
    let whole = whole_and_positive(values);
    let (min, max) = numbers.iter().fold((f64::MAX, 0f64), |(lo, hi), x| (lo.min(*x), hi.max(*x)));
    whole && numbers.len() == values.len() && max <= min * 2.0
}

#[cfg(test)]
mod tests;
