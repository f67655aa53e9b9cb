//! Checks a 60-card deck against a format with 10 000 banned cards and 100 taboo lists
//! (issue 6: target under 20 µs per check).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use decks::domain::format::{
    Card, CardId, CopyLimit, Day, Deck, Format, FormatCode, Name, TabooList, TabooListCode,
    parse_moment,
};

fn card(id: &str) -> CardId {
    CardId::parse(id).expect("bench card ids are valid")
}

/// A format at every bound the issue names: 10 000 banned cards, 1 000 restricted ones, and 100
/// taboo lists of 50 banned and 50 restricted cards each, one a week from 2025-01-06.
fn big_format() -> Format {
    let mut format = Format::builder(
        FormatCode::parse("league").expect("a valid code"),
        Name::parse("League").expect("a valid name"),
    )
    .min_size(60)
    .max_size(60)
    .copies(3);
    for i in 0..10_000 {
        format = format.ban(card(&format!("set1:banned-{i:05}")));
    }
    for i in 0..1_000 {
        format = format.restrict(card(&format!("set1:restricted-{i:04}")), 1);
    }
    let first = jiff::civil::Date::new(2025, 1, 6).expect("a real date");
    for week in 0..100_i64 {
        let day = first
            .checked_add(jiff::Span::new().weeks(week))
            .expect("within jiff's range");
        let mut list = TabooList::builder(
            TabooListCode::parse(&format!("week-{week:03}")).expect("a valid code"),
            Day::try_from(day).expect("a day of 2025 or 2026"),
        );
        for i in 0..50 {
            list = list
                .ban(card(&format!("set2:taboo-{week:03}-{i:02}")))
                .restrict(card(&format!("set1:restricted-{:04}", week * 10 + i)), 2);
        }
        format = format.taboo_list(list.build().expect("a valid taboo list"));
    }
    format.build().expect("a valid format")
}

/// 60 cards: 17 playsets, 6 singles and 3 basics, a few of them banned or restricted so the
/// check also writes issues.
fn deck() -> Deck {
    let mut deck = Deck::new();
    for i in 0..17 {
        deck.add(Card::new(card(&format!("set3:common-{i:02}"))), 3);
    }
    deck.add(Card::new(card("set1:banned-04242")), 1);
    deck.add(Card::new(card("set1:restricted-0007")), 1);
    deck.add(Card::new(card("set1:restricted-0500")), 2);
    deck.add(Card::new(card("set2:taboo-050-07")), 1);
    deck.add(
        Card::new(card("set3:unique")).with_copy_limit(CopyLimit::new(1).expect("1")),
        1,
    );
    deck.add(Card::new(card("set3:rare")), 1);
    deck.add(
        Card::new(card("set0:basic")).with_copy_limit(CopyLimit::new(20).expect("20")),
        2,
    );
    assert_eq!(deck.size(), 60);
    deck
}

fn checking(c: &mut Criterion) {
    let format = big_format();
    let deck = deck();
    // Week 50's list applies on this day.
    let moment = parse_moment("2025-12-25T09:00:00-05:00").expect("a valid moment");
    assert!(!format.check(&deck, &moment).is_valid());
    c.bench_function(
        "check a 60-card deck, 10 000 banned, 100 taboo lists",
        |b| b.iter(|| black_box(&format).check(black_box(&deck), black_box(&moment))),
    );
    c.bench_function("report of that check as JSON", |b| {
        let report = format.check(&deck, &moment);
        b.iter(|| black_box(&report).to_json())
    });
}

criterion_group!(benches, checking);
criterion_main!(benches);
