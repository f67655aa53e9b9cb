//! The process's shutdown signal: SIGTERM or Ctrl-C, or a trigger from code (tests).
//!
//! Every server and worker takes a [`Shutdown`] and stops accepting new work when it fires;
//! what they do with work in flight is theirs to decide (the gRPC server drains it).

use tokio::sync::watch;

/// A clonable shutdown signal.
#[derive(Debug, Clone)]
pub struct Shutdown {
    sender: watch::Sender<bool>,
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
        let mut receiver = self.sender.subscribe();
        async move {
            // An error means the sender is gone, which only happens at exit: stop too.
            let _ = receiver.wait_for(|fired| *fired).await;
        }
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
    }
}
