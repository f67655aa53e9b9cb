//! The offline tool's JSON (`turnier tournament standings|pair`): the event file read into an
//! [`Event`] or a [`FreeForAllEvent`], and the stage config read into a [`StageConfig`], both
//! checked, with the tool's error messages.
//!
//! This is the only module that reads tournament JSON; the domain takes the typed values and
//! never sees a `serde_json::Value`. Computing standings and pairings, and printing them, is
//! left to the domain and to the `turnier` binary.
//!
//! # The stage config
//!
//! `turnier tournament pair` takes it from `--stage` (a JSON object, or the path of a file
//! holding one) or else from the input's `"stage"` member. It names the stage's `format` and,
//! optionally, the event's stored `seed` (0 when absent or null), the previous stage's final
//! order (`prior_stage`, best first) and any of the format's settings. Settings left out take
//! the create form's defaults; points, bye handling and tiebreakers are the event's own
//! `settings` (standings are computed from them), so the stage config does not repeat them:
//!
//! ```json
//! {"format": "swiss", "seed": 7, "rounds": 5, "pairing_style": "fold"}
//! {"format": "single_elimination", "prior_stage": ["Ana", "Cam"], "third_place_match": true}
//! {"format": "round_robin", "cycles": 2, "grouping": {"groups": 2}}
//! ```
//!
//! An elimination stage with **Allow early cutoff** takes `"early_cutoff": k`, the number of
//! top placements it decides before it stops. A free-for-all event carries its own format and
//! settings: its stage config only adds the `seed` (its `format` may be left out, and its other
//! members are not read).
//!
//! # Why through `Value`
//!
//! The messages are the tool's contract, so reading goes through a `Value` first, as it always
//! has: serde's messages for a `Value` carry no line and column, and which bad member a message
//! names depends on the order the members are visited in. Settings are read by merging the given
//! members over the defaults (as JSON) and deserializing the result, so an unknown setting is
//! refused by serde naming every setting the format has.

use std::path::PathBuf;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::domain::defaults::{Format, Game, GameDefaults, PairingStyle, RoundRobinSettings};
use crate::domain::defaults::{SeedingMethod, SwissSettings};
use crate::domain::elimination::EliminationSettings;
use crate::domain::free_for_all::{FreeForAllError, FreeForAllEvent};
use crate::domain::round_robin::Grouping;
use crate::domain::{
    EliminationStage, Event, EventError, FreeForAllFormat, PlayerId, RoundRobinStage,
    ScoringSettings, SettingsError, StageConfig, StageSettings,
};

/// The Swiss settings that are the event's, refused in a stage config.
const SWISS_SETTINGS_OF_THE_EVENT: [&str; 3] = ["points", "bye_handling", "tiebreakers"];

/// The round-robin settings that are the event's, refused in a stage config.
const ROUND_ROBIN_SETTINGS_OF_THE_EVENT: [&str; 2] = ["points", "tiebreakers"];

/// An event file, read and checked: a one-on-one stage's rounds or a free-for-all stage's
/// matches.
#[derive(Debug, Clone, PartialEq)]
pub enum EventFile {
    /// An event with `rounds` of one-on-one matches.
    OneOnOne(Event),
    /// An event with `matches` of free-for-all lobbies.
    FreeForAll(FreeForAllEvent),
}

/// What `turnier tournament pair` reads: an event, and what its next round is paired by.
#[derive(Debug, Clone, PartialEq)]
pub enum PairInput {
    /// A one-on-one event and its stage config.
    OneOnOne {
        /// The event.
        event: Event,
        /// The stage config.
        stage: StageConfig,
    },
    /// A free-for-all event (which carries its stage's settings) and the event's seed.
    FreeForAll {
        /// The event.
        event: FreeForAllEvent,
        /// The event's stored seed.
        seed: u64,
    },
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

/// A stage config that cannot be read, or whose settings are refused.
///
/// As in [`EventFileError`], a serde error is part of the message, not a `source`.
#[derive(Debug, thiserror::Error)]
pub enum StageConfigError {
    /// A one-on-one event came with no stage config.
    #[error(
        "no stage config: pass --stage '{{\"format\": \"swiss\"}}' or a \"stage\" member in the input"
    )]
    Missing,
    /// `--stage` is neither inline JSON nor a file that can be read.
    #[error("cannot read the stage config {}", .path.display())]
    Unreadable {
        /// The `--stage` value, taken as a path.
        path: PathBuf,
        /// Why the file cannot be read.
        #[source]
        source: std::io::Error,
    },
    /// The text is not JSON at all.
    #[error("the stage config is not JSON")]
    NotJson(#[source] serde_json::Error),
    /// The JSON is not an object.
    #[error("the stage config is refused: a stage config is a JSON object")]
    NotAnObject,
    /// The config names no `format`.
    #[error("the stage config is refused: setting `format` is missing")]
    MissingFormat,
    /// `format` is not one of the formats.
    #[error("the stage config is refused: setting `format`: {0}")]
    UnknownFormat(serde_json::Error),
    /// `seed` is not a whole number from 0.
    #[error("the stage config is refused: setting `seed` must be a whole number: {0}")]
    BadSeed(serde_json::Error),
    /// `prior_stage` is not a list of player ids.
    #[error("the stage config is refused: setting `prior_stage` must list player ids: {0}")]
    BadPriorStage(serde_json::Error),
    /// `early_cutoff` is not a number of placements.
    #[error(
        "the stage config is refused: setting `early_cutoff` is the number of top placements to decide: {0}"
    )]
    BadEarlyCutoff(serde_json::Error),
    /// `grouping` is not a grouping.
    #[error(
        "the stage config is refused: setting `grouping` is {{\"groups\": n}} or {{\"players_per_group\": n}}: {0}"
    )]
    BadGrouping(serde_json::Error),
    /// The config gives a setting the event's `settings` decide.
    #[error(
        "the stage config is refused: setting `{0}` comes from the event's `settings`, not from the stage config"
    )]
    SettingOfTheEvent(String),
    /// The format's settings are unknown or of the wrong type.
    #[error("the stage config is refused: a `{format}` stage: {error}")]
    BadSettings {
        /// The stage's format.
        format: Format,
        /// What serde refused.
        error: serde_json::Error,
    },
    /// A bracket setting the format cannot run with.
    #[error("the stage config is refused: {0}")]
    RefusedBracket(SettingsError),
    /// A Swiss or round-robin setting the stage cannot run with. Unlike a bracket's, its
    /// message has never said "the stage config is refused", and still does not.
    #[error(transparent)]
    Refused(SettingsError),
}

/// An input of `turnier tournament pair` that cannot be read: its event or its stage config.
#[derive(Debug, thiserror::Error)]
pub enum PairInputError {
    /// The event file.
    #[error(transparent)]
    Event(#[from] EventFileError),
    /// The stage config.
    #[error(transparent)]
    Stage(#[from] StageConfigError),
}

/// Reads an event file (`turnier tournament standings`): a free-for-all event when it lists
/// `matches`, else a one-on-one event.
pub fn read_event_file(text: &str) -> Result<EventFile, EventFileError> {
    if let Some(event) = event_directly(text) {
        event.validate()?;
        return Ok(EventFile::OneOnOne(event));
    }
    let json = parse_event(text)?;
    if is_free_for_all(&json) {
        free_for_all_event_from(json).map(EventFile::FreeForAll)
    } else {
        event_from(json).map(EventFile::OneOnOne)
    }
}

/// Reads a one-on-one event file and checks it ([`Event::validate`]).
pub fn read_event(text: &str) -> Result<Event, EventFileError> {
    if let Some(event) = event_directly(text) {
        event.validate()?;
        return Ok(event);
    }
    event_from(parse_event(text)?)
}

/// Reads a one-on-one event straight from its text into the typed event, without a `Value`
/// in between: the path of every well-formed file, several times faster on a large event
/// than building the `Value` first. `None` for anything else (not JSON, a free-for-all event,
/// a repeated or unknown member, a wrong type), which is then read through the `Value` as it
/// always was, so every message stays the tool's (see "Why through `Value`"). An event read
/// here is the one the `Value` path gives: the same fields through the same `Deserialize`.
fn event_directly(text: &str) -> Option<Event> {
    serde_json::from_str(text).ok()
}

/// Reads a free-for-all event file and checks it ([`FreeForAllEvent::validate`]). Settings it
/// leaves out take Riftbound's free-for-all defaults (the one game offering free-for-all).
pub fn read_free_for_all_event(text: &str) -> Result<FreeForAllEvent, EventFileError> {
    free_for_all_event_from(parse_event(text)?)
}

/// Reads the input of `turnier tournament pair`: the event file on stdin and its stage config,
/// from `stage` (the `--stage` value: inline JSON when it starts with `{`, else a file) or else
/// from the input's `"stage"` member.
///
/// The parts are read in the order their errors have always been reported: the event's JSON,
/// the stage config's JSON, its format, seed and prior stage, the event, then the format's
/// settings (whose defaults are the event's).
pub fn read_pair_input(text: &str, stage: Option<&str>) -> Result<PairInput, PairInputError> {
    let mut json = parse_event(text)?;
    // Removed even when `--stage` is given: the event itself has no `stage` member.
    let in_input = json.as_object_mut().and_then(|input| input.remove("stage"));
    let stage = match stage {
        Some(stage) => Some(read_stage_argument(stage)?),
        None => in_input,
    };
    if is_free_for_all(&json) {
        let seed = match stage {
            Some(stage) => StageHeader::read(with_format_of(stage, &json))?.seed,
            None => 0,
        };
        let event = free_for_all_event_from(json)?;
        return Ok(PairInput::FreeForAll { event, seed });
    }
    let header = StageHeader::read(stage.ok_or(StageConfigError::Missing)?)?;
    let event = event_from(json)?;
    let stage = header.into_config(&event.settings)?;
    Ok(PairInput::OneOnOne { event, stage })
}

/// Reads a stage config for a one-on-one event scored by `scoring` (the event's `settings`,
/// which give the Swiss and round-robin points, byes and tiebreakers) and checks its settings.
pub fn read_stage_config(
    text: &str,
    scoring: &ScoringSettings,
) -> Result<StageConfig, StageConfigError> {
    let json = serde_json::from_str(text).map_err(StageConfigError::NotJson)?;
    StageHeader::read(json)?.into_config(scoring)
}

/// Writes a stage config as [`read_stage_config`] reads it: every setting the config holds,
/// except the points, byes and tiebreakers, which are the event's.
pub fn write_stage_config(config: &StageConfig) -> String {
    let mut json = Map::new();
    json.insert(
        "format".to_owned(),
        config.settings.format().as_str().into(),
    );
    json.insert("seed".to_owned(), config.seed.into());
    if let Some(order) = &config.prior_stage {
        let ids = order.iter().map(|id| Value::from(id.as_str())).collect();
        json.insert("prior_stage".to_owned(), Value::Array(ids));
    }
    let without = |settings: Map<String, Value>, of_the_event: &[&str]| {
        settings
            .into_iter()
            .filter(|(name, _)| !of_the_event.contains(&name.as_str()))
            .collect::<Vec<_>>()
    };
    match &config.settings {
        StageSettings::Swiss(stage) => {
            json.extend(without(object_of(stage), &SWISS_SETTINGS_OF_THE_EVENT));
        }
        StageSettings::SingleElimination(stage) | StageSettings::DoubleElimination(stage) => {
            json.extend(object_of(&stage.settings));
            if let Some(places) = stage.early_cutoff {
                json.insert("early_cutoff".to_owned(), places.into());
            }
        }
        StageSettings::RoundRobin(stage) => {
            json.extend(without(
                object_of(&stage.settings),
                &ROUND_ROBIN_SETTINGS_OF_THE_EVENT,
            ));
            if let Some(grouping) = &stage.grouping {
                json.insert("grouping".to_owned(), Value::Object(object_of(grouping)));
            }
        }
        StageSettings::FreeForAll(_) => {}
    }
    Value::Object(json).to_string()
}

/// Parses the text of an event file.
fn parse_event(text: &str) -> Result<Value, EventFileError> {
    serde_json::from_str(text).map_err(EventFileError::NotJson)
}

/// Tells whether an event file is a free-for-all event (it lists `matches` of lobbies).
fn is_free_for_all(json: &Value) -> bool {
    json.get("matches").is_some()
}

/// Reads a one-on-one event from its JSON and checks it.
fn event_from(json: Value) -> Result<Event, EventFileError> {
    let event: Event = serde_json::from_value(json).map_err(EventFileError::NotAnEvent)?;
    event.validate()?;
    Ok(event)
}

/// Reads a free-for-all event from its JSON, its settings over Riftbound's defaults, and
/// checks it.
fn free_for_all_event_from(mut json: Value) -> Result<FreeForAllEvent, EventFileError> {
    if let (Some(defaults), Some(input)) = (
        GameDefaults::of(Game::Riftbound).free_for_all,
        json.as_object_mut(),
    ) {
        let mut merged = object_of(&defaults);
        // `remove` moves the last member into the gap and `insert` appends: this is the
        // order serde visits the members in, so it decides which bad member is named.
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

/// Reads the `--stage` value: inline JSON when it starts with `{`, else the file it names.
fn read_stage_argument(stage: &str) -> Result<Value, StageConfigError> {
    let text = if stage.trim_start().starts_with('{') {
        stage.to_owned()
    } else {
        std::fs::read_to_string(stage).map_err(|source| StageConfigError::Unreadable {
            path: PathBuf::from(stage),
            source,
        })?
    };
    serde_json::from_str(&text).map_err(StageConfigError::NotJson)
}

/// Gives a free-for-all stage config that leaves out its format the event's.
fn with_format_of(mut stage: Value, event: &Value) -> Value {
    if let (Some(stage), Some(format)) = (stage.as_object_mut(), event.get("format"))
        && !stage.contains_key("format")
    {
        stage.insert("format".to_owned(), format.clone());
    }
    stage
}

/// A stage config whose format, seed and prior stage are read, and whose other members are
/// read into the format's settings once the event (which gives their defaults) is read.
#[derive(Debug)]
struct StageHeader {
    format: Format,
    seed: u64,
    prior_stage: Option<Vec<PlayerId>>,
    /// The members left, in the order serde will visit them.
    settings: Map<String, Value>,
}

impl StageHeader {
    /// Reads the format, the seed and the prior stage's order.
    fn read(json: Value) -> Result<Self, StageConfigError> {
        let Value::Object(mut settings) = json else {
            return Err(StageConfigError::NotAnObject);
        };
        // Each `remove` moves the last member into the gap: the order of these removals
        // decides the order the settings are visited in, and so which bad setting is named.
        let format = settings
            .remove("format")
            .ok_or(StageConfigError::MissingFormat)?;
        let format: Format =
            serde_json::from_value(format).map_err(StageConfigError::UnknownFormat)?;
        let seed = match settings.remove("seed") {
            None | Some(Value::Null) => 0,
            Some(seed) => serde_json::from_value(seed).map_err(StageConfigError::BadSeed)?,
        };
        let prior_stage = match settings.remove("prior_stage") {
            None | Some(Value::Null) => None,
            Some(order) => {
                Some(serde_json::from_value(order).map_err(StageConfigError::BadPriorStage)?)
            }
        };
        Ok(Self {
            format,
            seed,
            prior_stage,
            settings,
        })
    }

    /// Reads the format's settings over its defaults (the event's points, byes and tiebreakers,
    /// and the create form's defaults for the rest) and checks them.
    fn into_config(self, scoring: &ScoringSettings) -> Result<StageConfig, StageConfigError> {
        let Self {
            format,
            seed,
            prior_stage,
            mut settings,
        } = self;
        let is_first_stage = prior_stage.is_none();
        let settings = match format {
            Format::Swiss => {
                let defaults = SwissSettings {
                    rounds: 5,
                    points: scoring.points,
                    allow_draws: true,
                    bye_handling: scoring.bye_handling,
                    pairing_style: PairingStyle::RandomWithinScoreGroups,
                    prevent_repeat_matchups: true,
                    tiebreakers: scoring.tiebreakers.clone(),
                    first_round_seeding: SeedingMethod::default_for_stage(is_first_stage),
                    late_entry_through_round: None,
                };
                let stage = merged(format, &defaults, settings, &SWISS_SETTINGS_OF_THE_EVENT)?;
                stage.validate().map_err(StageConfigError::Refused)?;
                StageSettings::Swiss(stage)
            }
            Format::SingleElimination | Format::DoubleElimination => {
                let early_cutoff = match settings.remove("early_cutoff") {
                    None | Some(Value::Null) => None,
                    Some(places) => Some(
                        serde_json::from_value(places).map_err(StageConfigError::BadEarlyCutoff)?,
                    ),
                };
                let defaults = EliminationSettings::default_for_stage(is_first_stage);
                let bracket: EliminationSettings = merged(format, &defaults, settings, &[])?;
                bracket
                    .validate(format)
                    .map_err(StageConfigError::RefusedBracket)?;
                let stage = EliminationStage {
                    settings: bracket,
                    early_cutoff,
                };
                if format == Format::SingleElimination {
                    StageSettings::SingleElimination(stage)
                } else {
                    StageSettings::DoubleElimination(stage)
                }
            }
            Format::RoundRobin => {
                let grouping: Option<Grouping> = match settings.remove("grouping") {
                    None | Some(Value::Null) => None,
                    Some(grouping) => Some(
                        serde_json::from_value(grouping).map_err(StageConfigError::BadGrouping)?,
                    ),
                };
                if let Some(grouping) = grouping {
                    grouping.validate().map_err(StageConfigError::Refused)?;
                }
                let defaults = RoundRobinSettings {
                    points: scoring.points,
                    tiebreakers: scoring.tiebreakers.clone(),
                    cycles: 1,
                };
                let stage: RoundRobinSettings = merged(
                    format,
                    &defaults,
                    settings,
                    &ROUND_ROBIN_SETTINGS_OF_THE_EVENT,
                )?;
                stage.validate().map_err(StageConfigError::Refused)?;
                StageSettings::RoundRobin(RoundRobinStage {
                    settings: stage,
                    grouping,
                })
            }
            // The other members are not read: a free-for-all stage's settings are its event's,
            // and pairing refuses a one-on-one event for it (`NextRoundError`).
            Format::CumulativePoints => {
                StageSettings::FreeForAll(FreeForAllFormat::CumulativePoints)
            }
            Format::ThresholdWin => StageSettings::FreeForAll(FreeForAllFormat::ThresholdWin),
        };
        Ok(StageConfig {
            settings,
            seed,
            prior_stage,
        })
    }
}

/// Deserializes a format's settings: the given members over `defaults`, refusing the ones the
/// event's own settings decide.
fn merged<T: Serialize + DeserializeOwned>(
    format: Format,
    defaults: &T,
    given: Map<String, Value>,
    of_the_event: &[&str],
) -> Result<T, StageConfigError> {
    if let Some(name) = given
        .keys()
        .find(|name| of_the_event.contains(&name.as_str()))
    {
        return Err(StageConfigError::SettingOfTheEvent(name.clone()));
    }
    let mut merged = object_of(defaults);
    // A member given replaces its default in place; a new one (an unknown setting, or one
    // with no default) comes after every default.
    merged.extend(given);
    serde_json::from_value(Value::Object(merged))
        .map_err(|error| StageConfigError::BadSettings { format, error })
}

/// Returns settings as a JSON object (also how `run::create` merges a stage's settings).
pub(crate) fn object_of(settings: &impl Serialize) -> Map<String, Value> {
    match serde_json::to_value(settings) {
        Ok(Value::Object(object)) => object,
        // Settings are structs (or a one-member enum) of numbers, booleans, strings and lists,
        // which always serialize to an object.
        _ => unreachable!("settings serialize to a JSON object"),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::domain::next_round::next_round;

    /// An event file of `players` players and no rounds, ranked on OMW%.
    fn event_json(players: u32) -> String {
        let players: Vec<Value> = (1..=players)
            .map(|seed| json!({"id": format!("P{seed}"), "seed": seed}))
            .collect();
        json!({
            "settings": {"points": {"win": 3, "draw": 1, "loss": 0, "bye": 3},
                         "bye_handling": "full_points",
                         "tiebreakers": ["opponent_match_win_percentage"],
                         "match_win_formula": null,
                         "opponent_match_win_floor": null, "game_win_floor": null},
            "players": players,
            "rounds": []
        })
        .to_string()
    }

    /// The message of a stage config that cannot pair the event of 8 players, whether reading
    /// or pairing refuses it.
    fn refused(stage: Value) -> String {
        match read_pair_input(&event_json(8), Some(&stage.to_string())) {
            Err(err) => err.to_string(),
            Ok(PairInput::OneOnOne { event, stage }) => {
                next_round(&event, &stage).expect_err("refused").to_string()
            }
            Ok(PairInput::FreeForAll { .. }) => panic!("the event is one-on-one"),
        }
    }

    fn scoring() -> ScoringSettings {
        read_event(&event_json(2)).expect("an event").settings
    }

    #[test]
    fn settings_are_refused_by_name() {
        assert!(
            refused(json!({"format": "swiss", "round": 3})).contains("unknown field `round`"),
            "a misspelt setting"
        );
        assert!(
            refused(json!({"format": "swiss", "tiebreakers": []}))
                .contains("setting `tiebreakers` comes from the event's `settings`")
        );
        assert!(
            refused(json!({"format": "double_elimination", "third_place_match": true}))
                .contains("third_place_match")
        );
        assert!(refused(json!({"format": "cumulative_points"})).contains("free-for-all"));
        assert!(
            read_stage_config(r#"{"rounds": 3}"#, &scoring())
                .expect_err("no format")
                .to_string()
                .contains("setting `format` is missing")
        );
    }

    /// The message the tool prints for an input of `pair`: the error and its sources.
    fn pair_message(event: &str, stage: Option<&str>) -> String {
        let err = read_pair_input(event, stage).expect_err("refused");
        let mut message = err.to_string();
        let mut source = std::error::Error::source(&err);
        while let Some(cause) = source {
            message.push_str(&format!(": {cause}"));
            source = cause.source();
        }
        message
    }

    fn stage_message(stage: Value) -> String {
        pair_message(&event_json(8), Some(&stage.to_string()))
    }

    /// The direct reading gives exactly the event the `Value` path gives, and declines what
    /// only the `Value` path may judge (its messages are the tool's).
    #[test]
    fn the_direct_reading_of_an_event_is_the_value_path_s_or_nothing() {
        for players in [0, 2, 9, 64] {
            let text = event_json(players);
            let through_value = event_from(parse_event(&text).expect("JSON")).expect("an event");
            assert_eq!(event_directly(&text), Some(through_value));
        }
        let event = event_json(4);
        let open = event.trim_end().strip_suffix('}').expect("an object");
        let twice = format!(r#"{open}, "rounds": []}}"#);
        assert_eq!(event_directly(&twice), None, "a repeated member: {twice}");
        assert!(
            read_event(&twice).is_ok(),
            "the Value path reads it, as it always has"
        );
        assert_eq!(
            event_directly(r#"{"format": "cumulative_points", "players": [], "matches": []}"#),
            None
        );
        assert_eq!(event_directly("not json"), None);
        assert!(matches!(
            read_event_file("not json"),
            Err(EventFileError::NotJson(_))
        ));
    }

    #[test]
    fn refuses_event_files_naming_what_is_wrong() {
        let message = |text: &str| read_event_file(text).expect_err("refused").to_string();
        assert_eq!(message("{"), "the event is not JSON");
        assert!(matches!(
            read_event_file("{"),
            Err(EventFileError::NotJson(_))
        ));
        assert_eq!(
            message(r#"{"players": []}"#),
            "the event is not valid JSON of an event: missing field `settings`"
        );
        let mut extra: Value = serde_json::from_str(&event_json(2)).expect("JSON");
        extra["stage"] = json!({"format": "swiss"});
        assert!(
            message(&extra.to_string()).starts_with(
                "the event is not valid JSON of an event: unknown field `stage`, expected one of"
            ),
            "standings reads no stage config"
        );
        let three = event_json(3).replace(
            r#""rounds":[]"#,
            r#""rounds":[[{"players":["P1","P2","P3"],"games":[2,0]}]]"#,
        );
        assert_eq!(
            message(&three),
            "the event is not valid JSON of an event: a match has 2 players, not 3"
        );
        let twice = event_json(2).replace(r#""id":"P2""#, r#""id":"P1""#);
        assert!(matches!(
            read_event_file(&twice),
            Err(EventFileError::Event(EventError::DuplicatePlayer(_)))
        ));
        assert_eq!(message(&twice), "player `P1` is registered twice");
        assert_eq!(
            message(r#"{"format": "knockout", "players": [], "matches": []}"#),
            "the event is not valid JSON of a free-for-all event: unknown variant `knockout`, expected one of `single_elimination`, `double_elimination`, `round_robin`, `swiss`, `cumulative_points`, `threshold_win`"
        );
        assert_eq!(
            message(r#"{"format": "swiss", "players": [], "matches": []}"#),
            "setting `format` is `Swiss`, which is not a free-for-all format"
        );
    }

    #[test]
    fn a_free_for_all_event_takes_riftbound_defaults_for_the_settings_it_leaves_out() {
        let event = read_free_for_all_event(
            r#"{"format": "cumulative_points", "settings": {"matches": 5},
                "players": [], "matches": []}"#,
        )
        .expect("an event");
        let defaults = GameDefaults::of(Game::Riftbound)
            .free_for_all
            .expect("Riftbound has free-for-all");
        assert_eq!(event.settings.matches, 5);
        assert_eq!(event.settings.placement_points, defaults.placement_points);
        let Ok(EventFile::FreeForAll(without)) =
            read_event_file(r#"{"format": "threshold_win", "players": [], "matches": []}"#)
        else {
            panic!("a free-for-all event");
        };
        assert_eq!(without.settings, defaults);
    }

    #[test]
    fn refuses_stage_configs_naming_what_is_wrong() {
        let event = event_json(8);
        assert_eq!(
            pair_message(&event, None),
            r#"no stage config: pass --stage '{"format": "swiss"}' or a "stage" member in the input"#
        );
        assert_eq!(
            pair_message(&event, Some("/no/such/stage.json")),
            "cannot read the stage config /no/such/stage.json: No such file or directory (os error 2)"
        );
        assert_eq!(
            pair_message(&event, Some(r#"{"format": "swiss","#)),
            "the stage config is not JSON: EOF while parsing a value at line 1 column 19"
        );
        assert_eq!(
            read_stage_config("[1]", &scoring())
                .expect_err("refused")
                .to_string(),
            "the stage config is refused: a stage config is a JSON object"
        );
        // `--stage` is inline JSON only when it starts with `{`.
        assert_eq!(
            pair_message(&event, Some("[1]")),
            "cannot read the stage config [1]: No such file or directory (os error 2)"
        );
        for (stage, message) in [
            (json!({"rounds": 3}), "setting `format` is missing"),
            (
                json!({"format": null}),
                "setting `format`: invalid type: null, expected string or map",
            ),
            (
                json!({"format": "swiss", "seed": -1}),
                "setting `seed` must be a whole number: invalid value: integer `-1`, expected u64",
            ),
            (
                json!({"format": "swiss", "prior_stage": "P1"}),
                "setting `prior_stage` must list player ids: invalid type: string \"P1\", expected a sequence",
            ),
            (
                json!({"format": "single_elimination", "early_cutoff": "x"}),
                "setting `early_cutoff` is the number of top placements to decide: invalid type: string \"x\", expected u32",
            ),
            (
                json!({"format": "round_robin", "grouping": {"teams": 2}}),
                "setting `grouping` is {\"groups\": n} or {\"players_per_group\": n}: unknown variant `teams`, expected `groups` or `players_per_group`",
            ),
            (
                json!({"format": "round_robin", "points": {}}),
                "setting `points` comes from the event's `settings`, not from the stage config",
            ),
            (
                json!({"format": "single_elimination", "allow_byes": "yes"}),
                "a `single_elimination` stage: invalid type: string \"yes\", expected a boolean",
            ),
            (
                json!({"format": "round_robin", "rounds": 1}),
                "a `round_robin` stage: unknown field `rounds`, expected one of `points`, `tiebreakers`, `cycles`",
            ),
            (
                json!({"format": "double_elimination", "third_place_match": true}),
                "setting `third_place_match` only applies to single elimination",
            ),
        ] {
            assert_eq!(
                stage_message(stage.clone()),
                format!("the stage config is refused: {message}"),
                "{stage}"
            );
        }
        // A Swiss or round-robin setting a stage cannot run with has never said "refused".
        assert_eq!(
            stage_message(json!({"format": "swiss", "rounds": 0})),
            "setting `rounds` must be at least 1"
        );
        // The event's tiebreakers are the round robin's, and OMW% is Swiss only.
        assert!(matches!(
            read_stage_config(r#"{"format": "round_robin"}"#, &scoring()),
            Err(StageConfigError::Refused(
                SettingsError::TiebreakerNotInRoundRobin(
                    crate::domain::Tiebreaker::OpponentMatchWinPercentage
                )
            ))
        ));
    }

    #[test]
    fn names_the_first_bad_setting_in_the_order_serde_visits_them() {
        let first_refused = |stage: &str| {
            read_stage_config(stage, &scoring())
                .expect_err("refused")
                .to_string()
        };
        // Given settings replace their defaults in place; the others come after every default,
        // in the config's order.
        assert!(
            first_refused(r#"{"bogus": 1, "late_entry_through_round": "x", "format": "swiss"}"#)
                .contains("unknown field `bogus`")
        );
        assert!(
            first_refused(r#"{"late_entry_through_round": "x", "bogus": 1, "format": "swiss"}"#)
                .contains("invalid type: string \"x\"")
        );
        assert!(
            first_refused(r#"{"bogus": 1, "rounds": "x", "format": "swiss"}"#)
                .contains("invalid type: string \"x\"")
        );
        // Reading `format` moves the last member into its place.
        assert!(
            first_refused(r#"{"format": "swiss", "bogus": 1, "late_entry_through_round": "x"}"#)
                .contains("invalid type: string \"x\"")
        );
    }

    #[test]
    fn reads_the_event_before_the_settings_of_its_stage() {
        let mut bad_event: Value = serde_json::from_str(&event_json(8)).expect("JSON");
        bad_event["settings"]["game_win_floor"] = 2.into();
        let bad_event = bad_event.to_string();
        // The format, seed and prior stage are read first, the settings after the event.
        assert!(matches!(
            read_pair_input(&bad_event, Some(r#"{"format": "knockout"}"#)),
            Err(PairInputError::Stage(StageConfigError::UnknownFormat(_)))
        ));
        assert!(matches!(
            read_pair_input(&bad_event, Some(r#"{"format": "swiss", "bogus": 1}"#)),
            Err(PairInputError::Event(EventFileError::Event(_)))
        ));
    }

    #[test]
    fn reads_the_stage_config_from_the_input_unless_one_is_passed() {
        let mut event: Value = serde_json::from_str(&event_json(8)).expect("JSON");
        event["stage"] = json!({"format": "swiss", "seed": 3});
        let Ok(PairInput::OneOnOne { stage, .. }) = read_pair_input(&event.to_string(), None)
        else {
            panic!("a one-on-one event");
        };
        assert_eq!(stage.seed, 3);
        let Ok(PairInput::OneOnOne { stage, .. }) = read_pair_input(
            &event.to_string(),
            Some(r#"{"format": "single_elimination"}"#),
        ) else {
            panic!("a one-on-one event");
        };
        assert_eq!(stage.settings.format(), Format::SingleElimination);
        assert_eq!(stage.seed, 0);
    }

    #[test]
    fn a_free_for_all_stage_config_gives_only_the_seed() {
        let event = r#"{"format": "cumulative_points", "players": [], "matches": []}"#;
        let seed = |stage: Option<&str>| match read_pair_input(event, stage) {
            Ok(PairInput::FreeForAll { seed, .. }) => seed,
            other => panic!("a free-for-all input: {other:?}"),
        };
        assert_eq!(seed(None), 0);
        assert_eq!(seed(Some(r#"{"seed": 7}"#)), 7);
        // The format may be left out; the other members are not read.
        assert_eq!(seed(Some(r#"{"seed": 7, "rounds": "x"}"#)), 7);
        assert_eq!(
            pair_message(event, Some(r#"{"seed": 1.5}"#)),
            "the stage config is refused: setting `seed` must be a whole number: invalid type: floating point `1.5`, expected u64"
        );
    }

    #[test]
    fn fills_the_defaults_from_the_event_and_the_stage_position() {
        let scoring = scoring();
        let read = |text: &str| read_stage_config(text, &scoring).expect("a stage config");
        let StageSettings::Swiss(first) = read(r#"{"format": "swiss"}"#).settings else {
            panic!("a Swiss stage");
        };
        assert_eq!(first.rounds, 5);
        assert_eq!(first.points, scoring.points);
        assert_eq!(first.tiebreakers, scoring.tiebreakers);
        assert_eq!(first.first_round_seeding, SeedingMethod::Random);
        let StageSettings::Swiss(later) =
            read(r#"{"format": "swiss", "prior_stage": ["P1"]}"#).settings
        else {
            panic!("a Swiss stage");
        };
        assert_eq!(later.first_round_seeding, SeedingMethod::PriorStage);
        let StageSettings::DoubleElimination(bracket) =
            read(r#"{"format": "double_elimination", "prior_stage": ["P1"], "early_cutoff": 4}"#)
                .settings
        else {
            panic!("a double elimination stage");
        };
        assert_eq!(
            bracket.settings,
            EliminationSettings::default_for_stage(false)
        );
        assert_eq!(bracket.early_cutoff, Some(4));
    }

    #[test]
    fn a_typed_stage_config_round_trips() {
        let mut scoring = scoring();
        let prior_stage = Some(vec![PlayerId::from("P2"), PlayerId::from("P1")]);
        let swiss = SwissSettings {
            rounds: 6,
            points: scoring.points,
            allow_draws: false,
            bye_handling: scoring.bye_handling,
            pairing_style: PairingStyle::Fold,
            prevent_repeat_matchups: false,
            tiebreakers: scoring.tiebreakers.clone(),
            first_round_seeding: SeedingMethod::Rating,
            late_entry_through_round: Some(2),
        };
        let bracket = |early_cutoff| EliminationStage {
            settings: EliminationSettings {
                allow_byes: true,
                third_place_match: false,
                grand_finals: crate::domain::elimination::GrandFinals::SingleSet,
                seeding: SeedingMethod::Manual,
            },
            early_cutoff,
        };
        let configs = [
            (StageSettings::Swiss(swiss.clone()), 7, None),
            (
                StageSettings::Swiss(SwissSettings {
                    late_entry_through_round: None,
                    ..swiss
                }),
                0,
                prior_stage.clone(),
            ),
            (StageSettings::SingleElimination(bracket(Some(8))), 3, None),
            (
                StageSettings::DoubleElimination(bracket(None)),
                u64::MAX,
                prior_stage.clone(),
            ),
            (
                StageSettings::FreeForAll(FreeForAllFormat::ThresholdWin),
                1,
                None,
            ),
        ];
        for (settings, seed, prior_stage) in configs {
            let config = StageConfig {
                settings,
                seed,
                prior_stage,
            };
            let written = write_stage_config(&config);
            let read = read_stage_config(&written, &scoring).expect(&written);
            assert_eq!(read, config, "{written}");
        }
        // Round robin takes round-robin tiebreakers from its event.
        scoring.tiebreakers = vec![
            crate::domain::Tiebreaker::HeadToHead,
            crate::domain::Tiebreaker::PointsScored,
        ];
        for grouping in [
            None,
            Some(Grouping::Groups(2)),
            Some(Grouping::PlayersPerGroup(4)),
        ] {
            let config = StageConfig {
                settings: StageSettings::RoundRobin(RoundRobinStage {
                    settings: RoundRobinSettings {
                        points: scoring.points,
                        tiebreakers: scoring.tiebreakers.clone(),
                        cycles: 2,
                    },
                    grouping,
                }),
                seed: 5,
                prior_stage: None,
            };
            let written = write_stage_config(&config);
            assert!(!written.contains("tiebreakers"), "{written}");
            let read = read_stage_config(&written, &scoring).expect(&written);
            assert_eq!(read, config, "{written}");
        }
    }

    #[test]
    fn writes_a_stage_config_without_the_settings_of_the_event() {
        let config = read_stage_config(
            r#"{"format": "swiss", "seed": 7, "rounds": 4, "pairing_style": "fold"}"#,
            &scoring(),
        )
        .expect("a stage config");
        assert_eq!(
            write_stage_config(&config),
            r#"{"format":"swiss","seed":7,"rounds":4,"allow_draws":true,"pairing_style":"fold","prevent_repeat_matchups":true,"first_round_seeding":"random"}"#
        );
    }
}
