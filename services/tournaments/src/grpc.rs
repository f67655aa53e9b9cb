//! The tonic implementation of `turnier.tournaments.v1.TournamentService`: each method reads
//! its caller and converts (stages from 1 on the wire, from 0 inside); the work is in
//! `crate::service`, errors become `Status` once, in `crate::error`.

use std::pin::Pin;
use std::time::SystemTime;

use kit::auth::{Bearer, Caller};
use kit::timestamp::{from_millis, to_millis, to_proto};
use proto::tournaments::v1 as pb;
use proto::tournaments::v1::tournament_service_server::{
    TournamentService, TournamentServiceServer,
};
use serde_json::{Map, Value};
use tokio_stream::Stream;
use tonic::{Request, Response, Status};

use crate::domain::defaults::{Format, GameDefaults, PairingStyle};
use crate::domain::registration::RegistrationState;
use crate::domain::result::ResultState;
use crate::domain::stages::{Action, AdvancementRule, Condition, CutTiebreaker};
use crate::error::Error;
use crate::run::create::{CreateInput, StageInput, settings_view, stage_defaults};
use crate::run::fact::{DeckSettings, DecklistVisibility, PinnedRule};
use crate::run::{MatchRun, Run, RunError};
use crate::service::{DeckSettingsInput, RegistrationChange, Reported, TimerChange, Tournaments};
use crate::store::Submission;

/// The `TournamentService` implementation.
#[derive(Debug, Clone)]
pub struct Api {
    tournaments: Tournaments,
}

impl Api {
    /// Serves `tournaments`.
    pub fn new(tournaments: Tournaments) -> Self {
        Self { tournaments }
    }
}

/// Returns the tonic server for this service.
pub fn server(api: Api) -> TournamentServiceServer<Api> {
    TournamentServiceServer::new(api)
}

fn bad(field: &'static str, problem: impl Into<String>) -> Error {
    Error::BadRequest {
        field,
        problem: problem.into(),
    }
}

fn spec_value<T: serde::de::DeserializeOwned>(
    field: &'static str,
    value: &str,
) -> Result<T, Error> {
    serde_json::from_value(Value::String(value.to_owned()))
        .map_err(|_| bad(field, format!("unknown value `{value}`")))
}

/// A stage number from the wire (from 1; 0: the current stage) as an index.
fn stage_index(run: &Run, stage: u32) -> Result<usize, Error> {
    match stage {
        0 => Ok(run.current_stage),
        n => {
            let index = usize::try_from(n - 1).unwrap_or(usize::MAX);
            run.stage(index)?;
            Ok(index)
        }
    }
}

fn rule_from_wire(at: usize, rule: &pb::AdvancementRule) -> Result<AdvancementRule, Error> {
    let from_stage = usize::try_from(rule.from_stage).unwrap_or(0);
    if from_stage == 0 {
        return Err(bad(
            "advancement",
            format!("rule {}: `fromStage` counts from 1", at + 1),
        ));
    }
    let condition = match &rule.condition {
        Some(pb::advancement_rule::Condition::Placements(range)) => Condition::PlacementRange {
            from: range.from,
            to: range.to,
        },
        Some(pb::advancement_rule::Condition::Points(range)) => Condition::PointsRange {
            min: range.min,
            max: range.max,
        },
        None => {
            return Err(bad(
                "advancement",
                format!("rule {}: give `placements` or `points`", at + 1),
            ));
        }
    };
    let action = match rule.action.as_str() {
        "advance" => Action::Advance {
            to_stage: match rule.to_stage {
                Some(0) => {
                    return Err(bad(
                        "advancement",
                        format!("rule {}: `toStage` counts from 1", at + 1),
                    ));
                }
                Some(n) => usize::try_from(n - 1).unwrap_or(usize::MAX),
                None => from_stage,
            },
        },
        "eliminate" => Action::Eliminate,
        other => {
            return Err(bad(
                "advancement",
                format!(
                    "rule {}: `action` is `advance` or `eliminate`, not `{other}`",
                    at + 1
                ),
            ));
        }
    };
    Ok(AdvancementRule {
        from_stage: from_stage - 1,
        condition,
        action,
    })
}

fn rule_to_wire(rule: &AdvancementRule) -> pb::AdvancementRule {
    let wire = |n: usize| u32::try_from(n + 1).unwrap_or(u32::MAX);
    pb::AdvancementRule {
        from_stage: wire(rule.from_stage),
        condition: Some(match rule.condition {
            Condition::PlacementRange { from, to } => {
                pb::advancement_rule::Condition::Placements(pb::PlacementRange { from, to })
            }
            Condition::PointsRange { min, max } => {
                pb::advancement_rule::Condition::Points(pb::PointsRange { min, max })
            }
        }),
        action: match rule.action {
            Action::Advance { .. } => "advance".into(),
            Action::Eliminate => "eliminate".into(),
        },
        to_stage: match rule.action {
            Action::Advance { to_stage } => Some(wire(to_stage)),
            Action::Eliminate => None,
        },
    }
}

fn create_input(request: pb::CreateTournamentRequest) -> Result<(CreateInput, Option<u64>), Error> {
    let game = proto::game::from_wire(request.game).ok_or_else(|| bad("game", "give a game"))?;
    let stages = request
        .stages
        .iter()
        .map(|stage| {
            let format: Format = spec_value("stages", &stage.format)?;
            let settings = match stage.settings_json.as_deref() {
                None | Some("") => Map::new(),
                Some(text) => match serde_json::from_str(text) {
                    Ok(Value::Object(map)) => map,
                    Ok(Value::Null) => Map::new(),
                    _ => return Err(bad("stages", "a stage's `settings` is a JSON object")),
                },
            };
            Ok(StageInput { format, settings })
        })
        .collect::<Result<Vec<_>, Error>>()?;
    let rules = request
        .advancement
        .iter()
        .enumerate()
        .map(|(at, rule)| rule_from_wire(at, rule))
        .collect::<Result<Vec<_>, Error>>()?;
    let cut_tiebreaker = match request.cut_tiebreaker.as_deref() {
        None | Some("") => CutTiebreaker::default(),
        Some(value) => spec_value("cutTiebreaker", value)?,
    };
    Ok((
        CreateInput {
            game,
            name: request.name,
            stages,
            rules,
            cut_tiebreaker,
            max_participants: request.max_participants,
            check_in: request.check_in,
            seed: 0,
        },
        request.seed,
    ))
}

fn deck_settings_input(settings: pb::DeckSettingsInput) -> Result<DeckSettingsInput, Error> {
    let visibility = match settings.decklist_visibility.as_deref() {
        None | Some("") => DecklistVisibility::default(),
        Some(value) => spec_value("deckSettings.decklistVisibility", value)?,
    };
    let deadline_ms = settings
        .deadline
        .as_ref()
        .map(|time| {
            kit::timestamp::from_proto(time)
                .map(to_millis)
                .ok_or_else(|| bad("deckSettings.deadline", "not a time"))
        })
        .transpose()?;
    Ok(DeckSettingsInput {
        decks_to_bring: settings.decks_to_bring,
        banned_cards: settings.banned_cards,
        rules: [
            settings.card_rule,
            settings.deck_rule,
            settings.deckset_rule,
        ],
        deadline_ms,
        decklist_visibility: visibility,
        drop_without_lineup: settings.drop_without_lineup,
    })
}

fn pinned(rule: &PinnedRule) -> pb::PinnedRule {
    pb::PinnedRule {
        ruleset: rule.ruleset.clone(),
        version: rule.version,
        name: rule.name.clone(),
        source: rule.source.clone(),
        built_in: rule.built_in,
        direct_bans: rule.direct_bans.clone(),
    }
}

fn deck_settings(settings: &DeckSettings) -> pb::DeckSettings {
    pb::DeckSettings {
        decks_to_bring: settings.decks_to_bring,
        banned_cards: settings.banned_cards.clone(),
        card: Some(pinned(&settings.card)),
        deck: Some(pinned(&settings.deck)),
        deckset: Some(pinned(&settings.deckset)),
        deadline: settings.deadline_ms.map(|ms| to_proto(from_millis(ms))),
        decklist_visibility: spec_name(&settings.decklist_visibility),
        drop_without_lineup: settings.drop_without_lineup,
    }
}

fn submission_of(submission: &Submission) -> pb::Submission {
    pb::Submission {
        id: submission.id.clone(),
        registration: submission.registration.clone(),
        state: submission.state.clone(),
        issues: submission.issues.clone(),
        decks: submission.decks.clone(),
        submit_time: Some(to_proto(from_millis(submission.submit_time_ms))),
        check_time: submission.check_time_ms.map(|ms| to_proto(from_millis(ms))),
        failure: submission.failure.clone(),
    }
}

fn webhook_of(hook: &crate::run::fact::Webhook) -> pb::Webhook {
    pb::Webhook {
        id: hook.id.clone(),
        url: hook.url.clone(),
        events: hook.events.clone(),
        create_time: Some(to_proto(from_millis(hook.create_time_ms))),
    }
}

fn delivery_of(delivery: &crate::store::Delivery) -> pb::WebhookDelivery {
    pb::WebhookDelivery {
        id: delivery.id.clone(),
        event: delivery.event.clone(),
        state: delivery.state.clone(),
        attempts: delivery.attempts,
        last_status: delivery.last_status.map(u32::from),
        last_error: delivery.last_error.clone().unwrap_or_default(),
        create_time: Some(to_proto(from_millis(delivery.create_time_ms))),
        update_time: Some(to_proto(from_millis(delivery.update_time_ms))),
        body: delivery.body.clone(),
    }
}

fn spec_name<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// A tournament on the wire.
pub fn tournament(run: &Run) -> pb::Tournament {
    let placed = run.roster.placed();
    let waitlisted = run
        .roster
        .registrations
        .iter()
        .filter(|r| r.state == RegistrationState::Waitlisted)
        .count();
    pb::Tournament {
        id: run.id.clone(),
        game: proto::game::to_wire(run.game),
        name: run.name.clone(),
        state: run.phase.name().into(),
        organizers: run
            .organizers
            .iter()
            .map(|o| pb::Organizer {
                account: o.account.clone(),
                username: o.username.clone(),
            })
            .collect(),
        stages: run
            .stages
            .iter()
            .zip(1..)
            .map(|(stage, number)| pb::Stage {
                number,
                format: stage.format().as_str().into(),
                settings_json: Value::Object(settings_view(&stage.record)).to_string(),
                state: stage.state.name().into(),
                rounds: count(stage.rounds.len()),
            })
            .collect(),
        current_stage: count(run.current_stage + 1),
        current_round: count(
            run.stages
                .get(run.current_stage)
                .map_or(0, |s| s.rounds.len()),
        ),
        max_participants: run.roster.max_participants,
        check_in: run.roster.check_in,
        registration_open: run.registration_open,
        seed: run.seed,
        placements: run.placements.clone(),
        registered: count(placed),
        waitlisted: count(waitlisted),
        cut_tiebreaker: spec_name(&run.plan.cut_tiebreaker),
        advancement: run.plan.rules.iter().map(rule_to_wire).collect(),
        create_time: Some(to_proto(from_millis(run.create_time_ms))),
        seq: run.seq,
        deck_settings: run.deck_settings.as_ref().map(deck_settings),
    }
}

fn registration(run: &Run, id: &str) -> Result<pb::Registration, Error> {
    let found = run.roster.get(id).ok_or_else(|| {
        Error::Run(RunError::Roster(
            crate::domain::registration::RosterError::Unknown(id.to_owned()),
        ))
    })?;
    Ok(pb::Registration {
        id: found.id.clone(),
        display_name: found.display_name.clone(),
        account: found.account.clone(),
        state: found.state.name().into(),
        fixed_table: run.fixed_tables.get(id).copied(),
        lineup_unlocked: run.unlocked_lineups.contains(id),
    })
}

fn match_of(run: &Run, stage: usize, round: usize, played: &MatchRun, now_ms: i64) -> pb::Match {
    let timer = run
        .stages
        .get(stage)
        .and_then(|s| s.rounds.iter().find(|r| r.number == round))
        .map(|r| &r.timer);
    pb::Match {
        id: played.paired.id.clone(),
        table: played.paired.table,
        players: played.paired.players.clone(),
        bye: played.paired.bye,
        label: played.paired.label.clone(),
        result: match (&played.result, &played.lobby) {
            (_, Some(lobby)) => Some(pb::MatchResult {
                games: Vec::new(),
                state: "final".into(),
                corrections: played.corrections,
                finish: lobby.finish.clone(),
                eliminations: lobby.eliminations.clone(),
                reported: Vec::new(),
            }),
            (Some(result), None) => Some(pb::MatchResult {
                games: result.games.to_vec(),
                state: result.state.name().into(),
                corrections: played.corrections,
                finish: Vec::new(),
                eliminations: Vec::new(),
                reported: if result.state == ResultState::Final {
                    Vec::new()
                } else {
                    result.claims.iter().map(Option::is_some).collect()
                },
            }),
            (None, None) => None,
        },
        time_left_ms: timer
            .filter(|t| t.started() && !played.paired.bye)
            .map(|t| t.left_ms(Some(&played.paired.id), now_ms)),
        stage: count(stage + 1),
        round: count(round),
    }
}

fn round_of(run: &Run, stage: usize, number: usize) -> Result<pb::Round, Error> {
    let now = to_millis(SystemTime::now());
    let found = run
        .stage(stage)?
        .rounds
        .iter()
        .find(|r| r.number == number)
        .ok_or(RunError::UnknownRound {
            stage: stage + 1,
            round: number,
        })?;
    Ok(pb::Round {
        stage: count(stage + 1),
        number: count(number),
        matches: found
            .matches
            .iter()
            .map(|played| match_of(run, stage, number, played, now))
            .collect(),
        late_losses: found.late_losses.clone(),
        manual: found.manual,
        timer: Some(pb::RoundTimer {
            minutes: found.timer.minutes,
            started: found.timer.started(),
            running: found.timer.running_since_ms.is_some(),
            time_left_ms: found.timer.left_ms(None, now),
        }),
    })
}

fn current_round(run: &Run) -> Result<pb::Round, Error> {
    let stage = run.current_stage;
    let number = run.stage(stage)?.rounds.len();
    round_of(run, stage, number)
}

fn standings(run: &Run, stage: usize) -> Result<pb::StandingsResponse, Error> {
    let shown = |player: &str| run.roster.get(player);
    if let Some((table, lobbies)) = run.free_for_all_standings(stage)? {
        return Ok(pb::StandingsResponse {
            stage: count(stage + 1),
            standings: table
                .into_iter()
                .map(|row| pb::Standing {
                    rank: row.rank,
                    player: row.player.0.clone(),
                    points: row.points.value(),
                    display_name: shown(row.player.as_str())
                        .map(|r| r.display_name.clone())
                        .unwrap_or_default(),
                    dropped: shown(row.player.as_str())
                        .is_some_and(|r| r.state == RegistrationState::Dropped),
                    matches: row.matches,
                    ..Default::default()
                })
                .collect(),
            lobbies: lobbies
                .into_iter()
                .map(|lobby| pb::LobbyWinner {
                    lobby: count(lobby.lobby),
                    players: lobby.players.iter().map(|p| p.0.clone()).collect(),
                    matches_played: count(lobby.matches_played),
                    winner: lobby.winner.as_ref().map(|w| w.player.0.clone()),
                    won_in_match: lobby.winner.as_ref().map_or(0, |w| count(w.match_number)),
                    points: lobby.winner.as_ref().map_or(0.0, |w| w.points.value()),
                    decided_by: lobby
                        .winner
                        .as_ref()
                        .map(|w| spec_name(&w.decided_by))
                        .unwrap_or_default(),
                })
                .collect(),
        });
    }
    let table = run.standings(stage)?;
    Ok(pb::StandingsResponse {
        stage: count(stage + 1),
        standings: table
            .standings
            .into_iter()
            .map(|standing| {
                let registration = shown(standing.player.as_str());
                pb::Standing {
                    rank: standing.rank,
                    player: standing.player.0.clone(),
                    points: standing.points.value(),
                    record: vec![
                        standing.record.wins,
                        standing.record.losses,
                        standing.record.draws,
                    ],
                    tiebreakers: standing
                        .tiebreakers
                        .iter()
                        .map(|(tiebreaker, value)| pb::Tiebreaker {
                            name: tiebreaker.as_str().into(),
                            value: value.value(),
                        })
                        .collect(),
                    match_win_percentage: standing.match_win_percentage.value(),
                    display_name: registration
                        .map(|r| r.display_name.clone())
                        .unwrap_or_default(),
                    dropped: registration.is_some_and(|r| r.state == RegistrationState::Dropped),
                    matches: standing.record.matches(),
                }
            })
            .collect(),
        lobbies: Vec::new(),
    })
}

/// A tournament as the answer of the calls that return one.
fn answer(run: &Run) -> Response<pb::TournamentResponse> {
    Response::new(pb::TournamentResponse {
        tournament: Some(tournament(run)),
    })
}

type EventStream = Pin<Box<dyn Stream<Item = Result<pb::TournamentEvent, Status>> + Send>>;

#[tonic::async_trait]
impl TournamentService for Api {
    async fn create_tournament(
        &self,
        request: Request<pb::CreateTournamentRequest>,
    ) -> Result<Response<pb::TournamentResponse>, Status> {
        let caller = Caller::of(&request);
        let (input, seed) = create_input(request.into_inner())?;
        let run = self.tournaments.create(&caller, input, seed).await?;
        Ok(answer(&run))
    }

    async fn get_tournament(
        &self,
        request: Request<pb::GetTournamentRequest>,
    ) -> Result<Response<pb::TournamentResponse>, Status> {
        let caller = Caller::of(&request);
        let run = self.tournaments.get(&caller, &request.get_ref().id).await?;
        Ok(answer(&run))
    }

    async fn list_tournaments(
        &self,
        request: Request<pb::ListTournamentsRequest>,
    ) -> Result<Response<pb::ListTournamentsResponse>, Status> {
        let caller = Caller::of(&request);
        let game = proto::game::from_wire(request.get_ref().game)
            .ok_or_else(|| bad("game", "give a game"))?;
        let mut tournaments = Vec::new();
        for header in self.tournaments.list(game).await? {
            let run = self.tournaments.get(&caller, &header.id).await?;
            tournaments.push(tournament(&run));
        }
        Ok(Response::new(pb::ListTournamentsResponse { tournaments }))
    }

    async fn get_stage_defaults(
        &self,
        request: Request<pb::GetStageDefaultsRequest>,
    ) -> Result<Response<pb::StageDefaultsResponse>, Status> {
        let request = request.into_inner();
        let game =
            proto::game::from_wire(request.game).ok_or_else(|| bad("game", "give a game"))?;
        let format: Format = match request.format.as_str() {
            "" => Format::Swiss,
            format => spec_value("format", format)?,
        };
        let index = usize::try_from(request.stage.max(1) - 1).unwrap_or(usize::MAX);
        let settings = stage_defaults(game, index, format).map_err(Error::from)?;
        Ok(Response::new(pb::StageDefaultsResponse {
            format: format.as_str().to_owned(),
            settings_json: Value::Object(settings).to_string(),
            formats: GameDefaults::of(game)
                .formats
                .iter()
                .map(|format| format.as_str().to_owned())
                .collect(),
        }))
    }

    async fn update_tournament(
        &self,
        request: Request<pb::UpdateTournamentRequest>,
    ) -> Result<Response<pb::TournamentResponse>, Status> {
        let caller = Caller::of(&request);
        // The organizer's own token reads their rulesets when deck settings are saved.
        let bearer = Bearer::from_metadata(request.metadata()).map_err(|err| err.to_failure())?;
        let request = request.into_inner();
        let mut run = self.tournaments.get(&caller, &request.id).await?;
        if let Some(settings) = request.deck_settings {
            let input = deck_settings_input(settings)?;
            run = self
                .tournaments
                .set_deck_settings(&caller, bearer, &request.id, input)
                .await?;
        }
        for patch in &request.stages {
            if patch.stage == 0 {
                return Err(bad("stages", "`stage` counts from 1").into());
            }
            let style: Option<PairingStyle> = patch
                .pairing_style
                .as_deref()
                .map(|style| spec_value("pairingStyle", style))
                .transpose()?;
            run = self
                .tournaments
                .change_stage(
                    &caller,
                    &request.id,
                    usize::try_from(patch.stage - 1).unwrap_or(usize::MAX),
                    style,
                    patch.prevent_repeat_matchups,
                    patch.round_minutes,
                )
                .await?;
        }
        if let Some(open) = request.registration_open {
            run = self
                .tournaments
                .set_registration(&caller, &request.id, open)
                .await?;
        }
        Ok(answer(&run))
    }

    async fn add_organizer(
        &self,
        request: Request<pb::AddOrganizerRequest>,
    ) -> Result<Response<pb::TournamentResponse>, Status> {
        let caller = Caller::of(&request);
        let request = request.into_inner();
        let run = self
            .tournaments
            .add_organizer(&caller, &request.id, &request.username)
            .await?;
        Ok(answer(&run))
    }

    async fn start_tournament(
        &self,
        request: Request<pb::StartTournamentRequest>,
    ) -> Result<Response<pb::TournamentResponse>, Status> {
        let caller = Caller::of(&request);
        let run = self
            .tournaments
            .start(&caller, &request.get_ref().id)
            .await?;
        Ok(answer(&run))
    }

    async fn advance_tournament(
        &self,
        request: Request<pb::AdvanceTournamentRequest>,
    ) -> Result<Response<pb::TournamentResponse>, Status> {
        let caller = Caller::of(&request);
        let run = self
            .tournaments
            .advance(&caller, &request.get_ref().id)
            .await?;
        Ok(answer(&run))
    }

    async fn register(
        &self,
        request: Request<pb::RegisterRequest>,
    ) -> Result<Response<pb::RegistrationResponse>, Status> {
        let caller = Caller::of(&request);
        let request = request.into_inner();
        let (run, id) = self
            .tournaments
            .register(&caller, &request.id, request.display_name.as_deref())
            .await?;
        Ok(Response::new(pb::RegistrationResponse {
            registration: Some(registration(&run, &id)?),
        }))
    }

    async fn list_registrations(
        &self,
        request: Request<pb::ListRegistrationsRequest>,
    ) -> Result<Response<pb::ListRegistrationsResponse>, Status> {
        let caller = Caller::of(&request);
        let run = self.tournaments.get(&caller, &request.get_ref().id).await?;
        let registrations = run
            .roster
            .registrations
            .iter()
            .map(|r| registration(&run, &r.id))
            .collect::<Result<Vec<_>, Error>>()?;
        Ok(Response::new(pb::ListRegistrationsResponse {
            registrations,
        }))
    }

    async fn change_registration(
        &self,
        request: Request<pb::ChangeRegistrationRequest>,
    ) -> Result<Response<pb::RegistrationResponse>, Status> {
        use pb::change_registration_request::Change;
        let caller = Caller::of(&request);
        let request = request.into_inner();
        let change = match request.change {
            Some(Change::Unregister(true)) => RegistrationChange::Unregister,
            Some(Change::CheckIn(true)) => RegistrationChange::CheckIn,
            Some(Change::Drop(true)) => RegistrationChange::Drop,
            Some(Change::Reinstate(true)) => RegistrationChange::Reinstate,
            Some(Change::FixedTable(table)) => {
                RegistrationChange::FixTable((table > 0).then_some(table))
            }
            _ => return Err(bad("change", "give one change").into()),
        };
        let run = self
            .tournaments
            .change_registration(&caller, &request.id, &request.registration, change)
            .await?;
        // An unregistered player is gone from the roster: answer what it was.
        let shown = match registration(&run, &request.registration) {
            Ok(shown) => shown,
            Err(_) if change == RegistrationChange::Unregister => pb::Registration {
                id: request.registration.clone(),
                state: "unregistered".into(),
                ..Default::default()
            },
            Err(err) => return Err(err.into()),
        };
        Ok(Response::new(pb::RegistrationResponse {
            registration: Some(shown),
        }))
    }

    async fn pair_round(
        &self,
        request: Request<pb::PairRoundRequest>,
    ) -> Result<Response<pb::RoundResponse>, Status> {
        let caller = Caller::of(&request);
        let request = request.into_inner();
        let manual: Vec<Vec<String>> = request.pairings.into_iter().map(|p| p.players).collect();
        let run = self.tournaments.pair(&caller, &request.id, &manual).await?;
        Ok(Response::new(pb::RoundResponse {
            round: Some(current_round(&run)?),
        }))
    }

    async fn get_round(
        &self,
        request: Request<pb::GetRoundRequest>,
    ) -> Result<Response<pb::RoundResponse>, Status> {
        let caller = Caller::of(&request);
        let request = request.into_inner();
        let run = self.tournaments.get(&caller, &request.id).await?;
        let stage = stage_index(&run, request.stage)?;
        let number = usize::try_from(request.number).unwrap_or(usize::MAX);
        Ok(Response::new(pb::RoundResponse {
            round: Some(round_of(&run, stage, number)?),
        }))
    }

    async fn control_timer(
        &self,
        request: Request<pb::ControlTimerRequest>,
    ) -> Result<Response<pb::RoundResponse>, Status> {
        use pb::control_timer_request::Action as TimerAction;
        let caller = Caller::of(&request);
        let request = request.into_inner();
        let change = match request.action {
            Some(TimerAction::Start(true)) => TimerChange::Start,
            Some(TimerAction::Pause(true)) => TimerChange::Pause,
            Some(TimerAction::Extend(extend)) => {
                TimerChange::Extend(extend.match_id, extend.minutes)
            }
            _ => return Err(bad("action", "give `start`, `pause` or `extend`").into()),
        };
        let run = self.tournaments.timer(&caller, &request.id, change).await?;
        Ok(Response::new(pb::RoundResponse {
            round: Some(current_round(&run)?),
        }))
    }

    async fn report_result(
        &self,
        request: Request<pb::ReportResultRequest>,
    ) -> Result<Response<pb::MatchResponse>, Status> {
        let caller = Caller::of(&request);
        let request = request.into_inner();
        let result = if request.finish.is_empty() {
            let games: [u32; 2] = request.games.as_slice().try_into().map_err(|_| {
                bad(
                    "games",
                    "two numbers: the games won by players[0] and players[1]",
                )
            })?;
            Reported::Games(games)
        } else if request.games.is_empty() {
            Reported::Finish {
                finish: request.finish,
                eliminations: request.eliminations,
            }
        } else {
            return Err(bad(
                "games",
                "give `games` (a match) or `finish` (a lobby), not both",
            )
            .into());
        };
        let run = self
            .tournaments
            .report(&caller, &request.id, &request.match_id, &result)
            .await?;
        let (stage, round, played) = run
            .find_match(&request.match_id)
            .ok_or_else(|| RunError::UnknownMatch(request.match_id.clone()))
            .map_err(Error::from)?;
        Ok(Response::new(pb::MatchResponse {
            r#match: Some(match_of(
                &run,
                stage,
                round,
                played,
                to_millis(SystemTime::now()),
            )),
        }))
    }

    async fn get_standings(
        &self,
        request: Request<pb::GetStandingsRequest>,
    ) -> Result<Response<pb::StandingsResponse>, Status> {
        let caller = Caller::of(&request);
        let request = request.into_inner();
        let run = self.tournaments.get(&caller, &request.id).await?;
        let stage = stage_index(&run, request.stage)?;
        Ok(Response::new(standings(&run, stage)?))
    }

    async fn export_stage(
        &self,
        request: Request<pb::ExportStageRequest>,
    ) -> Result<Response<pb::ExportStageResponse>, Status> {
        let caller = Caller::of(&request);
        let request = request.into_inner();
        // An export names its stage: 0 is not "the current stage" here, as a stage number
        // below 1 is refused everywhere a stage is named (issue 35).
        if request.stage == 0 {
            return Err(bad("stage", "`stage` counts from 1").into());
        }
        let run = self.tournaments.get(&caller, &request.id).await?;
        let stage = stage_index(&run, request.stage)?;
        let (event, config) = run.export(stage).map_err(Error::from)?;
        Ok(Response::new(pb::ExportStageResponse {
            event_json: event.to_string(),
            stage_json: config.to_string(),
        }))
    }

    async fn submit_lineup(
        &self,
        request: Request<pb::SubmitLineupRequest>,
    ) -> Result<Response<pb::SubmissionResponse>, Status> {
        let caller = Caller::of(&request);
        let request = request.into_inner();
        let submission = self
            .tournaments
            .submit_lineup(&caller, &request.id, &request.registration, request.decks)
            .await?;
        Ok(Response::new(pb::SubmissionResponse {
            submission: Some(submission_of(&submission)),
        }))
    }

    async fn get_lineup(
        &self,
        request: Request<pb::GetLineupRequest>,
    ) -> Result<Response<pb::SubmissionResponse>, Status> {
        let caller = Caller::of(&request);
        let request = request.into_inner();
        let submission = self
            .tournaments
            .lineup(&caller, &request.id, &request.registration)
            .await?
            .ok_or_else(|| {
                Status::from(kit::status::Failure::new(
                    tonic::Code::NotFound,
                    "not_found",
                    format!(
                        "registration `{}` has submitted no lineup",
                        request.registration
                    ),
                ))
            })?;
        Ok(Response::new(pb::SubmissionResponse {
            submission: Some(submission_of(&submission)),
        }))
    }

    async fn list_lineups(
        &self,
        request: Request<pb::ListLineupsRequest>,
    ) -> Result<Response<pb::ListLineupsResponse>, Status> {
        let caller = Caller::of(&request);
        let submissions = self
            .tournaments
            .lineups(&caller, &request.get_ref().id)
            .await?;
        Ok(Response::new(pb::ListLineupsResponse {
            submissions: submissions.iter().map(submission_of).collect(),
        }))
    }

    async fn unlock_lineup(
        &self,
        request: Request<pb::UnlockLineupRequest>,
    ) -> Result<Response<pb::TournamentResponse>, Status> {
        let caller = Caller::of(&request);
        let request = request.into_inner();
        let run = self
            .tournaments
            .unlock_lineup(&caller, &request.id, &request.registration)
            .await?;
        Ok(answer(&run))
    }

    async fn recheck_lineup(
        &self,
        request: Request<pb::RecheckLineupRequest>,
    ) -> Result<Response<pb::SubmissionResponse>, Status> {
        let caller = Caller::of(&request);
        let request = request.into_inner();
        let submission = self
            .tournaments
            .recheck_lineup(&caller, &request.id, &request.registration)
            .await?;
        Ok(Response::new(pb::SubmissionResponse {
            submission: Some(submission_of(&submission)),
        }))
    }

    async fn add_webhook(
        &self,
        request: Request<pb::AddWebhookRequest>,
    ) -> Result<Response<pb::AddWebhookResponse>, Status> {
        let caller = Caller::of(&request);
        let request = request.into_inner();
        let (hook, secret) = self
            .tournaments
            .add_webhook(&caller, &request.id, &request.url, &request.events)
            .await?;
        Ok(Response::new(pb::AddWebhookResponse {
            webhook: Some(webhook_of(&hook)),
            secret,
        }))
    }

    async fn list_webhooks(
        &self,
        request: Request<pb::ListWebhooksRequest>,
    ) -> Result<Response<pb::ListWebhooksResponse>, Status> {
        let caller = Caller::of(&request);
        let hooks = self
            .tournaments
            .webhooks(&caller, &request.into_inner().id)
            .await?;
        Ok(Response::new(pb::ListWebhooksResponse {
            webhooks: hooks.iter().map(webhook_of).collect(),
        }))
    }

    async fn remove_webhook(
        &self,
        request: Request<pb::RemoveWebhookRequest>,
    ) -> Result<Response<pb::RemoveWebhookResponse>, Status> {
        let caller = Caller::of(&request);
        let request = request.into_inner();
        self.tournaments
            .remove_webhook(&caller, &request.id, &request.webhook)
            .await?;
        Ok(Response::new(pb::RemoveWebhookResponse {}))
    }

    async fn list_webhook_deliveries(
        &self,
        request: Request<pb::ListWebhookDeliveriesRequest>,
    ) -> Result<Response<pb::ListWebhookDeliveriesResponse>, Status> {
        let caller = Caller::of(&request);
        let request = request.into_inner();
        let deliveries = self
            .tournaments
            .deliveries(&caller, &request.id, &request.webhook)
            .await?;
        Ok(Response::new(pb::ListWebhookDeliveriesResponse {
            deliveries: deliveries.iter().map(delivery_of).collect(),
        }))
    }

    async fn redeliver_webhook(
        &self,
        request: Request<pb::RedeliverWebhookRequest>,
    ) -> Result<Response<pb::WebhookDeliveryResponse>, Status> {
        let caller = Caller::of(&request);
        let request = request.into_inner();
        let delivery = self
            .tournaments
            .redeliver(&caller, &request.id, &request.webhook, &request.delivery)
            .await?;
        Ok(Response::new(pb::WebhookDeliveryResponse {
            delivery: Some(delivery_of(&delivery)),
        }))
    }

    type WatchTournamentStream = EventStream;

    async fn watch_tournament(
        &self,
        request: Request<pb::WatchTournamentRequest>,
    ) -> Result<Response<Self::WatchTournamentStream>, Status> {
        let caller = Caller::of(&request);
        // One of the caller's stream slots (its account, else the client address the gateway
        // names), held by the stream and freed when tonic drops it: the client went away.
        let slot = self.tournaments.open_stream(kit::caller::key(&request))?;
        let request = request.into_inner();
        let (sink, events) = tokio::sync::mpsc::channel(256);
        self.tournaments
            .watch(&caller, &request.id, request.after_seq, sink)
            .await?;
        let stream = tokio_stream::StreamExt::map(
            tokio_stream::wrappers::ReceiverStream::new(events),
            move |event| {
                let _held = &slot;
                event
                    .map(|published| pb::TournamentEvent {
                        seq: published.seq,
                        kind: published.kind.into(),
                        data_json: published.data.to_string(),
                    })
                    .map_err(Status::from)
            },
        );
        Ok(Response::new(Box::pin(stream)))
    }
}
