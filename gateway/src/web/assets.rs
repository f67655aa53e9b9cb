//! Our own stylesheet and scripts, compiled into the binary and served from `/assets/`. Pages
//! link them with their content's hash in the query (`/assets/site.css?v=…`), so they can be
//! cached for a year and a new build is fetched at once.

use std::sync::LazyLock;

use axum::Router;
use axum::extract::Path;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use http::header::{CACHE_CONTROL, CONTENT_TYPE, X_CONTENT_TYPE_OPTIONS};
use sha2::{Digest, Sha256};

use crate::ApiError;
use crate::state::AppState;

/// One asset: its name under `/assets/`, its type and its bytes.
struct Asset {
    name: &'static str,
    content_type: &'static str,
    body: &'static str,
}

const ASSETS: &[Asset] = &[
    Asset {
        name: "site.css",
        content_type: "text/css; charset=utf-8",
        body: include_str!("../../web/site.css"),
    },
    Asset {
        name: "app.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("../../web/app.js"),
    },
    Asset {
        name: "icon.svg",
        content_type: "image/svg+xml",
        body: include_str!("../../web/icon.svg"),
    },
];

/// The first 12 hex digits of each asset's SHA-256, by name.
static VERSIONS: LazyLock<Vec<(&'static str, String)>> = LazyLock::new(|| {
    ASSETS
        .iter()
        .map(|asset| {
            let digest = Sha256::digest(asset.body.as_bytes());
            (asset.name, hex::encode(&digest[..6]))
        })
        .collect()
});

/// The address of asset `name`, with its version: what pages link.
pub fn href(name: &str) -> String {
    let version = VERSIONS
        .iter()
        .find(|(known, _)| *known == name)
        .map_or("", |(_, version)| version.as_str());
    format!("/assets/{name}?v={version}")
}

/// Returns the bytes of every asset together: what a page costs besides its HTML.
pub fn total_bytes() -> usize {
    ASSETS.iter().map(|asset| asset.body.len()).sum()
}

/// The `/assets/{name}` route.
pub fn routes() -> Router<AppState> {
    Router::new().route("/assets/{name}", get(asset))
}

async fn asset(Path(name): Path<String>) -> Response {
    match ASSETS.iter().find(|asset| asset.name == name) {
        Some(asset) => (
            [
                (CONTENT_TYPE, asset.content_type),
                (CACHE_CONTROL, "public, max-age=31536000, immutable"),
                (X_CONTENT_TYPE_OPTIONS, "nosniff"),
            ],
            asset.body,
        )
            .into_response(),
        None => {
            ApiError::not_found(format!("no asset `{}`", kit::status::quote(&name))).into_response()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_asset_has_a_versioned_address() {
        for asset in ASSETS {
            let address = href(asset.name);
            assert!(address.starts_with(&format!("/assets/{}?v=", asset.name)));
            assert_eq!(
                address.len(),
                format!("/assets/{}?v=", asset.name).len() + 12
            );
        }
    }
}
