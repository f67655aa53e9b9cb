//! Reads the driver's request from standard input as deep-frozen JavaScript values, built in
//! Rust straight from the JSON text.
//!
//! Why not `JSON.parse` and `Object.freeze` in JavaScript: freezing an object in QuickJS rewrites
//! the flags of every property, and an object whose properties change flags can no longer share
//! its shape with the objects built like it, so each one gets a private copy. Over a card pool
//! (thousands of cards, ~25 MB of JSON) that walk and those copies cost about as much as
//! everything else in the run. Here each property is created with its final flags (enumerable,
//! neither writable nor configurable) and each object is then made non-extensible: objects of
//! the same keys keep sharing one shape, and nothing is walked twice.
//!
//! The values are what `JSON.parse` would give, deep-frozen: plain objects and arrays with the
//! standard prototypes, keys in JSON order (integer-like keys first, as JavaScript orders them),
//! a repeated key keeping its first position and its last value, numbers as JavaScript numbers.

use std::cell::Cell;
use std::collections::{HashMap, HashSet};
use std::fmt;

use javy_plugin_api::javy::quickjs::qjs;
use serde::de::{DeserializeSeed, MapAccess, SeqAccess, Visitor};

/// How deeply arrays and objects may nest; deeper input is refused as a `SyntaxError`. The host
/// never sends deeper JSON (its own parser stops at 128 levels), and the limit keeps this
/// recursive reader far from the end of the WebAssembly stack.
const MAX_DEPTH: usize = 512;

/// Objects with at most this many keys look for repeated keys pairwise; larger ones use a map.
const PAIRWISE_KEYS: usize = 16;

/// Why reading the request failed.
pub enum ReadError {
    /// The text is not JSON (or nests too deeply); the message says where.
    Syntax(String),
    /// QuickJS raised an exception (out of memory); it is pending in the context.
    Exception,
}

/// Parses `text` into a deep-frozen value owned by the caller (to be freed or handed to JS).
///
/// # Safety
///
/// `ctx` must be a live QuickJS context used by this thread only.
pub unsafe fn read(ctx: *mut qjs::JSContext, text: &[u8]) -> Result<qjs::JSValue, ReadError> {
    let builder = Builder {
        ctx,
        length: unsafe { qjs::JS_NewAtomLen(ctx, c"length".as_ptr(), 6) },
        depth: Cell::new(0),
        exception: Cell::new(false),
    };
    if builder.length == 0 {
        return Err(ReadError::Exception);
    }
    let mut json = serde_json::Deserializer::from_slice(text);
    // Depth is bounded by MAX_DEPTH here instead of serde_json's 128 levels.
    json.disable_recursion_limit();
    let value = ValueSeed(&builder)
        .deserialize(&mut json)
        .and_then(|value| json.end().map(|()| value));
    // SAFETY: the atom was created above and is released once.
    unsafe { qjs::JS_FreeAtom(ctx, builder.length) };
    match value {
        Ok(value) => Ok(value.into_raw()),
        Err(_) if builder.exception.get() => Err(ReadError::Exception),
        Err(error) => Err(ReadError::Syntax(error.to_string())),
    }
}

/// What every visitor shares: the context, the `length` atom, the depth and whether QuickJS
/// threw (serde's error type can only carry a message, so the exception is flagged here).
struct Builder {
    ctx: *mut qjs::JSContext,
    length: qjs::JSAtom,
    depth: Cell<usize>,
    exception: Cell<bool>,
}

impl Builder {
    /// Records a pending QuickJS exception and returns the error that unwinds the parse.
    fn thrown<E: serde::de::Error>(&self) -> E {
        self.exception.set(true);
        E::custom("a JavaScript exception")
    }

    /// Takes ownership of a value QuickJS returned, or reports its exception.
    fn own<E: serde::de::Error>(&self, value: qjs::JSValue) -> Result<Owned, E> {
        // SAFETY: only inspects the tag of the value.
        if unsafe { qjs::JS_IsException(value) } {
            return Err(self.thrown());
        }
        Ok(Owned {
            ctx: self.ctx,
            value,
        })
    }

    /// Enters one level of nesting; the guard leaves it.
    fn enter<E: serde::de::Error>(&self) -> Result<DepthGuard<'_>, E> {
        if self.depth.get() >= MAX_DEPTH {
            return Err(E::custom(format!(
                "the arguments nest more than {MAX_DEPTH} levels deep"
            )));
        }
        self.depth.set(self.depth.get() + 1);
        Ok(DepthGuard(&self.depth))
    }

    fn string<E: serde::de::Error>(&self, text: &str) -> Result<Owned, E> {
        // SAFETY: the pointer and length describe `text`, valid UTF-8, which QuickJS copies.
        let value =
            unsafe { qjs::JS_NewStringLen(self.ctx, text.as_ptr().cast(), text.len() as _) };
        self.own(value)
    }

    fn atom<E: serde::de::Error>(&self, key: &str) -> Result<Atom<'_>, E> {
        // SAFETY: as for `string`; an integer-like key becomes an index atom, as in JSON.parse.
        let atom = unsafe { qjs::JS_NewAtomLen(self.ctx, key.as_ptr().cast(), key.len() as _) };
        if atom == 0 {
            return Err(self.thrown());
        }
        Ok(Atom {
            builder: self,
            atom,
        })
    }
}

/// Leaves one level of nesting when dropped.
struct DepthGuard<'a>(&'a Cell<usize>);

impl Drop for DepthGuard<'_> {
    fn drop(&mut self) {
        self.0.set(self.0.get() - 1);
    }
}

/// A JavaScript value this code owns a reference to; freed unless handed on.
struct Owned {
    ctx: *mut qjs::JSContext,
    value: qjs::JSValue,
}

impl Owned {
    /// Hands the reference on to the caller.
    fn into_raw(self) -> qjs::JSValue {
        let value = self.value;
        std::mem::forget(self);
        value
    }
}

impl Drop for Owned {
    fn drop(&mut self) {
        // SAFETY: this owns one reference to the value, in this context.
        unsafe { qjs::JS_FreeValue(self.ctx, self.value) };
    }
}

/// A property key this code owns; released when dropped.
struct Atom<'a> {
    builder: &'a Builder,
    atom: qjs::JSAtom,
}

impl Drop for Atom<'_> {
    fn drop(&mut self) {
        // SAFETY: this owns one reference to the atom, in this context.
        unsafe { qjs::JS_FreeAtom(self.builder.ctx, self.atom) };
    }
}

/// The flags of every property built here: enumerable, not writable, not configurable.
const FROZEN: i32 = qjs::JS_PROP_ENUMERABLE as i32;

/// Reads any JSON value.
struct ValueSeed<'a>(&'a Builder);

impl<'de> DeserializeSeed<'de> for ValueSeed<'_> {
    type Value = Owned;

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Owned, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ValueSeed<'_> {
    type Value = Owned;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a JSON value")
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<Owned, E> {
        self.0.own(qjs::JS_NULL)
    }

    fn visit_bool<E: serde::de::Error>(self, value: bool) -> Result<Owned, E> {
        self.0.own(if value { qjs::JS_TRUE } else { qjs::JS_FALSE })
    }

    fn visit_i64<E: serde::de::Error>(self, value: i64) -> Result<Owned, E> {
        // Rounds to the nearest double as JavaScript does; small integers stay integers.
        self.0.own(qjs::JS_NewFloat64(value as f64))
    }

    fn visit_u64<E: serde::de::Error>(self, value: u64) -> Result<Owned, E> {
        self.0.own(qjs::JS_NewFloat64(value as f64))
    }

    fn visit_f64<E: serde::de::Error>(self, value: f64) -> Result<Owned, E> {
        self.0.own(qjs::JS_NewFloat64(value))
    }

    fn visit_str<E: serde::de::Error>(self, value: &str) -> Result<Owned, E> {
        self.0.string(value)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut elements: A) -> Result<Owned, A::Error> {
        let builder = self.0;
        let _depth = builder.enter()?;
        // SAFETY: creates a new array in the builder's context.
        let array = builder.own(unsafe { qjs::JS_NewArray(builder.ctx) })?;
        let mut index = 0u32;
        while let Some(element) = elements.next_element_seed(ValueSeed(builder))? {
            // SAFETY: `array` is a live array; the call takes over the element's reference.
            // Defining an element with other flags than writable+configurable turns the
            // array into an ordinary one at the first element, as freezing it would.
            let defined = unsafe {
                qjs::JS_DefinePropertyValueUint32(
                    builder.ctx,
                    array.value,
                    index,
                    element.into_raw(),
                    FROZEN,
                )
            };
            if defined < 0 {
                return Err(builder.thrown());
            }
            index += 1;
        }
        // SAFETY: `array` is a live array and `length` a live atom; this only clears the
        // writable flag of its length, then stops new elements.
        let frozen = unsafe {
            qjs::JS_DefineProperty(
                builder.ctx,
                array.value,
                builder.length,
                qjs::JS_UNDEFINED,
                qjs::JS_UNDEFINED,
                qjs::JS_UNDEFINED,
                (qjs::JS_PROP_HAS_WRITABLE | qjs::JS_PROP_THROW) as i32,
            ) >= 0
                && qjs::JS_PreventExtensions(builder.ctx, array.value) >= 0
        };
        if !frozen {
            return Err(builder.thrown());
        }
        Ok(array)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut entries: A) -> Result<Owned, A::Error> {
        let builder = self.0;
        let _depth = builder.enter()?;
        let mut fields: Vec<(Atom<'_>, Owned)> = Vec::new();
        while let Some(key) = entries.next_key_seed(KeySeed(builder))? {
            let value = entries.next_value_seed(ValueSeed(builder))?;
            fields.push((key, value));
        }
        let fields = without_repeated_keys(fields);
        // SAFETY: creates a new plain object in the builder's context.
        let object = builder.own(unsafe { qjs::JS_NewObject(builder.ctx) })?;
        for (key, value) in fields {
            // SAFETY: `object` is a live object, `key` a live atom (not repeated, so the
            // definition cannot meet a frozen property); the call takes over the value.
            let defined = unsafe {
                qjs::JS_DefinePropertyValue(
                    builder.ctx,
                    object.value,
                    key.atom,
                    value.into_raw(),
                    FROZEN,
                )
            };
            if defined < 0 {
                return Err(builder.thrown());
            }
        }
        // SAFETY: `object` is a live ordinary object.
        if unsafe { qjs::JS_PreventExtensions(builder.ctx, object.value) } < 0 {
            return Err(builder.thrown());
        }
        Ok(object)
    }
}

/// Applies JSON.parse's rule for a repeated key: the first position, the last value.
///
/// The host never repeats a key (its JSON comes from parsed values), so the usual answer is the
/// fields as they are, found without allocating for small objects.
fn without_repeated_keys<'a>(fields: Vec<(Atom<'a>, Owned)>) -> Vec<(Atom<'a>, Owned)> {
    let repeats = if fields.len() <= PAIRWISE_KEYS {
        (1..fields.len()).any(|at| {
            fields[..at]
                .iter()
                .any(|(key, _)| key.atom == fields[at].0.atom)
        })
    } else {
        let mut seen = HashSet::with_capacity(fields.len());
        !fields.iter().all(|(key, _)| seen.insert(key.atom))
    };
    if !repeats {
        return fields;
    }
    let mut kept: Vec<(Atom<'a>, Owned)> = Vec::with_capacity(fields.len());
    let mut position: HashMap<qjs::JSAtom, usize> = HashMap::with_capacity(fields.len());
    for (key, value) in fields {
        match position.get(&key.atom) {
            // The earlier value and this copy of the key are released as they drop.
            Some(&at) => kept[at].1 = value,
            None => {
                position.insert(key.atom, kept.len());
                kept.push((key, value));
            }
        }
    }
    kept
}

/// Reads an object's key as a property atom.
struct KeySeed<'a>(&'a Builder);

impl<'de, 'a> DeserializeSeed<'de> for KeySeed<'a> {
    type Value = Atom<'a>;

    fn deserialize<D: serde::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Atom<'a>, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'a> Visitor<'_> for KeySeed<'a> {
    type Value = Atom<'a>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("an object key")
    }

    fn visit_str<E: serde::de::Error>(self, key: &str) -> Result<Atom<'a>, E> {
        self.0.atom(key)
    }
}
