//! `turnier deck import`: any supported deck code or list on stdin → the cards by pile, the
//! format that read it, and every line that was skipped with why.
//!
//! Reading the text is `decks::domain::lists` (pure); finding the cards is the catalog, here
//! the local one (the database, filled from the data folder on first use) — the same lookups
//! the catalog service answers over gRPC (`GetCards` for refs and codes, `ResolveCardNames`
//! for names and set + number).

use std::collections::BTreeMap;
use std::io::Read as _;

use anyhow::Context as _;
use catalog::domain::Game as CatalogGame;
use decks::domain::lists::{self, CardText, Game, Section};
use kit::config::Config;
use serde_json::{Value, json};

/// What a resolved card is.
#[derive(Debug, Clone)]
struct Found {
    reference: String,
    card_id: String,
    name: String,
    /// The Riftbound card type (`legend`, `rune`, `battlefield`, …), when the card has one.
    kind: Option<String>,
}

/// Runs `turnier deck import --game G [--single-deck]` on stdin.
pub async fn run(config: &Config, game: &str, single_deck: bool) -> anyhow::Result<()> {
    let game: Game = game.parse()?;
    let catalog_game: CatalogGame = game.name().parse()?;
    let mut text = String::new();
    std::io::stdin()
        .read_to_string(&mut text)
        .context("cannot read the deck on stdin")?;
    let imported = lists::import(game, &text)?;

    let db = kit::db::Database::connect(&config.database_url, 4).await?;
    db.migrate(&[&catalog::store::MIGRATOR]).await?;
    let store = catalog::store::Store::new(db);
    catalog::import::bootstrap(store.clone(), config.data_dir.clone()).await;
    let api = catalog::grpc::Api::new(store);

    // Every distinct card text, looked up once: refs and codes by GetCards, the rest (and
    // refs GetCards does not know) by name resolution.
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
    let by_ref = api.cards_for_refs(catalog_game, &refs).await?;
    for entry in by_ref.cards {
        if let Some(card) = entry.card {
            found.insert(entry.r#ref.clone(), Ok(describe(entry.r#ref, &card)));
        }
    }
    let to_resolve: Vec<&CardText> = texts
        .iter()
        .filter(|t| !found.contains_key(&t.to_string()))
        .collect();
    let lines: Vec<String> = to_resolve.iter().map(|t| t.query()).collect();
    let resolved = api.resolve_names(catalog_game, &lines).await?;
    let mut ids = Vec::new();
    for (text, result) in to_resolve.iter().zip(&resolved.results) {
        match (&result.r#ref, &result.card_id) {
            (Some(reference), Some(_)) => ids.push((text.to_string(), reference.clone())),
            _ => {
                let why = result
                    .problem
                    .clone()
                    .unwrap_or_else(|| "not found".to_owned());
                found.insert(text.to_string(), Err(why));
            }
        }
    }
    let wanted: Vec<String> = ids.iter().map(|(_, reference)| reference.clone()).collect();
    let cards = api.cards_for_refs(catalog_game, &wanted).await?;
    let cards: BTreeMap<String, Found> = cards
        .cards
        .into_iter()
        .filter_map(|entry| {
            Some((
                entry.r#ref.clone(),
                describe(entry.r#ref, entry.card.as_ref()?),
            ))
        })
        .collect();
    for (text, reference) in ids {
        let result = cards
            .get(&reference)
            .cloned()
            .ok_or_else(|| format!("no card `{reference}`"));
        found.insert(text, result);
    }

    let resolved = imported.resolve(|text| {
        found
            .get(&text.to_string())
            .cloned()
            .unwrap_or_else(|| Err("not found".to_owned()))
    });

    let mut piles: BTreeMap<&'static str, Vec<Value>> = BTreeMap::new();
    let mut warnings: Vec<Value> = resolved
        .skipped
        .iter()
        .map(|s| json!({"line": s.line, "text": s.text, "reason": s.reason.to_string()}))
        .collect();
    let mut dropped_sideboard = 0;
    for entry in &resolved.entries {
        let pile = pile(game, entry.section, entry.card.kind.as_deref());
        if pile == "sideboard" && single_deck {
            dropped_sideboard += entry.count;
            continue;
        }
        piles.entry(pile).or_default().push(json!({
            "ref": entry.card.reference,
            "cardId": entry.card.card_id,
            "name": entry.card.name,
            "count": entry.count,
            "line": entry.line,
        }));
    }
    if dropped_sideboard > 0 {
        warnings.push(json!({
            "line": null,
            "text": "sideboard",
            "reason": format!("a single-deck layout has no sideboard: {dropped_sideboard} cards left out"),
        }));
    }
    println!(
        "{}",
        json!({
            "game": game.name(),
            "format": resolved.format.id(),
            "piles": piles,
            "chosenChampion": resolved.chosen_champion.map(|c| c.reference),
            "warnings": warnings,
        })
    );
    Ok(())
}

fn describe(reference: String, card: &proto::catalog::v1::Card) -> Found {
    Found {
        reference,
        card_id: card.id.clone(),
        name: card.name.clone(),
        kind: card.game.as_ref().and_then(|game| game.r#type.clone()),
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
