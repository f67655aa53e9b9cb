//! The saved-deck RPCs: decks saved by name, read, listed a page at a time, changed and
//! deleted, through the one ownership rule (`kit::access`).
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
use kit::timestamp::to_proto;
use proto::decks::v1 as pb;
use proto::game::Game;
use proto::scripts::v1 as scripts_pb;

use crate::domain::page::{Cursor, page_size};
use crate::domain::saved::{
    DeckContent, DeckId, DeckName, DeckRules, Layout, Owner, Pile, PileRole, PileView, RuleRef,
    SavedCard, SavedDeck, SavedDeckError,
};
use crate::error::Error;
use crate::store::{DeckPatch, DeckStore, Page};

/// What the errors of this module call a saved deck.
const KIND: &str = "deck";

/// The saved decks of the service: the store, and the scripts service that runs their rules.
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

    /// Returns the store, for the deck sets that sync piles to saved decks.
    pub fn store(&self) -> &DeckStore {
        &self.store
    }

    /// Saves a deck of the caller's by name.
    pub async fn save(
        &self,
        caller: &Caller,
        bearer: Option<Bearer>,
        game: Game,
        request: pb::SaveDeckRequest,
    ) -> Result<pb::SaveDeckResponse, Error> {
        let owner = access::creator(caller).map_err(Error::CannotCreate)?;
        let name = DeckName::parse(&request.name)?;
        let content = DeckContent {
            layout: layout_from_proto(request.layout)?,
            piles: piles_from_proto(&request.piles)?,
            rules: rules_from_proto(request.rules)?,
        };
        content.check(game)?;
        let warnings = self.warnings(bearer, game, &content).await?;
        let saved = self
            .store
            .save(
                Owner {
                    id: &owner.id,
                    username: &owner.username,
                },
                game,
                &name,
                request.public,
                &content,
                SystemTime::now(),
            )
            .await?;
        Ok(pb::SaveDeckResponse {
            deck: Some(deck_to_proto(&saved.deck)),
            replaced: saved.replaced,
            warnings,
        })
    }

    /// Returns a deck the caller may see.
    pub async fn get(&self, caller: &Caller, game: Game, id: &str) -> Result<SavedDeck, Error> {
        let deck = self.of_game(game, id).await?;
        access::check(caller, Action::Read, deck.as_ref().map(owned)).map_err(|denied| {
            Error::Denied {
                denied,
                kind: KIND,
                id: id.to_owned(),
            }
        })?;
        deck.ok_or_else(|| not_found(id))
    }

    /// Returns a page of the caller's decks of `game`: an anonymous caller has none to list
    /// (401), a token that may not read sees none of its account's.
    pub async fn list(
        &self,
        caller: &Caller,
        game: Game,
        page_size_asked: u32,
        page_token: &str,
    ) -> Result<pb::ListDecksResponse, Error> {
        if caller.account().is_none() {
            return Err(Error::CannotCreate(access::Denied::Unauthenticated));
        }
        let after = Cursor::parse(page_token)?;
        let Some(viewer) = access::viewer(caller) else {
            return Ok(pb::ListDecksResponse::default());
        };
        let page = self
            .store
            .list_own(viewer, game, after.as_ref(), page_size(page_size_asked))
            .await?;
        Ok(list_response(page))
    }

    /// Returns a page of the public decks of `username` (as typed at sign-up), of `game` when
    /// given.
    pub async fn list_public(
        &self,
        caller: &Caller,
        request: &pb::ListPublicDecksRequest,
    ) -> Result<pb::ListDecksResponse, Error> {
        let after = Cursor::parse(&request.page_token)?;
        let game = proto::game::from_wire(request.game);
        let mut page = self
            .store
            .list_public(
                &request.username,
                game,
                after.as_ref(),
                page_size(request.page_size),
            )
            .await?;
        // Public, so readable by anyone; asked all the same, as every read is.
        page.items
            .retain(|deck| access::check(caller, Action::Read, Some(owned(deck))).is_ok());
        Ok(list_response(page))
    }

    /// Changes a deck of the caller's; its rules run again when its piles, layout or rules
    /// change.
    pub async fn update(
        &self,
        caller: &Caller,
        bearer: Option<Bearer>,
        game: Game,
        request: pb::UpdateDeckRequest,
    ) -> Result<pb::SaveDeckResponse, Error> {
        let deck = self.changeable(caller, game, &request.id).await?;
        let patch = DeckPatch {
            name: request.name.as_deref().map(DeckName::parse).transpose()?,
            public: request.public,
            layout: request.layout.map(layout_from_proto).transpose()?,
            piles: request
                .replace_piles
                .then(|| piles_from_proto(&request.piles))
                .transpose()?,
            rules: request
                .rules
                .map(|rules| rules_from_proto(Some(rules)))
                .transpose()?,
        };
        let content_changes =
            patch.layout.is_some() || patch.piles.is_some() || patch.rules.is_some();
        let content = DeckContent {
            layout: patch.layout.unwrap_or(deck.content.layout),
            piles: patch
                .piles
                .clone()
                .unwrap_or_else(|| deck.content.piles.clone()),
            rules: patch
                .rules
                .clone()
                .unwrap_or_else(|| deck.content.rules.clone()),
        };
        content.check(game)?;
        let warnings = if content_changes {
            self.warnings(bearer, game, &content).await?
        } else {
            Vec::new()
        };
        let updated = self
            .store
            .update(&deck.id, patch, SystemTime::now())
            .await?
            .ok_or_else(|| not_found(&request.id))?;
        Ok(pb::SaveDeckResponse {
            deck: Some(deck_to_proto(&updated)),
            replaced: false,
            warnings,
        })
    }

    /// Deletes a deck of the caller's.
    pub async fn delete(&self, caller: &Caller, game: Game, id: &str) -> Result<(), Error> {
        let deck = self.changeable(caller, game, id).await?;
        self.store.delete(&deck.id).await?;
        Ok(())
    }

    /// Returns the deck `id` of `game`, if there is one.
    async fn of_game(&self, game: Game, id: &str) -> Result<Option<SavedDeck>, Error> {
        Ok(self
            .store
            .get(&DeckId(id.to_owned()))
            .await?
            .filter(|deck| deck.game == game))
    }

    /// Returns the deck `id` if the caller may change it.
    async fn changeable(&self, caller: &Caller, game: Game, id: &str) -> Result<SavedDeck, Error> {
        let deck = self.of_game(game, id).await?;
        access::check(caller, Action::Change, deck.as_ref().map(owned)).map_err(|denied| {
            Error::Denied {
                denied,
                kind: KIND,
                id: id.to_owned(),
            }
        })?;
        deck.ok_or_else(|| not_found(id))
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
                name: if pile.name.is_empty() {
                    format!("Pile {}", index + 1)
                } else {
                    pile.name.clone()
                },
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

fn not_found(id: &str) -> Error {
    Error::Denied {
        denied: access::Denied::NotFound,
        kind: KIND,
        id: id.to_owned(),
    }
}

fn list_response(page: Page<SavedDeck>) -> pb::ListDecksResponse {
    pb::ListDecksResponse {
        decks: page.items.iter().map(deck_to_proto).collect(),
        next_page_token: page
            .next
            .map(|cursor| cursor.to_token())
            .unwrap_or_default(),
    }
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
            let role = match pb::PileRole::try_from(pile.role) {
                Ok(pb::PileRole::Main) => PileRole::Main,
                Ok(pb::PileRole::Sideboard) => PileRole::Sideboard,
                Ok(pb::PileRole::Maybeboard) => PileRole::Maybeboard,
                Ok(pb::PileRole::CommandZone) => PileRole::CommandZone,
                Err(_) => {
                    return Err(Error::from(SavedDeckError::InvalidPile {
                        field: format!("piles[{index}].role"),
                        problem: format!("{} is not a pile role", pile.role),
                    }));
                }
            };
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
pub fn rules_from_proto(rules: Option<pb::DeckRules>) -> Result<DeckRules, Error> {
    let rules = rules.unwrap_or_default();
    Ok(DeckRules {
        card_rule: rules.card_rule.as_ref().map(rule_from_proto),
        deck_rule: rules.deck_rule.as_ref().map(rule_from_proto),
        deckset_rule: rules.deckset_rule.as_ref().map(rule_from_proto),
    })
}

/// Writes rules as they go on the wire.
pub fn rules_to_proto(rules: &DeckRules) -> pb::DeckRules {
    pb::DeckRules {
        card_rule: rules.card_rule.as_ref().map(rule_to_proto),
        deck_rule: rules.deck_rule.as_ref().map(rule_to_proto),
        deckset_rule: rules.deckset_rule.as_ref().map(rule_to_proto),
    }
}

fn rule_from_proto(rule: &pb::RuleRef) -> RuleRef {
    RuleRef {
        ruleset: rule.ruleset.clone(),
        version: rule.version,
    }
}

fn rule_to_proto(rule: &RuleRef) -> pb::RuleRef {
    pb::RuleRef {
        ruleset: rule.ruleset.clone(),
        version: rule.version,
    }
}
