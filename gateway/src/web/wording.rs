//! How the tournament pages put the service's values in words: a setting's name and value as
//! the guide writes them (`pairing_style: fold` → "Pairing style: Fold (top half vs bottom
//! half)"), each tiebreaker's short name and meaning, a JSON value as text, `1st`, `2nd` ….
//! The create form's fields and a tournament's page read the same names.

use serde_json::Value;

/// Each tiebreaker the service names, as people read it and what it means (the guide's words).
pub(super) const TIEBREAKERS: [(&str, &str, &str); 10] = [
    (
        "head_to_head",
        "H2H",
        "Head-to-head: among players tied on points, the points each earned against the others in the tie.",
    ),
    (
        "score_difference",
        "Diff",
        "Score difference: games won minus games lost, over every match played.",
    ),
    (
        "game_win_percentage",
        "GW%",
        "Game win percentage: games won divided by games played.",
    ),
    (
        "points_scored",
        "Pts scored",
        "Points scored: total games won over every match played.",
    ),
    (
        "buchholz",
        "Buchholz",
        "Buchholz: the sum of the current points of every opponent played; byes add nothing.",
    ),
    (
        "median_buchholz",
        "Median B.",
        "Median Buchholz: Buchholz without the single highest and single lowest opponent.",
    ),
    (
        "sonneborn_berger",
        "S-B",
        "Sonneborn-Berger: the points of every opponent beaten, plus half of every opponent drawn.",
    ),
    (
        "opponent_match_win_percentage",
        "OMW%",
        "Opponent match win percentage: the average match-win percentage of the opponents.",
    ),
    (
        "opponent_opponent_match_win_percentage",
        "OOMW%",
        "Opponent-opponent match win percentage: the average OMW% of the opponents.",
    ),
    (
        "opponent_game_win_percentage",
        "OGW%",
        "Opponent game win percentage: the average game-win percentage of the opponents.",
    ),
];

pub(super) fn text(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        Value::Null => String::new(),
        Value::Bool(true) => "yes".to_owned(),
        Value::Bool(false) => "no".to_owned(),
        Value::Array(list) => list.iter().map(text).collect::<Vec<_>>().join(", "),
        other => other.to_string(),
    }
}

/// A setting's key in plain words: `bestOf` → "best of", `late_entry` → "late entry".
pub(super) fn words(key: &str) -> String {
    let mut out = String::new();
    for character in key.chars() {
        if character.is_ascii_uppercase() {
            out.push(' ');
            out.push(character.to_ascii_lowercase());
        } else if character == '_' {
            out.push(' ');
        } else {
            out.push(character);
        }
    }
    let mut chars = out.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().collect::<String>() + chars.as_str()
    })
}

/// `1st`, `2nd`, `3rd`, `4th` … `11th`, `21st`.
pub(super) fn ordinal(place: usize) -> String {
    let suffix = match (place % 10, place % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{place}{suffix}")
}

/// A tiebreaker's short name and its meaning (the guide's words); an unknown one as itself.
pub(super) fn tiebreaker_name(name: &str) -> (&str, &'static str) {
    TIEBREAKERS
        .iter()
        .find(|(id, _, _)| *id == name)
        .map_or((name, ""), |(_, short, meaning)| (*short, *meaning))
}

/// The guide's name of each setting.
pub(super) const LABELS: [(&str, &str); 27] = [
    ("rounds", "Number of rounds"),
    ("allow_draws", "Allow draws"),
    ("bye_handling", "Bye handling"),
    ("pairing_style", "Pairing style"),
    ("prevent_repeat_matchups", "Prevent repeat matchups"),
    ("first_round_seeding", "First-round seeding"),
    (
        "late_entry_through_round",
        "Allow late entry through round (empty: no late entry)",
    ),
    ("seeding", "Seeding method"),
    ("grand_finals", "Grand finals (double elimination)"),
    ("third_place_match", "Hold third-place match"),
    ("allow_byes", "Allow byes"),
    ("allow_early_cutoff", "Allow early cutoff"),
    (
        "advance_mode",
        "Advance mode (double elimination into double elimination)",
    ),
    ("cycles", "Round robin cycles"),
    ("grouping", "Grouping"),
    ("round_minutes", "Round time (minutes)"),
    ("players_per_lobby", "Players per lobby"),
    ("placement_points", "Placement points (1st, 2nd, …)"),
    ("tie_scoring", "Tie scoring"),
    ("elimination_points", "Elimination points (empty: none)"),
    ("matches", "Number of matches (Cumulative Points)"),
    ("points_to_win", "Points to win (Threshold Win)"),
    ("required_finish", "Required finish (Threshold Win)"),
    (
        "maximum_matches",
        "Maximum matches (Threshold Win; empty: no cap)",
    ),
    ("if_no_one_wins", "If no one wins"),
    ("lobby_seeding", "Lobby seeding"),
    ("lobby_distribution", "Lobby distribution"),
];

pub(super) const SEEDING: &[(&str, &str)] = &[
    ("manual", "Manual"),
    ("random", "Random"),
    ("rating", "Rating"),
    ("prior_stage", "Prior stage results"),
];

/// The values of each setting that is a choice, as the guide names them.
pub(super) const CHOICES: [(&str, &[(&str, &str)]); 10] = [
    (
        "pairing_style",
        &[
            ("random_within_score_groups", "Random within score groups"),
            ("fold", "Fold (top half vs bottom half)"),
            ("adjacent", "Adjacent standings order"),
        ],
    ),
    (
        "bye_handling",
        &[
            ("full_points", "Award full points"),
            ("zero_points", "Award zero points"),
            ("no_byes", "No byes"),
        ],
    ),
    ("first_round_seeding", SEEDING),
    ("seeding", SEEDING),
    (
        "grand_finals",
        &[
            ("single_set", "Single set"),
            ("bracket_reset", "Bracket reset"),
        ],
    ),
    (
        "advance_mode",
        &[
            ("reset_bracket", "Reset bracket"),
            ("continue_brackets", "Continue brackets"),
        ],
    ),
    (
        "tie_scoring",
        &[("competition", "Competition"), ("split", "Split")],
    ),
    (
        "lobby_seeding",
        &[
            ("initial_seed", "Initial seed"),
            ("current_standings", "Current standings"),
            ("random", "Random"),
        ],
    ),
    ("lobby_distribution", &[("snake", "Snake")]),
    (
        "if_no_one_wins",
        &[("highest_points_wins", "Highest points wins")],
    ),
];

/// A setting's name as the guide writes it.
pub(super) fn label(key: &str) -> String {
    LABELS
        .iter()
        .find(|(name, _)| *name == key)
        .map_or_else(|| words(key), |(_, label)| (*label).to_owned())
}

/// A stage setting and its value as the guide writes them: the setting's name, and the value
/// as a choice's name, the points of each result, the tiebreakers in order, `Yes` / `No`, or
/// `None` for an unset one.
pub(super) fn setting_in_words(key: &str, value: &Value) -> (String, String) {
    let shown = match (key, value) {
        (_, Value::Null) => "None".to_owned(),
        (_, Value::Bool(on)) => (if *on { "Yes" } else { "No" }).to_owned(),
        ("tiebreakers", Value::Array(list)) => list
            .iter()
            .map(|id| {
                let id = text(id);
                TIEBREAKERS
                    .iter()
                    .find(|(known, _, _)| *known == id)
                    .and_then(|(_, _, meaning)| meaning.split(':').next())
                    .map_or(id.clone(), str::to_owned)
            })
            .collect::<Vec<_>>()
            .join(", then "),
        (_, Value::Object(parts)) => parts
            .iter()
            .map(|(part, value)| format!("{} {}", words(part).to_lowercase(), number(value)))
            .collect::<Vec<_>>()
            .join(", "),
        (_, Value::Array(list)) => list.iter().map(number).collect::<Vec<_>>().join(", "),
        (_, Value::String(chosen)) => CHOICES
            .iter()
            .find(|(choice, _)| *choice == key)
            .and_then(|(_, values)| values.iter().find(|(known, _)| known == chosen))
            .map_or_else(|| words(chosen), |(_, shown)| (*shown).to_owned()),
        (_, other) => number(other),
    };
    (label(key), shown)
}

/// An RFC 3339 time as the pages show it: `2027-01-31 12:00 UTC` (text that is not one, as
/// itself).
pub(super) fn time(rfc3339: &str) -> String {
    rfc3339.parse::<jiff::Timestamp>().map_or_else(
        |_| rfc3339.to_owned(),
        |time| time.strftime("%Y-%m-%d %H:%M UTC").to_string(),
    )
}

/// A number without needless decimals (`3`, `0.5`); anything else as text (`null` as
/// nothing).
pub(super) fn number(value: &Value) -> String {
    value
        .as_f64()
        .map_or_else(|| text(value), super::charts::number)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn settings_read_as_the_guide_writes_them() {
        let said = |key: &str, value: Value| setting_in_words(key, &value);
        assert_eq!(
            said("pairing_style", json!("fold")),
            (
                "Pairing style".into(),
                "Fold (top half vs bottom half)".into()
            )
        );
        assert_eq!(
            said(
                "points",
                json!({"win": 3.0, "draw": 1.0, "loss": 0.0, "bye": 3.0})
            ),
            ("Points".into(), "win 3, draw 1, loss 0, bye 3".into())
        );
        assert_eq!(
            said(
                "tiebreakers",
                json!(["opponent_match_win_percentage", "buchholz"])
            ),
            (
                "Tiebreakers".into(),
                "Opponent match win percentage, then Buchholz".into()
            )
        );
        assert_eq!(said("allow_draws", json!(false)).1, "No");
        assert_eq!(
            said("rounds", json!(5)),
            ("Number of rounds".into(), "5".into())
        );
        assert_eq!(said("maximum_matches", Value::Null).1, "None");
        assert_eq!(
            said("placement_points", json!([3.0, 2.0, 1.0, 0.0])).1,
            "3, 2, 1, 0"
        );
    }

    #[test]
    fn setting_keys_read_as_words() {
        assert_eq!(words("bestOf"), "Best of");
        assert_eq!(words("late_entry"), "Late entry");
        assert_eq!(words("rounds"), "Rounds");
    }

    #[test]
    fn every_tiebreaker_of_the_guide_has_a_short_name_and_a_meaning() {
        for (id, short, meaning) in TIEBREAKERS {
            assert!(!short.is_empty() && meaning.ends_with('.'), "{id}");
        }
    }
}
