//! `turnier tournament … --server URL ID`: a tournament of a running platform over gRPC
//! (`turnier.tournaments.v1.TournamentService`), as an organizer scripts it.
//!
//! Every answer is the HTTP API's JSON for the same call, written by
//! `proto::tournaments_json` as the gateway writes it (`{"tournament"}`, `{"registration"}`,
//! `{"round"}`, `{"match"}`, `{"stage", "standings"}`, `{"event", "stage"}`), and the create
//! file is read as the gateway reads its body, by the same reader. The token (`--token`,
//! `TURNIER_TOKEN`) is sent as `authorization: Bearer …` and never printed; a refusal is
//! printed as `server_cmd` prints one.

use std::path::Path;

use kit::clients::TournamentsClient;
use proto::game::Game;
use proto::tournaments::v1 as pb;
use proto::tournaments_json::{self, CreateTournamentBody};

use super::TournamentCommand;
use crate::server_cmd::{Connection, Refusal, game, read_input, refused};

/// Returns the JSON a server command prints.
pub(super) async fn answer(command: TournamentCommand) -> Result<String, Refusal> {
    answer_json(command).await.map(|json| json.to_string())
}

/// Returns the answer of the call a server command makes.
async fn answer_json(command: TournamentCommand) -> Result<serde_json::Value, Refusal> {
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
            Ok(tournaments_json::tournament_answer(
                &client(&connection)?.create_tournament(request).await?,
            ))
        }
        TournamentCommand::Show { id, connection } => Ok(tournaments_json::tournament_answer(
            &client(&connection)?
                .get_tournament(pb::GetTournamentRequest { id })
                .await?,
        )),
        TournamentCommand::Register {
            id,
            guest,
            connection,
        } => Ok(tournaments_json::registration_answer(
            &client(&connection)?
                .register(pb::RegisterRequest {
                    id,
                    display_name: guest,
                })
                .await?,
        )),
        TournamentCommand::Start { id, connection } => Ok(tournaments_json::tournament_answer(
            &client(&connection)?
                .start_tournament(pb::StartTournamentRequest { id })
                .await?,
        )),
        TournamentCommand::Pair {
            id: Some(id),
            stage: _,
            connection,
        } => Ok(tournaments_json::round_answer(
            &client(&connection)?
                .pair_round(pb::PairRoundRequest {
                    id,
                    pairings: Vec::new(),
                })
                .await?,
        )),
        TournamentCommand::Report {
            id,
            match_id,
            games_a,
            games_b,
            finish,
            eliminations,
            connection,
        } => Ok(tournaments_json::match_answer(
            &client(&connection)?
                .report_result(pb::ReportResultRequest {
                    id,
                    match_id,
                    games: games_a.into_iter().chain(games_b).collect(),
                    finish,
                    eliminations,
                })
                .await?,
        )),
        TournamentCommand::Drop {
            id,
            registration,
            connection,
        } => Ok(tournaments_json::registration_answer(
            &client(&connection)?
                .change_registration(pb::ChangeRegistrationRequest {
                    id,
                    registration,
                    change: Some(pb::change_registration_request::Change::Drop(true)),
                })
                .await?,
        )),
        TournamentCommand::Advance { id, connection } => Ok(tournaments_json::tournament_answer(
            &client(&connection)?
                .advance_tournament(pb::AdvanceTournamentRequest { id })
                .await?,
        )),
        TournamentCommand::Standings {
            id: Some(id),
            stage,
            connection,
        } => Ok(tournaments_json::standings_answer(
            &client(&connection)?
                .get_standings(pb::GetStandingsRequest {
                    id,
                    // 0 asks for the current stage.
                    stage: stage.unwrap_or(0),
                })
                .await?,
        )),
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
            Ok(tournaments_json::export_answer(&exported))
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

/// Reads the create file's `text` as the HTTP API reads its body; a refusal names `--file`.
fn create_request(game: Game, text: &str) -> Result<pb::CreateTournamentRequest, Refusal> {
    let invalid = |message: String| refused("invalid_argument", format!("--file: {message}"));
    let body: CreateTournamentBody =
        serde_json::from_str(text).map_err(|err| invalid(err.to_string()))?;
    tournaments_json::create_request(game, body).map_err(|err| invalid(err.message))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_create_file_as_the_http_api_reads_its_body() {
        let text = r#"{"name": "Open", "stages": [{"format": "swiss", "settings": {"rounds": 5}}],
                       "seed": "18446744073709551615"}"#;
        let request = create_request(Game::Riftbound, text).expect("a good body");
        assert_eq!(request.game, proto::game::to_wire(Game::Riftbound));
        assert_eq!(
            request.stages[0].settings_json.as_deref(),
            Some(r#"{"rounds":5}"#)
        );
        assert_eq!(request.seed, Some(u64::MAX));
    }

    #[test]
    fn refuses_an_unknown_member_naming_it_and_the_file() {
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
    fn refuses_a_rule_with_both_placements_and_points_naming_the_file() {
        let text = r#"{"name": "Open", "stages": [{"format": "swiss"}],
            "advancement": [{"fromStage": 1, "placements": [1, 4], "points": [9, null],
                             "action": "advance"}]}"#;
        let err = create_request(Game::Lor, text).expect_err("refused");
        assert_eq!(err.code, "invalid_argument");
        assert_eq!(
            err.message,
            "--file: advancement rule 1: give either `placements` or `points`"
        );
    }
}
