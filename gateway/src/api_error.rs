//! The one error shape of the HTTP API, `{"error":{"code","message","details"}}`, and the one
//! mapping from a gRPC status to it.
//!
//! Handlers return [`ApiError`]; a service's error ([`ServiceError`], the rich error model its
//! typed client read back) converts with `?`: its `ErrorInfo` reason is the `code`, its
//! metadata the `details`. Errors produced by layers (404, 405, 413, 504) are rewritten into the
//! same shape by [`crate::layers`], so a client parses every error the same way.

use std::borrow::Cow;

use axum::Json;
use axum::response::{IntoResponse, Response};
use http::StatusCode;
use kit::clients::ServiceError;
use serde::{Deserialize, Serialize};
use tonic::Code;
use utoipa::ToSchema;

/// An error answered to an HTTP client.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiError {
    status: StatusCode,
    /// A lower_snake_case code a program can match on.
    code: Cow<'static, str>,
    /// A sentence for a human; never a server's internals.
    message: String,
    /// Structured facts about the error (which field, which limit), when there are any.
    details: Option<serde_json::Value>,
}

/// The JSON body of every error response.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"error": {"code": "not_found", "message": "no route for `GET /nope`", "details": null}}))]
pub struct ErrorBody {
    /// What went wrong.
    pub error: ErrorObject,
}

/// What went wrong, inside `ErrorBody`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ErrorObject {
    /// A stable lower_snake_case code: the gRPC code's name (`invalid_argument`,
    /// `not_found`, …) or a more precise one given by the service (`invalid_format`).
    pub code: String,
    /// A human-readable description. Server errors carry a generic message.
    pub message: String,
    /// Structured details (an object) or `null`; always present.
    #[schema(value_type = Option<Object>, required = true)]
    pub details: Option<serde_json::Value>,
}

impl ApiError {
    /// Returns an error with `status`, a lower_snake_case `code` and a `message`.
    pub fn new(
        status: StatusCode,
        code: impl Into<Cow<'static, str>>,
        message: impl Into<String>,
    ) -> Self {
        Self {
            status,
            code: code.into(),
            message: message.into(),
            details: None,
        }
    }

    /// Attaches structured details (a JSON object).
    #[must_use]
    pub fn with_details(mut self, details: serde_json::Value) -> Self {
        self.details = Some(details);
        self
    }

    /// Returns a 404 `not_found` error.
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, "not_found", message)
    }

    /// Returns a 400 `invalid_argument` error.
    pub fn invalid_argument(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "invalid_argument", message)
    }

    /// Returns a 413 `payload_too_large` error for a body over `limit_bytes`.
    pub fn payload_too_large(limit_bytes: usize) -> Self {
        Self::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "payload_too_large",
            format!("the request body is larger than the limit of {limit_bytes} bytes"),
        )
        .with_details(serde_json::json!({ "limit_bytes": limit_bytes }))
    }

    /// Returns a 504 `deadline_exceeded` error.
    pub fn deadline_exceeded() -> Self {
        Self::new(
            StatusCode::GATEWAY_TIMEOUT,
            "deadline_exceeded",
            "the request took too long",
        )
    }

    /// Returns a 500 `internal` error with a generic message; log the cause before calling.
    pub fn internal() -> Self {
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "internal error",
        )
    }

    /// Returns the error for a bare error `status` produced outside our handlers (by a layer or
    /// by axum itself), keeping `text`, the original plain-text body, as the message of a
    /// client error. Server errors never carry their original text.
    pub fn from_http_status(status: StatusCode, text: Option<&str>) -> Self {
        let code = code_for_http_status(status);
        let text = text.map(str::trim).filter(|text| !text.is_empty());
        let message = match text {
            Some(text) if status.is_client_error() => text.to_owned(),
            _ => status
                .canonical_reason()
                .map_or_else(|| "error".to_owned(), str::to_lowercase),
        };
        Self::new(status, code, message)
    }

    /// Returns the HTTP status.
    pub fn status(&self) -> StatusCode {
        self.status
    }

    /// Returns the lower_snake_case code.
    pub fn code(&self) -> &str {
        &self.code
    }

    /// Returns the human-readable message.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Returns the structured details, if any.
    pub fn details(&self) -> Option<&serde_json::Value> {
        self.details.as_ref()
    }

    /// Returns the JSON body.
    pub fn body(&self) -> ErrorBody {
        ErrorBody {
            error: ErrorObject {
                code: self.code.clone().into_owned(),
                message: self.message.clone(),
                details: self.details.clone(),
            },
        }
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {}: {}",
            self.status.as_u16(),
            self.code,
            self.message
        )
    }
}

impl std::error::Error for ApiError {}

impl IntoResponse for ApiError {
    /// The JSON body; a 429 whose details carry `retry_after_ms` (the service's hint) also
    /// gets the standard `Retry-After` header, in whole seconds rounded up.
    fn into_response(self) -> Response {
        let retry_after = (self.status == StatusCode::TOO_MANY_REQUESTS)
            .then(|| self.details.as_ref()?.get("retry_after_ms")?.as_u64())
            .flatten()
            .map(|ms| ms.div_ceil(1000).max(1));
        let mut response = (self.status, Json(self.body())).into_response();
        if let Some(seconds) = retry_after {
            response
                .headers_mut()
                .insert(http::header::RETRY_AFTER, http::HeaderValue::from(seconds));
        }
        response
    }
}

/// Returns the HTTP status that answers a gRPC status `code`.
///
/// Written without a catch-all arm so that a new code makes us choose. Decisions beyond the
/// obvious ones:
/// - `FailedPrecondition` → 409, not the 400 of Google's API design guide: the request was
///   well-formed but the resource's state forbids it (registration closed, round already
///   paired), which is what 409 Conflict means; 400 stays "fix your input". The code string
///   (`failed_precondition`) still tells it apart from `already_exists` and `aborted`.
/// - `Cancelled` → 499 (nginx's "client closed request", as grpc-gateway does): the caller
///   went away, so the status is only ever seen in logs and metrics, where it must not count
///   as a server error.
/// - `ResourceExhausted` → 429. A body over the size limit is 413, but that comes from the
///   body limit layer, not from a service.
/// - `Ok` → 500: a status that says "ok" never reaches an error path unless a server is wrong.
pub fn http_status(code: Code) -> StatusCode {
    match code {
        Code::InvalidArgument | Code::OutOfRange => StatusCode::BAD_REQUEST,
        Code::Unauthenticated => StatusCode::UNAUTHORIZED,
        Code::PermissionDenied => StatusCode::FORBIDDEN,
        Code::NotFound => StatusCode::NOT_FOUND,
        Code::AlreadyExists | Code::Aborted | Code::FailedPrecondition => StatusCode::CONFLICT,
        Code::ResourceExhausted => StatusCode::TOO_MANY_REQUESTS,
        Code::Cancelled => client_closed_request(),
        Code::DeadlineExceeded => StatusCode::GATEWAY_TIMEOUT,
        Code::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
        Code::Unimplemented => StatusCode::NOT_IMPLEMENTED,
        Code::Ok | Code::Unknown | Code::Internal | Code::DataLoss => {
            StatusCode::INTERNAL_SERVER_ERROR
        }
    }
}

/// Returns the gRPC code's name in lower snake case: the default error code string.
pub fn grpc_code_name(code: Code) -> &'static str {
    kit::status::code_name(code)
}

/// 499 Client Closed Request (nginx), which `http` has no constant for.
fn client_closed_request() -> StatusCode {
    StatusCode::from_u16(499).expect("499 is within 100..=999")
}

impl From<ServiceError> for ApiError {
    /// Converts a service's error.
    ///
    /// A client error (4xx) keeps the service's message, its reason as the code when that is
    /// lower_snake_case, and as `details` the `ErrorInfo` metadata (a value written as a whole
    /// number becomes a JSON number: metadata values are strings on the wire) plus, for an
    /// unsafe script, its `issues`. A server error (5xx) keeps none of these: the caller gets a
    /// generic message and the cause is logged in the request's span.
    fn from(error: ServiceError) -> Self {
        let http = http_status(error.code);
        let default_code = grpc_code_name(error.code);
        if http.is_server_error() {
            tracing::error!(
                grpc.code = default_code,
                grpc.reason = %error.reason,
                grpc.message = %error.message,
                "a service call failed"
            );
            let message = match error.code {
                Code::DeadlineExceeded => "the request took too long",
                Code::Unavailable => "a service is unavailable, try again later",
                Code::Unimplemented => "not implemented",
                _ => "internal error",
            };
            let code = match error.code {
                // Which kind of internal failure it was is not the caller's business.
                Code::Ok | Code::Unknown | Code::DataLoss => "internal",
                _ => default_code,
            };
            return Self::new(http, code, message);
        }
        let code: Cow<'static, str> = if is_lower_snake_case(&error.reason) {
            Cow::Owned(error.reason.clone())
        } else {
            Cow::Borrowed(default_code)
        };
        let details = details(&error);
        Self {
            status: http,
            code,
            message: error.message,
            details,
        }
    }
}

impl From<tonic::Status> for ApiError {
    /// Converts a status straight from a channel (a health check, a call not made through a
    /// typed client), reading its rich error details.
    fn from(status: tonic::Status) -> Self {
        ServiceError::from(status).into()
    }
}

/// The `details` object of a client error: the `ErrorInfo` metadata, and an unsafe script's
/// issues; `None` when there are neither.
fn details(error: &ServiceError) -> Option<serde_json::Value> {
    let mut details: serde_json::Map<String, serde_json::Value> = error
        .metadata()
        .iter()
        .map(|(key, value)| (key.clone(), metadata_value(value)))
        .collect();
    if let Some(unsafe_script) = error.detail::<proto::scripts::v1::UnsafeScript>() {
        let issues = unsafe_script
            .issues
            .into_iter()
            .map(|issue| {
                serde_json::json!({"code": issue.code, "message": issue.message,
                                   "line": issue.line, "column": issue.column})
            })
            .collect();
        details.insert("issues".to_owned(), serde_json::Value::Array(issues));
    }
    (!details.is_empty()).then_some(serde_json::Value::Object(details))
}

/// A metadata value as JSON: a whole number (`7`, `-3`, no leading zeros) as a number, anything
/// else as the string it is.
fn metadata_value(value: &str) -> serde_json::Value {
    let digits = value.strip_prefix('-').unwrap_or(value);
    let canonical = !digits.is_empty()
        && digits.chars().all(|c| c.is_ascii_digit())
        && (digits == "0" || !digits.starts_with('0'));
    match value.parse::<i64>() {
        Ok(number) if canonical => serde_json::Value::from(number),
        _ => serde_json::Value::String(value.to_owned()),
    }
}

/// Returns whether `code` is `lower_snake_case`: a lowercase letter, then lowercase letters,
/// digits and single underscores, not ending in one.
fn is_lower_snake_case(code: &str) -> bool {
    code.len() <= 64
        && code.starts_with(|c: char| c.is_ascii_lowercase())
        && !code.ends_with('_')
        && !code.contains("__")
        && code
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// Returns the error code for an HTTP status produced outside our handlers: the gRPC code name
/// where one corresponds, so `code` means the same whichever side produced the error.
fn code_for_http_status(status: StatusCode) -> Cow<'static, str> {
    let code = match status.as_u16() {
        400 | 422 => "invalid_argument",
        401 => "unauthenticated",
        403 => "permission_denied",
        404 => "not_found",
        413 => "payload_too_large",
        429 => "resource_exhausted",
        499 => "cancelled",
        500 => "internal",
        501 => "unimplemented",
        503 => "unavailable",
        504 => "deadline_exceeded",
        _ => {
            // "Method Not Allowed" → "method_not_allowed".
            let reason = status.canonical_reason().unwrap_or("http error");
            let snake: String = reason
                .chars()
                .filter_map(|c| match c {
                    ' ' | '-' => Some('_'),
                    c if c.is_ascii_alphanumeric() => Some(c.to_ascii_lowercase()),
                    _ => None,
                })
                .collect();
            return Cow::Owned(snake);
        }
    };
    Cow::Borrowed(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_grpc_code_maps_to_its_http_status() {
        let table = [
            (Code::Ok, 500),
            (Code::Cancelled, 499),
            (Code::Unknown, 500),
            (Code::InvalidArgument, 400),
            (Code::DeadlineExceeded, 504),
            (Code::NotFound, 404),
            (Code::AlreadyExists, 409),
            (Code::PermissionDenied, 403),
            (Code::ResourceExhausted, 429),
            (Code::FailedPrecondition, 409),
            (Code::Aborted, 409),
            (Code::OutOfRange, 400),
            (Code::Unimplemented, 501),
            (Code::Internal, 500),
            (Code::Unavailable, 503),
            (Code::DataLoss, 500),
            (Code::Unauthenticated, 401),
        ];
        // tonic's codes are the integers 0..=16: the table covers every one of them.
        assert_eq!(table.len(), 17);
        for (i, (code, http)) in table.into_iter().enumerate() {
            assert_eq!(code, Code::from_i32(i32::try_from(i).expect("small")));
            assert_eq!(http_status(code).as_u16(), http, "{code:?}");
        }
    }

    #[test]
    fn grpc_code_names_are_lower_snake_case() {
        for i in 0..=16 {
            let name = grpc_code_name(Code::from_i32(i));
            assert!(is_lower_snake_case(name), "{name}");
        }
        assert_eq!(grpc_code_name(Code::InvalidArgument), "invalid_argument");
    }

    #[test]
    fn a_client_error_keeps_the_message_and_defaults_the_code_to_the_grpc_name() {
        let error = ApiError::from(tonic::Status::invalid_argument("deck code is empty"));
        assert_eq!(error.status(), StatusCode::BAD_REQUEST);
        assert_eq!(error.code(), "invalid_argument");
        assert_eq!(error.message(), "deck code is empty");
        assert_eq!(error.details(), None);
    }

    #[test]
    fn a_client_error_takes_the_reason_and_metadata_from_the_service() {
        let status: tonic::Status =
            kit::status::Failure::invalid_argument("invalid_query", "unexpected `)` at position 7")
                .with_metadata("position", 7)
                .with_metadata("field", "007")
                .with_violation("query", "does not parse")
                .into();
        let error = ApiError::from(status);
        assert_eq!(error.status(), StatusCode::BAD_REQUEST);
        assert_eq!(error.code(), "invalid_query");
        assert_eq!(
            serde_json::to_value(error.body()).expect("serialisable"),
            serde_json::json!({"error": {
                "code": "invalid_query",
                "message": "unexpected `)` at position 7",
                "details": {"field": "007", "position": 7},
            }})
        );
    }

    #[test]
    fn an_unsafe_scripts_issues_become_its_details() {
        let issue = proto::scripts::v1::SafetyIssue {
            code: "unsafe_global".to_owned(),
            message: "`eval` is not available".to_owned(),
            line: 2,
            column: 5,
        };
        let status: tonic::Status = kit::status::Failure::invalid_argument("unsafe_script", "no")
            .with_detail(&proto::scripts::v1::UnsafeScript {
                issues: vec![issue],
            })
            .into();
        assert_eq!(
            ApiError::from(status).details(),
            Some(&serde_json::json!({"issues": [{"code": "unsafe_global",
                "message": "`eval` is not available", "line": 2, "column": 5}]}))
        );
    }

    #[test]
    fn a_busy_service_is_a_429_with_its_retry_hint_as_details_and_header() {
        let status: tonic::Status =
            kit::status::Failure::new(Code::ResourceExhausted, "busy", "the sandbox is busy")
                .with_metadata("retry_after_ms", 1500)
                .into();
        let response = ApiError::from(status).into_response();
        assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(
            response.headers().get(http::header::RETRY_AFTER),
            Some(&http::HeaderValue::from_static("2"))
        );

        let no_hint = ApiError::new(StatusCode::TOO_MANY_REQUESTS, "busy", "busy");
        assert!(
            !no_hint
                .into_response()
                .headers()
                .contains_key(http::header::RETRY_AFTER)
        );
    }

    #[test]
    fn old_style_json_details_are_not_read() {
        for bytes in [&b"\x08\x01binary protobuf"[..], br#"{"position": 7}"#, b""] {
            let status =
                tonic::Status::with_details(Code::NotFound, "no such card", bytes.to_vec().into());
            let error = ApiError::from(status);
            assert_eq!(error.details(), None);
            assert_eq!(error.code(), "not_found");
        }
    }

    #[test]
    fn a_malformed_reason_falls_back_to_the_grpc_name() {
        for bad in ["Invalid-Format", "_x", "x__y", "x_", "9lives"] {
            let status: tonic::Status =
                kit::status::Failure::new(Code::NotFound, bad, "no such deck").into();
            assert_eq!(ApiError::from(status).code(), "not_found", "{bad}");
        }
    }

    #[test]
    fn a_server_error_never_leaks_the_message_code_or_details() {
        let status: tonic::Status = kit::status::Failure::new(
            Code::Internal,
            "db_down",
            "connection to postgres://admin:secret@db failed",
        )
        .with_metadata("query", "SELECT secret")
        .into();
        let error = ApiError::from(status);
        assert_eq!(error.status(), StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(error.code(), "internal");
        assert_eq!(error.message(), "internal error");
        assert_eq!(error.details(), None);

        let error = ApiError::from(tonic::Status::data_loss("page 7 of table cards is corrupt"));
        assert_eq!(
            (error.code(), error.message()),
            ("internal", "internal error")
        );

        let error = ApiError::from(tonic::Status::unavailable(
            "tcp connect error 10.0.0.7:50052",
        ));
        assert_eq!(error.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(error.code(), "unavailable");
        assert!(!error.message().contains("10.0.0.7"));
    }

    #[test]
    fn layer_statuses_get_grpc_style_codes() {
        let cases = [
            (StatusCode::NOT_FOUND, "not_found"),
            (StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large"),
            (StatusCode::GATEWAY_TIMEOUT, "deadline_exceeded"),
            (StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed"),
            (StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type"),
            (StatusCode::UNPROCESSABLE_ENTITY, "invalid_argument"),
        ];
        for (status, code) in cases {
            assert_eq!(ApiError::from_http_status(status, None).code(), code);
        }
    }

    #[test]
    fn a_layer_client_error_keeps_its_text_but_a_server_error_does_not() {
        let error = ApiError::from_http_status(StatusCode::BAD_REQUEST, Some("missing field `x`"));
        assert_eq!(error.message(), "missing field `x`");
        let error = ApiError::from_http_status(StatusCode::BAD_GATEWAY, Some("upstream 10.0.0.1"));
        assert_eq!(error.message(), "bad gateway");
        assert_eq!(error.code(), "bad_gateway");
    }
}
