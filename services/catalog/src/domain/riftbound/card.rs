//! One playable Riftbound card: which printings it groups, which of them is the default, and
//! the catalog [`Card`] they make, field for field as
//! `spec/turny/reference-card-data-riftbound.md` documents it.

use std::collections::HashMap;

use pbjson_types::{Struct, Value};
use proto::catalog::v1::{CardAsset, CardGameData, CardPrinting, CardVariant};

use super::Card;
use super::record::PrintRecord;
use super::sets;
use super::text;
use super::treatment::Treatment;
use crate::domain::ids::stable_hash;

/// Hex digits of the identity hash: `rb-` + 20, as the card-data page shows.
const IDENTITY_HASH_LEN: usize = 20;

/// Returns the identity id of a card: `rb-` and a stable hash of what makes two printings the
/// same playable card.
///
/// That is the card's name (its [`text::identity_name`], so `Jinx - Demolitionist` and
/// `Jinx, Demolitionist` agree) and its type. Riftbound counts deck copies by name, and the
/// type keeps a champion unit apart from a legend of the same champion. Rules text is left
/// out on purpose: reprints carry errata and drop reminder text (`ven-168-166` against
/// `ogn-030-298`), and an upstream text fix must not move a card to a new id. Costs and
/// domains agree across every printing of a name in the data, so they would add nothing but
/// another way for a data fix to change the id.
pub fn identity_id(identity_name: &str, card_type: &str) -> String {
    format!(
        "rb-{}",
        stable_hash(&[identity_name, card_type], IDENTITY_HASH_LEN)
    )
}

/// One printing: the records of its treatments, the primary (lowest [`Treatment`]) first.
///
/// Usually one record; riftcodex files OPP metal promos under the regular promo's id, so
/// those printings have a `normal` and a `metal` variant.
#[derive(Debug, Clone)]
pub struct Printing {
    records: Vec<PrintRecord>,
}

impl Printing {
    /// Groups the records of one printing id, each with its own treatment. `None` for none.
    pub fn new(mut records: Vec<PrintRecord>) -> Option<Self> {
        records.sort_by_key(|record| record.treatment);
        (!records.is_empty()).then_some(Self { records })
    }

    /// Splits off records filed under this printing's id that name another card than the
    /// primary record does, so that one printing id never belongs to two cards.
    pub fn split_other_cards(self) -> (Self, Vec<PrintRecord>) {
        let (name, card_type) = self.primary().identity_key();
        let (name, card_type) = (name, card_type.to_owned());
        let (same, other): (Vec<_>, Vec<_>) = self.records.into_iter().partition(|record| {
            let (other_name, other_type) = record.identity_key();
            other_name == name && other_type == card_type
        });
        (Self { records: same }, other)
    }

    /// The records of the printing, primary first.
    pub fn records(&self) -> &[PrintRecord] {
        &self.records
    }

    /// The record whose fields the printing shows.
    pub fn primary(&self) -> &PrintRecord {
        &self.records[0]
    }

    /// Position in `printings` after the default: set release order, collector number, id.
    fn listing_key(&self) -> ((usize, &str), u32, &str) {
        let primary = self.primary();
        (
            sets::release_rank(&primary.set_code),
            primary.number,
            primary.id.as_str(),
        )
    }

    /// The default-printing rule of the card-data page: the first regular printing (a main
    /// set, not a promo series), from the earliest set, with the `normal` treatment. Cards
    /// with no such printing fall back to a normal promo print, then to any print.
    fn default_key(&self) -> (u8, (usize, &str), u32, &str) {
        let primary = self.primary();
        let tier = match (primary.treatment, sets::is_promo(&primary.set_code)) {
            (Treatment::Normal, false) => 0,
            (Treatment::Normal, true) => 1,
            _ => 2,
        };
        let (set, number, id) = self.listing_key();
        (tier, set, number, id)
    }

    fn to_proto(&self) -> CardPrinting {
        let primary = self.primary();
        let id = primary.id.as_str();
        CardPrinting {
            id: id.to_owned(),
            set_code: primary.set_code.clone(),
            number: Some(primary.number.to_string()),
            assets: card_assets(primary),
            variants: self
                .records
                .iter()
                .enumerate()
                .map(|(index, record)| CardVariant {
                    id: format!("{id}:{}", record.treatment.kind()),
                    kind: Some(record.treatment.kind().to_owned()),
                    label: record.treatment.label().map(str::to_owned),
                    // The printing's own fields describe the primary record; another
                    // treatment filed under the same id keeps its product id and image here.
                    metadata: (index > 0)
                        .then(|| {
                            object([
                                ("tcgplayerId", record.tcgplayer_id.clone()),
                                ("imageUrl", record.image_url.clone()),
                            ])
                        })
                        .flatten(),
                })
                .collect(),
            metadata: object([("tcgplayerId", primary.tcgplayer_id.clone())]),
            ..CardPrinting::default()
        }
    }
}

/// Builds the card of one identity from its printings; `None` when there are none.
pub fn build(identity_id: String, mut printings: Vec<Printing>) -> Option<Card> {
    printings.sort_by(|a, b| a.listing_key().cmp(&b.listing_key()));
    let default_at = printings
        .iter()
        .enumerate()
        .min_by(|(_, a), (_, b)| a.default_key().cmp(&b.default_key()))
        .map(|(at, _)| at)?;
    // The default printing always comes first; the rest keep their listing order.
    let default = printings.remove(default_at);
    printings.insert(0, default);
    let record = printings[0].primary();

    let collectible = record.supertype.as_deref() != Some("Token");
    let mut keyword_refs: Vec<String> = Vec::new();
    for marker in text::keyword_markers(record.text_plain.as_deref().unwrap_or_default()) {
        if !keyword_refs.contains(&marker.key) {
            keyword_refs.push(marker.key);
        }
    }
    let game = CardGameData {
        r#type: Some(record.card_type.clone()),
        supertype: record.supertype.clone(),
        rarity: record.rarity.clone(),
        domains: record.domains.clone(),
        tags: record.tags.clone(),
        energy: record.energy,
        might: record.might,
        power: record.power,
        collector_number: Some(record.number.to_string()),
        default_printing_id: Some(record.id.to_string()),
        // riftcodex carries no ban list; every deck card is legal in the one format we know.
        legalities: if collectible {
            std::collections::BTreeMap::from([("standard".to_owned(), "legal".to_owned())])
        } else {
            std::collections::BTreeMap::new()
        },
        text: record.text.clone(),
        text_plain: record.text_plain.clone(),
        flavor_text: record.flavor_text.clone(),
        keyword_refs,
        orientation: record.orientation.clone(),
        variant: Some(record.treatment.kind().to_owned()),
        // Flags are only written when true, as the page's example shows; riftcodex does not
        // say which prints are foil, so `foil` stays absent.
        alternate_art: (record.treatment == Treatment::AlternateArt).then_some(true),
        signature: (record.treatment == Treatment::Signature).then_some(true),
        artist_name: record.artist_name.clone(),
        ..CardGameData::default()
    };
    let has_image = printings
        .iter()
        .any(|printing| printing.records.iter().any(|r| r.image_url.is_some()));
    Some(Card {
        id: identity_id,
        name: record.name.clone(),
        set_code: record.set_code.clone(),
        collectible: Some(collectible),
        assets: card_assets(record),
        printings: printings.iter().map(Printing::to_proto).collect(),
        has_image: Some(has_image),
        game: Some(game),
    })
}

/// The framed card image of a record, as the page's single `card` asset.
fn card_assets(record: &PrintRecord) -> Vec<CardAsset> {
    record
        .image_url
        .iter()
        .map(|url| CardAsset {
            kind: "card".to_owned(),
            url: url.clone(),
            ..CardAsset::default()
        })
        .collect()
}

/// A JSON object of the present string fields; `None` when none is present.
fn object<const N: usize>(fields: [(&str, Option<String>); N]) -> Option<Struct> {
    let fields: HashMap<String, Value> = fields
        .into_iter()
        .filter_map(|(key, value)| Some((key.to_owned(), Value::from(value?))))
        .collect();
    (!fields.is_empty()).then(|| Struct::from(fields))
}
