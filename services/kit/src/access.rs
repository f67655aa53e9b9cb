//! The one ownership rule of every resource people own (rulesets, calculators, saved decks,
//! templates, tournaments): every store and handler asks [`check`] before it shows or changes
//! one, so no new resource can forget a case.
//!
//! A resource has an owner (an account id) and is [`Visibility::Private`] (the default) or
//! [`Visibility::Public`]. The rule, in the order it is applied:
//!
//! | caller                                   | read                | change or delete      |
//! | ---------------------------------------- | ------------------- | --------------------- |
//! | anonymous                                | public only         | 401 `unauthenticated` |
//! | a token without `write`                  | (as below)          | 403, before lookup    |
//! | a token without `read`                   | public only         | (as below)            |
//! | another account                          | public only         | 403 if public         |
//! | the owner                                | yes                 | yes                   |
//!
//! A private resource the caller may not see is *not found*, exactly as one that does not
//! exist, so its existence does not leak: the same code, reason and message.

use tonic::Code;

use crate::auth::{AccountCaller, Caller, REASON_UNAUTHENTICATED, Scope};
use crate::status::{Failure, quote};

/// The reason of the error for changing what the caller may see but does not own, or
/// changing anything with a token that may not write.
pub const REASON_PERMISSION_DENIED: &str = "permission_denied";

/// The reason of the error for a resource that does not exist or that the caller may not see.
pub const REASON_NOT_FOUND: &str = "not_found";

/// Who may see a resource besides its owner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Visibility {
    /// Its owner only (the default).
    #[default]
    Private,
    /// Everyone, signed in or not; it shows on its owner's profile.
    Public,
}

impl Visibility {
    /// Returns the visibility's name, as the API writes it (`private`, `public`).
    pub fn name(self) -> &'static str {
        match self {
            Visibility::Private => "private",
            Visibility::Public => "public",
        }
    }

    /// Returns the visibility named `name`.
    pub fn parse(name: &str) -> Option<Visibility> {
        match name {
            "private" => Some(Visibility::Private),
            "public" => Some(Visibility::Public),
            _ => None,
        }
    }
}

/// What the rule needs to know of a resource.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Owned<'a> {
    /// The owner's account id.
    pub owner: &'a str,
    /// Who may see it.
    pub visibility: Visibility,
}

/// What a caller wants to do with a resource.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// See it (get it, list it, download a copy).
    Read,
    /// Change it, publish it or delete it.
    Change,
}

/// Why the rule refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Denied {
    /// An anonymous caller asked to change something: 401.
    Unauthenticated,
    /// The caller may see the resource (or may not write at all) but not change it: 403.
    PermissionDenied,
    /// The resource does not exist, or the caller may not see it: 404.
    NotFound,
}

impl Denied {
    /// Returns the refusal as it goes on the wire, naming the resource as `kind` `id`
    /// (`ruleset`, `rs_12`): the same words whether it is missing or hidden.
    pub fn to_failure(self, kind: &str, id: &str) -> Failure {
        match self {
            Denied::Unauthenticated => Failure::new(
                Code::Unauthenticated,
                REASON_UNAUTHENTICATED,
                "this needs an account: send `Authorization: Bearer <token>`",
            ),
            Denied::PermissionDenied => Failure::new(
                Code::PermissionDenied,
                REASON_PERMISSION_DENIED,
                format!("you may not change the {kind} `{}`", quote(id)),
            ),
            Denied::NotFound => Failure::new(
                Code::NotFound,
                REASON_NOT_FOUND,
                format!("no {kind} `{}`", quote(id)),
            ),
        }
        .with_metadata("kind", kind)
    }
}

impl Denied {
    /// Returns the refusal of [`creator`] as it goes on the wire: there is no resource yet to
    /// name, so it says what the caller lacks.
    pub fn to_create_failure(self) -> Failure {
        match self {
            Denied::Unauthenticated | Denied::NotFound => {
                Denied::Unauthenticated.to_failure("", "")
            }
            Denied::PermissionDenied => Failure::new(
                Code::PermissionDenied,
                REASON_PERMISSION_DENIED,
                "this token may not write: it lacks the `write` scope",
            ),
        }
    }
}

/// Returns the account whose private resources `caller` may see: its own, if its token may
/// read. What a listing filters by (`owner = viewer OR public`).
pub fn viewer(caller: &Caller) -> Option<&str> {
    caller
        .account()
        .filter(|account| account.scopes.has(Scope::Read))
        .map(|account| account.id.as_str())
}

/// Returns the account that may create a resource (it becomes the owner: its `id`, and the
/// `username` a profile shows), or why not: an anonymous caller is unauthenticated, a token
/// without `write` is denied.
pub fn creator(caller: &Caller) -> Result<&AccountCaller, Denied> {
    let account = caller.account().ok_or(Denied::Unauthenticated)?;
    if !account.scopes.has(Scope::Write) {
        return Err(Denied::PermissionDenied);
    }
    Ok(account)
}

/// Returns the account whose credentials `caller` may manage (create, list and revoke its API
/// tokens), or why not: only a session, that is a person signed in with their password, may.
///
/// An API token never manages tokens, whatever its scopes: otherwise a short-lived or
/// write-only token could mint a child with more scopes and no expiry that outlives its own
/// revocation (issue 35). GitHub and start.gg keep token management to a session for the same
/// reason. Anonymous is unauthenticated; any API token is denied.
pub fn credential_manager(caller: &Caller) -> Result<&AccountCaller, Denied> {
    let account = caller.account().ok_or(Denied::Unauthenticated)?;
    if account.kind != crate::auth::TokenKind::Session {
        return Err(Denied::PermissionDenied);
    }
    Ok(account)
}

/// The rule: may `caller` do `action` with `resource` (`None`: there is no such resource)?
pub fn check(caller: &Caller, action: Action, resource: Option<Owned<'_>>) -> Result<(), Denied> {
    if action == Action::Change {
        // Decided before anything about the resource is looked at, so the answer says nothing
        // about whether it exists.
        creator(caller)?;
    }
    let resource = resource.ok_or(Denied::NotFound)?;
    let owns = match action {
        Action::Read => viewer(caller) == Some(resource.owner),
        Action::Change => caller.account_id() == Some(resource.owner),
    };
    if owns {
        return Ok(());
    }
    match (resource.visibility, action) {
        (Visibility::Private, _) => Err(Denied::NotFound),
        (Visibility::Public, Action::Read) => Ok(()),
        (Visibility::Public, Action::Change) => Err(Denied::PermissionDenied),
    }
}

/// The rule applied to a resource read from a store: returns it when `caller` may do `action`
/// with it, else why not (`None`, no such resource, is [`Denied::NotFound`]). `owned` says who
/// owns it and who may see it. What a handler calls instead of [`check`] followed by its own
/// unwrapping of the resource.
pub fn admit<R>(
    caller: &Caller,
    action: Action,
    resource: Option<R>,
    owned: impl for<'r> Fn(&'r R) -> Owned<'r>,
) -> Result<R, Denied> {
    check(caller, action, resource.as_ref().map(&owned))?;
    resource.ok_or(Denied::NotFound)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auth::{AccountCaller, Scopes, TokenKind};

    fn account(id: &str, kind: TokenKind, scopes: Scopes) -> Caller {
        Caller::Account(AccountCaller {
            id: id.to_owned(),
            username: id.to_owned(),
            kind,
            scopes,
            expires: None,
        })
    }

    /// Every caller of the matrix, by name.
    fn callers() -> Vec<(&'static str, Caller)> {
        vec![
            (
                "owner",
                account("acc_owner", TokenKind::Session, Scopes::ALL),
            ),
            (
                "owner api rw",
                account("acc_owner", TokenKind::Api, Scopes::ALL),
            ),
            (
                "owner api read-only",
                account("acc_owner", TokenKind::Api, Scopes::NONE.with(Scope::Read)),
            ),
            (
                "owner api write-only",
                account("acc_owner", TokenKind::Api, Scopes::NONE.with(Scope::Write)),
            ),
            (
                "other",
                account("acc_other", TokenKind::Session, Scopes::ALL),
            ),
            ("anonymous", Caller::Anonymous),
        ]
    }

    use Denied::{NotFound as N, PermissionDenied as F, Unauthenticated as U};
    const OK: Result<(), Denied> = Ok(());

    #[test]
    fn the_ownership_matrix() {
        // caller, [private read, private change, public read, public change, missing read, missing change]
        let expected: [(&str, [Result<(), Denied>; 6]); 6] = [
            ("owner", [OK, OK, OK, OK, Err(N), Err(N)]),
            ("owner api rw", [OK, OK, OK, OK, Err(N), Err(N)]),
            (
                "owner api read-only",
                [OK, Err(F), OK, Err(F), Err(N), Err(F)],
            ),
            // No read scope: sees only what anyone sees, yet may change what it owns.
            ("owner api write-only", [Err(N), OK, OK, OK, Err(N), Err(N)]),
            ("other", [Err(N), Err(N), OK, Err(F), Err(N), Err(N)]),
            ("anonymous", [Err(N), Err(U), OK, Err(U), Err(N), Err(U)]),
        ];
        let private = Owned {
            owner: "acc_owner",
            visibility: Visibility::Private,
        };
        let public = Owned {
            visibility: Visibility::Public,
            ..private
        };
        for ((name, caller), (want_name, want)) in callers().into_iter().zip(expected) {
            assert_eq!(name, want_name);
            let got = [
                check(&caller, Action::Read, Some(private)),
                check(&caller, Action::Change, Some(private)),
                check(&caller, Action::Read, Some(public)),
                check(&caller, Action::Change, Some(public)),
                check(&caller, Action::Read, None),
                check(&caller, Action::Change, None),
            ];
            assert_eq!(got, want, "{name}");
        }
    }

    #[test]
    fn who_may_create_and_whose_private_things_a_listing_shows() {
        let got: Vec<_> = callers()
            .into_iter()
            .map(|(name, caller)| (name, creator(&caller).is_ok(), viewer(&caller).is_some()))
            .collect();
        assert_eq!(
            got,
            [
                ("owner", true, true),
                ("owner api rw", true, true),
                ("owner api read-only", false, true),
                ("owner api write-only", true, false),
                ("other", true, true),
                ("anonymous", false, false),
            ]
        );
        assert_eq!(creator(&Caller::Anonymous), Err(U));
    }

    #[test]
    fn only_a_session_manages_api_tokens_whatever_a_tokens_scopes() {
        let got: Vec<_> = callers()
            .into_iter()
            .map(|(name, caller)| (name, credential_manager(&caller).map(|a| a.id.clone())))
            .collect();
        assert_eq!(
            got,
            [
                ("owner", Ok("acc_owner".to_owned())),
                ("owner api rw", Err(F)),
                ("owner api read-only", Err(F)),
                ("owner api write-only", Err(F)),
                ("other", Ok("acc_other".to_owned())),
                ("anonymous", Err(U)),
            ]
        );
    }

    #[test]
    fn a_hidden_resource_reads_exactly_as_a_missing_one() {
        let hidden = N.to_failure("ruleset", "rs_1");
        let status = tonic::Status::from(hidden);
        assert_eq!(status.code(), Code::NotFound);
        assert_eq!(status.message(), "no ruleset `rs_1`");
        let denied = tonic::Status::from(F.to_failure("ruleset", "rs_1"));
        assert_eq!(denied.code(), Code::PermissionDenied);
        assert_eq!(
            tonic::Status::from(U.to_failure("ruleset", "rs_1")).code(),
            Code::Unauthenticated
        );
        // Creating has no resource to name: the refusal says what the caller lacks.
        let create = tonic::Status::from(F.to_create_failure());
        assert_eq!(create.code(), Code::PermissionDenied);
        assert!(create.message().contains("`write` scope"), "{create:?}");
        assert_eq!(
            tonic::Status::from(U.to_create_failure()).code(),
            Code::Unauthenticated
        );
        // A long id is quoted short.
        let long = "x".repeat(10_000);
        assert!(
            tonic::Status::from(N.to_failure("ruleset", &long))
                .message()
                .len()
                < 200
        );
    }

    #[test]
    fn admit_returns_the_resource_only_when_the_rule_allows() {
        let owner = account("acc_owner", TokenKind::Session, Scopes::ALL);
        let other = account("acc_other", TokenKind::Session, Scopes::ALL);
        #[allow(clippy::ptr_arg)] // The resource of this test is a String.
        fn owned(owner: &String) -> Owned<'_> {
            Owned {
                owner: owner.as_str(),
                visibility: Visibility::Private,
            }
        }
        let mine = || Some("acc_owner".to_owned());
        assert_eq!(
            admit(&owner, Action::Change, mine(), owned),
            Ok("acc_owner".to_owned())
        );
        assert_eq!(
            admit(&other, Action::Read, mine(), owned),
            Err(Denied::NotFound)
        );
        assert_eq!(
            admit(&owner, Action::Read, None, owned),
            Err(Denied::NotFound)
        );
        assert_eq!(
            admit(&Caller::Anonymous, Action::Change, mine(), owned),
            Err(Denied::Unauthenticated)
        );
    }
}
