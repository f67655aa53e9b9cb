//! `turnier deck import` over the real Riftbound catalog: the guide's four Riftbound samples
//! (RIFT1, Piltover Archive code, Piltover Archive list, old Turny list) are one deck.

use crate::support;

use std::collections::BTreeSet;

use support::{run, run_with_stdin};

pub(crate) const RIFT1: &str = "RIFT1.OGN:6x042-298,3x043-298,3x045-298,3x064-298,6x166-298,205-298,259-298,282-298,289-298,293-298.SB.OGN:2x050-298";
pub(crate) const PILTOVER_CODE: &str =
    "CQAAAAAAAAAACAQFAAAQEAIFAAAACAYAAAACWABNABAAAAIFAAAABTIBACBQEAE2AIAKCAQAUUBAAAIBAAAAAMQAAA";
pub(crate) const PILTOVER_LIST: &str = "Legend:\n1 Yasuo, Unforgiven\n\nMainDeck:\n3 Charm\n3 Defy\n3 Wind Wall\n1 Yasuo, Windrider\n\nBattlefields:\n1 Monastery of Hirana\n1 Targon's Peak\n1 The Grand Plaza\n\nRunes:\n6 Calm Rune\n6 Chaos Rune\n\nSideboard:\n2 Rune Prison\n";
pub(crate) const TURNY_LIST: &str = "Main Deck (10)\n3 Charm OGN 43\n3 Defy OGN 45\n3 Wind Wall OGN 64\n1 Yasuo - Windrider OGN 205\n\nRunes (12)\n6 Calm Rune OGN 42\n6 Chaos Rune OGN 166\n\nLegend (1)\n1 Yasuo - Unforgiven OGN 259\n\nBattlefields (3)\n1 Monastery of Hirana OGN 282\n1 Targon's Peak OGN 289\n1 The Grand Plaza OGN 293\n";

/// The deck as (pile, identity, copies), the way a player would compare two imports.
fn deck(
    output: &std::process::Output,
) -> (String, BTreeSet<(String, String, u64)>, serde_json::Value) {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("import JSON");
    let mut cards = BTreeSet::new();
    for (pile, entries) in json["piles"].as_object().expect("piles") {
        for entry in entries.as_array().expect("a pile is a list") {
            cards.insert((
                pile.clone(),
                entry["cardId"].as_str().expect("cardId").to_owned(),
                entry["count"].as_u64().expect("count"),
            ));
        }
    }
    (
        json["format"].as_str().expect("format").to_owned(),
        cards,
        json["warnings"].clone(),
    )
}

#[test]
fn the_four_riftbound_samples_of_the_guide_are_one_deck() {
    let dir = tempfile::tempdir().expect("temp dir");
    let riftbound = support::data_dir().join("riftbound");
    let import = run(
        dir.path(),
        &[
            "catalog",
            "import",
            "--game",
            "riftbound",
            "--from",
            riftbound.to_str().expect("UTF-8"),
        ],
        &[],
    );
    assert!(
        import.status.success(),
        "{}",
        String::from_utf8_lossy(&import.stderr)
    );
    let empty = tempfile::tempdir().expect("temp dir");
    let env = [("TURNIER_DATA_DIR", empty.path().to_str().expect("UTF-8"))];
    let import = |text: &str| {
        deck(&run_with_stdin(
            dir.path(),
            &["deck", "import", "--game", "riftbound"],
            &env,
            text,
        ))
    };

    let (format, rift1, warnings) = import(RIFT1);
    assert_eq!(format, "rift1");
    assert_eq!(warnings, serde_json::json!([]));
    let piles: BTreeSet<&str> = rift1.iter().map(|(pile, _, _)| pile.as_str()).collect();
    assert_eq!(
        piles,
        BTreeSet::from(["battlefields", "legend", "main", "runes", "sideboard"])
    );
    assert_eq!(rift1.iter().map(|(_, _, n)| n).sum::<u64>(), 28);

    for (sample, expected_format) in [
        (PILTOVER_CODE, "piltover-code"),
        (PILTOVER_LIST, "piltover-list"),
    ] {
        let (format, cards, warnings) = import(sample);
        assert_eq!(format, expected_format);
        assert_eq!(warnings, serde_json::json!([]), "{format}");
        assert_eq!(cards, rift1, "{format} is the same deck as RIFT1");
    }
    // The old Turny list has no place for a sideboard.
    let (format, turny, _) = import(TURNY_LIST);
    assert_eq!(format, "turny-list");
    let without_sideboard: BTreeSet<_> = rift1
        .iter()
        .filter(|(pile, _, _)| pile != "sideboard")
        .cloned()
        .collect();
    assert_eq!(turny, without_sideboard);

    // A single-deck layout leaves the sideboard out and says how many cards.
    let single = run_with_stdin(
        dir.path(),
        &["deck", "import", "--game", "riftbound", "--single-deck"],
        &env,
        RIFT1,
    );
    let (_, cards, warnings) = deck(&single);
    assert_eq!(cards, without_sideboard);
    assert!(
        warnings.to_string().contains("2 cards left out"),
        "{warnings}"
    );
}

#[test]
fn lines_that_do_not_resolve_are_reported_with_their_line_number() {
    let dir = tempfile::tempdir().expect("temp dir");
    let empty = tempfile::tempdir().expect("temp dir");
    let env = [("TURNIER_DATA_DIR", empty.path().to_str().expect("UTF-8"))];
    // The sample catalog knows Pikachu ex (svp-106) and nothing else.
    let list = "Pokémon: 2\n4 Pikachu ex SVP 106\n2 Nonexistent Thing PAL 999\n";
    let output = run_with_stdin(
        dir.path(),
        &["deck", "import", "--game", "pokemon"],
        &env,
        list,
    );
    let (format, cards, warnings) = deck(&output);
    assert_eq!(format, "ptcg-live");
    assert_eq!(cards.len(), 1);
    assert_eq!(warnings[0]["line"], 3);
    assert!(
        warnings[0]["reason"]
            .as_str()
            .is_some_and(|r| r.contains("PAL 999")),
        "{warnings}"
    );
}
