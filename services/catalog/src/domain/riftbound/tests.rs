//! Importer tests on small inline dumps shaped like riftcodex records.

use serde_json::{Value, json};

use super::*;

/// A riftcodex record for Jinx, Demolitionist at `id`, with `changes` merged over it.
fn jinx(id: &str, changes: Value) -> Value {
    let set = id.split('-').next().unwrap_or_default().to_uppercase();
    let number: u32 = id
        .split('-')
        .nth(1)
        .map(|slot| slot.trim_end_matches(|c: char| !c.is_ascii_digit()))
        .and_then(|digits| digits.parse().ok())
        .unwrap_or(1);
    let mut record = json!({
        "id": "x", "name": "Jinx - Demolitionist", "riftbound_id": id, "tcgplayer_id": "652802",
        "collector_number": number,
        "attributes": {"energy": 3, "might": 4, "power": 1},
        "classification": {"type": "Unit", "supertype": "Champion", "rarity": "Rare", "domain": ["Fury"]},
        "text": {
            "rich": "<p>[Accelerate] (You may pay :rb_energy_1::rb_rune_fury: as an additional cost to have me enter ready.)<br />[Assault 2] (+2 :rb_might: while I'm an attacker.)<br />When you play me, discard 2.</p>",
            "plain": "[Accelerate] (You may pay :rb_energy_1::rb_rune_fury: as an additional cost to have me enter ready.)[Assault 2] (+2 :rb_might: while I'm an attacker.)When you play me, discard 2.",
            "flavour": "I really need a new gun. But don't tell my other guns."
        },
        "set": {"set_id": set, "label": "Origins"},
        "media": {"image_url": format!("https://img.test/{id}.png"), "artist": "Kudos Productions"},
        "tags": ["Jinx", "Zaun"], "orientation": "portrait",
        "metadata": {"updated_on": "2026-07-10T00:00:00+00:00", "alternate_art": false, "overnumbered": false, "signature": false},
        "new": false
    });
    merge(&mut record, changes);
    record
}

fn merge(target: &mut Value, changes: Value) {
    match (target, changes) {
        (Value::Object(target), Value::Object(changes)) => {
            for (key, value) in changes {
                merge(target.entry(key).or_insert(Value::Null), value);
            }
        }
        (target, changes) => *target = changes,
    }
}

fn dump(records: &[Value]) -> Vec<SourceFile> {
    vec![SourceFile {
        path: "cards.json".to_owned(),
        contents: serde_json::to_vec(records).expect("serializable"),
    }]
}

fn printing_ids(card: &Card) -> Vec<&str> {
    card.printings.iter().map(|p| p.id.as_str()).collect()
}

fn game(card: &Card) -> &proto::catalog::v1::CardGameData {
    card.game.as_ref().expect("riftbound cards have game data")
}

#[test]
fn every_printing_of_one_card_becomes_one_identity() {
    let import = import(&dump(&[
        jinx(
            "ven-168-166",
            json!({"name": "Jinx, Demolitionist (Overnumbered)", "set": {"label": "Vendetta"},
            "text": {"plain": "[Accelerate][Assault 2]When you play me, discard 2."}}),
        ),
        jinx(
            "ogn-030a-298",
            json!({"name": "Jinx - Demolitionist (Alternate Art)", "metadata": {"alternate_art": true}}),
        ),
        jinx("ogn-030-298", json!({})),
    ]));
    assert!(import.skipped.is_empty(), "{:?}", import.skipped);
    assert_eq!(import.cards.len(), 1);
    let card = &import.cards[0];
    assert!(
        card.id.starts_with("rb-") && card.id.len() == 23,
        "{}",
        card.id
    );
    assert_eq!(card.name, "Jinx - Demolitionist");
    assert_eq!(
        printing_ids(card),
        ["ogn-030-298", "ogn-030a-298", "ven-168-166"]
    );
    for alias in [
        "ogn-030-298",
        "ogn-030-298:normal",
        "ogn-030a-298:alternate_art",
        "ven-168-166:showcase",
    ] {
        assert!(
            import
                .aliases
                .contains(&(alias.to_owned(), card.id.clone())),
            "{alias}"
        );
        assert_eq!(import.globals["aliases"][alias], json!(card.id));
    }
    assert_eq!(import.globals["aliases"][&card.id], json!(card.id));
}

#[test]
fn treatments_are_id_suffixes_and_variant_kinds() {
    let import = import(&dump(&[
        jinx("ogn-030-298", json!({})),
        jinx(
            "ogn-030a-298",
            json!({"name": "Jinx - Demolitionist (Alternate Art)"}),
        ),
        jinx(
            "ogn-301*-298",
            json!({"name": "Jinx - Demolitionist (Signature)", "metadata": {"signature": true}}),
        ),
    ]));
    let variants: Vec<(&str, Option<&str>)> = import.cards[0]
        .printings
        .iter()
        .flat_map(|p| &p.variants)
        .map(|v| (v.id.as_str(), v.kind.as_deref()))
        .collect();
    assert_eq!(
        variants,
        [
            ("ogn-030-298:normal", Some("normal")),
            ("ogn-030a-298:alternate_art", Some("alternate_art")),
            ("ogn-301*-298:signature", Some("signature")),
        ]
    );
}

#[test]
fn the_default_printing_is_the_first_normal_print_of_the_earliest_main_set() {
    let import = import(&dump(&[
        jinx(
            "pr-030-298",
            json!({"set": {"label": "Promos"}, "classification": {"rarity": "Promo"}}),
        ),
        jinx(
            "sfd-050-221",
            json!({"classification": {"rarity": "Common"}, "media": {"artist": "Second"}}),
        ),
        jinx(
            "ogn-030a-298",
            json!({"name": "Jinx - Demolitionist (Alternate Art)", "classification": {"rarity": "Showcase"}}),
        ),
        jinx("unl-012-219", json!({})),
    ]));
    let card = &import.cards[0];
    assert_eq!(
        printing_ids(card),
        ["sfd-050-221", "ogn-030a-298", "unl-012-219", "pr-030-298"]
    );
    let game = game(card);
    assert_eq!(game.default_printing_id.as_deref(), Some("sfd-050-221"));
    assert_eq!(card.set_code, "SFD");
    assert_eq!(game.collector_number.as_deref(), Some("50"));
    assert_eq!(game.rarity.as_deref(), Some("common"));
    assert_eq!(game.artist_name.as_deref(), Some("Second"));
    assert_eq!(game.variant.as_deref(), Some("normal"));
    assert_eq!(game.alternate_art, None);
}

#[test]
fn keywords_are_normalized_and_only_referenced_ones_reach_the_glossary() {
    let import = import(&dump(&[jinx("ogn-030-298", json!({}))]));
    assert_eq!(
        game(&import.cards[0]).keyword_refs,
        ["accelerate", "assault"]
    );
    let keywords = import.globals["keywords"]
        .as_object()
        .expect("keywords object");
    assert_eq!(
        keywords.keys().collect::<Vec<_>>(),
        ["accelerate", "assault"]
    );
    assert_eq!(keywords["assault"]["label"], "Assault");
    assert_eq!(
        keywords["accelerate"]["description"],
        "You may pay :rb_energy_1::rb_rune_fury: as an additional cost to have me enter ready."
    );
    // Only `[Assault 2]` is printed, and its reminder is about 2: no description.
    assert!(keywords["assault"].get("description").is_none());
    let symbols = import.globals["symbols"]
        .as_object()
        .expect("symbols object");
    assert_eq!(
        symbols.keys().collect::<Vec<_>>(),
        ["rb_energy_1", "rb_might", "rb_rune_fury"]
    );
    assert_eq!(symbols["rb_might"], json!({"token": ":rb_might:"}));
}

#[test]
fn a_card_without_domains_is_colorless() {
    let import = import(&dump(&[jinx(
        "ogn-275-298",
        json!({"name": "Sunken Temple", "classification": {"type": "Battlefield", "supertype": null, "domain": []},
            "orientation": "landscape"}),
    )]));
    let game = game(&import.cards[0]);
    assert_eq!(game.domains, ["colorless"]);
    assert_eq!(game.r#type.as_deref(), Some("battlefield"));
    assert_eq!(game.orientation.as_deref(), Some("landscape"));
    assert_eq!(
        import.globals["domains"]["colorless"],
        json!({"label": "Colorless", "order": 1})
    );
}

#[test]
fn a_malformed_record_is_skipped_with_its_place_and_reason() {
    let mut broken = jinx("ogn-031-298", json!({"name": "Broken"}));
    broken
        .as_object_mut()
        .expect("object")
        .remove("riftbound_id");
    let import = import(&dump(&[
        jinx("ogn-030-298", json!({})),
        broken,
        json!("not a record"),
    ]));
    assert_eq!(import.cards.len(), 1);
    assert_eq!(import.skipped.len(), 2);
    assert_eq!(import.skipped[0].record, "cards.json#1");
    assert!(
        import.skipped[0]
            .reason
            .contains("missing field `riftbound_id`"),
        "{:?}",
        import.skipped
    );
    assert_eq!(import.skipped[1].record, "cards.json#2");
}

#[test]
fn a_file_that_is_not_a_record_array_is_skipped_and_other_files_still_import() {
    let mut files = dump(&[jinx("ogn-030-298", json!({}))]);
    files.push(SourceFile {
        path: "broken.json".to_owned(),
        contents: b"{".to_vec(),
    });
    files.push(SourceFile {
        path: "SOURCE.md".to_owned(),
        contents: b"# notes".to_vec(),
    });
    let import = import(&files);
    assert_eq!(import.cards.len(), 1);
    assert_eq!(import.skipped.len(), 1);
    assert_eq!(import.skipped[0].record, "broken.json");
}

#[test]
fn an_older_harvest_of_a_printing_is_superseded_by_the_newer_record() {
    let import = import(&dump(&[
        jinx(
            "ven-139-166",
            json!({"name": "Rogue Assassin", "tcgplayer_id": null,
            "metadata": {"updated_on": "2026-07-10T00:00:00+00:00"}}),
        ),
        jinx(
            "ven-139-166",
            json!({"name": "Akali - Rogue Assassin", "tcgplayer_id": "706001",
            "metadata": {"updated_on": "2026-07-14T00:00:00+00:00"}}),
        ),
    ]));
    assert_eq!(import.cards.len(), 1);
    assert_eq!(import.cards[0].name, "Akali - Rogue Assassin");
    assert_eq!(import.skipped.len(), 1);
    assert_eq!(import.skipped[0].record, "cards.json#0");
    assert_eq!(
        import.skipped[0].reason,
        "superseded by cards.json#1, a newer record of ven-139-166"
    );
}

#[test]
fn a_metal_promo_filed_under_the_regular_promo_id_is_a_second_variant() {
    let import = import(&dump(&[
        jinx(
            "opp-030-298",
            json!({"name": "Jinx - Demolitionist (Metal)", "tcgplayer_id": "1"}),
        ),
        jinx("opp-030-298", json!({"tcgplayer_id": "2"})),
    ]));
    assert!(import.skipped.is_empty(), "{:?}", import.skipped);
    let printing = &import.cards[0].printings[0];
    let ids: Vec<&str> = printing.variants.iter().map(|v| v.id.as_str()).collect();
    assert_eq!(ids, ["opp-030-298:normal", "opp-030-298:metal"]);
    let metadata = serde_json::to_value(&printing.metadata).expect("serializable");
    assert_eq!(metadata, json!({"tcgplayerId": "2"}));
}

#[test]
fn cards_are_in_set_release_order_then_collector_number() {
    let named = |id: &str, name: &str| jinx(id, json!({"name": name}));
    let import = import(&dump(&[
        named("ven-001-166", "Late"),
        named("ogn-100-298", "Hundred"),
        named("ogn-009-298", "Nine"),
        named("opp-001-298", "Promo only"),
    ]));
    let names: Vec<&str> = import.cards.iter().map(|card| card.name.as_str()).collect();
    assert_eq!(names, ["Nine", "Hundred", "Late", "Promo only"]);
    let sets: Vec<&str> = import.sets.iter().map(|set| set.code.as_str()).collect();
    assert_eq!(sets, ["OGN", "VEN", "OPP"]);
    assert_eq!(import.sets[0].printed_total, Some(298));
    assert_eq!(import.sets[2].printed_total, None);
}

#[test]
fn tokens_are_not_collectible_and_have_no_legalities() {
    let import = import(&dump(&[jinx(
        "sfd-t03",
        json!({"name": "Gold // Buff", "classification": {"type": "Gear", "supertype": "Token", "domain": ["Colorless"]}}),
    )]));
    let card = &import.cards[0];
    assert_eq!(card.collectible, Some(false));
    assert!(game(card).legalities.is_empty());
    assert_eq!(printing_ids(card), ["sfd-t03"]);
}

#[test]
fn the_same_dump_always_gives_the_same_ids() {
    let records = [
        jinx("ogn-030-298", json!({})),
        jinx("ogn-030a-298", json!({})),
    ];
    let first = import(&dump(&records));
    let second = import(&dump(&records));
    assert_eq!(first.cards, second.cards);
    assert_eq!(first.aliases, second.aliases);
    assert_eq!(
        first.cards[0].id,
        identity_id("jinx, demolitionist", "unit")
    );
}

#[test]
fn a_preview_record_named_by_its_subtitle_joins_its_champion_card() {
    let legend = |id: &str, name: &str| {
        jinx(
            id,
            json!({"name": name, "tags": ["Jayce"], "classification": {"type": "Legend"}}),
        )
    };
    let import = import(&dump(&[
        legend("ven-149-166", "Jayce - Defender of Tomorrow"),
        legend("ven-194-166", "Defender of Tomorrow"),
        jinx(
            "ven-001-166",
            json!({"name": "Defender of Tomorrow", "tags": ["Zaun"]}),
        ),
    ]));
    let cards: Vec<(&str, Vec<&str>)> = import
        .cards
        .iter()
        .map(|card| (card.name.as_str(), printing_ids(card)))
        .collect();
    assert_eq!(
        cards,
        [
            ("Defender of Tomorrow", vec!["ven-001-166"]),
            (
                "Jayce - Defender of Tomorrow",
                vec!["ven-149-166", "ven-194-166"]
            )
        ]
    );
}
