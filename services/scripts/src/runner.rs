//! Runs a user script end to end: safety check, preparation, compilation (cached by the hash
//! of the source), a sandboxed run per call, and normalization of what the entry point
//! returned. The gRPC service and the `turnier script` CLI both go through [`Runner`].
//!
//! Every method is synchronous and may hold its thread up to its time limit: async callers run
//! them on blocking threads (`tokio::task::spawn_blocking`), and stop them early through
//! [`Runner::with_cancel`] (the caller went away) or [`Runner::halt`] (the server is stopping).

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use proto::scripts::v1::{Dashboard, PoolFiltersPatch, RuleResult};
use serde::Serialize;
use serde_json::Value;
use sha2::{Digest as _, Sha256};

use crate::domain::prepare::{PrepareError, prepare};
use crate::domain::rule_result::{self, Scope};
use crate::domain::safety::{self, SafetyReport};
use crate::domain::{dashboard, pool_filters};
use crate::sandbox::{
    self, Bytecode, Cancel, DriverOutput, Limits, Outcome, RunError, RunOptions, Sandbox,
    SandboxError, ScriptKind,
};

/// The message of an empty calculator (guide: calculators, troubleshooting).
pub const EMPTY_CALCULATOR: &str = "Calculator script source is empty.";
/// The message of a calculator with no `compute` (guide: calculators, troubleshooting).
pub const NO_COMPUTE: &str = "Calculator script did not export a compute function.";
/// The message of an empty ruleset script.
pub const EMPTY_RULE: &str = "Ruleset script source is empty.";
/// The message of a ruleset script with no entry point (rulesets reference: "did not export a
/// function").
pub const NO_RULE_FUNCTION: &str = "Ruleset script did not export a function.";
/// The message of a deck rule with no `resolvePoolFilters` hook.
pub const NO_POOL_FILTERS: &str = "Ruleset script did not export a resolvePoolFilters function.";

/// One card pool chunk's verdicts, once it has run.
type ChunkAnswer = Option<Result<Vec<Verdict>, RunFailure>>;

/// Cards per sandbox run of a card pool: about 1 MB of card JSON, far inside an instance's
/// memory.
pub const POOL_CHUNK: usize = 500;

/// Compiled scripts kept by hash for runs that name a hash instead of a source.
const KEPT_SCRIPTS: usize = 1024;

/// The script a call runs: its source, or the hash of a source compiled earlier.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScriptRef {
    /// The JavaScript module source.
    Source(String),
    /// The hex SHA-256 of a source this runner has compiled.
    Hash(String),
}

/// The time limit of each kind of run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeLimits {
    /// One card, deck or deck set rule (the server's submission check: 15 s).
    pub rule: Duration,
    /// A card rule over a whole card pool (15 s).
    pub card_pool: Duration,
    /// One calculator run (5 s).
    pub calculator: Duration,
}

impl Default for TimeLimits {
    fn default() -> Self {
        Self {
            rule: sandbox::SUBMISSION_CHECK,
            card_pool: sandbox::SUBMISSION_CHECK,
            calculator: sandbox::CALCULATOR,
        }
    }
}

/// Why a script produced no result. [`RunFailure::code`] is the stable code callers see.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RunFailure {
    /// The source is empty (or only whitespace).
    #[error("{0}")]
    EmptySource(&'static str),
    /// The static safety check rejected the script.
    #[error("the script failed the safety check: {}", describe(.0))]
    Unsafe(SafetyReport),
    /// The script has no entry point for this kind of run.
    #[error("{0}")]
    NoEntryPoint(&'static str),
    /// The script threw, or does not compile.
    #[error("{0}")]
    ScriptError(String),
    /// The run went past its time limit.
    #[error("the script ran past its time limit of {} ms and was stopped", .0.as_millis())]
    Timeout(Duration),
    /// The run needed more memory than the sandbox allows.
    #[error("the script ran out of memory (limit {} MiB)", .0 >> 20)]
    OutOfMemory(usize),
    /// The run wrote more output than the sandbox allows.
    #[error("the script's result is larger than the {} MiB allowed", .0 >> 20)]
    OutputTooLarge(usize),
    /// A run named a hash no source was compiled for.
    #[error("no script with hash {0} has been compiled here: send its source")]
    NotFound(String),
    /// An argument is not what the kind of run needs.
    #[error("{0}")]
    InvalidArgument(String),
    /// The sandbox could not start a run (all instances busy).
    #[error("the sandbox is busy: {0}")]
    Unavailable(String),
    /// The run was stopped because its caller went away (or never started for that reason).
    #[error("the run was cancelled: its caller went away")]
    Cancelled,
    /// The run was stopped, or never started, because the server is shutting down.
    #[error("the server is shutting down: try again")]
    ShuttingDown,
    /// The sandbox misbehaved: a bug, never the script's fault.
    #[error("internal sandbox error: {0}")]
    Internal(String),
}

impl RunFailure {
    /// The stable code of the failure (`unsafe_script`, `script_error`, `timeout`, …).
    pub const fn code(&self) -> &'static str {
        match self {
            Self::EmptySource(_) => "empty_source",
            Self::Unsafe(_) => "unsafe_script",
            Self::NoEntryPoint(_) => "no_entry_point",
            Self::ScriptError(_) => "script_error",
            Self::Timeout(_) => "timeout",
            Self::OutOfMemory(_) => "out_of_memory",
            Self::OutputTooLarge(_) => "output_too_large",
            Self::NotFound(_) => "script_not_found",
            Self::InvalidArgument(_) => "invalid_argument",
            Self::Unavailable(_) => "unavailable",
            Self::Cancelled => "cancelled",
            Self::ShuttingDown => "shutting_down",
            Self::Internal(_) => "internal",
        }
    }
}

fn describe(report: &SafetyReport) -> String {
    report
        .issues
        .iter()
        .map(|issue| {
            format!(
                "{} at line {}, column {}: {}",
                issue.code, issue.line, issue.column, issue.message
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// What [`Runner::check`] found.
#[derive(Debug, Clone, PartialEq)]
pub struct Checked {
    /// The safety check's report.
    pub report: SafetyReport,
    /// The script's hash, when it is safe and compiled.
    pub hash: Option<String>,
}

/// A card rule's verdict on one card of a pool.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// The rule returned; its normalized result.
    Result(RuleResult),
    /// The rule threw for this card.
    Threw(String),
}

/// Runs scripts. Cheap to clone; clones share the sandbox and the compiled scripts.
#[derive(Debug, Clone)]
pub struct Runner {
    sandbox: Sandbox,
    times: TimeLimits,
    compiled: Arc<Mutex<Compiled>>,
    /// Stops this runner's runs when set (never, unless [`Runner::with_cancel`] gave one).
    cancel: Cancel,
    /// Instances one card pool run uses at once.
    pool_workers: usize,
}

/// Compiled scripts by source hash, oldest first out.
#[derive(Debug, Default)]
struct Compiled {
    by_hash: HashMap<String, Arc<Bytecode>>,
    order: VecDeque<String>,
}

/// What a kind of run is called, for its messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Purpose {
    Rule,
    PoolFilters,
    Calculator,
}

impl Purpose {
    const fn empty(self) -> &'static str {
        match self {
            Self::Rule | Self::PoolFilters => EMPTY_RULE,
            Self::Calculator => EMPTY_CALCULATOR,
        }
    }

    const fn no_entry(self) -> &'static str {
        match self {
            Self::Rule => NO_RULE_FUNCTION,
            Self::PoolFilters => NO_POOL_FILTERS,
            Self::Calculator => NO_COMPUTE,
        }
    }
}

impl Runner {
    /// Creates a runner with its own sandbox (pre-initializes the plugin: about a second).
    pub fn new(limits: Limits, times: TimeLimits) -> Result<Self, SandboxError> {
        Ok(Self {
            sandbox: Sandbox::new(limits)?,
            times,
            compiled: Arc::default(),
            cancel: Cancel::new(),
            pool_workers: Self::pool_workers(),
        })
    }

    /// Returns this runner (sharing its sandbox and compiled scripts) with runs that stop as
    /// [`RunFailure::Cancelled`] once `cancel` is set.
    #[must_use]
    pub fn with_cancel(&self, cancel: Cancel) -> Self {
        Self {
            cancel,
            ..self.clone()
        }
    }

    /// Returns this runner with card pools run by `workers` instances at once (at least one):
    /// as many as the caller holds slots for.
    #[must_use]
    pub fn with_pool_workers(&self, workers: usize) -> Self {
        Self {
            pool_workers: workers.max(1),
            ..self.clone()
        }
    }

    /// Stops every run of this runner and its clones, now and later, as
    /// [`RunFailure::ShuttingDown`] (see [`Sandbox::halt`]).
    pub fn halt(&self) {
        self.sandbox.halt();
    }

    /// Returns the hex SHA-256 of a source: the hash runs may name it by.
    pub fn hash(source: &str) -> String {
        Sha256::digest(source.as_bytes())
            .iter()
            .map(|byte| format!("{byte:02x}"))
            .collect()
    }

    /// Runs the safety check; a safe script is compiled and kept, and its hash returned.
    ///
    /// A script the check passes but the engine cannot compile (nesting deeper than the
    /// engine's parser takes, a name the sandbox reserves) is not safe to save either: its
    /// report says why in one `invalid_syntax` issue, so "safe" always means "runs". A compile
    /// that could not be tried (the sandbox busy or shutting down) is an error, not a verdict.
    pub fn check(&self, source: &str) -> Result<Checked, RunFailure> {
        let report = safety::check(source);
        if !report.safe {
            return Ok(Checked { report, hash: None });
        }
        match self.compile(&ScriptRef::Source(source.to_owned()), Purpose::Rule) {
            Ok(_) => Ok(Checked {
                report,
                hash: Some(Self::hash(source)),
            }),
            Err(
                failure @ (RunFailure::ScriptError(_)
                | RunFailure::Timeout(_)
                | RunFailure::OutOfMemory(_)
                | RunFailure::OutputTooLarge(_)),
            ) => Ok(Checked {
                report: SafetyReport::cannot_compile(&failure.to_string()),
                hash: None,
            }),
            Err(failure) => Err(failure),
        }
    }

    /// Runs a card rule on one card.
    pub fn card_rule(
        &self,
        script: &ScriptRef,
        card: Value,
        context: Option<Value>,
    ) -> Result<RuleResult, RunFailure> {
        let outcome = self.single(
            script,
            Purpose::Rule,
            ScriptKind::Card,
            args([object("card", card)?], context)?,
            self.times.rule,
        )?;
        rule(Scope::Card, outcome)
    }

    /// Runs a card rule over many cards: the pool is cut into chunks of [`POOL_CHUNK`] cards,
    /// each run in its own fresh instance, by up to [`Runner::pool_workers`] threads at once
    /// (or as many as [`Runner::with_pool_workers`] says),
    /// all within the one time limit of a card pool. Chunks keep every instance well inside its
    /// memory limit however large the catalog, and use every core.
    ///
    /// A card is anything that serializes as the card's JSON: a `Value`, or the card's JSON
    /// text already written (`Box<RawValue>`, as a kept catalog pool holds it).
    pub fn card_pool<Card: Serialize + Sync>(
        &self,
        script: &ScriptRef,
        cards: &[Card],
        context: Option<Value>,
    ) -> Result<Vec<Verdict>, RunFailure> {
        let bytecode = self.compile(script, Purpose::Rule)?;
        let deadline = Instant::now() + self.times.card_pool;
        let chunks: Vec<&[Card]> = cards.chunks(POOL_CHUNK).collect();
        let next = AtomicUsize::new(0);
        let answers: Mutex<Vec<ChunkAnswer>> = Mutex::new(vec![None; chunks.len()]);
        let workers = self.pool_workers.min(chunks.len());
        std::thread::scope(|scope| {
            for _ in 0..workers {
                scope.spawn(|| {
                    loop {
                        let at = next.fetch_add(1, Ordering::Relaxed);
                        let Some(chunk) = chunks.get(at) else { break };
                        let answer = self.pool_chunk(&bytecode, chunk, context.as_ref(), deadline);
                        let failed = answer.is_err();
                        answers.lock().unwrap_or_else(|e| e.into_inner())[at] = Some(answer);
                        if failed {
                            // Stop handing out chunks: the first failure is the answer.
                            next.store(chunks.len(), Ordering::Relaxed);
                        }
                    }
                });
            }
        });
        let mut verdicts = Vec::with_capacity(cards.len());
        // A chunk not run (`None`) was stopped by a failure, which is the answer.
        let answers = answers.into_inner().unwrap_or_else(|e| e.into_inner());
        for answer in answers.into_iter().flatten() {
            verdicts.extend(answer?);
        }
        if verdicts.len() != cards.len() {
            return Err(RunFailure::Internal(format!(
                "a card pool run answered for {} of {} cards",
                verdicts.len(),
                cards.len()
            )));
        }
        Ok(verdicts)
    }

    /// How many instances one card pool run uses at once by default: one per core, at most 4.
    pub fn pool_workers() -> usize {
        std::thread::available_parallelism().map_or(1, |n| n.get().min(4))
    }

    /// Runs one chunk of a card pool with the time left before `deadline`.
    fn pool_chunk<Card: Serialize>(
        &self,
        bytecode: &Bytecode,
        cards: &[Card],
        context: Option<&Value>,
        deadline: Instant,
    ) -> Result<Vec<Verdict>, RunFailure> {
        let time = deadline.saturating_duration_since(Instant::now());
        if time.is_zero() {
            return Err(RunFailure::Timeout(self.times.card_pool));
        }
        // The driver's request written straight from the borrowed cards: no copy of the pool.
        let mut request = Vec::with_capacity(cards.len() * 1024);
        request.extend_from_slice(br#"{"kind":"card_pool","args":["#);
        serde_json::to_writer(&mut request, cards)
            .map_err(|err| RunFailure::Internal(err.to_string()))?;
        if let Some(context) = context {
            request.push(b',');
            serde_json::to_writer(&mut request, context)
                .map_err(|err| RunFailure::Internal(err.to_string()))?;
        }
        request.extend_from_slice(b"]}");
        let output = self
            .sandbox
            .run(bytecode, &request, self.options(time))
            // A timeout is the whole pool's: its limit is what the caller set.
            .map_err(|err| self.failure(err, self.times.card_pool))?;
        let outcomes = match DriverOutput::parse(&output.stdout) {
            Ok(DriverOutput::PerCard(outcomes)) => outcomes,
            Ok(DriverOutput::NoEntry) => {
                return Err(RunFailure::NoEntryPoint(Purpose::Rule.no_entry()));
            }
            Ok(DriverOutput::Single(_)) => {
                return Err(RunFailure::Internal(
                    "a card pool run did not answer per card".to_owned(),
                ));
            }
            Err(err) => return Err(RunFailure::Internal(err.to_string())),
        };
        if outcomes.len() != cards.len() {
            return Err(RunFailure::Internal(format!(
                "a card pool chunk answered for {} of {} cards",
                outcomes.len(),
                cards.len()
            )));
        }
        Ok(outcomes
            .into_iter()
            .map(|outcome| match returned(outcome) {
                Ok(value) => Verdict::Result(rule_result::normalize(Scope::Card, value.as_ref())),
                Err(message) => Verdict::Threw(message),
            })
            .collect())
    }

    /// Runs a deck rule on one deck.
    pub fn deck_rule(
        &self,
        script: &ScriptRef,
        deck: Value,
        cards_by_id: Value,
        context: Option<Value>,
    ) -> Result<RuleResult, RunFailure> {
        let outcome = self.single(
            script,
            Purpose::Rule,
            ScriptKind::Deck,
            args(
                [object("deck", deck)?, object("cardsById", cards_by_id)?],
                context,
            )?,
            self.times.rule,
        )?;
        rule(Scope::Deck, outcome)
    }

    /// Runs a deck set rule on a lineup.
    pub fn deckset_rule(
        &self,
        script: &ScriptRef,
        decks: Value,
        cards_by_id: Value,
        context: Option<Value>,
    ) -> Result<RuleResult, RunFailure> {
        let all_objects = decks
            .as_array()
            .is_some_and(|decks| decks.iter().all(Value::is_object));
        if !all_objects {
            return Err(RunFailure::InvalidArgument(
                "`decks` must be an array of deck objects".to_owned(),
            ));
        }
        let outcome = self.single(
            script,
            Purpose::Rule,
            ScriptKind::Deckset,
            args([decks, object("cardsById", cards_by_id)?], context)?,
            self.times.rule,
        )?;
        rule(Scope::Deckset, outcome)
    }

    /// Runs a deck rule's `resolvePoolFilters`; `None` is no suggestion.
    pub fn pool_filters(
        &self,
        script: &ScriptRef,
        game: pool_filters::Game,
        input: Value,
        context: Option<Value>,
    ) -> Result<Option<PoolFiltersPatch>, RunFailure> {
        let outcome = self.single(
            script,
            Purpose::PoolFilters,
            ScriptKind::PoolFilters,
            args([object("input", input)?], context)?,
            self.times.rule,
        )?;
        let value = returned(outcome).map_err(RunFailure::ScriptError)?;
        Ok(pool_filters::normalize(game, value.as_ref()))
    }

    /// Runs a calculator's `compute`.
    pub fn calculator(
        &self,
        script: &ScriptRef,
        pile: Value,
        cards_by_id: Value,
        context: Option<Value>,
    ) -> Result<Dashboard, RunFailure> {
        let outcome = self.single(
            script,
            Purpose::Calculator,
            ScriptKind::Calculator,
            args(
                [object("pile", pile)?, object("cardsById", cards_by_id)?],
                context,
            )?,
            self.times.calculator,
        )?;
        let value = returned(outcome).map_err(RunFailure::ScriptError)?;
        Ok(dashboard::normalize(value.as_ref()))
    }

    /// Compiles (or finds) the script, runs it once in a fresh instance and returns the one
    /// call's outcome.
    fn single(
        &self,
        script: &ScriptRef,
        purpose: Purpose,
        kind: ScriptKind,
        args: Vec<Value>,
        time: Duration,
    ) -> Result<Outcome, RunFailure> {
        let bytecode = self.compile(script, purpose)?;
        let output = self
            .sandbox
            .run(
                &bytecode,
                &sandbox::request(kind, &args),
                self.options(time),
            )
            .map_err(|err| self.failure(err, time))?;
        match DriverOutput::parse(&output.stdout) {
            Ok(DriverOutput::Single(outcome)) => Ok(outcome),
            Ok(DriverOutput::NoEntry) => Err(RunFailure::NoEntryPoint(purpose.no_entry())),
            Ok(DriverOutput::PerCard(_)) => Err(RunFailure::Internal(
                "a single run answered per card".to_owned(),
            )),
            Err(err) => Err(RunFailure::Internal(err.to_string())),
        }
    }

    /// A run's options: the clock a script sees is frozen at the start of its run, and
    /// `Math.random` replays from a fixed seed.
    fn options(&self, time: Duration) -> RunOptions {
        RunOptions {
            time,
            now: SystemTime::now(),
            seed: 0,
            cancel: self.cancel.clone(),
        }
    }

    /// Returns the compiled script, compiling and keeping it when given its source.
    fn compile(&self, script: &ScriptRef, purpose: Purpose) -> Result<Arc<Bytecode>, RunFailure> {
        let source = match script {
            ScriptRef::Hash(hash) => {
                let compiled = self.compiled.lock().unwrap_or_else(|e| e.into_inner());
                return compiled
                    .by_hash
                    .get(&hash.to_ascii_lowercase())
                    .cloned()
                    .ok_or_else(|| RunFailure::NotFound(kit::status::quote(hash)));
            }
            ScriptRef::Source(source) => source,
        };
        if source.trim().is_empty() {
            return Err(RunFailure::EmptySource(purpose.empty()));
        }
        let hash = Self::hash(source);
        if let Some(bytecode) = self
            .compiled
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .by_hash
            .get(&hash)
        {
            return Ok(Arc::clone(bytecode));
        }
        let prepared = prepare(source).map_err(|err| match err {
            PrepareError::Unsafe(report) => RunFailure::Unsafe(report),
            reserved @ PrepareError::ReservedName { .. } => {
                RunFailure::ScriptError(reserved.to_string())
            }
        })?;
        let bytecode = self
            .sandbox
            .compile(&sandbox::program(&prepared.source))
            .map_err(|err| self.failure(err, self.times.rule))?;
        let mut compiled = self.compiled.lock().unwrap_or_else(|e| e.into_inner());
        if compiled
            .by_hash
            .insert(hash.clone(), Arc::clone(&bytecode))
            .is_none()
        {
            compiled.order.push_back(hash);
            while compiled.order.len() > KEPT_SCRIPTS {
                if let Some(oldest) = compiled.order.pop_front() {
                    compiled.by_hash.remove(&oldest);
                }
            }
        }
        Ok(bytecode)
    }

    /// Turns a sandbox error into the failure callers see.
    fn failure(&self, err: RunError, time: Duration) -> RunFailure {
        let limits = self.sandbox.limits();
        match err {
            RunError::Timeout => RunFailure::Timeout(time),
            RunError::OutOfMemory => RunFailure::OutOfMemory(limits.memory_bytes),
            RunError::OutputTooLarge => RunFailure::OutputTooLarge(limits.output_bytes),
            RunError::Trap(message) | RunError::Compile(message) => {
                RunFailure::ScriptError(message)
            }
            RunError::Unavailable(message) => RunFailure::Unavailable(message),
            RunError::Cancelled => RunFailure::Cancelled,
            RunError::Halted => RunFailure::ShuttingDown,
        }
    }
}

/// The entry point's arguments: the given ones, then the context when there is one; a
/// context, like every argument but a deck set, is a JSON object.
fn args<const N: usize>(
    given: [Value; N],
    context: Option<Value>,
) -> Result<Vec<Value>, RunFailure> {
    let context = context
        .map(|context| object("context", context))
        .transpose()?;
    Ok(given.into_iter().chain(context).collect())
}

/// Returns `value` when it is a JSON object: a card, a deck, a pile, the cards by id and a
/// context are objects in every script's contract, so anything else is refused before a run
/// rather than handed to a script that would read `undefined` from it.
fn object(name: &str, value: Value) -> Result<Value, RunFailure> {
    if value.is_object() {
        return Ok(value);
    }
    let found = match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) | Value::Object(_) => "an array",
    };
    Err(RunFailure::InvalidArgument(format!(
        "`{name}` must be a JSON object, found {found}"
    )))
}

/// Normalizes a rule's outcome; a throw is an error, not issues.
fn rule(scope: Scope, outcome: Outcome) -> Result<RuleResult, RunFailure> {
    let value = returned(outcome).map_err(RunFailure::ScriptError)?;
    Ok(rule_result::normalize(scope, value.as_ref()))
}

/// The value an entry point returned, for normalizing: `None` for `undefined` and for a value
/// JSON cannot hold (a cycle, a BigInt), which every normalization treats as no usable value;
/// `Err` with the message when it threw.
fn returned(outcome: Outcome) -> Result<Option<Value>, String> {
    match outcome {
        Outcome::Returned(value) => Ok(Some(value)),
        Outcome::ReturnedUndefined | Outcome::Unserializable(_) => Ok(None),
        Outcome::Threw(message) => Err(message),
    }
}
