//! The WASI preview 1 calls the plugin imports, implemented for one sandboxed run.
//!
//! The plugin imports exactly ten functions (`random_get`, `environ_get`, `environ_sizes_get`,
//! `clock_time_get`, `fd_close`, `fd_fdstat_get`, `fd_read`, `fd_seek`, `fd_write`,
//! `proc_exit`); the linker defines only these, so a plugin needing more fails when the sandbox
//! is created, not during a run. Implementing them here instead of linking `wasmtime-wasi` keeps
//! the surface to what a script run needs: there is no filesystem, socket or environment code to
//! misconfigure (no preopens exist at all), every call is synchronous (safe on any thread, also
//! inside a tokio runtime), the clocks and random source are deterministic by construction,
//! and the build avoids the component model and an async runtime.
//!
//! File descriptors: 0 reads the run's input, 1 appends to the capped output (a write past the
//! cap ends the run), 2 appends to the capped log (the excess is dropped). Every other
//! descriptor is `EBADF`.

use std::time::{SystemTime, UNIX_EPOCH};

use wasmtime::{Caller, Extern, Linker, Memory, ResourceLimiter};

/// WASI errno values (preview 1, `wasi_snapshot_preview1`).
mod errno {
    pub const SUCCESS: i32 = 0;
    pub const BADF: i32 = 8;
    pub const FAULT: i32 = 21;
    pub const INVAL: i32 = 28;
    pub const SPIPE: i32 = 69;
}

/// The most iovecs one `fd_read`/`fd_write` may pass (POSIX's `IOV_MAX`).
const MAX_IOVECS: u32 = 1024;

/// The most table elements a run may grow to; the plugin's table never grows (Wizer forbids
/// `table.grow`), so this only bounds a misbehaving module.
const MAX_TABLE_ELEMENTS: usize = 100_000;

/// The value of the monotonic clock, frozen for a run: deterministic, and far from zero so that
/// code subtracting a duration from it does not underflow.
const MONOTONIC_NANOS: u64 = 1_000_000_000_000;

/// Everything one instance sees of the outside world, and what it left behind.
pub(super) struct RunState {
    stdin: Vec<u8>,
    stdin_read: usize,
    stdout: Vec<u8>,
    stdout_cap: usize,
    stderr: Vec<u8>,
    stderr_cap: usize,
    /// The wall clock for the whole run, in nanoseconds since the Unix epoch.
    now_nanos: u64,
    random: SplitMix64,
    memory_cap: usize,
    /// The run wrote past `stdout_cap`; the write trapped.
    pub(super) output_overflowed: bool,
    /// The run asked for more linear memory than `memory_cap`; the growth failed.
    pub(super) memory_exhausted: bool,
    /// The run called `proc_exit` with this code; the call trapped.
    pub(super) exit_code: Option<i32>,
    /// The run was stopped from outside (deadline, cancel, halt) by its epoch callback.
    pub(super) stopped: Option<super::Stopped>,
}

/// What a run is given: its input, the wall clock, the random seed and its caps.
pub(super) struct RunSetup {
    pub stdin: Vec<u8>,
    pub now: SystemTime,
    pub seed: u64,
    pub output_bytes: usize,
    pub log_bytes: usize,
    pub memory_bytes: usize,
}

impl RunState {
    /// Returns the state of a fresh run.
    pub(super) fn new(setup: RunSetup) -> RunState {
        let now_nanos = setup
            .now
            .duration_since(UNIX_EPOCH)
            .map(|since| u64::try_from(since.as_nanos()).unwrap_or(u64::MAX))
            .unwrap_or(0);
        RunState {
            stdin: setup.stdin,
            stdin_read: 0,
            stdout: Vec::new(),
            stdout_cap: setup.output_bytes,
            stderr: Vec::new(),
            stderr_cap: setup.log_bytes,
            now_nanos,
            random: SplitMix64(setup.seed),
            memory_cap: setup.memory_bytes,
            output_overflowed: false,
            memory_exhausted: false,
            exit_code: None,
            stopped: None,
        }
    }

    /// Returns what the run wrote to standard output and standard error.
    pub(super) fn into_output(self) -> (Vec<u8>, Vec<u8>) {
        (self.stdout, self.stderr)
    }
}

impl ResourceLimiter for RunState {
    fn memory_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        if desired > self.memory_cap {
            self.memory_exhausted = true;
            return Ok(false);
        }
        Ok(true)
    }

    fn table_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        Ok(desired <= MAX_TABLE_ELEMENTS)
    }
}

/// SplitMix64: a small, fast generator whose whole sequence follows from its seed, which is
/// all `Math.random` needs here (it is not for secrets).
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn fill(&mut self, bytes: &mut [u8]) {
        for chunk in bytes.chunks_mut(8) {
            let word = self.next().to_le_bytes();
            chunk.copy_from_slice(&word[..chunk.len()]);
        }
    }
}

/// A write past the output cap: ends the run (the sandbox reports `OutputTooLarge`).
#[derive(Debug, thiserror::Error)]
#[error("the script wrote more output than allowed")]
struct OutputLimit;

/// A call of `proc_exit`: ends the run.
#[derive(Debug, thiserror::Error)]
#[error("the script exited with code {0}")]
struct Exited(i32);

/// Defines the ten WASI preview 1 functions in `linker`.
pub(super) fn add_to_linker(linker: &mut Linker<RunState>) -> wasmtime::Result<()> {
    const WASI: &str = "wasi_snapshot_preview1";
    linker.func_wrap(WASI, "random_get", random_get)?;
    linker.func_wrap(
        WASI,
        "environ_get",
        |_: Caller<'_, RunState>, _: i32, _: i32| errno::SUCCESS,
    )?;
    linker.func_wrap(WASI, "environ_sizes_get", environ_sizes_get)?;
    linker.func_wrap(WASI, "clock_time_get", clock_time_get)?;
    linker.func_wrap(WASI, "fd_close", |_: Caller<'_, RunState>, fd: i32| {
        if is_stdio(fd) {
            errno::SUCCESS
        } else {
            errno::BADF
        }
    })?;
    linker.func_wrap(WASI, "fd_fdstat_get", fd_fdstat_get)?;
    linker.func_wrap(WASI, "fd_read", fd_read)?;
    linker.func_wrap(
        WASI,
        "fd_seek",
        |_: Caller<'_, RunState>, fd: i32, _: i64, _: i32, _: i32| {
            if is_stdio(fd) {
                errno::SPIPE
            } else {
                errno::BADF
            }
        },
    )?;
    linker.func_wrap(WASI, "fd_write", fd_write)?;
    linker.func_wrap(
        WASI,
        "proc_exit",
        |mut caller: Caller<'_, RunState>, code: i32| -> wasmtime::Result<()> {
            caller.data_mut().exit_code = Some(code);
            Err(wasmtime::Error::new(Exited(code)))
        },
    )?;
    Ok(())
}

fn is_stdio(fd: i32) -> bool {
    (0..=2).contains(&fd)
}

/// The instance's exported linear memory.
fn memory(caller: &mut Caller<'_, RunState>) -> Option<Memory> {
    match caller.get_export("memory") {
        Some(Extern::Memory(memory)) => Some(memory),
        _ => None,
    }
}

/// Returns `len` bytes of `data` at the guest address `ptr`, or `None` when out of bounds.
fn slice(data: &[u8], ptr: i32, len: u32) -> Option<&[u8]> {
    let start = usize::try_from(ptr as u32).ok()?;
    let end = start.checked_add(usize::try_from(len).ok()?)?;
    data.get(start..end)
}

fn slice_mut(data: &mut [u8], ptr: i32, len: u32) -> Option<&mut [u8]> {
    let start = usize::try_from(ptr as u32).ok()?;
    let end = start.checked_add(usize::try_from(len).ok()?)?;
    data.get_mut(start..end)
}

fn write_bytes(data: &mut [u8], ptr: i32, bytes: &[u8]) -> Option<()> {
    let len = u32::try_from(bytes.len()).ok()?;
    slice_mut(data, ptr, len)?.copy_from_slice(bytes);
    Some(())
}

fn read_u32(data: &[u8], ptr: i32) -> Option<u32> {
    let bytes = slice(data, ptr, 4)?;
    Some(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
}

/// Reads the iovec array at `iovs` (each `{ buf: u32, len: u32 }`).
fn iovecs(data: &[u8], iovs: i32, count: i32) -> Result<Vec<(i32, u32)>, i32> {
    let count = u32::try_from(count).map_err(|_| errno::INVAL)?;
    if count > MAX_IOVECS {
        return Err(errno::INVAL);
    }
    (0..count)
        .map(|index| {
            let at = (iovs as u32).checked_add(index * 8).ok_or(errno::FAULT)? as i32;
            let buf = read_u32(data, at).ok_or(errno::FAULT)?;
            let len = read_u32(data, at.wrapping_add(4)).ok_or(errno::FAULT)?;
            Ok((buf as i32, len))
        })
        .collect()
}

fn random_get(mut caller: Caller<'_, RunState>, buf: i32, len: i32) -> i32 {
    let Some(memory) = memory(&mut caller) else {
        return errno::FAULT;
    };
    let (data, state) = memory.data_and_store_mut(&mut caller);
    match slice_mut(data, buf, len as u32) {
        Some(target) => {
            state.random.fill(target);
            errno::SUCCESS
        }
        None => errno::FAULT,
    }
}

fn environ_sizes_get(mut caller: Caller<'_, RunState>, count: i32, size: i32) -> i32 {
    let Some(memory) = memory(&mut caller) else {
        return errno::FAULT;
    };
    let data = memory.data_mut(&mut caller);
    let written = write_bytes(data, count, &0u32.to_le_bytes())
        .and_then(|()| write_bytes(data, size, &0u32.to_le_bytes()));
    written.map_or(errno::FAULT, |()| errno::SUCCESS)
}

fn clock_time_get(mut caller: Caller<'_, RunState>, id: i32, _precision: i64, time: i32) -> i32 {
    const REALTIME: i32 = 0;
    const MONOTONIC: i32 = 1;
    let nanos = match id {
        REALTIME => caller.data().now_nanos,
        MONOTONIC => MONOTONIC_NANOS,
        _ => return errno::INVAL,
    };
    let Some(memory) = memory(&mut caller) else {
        return errno::FAULT;
    };
    let data = memory.data_mut(&mut caller);
    write_bytes(data, time, &nanos.to_le_bytes()).map_or(errno::FAULT, |()| errno::SUCCESS)
}

fn fd_fdstat_get(mut caller: Caller<'_, RunState>, fd: i32, stat: i32) -> i32 {
    const CHARACTER_DEVICE: u8 = 2;
    const RIGHT_FD_READ: u64 = 1 << 1;
    const RIGHT_FD_WRITE: u64 = 1 << 6;
    let rights = match fd {
        0 => RIGHT_FD_READ,
        1 | 2 => RIGHT_FD_WRITE,
        _ => return errno::BADF,
    };
    // struct fdstat { u8 filetype; u16 flags (at 2); u64 rights_base (at 8); u64 inheriting (at 16) }
    let mut bytes = [0u8; 24];
    bytes[0] = CHARACTER_DEVICE;
    bytes[8..16].copy_from_slice(&rights.to_le_bytes());
    let Some(memory) = memory(&mut caller) else {
        return errno::FAULT;
    };
    let data = memory.data_mut(&mut caller);
    write_bytes(data, stat, &bytes).map_or(errno::FAULT, |()| errno::SUCCESS)
}

fn fd_read(mut caller: Caller<'_, RunState>, fd: i32, iovs: i32, count: i32, nread: i32) -> i32 {
    if fd != 0 {
        return errno::BADF;
    }
    let Some(memory) = memory(&mut caller) else {
        return errno::FAULT;
    };
    let (data, state) = memory.data_and_store_mut(&mut caller);
    let buffers = match iovecs(data, iovs, count) {
        Ok(buffers) => buffers,
        Err(code) => return code,
    };
    let mut total: u32 = 0;
    for (buf, len) in buffers {
        let remaining = &state.stdin[state.stdin_read..];
        if remaining.is_empty() {
            break;
        }
        let take = remaining.len().min(len as usize);
        let Some(target) = slice_mut(data, buf, take as u32) else {
            return errno::FAULT;
        };
        target.copy_from_slice(&remaining[..take]);
        state.stdin_read += take;
        total += take as u32;
    }
    write_bytes(data, nread, &total.to_le_bytes()).map_or(errno::FAULT, |()| errno::SUCCESS)
}

fn fd_write(
    mut caller: Caller<'_, RunState>,
    fd: i32,
    iovs: i32,
    count: i32,
    nwritten: i32,
) -> wasmtime::Result<i32> {
    if fd != 1 && fd != 2 {
        return Ok(errno::BADF);
    }
    let Some(memory) = memory(&mut caller) else {
        return Ok(errno::FAULT);
    };
    let (data, state) = memory.data_and_store_mut(&mut caller);
    let buffers = match iovecs(data, iovs, count) {
        Ok(buffers) => buffers,
        Err(code) => return Ok(code),
    };
    let mut total: u32 = 0;
    for (buf, len) in buffers {
        let Some(bytes) = slice(data, buf, len) else {
            return Ok(errno::FAULT);
        };
        if fd == 1 {
            if state.stdout.len() + bytes.len() > state.stdout_cap {
                state.output_overflowed = true;
                return Err(wasmtime::Error::new(OutputLimit));
            }
            state.stdout.extend_from_slice(bytes);
        } else {
            // The log is for diagnostics only: past its cap it is cut, and the run goes on.
            let room = state.stderr_cap.saturating_sub(state.stderr.len());
            state
                .stderr
                .extend_from_slice(&bytes[..bytes.len().min(room)]);
        }
        total = total.saturating_add(len);
    }
    Ok(write_bytes(data, nwritten, &total.to_le_bytes()).map_or(errno::FAULT, |()| errno::SUCCESS))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_random_sequence_follows_from_the_seed() {
        let draw = |seed| {
            let mut random = SplitMix64(seed);
            let mut bytes = [0u8; 20];
            random.fill(&mut bytes);
            bytes
        };
        assert_eq!(draw(7), draw(7));
        assert_ne!(draw(7), draw(8));
    }

    /// A module importing one function of `wasi_snapshot_preview1`, `() -> ()`.
    fn module_importing(name: &str) -> Vec<u8> {
        let module = b"wasi_snapshot_preview1";
        let mut import = vec![1, module.len() as u8];
        import.extend_from_slice(module);
        import.push(name.len() as u8);
        import.extend_from_slice(name.as_bytes());
        import.extend_from_slice(&[0, 0]);
        let mut wasm = b"\0asm\x01\0\0\0".to_vec();
        wasm.extend_from_slice(&[1, 4, 1, 0x60, 0, 0]);
        wasm.extend_from_slice(&[2, import.len() as u8]);
        wasm.extend_from_slice(&import);
        wasm
    }

    #[test]
    fn defines_no_filesystem_socket_or_argument_calls() {
        let engine = wasmtime::Engine::default();
        let mut linker = Linker::new(&engine);
        add_to_linker(&mut linker).unwrap();
        for name in [
            "path_open",
            "fd_prestat_get",
            "sock_accept",
            "args_get",
            "poll_oneoff",
        ] {
            let module = wasmtime::Module::new(&engine, module_importing(name)).unwrap();
            assert!(
                linker.instantiate_pre(&module).is_err(),
                "{name} is defined"
            );
        }
        let module = wasmtime::Module::new(&engine, module_importing("environ_get")).unwrap();
        assert!(
            linker.instantiate_pre(&module).is_err(),
            "a mistyped import links"
        );
    }

    #[test]
    fn reads_iovecs_and_rejects_out_of_bounds_ones() {
        let mut data = vec![0u8; 64];
        data[16..20].copy_from_slice(&40u32.to_le_bytes());
        data[20..24].copy_from_slice(&5u32.to_le_bytes());
        assert_eq!(iovecs(&data, 16, 1), Ok(vec![(40, 5)]));
        assert_eq!(iovecs(&data, 60, 1), Err(errno::FAULT));
        assert_eq!(iovecs(&data, 16, 2000), Err(errno::INVAL));
        assert_eq!(slice(&data, 40, 30), None);
        assert_eq!(slice(&data, -1, 1), None);
    }
}
