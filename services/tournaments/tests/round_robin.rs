//! A round-robin stage through the public API: paired round by round from an event file, as
//! the offline `pair` tool does, played out, and ranked per group.

use std::collections::HashSet;

use tournaments::domain::defaults::{Game, GameDefaults};
use tournaments::domain::round_robin::{
    Grouping, RoundRobinError, group_standings, pair_next_round, schedule, scoring,
};
use tournaments::domain::{Entry, Event, Player, PlayerId};
use tournaments::offline::read_event;

fn field(count: usize) -> Vec<Player> {
    (1..=count)
        .map(|seed| Player {
            id: PlayerId(format!("p{seed:02}")),
            seed: u32::try_from(seed).expect("small"),
            rating: None,
            dropped: false,
        })
        .collect()
}

#[test]
fn pairs_round_by_round_what_the_schedule_announced() {
    let stage = GameDefaults::of(Game::Riftbound).round_robin;
    let grouping = Some(Grouping::PlayersPerGroup(4));
    let players = field(11);
    let announced = schedule(&players, &stage, grouping).expect("a schedule");
    let mut event = Event {
        settings: scoring(&stage),
        players,
        rounds: Vec::new(),
    };
    for expected in &announced {
        // Through the event file, as the offline tool reads it.
        let json = serde_json::to_string(&event).expect("serializable");
        let read = read_event(&json).expect("a valid event");
        let round = pair_next_round(&read, &stage, grouping).expect("a round");
        assert_eq!(&round, expected);
        // The lower seed wins every match 2-0.
        let mut entries = round.entries();
        for entry in &mut entries.0 {
            if let Entry::Match { players, games } = entry {
                *games = if players[0] < players[1] {
                    [2, 0]
                } else {
                    [0, 2]
                };
            }
        }
        event.rounds.push(entries);
    }
    assert_eq!(
        pair_next_round(&event, &stage, grouping),
        Err(RoundRobinError::StageComplete(announced.len()))
    );
    // Groups of 4, 4 and 3, dealt in snake order; each is won by its best seed, undefeated.
    let groups = group_standings(&event, grouping).expect("standings");
    let leaders: Vec<(&str, f64)> = groups
        .iter()
        .map(|group| {
            let first = &group.standings.standings[0];
            (first.player.as_str(), first.points.value())
        })
        .collect();
    assert_eq!(leaders, [("p01", 9.0), ("p02", 9.0), ("p03", 6.0)]);
    let everyone: HashSet<&PlayerId> = groups
        .iter()
        .flat_map(|group| group.standings.standings.iter().map(|s| &s.player))
        .collect();
    assert_eq!(everyone.len(), 11);
}
