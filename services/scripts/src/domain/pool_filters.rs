//! Pool filters: the input a deck rule's `resolvePoolFilters` receives and the filter-model
//! patch it answers with (`shared/spec/turny/reference-scripting-rulesets.md`,
//! "resolvePoolFilters", and the filter keys of `shared/spec/turny/guide-rulesets.md`, "Pool
//! filters").
//!
//! The hook only suggests deck-builder filters: it never runs on submission and has no effect
//! on validity. Running it is the sandbox's job; applying the patch is the builder's.

use proto::scripts::v1::PoolFiltersPatch;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

pub use proto::game::Game;

/// Returns the list-filter keys of the game's deck-builder filter model, the only keys a
/// patch may set.
pub fn filter_keys(game: Game) -> &'static [&'static str] {
    match game {
        Game::Lor => &[
            "regionRefs",
            "typeRefs",
            "rarityRefs",
            "setCodes",
            "keywordVocabRefs",
        ],
        Game::Pokemon => &["cardTypes", "types", "stages", "rarities", "setCodes"],
        Game::Riftbound => &[
            "cardTypes",
            "domains",
            "rarities",
            "sets",
            "supertypes",
            "tags",
        ],
    }
}

/// Normalizes what `resolvePoolFilters` returned into a filter-model patch.
///
/// Returns `None` (no suggestion at all) for `null`, `undefined` and anything that is not a
/// plain object. For an object, each of the game's filter keys ([`filter_keys`]) whose
/// value is an array becomes a suggestion, keeping the array's strings in order (`[]` clears
/// the filter); every other key is dropped (a typo silently does nothing), and so is a filter
/// key whose value is not an array, which leaves that filter alone like an omitted key.
/// Entries that are not strings are dropped from a list: filter values are the refs the
/// catalog emits, which are strings.
pub fn normalize(game: Game, raw: Option<&Value>) -> Option<PoolFiltersPatch> {
    let Some(Value::Object(answer)) = raw else {
        return None;
    };
    let mut patch = PoolFiltersPatch::default();
    for (key, value) in answer {
        if !filter_keys(game).contains(&key.as_str()) {
            continue;
        }
        let (Value::Array(entries), Some(slot)) = (value, field(&mut patch, key)) else {
            continue;
        };
        let values = entries
            .iter()
            .filter_map(|entry| match entry {
                Value::String(text) => Some(pbjson_types::Value::from(text.clone())),
                _ => None,
            })
            .collect();
        *slot = Some(pbjson_types::ListValue { values });
    }
    Some(patch)
}

/// Returns the patch field of a filter key (the proto field's JSON name).
fn field<'a>(
    patch: &'a mut PoolFiltersPatch,
    key: &str,
) -> Option<&'a mut Option<pbjson_types::ListValue>> {
    Some(match key {
        "regionRefs" => &mut patch.region_refs,
        "typeRefs" => &mut patch.type_refs,
        "rarityRefs" => &mut patch.rarity_refs,
        "setCodes" => &mut patch.set_codes,
        "keywordVocabRefs" => &mut patch.keyword_vocab_refs,
        "cardTypes" => &mut patch.card_types,
        "types" => &mut patch.types,
        "stages" => &mut patch.stages,
        "rarities" => &mut patch.rarities,
        "domains" => &mut patch.domains,
        "sets" => &mut patch.sets,
        "supertypes" => &mut patch.supertypes,
        "tags" => &mut patch.tags,
        _ => return None,
    })
}

/// The builder role of a lineup pile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PileRole {
    /// The main deck.
    Main,
    /// The sideboard.
    Sideboard,
    /// Cards under consideration, not in the deck.
    Maybeboard,
    /// The command-zone pile.
    Commander,
}

impl PileRole {
    /// Returns the role as scripts see it (`"main"`, `"sideboard"`, `"maybeboard"`,
    /// `"commander"`).
    pub fn name(self) -> &'static str {
        match self {
            PileRole::Main => "main",
            PileRole::Sideboard => "sideboard",
            PileRole::Maybeboard => "maybeboard",
            PileRole::Commander => "commander",
        }
    }
}

/// One pile of the deck-builder lineup, as `resolvePoolFilters` sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineupPile {
    /// Builder pile id; scripts compare it with `activePileId`.
    pub pile_id: String,
    /// Display name of the pile.
    pub name: String,
    /// Builder role, or `None` for a pile with no special role.
    pub role: Option<PileRole>,
    /// The pile's deck rule, or `None` when it runs with none.
    pub deck_rule_id: Option<String>,
    /// Card refs and copies, in the pile's order (scripts iterating `Object.keys(pile.cards)`
    /// see this order). A repeated ref keeps its first position and its last count.
    pub cards: Vec<(String, u32)>,
}

/// Builds the documented first argument of `resolvePoolFilters`:
/// `{ lineup, activePileId, cardsById, filters }`, each pile as
/// `{ pileId, name, role, deckRuleId, cards }` with `null` for no role or no deck rule.
///
/// `cards_by_id` (catalog entries for every card in the lineup) and `filters` (the builder's
/// current filter model) are passed through in their key order.
pub fn input(
    lineup: &[LineupPile],
    active_pile_id: &str,
    cards_by_id: &Map<String, Value>,
    filters: &Map<String, Value>,
) -> Value {
    let piles = lineup
        .iter()
        .map(|pile| {
            let cards: Map<String, Value> = pile
                .cards
                .iter()
                .map(|(card_ref, copies)| (card_ref.clone(), Value::from(*copies)))
                .collect();
            let mut object = Map::new();
            object.insert("pileId".into(), Value::from(pile.pile_id.clone()));
            object.insert("name".into(), Value::from(pile.name.clone()));
            object.insert(
                "role".into(),
                pile.role
                    .map_or(Value::Null, |role| Value::from(role.name())),
            );
            object.insert(
                "deckRuleId".into(),
                pile.deck_rule_id.clone().map_or(Value::Null, Value::from),
            );
            object.insert("cards".into(), Value::Object(cards));
            Value::Object(object)
        })
        .collect();
    let mut object = Map::new();
    object.insert("lineup".into(), Value::Array(piles));
    object.insert("activePileId".into(), Value::from(active_pile_id));
    object.insert("cardsById".into(), Value::Object(cards_by_id.clone()));
    object.insert("filters".into(), Value::Object(filters.clone()));
    Value::Object(object)
}
