//! The Rust side of the driver (`driver.js`): the request it reads from standard input and the
//! result line it writes to standard output.
//!
//! Pure: this module builds and reads text and decides nothing about what a result means;
//! normalizing a returned value (ruleset results, dashboards) is `crate::domain`'s job.

use serde_json::{Map, Value};

/// Which entry point a run calls, and how (see the spec's entry points).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScriptKind {
    /// One card: the default export, else `validateCard(card, context?)`.
    Card,
    /// A card rule over many cards: args `[cards, context?]`, the entry called once per card.
    CardPool,
    /// One deck: the default export, else `validateDeck(deck, cardsById, context?)`.
    Deck,
    /// A player's lineup: the default export, else `validateDeckset(decks, cardsById, context?)`.
    Deckset,
    /// The deck-scope pool-filter hook: only `resolvePoolFilters(input, context?)`.
    PoolFilters,
    /// A calculator: the default export, else a top-level `compute`.
    Calculator,
}

impl ScriptKind {
    /// Returns the name the driver knows this kind by.
    pub fn as_str(self) -> &'static str {
        match self {
            ScriptKind::Card => "card",
            ScriptKind::CardPool => "card_pool",
            ScriptKind::Deck => "deck",
            ScriptKind::Deckset => "deckset",
            ScriptKind::PoolFilters => "pool_filters",
            ScriptKind::Calculator => "calculator",
        }
    }
}

/// Returns the driver's standard input: `{"kind": …, "args": […]}`.
///
/// The arguments are passed to the entry point exactly as given, objects keeping their key
/// order; give the context only when there is one.
pub fn request(kind: ScriptKind, args: &[Value]) -> Vec<u8> {
    let mut request = Map::new();
    request.insert("kind".into(), Value::String(kind.as_str().into()));
    request.insert("args".into(), Value::Array(args.to_vec()));
    Value::Object(request).to_string().into_bytes()
}

/// What one call of the script's entry point came to.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// The entry point returned this value (as JSON, object keys in the script's order).
    Returned(Value),
    /// The entry point returned `undefined`.
    ReturnedUndefined,
    /// The entry point threw; the text is `String(error)`.
    Threw(String),
    /// The entry point returned something JSON cannot hold (a cycle, a BigInt, a function);
    /// the text says why.
    Unserializable(String),
}

/// The driver's whole answer for one run.
#[derive(Debug, Clone, PartialEq)]
pub enum DriverOutput {
    /// The script has no entry point for the requested kind ("did not export a function").
    NoEntry,
    /// One call's outcome (every kind but `card_pool`).
    Single(Outcome),
    /// One outcome per card, in the order of the cards given (`card_pool`).
    PerCard(Vec<Outcome>),
}

/// Why a driver line could not be read: always a sandbox bug or a script that wrote to standard
/// output around the driver, never a normal script failure.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DriverOutputError {
    /// Standard output held no line at all (the driver never wrote).
    #[error("the script run wrote no result line")]
    Missing,
    /// Standard output held more than one line.
    #[error("the script run wrote more than one result line")]
    ExtraOutput,
    /// The line is not JSON or not one of the driver's shapes.
    #[error("the script run wrote a malformed result line: {0}")]
    Malformed(String),
}

impl DriverOutput {
    /// Parses the driver's standard output: exactly one JSON line (a final newline is optional).
    pub fn parse(stdout: &[u8]) -> Result<DriverOutput, DriverOutputError> {
        let text = std::str::from_utf8(stdout)
            .map_err(|_| DriverOutputError::Malformed("not UTF-8".into()))?;
        let line = text.strip_suffix('\n').unwrap_or(text);
        if line.is_empty() {
            return Err(DriverOutputError::Missing);
        }
        if line.contains('\n') {
            return Err(DriverOutputError::ExtraOutput);
        }
        let value: Value = serde_json::from_str(line)
            .map_err(|err| DriverOutputError::Malformed(err.to_string()))?;
        let Value::Object(mut fields) = value else {
            return Err(malformed("the line is not a JSON object"));
        };
        if fields.get("noEntry") == Some(&Value::Bool(true)) && fields.len() == 1 {
            return Ok(DriverOutput::NoEntry);
        }
        if let Some(results) = fields.remove("results") {
            let Value::Array(items) = results else {
                return Err(malformed("`results` is not an array"));
            };
            if !fields.is_empty() {
                return Err(malformed("unexpected fields beside `results`"));
            }
            let outcomes = items
                .into_iter()
                .map(|item| match item {
                    Value::Object(item) => outcome(item),
                    _ => Err(malformed("a card's outcome is not an object")),
                })
                .collect::<Result<_, _>>()?;
            return Ok(DriverOutput::PerCard(outcomes));
        }
        outcome(fields).map(DriverOutput::Single)
    }
}

/// Reads one outcome object: exactly one of `result`, `undefined`, `thrown`, `unserializable`.
fn outcome(mut fields: Map<String, Value>) -> Result<Outcome, DriverOutputError> {
    if fields.len() != 1 {
        return Err(malformed("an outcome has exactly one field"));
    }
    if let Some(value) = fields.remove("result") {
        return Ok(Outcome::Returned(value));
    }
    if fields.remove("undefined") == Some(Value::Bool(true)) {
        return Ok(Outcome::ReturnedUndefined);
    }
    if let Some(Value::String(message)) = fields.remove("thrown") {
        return Ok(Outcome::Threw(message));
    }
    if let Some(Value::String(message)) = fields.remove("unserializable") {
        return Ok(Outcome::Unserializable(message));
    }
    Err(malformed(
        "an outcome field is unknown or of the wrong type",
    ))
}

fn malformed(why: &str) -> DriverOutputError {
    DriverOutputError::Malformed(why.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn builds_a_request_keeping_argument_key_order() {
        let cards_by_id = serde_json::from_str::<Value>(r#"{"z":1,"a":2}"#).unwrap();
        let text = request(ScriptKind::CardPool, &[json!([]), cards_by_id]);
        assert_eq!(
            String::from_utf8(text).unwrap(),
            r#"{"kind":"card_pool","args":[[],{"z":1,"a":2}]}"#
        );
    }

    fn parse(text: &str) -> Result<DriverOutput, DriverOutputError> {
        DriverOutput::parse(text.as_bytes())
    }

    #[test]
    fn reads_a_returned_value_keeping_key_order() {
        let output = parse("{\"result\":{\"valid\":false,\"issues\":[],\"b\":1,\"a\":2}}\n");
        let Ok(DriverOutput::Single(Outcome::Returned(Value::Object(fields)))) = output else {
            panic!("expected a returned object, got {output:?}");
        };
        let keys: Vec<&str> = fields.keys().map(String::as_str).collect();
        assert_eq!(keys, ["valid", "issues", "b", "a"]);
    }

    #[test]
    fn reads_every_single_outcome() {
        assert_eq!(
            parse("{\"result\":null}"),
            Ok(DriverOutput::Single(Outcome::Returned(Value::Null)))
        );
        assert_eq!(
            parse("{\"undefined\":true}\n"),
            Ok(DriverOutput::Single(Outcome::ReturnedUndefined))
        );
        assert_eq!(
            parse("{\"thrown\":\"TypeError: x is not a function\"}\n"),
            Ok(DriverOutput::Single(Outcome::Threw(
                "TypeError: x is not a function".into()
            )))
        );
        assert_eq!(
            parse("{\"unserializable\":\"TypeError: circular reference\"}\n"),
            Ok(DriverOutput::Single(Outcome::Unserializable(
                "TypeError: circular reference".into()
            )))
        );
        assert_eq!(parse("{\"noEntry\":true}\n"), Ok(DriverOutput::NoEntry));
    }

    #[test]
    fn reads_one_outcome_per_card_in_order() {
        let output = parse(r#"{"results":[{"result":true},{"undefined":true},{"thrown":"x"}]}"#);
        assert_eq!(
            output,
            Ok(DriverOutput::PerCard(vec![
                Outcome::Returned(json!(true)),
                Outcome::ReturnedUndefined,
                Outcome::Threw("x".into()),
            ]))
        );
    }

    #[test]
    fn rejects_what_the_driver_never_writes() {
        assert_eq!(parse(""), Err(DriverOutputError::Missing));
        assert_eq!(parse("\n"), Err(DriverOutputError::Missing));
        assert_eq!(
            parse("{\"result\":1}\n{\"result\":2}\n"),
            Err(DriverOutputError::ExtraOutput)
        );
        for text in [
            "[1]",
            "{}",
            "{\"result\":1,\"thrown\":\"x\"}",
            "{\"thrown\":1}",
            "{\"undefined\":false}",
            "{\"results\":{}}",
            "{\"results\":[1]}",
            "not json",
        ] {
            assert!(
                matches!(parse(text), Err(DriverOutputError::Malformed(_))),
                "{text} should be malformed"
            );
        }
    }
}
