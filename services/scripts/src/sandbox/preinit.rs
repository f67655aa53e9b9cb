//! Pre-initialization of the plugin, the way Javy's `init-plugin` does it: Wizer runs the
//! plugin's `initialize-runtime` once and snapshots the initialized memory into a new module,
//! so every run starts from a ready QuickJS runtime instead of building one.
//!
//! It runs in process when the sandbox is created, from the committed raw plugin, on an engine
//! of its own that compiles without optimizations (the instrumented module runs once, for
//! milliseconds) and with the same deterministic WASI as a run (empty input, the clock at the
//! Unix epoch, seed 0), so the snapshot is the same on every start. Initialization includes the
//! plugin's hardening of the built-ins (`plugin/src/harden.js`), so no run pays for it. Unlike
//! Javy, the snapshot drops the `initialize-runtime` export: Javy's CLI keeps it to recognise
//! plugins, and nothing here calls it again.

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};
use std::time::UNIX_EPOCH;

use wasmtime::{Config, Engine, Instance, Linker, Module, OptLevel, Store, Val};
use wasmtime_wizer::{InstanceState, SnapshotVal, ValType, Wizer};

use super::wasi::{self, RunSetup, RunState};
use super::{Limits, SandboxError};

/// The plugin's initialization export (see `plugin/src/lib.rs`).
const INIT_FUNC: &str = "initialize-runtime";

/// Returns the pre-initialized plugin module, built from the raw `plugin` bytes.
///
/// `cache` is Wasmtime's compilation cache, shared with the sandbox's own engine: Wizer's
/// instrumentation is deterministic, so a process that compiled the instrumented module before
/// finds it there.
pub(super) fn preinitialize(
    limits: &Limits,
    plugin: &[u8],
    cache: Option<wasmtime::Cache>,
) -> Result<Vec<u8>, SandboxError> {
    let failed =
        |stage: &str, err: wasmtime::Error| SandboxError::PreInit(format!("{stage}: {err:#}"));
    // The instrumented module runs once, for milliseconds: compiling it without optimizations
    // saves startup time and changes nothing in the snapshot (the memory and globals it leaves).
    let mut config = Config::new();
    config.cranelift_opt_level(OptLevel::None).cache(cache);
    let engine = Engine::new(&config).map_err(|err| failed("configuring the engine", err))?;
    let mut linker = Linker::new(&engine);
    wasi::add_to_linker(&mut linker).map_err(|err| failed("linking WASI", err))?;
    let mut wizer = Wizer::new();
    wizer.init_func(INIT_FUNC);
    let (context, instrumented) = wizer
        .instrument(plugin)
        .map_err(|err| failed("instrumenting the plugin", err))?;
    let module = Module::new(&engine, &instrumented)
        .map_err(|err| failed("compiling the instrumented plugin", err))?;

    let mut store = Store::new(
        &engine,
        RunState::new(RunSetup {
            stdin: Vec::new(),
            now: UNIX_EPOCH,
            seed: 0,
            output_bytes: limits.output_bytes,
            log_bytes: limits.log_bytes,
            memory_bytes: limits.memory_bytes,
        }),
    );
    store.limiter(|state| state);
    let instance = linker
        .instantiate(&mut store, &module)
        .map_err(|err| failed("instantiating the instrumented plugin", err))?;
    instance
        .get_typed_func::<(), ()>(&mut store, INIT_FUNC)
        .and_then(|init| init.call(&mut store, ()))
        .map_err(|err| failed("running initialize-runtime", err))?;

    let mut state = Snapshot {
        store: &mut store,
        instance,
        missing: None,
    };
    let snapshot = block_on(wizer.snapshot(&context, &mut state));
    if let Some(name) = state.missing {
        return Err(SandboxError::PreInit(format!(
            "the instrumented plugin does not export `{name}`"
        )));
    }
    snapshot.map_err(|err| failed("snapshotting the plugin", err))
}

/// Wizer's view of the initialized instance: its exported globals and memories.
struct Snapshot<'a> {
    store: &'a mut Store<RunState>,
    instance: Instance,
    /// An export Wizer asked for that the instance lacks (Wizer's instrumentation adds them
    /// all, so this stays `None` unless Wizer and the module disagree).
    missing: Option<String>,
}

impl InstanceState for Snapshot<'_> {
    async fn global_get(&mut self, name: &str, _type_hint: ValType) -> SnapshotVal {
        let value = self
            .instance
            .get_global(&mut *self.store, name)
            .map(|global| global.get(&mut *self.store));
        match value {
            Some(Val::I32(x)) => SnapshotVal::I32(x),
            Some(Val::I64(x)) => SnapshotVal::I64(x),
            Some(Val::F32(x)) => SnapshotVal::F32(x),
            Some(Val::F64(x)) => SnapshotVal::F64(x),
            Some(Val::V128(x)) => SnapshotVal::V128(x.as_u128()),
            _ => {
                self.missing = Some(name.to_owned());
                SnapshotVal::I32(0)
            }
        }
    }

    async fn memory_contents(&mut self, name: &str, contents: impl FnOnce(&[u8]) + Send) {
        match self.instance.get_memory(&mut *self.store, name) {
            Some(memory) => contents(memory.data(&*self.store)),
            None => {
                self.missing = Some(name.to_owned());
                contents(&[]);
            }
        }
    }
}

/// Runs a future that never waits on anything external to completion on this thread.
///
/// Wizer's snapshot is `async` only so that async hosts can read instance state; ours reads it
/// synchronously, so every poll makes progress and the loop ends.
fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    let mut context = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(output) = future.as_mut().poll(&mut context) {
            return output;
        }
        std::thread::yield_now();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_on_returns_the_output_of_a_ready_future() {
        assert_eq!(block_on(async { 40 + 2 }), 42);
    }
}
