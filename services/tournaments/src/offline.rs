//! The offline tool's JSON (`turnier tournament standings|pair`): the event file read into an
//! [`Event`] or a [`FreeForAllEvent`], checked, with the tool's error messages.
//!
//! This is the only module that reads tournament JSON; the domain takes the typed values and
//! never sees a `serde_json::Value`. Computing standings and pairings, and printing them, is
//! left to the domain and to the `turnier` binary.
//!
//! The messages are the tool's contract, so the reading goes through a `Value` first, as it
//! always has: serde's messages for a `Value` carry no line and column, and which bad member a
//! message names depends on the order members are visited in.

use serde_json::Value;

use crate::domain::defaults::{Game, GameDefaults};
use crate::domain::free_for_all::{FreeForAllError, FreeForAllEvent};
use crate::domain::{Event, EventError};

/// An event file, read and checked: a one-on-one stage's rounds or a free-for-all stage's
/// matches.
#[derive(Debug, Clone, PartialEq)]
pub enum EventFile {
    /// An event with `rounds` of one-on-one matches.
    OneOnOne(Event),
    /// An event with `matches` of free-for-all lobbies.
    FreeForAll(FreeForAllEvent),
}

/// An event file that cannot be read, or whose event is refused.
///
/// The serde errors of the shape variants are part of their message rather than their
/// `source`: the tool prints an error with its chain of sources, and these have always printed
/// as one message.
#[derive(Debug, thiserror::Error)]
pub enum EventFileError {
    /// The text is not JSON at all.
    #[error("the event is not JSON")]
    NotJson(#[source] serde_json::Error),
    /// The JSON does not have the shape of a one-on-one event.
    #[error("the event is not valid JSON of an event: {0}")]
    NotAnEvent(serde_json::Error),
    /// The JSON does not have the shape of a free-for-all event.
    #[error("the event is not valid JSON of a free-for-all event: {0}")]
    NotAFreeForAllEvent(serde_json::Error),
    /// The one-on-one event is refused by [`Event::validate`].
    #[error(transparent)]
    Event(#[from] EventError),
    /// The free-for-all event is refused by [`FreeForAllEvent::validate`].
    #[error(transparent)]
    FreeForAll(#[from] FreeForAllError),
}

/// Reads an event file (`turnier tournament standings`): a free-for-all event when it lists
/// `matches`, else a one-on-one event.
pub fn read_event_file(text: &str) -> Result<EventFile, EventFileError> {
    let json = parse_event(text)?;
    if is_free_for_all(&json) {
        free_for_all_event_from(json).map(EventFile::FreeForAll)
    } else {
        event_from(json).map(EventFile::OneOnOne)
    }
}

/// Reads a one-on-one event file and checks it ([`Event::validate`]).
pub fn read_event(text: &str) -> Result<Event, EventFileError> {
    event_from(parse_event(text)?)
}

/// Reads a free-for-all event file and checks it ([`FreeForAllEvent::validate`]). Settings it
/// leaves out take Riftbound's free-for-all defaults (the one game offering free-for-all).
pub fn read_free_for_all_event(text: &str) -> Result<FreeForAllEvent, EventFileError> {
    free_for_all_event_from(parse_event(text)?)
}

/// Parses the text of an event file.
pub fn parse_event(text: &str) -> Result<Value, EventFileError> {
    serde_json::from_str(text).map_err(EventFileError::NotJson)
}

/// Tells whether an event file is a free-for-all event (it lists `matches` of lobbies).
pub fn is_free_for_all(json: &Value) -> bool {
    json.get("matches").is_some()
}

/// Reads a one-on-one event from its JSON and checks it.
pub fn event_from(json: Value) -> Result<Event, EventFileError> {
    let event: Event = serde_json::from_value(json).map_err(EventFileError::NotAnEvent)?;
    event.validate()?;
    Ok(event)
}

/// Reads a free-for-all event from its JSON, its settings over Riftbound's defaults, and
/// checks it.
pub fn free_for_all_event_from(mut json: Value) -> Result<FreeForAllEvent, EventFileError> {
    if let (Some(defaults), Some(input)) = (
        GameDefaults::of(Game::Riftbound).free_for_all,
        json.as_object_mut(),
    ) && let Ok(Value::Object(mut merged)) = serde_json::to_value(defaults)
    {
        // `remove` moves the last member into the gap and `insert` appends: the order serde
        // then visits the members in, so the member a shape error names, is the tool's.
        match input.remove("settings") {
            Some(Value::Object(given)) => {
                merged.extend(given);
                input.insert("settings".to_owned(), Value::Object(merged));
            }
            // Not an object: left for deserializing to refuse.
            Some(other) => {
                input.insert("settings".to_owned(), other);
            }
            None => {
                input.insert("settings".to_owned(), Value::Object(merged));
            }
        }
    }
    let event: FreeForAllEvent =
        serde_json::from_value(json).map_err(EventFileError::NotAFreeForAllEvent)?;
    event.validate()?;
    Ok(event)
}
