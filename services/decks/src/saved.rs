//! The saved-deck and deck-set RPCs: decks and lineups saved by name, read, listed a page at a
//! time, changed and deleted, through the one ownership rule (`kit::access`). A deck set's pile
//! may be synced to a saved deck: reading the set shows that deck's current cards, saving the
//! set writes the pile back to it (the caller must own it).
//!
//! A deck is private unless made public; a private deck is *not found* for everyone but its
//! owner. Saving (or changing the piles or rules of) a deck runs its rules in the scripts
//! service with the caller's token, so a ruleset of the caller's is read as theirs, and the
//! warnings the deck still has come back with the save: a deck with warnings is saved all the
//! same, but a rule that cannot run (an unknown ruleset) refuses the save.

use std::time::SystemTime;

use kit::access::{self, Action, Owned, Visibility};
use kit::auth::{Bearer, Caller};
use kit::clients::ScriptsClient;
use kit::timestamp::{from_millis, to_millis, to_proto};
use proto::decks::v1 as pb;
use proto::game::Game;
use proto::scripts::v1 as scripts_pb;

use crate::domain::page::{Cursor, page_size};
use crate::domain::saved::{
    DeckContent, DeckId, DeckName, DeckPatch, DeckRules, Kind, Layout, Owner, Pile, PileRole,
    PileView, RuleRef, SavedCard, SavedDeck, SavedDeckError, sync_back, synced_cards,
};
use crate::error::Error;
use crate::store::{DeckStore, Page};

/// What a save is given, whatever its kind (a deck set's layout is always multi-deck).
#[derive(Debug, Clone, Default)]
pub struct SaveInput {
    /// The name as typed.
    pub name: String,
    /// Whether anyone may see it.
    pub public: bool,
    /// The layout, as on the wire.
    pub layout: i32,
    /// The piles, as on the wire.
    pub piles: Vec<pb::SavedPile>,
    /// The rules, as on the wire.
    pub rules: Option<pb::DeckRules>,
}

/// What a change is given, whatever its kind.
#[derive(Debug, Clone, Default)]
pub struct ChangeInput {
    /// The id as given.
    pub id: String,
    /// A new name.
    pub name: Option<String>,
    /// A new visibility.
    pub public: Option<bool>,
    /// A new layout, as on the wire.
    pub layout: Option<i32>,
    /// New piles, used when `replace_piles`.
    pub piles: Vec<pb::SavedPile>,
    /// Whether `piles` replaces the piles.
    pub replace_piles: bool,
    /// New rules.
    pub rules: Option<pb::DeckRules>,
}

impl From<pb::SaveDeckRequest> for SaveInput {
    fn from(request: pb::SaveDeckRequest) -> Self {
        Self {
            name: request.name,
            public: request.public,
            layout: request.layout,
            piles: request.piles,
            rules: request.rules,
        }
    }
}

impl From<pb::SaveDeckSetRequest> for SaveInput {
    fn from(request: pb::SaveDeckSetRequest) -> Self {
        Self {
            name: request.name,
            public: request.public,
            layout: pb::DeckLayout::MultiDeck.into(),
            piles: request.piles,
            rules: request.rules,
        }
    }
}

impl From<pb::UpdateDeckRequest> for ChangeInput {
    fn from(request: pb::UpdateDeckRequest) -> Self {
        Self {
            id: request.id,
            name: request.name,
            public: request.public,
            layout: request.layout,
            piles: request.piles,
            replace_piles: request.replace_piles,
            rules: request.rules,
        }
    }
}

impl From<pb::UpdateDeckSetRequest> for ChangeInput {
    fn from(request: pb::UpdateDeckSetRequest) -> Self {
        Self {
            id: request.id,
            name: request.name,
            public: request.public,
            layout: None,
            piles: request.piles,
            replace_piles: request.replace_piles,
            rules: request.rules,
        }
    }
}

/// A deck (or deck set) saved or changed, and the warnings it still has.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// As stored.
    pub deck: SavedDeck,
    /// Whether a save replaced one of the same name.
    pub replaced: bool,
    /// The warnings of its rules.
    pub warnings: Vec<pb::DeckWarning>,
}

/// The saved decks and deck sets of the service: the store, and the scripts service that runs
/// their rules.
#[derive(Debug, Clone)]
pub struct SavedDecks {
    store: DeckStore,
    scripts: ScriptsClient,
}

impl SavedDecks {
    /// Serves the decks kept in `store`, checking their rules through `scripts`.
    pub fn new(store: DeckStore, scripts: ScriptsClient) -> Self {
        Self { store, scripts }
    }

    /// Saves a deck or deck set of the caller's by name. A deck set's synced piles write their
    /// cards back to their saved decks first, each of which the caller must own.
    pub async fn save(
        &self,
        kind: Kind,
        caller: &Caller,
        bearer: Option<Bearer>,
        game: Game,
        input: SaveInput,
    ) -> Result<Outcome, Error> {
        let owner = access::creator(caller).map_err(Error::CannotCreate)?;
        let name = DeckName::parse(&input.name)?;
        let content = DeckContent {
            layout: match kind {
                Kind::Deck => layout_from_proto(input.layout)?,
                Kind::DeckSet => Layout::MultiDeck,
            },
            piles: piles_from_proto(&input.piles)?,
            rules: rules_from_proto(input.rules),
        };
        content.check_as(kind, game)?;
        let warnings = self.warnings(bearer, game, &content).await?;
        let now = SystemTime::now();
        self.write_synced(caller, game, &content.piles, now).await?;
        let saved = self
            .store
            .save(
                kind,
                Owner {
                    id: &owner.id,
                    username: &owner.username,
                },
                game,
                &name,
                input.public,
                &content,
                now,
            )
            .await?;
        Ok(Outcome {
            deck: saved.deck,
            replaced: saved.replaced,
            warnings,
        })
    }

    /// Returns a deck or deck set the caller may see; a deck set's synced piles show their
    /// saved decks' current cards.
    pub async fn get(
        &self,
        kind: Kind,
        caller: &Caller,
        game: Game,
        id: &str,
    ) -> Result<SavedDeck, Error> {
        let mut deck = access::admit(
            caller,
            Action::Read,
            self.of_game(kind, game, id).await?,
            owned,
        )
        .map_err(|denied| Error::Denied {
            denied,
            kind: kind.noun(),
            id: id.to_owned(),
        })?;
        self.show_synced(caller, &mut deck).await?;
        Ok(deck)
    }

    /// Returns a page of the caller's decks (or deck sets) of `game`: an anonymous caller has
    /// none to list (401), a token that may not read sees none of its account's.
    pub async fn list(
        &self,
        kind: Kind,
        caller: &Caller,
        game: Game,
        page_size_asked: u32,
        page_token: &str,
    ) -> Result<Page<SavedDeck>, Error> {
        if caller.account().is_none() {
            return Err(Error::CannotCreate(access::Denied::Unauthenticated));
        }
        let after = Cursor::parse(page_token)?;
        let Some(viewer) = access::viewer(caller) else {
            return Ok(Page {
                items: Vec::new(),
                next: None,
            });
        };
        let mut page = self
            .store
            .list_own(
                kind,
                viewer,
                game,
                after.as_ref(),
                page_size(page_size_asked),
            )
            .await?;
        for deck in &mut page.items {
            self.show_synced(caller, deck).await?;
        }
        Ok(page)
    }

    /// Returns a page of the public decks of `username` (as typed at sign-up), of `game` when
    /// given.
    pub async fn list_public(
        &self,
        caller: &Caller,
        request: &pb::ListPublicDecksRequest,
    ) -> Result<Page<SavedDeck>, Error> {
        let after = Cursor::parse(&request.page_token)?;
        let game = proto::game::from_wire(request.game);
        // No account has a name like this (a NUL, far too long): it has no decks.
        if !kit::text::is_possible_key(&request.username, kit::text::MAX_USERNAME_BYTES) {
            return Ok(Page {
                items: Vec::new(),
                next: None,
            });
        }
        let mut page = self
            .store
            .list_public(
                Kind::Deck,
                &request.username,
                game,
                after.as_ref(),
                page_size(request.page_size),
            )
            .await?;
        // Public, so readable by anyone; asked all the same, as every read is.
        page.items
            .retain(|deck| access::check(caller, Action::Read, Some(owned(deck))).is_ok());
        Ok(page)
    }

    /// Changes a deck or deck set of the caller's; its rules run again when its piles, layout
    /// or rules change, and a deck set's synced piles write back.
    pub async fn update(
        &self,
        kind: Kind,
        caller: &Caller,
        bearer: Option<Bearer>,
        game: Game,
        input: ChangeInput,
    ) -> Result<Outcome, Error> {
        let mut deck = self.changeable(kind, caller, game, &input.id).await?;
        let patch = DeckPatch {
            name: input.name.as_deref().map(DeckName::parse).transpose()?,
            public: input.public,
            layout: match kind {
                Kind::Deck => input.layout.map(layout_from_proto).transpose()?,
                Kind::DeckSet => None,
            },
            piles: input
                .replace_piles
                .then(|| piles_from_proto(&input.piles))
                .transpose()?,
            rules: input.rules.map(|rules| rules_from_proto(Some(rules))),
        };
        let content_changes = patch.changes_content();
        let new_piles = patch.piles.is_some();
        deck.apply(patch);
        deck.content.check_as(kind, game)?;
        let warnings = if content_changes {
            self.warnings(bearer, game, &deck.content).await?
        } else {
            Vec::new()
        };
        let now = SystemTime::now();
        if new_piles {
            self.write_synced(caller, game, &deck.content.piles, now)
                .await?;
        }
        // Stored to the millisecond, as the store reads it back.
        deck.update_time = from_millis(to_millis(now));
        self.store.write(&deck).await?;
        Ok(Outcome {
            deck,
            replaced: false,
            warnings,
        })
    }

    /// Deletes a deck or deck set of the caller's (a deck set's synced decks stay).
    pub async fn delete(
        &self,
        kind: Kind,
        caller: &Caller,
        game: Game,
        id: &str,
    ) -> Result<(), Error> {
        let deck = self.changeable(kind, caller, game, id).await?;
        self.store.delete(kind, &deck.id).await?;
        Ok(())
    }

    /// Returns the `kind` `id` of `game`, if there is one.
    async fn of_game(&self, kind: Kind, game: Game, id: &str) -> Result<Option<SavedDeck>, Error> {
        // An id not of the shape this kind's ids have cannot exist: not looked up.
        if !kit::text::is_possible_id(id, kind.id_prefix()) {
            return Ok(None);
        }
        Ok(self
            .store
            .get(kind, &DeckId(id.to_owned()))
            .await?
            .filter(|deck| deck.game == game))
    }

    /// Returns the `kind` `id` if the caller may change it.
    async fn changeable(
        &self,
        kind: Kind,
        caller: &Caller,
        game: Game,
        id: &str,
    ) -> Result<SavedDeck, Error> {
        access::admit(
            caller,
            Action::Change,
            self.of_game(kind, game, id).await?,
            owned,
        )
        .map_err(|denied| Error::Denied {
            denied,
            kind: kind.noun(),
            id: id.to_owned(),
        })
    }

    /// Writes each synced pile's cards back to its saved deck, which the caller must be able
    /// to change; a deck whose cards already match is left as it is. Every deck is checked
    /// before the first is written, so a refusal writes nothing.
    async fn write_synced(
        &self,
        caller: &Caller,
        game: Game,
        piles: &[Pile],
        now: SystemTime,
    ) -> Result<(), Error> {
        let mut writes = Vec::new();
        for pile in piles {
            let Some(id) = &pile.synced_deck else {
                continue;
            };
            let mut deck = self.changeable(Kind::Deck, caller, game, id).await?;
            if synced_cards(&deck.content.piles) == pile.cards {
                continue;
            }
            deck.content.piles = sync_back(&deck.content.piles, &pile.cards);
            deck.update_time = now;
            writes.push(deck);
        }
        for deck in &writes {
            self.store.write(deck).await?;
        }
        Ok(())
    }

    /// Shows in each synced pile of a deck set its saved deck's current cards, when the caller
    /// may see that deck; otherwise (or when it is gone) the cards the set was saved with.
    async fn show_synced(&self, caller: &Caller, deck: &mut SavedDeck) -> Result<(), Error> {
        for pile in &mut deck.content.piles {
            let Some(id) = &pile.synced_deck else {
                continue;
            };
            let synced = self.of_game(Kind::Deck, deck.game, id).await?;
            if let Some(synced) = synced
                && access::check(caller, Action::Read, Some(owned(&synced))).is_ok()
            {
                pile.cards = synced_cards(&synced.content.piles);
            }
        }
        Ok(())
    }

    /// Runs the deck's rules and returns its warning list; none without rules.
    pub async fn warnings(
        &self,
        bearer: Option<Bearer>,
        game: Game,
        content: &DeckContent,
    ) -> Result<Vec<pb::DeckWarning>, Error> {
        let has_rules = content.rules != DeckRules::default()
            || content.piles.iter().any(|pile| pile.zone_rule.is_some());
        if !has_rules {
            return Ok(Vec::new());
        }
        let response = self
            .scripts
            .with_bearer(bearer)
            .validate_deck(validate_request(game, content))
            .await
            .map_err(Error::Rules)?;
        Ok(response
            .issues
            .into_iter()
            .map(|issue| pb::DeckWarning {
                rule: issue.rule,
                pile: issue.pile,
                r#ref: issue.r#ref,
                code: issue.code,
                message: issue.message,
            })
            .collect())
    }
}

/// The deck check of `content` as the scripts service takes it: every pile with its name (or
/// `Pile N`), role, cards and zone rule, and the deck's rules.
fn validate_request(game: Game, content: &DeckContent) -> scripts_pb::ValidateDeckRequest {
    scripts_pb::ValidateDeckRequest {
        game: proto::game::to_wire(game),
        piles: content
            .piles
            .iter()
            .enumerate()
            .map(|(index, pile)| scripts_pb::ValidatePile {
                name: pile.label(index),
                role: match pile.role {
                    PileRole::Main | PileRole::CommandZone => scripts_pb::PileRole::Main,
                    PileRole::Sideboard => scripts_pb::PileRole::Sideboard,
                    PileRole::Maybeboard => scripts_pb::PileRole::Maybeboard,
                }
                .into(),
                cards: pile
                    .cards
                    .iter()
                    .map(|card| scripts_pb::PileEntry {
                        r#ref: card.reference.clone(),
                        count: card.count,
                    })
                    .collect(),
                zone_rule: pile.zone_rule.as_ref().map(script),
            })
            .collect(),
        card_rule: content.rules.card_rule.as_ref().map(script),
        deck_rule: content.rules.deck_rule.as_ref().map(script),
        deckset_rule: content.rules.deckset_rule.as_ref().map(script),
        context_json: None,
    }
}

fn script(rule: &RuleRef) -> scripts_pb::Script {
    scripts_pb::Script {
        script: Some(scripts_pb::script::Script::Ruleset(
            scripts_pb::RulesetRef {
                id: rule.ruleset.clone(),
                version: rule.version,
            },
        )),
    }
}

/// What the ownership rule needs to know of a deck.
pub fn owned(deck: &SavedDeck) -> Owned<'_> {
    Owned {
        owner: &deck.owner,
        visibility: if deck.public {
            Visibility::Public
        } else {
            Visibility::Private
        },
    }
}

/// Returns the token of the page after `page`: empty on the last.
pub fn next_page_token<T>(page: &Page<T>) -> String {
    page.next
        .as_ref()
        .map(|cursor| cursor.to_token())
        .unwrap_or_default()
}

/// Writes a saved deck as it goes on the wire; its owner by username.
pub fn deck_to_proto(deck: &SavedDeck) -> pb::SavedDeck {
    let counts = deck.content.counts();
    pb::SavedDeck {
        id: deck.id.0.clone(),
        game: proto::game::to_wire(deck.game),
        name: deck.name.as_str().to_owned(),
        owner: deck.owner_name.clone(),
        public: deck.public,
        layout: layout_to_proto(deck.content.layout).into(),
        piles: deck.content.piles.iter().map(pile_to_proto).collect(),
        rules: Some(rules_to_proto(&deck.content.rules)),
        main_count: counts.main,
        sideboard_count: counts.sideboard,
        create_time: Some(to_proto(deck.create_time)),
        update_time: Some(to_proto(deck.update_time)),
    }
}

/// Reads a layout from the wire.
pub fn layout_from_proto(value: i32) -> Result<Layout, Error> {
    match pb::DeckLayout::try_from(value) {
        Ok(pb::DeckLayout::Piles) => Ok(Layout::Piles),
        Ok(pb::DeckLayout::SingleDeck) => Ok(Layout::SingleDeck),
        Ok(pb::DeckLayout::MultiDeck) => Ok(Layout::MultiDeck),
        Err(_) => Err(SavedDeckError::InvalidPile {
            field: "layout".to_owned(),
            problem: format!("{value} is not a layout"),
        }
        .into()),
    }
}

fn layout_to_proto(layout: Layout) -> pb::DeckLayout {
    match layout {
        Layout::Piles => pb::DeckLayout::Piles,
        Layout::SingleDeck => pb::DeckLayout::SingleDeck,
        Layout::MultiDeck => pb::DeckLayout::MultiDeck,
    }
}

/// Reads piles from the wire (their limits are checked by [`DeckContent::check`]).
pub fn piles_from_proto(piles: &[pb::SavedPile]) -> Result<Vec<Pile>, Error> {
    piles
        .iter()
        .enumerate()
        .map(|(index, pile)| {
            let role = role_from_proto(pile.role, format!("piles[{index}].role"))?;
            Ok(Pile {
                name: pile.name.clone(),
                role,
                cards: pile
                    .cards
                    .iter()
                    .map(|card| SavedCard {
                        reference: card.r#ref.clone(),
                        count: card.count,
                    })
                    .collect(),
                zone_rule: pile.zone_rule.as_ref().map(rule_from_proto),
                column: pile.column,
                order: pile.order,
                view: pile.view.map_or_else(PileView::default, |view| PileView {
                    summary: view.summary,
                    curve: view.curve,
                    footer: view.footer,
                }),
                synced_deck: pile.synced_deck.clone(),
            })
        })
        .collect()
}

/// Writes a pile as it goes on the wire.
pub fn pile_to_proto(pile: &Pile) -> pb::SavedPile {
    pb::SavedPile {
        name: pile.name.clone(),
        role: match pile.role {
            PileRole::Main => pb::PileRole::Main,
            PileRole::Sideboard => pb::PileRole::Sideboard,
            PileRole::Maybeboard => pb::PileRole::Maybeboard,
            PileRole::CommandZone => pb::PileRole::CommandZone,
        }
        .into(),
        cards: pile
            .cards
            .iter()
            .map(|card| pb::SavedCard {
                r#ref: card.reference.clone(),
                count: card.count,
            })
            .collect(),
        zone_rule: pile.zone_rule.as_ref().map(rule_to_proto),
        column: pile.column,
        order: pile.order,
        view: Some(pb::PileView {
            summary: pile.view.summary,
            curve: pile.view.curve,
            footer: pile.view.footer,
        }),
        synced_deck: pile.synced_deck.clone(),
    }
}

/// Reads rules from the wire; absent: none.
pub fn rules_from_proto(rules: Option<pb::DeckRules>) -> DeckRules {
    let rules = rules.unwrap_or_default();
    DeckRules {
        card_rule: rules.card_rule.as_ref().map(rule_from_proto),
        deck_rule: rules.deck_rule.as_ref().map(rule_from_proto),
        deckset_rule: rules.deckset_rule.as_ref().map(rule_from_proto),
    }
}

/// Writes rules as they go on the wire.
pub fn rules_to_proto(rules: &DeckRules) -> pb::DeckRules {
    pb::DeckRules {
        card_rule: rules.card_rule.as_ref().map(rule_to_proto),
        deck_rule: rules.deck_rule.as_ref().map(rule_to_proto),
        deckset_rule: rules.deckset_rule.as_ref().map(rule_to_proto),
    }
}

/// Reads a pile's role from the wire; `field` names it in the error.
pub fn role_from_proto(value: i32, field: String) -> Result<PileRole, Error> {
    match pb::PileRole::try_from(value) {
        Ok(pb::PileRole::Main) => Ok(PileRole::Main),
        Ok(pb::PileRole::Sideboard) => Ok(PileRole::Sideboard),
        Ok(pb::PileRole::Maybeboard) => Ok(PileRole::Maybeboard),
        Ok(pb::PileRole::CommandZone) => Ok(PileRole::CommandZone),
        Err(_) => Err(SavedDeckError::InvalidPile {
            field,
            problem: format!("{value} is not a pile role"),
        }
        .into()),
    }
}

/// Reads a ruleset reference from the wire.
pub fn rule_from_proto(rule: &pb::RuleRef) -> RuleRef {
    RuleRef {
        ruleset: rule.ruleset.clone(),
        version: rule.version,
    }
}

/// Writes a ruleset reference as it goes on the wire.
pub fn rule_to_proto(rule: &RuleRef) -> pb::RuleRef {
    pb::RuleRef {
        ruleset: rule.ruleset.clone(),
        version: rule.version,
    }
}
