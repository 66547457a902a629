//! The confidence charts (SPEC §8, issue 29): data and layout (pure; drawn
//! by `draw::reliability` and `draw::risk_coverage`).
//!
//! Owns: which numbers of a model's `confidence` block the two charts
//! show, their words, and their geometry:
//!
//! - [`reliability`]: one model's reliability diagram — a bar per
//!   non-empty bin of `bins` (spanning the bin, as high as the bin's
//!   accuracy), the bin's count printed above its bar, the diagonal of
//!   perfect calibration dashed, the model's ECE in the title;
//! - [`risk_coverage`]: the risk–coverage curves of every model with
//!   confidences on one chart, as steps (`views.curve`, highest confidence
//!   first), each model in the colour, marker and dash of
//!   [`super::lines::look`] at its position in the report, so a model
//!   looks the same here as in the sweep charts.
//!
//! Both share the line charts' plot box ([`Frame`]). Labels are sanitised
//! here ([`sanitize`]); numbers that are not finite are left out, never
//! drawn.
//!
//! Depends on: `crate::eval::report` and the other chart steps' helpers.
//! No plotters types, no I/O.

use super::data::{model_label, Axis, Words};
use super::layout::{legend, LegendEntry, Mark};
use super::lines::{line_legend, look, Dash, Frame, LegendLine, Marker, Text};
use super::style::{Metrics, Rgb, INK, MUTED, SKY_BLUE};
use super::text::{fixed, width};
use crate::eval::report::{ConfidenceReport, Report};

/// One reliability bin as the diagram draws it.
#[derive(Clone, Debug, PartialEq)]
pub struct BinBar {
    /// The bin's edges in confidence (0–1).
    pub low: f64,
    pub high: f64,
    pub count: u64,
    /// The share of the bin's values that are right; `None` for an empty
    /// bin.
    pub accuracy: Option<f64>,
}

/// One model's reliability diagram in data units.
#[derive(Clone, Debug, PartialEq)]
pub struct Reliability {
    /// The model's position in the report.
    pub model: usize,
    /// Its name, sanitised.
    pub label: String,
    /// Every bin of the report with finite edges, in order.
    pub bins: Vec<BinBar>,
    pub ece: f64,
    pub x: Axis,
    pub y: Axis,
    pub words: Words,
}

/// Bar colour of the reliability diagram (the diagonal is ink, dashed).
pub const BIN_FILL: Rgb = SKY_BLUE;

fn finite(v: f64) -> Option<f64> {
    v.is_finite().then_some(v)
}

fn values(n: u64) -> String {
    match n {
        1 => "1 value".to_string(),
        n => format!("{n} values"),
    }
}

/// The reliability diagram of the report's model `index`; `None` when it
/// has no confidences (or there is no such model).
pub fn reliability(report: &Report, index: usize) -> Option<Reliability> {
    let m = report.models.get(index)?;
    let c = m.confidence.as_ref()?;
    let label = model_label(m, index);
    let bins = c
        .bins
        .iter()
        .filter_map(|b| {
            let (low, high) = (finite(b.low)?, finite(b.high)?);
            Some(BinBar {
                low: low.clamp(0.0, 1.0),
                high: high.clamp(0.0, 1.0).max(low.clamp(0.0, 1.0)),
                count: b.count,
                accuracy: b
                    .accuracy
                    .and_then(finite)
                    .filter(|_| b.count > 0)
                    .map(|a| a.clamp(0.0, 1.0)),
            })
        })
        .collect();
    Some(Reliability {
        model: index,
        words: reliability_words(&label, c),
        label,
        bins,
        ece: c.ece,
        x: Axis::unit("Confidence"),
        y: Axis::unit("Accuracy (share right)"),
    })
}

/// Every model's reliability diagram, in report order (models without
/// confidences have none).
pub fn reliabilities(report: &Report) -> Vec<Reliability> {
    (0..report.models.len())
        .filter_map(|i| reliability(report, i))
        .collect()
}

fn reliability_words(label: &str, c: &ConfidenceReport) -> Words {
    let percent = |v: f64| format!("{} %", fixed(v * 100.0, 0));
    Words {
        title: format!("Reliability of {label} (ECE = {})", fixed(c.ece, 3)),
        caption: format!(
            "Reliability diagram of {label}: its {} with a confidence ({} of its compared \
             values) in {} equal-width bins of confidence (SPEC §8.3). Each bar spans its bin \
             and is as high as the share of the bin's values that are right (exact or true \
             negative); the number above it is how many values the bin holds; an empty bin has \
             no bar. Dashed diagonal: perfect calibration (accuracy = confidence); bars below it \
             are overconfident, bars above it underconfident. ECE = Σ_k (n_k / n) · |accuracy_k \
             − mean confidence_k| = {}; MCE (largest gap of a bin) = {}; over all its values, \
             mean confidence {} and accuracy {}.",
            values(c.pairs),
            percent(c.with_confidence),
            c.bins.len(),
            fixed(c.ece, 3),
            fixed(c.mce, 3),
            fixed(c.mean_confidence, 3),
            fixed(c.accuracy, 3),
        ),
    }
}

/// One bar of the diagram in pixels.
#[derive(Clone, Debug, PartialEq)]
pub struct BinBox {
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    /// The plot's bottom (`y1 - y0` is the bar's height; 0 for accuracy 0).
    pub y1: f64,
    /// The bin's count, printed above the bar: centred on `x`, its bottom
    /// (or, rotated, its start) at `y`.
    pub count: String,
    pub count_x: f64,
    pub count_y: f64,
    /// The count's estimated box (x0, y0, x1, y1), cleared before it is
    /// printed so that the diagonal never runs through the digits.
    pub count_box: (f64, f64, f64, f64),
}

/// A reliability diagram in pixels.
#[derive(Clone, Debug, PartialEq)]
pub struct ReliabilityLayout {
    pub width: u32,
    pub height: u32,
    pub legend: Vec<LegendEntry>,
    pub frame: Frame,
    /// One per non-empty bin, in bin order.
    pub bars: Vec<BinBox>,
    pub fill: Rgb,
    /// Size of the counts.
    pub count_px: f64,
    /// Counts read upwards when the bins are too narrow for them.
    pub counts_rotated: bool,
    /// Perfect calibration, from (0, 0) to (1, 1).
    pub diagonal: ((f64, f64), (f64, f64)),
    pub notes: Vec<Text>,
    pub note_color: Rgb,
}

/// Lays out `data` at the width of `m`.
pub fn reliability_layout(data: &Reliability, m: &Metrics) -> ReliabilityLayout {
    let w = f64::from(m.width);
    let entries = [
        (
            "Accuracy per bin (number of values above)".to_string(),
            Mark::Box(BIN_FILL),
        ),
        ("Perfect calibration".to_string(), Mark::Dash(INK)),
    ];
    let (legend, legend_h) = legend(&entries, m.pad, m.pad, w - 2.0 * m.pad, m);
    let plot_h = |plot_w: f64| plot_w.clamp(150.0, 300.0).round();
    let filled: Vec<&BinBar> = data
        .bins
        .iter()
        .filter(|b| b.count > 0 && b.accuracy.is_some())
        .collect();

    // How the counts fit: the narrowest bar decides for all of them. They
    // keep their size (the bar values' size), turning to read upwards when
    // a bin is too narrow for them across; only bins narrower than a line
    // of text (more than about 50 at full width) shrink them.
    let probe = Frame::new(&data.x, &data.y, 0.0, plot_h, m);
    let narrowest = filled
        .iter()
        .map(|b| probe.px(b.high) - probe.px(b.low))
        .fold(f64::INFINITY, f64::min);
    let widest = filled
        .iter()
        .map(|b| width(&b.count.to_string(), 1.0))
        .fold(0.0, f64::max);
    let base = m.small * 0.92;
    let (count_px, rotated, headroom) = if widest * base <= narrowest - 2.0 {
        (base, false, base * 1.2 + 3.0)
    } else {
        let size = base.min(narrowest - 1.0).max(4.0);
        (size, true, widest * size + 5.0)
    };
    let y0 = m.pad + legend_h + headroom.max(m.small);
    let frame = Frame::new(&data.x, &data.y, y0, plot_h, m);

    let bars = filled
        .iter()
        .map(|b| {
            let (a, z) = (frame.px(b.low), frame.px(b.high));
            let inset = if z - a > 4.0 { 1.0 } else { 0.0 };
            let top = frame.py(b.accuracy.unwrap_or(0.0));
            let count = b.count.to_string();
            let (cx, cy) = ((a + z) / 2.0, top - 3.0);
            let (long, short) = (width(&count, count_px) + 2.0, count_px * 1.1);
            let count_box = if rotated {
                (cx - short / 2.0, cy - long, cx + short / 2.0, cy)
            } else {
                (cx - long / 2.0, cy - short, cx + long / 2.0, cy)
            };
            BinBox {
                x0: a + inset,
                y0: top,
                x1: z - inset,
                y1: frame.y1,
                count,
                count_x: cx,
                count_y: cy,
                count_box,
            }
        })
        .collect();
    let mut notes = Vec::new();
    if filled.is_empty() {
        notes.push(Text {
            x: frame.x0 + 6.0,
            y: (frame.y0 + frame.y1) / 2.0,
            text: "No values with a confidence".to_string(),
            right: false,
        });
    }
    ReliabilityLayout {
        width: m.width,
        height: frame.height,
        legend,
        diagonal: (
            (frame.px(0.0), frame.py(0.0)),
            (frame.px(1.0), frame.py(1.0)),
        ),
        frame,
        bars,
        fill: BIN_FILL,
        count_px,
        counts_rotated: rotated,
        notes,
        note_color: MUTED,
    }
}

/// One model's risk–coverage curve in data units.
#[derive(Clone, Debug, PartialEq)]
pub struct Curve {
    /// The model's name and AURC, for the legend.
    pub label: String,
    /// The model's position in the report (its look).
    pub model: usize,
    /// (coverage, risk) per distinct confidence, highest first (coverage
    /// rising), as the report's `views.curve` holds them.
    pub points: Vec<(f64, f64)>,
}

/// The risk–coverage chart in data units.
#[derive(Clone, Debug, PartialEq)]
pub struct RiskCoverage {
    pub curves: Vec<Curve>,
    pub x: Axis,
    pub y: Axis,
    pub words: Words,
}

/// Every model's risk–coverage curve on one chart; `None` when no model
/// has confidences. A model whose report carries no curve (`views`) is
/// left out and named in the caption.
pub fn risk_coverage(report: &Report) -> Option<RiskCoverage> {
    if report.models.iter().all(|m| m.confidence.is_none()) {
        return None;
    }
    let mut curves = Vec::new();
    let mut without = Vec::new();
    for (i, m) in report.models.iter().enumerate() {
        let Some(c) = &m.confidence else { continue };
        let Some(views) = &c.views else {
            without.push(model_label(m, i));
            continue;
        };
        curves.push(Curve {
            label: format!("{} (AURC {})", model_label(m, i), fixed(c.aurc, 3)),
            model: i,
            points: views
                .curve
                .iter()
                .filter_map(|p| Some((finite(p.coverage)?, finite(p.risk)?)))
                .collect(),
        });
    }
    let top = curves
        .iter()
        .flat_map(|c| c.points.iter().map(|p| p.1))
        .fold(0.0, f64::max);
    let y_label = "Risk (share wrong)";
    let y = if top > 0.5 || top <= 0.0 {
        Axis::unit(y_label)
    } else {
        Axis::up_to(y_label, top, false)
    };
    let mut caption = "Each model's values with a confidence, accepted when their confidence \
                       is at least t (SPEC §8.3): coverage = share of its values with a \
                       confidence that are accepted, risk = share of the accepted that are wrong \
                       (neither exact nor true negative). As t falls from the highest \
                       confidence, coverage grows one step per distinct confidence (at most 200 \
                       points per model are drawn, the first and last kept). Lower is better; \
                       the area under a model's steps is its AURC (in the legend), and its risk \
                       at coverage 1 is its error rate over the values with a confidence."
        .to_string();
    let others: Vec<String> = report
        .models
        .iter()
        .enumerate()
        .filter(|(_, m)| m.confidence.is_none())
        .map(|(i, m)| model_label(m, i))
        .collect();
    if !others.is_empty() {
        caption.push_str(&format!(
            " Without confidences, so not shown: {}.",
            others.join(", ")
        ));
    }
    if !without.is_empty() {
        caption.push_str(&format!(
            " No curve in the report for: {}.",
            without.join(", ")
        ));
    }
    Some(RiskCoverage {
        curves,
        x: Axis::unit("Coverage (share accepted)"),
        y,
        words: Words {
            title: "Risk–coverage curves".to_string(),
            caption,
        },
    })
}

/// The step path of a curve in data units: from coverage 0 at the first
/// point's risk, each point's risk held until its coverage, then down or
/// up to the next point's risk (the area under it is SPEC §8.3's AURC).
pub fn steps(points: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let mut out: Vec<(f64, f64)> = Vec::with_capacity(points.len() * 2);
    let mut before = 0.0;
    for &(coverage, risk) in points {
        for p in [(before, risk), (coverage, risk)] {
            if out.last() != Some(&p) {
                out.push(p);
            }
        }
        before = coverage;
    }
    out
}

/// Where a curve's markers go: at most four of its points, evenly spread
/// over them, the first and last included.
fn marked(points: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let n = points.len();
    let k = n.min(4);
    let mut picked: Vec<usize> = (0..k)
        .map(|j| if k == 1 { n - 1 } else { j * (n - 1) / (k - 1) })
        .collect();
    picked.dedup();
    picked.into_iter().map(|i| points[i]).collect()
}

/// One curve in pixels.
#[derive(Clone, Debug, PartialEq)]
pub struct CurvePath {
    /// The step path.
    pub points: Vec<(f64, f64)>,
    /// Marker centres (on the curve's own points).
    pub marks: Vec<(f64, f64)>,
    pub color: Rgb,
    pub marker: Marker,
    pub dash: Dash,
}

/// The risk–coverage chart in pixels.
#[derive(Clone, Debug, PartialEq)]
pub struct RiskCoverageLayout {
    pub width: u32,
    pub height: u32,
    pub legend: Vec<LegendLine>,
    pub frame: Frame,
    pub curves: Vec<CurvePath>,
    pub marker_r: f64,
    pub notes: Vec<Text>,
    pub note_color: Rgb,
}

/// Lays out `data` at the width of `m`.
pub fn risk_coverage_layout(data: &RiskCoverage, m: &Metrics) -> RiskCoverageLayout {
    let w = f64::from(m.width);
    let entries: Vec<(String, usize)> = data
        .curves
        .iter()
        .map(|c| (c.label.clone(), c.model))
        .collect();
    let (legend, legend_h) = line_legend(&entries, m);
    let y0 = m.pad + legend_h + m.small;
    let frame = Frame::new(
        &data.x,
        &data.y,
        y0,
        |_| (w * 0.42).clamp(150.0, 300.0).round(),
        m,
    );
    let to_px = |&(x, y): &(f64, f64)| (frame.px(x), frame.py(y));
    let curves = data
        .curves
        .iter()
        .map(|c| {
            let (color, marker, dash) = look(c.model);
            CurvePath {
                points: steps(&c.points).iter().map(to_px).collect(),
                marks: marked(&c.points).iter().map(to_px).collect(),
                color,
                marker,
                dash,
            }
        })
        .collect();
    let mut notes = Vec::new();
    if data.curves.iter().all(|c| c.points.is_empty()) {
        notes.push(Text {
            x: frame.x0 + 6.0,
            y: (frame.y0 + frame.y1) / 2.0,
            text: "No curves".to_string(),
            right: false,
        });
    }
    RiskCoverageLayout {
        width: m.width,
        height: frame.height,
        legend,
        frame,
        curves,
        marker_r: (m.small * 0.3).max(2.5),
        notes,
        note_color: MUTED,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_hold_each_risk_until_its_coverage() {
        assert_eq!(
            steps(&[(0.2, 0.0), (0.5, 0.4), (1.0, 0.3)]),
            [
                (0.0, 0.0),
                (0.2, 0.0),
                (0.2, 0.4),
                (0.5, 0.4),
                (0.5, 0.3),
                (1.0, 0.3)
            ]
        );
        assert_eq!(steps(&[(1.0, 0.25)]), [(0.0, 0.25), (1.0, 0.25)]);
        assert!(steps(&[]).is_empty());
    }

    #[test]
    fn markers_spread_over_the_points() {
        let p: Vec<(f64, f64)> = (0..10).map(|i| (f64::from(i) / 9.0, 0.1)).collect();
        let m = marked(&p);
        assert_eq!(m.len(), 4);
        assert_eq!((m[0], m[3]), (p[0], p[9]));
        assert_eq!(marked(&p[..1]), [p[0]]);
        assert_eq!(marked(&p[..2]), [p[0], p[1]]);
        assert!(marked(&[]).is_empty());
    }
}
