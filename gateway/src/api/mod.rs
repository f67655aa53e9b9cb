//! The versioned JSON API under `/api/v1`, which the web frontend calls.
//!
//! Each resource gets a module here with its routes and its `#[derive(OpenApi)]` document,
//! and one line in each of [`routes`] and [`openapi_parts`]. Handlers convert JSON to a
//! service's request, call it through its typed client ([`crate::AppState::clients`]), and convert back; errors
//! become [`crate::ApiError`] with `?`. Business rules stay in the services.

use axum::Router;
use http::StatusCode;
use proto::game::Game;
use utoipa::OpenApi as _;

use crate::ApiError;

pub mod accounts;
pub mod calculators;
pub mod catalog;
pub mod deck_checks;
pub mod deck_sets;
pub mod decks;
pub mod formats;
pub mod rulesets;
pub mod saved_decks;
pub mod scripts;
pub mod search;
pub mod templates;
pub mod tournaments;

use crate::state::AppState;

/// Returns the `/api/v1/...` routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .merge(accounts::routes())
        .merge(calculators::routes())
        .merge(catalog::routes())
        .merge(deck_checks::routes())
        .merge(deck_sets::routes())
        .merge(decks::routes())
        .merge(formats::routes())
        .merge(rulesets::routes())
        .merge(saved_decks::routes())
        .merge(scripts::routes())
        .merge(search::routes())
        .merge(templates::routes())
        .merge(tournaments::routes())
}

/// Returns the OpenAPI documents of the `/api/v1` modules, merged into [`crate::openapi()`].
pub fn openapi_parts() -> Vec<utoipa::openapi::OpenApi> {
    vec![
        accounts::AccountsDoc::openapi(),
        calculators::CalculatorsDoc::openapi(),
        catalog::CatalogDoc::openapi(),
        deck_checks::DeckChecksDoc::openapi(),
        deck_sets::DeckSetsDoc::openapi(),
        decks::DecksDoc::openapi(),
        formats::FormatsDoc::openapi(),
        rulesets::RulesetsDoc::openapi(),
        saved_decks::SavedDecksDoc::openapi(),
        scripts::ScriptsDoc::openapi(),
        search::SearchDoc::openapi(),
        templates::TemplatesDoc::openapi(),
        tournaments::TournamentsDoc::openapi(),
    ]
}

// Both helpers answer with `ApiError`, which lives for one response (see the route modules).
#[allow(clippy::result_large_err)]
/// Reads the `{game}` path segment: `lor`, `pokemon` or `riftbound`; anything else is a 404
/// `unknown_game`, since no resource lives under it.
pub(crate) fn game(name: &str) -> Result<Game, ApiError> {
    name.parse().map_err(|_| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "unknown_game",
            format!(
                "unknown game `{}` (expected lor, pokemon or riftbound)",
                kit::status::quote(name)
            ),
        )
    })
}

#[allow(clippy::result_large_err)]
/// Writes a message (or any serializable answer) as JSON: its canonical proto3 JSON for the
/// generated messages. Serialization of plain data cannot fail; if it did, it is a 500.
pub(crate) fn to_json<T: serde::Serialize>(value: &T) -> Result<serde_json::Value, ApiError> {
    serde_json::to_value(value).map_err(|_| ApiError::internal())
}

pub(crate) use proto::json::rfc3339;

/// "a, b or c".
fn either(words: &[String]) -> String {
    match words.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

#[allow(clippy::result_large_err)]
/// Reads a resource's custom method (`{id}:{method}`, as the one POST route of `{id}` receives
/// it): the id and the method, one of `methods`. A segment without a method is 405 (only the
/// custom methods are POSTed), an unknown method 404; `kind` names the resource in both.
pub(crate) fn custom_method<'a>(
    target: &'a str,
    kind: &str,
    methods: &[&str],
) -> Result<(String, &'a str), ApiError> {
    let Some((id, method)) = target.rsplit_once(':') else {
        let listed: Vec<String> = methods.iter().map(|m| format!("`:{m}`")).collect();
        return Err(ApiError::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "method_not_allowed",
            format!("POST a {kind}'s {}", either(&listed)),
        ));
    };
    if !methods.contains(&method) {
        let listed: Vec<String> = methods.iter().map(|m| (*m).to_owned()).collect();
        return Err(ApiError::not_found(format!(
            "no action `:{}` of a {kind} (expected {})",
            kit::status::quote(method),
            either(&listed)
        )));
    }
    Ok((id.to_owned(), method))
}

/// Reads a time a request gives (RFC 3339) into its protobuf form, or the 400 naming `field`.
#[allow(clippy::result_large_err)]
pub(crate) fn time_input(text: &str, field: &str) -> Result<pbjson_types::Timestamp, ApiError> {
    text.parse::<jiff::Timestamp>()
        .map(|t| pbjson_types::Timestamp {
            seconds: t.as_second(),
            nanos: t.subsec_nanosecond(),
        })
        .map_err(|_| {
            ApiError::invalid_argument(format!(
                "`{field}`: `{}` is not an RFC 3339 time (2027-01-31T12:00:00Z)",
                kit::status::quote(text)
            ))
            .with_details(serde_json::json!({"field": field}))
        })
}

#[allow(clippy::result_large_err)]
/// Reads a profile's optional `game` query and finds the user: their username as typed at
/// sign-up (what rulesets, decks and templates keep; the accounts service knows it in any case
/// and spelling), or a 404 for no such user.
pub(crate) async fn profile_of(
    calls: &crate::auth::Calls,
    username: String,
    game_name: Option<&str>,
) -> Result<(String, Option<Game>), ApiError> {
    let game = game_name
        .map(|name| {
            game(name).map_err(|_| {
                ApiError::invalid_argument(format!(
                    "`game`: unknown game `{}` (expected lor, pokemon or riftbound)",
                    kit::status::quote(name)
                ))
                .with_details(serde_json::json!({"field": "game"}))
            })
        })
        .transpose()?;
    let user = calls.accounts()?.get_user(&username).await?;
    let username = user.user.map(|user| user.username).unwrap_or(username);
    Ok((username, game))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_custom_method_is_read_off_its_segment_and_a_missing_or_unknown_one_refused() {
        assert_eq!(
            custom_method("rs_1:save", "ruleset", &["duplicate", "save", "update"]).map_err(|_| ()),
            Ok(("rs_1".to_owned(), "save"))
        );
        let missing = custom_method("rs_1", "ruleset", &["duplicate", "save", "update"])
            .expect_err("no method");
        assert_eq!(missing.status(), StatusCode::METHOD_NOT_ALLOWED);
        assert_eq!(
            missing.message(),
            "POST a ruleset's `:duplicate`, `:save` or `:update`"
        );
        let unknown =
            custom_method("calc_1:fly", "calculator", &["duplicate", "run"]).expect_err("unknown");
        assert_eq!(unknown.status(), StatusCode::NOT_FOUND);
        assert_eq!(
            unknown.message(),
            "no action `:fly` of a calculator (expected duplicate or run)"
        );
        assert_eq!(
            custom_method("dk_1:", "deck", &["export"])
                .expect_err("empty")
                .message(),
            "no action `:` of a deck (expected export)"
        );
    }
}
