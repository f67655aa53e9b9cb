//! The catalog service's client, and [`PerCatalogVersion`]: what another service builds from a
//! whole catalog (the search index, a script card pool), kept per game until the catalog's
//! version changes.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use crate::cache::Versioned;
use crate::client::TracedChannel;
use crate::status::ServiceError;
use proto::catalog::v1 as pb;
use proto::catalog::v1::catalog_service_client::CatalogServiceClient;
use proto::game::Game;

use crate::clients::call::{CallOptions, Idempotency, call, client, rpc};

/// The catalog's answers: a batch of cards is a few MB at most; a whole game streams in many
/// messages.
pub const DEFAULT_OPTIONS: CallOptions = CallOptions {
    deadline: Duration::from_secs(30),
    max_decoding_bytes: 32 << 20,
};

client!(
    /// A client of `turnier.catalog.v1.CatalogService`. Cheap to clone.
    CatalogClient,
    CatalogServiceClient<TracedChannel>,
    DEFAULT_OPTIONS
);

impl CatalogClient {
    /// Returns the cards `refs` resolve to, in the order given, and the refs that resolve to
    /// none.
    pub async fn get_cards(
        &self,
        game: Game,
        refs: Vec<String>,
    ) -> Result<pb::GetCardsResponse, ServiceError> {
        let message = pb::GetCardsRequest {
            game: proto::game::to_wire(game),
            refs,
        };
        rpc!(self, Idempotent, message, get_cards)
    }

    /// Resolves deck-list lines (card names, set codes) to cards.
    pub async fn resolve_card_names(
        &self,
        game: Game,
        lines: Vec<String>,
    ) -> Result<Vec<pb::ResolvedName>, ServiceError> {
        let message = pb::ResolveCardNamesRequest {
            game: proto::game::to_wire(game),
            lines,
        };
        rpc!(self, Idempotent, message, resolve_card_names).map(|response| response.results)
    }

    /// Returns the game's sets, in release order.
    pub async fn list_sets(&self, game: Game) -> Result<Vec<pb::CardSet>, ServiceError> {
        let message = pb::ListSetsRequest {
            game: proto::game::to_wire(game),
        };
        rpc!(self, Idempotent, message, list_sets).map(|response| response.sets)
    }

    /// Returns the game's globals object.
    pub async fn get_globals(&self, game: Game) -> Result<pb::GetGlobalsResponse, ServiceError> {
        let message = pb::GetGlobalsRequest {
            game: proto::game::to_wire(game),
        };
        rpc!(self, Idempotent, message, get_globals)
    }

    /// Returns the version of the game's catalog: it changes whenever an import changes a card.
    pub async fn catalog_version(&self, game: Game) -> Result<String, ServiceError> {
        let message = pb::GetCatalogVersionRequest {
            game: proto::game::to_wire(game),
        };
        rpc!(self, Idempotent, message, get_catalog_version).map(|response| response.version)
    }

    /// Returns every card of the game, in catalog order, read from the card stream. Opening
    /// the stream is retried like any read; a stream that breaks halfway fails the call.
    pub async fn all_cards(&self, game: Game) -> Result<Vec<pb::Card>, ServiceError> {
        let message = pb::StreamCardsRequest {
            game: proto::game::to_wire(game),
        };
        // A whole catalog takes longer than one call's deadline on a slow disk.
        let options = self
            .options
            .with_deadline(self.options.deadline.max(Duration::from_secs(120)));
        let inner = self.inner.clone();
        let mut stream = call(options, Idempotency::Idempotent, message, move |request| {
            let mut inner = inner.clone();
            async move { inner.stream_cards(request).await }
        })
        .await?;
        let mut cards = Vec::new();
        while let Some(batch) = stream.message().await.map_err(ServiceError::from)? {
            cards.extend(batch.cards);
        }
        Ok(cards)
    }
}

/// One `T` per game, built from the game's whole catalog and kept until the catalog changes.
/// Concurrent callers after a restart or an import wait for one build
/// ([`crate::cache::Versioned`]).
#[derive(Debug)]
pub struct PerCatalogVersion<T> {
    catalog: CatalogClient,
    /// What was built for each game, for the catalog version it was built from.
    built: Versioned<Game, T>,
}

impl<T> PerCatalogVersion<T> {
    /// Reads from `catalog`.
    pub fn new(catalog: CatalogClient) -> Self {
        Self {
            catalog,
            built: Versioned::new(),
        }
    }

    /// Returns the catalog client, for calls a build needs beyond the cards.
    pub fn catalog(&self) -> &CatalogClient {
        &self.catalog
    }

    /// Returns what `build` made of every card of `game` (in catalog order) at the catalog's
    /// current version, building it first when the catalog changed since, or never was read.
    pub async fn get<E, F, Fut>(&self, game: Game, build: F) -> Result<Arc<T>, E>
    where
        E: From<ServiceError>,
        F: FnOnce(Vec<pb::Card>) -> Fut,
        Fut: Future<Output = Result<T, E>>,
    {
        let version = self.catalog.catalog_version(game).await?;
        self.built
            .get_or_build(game, &version, || async {
                let cards = self.catalog.all_cards(game).await?;
                let count = cards.len();
                let built = build(cards).await?;
                tracing::info!(%game, cards = count, %version, "built from the whole catalog");
                Ok(built)
            })
            .await
    }
}
