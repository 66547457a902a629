//! The drawing step: a layout becomes plotters elements on any
//! [`DrawingBackend`], and [`svg`] renders one to a standalone SVG string.
//!
//! Owns: plotters. Nothing else in the crate names a plotters type. Text is
//! placed with plotters' anchors and never measured by plotters (see
//! [`super::text`] for why), so the SVG is the same natively and in the
//! browser. Errors are returned, never unwrapped; [`svg`] turns one into an
//! SVG that says what went wrong.

use super::confidence::{ReliabilityLayout, RiskCoverageLayout};
use super::layout::{
    BarsLayout, HeatmapLayout, Label, LegendEntry, Mark, StackedLayout, StripsLayout, XAxis,
    NOT_APPLICABLE,
};
use super::lines::{Dash, Frame, LegendLine, LinesLayout, Marker, Text as LineText};
use super::style::{self, Metrics, Rgb, GRID, INK, MUTED, WHITE};
use super::text::{sanitize, xml_escape};
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::{
    Circle, Color, DrawingArea, DrawingAreaErrorKind, DrawingBackend, FontDesc, FontFamily,
    FontStyle, FontTransform, IntoDrawingArea, PathElement, Polygon, RGBColor, Rectangle,
    SVGBackend, ShapeStyle, TextStyle,
};
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// The font stack written into the SVG.
const FAMILY: &str = "Helvetica, Arial, sans-serif";

/// plotters' SVG backend writes `font-size` as the style's size divided by
/// 1.24; multiplying by it gives the pixel size asked for.
const PLOTTERS_FONT_SCALE: f64 = 1.24;

type Outcome<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

fn rgb(c: Rgb) -> RGBColor {
    RGBColor(c.0, c.1, c.2)
}

fn px(v: f64) -> i32 {
    if v.is_finite() {
        v.round().clamp(-1e6, 1e6) as i32
    } else {
        0
    }
}

/// Text options beyond position and content.
#[derive(Clone, Copy)]
struct Font {
    size: f64,
    color: Rgb,
    h: HPos,
    v: VPos,
    rotate: bool,
    italic: bool,
}

impl Font {
    fn new(size: f64) -> Font {
        Font {
            size,
            color: INK,
            h: HPos::Left,
            v: VPos::Center,
            rotate: false,
            italic: false,
        }
    }
    fn color(self, color: Rgb) -> Font {
        Font { color, ..self }
    }
    fn anchor(self, h: HPos, v: VPos) -> Font {
        Font { h, v, ..self }
    }
}

/// A thin wrapper that draws in pixel coordinates with our types.
struct Pen<'a, DB: DrawingBackend> {
    area: &'a DrawingArea<DB, Shift>,
}

impl<DB: DrawingBackend> Pen<'_, DB> {
    fn rect(&self, (x0, y0, x1, y1): (f64, f64, f64, f64), fill: Rgb) -> Outcome<DB> {
        let style: ShapeStyle = rgb(fill).filled();
        self.area
            .draw(&Rectangle::new([(px(x0), px(y0)), (px(x1), px(y1))], style))
    }

    fn outline(&self, (x0, y0, x1, y1): (f64, f64, f64, f64), color: Rgb) -> Outcome<DB> {
        let style: ShapeStyle = rgb(color).stroke_width(1);
        self.area
            .draw(&Rectangle::new([(px(x0), px(y0)), (px(x1), px(y1))], style))
    }

    fn line(&self, from: (f64, f64), to: (f64, f64), color: Rgb) -> Outcome<DB> {
        self.area.draw(&PathElement::new(
            vec![(px(from.0), px(from.1)), (px(to.0), px(to.1))],
            rgb(color).stroke_width(1),
        ))
    }

    fn dashed(&self, from: (f64, f64), to: (f64, f64), color: Rgb) -> Outcome<DB> {
        self.area.draw(&DashedPathElement::new(
            vec![(px(from.0), px(from.1)), (px(to.0), px(to.1))],
            4,
            3,
            rgb(color).stroke_width(1),
        ))
    }

    fn dot(&self, (x, y): (f64, f64), r: f64, fill: Rgb, alpha: f64) -> Outcome<DB> {
        let r = r.round().max(1.0) as u32;
        self.area.draw(&Circle::new(
            (px(x), px(y)),
            r,
            rgb(fill).mix(alpha).filled(),
        ))
    }

    fn diamond(&self, (x, y): (f64, f64), r: f64, fill: Rgb) -> Outcome<DB> {
        let pts = vec![
            (px(x), px(y - r)),
            (px(x + r), px(y)),
            (px(x), px(y + r)),
            (px(x - r), px(y)),
        ];
        self.area
            .draw(&Polygon::new(pts.clone(), rgb(fill).filled()))?;
        let mut closed = pts;
        closed.push(closed[0]);
        self.area
            .draw(&PathElement::new(closed, rgb(INK).stroke_width(1)))
    }

    fn text(&self, s: &str, (x, y): (f64, f64), f: Font) -> Outcome<DB> {
        // Labels are sanitised in the data step already; this is the last
        // guard for anything that reaches the SVG.
        let s = sanitize(s);
        if s.is_empty() {
            return Ok(());
        }
        let style = if f.italic {
            FontStyle::Italic
        } else {
            FontStyle::Normal
        };
        let mut font = FontDesc::new(
            FontFamily::Name(FAMILY),
            f.size * PLOTTERS_FONT_SCALE,
            style,
        );
        if f.rotate {
            font = font.transform(FontTransform::Rotate270);
        }
        let style = TextStyle {
            font,
            color: rgb(f.color).to_backend_color(),
            pos: Pos::new(f.h, f.v),
        };
        self.area.draw_text(&s, &style, (px(x), px(y)))
    }

    fn right_label(&self, l: &Label, size: f64) -> Outcome<DB> {
        self.text(
            &l.text,
            (l.x, l.y),
            Font::new(size).anchor(HPos::Right, VPos::Center),
        )
    }

    fn left_label(&self, l: &Label, font: Font) -> Outcome<DB> {
        self.text(&l.text, (l.x, l.y), font.anchor(HPos::Left, VPos::Center))
    }

    fn note(&self, l: &Label, m: &Metrics) -> Outcome<DB> {
        let mut f = Font::new(m.small).color(MUTED);
        f.italic = true;
        self.left_label(l, f)
    }

    fn legend(&self, entries: &[LegendEntry], m: &Metrics) -> Outcome<DB> {
        let s = m.font * 0.8;
        for e in entries {
            let (x, y) = (e.x, e.y);
            let cx = x + m.font / 2.0;
            match e.mark {
                Mark::Box(c) => {
                    let b = (cx - s / 2.0, y - s / 2.0, cx + s / 2.0, y + s / 2.0);
                    self.rect(b, c)?;
                    self.outline(b, INK)?;
                }
                Mark::Dot(c) => self.dot((cx, y), s * 0.35, c, 0.75)?,
                Mark::Diamond(c) => self.diamond((cx, y), s * 0.55, c)?,
                Mark::Dash(c) => self.dashed((x, y), (x + m.font, y), c)?,
            }
            self.text(
                &e.label,
                (x + m.font + 4.0, y),
                Font::new(m.font).anchor(HPos::Left, VPos::Center),
            )?;
        }
        Ok(())
    }

    /// Vertical grid lines at the ticks, the axis lines, tick marks, tick
    /// labels and the axis title.
    fn x_axis(&self, a: &XAxis, m: &Metrics) -> Outcome<DB> {
        for (x, _) in &a.ticks {
            self.line((*x, a.y0), (*x, a.y1), GRID)?;
        }
        self.line((a.x0, a.y1), (a.x1, a.y1), INK)?;
        self.line((a.x0, a.y0), (a.x0, a.y1), INK)?;
        for (x, label) in &a.ticks {
            self.line((*x, a.y1), (*x, a.y1 + 3.0), INK)?;
            self.text(
                label,
                (*x, a.y1 + 5.0),
                Font::new(m.small).anchor(HPos::Center, VPos::Top),
            )?;
        }
        self.text(
            &a.title,
            ((a.x0 + a.x1) / 2.0, a.title_y),
            Font::new(m.font).anchor(HPos::Center, VPos::Top),
        )
    }
}

pub fn bars<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    l: &BarsLayout,
    m: &Metrics,
) -> Outcome<DB> {
    let pen = Pen { area };
    pen.legend(&l.legend, m)?;
    pen.x_axis(&l.axis, m)?;
    for b in &l.bars {
        if b.x1 > b.x0 {
            pen.rect((b.x0, b.y0, b.x1, b.y1), b.color)?;
            pen.outline((b.x0, b.y0, b.x1, b.y1), INK)?;
        }
        let mid = (b.y0 + b.y1) / 2.0;
        let mut value_x = b.x1 + 3.0;
        if let Some((lo, hi)) = b.whisker {
            // An error bar: a line from low to high with end ticks.
            let tick = (b.y1 - b.y0) * 0.35;
            pen.line((lo, mid), (hi, mid), INK)?;
            pen.line((lo, mid - tick), (lo, mid + tick), INK)?;
            pen.line((hi, mid - tick), (hi, mid + tick), INK)?;
            value_x = value_x.max(hi + 3.0);
        }
        pen.text(
            &b.value,
            (value_x, mid),
            Font::new(m.small * 0.92).anchor(HPos::Left, VPos::Center),
        )?;
    }
    // The axis line over the bars' left edges.
    pen.line((l.axis.x0, l.axis.y0), (l.axis.x0, l.axis.y1), INK)?;
    for label in &l.labels {
        pen.right_label(label, m.font)?;
    }
    for note in &l.notes {
        pen.note(note, m)?;
    }
    Ok(())
}

pub fn stacked<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    l: &StackedLayout,
    m: &Metrics,
) -> Outcome<DB> {
    let pen = Pen { area };
    pen.legend(&l.legend, m)?;
    pen.x_axis(&l.axis, m)?;
    for s in &l.segments {
        let b = (s.x0, s.y0, s.x1, s.y1);
        pen.rect(b, s.color)?;
        pen.outline(b, INK)?;
        pen.text(
            &s.text,
            ((s.x0 + s.x1) / 2.0, (s.y0 + s.y1) / 2.0),
            Font::new(m.small * 0.92)
                .color(s.color.ink())
                .anchor(HPos::Center, VPos::Center),
        )?;
    }
    for label in &l.labels {
        pen.right_label(label, m.font)?;
    }
    for t in &l.totals {
        pen.left_label(t, Font::new(m.small))?;
    }
    for note in &l.notes {
        pen.note(note, m)?;
    }
    Ok(())
}

pub fn heatmap<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    l: &HeatmapLayout,
    m: &Metrics,
) -> Outcome<DB> {
    let pen = Pen { area };
    for h in &l.headers {
        let mut f = Font::new(m.font);
        if l.rotated_headers {
            f.rotate = true;
            f = f.anchor(HPos::Left, VPos::Center);
        } else {
            f = f.anchor(HPos::Center, VPos::Center);
        }
        pen.text(&h.text, (h.x, h.y), f)?;
    }
    for label in &l.labels {
        pen.right_label(label, m.font)?;
    }
    for c in &l.cells {
        let b = (c.x0, c.y0, c.x1, c.y1);
        match c.fill {
            Some(fill) => pen.rect(b, fill)?,
            None => pen.outline(b, NOT_APPLICABLE)?,
        }
        let mut f = Font::new(l.value_px)
            .color(if c.fill.is_some() { c.ink } else { MUTED })
            .anchor(HPos::Center, VPos::Center);
        f.italic = c.fill.is_none();
        pen.text(&c.text, ((c.x0 + c.x1) / 2.0, (c.y0 + c.y1) / 2.0), f)?;
    }
    for note in &l.notes {
        pen.note(note, m)?;
    }
    // Colour scale.
    let (x0, y0, x1, y1) = l.scale;
    let steps = 64;
    for i in 0..steps {
        let a = x0 + (x1 - x0) * f64::from(i) / f64::from(steps);
        let b = x0 + (x1 - x0) * f64::from(i + 1) / f64::from(steps);
        let t = (f64::from(i) + 0.5) / f64::from(steps);
        pen.rect((a, y0, b, y1), style::sequential(t))?;
    }
    pen.outline((x0, y0, x1, y1), INK)?;
    for (x, label) in &l.scale_ticks {
        pen.line((*x, y1), (*x, y1 + 3.0), INK)?;
        pen.text(
            label,
            (*x, y1 + 4.0),
            Font::new(m.small).anchor(HPos::Center, VPos::Top),
        )?;
    }
    pen.left_label(&l.scale_title, Font::new(m.font))
}

pub fn strips<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    l: &StripsLayout,
    m: &Metrics,
) -> Outcome<DB> {
    let pen = Pen { area };
    pen.legend(&l.legend, m)?;
    pen.x_axis(&l.axis, m)?;
    if let Some(x) = l.threshold_x {
        pen.dashed((x, l.axis.y0), (x, l.axis.y1), INK)?;
    }
    for label in &l.labels {
        pen.right_label(label, m.font)?;
    }
    for p in &l.points {
        pen.dot((p.x, p.y), l.point_r, style::BLUE, 0.75)?;
    }
    for p in &l.markers {
        pen.diamond((p.x, p.y), l.marker_r, style::VERMILLION)?;
    }
    for v in &l.marker_values {
        pen.left_label(v, Font::new(m.small))?;
    }
    for note in &l.notes {
        pen.note(note, m)?;
    }
    Ok(())
}

/// A polyline, solid or dashed (`(on, off)` in pixels), `stroke` px wide.
fn polyline<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    points: &[(f64, f64)],
    color: Rgb,
    dash: Dash,
    stroke: u32,
) -> Outcome<DB> {
    let pts: Vec<(i32, i32)> = points.iter().map(|&(x, y)| (px(x), px(y))).collect();
    let style = rgb(color).stroke_width(stroke);
    match dash {
        None => area.draw(&PathElement::new(pts, style)),
        Some((on, off)) => area.draw(&DashedPathElement::new(pts, on, off, style)),
    }
}

/// A point marker of radius `r` centred on (x, y): filled with `fill`,
/// outlined in ink, so shapes differ even without colour.
fn marker<DB: DrawingBackend>(
    pen: &Pen<'_, DB>,
    (x, y): (f64, f64),
    r: f64,
    shape: Marker,
    fill: Rgb,
) -> Outcome<DB> {
    let poly = |pts: Vec<(f64, f64)>| -> Outcome<DB> {
        let pts: Vec<(i32, i32)> = pts.iter().map(|&(a, b)| (px(a), px(b))).collect();
        pen.area
            .draw(&Polygon::new(pts.clone(), rgb(fill).filled()))?;
        let mut closed = pts;
        if let Some(&first) = closed.first() {
            closed.push(first);
        }
        pen.area
            .draw(&PathElement::new(closed, rgb(INK).stroke_width(1)))
    };
    match shape {
        Marker::Circle => {
            let r = r.round().max(1.0) as u32;
            pen.area
                .draw(&Circle::new((px(x), px(y)), r, rgb(fill).filled()))?;
            pen.area
                .draw(&Circle::new((px(x), px(y)), r, rgb(INK).stroke_width(1)))
        }
        Marker::Square => {
            let s = r * 0.9;
            poly(vec![
                (x - s, y - s),
                (x + s, y - s),
                (x + s, y + s),
                (x - s, y + s),
            ])
        }
        Marker::TriangleUp => poly(vec![
            (x, y - r * 1.2),
            (x + r * 1.1, y + r * 0.8),
            (x - r * 1.1, y + r * 0.8),
        ]),
        Marker::TriangleDown => poly(vec![
            (x, y + r * 1.2),
            (x + r * 1.1, y - r * 0.8),
            (x - r * 1.1, y - r * 0.8),
        ]),
        Marker::Diamond => poly(vec![
            (x, y - r * 1.3),
            (x + r * 1.1, y),
            (x, y + r * 1.3),
            (x - r * 1.1, y),
        ]),
        Marker::Cross => {
            let s = r * 1.1;
            let style = rgb(fill).stroke_width(2);
            pen.area.draw(&PathElement::new(
                vec![(px(x - s), px(y - s)), (px(x + s), px(y + s))],
                style,
            ))?;
            pen.area.draw(&PathElement::new(
                vec![(px(x - s), px(y + s)), (px(x + s), px(y - s))],
                style,
            ))
        }
    }
}

fn placed<DB: DrawingBackend>(pen: &Pen<'_, DB>, t: &LineText, font: Font) -> Outcome<DB> {
    let h = if t.right { HPos::Right } else { HPos::Left };
    pen.text(&t.text, (t.x, t.y), font.anchor(h, VPos::Center))
}

/// The grid at the ticks, the axis lines, tick marks and labels on both
/// axes and the two axis titles of a plot box.
fn frame<DB: DrawingBackend>(pen: &Pen<'_, DB>, f: FrameRef<'_>, m: &Metrics) -> Outcome<DB> {
    for (x, _) in f.x_ticks {
        pen.line((*x, f.y0), (*x, f.y1), GRID)?;
    }
    for (y, _) in f.y_ticks {
        pen.line((f.x0, *y), (f.x1, *y), GRID)?;
    }
    pen.line((f.x0, f.y1), (f.x1, f.y1), INK)?;
    pen.line((f.x0, f.y0), (f.x0, f.y1), INK)?;
    for (x, label) in f.x_ticks {
        pen.line((*x, f.y1), (*x, f.y1 + 3.0), INK)?;
        pen.text(
            label,
            (*x, f.y1 + 5.0),
            Font::new(m.small).anchor(HPos::Center, VPos::Top),
        )?;
    }
    for (y, label) in f.y_ticks {
        pen.line((f.x0 - 3.0, *y), (f.x0, *y), INK)?;
        pen.text(
            label,
            (f.x0 - 5.0, *y),
            Font::new(m.small).anchor(HPos::Right, VPos::Center),
        )?;
    }
    pen.text(
        &f.x_title.text,
        (f.x_title.x, f.x_title.y),
        Font::new(m.font).anchor(HPos::Center, VPos::Top),
    )?;
    let mut y_title = Font::new(m.font).anchor(HPos::Center, VPos::Center);
    y_title.rotate = true;
    pen.text(&f.y_title.text, (f.y_title.x, f.y_title.y), y_title)
}

/// What [`frame`] draws, borrowed from a [`LinesLayout`] or a [`Frame`].
#[derive(Clone, Copy)]
struct FrameRef<'a> {
    x0: f64,
    x1: f64,
    y0: f64,
    y1: f64,
    x_ticks: &'a [(f64, String)],
    y_ticks: &'a [(f64, String)],
    x_title: &'a LineText,
    y_title: &'a LineText,
}

impl<'a> From<&'a Frame> for FrameRef<'a> {
    fn from(f: &'a Frame) -> Self {
        FrameRef {
            x0: f.x0,
            x1: f.x1,
            y0: f.y0,
            y1: f.y1,
            x_ticks: &f.x_ticks,
            y_ticks: &f.y_ticks,
            x_title: &f.x_title,
            y_title: &f.y_title,
        }
    }
}

/// Legend entries with a line sample and its marker, then the label.
fn line_legend<DB: DrawingBackend>(
    pen: &Pen<'_, DB>,
    legend: &[LegendLine],
    marker_r: f64,
    m: &Metrics,
) -> Outcome<DB> {
    for e in legend {
        polyline(
            pen.area,
            &[(e.x, e.y), (e.x + e.sample, e.y)],
            e.color,
            e.dash,
            2,
        )?;
        marker(
            pen,
            (e.x + e.sample / 2.0, e.y),
            marker_r,
            e.marker,
            e.color,
        )?;
        pen.text(
            &e.label,
            (e.x + e.sample + 4.0, e.y),
            Font::new(m.font).anchor(HPos::Left, VPos::Center),
        )?;
    }
    Ok(())
}

/// A line chart (threshold sweeps): grid, axes, the configured threshold,
/// one line per model with its markers, the legend.
pub fn lines<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    l: &LinesLayout,
    m: &Metrics,
) -> Outcome<DB> {
    let pen = Pen { area };
    frame(
        &pen,
        FrameRef {
            x0: l.x0,
            x1: l.x1,
            y0: l.y0,
            y1: l.y1,
            x_ticks: &l.x_ticks,
            y_ticks: &l.y_ticks,
            x_title: &l.x_title,
            y_title: &l.y_title,
        },
        m,
    )?;
    if let Some((x, label)) = &l.threshold {
        pen.dashed((*x, l.y0), (*x, l.y1), MUTED)?;
        placed(&pen, label, Font::new(m.small).color(MUTED))?;
    }
    let traces: Vec<Trace<'_>> = l
        .lines
        .iter()
        .map(|line| Trace {
            points: &line.points,
            marks: &line.points,
            color: line.color,
            dash: line.dash,
            marker: line.marker,
        })
        .collect();
    traces_and_legend(
        &pen,
        &traces,
        l.marker_r,
        &l.legend,
        (&l.notes, l.note_color),
        m,
    )
}

/// One model's line of a line chart: the path, where its markers go, its
/// look.
struct Trace<'a> {
    points: &'a [(f64, f64)],
    marks: &'a [(f64, f64)],
    color: Rgb,
    dash: Dash,
    marker: Marker,
}

/// What the line charts (sweeps, risk–coverage) draw after their frame:
/// each trace's line (when it has two points), then every marker over the
/// lines, the line legend and the notes in italics.
fn traces_and_legend<DB: DrawingBackend>(
    pen: &Pen<'_, DB>,
    traces: &[Trace<'_>],
    marker_r: f64,
    legend: &[LegendLine],
    (notes, note_color): (&[LineText], Rgb),
    m: &Metrics,
) -> Outcome<DB> {
    for t in traces {
        if t.points.len() > 1 {
            polyline(pen.area, t.points, t.color, t.dash, 2)?;
        }
    }
    for t in traces {
        for &p in t.marks {
            marker(pen, p, marker_r, t.marker, t.color)?;
        }
    }
    line_legend(pen, legend, marker_r, m)?;
    italic_notes(pen, notes, note_color, m)
}

/// A chart's notes, small and in italics.
fn italic_notes<DB: DrawingBackend>(
    pen: &Pen<'_, DB>,
    notes: &[LineText],
    color: Rgb,
    m: &Metrics,
) -> Outcome<DB> {
    for note in notes {
        let mut f = Font::new(m.small).color(color);
        f.italic = true;
        placed(pen, note, f)?;
    }
    Ok(())
}

/// A reliability diagram: grid and axes, one bar per non-empty bin with
/// its count above it, the dashed diagonal of perfect calibration, the
/// legend.
pub fn reliability<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    l: &ReliabilityLayout,
    m: &Metrics,
) -> Outcome<DB> {
    let pen = Pen { area };
    frame(&pen, (&l.frame).into(), m)?;
    for b in &l.bars {
        if b.y1 - b.y0 >= 1.0 {
            pen.rect((b.x0, b.y0, b.x1, b.y1), l.fill)?;
            pen.outline((b.x0, b.y0, b.x1, b.y1), INK)?;
        } else {
            // Accuracy 0: the bin is there, with nothing right.
            pen.line((b.x0, b.y1), (b.x1, b.y1), INK)?;
        }
    }
    // The diagonal over the bars, under the counts.
    let ((x0, y0), (x1, y1)) = l.diagonal;
    polyline(area, &[(x0, y0), (x1, y1)], INK, Some((6, 4)), 1)?;
    for b in &l.bars {
        pen.rect(b.count_box, WHITE)?;
        let mut f = Font::new(l.count_px);
        if l.counts_rotated {
            f.rotate = true;
            f = f.anchor(HPos::Left, VPos::Center);
        } else {
            f = f.anchor(HPos::Center, VPos::Bottom);
        }
        pen.text(&b.count, (b.count_x, b.count_y), f)?;
    }
    pen.legend(&l.legend, m)?;
    italic_notes(&pen, &l.notes, l.note_color, m)
}

/// Risk–coverage curves: grid and axes, one step line per model in its
/// look with a few markers, the legend.
pub fn risk_coverage<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    l: &RiskCoverageLayout,
    m: &Metrics,
) -> Outcome<DB> {
    let pen = Pen { area };
    frame(&pen, (&l.frame).into(), m)?;
    let traces: Vec<Trace<'_>> = l
        .curves
        .iter()
        .map(|c| Trace {
            points: &c.points,
            marks: &c.marks,
            color: c.color,
            dash: c.dash,
            marker: c.marker,
        })
        .collect();
    traces_and_legend(
        &pen,
        &traces,
        l.marker_r,
        &l.legend,
        (&l.notes, l.note_color),
        m,
    )
}

/// Renders with `draw` on a white `width` × `height` SVG and returns the
/// document, with `title` as its `<title>`. On a drawing error the SVG says
/// so instead; this never panics.
pub fn svg<F>(width: u32, height: u32, title: &str, draw: F) -> String
where
    F: FnOnce(&DrawingArea<SVGBackend<'_>, Shift>) -> Outcome<SVGBackend<'static>>,
{
    let (width, height) = (width.max(1), height.max(1));
    let mut buf = String::new();
    let result = {
        let root = SVGBackend::with_string(&mut buf, (width, height)).into_drawing_area();
        root.fill(&rgb(WHITE))
            .and_then(|()| draw(&root))
            .and_then(|()| root.present())
    };
    match result {
        Ok(()) => with_title(buf, title),
        Err(e) => error_svg(width, height, &format!("Chart could not be drawn: {e}")),
    }
}

/// Inserts `<title>` right after the opening `<svg …>` tag.
fn with_title(mut svg: String, title: &str) -> String {
    let title = sanitize(title);
    if title.is_empty() {
        return svg;
    }
    if let Some(end) = svg.find('>') {
        svg.insert_str(end + 1, &format!("\n<title>{}</title>", xml_escape(&title)));
    }
    svg
}

/// A standalone SVG with one line of text.
pub fn error_svg(width: u32, height: u32, message: &str) -> String {
    let (width, height) = (width.max(1), height.max(1));
    format!(
        "<svg width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" \
         xmlns=\"http://www.w3.org/2000/svg\">\n\
         <rect x=\"0\" y=\"0\" width=\"{width}\" height=\"{height}\" fill=\"#FFFFFF\"/>\n\
         <text x=\"8\" y=\"20\" font-family=\"{FAMILY}\" font-size=\"12\" fill=\"#222222\">{}</text>\n\
         </svg>\n",
        xml_escape(&sanitize(message))
    )
}

#[cfg(test)]
mod tests;
