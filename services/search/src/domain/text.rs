//! Text normalisation shared by the index and the query: case and accent folding, name keys.
//!
//! Every comparison except regular expressions runs on folded text, so `pokemon` finds
//! "Pokémon" and `PIKACHU` finds "Pikachu". Regular expressions see the original text.

/// Lower-cases `text` and strips the accents of common Latin letters (`é` → `e`).
pub fn fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        for lower in ch.to_lowercase() {
            out.push(strip_accent(lower));
        }
    }
    out
}

fn strip_accent(ch: char) -> char {
    match ch {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' => 'a',
        'è' | 'é' | 'ê' | 'ë' => 'e',
        'ì' | 'í' | 'î' | 'ï' => 'i',
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' => 'o',
        'ù' | 'ú' | 'û' | 'ü' => 'u',
        'ñ' => 'n',
        'ç' => 'c',
        'ý' | 'ÿ' => 'y',
        other => other,
    }
}

/// A piece of card text kept twice: as printed (for regular expressions) and folded (for
/// everything else).
#[derive(Debug, Clone, Default)]
pub struct Folded {
    /// The text as the catalog has it.
    pub raw: String,
    /// [`fold`] of `raw`.
    pub folded: String,
}

impl Folded {
    /// Folds `raw` once.
    pub fn new(raw: impl Into<String>) -> Self {
        let raw = raw.into();
        let folded = fold(&raw);
        Self { raw, folded }
    }
}

/// Which byte pairs a text holds, hashed into 1,024 bits: a text lacking one of a needle's
/// pairs cannot contain the needle, so most substring scans of long rules texts are skipped.
#[derive(Debug, Clone)]
pub struct Bigrams(Box<[u64; 16]>);

/// A needle's byte pairs as bit positions in [`Bigrams`].
#[derive(Debug, Clone, Default)]
pub struct BigramProbe(Vec<(usize, u64)>);

fn bigram_bit(a: u8, b: u8) -> usize {
    // Multiplicative hash of the pair, top 10 bits.
    ((((u32::from(a) << 8) | u32::from(b)).wrapping_mul(2_654_435_761)) >> 22) as usize
}

impl Bigrams {
    /// Collects the byte pairs of `text`.
    pub fn of(text: &str) -> Self {
        let mut bits = Box::new([0u64; 16]);
        for pair in text.as_bytes().windows(2) {
            let bit = bigram_bit(pair[0], pair[1]);
            bits[bit / 64] |= 1 << (bit % 64);
        }
        Self(bits)
    }

    /// False when the text surely does not contain the probed needle.
    pub fn may_contain(&self, probe: &BigramProbe) -> bool {
        probe
            .0
            .iter()
            .all(|&(word, mask)| self.0[word] & mask == mask)
    }
}

impl BigramProbe {
    /// Prepares the probe of `needle`.
    pub fn of(needle: &str) -> Self {
        let mut probe: Vec<(usize, u64)> = Vec::new();
        for pair in needle.as_bytes().windows(2) {
            let bit = bigram_bit(pair[0], pair[1]);
            match probe.iter_mut().find(|(word, _)| *word == bit / 64) {
                Some((_, mask)) => *mask |= 1 << (bit % 64),
                None => probe.push((bit / 64, 1 << (bit % 64))),
            }
        }
        Self(probe)
    }
}

/// Returns the words a name is matched on with typos: each whitespace-separated word with its
/// punctuation removed (`Kai'Sa` → `kaisa`), plus the parts between punctuation
/// (`Pikachu-EX` → `pikachu`, `ex`). Input must already be folded.
pub fn name_keys(folded_name: &str) -> Vec<String> {
    let mut keys: Vec<String> = Vec::new();
    let mut push = |key: String| {
        if !key.is_empty() && !keys.contains(&key) {
            keys.push(key);
        }
    };
    for word in folded_name.split_whitespace() {
        push(word.chars().filter(|ch| ch.is_alphanumeric()).collect());
        for part in word.split(|ch: char| !ch.is_alphanumeric()) {
            push(part.to_owned());
        }
    }
    keys
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folding_ignores_case_and_accents() {
        assert_eq!(fold("Pokémon Tool"), "pokemon tool");
        assert_eq!(fold("QuickStrike"), "quickstrike");
    }

    #[test]
    fn bigrams_never_rule_out_a_text_that_contains_the_needle() {
        let text = fold("Search your deck for a Supporter card");
        let bigrams = Bigrams::of(&text);
        for needle in ["search your deck", "supporter", "r c", "d"] {
            assert!(bigrams.may_contain(&BigramProbe::of(needle)), "{needle}");
        }
        assert!(!bigrams.may_contain(&BigramProbe::of("pikachu")));
    }

    #[test]
    fn name_keys_split_words_and_punctuation() {
        assert_eq!(name_keys("kai'sa"), ["kaisa", "kai", "sa"]);
        assert_eq!(name_keys("jinx - demolitionist"), ["jinx", "demolitionist"]);
        assert_eq!(name_keys("pikachu-ex"), ["pikachuex", "pikachu", "ex"]);
    }
}
