//! `/api/v1/{game}/calculators`: the default dashboard of each game and the calculators people
//! own — listed, created from a builder spec or a source, read, changed, deleted, duplicated
//! and run on a deck or a deck set — and the builder's calls (`:build`, `:inspect`,
//! `:fields`), through `turnier.calculators.v1.CalculatorService` with the caller's token.

// `ApiError` is what every handler answers with; it lives for one response.
#![allow(clippy::result_large_err)]

use axum::extract::{Path, Query};
use axum::routing::{get, post};
use axum::{Json, Router};
use http::StatusCode;
use proto::calculators::v1 as pb;
use serde::Deserialize;
use serde_json::{Map, Value, json};
use utoipa::OpenApi;

use crate::ApiError;
use crate::auth::Calls;
use crate::state::AppState;

/// The calculators' routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/v1/{game}/calculators", get(list).post(create))
        .route("/api/v1/{game}/calculators:build", post(build))
        .route("/api/v1/{game}/calculators:inspect", post(inspect))
        .route("/api/v1/{game}/calculators:fields", get(fields))
        .route(
            "/api/v1/{game}/calculators/{id}",
            get(read).patch(change).delete(remove).post(act),
        )
        .route("/api/v1/users/{username}/calculators", get(profile))
}

/// The calculators' part of the OpenAPI document.
#[derive(Debug, OpenApi)]
#[openapi(
    paths(list, create, build, inspect, fields, read, change, remove, act, profile),
    components(schemas(CreateCalculatorBody, ChangeCalculatorBody, RunCalculatorBody, BuildBody, InspectBody)),
    tags((name = "calculators", description = "Default dashboards, the no-code builder and the calculators people own"))
)]
pub struct CalculatorsDoc;

/// The body of `POST /api/v1/{game}/calculators`: a spec or a source.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateCalculatorBody {
    name: String,
    /// A builder spec, version 1 (`{"widgets": [...]}`): its source is generated.
    #[schema(value_type = Option<Object>)]
    spec: Option<Value>,
    /// A calculator script.
    source: Option<String>,
    /// Default false: private.
    public: Option<bool>,
}

/// The body of `PATCH /api/v1/{game}/calculators/{id}`: any of its fields.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ChangeCalculatorBody {
    name: Option<String>,
    #[schema(value_type = Option<Object>)]
    spec: Option<Value>,
    source: Option<String>,
    public: Option<bool>,
    /// Shown in deck views; for a default, switched on or off for you alone.
    enabled: Option<bool>,
}

/// The body of `:run`: a deck (`pile`, card ref → copies) or a deck set (`decks`).
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RunCalculatorBody {
    #[schema(value_type = Option<Object>)]
    pile: Option<Map<String, Value>>,
    #[schema(value_type = Option<Vec<Object>>)]
    decks: Option<Vec<Map<String, Value>>>,
}

/// The body of `calculators:build`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BuildBody {
    #[schema(value_type = Object)]
    spec: Value,
}

/// The body of `calculators:inspect`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct InspectBody {
    source: String,
}

/// The query of a profile's calculators.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ProfileQuery {
    game: Option<String>,
}

/// A spec's JSON as it goes on the wire (its key order kept).
fn spec_text(spec: &Value) -> String {
    spec.to_string()
}

/// Writes a calculator as the API shows it.
fn calculator_json(calculator: &pb::Calculator) -> Value {
    let mut out = Map::new();
    out.insert("id".into(), json!(calculator.id));
    out.insert(
        "game".into(),
        json!(proto::game::from_wire(calculator.game).map(proto::game::Game::name)),
    );
    out.insert("name".into(), json!(calculator.name));
    out.insert("source".into(), json!(calculator.source));
    if let Some(spec) = calculator
        .spec_json
        .as_deref()
        .and_then(|spec| serde_json::from_str::<Value>(spec).ok())
    {
        out.insert("spec".into(), spec);
    }
    out.insert(
        "editableInBuilder".into(),
        json!(calculator.editable_in_builder),
    );
    out.insert("builtIn".into(), json!(calculator.built_in));
    out.insert(
        "owner".into(),
        if calculator.built_in {
            Value::Null
        } else {
            json!(calculator.owner)
        },
    );
    out.insert("public".into(), json!(calculator.public));
    out.insert("enabled".into(), json!(calculator.enabled));
    out.insert(
        "createTime".into(),
        super::rfc3339(calculator.create_time.as_ref()),
    );
    out.insert(
        "updateTime".into(),
        super::rfc3339(calculator.update_time.as_ref()),
    );
    Value::Object(out)
}

fn answer(response: &pb::CalculatorResponse) -> Value {
    json!({"calculator": response.calculator.as_ref().map_or(Value::Null, calculator_json)})
}

fn list_json(response: &pb::ListCalculatorsResponse) -> Value {
    json!({"calculators": response.calculators.iter().map(calculator_json).collect::<Vec<_>>()})
}

/// Lists the game's default calculator, then the caller's own.
#[utoipa::path(get, path = "/api/v1/{game}/calculators", tag = "calculators",
    params(("game" = String, Path, description = "lor, pokemon or riftbound")),
    responses((status = 200, description = "`{\"calculators\": [calculator]}`: the default first")))]
async fn list(calls: Calls, Path(game_name): Path<String>) -> Result<Json<Value>, ApiError> {
    let game = super::game(&game_name)?;
    let response = calls
        .calculators()?
        .list_calculators(pb::ListCalculatorsRequest {
            game: proto::game::to_wire(game),
        })
        .await?;
    Ok(Json(list_json(&response)))
}

/// Saves a new calculator of the caller's from a builder spec or a source.
#[utoipa::path(post, path = "/api/v1/{game}/calculators", tag = "calculators", request_body = CreateCalculatorBody,
    security(("bearer" = [])),
    params(("game" = String, Path, description = "lor, pokemon or riftbound")),
    responses((status = 201, description = "`{\"calculator\"}`"),
              (status = 400, description = "`invalid_spec` naming the key, or `invalid_argument`", body = crate::ErrorBody),
              (status = 401, description = "`unauthenticated`", body = crate::ErrorBody),
              (status = 403, description = "`permission_denied`: the token may not write", body = crate::ErrorBody)))]
async fn create(
    calls: Calls,
    Path(game_name): Path<String>,
    Json(body): Json<CreateCalculatorBody>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let game = super::game(&game_name)?;
    let content = match (body.spec, body.source) {
        (Some(spec), None) => pb::create_calculator_request::Body::SpecJson(spec_text(&spec)),
        (None, Some(source)) => pb::create_calculator_request::Body::Source(source),
        _ => {
            return Err(
                ApiError::invalid_argument("give either `spec` or `source`, not both")
                    .with_details(json!({"field": "spec"})),
            );
        }
    };
    let response = calls
        .calculators()?
        .create_calculator(pb::CreateCalculatorRequest {
            game: proto::game::to_wire(game),
            name: body.name,
            body: Some(content),
            public: body.public.unwrap_or(false),
        })
        .await?;
    Ok((StatusCode::CREATED, Json(answer(&response))))
}

/// Generates the script of a builder spec: the same spec always gives the same script.
#[utoipa::path(post, path = "/api/v1/{game}/calculators:build", tag = "calculators", request_body = BuildBody,
    params(("game" = String, Path, description = "lor, pokemon or riftbound")),
    responses((status = 200, description = "`{\"source\"}`"),
              (status = 400, description = "`invalid_spec` naming the key", body = crate::ErrorBody)))]
async fn build(
    calls: Calls,
    Path(game_name): Path<String>,
    Json(body): Json<BuildBody>,
) -> Result<Json<Value>, ApiError> {
    let game = super::game(&game_name)?;
    let response = calls
        .calculators()?
        .build_calculator(pb::BuildCalculatorRequest {
            game: proto::game::to_wire(game),
            spec_json: spec_text(&body.spec),
        })
        .await?;
    Ok(Json(json!({"source": response.source})))
}

/// Tells whether a source opens in the builder: its marker's spec rebuilds to exactly it.
#[utoipa::path(post, path = "/api/v1/{game}/calculators:inspect", tag = "calculators", request_body = InspectBody,
    params(("game" = String, Path, description = "lor, pokemon or riftbound")),
    responses((status = 200, description = "`{\"editableInBuilder\", \"spec\"?}`")))]
async fn inspect(
    calls: Calls,
    Path(game_name): Path<String>,
    Json(body): Json<InspectBody>,
) -> Result<Json<Value>, ApiError> {
    let game = super::game(&game_name)?;
    let response = calls
        .calculators()?
        .inspect_calculator(pb::InspectCalculatorRequest {
            game: proto::game::to_wire(game),
            source: body.source,
        })
        .await?;
    let mut out = Map::new();
    out.insert(
        "editableInBuilder".into(),
        json!(response.editable_in_builder),
    );
    if let Some(spec) = response
        .spec_json
        .as_deref()
        .and_then(|spec| serde_json::from_str::<Value>(spec).ok())
    {
        out.insert("spec".into(), spec);
    }
    Ok(Json(Value::Object(out)))
}

/// The card fields the builder offers for a game.
#[utoipa::path(get, path = "/api/v1/{game}/calculators:fields", tag = "calculators",
    params(("game" = String, Path, description = "lor, pokemon or riftbound")),
    responses((status = 200, description = "`{\"fields\": [{\"id\", \"label\", \"kind\", \"values\"}]}`")))]
async fn fields(calls: Calls, Path(game_name): Path<String>) -> Result<Json<Value>, ApiError> {
    let game = super::game(&game_name)?;
    let response = calls
        .calculators()?
        .list_calculator_fields(pb::ListCalculatorFieldsRequest {
            game: proto::game::to_wire(game),
        })
        .await?;
    let fields: Vec<Value> = response
        .fields
        .iter()
        .map(|field| {
            let mut out = Map::new();
            out.insert("id".into(), json!(field.id));
            out.insert("label".into(), json!(field.label));
            out.insert("kind".into(), json!(field.kind));
            if field.kind == "category" {
                out.insert("values".into(), json!(field.values));
            }
            Value::Object(out)
        })
        .collect();
    Ok(Json(json!({ "fields": fields })))
}

/// A calculator the caller may see.
#[utoipa::path(get, path = "/api/v1/{game}/calculators/{id}", tag = "calculators",
    params(("game" = String, Path, description = "lor, pokemon or riftbound"),
           ("id" = String, Path, description = "A default's id (`lor-deck-breakdown`) or `calc_…`")),
    responses((status = 200, description = "`{\"calculator\"}`"),
              (status = 404, description = "`not_found`", body = crate::ErrorBody)))]
async fn read(
    calls: Calls,
    Path((game_name, id)): Path<(String, String)>,
) -> Result<Json<Value>, ApiError> {
    let game = super::game(&game_name)?;
    let response = calls
        .calculators()?
        .get_calculator(pb::GetCalculatorRequest {
            game: proto::game::to_wire(game),
            id,
        })
        .await?;
    Ok(Json(answer(&response)))
}

/// Changes a calculator of the caller's (a new spec regenerates its source), or switches a
/// default on or off for the caller.
#[utoipa::path(patch, path = "/api/v1/{game}/calculators/{id}", tag = "calculators", request_body = ChangeCalculatorBody,
    security(("bearer" = [])),
    params(("game" = String, Path, description = "lor, pokemon or riftbound"),
           ("id" = String, Path, description = "The calculator's id")),
    responses((status = 200, description = "`{\"calculator\"}`"),
              (status = 400, description = "`invalid_spec` or `invalid_argument`", body = crate::ErrorBody),
              (status = 401, description = "`unauthenticated`", body = crate::ErrorBody),
              (status = 403, description = "`permission_denied`: a default (but for `enabled`) or someone else's", body = crate::ErrorBody),
              (status = 404, description = "`not_found`", body = crate::ErrorBody)))]
async fn change(
    calls: Calls,
    Path((game_name, id)): Path<(String, String)>,
    Json(body): Json<ChangeCalculatorBody>,
) -> Result<Json<Value>, ApiError> {
    let game = super::game(&game_name)?;
    let response = calls
        .calculators()?
        .update_calculator(pb::UpdateCalculatorRequest {
            game: proto::game::to_wire(game),
            id,
            name: body.name,
            spec_json: body.spec.as_ref().map(spec_text),
            source: body.source,
            public: body.public,
            enabled: body.enabled,
        })
        .await?;
    Ok(Json(answer(&response)))
}

/// Deletes a calculator of the caller's.
#[utoipa::path(delete, path = "/api/v1/{game}/calculators/{id}", tag = "calculators",
    security(("bearer" = [])),
    params(("game" = String, Path, description = "lor, pokemon or riftbound"),
           ("id" = String, Path, description = "The calculator's id")),
    responses((status = 204, description = "deleted"),
              (status = 401, description = "`unauthenticated`", body = crate::ErrorBody),
              (status = 403, description = "`permission_denied`", body = crate::ErrorBody),
              (status = 404, description = "`not_found`", body = crate::ErrorBody)))]
async fn remove(
    calls: Calls,
    Path((game_name, id)): Path<(String, String)>,
) -> Result<StatusCode, ApiError> {
    let game = super::game(&game_name)?;
    calls
        .calculators()?
        .delete_calculator(pb::DeleteCalculatorRequest {
            game: proto::game::to_wire(game),
            id,
        })
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `:duplicate` (a private copy of your own) and `:run` (on a deck or a deck set).
#[utoipa::path(post, path = "/api/v1/{game}/calculators/{id}:{action}", tag = "calculators",
    request_body(content = Option<RunCalculatorBody>, description = "for `:run` only: `{\"pile\"}` or `{\"decks\"}`"),
    params(("game" = String, Path, description = "lor, pokemon or riftbound"),
           ("id" = String, Path, description = "The calculator's id"),
           ("action" = String, Path, description = "`duplicate` or `run`")),
    responses((status = 201, description = "`{\"calculator\"}` (`:duplicate`)"),
              (status = 200, description = "`{\"widgets\"}` (`:run`), as the scripts routes print them"),
              (status = 400, description = "`script_error`, `empty_source`, `no_entry_point`, `unsafe_script`, `invalid_argument`", body = crate::ErrorBody),
              (status = 401, description = "`unauthenticated`", body = crate::ErrorBody),
              (status = 404, description = "`not_found`", body = crate::ErrorBody),
              (status = 504, description = "`timeout`: the run took over 5 seconds", body = crate::ErrorBody)))]
async fn act(
    calls: Calls,
    Path((game_name, target)): Path<(String, String)>,
    body: axum::body::Bytes,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let game = proto::game::to_wire(super::game(&game_name)?);
    let (id, action) = super::custom_method(&target, "calculator", &["duplicate", "run"])?;
    let calculators = calls.calculators()?;
    match action {
        "duplicate" => {
            let response = calculators
                .duplicate_calculator(pb::DuplicateCalculatorRequest { game, id })
                .await?;
            Ok((StatusCode::CREATED, Json(answer(&response))))
        }
        // `run`, the one method left.
        _ => {
            let body: RunCalculatorBody = serde_json::from_slice(&body).map_err(|err| {
                ApiError::invalid_argument(format!(
                    "the body is not `{{\"pile\"}}` or `{{\"decks\"}}`: {err}"
                ))
            })?;
            let deck = match (body.pile, body.decks) {
                (Some(pile), None) => {
                    pb::run_calculator_request::Deck::PileJson(Value::Object(pile).to_string())
                }
                (None, Some(decks)) => pb::run_calculator_request::Deck::Decks(pb::DeckSetPiles {
                    pile_json: decks
                        .into_iter()
                        .map(|pile| Value::Object(pile).to_string())
                        .collect(),
                }),
                _ => {
                    return Err(ApiError::invalid_argument(
                        "give either `pile` or `decks`, not both",
                    )
                    .with_details(json!({"field": "pile"})));
                }
            };
            // A run past its time limit keeps its `timeout` code and message, as the scripts
            // routes answer it.
            let response =
                super::scripts::answer(calculators.run_calculator(pb::RunCalculatorRequest {
                    game,
                    id,
                    deck: Some(deck),
                    source: None,
                }))
                .await?;
            let dashboard = response.dashboard.unwrap_or_default();
            Ok((StatusCode::OK, Json(proto::json::dashboard(&dashboard))))
        }
    }
}

/// A user's public calculators, as their profile lists them.
#[utoipa::path(get, path = "/api/v1/users/{username}/calculators", tag = "calculators",
    params(("username" = String, Path, description = "The username, in any case"),
           ("game" = Option<String>, Query, description = "lor, pokemon or riftbound; absent: every game")),
    responses((status = 200, description = "`{\"calculators\": [calculator]}`"),
              (status = 404, description = "`not_found`: no such user", body = crate::ErrorBody)))]
async fn profile(
    calls: Calls,
    Path(username): Path<String>,
    Query(query): Query<ProfileQuery>,
) -> Result<Json<Value>, ApiError> {
    let (username, game) = super::profile_of(&calls, username, query.game.as_deref()).await?;
    let response = calls
        .calculators()?
        .list_public_calculators(pb::ListPublicCalculatorsRequest {
            username,
            game: game.map_or(0, proto::game::to_wire),
        })
        .await?;
    Ok(Json(list_json(&response)))
}
