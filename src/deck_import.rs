//! `turnier deck import`: any supported deck code or list on stdin → the cards by pile, the
//! format that read it, and every line left out with why.
//!
//! The import itself is `decks::import` — the same code the decks service runs — finding its
//! cards through the catalog service served in this process over the local catalog (the
//! database, filled from the data folder on first use).

use std::io::Read as _;

use crate::local::LocalCatalogSettings;
use anyhow::Context as _;
use proto::game::Game;

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

    let catalog = crate::local::catalog(local, None).await?;
    let deck = decks::import::import_deck(&catalog, game, &text, single_deck).await?;
    outln!("{}", serde_json::to_string(&deck)?);
    Ok(())
}
