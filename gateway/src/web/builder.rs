//! The deck builder and shared decks: `/{game}/deck-builder` and `/{game}/decks/{code}`.
//!
//! The deck lives in the address, as the game's own share code (`?deck=RIFT1.…`, `PTCG1.…`, a
//! LoR code): every change (an import, a card added or taken out) is a plain GET that the page
//! answers with a redirect to the new code, so the builder works without JavaScript, the back
//! button undoes a change and the address is always the share link. Each render imports the
//! code (`GetSharedDeck`: piles resolved against the catalog, the export texts) and checks it
//! with `ValidateDeck` as `decks:validate` does: the game's default card rule and whole-deck
//! rule, and for Riftbound the Constructed template's zone rules, one per pile. Messages show
//! on their pile, on their card, and all together for the whole deck.

// `ApiError` is what the services' failures arrive as; it lives for one response.
#![allow(clippy::result_large_err)]

use axum::Router;
use axum::extract::{Path, Query};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use maud::{Markup, html};
use proto::decks::v1 as decks_pb;
use proto::game::Game;
use proto::scripts::v1 as scripts_pb;
use proto::search::v1::SearchRequest;
use serde::Deserialize;

use std::collections::BTreeMap;

use super::answer::{PageResult, account_form, failed, known_game};
use super::deck_rules::{self, Rules, Zone};

mod lineup;
use super::layout::{page, urlencode};
use super::session::Viewer;
use crate::ApiError;
use crate::auth::Calls;
use crate::state::AppState;

/// Search results shown beside the deck.
const RESULTS: i32 = 24;

/// The builder's routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/{game}/deck-builder", get(builder))
        .route("/{game}/decks/{code}", get(shared))
        .route("/{game}/deck-builder/save", axum::routing::post(save))
        .route(
            "/{game}/deck-builder/lineup",
            axum::routing::post(lineup::save),
        )
        .route(
            "/{game}/deck-builder/template",
            axum::routing::post(save_template),
        )
}

/// One pile of the builder: the zone of the deck it holds (`main`, `legend`, `runes`,
/// `battlefields`, `sideboard`: where a share code puts its cards), its name as people read it,
/// its zone rule and its role.
struct PileKind {
    name: String,
    label: String,
    zone_rule: Option<String>,
    role: scripts_pb::PileRole,
}

fn kind(name: &str, label: &str, zone_rule: Option<&str>, role: scripts_pb::PileRole) -> PileKind {
    PileKind {
        name: name.to_owned(),
        label: label.to_owned(),
        zone_rule: zone_rule.map(str::to_owned),
        role,
    }
}

/// The piles a game's builder opens with, in order (Riftbound: the Constructed template).
fn layout(game: Game) -> Vec<PileKind> {
    use scripts_pb::PileRole::{Main, Sideboard};
    match game {
        Game::Riftbound => vec![
            kind("legend", "Legend", Some("riftbound-legend"), Main),
            kind("runes", "Rune Deck", Some("riftbound-runes"), Main),
            kind(
                "battlefields",
                "Battlefields",
                Some("riftbound-battlefields"),
                Main,
            ),
            kind("main", "Main Deck", Some("riftbound-main-deck"), Main),
            kind("sideboard", "Sideboard", None, Sideboard),
        ],
        _ => vec![kind("main", "Deck", None, Main)],
    }
}

/// What the builder is set up with: its piles and the rules it checks with where the player
/// picked none — the game's defaults, or a template's.
struct Setup {
    piles: Vec<PileKind>,
    card_rule: String,
    deck_rule: String,
    /// The template it follows, if one: its id and name, and whether it is a Multi deck
    /// layout (a deck set), which a deck's address cannot hold.
    template: Option<(String, String, bool)>,
    /// A Multi deck template's decks (its main piles) and deck set rule.
    lineup: (usize, String),
}

/// The zone a template's pile holds when it names none: its zone rule's, else the main deck.
fn zone_of(rule: Option<&str>) -> &'static str {
    match rule {
        Some("riftbound-legend") => "legend",
        Some("riftbound-runes") => "runes",
        Some("riftbound-battlefields") => "battlefields",
        _ => "main",
    }
}

/// The game's default setup, or `template`'s (its piles mapped to the deck's zones).
async fn set_up(calls: &Calls, game: Game, template: &str) -> Result<Setup, Response> {
    let (card_rule, deck_rule) = default_rules(game);
    let mut setup = Setup {
        piles: layout(game),
        card_rule: card_rule.to_owned(),
        deck_rule: deck_rule.to_owned(),
        template: None,
        lineup: (0, String::new()),
    };
    // Riftbound opens on its Constructed template (the same piles as its layout).
    let template = match (template, game) {
        ("", Game::Riftbound) => "riftbound-constructed",
        ("", _) => return Ok(setup),
        (id, _) => id,
    };
    let found = calls
        .decks()
        .map_err(failed)?
        .get_template(decks_pb::GetTemplateRequest {
            game: proto::game::to_wire(game),
            id: template.to_owned(),
        })
        .await
        .map_err(failed)?
        .template
        .unwrap_or_default();
    let mut piles: Vec<PileKind> = Vec::new();
    for pile in &found.piles {
        let role = decks_pb::PileRole::try_from(pile.role).unwrap_or(decks_pb::PileRole::Main);
        let rule = pile.zone_rule.as_ref().map(|rule| rule.ruleset.as_str());
        let (zone, role) = match role {
            decks_pb::PileRole::Sideboard => {
                ("sideboard".to_owned(), scripts_pb::PileRole::Sideboard)
            }
            decks_pb::PileRole::Maybeboard => continue,
            _ => (
                pile.zone
                    .clone()
                    .unwrap_or_else(|| zone_of(rule).to_owned()),
                scripts_pb::PileRole::Main,
            ),
        };
        // A zone holds one pile: a second pile of a zone (a Multi deck's next deck) is left out.
        if piles.iter().any(|kind| kind.name == zone) {
            continue;
        }
        piles.push(PileKind {
            name: zone,
            label: pile.name.clone(),
            zone_rule: pile.zone_rule.as_ref().map(|rule| rule.ruleset.clone()),
            role,
        });
    }
    if !piles.is_empty() {
        setup.piles = piles;
    }
    if let Some(rule) = &found.deck_rule {
        setup.deck_rule.clone_from(&rule.ruleset);
    }
    if let Some(rule) = found
        .card_ruleset
        .as_ref()
        .and_then(|card| card.rule.as_ref())
    {
        setup.card_rule.clone_from(&rule.ruleset);
    }
    let multi = found.layout == i32::from(decks_pb::DeckLayout::MultiDeck);
    setup.lineup = (
        found
            .piles
            .iter()
            .filter(|pile| pile.role == i32::from(decks_pb::PileRole::Main))
            .count(),
        found
            .deckset_rule
            .as_ref()
            .map(|rule| rule.ruleset.clone())
            .unwrap_or_default(),
    );
    setup.template = Some((found.id, found.name, multi));
    Ok(setup)
}

/// The game's default card rule and whole-deck rule.
fn default_rules(game: Game) -> (&'static str, &'static str) {
    match game {
        Game::Lor => ("lor-standard", "lor-riot-constructed"),
        Game::Pokemon => ("pokemon-standard", "pokemon-constructed"),
        Game::Riftbound => ("riftbound-standard", "riftbound-constructed"),
    }
}

/// The format a deck's address is written in.
fn share_format(game: Game) -> &'static str {
    match game {
        Game::Lor => "lor-code",
        Game::Pokemon => "ptcg1",
        Game::Riftbound => "rift1",
    }
}

fn by_id(id: &str) -> scripts_pb::Script {
    scripts_pb::Script {
        script: Some(scripts_pb::script::Script::Ruleset(
            scripts_pb::RulesetRef {
                id: id.to_owned(),
                version: None,
            },
        )),
    }
}

/// The builder's query string.
#[derive(Debug, Default, Deserialize)]
struct BuilderParams {
    /// The deck, as its share code.
    #[serde(default)]
    deck: String,
    /// A pasted code or list to import.
    #[serde(default)]
    import: String,
    /// A card search.
    #[serde(default)]
    q: String,
    /// A card to add, and to which pile.
    #[serde(default)]
    add: String,
    /// A card to take one copy of out, and from which pile.
    #[serde(default)]
    remove: String,
    #[serde(default)]
    pile: String,
    /// One of the viewer's saved decks to open.
    #[serde(default)]
    saved: String,
    /// The calculator the calculators dialog shows (the dialog is closed without it).
    #[serde(default)]
    calc: String,
    /// Multi deck: the lineup's decks, as share codes joined by `|` (absent: a single deck).
    lineup: Option<String>,
    /// The zone of the deck a lineup's change is in (`main` when absent).
    #[serde(default)]
    zone: String,
    /// A lineup's deck to take out (its index), or `new` for one more empty deck.
    #[serde(default)]
    drop: String,
    /// The card ruleset and whole-deck rule picked (empty: the game's defaults).
    #[serde(default)]
    card: String,
    #[serde(default)]
    rule: String,
    /// The zone rules picked, `zone-<pile>`.
    #[serde(flatten)]
    rest: BTreeMap<String, String>,
}

impl BuilderParams {
    fn rules(&self) -> Rules {
        Rules::read(&self.card, &self.rule, &self.rest)
    }
}

/// The address of the builder with `deck` (and the search `q`), checked by `rules`.
fn builder_href(game: &str, deck: &str, q: &str, rules: &Rules) -> String {
    let mut query = url::form_urlencoded::Serializer::new(String::new());
    if !deck.is_empty() {
        query.append_pair("deck", deck);
    }
    if !q.is_empty() {
        query.append_pair("q", q);
    }
    for (key, value) in rules.pairs() {
        query.append_pair(&key, &value);
    }
    let query = query.finish();
    if query.is_empty() {
        format!("/{game}/deck-builder")
    } else {
        format!("/{game}/deck-builder?{query}")
    }
}

/// The deck's address: its share code, or nothing for an empty deck.
fn share_code(deck: &decks_pb::SharedDeck) -> String {
    deck.exports
        .as_ref()
        .map(|exports| exports.share_code.clone())
        .unwrap_or_default()
}

/// The cards of the deck's pile `name`.
fn cards_in<'a>(
    deck: &'a decks_pb::SharedDeck,
    name: &'a str,
) -> impl Iterator<Item = &'a decks_pb::PileCard> {
    deck.piles
        .iter()
        .filter(move |pile| pile.name == name)
        .flat_map(|pile| &pile.cards)
}

/// `href` with the calculators dialog open on `calculator`.
fn with_calculator(href: &str, calculator: &str) -> String {
    let joint = if href.contains('?') { '&' } else { '?' };
    format!("{href}{joint}calc={}", urlencode(calculator))
}

/// The game's default calculator: the one the dialog opens on.
fn default_calculator(slug: &str) -> String {
    format!("{slug}-deck-breakdown")
}

/// The calculators dialog over `deck`, when the page's address asks for it.
async fn calculators_dialog(
    calls: &Calls,
    game: Game,
    piles: &[PileKind],
    deck: &decks_pb::SharedDeck,
    picked: &str,
    page: &str,
    hidden: Vec<(String, String)>,
) -> Option<Markup> {
    if picked.is_empty() || deck.piles.iter().all(|pile| pile.cards.is_empty()) {
        return None;
    }
    let mut pile = std::collections::BTreeMap::new();
    for kind in piles {
        if kind.role == scripts_pb::PileRole::Sideboard {
            continue;
        }
        for card in cards_in(deck, &kind.name) {
            *pile.entry(card.r#ref.clone()).or_insert(0) += card.count;
        }
    }
    let action = page.split('?').next().unwrap_or(page).to_owned();
    let view = super::calculators::DeckView {
        game,
        pile,
        close: page.to_owned(),
        action,
        hidden,
    };
    Some(super::calculators::dialog(calls, &view, picked).await)
}

/// Opens `code` (a share code, or any code or list the game imports).
async fn open(calls: &Calls, game: Game, code: &str) -> Result<decks_pb::SharedDeck, Response> {
    calls
        .decks()
        .map_err(failed)?
        .get_shared_deck(decks_pb::GetSharedDeckRequest {
            game: proto::game::to_wire(game),
            code: code.to_owned(),
        })
        .await
        .map_err(failed)
}

/// The deck's cards with one copy of `reference` added to (`delta` 1) or taken out of (-1)
/// `pile`, written as the game's share code.
async fn changed(
    calls: &Calls,
    game: Game,
    deck: &decks_pb::SharedDeck,
    reference: &str,
    pile: &str,
    delta: i64,
) -> Result<String, Response> {
    let mut cards: Vec<decks_pb::ExportCard> = Vec::new();
    let mut found = false;
    for each in &deck.piles {
        for card in &each.cards {
            let mut count = i64::from(card.count);
            if each.name == pile && card.r#ref == reference {
                count += delta;
                found = true;
            }
            if count > 0 {
                cards.push(decks_pb::ExportCard {
                    r#ref: card.r#ref.clone(),
                    count: u32::try_from(count).unwrap_or(u32::MAX),
                    pile: each.name.clone(),
                });
            }
        }
    }
    if !found && delta > 0 {
        cards.push(decks_pb::ExportCard {
            r#ref: reference.to_owned(),
            count: 1,
            pile: pile.to_owned(),
        });
    }
    if cards.is_empty() {
        return Ok(String::new());
    }
    let exported = calls
        .decks()
        .map_err(failed)?
        .export_deck(decks_pb::ExportDeckRequest {
            game: proto::game::to_wire(game),
            format: share_format(game).to_owned(),
            cards,
            chosen_champion: deck.chosen_champion.clone(),
        })
        .await
        .map_err(failed)?;
    Ok(exported.text)
}

/// The builder's piles as the rule pickers list them.
fn zones(piles: &[PileKind]) -> Vec<Zone<'_>> {
    piles
        .iter()
        .filter(|kind| kind.role != scripts_pb::PileRole::Sideboard)
        .map(|kind| Zone {
            name: &kind.name,
            label: &kind.label,
            default: kind.zone_rule.as_deref(),
        })
        .collect()
}

/// A pile's zone rule under `rules` (the sideboard has none).
fn zone_rule<'a>(rules: &'a Rules, kind: &'a PileKind) -> Option<&'a str> {
    if kind.role == scripts_pb::PileRole::Sideboard {
        return None;
    }
    rules.zone_rule(&Zone {
        name: &kind.name,
        label: &kind.label,
        default: kind.zone_rule.as_deref(),
    })
}

/// Checks the deck with `rules` (the game's defaults where none is picked); `Err` is a rule
/// that could not run, said as the builder says it.
async fn check(
    calls: &Calls,
    game: Game,
    deck: &decks_pb::SharedDeck,
    rules: &Rules,
    setup: &Setup,
) -> Result<scripts_pb::ValidateDeckResponse, String> {
    let (card_rule, deck_rule) = (setup.card_rule.as_str(), setup.deck_rule.as_str());
    let piles = setup
        .piles
        .iter()
        .map(|kind| scripts_pb::ValidatePile {
            name: kind.label.clone(),
            role: kind.role.into(),
            cards: cards_in(deck, &kind.name)
                .map(|card| scripts_pb::PileEntry {
                    r#ref: card.r#ref.clone(),
                    count: card.count,
                })
                .collect(),
            zone_rule: zone_rule(rules, kind).map(by_id),
        })
        .collect();
    let scripts = calls
        .scripts()
        .map_err(|error| error.message().to_owned())?;
    scripts
        .validate_deck(scripts_pb::ValidateDeckRequest {
            game: proto::game::to_wire(game),
            piles,
            card_rule: rules.card_rule(card_rule).map(by_id),
            deck_rule: rules.deck_rule(deck_rule).map(by_id),
            deckset_rule: None,
            context_json: None,
        })
        .await
        .map_err(|error| {
            format!(
                "The rules could not run, so this deck is not shown as legal: {}",
                error.message
            )
        })
}

async fn builder(
    viewer: Viewer,
    calls: Calls,
    Path(game_slug): Path<String>,
    Query(params): Query<BuilderParams>,
) -> PageResult {
    let (game, name) = known_game(&game_slug)?;
    if let Some(codes) = &params.lineup {
        return lineup::answer(&viewer, &calls, game, &game_slug, name, &params, codes).await;
    }
    // A change answers with the deck's new address.
    if !params.saved.is_empty() {
        let deck = calls
            .decks()
            .map_err(failed)?
            .export_saved_deck(decks_pb::ExportSavedDeckRequest {
                game: proto::game::to_wire(game),
                id: params.saved.clone(),
            })
            .await
            .map_err(failed)?;
        let code = share_code(&deck);
        return Ok(
            Redirect::to(&builder_href(&game_slug, &code, "", &params.rules())).into_response(),
        );
    }
    if !params.import.trim().is_empty() {
        let deck = match open(&calls, game, &params.import).await {
            Ok(deck) => deck,
            Err(_) => {
                return Ok(builder_page(
                    &viewer,
                    &calls,
                    game,
                    &game_slug,
                    name,
                    &params,
                    None,
                    Some("No format this game reads could read that text."),
                )
                .await?
                .into_response());
            }
        };
        if !deck.unknown.is_empty() {
            // The skipped lines are listed under the box: this page shows them, with the deck.
            return Ok(builder_page(
                &viewer,
                &calls,
                game,
                &game_slug,
                name,
                &params,
                Some(deck),
                None,
            )
            .await?
            .into_response());
        }
        let code = share_code(&deck);
        return Ok(
            Redirect::to(&builder_href(&game_slug, &code, &params.q, &params.rules()))
                .into_response(),
        );
    }
    if !params.add.is_empty() || !params.remove.is_empty() {
        let deck = if params.deck.is_empty() {
            decks_pb::SharedDeck::default()
        } else {
            open(&calls, game, &params.deck).await?
        };
        let (reference, delta) = if params.add.is_empty() {
            (&params.remove, -1)
        } else {
            (&params.add, 1)
        };
        let pile = if params.pile.is_empty() {
            "main"
        } else {
            params.pile.as_str()
        };
        let setup = set_up(&calls, game, &params.rules().template).await?;
        if !setup.piles.iter().any(|kind| kind.name == pile) {
            return Err(failed(ApiError::invalid_argument(format!(
                "no pile `{}` in the {name} builder",
                kit::status::quote(pile)
            ))));
        }
        let code = changed(&calls, game, &deck, reference, pile, delta).await?;
        return Ok(
            Redirect::to(&builder_href(&game_slug, &code, &params.q, &params.rules()))
                .into_response(),
        );
    }
    let deck = if params.deck.is_empty() {
        None
    } else {
        Some(open(&calls, game, &params.deck).await?)
    };
    Ok(
        builder_page(&viewer, &calls, game, &game_slug, name, &params, deck, None)
            .await?
            .into_response(),
    )
}

/// The finder's hits for `q` (none for an empty search; a search that fails shows none).
pub(super) async fn find(
    calls: &Calls,
    game: Game,
    q: &str,
) -> Result<Vec<proto::search::v1::SearchHit>, Response> {
    if q.trim().is_empty() {
        return Ok(Vec::new());
    }
    Ok(calls
        .search()
        .map_err(failed)?
        .search(SearchRequest {
            game: proto::game::to_wire(game),
            query: q.to_owned(),
            page_size: RESULTS,
            page_token: String::new(),
        })
        .await
        .map(|answer| answer.cards)
        .unwrap_or_default())
}

/// The finder beside a deck (or a lineup): the search form, keeping `keep`, and each hit with
/// an Add link per pile `add` gives for its card ref (the link, the pile's name).
fn finder(
    slug: &str,
    keep: &[(String, String)],
    q: &str,
    results: &[proto::search::v1::SearchHit],
    add: impl Fn(&str) -> Vec<(String, String)>,
) -> Markup {
    html! {
        section class="finder" aria-labelledby="find-heading" {
            h2 id="find-heading" { "Find cards" }
            form method="get" action={ "/" (slug) "/deck-builder" } role="search" class="search" {
                @for (key, value) in keep { input type="hidden" name=(key) value=(value); }
                label for="q" { "Search" }
                input id="q" type="search" name="q" value=(q) autocomplete="off";
                button type="submit" { "Search" }
            }
            ul class="results" {
                @for hit in results {
                    @if let Some(card) = &hit.card {
                        @let reference = hit.printing_id.as_deref().unwrap_or(card.id.as_str());
                        li {
                            @if let Some(url) = image(card) { img src=(super::layout::secure(url)) alt=(card.name) loading="lazy" width="60" height="84"; }
                            span { (card.name) }
                            @for (href, pile) in add(reference) {
                                a class="button small" href=(href) aria-label={ "Add " (card.name) " to " (pile) } { "+ " (pile) }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// One card's image, if the catalog has one.
fn image(card: &proto::catalog::v1::Card) -> Option<&str> {
    card.assets
        .iter()
        .find(|asset| asset.kind == "card")
        .or_else(|| card.assets.first())
        .map(|asset| asset.url.as_str())
}

#[allow(clippy::too_many_arguments)]
async fn builder_page(
    viewer: &Viewer,
    calls: &Calls,
    game: Game,
    slug: &str,
    name: &str,
    params: &BuilderParams,
    deck: Option<decks_pb::SharedDeck>,
    import_problem: Option<&str>,
) -> Result<Markup, Response> {
    let deck = deck.unwrap_or_default();
    let setup = set_up(calls, game, &params.rules().template).await?;
    let verdict = if deck.piles.iter().any(|pile| !pile.cards.is_empty()) {
        Some(check(calls, game, &deck, &params.rules(), &setup).await)
    } else {
        None
    };
    let templates = calls
        .decks()
        .map_err(failed)?
        .list_templates(decks_pb::ListTemplatesRequest {
            game: proto::game::to_wire(game),
            page_size: 100,
            page_token: String::new(),
            include_hidden: false,
        })
        .await
        .map(|answer| answer.templates)
        .unwrap_or_default();
    let results = find(calls, game, &params.q).await?;
    let saved = match viewer.caller.account() {
        None => Vec::new(),
        Some(_) => calls
            .decks()
            .map_err(failed)?
            .list_decks(decks_pb::ListDecksRequest {
                game: proto::game::to_wire(game),
                page_size: 100,
                page_token: String::new(),
            })
            .await
            .map(|page| page.decks)
            .unwrap_or_default(),
    };
    let kinds = &setup.piles;
    let code = share_code(&deck);
    let rules = params.rules();
    let issues: Vec<&scripts_pb::DeckIssue> = match &verdict {
        Some(Ok(answer)) => answer.issues.iter().collect(),
        _ => Vec::new(),
    };
    let change = |verb: &str, reference: &str, pile: &str| {
        let mut query = url::form_urlencoded::Serializer::new(String::new());
        if !code.is_empty() {
            query.append_pair("deck", &code);
        }
        if !params.q.is_empty() {
            query.append_pair("q", &params.q);
        }
        for (key, value) in rules.pairs() {
            query.append_pair(&key, &value);
        }
        query.append_pair(verb, reference).append_pair("pile", pile);
        format!("/{slug}/deck-builder?{}", query.finish())
    };
    let here = builder_href(slug, &code, &params.q, &rules);
    // Pile View (piles side by side) is on for a layout of several piles unless turned off.
    let pile_view = match rules.view.as_str() {
        "list" => false,
        "piles" => true,
        _ => kinds.len() > 1,
    };
    let view_href = |view: &str| {
        let mut toggled = rules.clone();
        view.clone_into(&mut toggled.view);
        builder_href(slug, &code, &params.q, &toggled)
    };
    // What the page's forms carry besides their own fields: the deck and search, and the rules.
    let mut deck_and_search: Vec<(String, String)> = Vec::new();
    if !code.is_empty() {
        deck_and_search.push(("deck".to_owned(), code.clone()));
    }
    if !params.q.is_empty() {
        deck_and_search.push(("q".to_owned(), params.q.clone()));
    }
    let keep_deck: Vec<(String, String)> = (!code.is_empty())
        .then(|| ("deck".to_owned(), code.clone()))
        .into_iter()
        .chain(rules.pairs())
        .collect();
    let everything: Vec<(String, String)> = deck_and_search
        .iter()
        .cloned()
        .chain(rules.pairs())
        .collect();
    let offered = deck_rules::offered(calls, game).await;
    let mut keep = deck_and_search.clone();
    if !rules.template.is_empty() {
        keep.push(("template".to_owned(), rules.template.clone()));
    }
    let rule_pickers = deck_rules::pickers(
        &format!("/{slug}/deck-builder"),
        &keep,
        &offered,
        &rules,
        (&setup.card_rule, &setup.deck_rule),
        &zones(&setup.piles),
    );
    // A Multi deck template opens as a lineup of as many empty decks as it has piles.
    let as_lineup = setup
        .template
        .as_ref()
        .filter(|(_, _, multi)| *multi)
        .map(|_| {
            let lineup_rules = Rules {
                deckset: setup.lineup.1.clone(),
                ..Rules::default()
            };
            lineup::href(
                slug,
                &vec![String::new(); setup.lineup.0.clamp(1, 10)],
                "",
                &lineup_rules,
            )
        });
    let template_forms = super::templates::forms(
        viewer,
        slug,
        setup.template.as_ref(),
        as_lineup.as_deref(),
        &templates,
        &offered,
        &rules.pairs(),
        code.is_empty(),
    );
    let dialog = calculators_dialog(
        calls,
        game,
        &setup.piles,
        &deck,
        &params.calc,
        &here,
        everything.clone(),
    )
    .await;
    let title = format!("{name} deck builder");
    Ok(page(
        viewer,
        &title,
        html! {
            h1 { (title) }
            @if let Some(dialog) = dialog { (dialog) }
            div class="builder" {
                section class="deck" aria-labelledby="deck-heading" {
                    h2 id="deck-heading" { "Deck" }
                    (template_forms)
                    (rule_pickers)
                    form method="get" action={ "/" (slug) "/deck-builder" } class="stack import" {
                        @for (key, value) in &rules.pairs() { input type="hidden" name=(key) value=(value); }
                        label for="import" { "Import a deck" }
                        textarea id="import" name="import" rows="4"
                            placeholder="Paste a deck code or a deck list" {}
                        button type="submit" { "Import" }
                    }
                    @if let Some(problem) = import_problem { p class="error" role="alert" { (problem) } }
                    @if !deck.unknown.is_empty() {
                        div class="warning" role="status" id="skipped" {
                            p { "Skipped:" }
                            ul { @for line in &deck.unknown {
                                li { @if let Some(at) = line.line { "Line " (at) ": " } (line.text) " — " (line.reason) }
                            } }
                        }
                    }
                    @match &verdict {
                        None => {}
                        Some(Err(message)) => { p class="error" role="alert" id="rules-failed" { (message) } }
                        Some(Ok(answer)) => {
                            @if answer.valid == Some(true) {
                                p class="ok" role="status" id="deck-valid" { "The deck passes its rules." }
                            } @else {
                                div class="error" role="alert" id="deck-issues" {
                                    p { "Warnings for the whole deck:" }
                                    ul { @for issue in &issues { li { (issue.message) } } }
                                }
                            }
                        }
                    }
                    p class="view-toggle" {
                        a id="multi-deck" href=(lineup::href(slug, &[code.clone(), String::new()], &params.q, &Rules::default())) { "Multi deck" }
                        " · "
                        "Pile View: " strong { @if pile_view { "on" } @else { "off" } } " "
                        a id="pile-view" href=(view_href(if pile_view { "list" } else { "piles" })) { @if pile_view { "Show as a list" } @else { "Lay piles side by side" } }
                    }
                    div class=(if pile_view { "piles columns" } else { "piles" }) {
                    @for kind in kinds {
                        @let cards: Vec<&decks_pb::PileCard> = cards_in(&deck, &kind.name).collect();
                        @let total: u32 = cards.iter().map(|card| card.count).sum();
                        @let pile_issues: Vec<&&scripts_pb::DeckIssue> = issues.iter().filter(|issue| issue.pile.as_deref() == Some(kind.label.as_str())).collect();
                        section class="pile" data-pile=(kind.name) aria-label=(kind.label) {
                            h3 { (kind.label) " " span class="count" { "(" (total) ")" } }
                            @if !pile_issues.is_empty() {
                                ul class="pile-issues error" { @for issue in &pile_issues { li { (issue.message) } } }
                            }
                            @if cards.is_empty() {
                                p class="help" { "Empty." }
                            } @else {
                                ul class="entries" {
                                    @for card in &cards {
                                        @let card_issues: Vec<&&scripts_pb::DeckIssue> = issues.iter().filter(|issue| issue.r#ref.as_deref() == Some(card.r#ref.as_str())).collect();
                                        li data-ref=(card.r#ref) {
                                            span class="copies" { (card.count) "×" }
                                            a href={ "/" (slug) "/cards/" (card.r#ref) } { (card.name) }
                                            @if !card_issues.is_empty() {
                                                span class="card-issue warning" role="note" { "⚠ " (card_issues.iter().map(|issue| issue.message.as_str()).collect::<Vec<_>>().join(" ")) }
                                            }
                                            a class="button secondary small" href=(change("add", &card.r#ref, &kind.name)) aria-label={ "One more " (card.name) } { "+" }
                                            a class="button secondary small" href=(change("remove", &card.r#ref, &kind.name)) aria-label={ "One less " (card.name) } { "−" }
                                        }
                                    }
                                }
                            }
                        }
                    }
                    }
                    @if let Some(exports) = &deck.exports {
                        section class="exports" {
                            h3 { "Share" }
                            p class="actions" {
                                a id="share" href={ "/" (slug) "/decks/" (urlencode(&exports.share_code)) } { "Share link" }
                                " "
                                (super::calculators::button(&with_calculator(&here, &default_calculator(slug))))
                            }
                            label for="deck-list" { "Deck list" }
                            textarea id="deck-list" readonly rows="4" { (exports.deck_list) }
                            button type="button" class="secondary" data-copy="deck-list" hidden { "Copy deck list" }
                            @if let Some(code) = &exports.deck_code {
                                label for="deck-code" { "Deck code" }
                                textarea id="deck-code" readonly rows="2" { (code) }
                                button type="button" class="secondary" data-copy="deck-code" hidden { "Copy deck code" }
                            }
                            @for note in &exports.notes { p class="help" { (note) } }
                        }
                    }
                }
                @if viewer.caller.account().is_some() {
                    section class="saved" aria-labelledby="saved-heading" {
                        h2 id="saved-heading" { "Your decks" }
                        @if !code.is_empty() {
                            form method="post" action={ "/" (slug) "/deck-builder/save" } class="stack" id="save" {
                                (super::layout::csrf_field(viewer))
                                input type="hidden" name="deck" value=(code);
                                @for (key, value) in &rules.pairs() { input type="hidden" name=(key) value=(value); }
                                label for="deck-name" { "Save as" }
                                input id="deck-name" name="name" required maxlength="100";
                                label { input type="checkbox" name="public" value="on"; " Public" }
                                button type="submit" { "Save" }
                            }
                        }
                        @if saved.is_empty() {
                            p class="help" { "No saved decks yet." }
                        } @else {
                            ul class="saved-decks" { @for each in &saved {
                                li { a href={ "/" (slug) "/deck-builder?saved=" (urlencode(&each.id)) } { (each.name) } " (" (each.main_count) ")" }
                            } }
                        }
                    }
                }
                (finder(slug, &keep_deck, &params.q, &results, |reference| {
                    kinds.iter().map(|kind| (change("add", reference, &kind.name), kind.label.clone())).collect()
                }))
            }
        },
    ))
}

/// A shared deck's page: its piles and exports, and "Open in deck builder". No account needed.
async fn shared(
    viewer: Viewer,
    calls: Calls,
    Path((slug, code)): Path<(String, String)>,
    Query(params): Query<SharedParams>,
) -> PageResult {
    let (game, name) = known_game(&slug)?;
    let deck = open(&calls, game, &code).await?;
    let share = share_code(&deck);
    let here = format!("/{slug}/decks/{}", urlencode(&code));
    let piles = layout(game);
    let dialog =
        calculators_dialog(&calls, game, &piles, &deck, &params.calc, &here, Vec::new()).await;
    let title = format!("{name} deck");
    Ok(page(
        &viewer,
        &title,
        html! {
            h1 { (title) }
            p class="actions" {
                a class="button" id="open-in-builder" href=(builder_href(&slug, &share, "", &Rules::default())) { "Open in deck builder" }
                " "
                (super::calculators::button(&with_calculator(&here, &default_calculator(&slug))))
            }
            @if let Some(dialog) = dialog { (dialog) }
            // The game's piles in the builder's order, each that holds cards.
            @for kind in &layout(game) {
                @let cards: Vec<&decks_pb::PileCard> = cards_in(&deck, &kind.name).collect();
                @if !cards.is_empty() {
                    section class="pile" data-pile=(kind.name) aria-label=(kind.label) {
                        h2 { (kind.label) " (" (cards.iter().map(|card| card.count).sum::<u32>()) ")" }
                        ul class="entries" { @for card in &cards {
                            li data-ref=(card.r#ref) { span class="copies" { (card.count) "×" } a href={ "/" (slug) "/cards/" (card.r#ref) } { (card.name) } }
                        } }
                    }
                }
            }
            @if let Some(exports) = &deck.exports {
                label for="deck-list" { "Deck list" }
                textarea id="deck-list" readonly rows="6" { (exports.deck_list) }
                button type="button" class="secondary" data-copy="deck-list" hidden { "Copy deck list" }
            }
        },
    )
    .into_response())
}

/// A shared deck's query string: the calculators dialog.
#[derive(Debug, Default, Deserialize)]
struct SharedParams {
    #[serde(default)]
    calc: String,
}

/// How a saved deck or a template writes a pile's role.
fn saved_role(kind: &PileKind) -> i32 {
    match kind.role {
        scripts_pb::PileRole::Sideboard => decks_pb::PileRole::Sideboard,
        _ => decks_pb::PileRole::Main,
    }
    .into()
}

/// The fields of the save form.
#[derive(Debug, Deserialize)]
struct SaveForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    deck: String,
    #[serde(default)]
    name: String,
    public: Option<String>,
    #[serde(default)]
    card: String,
    #[serde(default)]
    rule: String,
    #[serde(flatten)]
    rest: BTreeMap<String, String>,
}

fn rule_ref(id: &str) -> Option<decks_pb::RuleRef> {
    Some(decks_pb::RuleRef {
        ruleset: id.to_owned(),
        version: None,
    })
}

/// Saves the builder's deck on the viewer's account by name (a name in use is replaced), with
/// the game's default rules; the answer lists the warnings the deck still has.
async fn save(
    viewer: Viewer,
    calls: Calls,
    Path(slug): Path<String>,
    axum::Form(form): axum::Form<SaveForm>,
) -> PageResult {
    account_form(&viewer, &form.csrf)?;
    let (game, name) = known_game(&slug)?;
    let deck = open(&calls, game, &form.deck).await?;
    let rules = Rules::read(&form.card, &form.rule, &form.rest);
    let setup = set_up(&calls, game, &rules.template).await?;
    let (card_rule, deck_rule) = (setup.card_rule.as_str(), setup.deck_rule.as_str());
    let piles = setup
        .piles
        .iter()
        .enumerate()
        .map(|(order, kind)| decks_pb::SavedPile {
            name: kind.label.clone(),
            role: saved_role(kind),
            cards: cards_in(&deck, &kind.name)
                .map(|card| decks_pb::SavedCard {
                    r#ref: card.r#ref.clone(),
                    count: card.count,
                })
                .collect(),
            zone_rule: zone_rule(&rules, kind).and_then(rule_ref),
            column: u32::try_from(order).unwrap_or(0),
            order: 0,
            view: None,
            synced_deck: None,
        })
        .collect();
    let layout_kind = if setup.piles.len() > 1 {
        decks_pb::DeckLayout::Piles
    } else {
        decks_pb::DeckLayout::SingleDeck
    };
    let saved = calls
        .decks()
        .map_err(failed)?
        .save_deck(decks_pb::SaveDeckRequest {
            game: proto::game::to_wire(game),
            name: form.name.clone(),
            public: form.public.is_some(),
            layout: layout_kind.into(),
            piles,
            rules: Some(decks_pb::DeckRules {
                card_rule: rules.card_rule(card_rule).and_then(rule_ref),
                deck_rule: rules.deck_rule(deck_rule).and_then(rule_ref),
                deckset_rule: None,
            }),
        })
        .await
        .map_err(failed)?;
    let title = format!("Saved {}", form.name);
    Ok(page(
        &viewer,
        &title,
        html! {
            h1 { (title) }
            p role="status" id="saved" {
                @if saved.replaced { "Your " (name) " deck of that name was replaced." } @else { "Saved on your account." }
            }
            @if saved.warnings.is_empty() {
                p class="ok" { "The deck passes its rules." }
            } @else {
                div class="warning" id="save-warnings" {
                    p { "The deck still has these warnings:" }
                    ul { @for warning in &saved.warnings { li { (warning.message) } } }
                }
            }
            p { a href=(builder_href(&slug, &form.deck, "", &rules)) { "Back to the deck builder" } }
        },
    )
    .into_response())
}

/// The fields of the Save as Template form.
#[derive(Debug, Deserialize)]
struct TemplateForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    deckset: String,
    pin: Option<String>,
    public: Option<String>,
    #[serde(default)]
    card: String,
    #[serde(default)]
    rule: String,
    #[serde(flatten)]
    rest: BTreeMap<String, String>,
}

/// Saves the builder's layout (its piles, their zone rules and roles, the whole-deck rule and
/// the card ruleset, recommended or pinned) as a template of the viewer's, then opens the
/// builder on it.
async fn save_template(
    viewer: Viewer,
    calls: Calls,
    Path(slug): Path<String>,
    axum::Form(form): axum::Form<TemplateForm>,
) -> PageResult {
    account_form(&viewer, &form.csrf)?;
    let (game, _) = known_game(&slug)?;
    let rules = Rules::read(&form.card, &form.rule, &form.rest);
    let setup = set_up(&calls, game, &rules.template).await?;
    let piles = setup
        .piles
        .iter()
        .enumerate()
        .map(|(order, kind)| decks_pb::TemplatePile {
            name: kind.label.clone(),
            role: saved_role(kind),
            zone_rule: zone_rule(&rules, kind).and_then(rule_ref),
            column: u32::try_from(order).unwrap_or(0),
            order: 0,
            view: None,
            zone: Some(kind.name.clone()),
            cards: Vec::new(),
        })
        .collect();
    let layout_kind = if setup.piles.len() > 1 {
        decks_pb::DeckLayout::Piles
    } else {
        decks_pb::DeckLayout::SingleDeck
    };
    let mode = if form.pin.is_some() {
        decks_pb::RulesetMode::Pinned
    } else {
        decks_pb::RulesetMode::Recommended
    };
    let saved = calls
        .decks()
        .map_err(failed)?
        .save_template(decks_pb::SaveTemplateRequest {
            game: proto::game::to_wire(game),
            name: form.name.clone(),
            public: form.public.is_some(),
            layout: layout_kind.into(),
            piles,
            open_pile: 0,
            deck_rule: rules.deck_rule(&setup.deck_rule).and_then(rule_ref),
            deckset_rule: rule_ref(&form.deckset),
            card_ruleset: rules
                .card_rule(&setup.card_rule)
                .map(|id| decks_pb::CardRuleset {
                    rule: rule_ref(id),
                    mode: mode.into(),
                }),
        })
        .await
        .map_err(failed)?;
    let id = saved
        .template
        .map(|template| template.id)
        .unwrap_or_default();
    Ok(Redirect::to(&super::templates::builder_link(&slug, &id)).into_response())
}
