//! A new tournament from what its organizer asked for: every stage's settings merged over the
//! game's create-form defaults and checked (with the offline tool's reader of a stage config,
//! so the service and `turnier tournament pair` read settings the same way), and the
//! advancement rules checked as a plan.

use serde_json::{Map, Value};

use super::RunError;
use super::fact::{Fact, Organizer, StageRecord};
use crate::domain::defaults::{Format, FreeForAllSettings, Game, GameDefaults, SeedingMethod};
use crate::domain::elimination::EliminationSettings;
use crate::domain::free_for_all::FreeForAllEvent;
use crate::domain::round_robin;
use crate::domain::settings::ScoringSettings;
use crate::domain::stages::{
    AdvanceMode, AdvancementRule, CutTiebreaker, StagePlan, TournamentPlan,
};
use crate::offline::{self, object_of};

/// The round timer's length when a stage does not set one, in minutes.
pub const DEFAULT_ROUND_MINUTES: u32 = 50;

/// The longest name of a tournament, in characters.
pub const MAX_NAME_CHARS: usize = 200;

/// The most stages of a tournament.
pub const MAX_STAGES: usize = 8;

/// The largest `maxParticipants`: twice the largest open events (7,000 to 8,000 players), and
/// a field every format's engine pairs in a moment.
pub const MAX_PARTICIPANTS: u32 = 16_384;

/// One stage as asked for: a format and any of its settings (snake_case or camelCase names).
#[derive(Debug, Clone, PartialEq)]
pub struct StageInput {
    /// The format.
    pub format: Format,
    /// The settings given; the rest take the game's defaults.
    pub settings: Map<String, Value>,
}

/// A tournament as asked for.
#[derive(Debug, Clone, PartialEq)]
pub struct CreateInput {
    /// The game.
    pub game: Game,
    /// The name.
    pub name: String,
    /// The stages, at least one.
    pub stages: Vec<StageInput>,
    /// The advancement rules (stages counted from 0).
    pub rules: Vec<AdvancementRule>,
    /// What decides a tie on a cut line.
    pub cut_tiebreaker: CutTiebreaker,
    /// The cap.
    pub max_participants: Option<u32>,
    /// Check-in before the start.
    pub check_in: bool,
    /// The seed of every draw.
    pub seed: u64,
}

/// The settings of a stage that are the event's (its standings), by format.
fn scoring_keys(format: Format) -> &'static [&'static str] {
    match format {
        Format::Swiss => &["points", "bye_handling", "tiebreakers"],
        Format::RoundRobin => &["points", "tiebreakers"],
        _ => &[],
    }
}

/// `pairingStyle` → `pairing_style`; a snake_case name is kept.
fn snake_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

fn bad(stage: usize, problem: impl std::fmt::Display) -> RunError {
    RunError::BadSettings {
        field: format!("stages[{stage}].settings"),
        problem: problem.to_string(),
    }
}

/// Reads one stage (`index` from 0) of a tournament of `game`.
fn stage_record(game: Game, index: usize, stage: &StageInput) -> Result<StageRecord, RunError> {
    let defaults = GameDefaults::of(game);
    let format = stage.format;
    if !defaults.formats.contains(&format) {
        return Err(RunError::BadSettings {
            field: format!("stages[{index}].format"),
            problem: format!("`{game}` does not offer `{format}`"),
        });
    }
    let mut given: Map<String, Value> = stage
        .settings
        .iter()
        .map(|(name, value)| (snake_case(name), value.clone()))
        .collect();
    let round_minutes = match given.remove("round_minutes") {
        None | Some(Value::Null) => DEFAULT_ROUND_MINUTES,
        Some(Value::Number(n)) => n
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .filter(|n| (1..=1440).contains(n))
            .ok_or_else(|| bad(index, "setting `round_minutes` must be 1 to 1440"))?,
        Some(_) => return Err(bad(index, "setting `round_minutes` must be a number")),
    };
    let allow_early_cutoff = match given.remove("allow_early_cutoff") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(on)) => on,
        Some(_) => {
            return Err(bad(
                index,
                "setting `allow_early_cutoff` must be true or false",
            ));
        }
    };
    let advance_mode: AdvanceMode = match given.remove("advance_mode") {
        None | Some(Value::Null) => AdvanceMode::default(),
        Some(mode) => serde_json::from_value(mode).map_err(|_| {
            bad(
                index,
                "setting `advance_mode` is `reset_bracket` or `continue_brackets`",
            )
        })?,
    };
    for refused in ["format", "seed", "prior_stage", "early_cutoff"] {
        if given.contains_key(refused) {
            return Err(bad(
                index,
                format!("setting `{refused}` is the tournament's, not a stage's"),
            ));
        }
    }
    if format.is_free_for_all() {
        return free_for_all_record(&defaults, index, format, given, round_minutes);
    }
    // The game's scoring, then the stage's own points, byes and tiebreakers over it.
    let mut scoring = match format {
        Format::RoundRobin => round_robin::scoring(&defaults.round_robin),
        _ => defaults.swiss.scoring(defaults.win_percentage),
    };
    if !scoring_keys(format).is_empty() {
        let mut merged = object_of(&scoring);
        for key in scoring_keys(format) {
            if let Some(value) = given.remove(*key) {
                merged.insert((*key).to_owned(), value);
            }
        }
        scoring = serde_json::from_value::<ScoringSettings>(Value::Object(merged))
            .map_err(|err| bad(index, err))?;
        scoring.validate().map_err(|err| bad(index, err))?;
    }
    let mut config = match format {
        Format::Swiss => {
            let mut swiss = object_of(&defaults.swiss);
            if index > 0 {
                swiss.insert(
                    "first_round_seeding".into(),
                    serde_json::to_value(SeedingMethod::PriorStage).unwrap_or_default(),
                );
            }
            swiss
        }
        Format::RoundRobin => object_of(&defaults.round_robin),
        _ => object_of(&EliminationSettings::default_for_stage(index == 0)),
    };
    for key in scoring_keys(format) {
        config.remove(*key);
    }
    config.extend(given);
    config.insert("format".into(), Value::from(format.as_str()));
    if index > 0 {
        config.insert("prior_stage".into(), Value::Array(Vec::new()));
    }
    let read = offline::read_stage_config(&Value::Object(config).to_string(), &scoring)
        .map_err(|err| bad(index, err))?;
    Ok(StageRecord {
        config: offline::write_stage_config(&read),
        scoring,
        round_minutes,
        allow_early_cutoff,
        advance_mode,
        free_for_all: None,
    })
}

/// Reads a free-for-all stage: its settings over the game's free-for-all defaults, checked as
/// the engine checks a stage of that format.
fn free_for_all_record(
    defaults: &GameDefaults,
    index: usize,
    format: Format,
    given: Map<String, Value>,
    round_minutes: u32,
) -> Result<StageRecord, RunError> {
    let base = defaults
        .free_for_all
        .clone()
        .ok_or_else(|| RunError::BadSettings {
            field: format!("stages[{index}].format"),
            problem: format!("`{format}` is not offered here"),
        })?;
    let mut merged = object_of(&base);
    merged.extend(given);
    let settings: FreeForAllSettings =
        serde_json::from_value(Value::Object(merged)).map_err(|err| bad(index, err))?;
    let empty = FreeForAllEvent {
        format,
        settings: settings.clone(),
        players: Vec::new(),
        matches: Vec::new(),
    };
    empty.validate().map_err(|err| bad(index, err))?;
    let scoring = defaults.swiss.scoring(defaults.win_percentage);
    let config = serde_json::json!({"format": format.as_str()}).to_string();
    offline::read_stage_config(&config, &scoring).map_err(|err| bad(index, err))?;
    Ok(StageRecord {
        config,
        scoring,
        round_minutes,
        allow_early_cutoff: false,
        advance_mode: AdvanceMode::default(),
        free_for_all: Some(settings),
    })
}

/// The settings a stage of `format` starts from in a tournament of `game` (`index` from 0: a
/// later stage is seeded by prior stage results), as a tournament's page shows a stage's
/// settings: what the create form shows before anything is changed. Given back as the stage's
/// settings, they create the same stage.
pub fn stage_defaults(
    game: Game,
    index: usize,
    format: Format,
) -> Result<Map<String, Value>, RunError> {
    let record = stage_record(
        game,
        index,
        &StageInput {
            format,
            settings: Map::new(),
        },
    )?;
    Ok(settings_view(&record))
}

/// Checks a tournament as asked for and returns the fact of its creation by `organizer`.
pub fn created(input: CreateInput, organizer: Organizer) -> Result<Fact, RunError> {
    let name = input.name.trim();
    // The platform's one text rule for names (`kit::text`), after trimming.
    kit::text::check_name(name, MAX_NAME_CHARS).map_err(|problem| RunError::BadSettings {
        field: "name".into(),
        problem: format!("a tournament's name has 1 to {MAX_NAME_CHARS} characters: {problem}"),
    })?;
    if input.stages.is_empty() || input.stages.len() > MAX_STAGES {
        return Err(RunError::BadSettings {
            field: "stages".into(),
            problem: format!("a tournament has 1 to {MAX_STAGES} stages"),
        });
    }
    if input
        .max_participants
        .is_some_and(|max| !(1..=MAX_PARTICIPANTS).contains(&max))
    {
        return Err(RunError::BadSettings {
            field: "maxParticipants".into(),
            problem: format!("must be 1 to {MAX_PARTICIPANTS} when set"),
        });
    }
    let stages = input
        .stages
        .iter()
        .enumerate()
        .map(|(index, stage)| stage_record(input.game, index, stage))
        .collect::<Result<Vec<_>, _>>()?;
    let plan = TournamentPlan {
        stages: input
            .stages
            .iter()
            .zip(&stages)
            .map(|(stage, record)| StagePlan {
                format: stage.format,
                allow_early_cutoff: record.allow_early_cutoff,
                advance_mode: record.advance_mode,
            })
            .collect(),
        rules: input.rules.clone(),
        cut_tiebreaker: input.cut_tiebreaker,
    };
    plan.validate().map_err(|err| RunError::BadSettings {
        field: "advancement".into(),
        problem: err.to_string(),
    })?;
    Ok(Fact::Created {
        game: input.game,
        name: name.to_owned(),
        organizer,
        stages,
        rules: input.rules,
        cut_tiebreaker: input.cut_tiebreaker,
        max_participants: input.max_participants,
        check_in: input.check_in,
        seed: input.seed,
    })
}

/// The settings of a stage as the API shows them, filled in: the stage config's settings, its
/// points, byes and tiebreakers, and the round length.
pub fn settings_view(record: &StageRecord) -> Map<String, Value> {
    if let Some(settings) = &record.free_for_all {
        let mut view = object_of(settings);
        view.insert("round_minutes".into(), Value::from(record.round_minutes));
        return view;
    }
    let mut view: Map<String, Value> = serde_json::from_str(&record.config).unwrap_or_default();
    let format = view
        .get("format")
        .and_then(|format| serde_json::from_value::<Format>(format.clone()).ok());
    for key in ["format", "seed", "prior_stage"] {
        view.remove(key);
    }
    let scoring = object_of(&record.scoring);
    for key in format.map_or(&[][..], scoring_keys) {
        if let Some(value) = scoring.get(*key) {
            view.insert((*key).to_owned(), value.clone());
        }
    }
    if matches!(
        format,
        Some(Format::SingleElimination | Format::DoubleElimination)
    ) {
        view.insert(
            "allow_early_cutoff".into(),
            Value::Bool(record.allow_early_cutoff),
        );
        view.insert(
            "advance_mode".into(),
            serde_json::to_value(record.advance_mode).unwrap_or_default(),
        );
    }
    view.insert("round_minutes".into(), Value::from(record.round_minutes));
    view
}
