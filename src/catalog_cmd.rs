//! `turnier catalog import` and `turnier card show`: the catalog from the command line.

use std::path::PathBuf;

use anyhow::Context as _;
use catalog::domain::Game;
use catalog::store::Store;
use clap::Subcommand;
use kit::config::Config;

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

/// Where the tools that read cards (`card show`, `search`, `deck import`, `script run`) find
/// the local catalog: the database `turnier serve` keeps, and the card data imported into it
/// on first use.
///
/// No `Debug`: the database URL may carry a password.
#[derive(Clone)]
pub struct LocalCatalogSettings {
    database_url: String,
    data_dir: Option<PathBuf>,
}

impl LocalCatalogSettings {
    /// Takes the database from the plumbing settings and the data folder from the catalog's.
    pub fn new(config: &Config, catalog: &catalog::Settings) -> Self {
        Self {
            database_url: config.database_url.clone(),
            data_dir: catalog.data_dir(),
        }
    }
}

/// Opens the local catalog: the database, filled with the sample and the data folder on first
/// use.
pub async fn local_catalog(settings: &LocalCatalogSettings) -> anyhow::Result<Store> {
    let store = local_store(&settings.database_url).await?;
    catalog::import::bootstrap(store.clone(), settings.data_dir.clone()).await;
    Ok(store)
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
            println!(
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
            let response = match server {
                Some(url) => {
                    let channel = kit::client::channel(&url)?;
                    let mut client =
                        proto::catalog::v1::catalog_service_client::CatalogServiceClient::new(
                            channel,
                        );
                    client
                        .get_cards(proto::catalog::v1::GetCardsRequest {
                            game: game.to_proto() as i32,
                            refs: vec![reference.clone()],
                        })
                        .await
                        .with_context(|| format!("catalog at {url}"))?
                        .into_inner()
                }
                None => {
                    let store = local_catalog(local).await?;
                    catalog::grpc::Api::new(store)
                        .cards_for_refs(game, std::slice::from_ref(&reference))
                        .await?
                }
            };
            let card = response
                .cards
                .into_iter()
                .next()
                .and_then(|entry| entry.card)
                .with_context(|| format!("no card `{reference}` in the {game} catalog"))?;
            println!("{}", serde_json::to_string_pretty(&card)?);
            Ok(())
        }
    }
}
