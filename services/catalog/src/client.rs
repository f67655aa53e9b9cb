//! How other services read a whole catalog: [`PerCatalogVersion`] keeps, per game, something
//! built from every card of the game (the search index, a script card pool) and builds it again
//! when the catalog's version changes.

use std::collections::HashMap;
use std::future::Future;
use std::sync::Arc;

use proto::catalog::v1::catalog_service_client::CatalogServiceClient;
use proto::catalog::v1::{Card, GetCatalogVersionRequest, StreamCardsRequest};
use tokio::sync::{Mutex, RwLock};

use crate::domain::Game;

/// A client of the catalog service whose calls carry the caller's trace context.
pub type CatalogClient = CatalogServiceClient<kit::client::TracedChannel>;

/// One `T` per game, built from the game's whole catalog and kept until the catalog changes.
#[derive(Debug)]
pub struct PerCatalogVersion<T> {
    catalog: CatalogClient,
    /// What was built for each game, with the catalog version it was built from.
    built: RwLock<HashMap<Game, (String, Arc<T>)>>,
    /// One build at a time: concurrent requests after an import wait for the same build.
    building: Mutex<()>,
}

impl<T> PerCatalogVersion<T> {
    /// Reads from the catalog service at `catalog_url` (connected on first use).
    pub fn new(catalog_url: &str) -> Result<Self, kit::client::ClientError> {
        Ok(Self {
            catalog: CatalogServiceClient::new(kit::client::traced_channel(catalog_url)?),
            built: RwLock::default(),
            building: Mutex::default(),
        })
    }

    /// The catalog client, for calls a build needs beyond the cards.
    pub fn catalog(&self) -> CatalogClient {
        self.catalog.clone()
    }

    /// Returns what `build` made of every card of `game` (in catalog order) at the catalog's
    /// current version, building it first when the catalog changed since, or never was read.
    pub async fn get<E, F, Fut>(&self, game: Game, build: F) -> Result<Arc<T>, E>
    where
        E: From<tonic::Status>,
        F: FnOnce(Vec<Card>) -> Fut,
        Fut: Future<Output = Result<T, E>>,
    {
        let proto_game = game.to_proto() as i32;
        let version = self
            .catalog
            .clone()
            .get_catalog_version(GetCatalogVersionRequest { game: proto_game })
            .await?
            .into_inner()
            .version;
        if let Some(built) = self.cached(game, &version).await {
            return Ok(built);
        }
        let _building = self.building.lock().await;
        if let Some(built) = self.cached(game, &version).await {
            return Ok(built);
        }
        let mut stream = self
            .catalog
            .clone()
            .stream_cards(StreamCardsRequest { game: proto_game })
            .await?
            .into_inner();
        let mut cards = Vec::new();
        while let Some(batch) = stream.message().await? {
            cards.extend(batch.cards);
        }
        let count = cards.len();
        let built = Arc::new(build(cards).await?);
        tracing::info!(%game, cards = count, %version, "built from the whole catalog");
        self.built
            .write()
            .await
            .insert(game, (version, Arc::clone(&built)));
        Ok(built)
    }

    async fn cached(&self, game: Game, version: &str) -> Option<Arc<T>> {
        let built = self.built.read().await;
        let (built_for, value) = built.get(&game)?;
        (built_for == version).then(|| Arc::clone(value))
    }
}
