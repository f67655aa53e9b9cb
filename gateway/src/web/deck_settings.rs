//! A tournament's deck settings as a form: decks to bring, the rule of each scope (the game's
//! default, a built-in, or one of the organizer's own rulesets), banned cards found through
//! card search, the lineup deadline, decklist visibility, and dropping players without an
//! accepted lineup. The create page carries these fields in its form; an organizer changes them
//! later at `/tournaments/{id}/deck-settings` (linked from the console), which saves them with
//! `UpdateTournament` — pinning the current version of every rule they name, as the service
//! does.
//!
//! Find, Ban and Remove post the whole form back and redraw it, what was typed kept (no
//! script needed).

// `ApiError` is what the services' failures arrive as; it lives for one response.
#![allow(clippy::result_large_err)]

use axum::extract::Path;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use axum::{Form, Router};
use maud::{Markup, html};
use proto::game::Game;
use proto::scripts::v1 as scripts;
use proto::search::v1::SearchHit;
use proto::tournaments::v1 as pb;
use serde_json::Value;

use super::answer::{PageResult, account_form, again, failed, refused, signed_in};
use super::layout::{csrf_field, urlencode};
use super::session::Viewer;
use super::stage_settings::{Fields, all, field, has};
use super::tournaments::frame;
use super::wording::text;
use crate::auth::Calls;
use crate::state::AppState;

/// The deck settings page's route.
pub fn routes() -> Router<AppState> {
    Router::new().route("/tournaments/{id}/deck-settings", get(form).post(save))
}

/// The most cards the search under Banned cards lists.
const FOUND: usize = 12;

const VISIBILITY: [(&str, &str); 3] = [
    ("organizers", "Organizers only"),
    ("after_event", "Everyone, after the event"),
    ("public", "Everyone"),
];

/// The deck settings as typed.
#[derive(Debug, Clone, Default)]
pub struct DeckDraft {
    /// Players submit lineups.
    pub on: bool,
    pub decks: String,
    pub card: String,
    pub deck: String,
    pub deckset: String,
    pub banned: Vec<String>,
    pub query: String,
    pub deadline: String,
    pub visibility: String,
    pub drop_without: bool,
}

impl DeckDraft {
    /// A new tournament's: one deck, decklists for the organizers, nothing else set.
    pub fn new() -> Self {
        DeckDraft {
            decks: "1".into(),
            visibility: "organizers".into(),
            ..DeckDraft::default()
        }
    }

    /// The settings a tournament saved (its `deckSettings` as the API writes them), to change.
    pub fn saved(settings: &Value) -> Self {
        let Some(saved) = settings.as_object() else {
            return Self::new();
        };
        let rule = |scope: &str| text(&saved["rules"][scope]["ruleset"]);
        let deadline = saved
            .get("deadline")
            .and_then(Value::as_str)
            .and_then(|deadline| deadline.parse::<jiff::Timestamp>().ok())
            .map(|deadline| deadline.strftime("%Y-%m-%dT%H:%M").to_string())
            .unwrap_or_default();
        DeckDraft {
            on: true,
            decks: text(&saved["decksToBring"]),
            card: rule("card"),
            deck: rule("deck"),
            deckset: rule("deckset"),
            banned: saved["bannedCards"]
                .as_array()
                .into_iter()
                .flatten()
                .map(text)
                .collect(),
            query: String::new(),
            deadline,
            visibility: text(&saved["decklistVisibility"]),
            drop_without: saved["dropWithoutLineup"] == true,
        }
    }

    /// The fields as posted.
    pub fn read(fields: &Fields) -> Self {
        let mut banned: Vec<String> = Vec::new();
        for card in all(fields, "banned") {
            if !card.is_empty() && !banned.iter().any(|known| known == card) {
                banned.push(card.to_owned());
            }
        }
        DeckDraft {
            on: has(fields, "decks_on"),
            decks: field(fields, "decks").to_owned(),
            card: field(fields, "card_rule").to_owned(),
            deck: field(fields, "deck_rule").to_owned(),
            deckset: field(fields, "deckset_rule").to_owned(),
            banned,
            query: field(fields, "q").to_owned(),
            deadline: field(fields, "deadline").to_owned(),
            visibility: field(fields, "visibility").to_owned(),
            drop_without: has(fields, "drop_without"),
        }
    }

    /// Applies Ban (`ban`, a card id) or Remove (`unban`).
    pub fn change(&mut self, verb: &str, card: &str) {
        match verb {
            "ban" => {
                if !self.banned.iter().any(|known| known == card) {
                    self.banned.push(card.to_owned());
                }
                self.on = true;
            }
            "unban" => self.banned.retain(|known| known != card),
            _ => {}
        }
    }

    /// The request's deck settings when players submit lineups, or why what was typed is not
    /// a setting.
    pub fn input(&self) -> Result<Option<pb::DeckSettingsInput>, String> {
        if !self.on {
            return Ok(None);
        }
        let decks = match self.decks.trim() {
            "" => None,
            text => Some(
                text.parse::<u32>()
                    .map_err(|_| format!("Decks to bring is a whole number, not “{text}”."))?,
            ),
        };
        let deadline = match self.deadline.trim() {
            "" => None,
            text => Some(deadline(text)?),
        };
        let rule = |id: &str| (!id.is_empty()).then(|| id.to_owned());
        Ok(Some(pb::DeckSettingsInput {
            decks_to_bring: decks,
            banned_cards: self.banned.clone(),
            card_rule: rule(&self.card),
            deck_rule: rule(&self.deck),
            deckset_rule: rule(&self.deckset),
            deadline,
            decklist_visibility: rule(&self.visibility),
            drop_without_lineup: self.drop_without,
        }))
    }
}

/// A deadline as a `datetime-local` field writes it (`2027-01-31T12:00`, read as UTC), or in
/// full RFC 3339.
fn deadline(text: &str) -> Result<pbjson_types::Timestamp, String> {
    let full = match text.len() {
        16 => format!("{text}:00Z"),
        19 => format!("{text}Z"),
        _ => text.to_owned(),
    };
    full.parse::<jiff::Timestamp>()
        .map(|time| pbjson_types::Timestamp {
            seconds: time.as_second(),
            nanos: time.subsec_nanosecond(),
        })
        .map_err(|_| format!("The deadline is a date and time (2027-01-31T12:00), not “{text}”."))
}

/// The options of a select, `now` chosen.
pub fn options(choices: &[(&str, &str)], now: &str) -> Markup {
    html! { @for (value, label) in choices { option value=(value) selected[*value == now] { (label) } } }
}

/// A submit button of a form that redraws it: `op` says what changes.
pub fn op(value: &str, label: &str, aria: Option<&str>) -> Markup {
    html! { button type="submit" name="op" value=(value) class="secondary small" formnovalidate aria-label=[aria] { (label) } }
}

/// The cards a search under Banned cards finds (none for an empty query).
pub async fn find(calls: &Calls, game: Game, query: &str) -> Result<Vec<SearchHit>, Response> {
    let mut found = super::builder::find(calls, game, query).await?;
    found.truncate(FOUND);
    Ok(found)
}

/// The banned cards' names by the ref saved (the catalog's; a ref it does not know is shown as
/// itself).
pub async fn names(
    calls: &Calls,
    game: Game,
    refs: &[String],
) -> std::collections::BTreeMap<String, String> {
    let Ok(catalog) = calls.catalog() else {
        return std::collections::BTreeMap::new();
    };
    if refs.is_empty() {
        return std::collections::BTreeMap::new();
    }
    catalog
        .get_cards(game, refs.to_vec())
        .await
        .map(|answer| {
            answer
                .cards
                .into_iter()
                .filter_map(|found| found.card.map(|card| (found.r#ref, card.name)))
                .collect()
        })
        .unwrap_or_default()
}

/// One scope's rule picker: the game's default, or a built-in or one of the viewer's own.
fn rule_picker(
    name: &str,
    label: &str,
    scope: scripts::RuleScope,
    rulesets: &[scripts::Ruleset],
    now: &str,
) -> Markup {
    let of_scope: Vec<&scripts::Ruleset> = rulesets
        .iter()
        .filter(|ruleset| ruleset.scope == i32::from(scope) && ruleset.enabled)
        .collect();
    let id = format!("pick-{name}");
    html! {
        label for=(id) { (label) }
        select id=(id) name=(name) {
            option value="" selected[now.is_empty()] { "The game's default" }
            @for (group, built_in) in [("Built-in", true), ("Your rulesets", false)] {
                @let members: Vec<&&scripts::Ruleset> = of_scope.iter().filter(|ruleset| ruleset.built_in == built_in).collect();
                @if !members.is_empty() {
                    optgroup label=(group) {
                        @for ruleset in members { option value=(ruleset.id) selected[ruleset.id == now] { (ruleset.name) } }
                    }
                }
            }
        }
    }
}

/// The deck settings' fields, inside a form whose `op` buttons post back to where it came from.
pub fn section(
    deck: &DeckDraft,
    rulesets: &[scripts::Ruleset],
    found: &[SearchHit],
    names: &std::collections::BTreeMap<String, String>,
) -> Markup {
    html! {
        section aria-labelledby="decks-heading" id="deck-settings" {
            h2 id="decks-heading" { "Deck settings" }
            label { input type="checkbox" name="decks_on" value="on" checked[deck.on]; " Players submit their decks (lineups checked by the rules below)" }
            label for="decks" { "Decks to bring" }
            input id="decks" name="decks" type="number" min="1" max="10" value=(deck.decks);
            (rule_picker("card_rule", "Card rule", scripts::RuleScope::Card, rulesets, &deck.card))
            (rule_picker("deck_rule", "Deck rule", scripts::RuleScope::Deck, rulesets, &deck.deck))
            (rule_picker("deckset_rule", "Deck set rule", scripts::RuleScope::Deckset, rulesets, &deck.deckset))
            fieldset id="banned-cards" {
                legend { "Banned cards" }
                @if deck.banned.is_empty() { p class="help" { "None: find cards to ban below." } }
                ul {
                    @for card in &deck.banned {
                        li {
                            input type="hidden" name="banned" value=(card);
                            @let name = names.get(card).unwrap_or(card);
                            (name) " " (op(&format!("unban:{card}"), "Remove", Some(&format!("Remove {name} from the banned cards"))))
                        }
                    }
                }
                label for="q" { "Find cards" }
                input id="q" type="search" name="q" value=(deck.query) autocomplete="off";
                (op("find", "Find", Some("Find cards to ban")))
                @if !found.is_empty() {
                    ul class="results" id="found" {
                        @for hit in found {
                            @if let Some(card) = &hit.card {
                                // The card's identity: every printing of it is banned.
                                @let reference = card.id.as_str();
                                li { (card.name) " · " (reference) " "
                                    @if deck.banned.iter().any(|known| known == reference) { "(banned)" }
                                    @else { (op(&format!("ban:{reference}"), "Ban", Some(&format!("Ban {}", card.name)))) } }
                            }
                        }
                    }
                } @else if !deck.query.trim().is_empty() {
                    p class="help" { "No cards found." }
                }
            }
            label for="deadline" { "Deadline (UTC; empty: when the tournament starts)" }
            input id="deadline" name="deadline" type="datetime-local" value=(deck.deadline);
            label for="visibility" { "Decklist visibility" }
            select id="visibility" name="visibility" { (options(&VISIBILITY, &deck.visibility)) }
            label { input type="checkbox" name="drop_without" value="on" checked[deck.drop_without]; " At the start, drop players without an accepted lineup" }
        }
    }
}

/// The tournament and its game, for an organizer; anyone else is refused.
async fn organized(viewer: &Viewer, calls: &Calls, id: &str) -> Result<(Value, Game), Response> {
    let tournament = super::tournaments::organized(viewer, calls, id).await?;
    let game = text(&tournament["game"])
        .parse::<Game>()
        .map_err(|_| failed(crate::ApiError::invalid_argument("a tournament of no game")))?;
    Ok((tournament, game))
}

async fn render(
    viewer: &Viewer,
    calls: &Calls,
    tournament: &Value,
    game: Game,
    deck: &DeckDraft,
    problem: Option<&str>,
) -> PageResult {
    let id = text(&tournament["id"]);
    let rulesets = super::deck_rules::offered(calls, game).await;
    let found = find(calls, game, &deck.query).await?;
    let names = names(calls, game, &deck.banned).await;
    let body = html! {
        @if let Some(problem) = problem { p class="error" role="alert" id="form-error" { (problem) } }
        p class="help" { "Saving pins the current version of every rule chosen: a later edit of a ruleset changes nothing here until you save again." }
        form method="post" action={ "/tournaments/" (urlencode(&id)) "/deck-settings" } class="stack wide" id="deck-settings-form" {
            // Enter in a field redraws the form (finds cards) instead of saving it half-typed.
            button type="submit" name="op" value="refresh" class="visually-hidden" tabindex="-1" aria-hidden="true" formnovalidate { "Redraw" }
            (csrf_field(viewer))
            (section(deck, &rulesets, &found, &names))
            button type="submit" name="op" value="save" { "Save deck settings" }
        }
    };
    frame(viewer, tournament, "/manage", "Deck settings", body)
}

async fn form(viewer: Viewer, calls: Calls, Path(id): Path<String>) -> PageResult {
    signed_in(&viewer)?;
    let (tournament, game) = organized(&viewer, &calls, &id).await?;
    let deck = DeckDraft::saved(&tournament["deckSettings"]);
    render(&viewer, &calls, &tournament, game, &deck, None).await
}

async fn save(
    viewer: Viewer,
    calls: Calls,
    Path(id): Path<String>,
    Form(fields): Form<Vec<(String, String)>>,
) -> PageResult {
    account_form(&viewer, field(&fields, "csrf"))?;
    let (tournament, game) = organized(&viewer, &calls, &id).await?;
    let mut deck = DeckDraft::read(&fields);
    let op = field(&fields, "op");
    if op != "save" {
        let (verb, card) = op.split_once(':').unwrap_or((op, ""));
        deck.change(verb, card);
        return render(&viewer, &calls, &tournament, game, &deck, None).await;
    }
    let input = match deck.input() {
        // Switched off: the settings stay as they are (the service keeps them once saved).
        Ok(None) => {
            return Ok(
                Redirect::to(&format!("/tournaments/{}/manage", urlencode(&id))).into_response(),
            );
        }
        Ok(Some(input)) => input,
        Err(problem) => {
            return render(&viewer, &calls, &tournament, game, &deck, Some(&problem)).await;
        }
    };
    let saved = calls
        .tournaments()
        .map_err(failed)?
        .update_tournament(pb::UpdateTournamentRequest {
            id: id.clone(),
            registration_open: None,
            stages: Vec::new(),
            deck_settings: Some(input),
        })
        .await;
    match saved {
        Ok(_) => {
            Ok(Redirect::to(&format!("/tournaments/{}/manage", urlencode(&id))).into_response())
        }
        Err(error) => {
            let api = refused(error)?;
            // The form again with the refusal, answered with its status (a read-only token's
            // 403, a ruleset that is not there's 404).
            let page = render(
                &viewer,
                &calls,
                &tournament,
                game,
                &deck,
                Some(api.message()),
            )
            .await?;
            again(&api, page)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deck_settings_are_saved_only_when_players_submit_decks() {
        let mut deck = DeckDraft::new();
        assert_eq!(deck.input(), Ok(None));
        deck.change("ban", "01IO012");
        deck.change("ban", "01IO012");
        assert!(deck.on, "banning a card asks for lineups");
        deck.decks = "2".into();
        deck.deadline = "2027-01-31T12:00".into();
        deck.visibility = "public".into();
        let settings = deck.input().expect("read").expect("saved");
        assert_eq!(settings.decks_to_bring, Some(2));
        assert_eq!(settings.banned_cards, ["01IO012"]);
        assert_eq!(settings.card_rule, None);
        assert_eq!(settings.decklist_visibility.as_deref(), Some("public"));
        let deadline = settings.deadline.expect("a deadline");
        assert_eq!(
            deadline.seconds,
            "2027-01-31T12:00:00Z"
                .parse::<jiff::Timestamp>()
                .expect("time")
                .as_second()
        );
        deck.deadline = "tomorrow".into();
        assert!(deck.input().is_err());
        deck.change("unban", "01IO012");
        assert!(deck.banned.is_empty());
    }

    #[test]
    fn saved_settings_read_back_as_the_form_shows_them() {
        let saved = serde_json::json!({"decksToBring": 3, "bannedCards": ["01IO012"],
            "rules": {"card": {"ruleset": "lor-eternal"}, "deck": null, "deckset": null},
            "deadline": "2027-01-31T12:00:00Z", "decklistVisibility": "after_event",
            "dropWithoutLineup": true});
        let deck = DeckDraft::saved(&saved);
        assert!(deck.on && deck.drop_without);
        assert_eq!(deck.decks, "3");
        assert_eq!(deck.card, "lor-eternal");
        assert_eq!(deck.deck, "");
        assert_eq!(deck.deadline, "2027-01-31T12:00");
        assert_eq!(deck.visibility, "after_event");
        let input = deck.input().expect("read").expect("saved");
        assert_eq!(input.banned_cards, ["01IO012"]);
        assert_eq!(input.deadline.map(|time| time.seconds), Some(1_801_396_800));
    }
}
