//! The upstream Pokémon TCG data (PokemonTCG/pokemon-tcg-data, the data behind pokemontcg.io)
//! read into plain structs: `sets/en.json` and `cards/en/<setId>.json`.
//!
//! This module only parses and checks single records. Which records make one card identity is
//! decided in [`super::identity`], and the catalog card is built in [`super::card`].

use std::collections::BTreeMap;

use serde::Deserialize;

/// Why one upstream record (or a whole file) was not imported.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// The file is not a JSON array of objects.
    #[error("file is not a JSON array: {0}")]
    NotAnArray(#[source] serde_json::Error),
    /// The record does not have the upstream shape (a missing or mistyped field).
    #[error("malformed record: {0}")]
    Malformed(#[source] serde_json::Error),
    /// The record has an empty `name`.
    #[error("missing name")]
    MissingName,
    /// The record has an empty `number`.
    #[error("missing number")]
    MissingNumber,
    /// The set record has an empty `id`.
    #[error("missing set id")]
    MissingSetId,
    /// The `supertype` is none of `Pokémon`, `Trainer`, `Energy`.
    #[error("unknown supertype `{0}`")]
    UnknownSupertype(String),
    /// Another record already has this printing id.
    #[error("duplicate printing id `{0}`")]
    DuplicatePrinting(String),
    /// Another set record already has this set id.
    #[error("duplicate set id `{0}`")]
    DuplicateSet(String),
}

/// One entry of `sets/en.json`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UpstreamSet {
    /// Set code (`sv2`), also the name of the set's card file.
    pub id: String,
    /// Set name (`Paldea Evolved`).
    pub name: String,
    pub series: Option<String>,
    pub printed_total: Option<i32>,
    pub total: Option<i32>,
    pub ptcgo_code: Option<String>,
    /// `YYYY/MM/DD`.
    pub release_date: Option<String>,
    #[serde(default)]
    pub images: SetImages,
}

/// A set's logo and symbol URLs.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct SetImages {
    pub logo: Option<String>,
    pub symbol: Option<String>,
}

/// One card object of `cards/en/<setId>.json`: one printing.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct UpstreamCard {
    /// Upstream id, normally `<setId>-<number>`.
    pub id: Option<String>,
    pub name: String,
    /// `Pokémon` (accented), `Trainer` or `Energy`.
    pub supertype: String,
    pub subtypes: Vec<String>,
    pub level: Option<String>,
    pub hp: Option<String>,
    pub types: Vec<String>,
    pub evolves_from: Option<String>,
    pub evolves_to: Vec<String>,
    pub rules: Vec<String>,
    pub ancient_trait: Option<AncientTrait>,
    pub abilities: Vec<Ability>,
    pub attacks: Vec<Attack>,
    pub weaknesses: Vec<TypeModifier>,
    pub resistances: Vec<TypeModifier>,
    pub retreat_cost: Vec<String>,
    pub converted_retreat_cost: Option<i32>,
    pub number: String,
    pub artist: Option<String>,
    pub rarity: Option<String>,
    pub flavor_text: Option<String>,
    pub national_pokedex_numbers: Vec<i32>,
    /// Format → `Legal`, `Not Legal` or `Banned`.
    pub legalities: BTreeMap<String, String>,
    pub regulation_mark: Option<String>,
    pub images: CardImages,
}

/// An XY-era Ancient Trait (`Δ Evolution`, `Ω Barrier`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct AncientTrait {
    pub name: String,
    pub text: String,
}

/// An ability, Poké-Power or Poké-Body.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Ability {
    pub name: String,
    pub text: String,
    #[serde(rename = "type")]
    pub kind: String,
}

/// An attack.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Attack {
    pub name: String,
    pub cost: Vec<String>,
    pub converted_energy_cost: Option<i32>,
    /// Printed damage; empty when the attack prints none.
    pub damage: Option<String>,
    /// Effect text; empty when there is none.
    pub text: Option<String>,
}

/// A weakness or resistance.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct TypeModifier {
    #[serde(rename = "type")]
    pub kind: String,
    pub value: String,
}

/// A printing's image URLs.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct CardImages {
    pub small: Option<String>,
    pub large: Option<String>,
}

/// The card kinds of the Pokémon TCG, with the catalog's unaccented spelling.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Supertype {
    Pokemon,
    Trainer,
    Energy,
}

impl Supertype {
    /// Reads an upstream supertype; both `Pokémon` (upstream) and `Pokemon` are accepted.
    pub fn parse(text: &str) -> Result<Self, RecordError> {
        match text {
            "Pokémon" | "Pokemon" => Ok(Self::Pokemon),
            "Trainer" => Ok(Self::Trainer),
            "Energy" => Ok(Self::Energy),
            other => Err(RecordError::UnknownSupertype(other.to_owned())),
        }
    }

    /// Returns the catalog spelling: `Pokemon` without the accent (the card-data page's rule).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pokemon => "Pokemon",
            Self::Trainer => "Trainer",
            Self::Energy => "Energy",
        }
    }
}

/// Splits a JSON array into its elements, so that one bad element costs only itself.
pub fn parse_array(contents: &[u8]) -> Result<Vec<serde_json::Value>, RecordError> {
    serde_json::from_slice(contents).map_err(RecordError::NotAnArray)
}

/// Reads one `sets/en.json` entry.
pub fn parse_set(value: serde_json::Value) -> Result<UpstreamSet, RecordError> {
    let set: UpstreamSet = serde_json::from_value(value).map_err(RecordError::Malformed)?;
    if set.id.trim().is_empty() {
        return Err(RecordError::MissingSetId);
    }
    Ok(set)
}

/// Reads one card object and checks what every printing needs: a name, a collector number
/// and a known supertype.
pub fn parse_card(value: serde_json::Value) -> Result<(UpstreamCard, Supertype), RecordError> {
    let card: UpstreamCard = serde_json::from_value(value).map_err(RecordError::Malformed)?;
    if card.name.trim().is_empty() {
        return Err(RecordError::MissingName);
    }
    if card.number.trim().is_empty() {
        return Err(RecordError::MissingNumber);
    }
    let supertype = Supertype::parse(&card.supertype)?;
    Ok((card, supertype))
}

/// Returns the printing id of a card in set `set_code`: the upstream id when it has the
/// documented `<setId>-<number>` shape (upstream keeps it unique, e.g. `cel25c-15_A2` where
/// four cards share number 15), else `<setId>-<number>`.
pub fn printing_id(set_code: &str, card: &UpstreamCard) -> String {
    match &card.id {
        Some(id) if id.len() > set_code.len() + 1 && id.starts_with(&format!("{set_code}-")) => {
            id.clone()
        }
        _ => format!("{set_code}-{}", card.number.trim()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_accented_supertype_reads_as_pokemon() {
        assert_eq!(Supertype::parse("Pokémon").unwrap().as_str(), "Pokemon");
        assert_eq!(Supertype::parse("Trainer").unwrap().as_str(), "Trainer");
    }

    #[test]
    fn a_card_without_a_name_is_rejected_with_the_reason() {
        let err = parse_card(json!({"supertype": "Trainer", "number": "1"})).unwrap_err();
        assert_eq!(err.to_string(), "missing name");
    }

    #[test]
    fn a_mistyped_field_is_rejected_with_serdes_explanation() {
        let err = parse_card(json!({"name": "X", "supertype": "Trainer", "number": "1", "hp": 60}))
            .unwrap_err();
        assert!(
            err.to_string()
                .starts_with("malformed record: invalid type: integer `60`"),
            "{err}"
        );
    }

    #[test]
    fn an_unknown_supertype_is_named_in_the_reason() {
        let err =
            parse_card(json!({"name": "X", "supertype": "Stadium", "number": "1"})).unwrap_err();
        assert_eq!(err.to_string(), "unknown supertype `Stadium`");
    }

    #[test]
    fn printing_ids_keep_upstreams_unique_suffixes_and_fall_back_to_set_and_number() {
        let card = |id: Option<&str>, number: &str| UpstreamCard {
            id: id.map(str::to_owned),
            number: number.to_owned(),
            ..UpstreamCard::default()
        };
        assert_eq!(
            printing_id("cel25c", &card(Some("cel25c-15_A2"), "15")),
            "cel25c-15_A2"
        );
        assert_eq!(printing_id("sv2", &card(None, "11")), "sv2-11");
        assert_eq!(printing_id("sv2", &card(Some("sv3-11"), "11")), "sv2-11");
    }
}
