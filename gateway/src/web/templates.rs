//! Templates: the builder's Switch template and Save as Template forms, and Settings →
//! Templates (the game's Turny templates, hidden or shown, and the viewer's own: rename, make
//! public or private, copy the link that opens the builder on it, delete).

// `ApiError` is what the services' failures arrive as; it lives for one response.
#![allow(clippy::result_large_err)]

use axum::extract::{Path, Query};
use axum::response::{IntoResponse, Redirect};
use axum::routing::{get, post};
use axum::{Form, Router};
use maud::{Markup, html};
use proto::decks::v1 as pb;
use proto::scripts::v1 as scripts_pb;
use serde::Deserialize;

use super::answer::{PageResult, account_form, failed, no_action, signed_in};
use super::layout::{csrf_field, game_name, page, urlencode};
use super::session::Viewer;
use super::settings::{GameQuery, action_button, game_tabs, settings_game};
use crate::auth::Calls;
use crate::state::AppState;

/// The templates' settings routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/settings/templates", get(list))
        .route("/settings/templates/{id}", post(act))
}

/// The address that opens the builder on a template.
pub fn builder_link(slug: &str, id: &str) -> String {
    format!("/{slug}/deck-builder?template={}", urlencode(id))
}

/// The builder's template forms: Switch template, and (signed in, every pile empty) Save as
/// Template with the deck set rule it is for.
#[allow(clippy::too_many_arguments)]
pub fn forms(
    viewer: &Viewer,
    slug: &str,
    current: Option<&(String, String, bool)>,
    as_lineup: Option<&str>,
    templates: &[pb::Template],
    rulesets: &[scripts_pb::Ruleset],
    hidden: &[(String, String)],
    empty: bool,
) -> Markup {
    let (turny, own): (Vec<&pb::Template>, Vec<&pb::Template>) =
        templates.iter().partition(|template| template.built_in);
    let current_id = current.map_or("", |(id, _, _)| id.as_str());
    let decksets: Vec<&scripts_pb::Ruleset> = rulesets
        .iter()
        .filter(|ruleset| {
            ruleset.scope == i32::from(scripts_pb::RuleScope::Deckset) && ruleset.enabled
        })
        .collect();
    html! {
        details class="templates" {
            summary { "Template: " @if let Some((_, name, _)) = current { (name) } @else { "none" } }
            form method="get" action={ "/" (slug) "/deck-builder" } class="stack" {
                label for="pick-template" { "Switch template" }
                select id="pick-template" name="template" {
                    option value="" selected[current.is_none()] { "The game's layout" }
                    @for (group, members) in [("Turny templates", &turny), ("Your templates", &own)] {
                        @if !members.is_empty() {
                            optgroup label=(group) {
                                @for template in members.iter() {
                                    option value=(template.id) selected[template.id == current_id] { (template.name) }
                                }
                            }
                        }
                    }
                }
                p class="help" { "Switching replaces every pile, cards included: save the deck first to keep it." }
                button type="submit" { "Switch template" }
            }
            @if let Some(link) = as_lineup {
                p class="warning" id="multi-deck-template" {
                    "This template is a Multi deck layout: every pile is a deck of a lineup. "
                    a href=(link) { "Open it in Multi deck" }
                }
            }
            @if viewer.caller.account().is_some() && empty {
                form method="post" action={ "/" (slug) "/deck-builder/template" } class="stack" id="save-template" {
                    (csrf_field(viewer))
                    @for (name, value) in hidden { input type="hidden" name=(name) value=(value); }
                    label for="template-name" { "Save as Template" }
                    input id="template-name" name="name" required maxlength="100" placeholder="Template name";
                    label for="template-deckset" { "Deck set rule it is for" }
                    select id="template-deckset" name="deckset" required {
                        @for ruleset in &decksets { option value=(ruleset.id) { (ruleset.name) } }
                    }
                    @if decksets.is_empty() { p class="help" { "A template needs a deck set rule: make one in Settings → Rulesets." } }
                    label { input type="checkbox" name="pin" value="on"; " Also save the card ruleset" }
                    label { input type="checkbox" name="public" value="on"; " Public" }
                    button type="submit" disabled[decksets.is_empty()] { "Save as Template" }
                }
            }
        }
    }
}

async fn list(viewer: Viewer, calls: Calls, Query(query): Query<GameQuery>) -> PageResult {
    signed_in(&viewer)?;
    let (slug, game) = settings_game(&query.game)?;
    let listed = calls
        .decks()
        .map_err(failed)?
        .list_templates(pb::ListTemplatesRequest {
            game: proto::game::to_wire(game),
            page_size: 100,
            page_token: String::new(),
            include_hidden: true,
        })
        .await
        .map_err(failed)?;
    let name = game_name(slug).unwrap_or(slug);
    Ok(page(
        &viewer,
        "Templates",
        html! {
            h1 { "Templates" }
            (game_tabs("/settings/templates", slug))
            h2 { (name) " templates" }
            @if listed.templates.is_empty() { p { "None yet: save one from the deck builder while every pile is empty." } }
            @else {
                div class="table-scroll" { table class="templates" {
                    thead { tr { th scope="col" { "Name" } th scope="col" { "Piles" } th scope="col" { "Link" } th scope="col" { "Actions" } } }
                    tbody { @for template in &listed.templates {
                        @let path = format!("/settings/templates/{}", urlencode(&template.id));
                        @let act = |action: &str, label: &str| action_button(&viewer, &path, slug, action, label, &template.name);
                        @let link = builder_link(slug, &template.id);
                        @let field = format!("link-{}", template.id);
                        tr data-id=(template.id) {
                            td {
                                (template.name) " "
                                @if template.built_in { span class="badge" { "Turny" } }
                                @else { span class="badge" { @if template.public { "Public" } @else { "Private" } } }
                                @if template.hidden { " " span class="badge" { "Hidden" } }
                            }
                            td { (template.piles.iter().map(|pile| pile.name.as_str()).collect::<Vec<_>>().join(", ")) }
                            td {
                                a href=(link) { "Open in deck builder" }
                                input type="hidden" id=(field) value=(link);
                                " " button type="button" class="secondary small" data-copy=(field) hidden aria-label={ "Copy link of " (template.name) } { "Copy link" }
                            }
                            td class="actions" {
                                @if template.built_in {
                                    @if template.hidden { (act("show", "Show")) } @else { (act("hide", "Hide")) }
                                } @else {
                                    @if template.public { (act("private", "Make private")) } @else { (act("public", "Make public")) }
                                    (act("delete", "Delete"))
                                    form method="post" action=(path) class="inline rename" {
                                        (csrf_field(&viewer))
                                        input type="hidden" name="game" value=(slug);
                                        input type="hidden" name="action" value="rename";
                                        label class="visually-hidden" for={ "rename-" (template.id) } { "New name of " (template.name) }
                                        input id={ "rename-" (template.id) } name="name" value=(template.name) maxlength="100" required;
                                        button type="submit" class="secondary small" aria-label={ "Rename " (template.name) } { "Rename" }
                                    }
                                }
                            }
                        }
                    } }
                } }
            }
        },
    )
    .into_response())
}

/// The fields of a template action's form.
#[derive(Debug, Deserialize)]
struct TemplateAction {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    game: String,
    #[serde(default)]
    action: String,
    #[serde(default)]
    name: String,
}

async fn act(
    viewer: Viewer,
    calls: Calls,
    Path(id): Path<String>,
    Form(form): Form<TemplateAction>,
) -> PageResult {
    account_form(&viewer, &form.csrf)?;
    let (slug, game) = settings_game(&form.game)?;
    let game = proto::game::to_wire(game);
    let decks = calls.decks().map_err(failed)?;
    let update = |name: Option<String>, public: Option<bool>| pb::UpdateTemplateRequest {
        game,
        id: id.clone(),
        name,
        public,
    };
    let hide = |hidden: bool| pb::HideTemplateRequest {
        game,
        id: id.clone(),
        hidden,
    };
    let done = match form.action.as_str() {
        "show" => decks.hide_template(hide(false)).await.map(drop),
        "hide" => decks.hide_template(hide(true)).await.map(drop),
        "public" => decks
            .update_template(update(None, Some(true)))
            .await
            .map(drop),
        "private" => decks
            .update_template(update(None, Some(false)))
            .await
            .map(drop),
        "rename" => decks
            .update_template(update(Some(form.name.clone()), None))
            .await
            .map(drop),
        "delete" => decks
            .delete_template(pb::DeleteTemplateRequest {
                game,
                id: id.clone(),
            })
            .await
            .map(drop),
        other => {
            return Err(no_action(other, "on a template"));
        }
    };
    done.map_err(failed)?;
    Ok(Redirect::to(&format!("/settings/templates?game={slug}")).into_response())
}
