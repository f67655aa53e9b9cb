//! Whole catalogs as card pools: every card of a game as the catalog service streams it, in the
//! JSON scripts see (the card object's canonical JSON), kept between calls and read again when
//! the catalog's version changes. The deck builder runs a card rule over its whole catalog
//! without sending ~25 MB of cards with every request.

use std::collections::HashMap;
use std::sync::Arc;

use proto::catalog::v1::catalog_service_client::CatalogServiceClient;
use proto::catalog::v1::{GetCatalogVersionRequest, StreamCardsRequest};
use proto::common::v1::Game;
use serde_json::Value;
use tokio::sync::{Mutex, RwLock};
use tonic::service::interceptor::InterceptedService;
use tonic::transport::Channel;

use crate::error::Error;

type TraceInterceptor = fn(tonic::Request<()>) -> Result<tonic::Request<()>, tonic::Status>;
type Catalog = CatalogServiceClient<InterceptedService<Channel, TraceInterceptor>>;

/// A game's cards with the catalog version they were read at.
type Pools = HashMap<Game, (String, Arc<Vec<Value>>)>;

/// The catalog pools of every game, read on first use.
#[derive(Debug, Clone)]
pub struct CatalogPools {
    catalog: Catalog,
    pools: Arc<RwLock<Pools>>,
    /// One read at a time: concurrent requests after an import wait for the same read.
    loading: Arc<Mutex<()>>,
}

impl CatalogPools {
    /// Reads cards from the catalog service at `catalog_url` (connected on first use).
    pub fn new(catalog_url: &str) -> Result<Self, kit::client::ClientError> {
        let channel = kit::client::channel(catalog_url)?;
        Ok(Self {
            catalog: CatalogServiceClient::with_interceptor(
                channel,
                kit::telemetry::trace_interceptor as TraceInterceptor,
            ),
            pools: Arc::default(),
            loading: Arc::default(),
        })
    }

    /// Returns every card of `game` at the catalog's current version, in catalog order.
    #[tracing::instrument(skip(self))]
    pub async fn pool(&self, game: Game) -> Result<Arc<Vec<Value>>, Error> {
        let version = self
            .catalog
            .clone()
            .get_catalog_version(GetCatalogVersionRequest { game: game as i32 })
            .await
            .map_err(catalog_error)?
            .into_inner()
            .version;
        if let Some(pool) = self.cached(game, &version).await {
            return Ok(pool);
        }
        let _loading = self.loading.lock().await;
        if let Some(pool) = self.cached(game, &version).await {
            return Ok(pool);
        }
        let mut stream = self
            .catalog
            .clone()
            .stream_cards(StreamCardsRequest { game: game as i32 })
            .await
            .map_err(catalog_error)?
            .into_inner();
        let mut cards = Vec::new();
        while let Some(batch) = stream.message().await.map_err(catalog_error)? {
            cards.extend(batch.cards);
        }
        let pool = tokio::task::spawn_blocking(move || {
            cards
                .iter()
                .map(serde_json::to_value)
                .collect::<Result<Vec<Value>, _>>()
        })
        .await
        .map_err(|err| Error::Sandbox(err.to_string()))?
        .map_err(|err| Error::Catalog(format!("a card does not convert to JSON: {err}")))?;
        let pool = Arc::new(pool);
        tracing::info!(game = game.as_str_name(), cards = pool.len(), %version, "catalog card pool read");
        self.pools
            .write()
            .await
            .insert(game, (version, Arc::clone(&pool)));
        Ok(pool)
    }

    async fn cached(&self, game: Game, version: &str) -> Option<Arc<Vec<Value>>> {
        let pools = self.pools.read().await;
        let (read_at, pool) = pools.get(&game)?;
        (read_at == version).then(|| Arc::clone(pool))
    }
}

fn catalog_error(status: tonic::Status) -> Error {
    Error::Catalog(status.message().to_owned())
}
