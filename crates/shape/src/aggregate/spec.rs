//! What a mask declares to aggregate: group-bys, statistics and a recent window.

use std::fmt;
use std::str::FromStr;

use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize, Serializer};

use crate::numfmt::thousands;
use crate::path::FieldPath;

/// Distinct values one group-by keeps in memory; later new values are counted as `(other)`.
pub const MAX_DISTINCT: usize = 100_000;
/// Longest group value kept, in bytes; longer values are cut (at a character boundary) and
/// end with `…`, so two long values sharing this prefix are counted together.
pub const MAX_KEY_BYTES: usize = 256;
/// The group value for a missing field or `null`.
pub const NONE_KEY: &str = "(none)";
/// How new values past [`MAX_DISTINCT`] are named in a phrase.
pub const OTHER_KEY: &str = "(other)";
/// Largest `top` accepted for a group-by: a longer list defeats the point of aggregating.
pub const MAX_TOP: usize = 1_000;
/// Live buckets the "measured from the latest timestamp" window keeps before it coarsens.
pub const MAX_BUCKETS: usize = 65_536;

const DEFAULT_TOP: usize = 5;

fn default_top() -> usize {
    DEFAULT_TOP
}

/// What to aggregate, as declared in a mask's `result.aggregate`.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct AggregateSpec {
    /// Return the aggregate alone, without records. The aggregator itself ignores this; the
    /// shaper that owns the records reads it.
    #[serde(default)]
    pub only: bool,
    /// Count records per value of these fields, keeping the most frequent.
    #[serde(default)]
    pub group_by: Vec<GroupBy>,
    /// Numeric statistics (count, min, max, mean, sum) of these fields.
    #[serde(default)]
    pub stats: Vec<FieldPath>,
    /// The share of records whose timestamp falls within a recent window.
    #[serde(default)]
    pub recent: Option<RecentWindow>,
}

/// One group-by: a field and how many of its most frequent values to report. In config it
/// is either `{field: labels[].name, top: 3}` or just the path, which keeps the top 5.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GroupBy {
    /// The field whose values are counted.
    pub field: FieldPath,
    /// How many of the most frequent values to report (default 5, at most [`MAX_TOP`]).
    pub top: usize,
}

impl GroupBy {
    /// A group-by keeping the default top 5.
    pub fn new(field: FieldPath) -> Self {
        GroupBy { field, top: DEFAULT_TOP }
    }
}

impl<'de> Deserialize<'de> for GroupBy {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // A hand-written visitor rather than `#[serde(untagged)]`: untagged enums report
        // "did not match any variant", which tells a config author nothing.
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Full {
            field: FieldPath,
            #[serde(default = "default_top")]
            top: usize,
        }

        struct GroupByVisitor;

        impl<'de> Visitor<'de> for GroupByVisitor {
            type Value = GroupBy;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a field path like `labels[].name`, or `{field: labels[].name, top: 5}`")
            }

            fn visit_str<E: de::Error>(self, s: &str) -> Result<GroupBy, E> {
                FieldPath::parse(s).map(GroupBy::new).map_err(E::custom)
            }

            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<GroupBy, A::Error> {
                let full = Full::deserialize(de::value::MapAccessDeserializer::new(map))?;
                if full.top > MAX_TOP {
                    return Err(de::Error::custom(format!(
                        "group_by `{}`: top is {}, at most {MAX_TOP} is allowed",
                        full.field, full.top
                    )));
                }
                Ok(GroupBy { field: full.field, top: full.top })
            }
        }

        d.deserialize_any(GroupByVisitor)
    }
}

/// The recent-window part of an [`AggregateSpec`]: which timestamp, and how recent.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RecentWindow {
    /// The timestamp field: RFC 3339 strings, or unix seconds / milliseconds as numbers.
    pub field: FieldPath,
    /// How far back the window reaches, e.g. `30d`.
    pub within: Window,
}

/// A unit of a [`Window`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WindowUnit {
    /// `s`
    Seconds,
    /// `m`
    Minutes,
    /// `h`
    Hours,
    /// `d`
    Days,
    /// `w`
    Weeks,
}

impl WindowUnit {
    fn seconds(self) -> i64 {
        match self {
            WindowUnit::Seconds => 1,
            WindowUnit::Minutes => 60,
            WindowUnit::Hours => 3_600,
            WindowUnit::Days => 86_400,
            WindowUnit::Weeks => 604_800,
        }
    }

    fn letter(self) -> char {
        match self {
            WindowUnit::Seconds => 's',
            WindowUnit::Minutes => 'm',
            WindowUnit::Hours => 'h',
            WindowUnit::Days => 'd',
            WindowUnit::Weeks => 'w',
        }
    }

    fn word(self) -> &'static str {
        match self {
            WindowUnit::Seconds => "second",
            WindowUnit::Minutes => "minute",
            WindowUnit::Hours => "hour",
            WindowUnit::Days => "day",
            WindowUnit::Weeks => "week",
        }
    }
}

/// A length of time written as a whole number and a unit: `30d`, `24h`, `90m`, `2w`, `45s`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Window {
    amount: u32,
    unit: WindowUnit,
}

/// Longest window accepted: 100 years, far beyond any use, small enough to never overflow.
const MAX_WINDOW_SECONDS: i64 = 100 * 366 * 86_400;

/// Why a window did not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid window `{text}`: {reason} (write a whole number and a unit, like `30d`, `24h`, `90m`, `2w` or `45s`)")]
pub struct WindowError {
    /// The text that was given.
    pub text: String,
    /// What is wrong with it.
    pub reason: String,
}

impl Window {
    /// A window of `amount` units; `None` when it is zero or longer than 100 years.
    pub fn new(amount: u32, unit: WindowUnit) -> Option<Window> {
        let w = Window { amount, unit };
        (amount > 0 && w.seconds() <= MAX_WINDOW_SECONDS).then_some(w)
    }

    /// Parse `30d`, `24h`, `90m`, `2w` or `45s`.
    pub fn parse(text: &str) -> Result<Window, WindowError> {
        let err = |reason: &str| WindowError { text: text.to_owned(), reason: reason.to_owned() };
        let t = text.trim();
        let digits = t.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return Err(err("it must start with a number"));
        }
        let (num, unit) = t.split_at(digits);
        let unit = match unit.trim() {
            "s" => WindowUnit::Seconds,
            "m" => WindowUnit::Minutes,
            "h" => WindowUnit::Hours,
            "d" => WindowUnit::Days,
            "w" => WindowUnit::Weeks,
            "" => return Err(err("the unit is missing")),
            _ => return Err(err("the unit must be one of s, m, h, d, w")),
        };
        let amount: u32 = num.parse().map_err(|_| err("the number is too large"))?;
        if amount == 0 {
            return Err(err("it must be longer than zero"));
        }
        Window::new(amount, unit).ok_or_else(|| err("it must be at most 100 years"))
    }

    /// The number of units.
    pub fn amount(&self) -> u32 {
        self.amount
    }

    /// The unit.
    pub fn unit(&self) -> WindowUnit {
        self.unit
    }

    /// The length in seconds.
    pub fn seconds(&self) -> i64 {
        i64::from(self.amount) * self.unit.seconds()
    }

    /// The length in words for a phrase: `30 days`, or `day` for one.
    pub fn words(&self) -> String {
        if self.amount == 1 {
            self.unit.word().to_owned()
        } else {
            format!("{} {}s", thousands(u64::from(self.amount)), self.unit.word())
        }
    }
}

impl fmt::Display for Window {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.amount, self.unit.letter())
    }
}

impl FromStr for Window {
    type Err = WindowError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Window::parse(s)
    }
}

impl Serialize for Window {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Window {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Window::parse(&s).map_err(de::Error::custom)
    }
}
