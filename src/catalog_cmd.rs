//! `turnier catalog import` and `turnier card show`: the catalog from the command line.

use std::path::PathBuf;

use anyhow::Context as _;
use catalog::domain::Game;
use catalog::store::Store;
use clap::Subcommand;
use kit::config::Config;

use crate::local::LocalCatalogSettings;

/// `turnier catalog …`
#[derive(Debug, Subcommand)]
pub enum CatalogCommand {
    /// Imports a game's upstream card data into the database (DATABASE_URL). Idempotent: a
    /// second import of the same data changes nothing.
    Import {
        /// lor, pokemon or riftbound.
        #[arg(long)]
        game: String,
        /// The game's data folder in its upstream format, e.g. ../shared/data/pokemon (or the
        /// folder above it, holding one sub-folder per game).
        #[arg(long, value_name = "DIR")]
        from: PathBuf,
    },
}

/// `turnier card …`
#[derive(Debug, Subcommand)]
pub enum CardCommand {
    /// Prints the card a ref (printing id, identity id or alias) resolves to, as JSON.
    Show {
        /// lor, pokemon or riftbound.
        #[arg(long)]
        game: String,
        /// The ref, e.g. sv2-11, 01DE012, ogn-030-298.
        reference: String,
        /// A running platform's gRPC address (http://host:50051); without it, the local
        /// database, filled from the data folder on first use.
        #[arg(long, value_name = "URL")]
        server: Option<String>,
    },
}

async fn local_store(database_url: &str) -> anyhow::Result<Store> {
    let db = kit::db::Database::connect(database_url, 4).await?;
    db.migrate(&[&catalog::store::MIGRATOR]).await?;
    Ok(Store::new(db))
}

/// Runs `turnier catalog …`.
pub async fn run_catalog(config: &Config, command: CatalogCommand) -> anyhow::Result<()> {
    match command {
        CatalogCommand::Import { game, from } => {
            let game: Game = game.parse()?;
            anyhow::ensure!(
                from.is_dir(),
                "--from: `{}` is not a folder",
                from.display()
            );
            // `--from ../shared/data` means the game's own folder inside it.
            let from = if from.join(game.name()).is_dir() {
                from.join(game.name())
            } else {
                from
            };
            let store = local_store(&config.database_url).await?;
            let progress = |line: &str| eprintln!("{line}");
            let report = catalog::import::import_dir(&store, game, &from, &progress).await?;
            for skipped in &report.skipped {
                eprintln!("skipped {}: {}", skipped.record, skipped.reason);
            }
            outln!(
                "{}",
                serde_json::json!({
                    "game": game.name(),
                    "cards": report.cards,
                    "printings": report.printings,
                    "refs": report.saved.refs,
                    "skipped": report.skipped.len(),
                    "changed": report.saved.changed,
                    "retiredIds": report.saved.retired_ids,
                    "version": report.saved.version,
                    "seconds": (report.parse_time + report.save_time).as_secs_f64(),
                })
            );
            Ok(())
        }
    }
}

/// Runs `turnier card …`.
pub async fn run_card(local: &LocalCatalogSettings, command: CardCommand) -> anyhow::Result<()> {
    match command {
        CardCommand::Show {
            game,
            reference,
            server,
        } => {
            let game: Game = game.parse()?;
            let catalog = crate::local::catalog(local, server.as_deref()).await?;
            let response = catalog
                .get_cards(game, vec![reference.clone()])
                .await
                .with_context(|| match &server {
                    Some(url) => format!("catalog at {url}"),
                    None => "the local catalog".to_owned(),
                })?;
            let card = response
                .cards
                .into_iter()
                .next()
                .and_then(|entry| entry.card)
                .with_context(|| format!("no card `{reference}` in the {game} catalog"))?;
            outln!("{}", serde_json::to_string_pretty(&card)?);
            Ok(())
        }
    }
}
