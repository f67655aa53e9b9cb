//! Importing a pasted deck: read the text (`domain::lists`, pure), find its cards in the
//! catalog, sort them into piles.
//!
//! Cards are found in the catalog service, through its client: the decks service and `turnier
//! deck import` (which serves the local catalog in its own process) share this one path.

use std::collections::BTreeMap;

use kit::clients::{CatalogClient, ServiceError};
use proto::catalog::v1::Card;

use crate::domain::lists::{self, CardText, DeckCard, ExportDeck, Game, ListFormat, Section};

/// A card of an imported deck.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PileCard {
    /// The deck ref (printing id, or LoR card code).
    #[serde(rename = "ref")]
    pub reference: String,
    /// The identity id.
    pub card_id: String,
    /// The card's name.
    pub name: String,
    /// Copies.
    pub count: u32,
    /// The line of the text it came from.
    pub line: usize,
}

/// A line the import left out, and why.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Warning {
    /// The line number; `None` for a warning about the whole deck.
    pub line: Option<usize>,
    /// The line, or what the warning is about.
    pub text: String,
    /// Why.
    pub reason: String,
}

impl From<Warning> for proto::decks::v1::ImportWarning {
    fn from(warning: Warning) -> Self {
        Self {
            line: warning
                .line
                .map(|line| u32::try_from(line).unwrap_or(u32::MAX)),
            text: warning.text,
            reason: warning.reason,
        }
    }
}

impl From<PileCard> for proto::decks::v1::PileCard {
    fn from(card: PileCard) -> Self {
        Self {
            r#ref: card.reference,
            card_id: card.card_id,
            name: card.name,
            count: card.count,
            line: u32::try_from(card.line).unwrap_or(u32::MAX),
        }
    }
}

/// An imported deck.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ImportedDeck {
    /// The game.
    pub game: &'static str,
    /// The format that read the text (`ptcg-live`, `rift1`, …).
    pub format: &'static str,
    /// Cards by pile: `main`, `sideboard`, and for Riftbound `legend`, `runes`, `battlefields`.
    pub piles: BTreeMap<&'static str, Vec<PileCard>>,
    /// The ref of the champion the deck chose (Riftbound), when it names one.
    pub chosen_champion: Option<String>,
    /// Every line left out, with why.
    pub warnings: Vec<Warning>,
}

#[derive(Debug, Clone)]
struct Found {
    reference: String,
    card_id: String,
    name: String,
    kind: Option<String>,
}

fn describe(reference: String, card: &Card) -> Found {
    Found {
        reference,
        card_id: card.id.clone(),
        name: card.name.clone(),
        kind: card.game.as_ref().and_then(|game| game.r#type.clone()),
    }
}

/// Reads `text` as a deck of `game`, finds its cards in `catalog`, and sorts them into piles.
/// In a single-deck layout the sideboard is left out, with a warning saying how many cards.
pub async fn import_deck(
    catalog: &CatalogClient,
    game: Game,
    text: &str,
    single_deck: bool,
) -> Result<ImportedDeck, ImportError> {
    let imported = lists::import(game, text)?;

    // Every distinct card text, looked up once: refs and codes by ref, the rest (and refs the
    // catalog does not know as refs) by name resolution.
    let mut texts: Vec<CardText> = imported.entries.iter().map(|e| e.card.clone()).collect();
    texts.extend(imported.chosen_champion.clone());
    texts.sort_by_key(ToString::to_string);
    texts.dedup();
    let mut found: BTreeMap<String, Result<Found, String>> = BTreeMap::new();
    let refs: Vec<String> = texts
        .iter()
        .filter(|t| matches!(t, CardText::Ref(_) | CardText::Code(_)))
        .map(ToString::to_string)
        .collect();
    if !refs.is_empty() {
        for (reference, card) in cards_by_ref(catalog, game, refs).await? {
            found.insert(reference.clone(), Ok(describe(reference, &card)));
        }
    }
    let to_resolve: Vec<&CardText> = texts
        .iter()
        .filter(|t| !found.contains_key(&t.to_string()))
        .collect();
    let mut named = Vec::new();
    if !to_resolve.is_empty() {
        let lines: Vec<String> = to_resolve.iter().map(|t| t.query()).collect();
        let results = catalog.resolve_card_names(game, lines).await?;
        for (text, result) in to_resolve.iter().zip(results) {
            match result.r#ref {
                Some(reference) => named.push((text.to_string(), reference)),
                None => {
                    let why = result.problem.unwrap_or_else(|| "not found".to_owned());
                    found.insert(text.to_string(), Err(why));
                }
            }
        }
    }
    if !named.is_empty() {
        let wanted = named
            .iter()
            .map(|(_, reference)| reference.clone())
            .collect();
        let cards: BTreeMap<String, Found> = cards_by_ref(catalog, game, wanted)
            .await?
            .into_iter()
            .map(|(reference, card)| (reference.clone(), describe(reference, &card)))
            .collect();
        for (text, reference) in named {
            let result = cards
                .get(&reference)
                .cloned()
                .ok_or_else(|| format!("no card `{reference}`"));
            found.insert(text, result);
        }
    }

    let resolved = imported.resolve(|text| {
        found
            .get(&text.to_string())
            .cloned()
            .unwrap_or_else(|| Err("not found".to_owned()))
    });
    let mut piles: BTreeMap<&'static str, Vec<PileCard>> = BTreeMap::new();
    let mut warnings: Vec<Warning> = resolved
        .skipped
        .iter()
        .map(|s| Warning {
            line: Some(s.line),
            text: s.text.clone(),
            reason: s.reason.to_string(),
        })
        .collect();
    let mut left_out = 0;
    for entry in &resolved.entries {
        let pile = pile(game, entry.section, entry.card.kind.as_deref());
        if pile == "sideboard" && single_deck {
            left_out += entry.count;
            continue;
        }
        piles.entry(pile).or_default().push(PileCard {
            reference: entry.card.reference.clone(),
            card_id: entry.card.card_id.clone(),
            name: entry.card.name.clone(),
            count: entry.count,
            line: entry.line,
        });
    }
    if left_out > 0 {
        warnings.push(Warning {
            line: None,
            text: "sideboard".to_owned(),
            reason: format!("a single-deck layout has no sideboard: {left_out} cards left out"),
        });
    }
    Ok(ImportedDeck {
        game: game.name(),
        format: resolved.format.id(),
        piles,
        chosen_champion: resolved.chosen_champion.map(|c| c.reference),
        warnings,
    })
}

/// Why a text could not be imported at all.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// No format reads it.
    #[error(transparent)]
    Unreadable(#[from] lists::ListError),
    /// The catalog could not be asked.
    #[error("the catalog did not answer: {0}")]
    Lookup(#[from] ServiceError),
    /// An export to a format the game does not have.
    #[error("`{format}` is not a {game} format (expected one of: {})", expected.join(", "))]
    UnknownExportFormat {
        /// The format asked for.
        format: String,
        /// The game.
        game: Game,
        /// The game's formats.
        expected: Vec<&'static str>,
    },
    /// An export of a card the catalog does not know.
    #[error("no card `{0}` in the catalog")]
    UnknownCard(String),
}

/// Returns the cards `refs` resolve to, as `(ref, card)` for the refs found.
async fn cards_by_ref(
    catalog: &CatalogClient,
    game: Game,
    refs: Vec<String>,
) -> Result<Vec<(String, Card)>, ServiceError> {
    Ok(catalog
        .get_cards(game, refs)
        .await?
        .cards
        .into_iter()
        .filter_map(|entry| Some((entry.r#ref, entry.card?)))
        .collect())
}

/// A card to export: its ref, copies and pile (`main`, `sideboard`, `legend`, `runes`,
/// `battlefields`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportCard {
    /// The deck ref.
    pub reference: String,
    /// Copies.
    pub count: u32,
    /// The pile; empty means `main`.
    pub pile: String,
}

/// Writes a deck of `game` in the format with API id `format_id`, with names, sections and set
/// abbreviations from the catalog.
pub async fn export_deck(
    catalog: &CatalogClient,
    game: Game,
    format_id: &str,
    cards: &[ExportCard],
    chosen_champion: Option<String>,
) -> Result<String, ImportError> {
    let format = ListFormat::from_id(format_id)
        .filter(|format| format.game() == game)
        .ok_or_else(|| {
            let expected = ListFormat::ALL
                .iter()
                .filter(|f| f.game() == game)
                .map(|f| f.id())
                .collect();
            ImportError::UnknownExportFormat {
                format: kit::status::quote(format_id),
                game,
                expected,
            }
        })?;
    let refs: Vec<String> = cards.iter().map(|card| card.reference.clone()).collect();
    let found: BTreeMap<String, Card> = cards_by_ref(catalog, game, refs)
        .await?
        .into_iter()
        .collect();
    let abbreviations: BTreeMap<String, String> = if game == Game::Pokemon {
        catalog
            .list_sets(game)
            .await?
            .into_iter()
            .filter_map(|set| Some((set.code.to_lowercase(), set.ptcgo_code?)))
            .collect()
    } else {
        BTreeMap::new()
    };
    let mut deck = ExportDeck {
        cards: Vec::with_capacity(cards.len()),
        chosen_champion,
    };
    for card in cards {
        let catalog_card = found
            .get(&card.reference)
            .ok_or_else(|| ImportError::UnknownCard(kit::status::quote(&card.reference)))?;
        let set = card
            .reference
            .split('-')
            .next()
            .unwrap_or_default()
            .to_lowercase();
        deck.cards.push(DeckCard {
            count: card.count,
            section: section(game, &card.pile, catalog_card),
            name: catalog_card.name.clone(),
            reference: card.reference.clone(),
            list_set: abbreviations.get(&set).cloned(),
        });
    }
    Ok(lists::export(format, &deck)?)
}

/// The section a card is written under: the sideboard pile, else the Pokémon TCG Live category
/// or the Riftbound pile.
fn section(game: Game, pile: &str, card: &Card) -> Section {
    if pile == "sideboard" {
        return Section::Sideboard;
    }
    let game_data = card.game.as_ref();
    match game {
        Game::Lor => Section::Main,
        Game::Pokemon => match game_data.and_then(|g| g.supertype.as_deref()) {
            Some("Trainer") => Section::Trainer,
            Some("Energy") => Section::Energy,
            _ => Section::Pokemon,
        },
        Game::Riftbound => match (pile, game_data.and_then(|g| g.r#type.as_deref())) {
            ("legend", _) | (_, Some("legend")) => Section::Legend,
            ("runes", _) | (_, Some("rune")) => Section::Runes,
            ("battlefields", _) | (_, Some("battlefield")) => Section::Battlefields,
            _ => Section::MainDeck,
        },
    }
}

/// The pile a card goes to: Riftbound sorts by card type (the guide's Legend, Rune Deck,
/// Battlefields, Main Deck and Sideboard); the other games have a main deck and a sideboard.
fn pile(game: Game, section: Section, kind: Option<&str>) -> &'static str {
    if section.is_sideboard() {
        return "sideboard";
    }
    match (game, kind) {
        (Game::Riftbound, Some("legend")) => "legend",
        (Game::Riftbound, Some("rune")) => "runes",
        (Game::Riftbound, Some("battlefield")) => "battlefields",
        _ => "main",
    }
}
