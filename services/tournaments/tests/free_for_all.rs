//! The page's free-for-all section through the public API, from the JSON of a free-for-all
//! event: the threshold example match by match, and lobbies for the next match.

use tournaments::domain::free_for_all::{
    FreeForAllEvent, WinDecidedBy, next_lobbies, standings, threshold_winners,
};
use tournaments::offline::read_free_for_all_event;

/// The page's four-player pod with the Riftbound defaults, after the first `played` matches.
fn pod_after(played: usize) -> FreeForAllEvent {
    let matches = [
        r#"[{"lobby": ["Ana", "Ben", "Cam", "Dee"], "finish": [1, 2, 3, 4]}]"#,
        r#"[{"lobby": ["Ana", "Ben", "Cam", "Dee"], "finish": [2, 1, 3, 4]}]"#,
        r#"[{"lobby": ["Ana", "Ben", "Cam", "Dee"], "finish": [2, 3, 1, 4]}]"#,
        r#"[{"lobby": ["Ana", "Ben", "Cam", "Dee"], "finish": [2, 1, 3, 4]}]"#,
    ];
    let json = format!(
        r#"{{"format": "threshold_win",
            "settings": {{"players_per_lobby": 4, "placement_points": [3, 2, 1, 0],
                "tie_scoring": "competition", "matches": 3, "points_to_win": 6,
                "required_finish": 1, "if_no_one_wins": "highest_points_wins",
                "lobby_seeding": "initial_seed", "lobby_distribution": "snake",
                "reshuffle_lobbies": false}},
            "players": [{{"id": "Ana", "seed": 1}}, {{"id": "Ben", "seed": 2}},
                {{"id": "Cam", "seed": 3}}, {{"id": "Dee", "seed": 4}}],
            "matches": [{}]}}"#,
        matches[..played].join(", ")
    );
    read_free_for_all_event(&json).expect("a valid free-for-all event")
}

fn points(event: &FreeForAllEvent, player: &str) -> f64 {
    standings(event)
        .expect("valid")
        .iter()
        .find(|standing| standing.player.as_str() == player)
        .map(|standing| standing.points.value())
        .expect("a listed player")
}

#[test]
fn there_is_no_winner_after_matches_one_to_three() {
    for played in 1..=3 {
        let event = pod_after(played);
        let lobbies = threshold_winners(&event).expect("valid");
        assert_eq!(lobbies.len(), 1);
        assert_eq!(lobbies[0].winner, None, "after match {played}");
        assert_eq!(lobbies[0].matches_played, played);
    }
    // Ana reaches 7 points in match 3, but finished 2nd in it.
    assert_eq!(points(&pod_after(3), "Ana"), 7.0);
    assert_eq!(
        next_lobbies(&pod_after(3), 0)
            .expect("a fourth match")
            .lobbies,
        [vec!["Ana".into(), "Ben".into(), "Cam".into(), "Dee".into()]]
    );
}

#[test]
fn ben_wins_match_four_with_nine_points_while_ana_also_has_nine() {
    let event = pod_after(4);
    let winner = threshold_winners(&event).expect("valid")[0]
        .winner
        .clone()
        .expect("a winner");
    assert_eq!(winner.player.as_str(), "Ben");
    assert_eq!(winner.match_number, 4);
    assert_eq!(winner.points.value(), 9.0);
    assert_eq!(winner.decided_by, WinDecidedBy::Threshold);
    assert_eq!(points(&event, "Ana"), 9.0);
    assert!(next_lobbies(&event, 0).is_err(), "the stage is over");
}

#[test]
fn writes_the_winner_as_json() {
    let lobbies = threshold_winners(&pod_after(4)).expect("valid");
    let json = serde_json::to_value(&lobbies).expect("serializable");
    assert_eq!(
        json[0]["winner"],
        serde_json::json!({"player": "Ben", "match_number": 4, "points": 9.0,
            "decided_by": "threshold"})
    );
}

#[test]
fn refuses_a_result_with_a_dense_tie_naming_the_match() {
    let json = r#"{"format": "cumulative_points",
        "settings": {"players_per_lobby": 4, "placement_points": [3, 2, 1, 0],
            "tie_scoring": "split", "matches": 3, "points_to_win": 6,
            "required_finish": 1, "if_no_one_wins": "highest_points_wins",
            "lobby_seeding": "initial_seed", "lobby_distribution": "snake",
            "reshuffle_lobbies": false},
        "players": [{"id": "Ana", "seed": 1}, {"id": "Ben", "seed": 2},
            {"id": "Cam", "seed": 3}, {"id": "Dee", "seed": 4}],
        "matches": [[{"lobby": ["Ana", "Ben", "Cam", "Dee"], "finish": [1, 2, 2, 3]}]]}"#;
    let err = read_free_for_all_event(json).unwrap_err().to_string();
    assert!(err.starts_with("match 1: `Dee` cannot finish 3"), "{err}");
}
