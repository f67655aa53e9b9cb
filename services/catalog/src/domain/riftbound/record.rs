//! One riftcodex record: its upstream shape, and the checked [`PrintRecord`] it becomes.
//!
//! riftcodex (`api.riftcodex.com`, harvested into `riftcodex_cards_raw.json`) has one record
//! per printing and treatment. Checking a record never looks at other records; merging
//! repeated records and grouping printings into cards happens in [`super::card`] and
//! [`super::import`].

use serde::Deserialize;

use super::printing_id::{PrintingId, PrintingIdError};
use super::sets;
use super::text;
use super::treatment::{Treatment, TreatmentHints};

/// Why a record could not be read.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// The record is not shaped like a riftcodex card.
    #[error("not a riftcodex card record: {0}")]
    Shape(#[from] serde_json::Error),
    /// The `riftbound_id` is not a printing id.
    #[error(transparent)]
    PrintingId(#[from] PrintingIdError),
    /// The id's set prefix and `set.set_id` disagree.
    #[error("printing id `{id}` does not belong to set `{set}`")]
    SetMismatch { id: String, set: String },
    /// A field every card needs is empty.
    #[error("`{0}` is empty")]
    Empty(&'static str),
}

/// A checked record: one treatment of one printing.
#[derive(Debug, Clone)]
pub struct PrintRecord {
    /// Where the record was: `riftcodex_cards_raw.json#12`.
    pub source: String,
    /// `(file position, record index)`: the order records were read in, for tie-breaks.
    pub position: (usize, usize),
    /// Printing id (`ogn-030a-298`).
    pub id: PrintingId,
    /// Set code, upper case (`OGN`).
    pub set_code: String,
    /// Set name (`Origins`); the set code when upstream has none.
    pub set_label: String,
    /// Collector number as printed, without leading zeros.
    pub number: u32,
    /// The print's treatment.
    pub treatment: Treatment,
    /// The printed name, without riftcodex's print note (`Jinx - Demolitionist`).
    pub name: String,
    /// Card type, lower case (`unit`).
    pub card_type: String,
    /// Printed supertype (`Champion`).
    pub supertype: Option<String>,
    /// Rarity, lower case (`rare`).
    pub rarity: Option<String>,
    /// Domains, lower case; `["colorless"]` when upstream lists none.
    pub domains: Vec<String>,
    /// Energy cost.
    pub energy: Option<i32>,
    /// Might.
    pub might: Option<i32>,
    /// Power cost.
    pub power: Option<i32>,
    /// Rules text as HTML; `None` for cards without rules text (`[NO TEXT]` upstream).
    pub text: Option<String>,
    /// Rules text without tags.
    pub text_plain: Option<String>,
    /// Flavor text.
    pub flavor_text: Option<String>,
    /// Image of the framed card.
    pub image_url: Option<String>,
    /// Artist.
    pub artist_name: Option<String>,
    /// Printed tags (`Jinx`, `Zaun`).
    pub tags: Vec<String>,
    /// `portrait` or `landscape`, lower case.
    pub orientation: Option<String>,
    /// TCGplayer product id.
    pub tcgplayer_id: Option<String>,
    /// When riftcodex last updated the record (RFC 3339, so it sorts as text).
    pub updated_on: Option<String>,
}

#[derive(Debug, Deserialize)]
struct RawRecord {
    name: String,
    riftbound_id: String,
    #[serde(default)]
    tcgplayer_id: Option<StringOrNumber>,
    collector_number: u32,
    #[serde(default)]
    attributes: Option<RawAttributes>,
    classification: RawClassification,
    #[serde(default)]
    text: Option<RawText>,
    set: RawSet,
    #[serde(default)]
    media: Option<RawMedia>,
    #[serde(default)]
    tags: Option<Vec<String>>,
    #[serde(default)]
    orientation: Option<String>,
    #[serde(default)]
    metadata: Option<RawMetadata>,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum StringOrNumber {
    String(String),
    Number(u64),
}

#[derive(Debug, Default, Deserialize)]
struct RawAttributes {
    #[serde(default)]
    energy: Option<i32>,
    #[serde(default)]
    might: Option<i32>,
    #[serde(default)]
    power: Option<i32>,
}

#[derive(Debug, Deserialize)]
struct RawClassification {
    #[serde(rename = "type")]
    card_type: String,
    #[serde(default)]
    supertype: Option<String>,
    #[serde(default)]
    rarity: Option<String>,
    #[serde(default)]
    domain: Option<Vec<String>>,
}

#[derive(Debug, Default, Deserialize)]
struct RawText {
    #[serde(default)]
    rich: Option<String>,
    #[serde(default)]
    plain: Option<String>,
    #[serde(default)]
    flavour: Option<String>,
}

#[derive(Debug, Deserialize)]
struct RawSet {
    set_id: String,
    #[serde(default)]
    label: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
struct RawMedia {
    #[serde(default)]
    image_url: Option<String>,
    #[serde(default)]
    artist: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
struct RawMetadata {
    #[serde(default)]
    updated_on: Option<String>,
    #[serde(default)]
    alternate_art: Option<bool>,
    #[serde(default)]
    overnumbered: Option<bool>,
    #[serde(default)]
    signature: Option<bool>,
}

/// What riftcodex puts in the rules text of cards that have none (basic runes).
const NO_TEXT: &str = "[NO TEXT]";

impl PrintRecord {
    /// Checks one record of the dump; `source` and `position` say where it was.
    pub fn parse(
        value: serde_json::Value,
        source: String,
        position: (usize, usize),
    ) -> Result<Self, RecordError> {
        let raw: RawRecord = serde_json::from_value(value)?;
        let id = PrintingId::parse(&raw.riftbound_id)?;
        let set_code = non_empty(&raw.set.set_id)
            .ok_or(RecordError::Empty("set.set_id"))?
            .to_ascii_uppercase();
        if !id.set().eq_ignore_ascii_case(&set_code) {
            return Err(RecordError::SetMismatch {
                id: id.to_string(),
                set: set_code,
            });
        }
        let (name, note) = text::split_print_note(&raw.name);
        if name.is_empty() {
            return Err(RecordError::Empty("name"));
        }
        let card_type = non_empty(&raw.classification.card_type)
            .ok_or(RecordError::Empty("classification.type"))?
            .to_lowercase();

        let metadata = raw.metadata.unwrap_or_default();
        let hints = TreatmentHints {
            note,
            alternate_art: metadata.alternate_art.unwrap_or(false),
            overnumbered: metadata.overnumbered.unwrap_or(false),
            signature: metadata.signature.unwrap_or(false),
        };
        let treatment = Treatment::classify(&id, sets::is_promo(&set_code), hints);

        let mut domains: Vec<String> = raw
            .classification
            .domain
            .unwrap_or_default()
            .iter()
            .filter_map(|domain| non_empty(domain))
            .map(str::to_lowercase)
            .collect();
        if domains.is_empty() {
            domains.push("colorless".to_owned());
        }
        let attributes = raw.attributes.unwrap_or_default();
        let text = raw.text.unwrap_or_default();
        let has_rules_text = text.plain.as_deref().map(str::trim) != Some(NO_TEXT);
        let media = raw.media.unwrap_or_default();

        Ok(Self {
            source,
            position,
            set_label: raw
                .set
                .label
                .as_deref()
                .and_then(non_empty)
                .unwrap_or(&set_code)
                .to_owned(),
            number: raw.collector_number,
            treatment,
            name: name.to_owned(),
            card_type,
            supertype: owned(raw.classification.supertype.as_deref()),
            rarity: owned(raw.classification.rarity.as_deref()).map(|r| r.to_lowercase()),
            domains,
            energy: attributes.energy,
            might: attributes.might,
            power: attributes.power,
            text: owned(text.rich.as_deref()).filter(|_| has_rules_text),
            text_plain: owned(text.plain.as_deref()).filter(|_| has_rules_text),
            flavor_text: owned(text.flavour.as_deref()),
            image_url: owned(media.image_url.as_deref()),
            artist_name: owned(media.artist.as_deref()),
            tags: raw
                .tags
                .unwrap_or_default()
                .iter()
                .filter_map(|t| owned(Some(t)))
                .collect(),
            orientation: owned(raw.orientation.as_deref()).map(|o| o.to_lowercase()),
            tcgplayer_id: raw.tcgplayer_id.map(|tcg| match tcg {
                StringOrNumber::String(s) => s,
                StringOrNumber::Number(n) => n.to_string(),
            }),
            updated_on: metadata.updated_on,
            id,
            set_code,
        })
    }

    /// The key every printing of one playable card shares: see [`super::card::identity_id`].
    pub fn identity_key(&self) -> (String, &str) {
        (text::identity_name(&self.name), &self.card_type)
    }
}

fn non_empty(value: &str) -> Option<&str> {
    let value = value.trim();
    (!value.is_empty()).then_some(value)
}

fn owned(value: Option<&str>) -> Option<String> {
    value.and_then(non_empty).map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse(value: serde_json::Value) -> Result<PrintRecord, RecordError> {
        PrintRecord::parse(value, "cards.json#0".to_owned(), (0, 0))
    }

    fn rune() -> serde_json::Value {
        json!({
            "name": "Fury Rune", "riftbound_id": "ogn-007-298", "tcgplayer_id": 652777,
            "collector_number": 7,
            "attributes": {"energy": null, "might": null, "power": null},
            "classification": {"type": "Rune", "supertype": "Basic", "rarity": "Common", "domain": []},
            "text": {"rich": "<p>[NO TEXT]</p>", "plain": "[NO TEXT]", "flavour": null},
            "set": {"set_id": "OGN", "label": "Origins"},
            "media": {"image_url": "https://example.test/fury.png", "artist": "Someone"},
            "tags": null, "orientation": "portrait", "metadata": {}
        })
    }

    #[test]
    fn a_card_without_domains_is_colorless_and_no_text_means_no_rules_text() {
        let record = parse(rune()).expect("valid record");
        assert_eq!(record.domains, ["colorless"]);
        assert_eq!(record.text, None);
        assert_eq!(record.text_plain, None);
        assert_eq!(record.card_type, "rune");
        assert_eq!(record.rarity.as_deref(), Some("common"));
        assert_eq!(record.tcgplayer_id.as_deref(), Some("652777"));
        assert!(record.tags.is_empty());
    }

    #[test]
    fn a_record_whose_id_is_not_in_its_set_is_rejected() {
        let mut value = rune();
        value["riftbound_id"] = json!("sfd-007-221");
        let err = parse(value).expect_err("mismatched set");
        assert_eq!(
            err.to_string(),
            "printing id `sfd-007-221` does not belong to set `OGN`"
        );
    }

    #[test]
    fn a_record_without_a_type_names_the_missing_field() {
        let mut value = rune();
        value["classification"] = json!({"rarity": "Common"});
        let err = parse(value).expect_err("no type");
        assert!(err.to_string().contains("missing field `type`"), "{err}");
    }
}
