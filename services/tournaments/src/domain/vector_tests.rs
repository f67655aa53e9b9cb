//! The worked example of the page, read from the shared vectors (never copied into the repo):
//! every standing of `worked-example*.standings.json` reproduced exactly.

use std::path::PathBuf;

use super::{Event, standings};

/// The shared vectors folder (`kit::testing::shared`: `TURNIER_SHARED_DIR`, else `shared/`
/// beside the repository).
fn vectors_dir() -> PathBuf {
    kit::testing::shared::vectors_dir()
}

fn read(name: &str) -> String {
    let path = vectors_dir().join("tournaments").join(name);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|err| panic!("cannot read the vector {}: {err}", path.display()))
}

/// Reads the event of a vector (`worked-example`, …), checked as the offline tool checks it.
pub(crate) fn event(example: &str) -> Event {
    let event: Event = serde_json::from_str(&read(&format!("{example}.event.json")))
        .expect("the shape of an event");
    event.validate().expect("a valid event");
    event
}

fn assert_reproduces(example: &str) {
    let event = event(example);
    let expected: serde_json::Value =
        serde_json::from_str(&read(&format!("{example}.standings.json"))).expect("valid JSON");
    let actual = serde_json::to_value(standings(&event)).expect("serializable standings");
    assert_eq!(
        actual,
        expected,
        "{example}: got {}",
        serde_json::to_string_pretty(&actual).expect("serializable")
    );
}

#[test]
fn reproduces_the_worked_example_with_every_tiebreaker() {
    assert_reproduces("worked-example");
}

#[test]
fn reproduces_the_worked_example_under_the_pokemon_defaults() {
    assert_reproduces("worked-example-pokemon-defaults");
}

#[test]
fn reproduces_the_worked_example_under_the_riftbound_defaults() {
    assert_reproduces("worked-example-riftbound-defaults");
}
