//! The rules of usernames, passwords, token names, scopes and expiry, as tables.

use std::time::{Duration, SystemTime};

use accounts::domain::{Password, TokenName, Username, expire_time};
use accounts::tokens::require_scopes;
use kit::auth::{Scope, Scopes};

#[test]
fn usernames_follow_the_rule_and_are_kept_as_typed() {
    let table: &[(&str, bool)] = &[
        ("Ana", true),
        ("ana", true),
        ("a1_", true),
        ("0-0", true),
        ("Under_Score-Dash", true),
        ("abcdefghijklmnopqrstuvwxyz012345", true),   // 32
        ("abcdefghijklmnopqrstuvwxyz0123456", false), // 33
        ("ab", false),
        ("", false),
        ("_ana", false),
        ("-ana", false),
        ("ana.b", false),
        ("ana b", false),
        ("anä", false),
        ("ana\u{0}", false),
    ];
    for (name, ok) in table {
        match Username::parse(name) {
            Ok(username) => {
                assert!(ok, "{name:?} accepted");
                assert_eq!(username.as_str(), *name);
            }
            Err(err) => {
                assert!(!ok, "{name:?} refused: {err}");
                assert_eq!(err.field, "username");
                assert!(err.rule.contains("3 to 32"), "{}", err.rule);
            }
        }
    }
    assert_eq!(
        Username::parse("AnA").expect("valid").key(),
        Username::parse("ana").expect("valid").key()
    );
}

#[test]
fn passwords_are_10_to_1024_characters() {
    let table: Vec<(String, bool)> = vec![
        ("a".repeat(9), false),
        ("a".repeat(10), true),
        ("a".repeat(1024), true),
        ("a".repeat(1025), false),
        ("ü".repeat(10), true),  // 20 bytes, 10 characters
        ("ü".repeat(600), true), // 1,200 bytes, 600 characters
        (String::new(), false),
    ];
    for (password, ok) in table {
        let chars = password.chars().count();
        match Password::parse(password) {
            Ok(_) => assert!(ok, "{chars} characters accepted"),
            Err(err) => {
                assert!(!ok, "{chars} characters refused");
                assert_eq!(err.field, "password");
                assert_eq!(err.rule, "10 to 1,024 characters");
            }
        }
    }
}

#[test]
fn token_names_scopes_and_expiry_follow_their_rules() {
    for (name, ok) in [
        ("CI", true),
        ("x", true),
        ("", false),
        ("bell\u{7}", false),
        ("del\u{7f}", false),
    ] {
        assert_eq!(TokenName::parse(name).is_ok(), ok, "{name:?}");
    }
    assert!(TokenName::parse(&"n".repeat(100)).is_ok());
    assert_eq!(
        TokenName::parse(&"n".repeat(101)).expect_err("long").field,
        "name"
    );
    assert_eq!(
        require_scopes(Scopes::NONE).expect_err("none").field,
        "scopes"
    );
    assert!(require_scopes(Scopes::NONE.with(Scope::Read)).is_ok());
    let now = SystemTime::now();
    assert_eq!(
        expire_time(Some(now - Duration::from_secs(1)), now)
            .expect_err("past")
            .field,
        "expire_time"
    );
    assert!(expire_time(Some(now + Duration::from_secs(60)), now).is_ok());
}
