//! The steps from a record to one of its fields, and how the compact record writes the
//! field's value: as it is, a list's names or total, pairs as an object, text cut.

use super::Cut;

/// One step from a record to a field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Step {
    Key(String),
    /// The one member of an object that wraps a value (a type tag); not a level of its own.
    Tag(String),
    /// The one item of a list.
    First,
    /// The item at this place of a list whose places mean different things ([`super::tuples`]).
    Place(usize),
}

/// How a field's value is written in the compact record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Extract {
    Value,
    /// A list of objects, each written as its member at this path.
    Names(String),
    /// A list of objects that nothing names but a count (a message's reactions,
    /// `{"emoji": {…}, "count": 3}` each), written as the total of that member: "which
    /// message got the most reactions" asks for the record with the largest total.
    Total(String),
    /// A list of `{key, value}` objects, written as one object.
    Pairs {
        key: String,
        value: String,
        /// Whether each value is the scalar inside an object naming its type
        /// ([`super::pairs::typed_scalar`]).
        typed: bool,
    },
    /// The `value` member of the item of a list of `{key, value}` objects whose `key`
    /// member is `name` ([`super::pairs`]).
    PairValue {
        key: String,
        name: String,
        value: String,
        /// Whether the value is the scalar inside an object naming its type.
        typed: bool,
        /// The member that names the value where the value is an object (a custom
        /// field's `{"name": "Major", "$type": …}`, written as `Major`).
        inner: Option<String>,
        /// How long values are cut, as a field of the same values would be (a mail's
        /// `DKIM-Signature` header, a custom field's long description).
        cut: Option<Cut>,
    },
    /// Free text, cut to [`super::TEXT_CHARS`].
    Text,
    /// A random-looking string, cut to [`super::OPAQUE_CHARS`].
    Opaque,
    /// A long list: its first items and a count.
    Head,
    /// A series of points in time, written as its count, ends and extremes
    /// ([`super::series`]): pairs in the list itself (`None`), or values dated by the list
    /// of times under this name beside it.
    Series(Option<String>),
}
