//! A tournament run on the platform, as the fold of its log: the facts that happened
//! ([`fact::Fact`]) applied in order give the roster, the stages, their rounds and results;
//! standings are always recomputed by the engine from them ([`Run::standings`]), never stored.
//!
//! Each change is decided here first, against the state as folded so far: a command checks
//! what the organizer or player asked and returns the fact to append, or why not
//! ([`RunError`]). Who may ask is the service's question (`kit::access`); when is this
//! module's. Nothing here does I/O or reads a clock: times come in as arguments.

pub mod create;
pub mod deck_settings;
pub mod fact;

use std::collections::{BTreeMap, HashMap, HashSet};

use serde_json::Value;

use crate::domain::defaults::{Format, Game};
use crate::domain::elimination::{self, Bracket, EliminationError, PendingMatch};
use crate::domain::event::{Entry, Event, Player, PlayerId, Round};
use crate::domain::free_for_all::{
    self, FreeForAllError, FreeForAllEvent, FreeForAllStanding, LobbyResult, ThresholdLobby,
};
use crate::domain::next_round::{NextRoundError, Pairing, next_lobbies, next_round};
use crate::domain::registration::{RegistrationState, Roster, RosterError};
use crate::domain::result::{self, MatchResult, Reporter, ResultError};
use crate::domain::round_robin::RoundRobinError;
use crate::domain::stages::{self, Action, AdvanceMode, StagePlan, TournamentPlan};
use crate::domain::standings::{Rounded, Standing, Standings, standings};
use crate::domain::swiss::PairingError;
use crate::domain::{StageConfig, StageSettings};
use crate::offline;

use fact::{Fact, Organizer, PairedMatch, ReportedBy, StageRecord};

/// The longest display name of a registration, in characters.
pub const MAX_DISPLAY_NAME_CHARS: usize = 100;

/// Why a command is refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RunError {
    /// A setting or field of the request that cannot be used.
    #[error("`{field}`: {problem}")]
    BadSettings {
        /// The field.
        field: String,
        /// What is wrong.
        problem: String,
    },
    /// The roster refused.
    #[error(transparent)]
    Roster(#[from] RosterError),
    /// The result refused.
    #[error(transparent)]
    Result(#[from] ResultError),
    /// The command needs another phase of the event.
    #[error("{0}")]
    WrongPhase(&'static str),
    /// The previous round has matches without a decided result.
    #[error(
        "round {round} is not complete: {open} match(es) have no confirmed or final result yet"
    )]
    RoundNotComplete {
        /// The round, from 1.
        round: usize,
        /// Matches still open.
        open: usize,
    },
    /// The engine cannot pair the next round.
    #[error("{0}")]
    CannotPair(String),
    /// The current stage has no round left: advance.
    #[error("stage {0} is complete: advance to apply its advancement rules")]
    StageComplete(usize),
    /// The current stage still has rounds to play.
    #[error("stage {0} is not complete yet")]
    StageNotComplete(usize),
    /// No such match.
    #[error("no match `{0}` in this tournament")]
    UnknownMatch(String),
    /// No webhook of that id.
    #[error("no webhook `{0}` in this tournament")]
    UnknownWebhook(String),
    /// No such round.
    #[error("no round {round} in stage {stage}")]
    UnknownRound {
        /// The stage, from 1.
        stage: usize,
        /// The round.
        round: usize,
    },
    /// No such stage.
    #[error("no stage {0} in this tournament")]
    UnknownStage(usize),
    /// A bye has no result to report.
    #[error("match `{0}` is a bye: it has no result to report")]
    ByeHasNoResult(String),
    /// A draw where the stage allows none.
    #[error("a draw cannot be reported here: {0}")]
    NoDraws(&'static str),
    /// A correction that would change a bracket already played on.
    #[error(
        "match `{0}` decided who went on in the bracket and a later round is paired: its winner cannot change now"
    )]
    BracketMovedOn(String),
}

/// Where the event stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Players sign up; nothing is paired.
    Registration,
    /// Stages are played.
    Running,
    /// Final placements are known.
    Finished,
}

impl Phase {
    /// The name the API writes.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Registration => "registration",
            Phase::Running => "running",
            Phase::Finished => "finished",
        }
    }
}

/// Where a stage stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StageState {
    /// Not started.
    Pending,
    /// Being played.
    Running,
    /// Ended: its advancement rules were applied (or the event finished).
    Complete,
}

impl StageState {
    /// The name the API writes.
    pub fn name(self) -> &'static str {
        match self {
            StageState::Pending => "pending",
            StageState::Running => "running",
            StageState::Complete => "complete",
        }
    }
}

/// A match of a round, with its result as it stands.
#[derive(Debug, Clone, PartialEq)]
pub struct MatchRun {
    /// As paired.
    pub paired: PairedMatch,
    /// The result; `None` before anyone reports (and always for a bye).
    pub result: Option<MatchResult>,
    /// A free-for-all lobby's finishes, once an organizer entered them.
    pub lobby: Option<LobbyResult>,
    /// Organizer corrections of a result already decided.
    pub corrections: u32,
}

impl MatchRun {
    /// Whether the match counts: a bye, a confirmed or final result, or a lobby's finishes.
    pub fn is_decided(&self) -> bool {
        self.paired.bye
            || self.lobby.is_some()
            || self.result.as_ref().is_some_and(MatchResult::is_decided)
    }
}

/// A round's timer.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Timer {
    /// Its length, in minutes.
    pub minutes: u32,
    /// When it last started, while it runs.
    pub running_since_ms: Option<i64>,
    /// Time run before the last start.
    pub elapsed_ms: i64,
    /// Extra minutes per match.
    pub extensions: HashMap<String, u32>,
}

impl Timer {
    /// Whether the timer was ever started.
    pub fn started(&self) -> bool {
        self.running_since_ms.is_some() || self.elapsed_ms > 0
    }

    /// Milliseconds left for `match_id` (the round's when `None`) at `now_ms`; negative once
    /// time is up.
    pub fn left_ms(&self, match_id: Option<&str>, now_ms: i64) -> i64 {
        let extra = match_id
            .and_then(|id| self.extensions.get(id))
            .copied()
            .unwrap_or(0);
        let run = self.elapsed_ms
            + self
                .running_since_ms
                .map_or(0, |since| now_ms.saturating_sub(since).max(0));
        (i64::from(self.minutes) + i64::from(extra)) * 60_000 - run
    }
}

/// A round as paired, with its results.
#[derive(Debug, Clone, PartialEq)]
pub struct RoundRun {
    /// The round, from 1.
    pub number: usize,
    /// Its matches (a bye is a match of one player).
    pub matches: Vec<MatchRun>,
    /// Late entrants who missed it (a loss with no opponent).
    pub late_losses: Vec<String>,
    /// Entered by an organizer rather than paired by the engine.
    pub manual: bool,
    /// Its timer.
    pub timer: Timer,
}

impl RoundRun {
    /// The matches without a decided result.
    pub fn open(&self) -> usize {
        self.matches.iter().filter(|m| !m.is_decided()).count()
    }
}

/// A stage of the event.
#[derive(Debug, Clone, PartialEq)]
pub struct StageRun {
    /// As created.
    pub record: StageRecord,
    /// Its config, read from the record, with the event's seed and (from the second stage on)
    /// the prior stage's order.
    pub config: StageConfig,
    /// Where it stands.
    pub state: StageState,
    /// Its players, best seed first (registration ids).
    pub players: Vec<String>,
    /// Its rounds so far.
    pub rounds: Vec<RoundRun>,
}

impl StageRun {
    /// The stage's format.
    pub fn format(&self) -> Format {
        self.config.settings.format()
    }
}

/// A run tournament: its log folded.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    /// The tournament's id.
    pub id: String,
    /// The game.
    pub game: Game,
    /// Its name.
    pub name: String,
    /// The organizers, the creator first.
    pub organizers: Vec<Organizer>,
    /// The stored seed.
    pub seed: u64,
    /// Its stages and advancement rules.
    pub plan: TournamentPlan,
    /// Who signed up.
    pub roster: Roster,
    /// Players kept at a fixed table.
    pub fixed_tables: BTreeMap<String, u32>,
    /// Whether players may sign up.
    pub registration_open: bool,
    /// Where the event stands.
    pub phase: Phase,
    /// The stages.
    pub stages: Vec<StageRun>,
    /// The stage being played (from 0).
    pub current_stage: usize,
    /// Final placements, once finished.
    pub placements: Vec<String>,
    /// The deck settings, once an organizer saved them.
    pub deck_settings: Option<fact::DeckSettings>,
    /// Registrations an organizer let submit after the deadline.
    pub unlocked_lineups: HashSet<String>,
    /// The webhooks organizers registered, oldest first.
    pub webhooks: Vec<fact::Webhook>,
    /// The last fact applied (0: none).
    pub seq: u64,
    /// When the tournament was created (unix milliseconds): the time its first fact was
    /// appended, which the service sets as it folds the log (0 until then).
    pub create_time_ms: i64,
    /// Where each match is: stage, round index, match index.
    matches: HashMap<String, (usize, usize, usize)>,
    /// The seq of each registration's last drop.
    dropped_at: HashMap<String, u64>,
    /// The seq of the last pairing.
    last_pairing: u64,
    /// Registrations ever made (the next id is `r{n+1}`).
    registrations_made: u64,
}

impl Run {
    /// The state of a tournament created by `created` (its first fact); `None` when that fact
    /// is not a creation or a stage record does not read back.
    pub fn new(id: &str, created: &Fact) -> Option<Run> {
        let Fact::Created {
            game,
            name,
            organizer,
            stages,
            rules,
            cut_tiebreaker,
            max_participants,
            check_in,
            seed,
        } = created
        else {
            return None;
        };
        let stage_runs = stages
            .iter()
            .map(|record| {
                let mut config =
                    offline::read_stage_config(&record.config, &record.scoring).ok()?;
                config.seed = *seed;
                config.prior_stage = None;
                Some(StageRun {
                    record: record.clone(),
                    config,
                    state: StageState::Pending,
                    players: Vec::new(),
                    rounds: Vec::new(),
                })
            })
            .collect::<Option<Vec<_>>>()?;
        let plan = TournamentPlan {
            stages: stage_runs
                .iter()
                .map(|stage| StagePlan {
                    format: stage.format(),
                    allow_early_cutoff: stage.record.allow_early_cutoff,
                    advance_mode: stage.record.advance_mode,
                })
                .collect(),
            rules: rules.clone(),
            cut_tiebreaker: *cut_tiebreaker,
        };
        let mut run = Run {
            id: id.to_owned(),
            game: *game,
            name: name.clone(),
            organizers: vec![organizer.clone()],
            seed: *seed,
            plan,
            roster: Roster::new(*max_participants, *check_in),
            fixed_tables: BTreeMap::new(),
            registration_open: true,
            phase: Phase::Registration,
            stages: stage_runs,
            current_stage: 0,
            placements: Vec::new(),
            deck_settings: None,
            unlocked_lineups: HashSet::new(),
            webhooks: Vec::new(),
            seq: 1,
            create_time_ms: 0,
            matches: HashMap::new(),
            dropped_at: HashMap::new(),
            last_pairing: 0,
            registrations_made: 0,
        };
        // Early cutoff reads the advancement rules: the widest placement range from 1.
        for at in 0..run.stages.len() {
            let cutoff = run.plan.early_cutoff(at);
            let allowed = run.stages[at].record.allow_early_cutoff;
            if let StageSettings::SingleElimination(stage) | StageSettings::DoubleElimination(stage) =
                &mut run.stages[at].config.settings
                && allowed
            {
                stage.early_cutoff = cutoff;
            }
        }
        Some(run)
    }

    /// Applies the fact numbered `seq` (decided by a command, or read from the log).
    pub fn apply(&mut self, seq: u64, fact: &Fact) {
        self.seq = seq;
        match fact {
            Fact::Created { .. } => {}
            Fact::OrganizerAdded { organizer } => {
                if !self
                    .organizers
                    .iter()
                    .any(|o| o.account == organizer.account)
                {
                    self.organizers.push(organizer.clone());
                }
            }
            Fact::RegistrationSet { open } => self.registration_open = *open,
            Fact::WebhookAdded { webhook } => self.webhooks.push(webhook.clone()),
            Fact::WebhookRemoved { id } => self.webhooks.retain(|hook| hook.id != *id),
            Fact::LineupUnlocked { registration } => {
                self.unlocked_lineups.insert(registration.clone());
            }
            Fact::DeckSettingsSet { settings } => {
                self.deck_settings = Some(settings.as_ref().clone());
            }
            Fact::Registered {
                registration,
                account,
                display_name,
            } => {
                self.registrations_made += 1;
                let placed = self
                    .roster
                    .register(registration.clone(), account.clone(), display_name.clone())
                    .map(|r| r.state != RegistrationState::Waitlisted)
                    .unwrap_or(false);
                if self.phase == Phase::Running && placed {
                    self.enter_late(registration);
                }
            }
            Fact::Unregistered { registration } => {
                let _ = self.roster.unregister(registration);
                self.fixed_tables.remove(registration);
            }
            Fact::CheckedIn { registration } => {
                let _ = self.roster.check_in(registration);
            }
            Fact::Dropped { registration } => {
                let started = self.phase != Phase::Registration;
                if self.roster.drop_player(registration, started).is_ok() {
                    self.dropped_at.insert(registration.clone(), seq);
                }
            }
            Fact::Reinstated { registration } => {
                let _ = self.roster.reinstate(registration, false);
            }
            Fact::TableFixed {
                registration,
                table,
            } => match table {
                Some(table) => {
                    self.fixed_tables.insert(registration.clone(), *table);
                }
                None => {
                    self.fixed_tables.remove(registration);
                }
            },
            Fact::StageSettingsChanged {
                stage,
                pairing_style,
                prevent_repeat_matchups,
                round_minutes,
            } => {
                if let Some(run) = self.stages.get_mut(*stage) {
                    if let StageSettings::Swiss(swiss) = &mut run.config.settings {
                        if let Some(style) = pairing_style {
                            swiss.pairing_style = *style;
                        }
                        if let Some(prevent) = prevent_repeat_matchups {
                            swiss.prevent_repeat_matchups = *prevent;
                        }
                    }
                    if let Some(minutes) = round_minutes {
                        run.record.round_minutes = *minutes;
                    }
                    let mut prior = run.config.clone();
                    prior.prior_stage = None;
                    run.record.config = offline::write_stage_config(&prior);
                }
            }
            Fact::Started => {
                self.phase = Phase::Running;
                self.registration_open = false;
                let players = self
                    .roster
                    .pairable()
                    .iter()
                    .map(|r| r.id.clone())
                    .collect();
                if let Some(stage) = self.stages.first_mut() {
                    stage.state = StageState::Running;
                    stage.players = players;
                }
            }
            Fact::RoundPaired {
                stage,
                round,
                matches,
                manual,
            } => {
                self.last_pairing = seq;
                let Some(run) = self.stages.get_mut(*stage) else {
                    return;
                };
                let at = run.rounds.len();
                for (index, paired) in matches.iter().enumerate() {
                    self.matches.insert(paired.id.clone(), (*stage, at, index));
                }
                run.rounds.push(RoundRun {
                    number: *round,
                    matches: matches
                        .iter()
                        .map(|paired| MatchRun {
                            paired: paired.clone(),
                            result: None,
                            lobby: None,
                            corrections: 0,
                        })
                        .collect(),
                    late_losses: Vec::new(),
                    manual: *manual,
                    timer: Timer {
                        minutes: run.record.round_minutes,
                        ..Timer::default()
                    },
                });
            }
            Fact::ResultReported {
                match_id,
                by,
                games,
            } => {
                let Some(&(stage, round, index)) = self.matches.get(match_id) else {
                    return;
                };
                let played = &mut self.stages[stage].rounds[round].matches[index];
                let was_decided = played.result.as_ref().is_some_and(MatchResult::is_decided);
                if let Ok(result) = result::report(played.result.as_ref(), reporter(*by), *games) {
                    if was_decided {
                        played.corrections += 1;
                    }
                    played.result = Some(result);
                }
            }
            Fact::LobbyReported {
                match_id,
                finish,
                eliminations,
            } => {
                let Some(&(stage, round, index)) = self.matches.get(match_id) else {
                    return;
                };
                let played = &mut self.stages[stage].rounds[round].matches[index];
                if played.lobby.is_some() {
                    played.corrections += 1;
                }
                played.lobby = Some(LobbyResult {
                    lobby: played
                        .paired
                        .players
                        .iter()
                        .map(|p| PlayerId(p.clone()))
                        .collect(),
                    finish: finish.clone(),
                    eliminations: eliminations.clone(),
                });
            }
            Fact::TimerStarted { at_ms } => {
                if let Some(timer) = self.current_timer_mut()
                    && timer.running_since_ms.is_none()
                {
                    timer.running_since_ms = Some(*at_ms);
                }
            }
            Fact::TimerPaused { at_ms } => {
                if let Some(timer) = self.current_timer_mut()
                    && let Some(since) = timer.running_since_ms.take()
                {
                    timer.elapsed_ms += at_ms.saturating_sub(since).max(0);
                }
            }
            Fact::TimeExtended { match_id, minutes } => {
                if let Some(timer) = self.current_timer_mut() {
                    *timer.extensions.entry(match_id.clone()).or_default() += minutes;
                }
            }
            Fact::Advanced {
                from_stage,
                to_stage,
                players,
            } => {
                if let Some(stage) = self.stages.get_mut(*from_stage) {
                    stage.state = StageState::Complete;
                }
                if let Some(stage) = self.stages.get_mut(*to_stage) {
                    stage.state = StageState::Running;
                    stage.players = players.clone();
                    stage.config.prior_stage =
                        Some(players.iter().map(|id| PlayerId(id.clone())).collect());
                    self.current_stage = *to_stage;
                }
            }
            Fact::Finished { placements } => {
                if let Some(stage) = self.stages.get_mut(self.current_stage) {
                    stage.state = StageState::Complete;
                }
                self.phase = Phase::Finished;
                self.placements = placements.clone();
            }
        }
    }

    /// A late entrant joins the current stage (Swiss, through the set round): every round
    /// already paired is a loss with no opponent.
    fn enter_late(&mut self, registration: &str) {
        let Some(stage) = self.stages.get_mut(self.current_stage) else {
            return;
        };
        stage.players.push(registration.to_owned());
        for round in &mut stage.rounds {
            round.late_losses.push(registration.to_owned());
        }
    }

    fn current_timer_mut(&mut self) -> Option<&mut Timer> {
        self.stages
            .get_mut(self.current_stage)?
            .rounds
            .last_mut()
            .map(|round| &mut round.timer)
    }

    // ---- reads -------------------------------------------------------------------------

    /// Whether `account` organizes the event.
    pub fn is_organizer(&self, account: &str) -> bool {
        self.organizers.iter().any(|o| o.account == account)
    }

    /// The registration of `account`, if it signed up.
    pub fn registration_of(
        &self,
        account: &str,
    ) -> Option<&crate::domain::registration::Registration> {
        self.roster
            .registrations
            .iter()
            .find(|r| r.account.as_deref() == Some(account))
    }

    /// The match `id`, with its stage (from 0) and round number.
    pub fn find_match(&self, id: &str) -> Option<(usize, usize, &MatchRun)> {
        let &(stage, round, index) = self.matches.get(id)?;
        let run = self.stages.get(stage)?.rounds.get(round)?;
        Some((stage, run.number, run.matches.get(index)?))
    }

    /// The stage `stage` (from 0).
    pub fn stage(&self, stage: usize) -> Result<&StageRun, RunError> {
        self.stages
            .get(stage)
            .ok_or(RunError::UnknownStage(stage + 1))
    }

    /// A stage's results so far as an event of the engine (the offline tool's event file):
    /// its players by seed, every decided match, bye and late loss.
    pub fn stage_event(&self, stage: usize) -> Result<Event, RunError> {
        let run = self.stage(stage)?;
        let players = self.stage_players(run);
        let rounds = run
            .rounds
            .iter()
            .map(|round| {
                let mut entries: Vec<Entry> = round
                    .late_losses
                    .iter()
                    .map(|id| Entry::LateLoss(PlayerId(id.clone())))
                    .collect();
                for played in &round.matches {
                    if played.paired.bye {
                        if let Some(id) = played.paired.players.first() {
                            entries.push(Entry::Bye(PlayerId(id.clone())));
                        }
                    } else if let (Some(result), [a, b]) =
                        (&played.result, played.paired.players.as_slice())
                        && result.is_decided()
                    {
                        entries.push(Entry::Match {
                            players: [PlayerId(a.clone()), PlayerId(b.clone())],
                            games: result.games,
                        });
                    }
                }
                Round(entries)
            })
            .collect();
        Ok(Event {
            settings: run.record.scoring.clone(),
            players,
            rounds,
        })
    }

    /// A stage's players by seed, as the engine lists them.
    fn stage_players(&self, run: &StageRun) -> Vec<Player> {
        run.players
            .iter()
            .zip(1..)
            .map(|(id, seed)| Player {
                id: PlayerId(id.clone()),
                seed,
                rating: None,
                dropped: self
                    .roster
                    .get(id)
                    .is_some_and(|r| r.state == RegistrationState::Dropped),
            })
            .collect()
    }

    /// A free-for-all stage's results so far as the engine's event (the offline tool's event
    /// file of such a stage): every lobby with its finishes; `None` for a one-on-one stage.
    pub fn free_for_all_event(&self, stage: usize) -> Result<Option<FreeForAllEvent>, RunError> {
        let run = self.stage(stage)?;
        let Some(settings) = &run.record.free_for_all else {
            return Ok(None);
        };
        Ok(Some(FreeForAllEvent {
            format: run.format(),
            settings: settings.clone(),
            players: self.stage_players(run),
            matches: run
                .rounds
                .iter()
                .map(|round| {
                    round
                        .matches
                        .iter()
                        .filter_map(|played| played.lobby.clone())
                        .collect()
                })
                .collect(),
        }))
    }

    /// A free-for-all stage's points standings and, for Threshold Win, its lobbies and their
    /// winners; `None` for a one-on-one stage.
    #[allow(clippy::type_complexity)] // Two tables of one stage, read together.
    pub fn free_for_all_standings(
        &self,
        stage: usize,
    ) -> Result<Option<(Vec<FreeForAllStanding>, Vec<ThresholdLobby>)>, RunError> {
        let Some(event) = self.free_for_all_event(stage)? else {
            return Ok(None);
        };
        let table =
            free_for_all::standings(&event).map_err(|err| RunError::CannotPair(err.to_string()))?;
        let winners = if event.format == Format::ThresholdWin {
            free_for_all::threshold_winners(&event)
                .map_err(|err| RunError::CannotPair(err.to_string()))?
        } else {
            Vec::new()
        };
        Ok(Some((table, winners)))
    }

    /// A stage's standings: the engine's, from its results so far (a free-for-all stage's
    /// points, with no record or tiebreakers).
    pub fn standings(&self, stage: usize) -> Result<Standings, RunError> {
        if let Some((table, _)) = self.free_for_all_standings(stage)? {
            return Ok(Standings {
                standings: table
                    .into_iter()
                    .map(|row| Standing {
                        rank: row.rank,
                        player: row.player,
                        points: row.points,
                        record: Default::default(),
                        tiebreakers: Vec::new(),
                        match_win_percentage: Rounded::new(0.0),
                    })
                    .collect(),
            });
        }
        Ok(standings(&self.stage_event(stage)?))
    }

    /// A stage as the offline tool reads it: the event file and the stage config.
    pub fn export(&self, stage: usize) -> Result<(Value, Value), RunError> {
        if let Some(event) = self.free_for_all_event(stage)? {
            let config = serde_json::json!({"format": event.format.as_str(), "seed": self.seed});
            return Ok((serde_json::to_value(event).unwrap_or_default(), config));
        }
        let event = serde_json::to_value(self.stage_event(stage)?).unwrap_or_default();
        let config = serde_json::from_str(&offline::write_stage_config(&self.stage(stage)?.config))
            .unwrap_or_default();
        Ok((event, config))
    }

    /// Whether the current stage has no round left to pair and every round is decided.
    pub fn stage_is_complete(&self, stage: usize) -> Result<bool, RunError> {
        let run = self.stage(stage)?;
        if run.state != StageState::Running {
            return Ok(run.state == StageState::Complete);
        }
        if run.rounds.last().is_some_and(|round| round.open() > 0) {
            return Ok(false);
        }
        match self.next_pairings(stage) {
            Err(RunError::StageComplete(_)) => Ok(true),
            Ok(pairings) => Ok(pairings.is_empty()),
            Err(_) => Ok(false),
        }
    }

    /// The stage's final order, best first: bracket placements for an elimination stage,
    /// else its standings.
    pub fn final_order(&self, stage: usize) -> Result<Standings, RunError> {
        let table = self.standings(stage)?;
        let Some(replayed) = self.bracket(stage)? else {
            return Ok(table);
        };
        let mut by_player: HashMap<PlayerId, Standing> = table
            .standings
            .into_iter()
            .map(|standing| (standing.player.clone(), standing))
            .collect();
        let mut placements = replayed.placements();
        placements.sort_by_key(|placement| placement.place);
        Ok(Standings {
            standings: placements
                .into_iter()
                .filter_map(|placement| {
                    let mut standing = by_player.remove(&placement.player)?;
                    standing.rank = placement.place;
                    Some(standing)
                })
                .collect(),
        })
    }

    /// An elimination stage's bracket replayed from its results: a fresh draw, or with
    /// **Continue brackets** the previous double elimination stage's bracket carried on.
    /// `None` for any other stage.
    fn bracket(&self, stage: usize) -> Result<Option<Bracket>, RunError> {
        let run = self.stage(stage)?;
        let (StageSettings::SingleElimination(bracket) | StageSettings::DoubleElimination(bracket)) =
            &run.config.settings
        else {
            return Ok(None);
        };
        let event = self.stage_event(stage)?;
        let cannot = |err: EliminationError| RunError::CannotPair(err.to_string());
        if run.record.advance_mode == AdvanceMode::ContinueBrackets && stage > 0 {
            let prior = self
                .bracket(stage - 1)?
                .ok_or_else(|| cannot(EliminationError::ContinueNeedsDoubleElimination))?;
            return elimination::replay_continued(&prior, &event)
                .map(Some)
                .map_err(cannot);
        }
        elimination::replay(
            &event,
            run.format(),
            &bracket.settings,
            run.config.seed,
            run.config.prior_stage.as_deref(),
        )
        .map(Some)
        .map_err(cannot)
    }

    fn next_pairings(&self, stage: usize) -> Result<Vec<Pairing>, RunError> {
        let run = self.stage(stage)?;
        if let StageSettings::DoubleElimination(double) = &run.config.settings
            && run.record.advance_mode == AdvanceMode::ContinueBrackets
            && let Some(bracket) = self.bracket(stage)?
        {
            // The engine's `next_round` draws afresh; a continued bracket carries on here.
            let stopped = double
                .early_cutoff
                .is_some_and(|places| bracket.is_top_decided(places));
            let pending = if stopped {
                Vec::new()
            } else {
                bracket.next_round()
            };
            return Ok(pending
                .into_iter()
                .enumerate()
                .map(|(at, PendingMatch { label, players })| Pairing {
                    table: Some(at + 1),
                    players: players.into(),
                    bye: false,
                    label: Some(label.to_string()),
                    group: None,
                })
                .collect());
        }
        if let Some(event) = self.free_for_all_event(stage)? {
            return match next_lobbies(&event, self.seed) {
                Ok(next) => Ok(next
                    .lobbies
                    .into_iter()
                    .map(|lobby| Pairing {
                        table: Some(lobby.lobby),
                        players: lobby.players,
                        bye: false,
                        label: Some(format!("lobby {}", lobby_letter(lobby.lobby))),
                        group: None,
                    })
                    .collect()),
                Err(NextRoundError::FreeForAll(FreeForAllError::StageComplete)) => {
                    Err(RunError::StageComplete(stage + 1))
                }
                Err(err) => Err(RunError::CannotPair(err.to_string())),
            };
        }
        let event = self.stage_event(stage)?;
        match next_round(&event, &self.stage(stage)?.config) {
            Ok(next) => Ok(next.pairings),
            Err(
                NextRoundError::Swiss(PairingError::StageComplete(_))
                | NextRoundError::RoundRobin(RoundRobinError::StageComplete(_)),
            ) => Err(RunError::StageComplete(stage + 1)),
            Err(err) => Err(RunError::CannotPair(err.to_string())),
        }
    }

    /// The next registration id.
    pub fn next_registration_id(&self) -> String {
        format!("r{}", self.registrations_made + 1)
    }

    // ---- commands ----------------------------------------------------------------------

    /// Signs up `account` (or a guest, `None`) as `display_name`.
    pub fn register(&self, account: Option<&str>, display_name: &str) -> Result<Fact, RunError> {
        let display_name = display_name.trim();
        // The platform's one text rule for names (`kit::text`), after trimming.
        kit::text::check_name(display_name, MAX_DISPLAY_NAME_CHARS).map_err(|problem| {
            RunError::BadSettings {
                field: "displayName".into(),
                problem: format!("a name has 1 to {MAX_DISPLAY_NAME_CHARS} characters: {problem}"),
            }
        })?;
        if let Some(account) = account
            && let Some(existing) = self.registration_of(account)
        {
            return Err(RosterError::AlreadyRegistered(existing.id.clone()).into());
        }
        match self.phase {
            Phase::Registration if self.registration_open => {}
            Phase::Registration => return Err(RosterError::Closed.into()),
            Phase::Finished => return Err(RunError::WrongPhase("the tournament is finished")),
            Phase::Running => self.check_late_entry()?,
        }
        Ok(Fact::Registered {
            registration: self.next_registration_id(),
            account: account.map(str::to_owned),
            display_name: display_name.to_owned(),
        })
    }

    /// Late entry: the current stage is Swiss with late entry through a round not yet passed.
    fn check_late_entry(&self) -> Result<(), RunError> {
        let stage = self.stage(self.current_stage)?;
        let through = match &stage.config.settings {
            StageSettings::Swiss(swiss) if self.current_stage == 0 => {
                swiss.late_entry_through_round
            }
            _ => None,
        };
        match through {
            Some(round) if stage.rounds.len() < usize::try_from(round).unwrap_or(usize::MAX) => {
                Ok(())
            }
            Some(round) => Err(RunError::WrongPhase(if round == 0 {
                "registration is closed"
            } else {
                "late entry is closed: the last round that takes late entrants has been paired"
            })),
            None => Err(RosterError::Closed.into()),
        }
    }

    /// Withdraws a registration (before the start).
    pub fn unregister(&self, registration: &str) -> Result<Fact, RunError> {
        self.known(registration)?;
        if self.phase != Phase::Registration {
            return Err(RunError::WrongPhase(
                "the tournament has started: drop instead of unregistering",
            ));
        }
        Ok(Fact::Unregistered {
            registration: registration.to_owned(),
        })
    }

    fn known(
        &self,
        registration: &str,
    ) -> Result<&crate::domain::registration::Registration, RunError> {
        self.roster
            .get(registration)
            .ok_or_else(|| RosterError::Unknown(registration.to_owned()).into())
    }

    /// Checks a player in (before the start).
    pub fn check_in(&self, registration: &str) -> Result<Fact, RunError> {
        if self.phase != Phase::Registration {
            return Err(RosterError::CheckInClosed.into());
        }
        let mut roster = self.roster.clone();
        roster.check_in(registration)?;
        Ok(Fact::CheckedIn {
            registration: registration.to_owned(),
        })
    }

    /// Drops a player: never paired again, keeps their standing.
    pub fn drop_player(&self, registration: &str) -> Result<Fact, RunError> {
        let found = self.known(registration)?;
        if found.state == RegistrationState::Dropped {
            return Err(RosterError::AlreadyDropped(registration.to_owned()).into());
        }
        if self.phase == Phase::Finished {
            return Err(RunError::WrongPhase("the tournament is finished"));
        }
        Ok(Fact::Dropped {
            registration: registration.to_owned(),
        })
    }

    /// Reinstates a player dropped by mistake, before the next pairing.
    pub fn reinstate(&self, registration: &str) -> Result<Fact, RunError> {
        self.known(registration)?;
        let paired_since = self
            .dropped_at
            .get(registration)
            .is_some_and(|&at| self.last_pairing > at);
        let mut roster = self.roster.clone();
        roster.reinstate(registration, paired_since)?;
        Ok(Fact::Reinstated {
            registration: registration.to_owned(),
        })
    }

    /// Keeps a player at a fixed table (`None` frees it).
    pub fn fix_table(&self, registration: &str, table: Option<u32>) -> Result<Fact, RunError> {
        self.known(registration)?;
        if table == Some(0) {
            return Err(RunError::BadSettings {
                field: "fixedTable".into(),
                problem: "tables are numbered from 1".into(),
            });
        }
        Ok(Fact::TableFixed {
            registration: registration.to_owned(),
            table,
        })
    }

    /// Saves deck settings whose rules the service has just pinned.
    pub fn set_deck_settings(&self, settings: fact::DeckSettings) -> Result<Fact, RunError> {
        if self.phase == Phase::Finished {
            return Err(RunError::WrongPhase("the tournament is finished"));
        }
        if !(1..=deck_settings::MAX_DECKS).contains(&settings.decks_to_bring) {
            return Err(RunError::BadSettings {
                field: "deckSettings.decksToBring".into(),
                problem: format!("a player brings 1 to {} decks", deck_settings::MAX_DECKS),
            });
        }
        if settings.banned_cards.len() > deck_settings::MAX_BANNED
            || settings
                .banned_cards
                .iter()
                .any(|card| card.is_empty() || card.len() > deck_settings::MAX_REF_BYTES)
        {
            return Err(RunError::BadSettings {
                field: "deckSettings.bannedCards".into(),
                problem: format!(
                    "at most {} card refs of 1 to {} bytes",
                    deck_settings::MAX_BANNED,
                    deck_settings::MAX_REF_BYTES
                ),
            });
        }
        Ok(Fact::DeckSettingsSet {
            settings: Box::new(settings),
        })
    }

    /// Lets `registration` submit a lineup after the deadline.
    pub fn unlock_lineup(&self, registration: &str) -> Result<Fact, RunError> {
        self.known(registration)?;
        if self.deck_settings.is_none() {
            return Err(RunError::WrongPhase(
                "this tournament takes no lineups: it has no deck settings",
            ));
        }
        Ok(Fact::LineupUnlocked {
            registration: registration.to_owned(),
        })
    }

    /// Registers `webhook` (at most `webhooks::MAX_HOOKS` per tournament, one per URL).
    pub fn add_webhook(&self, webhook: &fact::Webhook) -> Result<Fact, RunError> {
        if self.webhooks.len() >= crate::webhooks::MAX_HOOKS {
            return Err(RunError::BadSettings {
                field: "url".to_owned(),
                problem: format!(
                    "a tournament keeps at most {} webhooks: remove one first",
                    crate::webhooks::MAX_HOOKS
                ),
            });
        }
        if self.webhooks.iter().any(|hook| hook.url == webhook.url) {
            return Err(RunError::BadSettings {
                field: "url".to_owned(),
                problem: "this tournament already sends its events to that URL".to_owned(),
            });
        }
        Ok(Fact::WebhookAdded {
            webhook: webhook.clone(),
        })
    }

    /// Removes the webhook `id`.
    pub fn remove_webhook(&self, id: &str) -> Result<Fact, RunError> {
        if !self.webhooks.iter().any(|hook| hook.id == id) {
            return Err(RunError::UnknownWebhook(id.to_owned()));
        }
        Ok(Fact::WebhookRemoved { id: id.to_owned() })
    }

    /// Opens or closes registration (before the start).
    pub fn set_registration(&self, open: bool) -> Result<Fact, RunError> {
        if self.phase != Phase::Registration {
            return Err(RunError::WrongPhase(
                "registration only opens or closes before the start",
            ));
        }
        Ok(Fact::RegistrationSet { open })
    }

    /// Changes what may change while a stage runs: the Swiss pairing style and rematch
    /// prevention, and the round length.
    pub fn change_stage(
        &self,
        stage: usize,
        pairing_style: Option<crate::domain::defaults::PairingStyle>,
        prevent_repeat_matchups: Option<bool>,
        round_minutes: Option<u32>,
    ) -> Result<Fact, RunError> {
        let run = self.stage(stage)?;
        if run.state == StageState::Complete {
            return Err(RunError::WrongPhase("the stage is complete"));
        }
        if (pairing_style.is_some() || prevent_repeat_matchups.is_some())
            && run.format() != Format::Swiss
        {
            return Err(RunError::BadSettings {
                field: "settings".into(),
                problem: "`pairing_style` and `prevent_repeat_matchups` are Swiss settings".into(),
            });
        }
        if round_minutes.is_some_and(|m| !(1..=1440).contains(&m)) {
            return Err(RunError::BadSettings {
                field: "settings.round_minutes".into(),
                problem: "must be 1 to 1440".into(),
            });
        }
        Ok(Fact::StageSettingsChanged {
            stage,
            pairing_style,
            prevent_repeat_matchups,
            round_minutes,
        })
    }

    /// Starts the event.
    pub fn start(&self) -> Result<Fact, RunError> {
        if self.phase != Phase::Registration {
            return Err(RunError::WrongPhase("the tournament has already started"));
        }
        if self.roster.pairable().len() < 2 {
            return Err(RunError::WrongPhase(
                "a tournament starts with at least 2 players (checked in, when check-in is on)",
            ));
        }
        Ok(Fact::Started)
    }

    /// Pairs the next round of the current stage with the engine and the event's seed.
    pub fn pair(&self) -> Result<Fact, RunError> {
        if self.phase != Phase::Running {
            return Err(RunError::WrongPhase(match self.phase {
                Phase::Registration => "the tournament has not started",
                _ => "the tournament is finished",
            }));
        }
        let stage = self.current_stage;
        let run = self.stage(stage)?;
        if let Some(last) = run.rounds.last()
            && last.open() > 0
        {
            return Err(RunError::RoundNotComplete {
                round: last.number,
                open: last.open(),
            });
        }
        let pairings = self.next_pairings(stage)?;
        if pairings.is_empty() {
            return Err(RunError::StageComplete(stage + 1));
        }
        let round = run.rounds.len() + 1;
        let mut tables = Tables::new(self.fixed_tables.clone());
        let matches = pairings
            .into_iter()
            .enumerate()
            .map(|(at, pairing)| {
                let players: Vec<String> = pairing.players.iter().map(|p| p.0.clone()).collect();
                PairedMatch {
                    id: format!("s{}-r{round}-m{}", stage + 1, at + 1),
                    table: (!pairing.bye).then(|| tables.take(&players)),
                    players,
                    bye: pairing.bye,
                    label: pairing
                        .label
                        .or_else(|| pairing.group.map(|group| format!("group {group}"))),
                }
            })
            .collect::<Vec<_>>();
        Ok(Fact::RoundPaired {
            stage,
            round,
            matches: tables.settle(matches),
            manual: false,
        })
    }

    /// An organizer's own pairings for the next round of a Swiss stage (each a list of two
    /// registrations, or one for a bye), checked like the engine's: every player of the stage
    /// still in at most once, nobody dropped.
    pub fn pair_manually(&self, pairings: &[Vec<String>]) -> Result<Fact, RunError> {
        if self.phase != Phase::Running {
            return Err(RunError::WrongPhase("the tournament is not running"));
        }
        let stage = self.current_stage;
        let run = self.stage(stage)?;
        if run.format() != Format::Swiss {
            return Err(RunError::BadSettings {
                field: "pairings".into(),
                problem: "only a Swiss round can be paired by hand: brackets and round robins follow their schedule".into(),
            });
        }
        if let Some(last) = run.rounds.last()
            && last.open() > 0
        {
            return Err(RunError::RoundNotComplete {
                round: last.number,
                open: last.open(),
            });
        }
        if let StageSettings::Swiss(swiss) = &run.config.settings
            && run.rounds.len() >= usize::try_from(swiss.rounds).unwrap_or(usize::MAX)
        {
            return Err(RunError::StageComplete(stage + 1));
        }
        let in_stage: HashSet<&str> = run.players.iter().map(String::as_str).collect();
        let mut seen = HashSet::new();
        let bad = |problem: String| RunError::BadSettings {
            field: "pairings".into(),
            problem,
        };
        for pairing in pairings {
            if !(1..=2).contains(&pairing.len()) {
                return Err(bad(
                    "a pairing is two registrations, or one for a bye".into()
                ));
            }
            for player in pairing {
                if !in_stage.contains(player.as_str()) {
                    return Err(bad(format!("`{player}` is not a player of this stage")));
                }
                if self
                    .roster
                    .get(player)
                    .is_some_and(|r| r.state == RegistrationState::Dropped)
                {
                    return Err(bad(format!("`{player}` has dropped")));
                }
                if !seen.insert(player.as_str()) {
                    return Err(bad(format!("`{player}` is paired twice")));
                }
            }
        }
        if pairings.is_empty() {
            return Err(bad("no pairings given".into()));
        }
        let round = run.rounds.len() + 1;
        let mut tables = Tables::new(self.fixed_tables.clone());
        let matches = pairings
            .iter()
            .enumerate()
            .map(|(at, players)| {
                let bye = players.len() == 1;
                PairedMatch {
                    id: format!("s{}-r{round}-m{}", stage + 1, at + 1),
                    table: (!bye).then(|| tables.take(players)),
                    players: players.clone(),
                    bye,
                    label: None,
                }
            })
            .collect();
        Ok(Fact::RoundPaired {
            stage,
            round,
            matches: tables.settle(matches),
            manual: true,
        })
    }

    /// Records `by`'s report of `games` on match `match_id`.
    pub fn report(
        &self,
        match_id: &str,
        by: ReportedBy,
        games: [u32; 2],
    ) -> Result<Fact, RunError> {
        let (stage, round, played) = self
            .find_match(match_id)
            .ok_or_else(|| RunError::UnknownMatch(match_id.to_owned()))?;
        if played.paired.bye {
            return Err(RunError::ByeHasNoResult(match_id.to_owned()));
        }
        if self.phase == Phase::Finished && by != ReportedBy::Organizer {
            return Err(RunError::WrongPhase("the tournament is finished"));
        }
        let run = self.stage(stage)?;
        if run.record.free_for_all.is_some() {
            return Err(RunError::BadSettings {
                field: "games".into(),
                problem: "a lobby's result is each player's finish: send `finish`".into(),
            });
        }
        if games[0] == games[1] {
            match &run.config.settings {
                StageSettings::SingleElimination(_) | StageSettings::DoubleElimination(_) => {
                    return Err(RunError::NoDraws("an elimination match needs a winner"));
                }
                StageSettings::Swiss(swiss) if !swiss.allow_draws => {
                    return Err(RunError::NoDraws("this stage does not allow draws"));
                }
                _ => {}
            }
        }
        let next = result::report(played.result.as_ref(), reporter(by), games)?;
        let is_elimination = matches!(
            run.config.settings,
            StageSettings::SingleElimination(_) | StageSettings::DoubleElimination(_)
        );
        if is_elimination
            && round < run.rounds.len()
            && let Some(before) = played.result.as_ref().filter(|r| r.is_decided())
            && winner(before.games) != winner(next.games)
        {
            return Err(RunError::BracketMovedOn(match_id.to_owned()));
        }
        Ok(Fact::ResultReported {
            match_id: match_id.to_owned(),
            by,
            games,
        })
    }

    /// An organizer's entry (or correction) of a free-for-all lobby's finishes, in the
    /// lobby's order, with the opponents each eliminated (empty: not recorded).
    pub fn report_lobby(
        &self,
        match_id: &str,
        finish: &[u32],
        eliminations: &[u32],
    ) -> Result<Fact, RunError> {
        let (stage, round, played) = self
            .find_match(match_id)
            .ok_or_else(|| RunError::UnknownMatch(match_id.to_owned()))?;
        let Some(mut event) = self.free_for_all_event(stage)? else {
            return Err(RunError::BadSettings {
                field: "finish".into(),
                problem: "a one-on-one match's result is its games: send `games`".into(),
            });
        };
        let result = LobbyResult {
            lobby: played
                .paired
                .players
                .iter()
                .map(|p| PlayerId(p.clone()))
                .collect(),
            finish: finish.to_vec(),
            eliminations: eliminations.to_vec(),
        };
        result.validate().map_err(|err| RunError::BadSettings {
            field: "finish".into(),
            problem: err.to_string(),
        })?;
        // The stage with this result in place must still read (a corrected Threshold Win
        // lobby may not have played on after its new winner).
        let at = round - 1;
        if let Some(lobbies) = event.matches.get_mut(at) {
            lobbies.retain(|other| other.lobby != result.lobby);
            lobbies.push(result);
        }
        event.validate().map_err(|err| RunError::BadSettings {
            field: "finish".into(),
            problem: err.to_string(),
        })?;
        Ok(Fact::LobbyReported {
            match_id: match_id.to_owned(),
            finish: finish.to_vec(),
            eliminations: eliminations.to_vec(),
        })
    }

    /// Starts (or resumes) the current round's timer at `now_ms`.
    pub fn start_timer(&self, now_ms: i64) -> Result<Fact, RunError> {
        let timer = self.current_timer()?;
        if timer.running_since_ms.is_some() {
            return Err(RunError::WrongPhase("the round timer is running already"));
        }
        Ok(Fact::TimerStarted { at_ms: now_ms })
    }

    /// Pauses the current round's timer at `now_ms`.
    pub fn pause_timer(&self, now_ms: i64) -> Result<Fact, RunError> {
        let timer = self.current_timer()?;
        if timer.running_since_ms.is_none() {
            return Err(RunError::WrongPhase("the round timer is not running"));
        }
        Ok(Fact::TimerPaused { at_ms: now_ms })
    }

    /// Gives one match of the current round `minutes` more.
    pub fn extend(&self, match_id: &str, minutes: u32) -> Result<Fact, RunError> {
        let (stage, round, _) = self
            .find_match(match_id)
            .ok_or_else(|| RunError::UnknownMatch(match_id.to_owned()))?;
        let current = self
            .stage(self.current_stage)?
            .rounds
            .last()
            .map(|r| r.number);
        if stage != self.current_stage || Some(round) != current {
            return Err(RunError::WrongPhase(
                "only a match of the current round gets extra time",
            ));
        }
        if !(1..=120).contains(&minutes) {
            return Err(RunError::BadSettings {
                field: "minutes".into(),
                problem: "extra time is 1 to 120 minutes".into(),
            });
        }
        Ok(Fact::TimeExtended {
            match_id: match_id.to_owned(),
            minutes,
        })
    }

    fn current_timer(&self) -> Result<&Timer, RunError> {
        if self.phase != Phase::Running {
            return Err(RunError::WrongPhase("the tournament is not running"));
        }
        self.stage(self.current_stage)?
            .rounds
            .last()
            .map(|round| &round.timer)
            .ok_or(RunError::WrongPhase("no round has been paired yet"))
    }

    /// Applies the advancement rules of the complete current stage and starts the next one,
    /// or finishes the event after its last stage.
    pub fn advance(&self) -> Result<Fact, RunError> {
        if self.phase != Phase::Running {
            return Err(RunError::WrongPhase(match self.phase {
                Phase::Registration => "the tournament has not started",
                _ => "the tournament is finished",
            }));
        }
        let stage = self.current_stage;
        if !self.stage_is_complete(stage)? {
            return Err(RunError::StageNotComplete(stage + 1));
        }
        let order = self.final_order(stage)?;
        let dropped = |player: &PlayerId| {
            self.roster
                .get(player.as_str())
                .is_some_and(|r| r.state == RegistrationState::Dropped)
        };
        let has_rules = self.plan.rules.iter().any(|rule| rule.from_stage == stage);
        let next = if has_rules {
            let outcomes = stages::advance(&self.plan, stage, &order, dropped, self.seed);
            let to = outcomes.iter().find_map(|outcome| match outcome.action {
                Action::Advance { to_stage } => Some(to_stage),
                Action::Eliminate => None,
            });
            to.map(|to| {
                let mut seen = HashSet::new();
                let players: Vec<String> = outcomes
                    .iter()
                    .filter(|o| o.action == Action::Advance { to_stage: to })
                    .flat_map(|o| o.players.iter())
                    .filter(|p| seen.insert((*p).clone()))
                    .map(|p| p.0.clone())
                    .collect();
                (to, players)
            })
        } else if stage + 1 < self.stages.len() {
            let players = order
                .standings
                .iter()
                .filter(|s| !dropped(&s.player))
                .map(|s| s.player.0.clone())
                .collect();
            Some((stage + 1, players))
        } else {
            None
        };
        match next {
            Some((to_stage, players)) if !players.is_empty() => Ok(Fact::Advanced {
                from_stage: stage,
                to_stage,
                players,
            }),
            _ => Ok(Fact::Finished {
                placements: self.overall_placements(stage)?,
            }),
        }
    }

    /// Everyone who played, first place first: the last stage's final order, then the players
    /// who left each earlier stage, in that stage's order.
    fn overall_placements(&self, last: usize) -> Result<Vec<String>, RunError> {
        let mut seen = HashSet::new();
        let mut placements = Vec::new();
        for stage in (0..=last).rev() {
            if self.stages[stage].state == StageState::Pending {
                continue;
            }
            for standing in self.final_order(stage)?.standings {
                if seen.insert(standing.player.0.clone()) {
                    placements.push(standing.player.0);
                }
            }
        }
        Ok(placements)
    }
}

/// The engine's reporter of a recorded one.
fn reporter(by: ReportedBy) -> Reporter {
    match by {
        ReportedBy::First => Reporter::Player(0),
        ReportedBy::Second => Reporter::Player(1),
        ReportedBy::Organizer => Reporter::Organizer,
    }
}

/// Lobby 1 is A, 27 is AA.
fn lobby_letter(lobby: usize) -> String {
    let mut n = lobby;
    let mut letters = Vec::new();
    while n > 0 {
        let rest = (n - 1) % 26;
        letters.push(char::from(b'A' + u8::try_from(rest).unwrap_or(0)));
        n = (n - 1) / 26;
    }
    letters.iter().rev().collect()
}

/// Who won: 0, 1, or `None` for a draw.
fn winner(games: [u32; 2]) -> Option<usize> {
    match games[0].cmp(&games[1]) {
        std::cmp::Ordering::Greater => Some(0),
        std::cmp::Ordering::Less => Some(1),
        std::cmp::Ordering::Equal => None,
    }
}

/// Table numbers: a player with a fixed table keeps it; every other match takes the lowest
/// table nobody keeps, in pairing order (the best ranked at table 1).
struct Tables {
    fixed: BTreeMap<String, u32>,
    kept: HashSet<u32>,
}

impl Tables {
    fn new(fixed: BTreeMap<String, u32>) -> Self {
        Self {
            fixed,
            kept: HashSet::new(),
        }
    }

    /// The fixed table of a match's players (the first free one), or 0 for "number later".
    fn take(&mut self, players: &[String]) -> u32 {
        for player in players {
            if let Some(&table) = self.fixed.get(player)
                && self.kept.insert(table)
            {
                return table;
            }
        }
        0
    }

    /// Numbers the matches left at 0.
    fn settle(self, mut matches: Vec<PairedMatch>) -> Vec<PairedMatch> {
        let mut next = 1;
        for paired in &mut matches {
            if paired.table == Some(0) {
                while self.kept.contains(&next) {
                    next += 1;
                }
                paired.table = Some(next);
                next += 1;
            }
        }
        matches
    }
}

#[cfg(test)]
mod tests;
