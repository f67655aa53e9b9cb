//! A calculator's dashboard drawn as HTML with SVG we draw ourselves: one `figure` per widget,
//! titled by its label. Every kind but `table` draws one `svg` (the stat and ratio tiles their
//! value, the hypergeometric widget its P(X ≥ 1) meter); `table` is an HTML table, and the
//! hypergeometric widget's exact counts a small one under its meter. A widget the service marked
//! `no_data` draws the "No data" placeholder (also an `svg`). Everything a script wrote (labels,
//! cells, units, colors) is data: text is escaped by the templates, and a color that is not a
//! plain CSS color is replaced by the palette's.

use maud::{Markup, html};
use pbjson_types::value::Kind;
use proto::scripts::v1::{Segment, Widget};

/// The colors a segment without its own gets, in order (readable on white, told apart without
/// relying on hue alone by their order in the legend).
const PALETTE: [&str; 8] = [
    "#0b5cad", "#d4622b", "#1a7f37", "#8250df", "#bf3989", "#0a7d8c", "#9a6700", "#57606a",
];

/// The largest population the draw odds are computed for: past it a widget says so instead.
const MAX_POPULATION: f64 = 100_000.0;

/// The whole dashboard: the widgets in order.
pub fn dashboard(widgets: &[Widget]) -> Markup {
    html! {
        div class="dashboard" {
            @if widgets.is_empty() {
                p class="help" { "This calculator shows nothing for this deck." }
            }
            @for widget in widgets { (figure(widget)) }
        }
    }
}

fn figure(widget: &Widget) -> Markup {
    let label = widget.label.as_deref().unwrap_or_default();
    html! {
        figure class="widget" data-kind=(widget.kind) {
            figcaption { (label) }
            @if widget.no_data == Some(true) {
                (no_data())
            } @else {
                @match widget.kind.as_str() {
                    "stat" => (tile(label, &stat_text(widget))),
                    "ratio" => (tile(label, &ratio_text(widget))),
                    "histogram" => (histogram(widget)),
                    "donut" => (donut(label, &widget.segments)),
                    "gauge" => (gauge(label, &widget.segments)),
                    "bars" => (bars(label, &widget.segments)),
                    "table" => (table(widget)),
                    "hypergeometric" => (hypergeometric(label, widget)),
                    _ => (no_data()),
                }
            }
        }
    }
}

fn no_data() -> Markup {
    html! {
        svg class="chart no-data" viewBox="0 0 200 60" role="img" aria-label="No data" {
            text x="100" y="36" text-anchor="middle" { "No data" }
        }
    }
}

/// A number as the dashboard writes it: whole numbers plain, others to two decimals at most.
pub fn number(value: f64) -> String {
    if !value.is_finite() {
        return "0".to_owned();
    }
    if value.fract() == 0.0 && value.abs() < 1e15 {
        return format!("{value:.0}");
    }
    let text = format!("{value:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

fn stat_text(widget: &Widget) -> String {
    let value = match widget.value.as_ref().and_then(|value| value.kind.as_ref()) {
        Some(Kind::NumberValue(number_value)) => number(*number_value),
        Some(Kind::StringValue(text)) => text.clone(),
        Some(Kind::BoolValue(flag)) => flag.to_string(),
        _ => String::new(),
    };
    match widget.unit.as_deref() {
        Some(unit) if !unit.is_empty() => format!("{value} {unit}"),
        _ => value,
    }
}

/// A ratio in its format: `number` 1.83, `percent` 65.0%, `multiplier` 1.83×, `ratio` 11:6.
pub fn ratio_text(widget: &Widget) -> String {
    let top = widget.numerator.unwrap_or_default();
    let bottom = widget.denominator.unwrap_or_default();
    if bottom == 0.0 || !top.is_finite() || !bottom.is_finite() {
        return "No data".to_owned();
    }
    let quotient = top / bottom;
    match widget.format.as_deref() {
        Some("percent") => format!("{:.1}%", quotient * 100.0),
        Some("multiplier") => format!("{quotient:.2}×"),
        Some("ratio") => lowest_terms(top, bottom),
        _ => format!("{quotient:.2}"),
    }
}

fn lowest_terms(top: f64, bottom: f64) -> String {
    let whole = |value: f64| value.fract() == 0.0 && value.abs() < 1e15;
    if whole(top) && whole(bottom) {
        // Both whole and below 1e15, so they fit an i64 exactly.
        #[allow(clippy::cast_possible_truncation)]
        let (mut a, mut b) = (top.abs() as i64, bottom.abs() as i64);
        let sign = if (top < 0.0) != (bottom < 0.0) && top != 0.0 {
            "-"
        } else {
            ""
        };
        let (n, d) = (a, b);
        while b != 0 {
            (a, b) = (b, a % b);
        }
        let divisor = a.max(1);
        format!("{sign}{}:{}", n / divisor, d / divisor)
    } else {
        format!("{}:1", number(top / bottom))
    }
}

fn tile(label: &str, value: &str) -> Markup {
    html! {
        svg class="chart tile" viewBox="0 0 200 60" role="img" aria-label={ (label) ": " (value) } {
            text x="100" y="42" text-anchor="middle" class="value" textLength=[(value.chars().count() > 12).then_some("190")] lengthAdjust="spacingAndGlyphs" { (value) }
        }
    }
}

fn histogram(widget: &Widget) -> Markup {
    let buckets = &widget.buckets;
    let highest = buckets.iter().copied().fold(0.0_f64, f64::max);
    let slot = 28.0;
    let width = (buckets.len().max(1) as f64) * slot;
    let (top, floor) = (14.0, 110.0);
    let summary = buckets
        .iter()
        .enumerate()
        .map(|(at, value)| {
            let name = widget.labels.get(at).map_or("", String::as_str);
            format!("{name}: {}", number(*value))
        })
        .collect::<Vec<_>>()
        .join(", ");
    html! {
        svg class="chart histogram" viewBox={ "0 0 " (width) " 128" } role="img" aria-label=(summary) preserveAspectRatio="xMidYMid meet" {
            line x1="0" x2=(width) y1=(floor) y2=(floor) class="axis" {}
            @for (at, value) in buckets.iter().enumerate() {
                @let height = if highest > 0.0 { (value.max(0.0) / highest) * (floor - top) } else { 0.0 };
                @let x = at as f64 * slot;
                @let name = widget.labels.get(at).map_or("", String::as_str);
                g {
                    title { (name) ": " (number(*value)) }
                    rect x=(x + 4.0) y=(floor - height) width=(slot - 8.0) height=(height) fill=(PALETTE[0]) {}
                    text x=(x + slot / 2.0) y=(floor - height - 3.0) text-anchor="middle" class="count" { (number(*value)) }
                    text x=(x + slot / 2.0) y="124" text-anchor="middle" class="axis-label" { (name) }
                }
            }
        }
    }
}

/// A segment's color: its own when it is a plain CSS color (`#hex`, a name, `rgb(…)`/`hsl(…)`
/// of numbers), else the palette's `at`th.
pub fn color(segment: &Segment, at: usize) -> String {
    let own = segment.color.as_deref().unwrap_or_default().trim();
    let hex = own.len() <= 9
        && own.starts_with('#')
        && own.len() > 1
        && own[1..].chars().all(|c| c.is_ascii_hexdigit());
    let name = !own.is_empty() && own.len() <= 30 && own.chars().all(|c| c.is_ascii_alphabetic());
    let function = ["rgb(", "rgba(", "hsl(", "hsla("]
        .iter()
        .any(|prefix| own.starts_with(prefix))
        && own.ends_with(')')
        && own.len() <= 60
        && own[own.find('(').unwrap_or(0) + 1..own.len() - 1]
            .chars()
            .all(|c| c.is_ascii_digit() || " .,%/".contains(c) || c == 'd' || c == 'e' || c == 'g');
    if hex || name || function {
        own.to_owned()
    } else {
        PALETTE[at % PALETTE.len()].to_owned()
    }
}

/// The segments with a positive value, each with its color, its share of the total and where
/// it starts (the shares before it), both out of 100.
fn shares(segments: &[Segment]) -> Vec<(&Segment, String, f64, f64)> {
    let total: f64 = segments
        .iter()
        .map(|segment| segment.value.unwrap_or_default().max(0.0))
        .sum();
    let mut start = 0.0;
    segments
        .iter()
        .enumerate()
        .filter(|(_, segment)| segment.value.unwrap_or_default() > 0.0)
        .map(|(at, segment)| {
            let share = if total > 0.0 {
                segment.value.unwrap_or_default() / total * 100.0
            } else {
                0.0
            };
            start += share;
            (segment, color(segment, at), share, start - share)
        })
        .collect()
}

fn legend(drawn: &[(&Segment, String, f64, f64)]) -> Markup {
    html! {
        ul class="legend" {
            @for (segment, fill, share, _) in drawn {
                li {
                    svg class="swatch" viewBox="0 0 10 10" aria-hidden="true" { rect width="10" height="10" fill=(fill) {} }
                    (segment.label.as_deref().unwrap_or_default()) " "
                    span class="figure" { (number(segment.value.unwrap_or_default())) " · " (format!("{share:.0}%")) }
                }
            }
        }
    }
}

fn summary(label: &str, drawn: &[(&Segment, String, f64, f64)]) -> String {
    let parts = drawn
        .iter()
        .map(|(segment, _, _, _)| {
            format!(
                "{} {}",
                segment.label.as_deref().unwrap_or_default(),
                number(segment.value.unwrap_or_default())
            )
        })
        .collect::<Vec<_>>()
        .join(", ");
    format!("{label}: {parts}")
}

/// A ring: each slice a dash of one circle's stroke (its length the slice's share).
fn donut(label: &str, segments: &[Segment]) -> Markup {
    let drawn = shares(segments);
    html! {
        div class="chart-with-legend" {
            svg class="chart donut" viewBox="0 0 120 120" role="img" aria-label=(summary(label, &drawn)) {
                circle cx="60" cy="60" r="44" fill="none" stroke="#eaeef2" stroke-width="20" {}
                @for (segment, fill, share, start) in &drawn {
                    circle cx="60" cy="60" r="44" fill="none" stroke=(fill) stroke-width="20" pathLength="100"
                        stroke-dasharray={ (share) " " (100.0 - share) } stroke-dashoffset=(25.0 - start) {
                        title { (segment.label.as_deref().unwrap_or_default()) ": " (number(segment.value.unwrap_or_default())) }
                    }
                }
            }
            (legend(&drawn))
        }
    }
}

/// A half circle filled left to right, each arc its segment's share.
fn gauge(label: &str, segments: &[Segment]) -> Markup {
    let drawn = shares(segments);
    let arc = "M 14 70 A 56 56 0 0 1 126 70";
    html! {
        div class="chart-with-legend" {
            svg class="chart gauge" viewBox="0 0 140 80" role="img" aria-label=(summary(label, &drawn)) {
                path d=(arc) fill="none" stroke="#eaeef2" stroke-width="18" {}
                @for (segment, fill, share, start) in &drawn {
                    path d=(arc) fill="none" stroke=(fill) stroke-width="18" pathLength="100"
                        stroke-dasharray={ "0 " (start) " " (share) " 100" } {
                        title { (segment.label.as_deref().unwrap_or_default()) ": " (number(segment.value.unwrap_or_default())) }
                    }
                }
            }
            (legend(&drawn))
        }
    }
}

/// One horizontal bar per segment, in order, the longest the widest.
fn bars(label: &str, segments: &[Segment]) -> Markup {
    let highest = segments
        .iter()
        .map(|segment| segment.value.unwrap_or_default())
        .fold(0.0_f64, f64::max);
    let row = 30.0;
    let height = (segments.len().max(1) as f64) * row;
    let parts = segments
        .iter()
        .map(|segment| {
            format!(
                "{} {}",
                segment.label.as_deref().unwrap_or_default(),
                number(segment.value.unwrap_or_default())
            )
        })
        .collect::<Vec<_>>()
        .join(", ");
    html! {
        svg class="chart bars" viewBox={ "0 0 300 " (height) } role="img" aria-label={ (label) ": " (parts) } {
            @for (at, segment) in segments.iter().enumerate() {
                @let value = segment.value.unwrap_or_default();
                @let width = if highest > 0.0 { value.max(0.0) / highest * 250.0 } else { 0.0 };
                @let y = at as f64 * row;
                g {
                    title { (segment.label.as_deref().unwrap_or_default()) ": " (number(value)) }
                    text x="0" y=(y + 11.0) class="axis-label" { (segment.label.as_deref().unwrap_or_default()) }
                    rect x="0" y=(y + 14.0) width=(width) height="12" rx="2" fill=(color(segment, at)) {}
                    text x=(width + 4.0) y=(y + 25.0) class="count" { (number(value)) }
                }
            }
        }
    }
}

fn cell(value: &pbjson_types::Value) -> String {
    match &value.kind {
        Some(Kind::NumberValue(number_value)) => number(*number_value),
        Some(Kind::StringValue(text)) => text.clone(),
        Some(Kind::BoolValue(flag)) => flag.to_string(),
        _ => String::new(),
    }
}

fn table(widget: &Widget) -> Markup {
    html! {
        div class="table-scroll" {
            table {
                thead { tr { @for column in &widget.columns { th scope="col" { (column) } } } }
                tbody {
                    @for row in &widget.rows {
                        tr { @for value in &row.values { td { (cell(value)) } } }
                    }
                }
            }
        }
    }
}

/// ln C(n, k), summed over the shorter side.
fn ln_choose(n: f64, k: f64) -> f64 {
    if k < 0.0 || k > n {
        return f64::NEG_INFINITY;
    }
    let k = k.min(n - k);
    let mut total = 0.0;
    let mut i = 1.0;
    while i <= k {
        total += ((n - k + i) / i).ln();
        i += 1.0;
    }
    total
}

/// P(X = k) drawing `draws` of `population` cards, `successes` of them hits, without
/// replacement.
pub fn exactly(population: f64, successes: f64, draws: f64, k: f64) -> f64 {
    let ways = ln_choose(successes, k) + ln_choose(population - successes, draws - k)
        - ln_choose(population, draws);
    if ways.is_finite() { ways.exp() } else { 0.0 }
}

/// The draw odds' inputs, made whole and kept in range: `None` past [`MAX_POPULATION`].
fn draw_inputs(widget: &Widget) -> Option<(f64, f64, f64)> {
    let population = widget.population.unwrap_or_default().floor();
    if population > MAX_POPULATION {
        return None;
    }
    let successes = widget
        .success_count
        .unwrap_or_default()
        .floor()
        .clamp(0.0, population);
    let draws = widget
        .draws
        .unwrap_or_default()
        .floor()
        .clamp(0.0, population);
    Some((population, successes, draws))
}

fn percent(probability: f64) -> String {
    format!("{:.1}%", probability.clamp(0.0, 1.0) * 100.0)
}

fn hypergeometric(label: &str, widget: &Widget) -> Markup {
    let Some((population, successes, draws)) = draw_inputs(widget) else {
        return html! { p class="help" { "The deck is too large to work out these odds." } };
    };
    let at_least_one = 1.0 - exactly(population, successes, draws, 0.0);
    let width = at_least_one.clamp(0.0, 1.0) * 200.0;
    html! {
        svg class="chart odds" viewBox="0 0 200 64" role="img"
            aria-label={ (label) ": P(X ≥ 1) " (percent(at_least_one)) } {
            text x="100" y="28" text-anchor="middle" class="value" { (percent(at_least_one)) }
            rect x="0" y="40" width="200" height="14" rx="3" fill="#eaeef2" {}
            rect x="0" y="40" width=(width) height="14" rx="3" fill=(PALETTE[0]) {}
        }
        p class="help" {
            "P(X ≥ 1) drawing " (number(draws)) " of " (number(population)) " cards, " (number(successes)) " of them hits."
        }
        @if !widget.exact_counts.is_empty() {
            table class="exact" {
                thead { tr { th scope="col" { "Exactly" } th scope="col" { "Chance" } } }
                tbody {
                    @for k in &widget.exact_counts {
                        tr { td { "P(X = " (number(k.floor())) ")" } td { (percent(exactly(population, successes, draws, k.floor()))) } }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn widget(kind: &str) -> Widget {
        Widget {
            kind: kind.to_owned(),
            label: Some("Label".to_owned()),
            ..Widget::default()
        }
    }

    #[test]
    fn ratios_follow_the_references_formats() {
        let ratio = |top: f64, bottom: f64, format: Option<&str>| {
            ratio_text(&Widget {
                numerator: Some(top),
                denominator: Some(bottom),
                format: format.map(str::to_owned),
                ..widget("ratio")
            })
        };
        assert_eq!(ratio(11.0, 6.0, None), "1.83");
        assert_eq!(ratio(11.0, 6.0, Some("number")), "1.83");
        assert_eq!(ratio(13.0, 20.0, Some("percent")), "65.0%");
        assert_eq!(ratio(11.0, 6.0, Some("multiplier")), "1.83×");
        assert_eq!(ratio(22.0, 12.0, Some("ratio")), "11:6");
        assert_eq!(ratio(0.0, 5.0, Some("ratio")), "0:1");
        assert_eq!(ratio(3.0, 0.0, Some("ratio")), "No data");
    }

    #[test]
    fn numbers_drop_needless_decimals() {
        assert_eq!(number(3.0), "3");
        assert_eq!(number(3.456), "3.46");
        assert_eq!(number(2.5), "2.5");
        assert_eq!(number(f64::NAN), "0");
    }

    #[test]
    fn draw_odds_match_the_closed_form() {
        // 4 copies in 60 cards, 7 drawn: 1 - C(56,7)/C(60,7) = 0.39949…
        let none = exactly(60.0, 4.0, 7.0, 0.0);
        assert!((1.0 - none - 0.399_494).abs() < 1e-5, "{}", 1.0 - none);
        let total: f64 = (0..=4).map(|k| exactly(60.0, 4.0, 7.0, f64::from(k))).sum();
        assert!((total - 1.0).abs() < 1e-9);
        assert_eq!(exactly(60.0, 4.0, 7.0, 5.0), 0.0);
        assert_eq!(exactly(0.0, 0.0, 0.0, 0.0), 1.0);
    }

    #[test]
    fn a_color_that_is_not_a_plain_css_color_takes_the_palettes() {
        let segment = |color: &str| Segment {
            color: Some(color.to_owned()),
            ..Segment::default()
        };
        assert_eq!(color(&segment("#3a78e8"), 0), "#3a78e8");
        assert_eq!(color(&segment("rebeccapurple"), 0), "rebeccapurple");
        assert_eq!(color(&segment("rgb(1, 2, 3)"), 0), "rgb(1, 2, 3)");
        assert_eq!(color(&segment(""), 1), PALETTE[1]);
        assert_eq!(color(&segment("url(https://x/#a)"), 0), PALETTE[0]);
        assert_eq!(color(&segment("red;background:url(x)"), 2), PALETTE[2]);
        assert_eq!(color(&segment("\" onload=\"x"), 0), PALETTE[0]);
    }

    #[test]
    fn every_widget_but_the_table_draws_one_svg_and_labels_stay_text() {
        let mut kinds = [
            "stat",
            "ratio",
            "histogram",
            "donut",
            "gauge",
            "bars",
            "hypergeometric",
        ]
        .map(widget)
        .to_vec();
        for widget in &mut kinds {
            widget.label = Some("<img src=x onerror=alert(1)>".to_owned());
            widget.buckets = vec![1.0, 3.0];
            widget.labels = vec!["1".into(), "2".into()];
            widget.segments = vec![Segment {
                label: Some("<b>a</b>".into()),
                value: Some(2.0),
                ..Segment::default()
            }];
            widget.population = Some(40.0);
            widget.success_count = Some(4.0);
            widget.draws = Some(7.0);
            widget.denominator = Some(2.0);
        }
        for each in &kinds {
            let html = figure(each).into_string();
            assert_eq!(html.matches("<svg class=\"chart").count(), 1, "{html}");
            assert!(!html.contains("<img"), "{html}");
            assert!(!html.contains("<b>"), "{html}");
        }
        let empty = Widget {
            no_data: Some(true),
            ..widget("table")
        };
        assert!(figure(&empty).into_string().contains("No data"));
    }
}
