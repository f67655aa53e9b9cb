//! The rulesets RPCs: the built-in rules and the rulesets people own, read and changed through
//! the one ownership rule (`kit::access`).
//!
//! Built-in rules are public resources nobody owns: anyone reads them, nobody changes them
//! (401 for an anonymous caller, 403 for everyone else). A stored ruleset is private unless
//! made public; a private one is *not found* for everyone but its owner. A downloaded copy is
//! read-only but for `enabled` (403). Every saved source passes the safety check first.

use std::time::SystemTime;

use kit::access::{self, Action, Denied, Owned, Visibility};
use kit::auth::Caller;
use kit::clients::TournamentsClient;
use kit::timestamp::to_proto;
use proto::game::Game;
use proto::scripts::v1 as pb;

use crate::builtin::{self, BuiltinRule};
use crate::domain::direct_bans::DirectBans;
use crate::domain::rule_result::Scope;
use crate::domain::ruleset::{
    Origin, OriginKind, Owner, Patch, Ruleset, RulesetId, RulesetName, Version, check_direct_bans,
};
use crate::domain::safety;
use crate::error::Error;
use crate::rulesets_store::RulesetStore;
use crate::runner::RunFailure;

/// What a run of a ruleset by reference runs: one version's source and direct bans.
#[derive(Debug, Clone)]
pub struct Code {
    /// The JavaScript source.
    pub source: String,
    /// The cards banned on top of the script (a card rule's; none for the others).
    pub direct_bans: DirectBans,
}

/// The rulesets of the service: the built-ins and the store.
#[derive(Debug, Clone)]
pub struct Rulesets {
    store: RulesetStore,
    /// Where a tournament's pinned rules are read when a copy is saved from its Rules tab.
    tournaments: Option<TournamentsClient>,
}

impl Rulesets {
    /// Serves the rulesets kept in `store`.
    pub fn new(store: RulesetStore) -> Self {
        Self {
            store,
            tournaments: None,
        }
    }

    /// Reads tournaments' pinned rules from `tournaments`, so a player can save a tournament's
    /// custom rule from its Rules tab.
    pub fn with_tournaments(mut self, tournaments: TournamentsClient) -> Self {
        self.tournaments = Some(tournaments);
        self
    }

    /// The built-in rules of `game`, then the caller's own and downloaded ones.
    pub async fn list(
        &self,
        caller: &Caller,
        game: Game,
        scope: Option<Scope>,
    ) -> Result<Vec<pb::Ruleset>, Error> {
        let mut out: Vec<pb::Ruleset> = builtin::of_game(game)
            .filter(|rule| scope.is_none_or(|scope| rule.scope == scope))
            .map(builtin_to_proto)
            .collect();
        if let Some(viewer) = access::viewer(caller) {
            for ruleset in self.store.list_own(viewer, game, scope).await? {
                if let Some(shown) = self.shown(&ruleset).await? {
                    out.push(shown);
                }
            }
        }
        Ok(out)
    }

    /// What the profile of `username` (as typed at sign-up) lists: their public rulesets, of
    /// `game` when given, the last changed first. Not downloaded copies, not deleted ones.
    pub async fn list_public(
        &self,
        caller: &Caller,
        username: &str,
        game: Option<Game>,
    ) -> Result<Vec<pb::Ruleset>, Error> {
        let mut out = Vec::new();
        // No account has a name like this (a NUL, far too long): it has no rulesets.
        if !kit::text::is_possible_key(username, kit::text::MAX_USERNAME_BYTES) {
            return Ok(out);
        }
        for ruleset in self.store.list_public(username, game).await? {
            // Public, so readable by anyone; asked all the same, as every read is.
            if access::check(caller, Action::Read, Some(owned(&ruleset))).is_err() {
                continue;
            }
            if let Some(shown) = self.shown(&ruleset).await? {
                out.push(shown);
            }
        }
        Ok(out)
    }

    /// What a run of ruleset `id` (at `version`, else its latest) runs, if the caller may see
    /// it: a missing and a hidden ruleset are the same `ruleset_not_found`.
    pub async fn code(
        &self,
        caller: &Caller,
        id: &str,
        version: Option<u32>,
    ) -> Result<Code, Error> {
        let not_found = || Error::RulesetNotFound {
            id: id.to_owned(),
            version,
        };
        if let Some(rule) = builtin::get(id) {
            return match version {
                None | Some(1) => Ok(Code {
                    source: rule.source.to_owned(),
                    direct_bans: DirectBans::default(),
                }),
                Some(_) => Err(not_found()),
            };
        }
        let ruleset = self.store.get(&RulesetId(id.to_owned())).await?;
        access::check(caller, Action::Read, ruleset.as_ref().map(owned))
            .map_err(|_| not_found())?;
        let ruleset = ruleset.ok_or_else(not_found)?;
        let version = match (version, &ruleset.origin) {
            (None, _) => self.store.code(&ruleset).await?,
            // A copy runs its pinned version only.
            (Some(asked), Some(origin)) if asked == origin.version => {
                self.store.version(&origin.ruleset, asked).await?
            }
            (Some(_), Some(_)) => None,
            (Some(asked), None) => self.store.version(&ruleset.id, asked).await?,
        };
        version
            .map(|version| Code {
                source: version.source,
                direct_bans: DirectBans::new(version.direct_bans),
            })
            .ok_or_else(not_found)
    }

    /// Saves a new ruleset of the caller's.
    pub async fn create(
        &self,
        caller: &Caller,
        game: Game,
        request: pb::CreateRulesetRequest,
    ) -> Result<pb::Ruleset, Error> {
        let owner = owner_of(caller)?;
        let scope = scope(request.scope)?.ok_or(Error::BadField {
            field: "scope",
            reason: "give `card`, `deck` or `deckset`".to_owned(),
        })?;
        let name = RulesetName::parse(&request.name)?;
        check_direct_bans(game, scope, &request.direct_bans)?;
        safe(&request.source)?;
        let ruleset = self
            .store
            .create(
                owner,
                game,
                &name,
                scope,
                &request.source,
                request.public,
                &request.direct_bans,
                SystemTime::now(),
            )
            .await?;
        self.shown(&ruleset)
            .await?
            .ok_or_else(|| Error::Sandbox("a ruleset just saved cannot be read".to_owned()))
    }

    /// A ruleset the caller may see, with its source.
    pub async fn get(&self, caller: &Caller, game: Game, id: &str) -> Result<pb::Ruleset, Error> {
        if let Some(rule) = builtin::get(id).filter(|rule| rule.game == game) {
            return Ok(builtin_to_proto(rule));
        }
        let ruleset = self.stored(game, id).await?;
        access::check(caller, Action::Read, ruleset.as_ref().map(owned)).map_err(|denied| {
            Error::Denied {
                denied,
                id: id.to_owned(),
            }
        })?;
        let ruleset = ruleset.ok_or_else(|| not_found(id))?;
        self.shown(&ruleset).await?.ok_or_else(|| not_found(id))
    }

    /// Changes a ruleset of the caller's.
    pub async fn update(
        &self,
        caller: &Caller,
        game: Game,
        request: pb::UpdateRulesetRequest,
    ) -> Result<pb::Ruleset, Error> {
        let id = request.id.clone();
        let ruleset = self.changeable(caller, game, &id).await?;
        let patch = Patch {
            name: request
                .name
                .as_deref()
                .map(RulesetName::parse)
                .transpose()?,
            source: request.source,
            public: request.public,
            enabled: request.enabled,
            direct_bans: request.direct_bans.map(|bans| bans.refs),
        };
        if ruleset.is_copy()
            && (patch.name.is_some()
                || patch.source.is_some()
                || patch.public.is_some()
                || patch.direct_bans.is_some())
        {
            return Err(Error::Denied {
                denied: Denied::PermissionDenied,
                id,
            });
        }
        if let Some(bans) = &patch.direct_bans {
            check_direct_bans(game, ruleset.scope, bans)?;
        }
        if let Some(source) = &patch.source {
            safe(source)?;
        }
        let updated = self
            .store
            .update(&ruleset.id, &patch, SystemTime::now())
            .await?
            .ok_or_else(|| not_found(&id))?;
        self.shown(&updated).await?.ok_or_else(|| not_found(&id))
    }

    /// Deletes a ruleset of the caller's.
    pub async fn delete(&self, caller: &Caller, game: Game, id: &str) -> Result<(), Error> {
        let ruleset = self.changeable(caller, game, id).await?;
        if self.store.delete(&ruleset.id, SystemTime::now()).await? {
            Ok(())
        } else {
            Err(not_found(id))
        }
    }

    /// Copies a ruleset the caller may see into a new private one of the caller's.
    pub async fn duplicate(
        &self,
        caller: &Caller,
        game: Game,
        id: &str,
    ) -> Result<pb::Ruleset, Error> {
        let owner = owner_of(caller)?;
        let seen = self.get(caller, game, id).await?;
        let scope = scope(seen.scope)?.ok_or_else(|| not_found(id))?;
        let name = RulesetName::parse(&seen.name)?;
        let ruleset = self
            .store
            .create(
                owner,
                game,
                &name,
                scope,
                &seen.source,
                false,
                &seen.direct_bans,
                SystemTime::now(),
            )
            .await?;
        self.shown(&ruleset).await?.ok_or_else(|| not_found(id))
    }

    /// Saves a downloaded copy of a ruleset the caller may see, pinned to a version.
    pub async fn save(
        &self,
        caller: &Caller,
        game: Game,
        request: pb::SaveRulesetRequest,
    ) -> Result<pb::Ruleset, Error> {
        let owner = owner_of(caller)?;
        let id = request.id;
        let from = match request.from.as_str() {
            _ if !request.tournament.is_empty() => OriginKind::Tournament,
            "" | "profile" => OriginKind::Profile,
            "tournament" => OriginKind::Tournament,
            _ => {
                return Err(Error::BadField {
                    field: "from",
                    reason: "expected profile or tournament".to_owned(),
                });
            }
        };
        if builtin::get(&id).is_some_and(|rule| rule.game == game) {
            return Err(Error::BadField {
                field: "id",
                reason: "a built-in rule is everyone's already: pick it, or duplicate it to edit"
                    .to_owned(),
            });
        }
        let original = self.stored(game, &id).await?;
        // A tournament that pins this ruleset shows its code to anyone, so anyone may save the
        // pinned version from it; otherwise the ownership rule decides.
        let pinned = match request.tournament.as_str() {
            "" => None,
            tournament => self.pinned_version(tournament, &id).await?,
        };
        if pinned.is_none() {
            access::check(caller, Action::Read, original.as_ref().map(owned)).map_err(
                |denied| Error::Denied {
                    denied,
                    id: id.clone(),
                },
            )?;
        }
        let original = original.ok_or_else(|| not_found(&id))?;
        let version = match (pinned, request.version) {
            (Some(pinned), Some(asked)) if asked != pinned => {
                return Err(Error::BadField {
                    field: "version",
                    reason: format!(
                        "the tournament uses version {pinned} of this ruleset, not {asked}"
                    ),
                });
            }
            (Some(pinned), _) => Some(pinned),
            (None, asked) => asked,
        };
        // A copy of a copy is a copy of its original, at the same version.
        let origin = match &original.origin {
            Some(origin) => Origin {
                ruleset: origin.ruleset.clone(),
                version: version.unwrap_or(origin.version),
                from,
            },
            None => Origin {
                ruleset: original.id.clone(),
                version: version.unwrap_or(original.latest_version),
                from,
            },
        };
        let copy = self
            .store
            .save_copy(
                owner,
                &origin,
                &original.name,
                game,
                original.scope,
                SystemTime::now(),
            )
            .await?;
        self.shown(&copy).await?.ok_or_else(|| not_found(&id))
    }

    /// The version of ruleset `id` that tournament `tournament` pins in its deck settings, if it
    /// pins it at all (a tournament that does not exist pins nothing).
    async fn pinned_version(&self, tournament: &str, id: &str) -> Result<Option<u32>, Error> {
        let client = self.tournaments.as_ref().ok_or_else(|| Error::BadField {
            field: "tournament",
            reason: "this server reads no tournaments".to_owned(),
        })?;
        let found = match client
            .get_tournament(proto::tournaments::v1::GetTournamentRequest {
                id: tournament.to_owned(),
            })
            .await
        {
            Ok(found) => found,
            Err(err) if err.code == tonic::Code::NotFound => return Ok(None),
            Err(err) => return Err(Error::Tournaments(err)),
        };
        let settings = found.tournament.and_then(|t| t.deck_settings);
        Ok(settings.and_then(|settings| {
            [settings.card, settings.deck, settings.deckset]
                .into_iter()
                .flatten()
                .find(|rule| !rule.built_in && rule.ruleset == id)
                .map(|rule| rule.version)
        }))
    }

    /// Moves a downloaded copy of the caller's to its original's latest version and name.
    pub async fn update_copy(
        &self,
        caller: &Caller,
        game: Game,
        id: &str,
    ) -> Result<pb::Ruleset, Error> {
        let copy = self.changeable(caller, game, id).await?;
        let origin = copy.origin.clone().ok_or_else(|| Error::BadField {
            field: "id",
            reason: "only a downloaded copy is updated; edit your own ruleset instead".to_owned(),
        })?;
        let original = self.store.get(&origin.ruleset).await?;
        access::check(caller, Action::Read, original.as_ref().map(owned)).map_err(|denied| {
            Error::Denied {
                denied,
                id: origin.ruleset.0.clone(),
            }
        })?;
        let original = original.ok_or_else(|| not_found(&origin.ruleset.0))?;
        let moved = self
            .store
            .move_copy(
                &copy.id,
                original.latest_version,
                &original.name,
                SystemTime::now(),
            )
            .await?
            .ok_or_else(|| not_found(id))?;
        self.shown(&moved).await?.ok_or_else(|| not_found(id))
    }

    /// The stored ruleset `id` of `game`, if there is one (deleted ones are none).
    async fn stored(&self, game: Game, id: &str) -> Result<Option<Ruleset>, Error> {
        Ok(self
            .store
            .get(&RulesetId(id.to_owned()))
            .await?
            .filter(|ruleset| ruleset.game == game))
    }

    /// The ruleset `id` if the caller may change it; built-in rules are nobody's public ones.
    async fn changeable(&self, caller: &Caller, game: Game, id: &str) -> Result<Ruleset, Error> {
        let denied = |denied| Error::Denied {
            denied,
            id: id.to_owned(),
        };
        if builtin::get(id).is_some_and(|rule| rule.game == game) {
            let nobody = Owned {
                owner: "",
                visibility: Visibility::Public,
            };
            access::check(caller, Action::Change, Some(nobody)).map_err(denied)?;
            return Err(denied(Denied::PermissionDenied));
        }
        let ruleset = self.stored(game, id).await?;
        access::check(caller, Action::Change, ruleset.as_ref().map(owned)).map_err(denied)?;
        ruleset.ok_or_else(|| not_found(id))
    }

    /// The ruleset as its reader sees it: with the source it runs (a copy's pinned version)
    /// and whether an update is available.
    async fn shown(&self, ruleset: &Ruleset) -> Result<Option<pb::Ruleset>, Error> {
        let Some(version) = self.store.code(ruleset).await? else {
            return Ok(None);
        };
        let update_available = match &ruleset.origin {
            Some(origin) if origin.from == OriginKind::Tournament => {
                match self.store.get(&origin.ruleset).await? {
                    Some(original) => ruleset.is_update_available(original.latest_version),
                    None => false,
                }
            }
            _ => false,
        };
        Ok(Some(stored_to_proto(ruleset, &version, update_available)))
    }
}

/// Who a ruleset the caller creates belongs to, or why the caller may not create one.
fn owner_of(caller: &Caller) -> Result<Owner<'_>, Error> {
    let account = access::creator(caller).map_err(Error::CannotCreate)?;
    Ok(Owner {
        id: &account.id,
        username: &account.username,
    })
}

/// What the ownership rule needs of a stored ruleset.
fn owned(ruleset: &Ruleset) -> Owned<'_> {
    Owned {
        owner: &ruleset.owner,
        visibility: if ruleset.public {
            Visibility::Public
        } else {
            Visibility::Private
        },
    }
}

fn not_found(id: &str) -> Error {
    Error::Denied {
        denied: Denied::NotFound,
        id: id.to_owned(),
    }
}

/// Refuses a source the safety check rejects.
fn safe(source: &str) -> Result<(), Error> {
    // Stored as given: text the database cannot store is refused first, naming the field.
    kit::text::check_free_text(source).map_err(|problem| Error::BadField {
        field: "source",
        reason: problem.to_string(),
    })?;
    let report = safety::check(source);
    if report.safe {
        Ok(())
    } else {
        Err(Error::Run(RunFailure::Unsafe(report)))
    }
}

/// Reads a request's scope: `None` for unspecified.
pub(crate) fn scope(value: i32) -> Result<Option<Scope>, Error> {
    match pb::RuleScope::try_from(value) {
        Ok(pb::RuleScope::Unspecified) => Ok(None),
        Ok(pb::RuleScope::Card) => Ok(Some(Scope::Card)),
        Ok(pb::RuleScope::Deck) => Ok(Some(Scope::Deck)),
        Ok(pb::RuleScope::Deckset) => Ok(Some(Scope::Deckset)),
        Err(_) => Err(Error::BadField {
            field: "scope",
            reason: "expected card, deck or deckset".to_owned(),
        }),
    }
}

fn scope_to_proto(scope: Scope) -> pb::RuleScope {
    match scope {
        Scope::Card => pb::RuleScope::Card,
        Scope::Deck => pb::RuleScope::Deck,
        Scope::Deckset => pb::RuleScope::Deckset,
    }
}

fn builtin_to_proto(rule: &BuiltinRule) -> pb::Ruleset {
    pb::Ruleset {
        id: rule.id.to_owned(),
        game: proto::game::to_wire(rule.game),
        name: rule.name.to_owned(),
        scope: scope_to_proto(rule.scope).into(),
        source: rule.source.to_owned(),
        version: 1,
        built_in: true,
        owner: None,
        public: true,
        enabled: true,
        downloaded: false,
        origin: None,
        update_available: false,
        direct_bans: Vec::new(),
        create_time: None,
        update_time: None,
    }
}

fn stored_to_proto(ruleset: &Ruleset, version: &Version, update_available: bool) -> pb::Ruleset {
    pb::Ruleset {
        id: ruleset.id.0.clone(),
        game: proto::game::to_wire(ruleset.game),
        name: ruleset.name.as_str().to_owned(),
        scope: scope_to_proto(ruleset.scope).into(),
        source: version.source.clone(),
        version: version.version,
        built_in: false,
        owner: Some(ruleset.owner_name.clone()),
        public: ruleset.public,
        enabled: ruleset.enabled,
        downloaded: ruleset.is_copy(),
        origin: ruleset.origin.as_ref().map(|origin| pb::RulesetOrigin {
            ruleset: origin.ruleset.0.clone(),
            version: origin.version,
            from: match origin.from {
                OriginKind::Profile => "profile",
                OriginKind::Tournament => "tournament",
            }
            .to_owned(),
        }),
        update_available,
        direct_bans: version.direct_bans.clone(),
        create_time: Some(to_proto(ruleset.create_time)),
        update_time: Some(to_proto(ruleset.update_time)),
    }
}
