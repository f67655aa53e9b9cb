//! Every example query of `spec/turny/reference-search-{lor,pokemon,riftbound}.md`, run on
//! the real catalog: each result is checked field by field against the row's description,
//! and known cards are present.

use super::support;

use catalog::domain::{Card, Game};
use proto::catalog::v1::CardGameData;
use search::domain::cost::EnergyMix;
use search::domain::games::pokemon::base_damage;
use support::{found, index, search_all};

fn game(card: &Card) -> &CardGameData {
    card.game.as_ref().expect("every card has game data")
}

fn has(values: &[String], wanted: &str) -> bool {
    values.iter().any(|v| v.eq_ignore_ascii_case(wanted))
}

fn names(cards: &[&Card]) -> Vec<String> {
    cards.iter().map(|c| c.name.clone()).collect()
}

fn assert_all(query: &str, cards: &[&Card], test: impl Fn(&Card) -> bool) {
    for card in cards {
        assert!(test(card), "{query} found {} ({})", card.name, card.id);
    }
}

// --- Legends of Runeterra ---------------------------------------------------------------

fn lor_type(card: &Card) -> &str {
    game(card).type_ref.as_deref().unwrap_or_default()
}

fn lor_is_champion_unit(card: &Card) -> bool {
    lor_type(card) == "Unit" && game(card).supertype_ref.as_deref() == Some("Champion")
}

#[test]
fn lor_demacia_units_that_cost_two_or_less() {
    let q = "t:unit cost<=2 region:demacia";
    let cards = found(Game::Lor, q);
    assert_all(q, &cards, |c| {
        lor_type(c) == "Unit"
            && game(c).cost.is_some_and(|n| n <= 2)
            && has(&game(c).region_refs, "Demacia")
    });
}

#[test]
fn lor_freljord_or_ionia_champions() {
    let q = "is:champion (region:freljord or region:ionia)";
    let cards = found(Game::Lor, q);
    assert_all(q, &cards, |c| {
        lor_is_champion_unit(c)
            && (has(&game(c).region_refs, "Freljord") || has(&game(c).region_refs, "Ionia"))
    });
    let names = names(&cards);
    assert!(
        names.contains(&"Braum".to_owned()) && names.contains(&"Yasuo".to_owned()),
        "{names:?}"
    );
}

#[test]
fn lor_elusive_units_that_are_not_champions() {
    let q = "kw:elusive -is:champion";
    let cards = found(Game::Lor, q);
    assert_all(q, &cards, |c| {
        has(&game(c).keyword_refs, "Elusive") && !lor_is_champion_unit(c)
    });
}

#[test]
fn lor_spells_whose_text_says_draw_1() {
    let q = r#"t:spell o:"draw 1""#;
    let cards = found(Game::Lor, q);
    assert_all(q, &cards, |c| {
        let text = format!(
            "{} {}",
            game(c).description_raw.as_deref().unwrap_or_default(),
            game(c)
                .levelup_description_raw
                .as_deref()
                .unwrap_or_default()
        );
        lor_type(c) == "Spell" && text.to_lowercase().contains("draw 1")
    });
}

#[test]
fn lor_epic_and_champion_rarity_from_the_first_set() {
    let q = "r>=epic e:set1";
    let cards = found(Game::Lor, q);
    assert_all(q, &cards, |c| {
        matches!(game(c).rarity_ref.as_deref(), Some("Epic" | "Champion")) && c.set_code == "set1"
    });
    assert!(
        cards
            .iter()
            .any(|c| game(c).rarity_ref.as_deref() == Some("Epic"))
    );
    assert!(
        cards
            .iter()
            .any(|c| game(c).rarity_ref.as_deref() == Some("Champion"))
    );
}

#[test]
fn lor_jnx_finds_jinx_first() {
    let cards = found(Game::Lor, "jnx");
    assert_eq!(
        cards[0].name,
        "Jinx",
        "{:?}",
        &names(&cards)[..5.min(cards.len())]
    );
}

#[test]
fn lor_exact_name_finds_only_vi() {
    let q = "n:!vi";
    let cards = found(Game::Lor, q);
    assert_all(q, &cards, |c| c.name == "Vi");
}

#[test]
fn lor_kw_strike_finds_quick_and_double_strike() {
    let q = "kw:strike";
    let cards = found(Game::Lor, q);
    assert_all(q, &cards, |c| {
        has(&game(c).keyword_refs, "QuickStrike") || has(&game(c).keyword_refs, "DoubleStrike")
    });
    assert!(
        cards
            .iter()
            .any(|c| has(&game(c).keyword_refs, "QuickStrike"))
    );
    assert!(
        cards
            .iter()
            .any(|c| has(&game(c).keyword_refs, "DoubleStrike"))
    );
}

#[test]
fn lor_shurima_landmarks() {
    let q = "is:landmark region:shurima";
    let cards = found(Game::Lor, q);
    assert_all(q, &cards, |c| {
        lor_type(c) == "Landmark" && has(&game(c).region_refs, "Shurima")
    });
}

#[test]
fn lor_bandle_city_spells() {
    let q = "region:bandle t:spell";
    let cards = found(Game::Lor, q);
    assert_all(q, &cards, |c| {
        lor_type(c) == "Spell" && has(&game(c).region_refs, "BandleCity")
    });
}

// --- Pokémon TCG -----------------------------------------------------------------------

fn hp(card: &Card) -> Option<i64> {
    game(card).hp.as_deref().and_then(|hp| hp.parse().ok())
}

fn max_damage(card: &Card) -> Option<i64> {
    game(card)
        .attacks
        .iter()
        .filter_map(|a| a.damage.as_deref().and_then(base_damage))
        .max()
}

fn attack_energy(card: &Card) -> Vec<Vec<String>> {
    game(card)
        .attacks
        .iter()
        .map(|a| {
            let mut cost: Vec<String> = a.cost.iter().filter(|e| *e != "Free").cloned().collect();
            cost.sort();
            cost
        })
        .collect()
}

fn count(cost: &[String], energy: &str) -> usize {
    cost.iter().filter(|e| *e == energy).count()
}

#[test]
fn pokemon_water_with_120_hp_or_more() {
    let q = "t:water hp>=120";
    let cards = found(Game::Pokemon, q);
    assert_all(q, &cards, |c| {
        has(&game(c).types, "Water") && hp(c).is_some_and(|hp| hp >= 120)
    });
}

#[test]
fn pokemon_fire_pokemon_ex() {
    let q = "is:ex t:fire";
    let cards = found(Game::Pokemon, q);
    assert_all(q, &cards, |c| {
        game(c).subtypes.iter().any(|s| s == "ex") && has(&game(c).types, "Fire")
    });
}

#[test]
fn pokemon_supporters_that_search_your_deck() {
    let q = r#"subtype:supporter o:"search your deck""#;
    let cards = found(Game::Pokemon, q);
    assert_all(q, &cards, |c| {
        let g = game(c);
        let text = [
            g.rules.join(" "),
            g.attacks
                .iter()
                .map(|a| a.text.clone().unwrap_or_default())
                .collect::<Vec<_>>()
                .join(" "),
            g.abilities
                .iter()
                .map(|a| a.text.clone())
                .collect::<Vec<_>>()
                .join(" "),
        ]
        .join(" ");
        has(&g.subtypes, "Supporter") && text.to_lowercase().contains("search your deck")
    });
}

#[test]
fn pokemon_attack_costing_exactly_one_fire_and_two_colorless() {
    let q = "cost:RCC";
    let cards = found(Game::Pokemon, q);
    assert_all(q, &cards, |c| {
        attack_energy(c).iter().any(|cost| {
            cost.len() == 3 && count(cost, "Fire") == 1 && count(cost, "Colorless") == 2
        })
    });
    let same = search_all(Game::Pokemon, "cost:1R2C").0;
    assert_eq!(same.len(), cards.len());
    let braces = search_all(Game::Pokemon, "cost:{Fire}{Colorless}{Colorless}").0;
    assert_eq!(braces.len(), cards.len());
    let equal = search_all(Game::Pokemon, "cost=RCC").0;
    assert_eq!(equal.len(), cards.len());
}

#[test]
fn pokemon_two_fire_attack_and_200_damage() {
    let q = "cost>=RR damage>=200";
    let cards = found(Game::Pokemon, q);
    assert_all(q, &cards, |c| {
        attack_energy(c).iter().any(|cost| count(cost, "Fire") >= 2)
            && max_damage(c).is_some_and(|d| d >= 200)
    });
}

#[test]
fn pokemon_cheapest_attack_one_energy_and_60_damage() {
    let q = "cost:1 damage>=60";
    let cards = found(Game::Pokemon, q);
    assert_all(q, &cards, |c| {
        let cheapest = game(c)
            .attacks
            .iter()
            .map(|a| a.converted_energy_cost.unwrap_or(a.cost.len() as i32))
            .min();
        cheapest == Some(1) && max_damage(c).is_some_and(|d| d >= 60)
    });
}

#[test]
fn pokemon_basic_pokemon_with_free_retreat() {
    let q = "retreat=0 stage:basic";
    let cards = found(Game::Pokemon, q);
    assert_all(q, &cards, |c| {
        let g = game(c);
        g.supertype.as_deref() == Some("Pokemon")
            && has(&g.subtypes, "Basic")
            && g.converted_retreat_cost.unwrap_or(0) == 0
    });
}

#[test]
fn pokemon_stage_2_weak_to_fighting() {
    let q = "stage:2 weakness:fighting";
    let cards = found(Game::Pokemon, q);
    assert_all(q, &cards, |c| {
        has(&game(c).subtypes, "Stage 2")
            && game(c).weaknesses.iter().any(|w| w.r#type == "Fighting")
    });
}

#[test]
fn pokemon_pkachu_finds_pikachu_first() {
    let cards = found(Game::Pokemon, "pkachu");
    assert_eq!(
        cards[0].name,
        "Pikachu",
        "{:?}",
        &names(&cards)[..5.min(cards.len())]
    );
    assert!(cards.iter().take(20).all(|c| c.name.contains("Pikachu")));
}

#[test]
fn pokemon_ace_spec_cards() {
    let q = r#"is:"ace spec""#;
    let cards = found(Game::Pokemon, q);
    assert_all(q, &cards, |c| has(&game(c).subtypes, "ACE SPEC"));
    assert!(
        names(&cards).contains(&"Master Ball".to_owned()),
        "{:?}",
        names(&cards)
    );
}

#[test]
fn pokemon_basic_psychic_regulation_h_not_ex() {
    let q = "not:ex t:psychic stage:basic reg:h";
    let cards = found(Game::Pokemon, q);
    assert_all(q, &cards, |c| {
        let g = game(c);
        let marks: Vec<String> = c
            .printings
            .iter()
            .filter_map(|p| {
                p.metadata
                    .as_ref()
                    .and_then(|m| m.fields.get("regulationMark"))
                    .and_then(|v| match &v.kind {
                        Some(pbjson_types::value::Kind::StringValue(s)) => Some(s.clone()),
                        _ => None,
                    })
            })
            .chain(g.regulation_mark.clone())
            .collect();
        !g.subtypes.iter().any(|s| s == "ex")
            && has(&g.types, "Psychic")
            && has(&g.subtypes, "Basic")
            && has(&marks, "H")
    });
}

// --- Riftbound ---------------------------------------------------------------------------

fn rb_type(card: &Card) -> &str {
    game(card).r#type.as_deref().unwrap_or_default()
}

#[test]
fn riftbound_fury_units_that_cost_3_or_less() {
    let q = "domain:fury t:unit cost<=3";
    let cards = found(Game::Riftbound, q);
    assert_all(q, &cards, |c| {
        has(&game(c).domains, "fury")
            && rb_type(c) == "unit"
            && game(c).energy.is_some_and(|e| e <= 3)
    });
}

#[test]
fn riftbound_calm_champion_units_and_legends() {
    let q = "is:champion domain:calm";
    let cards = found(Game::Riftbound, q);
    assert_all(q, &cards, |c| {
        game(c).supertype.as_deref() == Some("Champion") && has(&game(c).domains, "calm")
    });
    assert!(cards.iter().any(|c| rb_type(c) == "unit"));
    assert!(cards.iter().any(|c| rb_type(c) == "legend"));
}

#[test]
fn riftbound_every_legend() {
    let q = "t:legend";
    let cards = found(Game::Riftbound, q);
    assert_all(q, &cards, |c| rb_type(c) == "legend");
    let legends = index(Game::Riftbound)
        .cards()
        .iter()
        .filter(|c| rb_type(c) == "legend")
        .count();
    assert_eq!(cards.len(), legends);
}

#[test]
fn riftbound_deflect_with_4_might_or_more() {
    let q = "kw:deflect might>=4";
    let cards = found(Game::Riftbound, q);
    assert_all(q, &cards, |c| {
        has(&game(c).keyword_refs, "deflect") && game(c).might.is_some_and(|m| m >= 4)
    });
}

#[test]
fn riftbound_spells_whose_text_says_draw_1() {
    let q = r#"t:spell o:"draw 1""#;
    let cards = found(Game::Riftbound, q);
    assert_all(q, &cards, |c| {
        rb_type(c) == "spell"
            && game(c)
                .text_plain
                .as_deref()
                .unwrap_or_default()
                .to_lowercase()
                .contains("draw 1")
    });
}

#[test]
fn riftbound_cards_tagged_demacia() {
    let q = "tag:demacia";
    let cards = found(Game::Riftbound, q);
    assert_all(q, &cards, |c| has(&game(c).tags, "Demacia"));
}

#[test]
fn riftbound_epic_or_rarer_from_origins() {
    let q = "r>=epic e:OGN";
    let cards = found(Game::Riftbound, q);
    let rank = |r: &str| {
        [
            "common",
            "uncommon",
            "rare",
            "epic",
            "legendary",
            "showcase",
            "ultimate",
        ]
        .iter()
        .position(|x| *x == r)
    };
    assert_all(q, &cards, |c| {
        let rarities: Vec<&str> = c
            .printings
            .iter()
            .flat_map(|p| p.variants.iter().filter_map(|v| v.kind.as_deref()))
            .chain(game(c).rarity.as_deref())
            .collect();
        c.printings.iter().any(|p| p.set_code == "OGN")
            && rarities.iter().any(|r| rank(r).is_some_and(|r| r >= 3))
    });
    let unique = search_all(Game::Riftbound, "r>=epic e:OGN unique:prints");
    assert!(!unique.0.is_empty());
}

#[test]
fn riftbound_cards_in_both_mind_and_order() {
    let q = "domain:mind domain:order";
    let cards = found(Game::Riftbound, q);
    assert_all(q, &cards, |c| {
        has(&game(c).domains, "mind") && has(&game(c).domains, "order")
    });
}

#[test]
fn riftbound_gear_without_equip() {
    let q = "t:gear -kw:equip";
    let cards = found(Game::Riftbound, q);
    assert_all(q, &cards, |c| {
        rb_type(c) == "gear" && !has(&game(c).keyword_refs, "equip")
    });
}

#[test]
fn riftbound_power_cost_of_2_or_more() {
    let q = "power>=2";
    let cards = found(Game::Riftbound, q);
    assert_all(q, &cards, |c| game(c).power.is_some_and(|p| p >= 2));
}

#[test]
fn energy_mix_of_cards_is_what_the_matcher_sees() {
    // Guards the helper the cost checks above rely on.
    assert_eq!(
        EnergyMix::parse("RCC"),
        Some(EnergyMix::of_attack(&["Fire", "Colorless", "Colorless"]))
    );
}
