//! The error model on the wire: how a service says what went wrong, and how a caller reads it
//! back.
//!
//! Every `tonic::Status` our services return carries the standard rich error model
//! (`google.rpc.Status` in the status details, through `tonic-types`): a
//! `google.rpc.ErrorInfo` whose `reason` is our stable error code (`unsafe_script`,
//! `unknown_card`, `invalid_query`, …) in the domain [`DOMAIN`], with scalar facts in its
//! `metadata` (`position`, `field`, `limit`), and, for bad input, a `google.rpc.BadRequest`
//! naming the request fields at fault. A client in any language reads them with its standard
//! gRPC library; ours read them with [`ServiceError::from`]. A detail the standard types cannot
//! say (the issues of an unsafe script, with their lines and columns) travels as one more
//! message of our own packed in the same list, which other clients skip.
//!
//! A status message travels in HTTP/2 trailers that every proxy on the way must accept, so
//! [`Failure`] bounds it ([`MAX_MESSAGE_BYTES`]) and each metadata value, and errors quote user
//! input only as a short prefix ([`quote`]).

use std::collections::{BTreeMap, HashMap};
use std::fmt;

use prost::{Message as _, Name};
use tonic::{Code, Status};
use tonic_types::{ErrorDetail, ErrorDetails, ErrorInfo, FieldViolation, StatusExt as _};

/// The `ErrorInfo.domain` of every error our services return.
pub const DOMAIN: &str = "turnier.gg";

/// The longest status message, in bytes; a longer one is cut at a character boundary.
pub const MAX_MESSAGE_BYTES: usize = 1024;

/// The longest metadata value or field description, in bytes.
pub const MAX_VALUE_BYTES: usize = 256;

/// How many characters of user input an error message quotes.
pub const QUOTE_CHARS: usize = 64;

/// The most `BadRequest` field violations one status carries; more are dropped.
pub const MAX_VIOLATIONS: usize = 8;

/// The most bytes our own detail messages (an unsafe script's issues) may take, encoded; a
/// detail that would go over is left out and the `ErrorInfo` says so (`details_truncated`).
/// With the message and the standard details, a status's trailers stay well under the 16 KiB
/// of headers an HTTP/2 peer accepts by default: over it, the peer drops the whole connection,
/// and every call sharing it fails.
pub const MAX_EXTRA_DETAIL_BYTES: usize = 4096;

/// Cuts `text` to at most `max` bytes at a character boundary, ending with `…` when cut.
pub fn bounded(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_owned();
    }
    let ellipsis = '…';
    let mut end = max.saturating_sub(ellipsis.len_utf8());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let mut out = text[..end].to_owned();
    out.push(ellipsis);
    out
}

/// Returns `message` as a status message may carry it: at most [`MAX_MESSAGE_BYTES`].
pub fn short(message: &str) -> String {
    bounded(message, MAX_MESSAGE_BYTES)
}

/// Returns the first [`QUOTE_CHARS`] characters of user input, with `…` when there was more:
/// what an error message quotes of a value it names.
pub fn quote(input: &str) -> String {
    match input.char_indices().nth(QUOTE_CHARS) {
        Some((end, _)) => format!("{}…", &input[..end]),
        None => input.to_owned(),
    }
}

/// Returns the bytes `status` takes as HTTP/2 headers (names and values, before compression):
/// what a peer's header-size limit is measured against.
pub fn header_bytes(status: &Status) -> usize {
    status
        .clone()
        .into_http::<()>()
        .headers()
        .iter()
        .map(|(name, value)| name.as_str().len() + value.len())
        .sum()
}

/// Returns the gRPC code's name in lower snake case (`invalid_argument`): the reason of an
/// error that carries none of its own.
pub fn code_name(code: Code) -> &'static str {
    match code {
        Code::Ok => "ok",
        Code::Cancelled => "cancelled",
        Code::Unknown => "unknown",
        Code::InvalidArgument => "invalid_argument",
        Code::DeadlineExceeded => "deadline_exceeded",
        Code::NotFound => "not_found",
        Code::AlreadyExists => "already_exists",
        Code::PermissionDenied => "permission_denied",
        Code::ResourceExhausted => "resource_exhausted",
        Code::FailedPrecondition => "failed_precondition",
        Code::Aborted => "aborted",
        Code::OutOfRange => "out_of_range",
        Code::Unimplemented => "unimplemented",
        Code::Internal => "internal",
        Code::Unavailable => "unavailable",
        Code::DataLoss => "data_loss",
        Code::Unauthenticated => "unauthenticated",
    }
}

/// An error a service is about to return: its code, stable reason, message and details.
///
/// Each crate's `From<Error> for Status` builds one per variant and converts it with `into()`.
#[derive(Debug, Clone)]
pub struct Failure {
    code: Code,
    reason: String,
    message: String,
    metadata: BTreeMap<String, String>,
    violations: Vec<FieldViolation>,
    extra: Vec<prost_types::Any>,
}

impl Failure {
    /// Returns a failure with `code`, the stable lower_snake_case `reason` and a `message`
    /// for a human.
    pub fn new(code: Code, reason: &str, message: impl Into<String>) -> Self {
        Self {
            code,
            reason: reason.to_owned(),
            message: message.into(),
            metadata: BTreeMap::new(),
            violations: Vec::new(),
            extra: Vec::new(),
        }
    }

    /// Returns a bad-input failure (`InvalidArgument`).
    pub fn invalid_argument(reason: &str, message: impl Into<String>) -> Self {
        Self::new(Code::InvalidArgument, reason, message)
    }

    /// Returns the failure of a bug or a broken dependency: `Internal`, reason `internal`, a
    /// generic message. Log the cause before returning it; the caller never sees it.
    pub fn internal() -> Self {
        Self::new(Code::Internal, "internal", "internal error")
    }

    /// Adds a scalar fact to the `ErrorInfo` metadata (`position` = `7`).
    #[must_use]
    pub fn with_metadata(mut self, key: &str, value: impl fmt::Display) -> Self {
        self.metadata
            .insert(key.to_owned(), bounded(&value.to_string(), MAX_VALUE_BYTES));
        self
    }

    /// Adds a `BadRequest` field violation: the request `field` (a dot-separated path of proto
    /// field names) and why it is wrong.
    #[must_use]
    pub fn with_violation(mut self, field: &str, description: &str) -> Self {
        if self.violations.len() == MAX_VIOLATIONS {
            return self;
        }
        self.violations.push(FieldViolation::new(
            bounded(field, MAX_VALUE_BYTES),
            bounded(description, MAX_VALUE_BYTES),
        ));
        self
    }

    /// Adds a detail message of our own (from `proto`), packed beside the standard ones.
    #[must_use]
    pub fn with_detail(mut self, detail: &impl Name) -> Self {
        match prost_types::Any::from_msg(detail) {
            Ok(any) => {
                let used: usize = self.extra.iter().map(prost::Message::encoded_len).sum();
                if used + any.encoded_len() > MAX_EXTRA_DETAIL_BYTES {
                    self.metadata
                        .insert("details_truncated".to_owned(), "true".to_owned());
                } else {
                    self.extra.push(any);
                }
            }
            // Encoding into a growable buffer cannot fail.
            Err(err) => tracing::error!(error = %err, "an error detail did not encode"),
        }
        self
    }

    /// Returns the reason.
    pub fn reason(&self) -> &str {
        &self.reason
    }

    /// Returns what a service answers when a call it made to `peer` failed with `cause`.
    ///
    /// When the peer refused what it was given (bad input, a limit, a missing resource), the
    /// caller gets that answer: its code, reason, message and facts, since the input came from
    /// the caller (a deck of 50,000 cards is the caller's to fix, not an outage). The peer's
    /// field violations name the peer's request, not the caller's, and are left out. When the
    /// peer was unreachable, overloaded or out of time, the caller gets `Unavailable` with the
    /// reason `<peer>_unavailable`: a retry may help. Anything else is the peer's bug: `Internal`.
    pub fn from_upstream(peer: &str, cause: &ServiceError) -> Self {
        match cause.code {
            Code::InvalidArgument
            | Code::OutOfRange
            | Code::NotFound
            | Code::FailedPrecondition
            | Code::ResourceExhausted => {
                let mut failure = Self::new(cause.code, &cause.reason, cause.message.clone());
                for (key, value) in cause.metadata() {
                    failure = failure.with_metadata(key, value);
                }
                failure
            }
            Code::Unavailable | Code::DeadlineExceeded | Code::Aborted | Code::Cancelled => {
                tracing::warn!(%peer, error = %cause, "a service did not answer");
                Self::new(
                    Code::Unavailable,
                    &format!("{peer}_unavailable"),
                    format!("the {peer} did not answer"),
                )
            }
            _ => {
                tracing::error!(%peer, error = %cause, "a service failed");
                Self::internal()
            }
        }
    }
}

impl From<Failure> for Status {
    fn from(failure: Failure) -> Self {
        let metadata: HashMap<String, String> = failure.metadata.into_iter().collect();
        let mut details = vec![ErrorDetail::from(ErrorInfo::new(
            failure.reason,
            DOMAIN,
            metadata,
        ))];
        if !failure.violations.is_empty() {
            details.push(tonic_types::BadRequest::new(failure.violations).into());
        }
        let message = short(&failure.message);
        let status = Status::with_error_details_vec(failure.code, message.clone(), details);
        if failure.extra.is_empty() {
            return status;
        }
        // tonic-types packs only the standard messages: add ours to the same google.rpc.Status.
        let mut rpc = tonic_types::Status::decode(status.details()).unwrap_or_default();
        rpc.details.extend(failure.extra);
        Status::with_details(failure.code, message, rpc.encode_to_vec().into())
    }
}

/// One field of a request that a service refused, from `google.rpc.BadRequest`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// The request field's path (`format_json`, `script.source`).
    pub field: String,
    /// Why it is wrong.
    pub description: String,
}

/// An error a service returned, read back from its status: what every client of ours gives
/// its caller instead of a bare `tonic::Status`.
#[derive(Debug, Clone, PartialEq)]
pub struct ServiceError {
    /// The gRPC code.
    pub code: Code,
    /// The stable reason (`ErrorInfo.reason`), or the code's name ([`code_name`]) when the
    /// status carries none (a transport failure, a peer that is not ours).
    pub reason: String,
    /// The message for a human.
    pub message: String,
    /// The rest, boxed: an error travels in every `Result` of a call, so it stays small.
    facts: Box<Facts>,
}

/// What a [`ServiceError`] carries besides its code, reason and message.
#[derive(Debug, Clone, Default, PartialEq)]
struct Facts {
    /// The scalar facts of `ErrorInfo.metadata`, in key order.
    metadata: BTreeMap<String, String>,
    /// The refused request fields of `google.rpc.BadRequest`.
    violations: Vec<Violation>,
    /// Every detail message, standard or ours, as packed.
    details: Vec<prost_types::Any>,
}

impl ServiceError {
    /// Returns whether the same call may succeed if made again: the service was unreachable
    /// or overloaded for a moment (`Unavailable`) or the call lost a race (`Aborted`). A bad
    /// request, a missing resource or a script that ran out of time fails again.
    pub fn is_retryable(&self) -> bool {
        matches!(self.code, Code::Unavailable | Code::Aborted)
    }

    /// Returns the scalar facts of `ErrorInfo.metadata` (`position` → `7`), in key order.
    pub fn metadata(&self) -> &BTreeMap<String, String> {
        &self.facts.metadata
    }

    /// Returns the refused request fields of `google.rpc.BadRequest`.
    pub fn violations(&self) -> &[Violation] {
        &self.facts.violations
    }

    /// Returns the detail message of type `M` the service packed, if any.
    pub fn detail<M: Name + Default>(&self) -> Option<M> {
        let type_url = M::type_url();
        self.facts
            .details
            .iter()
            .find(|any| any.type_url == type_url)
            .and_then(|any| any.to_msg::<M>().ok())
    }

    /// Returns an error of this process's own, for a call that never reached a service.
    pub fn local(code: Code, reason: &str, message: impl Into<String>) -> Self {
        Self {
            code,
            reason: reason.to_owned(),
            message: message.into(),
            facts: Box::default(),
        }
    }
}

impl From<Status> for ServiceError {
    fn from(status: Status) -> Self {
        ServiceError::from(&status)
    }
}

impl From<&Status> for ServiceError {
    fn from(status: &Status) -> Self {
        let details: ErrorDetails = status.get_error_details();
        let (reason, metadata) = match details.error_info() {
            Some(info) if !info.reason.is_empty() => (
                info.reason.clone(),
                info.metadata
                    .iter()
                    .map(|(key, value)| (key.clone(), value.clone()))
                    .collect(),
            ),
            _ => (code_name(status.code()).to_owned(), BTreeMap::new()),
        };
        let violations = details
            .bad_request()
            .map(|bad| {
                bad.field_violations
                    .iter()
                    .map(|violation| Violation {
                        field: violation.field.clone(),
                        description: violation.description.clone(),
                    })
                    .collect()
            })
            .unwrap_or_default();
        let packed = if status.details().is_empty() {
            Vec::new()
        } else {
            tonic_types::Status::decode(status.details())
                .map(|rpc| rpc.details)
                .unwrap_or_default()
        };
        Self {
            code: status.code(),
            reason,
            message: status.message().to_owned(),
            facts: Box::new(Facts {
                metadata,
                violations,
                details: packed,
            }),
        }
    }
}

impl fmt::Display for ServiceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({}): {}",
            self.reason,
            code_name(self.code),
            self.message
        )
    }
}

impl std::error::Error for ServiceError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_failure_makes_trailers_a_peer_would_refuse() {
        // Every part a caller's input could swell: the message, metadata, violations and our
        // own details, each far over any bound, in characters that percent-encode to 6 bytes.
        let huge = "é".repeat(100_000);
        let mut failure = Failure::invalid_argument("invalid_query", huge.clone())
            .with_metadata("input", &huge)
            .with_metadata("field", &huge);
        for _ in 0..1_000 {
            failure = failure.with_violation(&huge, &huge);
        }
        let issue = proto::scripts::v1::SafetyIssue {
            code: "unsafe_global".to_owned(),
            message: huge.clone(),
            line: 1,
            column: 1,
        };
        for _ in 0..100 {
            failure = failure.with_detail(&proto::scripts::v1::UnsafeScript {
                issues: vec![issue.clone(); 10],
            });
        }
        let status: Status = failure.into();
        assert!(status.message().len() <= MAX_MESSAGE_BYTES);
        // HTTP/2 peers accept 16 KiB of headers by default; hyper's client, 16 KiB.
        let bytes = header_bytes(&status);
        assert!(bytes < 16 * 1024, "{bytes} bytes of trailers");

        let error = ServiceError::from(&status);
        assert_eq!(error.violations().len(), MAX_VIOLATIONS);
        assert_eq!(error.metadata()["details_truncated"], "true");
    }

    #[test]
    fn a_peers_refusal_of_the_input_reaches_the_caller_and_an_outage_says_retry() {
        let refused = ServiceError::from(Status::from(
            Failure::invalid_argument("too_many", "too many refs: 50000 given, at most 10000")
                .with_metadata("limit", 10_000)
                .with_violation("refs", "at most 10000"),
        ));
        let passed: Status = Failure::from_upstream("catalog", &refused).into();
        let passed = ServiceError::from(passed);
        assert_eq!(passed.code, Code::InvalidArgument);
        assert_eq!(passed.reason, "too_many");
        assert_eq!(passed.message, "too many refs: 50000 given, at most 10000");
        assert_eq!(passed.metadata()["limit"], "10000");
        assert_eq!(
            passed.violations(),
            [],
            "the peer's fields are not the caller's"
        );

        let down = ServiceError::local(Code::Unavailable, "unavailable", "connection refused");
        let answered = ServiceError::from(Status::from(Failure::from_upstream("catalog", &down)));
        assert_eq!(answered.code, Code::Unavailable);
        assert_eq!(answered.reason, "catalog_unavailable");
        assert_eq!(answered.message, "the catalog did not answer");
        assert!(answered.is_retryable());

        let bug = ServiceError::local(Code::Internal, "internal", "internal error");
        let answered = ServiceError::from(Status::from(Failure::from_upstream("catalog", &bug)));
        assert_eq!(
            (answered.code, answered.reason.as_str()),
            (Code::Internal, "internal")
        );
    }

    #[test]
    fn a_failure_crosses_as_error_info_and_bad_request() {
        let status: Status = Failure::invalid_argument("invalid_format", "`copies` is 0")
            .with_metadata("field", "copies")
            .with_violation("format_json", "`copies` must be from 1 to 999")
            .into();
        assert_eq!(status.code(), Code::InvalidArgument);
        assert_eq!(status.message(), "`copies` is 0");

        // What any client sees with the standard library.
        let details = status.get_error_details();
        let info = details.error_info().expect("ErrorInfo");
        assert_eq!(info.reason, "invalid_format");
        assert_eq!(info.domain, "turnier.gg");
        assert_eq!(info.metadata["field"], "copies");
        let bad = details.bad_request().expect("BadRequest");
        assert_eq!(bad.field_violations[0].field, "format_json");

        // What our clients read back.
        let error = ServiceError::from(status);
        assert_eq!(error.reason, "invalid_format");
        assert_eq!(error.metadata()["field"], "copies");
        assert_eq!(
            error.violations(),
            [Violation {
                field: "format_json".to_owned(),
                description: "`copies` must be from 1 to 999".to_owned()
            }]
        );
        assert!(!error.is_retryable());
    }

    #[test]
    fn a_detail_of_our_own_travels_beside_the_standard_ones() {
        // A well-known type stands in for one of `proto`'s messages.
        let detail = prost_types::Duration {
            seconds: 7,
            nanos: 0,
        };
        let status: Status = Failure::invalid_argument("unsafe_script", "unsafe")
            .with_detail(&detail)
            .into();
        assert_eq!(
            status
                .get_error_details()
                .error_info()
                .map(|i| i.reason.as_str()),
            Some("unsafe_script")
        );
        let error = ServiceError::from(status);
        assert_eq!(error.reason, "unsafe_script");
        assert_eq!(error.detail::<prost_types::Duration>(), Some(detail));
    }

    #[test]
    fn a_status_without_error_info_takes_the_codes_name() {
        let error = ServiceError::from(Status::unavailable("tcp connect error"));
        assert_eq!(error.reason, "unavailable");
        assert!(error.is_retryable());
        assert!(error.metadata().is_empty() && error.violations().is_empty());
        // Old-style JSON details are not ours to read.
        let error = ServiceError::from(Status::with_details(
            Code::NotFound,
            "no such card",
            br#"{"field": "x"}"#.to_vec().into(),
        ));
        assert_eq!(error.reason, "not_found");
    }

    #[test]
    fn long_messages_and_values_are_bounded() {
        let long = "é".repeat(100_000);
        let status: Status = Failure::invalid_argument("invalid_argument", long.clone())
            .with_metadata("value", &long)
            .into();
        assert!(status.message().len() <= MAX_MESSAGE_BYTES);
        assert!(status.message().ends_with('…'));
        let error = ServiceError::from(status);
        assert!(error.metadata()["value"].len() <= MAX_VALUE_BYTES);
        assert_eq!(quote(&"x".repeat(1000)).chars().count(), QUOTE_CHARS + 1);
        assert_eq!(quote("short"), "short");
    }

    #[test]
    fn every_code_has_a_lower_snake_case_name() {
        for i in 0..=16 {
            let name = code_name(Code::from_i32(i));
            assert!(
                name.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
                "{name}"
            );
        }
    }
}
