//! What the scripts crate's tests and benches share: the spec pages and the real card data they
//! read at run time (`kit::testing::shared`: `TURNIER_SHARED_DIR`, else `shared/` beside
//! the repository), and the decks built from them. The benches include this file with `#[path]`.

// Each test binary and bench uses a part of this module.
#![allow(dead_code)]

use std::collections::{HashSet, VecDeque};

use catalog::domain::Game;
use serde_json::{Map, Value, json};

/// A page of the Turny.gg spec; panics (fails the test) when the spec folder is missing.
pub fn spec_page(name: &str) -> String {
    kit::testing::shared::spec_page(name)
}

/// The body of the fenced block that opens with `fence` (a whole line, such as
/// ```` ```js [Riftbound] ````), searching from `from`.
pub fn fenced_block<'a>(page: &'a str, fence: &str, from: usize) -> Option<&'a str> {
    let opening = format!("\n{fence}\n");
    let start = page[from..].find(&opening)? + from + opening.len();
    let end = page[start..].find("\n```")?;
    Some(&page[start..start + end])
}

/// The default calculator tagged `tag` in the calculators reference.
pub fn default_calculator(tag: &str) -> String {
    let page = spec_page("reference-scripting-calculators.md");
    let from = page
        .find("## Examples: the default calculators")
        .expect("the calculators reference has its default calculators section");
    let source = fenced_block(&page, &format!("```js [{tag}]"), from)
        .unwrap_or_else(|| panic!("no `js [{tag}]` block among the default calculators"));
    source.to_owned()
}

/// Every card of `game` as the canonical JSON scripts see, in catalog order.
pub fn cards(game: Game) -> Vec<Value> {
    let dir = kit::testing::shared::data_dir().join(game.name());
    let files = catalog::import::read_sources(game, &dir).unwrap_or_else(|err| {
        panic!(
            "cannot read the {game} card data in {} ({err}); set TURNIER_SHARED_DIR",
            dir.display()
        )
    });
    let import = catalog::import::convert(game, &files);
    assert!(
        !import.cards.is_empty(),
        "no {game} cards in {}",
        dir.display()
    );
    import
        .cards
        .iter()
        .map(|card| serde_json::to_value(card).expect("a card serializes"))
        .collect()
}

/// The catalog globals of `game`, as the card-data page documents them (`context.globals`).
pub fn globals(game: Game) -> Value {
    let dir = kit::testing::shared::data_dir().join(game.name());
    let files = catalog::import::read_sources(game, &dir).unwrap_or_else(|err| {
        panic!(
            "cannot read the {game} card data in {} ({err})",
            dir.display()
        )
    });
    Value::Object(catalog::import::convert(game, &files).globals)
}

/// A deck: refs in deck order with their copies, and the card each ref resolves to.
pub struct Deck {
    /// Each line: the ref, its copies and its card.
    pub lines: Vec<(String, u32, Value)>,
}

impl Deck {
    /// The pile argument: ref → copies, in deck order.
    pub fn pile(&self) -> Value {
        self.lines
            .iter()
            .map(|(reference, copies, _)| (reference.clone(), json!(copies)))
            .collect::<Map<_, _>>()
            .into()
    }

    /// The `cardsById` argument: ref → card.
    pub fn cards_by_id(&self) -> Value {
        self.lines
            .iter()
            .map(|(reference, _, card)| (reference.clone(), card.clone()))
            .collect::<Map<_, _>>()
            .into()
    }

    pub fn total(&self) -> u32 {
        self.lines.iter().map(|(_, copies, _)| copies).sum()
    }

    /// The copies of the lines whose card matches `keep`.
    pub fn copies_where(&self, keep: impl Fn(&Value) -> bool) -> u32 {
        self.lines
            .iter()
            .filter(|(_, _, card)| keep(card))
            .map(|(_, copies, _)| copies)
            .sum()
    }
}

pub fn strings(value: &Value) -> Vec<&str> {
    value
        .as_array()
        .map(|items| items.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// The domains the Riftbound calculator charts, in its display order.
pub const RIFTBOUND_DOMAINS: [&str; 8] = [
    "body",
    "calm",
    "chaos",
    "fury",
    "mind",
    "order",
    "colorless",
    "neutral",
];

/// A 56-card Riftbound deck from the catalog: the first two-domain Legend, its Champion, five
/// units, five spells and three gear of its domains at three copies (40 main-deck cards), six
/// runes of each of its domains and three battlefields. Refs are default printing ids.
pub fn riftbound_deck(cards: &[Value]) -> Deck {
    let is_type = |card: &Value, kind: &str| card["game"]["type"] == kind;
    // Tokens are not collectible; Champions and Signature cards are picked on purpose only.
    let is_plain =
        |card: &Value| card["collectible"] != false && card["game"]["supertype"].is_null();
    let legend = cards
        .iter()
        .find(|card| {
            let domains = strings(&card["game"]["domains"]);
            is_type(card, "legend")
                && domains.len() == 2
                && domains.iter().all(|d| RIFTBOUND_DOMAINS[..6].contains(d))
        })
        .expect("a two-domain Legend");
    let domains: HashSet<&str> = strings(&legend["game"]["domains"]).into_iter().collect();
    let in_domains = |card: &Value| {
        let own = strings(&card["game"]["domains"]);
        !own.is_empty()
            && own.iter().all(|d| domains.contains(d))
            && card["game"]["energy"].is_number()
    };
    // "Kai'Sa - Daughter of the Void" leads "Kai'Sa - …" champion units.
    let hero = legend["name"]
        .as_str()
        .and_then(|name| name.split(" - ").next())
        .expect("a Legend has a name");
    let champions: Vec<&Value> = cards
        .iter()
        .filter(|card| {
            is_type(card, "unit") && card["game"]["supertype"] == "Champion" && in_domains(card)
        })
        .collect();
    let champion = champions
        .iter()
        .find(|card| {
            card["name"]
                .as_str()
                .is_some_and(|name| name.starts_with(hero))
        })
        .or(champions.first())
        .expect("a Champion of the legend's domains");

    let mut deck: Vec<(&Value, u32)> = vec![(legend, 1), (champion, 1)];
    for (kind, count) in [("unit", 5), ("spell", 5), ("gear", 3)] {
        let picked = alternate_domains(
            cards
                .iter()
                .filter(|card| is_type(card, kind) && is_plain(card) && in_domains(card)),
            &strings(&legend["game"]["domains"]),
            count,
        );
        assert_eq!(
            picked.len(),
            count,
            "{count} {kind} cards of the legend's domains"
        );
        deck.extend(picked.into_iter().map(|card| (card, 3)));
    }
    for domain in RIFTBOUND_DOMAINS.iter().filter(|d| domains.contains(*d)) {
        let rune = cards
            .iter()
            .find(|card| is_type(card, "rune") && strings(&card["game"]["domains"]) == [*domain])
            .unwrap_or_else(|| panic!("a {domain} rune"));
        deck.push((rune, 6));
    }
    deck.extend(
        cards
            .iter()
            .filter(|card| is_type(card, "battlefield") && is_plain(card))
            .take(3)
            .map(|card| (card, 1)),
    );
    let deck = Deck {
        lines: deck
            .into_iter()
            .map(|(card, copies)| {
                let reference = card["printings"][0]["id"]
                    .as_str()
                    .expect("a Riftbound card has a default printing");
                (reference.to_owned(), copies, card.clone())
            })
            .collect(),
    };
    assert_eq!(
        deck.total(),
        56,
        "1 legend, 40 main-deck cards, 12 runes, 3 battlefields"
    );
    deck
}

/// Takes `count` cards, one of each domain in turn (a card goes by its first domain), so that
/// the deck shows both of its legend's domains.
pub fn alternate_domains<'a>(
    candidates: impl Iterator<Item = &'a Value>,
    domains: &[&str],
    count: usize,
) -> Vec<&'a Value> {
    let mut queues: Vec<VecDeque<&Value>> = vec![VecDeque::new(); domains.len()];
    for card in candidates {
        let first = strings(&card["game"]["domains"]).first().copied();
        if let Some(queue) = domains.iter().position(|d| Some(*d) == first) {
            queues[queue].push_back(card);
        }
    }
    let mut picked = Vec::with_capacity(count);
    let mut turn = 0;
    while picked.len() < count && queues.iter().any(|queue| !queue.is_empty()) {
        if let Some(card) = queues[turn % domains.len()].pop_front() {
            picked.push(card);
        }
        turn += 1;
    }
    picked
}
