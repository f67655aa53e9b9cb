//! The template RPCs: the built-in ("Turny") templates, read by anyone and changed by no one,
//! and the templates people save — by name, only while every pile is empty and with a deck set
//! rule chosen — renamed, published, deleted, hidden from pickers and opened by link, through
//! the one ownership rule (`kit::access`); and a pasted deck read into a template's piles.

use std::collections::{BTreeMap, HashSet};
use std::time::SystemTime;

use kit::access::{self, Action, Owned, Visibility};
use kit::auth::Caller;
use kit::clients::CatalogClient;
use kit::timestamp::to_proto;
use proto::decks::v1 as pb;
use proto::game::Game;

use crate::domain::page::{Cursor, page_size};
use crate::domain::saved::{DeckName, Layout, Owner, PileView, RuleRef, SavedDeckError};
use crate::domain::template::{
    self, BuiltinTemplate, CardRuleset, RulesetMode, Template, TemplateLayout, TemplatePile, Zone,
    check_saveable,
};
use crate::error::Error;
use crate::import::import_deck;
use crate::saved::{
    layout_from_proto, next_page_token, pile_to_proto, role_from_proto, rule_from_proto,
    rule_to_proto,
};
use crate::store::{TEMPLATE_ID_PREFIX, TemplateStore};

/// What the errors of this module call a template.
const KIND: &str = "template";

/// The templates of the service: the built-ins and the store.
#[derive(Debug, Clone)]
pub struct Templates {
    store: TemplateStore,
}

impl Templates {
    /// Serves the templates kept in `store`.
    pub fn new(store: TemplateStore) -> Self {
        Self { store }
    }

    /// The game's built-in templates (on the first page; those the caller hid only when asked),
    /// then a page of the caller's own.
    pub async fn list(
        &self,
        caller: &Caller,
        request: &pb::ListTemplatesRequest,
    ) -> Result<pb::ListTemplatesResponse, Error> {
        let game = game(request.game)?;
        let after = Cursor::parse(&request.page_token)?;
        let viewer = access::viewer(caller);
        let hidden = match viewer {
            Some(viewer) => self.store.hidden(viewer).await?,
            None => HashSet::new(),
        };
        let mut templates = Vec::new();
        if after.is_none() {
            templates.extend(
                template::builtins()
                    .iter()
                    .filter(|builtin| builtin.game == game)
                    .map(|builtin| builtin_to_proto(builtin, hidden.contains(builtin.id)))
                    .filter(|shown| request.include_hidden || !shown.hidden),
            );
        }
        let Some(viewer) = viewer else {
            return Ok(pb::ListTemplatesResponse {
                templates,
                next_page_token: String::new(),
            });
        };
        let page = self
            .store
            .list_own(viewer, game, after.as_ref(), page_size(request.page_size))
            .await?;
        templates.extend(
            page.items
                .iter()
                .map(|template| template_to_proto(template, false)),
        );
        Ok(pb::ListTemplatesResponse {
            templates,
            next_page_token: next_page_token(&page),
        })
    }

    /// A user's public templates, of a game when given, a page at a time.
    pub async fn list_public(
        &self,
        caller: &Caller,
        request: &pb::ListPublicTemplatesRequest,
    ) -> Result<pb::ListTemplatesResponse, Error> {
        let after = Cursor::parse(&request.page_token)?;
        // No account has a name like this (a NUL, far too long): it has no templates.
        if !kit::text::is_possible_key(&request.username, kit::text::MAX_USERNAME_BYTES) {
            return Ok(pb::ListTemplatesResponse::default());
        }
        let mut page = self
            .store
            .list_public(
                &request.username,
                proto::game::from_wire(request.game),
                after.as_ref(),
                page_size(request.page_size),
            )
            .await?;
        // Public, so readable by anyone; asked all the same, as every read is.
        page.items
            .retain(|template| access::check(caller, Action::Read, Some(owned(template))).is_ok());
        Ok(pb::ListTemplatesResponse {
            templates: page
                .items
                .iter()
                .map(|template| template_to_proto(template, false))
                .collect(),
            next_page_token: next_page_token(&page),
        })
    }

    /// Saves the caller's layout as a template by name.
    pub async fn save(
        &self,
        caller: &Caller,
        request: pb::SaveTemplateRequest,
    ) -> Result<pb::SaveTemplateResponse, Error> {
        let owner = access::creator(caller).map_err(Error::CannotCreate)?;
        let game = game(request.game)?;
        let name = DeckName::parse(&request.name)?;
        let cards: Vec<u32> = request
            .piles
            .iter()
            .map(|pile| pile.cards.iter().map(|card| card.count).sum())
            .collect();
        check_saveable(
            &cards,
            request.deckset_rule.as_ref().map(rule_from_proto).as_ref(),
        )?;
        let layout = TemplateLayout {
            layout: layout_from_proto(request.layout)?,
            piles: request
                .piles
                .iter()
                .enumerate()
                .map(|(index, pile)| template_pile_from_proto(index, pile))
                .collect::<Result<_, _>>()?,
            open_pile: usize::try_from(request.open_pile).unwrap_or(usize::MAX),
            deck_rule: request.deck_rule.as_ref().map(rule_from_proto),
            deckset_rule: request
                .deckset_rule
                .as_ref()
                .map(rule_from_proto)
                .ok_or(template::TemplateError::NoDecksetRule)?,
            card_ruleset: request.card_ruleset.as_ref().map(card_ruleset_from_proto),
        };
        layout.check(game)?;
        let (template, replaced) = self
            .store
            .save(
                Owner {
                    id: &owner.id,
                    username: &owner.username,
                },
                game,
                &name,
                request.public,
                &layout,
                SystemTime::now(),
            )
            .await?;
        let hidden = self.store.hidden(&owner.id).await?.contains(&template.id);
        Ok(pb::SaveTemplateResponse {
            template: Some(template_to_proto(&template, hidden)),
            replaced,
        })
    }

    /// A template the caller may see.
    pub async fn get(&self, caller: &Caller, game: Game, id: &str) -> Result<pb::Template, Error> {
        let hidden = self.hidden_by(caller).await?;
        if let Some(builtin) = template::builtin(id).filter(|builtin| builtin.game == game) {
            return Ok(builtin_to_proto(&builtin, hidden.contains(id)));
        }
        let template = self.readable(caller, game, id).await?;
        Ok(template_to_proto(&template, hidden.contains(id)))
    }

    /// Renames a template of the caller's, or publishes it.
    pub async fn update(
        &self,
        caller: &Caller,
        request: pb::UpdateTemplateRequest,
    ) -> Result<pb::Template, Error> {
        let game = game(request.game)?;
        let name = request.name.as_deref().map(DeckName::parse).transpose()?;
        self.changeable(caller, game, &request.id).await?;
        let template = self
            .store
            .update(
                &request.id,
                name.as_ref(),
                request.public,
                SystemTime::now(),
            )
            .await?
            .ok_or_else(|| not_found(&request.id))?;
        let hidden = self.hidden_by(caller).await?.contains(&template.id);
        Ok(template_to_proto(&template, hidden))
    }

    /// Deletes a template of the caller's.
    pub async fn delete(&self, caller: &Caller, game: Game, id: &str) -> Result<(), Error> {
        self.changeable(caller, game, id).await?;
        self.store.delete(id).await?;
        Ok(())
    }

    /// Hides a built-in template from the caller's pickers, or shows it again. An account's
    /// own templates are deleted rather than hidden.
    pub async fn hide(
        &self,
        caller: &Caller,
        request: &pb::HideTemplateRequest,
    ) -> Result<pb::Template, Error> {
        let game = game(request.game)?;
        // Hiding changes what the caller's pickers show: it needs an account that may write.
        let account = access::creator(caller).map_err(Error::CannotCreate)?;
        let Some(builtin) = template::builtin(&request.id).filter(|builtin| builtin.game == game)
        else {
            // Not a built-in: the caller's own (delete it instead), or none they may see.
            self.readable(caller, game, &request.id).await?;
            return Err(template::TemplateError::NotBuiltIn.into());
        };
        self.store
            .set_hidden(&account.id, builtin.id, request.hidden)
            .await?;
        Ok(builtin_to_proto(&builtin, request.hidden))
    }

    /// Reads a pasted deck into the piles of template `id`, sorted by card type.
    pub async fn import(
        &self,
        caller: &Caller,
        catalog: &CatalogClient,
        request: &pb::ImportIntoTemplateRequest,
    ) -> Result<pb::ImportIntoTemplateResponse, Error> {
        let game = game(request.game)?;
        let layout = match template::builtin(&request.id).filter(|builtin| builtin.game == game) {
            Some(builtin) => builtin.layout,
            None => self.readable(caller, game, &request.id).await?.layout,
        };
        let deck = import_deck(catalog, game, &request.text, !layout.has_sideboard()).await?;
        let targets = layout.targets();
        let mut by_zone: BTreeMap<&str, Vec<pb::SavedCard>> = BTreeMap::new();
        for (pile, cards) in &deck.piles {
            by_zone
                .entry(pile)
                .or_default()
                .extend(cards.iter().map(|card| pb::SavedCard {
                    r#ref: card.reference.clone(),
                    count: card.count,
                }));
        }
        let mut warnings: Vec<pb::ImportWarning> = deck
            .warnings
            .into_iter()
            .map(|warning| pb::ImportWarning {
                line: warning
                    .line
                    .map(|line| u32::try_from(line).unwrap_or(u32::MAX)),
                text: warning.text,
                reason: warning.reason,
            })
            .collect();
        let mut piles: Vec<pb::SavedPile> = layout
            .piles
            .iter()
            .map(|pile| pile_to_proto(&pile.as_pile()))
            .collect();
        for (zone_name, cards) in by_zone {
            let zone = Zone::of_import_pile(zone_name);
            // A zone the template has no pile for goes to the main deck's pile.
            let index = targets
                .iter()
                .position(|target| *target == zone && zone.is_some())
                .or_else(|| {
                    targets
                        .iter()
                        .position(|target| *target == Some(Zone::Main))
                });
            match index {
                Some(index) => piles[index].cards.extend(cards),
                None => warnings.push(pb::ImportWarning {
                    line: None,
                    text: zone_name.to_owned(),
                    reason: format!(
                        "the template has no pile for these cards: {} cards left out",
                        cards.iter().map(|card| card.count).sum::<u32>()
                    ),
                }),
            }
        }
        Ok(pb::ImportIntoTemplateResponse {
            format: deck.format.to_owned(),
            piles,
            chosen_champion: deck.chosen_champion,
            warnings,
        })
    }

    /// The ids of the templates the caller hid (none for an anonymous caller).
    async fn hidden_by(&self, caller: &Caller) -> Result<HashSet<String>, Error> {
        match access::viewer(caller) {
            Some(viewer) => self.store.hidden(viewer).await,
            None => Ok(HashSet::new()),
        }
    }

    /// The stored template `id` of `game`, if there is one.
    async fn stored(&self, game: Game, id: &str) -> Result<Option<Template>, Error> {
        // An id not of the shape stored templates' ids have cannot exist: not looked up.
        if !kit::text::is_possible_id(id, TEMPLATE_ID_PREFIX) {
            return Ok(None);
        }
        Ok(self.store.get(id).await?.filter(|t| t.game == game))
    }

    /// The stored template `id` of `game`, if the caller may see it.
    async fn readable(&self, caller: &Caller, game: Game, id: &str) -> Result<Template, Error> {
        let template = self.stored(game, id).await?;
        access::admit(caller, Action::Read, template, owned).map_err(|denied| Error::Denied {
            denied,
            kind: KIND,
            id: id.to_owned(),
        })
    }

    /// The stored template `id` of `game`, if the caller may change it; a built-in one is
    /// nobody's to change (401 anonymous, else 403).
    async fn changeable(&self, caller: &Caller, game: Game, id: &str) -> Result<Template, Error> {
        if template::builtin(id).is_some_and(|builtin| builtin.game == game) {
            let denied = match access::creator(caller) {
                Err(access::Denied::Unauthenticated) => access::Denied::Unauthenticated,
                _ => access::Denied::PermissionDenied,
            };
            return Err(Error::Denied {
                denied,
                kind: KIND,
                id: id.to_owned(),
            });
        }
        let template = self.stored(game, id).await?;
        access::admit(caller, Action::Change, template, owned).map_err(|denied| Error::Denied {
            denied,
            kind: KIND,
            id: id.to_owned(),
        })
    }
}

fn game(value: i32) -> Result<Game, Error> {
    proto::game::from_wire(value).ok_or(Error::MissingField("game"))
}

fn owned(template: &Template) -> Owned<'_> {
    Owned {
        owner: &template.owner,
        visibility: if template.public {
            Visibility::Public
        } else {
            Visibility::Private
        },
    }
}

fn not_found(id: &str) -> Error {
    Error::Denied {
        denied: access::Denied::NotFound,
        kind: KIND,
        id: id.to_owned(),
    }
}

fn card_ruleset_from_proto(ruleset: &pb::CardRuleset) -> CardRuleset {
    CardRuleset {
        rule: ruleset
            .rule
            .as_ref()
            .map(rule_from_proto)
            .unwrap_or(RuleRef {
                ruleset: String::new(),
                version: None,
            }),
        mode: match pb::RulesetMode::try_from(ruleset.mode) {
            Ok(pb::RulesetMode::Pinned) => RulesetMode::Pinned,
            Ok(pb::RulesetMode::Recommended) | Err(_) => RulesetMode::Recommended,
        },
    }
}

fn zone_name(zone: Zone) -> &'static str {
    match zone {
        Zone::Legend => "legend",
        Zone::Runes => "runes",
        Zone::Battlefields => "battlefields",
        Zone::Main => "main",
        Zone::Sideboard => "sideboard",
    }
}

fn template_pile_from_proto(index: usize, pile: &pb::TemplatePile) -> Result<TemplatePile, Error> {
    let field = |name: &str| format!("piles[{index}].{name}");
    let role = role_from_proto(pile.role, field("role"))?;
    let zone = pile
        .zone
        .as_deref()
        .map(|name| {
            Zone::of_import_pile(name).ok_or_else(|| SavedDeckError::InvalidPile {
                field: field("zone"),
                problem: format!(
                    "`{}` is not a zone (expected legend, runes, battlefields, main or sideboard)",
                    kit::status::quote(name)
                ),
            })
        })
        .transpose()?;
    Ok(TemplatePile {
        name: pile.name.clone(),
        role,
        zone_rule: pile.zone_rule.as_ref().map(rule_from_proto),
        column: pile.column,
        order: pile.order,
        view: pile.view.map_or_else(PileView::default, |view| PileView {
            summary: view.summary,
            curve: view.curve,
            footer: view.footer,
        }),
        zone,
    })
}

/// Returns `shown` with the layout's fields.
fn with_layout(mut shown: pb::Template, layout: &TemplateLayout) -> pb::Template {
    shown.layout = match layout.layout {
        Layout::Piles => pb::DeckLayout::Piles,
        Layout::SingleDeck => pb::DeckLayout::SingleDeck,
        Layout::MultiDeck => pb::DeckLayout::MultiDeck,
    }
    .into();
    shown.piles = layout
        .piles
        .iter()
        .map(|pile| {
            let saved = pile_to_proto(&pile.as_pile());
            pb::TemplatePile {
                name: saved.name,
                role: saved.role,
                zone_rule: saved.zone_rule,
                column: saved.column,
                order: saved.order,
                view: saved.view,
                zone: pile.zone.map(|zone| zone_name(zone).to_owned()),
                cards: Vec::new(),
            }
        })
        .collect();
    shown.open_pile = u32::try_from(layout.open_pile).unwrap_or(u32::MAX);
    shown.deck_rule = layout.deck_rule.as_ref().map(rule_to_proto);
    shown.deckset_rule = Some(rule_to_proto(&layout.deckset_rule));
    shown.card_ruleset = layout.card_ruleset.as_ref().map(|ruleset| pb::CardRuleset {
        rule: Some(rule_to_proto(&ruleset.rule)),
        mode: match ruleset.mode {
            RulesetMode::Recommended => pb::RulesetMode::Recommended,
            RulesetMode::Pinned => pb::RulesetMode::Pinned,
        }
        .into(),
    });
    shown
}

fn builtin_to_proto(builtin: &BuiltinTemplate, hidden: bool) -> pb::Template {
    with_layout(
        pb::Template {
            id: builtin.id.to_owned(),
            game: proto::game::to_wire(builtin.game),
            name: builtin.name.as_str().to_owned(),
            built_in: true,
            public: true,
            hidden,
            ..pb::Template::default()
        },
        &builtin.layout,
    )
}

fn template_to_proto(template: &Template, hidden: bool) -> pb::Template {
    with_layout(
        pb::Template {
            id: template.id.clone(),
            game: proto::game::to_wire(template.game),
            name: template.name.as_str().to_owned(),
            built_in: false,
            owner: template.owner_name.clone(),
            public: template.public,
            hidden,
            create_time: Some(to_proto(template.create_time)),
            update_time: Some(to_proto(template.update_time)),
            ..pb::Template::default()
        },
        &template.layout,
    )
}
