//! Imports the real Legends of Runeterra data (Data Dragon bundles in `<data>/lor/`) and checks
//! it against `shared/data/lor/SOURCE.md` and the Garen example of
//! `spec/turny/reference-card-data-lor.md`.
//!
//! The data folder is `shared/data` beside the repository (`kit::testing::shared`). The data
//! is never copied into the repository; a missing folder fails the test rather than skipping it.

use catalog::domain::{Import, SourceFile, lor};
use serde_json::{Value, json};

fn lor_files() -> Vec<SourceFile> {
    let dir = kit::testing::shared::data_dir().join("lor");
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|error| {
        panic!(
            "cannot read the LoR data folder {} ({error}); set TURNIER_SHARED_DIR",
            dir.display()
        )
    });
    let mut files: Vec<SourceFile> = entries
        .map(|entry| {
            let path = entry.expect("data folder entry is readable").path();
            SourceFile {
                path: path
                    .file_name()
                    .expect("entries have names")
                    .to_string_lossy()
                    .into_owned(),
                contents: std::fs::read(&path).expect("data file is readable"),
            }
        })
        .collect();
    files.sort_by(|a, b| a.path.cmp(&b.path));
    files
}

fn import() -> Import {
    lor::import(&lor_files())
}

fn card_json(import: &Import, id: &str) -> Value {
    let card = import
        .cards
        .iter()
        .find(|card| card.id == id)
        .unwrap_or_else(|| panic!("{id} is imported"));
    serde_json::to_value(card).expect("cards serialize")
}

#[test]
fn every_card_of_every_set_bundle_is_imported() {
    let import = import();
    assert!(import.skipped.is_empty(), "{:?}", import.skipped);
    // SOURCE.md: 2,512 card objects, 1,647 collectible.
    assert_eq!(import.cards.len(), 2512);
    let collectible = import
        .cards
        .iter()
        .filter(|card| card.collectible == Some(true))
        .count();
    assert_eq!(collectible, 1647);
    assert!(import.cards.iter().all(|card| card.printings.is_empty()));
    assert!(import.aliases.is_empty());

    let sets: Vec<(&str, &str, Option<i32>)> = import
        .sets
        .iter()
        .map(|set| (set.code.as_str(), set.label.as_str(), set.total))
        .collect();
    assert_eq!(
        sets,
        [
            ("set1", "Foundations", Some(419)),
            ("set2", "Rising Tides", Some(172)),
            ("set3", "Call of the Mountain", Some(276)),
            ("set4", "Empires of the Ascended", Some(347)),
            ("set5", "Beyond the Bandlewood", Some(363)),
            ("set6", "Worldwalker", Some(183)),
            ("set6cde", "The Darkin Saga", Some(289)),
            ("set7", "Glory in Navori", Some(83)),
            ("set7b", "Heart of the Huntress", Some(87)),
            ("set8", "Fate's Voyage", Some(149)),
            ("set9", "Dreamlit Paths", Some(144)),
        ]
    );
}

#[test]
fn cards_are_in_set_order_then_bundle_order() {
    let import = import();
    let first_of_each_set: Vec<&str> = import
        .cards
        .windows(2)
        .filter(|pair| pair[0].set_code != pair[1].set_code)
        .map(|pair| pair[1].set_code.as_str())
        .collect();
    assert_eq!(
        first_of_each_set,
        [
            "set2", "set3", "set4", "set5", "set6", "set6cde", "set7", "set7b", "set8", "set9"
        ]
    );
    // set1-en_us.json starts with Ionia's 01IO012.
    assert_eq!(import.cards[0].id, "01IO012");
}

/// Garen as `reference-card-data-lor.md` shows him ("trimmed to one image").
fn garen_from_the_spec() -> Value {
    json!({
      "id": "01DE012",
      "name": "Garen",
      "setCode": "set1",
      "collectible": true,
      "assets": [
        {
          "kind": "card",
          "url": "https://cdn.turny.gg/cards/lor/assets/01DE012-card-8a863d8a21d1029ab31bd8454e9456e89c2de96072d27705e2f11883752034f5.webp"
        }
      ],
      "game": {
        "associatedCardRefs": ["01DE012T1", "01DE012T2"],
        "formatRefs": [
          "client_Formats_Eternal_name",
          "client_Formats_Standard_name"
        ],
        "keywordRefs": ["Regeneration"],
        "rarityRef": "Champion",
        "regionRefs": ["Demacia"],
        "vocabTerms": ["Strike"],
        "supertype": "Champion",
        "supertypeRef": "Champion",
        "type": "Unit",
        "typeRef": "Unit",
        "cost": 5,
        "attack": 5,
        "health": 5,
        "description": "When I'm summoned, give other allies +1|+1 this round.",
        "descriptionRaw": "When I'm summoned, give other allies +1|+1 this round.",
        "levelupDescription": "I've struck twice.",
        "levelupDescriptionRaw": "I've struck twice.",
        "flavorText": "Training and resilience are the way of a soldier. Even in the face of great peril, we will not falter.",
        "subtypes": ["ELITE"],
        "artistName": "SIXMOREVODKA"
      }
    })
}

/// Removes the client's inline markup (`<link=…>`, `<style=…>`, …) from card text.
fn without_markup(text: &str) -> String {
    let mut plain = String::new();
    let mut in_tag = false;
    for c in text.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            _ if !in_tag => plain.push(c),
            _ => {}
        }
    }
    plain
}

fn kinds(assets: &Value) -> Vec<&str> {
    assets
        .as_array()
        .map(|list| {
            list.iter()
                .filter_map(|asset| asset["kind"].as_str())
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn garen_matches_the_example_card_of_the_spec_field_by_field() {
    let ours = card_json(&import(), "01DE012");
    let spec = garen_from_the_spec();

    let spec_top = spec.as_object().expect("spec card is an object");
    let our_top = ours.as_object().expect("our card is an object");
    let mut top_keys: Vec<&String> = our_top.keys().collect();
    top_keys.sort();
    let mut spec_top_keys: Vec<&String> = spec_top.keys().collect();
    spec_top_keys.sort();
    assert_eq!(top_keys, spec_top_keys, "same top-level fields");
    for (field, expected) in spec_top {
        match field.as_str() {
            // The spec's example uses a CDN of its own; we serve Data Dragon's URLs and add the
            // full illustration. The example is "trimmed to one image".
            "assets" => {
                assert_eq!(kinds(&ours["assets"]), ["card", "full"]);
                for kind in kinds(expected) {
                    assert!(kinds(&ours["assets"]).contains(&kind), "asset kind {kind}");
                }
            }
            "game" => {}
            _ => assert_eq!(&ours[field], expected, "{field}"),
        }
    }

    let spec_game = spec["game"].as_object().expect("spec game is an object");
    let our_game = ours["game"].as_object().expect("our game is an object");
    let mut game_keys: Vec<&String> = our_game.keys().collect();
    game_keys.sort();
    let mut spec_game_keys: Vec<&String> = spec_game.keys().collect();
    spec_game_keys.sort();
    assert_eq!(game_keys, spec_game_keys, "same game fields");
    for (field, expected) in spec_game {
        let ours = &our_game[field];
        match field.as_str() {
            // Our Data Dragon bundle (patch 5_12_0) has Garen rotated out of Standard; the
            // example was taken while he was still in it.
            "formatRefs" => assert_eq!(ours, &json!(["client_Formats_Eternal_name"]), "{field}"),
            // The page renders the example with the markup tags eaten (its table also shows
            // "(``, `` tags)"); the field itself keeps the client's markup.
            "levelupDescription" => {
                let text = ours.as_str().expect("levelupDescription is text");
                assert!(text.contains("<link=vocab.Strike>"), "{text}");
                assert_eq!(Value::from(without_markup(text)), *expected, "{field}");
            }
            _ => assert_eq!(ours, expected, "game.{field}"),
        }
    }
}

#[test]
fn non_champions_tokens_and_spells_leave_undocumented_and_empty_fields_absent() {
    let import = import();
    let follower = card_json(&import, "01DE001");
    assert!(follower["game"].get("supertype").is_none());
    assert!(follower["game"].get("supertypeRef").is_none());
    assert!(follower["game"].get("spellSpeedRef").is_none());
    assert!(follower.get("printings").is_none());

    let level_up = card_json(&import, "01DE012T1");
    assert_eq!(level_up["collectible"], json!(false));
    assert_eq!(level_up["game"]["rarityRef"], json!("None"));

    let spell = import
        .cards
        .iter()
        .find(|card| {
            card.game
                .as_ref()
                .is_some_and(|game| game.type_ref.as_deref() == Some("Spell"))
        })
        .expect("there are spells");
    let spell = serde_json::to_value(spell).expect("cards serialize");
    assert!(spell["game"]["spellSpeedRef"].is_string(), "{spell}");
    assert_eq!(spell["game"]["attack"], json!(0));
}

#[test]
fn runeterra_champions_carry_their_card_code_and_resolve_in_globals() {
    let import = import();
    let bard = card_json(&import, "06RU001");
    assert_eq!(bard["game"]["regionRefs"], json!(["Runeterra", "06RU001"]));
    let chime_spell = card_json(&import, "06RU001T8");
    assert_eq!(
        chime_spell["game"]["regionRefs"],
        json!(["Runeterra", "06RU001"])
    );

    let champions = import.globals["runeterraChampions"]
        .as_object()
        .expect("runeterraChampions is an object");
    assert_eq!(champions.len(), 11);
    assert_eq!(champions["06RU001"]["cardCode"], json!("06RU001"));
    assert_eq!(champions["06RU001"]["label"], json!("Bard"));
    assert!(
        champions["07RU015"]["icon"]
            .as_str()
            .is_some_and(|icon| icon.ends_with("icon-poroking.png"))
    );

    let regions = import.globals["regions"]
        .as_object()
        .expect("regions is an object");
    let keys: Vec<&str> = regions.keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "Demacia",
            "Freljord",
            "Ionia",
            "Noxus",
            "PiltoverZaun",
            "ShadowIsles",
            "Bilgewater",
            "Shurima",
            "Targon",
            "BandleCity",
            "Runeterra"
        ]
    );
    assert_eq!(regions["PiltoverZaun"]["label"], json!("Piltover & Zaun"));
}

#[test]
fn every_ref_on_every_card_resolves_in_the_globals() {
    let import = import();
    let globals = &import.globals;
    let resolves = |table: &str, key: &str| globals[table].get(key).is_some();
    for card in &import.cards {
        let game = card.game.as_ref().expect("LoR cards have game data");
        assert!(resolves("sets", &card.set_code), "{} set", card.id);
        for region in &game.region_refs {
            assert!(
                resolves("regions", region) || resolves("runeterraChampions", region),
                "{} region {region}",
                card.id
            );
        }
        for keyword in &game.keyword_refs {
            assert!(
                resolves("keywords", keyword),
                "{} keyword {keyword}",
                card.id
            );
        }
        for term in &game.vocab_terms {
            assert!(resolves("vocabTerms", term), "{} vocab {term}", card.id);
        }
        for format in &game.format_refs {
            assert!(resolves("formats", format), "{} format {format}", card.id);
        }
        for (table, key) in [
            ("rarities", &game.rarity_ref),
            ("spellSpeeds", &game.spell_speed_ref),
            ("types", &game.type_ref),
        ] {
            if let Some(key) = key {
                assert!(resolves(table, key), "{} {table} {key}", card.id);
            }
        }
    }
    // Upstream has every key the cards use: nothing was completed with a bare ref as label.
    assert_eq!(
        globals["keywords"].as_object().map(|table| table.len()),
        Some(82)
    );
    assert_eq!(
        globals["vocabTerms"].as_object().map(|table| table.len()),
        Some(47)
    );
    assert_eq!(
        globals["formats"].as_object().map(|table| table.len()),
        Some(5)
    );
    assert_eq!(globals["sets"]["set1"]["label"], json!("Foundations"));
    assert_eq!(globals["rarities"]["None"]["showInFilter"], json!(false));
}

#[test]
fn importing_twice_gives_identical_output() {
    let (first, second) = (import(), import());
    let as_json = |import: &Import| {
        json!({
            "cards": serde_json::to_value(&import.cards).expect("cards serialize"),
            "sets": serde_json::to_value(&import.sets).expect("sets serialize"),
            "globals": import.globals,
            "aliases": import.aliases,
        })
    };
    assert_eq!(as_json(&first).to_string(), as_json(&second).to_string());
    assert_eq!(first.skipped, second.skipped);
}
