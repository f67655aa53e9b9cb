//! The calculators RPCs: the default of each game (read by anyone, changed by no one, switched
//! off per account), the calculators people own (from a builder spec or a source) through the
//! one ownership rule (`kit::access`), duplicates, runs on a deck or a deck set (its cards read
//! from the catalog, the script run in the scripts service), and the builder's own calls.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::SystemTime;

use kit::access::{self, Action, Owned, Visibility};
use kit::auth::Caller;
use kit::clients::catalog::PerCatalogVersion;
use kit::clients::{CatalogClient, ScriptsClient};
use kit::timestamp::to_proto;
use proto::calculators::v1 as pb;
use proto::game::Game;
use proto::scripts::v1 as scripts_pb;
use serde_json::{Map, Value};

use crate::defaults::{self, DefaultCalculator};
use crate::domain::calculator::{Calculator, CalculatorName, ID_PREFIX, check_source};
use crate::domain::fields;
use crate::domain::generate::{Inspected, generate, inspect};
use crate::domain::spec::Spec;
use crate::error::Error;
use crate::store::{CalculatorPatch, CalculatorStore};

/// The most distinct cards a run reads (a deck set of several decks).
const MAX_RUN_CARDS: usize = 2_000;

/// What the catalog's cards carry in the categories it decides, per game.
type CatalogValues = Vec<(&'static str, Vec<String>)>;

/// The calculators of the service.
#[derive(Debug, Clone)]
pub struct Calculators {
    store: CalculatorStore,
    scripts: ScriptsClient,
    catalog: CatalogClient,
    /// Built once per catalog version from every card of a game.
    values: Arc<PerCatalogVersion<CatalogValues>>,
}

impl Calculators {
    /// Serves the calculators kept in `store`, running them through `scripts` on cards read
    /// from `catalog`.
    pub fn new(store: CalculatorStore, scripts: ScriptsClient, catalog: CatalogClient) -> Self {
        Self {
            store,
            scripts,
            values: Arc::new(PerCatalogVersion::new(catalog.clone())),
            catalog,
        }
    }

    /// The builder's fields of a game, with the values of every category: its own, or the
    /// ones the catalog's cards carry (sets, rarities, subtypes, keywords, tags).
    pub async fn fields(&self, game_value: i32) -> Result<Vec<pb::CalculatorField>, Error> {
        let game = game(game_value)?;
        let from_catalog = self
            .values
            .get(game, |cards| async move {
                let cards: Vec<Value> = cards
                    .iter()
                    .map(serde_json::to_value)
                    .collect::<Result<_, _>>()
                    .map_err(|_| Error::Corrupt {
                        what: "catalog card",
                    })?;
                Ok::<_, Error>(fields::catalog_values(game, &cards))
            })
            .await?;
        Ok(fields::of_game(game)
            .iter()
            .map(|field| pb::CalculatorField {
                id: field.id.to_owned(),
                label: field.label.to_owned(),
                kind: field.kind.name().to_owned(),
                values: match from_catalog.iter().find(|(id, _)| *id == field.id) {
                    Some((_, values)) => values.clone(),
                    None => field
                        .values
                        .iter()
                        .map(|value| (*value).to_owned())
                        .collect(),
                },
            })
            .collect())
    }

    /// The game's default, then the caller's own calculators.
    pub async fn list(&self, caller: &Caller, game: Game) -> Result<Vec<pb::Calculator>, Error> {
        let off = self.defaults_off(caller).await?;
        let default = defaults::of_game(game);
        let mut out = vec![default_to_proto(default, !off.contains(default.id))];
        if let Some(viewer) = access::viewer(caller) {
            out.extend(
                self.store
                    .list_own(viewer, game)
                    .await?
                    .iter()
                    .map(to_proto_calculator),
            );
        }
        Ok(out)
    }

    /// A user's public calculators, of a game when given.
    pub async fn list_public(
        &self,
        caller: &Caller,
        username: &str,
        game: Option<Game>,
    ) -> Result<Vec<pb::Calculator>, Error> {
        // No account has a name like this (a NUL, far too long): it has no calculators.
        if !kit::text::is_possible_key(username, kit::text::MAX_USERNAME_BYTES) {
            return Ok(Vec::new());
        }
        Ok(self
            .store
            .list_public(username, game)
            .await?
            .iter()
            // Public, so readable by anyone; asked all the same, as every read is.
            .filter(|calculator| {
                access::check(caller, Action::Read, Some(owned(calculator))).is_ok()
            })
            .map(to_proto_calculator)
            .collect())
    }

    /// Saves a new calculator of the caller's from a spec or a source.
    pub async fn create(
        &self,
        caller: &Caller,
        request: pb::CreateCalculatorRequest,
    ) -> Result<pb::Calculator, Error> {
        let owner = access::creator(caller).map_err(Error::CannotCreate)?;
        let game = game(request.game)?;
        let name = CalculatorName::parse(&request.name)?;
        let source = match request.body {
            Some(pb::create_calculator_request::Body::SpecJson(spec)) => {
                generate(game, &Spec::parse(game, &spec)?)
            }
            Some(pb::create_calculator_request::Body::Source(source)) => source,
            None => return Err(Error::MissingField("spec")),
        };
        check_source(&source)?;
        let calculator = self
            .store
            .create(
                &owner.id,
                &owner.username,
                game,
                &name,
                &source,
                request.public,
                SystemTime::now(),
            )
            .await?;
        Ok(to_proto_calculator(&calculator))
    }

    /// A calculator the caller may see.
    pub async fn get(
        &self,
        caller: &Caller,
        game: Game,
        id: &str,
    ) -> Result<pb::Calculator, Error> {
        if let Some(default) = defaults::get(id).filter(|default| default.game == game) {
            let off = self.defaults_off(caller).await?;
            return Ok(default_to_proto(default, !off.contains(id)));
        }
        Ok(to_proto_calculator(&self.readable(caller, game, id).await?))
    }

    /// Changes a calculator of the caller's; switches a default on or off for the caller.
    pub async fn update(
        &self,
        caller: &Caller,
        request: pb::UpdateCalculatorRequest,
    ) -> Result<pb::Calculator, Error> {
        let game = game(request.game)?;
        if let Some(default) = defaults::get(&request.id).filter(|default| default.game == game) {
            let account = access::creator(caller).map_err(|denied| Error::Denied {
                denied,
                id: request.id.clone(),
            })?;
            if request.name.is_some()
                || request.spec_json.is_some()
                || request.source.is_some()
                || request.public.is_some()
            {
                return Err(Error::DefaultIsReadOnly(request.id));
            }
            if let Some(enabled) = request.enabled {
                self.store
                    .set_default_off(&account.id, default.id, !enabled)
                    .await?;
            }
            let off = self.store.defaults_off(&account.id).await?;
            return Ok(default_to_proto(default, !off.contains(default.id)));
        }
        let calculator = self.changeable(caller, game, &request.id).await?;
        let source = match (request.spec_json, request.source) {
            (Some(spec), _) => Some(generate(game, &Spec::parse(game, &spec)?)),
            (None, Some(source)) => Some(source),
            (None, None) => None,
        };
        if let Some(source) = &source {
            check_source(source)?;
        }
        let patch = CalculatorPatch {
            name: request
                .name
                .as_deref()
                .map(CalculatorName::parse)
                .transpose()?,
            source,
            public: request.public,
            enabled: request.enabled,
        };
        let updated = self
            .store
            .update(calculator, patch, SystemTime::now())
            .await?
            .ok_or_else(|| not_found(&request.id))?;
        Ok(to_proto_calculator(&updated))
    }

    /// Deletes a calculator of the caller's.
    pub async fn delete(&self, caller: &Caller, game: Game, id: &str) -> Result<(), Error> {
        let calculator = self.changeable(caller, game, id).await?;
        self.store.delete(&calculator.id).await?;
        Ok(())
    }

    /// Copies a calculator the caller may see (a default included) into a new private one.
    pub async fn duplicate(
        &self,
        caller: &Caller,
        game: Game,
        id: &str,
    ) -> Result<pb::Calculator, Error> {
        let owner = access::creator(caller).map_err(Error::CannotCreate)?;
        let (name, source) = match defaults::get(id).filter(|default| default.game == game) {
            Some(default) => (default.name.to_owned(), default.source.to_owned()),
            None => {
                let calculator = self.readable(caller, game, id).await?;
                (calculator.name.as_str().to_owned(), calculator.source)
            }
        };
        let copy_name: String = format!("Copy of {name}").chars().take(100).collect();
        let copy = self
            .store
            .create(
                &owner.id,
                &owner.username,
                game,
                &CalculatorName::parse(&copy_name)?,
                &source,
                false,
                SystemTime::now(),
            )
            .await?;
        Ok(to_proto_calculator(&copy))
    }

    /// Runs a calculator the caller may see on a deck, or on a deck set counted as one deck.
    pub async fn run(
        &self,
        caller: &Caller,
        request: pb::RunCalculatorRequest,
    ) -> Result<scripts_pb::Dashboard, Error> {
        let game = game(request.game)?;
        let source = match (
            request.source,
            defaults::get(&request.id).filter(|default| default.game == game),
        ) {
            (Some(source), _) => source,
            (None, Some(default)) => default.source.to_owned(),
            (None, None) => self.readable(caller, game, &request.id).await?.source,
        };
        let piles = match request.deck {
            Some(pb::run_calculator_request::Deck::PileJson(pile)) => vec![pile],
            Some(pb::run_calculator_request::Deck::Decks(decks)) => decks.pile_json,
            None => return Err(Error::MissingField("pile")),
        };
        let pile = combined(&piles)?;
        let refs: Vec<String> = pile.keys().cloned().collect();
        let mut cards_by_id = Map::new();
        if !refs.is_empty() {
            let found = self
                .catalog
                .get_cards(game, refs)
                .await
                .map_err(Error::Catalog)?;
            for entry in found.cards {
                if let Some(card) = entry.card {
                    let card = serde_json::to_value(&card).map_err(|_| Error::Corrupt {
                        what: "catalog card",
                    })?;
                    cards_by_id.insert(entry.r#ref, card);
                }
            }
        }
        let response = self
            .scripts
            .run_calculator(scripts_pb::RunCalculatorRequest {
                script: Some(scripts_pb::Script {
                    script: Some(scripts_pb::script::Script::Source(source)),
                }),
                pile_json: Value::Object(pile).to_string(),
                cards_by_id_json: Value::Object(cards_by_id).to_string(),
                context_json: None,
            })
            .await
            .map_err(Error::Scripts)?;
        Ok(response.dashboard.unwrap_or_default())
    }

    /// The defaults the caller switched off (none for an anonymous caller).
    async fn defaults_off(&self, caller: &Caller) -> Result<HashSet<String>, Error> {
        match access::viewer(caller) {
            Some(viewer) => self.store.defaults_off(viewer).await,
            None => Ok(HashSet::new()),
        }
    }

    /// The stored calculator `id` of `game`, if there is one.
    async fn stored(&self, game: Game, id: &str) -> Result<Option<Calculator>, Error> {
        // An id not of the shape calculator ids have cannot exist: not looked up.
        if !kit::text::is_possible_id(id, ID_PREFIX) {
            return Ok(None);
        }
        Ok(self.store.get(id).await?.filter(|c| c.game == game))
    }

    async fn readable(&self, caller: &Caller, game: Game, id: &str) -> Result<Calculator, Error> {
        let calculator = self.stored(game, id).await?;
        access::admit(caller, Action::Read, calculator, owned).map_err(|denied| Error::Denied {
            denied,
            id: id.to_owned(),
        })
    }

    async fn changeable(&self, caller: &Caller, game: Game, id: &str) -> Result<Calculator, Error> {
        let calculator = self.stored(game, id).await?;
        access::admit(caller, Action::Change, calculator, owned).map_err(|denied| Error::Denied {
            denied,
            id: id.to_owned(),
        })
    }
}

/// Generates the script of a builder spec.
pub fn build(game_value: i32, spec_json: &str) -> Result<String, Error> {
    let game = game(game_value)?;
    Ok(generate(game, &Spec::parse(game, spec_json)?))
}

/// Tells whether a source opens in the builder, and with which spec.
pub fn inspect_source(
    game_value: i32,
    source: &str,
) -> Result<pb::InspectCalculatorResponse, Error> {
    let game = game(game_value)?;
    Ok(match inspect(game, source) {
        Inspected::Builder(spec) => pb::InspectCalculatorResponse {
            editable_in_builder: true,
            spec_json: Some(spec.to_compact_json()),
        },
        Inspected::Code => pb::InspectCalculatorResponse {
            editable_in_builder: false,
            spec_json: None,
        },
    })
}

/// Reads piles (card ref → copies, as JSON text) into one deck: each card once, with its
/// copies over every pile added up, in order of first appearance.
fn combined(piles: &[String]) -> Result<Map<String, Value>, Error> {
    let mut deck: Map<String, Value> = Map::new();
    for (index, text) in piles.iter().enumerate() {
        let field = if piles.len() == 1 { "pile" } else { "decks" };
        let bad = |problem: String| Error::BadDeck { field, problem };
        let value: Value = serde_json::from_str(text)
            .map_err(|err| bad(format!("pile {} is not JSON: {err}", index + 1)))?;
        let Value::Object(pile) = value else {
            return Err(bad(format!(
                "pile {} is not an object of card refs and copies",
                index + 1
            )));
        };
        for (reference, copies) in pile {
            let copies = copies
                .as_u64()
                .filter(|copies| *copies <= 999)
                .ok_or_else(|| {
                    bad(format!(
                        "`{}`: copies must be a whole number from 0 to 999",
                        kit::status::quote(&reference)
                    ))
                })?;
            let total = deck
                .get(&reference)
                .and_then(Value::as_u64)
                .unwrap_or(0)
                .saturating_add(copies);
            deck.insert(reference, Value::from(total));
        }
        if deck.len() > MAX_RUN_CARDS {
            return Err(bad(format!("at most {MAX_RUN_CARDS} different cards")));
        }
    }
    Ok(deck)
}

fn game(value: i32) -> Result<Game, Error> {
    proto::game::from_wire(value).ok_or(Error::MissingField("game"))
}

fn owned(calculator: &Calculator) -> Owned<'_> {
    Owned {
        owner: &calculator.owner,
        visibility: if calculator.public {
            Visibility::Public
        } else {
            Visibility::Private
        },
    }
}

fn not_found(id: &str) -> Error {
    Error::Denied {
        denied: access::Denied::NotFound,
        id: id.to_owned(),
    }
}

/// The spec of `source` when it opens in the builder.
fn spec_of(game: Game, source: &str) -> Option<String> {
    match inspect(game, source) {
        Inspected::Builder(spec) => Some(spec.to_compact_json()),
        Inspected::Code => None,
    }
}

fn default_to_proto(default: &DefaultCalculator, enabled: bool) -> pb::Calculator {
    let spec_json = spec_of(default.game, default.source);
    pb::Calculator {
        id: default.id.to_owned(),
        game: proto::game::to_wire(default.game),
        name: default.name.to_owned(),
        source: default.source.to_owned(),
        editable_in_builder: spec_json.is_some(),
        spec_json,
        built_in: true,
        owner: String::new(),
        public: true,
        enabled,
        create_time: None,
        update_time: None,
    }
}

fn to_proto_calculator(calculator: &Calculator) -> pb::Calculator {
    let spec_json = spec_of(calculator.game, &calculator.source);
    pb::Calculator {
        id: calculator.id.clone(),
        game: proto::game::to_wire(calculator.game),
        name: calculator.name.as_str().to_owned(),
        source: calculator.source.clone(),
        editable_in_builder: spec_json.is_some(),
        spec_json,
        built_in: false,
        owner: calculator.owner_name.clone(),
        public: calculator.public,
        enabled: calculator.enabled,
        create_time: Some(to_proto(calculator.create_time)),
        update_time: Some(to_proto(calculator.update_time)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deck_set_is_counted_as_one_deck_in_order_of_first_appearance() {
        let deck = combined(&[
            r#"{"a": 2, "b": 1}"#.to_owned(),
            r#"{"c": 3, "a": 1}"#.to_owned(),
        ])
        .expect("valid piles");
        assert_eq!(Value::Object(deck).to_string(), r#"{"a":3,"b":1,"c":3}"#);
    }

    #[test]
    fn a_pile_that_is_not_refs_and_copies_is_refused() {
        for pile in [
            "[]",
            "{\"a\": -1}",
            "{\"a\": 1.5}",
            "{\"a\": \"3\"}",
            "nope",
        ] {
            assert!(
                matches!(
                    combined(&[pile.to_owned()]),
                    Err(Error::BadDeck { field: "pile", .. })
                ),
                "{pile}"
            );
        }
    }
}
