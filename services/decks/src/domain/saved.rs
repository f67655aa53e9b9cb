//! Saved decks: what a player keeps of the deck builder — a named deck of piles, with each
//! pile's role, placement and view options, the builder's layout and the rules it is checked
//! with (`guide-deck-builder.md`, "Piles and deck sets").
//!
//! This module decides what a saved deck may hold and what it counts; it stores nothing (the
//! store does) and runs no rule (the scripts service does).

use std::collections::HashSet;
use std::fmt;

use proto::game::Game;

/// The most piles a deck (or a deck set) holds.
pub const MAX_PILES: usize = 32;
/// The most distinct cards a pile holds.
pub const MAX_PILE_CARDS: usize = 1_000;
/// The most copies of one card in a pile.
pub const MAX_COPIES: u32 = 999;
/// The most characters of a deck's (or template's) name.
pub const MAX_NAME_CHARS: usize = 100;
/// The most bytes of a card ref or a ruleset id.
pub const MAX_REF_BYTES: usize = 64;

/// What a saved row is: a deck, or a deck set (a multi-deck layout's piles saved together as a
/// lineup). Both are kept alike; names are unique within a kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A saved deck.
    Deck,
    /// A deck set.
    DeckSet,
}

impl Kind {
    /// Returns the kind as errors name it (`deck`, `deck set`).
    pub fn noun(self) -> &'static str {
        match self {
            Kind::Deck => "deck",
            Kind::DeckSet => "deck set",
        }
    }

    /// Returns the prefix of the kind's ids.
    pub fn id_prefix(self) -> &'static str {
        match self {
            Kind::Deck => "dk_",
            Kind::DeckSet => "ds_",
        }
    }
}

/// A saved deck's id (`dk_…`): opaque and stable, kept when a save by name replaces the deck.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DeckId(pub String);

impl fmt::Display for DeckId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Why a deck (or a deck set, or a template) cannot be saved as given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SavedDeckError {
    /// A name that breaks the platform's text rule (`kit::text`): blank, too long, or holding
    /// a control or bidirectional formatting character.
    #[error("`name`: {0}")]
    InvalidName(proto::text::Problem),
    /// A field of the piles that breaks a limit or a rule; `field` is its path (`piles[2].cards`).
    #[error("`{field}`: {problem}")]
    InvalidPile {
        /// The path of the offending field.
        field: String,
        /// What is wrong with it.
        problem: String,
    },
    /// Rules that do not fit the layout.
    #[error("`rules.{field}`: {problem}")]
    InvalidRules {
        /// `cardRule`, `deckRule` or `decksetRule`.
        field: &'static str,
        /// What is wrong with it.
        problem: String,
    },
}

/// A deck's (or deck set's, or template's) name by the platform's text rule for names
/// (`kit::text`): 1 to 100 characters, not blank, no control or bidirectional formatting
/// characters; kept as typed, unique on its owner without regard to case ([`DeckName::key`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeckName(String);

impl DeckName {
    /// Reads a name as typed.
    pub fn parse(name: &str) -> Result<DeckName, SavedDeckError> {
        proto::text::check_name(name, MAX_NAME_CHARS).map_err(SavedDeckError::InvalidName)?;
        Ok(DeckName(name.to_owned()))
    }

    /// Returns a name as stored: checked when it was given, perhaps under an older rule, and
    /// read back as it is so a tightened rule never hides a deck from its owner.
    pub fn stored(name: String) -> DeckName {
        DeckName(name)
    }

    /// Returns the name as typed.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Returns what two names that differ only in case share: the name in lower case, what
    /// uniqueness on an account is decided by.
    pub fn key(&self) -> String {
        self.0.to_lowercase()
    }
}

/// What a pile is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum PileRole {
    /// An ordinary pile: a zone of the deck, or one deck of a lineup.
    #[default]
    Main,
    /// The side deck: out of the main count, exported as the sideboard.
    Sideboard,
    /// A scratch pile: kept, never counted, never exported.
    Maybeboard,
    /// The command zone, only for games with a commander.
    CommandZone,
}

impl PileRole {
    /// Returns whether the role's cards count toward the deck (maybeboards never do).
    pub fn counts(self) -> bool {
        self != PileRole::Maybeboard
    }
}

/// How the builder lays the deck out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Layout {
    /// Several piles side by side, zones of one deck (Pile View): the whole-deck rule checks
    /// them together.
    #[default]
    Piles,
    /// One deck, no sideboard pile (Pile View off).
    SingleDeck,
    /// Several piles, each a separate deck of a lineup: the deck set rule checks them.
    MultiDeck,
}

/// A ruleset a deck is checked with: its id at a version (absent: its latest).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RuleRef {
    /// A built-in's fixed id (`riftbound-legend`) or a stored ruleset's (`rs_…`).
    pub ruleset: String,
    /// The version pinned, if one is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<u32>,
}

/// What a pile's panel shows: the summary strip, the curve and the footer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PileView {
    /// The summary strip.
    pub summary: bool,
    /// The curve.
    pub curve: bool,
    /// The footer.
    pub footer: bool,
}

impl Default for PileView {
    fn default() -> Self {
        PileView {
            summary: true,
            curve: true,
            footer: true,
        }
    }
}

/// One card of a pile: its deck ref and copies.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SavedCard {
    /// A printing id, or a LoR card code.
    #[serde(rename = "ref")]
    pub reference: String,
    /// 1 to [`MAX_COPIES`].
    pub count: u32,
}

/// One pile of a deck.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Pile {
    /// The pile's optional label (Deck name in its settings), up to 100 characters.
    pub name: String,
    /// What the pile is.
    pub role: PileRole,
    /// In pile order, each ref once.
    pub cards: Vec<SavedCard>,
    /// The rule that checks this pile alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zone_rule: Option<RuleRef>,
    /// The pile's column.
    pub column: u32,
    /// The pile's order in its column.
    pub order: u32,
    /// What its panel shows.
    pub view: PileView,
    /// In a deck set: the saved deck the pile is synced to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub synced_deck: Option<DeckIdText>,
}

impl Pile {
    /// Returns the name the pile is shown by: its own, or `Pile N` for the `index`-th (from
    /// 0) when it has none.
    pub fn label(&self, index: usize) -> String {
        if self.name.is_empty() {
            format!("Pile {}", index + 1)
        } else {
            self.name.clone()
        }
    }
}

/// A deck id as a pile names it (stored as text; the store checks that it exists).
pub type DeckIdText = String;

/// The rules a deck is checked with.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DeckRules {
    /// The card rule, on every card that counts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card_rule: Option<RuleRef>,
    /// The whole-deck rule ([`Layout::Piles`], [`Layout::SingleDeck`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deck_rule: Option<RuleRef>,
    /// The deck set rule ([`Layout::MultiDeck`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deckset_rule: Option<RuleRef>,
}

/// What a saved deck holds besides who owns it: its layout, piles and rules.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DeckContent {
    /// How the builder lays it out.
    pub layout: Layout,
    /// Its piles, in order.
    pub piles: Vec<Pile>,
    /// The rules it is checked with.
    pub rules: DeckRules,
}

/// Who a new deck (or deck set, or template) is saved for: the account's id and its username
/// as typed at sign-up, what a profile lists by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Owner<'a> {
    /// The account's id.
    pub id: &'a str,
    /// The account's username.
    pub username: &'a str,
}

/// A deck saved on an account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SavedDeck {
    /// Opaque and stable.
    pub id: DeckId,
    /// A deck or a deck set.
    pub kind: Kind,
    /// The game it is a deck of.
    pub game: Game,
    /// The owning account's id.
    pub owner: String,
    /// The owner's username, as typed at sign-up.
    pub owner_name: String,
    /// Unique on the owner and game without regard to case.
    pub name: DeckName,
    /// Whether anyone may see it (and it shows on the owner's profile).
    pub public: bool,
    /// Its layout, piles and rules.
    pub content: DeckContent,
    /// When it was first saved.
    pub create_time: std::time::SystemTime,
    /// When it last changed.
    pub update_time: std::time::SystemTime,
}

/// What a change of a saved deck changes; `None` leaves a field as it is.
#[derive(Debug, Clone, Default)]
pub struct DeckPatch {
    /// A new name (refused by the store when another deck of the owner's has it).
    pub name: Option<DeckName>,
    /// A new visibility.
    pub public: Option<bool>,
    /// A new layout.
    pub layout: Option<Layout>,
    /// New piles.
    pub piles: Option<Vec<Pile>>,
    /// New rules.
    pub rules: Option<DeckRules>,
}

impl DeckPatch {
    /// Returns whether the patch changes what the deck's rules check: its layout, piles or
    /// rules.
    pub fn changes_content(&self) -> bool {
        self.layout.is_some() || self.piles.is_some() || self.rules.is_some()
    }
}

impl SavedDeck {
    /// Applies `patch`; the update time is the caller's to set.
    pub fn apply(&mut self, patch: DeckPatch) {
        if let Some(name) = patch.name {
            self.name = name;
        }
        if let Some(public) = patch.public {
            self.public = public;
        }
        if let Some(layout) = patch.layout {
            self.content.layout = layout;
        }
        if let Some(piles) = patch.piles {
            self.content.piles = piles;
        }
        if let Some(rules) = patch.rules {
            self.content.rules = rules;
        }
    }
}

/// How many copies a deck holds where it counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Counts {
    /// Copies in main piles (and a command zone).
    pub main: u32,
    /// Copies in sideboard piles.
    pub sideboard: u32,
}

impl DeckContent {
    /// Checks that the content fits `game` and the limits as a saved `kind`: see [`Self::check`];
    /// a deck set is a multi-deck layout, and only its piles may be synced to saved decks.
    pub fn check_as(&self, kind: Kind, game: Game) -> Result<(), SavedDeckError> {
        if kind == Kind::DeckSet && self.layout != Layout::MultiDeck {
            return Err(pile_error(
                "layout".to_owned(),
                "a deck set is a multi-deck layout".to_owned(),
            ));
        }
        if kind == Kind::Deck
            && let Some(index) = self
                .piles
                .iter()
                .position(|pile| pile.synced_deck.is_some())
        {
            return Err(pile_error(
                format!("piles[{index}].syncedDeck"),
                "only a deck set's piles are synced to saved decks".to_owned(),
            ));
        }
        self.check(game)
    }

    /// Checks that the content fits `game` and the limits: at most [`MAX_PILES`] piles of at
    /// most [`MAX_PILE_CARDS`] distinct cards, 1 to [`MAX_COPIES`] copies each, each ref once
    /// per pile; no command zone in a game without a commander; no sideboard pile in a
    /// single-deck layout (the guide: "there is no sideboard pile"); the whole-deck rule only
    /// where the piles are one deck, the deck set rule only where they are a lineup.
    pub fn check(&self, game: Game) -> Result<(), SavedDeckError> {
        check_piles(&self.piles, game, self.layout)?;
        let misplaced = match self.layout {
            Layout::Piles | Layout::SingleDeck => self.rules.deckset_rule.as_ref().map(|_| {
                (
                    "decksetRule",
                    "a deck set rule checks a multi-deck layout only",
                )
            }),
            Layout::MultiDeck => self.rules.deck_rule.as_ref().map(|_| {
                (
                    "deckRule",
                    "a multi-deck layout is checked by a deck set rule, not a whole-deck rule",
                )
            }),
        };
        if let Some((field, problem)) = misplaced {
            return Err(SavedDeckError::InvalidRules {
                field,
                problem: problem.to_owned(),
            });
        }
        for (field, rule) in [
            ("cardRule", &self.rules.card_rule),
            ("deckRule", &self.rules.deck_rule),
            ("decksetRule", &self.rules.deckset_rule),
        ] {
            if let Some(rule) = rule {
                check_rule_ref(rule)
                    .map_err(|problem| SavedDeckError::InvalidRules { field, problem })?;
            }
        }
        Ok(())
    }

    /// Returns the copies that count: main piles and sideboards, never a maybeboard.
    pub fn counts(&self) -> Counts {
        let mut counts = Counts::default();
        for pile in &self.piles {
            let copies: u32 = pile.cards.iter().map(|card| card.count).sum();
            match pile.role {
                PileRole::Main | PileRole::CommandZone => counts.main += copies,
                PileRole::Sideboard => counts.sideboard += copies,
                PileRole::Maybeboard => {}
            }
        }
        counts
    }
}

/// Returns the cards a pile synced to a saved deck shows: the deck's cards that count as its
/// main deck (main piles and a command zone, not its sideboard or maybeboard), each ref once
/// with its copies summed, in order of first appearance.
pub fn synced_cards(deck: &[Pile]) -> Vec<SavedCard> {
    let mut out: Vec<SavedCard> = Vec::new();
    for pile in deck.iter().filter(|pile| is_main(pile.role)) {
        for card in &pile.cards {
            match out.iter_mut().find(|seen| seen.reference == card.reference) {
                Some(seen) => seen.count = seen.count.saturating_add(card.count),
                None => out.push(card.clone()),
            }
        }
    }
    out
}

/// Writes a synced pile's `cards` back to the saved deck's piles: a card the deck already has
/// in a main pile keeps its pile with the new copies, a new card goes to the first main pile
/// (one is added when the deck has none), and a card no longer in `cards` leaves the main piles;
/// the sideboard and maybeboard stay as they are. Reading the result with [`synced_cards`]
/// gives `cards` back (up to order).
pub fn sync_back(deck: &[Pile], cards: &[SavedCard]) -> Vec<Pile> {
    let mut piles = deck.to_vec();
    if !piles.iter().any(|pile| is_main(pile.role)) {
        piles.insert(
            0,
            Pile {
                name: "Main Deck".to_owned(),
                ..Pile::default()
            },
        );
    }
    let wanted = |reference: &str| cards.iter().find(|card| card.reference == reference);
    let mut placed: HashSet<&str> = HashSet::new();
    for pile in piles.iter_mut().filter(|pile| is_main(pile.role)) {
        pile.cards.retain_mut(|card| match wanted(&card.reference) {
            // A card in two main piles is kept once, in the first.
            Some(new) if !placed.contains(new.reference.as_str()) => {
                card.count = new.count;
                placed.insert(new.reference.as_str());
                true
            }
            _ => false,
        });
    }
    if let Some(first) = piles.iter_mut().find(|pile| is_main(pile.role)) {
        first.cards.extend(
            cards
                .iter()
                .filter(|card| !placed.contains(card.reference.as_str()))
                .cloned(),
        );
    }
    piles
}

fn is_main(role: PileRole) -> bool {
    matches!(role, PileRole::Main | PileRole::CommandZone)
}

/// Checks piles against the game, the layout and the limits (see [`DeckContent::check`]).
pub fn check_piles(piles: &[Pile], game: Game, layout: Layout) -> Result<(), SavedDeckError> {
    if piles.len() > MAX_PILES {
        return Err(pile_error(
            "piles".to_owned(),
            format!("at most {MAX_PILES} piles (found {})", piles.len()),
        ));
    }
    for (index, pile) in piles.iter().enumerate() {
        let at = |field: &str| format!("piles[{index}].{field}");
        // A pile may be left unnamed; a name it has keeps the platform's text rule.
        proto::text::check_label(&pile.name, MAX_NAME_CHARS)
            .map_err(|problem| pile_error(at("name"), problem.to_string()))?;
        if pile.role == PileRole::CommandZone && !has_command_zone(game) {
            return Err(pile_error(
                at("role"),
                format!("{} has no command zone", game.name()),
            ));
        }
        if pile.role == PileRole::Sideboard && layout == Layout::SingleDeck {
            return Err(pile_error(
                at("role"),
                "a single-deck layout has no sideboard pile".to_owned(),
            ));
        }
        if pile.cards.len() > MAX_PILE_CARDS {
            return Err(pile_error(
                at("cards"),
                format!(
                    "at most {MAX_PILE_CARDS} different cards (found {})",
                    pile.cards.len()
                ),
            ));
        }
        let mut seen = HashSet::with_capacity(pile.cards.len());
        for card in &pile.cards {
            if !is_ref(&card.reference) {
                return Err(pile_error(
                    at("cards"),
                    format!(
                        "`{}` is not a card ref (1 to {MAX_REF_BYTES} visible characters)",
                        short(&card.reference)
                    ),
                ));
            }
            if !(1..=MAX_COPIES).contains(&card.count) {
                return Err(pile_error(
                    at("cards"),
                    format!(
                        "`{}`: copies must be 1 to {MAX_COPIES} (found {})",
                        card.reference, card.count
                    ),
                ));
            }
            if !seen.insert(card.reference.as_str()) {
                return Err(pile_error(
                    at("cards"),
                    format!("`{}` is given twice", card.reference),
                ));
            }
        }
        if let Some(rule) = &pile.zone_rule {
            check_rule_ref(rule).map_err(|problem| pile_error(at("zoneRule"), problem))?;
        }
        if let Some(deck) = &pile.synced_deck
            && !is_ref(deck)
        {
            return Err(pile_error(
                at("syncedDeck"),
                "not a saved deck's id".to_owned(),
            ));
        }
    }
    Ok(())
}

/// Returns whether `game` has a command zone (none of today's games has a commander).
pub fn has_command_zone(game: Game) -> bool {
    match game {
        Game::Lor | Game::Pokemon | Game::Riftbound => false,
    }
}

fn check_rule_ref(rule: &RuleRef) -> Result<(), String> {
    if !is_ref(&rule.ruleset) {
        return Err(format!(
            "`{}` is not a ruleset id (1 to {MAX_REF_BYTES} visible characters)",
            short(&rule.ruleset)
        ));
    }
    if rule.version == Some(0) {
        return Err("versions start at 1".to_owned());
    }
    Ok(())
}

fn is_ref(text: &str) -> bool {
    !text.is_empty() && text.len() <= MAX_REF_BYTES && text.chars().all(|c| c.is_ascii_graphic())
}

/// A prefix of user text to quote in a message.
fn short(text: &str) -> String {
    text.chars().take(MAX_REF_BYTES).collect()
}

fn pile_error(field: String, problem: String) -> SavedDeckError {
    SavedDeckError::InvalidPile { field, problem }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(reference: &str, count: u32) -> SavedCard {
        SavedCard {
            reference: reference.to_owned(),
            count,
        }
    }

    fn pile(role: PileRole, cards: Vec<SavedCard>) -> Pile {
        Pile {
            name: "Main Deck".to_owned(),
            role,
            cards,
            ..Pile::default()
        }
    }

    fn content(layout: Layout, piles: Vec<Pile>) -> DeckContent {
        DeckContent {
            layout,
            piles,
            rules: DeckRules::default(),
        }
    }

    #[test]
    fn names_are_unique_without_regard_to_case_and_kept_as_typed() {
        let name = DeckName::parse("Kai'Sa Aggro").expect("valid");
        assert_eq!(name.as_str(), "Kai'Sa Aggro");
        assert_eq!(
            name.key(),
            DeckName::parse("KAI'SA aggro").expect("valid").key()
        );
    }

    #[test]
    fn refuses_blank_long_control_and_bidi_override_names() {
        use proto::text::Problem;
        for (name, why) in [
            ("", Problem::Blank),
            ("   ", Problem::Blank),
            ("a\nb", Problem::Control('\n')),
            ("a\0b", Problem::Control('\0')),
            ("a\u{202E}b", Problem::Bidi('\u{202E}')),
        ] {
            assert_eq!(
                DeckName::parse(name),
                Err(SavedDeckError::InvalidName(why)),
                "{name:?}"
            );
        }
        assert!(DeckName::parse(&"é".repeat(100)).is_ok());
        assert_eq!(
            DeckName::parse(&"é".repeat(101)),
            Err(SavedDeckError::InvalidName(Problem::TooLong { max: 100 }))
        );
    }

    #[test]
    fn maybeboards_never_count_and_sideboards_count_apart() {
        let deck = content(
            Layout::Piles,
            vec![
                pile(PileRole::Main, vec![card("a", 3), card("b", 2)]),
                pile(PileRole::Sideboard, vec![card("c", 2)]),
                pile(PileRole::Maybeboard, vec![card("d", 4)]),
            ],
        );
        assert_eq!(
            deck.counts(),
            Counts {
                main: 5,
                sideboard: 2
            }
        );
    }

    #[test]
    fn refuses_a_card_given_twice_bad_copies_and_a_bad_ref() {
        let cases = [
            (vec![card("a", 1), card("a", 2)], "`a` is given twice"),
            (vec![card("a", 0)], "`a`: copies must be 1 to 999 (found 0)"),
            (
                vec![card("a", 1000)],
                "`a`: copies must be 1 to 999 (found 1000)",
            ),
            (
                vec![card("a b", 1)],
                "`a b` is not a card ref (1 to 64 visible characters)",
            ),
        ];
        for (cards, problem) in cases {
            let deck = content(Layout::Piles, vec![pile(PileRole::Main, cards)]);
            assert_eq!(
                deck.check(Game::Riftbound),
                Err(SavedDeckError::InvalidPile {
                    field: "piles[0].cards".to_owned(),
                    problem: problem.to_owned()
                })
            );
        }
    }

    #[test]
    fn refuses_a_command_zone_and_a_single_decks_sideboard() {
        let command = content(Layout::Piles, vec![pile(PileRole::CommandZone, vec![])]);
        assert_eq!(
            command.check(Game::Lor).map_err(|e| e.to_string()),
            Err("`piles[0].role`: lor has no command zone".to_owned())
        );
        let single = content(Layout::SingleDeck, vec![pile(PileRole::Sideboard, vec![])]);
        assert_eq!(
            single.check(Game::Pokemon).map_err(|e| e.to_string()),
            Err("`piles[0].role`: a single-deck layout has no sideboard pile".to_owned())
        );
    }

    #[test]
    fn the_whole_deck_rule_and_the_deck_set_rule_follow_the_layout() {
        let rule = Some(RuleRef {
            ruleset: "lor-riot-lock".to_owned(),
            version: None,
        });
        let mut deck = content(Layout::Piles, vec![]);
        deck.rules.deckset_rule = rule.clone();
        assert!(matches!(
            deck.check(Game::Lor),
            Err(SavedDeckError::InvalidRules {
                field: "decksetRule",
                ..
            })
        ));
        deck.layout = Layout::MultiDeck;
        assert_eq!(deck.check(Game::Lor), Ok(()));
        deck.rules.deck_rule = rule;
        assert!(matches!(
            deck.check(Game::Lor),
            Err(SavedDeckError::InvalidRules {
                field: "deckRule",
                ..
            })
        ));
    }

    #[test]
    fn a_synced_pile_shows_the_decks_main_cards_and_writes_back_pile_by_pile() {
        let deck = vec![
            pile(PileRole::Main, vec![card("legend", 1)]),
            pile(PileRole::Main, vec![card("a", 3), card("b", 2)]),
            pile(PileRole::Sideboard, vec![card("s", 2)]),
            pile(PileRole::Maybeboard, vec![card("m", 1)]),
        ];
        assert_eq!(
            synced_cards(&deck),
            [card("legend", 1), card("a", 3), card("b", 2)]
        );
        let edited = [card("a", 1), card("c", 3), card("legend", 1)];
        let written = sync_back(&deck, &edited);
        assert_eq!(written[0].cards, [card("legend", 1), card("c", 3)]);
        assert_eq!(written[1].cards, [card("a", 1)], "b left, a kept its pile");
        assert_eq!(written[2], deck[2], "the sideboard stays");
        assert_eq!(written[3], deck[3], "the maybeboard stays");
        let mut read = synced_cards(&written);
        read.sort_by(|x, y| x.reference.cmp(&y.reference));
        let mut want = edited.to_vec();
        want.sort_by(|x, y| x.reference.cmp(&y.reference));
        assert_eq!(read, want);
    }

    #[test]
    fn writing_back_to_a_deck_without_a_main_pile_adds_one() {
        let deck = vec![pile(PileRole::Sideboard, vec![card("s", 1)])];
        let written = sync_back(&deck, &[card("a", 2)]);
        assert_eq!(written.len(), 2);
        assert_eq!(written[0].role, PileRole::Main);
        assert_eq!(written[0].cards, [card("a", 2)]);
    }

    #[test]
    fn only_a_deck_sets_piles_sync_and_a_deck_set_is_a_multi_deck_layout() {
        let mut synced = pile(PileRole::Main, vec![]);
        synced.synced_deck = Some("dk_1".to_owned());
        let deck = content(Layout::MultiDeck, vec![synced]);
        assert_eq!(deck.check_as(Kind::DeckSet, Game::Lor), Ok(()));
        assert!(matches!(
            deck.check_as(Kind::Deck, Game::Lor),
            Err(SavedDeckError::InvalidPile { field, .. }) if field == "piles[0].syncedDeck"
        ));
        let piles = content(Layout::Piles, vec![]);
        assert!(matches!(
            piles.check_as(Kind::DeckSet, Game::Lor),
            Err(SavedDeckError::InvalidPile { field, .. }) if field == "layout"
        ));
    }

    #[test]
    fn refuses_more_piles_than_the_limit() {
        let deck = content(Layout::Piles, vec![Pile::default(); MAX_PILES + 1]);
        assert_eq!(
            deck.check(Game::Lor).map_err(|e| e.to_string()),
            Err("`piles`: at most 32 piles (found 33)".to_owned())
        );
    }
}
