//! The catalog service as a [`CardLookup`]: how the decks service finds cards, over gRPC.

use proto::catalog::v1::catalog_service_client::CatalogServiceClient;
use proto::catalog::v1::{
    Card, CardSet, GetCardsRequest, ListSetsRequest, ResolveCardNamesRequest, ResolvedName,
};

use crate::domain::lists::Game;
use crate::import::{CardLookup, LookupError};

/// A client of the catalog service; calls carry the caller's trace context.
#[derive(Debug, Clone)]
pub struct CatalogClient {
    client: CatalogServiceClient<kit::client::TracedChannel>,
}

impl CatalogClient {
    /// Connects lazily to the catalog at `url`.
    pub fn new(url: &str) -> Result<Self, kit::client::ClientError> {
        Ok(Self {
            client: CatalogServiceClient::new(kit::client::traced_channel(url)?),
        })
    }
}

impl CardLookup for CatalogClient {
    async fn cards_by_ref(
        &self,
        game: Game,
        refs: Vec<String>,
    ) -> Result<Vec<(String, Card)>, LookupError> {
        let response = self
            .client
            .clone()
            .get_cards(GetCardsRequest {
                game: game.to_proto() as i32,
                refs,
            })
            .await
            .map_err(|status| LookupError(status.message().to_owned()))?;
        Ok(response
            .into_inner()
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
            .client
            .clone()
            .resolve_card_names(ResolveCardNamesRequest {
                game: game.to_proto() as i32,
                lines,
            })
            .await
            .map_err(|status| LookupError(status.message().to_owned()))?;
        Ok(response.into_inner().results)
    }

    async fn sets(&self, game: Game) -> Result<Vec<CardSet>, LookupError> {
        let response = self
            .client
            .clone()
            .list_sets(ListSetsRequest {
                game: game.to_proto() as i32,
            })
            .await
            .map_err(|status| LookupError(status.message().to_owned()))?;
        Ok(response.into_inner().sets)
    }
}
