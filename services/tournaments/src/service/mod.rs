//! The tournaments service's operations: who may ask (`kit::access`), the log read and
//! written (`store`), each tournament folded once and kept (`run::Run`), and the live events.
//!
//! Every operation reads the facts appended since its copy was folded before it answers, so
//! several replicas over one database agree; a change decides its fact from the state it has
//! just caught up with and appends it under the next number, deciding again if another
//! writer got that number first. One tournament's changes in one process wait for each other
//! (a lock per tournament), so the retry is only ever between processes.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use kit::access::{self, Action, Denied, Owned, Visibility};
use kit::auth::Bearer;
use kit::auth::Caller;
use kit::clients::{AccountsClient, ScriptsClient};
use kit::timestamp::to_millis;
use rand::RngCore as _;
use serde_json::{Value, json};
use tokio::sync::broadcast;

use crate::domain::result::ResultState;
use crate::error::Error;
use crate::run::create::{CreateInput, created};
use crate::run::deck_settings::{self, Scope};
use crate::run::fact::{DeckSettings, DecklistVisibility, Fact, Organizer, PinnedRule, ReportedBy};
use crate::run::{Phase, Run, RunError};
use crate::store::{Appended, Header, Submission, TournamentStore};
use crate::streams::{StreamLimits, StreamSlot, StreamSlots};
use crate::webhooks::WebhookSettings;

mod hooks;

pub use hooks::DELIVERY_LOG;

/// How many times a change decides again after another writer appended first.
const MAX_ATTEMPTS: usize = 8;

/// The prefix of every tournament's id ([`random_id`] with `t`).
const ID_PREFIX: &str = "t_";

/// How often a watcher looks at the log when nothing was published in this process (another
/// replica may have written).
const WATCH_POLL: Duration = Duration::from_secs(2);

/// The longest deck text a lineup takes (as the deck import reads).
const MAX_DECK_TEXT_BYTES: usize = 256 * 1024;

/// The tournaments a process keeps folded before it forgets the idle ones.
const MAX_FOLDED: usize = 512;

/// The most tournaments a listing returns.
pub const LIST_LIMIT: u32 = 100;

/// The live events a tournament's folded state keeps for its watchers.
const FEED_EVENTS: usize = 4096;

/// One tournament as this process has folded it: its state and the live events of its latest
/// facts, shared by every operation and every watcher.
#[derive(Debug)]
struct Folded {
    /// The state after the last fact folded.
    run: Arc<Run>,
    /// The events of every fact from `feed_start` on, in order.
    feed: std::collections::VecDeque<Published>,
    /// The first fact whose events the feed holds.
    feed_start: u64,
}

impl Folded {
    /// Folds the fact numbered `seq` and keeps its events (at most `keep`).
    fn apply(&mut self, seq: u64, fact: &Fact, keep: usize) {
        let counted_before = decided_games(&self.run, fact);
        Arc::make_mut(&mut self.run).apply(seq, fact);
        self.feed
            .extend(events_of(counted_before, &self.run, seq, fact));
        // Trimmed a whole fact at a time, so the feed holds every event of each fact it has.
        while self.feed.len() > keep {
            let Some(first) = self.feed.pop_front() else {
                break;
            };
            while self
                .feed
                .front()
                .is_some_and(|event| event.seq == first.seq)
            {
                self.feed.pop_front();
            }
            self.feed_start = first.seq + 1;
        }
    }

    /// The events after fact `after`, if the feed still holds all of them.
    fn events_after(&self, after: u64) -> Option<Vec<Published>> {
        (after + 1 >= self.feed_start).then(|| {
            self.feed
                .iter()
                .filter(|event| event.seq > after)
                .cloned()
                .collect()
        })
    }
}

/// One tournament's folded state, shared by the operations on it.
type Slot = Arc<tokio::sync::Mutex<Option<Folded>>>;

/// A change to registration: what `ChangeRegistration` asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RegistrationChange {
    /// Withdraw before the start.
    Unregister,
    /// Check in.
    CheckIn,
    /// Drop.
    Drop,
    /// Reinstate (organizers).
    Reinstate,
    /// Keep at a fixed table, or free it (organizers).
    FixTable(Option<u32>),
}

/// Deck settings as an organizer saves them: rules by ruleset id (`None`: the game's default
/// of that scope), in the order card, deck, deck set.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DeckSettingsInput {
    /// Decks each player brings (default 1).
    pub decks_to_bring: Option<u32>,
    /// Card refs rejected before any rule runs.
    pub banned_cards: Vec<String>,
    /// The card, deck and deck-set rules.
    pub rules: [Option<String>; 3],
    /// When lineups lock (unix milliseconds); `None`: the start.
    pub deadline_ms: Option<i64>,
    /// Who sees decklists.
    pub decklist_visibility: DecklistVisibility,
    /// At the start, drop the players without an accepted lineup.
    pub drop_without_lineup: bool,
}

/// A result as reported: a one-on-one match's games, or a free-for-all lobby's finishes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reported {
    /// Games won by `players[0]` and `players[1]`.
    Games([u32; 2]),
    /// Each player's finish from 1 in the lobby's order, and the opponents each eliminated
    /// (empty: not recorded).
    Finish {
        /// The finishes.
        finish: Vec<u32>,
        /// The eliminations.
        eliminations: Vec<u32>,
    },
}

/// A change of the round timer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TimerChange {
    /// Start or resume.
    Start,
    /// Pause.
    Pause,
    /// Give one match extra minutes.
    Extend(String, u32),
}

/// One live event of a tournament.
#[derive(Debug, Clone, PartialEq)]
pub struct Published {
    /// The fact's number.
    pub seq: u64,
    /// The event's kind.
    pub kind: &'static str,
    /// Its data.
    pub data: Value,
}

/// The tournaments service.
#[derive(Debug, Clone)]
pub struct Tournaments {
    store: TournamentStore,
    accounts: Option<AccountsClient>,
    scripts: Option<ScriptsClient>,
    slots: Arc<Mutex<HashMap<String, Slot>>>,
    published: broadcast::Sender<(String, u64)>,
    /// The live events kept per folded tournament.
    feed_events: usize,
    /// Where lineup checks and webhook deliveries are queued; `None`: submissions stay
    /// pending until a sweep.
    queue: Option<kit::queue::Queue>,
    /// The operator's webhook settings (no key: webhooks are off).
    webhooks: WebhookSettings,
    /// The live event streams each caller holds, under the operator's caps.
    streams: StreamSlots,
}

impl Tournaments {
    /// A service over `store`; `accounts` finds co-organizers by username, `scripts` gives
    /// the rules deck settings pin.
    pub fn new(
        store: TournamentStore,
        accounts: Option<AccountsClient>,
        scripts: Option<ScriptsClient>,
    ) -> Self {
        Self {
            store,
            accounts,
            scripts,
            slots: Arc::new(Mutex::new(HashMap::new())),
            published: broadcast::channel(1024).0,
            feed_events: FEED_EVENTS,
            queue: None,
            webhooks: WebhookSettings::default(),
            streams: StreamSlots::default(),
        }
    }

    /// This service capping the live event streams each caller holds at `limits`.
    #[must_use]
    pub fn with_stream_limits(mut self, limits: StreamLimits) -> Self {
        self.streams = StreamSlots::new(limits);
        self
    }

    /// Takes one of `caller`'s live event stream slots for a stream to hold while it lasts,
    /// or refuses (`resource_exhausted`) when it holds as many as it may.
    pub fn open_stream(&self, caller: kit::caller::CallerKey) -> Result<StreamSlot, Error> {
        Ok(self.streams.take(caller)?)
    }

    /// This service taking webhooks as `settings` say.
    #[must_use]
    pub fn with_webhooks(mut self, settings: WebhookSettings) -> Self {
        self.webhooks = settings;
        self
    }

    /// This service queueing each submitted lineup's check on `queue`.
    #[must_use]
    pub fn with_queue(mut self, queue: kit::queue::Queue) -> Self {
        self.queue = Some(queue);
        self
    }

    /// The store (the submission worker reads and writes submissions through it).
    pub fn store(&self) -> &TournamentStore {
        &self.store
    }

    /// This service keeping `events` live events per tournament (at least 1) instead of
    /// the default: watchers resuming from further back fold the log themselves.
    #[must_use]
    pub fn with_feed_events(mut self, events: usize) -> Self {
        self.feed_events = events.max(1);
        self
    }

    fn slot(&self, id: &str) -> Slot {
        let mut slots = self
            .slots
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if !slots.contains_key(id) && slots.len() >= MAX_FOLDED {
            // Forget the folded copies nobody is using: the log has them all.
            slots.retain(|_, slot| Arc::strong_count(slot) > 1 || slot.try_lock().is_err());
        }
        slots.entry(id.to_owned()).or_default().clone()
    }

    fn forget(&self, id: &str) {
        let mut slots = self
            .slots
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        slots.remove(id);
    }

    /// Folds the facts appended since `state` was folded.
    async fn catch_up(&self, id: &str, state: &mut Option<Folded>) -> Result<(), Error> {
        let after = state.as_ref().map_or(0, |folded| folded.run.seq);
        for (seq, time_ms, fact) in self.store.facts_after(id, after).await? {
            match state {
                None => {
                    let mut run = Run::new(id, &fact).ok_or(Error::Corrupt {
                        what: "tournament creation",
                    })?;
                    run.create_time_ms = time_ms;
                    let feed = events_of(None, &run, seq, &fact).into();
                    *state = Some(Folded {
                        run: Arc::new(run),
                        feed,
                        feed_start: seq,
                    });
                }
                Some(folded) => folded.apply(seq, &fact, self.feed_events),
            }
        }
        Ok(())
    }

    /// The tournament `id` as it stands, for anyone (tournaments are public).
    pub async fn get(&self, caller: &Caller, id: &str) -> Result<Arc<Run>, Error> {
        let not_found = || Error::Denied {
            denied: Denied::NotFound,
            id: id.to_owned(),
        };
        // An id not of the shape tournament ids have cannot exist: not looked up.
        if !kit::text::is_possible_id(id, ID_PREFIX) {
            return Err(not_found());
        }
        let slot = self.slot(id);
        let mut state = slot.lock().await;
        self.catch_up(id, &mut state).await?;
        let Some(run) = state.as_ref().map(|folded| folded.run.clone()) else {
            drop(state);
            self.forget(id);
            return Err(not_found());
        };
        drop(state);
        access::check(
            caller,
            Action::Read,
            Some(public(&run.organizers[0].account)),
        )
        .map_err(|denied| Error::Denied {
            denied,
            id: id.to_owned(),
        })?;
        Ok(run)
    }

    /// Decides a fact from the state as it stands (`decide`, which also checks the caller),
    /// appends it and folds it; decides again when another writer appended first.
    async fn change(
        &self,
        caller: &Caller,
        id: &str,
        decide: impl Fn(&Run) -> Result<Fact, Error>,
    ) -> Result<(Arc<Run>, Fact), Error> {
        // The ownership rule's first step: nobody anonymous, no token that may not write.
        access::creator(caller).map_err(|denied| Error::Denied {
            denied,
            id: id.to_owned(),
        })?;
        // An id not of the shape tournament ids have cannot exist: not looked up.
        if !kit::text::is_possible_id(id, ID_PREFIX) {
            return Err(Error::Denied {
                denied: Denied::NotFound,
                id: id.to_owned(),
            });
        }
        let slot = self.slot(id);
        let mut state = slot.lock().await;
        for _ in 0..MAX_ATTEMPTS {
            self.catch_up(id, &mut state).await?;
            let Some(run) = state.as_ref().map(|folded| &folded.run) else {
                drop(state);
                self.forget(id);
                return Err(Error::Denied {
                    denied: Denied::NotFound,
                    id: id.to_owned(),
                });
            };
            let fact = decide(run)?;
            let seq = run.seq + 1;
            let phase = match &fact {
                Fact::Started => Some(Phase::Running.name()),
                Fact::Finished { .. } => Some(Phase::Finished.name()),
                _ => None,
            };
            let now = SystemTime::now();
            match self
                .store
                .append(id, seq, &fact, caller.account_id(), phase, now)
                .await?
            {
                Appended::Done => {
                    let folded = state
                        .as_mut()
                        .ok_or(Error::Corrupt { what: "tournament" })?;
                    folded.apply(seq, &fact, self.feed_events);
                    let run = folded.run.clone();
                    let fresh: Vec<Published> = if run.webhooks.is_empty() {
                        Vec::new()
                    } else {
                        folded
                            .feed
                            .iter()
                            .filter(|event| event.seq == seq)
                            .cloned()
                            .collect()
                    };
                    drop(state);
                    let _ = self.published.send((id.to_owned(), seq));
                    if !fresh.is_empty() {
                        self.notify(&run, &fresh).await;
                    }
                    return Ok((run, fact));
                }
                Appended::Conflict => continue,
            }
        }
        Err(Error::Busy)
    }

    /// An organizer's change: the ownership rule for organizers, then the event's own
    /// decision (`decide`), appended as [`Self::change`] does.
    async fn organize(
        &self,
        caller: &Caller,
        id: &str,
        decide: impl Fn(&Run) -> Result<Fact, RunError>,
    ) -> Result<Arc<Run>, Error> {
        Ok(self
            .change(caller, id, |run| {
                organizer(caller, run)?;
                Ok(decide(run)?)
            })
            .await?
            .0)
    }

    /// Creates a tournament organized by the caller.
    pub async fn create(
        &self,
        caller: &Caller,
        mut input: CreateInput,
        seed: Option<u64>,
    ) -> Result<Arc<Run>, Error> {
        let account = access::creator(caller).map_err(Error::CannotCreate)?;
        let id = random_id("t");
        input.seed = seed.unwrap_or_else(|| rand::rng().next_u64());
        let fact = created(
            input,
            Organizer {
                account: account.id.clone(),
                username: account.username.clone(),
            },
        )?;
        self.store
            .create(
                &id,
                &fact,
                (&account.id, &account.username),
                SystemTime::now(),
            )
            .await?;
        self.get(caller, &id).await
    }

    /// The tournaments of a game, the newest first.
    pub async fn list(&self, game: proto::game::Game) -> Result<Vec<Header>, Error> {
        self.store.list(game, LIST_LIMIT).await
    }

    /// Organizers: opens or closes registration.
    pub async fn set_registration(
        &self,
        caller: &Caller,
        id: &str,
        open: bool,
    ) -> Result<Arc<Run>, Error> {
        self.organize(caller, id, |run| run.set_registration(open))
            .await
    }

    /// Organizers: changes what a stage may change while it runs.
    pub async fn change_stage(
        &self,
        caller: &Caller,
        id: &str,
        stage: usize,
        pairing_style: Option<crate::domain::defaults::PairingStyle>,
        prevent_repeat_matchups: Option<bool>,
        round_minutes: Option<u32>,
    ) -> Result<Arc<Run>, Error> {
        self.organize(caller, id, |run| {
            run.change_stage(stage, pairing_style, prevent_repeat_matchups, round_minutes)
        })
        .await
    }

    /// Organizers: saves the deck settings, pinning the current version of each rule they use
    /// (read from the scripts service with the organizer's `bearer`, so a private ruleset of
    /// theirs can be used; one they may not see is `ruleset_not_found`).
    pub async fn set_deck_settings(
        &self,
        caller: &Caller,
        bearer: Option<Bearer>,
        id: &str,
        input: DeckSettingsInput,
    ) -> Result<Arc<Run>, Error> {
        let run = self.get(caller, id).await?;
        organizer(caller, &run)?;
        let scripts = self
            .scripts
            .as_ref()
            .ok_or_else(|| Error::BadRequest {
                field: "deckSettings",
                problem: "this service has no scripts service to read rules from".into(),
            })?
            .with_bearer(bearer);
        let mut pinned = Vec::with_capacity(3);
        for (scope, chosen) in Scope::ALL.into_iter().zip(input.rules) {
            let ruleset =
                chosen.unwrap_or_else(|| deck_settings::default_rule(run.game, scope).to_owned());
            let found = scripts
                .get_ruleset(proto::scripts::v1::GetRulesetRequest {
                    game: proto::game::to_wire(run.game),
                    id: ruleset.clone(),
                })
                .await
                .map_err(Error::Scripts)?
                .ruleset
                .ok_or(Error::Corrupt { what: "ruleset" })?;
            if proto::json::rule_scope_name(found.scope) != scope.name() {
                return Err(Error::BadRequest {
                    field: "deckSettings.rules",
                    problem: format!(
                        "`{ruleset}` is a {} rule, not a {} rule",
                        proto::json::rule_scope_name(found.scope),
                        scope.name()
                    ),
                });
            }
            pinned.push(PinnedRule {
                ruleset: found.id,
                version: found.version,
                name: found.name,
                source: found.source,
                built_in: found.built_in,
                direct_bans: found.direct_bans,
            });
        }
        let [card, deck, deckset]: [PinnedRule; 3] = pinned
            .try_into()
            .map_err(|_| Error::Corrupt { what: "rules" })?;
        let settings = DeckSettings {
            decks_to_bring: input.decks_to_bring.unwrap_or(1),
            banned_cards: input.banned_cards,
            card,
            deck,
            deckset,
            deadline_ms: input.deadline_ms,
            decklist_visibility: input.decklist_visibility,
            drop_without_lineup: input.drop_without_lineup,
        };
        self.organize(caller, id, |run| run.set_deck_settings(settings.clone()))
            .await
    }

    /// Submits a lineup for registration `registration`: its player, or an organizer (a
    /// guest's). Returns the pending submission; its check is queued.
    pub async fn submit_lineup(
        &self,
        caller: &Caller,
        id: &str,
        registration: &str,
        decks: Vec<String>,
    ) -> Result<Submission, Error> {
        access::creator(caller).map_err(|denied| Error::Denied {
            denied,
            id: id.to_owned(),
        })?;
        let run = self.get(caller, id).await?;
        self.may_see_lineup(caller, &run, registration, true)?;
        let settings = run.deck_settings.as_ref().ok_or(Error::Run(RunError::WrongPhase(
            "this tournament takes no lineups yet: its organizer has not saved its deck settings",
        )))?;
        let now = SystemTime::now();
        let locked = match settings.deadline_ms {
            Some(deadline) => to_millis(now) > deadline,
            None => run.phase != Phase::Registration,
        };
        if locked && !run.unlocked_lineups.contains(registration) {
            return Err(Error::Run(RunError::WrongPhase(
                "lineups are locked: the deadline has passed",
            )));
        }
        if decks.is_empty()
            || decks.len() > usize::try_from(deck_settings::MAX_DECKS).unwrap_or(usize::MAX)
            || decks
                .iter()
                .any(|deck| deck.trim().is_empty() || deck.len() > MAX_DECK_TEXT_BYTES)
        {
            return Err(Error::BadRequest {
                field: "decks",
                problem: format!(
                    "1 to {} deck codes or lists, each at most {} KiB",
                    deck_settings::MAX_DECKS,
                    MAX_DECK_TEXT_BYTES / 1024
                ),
            });
        }
        // Deck codes and lists are free text (`kit::text`): anything but NUL.
        kit::text::free_texts("decks", decks.iter().map(String::as_str)).map_err(|refused| {
            Error::BadRequest {
                field: "decks",
                problem: refused.problem.to_string(),
            }
        })?;
        let submission = Submission {
            id: random_id("sub"),
            tournament: id.to_owned(),
            registration: registration.to_owned(),
            decks,
            state: "pending".into(),
            issues: Vec::new(),
            failure: None,
            superseded: false,
            submit_time_ms: to_millis(now),
            check_time_ms: None,
        };
        self.store.insert_submission(&submission).await?;
        if let Some(queue) = &self.queue {
            crate::jobs::enqueue(queue, &submission).await;
        }
        Ok(submission)
    }

    /// Organizers: lets one player submit after the deadline.
    pub async fn unlock_lineup(
        &self,
        caller: &Caller,
        id: &str,
        registration: &str,
    ) -> Result<Arc<Run>, Error> {
        self.organize(caller, id, |run| run.unlock_lineup(registration))
            .await
    }

    /// Organizers: checks a registration's latest lineup again (after a rule failed, say) as a
    /// new submission of the same decks, which supersedes it.
    pub async fn recheck_lineup(
        &self,
        caller: &Caller,
        id: &str,
        registration: &str,
    ) -> Result<Submission, Error> {
        let run = self.get(caller, id).await?;
        organizer(caller, &run)?;
        // A registration the tournament does not have is not looked up.
        if run.roster.get(registration).is_none() {
            return Err(Error::Run(RunError::Roster(
                crate::domain::registration::RosterError::Unknown(registration.to_owned()),
            )));
        }
        let latest = self
            .store
            .latest_submissions(id, Some(registration))
            .await?
            .pop()
            .ok_or_else(|| {
                Error::Run(RunError::WrongPhase(
                    "this registration has submitted no lineup",
                ))
            })?;
        let submission = Submission {
            id: random_id("sub"),
            state: "pending".into(),
            issues: Vec::new(),
            failure: None,
            superseded: false,
            submit_time_ms: to_millis(SystemTime::now()),
            check_time_ms: None,
            ..latest
        };
        self.store.insert_submission(&submission).await?;
        if let Some(queue) = &self.queue {
            crate::jobs::enqueue(queue, &submission).await;
        }
        Ok(submission)
    }

    /// The latest lineup of `registration`, for whoever may see it.
    pub async fn lineup(
        &self,
        caller: &Caller,
        id: &str,
        registration: &str,
    ) -> Result<Option<Submission>, Error> {
        let run = self.get(caller, id).await?;
        self.may_see_lineup(caller, &run, registration, false)?;
        Ok(self
            .store
            .latest_submissions(id, Some(registration))
            .await?
            .pop())
    }

    /// Every latest lineup the caller may see under the tournament's decklist visibility.
    pub async fn lineups(&self, caller: &Caller, id: &str) -> Result<Vec<Submission>, Error> {
        let run = self.get(caller, id).await?;
        Ok(self
            .store
            .latest_submissions(id, None)
            .await?
            .into_iter()
            .filter(|submission| {
                self.may_see_lineup(caller, &run, &submission.registration, false)
                    .is_ok()
            })
            .collect())
    }

    /// Who may see (or, `submitting`, submit) a registration's lineup: its player and the
    /// organizers; anyone else only as the decklist visibility allows (and never submit).
    fn may_see_lineup(
        &self,
        caller: &Caller,
        run: &Run,
        registration: &str,
        submitting: bool,
    ) -> Result<(), Error> {
        let found = run.roster.get(registration).ok_or_else(|| {
            Error::Run(RunError::Roster(
                crate::domain::registration::RosterError::Unknown(registration.to_owned()),
            ))
        })?;
        // Submitting needs a token that may write (checked before); reading one that may read:
        // the reading rule for the player and the organizers alike, so an organizer's
        // read-only token reads every lineup (issue 35).
        let (account, organizes) = if submitting {
            (caller.account_id(), organizer(caller, run).is_ok())
        } else {
            (
                access::viewer(caller),
                organizer_reading(caller, run).is_ok(),
            )
        };
        let mine = found.account.is_some() && found.account.as_deref() == account;
        if mine || organizes {
            return Ok(());
        }
        let visible = match run.deck_settings.as_ref().map(|s| s.decklist_visibility) {
            Some(DecklistVisibility::Public) => true,
            Some(DecklistVisibility::AfterEvent) => run.phase == Phase::Finished,
            _ => false,
        };
        if submitting {
            return Err(Error::NotYours(
                "only the player or an organizer submits a lineup",
            ));
        }
        if visible {
            Ok(())
        } else {
            Err(Error::NotYours(
                "this tournament shows a lineup to its player and organizers only",
            ))
        }
    }

    /// Organizers: adds the account `username` as a co-organizer.
    pub async fn add_organizer(
        &self,
        caller: &Caller,
        id: &str,
        username: &str,
    ) -> Result<Arc<Run>, Error> {
        let run = self.get(caller, id).await?;
        organizer(caller, &run)?;
        let accounts = self
            .accounts
            .as_ref()
            .ok_or_else(|| Error::UnknownUser(username.to_owned()))?;
        let user = accounts
            .get_user(username)
            .await
            .map_err(|err| {
                if err.code == tonic::Code::NotFound {
                    Error::UnknownUser(username.to_owned())
                } else {
                    Error::Accounts(err)
                }
            })?
            .user
            .ok_or_else(|| Error::UnknownUser(username.to_owned()))?;
        let added = Organizer {
            account: user.account,
            username: user.username,
        };
        self.organize(caller, id, |_| {
            Ok(Fact::OrganizerAdded {
                organizer: added.clone(),
            })
        })
        .await
    }

    /// Organizers: starts the event.
    pub async fn start(&self, caller: &Caller, id: &str) -> Result<Arc<Run>, Error> {
        let run = self.get(caller, id).await?;
        organizer(caller, &run)?;
        run.start()?;
        // With "drop players without an accepted lineup", they are dropped first.
        if run
            .deck_settings
            .as_ref()
            .is_some_and(|settings| settings.drop_without_lineup)
        {
            let accepted: std::collections::HashSet<String> = self
                .store
                .latest_submissions(id, None)
                .await?
                .into_iter()
                .filter(|submission| submission.state == "accepted")
                .map(|submission| submission.registration)
                .collect();
            let without: Vec<String> = run
                .roster
                .pairable()
                .iter()
                .filter(|registration| !accepted.contains(&registration.id))
                .map(|registration| registration.id.clone())
                .collect();
            for registration in without {
                self.organize(caller, id, |run| run.drop_player(&registration))
                    .await?;
            }
        }
        self.organize(caller, id, |run| run.start()).await
    }

    /// Organizers: applies the complete stage's advancement rules, or finishes the event.
    pub async fn advance(&self, caller: &Caller, id: &str) -> Result<Arc<Run>, Error> {
        self.organize(caller, id, |run| run.advance()).await
    }

    /// Signs up the caller, or (organizers) a guest named `guest`. Returns the registration id.
    pub async fn register(
        &self,
        caller: &Caller,
        id: &str,
        guest: Option<&str>,
    ) -> Result<(Arc<Run>, String), Error> {
        let (run, fact) = self
            .change(caller, id, |run| {
                let account = access::creator(caller).map_err(Error::CannotCreate)?;
                match guest {
                    Some(name) => {
                        organizer(caller, run)?;
                        Ok(run.register(None, name)?)
                    }
                    None => Ok(run.register(Some(&account.id), &account.username)?),
                }
            })
            .await?;
        let Fact::Registered { registration, .. } = fact else {
            return Err(Error::Corrupt {
                what: "registration",
            });
        };
        Ok((run, registration))
    }

    /// Changes a registration: its player or an organizer (reinstating and fixing a table are
    /// the organizers').
    pub async fn change_registration(
        &self,
        caller: &Caller,
        id: &str,
        registration: &str,
        change: RegistrationChange,
    ) -> Result<Arc<Run>, Error> {
        Ok(self
            .change(caller, id, |run| {
                let is_organizer = organizer(caller, run).is_ok();
                let mine = run.roster.get(registration).is_some_and(|r| {
                    r.account.is_some() && r.account.as_deref() == caller.account_id()
                });
                if run.roster.get(registration).is_none() {
                    return Err(RunError::Roster(
                        crate::domain::registration::RosterError::Unknown(registration.to_owned()),
                    )
                    .into());
                }
                match change {
                    RegistrationChange::Reinstate | RegistrationChange::FixTable(_) => {
                        organizer(caller, run)?;
                    }
                    _ if !(is_organizer || mine) => {
                        return Err(Error::NotYours(
                            "only the player or an organizer changes a registration",
                        ));
                    }
                    _ => {}
                }
                Ok(match change {
                    RegistrationChange::Unregister => run.unregister(registration)?,
                    RegistrationChange::CheckIn => run.check_in(registration)?,
                    RegistrationChange::Drop => run.drop_player(registration)?,
                    RegistrationChange::Reinstate => run.reinstate(registration)?,
                    RegistrationChange::FixTable(table) => run.fix_table(registration, table)?,
                })
            })
            .await?
            .0)
    }

    /// Organizers: pairs the next round (the engine's, or `manual` pairings of a Swiss round).
    pub async fn pair(
        &self,
        caller: &Caller,
        id: &str,
        manual: &[Vec<String>],
    ) -> Result<Arc<Run>, Error> {
        self.organize(caller, id, |run| {
            if manual.is_empty() {
                run.pair()
            } else {
                run.pair_manually(manual)
            }
        })
        .await
    }

    /// Organizers: the round timer.
    pub async fn timer(
        &self,
        caller: &Caller,
        id: &str,
        change: TimerChange,
    ) -> Result<Arc<Run>, Error> {
        self.organize(caller, id, |run| {
            let now = to_millis(SystemTime::now());
            match &change {
                TimerChange::Start => run.start_timer(now),
                TimerChange::Pause => run.pause_timer(now),
                TimerChange::Extend(match_id, minutes) => run.extend(match_id, *minutes),
            }
        })
        .await
    }

    /// Reports a result: a player of the match (the opponent confirms), even one who also
    /// organizes, or an organizer who does not play it (final).
    pub async fn report(
        &self,
        caller: &Caller,
        id: &str,
        match_id: &str,
        result: &Reported,
    ) -> Result<Arc<Run>, Error> {
        Ok(self
            .change(caller, id, |run| {
                let (_, _, played) = run
                    .find_match(match_id)
                    .ok_or_else(|| RunError::UnknownMatch(match_id.to_owned()))?;
                let games = match result {
                    Reported::Games(games) => *games,
                    Reported::Finish {
                        finish,
                        eliminations,
                    } => {
                        // A lobby's finishes are the organizers' to enter.
                        if organizer(caller, run).is_err() {
                            return Err(Error::NotYours("an organizer enters a lobby's finishes"));
                        }
                        return Ok(run.report_lobby(match_id, finish, eliminations)?);
                    }
                };
                // A player of the match reports as a player, organizer or not: an organizer
                // who registered and plays needs the opponent's confirmation like anyone else
                // (issue 35). Another organizer's entry of this match is final.
                let account = caller.account_id();
                let side = played.paired.players.iter().position(|player| {
                    run.roster
                        .get(player)
                        .is_some_and(|r| r.account.is_some() && r.account.as_deref() == account)
                });
                let by = match side {
                    Some(0) => ReportedBy::First,
                    Some(_) => ReportedBy::Second,
                    None if organizer(caller, run).is_ok() => ReportedBy::Organizer,
                    None => {
                        return Err(Error::NotYours(
                            "only a player of the match or an organizer reports its result",
                        ));
                    }
                };
                Ok(run.report(match_id, by, games)?)
            })
            .await?
            .0)
    }

    /// The live events of tournament `id` after fact `after`, as they happen, into `sink`
    /// until it closes. Watchers share the tournament's folded state and its feed of recent
    /// events: a fact appended in this process wakes them with nothing to read from the
    /// database; every `WATCH_POLL` they also read what other replicas appended. A watcher
    /// resuming from further back than the feed holds folds the log itself up to the feed.
    pub async fn watch(
        &self,
        caller: &Caller,
        id: &str,
        after: u64,
        sink: tokio::sync::mpsc::Sender<Result<Published, Error>>,
    ) -> Result<(), Error> {
        self.get(caller, id).await?;
        let mut published = self.published.subscribe();
        let service = self.clone();
        let id = id.to_owned();
        tokio::spawn(async move {
            let mut last = after;
            let mut read_log = false;
            loop {
                let events = match service.events_after(&id, last, read_log).await {
                    Ok(events) => events,
                    Err(err) => {
                        let _ = sink.send(Err(err)).await;
                        return;
                    }
                };
                for event in events {
                    last = event.seq;
                    if sink.send(Ok(event)).await.is_err() {
                        return;
                    }
                }
                let poll = tokio::time::Instant::now() + WATCH_POLL;
                read_log = loop {
                    tokio::select! {
                        () = sink.closed() => return,
                        woken = published.recv() => match woken {
                            // Another tournament's fact: nothing new here.
                            Ok((other, _)) if other != id => {}
                            Ok(_) => break false,
                            // Missed notices: read the log to be sure.
                            Err(_) => break true,
                        },
                        () = tokio::time::sleep_until(poll) => break true,
                    }
                };
            }
        });
        Ok(())
    }

    /// The events of tournament `id` after fact `after`: from the shared feed (after reading
    /// the log when `read_log`), or, when the feed no longer reaches back that far, by folding
    /// the log up to where the feed starts.
    async fn events_after(
        &self,
        id: &str,
        after: u64,
        read_log: bool,
    ) -> Result<Vec<Published>, Error> {
        let slot = self.slot(id);
        let mut state = slot.lock().await;
        if read_log || state.is_none() {
            self.catch_up(id, &mut state).await?;
        }
        let Some(folded) = state.as_ref() else {
            return Ok(Vec::new());
        };
        if let Some(events) = folded.events_after(after) {
            return Ok(events);
        }
        let feed_start = folded.feed_start;
        drop(state);
        let mut run: Option<Run> = None;
        let mut events = Vec::new();
        for (seq, _, fact) in self.store.facts_after(id, 0).await? {
            if seq >= feed_start {
                break;
            }
            let counted_before = run.as_ref().and_then(|run| decided_games(run, &fact));
            match &mut run {
                None => run = Run::new(id, &fact),
                Some(state) => state.apply(seq, &fact),
            }
            if let Some(state) = &run
                && seq > after
            {
                events.extend(events_of(counted_before, state, seq, &fact));
            }
        }
        Ok(events)
    }
}

/// The games a result fact's match counted before it (a decided result's), for telling
/// whether the fact changed the standings.
fn decided_games(run: &Run, fact: &Fact) -> Option<[u32; 2]> {
    let Fact::ResultReported { match_id, .. } = fact else {
        return None;
    };
    run.find_match(match_id)
        .and_then(|(_, _, played)| played.result.as_ref())
        .filter(|result| result.is_decided())
        .map(|result| result.games)
}

/// An opaque id: `prefix`, `_`, 12 random bytes in base64url (`t_…`, `sub_…`).
fn random_id(prefix: &str) -> String {
    let mut bytes = [0_u8; 12];
    rand::rng().fill_bytes(&mut bytes);
    format!("{prefix}_{}", URL_SAFE_NO_PAD.encode(bytes))
}

/// A public resource owned by `account`: the rule's view of a tournament and an organizer.
fn public(account: &str) -> Owned<'_> {
    Owned {
        owner: account,
        visibility: Visibility::Public,
    }
}

/// The ownership rule for a tournament's organizers: every organizer owns it (the creator and
/// the co-organizers it added); anyone else may only read it.
pub fn organizer(caller: &Caller, run: &Run) -> Result<(), Error> {
    organizers_may(caller, run, Action::Change)
}

/// The ownership rule for what only organizers read (webhooks, their deliveries): an
/// organizer's token that may read will do; anyone else is refused (the tournament itself is
/// public, so the refusal is `permission_denied`, not `not_found`).
pub fn organizer_reading(caller: &Caller, run: &Run) -> Result<(), Error> {
    organizers_may(caller, run, Action::Read)
}

/// Whether `caller` may do `action` as one of the organizers: changing the public tournament,
/// or reading what is private to them.
fn organizers_may(caller: &Caller, run: &Run, action: Action) -> Result<(), Error> {
    let visibility = match action {
        Action::Change => Visibility::Public,
        Action::Read => Visibility::Private,
    };
    let mut refusal = if caller.account().is_none() {
        Denied::Unauthenticated
    } else {
        Denied::PermissionDenied
    };
    for organizer in &run.organizers {
        let owned = Owned {
            owner: &organizer.account,
            visibility,
        };
        match access::check(caller, action, Some(owned)) {
            Ok(()) => return Ok(()),
            Err(Denied::NotFound) => {}
            Err(denied) => refusal = denied,
        }
    }
    Err(Error::Denied {
        denied: refusal,
        id: run.id.clone(),
    })
}

/// The live events of one fact, from the state after it (and, for a result, the games its
/// match counted before).
fn events_of(
    counted_before: Option<[u32; 2]>,
    after: &Run,
    seq: u64,
    fact: &Fact,
) -> Vec<Published> {
    let event = |kind: &'static str, data: Value| Published { seq, kind, data };
    match fact {
        Fact::RoundPaired {
            stage,
            round,
            matches,
            ..
        } => vec![event(
            "pairings_published",
            json!({"stage": stage + 1, "round": round, "matches": matches}),
        )],
        Fact::ResultReported {
            match_id, games, ..
        } => {
            let Some((stage, round, played)) = after.find_match(match_id) else {
                return Vec::new();
            };
            let state = played
                .result
                .as_ref()
                .map_or(ResultState::Reported, |r| r.state);
            let kind = match state {
                ResultState::Reported => "result_reported",
                ResultState::Confirmed => "result_confirmed",
                ResultState::Disputed => "result_disputed",
                ResultState::Final => "result_final",
            };
            let mut events = vec![event(
                kind,
                json!({"stage": stage + 1, "round": round, "matchId": match_id, "games": games, "state": state.name()}),
            )];
            let counted_now = played
                .result
                .as_ref()
                .filter(|r| r.is_decided())
                .map(|r| r.games);
            if counted_before != counted_now {
                events.push(event("standings_changed", json!({"stage": stage + 1})));
            }
            events
        }
        Fact::LobbyReported {
            match_id, finish, ..
        } => {
            let Some((stage, round, _)) = after.find_match(match_id) else {
                return Vec::new();
            };
            vec![
                event(
                    "result_final",
                    json!({"stage": stage + 1, "round": round, "matchId": match_id, "finish": finish, "state": "final"}),
                ),
                event("standings_changed", json!({"stage": stage + 1})),
            ]
        }
        Fact::TimerStarted { .. } | Fact::TimerPaused { .. } | Fact::TimeExtended { .. } => {
            let round = after
                .stages
                .get(after.current_stage)
                .and_then(|s| s.rounds.last());
            let (action, extra) = match fact {
                Fact::TimerStarted { .. } => ("start", json!(null)),
                Fact::TimerPaused { .. } => ("pause", json!(null)),
                Fact::TimeExtended { match_id, minutes } => {
                    ("extend", json!({"matchId": match_id, "minutes": minutes}))
                }
                _ => ("", json!(null)),
            };
            vec![event(
                "round_timer",
                json!({
                    "stage": after.current_stage + 1,
                    "round": round.map(|r| r.number),
                    "action": action,
                    "extend": extra,
                    "running": round.is_some_and(|r| r.timer.running_since_ms.is_some()),
                    "minutes": round.map(|r| r.timer.minutes),
                    "elapsedMs": round.map(|r| r.timer.elapsed_ms),
                    "runningSinceMs": round.and_then(|r| r.timer.running_since_ms),
                }),
            )]
        }
        Fact::Advanced {
            from_stage,
            to_stage,
            players,
        } => vec![event(
            "stage_advanced",
            json!({"fromStage": from_stage + 1, "toStage": to_stage + 1, "players": players}),
        )],
        Fact::Finished { placements } => vec![event(
            "tournament_finished",
            json!({"placements": placements}),
        )],
        Fact::Registered { registration, .. }
        | Fact::Unregistered { registration }
        | Fact::CheckedIn { registration }
        | Fact::Dropped { registration }
        | Fact::Reinstated { registration }
        | Fact::TableFixed { registration, .. } => {
            let shown = after.roster.get(registration);
            vec![event(
                "registration_changed",
                json!({
                    "change": fact_type(fact),
                    "registration": {
                        "id": registration,
                        "displayName": shown.map(|r| r.display_name.clone()),
                        "state": shown.map_or("unregistered", |r| r.state.name()),
                        "fixedTable": after.fixed_tables.get(registration),
                    },
                }),
            )]
        }
        Fact::Started => vec![event(
            "tournament_started",
            json!({"players": after.stages.first().map(|s| s.players.clone())}),
        )],
        Fact::Created { name, .. } => vec![event("tournament_created", json!({"name": name}))],
        // Only organizers know where their events go.
        Fact::WebhookAdded { .. } | Fact::WebhookRemoved { .. } => Vec::new(),
        Fact::OrganizerAdded { .. }
        | Fact::RegistrationSet { .. }
        | Fact::StageSettingsChanged { .. }
        | Fact::DeckSettingsSet { .. }
        | Fact::LineupUnlocked { .. } => {
            vec![event(
                "tournament_changed",
                json!({"change": fact_type(fact)}),
            )]
        }
    }
}

/// The `type` a fact is stored with.
fn fact_type(fact: &Fact) -> Value {
    serde_json::to_value(fact)
        .ok()
        .and_then(|value| value.get("type").cloned())
        .unwrap_or(Value::Null)
}
