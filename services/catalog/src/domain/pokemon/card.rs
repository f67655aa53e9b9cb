//! Builds the catalog card of one identity from its upstream printings, with the fields the
//! card-data page documents.
//!
//! Game fields come from the default printing (they agree across the identity by
//! construction, see [`super::identity`]), except: `legalities`, merged over every printing by
//! the reprint rule; `evolvesTo`, the union over printings (upstream omits it on some);
//! `nationalPokedexNumbers`, the first printing that has them. Upstream images become two
//! assets: `large` as kind `card` (the full-size framed render) and `small` as kind
//! `thumbnail`. Neither carries a format or size, since upstream does not state them.

use std::collections::{BTreeMap, HashMap};

use proto::catalog::v1::{
    CardAsset, CardGameData, CardPrinting, PokemonAbility, PokemonAttack, PokemonResistance,
    PokemonWeakness,
};

use super::identity::canonical_text;
use super::upstream::{CardImages, Supertype, TypeModifier, UpstreamCard, UpstreamSet};
use crate::domain::Card;

/// Asset kind of upstream's `large` image.
pub const CARD_ASSET_KIND: &str = "card";
/// Asset kind of upstream's `small` image.
pub const THUMBNAIL_ASSET_KIND: &str = "thumbnail";

/// One accepted upstream record, ready to join an identity.
#[derive(Debug, Clone)]
pub struct Printing {
    /// Printing id (`sv2-63`).
    pub id: String,
    /// Set code, from the card file's name.
    pub set_code: String,
    pub supertype: Supertype,
    pub card: UpstreamCard,
}

/// Pokémon identity ids by canonical name, for resolving "evolves from/to" names.
#[derive(Debug, Default)]
pub struct EvolutionIndex(HashMap<String, Vec<String>>);

impl EvolutionIndex {
    /// Indexes the Pokémon among `(identity id, default printing)`, keeping their order.
    pub fn new<'a>(identities: impl IntoIterator<Item = (&'a str, &'a Printing)>) -> Self {
        let mut index: HashMap<String, Vec<String>> = HashMap::new();
        for (id, default) in identities {
            if default.supertype == Supertype::Pokemon {
                index
                    .entry(canonical_text(&default.card.name))
                    .or_default()
                    .push(id.to_owned());
            }
        }
        Self(index)
    }

    /// Returns the ids of the Pokémon identities named `name` (compared as
    /// [`canonical_text`]), except `except`.
    fn ids_named(&self, name: &str, except: &str) -> Vec<String> {
        let ids = self
            .0
            .get(&canonical_text(name))
            .map(Vec::as_slice)
            .unwrap_or_default();
        ids.iter().filter(|id| *id != except).cloned().collect()
    }
}

/// Builds the card of identity `id` from its printings, default printing first.
pub fn build_card(
    id: &str,
    printings: &[&Printing],
    sets: &HashMap<String, UpstreamSet>,
    evolutions: &EvolutionIndex,
) -> Card {
    let default = printings[0];
    let upstream = &default.card;
    let card_printings: Vec<CardPrinting> = printings
        .iter()
        .map(|printing| build_printing(printing, sets))
        .collect();
    let has_any_image = card_printings
        .iter()
        .any(|printing| !printing.assets.is_empty());

    let mut evolves_to: Vec<String> = Vec::new();
    for printing in printings {
        for name in &printing.card.evolves_to {
            if !evolves_to.contains(name) {
                evolves_to.push(name.clone());
            }
        }
    }
    let evolves_from_ids = match &upstream.evolves_from {
        Some(name) => evolutions.ids_named(name, id),
        None => Vec::new(),
    };
    let mut evolves_to_ids = Vec::new();
    for name in &evolves_to {
        for other in evolutions.ids_named(name, id) {
            if !evolves_to_ids.contains(&other) {
                evolves_to_ids.push(other);
            }
        }
    }
    let national_pokedex_numbers = printings
        .iter()
        .map(|printing| &printing.card.national_pokedex_numbers)
        .find(|numbers| !numbers.is_empty())
        .cloned()
        .unwrap_or_default();
    let converted_retreat_cost = upstream.converted_retreat_cost.or_else(|| {
        (!upstream.retreat_cost.is_empty())
            .then(|| i32::try_from(upstream.retreat_cost.len()).unwrap_or(i32::MAX))
    });

    let game = CardGameData {
        supertype: Some(default.supertype.as_str().to_owned()),
        subtypes: upstream.subtypes.clone(),
        level: non_empty(&upstream.level),
        hp: non_empty(&upstream.hp),
        types: upstream.types.clone(),
        evolves_from: non_empty(&upstream.evolves_from),
        evolves_from_ids,
        evolves_to,
        evolves_to_ids,
        rules: upstream.rules.clone(),
        abilities: upstream.abilities.iter().map(build_ability).collect(),
        attacks: upstream.attacks.iter().map(build_attack).collect(),
        weaknesses: upstream.weaknesses.iter().map(build_weakness).collect(),
        resistances: upstream.resistances.iter().map(build_resistance).collect(),
        retreat_cost: upstream.retreat_cost.clone(),
        converted_retreat_cost,
        number: Some(upstream.number.trim().to_owned()),
        rarity: non_empty(&upstream.rarity),
        artist: non_empty(&upstream.artist),
        flavor_text: non_empty(&upstream.flavor_text),
        national_pokedex_numbers,
        legalities: merged_legalities(printings),
        regulation_mark: non_empty(&upstream.regulation_mark),
        default_printing_id: Some(default.id.clone()),
        ..CardGameData::default()
    };

    Card {
        id: id.to_owned(),
        name: upstream.name.trim().to_owned(),
        set_code: default.set_code.clone(),
        // Every Pokémon TCG card can go in a deck.
        collectible: Some(true),
        assets: card_printings[0].assets.clone(),
        // The page: absent means the card has an image.
        has_image: (!has_any_image).then_some(false),
        printings: card_printings,
        game: Some(game),
    }
}

fn build_printing(printing: &Printing, sets: &HashMap<String, UpstreamSet>) -> CardPrinting {
    let card = &printing.card;
    let metadata: Vec<(String, pbjson_types::Value)> = [
        ("rarity", &card.rarity),
        ("regulationMark", &card.regulation_mark),
        ("artist", &card.artist),
    ]
    .into_iter()
    .filter_map(|(key, value)| Some((key.to_owned(), non_empty(value)?.into())))
    .collect();
    CardPrinting {
        id: printing.id.clone(),
        set_code: printing.set_code.clone(),
        number: Some(card.number.trim().to_owned()),
        release_date: sets
            .get(&printing.set_code)
            .and_then(|set| set.release_date.clone()),
        assets: build_assets(&card.images),
        metadata: (!metadata.is_empty()).then(|| metadata.into_iter().collect()),
        ..CardPrinting::default()
    }
}

fn build_assets(images: &CardImages) -> Vec<CardAsset> {
    [
        (CARD_ASSET_KIND, &images.large),
        (THUMBNAIL_ASSET_KIND, &images.small),
    ]
    .into_iter()
    .filter_map(|(kind, url)| {
        Some(CardAsset {
            kind: kind.to_owned(),
            url: non_empty(url)?,
            ..CardAsset::default()
        })
    })
    .collect()
}

fn build_ability(ability: &super::upstream::Ability) -> PokemonAbility {
    PokemonAbility {
        name: ability.name.clone(),
        text: ability.text.clone(),
        r#type: ability.kind.clone(),
    }
}

fn build_attack(attack: &super::upstream::Attack) -> PokemonAttack {
    PokemonAttack {
        converted_energy_cost: attack
            .converted_energy_cost
            .or_else(|| i32::try_from(attack.cost.len()).ok()),
        cost: attack.cost.clone(),
        // Upstream writes "no printed damage" and "no text" as empty strings; the page: absent.
        damage: non_empty(&attack.damage),
        name: attack.name.clone(),
        text: non_empty(&attack.text),
    }
}

fn build_weakness(weakness: &TypeModifier) -> PokemonWeakness {
    PokemonWeakness {
        r#type: weakness.kind.clone(),
        value: weakness.value.clone(),
    }
}

fn build_resistance(resistance: &TypeModifier) -> PokemonResistance {
    PokemonResistance {
        r#type: resistance.kind.clone(),
        value: resistance.value.clone(),
    }
}

/// Legality per format over all printings: by the reprint rule a card is legal when any
/// printing of it is; a ban on any printing bans the card. Values are the page's `Legal`,
/// `Illegal` (upstream writes `Not Legal`) and `Banned`.
fn merged_legalities(printings: &[&Printing]) -> BTreeMap<String, String> {
    let mut merged: BTreeMap<&str, Legality> = BTreeMap::new();
    for printing in printings {
        for (format, status) in &printing.card.legalities {
            let status = Legality::parse(status);
            let best = merged.entry(format.as_str()).or_insert(status);
            *best = (*best).max(status);
        }
    }
    merged
        .into_iter()
        .map(|(format, status)| (format.to_owned(), status.as_str().to_owned()))
        .collect()
}

/// A format legality, ordered so that the merged status of an identity is the maximum.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Legality {
    Illegal,
    Legal,
    Banned,
}

impl Legality {
    /// Reads an upstream status; anything but `Legal` and `Banned` (`Not Legal`) is illegal.
    fn parse(status: &str) -> Self {
        match status.trim().to_ascii_lowercase().as_str() {
            "legal" => Self::Legal,
            "banned" => Self::Banned,
            _ => Self::Illegal,
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            Self::Illegal => "Illegal",
            Self::Legal => "Legal",
            Self::Banned => "Banned",
        }
    }
}

fn non_empty(value: &Option<String>) -> Option<String> {
    value
        .as_deref()
        .map(str::trim)
        .filter(|text| !text.is_empty())
        .map(str::to_owned)
}
