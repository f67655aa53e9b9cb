//! The normalization of script output against the spec pages: every row of the rulesets
//! "Return values" table and of the calculators "How bad output is handled" table, every cap
//! of "Limits" at its boundary, every "No data" case, the widget examples, and the
//! pool-filter patch semantics for each game. Results are compared as the JSON the gateway
//! sends (the canonical proto3 JSON mapping, via pbjson), so numbers read `40.0`: doubles.

use proptest::prelude::*;
use proto::scripts::v1::{Dashboard, RuleResult};
use scripts::domain::dashboard::{self, WidgetKind};
use scripts::domain::js;
use scripts::domain::pool_filters::{self, Game, LineupPile, PileRole};
use scripts::domain::rule_result::{self, IssueOrigin, Scope};
use serde_json::{Value, json};

// ---------------------------------------------------------------------------------------------
// Ruleset results
// ---------------------------------------------------------------------------------------------

fn rule(scope: Scope, raw: Option<Value>) -> Value {
    serde_json::to_value(rule_result::normalize(scope, raw.as_ref())).expect("serializes")
}

fn deck_rule(raw: Value) -> Value {
    rule(Scope::Deck, Some(raw))
}

fn deck_fallback() -> Value {
    json!({"valid": false, "issues": [{"message": "Saved deck rule rejected this deck."}]})
}

#[test]
fn each_scope_has_its_fallback_message() {
    assert_eq!(
        Scope::Deck.fallback_message(),
        "Saved deck rule rejected this deck."
    );
    assert_eq!(
        Scope::Card.fallback_message(),
        "Saved card rule rejected this card."
    );
    assert_eq!(
        Scope::Deckset.fallback_message(),
        "Saved deck set rule rejected this lineup."
    );
}

#[test]
fn true_passes_with_no_issues() {
    for scope in [Scope::Card, Scope::Deck, Scope::Deckset] {
        assert_eq!(rule(scope, Some(json!(true))), json!({"valid": true}));
    }
}

#[test]
fn false_null_and_undefined_fail_with_the_scope_fallback() {
    for scope in [Scope::Card, Scope::Deck, Scope::Deckset] {
        let expected = json!({"valid": false, "issues": [{"message": scope.fallback_message()}]});
        assert_eq!(rule(scope, Some(json!(false))), expected);
        assert_eq!(rule(scope, Some(json!(null))), expected);
        assert_eq!(rule(scope, None), expected, "a missing return is undefined");
    }
}

#[test]
fn any_other_value_fails_with_the_fallback() {
    for raw in [
        json!(1),
        json!(0),
        json!("valid"),
        json!(""),
        json!([]),
        json!([true]),
        json!([{"valid": true}]),
    ] {
        assert_eq!(deck_rule(raw.clone()), deck_fallback(), "{raw}");
    }
}

#[test]
fn a_result_object_passes_only_when_valid_or_allowed_is_exactly_true() {
    assert_eq!(deck_rule(json!({"valid": true})), json!({"valid": true}));
    assert_eq!(deck_rule(json!({"allowed": true})), json!({"valid": true}));
    assert_eq!(
        deck_rule(json!({"valid": false, "allowed": true})),
        json!({"valid": true})
    );
    assert_eq!(
        deck_rule(json!({"valid": true, "allowed": false})),
        json!({"valid": true})
    );
    // Missing, false and truthy non-booleans fail.
    for raw in [
        json!({}),
        json!({"valid": false}),
        json!({"valid": "true"}),
        json!({"valid": 1}),
        json!({"allowed": "yes"}),
        json!({"valid": [true]}),
        json!({"valid": {}}),
        json!({"valid": null, "allowed": null}),
        json!({"Valid": true}),
    ] {
        assert_eq!(deck_rule(raw.clone()), deck_fallback(), "{raw}");
    }
}

#[test]
fn a_failing_object_keeps_its_issues_instead_of_the_fallback() {
    assert_eq!(
        deck_rule(json!({"valid": false, "issues": ["Too many copies."]})),
        json!({"valid": false, "issues": [{"message": "Too many copies."}]})
    );
}

#[test]
fn a_passing_result_keeps_its_issues() {
    assert_eq!(
        deck_rule(json!({"valid": true, "issues": ["Consider more removal."]})),
        json!({"valid": true, "issues": [{"message": "Consider more removal."}]})
    );
    assert_eq!(
        deck_rule(json!({"allowed": true, "issues": [{"code": "note"}]})),
        json!({"valid": true, "issues": [{"code": "note"}]})
    );
}

#[test]
fn non_array_issues_are_ignored() {
    for issues in [
        json!("Deck too small."),
        json!({"message": "x"}),
        json!(3),
        json!(null),
    ] {
        assert_eq!(
            deck_rule(json!({"valid": false, "issues": issues})),
            deck_fallback()
        );
        assert_eq!(
            deck_rule(json!({"valid": true, "issues": issues})),
            json!({"valid": true})
        );
    }
}

#[test]
fn unusable_issues_are_dropped_and_usable_ones_trimmed() {
    let raw = json!({
        "valid": false,
        "issues": [
            "  Use at least 10 different cards.\n",
            "",
            " \t ",
            null,
            7,
            true,
            ["nested"],
            {},
            {"code": "", "message": "   "},
            {"code": 5, "message": false},
            {"metadata": {"count": 3}},
            {"code": " deck_size "},
            {"message": " Decks need exactly 40 cards (found 38). "},
            {"code": "copy_limit", "message": "Zed: at most 2 copies (found 3)."},
            {"code": 12, "message": "Numeric code dropped."},
            {"code": "only_code", "message": ""},
        ]
    });
    assert_eq!(
        deck_rule(raw),
        json!({"valid": false, "issues": [
            {"message": "Use at least 10 different cards."},
            {"code": "deck_size"},
            {"message": "Decks need exactly 40 cards (found 38)."},
            {"code": "copy_limit", "message": "Zed: at most 2 copies (found 3)."},
            {"message": "Numeric code dropped."},
            {"code": "only_code"},
        ]})
    );
}

#[test]
fn only_unusable_issues_fall_back_to_the_scope_message() {
    assert_eq!(
        rule(
            Scope::Deckset,
            Some(json!({"valid": false, "issues": ["  ", {}, null]}))
        ),
        json!({"valid": false, "issues": [{"message": "Saved deck set rule rejected this lineup."}]})
    );
}

#[test]
fn issue_metadata_keeps_scalar_entries_only() {
    let raw = json!({"valid": false, "issues": [{
        "code": "copy_limit",
        "metadata": {
            "card": "Zed",
            "copies": 3,
            "ratio": 1.5,
            "banned": false,
            "nothing": null,
            "list": [1, 2],
            "nested": {"a": 1},
        }
    }]});
    assert_eq!(
        deck_rule(raw),
        json!({"valid": false, "issues": [{
            "code": "copy_limit",
            "metadata": {"card": "Zed", "copies": 3.0, "ratio": 1.5, "banned": false}
        }]})
    );
    // Metadata that is not an object, or has no scalar entry, is left out.
    for metadata in [json!("x"), json!([1]), json!(null), json!({"a": {}})] {
        assert_eq!(
            deck_rule(json!({"valid": false, "issues": [{"message": "m", "metadata": metadata}]})),
            json!({"valid": false, "issues": [{"message": "m"}]})
        );
    }
}

#[test]
fn the_reference_deck_examples_normalize_as_documented() {
    // Deck scope example: a 38-card deck.
    let deck_size = json!({
        "valid": false,
        "issues": [{"code": "deck_size", "message": "Decks need exactly 40 cards (found 38)."}],
    });
    assert_eq!(deck_rule(deck_size.clone()), deck_size);

    // Deck set example: a card in two decks.
    let duplicate = json!({
        "valid": false,
        "issues": [{"code": "duplicate_card", "message": "Zed is in more than one deck."}],
    });
    assert_eq!(rule(Scope::Deckset, Some(duplicate.clone())), duplicate);
    assert_eq!(
        rule(Scope::Deckset, Some(json!({"valid": true, "issues": []}))),
        json!({"valid": true})
    );
}

#[test]
fn issues_are_shown_by_message_or_by_code_with_spaces() {
    // The "How issues are shown" example, for a deck with few cards and no champion.
    let result = rule_result::normalize(
        Scope::Deck,
        Some(&json!({
            "valid": false,
            "issues": ["Use at least 10 different cards.", {"code": "missing_champion"}],
        })),
    );
    let shown: Vec<String> = result.issues.iter().map(rule_result::issue_text).collect();
    assert_eq!(
        shown,
        ["Use at least 10 different cards.", "missing champion"]
    );
    assert!(!rule_result::is_valid(&result));
}

#[test]
fn submission_messages_name_where_each_issue_came_from() {
    let deck = rule_result::normalize(
        Scope::Deck,
        Some(&json!({"valid": false, "issues": [
            "Zed: at most 2 copies (found 3).",
            {"code": "banned_card", "message": "Deny is banned."},
            {"code": "deck_size"},
        ]})),
    );
    assert_eq!(
        rule_result::submission_messages(IssueOrigin::Deck(2), &deck),
        [
            "Deck 2: Zed: at most 2 copies (found 3).",
            "Deck 2: Deny is banned.",
            "Deck 2: deck size",
        ]
    );

    let lineup = rule_result::normalize(
        Scope::Deckset,
        Some(&json!({"valid": false, "issues": ["Zed is in deck 1 and deck 2."]})),
    );
    assert_eq!(
        rule_result::submission_messages(IssueOrigin::Lineup, &lineup),
        ["Lineup: Zed is in deck 1 and deck 2."]
    );

    let card = rule_result::normalize(Scope::Card, Some(&json!(false)));
    assert_eq!(
        rule_result::submission_messages(IssueOrigin::Card("Zed"), &card),
        ["Card Zed: Saved card rule rejected this card."]
    );
}

// ---------------------------------------------------------------------------------------------
// Dashboards
// ---------------------------------------------------------------------------------------------

fn dashboard_json(raw: Option<Value>) -> Value {
    serde_json::to_value(dashboard::normalize(raw.as_ref())).expect("serializes")
}

/// The normalized JSON of one widget, or `null` when it was dropped.
fn widget(raw: Value) -> Value {
    let dashboard = dashboard_json(Some(json!({"widgets": [raw]})));
    dashboard
        .get("widgets")
        .and_then(|widgets| widgets.get(0))
        .cloned()
        .unwrap_or(Value::Null)
}

fn widget_field(raw: Value, field: &str) -> Value {
    widget(raw).get(field).cloned().unwrap_or(Value::Null)
}

#[test]
fn the_reference_widget_examples_normalize_as_documented() {
    // Each example's `compute`, run over a small pile, returns the raw widget on the left.
    let cases = [
        (
            json!({"kind": "stat", "label": "Deck size", "value": 40, "unit": "cards"}),
            json!({"kind": "stat", "label": "Deck size", "value": 40.0, "unit": "cards"}),
        ),
        (
            json!({"kind": "stat", "label": "Catalog globals", "value": "No"}),
            json!({"kind": "stat", "label": "Catalog globals", "value": "No"}),
        ),
        (
            json!({"kind": "histogram", "label": "Copies per card", "buckets": [4, 6, 7],
                   "labels": ["1", "2", "3+"]}),
            json!({"kind": "histogram", "label": "Copies per card", "buckets": [4.0, 6.0, 7.0],
                   "labels": ["1", "2", "3+"]}),
        ),
        (
            json!({"kind": "donut", "label": "Singles vs multiples", "segments": [
                {"key": "singles", "label": "1 copy", "value": 4, "color": "#3a78e8"},
                {"key": "multiples", "label": "2+ copies", "value": 13, "color": ""},
            ]}),
            json!({"kind": "donut", "label": "Singles vs multiples", "segments": [
                {"key": "singles", "label": "1 copy", "value": 4.0, "color": "#3a78e8"},
                {"key": "multiples", "label": "2+ copies", "value": 13.0, "color": ""},
            ]}),
        ),
        (
            json!({"kind": "gauge", "label": "Copies in singles vs multiples", "segments": [
                {"key": "singles", "label": "Singles", "value": 4, "color": ""},
                {"key": "multiples", "label": "Multiples", "value": 36, "color": ""},
            ]}),
            json!({"kind": "gauge", "label": "Copies in singles vs multiples", "segments": [
                {"key": "singles", "label": "Singles", "value": 4.0, "color": ""},
                {"key": "multiples", "label": "Multiples", "value": 36.0, "color": ""},
            ]}),
        ),
        (
            json!({"kind": "table", "label": "Most copies", "columns": ["Card", "Copies"],
                   "rows": [["Zed", 3], ["Deny", 2], ["01IO009", 1]]}),
            json!({"kind": "table", "label": "Most copies", "columns": ["Card", "Copies"],
                   "rows": [["Zed", 3.0], ["Deny", 2.0], ["01IO009", 1.0]]}),
        ),
        (
            json!({"kind": "hypergeometric", "label": "Top card in opening hand",
                   "population": 40, "successCount": 3, "draws": 7, "exactCounts": [1, 2]}),
            json!({"kind": "hypergeometric", "label": "Top card in opening hand",
                   "population": 40.0, "successCount": 3.0, "draws": 7.0,
                   "exactCounts": [1.0, 2.0]}),
        ),
        (
            json!({"kind": "ratio", "label": "Copies per card", "numerator": 40,
                   "denominator": 17, "format": "multiplier"}),
            json!({"kind": "ratio", "label": "Copies per card", "numerator": 40.0,
                   "denominator": 17.0, "format": "multiplier"}),
        ),
        // The guide's cookbook adds `bars`.
        (
            json!({"kind": "bars", "label": "Domains", "segments": [
                {"key": "fury", "label": "fury", "value": 24, "color": ""},
                {"key": "calm", "label": "calm", "value": 16, "color": ""},
            ]}),
            json!({"kind": "bars", "label": "Domains", "segments": [
                {"key": "fury", "label": "fury", "value": 24.0, "color": ""},
                {"key": "calm", "label": "calm", "value": 16.0, "color": ""},
            ]}),
        ),
    ];
    for (raw, expected) in cases {
        assert_eq!(widget(raw.clone()), expected, "{raw}");
    }
}

#[test]
fn a_default_calculator_dashboard_keeps_its_keys_and_vocabularies() {
    // What the Legends of Runeterra "Deck breakdown" returns for a two-region deck.
    let raw = json!({"widgets": [
        {"kind": "bars", "label": "Regions", "labelKey": "lor.regions", "vocabulary": "lor.region",
         "segments": [{"key": "Ionia", "label": "Ionia", "value": 22, "color": ""},
                      {"key": "PiltoverZaun", "label": "PiltoverZaun", "value": 18, "color": ""}]},
        {"kind": "histogram", "label": "Mana Curve", "labelKey": "lor.manaCurve",
         "buckets": [0, 6, 9, 8, 7, 4, 3, 2, 1, 0, 0],
         "labels": ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "+"]},
        {"kind": "stat", "label": "Average Cost", "labelKey": "lor.averageCost", "value": 3.4},
        {"kind": "ratio", "label": "Units : Spells", "labelKey": "lor.unitsToSpells",
         "numerator": 22, "denominator": 18, "format": "ratio"},
    ]});
    assert_eq!(
        dashboard_json(Some(raw)),
        json!({"widgets": [
            {"kind": "bars", "label": "Regions", "labelKey": "lor.regions", "vocabulary": "lor.region",
             "segments": [{"key": "Ionia", "label": "Ionia", "value": 22.0, "color": ""},
                          {"key": "PiltoverZaun", "label": "PiltoverZaun", "value": 18.0, "color": ""}]},
            {"kind": "histogram", "label": "Mana Curve", "labelKey": "lor.manaCurve",
             "buckets": [0.0, 6.0, 9.0, 8.0, 7.0, 4.0, 3.0, 2.0, 1.0, 0.0, 0.0],
             "labels": ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "+"]},
            {"kind": "stat", "label": "Average Cost", "labelKey": "lor.averageCost", "value": 3.4},
            {"kind": "ratio", "label": "Units : Spells", "labelKey": "lor.unitsToSpells",
             "numerator": 22.0, "denominator": 18.0, "format": "ratio"},
        ]})
    );

    // The Pokémon starter table sets its keys after pushing the widget.
    let table = json!({"kind": "table", "label": "Opening Hand Starters",
        "columns": ["Pokémon", "Possible Starter", "Forced Starter"],
        "rows": [["Pikachu", "40.00%", "12.50%"]],
        "labelKey": "pokemon.openingHandStarters",
        "columnKeys": ["pokemon.starterTable.pokemon", "pokemon.starterTable.possibleStarter",
                       "pokemon.starterTable.forcedStarter"]});
    assert_eq!(widget(table.clone()), table);
}

#[test]
fn an_empty_default_dashboard_flags_its_widgets_with_no_data() {
    // The Riftbound default over an empty pile.
    let raw = json!({"widgets": [
        {"kind": "bars", "label": "Domains", "labelKey": "riftbound.domains",
         "vocabulary": "riftbound.domain", "segments": []},
        {"kind": "histogram", "label": "Energy curve", "labelKey": "riftbound.energyCurve",
         "buckets": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
         "labels": ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "+"]},
        {"kind": "donut", "label": "Card types", "labelKey": "riftbound.cardTypes",
         "vocabulary": "riftbound.cardType", "segments": []},
        {"kind": "stat", "label": "Average energy", "labelKey": "riftbound.averageEnergy", "value": 0},
        {"kind": "donut", "label": "Unit / Spell / Gear", "labelKey": "riftbound.typeBalance",
         "vocabulary": "riftbound.cardType", "segments": [
            {"key": "unit", "label": "Unit", "value": 0, "color": ""},
            {"key": "spell", "label": "Spell", "value": 0, "color": ""},
            {"key": "gear", "label": "Gear", "value": 0, "color": ""}]},
    ]});
    let widgets = dashboard_json(Some(raw))["widgets"].clone();
    let flags: Vec<Value> = widgets
        .as_array()
        .unwrap()
        .iter()
        .map(|widget| widget.get("noData").cloned().unwrap_or(Value::Null))
        .collect();
    // Bars have no "No data" case; a stat of 0 is a value.
    assert_eq!(
        flags,
        [
            json!(null),
            json!(true),
            json!(true),
            json!(null),
            json!(true)
        ]
    );
    // An empty list is absent, as every empty repeated field is.
    assert_eq!(
        widgets[0],
        json!({"kind": "bars", "label": "Domains", "labelKey": "riftbound.domains",
               "vocabulary": "riftbound.domain"})
    );
}

// "How bad output is handled", row by row.

#[test]
fn anything_but_an_object_with_a_widgets_array_is_an_empty_dashboard() {
    for raw in [
        None,
        Some(json!(null)),
        Some(json!(5)),
        Some(json!("widgets")),
        Some(json!(true)),
        Some(json!([{"kind": "stat", "label": "x", "value": 1}])),
        Some(json!({})),
        Some(json!({"widgets": null})),
        Some(json!({"widgets": {"0": {"kind": "stat"}}})),
        Some(json!({"widgets": "stat"})),
        Some(json!({"Widgets": [{"kind": "stat"}]})),
    ] {
        let normalized = dashboard::normalize(raw.as_ref());
        assert_eq!(normalized, Dashboard::default(), "{raw:?}");
        assert_eq!(serde_json::to_value(&normalized).unwrap(), json!({}));
    }
}

#[test]
fn widgets_that_are_not_objects_or_of_unknown_kind_are_dropped() {
    let raw = json!({"widgets": [
        1, "stat", null, true, [], [{"kind": "stat"}],
        {}, {"kind": "pie"}, {"kind": "Stat"}, {"kind": " stat"}, {"kind": 5}, {"kind": null},
        {"kind": ["stat"]}, {"label": "no kind"},
        {"kind": "stat", "label": "kept", "value": 1},
        {"kind": "ratio", "label": "also kept", "numerator": 1, "denominator": 2},
    ]});
    let kinds: Vec<(String, String)> = dashboard::normalize(Some(&raw))
        .widgets
        .into_iter()
        .map(|widget| (widget.kind, widget.label.unwrap()))
        .collect();
    assert_eq!(
        kinds,
        [
            ("stat".to_owned(), "kept".to_owned()),
            ("ratio".to_owned(), "also kept".to_owned())
        ]
    );
    for kind in WidgetKind::ALL {
        assert_ne!(
            widget(json!({"kind": kind.name()})),
            Value::Null,
            "{kind:?} is known"
        );
    }
}

#[test]
fn a_missing_or_non_text_label_is_an_empty_label() {
    for label in [
        None,
        Some(json!(null)),
        Some(json!(5)),
        Some(json!(true)),
        Some(json!({})),
        Some(json!(["x"])),
    ] {
        let mut raw = json!({"kind": "stat", "value": 1});
        if let Some(label) = label {
            raw["label"] = label;
        }
        // The empty label is still written: every widget has one.
        assert_eq!(
            widget(raw),
            json!({"kind": "stat", "label": "", "value": 1.0})
        );
    }
    assert_eq!(
        widget_field(
            json!({"kind": "stat", "label": " As is ", "value": 1}),
            "label"
        ),
        json!(" As is ")
    );
}

#[test]
fn number_fields_are_converted_like_number() {
    let cases = [
        (json!(12), 12.0),
        (json!(-2.5), -2.5),
        (json!("12"), 12.0),
        (json!(" 0x10 "), 16.0),
        (json!("1e3"), 1000.0),
        (json!(""), 0.0),
        (json!("abc"), 0.0),
        (json!("Infinity"), 0.0),
        (json!("-Infinity"), 0.0),
        (json!("1e999"), 0.0),
        (json!("-0"), 0.0),
        (json!(null), 0.0),
        (json!(true), 1.0),
        (json!(false), 0.0),
        (json!([]), 0.0),
        (json!([7]), 7.0),
        (json!(["8"]), 8.0),
        (json!([1, 2]), 0.0),
        (json!({}), 0.0),
    ];
    for (raw, expected) in cases {
        let segment = widget(json!({"kind": "bars", "label": "", "segments": [
            {"key": "k", "label": "l", "value": raw.clone(), "color": ""}]}));
        assert_eq!(segment["segments"][0]["value"], json!(expected), "{raw}");
        assert_eq!(
            widget_field(
                json!({"kind": "histogram", "buckets": [raw.clone()], "labels": []}),
                "buckets"
            ),
            json!([expected]),
            "{raw}"
        );
        let odds = widget(json!({"kind": "hypergeometric", "population": raw.clone(),
                                 "successCount": raw.clone(), "draws": raw.clone(),
                                 "exactCounts": [raw.clone()]}));
        for field in ["population", "successCount", "draws"] {
            assert_eq!(odds[field], json!(expected), "{field} {raw}");
        }
        assert_eq!(odds["exactCounts"], json!([expected]), "{raw}");
        let ratio =
            widget(json!({"kind": "ratio", "numerator": raw.clone(), "denominator": raw.clone()}));
        assert_eq!(ratio["numerator"], json!(expected), "{raw}");
        assert_eq!(ratio["denominator"], json!(expected), "{raw}");
    }
    // A missing number field is `Number(undefined)`: NaN, so 0.
    let bare = widget(json!({"kind": "hypergeometric"}));
    assert_eq!(
        (&bare["population"], &bare["successCount"], &bare["draws"]),
        (&json!(0.0), &json!(0.0), &json!(0.0))
    );
    assert_eq!(
        widget(json!({"kind": "donut", "segments": [{}]}))["segments"],
        json!([{"key": "", "label": "", "value": 0.0, "color": ""}])
    );
}

#[test]
fn text_fields_take_numbers_and_booleans_as_text_and_anything_else_as_empty() {
    let cases = [
        (json!("text"), "text"),
        (json!(3), "3"),
        (json!(1.5), "1.5"),
        (json!(0.30000000000000004), "0.30000000000000004"),
        (json!(1e21), "1e+21"),
        (
            json!(123_456_789_012_345_680_000.0),
            "123456789012345680000",
        ),
        (json!(true), "true"),
        (json!(false), "false"),
        (json!(null), ""),
        (json!({}), ""),
        (json!([1]), ""),
    ];
    for (raw, expected) in cases {
        let segments = widget(
            json!({"kind": "donut", "vocabulary": raw.clone(), "segments": [
            {"key": raw.clone(), "label": raw.clone(), "value": 1, "color": raw.clone()}]}),
        );
        let segment = &segments["segments"][0];
        for field in ["key", "label", "color"] {
            assert_eq!(segment[field], json!(expected), "{field} {raw}");
        }
        assert_eq!(segments["vocabulary"], json!(expected), "{raw}");
        assert_eq!(
            widget_field(json!({"kind": "stat", "labelKey": raw.clone()}), "labelKey"),
            json!(expected),
            "{raw}"
        );
        assert_eq!(
            widget_field(
                json!({"kind": "histogram", "labels": [raw.clone()]}),
                "labels"
            ),
            json!([expected]),
            "{raw}"
        );
        let table = widget(json!({"kind": "table", "columns": [raw.clone()],
                                  "columnKeys": [raw.clone()], "rows": [[1]]}));
        assert_eq!(table["columns"], json!([expected]), "{raw}");
        assert_eq!(table["columnKeys"], json!([expected]), "{raw}");
    }
}

#[test]
fn a_stat_value_stays_a_number_or_becomes_text() {
    let cases = [
        (Some(json!(3.4)), json!(3.4)),
        (Some(json!(0)), json!(0.0)),
        (Some(json!(-12)), json!(-12.0)),
        (Some(json!("12.5%")), json!("12.5%")),
        (Some(json!("")), json!("")),
        // Strings are shown verbatim: no Number() on them.
        (Some(json!("42")), json!("42")),
        (Some(json!(true)), json!("true")),
        (Some(json!(null)), json!("")),
        (Some(json!({})), json!("")),
        (Some(json!([3])), json!("")),
        (None, json!("")),
    ];
    for (raw, expected) in cases {
        let mut stat = json!({"kind": "stat", "label": "S"});
        if let Some(raw) = raw.clone() {
            stat["value"] = raw;
        }
        assert_eq!(widget_field(stat, "value"), expected, "{raw:?}");
    }
}

#[test]
fn table_cells_stay_numbers_or_become_text_and_non_array_rows_are_dropped() {
    let raw = json!({"kind": "table", "label": "T", "columns": ["a", "b"], "rows": [
        ["Zed", 3, 1.5, true, false, null, {}, [1], "  pad  "],
        "not a row", null, 5, {"0": "x"},
        [],
        [0],
    ]});
    assert_eq!(
        widget_field(raw, "rows"),
        json!([
            ["Zed", 3.0, 1.5, "true", "false", "", "", "", "  pad  "],
            [],
            [0.0],
        ])
    );
}

#[test]
fn segments_that_are_not_objects_are_dropped() {
    assert_eq!(
        widget_field(
            json!({"kind": "gauge", "segments": [
                1, "seg", null, true, [{"key": "a"}],
                {"key": "a", "label": "A", "value": 2, "color": "red"},
            ]}),
            "segments"
        ),
        json!([{"key": "a", "label": "A", "value": 2.0, "color": "red"}])
    );
}

#[test]
fn optional_fields_of_the_wrong_type_are_left_out() {
    for unit in [
        json!(5),
        json!(true),
        json!(null),
        json!({}),
        json!(["cards"]),
    ] {
        assert_eq!(
            widget(json!({"kind": "stat", "label": "S", "value": 1, "unit": unit})),
            json!({"kind": "stat", "label": "S", "value": 1.0})
        );
    }
    assert_eq!(
        widget_field(json!({"kind": "stat", "value": 1, "unit": ""}), "unit"),
        json!("")
    );
    for counts in [json!("1,2"), json!(3), json!(null), json!({"0": 1})] {
        assert_eq!(
            widget(
                json!({"kind": "hypergeometric", "label": "H", "population": 40,
                          "successCount": 4, "draws": 7, "exactCounts": counts})
            ),
            json!({"kind": "hypergeometric", "label": "H", "population": 40.0,
                   "successCount": 4.0, "draws": 7.0})
        );
    }
    for format in [
        json!("fraction"),
        json!("Percent"),
        json!(" ratio"),
        json!(1),
        json!(null),
        json!(["ratio"]),
    ] {
        assert_eq!(
            widget(
                json!({"kind": "ratio", "label": "R", "numerator": 1, "denominator": 2,
                          "format": format})
            ),
            json!({"kind": "ratio", "label": "R", "numerator": 1.0, "denominator": 2.0})
        );
    }
    for format in ["number", "percent", "multiplier", "ratio"] {
        assert_eq!(
            widget_field(
                json!({"kind": "ratio", "numerator": 1, "denominator": 2, "format": format}),
                "format"
            ),
            json!(format)
        );
    }
    assert_eq!(
        widget(
            json!({"kind": "table", "label": "T", "columns": ["a"], "rows": [[1]],
                      "columnKeys": "a"})
        ),
        json!({"kind": "table", "label": "T", "columns": ["a"], "rows": [[1.0]]})
    );
}

#[test]
fn extra_properties_are_dropped() {
    let everything = json!({
        "label": "L", "labelKey": "k", "value": 1, "unit": "u", "buckets": [1], "labels": ["a"],
        "vocabulary": "v", "segments": [{"key": "a", "label": "A", "value": 1, "color": ""}],
        "columns": ["c"], "columnKeys": ["ck"], "rows": [[1]], "population": 40,
        "successCount": 4, "draws": 7, "exactCounts": [1], "numerator": 1, "denominator": 2,
        "format": "percent", "noData": true, "html": "<b>x</b>", "onClick": "alert(1)",
    });
    let expected_fields: [(&str, &[&str]); 8] = [
        ("stat", &["value", "unit"]),
        ("histogram", &["buckets", "labels"]),
        ("donut", &["vocabulary", "segments"]),
        ("gauge", &["vocabulary", "segments"]),
        ("bars", &["vocabulary", "segments"]),
        ("table", &["columns", "columnKeys", "rows"]),
        (
            "hypergeometric",
            &["population", "successCount", "draws", "exactCounts"],
        ),
        ("ratio", &["numerator", "denominator", "format"]),
    ];
    for (kind, fields) in expected_fields {
        let mut raw = everything.clone();
        raw["kind"] = json!(kind);
        let normalized = widget(raw);
        let mut keys: Vec<&str> = normalized
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        keys.sort_unstable();
        let mut expected: Vec<&str> = ["kind", "label", "labelKey"]
            .into_iter()
            .chain(fields.iter().copied())
            .collect();
        expected.sort_unstable();
        assert_eq!(keys, expected, "{kind}");
    }
}

// Limits, each at its boundary.

fn strings(count: usize) -> Vec<Value> {
    (0..count).map(|index| json!(format!("s{index}"))).collect()
}

fn numbers(count: usize) -> Vec<Value> {
    (0..count).map(|index| json!(index + 1)).collect()
}

fn stat(index: usize) -> Value {
    json!({"kind": "stat", "label": format!("w{index}"), "value": index})
}

#[test]
fn fifty_widgets_are_kept_and_the_fifty_first_dropped() {
    let fifty: Vec<Value> = (0..50).map(stat).collect();
    assert_eq!(
        dashboard::normalize(Some(&json!({"widgets": fifty})))
            .widgets
            .len(),
        50
    );
    let fifty_one: Vec<Value> = (0..51).map(stat).collect();
    let kept = dashboard::normalize(Some(&json!({"widgets": fifty_one}))).widgets;
    assert_eq!(kept.len(), dashboard::MAX_WIDGETS);
    assert_eq!(kept[49].label.as_deref(), Some("w49"));
    // Dropped widgets do not count: the cap is on widgets kept.
    let mut mixed: Vec<Value> = vec![json!({"kind": "unknown"}); 10];
    mixed.extend((0..51).map(stat));
    let kept = dashboard::normalize(Some(&json!({"widgets": mixed}))).widgets;
    assert_eq!(kept.len(), 50);
    assert_eq!(kept[0].label.as_deref(), Some("w0"));
}

#[test]
fn segments_are_cut_to_one_hundred() {
    let segment =
        |index: usize| json!({"key": format!("k{index}"), "label": "", "value": 1, "color": ""});
    for kind in ["donut", "gauge", "bars"] {
        let hundred: Vec<Value> = (0..100).map(segment).collect();
        let kept =
            dashboard::normalize_widget(&json!({"kind": kind, "segments": hundred})).unwrap();
        assert_eq!(kept.segments.len(), 100);
        let mut over: Vec<Value> = vec![json!("not a segment")];
        over.extend((0..101).map(segment));
        let kept = dashboard::normalize_widget(&json!({"kind": kind, "segments": over})).unwrap();
        assert_eq!(kept.segments.len(), dashboard::MAX_SEGMENTS);
        assert_eq!(kept.segments[99].key.as_deref(), Some("k99"));
    }
}

#[test]
fn histogram_buckets_and_labels_are_cut_to_two_hundred() {
    let kept = dashboard::normalize_widget(
        &json!({"kind": "histogram", "buckets": numbers(200), "labels": strings(200)}),
    )
    .unwrap();
    assert_eq!((kept.buckets.len(), kept.labels.len()), (200, 200));
    let cut = dashboard::normalize_widget(
        &json!({"kind": "histogram", "buckets": numbers(201), "labels": strings(201)}),
    )
    .unwrap();
    assert_eq!(
        (cut.buckets.len(), cut.labels.len()),
        (
            dashboard::MAX_HISTOGRAM_BUCKETS,
            dashboard::MAX_HISTOGRAM_BUCKETS
        )
    );
    assert_eq!(cut.buckets[199], 200.0);
    assert_eq!(cut.labels[199], "s199");
}

#[test]
fn tables_keep_two_hundred_rows_and_twenty_columns() {
    let row = |index: usize| json!([format!("r{index}")]);
    let table = |rows: Vec<Value>, columns: usize| {
        dashboard::normalize_widget(&json!({"kind": "table", "columns": strings(columns),
                                            "columnKeys": strings(columns), "rows": rows}))
        .unwrap()
    };
    assert_eq!(table((0..200).map(row).collect(), 1).rows.len(), 200);
    let mut rows: Vec<Value> = vec![json!("dropped row")];
    rows.extend((0..201).map(row));
    let cut = table(rows, 1);
    assert_eq!(cut.rows.len(), dashboard::MAX_TABLE_ROWS);
    assert_eq!(
        serde_json::to_value(&cut.rows[199]).unwrap(),
        json!(["r199"])
    );

    let twenty = table(vec![Value::Array(numbers(20))], 20);
    assert_eq!(
        (
            twenty.columns.len(),
            twenty.column_keys.len(),
            twenty.rows[0].values.len()
        ),
        (20, 20, 20)
    );
    let cut = table(vec![Value::Array(numbers(21))], 21);
    assert_eq!(
        (
            cut.columns.len(),
            cut.column_keys.len(),
            cut.rows[0].values.len()
        ),
        (
            dashboard::MAX_TABLE_COLUMNS,
            dashboard::MAX_TABLE_COLUMNS,
            dashboard::MAX_TABLE_COLUMNS
        )
    );
    assert_eq!(cut.columns[19], "s19");
}

#[test]
fn exact_counts_are_cut_to_fifty() {
    let odds = |count: usize| {
        dashboard::normalize_widget(
            &json!({"kind": "hypergeometric", "population": 60, "exactCounts": numbers(count)}),
        )
        .unwrap()
    };
    assert_eq!(odds(50).exact_counts.len(), 50);
    let cut = odds(51);
    assert_eq!(cut.exact_counts.len(), dashboard::MAX_EXACT_COUNTS);
    assert_eq!(cut.exact_counts[49], 50.0);
}

#[test]
fn every_short_string_is_cut_to_two_hundred_characters() {
    for (length, kept) in [(199, 199), (200, 200), (201, 200), (5000, 200)] {
        let text = "x".repeat(length);
        let expected = json!("x".repeat(kept));
        let short = json!(text);
        let stat = widget(json!({"kind": "stat", "label": short, "value": short,
                                 "labelKey": short, "unit": short}));
        for field in ["label", "labelKey", "value", "unit"] {
            assert_eq!(stat[field], expected, "stat {field} {length}");
        }
        let donut = widget(json!({"kind": "donut", "vocabulary": short, "segments": [
            {"key": short, "label": short, "value": 1, "color": short}]}));
        assert_eq!(donut["vocabulary"], expected);
        for field in ["key", "label", "color"] {
            assert_eq!(
                donut["segments"][0][field], expected,
                "segment {field} {length}"
            );
        }
        assert_eq!(
            widget_field(json!({"kind": "histogram", "labels": [short]}), "labels"),
            json!([expected])
        );
        let table = widget(
            json!({"kind": "table", "columns": [short], "columnKeys": [short],
                                  "rows": [[short]]}),
        );
        assert_eq!(table["columns"], json!([expected]));
        assert_eq!(table["columnKeys"], json!([expected]));
        assert_eq!(table["rows"], json!([[expected]]), "cell {length}");
    }
}

#[test]
fn characters_are_utf16_code_units_like_javascript() {
    // 199 ASCII letters and an emoji (two code units) are 201 units: the emoji does not fit
    // whole, so it goes.
    let emoji = format!("{}😀", "a".repeat(199));
    assert_eq!(
        widget_field(json!({"kind": "stat", "label": emoji, "value": 1}), "label"),
        json!("a".repeat(199))
    );
    // 100 emoji are exactly 200 units.
    let hundred = "😀".repeat(100);
    assert_eq!(
        widget_field(
            json!({"kind": "stat", "label": hundred, "value": 1}),
            "label"
        ),
        json!(hundred)
    );
    let accents = "é".repeat(201);
    assert_eq!(
        widget_field(
            json!({"kind": "table", "columns": ["a"], "rows": [[accents]]}),
            "rows"
        ),
        json!([["é".repeat(200)]])
    );
}

// "No data".

fn no_data(raw: Value) -> bool {
    match widget(raw).get("noData") {
        Some(Value::Bool(true)) => true,
        None => false,
        Some(other) => panic!("noData is only ever true, got {other}"),
    }
}

#[test]
fn a_stat_with_empty_text_has_no_data() {
    assert!(no_data(json!({"kind": "stat", "value": ""})));
    assert!(no_data(json!({"kind": "stat"})));
    assert!(no_data(json!({"kind": "stat", "value": null})));
    assert!(!no_data(json!({"kind": "stat", "value": 0})));
    assert!(!no_data(json!({"kind": "stat", "value": " "})));
    assert!(!no_data(json!({"kind": "stat", "value": false})));
}

#[test]
fn charts_with_no_positive_value_have_no_data() {
    assert!(no_data(
        json!({"kind": "histogram", "buckets": [], "labels": []})
    ));
    assert!(no_data(json!({"kind": "histogram", "buckets": [0, 0, -3]})));
    assert!(no_data(
        json!({"kind": "histogram", "buckets": ["x", null]})
    ));
    assert!(!no_data(json!({"kind": "histogram", "buckets": [0, 0.5]})));
    for kind in ["donut", "gauge"] {
        assert!(no_data(json!({"kind": kind})));
        assert!(no_data(json!({"kind": kind, "segments": []})));
        assert!(no_data(
            json!({"kind": kind, "segments": [{"value": 0}, {"value": -1}]})
        ));
        assert!(!no_data(
            json!({"kind": kind, "segments": [{"value": 0}, {"value": 1}]})
        ));
    }
    // The spec names no such case for bars.
    assert!(!no_data(json!({"kind": "bars", "segments": []})));
    assert!(!no_data(
        json!({"kind": "bars", "segments": [{"value": 0}]})
    ));
}

#[test]
fn a_table_with_no_columns_or_no_rows_has_no_data() {
    assert!(no_data(
        json!({"kind": "table", "columns": [], "rows": [[1]]})
    ));
    assert!(no_data(
        json!({"kind": "table", "columns": ["a"], "rows": []})
    ));
    assert!(no_data(
        json!({"kind": "table", "columns": ["a"], "rows": ["x"]})
    ));
    assert!(no_data(json!({"kind": "table"})));
    assert!(!no_data(
        json!({"kind": "table", "columns": ["a"], "rows": [[1]]})
    ));
    assert!(!no_data(
        json!({"kind": "table", "columns": ["a"], "rows": [[]]})
    ));
}

#[test]
fn a_hypergeometric_with_no_population_has_no_data() {
    assert!(no_data(json!({"kind": "hypergeometric", "population": 0})));
    assert!(no_data(json!({"kind": "hypergeometric", "population": -1})));
    assert!(no_data(
        json!({"kind": "hypergeometric", "population": "abc"})
    ));
    assert!(no_data(json!({"kind": "hypergeometric"})));
    assert!(!no_data(json!({"kind": "hypergeometric", "population": 1})));
    assert!(!no_data(
        json!({"kind": "hypergeometric", "population": "60"})
    ));
}

#[test]
fn a_ratio_with_a_zero_denominator_has_no_data() {
    assert!(no_data(
        json!({"kind": "ratio", "numerator": 3, "denominator": 0})
    ));
    assert!(no_data(
        json!({"kind": "ratio", "numerator": 3, "denominator": "Infinity"})
    ));
    assert!(no_data(json!({"kind": "ratio", "numerator": 3})));
    assert!(!no_data(
        json!({"kind": "ratio", "numerator": 0, "denominator": -2})
    ));
    assert!(
        widget(json!({"kind": "ratio", "numerator": 0, "denominator": 1}))
            .get("noData")
            .is_none()
    );
}

// ---------------------------------------------------------------------------------------------
// Pool filters
// ---------------------------------------------------------------------------------------------

fn patch(game: Game, raw: Option<Value>) -> Value {
    serde_json::to_value(pool_filters::normalize(game, raw.as_ref())).expect("serializes")
}

#[test]
fn each_game_keeps_its_own_filter_keys() {
    let every_key = json!({
        "regionRefs": ["Ionia"], "typeRefs": ["Unit"], "rarityRefs": ["Rare"],
        "setCodes": ["Set1"], "keywordVocabRefs": ["Elusive"],
        "cardTypes": ["unit"], "types": ["Fire"], "stages": ["Basic"], "rarities": ["Common"],
        "domains": ["fury"], "sets": ["OGN"], "supertypes": ["Champion"], "tags": ["Yordle"],
        "regionRef": ["typo"], "search": "zed", "costs": [1, 2],
    });
    assert_eq!(
        patch(Game::Lor, Some(every_key.clone())),
        json!({"regionRefs": ["Ionia"], "typeRefs": ["Unit"], "rarityRefs": ["Rare"],
               "setCodes": ["Set1"], "keywordVocabRefs": ["Elusive"]})
    );
    assert_eq!(
        patch(Game::Pokemon, Some(every_key.clone())),
        json!({"cardTypes": ["unit"], "types": ["Fire"], "stages": ["Basic"],
               "rarities": ["Common"], "setCodes": ["Set1"]})
    );
    assert_eq!(
        patch(Game::Riftbound, Some(every_key)),
        json!({"cardTypes": ["unit"], "domains": ["fury"], "rarities": ["Common"],
               "sets": ["OGN"], "supertypes": ["Champion"], "tags": ["Yordle"]})
    );
    // Each key of the guide's table round-trips through the proto field of the same name.
    for game in Game::ALL {
        for key in pool_filters::filter_keys(game) {
            assert_eq!(
                patch(game, Some(json!({ (key.to_string()): ["v"] }))),
                json!({ (key.to_string()): ["v"] }),
                "{game:?} {key}"
            );
        }
    }
}

#[test]
fn the_documented_patches_normalize_as_written() {
    assert_eq!(
        patch(
            Game::Riftbound,
            Some(json!({"cardTypes": ["unit", "spell", "gear"]}))
        ),
        json!({"cardTypes": ["unit", "spell", "gear"]})
    );
    assert_eq!(
        patch(
            Game::Lor,
            Some(json!({"regionRefs": ["Ionia", "PiltoverZaun"]}))
        ),
        json!({"regionRefs": ["Ionia", "PiltoverZaun"]})
    );
}

#[test]
fn an_empty_list_clears_and_an_omitted_key_leaves_the_filter_alone() {
    let normalized = pool_filters::normalize(
        Game::Riftbound,
        Some(&json!({"domains": [], "cardTypes": ["unit"]})),
    )
    .unwrap();
    assert_eq!(
        normalized.domains.as_ref().map(|list| list.values.len()),
        Some(0)
    );
    assert!(normalized.rarities.is_none());
    assert_eq!(
        serde_json::to_value(&normalized).unwrap(),
        json!({"domains": [], "cardTypes": ["unit"]})
    );
    assert_eq!(patch(Game::Riftbound, Some(json!({}))), json!({}));
}

#[test]
fn null_and_non_objects_make_no_suggestion() {
    for game in Game::ALL {
        for raw in [
            None,
            Some(json!(null)),
            Some(json!(false)),
            Some(json!(0)),
            Some(json!("cardTypes")),
            Some(json!([["unit"]])),
            Some(json!([{"cardTypes": ["unit"]}])),
        ] {
            assert_eq!(pool_filters::normalize(game, raw.as_ref()), None, "{raw:?}");
            assert_eq!(patch(game, raw), json!(null));
        }
    }
}

#[test]
fn a_filter_key_without_a_list_is_no_suggestion_and_non_strings_are_dropped() {
    assert_eq!(
        patch(
            Game::Riftbound,
            Some(
                json!({"cardTypes": "unit", "domains": null, "tags": {"0": "x"},
                        "sets": ["OGN", 1, null, true, ["SFD"], {}, "SFD", ""]})
            )
        ),
        json!({"sets": ["OGN", "SFD", ""]})
    );
}

#[test]
fn games_read_and_write_their_short_names() {
    for (game, name) in [
        (Game::Lor, "lor"),
        (Game::Pokemon, "pokemon"),
        (Game::Riftbound, "riftbound"),
    ] {
        assert_eq!(game.name(), name);
        assert_eq!(serde_json::to_value(game).unwrap(), json!(name));
        assert_eq!(serde_json::from_value::<Game>(json!(name)).unwrap(), game);
    }
    assert!(serde_json::from_value::<Game>(json!("mtg")).is_err());
}

#[test]
fn the_pool_filters_input_has_the_documented_shape_and_order() {
    let lineup = [
        LineupPile {
            pile_id: "legend".into(),
            name: "Legend".into(),
            role: None,
            deck_rule_id: Some("riftbound-legend".into()),
            cards: vec![("rb-ahri".into(), 1)],
        },
        LineupPile {
            pile_id: "main".into(),
            name: "Main Deck".into(),
            role: Some(PileRole::Main),
            deck_rule_id: None,
            cards: vec![("rb-zed".into(), 3), ("rb-annie".into(), 2)],
        },
        LineupPile {
            pile_id: "side".into(),
            name: "Sideboard".into(),
            role: Some(PileRole::Sideboard),
            deck_rule_id: None,
            cards: vec![],
        },
    ];
    let cards_by_id =
        json!({"rb-zed": {"id": "rb-zed", "name": "Zed"}, "rb-ahri": {"id": "rb-ahri"}});
    let filters = json!({"domains": ["fury"], "cardTypes": []});
    let input = pool_filters::input(
        &lineup,
        "main",
        cards_by_id.as_object().unwrap(),
        filters.as_object().unwrap(),
    );
    let expected = json!({
        "lineup": [
            {"pileId": "legend", "name": "Legend", "role": null, "deckRuleId": "riftbound-legend",
             "cards": {"rb-ahri": 1}},
            {"pileId": "main", "name": "Main Deck", "role": "main", "deckRuleId": null,
             "cards": {"rb-zed": 3, "rb-annie": 2}},
            {"pileId": "side", "name": "Sideboard", "role": "sideboard", "deckRuleId": null,
             "cards": {}},
        ],
        "activePileId": "main",
        "cardsById": {"rb-zed": {"id": "rb-zed", "name": "Zed"}, "rb-ahri": {"id": "rb-ahri"}},
        "filters": {"domains": ["fury"], "cardTypes": []},
    });
    assert_eq!(input, expected);
    // Key order is part of what scripts see (`Object.keys(pile.cards)`).
    assert_eq!(
        serde_json::to_string(&input).unwrap(),
        serde_json::to_string(&expected).unwrap()
    );
    let roles: Vec<&str> = [
        PileRole::Main,
        PileRole::Sideboard,
        PileRole::Maybeboard,
        PileRole::Commander,
    ]
    .into_iter()
    .map(PileRole::name)
    .collect();
    assert_eq!(roles, ["main", "sideboard", "maybeboard", "commander"]);
}

// ---------------------------------------------------------------------------------------------
// Properties: no input panics, and the caps always hold.
// ---------------------------------------------------------------------------------------------

/// Keys the normalizers look at, so generated objects often have meaningful fields.
const KEYS: &[&str] = &[
    "valid",
    "allowed",
    "issues",
    "code",
    "message",
    "metadata",
    "widgets",
    "kind",
    "label",
    "labelKey",
    "value",
    "unit",
    "buckets",
    "labels",
    "vocabulary",
    "segments",
    "key",
    "color",
    "columns",
    "columnKeys",
    "rows",
    "population",
    "successCount",
    "draws",
    "exactCounts",
    "numerator",
    "denominator",
    "format",
    "cardTypes",
    "domains",
    "regionRefs",
    "setCodes",
];

/// The fields widgets have.
const WIDGET_KEYS: &[&str] = &[
    "label",
    "labelKey",
    "value",
    "unit",
    "buckets",
    "labels",
    "vocabulary",
    "segments",
    "columns",
    "columnKeys",
    "rows",
    "population",
    "successCount",
    "draws",
    "exactCounts",
    "numerator",
    "denominator",
    "format",
];

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z_ ]{0,8}",
        "\\PC{0,12}",
        Just("stat".to_owned()),
        Just("donut".to_owned()),
        Just("table".to_owned()),
        Just("hypergeometric".to_owned()),
        Just(" 0x1F ".to_owned()),
        Just("Infinity".to_owned()),
        Just("1e400".to_owned()),
        Just("😀".repeat(101)),
        "[0-9.eE+-]{1,6}",
    ]
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_map(
            |number| serde_json::Number::from_f64(number).map_or(Value::Null, Value::Number)
        ),
        text().prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 96, 12, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..12).prop_map(Value::Array),
            prop::collection::vec(
                (
                    prop_oneof![prop::sample::select(KEYS).prop_map(str::to_owned), text()],
                    inner
                ),
                0..10
            )
            .prop_map(|entries| Value::Object(entries.into_iter().collect())),
        ]
    })
}

/// A widget of a random known kind with random, sometimes long, fields: long strings, lists
/// past the caps, rows of cells past the caps, and segment-like objects.
fn widget_value() -> impl Strategy<Value = Value> {
    let kinds: Vec<&'static str> = WidgetKind::ALL.iter().map(|kind| kind.name()).collect();
    // Strings around the 200-unit cap, of one- and two-unit characters; cheap to generate.
    let long_text = (prop::sample::select(vec!["x", "é", "😀"]), 95usize..230)
        .prop_map(|(ch, count)| Value::String(ch.repeat(count)));
    let scalar = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-5i64..50).prop_map(Value::from),
        prop::sample::select(vec!["", "7", " 0x1F ", "Infinity", "abc"]).prop_map(Value::from),
        long_text.clone(),
    ];
    let segment = (scalar.clone(), scalar.clone(), scalar.clone(), scalar.clone()).prop_map(
        |(key, label, value, color)| json!({"key": key, "label": label, "value": value, "color": color}),
    );
    let element = prop_oneof![3 => scalar.clone(), 1 => segment];
    let row = prop::collection::vec(scalar, 0..23).prop_map(Value::Array);
    let field = prop_oneof![
        3 => long_text,
        3 => json_value(),
        2 => prop::collection::vec(element, 0..220).prop_map(Value::Array),
        1 => prop::collection::vec(row, 0..210).prop_map(Value::Array),
    ];
    (
        prop::sample::select(kinds),
        prop::collection::vec((prop::sample::select(WIDGET_KEYS), field), 0..5),
    )
        .prop_map(|(kind, fields)| {
            let mut object: serde_json::Map<String, Value> = fields
                .into_iter()
                .map(|(key, value)| (key.to_owned(), value))
                .collect();
            object.insert("kind".into(), json!(kind));
            Value::Object(object)
        })
}

fn check_short(text: &str) {
    assert!(
        js::utf16_len(text) <= dashboard::MAX_LABEL_LENGTH,
        "{text:?}"
    );
}

fn check_number(number: f64) {
    assert!(number.is_finite());
    assert!(!(number == 0.0 && number.is_sign_negative()), "-0");
}

fn check_caps(dashboard: &Dashboard) {
    use pbjson_types::value::Kind;

    assert!(dashboard.widgets.len() <= dashboard::MAX_WIDGETS);
    for widget in &dashboard.widgets {
        let kind = WidgetKind::from_name(&widget.kind).expect("a known kind");
        check_short(widget.label.as_deref().expect("every widget has a label"));
        widget.label_key.as_deref().map(check_short);
        widget.vocabulary.as_deref().map(check_short);
        widget.unit.as_deref().map(check_short);
        assert_ne!(widget.no_data, Some(false));
        match widget.value.as_ref().and_then(|value| value.kind.as_ref()) {
            Some(Kind::NumberValue(number)) => check_number(*number),
            Some(Kind::StringValue(text)) => check_short(text),
            None => {}
            Some(other) => panic!("stat value {other:?}"),
        }
        assert!(widget.buckets.len() <= dashboard::MAX_HISTOGRAM_BUCKETS);
        widget.buckets.iter().copied().for_each(check_number);
        assert!(widget.labels.len() <= dashboard::MAX_HISTOGRAM_BUCKETS);
        widget
            .labels
            .iter()
            .map(String::as_str)
            .for_each(check_short);
        assert!(widget.segments.len() <= dashboard::MAX_SEGMENTS);
        for segment in &widget.segments {
            for text in [&segment.key, &segment.label, &segment.color] {
                check_short(text.as_deref().expect("segment text is set"));
            }
            check_number(segment.value.expect("segment value is set"));
        }
        assert!(widget.columns.len() <= dashboard::MAX_TABLE_COLUMNS);
        assert!(widget.column_keys.len() <= dashboard::MAX_TABLE_COLUMNS);
        widget
            .columns
            .iter()
            .map(String::as_str)
            .for_each(check_short);
        widget
            .column_keys
            .iter()
            .map(String::as_str)
            .for_each(check_short);
        assert!(widget.rows.len() <= dashboard::MAX_TABLE_ROWS);
        for row in &widget.rows {
            assert!(row.values.len() <= dashboard::MAX_TABLE_COLUMNS);
            for cell in &row.values {
                match cell.kind.as_ref() {
                    Some(Kind::NumberValue(number)) => check_number(*number),
                    Some(Kind::StringValue(text)) => {
                        assert!(js::utf16_len(text) <= dashboard::MAX_CELL_LENGTH);
                    }
                    other => panic!("cell {other:?}"),
                }
            }
        }
        assert!(widget.exact_counts.len() <= dashboard::MAX_EXACT_COUNTS);
        widget.exact_counts.iter().copied().for_each(check_number);
        for number in [
            widget.population,
            widget.success_count,
            widget.draws,
            widget.numerator,
            widget.denominator,
        ]
        .into_iter()
        .flatten()
        {
            check_number(number);
        }
        if let Some(format) = &widget.format {
            assert!(dashboard::RATIO_FORMATS.contains(&format.as_str()));
        }
        // Only the kind's own fields are set.
        let segment_kind = matches!(
            kind,
            WidgetKind::Donut | WidgetKind::Gauge | WidgetKind::Bars
        );
        assert_eq!(widget.value.is_some(), kind == WidgetKind::Stat);
        assert!(kind == WidgetKind::Stat || widget.unit.is_none());
        assert!(
            kind == WidgetKind::Histogram
                || (widget.buckets.is_empty() && widget.labels.is_empty())
        );
        assert!(segment_kind || (widget.segments.is_empty() && widget.vocabulary.is_none()));
        assert!(
            kind == WidgetKind::Table
                || (widget.columns.is_empty()
                    && widget.column_keys.is_empty()
                    && widget.rows.is_empty())
        );
        assert_eq!(
            widget.population.is_some(),
            kind == WidgetKind::Hypergeometric
        );
        assert!(kind == WidgetKind::Hypergeometric || widget.exact_counts.is_empty());
        assert_eq!(widget.denominator.is_some(), kind == WidgetKind::Ratio);
    }
    // Every normalized dashboard has a JSON form (no NaN reaches a google.protobuf.Value).
    serde_json::to_string(dashboard).expect("a dashboard serializes");
}

fn check_rule_result(result: &RuleResult) {
    let valid = result.valid.expect("valid is always set");
    assert!(valid || !result.issues.is_empty(), "a failure has an issue");
    for issue in &result.issues {
        assert!(issue.code.is_some() || issue.message.is_some());
        for text in [&issue.code, &issue.message].into_iter().flatten() {
            assert!(!text.is_empty());
            assert_eq!(js::trim(text), text);
        }
        for value in issue.metadata.values() {
            assert!(matches!(
                value.kind,
                Some(
                    pbjson_types::value::Kind::StringValue(_)
                        | pbjson_types::value::Kind::NumberValue(_)
                        | pbjson_types::value::Kind::BoolValue(_)
                )
            ));
        }
    }
    serde_json::to_string(result).expect("a result serializes");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn normalizing_any_json_never_panics_and_keeps_the_invariants(raw in json_value()) {
        check_caps(&dashboard::normalize(Some(&raw)));
        check_caps(&dashboard::normalize(Some(&json!({"widgets": [raw.clone()]}))));
        for scope in [Scope::Card, Scope::Deck, Scope::Deckset] {
            check_rule_result(&rule_result::normalize(scope, Some(&raw)));
            check_rule_result(&rule_result::normalize(scope, Some(&json!({"issues": [raw.clone()]}))));
        }
        for game in Game::ALL {
            if let Some(patch) = pool_filters::normalize(game, Some(&raw)) {
                let written = serde_json::to_value(&patch).unwrap();
                for (key, list) in written.as_object().unwrap() {
                    prop_assert!(pool_filters::filter_keys(game).contains(&key.as_str()));
                    prop_assert!(list.as_array().unwrap().iter().all(Value::is_string));
                }
            }
        }
        let number = dashboard::number(Some(&raw));
        prop_assert!(number.is_finite());
    }

    #[test]
    fn numbers_survive_their_own_text_form(number in any::<f64>().prop_filter("finite", |n| n.is_finite())) {
        // String(n) read back by Number() is n again, as in JavaScript.
        prop_assert_eq!(js::string_to_number(&js::number_to_string(number)), number + 0.0);
    }
}

proptest! {
    // Large inputs: fewer cases.
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn caps_hold_for_large_dashboards(widgets in prop::collection::vec(widget_value(), 0..60)) {
        let count = widgets.len();
        let normalized = dashboard::normalize(Some(&json!({"widgets": widgets})));
        // Every generated widget has a known kind, so only the cap drops any.
        prop_assert_eq!(normalized.widgets.len(), count.min(dashboard::MAX_WIDGETS));
        check_caps(&normalized);
    }
}
