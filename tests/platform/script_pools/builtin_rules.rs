//! The built-in rules of each game (`scripts::builtin`) through [`Runner`] on decks built from
//! the real card data: a legal deck of each game passes its deck rule and its card rules, and
//! each check of every rule, broken one at a time, gives exactly its message.
//!
//! Cards come from the catalog importers over the upstream data (`shared/data`), as the
//! canonical JSON scripts see; the decks are picked here by the card fields the scripts read
//! (LoR `formatRefs`, `regionRefs`, `rarityRef`; Pokémon `legalities`, `supertype`,
//! `subtypes`; Riftbound `type`, `supertype`, `domains`, `tags`, `collectible`).

use std::collections::HashSet;
use std::sync::LazyLock;

use catalog::domain::Game;
use scripts::builtin;
use scripts::domain::pool_filters;
use scripts::runner::{Runner, ScriptRef, TimeLimits};
use scripts::sandbox::Limits;
use serde_json::{Map, Value, json};
use support::{Deck, cards, riftbound_deck, strings};

use super::support;

/// One runner for the whole test binary: creating one pre-initializes the plugin.
static RUNNER: LazyLock<Runner> = LazyLock::new(|| {
    Runner::new(Limits::default(), TimeLimits::default()).expect("the runner starts")
});

static LOR: LazyLock<Vec<Value>> = LazyLock::new(|| cards(Game::Lor));
static POKEMON: LazyLock<Vec<Value>> = LazyLock::new(|| cards(Game::Pokemon));
static RIFTBOUND: LazyLock<Vec<Value>> = LazyLock::new(|| cards(Game::Riftbound));

// ---------------------------------------------------------------------------------------------
// Running the built-ins
// ---------------------------------------------------------------------------------------------

fn script(id: &str) -> ScriptRef {
    let rule = builtin::get(id).unwrap_or_else(|| panic!("{id} is built in"));
    ScriptRef::Source(rule.source.to_owned())
}

/// `(valid, messages)` of a normalized result.
fn verdict(result: &proto::scripts::v1::RuleResult) -> (bool, Vec<String>) {
    (
        result.valid == Some(true),
        result
            .issues
            .iter()
            .map(|issue| issue.message.clone().unwrap_or_default())
            .collect(),
    )
}

fn card_rule(id: &str, card: &Value) -> (bool, Vec<String>) {
    let result = RUNNER
        .card_rule(&script(id), card.clone(), None)
        .unwrap_or_else(|err| panic!("{id} runs: {err}"));
    verdict(&result)
}

fn deck_rule(id: &str, deck: Value, cards_by_id: Value) -> (bool, Vec<String>) {
    deck_rule_in(id, deck, cards_by_id, None)
}

/// A deck rule run with a context (`{"globals": …}`).
fn deck_rule_in(
    id: &str,
    deck: Value,
    cards_by_id: Value,
    context: Option<Value>,
) -> (bool, Vec<String>) {
    let result = RUNNER
        .deck_rule(&script(id), deck, cards_by_id, context)
        .unwrap_or_else(|err| panic!("{id} runs: {err}"));
    verdict(&result)
}

fn deckset_rule(id: &str, decks: &[&Deck]) -> (bool, Vec<String>) {
    let mut cards_by_id = Map::new();
    for deck in decks {
        if let Value::Object(cards) = deck.cards_by_id() {
            cards_by_id.extend(cards);
        }
    }
    let lineup: Vec<Value> = decks.iter().map(|deck| deck.pile()).collect();
    let result = RUNNER
        .deckset_rule(&script(id), Value::Array(lineup), cards_by_id.into(), None)
        .unwrap_or_else(|err| panic!("{id} runs: {err}"));
    verdict(&result)
}

fn passes() -> (bool, Vec<String>) {
    (true, Vec::new())
}

fn fails(messages: &[&str]) -> (bool, Vec<String>) {
    (false, messages.iter().map(|m| (*m).to_owned()).collect())
}

/// Every card of the deck passes the card rule.
fn assert_cards_pass(id: &str, deck: &Deck) {
    for (reference, _, card) in &deck.lines {
        assert_eq!(card_rule(id, card), passes(), "{id} on {reference}");
    }
}

// ---------------------------------------------------------------------------------------------
// Building decks
// ---------------------------------------------------------------------------------------------

fn name(card: &Value) -> &str {
    card["name"].as_str().expect("a card has a name")
}

/// A deck line whose ref is the card's default printing (Pokémon, Riftbound).
fn printed(card: &Value, copies: u32) -> (String, u32, Value) {
    let reference = card["printings"][0]["id"]
        .as_str()
        .expect("a card has a default printing");
    (reference.to_owned(), copies, card.clone())
}

/// A deck line whose ref is the card code (Legends of Runeterra).
fn coded(card: &Value, copies: u32) -> (String, u32, Value) {
    let reference = card["id"].as_str().expect("a card has an id");
    (reference.to_owned(), copies, card.clone())
}

/// The deck with the copies of line `at` changed.
fn with_copies(deck: &Deck, at: usize, copies: u32) -> Deck {
    let mut lines = deck.lines.clone();
    lines[at].1 = copies;
    Deck { lines }
}

/// The deck with line `at` replaced.
fn with_line(deck: &Deck, at: usize, line: (String, u32, Value)) -> Deck {
    let mut lines = deck.lines.clone();
    lines[at] = line;
    Deck { lines }
}

/// The deck with one more line.
fn with_added(deck: &Deck, line: (String, u32, Value)) -> Deck {
    let mut lines = deck.lines.clone();
    lines.push(line);
    Deck { lines }
}

/// The first line of the deck whose card matches `keep`.
fn position(deck: &Deck, keep: impl Fn(&Value) -> bool) -> usize {
    deck.lines
        .iter()
        .position(|(_, _, card)| keep(card))
        .expect("the deck has such a line")
}

// ---------------------------------------------------------------------------------------------
// Legends of Runeterra
// ---------------------------------------------------------------------------------------------

const STANDARD: &str = "client_Formats_Standard_name";
const ETERNAL: &str = "client_Formats_Eternal_name";

fn lor_regions(card: &Value) -> Vec<&str> {
    strings(&card["game"]["regionRefs"])
}

fn is_standard(card: &Value) -> bool {
    strings(&card["game"]["formatRefs"]).contains(&STANDARD)
}

fn is_champion(card: &Value) -> bool {
    card["game"]["rarityRef"] == "Champion"
}

fn is_lor_deck_card(card: &Value) -> bool {
    card["collectible"] != false && is_standard(card)
}

/// The first Standard, collectible LoR card of exactly these regions that `keep` accepts.
fn lor_cards<'a>(
    regions: &[&str],
    champion: bool,
    keep: impl Fn(&Value) -> bool,
) -> impl Iterator<Item = &'a Value> {
    let regions: Vec<String> = regions.iter().map(|r| (*r).to_owned()).collect();
    LOR.iter().filter(move |card| {
        is_lor_deck_card(card)
            && is_champion(card) == champion
            && lor_regions(card) == regions
            && keep(card)
    })
}

/// A Standard Demacia / Ionia deck: a Demacia champion and Lulu (Bandle City and Ionia, so a
/// card of two regions that fits through one of them) at 3 copies, then 11 Demacia and Ionia
/// followers at 3 copies and one at 1: 40 cards, 6 champions, 2 regions.
fn lor_deck(first: &str, second: &str, skip: &HashSet<String>) -> Deck {
    let fresh = |card: &Value| !skip.contains(name(card));
    let champion = lor_cards(&[first], true, fresh)
        .next()
        .expect("a champion of the first region");
    let second_champion = LOR
        .iter()
        .find(|card| {
            is_lor_deck_card(card)
                && is_champion(card)
                && lor_regions(card).len() == 2
                && lor_regions(card).contains(&second)
                && fresh(card)
        })
        .or_else(|| lor_cards(&[second], true, fresh).next())
        .expect("a champion of the second region");
    let mut lines = vec![coded(champion, 3), coded(second_champion, 3)];
    let (first_only, second_only) = ([first], [second]);
    let mut firsts = lor_cards(&first_only, false, fresh);
    let mut seconds = lor_cards(&second_only, false, fresh);
    for at in 0..12 {
        let card = if at % 2 == 0 {
            firsts.next()
        } else {
            seconds.next()
        }
        .expect("enough followers of the deck's regions");
        lines.push(coded(card, if at == 11 { 1 } else { 3 }));
    }
    let deck = Deck { lines };
    assert_eq!(deck.total(), 40);
    deck
}

fn demacia_ionia() -> Deck {
    lor_deck("Demacia", "Ionia", &HashSet::new())
}

#[test]
fn a_legal_lor_deck_passes_riot_constructed_standard_and_eternal() {
    let deck = demacia_ionia();
    assert!(
        deck.lines
            .iter()
            .any(|(_, _, card)| lor_regions(card) == ["BandleCity", "Ionia"]),
        "the deck shows a card of two regions fitting through one"
    );
    assert_eq!(
        deck_rule("lor-riot-constructed", deck.pile(), deck.cards_by_id()),
        passes()
    );
    assert_cards_pass("lor-standard", &deck);
    assert_cards_pass("lor-eternal", &deck);
}

#[test]
fn riot_constructed_counts_exactly_40_cards() {
    let deck = with_copies(&demacia_ionia(), 2, 2);
    assert_eq!(
        deck_rule("lor-riot-constructed", deck.pile(), deck.cards_by_id()),
        fails(&["A deck needs exactly 40 cards (found 39)."])
    );
}

#[test]
fn riot_constructed_allows_at_most_3_copies_of_a_card() {
    let legal = demacia_ionia();
    // The 1-of becomes a 0-of (dropped) and a 3-of a 4-of: still 40 cards.
    let mut deck = with_copies(&legal, 2, 4);
    deck.lines.pop();
    let card = name(&legal.lines[2].2).to_owned();
    assert_eq!(
        deck_rule("lor-riot-constructed", deck.pile(), deck.cards_by_id()),
        fails(&[&format!("{card}: at most 3 copies (found 4).")])
    );
}

#[test]
fn riot_constructed_allows_at_most_6_champions() {
    let legal = demacia_ionia();
    let taken: HashSet<String> = legal
        .lines
        .iter()
        .map(|(_, _, card)| name(card).to_owned())
        .collect();
    let third = lor_cards(&["Demacia"], true, |card| !taken.contains(name(card)))
        .next()
        .expect("another Demacia champion");
    let last = legal.lines.len() - 1;
    let deck = with_line(&legal, last, coded(third, 1));
    assert_eq!(
        deck_rule("lor-riot-constructed", deck.pile(), deck.cards_by_id()),
        fails(&["A deck may have at most 6 champions (found 7)."])
    );
}

#[test]
fn riot_constructed_allows_at_most_2_regions() {
    let legal = demacia_ionia();
    let noxus = lor_cards(&["Noxus"], false, |_| true)
        .next()
        .expect("a Noxus follower");
    let last = legal.lines.len() - 1;
    let deck = with_line(&legal, last, coded(noxus, 1));
    assert_eq!(
        deck_rule("lor-riot-constructed", deck.pile(), deck.cards_by_id()),
        fails(&["A deck may use at most 2 regions (this one needs 3: Demacia, Ionia, Noxus)."])
    );
}

#[test]
fn riot_constructed_names_the_regions_from_the_catalog_globals() {
    let legal = demacia_ionia();
    let piltover = lor_cards(&["PiltoverZaun"], false, |_| true)
        .next()
        .expect("a Piltover & Zaun follower");
    let last = legal.lines.len() - 1;
    let deck = with_line(&legal, last, coded(piltover, 1));
    let context = json!({ "globals": support::globals(Game::Lor) });
    assert_eq!(
        deck_rule_in(
            "lor-riot-constructed",
            deck.pile(),
            deck.cards_by_id(),
            Some(context)
        ),
        fails(&[
            "A deck may use at most 2 regions (this one needs 3: Demacia, Ionia, Piltover & Zaun)."
        ])
    );
}

#[test]
fn lor_standard_rejects_a_card_outside_standard_with_the_guides_message() {
    let retired = LOR
        .iter()
        .find(|card| card["collectible"] != false && !is_standard(card))
        .expect("a collectible card no longer in Standard");
    assert_eq!(
        card_rule("lor-standard", retired),
        fails(&["Only Standard-legal cards can be submitted"])
    );
    assert_eq!(card_rule("lor-eternal", retired), passes());
}

#[test]
fn lor_eternal_rejects_a_card_outside_eternal() {
    // Every collectible card of the data is in Eternal, so a real card is taken out of it.
    assert!(LOR.iter().all(|card| {
        card["collectible"] == false || strings(&card["game"]["formatRefs"]).contains(&ETERNAL)
    }));
    let mut card = demacia_ionia().lines[0].2.clone();
    card["game"]["formatRefs"] = json!([STANDARD]);
    assert_eq!(
        card_rule("lor-eternal", &card),
        fails(&["Only Eternal-legal cards can be submitted"])
    );
}

#[test]
fn riot_lock_passes_a_lineup_of_other_champions_and_regions() {
    let first = demacia_ionia();
    let second = lor_deck("Noxus", "Freljord", &HashSet::new());
    assert_eq!(deckset_rule("lor-riot-lock", &[&first, &second]), passes());
}

#[test]
fn riot_lock_rejects_a_champion_in_two_decks() {
    let first = demacia_ionia();
    let second = lor_deck("Noxus", "Freljord", &HashSet::new());
    let shared = first.lines[0].clone();
    let champion = name(&shared.2).to_owned();
    let second = with_line(&second, 0, shared);
    // The second deck now needs three regions, so only the champion is shared.
    assert_eq!(
        deckset_rule("lor-riot-lock", &[&first, &second]),
        fails(&[&format!("{champion} is in deck 1 and deck 2.")])
    );
}

#[test]
fn riot_lock_rejects_two_decks_with_the_same_region_pair() {
    let first = demacia_ionia();
    let taken: HashSet<String> = first
        .lines
        .iter()
        .map(|(_, _, card)| name(card).to_owned())
        .collect();
    let second = lor_deck("Demacia", "Ionia", &taken);
    assert_eq!(
        deckset_rule("lor-riot-lock", &[&first, &second]),
        fails(&["Deck 1 and deck 2 both use Demacia and Ionia."])
    );
}

// ---------------------------------------------------------------------------------------------
// Pokémon TCG
// ---------------------------------------------------------------------------------------------

fn subtypes(card: &Value) -> Vec<&str> {
    strings(&card["game"]["subtypes"])
}

fn is_pokemon(card: &Value) -> bool {
    matches!(
        card["game"]["supertype"].as_str(),
        Some("Pokemon" | "Pokémon")
    )
}

fn legal_in(card: &Value, format: &str) -> bool {
    card["game"]["legalities"][format]
        .as_str()
        .is_some_and(|status| status.eq_ignore_ascii_case("legal"))
}

fn is_pokemon_deck_card(card: &Value) -> bool {
    legal_in(card, "standard") && legal_in(card, "expanded")
}

fn is_plain_basic(card: &Value) -> bool {
    let kinds = subtypes(card);
    is_pokemon(card) && kinds.contains(&"Basic") && !kinds.contains(&"Radiant")
}

fn is_ace_spec(card: &Value) -> bool {
    subtypes(card).contains(&"ACE SPEC")
}

fn is_radiant(card: &Value) -> bool {
    is_pokemon(card) && subtypes(card).contains(&"Radiant")
}

fn is_plain_trainer(card: &Value) -> bool {
    card["game"]["supertype"] == "Trainer" && !is_ace_spec(card)
}

fn is_basic_energy(card: &Value) -> bool {
    card["game"]["supertype"] == "Energy" && subtypes(card).contains(&"Basic")
}

fn pokemon(keep: impl Fn(&Value) -> bool) -> impl Iterator<Item = &'static Value> {
    POKEMON
        .iter()
        .filter(move |card| is_pokemon_deck_card(card) && keep(card))
}

/// A Standard deck: 4 Basic Pokémon at 4 copies, a Radiant Pokémon and an ACE SPEC at 1, 8
/// Trainers at 4 and 10 of one basic Energy (past the 4-copy limit it is exempt from): 60.
fn pokemon_deck() -> Deck {
    let mut basics = HashSet::new();
    let mut lines: Vec<_> = pokemon(is_plain_basic)
        .filter(|card| basics.insert(name(card)))
        .take(4)
        .map(|card| printed(card, 4))
        .collect();
    lines.push(printed(pokemon(is_radiant).next().expect("a Radiant"), 1));
    lines.push(printed(
        pokemon(is_ace_spec).next().expect("an ACE SPEC"),
        1,
    ));
    let mut names: HashSet<&str> = lines.iter().map(|(_, _, card)| name(card)).collect();
    // The catalog has several cards of one name (Switch): copies count by name, so one each.
    let trainers: Vec<_> = pokemon(is_plain_trainer)
        .filter(|card| names.insert(name(card)))
        .take(8)
        .map(|card| printed(card, 4))
        .collect();
    lines.extend(trainers);
    lines.push(printed(
        pokemon(is_basic_energy).next().expect("a basic Energy"),
        10,
    ));
    let deck = Deck { lines };
    assert_eq!(deck.total(), 60);
    deck
}

#[test]
fn a_legal_pokemon_deck_passes_constructed_standard_and_expanded() {
    let deck = pokemon_deck();
    assert_eq!(
        deck_rule("pokemon-constructed", deck.pile(), deck.cards_by_id()),
        passes()
    );
    assert_cards_pass("pokemon-standard", &deck);
    assert_cards_pass("pokemon-expanded", &deck);
    assert_eq!(
        deckset_rule("pokemon-any-lineup", &[&deck, &deck]),
        passes()
    );
}

#[test]
fn pokemon_constructed_counts_exactly_60_cards() {
    let deck = with_copies(&pokemon_deck(), 0, 3);
    assert_eq!(
        deck_rule("pokemon-constructed", deck.pile(), deck.cards_by_id()),
        fails(&["A deck needs exactly 60 cards (found 59)."])
    );
}

#[test]
fn pokemon_constructed_allows_at_most_4_copies_by_name() {
    let legal = pokemon_deck();
    let energy = legal.lines.len() - 1;
    let deck = with_copies(&with_copies(&legal, 0, 5), energy, 9);
    let card = name(&legal.lines[0].2).to_owned();
    assert_eq!(
        deck_rule("pokemon-constructed", deck.pile(), deck.cards_by_id()),
        fails(&[&format!("{card}: at most 4 copies (found 5).")])
    );
    // A reprint under another ref counts with it, by name.
    let held: HashSet<&str> = legal.lines.iter().map(|(_, _, card)| name(card)).collect();
    let reprint = pokemon(|card| {
        is_plain_basic(card) && !held.contains(name(card)) && card["printings"][1]["id"].is_string()
    })
    .next()
    .expect("a legal Basic Pokémon with two printings");
    let second_ref = reprint["printings"][1]["id"].as_str().expect("an id");
    let deck = with_added(
        &with_copies(&with_line(&legal, 0, printed(reprint, 3)), energy, 9),
        (second_ref.to_owned(), 2, reprint.clone()),
    );
    assert_eq!(
        deck_rule("pokemon-constructed", deck.pile(), deck.cards_by_id()),
        fails(&[&format!("{}: at most 4 copies (found 5).", name(reprint))])
    );
}

#[test]
fn pokemon_constructed_needs_a_basic_pokemon() {
    let legal = pokemon_deck();
    let mut names: HashSet<&str> = legal.lines.iter().map(|(_, _, card)| name(card)).collect();
    let mut spare = pokemon(is_plain_trainer).filter(|card| names.insert(name(card)));
    let mut deck = Deck {
        lines: legal.lines.clone(),
    };
    // Every Basic Pokémon (the Radiant one included) gives way to Trainers: 16 + 1 copies.
    for at in 0..4 {
        deck = with_line(&deck, at, printed(spare.next().expect("a trainer"), 4));
    }
    deck = with_line(&deck, 4, printed(spare.next().expect("a trainer"), 1));
    assert_eq!(
        deck_rule("pokemon-constructed", deck.pile(), deck.cards_by_id()),
        fails(&["A deck needs at least 1 Basic Pokémon (found 0)."])
    );
}

#[test]
fn pokemon_constructed_allows_one_ace_spec_and_one_radiant() {
    let legal = pokemon_deck();
    let ace = position(&legal, is_ace_spec);
    let radiant = position(&legal, is_radiant);
    let first_ace = name(&legal.lines[ace].2).to_owned();
    let first_radiant = name(&legal.lines[radiant].2).to_owned();

    let energy = legal.lines.len() - 1;
    let second_ace = pokemon(|card| is_ace_spec(card) && name(card) != first_ace)
        .next()
        .expect("a second ACE SPEC");
    let deck = with_added(&with_copies(&legal, energy, 9), printed(second_ace, 1));
    assert_eq!(
        deck_rule("pokemon-constructed", deck.pile(), deck.cards_by_id()),
        fails(&[&format!(
            "A deck may have at most 1 ACE SPEC card (found 2: 1 {first_ace}, 1 {}).",
            name(second_ace)
        )])
    );

    let second_radiant = pokemon(|card| is_radiant(card) && name(card) != first_radiant)
        .next()
        .expect("a second Radiant Pokémon");
    let deck = with_added(&with_copies(&legal, energy, 9), printed(second_radiant, 1));
    assert_eq!(
        deck_rule("pokemon-constructed", deck.pile(), deck.cards_by_id()),
        fails(&[&format!(
            "A deck may have at most 1 Radiant Pokémon (found 2: 1 {first_radiant}, 1 {}).",
            name(second_radiant)
        )])
    );
}

#[test]
fn pokemon_card_rules_reject_cards_outside_their_format() {
    let old = POKEMON
        .iter()
        .find(|card| !legal_in(card, "standard") && !legal_in(card, "expanded"))
        .expect("a card legal in neither format");
    assert_eq!(
        card_rule("pokemon-standard", old),
        fails(&[&format!("{} is not legal in Standard.", name(old))])
    );
    assert_eq!(
        card_rule("pokemon-expanded", old),
        fails(&[&format!("{} is not legal in Expanded.", name(old))])
    );
    let banned = POKEMON
        .iter()
        .find(|card| card["game"]["legalities"]["expanded"] == "Banned")
        .expect("a card banned in Expanded");
    assert_eq!(
        card_rule("pokemon-expanded", banned),
        fails(&[&format!("{} is banned in Expanded.", name(banned))])
    );
}

// ---------------------------------------------------------------------------------------------
// Riftbound
// ---------------------------------------------------------------------------------------------

fn kind(card: &Value) -> &str {
    card["game"]["type"].as_str().unwrap_or_default()
}

/// The support module's legal 56-card deck (Legend, Champion, 39 more main-deck cards, 12
/// runes, 3 battlefields).
fn riftbound() -> Deck {
    riftbound_deck(&RIFTBOUND)
}

fn legend(deck: &Deck) -> &Value {
    &deck.lines[position(deck, |card| kind(card) == "legend")].2
}

fn legend_domains(deck: &Deck) -> Vec<String> {
    strings(&legend(deck)["game"]["domains"])
        .into_iter()
        .map(str::to_owned)
        .collect()
}

/// A plain unit of the Legend's domains that the deck does not hold.
fn spare_units(deck: &Deck) -> Vec<&'static Value> {
    let domains = legend_domains(deck);
    let held: HashSet<&str> = deck.lines.iter().map(|(_, _, card)| name(card)).collect();
    RIFTBOUND
        .iter()
        .filter(|card| {
            let own = strings(&card["game"]["domains"]);
            kind(card) == "unit"
                && card["collectible"] != false
                && card["game"]["supertype"].is_null()
                && !own.is_empty()
                && own.iter().all(|d| domains.iter().any(|l| l == d))
                && !held.contains(name(card))
        })
        .collect()
}

/// The whole deck, with a sideboard nested under `sideboard`.
fn whole(deck: &Deck, sideboard: &Deck) -> (Value, Value) {
    let mut pile = deck.pile();
    let mut cards_by_id = deck.cards_by_id();
    if !sideboard.lines.is_empty() {
        pile["sideboard"] = sideboard.pile();
        if let (Value::Object(all), Value::Object(more)) =
            (&mut cards_by_id, sideboard.cards_by_id())
        {
            all.extend(more);
        }
    }
    (pile, cards_by_id)
}

fn constructed(deck: &Deck, sideboard: &Deck) -> (bool, Vec<String>) {
    let (pile, cards_by_id) = whole(deck, sideboard);
    deck_rule("riftbound-constructed", pile, cards_by_id)
}

fn no_sideboard() -> Deck {
    Deck { lines: Vec::new() }
}

/// The deck's lines of one zone, as the Constructed template's piles hold them.
fn zone(deck: &Deck, keep: impl Fn(&str) -> bool) -> Deck {
    Deck {
        lines: deck
            .lines
            .iter()
            .filter(|(_, _, card)| keep(kind(card)))
            .cloned()
            .collect(),
    }
}

fn is_main_deck_type(kind: &str) -> bool {
    matches!(kind, "unit" | "spell" | "gear")
}

fn title(domain: &str) -> String {
    let mut letters = domain.chars();
    letters.next().map_or_else(String::new, |first| {
        first.to_uppercase().collect::<String>() + letters.as_str()
    })
}

#[test]
fn a_legal_riftbound_deck_passes_constructed_its_zone_rules_and_standard() {
    let deck = riftbound();
    let spare = spare_units(&deck);
    let sideboard = Deck {
        lines: spare.iter().take(4).map(|card| printed(card, 2)).collect(),
    };
    assert_eq!(constructed(&deck, &no_sideboard()), passes());
    assert_eq!(constructed(&deck, &sideboard), passes());
    for (id, keep) in [
        (
            "riftbound-legend",
            (|k: &str| k == "legend") as fn(&str) -> bool,
        ),
        ("riftbound-runes", |k| k == "rune"),
        ("riftbound-battlefields", |k| k == "battlefield"),
        ("riftbound-main-deck", is_main_deck_type),
    ] {
        let pile = zone(&deck, keep);
        assert_eq!(
            deck_rule(id, pile.pile(), pile.cards_by_id()),
            passes(),
            "{id}"
        );
    }
    assert_cards_pass("riftbound-standard", &deck);
    assert_cards_pass("riftbound-standard", &sideboard);
    assert_eq!(
        deckset_rule("riftbound-any-lineup", &[&deck, &deck]),
        passes()
    );
}

#[test]
fn riftbound_constructed_needs_one_legend() {
    let deck = riftbound();
    let at = position(&deck, |card| kind(card) == "legend");
    let mut lines = deck.lines.clone();
    lines.remove(at);
    assert_eq!(
        constructed(&Deck { lines }, &no_sideboard()),
        fails(&["A deck needs exactly 1 Legend (found 0)."])
    );
    let other = RIFTBOUND
        .iter()
        .find(|card| kind(card) == "legend" && name(card) != name(legend(&deck)))
        .expect("another Legend");
    let two = with_added(&deck, printed(other, 1));
    assert_eq!(
        constructed(&two, &no_sideboard()),
        fails(&[&format!(
            "A deck needs exactly 1 Legend (found 2: {}, {}).",
            name(legend(&deck)),
            name(other)
        )])
    );
}

#[test]
fn riftbound_constructed_needs_a_chosen_champion_matching_the_legend() {
    let deck = riftbound();
    let champion = position(&deck, |card| {
        card["game"]["supertype"] == "Champion" && kind(card) == "unit"
    });
    let spare = spare_units(&deck)[0];
    let without = with_line(&deck, champion, printed(spare, 1));
    let tags = strings(&legend(&deck)["game"]["tags"]).join(" or ");
    assert_eq!(
        constructed(&without, &no_sideboard()),
        fails(&[&format!(
            "The Chosen Champion must match the Legend {}: the deck has no {tags} Champion unit.",
            name(legend(&deck))
        )])
    );
}

#[test]
fn riftbound_constructed_counts_the_main_deck_runes_and_battlefields() {
    let deck = riftbound();
    let unit = position(&deck, |card| {
        kind(card) == "unit" && card["game"]["supertype"].is_null()
    });
    assert_eq!(
        constructed(&with_copies(&deck, unit, 2), &no_sideboard()),
        fails(&["The main deck must contain exactly 40 cards (found 39)."])
    );
    let rune = position(&deck, |card| kind(card) == "rune");
    assert_eq!(
        constructed(&with_copies(&deck, rune, 5), &no_sideboard()),
        fails(&["The rune deck must contain exactly 12 runes (found 11)."])
    );
    let battlefield = position(&deck, |card| kind(card) == "battlefield");
    let mut lines = deck.lines.clone();
    lines.remove(battlefield);
    assert_eq!(
        constructed(&Deck { lines }, &no_sideboard()),
        fails(&["A deck needs exactly 3 battlefields (found 2)."])
    );
}

#[test]
fn riftbound_constructed_allows_at_most_3_copies_with_the_sideboard() {
    let deck = riftbound();
    let spell = position(&deck, |card| kind(card) == "spell");
    let gear = position(&deck, |card| kind(card) == "gear");
    let four = with_copies(&with_copies(&deck, spell, 4), gear, 2);
    let card = name(&deck.lines[spell].2).to_owned();
    assert_eq!(
        constructed(&four, &no_sideboard()),
        fails(&[&format!("{card}: at most 3 copies (found 4).")])
    );
    let sideboard = Deck {
        lines: vec![deck.lines[spell].clone()],
    };
    let sideboard = with_copies(&sideboard, 0, 1);
    assert_eq!(
        constructed(&deck, &sideboard),
        fails(&[&format!("{card}: at most 3 copies (found 4).")])
    );
}

#[test]
fn riftbound_constructed_keeps_every_card_in_the_legends_domains() {
    let deck = riftbound();
    let domains = legend_domains(&deck);
    let outsider = RIFTBOUND
        .iter()
        .find(|card| {
            let own = strings(&card["game"]["domains"]);
            kind(card) == "spell"
                && card["collectible"] != false
                && own.len() == 1
                && !domains.iter().any(|d| d == own[0])
                && own[0] != "colorless"
        })
        .expect("a spell of another domain");
    let spell = position(&deck, |card| kind(card) == "spell");
    let moved = with_line(&deck, spell, printed(outsider, 3));
    let outside = title(strings(&outsider["game"]["domains"])[0]);
    let allowed: Vec<String> = domains.iter().map(|d| title(d)).collect();
    assert_eq!(
        constructed(&moved, &no_sideboard()),
        fails(&[&format!(
            "{} ({outside}) is outside the Legend's domains ({}).",
            name(outsider),
            allowed.join(" and ")
        )])
    );
}

#[test]
fn riftbound_constructed_allows_a_sideboard_of_at_most_10_cards() {
    let deck = riftbound();
    let spare = spare_units(&deck);
    let mut sideboard = Deck {
        lines: spare.iter().take(4).map(|card| printed(card, 3)).collect(),
    };
    sideboard.lines[3].1 = 2;
    assert_eq!(
        constructed(&deck, &sideboard),
        fails(&["The sideboard may hold at most 10 cards (found 11)."])
    );
}

#[test]
fn riftbound_zone_rules_check_their_own_pile() {
    let deck = riftbound();
    let legend_pile = zone(&deck, |k| k == "legend");
    let empty = Deck { lines: Vec::new() };
    assert_eq!(
        deck_rule("riftbound-legend", empty.pile(), empty.cards_by_id()),
        fails(&["The Legend pile must contain exactly 1 Legend (found 0)."])
    );
    let rune = deck.lines[position(&deck, |card| kind(card) == "rune")].clone();
    let rune_name = name(&rune.2).to_owned();
    let mixed = with_added(&legend_pile, rune.clone());
    assert_eq!(
        deck_rule("riftbound-legend", mixed.pile(), mixed.cards_by_id()),
        fails(&[&format!("{rune_name} is not a Legend.")])
    );

    let runes = zone(&deck, |k| k == "rune");
    assert_eq!(
        deck_rule(
            "riftbound-runes",
            with_copies(&runes, 0, 5).pile(),
            runes.cards_by_id()
        ),
        fails(&["The rune deck must contain exactly 12 runes (found 11)."])
    );
    let legend_line = legend_pile.lines[0].clone();
    let with_legend = with_added(&runes, legend_line.clone());
    assert_eq!(
        deck_rule(
            "riftbound-runes",
            with_legend.pile(),
            with_legend.cards_by_id()
        ),
        fails(&[&format!("{} is not a rune.", name(&legend_line.2))])
    );

    let battlefields = zone(&deck, |k| k == "battlefield");
    let two = Deck {
        lines: battlefields.lines[..2].to_vec(),
    };
    assert_eq!(
        deck_rule("riftbound-battlefields", two.pile(), two.cards_by_id()),
        fails(&["The Battlefields pile must contain exactly 3 battlefields (found 2)."])
    );
    let with_rune = with_added(&battlefields, rune.clone());
    assert_eq!(
        deck_rule(
            "riftbound-battlefields",
            with_rune.pile(),
            with_rune.cards_by_id()
        ),
        fails(&[&format!("{rune_name} is not a battlefield.")])
    );

    let main = zone(&deck, is_main_deck_type);
    let short = with_copies(&main, main.lines.len() - 1, 2);
    assert_eq!(
        deck_rule("riftbound-main-deck", short.pile(), short.cards_by_id()),
        fails(&["The main deck must contain exactly 40 cards."])
    );
    let swapped = with_added(&short, (rune.0.clone(), 1, rune.2.clone()));
    assert_eq!(
        deck_rule("riftbound-main-deck", swapped.pile(), swapped.cards_by_id()),
        fails(&[&format!(
            "{rune_name} cannot go in the main deck (it is a rune)."
        )])
    );
}

#[test]
fn riftbound_zone_rules_suggest_their_zones_cards() {
    let deck = riftbound();
    let piles = [
        (
            "legend",
            "Legend",
            "riftbound-legend",
            zone(&deck, |k| k == "legend"),
        ),
        (
            "runes",
            "Rune Deck",
            "riftbound-runes",
            zone(&deck, |k| k == "rune"),
        ),
        (
            "battlefields",
            "Battlefields",
            "riftbound-battlefields",
            zone(&deck, |k| k == "battlefield"),
        ),
        (
            "main",
            "Main Deck",
            "riftbound-main-deck",
            zone(&deck, is_main_deck_type),
        ),
    ];
    let lineup: Vec<Value> = piles
        .iter()
        .map(|(id, name, rule, pile)| {
            json!({"pileId": id, "name": name, "role": "main", "deckRuleId": rule, "cards": pile.pile()})
        })
        .collect();
    let domains = legend_domains(&deck);
    let suggestion = |active: &str, rule: &str| {
        let input = json!({
            "lineup": lineup,
            "activePileId": active,
            "cardsById": deck.cards_by_id(),
            "filters": {},
        });
        let patch = RUNNER
            .pool_filters(&script(rule), pool_filters::Game::Riftbound, input, None)
            .unwrap_or_else(|err| panic!("{rule} suggests filters: {err}"));
        proto::json::patch(patch.as_ref())
    };
    assert_eq!(
        suggestion("legend", "riftbound-legend"),
        json!({"cardTypes": ["legend"]})
    );
    assert_eq!(
        suggestion("runes", "riftbound-runes"),
        json!({"cardTypes": ["rune"], "domains": domains})
    );
    assert_eq!(
        suggestion("battlefields", "riftbound-battlefields"),
        json!({"cardTypes": ["battlefield"]})
    );
    assert_eq!(
        suggestion("main", "riftbound-main-deck"),
        json!({"cardTypes": ["unit", "spell", "gear"], "domains": domains})
    );
}

#[test]
fn riftbound_standard_rejects_a_card_that_cannot_go_in_a_deck() {
    let token = RIFTBOUND
        .iter()
        .find(|card| card["collectible"] == false)
        .expect("a token");
    assert_eq!(
        card_rule("riftbound-standard", token),
        fails(&[&format!(
            "{} is not legal in constructed play: it cannot go in a deck.",
            name(token)
        )])
    );
    // The data carries no ban list, so a real card is banned here.
    let mut banned = riftbound().lines[0].2.clone();
    banned["game"]["legalities"] = json!({"standard": "banned"});
    assert_eq!(
        card_rule("riftbound-standard", &banned),
        fails(&[&format!(
            "{} is not legal in constructed play: it is banned.",
            name(&banned)
        )])
    );
}
