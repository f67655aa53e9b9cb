//! The Javy plugin that runs Turnier's user scripts: QuickJS compiled to WebAssembly
//! (wasm32-wasip1), built from `javy-plugin-api`.
//!
//! The host (`services/scripts/src/sandbox`) pre-initializes this module with Wizer on
//! `initialize-runtime`, then uses it in two ways, each time in a fresh instance:
//!
//! - `compile-src` (from `javy-plugin-api`) turns a program's source into QuickJS bytecode;
//! - `turnier-invoke` (ours) evaluates that bytecode as a module. Unlike the crate's own
//!   `invoke`, which aborts the instance on an uncaught exception, it returns the exception's
//!   message to the host through a small return area, so the host can tell "the script threw at
//!   the top level" from "the instance trapped".
//!
//! What the script sees beyond the standard built-ins is two functions for the sandbox's own
//! prelude and driver: `__turnier_read_request()` (standard input, JSON, read as deep-frozen
//! values: see `frozen.rs`) and `__turnier_write_stdout(text)`. The prelude captures and deletes them before any user code
//! runs. `console.log` goes to standard error, so a script can never write the result line.
//! `Math.random` draws from WASI `random_get`, which the host seeds per run.
//!
//! Initialization also hardens the runtime (`harden.js`): no `eval`, no `Function`
//! constructors, every built-in frozen. It runs here, at pre-initialization, because walking
//! and freezing every intrinsic costs milliseconds that no run should pay.

mod frozen;

use std::io::{Read, Write};

use javy_plugin_api::Config;
use javy_plugin_api::javy::Runtime;
use javy_plugin_api::javy::quickjs::{self, Ctx, Exception, Object, Value, prelude::Func};

/// The JavaScript stack QuickJS may use before it throws `RangeError` (its own check on the
/// WebAssembly shadow stack). Kept below the 1 MiB shadow stack Rust reserves for wasm32, so
/// deep recursion ends as a catchable JavaScript error, not a trap.
const MAX_JS_STACK_BYTES: usize = 512 * 1024;

/// Returns the Javy runtime configuration: standard built-ins, `console` on standard error,
/// no `Javy.IO` (our own two functions replace it), no `TextEncoder`, no event loop.
fn config() -> Config {
    let mut config = Config::default();
    config
        .redirect_stdout_to_stderr(true)
        .javy_stream_io(false)
        .text_encoding(false)
        .max_stack_size(MAX_JS_STACK_BYTES);
    config
}

/// Adds the driver's I/O functions, replaces `Math.random`, then hardens the built-ins.
fn modify_runtime(runtime: Runtime) -> Runtime {
    runtime.context().with(|ctx| {
        let globals = ctx.globals();
        globals
            .set("__turnier_read_request", Func::from(read_request))
            .expect("defining __turnier_read_request");
        globals
            .set("__turnier_write_stdout", Func::from(write_stdout))
            .expect("defining __turnier_write_stdout");
        let math: Object = globals.get("Math").expect("Math is a standard built-in");
        math.set("random", Func::from(random))
            .expect("replacing Math.random");
        ctx.eval::<(), _>(include_str!("harden.js"))
            .expect("hardening the built-ins");
    });
    runtime
}

/// Reads all of standard input as JSON into deep-frozen values; throws `SyntaxError` when it
/// is not JSON.
fn read_request(ctx: Ctx<'_>) -> quickjs::Result<Value<'_>> {
    let mut text = Vec::new();
    std::io::stdin().read_to_end(&mut text)?;
    let raw = ctx.as_raw().as_ptr();
    // SAFETY: `raw` is the live context this function was called in, on this thread.
    match unsafe { frozen::read(raw, &text) } {
        // SAFETY: `read` returns a value of this context with one reference, handed over.
        Ok(value) => Ok(unsafe { Value::from_raw(ctx, value) }),
        Err(frozen::ReadError::Exception) => Err(quickjs::Error::Exception),
        Err(frozen::ReadError::Syntax(message)) => Err(Exception::throw_syntax(&ctx, &message)),
    }
}

/// Writes `text` to standard output and flushes it.
fn write_stdout(text: String) -> javy_plugin_api::javy::quickjs::Result<()> {
    let mut stdout = std::io::stdout();
    stdout.write_all(text.as_bytes())?;
    stdout.flush()?;
    Ok(())
}

#[link(wasm_import_module = "wasi_snapshot_preview1")]
unsafe extern "C" {
    /// WASI preview 1 `random_get`: fills `len` bytes at `buf`; returns an errno.
    #[link_name = "random_get"]
    fn wasi_random_get(buf: *mut u8, len: usize) -> u16;
}

/// Returns a number in [0, 1) from 53 random bits of WASI `random_get`.
///
/// Javy's own `Math.random` seeds a generator from the monotonic clock on first use; drawing
/// every number from the host instead makes a run's sequence depend only on the host's seed.
fn random() -> f64 {
    let mut bytes = [0u8; 8];
    // SAFETY: `bytes` is a valid, writable buffer of exactly the length passed.
    let errno = unsafe { wasi_random_get(bytes.as_mut_ptr(), bytes.len()) };
    if errno != 0 {
        return 0.0;
    }
    let bits = u64::from_le_bytes(bytes) >> 11;
    bits as f64 / (1u64 << 53) as f64
}

/// Initializes the Javy runtime; Wizer runs this once and snapshots the result.
#[unsafe(export_name = "initialize-runtime")]
pub extern "C" fn initialize_runtime() {
    javy_plugin_api::initialize_runtime(config, modify_runtime)
        .expect("initializing the Javy runtime");
}

/// The return area of `turnier-invoke`: status (0 ok, 1 exception), message pointer, length.
static mut INVOKE_RET_AREA: [u32; 3] = [0; 3];

/// The message of the last failed `turnier-invoke`, kept alive for the host to read.
static mut INVOKE_MESSAGE: Vec<u8> = Vec::new();

/// Evaluates the QuickJS bytecode at `bytecode_ptr` (from `compile-src`) as a module.
///
/// Returns a pointer to three `u32`: 0 on success, or 1 with the pointer and length of the
/// UTF-8 message of the exception that escaped the module.
///
/// # Safety
///
/// `bytecode_ptr` must point to `bytecode_len` readable bytes (allocated with `cabi_realloc`).
#[unsafe(export_name = "turnier-invoke")]
pub unsafe extern "C" fn turnier_invoke(
    bytecode_ptr: *const u8,
    bytecode_len: usize,
) -> *const u32 {
    // SAFETY: the caller guarantees the pointer and length describe readable memory.
    let bytecode = unsafe { std::slice::from_raw_parts(bytecode_ptr, bytecode_len) };
    let outcome = javy_plugin_api::invoke(bytecode, None);
    // SAFETY: the module is single-threaded and the host calls one export at a time, so
    // nothing else touches these statics while this function runs.
    unsafe {
        let area = &mut *std::ptr::addr_of_mut!(INVOKE_RET_AREA);
        let message = &mut *std::ptr::addr_of_mut!(INVOKE_MESSAGE);
        match outcome {
            Ok(()) => *area = [0, 0, 0],
            Err(error) => {
                *message = error.to_string().into_bytes();
                *area = [1, message.as_ptr() as u32, message.len() as u32];
            }
        }
        area.as_ptr()
    }
}
