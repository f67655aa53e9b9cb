//! The OpenAPI 3.1 description of the HTTP API, served at `GET /api/openapi.json`.
//!
//! [`ApiDoc`] describes the operational endpoints and the shared error shape; each `/api/v1`
//! module contributes its own document through [`crate::api::openapi_parts`], merged here.

use utoipa::OpenApi;

use crate::api_error::{ErrorBody, ErrorObject};
use crate::health::{Liveness, Readiness, ServiceHealth};

/// The path the document is served at.
pub const OPENAPI_PATH: &str = "/api/openapi.json";

/// The gateway's own part of the document: probes, metrics and the error schema.
#[derive(Debug, OpenApi)]
#[openapi(
    info(
        title = "Turnier",
        description = "The HTTP/JSON API of Turnier, a multi-game trading-card-game platform: \
                       card catalog and search, deck codes, scripted rules and calculators, \
                       tournaments. Every error response has the `ErrorBody` shape."
    ),
    paths(crate::health::healthz, crate::health::readyz, crate::scrape::metrics),
    components(schemas(ErrorBody, ErrorObject, Liveness, Readiness, ServiceHealth)),
    tags((name = "operations", description = "Probes and metrics for operators")),
)]
pub struct ApiDoc;

/// Returns the complete document: [`ApiDoc`] with every `/api/v1` module's part merged in.
pub fn openapi() -> utoipa::openapi::OpenApi {
    let mut doc = ApiDoc::openapi();
    for part in crate::api::openapi_parts() {
        doc.merge(part);
    }
    utoipa::Modify::modify(&crate::api::accounts::BearerScheme, &mut doc);
    doc
}

/// Returns the document as JSON bytes, built once when the router is.
pub(crate) fn openapi_json() -> axum::body::Bytes {
    serde_json::to_vec(&openapi())
        .expect("an OpenAPI document always serialises: it is plain data with string keys")
        .into()
}
