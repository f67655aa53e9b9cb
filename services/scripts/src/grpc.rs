//! The tonic implementation of `turnier.scripts.v1.ScriptService`: parses the JSON arguments,
//! admits the run fairly ([`Slots`]), hands it to [`Runner`] on a blocking thread, converts the
//! normalized result back. Errors become `Status` once, in `crate::error`.
//!
//! A run ends with its request: when tonic drops the handler (the client went away, or the
//! request's `grpc-timeout` passed), the run is cancelled within a tick; when the server's
//! shutdown grace is over, [`Api::halt`] stops every run.

use std::sync::Arc;
use std::time::{Duration, Instant};

use kit::caller::CallerKey;
use proto::scripts::v1 as pb;
use proto::scripts::v1::script_service_server::{ScriptService, ScriptServiceServer};
use serde_json::Value;
use tokio::sync::OnceCell;
use tonic::{Request, Response, Status};

use crate::catalog_pool::{CardPool, CatalogPools};
use crate::domain::direct_bans::DirectBans;
use crate::domain::safety::SafetyIssue;
use crate::error::Error;
use crate::runner::{RunFailure, Runner, ScriptRef, TimeLimits, Verdict};
use crate::sandbox::{Cancel, Limits};
use crate::slots::Slots;
use kit::auth::Caller;
use proto::game::Game;

/// The time a request keeps, of its deadline, to hear that it got no slot: it stops waiting
/// this long before its caller would give up, so the caller reads `busy`, not a timeout.
const ANSWER_MARGIN: Duration = Duration::from_millis(100);

/// The `ScriptService` implementation. The sandbox is created on first use (or by
/// [`Api::warm_up`]), off the async threads: pre-initializing the plugin takes about a second.
/// At most `concurrency` runs hold a sandbox instance at once, shared fairly between callers
/// (`crate::domain::admission`); a request that finds no slot waits briefly, or is told the
/// sandbox is busy.
#[derive(Debug, Clone)]
pub struct Api {
    runner: Arc<OnceCell<Runner>>,
    limits: Limits,
    slots: Slots,
    /// The longest a request waits for a slot.
    queue_wait: Duration,
    /// Set by [`Api::halt`]: no run starts any more.
    halt: Cancel,
    /// Where card pools over a whole catalog come from; without it only given cards run.
    catalog: Option<CatalogPools>,
    /// The rulesets, when the process keeps them (a database).
    rulesets: Option<crate::rulesets::Rulesets>,
}

/// A rule to run: its script, and the cards it bans on top of it (a card rule's direct bans).
#[derive(Debug, Clone)]
struct Rule {
    script: ScriptRef,
    direct_bans: DirectBans,
}

/// What admission needs to know about a request besides its message.
#[derive(Debug, Clone)]
struct Call {
    /// Whose share the run counts against.
    caller: CallerKey,
    /// When the caller stops waiting (its `grpc-timeout`), if it said.
    deadline: Option<Instant>,
}

impl Call {
    fn of<T>(request: &Request<T>) -> Self {
        Self {
            caller: kit::caller::key(request),
            deadline: kit::caller::timeout(request)
                .and_then(|timeout| Instant::now().checked_add(timeout)),
        }
    }
}

impl Api {
    /// Creates the service: `concurrency` runs at once, each with `memory_mib` of memory,
    /// shared between callers as the settings say.
    pub fn new(settings: crate::Settings) -> Self {
        let concurrency = settings.concurrency.max(1);
        let limits = Limits {
            instances: concurrency,
            memory_bytes: usize::try_from(settings.memory_mib)
                .unwrap_or(usize::MAX)
                .saturating_mul(1 << 20),
            compile_cache: settings.compile_cache(),
            ..Limits::default()
        };
        Self {
            runner: Arc::default(),
            limits,
            slots: Slots::new(settings.admission()),
            queue_wait: Duration::from_millis(settings.queue_wait_ms),
            halt: Cancel::new(),
            catalog: None,
            rulesets: None,
        }
    }

    /// Serves the rulesets RPCs over `rulesets`; without, they answer UNAVAILABLE.
    #[must_use]
    pub fn with_rulesets(mut self, rulesets: crate::rulesets::Rulesets) -> Self {
        self.rulesets = Some(rulesets);
        self
    }

    /// Reads the script reference of a request: a ruleset by id is a built-in rule, or a stored
    /// ruleset the caller may see (the ownership rule), at the version asked for.
    async fn script(&self, caller: &Caller, given: Option<pb::Script>) -> Result<ScriptRef, Error> {
        self.rule(caller, given).await.map(|rule| rule.script)
    }

    /// Reads the script reference of a card rule's request: the script, and the direct bans of
    /// a ruleset run by reference (a source or a hash has none).
    async fn rule(&self, caller: &Caller, given: Option<pb::Script>) -> Result<Rule, Error> {
        match (given, &self.rulesets) {
            (
                Some(pb::Script {
                    script: Some(pb::script::Script::Ruleset(reference)),
                }),
                Some(rulesets),
            ) => {
                let code = rulesets
                    .code(caller, &reference.id, reference.version)
                    .await?;
                Ok(Rule {
                    script: ScriptRef::Source(code.source),
                    direct_bans: code.direct_bans,
                })
            }
            (given, _) => Ok(Rule {
                script: script(given)?,
                direct_bans: DirectBans::default(),
            }),
        }
    }

    fn rulesets(&self) -> Result<&crate::rulesets::Rulesets, Error> {
        self.rulesets
            .as_ref()
            .ok_or_else(|| Error::Sandbox("this server keeps no rulesets".to_owned()))
    }

    /// Stops every run in flight within a tick, and every later request before it runs, as
    /// `UNAVAILABLE` `shutting_down`: what the server does when its shutdown grace is over.
    pub fn halt(&self) {
        self.halt.cancel();
        if let Some(runner) = self.runner.get() {
            runner.halt();
        }
    }

    /// Returns the sandbox slots held right now (also the `turnier_script_slots_held` gauge).
    pub fn slots_held(&self) -> usize {
        self.slots.held()
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

    /// Resolves everything a whole-deck check runs: the shape checked, every rule's script
    /// (the ownership rule for rulesets by reference), the counted cards from the catalog.
    async fn deck_plan(
        &self,
        caller: &Caller,
        game: Game,
        request: pb::ValidateDeckRequest,
    ) -> Result<crate::deck_check::Plan, Error> {
        use crate::domain::deck_check::{self, Pile};

        if request.deck_rule.is_some() && request.deckset_rule.is_some() {
            return Err(Error::BadField {
                field: "deckset_rule",
                reason: "give a whole-deck rule (the piles are one deck) or a deck set rule (each \
                         pile is a deck), not both"
                    .to_owned(),
            });
        }
        let mut piles = Vec::with_capacity(request.piles.len());
        let mut zone_rules = Vec::with_capacity(request.piles.len());
        let shape: Vec<(String, Vec<(String, u32)>)> = request
            .piles
            .iter()
            .map(|pile| {
                let cards = pile
                    .cards
                    .iter()
                    .map(|c| (c.r#ref.clone(), c.count))
                    .collect();
                (pile.name.clone(), cards)
            })
            .collect();
        deck_check::check_shape(
            shape
                .iter()
                .map(|(name, cards)| (name.as_str(), cards.as_slice())),
        )
        .map_err(|err| Error::BadField {
            field: "piles",
            reason: err.to_string(),
        })?;
        for (pile, (name, cards)) in request.piles.into_iter().zip(shape) {
            let role = pb::PileRole::try_from(pile.role).map_err(|_| Error::BadField {
                field: "piles.role",
                reason: format!("{} is not a pile role", pile.role),
            })?;
            let zone_rule = match pile.zone_rule {
                Some(script) => Some(self.script(caller, Some(script)).await?),
                None => None,
            };
            zone_rules.push(zone_rule);
            piles.push(Pile::new(name, role, cards));
        }
        let card_rule = match request.card_rule {
            Some(script) => {
                let rule = self.rule(caller, Some(script)).await?;
                Some(crate::deck_check::CardRule {
                    script: rule.script,
                    direct_bans: rule.direct_bans,
                })
            }
            None => None,
        };
        let deck_rule = match request.deck_rule {
            Some(script) => Some(self.script(caller, Some(script)).await?),
            None => None,
        };
        let deckset_rule = match request.deckset_rule {
            Some(script) => Some(self.script(caller, Some(script)).await?),
            None => None,
        };
        let refs = deck_check::counted_refs(&piles);
        let mut found = std::collections::HashMap::new();
        if !refs.is_empty() {
            let pools = self.catalog.as_ref().ok_or(Error::NoCatalog)?;
            for entry in pools.cards(game, refs.clone()).await?.cards {
                if let Some(card) = entry.card {
                    found.insert(
                        entry.r#ref,
                        serde_json::to_value(&card).map_err(Error::CardJson)?,
                    );
                }
            }
        }
        let cards = refs
            .into_iter()
            .map(|reference| {
                let card = found.get(&reference).cloned();
                (reference, card)
            })
            .collect();
        Ok(crate::deck_check::Plan {
            game: game.name(),
            piles,
            zone_rules,
            card_rule,
            deck_rule,
            deckset_rule,
            cards,
            context: context(request.context_json.as_deref())?,
        })
    }

    /// Creates the sandbox now, so the first request does not wait for it.
    pub async fn warm_up(&self) -> Result<(), Error> {
        self.runner().await.map(|_| ())
    }

    async fn runner(&self) -> Result<Runner, Error> {
        let limits = self.limits.clone();
        let runner = self
            .runner
            .get_or_try_init(|| async {
                tokio::task::spawn_blocking(move || {
                    Runner::new(limits, TimeLimits::default())
                        .map_err(|err| Error::Sandbox(err.to_string()))
                })
                .await
                .map_err(|err| Error::Sandbox(err.to_string()))?
            })
            .await
            .cloned()?;
        // A halt that came while the sandbox was being created applies to it too.
        if self.halt.is_cancelled() {
            runner.halt();
        }
        Ok(runner)
    }

    /// Runs `work` with the runner on a blocking thread, once `call` has a slot.
    async fn blocking<T: Send + 'static>(
        &self,
        call: Call,
        work: impl FnOnce(&Runner) -> Result<T, Error> + Send + 'static,
    ) -> Result<T, Error> {
        self.blocking_with(call, 1, work).await
    }

    /// Runs `work`, which may use up to `wanted` sandbox instances at once (as many as it is
    /// given slots for: the runner says how many), on a blocking thread.
    ///
    /// Waiting for the slots comes out of the request's own time (bounded by
    /// [`Api::queue_wait`]); the script's time limit starts with its run. The run is cancelled
    /// when this future is dropped, and its slots stay taken until it has stopped.
    async fn blocking_with<T: Send + 'static>(
        &self,
        call: Call,
        wanted: usize,
        work: impl FnOnce(&Runner) -> Result<T, Error> + Send + 'static,
    ) -> Result<T, Error> {
        if self.halt.is_cancelled() {
            return Err(RunFailure::ShuttingDown.into());
        }
        let runner = self.runner().await?;
        let wait = self.queue_wait(&call);
        let permit = self
            .slots
            .acquire(call.caller.clone(), wanted, wait)
            .await
            .map_err(|busy| {
                tracing::info!(caller = %call.caller, reason = busy.metric_reason(), "sandbox busy");
                Error::Busy(busy)
            })?;
        let cancel = Cancel::new();
        // Dropped with this future, which tonic drops when the client goes away or the
        // request's deadline passes: the run stops at its next tick.
        let _cancel_when_dropped = cancel.on_drop();
        let runner = runner.with_cancel(cancel).with_pool_workers(permit.slots());
        tokio::task::spawn_blocking(move || {
            let answer = work(&runner);
            drop(permit);
            answer
        })
        .await
        .map_err(|err| Error::Sandbox(err.to_string()))?
    }

    /// How long `call` may wait for a slot: the configured wait, less when its caller's
    /// deadline is nearer (keeping [`ANSWER_MARGIN`] to answer).
    fn queue_wait(&self, call: &Call) -> Duration {
        match call.deadline {
            Some(deadline) => self.queue_wait.min(
                deadline
                    .saturating_duration_since(Instant::now())
                    .saturating_sub(ANSWER_MARGIN),
            ),
            None => self.queue_wait,
        }
    }

    #[tracing::instrument(skip_all, fields(source_bytes = request.source.len()))]
    async fn check(
        &self,
        call: Call,
        request: pb::CheckScriptRequest,
    ) -> Result<pb::CheckScriptResponse, Error> {
        let checked = self
            .blocking(call, move |runner| Ok(runner.check(&request.source)?))
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

/// Reads the script reference of a request (a ruleset by id as a built-in only).
fn script(script: Option<pb::Script>) -> Result<ScriptRef, Error> {
    match script.and_then(|script| script.script) {
        Some(pb::script::Script::Source(source)) => Ok(ScriptRef::Source(source)),
        Some(pb::script::Script::Hash(hash)) => Ok(ScriptRef::Hash(hash)),
        Some(pb::script::Script::Ruleset(reference)) => ruleset(&reference),
        None => Err(Error::BadField {
            field: "script",
            reason: "give the script's `source`, its `hash` or a `ruleset`".to_owned(),
        }),
    }
}

/// Reads a ruleset by reference on a server that keeps no rulesets: a built-in rule at its one
/// version (a server with a store resolves stored ones too, in `Api::script`).
fn ruleset(reference: &pb::RulesetRef) -> Result<ScriptRef, Error> {
    let not_found = || Error::RulesetNotFound {
        id: reference.id.clone(),
        version: reference.version,
    };
    let rule = crate::builtin::get(&reference.id).ok_or_else(not_found)?;
    if reference.version.is_some_and(|version| version != 1) {
        return Err(not_found());
    }
    Ok(ScriptRef::Source(rule.source.to_owned()))
}

/// The answer of every RPC that returns one ruleset.
fn one(ruleset: pb::Ruleset) -> Response<pb::RulesetResponse> {
    Response::new(pb::RulesetResponse {
        ruleset: Some(ruleset),
    })
}

/// Reads a request's required game.
pub(crate) fn game(value: i32) -> Result<Game, Error> {
    proto::game::from_wire(value).ok_or(Error::BadField {
        field: "game",
        reason: "must be GAME_LOR, GAME_POKEMON or GAME_RIFTBOUND".to_owned(),
    })
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
        let call = Call::of(&request);
        Ok(Response::new(self.check(call, request.into_inner()).await?))
    }

    async fn run_card_rule(
        &self,
        request: Request<pb::RunCardRuleRequest>,
    ) -> Result<Response<pb::RuleRunResponse>, Status> {
        let call = Call::of(&request);
        let caller = Caller::of(&request);
        let request = request.into_inner();
        let rule = self.rule(&caller, request.script).await?;
        let card = json("card_json", &request.card_json)?;
        let banned = rule.direct_bans.bans_card(&card);
        let context = context(request.context_json.as_deref())?;
        let result = self
            .blocking(call, move |runner| {
                Ok(runner.card_rule(&rule.script, card, context)?)
            })
            .await?;
        Ok(Response::new(pb::RuleRunResponse {
            result: Some(DirectBans::apply(result, banned)),
        }))
    }

    async fn filter_card_pool(
        &self,
        request: Request<pb::FilterCardPoolRequest>,
    ) -> Result<Response<pb::FilterCardPoolResponse>, Status> {
        let call = Call::of(&request);
        let caller = Caller::of(&request);
        let request = request.into_inner();
        let Rule {
            script,
            direct_bans,
        } = self.rule(&caller, request.script).await?;
        let context = context(request.context_json.as_deref())?;
        let pool = self.card_pool(&request.cards_json, request.game).await?;
        let cards = Arc::clone(&pool);
        let verdicts = self
            .blocking_with(call, Runner::pool_workers(), move |runner| {
                Ok(runner.card_pool(&script, &cards.cards, context)?)
            })
            .await?;
        Ok(Response::new(pb::FilterCardPoolResponse {
            verdicts: verdicts
                .into_iter()
                .enumerate()
                .map(|(at, verdict)| {
                    let card_id = pool.ids[at].clone();
                    match verdict {
                        Verdict::Result(result) => pb::CardVerdict {
                            result: Some(DirectBans::apply(
                                result,
                                direct_bans.bans(pool.refs(at)),
                            )),
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
        let call = Call::of(&request);
        let caller = Caller::of(&request);
        let request = request.into_inner();
        let script = self.script(&caller, request.script).await?;
        let deck = json("deck_json", &request.deck_json)?;
        let cards = json("cards_by_id_json", &request.cards_by_id_json)?;
        let context = context(request.context_json.as_deref())?;
        let result = self
            .blocking(call, move |runner| {
                Ok(runner.deck_rule(&script, deck, cards, context)?)
            })
            .await?;
        Ok(Response::new(pb::RuleRunResponse {
            result: Some(result),
        }))
    }

    async fn run_deckset_rule(
        &self,
        request: Request<pb::RunDecksetRuleRequest>,
    ) -> Result<Response<pb::RuleRunResponse>, Status> {
        let call = Call::of(&request);
        let caller = Caller::of(&request);
        let request = request.into_inner();
        let script = self.script(&caller, request.script).await?;
        let decks = json("decks_json", &request.decks_json)?;
        let cards = json("cards_by_id_json", &request.cards_by_id_json)?;
        let context = context(request.context_json.as_deref())?;
        let result = self
            .blocking(call, move |runner| {
                Ok(runner.deckset_rule(&script, decks, cards, context)?)
            })
            .await?;
        Ok(Response::new(pb::RuleRunResponse {
            result: Some(result),
        }))
    }

    async fn resolve_pool_filters(
        &self,
        request: Request<pb::ResolvePoolFiltersRequest>,
    ) -> Result<Response<pb::ResolvePoolFiltersResponse>, Status> {
        let call = Call::of(&request);
        let caller = Caller::of(&request);
        let request = request.into_inner();
        let script = self.script(&caller, request.script).await?;
        let game = game(request.game)?;
        let input = json("input_json", &request.input_json)?;
        let context = context(request.context_json.as_deref())?;
        let patch = self
            .blocking(call, move |runner| {
                Ok(runner.pool_filters(&script, game, input, context)?)
            })
            .await?;
        Ok(Response::new(pb::ResolvePoolFiltersResponse { patch }))
    }

    async fn run_calculator(
        &self,
        request: Request<pb::RunCalculatorRequest>,
    ) -> Result<Response<pb::RunCalculatorResponse>, Status> {
        let call = Call::of(&request);
        let caller = Caller::of(&request);
        let request = request.into_inner();
        let script = self.script(&caller, request.script).await?;
        let pile = json("pile_json", &request.pile_json)?;
        let cards = json("cards_by_id_json", &request.cards_by_id_json)?;
        let context = context(request.context_json.as_deref())?;
        let dashboard = self
            .blocking(call, move |runner| {
                Ok(runner.calculator(&script, pile, cards, context)?)
            })
            .await?;
        Ok(Response::new(pb::RunCalculatorResponse {
            dashboard: Some(dashboard),
        }))
    }

    async fn list_rulesets(
        &self,
        request: Request<pb::ListRulesetsRequest>,
    ) -> Result<Response<pb::ListRulesetsResponse>, Status> {
        let caller = Caller::of(&request);
        let request = request.into_inner();
        let game = game(request.game)?;
        let scope = crate::rulesets::scope(request.scope)?;
        let rulesets = self.rulesets()?.list(&caller, game, scope).await?;
        Ok(Response::new(pb::ListRulesetsResponse { rulesets }))
    }

    async fn create_ruleset(
        &self,
        request: Request<pb::CreateRulesetRequest>,
    ) -> Result<Response<pb::RulesetResponse>, Status> {
        let caller = Caller::of(&request);
        let ruleset = self
            .rulesets()?
            .create(&caller, game(request.get_ref().game)?, request.into_inner())
            .await?;
        Ok(one(ruleset))
    }

    async fn get_ruleset(
        &self,
        request: Request<pb::GetRulesetRequest>,
    ) -> Result<Response<pb::RulesetResponse>, Status> {
        let caller = Caller::of(&request);
        let request = request.into_inner();
        let game = game(request.game)?;
        let ruleset = self.rulesets()?.get(&caller, game, &request.id).await?;
        Ok(one(ruleset))
    }

    async fn update_ruleset(
        &self,
        request: Request<pb::UpdateRulesetRequest>,
    ) -> Result<Response<pb::RulesetResponse>, Status> {
        let caller = Caller::of(&request);
        let ruleset = self
            .rulesets()?
            .update(&caller, game(request.get_ref().game)?, request.into_inner())
            .await?;
        Ok(one(ruleset))
    }

    async fn delete_ruleset(
        &self,
        request: Request<pb::DeleteRulesetRequest>,
    ) -> Result<Response<pb::DeleteRulesetResponse>, Status> {
        let caller = Caller::of(&request);
        let request = request.into_inner();
        let game = game(request.game)?;
        self.rulesets()?.delete(&caller, game, &request.id).await?;
        Ok(Response::new(pb::DeleteRulesetResponse {}))
    }

    async fn duplicate_ruleset(
        &self,
        request: Request<pb::DuplicateRulesetRequest>,
    ) -> Result<Response<pb::RulesetResponse>, Status> {
        let caller = Caller::of(&request);
        let request = request.into_inner();
        let game = game(request.game)?;
        let ruleset = self
            .rulesets()?
            .duplicate(&caller, game, &request.id)
            .await?;
        Ok(one(ruleset))
    }

    async fn save_ruleset(
        &self,
        request: Request<pb::SaveRulesetRequest>,
    ) -> Result<Response<pb::RulesetResponse>, Status> {
        let caller = Caller::of(&request);
        let ruleset = self
            .rulesets()?
            .save(&caller, game(request.get_ref().game)?, request.into_inner())
            .await?;
        Ok(one(ruleset))
    }

    async fn list_public_rulesets(
        &self,
        request: Request<pb::ListPublicRulesetsRequest>,
    ) -> Result<Response<pb::ListRulesetsResponse>, Status> {
        let caller = Caller::of(&request);
        let request = request.into_inner();
        let game = match request.game {
            0 => None,
            value => Some(game(value)?),
        };
        let rulesets = self
            .rulesets()?
            .list_public(&caller, &request.username, game)
            .await?;
        Ok(Response::new(pb::ListRulesetsResponse { rulesets }))
    }

    async fn validate_deck(
        &self,
        request: Request<pb::ValidateDeckRequest>,
    ) -> Result<Response<pb::ValidateDeckResponse>, Status> {
        let call = Call::of(&request);
        let caller = Caller::of(&request);
        let request = request.into_inner();
        let game = game(request.game)?;
        let plan = self.deck_plan(&caller, game, request).await?;
        let response = self
            .blocking_with(call, Runner::pool_workers(), move |runner| plan.run(runner))
            .await?;
        Ok(Response::new(response))
    }

    async fn update_ruleset_copy(
        &self,
        request: Request<pb::UpdateRulesetCopyRequest>,
    ) -> Result<Response<pb::RulesetResponse>, Status> {
        let caller = Caller::of(&request);
        let request = request.into_inner();
        let game = game(request.game)?;
        let ruleset = self
            .rulesets()?
            .update_copy(&caller, game, &request.id)
            .await?;
        Ok(one(ruleset))
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
