//! `/{game}/tournaments/new`: an organizer creates a tournament. The form starts from the
//! game's defaults (the service's, `GetStageDefaults`) and makes everything editable: the
//! stages, each with every setting of its format (`stage_settings`), the advancement rules
//! between them (placements or points, advance or eliminate) and the cut tiebreaker, the cap
//! and check-in; for Pokémon TCG the Play! Pokémon handbook's round count for the cap (the
//! guide's table), with **Apply**. Deck settings (decks to bring, the rule of each scope,
//! banned cards picked through card search, the deadline, decklist visibility) and a webhook
//! are saved with it.
//!
//! Every button posts the whole form back (no script needed): Apply, a changed format, Add a
//! stage or a rule, Find cards and Ban redraw it with what was typed kept; Create sends the
//! API's body (`proto::tournaments_json::create_request`, so the same checks apply), then the
//! deck settings (`UpdateTournament`) and the webhook (`AddWebhook`, whose signing secret is
//! shown once, on the page that follows).

// `ApiError` is what the services' failures arrive as; it lives for one response.
#![allow(clippy::result_large_err)]

use axum::extract::Path;
use axum::response::{IntoResponse, Redirect};
use axum::routing::get;
use axum::{Form, Router};
use maud::{Markup, html};
use proto::game::Game;
use proto::scripts::v1 as scripts;
use proto::tournaments::v1 as pb;
use proto::tournaments_json::{self, CreateTournamentBody};
use serde_json::{Map, Value, json};

use super::answer::{PageResult, account_form, again, failed, known_game, refused, signed_in};
use super::deck_settings::{self, DeckDraft, op, options};
use super::layout::{csrf_field, page, urlencode};
use super::session::Viewer;
use super::stage_settings::{self, Fields, field, has};
use crate::auth::Calls;
use crate::state::AppState;

/// The create page's route.
pub fn routes() -> Router<AppState> {
    Router::new().route("/{game}/tournaments/new", get(form).post(create))
}

/// The Play! Pokémon handbook's Swiss round count for `players` (the guide's table); `None`
/// past 1,024 players.
pub fn pokemon_rounds(players: u32) -> Option<u32> {
    const TABLE: [(u32, u32); 12] = [
        (4, 3),
        (8, 3),
        (12, 4),
        (16, 5),
        (32, 5),
        (64, 6),
        (128, 7),
        (226, 8),
        (256, 9),
        (409, 9),
        (512, 10),
        (1024, 10),
    ];
    TABLE
        .iter()
        .find(|(most, _)| players <= *most)
        .map(|(_, rounds)| *rounds)
}

/// The most stages the form adds (the service's limit).
const MAX_STAGES: usize = 8;

/// Every format, as the guide names it.
const FORMATS: [(&str, &str); 6] = [
    ("swiss", "Swiss"),
    ("single_elimination", "Single elimination"),
    ("double_elimination", "Double elimination"),
    ("round_robin", "Round robin"),
    ("cumulative_points", "Cumulative Points (Free-for-All)"),
    ("threshold_win", "Threshold Win (Free-for-All)"),
];

const CUT_TIEBREAKERS: [(&str, &str); 3] = [
    ("better_seed", "Better initial seed advances"),
    ("draw_lots", "Draw lots"),
    ("advance_whole_tie", "Advance the whole tie"),
];

/// One stage as the form holds it: its format, the settings it starts from, and its settings
/// now.
#[derive(Debug, Clone)]
struct StageDraft {
    format: String,
    defaults: Map<String, Value>,
    settings: Map<String, Value>,
}

/// One advancement rule as typed.
#[derive(Debug, Clone, PartialEq)]
struct RuleDraft {
    from: String,
    /// `placements` or `points`.
    kind: String,
    low: String,
    high: String,
    /// `advance` or `eliminate`.
    action: String,
    to: String,
}

/// The whole form.
#[derive(Debug, Clone, Default)]
struct Draft {
    name: String,
    max: String,
    check_in: bool,
    cut_tiebreaker: String,
    stages: Vec<StageDraft>,
    rules: Vec<RuleDraft>,
    deck: DeckDraft,
    webhook: String,
    /// The formats the game offers (with any stage's defaults: no call of their own).
    formats: Vec<String>,
}

/// What the form needs from the services to draw besides the draft: the game's rulesets for
/// the pickers, and the cards found for Banned cards.
struct Offered {
    rulesets: Vec<scripts::Ruleset>,
    found: Vec<proto::search::v1::SearchHit>,
    /// The banned cards' names.
    names: std::collections::BTreeMap<String, String>,
}

/// The settings a stage of `format` starts from as the `stage`-th (from 0), and the game's
/// formats.
async fn defaults(
    calls: &Calls,
    game: Game,
    format: &str,
    stage: usize,
) -> Result<(Map<String, Value>, Vec<String>), crate::ApiError> {
    let answer = calls
        .tournaments()?
        .get_stage_defaults(pb::GetStageDefaultsRequest {
            game: proto::game::to_wire(game),
            format: format.to_owned(),
            stage: u32::try_from(stage + 1).unwrap_or(u32::MAX),
        })
        .await?;
    let settings = serde_json::from_str(&answer.settings_json).unwrap_or_default();
    Ok((settings, answer.formats))
}

/// A new stage of `format` at `stage`, with its defaults, and the game's formats.
async fn new_stage(
    calls: &Calls,
    game: Game,
    format: &str,
    stage: usize,
) -> Result<(StageDraft, Vec<String>), crate::ApiError> {
    let (defaults, formats) = defaults(calls, game, format, stage).await?;
    let stage = StageDraft {
        format: format.to_owned(),
        settings: defaults.clone(),
        defaults,
    };
    Ok((stage, formats))
}

/// A rule sending placements 1 to `top` of stage `from` to stage `to` (both from 1).
fn top_rule(from: usize, top: u32, to: usize) -> RuleDraft {
    RuleDraft {
        from: from.to_string(),
        kind: "placements".into(),
        low: "1".into(),
        high: top.to_string(),
        action: "advance".into(),
        to: to.to_string(),
    }
}

impl Draft {
    /// The form as it first shows: one Swiss stage with the game's defaults.
    async fn new(calls: &Calls, game: Game) -> Result<Self, crate::ApiError> {
        let (stage, formats) = new_stage(calls, game, "swiss", 0).await?;
        Ok(Draft {
            stages: vec![stage],
            formats,
            cut_tiebreaker: "better_seed".into(),
            deck: DeckDraft::new(),
            ..Draft::default()
        })
    }

    /// The form as posted. A stage whose format changed starts again from that format's
    /// defaults; the others read their settings back. Returns the problems found reading.
    async fn read(
        calls: &Calls,
        game: Game,
        fields: &Fields,
    ) -> Result<(Self, Vec<String>), crate::ApiError> {
        let mut problems = Vec::new();
        let mut stages = Vec::new();
        let mut formats = Vec::new();
        for at in 0..MAX_STAGES {
            let format = field(fields, &format!("s{at}.format"));
            if format.is_empty() {
                break;
            }
            let shown = field(fields, &format!("s{at}.shown"));
            let (mut stage, offered) = new_stage(calls, game, format, at).await?;
            formats = offered;
            if shown == format {
                let (settings, found) =
                    stage_settings::read(&format!("s{at}."), format, &stage.defaults, fields);
                problems.extend(
                    found
                        .into_iter()
                        .map(|problem| format!("Stage {}: {problem}", at + 1)),
                );
                stage.settings = settings;
            }
            stages.push(stage);
        }
        let rules = (0..)
            .map_while(|at| {
                let name = |part: &str| format!("r{at}.{part}");
                has(fields, &name("from")).then(|| RuleDraft {
                    from: field(fields, &name("from")).to_owned(),
                    kind: field(fields, &name("kind")).to_owned(),
                    low: field(fields, &name("low")).to_owned(),
                    high: field(fields, &name("high")).to_owned(),
                    action: field(fields, &name("action")).to_owned(),
                    to: field(fields, &name("to")).to_owned(),
                })
            })
            .collect();
        let draft = Draft {
            name: field(fields, "name").to_owned(),
            max: field(fields, "max").to_owned(),
            check_in: has(fields, "check_in"),
            cut_tiebreaker: field(fields, "cut_tiebreaker").to_owned(),
            stages,
            rules,
            deck: DeckDraft::read(fields),
            webhook: field(fields, "webhook").to_owned(),
            formats,
        };
        Ok((draft, problems))
    }

    /// The API's create body for the form.
    fn body(&self) -> Result<Value, String> {
        let number = |text: &str| text.trim().parse::<u32>().ok();
        let stages: Vec<Value> = self
            .stages
            .iter()
            .map(|stage| json!({"format": stage.format, "settings": stage.settings}))
            .collect();
        let mut advancement = Vec::new();
        for (at, rule) in self.rules.iter().enumerate() {
            let whole = |text: &str, what: &str| -> Result<Option<u32>, String> {
                let text = text.trim();
                if text.is_empty() {
                    return Ok(None);
                }
                text.parse().map(Some).map_err(|_| {
                    format!(
                        "Advancement rule {}: {what} is a whole number, not “{text}”.",
                        at + 1
                    )
                })
            };
            let from = whole(&rule.from, "its stage")?.unwrap_or(1);
            let mut out = json!({"fromStage": from, "action": rule.action});
            if rule.kind == "points" {
                let points = |text: &str| -> Result<Option<f64>, String> {
                    let text = text.trim();
                    if text.is_empty() {
                        return Ok(None);
                    }
                    text.parse().map(Some).map_err(|_| {
                        format!(
                            "Advancement rule {}: points are a number, not “{text}”.",
                            at + 1
                        )
                    })
                };
                out["points"] = json!([points(&rule.low)?, points(&rule.high)?]);
            } else {
                out["placements"] = json!([
                    whole(&rule.low, "a placement")?,
                    whole(&rule.high, "a placement")?
                ]);
            }
            if rule.action == "advance"
                && let Some(to) = whole(&rule.to, "the stage it advances to")?
            {
                out["toStage"] = json!(to);
            }
            advancement.push(out);
        }
        let mut out = json!({"name": self.name, "stages": stages, "advancement": advancement});
        if !self.max.trim().is_empty() {
            out["maxParticipants"] = json!(number(&self.max).ok_or_else(|| format!(
                "Maximum participants is a whole number, not “{}”.",
                self.max.trim()
            ))?);
        }
        if self.check_in {
            out["checkIn"] = json!(true);
        }
        if !self.cut_tiebreaker.is_empty() {
            out["cutTiebreaker"] = json!(self.cut_tiebreaker);
        }
        Ok(out)
    }
}

fn stages_section(game: Game, draft: &Draft) -> Markup {
    let suggestion = (game == Game::Pokemon)
        .then(|| {
            draft
                .max
                .trim()
                .parse::<u32>()
                .ok()
                .and_then(pokemon_rounds)
        })
        .flatten();
    html! {
        section aria-labelledby="stages-heading" {
            h2 id="stages-heading" { "Stages" }
            @for (at, stage) in draft.stages.iter().enumerate() {
                fieldset class="stage" id={ "stage-" (at + 1) } {
                    legend { "Stage " (at + 1) }
                    input type="hidden" name={ "s" (at) ".shown" } value=(stage.format);
                    label for={ "s" (at) "-format" } { "Format" }
                    select id={ "s" (at) "-format" } name={ "s" (at) ".format" } data-autosubmit {
                        @for (value, label) in FORMATS.iter().filter(|(value, _)| draft.formats.iter().any(|format| format == value)) {
                            option value=(value) selected[stage.format == *value] { (label) }
                        }
                    }
                    (op("refresh", "Show its settings", Some(&format!("Show the settings of stage {}'s format", at + 1))))
                    @if at == 0 && game == Game::Pokemon && stage.format == "swiss" {
                        p class="help" id="round-suggestion" {
                            @if let Some(rounds) = suggestion {
                                "The Play! Pokémon handbook suggests " strong { (rounds) } " rounds for " (draft.max.trim()) " players. "
                                (op("apply", "Apply", Some("Apply the suggested number of rounds")))
                            } @else {
                                "Set a maximum to see the handbook's round count for it, then Apply. "
                                (op("apply", "Suggest", None))
                            }
                        }
                    }
                    details class="advanced" open[at == 0] {
                        summary { "Advanced settings" }
                        (stage_settings::editor(&format!("s{at}."), &stage.format, &stage.defaults, &stage.settings))
                    }
                    @if draft.stages.len() > 1 {
                        (op(&format!("remove_stage:{at}"), "Remove this stage", Some(&format!("Remove stage {}", at + 1))))
                    }
                }
            }
            @if draft.stages.len() < MAX_STAGES {
                p class="actions" {
                    label for="cut" { "Top cut" }
                    select id="cut" name="cut" { @for top in [4, 8, 16, 32] { option value=(top) selected[top == 8] { "Top " (top) } } }
                    (op("top_cut", "Add a top cut", Some("Add a single-elimination stage the top players advance to")))
                    (op("add_stage", "Add a stage", None))
                }
            }
        }
    }
}

fn rules_section(draft: &Draft) -> Markup {
    html! {
        section aria-labelledby="advancement-heading" {
            h2 id="advancement-heading" { "Advancement rules" }
            p class="help" { "Who moves from one stage to the next, read from the earlier stage's final standings." }
            @for (at, rule) in draft.rules.iter().enumerate() {
                fieldset class="rule" id={ "rule-" (at + 1) } {
                    legend { "Rule " (at + 1) }
                    label for={ "r" (at) "-from" } { "From stage" }
                    input id={ "r" (at) "-from" } name={ "r" (at) ".from" } type="number" min="1" value=(rule.from);
                    label for={ "r" (at) "-kind" } { "Condition" }
                    select id={ "r" (at) "-kind" } name={ "r" (at) ".kind" } {
                        (options(&[("placements", "Placement range"), ("points", "Points range")], &rule.kind))
                    }
                    label for={ "r" (at) "-low" } { "From (empty: open)" }
                    input id={ "r" (at) "-low" } name={ "r" (at) ".low" } inputmode="decimal" value=(rule.low);
                    label for={ "r" (at) "-high" } { "To (empty: open)" }
                    input id={ "r" (at) "-high" } name={ "r" (at) ".high" } inputmode="decimal" value=(rule.high);
                    label for={ "r" (at) "-action" } { "Action" }
                    select id={ "r" (at) "-action" } name={ "r" (at) ".action" } {
                        (options(&[("advance", "Advance"), ("eliminate", "Eliminate")], &rule.action))
                    }
                    label for={ "r" (at) "-to" } { "To stage (empty: the next)" }
                    input id={ "r" (at) "-to" } name={ "r" (at) ".to" } type="number" min="1" value=(rule.to);
                    (op(&format!("remove_rule:{at}"), "Remove this rule", Some(&format!("Remove rule {}", at + 1))))
                }
            }
            p class="actions" { (op("add_rule", "Add a rule", Some("Add an advancement rule"))) }
            label for="cut-tiebreaker" { "Cut tiebreaker" }
            select id="cut-tiebreaker" name="cut_tiebreaker" { (options(&CUT_TIEBREAKERS, &draft.cut_tiebreaker)) }
        }
    }
}

fn render(
    viewer: &Viewer,
    game: Game,
    slug: &str,
    name: &str,
    draft: &Draft,
    offered: &Offered,
    problems: &[String],
) -> PageResult {
    let title = format!("New {name} tournament");
    Ok(page(
        viewer,
        &title,
        html! {
            h1 { (title) }
            @if !problems.is_empty() {
                div class="error" role="alert" id="form-error" { @for problem in problems { p { (problem) } } }
            }
            form method="post" action={ "/" (slug) "/tournaments/new" } class="stack wide" id="create-tournament" {
                // Enter in a field redraws the form (finds cards, shows a format's settings)
                // instead of creating the tournament half-typed.
                button type="submit" name="op" value="refresh" class="visually-hidden" tabindex="-1" aria-hidden="true" formnovalidate { "Redraw" }
                (csrf_field(viewer))
                label for="tournament-name" { "Name" }
                input id="tournament-name" name="name" required maxlength="200" value=(draft.name);
                label for="max" { "Maximum participants (empty: no cap)" }
                input id="max" name="max" inputmode="numeric" value=(draft.max);
                label { input type="checkbox" name="check_in" value="on" checked[draft.check_in]; " Players check in before the first round" }
                (stages_section(game, draft))
                (rules_section(draft))
                (deck_settings::section(&draft.deck, &offered.rulesets, &offered.found, &offered.names))
                section aria-labelledby="webhook-heading" {
                    h2 id="webhook-heading" { "Webhook" }
                    label for="webhook" { "Send every event to (empty: none; more on the Manage page)" }
                    input id="webhook" name="webhook" type="url" placeholder="https://example.com/turnier" value=(draft.webhook);
                }
                button type="submit" name="op" value="create" { "Create" }
            }
        },
    )
    .into_response())
}

async fn offered(
    calls: &Calls,
    game: Game,
    draft: &Draft,
) -> Result<Offered, axum::response::Response> {
    let rulesets = super::deck_rules::offered(calls, game).await;
    let found = deck_settings::find(calls, game, &draft.deck.query).await?;
    let names = deck_settings::names(calls, game, &draft.deck.banned).await;
    Ok(Offered {
        rulesets,
        found,
        names,
    })
}

async fn form(viewer: Viewer, calls: Calls, Path(slug): Path<String>) -> PageResult {
    signed_in(&viewer)?;
    let (game, name) = known_game(&slug)?;
    let draft = Draft::new(&calls, game).await.map_err(failed)?;
    let offered = offered(&calls, game, &draft).await?;
    render(&viewer, game, &slug, name, &draft, &offered, &[])
}

/// Applies a button that changes the form (not Create): returns the problems to show.
async fn change(
    calls: &Calls,
    game: Game,
    draft: &mut Draft,
    op: &str,
    fields: &Fields,
) -> Result<(), crate::ApiError> {
    let (verb, target) = op.split_once(':').unwrap_or((op, ""));
    match verb {
        "apply" => {
            if let Some(rounds) = draft
                .max
                .trim()
                .parse::<u32>()
                .ok()
                .and_then(pokemon_rounds)
                && let Some(stage) = draft
                    .stages
                    .first_mut()
                    .filter(|stage| stage.format == "swiss")
            {
                stage.settings.insert("rounds".into(), json!(rounds));
            }
        }
        "add_stage" | "top_cut" if draft.stages.len() < MAX_STAGES => {
            let at = draft.stages.len();
            let (stage, formats) = new_stage(calls, game, "single_elimination", at).await?;
            draft.stages.push(stage);
            draft.formats = formats;
            let top = field(fields, "cut").parse().unwrap_or(8);
            draft.rules.push(top_rule(at, top, at + 1));
        }
        "remove_stage" => {
            if let Ok(at) = target.parse::<usize>()
                && at < draft.stages.len()
                && draft.stages.len() > 1
            {
                draft.stages.remove(at);
                let gone = (at + 1).to_string();
                draft
                    .rules
                    .retain(|rule| rule.from != gone && rule.to != gone);
                // Later stages move up one.
                for rule in &mut draft.rules {
                    for number in [&mut rule.from, &mut rule.to] {
                        if let Ok(n) = number.parse::<usize>()
                            && n > at + 1
                        {
                            *number = (n - 1).to_string();
                        }
                    }
                }
            }
        }
        "add_rule" => {
            let stages = draft.stages.len();
            draft.rules.push(top_rule(1, 8, stages.max(2)));
        }
        "remove_rule" => {
            if let Ok(at) = target.parse::<usize>()
                && at < draft.rules.len()
            {
                draft.rules.remove(at);
            }
        }
        "ban" | "unban" => draft.deck.change(verb, target),
        _ => {}
    }
    Ok(())
}

async fn create(
    viewer: Viewer,
    calls: Calls,
    Path(slug): Path<String>,
    Form(fields): Form<Vec<(String, String)>>,
) -> PageResult {
    account_form(&viewer, field(&fields, "csrf"))?;
    let (game, name) = known_game(&slug)?;
    let (mut draft, mut problems) = Draft::read(&calls, game, &fields).await.map_err(failed)?;
    let op = field(&fields, "op");
    if op != "create" {
        change(&calls, game, &mut draft, op, &fields)
            .await
            .map_err(failed)?;
        let offered = offered(&calls, game, &draft).await?;
        return render(&viewer, game, &slug, name, &draft, &offered, &[]);
    }
    let request = draft.body().and_then(|body| {
        let parsed: CreateTournamentBody =
            serde_json::from_value(body).map_err(|err| err.to_string())?;
        tournaments_json::create_request(game, parsed).map_err(|err| err.to_string())
    });
    let deck_settings = draft.deck.input();
    let refuse = async |problems: Vec<String>| {
        let offered = offered(&calls, game, &draft).await?;
        render(&viewer, game, &slug, name, &draft, &offered, &problems)
    };
    let (request, deck_settings) = match (request, deck_settings) {
        (Ok(request), Ok(deck_settings)) if problems.is_empty() => (request, deck_settings),
        (request, deck_settings) => {
            problems.extend(request.err());
            problems.extend(deck_settings.err());
            return refuse(problems).await;
        }
    };
    let client = calls.tournaments().map_err(failed)?;
    let created = match client.create_tournament(request).await {
        Ok(answer) => answer
            .tournament
            .map(|tournament| tournament.id)
            .unwrap_or_default(),
        Err(error) => {
            let api = refused(error)?;
            let page = refuse(vec![api.message().to_owned()]).await?;
            return again(&api, page);
        }
    };
    let manage = format!("/tournaments/{}/manage", urlencode(&created));
    // The tournament exists now: what fails from here is said on the next page, and its
    // deck settings and webhooks can be saved again from Manage.
    let mut later = Vec::new();
    if let Some(settings) = deck_settings
        && let Err(error) = client
            .update_tournament(pb::UpdateTournamentRequest {
                id: created.clone(),
                registration_open: None,
                stages: Vec::new(),
                deck_settings: Some(settings),
            })
            .await
    {
        later.push(format!(
            "The deck settings were not saved: {}",
            crate::ApiError::from(error).message()
        ));
    }
    let mut secret = None;
    if !draft.webhook.trim().is_empty() {
        match client
            .add_webhook(pb::AddWebhookRequest {
                id: created.clone(),
                url: draft.webhook.trim().to_owned(),
                events: Vec::new(),
            })
            .await
        {
            Ok(answer) => secret = Some(answer.secret),
            Err(error) => later.push(format!(
                "The webhook was not added: {}",
                crate::ApiError::from(error).message()
            )),
        }
    }
    if later.is_empty() && secret.is_none() {
        return Ok(Redirect::to(&manage).into_response());
    }
    Ok(super::tournament_console::webhook_secret(
        &viewer,
        &created,
        secret.as_deref(),
        &later,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_handbooks_round_counts_follow_the_guides_table() {
        for (players, rounds) in [
            (4, 3),
            (8, 3),
            (9, 4),
            (13, 5),
            (16, 5),
            (33, 6),
            (129, 8),
            (227, 9),
            (257, 9),
            (410, 10),
            (1024, 10),
        ] {
            assert_eq!(pokemon_rounds(players), Some(rounds), "{players} players");
        }
        assert_eq!(pokemon_rounds(1025), None);
    }

    fn swiss_and_top(top: u32) -> Draft {
        let stage = |format: &str, settings: Value| StageDraft {
            format: format.into(),
            defaults: Map::new(),
            settings: settings.as_object().cloned().unwrap_or_default(),
        };
        Draft {
            name: "Cup".into(),
            max: "32".into(),
            cut_tiebreaker: "better_seed".into(),
            stages: vec![
                stage("swiss", json!({"rounds": 5})),
                stage("single_elimination", json!({})),
            ],
            rules: vec![top_rule(1, top, 2)],
            ..Draft::default()
        }
    }

    #[test]
    fn a_top_cut_is_an_elimination_stage_the_top_advance_to() {
        let written = swiss_and_top(4).body().expect("a body");
        assert_eq!(written["stages"][1]["format"], "single_elimination");
        assert_eq!(written["advancement"][0]["placements"], json!([1, 4]));
        assert_eq!(written["advancement"][0]["toStage"], 2);
        assert_eq!(written["stages"][0]["settings"]["rounds"], 5);
        assert_eq!(written["maxParticipants"], 32);
        let parsed: CreateTournamentBody = serde_json::from_value(written).expect("the API's body");
        assert!(tournaments_json::create_request(Game::Lor, parsed).is_ok());
    }

    #[test]
    fn a_points_rule_with_an_open_end_and_bad_numbers_are_read_as_typed() {
        let mut draft = swiss_and_top(8);
        draft.rules[0] = RuleDraft {
            from: "1".into(),
            kind: "points".into(),
            low: "9".into(),
            high: String::new(),
            action: "eliminate".into(),
            to: String::new(),
        };
        let written = draft.body().expect("a body");
        assert_eq!(written["advancement"][0]["points"], json!([9.0, null]));
        assert!(written["advancement"][0].get("toStage").is_none());
        draft.rules[0].low = "nine".into();
        assert_eq!(
            draft.body().expect_err("refused"),
            "Advancement rule 1: points are a number, not “nine”."
        );
        draft.max = "many".into();
        draft.rules.clear();
        assert_eq!(
            draft.body().expect_err("refused"),
            "Maximum participants is a whole number, not “many”."
        );
    }
}
