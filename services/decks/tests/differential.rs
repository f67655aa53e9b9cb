//! Differential tests of our deck codes against the reference libraries (issue 5).
//!
//! The references are installed from the npm registry into `tests/differential/node_modules`
//! (exact versions pinned by `package.json` and `package-lock.json`) the first time this test
//! runs, and driven through `tests/differential/oracle.mjs`, one JSON request per line:
//!
//! - Riftbound: `@piltoverarchive/riftbound-deck-codes`, the Piltover Archive reference;
//! - Legends of Runeterra: `runeterra`, a JavaScript port of Riot's LoRDeckCodes.
//!
//! For thousands of random decks per game (seeded, so a failure replays), both directions:
//! our code read by the reference gives the deck back, and the reference's code read by us
//! gives the deck back, up to card order. Where both sides must write the same bytes, the
//! bytes are compared too.
//!
//! Known, legitimate differences (each is handled where the comparison is made):
//!
//! 1. Riftbound version choice: the reference always writes version 3 (a trailing 0 byte when
//!    no champion is chosen); we write the lowest version that carries the deck, never below 2,
//!    as the spec asks. Decks are compared, and the reference's bytes against our
//!    `encode_as(deck, 3)`.
//! 2. The Riftbound reference (1.1.0, the newest on npm) knows versions 1 to 3 only: sets OGN,
//!    OGS, ARC and SFD, plain numbers, up to 12 copies in the main deck and 3 in the sideboard.
//!    UNL, VEN and RAD, `R`/`SP` numbers, higher counts, additional legends (versions 4 to 6)
//!    cannot be checked against it; the public vectors in `tests/vectors.rs` cover them.
//! 3. Legends of Runeterra has no sideboard and `runeterra` takes none: we fold a sideboard
//!    into the main deck when encoding, so our code read by the reference gives the sum.
//! 4. `runeterra` writes version 0 for an empty deck (its version is a max over the cards,
//!    starting from 0) and we write 1; random LoR decks here are never empty.
//! 5. `runeterra` groups cards of one set and faction in the order it is given them; Riot's
//!    library (and ours) sorts by card code first. The reference is handed its cards sorted
//!    by code, so its bytes must equal ours.

use std::collections::HashSet;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Instant;

use decks::domain::codes::lor::{self, Faction, LorCardCode, LorDeck};
use decks::domain::codes::riftbound::{
    self, NumberPrefix, RiftboundCardCode, RiftboundDeck, RiftboundSet, Variant,
};
use decks::domain::codes::{CardCount, DecodedDeck};
use serde_json::{Value, json};

/// Random decks per game. Two or three seconds of work on the oracle's side.
const DECKS_PER_GAME: usize = 4000;

/// The seed of the random decks; change it to explore, keep it to replay a failure.
const SEED: u64 = 0x7475_726e_6965_7205;

/// Mismatches printed in full when the test fails.
const SHOWN: usize = 8;

// ---------------------------------------------------------------------------------------------
// The oracle: the reference libraries behind a child `node` process.

/// The folder with `package.json` and `oracle.mjs`.
fn oracle_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/differential")
}

/// Installs the pinned reference libraries unless the installed ones already match the pins.
/// Fails, never skips, when `npm` is missing or the registry cannot be reached.
fn install_references(dir: &Path) {
    let manifest: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("package.json")).expect("reads package.json"),
    )
    .expect("package.json is JSON");
    let pins = manifest["dependencies"]
        .as_object()
        .expect("package.json has dependencies");
    let installed = pins.iter().all(|(name, version)| {
        let path = dir.join("node_modules").join(name).join("package.json");
        std::fs::read_to_string(path)
            .ok()
            .and_then(|text| serde_json::from_str::<Value>(&text).ok())
            .is_some_and(|package| package["version"] == *version)
    });
    if installed {
        return;
    }
    let status = Command::new("npm")
        .args(["ci", "--no-audit", "--no-fund"])
        .current_dir(dir)
        .status()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run `npm` ({e}): the differential tests install the reference deck-code \
                 libraries pinned in {} with `npm ci`; install Node.js 20+ with npm",
                dir.join("package.json").display()
            )
        });
    assert!(
        status.success(),
        "`npm ci` in {} failed ({status}): the differential tests need the npm registry to \
         install the reference deck-code libraries (see the npm output above)",
        dir.display()
    );
}

/// The reference libraries, answering one JSON line per request line.
struct Oracle {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
}

impl Oracle {
    fn start() -> Self {
        let dir = oracle_dir();
        install_references(&dir);
        let mut child = Command::new("node")
            .arg("oracle.mjs")
            .current_dir(&dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| {
                panic!("cannot start `node oracle.mjs` ({e}): the differential tests need Node.js 20+ on PATH")
            });
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        Self {
            child,
            stdin,
            stdout,
        }
    }

    /// Sends every request and returns the answers in the same order. A thread writes while
    /// this one reads, so neither pipe fills up and blocks the other.
    fn ask(&mut self, requests: &[Value]) -> Vec<Value> {
        let Self { stdin, stdout, .. } = self;
        let stdin = stdin.as_mut().expect("the oracle's stdin is open");
        std::thread::scope(|scope| {
            let writer = scope.spawn(move || -> std::io::Result<()> {
                let mut out = BufWriter::new(stdin);
                for request in requests {
                    serde_json::to_writer(&mut out, request)?;
                    out.write_all(b"\n")?;
                }
                out.flush()
            });
            let mut answers = Vec::with_capacity(requests.len());
            let mut line = String::new();
            for request in requests {
                line.clear();
                let read = stdout.read_line(&mut line).expect("reads the oracle");
                assert!(
                    read > 0,
                    "the oracle stopped before answering {request} (its stderr is above)"
                );
                answers.push(serde_json::from_str(&line).unwrap_or_else(|e| {
                    panic!("the oracle answered {request} with {line:?}, not JSON: {e}")
                }));
            }
            writer
                .join()
                .expect("the writer thread")
                .expect("writes to the oracle");
            answers
        })
    }
}

impl Drop for Oracle {
    fn drop(&mut self) {
        drop(self.stdin.take()); // end of input: the oracle exits
        let _ = self.child.wait();
    }
}

// ---------------------------------------------------------------------------------------------
// Random decks.

/// SplitMix64: small, seeded, good enough to spread decks over the shapes.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `low..=high`.
    fn range(&mut self, low: u64, high: u64) -> u64 {
        low + self.next() % (high - low + 1)
    }

    /// True `percent` times in a hundred.
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.next() as usize % items.len()]
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.range(0, i as u64) as usize);
        }
    }
}

fn small(n: u64) -> u32 {
    u32::try_from(n).expect("small number")
}

/// A LoR card: mostly the sets and numbers that exist, sometimes anything the code can carry
/// (set 0–99, number 0–999), every faction including the newer ones.
fn lor_card(rng: &mut Rng) -> LorCardCode {
    let set = if rng.chance(85) {
        rng.range(1, 9)
    } else {
        rng.range(0, 99)
    };
    let number = if rng.chance(85) {
        rng.range(1, 120)
    } else {
        rng.range(0, 999)
    };
    LorCardCode::from_parts(set, rng.pick(&Faction::ALL), number).expect("a valid LoR card")
}

/// 1 to 40 distinct cards, mostly 1–3 copies, some with 4+ (the code's trailing section).
fn lor_cards(rng: &mut Rng, most: u64) -> Vec<CardCount<LorCardCode>> {
    let distinct = rng.range(1, most);
    let mut seen = HashSet::new();
    let mut cards = Vec::new();
    while (cards.len() as u64) < distinct {
        let card = lor_card(rng);
        if !seen.insert(card) {
            continue;
        }
        let count = match rng.range(0, 99) {
            0..=84 => rng.range(1, 3),
            85..=97 => rng.range(4, 9),
            _ => rng.range(10, 5000),
        };
        cards.push(CardCount::new(card, small(count)));
    }
    cards
}

fn lor_deck(rng: &mut Rng) -> LorDeck {
    let main = lor_cards(rng, 40);
    // Only our encoder takes a sideboard (difference 3); it may repeat main-deck cards.
    let sideboard = if rng.chance(10) {
        lor_cards(rng, 5)
    } else {
        Vec::new()
    };
    LorDeck { main, sideboard }
}

/// The Riftbound sets the reference knows (difference 2).
const REFERENCE_SETS: [RiftboundSet; 4] = [
    RiftboundSet::Origins,
    RiftboundSet::ProvingGrounds,
    RiftboundSet::Arcane,
    RiftboundSet::Spiritforged,
];

const VARIANTS: [Variant; 4] = [
    Variant::Base,
    Variant::AltArtA,
    Variant::Signed,
    Variant::AltArtB,
];

fn riftbound_card(rng: &mut Rng) -> RiftboundCardCode {
    let number = match rng.range(0, 99) {
        0..=79 => rng.range(1, 320),
        80..=95 => rng.range(0, 999),
        _ => rng.range(1000, 2_000_000),
    };
    RiftboundCardCode {
        set: rng.pick(&REFERENCE_SETS),
        prefix: NumberPrefix::Plain,
        number: small(number),
        variant: if rng.chance(70) {
            Variant::Base
        } else {
            rng.pick(&VARIANTS)
        },
    }
}

/// Distinct cards with counts in `1..=ceiling`, mostly 1–3.
fn riftbound_cards(
    rng: &mut Rng,
    distinct: u64,
    ceiling: u64,
) -> Vec<CardCount<RiftboundCardCode>> {
    let mut seen = HashSet::new();
    let mut cards = Vec::new();
    while (cards.len() as u64) < distinct {
        let card = riftbound_card(rng);
        if !seen.insert(card) {
            continue;
        }
        let count = if rng.chance(80) {
            rng.range(1, ceiling.min(3))
        } else {
            rng.range(1, ceiling)
        };
        cards.push(CardCount::new(card, small(count)));
    }
    cards
}

/// A main deck of up to 40 distinct cards with 1–12 copies, a sideboard half the time (1–3
/// copies, cards may also be in the main deck), a chosen champion 40% of the time.
fn riftbound_deck(rng: &mut Rng) -> RiftboundDeck {
    let distinct = if rng.chance(3) { 0 } else { rng.range(1, 40) };
    let main = riftbound_cards(rng, distinct, 12);
    let sideboard = if rng.chance(50) {
        let distinct = rng.range(1, 10);
        riftbound_cards(rng, distinct, 3)
    } else {
        Vec::new()
    };
    let chosen_champion = if !rng.chance(40) {
        None
    } else if !main.is_empty() && rng.chance(70) {
        Some(main[rng.range(0, main.len() as u64 - 1) as usize].card_code)
    } else {
        Some(riftbound_card(rng))
    };
    RiftboundDeck {
        main,
        sideboard,
        chosen_champion,
        additional_legends: Vec::new(),
    }
}

// ---------------------------------------------------------------------------------------------
// Comparing.

/// Sums repeated cards and sorts by card code: decks equal up to order compare equal.
fn normalised<C: Clone + Eq + std::fmt::Display>(cards: &[CardCount<C>]) -> Vec<(String, u32)> {
    let mut out: Vec<(String, u32)> = Vec::new();
    for card in cards {
        let code = card.card_code.to_string();
        match out.iter_mut().find(|(c, _)| *c == code) {
            Some((_, count)) => *count += card.count,
            None => out.push((code, card.count)),
        }
    }
    out.sort();
    out
}

fn lor_normalised(deck: &LorDeck) -> Vec<(String, u32)> {
    let all: Vec<_> = deck.main.iter().chain(&deck.sideboard).cloned().collect();
    normalised(&all)
}

type RiftboundShape = (
    Vec<(String, u32)>,
    Vec<(String, u32)>,
    Option<RiftboundCardCode>,
);

fn riftbound_normalised(deck: &RiftboundDeck) -> RiftboundShape {
    (
        normalised(&deck.main),
        normalised(&deck.sideboard),
        deck.chosen_champion,
    )
}

/// The deck of an oracle answer, or why there is none.
fn answered_deck<D: serde::de::DeserializeOwned>(answer: &Value) -> Result<DecodedDeck<D>, String> {
    match answer.get("deck") {
        Some(deck) => serde_json::from_value(deck.clone())
            .map_err(|e| format!("our types refuse the reference's deck {deck}: {e}")),
        None => Err(format!("the reference failed: {answer}")),
    }
}

fn answered_code(answer: &Value) -> Result<&str, String> {
    answer["code"]
        .as_str()
        .ok_or_else(|| format!("the reference failed: {answer}"))
}

/// Mismatches found, each a paragraph with the deck and both sides' outputs.
#[derive(Default)]
struct Findings(Vec<String>);

impl Findings {
    fn add(&mut self, what: String) {
        self.0.push(what);
    }

    fn assert_none(&self, game: &str, checks: usize) {
        if self.0.is_empty() {
            return;
        }
        let shown: Vec<&str> = self.0.iter().take(SHOWN).map(String::as_str).collect();
        panic!(
            "{game}: {} of {checks} checks against the reference disagree; the first {}:\n\n{}",
            self.0.len(),
            shown.len(),
            shown.join("\n\n")
        );
    }
}

// ---------------------------------------------------------------------------------------------
// The tests. One test function, so the oracle starts once and npm never runs twice at a time.

#[test]
fn our_codes_and_the_reference_libraries_read_each_other() {
    let started = Instant::now();
    let mut oracle = Oracle::start();
    let mut rng = Rng(SEED);
    lor_both_directions(&mut oracle, &mut rng);
    riftbound_both_directions(&mut oracle, &mut rng);
    eprintln!(
        "differential: {DECKS_PER_GAME} decks per game, both directions, in {:.1?}",
        started.elapsed()
    );
}

fn lor_both_directions(oracle: &mut Oracle, rng: &mut Rng) {
    let decks: Vec<LorDeck> = (0..DECKS_PER_GAME).map(|_| lor_deck(rng)).collect();
    let mut findings = Findings::default();

    // Ours → reference. Each deck in the version `encode` picks (the lowest that knows every
    // faction) and, a third of the time, in a later version through `encode_as`.
    let mut ours = Vec::new();
    for deck in &decks {
        let lowest = deck
            .main
            .iter()
            .chain(&deck.sideboard)
            .map(|c| c.card_code.faction().version())
            .max()
            .unwrap_or(1);
        let version = if rng.chance(33) {
            u8::try_from(rng.range(u64::from(lowest), u64::from(lor::NEWEST_VERSION)))
                .expect("a version")
        } else {
            lowest
        };
        let code = if version == lowest {
            lor::encode(deck)
        } else {
            lor::encode_as(deck, version)
        }
        .unwrap_or_else(|e| panic!("we cannot encode {deck:?} in version {version}: {e}"));
        ours.push((code, version));
    }
    let requests: Vec<Value> = ours
        .iter()
        .map(|(code, _)| json!({"op": "decode", "game": "lor", "code": code}))
        .collect();
    let answers = oracle.ask(&requests);
    for ((deck, (code, version)), answer) in decks.iter().zip(&ours).zip(&answers) {
        let expected = lor_normalised(deck);
        match answered_deck::<LorDeck>(answer) {
            Ok(read) if lor_normalised(&read.deck) == expected && read.version == *version => {}
            Ok(read) => findings.add(format!(
                "ours → runeterra: deck {} (version {version})\n  our code:       {code}\n  runeterra read: {} (version {})",
                deck_json(deck),
                deck_json(&read.deck),
                read.version
            )),
            Err(why) => findings.add(format!(
                "ours → runeterra: deck {}\n  our code: {code}\n  {why}",
                deck_json(deck)
            )),
        }
    }

    // Reference → ours, decks without a sideboard (difference 3), cards sorted by code
    // (difference 5): we must read the deck back and write the same bytes.
    let plain: Vec<LorDeck> = decks
        .iter()
        .map(|deck| {
            let mut main = deck.main.clone();
            main.sort_by_key(|c| c.card_code.to_string());
            LorDeck {
                main,
                sideboard: Vec::new(),
            }
        })
        .collect();
    let requests: Vec<Value> = plain
        .iter()
        .map(|deck| json!({"op": "encode", "game": "lor", "deck": deck}))
        .collect();
    let answers = oracle.ask(&requests);
    for (deck, answer) in plain.iter().zip(&answers) {
        let code = match answered_code(answer) {
            Ok(code) => code,
            Err(why) => {
                findings.add(format!(
                    "runeterra → ours: deck {}\n  {why}",
                    deck_json(deck)
                ));
                continue;
            }
        };
        let ours = lor::encode(deck);
        match lor::decode(code) {
            Ok(read)
                if lor_normalised(&read.deck) == lor_normalised(deck)
                    && ours.as_deref() == Ok(code) => {}
            read => findings.add(format!(
                "runeterra → ours: deck {}\n  runeterra's code: {code}\n  our code:         {ours:?}\n  we read:          {}",
                deck_json(deck),
                match read {
                    Ok(read) => format!("{} (version {})", deck_json(&read.deck), read.version),
                    Err(e) => format!("error: {e}"),
                }
            )),
        }
    }

    findings.assert_none("Legends of Runeterra", 2 * decks.len());
}

fn riftbound_both_directions(oracle: &mut Oracle, rng: &mut Rng) {
    let decks: Vec<RiftboundDeck> = (0..DECKS_PER_GAME).map(|_| riftbound_deck(rng)).collect();
    let mut findings = Findings::default();

    // Ours → reference: the version `encode` picks (2, or 3 with a champion) and, a third of
    // the time, any version from the lowest that carries the deck (1 without a sideboard) to 3,
    // the newest the reference reads.
    let mut ours = Vec::new();
    for deck in &decks {
        let picked = riftbound::lowest_version(deck).expect("a deck we can encode");
        let needed = if deck.chosen_champion.is_some() {
            3
        } else if !deck.sideboard.is_empty() {
            2
        } else {
            1
        };
        let version = if rng.chance(33) {
            u8::try_from(rng.range(needed, 3)).expect("a version")
        } else {
            picked
        };
        let code = if version == picked {
            riftbound::encode(deck)
        } else {
            riftbound::encode_as(deck, version)
        }
        .unwrap_or_else(|e| panic!("we cannot encode {deck:?} in version {version}: {e}"));
        ours.push((code, version));
    }
    let requests: Vec<Value> = ours
        .iter()
        .map(|(code, _)| json!({"op": "decode", "game": "riftbound", "code": code}))
        .collect();
    let answers = oracle.ask(&requests);
    for ((deck, (code, version)), answer) in decks.iter().zip(&ours).zip(&answers) {
        match answered_deck::<RiftboundDeck>(answer) {
            Ok(read)
                if riftbound_normalised(&read.deck) == riftbound_normalised(deck)
                    && read.version == *version => {}
            Ok(read) => findings.add(format!(
                "ours → reference: deck {} (version {version})\n  our code:       {code}\n  reference read: {} (version {})",
                deck_json(deck),
                deck_json(&read.deck),
                read.version
            )),
            Err(why) => findings.add(format!(
                "ours → reference: deck {}\n  our code: {code}\n  {why}",
                deck_json(deck)
            )),
        }
    }

    // Reference → ours, cards in random order: we read the deck back, and the reference's
    // version-3 code is byte for byte our `encode_as(deck, 3)` (difference 1).
    let shuffled: Vec<RiftboundDeck> = decks
        .iter()
        .map(|deck| {
            let mut deck = deck.clone();
            rng.shuffle(&mut deck.main);
            rng.shuffle(&mut deck.sideboard);
            deck
        })
        .collect();
    // A fifth of the decks spell signed cards `*`, which the reference and we both read as `s`.
    let requests: Vec<Value> = shuffled
        .iter()
        .map(|deck| {
            let mut deck = json!(deck);
            if rng.chance(20) {
                star_signed(&mut deck);
            }
            json!({"op": "encode", "game": "riftbound", "deck": deck})
        })
        .collect();
    let answers = oracle.ask(&requests);
    for (deck, answer) in shuffled.iter().zip(&answers) {
        let code = match answered_code(answer) {
            Ok(code) => code,
            Err(why) => {
                findings.add(format!(
                    "reference → ours: deck {}\n  {why}",
                    deck_json(deck)
                ));
                continue;
            }
        };
        let ours = riftbound::encode_as(deck, 3);
        match riftbound::decode(code) {
            Ok(read)
                if riftbound_normalised(&read.deck) == riftbound_normalised(deck)
                    && read.version == 3
                    && ours.as_deref() == Ok(code) => {}
            read => findings.add(format!(
                "reference → ours: deck {}\n  reference's code:  {code}\n  our version 3:     {ours:?}\n  we read:           {}",
                deck_json(deck),
                match read {
                    Ok(read) => format!("{} (version {})", deck_json(&read.deck), read.version),
                    Err(e) => format!("error: {e}"),
                }
            )),
        }
    }

    findings.assert_none("Riftbound", 2 * decks.len());
}

/// Rewrites every signed card code of a deck's JSON (`OGN-007s`) with the other spelling
/// (`OGN-007*`).
fn star_signed(value: &mut Value) {
    match value {
        Value::String(text) if text.contains('-') && text.ends_with('s') => {
            text.pop();
            text.push('*');
        }
        Value::Array(items) => items.iter_mut().for_each(star_signed),
        Value::Object(fields) => fields.values_mut().for_each(star_signed),
        _ => {}
    }
}

fn deck_json<D: serde::Serialize>(deck: &D) -> String {
    serde_json::to_string(deck).expect("a deck serialises")
}
