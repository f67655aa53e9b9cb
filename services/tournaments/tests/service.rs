//! The tournaments service over PostgreSQL and SQLite (each test its own fresh database): a
//! round played through it, the log as the only truth (a second service over the same
//! database, as after a restart, folds the same state), concurrent reports and pairings, and
//! the live events.

use std::sync::Arc;

use kit::auth::{AccountCaller, Caller, Scope, Scopes, TokenKind};
use kit::testing::TestDatabase;
use proto::game::Game;
use serde_json::{Map, json};
use tournaments::domain::defaults::Format;
use tournaments::domain::result::ResultState;
use tournaments::domain::stages::CutTiebreaker;
use tournaments::run::create::{CreateInput, StageInput};
use tournaments::run::{Phase, Run};
use tournaments::service::{RegistrationChange, Reported, Tournaments};
use tournaments::store::TournamentStore;

macro_rules! on_both_databases {
    ($($name:ident),* $(,)?) => {
        mod postgres {
            $(#[tokio::test(flavor = "multi_thread", worker_threads = 4)] async fn $name() { super::$name(kit::testing::TestDatabase::postgres().await).await; })*
        }
        mod sqlite {
            $(#[tokio::test(flavor = "multi_thread", worker_threads = 4)] async fn $name() { super::$name(kit::testing::TestDatabase::sqlite()).await; })*
        }
    };
}

on_both_databases!(
    a_round_is_played_and_a_second_service_folds_the_same_state,
    both_players_and_the_organizer_reporting_at_once_leave_one_consistent_result,
    two_organizers_pairing_at_once_create_exactly_one_round,
    two_services_on_one_database_append_each_fact_once,
    a_correction_after_the_next_round_was_paired_recomputes_the_standings,
    the_ownership_rule_decides_who_runs_the_event_and_who_reports,
    the_live_events_come_once_in_order_and_resume_after_an_id,
    a_watcher_resuming_from_before_the_feed_gets_every_event_from_the_log,
    a_submission_gets_one_verdict_and_the_sweep_queues_a_stuck_one_once,
);

fn account(id: &str) -> Caller {
    Caller::Account(AccountCaller {
        id: format!("acc_{id}"),
        username: id.to_owned(),
        kind: TokenKind::Session,
        scopes: Scopes::ALL,
        expires: None,
    })
}

fn read_only(id: &str) -> Caller {
    Caller::Account(AccountCaller {
        id: format!("acc_{id}"),
        username: id.to_owned(),
        kind: TokenKind::Api,
        scopes: Scopes::NONE.with(Scope::Read),
        expires: None,
    })
}

async fn service(database: &TestDatabase) -> Tournaments {
    let db = database.connect().await;
    db.migrate(&[&tournaments::store::MIGRATOR])
        .await
        .expect("migrations apply");
    Tournaments::new(TournamentStore::new(db), None, None)
}

fn swiss(rounds: u32) -> CreateInput {
    let mut settings = Map::new();
    settings.insert("rounds".into(), json!(rounds));
    CreateInput {
        game: Game::Pokemon,
        name: "League night".into(),
        stages: vec![StageInput {
            format: Format::Swiss,
            settings,
        }],
        rules: vec![],
        cut_tiebreaker: CutTiebreaker::BetterSeed,
        max_participants: None,
        check_in: false,
        seed: 0,
    }
}

/// A started Swiss event of `players` accounts (`p1`, `p2`, …) organized by `org`.
async fn started(service: &Tournaments, players: usize, rounds: u32) -> Arc<Run> {
    let organizer = account("org");
    let run = service
        .create(&organizer, swiss(rounds), Some(11))
        .await
        .expect("created");
    for n in 1..=players {
        service
            .register(&account(&format!("p{n}")), &run.id, None)
            .await
            .expect("registered");
    }
    service.start(&organizer, &run.id).await.expect("started")
}

/// The account that plays registration `id`.
fn player_of(run: &Run, id: &str) -> Caller {
    let registration = run.roster.get(id).expect("registered");
    account(
        registration
            .account
            .as_deref()
            .expect("an account")
            .trim_start_matches("acc_"),
    )
}

async fn a_round_is_played_and_a_second_service_folds_the_same_state(database: TestDatabase) {
    let first = service(&database).await;
    let run = started(&first, 6, 3).await;
    let organizer = account("org");
    let run = first.pair(&organizer, &run.id, &[]).await.expect("paired");
    let round = run.stages[0].rounds[0].clone();
    for played in &round.matches {
        let [a, b] = played.paired.players.as_slice() else {
            panic!("three matches of two")
        };
        first
            .report(
                &player_of(&run, a),
                &run.id,
                &played.paired.id,
                &Reported::Games([2, 1]),
            )
            .await
            .expect("reported");
        first
            .report(
                &player_of(&run, b),
                &run.id,
                &played.paired.id,
                &Reported::Games([2, 1]),
            )
            .await
            .expect("confirmed");
    }
    let before = first.get(&organizer, &run.id).await.expect("read");
    assert!(
        before.stages[0].rounds[0]
            .matches
            .iter()
            .all(|m| m.result.as_ref().map(|r| r.state) == Some(ResultState::Confirmed))
    );
    // A new process over the same database (a restart) folds the log to the same state.
    let second = service(&database).await;
    let after = second.get(&organizer, &run.id).await.expect("read again");
    assert_eq!(*after, *before);
    assert_eq!(
        second
            .pair(&organizer, &run.id, &[])
            .await
            .expect("paired")
            .stages[0]
            .rounds
            .len(),
        2
    );
}

async fn both_players_and_the_organizer_reporting_at_once_leave_one_consistent_result(
    database: TestDatabase,
) {
    let service = service(&database).await;
    let run = started(&service, 2, 1).await;
    let organizer = account("org");
    let run = service
        .pair(&organizer, &run.id, &[])
        .await
        .expect("paired");
    let played = run.stages[0].rounds[0].matches[0].clone();
    let (a, b) = (
        player_of(&run, &played.paired.players[0]),
        player_of(&run, &played.paired.players[1]),
    );
    let id = run.id.clone();
    let match_id = played.paired.id.clone();
    let tasks = [(a, [2, 0]), (b, [2, 0]), (organizer.clone(), [2, 1])].map(|(caller, games)| {
        let service = service.clone();
        let id = id.clone();
        let match_id = match_id.clone();
        tokio::spawn(async move {
            service
                .report(&caller, &id, &match_id, &Reported::Games(games))
                .await
        })
    });
    let mut answers = Vec::new();
    for task in tasks {
        answers.push(task.await.expect("joined"));
    }
    let run = service.get(&organizer, &id).await.expect("read");
    let result = run.stages[0].rounds[0].matches[0]
        .result
        .clone()
        .expect("a result");
    // Every order ends decided: the organizer's entry is final, or it came first and a player's
    // report after it was refused.
    assert!(result.is_decided(), "{result:?}");
    let refused = answers.iter().filter(|a| a.is_err()).count();
    match result.state {
        ResultState::Final if result.games == [2, 1] => {}
        ResultState::Final => panic!("an organizer's final result is the organizer's: {result:?}"),
        other => panic!("{other:?} after the organizer entered a result"),
    }
    assert!(refused <= 2);
    // The log holds exactly the accepted reports after the pairing.
    let facts = second_fold_len(&database, &id).await;
    assert_eq!(facts, run.seq);
}

async fn second_fold_len(database: &TestDatabase, id: &str) -> u64 {
    service(database)
        .await
        .get(&account("org"), id)
        .await
        .expect("read")
        .seq
}

async fn two_organizers_pairing_at_once_create_exactly_one_round(database: TestDatabase) {
    let service = service(&database).await;
    let run = started(&service, 8, 3).await;
    let organizer = account("org");
    // A co-organizer, added through the log (no accounts service here).
    let id = run.id.clone();
    let tasks: Vec<_> = (0..4)
        .map(|_| {
            let service = service.clone();
            let id = id.clone();
            let organizer = organizer.clone();
            tokio::spawn(async move { service.pair(&organizer, &id, &[]).await })
        })
        .collect();
    let mut paired = 0;
    for task in tasks {
        match task.await.expect("joined") {
            Ok(_) => paired += 1,
            Err(err) => assert!(err.to_string().contains("round 1 is not complete"), "{err}"),
        }
    }
    assert_eq!(paired, 1);
    let run = service.get(&organizer, &id).await.expect("read");
    assert_eq!(run.stages[0].rounds.len(), 1);
}

async fn two_services_on_one_database_append_each_fact_once(database: TestDatabase) {
    // Two replicas: each has its own folded copy; the log's key makes them agree.
    let one = service(&database).await;
    let two = service(&database).await;
    let organizer = account("org");
    let run = one
        .create(&organizer, swiss(3), Some(3))
        .await
        .expect("created");
    let tasks: Vec<_> = (1..=12)
        .map(|n| {
            let service = if n % 2 == 0 { one.clone() } else { two.clone() };
            let id = run.id.clone();
            tokio::spawn(async move {
                service
                    .register(&account(&format!("p{n}")), &id, None)
                    .await
            })
        })
        .collect();
    for task in tasks {
        task.await.expect("joined").expect("registered");
    }
    let seen_by_one = one.get(&organizer, &run.id).await.expect("read");
    let seen_by_two = two.get(&organizer, &run.id).await.expect("read");
    assert_eq!(seen_by_one.roster.registrations.len(), 12);
    assert_eq!(*seen_by_one, *seen_by_two);
    let mut ids: Vec<&str> = seen_by_one
        .roster
        .registrations
        .iter()
        .map(|r| r.id.as_str())
        .collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 12, "every registration got its own id");
}

async fn a_correction_after_the_next_round_was_paired_recomputes_the_standings(
    database: TestDatabase,
) {
    let service = service(&database).await;
    let run = started(&service, 4, 3).await;
    let organizer = account("org");
    let id = run.id.clone();
    let run = service.pair(&organizer, &id, &[]).await.expect("paired");
    let first_round = run.stages[0].rounds[0].clone();
    for played in &first_round.matches {
        service
            .report(&organizer, &id, &played.paired.id, &Reported::Games([2, 0]))
            .await
            .expect("entered");
    }
    service.pair(&organizer, &id, &[]).await.expect("round 2");
    let winner = first_round.matches[0].paired.players[0].clone();
    let points = |run: &Run, player: &str| {
        run.standings(0)
            .expect("standings")
            .standings
            .into_iter()
            .find(|s| s.player.as_str() == player)
            .expect("ranked")
            .points
            .value()
    };
    let before = service.get(&organizer, &id).await.expect("read");
    assert_eq!(points(&before, &winner), 3.0);
    let after = service
        .report(
            &organizer,
            &id,
            &first_round.matches[0].paired.id,
            &Reported::Games([0, 2]),
        )
        .await
        .expect("corrected");
    assert_eq!(points(&after, &winner), 0.0);
    let corrected = &after.stages[0].rounds[0].matches[0];
    assert_eq!(corrected.corrections, 1);
    assert_eq!(after.stages[0].rounds.len(), 2, "the paired round stays");
}

async fn the_ownership_rule_decides_who_runs_the_event_and_who_reports(database: TestDatabase) {
    let service = service(&database).await;
    let run = started(&service, 4, 2).await;
    let id = run.id.clone();
    let denied = |result: Result<Arc<Run>, tournaments::Error>| {
        let status = tonic::Status::from(result.expect_err("refused"));
        status.code()
    };
    use tonic::Code;
    // Only organizers pair: another account 403, anonymous 401, a read-only token 403.
    assert_eq!(
        denied(service.pair(&account("p1"), &id, &[]).await),
        Code::PermissionDenied
    );
    assert_eq!(
        denied(service.pair(&Caller::Anonymous, &id, &[]).await),
        Code::Unauthenticated
    );
    assert_eq!(
        denied(service.pair(&read_only("org"), &id, &[]).await),
        Code::PermissionDenied
    );
    let run = service
        .pair(&account("org"), &id, &[])
        .await
        .expect("the owner pairs");
    // A player reports only their own match.
    let played = &run.stages[0].rounds[0].matches[0];
    let outsider = run.stages[0].rounds[0].matches[1].paired.players[0].clone();
    assert_eq!(
        denied(
            service
                .report(
                    &player_of(&run, &outsider),
                    &id,
                    &played.paired.id,
                    &Reported::Games([2, 0])
                )
                .await
        ),
        Code::PermissionDenied
    );
    // A player drops themself, not someone else.
    let mine = played.paired.players[0].clone();
    assert_eq!(
        denied(
            service
                .change_registration(
                    &player_of(&run, &outsider),
                    &id,
                    &mine,
                    RegistrationChange::Drop
                )
                .await
        ),
        Code::PermissionDenied
    );
    // Anyone reads; an unknown tournament is not found.
    service.get(&Caller::Anonymous, &id).await.expect("public");
    assert_eq!(
        denied(service.get(&Caller::Anonymous, "t_nope").await),
        Code::NotFound
    );
    assert_eq!(run.phase, Phase::Running);
}

async fn the_live_events_come_once_in_order_and_resume_after_an_id(database: TestDatabase) {
    let service = service(&database).await;
    let run = started(&service, 4, 2).await;
    let organizer = account("org");
    let id = run.id.clone();
    let from = run.seq;
    let (sink, mut events) = tokio::sync::mpsc::channel(64);
    service
        .watch(&Caller::Anonymous, &id, from, sink)
        .await
        .expect("watching");
    let run = service.pair(&organizer, &id, &[]).await.expect("paired");
    for played in &run.stages[0].rounds[0].matches {
        let a = player_of(&run, &played.paired.players[0]);
        let b = player_of(&run, &played.paired.players[1]);
        service
            .report(&a, &id, &played.paired.id, &Reported::Games([2, 0]))
            .await
            .expect("reported");
        service
            .report(&b, &id, &played.paired.id, &Reported::Games([2, 0]))
            .await
            .expect("confirmed");
    }
    let mut seen = Vec::new();
    while seen.len() < 7 {
        let event = tokio::time::timeout(std::time::Duration::from_secs(10), events.recv())
            .await
            .expect("an event in time")
            .expect("open")
            .expect("no error");
        seen.push((event.seq, event.kind));
    }
    let kinds: Vec<&str> = seen.iter().map(|(_, kind)| *kind).collect();
    assert_eq!(
        kinds,
        [
            "pairings_published",
            "result_reported",
            "result_confirmed",
            "standings_changed",
            "result_reported",
            "result_confirmed",
            "standings_changed",
        ]
    );
    let seqs: Vec<u64> = seen.iter().map(|(seq, _)| *seq).collect();
    assert_eq!(
        seqs,
        [
            from + 1,
            from + 2,
            from + 3,
            from + 3,
            from + 4,
            from + 5,
            from + 5
        ]
    );
    // Resuming after an id gives what came after it, and nothing before.
    let (sink, mut resumed) = tokio::sync::mpsc::channel(64);
    service
        .watch(&Caller::Anonymous, &id, from + 3, sink)
        .await
        .expect("resumed");
    let first = resumed.recv().await.expect("open").expect("no error");
    assert_eq!((first.seq, first.kind), (from + 4, "result_reported"));
}

/// Every event of a watch from `after` until `count` arrived.
async fn watched(
    service: &Tournaments,
    id: &str,
    after: u64,
    count: usize,
) -> Vec<(u64, &'static str)> {
    let (sink, mut events) = tokio::sync::mpsc::channel(256);
    service
        .watch(&Caller::Anonymous, id, after, sink)
        .await
        .expect("watching");
    let mut seen = Vec::new();
    while seen.len() < count {
        let event = tokio::time::timeout(std::time::Duration::from_secs(10), events.recv())
            .await
            .expect("an event in time")
            .expect("open")
            .expect("no error");
        seen.push((event.seq, event.kind));
    }
    seen
}

async fn a_watcher_resuming_from_before_the_feed_gets_every_event_from_the_log(
    database: TestDatabase,
) {
    // One service keeps 3 events per tournament, the other the default.
    let short = service(&database).await.with_feed_events(3);
    let long = service(&database).await;
    let run = started(&short, 4, 2).await;
    let organizer = account("org");
    let run = short.pair(&organizer, &run.id, &[]).await.expect("paired");
    for played in &run.stages[0].rounds[0].matches {
        short
            .report(
                &organizer,
                &run.id,
                &played.paired.id,
                &Reported::Games([2, 1]),
            )
            .await
            .expect("entered");
    }
    // created, 4 registered, started, paired, 2 × (result, standings changed).
    let all = 1 + 4 + 1 + 1 + 4;
    let from_short = watched(&short, &run.id, 0, all).await;
    let from_long = watched(&long, &run.id, 0, all).await;
    assert_eq!(from_short, from_long);
    let seqs: Vec<u64> = from_short.iter().map(|(seq, _)| *seq).collect();
    let mut sorted = seqs.clone();
    sorted.sort_unstable();
    assert_eq!(seqs, sorted, "in order");
    assert_eq!(
        seqs.last(),
        Some(&(run.seq + 2)),
        "the two results after the pairing"
    );
    assert_eq!(from_short[0].1, "tournament_created");
}

async fn a_submission_gets_one_verdict_and_the_sweep_queues_a_stuck_one_once(
    database: TestDatabase,
) {
    use kit::queue::{Queue, QueueSettings};
    use tournaments::jobs::QUEUE;
    use tournaments::store::Submission;
    use tournaments::worker::sweep;

    let service = service(&database).await;
    let run = started(&service, 2, 1).await;
    let submission = |id: &str| Submission {
        id: id.to_owned(),
        tournament: run.id.clone(),
        registration: "r1".into(),
        decks: vec!["CEAQCAICBEAREAICAUDAQDAQCEJBKFY2DMOCIJRKFQYTEAIBAEBDI".into()],
        state: "pending".into(),
        issues: Vec::new(),
        failure: None,
        superseded: false,
        submit_time_ms: 1_000,
        check_time_ms: None,
    };
    // Submitted while the queue was unreachable: no job.
    let store = service.store();
    store
        .insert_submission(&submission("sub_first"))
        .await
        .expect("saved");
    let queue = Queue::sql(database.connect().await, QueueSettings::default());
    let zero = std::time::Duration::ZERO;
    assert_eq!(sweep(&service, &queue, zero).await.expect("swept"), 1);
    assert_eq!(queue.depth(QUEUE).await.expect("depth").ready, 1);
    // Queued again while its job waits: still one job.
    assert_eq!(sweep(&service, &queue, zero).await.expect("swept"), 1);
    assert_eq!(queue.depth(QUEUE).await.expect("depth").ready, 1);
    // A resubmission supersedes it: only the latest counts, and the sweep skips the old one.
    store
        .insert_submission(&submission("sub_second"))
        .await
        .expect("saved");
    let latest = store
        .latest_submissions(&run.id, Some("r1"))
        .await
        .expect("read");
    assert_eq!(latest.len(), 1);
    assert_eq!(latest[0].id, "sub_second");
    assert!(
        store
            .submission("sub_first")
            .await
            .expect("read")
            .expect("kept")
            .superseded
    );
    // One verdict, however many times a job runs.
    let now = std::time::SystemTime::now();
    let issues = vec!["Deck 1: Deny is banned.".to_owned()];
    assert!(
        store
            .set_verdict("sub_second", "rejected", &issues, None, now)
            .await
            .expect("written")
    );
    assert!(
        !store
            .set_verdict("sub_second", "accepted", &[], None, now)
            .await
            .expect("not written")
    );
    let checked = store
        .submission("sub_second")
        .await
        .expect("read")
        .expect("kept");
    assert_eq!(checked.state, "rejected");
    assert_eq!(checked.issues, issues);
    assert!(checked.check_time_ms.is_some());
    // Nothing left pending (the superseded one does not count).
    assert_eq!(sweep(&service, &queue, zero).await.expect("swept"), 0);
}
