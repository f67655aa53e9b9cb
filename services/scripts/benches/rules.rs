//! Benchmarks of whole script runs through [`Runner`] on the real card data:
//!
//! - a Standard card rule over every Pokémon card in one `card_pool` call (the deck builder's
//!   pool filter; the target is a median under 1 s), with the default limits;
//! - the Riftbound default calculator of `reference-scripting-calculators.md` on a 56-card
//!   deck built from the Riftbound catalog, in a fresh instance per run (target: under 10 ms).
//!
//! Card data comes from `TURNIER_DATA_DIR`, else `../shared/data` beside the repository; the
//! calculator's source is read from the spec (`TURNIER_SPEC_DIR`, else `../shared/spec`) at
//! bench time, never copied here.

use std::collections::VecDeque;
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

use catalog::domain::Game;
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use scripts::runner::{Runner, ScriptRef, TimeLimits, Verdict};
use scripts::sandbox::Limits;
use serde_json::{Map, Value, json};

/// A Standard card rule as a format organizer writes one: regulation marks G to J, basic
/// Energy always allowed, and a ban list by name.
const STANDARD_CARD_RULE: &str = r#"
// Card rule: Standard by regulation mark, plus a ban list.
const STANDARD_MARKS = ["G", "H", "I", "J"];
const BANNED = ["Forest Seal Stone", "Path to the Peak", "Lost Vacuum", "Radiant Charizard"];

export default function validateCard(card) {
  const game = card.game ?? {};
  const subtypes = Array.isArray(game.subtypes) ? game.subtypes : [];

  if (game.supertype === "Energy" && subtypes.includes("Basic")) {
    return true;
  }

  const issues = [];
  const mark = typeof game.regulationMark === "string" ? game.regulationMark : "";

  if (!STANDARD_MARKS.includes(mark)) {
    issues.push({
      code: "not_standard",
      message: `${card.name} has no Standard regulation mark (found ${mark || "none"}).`,
    });
  }

  if (BANNED.includes(card.name)) {
    issues.push({ code: "banned_card", message: `${card.name} is banned.` });
  }

  return { valid: issues.length === 0, issues };
}
"#;

/// What [`STANDARD_CARD_RULE`] allows, for checking its verdicts before timing them.
fn is_standard(card: &Value) -> bool {
    let game = &card["game"];
    let has_subtype = |subtype: &str| {
        game["subtypes"]
            .as_array()
            .is_some_and(|subtypes| subtypes.iter().any(|s| s == subtype))
    };
    if game["supertype"] == "Energy" && has_subtype("Basic") {
        return true;
    }
    let mark = game["regulationMark"].as_str().unwrap_or("");
    let name = card["name"].as_str().unwrap_or("");
    ["G", "H", "I", "J"].contains(&mark)
        && ![
            "Forest Seal Stone",
            "Path to the Peak",
            "Lost Vacuum",
            "Radiant Charizard",
        ]
        .contains(&name)
}

/// The shared folder: `env` when set, else `shared/<name>` beside the repository.
fn shared_dir(env: &str, name: &str) -> PathBuf {
    std::env::var_os(env).map_or_else(
        || {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("../../../shared")
                .join(name)
        },
        PathBuf::from,
    )
}

/// Every card of `game` as the canonical JSON scripts see, in catalog order.
fn cards(game: Game) -> Vec<Value> {
    let dir = shared_dir("TURNIER_DATA_DIR", "data").join(game.name());
    let files = catalog::import::read_sources(game, &dir)
        .unwrap_or_else(|err| panic!("cannot read the card data in {}: {err}", dir.display()));
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

/// The code block tagged `js [<tag>]` in the calculators reference; panics when it is missing.
fn default_calculator(tag: &str) -> String {
    let path =
        shared_dir("TURNIER_SPEC_DIR", "spec").join("turny/reference-scripting-calculators.md");
    let page = std::fs::read_to_string(&path)
        .unwrap_or_else(|err| panic!("cannot read {}: {err}", path.display()));
    let fence = format!("```js [{tag}]\n");
    let start = page
        .find(&fence)
        .unwrap_or_else(|| panic!("no `{fence}` block in {}", path.display()))
        + fence.len();
    let end = page[start..]
        .find("\n```")
        .unwrap_or_else(|| panic!("the `{tag}` block in {} is not closed", path.display()));
    page[start..start + end].to_owned()
}

/// The Riftbound domains the default calculator charts.
const DOMAINS: [&str; 6] = ["body", "calm", "chaos", "fury", "mind", "order"];

fn strings(value: &Value) -> Vec<&str> {
    value
        .as_array()
        .map(|items| items.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// A 56-card Riftbound deck from the catalog: the first two-domain Legend, its Champion, five
/// units, five spells and three gear of its domains at three copies (40 main-deck cards), six
/// runes of each of its domains and three battlefields. Returns the pile (default printing id
/// → copies) and `cardsById`.
fn riftbound_deck(cards: &[Value]) -> (Value, Value) {
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
                && domains.iter().all(|d| DOMAINS.contains(d))
        })
        .expect("a two-domain Legend");
    let legend_domains = strings(&legend["game"]["domains"]);
    let in_domains = |card: &Value| {
        let own = strings(&card["game"]["domains"]);
        !own.is_empty()
            && own.iter().all(|d| legend_domains.contains(d))
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
        // One card of each domain in turn (a card goes by its first domain).
        let mut queues: Vec<VecDeque<&Value>> = vec![VecDeque::new(); legend_domains.len()];
        for card in cards
            .iter()
            .filter(|card| is_type(card, kind) && is_plain(card) && in_domains(card))
        {
            let first = strings(&card["game"]["domains"]).first().copied();
            if let Some(queue) = legend_domains.iter().position(|d| Some(*d) == first) {
                queues[queue].push_back(card);
            }
        }
        let mut picked = 0;
        let mut turn = 0;
        while picked < count && queues.iter().any(|queue| !queue.is_empty()) {
            if let Some(card) = queues[turn % legend_domains.len()].pop_front() {
                deck.push((card, 3));
                picked += 1;
            }
            turn += 1;
        }
        assert_eq!(
            picked, count,
            "{count} {kind} cards of the legend's domains"
        );
    }
    for domain in &legend_domains {
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
    assert_eq!(deck.iter().map(|(_, copies)| copies).sum::<u32>(), 56);

    let mut pile = Map::new();
    let mut cards_by_id = Map::new();
    for (card, copies) in deck {
        let printing = card["printings"][0]["id"]
            .as_str()
            .expect("a Riftbound card has a default printing")
            .to_owned();
        pile.insert(printing.clone(), json!(copies));
        cards_by_id.insert(printing, card.clone());
    }
    (Value::Object(pile), Value::Object(cards_by_id))
}

fn rules(c: &mut Criterion) {
    let runner = Runner::new(Limits::default(), TimeLimits::default()).expect("the runner starts");

    let pokemon = cards(Game::Pokemon);
    let card_rule = ScriptRef::Source(STANDARD_CARD_RULE.to_owned());
    // The whole Pokémon catalog is ~25 MB of card JSON: the runner cuts it into chunks that each
    // fit the default 64 MiB instance and runs them on every core.
    let pool_runner = runner.clone();
    let verdicts = pool_runner
        .card_pool(&card_rule, pokemon.clone(), None)
        .expect("the card rule runs over the pool");
    let allowed = verdicts
        .iter()
        .filter(|verdict| matches!(verdict, Verdict::Result(result) if result.valid == Some(true)))
        .count();
    let expected = pokemon.iter().filter(|card| is_standard(card)).count();
    assert_eq!(allowed, expected, "the rule allows the Standard cards");
    assert!(0 < allowed && allowed < pokemon.len());

    let mut group = c.benchmark_group("card pool");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    group.bench_function(
        format!(
            "Standard card rule over all {} Pokémon cards",
            pokemon.len()
        ),
        |b| {
            b.iter_batched(
                || pokemon.clone(),
                |pool| {
                    black_box(
                        pool_runner
                            .card_pool(&card_rule, pool, None)
                            .expect("the card rule runs over the pool"),
                    )
                },
                BatchSize::LargeInput,
            )
        },
    );
    group.finish();

    let (pile, cards_by_id) = riftbound_deck(&cards(Game::Riftbound));
    let calculator = ScriptRef::Source(default_calculator("Riftbound"));
    let dashboard = runner
        .calculator(&calculator, pile.clone(), cards_by_id.clone(), None)
        .expect("the Riftbound calculator runs");
    assert_eq!(dashboard.widgets.len(), 7, "every widget has data");
    c.bench_function(
        "Riftbound default calculator on a 56-card deck (fresh instance)",
        |b| {
            b.iter_batched(
                || (pile.clone(), cards_by_id.clone()),
                |(pile, cards_by_id)| {
                    black_box(
                        runner
                            .calculator(&calculator, pile, cards_by_id, None)
                            .expect("the Riftbound calculator runs"),
                    )
                },
                BatchSize::SmallInput,
            )
        },
    );
}

criterion_group!(benches, rules);
criterion_main!(benches);
