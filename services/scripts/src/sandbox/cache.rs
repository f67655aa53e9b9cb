//! The compiled-program cache: bytecode by the SHA-256 of the program text, bounded, oldest
//! entry out first.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, PoisonError};

use sha2::{Digest, Sha256};

use super::Bytecode;

/// The SHA-256 of a program's text.
pub(super) type ProgramHash = [u8; 32];

/// Returns the cache key of `program`.
pub(super) fn program_hash(program: &str) -> ProgramHash {
    Sha256::digest(program.as_bytes()).into()
}

/// A bounded map from program hash to bytecode, safe to share between threads.
pub(super) struct BytecodeCache {
    capacity: usize,
    entries: Mutex<Entries>,
}

#[derive(Default)]
struct Entries {
    by_hash: HashMap<ProgramHash, Arc<Bytecode>>,
    /// Insertion order, oldest first: the next entry to evict.
    order: VecDeque<ProgramHash>,
}

impl BytecodeCache {
    /// Returns an empty cache holding at most `capacity` programs (0 turns caching off).
    pub(super) fn new(capacity: usize) -> BytecodeCache {
        BytecodeCache {
            capacity,
            entries: Mutex::new(Entries::default()),
        }
    }

    /// Returns the cached bytecode of the program with this hash.
    pub(super) fn get(&self, hash: &ProgramHash) -> Option<Arc<Bytecode>> {
        self.lock().by_hash.get(hash).cloned()
    }

    /// Stores bytecode, evicting the oldest entry when full.
    pub(super) fn insert(&self, hash: ProgramHash, bytecode: Arc<Bytecode>) {
        if self.capacity == 0 {
            return;
        }
        let mut entries = self.lock();
        if entries.by_hash.insert(hash, bytecode).is_some() {
            return;
        }
        entries.order.push_back(hash);
        while entries.order.len() > self.capacity {
            if let Some(oldest) = entries.order.pop_front() {
                entries.by_hash.remove(&oldest);
            }
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Entries> {
        // The map stays consistent even if a holder panicked: every update is one insert/remove.
        self.entries.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytecode(byte: u8) -> Arc<Bytecode> {
        Arc::new(Bytecode(vec![byte]))
    }

    #[test]
    fn keeps_at_most_its_capacity_dropping_the_oldest() {
        let cache = BytecodeCache::new(2);
        let (a, b, c) = (program_hash("a"), program_hash("b"), program_hash("c"));
        cache.insert(a, bytecode(1));
        cache.insert(b, bytecode(2));
        cache.insert(c, bytecode(3));
        assert!(cache.get(&a).is_none());
        assert_eq!(
            cache.get(&b).map(|code| code.as_bytes().to_vec()),
            Some(vec![2])
        );
        assert_eq!(
            cache.get(&c).map(|code| code.as_bytes().to_vec()),
            Some(vec![3])
        );
    }

    #[test]
    fn a_capacity_of_zero_caches_nothing() {
        let cache = BytecodeCache::new(0);
        cache.insert(program_hash("a"), bytecode(1));
        assert!(cache.get(&program_hash("a")).is_none());
    }

    #[test]
    fn hashes_differ_for_different_programs() {
        assert_ne!(program_hash("a"), program_hash("b"));
        assert_eq!(program_hash("a"), program_hash("a"));
    }
}
