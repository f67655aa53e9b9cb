//! The rows of the pages' other tables (matching text, combining terms, operators, field
//! kinds, fields, shortcuts, attack cost) and the extras (`order:`, `unique:prints`,
//! warnings, errors, paging), on the real catalog.

use super::support;

use std::collections::HashSet;

use catalog::domain::{Card, Game};
use proto::catalog::v1::CardGameData;
use search::domain::games;
use support::{found, index, search_all};

fn game(card: &Card) -> &CardGameData {
    card.game.as_ref().expect("game data")
}

fn ids(cards: &[&Card]) -> HashSet<String> {
    cards.iter().map(|c| c.id.clone()).collect()
}

fn lor_text(card: &Card) -> String {
    format!(
        "{}\n{}",
        game(card).description_raw.as_deref().unwrap_or_default(),
        game(card)
            .levelup_description_raw
            .as_deref()
            .unwrap_or_default()
    )
    .to_lowercase()
}

#[test]
fn a_plain_word_searches_names_and_rules_text() {
    let cards = found(Game::Lor, "draw");
    assert!(cards.iter().any(|c| lor_text(c).contains("draw")));
    let field = found(Game::Lor, "o:draw");
    assert!(field.iter().all(|c| lor_text(c).contains("draw")));
    assert!(field.iter().any(|c| lor_text(c).contains("draws")));
}

#[test]
fn full_names_and_aliases_are_the_same_search() {
    for (full, alias) in [
        ("type:spell", "t:spell"),
        ("text:draw", "o:draw"),
        ("text:draw", "oracle:draw"),
        ("name:jinx", "n:jinx"),
        ("rarity:epic", "r:epic"),
        ("set:set2", "e:set2"),
        ("cost:3", "mv:3"),
        ("cost:3", "cmc:3"),
        ("region:ionia", "c:ionia"),
        ("region:ionia", "color:ionia"),
        ("keyword:elusive", "kw:elusive"),
        ("TYPE:Spell", "t:spell"),
    ] {
        assert_eq!(
            ids(&found(Game::Lor, full)),
            ids(&found(Game::Lor, alias)),
            "{full} {alias}"
        );
    }
    for (full, alias) in [
        ("cost:2", "attackcost:2"),
        ("cost:2", "energy:2"),
        ("damage>=100", "dmg>=100"),
        ("weakness:fire", "weak:fire"),
        ("regmark:g", "reg:g"),
    ] {
        assert_eq!(
            ids(&found(Game::Pokemon, full)),
            ids(&found(Game::Pokemon, alias)),
            "{full}"
        );
    }
    for (full, alias) in [
        ("cost:2", "energy:2"),
        ("power:1", "pow:1"),
        ("keyword:deflect", "kw:deflect"),
    ] {
        assert_eq!(
            ids(&found(Game::Riftbound, full)),
            ids(&found(Game::Riftbound, alias)),
            "{full}"
        );
    }
}

#[test]
fn quotes_match_exactly_and_hold_spaces() {
    let cards = found(Game::Lor, r#""quick attack""#);
    assert!(cards.iter().all(|c| {
        c.name.to_lowercase().contains("quick attack") || lor_text(c).contains("quick attack")
    }));
    // Quotes turn typo tolerance off.
    assert!(search_all(Game::Lor, r#""jnx""#).0.is_empty());
    let or = found(Game::Lor, r#""or""#);
    assert!(
        or.iter()
            .all(|c| c.name.to_lowercase().contains("or") || lor_text(c).contains("or"))
    );
}

#[test]
fn exact_and_regex_values() {
    let cards = found(Game::Lor, "n:/^the /");
    assert!(cards.iter().all(|c| c.name.starts_with("The ")));
    let exact = found(Game::Lor, "t:!unit");
    assert!(
        exact
            .iter()
            .all(|c| game(c).type_ref.as_deref() == Some("Unit"))
    );
}

#[test]
fn names_are_typo_tolerant_only_unquoted() {
    assert!(found(Game::Lor, "n:jnx").iter().any(|c| c.name == "Jinx"));
    assert!(search_all(Game::Lor, "o:jnx").0.is_empty());
}

#[test]
fn combining_terms() {
    let a = ids(&found(Game::Lor, "t:spell"));
    let b = ids(&found(Game::Lor, "region:noxus"));
    let c = ids(&found(Game::Lor, "cost:1"));
    let both = ids(&found(Game::Lor, "t:spell region:noxus"));
    assert_eq!(both, a.intersection(&b).cloned().collect());
    let either = ids(&found(Game::Lor, "t:spell or region:noxus"));
    assert_eq!(either, a.union(&b).cloned().collect());
    assert_eq!(either, ids(&found(Game::Lor, "t:spell OR region:noxus")));
    let all = ids(&index(Game::Lor).cards().iter().collect::<Vec<_>>());
    assert_eq!(
        ids(&found(Game::Lor, "-t:spell")),
        all.difference(&a).cloned().collect()
    );
    let neither = ids(&found(Game::Lor, "-(t:spell or region:noxus)"));
    assert_eq!(neither, all.difference(&either).cloned().collect());
    let grouped = ids(&found(Game::Lor, "(t:spell or region:noxus) cost:1"));
    assert_eq!(grouped, either.intersection(&c).cloned().collect());
    let juxtaposed = ids(&found(Game::Lor, "t:spell region:noxus or cost:1"));
    assert_eq!(juxtaposed, both.union(&c).cloned().collect());
}

#[test]
fn number_operators() {
    let cost = |c: &Card| game(c).cost.unwrap_or(-1);
    for (query, test) in [
        ("cost:3", (|n: i32| n == 3) as fn(i32) -> bool),
        ("cost=3", |n| n == 3),
        ("cost!=3", |n| n != 3),
        ("cost<3", |n| n < 3),
        ("cost<=3", |n| n <= 3),
        ("cost>3", |n| n > 3),
        ("cost>=3", |n| n >= 3),
    ] {
        let cards = found(Game::Lor, query);
        assert!(cards.iter().all(|c| test(cost(c))), "{query}");
        let expected = index(Game::Lor)
            .cards()
            .iter()
            .filter(|c| game(c).cost.is_some_and(test))
            .count();
        assert_eq!(cards.len(), expected, "{query}");
    }
}

#[test]
fn ordered_values_compare_in_the_listed_order() {
    let cards = found(Game::Lor, "r>=rare");
    assert!(cards.iter().all(|c| matches!(
        game(c).rarity_ref.as_deref(),
        Some("Rare" | "Epic" | "Champion")
    )));
    let below = found(Game::Lor, "r<epic");
    assert!(
        below
            .iter()
            .all(|c| matches!(game(c).rarity_ref.as_deref(), Some("Common" | "Rare")))
    );
    // A value outside the list never matches a comparison, though it matches with `:`.
    let (none, warnings) = search_all(Game::Lor, "r>=mythic");
    assert!(none.is_empty() && warnings.len() == 1, "{warnings:?}");
    let pokemon = found(Game::Pokemon, r#"r>="double rare""#);
    assert!(!pokemon.is_empty());
    assert!(!found(Game::Pokemon, "r:holo").is_empty());
    assert!(search_all(Game::Pokemon, r#"r>"rare holo""#).0.is_empty());
}

#[test]
fn unknown_fields_and_shortcuts_match_nothing_with_a_warning() {
    for (game, query, named) in [
        (Game::Lor, "hp>100", "`hp`"),
        (Game::Lor, "is:ex", "`is:ex`"),
        (Game::Pokemon, "region:demacia", "`region`"),
        (Game::Riftbound, "is:landmark", "`is:landmark`"),
        (Game::Riftbound, "foo:bar t:unit", "`foo`"),
    ] {
        let (cards, warnings) = search_all(game, query);
        assert!(cards.is_empty(), "{query}");
        assert!(
            warnings.iter().any(|w| w.contains(named)),
            "{query}: {warnings:?}"
        );
    }
}

#[test]
fn every_shortcut_of_every_game_finds_cards() {
    for game_id in [Game::Lor, Game::Pokemon, Game::Riftbound] {
        for shortcut in games::spec(game_id).shortcuts {
            let query = format!("is:\"{}\"", shortcut.name);
            found(game_id, &query);
            let not = search_all(game_id, &format!("not:\"{}\"", shortcut.name))
                .0
                .len();
            let is = search_all(game_id, &query).0.len();
            assert_eq!(is + not, index(game_id).cards().len(), "{query}");
        }
    }
}

#[test]
fn lor_shortcuts_find_their_kind() {
    let t = |c: &Card| game(c).type_ref.clone().unwrap_or_default();
    assert!(
        found(Game::Lor, "is:champion")
            .iter()
            .all(|c| t(c) == "Unit" && game(c).supertype_ref.as_deref() == Some("Champion"))
    );
    assert!(found(Game::Lor, "is:unit").iter().all(|c| t(c) == "Unit"));
    assert!(
        found(Game::Lor, "is:unit")
            .iter()
            .any(|c| game(c).supertype_ref.as_deref() == Some("Champion"))
    );
    assert!(found(Game::Lor, "is:spell").iter().all(|c| t(c) == "Spell"));
    assert!(
        found(Game::Lor, "is:equipment")
            .iter()
            .all(|c| t(c) == "Equipment")
    );
    assert!(
        found(Game::Lor, "is:collectible")
            .iter()
            .all(|c| c.collectible == Some(true))
    );
    assert!(
        found(Game::Lor, "is:runeterra")
            .iter()
            .all(|c| game(c).region_refs.iter().any(|r| r == "Runeterra"))
    );
}

#[test]
fn lor_regions_and_keywords_are_one_word_and_contain() {
    assert!(
        found(Game::Lor, "region:piltoverzaun")
            .iter()
            .all(|c| game(c).region_refs.iter().any(|r| r == "PiltoverZaun"))
    );
    assert_eq!(
        ids(&found(Game::Lor, "region:shadow")),
        ids(&found(Game::Lor, "region:shadowisles"))
    );
    assert!(
        found(Game::Lor, "kw:quickstrike")
            .iter()
            .all(|c| game(c).keyword_refs.iter().any(|k| k == "QuickStrike"))
    );
    assert!(
        found(Game::Lor, "supertype:champion")
            .iter()
            .all(|c| game(c).supertype_ref.as_deref() == Some("Champion"))
    );
}

#[test]
fn pokemon_ex_and_capital_ex_are_different_shortcuts() {
    let modern = found(Game::Pokemon, "is:ex");
    assert!(
        modern
            .iter()
            .all(|c| game(c).subtypes.iter().any(|s| s == "ex"))
    );
    let old = found(Game::Pokemon, "is:EX");
    assert!(
        old.iter()
            .all(|c| game(c).subtypes.iter().any(|s| s == "EX"))
    );
    let both = ids(&found(Game::Pokemon, "subtype:ex"));
    assert!(ids(&modern).is_subset(&both) && ids(&old).is_subset(&both));
}

#[test]
fn pokemon_trainers_by_subtype_and_final_stage() {
    assert!(
        found(Game::Pokemon, r#"subtype:"pokémon tool""#)
            .iter()
            .all(|c| game(c)
                .subtypes
                .iter()
                .any(|s| s.starts_with("Pokémon Tool")))
    );
    assert!(!found(Game::Pokemon, "subtype:stadium").is_empty());
    let finals = found(Game::Pokemon, "stage:final");
    assert!(finals.iter().all(|c| {
        let g = game(c);
        g.evolves_to_ids.is_empty()
            && g.evolves_to.is_empty()
            && g.supertype.as_deref() == Some("Pokemon")
    }));
    assert!(finals.iter().any(|c| c.name == "Charizard"));
    // Charmander evolves (a few old printings carry no evolution data at all).
    let charmanders = found(Game::Pokemon, "n:!charmander").len();
    let final_charmanders = finals.iter().filter(|c| c.name == "Charmander").count();
    assert!(
        final_charmanders * 4 < charmanders,
        "{final_charmanders} of {charmanders}"
    );
}

#[test]
fn pokemon_cost_symbol_table() {
    let mixes = |c: &Card| -> Vec<(usize, usize, usize)> {
        game(c)
            .attacks
            .iter()
            .map(|a| {
                let n = |e: &str| a.cost.iter().filter(|x| *x == e).count();
                let total = a.cost.iter().filter(|x| *x != "Free").count();
                (n("Fire"), n("Colorless"), total)
            })
            .collect()
    };
    let ge = found(Game::Pokemon, "cost>=RCC");
    assert!(
        ge.iter()
            .all(|c| mixes(c).iter().any(|&(r, cc, _)| r >= 1 && cc >= 2))
    );
    let gt = found(Game::Pokemon, "cost>RCC");
    assert!(gt.iter().all(|c| {
        mixes(c)
            .iter()
            .any(|&(r, cc, t)| r >= 1 && cc >= 2 && t > 3)
    }));
    let le = found(Game::Pokemon, "cost<=RCC");
    assert!(le.iter().all(|c| {
        mixes(c)
            .iter()
            .any(|&(r, cc, t)| t > 0 && r <= 1 && cc <= 2 && r + cc == t)
    }));
    let not_fire = found(Game::Pokemon, "cost!=R");
    assert!(
        not_fire
            .iter()
            .all(|c| mixes(c).iter().all(|&(r, _, _)| r == 0))
    );
    let star = found(Game::Pokemon, "cost:RR*");
    assert!(
        star.iter()
            .all(|c| mixes(c).iter().any(|&(r, _, t)| r >= 2 && t == 3))
    );
    let (lower, warnings) = search_all(Game::Pokemon, "cost:rcc");
    assert!(lower.is_empty() && !warnings.is_empty());
    let two_or_less = found(Game::Pokemon, "cost<=2");
    assert!(
        two_or_less
            .iter()
            .all(|c| mixes(c).iter().any(|&(_, _, t)| t <= 2))
    );
}

#[test]
fn riftbound_keywords_use_underscores() {
    let cards = found(Game::Riftbound, "kw:quick_draw");
    assert!(
        cards
            .iter()
            .all(|c| game(c).keyword_refs.iter().any(|k| k == "quick-draw"))
    );
    assert!(
        found(Game::Riftbound, "supertype:signature")
            .iter()
            .all(|c| game(c).supertype.as_deref() == Some("Signature"))
    );
    assert!(
        found(Game::Riftbound, "t:champion")
            .iter()
            .all(|c| game(c).supertype.as_deref() == Some("Champion"))
    );
}

#[test]
fn order_direction_and_unique_prints() {
    let by_cost = found(Game::Lor, "t:spell order:cost");
    assert!(
        by_cost
            .windows(2)
            .all(|w| game(w[0]).cost <= game(w[1]).cost)
    );
    let desc = found(Game::Lor, "t:spell order:cost direction:desc");
    assert!(desc.windows(2).all(|w| game(w[0]).cost >= game(w[1]).cost));
    let by_name = found(Game::Riftbound, "t:legend order:name");
    assert!(
        by_name
            .windows(2)
            .all(|w| w[0].name.to_lowercase() <= w[1].name.to_lowercase())
    );
    let rarity = found(Game::Lor, "e:set1 order:rarity direction:desc");
    assert_eq!(game(rarity[0]).rarity_ref.as_deref(), Some("Champion"));
    let released = found(Game::Pokemon, "n:charizard order:released");
    assert_eq!(released[0].set_code, "base1");
    assert!(!found(Game::Pokemon, "n:pikachu order:set").is_empty());
    // A picked sort wins over name ranking.
    let named = found(Game::Lor, "jinx order:cost");
    assert!(named.windows(2).all(|w| game(w[0]).cost <= game(w[1]).cost));

    let index = index(Game::Pokemon);
    let cards = index.search("n:!pikachu", 1_000, "").expect("runs");
    let prints = index
        .search("n:!pikachu unique:prints", 1_000, "")
        .expect("runs");
    let printings: usize = cards.cards.iter().map(|hit| hit.card.printings.len()).sum();
    assert_eq!(prints.total, printings);
    assert!(prints.cards.iter().all(|hit| hit.printing.is_some()));
    let sv = index
        .search("n:!pikachu e:svp unique:prints", 1_000, "")
        .expect("runs");
    assert!(
        sv.cards
            .iter()
            .all(|hit| hit.printing.is_some_and(|p| p.set_code.contains("svp")))
    );
}

#[test]
fn paging_walks_every_result_once() {
    let index = index(Game::Lor);
    let all = index.search("t:spell", 1_000, "").expect("runs");
    assert!(all.next_page_token.is_none());
    let mut seen = Vec::new();
    let mut token = String::new();
    loop {
        let page = index.search("t:spell", 100, &token).expect("runs");
        assert_eq!(page.total, all.total);
        seen.extend(page.cards.iter().map(|h| h.card.id.clone()));
        match page.next_page_token {
            Some(next) => token = next,
            None => break,
        }
    }
    assert_eq!(
        seen,
        all.cards
            .iter()
            .map(|h| h.card.id.clone())
            .collect::<Vec<_>>()
    );
    assert!(index.search("t:unit", 10, "nonsense").is_err());
}

#[test]
fn syntax_errors_are_refused_with_their_position() {
    let index = index(Game::Lor);
    for query in [
        "(t:unit",
        "t:unit)",
        "\"draw",
        "n:/(/",
        "t:",
        &"a".repeat(1_001),
    ] {
        let err = index.search(query, 10, "").expect_err(query);
        assert!(!err.to_string().is_empty());
    }
}

#[test]
fn explain_returns_the_tree_as_json() {
    let explained = index(Game::Pokemon)
        .explain("t:water (hp>=120 or is:ex) foo:bar order:name")
        .expect("parses");
    let json = serde_json::to_value(&explained).expect("serializes");
    assert_eq!(json["tree"]["node"], "and");
    assert_eq!(json["order"], "name");
    assert!(explained.warnings.iter().any(|w| w.contains("`foo`")));
}

#[test]
fn text_covers_level_up_text_and_pokemon_attacks() {
    assert!(
        found(Game::Lor, r#"o:"struck twice""#)
            .iter()
            .any(|c| c.name == "Garen")
    );
    let thunderbolt = found(Game::Pokemon, "o:thunderbolt");
    assert!(thunderbolt.iter().any(|c| c.name == "Pikachu ex"));
    let marks = found(Game::Pokemon, "reg>=h");
    assert!(marks.iter().all(|c| {
        c.printings.iter().any(|p| {
            p.metadata
                .as_ref()
                .is_some_and(|m| m.fields.contains_key("regulationMark"))
        }) || game(c).regulation_mark.as_deref().is_some_and(|m| m >= "H")
    }));
    assert!(
        found(Game::Pokemon, "e:sv2")
            .iter()
            .all(|c| c.printings.iter().any(|p| p.set_code.contains("sv2")))
    );
}

#[test]
fn closest_names_come_first_else_catalog_order() {
    let cards = found(Game::Pokemon, "pikachu");
    assert_eq!(cards[0].name, "Pikachu");
    let first_other = cards
        .iter()
        .position(|c| c.name != "Pikachu")
        .expect("more than Pikachu");
    assert!(
        cards[first_other].name.starts_with("Pikachu"),
        "{}",
        cards[first_other].name
    );
    // Fewer typos first: `charzard` is one typo from Charizard.
    let typo = found(Game::Pokemon, "n:charzard");
    assert!(typo[0].name.starts_with("Charizard"));
    // Only fields: catalog order.
    let spells = found(Game::Lor, "t:spell");
    let catalog: Vec<&Card> = index(Game::Lor)
        .cards()
        .iter()
        .filter(|c| game(c).type_ref.as_deref() == Some("Spell"))
        .collect();
    assert_eq!(ids(&spells), ids(&catalog));
    assert!(spells.iter().zip(&catalog).all(|(a, b)| a.id == b.id));
}
