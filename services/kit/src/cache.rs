//! [`Versioned`]: one value per key, built for a version of what it is built from (a game's
//! catalog) and kept until that version changes, with each build made once however many
//! callers ask at the same time (single flight).
//!
//! A cold cache that every concurrent caller fills on its own is a stampede: eight first deck
//! imports on a fresh process made eight scans of a whole catalog and took RSS from 48 MB to
//! over 1 GB. Here the first caller builds and the others wait for its value; when the build
//! fails, the next caller tries again.

use std::collections::HashMap;
use std::future::Future;
use std::hash::Hash;
use std::sync::{Arc, Mutex, PoisonError};

use tokio::sync::OnceCell;

/// One value per key, for the version it was built from.
#[derive(Debug)]
pub struct Versioned<K, V> {
    slots: Mutex<HashMap<K, Arc<Slot<V>>>>,
}

/// The value of one key for one version, built at most once.
#[derive(Debug)]
struct Slot<V> {
    version: String,
    value: OnceCell<Arc<V>>,
}

impl<K, V> Default for Versioned<K, V> {
    fn default() -> Self {
        Self {
            slots: Mutex::default(),
        }
    }
}

impl<K: Eq + Hash + Clone, V> Versioned<K, V> {
    /// Returns an empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    /// Returns the value of `key` at `version`, building it with `build` when there is none
    /// for that version yet. Concurrent callers for the same key and version share one build;
    /// a value built for another version is dropped once a caller asks for a new one.
    pub async fn get_or_build<E, Fut>(
        &self,
        key: K,
        version: &str,
        build: impl FnOnce() -> Fut,
    ) -> Result<Arc<V>, E>
    where
        Fut: Future<Output = Result<V, E>>,
    {
        let slot = self.slot(key, version);
        slot.value
            .get_or_try_init(|| async { build().await.map(Arc::new) })
            .await
            .cloned()
    }

    /// Returns the value of `key` at `version` if it is built already.
    pub fn get(&self, key: &K, version: &str) -> Option<Arc<V>> {
        let slots = self.slots.lock().unwrap_or_else(PoisonError::into_inner);
        let slot = slots.get(key).filter(|slot| slot.version == version)?;
        slot.value.get().cloned()
    }

    /// The slot of `key` for `version`, replacing one for another version.
    fn slot(&self, key: K, version: &str) -> Arc<Slot<V>> {
        // Held for a map lookup only, never across an await.
        let mut slots = self.slots.lock().unwrap_or_else(PoisonError::into_inner);
        match slots.get(&key) {
            Some(slot) if slot.version == version => Arc::clone(slot),
            _ => {
                let slot = Arc::new(Slot {
                    version: version.to_owned(),
                    value: OnceCell::new(),
                });
                slots.insert(key, Arc::clone(&slot));
                slot
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    /// A build that yields a few times (so concurrent callers really overlap) and counts itself.
    async fn counted(builds: &AtomicUsize, value: u32) -> Result<u32, String> {
        builds.fetch_add(1, Ordering::SeqCst);
        for _ in 0..10 {
            tokio::task::yield_now().await;
        }
        Ok(value)
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn concurrent_callers_share_one_build() {
        let cache = Arc::new(Versioned::<&str, u32>::new());
        let builds = Arc::new(AtomicUsize::new(0));
        let callers: Vec<_> = (0..8)
            .map(|_| {
                let (cache, builds) = (Arc::clone(&cache), Arc::clone(&builds));
                tokio::spawn(async move {
                    cache
                        .get_or_build("pokemon", "v1", || counted(&builds, 7))
                        .await
                })
            })
            .collect();
        for caller in callers {
            assert_eq!(*caller.await.expect("joined").expect("built"), 7);
        }
        assert_eq!(
            builds.load(Ordering::SeqCst),
            1,
            "one build for eight callers"
        );
        assert_eq!(cache.get(&"pokemon", "v1").as_deref(), Some(&7));
    }

    #[tokio::test]
    async fn a_new_version_builds_again_and_other_keys_are_their_own() {
        let cache = Versioned::<&str, u32>::new();
        let builds = AtomicUsize::new(0);
        let first = cache
            .get_or_build("lor", "v1", || counted(&builds, 1))
            .await;
        let again = cache
            .get_or_build("lor", "v1", || counted(&builds, 99))
            .await;
        assert_eq!((first.as_deref(), again.as_deref()), (Ok(&1), Ok(&1)));
        let newer = cache
            .get_or_build("lor", "v2", || counted(&builds, 2))
            .await;
        assert_eq!(newer.as_deref(), Ok(&2));
        assert_eq!(cache.get(&"lor", "v1"), None, "the old version is dropped");
        let other = cache
            .get_or_build("riftbound", "v2", || counted(&builds, 3))
            .await;
        assert_eq!(other.as_deref(), Ok(&3));
        assert_eq!(builds.load(Ordering::SeqCst), 3);
    }

    #[tokio::test]
    async fn a_failed_build_is_tried_again_by_the_next_caller() {
        let cache = Versioned::<&str, u32>::new();
        let failed: Result<Arc<u32>, String> = cache
            .get_or_build("lor", "v1", || async {
                Err("the catalog did not answer".to_owned())
            })
            .await;
        assert_eq!(failed, Err("the catalog did not answer".to_owned()));
        let builds = AtomicUsize::new(0);
        let built = cache
            .get_or_build("lor", "v1", || counted(&builds, 5))
            .await;
        assert_eq!(built.as_deref(), Ok(&5));
    }
}
