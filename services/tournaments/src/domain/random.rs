//! The engine's deterministic randomness: SplitMix64 from a seed stored with the event.
//!
//! Written out here rather than taken from a crate so that a stored seed replays the same
//! pairings whatever library versions a later build uses: every draw can be audited.

/// A SplitMix64 generator (Steele, Lea and Flood, 2014).
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// Starts a generator from `seed`, mixed with `stream` (a round number, say) so that each
    /// use of one event seed draws differently.
    pub fn new(seed: u64, stream: u64) -> Self {
        let mut rng = Self(seed ^ stream.wrapping_mul(0xD1B5_4A32_D192_ED03));
        rng.next_u64();
        rng
    }

    /// Returns the next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Returns a number in `0..bound` (`bound` > 0), without modulo bias.
    pub fn below(&mut self, bound: usize) -> usize {
        let bound = u64::try_from(bound).expect("a usize fits in u64");
        // Lemire's multiply-and-reject.
        loop {
            let wide = u128::from(self.next_u64()) * u128::from(bound);
            let low = wide as u64;
            if low >= bound.wrapping_neg() % bound {
                return usize::try_from(wide >> 64).expect("below bound, which is a usize");
            }
        }
    }

    /// Shuffles `items` in place (Fisher–Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for at in (1..items.len()).rev() {
            let other = self.below(at + 1);
            items.swap(at, other);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replays_the_same_draws_from_the_same_seed() {
        let draws = |seed| {
            let mut rng = Rng::new(seed, 3);
            (0..5).map(|_| rng.below(100)).collect::<Vec<_>>()
        };
        assert_eq!(draws(42), draws(42));
        assert_ne!(draws(42), draws(43));
    }

    #[test]
    fn shuffles_into_a_permutation() {
        let mut items: Vec<u32> = (0..50).collect();
        Rng::new(7, 1).shuffle(&mut items);
        let mut sorted = items.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
        assert_ne!(items, sorted);
    }
}
