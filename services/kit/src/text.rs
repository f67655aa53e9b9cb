//! The one text rule: what every service accepts in a name or label, in long free text and in
//! an id, checked once at the edge of each service before anything reaches the database.
//!
//! - A **name** (a tournament, a guest, a deck, a deck set, a template, a ruleset, a
//!   calculator, an API token, …) is not blank, has at most the caller's bound of characters,
//!   and holds no control character (C0, DEL, C1: a NUL, a line break, a bell) and no
//!   bidirectional formatting character that reorders what follows it: the embeddings and
//!   overrides U+202A–U+202E and the isolates U+2066–U+2069 (the "Trojan Source" set,
//!   CVE-2021-42574). A name drawn on a page or in a bracket with U+202E would show its
//!   neighbours backwards. The marks U+200E, U+200F and U+061C are allowed: they reorder
//!   nothing past the character they sit beside, and names in Arabic or Hebrew mixed with
//!   Latin need them. Whether a name is trimmed first is the caller's rule (tournament and
//!   guest names are; deck names are kept as typed), and so is its bound.
//! - **Free text** (a deck list, a deck code, a script's source, a note) keeps tabs, line
//!   breaks and every other character but NUL, which PostgreSQL cannot store in `TEXT` (and
//!   refuses in any query parameter) and which nobody types.
//! - An **id** the platform made (`dk_…`, `t_…`, `acc_…`) is its prefix and URL-safe base64;
//!   anything else cannot exist, so the service answers not found without a query
//!   ([`is_possible_id`]).
//!
//! Each check returns a [`TextError`] naming the request field, which becomes an
//! `InvalidArgument` with a `google.rpc.BadRequest` for that field ([`TextError::to_failure`]).
//! What a field means, and its length bounds beyond names, stay with each service.

use crate::status::Failure;

/// The reason of the error for text that breaks the rule.
pub const REASON_INVALID_ARGUMENT: &str = "invalid_argument";

pub use proto::text::{
    MAX_ID_BYTES, MAX_USERNAME_BYTES, Problem, check_free_text, check_label, check_name,
    is_bidi_control, is_possible_id, is_possible_key,
};

/// A request field whose text breaks the rule.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{field}`: {problem}")]
pub struct TextError {
    /// The request field, as the caller's API names it (`name`, `displayName`, `source`).
    pub field: String,
    /// What is wrong with it.
    pub problem: Problem,
}

impl TextError {
    /// Returns the error for `field` with `problem`.
    pub fn new(field: impl Into<String>, problem: Problem) -> Self {
        Self {
            field: field.into(),
            problem,
        }
    }

    /// Returns the failure a service answers: `InvalidArgument`, reason `invalid_argument`,
    /// the field in the metadata and in a `BadRequest` violation.
    pub fn to_failure(&self) -> Failure {
        Failure::invalid_argument(REASON_INVALID_ARGUMENT, self.to_string())
            .with_metadata("field", &self.field)
            .with_violation(&self.field, &self.problem.to_string())
    }
}

/// Checks the name in request field `field`: [`check_name`], naming the field.
pub fn name(field: &str, text: &str, max_chars: usize) -> Result<(), TextError> {
    check_name(text, max_chars).map_err(|problem| TextError::new(field, problem))
}

/// Checks the free text in request field `field`: [`check_free_text`], naming the field.
pub fn free_text(field: &str, text: &str) -> Result<(), TextError> {
    check_free_text(text).map_err(|problem| TextError::new(field, problem))
}

/// Checks every piece of free text in request field `field` (a list of deck codes, of refs).
pub fn free_texts<'a>(
    field: &str,
    texts: impl IntoIterator<Item = &'a str>,
) -> Result<(), TextError> {
    texts
        .into_iter()
        .try_for_each(|text| free_text(field, text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_name_in_any_script_passes() {
        for name in [
            "Friday Night Swiss",
            "Ärger im Dorf",
            "東京オープン",
            "بطولة الجمعة",
            // Marks beside mixed-direction text reorder nothing past themselves.
            "Cup \u{200F}שבת\u{200E} 2",
            "x",
        ] {
            assert_eq!(check_name(name, 100), Ok(()), "{name}");
        }
    }

    #[test]
    fn a_name_with_a_control_character_is_refused_naming_it() {
        for (name, c) in [
            ("a\0b", '\0'),
            ("a\nb", '\n'),
            ("a\tb", '\t'),
            ("a\u{7}b", '\u{7}'),
            ("a\u{7f}b", '\u{7f}'),
            ("a\u{85}b", '\u{85}'),
            ("a\u{9b}b", '\u{9b}'),
        ] {
            assert_eq!(check_name(name, 100), Err(Problem::Control(c)), "{name:?}");
        }
        assert_eq!(
            Problem::Control('\0').to_string(),
            "no control characters (found U+0000)"
        );
    }

    #[test]
    fn a_name_with_a_bidirectional_override_or_isolate_is_refused() {
        for c in ('\u{202A}'..='\u{202E}').chain('\u{2066}'..='\u{2069}') {
            let name = format!("admin{c}nimda");
            assert_eq!(check_name(&name, 100), Err(Problem::Bidi(c)), "{c:?}");
        }
        assert_eq!(
            Problem::Bidi('\u{202E}').to_string(),
            "no bidirectional formatting characters (found U+202E)"
        );
    }

    #[test]
    fn a_blank_or_long_name_is_refused_and_a_label_may_be_empty() {
        assert_eq!(check_name("", 10), Err(Problem::Blank));
        assert_eq!(check_name(" \u{a0}\t", 10), Err(Problem::Blank));
        assert_eq!(check_label("", 10), Ok(()));
        assert_eq!(check_label("a\u{2067}", 10), Err(Problem::Bidi('\u{2067}')));
        assert_eq!(check_name(&"é".repeat(10), 10), Ok(()));
        assert_eq!(
            check_name(&"é".repeat(11), 10),
            Err(Problem::TooLong { max: 10 })
        );
    }

    #[test]
    fn free_text_keeps_line_breaks_and_tabs_and_refuses_nul() {
        assert_eq!(check_free_text("3 Pikachu\n\t2 Eevee\r\n\u{202E}"), Ok(()));
        assert_eq!(
            check_free_text("export default 1; // \0"),
            Err(Problem::Nul)
        );
        let error = free_text("source", "a\0").expect_err("NUL is refused");
        assert_eq!(error.to_string(), "`source`: no NUL characters (U+0000)");
        assert_eq!(
            free_texts("decks", ["ok", "also ok", "\0"]).map_err(|e| e.field),
            Err("decks".to_owned())
        );
    }

    #[test]
    fn an_error_names_its_field_on_the_wire() {
        let status: tonic::Status = TextError::new("name", Problem::Bidi('\u{202E}'))
            .to_failure()
            .into();
        assert_eq!(status.code(), tonic::Code::InvalidArgument);
        let error = crate::status::ServiceError::from(status);
        assert_eq!(error.reason, "invalid_argument");
        assert_eq!(error.metadata()["field"], "name");
        assert_eq!(error.violations()[0].field, "name");
    }

    #[test]
    fn only_ids_of_the_platforms_shape_may_exist() {
        assert!(is_possible_id("dk_WGx4jrf4VBGLNrE-3k4LvA", "dk_"));
        assert!(is_possible_id("t_abc_-09", "t_"));
        for id in [
            "dk_",
            "dk_\0",
            "dk_a\0",
            "ds_abc",
            "dk_a b",
            "dk_a/b",
            "dk_é",
            &format!("dk_{}", "a".repeat(MAX_ID_BYTES)),
        ] {
            assert!(!is_possible_id(id, "dk_"), "{id:?}");
        }
        assert!(is_possible_key("svp-106", 64));
        assert!(!is_possible_key("a\0", 64));
        assert!(!is_possible_key(&"a".repeat(65), 64));
    }
}
