//! How many live event streams (`WatchTournament`, the gateway's `…/events`) one caller may
//! hold open at once: a stream costs a task and a buffer for as long as it lasts, and one
//! account held 6,000 (issue 35).
//!
//! A caller is its account, else its client address, as `kit::caller::key` tells them apart
//! (the gateway names the HTTP client's address on the gRPC stream its Server-Sent Events
//! read, so both edges count the same caller). Taking a slot gives a [`StreamSlot`] that the
//! stream holds; dropping it, when the stream ends or its client goes away, frees the slot.
//! Counts are per process: each replica of the service counts the streams it serves.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use kit::caller::CallerKey;

/// Streams one signed-in account may hold by default: a few open tabs, a stream overlay and
/// a bot, with room to spare.
pub const DEFAULT_PER_ACCOUNT: usize = 32;

/// Streams one anonymous client address may hold by default: fewer than an account, as
/// anyone may open them.
pub const DEFAULT_PER_ADDRESS: usize = 16;

/// The caps, per account and per anonymous address; 0 is no cap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StreamLimits {
    /// Streams one signed-in account may hold.
    pub per_account: usize,
    /// Streams one anonymous client address may hold.
    pub per_address: usize,
}

impl Default for StreamLimits {
    fn default() -> Self {
        Self {
            per_account: DEFAULT_PER_ACCOUNT,
            per_address: DEFAULT_PER_ADDRESS,
        }
    }
}

/// A stream refused because its caller holds as many as it may.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "too many live event streams: this {whom} has {limit} open, the most it may; close one before opening another"
)]
pub struct TooManyStreams {
    /// `account` or `address`.
    pub whom: &'static str,
    /// The cap it reached.
    pub limit: usize,
}

/// The streams each caller holds, shared by every stream the service serves.
#[derive(Debug, Clone, Default)]
pub struct StreamSlots {
    limits: StreamLimits,
    /// Open streams per caller; a caller with none has no entry.
    held: Arc<Mutex<HashMap<CallerKey, usize>>>,
}

impl StreamSlots {
    /// Counts streams under `limits`.
    pub fn new(limits: StreamLimits) -> Self {
        Self {
            limits,
            held: Arc::default(),
        }
    }

    /// Takes one of `caller`'s slots, or refuses when it holds its cap.
    pub fn take(&self, caller: CallerKey) -> Result<StreamSlot, TooManyStreams> {
        let (whom, limit) = if caller.is_account() {
            ("account", self.limits.per_account)
        } else {
            ("address", self.limits.per_address)
        };
        let mut held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        let count = held.entry(caller.clone()).or_insert(0);
        if limit > 0 && *count >= limit {
            return Err(TooManyStreams { whom, limit });
        }
        *count += 1;
        Ok(StreamSlot {
            held: self.held.clone(),
            caller,
        })
    }

    /// Returns how many streams `caller` holds.
    pub fn held_by(&self, caller: &CallerKey) -> usize {
        let held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        held.get(caller).copied().unwrap_or(0)
    }
}

/// One open stream's slot: dropping it frees the slot.
#[derive(Debug)]
pub struct StreamSlot {
    held: Arc<Mutex<HashMap<CallerKey, usize>>>,
    caller: CallerKey,
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        let mut held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = held.get_mut(&self.caller) {
            *count = count.saturating_sub(1);
            // A caller with no stream leaves no entry, so the map holds only open streams.
            if *count == 0 {
                held.remove(&self.caller);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn account(id: &str) -> CallerKey {
        use kit::auth::{AccountCaller, Caller, Scopes, TokenKind};
        let mut request = tonic::Request::new(());
        request
            .extensions_mut()
            .insert(Caller::Account(AccountCaller {
                id: id.to_owned(),
                username: id.to_owned(),
                kind: TokenKind::Session,
                scopes: Scopes::ALL,
                expires: None,
            }));
        kit::caller::key(&request)
    }

    fn address(ip: &str) -> CallerKey {
        CallerKey::from(ip.parse::<std::net::IpAddr>().expect("an address"))
    }

    #[test]
    fn an_account_holds_its_cap_and_a_closed_stream_frees_its_slot() {
        let slots = StreamSlots::new(StreamLimits {
            per_account: 3,
            per_address: 1,
        });
        let ana = account("acc_ana");
        let mut open: Vec<StreamSlot> = (0..3)
            .map(|_| slots.take(ana.clone()).expect("within the cap"))
            .collect();
        assert_eq!(
            slots.take(ana.clone()).map(|_| ()),
            Err(TooManyStreams {
                whom: "account",
                limit: 3
            })
        );
        // Another account is counted on its own.
        let ben = slots.take(account("acc_ben")).expect("another account");
        open.pop();
        assert_eq!(slots.held_by(&ana), 2);
        open.push(slots.take(ana.clone()).expect("a freed slot"));
        drop(open);
        drop(ben);
        assert_eq!(slots.held_by(&ana), 0);
        assert!(
            slots
                .held
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .is_empty()
        );
    }

    #[test]
    fn an_anonymous_address_gets_the_smaller_cap_and_the_message_says_whose() {
        let slots = StreamSlots::new(StreamLimits::default());
        let here = address("203.0.113.7");
        let open: Vec<StreamSlot> = (0..DEFAULT_PER_ADDRESS)
            .map(|_| slots.take(here.clone()).expect("within the cap"))
            .collect();
        let refused = slots.take(here.clone()).map(|_| ()).unwrap_err();
        assert_eq!(refused.whom, "address");
        assert_eq!(
            refused.to_string(),
            "too many live event streams: this address has 16 open, the most it may; close one before opening another"
        );
        slots
            .take(address("203.0.113.8"))
            .expect("another address is counted on its own");
        assert_eq!(open.len(), DEFAULT_PER_ADDRESS);
    }

    #[test]
    fn a_cap_of_zero_is_no_cap() {
        let slots = StreamSlots::new(StreamLimits {
            per_account: 0,
            per_address: 0,
        });
        let here = address("198.51.100.1");
        let open: Vec<StreamSlot> = (0..1_000)
            .map(|_| slots.take(here.clone()).expect("no cap"))
            .collect();
        assert_eq!(slots.held_by(&here), open.len());
    }
}
