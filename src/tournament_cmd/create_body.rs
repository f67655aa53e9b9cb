//! The file of `turnier tournament create`: the HTTP API's `POST /api/v1/{game}/tournaments`
//! body, read into a `CreateTournamentRequest`.
//!
//! It reads the body as the gateway does (`gateway/src/api/tournaments.rs`): an unknown member
//! is refused (a misspelt `maxParticipant` would otherwise be dropped without a word), each
//! advancement rule names placements or points, either end of a range may be `null` (open),
//! and the seed may be a number or its decimal text. What the values mean (formats, settings,
//! whether the rules make a plan) is the service's to judge.

use proto::game::Game;
use proto::tournaments::v1 as pb;
use serde::Deserialize;
use serde_json::{Map, Value};

use crate::server_cmd::{Refusal, refused};

/// The body, as the HTTP API reads it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct CreateBody {
    name: String,
    stages: Vec<StageBody>,
    #[serde(default)]
    advancement: Vec<RuleBody>,
    max_participants: Option<u32>,
    check_in: Option<bool>,
    seed: Option<SeedBody>,
    cut_tiebreaker: Option<String>,
}

/// A seed: a number, or its decimal text (JSON numbers above 2^53 lose digits in JavaScript).
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum SeedBody {
    Number(u64),
    Text(String),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct StageBody {
    format: String,
    settings: Option<Map<String, Value>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct RuleBody {
    from_stage: u32,
    /// `[from, to]`, both included, from 1; `null` is an open end.
    placements: Option<[Option<u32>; 2]>,
    /// `[min, max]`, both included; `null` is an open end.
    points: Option<[Option<f64>; 2]>,
    action: String,
    to_stage: Option<u32>,
}

/// Reads the create file's `text` into the request for `game`. A refusal names `--file`.
pub(super) fn create_request(
    game: Game,
    text: &str,
) -> Result<pb::CreateTournamentRequest, Refusal> {
    let body: CreateBody = serde_json::from_str(text)
        .map_err(|err| refused("invalid_argument", format!("--file: {err}")))?;
    let advancement = body
        .advancement
        .into_iter()
        .enumerate()
        .map(|(index, rule)| advancement_rule(index, rule))
        .collect::<Result<_, _>>()?;
    Ok(pb::CreateTournamentRequest {
        game: proto::game::to_wire(game),
        name: body.name,
        stages: body
            .stages
            .into_iter()
            .map(|stage| pb::StageInput {
                format: stage.format,
                settings_json: stage
                    .settings
                    .map(|settings| Value::Object(settings).to_string()),
            })
            .collect(),
        advancement,
        max_participants: body.max_participants,
        check_in: body.check_in.unwrap_or(false),
        seed: body.seed.map(seed).transpose()?,
        cut_tiebreaker: body.cut_tiebreaker,
    })
}

/// The last place of a placement range with no end, as the gateway sends it: the wire's
/// placements are not optional, and no stage has this many players, so the service reads it
/// as "every placement from `from` on".
const OPEN_LAST_PLACE: u32 = u32::MAX;

fn advancement_rule(index: usize, rule: RuleBody) -> Result<pb::AdvancementRule, Refusal> {
    use pb::advancement_rule::Condition;
    let condition = match (rule.placements, rule.points) {
        (Some([from, to]), None) => Condition::Placements(pb::PlacementRange {
            // Placements count from 1, so an open start is the first place.
            from: from.unwrap_or(1),
            to: to.unwrap_or(OPEN_LAST_PLACE),
        }),
        (None, Some([min, max])) => Condition::Points(pb::PointsRange { min, max }),
        _ => {
            return Err(refused(
                "invalid_argument",
                format!("--file: advancement[{index}]: give either `placements` or `points`"),
            ));
        }
    };
    Ok(pb::AdvancementRule {
        from_stage: rule.from_stage,
        condition: Some(condition),
        action: rule.action,
        to_stage: rule.to_stage,
    })
}

fn seed(seed: SeedBody) -> Result<u64, Refusal> {
    match seed {
        SeedBody::Number(seed) => Ok(seed),
        SeedBody::Text(text) => text.trim().parse().map_err(|_| {
            refused(
                "invalid_argument",
                format!(
                    "--file: `seed` is a whole number from 0 to {}, not `{}`",
                    u64::MAX,
                    kit::status::quote(&text)
                ),
            )
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_stages_with_settings_and_a_rule_with_placements() {
        let text = r#"{
            "name": "Summer Open",
            "stages": [
                {"format": "swiss", "settings": {"rounds": 5}},
                {"format": "single_elimination"}
            ],
            "advancement": [
                {"fromStage": 1, "placements": [1, 8], "action": "advance", "toStage": 2},
                {"fromStage": 1, "placements": [9, null], "action": "eliminate"},
                {"fromStage": 1, "points": [null, 6], "action": "eliminate"}
            ],
            "maxParticipants": 64,
            "checkIn": true,
            "seed": "18446744073709551615"
        }"#;
        let request = create_request(Game::Riftbound, text).expect("a good body");
        assert_eq!(request.game, proto::game::to_wire(Game::Riftbound));
        assert_eq!(request.name, "Summer Open");
        assert_eq!(
            request.stages[0].settings_json.as_deref(),
            Some(r#"{"rounds":5}"#)
        );
        assert_eq!(request.stages[1].settings_json, None);
        assert_eq!(
            request.advancement[0],
            pb::AdvancementRule {
                from_stage: 1,
                condition: Some(pb::advancement_rule::Condition::Placements(
                    pb::PlacementRange { from: 1, to: 8 }
                )),
                action: "advance".into(),
                to_stage: Some(2),
            }
        );
        assert_eq!(
            request.advancement[1].condition,
            Some(pb::advancement_rule::Condition::Placements(
                pb::PlacementRange {
                    from: 9,
                    to: OPEN_LAST_PLACE
                }
            ))
        );
        assert_eq!(
            request.advancement[2].condition,
            Some(pb::advancement_rule::Condition::Points(pb::PointsRange {
                min: None,
                max: Some(6.0)
            }))
        );
        assert_eq!(
            (request.max_participants, request.check_in, request.seed),
            (Some(64), true, Some(u64::MAX))
        );
        assert_eq!(request.cut_tiebreaker, None);
    }

    #[test]
    fn leaves_check_in_off_and_the_seed_to_the_service_when_absent() {
        let text = r#"{"name": "Open", "stages": [{"format": "swiss"}], "checkIn": null}"#;
        let request = create_request(Game::Lor, text).expect("a good body");
        assert_eq!((request.check_in, request.seed), (false, None));
        assert!(request.advancement.is_empty());
    }

    #[test]
    fn refuses_an_unknown_member_naming_it() {
        let text = r#"{"name": "Open", "stages": [{"format": "swiss"}], "maxPlayers": 8}"#;
        let err = create_request(Game::Lor, text).expect_err("refused");
        assert_eq!(err.code, "invalid_argument");
        assert!(
            err.message
                .starts_with("--file: unknown field `maxPlayers`"),
            "{}",
            err.message
        );
    }

    #[test]
    fn refuses_a_rule_with_both_placements_and_points() {
        let text = r#"{"name": "Open", "stages": [{"format": "swiss"}],
            "advancement": [{"fromStage": 1, "placements": [1, 4], "points": [9, null],
                             "action": "advance"}]}"#;
        let err = create_request(Game::Lor, text).expect_err("refused");
        assert_eq!(
            err.message,
            "--file: advancement[0]: give either `placements` or `points`"
        );
    }
}
