//! Settings → Calculators: the game's defaults and the viewer's own calculators (switch on or
//! off, View code, Duplicate, Edit, Make public, Delete), and the editor — the no-code builder
//! (palette, widget cards with title, fields, count and filter conditions, reorder and remove,
//! View compiled script, Drop to code) or the code editor (Back to builder while the code is
//! still what the builder generates), with a live preview over a sample deck.
//!
//! The editor is one form: every button posts it (`op`) and the page comes back with the
//! change made and the preview run again, so it works without JavaScript; with the script, a
//! change to a field reruns the preview in place. The spec the form holds is checked and
//! turned into a script by the calculators service (`BuildCalculator`), never here.

// `ApiError` is what the services' failures arrive as; it lives for one response.
#![allow(clippy::result_large_err)]

use std::collections::BTreeMap;

use axum::extract::{Path, Query};
use axum::response::{IntoResponse, Redirect};
use axum::routing::{get, post};
use axum::{Form, Router};
use maud::{Markup, html};
use proto::calculators::v1 as pb;
use proto::game::Game;
use serde_json::{Value, json};

use super::answer::{
    PageResult, account_form, again, failed, no_action, refused, signed_in, typed,
};
use super::layout::{csrf_field, game_name, page, urlencode};
use super::session::Viewer;
use super::settings::{ActionForm, GameQuery, action_button, annotated, game_tabs, settings_game};
use crate::auth::Calls;
use crate::state::AppState;

/// The note the code editor shows once the code no longer opens in the builder.
const DETACHED: &str =
    "This script has been edited by hand, so it can no longer open in the builder.";

/// The palette: widget kind and the button's name.
const PALETTE: [(&str, &str); 8] = [
    ("stat", "Stat"),
    ("histogram", "Curve"),
    ("donut", "Donut"),
    ("gauge", "Gauge"),
    ("bars", "Bars"),
    ("table", "Table"),
    ("hypergeometric", "Draw odds"),
    ("ratio", "Ratio"),
];

const OPS: [(&str, &str); 8] = [
    ("is", "is"),
    ("is_not", "is not"),
    ("is_one_of", "is one of"),
    ("contains", "contains"),
    ("lt", "<"),
    ("lte", "≤"),
    ("gt", ">"),
    ("gte", "≥"),
];

/// The calculators' settings routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/settings/calculators", get(list))
        .route("/settings/calculators/edit", get(open).post(edit))
        .route("/settings/calculators/{id}", post(act))
}

async fn list(viewer: Viewer, calls: Calls, Query(query): Query<GameQuery>) -> PageResult {
    signed_in(&viewer)?;
    let (slug, game) = settings_game(&query.game)?;
    let listed = calls
        .calculators()
        .map_err(failed)?
        .list_calculators(pb::ListCalculatorsRequest {
            game: proto::game::to_wire(game),
        })
        .await
        .map_err(failed)?;
    let name = game_name(slug).unwrap_or(slug);
    Ok(page(
        &viewer,
        "Calculators",
        html! {
            h1 { "Calculators" }
            (game_tabs("/settings/calculators", slug))
            p { a class="button" id="new-calculator" href={ "/settings/calculators/edit?game=" (slug) } { "New calculator" } }
            h2 { (name) " calculators" }
            div class="table-scroll" { table class="calculators" {
                thead { tr { th scope="col" { "Name" } th scope="col" { "Kind" } th scope="col" { "Actions" } } }
                tbody { @for calculator in &listed.calculators {
                    @let path = format!("/settings/calculators/{}", urlencode(&calculator.id));
                    @let act = |action: &str, label: &str| action_button(&viewer, &path, slug, action, label, &calculator.name);
                    tr data-id=(calculator.id) {
                        td { (calculator.name)
                             @if !calculator.enabled { " " span class="badge" { "Hidden from deck views" } } }
                        td {
                            @if calculator.built_in { span class="badge" { "Default" } }
                            @else {
                                span class="badge" { "Custom" } " "
                                span class="badge" { @if calculator.public { "Public" } @else { "Private" } }
                            }
                        }
                        td class="actions" {
                            @if calculator.enabled { (act("hide", "Hide")) } @else { (act("show", "Show")) }
                            (act("duplicate", "Duplicate"))
                            @if !calculator.built_in {
                                a class="button secondary small" aria-label={ "Edit " (calculator.name) }
                                    href={ "/settings/calculators/edit?game=" (slug) "&id=" (urlencode(&calculator.id)) } { "Edit" }
                                @if calculator.public { (act("private", "Make private")) } @else { (act("public", "Make public")) }
                                (act("delete", "Delete"))
                            }
                        }
                    }
                } }
            } }
            @for calculator in &listed.calculators {
                details class="view-code" {
                    summary { "View code: " (calculator.name) }
                    (annotated(&calculator.source, &[]))
                }
            }
        },
    )
    .into_response())
}

async fn act(
    viewer: Viewer,
    calls: Calls,
    Path(id): Path<String>,
    Form(form): Form<ActionForm>,
) -> PageResult {
    account_form(&viewer, &form.csrf)?;
    let (slug, game) = settings_game(&form.game)?;
    let game = proto::game::to_wire(game);
    let client = calls.calculators().map_err(failed)?;
    let update = |enabled: Option<bool>, public: Option<bool>| pb::UpdateCalculatorRequest {
        game,
        id: id.clone(),
        name: None,
        spec_json: None,
        source: None,
        public,
        enabled,
    };
    let done = match form.action.as_str() {
        "show" => client
            .update_calculator(update(Some(true), None))
            .await
            .map(drop),
        "hide" => client
            .update_calculator(update(Some(false), None))
            .await
            .map(drop),
        "public" => client
            .update_calculator(update(None, Some(true)))
            .await
            .map(drop),
        "private" => client
            .update_calculator(update(None, Some(false)))
            .await
            .map(drop),
        "duplicate" => client
            .duplicate_calculator(pb::DuplicateCalculatorRequest {
                game,
                id: id.clone(),
            })
            .await
            .map(drop),
        "delete" => client
            .delete_calculator(pb::DeleteCalculatorRequest {
                game,
                id: id.clone(),
            })
            .await
            .map(drop),
        other => {
            return Err(no_action(other, "on a calculator"));
        }
    };
    done.map_err(failed)?;
    Ok(Redirect::to(&format!("/settings/calculators?game={slug}")).into_response())
}

/// The editor's address: which game, and which calculator (none: a new one).
#[derive(Debug, serde::Deserialize)]
struct EditQuery {
    #[serde(default)]
    game: String,
    #[serde(default)]
    id: String,
}

/// What the editor holds between two posts.
#[derive(Debug, Clone, Default)]
struct Editor {
    id: String,
    name: String,
    public: bool,
    /// In the code editor (else the builder).
    code: bool,
    /// The builder's widgets, as spec JSON.
    widgets: Vec<Value>,
    /// The code editor's script.
    source: String,
    /// The sample deck the preview runs on: a code or list (empty: a few cards of the catalog).
    sample: String,
}

async fn open(viewer: Viewer, calls: Calls, Query(query): Query<EditQuery>) -> PageResult {
    signed_in(&viewer)?;
    let (slug, game) = settings_game(&query.game)?;
    let mut editor = Editor::default();
    if !query.id.is_empty() {
        let calculator = calls
            .calculators()
            .map_err(failed)?
            .get_calculator(pb::GetCalculatorRequest {
                game: proto::game::to_wire(game),
                id: query.id.clone(),
            })
            .await
            .map_err(failed)?
            .calculator
            .unwrap_or_default();
        editor.id = calculator.id;
        editor.name = calculator.name;
        editor.public = calculator.public;
        let spec = calculator
            .spec_json
            .as_deref()
            .and_then(|spec| serde_json::from_str::<Value>(spec).ok());
        match spec {
            Some(spec) if calculator.editable_in_builder => {
                editor.widgets = spec["widgets"].as_array().cloned().unwrap_or_default();
            }
            _ => {
                editor.code = true;
                editor.source = calculator.source;
            }
        }
    }
    let fields = game_fields(&calls, game).await;
    editor_page(&viewer, &calls, slug, game, &fields, &editor, None).await
}

/// The form's fields, by name.
type Fields = BTreeMap<String, String>;

fn field<'a>(fields: &'a Fields, key: &str) -> &'a str {
    fields.get(key).map_or("", String::as_str)
}

/// A number typed in a field, or `fallback` when it is empty or not a number.
fn whole(fields: &Fields, key: &str, fallback: Value) -> Value {
    field(fields, key)
        .trim()
        .parse::<i64>()
        .map_or(fallback, |number| json!(number))
}

/// A condition's value as the spec wants it: numbers for a number field or a comparison, a list
/// for `is one of`, text otherwise.
fn condition_value(text: &str, op: &str, numeric: bool) -> Value {
    let one = |part: &str| -> Value {
        let part = part.trim();
        match part.parse::<f64>() {
            Ok(number) if numeric || matches!(op, "lt" | "lte" | "gt" | "gte") => json!(number),
            _ => json!(part),
        }
    };
    if op == "is_one_of" {
        Value::Array(
            text.split(',')
                .filter(|part| !part.trim().is_empty())
                .map(one)
                .collect(),
        )
    } else {
        one(text)
    }
}

/// The filter under `prefix` (`w0.f`, `w0.num`), conditions in order.
fn filter_from(fields: &Fields, prefix: &str, numeric: &dyn Fn(&str) -> bool) -> Value {
    let mut conditions = Vec::new();
    for at in 0.. {
        let key = format!("{prefix}.c{at}");
        let Some(id) = fields.get(&format!("{key}.field")) else {
            break;
        };
        let op = field(fields, &format!("{key}.op"));
        let value = condition_value(field(fields, &format!("{key}.value")), op, numeric(id));
        conditions.push(json!({"field": id, "op": op, "value": value}));
    }
    let matching = match field(fields, &format!("{prefix}.match")) {
        "any" => "any",
        _ => "all",
    };
    json!({"match": matching, "conditions": conditions})
}

/// The builder's widgets as the form holds them, written as spec JSON.
fn widgets_from(fields: &Fields, numeric: &dyn Fn(&str) -> bool) -> Vec<Value> {
    let mut widgets = Vec::new();
    for at in 0.. {
        let key = |name: &str| format!("w{at}.{name}");
        let Some(kind) = fields.get(&key("kind")) else {
            break;
        };
        let text = |name: &str| field(fields, &key(name)).to_owned();
        let mut widget = serde_json::Map::new();
        widget.insert("kind".into(), json!(kind));
        widget.insert("label".into(), json!(text("label")));
        match kind.as_str() {
            "stat" => {
                let measure = text("measure");
                widget.insert("measure".into(), json!(measure));
                if measure != "count" && !text("field").is_empty() {
                    widget.insert("field".into(), json!(text("field")));
                }
                if !text("unit").is_empty() {
                    widget.insert("unit".into(), json!(text("unit")));
                }
            }
            "histogram" => {
                widget.insert("field".into(), json!(text("field")));
                widget.insert(
                    "bucketSize".into(),
                    whole(fields, &key("bucketSize"), json!(1)),
                );
                widget.insert("min".into(), whole(fields, &key("min"), json!(0)));
                widget.insert("max".into(), whole(fields, &key("max"), Value::Null));
            }
            "donut" | "gauge" | "bars" => {
                widget.insert("groupBy".into(), json!(text("groupBy")));
            }
            "table" => {
                widget.insert("groupBy".into(), json!(text("groupBy")));
                if text("groupBy") == "perCard" {
                    widget.insert("draws".into(), whole(fields, &key("draws"), json!(7)));
                }
            }
            "hypergeometric" => {
                widget.insert("draws".into(), whole(fields, &key("draws"), json!(7)));
                let counts: Vec<Value> = text("exactCounts")
                    .split(',')
                    .filter_map(|part| part.trim().parse::<u32>().ok())
                    .map(|count| json!(count))
                    .collect();
                if !counts.is_empty() {
                    widget.insert("exactCounts".into(), Value::Array(counts));
                }
            }
            "ratio" => {
                widget.insert(
                    "numerator".into(),
                    json!({"filter": filter_from(fields, &key("num"), numeric)}),
                );
                widget.insert(
                    "denominator".into(),
                    json!({"filter": filter_from(fields, &key("den"), numeric)}),
                );
                widget.insert("format".into(), json!(text("format")));
            }
            _ => {}
        }
        widget.insert(
            "count".into(),
            json!(if text("count") == "distinct" {
                "distinct"
            } else {
                "copies"
            }),
        );
        let filter = filter_from(fields, &key("f"), numeric);
        if filter["conditions"]
            .as_array()
            .is_some_and(|list| !list.is_empty())
        {
            widget.insert("filter".into(), filter);
        }
        widgets.push(Value::Object(widget));
    }
    widgets
}

/// A new widget of `kind`, on the game's first fields that fit.
fn new_widget(kind: &str, fields: &[pb::CalculatorField]) -> Value {
    let first = |kinds: &[&str]| {
        fields
            .iter()
            .find(|field| kinds.contains(&field.kind.as_str()))
            .map(|field| (field.id.clone(), field.label.clone()))
            .unwrap_or_default()
    };
    let (number, number_label) = first(&["number"]);
    let (category, category_label) = first(&["category", "text"]);
    match kind {
        "stat" => json!({"kind": "stat", "label": "Cards", "measure": "count", "count": "copies"}),
        "histogram" => json!({"kind": "histogram", "label": number_label, "field": number,
                              "bucketSize": 1, "min": 0, "max": null, "count": "copies"}),
        "donut" | "gauge" | "bars" => {
            json!({"kind": kind, "label": category_label, "groupBy": category, "count": "copies"})
        }
        "table" => {
            json!({"kind": "table", "label": category_label, "groupBy": category, "count": "copies"})
        }
        "hypergeometric" => {
            json!({"kind": "hypergeometric", "label": "Draw odds", "draws": 7, "count": "copies"})
        }
        _ => json!({"kind": "ratio", "label": "Ratio", "format": "ratio", "count": "copies",
                    "numerator": {"filter": {"match": "all", "conditions": []}},
                    "denominator": {"filter": {"match": "all", "conditions": []}}}),
    }
}

/// The filter of widget `widget` a button names: `f` (the widget's), `num` or `den`.
fn filter_of<'a>(widget: &'a mut Value, which: &str) -> Option<&'a mut Value> {
    match which {
        "num" => Some(&mut widget["numerator"]["filter"]),
        "den" => Some(&mut widget["denominator"]["filter"]),
        "f" => {
            if widget.get("filter").is_none() {
                widget["filter"] = json!({"match": "all", "conditions": []});
            }
            Some(&mut widget["filter"])
        }
        _ => None,
    }
}

/// Applies a builder button (`add:stat`, `up:2`, `down:2`, `remove:2`, `cond:2:f`,
/// `uncond:2:f:0`) to the widgets.
fn apply(op: &str, widgets: &mut Vec<Value>, fields: &[pb::CalculatorField]) {
    let parts: Vec<&str> = op.split(':').collect();
    let at = |index: usize| parts.get(index).and_then(|text| text.parse::<usize>().ok());
    match (parts.first().copied(), at(1)) {
        (Some("add"), _) if widgets.len() < 50 => {
            widgets.push(new_widget(parts.get(1).copied().unwrap_or("stat"), fields));
        }
        (Some("up"), Some(index)) if index > 0 && index < widgets.len() => {
            widgets.swap(index, index - 1);
        }
        (Some("down"), Some(index)) if index + 1 < widgets.len() => widgets.swap(index, index + 1),
        (Some("remove"), Some(index)) if index < widgets.len() => {
            widgets.remove(index);
        }
        (Some("cond"), Some(index)) if index < widgets.len() => {
            let first = fields.first();
            let condition = json!({
                "field": first.map_or("", |field| field.id.as_str()),
                "op": "is",
                "value": first.and_then(|field| field.values.first()).map_or("", String::as_str),
            });
            if let Some(filter) =
                filter_of(&mut widgets[index], parts.get(2).copied().unwrap_or("f"))
                && let Some(list) = filter["conditions"].as_array_mut()
                && list.len() < 20
            {
                list.push(condition);
            }
        }
        (Some("uncond"), Some(index)) if index < widgets.len() => {
            let which = parts.get(2).copied().unwrap_or("f");
            if let (Some(filter), Some(condition)) = (filter_of(&mut widgets[index], which), at(3))
                && let Some(list) = filter["conditions"].as_array_mut()
                && condition < list.len()
            {
                list.remove(condition);
            }
        }
        _ => {}
    }
}

async fn edit(
    viewer: Viewer,
    calls: Calls,
    Form(posted): Form<Vec<(String, String)>>,
) -> PageResult {
    let fields: Fields = posted.into_iter().collect();
    account_form(&viewer, field(&fields, "csrf"))?;
    let (slug, game) = settings_game(field(&fields, "game"))?;
    let offered = game_fields(&calls, game).await;
    let numeric = |id: &str| {
        offered
            .iter()
            .any(|field| field.id == id && field.kind == "number")
    };
    let mut editor = Editor {
        id: field(&fields, "id").to_owned(),
        name: field(&fields, "name").to_owned(),
        public: fields.contains_key("public"),
        code: field(&fields, "mode") == "code",
        widgets: widgets_from(&fields, &numeric),
        source: typed(field(&fields, "source")),
        sample: field(&fields, "sample").to_owned(),
    };
    let op = field(&fields, "op");
    let client = calls.calculators().map_err(failed)?;
    let wire = proto::game::to_wire(game);
    match op {
        "code" if !editor.code => match build(&calls, game, &editor.widgets).await {
            Ok(source) => {
                editor.code = true;
                editor.source = source;
            }
            Err(message) => {
                return editor_page(
                    &viewer,
                    &calls,
                    slug,
                    game,
                    &offered,
                    &editor,
                    Some(message),
                )
                .await;
            }
        },
        "builder" if editor.code => {
            let inspected = client
                .inspect_calculator(pb::InspectCalculatorRequest {
                    game: wire,
                    source: editor.source.clone(),
                })
                .await
                .map_err(failed)?;
            let spec = inspected
                .spec_json
                .as_deref()
                .and_then(|spec| serde_json::from_str::<Value>(spec).ok());
            match spec {
                Some(spec) if inspected.editable_in_builder => {
                    editor.code = false;
                    editor.widgets = spec["widgets"].as_array().cloned().unwrap_or_default();
                }
                _ => {
                    return editor_page(
                        &viewer,
                        &calls,
                        slug,
                        game,
                        &offered,
                        &editor,
                        Some(DETACHED.into()),
                    )
                    .await;
                }
            }
        }
        "save" => {
            let spec = json!({"widgets": editor.widgets}).to_string();
            let saved = if editor.id.is_empty() {
                client
                    .create_calculator(pb::CreateCalculatorRequest {
                        game: wire,
                        name: editor.name.clone(),
                        body: Some(if editor.code {
                            pb::create_calculator_request::Body::Source(editor.source.clone())
                        } else {
                            pb::create_calculator_request::Body::SpecJson(spec)
                        }),
                        public: editor.public,
                    })
                    .await
            } else {
                let (spec_json, source) = if editor.code {
                    (None, Some(editor.source.clone()))
                } else {
                    (Some(spec), None)
                };
                client
                    .update_calculator(pb::UpdateCalculatorRequest {
                        game: wire,
                        id: editor.id.clone(),
                        name: Some(editor.name.clone()),
                        spec_json,
                        source,
                        public: Some(editor.public),
                        enabled: None,
                    })
                    .await
            };
            return match saved {
                Ok(_) => {
                    Ok(Redirect::to(&format!("/settings/calculators?game={slug}")).into_response())
                }
                Err(error) => {
                    let api = refused(error)?;
                    let page = editor_page(
                        &viewer,
                        &calls,
                        slug,
                        game,
                        &offered,
                        &editor,
                        Some(api.message().to_owned()),
                    )
                    .await?;
                    again(&api, page)
                }
            };
        }
        other => apply(other, &mut editor.widgets, &offered),
    }
    editor_page(&viewer, &calls, slug, game, &offered, &editor, None).await
}

async fn game_fields(calls: &Calls, game: Game) -> Vec<pb::CalculatorField> {
    let Ok(client) = calls.calculators() else {
        return Vec::new();
    };
    client
        .list_calculator_fields(pb::ListCalculatorFieldsRequest {
            game: proto::game::to_wire(game),
        })
        .await
        .map(|answer| answer.fields)
        .unwrap_or_default()
}

/// The script the builder generates for `widgets`, or why the spec is refused.
async fn build(calls: &Calls, game: Game, widgets: &[Value]) -> Result<String, String> {
    let client = calls
        .calculators()
        .map_err(|error| error.message().to_owned())?;
    client
        .build_calculator(pb::BuildCalculatorRequest {
            game: proto::game::to_wire(game),
            spec_json: json!({ "widgets": widgets }).to_string(),
        })
        .await
        .map(|answer| answer.source)
        .map_err(|error| error.message)
}

/// The preview's deck: the sample pasted, or the first cards of the catalog, three of each.
async fn sample_pile(calls: &Calls, game: Game, sample: &str) -> Result<String, String> {
    let mut pile: BTreeMap<String, u32> = BTreeMap::new();
    if sample.trim().is_empty() {
        let found = calls
            .search()
            .map_err(|error| error.message().to_owned())?
            .search(proto::search::v1::SearchRequest {
                game: proto::game::to_wire(game),
                query: String::new(),
                page_size: 20,
                page_token: String::new(),
            })
            .await
            .map_err(|error| error.message)?;
        for hit in found.cards {
            if let Some(card) = &hit.card {
                let reference = hit.printing_id.clone().unwrap_or_else(|| card.id.clone());
                pile.insert(reference, 3);
            }
        }
    } else {
        let deck = calls
            .decks()
            .map_err(|error| error.message().to_owned())?
            .get_shared_deck(proto::decks::v1::GetSharedDeckRequest {
                game: proto::game::to_wire(game),
                code: sample.to_owned(),
            })
            .await
            .map_err(|error| format!("The sample deck could not be read: {}", error.message))?;
        for each in deck.piles.iter().filter(|pile| pile.name != "sideboard") {
            for card in &each.cards {
                *pile.entry(card.r#ref.clone()).or_insert(0) += card.count;
            }
        }
    }
    Ok(serde_json::to_string(&pile).unwrap_or_else(|_| "{}".to_owned()))
}

/// The preview: the script run over the sample deck, or what went wrong.
async fn preview(calls: &Calls, game: Game, source: Result<&str, &str>, sample: &str) -> Markup {
    let outcome = async {
        let source = source.map_err(str::to_owned)?;
        let pile = sample_pile(calls, game, sample).await?;
        calls
            .calculators()
            .map_err(|error| error.message().to_owned())?
            .run_calculator(pb::RunCalculatorRequest {
                game: proto::game::to_wire(game),
                id: String::new(),
                deck: Some(pb::run_calculator_request::Deck::PileJson(pile)),
                source: Some(source.to_owned()),
            })
            .await
            .map_err(|error| error.message)
    }
    .await;
    html! {
        section id="preview" aria-labelledby="preview-heading" aria-live="polite" {
            h2 id="preview-heading" { "Live preview" }
            @match outcome {
                Ok(answer) => {
                    @let widgets = answer.dashboard.map(|dashboard| dashboard.widgets).unwrap_or_default();
                    (super::charts::dashboard(&widgets))
                }
                Err(message) => {
                    div class="error" role="alert" id="preview-failed" { p { (message) } }
                }
            }
        }
    }
}

fn options(fields: &[pb::CalculatorField], kinds: &[&str], now: &str) -> Markup {
    html! {
        @for each in fields.iter().filter(|field| kinds.contains(&field.kind.as_str())) {
            option value=(each.id) selected[each.id == now] { (each.label) }
        }
    }
}

fn text_of(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        Value::Null => String::new(),
        Value::Array(list) => list.iter().map(text_of).collect::<Vec<_>>().join(", "),
        other => other.to_string(),
    }
}

/// One filter's fieldset: its conditions and the buttons that add and remove them.
fn filter_fields(
    prefix: &str,
    legend: &str,
    index: usize,
    which: &str,
    filter: &Value,
    fields: &[pb::CalculatorField],
) -> Markup {
    let conditions = filter["conditions"].as_array().cloned().unwrap_or_default();
    let matching = filter["match"].as_str().unwrap_or("all");
    html! {
        fieldset class="filter" {
            legend { (legend) }
            @if conditions.is_empty() { p class="help" { "No conditions: every card counts." } }
            @if conditions.len() > 1 {
                label for={ (prefix) ".match" } { "Match" }
                select id={ (prefix) ".match" } name={ (prefix) ".match" } {
                    option value="all" selected[matching == "all"] { "all" }
                    option value="any" selected[matching == "any"] { "any" }
                }
            }
            @for (at, condition) in conditions.iter().enumerate() {
                @let key = format!("{prefix}.c{at}");
                @let chosen = condition["field"].as_str().unwrap_or_default();
                @let op = condition["op"].as_str().unwrap_or("is");
                @let values = fields.iter().find(|field| field.id == chosen).map(|field| field.values.clone()).unwrap_or_default();
                @let list_id = format!("{key}.values");
                div class="condition" {
                    label class="visually-hidden" for={ (key) ".field" } { "Condition " (at + 1) " field" }
                    select id={ (key) ".field" } name={ (key) ".field" } {
                        (options(fields, &["number", "category", "text"], chosen))
                    }
                    label class="visually-hidden" for={ (key) ".op" } { "Condition " (at + 1) " comparison" }
                    select id={ (key) ".op" } name={ (key) ".op" } {
                        @for (value, label) in OPS { option value=(value) selected[value == op] { (label) } }
                    }
                    label class="visually-hidden" for={ (key) ".value" } { "Condition " (at + 1) " value" }
                    input id={ (key) ".value" } name={ (key) ".value" } value=(text_of(&condition["value"]))
                        list=[(!values.is_empty()).then_some(list_id.as_str())];
                    @if !values.is_empty() {
                        datalist id=(list_id) { @for value in &values { option value=(value) {} } }
                    }
                    button type="submit" name="op" value={ "uncond:" (index) ":" (which) ":" (at) } class="secondary small"
                        aria-label={ "Remove condition " (at + 1) " of " (legend) } { "×" }
                }
            }
            button type="submit" name="op" value={ "cond:" (index) ":" (which) } class="secondary small" { "Add condition" }
        }
    }
}

/// One widget card of the builder.
fn widget_card(
    index: usize,
    widget: &Value,
    count: usize,
    fields: &[pb::CalculatorField],
) -> Markup {
    let kind = widget["kind"].as_str().unwrap_or("stat");
    let key = |name: &str| format!("w{index}.{name}");
    let text = |name: &str| text_of(&widget[name]);
    let palette = PALETTE
        .iter()
        .find(|(id, _)| *id == kind)
        .map_or(kind, |(_, name)| name);
    let title = text("label");
    html! {
        li class="widget-card" {
            div class="card-head" {
                h3 { (index + 1) ". " (palette) }
                span class="reorder" {
                    button type="submit" name="op" value={ "up:" (index) } class="secondary small" disabled[index == 0]
                        aria-label={ "Move " (palette) " " (index + 1) " up" } { "↑" }
                    button type="submit" name="op" value={ "down:" (index) } class="secondary small" disabled[index + 1 == count]
                        aria-label={ "Move " (palette) " " (index + 1) " down" } { "↓" }
                    button type="submit" name="op" value={ "remove:" (index) } class="secondary small"
                        aria-label={ "Remove " (palette) " " (index + 1) } { "×" }
                }
            }
            input type="hidden" name=(key("kind")) value=(kind);
            label for=(key("label")) { "Title" }
            input id=(key("label")) name=(key("label")) value=(title) maxlength="200";
            @match kind {
                "stat" => {
                    label for=(key("measure")) { "Measure" }
                    select id=(key("measure")) name=(key("measure")) {
                        @for measure in ["count", "sum", "average", "min", "max"] {
                            option value=(measure) selected[text("measure") == measure] { (measure) }
                        }
                    }
                    label for=(key("field")) { "Number field" }
                    select id=(key("field")) name=(key("field")) {
                        option value="" { "— (for a count)" }
                        (options(fields, &["number"], &text("field")))
                    }
                    label for=(key("unit")) { "Unit" }
                    input id=(key("unit")) name=(key("unit")) value=(text("unit"));
                }
                "histogram" => {
                    label for=(key("field")) { "Number field" }
                    select id=(key("field")) name=(key("field")) { (options(fields, &["number"], &text("field"))) }
                    label for=(key("bucketSize")) { "Bucket size" }
                    input id=(key("bucketSize")) name=(key("bucketSize")) inputmode="numeric" value=(text("bucketSize"));
                    label for=(key("min")) { "Min" }
                    input id=(key("min")) name=(key("min")) inputmode="numeric" value=(text("min"));
                    label for=(key("max")) { "Max (empty: the deck's highest)" }
                    input id=(key("max")) name=(key("max")) inputmode="numeric" value=(text("max"));
                }
                "donut" | "gauge" | "bars" | "table" => {
                    label for=(key("groupBy")) { "Group by" }
                    select id=(key("groupBy")) name=(key("groupBy")) {
                        @if kind == "table" { option value="perCard" selected[text("groupBy") == "perCard"] { "Per card" } }
                        (options(fields, &["category", "text", "number"], &text("groupBy")))
                    }
                    @if kind == "table" && text("groupBy") == "perCard" {
                        label for=(key("draws")) { "Cards drawn" }
                        input id=(key("draws")) name=(key("draws")) inputmode="numeric" value=(text("draws"));
                    }
                }
                "hypergeometric" => {
                    label for=(key("draws")) { "Cards drawn" }
                    input id=(key("draws")) name=(key("draws")) inputmode="numeric" value=(text("draws"));
                    label for=(key("exactCounts")) { "Exact counts (comma-separated)" }
                    input id=(key("exactCounts")) name=(key("exactCounts")) value=(text("exactCounts"));
                }
                "ratio" => {
                    (filter_fields(&key("num"), &format!("Numerator of {} {}", palette, index + 1), index, "num", &widget["numerator"]["filter"], fields))
                    (filter_fields(&key("den"), &format!("Denominator of {} {}", palette, index + 1), index, "den", &widget["denominator"]["filter"], fields))
                    label for=(key("format")) { "Format" }
                    select id=(key("format")) name=(key("format")) {
                        @for format in ["number", "percent", "multiplier", "ratio"] {
                            option value=(format) selected[text("format") == format] { (format) }
                        }
                    }
                }
                _ => {}
            }
            label for=(key("count")) { "Count" }
            select id=(key("count")) name=(key("count")) {
                option value="copies" selected[text("count") != "distinct"] { "Card copies" }
                option value="distinct" selected[text("count") == "distinct"] { "Distinct cards" }
            }
            (filter_fields(&key("f"), &format!("Filter of {} {}", palette, index + 1), index, "f", &widget["filter"], fields))
        }
    }
}

/// The editor's page; `fields` are the game's card fields the builder offers.
async fn editor_page(
    viewer: &Viewer,
    calls: &Calls,
    slug: &str,
    game: Game,
    fields: &[pb::CalculatorField],
    editor: &Editor,
    problem: Option<String>,
) -> PageResult {
    let built = if editor.code {
        None
    } else {
        Some(build(calls, game, &editor.widgets).await)
    };
    let source: Result<&str, &str> = match &built {
        None => Ok(editor.source.as_str()),
        Some(Ok(source)) => Ok(source.as_str()),
        Some(Err(message)) => Err(message.as_str()),
    };
    // The code editor offers Back to builder while the code still opens in it.
    let back = if editor.code {
        calls
            .calculators()
            .map_err(failed)?
            .inspect_calculator(pb::InspectCalculatorRequest {
                game: proto::game::to_wire(game),
                source: editor.source.clone(),
            })
            .await
            .map(|answer| answer.editable_in_builder)
            .unwrap_or(false)
    } else {
        false
    };
    let shown = preview(calls, game, source, &editor.sample).await;
    let title = if editor.id.is_empty() {
        "New calculator"
    } else {
        "Edit calculator"
    };
    let name = game_name(slug).unwrap_or(slug);
    Ok(page(
        viewer,
        title,
        html! {
            h1 { (title) }
            p { a href={ "/settings/calculators?game=" (slug) } { "All " (name) " calculators" } }
            @if let Some(problem) = &problem {
                p class="error" role="alert" id="form-error" { (problem) }
            }
            div class="calculator-editor" {
                form method="post" action="/settings/calculators/edit" class="stack wide" id="calculator-form" data-live-preview {
                    (csrf_field(viewer))
                    input type="hidden" name="game" value=(slug);
                    input type="hidden" name="id" value=(editor.id);
                    input type="hidden" name="mode" value=(if editor.code { "code" } else { "builder" });
                    // Enter in a field updates the preview, not the first button of the form.
                    button type="submit" name="op" value="preview" hidden tabindex="-1" { "Update preview" }
                    label for="calculator-name" { "Calculator name" }
                    input id="calculator-name" name="name" required maxlength="100" value=(editor.name);
                    details class="sample" {
                        summary { "Sample deck: " @if editor.sample.trim().is_empty() { "a few cards of the catalog" } @else { "yours" } }
                        label for="sample" { "Change deck: paste a deck code or deck list (empty: Reset to sample)" }
                        textarea id="sample" name="sample" rows="3" { (editor.sample) }
                    }
                    @if editor.code {
                        div class="mode" {
                            button type="submit" name="op" value="builder" class="secondary" disabled[!back] { "Back to builder" }
                            @if !back { p class="help" id="detached" { (DETACHED) } }
                        }
                        label for="calculator-source" { "Script" }
                        textarea id="calculator-source" name="source" rows="18" spellcheck="false" { (editor.source) }
                    } @else {
                        div role="group" aria-labelledby="palette-heading" class="palette" {
                            h2 id="palette-heading" { "Add a widget" }
                            @for (kind, label) in PALETTE {
                                button type="submit" name="op" value={ "add:" (kind) } class="secondary" { (label) }
                            }
                        }
                        @if editor.widgets.is_empty() { p class="help" { "No widgets yet: pick one above." } }
                        ol class="widget-cards" {
                            @for (index, widget) in editor.widgets.iter().enumerate() {
                                (widget_card(index, widget, editor.widgets.len(), fields))
                            }
                        }
                        @if let Some(Ok(source)) = &built {
                            details class="view-code" id="compiled" {
                                summary { "View compiled script" }
                                (annotated(source, &[]))
                            }
                        }
                        button type="submit" name="op" value="code" class="secondary" { "Drop to code" }
                    }
                    label { input type="checkbox" name="public" value="on" checked[editor.public]; " Make public" }
                    div class="actions" {
                        button type="submit" name="op" value="preview" class="secondary" { "Update preview" }
                        button type="submit" name="op" value="save" id="save-calculator" {
                            @if editor.id.is_empty() { "Create" } @else { "Save changes" }
                        }
                    }
                }
                (shown)
            }
        },
    )
    .into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(pairs: &[(&str, &str)]) -> Fields {
        pairs
            .iter()
            .map(|(key, value)| ((*key).to_owned(), (*value).to_owned()))
            .collect()
    }

    #[test]
    fn the_form_reads_back_as_the_guides_spec() {
        let form = fields(&[
            ("w0.kind", "histogram"),
            ("w0.label", "Retreat cost"),
            ("w0.field", "retreatCost"),
            ("w0.bucketSize", "1"),
            ("w0.min", "0"),
            ("w0.max", ""),
            ("w0.count", "copies"),
            ("w0.f.c0.field", "cardType"),
            ("w0.f.c0.op", "is"),
            ("w0.f.c0.value", "Pokemon"),
            ("w1.kind", "table"),
            ("w1.label", "Opening hand starters"),
            ("w1.groupBy", "perCard"),
            ("w1.draws", "7"),
            ("w1.count", "copies"),
            ("w1.f.c0.field", "stage"),
            ("w1.f.c0.op", "is_one_of"),
            ("w1.f.c0.value", "Basic, Stage 1"),
        ]);
        let widgets = widgets_from(&form, &|id| id == "retreatCost");
        assert_eq!(
            Value::Array(widgets),
            json!([
                {"kind": "histogram", "label": "Retreat cost", "field": "retreatCost",
                 "bucketSize": 1, "min": 0, "max": null, "count": "copies",
                 "filter": {"match": "all", "conditions": [{"field": "cardType", "op": "is", "value": "Pokemon"}]}},
                {"kind": "table", "label": "Opening hand starters", "groupBy": "perCard", "draws": 7,
                 "count": "copies",
                 "filter": {"match": "all", "conditions": [{"field": "stage", "op": "is_one_of", "value": ["Basic", "Stage 1"]}]}}
            ])
        );
    }

    #[test]
    fn buttons_add_reorder_and_remove_widgets_and_conditions() {
        let offered = vec![pb::CalculatorField {
            id: "cost".into(),
            label: "Cost".into(),
            kind: "number".into(),
            values: Vec::new(),
        }];
        let mut widgets = Vec::new();
        apply("add:stat", &mut widgets, &offered);
        apply("add:histogram", &mut widgets, &offered);
        assert_eq!(widgets[1]["field"], "cost");
        apply("up:1", &mut widgets, &offered);
        assert_eq!(widgets[0]["kind"], "histogram");
        apply("cond:0:f", &mut widgets, &offered);
        apply("cond:0:f", &mut widgets, &offered);
        assert_eq!(
            widgets[0]["filter"]["conditions"].as_array().map(Vec::len),
            Some(2)
        );
        apply("uncond:0:f:1", &mut widgets, &offered);
        assert_eq!(
            widgets[0]["filter"]["conditions"].as_array().map(Vec::len),
            Some(1)
        );
        apply("remove:0", &mut widgets, &offered);
        assert_eq!(widgets.len(), 1);
        assert_eq!(widgets[0]["kind"], "stat");
        // Out of range: nothing happens.
        apply("down:0", &mut widgets, &offered);
        apply("remove:7", &mut widgets, &offered);
        assert_eq!(widgets.len(), 1);
    }
}
