//! What happened in a run tournament: the entries of its append-only log, as stored (JSON).
//!
//! A fact is never changed once written: a correction is a new fact. Everything a reader sees
//! (the roster, the rounds, the results, the standings) is the fold of the facts in order
//! ([`super::Run::apply`]). Their JSON is the stored form, so a field is only ever added with a
//! default.

use serde::{Deserialize, Serialize};

use crate::domain::defaults::{FreeForAllSettings, Game, PairingStyle};
use crate::domain::settings::ScoringSettings;
use crate::domain::stages::{AdvanceMode, AdvancementRule, CutTiebreaker};

/// An organizer: an account and its username as typed at sign-up.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Organizer {
    /// The account's id.
    pub account: String,
    /// Its username.
    pub username: String,
}

/// One stage as created: its config in the offline tool's stage-config JSON (seed and prior
/// stage left out), the scoring its standings use, and its round length.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StageRecord {
    /// The stage config, as `offline::write_stage_config` writes it.
    pub config: String,
    /// The event settings of the stage (points, byes, tiebreakers, the game's formula and
    /// floors).
    pub scoring: ScoringSettings,
    /// The round timer's length, in minutes.
    pub round_minutes: u32,
    /// **Allow early cutoff** (elimination stages).
    #[serde(default)]
    pub allow_early_cutoff: bool,
    /// **Advance mode** (a double elimination stage after another one).
    #[serde(default, skip_serializing_if = "is_reset")]
    pub advance_mode: AdvanceMode,
    /// A free-for-all stage's settings (lobbies, placement points, threshold).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub free_for_all: Option<FreeForAllSettings>,
}

/// A match of a paired round, as the pairing wrote it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairedMatch {
    /// The match's id in the tournament (`s1-r2-m3`).
    pub id: String,
    /// Its table; `None` for a bye.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table: Option<u32>,
    /// Registration ids: two for a match, one for a bye.
    pub players: Vec<String>,
    /// A bye.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bye: bool,
    /// The bracket match, in an elimination stage.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
}

/// Who recorded a result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReportedBy {
    /// `players[0]`.
    First,
    /// `players[1]`.
    Second,
    /// An organizer.
    Organizer,
}

/// A rule as a tournament keeps it: the exact version it was saved with (editing the ruleset
/// later changes nothing; saving the deck settings again pins the latest).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PinnedRule {
    /// The ruleset's id (`lor-standard`, `rs_…`).
    pub ruleset: String,
    /// The version pinned.
    pub version: u32,
    /// Its name then.
    pub name: String,
    /// Its source then.
    pub source: String,
    /// A built-in rule (else a custom one: "Unverified code").
    pub built_in: bool,
    /// The ruleset's direct bans then (a card rule's).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub direct_bans: Vec<String>,
}

/// A webhook an organizer registered: where the tournament's events are sent. Its secret is
/// derived from the operator's key and its id (`crate::webhooks`), never kept.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Webhook {
    /// Its id (`wh_…`).
    pub id: String,
    /// Where deliveries are sent (http or https).
    pub url: String,
    /// The events it receives (`crate::webhooks::EVENTS`).
    pub events: Vec<String>,
    /// When it was added, unix milliseconds.
    pub create_time_ms: i64,
}

/// Who may see the decklists of a tournament.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DecklistVisibility {
    /// Organizers and the player (the default).
    #[default]
    Organizers,
    /// Everyone once the event is finished.
    AfterEvent,
    /// Everyone.
    Public,
}

/// A tournament's deck settings, with its rules pinned.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeckSettings {
    /// Decks each player brings.
    pub decks_to_bring: u32,
    /// Card refs rejected before any rule runs.
    #[serde(default)]
    pub banned_cards: Vec<String>,
    /// The card rule.
    pub card: PinnedRule,
    /// The deck rule.
    pub deck: PinnedRule,
    /// The deck-set rule.
    pub deckset: PinnedRule,
    /// When lineups lock (unix milliseconds); `None`: the start.
    #[serde(default)]
    pub deadline_ms: Option<i64>,
    /// Who sees decklists.
    #[serde(default)]
    pub decklist_visibility: DecklistVisibility,
    /// At the start, drop the players without an accepted lineup.
    #[serde(default)]
    pub drop_without_lineup: bool,
}

/// One entry of a tournament's log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Fact {
    /// The tournament was created (always the first fact).
    Created {
        /// The game.
        game: Game,
        /// Its name.
        name: String,
        /// The account that created it.
        organizer: Organizer,
        /// The stages, in order.
        stages: Vec<StageRecord>,
        /// The advancement rules (stages counted from 0).
        rules: Vec<AdvancementRule>,
        /// What decides a tie on a cut line.
        #[serde(default)]
        cut_tiebreaker: CutTiebreaker,
        /// The cap; `None`: none.
        max_participants: Option<u32>,
        /// Whether players check in before the start.
        check_in: bool,
        /// The stored seed of every draw.
        seed: u64,
    },
    /// A co-organizer was added.
    OrganizerAdded {
        /// Who.
        organizer: Organizer,
    },
    /// Registration opened (it is open from creation) or closed.
    RegistrationSet {
        /// Open or not.
        open: bool,
    },
    /// A player signed up (an account, or a guest the organizer added by name).
    Registered {
        /// The registration's id (`r1`, `r2`, …).
        registration: String,
        /// The account; `None` for a guest.
        account: Option<String>,
        /// The name shown.
        display_name: String,
    },
    /// A registration was withdrawn before the start.
    Unregistered {
        /// Which.
        registration: String,
    },
    /// A player checked in.
    CheckedIn {
        /// Which registration.
        registration: String,
    },
    /// A player dropped (or was dropped by an organizer).
    Dropped {
        /// Which registration.
        registration: String,
    },
    /// A player dropped by mistake is back.
    Reinstated {
        /// Which registration.
        registration: String,
    },
    /// A player keeps a fixed table (or no longer does).
    TableFixed {
        /// Which registration.
        registration: String,
        /// The table; `None` frees it.
        table: Option<u32>,
    },
    /// An organizer saved the deck settings (every rule pinned at its version then).
    DeckSettingsSet {
        /// The settings (boxed: the rules' sources make it the largest fact by far).
        settings: Box<DeckSettings>,
    },
    /// An organizer let one player submit after the deadline.
    LineupUnlocked {
        /// Which registration.
        registration: String,
    },
    /// An organizer registered a webhook.
    WebhookAdded {
        /// The hook.
        webhook: Webhook,
    },
    /// An organizer removed a webhook.
    WebhookRemoved {
        /// Its id.
        id: String,
    },
    /// Settings a running stage may change.
    StageSettingsChanged {
        /// The stage, from 0.
        stage: usize,
        /// The Swiss pairing style.
        #[serde(default)]
        pairing_style: Option<PairingStyle>,
        /// Swiss rematch prevention.
        #[serde(default)]
        prevent_repeat_matchups: Option<bool>,
        /// The round timer's length.
        #[serde(default)]
        round_minutes: Option<u32>,
    },
    /// The event started: its first stage runs with the players then in it.
    Started,
    /// The engine paired a round (or an organizer entered its pairings).
    RoundPaired {
        /// The stage, from 0.
        stage: usize,
        /// The round, from 1.
        round: usize,
        /// Its matches and bye.
        matches: Vec<PairedMatch>,
        /// Entered by an organizer rather than paired by the engine.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        manual: bool,
    },
    /// A result was reported, confirmed, disputed, entered or corrected.
    ResultReported {
        /// The match.
        match_id: String,
        /// Who.
        by: ReportedBy,
        /// Games won by `players[0]` and `players[1]`.
        games: [u32; 2],
    },
    /// An organizer entered (or corrected) a free-for-all lobby's finishes.
    LobbyReported {
        /// The lobby (a match of the round).
        match_id: String,
        /// Each player's finish from 1, in the lobby's order (competition ranking).
        finish: Vec<u32>,
        /// Opponents each player eliminated; empty when not recorded.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        eliminations: Vec<u32>,
    },
    /// The round timer started (or resumed).
    TimerStarted {
        /// When, in unix milliseconds.
        at_ms: i64,
    },
    /// The round timer paused.
    TimerPaused {
        /// When, in unix milliseconds.
        at_ms: i64,
    },
    /// One match got extra time.
    TimeExtended {
        /// The match.
        match_id: String,
        /// The minutes added.
        minutes: u32,
    },
    /// A complete stage's advancement rules were applied and the next stage started.
    Advanced {
        /// The stage that ended, from 0.
        from_stage: usize,
        /// The stage that starts, from 0.
        to_stage: usize,
        /// Who plays it, best seed first.
        players: Vec<String>,
    },
    /// The event finished.
    Finished {
        /// Every registration that played, first place first.
        placements: Vec<String>,
    },
}

/// Whether an advance mode is the default (not stored).
fn is_reset(mode: &AdvanceMode) -> bool {
    *mode == AdvanceMode::ResetBracket
}
