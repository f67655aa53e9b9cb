//! The versioned JSON API under `/api/v1`, which the web frontend calls.
//!
//! Each resource gets a module here with its routes and its `#[derive(OpenApi)]` document,
//! and one line in each of [`routes`] and [`openapi_parts`]. Handlers convert JSON to a
//! service's request, call it over [`crate::upstream::Upstreams`], and convert back; errors
//! become [`crate::ApiError`] with `?`. Business rules stay in the services.

use axum::Router;
use utoipa::OpenApi as _;

pub mod catalog;
pub mod decks;
pub mod formats;
pub mod search;

use crate::state::AppState;

/// Returns the `/api/v1/...` routes.
pub fn routes() -> Router<AppState> {
    // TODO(gateway): scripts, tournaments and calculators join as their issues land;
    // until then their paths get the JSON 404 fallback.
    Router::new()
        .merge(catalog::routes())
        .merge(decks::routes())
        .merge(formats::routes())
        .merge(search::routes())
}

/// Returns the OpenAPI documents of the `/api/v1` modules, merged into [`crate::openapi()`].
pub fn openapi_parts() -> Vec<utoipa::openapi::OpenApi> {
    vec![
        catalog::CatalogDoc::openapi(),
        decks::DecksDoc::openapi(),
        formats::FormatsDoc::openapi(),
        search::SearchDoc::openapi(),
    ]
}
