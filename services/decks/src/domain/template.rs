//! Templates: saved deck builder layouts (`guide-deck-builder.md`, "Templates") — which piles
//! exist, each pile's zone rule, role, placement and view options, the pile the builder opens
//! on, the deck set rule the layout was made for, and a card ruleset that is *recommended* or
//! *pinned*. A template never holds cards.
//!
//! The built-in ("Turny") templates are here too, with fixed ids; where an imported deck's
//! cards land in a template's piles is decided here ([`Template::targets`]).

use proto::game::Game;

use super::saved::{
    DeckName, Layout, Pile, PileRole, PileView, RuleRef, SavedDeckError, check_piles,
};

/// Where an imported deck's cards land: the piles a pasted deck is sorted into by card type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Zone {
    /// The Legend (Riftbound).
    Legend,
    /// The rune deck (Riftbound).
    Runes,
    /// The battlefields (Riftbound).
    Battlefields,
    /// The main deck.
    Main,
    /// The sideboard.
    Sideboard,
}

impl Zone {
    /// Returns the zone named as an import names its piles (`legend`, `runes`,
    /// `battlefields`, `main`, `sideboard`).
    pub fn of_import_pile(name: &str) -> Option<Zone> {
        match name {
            "legend" => Some(Zone::Legend),
            "runes" => Some(Zone::Runes),
            "battlefields" => Some(Zone::Battlefields),
            "main" => Some(Zone::Main),
            "sideboard" => Some(Zone::Sideboard),
            _ => None,
        }
    }
}

/// How a template's card ruleset applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum RulesetMode {
    /// Used until the player picks a card ruleset for the game, then left alone.
    Recommended,
    /// Applied every time the template loads ("Also save the card ruleset").
    Pinned,
}

/// A template's card ruleset.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CardRuleset {
    /// The card rule.
    pub rule: RuleRef,
    /// Recommended or pinned.
    pub mode: RulesetMode,
}

/// One pile of a template: a pile without cards, and the zone an import fills it from.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TemplatePile {
    /// The pile's name.
    pub name: String,
    /// Its role.
    pub role: PileRole,
    /// The rule that checks the pile alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zone_rule: Option<RuleRef>,
    /// Its column.
    pub column: u32,
    /// Its order in the column.
    pub order: u32,
    /// What its panel shows.
    pub view: PileView,
    /// Where an import's cards come from; absent: from the role and the zone rule
    /// ([`Template::targets`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zone: Option<Zone>,
}

impl TemplatePile {
    /// Returns the pile as the builder opens it: empty.
    pub fn as_pile(&self) -> Pile {
        Pile {
            name: self.name.clone(),
            role: self.role,
            zone_rule: self.zone_rule.clone(),
            column: self.column,
            order: self.order,
            view: self.view,
            ..Pile::default()
        }
    }
}

/// What a template holds besides who owns it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TemplateLayout {
    /// How the builder lays the piles out.
    pub layout: Layout,
    /// The piles, in order.
    pub piles: Vec<TemplatePile>,
    /// The index of the pile the builder opens on.
    pub open_pile: usize,
    /// The whole-deck rule, if the layout has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deck_rule: Option<RuleRef>,
    /// The deck set rule the template was made for.
    pub deckset_rule: RuleRef,
    /// The card ruleset, recommended or pinned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card_ruleset: Option<CardRuleset>,
}

/// Why a template cannot be saved.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TemplateError {
    /// A pile holds cards: Save as Template is offered only while every pile is empty.
    #[error(
        "a template is saved only while every pile is empty ({cards} cards in {piles} piles): a template never holds cards"
    )]
    NotEmpty {
        /// The copies in the piles.
        cards: u32,
        /// The piles with cards.
        piles: usize,
    },
    /// No deck set rule: a template is saved for one.
    #[error(
        "choose a deck set rule first: a template is saved for the deck set rule it was made for"
    )]
    NoDecksetRule,
    /// The pile to open on is not one of the piles.
    #[error("`openPile`: {0}")]
    OpenPile(String),
    /// Only built-in templates are hidden; one's own is deleted instead.
    #[error("`id`: only Turny templates are hidden: delete a template of your own instead")]
    NotBuiltIn,
    /// A pile breaks a limit.
    #[error(transparent)]
    Pile(#[from] SavedDeckError),
}

impl TemplateLayout {
    /// Checks a layout to save as a template for `game`: the piles' limits, a pile to open on
    /// among them (an empty layout opens on none).
    pub fn check(&self, game: Game) -> Result<(), TemplateError> {
        let piles: Vec<Pile> = self.piles.iter().map(TemplatePile::as_pile).collect();
        check_piles(&piles, game, self.layout)?;
        if !self.piles.is_empty() && self.open_pile >= self.piles.len() {
            return Err(TemplateError::OpenPile(format!(
                "there are {} piles (the first is 0)",
                self.piles.len()
            )));
        }
        Ok(())
    }

    /// Returns, for each pile, the zone an import fills it from: its own `zone`; else the
    /// sideboard for a sideboard pile; else the zone its built-in zone rule checks; else the
    /// main deck for the first main pile left without one. A maybeboard takes nothing.
    pub fn targets(&self) -> Vec<Option<Zone>> {
        let mut targets: Vec<Option<Zone>> = self
            .piles
            .iter()
            .map(|pile| {
                pile.zone.or(match pile.role {
                    PileRole::Sideboard => Some(Zone::Sideboard),
                    PileRole::Maybeboard => None,
                    PileRole::Main | PileRole::CommandZone => pile
                        .zone_rule
                        .as_ref()
                        .and_then(|rule| zone_of_rule(&rule.ruleset)),
                })
            })
            .collect();
        if !targets.contains(&Some(Zone::Main))
            && let Some(index) =
                self.piles.iter().enumerate().position(|(index, pile)| {
                    pile.role == PileRole::Main && targets[index].is_none()
                })
        {
            targets[index] = Some(Zone::Main);
        }
        targets
    }

    /// Returns whether an import has a pile for the sideboard (else, as a single-deck layout,
    /// it leaves the sideboard out and says how many cards).
    pub fn has_sideboard(&self) -> bool {
        self.targets().contains(&Some(Zone::Sideboard))
    }
}

/// Checks what a Save as Template is given besides the layout: no cards in any pile (`cards`
/// holds each pile's copies) and a deck set rule chosen.
pub fn check_saveable(cards: &[u32], deckset_rule: Option<&RuleRef>) -> Result<(), TemplateError> {
    let total: u32 = cards.iter().sum();
    if total > 0 {
        return Err(TemplateError::NotEmpty {
            cards: total,
            piles: cards.iter().filter(|copies| **copies > 0).count(),
        });
    }
    if deckset_rule.is_none() {
        return Err(TemplateError::NoDecksetRule);
    }
    Ok(())
}

/// The zone a built-in zone rule checks.
fn zone_of_rule(ruleset: &str) -> Option<Zone> {
    match ruleset {
        "riftbound-legend" => Some(Zone::Legend),
        "riftbound-runes" => Some(Zone::Runes),
        "riftbound-battlefields" => Some(Zone::Battlefields),
        "riftbound-main-deck" => Some(Zone::Main),
        _ => None,
    }
}

/// A template saved on an account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    /// Opaque and stable (`tp_…`).
    pub id: String,
    /// The game.
    pub game: Game,
    /// The owning account's id.
    pub owner: String,
    /// The owner's username, as typed at sign-up.
    pub owner_name: String,
    /// Unique on the owner and game without regard to case.
    pub name: DeckName,
    /// Whether anyone may see it (and it shows on the owner's profile).
    pub public: bool,
    /// The layout.
    pub layout: TemplateLayout,
    /// When it was first saved.
    pub create_time: std::time::SystemTime,
    /// When it last changed.
    pub update_time: std::time::SystemTime,
}

/// A built-in ("Turny") template: fixed id, no owner, public, read by anyone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuiltinTemplate {
    /// The fixed id.
    pub id: &'static str,
    /// The game.
    pub game: Game,
    /// The name.
    pub name: DeckName,
    /// The layout.
    pub layout: TemplateLayout,
}

/// The fixed id of Riftbound's built-in Constructed template.
pub const RIFTBOUND_CONSTRUCTED: &str = "riftbound-constructed";

/// Returns the built-in templates of every game (Legends of Runeterra and Pokémon have none
/// yet, as the guide says).
pub fn builtins() -> Vec<BuiltinTemplate> {
    let rule = |id: &str| RuleRef {
        ruleset: id.to_owned(),
        version: None,
    };
    let pile = |name: &str, role: PileRole, zone_rule: Option<&str>, column: u32, order: u32| {
        TemplatePile {
            name: name.to_owned(),
            role,
            zone_rule: zone_rule.map(rule),
            column,
            order,
            view: PileView::default(),
            zone: None,
        }
    };
    vec![BuiltinTemplate {
        id: RIFTBOUND_CONSTRUCTED,
        game: Game::Riftbound,
        name: DeckName::parse("Constructed").expect("a valid name"),
        // The guide's table, in its order: the builder opens on the Legend, since the Legend
        // decides which domains the rest of the deck can use.
        layout: TemplateLayout {
            layout: Layout::Piles,
            piles: vec![
                pile("Legend", PileRole::Main, Some("riftbound-legend"), 0, 0),
                pile("Rune Deck", PileRole::Main, Some("riftbound-runes"), 0, 1),
                pile(
                    "Battlefields",
                    PileRole::Main,
                    Some("riftbound-battlefields"),
                    0,
                    2,
                ),
                pile(
                    "Main Deck",
                    PileRole::Main,
                    Some("riftbound-main-deck"),
                    1,
                    0,
                ),
                pile("Sideboard", PileRole::Sideboard, None, 2, 0),
                pile("Maybeboard", PileRole::Maybeboard, None, 2, 1),
            ],
            open_pile: 0,
            deck_rule: Some(rule("riftbound-constructed")),
            deckset_rule: rule("riftbound-any-lineup"),
            card_ruleset: Some(CardRuleset {
                rule: rule("riftbound-standard"),
                mode: RulesetMode::Recommended,
            }),
        },
    }]
}

/// Returns the built-in template `id`.
pub fn builtin(id: &str) -> Option<BuiltinTemplate> {
    builtins().into_iter().find(|template| template.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_constructed_template_is_the_guides_table_opening_on_the_legend() {
        let constructed = builtin(RIFTBOUND_CONSTRUCTED).expect("built in");
        let piles: Vec<(&str, PileRole)> = constructed
            .layout
            .piles
            .iter()
            .map(|pile| (pile.name.as_str(), pile.role))
            .collect();
        assert_eq!(
            piles,
            [
                ("Legend", PileRole::Main),
                ("Rune Deck", PileRole::Main),
                ("Battlefields", PileRole::Main),
                ("Main Deck", PileRole::Main),
                ("Sideboard", PileRole::Sideboard),
                ("Maybeboard", PileRole::Maybeboard),
            ]
        );
        assert_eq!(constructed.layout.open_pile, 0);
        assert_eq!(
            constructed
                .layout
                .card_ruleset
                .as_ref()
                .map(|r| (r.rule.ruleset.as_str(), r.mode)),
            Some(("riftbound-standard", RulesetMode::Recommended))
        );
        assert_eq!(constructed.layout.check(Game::Riftbound), Ok(()));
        assert_eq!(
            constructed.layout.targets(),
            [
                Some(Zone::Legend),
                Some(Zone::Runes),
                Some(Zone::Battlefields),
                Some(Zone::Main),
                Some(Zone::Sideboard),
                None
            ]
        );
    }

    #[test]
    fn a_template_is_saved_empty_and_for_a_deck_set_rule() {
        let rule = RuleRef {
            ruleset: "lor-riot-lock".to_owned(),
            version: None,
        };
        assert_eq!(check_saveable(&[0, 0], Some(&rule)), Ok(()));
        assert_eq!(
            check_saveable(&[0, 3, 2], Some(&rule)),
            Err(TemplateError::NotEmpty { cards: 5, piles: 2 })
        );
        assert_eq!(check_saveable(&[], None), Err(TemplateError::NoDecksetRule));
    }

    #[test]
    fn the_first_plain_main_pile_takes_the_main_deck_and_no_sideboard_pile_means_none() {
        let plain = |name: &str| TemplatePile {
            name: name.to_owned(),
            role: PileRole::Main,
            zone_rule: None,
            column: 0,
            order: 0,
            view: PileView::default(),
            zone: None,
        };
        let layout = TemplateLayout {
            layout: Layout::Piles,
            piles: vec![plain("A"), plain("B")],
            open_pile: 1,
            deck_rule: None,
            deckset_rule: RuleRef {
                ruleset: "lor-riot-lock".to_owned(),
                version: None,
            },
            card_ruleset: None,
        };
        assert_eq!(layout.targets(), [Some(Zone::Main), None]);
        assert!(!layout.has_sideboard());
        let mut bad = layout.clone();
        bad.open_pile = 2;
        assert!(matches!(
            bad.check(Game::Lor),
            Err(TemplateError::OpenPile(_))
        ));
    }
}
