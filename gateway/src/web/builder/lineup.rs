//! The builder in Multi deck: every pile is a deck of a lineup (`?lineup=<code>|<code>|…`, each
//! deck as the game's share code, an empty one empty), checked as `decks:validate` checks a
//! lineup — each deck by the deck rule, every card by the card ruleset, and the lineup by the
//! deck set rule — and saved, signed in, as a deck set. Like the single deck, every change is a
//! GET answered with the lineup's new address.

// `ApiError` is what the services' failures arrive as; it lives for one response.
#![allow(clippy::result_large_err)]

use axum::response::{IntoResponse, Redirect};
use maud::html;
use proto::decks::v1 as decks_pb;
use proto::game::Game;
use proto::scripts::v1 as scripts_pb;

use super::super::answer::{PageResult, failed};
use super::super::deck_rules::{self, Rules};
use super::super::layout::{page, urlencode};
use super::super::session::Viewer;
use super::{BuilderParams, by_id, changed, default_rules, find, finder, open, share_code};
use crate::auth::Calls;

/// Splits the decks of a lineup's address.
const SEPARATOR: char = '|';

/// The most decks a lineup holds here.
const MAX_DECKS: usize = 10;

/// The game's default deck set rule.
pub fn default_deckset(game: Game) -> &'static str {
    match game {
        Game::Lor => "lor-riot-lock",
        Game::Pokemon => "pokemon-any-lineup",
        Game::Riftbound => "riftbound-any-lineup",
    }
}

/// A lineup's address, with the search and the rules.
pub fn href(slug: &str, codes: &[String], q: &str, rules: &Rules) -> String {
    let mut query = url::form_urlencoded::Serializer::new(String::new());
    query.append_pair("lineup", &codes.join(&SEPARATOR.to_string()));
    if !q.is_empty() {
        query.append_pair("q", q);
    }
    for (key, value) in rules.pairs() {
        query.append_pair(&key, &value);
    }
    format!("/{slug}/deck-builder?{}", query.finish())
}

/// The lineup's decks' codes, as the address gives them (at least one).
fn codes(lineup: &str) -> Vec<String> {
    lineup
        .split(SEPARATOR)
        .take(MAX_DECKS)
        .map(str::to_owned)
        .collect()
}

/// The deck at `index` a parameter names (`pile=2`), if the lineup has it.
fn index(text: &str, count: usize) -> Option<usize> {
    text.parse::<usize>().ok().filter(|at| *at < count)
}

/// The Multi deck builder: a change answers with the lineup's new address, else the page.
pub async fn answer(
    viewer: &Viewer,
    calls: &Calls,
    game: Game,
    slug: &str,
    name: &str,
    params: &BuilderParams,
    lineup: &str,
) -> PageResult {
    let rules = params.rules();
    let mut codes = codes(lineup);
    let again = |codes: &[String]| -> PageResult {
        Ok(Redirect::to(&href(slug, codes, &params.q, &rules)).into_response())
    };
    if !params.import.trim().is_empty() {
        let deck = open(calls, game, &params.import).await.map_err(|_| {
            failed(crate::ApiError::invalid_argument(
                "No format this game reads could read that text.",
            ))
        })?;
        let code = share_code(&deck);
        if let Some(at) = codes.iter().position(String::is_empty) {
            codes[at] = code;
        } else if codes.len() < MAX_DECKS {
            codes.push(code);
        }
        return again(&codes);
    }
    if params.drop == "new" {
        if codes.len() < MAX_DECKS {
            codes.push(String::new());
        }
        return again(&codes);
    }
    if let Some(at) = index(&params.drop, codes.len()) {
        codes.remove(at);
        if codes.is_empty() {
            codes.push(String::new());
        }
        return again(&codes);
    }
    if !params.add.is_empty() || !params.remove.is_empty() {
        let Some(at) = index(&params.pile, codes.len()) else {
            return Err(failed(crate::ApiError::invalid_argument(format!(
                "no deck `{}` in this lineup",
                kit::status::quote(&params.pile)
            ))));
        };
        let deck = if codes[at].is_empty() {
            decks_pb::SharedDeck::default()
        } else {
            open(calls, game, &codes[at]).await?
        };
        let (reference, delta) = if params.add.is_empty() {
            (&params.remove, -1)
        } else {
            (&params.add, 1)
        };
        let zone = if params.zone.is_empty() {
            "main"
        } else {
            params.zone.as_str()
        };
        codes[at] = changed(calls, game, &deck, reference, zone, delta).await?;
        return again(&codes);
    }
    let mut decks = Vec::new();
    for code in &codes {
        decks.push(if code.is_empty() {
            decks_pb::SharedDeck::default()
        } else {
            open(calls, game, code).await?
        });
    }
    render(
        viewer, calls, game, slug, name, params, &rules, &codes, &decks,
    )
    .await
}

/// The deck's cards that count (every zone but the sideboard), as one pile.
fn counted(deck: &decks_pb::SharedDeck) -> Vec<&decks_pb::PileCard> {
    deck.piles
        .iter()
        .filter(|pile| pile.name != "sideboard")
        .flat_map(|pile| &pile.cards)
        .collect()
}

fn label(at: usize) -> String {
    format!("Deck {}", at + 1)
}

/// Checks the lineup: each deck by the deck rule (as its zone rule), every card by the card
/// ruleset, the lineup by the deck set rule.
async fn check(
    calls: &Calls,
    game: Game,
    rules: &Rules,
    decks: &[decks_pb::SharedDeck],
) -> Result<scripts_pb::ValidateDeckResponse, String> {
    let (card_default, deck_default) = default_rules(game);
    let piles = decks
        .iter()
        .enumerate()
        .map(|(at, deck)| scripts_pb::ValidatePile {
            name: label(at),
            role: scripts_pb::PileRole::Main.into(),
            cards: counted(deck)
                .into_iter()
                .map(|card| scripts_pb::PileEntry {
                    r#ref: card.r#ref.clone(),
                    count: card.count,
                })
                .collect(),
            zone_rule: rules.deck_rule(deck_default).map(by_id),
        })
        .collect();
    let set_rule = rules.deckset_rule(default_deckset(game));
    calls
        .scripts()
        .map_err(|error| error.message().to_owned())?
        .validate_deck(scripts_pb::ValidateDeckRequest {
            game: proto::game::to_wire(game),
            piles,
            card_rule: rules.card_rule(card_default).map(by_id),
            deck_rule: None,
            deckset_rule: set_rule.map(by_id),
            context_json: None,
        })
        .await
        .map_err(|error| {
            format!(
                "The rules could not run, so this lineup is not shown as legal: {}",
                error.message
            )
        })
}

#[allow(clippy::too_many_arguments)]
async fn render(
    viewer: &Viewer,
    calls: &Calls,
    game: Game,
    slug: &str,
    name: &str,
    params: &BuilderParams,
    rules: &Rules,
    codes: &[String],
    decks: &[decks_pb::SharedDeck],
) -> PageResult {
    let any_cards = decks.iter().any(|deck| !counted(deck).is_empty());
    let verdict = if any_cards {
        Some(check(calls, game, rules, decks).await)
    } else {
        None
    };
    let issues: Vec<&scripts_pb::DeckIssue> = match &verdict {
        Some(Ok(answer)) => answer.issues.iter().collect(),
        _ => Vec::new(),
    };
    let results = find(calls, game, &params.q).await?;
    let offered = deck_rules::offered(calls, game).await;
    let of_scope = |scope: scripts_pb::RuleScope| -> Vec<&scripts_pb::Ruleset> {
        offered
            .iter()
            .filter(|ruleset| ruleset.scope == i32::from(scope) && ruleset.enabled)
            .collect()
    };
    let (card_default, deck_default) = default_rules(game);
    let set_now = rules.deckset_rule(default_deckset(game));
    let change = |extra: &[(&str, &str)]| {
        let mut query = url::form_urlencoded::Serializer::new(String::new());
        query.append_pair("lineup", &codes.join(&SEPARATOR.to_string()));
        if !params.q.is_empty() {
            query.append_pair("q", &params.q);
        }
        for (key, value) in rules.pairs() {
            query.append_pair(&key, &value);
        }
        for (key, value) in extra {
            query.append_pair(key, value);
        }
        format!("/{slug}/deck-builder?{}", query.finish())
    };
    let mut keep: Vec<(String, String)> =
        vec![("lineup".to_owned(), codes.join(&SEPARATOR.to_string()))];
    if !params.q.is_empty() {
        keep.push(("q".to_owned(), params.q.clone()));
    }
    let keep_lineup: Vec<(String, String)> =
        std::iter::once(("lineup".to_owned(), codes.join(&SEPARATOR.to_string())))
            .chain(rules.pairs())
            .collect();
    let single = super::builder_href(
        slug,
        codes.first().map_or("", String::as_str),
        "",
        &Rules::default(),
    );
    let title = format!("{name} deck builder");
    Ok(page(
        viewer,
        &title,
        html! {
            h1 { (title) }
            p class="mode" {
                strong { "Multi deck" } ": every pile is a deck of a lineup, checked together by the deck set rule. "
                a id="single-deck" href=(single) { "Single Deck (keep the first deck)" }
            }
            div class="builder" {
                section class="deck" aria-labelledby="deck-heading" {
                    h2 id="deck-heading" { "Lineup" }
                    details class="rules" {
                        summary { "Rules" }
                        form method="get" action={ "/" (slug) "/deck-builder" } class="stack rule-pickers" {
                            @for (key, value) in &keep { input type="hidden" name=(key) value=(value); }
                            (deck_rules::picker("card", "Card ruleset", &of_scope(scripts_pb::RuleScope::Card), rules.card_rule(card_default)))
                            (deck_rules::picker("rule", "Deck rule (each deck)", &of_scope(scripts_pb::RuleScope::Deck), rules.deck_rule(deck_default)))
                            (deck_rules::picker("setrule", "Deck set rule", &of_scope(scripts_pb::RuleScope::Deckset), set_now))
                            button type="submit" { "Apply rules" }
                        }
                    }
                    form method="get" action={ "/" (slug) "/deck-builder" } class="stack import" {
                        @for (key, value) in &keep { input type="hidden" name=(key) value=(value); }
                        @for (key, value) in &rules.pairs() { input type="hidden" name=(key) value=(value); }
                        label for="import" { "Add a deck" }
                        textarea id="import" name="import" rows="3" placeholder="Paste a deck code or a deck list" {}
                        button type="submit" { "Import" }
                    }
                    @match &verdict {
                        None => {}
                        Some(Err(message)) => { p class="error" role="alert" id="rules-failed" { (message) } }
                        Some(Ok(answer)) => {
                            @if answer.valid == Some(true) {
                                p class="ok" role="status" id="deck-valid" { "The lineup passes its rules." }
                            } @else {
                                div class="error" role="alert" id="deck-issues" {
                                    p { "Warnings for the lineup:" }
                                    ul { @for issue in &issues { li { (issue.message) } } }
                                }
                            }
                        }
                    }
                    div class="piles columns" {
                        @for (at, deck) in decks.iter().enumerate() {
                            @let label = label(at);
                            @let cards = counted(deck);
                            @let here: Vec<&&scripts_pb::DeckIssue> = issues.iter().filter(|issue| issue.pile.as_deref() == Some(label.as_str())).collect();
                            @let index = at.to_string();
                            section class="pile" data-pile={ "deck-" (at) } aria-label=(label) {
                                h3 { (label) " " span class="count" { "(" (cards.iter().map(|card| card.count).sum::<u32>()) ")" } }
                                @if !here.is_empty() {
                                    ul class="pile-issues error" { @for issue in &here { li { (issue.message) } } }
                                }
                                @if cards.is_empty() { p class="help" { "Empty." } }
                                ul class="entries" {
                                    @for pile in deck.piles.iter().filter(|pile| pile.name != "sideboard") {
                                        @for card in &pile.cards {
                                            li data-ref=(card.r#ref) {
                                                span class="copies" { (card.count) "×" }
                                                a href={ "/" (slug) "/cards/" (urlencode(&card.r#ref)) } { (card.name) }
                                                a class="button secondary small" href=(change(&[("add", &card.r#ref), ("pile", &index), ("zone", &pile.name)])) aria-label={ "One more " (card.name) " in " (label) } { "+" }
                                                a class="button secondary small" href=(change(&[("remove", &card.r#ref), ("pile", &index), ("zone", &pile.name)])) aria-label={ "One less " (card.name) " in " (label) } { "−" }
                                            }
                                        }
                                    }
                                }
                                p class="actions" {
                                    @if let Some(exports) = &deck.exports {
                                        a href={ "/" (slug) "/decks/" (urlencode(&exports.share_code)) } { "Share " (label) }
                                    }
                                    @if codes.len() > 1 {
                                        a href=(change(&[("drop", &index)])) aria-label={ "Remove " (label) } { "Remove" }
                                    }
                                }
                            }
                        }
                    }
                    @if codes.len() < MAX_DECKS {
                        p { a class="button secondary" id="add-deck" href=(change(&[("drop", "new")])) { "Add a deck" } }
                    }
                    @if viewer.caller.account().is_some() && any_cards {
                        form method="post" action={ "/" (slug) "/deck-builder/lineup" } class="stack" id="save-lineup" {
                            (super::super::layout::csrf_field(viewer))
                            input type="hidden" name="lineup" value=(codes.join(&SEPARATOR.to_string()));
                            @for (key, value) in &rules.pairs() { input type="hidden" name=(key) value=(value); }
                            label for="lineup-name" { "Save as a deck set" }
                            input id="lineup-name" name="name" required maxlength="100";
                            button type="submit" { "Save" }
                        }
                    }
                }
                (finder(slug, &keep_lineup, &params.q, &results, |reference| {
                    (0..codes.len()).map(|at| (change(&[("add", reference), ("pile", &at.to_string())]), label(at))).collect()
                }))
            }
        },
    )
    .into_response())
}

/// The Save form of a lineup.
#[derive(Debug, serde::Deserialize)]
pub struct LineupForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    lineup: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    card: String,
    #[serde(default)]
    rule: String,
    #[serde(flatten)]
    rest: std::collections::BTreeMap<String, String>,
}

/// Saves the lineup as a deck set of the viewer's, one pile per deck, with its rules.
pub async fn save(
    viewer: Viewer,
    calls: Calls,
    axum::extract::Path(slug): axum::extract::Path<String>,
    axum::Form(form): axum::Form<LineupForm>,
) -> PageResult {
    super::super::answer::account_form(&viewer, &form.csrf)?;
    let (game, _) = super::super::answer::known_game(&slug)?;
    let rules = Rules::read(&form.card, &form.rule, &form.rest);
    let codes = codes(&form.lineup);
    let (card_default, deck_default) = default_rules(game);
    let mut piles = Vec::new();
    for (at, code) in codes.iter().enumerate() {
        let deck = if code.is_empty() {
            decks_pb::SharedDeck::default()
        } else {
            open(&calls, game, code).await?
        };
        piles.push(decks_pb::SavedPile {
            name: label(at),
            role: decks_pb::PileRole::Main.into(),
            cards: counted(&deck)
                .into_iter()
                .map(|card| decks_pb::SavedCard {
                    r#ref: card.r#ref.clone(),
                    count: card.count,
                })
                .collect(),
            zone_rule: rules.deck_rule(deck_default).and_then(super::rule_ref),
            column: u32::try_from(at).unwrap_or(0),
            order: 0,
            view: None,
            synced_deck: None,
        });
    }
    let set_rule = rules.deckset_rule(default_deckset(game));
    let saved = calls
        .decks()
        .map_err(failed)?
        .save_deck_set(decks_pb::SaveDeckSetRequest {
            game: proto::game::to_wire(game),
            name: form.name.clone(),
            public: false,
            piles,
            rules: Some(decks_pb::DeckRules {
                card_rule: rules.card_rule(card_default).and_then(super::rule_ref),
                deck_rule: None,
                deckset_rule: set_rule.and_then(super::rule_ref),
            }),
        })
        .await
        .map_err(failed)?;
    let title = format!("Saved {}", form.name);
    Ok(page(
        &viewer,
        &title,
        html! {
            h1 { (title) }
            p role="status" id="saved" {
                @if saved.replaced { "Your deck set of that name was replaced." } @else { "Saved on your account as a deck set." }
            }
            @if saved.warnings.is_empty() {
                p class="ok" { "The lineup passes its rules." }
            } @else {
                div class="warning" id="save-warnings" {
                    p { "The lineup still has these warnings:" }
                    ul { @for warning in &saved.warnings { li { (warning.message) } } }
                }
            }
            p { a href=(href(&slug, &codes, "", &rules)) { "Back to the lineup" } }
        },
    )
    .into_response())
}
