//! Typo tolerance for names.
//!
//! The rule: a word of 1 or 2 characters must match exactly; 3 to 7 characters allow one typo;
//! 8 or more allow two. A typo is one inserted, deleted or replaced character, or two adjacent
//! characters swapped (a transposition counts as one). So `jnx` finds Jinx (one deletion) and
//! `pkachu` finds Pikachu (one deletion), but `vi` finds only Vi.

/// Returns how many typos a typed word of `chars` characters may contain.
pub fn allowed_typos(chars: usize) -> usize {
    match chars {
        0..=2 => 0,
        3..=7 => 1,
        _ => 2,
    }
}

/// Returns the number of typos between `typed` and `candidate` when it is at most `limit`
/// (optimal string alignment distance: insertions, deletions, substitutions and adjacent
/// transpositions), else `None`. Both are compared character by character.
pub fn typos_within(typed: &[char], cand: &[char], limit: usize) -> Option<usize> {
    let (n, m) = (typed.len(), cand.len());
    if n.abs_diff(m) > limit {
        return None;
    }
    if m >= SHORT {
        return typos_within_long(typed, cand, limit);
    }
    // Three rolling rows (i-2, i-1, i) on the stack: this runs for every name word per query.
    let mut before = [0usize; SHORT];
    let mut previous = [0usize; SHORT];
    for (j, slot) in previous.iter_mut().enumerate().take(m + 1) {
        *slot = j;
    }
    let mut current = [0usize; SHORT];
    for i in 1..=n {
        current[0] = i;
        let mut row_min = current[0];
        for j in 1..=m {
            let cost = usize::from(typed[i - 1] != cand[j - 1]);
            let mut best = (previous[j] + 1)
                .min(current[j - 1] + 1)
                .min(previous[j - 1] + cost);
            if i > 1 && j > 1 && typed[i - 1] == cand[j - 2] && typed[i - 2] == cand[j - 1] {
                best = best.min(before[j - 2] + 1);
            }
            current[j] = best;
            row_min = row_min.min(best);
        }
        if row_min > limit {
            return None;
        }
        before = previous;
        previous = current;
    }
    let distance = previous[m];
    (distance <= limit).then_some(distance)
}

/// Words up to this many characters (minus one) are compared without allocating.
const SHORT: usize = 32;

fn typos_within_long(typed: &[char], cand: &[char], limit: usize) -> Option<usize> {
    let (n, m) = (typed.len(), cand.len());
    let mut before: Vec<usize> = vec![0; m + 1];
    let mut previous: Vec<usize> = (0..=m).collect();
    let mut current: Vec<usize> = vec![0; m + 1];
    for i in 1..=n {
        current[0] = i;
        let mut row_min = current[0];
        for j in 1..=m {
            let cost = usize::from(typed[i - 1] != cand[j - 1]);
            let mut best = (previous[j] + 1)
                .min(current[j - 1] + 1)
                .min(previous[j - 1] + cost);
            if i > 1 && j > 1 && typed[i - 1] == cand[j - 2] && typed[i - 2] == cand[j - 1] {
                best = best.min(before[j - 2] + 1);
            }
            current[j] = best;
            row_min = row_min.min(best);
        }
        if row_min > limit {
            return None;
        }
        std::mem::swap(&mut before, &mut previous);
        std::mem::swap(&mut previous, &mut current);
    }
    let distance = previous[m];
    (distance <= limit).then_some(distance)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typos(a: &str, b: &str) -> Option<usize> {
        let a: Vec<char> = a.chars().collect();
        let b: Vec<char> = b.chars().collect();
        typos_within(&a, &b, allowed_typos(a.len()))
    }

    #[test]
    fn the_rule_grows_with_the_word() {
        assert_eq!(allowed_typos(2), 0);
        assert_eq!(allowed_typos(3), 1);
        assert_eq!(allowed_typos(7), 1);
        assert_eq!(allowed_typos(8), 2);
    }

    #[test]
    fn finds_the_documented_typos() {
        assert_eq!(typos("jnx", "jinx"), Some(1));
        assert_eq!(typos("pkachu", "pikachu"), Some(1));
    }

    #[test]
    fn a_transposition_counts_as_one_typo() {
        assert_eq!(typos("pikahcu", "pikachu"), Some(1));
        assert_eq!(typos("jinx", "jinx"), Some(0));
    }

    #[test]
    fn long_words_are_compared_the_same_way() {
        let long = "a".repeat(40);
        let typo = format!("{}b", "a".repeat(39));
        assert_eq!(typos(&typo, &long), Some(1));
    }

    #[test]
    fn short_words_allow_no_typo_and_long_words_two() {
        assert_eq!(typos("vo", "vi"), None);
        assert_eq!(typos("jnxx", "jinx"), None);
        assert_eq!(typos("charzard", "charizard"), Some(1));
        assert_eq!(typos("chrzard", "charizard"), None);
        assert_eq!(typos("chrizardd", "charizard"), Some(2));
    }
}
