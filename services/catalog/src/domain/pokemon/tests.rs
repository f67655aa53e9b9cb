//! Whole-import tests on small inline data.

use serde_json::{Value, json};

use super::*;

fn file(path: &str, contents: Value) -> SourceFile {
    SourceFile {
        path: path.into(),
        contents: contents.to_string().into_bytes(),
    }
}

fn sets() -> SourceFile {
    file(
        "sets/en.json",
        json!([
            {"id": "me2pt5", "name": "Ascended Heroes", "series": "Mega Evolution", "printedTotal": 217,
             "total": 295, "ptcgoCode": "ASC", "releaseDate": "2026/01/30",
             "images": {"symbol": "https://example.test/s.png", "logo": "https://example.test/l.png"}},
            {"id": "svp", "name": "Scarlet & Violet Black Star Promos", "series": "Scarlet & Violet",
             "printedTotal": 102, "total": 102, "releaseDate": "2023/01/01", "images": {}},
        ]),
    )
}

fn pikachu_ex(id: &str, number: &str, rarity: &str, damage: &str) -> Value {
    json!({
        "id": id, "name": "Pikachu ex", "supertype": "Pokémon", "subtypes": ["Basic", "ex"],
        "hp": "200", "types": ["Lightning"],
        "rules": ["Pokémon ex rule: When your Pokémon ex is Knocked Out, your opponent takes 2 Prize cards."],
        "attacks": [{"name": "Thunderbolt", "cost": ["Lightning", "Lightning", "Colorless"],
                     "convertedEnergyCost": 3, "damage": damage, "text": ""}],
        "weaknesses": [{"type": "Fighting", "value": "×2"}], "retreatCost": ["Colorless"],
        "convertedRetreatCost": 1, "number": number, "artist": "booota", "rarity": rarity,
        "nationalPokedexNumbers": [25], "legalities": {"standard": "Legal", "unlimited": "Legal"},
        "regulationMark": "H",
        "images": {"small": format!("https://example.test/{id}/small"),
                   "large": format!("https://example.test/{id}/large")}
    })
}

fn card_json(import: &Import, index: usize) -> Value {
    serde_json::to_value(&import.cards[index]).expect("cards serialize")
}

#[test]
fn two_printings_of_the_same_card_are_one_identity_with_the_regular_print_as_default() {
    let import = import(&[
        sets(),
        file(
            "cards/en/svp.json",
            json!([pikachu_ex("svp-106", "106", "Promo", "120")]),
        ),
        file(
            "cards/en/me2pt5.json",
            json!([pikachu_ex(
                "me2pt5-276",
                "276",
                "Special Illustration Rare",
                "120"
            )]),
        ),
    ]);
    assert_eq!(import.skipped, []);
    assert_eq!(import.cards.len(), 1);
    let card = &import.cards[0];
    assert!(card.id.starts_with("pikachu-ex--"), "{}", card.id);
    let printing_ids: Vec<&str> = card.printings.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(printing_ids, ["me2pt5-276", "svp-106"]);
    assert_eq!(card.set_code, "me2pt5");
    let game = card.game.as_ref().expect("pokemon cards have game data");
    assert_eq!(game.default_printing_id.as_deref(), Some("me2pt5-276"));
    assert_eq!(game.number.as_deref(), Some("276"));
    assert_eq!(game.rarity.as_deref(), Some("Special Illustration Rare"));
    assert_eq!(
        card.printings[1].release_date.as_deref(),
        Some("2023/01/01")
    );
    assert_eq!(
        import.aliases,
        [
            ("me2pt5-276".to_owned(), card.id.clone()),
            ("svp-106".to_owned(), card.id.clone())
        ]
    );
    assert_eq!(import.globals["printings"]["svp-106"], json!(card.id));
}

#[test]
fn different_attacks_make_different_identities() {
    let import = import(&[
        sets(),
        file(
            "cards/en/me2pt5.json",
            json!([
                pikachu_ex("me2pt5-276", "276", "Rare", "120"),
                pikachu_ex("me2pt5-57", "57", "Rare", "220")
            ]),
        ),
    ]);
    assert_eq!(import.cards.len(), 2);
    assert_ne!(import.cards[0].id, import.cards[1].id);
    // Catalog order within a set is by collector number.
    assert_eq!(import.cards[0].printings[0].id, "me2pt5-57");
}

#[test]
fn the_card_json_has_the_documented_shape_with_pokemon_unaccented() {
    let import = import(&[
        sets(),
        file(
            "cards/en/me2pt5.json",
            json!([pikachu_ex("me2pt5-276", "276", "Rare", "120")]),
        ),
    ]);
    let card = card_json(&import, 0);
    assert_eq!(card["game"]["supertype"], "Pokemon");
    assert_eq!(card["game"]["hp"], "200");
    assert_eq!(card["collectible"], true);
    assert_eq!(
        card["assets"][0],
        json!({"kind": "card", "url": "https://example.test/me2pt5-276/large"})
    );
    assert_eq!(card["assets"][1]["kind"], "thumbnail");
    assert_eq!(
        card["game"]["attacks"],
        json!([{"name": "Thunderbolt", "cost": ["Lightning", "Lightning", "Colorless"],
                "convertedEnergyCost": 3, "damage": "120"}])
    );
    assert_eq!(
        card["game"]["weaknesses"],
        json!([{"type": "Fighting", "value": "×2"}])
    );
    assert_eq!(card["game"]["convertedRetreatCost"], 1);
    assert_eq!(card["game"]["nationalPokedexNumbers"], json!([25]));
    assert_eq!(
        card["printings"][0]["metadata"],
        json!({"rarity": "Rare", "regulationMark": "H", "artist": "booota"})
    );
}

#[test]
fn fields_upstream_lacks_are_absent_not_null_or_empty() {
    let trainer = json!({"id": "me2pt5-1", "name": "Nest Ball", "supertype": "Trainer",
        "subtypes": ["Item"], "number": "1", "rules": ["Search your deck."],
        "legalities": {"unlimited": "Legal"}, "images": {}});
    let import = import(&[sets(), file("cards/en/me2pt5.json", json!([trainer]))]);
    let card = card_json(&import, 0);
    let game = card["game"].as_object().expect("game is an object");
    for absent in [
        "hp",
        "types",
        "attacks",
        "abilities",
        "weaknesses",
        "retreatCost",
        "convertedRetreatCost",
        "artist",
        "rarity",
        "evolvesFrom",
        "evolvesTo",
        "nationalPokedexNumbers",
        "regulationMark",
        "identityAliases",
        "level",
    ] {
        assert!(
            !game.contains_key(absent),
            "{absent} should be absent: {card}"
        );
    }
    assert_eq!(card["hasImage"], false);
    assert!(card.get("assets").is_none());
    assert!(card["printings"][0].get("metadata").is_none());
}

#[test]
fn a_malformed_record_is_skipped_with_its_place_and_reason_and_the_rest_imported() {
    let import = import(&[
        sets(),
        file(
            "cards/en/me2pt5.json",
            json!([
                {"id": "me2pt5-1", "supertype": "Trainer", "number": "1"},
                pikachu_ex("me2pt5-276", "276", "Rare", "120"),
                {"id": "me2pt5-3", "name": "Odd", "supertype": "Pokémon", "number": "3", "hp": 60},
                "not a card",
                pikachu_ex("me2pt5-276", "276", "Rare", "120"),
            ]),
        ),
        SourceFile {
            path: "cards/en/broken.json".into(),
            contents: b"{oops".to_vec(),
        },
    ]);
    assert_eq!(import.cards.len(), 1);
    let skipped: Vec<(&str, &str)> = import
        .skipped
        .iter()
        .map(|s| (s.record.as_str(), s.reason.as_str()))
        .collect();
    assert_eq!(skipped[0], ("cards/en/broken.json", skipped[0].1));
    assert!(
        skipped[0].1.starts_with("file is not a JSON array"),
        "{skipped:?}"
    );
    assert_eq!(skipped[1], ("cards/en/me2pt5.json#0", "missing name"));
    assert_eq!(skipped[2].0, "cards/en/me2pt5.json#2");
    assert!(
        skipped[2].1.contains("invalid type: integer `60`"),
        "{skipped:?}"
    );
    assert_eq!(skipped[3].0, "cards/en/me2pt5.json#3");
    assert_eq!(
        skipped[4],
        (
            "cards/en/me2pt5.json#4",
            "duplicate printing id `me2pt5-276`"
        )
    );
    assert_eq!(skipped.len(), 5);
}

#[test]
fn evolutions_resolve_to_identity_ids_by_name() {
    let pichu = json!({"id": "svp-1", "name": "Pichu", "supertype": "Pokémon", "subtypes": ["Basic"],
        "number": "1", "evolvesTo": ["Pikachu ex"], "images": {}});
    let mut pikachu = pikachu_ex("me2pt5-276", "276", "Rare", "120");
    pikachu["evolvesFrom"] = json!("Pichu");
    pikachu["subtypes"] = json!(["Stage 1", "ex"]);
    let import = import(&[
        sets(),
        file("cards/en/svp.json", json!([pichu])),
        file("cards/en/me2pt5.json", json!([pikachu])),
    ]);
    let (pichu, pikachu) = (card_json(&import, 0), card_json(&import, 1));
    assert_eq!(pichu["game"]["evolvesToIds"], json!([pikachu["id"]]));
    assert_eq!(pikachu["game"]["evolvesFromIds"], json!([pichu["id"]]));
    assert_eq!(pikachu["game"]["evolvesFrom"], "Pichu");
}

#[test]
fn a_ban_on_any_printing_bans_the_card_a_legal_printing_makes_it_legal_and_not_legal_reads_illegal()
{
    let mut old = pikachu_ex("svp-106", "106", "Promo", "120");
    old["legalities"] =
        json!({"standard": "Not Legal", "expanded": "Banned", "standard-jp": "Not Legal"});
    let new = pikachu_ex("me2pt5-276", "276", "Rare", "120");
    let import = import(&[
        sets(),
        file("cards/en/svp.json", json!([old])),
        file("cards/en/me2pt5.json", json!([new])),
    ]);
    let card = card_json(&import, 0);
    assert_eq!(
        card["game"]["legalities"],
        json!({"standard": "Legal", "expanded": "Banned", "unlimited": "Legal", "standard-jp": "Illegal"})
    );
}

#[test]
fn globals_list_sets_with_the_documented_fields_in_release_order() {
    let import = import(&[sets()]);
    let sets = import.globals["sets"]
        .as_object()
        .expect("sets is an object");
    assert_eq!(sets.keys().collect::<Vec<_>>(), ["svp", "me2pt5"]);
    assert_eq!(
        sets["me2pt5"],
        json!({"label": "Ascended Heroes", "series": "Mega Evolution", "printedTotal": 217,
               "total": 295, "ptcgoCode": "ASC", "releaseDate": "2026/01/30",
               "images": {"logo": "https://example.test/l.png", "symbol": "https://example.test/s.png"}})
    );
    assert!(sets["svp"].get("images").is_none());
    assert!(sets["svp"].get("ptcgoCode").is_none());
    assert_eq!(import.sets[1].ptcgo_code.as_deref(), Some("ASC"));
    assert_eq!(import.sets[0].code, "svp");
}

#[test]
fn decks_and_other_files_are_ignored() {
    let import = import(&[
        sets(),
        file("decks/en/me2pt5.json", json!([{"id": "d-1", "cards": []}])),
        SourceFile {
            path: "SOURCE.md".into(),
            contents: b"# notes".to_vec(),
        },
    ]);
    assert!(import.cards.is_empty());
    assert_eq!(import.skipped, []);
}
