//! Line charts of threshold sweeps: data and layout (pure; drawn by
//! `draw::lines`).
//!
//! Owns: which number of a [`SweepReport`] a line chart shows ([`SweepMetric`]),
//! its words (title, axis titles, caption), and the geometry — legend on
//! top, the value axis (0–1) on the left, the threshold axis below, one
//! line per model with its own colour (Okabe–Ito, [`SERIES`]), marker
//! ([`MARKERS`]) and dash pattern ([`DASHES`]) so that the lines stay
//! apart in greyscale, and a dashed vertical line at the configured
//! threshold, labelled. [`Frame`] (a plot box with two value axes) and
//! [`line_legend`] are shared with the confidence charts.
//!
//! Depends on: `crate::eval::sweep` (its plain result types) and the
//! other chart steps' helpers. No plotters types, no I/O.

use super::data::Axis;
use super::style::{Metrics, Rgb, MUTED, SERIES};
use super::text::{fit, fixed, sanitize, width};
use crate::eval::sweep::{SweepParam, SweepPoint, SweepReport};

/// The number of a sweep point a chart shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SweepMetric {
    /// Micro F1: counts pooled over documents and fields, strict.
    MicroF1,
    /// Micro accuracy: (TP + TN) / N pooled.
    MicroAccuracy,
    /// F1 macro over documents (SPEC §3.2).
    MacroDocumentsF1,
    /// Item F1 (SPEC §3.4).
    ItemF1,
    /// Item-count accuracy (SPEC §3.4).
    ItemCountAccuracy,
}

impl SweepMetric {
    pub const ALL: [SweepMetric; 5] = [
        SweepMetric::MicroF1,
        SweepMetric::MicroAccuracy,
        SweepMetric::MacroDocumentsF1,
        SweepMetric::ItemF1,
        SweepMetric::ItemCountAccuracy,
    ];

    /// The snake_case name (file names, ids).
    pub fn name(self) -> &'static str {
        match self {
            SweepMetric::MicroF1 => "micro_f1",
            SweepMetric::MicroAccuracy => "micro_accuracy",
            SweepMetric::MacroDocumentsF1 => "macro_documents_f1",
            SweepMetric::ItemF1 => "item_f1",
            SweepMetric::ItemCountAccuracy => "item_count_accuracy",
        }
    }

    /// The value axis title.
    pub fn label(self) -> &'static str {
        match self {
            SweepMetric::MicroF1 => "Micro F1",
            SweepMetric::MicroAccuracy => "Micro accuracy",
            SweepMetric::MacroDocumentsF1 => "Macro-document F1",
            SweepMetric::ItemF1 => "Item F1",
            SweepMetric::ItemCountAccuracy => "Item-count accuracy",
        }
    }

    /// Exactly what the number is, for captions.
    fn definition(self) -> &'static str {
        match self {
            SweepMetric::MicroF1 => {
                "micro F1 (counts pooled over all documents and fields; strict: a partial match counts as wrong)"
            }
            SweepMetric::MicroAccuracy => {
                "micro accuracy ((TP + TN) / N with counts pooled over all documents and fields; strict)"
            }
            SweepMetric::MacroDocumentsF1 => {
                "F1 macro-averaged over documents (SPEC §3.2, combined as the configuration's macro_f1 says; strict)"
            }
            SweepMetric::ItemF1 => {
                "item F1 (recognised items over predicted and over true items, pooled; SPEC §3.4)"
            }
            SweepMetric::ItemCountAccuracy => {
                "item-count accuracy (share of documents whose true items are all recognised; SPEC §3.4)"
            }
        }
    }

    /// The value of a point; `None` when it has none (no item list).
    pub fn of(self, p: &SweepPoint) -> Option<f64> {
        match self {
            SweepMetric::MicroF1 => Some(p.micro_f1),
            SweepMetric::MicroAccuracy => Some(p.micro_accuracy),
            SweepMetric::MacroDocumentsF1 => Some(p.macro_documents_f1),
            SweepMetric::ItemF1 => p.item_f1,
            SweepMetric::ItemCountAccuracy => p.item_count_accuracy,
        }
    }
}

/// A point marker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Marker {
    Circle,
    Square,
    TriangleUp,
    Diamond,
    TriangleDown,
    Cross,
}

/// Markers in the order they are given out.
pub const MARKERS: [Marker; 6] = [
    Marker::Circle,
    Marker::Square,
    Marker::TriangleUp,
    Marker::Diamond,
    Marker::TriangleDown,
    Marker::Cross,
];

/// A line's dash pattern: `None` is solid, `Some((on, off))` in pixels.
pub type Dash = Option<(u32, u32)>;

/// Dash patterns in the order they are given out: solid, dashed, dotted,
/// long dashes.
pub const DASHES: [Dash; 4] = [None, Some((6, 3)), Some((2, 3)), Some((12, 4))];

/// Series `i`'s look: colour, marker and dash cycle with periods 8, 6 and
/// 4, so the first 24 models all differ.
pub fn look(i: usize) -> (Rgb, Marker, Dash) {
    (
        SERIES[i % SERIES.len()],
        MARKERS[i % MARKERS.len()],
        DASHES[i % DASHES.len()],
    )
}

/// One model's line in data units.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub label: String,
    /// (threshold, value), ascending threshold; points without a value
    /// are left out.
    pub points: Vec<(f64, f64)>,
}

/// A line chart.
#[derive(Clone, Debug, PartialEq)]
pub struct Lines {
    pub title: String,
    pub caption: String,
    pub series: Vec<Series>,
    pub x: Axis,
    pub y: Axis,
    /// The configured threshold, marked by a vertical line.
    pub marker_at: Option<f64>,
}

fn short_param(param: SweepParam) -> &'static str {
    match param {
        SweepParam::Similarity => "similarity threshold",
        SweepParam::Cer => "CER threshold",
        SweepParam::Item => "item F1 threshold",
    }
}

/// The chart data of `metric` over `sweep`.
pub fn sweep_lines(sweep: &SweepReport, metric: SweepMetric) -> Lines {
    let series = sweep
        .models
        .iter()
        .map(|m| Series {
            label: sanitize(&m.name),
            points: m
                .points
                .iter()
                .filter_map(|p| Some((p.value, metric.of(p)?)))
                .filter(|(x, y)| x.is_finite() && y.is_finite())
                .collect(),
        })
        .collect();
    let top = sweep
        .models
        .iter()
        .flat_map(|m| &m.points)
        .map(|p| p.value)
        .filter(|v| v.is_finite())
        .fold(sweep.configured, f64::max);
    let x_label = format!("{} t", capitalised(short_param(sweep.param)));
    let x = if top <= 1.0 {
        Axis::unit(&x_label)
    } else {
        Axis::up_to(&x_label, top, false)
    };
    let rule = match sweep.param {
        SweepParam::Similarity => "a string is exact when its similarity is at least t",
        SweepParam::Cer => "a string is exact when its CER is at most t",
        SweepParam::Item => {
            "an item is recognised when matched with item F1 at least t; field scores do not depend on t"
        }
    };
    // What `SweepParam::apply` sets besides the key.
    let method = match sweep.param {
        SweepParam::Similarity => "; string_match.method = similarity",
        SweepParam::Cer => "; string_match.method = cer",
        SweepParam::Item => "",
    };
    let documents = match sweep.documents {
        1 => "1 document".to_string(),
        n => format!("{n} documents"),
    };
    let caption = format!(
        "{} of each model on {documents} as {} = t varies ({rule}{method}; \
         every other key as configured). Dashed vertical line: the configured t = {}.",
        capitalised(metric.definition()),
        sweep.key,
        fixed_trim(sweep.configured),
    );
    Lines {
        title: format!("{} vs {}", metric.label(), short_param(sweep.param)),
        caption,
        series,
        x,
        y: Axis::unit(metric.label()),
        marker_at: sweep.configured.is_finite().then_some(sweep.configured),
    }
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// `v` as typed (shortest text that reads back), for captions.
fn fixed_trim(v: f64) -> String {
    format!("{v}")
}

/// A legend entry: a line sample with its marker starting at `x`,
/// centred on `y`, then the label.
#[derive(Clone, Debug, PartialEq)]
pub struct LegendLine {
    pub x: f64,
    pub y: f64,
    /// Length of the line sample.
    pub sample: f64,
    pub label: String,
    pub color: Rgb,
    pub marker: Marker,
    pub dash: Dash,
}

/// One line in pixels.
#[derive(Clone, Debug, PartialEq)]
pub struct LinePath {
    pub points: Vec<(f64, f64)>,
    pub color: Rgb,
    pub marker: Marker,
    pub dash: Dash,
}

/// Text placed at (x, y): `right` aligns its right end there, else its
/// left end; vertically centred.
#[derive(Clone, Debug, PartialEq)]
pub struct Text {
    pub x: f64,
    pub y: f64,
    pub text: String,
    pub right: bool,
}

/// The whole geometry.
#[derive(Clone, Debug, PartialEq)]
pub struct LinesLayout {
    pub width: u32,
    pub height: u32,
    pub legend: Vec<LegendLine>,
    /// Plot box.
    pub x0: f64,
    pub x1: f64,
    pub y0: f64,
    pub y1: f64,
    /// (pixel x, label) of the threshold ticks, drawn under `y1`.
    pub x_ticks: Vec<(f64, String)>,
    /// (pixel y, label) of the value ticks, drawn left of `x0`.
    pub y_ticks: Vec<(f64, String)>,
    /// The threshold axis title, centred under the plot, top at its y.
    pub x_title: Text,
    /// The value axis title, rotated, centred on its (x, y).
    pub y_title: Text,
    pub lines: Vec<LinePath>,
    pub marker_r: f64,
    /// The configured threshold's x and its label.
    pub threshold: Option<(f64, Text)>,
    /// "No models" and the like, inside the plot.
    pub notes: Vec<Text>,
    pub note_color: Rgb,
}

/// Legend entries with a line sample (colour, marker and dash of
/// [`look`]`(index)`) flowed in rows within the chart's width; returns
/// them and the height used.
pub fn line_legend(entries: &[(String, usize)], m: &Metrics) -> (Vec<LegendLine>, f64) {
    let w = f64::from(m.width);
    let pad = m.pad;
    let sample = (m.font * 2.2).round();
    let line_h = (m.font * 1.5).round();
    let gap = m.font * 1.2;
    let max_w = w - 2.0 * pad;
    let mut legend = Vec::new();
    let (mut x, mut row) = (pad, 0.0);
    for (label, index) in entries {
        let (color, marker, dash) = look(*index);
        let label = fit(label, max_w - sample - 4.0, m.font);
        let entry_w = sample + 4.0 + width(&label, m.font);
        if x > pad && x + entry_w > pad + max_w {
            x = pad;
            row += 1.0;
        }
        legend.push(LegendLine {
            x,
            y: pad + row * line_h + line_h / 2.0,
            sample,
            label,
            color,
            marker,
            dash,
        });
        x += entry_w + gap;
    }
    let legend_h = if legend.is_empty() {
        0.0
    } else {
        (row + 1.0) * line_h
    };
    (legend, legend_h)
}

/// A plot box with a value axis below (`x`) and one on the left (`y`):
/// its edges, ticks and axis titles, and the chart's height. Shared by
/// the line charts and the confidence charts.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    pub x0: f64,
    pub x1: f64,
    pub y0: f64,
    pub y1: f64,
    /// (pixel x, label) of the ticks below the plot.
    pub x_ticks: Vec<(f64, String)>,
    /// (pixel y, label) of the ticks left of the plot.
    pub y_ticks: Vec<(f64, String)>,
    /// The x axis title, centred under the plot, top at its y.
    pub x_title: Text,
    /// The y axis title, rotated, centred on its (x, y).
    pub y_title: Text,
    /// The chart's height: the x title and the padding below the plot.
    pub height: u32,
    x: Axis,
    y: Axis,
}

impl Frame {
    /// The plot box whose top is `y0`: room on the left for the rotated
    /// `y` title and its tick labels, half of the last `x` tick label on
    /// the right; `plot_h` gives the plot's height from its width.
    pub fn new(x: &Axis, y: &Axis, y0: f64, plot_h: impl FnOnce(f64) -> f64, m: &Metrics) -> Frame {
        let w = f64::from(m.width);
        let pad = m.pad;
        let tick_w = y
            .ticks
            .iter()
            .map(|&t| width(&fixed(t, y.tick_decimals), m.small))
            .fold(0.0, f64::max);
        let x0 = pad + m.font * 1.4 + tick_w + 6.0;
        let last_x_tick = x
            .ticks
            .last()
            .map(|&t| width(&fixed(t, x.tick_decimals), m.small))
            .unwrap_or(0.0);
        let x1 = w - pad - (last_x_tick / 2.0).max(4.0);
        let y1 = y0 + plot_h(x1 - x0);
        let x_title_y = y1 + 5.0 + m.small * 1.3;
        let height = (x_title_y + m.font * 1.25 + pad).ceil();
        let mut frame = Frame {
            x0,
            x1,
            y0,
            y1,
            x_ticks: Vec::new(),
            y_ticks: Vec::new(),
            x_title: Text {
                x: (x0 + x1) / 2.0,
                y: x_title_y,
                text: fit(&x.label, x1 - x0 + 2.0 * pad, m.font),
                right: false,
            },
            y_title: Text {
                x: pad + m.font * 0.6,
                y: (y0 + y1) / 2.0,
                text: fit(&y.label, y1 - y0, m.font),
                right: false,
            },
            height: height as u32,
            x: x.clone(),
            y: y.clone(),
        };
        frame.x_ticks = x
            .ticks
            .iter()
            .map(|&t| (frame.px(t), fixed(t, x.tick_decimals)))
            .collect();
        frame.y_ticks = y
            .ticks
            .iter()
            .map(|&t| (frame.py(t), fixed(t, y.tick_decimals)))
            .collect();
        frame
    }

    /// The pixel x of `v` on the x axis (clamped to the plot).
    pub fn px(&self, v: f64) -> f64 {
        self.x0 + self.x.fraction(v) * (self.x1 - self.x0)
    }

    /// The pixel y of `v` on the y axis (clamped to the plot).
    pub fn py(&self, v: f64) -> f64 {
        self.y1 - self.y.fraction(v) * (self.y1 - self.y0)
    }
}

/// Lays out `lines` at the width of `m`.
pub fn layout(lines: &Lines, m: &Metrics) -> LinesLayout {
    let w = f64::from(m.width);
    let pad = m.pad;

    let entries: Vec<(String, usize)> = lines
        .series
        .iter()
        .enumerate()
        .map(|(i, s)| (s.label.clone(), i))
        .collect();
    let (legend, legend_h) = line_legend(&entries, m);

    // Plot box: room for the threshold label above, the rotated value
    // title and tick labels on the left, half a tick label on the right.
    let y0 = pad + legend_h + m.small * 1.6;
    let frame = Frame::new(
        &lines.x,
        &lines.y,
        y0,
        |_| (w * 0.42).clamp(150.0, 300.0).round(),
        m,
    );
    let (x0, y1) = (frame.x0, frame.y1);
    let paths = lines
        .series
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let (color, marker, dash) = look(i);
            LinePath {
                points: s
                    .points
                    .iter()
                    .map(|&(x, y)| (frame.px(x), frame.py(y)))
                    .collect(),
                color,
                marker,
                dash,
            }
        })
        .collect();
    let threshold = lines
        .marker_at
        .filter(|&t| t >= lines.x.min && t <= lines.x.max)
        .map(|t| {
            let x = frame.px(t);
            let text = format!("configured t = {}", fixed_trim(t));
            let right = x + 3.0 + width(&text, m.small) > w - pad;
            let label = Text {
                x: if right { x - 3.0 } else { x + 3.0 },
                y: y0 - m.small * 0.8,
                text,
                right,
            };
            (x, label)
        });
    let mut notes = Vec::new();
    if lines.series.is_empty() {
        notes.push(Text {
            x: x0 + 6.0,
            y: (y0 + y1) / 2.0,
            text: "No models".to_string(),
            right: false,
        });
    } else if lines.series.iter().all(|s| s.points.is_empty()) {
        notes.push(Text {
            x: x0 + 6.0,
            y: (y0 + y1) / 2.0,
            text: "No values (no model has line items)".to_string(),
            right: false,
        });
    }
    let Frame {
        x0,
        x1,
        y0,
        y1,
        x_ticks,
        y_ticks,
        x_title,
        y_title,
        height,
        ..
    } = frame;
    LinesLayout {
        width: m.width,
        height,
        legend,
        x0,
        x1,
        y0,
        y1,
        x_ticks,
        y_ticks,
        x_title,
        y_title,
        lines: paths,
        marker_r: (m.small * 0.3).max(2.5),
        threshold,
        notes,
        note_color: MUTED,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::ChartOptions;

    fn lines(series: Vec<Series>) -> Lines {
        Lines {
            title: "t".into(),
            caption: "c".into(),
            series,
            x: Axis::unit("x"),
            y: Axis::unit("y"),
            marker_at: Some(0.85),
        }
    }

    #[test]
    fn points_map_onto_the_plot_box() {
        let m = Metrics::new(&ChartOptions::default());
        let l = layout(
            &lines(vec![Series {
                label: "a".into(),
                points: vec![(0.0, 0.0), (0.5, 1.0), (1.0, 0.25)],
            }]),
            &m,
        );
        let p = &l.lines[0].points;
        assert_eq!(p[0], (l.x0, l.y1));
        assert!((p[1].0 - (l.x0 + l.x1) / 2.0).abs() < 1e-9);
        assert!((p[1].1 - l.y0).abs() < 1e-9);
        assert!((p[2].1 - (l.y1 - 0.25 * (l.y1 - l.y0))).abs() < 1e-9);
        let (x, _) = l.threshold.as_ref().unwrap();
        assert!((x - (l.x0 + 0.85 * (l.x1 - l.x0))).abs() < 1e-9);
        assert!(l.x1 < f64::from(l.width) && l.y1 < f64::from(l.height));
    }

    #[test]
    fn every_series_looks_different_up_to_24() {
        let looks: Vec<_> = (0..24).map(look).collect();
        for (i, a) in looks.iter().enumerate() {
            for b in &looks[..i] {
                assert_ne!(a, b);
            }
        }
        // Neighbours differ in marker and dash, not only in colour.
        for i in 0..23 {
            assert_ne!(look(i).1, look(i + 1).1);
            assert_ne!(look(i).2, look(i + 1).2);
        }
    }

    #[test]
    fn no_models_gets_a_note() {
        let m = Metrics::new(&ChartOptions::default());
        let l = layout(&lines(vec![]), &m);
        assert_eq!(l.notes[0].text, "No models");
        assert!(l.legend.is_empty());
    }
}
