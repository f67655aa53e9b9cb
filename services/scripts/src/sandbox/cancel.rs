//! Stopping a run from outside the thread that runs it: its caller went away, or its deadline
//! passed before the script's own limit.
//!
//! A run checks its [`Cancel`] at every epoch tick (see `Sandbox::call`), so a cancelled run
//! ends within a tick or two. Stopping every run of a sandbox at once is `Sandbox::halt`'s.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// A flag that stops the runs given it. Cheap to clone; clones share the flag.
#[derive(Debug, Clone, Default)]
pub struct Cancel {
    cancelled: Arc<AtomicBool>,
}

impl Cancel {
    /// Returns a flag that is not set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the flag: every run given it stops at its next tick, and a run not yet started
    /// does not start.
    pub fn cancel(&self) {
        // Release: pairs with the Acquire in `is_cancelled`, though the flag guards no data.
        self.cancelled.store(true, Ordering::Release);
    }

    /// Returns whether the flag is set.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Acquire)
    }

    /// Returns a guard that sets the flag when dropped: held by an async request handler, it
    /// stops the run when the handler's future is dropped (the client went away, or the
    /// server's deadline for the request passed).
    #[must_use = "the flag is set when the guard is dropped"]
    pub fn on_drop(&self) -> CancelOnDrop {
        CancelOnDrop(self.clone())
    }
}

/// Sets its [`Cancel`] when dropped (see [`Cancel::on_drop`]).
#[derive(Debug)]
pub struct CancelOnDrop(Cancel);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_the_flag() {
        let cancel = Cancel::new();
        let clone = cancel.clone();
        assert!(!clone.is_cancelled());
        cancel.cancel();
        assert!(clone.is_cancelled());
    }

    #[test]
    fn the_guard_sets_the_flag_when_dropped() {
        let cancel = Cancel::new();
        let guard = cancel.on_drop();
        assert!(!cancel.is_cancelled());
        drop(guard);
        assert!(cancel.is_cancelled());
    }
}
