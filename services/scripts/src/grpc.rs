//! The tonic implementation of `turnier.scripts.v1.ScriptService`: parses the JSON arguments,
//! hands the run to [`Runner`] on a blocking thread, converts the normalized result back.
//! Errors become `Status` once, in `crate::error`.

use std::sync::Arc;

use proto::scripts::v1 as pb;
use proto::scripts::v1::script_service_server::{ScriptService, ScriptServiceServer};
use serde_json::Value;
use tokio::sync::{OnceCell, Semaphore};
use tonic::{Request, Response, Status};

use crate::catalog_pool::{CardPool, CatalogPools};
use crate::domain::safety::SafetyIssue;
use crate::error::Error;
use crate::runner::{Runner, ScriptRef, TimeLimits, Verdict};
use crate::sandbox::Limits;

/// The `ScriptService` implementation. The sandbox is created on first use (or by
/// [`Api::warm_up`]), off the async threads: pre-initializing the plugin takes about a second.
/// At most `concurrency` runs hold a sandbox instance at once; further requests wait for one.
#[derive(Debug, Clone)]
pub struct Api {
    runner: Arc<OnceCell<Runner>>,
    limits: Limits,
    turns: Arc<Semaphore>,
    turns_total: usize,
    /// Where card pools over a whole catalog come from; without it only given cards run.
    catalog: Option<CatalogPools>,
}

impl Api {
    /// Creates the service: `concurrency` runs at once, each with `memory_mib` of memory.
    pub fn new(settings: crate::Settings) -> Self {
        let concurrency = settings.concurrency.max(1);
        let limits = Limits {
            instances: concurrency,
            memory_bytes: usize::try_from(settings.memory_mib)
                .unwrap_or(usize::MAX)
                .saturating_mul(1 << 20),
            ..Limits::default()
        };
        let turns_total = usize::try_from(concurrency).unwrap_or(usize::MAX);
        Self {
            runner: Arc::default(),
            limits,
            turns: Arc::new(Semaphore::new(turns_total)),
            turns_total,
            catalog: None,
        }
    }

    /// Lets `FilterCardPool` run over a game's whole catalog, read through `pools`.
    pub fn with_catalog(mut self, pools: CatalogPools) -> Self {
        self.catalog = Some(pools);
        self
    }

    /// The pool a `FilterCardPool` request names: its cards, or its game's whole catalog.
    async fn card_pool(&self, cards_json: &str, game: i32) -> Result<Arc<CardPool>, Error> {
        // 0 is GAME_UNSPECIFIED: no game given.
        let game = match game {
            0 => None,
            value => Some(
                proto::game::from_wire(value).ok_or_else(|| Error::BadField {
                    field: "game",
                    reason: format!("{value} is not a game"),
                })?,
            ),
        };
        let given = !cards_json.trim().is_empty();
        match (given, game) {
            (true, None) => {
                let pool = CardPool::from_json(cards_json).ok_or_else(|| Error::BadField {
                    field: "cards_json",
                    reason: "must be a JSON array of card objects".to_owned(),
                })?;
                Ok(Arc::new(pool))
            }
            (true, Some(_)) => Err(Error::BadField {
                field: "game",
                reason:
                    "give the cards in `cards_json` or a game whose whole catalog is the pool, \
                         not both"
                        .to_owned(),
            }),
            (false, None) => Err(Error::BadField {
                field: "cards_json",
                reason: "must be a JSON array of card objects, or leave it empty and set `game` \
                         to run over the game's whole catalog"
                    .to_owned(),
            }),
            (false, Some(game)) => match &self.catalog {
                Some(pools) => pools.pool(game).await,
                None => Err(Error::NoCatalog),
            },
        }
    }

    /// Creates the sandbox now, so the first request does not wait for it.
    pub async fn warm_up(&self) -> Result<(), Error> {
        self.runner().await.map(|_| ())
    }

    async fn runner(&self) -> Result<Runner, Error> {
        let limits = self.limits.clone();
        self.runner
            .get_or_try_init(|| async {
                tokio::task::spawn_blocking(move || {
                    Runner::new(limits, TimeLimits::default())
                        .map_err(|err| Error::Sandbox(err.to_string()))
                })
                .await
                .map_err(|err| Error::Sandbox(err.to_string()))?
            })
            .await
            .cloned()
    }

    /// Runs `work` with the runner on a blocking thread, once it has a turn.
    async fn blocking<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Runner) -> Result<T, Error> + Send + 'static,
    ) -> Result<T, Error> {
        self.blocking_with(1, work).await
    }

    /// Runs `work`, which uses up to `turns` sandbox instances at once, on a blocking thread.
    async fn blocking_with<T: Send + 'static>(
        &self,
        turns: usize,
        work: impl FnOnce(&Runner) -> Result<T, Error> + Send + 'static,
    ) -> Result<T, Error> {
        let runner = self.runner().await?;
        let turns = u32::try_from(turns.clamp(1, self.turns_total)).unwrap_or(1);
        let turn = Arc::clone(&self.turns)
            .acquire_many_owned(turns)
            .await
            .map_err(|err| Error::Sandbox(err.to_string()))?;
        tokio::task::spawn_blocking(move || {
            let answer = work(&runner);
            drop(turn);
            answer
        })
        .await
        .map_err(|err| Error::Sandbox(err.to_string()))?
    }

    #[tracing::instrument(skip_all, fields(source_bytes = request.source.len()))]
    async fn check(
        &self,
        request: pb::CheckScriptRequest,
    ) -> Result<pb::CheckScriptResponse, Error> {
        let checked = self
            .blocking(move |runner| Ok(runner.check(&request.source)))
            .await?;
        Ok(pb::CheckScriptResponse {
            safe: checked.report.safe,
            issues: checked
                .report
                .issues
                .iter()
                .map(pb::SafetyIssue::from)
                .collect(),
            hash: checked.hash,
        })
    }
}

impl From<&SafetyIssue> for pb::SafetyIssue {
    fn from(issue: &SafetyIssue) -> Self {
        pb::SafetyIssue {
            code: issue.code.as_str().to_owned(),
            message: issue.message.clone(),
            line: issue.line,
            column: issue.column,
        }
    }
}

/// Reads the script reference of a request.
fn script(script: Option<pb::Script>) -> Result<ScriptRef, Error> {
    match script.and_then(|script| script.script) {
        Some(pb::script::Script::Source(source)) => Ok(ScriptRef::Source(source)),
        Some(pb::script::Script::Hash(hash)) => Ok(ScriptRef::Hash(hash)),
        None => Err(Error::BadField {
            field: "script",
            reason: "give the script's `source` or its `hash`".to_owned(),
        }),
    }
}

/// Parses a required JSON argument.
fn json(field: &'static str, text: &str) -> Result<Value, Error> {
    serde_json::from_str(text).map_err(|err| Error::BadField {
        field,
        reason: format!("not JSON: {err}"),
    })
}

/// Parses the optional context.
fn context(text: Option<&str>) -> Result<Option<Value>, Error> {
    text.map(|text| json("context_json", text)).transpose()
}

#[tonic::async_trait]
impl ScriptService for Api {
    async fn check_script(
        &self,
        request: Request<pb::CheckScriptRequest>,
    ) -> Result<Response<pb::CheckScriptResponse>, Status> {
        Ok(Response::new(self.check(request.into_inner()).await?))
    }

    async fn run_card_rule(
        &self,
        request: Request<pb::RunCardRuleRequest>,
    ) -> Result<Response<pb::RuleRunResponse>, Status> {
        let request = request.into_inner();
        let script = script(request.script)?;
        let card = json("card_json", &request.card_json)?;
        let context = context(request.context_json.as_deref())?;
        let result = self
            .blocking(move |runner| Ok(runner.card_rule(&script, card, context)?))
            .await?;
        Ok(Response::new(pb::RuleRunResponse {
            result: Some(result),
        }))
    }

    async fn filter_card_pool(
        &self,
        request: Request<pb::FilterCardPoolRequest>,
    ) -> Result<Response<pb::FilterCardPoolResponse>, Status> {
        let request = request.into_inner();
        let script = script(request.script)?;
        let context = context(request.context_json.as_deref())?;
        let pool = self.card_pool(&request.cards_json, request.game).await?;
        let cards = Arc::clone(&pool);
        let verdicts = self
            .blocking_with(Runner::pool_workers(), move |runner| {
                Ok(runner.card_pool(&script, &cards.cards, context)?)
            })
            .await?;
        Ok(Response::new(pb::FilterCardPoolResponse {
            verdicts: verdicts
                .into_iter()
                .zip(pool.ids.iter())
                .map(|(verdict, card_id)| {
                    let card_id = card_id.clone();
                    match verdict {
                        Verdict::Result(result) => pb::CardVerdict {
                            result: Some(result),
                            error: None,
                            card_id,
                        },
                        Verdict::Threw(message) => pb::CardVerdict {
                            result: None,
                            error: Some(message),
                            card_id,
                        },
                    }
                })
                .collect(),
        }))
    }

    async fn run_deck_rule(
        &self,
        request: Request<pb::RunDeckRuleRequest>,
    ) -> Result<Response<pb::RuleRunResponse>, Status> {
        let request = request.into_inner();
        let script = script(request.script)?;
        let deck = json("deck_json", &request.deck_json)?;
        let cards = json("cards_by_id_json", &request.cards_by_id_json)?;
        let context = context(request.context_json.as_deref())?;
        let result = self
            .blocking(move |runner| Ok(runner.deck_rule(&script, deck, cards, context)?))
            .await?;
        Ok(Response::new(pb::RuleRunResponse {
            result: Some(result),
        }))
    }

    async fn run_deckset_rule(
        &self,
        request: Request<pb::RunDecksetRuleRequest>,
    ) -> Result<Response<pb::RuleRunResponse>, Status> {
        let request = request.into_inner();
        let script = script(request.script)?;
        let decks = json("decks_json", &request.decks_json)?;
        let cards = json("cards_by_id_json", &request.cards_by_id_json)?;
        let context = context(request.context_json.as_deref())?;
        let result = self
            .blocking(move |runner| Ok(runner.deckset_rule(&script, decks, cards, context)?))
            .await?;
        Ok(Response::new(pb::RuleRunResponse {
            result: Some(result),
        }))
    }

    async fn resolve_pool_filters(
        &self,
        request: Request<pb::ResolvePoolFiltersRequest>,
    ) -> Result<Response<pb::ResolvePoolFiltersResponse>, Status> {
        let request = request.into_inner();
        let script = script(request.script)?;
        let game = proto::game::from_wire(request.game).ok_or(Error::BadField {
            field: "game",
            reason: "must be GAME_LOR, GAME_POKEMON or GAME_RIFTBOUND".to_owned(),
        })?;
        let input = json("input_json", &request.input_json)?;
        let context = context(request.context_json.as_deref())?;
        let patch = self
            .blocking(move |runner| Ok(runner.pool_filters(&script, game, input, context)?))
            .await?;
        Ok(Response::new(pb::ResolvePoolFiltersResponse { patch }))
    }

    async fn run_calculator(
        &self,
        request: Request<pb::RunCalculatorRequest>,
    ) -> Result<Response<pb::RunCalculatorResponse>, Status> {
        let request = request.into_inner();
        let script = script(request.script)?;
        let pile = json("pile_json", &request.pile_json)?;
        let cards = json("cards_by_id_json", &request.cards_by_id_json)?;
        let context = context(request.context_json.as_deref())?;
        let dashboard = self
            .blocking(move |runner| Ok(runner.calculator(&script, pile, cards, context)?))
            .await?;
        Ok(Response::new(pb::RunCalculatorResponse {
            dashboard: Some(dashboard),
        }))
    }
}

/// Returns the tonic server for this service.
///
/// Requests may be as large as a whole catalog sent as a card pool (~25 MB for Pokémon), past
/// tonic's default of 4 MiB.
pub fn server(api: Api) -> ScriptServiceServer<Api> {
    ScriptServiceServer::new(api).max_decoding_message_size(MAX_REQUEST_BYTES)
}

/// The largest request the service reads.
pub const MAX_REQUEST_BYTES: usize = 64 << 20;
