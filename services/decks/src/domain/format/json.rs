//! Formats as JSON: strict reading and writing with the documented snake_case keys
//! (`spec/formats-and-rules.md`, "Reading a format").
//!
//! Reading refuses an unknown key, a missing key, a repeated key and a value of the wrong type
//! with [`InvalidDeck`] and nothing else; the rules themselves are checked by the builders in
//! [`super::rules`] and [`super::taboo`], so a format read from JSON obeys exactly the bounds of
//! one built in Rust.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

use super::day::Day;
use super::error::{InvalidDeck, Problem, entry, item};
use super::rules::{Format, FormatBuilder};
use super::taboo::{TabooList, TabooListBuilder};
use super::values::{CardId, CopyLimit, FormatCode, Name, ShapeError, TabooListCode};

/// The longest JSON text read, in bytes: 1 MiB.
pub const MAX_JSON_BYTES: usize = 1 << 20;
/// The deepest nesting of arrays and objects read; the document's own object is level 1.
pub const MAX_JSON_DEPTH: usize = 15;

const FORMAT_KEYS: [&str; 8] = [
    "code",
    "name",
    "min_size",
    "max_size",
    "copies",
    "banned",
    "restricted",
    "taboo_lists",
];
const FORMAT_REQUIRED: [&str; 2] = ["code", "name"];
const TABOO_LIST_KEYS: [&str; 4] = ["code", "effective_from", "banned", "restricted"];
const TABOO_LIST_REQUIRED: [&str; 2] = ["code", "effective_from"];

impl Format {
    /// Reads a format from JSON of at most 1 MiB, nested at most 15 levels deep.
    ///
    /// `code` and `name` are required; every other key may be left out for its default.
    pub fn from_json(json: &str) -> Result<Self, InvalidDeck> {
        Self::from_value(&parse_document(json)?)
    }

    /// Reads a format from the bytes of a JSON file, as [`Format::from_json`] does; bytes that
    /// are not UTF-8 are refused like any other text that is not JSON.
    pub fn from_json_bytes(json: &[u8]) -> Result<Self, InvalidDeck> {
        if json.len() > MAX_JSON_BYTES {
            return Err(InvalidDeck::document(Problem::TooLarge {
                found: json.len(),
            }));
        }
        let json = std::str::from_utf8(json)
            .map_err(|err| InvalidDeck::document(Problem::Syntax(err.to_string())))?;
        Self::from_json(json)
    }

    /// Reads a format from the JSON value [`Format::to_value`] writes.
    pub fn from_value(value: &Value) -> Result<Self, InvalidDeck> {
        let object = Object::read(value, "", &FORMAT_KEYS, &FORMAT_REQUIRED)?;
        let code = object.shaped("code", FormatCode::parse)?;
        let name = object.shaped("name", Name::parse)?;
        let mut format = Format::builder(code, name);
        if let Some(min_size) = object.integer("min_size")? {
            format = format.min_size(min_size);
        }
        if let Some(max_size) = object.nullable_integer("max_size")? {
            format = format.max_size(max_size);
        }
        if let Some(copies) = object.integer("copies")? {
            format = format.copies(copies);
        }
        format = read_cards(&object, format, FormatBuilder::ban, FormatBuilder::restrict)?;
        for (index, list) in object.array("taboo_lists")?.iter().enumerate() {
            let path = item("taboo_lists", index);
            format = format.taboo_list(read_taboo_list(list, &path)?);
        }
        format.build()
    }

    /// Returns the format as the JSON value [`Format::from_value`] reads, with every key written.
    pub fn to_value(&self) -> Value {
        let mut object = Map::new();
        object.insert("code".into(), self.code().as_str().into());
        object.insert("name".into(), self.name().as_str().into());
        object.insert("min_size".into(), self.min_size().into());
        object.insert(
            "max_size".into(),
            self.max_size().map_or(Value::Null, Value::from),
        );
        object.insert("copies".into(), self.copies().get().into());
        write_cards(&mut object, self.banned(), self.restricted());
        let taboo_lists = self.taboo_lists().iter().map(taboo_list_value).collect();
        object.insert("taboo_lists".into(), Value::Array(taboo_lists));
        Value::Object(object)
    }

    /// Returns the format as JSON text that [`Format::from_json`] reads back as the same format.
    pub fn to_json(&self) -> String {
        self.to_value().to_string()
    }
}

/// Parses JSON text of at most 1 MiB, nested at most 15 levels deep, with no object repeating a
/// key.
pub(super) fn parse_document(json: &str) -> Result<Value, InvalidDeck> {
    if json.len() > MAX_JSON_BYTES {
        return Err(InvalidDeck::document(Problem::TooLarge {
            found: json.len(),
        }));
    }
    // Checked before parsing, so the parser's own recursion never goes deeper than this.
    if nesting_exceeds(json.as_bytes(), MAX_JSON_DEPTH) {
        return Err(InvalidDeck::document(Problem::TooDeep));
    }
    let mut deserializer = serde_json::Deserializer::from_str(json);
    UniqueKeys
        .deserialize(&mut deserializer)
        .and_then(|value| deserializer.end().map(|()| value))
        .map_err(|err| InvalidDeck::document(Problem::Syntax(err.to_string())))
}

fn taboo_list_value(list: &TabooList) -> Value {
    let mut object = Map::new();
    object.insert("code".into(), list.code().as_str().into());
    object.insert(
        "effective_from".into(),
        list.effective_from().to_string().into(),
    );
    write_cards(&mut object, list.banned(), list.restricted());
    Value::Object(object)
}

fn write_cards(
    object: &mut Map<String, Value>,
    banned: &BTreeSet<CardId>,
    restricted: &BTreeMap<CardId, CopyLimit>,
) {
    let banned = banned.iter().map(|card| card.as_str().into()).collect();
    object.insert("banned".into(), Value::Array(banned));
    let restricted = restricted
        .iter()
        .map(|(card, copies)| (card.as_str().to_owned(), copies.get().into()))
        .collect();
    object.insert("restricted".into(), Value::Object(restricted));
}

fn read_taboo_list(value: &Value, path: &str) -> Result<TabooList, InvalidDeck> {
    let object = Object::read(value, path, &TABOO_LIST_KEYS, &TABOO_LIST_REQUIRED)?;
    let code = object.shaped("code", TabooListCode::parse)?;
    let effective_from = object.day("effective_from")?;
    let list = TabooList::builder(code, effective_from);
    let list = read_cards(
        &object,
        list,
        TabooListBuilder::ban,
        TabooListBuilder::restrict,
    )?;
    list.build().map_err(|err| err.within(path))
}

/// Reads `banned` and `restricted` into a format's or a taboo list's builder.
fn read_cards<B>(
    object: &Object<'_>,
    mut builder: B,
    ban: fn(B, CardId) -> B,
    restrict: fn(B, CardId, i128) -> B,
) -> Result<B, InvalidDeck> {
    let banned_path = object.path("banned");
    for (index, card) in object.array("banned")?.iter().enumerate() {
        let field = item(&banned_path, index);
        let card = card_id(string(card, &field)?, &field)?;
        builder = ban(builder, card);
    }
    let restricted_path = object.path("restricted");
    if let Some(restricted) = object.object("restricted")? {
        for (card, copies) in restricted {
            let field = entry(&restricted_path, card);
            let card = card_id(card, &field)?;
            builder = restrict(builder, card, integer(copies, &field)?);
        }
    }
    Ok(builder)
}

pub(super) fn card_id(text: &str, field: &str) -> Result<CardId, InvalidDeck> {
    CardId::parse(text).map_err(|err| InvalidDeck::new(field, err))
}

/// A JSON object being read, with the path of its fields for errors.
pub(super) struct Object<'a> {
    map: &'a Map<String, Value>,
    path: &'a str,
}

impl<'a> Object<'a> {
    /// Returns `value` as an object, refusing any key outside `allowed` and any `required` key
    /// that is absent.
    pub(super) fn read(
        value: &'a Value,
        path: &'a str,
        allowed: &[&str],
        required: &[&str],
    ) -> Result<Self, InvalidDeck> {
        let map = value
            .as_object()
            .ok_or_else(|| wrong_type(path, "an object", value))?;
        let object = Self { map, path };
        if let Some(unknown) = map.keys().find(|key| !allowed.contains(&key.as_str())) {
            let unknown = unknown.escape_debug().to_string();
            return Err(InvalidDeck::new(object.path(&unknown), Problem::UnknownKey));
        }
        if let Some(missing) = required.iter().find(|key| !map.contains_key(**key)) {
            return Err(InvalidDeck::new(object.path(missing), Problem::MissingKey));
        }
        Ok(object)
    }

    pub(super) fn path(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_owned()
        } else {
            format!("{}.{key}", self.path)
        }
    }

    pub(super) fn shaped<T>(
        &self,
        key: &str,
        parse: impl Fn(&str) -> Result<T, ShapeError>,
    ) -> Result<T, InvalidDeck> {
        let path = self.path(key);
        let value = self.map.get(key).unwrap_or(&Value::Null);
        parse(string(value, &path)?).map_err(|err| InvalidDeck::new(path, err))
    }

    /// Reads an optional text of a shape; absent and null both give `None`.
    pub(super) fn optional_shaped<T>(
        &self,
        key: &str,
        parse: impl Fn(&str) -> Result<T, ShapeError>,
    ) -> Result<Option<T>, InvalidDeck> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(_) => self.shaped(key, parse).map(Some),
        }
    }

    fn day(&self, key: &str) -> Result<Day, InvalidDeck> {
        let path = self.path(key);
        let text = string(self.map.get(key).unwrap_or(&Value::Null), &path)?;
        Day::parse(text).ok_or_else(|| InvalidDeck::new(path, Problem::Day(text.to_owned())))
    }

    pub(super) fn integer(&self, key: &str) -> Result<Option<i128>, InvalidDeck> {
        self.map
            .get(key)
            .map(|value| integer(value, &self.path(key)))
            .transpose()
    }

    pub(super) fn nullable_integer(&self, key: &str) -> Result<Option<i128>, InvalidDeck> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(value) => integer(value, &self.path(key)).map(Some),
        }
    }

    pub(super) fn array(&self, key: &str) -> Result<&'a [Value], InvalidDeck> {
        match self.map.get(key) {
            None => Ok(&[]),
            Some(Value::Array(items)) => Ok(items),
            Some(value) => Err(wrong_type(&self.path(key), "an array", value)),
        }
    }

    fn object(&self, key: &str) -> Result<Option<&'a Map<String, Value>>, InvalidDeck> {
        match self.map.get(key) {
            None => Ok(None),
            Some(Value::Object(map)) => Ok(Some(map)),
            Some(value) => Err(wrong_type(&self.path(key), "an object", value)),
        }
    }
}

fn string<'v>(value: &'v Value, path: &str) -> Result<&'v str, InvalidDeck> {
    value
        .as_str()
        .ok_or_else(|| wrong_type(path, "a string", value))
}

fn integer(value: &Value, path: &str) -> Result<i128, InvalidDeck> {
    let number = value
        .as_number()
        .ok_or_else(|| wrong_type(path, "an integer", value))?;
    whole(number).ok_or_else(|| wrong_type(path, "an integer", value))
}

fn whole(number: &Number) -> Option<i128> {
    number
        .as_u64()
        .map(i128::from)
        .or_else(|| number.as_i64().map(i128::from))
}

fn wrong_type(path: &str, expected: &'static str, value: &Value) -> InvalidDeck {
    let found = match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(number) if whole(number).is_some() => "an integer",
        Value::Number(_) => "a number with a fraction or an exponent",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    };
    InvalidDeck::new(path, Problem::WrongType { expected, found })
}

/// Returns whether arrays and objects in `json` nest deeper than `max` levels.
///
/// Brackets inside strings are skipped; a malformed text is left for the parser to refuse.
fn nesting_exceeds(json: &[u8], max: usize) -> bool {
    let mut depth = 0_usize;
    let mut in_string = false;
    let mut escaped = false;
    for &byte in json {
        if in_string {
            match (escaped, byte) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > max {
                    return true;
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    false
}

/// Deserializes any JSON value like `serde_json::Value` does, but refuses an object that repeats
/// a key, which `Value` would silently resolve by keeping the last one (so `"restricted":
/// {"a": 1, "a": 3}` could not be told from `{"a": 3}`).
struct UniqueKeys;

impl<'de> DeserializeSeed<'de> for UniqueKeys {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for UniqueKeys {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<Value, E> {
        Ok(Value::Bool(value))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Value, E> {
        Ok(Value::from(value))
    }

    fn visit_u64<E>(self, value: u64) -> Result<Value, E> {
        Ok(Value::from(value))
    }

    fn visit_f64<E>(self, value: f64) -> Result<Value, E> {
        // serde_json never produces a non-finite float, so this is never Null in practice.
        Ok(Number::from_f64(value).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, value: &str) -> Result<Value, E> {
        Ok(Value::String(value.to_owned()))
    }

    fn visit_string<E>(self, value: String) -> Result<Value, E> {
        Ok(Value::String(value))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(value) = seq.next_element_seed(UniqueKeys)? {
            items.push(value);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                return Err(de::Error::custom(format_args!(
                    "the key `{}` appears twice",
                    key.escape_debug()
                )));
            }
            let value = map.next_value_seed(UniqueKeys)?;
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::json;

    use super::*;

    const SPEC_EXAMPLE: &str = r#"{
        "code": "league",
        "name": "League",
        "min_size": 40,
        "max_size": 60,
        "copies": 3,
        "banned": ["old-relic"],
        "restricted": {"storm-call": 1},
        "taboo_lists": [
            {"code": "autumn", "effective_from": "2026-10-01", "banned": ["night-owl"], "restricted": {"ember-fox": 2}}
        ]
    }"#;

    fn refusal(json: &str) -> (String, Problem) {
        let err = Format::from_json(json).expect_err("the format is refused");
        (err.field().to_owned(), err.problem().clone())
    }

    fn refusal_of(value: Value) -> (String, Problem) {
        refusal(&value.to_string())
    }

    fn card(id: &str) -> CardId {
        CardId::parse(id).expect("a valid card id")
    }

    /// The spec's example with `key` set to `value` (or removed when `value` is `None`).
    fn example_with(key: &str, value: Option<Value>) -> Value {
        let mut example: Value = serde_json::from_str(SPEC_EXAMPLE).expect("JSON");
        let object = example.as_object_mut().expect("an object");
        match value {
            Some(value) => object.insert(key.to_owned(), value),
            None => object.shift_remove(key),
        };
        example
    }

    /// The spec's example with a field of its taboo list set to `value`.
    fn taboo_list_with(key: &str, value: Option<Value>) -> Value {
        let mut list = json!({"code": "autumn", "effective_from": "2026-10-01",
            "banned": ["night-owl"], "restricted": {"ember-fox": 2}});
        let object = list.as_object_mut().expect("an object");
        match value {
            Some(value) => object.insert(key.to_owned(), value),
            None => object.shift_remove(key),
        };
        example_with("taboo_lists", Some(json!([list])))
    }

    fn wrong(expected: &'static str, found: &'static str) -> Problem {
        Problem::WrongType { expected, found }
    }

    #[test]
    fn the_spec_example_reads_with_every_value_it_gives() {
        let format = Format::from_json(SPEC_EXAMPLE).expect("the example reads");
        assert_eq!(format.code().as_str(), "league");
        assert_eq!(format.name().as_str(), "League");
        assert_eq!(format.min_size(), 40);
        assert_eq!(format.max_size(), Some(60));
        assert_eq!(format.copies().get(), 3);
        assert!(format.is_banned(&card("old-relic")));
        assert_eq!(
            format.restriction(&card("storm-call")).map(|c| c.get()),
            Some(1)
        );
        let [autumn] = format.taboo_lists() else {
            panic!("one taboo list")
        };
        assert_eq!(autumn.code().as_str(), "autumn");
        assert_eq!(autumn.effective_from().to_string(), "2026-10-01");
        assert!(autumn.is_banned(&card("night-owl")));
        assert_eq!(
            autumn.restriction(&card("ember-fox")).map(|c| c.get()),
            Some(2)
        );
    }

    #[test]
    fn only_code_and_name_are_required_and_the_rest_take_their_defaults() {
        let format =
            Format::from_json(r#"{"code": "open", "name": "Open"}"#).expect("a valid format");
        assert_eq!(format.min_size(), 1);
        assert_eq!(format.max_size(), None);
        assert_eq!(format.copies().get(), 999);
        assert!(format.banned().is_empty());
        assert!(format.restricted().is_empty());
        assert!(format.taboo_lists().is_empty());
    }

    #[test]
    fn max_size_null_means_no_limit() {
        let format = Format::from_value(&example_with("max_size", Some(Value::Null)))
            .expect("a valid format");
        assert_eq!(format.max_size(), None);
    }

    #[test]
    fn writing_gives_every_documented_key_in_order() {
        let format = Format::from_json(SPEC_EXAMPLE).expect("the example reads");
        assert_eq!(
            format.to_value(),
            json!({
                "code": "league",
                "name": "League",
                "min_size": 40,
                "max_size": 60,
                "copies": 3,
                "banned": ["old-relic"],
                "restricted": {"storm-call": 1},
                "taboo_lists": [
                    {"code": "autumn", "effective_from": "2026-10-01", "banned": ["night-owl"], "restricted": {"ember-fox": 2}}
                ]
            })
        );
        let keys: Vec<_> = format
            .to_value()
            .as_object()
            .expect("an object")
            .keys()
            .cloned()
            .collect();
        assert_eq!(keys, FORMAT_KEYS);
    }

    #[test]
    fn writing_then_reading_gives_the_same_format() {
        let format = Format::from_json(SPEC_EXAMPLE).expect("the example reads");
        assert_eq!(Format::from_json(&format.to_json()), Ok(format.clone()));
        assert_eq!(Format::from_value(&format.to_value()), Ok(format));
    }

    #[test]
    fn an_unknown_key_is_refused_with_its_path() {
        assert_eq!(
            refusal_of(example_with("minSize", Some(json!(40)))),
            ("minSize".into(), Problem::UnknownKey)
        );
        assert_eq!(
            refusal_of(taboo_list_with("name", Some(json!("Autumn")))),
            ("taboo_lists[0].name".into(), Problem::UnknownKey)
        );
    }

    #[test]
    fn a_missing_required_key_is_refused_with_its_path() {
        assert_eq!(
            refusal_of(example_with("code", None)),
            ("code".into(), Problem::MissingKey)
        );
        assert_eq!(
            refusal_of(example_with("name", None)),
            ("name".into(), Problem::MissingKey)
        );
        assert_eq!(
            refusal_of(taboo_list_with("code", None)),
            ("taboo_lists[0].code".into(), Problem::MissingKey)
        );
        assert_eq!(
            refusal_of(taboo_list_with("effective_from", None)),
            ("taboo_lists[0].effective_from".into(), Problem::MissingKey)
        );
    }

    #[test]
    fn optional_keys_of_a_taboo_list_may_be_left_out() {
        let format = Format::from_value(&taboo_list_with("banned", None)).expect("a valid format");
        assert!(format.taboo_lists()[0].banned().is_empty());
        let format =
            Format::from_value(&taboo_list_with("restricted", None)).expect("a valid format");
        assert!(format.taboo_lists()[0].restricted().is_empty());
    }

    #[test]
    fn a_value_of_the_wrong_type_is_refused_with_its_path() {
        let cases = [
            (
                example_with("code", Some(json!(7))),
                "code",
                wrong("a string", "an integer"),
            ),
            (
                example_with("name", Some(Value::Null)),
                "name",
                wrong("a string", "null"),
            ),
            (
                example_with("min_size", Some(json!("40"))),
                "min_size",
                wrong("an integer", "a string"),
            ),
            (
                example_with("min_size", Some(json!(40.5))),
                "min_size",
                wrong("an integer", "a number with a fraction or an exponent"),
            ),
            (
                example_with("max_size", Some(json!(60.0))),
                "max_size",
                wrong("an integer", "a number with a fraction or an exponent"),
            ),
            (
                example_with("copies", Some(Value::Null)),
                "copies",
                wrong("an integer", "null"),
            ),
            (
                example_with("copies", Some(json!(true))),
                "copies",
                wrong("an integer", "a boolean"),
            ),
            (
                example_with("banned", Some(json!({}))),
                "banned",
                wrong("an array", "an object"),
            ),
            (
                example_with("banned", Some(json!([1]))),
                "banned[0]",
                wrong("a string", "an integer"),
            ),
            (
                example_with("restricted", Some(json!([]))),
                "restricted",
                wrong("an object", "an array"),
            ),
            (
                example_with("restricted", Some(json!({"storm-call": "1"}))),
                "restricted.storm-call",
                wrong("an integer", "a string"),
            ),
            (
                example_with("taboo_lists", Some(json!({}))),
                "taboo_lists",
                wrong("an array", "an object"),
            ),
            (
                example_with("taboo_lists", Some(json!(["autumn"]))),
                "taboo_lists[0]",
                wrong("an object", "a string"),
            ),
            (
                taboo_list_with("effective_from", Some(json!(20261001))),
                "taboo_lists[0].effective_from",
                wrong("a string", "an integer"),
            ),
            (json!([]), "", wrong("an object", "an array")),
        ];
        for (value, field, problem) in cases {
            assert_eq!(refusal_of(value), (field.to_owned(), problem));
        }
    }

    #[test]
    fn numbers_out_of_range_are_refused_as_written() {
        assert_eq!(
            refusal_of(example_with("min_size", Some(json!(-1)))),
            (
                "min_size".into(),
                Problem::OutOfRange {
                    min: 0,
                    max: 100_000,
                    found: -1
                }
            )
        );
        assert_eq!(
            refusal_of(example_with("copies", Some(json!(u64::MAX)))),
            (
                "copies".into(),
                Problem::OutOfRange {
                    min: 1,
                    max: 999,
                    found: i128::from(u64::MAX)
                }
            )
        );
        assert_eq!(
            refusal_of(example_with("max_size", Some(json!(39)))),
            (
                "max_size".into(),
                Problem::OutOfRange {
                    min: 40,
                    max: 100_000,
                    found: 39
                }
            )
        );
        assert_eq!(
            refusal_of(taboo_list_with(
                "restricted",
                Some(json!({"ember-fox": 1000}))
            )),
            (
                "taboo_lists[0].restricted.ember-fox".into(),
                Problem::OutOfRange {
                    min: 1,
                    max: 999,
                    found: 1000
                }
            )
        );
    }

    #[test]
    fn a_value_of_the_wrong_shape_is_refused_with_its_path() {
        let shape = |value: Value| match refusal_of(value) {
            (field, Problem::Shape(_)) => field,
            other => panic!("not a shape error: {other:?}"),
        };
        assert_eq!(shape(example_with("code", Some(json!("League")))), "code");
        assert_eq!(shape(example_with("name", Some(json!(" League")))), "name");
        assert_eq!(
            shape(example_with("banned", Some(json!(["ok", "old relic"])))),
            "banned[1]"
        );
        assert_eq!(
            shape(example_with("restricted", Some(json!({"storm call": 1})))),
            "restricted.storm call"
        );
        assert_eq!(
            shape(taboo_list_with("code", Some(json!("Autumn")))),
            "taboo_lists[0].code"
        );
        assert_eq!(
            shape(taboo_list_with("banned", Some(json!(["-owl"])))),
            "taboo_lists[0].banned[0]"
        );
    }

    #[test]
    fn a_day_not_written_yyyy_mm_dd_is_refused() {
        assert_eq!(
            refusal_of(taboo_list_with(
                "effective_from",
                Some(json!("2026-10-01T00:00:00Z"))
            )),
            (
                "taboo_lists[0].effective_from".into(),
                Problem::Day("2026-10-01T00:00:00Z".into())
            )
        );
        assert_eq!(
            refusal_of(taboo_list_with("effective_from", Some(json!("2026-02-30")))).0,
            "taboo_lists[0].effective_from"
        );
    }

    #[test]
    fn a_card_banned_twice_is_refused() {
        assert_eq!(
            refusal_of(example_with("banned", Some(json!(["a", "b", "a"])))),
            ("banned[2]".into(), Problem::Repeated)
        );
    }

    #[test]
    fn a_repeated_key_is_refused_rather_than_one_of_its_values_kept() {
        let (field, problem) = refusal(
            r#"{"code": "league", "name": "League", "restricted": {"storm-call": 1, "storm-call": 3}}"#,
        );
        assert_eq!(field, "");
        assert!(
            matches!(&problem, Problem::Syntax(message) if message.contains("`storm-call` appears twice")),
            "{problem:?}"
        );
        assert!(matches!(
            refusal(r#"{"code": "league", "code": "cup", "name": "League"}"#).1,
            Problem::Syntax(_)
        ));
    }

    #[test]
    fn two_taboo_lists_on_the_same_day_or_with_the_same_code_are_refused() {
        let lists = |a: (&str, &str), b: (&str, &str)| {
            example_with(
                "taboo_lists",
                Some(json!([
                    {"code": a.0, "effective_from": a.1},
                    {"code": b.0, "effective_from": b.1},
                ])),
            )
        };
        assert_eq!(
            refusal_of(lists(("autumn", "2026-10-01"), ("winter", "2026-10-01"))),
            ("taboo_lists[1].effective_from".into(), Problem::Repeated)
        );
        assert_eq!(
            refusal_of(lists(("autumn", "2026-10-01"), ("autumn", "2027-01-01"))),
            ("taboo_lists[1].code".into(), Problem::Repeated)
        );
    }

    #[test]
    fn taboo_lists_given_out_of_order_are_written_oldest_first() {
        let format = Format::from_value(&example_with(
            "taboo_lists",
            Some(json!([
                {"code": "winter", "effective_from": "2027-01-01"},
                {"code": "autumn", "effective_from": "2026-10-01"},
            ])),
        ))
        .expect("a valid format");
        let days: Vec<_> = format.to_value()["taboo_lists"]
            .as_array()
            .expect("an array")
            .iter()
            .map(|list| list["effective_from"].clone())
            .collect();
        assert_eq!(days, [json!("2026-10-01"), json!("2027-01-01")]);
    }

    #[test]
    fn json_of_exactly_1_mib_is_read_and_one_byte_more_is_refused() {
        let padded = |len: usize| {
            let mut json = String::from(r#"{"code": "league", "name": "League"}"#);
            json.push_str(&" ".repeat(len - json.len()));
            json
        };
        assert!(Format::from_json(&padded(MAX_JSON_BYTES)).is_ok());
        assert_eq!(
            refusal(&padded(MAX_JSON_BYTES + 1)),
            (
                "".into(),
                Problem::TooLarge {
                    found: MAX_JSON_BYTES + 1
                }
            )
        );
    }

    #[test]
    fn json_nested_15_levels_is_read_and_16_is_refused() {
        // The document's object is level 1, so `code` holds 14 more levels, then 15.
        let nested = |levels: usize| {
            format!(
                r#"{{"code": {}{}, "name": "League"}}"#,
                "[".repeat(levels - 1),
                "]".repeat(levels - 1)
            )
        };
        assert_eq!(
            refusal(&nested(15)),
            ("code".into(), wrong("a string", "an array"))
        );
        assert_eq!(refusal(&nested(16)), ("".into(), Problem::TooDeep));
        // Far deeper than the parser's own recursion limit: still the one error, no overflow.
        assert_eq!(refusal(&nested(100_000)), ("".into(), Problem::TooDeep));
    }

    #[test]
    fn brackets_inside_strings_do_not_count_as_nesting() {
        let name = format!("[{{\\\"{}", "[".repeat(20));
        let format = Format::from_json(&format!(r#"{{"code": "league", "name": "{name}"}}"#))
            .expect("a valid format");
        assert!(format.name().as_str().starts_with("[{\""));
    }

    #[test]
    fn bytes_that_are_not_utf_8_are_refused_and_utf_8_bytes_read_as_text() {
        assert!(matches!(
            Format::from_json_bytes(b"{\"code\": \"league\", \"name\": \"\xff\"}"),
            Err(err) if matches!(err.problem(), Problem::Syntax(_))
        ));
        assert_eq!(
            Format::from_json_bytes(SPEC_EXAMPLE.as_bytes()),
            Format::from_json(SPEC_EXAMPLE)
        );
        assert!(matches!(
            Format::from_json_bytes(&vec![b' '; MAX_JSON_BYTES + 1])
                .map_err(|e| e.problem().clone()),
            Err(Problem::TooLarge { .. })
        ));
    }

    #[test]
    fn text_that_is_not_one_json_value_is_refused() {
        for bad in [
            "",
            "{",
            "{\"code\": \"league\", \"name\": \"League\"} {}",
            "nul",
            "{'code': 1}",
        ] {
            assert!(
                matches!(refusal(bad), (field, Problem::Syntax(_)) if field.is_empty()),
                "{bad}"
            );
        }
    }

    #[test]
    fn every_refusal_message_names_the_field() {
        let err = Format::from_value(&example_with("copies", Some(json!(0)))).expect_err("refused");
        assert_eq!(
            err.to_string(),
            "invalid format: `copies` must be from 1 to 999, found 0"
        );
    }

    fn code() -> impl Strategy<Value = String> {
        "[a-z0-9][a-z0-9_.-]{0,12}"
    }

    fn card_id() -> impl Strategy<Value = String> {
        "[A-Za-z0-9][A-Za-z0-9_.:/-]{0,12}"
    }

    fn name() -> impl Strategy<Value = String> {
        "[A-Za-zé0-9]([A-Za-zé0-9 ,']{0,20}[A-Za-zé0-9])?"
    }

    fn cards() -> impl Strategy<Value = (Vec<String>, Vec<(String, u16)>)> {
        (
            prop::collection::btree_set(card_id(), 0..8),
            prop::collection::btree_map(card_id(), 1_u16..=999, 0..8),
        )
            .prop_map(|(banned, restricted)| {
                (
                    banned.into_iter().collect(),
                    restricted.into_iter().collect(),
                )
            })
    }

    fn any_format() -> impl Strategy<Value = Format> {
        let taboo_lists = prop::collection::btree_map(
            (1_i16..=9999, 1_i8..=12, 1_i8..=28),
            (code(), cards()),
            0..5,
        );
        (
            code(),
            name(),
            0_u32..=200,
            prop::option::of(0_u32..=400),
            1_u16..=999,
            cards(),
            taboo_lists,
        )
            .prop_map(
                |(code, name, min, max, copies, (banned, restricted), lists)| {
                    let mut format = Format::builder(
                        FormatCode::parse(&code).expect("strategy gives codes"),
                        Name::parse(&name).expect("strategy gives names"),
                    )
                    .min_size(min)
                    .copies(copies);
                    if let Some(max) = max {
                        format = format.max_size(max.max(min).max(1));
                    }
                    for card in banned {
                        format = format.ban(card_id_of(&card));
                    }
                    for (card, copies) in restricted {
                        format = format.restrict(card_id_of(&card), copies);
                    }
                    for (index, ((year, month, day), (code, (banned, restricted)))) in
                        lists.into_iter().enumerate()
                    {
                        let date = jiff::civil::Date::new(year, month, day).expect("a real date");
                        // An index makes the codes unique, as the format requires.
                        let code = TabooListCode::parse(&format!("{code}{index}")).expect("a code");
                        let mut list =
                            TabooList::builder(code, Day::try_from(date).expect("years 1 to 9999"));
                        for card in banned {
                            list = list.ban(card_id_of(&card));
                        }
                        for (card, copies) in restricted {
                            list = list.restrict(card_id_of(&card), copies);
                        }
                        format = format.taboo_list(list.build().expect("a valid taboo list"));
                    }
                    format.build().expect("the strategy gives valid formats")
                },
            )
    }

    fn card_id_of(text: &str) -> CardId {
        CardId::parse(text).expect("strategy gives card ids")
    }

    /// Any JSON value, with keys drawn mostly from the ones a format knows.
    fn any_json() -> impl Strategy<Value = Value> {
        let key = prop_oneof![
            prop::sample::select(
                FORMAT_KEYS
                    .iter()
                    .chain(&TABOO_LIST_KEYS)
                    .map(|k| (*k).to_owned())
                    .collect::<Vec<_>>()
            ),
            ".{0,6}",
        ];
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            (0_u64..1200).prop_map(Value::from),
            any::<f64>().prop_map(|f| Number::from_f64(f).map_or(Value::Null, Value::Number)),
            ".{0,8}".prop_map(Value::from),
            code().prop_map(Value::from),
            Just(Value::from("2026-10-01")),
        ];
        leaf.prop_recursive(5, 64, 8, move |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                prop::collection::vec((key.clone(), inner), 0..8)
                    .prop_map(|entries| Value::Object(entries.into_iter().collect())),
            ]
        })
    }

    /// Reads `json` and checks it gives a valid format that survives a round trip, or the one
    /// error; a panic fails the property by itself.
    fn reads_or_refuses(json: &str) -> Result<(), TestCaseError> {
        match Format::from_json(json) {
            Ok(format) => prop_assert_eq!(Format::from_json(&format.to_json()), Ok(format)),
            Err(err) => prop_assert_eq!(err.code(), "invalid_format"),
        }
        Ok(())
    }

    proptest! {
        #[test]
        fn writing_then_reading_any_format_gives_it_back(format in any_format()) {
            prop_assert_eq!(Format::from_json(&format.to_json()), Ok(format.clone()));
            prop_assert_eq!(Format::from_value(&format.to_value()), Ok(format));
        }

        #[test]
        fn random_json_is_read_as_a_valid_format_or_refused_with_the_one_error(value in any_json()) {
            reads_or_refuses(&value.to_string())?;
        }

        #[test]
        fn a_valid_format_with_one_key_replaced_is_read_or_refused_with_the_one_error(
            format in any_format(),
            key in prop::sample::select(FORMAT_KEYS.to_vec()),
            value in any_json(),
        ) {
            let mut json = format.to_value();
            json[key] = value;
            reads_or_refuses(&json.to_string())?;
        }

        #[test]
        fn random_text_is_read_as_a_valid_format_or_refused_with_the_one_error(text in "\\PC{0,64}") {
            reads_or_refuses(&text)?;
        }

        #[test]
        fn a_valid_format_cut_anywhere_is_refused_with_the_one_error(
            format in any_format(),
            cut in any::<prop::sample::Index>(),
        ) {
            let json = format.to_json();
            let end = cut.index(json.len());
            if let Some(prefix) = json.get(..end) {
                prop_assert_eq!(Format::from_json(prefix).map_err(|err| err.code()), Err("invalid_format"));
            }
        }
    }
}
