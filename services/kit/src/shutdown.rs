//! The process's shutdown signal: SIGTERM or Ctrl-C, or a trigger from code (tests).
//!
//! Shutdown has two moments. When the signal fires, every server and worker stops accepting
//! new work; what they do with work in flight is theirs to decide (the gRPC server drains it).
//! When the grace period is over ([`Shutdown::expire`], [`Shutdown::expire_after`]), work
//! still in flight must stop now (the scripts service halts its sandbox), so that the process
//! exits before Kubernetes kills it.

use std::time::Duration;

use tokio::sync::watch;

/// A clonable shutdown signal.
#[derive(Debug, Clone)]
pub struct Shutdown {
    sender: watch::Sender<bool>,
    /// Set once the grace period is over.
    expired: watch::Sender<bool>,
}

impl Default for Shutdown {
    fn default() -> Self {
        Self::new()
    }
}

impl Shutdown {
    /// Creates a signal that fires only when [`Shutdown::trigger`] is called.
    pub fn new() -> Self {
        Self {
            sender: watch::Sender::new(false),
            expired: watch::Sender::new(false),
        }
    }

    /// Creates a signal that also fires on SIGTERM (what Kubernetes sends) or SIGINT (Ctrl-C).
    /// Call inside the Tokio runtime.
    pub fn on_signals() -> std::io::Result<Self> {
        use tokio::signal::unix::{SignalKind, signal};
        let shutdown = Self::new();
        let mut term = signal(SignalKind::terminate())?;
        let mut int = signal(SignalKind::interrupt())?;
        let trigger = shutdown.clone();
        tokio::spawn(async move {
            let name = tokio::select! {
                _ = term.recv() => "SIGTERM",
                _ = int.recv() => "SIGINT",
            };
            tracing::info!(signal = name, "shutting down");
            trigger.trigger();
        });
        Ok(shutdown)
    }

    /// Fires the signal. Calling it again does nothing.
    pub fn trigger(&self) {
        self.sender.send_replace(true);
    }

    /// Returns whether the signal has fired.
    pub fn is_triggered(&self) -> bool {
        *self.sender.borrow()
    }

    /// Resolves once the signal has fired (at once if it already has).
    pub fn wait(&self) -> impl std::future::Future<Output = ()> + Send + 'static {
        wait_for(&self.sender)
    }

    /// Ends the grace period now (firing the signal too, if it has not fired): whatever is
    /// still in flight must stop. Calling it again does nothing.
    pub fn expire(&self) {
        self.trigger();
        self.expired.send_replace(true);
    }

    /// Ends the grace period `grace` after the signal fires. Call inside the Tokio runtime;
    /// calling it more than once ends the grace at the earliest of the times given.
    pub fn expire_after(&self, grace: Duration) {
        let shutdown = self.clone();
        tokio::spawn(async move {
            shutdown.wait().await;
            tokio::select! {
                () = tokio::time::sleep(grace) => {
                    tracing::warn!(grace_ms = grace.as_millis() as u64, "the shutdown grace period is over");
                    shutdown.expire();
                }
                // Ended by someone else: nothing left to time.
                () = shutdown.wait_expired() => {}
            }
        });
    }

    /// Returns whether the grace period is over.
    pub fn is_expired(&self) -> bool {
        *self.expired.borrow()
    }

    /// Resolves once the grace period is over (at once if it already is).
    pub fn wait_expired(&self) -> impl std::future::Future<Output = ()> + Send + 'static {
        wait_for(&self.expired)
    }
}

/// Resolves once `flag` is set.
fn wait_for(flag: &watch::Sender<bool>) -> impl std::future::Future<Output = ()> + Send + 'static {
    let mut receiver = flag.subscribe();
    async move {
        // An error means the sender is gone, which only happens at exit: stop too.
        let _ = receiver.wait_for(|set| *set).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn waiters_before_and_after_the_trigger_both_resolve() {
        let shutdown = Shutdown::new();
        let early = tokio::spawn(shutdown.wait());
        assert!(!shutdown.is_triggered());
        shutdown.trigger();
        early.await.expect("the early waiter finishes");
        shutdown.wait().await;
        assert!(shutdown.is_triggered());
        assert!(!shutdown.is_expired(), "the grace is not over yet");
    }

    #[tokio::test(start_paused = true)]
    async fn the_grace_ends_its_length_after_the_signal() {
        let shutdown = Shutdown::new();
        shutdown.expire_after(Duration::from_secs(25));
        let expired = tokio::spawn(shutdown.wait_expired());
        // Paused time: the runtime jumps ahead whenever it is idle, so a grace that started
        // before the signal would be over by now.
        tokio::time::sleep(Duration::from_secs(60)).await;
        assert!(!shutdown.is_expired(), "no signal, no grace running");

        let fired = tokio::time::Instant::now();
        shutdown.trigger();
        expired.await.expect("the waiter finishes");
        assert!(shutdown.is_expired());
        let grace = fired.elapsed();
        assert!(
            grace >= Duration::from_secs(25) && grace < Duration::from_secs(26),
            "{grace:?}"
        );
    }

    #[tokio::test]
    async fn expiring_also_fires_the_signal() {
        let shutdown = Shutdown::new();
        shutdown.expire();
        shutdown.wait().await;
        shutdown.wait_expired().await;
        assert!(shutdown.is_triggered() && shutdown.is_expired());
    }
}
