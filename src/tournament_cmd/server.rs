//! `turnier tournament … --server URL ID`: a tournament of a running platform over gRPC
//! (`turnier.tournaments.v1.TournamentService`), as an organizer scripts it.
//!
//! Every answer is the response message in the proto3 JSON mapping (camelCase names, members
//! at their default value left out, 64-bit integers as strings), with each `…Json` member
//! replaced by the JSON it holds under the name without the suffix (a stage's `settingsJson`
//! is printed as `settings`). The token (`--token`, `TURNIER_TOKEN`) is sent as
//! `authorization: Bearer …` and never printed; a refusal is printed as `server_cmd` prints
//! one.

use std::path::Path;

use kit::clients::TournamentsClient;
use proto::tournaments::v1 as pb;
use serde_json::Value;

use super::TournamentCommand;
use super::create_body::create_request;
use crate::server_cmd::{Connection, Refusal, game, read_input, refused};

/// Returns the JSON a server command prints.
pub(super) async fn answer(command: TournamentCommand) -> Result<String, Refusal> {
    match command {
        TournamentCommand::Create {
            game: name,
            file,
            connection,
        } => {
            let game = game(&name)?;
            let from_stdin = file.as_os_str() == "-";
            let text = read_input((!from_stdin).then_some(file.as_path()))?;
            let request = create_request(game, &text)?;
            printed(&client(&connection)?.create_tournament(request).await?)
        }
        TournamentCommand::Show { id, connection } => printed(
            &client(&connection)?
                .get_tournament(pb::GetTournamentRequest { id })
                .await?,
        ),
        TournamentCommand::Register {
            id,
            guest,
            connection,
        } => printed(
            &client(&connection)?
                .register(pb::RegisterRequest {
                    id,
                    display_name: guest,
                })
                .await?,
        ),
        TournamentCommand::Start { id, connection } => printed(
            &client(&connection)?
                .start_tournament(pb::StartTournamentRequest { id })
                .await?,
        ),
        TournamentCommand::Pair {
            id: Some(id),
            stage: _,
            connection,
        } => printed(
            &client(&connection)?
                .pair_round(pb::PairRoundRequest {
                    id,
                    pairings: Vec::new(),
                })
                .await?,
        ),
        TournamentCommand::Report {
            id,
            match_id,
            games_a,
            games_b,
            connection,
        } => printed(
            &client(&connection)?
                .report_result(pb::ReportResultRequest {
                    id,
                    match_id,
                    games: vec![games_a, games_b],
                })
                .await?,
        ),
        TournamentCommand::Drop {
            id,
            registration,
            connection,
        } => printed(
            &client(&connection)?
                .change_registration(pb::ChangeRegistrationRequest {
                    id,
                    registration,
                    change: Some(pb::change_registration_request::Change::Drop(true)),
                })
                .await?,
        ),
        TournamentCommand::Advance { id, connection } => printed(
            &client(&connection)?
                .advance_tournament(pb::AdvanceTournamentRequest { id })
                .await?,
        ),
        TournamentCommand::Standings {
            id: Some(id),
            stage,
            connection,
        } => printed(
            &client(&connection)?
                .get_standings(pb::GetStandingsRequest {
                    id,
                    // 0 asks for the current stage.
                    stage: stage.unwrap_or(0),
                })
                .await?,
        ),
        TournamentCommand::Export {
            id,
            stage,
            out_dir,
            connection,
        } => {
            let exported = client(&connection)?
                .export_stage(pb::ExportStageRequest { id, stage })
                .await?;
            if let Some(dir) = out_dir {
                write_export(&dir, &exported)?;
            }
            printed(&exported)
        }
        // `run` computes these in process; they reach here only if that ever changes.
        TournamentCommand::Standings { id: None, .. }
        | TournamentCommand::Pair { id: None, .. } => {
            Err(refused("invalid_argument", "give the tournament's ID"))
        }
    }
}

fn client(connection: &Connection) -> Result<TournamentsClient, Refusal> {
    let client = TournamentsClient::connect_lazy(&connection.server)
        .map_err(|err| refused("invalid_argument", format!("--server: {err}")))?;
    Ok(client.with_bearer(connection.bearer()))
}

/// Writes `event.json` and `stage.json` into `dir`, as the offline commands read them.
fn write_export(dir: &Path, exported: &pb::ExportStageResponse) -> Result<(), Refusal> {
    let unwritable = |path: &Path, err: std::io::Error| {
        refused(
            "unwritable_output",
            format!("cannot write {}: {err}", path.display()),
        )
    };
    std::fs::create_dir_all(dir).map_err(|err| unwritable(dir, err))?;
    for (name, text) in [
        ("event.json", &exported.event_json),
        ("stage.json", &exported.stage_json),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, format!("{text}\n")).map_err(|err| unwritable(&path, err))?;
    }
    Ok(())
}

/// Returns the JSON line printed for `message` (see the module's documentation).
fn printed(message: &impl serde::Serialize) -> Result<String, Refusal> {
    let json = serde_json::to_value(message)
        .map_err(|err| refused("internal", format!("cannot write the answer: {err}")))?;
    Ok(with_json_members_parsed(json).to_string())
}

/// Replaces every member `xJson` holding JSON text with `x` holding that JSON, at any depth,
/// keeping the members' order. Text that is not JSON stays as it came.
fn with_json_members_parsed(value: Value) -> Value {
    match value {
        Value::Object(members) => Value::Object(
            members
                .into_iter()
                .map(|(key, value)| {
                    if let Some(name) = key.strip_suffix("Json")
                        && let Value::String(text) = &value
                        && let Ok(parsed) = serde_json::from_str(text)
                    {
                        return (name.to_owned(), parsed);
                    }
                    (key, with_json_members_parsed(value))
                })
                .collect(),
        ),
        Value::Array(items) => {
            Value::Array(items.into_iter().map(with_json_members_parsed).collect())
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn prints_a_tournament_with_its_stage_settings_as_json() {
        let response = pb::TournamentResponse {
            tournament: Some(pb::Tournament {
                id: "t_1".into(),
                name: "Open".into(),
                stages: vec![pb::Stage {
                    number: 1,
                    format: "swiss".into(),
                    settings_json: r#"{"rounds":5,"pairing_style":"fold"}"#.into(),
                    state: "pending".into(),
                    rounds: 0,
                }],
                current_stage: 1,
                seed: 7,
                ..pb::Tournament::default()
            }),
        };
        let printed: Value =
            serde_json::from_str(&printed(&response).expect("printed")).expect("printed JSON");
        assert_eq!(
            printed,
            json!({"tournament": {
                "id": "t_1",
                "name": "Open",
                "stages": [{
                    "number": 1,
                    "format": "swiss",
                    "settings": {"rounds": 5, "pairing_style": "fold"},
                    "state": "pending"
                }],
                "currentStage": 1,
                "seed": "7"
            }})
        );
    }

    #[test]
    fn prints_an_export_as_event_and_stage() {
        let exported = pb::ExportStageResponse {
            event_json: r#"{"players":[]}"#.into(),
            stage_json: r#"{"format":"swiss"}"#.into(),
        };
        assert_eq!(
            printed(&exported).expect("printed"),
            r#"{"event":{"players":[]},"stage":{"format":"swiss"}}"#
        );
    }
}
