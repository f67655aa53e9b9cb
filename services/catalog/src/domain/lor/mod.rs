//! Legends of Runeterra: turns Riot's Data Dragon bundles into catalog cards, sets and globals.
//!
//! Reads the set bundles (`setN-en_us.json`: one JSON array of card objects per set) and the
//! globals bundle (`globals-en_us.json`: lookup tables), and produces the cards and globals of
//! `spec/turny/reference-card-data-lor.md`. Card ids are card codes (`01DE012`); LoR has no
//! reprints, so cards have no printings and there are no aliases. Catalog order is set order
//! (`set1` … `set6`, `set6cde`, `set7`, …), then the order of the cards in their bundle.
//!
//! Only the `en_us` bundles are read: the catalog has one locale. Other files are ignored.
//! Reading the data folder and storing the result are left to the caller.

mod card;
mod globals;
mod sets;

use std::collections::HashMap;

use super::{Import, Skipped, SourceFile};
use card::UpstreamCard;
use sets::SetCode;

/// File name ending of every bundle in the catalog locale.
const LOCALE_SUFFIX: &str = "-en_us.json";

/// File name of the globals bundle.
pub const GLOBALS_FILE: &str = "globals-en_us.json";

/// Why an upstream record was skipped.
#[derive(Debug, thiserror::Error)]
enum RecordError {
    /// A set bundle that is not a JSON array.
    #[error("set bundle is not a JSON array of cards: {0}")]
    NotAnArray(serde_json::Error),
    /// A globals bundle that is not a JSON object.
    #[error("globals bundle is not a JSON object: {0}")]
    NotAnObject(serde_json::Error),
    /// A globals table that is not a list of entries.
    #[error("globals table is not a list of entries")]
    NotAList,
    /// A record that does not have the shape of a card or entry.
    #[error("malformed record: {0}")]
    Malformed(serde_json::Error),
    /// A required text field that is empty.
    #[error("empty `{0}`")]
    EmptyField(&'static str),
    /// A card code seen before; the first one is kept.
    #[error("duplicate card code `{code}`, first seen at {first}")]
    DuplicateCardCode {
        /// The repeated code.
        code: String,
        /// Where the card that was kept is.
        first: String,
    },
    /// A globals key seen before in the same table; the first one is kept.
    #[error("duplicate key `{0}`")]
    DuplicateKey(String),
}

/// Imports Legends of Runeterra from Data Dragon's `en_us` set bundles and globals bundle.
///
/// Never fails: an unreadable file or malformed record is reported in [`Import::skipped`] with
/// its place (`set1-en_us.json#12`) and reason, and the rest is imported. The same files always
/// give the same result.
pub fn import(files: &[SourceFile]) -> Import {
    let mut skipped = Vec::new();

    let mut set_files: Vec<(SetCode, &SourceFile)> = files
        .iter()
        .filter_map(|file| Some((SetCode::of_set_file(file_name(&file.path))?, file)))
        .collect();
    set_files
        .sort_by(|(a, a_file), (b, b_file)| a.cmp(b).then_with(|| a_file.path.cmp(&b_file.path)));

    let mut cards: Vec<_> = read_set_files(&set_files, &mut skipped)
        .into_iter()
        .map(card::to_card)
        .collect();
    let champions = card::runeterra_champions(&cards);
    card::add_champion_refs(&mut cards, &champions);

    let globals_file = files
        .iter()
        .find(|file| file_name(&file.path) == GLOBALS_FILE);
    let globals = globals::build(globals_file, &cards, &champions, &mut skipped);
    let sets = sets::card_sets(&globals.set_labels, &cards);

    Import {
        cards,
        aliases: Vec::new(),
        globals: globals.object,
        sets,
        skipped,
    }
}

/// Returns the well-formed card objects of the set bundles, in the order given, reporting every
/// unreadable bundle and malformed or repeated card in `skipped`.
fn read_set_files(
    set_files: &[(SetCode, &SourceFile)],
    skipped: &mut Vec<Skipped>,
) -> Vec<UpstreamCard> {
    let mut cards = Vec::new();
    // Card code → where it was first seen, to report repeats.
    let mut seen: HashMap<String, String> = HashMap::new();
    for (_, file) in set_files {
        let records = match serde_json::from_slice::<Vec<serde_json::Value>>(&file.contents) {
            Ok(records) => records,
            Err(error) => {
                skipped.push(Skipped {
                    record: file.path.clone(),
                    reason: RecordError::NotAnArray(error).to_string(),
                });
                continue;
            }
        };
        for (index, value) in records.into_iter().enumerate() {
            let record = format!("{}#{index}", file.path);
            match read_card(value, &seen) {
                Ok(card) => {
                    seen.insert(card.card_code.clone(), record);
                    cards.push(card);
                }
                Err(error) => skipped.push(Skipped {
                    record,
                    reason: error.to_string(),
                }),
            }
        }
    }
    cards
}

/// Reads one card object, rejecting it when it lacks what makes it a card or repeats a code.
fn read_card(
    value: serde_json::Value,
    seen: &HashMap<String, String>,
) -> Result<UpstreamCard, RecordError> {
    let card: UpstreamCard = serde_json::from_value(value).map_err(RecordError::Malformed)?;
    if card.card_code.is_empty() {
        return Err(RecordError::EmptyField("cardCode"));
    }
    if card.name.is_empty() {
        return Err(RecordError::EmptyField("name"));
    }
    if card.set.is_empty() {
        return Err(RecordError::EmptyField("set"));
    }
    if let Some(first) = seen.get(&card.card_code) {
        return Err(RecordError::DuplicateCardCode {
            code: card.card_code,
            first: first.clone(),
        });
    }
    Ok(card)
}

/// Returns the last component of a `/`-separated path.
fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn card(code: &str, set: &str) -> Value {
        json!({
            "cardCode": code, "name": format!("Card {code}"), "set": set,
            "collectible": true, "type": "Unit", "supertype": "", "rarityRef": "Common",
            "regionRefs": ["Demacia"], "cost": 1, "attack": 1, "health": 1, "assets": []
        })
    }

    fn file(path: &str, value: Value) -> SourceFile {
        SourceFile {
            path: path.into(),
            contents: serde_json::to_vec(&value).expect("test data serializes"),
        }
    }

    fn ids(import: &Import) -> Vec<&str> {
        import.cards.iter().map(|card| card.id.as_str()).collect()
    }

    #[test]
    fn cards_come_in_set_order_then_bundle_order() {
        let import = import(&[
            file("set10-en_us.json", json!([card("10DE001", "Set10")])),
            file(
                "set2-en_us.json",
                json!([card("02DE002", "Set2"), card("02DE001", "Set2")]),
            ),
            file("set1-en_us.json", json!([card("01DE001", "Set1")])),
            file("set1-de_de.json", json!([card("01DE999", "Set1")])),
            file("SOURCE.md", json!("not a bundle")),
        ]);
        assert_eq!(ids(&import), ["01DE001", "02DE002", "02DE001", "10DE001"]);
        assert!(import.skipped.is_empty(), "{:?}", import.skipped);
        assert!(import.aliases.is_empty());
        let sets: Vec<&str> = import.sets.iter().map(|set| set.code.as_str()).collect();
        assert_eq!(sets, ["set1", "set2", "set10"]);
    }

    #[test]
    fn a_malformed_card_is_skipped_with_its_place_and_reason() {
        let import = import(&[file(
            "set1-en_us.json",
            json!([
                card("01DE001", "Set1"),
                {"name": "No code", "set": "Set1"},
                42,
                card("01DE003", "Set1").as_object().map(|fields| {
                    let mut fields = fields.clone();
                    fields.insert("cost".into(), json!("three"));
                    fields
                }),
                card("", "Set1"),
                card("01DE001", "Set1"),
                card("01DE004", "Set1")
            ]),
        )]);
        assert_eq!(ids(&import), ["01DE001", "01DE004"]);
        let skipped: Vec<(&str, &str)> = import
            .skipped
            .iter()
            .map(|skip| (skip.record.as_str(), skip.reason.as_str()))
            .collect();
        assert_eq!(skipped.len(), 5, "{skipped:?}");
        assert_eq!(skipped[0].0, "set1-en_us.json#1");
        assert!(
            skipped[0].1.contains("missing field `cardCode`"),
            "{}",
            skipped[0].1
        );
        assert_eq!(skipped[1].0, "set1-en_us.json#2");
        assert!(
            skipped[1].1.starts_with("malformed record"),
            "{}",
            skipped[1].1
        );
        assert_eq!(skipped[2].0, "set1-en_us.json#3");
        assert!(skipped[2].1.contains("invalid type"), "{}", skipped[2].1);
        assert_eq!(skipped[3], ("set1-en_us.json#4", "empty `cardCode`"));
        assert_eq!(
            skipped[4],
            (
                "set1-en_us.json#5",
                "duplicate card code `01DE001`, first seen at set1-en_us.json#0"
            )
        );
    }

    #[test]
    fn an_unreadable_bundle_is_skipped_and_the_others_imported() {
        let import = import(&[
            SourceFile {
                path: "set1-en_us.json".into(),
                contents: b"{\"not\": \"a list\"}".to_vec(),
            },
            file("set2-en_us.json", json!([card("02DE001", "Set2")])),
        ]);
        assert_eq!(ids(&import), ["02DE001"]);
        assert_eq!(import.skipped.len(), 1);
        assert_eq!(import.skipped[0].record, "set1-en_us.json");
        assert!(
            import.skipped[0]
                .reason
                .starts_with("set bundle is not a JSON array")
        );
    }

    #[test]
    fn files_are_found_by_name_inside_folders() {
        let import = import(&[
            file("lor/set1-en_us.json", json!([card("01DE001", "Set1")])),
            file(
                "lor/globals-en_us.json",
                json!({"sets": [{"name": "Foundations", "nameRef": "Set1"}]}),
            ),
        ]);
        assert_eq!(ids(&import), ["01DE001"]);
        assert_eq!(import.sets[0].label, "Foundations");
        assert_eq!(
            import.globals["sets"]["set1"]["label"],
            json!("Foundations")
        );
    }

    #[test]
    fn importing_the_same_files_twice_gives_the_same_result() {
        let files = [
            file(
                "set1-en_us.json",
                json!([card("01DE001", "Set1"), card("01DE002", "Set1")]),
            ),
            file(
                "globals-en_us.json",
                json!({"regions": [{"name": "Demacia", "nameRef": "Demacia"}]}),
            ),
        ];
        let (first, second) = (import(&files), import(&files));
        assert_eq!(first.cards, second.cards);
        assert_eq!(first.globals, second.globals);
        assert_eq!(first.sets, second.sets);
    }
}
