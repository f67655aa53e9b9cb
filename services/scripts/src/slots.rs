//! Waiting for sandbox slots: the fair admission policy (`domain::admission`) behind a lock,
//! a wait bounded by the caller's time, and permits that give their slots back when dropped.
//!
//! A permit lives as long as the run it admits, on the run's blocking thread, so a slot stays
//! taken until the run has really stopped, even when the request that asked for it is gone.
//! The numbers are published as metrics: `turnier_script_slots_held`,
//! `turnier_script_requests_waiting` and `turnier_script_requests_refused_total{reason}`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use kit::caller::CallerKey;
use tokio::sync::oneshot;

use crate::domain::admission::{Admission, Decision, Limits, Refusal, Ticket};

/// Why a request got no slot: the sandbox is busy for this caller. Each says so in its own
/// words; all are `RESOURCE_EXHAUSTED`, reason `busy`, with a retry hint.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Busy {
    /// The caller holds its share of the runs and has its share waiting.
    #[error(
        "the sandbox is busy: you already have {share} runs in it and {share} waiting, the most one caller may"
    )]
    OverShare {
        /// The caller's share.
        share: usize,
    },
    /// The queue is full.
    #[error("the sandbox is busy: {waiting} requests are waiting already")]
    QueueFull {
        /// Requests waiting.
        waiting: usize,
    },
    /// No slot came free within the time the request could wait.
    #[error("the sandbox is busy: no run ended within the {} ms this request could wait", .0.as_millis())]
    WaitedTooLong(Duration),
}

impl Busy {
    /// Returns the refusal's name in the `refused` metric.
    pub fn metric_reason(&self) -> &'static str {
        match self {
            Busy::OverShare { .. } => "over_share",
            Busy::QueueFull { .. } => "queue_full",
            Busy::WaitedTooLong(_) => "waited_too_long",
        }
    }
}

impl From<Refusal> for Busy {
    fn from(refusal: Refusal) -> Self {
        match refusal {
            Refusal::OverShare { share } => Busy::OverShare { share },
            Refusal::QueueFull { waiting } => Busy::QueueFull { waiting },
        }
    }
}

/// The sandbox's slots, shared fairly between callers. Cheap to clone; clones share the slots.
#[derive(Debug, Clone)]
pub struct Slots {
    shared: Arc<Mutex<State>>,
}

#[derive(Debug)]
struct State {
    admission: Admission<CallerKey>,
    /// How to wake each waiting request once it is granted.
    wakers: HashMap<Ticket, oneshot::Sender<()>>,
}

impl State {
    /// Wakes the requests just granted, and publishes the new numbers.
    fn granted(&mut self, tickets: Vec<Ticket>) {
        for ticket in tickets {
            if let Some(waker) = self.wakers.remove(&ticket) {
                // A waiter that is gone finds its grant when it withdraws, and releases it.
                let _ = waker.send(());
            }
        }
        self.publish();
    }

    fn publish(&self) {
        let limits = self.admission.limits();
        metrics::gauge!("turnier_script_slots_held")
            .set((limits.slots - self.admission.free()) as f64);
        metrics::gauge!("turnier_script_requests_waiting").set(self.admission.waiting() as f64);
    }
}

/// Slots held for one run; given back when dropped.
#[derive(Debug)]
pub struct Permit {
    shared: Arc<Mutex<State>>,
    caller: CallerKey,
    slots: usize,
}

impl Permit {
    /// Returns how many slots this permit holds: what the run may use at once.
    pub fn slots(&self) -> usize {
        self.slots
    }
}

impl Drop for Permit {
    fn drop(&mut self) {
        let mut state = lock(&self.shared);
        let tickets = state.admission.release(&self.caller, self.slots);
        state.granted(tickets);
    }
}

/// A request in the queue, withdrawn if it is dropped before it is granted (the caller went
/// away); a grant that arrived in between is given back.
struct Waiting {
    shared: Arc<Mutex<State>>,
    ticket: Ticket,
    /// `Some` until the wait is over one way or the other.
    caller: Option<CallerKey>,
    slots: usize,
}

impl Waiting {
    /// Ends the wait: the permit when the request was granted (even at the last moment),
    /// `None` when it was still waiting and is now withdrawn. Ends it once; later calls give
    /// `None`.
    fn end(&mut self) -> Option<Permit> {
        let caller = self.caller.take()?;
        let mut state = lock(&self.shared);
        if state.admission.withdraw(self.ticket) {
            state.wakers.remove(&self.ticket);
            state.publish();
            return None;
        }
        drop(state);
        Some(Permit {
            shared: Arc::clone(&self.shared),
            caller,
            slots: self.slots,
        })
    }
}

impl Drop for Waiting {
    fn drop(&mut self) {
        // Dropping the permit gives back a grant that came in the meantime.
        drop(self.end());
    }
}

fn lock(shared: &Mutex<State>) -> MutexGuard<'_, State> {
    // Every update keeps the policy consistent before it can panic (it does not): a poisoned
    // lock still holds a usable state.
    shared.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Slots {
    /// Returns the slots of `limits`, all free.
    pub fn new(limits: Limits) -> Self {
        let state = State {
            admission: Admission::new(limits)
                .with_anonymous(|caller: &CallerKey| !caller.is_account()),
            wakers: HashMap::new(),
        };
        state.publish();
        Self {
            shared: Arc::new(Mutex::new(state)),
        }
    }

    /// Returns the limits in force.
    pub fn limits(&self) -> Limits {
        lock(&self.shared).admission.limits()
    }

    /// Returns the slots held right now.
    pub fn held(&self) -> usize {
        let state = lock(&self.shared);
        state.admission.limits().slots - state.admission.free()
    }

    /// Returns the requests waiting right now.
    pub fn waiting(&self) -> usize {
        lock(&self.shared).admission.waiting()
    }

    /// Gets `wanted` slots for `caller` (at most its share; [`Permit::slots`] says how many),
    /// waiting at most `wait` for them in the queue.
    pub async fn acquire(
        &self,
        caller: CallerKey,
        wanted: usize,
        wait: Duration,
    ) -> Result<Permit, Busy> {
        let (waiting, granted) = {
            let mut state = lock(&self.shared);
            let slots = state.admission.fit(&caller, wanted);
            let decision = state.admission.request(caller.clone(), slots);
            let ticket = match decision {
                Decision::Granted => {
                    state.publish();
                    return Ok(Permit {
                        shared: Arc::clone(&self.shared),
                        caller,
                        slots,
                    });
                }
                Decision::Refused(refusal) => return Err(refused(refusal.into())),
                Decision::Queued(ticket) => ticket,
            };
            let (waker, granted) = oneshot::channel();
            state.wakers.insert(ticket, waker);
            state.publish();
            let waiting = Waiting {
                shared: Arc::clone(&self.shared),
                ticket,
                caller: Some(caller),
                slots,
            };
            (waiting, granted)
        };
        // Woken, or out of time: `finish` tells which under the lock, so a grant that races
        // with the end of the wait is never lost.
        let mut waiting = waiting;
        let _ = tokio::time::timeout(wait, granted).await;
        waiting
            .end()
            .ok_or_else(|| refused(Busy::WaitedTooLong(wait)))
    }
}

/// Counts a refusal and returns it.
fn refused(busy: Busy) -> Busy {
    metrics::counter!("turnier_script_requests_refused_total", "reason" => busy.metric_reason())
        .increment(1);
    busy
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(name: &str) -> CallerKey {
        CallerKey::from(name.parse::<std::net::IpAddr>().expect("an address"))
    }

    fn two_slots_one_each() -> Slots {
        Slots::new(Limits {
            slots: 2,
            share: 1,
            queue: 2,
        })
    }

    #[tokio::test(start_paused = true)]
    async fn a_waiter_gets_the_slot_its_own_run_gives_back() {
        let slots = two_slots_one_each();
        let first = slots
            .acquire(key("10.0.0.1"), 1, Duration::ZERO)
            .await
            .expect("free");
        let waiter = {
            let slots = slots.clone();
            tokio::spawn(async move {
                slots
                    .acquire(key("10.0.0.1"), 1, Duration::from_secs(5))
                    .await
            })
        };
        while slots.waiting() == 0 {
            tokio::task::yield_now().await;
        }
        drop(first);
        let second = waiter.await.expect("no panic").expect("granted");
        assert_eq!(second.slots(), 1);
        assert_eq!(slots.held(), 1);
    }

    #[tokio::test(start_paused = true)]
    async fn a_wait_that_runs_out_is_busy_and_leaves_the_queue() {
        let slots = two_slots_one_each();
        let _held = slots
            .acquire(key("10.0.0.1"), 1, Duration::ZERO)
            .await
            .expect("free");
        let busy = slots
            .acquire(key("10.0.0.1"), 1, Duration::from_millis(300))
            .await
            .expect_err("its only slot stays taken");
        assert_eq!(busy, Busy::WaitedTooLong(Duration::from_millis(300)));
        assert_eq!(slots.waiting(), 0);
        // Someone else still gets the other slot at once.
        slots
            .acquire(key("10.0.0.2"), 1, Duration::ZERO)
            .await
            .expect("the other slot");
    }

    #[tokio::test(start_paused = true)]
    async fn a_caller_who_goes_away_while_waiting_frees_its_place_and_never_holds_a_slot() {
        let slots = two_slots_one_each();
        let first = slots
            .acquire(key("10.0.0.1"), 1, Duration::ZERO)
            .await
            .expect("free");
        let gone = {
            let slots = slots.clone();
            tokio::spawn(async move {
                slots
                    .acquire(key("10.0.0.1"), 1, Duration::from_secs(60))
                    .await
            })
        };
        while slots.waiting() == 0 {
            tokio::task::yield_now().await;
        }
        gone.abort();
        let _ = gone.await;
        assert_eq!(slots.waiting(), 0);
        drop(first);
        assert_eq!(slots.held(), 0, "the slot went to nobody");
    }

    #[tokio::test]
    async fn refusals_say_why() {
        let slots = Slots::new(Limits {
            slots: 1,
            share: 1,
            queue: 0,
        });
        let _held = slots
            .acquire(key("10.0.0.1"), 1, Duration::ZERO)
            .await
            .expect("free");
        let busy = slots
            .acquire(key("10.0.0.2"), 1, Duration::from_secs(1))
            .await
            .expect_err("no queue");
        assert_eq!(busy, Busy::QueueFull { waiting: 0 });
        assert_eq!(
            busy.to_string(),
            "the sandbox is busy: 0 requests are waiting already"
        );
    }
}
