//! `turnier deck import`: any supported deck code or list on stdin → the cards by pile, the
//! format that read it, and every line left out with why.
//!
//! The import itself is `decks::import` — the same code the decks service runs — with the
//! catalog in this process (the local database, filled from the data folder on first use) as
//! its card lookup instead of the catalog service.

use std::io::Read as _;

use anyhow::Context as _;
use decks::domain::lists::Game;
use decks::import::{CardLookup, LookupError};
use proto::catalog::v1::{Card, CardSet, ResolvedName};

use crate::catalog_cmd::LocalCatalogSettings;

/// The catalog in this process.
struct LocalCatalog(catalog::grpc::Api);

impl CardLookup for LocalCatalog {
    async fn cards_by_ref(
        &self,
        game: Game,
        refs: Vec<String>,
    ) -> Result<Vec<(String, Card)>, LookupError> {
        let response = self
            .0
            .cards_for_refs(game, &refs)
            .await
            .map_err(|err| LookupError(err.to_string()))?;
        Ok(response
            .cards
            .into_iter()
            .filter_map(|entry| Some((entry.r#ref, entry.card?)))
            .collect())
    }

    async fn resolve_names(
        &self,
        game: Game,
        lines: Vec<String>,
    ) -> Result<Vec<ResolvedName>, LookupError> {
        let response = self
            .0
            .resolve_names(game, &lines)
            .await
            .map_err(|err| LookupError(err.to_string()))?;
        Ok(response.results)
    }

    async fn sets(&self, game: Game) -> Result<Vec<CardSet>, LookupError> {
        self.0
            .sets(game)
            .await
            .map_err(|err| LookupError(err.to_string()))
    }
}

/// Runs `turnier deck import --game G [--single-deck]` on stdin.
pub async fn run(
    local: &LocalCatalogSettings,
    game: &str,
    single_deck: bool,
) -> anyhow::Result<()> {
    let game: Game = game.parse()?;
    let mut text = String::new();
    std::io::stdin()
        .read_to_string(&mut text)
        .context("cannot read the deck on stdin")?;

    let store = crate::catalog_cmd::local_catalog(local).await?;
    let lookup = LocalCatalog(catalog::grpc::Api::new(store));

    let deck = decks::import::import_deck(&lookup, game, &text, single_deck).await?;
    println!("{}", serde_json::to_string(&deck)?);
    Ok(())
}
