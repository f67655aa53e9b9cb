//! Settings pages of the signed-in viewer (API tokens, rulesets) and public profiles.
//!
//! A settings page asks for an account: a visitor who is not signed in is sent to `/signin`.
//! Every change is a form post with the CSRF token, made with the viewer's own session, so the
//! accounts service applies the same ownership rule as for the JSON routes.

// `ApiError` is what the services' failures arrive as; it lives for one response.
#![allow(clippy::result_large_err)]

use axum::Form;
use axum::Router;
use axum::extract::Path;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use http::StatusCode;
use kit::auth::Scope;
use maud::{Markup, html};
use proto::accounts::v1 as pb;
use proto::scripts::v1 as scripts_pb;
use serde::Deserialize;

use super::answer::{
    PageResult, account_form, again, failed, known_game, no_action, refused, signed_in, typed,
};
use super::layout::{GAMES, csrf_field, game_name, page};
use super::session::Viewer;
use crate::api::accounts::failed as account_failed;
use crate::auth::Calls;
use crate::state::AppState;

/// The settings and profile routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/settings/tokens", get(tokens).post(create_token))
        .route("/settings/tokens/{id}/revoke", post(revoke_token))
        .route("/users/{username}", get(profile))
        .route("/settings/rulesets", get(rulesets).post(create_ruleset))
        .route("/settings/rulesets/{id}", post(act_on_ruleset))
}

/// A settings page's tabs, one per game, the page's own (`slug`) marked.
pub fn game_tabs(path: &str, slug: &str) -> Markup {
    html! {
        nav aria-label="Games" { ul class="tabs" {
            @for (other, label) in GAMES {
                li { a href={ (path) "?game=" (other) } aria-current=[(other == slug).then_some("page")] { (label) } }
            }
        } }
    }
}

/// One action on something the viewer owns: a button in its own small form, named for what
/// it acts on (`Duplicate Two-of`) so a screen reader tells the rows apart.
pub fn action_button(
    viewer: &Viewer,
    path: &str,
    game: &str,
    action: &str,
    label: &str,
    on: &str,
) -> Markup {
    html! {
        form method="post" action=(path) class="inline" {
            (csrf_field(viewer))
            input type="hidden" name="game" value=(game);
            input type="hidden" name="action" value=(action);
            button type="submit" class="secondary small" aria-label={ (label) " " (on) } { (label) }
        }
    }
}

/// The fields of an action's form.
#[derive(Debug, Deserialize)]
pub struct ActionForm {
    #[serde(default)]
    pub csrf: String,
    #[serde(default)]
    pub game: String,
    #[serde(default)]
    pub action: String,
}

/// Switches a ruleset on or off, shares or unshares it, duplicates it, brings a saved copy up
/// to date, or deletes it, then shows the list again.
async fn act_on_ruleset(
    viewer: Viewer,
    calls: Calls,
    Path(id): Path<String>,
    Form(form): Form<ActionForm>,
) -> PageResult {
    account_form(&viewer, &form.csrf)?;
    let (slug, game) = settings_game(&form.game)?;
    let game = proto::game::to_wire(game);
    let scripts = calls.scripts().map_err(failed)?;
    let update = |enabled: Option<bool>, public: Option<bool>| scripts_pb::UpdateRulesetRequest {
        game,
        id: id.clone(),
        name: None,
        source: None,
        public,
        enabled,
        direct_bans: None,
    };
    let done = match form.action.as_str() {
        "show" => scripts
            .update_ruleset(update(Some(true), None))
            .await
            .map(drop),
        "hide" => scripts
            .update_ruleset(update(Some(false), None))
            .await
            .map(drop),
        "public" => scripts
            .update_ruleset(update(None, Some(true)))
            .await
            .map(drop),
        "private" => scripts
            .update_ruleset(update(None, Some(false)))
            .await
            .map(drop),
        "duplicate" => scripts
            .duplicate_ruleset(scripts_pb::DuplicateRulesetRequest {
                game,
                id: id.clone(),
            })
            .await
            .map(drop),
        "update" => scripts
            .update_ruleset_copy(scripts_pb::UpdateRulesetCopyRequest {
                game,
                id: id.clone(),
            })
            .await
            .map(drop),
        "delete" => scripts
            .delete_ruleset(scripts_pb::DeleteRulesetRequest {
                game,
                id: id.clone(),
            })
            .await
            .map(drop),
        // From a profile: a read-only copy of the author's latest version.
        "save" => scripts
            .save_ruleset(scripts_pb::SaveRulesetRequest {
                game,
                id: id.clone(),
                version: None,
                from: "profile".to_owned(),
                tournament: String::new(),
            })
            .await
            .map(drop),
        other => {
            return Err(no_action(other, "on a ruleset"));
        }
    };
    done.map_err(failed)?;
    Ok(Redirect::to(&format!("/settings/rulesets?game={slug}")).into_response())
}

/// A time of the accounts service as `YYYY-MM-DD HH:MM` UTC, or `never`.
pub fn when(time: Option<&pbjson_types::Timestamp>) -> String {
    time.and_then(|time| jiff::Timestamp::new(time.seconds, 0).ok())
        .map_or_else(
            || "never".to_owned(),
            |time| time.strftime("%Y-%m-%d %H:%M UTC").to_string(),
        )
}

fn scope_names(scopes: &[i32]) -> String {
    scopes
        .iter()
        .filter_map(|scope| match pb::Scope::try_from(*scope) {
            Ok(pb::Scope::Read) => Some(Scope::Read.name()),
            Ok(pb::Scope::Write) => Some(Scope::Write.name()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The tokens page, with a secret just made shown once above the list, or a problem.
async fn tokens_page(
    viewer: &Viewer,
    calls: &Calls,
    made: Option<(String, String)>,
    problem: Option<String>,
) -> PageResult {
    let listed = calls
        .accounts()
        .map_err(failed)?
        .list_api_tokens()
        .await
        .map_err(|error| failed(account_failed(error)))?;
    Ok(page(
        viewer,
        "API tokens",
        html! {
            h1 { "API tokens" }
            p { "A token lets a program call the API as you: " code { "Authorization: Bearer <token>" } "." }
            @if let Some((name, secret)) = &made {
                div class="ok" role="status" id="new-token" {
                    p { "Token " strong { (name) } " made. Copy it now: it is not shown again." }
                    p { code class="secret" { (secret) } }
                }
            }
            @if let Some(problem) = &problem { p class="error" role="alert" id="form-error" { (problem) } }
            form method="post" action="/settings/tokens" class="stack" {
                (csrf_field(viewer))
                label for="token-name" { "Name" }
                input id="token-name" name="name" required maxlength="100";
                fieldset {
                    legend { "May" }
                    label { input type="checkbox" name="read" value="on" checked; " read" }
                    " "
                    label { input type="checkbox" name="write" value="on"; " write" }
                }
                button type="submit" { "Make a token" }
            }
            h2 { "Your tokens" }
            @if listed.api_tokens.is_empty() {
                p { "None yet." }
            } @else {
                div class="table-scroll" { table {
                    thead { tr {
                        th scope="col" { "Name" } th scope="col" { "May" } th scope="col" { "Made" }
                        th scope="col" { "Last used" } th scope="col" { span class="visually-hidden" { "Revoke" } }
                    } }
                    tbody {
                        @for token in &listed.api_tokens {
                            tr {
                                td { (token.name) }
                                td { (scope_names(&token.scopes)) }
                                td { (when(token.create_time.as_ref())) }
                                td { (when(token.last_use_time.as_ref())) }
                                td {
                                    form method="post" action={ "/settings/tokens/" (token.id) "/revoke" } class="inline" {
                                        (csrf_field(viewer))
                                        button type="submit" class="secondary" aria-label={ "Revoke " (token.name) } { "Revoke" }
                                    }
                                }
                            }
                        }
                    }
                } }
            }
        },
    )
    .into_response())
}

async fn tokens(viewer: Viewer, calls: Calls) -> PageResult {
    signed_in(&viewer)?;
    tokens_page(&viewer, &calls, None, None).await
}

/// The fields of the new-token form.
#[derive(Debug, Deserialize)]
struct TokenForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    name: String,
    read: Option<String>,
    write: Option<String>,
}

async fn create_token(viewer: Viewer, calls: Calls, Form(form): Form<TokenForm>) -> PageResult {
    account_form(&viewer, &form.csrf)?;
    let mut scopes = Vec::new();
    if form.read.is_some() {
        scopes.push(kit::clients::accounts::scope_to_proto(Scope::Read) as i32);
    }
    if form.write.is_some() {
        scopes.push(kit::clients::accounts::scope_to_proto(Scope::Write) as i32);
    }
    let answer = calls
        .accounts()
        .map_err(failed)?
        .create_api_token(pb::CreateApiTokenRequest {
            name: form.name.clone(),
            scopes,
            expire_time: None,
        })
        .await;
    match answer {
        Ok(made) => tokens_page(&viewer, &calls, Some((form.name, made.token)), None).await,
        Err(error) => {
            let error = refused(account_failed(error))?;
            let page = tokens_page(&viewer, &calls, None, Some(error.message().to_owned())).await?;
            again(&error, page)
        }
    }
}

#[derive(Debug, Deserialize)]
struct CsrfForm {
    #[serde(default)]
    csrf: String,
}

async fn revoke_token(
    viewer: Viewer,
    calls: Calls,
    Path(id): Path<String>,
    Form(form): Form<CsrfForm>,
) -> PageResult {
    account_form(&viewer, &form.csrf)?;
    calls
        .accounts()
        .map_err(failed)?
        .revoke_api_token(&id)
        .await
        .map_err(|error| failed(account_failed(error)))?;
    Ok(Redirect::to("/settings/tokens").into_response())
}

async fn profile(viewer: Viewer, calls: Calls, Path(username): Path<String>) -> PageResult {
    let answer = calls
        .accounts()
        .map_err(failed)?
        .get_user(&username)
        .await
        .map_err(|error| failed(account_failed(error)))?;
    let Some(user) = answer.user else {
        return Err(failed(crate::ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            "no such user",
        )));
    };
    let own = viewer
        .username()
        .is_some_and(|name| name.eq_ignore_ascii_case(&user.username));
    let public = public_of(&calls, &user.username).await;
    let slug_of = |game: i32| proto::game::from_wire(game).map_or("", proto::game::Game::name);
    let game_label = |game: i32| game_name(slug_of(game)).unwrap_or("");
    let body: Markup = html! {
        h1 { (user.username) }
        p { "Member since " (when(user.create_time.as_ref())) "." }
        @if own { p { a href="/settings/tokens" { "API tokens" } } }
        @if public.decks.is_empty() && public.rulesets.is_empty() && public.calculators.is_empty() && public.templates.is_empty() {
            p { "Nothing public yet." }
        }
        @if !public.decks.is_empty() {
            section aria-labelledby="decks-heading" {
                h2 id="decks-heading" { "Decks" }
                ul class="public-decks" { @for deck in &public.decks {
                    li { a href={ "/" (slug_of(deck.game)) "/deck-builder?saved=" (super::layout::urlencode(&deck.id)) } { (deck.name) }
                         " · " (game_label(deck.game)) " · " (deck.main_count) " cards" }
                } }
            }
        }
        @if !public.rulesets.is_empty() {
            section aria-labelledby="rulesets-heading" {
                h2 id="rulesets-heading" { "Rulesets" }
                @for scope in [scripts_pb::RuleScope::Deckset, scripts_pb::RuleScope::Deck, scripts_pb::RuleScope::Card] {
                    @let of_scope: Vec<&scripts_pb::Ruleset> = public.rulesets.iter().filter(|ruleset| ruleset.scope == i32::from(scope)).collect();
                    @if !of_scope.is_empty() {
                        h3 { (match scope { scripts_pb::RuleScope::Deckset => "Deck set rules", scripts_pb::RuleScope::Card => "Card rules", _ => "Deck rules" }) }
                        ul class="public-rulesets" { @for ruleset in &of_scope {
                            li {
                                (ruleset.name) " · " (game_label(ruleset.game)) " · version " (ruleset.version)
                                @if viewer.caller.account().is_some() && !own {
                                    " " (action_button(&viewer, &format!("/settings/rulesets/{}", super::layout::urlencode(&ruleset.id)), slug_of(ruleset.game), "save", "Save to my rulesets", &ruleset.name))
                                }
                                details class="view-code" { summary { "Show source" } (annotated(&ruleset.source, &[])) }
                            }
                        } }
                    }
                }
            }
        }
        @if !public.calculators.is_empty() {
            section aria-labelledby="calculators-heading" {
                h2 id="calculators-heading" { "Calculators" }
                ul class="public-calculators" { @for calculator in &public.calculators {
                    li {
                        (calculator.name) " · " (game_label(calculator.game)) " · updated " (when(calculator.update_time.as_ref()))
                        details class="view-code" { summary { "Show source" } (annotated(&calculator.source, &[])) }
                    }
                } }
            }
        }
        @if !public.templates.is_empty() {
            section aria-labelledby="templates-heading" {
                h2 id="templates-heading" { "Templates" }
                ul class="public-templates" { @for template in &public.templates {
                    li { a href={ "/" (slug_of(template.game)) "/deck-builder?template=" (super::layout::urlencode(&template.id)) } { (template.name) }
                         " · " (game_label(template.game)) " · " (template.piles.len()) " piles" }
                } }
            }
        }
    };
    Ok(page(&viewer, &user.username, body).into_response())
}

/// What a profile shows: the user's public decks, rulesets, calculators and templates, every
/// game. A list that cannot be read shows as empty rather than failing the whole page.
#[derive(Default)]
struct Public {
    decks: Vec<proto::decks::v1::SavedDeck>,
    rulesets: Vec<scripts_pb::Ruleset>,
    calculators: Vec<proto::calculators::v1::Calculator>,
    templates: Vec<proto::decks::v1::Template>,
}

async fn public_of(calls: &Calls, username: &str) -> Public {
    use proto::calculators::v1 as calculators_pb;
    use proto::decks::v1 as decks_pb;
    let mut public = Public::default();
    if let Ok(decks) = calls.decks() {
        public.decks = decks
            .list_public_decks(decks_pb::ListPublicDecksRequest {
                username: username.to_owned(),
                game: 0,
                page_size: 100,
                page_token: String::new(),
            })
            .await
            .map(|answer| answer.decks)
            .unwrap_or_default();
        public.templates = decks
            .list_public_templates(decks_pb::ListPublicTemplatesRequest {
                username: username.to_owned(),
                game: 0,
                page_size: 100,
                page_token: String::new(),
            })
            .await
            .map(|answer| answer.templates)
            .unwrap_or_default();
    }
    if let Ok(scripts) = calls.scripts() {
        public.rulesets = scripts
            .list_public_rulesets(scripts_pb::ListPublicRulesetsRequest {
                username: username.to_owned(),
                game: 0,
            })
            .await
            .map(|answer| answer.rulesets)
            .unwrap_or_default();
    }
    if let Ok(calculators) = calls.calculators() {
        public.calculators = calculators
            .list_public_calculators(calculators_pb::ListPublicCalculatorsRequest {
                username: username.to_owned(),
                game: 0,
            })
            .await
            .map(|answer| answer.calculators)
            .unwrap_or_default();
    }
    public
}

/// The query string of a settings page: which game.
#[derive(Debug, Deserialize)]
pub struct GameQuery {
    #[serde(default)]
    pub game: String,
}

/// The game a settings page is about: `lor` unless it names another.
pub fn settings_game(slug: &str) -> Result<(&str, proto::game::Game), Response> {
    let slug = if slug.is_empty() { "lor" } else { slug };
    let (game, _) = known_game(slug)?;
    Ok((slug, game))
}

fn scope_name(scope: i32) -> &'static str {
    match scripts_pb::RuleScope::try_from(scope) {
        Ok(scripts_pb::RuleScope::Card) => "card",
        Ok(scripts_pb::RuleScope::Deck) => "deck",
        Ok(scripts_pb::RuleScope::Deckset) => "deck set",
        _ => "",
    }
}

/// What the new-ruleset form was sent with, to show again with its problems.
#[derive(Debug, Default, Deserialize)]
struct RulesetForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    game: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    scope: String,
    #[serde(default)]
    source: String,
    public: Option<String>,
}

/// Why a ruleset was refused: a message, and the safety check's issues by line.
#[derive(Debug, Default)]
struct Refusal {
    message: String,
    issues: Vec<scripts_pb::SafetyIssue>,
}

/// "View code" for each ruleset of a list: its source, line by line.
fn view_code(rulesets: &[&scripts_pb::Ruleset]) -> Markup {
    html! {
        @for ruleset in rulesets {
            details class="view-code" {
                summary { "View code: " (ruleset.name) }
                (annotated(&ruleset.source, &[]))
            }
        }
    }
}

/// The source with its lines numbered and each issue under its line.
pub fn annotated(source: &str, issues: &[scripts_pb::SafetyIssue]) -> Markup {
    html! {
        ol class="code" aria-label="The script, line by line" tabindex="0" {
            @for (at, line) in source.lines().enumerate() {
                @let number = u32::try_from(at + 1).unwrap_or(u32::MAX);
                @let here: Vec<&scripts_pb::SafetyIssue> = issues.iter().filter(|issue| issue.line == number).collect();
                li class=(if here.is_empty() { "" } else { "flagged" }) {
                    code { (line) }
                    @for issue in here {
                        span class="issue error" { "Line " (issue.line) ", column " (issue.column) ": " (issue.message) " (" (issue.code) ")" }
                    }
                }
            }
        }
    }
}

async fn rulesets_page(
    viewer: &Viewer,
    calls: &Calls,
    slug: &str,
    game: proto::game::Game,
    form: &RulesetForm,
    refusal: Option<&Refusal>,
) -> PageResult {
    let listed = calls
        .scripts()
        .map_err(failed)?
        .list_rulesets(scripts_pb::ListRulesetsRequest {
            game: proto::game::to_wire(game),
            scope: scripts_pb::RuleScope::Unspecified.into(),
        })
        .await
        .map_err(failed)?;
    let (built_in, own): (Vec<&scripts_pb::Ruleset>, Vec<&scripts_pb::Ruleset>) =
        listed.rulesets.iter().partition(|ruleset| ruleset.built_in);
    let name = game_name(slug).unwrap_or(slug);
    let scope = if form.scope.is_empty() {
        "deck"
    } else {
        form.scope.as_str()
    };
    Ok(page(
        viewer,
        "Rulesets",
        html! {
            h1 { "Rulesets" }
            (game_tabs("/settings/rulesets", slug))
            h2 { "Your " (name) " rulesets" }
            @if own.is_empty() {
                p { "None yet." }
            } @else {
                div class="table-scroll" { table class="rulesets" {
                    thead { tr { th scope="col" { "Name" } th scope="col" { "Checks" } th scope="col" { "Version" } th scope="col" { "Shared" } th scope="col" { "Actions" } } }
                    tbody { @for ruleset in &own {
                        @let path = format!("/settings/rulesets/{}", super::layout::urlencode(&ruleset.id));
                        @let act = |action: &str, label: &str| action_button(viewer, &path, slug, action, label, &ruleset.name);
                        tr data-id=(ruleset.id) {
                            td { (ruleset.name)
                                 @if ruleset.downloaded { " " span class="badge" { "Downloaded" } }
                                 @if !ruleset.enabled { " " span class="badge" { "Hidden from rule pickers" } }
                                 @if ruleset.update_available { " " span class="warning" { "Update available" } } }
                            td { (scope_name(ruleset.scope)) }
                            td { (ruleset.version) }
                            td { @if ruleset.downloaded { "saved copy" } @else if ruleset.public { "public" } @else { "private" } }
                            td class="actions" {
                                @if ruleset.enabled { (act("hide", "Hide")) } @else { (act("show", "Show")) }
                                @if !ruleset.downloaded {
                                    @if ruleset.public { (act("private", "Make private")) } @else { (act("public", "Make public")) }
                                }
                                @if ruleset.update_available { (act("update", "Update")) }
                                (act("duplicate", "Duplicate"))
                                (act("delete", if ruleset.downloaded { "Remove" } else { "Delete" }))
                            }
                        }
                    } }
                } }
            }
            (view_code(&own))
            h2 { "Built-in " (name) " rules" }
            div class="table-scroll" { table class="built-in" {
                thead { tr { th scope="col" { "Name" } th scope="col" { "Checks" } th scope="col" { "Actions" } } }
                tbody { @for ruleset in &built_in {
                    tr data-id=(ruleset.id) {
                        td { (ruleset.name) }
                        td { (scope_name(ruleset.scope)) }
                        td class="actions" {
                            (action_button(viewer, &format!("/settings/rulesets/{}", super::layout::urlencode(&ruleset.id)), slug, "duplicate", "Duplicate", &ruleset.name))
                        }
                    }
                } }
            } }
            (view_code(&built_in))
            h2 { "New ruleset" }
            @if let Some(refusal) = refusal {
                div class="error" role="alert" id="form-error" {
                    p { (refusal.message) }
                    @if !refusal.issues.is_empty() { (annotated(&form.source, &refusal.issues)) }
                }
            }
            form method="post" action="/settings/rulesets" class="stack wide" {
                (csrf_field(viewer))
                input type="hidden" name="game" value=(slug);
                label for="ruleset-name" { "Name" }
                input id="ruleset-name" name="name" required maxlength="100" value=(form.name);
                label for="ruleset-scope" { "Checks" }
                select id="ruleset-scope" name="scope" {
                    @for (value, label) in [("card", "each card"), ("deck", "a deck"), ("deckset", "a deck set (lineup)")] {
                        option value=(value) selected[value == scope] { (label) }
                    }
                }
                label for="ruleset-source" { "Script" }
                textarea id="ruleset-source" name="source" rows="14" spellcheck="false" required { (form.source) }
                label { input type="checkbox" name="public" value="on" checked[form.public.is_some()]; " Public (listed on your profile)" }
                button type="submit" { "Save ruleset" }
            }
        },
    )
    .into_response())
}

async fn rulesets(
    viewer: Viewer,
    calls: Calls,
    axum::extract::Query(query): axum::extract::Query<GameQuery>,
) -> PageResult {
    signed_in(&viewer)?;
    let (slug, game) = settings_game(&query.game)?;
    rulesets_page(&viewer, &calls, slug, game, &RulesetForm::default(), None).await
}

async fn create_ruleset(viewer: Viewer, calls: Calls, Form(form): Form<RulesetForm>) -> PageResult {
    account_form(&viewer, &form.csrf)?;
    let (slug, game) = settings_game(&form.game)?;
    let scope = match form.scope.as_str() {
        "card" => scripts_pb::RuleScope::Card,
        "deckset" => scripts_pb::RuleScope::Deckset,
        _ => scripts_pb::RuleScope::Deck,
    };
    let answer = calls
        .scripts()
        .map_err(failed)?
        .create_ruleset(scripts_pb::CreateRulesetRequest {
            game: proto::game::to_wire(game),
            name: form.name.clone(),
            scope: scope.into(),
            source: typed(&form.source),
            public: form.public.is_some(),
            direct_bans: Vec::new(),
        })
        .await;
    match answer {
        Ok(_) => Ok(Redirect::to(&format!("/settings/rulesets?game={slug}")).into_response()),
        Err(error) => {
            let issues = error
                .detail::<scripts_pb::UnsafeScript>()
                .map(|unsafe_script| unsafe_script.issues)
                .unwrap_or_default();
            let api = refused(error)?;
            let refusal = Refusal {
                message: api.message().to_owned(),
                issues,
            };
            let page = rulesets_page(&viewer, &calls, slug, game, &form, Some(&refusal)).await?;
            again(&api, page)
        }
    }
}
