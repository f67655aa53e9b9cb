//! Errors that carry a precise, stable code across gRPC to the gateway.
//!
//! A `tonic::Status` has a coarse code (`InvalidArgument`); the documented error shapes need a
//! precise one (`invalid_format`) and sometimes structured details. Services put the precise
//! code in the `x-turnier-error-code` metadata and JSON details in the status details; the
//! gateway reads both back. One mechanism, so every error reaches the frontend the same way.

/// The metadata key that carries the precise error code.
pub const ERROR_CODE_METADATA: &str = "x-turnier-error-code";

/// Builds a status with a precise error code and optional JSON details.
pub fn status(
    code: tonic::Code,
    error_code: &str,
    message: impl Into<String>,
    details: Option<&serde_json::Value>,
) -> tonic::Status {
    let bytes = details
        .map(|details| serde_json::to_vec(details).expect("a JSON value always serializes"))
        .unwrap_or_default();
    let mut status = tonic::Status::with_details(code, message, bytes.into());
    if let Ok(value) = tonic::metadata::MetadataValue::try_from(error_code) {
        status.metadata_mut().insert(ERROR_CODE_METADATA, value);
    }
    status
}

/// Returns the precise error code of a status, if the service gave one.
pub fn error_code(status: &tonic::Status) -> Option<&str> {
    status
        .metadata()
        .get(ERROR_CODE_METADATA)
        .and_then(|value| value.to_str().ok())
}

/// Returns the JSON details of a status, if it carries any.
pub fn details(status: &tonic::Status) -> Option<serde_json::Value> {
    if status.details().is_empty() {
        return None;
    }
    serde_json::from_slice(status.details()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_precise_code_and_details_survive_the_status() {
        let details = serde_json::json!({"field": "min_size"});
        let status = status(
            tonic::Code::InvalidArgument,
            "invalid_format",
            "min_size: expected a number",
            Some(&details),
        );
        assert_eq!(status.code(), tonic::Code::InvalidArgument);
        assert_eq!(error_code(&status), Some("invalid_format"));
        assert_eq!(super::details(&status), Some(details));
    }

    #[test]
    fn a_plain_status_has_no_precise_code_or_details() {
        let status = tonic::Status::not_found("no such card");
        assert_eq!(error_code(&status), None);
        assert_eq!(details(&status), None);
    }
}
