//! Serde deserialization from a positioned YAML [`Node`], so every type error, unknown key
//! and missing key comes back with the line, column and key path where it happened.
//!
//! Plain scalars deserialize as what they resolved to (`5` is a number), except where a
//! string is asked for: then the text as written is given, as `yaml_serde` does, so
//! `name: 2024` is a fine name. Errors are attached to the innermost node that failed: an
//! unknown key points at the key, a bad value at the value, a missing key at its mapping.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, SeqAccess, Visitor};

use crate::yaml::{Node, Pos, Scalar, Value};

/// What went wrong, in the terms a config author uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum DeErrorKind {
    /// A key the type does not have.
    UnknownKey { key: String, expected: &'static [&'static str] },
    /// A value outside a fixed set of names.
    UnknownVariant { variant: String, expected: &'static [&'static str] },
    /// A required key left out.
    MissingKey { key: &'static str },
    /// Anything else (type mismatches, values a type refused).
    Other(String),
}

/// A deserialization error with where it happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DeError {
    pub(crate) kind: DeErrorKind,
    pub(crate) pos: Option<Pos>,
    /// The key path of the node that failed (`masks[0].result`).
    pub(crate) path: Option<String>,
}

impl DeError {
    fn at(mut self, node: &Node, path: &str) -> DeError {
        if self.pos.is_none() {
            self.pos = Some(node.pos);
            self.path = Some(path.to_owned());
            // A value substituted from `${VAR}` may be a secret: never echo it.
            if let DeErrorKind::Other(msg) = &mut self.kind {
                for (name, value) in &node.secrets {
                    if !value.is_empty() {
                        *msg = msg.replace(value.as_str(), &format!("${{{name}}}"));
                    }
                }
            }
        }
        self
    }
}

impl fmt::Display for DeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            DeErrorKind::UnknownKey { key, .. } => write!(f, "unknown key `{key}`"),
            DeErrorKind::UnknownVariant { variant, expected } => {
                write!(f, "unknown value `{variant}`, expected one of {}", list(expected))
            }
            DeErrorKind::MissingKey { key } => write!(f, "missing key `{key}`"),
            DeErrorKind::Other(msg) => f.write_str(msg),
        }
    }
}

fn list(names: &[&str]) -> String {
    names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
}

impl std::error::Error for DeError {}

impl de::Error for DeError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        DeError { kind: DeErrorKind::Other(msg.to_string()), pos: None, path: None }
    }

    fn unknown_field(field: &str, expected: &'static [&'static str]) -> Self {
        DeError { kind: DeErrorKind::UnknownKey { key: field.to_owned(), expected }, pos: None, path: None }
    }

    fn unknown_variant(variant: &str, expected: &'static [&'static str]) -> Self {
        DeError { kind: DeErrorKind::UnknownVariant { variant: variant.to_owned(), expected }, pos: None, path: None }
    }

    fn missing_field(field: &'static str) -> Self {
        DeError { kind: DeErrorKind::MissingKey { key: field }, pos: None, path: None }
    }
}

/// Deserialize a `T` from `node`, which sits at `path` in the document.
pub(crate) fn from_node<'a, T: de::Deserialize<'a>>(node: &'a Node, path: &str) -> Result<T, DeError> {
    T::deserialize(NodeDe { node, path: path.to_owned() })
}

/// Deserializes one node.
struct NodeDe<'a> {
    node: &'a Node,
    path: String,
}

impl<'a> NodeDe<'a> {
    fn fail(&self, e: DeError) -> DeError {
        e.at(self.node, &self.path)
    }

    fn visit_map_or_null<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        match &self.node.value {
            Value::Map(entries) => {
                let access = MapDe { entries: entries.iter(), value: None, path: &self.path };
                visitor.visit_map(access).map_err(|e| self.fail(e))
            }
            // `defaults:` with nothing under it reads as an empty mapping.
            Value::Scalar { kind: Scalar::Null, .. } => {
                let access = MapDe { entries: [].iter(), value: None, path: &self.path };
                visitor.visit_map(access).map_err(|e| self.fail(e))
            }
            _ => self.deserialize_any(visitor),
        }
    }
}

impl<'a> NodeDe<'a> {
    /// A number or boolean: a quoted value that came whole from `${VAR}` is read as a plain
    /// one, because in a flow mapping (`{ budget_tokens: "${BUDGET}" }`) the quotes are
    /// required by YAML, not chosen to make a string.
    fn deserialize_typed<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        if let Value::Scalar { text, kind: Scalar::Str, .. } = &self.node.value
            && !self.node.secrets.is_empty()
        {
            let result = match crate::yaml::resolve_plain(text) {
                Scalar::Bool(b) => visitor.visit_bool(b),
                Scalar::Int(n) => visitor.visit_i64(n),
                Scalar::UInt(n) => visitor.visit_u64(n),
                Scalar::Float(f) => visitor.visit_f64(f),
                _ => return self.deserialize_any(visitor),
            };
            return result.map_err(|e| self.fail(e));
        }
        self.deserialize_any(visitor)
    }
}

impl<'a> Deserializer<'a> for NodeDe<'a> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        let result = match &self.node.value {
            Value::Scalar { text, kind, .. } => match kind {
                Scalar::Null => visitor.visit_unit(),
                Scalar::Bool(b) => visitor.visit_bool(*b),
                Scalar::Int(n) => visitor.visit_i64(*n),
                Scalar::UInt(n) => visitor.visit_u64(*n),
                Scalar::Float(f) => visitor.visit_f64(*f),
                Scalar::Str => visitor.visit_borrowed_str(text),
            },
            Value::Seq(items) => visitor.visit_seq(SeqDe { items: items.iter(), index: 0, path: &self.path }),
            Value::Map(entries) => visitor.visit_map(MapDe { entries: entries.iter(), value: None, path: &self.path }),
        };
        result.map_err(|e| self.fail(e))
    }

    fn deserialize_str<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        match &self.node.value {
            Value::Scalar { text, kind, .. } if *kind != Scalar::Null => {
                visitor.visit_borrowed_str(text).map_err(|e| self.fail(e))
            }
            _ => self.deserialize_any(visitor),
        }
    }

    fn deserialize_string<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.deserialize_str(visitor)
    }

    fn deserialize_identifier<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.deserialize_str(visitor)
    }

    fn deserialize_option<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        if self.node.is_null() {
            visitor.visit_none().map_err(|e| self.fail(e))
        } else {
            let node = self.node;
            let path = self.path.clone();
            visitor.visit_some(self).map_err(|e| e.at(node, &path))
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'a>>(self, _name: &'static str, visitor: V) -> Result<V::Value, DeError> {
        let node = self.node;
        let path = self.path.clone();
        visitor.visit_newtype_struct(self).map_err(|e| e.at(node, &path))
    }

    fn deserialize_map<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.visit_map_or_null(visitor)
    }

    fn deserialize_struct<V: Visitor<'a>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        self.visit_map_or_null(visitor)
    }

    fn deserialize_enum<V: Visitor<'a>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        match &self.node.value {
            Value::Scalar { text, kind, .. } if *kind != Scalar::Null => {
                let access: de::value::StrDeserializer<'_, DeError> = text.as_str().into_deserializer();
                visitor.visit_enum(access).map_err(|e| self.fail(e))
            }
            Value::Map(entries) if entries.len() == 1 => {
                let (key, value) = &entries[0];
                let access = EnumDe { key, value, path: &self.path };
                visitor.visit_enum(access).map_err(|e| self.fail(e))
            }
            _ => Err(self.fail(de::Error::custom(format!("expected a name, found {}", self.node.kind_name())))),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        visitor.visit_unit()
    }

    fn deserialize_bool<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.deserialize_typed(visitor)
    }
    fn deserialize_i64<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.deserialize_typed(visitor)
    }
    fn deserialize_u64<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.deserialize_typed(visitor)
    }
    fn deserialize_u32<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.deserialize_typed(visitor)
    }
    fn deserialize_f64<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.deserialize_typed(visitor)
    }

    serde::forward_to_deserialize_any! {
        <W: Visitor<'a>>
        i8 i16 i32 i128 u8 u16 u128 f32 char
        bytes byte_buf unit unit_struct seq tuple tuple_struct
    }
}

struct SeqDe<'a, 'p> {
    items: std::slice::Iter<'a, Node>,
    index: usize,
    path: &'p str,
}

impl<'a> SeqAccess<'a> for SeqDe<'a, '_> {
    type Error = DeError;

    fn next_element_seed<T: DeserializeSeed<'a>>(&mut self, seed: T) -> Result<Option<T::Value>, DeError> {
        let Some(node) = self.items.next() else { return Ok(None) };
        let path = format!("{}[{}]", self.path, self.index);
        self.index += 1;
        // Types that parse a string after reading it (`FieldPath`, `Filter`) fail after the
        // node's deserializer returned, so the element's position is attached here.
        seed.deserialize(NodeDe { node, path: path.clone() }).map(Some).map_err(|e| e.at(node, &path))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

struct MapDe<'a, 'p> {
    entries: std::slice::Iter<'a, (Node, Node)>,
    value: Option<(&'a Node, String)>,
    path: &'p str,
}

fn child_path(parent: &str, key: &str) -> String {
    if parent.is_empty() { key.to_owned() } else { format!("{parent}.{key}") }
}

impl<'a> MapAccess<'a> for MapDe<'a, '_> {
    type Error = DeError;

    fn next_key_seed<K: DeserializeSeed<'a>>(&mut self, seed: K) -> Result<Option<K::Value>, DeError> {
        let Some((key, value)) = self.entries.next() else { return Ok(None) };
        let key_text = key.as_str().unwrap_or("~");
        let path = child_path(self.path, key_text);
        self.value = Some((value, path.clone()));
        seed.deserialize(NodeDe { node: key, path: path.clone() }).map(Some).map_err(|e| e.at(key, &path))
    }

    fn next_value_seed<V: DeserializeSeed<'a>>(&mut self, seed: V) -> Result<V::Value, DeError> {
        match self.value.take() {
            Some((node, path)) => seed.deserialize(NodeDe { node, path: path.clone() }).map_err(|e| e.at(node, &path)),
            None => Err(de::Error::custom("a value without a key")),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

struct EnumDe<'a, 'p> {
    key: &'a Node,
    value: &'a Node,
    path: &'p str,
}

impl<'a> de::EnumAccess<'a> for EnumDe<'a, '_> {
    type Error = DeError;
    type Variant = VariantDe<'a>;

    fn variant_seed<S: DeserializeSeed<'a>>(self, seed: S) -> Result<(S::Value, VariantDe<'a>), DeError> {
        let name = self.key.as_str().unwrap_or("~");
        let path = child_path(self.path, name);
        let variant = seed.deserialize(NodeDe { node: self.key, path: path.clone() })?;
        Ok((variant, VariantDe { node: self.value, path }))
    }
}

struct VariantDe<'a> {
    node: &'a Node,
    path: String,
}

impl<'a> de::VariantAccess<'a> for VariantDe<'a> {
    type Error = DeError;

    fn unit_variant(self) -> Result<(), DeError> {
        if self.node.is_null() {
            Ok(())
        } else {
            Err(<DeError as de::Error>::custom("this name takes no value").at(self.node, &self.path))
        }
    }

    fn newtype_variant_seed<T: DeserializeSeed<'a>>(self, seed: T) -> Result<T::Value, DeError> {
        seed.deserialize(NodeDe { node: self.node, path: self.path })
    }

    fn tuple_variant<V: Visitor<'a>>(self, _len: usize, visitor: V) -> Result<V::Value, DeError> {
        NodeDe { node: self.node, path: self.path }.deserialize_any(visitor)
    }

    fn struct_variant<V: Visitor<'a>>(self, _fields: &'static [&'static str], visitor: V) -> Result<V::Value, DeError> {
        NodeDe { node: self.node, path: self.path }.visit_map_or_null(visitor)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::Deserialize;

    use super::*;
    use crate::yaml::parse;

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Inner {
        budget_tokens: usize,
        #[serde(default)]
        name: Option<String>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Outer {
        inner: Vec<Inner>,
        #[serde(default)]
        extra: BTreeMap<String, serde_json::Value>,
    }

    #[test]
    fn errors_point_at_the_failing_node() {
        let node = parse("inner:\n  - budget_tokens: 5\n  - budget: 7\n").unwrap();
        let err = from_node::<Outer>(&node, "").unwrap_err();
        assert_eq!(err.pos, Some(Pos { line: 3, column: 5 }));
        assert_eq!(err.path.as_deref(), Some("inner[1].budget"));
        match err.kind {
            DeErrorKind::UnknownKey { key, expected } => {
                assert_eq!(key, "budget");
                assert!(expected.contains(&"budget_tokens"));
            }
            other => panic!("{other:?}"),
        }

        let node = parse("inner:\n  - budget_tokens: many\n").unwrap();
        let err = from_node::<Outer>(&node, "").unwrap_err();
        assert_eq!(err.pos, Some(Pos { line: 2, column: 20 }));
        assert!(err.to_string().contains("invalid type"), "{err}");

        let node = parse("inner:\n  - name: x\n").unwrap();
        let err = from_node::<Outer>(&node, "").unwrap_err();
        assert_eq!(err.kind, DeErrorKind::MissingKey { key: "budget_tokens" });
        assert_eq!(err.pos.map(|p| p.line), Some(2));
    }

    #[test]
    fn plain_scalars_keep_their_types_except_for_strings() {
        let node =
            parse("inner: [{budget_tokens: 5, name: 2024}]\nextra: {a: 5, b: '5', c: [true, ~, 1.5]}\n").unwrap();
        let outer: Outer = from_node(&node, "").unwrap();
        assert_eq!(outer.inner[0].name.as_deref(), Some("2024"));
        assert_eq!(outer.extra["a"], serde_json::json!(5));
        assert_eq!(outer.extra["b"], serde_json::json!("5"));
        assert_eq!(outer.extra["c"], serde_json::json!([true, null, 1.5]));
    }
}
