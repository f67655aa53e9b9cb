//! Rulesets people own: a named card, deck or deck set script of one game, and its immutable
//! versions (`shared/spec/turny/guide-rulesets.md`, "Share a ruleset" and "Pinned copies and
//! updates").
//!
//! Every change of the source or the direct bans makes a new [`Version`]; a change of the
//! name, of `public` or of `enabled` does not. A downloaded copy ([`Origin`]) has no versions
//! of its own: it points at the origin's `(ruleset, version)` and is read-only. This module
//! only holds the types and their rules; storing them is `crate::rulesets_store`'s, and who
//! may read or change one is decided by callers with `kit::access`.

use std::fmt;
use std::time::SystemTime;

use proto::game::Game;

use super::rule_result::Scope;

/// The longest ruleset name, in characters.
pub const MAX_NAME_CHARS: usize = 100;

/// The longest card ref a direct ban may name, in characters (every game's refs are far
/// shorter; this only keeps junk out).
pub const MAX_CARD_REF_CHARS: usize = 64;

/// A ruleset's opaque id (`rs_…`, URL-safe).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RulesetId(pub String);

impl RulesetId {
    /// The prefix every ruleset id starts with.
    pub const PREFIX: &'static str = "rs_";
}

impl fmt::Display for RulesetId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A ruleset's name by the platform's text rule for names (`kit::text`): 1 to
/// [`MAX_NAME_CHARS`] characters, not only spaces, no control or bidirectional formatting
/// characters. Kept as typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RulesetName(String);

impl RulesetName {
    /// Checks a name as typed.
    pub fn parse(name: &str) -> Result<Self, RulesetError> {
        use proto::text::Problem;
        match proto::text::check_name(name, MAX_NAME_CHARS) {
            Ok(()) => Ok(Self(name.to_owned())),
            Err(Problem::Blank) => Err(RulesetError::EmptyName),
            Err(Problem::TooLong { .. }) => Err(RulesetError::NameTooLong {
                chars: name.chars().count(),
            }),
            // A NUL is a control character to the name rule; `Nul` is free text's.
            Err(Problem::Control(_) | Problem::Nul) => Err(RulesetError::ControlCharacterInName),
            Err(Problem::Bidi(found)) => Err(RulesetError::BidiCharacterInName(found)),
        }
    }

    /// Returns a name as stored: checked when it was given, perhaps under an older rule, and
    /// read back as it is so a tightened rule never hides a ruleset from its owner.
    pub fn stored(name: String) -> Self {
        Self(name)
    }

    /// Returns the name as typed.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for RulesetName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Where a downloaded copy was saved from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OriginKind {
    /// The author's profile ("Save to my account"); such a copy shows no updates.
    Profile,
    /// A tournament's Rules tab ("Add to saved rulesets"); such a copy shows "Update
    /// available" when the author's latest version is newer.
    Tournament,
}

/// What a downloaded copy runs: one version of someone's ruleset, pinned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    /// The original ruleset (possibly edited, unpublished or deleted since).
    pub ruleset: RulesetId,
    /// Its version the copy runs.
    pub version: u32,
    /// Where the copy was saved from.
    pub from: OriginKind,
}

/// Who a new ruleset belongs to: the account's id and its username (usernames never change,
/// so the name is kept with the ruleset for profiles and listings).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Owner<'a> {
    /// The account's id (`acc_…`).
    pub id: &'a str,
    /// The account's username.
    pub username: &'a str,
}

/// A ruleset: its identity and settings. The code lives in its [`Version`]s.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ruleset {
    /// Its id.
    pub id: RulesetId,
    /// The game its script judges.
    pub game: Game,
    /// The owning account's id: what the ownership rule compares.
    pub owner: String,
    /// The owning account's username, as typed at sign-up: what the ruleset shows as its
    /// owner and what profiles list by (its id for a ruleset saved before names were kept).
    pub owner_name: String,
    /// Its name.
    pub name: RulesetName,
    /// What its script looks at.
    pub scope: Scope,
    /// Shown on the owner's profile for anyone to read and save. False for a new ruleset.
    pub public: bool,
    /// False hides it from every rule picker and legality check without deleting it.
    pub enabled: bool,
    /// The newest version; for a copy, the origin's version it is pinned to.
    pub latest_version: u32,
    /// Set for a downloaded copy, which is read-only.
    pub origin: Option<Origin>,
    /// When it was created.
    pub create_time: SystemTime,
    /// When it was last changed.
    pub update_time: SystemTime,
}

impl Ruleset {
    /// Returns whether this is a downloaded copy (read-only, no versions of its own).
    pub fn is_copy(&self) -> bool {
        self.origin.is_some()
    }

    /// Returns whether this copy should show "Update available", given the origin's latest
    /// version: only a copy saved from a tournament, and only when it is behind ("Copies
    /// saved from a profile don't show updates yet").
    pub fn is_update_available(&self, origin_latest: u32) -> bool {
        self.origin.as_ref().is_some_and(|origin| {
            origin.from == OriginKind::Tournament && origin.version < origin_latest
        })
    }

    /// Checks that `patch` may be applied: a copy takes no change but `enabled`, and direct
    /// bans must suit the ruleset's game and scope.
    pub fn check_patch(&self, patch: &Patch) -> Result<(), RulesetError> {
        if self.is_copy()
            && (patch.name.is_some()
                || patch.source.is_some()
                || patch.public.is_some()
                || patch.direct_bans.is_some())
        {
            return Err(RulesetError::CopyIsReadOnly);
        }
        if let Some(bans) = &patch.direct_bans {
            check_direct_bans(self.game, self.scope, bans)?;
        }
        Ok(())
    }
}

/// One immutable version of a ruleset's code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    /// The ruleset it belongs to.
    pub ruleset: RulesetId,
    /// 1 for the first, then one more for each change of source or direct bans.
    pub version: u32,
    /// The JavaScript source.
    pub source: String,
    /// Card refs banned on top of the script, in the order picked.
    pub direct_bans: Vec<String>,
    /// When it was made.
    pub create_time: SystemTime,
}

impl Version {
    /// Returns whether `patch` changes this version's code, so that applying it makes a new
    /// version. Sending the same source or bans again changes nothing.
    pub fn is_changed_by(&self, patch: &Patch) -> bool {
        patch
            .source
            .as_ref()
            .is_some_and(|source| *source != self.source)
            || patch
                .direct_bans
                .as_ref()
                .is_some_and(|bans| *bans != self.direct_bans)
    }
}

/// A partial change of a ruleset: `None` leaves a field as it is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Patch {
    /// A new name.
    pub name: Option<RulesetName>,
    /// A new source (a new version).
    pub source: Option<String>,
    /// Shown on the profile or not.
    pub public: Option<bool>,
    /// Offered in rule pickers or not.
    pub enabled: Option<bool>,
    /// New direct bans (a new version); checked with [`check_direct_bans`].
    pub direct_bans: Option<Vec<String>>,
}

/// Returns whether a ruleset of `game` and `scope` may carry direct bans: card rules of
/// Legends of Runeterra and Pokémon ("In Legends of Runeterra and Pokémon, a card rule has a
/// Direct bans picker").
pub fn has_direct_bans(game: Game, scope: Scope) -> bool {
    scope == Scope::Card && matches!(game, Game::Lor | Game::Pokemon)
}

/// Checks direct bans for a ruleset of `game` and `scope`: none at all is always fine; some
/// only where [`has_direct_bans`], each a non-empty ref of at most [`MAX_CARD_REF_CHARS`]
/// characters without spaces or control characters, none twice.
pub fn check_direct_bans(game: Game, scope: Scope, bans: &[String]) -> Result<(), RulesetError> {
    if bans.is_empty() {
        return Ok(());
    }
    if !has_direct_bans(game, scope) {
        return Err(RulesetError::DirectBansNotAllowed { game, scope });
    }
    for (index, card) in bans.iter().enumerate() {
        let well_formed = !card.is_empty()
            && card.chars().count() <= MAX_CARD_REF_CHARS
            && !card.chars().any(|c| c.is_control() || c.is_whitespace());
        if !well_formed {
            return Err(RulesetError::InvalidCardRef { index });
        }
        if bans[..index].contains(card) {
            return Err(RulesetError::DuplicateBan { index });
        }
    }
    Ok(())
}

/// Why a ruleset or a change of one is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesetError {
    /// The name is empty or only spaces.
    #[error("the ruleset name must not be empty")]
    EmptyName,
    /// The name is longer than [`MAX_NAME_CHARS`].
    #[error("the ruleset name has {chars} characters (at most {MAX_NAME_CHARS})")]
    NameTooLong {
        /// Its length in characters.
        chars: usize,
    },
    /// The name holds a control character (a line break, a tab, …).
    #[error("the ruleset name must not contain control characters")]
    ControlCharacterInName,
    /// The name holds a bidirectional embedding, override or isolate (U+202E, …), which would
    /// show the text after it reordered.
    #[error("the ruleset name must not contain bidirectional formatting characters (found U+{:04X})", *.0 as u32)]
    BidiCharacterInName(char),
    /// Direct bans were given for a ruleset that has no Direct bans picker.
    #[error("direct bans are only for card rules of lor and pokemon, not a {} rule of {game}", scope_word(*scope))]
    DirectBansNotAllowed {
        /// The ruleset's game.
        game: Game,
        /// The ruleset's scope.
        scope: Scope,
    },
    /// A direct ban is not a card ref.
    #[error("direct ban {index} is not a card ref")]
    InvalidCardRef {
        /// Its position in the list, from 0.
        index: usize,
    },
    /// A card is banned twice.
    #[error("direct ban {index} names a card already banned")]
    DuplicateBan {
        /// The position of the second mention, from 0.
        index: usize,
    },
    /// A change other than `enabled` was asked of a downloaded copy.
    #[error("a downloaded ruleset is read-only: duplicate it to edit it")]
    CopyIsReadOnly,
}

impl RulesetError {
    /// Returns the request field at fault, when one is.
    pub fn field(&self) -> Option<&'static str> {
        match self {
            RulesetError::EmptyName
            | RulesetError::NameTooLong { .. }
            | RulesetError::ControlCharacterInName
            | RulesetError::BidiCharacterInName(_) => Some("name"),
            RulesetError::DirectBansNotAllowed { .. }
            | RulesetError::InvalidCardRef { .. }
            | RulesetError::DuplicateBan { .. } => Some("direct_bans"),
            RulesetError::CopyIsReadOnly => None,
        }
    }
}

fn scope_word(scope: Scope) -> &'static str {
    match scope {
        Scope::Card => "card",
        Scope::Deck => "deck",
        Scope::Deckset => "deck set",
    }
}

#[cfg(test)]
mod tests {
    use std::time::UNIX_EPOCH;

    use super::*;

    fn ruleset(origin: Option<Origin>) -> Ruleset {
        Ruleset {
            id: RulesetId("rs_a".into()),
            game: Game::Lor,
            owner: "acc_a".into(),
            owner_name: "a".into(),
            name: RulesetName::parse("Two-of Standard").expect("valid"),
            scope: Scope::Card,
            public: false,
            enabled: true,
            latest_version: 2,
            origin,
            create_time: UNIX_EPOCH,
            update_time: UNIX_EPOCH,
        }
    }

    fn origin(version: u32, from: OriginKind) -> Option<Origin> {
        Some(Origin {
            ruleset: RulesetId("rs_b".into()),
            version,
            from,
        })
    }

    #[test]
    fn names_are_one_to_a_hundred_characters_without_control_characters() {
        let hundred = "é".repeat(100);
        let long = "a".repeat(101);
        let cases: &[(&str, Result<(), RulesetError>)] = &[
            ("Two-of Standard", Ok(())),
            ("x", Ok(())),
            (" padded ", Ok(())),
            (&hundred, Ok(())),
            ("", Err(RulesetError::EmptyName)),
            ("   ", Err(RulesetError::EmptyName)),
            (&long, Err(RulesetError::NameTooLong { chars: 101 })),
            ("two\nlines", Err(RulesetError::ControlCharacterInName)),
            ("tab\there", Err(RulesetError::ControlCharacterInName)),
            ("nul\0", Err(RulesetError::ControlCharacterInName)),
            ("bell\u{7}", Err(RulesetError::ControlCharacterInName)),
            ("c1\u{85}", Err(RulesetError::ControlCharacterInName)),
            (
                "evil\u{202E}",
                Err(RulesetError::BidiCharacterInName('\u{202E}')),
            ),
        ];
        for (name, expected) in cases {
            let parsed = RulesetName::parse(name);
            assert_eq!(parsed.clone().map(|_| ()), *expected, "{name:?}");
            if let Ok(parsed) = parsed {
                assert_eq!(parsed.as_str(), *name, "kept as typed");
            }
        }
    }

    #[test]
    fn direct_bans_are_only_for_card_rules_of_lor_and_pokemon() {
        let bans = vec!["01IO049".to_owned()];
        let cases = [
            (Game::Lor, Scope::Card, true),
            (Game::Pokemon, Scope::Card, true),
            (Game::Riftbound, Scope::Card, false),
            (Game::Lor, Scope::Deck, false),
            (Game::Lor, Scope::Deckset, false),
            (Game::Pokemon, Scope::Deck, false),
            (Game::Pokemon, Scope::Deckset, false),
            (Game::Riftbound, Scope::Deck, false),
            (Game::Riftbound, Scope::Deckset, false),
        ];
        for (game, scope, allowed) in cases {
            assert_eq!(has_direct_bans(game, scope), allowed, "{game} {scope:?}");
            let expected = if allowed {
                Ok(())
            } else {
                Err(RulesetError::DirectBansNotAllowed { game, scope })
            };
            assert_eq!(
                check_direct_bans(game, scope, &bans),
                expected,
                "{game} {scope:?}"
            );
            assert_eq!(
                check_direct_bans(game, scope, &[]),
                Ok(()),
                "no bans: always fine"
            );
        }
        assert_eq!(
            RulesetError::DirectBansNotAllowed {
                game: Game::Riftbound,
                scope: Scope::Deckset
            }
            .to_string(),
            "direct bans are only for card rules of lor and pokemon, not a deck set rule of riftbound"
        );
    }

    #[test]
    fn direct_bans_are_distinct_card_refs() {
        let cases: &[(&[&str], Result<(), RulesetError>)] = &[
            (&["01IO049", "01SI001"], Ok(())),
            (&["sv1-1"], Ok(())),
            (&[""], Err(RulesetError::InvalidCardRef { index: 0 })),
            (
                &["01IO049", "01 IO"],
                Err(RulesetError::InvalidCardRef { index: 1 }),
            ),
            (&["a\nb"], Err(RulesetError::InvalidCardRef { index: 0 })),
            (
                &["01IO049", "01SI001", "01IO049"],
                Err(RulesetError::DuplicateBan { index: 2 }),
            ),
        ];
        let long = vec!["x".repeat(MAX_CARD_REF_CHARS + 1)];
        assert_eq!(
            check_direct_bans(Game::Pokemon, Scope::Card, &long),
            Err(RulesetError::InvalidCardRef { index: 0 })
        );
        for (bans, expected) in cases {
            let bans: Vec<String> = bans.iter().map(|&ban| ban.to_owned()).collect();
            assert_eq!(
                check_direct_bans(Game::Lor, Scope::Card, &bans),
                *expected,
                "{bans:?}"
            );
        }
    }

    #[test]
    fn a_patch_with_direct_bans_is_checked_against_the_game_and_scope() {
        let mut deck_rule = ruleset(None);
        deck_rule.scope = Scope::Deck;
        let bans = Patch {
            direct_bans: Some(vec!["01IO049".into()]),
            ..Patch::default()
        };
        assert_eq!(
            deck_rule.check_patch(&bans),
            Err(RulesetError::DirectBansNotAllowed {
                game: Game::Lor,
                scope: Scope::Deck
            })
        );
        assert_eq!(ruleset(None).check_patch(&bans), Ok(()));
    }

    #[test]
    fn only_a_copy_from_a_tournament_that_is_behind_has_an_update() {
        assert!(ruleset(origin(2, OriginKind::Tournament)).is_update_available(3));
        assert!(!ruleset(origin(3, OriginKind::Tournament)).is_update_available(3));
        assert!(!ruleset(origin(2, OriginKind::Profile)).is_update_available(3));
        assert!(!ruleset(None).is_update_available(3));
    }

    #[test]
    fn a_copy_takes_only_a_change_of_enabled() {
        let copy = ruleset(origin(1, OriginKind::Profile));
        let enabled = Patch {
            enabled: Some(false),
            ..Patch::default()
        };
        assert_eq!(copy.check_patch(&enabled), Ok(()));
        let renamed = Patch {
            name: Some(RulesetName::parse("Mine").expect("valid")),
            ..Patch::default()
        };
        assert_eq!(
            copy.check_patch(&renamed),
            Err(RulesetError::CopyIsReadOnly)
        );
        assert_eq!(ruleset(None).check_patch(&renamed), Ok(()));
    }

    #[test]
    fn only_a_different_source_or_ban_list_changes_a_version() {
        let version = Version {
            ruleset: RulesetId("rs_a".into()),
            version: 1,
            source: "a".into(),
            direct_bans: vec!["01IO049".into()],
            create_time: UNIX_EPOCH,
        };
        let same = Patch {
            source: Some("a".into()),
            direct_bans: Some(vec!["01IO049".into()]),
            name: Some(RulesetName::parse("x").expect("valid")),
            ..Patch::default()
        };
        assert!(!version.is_changed_by(&same));
        assert!(version.is_changed_by(&Patch {
            source: Some("b".into()),
            ..Patch::default()
        }));
        assert!(version.is_changed_by(&Patch {
            direct_bans: Some(vec![]),
            ..Patch::default()
        }));
    }
}
