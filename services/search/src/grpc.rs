//! The tonic implementation of `turnier.search.v1.SearchService`: one index per game, built
//! from the catalog service's card stream and rebuilt when the catalog version changes.

use std::sync::Arc;
use std::time::Duration;

use kit::clients::CatalogClient;
use kit::clients::catalog::PerCatalogVersion;
use kit::server::ReadinessHold;
use proto::game::Game;
use proto::search::v1 as pb;
use proto::search::v1::search_service_server::{SearchService, SearchServiceServer};
use tonic::{Request, Response, Status};

use crate::domain::index::Index;
use crate::error::Error;

/// How long the warm-up waits for the catalog before the service reports SERVING anyway.
const WARM_UP_PATIENCE: Duration = Duration::from_secs(60);
/// The pause between warm-up attempts while the catalog does not answer.
const RETRY_PAUSE: Duration = Duration::from_secs(1);
/// How often a warm service checks the catalog's version (one small call per game).
const REFRESH_PAUSE: Duration = Duration::from_secs(10);

/// The `SearchService` implementation.
#[derive(Debug, Clone)]
pub struct Api {
    /// The index of each game, built for the catalog's current version.
    indexes: Arc<PerCatalogVersion<Index>>,
}

impl Api {
    /// Creates the service; it reads cards from `catalog`.
    pub fn new(catalog: CatalogClient) -> Self {
        Self {
            indexes: Arc::new(PerCatalogVersion::new(catalog)),
        }
    }

    /// Returns the index of `game` for the catalog's current version, building it if needed.
    #[tracing::instrument(skip(self))]
    pub async fn index(&self, game: Game) -> Result<Arc<Index>, Error> {
        let catalog = self.indexes.catalog().clone();
        self.indexes
            .get(game, |cards| async move {
                let sets = catalog.list_sets(game).await?;
                Ok(tokio::task::spawn_blocking(move || Index::new(game, cards, &sets)).await?)
            })
            .await
    }

    /// Builds every game's index, then releases `ready` (the service reports SERVING from
    /// then on), then keeps each index built for the catalog's current version: after an
    /// import, the first search does not pay for the rebuild. Runs until the process ends.
    pub async fn keep_warm(self, ready: ReadinessHold) {
        let mut ready = Some(ready);
        let started = std::time::Instant::now();
        loop {
            let mut built = 0;
            for game in Game::ALL {
                match self.index(game).await {
                    Ok(_) => built += 1,
                    Err(err) => tracing::warn!(%game, error = %err, "cannot build the index yet"),
                }
            }
            // Ready once every index is built, or after a minute without the catalog: then
            // searches build their index on first use, as they would without a warm-up.
            let done = built == Game::ALL.len() || started.elapsed() >= WARM_UP_PATIENCE;
            if done && let Some(hold) = ready.take() {
                let elapsed_ms = started.elapsed().as_millis() as u64;
                tracing::info!(
                    built,
                    elapsed_ms,
                    "search indexes warm: the service is ready"
                );
                drop(hold);
            }
            let pause = if ready.is_some() {
                RETRY_PAUSE
            } else {
                REFRESH_PAUSE
            };
            tokio::time::sleep(pause).await;
        }
    }

    /// Runs a search request.
    #[tracing::instrument(skip_all, fields(game = request.game, query_chars = request.query.chars().count()))]
    pub async fn search(&self, request: pb::SearchRequest) -> Result<pb::SearchResponse, Error> {
        let game = proto::game::from_wire(request.game).ok_or(Error::MissingGame)?;
        let index = self.index(game).await?;
        // Queries take up to a few milliseconds (a regex over every rules text): off the runtime.
        tokio::task::spawn_blocking(move || {
            let page_size = usize::try_from(request.page_size.max(0)).unwrap_or(0);
            let results = index.search(&request.query, page_size, &request.page_token)?;
            Ok(pb::SearchResponse {
                cards: results
                    .cards
                    .iter()
                    .map(|hit| pb::SearchHit {
                        card: Some(hit.card.clone()),
                        printing_id: hit.printing.map(|printing| printing.id.clone()),
                    })
                    .collect(),
                total_size: i32::try_from(results.total).unwrap_or(i32::MAX),
                warnings: results.warnings,
                next_page_token: results.next_page_token.unwrap_or_default(),
            })
        })
        .await?
    }

    /// Explains a query.
    pub async fn explain(
        &self,
        request: pb::ExplainQueryRequest,
    ) -> Result<pb::ExplainQueryResponse, Error> {
        let game = proto::game::from_wire(request.game).ok_or(Error::MissingGame)?;
        let index = self.index(game).await?;
        let explanation = index
            .explain(&request.query)
            .map_err(|err| Error::Search(err.into()))?;
        let explanation_json = serde_json::to_string(&explanation)?;
        Ok(pb::ExplainQueryResponse { explanation_json })
    }
}

#[tonic::async_trait]
impl SearchService for Api {
    async fn search(
        &self,
        request: Request<pb::SearchRequest>,
    ) -> Result<Response<pb::SearchResponse>, Status> {
        Ok(Response::new(
            Api::search(self, request.into_inner()).await?,
        ))
    }

    async fn explain_query(
        &self,
        request: Request<pb::ExplainQueryRequest>,
    ) -> Result<Response<pb::ExplainQueryResponse>, Status> {
        Ok(Response::new(self.explain(request.into_inner()).await?))
    }
}

/// Returns the tonic server for this service.
pub fn server(api: Api) -> SearchServiceServer<Api> {
    SearchServiceServer::new(api)
}
