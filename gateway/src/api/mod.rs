//! The versioned JSON API under `/api/v1`, which the web frontend calls.
//!
//! Each resource gets a module here with its routes and its `#[derive(OpenApi)]` document,
//! and one line in each of [`routes`] and [`openapi_parts`]. Handlers convert JSON to a
//! service's request, call it over [`crate::upstream::Upstreams`], and convert back; errors
//! become [`crate::ApiError`] with `?`. Business rules stay in the services.

use axum::Router;

use crate::state::AppState;

/// Returns the `/api/v1/...` routes (none yet: every path there gets the 404 fallback).
pub fn routes() -> Router<AppState> {
    // TODO(gateway): mount the catalog, search, decks, scripts, tournaments and calculators
    // resources as their issues land; until then the fallback answers a JSON 404.
    Router::new()
}

/// Returns the OpenAPI documents of the `/api/v1` modules, merged into [`crate::openapi()`].
pub fn openapi_parts() -> Vec<utoipa::openapi::OpenApi> {
    Vec::new()
}
