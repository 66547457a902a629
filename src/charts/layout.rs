//! The geometry step: chart data becomes pixel positions — where each bar,
//! label, cell and legend entry goes, and how tall the chart is. Pure: no
//! plotters types, so the arithmetic is tested without drawing.
//!
//! Owns: every size and position, and the shortening of labels to the room
//! they get ([`text::fit`]). Everything is laid out in one column: legend on
//! top, then the plot with its labels on the left and its printed values on
//! the right, then the value axis (or the colour scale) below.

use super::data::{Axis, Bars, Heatmap, Stacked, Strips};
use super::style::{Metrics, Rgb, OUTCOMES, SERIES};
use super::text::{self, fit, fixed, width};
use std::collections::HashSet;

/// How a legend entry is marked.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Mark {
    /// A filled square with a thin outline.
    Box(Rgb),
    /// A filled circle.
    Dot(Rgb),
    /// A filled diamond.
    Diamond(Rgb),
    /// A short dashed line.
    Dash(Rgb),
}

/// One legend entry: the mark's left edge at `x`, centred on `y`.
#[derive(Clone, Debug, PartialEq)]
pub struct LegendEntry {
    pub x: f64,
    pub y: f64,
    pub mark: Mark,
    pub label: String,
}

/// Entries flowed into rows that fit `max_w`; returns them and the height
/// used.
pub fn legend(
    entries: &[(String, Mark)],
    x0: f64,
    y0: f64,
    max_w: f64,
    m: &Metrics,
) -> (Vec<LegendEntry>, f64) {
    let line = (m.font * 1.5).round();
    let mark_w = m.font;
    let gap = m.font * 1.2;
    let mut out = Vec::new();
    let (mut x, mut row) = (x0, 0.0);
    for (label, mark) in entries {
        let label = fit(label, max_w - mark_w - 4.0, m.font);
        let w = mark_w + 4.0 + width(&label, m.font);
        if x > x0 && x + w > x0 + max_w {
            x = x0;
            row += 1.0;
        }
        out.push(LegendEntry {
            x,
            y: y0 + row * line + line / 2.0,
            mark: *mark,
            label,
        });
        x += w + gap;
    }
    let height = if out.is_empty() {
        0.0
    } else {
        (row + 1.0) * line
    };
    (out, height)
}

/// A horizontal value axis under a plot.
#[derive(Clone, Debug, PartialEq)]
pub struct XAxis {
    /// Plot left and right edge (pixels of `axis.min` and `axis.max`).
    pub x0: f64,
    pub x1: f64,
    /// Plot top and bottom edge; ticks hang below `y1`.
    pub y0: f64,
    pub y1: f64,
    /// (pixel x, label) per tick.
    pub ticks: Vec<(f64, String)>,
    /// The axis title, centred under the plot, top at `title_y`.
    pub title: String,
    pub title_y: f64,
}

impl XAxis {
    fn new(axis: &Axis, x0: f64, x1: f64, y0: f64, y1: f64, m: &Metrics) -> XAxis {
        let ticks = axis
            .ticks
            .iter()
            .map(|&t| {
                (
                    x0 + axis.fraction(t) * (x1 - x0),
                    fixed(t, axis.tick_decimals),
                )
            })
            .collect();
        XAxis {
            x0,
            x1,
            y0,
            y1,
            ticks,
            title: fit(&axis.label, x1 - x0 + 2.0 * m.pad, m.font),
            title_y: y1 + 5.0 + m.small * 1.3,
        }
    }

    /// The bottom of the axis title.
    fn bottom(&self, m: &Metrics) -> f64 {
        self.title_y + m.font * 1.25
    }
}

/// A label drawn right-aligned at `x`, vertically centred on `y`.
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    pub x: f64,
    pub y: f64,
    pub text: String,
}

/// One filled rectangle with an optional printed value.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
    pub color: Rgb,
    /// Printed left-aligned just after the bar's end.
    pub value: String,
    /// An error bar from `x` to `x` across the bar's middle, if any.
    pub whisker: Option<(f64, f64)>,
}

/// Grouped horizontal bars.
#[derive(Clone, Debug, PartialEq)]
pub struct BarsLayout {
    pub width: u32,
    pub height: u32,
    pub legend: Vec<LegendEntry>,
    pub axis: XAxis,
    pub labels: Vec<Label>,
    pub bars: Vec<Bar>,
    /// Notes ("no line items", "no models") left-aligned in the plot.
    pub notes: Vec<Label>,
}

/// The widest label allowed on the left: a third of the chart.
fn label_room(m: &Metrics, labels: &[&str]) -> f64 {
    let widest = labels.iter().map(|l| width(l, m.font)).fold(0.0, f64::max);
    widest.min(f64::from(m.width) * 0.32).max(m.font * 2.0)
}

const NO_MODELS: &str = "No models in the report";

/// The text printed after a bar.
fn bar_value(data: &Bars, v: f64) -> String {
    if data.counts && v.fract() == 0.0 {
        fixed(v, 0)
    } else {
        fixed(v, data.value_decimals)
    }
}

pub fn bars(data: &Bars, m: &Metrics) -> BarsLayout {
    let w = f64::from(m.width);
    let entries: Vec<(String, Mark)> = data
        .series
        .iter()
        .enumerate()
        .map(|(i, s)| (s.clone(), Mark::Box(SERIES[i % SERIES.len()])))
        .collect();
    let (legend, legend_h) = legend(&entries, m.pad, m.pad, w - 2.0 * m.pad, m);
    let names: Vec<&str> = data.groups.iter().map(|g| g.label.as_str()).collect();
    let label_w = label_room(m, &names);
    let value_w = data
        .groups
        .iter()
        .flat_map(|g| g.values.iter())
        .map(|v| width(&fixed(*v, data.value_decimals), m.small))
        .fold(
            width(&fixed(data.axis.max, data.value_decimals), m.small),
            f64::max,
        )
        + 4.0;
    let x0 = m.pad + label_w + 6.0;
    let x1 = (w - m.pad - value_w).max(x0 + 10.0);
    let top = m.pad + legend_h + m.font * 0.4;
    let n = data.series.len().max(1) as f64;
    let t = (m.small * 1.2).round();
    let group_h = n * t;
    let gap = (t * 0.9).round();
    let mut y = top + gap / 2.0;
    let (mut labels, mut bars, mut notes) = (Vec::new(), Vec::new(), Vec::new());
    for (group, g) in data.groups.iter().enumerate() {
        labels.push(Label {
            x: x0 - 6.0,
            y: y + group_h / 2.0,
            text: fit(&g.label, label_w, m.font),
        });
        if let Some(note) = &g.note {
            notes.push(Label {
                x: x0 + 4.0,
                y: y + group_h / 2.0,
                text: fit(note, x1 - x0 - 8.0, m.small),
            });
        }
        let intervals = data.intervals.get(group);
        for (i, v) in g.values.iter().enumerate() {
            let by = y + i as f64 * t;
            let at = |x: f64| x0 + data.axis.fraction(x) * (x1 - x0);
            bars.push(Bar {
                x0,
                y0: by,
                x1: at(*v),
                y1: by + t - 1.0,
                color: SERIES[i % SERIES.len()],
                value: bar_value(data, *v),
                whisker: intervals
                    .and_then(|iv| iv.get(i))
                    .map(|&(lo, hi)| (at(lo), at(hi))),
            });
        }
        y += group_h + gap;
    }
    if data.groups.is_empty() {
        notes.push(Label {
            x: x0 + 4.0,
            y: y + m.font,
            text: fit(NO_MODELS, x1 - x0 - 8.0, m.small),
        });
        y += m.font * 2.0 + gap / 2.0;
    } else {
        y -= gap / 2.0;
    }
    let axis = XAxis::new(&data.axis, x0, x1, top, y, m);
    let height = (axis.bottom(m) + m.pad).ceil() as u32;
    BarsLayout {
        width: m.width,
        height,
        legend,
        axis,
        labels,
        bars,
        notes,
    }
}

/// One stacked bar segment with its percentage when it fits.
#[derive(Clone, Debug, PartialEq)]
pub struct Segment {
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
    pub color: Rgb,
    /// Printed centred in the segment; empty when it does not fit.
    pub text: String,
}

/// Stacked horizontal bars.
#[derive(Clone, Debug, PartialEq)]
pub struct StackedLayout {
    pub width: u32,
    pub height: u32,
    pub legend: Vec<LegendEntry>,
    pub axis: XAxis,
    pub labels: Vec<Label>,
    pub segments: Vec<Segment>,
    /// "n = …" after each bar, left-aligned.
    pub totals: Vec<Label>,
    pub notes: Vec<Label>,
}

/// [`stacked_in`] with the outcomes' colours ([`OUTCOMES`]).
pub fn stacked(data: &Stacked, m: &Metrics) -> StackedLayout {
    stacked_in(data, m, &OUTCOMES)
}

/// Stacked bars, category i in `colors[i]` (cycled).
pub fn stacked_in(data: &Stacked, m: &Metrics, colors: &[Rgb]) -> StackedLayout {
    let color = |i: usize| colors[i % colors.len().max(1)];
    let w = f64::from(m.width);
    let entries: Vec<(String, Mark)> = data
        .categories
        .iter()
        .enumerate()
        .map(|(i, s)| (s.clone(), Mark::Box(color(i))))
        .collect();
    let (legend, legend_h) = legend(&entries, m.pad, m.pad, w - 2.0 * m.pad, m);
    let names: Vec<&str> = data.rows.iter().map(|r| r.label.as_str()).collect();
    let label_w = label_room(m, &names);
    let total_text = |n: u64| format!("n = {n}");
    let total_w = data
        .rows
        .iter()
        .map(|r| width(&total_text(r.total), m.small))
        .fold(0.0, f64::max)
        + 6.0;
    let x0 = m.pad + label_w + 6.0;
    let x1 = (w - m.pad - total_w).max(x0 + 10.0);
    let top = m.pad + legend_h + m.font * 0.4;
    let t = (m.small * 1.8).round();
    let gap = (t * 0.5).round();
    let mut y = top + gap / 2.0;
    let (mut labels, mut segments, mut totals, mut notes) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for row in &data.rows {
        labels.push(Label {
            x: x0 - 6.0,
            y: y + t / 2.0,
            text: fit(&row.label, label_w, m.font),
        });
        if row.total == 0 {
            notes.push(Label {
                x: x0 + 4.0,
                y: y + t / 2.0,
                text: fit(data.empty, x1 - x0 - 8.0, m.small),
            });
        } else {
            let mut cum = 0.0;
            for (i, share) in row.shares.iter().enumerate() {
                if *share <= 0.0 {
                    continue;
                }
                let a = x0 + data.axis.fraction(cum) * (x1 - x0);
                cum += share;
                let b = x0 + data.axis.fraction(cum) * (x1 - x0);
                let pct = format!("{}%", fixed(share * 100.0, 0));
                let text = if width(&pct, m.small) + 4.0 <= b - a {
                    pct
                } else {
                    String::new()
                };
                segments.push(Segment {
                    x0: a,
                    y0: y,
                    x1: b,
                    y1: y + t,
                    color: color(i),
                    text,
                });
            }
        }
        totals.push(Label {
            x: x1 + 4.0,
            y: y + t / 2.0,
            text: total_text(row.total),
        });
        y += t + gap;
    }
    if data.rows.is_empty() {
        notes.push(Label {
            x: x0 + 4.0,
            y: y + m.font,
            text: fit(NO_MODELS, x1 - x0 - 8.0, m.small),
        });
        y += m.font * 2.0 + gap / 2.0;
    } else {
        y -= gap / 2.0;
    }
    let axis = XAxis::new(&data.axis, x0, x1, top, y, m);
    let height = (axis.bottom(m) + m.pad).ceil() as u32;
    StackedLayout {
        width: m.width,
        height,
        legend,
        axis,
        labels,
        segments,
        totals,
        notes,
    }
}

/// One heatmap cell: its rectangle, colour and printed text.
#[derive(Clone, Debug, PartialEq)]
pub struct HeatCell {
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
    /// `None`: no value (drawn neutral).
    pub fill: Option<Rgb>,
    pub text: String,
    pub ink: Rgb,
}

/// A column header: centred on `x`; bottom at `y` when rotated (reading
/// upwards), vertically centred on `y` otherwise.
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    pub x: f64,
    pub y: f64,
    pub text: String,
}

/// A fields × models heatmap.
#[derive(Clone, Debug, PartialEq)]
pub struct HeatmapLayout {
    pub width: u32,
    pub height: u32,
    pub headers: Vec<Header>,
    pub rotated_headers: bool,
    pub labels: Vec<Label>,
    pub cells: Vec<HeatCell>,
    /// Size of the printed cell values.
    pub value_px: f64,
    /// The colour scale: gradient box and (x, label) ticks below it.
    pub scale: (f64, f64, f64, f64),
    pub scale_ticks: Vec<(f64, String)>,
    pub scale_title: Label,
    pub notes: Vec<Label>,
}

/// Outline of a cell whose value does not apply (it has no fill).
pub const NOT_APPLICABLE: Rgb = Rgb(0xBB, 0xBB, 0xBB);

pub fn heatmap(data: &Heatmap, m: &Metrics) -> HeatmapLayout {
    let w = f64::from(m.width);
    let names: Vec<&str> = data.rows.iter().map(|r| r.as_str()).collect();
    let label_w = label_room(m, &names);
    let avail = (w - 2.0 * m.pad - label_w - 6.0).max(10.0);
    let ncols = data.columns.len().max(1) as f64;
    let cw = (avail / ncols).min(m.font * 7.0).floor().max(4.0);
    // Labels and grid as one block, centred on the page.
    let left = m.pad + ((avail - cw * ncols) / 2.0).max(0.0).floor();
    let x0 = left + label_w + 6.0;
    let rh = (m.font * 1.6).round();
    let header_w = data
        .columns
        .iter()
        .map(|c| width(c, m.font))
        .fold(0.0, f64::max);
    let rotated = header_w > cw - 4.0;
    let header_room = if rotated {
        header_w.min(m.font * 10.0)
    } else {
        cw - 4.0
    };
    let header_h = if rotated {
        header_room + 8.0
    } else {
        (m.font * 1.6).round()
    };
    let top = m.pad + header_h;
    let headers = data
        .columns
        .iter()
        .enumerate()
        .map(|(j, c)| Header {
            x: x0 + (j as f64 + 0.5) * cw,
            y: if rotated {
                top - 4.0
            } else {
                top - header_h / 2.0
            },
            text: fit(c, header_room, m.font),
        })
        .collect();
    let value_px = m.small.min((cw - 3.0) / width("0.00", 1.0)).max(4.0);
    let mut labels = Vec::new();
    let mut cells = Vec::new();
    for (i, row) in data.rows.iter().enumerate() {
        let y = top + i as f64 * rh;
        labels.push(Label {
            x: x0 - 6.0,
            y: y + rh / 2.0,
            text: fit(row, label_w, m.font),
        });
        for (j, cell) in data.cells[i].iter().enumerate() {
            let fill = cell.value.map(super::style::sequential);
            let ink = fill.map_or(super::style::INK, Rgb::ink);
            let cx = x0 + j as f64 * cw;
            cells.push(HeatCell {
                x0: cx,
                y0: y,
                x1: cx + cw - 1.0,
                y1: y + rh - 1.0,
                fill,
                text: cell.text.clone(),
                ink,
            });
        }
    }
    let mut notes = Vec::new();
    let mut bottom = top + data.rows.len() as f64 * rh;
    if data.columns.is_empty() || data.rows.is_empty() {
        let text = if data.columns.is_empty() {
            NO_MODELS
        } else {
            "No fields in the report"
        };
        notes.push(Label {
            x: x0,
            y: bottom + m.font,
            text: fit(text, avail, m.small),
        });
        bottom += m.font * 2.0;
    }
    // The colour scale: title on the left, gradient to its right.
    let sy = bottom + m.font * 0.8;
    let title = fit(&data.scale_label, w * 0.45, m.font);
    let title_w = width(&title, m.font);
    let sx0 = left + title_w + 8.0;
    let sx1 = (sx0 + (m.font * 14.0)).min(w - m.pad - m.small);
    let sh = (m.font * 0.9).round();
    let scale_ticks = [0.0, 0.5, 1.0]
        .iter()
        .map(|&t| (sx0 + t * (sx1 - sx0), text::fixed(t, 1)))
        .collect();
    let height = (sy + sh + 3.0 + m.small * 1.3 + m.pad).ceil() as u32;
    HeatmapLayout {
        width: m.width,
        height,
        headers,
        rotated_headers: rotated,
        labels,
        cells,
        value_px,
        scale: (sx0, sy, sx1, sy + sh),
        scale_ticks,
        scale_title: Label {
            x: left,
            y: sy + sh / 2.0,
            text: title,
        },
        notes,
    }
}

/// One point of a strip.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

/// Strips of points, one row per model.
#[derive(Clone, Debug, PartialEq)]
pub struct StripsLayout {
    pub width: u32,
    pub height: u32,
    pub legend: Vec<LegendEntry>,
    pub axis: XAxis,
    pub labels: Vec<Label>,
    pub points: Vec<Point>,
    pub point_r: f64,
    /// Marker centres with their printed values (at the right of the plot).
    pub markers: Vec<Point>,
    pub marker_values: Vec<Label>,
    pub marker_r: f64,
    pub threshold_x: Option<f64>,
    pub notes: Vec<Label>,
}

pub fn strips(data: &Strips, m: &Metrics) -> StripsLayout {
    let w = f64::from(m.width);
    let mut entries = vec![
        (data.point_label.clone(), Mark::Dot(super::style::BLUE)),
        (
            data.marker_label.clone(),
            Mark::Diamond(super::style::VERMILLION),
        ),
    ];
    if let Some((_, label)) = &data.threshold {
        entries.push((label.clone(), Mark::Dash(super::style::INK)));
    }
    let (legend, legend_h) = legend(&entries, m.pad, m.pad, w - 2.0 * m.pad, m);
    let names: Vec<&str> = data.rows.iter().map(|r| r.label.as_str()).collect();
    let label_w = label_room(m, &names);
    let value_w = width("0.000", m.small) + 6.0;
    let x0 = m.pad + label_w + 6.0;
    let x1 = (w - m.pad - value_w).max(x0 + 10.0);
    let top = m.pad + legend_h + m.font * 0.4;
    let rh = (m.font * 2.0).round();
    let span = x1 - x0;
    let (mut labels, mut points, mut markers, mut marker_values, mut notes) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut y = top;
    for row in &data.rows {
        let cy = y + rh / 2.0;
        labels.push(Label {
            x: x0 - 6.0,
            y: cy,
            text: fit(&row.label, label_w, m.font),
        });
        // A point within a quarter pixel of one already drawn in its row is
        // drawn once (a dot at 75 % opacity where a stack of them was
        // darker; nothing else changes), so that a wide benchmark's strip,
        // 8,000 fields of CER 0 among 10,000, is not 10,000 circles.
        let mut drawn: HashSet<(i64, i64)> = HashSet::new();
        for (k, (_, v)) in row.points.iter().enumerate() {
            // Deterministic jitter (golden-ratio sequence) so that equal
            // values stay visible side by side.
            let jitter = ((k as f64 * 0.618_033_988_75).fract() - 0.5) * rh * 0.55;
            let point = Point {
                x: x0 + data.axis.fraction(*v) * span,
                y: cy + jitter,
            };
            let cell = (
                (point.x * 4.0).round() as i64,
                (point.y * 4.0).round() as i64,
            );
            if drawn.insert(cell) {
                points.push(point);
            }
        }
        if let Some(c) = row.marker {
            markers.push(Point {
                x: x0 + data.axis.fraction(c) * span,
                y: cy,
            });
            marker_values.push(Label {
                x: x1 + 4.0,
                y: cy,
                text: fixed(c, 3),
            });
        }
        if let Some(note) = &row.note {
            notes.push(Label {
                x: x0 + 4.0,
                y: cy,
                text: fit(note, span - 8.0, m.small),
            });
        }
        y += rh;
    }
    if data.rows.is_empty() {
        notes.push(Label {
            x: x0 + 4.0,
            y: y + m.font,
            text: fit(NO_MODELS, span - 8.0, m.small),
        });
        y += m.font * 2.0;
    }
    let axis = XAxis::new(&data.axis, x0, x1, top, y, m);
    let threshold_x = data
        .threshold
        .as_ref()
        .map(|(t, _)| x0 + data.axis.fraction(*t) * span);
    let height = (axis.bottom(m) + m.pad).ceil() as u32;
    StripsLayout {
        width: m.width,
        height,
        legend,
        axis,
        labels,
        points,
        point_r: (m.small * 0.24).max(2.0),
        markers,
        marker_values,
        marker_r: (m.small * 0.45).max(3.5),
        threshold_x,
        notes,
    }
}

#[cfg(test)]
mod tests {
    use super::super::data::{Axis, BarGroup, Bars, StripRow, Strips};
    use super::super::{ChartOptions, PaperSize};
    use super::*;

    fn metrics(size: PaperSize) -> Metrics {
        Metrics::new(&ChartOptions {
            size,
            ..ChartOptions::default()
        })
    }

    #[test]
    fn bar_lengths_are_proportional_to_values() {
        let data = Bars {
            series: vec!["a".into(), "b".into()],
            groups: vec![BarGroup {
                label: "m".into(),
                values: vec![0.25, 1.0],
                note: None,
            }],
            axis: Axis::unit("Score"),
            value_decimals: 2,
            counts: false,
            intervals: Vec::new(),
        };
        let l = bars(&data, &metrics(PaperSize::FullWidth));
        let full = l.axis.x1 - l.axis.x0;
        assert!((l.bars[0].x1 - l.bars[0].x0 - 0.25 * full).abs() < 1e-9);
        assert!((l.bars[1].x1 - l.bars[1].x0 - full).abs() < 1e-9);
        assert_eq!(l.bars[0].value, "0.25");
        assert!(l.axis.x1 <= 672.0);
    }

    #[test]
    fn a_strip_draws_points_on_one_quarter_pixel_once() {
        let strips = |values: Vec<f64>| Strips {
            rows: vec![StripRow {
                label: "m".into(),
                points: values.into_iter().map(|v| (String::new(), v)).collect(),
                marker: None,
                note: None,
            }],
            axis: Axis::unit("CER"),
            point_label: "field".into(),
            marker_label: "model".into(),
            threshold: None,
        };
        let m = metrics(PaperSize::FullWidth);
        // Ten distinct values: ten dots.
        let few = strips((0..10).map(|i| f64::from(i) / 10.0).collect());
        assert_eq!(strips_len(&few, &m), 10);
        // 10,000 zeros: one column of jittered dots, each quarter pixel
        // of its height at most once.
        let l = strips(vec![0.0; 10_000]);
        let n = strips_len(&l, &m);
        let rh = (m.font * 2.0).round();
        assert!(n <= (rh * 0.55 * 4.0).ceil() as usize + 1, "{n}");
        assert!(n >= 10, "{n}");
    }

    fn strips_len(data: &Strips, m: &Metrics) -> usize {
        strips(data, m).points.len()
    }

    #[test]
    fn legend_wraps_within_the_width() {
        let m = metrics(PaperSize::SingleColumn);
        let entries: Vec<(String, Mark)> = (0..6)
            .map(|i| (format!("category {i}"), Mark::Box(SERIES[0])))
            .collect();
        let (items, h) = legend(&entries, 4.0, 4.0, 300.0, &m);
        assert!(h > m.font * 1.5, "wrapped into several rows");
        for it in &items {
            assert!(it.x + m.font + 4.0 + width(&it.label, m.font) <= 304.0 + 1e-9);
        }
    }

    #[test]
    fn long_labels_are_shortened_to_a_third_of_the_width() {
        let data = Bars {
            series: vec!["a".into()],
            groups: vec![BarGroup {
                label: "x".repeat(200),
                values: vec![0.5],
                note: None,
            }],
            axis: Axis::unit("Score"),
            value_decimals: 2,
            counts: false,
            intervals: Vec::new(),
        };
        let m = metrics(PaperSize::SingleColumn);
        let l = bars(&data, &m);
        assert!(l.labels[0].text.contains('…'));
        assert!(width(&l.labels[0].text, m.font) <= 317.0 * 0.32 + 1e-9);
    }
}
