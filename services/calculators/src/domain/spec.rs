//! The no-code builder's spec, version 1: the widgets of a calculator as data, read strictly
//! (an unknown key is refused with the key named, every value checked against the game's
//! fields) and written back as one canonical compact JSON, the one the marker line carries.

use serde_json::{Map, Value, json};

use super::fields::{self, Field, FieldKind};
use proto::game::Game;

/// The most widgets a spec holds (the renderer keeps 50).
pub const MAX_WIDGETS: usize = 50;
/// The most conditions of a filter.
pub const MAX_CONDITIONS: usize = 20;
/// The most characters of a label, a unit or a condition value (the renderer's label limit).
pub const MAX_TEXT_CHARS: usize = 200;
/// The most cards a draw counts (a hand, or a few turns of draws).
pub const MAX_DRAWS: u32 = 60;
/// The most bars of a histogram (the renderer's limit).
pub const MAX_BUCKETS: u32 = 200;

/// Why a spec cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{path}`: {problem}")]
pub struct SpecError {
    /// Where (`widgets[1].bucketSize`).
    pub path: String,
    /// What is wrong there.
    pub problem: String,
}

/// A calculator made in the builder: its widgets, in order.
#[derive(Debug, Clone, PartialEq)]
pub struct Spec {
    /// The widgets, drawn in order.
    pub widgets: Vec<Widget>,
}

/// What a widget counts: each copy, or each distinct card once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Count {
    /// A 3-of counts three times (the default).
    Copies,
    /// A 3-of counts once.
    Distinct,
}

/// Whether a card must meet all of a filter's conditions or any.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Match {
    /// Every condition.
    All,
    /// At least one.
    Any,
}

/// How a condition compares a card's field with its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// The field is (or, for a list, holds) the value.
    Is,
    /// The field is not (does not hold) the value.
    IsNot,
    /// The field is (holds) one of the values.
    IsOneOf,
    /// The field's text holds the value, without regard to case.
    Contains,
    /// The number is less than the value.
    Lt,
    /// At most.
    Lte,
    /// More than.
    Gt,
    /// At least.
    Gte,
}

impl Op {
    const ALL: [Op; 8] = [
        Op::Is,
        Op::IsNot,
        Op::IsOneOf,
        Op::Contains,
        Op::Lt,
        Op::Lte,
        Op::Gt,
        Op::Gte,
    ];

    /// Returns the op as a spec writes it.
    pub fn name(self) -> &'static str {
        match self {
            Op::Is => "is",
            Op::IsNot => "is_not",
            Op::IsOneOf => "is_one_of",
            Op::Contains => "contains",
            Op::Lt => "lt",
            Op::Lte => "lte",
            Op::Gt => "gt",
            Op::Gte => "gte",
        }
    }
}

/// One condition of a filter.
#[derive(Debug, Clone, PartialEq)]
pub struct Condition {
    /// The field's id.
    pub field: &'static str,
    /// The comparison.
    pub op: Op,
    /// The value: text or a number; a list of them for `is_one_of`.
    pub value: Value,
}

/// Which cards a widget looks at.
#[derive(Debug, Clone, PartialEq)]
pub struct Filter {
    /// All or any of the conditions.
    pub matching: Match,
    /// The conditions; none: every card.
    pub conditions: Vec<Condition>,
}

/// What a `stat` shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Measure {
    /// How many cards (copies or distinct).
    Count,
    /// The sum of a number field.
    Sum,
    /// Its average.
    Average,
    /// Its least value.
    Min,
    /// Its greatest value.
    Max,
}

impl Measure {
    const ALL: [Measure; 5] = [
        Measure::Count,
        Measure::Sum,
        Measure::Average,
        Measure::Min,
        Measure::Max,
    ];

    /// Returns the measure as a spec writes it.
    pub fn name(self) -> &'static str {
        match self {
            Measure::Count => "count",
            Measure::Sum => "sum",
            Measure::Average => "average",
            Measure::Min => "min",
            Measure::Max => "max",
        }
    }
}

/// How a `ratio` writes its quotient.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RatioFormat {
    /// `1.83`.
    Number,
    /// `65.0%`.
    Percent,
    /// `1.83×`.
    Multiplier,
    /// `11:6`.
    Ratio,
}

impl RatioFormat {
    const ALL: [RatioFormat; 4] = [
        RatioFormat::Number,
        RatioFormat::Percent,
        RatioFormat::Multiplier,
        RatioFormat::Ratio,
    ];

    /// Returns the format as a spec (and the widget) writes it.
    pub fn name(self) -> &'static str {
        match self {
            RatioFormat::Number => "number",
            RatioFormat::Percent => "percent",
            RatioFormat::Multiplier => "multiplier",
            RatioFormat::Ratio => "ratio",
        }
    }
}

/// What a `donut`, `gauge` or `bars` is drawn as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Segmented {
    /// A donut.
    Donut,
    /// A gauge.
    Gauge,
    /// Horizontal bars.
    Bars,
}

impl Segmented {
    /// Returns the widget kind.
    pub fn name(self) -> &'static str {
        match self {
            Segmented::Donut => "donut",
            Segmented::Gauge => "gauge",
            Segmented::Bars => "bars",
        }
    }
}

/// What a widget shows.
#[derive(Debug, Clone, PartialEq)]
pub enum WidgetKind {
    /// One number.
    Stat {
        /// What is measured.
        measure: Measure,
        /// The number field measured; `None` only for a count.
        field: Option<&'static str>,
        /// The suffix shown after the value.
        unit: Option<String>,
    },
    /// Bars over a number range.
    Histogram {
        /// The number field.
        field: &'static str,
        /// The width of a bar, at least 1.
        bucket_size: u32,
        /// Values below are left out.
        min: i64,
        /// The last bar holds everything at or above it; `None` stretches to the deck's
        /// highest value.
        max: Option<i64>,
    },
    /// One segment per value of a field, most first.
    Segments {
        /// Donut, gauge or bars.
        shape: Segmented,
        /// The field grouped by.
        group_by: &'static str,
    },
    /// Copies per value of a field.
    GroupedTable {
        /// The field grouped by.
        group_by: &'static str,
    },
    /// One row per distinct matching card: its starter odds over `draws` cards.
    PerCardTable {
        /// The opening hand's size.
        draws: u32,
    },
    /// The odds of drawing the matching cards.
    Hypergeometric {
        /// Cards drawn.
        draws: u32,
        /// Exact counts to show the odds of.
        exact_counts: Option<Vec<u32>>,
    },
    /// One count over another.
    Ratio {
        /// The numerator's filter.
        numerator: Filter,
        /// The denominator's filter.
        denominator: Filter,
        /// How the quotient is written.
        format: RatioFormat,
    },
}

/// One widget of a spec.
#[derive(Debug, Clone, PartialEq)]
pub struct Widget {
    /// Its title.
    pub label: String,
    /// Copies or distinct cards.
    pub count: Count,
    /// Which cards it looks at; `None`: every card.
    pub filter: Option<Filter>,
    /// What it shows.
    pub kind: WidgetKind,
}

impl Spec {
    /// Reads the spec JSON text of a calculator of `game`.
    pub fn parse(game: Game, text: &str) -> Result<Spec, SpecError> {
        let value: Value = serde_json::from_str(text).map_err(|err| SpecError {
            path: "spec".to_owned(),
            problem: format!("not JSON: {err}"),
        })?;
        Spec::from_value(game, &value)
    }

    /// Reads a spec of a calculator of `game`.
    pub fn from_value(game: Game, value: &Value) -> Result<Spec, SpecError> {
        let root = Reader::object(value, "spec")?;
        root.only(&["widgets"])?;
        let list = root
            .get("widgets")
            .ok_or_else(|| error("spec", "`widgets` is missing"))?;
        let list = list
            .as_array()
            .ok_or_else(|| error("widgets", "expected a list of widgets"))?;
        if list.len() > MAX_WIDGETS {
            return Err(error(
                "widgets",
                &format!("at most {MAX_WIDGETS} widgets (found {})", list.len()),
            ));
        }
        let widgets = list
            .iter()
            .enumerate()
            .map(|(index, widget)| read_widget(game, widget, &format!("widgets[{index}]")))
            .collect::<Result<_, _>>()?;
        Ok(Spec { widgets })
    }

    /// Writes the spec as its canonical JSON: every key in a fixed order, defaults written out.
    pub fn to_value(&self) -> Value {
        json!({"widgets": self.widgets.iter().map(widget_value).collect::<Vec<_>>()})
    }

    /// Writes the canonical JSON as compact text (what the marker line carries), safe to put
    /// in a line comment or a script: see [`compact_json`].
    pub fn to_compact_json(&self) -> String {
        compact_json(&self.to_value())
    }
}

/// Writes `value` as compact JSON in which the two line terminators JSON leaves raw, U+2028
/// and U+2029, are escaped: in JavaScript they end a line, and so would end the marker's
/// comment and let the rest of a label run as code. JSON reads the escapes back as the same
/// characters.
pub fn compact_json(value: &Value) -> String {
    serde_json::to_string(value)
        .expect("a JSON value always serializes")
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

fn error(path: &str, problem: &str) -> SpecError {
    SpecError {
        path: path.to_owned(),
        problem: problem.to_owned(),
    }
}

/// An object of the spec being read, with the path to it.
struct Reader<'a> {
    map: &'a Map<String, Value>,
    path: String,
}

impl<'a> Reader<'a> {
    fn object(value: &'a Value, path: &str) -> Result<Reader<'a>, SpecError> {
        value
            .as_object()
            .map(|map| Reader {
                map,
                path: path.to_owned(),
            })
            .ok_or_else(|| error(path, "expected an object"))
    }

    /// Refuses any key but `allowed`, naming it.
    fn only(&self, allowed: &[&str]) -> Result<(), SpecError> {
        match self.map.keys().find(|key| !allowed.contains(&key.as_str())) {
            Some(key) => Err(error(
                &self.path,
                &format!(
                    "unknown key `{}` (expected {})",
                    short(key),
                    allowed.join(", ")
                ),
            )),
            None => Ok(()),
        }
    }

    fn at(&self, key: &str) -> String {
        format!("{}.{key}", self.path)
    }

    fn get(&self, key: &str) -> Option<&'a Value> {
        self.map.get(key)
    }

    fn text(&self, key: &str) -> Result<Option<String>, SpecError> {
        match self.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(text)) if text.chars().count() <= MAX_TEXT_CHARS => {
                Ok(Some(text.clone()))
            }
            Some(Value::String(_)) => Err(error(
                &self.at(key),
                &format!("at most {MAX_TEXT_CHARS} characters"),
            )),
            Some(_) => Err(error(&self.at(key), "expected text")),
        }
    }

    fn required_text(&self, key: &str) -> Result<String, SpecError> {
        self.text(key)?
            .ok_or_else(|| error(&self.at(key), "is missing"))
    }

    /// A whole number in `range`; `None` when absent.
    fn whole(&self, key: &str, low: i64, high: i64) -> Result<Option<i64>, SpecError> {
        match self.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(value) => value
                .as_i64()
                .filter(|number| (low..=high).contains(number))
                .map(Some)
                .ok_or_else(|| {
                    error(
                        &self.at(key),
                        &format!("expected a whole number from {low} to {high}"),
                    )
                }),
        }
    }

    fn choice<T: Copy>(
        &self,
        key: &str,
        choices: &[T],
        name: impl Fn(T) -> &'static str,
    ) -> Result<Option<T>, SpecError> {
        let Some(text) = self.text(key)? else {
            return Ok(None);
        };
        choices
            .iter()
            .copied()
            .find(|choice| name(*choice) == text)
            .map(Some)
            .ok_or_else(|| {
                let names: Vec<&str> = choices.iter().map(|choice| name(*choice)).collect();
                error(
                    &self.at(key),
                    &format!("`{}` is not one of {}", short(&text), names.join(", ")),
                )
            })
    }
}

/// A prefix of user text to quote in a message.
fn short(text: &str) -> String {
    text.chars().take(64).collect()
}

const COMMON: [&str; 4] = ["kind", "label", "count", "filter"];

fn read_widget(game: Game, value: &Value, path: &str) -> Result<Widget, SpecError> {
    let widget = Reader::object(value, path)?;
    let kind = widget.required_text("kind")?;
    let keys = |own: &[&'static str]| -> Vec<&'static str> {
        COMMON.iter().copied().chain(own.iter().copied()).collect()
    };
    let field_of = |key: &str, kinds: &[FieldKind]| -> Result<&'static str, SpecError> {
        let id = widget.required_text(key)?;
        field(game, &id, kinds, &widget.at(key)).map(|field| field.id)
    };
    let group_by = |key: &str| {
        field_of(
            key,
            &[FieldKind::Category, FieldKind::Text, FieldKind::Number],
        )
    };
    let kind = match kind.as_str() {
        "stat" => {
            widget.only(&keys(&["measure", "field", "unit"]))?;
            let measure = widget
                .choice("measure", &Measure::ALL, Measure::name)?
                .ok_or_else(|| error(&widget.at("measure"), "is missing"))?;
            let field = match (measure, widget.get("field")) {
                (Measure::Count, None | Some(Value::Null)) => None,
                _ => Some(field_of("field", &[FieldKind::Number])?),
            };
            WidgetKind::Stat {
                measure,
                field,
                unit: widget.text("unit")?,
            }
        }
        "histogram" => {
            widget.only(&keys(&["field", "bucketSize", "min", "max"]))?;
            let field = field_of("field", &[FieldKind::Number])?;
            let bucket_size = widget.whole("bucketSize", 1, 1_000_000)?.unwrap_or(1);
            let min = widget.whole("min", -1_000_000, 1_000_000)?.unwrap_or(0);
            let max = widget.whole("max", -1_000_000, 1_000_000)?;
            if let Some(max) = max {
                if max <= min {
                    return Err(error(&widget.at("max"), "must be more than `min`"));
                }
                if (max - min).div_euclid(bucket_size) >= i64::from(MAX_BUCKETS) {
                    return Err(error(
                        &widget.at("max"),
                        &format!("at most {MAX_BUCKETS} bars"),
                    ));
                }
            }
            WidgetKind::Histogram {
                field,
                bucket_size: u32::try_from(bucket_size).unwrap_or(1),
                min,
                max,
            }
        }
        "donut" | "gauge" | "bars" => {
            widget.only(&keys(&["groupBy"]))?;
            let shape = match kind.as_str() {
                "donut" => Segmented::Donut,
                "gauge" => Segmented::Gauge,
                _ => Segmented::Bars,
            };
            WidgetKind::Segments {
                shape,
                group_by: group_by("groupBy")?,
            }
        }
        "table" => {
            widget.only(&keys(&["groupBy", "draws"]))?;
            let by = widget.required_text("groupBy")?;
            if by == "perCard" {
                let draws = widget.whole("draws", 1, i64::from(MAX_DRAWS))?.unwrap_or(7);
                WidgetKind::PerCardTable {
                    draws: u32::try_from(draws).unwrap_or(7),
                }
            } else {
                if widget.get("draws").is_some() {
                    return Err(error(
                        &widget.at("draws"),
                        "only a per-card table counts draws",
                    ));
                }
                WidgetKind::GroupedTable {
                    group_by: group_by("groupBy")?,
                }
            }
        }
        "hypergeometric" => {
            widget.only(&keys(&["draws", "exactCounts"]))?;
            let draws = widget
                .whole("draws", 1, i64::from(MAX_DRAWS))?
                .ok_or_else(|| error(&widget.at("draws"), "is missing"))?;
            let exact_counts = match widget.get("exactCounts") {
                None | Some(Value::Null) => None,
                Some(Value::Array(counts)) if counts.len() <= 50 => Some(
                    counts
                        .iter()
                        .map(|count| {
                            count
                                .as_u64()
                                .filter(|count| *count <= u64::from(MAX_DRAWS))
                                .and_then(|count| u32::try_from(count).ok())
                                .ok_or_else(|| {
                                    error(
                                        &widget.at("exactCounts"),
                                        "expected whole numbers from 0 to 60",
                                    )
                                })
                        })
                        .collect::<Result<_, _>>()?,
                ),
                Some(_) => {
                    return Err(error(
                        &widget.at("exactCounts"),
                        "expected a list of at most 50 whole numbers",
                    ));
                }
            };
            WidgetKind::Hypergeometric {
                draws: u32::try_from(draws).unwrap_or(7),
                exact_counts,
            }
        }
        "ratio" => {
            widget.only(&keys(&["numerator", "denominator", "format"]))?;
            let side = |key: &str| -> Result<Filter, SpecError> {
                let value = widget
                    .get(key)
                    .ok_or_else(|| error(&widget.at(key), "is missing"))?;
                let side = Reader::object(value, &widget.at(key))?;
                side.only(&["filter"])?;
                match side.get("filter") {
                    None | Some(Value::Null) => Ok(Filter {
                        matching: Match::All,
                        conditions: Vec::new(),
                    }),
                    Some(filter) => read_filter(game, filter, &side.at("filter")),
                }
            };
            WidgetKind::Ratio {
                numerator: side("numerator")?,
                denominator: side("denominator")?,
                format: widget
                    .choice("format", &RatioFormat::ALL, RatioFormat::name)?
                    .unwrap_or(RatioFormat::Number),
            }
        }
        other => {
            return Err(error(
                &widget.at("kind"),
                &format!(
                    "`{}` is not a widget kind (expected stat, histogram, donut, gauge, bars, table, hypergeometric or ratio)",
                    short(other)
                ),
            ));
        }
    };
    let count = match widget.text("count")?.as_deref() {
        None | Some("copies") => Count::Copies,
        Some("distinct") => Count::Distinct,
        Some(other) => {
            return Err(error(
                &widget.at("count"),
                &format!("`{}` is not one of copies, distinct", short(other)),
            ));
        }
    };
    let filter = match widget.get("filter") {
        None | Some(Value::Null) => None,
        Some(filter) => Some(read_filter(game, filter, &widget.at("filter"))?),
    };
    Ok(Widget {
        label: widget.required_text("label")?,
        count,
        filter,
        kind,
    })
}

fn field(
    game: Game,
    id: &str,
    kinds: &[FieldKind],
    path: &str,
) -> Result<&'static Field, SpecError> {
    let field = fields::find(game, id).ok_or_else(|| {
        let ids: Vec<&str> = fields::of_game(game).iter().map(|field| field.id).collect();
        error(
            path,
            &format!(
                "`{}` is not a {} field (expected one of {})",
                short(id),
                game.name(),
                ids.join(", ")
            ),
        )
    })?;
    if !kinds.contains(&field.kind) {
        return Err(error(
            path,
            &format!(
                "`{id}` is a {} field; this needs a number",
                field.kind.name()
            ),
        ));
    }
    Ok(field)
}

fn read_filter(game: Game, value: &Value, path: &str) -> Result<Filter, SpecError> {
    let filter = Reader::object(value, path)?;
    filter.only(&["match", "conditions"])?;
    let matching = match filter.text("match")?.as_deref() {
        None | Some("all") => Match::All,
        Some("any") => Match::Any,
        Some(other) => {
            return Err(error(
                &filter.at("match"),
                &format!("`{}` is not one of all, any", short(other)),
            ));
        }
    };
    let conditions = match filter.get("conditions") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(list)) if list.len() <= MAX_CONDITIONS => list
            .iter()
            .enumerate()
            .map(|(index, condition)| {
                read_condition(game, condition, &format!("{path}.conditions[{index}]"))
            })
            .collect::<Result<_, _>>()?,
        Some(_) => {
            return Err(error(
                &filter.at("conditions"),
                &format!("expected a list of at most {MAX_CONDITIONS} conditions"),
            ));
        }
    };
    Ok(Filter {
        matching,
        conditions,
    })
}

fn read_condition(game: Game, value: &Value, path: &str) -> Result<Condition, SpecError> {
    let condition = Reader::object(value, path)?;
    condition.only(&["field", "op", "value"])?;
    let id = condition.required_text("field")?;
    let field = field(
        game,
        &id,
        &[FieldKind::Number, FieldKind::Category, FieldKind::Text],
        &condition.at("field"),
    )?;
    let op = condition
        .choice("op", &Op::ALL, Op::name)?
        .ok_or_else(|| error(&condition.at("op"), "is missing"))?;
    let scalar = |value: &Value| -> bool {
        match value {
            Value::String(text) => text.chars().count() <= MAX_TEXT_CHARS,
            Value::Number(_) | Value::Bool(_) => true,
            _ => false,
        }
    };
    let value = condition
        .get("value")
        .cloned()
        .ok_or_else(|| error(&condition.at("value"), "is missing"))?;
    let fits = match op {
        Op::IsOneOf => value
            .as_array()
            .is_some_and(|list| list.len() <= 100 && list.iter().all(scalar)),
        Op::Lt | Op::Lte | Op::Gt | Op::Gte => value.is_number(),
        Op::Is | Op::IsNot | Op::Contains => scalar(&value),
    };
    if !fits {
        let expected = match op {
            Op::IsOneOf => "a list of at most 100 values",
            Op::Lt | Op::Lte | Op::Gt | Op::Gte => "a number",
            Op::Is | Op::IsNot | Op::Contains => "text or a number",
        };
        return Err(error(
            &condition.at("value"),
            &format!("expected {expected}"),
        ));
    }
    if matches!(op, Op::Lt | Op::Lte | Op::Gt | Op::Gte) && field.kind != FieldKind::Number {
        return Err(error(
            &condition.at("op"),
            &format!(
                "`{}` compares numbers; `{id}` is not a number field",
                op.name()
            ),
        ));
    }
    Ok(Condition {
        field: field.id,
        op,
        value,
    })
}

fn filter_value(filter: &Filter) -> Value {
    json!({
        "match": match filter.matching { Match::All => "all", Match::Any => "any" },
        "conditions": filter.conditions.iter().map(|condition| json!({
            "field": condition.field,
            "op": condition.op.name(),
            "value": condition.value,
        })).collect::<Vec<_>>(),
    })
}

fn widget_value(widget: &Widget) -> Value {
    let mut out = Map::new();
    let kind = match &widget.kind {
        WidgetKind::Stat { .. } => "stat",
        WidgetKind::Histogram { .. } => "histogram",
        WidgetKind::Segments { shape, .. } => shape.name(),
        WidgetKind::GroupedTable { .. } | WidgetKind::PerCardTable { .. } => "table",
        WidgetKind::Hypergeometric { .. } => "hypergeometric",
        WidgetKind::Ratio { .. } => "ratio",
    };
    out.insert("kind".into(), json!(kind));
    out.insert("label".into(), json!(widget.label));
    match &widget.kind {
        WidgetKind::Stat {
            measure,
            field,
            unit,
        } => {
            out.insert("measure".into(), json!(measure.name()));
            if let Some(field) = field {
                out.insert("field".into(), json!(field));
            }
            if let Some(unit) = unit {
                out.insert("unit".into(), json!(unit));
            }
        }
        WidgetKind::Histogram {
            field,
            bucket_size,
            min,
            max,
        } => {
            out.insert("field".into(), json!(field));
            out.insert("bucketSize".into(), json!(bucket_size));
            out.insert("min".into(), json!(min));
            out.insert("max".into(), json!(max));
        }
        WidgetKind::Segments { group_by, .. } | WidgetKind::GroupedTable { group_by } => {
            out.insert("groupBy".into(), json!(group_by));
        }
        WidgetKind::PerCardTable { draws } => {
            out.insert("groupBy".into(), json!("perCard"));
            out.insert("draws".into(), json!(draws));
        }
        WidgetKind::Hypergeometric {
            draws,
            exact_counts,
        } => {
            out.insert("draws".into(), json!(draws));
            if let Some(counts) = exact_counts {
                out.insert("exactCounts".into(), json!(counts));
            }
        }
        WidgetKind::Ratio {
            numerator,
            denominator,
            format,
        } => {
            out.insert(
                "numerator".into(),
                json!({"filter": filter_value(numerator)}),
            );
            out.insert(
                "denominator".into(),
                json!({"filter": filter_value(denominator)}),
            );
            out.insert("format".into(), json!(format.name()));
        }
    }
    out.insert(
        "count".into(),
        json!(match widget.count {
            Count::Copies => "copies",
            Count::Distinct => "distinct",
        }),
    );
    if let Some(filter) = &widget.filter {
        out.insert("filter".into(), filter_value(filter));
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The issue's example spec.
    const EXAMPLE: &str = r#"{"widgets": [
      {"kind": "histogram", "label": "Retreat cost", "field": "retreatCost",
       "bucketSize": 1, "min": 0, "max": null, "count": "copies",
       "filter": {"match": "all", "conditions": [{"field": "cardType", "op": "is", "value": "Pokemon"}]}},
      {"kind": "table", "label": "Opening hand starters", "groupBy": "perCard", "draws": 7,
       "filter": {"match": "all", "conditions": [{"field": "stage", "op": "is", "value": "Basic"}]}}
    ]}"#;

    #[test]
    fn reads_the_issues_example_and_writes_it_back_canonically() {
        let spec = Spec::parse(Game::Pokemon, EXAMPLE).expect("a valid spec");
        assert_eq!(spec.widgets.len(), 2);
        assert_eq!(spec.widgets[1].kind, WidgetKind::PerCardTable { draws: 7 });
        let again = Spec::parse(Game::Pokemon, &spec.to_compact_json()).expect("reads back");
        assert_eq!(again, spec);
        assert_eq!(again.to_compact_json(), spec.to_compact_json());
    }

    #[test]
    fn refuses_an_unknown_key_naming_it() {
        let cases = [
            (
                r#"{"widgets": [], "theme": "dark"}"#,
                "`spec`: unknown key `theme` (expected widgets)",
            ),
            (
                r#"{"widgets": [{"kind": "stat", "label": "n", "measure": "count", "colour": 1}]}"#,
                "`widgets[0]`: unknown key `colour` (expected kind, label, count, filter, measure, field, unit)",
            ),
            (
                r#"{"widgets": [{"kind": "stat", "label": "n", "measure": "count", "filter": {"conditions": [{"field": "hp", "op": "gt", "value": 1, "not": true}]}}]}"#,
                "`widgets[0].filter.conditions[0]`: unknown key `not` (expected field, op, value)",
            ),
        ];
        for (text, message) in cases {
            assert_eq!(
                Spec::parse(Game::Pokemon, text).map_err(|e| e.to_string()),
                Err(message.to_owned())
            );
        }
    }

    #[test]
    fn refuses_fields_of_the_wrong_game_or_kind_and_bad_numbers() {
        for (text, path) in [
            (
                r#"{"widgets": [{"kind": "histogram", "label": "c", "field": "cost"}]}"#,
                "widgets[0].field",
            ),
            (
                r#"{"widgets": [{"kind": "histogram", "label": "c", "field": "stage"}]}"#,
                "widgets[0].field",
            ),
            (
                r#"{"widgets": [{"kind": "histogram", "label": "c", "field": "hp", "bucketSize": 0}]}"#,
                "widgets[0].bucketSize",
            ),
            (
                r#"{"widgets": [{"kind": "histogram", "label": "c", "field": "hp", "min": 5, "max": 5}]}"#,
                "widgets[0].max",
            ),
            (
                r#"{"widgets": [{"kind": "hypergeometric", "label": "c"}]}"#,
                "widgets[0].draws",
            ),
            (
                r#"{"widgets": [{"kind": "stat", "label": "c", "measure": "sum"}]}"#,
                "widgets[0].field",
            ),
            (
                r#"{"widgets": [{"kind": "pie", "label": "c"}]}"#,
                "widgets[0].kind",
            ),
            (
                r#"{"widgets": [{"kind": "stat", "measure": "count"}]}"#,
                "widgets[0].label",
            ),
            (
                r#"{"widgets": [{"kind": "stat", "label": "c", "measure": "count", "filter": {"conditions": [{"field": "name", "op": "gt", "value": 3}]}}]}"#,
                "widgets[0].filter.conditions[0].op",
            ),
            (
                r#"{"widgets": [{"kind": "stat", "label": "c", "measure": "count", "filter": {"conditions": [{"field": "name", "op": "is_one_of", "value": "a"}]}}]}"#,
                "widgets[0].filter.conditions[0].value",
            ),
        ] {
            let err = Spec::parse(Game::Pokemon, text).expect_err(text);
            assert_eq!(err.path, path, "{text}: {err}");
        }
    }

    #[test]
    fn defaults_are_written_out() {
        let spec = Spec::parse(
            Game::Lor,
            r#"{"widgets": [{"kind": "histogram", "label": "Curve", "field": "cost"},
                            {"kind": "ratio", "label": "Units to spells",
                             "numerator": {"filter": {"conditions": [{"field": "type", "op": "is", "value": "Unit"}]}},
                             "denominator": {}}]}"#,
        )
        .expect("valid");
        assert_eq!(
            spec.to_compact_json(),
            r#"{"widgets":[{"kind":"histogram","label":"Curve","field":"cost","bucketSize":1,"min":0,"max":null,"count":"copies"},{"kind":"ratio","label":"Units to spells","numerator":{"filter":{"match":"all","conditions":[{"field":"type","op":"is","value":"Unit"}]}},"denominator":{"filter":{"match":"all","conditions":[]}},"format":"number","count":"copies"}]}"#
        );
    }
}
