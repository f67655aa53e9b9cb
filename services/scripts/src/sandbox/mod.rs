//! The JavaScript sandbox: user scripts compiled to QuickJS bytecode and run in WebAssembly
//! with hard limits on time, memory and output.
//!
//! QuickJS comes as a Javy plugin (`services/scripts/plugin`, built by its `build.sh` and
//! committed as `turnier_plugin.wasm`), embedded here and pre-initialized with Wizer when the
//! [`Sandbox`] is created (`preinit.rs`; the plugin's initialization also freezes every
//! built-in and removes `eval` and the `Function` constructors). Every compile and every run
//! gets a fresh instance of that module in Wasmtime: no files, environment, arguments or
//! network (`wasi.rs` implements only the ten WASI calls the plugin imports), a wall clock
//! frozen at the time the caller gives, a random source from the caller's seed, a memory cap,
//! an output cap and a wall-clock limit enforced by epoch interruption.
//!
//! The epoch only says when to look: at every tick a run compares the real clock with its own
//! deadline (counted from the start of that run, so the wait for a slot before it never
//! counts) and checks its [`Cancel`] flag and the sandbox's [`Sandbox::halt`]. A ticker thread
//! slowed down by a loaded machine therefore delays a stop by at most its lateness, instead of
//! stretching every limit by it.
//!
//! What runs is [`program`]: our prelude (checks the hardening, takes the I/O functions, freezes
//! the global object), the prepared user module and our driver (takes the request, which the
//! plugin reads from standard input straight into deep-frozen values, calls the entry point,
//! writes one JSON line that [`DriverOutput::parse`] reads). The static safety check and the source
//! preparation are `crate::domain`'s; normalizing what a script returned is too.
//!
//! Deep recursion ends as [`RunError::Trap`] at Wasmtime's 512 KiB stack limit (about 900
//! nested JavaScript calls): QuickJS checks no stack depth of its own in WebAssembly.
//!
//! The API is synchronous and a run holds its thread for up to its time limit: async callers
//! run it on blocking threads (`tokio::task::spawn_blocking`); those have 2 MiB stacks, room
//! for the 512 KiB Wasmtime lets a run use. Creating a sandbox compiles the plugin twice
//! (about 1 s in release builds on 2 cores, 2 s in debug builds): create one per process and
//! clone it, the clones share everything.
//!
//! Both compiles go through Wasmtime's own compilation cache when [`Limits::compile_cache`]
//! names a directory: its entries are keyed by the module's bytes, the engine's settings and
//! Wasmtime's version, so a process that finds the plugin compiled before (the same binary,
//! the same settings) only reads it back, and `turnier script run` starts in milliseconds
//! instead of a second or more. A cache that cannot be used is only a slower start, never a
//! failure.

mod cache;
mod cancel;
mod driver;
mod preinit;
mod program;
mod wasi;

use std::path::PathBuf;
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant, SystemTime};

use wasmtime::{
    Config, Engine, Instance, InstanceAllocationStrategy, InstancePre, Linker, Memory, Module,
    PoolingAllocationConfig, ResourceLimiter, Store, Trap, UpdateDeadline,
};

pub use cancel::{Cancel, CancelOnDrop};
pub use driver::{DriverOutput, DriverOutputError, Outcome, ScriptKind, request};
pub use program::program;

use cache::{BytecodeCache, program_hash};
use wasi::{RunSetup, RunState};

/// The raw Javy plugin (see `services/scripts/plugin/build.sh`, which checks it is up to date).
const PLUGIN: &[u8] = include_bytes!("../../plugin/turnier_plugin.wasm");

/// Time limit of one deck submission check on the server, over all scopes (spec: sandbox, time
/// limits, "Server: one deck submission check (all scopes)").
pub const SUBMISSION_CHECK: Duration = Duration::from_secs(15);

/// Time limit of one calculator run (spec: calculators, "a run that takes longer than 5
/// seconds is stopped").
pub const CALCULATOR: Duration = Duration::from_secs(5);

/// How often the epoch advances: how often a run looks at its deadline and its cancel flag.
const EPOCH_TICK: Duration = Duration::from_millis(10);

/// The limits every compile and run of a [`Sandbox`] shares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Linear memory one instance may use, in bytes; past it, allocation fails inside the
    /// script and the run ends as [`RunError::OutOfMemory`].
    pub memory_bytes: usize,
    /// Standard output one run may write (the driver's result line), in bytes; past it the run
    /// ends as [`RunError::OutputTooLarge`].
    pub output_bytes: usize,
    /// Standard error (`console.log`) kept per run, in bytes; the rest is dropped.
    pub log_bytes: usize,
    /// Time limit of one compile.
    pub compile_time: Duration,
    /// Instances that may exist at once (runs and compiles); one more fails as
    /// [`RunError::Unavailable`]. Each reserves address space, not memory.
    pub instances: u32,
    /// Compiled programs kept in the cache.
    pub cached_programs: usize,
    /// Where the plugin's compiled machine code is kept between processes.
    pub compile_cache: CompileCache,
}

/// Where Wasmtime keeps compiled modules between processes: the plugin is compiled twice when a
/// sandbox is created (the instrumented module for pre-initialization, then its snapshot), and
/// a cache turns both into reads.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum CompileCache {
    /// Compile on every start.
    #[default]
    Off,
    /// Keep compiled modules in this directory (an absolute path; created when missing).
    Dir(PathBuf),
}

impl CompileCache {
    /// The cache a user's tools share: `$XDG_CACHE_HOME/turnier/wasmtime`, else
    /// `$HOME/.cache/turnier/wasmtime`; off when neither is set (absolute).
    pub fn user_default() -> Self {
        let absolute = |name: &str| {
            std::env::var_os(name)
                .map(PathBuf::from)
                .filter(|path| path.is_absolute())
        };
        absolute("XDG_CACHE_HOME")
            .or_else(|| absolute("HOME").map(|home| home.join(".cache")))
            .map_or(Self::Off, |cache| {
                Self::Dir(cache.join("turnier").join("wasmtime"))
            })
    }

    /// Reads a setting: `off`, or a directory (made absolute against the working directory).
    pub fn parse(text: &str) -> Result<Self, String> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("off") {
            return Ok(Self::Off);
        }
        if text.is_empty() {
            return Err("expected a directory or `off`".to_owned());
        }
        std::path::absolute(text)
            .map(Self::Dir)
            .map_err(|err| format!("`{text}` is not a usable path: {err}"))
    }

    /// Wasmtime's cache for this setting; `None` when off or when the directory cannot be used
    /// (logged: the sandbox then compiles as if the cache were off).
    fn open(&self) -> Option<wasmtime::Cache> {
        let Self::Dir(dir) = self else { return None };
        let mut config = wasmtime::CacheConfig::new();
        config.with_directory(dir);
        match wasmtime::Cache::new(config) {
            Ok(cache) => Some(cache),
            Err(err) => {
                tracing::warn!(
                    directory = %dir.display(),
                    error = %format!("{err:#}"),
                    "the compile cache cannot be used; compiling the plugin without it"
                );
                None
            }
        }
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            memory_bytes: 64 << 20,
            output_bytes: 8 << 20,
            log_bytes: 64 << 10,
            compile_time: Duration::from_secs(5),
            instances: 64,
            cached_programs: 256,
            compile_cache: CompileCache::Off,
        }
    }
}

/// The per-run settings.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// Wall-clock limit of the run ([`SUBMISSION_CHECK`], [`CALCULATOR`], …), counted from the
    /// start of the run.
    pub time: Duration,
    /// What `Date.now()` and `new Date()` return, frozen for the whole run.
    pub now: SystemTime,
    /// Seed of `Math.random()`: the same seed gives the same sequence.
    pub seed: u64,
    /// Stops the run when set, from any thread ([`RunError::Cancelled`]).
    pub cancel: Cancel,
}

/// What a run wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunOutput {
    /// Standard output: the driver's one result line (see [`DriverOutput::parse`]).
    pub stdout: Vec<u8>,
    /// Standard error: `console.log` and `console.error`, cut at [`Limits::log_bytes`].
    pub stderr: Vec<u8>,
}

/// A compiled program: QuickJS bytecode from the plugin's `compile-src`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bytecode(Vec<u8>);

impl Bytecode {
    /// Returns the bytecode bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }
}

/// Why a sandbox could not be created.
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    /// A limit is out of range.
    #[error("invalid sandbox limits: {0}")]
    InvalidLimits(&'static str),
    /// Wasmtime rejected the configuration or the plugin.
    #[error("the WebAssembly engine could not load the plugin: {0}")]
    Engine(String),
    /// Running or snapshotting the plugin's initialization failed.
    #[error("pre-initializing the plugin failed: {0}")]
    PreInit(String),
    /// The epoch ticker thread could not start.
    #[error("the sandbox's timer thread could not start")]
    Ticker(#[source] std::io::Error),
}

/// Why a compile or run produced no output.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RunError {
    /// The run went past its time limit and was stopped.
    #[error("the script ran past its time limit")]
    Timeout,
    /// The run needed more memory than [`Limits::memory_bytes`].
    #[error("the script ran out of memory")]
    OutOfMemory,
    /// The run wrote more than [`Limits::output_bytes`] to standard output.
    #[error("the script's output is larger than allowed")]
    OutputTooLarge,
    /// The run ended abnormally: a WebAssembly trap (stack exhausted, …) or a JavaScript
    /// exception that escaped the module's top level; the text says which.
    #[error("the script failed: {0}")]
    Trap(String),
    /// The program does not compile; the text is QuickJS's message.
    #[error("the script does not compile: {0}")]
    Compile(String),
    /// No instance could be started, e.g. all [`Limits::instances`] are in use.
    #[error("the sandbox could not start an instance: {0}")]
    Unavailable(String),
    /// The run's [`RunOptions::cancel`] was set: it was stopped, or never started.
    #[error("the run was cancelled")]
    Cancelled,
    /// The sandbox was halted ([`Sandbox::halt`]): the process is stopping.
    #[error("the sandbox is halted")]
    Halted,
}

/// Why a run was stopped from outside the script, as its epoch callback recorded it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Stopped {
    /// Its deadline passed.
    Timeout,
    /// Its cancel flag was set.
    Cancelled,
    /// The sandbox was halted.
    Halted,
}

impl From<Stopped> for RunError {
    fn from(stopped: Stopped) -> Self {
        match stopped {
            Stopped::Timeout => RunError::Timeout,
            Stopped::Cancelled => RunError::Cancelled,
            Stopped::Halted => RunError::Halted,
        }
    }
}

/// What a run looks at every epoch tick: its own deadline, its cancel flag, the sandbox's halt.
struct Watch {
    /// When the run's limit is over; `None` when the limit is too long to be a time.
    deadline: Option<Instant>,
    cancel: Cancel,
    halt: Cancel,
}

impl Watch {
    /// Returns why the run must stop at `now`, if it must. Halting comes first: it says the
    /// most about what the caller can do (try again elsewhere).
    fn check(&self, now: Instant) -> Option<Stopped> {
        if self.halt.is_cancelled() {
            Some(Stopped::Halted)
        } else if self.cancel.is_cancelled() {
            Some(Stopped::Cancelled)
        } else if self.deadline.is_some_and(|deadline| now >= deadline) {
            Some(Stopped::Timeout)
        } else {
            None
        }
    }
}

/// The JavaScript sandbox. Cheap to clone; clones share the engine, the module and the cache.
#[derive(Clone)]
pub struct Sandbox {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Sandbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sandbox")
            .field("limits", &self.inner.limits)
            .finish_non_exhaustive()
    }
}

struct Inner {
    engine: Engine,
    /// The pre-initialized plugin with the WASI functions resolved: instantiation per run.
    instance_pre: InstancePre<RunState>,
    limits: Limits,
    cache: BytecodeCache,
    /// Wasmtime's compilation cache, when one is used: its hits and misses, for tests.
    compile_cache: Option<wasmtime::Cache>,
    /// Set by [`Sandbox::halt`]: every run and compile stops, and none starts again.
    halt: Cancel,
}

impl Sandbox {
    /// Creates a sandbox: configures Wasmtime, pre-initializes and compiles the plugin, and
    /// starts the thread that advances the epoch every 10 ms. Takes a second or two: do it once.
    pub fn new(limits: Limits) -> Result<Sandbox, SandboxError> {
        if limits.memory_bytes < (16 << 20) {
            return Err(SandboxError::InvalidLimits("memory_bytes is below 16 MiB"));
        }
        if limits.instances == 0 {
            return Err(SandboxError::InvalidLimits("instances is 0"));
        }
        let engine_error = |err: wasmtime::Error| SandboxError::Engine(format!("{err:#}"));

        let mut pool = PoolingAllocationConfig::default();
        pool.total_core_instances(limits.instances)
            .total_memories(limits.instances)
            .total_tables(limits.instances)
            .max_memory_size(limits.memory_bytes);
        let compile_cache = limits.compile_cache.open();
        let mut config = Config::new();
        config
            .cache(compile_cache.clone())
            .epoch_interruption(true)
            .allocation_strategy(InstanceAllocationStrategy::Pooling(pool));
        // A debug build (tests, development) compiles the plugin without Cranelift's
        // optimizations: every process that creates a sandbox starts sooner, and scripts run
        // slower, which only release figures measure.
        if cfg!(debug_assertions) {
            config.cranelift_opt_level(wasmtime::OptLevel::None);
        }
        let engine = Engine::new(&config).map_err(engine_error)?;

        let mut linker = Linker::new(&engine);
        wasi::add_to_linker(&mut linker).map_err(engine_error)?;
        let wasm = preinit::preinitialize(&limits, PLUGIN, compile_cache.clone())?;
        let module = Module::new(&engine, &wasm).map_err(engine_error)?;
        let instance_pre = linker.instantiate_pre(&module).map_err(engine_error)?;

        let inner = Arc::new(Inner {
            engine,
            instance_pre,
            cache: BytecodeCache::new(limits.cached_programs),
            compile_cache,
            limits,
            halt: Cancel::new(),
        });
        start_ticker(Arc::downgrade(&inner)).map_err(SandboxError::Ticker)?;
        Ok(Sandbox { inner })
    }

    /// How many of this sandbox's module compiles its compilation cache answered, and how
    /// many it had to compile and store; `None` without a cache.
    pub fn compile_cache_counts(&self) -> Option<(usize, usize)> {
        self.inner
            .compile_cache
            .as_ref()
            .map(|cache| (cache.cache_hits(), cache.cache_misses()))
    }

    /// Returns the limits this sandbox enforces.
    pub fn limits(&self) -> &Limits {
        &self.inner.limits
    }

    /// Stops every run and compile of this sandbox (and its clones) within a tick, and every
    /// later one before it starts, as [`RunError::Halted`]: what a server does when its
    /// shutdown grace is over. There is no way back.
    pub fn halt(&self) {
        self.inner.halt.cancel();
    }

    /// Returns whether [`Sandbox::halt`] was called.
    pub fn is_halted(&self) -> bool {
        self.inner.halt.is_cancelled()
    }

    /// Compiles a program (see [`program`]) to bytecode, or returns it from the cache (keyed by
    /// the SHA-256 of the text). A syntax error comes back as [`RunError::Compile`].
    pub fn compile(&self, program: &str) -> Result<Arc<Bytecode>, RunError> {
        let hash = program_hash(program);
        if let Some(bytecode) = self.inner.cache.get(&hash) {
            return Ok(bytecode);
        }
        let bytecode = Arc::new(self.compile_uncached(program)?);
        self.inner.cache.insert(hash, Arc::clone(&bytecode));
        Ok(bytecode)
    }

    /// Runs compiled bytecode in a fresh instance with `stdin` as its input (see [`request`]).
    pub fn run(
        &self,
        bytecode: &Bytecode,
        stdin: &[u8],
        options: RunOptions,
    ) -> Result<RunOutput, RunError> {
        let limits = &self.inner.limits;
        let setup = RunSetup {
            stdin: stdin.to_vec(),
            now: options.now,
            seed: options.seed,
            output_bytes: limits.output_bytes,
            log_bytes: limits.log_bytes,
            memory_bytes: limits.memory_bytes,
        };
        let (store, outcome) = self.call(setup, options.time, &options.cancel, |session| {
            let pointer = session.write_new(bytecode.as_bytes())?;
            let ret = session.call2("turnier-invoke", pointer, bytecode.as_bytes().len())?;
            let [status, message_ptr, message_len] = session.ret_area(ret)?;
            let message = session.read(message_ptr, message_len)?;
            Ok((status, message))
        });
        let state = store.into_data();
        match outcome {
            Err(error) => Err(classify(&error, &state)),
            Ok(_) if state.memory_exhausted => Err(RunError::OutOfMemory),
            Ok((0, _)) => {
                let (stdout, stderr) = state.into_output();
                Ok(RunOutput { stdout, stderr })
            }
            Ok((_, message)) => Err(RunError::Trap(String::from_utf8_lossy(&message).into())),
        }
    }

    fn compile_uncached(&self, program: &str) -> Result<Bytecode, RunError> {
        let limits = &self.inner.limits;
        let setup = RunSetup {
            stdin: Vec::new(),
            now: SystemTime::UNIX_EPOCH,
            seed: 0,
            output_bytes: limits.output_bytes,
            log_bytes: limits.log_bytes,
            memory_bytes: limits.memory_bytes,
        };
        // A compile is short (its own limit) and its bytecode is kept for every later caller, so
        // only a halt stops it, not one caller going away.
        let (store, outcome) = self.call(setup, limits.compile_time, &Cancel::new(), |session| {
            let pointer = session.write_new(program.as_bytes())?;
            let ret = session.call2("compile-src", pointer, program.len())?;
            let [status, bytes_ptr, bytes_len] = session.ret_area(ret)?;
            let bytes = session.read(bytes_ptr, bytes_len)?;
            Ok((status, bytes))
        });
        let state = store.into_data();
        match outcome {
            Err(error) => Err(classify(&error, &state)),
            Ok((0, bytes)) => Ok(Bytecode(bytes)),
            Ok((_, message)) => Err(RunError::Compile(
                String::from_utf8_lossy(&message).into_owned(),
            )),
        }
    }

    /// Starts a fresh instance with `setup` and a deadline of `time` from now, stopped early
    /// when `cancel` is set or the sandbox halts, and runs `body` on it. Returns the store (for
    /// what the run left behind) and the body's result.
    fn call<R>(
        &self,
        setup: RunSetup,
        time: Duration,
        cancel: &Cancel,
        body: impl FnOnce(&mut Session) -> wasmtime::Result<R>,
    ) -> (Store<RunState>, Result<R, CallError>) {
        let mut store = Store::new(&self.inner.engine, RunState::new(setup));
        store.limiter(|state| -> &mut dyn ResourceLimiter { state });
        // The limit counts from here: whatever the caller waited for (a slot, the compiled
        // script) came before, and instantiating from the pool takes microseconds.
        let watch = Watch {
            deadline: Instant::now().checked_add(time),
            cancel: cancel.clone(),
            halt: self.inner.halt.clone(),
        };
        if let Some(stopped) = watch.check(Instant::now()) {
            store.data_mut().stopped = Some(stopped);
            return (store, Err(CallError::Run(Trap::Interrupt.into())));
        }
        // Looked at every tick, by the real clock (see the module's documentation).
        store.epoch_deadline_callback(move |mut context| match watch.check(Instant::now()) {
            None => Ok(UpdateDeadline::Continue(1)),
            Some(stopped) => {
                context.data_mut().stopped = Some(stopped);
                Ok(UpdateDeadline::Interrupt)
            }
        });
        store.set_epoch_deadline(1);
        let instance = match self.inner.instance_pre.instantiate(&mut store) {
            Ok(instance) => instance,
            Err(error) => return (store, Err(CallError::Instantiate(error))),
        };
        let Some(memory) = instance.get_memory(&mut store, "memory") else {
            let missing = wasmtime::Error::msg("the plugin exports no memory");
            return (store, Err(CallError::Instantiate(missing)));
        };
        let mut session = Session {
            store,
            instance,
            memory,
        };
        let outcome = body(&mut session).map_err(CallError::Run);
        (session.store, outcome)
    }
}

/// A failure inside [`Sandbox::call`].
enum CallError {
    /// The instance could not be created.
    Instantiate(wasmtime::Error),
    /// The instance trapped or a host call failed.
    Run(wasmtime::Error),
}

/// Maps a failed call to the error the caller sees. The run's own records come first: a trap
/// is only the symptom when the run hit a limit.
fn classify(error: &CallError, state: &RunState) -> RunError {
    let error = match error {
        CallError::Instantiate(error) => return RunError::Unavailable(format!("{error:#}")),
        CallError::Run(error) => error,
    };
    if let Some(stopped) = state.stopped {
        return stopped.into();
    }
    if matches!(error.downcast_ref::<Trap>(), Some(Trap::Interrupt)) {
        return RunError::Timeout;
    }
    if state.memory_exhausted {
        return RunError::OutOfMemory;
    }
    if state.output_overflowed {
        return RunError::OutputTooLarge;
    }
    if let Some(code) = state.exit_code {
        return RunError::Trap(format!("the script exited with code {code}"));
    }
    match error.downcast_ref::<Trap>() {
        // QuickJS has no stack check of its own in WebAssembly: deep recursion ends here, at
        // Wasmtime's 512 KiB native stack limit (about 900 nested JavaScript calls).
        Some(Trap::StackOverflow) => {
            RunError::Trap("the call stack is exhausted (recursion too deep)".into())
        }
        Some(trap) => RunError::Trap(trap.to_string()),
        None => RunError::Trap(format!("{error:#}")),
    }
}

/// One instance during a compile or run.
struct Session {
    store: Store<RunState>,
    instance: Instance,
    memory: Memory,
}

impl Session {
    /// Allocates room for `bytes` in the instance (the plugin's `cabi_realloc`) and copies them
    /// there; returns the guest address.
    fn write_new(&mut self, bytes: &[u8]) -> wasmtime::Result<i32> {
        let realloc = self
            .instance
            .get_typed_func::<(i32, i32, i32, i32), i32>(&mut self.store, "cabi_realloc")?;
        let len = i32::try_from(bytes.len())?;
        let pointer = realloc.call(&mut self.store, (0, 0, 1, len))?;
        self.memory
            .write(&mut self.store, guest_address(pointer), bytes)?;
        Ok(pointer)
    }

    /// Calls an export taking a pointer and a length and returning a pointer.
    fn call2(&mut self, name: &str, pointer: i32, len: usize) -> wasmtime::Result<i32> {
        let func = self
            .instance
            .get_typed_func::<(i32, i32), i32>(&mut self.store, name)?;
        func.call(&mut self.store, (pointer, i32::try_from(len)?))
    }

    /// Reads the three `u32` of a return area (status, pointer, length).
    fn ret_area(&mut self, pointer: i32) -> wasmtime::Result<[u32; 3]> {
        let mut bytes = [0u8; 12];
        self.memory
            .read(&self.store, guest_address(pointer), &mut bytes)?;
        let word = |at: usize| {
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        };
        Ok([word(0), word(4), word(8)])
    }

    /// Copies `len` bytes out of the instance.
    fn read(&mut self, pointer: u32, len: u32) -> wasmtime::Result<Vec<u8>> {
        let mut bytes = vec![0u8; usize::try_from(len)?];
        self.memory
            .read(&self.store, usize::try_from(pointer)?, &mut bytes)?;
        Ok(bytes)
    }
}

/// A guest pointer (an `i32` holding an unsigned 32-bit address) as a host offset.
fn guest_address(pointer: i32) -> usize {
    pointer as u32 as usize
}

/// Starts the thread that advances the engine's epoch every [`EPOCH_TICK`]; it ends when the
/// sandbox (every clone) is gone.
fn start_ticker(inner: Weak<Inner>) -> std::io::Result<()> {
    std::thread::Builder::new()
        .name("sandbox-epoch".into())
        .spawn(move || {
            loop {
                std::thread::sleep(EPOCH_TICK);
                match inner.upgrade() {
                    Some(inner) => inner.engine.increment_epoch(),
                    None => break,
                }
            }
        })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn watch(time: Duration, started: Instant) -> Watch {
        Watch {
            deadline: started.checked_add(time),
            cancel: Cancel::new(),
            halt: Cancel::new(),
        }
    }

    #[test]
    fn a_run_stops_when_the_clock_passes_its_deadline_however_few_ticks_came() {
        let started = Instant::now();
        let watch = watch(Duration::from_millis(100), started);
        assert_eq!(watch.check(started), None);
        assert_eq!(watch.check(started + Duration::from_millis(99)), None);
        // What the ticker did in between does not matter: only the time.
        assert_eq!(
            watch.check(started + Duration::from_millis(100)),
            Some(Stopped::Timeout)
        );
    }

    #[test]
    fn a_limit_too_long_for_the_clock_never_runs_out() {
        let started = Instant::now();
        let watch = watch(Duration::MAX, started);
        assert_eq!(watch.deadline, None);
        assert_eq!(watch.check(started + Duration::from_secs(86_400)), None);
    }

    #[test]
    fn cancel_and_halt_stop_a_run_before_its_deadline_halt_first() {
        let started = Instant::now();
        let watch = watch(Duration::from_secs(60), started);
        watch.cancel.cancel();
        assert_eq!(watch.check(started), Some(Stopped::Cancelled));
        watch.halt.cancel();
        assert_eq!(watch.check(started), Some(Stopped::Halted));
    }

    #[test]
    fn rejects_limits_that_cannot_work() {
        let tiny = Limits {
            memory_bytes: 1 << 20,
            ..Limits::default()
        };
        assert!(matches!(
            Sandbox::new(tiny),
            Err(SandboxError::InvalidLimits(_))
        ));
        let none = Limits {
            instances: 0,
            ..Limits::default()
        };
        assert!(matches!(
            Sandbox::new(none),
            Err(SandboxError::InvalidLimits(_))
        ));
    }
}
