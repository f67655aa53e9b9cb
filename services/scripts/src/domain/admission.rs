//! Fair admission to the sandbox: who gets one of the few slots a run needs, who waits, and who
//! is told at once that the sandbox is busy.
//!
//! Every caller may hold at most its share of the slots, so one caller's endless loops can
//! never take them all, and may have at most as many requests waiting as its share; the whole
//! queue is bounded too. A request that cannot be granted now waits in the queue if there is
//! room, and is refused otherwise: a short queue and a clear answer, never a long wait. When a
//! slot frees, the queue is scanned in arrival order and every waiter that now fits is granted.
//!
//! This is the policy alone, with no clock and no waiting: `crate::slots` waits (bounded by
//! the request's deadline) and turns its decisions into held permits.

use std::collections::{HashMap, VecDeque};
use std::hash::Hash;

/// The numbers the policy works with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Slots in all (sandbox runs at the same time).
    pub slots: usize,
    /// Slots one caller may hold at once.
    pub share: usize,
    /// Requests that may wait at once, over all callers.
    pub queue: usize,
}

impl Limits {
    /// Returns the share of an anonymous caller (one known by its address only, so one that
    /// can be many people behind one address, or one person behind many): half the share, at
    /// least one slot.
    pub fn anonymous_share(&self) -> usize {
        (self.share / 2).max(1)
    }

    /// Returns the default share of `slots`: half of them, at least one, so that two busy
    /// callers leave each other room and a single slot still serves someone.
    pub fn default_share(slots: usize) -> usize {
        (slots / 2).max(1)
    }
}

/// A waiting request, named so that it can be woken or withdrawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Ticket(u64);

/// What [`Admission::request`] decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// The slots are the caller's now; give them back with [`Admission::release`].
    Granted,
    /// The request waits; [`Admission::release`] names it when it is granted.
    Queued(Ticket),
    /// The request is refused: the sandbox is busy for this caller.
    Refused(Refusal),
}

/// Why a request was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The caller already holds its share and has its share of requests waiting.
    OverShare {
        /// The caller's share, in slots.
        share: usize,
    },
    /// The queue is full.
    QueueFull {
        /// Requests waiting, over all callers.
        waiting: usize,
    },
}

/// A request in the queue.
#[derive(Debug, Clone)]
struct Waiter<K> {
    ticket: Ticket,
    caller: K,
    slots: usize,
}

/// Who holds the slots and who waits for them, by caller key `K`.
///
/// Invariant: after every call, no waiter could be granted (it would not fit), so a new request
/// that fits is granted at once without passing anyone who could have run. A request for
/// several slots may wait while single-slot ones take the slots that free one at a time; it
/// gives up at its deadline like any other.
#[derive(Debug, Clone)]
pub struct Admission<K> {
    limits: Limits,
    /// Whether a caller is anonymous (known by its address only): its share is half the
    /// share, at least one slot ([`Limits::anonymous_share`]).
    anonymous: fn(&K) -> bool,
    free: usize,
    held: HashMap<K, usize>,
    waiting: VecDeque<Waiter<K>>,
    next_ticket: u64,
}

impl<K: Eq + Hash + Clone> Admission<K> {
    /// Returns a policy with every slot free. A share of 0 or more than `slots` is taken as 1
    /// or `slots`; `slots` of 0 is taken as 1.
    pub fn new(limits: Limits) -> Self {
        let slots = limits.slots.max(1);
        let limits = Limits {
            slots,
            share: limits.share.clamp(1, slots),
            queue: limits.queue,
        };
        Self {
            limits,
            anonymous: |_| false,
            free: slots,
            held: HashMap::new(),
            waiting: VecDeque::new(),
            next_ticket: 0,
        }
    }

    /// Returns the policy with callers `anonymous` says are anonymous held to the smaller share
    /// ([`Limits::anonymous_share`]).
    #[must_use]
    pub fn with_anonymous(mut self, anonymous: fn(&K) -> bool) -> Self {
        self.anonymous = anonymous;
        self
    }

    /// Returns the share of `caller`, in slots.
    pub fn share_of(&self, caller: &K) -> usize {
        if (self.anonymous)(caller) {
            self.limits.anonymous_share()
        } else {
            self.limits.share
        }
    }

    /// Returns the limits in force (after [`Admission::new`]'s corrections).
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Returns how many slots a request of `caller` for `wanted` gets: at least one, at most
    /// its share.
    pub fn fit(&self, caller: &K, wanted: usize) -> usize {
        wanted.clamp(1, self.share_of(caller))
    }

    /// Returns the slots nobody holds.
    pub fn free(&self) -> usize {
        self.free
    }

    /// Returns the slots `caller` holds.
    pub fn held_by(&self, caller: &K) -> usize {
        self.held.get(caller).copied().unwrap_or(0)
    }

    /// Returns the requests waiting, over all callers.
    pub fn waiting(&self) -> usize {
        self.waiting.len()
    }

    /// Asks for `slots` slots for `caller` (taken as [`Admission::fit`] says; the caller must
    /// later release exactly that many).
    pub fn request(&mut self, caller: K, slots: usize) -> Decision {
        let slots = self.fit(&caller, slots);
        if self.fits(&caller, slots) {
            self.take(caller, slots);
            return Decision::Granted;
        }
        let waiting_for_caller = self.waiting.iter().filter(|w| w.caller == caller).count();
        let share = self.share_of(&caller);
        if waiting_for_caller >= share {
            return Decision::Refused(Refusal::OverShare { share });
        }
        if self.waiting.len() >= self.limits.queue {
            return Decision::Refused(Refusal::QueueFull {
                waiting: self.waiting.len(),
            });
        }
        let ticket = Ticket(self.next_ticket);
        self.next_ticket += 1;
        self.waiting.push_back(Waiter {
            ticket,
            caller,
            slots,
        });
        Decision::Queued(ticket)
    }

    /// Gives back `slots` slots `caller` held, and grants every waiter that now fits, in
    /// arrival order; returns their tickets, in that order.
    pub fn release(&mut self, caller: &K, slots: usize) -> Vec<Ticket> {
        let slots = self.fit(caller, slots);
        if let Some(held) = self.held.get_mut(caller) {
            let given = slots.min(*held);
            *held -= given;
            self.free = (self.free + given).min(self.limits.slots);
            if *held == 0 {
                self.held.remove(caller);
            }
        }
        let mut granted = Vec::new();
        let mut at = 0;
        while at < self.waiting.len() {
            let waiter = &self.waiting[at];
            if self.fits(&waiter.caller, waiter.slots) {
                if let Some(waiter) = self.waiting.remove(at) {
                    granted.push(waiter.ticket);
                    self.take(waiter.caller, waiter.slots);
                }
            } else {
                at += 1;
            }
        }
        granted
    }

    /// Takes a waiting request out of the queue (its caller gave up); returns whether it was
    /// still waiting. `false` means it was granted already and its slots must be released.
    pub fn withdraw(&mut self, ticket: Ticket) -> bool {
        match self.waiting.iter().position(|w| w.ticket == ticket) {
            Some(at) => {
                self.waiting.remove(at);
                true
            }
            None => false,
        }
    }

    fn fits(&self, caller: &K, slots: usize) -> bool {
        self.free >= slots && self.held_by(caller) + slots <= self.share_of(caller)
    }

    fn take(&mut self, caller: K, slots: usize) {
        self.free -= slots;
        *self.held.entry(caller).or_insert(0) += slots;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Four slots, two per caller, four waiting: the default on a 2-core machine.
    fn four_slots() -> Admission<&'static str> {
        Admission::new(Limits {
            slots: 4,
            share: 2,
            queue: 4,
        })
    }

    fn queued(decision: Decision) -> Ticket {
        match decision {
            Decision::Queued(ticket) => ticket,
            other => panic!("expected to wait, got {other:?}"),
        }
    }

    #[test]
    fn one_caller_gets_its_share_then_waits_then_is_refused() {
        let mut admission = four_slots();
        assert_eq!(admission.request("flood", 1), Decision::Granted);
        assert_eq!(admission.request("flood", 1), Decision::Granted);
        queued(admission.request("flood", 1));
        queued(admission.request("flood", 1));
        assert_eq!(
            admission.request("flood", 1),
            Decision::Refused(Refusal::OverShare { share: 2 })
        );
        assert_eq!(admission.held_by(&"flood"), 2);
        assert_eq!(admission.free(), 2);
    }

    #[test]
    fn an_anonymous_caller_gets_half_a_share_and_an_account_the_whole() {
        let mut admission = four_slots().with_anonymous(|key| key.starts_with("addr:"));
        assert_eq!(admission.share_of(&"addr:203.0.113.7"), 1);
        assert_eq!(admission.share_of(&"account:acc_1"), 2);
        assert_eq!(admission.fit(&"addr:203.0.113.7", 3), 1);
        assert_eq!(admission.request("addr:203.0.113.7", 1), Decision::Granted);
        queued(admission.request("addr:203.0.113.7", 1));
        assert_eq!(
            admission.request("addr:203.0.113.7", 1),
            Decision::Refused(Refusal::OverShare { share: 1 })
        );
        assert_eq!(admission.request("account:acc_1", 1), Decision::Granted);
        assert_eq!(admission.request("account:acc_1", 1), Decision::Granted);
        assert_eq!(admission.free(), 1);
        assert_eq!(
            Limits {
                slots: 1,
                share: 1,
                queue: 1
            }
            .anonymous_share(),
            1
        );
    }

    #[test]
    fn another_caller_runs_at_once_while_one_floods() {
        let mut admission = four_slots();
        for _ in 0..40 {
            let _ = admission.request("flood", 1);
        }
        assert_eq!(admission.request("player", 1), Decision::Granted);
        assert_eq!(admission.request("organizer", 1), Decision::Granted);
        assert_eq!(admission.free(), 0);
    }

    #[test]
    fn a_full_queue_refuses_newcomers() {
        let mut admission = Admission::new(Limits {
            slots: 2,
            share: 1,
            queue: 2,
        });
        assert_eq!(admission.request("a", 1), Decision::Granted);
        assert_eq!(admission.request("b", 1), Decision::Granted);
        queued(admission.request("c", 1));
        queued(admission.request("d", 1));
        assert_eq!(
            admission.request("e", 1),
            Decision::Refused(Refusal::QueueFull { waiting: 2 })
        );
    }

    #[test]
    fn no_queue_means_busy_at_once() {
        let mut admission = Admission::new(Limits {
            slots: 1,
            share: 1,
            queue: 0,
        });
        assert_eq!(admission.request("a", 1), Decision::Granted);
        assert_eq!(
            admission.request("b", 1),
            Decision::Refused(Refusal::QueueFull { waiting: 0 })
        );
    }

    #[test]
    fn a_release_grants_the_waiters_that_fit_in_arrival_order() {
        let mut admission = four_slots();
        admission.request("flood", 1);
        admission.request("flood", 1);
        admission.request("a", 1);
        admission.request("b", 1);
        let flood = queued(admission.request("flood", 1));
        let c = queued(admission.request("c", 1));
        // `a` is done: the flood still holds its share, so `c`, behind it, gets the slot.
        assert_eq!(admission.release(&"a", 1), vec![c]);
        // One of the flood's runs is done: its own waiter gets the slot.
        assert_eq!(admission.release(&"flood", 1), vec![flood]);
        assert_eq!(admission.held_by(&"flood"), 2);
        assert_eq!(admission.waiting(), 0);
    }

    #[test]
    fn a_withdrawn_waiter_is_never_granted() {
        let mut admission = Admission::new(Limits {
            slots: 1,
            share: 1,
            queue: 4,
        });
        admission.request("a", 1);
        let b = queued(admission.request("b", 1));
        let c = queued(admission.request("c", 1));
        assert!(admission.withdraw(b));
        assert!(!admission.withdraw(b), "only once");
        assert_eq!(admission.release(&"a", 1), vec![c]);
        assert!(
            !admission.withdraw(c),
            "granted already: release it instead"
        );
    }

    #[test]
    fn a_request_for_many_slots_gets_at_most_a_share() {
        let mut admission = four_slots();
        assert_eq!(admission.fit(&"caller", 4), 2);
        assert_eq!(admission.fit(&"caller", 0), 1);
        assert_eq!(admission.request("pool", 4), Decision::Granted);
        assert_eq!(admission.held_by(&"pool"), 2);
        assert_eq!(admission.release(&"pool", 4), Vec::<Ticket>::new());
        assert_eq!(admission.free(), 4);
    }

    #[test]
    fn a_request_for_several_slots_waits_until_enough_are_free() {
        let mut admission = four_slots();
        admission.request("a", 2);
        admission.request("b", 1);
        let pool = queued(admission.request("pool", 2));
        // One slot is free: a single-slot request takes it (the documented trade-off).
        assert_eq!(admission.request("c", 1), Decision::Granted);
        assert_eq!(admission.release(&"b", 1), Vec::<Ticket>::new());
        assert_eq!(admission.free(), 1);
        assert_eq!(admission.release(&"a", 2), vec![pool]);
        assert_eq!(admission.held_by(&"pool"), 2);
    }

    #[test]
    fn limits_out_of_range_are_brought_into_it() {
        let admission: Admission<&str> = Admission::new(Limits {
            slots: 0,
            share: 5,
            queue: 0,
        });
        assert_eq!(
            admission.limits(),
            Limits {
                slots: 1,
                share: 1,
                queue: 0
            }
        );
        assert_eq!(Limits::default_share(4), 2);
        assert_eq!(Limits::default_share(1), 1);
        assert_eq!(Limits::default_share(5), 2);
    }

    #[test]
    fn releasing_more_than_held_frees_only_what_was_held() {
        let mut admission = four_slots();
        admission.request("a", 1);
        admission.release(&"a", 2);
        admission.release(&"stranger", 1);
        assert_eq!(admission.free(), 4);
    }
}
