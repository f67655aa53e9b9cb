//! Shared deck links and exports (`guide-deck-builder.md`, "Importing and exporting"): a deck
//! opened by its game's share code, or a saved deck, with its cards by pile resolved against
//! the catalog and the exports the deck preview offers: **Share** (the game's own code),
//! **Copy deck list** and, for Riftbound, **Copy deck code**.
//!
//! Cards the catalog does not know are listed, not fatal, and left out of the exports. A
//! maybeboard is never exported. What a format cannot carry is said in the answer's notes: a
//! format without a sideboard adds it to the main deck, and the Piltover Archive code does so
//! too, for now, as the guide documents.

use std::collections::{BTreeMap, HashMap};

use kit::clients::CatalogClient;
use proto::decks::v1 as pb;
use proto::game::Game;

use crate::domain::lists::ListFormat;
use crate::domain::saved::{PileRole, SavedDeck};
use crate::error::Error;
use crate::import::{ExportCard, export_deck, import_deck};

/// The formats a game's deck preview exports to: Share, Copy deck list, Copy deck code.
fn export_formats(game: Game) -> (ListFormat, ListFormat, Option<ListFormat>) {
    match game {
        Game::Lor => (ListFormat::LorCode, ListFormat::LorCode, None),
        Game::Pokemon => (ListFormat::Ptcg1, ListFormat::PtcgLive, None),
        Game::Riftbound => (
            ListFormat::Rift1,
            ListFormat::PiltoverList,
            Some(ListFormat::PiltoverCode),
        ),
    }
}

/// Opens a shared deck of `game` by `code`: its game's share code, or any code or list the game
/// imports.
pub async fn shared(
    catalog: &CatalogClient,
    game: Game,
    code: &str,
) -> Result<pb::SharedDeck, Error> {
    let deck = import_deck(catalog, game, code, false).await?;
    let mut cards = Vec::new();
    let piles = deck
        .piles
        .into_iter()
        .map(|(name, pile_cards)| {
            cards.extend(pile_cards.iter().map(|card| ExportCard {
                reference: card.reference.clone(),
                count: card.count,
                pile: name.to_owned(),
            }));
            pb::DeckPile {
                name: name.to_owned(),
                cards: pile_cards.into_iter().map(Into::into).collect(),
            }
        })
        .collect();
    let unknown = deck
        .warnings
        .into_iter()
        .map(|warning| pb::ImportWarning {
            line: warning
                .line
                .map(|line| u32::try_from(line).unwrap_or(u32::MAX)),
            text: warning.text,
            reason: warning.reason,
        })
        .collect();
    let exports = exports(catalog, game, &cards, deck.chosen_champion.clone()).await?;
    Ok(pb::SharedDeck {
        game: proto::game::to_wire(game),
        format: deck.format.to_owned(),
        piles,
        chosen_champion: deck.chosen_champion,
        unknown,
        exports,
    })
}

/// A saved deck as a shared deck: its piles that export (not a maybeboard) with their cards
/// resolved against the catalog, and its exports.
pub async fn saved(catalog: &CatalogClient, deck: &SavedDeck) -> Result<pb::SharedDeck, Error> {
    let exported: Vec<(String, PileRole, &[crate::domain::saved::SavedCard])> = deck
        .content
        .piles
        .iter()
        .enumerate()
        .filter(|(_, pile)| pile.role != PileRole::Maybeboard)
        .map(|(index, pile)| (pile.label(index), pile.role, pile.cards.as_slice()))
        .collect();
    let mut refs: Vec<String> = exported
        .iter()
        .flat_map(|(_, _, cards)| cards.iter().map(|card| card.reference.clone()))
        .collect();
    refs.sort();
    refs.dedup();
    let found: HashMap<String, (String, String)> = if refs.is_empty() {
        HashMap::new()
    } else {
        catalog
            .get_cards(deck.game, refs)
            .await
            .map_err(Error::Catalog)?
            .cards
            .into_iter()
            .filter_map(|entry| {
                let card = entry.card?;
                Some((entry.r#ref, (card.id, card.name)))
            })
            .collect()
    };
    let mut unknown = Vec::new();
    let mut cards = Vec::new();
    let mut piles = Vec::new();
    for (name, role, pile_cards) in exported {
        let mut shown = Vec::new();
        for card in pile_cards {
            let Some((card_id, card_name)) = found.get(&card.reference) else {
                unknown.push(pb::ImportWarning {
                    line: None,
                    text: card.reference.clone(),
                    reason: format!("no card `{}` in the catalog", card.reference),
                });
                continue;
            };
            cards.push(ExportCard {
                reference: card.reference.clone(),
                count: card.count,
                pile: if role == PileRole::Sideboard {
                    "sideboard".to_owned()
                } else {
                    String::new()
                },
            });
            shown.push(pb::PileCard {
                r#ref: card.reference.clone(),
                card_id: card_id.clone(),
                name: card_name.clone(),
                count: card.count,
                line: 0,
            });
        }
        piles.push(pb::DeckPile { name, cards: shown });
    }
    let exports = exports(catalog, deck.game, &cards, None).await?;
    Ok(pb::SharedDeck {
        game: proto::game::to_wire(deck.game),
        format: "saved".to_owned(),
        piles,
        chosen_champion: None,
        unknown,
        exports,
    })
}

/// Writes `cards` in the game's export formats, with a note for each that cannot carry the
/// sideboard; none for a deck without cards.
async fn exports(
    catalog: &CatalogClient,
    game: Game,
    cards: &[ExportCard],
    chosen_champion: Option<String>,
) -> Result<Option<pb::DeckExports>, Error> {
    if cards.is_empty() {
        return Ok(None);
    }
    let (share, list, code) = export_formats(game);
    let sideboard: u32 = cards
        .iter()
        .filter(|card| card.pile == "sideboard")
        .map(|card| card.count)
        .sum();
    let write = |format: ListFormat| {
        let cards = if format.has_sideboard() {
            cards.to_vec()
        } else {
            folded(cards)
        };
        let chosen_champion = chosen_champion.clone();
        async move { export_deck(catalog, game, format.id(), &cards, chosen_champion).await }
    };
    let mut notes = Vec::new();
    if sideboard > 0 {
        if !list.has_sideboard() {
            notes.push(format!(
                "{} has no sideboard: the {sideboard} sideboard cards are added to the main deck in the shared code and the deck list.",
                game_label(game)
            ));
        }
        if code == Some(ListFormat::PiltoverCode) {
            notes.push(format!(
                "Copy deck code puts the {sideboard} sideboard cards in the main deck for now (the Piltover Archive code): use Share or Copy deck list to keep the sideboard."
            ));
        }
    }
    Ok(Some(pb::DeckExports {
        share_code: write(share).await?,
        deck_list: write(list).await?,
        deck_list_format: list.id().to_owned(),
        deck_code: match code {
            Some(code) => Some(write(code).await?),
            None => None,
        },
        deck_code_format: code.map(|code| code.id().to_owned()),
        notes,
    }))
}

/// The deck with its sideboard added to the main deck, each card once with its copies summed,
/// for a format that has no sideboard.
fn folded(cards: &[ExportCard]) -> Vec<ExportCard> {
    let mut order = Vec::new();
    let mut counts: BTreeMap<&str, (u32, &str)> = BTreeMap::new();
    for card in cards {
        let pile = if card.pile == "sideboard" {
            ""
        } else {
            card.pile.as_str()
        };
        let entry = counts.entry(card.reference.as_str()).or_insert_with(|| {
            order.push(card.reference.as_str());
            (0, pile)
        });
        entry.0 += card.count;
    }
    order
        .into_iter()
        .map(|reference| {
            let (count, pile) = counts[reference];
            ExportCard {
                reference: reference.to_owned(),
                count,
                pile: pile.to_owned(),
            }
        })
        .collect()
}

fn game_label(game: Game) -> &'static str {
    match game {
        Game::Lor => "Legends of Runeterra",
        Game::Pokemon => "Pokémon TCG",
        Game::Riftbound => "Riftbound",
    }
}
