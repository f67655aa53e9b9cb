//! The fold and its commands, without a store: each command's fact applied as the service
//! would.

use serde_json::{Map, Value, json};

use super::create::{CreateInput, StageInput, created};
use super::fact::{Fact, Organizer, ReportedBy};
use super::*;
use crate::domain::stages::{AdvancementRule, Condition, CutTiebreaker};

fn organizer() -> Organizer {
    Organizer {
        account: "acc_org".into(),
        username: "org".into(),
    }
}

fn settings(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

fn swiss_then_top(game: Game, swiss: Value, top: Option<u32>) -> Run {
    let mut stages = vec![StageInput {
        format: Format::Swiss,
        settings: settings(swiss),
    }];
    let mut rules = Vec::new();
    if let Some(top) = top {
        stages.push(StageInput {
            format: Format::SingleElimination,
            settings: Map::new(),
        });
        rules.push(AdvancementRule {
            from_stage: 0,
            condition: Condition::PlacementRange { from: 1, to: top },
            action: Action::Advance { to_stage: 1 },
        });
    }
    let fact = created(
        CreateInput {
            game,
            name: "Friday Swiss".into(),
            stages,
            rules,
            cut_tiebreaker: CutTiebreaker::BetterSeed,
            max_participants: None,
            check_in: false,
            seed: 7,
        },
        organizer(),
    )
    .expect("created");
    Run::new("t_1", &fact).expect("folds")
}

fn apply(fact: Result<Fact, RunError>, run: &mut Run) -> Fact {
    let fact = fact.expect("the command is accepted");
    run.apply(run.seq + 1, &fact);
    fact
}

fn register_all(run: &mut Run, names: &[&str]) -> Vec<String> {
    names
        .iter()
        .map(|name| {
            let id = run.next_registration_id();
            apply(run.register(Some(&format!("acc_{name}")), name), run);
            id
        })
        .collect()
}

/// Reports every open match of the current round, the better seed winning 2-0 (or `games`).
fn finish_round(run: &mut Run, games: impl Fn(&str, &str) -> [u32; 2]) {
    let stage = run.current_stage;
    let round = run.stages[stage].rounds.last().expect("a round").clone();
    for played in round.matches.iter().filter(|m| !m.paired.bye) {
        let [a, b] = played.paired.players.as_slice() else {
            panic!("two players")
        };
        let score = games(a, b);
        apply(run.report(&played.paired.id, ReportedBy::First, score), run);
        apply(
            run.report(&played.paired.id, ReportedBy::Second, score),
            run,
        );
    }
}

fn seed_of(id: &str) -> u32 {
    id.trim_start_matches('r').parse().expect("r<n>")
}

fn better_seed_wins(a: &str, b: &str) -> [u32; 2] {
    if seed_of(a) < seed_of(b) {
        [2, 0]
    } else {
        [0, 2]
    }
}

#[test]
fn every_stage_setting_is_filled_in_from_the_games_defaults() {
    let run = swiss_then_top(Game::Pokemon, json!({"rounds": 3}), Some(8));
    let view = create::settings_view(&run.stages[0].record);
    assert_eq!(view["rounds"], json!(3));
    assert_eq!(view["pairing_style"], json!("random_within_score_groups"));
    assert_eq!(view["bye_handling"], json!("full_points"));
    assert_eq!(view["round_minutes"], json!(50));
    assert!(
        view["tiebreakers"]
            .as_array()
            .is_some_and(|t| !t.is_empty())
    );
    let top = create::settings_view(&run.stages[1].record);
    assert_eq!(top["seeding"], json!("prior_stage"));
    assert_eq!(top["third_place_match"], json!(false));
}

#[test]
fn a_stages_defaults_given_back_as_its_settings_create_the_same_stage() {
    use crate::domain::defaults::GameDefaults;
    for game in Game::ALL {
        for format in GameDefaults::of(game).formats {
            for index in 0..2 {
                let defaults = create::stage_defaults(game, index, *format).expect("defaults");
                assert!(defaults.contains_key("round_minutes"), "{game} {format}");
                let mut stages: Vec<StageInput> = (0..index)
                    .map(|_| StageInput {
                        format: *format,
                        settings: Map::new(),
                    })
                    .collect();
                stages.push(StageInput {
                    format: *format,
                    settings: defaults.clone(),
                });
                let rules = (index > 0)
                    .then_some(AdvancementRule {
                        from_stage: 0,
                        condition: Condition::PlacementRange { from: 1, to: 4 },
                        action: Action::Advance { to_stage: 1 },
                    })
                    .into_iter()
                    .collect();
                let fact = created(
                    CreateInput {
                        game,
                        name: "Defaults".into(),
                        stages,
                        rules,
                        cut_tiebreaker: CutTiebreaker::BetterSeed,
                        max_participants: None,
                        check_in: false,
                        seed: 0,
                    },
                    organizer(),
                );
                let Ok(Fact::Created { stages, .. }) = fact else {
                    panic!("{game} {format} stage {index}: {fact:?}");
                };
                assert_eq!(
                    create::settings_view(&stages[index]),
                    defaults,
                    "{game} {format} stage {index}"
                );
            }
        }
    }
    let later = create::stage_defaults(Game::Pokemon, 1, Format::Swiss).expect("defaults");
    assert_eq!(later["first_round_seeding"], json!("prior_stage"));
}

#[test]
fn settings_the_stage_does_not_have_are_refused_naming_them() {
    let err = created(
        CreateInput {
            game: Game::Lor,
            name: "x".into(),
            stages: vec![StageInput {
                format: Format::Swiss,
                settings: settings(json!({"roundz": 3})),
            }],
            rules: vec![],
            cut_tiebreaker: CutTiebreaker::BetterSeed,
            max_participants: None,
            check_in: false,
            seed: 0,
        },
        organizer(),
    )
    .expect_err("refused");
    assert!(err.to_string().contains("roundz"), "{err}");
    assert!(err.to_string().starts_with("`stages[0].settings`"), "{err}");
}

#[test]
fn every_numeric_stage_setting_over_its_bound_is_refused_naming_it_and_the_bound() {
    let create = |game: Game, format: Format, given: Value, max_participants: Option<u32>| {
        created(
            CreateInput {
                game,
                name: "Bounds".into(),
                stages: vec![StageInput {
                    format,
                    settings: settings(given),
                }],
                rules: vec![],
                cut_tiebreaker: CutTiebreaker::BetterSeed,
                max_participants,
                check_in: false,
                seed: 0,
            },
            organizer(),
        )
    };
    let cases = [
        (
            Format::Swiss,
            json!({"rounds": 1_000_000}),
            "`rounds` must be at most 64",
        ),
        (
            Format::Swiss,
            json!({"points": {"win": 1e9, "draw": 1, "loss": 0, "bye": 3}}),
            "`points.win` must be at most 1000",
        ),
        (
            Format::Swiss,
            json!({"round_minutes": 100_000}),
            "`round_minutes` must be 1 to 1440",
        ),
        (
            Format::RoundRobin,
            json!({"points": {"win": 3, "draw": 1, "loss": 0, "bye": 5000}}),
            "`points.bye` must be at most 1000",
        ),
        (
            Format::RoundRobin,
            json!({"grouping": {"groups": 100_000}}),
            "`grouping.groups` must be at most 4096",
        ),
        (
            Format::RoundRobin,
            json!({"grouping": {"players_per_group": 100_000}}),
            "`grouping.players_per_group` must be at most 1024",
        ),
        (
            Format::RoundRobin,
            json!({"cycles": 3}),
            "`cycles` must be 1 or 2",
        ),
        (
            Format::SingleElimination,
            json!({"round_minutes": 0}),
            "`round_minutes` must be 1 to 1440",
        ),
        (
            Format::CumulativePoints,
            json!({"matches": 1_000_000}),
            "`matches` must be at most 64",
        ),
        (
            Format::ThresholdWin,
            json!({"maximum_matches": 65}),
            "`maximum_matches` must be at most 64",
        ),
        (
            Format::ThresholdWin,
            json!({"points_to_win": 1e9}),
            "`points_to_win` must be at most 100000",
        ),
        (
            Format::ThresholdWin,
            json!({"elimination_points": 1001}),
            "`elimination_points` must be at most 1000",
        ),
        (
            Format::CumulativePoints,
            json!({"players_per_lobby": 1000, "placement_points": vec![0; 1000], "required_finish": 1}),
            "`players_per_lobby` must be at most 16",
        ),
    ];
    for (format, given, message) in cases {
        let err = create(Game::Riftbound, format, given.clone(), None)
            .expect_err("refused")
            .to_string();
        assert!(err.starts_with("`stages[0].settings`"), "{given}: {err}");
        assert!(err.contains(message), "{given}: {err}");
    }
    let err = create(Game::Lor, Format::Swiss, json!({}), Some(1_000_000))
        .expect_err("refused")
        .to_string();
    assert!(
        err.contains("`maxParticipants`: must be 1 to 16384"),
        "{err}"
    );
    create(
        Game::Lor,
        Format::Swiss,
        json!({"rounds": 64}),
        Some(16_384),
    )
    .expect("at the bounds");
}

#[test]
fn the_guides_worked_example_entered_by_hand_gives_its_tables() {
    let mut run = swiss_then_top(
        Game::Lor,
        json!({
            "rounds": 3, "allow_draws": true, "bye_handling": "full_points",
            "points": {"win": 3, "draw": 1, "loss": 0, "bye": 3},
            "tiebreakers": ["head_to_head", "score_difference", "game_win_percentage",
                "points_scored", "buchholz", "median_buchholz", "sonneborn_berger",
                "opponent_match_win_percentage", "opponent_opponent_match_win_percentage",
                "opponent_game_win_percentage"]
        }),
        None,
    );
    let ids = register_all(&mut run, &["Ana", "Ben", "Cam", "Dee", "Eli"]);
    let [ana, ben, cam, dee, eli] = [0, 1, 2, 3, 4].map(|at| ids[at].clone());
    apply(run.start(), &mut run);
    let rounds = [
        vec![
            (vec![&ana, &ben], [2, 0]),
            (vec![&cam, &dee], [2, 1]),
            (vec![&eli], [0, 0]),
        ],
        vec![
            (vec![&ana, &cam], [2, 1]),
            (vec![&eli, &ben], [2, 0]),
            (vec![&dee], [0, 0]),
        ],
        vec![
            (vec![&ana, &dee], [1, 1]),
            (vec![&cam, &eli], [2, 0]),
            (vec![&ben], [0, 0]),
        ],
    ];
    for round in rounds {
        let pairings: Vec<Vec<String>> = round
            .iter()
            .map(|(players, _)| players.iter().map(|p| (*p).clone()).collect())
            .collect();
        apply(run.pair_manually(&pairings), &mut run);
        let paired = run.stages[0].rounds.last().expect("paired").clone();
        for (played, (_, games)) in paired.matches.iter().zip(&round) {
            if !played.paired.bye {
                apply(
                    run.report(&played.paired.id, ReportedBy::Organizer, *games),
                    &mut run,
                );
            }
        }
    }
    let table = serde_json::to_value(run.standings(0).expect("standings")).expect("json");
    let expected: Value = serde_json::from_str(&kit::testing::shared::read(
        "vectors/tournaments/worked-example.standings.json",
    ))
    .expect("vector");
    let names: std::collections::HashMap<String, &str> = ids
        .iter()
        .cloned()
        .zip(["Ana", "Ben", "Cam", "Dee", "Eli"])
        .collect();
    let mut named = table.clone();
    for standing in named["standings"].as_array_mut().expect("rows") {
        let id = standing["player"].as_str().expect("id").to_owned();
        standing["player"] = json!(names[&id]);
    }
    assert_eq!(named, expected);
}

#[test]
fn a_swiss_with_a_late_entrant_a_drop_and_byes_then_a_top_8_to_a_winner() {
    let mut run = swiss_then_top(
        Game::Pokemon,
        json!({"rounds": 4, "late_entry_through_round": 2}),
        Some(8),
    );
    let names: Vec<String> = (1..=12).map(|n| format!("p{n}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    register_all(&mut run, &names[..11]);
    apply(run.start(), &mut run);
    apply(run.pair(), &mut run);
    let first = &run.stages[0].rounds[0];
    assert_eq!(first.matches.iter().filter(|m| m.paired.bye).count(), 1);
    assert_eq!(
        run.pair(),
        Err(RunError::RoundNotComplete { round: 1, open: 5 })
    );
    finish_round(&mut run, better_seed_wins);
    // A late entrant joins after round 1: a late loss for it, paired from round 2.
    let late = run.next_registration_id();
    apply(run.register(Some("acc_late"), "Late"), &mut run);
    assert_eq!(run.stages[0].rounds[0].late_losses, vec![late.clone()]);
    apply(run.drop_player("r3"), &mut run);
    apply(run.pair(), &mut run);
    let second = &run.stages[0].rounds[1];
    assert!(
        second
            .matches
            .iter()
            .any(|m| m.paired.players.contains(&late))
    );
    assert!(
        !second
            .matches
            .iter()
            .any(|m| m.paired.players.contains(&"r3".to_owned()))
    );
    // Reinstating after the next pairing is refused.
    assert!(matches!(run.reinstate("r3"), Err(RunError::Roster(_))));
    loop {
        finish_round(&mut run, better_seed_wins);
        if run.stages[0].rounds.len() == 4 {
            break;
        }
        apply(run.pair(), &mut run);
    }
    assert_eq!(run.pair(), Err(RunError::StageComplete(1)));
    // Late entry is closed after round 2.
    assert!(run.register(Some("acc_later"), "Later").is_err());
    let standings = run.standings(0).expect("standings");
    let top8: Vec<String> = standings
        .standings
        .iter()
        .filter(|s| s.player.as_str() != "r3")
        .take(8)
        .map(|s| s.player.0.clone())
        .collect();
    match apply(run.advance(), &mut run) {
        Fact::Advanced {
            players, to_stage, ..
        } => {
            assert_eq!(to_stage, 1);
            assert_eq!(players, top8);
        }
        other => panic!("{other:?}"),
    }
    apply(run.pair(), &mut run);
    let quarterfinals: Vec<Vec<String>> = run.stages[1].rounds[0]
        .matches
        .iter()
        .map(|m| m.paired.players.clone())
        .collect();
    // 1v8, 4v5, 2v7, 3v6 in bracket order: each pair sums to 9 in Swiss placement.
    for pair in &quarterfinals {
        let place = |id: &String| top8.iter().position(|p| p == id).expect("in the top 8") + 1;
        assert_eq!(place(&pair[0]) + place(&pair[1]), 9, "{quarterfinals:?}");
    }
    while !matches!(run.phase, Phase::Finished) {
        if run.stages[1].rounds.last().is_some_and(|r| r.open() > 0) {
            finish_round(&mut run, better_seed_wins);
        }
        match run.pair() {
            Ok(fact) => {
                run.apply(run.seq + 1, &fact);
            }
            Err(RunError::StageComplete(2)) => {
                apply(run.advance(), &mut run);
            }
            Err(err) => panic!("{err}"),
        }
    }
    assert_eq!(run.placements.len(), 12);
    assert_eq!(run.placements[0], top8[0], "the best seed wins every match");
}

#[test]
fn both_players_confirm_a_result_and_a_contradiction_is_disputed() {
    let mut run = swiss_then_top(Game::Riftbound, json!({"rounds": 2}), None);
    register_all(&mut run, &["a", "b", "c", "d"]);
    apply(run.start(), &mut run);
    apply(run.pair(), &mut run);
    let id = run.stages[0].rounds[0].matches[0].paired.id.clone();
    apply(run.report(&id, ReportedBy::First, [2, 1]), &mut run);
    apply(run.report(&id, ReportedBy::Second, [1, 2]), &mut run);
    let state = |run: &Run| {
        run.find_match(&id)
            .and_then(|(_, _, m)| m.result.clone())
            .map(|r| r.state)
    };
    assert_eq!(state(&run), Some(result::ResultState::Disputed));
    apply(run.report(&id, ReportedBy::Organizer, [2, 1]), &mut run);
    assert_eq!(state(&run), Some(result::ResultState::Final));
    assert!(matches!(
        run.report(&id, ReportedBy::First, [0, 2]),
        Err(RunError::Result(ResultError::AlreadyDecided("final")))
    ));
}

#[test]
fn a_fixed_table_is_kept_and_the_other_matches_fill_the_rest() {
    let mut run = swiss_then_top(Game::Riftbound, json!({"rounds": 2}), None);
    let ids = register_all(&mut run, &["a", "b", "c", "d", "e", "f"]);
    apply(run.fix_table(&ids[5], Some(2)), &mut run);
    apply(run.start(), &mut run);
    apply(run.pair(), &mut run);
    let round = &run.stages[0].rounds[0];
    let at_two = round
        .matches
        .iter()
        .find(|m| m.paired.table == Some(2))
        .expect("table 2");
    assert!(at_two.paired.players.contains(&ids[5]));
    let mut tables: Vec<u32> = round
        .matches
        .iter()
        .filter_map(|m| m.paired.table)
        .collect();
    tables.sort_unstable();
    assert_eq!(tables, vec![1, 2, 3]);
}

#[test]
fn the_round_timer_counts_down_pauses_and_extends_one_match() {
    let mut run = swiss_then_top(Game::Lor, json!({"rounds": 2, "round_minutes": 30}), None);
    register_all(&mut run, &["a", "b"]);
    apply(run.start(), &mut run);
    apply(run.pair(), &mut run);
    let id = run.stages[0].rounds[0].matches[0].paired.id.clone();
    apply(run.start_timer(1_000), &mut run);
    apply(run.pause_timer(61_000), &mut run);
    apply(run.extend(&id, 5), &mut run);
    let timer = &run.stages[0].rounds[0].timer;
    assert_eq!(timer.left_ms(None, 999_999), 29 * 60_000);
    assert_eq!(timer.left_ms(Some(&id), 999_999), 34 * 60_000);
    apply(run.start_timer(100_000), &mut run);
    let timer = &run.stages[0].rounds[0].timer;
    assert_eq!(timer.left_ms(None, 160_000), 28 * 60_000);
}

#[test]
fn the_waitlist_moves_up_and_check_in_decides_who_is_paired() {
    let fact = created(
        CreateInput {
            game: Game::Pokemon,
            name: "Capped".into(),
            stages: vec![StageInput {
                format: Format::Swiss,
                settings: Map::new(),
            }],
            rules: vec![],
            cut_tiebreaker: CutTiebreaker::BetterSeed,
            max_participants: Some(3),
            check_in: true,
            seed: 1,
        },
        organizer(),
    )
    .expect("created");
    let mut run = Run::new("t", &fact).expect("folds");
    let ids = register_all(&mut run, &["a", "b", "c", "d"]);
    assert_eq!(
        run.roster.get(&ids[3]).map(|r| r.state),
        Some(RegistrationState::Waitlisted)
    );
    apply(run.unregister(&ids[0]), &mut run);
    assert_eq!(
        run.roster.get(&ids[3]).map(|r| r.state),
        Some(RegistrationState::Registered)
    );
    for id in &ids[1..3] {
        apply(run.check_in(id), &mut run);
    }
    apply(run.start(), &mut run);
    assert_eq!(run.stages[0].players, vec![ids[1].clone(), ids[2].clone()]);
}

/// A one-stage free-for-all event of `names` (guests), started.
fn free_for_all(format: Format, names: &[&str]) -> (Run, Vec<String>) {
    let fact = created(
        CreateInput {
            game: Game::Riftbound,
            name: "Pods".into(),
            stages: vec![StageInput {
                format,
                settings: Map::new(),
            }],
            rules: vec![],
            cut_tiebreaker: CutTiebreaker::BetterSeed,
            max_participants: None,
            check_in: false,
            seed: 3,
        },
        organizer(),
    )
    .expect("created");
    let mut run = Run::new("t_ffa", &fact).expect("folds");
    let ids = names
        .iter()
        .map(|name| {
            let id = run.next_registration_id();
            apply(run.register(None, name), &mut run);
            id
        })
        .collect();
    apply(run.start(), &mut run);
    (run, ids)
}

#[test]
fn the_guides_threshold_win_pod_is_won_by_ben_in_match_4() {
    let names = ["Ana", "Ben", "Cam", "Dee"];
    let (mut run, ids) = free_for_all(Format::ThresholdWin, &names);
    let by_name: std::collections::HashMap<&str, &String> =
        names.iter().copied().zip(&ids).collect();
    // The page's table: each match's finish of Ana, Ben, Cam, Dee.
    let table = [[1, 2, 3, 4], [2, 1, 3, 4], [2, 3, 1, 4], [2, 1, 3, 4]];
    for (at, finishes) in table.iter().enumerate() {
        apply(run.pair(), &mut run);
        let lobby = run.stages[0].rounds[at].matches[0].clone();
        assert_eq!(lobby.paired.players.len(), 4);
        assert_eq!(lobby.paired.label.as_deref(), Some("lobby A"));
        let finish: Vec<u32> = lobby
            .paired
            .players
            .iter()
            .map(|id| {
                let name = names
                    .iter()
                    .position(|name| by_name[name] == id)
                    .expect("a player of the pod");
                finishes[name]
            })
            .collect();
        assert!(matches!(
            run.report(&lobby.paired.id, ReportedBy::Organizer, [2, 0]),
            Err(RunError::BadSettings { .. })
        ));
        apply(run.report_lobby(&lobby.paired.id, &finish, &[]), &mut run);
    }
    assert_eq!(run.pair(), Err(RunError::StageComplete(1)));
    let (table, lobbies) = run
        .free_for_all_standings(0)
        .expect("reads")
        .expect("free-for-all");
    assert_eq!(
        lobbies[0].winner.as_ref().map(|w| w.player.0.clone()),
        Some(ids[1].clone())
    );
    assert_eq!(table[0].points.value(), 9.0);
    let (event, stage) = run.export(0).expect("exports");
    assert_eq!(event["format"], json!("threshold_win"));
    assert_eq!(stage, json!({"format": "threshold_win", "seed": 3}));
    match apply(run.advance(), &mut run) {
        Fact::Finished { placements } => assert_eq!(placements.len(), 4),
        other => panic!("{other:?}"),
    }
}

#[test]
fn cumulative_points_plays_its_matches_in_balanced_lobbies() {
    let names: Vec<String> = (1..=10).map(|n| format!("p{n}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let (mut run, _) = free_for_all(Format::CumulativePoints, &names);
    for _ in 0..3 {
        apply(run.pair(), &mut run);
        let round = run.stages[0].rounds.last().expect("a match").clone();
        let mut sizes: Vec<usize> = round
            .matches
            .iter()
            .map(|m| m.paired.players.len())
            .collect();
        sizes.sort_unstable();
        assert_eq!(sizes, [3, 3, 4], "10 players in lobbies of at most 4");
        assert_eq!(
            run.pair(),
            Err(RunError::RoundNotComplete {
                round: round.number,
                open: 3
            })
        );
        for lobby in &round.matches {
            let finish: Vec<u32> =
                (1..=u32::try_from(lobby.paired.players.len()).expect("small")).collect();
            assert!(
                run.report_lobby(&lobby.paired.id, &[1, 1], &[]).is_err(),
                "one finish per player"
            );
            apply(run.report_lobby(&lobby.paired.id, &finish, &[]), &mut run);
        }
    }
    assert_eq!(run.pair(), Err(RunError::StageComplete(1)));
    let standings = run.standings(0).expect("standings");
    assert_eq!(standings.standings.len(), 10);
}

#[test]
fn a_double_elimination_day_one_continues_its_brackets_into_day_two() {
    let stages = vec![
        StageInput {
            format: Format::DoubleElimination,
            settings: settings(json!({"allow_early_cutoff": true})),
        },
        StageInput {
            format: Format::DoubleElimination,
            settings: settings(json!({"advance_mode": "continue_brackets"})),
        },
    ];
    let fact = created(
        CreateInput {
            game: Game::Pokemon,
            name: "Two days".into(),
            stages,
            rules: vec![AdvancementRule {
                from_stage: 0,
                condition: Condition::PlacementRange { from: 1, to: 4 },
                action: Action::Advance { to_stage: 1 },
            }],
            cut_tiebreaker: CutTiebreaker::BetterSeed,
            max_participants: None,
            check_in: false,
            seed: 5,
        },
        organizer(),
    )
    .expect("created");
    let mut run = Run::new("t_days", &fact).expect("folds");
    register_all(&mut run, &["a", "b", "c", "d", "e", "f", "g", "h"]);
    apply(run.start(), &mut run);
    let mut day_one = 0;
    loop {
        match run.pair() {
            Ok(fact) => {
                run.apply(run.seq + 1, &fact);
                day_one += 1;
                finish_round(&mut run, |_, _| [2, 0]);
            }
            Err(RunError::StageComplete(1)) => break,
            Err(err) => panic!("{err}"),
        }
    }
    let Fact::Advanced { players, .. } = apply(run.advance(), &mut run) else {
        panic!("advanced")
    };
    assert_eq!(
        players.len(),
        4,
        "the early cutoff stops day one at its top 4"
    );
    // Day two carries on the same bracket: its first round is not a fresh draw of 4.
    apply(run.pair(), &mut run);
    let labels: Vec<String> = run.stages[1].rounds[0]
        .matches
        .iter()
        .filter_map(|m| m.paired.label.clone())
        .collect();
    assert!(!labels.is_empty());
    assert!(
        !labels
            .iter()
            .any(|label| label.starts_with("winners round 1 ")),
        "continued, not redrawn: {labels:?} after {day_one} rounds"
    );
    assert_eq!(labels, ["losers round 3 match 1"]);
    loop {
        finish_round(&mut run, |_, _| [2, 0]);
        match run.pair() {
            Ok(fact) => {
                run.apply(run.seq + 1, &fact);
            }
            Err(RunError::StageComplete(2)) => break,
            Err(err) => panic!("{err}"),
        }
    }
    assert!(matches!(
        apply(run.advance(), &mut run),
        Fact::Finished { .. }
    ));
    assert_eq!(run.placements.len(), 8);
}

#[test]
fn tournament_and_guest_names_keep_the_one_text_rule() {
    let named = |name: &str| {
        created(
            CreateInput {
                game: Game::Lor,
                name: name.into(),
                stages: vec![StageInput {
                    format: Format::Swiss,
                    settings: Map::new(),
                }],
                rules: vec![],
                cut_tiebreaker: CutTiebreaker::BetterSeed,
                max_participants: None,
                check_in: false,
                seed: 0,
            },
            organizer(),
        )
    };
    assert!(named("  Friday Swiss  ").is_ok(), "trimmed first");
    let run = swiss_then_top(Game::Lor, json!({}), None);
    for bad in [
        "a\0b",
        "a\u{7}b",
        "a\nb",
        "admin\u{202E}nimda",
        "a\u{2066}b",
    ] {
        let err = named(bad).expect_err("a tournament name breaking the rule");
        assert!(
            matches!(&err, RunError::BadSettings { field, .. } if field == "name"),
            "{bad:?}: {err}"
        );
        let err = run
            .register(None, bad)
            .expect_err("a guest name breaking the rule");
        assert!(
            matches!(&err, RunError::BadSettings { field, .. } if field == "displayName"),
            "{bad:?}: {err}"
        );
    }
}
