//! The spec's own scripts through [`Runner`] on real decks built from the real card data: the
//! three default calculators of `reference-scripting-calculators.md` ("Examples: the default
//! calculators") and the example rules of `guide-rulesets.md`.
//!
//! Every script and every deck code is read from the spec at test time (`kit::testing::shared`,
//! else `shared/spec` beside the repository), so a changed example is tested as it stands; a
//! missing spec folder fails the tests. Cards come from the catalog importers over the upstream
//! data (`shared/data`), as the canonical JSON scripts see.
//!
//! The expected dashboards are worked out here from the same card JSON, independently of the
//! scripts: a sandbox that garbled the arguments, lost their key order or broke the
//! normalization of the result fails these tests.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::LazyLock;

use catalog::domain::Game;
use scripts::runner::{Runner, ScriptRef, TimeLimits};
use scripts::sandbox::Limits;
use serde_json::{Map, Value, json};
use support::{Deck, RIFTBOUND_DOMAINS, cards, fenced_block, spec_page, strings};

use super::support;

/// One runner for the whole test binary: creating one pre-initializes the plugin (seconds in a
/// debug build).
pub(super) static RUNNER: LazyLock<Runner> = LazyLock::new(|| {
    Runner::new(Limits::default(), TimeLimits::default()).expect("the runner starts")
});

pub(super) static LOR: LazyLock<Vec<Value>> = LazyLock::new(|| cards(Game::Lor));
pub(super) static POKEMON: LazyLock<Vec<Value>> = LazyLock::new(|| cards(Game::Pokemon));
pub(super) static RIFTBOUND: LazyLock<Vec<Value>> = LazyLock::new(|| cards(Game::Riftbound));

// ---------------------------------------------------------------------------------------------
// Spec and card data
// ---------------------------------------------------------------------------------------------

/// The `js` block of the rulesets guide whose first line is `first_line`.
fn guide_script(page: &str, first_line: &str) -> ScriptRef {
    let mut from = 0;
    while let Some(block) = fenced_block(page, "```js", from) {
        if block.lines().next() == Some(first_line) {
            return ScriptRef::Source(block.to_owned());
        }
        from = page[from..].find("\n```js\n").expect("the block was found") + from + 1;
    }
    panic!("no js block starting with `{first_line}` in the rulesets guide")
}

/// The lines of the first `text` block after `heading` in the rulesets guide.
pub(super) fn guide_codes<'a>(page: &'a str, heading: &str) -> Vec<&'a str> {
    let from = page
        .find(heading)
        .unwrap_or_else(|| panic!("no `{heading}` in the rulesets guide"));
    fenced_block(page, "```text", from)
        .unwrap_or_else(|| panic!("no deck codes under `{heading}`"))
        .lines()
        .collect()
}

/// A Legends of Runeterra deck from a deck code, in code order; card refs are card codes.
pub(super) fn lor_deck(code: &str) -> Deck {
    let by_code: HashMap<&str, &Value> = LOR
        .iter()
        .map(|card| (card["id"].as_str().expect("a card id"), card))
        .collect();
    let decoded = decks::domain::codes::lor::decode(code)
        .unwrap_or_else(|err| panic!("the guide's deck code {code} decodes: {err}"));
    Deck {
        lines: decoded
            .deck
            .main
            .iter()
            .map(|line| {
                let reference = line.card_code.to_string();
                let card = by_code
                    .get(reference.as_str())
                    .unwrap_or_else(|| panic!("{reference} is in the LoR catalog"));
                (reference, line.count, (*card).clone())
            })
            .collect(),
    }
}

/// The game-specific fields of a card.
fn game(card: &Value) -> &Value {
    &card["game"]
}

fn number(value: &Value) -> Option<f64> {
    value.as_f64().filter(|n| n.is_finite())
}

/// A whole, non-negative number field, as the calculators read one (`Math.floor`, else 0).
fn whole(value: &Value) -> usize {
    // Card costs and stats are small whole numbers: the cast only drops a fraction.
    number(value).map_or(0, |n| n.max(0.0).floor() as usize)
}

// ---------------------------------------------------------------------------------------------
// Dashboards
// ---------------------------------------------------------------------------------------------

/// Runs a calculator and returns its dashboard in the documented JSON.
pub(super) fn dashboard(script: &ScriptRef, deck: &Deck) -> Vec<Value> {
    let dashboard = RUNNER
        .calculator(script, deck.pile(), deck.cards_by_id(), None)
        .unwrap_or_else(|err| panic!("the calculator runs: {err}"));
    match proto::json::dashboard(&dashboard)["widgets"].take() {
        Value::Array(widgets) => widgets,
        other => panic!("a dashboard has a widget list, got {other}"),
    }
}

/// Each widget's `(kind, label, labelKey)`.
fn headings(widgets: &[Value]) -> Vec<(&str, &str, &str)> {
    widgets
        .iter()
        .map(|widget| {
            (
                widget["kind"].as_str().unwrap_or_default(),
                widget["label"].as_str().unwrap_or_default(),
                widget["labelKey"].as_str().unwrap_or_default(),
            )
        })
        .collect()
}

/// A segmented widget's `(key, value)` pairs, in order.
fn segments(widget: &Value) -> Vec<(String, f64)> {
    widget["segments"]
        .as_array()
        .expect("a segmented widget has segments")
        .iter()
        .map(|segment| {
            (
                segment["key"].as_str().unwrap_or_default().to_owned(),
                segment["value"].as_f64().unwrap_or_default(),
            )
        })
        .collect()
}

/// A segmented widget's `(key, label)` pairs, in order.
fn segment_labels(widget: &Value) -> Vec<(&str, &str)> {
    widget["segments"]
        .as_array()
        .expect("a segmented widget has segments")
        .iter()
        .map(|segment| {
            (
                segment["key"].as_str().unwrap_or_default(),
                segment["label"].as_str().unwrap_or_default(),
            )
        })
        .collect()
}

fn buckets(widget: &Value) -> Vec<f64> {
    widget["buckets"]
        .as_array()
        .expect("a histogram has buckets")
        .iter()
        .map(|bucket| bucket.as_f64().expect("a bucket is a number"))
        .collect()
}

fn total(values: impl IntoIterator<Item = f64>) -> f64 {
    values.into_iter().sum()
}

/// Counts into `size` buckets, the last one taking every larger value.
fn bucketed(values: impl IntoIterator<Item = (usize, u32)>, size: usize) -> Vec<f64> {
    let mut buckets = vec![0.0; size];
    for (value, copies) in values {
        buckets[value.min(size - 1)] += f64::from(copies);
    }
    buckets
}

/// `Math.round(value * 10) / 10`, for the averages the calculators show.
fn one_decimal(value: f64) -> f64 {
    (value * 10.0).round() / 10.0
}

fn labels_0_to_9_and_more() -> Value {
    json!(["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "+"])
}

// ---------------------------------------------------------------------------------------------
// Riftbound
// ---------------------------------------------------------------------------------------------

#[test]
fn the_riftbound_default_calculator_charts_a_56_card_deck() {
    let deck = support::riftbound_deck(&RIFTBOUND);
    let widgets = dashboard(
        &ScriptRef::Source(support::default_calculator("Riftbound")),
        &deck,
    );

    assert_eq!(
        headings(&widgets),
        [
            ("bars", "Domains", "riftbound.domains"),
            ("bars", "Rune domains", "riftbound.runeDomains"),
            ("histogram", "Energy curve", "riftbound.energyCurve"),
            ("histogram", "Might", "riftbound.might"),
            ("donut", "Card types", "riftbound.cardTypes"),
            ("stat", "Average energy", "riftbound.averageEnergy"),
            ("donut", "Unit / Spell / Gear", "riftbound.typeBalance"),
        ]
    );
    for (index, vocabulary) in [
        (0, "riftbound.domain"),
        (1, "riftbound.domain"),
        (4, "riftbound.cardType"),
        (6, "riftbound.cardType"),
    ] {
        assert_eq!(widgets[index]["vocabulary"], vocabulary);
    }

    let main: Vec<(&Value, u32)> = deck
        .lines
        .iter()
        .filter(|(_, _, card)| {
            !["legend", "rune", "battlefield"]
                .contains(&card["game"]["type"].as_str().unwrap_or(""))
        })
        .map(|(_, copies, card)| (card, *copies))
        .collect();
    let main_count: u32 = main.iter().map(|(_, copies)| copies).sum();
    assert_eq!(main_count, 40);

    // Domains: every charted domain of every main-deck card, in display order.
    let mut domains: BTreeMap<usize, f64> = BTreeMap::new();
    for (card, copies) in &main {
        for domain in strings(&game(card)["domains"]) {
            if let Some(rank) = RIFTBOUND_DOMAINS.iter().position(|d| *d == domain) {
                *domains.entry(rank).or_default() += f64::from(*copies);
            }
        }
    }
    let expected: Vec<(String, f64)> = domains
        .into_iter()
        .map(|(rank, copies)| (RIFTBOUND_DOMAINS[rank].to_owned(), copies))
        .collect();
    assert_eq!(
        expected.len(),
        2,
        "both of the legend's domains: {expected:?}"
    );
    assert_eq!(segments(&widgets[0]), expected);

    // Rune domains: the rune zone alone, six of each of the legend's two domains.
    let runes = segments(&widgets[1]);
    assert_eq!(runes.len(), 2);
    assert!(runes.iter().all(|(_, copies)| *copies == 6.0), "{runes:?}");
    let legend_domains: HashSet<&str> = strings(&deck.lines[0].2["game"]["domains"])
        .into_iter()
        .collect();
    assert_eq!(
        runes
            .iter()
            .map(|(key, _)| key.as_str())
            .collect::<HashSet<_>>(),
        legend_domains
    );

    // Energy curve: the 40 main-deck cards by energy, 10 and more in the last bucket.
    let curve = buckets(&widgets[2]);
    assert_eq!(
        curve,
        bucketed(
            main.iter()
                .map(|(card, copies)| (whole(&game(card)["energy"]), *copies)),
            11
        )
    );
    assert_eq!(total(curve), 40.0);
    assert_eq!(widgets[2]["labels"], labels_0_to_9_and_more());

    // Might: units (the Champion included) with a numeric might.
    let units: Vec<(usize, u32)> = main
        .iter()
        .filter(|(card, _)| {
            card["game"]["type"] == "unit" && number(&card["game"]["might"]).is_some()
        })
        .map(|(card, copies)| (whole(&card["game"]["might"]), *copies))
        .collect();
    let might = buckets(&widgets[3]);
    assert_eq!(might, bucketed(units.iter().copied(), 11));
    assert_eq!(
        total(might),
        16.0,
        "the Champion and five units at three copies"
    );

    // Card types, by construction: 1 + 15 units, 15 spells, 9 gear.
    let types = [
        ("unit".to_owned(), 16.0),
        ("spell".to_owned(), 15.0),
        ("gear".to_owned(), 9.0),
    ];
    assert_eq!(segments(&widgets[4]), types);
    assert_eq!(segments(&widgets[6]), types);
    assert_eq!(
        segment_labels(&widgets[6]),
        [("unit", "Unit"), ("spell", "Spell"), ("gear", "Gear")]
    );

    let energy: f64 = main
        .iter()
        .map(|(card, copies)| whole(&game(card)["energy"]) as f64 * f64::from(*copies))
        .sum();
    assert_eq!(widgets[5]["value"], json!(one_decimal(energy / 40.0)));
}

// ---------------------------------------------------------------------------------------------
// Pokémon
// ---------------------------------------------------------------------------------------------

/// The "Charizard" theme deck of Darkness Ablaze (`decks/en/swsh4.json`, `d-swsh4-1`), with
/// its printing ids as refs, each resolved to its card identity. The list writes its basic
/// Energy as `swsh1-0`, which no printing has: that line takes the default printing of the
/// basic Energy of the same name.
pub(super) fn pokemon_deck() -> Deck {
    let path = kit::testing::shared::data_dir().join("pokemon/decks/en/swsh4.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|err| panic!("cannot read {} ({err})", path.display()));
    let decks: Value = serde_json::from_str(&text).expect("the theme decks are JSON");
    let list = decks
        .as_array()
        .and_then(|decks| decks.iter().find(|deck| deck["id"] == "d-swsh4-1"))
        .expect("the Charizard theme deck");
    let by_printing: HashMap<&str, &Value> = POKEMON
        .iter()
        .flat_map(|card| {
            card["printings"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(move |printing| Some((printing["id"].as_str()?, card)))
        })
        .collect();
    // The list names a printing twice when two rarities of it are in the box.
    let mut lines: Vec<(String, u32, Value)> = Vec::new();
    for entry in list["cards"].as_array().expect("a deck has cards") {
        let listed = entry["id"].as_str().expect("a deck line has a printing id");
        let copies = u32::try_from(entry["count"].as_u64().expect("a count")).expect("small");
        let (reference, card) = match by_printing.get(listed) {
            Some(card) => (listed, *card),
            None => {
                let card = POKEMON
                    .iter()
                    .find(|card| {
                        card["name"] == entry["name"]
                            && card["game"]["supertype"] == "Energy"
                            && has_subtype(card, "Basic")
                    })
                    .unwrap_or_else(|| panic!("{listed} is in the Pokémon catalog"));
                let default = card["game"]["defaultPrintingId"]
                    .as_str()
                    .expect("a card has a default printing");
                (default, card)
            }
        };
        match lines.iter_mut().find(|(r, _, _)| r == reference) {
            Some(line) => line.1 += copies,
            None => lines.push((reference.to_owned(), copies, card.clone())),
        }
    }
    let deck = Deck { lines };
    assert_eq!(deck.total(), 60);
    deck
}

fn is_pokemon(card: &Value) -> bool {
    ["Pokemon", "Pokémon"].contains(&card["game"]["supertype"].as_str().unwrap_or(""))
}

fn has_subtype(card: &Value, subtype: &str) -> bool {
    strings(&card["game"]["subtypes"]).contains(&subtype)
}

/// P(no card of a pool of `excluded` in `draws` cards from `size`), as the calculator works it
/// out: a running product of draw ratios, 0 when the hand cannot avoid the pool.
fn probability_of_none(size: u32, excluded: u32, draws: u32) -> f64 {
    if size - excluded < draws {
        return 0.0;
    }
    (0..draws).fold(1.0, |probability, i| {
        probability * f64::from(size - excluded - i) / f64::from(size - i)
    })
}

/// `(Math.round(clamp(value) * 10000) / 100).toFixed(2) + "%"`.
fn percent(value: f64) -> String {
    format!("{:.2}%", (value.clamp(0.0, 1.0) * 10000.0).round() / 100.0)
}

#[test]
fn the_pokemon_default_calculator_charts_a_theme_deck() {
    let deck = pokemon_deck();
    let widgets = dashboard(
        &ScriptRef::Source(support::default_calculator("Pokémon TCG")),
        &deck,
    );

    assert_eq!(
        headings(&widgets),
        [
            ("donut", "Deck breakdown", "pokemon.deckBreakdown"),
            ("stat", "Total cards", "pokemon.totalCards"),
            ("donut", "Energy types", "pokemon.energyTypes"),
            ("stat", "Mulligan chance", "pokemon.mulliganChance"),
            (
                "table",
                "Opening Hand Starters",
                "pokemon.openingHandStarters"
            ),
            ("histogram", "Retreat cost", "pokemon.retreatCost"),
            ("gauge", "Regulation marks", "pokemon.regulationMarks"),
        ]
    );

    let pokemon = deck.copies_where(is_pokemon);
    let trainers = deck.copies_where(|card| card["game"]["supertype"] == "Trainer");
    let energy = deck.copies_where(|card| card["game"]["supertype"] == "Energy");
    assert!(pokemon > 0 && trainers > 0 && energy > 0);
    assert_eq!(
        segments(&widgets[0]),
        [
            ("pokemon".to_owned(), f64::from(pokemon)),
            ("trainer".to_owned(), f64::from(trainers)),
            ("energy".to_owned(), f64::from(energy)),
        ]
    );
    assert_eq!(widgets[1]["value"], json!(60.0));
    assert_eq!(
        total(segments(&widgets[0]).into_iter().map(|(_, v)| v)),
        60.0
    );

    // Energy types: only Energy cards, each under its element or "Special".
    let energy_types = segments(&widgets[2]);
    assert_eq!(
        total(energy_types.iter().map(|(_, v)| *v)),
        f64::from(energy)
    );
    let elements = [
        "Grass",
        "Fire",
        "Water",
        "Lightning",
        "Psychic",
        "Fighting",
        "Darkness",
        "Metal",
        "Fairy",
        "Dragon",
        "Colorless",
        "Special",
    ];
    assert!(
        energy_types
            .iter()
            .all(|(key, _)| elements.contains(&key.as_str())),
        "{energy_types:?}"
    );
    assert!(
        energy_types.windows(2).all(|pair| pair[0].1 >= pair[1].1),
        "highest count first: {energy_types:?}"
    );

    let basics = deck.copies_where(|card| is_pokemon(card) && has_subtype(card, "Basic"));
    assert_eq!(
        widgets[3]["value"],
        json!(percent(probability_of_none(60, basics, 7)))
    );

    // Opening hand starters: one row per Basic Pokémon name, most copies first.
    let mut starters: Vec<(String, u32)> = Vec::new();
    for (_, copies, card) in &deck.lines {
        if is_pokemon(card) && has_subtype(card, "Basic") {
            let name = card["name"].as_str().expect("a card has a name");
            match starters.iter_mut().find(|(n, _)| n == name) {
                Some(starter) => starter.1 += copies,
                None => starters.push((name.to_owned(), *copies)),
            }
        }
    }
    starters.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let rows: Vec<Value> = starters
        .iter()
        .map(|(name, copies)| {
            let others = basics - copies;
            json!([
                name,
                percent(1.0 - probability_of_none(60, *copies, 7)),
                percent(probability_of_none(60, others, 7) - probability_of_none(60, basics, 7)),
            ])
        })
        .collect();
    assert!(!rows.is_empty());
    assert_eq!(
        widgets[4]["columns"],
        json!(["Pokémon", "Possible Starter", "Forced Starter"])
    );
    assert_eq!(
        widgets[4]["columnKeys"],
        json!([
            "pokemon.starterTable.pokemon",
            "pokemon.starterTable.possibleStarter",
            "pokemon.starterTable.forcedStarter",
        ])
    );
    assert_eq!(widgets[4]["rows"], Value::Array(rows));

    // Retreat cost: every Pokémon by converted retreat cost, 4 and more together.
    let retreat = buckets(&widgets[5]);
    assert_eq!(
        retreat,
        bucketed(
            deck.lines
                .iter()
                .filter(|(_, _, card)| is_pokemon(card))
                .map(|(_, copies, card)| (whole(&card["game"]["convertedRetreatCost"]), *copies)),
            5
        )
    );
    assert_eq!(total(retreat), f64::from(pokemon));
    assert_eq!(widgets[5]["labels"], json!(["0", "1", "2", "3", "4+"]));

    // Regulation marks: every marked card but basic Energy, in mark order.
    let mut marks: BTreeMap<String, f64> = BTreeMap::new();
    for (_, copies, card) in &deck.lines {
        let basic_energy = card["game"]["supertype"] == "Energy" && has_subtype(card, "Basic");
        match card["game"]["regulationMark"].as_str() {
            Some(mark) if !mark.is_empty() && !basic_energy => {
                *marks.entry(mark.to_owned()).or_default() += f64::from(*copies);
            }
            _ => {}
        }
    }
    assert!(!marks.is_empty());
    assert_eq!(segments(&widgets[6]), marks.into_iter().collect::<Vec<_>>());
}

// ---------------------------------------------------------------------------------------------
// Legends of Runeterra
// ---------------------------------------------------------------------------------------------

#[test]
fn the_lor_default_calculator_charts_the_guides_two_region_deck() {
    // The second deck of the guide's deck set step: Zed with Piltover & Zaun cards.
    let page = spec_page("guide-rulesets.md");
    let codes = guide_codes(&page, "### 3. Add a deck set rule");
    let deck = lor_deck(codes.get(1).expect("two deck codes"));
    let widgets = dashboard(
        &ScriptRef::Source(support::default_calculator("Legends of Runeterra")),
        &deck,
    );

    assert_eq!(
        headings(&widgets),
        [
            ("bars", "Regions", "lor.regions"),
            ("histogram", "Mana Curve", "lor.manaCurve"),
            ("donut", "Card Types", "lor.cardTypes"),
            ("donut", "Rarity", "lor.rarity"),
            ("stat", "Average Cost", "lor.averageCost"),
            ("ratio", "Units : Spells", "lor.unitsToSpells"),
        ]
    );

    let text = |value: &Value, fallback: &Value| {
        value
            .as_str()
            .or(fallback.as_str())
            .unwrap_or_default()
            .to_owned()
    };
    let cost = |card: &Value| whole(&game(card)["cost"]);
    let cards = deck.total();

    // Regions: a card counts toward the first deck region it carries. Every card here carries
    // one real region (Runeterra champion codes start with a digit), so its own.
    let mut regions: HashMap<String, f64> = HashMap::new();
    for (_, copies, card) in &deck.lines {
        let own: Vec<&str> = strings(&game(card)["regionRefs"])
            .into_iter()
            .filter(|r| !r.starts_with(|c: char| c.is_ascii_digit()))
            .collect();
        assert_eq!(own.len(), 1, "{} has one region", card["name"]);
        *regions.entry(own[0].to_owned()).or_default() += f64::from(*copies);
    }
    assert_eq!(regions.len(), 2, "two regions: {regions:?}");
    assert_eq!(
        segments(&widgets[0]).into_iter().collect::<HashMap<_, _>>(),
        regions
    );

    let curve = buckets(&widgets[1]);
    assert_eq!(
        curve,
        bucketed(
            deck.lines
                .iter()
                .map(|(_, copies, card)| (cost(card), *copies)),
            11
        )
    );
    assert_eq!(total(curve), f64::from(cards));
    assert_eq!(widgets[1]["labels"], labels_0_to_9_and_more());

    // Card types in the calculator's order, empty ones left out.
    let mut types: Vec<(String, f64)> = Vec::new();
    for (key, label) in [
        ("champions", "Champion"),
        ("followers", "Follower"),
        ("spells", "Spell"),
        ("landmarks", "Landmark"),
        ("equipment", "Equipment"),
    ] {
        let copies = deck.copies_where(|card| {
            let kind = text(&game(card)["typeRef"], &game(card)["type"]);
            let champion =
                text(&game(card)["supertypeRef"], &game(card)["supertype"]) == "Champion";
            match key {
                "champions" => kind == "Unit" && champion,
                "followers" => kind == "Unit" && !champion,
                _ => kind == label,
            }
        });
        if copies > 0 {
            types.push((key.to_owned(), f64::from(copies)));
        }
    }
    assert_eq!(segments(&widgets[2]), types);
    assert_eq!(total(types.iter().map(|(_, v)| *v)), f64::from(cards));

    let mut rarities: HashMap<String, f64> = HashMap::new();
    for (_, copies, card) in &deck.lines {
        let rarity = game(card)["rarityRef"]
            .as_str()
            .unwrap_or("Unknown")
            .to_owned();
        *rarities.entry(rarity).or_default() += f64::from(*copies);
    }
    let rarity = segments(&widgets[3]);
    assert!(
        rarity.windows(2).all(|pair| pair[0].1 >= pair[1].1),
        "most copies first"
    );
    assert_eq!(rarity.into_iter().collect::<HashMap<_, _>>(), rarities);

    let mana: f64 = deck
        .lines
        .iter()
        .map(|(_, copies, card)| cost(card) as f64 * f64::from(*copies))
        .sum();
    assert_eq!(
        widgets[4]["value"],
        json!(one_decimal(mana / f64::from(cards)))
    );

    let count = |key: &str| {
        types
            .iter()
            .find(|(k, _)| k == key)
            .map_or(0.0, |(_, v)| *v)
    };
    assert_eq!(
        widgets[5]["numerator"],
        json!(count("champions") + count("followers"))
    );
    assert_eq!(widgets[5]["denominator"], json!(count("spells")));
    assert_eq!(widgets[5]["format"], "ratio");
}

// ---------------------------------------------------------------------------------------------
// The rulesets guide
// ---------------------------------------------------------------------------------------------

/// Runs a deck rule and returns its result in the documented JSON.
fn deck_rule(script: &ScriptRef, deck: &Deck) -> Value {
    let result = RUNNER
        .deck_rule(script, deck.pile(), deck.cards_by_id(), None)
        .unwrap_or_else(|err| panic!("the deck rule runs: {err}"));
    proto::json::rule_result(&result)
}

/// The bullet lines right after `intro` in the guide.
fn bullets_after<'a>(page: &'a str, intro: &str) -> Vec<&'a str> {
    let from = page
        .find(intro)
        .unwrap_or_else(|| panic!("no `{intro}` in the guide"))
        + intro.len();
    page[from..]
        .lines()
        .skip_while(|line| line.trim().is_empty())
        .take_while(|line| line.starts_with("- "))
        .map(|line| &line[2..])
        .collect()
}

#[test]
fn the_guides_two_of_standard_rule_reports_zed_and_deny_and_passes_a_legal_deck() {
    let page = spec_page("guide-rulesets.md");
    let rule = guide_script(&page, "// Deck rule: \"Two-of Standard\".");
    let codes = guide_codes(&page, "### 2. Try it in the deck builder");
    let deck = lor_deck(codes.first().expect("the tutorial's deck code"));
    assert_eq!(deck.total(), 40, "the guide: 40 Ionia cards");

    // "Zed: at most 2 copies (found 3)." then "Deny is banned.", in the guide's words.
    let messages = bullets_after(&page, "hover it to see your messages:");
    assert_eq!(messages.len(), 2, "{messages:?}");
    let expected = json!([
        {"code": "copy_limit", "message": messages[0]},
        {"code": "banned_card", "message": messages[1]},
    ]);
    assert_eq!(
        deck_rule(&rule, &deck),
        json!({"valid": false, "issues": expected})
    );

    // Issues follow the deck's key order: the same deck listed backwards reports Deny first.
    let backwards = Deck {
        lines: deck.lines.iter().rev().cloned().collect(),
    };
    let mut reversed = expected.as_array().expect("an issue list").clone();
    reversed.reverse();
    assert_eq!(
        deck_rule(&rule, &backwards)["issues"],
        Value::Array(reversed)
    );

    // Twenty other Ionia cards, two copies each: nothing to report.
    let legal = Deck {
        lines: LOR
            .iter()
            .filter(|card| {
                card["collectible"] == true
                    && strings(&card["game"]["regionRefs"]) == ["Ionia"]
                    && !["01IO049", "01SI001"].contains(&card["id"].as_str().unwrap_or(""))
            })
            .take(20)
            .map(|card| {
                (
                    card["id"].as_str().expect("an id").to_owned(),
                    2,
                    card.clone(),
                )
            })
            .collect(),
    };
    assert_eq!(legal.total(), 40);
    assert_eq!(
        deck_rule(&rule, &legal),
        json!({"valid": true, "issues": []})
    );
}

#[test]
fn the_guides_checklist_rule_reports_every_problem_at_once() {
    let page = spec_page("guide-rulesets.md");
    let rule = guide_script(
        &page,
        "// Every problem at once, each with a code and a message.",
    );
    let codes = guide_codes(&page, "### 2. Try it in the deck builder");
    let tutorial = lor_deck(codes.first().expect("the tutorial's deck code"));
    let distinct = tutorial.lines.len();
    assert!(
        distinct >= 10,
        "the tutorial deck has {distinct} different cards"
    );
    assert_eq!(
        deck_rule(&rule, &tutorial),
        json!({"valid": true, "issues": []})
    );

    // Three known cards and one the catalog lacks: both problems, in the rule's order.
    let mut short = Deck {
        lines: tutorial.lines[..3].to_vec(),
    };
    short.lines.push(("99XX999".to_owned(), 1, Value::Null));
    let cards_by_id: Value = short.lines[..3]
        .iter()
        .map(|(reference, _, card)| (reference.clone(), card.clone()))
        .collect::<Map<_, _>>()
        .into();
    let result = RUNNER
        .deck_rule(&rule, short.pile(), cards_by_id, None)
        .expect("the deck rule runs");
    assert_eq!(
        proto::json::rule_result(&result),
        json!({"valid": false, "issues": [
            {"code": "too_few_cards", "message": "Use at least 10 different cards (found 4)."},
            {"code": "unknown_card", "message": "Unknown card 99XX999."},
        ]})
    );
}

#[test]
fn the_guides_deck_set_rule_finds_zed_in_both_decks() {
    let page = spec_page("guide-rulesets.md");
    let rule = guide_script(&page, "// Deck set rule: \"No shared champions\".");
    let codes = guide_codes(&page, "### 3. Add a deck set rule");
    assert_eq!(codes.len(), 2, "{codes:?}");
    let lineup: Vec<Deck> = codes.iter().map(|code| lor_deck(code)).collect();

    let intro = "The lineup warning reads \"";
    let from = page.find(intro).expect("the guide quotes the warning") + intro.len();
    let warning = &page[from..from + page[from..].find('"').expect("a closing quote")];

    let decks: Vec<Value> = lineup.iter().map(Deck::pile).collect();
    let mut cards_by_id = Map::new();
    for deck in &lineup {
        if let Value::Object(cards) = deck.cards_by_id() {
            cards_by_id.extend(cards);
        }
    }
    let result = RUNNER
        .deckset_rule(
            &rule,
            Value::Array(decks),
            Value::Object(cards_by_id.clone()),
            None,
        )
        .expect("the deck set rule runs");
    assert_eq!(
        proto::json::rule_result(&result),
        json!({"valid": false, "issues": [{"code": "shared_champion", "message": warning}]})
    );

    // One deck alone shares nothing.
    let alone = RUNNER
        .deckset_rule(
            &rule,
            json!([lineup[0].pile()]),
            Value::Object(cards_by_id),
            None,
        )
        .expect("the deck set rule runs");
    assert_eq!(
        proto::json::rule_result(&alone),
        json!({"valid": true, "issues": []})
    );
}
