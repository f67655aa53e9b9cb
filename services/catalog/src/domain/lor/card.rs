//! One Data Dragon card object → one catalog [`Card`], as `reference-card-data-lor.md` defines it.
//!
//! The field names on both sides are mostly the same; the work is in what the page adds or
//! drops: empty upstream strings become absent fields, the `*Ref` fields the page documents
//! are filled, `vocabTerms` comes from the card text's links, and a Runeterra champion's own
//! cards carry its card code in `regionRefs`. Reading files and ordering cards is in the parent
//! module.

use proto::catalog::v1::{Card, CardAsset, CardGameData};
use serde::Deserialize;

/// The region ref of champions that belong to no region (`regionRefs: ["Runeterra"]`).
pub(super) const RUNETERRA: &str = "Runeterra";

/// The supertype (and supertype ref) of champions.
pub(super) const CHAMPION: &str = "Champion";

/// A card object of a Data Dragon set bundle, with the fields the catalog uses.
///
/// Localized duplicates (`regions`, `keywords`, `spellSpeed`, `rarity`, `formats`,
/// `associatedCards`) are ignored: the page documents only their `*Refs` counterparts. Lists
/// may be `null` or missing (read as empty); a field of the wrong type makes the record
/// malformed.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct UpstreamCard {
    pub(super) card_code: String,
    pub(super) name: String,
    /// The set as Data Dragon writes it (`Set1`).
    pub(super) set: String,
    #[serde(default)]
    collectible: Option<bool>,
    #[serde(default)]
    assets: Option<Vec<UpstreamAsset>>,
    #[serde(default)]
    associated_card_refs: Option<Vec<String>>,
    #[serde(default)]
    format_refs: Option<Vec<String>>,
    #[serde(default)]
    keyword_refs: Option<Vec<String>>,
    #[serde(default)]
    rarity_ref: Option<String>,
    #[serde(default)]
    region_refs: Option<Vec<String>>,
    #[serde(default)]
    spell_speed_ref: Option<String>,
    #[serde(default)]
    supertype: Option<String>,
    #[serde(default, rename = "type")]
    card_type: Option<String>,
    #[serde(default)]
    cost: Option<i32>,
    #[serde(default)]
    attack: Option<i32>,
    #[serde(default)]
    health: Option<i32>,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    description_raw: Option<String>,
    #[serde(default)]
    levelup_description: Option<String>,
    #[serde(default)]
    levelup_description_raw: Option<String>,
    #[serde(default)]
    flavor_text: Option<String>,
    #[serde(default)]
    subtypes: Option<Vec<String>>,
    #[serde(default)]
    artist_name: Option<String>,
}

/// One image pair of a card: the in-game card frame and the full illustration.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
struct UpstreamAsset {
    #[serde(default)]
    game_absolute_path: Option<String>,
    #[serde(default)]
    full_absolute_path: Option<String>,
}

/// Converts an upstream card object into a catalog card.
///
/// The bundle is `en_us`, the catalog locale, so the localized `type`/`supertype` are also the
/// English `typeRef`/`supertypeRef`. A bundle in another locale would need the `en_us`
/// bundle's values for the refs.
pub(super) fn to_card(upstream: UpstreamCard) -> Card {
    let assets = to_assets(upstream.assets.unwrap_or_default());
    let vocab_terms = vocab_terms(&[
        upstream.description.as_deref().unwrap_or_default(),
        upstream.levelup_description.as_deref().unwrap_or_default(),
    ]);
    let card_type = non_empty(upstream.card_type);
    let supertype = non_empty(upstream.supertype);
    let game = CardGameData {
        associated_card_refs: upstream.associated_card_refs.unwrap_or_default(),
        format_refs: upstream.format_refs.unwrap_or_default(),
        keyword_refs: upstream.keyword_refs.unwrap_or_default(),
        // Kept when it is "None": the page documents "None" for tokens and created spells.
        rarity_ref: non_empty(upstream.rarity_ref),
        region_refs: upstream.region_refs.unwrap_or_default(),
        // Data Dragon writes "" on everything but spells; the page wants it absent there.
        spell_speed_ref: non_empty(upstream.spell_speed_ref),
        vocab_terms,
        supertype_ref: supertype.clone(),
        supertype,
        type_ref: card_type.clone(),
        r#type: card_type,
        cost: upstream.cost,
        attack: upstream.attack,
        health: upstream.health,
        description: non_empty(upstream.description),
        description_raw: non_empty(upstream.description_raw),
        levelup_description: non_empty(upstream.levelup_description),
        levelup_description_raw: non_empty(upstream.levelup_description_raw),
        flavor_text: non_empty(upstream.flavor_text),
        subtypes: upstream.subtypes.unwrap_or_default(),
        artist_name: non_empty(upstream.artist_name),
        ..CardGameData::default()
    };
    Card {
        set_code: super::sets::SetCode::new(&upstream.set).as_str().to_owned(),
        id: upstream.card_code,
        name: upstream.name,
        collectible: upstream.collectible,
        // The page: "Absent means it has one", so only the negative is written.
        has_image: assets.is_empty().then_some(false),
        assets,
        // LoR has no reprints: no printings.
        printings: Vec::new(),
        game: Some(game),
    }
}

/// Returns the card's images: `card` (the in-game card, `gameAbsolutePath`) and `full` (the
/// illustration, `fullAbsolutePath`), skipping empty paths.
///
/// The page's example points at a CDN of its own; we serve Data Dragon's URLs unchanged.
fn to_assets(upstream: Vec<UpstreamAsset>) -> Vec<CardAsset> {
    let asset = |kind: &str, url: Option<String>| {
        non_empty(url).map(|url| CardAsset {
            kind: kind.to_owned(),
            url,
            ..CardAsset::default()
        })
    };
    upstream
        .into_iter()
        .flat_map(|pair| {
            [
                asset("card", pair.game_absolute_path),
                asset("full", pair.full_absolute_path),
            ]
        })
        .flatten()
        .collect()
}

/// Returns the glossary terms the texts link to (`<link=vocab.Strike>` → `Strike`), each once,
/// in order of first appearance.
///
/// Data Dragon card objects have no vocab-term list of their own; the client marks every
/// glossary term in the rules text with such a link.
fn vocab_terms(texts: &[&str]) -> Vec<String> {
    const LINK: &str = "<link=vocab.";
    let mut terms: Vec<String> = Vec::new();
    for text in texts {
        let mut rest = *text;
        while let Some(start) = rest.find(LINK) {
            let after = &rest[start + LINK.len()..];
            let Some(end) = after.find('>') else { break };
            let term = &after[..end];
            if !term.is_empty() && !terms.iter().any(|known| known == term) {
                terms.push(term.to_owned());
            }
            rest = &after[end..];
        }
    }
    terms
}

/// Returns the card codes of the Runeterra champions, in catalog order: collectible champions
/// whose region is Runeterra.
pub(super) fn runeterra_champions(cards: &[Card]) -> Vec<String> {
    cards
        .iter()
        .filter(|card| card.collectible == Some(true))
        .filter_map(|card| Some((card, card.game.as_ref()?)))
        .filter(|(_, game)| {
            game.supertype_ref.as_deref() == Some(CHAMPION)
                && game.region_refs.iter().any(|region| region == RUNETERRA)
        })
        .map(|(card, _)| card.id.clone())
        .collect()
}

/// Adds a Runeterra champion's card code to the `regionRefs` of its own cards, as the page
/// documents (`["Runeterra", "06RU001"]` on Bard).
///
/// Data Dragon only writes `["Runeterra"]`. A champion's own cards are taken to be the
/// Runeterra cards whose code is the champion's code, optionally followed by a `T<n>` token
/// suffix: the champion, its level-ups and the spells and tokens it creates (Bard's `06RU001T3`),
/// but not other regions' cards it refers to (the Poro King's `01FR016`).
pub(super) fn add_champion_refs(cards: &mut [Card], champions: &[String]) {
    for card in cards {
        let Some(game) = card.game.as_mut() else {
            continue;
        };
        if !game.region_refs.iter().any(|region| region == RUNETERRA) {
            continue;
        }
        let owner = champions.iter().find(|champion| {
            card.id
                .strip_prefix(champion.as_str())
                .is_some_and(|suffix| suffix.is_empty() || suffix.starts_with('T'))
        });
        if let Some(owner) = owner
            && !game.region_refs.contains(owner)
        {
            game.region_refs.push(owner.clone());
        }
    }
}

/// Returns the string unless it is missing or empty: Data Dragon writes `""` for "none".
fn non_empty(value: Option<String>) -> Option<String> {
    value.filter(|text| !text.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Garen as Data Dragon's set1 bundle has him (assets shortened).
    fn garen() -> serde_json::Value {
        json!({
            "associatedCards": [],
            "associatedCardRefs": ["01DE012T1", "01DE012T2"],
            "assets": [{
                "gameAbsolutePath": "http://dd.b.pvp.net/5_12_0/set1/en_us/img/cards/01DE012.png",
                "fullAbsolutePath": "http://dd.b.pvp.net/5_12_0/set1/en_us/img/cards/01DE012-full.png"
            }],
            "regions": ["Demacia"],
            "regionRefs": ["Demacia"],
            "attack": 5, "cost": 5, "health": 5,
            "description": "When I'm summoned, give other allies +1|+1 this round.",
            "descriptionRaw": "When I'm summoned, give other allies +1|+1 this round.",
            "levelupDescription": "I've <link=vocab.Strike><style=Vocab>struck</style></link> twice.<style=Variable></style>",
            "levelupDescriptionRaw": "I've struck twice.",
            "flavorText": "Training and resilience are the way of a soldier.",
            "artistName": "SIXMOREVODKA",
            "name": "Garen",
            "cardCode": "01DE012",
            "keywords": ["Regeneration"], "keywordRefs": ["Regeneration"],
            "spellSpeed": "", "spellSpeedRef": "",
            "rarity": "Champion", "rarityRef": "Champion",
            "subtypes": ["ELITE"],
            "supertype": "Champion",
            "type": "Unit",
            "collectible": true,
            "set": "Set1",
            "formats": ["Eternal"], "formatRefs": ["client_Formats_Eternal_name"]
        })
    }

    fn convert(value: serde_json::Value) -> serde_json::Value {
        let upstream: UpstreamCard = serde_json::from_value(value).expect("test card is valid");
        serde_json::to_value(to_card(upstream)).expect("cards serialize")
    }

    fn with(mut base: serde_json::Value, changes: serde_json::Value) -> serde_json::Value {
        let (Some(base_fields), Some(changes)) = (base.as_object_mut(), changes.as_object()) else {
            panic!("both are objects");
        };
        for (key, value) in changes {
            base_fields.insert(key.clone(), value.clone());
        }
        base
    }

    #[test]
    fn a_champion_maps_to_every_documented_field() {
        assert_eq!(
            convert(garen()),
            json!({
                "id": "01DE012",
                "name": "Garen",
                "setCode": "set1",
                "collectible": true,
                "assets": [
                    {"kind": "card", "url": "http://dd.b.pvp.net/5_12_0/set1/en_us/img/cards/01DE012.png"},
                    {"kind": "full", "url": "http://dd.b.pvp.net/5_12_0/set1/en_us/img/cards/01DE012-full.png"}
                ],
                "game": {
                    "associatedCardRefs": ["01DE012T1", "01DE012T2"],
                    "type": "Unit",
                    "supertype": "Champion",
                    "subtypes": ["ELITE"],
                    "flavorText": "Training and resilience are the way of a soldier.",
                    "artistName": "SIXMOREVODKA",
                    "keywordRefs": ["Regeneration"],
                    "formatRefs": ["client_Formats_Eternal_name"],
                    "rarityRef": "Champion",
                    "regionRefs": ["Demacia"],
                    "vocabTerms": ["Strike"],
                    "typeRef": "Unit",
                    "supertypeRef": "Champion",
                    "cost": 5,
                    "attack": 5,
                    "health": 5,
                    "description": "When I'm summoned, give other allies +1|+1 this round.",
                    "descriptionRaw": "When I'm summoned, give other allies +1|+1 this round.",
                    "levelupDescription": "I've <link=vocab.Strike><style=Vocab>struck</style></link> twice.<style=Variable></style>",
                    "levelupDescriptionRaw": "I've struck twice."
                }
            })
        );
    }

    #[test]
    fn empty_upstream_strings_become_absent_fields() {
        let follower = convert(with(
            garen(),
            json!({
                "supertype": "", "spellSpeedRef": "", "levelupDescription": "",
                "levelupDescriptionRaw": "", "description": "", "descriptionRaw": "",
                "flavorText": "", "artistName": ""
            }),
        ));
        let game = follower["game"].as_object().expect("game is an object");
        for absent in [
            "supertype",
            "supertypeRef",
            "spellSpeedRef",
            "levelupDescription",
            "levelupDescriptionRaw",
            "description",
            "descriptionRaw",
            "flavorText",
            "artistName",
            "vocabTerms",
        ] {
            assert!(!game.contains_key(absent), "{absent} should be absent");
        }
        // Fields of other games never appear on a LoR card.
        for other in ["rarity", "legalities", "domains", "hp"] {
            assert!(!game.contains_key(other), "{other} belongs to another game");
        }
    }

    #[test]
    fn zero_stats_stay_present() {
        let spell = convert(with(
            garen(),
            json!({"type": "Spell", "attack": 0, "health": 0, "cost": 0, "spellSpeedRef": "Burst"}),
        ));
        assert_eq!(spell["game"]["attack"], json!(0));
        assert_eq!(spell["game"]["health"], json!(0));
        assert_eq!(spell["game"]["cost"], json!(0));
        assert_eq!(spell["game"]["spellSpeedRef"], json!("Burst"));
        assert_eq!(spell["game"]["typeRef"], json!("Spell"));
    }

    #[test]
    fn tokens_are_not_collectible_and_keep_rarity_none() {
        let token = convert(with(
            garen(),
            json!({"cardCode": "01DE012T1", "collectible": false, "rarityRef": "None"}),
        ));
        assert_eq!(token["collectible"], json!(false));
        assert_eq!(token["game"]["rarityRef"], json!("None"));
    }

    #[test]
    fn a_card_without_images_says_so() {
        let blank = convert(with(garen(), json!({"assets": []})));
        assert_eq!(blank["hasImage"], json!(false));
        assert!(blank.get("assets").is_none());
        assert!(convert(garen()).get("hasImage").is_none());
    }

    #[test]
    fn null_lists_read_as_empty() {
        let card = convert(with(
            garen(),
            json!({"subtypes": null, "keywordRefs": null, "associatedCardRefs": null}),
        ));
        for absent in ["subtypes", "keywordRefs", "associatedCardRefs"] {
            assert!(
                card["game"].get(absent).is_none(),
                "{absent} should be absent"
            );
        }
    }

    #[test]
    fn a_field_of_the_wrong_type_makes_the_record_malformed() {
        let bad = with(garen(), json!({"cost": "five"}));
        let error = serde_json::from_value::<UpstreamCard>(bad).expect_err("cost is no number");
        assert!(error.to_string().contains("invalid type"), "{error}");
        let no_code = serde_json::from_value::<UpstreamCard>(json!({"name": "x", "set": "Set1"}))
            .expect_err("card code is required");
        assert!(no_code.to_string().contains("cardCode"), "{no_code}");
    }

    #[test]
    fn vocab_terms_come_from_links_in_order_and_once() {
        let text = "<link=vocab.Strike>a</link> <link=keyword.Stun>b</link> \
                    <link=vocab.Play>c</link> <link=vocab.Strike>d</link>";
        assert_eq!(
            vocab_terms(&[text, "<link=vocab.Rally>e"]),
            ["Strike", "Play", "Rally"]
        );
        assert!(vocab_terms(&["<link=vocab.Unclosed"]).is_empty());
    }

    #[test]
    fn runeterra_champions_own_cards_carry_their_card_code() {
        let card = |code: &str, collectible: bool, champion: bool, region: &str| Card {
            id: code.to_owned(),
            collectible: Some(collectible),
            game: Some(CardGameData {
                supertype_ref: champion.then(|| CHAMPION.to_owned()),
                region_refs: vec![region.to_owned()],
                ..CardGameData::default()
            }),
            ..Card::default()
        };
        let mut cards = vec![
            card("06RU001", true, true, RUNETERRA),
            card("06RU001T3", false, false, RUNETERRA),
            card("06RU0010", true, false, RUNETERRA),
            card("01DE012", true, true, "Demacia"),
            card("06RU002T1", false, true, RUNETERRA),
        ];
        let champions = runeterra_champions(&cards);
        assert_eq!(champions, ["06RU001"]);
        add_champion_refs(&mut cards, &champions);
        let regions: Vec<Vec<String>> = cards
            .iter()
            .map(|card| {
                card.game
                    .as_ref()
                    .map(|game| game.region_refs.clone())
                    .unwrap_or_default()
            })
            .collect();
        assert_eq!(
            regions,
            [
                vec!["Runeterra", "06RU001"],
                vec!["Runeterra", "06RU001"],
                vec!["Runeterra"],
                vec!["Demacia"],
                vec!["Runeterra"],
            ]
        );
    }
}
