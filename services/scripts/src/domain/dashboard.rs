//! Calculator dashboards: what a calculator's `compute` returned, repaired and capped
//! (`shared/spec/turny/reference-scripting-calculators.md`, "Widget reference", "How bad output
//! is handled" and "Limits").
//!
//! The raw value comes from the sandbox as JSON (`None` when `compute` returned `undefined`)
//! and is never trusted: [`normalize`] never fails, it drops or repairs whatever does not fit,
//! cuts everything to the limits, and flags widgets with nothing to show (`noData`). Drawing
//! the widgets (number formats, palettes, the hypergeometric odds) is the renderer's job.
//!
//! Lengths are JavaScript's: a "character" of the limits is a UTF-16 code unit, as in
//! `text.slice(0, 200)` (see [`js::truncate_utf16`]), and numbers and text are converted as
//! JavaScript's `Number()` and `String()` do it ([`js`]).

use proto::scripts::v1::{Dashboard, Segment, Widget};
use serde_json::{Map, Value};

use super::js;

/// Widgets kept per dashboard (`maxWidgets`); later widgets are dropped.
pub const MAX_WIDGETS: usize = 50;
/// Segments kept per `donut`, `gauge` or `bars` widget (`maxSegments`).
pub const MAX_SEGMENTS: usize = 100;
/// Entries kept in a `histogram`'s `buckets` and in its `labels` (`maxHistogramBuckets`).
pub const MAX_HISTOGRAM_BUCKETS: usize = 200;
/// Rows kept per `table` (`maxTableRows`).
pub const MAX_TABLE_ROWS: usize = 200;
/// Entries kept in a `table`'s `columns` (and `columnKeys`), and cells kept per row
/// (`maxTableColumns`).
pub const MAX_TABLE_COLUMNS: usize = 20;
/// UTF-16 code units kept in every short string (`maxLabelLength`): widget labels, label keys
/// and vocabularies, `stat` string values and units, segment keys, labels and colors,
/// histogram labels, table column headers and column keys.
pub const MAX_LABEL_LENGTH: usize = 200;
/// UTF-16 code units kept in a string `table` cell (`maxCellLength`).
pub const MAX_CELL_LENGTH: usize = 200;
/// Entries kept in a `hypergeometric` widget's `exactCounts` (`maxExactCounts`).
pub const MAX_EXACT_COUNTS: usize = 50;

/// The widget kinds a dashboard can draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WidgetKind {
    /// A single headline value in a stat tile.
    Stat,
    /// A bar chart, one bar per bucket.
    Histogram,
    /// A donut chart of segments.
    Donut,
    /// A semicircular meter of segments.
    Gauge,
    /// Horizontal bars, one per segment.
    Bars,
    /// Rows under column headers.
    Table,
    /// Hypergeometric draw odds.
    Hypergeometric,
    /// `numerator / denominator` as a stat tile.
    Ratio,
}

impl WidgetKind {
    /// Every kind, in the order the reference lists them.
    pub const ALL: [WidgetKind; 8] = [
        WidgetKind::Stat,
        WidgetKind::Histogram,
        WidgetKind::Donut,
        WidgetKind::Gauge,
        WidgetKind::Bars,
        WidgetKind::Table,
        WidgetKind::Hypergeometric,
        WidgetKind::Ratio,
    ];

    /// Returns the kind named by a widget's `kind` (exact, case-sensitive), if it is one.
    pub fn from_name(name: &str) -> Option<WidgetKind> {
        WidgetKind::ALL.into_iter().find(|kind| kind.name() == name)
    }

    /// Returns the kind's name as scripts write it (`"stat"`, `"hypergeometric"`, …).
    pub fn name(self) -> &'static str {
        match self {
            WidgetKind::Stat => "stat",
            WidgetKind::Histogram => "histogram",
            WidgetKind::Donut => "donut",
            WidgetKind::Gauge => "gauge",
            WidgetKind::Bars => "bars",
            WidgetKind::Table => "table",
            WidgetKind::Hypergeometric => "hypergeometric",
            WidgetKind::Ratio => "ratio",
        }
    }
}

/// The `format` values a `ratio` widget accepts.
pub const RATIO_FORMATS: [&str; 4] = ["number", "percent", "multiplier", "ratio"];

/// Normalizes what a calculator's `compute` returned into the dashboard to draw.
///
/// Anything other than an object with a `widgets` array is an empty dashboard. Widgets that
/// are not objects or have an unknown `kind` are dropped, the first [`MAX_WIDGETS`] of the
/// rest are kept, and each keeps only its kind's fields, repaired as [`normalize_widget`]
/// describes.
pub fn normalize(raw: Option<&Value>) -> Dashboard {
    let widgets = match raw {
        Some(Value::Object(result)) => match result.get("widgets") {
            Some(Value::Array(widgets)) => widgets
                .iter()
                .filter_map(normalize_widget)
                .take(MAX_WIDGETS)
                .collect(),
            _ => Vec::new(),
        },
        _ => Vec::new(),
    };
    Dashboard { widgets }
}

/// Normalizes one widget, or returns `None` when it is not an object or its `kind` is not one
/// of [`WidgetKind`]'s names.
///
/// - `label` is kept when it is a string, otherwise empty; `labelKey` (and `vocabulary` on
///   segment widgets), when present, become text like any text field.
/// - Number fields go through `Number()`, with `NaN`, infinities (and `-0`) becoming 0.
/// - Text fields keep strings, turn numbers and booleans into text as `String()` does, and turn
///   anything else (`null`, objects, arrays) into empty text.
/// - A `stat` `value` stays a number when it is one, otherwise it becomes text.
/// - A `table` cell stays a number when it is one, otherwise it becomes text; rows that are not
///   arrays are dropped. A list field that is not an array is empty.
/// - Segments that are not objects are dropped.
/// - `unit` (not a string), `exactCounts` and `columnKeys` (not arrays) and `format` (not one
///   of [`RATIO_FORMATS`]) are left out when they have the wrong type.
/// - Lists and strings are cut to the limits (the `MAX_*` constants), after dropping entries.
/// - `noData` is set when there is nothing to show: a `stat` whose value is empty text, a
///   `histogram`, `donut` or `gauge` with no positive value, a `table` with no columns or no
///   rows, a `hypergeometric` with a `population` of 0 or less, a `ratio` whose `denominator`
///   is 0.
pub fn normalize_widget(raw: &Value) -> Option<Widget> {
    let Value::Object(fields) = raw else {
        return None;
    };
    let kind = match fields.get("kind") {
        Some(Value::String(name)) => WidgetKind::from_name(name)?,
        _ => return None,
    };
    let label = match fields.get("label") {
        Some(Value::String(label)) => short(label.clone()),
        _ => String::new(),
    };
    let mut widget = Widget {
        kind: kind.name().to_owned(),
        label: Some(label),
        label_key: fields.get("labelKey").map(|key| short_text(Some(key))),
        ..Widget::default()
    };
    let no_data = match kind {
        WidgetKind::Stat => fill_stat(&mut widget, fields),
        WidgetKind::Histogram => fill_histogram(&mut widget, fields),
        WidgetKind::Donut | WidgetKind::Gauge => {
            fill_segments(&mut widget, fields);
            !widget
                .segments
                .iter()
                .any(|segment| segment.value.is_some_and(|value| value > 0.0))
        }
        WidgetKind::Bars => {
            // The spec names no "No data" case for bars: they draw whatever they have.
            fill_segments(&mut widget, fields);
            false
        }
        WidgetKind::Table => fill_table(&mut widget, fields),
        WidgetKind::Hypergeometric => fill_hypergeometric(&mut widget, fields),
        WidgetKind::Ratio => fill_ratio(&mut widget, fields),
    };
    if no_data {
        widget.no_data = Some(true);
    }
    Some(widget)
}

/// Fills a `stat`'s `value` and `unit`; returns whether it has no data.
fn fill_stat(widget: &mut Widget, fields: &Map<String, Value>) -> bool {
    let value = match fields.get("value") {
        Some(Value::Number(_)) => pbjson_types::Value::from(number(fields.get("value"))),
        other => pbjson_types::Value::from(short_text(other)),
    };
    let empty = matches!(
        &value.kind,
        Some(pbjson_types::value::Kind::StringValue(text)) if text.is_empty()
    );
    widget.value = Some(value);
    widget.unit = match fields.get("unit") {
        Some(Value::String(unit)) => Some(short(unit.clone())),
        _ => None,
    };
    empty
}

/// Fills a `histogram`'s `buckets` and `labels`; returns whether it has no data.
fn fill_histogram(widget: &mut Widget, fields: &Map<String, Value>) -> bool {
    widget.buckets = list(fields.get("buckets"))
        .iter()
        .take(MAX_HISTOGRAM_BUCKETS)
        .map(|bucket| number(Some(bucket)))
        .collect();
    widget.labels = list(fields.get("labels"))
        .iter()
        .take(MAX_HISTOGRAM_BUCKETS)
        .map(|label| short_text(Some(label)))
        .collect();
    !widget.buckets.iter().any(|bucket| *bucket > 0.0)
}

/// Fills the `vocabulary` and `segments` of a `donut`, `gauge` or `bars` widget.
fn fill_segments(widget: &mut Widget, fields: &Map<String, Value>) {
    widget.vocabulary = fields
        .get("vocabulary")
        .map(|vocabulary| short_text(Some(vocabulary)));
    widget.segments = list(fields.get("segments"))
        .iter()
        .filter_map(|segment| match segment {
            Value::Object(segment) => Some(Segment {
                key: Some(short_text(segment.get("key"))),
                label: Some(short_text(segment.get("label"))),
                value: Some(number(segment.get("value"))),
                color: Some(short_text(segment.get("color"))),
            }),
            _ => None,
        })
        .take(MAX_SEGMENTS)
        .collect();
}

/// Fills a `table`'s `columns`, `columnKeys` and `rows`; returns whether it has no data.
fn fill_table(widget: &mut Widget, fields: &Map<String, Value>) -> bool {
    widget.columns = list(fields.get("columns"))
        .iter()
        .take(MAX_TABLE_COLUMNS)
        .map(|column| short_text(Some(column)))
        .collect();
    if let Some(Value::Array(keys)) = fields.get("columnKeys") {
        widget.column_keys = keys
            .iter()
            .take(MAX_TABLE_COLUMNS)
            .map(|key| short_text(Some(key)))
            .collect();
    }
    widget.rows = list(fields.get("rows"))
        .iter()
        .filter_map(|row| match row {
            Value::Array(cells) => Some(pbjson_types::ListValue {
                values: cells.iter().take(MAX_TABLE_COLUMNS).map(cell).collect(),
            }),
            _ => None,
        })
        .take(MAX_TABLE_ROWS)
        .collect();
    widget.columns.is_empty() || widget.rows.is_empty()
}

/// Returns a table cell: a number stays a number, anything else becomes text.
fn cell(raw: &Value) -> pbjson_types::Value {
    match raw {
        Value::Number(_) => pbjson_types::Value::from(number(Some(raw))),
        _ => {
            let mut text = js::to_text(Some(raw));
            js::truncate_utf16(&mut text, MAX_CELL_LENGTH);
            pbjson_types::Value::from(text)
        }
    }
}

/// Fills a `hypergeometric` widget's numbers; returns whether it has no data.
fn fill_hypergeometric(widget: &mut Widget, fields: &Map<String, Value>) -> bool {
    let population = number(fields.get("population"));
    widget.population = Some(population);
    widget.success_count = Some(number(fields.get("successCount")));
    widget.draws = Some(number(fields.get("draws")));
    if let Some(Value::Array(counts)) = fields.get("exactCounts") {
        widget.exact_counts = counts
            .iter()
            .take(MAX_EXACT_COUNTS)
            .map(|count| number(Some(count)))
            .collect();
    }
    population <= 0.0
}

/// Fills a `ratio` widget's fraction and format; returns whether it has no data.
fn fill_ratio(widget: &mut Widget, fields: &Map<String, Value>) -> bool {
    let denominator = number(fields.get("denominator"));
    widget.numerator = Some(number(fields.get("numerator")));
    widget.denominator = Some(denominator);
    widget.format = match fields.get("format") {
        Some(Value::String(format)) if RATIO_FORMATS.contains(&format.as_str()) => {
            Some(format.clone())
        }
        _ => None,
    };
    denominator == 0.0
}

/// Returns a number field's value: `Number(value)` (`undefined` when absent, so `NaN`), with
/// `NaN` and the infinities as 0, and `-0` as 0 (JSON has no `-0`).
pub fn number(raw: Option<&Value>) -> f64 {
    let value = raw.map_or(f64::NAN, js::to_number);
    if value.is_finite() { value + 0.0 } else { 0.0 }
}

/// Returns a short text field's value: [`js::to_text`], cut to [`MAX_LABEL_LENGTH`].
fn short_text(raw: Option<&Value>) -> String {
    short(js::to_text(raw))
}

fn short(mut text: String) -> String {
    js::truncate_utf16(&mut text, MAX_LABEL_LENGTH);
    text
}

/// Returns the entries of a list field, or none when it is not an array.
fn list(raw: Option<&Value>) -> &[Value] {
    match raw {
        Some(Value::Array(entries)) => entries,
        _ => &[],
    }
}
