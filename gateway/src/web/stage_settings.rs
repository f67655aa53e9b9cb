//! The create form's stage editor: every setting of a stage, as the tournament service fills
//! it in for the game and the format (`GetStageDefaults`), drawn as a field of its kind — a
//! checkbox, a number, a choice among the guide's values, the tiebreakers in the order they
//! apply, the points of a result — and read back from the posted form into the stage's
//! settings. The two settings the service leaves out while they are off (a Swiss stage's late
//! entry, a round robin's grouping) are offered too.
//!
//! Which settings a stage has, and which values are right, are the service's: a kind comes
//! from the default's JSON type, and the service checks what is sent.

use maud::{Markup, html};
use serde_json::{Map, Value, json};

use super::wording::{CHOICES, TIEBREAKERS, label, number, text, words};

/// A posted form's fields, in order.
pub type Fields = [(String, String)];

/// The first value posted under `name` (empty when none).
pub fn field<'a>(fields: &'a Fields, name: &str) -> &'a str {
    fields
        .iter()
        .find(|(key, _)| key == name)
        .map_or("", |(_, value)| value.as_str())
}

/// Every value posted under `name`, in order.
pub fn all<'a>(fields: &'a Fields, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
    fields
        .iter()
        .filter(move |(key, _)| key == name)
        .map(|(_, value)| value.as_str())
}

/// Whether `name` was posted (a checked checkbox).
pub fn has(fields: &Fields, name: &str) -> bool {
    fields.iter().any(|(key, _)| key == name)
}

/// The tiebreakers a round robin offers (the guide's table); Swiss offers every one.
const ROUND_ROBIN_TIEBREAKERS: [&str; 4] = [
    "head_to_head",
    "score_difference",
    "game_win_percentage",
    "points_scored",
];

/// The settings a stage of `format` may have that its defaults leave out while off, with the
/// JSON the editor treats them as (an optional number, a grouping).
fn unset(format: &str) -> &'static [&'static str] {
    match format {
        "swiss" => &["late_entry_through_round"],
        "round_robin" => &["grouping"],
        _ => &[],
    }
}

/// A field's name (`prefix` then the key) and its element id.
fn names(prefix: &str, key: &str) -> (String, String) {
    let name = format!("{prefix}{key}");
    let id = name.replace(['.', '_'], "-");
    (name, id)
}

/// The fields of one stage's settings: `defaults` decide each field's kind, `current` its
/// value (what was posted, or the defaults).
pub fn editor(
    prefix: &str,
    format: &str,
    defaults: &Map<String, Value>,
    current: &Map<String, Value>,
) -> Markup {
    let extra: Vec<(&str, Value)> = unset(format)
        .iter()
        .filter(|key| !defaults.contains_key(**key))
        .map(|key| (*key, Value::Null))
        .collect();
    let keys = defaults
        .iter()
        .map(|(key, value)| (key.as_str(), value.clone()))
        .chain(extra);
    html! {
        div class="settings-grid" {
            @for (key, default) in keys {
                @let value = current.get(key).cloned().unwrap_or_else(|| default.clone());
                (setting(prefix, format, key, &default, &value))
            }
        }
    }
}

/// One setting's field.
fn setting(prefix: &str, format: &str, key: &str, default: &Value, value: &Value) -> Markup {
    let (name, id) = names(prefix, key);
    let label = label(key);
    if let Some((_, choices)) = CHOICES.iter().find(|(choice, _)| *choice == key) {
        let now = value.as_str().unwrap_or_default();
        return html! {
            div class="field" {
                label for=(id) { (label) }
                select id=(id) name=(name) {
                    @for (choice, shown) in choices.iter() { option value=(choice) selected[*choice == now] { (shown) } }
                }
            }
        };
    }
    match (key, default) {
        ("tiebreakers", _) => tiebreakers(prefix, format, value),
        ("grouping", _) => grouping(prefix, value),
        ("points", Value::Object(parts)) => html! {
            fieldset class="points" {
                legend { "Points for a result" }
                @for part in parts.keys() {
                    @let (name, id) = names(prefix, &format!("points.{part}"));
                    label for=(id) { (words(part)) }
                    input id=(id) name=(name) type="number" step="any" value=(number(&value[part.as_str()]));
                }
            }
        },
        (_, Value::Bool(_)) => html! {
            div class="field" {
                label { input type="checkbox" name=(name) value="on" checked[value == &Value::Bool(true)]; " " (label) }
            }
        },
        (_, Value::Array(_)) => {
            let shown = value
                .as_array()
                .map(|list| list.iter().map(number).collect::<Vec<_>>().join(", "))
                .unwrap_or_else(|| number(value));
            html! {
                div class="field" {
                    label for=(id) { (label) }
                    input id=(id) name=(name) value=(shown);
                }
            }
        }
        (_, Value::Number(n)) => html! {
            div class="field" {
                label for=(id) { (label) }
                input id=(id) name=(name) type="number" min="0" step=(if n.is_f64() { "any" } else { "1" }) value=(number(value));
            }
        },
        (_, Value::Null) => html! {
            div class="field" {
                label for=(id) { (label) }
                input id=(id) name=(name) type="number" min="0" step="any" value=(number(value));
            }
        },
        _ => html! {
            div class="field" {
                label for=(id) { (label) }
                input id=(id) name=(name) value=(text(value));
            }
        },
    }
}

/// The tiebreakers in the order they apply: one choice per place, and one more to add.
fn tiebreakers(prefix: &str, format: &str, value: &Value) -> Markup {
    let chosen: Vec<String> = value
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|id| id.as_str().map(str::to_owned))
        .collect();
    let offered: Vec<(&str, &str)> = TIEBREAKERS
        .iter()
        .filter(|(id, _, _)| format != "round_robin" || ROUND_ROBIN_TIEBREAKERS.contains(id))
        .map(|(id, _, meaning)| (*id, meaning.split(':').next().unwrap_or(id)))
        .collect();
    let places = (chosen.len() + 1).min(offered.len());
    let (name, id) = names(prefix, "tiebreakers");
    html! {
        fieldset class="tiebreakers" {
            legend { "Tiebreakers, applied in order" }
            @for place in 0..places {
                @let now = chosen.get(place).map_or("", String::as_str);
                label for={ (id) "-" (place) } { (place + 1) "." }
                select id={ (id) "-" (place) } name=(name) {
                    option value="" selected[now.is_empty()] { "—" }
                    @for (tiebreaker, shown) in &offered { option value=(tiebreaker) selected[*tiebreaker == now] { (shown) } }
                }
            }
        }
    }
}

/// A round robin's grouping: one group, a number of groups, or players per group.
fn grouping(prefix: &str, value: &Value) -> Markup {
    let (kind, count) = match value
        .as_object()
        .and_then(|grouping| grouping.iter().next())
    {
        Some((kind, count)) => (kind.as_str(), number(count)),
        None => ("", String::new()),
    };
    let (name, id) = names(prefix, "grouping");
    html! {
        div class="field" {
            label for=(id) { "Grouping" }
            select id=(id) name=(name) {
                @for (choice, shown) in [("", "One group"), ("groups", "A number of groups"), ("players_per_group", "Players per group")] {
                    option value=(choice) selected[choice == kind] { (shown) }
                }
            }
            label for={ (id) "-n" } { "How many" }
            input id={ (id) "-n" } name={ (name) ".n" } type="number" min="1" value=(count);
        }
    }
}

/// Reads a number: a whole number as one (`5`), else a decimal (`0.5`).
fn parse_number(text: &str) -> Option<Value> {
    let text = text.trim();
    text.parse::<u64>().map(Value::from).ok().or_else(|| {
        text.parse::<f64>()
            .ok()
            .filter(|n| n.is_finite())
            .map(|n| json!(n))
    })
}

/// Reads a stage's settings back from the posted `fields`: every setting `defaults` has (and
/// the ones [`unset`] offers), in its kind. A value that is not one of its kind is kept as its
/// text, so the form shows it again, and named in the problems.
pub fn read(
    prefix: &str,
    format: &str,
    defaults: &Map<String, Value>,
    fields: &Fields,
) -> (Map<String, Value>, Vec<String>) {
    let mut out = Map::new();
    let mut problems = Vec::new();
    // A number where the default is a decimal stays one (`3.0`), as the service writes it.
    let number = |key: &str,
                  text: &str,
                  decimal: bool,
                  out: &mut Map<String, Value>,
                  problems: &mut Vec<String>| {
        match parse_number(text) {
            Some(value) => {
                let value = match value.as_f64() {
                    Some(n) if decimal => json!(n),
                    _ => value,
                };
                out.insert(key.to_owned(), value);
            }
            None => {
                problems.push(format!(
                    "{} must be a number, not “{}”.",
                    label(key),
                    text.trim()
                ));
                out.insert(key.to_owned(), Value::String(text.to_owned()));
            }
        }
    };
    for (key, default) in defaults {
        let (name, _) = names(prefix, key);
        if CHOICES.iter().any(|(choice, _)| choice == key) {
            out.insert(key.clone(), Value::String(field(fields, &name).to_owned()));
            continue;
        }
        match (key.as_str(), default) {
            ("tiebreakers", _) => {
                let chosen: Vec<Value> = all(fields, &name)
                    .filter(|id| !id.is_empty())
                    .map(|id| Value::String(id.to_owned()))
                    .collect();
                out.insert(key.clone(), Value::Array(chosen));
            }
            (_, Value::Object(parts)) => {
                let mut read = Map::new();
                for part in parts.keys() {
                    let (name, _) = names(prefix, &format!("{key}.{part}"));
                    let decimal = parts[part].is_f64();
                    number(
                        part,
                        field(fields, &name),
                        decimal,
                        &mut read,
                        &mut problems,
                    );
                }
                out.insert(key.clone(), Value::Object(read));
            }
            (_, Value::Bool(_)) => {
                out.insert(key.clone(), Value::Bool(has(fields, &name)));
            }
            (_, Value::Array(_)) => {
                let text = field(fields, &name);
                let parts: Option<Vec<Value>> = text
                    .split(',')
                    .filter(|part| !part.trim().is_empty())
                    .map(parse_number)
                    .collect();
                match parts {
                    Some(parts) => {
                        out.insert(key.clone(), Value::Array(parts));
                    }
                    None => {
                        problems.push(format!(
                            "{} must be numbers separated by commas, not “{}”.",
                            label(key),
                            text.trim()
                        ));
                        out.insert(key.clone(), Value::String(text.to_owned()));
                    }
                }
            }
            (_, Value::Number(n)) => number(
                key,
                field(fields, &name),
                n.is_f64(),
                &mut out,
                &mut problems,
            ),
            (_, Value::Null) => {
                let text = field(fields, &name);
                if text.trim().is_empty() {
                    out.insert(key.clone(), Value::Null);
                } else {
                    number(key, text, false, &mut out, &mut problems);
                }
            }
            _ => {
                out.insert(key.clone(), Value::String(field(fields, &name).to_owned()));
            }
        }
    }
    for key in unset(format) {
        if defaults.contains_key(*key) {
            continue;
        }
        let (name, _) = names(prefix, key);
        if *key == "grouping" {
            let kind = field(fields, &name);
            let count = field(fields, &format!("{name}.n"));
            if !kind.is_empty() {
                match count.trim().parse::<u32>() {
                    Ok(count) => {
                        out.insert(key.to_string(), json!({ kind: count }));
                    }
                    Err(_) => {
                        problems.push(format!("Grouping needs how many, not “{}”.", count.trim()))
                    }
                }
            }
        } else {
            let text = field(fields, &name);
            if !text.trim().is_empty() {
                number(key, text, false, &mut out, &mut problems);
            }
        }
    }
    (out, problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pokemon_swiss() -> Map<String, Value> {
        let value = json!({"first_round_seeding": "random", "prevent_repeat_matchups": true,
            "pairing_style": "random_within_score_groups", "rounds": 5, "allow_draws": true,
            "points": {"win": 3.0, "draw": 1.0, "loss": 0.0, "bye": 3.0},
            "bye_handling": "full_points",
            "tiebreakers": ["opponent_match_win_percentage", "opponent_opponent_match_win_percentage"],
            "round_minutes": 50});
        value.as_object().cloned().unwrap_or_default()
    }

    /// The fields a browser posts for `markup`'s form as drawn (checked boxes, selected
    /// options, input values), read the simple way the editor writes them.
    fn posted(prefix: &str, settings: &Map<String, Value>) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for (key, value) in settings {
            let name = format!("{prefix}{key}");
            match value {
                Value::Bool(true) => out.push((name, "on".to_owned())),
                Value::Bool(false) | Value::Null => {}
                Value::Array(list) => {
                    for item in list {
                        out.push((name.clone(), number(item)));
                    }
                }
                Value::Object(parts) => {
                    for (part, value) in parts {
                        out.push((format!("{name}.{part}"), number(value)));
                    }
                }
                other => out.push((name, text(other).replace(".0", ""))),
            }
        }
        out
    }

    #[test]
    fn the_defaults_posted_back_unchanged_read_as_the_defaults() {
        let defaults = pokemon_swiss();
        let (read, problems) = read("s0.", "swiss", &defaults, &posted("s0.", &defaults));
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(Value::Object(read), Value::Object(defaults));
    }

    #[test]
    fn a_changed_setting_and_an_optional_one_are_read_and_a_bad_number_is_named() {
        let defaults = pokemon_swiss();
        let mut fields = posted("s0.", &defaults);
        for (key, value) in &mut fields {
            if key == "s0.rounds" {
                *value = "7".into();
            }
            if key == "s0.points.draw" {
                *value = "half".into();
            }
        }
        fields.retain(|(key, _)| key != "s0.allow_draws");
        fields.push(("s0.late_entry_through_round".into(), "2".into()));
        let (read, problems) = read("s0.", "swiss", &defaults, &fields);
        assert_eq!(read["rounds"], 7);
        assert_eq!(read["allow_draws"], false);
        assert_eq!(read["late_entry_through_round"], 2);
        assert_eq!(read["points"]["draw"], "half");
        assert_eq!(problems, ["Draw must be a number, not “half”."]);
    }

    #[test]
    fn every_field_the_editor_draws_is_one_it_reads() {
        let defaults = pokemon_swiss();
        let markup = editor("s0.", "swiss", &defaults, &defaults).into_string();
        for key in defaults.keys().filter(|key| *key != "points") {
            assert!(markup.contains(&format!("name=\"s0.{key}\"")), "{key}");
        }
        assert!(markup.contains("name=\"s0.points.bye\""));
        assert!(markup.contains("name=\"s0.late_entry_through_round\""));
        // The two tiebreakers chosen, and a third place to add one.
        assert_eq!(markup.matches("name=\"s0.tiebreakers\"").count(), 3);
    }
}
