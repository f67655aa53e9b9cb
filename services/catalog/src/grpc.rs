//! The tonic implementation of `turnier.catalog.v1.CatalogService`: converts requests, calls the
//! store and the domain, converts back. Errors become `Status` once, in `crate::error`.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use kit::cache::Versioned;
use proto::catalog::v1::catalog_service_server::{CatalogService, CatalogServiceServer};
use proto::catalog::v1::{
    CardByRef, GetCardsRequest, GetCardsResponse, GetCatalogVersionRequest,
    GetCatalogVersionResponse, GetGlobalsRequest, GetGlobalsResponse, ListSetsRequest,
    ListSetsResponse, ResolveCardNamesRequest, ResolveCardNamesResponse, ResolvedName,
    StreamCardsRequest, StreamCardsResponse,
};
use tokio::sync::RwLock;
use tonic::{Request, Response, Status};

use crate::domain::names::NameIndex;
use crate::domain::{Card, Game};
use crate::error::Error;
use crate::store::Store;

/// The longest ref any card has, in bytes, with room to spare: a longer one is unknown.
const MAX_REF_BYTES: usize = 512;

/// The most refs one `GetCards` call may ask for.
pub const MAX_REFS: usize = 10_000;
/// The most lines one `ResolveCardNames` call may ask for.
pub const MAX_LINES: usize = 10_000;
/// Cards per `StreamCards` message.
const STREAM_BATCH: i64 = 500;

/// Parsed cards by game, for one catalog version: parsing stored JSON is most of a `GetCards`.
type CardCaches = HashMap<Game, (String, HashMap<String, Card>)>;

/// The most cards kept parsed per game; past it the cache starts over (a full Pokémon catalog
/// is ~15,000 identities, so in practice it holds everything that was ever asked for).
const CARD_CACHE_LIMIT: usize = 50_000;

/// The `CatalogService` implementation.
#[derive(Debug, Clone)]
pub struct Api {
    store: Store,
    /// Name indexes by game, for the catalog version they were built from: built once per
    /// version however many imports ask at once.
    names: Arc<Versioned<Game, NameIndex>>,
    /// Parsed cards by game and catalog version.
    cards: Arc<RwLock<CardCaches>>,
}

impl Api {
    /// Creates the service over a store.
    pub fn new(store: Store) -> Self {
        Self {
            store,
            names: Arc::default(),
            cards: Arc::default(),
        }
    }

    /// Resolves refs to their identity cards, in the order given, and lists the unknown ones.
    #[tracing::instrument(skip_all, fields(game = %game, refs = refs.len()))]
    pub async fn cards_for_refs(
        &self,
        game: Game,
        refs: &[String],
    ) -> Result<GetCardsResponse, Error> {
        if refs.len() > MAX_REFS {
            return Err(Error::TooMany {
                what: "refs",
                given: refs.len(),
                limit: MAX_REFS,
            });
        }
        let version = self.store.version(game).await?.unwrap_or_default();
        // A ref no card can have (a NUL, far too long) is unknown without a query.
        let possible: Vec<String> = refs
            .iter()
            .filter(|reference| kit::text::is_possible_key(reference, MAX_REF_BYTES))
            .cloned()
            .collect();
        let resolved = self.store.resolve_refs(game, &possible).await?;
        let ids: BTreeSet<String> = resolved.values().cloned().collect();
        let cards = self.cards_by_id(game, &version, ids).await?;
        let mut response = GetCardsResponse::default();
        let mut seen = BTreeSet::new();
        for reference in refs {
            if !seen.insert(reference.as_str()) {
                continue;
            }
            match resolved.get(reference).and_then(|id| cards.get(id)) {
                Some(card) => response.cards.push(CardByRef {
                    r#ref: reference.clone(),
                    card: Some(card.clone()),
                }),
                None => response.unknown_refs.push(reference.clone()),
            }
        }
        Ok(response)
    }

    /// Returns the cards with these ids, parsed once per catalog version.
    async fn cards_by_id(
        &self,
        game: Game,
        version: &str,
        ids: BTreeSet<String>,
    ) -> Result<HashMap<String, Card>, Error> {
        let mut found = HashMap::with_capacity(ids.len());
        let mut missing = BTreeSet::new();
        {
            let caches = self.cards.read().await;
            let cache = caches.get(&game).filter(|(cached, _)| cached == version);
            for id in ids {
                match cache.and_then(|(_, cards)| cards.get(&id)) {
                    Some(card) => {
                        found.insert(id, card.clone());
                    }
                    None => {
                        missing.insert(id);
                    }
                }
            }
        }
        if missing.is_empty() {
            return Ok(found);
        }
        let loaded = self.store.cards_by_id(game, &missing).await?;
        let mut caches = self.cards.write().await;
        let (cached_version, cache) = caches.entry(game).or_default();
        if cached_version != version || cache.len() + loaded.len() > CARD_CACHE_LIMIT {
            *cached_version = version.to_owned();
            cache.clear();
        }
        for (id, card) in loaded {
            cache.insert(id.clone(), card.clone());
            found.insert(id, card);
        }
        Ok(found)
    }

    async fn name_index(&self, game: Game) -> Result<Arc<NameIndex>, Error> {
        let version = self.store.version(game).await?.unwrap_or_default();
        self.names
            .get_or_build(game, &version, || async {
                let cards = self.store.all_cards(game).await?;
                let sets = self.store.sets(game).await?;
                Ok(NameIndex::build(game, &cards, &sets))
            })
            .await
    }

    /// Returns a game's sets, in release order.
    pub async fn sets(&self, game: Game) -> Result<Vec<proto::catalog::v1::CardSet>, Error> {
        self.store.sets(game).await
    }

    /// Resolves deck-list lines to refs, one result per line, in order.
    pub async fn resolve_names(
        &self,
        game: Game,
        lines: &[String],
    ) -> Result<ResolveCardNamesResponse, Error> {
        if lines.len() > MAX_LINES {
            return Err(Error::TooMany {
                what: "lines",
                given: lines.len(),
                limit: MAX_LINES,
            });
        }
        let index = self.name_index(game).await?;
        let results = lines
            .iter()
            .map(|line| match index.resolve(line) {
                Ok(found) => ResolvedName {
                    line: line.clone(),
                    r#ref: Some(found.reference),
                    card_id: Some(found.card_id),
                    problem: None,
                },
                Err(problem) => ResolvedName {
                    line: line.clone(),
                    problem: Some(problem.to_string()),
                    ..ResolvedName::default()
                },
            })
            .collect();
        Ok(ResolveCardNamesResponse { results })
    }

    async fn globals(&self, game: Game) -> Result<GetGlobalsResponse, Error> {
        let globals = self.store.globals(game).await?;
        let globals =
            serde_json::from_value(serde_json::Value::Object(globals)).map_err(|cause| {
                Error::CorruptCard {
                    id: "globals".to_owned(),
                    cause,
                }
            })?;
        Ok(GetGlobalsResponse {
            globals: Some(globals),
        })
    }
}

fn game(value: i32) -> Result<Game, Error> {
    proto::game::from_wire(value).ok_or(Error::MissingGame)
}

#[tonic::async_trait]
impl CatalogService for Api {
    async fn get_cards(
        &self,
        request: Request<GetCardsRequest>,
    ) -> Result<Response<GetCardsResponse>, Status> {
        let request = request.into_inner();
        Ok(Response::new(
            self.cards_for_refs(game(request.game)?, &request.refs)
                .await?,
        ))
    }

    async fn resolve_card_names(
        &self,
        request: Request<ResolveCardNamesRequest>,
    ) -> Result<Response<ResolveCardNamesResponse>, Status> {
        let request = request.into_inner();
        Ok(Response::new(
            self.resolve_names(game(request.game)?, &request.lines)
                .await?,
        ))
    }

    async fn list_sets(
        &self,
        request: Request<ListSetsRequest>,
    ) -> Result<Response<ListSetsResponse>, Status> {
        let sets = self.store.sets(game(request.into_inner().game)?).await?;
        Ok(Response::new(ListSetsResponse { sets }))
    }

    async fn get_globals(
        &self,
        request: Request<GetGlobalsRequest>,
    ) -> Result<Response<GetGlobalsResponse>, Status> {
        Ok(Response::new(
            self.globals(game(request.into_inner().game)?).await?,
        ))
    }

    type StreamCardsStream =
        tokio_stream::wrappers::ReceiverStream<Result<StreamCardsResponse, Status>>;

    async fn stream_cards(
        &self,
        request: Request<StreamCardsRequest>,
    ) -> Result<Response<Self::StreamCardsStream>, Status> {
        let game = game(request.into_inner().game)?;
        let (sender, receiver) = tokio::sync::mpsc::channel(4);
        let store = self.store.clone();
        tokio::spawn(async move {
            let mut after = -1;
            loop {
                let page = match store.cards_after(game, after, STREAM_BATCH).await {
                    Ok(page) => page,
                    Err(err) => {
                        let _ = sender.send(Err(err.into())).await;
                        return;
                    }
                };
                let Some((last, _)) = page.last() else { return };
                after = *last;
                let cards = page.into_iter().map(|(_, card)| card).collect();
                if sender
                    .send(Ok(StreamCardsResponse { cards }))
                    .await
                    .is_err()
                {
                    return; // The caller went away.
                }
            }
        });
        Ok(Response::new(tokio_stream::wrappers::ReceiverStream::new(
            receiver,
        )))
    }

    async fn get_catalog_version(
        &self,
        request: Request<GetCatalogVersionRequest>,
    ) -> Result<Response<GetCatalogVersionResponse>, Status> {
        let version = self
            .store
            .version(game(request.into_inner().game)?)
            .await
            .map_err(Status::from)?
            .unwrap_or_default();
        Ok(Response::new(GetCatalogVersionResponse { version }))
    }
}

/// Returns the tonic server for this service.
pub fn server(api: Api) -> CatalogServiceServer<Api> {
    CatalogServiceServer::new(api)
}
