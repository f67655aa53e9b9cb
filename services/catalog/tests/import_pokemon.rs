//! The Pokémon TCG importer on the real upstream data in `shared/data/pokemon` (never copied
//! into the repository): counts, stable ids, and Pikachu ex against the card-data page's
//! example object.
//!
//! The data folder is `shared/data` beside the repository (`kit::testing::shared`).

use std::path::Path;
use std::sync::OnceLock;

use catalog::domain::{Import, SourceFile, pokemon};
use serde_json::{Value, json};

/// Printings in the data snapshot, per its `SOURCE.md`.
const UPSTREAM_PRINTINGS: usize = 20_078;

/// The example card of `reference-card-data-pokemon.md`, verbatim.
const PAGE_EXAMPLE: &str = r#"{
  "id": "pikachu-ex--1f29b66b68bc",
  "name": "Pikachu ex",
  "setCode": "me2pt5",
  "collectible": true,
  "assets": [
    {
      "kind": "card",
      "url": "https://cdn.turny.gg/cards/pokemon/assets/me2pt5-276-en-card-685c27781bd507cac386d4a882d063dedea2430e20472857fe1881360eae4777.webp"
    }
  ],
  "printings": [
    {
      "id": "me2pt5-276",
      "setCode": "me2pt5",
      "number": "276",
      "releaseDate": "2026/01/30",
      "assets": [
        {
          "kind": "card",
          "url": "https://cdn.turny.gg/cards/pokemon/assets/me2pt5-276-en-card-685c27781bd507cac386d4a882d063dedea2430e20472857fe1881360eae4777.webp"
        }
      ],
      "variants": [],
      "metadata": {
        "rarity": "Special Illustration Rare",
        "regulationMark": "H",
        "artist": "booota"
      }
    },
    {
      "id": "svp-106",
      "setCode": "svp",
      "number": "106",
      "releaseDate": "2023/01/01",
      "assets": [
        {
          "kind": "card",
          "url": "https://cdn.turny.gg/cards/pokemon/assets/svp-106-en-card-6834a96f03cf2394d164d4c948035eddc63428fcfd0c08d201e14064fe9b21dd.webp"
        }
      ],
      "variants": [],
      "metadata": {
        "rarity": "Promo",
        "regulationMark": "H",
        "artist": "takuyoa"
      }
    }
  ],
  "game": {
    "supertype": "Pokemon",
    "subtypes": ["Basic", "ex"],
    "hp": "200",
    "types": ["Lightning"],
    "rules": [
      "Pokémon ex rule: When your Pokémon ex is Knocked Out, your opponent takes 2 Prize cards."
    ],
    "attacks": [
      {
        "name": "Thunderbolt",
        "cost": ["Lightning", "Lightning", "Colorless"],
        "convertedEnergyCost": 3,
        "damage": "120"
      }
    ],
    "weaknesses": [{ "type": "Fighting", "value": "×2" }],
    "retreatCost": ["Colorless"],
    "convertedRetreatCost": 1,
    "number": "276",
    "nationalPokedexNumbers": [25],
    "rarity": "Special Illustration Rare",
    "regulationMark": "H",
    "artist": "booota",
    "legalities": {
      "expanded": "Legal",
      "expanded-jp": "Legal",
      "standard": "Legal",
      "standard-future": "Legal",
      "standard-jp": "Legal",
      "unlimited": "Legal"
    },
    "identityAliases": ["pikachu-ex--1f4e7709a44c", "pikachu-ex--3f6f59171eb0"],
    "defaultPrintingId": "me2pt5-276"
  }
}"#;

/// Every file under `<data>/pokemon`, with paths relative to it (`decks/` and `SOURCE.md`
/// included: the importer must ignore them).
fn source_files() -> Vec<SourceFile> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<SourceFile>) {
        let entries = std::fs::read_dir(dir).unwrap_or_else(|err| {
            panic!(
                "cannot read the Pokémon data folder {}: {err}",
                dir.display()
            )
        });
        for entry in entries {
            let path = entry.expect("directory entries are readable").path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                let relative = path
                    .strip_prefix(root)
                    .expect("walked paths are under the root");
                let parts: Vec<String> = relative
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                out.push(SourceFile {
                    path: parts.join("/"),
                    contents: std::fs::read(&path).expect("data files are readable"),
                });
            }
        }
    }
    let root = kit::testing::shared::data_dir().join("pokemon");
    let mut files = Vec::new();
    walk(&root, &root, &mut files);
    files
}

/// One import of the real data, shared by the tests of this file.
fn imported() -> &'static Import {
    static IMPORT: OnceLock<Import> = OnceLock::new();
    IMPORT.get_or_init(|| pokemon::import(&source_files()))
}

fn card_with_printing(import: &Import, printing_id: &str) -> Value {
    let card = import
        .cards
        .iter()
        .find(|card| {
            card.printings
                .iter()
                .any(|printing| printing.id == printing_id)
        })
        .unwrap_or_else(|| panic!("no card has printing {printing_id}"));
    serde_json::to_value(card).expect("cards serialize")
}

fn kinds(assets: &Value) -> Vec<&str> {
    assets
        .as_array()
        .map(|assets| assets.iter().filter_map(|a| a["kind"].as_str()).collect())
        .unwrap_or_default()
}

#[test]
fn every_upstream_printing_is_imported_into_fewer_identities() {
    let import = imported();
    assert_eq!(import.skipped, [], "the snapshot has no malformed records");
    let printings: usize = import.cards.iter().map(|card| card.printings.len()).sum();
    assert_eq!(printings, UPSTREAM_PRINTINGS);
    assert_eq!(import.aliases.len(), UPSTREAM_PRINTINGS);
    assert_eq!(
        import.globals["printings"].as_object().map(|p| p.len()),
        Some(UPSTREAM_PRINTINGS)
    );
    assert!(
        import.cards.len() < printings,
        "{} identities",
        import.cards.len()
    );
    assert_eq!(import.sets.len(), 171);
    assert_eq!(
        import.globals["sets"].as_object().map(|s| s.len()),
        Some(171)
    );
    println!(
        "pokemon: {} identities, {printings} printings",
        import.cards.len()
    );
}

#[test]
fn importing_the_same_data_twice_gives_the_same_ids_and_cards() {
    let again = pokemon::import(&source_files());
    let first = imported();
    let ids = |import: &Import| {
        import
            .cards
            .iter()
            .map(|card| card.id.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(ids(first), ids(&again));
    assert_eq!(first.aliases, again.aliases);
    assert_eq!(first.cards, again.cards);
}

#[test]
fn catalog_order_follows_set_release_dates() {
    let import = imported();
    assert_eq!(import.cards[0].set_code, "base1");
    assert_eq!(
        import.cards[0]
            .game
            .as_ref()
            .and_then(|g| g.number.as_deref()),
        Some("1")
    );
    assert_eq!(import.sets.first().map(|s| s.code.as_str()), Some("base1"));
    let release = |set_code: &str| {
        import
            .sets
            .iter()
            .find(|set| set.code == set_code)
            .and_then(|set| set.release_date.clone())
    };
    let dates: Vec<_> = import
        .cards
        .iter()
        .map(|card| release(&card.set_code))
        .collect();
    assert!(dates.windows(2).all(|pair| pair[0] <= pair[1]));
}

#[test]
fn pikachu_ex_matches_the_card_data_page_example_field_by_field() {
    let example: Value = serde_json::from_str(PAGE_EXAMPLE).expect("the example is JSON");
    let import = imported();
    let ours = card_with_printing(import, "svp-106");
    assert_eq!(
        ours,
        card_with_printing(import, "me2pt5-276"),
        "both refs are one identity"
    );

    // The hash differs from the page's (another data source and key recipe); the shape doesn't.
    let id = ours["id"].as_str().expect("id is a string");
    let (slug, hash) = id.split_once("--").expect("identity ids are slug--hash");
    let (page_slug, page_hash) = example["id"]
        .as_str()
        .and_then(|id| id.split_once("--"))
        .expect("page id");
    assert_eq!(slug, page_slug);
    assert_eq!(hash.len(), page_hash.len());
    assert!(hash.chars().all(|c| c.is_ascii_hexdigit()));

    for field in ["name", "setCode", "collectible"] {
        assert_eq!(ours[field], example[field], "{field}");
    }
    assert!(ours.get("hasImage").is_none());
    // Asset URLs are upstream's, not the page's CDN: compare kinds.
    for kind in kinds(&example["assets"]) {
        assert!(
            kinds(&ours["assets"]).contains(&kind),
            "card asset kind {kind}"
        );
    }

    // The page trims to two printings; ours has the same two, default first.
    assert_eq!(ours["printings"][0]["id"], example["printings"][0]["id"]);
    for page_printing in example["printings"].as_array().expect("printings") {
        let our_printing = ours["printings"]
            .as_array()
            .and_then(|printings| printings.iter().find(|p| p["id"] == page_printing["id"]))
            .unwrap_or_else(|| panic!("printing {}", page_printing["id"]));
        for field in ["setCode", "number", "releaseDate", "metadata"] {
            assert_eq!(
                our_printing[field], page_printing[field],
                "{} {field}",
                page_printing["id"]
            );
        }
        // An empty list is absent in proto3 JSON.
        assert_eq!(
            our_printing.get("variants").cloned().unwrap_or(json!([])),
            page_printing["variants"]
        );
        for kind in kinds(&page_printing["assets"]) {
            assert!(
                kinds(&our_printing["assets"]).contains(&kind),
                "printing asset kind {kind}"
            );
        }
    }

    let (our_game, page_game) = (&ours["game"], example["game"].as_object().expect("game"));
    let mut missing = Vec::new();
    for (field, page_value) in page_game {
        match our_game.get(field) {
            None => missing.push(field.as_str()),
            Some(our_value) if field == "legalities" => {
                // Upstream has standard/expanded/unlimited; the page adds the -jp and -future
                // formats, which upstream does not know.
                let ours = our_value.as_object().expect("legalities is an object");
                assert!(ours.len() >= 3, "{ours:?}");
                for (format, status) in ours {
                    assert_eq!(Some(status), page_value.get(format), "legality {format}");
                }
            }
            Some(our_value) => assert_eq!(our_value, page_value, "game.{field}"),
        }
    }
    // Upstream has no pre-Western-release ids, so no identity aliases.
    assert_eq!(missing, ["identityAliases"]);
}

#[test]
fn the_documented_supertypes_are_unaccented() {
    let import = imported();
    for card in &import.cards {
        let supertype = card
            .game
            .as_ref()
            .and_then(|game| game.supertype.as_deref());
        assert!(
            matches!(supertype, Some("Pokemon" | "Trainer" | "Energy")),
            "{}: {supertype:?}",
            card.id
        );
    }
}

#[test]
fn set_globals_carry_the_documented_fields() {
    let sets = &imported().globals["sets"];
    assert_eq!(
        sets["sv2"],
        json!({
            "label": "Paldea Evolved", "series": "Scarlet & Violet", "printedTotal": 193,
            "total": 279, "ptcgoCode": "PAL", "releaseDate": "2023/06/09",
            "images": {"logo": "https://images.pokemontcg.io/sv2/logo.png",
                       "symbol": "https://images.pokemontcg.io/sv2/symbol.png"}
        })
    );
}
