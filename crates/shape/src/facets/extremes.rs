//! The largest and smallest value a field has held so far, each with how it is written and
//! the record holding it: kept for the whole result ([`super::Acc::Range`]) and within each
//! value of a state ([`super::within`]).

use super::Holder;

/// One extreme: the value, how the summary writes it, and the record holding it.
pub(super) type Seen = (f64, String, Holder);

/// The smallest and the largest value added, the first record holding each.
#[derive(Default)]
pub(super) struct Extremes {
    pub(super) min: Option<Seen>,
    pub(super) max: Option<Seen>,
}

impl Extremes {
    /// Add `x`; `shown` (how it is written) and `holder` are called only when `x` is a new
    /// extreme, which most records are not.
    pub(super) fn add(&mut self, x: f64, shown: impl FnOnce() -> String, holder: impl FnOnce() -> Holder) {
        let lower = self.min.as_ref().is_none_or(|m| x < m.0);
        let higher = self.max.as_ref().is_none_or(|m| x > m.0);
        if !(lower || higher) {
            return;
        }
        let (text, h) = (shown(), holder());
        if lower {
            self.min = Some((x, text.clone(), h.clone()));
        }
        if higher {
            self.max = Some((x, text, h));
        }
    }

    /// Both extremes, when the field held two different values.
    pub(super) fn spread(&self) -> Option<(&Seen, &Seen)> {
        let (min, max) = (self.min.as_ref()?, self.max.as_ref()?);
        (min.0 < max.0).then_some((min, max))
    }
}
