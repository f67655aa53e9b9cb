//! Property tests: no query string panics the parser or the search; printing a parsed query
//! gives back the same tree; `-(a)` and `a` partition the catalog; `a or b` is the union.

use super::support;

use std::collections::HashSet;

use catalog::domain::Game;
use proptest::prelude::*;
use search::domain::parse;
use support::index;

/// Pieces that generated queries are made of: fields, values, operators, syntax.
fn atom() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("t:unit".to_owned()),
        Just("t:spell".to_owned()),
        Just("cost<=2".to_owned()),
        Just("cost>=5".to_owned()),
        Just("region:demacia".to_owned()),
        Just("region:shadow".to_owned()),
        Just("kw:elusive".to_owned()),
        Just("r>=epic".to_owned()),
        Just("is:champion".to_owned()),
        Just("is:collectible".to_owned()),
        Just("e:set2".to_owned()),
        Just("jinx".to_owned()),
        Just("draw".to_owned()),
        Just(r#"o:"draw 1""#.to_owned()),
        Just("n:/^the /".to_owned()),
        Just("n:!vi".to_owned()),
        Just("foo:bar".to_owned()),
        Just("is:nothing".to_owned()),
    ]
}

fn query() -> impl Strategy<Value = String> {
    let leaf = atom();
    leaf.prop_recursive(3, 12, 3, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("{a} {b}")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("{a} or {b}")),
            inner.clone().prop_map(|a| format!("-({a})")),
            inner.prop_map(|a| format!("({a})")),
        ]
    })
}

fn ids(query: &str) -> HashSet<String> {
    let index = index(Game::Lor);
    let results = index
        .search(query, 1_000, "")
        .expect("generated queries parse");
    let mut all: HashSet<String> = results.cards.iter().map(|h| h.card.id.clone()).collect();
    let mut token = results.next_page_token;
    while let Some(next) = token {
        let page = index.search(query, 1_000, &next).expect("parses");
        all.extend(page.cards.iter().map(|h| h.card.id.clone()));
        token = page.next_page_token;
    }
    all
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn no_string_panics_the_parser(input in ".{0,200}") {
        let _ = parse(&input);
    }

    #[test]
    fn any_query_that_parses_prints_back_to_the_same_tree(input in r#"[a-z:=<>!/"()\- *{}RC0-9\\]{0,60}"#) {
        if let Ok(parsed) = parse(&input) {
            let printed = parsed.to_string();
            let reparsed = parse(&printed);
            prop_assert!(reparsed.is_ok(), "{} → {} fails: {:?}", input, printed, reparsed);
            prop_assert_eq!(reparsed.expect("checked").without_positions(), parsed.without_positions());
        }
    }

    #[test]
    fn no_syntax_soup_panics_the_search(input in r#"[a-z:=<>!/"()\- *{}RCW0-9]{0,80}"#) {
        let _ = index(Game::Lor).search(&input, 10, "");
        let _ = index(Game::Riftbound).explain(&input);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn printing_a_query_gives_back_the_same_tree(q in query()) {
        let parsed = parse(&q).expect("generated queries parse");
        let printed = parsed.to_string();
        let reparsed = parse(&printed).expect("printed queries parse");
        prop_assert_eq!(reparsed.without_positions(), parsed.without_positions());
    }

    #[test]
    fn a_query_and_its_negation_partition_the_catalog(q in query()) {
        let matching = ids(&q);
        let rest = ids(&format!("-({q})"));
        prop_assert!(matching.is_disjoint(&rest));
        prop_assert_eq!(matching.len() + rest.len(), index(Game::Lor).cards().len());
    }

    #[test]
    fn or_is_the_union(a in query(), b in query()) {
        let union: HashSet<String> = ids(&a).union(&ids(&b)).cloned().collect();
        prop_assert_eq!(ids(&format!("({a}) or ({b})")), union);
    }
}
