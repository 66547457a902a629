//! The look shared by every chart: page sizes, font sizes and the
//! colour-blind-safe palettes.
//!
//! Owns: the numbers that make the charts fit a paper — 96 px per inch,
//! sizes in points converted to pixels — and the Okabe–Ito colours with the
//! order in which they are used. Orders are chosen so that neighbouring
//! series also differ in lightness, which keeps a chart readable when it is
//! printed in greyscale.

use super::options::{ChartOptions, PaperSize};

/// An sRGB colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// CIE L* lightness (0 black … 100 white).
    pub fn lightness(self) -> f64 {
        let y = self.luminance();
        if y > 0.008856 {
            116.0 * y.cbrt() - 16.0
        } else {
            903.3 * y
        }
    }

    /// WCAG relative luminance (0 black … 1 white).
    pub fn luminance(self) -> f64 {
        fn lin(c: u8) -> f64 {
            let c = f64::from(c) / 255.0;
            if c <= 0.04045 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        }
        0.2126 * lin(self.0) + 0.7152 * lin(self.1) + 0.0722 * lin(self.2)
    }

    /// Black or white text, whichever has the higher contrast ratio on this
    /// colour.
    pub fn ink(self) -> Rgb {
        let l = self.luminance();
        let on_black = (l + 0.05) / 0.05;
        let on_white = 1.05 / (l + 0.05);
        if on_white > on_black {
            WHITE
        } else {
            BLACK
        }
    }

    /// The colour `t` of the way from `self` to `other` (sRGB, 0 ≤ t ≤ 1).
    pub fn mix(self, other: Rgb, t: f64) -> Rgb {
        let t = if t.is_finite() {
            t.clamp(0.0, 1.0)
        } else {
            0.0
        };
        let m = |a: u8, b: u8| (f64::from(a) + (f64::from(b) - f64::from(a)) * t).round() as u8;
        Rgb(m(self.0, other.0), m(self.1, other.1), m(self.2, other.2))
    }
}

pub const BLACK: Rgb = Rgb(0x00, 0x00, 0x00);
pub const WHITE: Rgb = Rgb(0xFF, 0xFF, 0xFF);
/// Okabe–Ito.
pub const ORANGE: Rgb = Rgb(0xE6, 0x9F, 0x00);
pub const SKY_BLUE: Rgb = Rgb(0x56, 0xB4, 0xE9);
pub const BLUISH_GREEN: Rgb = Rgb(0x00, 0x9E, 0x73);
pub const YELLOW: Rgb = Rgb(0xF0, 0xE4, 0x42);
pub const BLUE: Rgb = Rgb(0x00, 0x72, 0xB2);
pub const VERMILLION: Rgb = Rgb(0xD5, 0x5E, 0x00);
pub const REDDISH_PURPLE: Rgb = Rgb(0xCC, 0x79, 0xA7);
/// Axis lines and text.
pub const INK: Rgb = Rgb(0x22, 0x22, 0x22);
/// Grid lines.
pub const GRID: Rgb = Rgb(0xDD, 0xDD, 0xDD);
/// Notes such as "no line items".
pub const MUTED: Rgb = Rgb(0x66, 0x66, 0x66);

/// Series colours in the order they are given out. Lightness L* of the
/// first five: 46, 71, 0, 89, 61 — any two of the first four differ by at
/// least 18, so bars stay apart in greyscale.
pub const SERIES: [Rgb; 8] = [
    BLUE,
    ORANGE,
    BLACK,
    YELLOW,
    REDDISH_PURPLE,
    BLUISH_GREEN,
    SKY_BLUE,
    VERMILLION,
];

/// The six outcomes of SPEC §2.3 in report order, dark to light
/// (L* 0, 46, 61, 71, 89, 100): exact is black, true negative white with an
/// outline, so the order survives greyscale printing.
pub const OUTCOMES: [Rgb; 6] = [BLACK, BLUE, REDDISH_PURPLE, ORANGE, YELLOW, WHITE];

/// The seven error types of SPEC §9.1 in report order: the five that
/// split a wrong value in the colours the outcomes leave free (sky blue,
/// bluish green, blue, reddish purple, vermillion), then missed and
/// spurious in their outcome colours (orange, yellow).
pub const ERRORS: [Rgb; 7] = [
    SKY_BLUE,
    BLUISH_GREEN,
    BLUE,
    REDDISH_PURPLE,
    VERMILLION,
    ORANGE,
    YELLOW,
];

/// The sequential scale of the heatmap: a very light blue tint at 0 (so
/// that a 0 still reads as a filled cell), sky blue at 0.8, blue at 1 —
/// one hue family, monotone in lightness (L* 97 → 70 → 46), with more of
/// the range spent above 0.5 where extraction scores usually are.
pub fn sequential(t: f64) -> Rgb {
    const STOPS: [(f64, Rgb); 4] = [
        (0.0, Rgb(0xF2, 0xF8, 0xFD)),
        (0.5, Rgb(0xAB, 0xD9, 0xF4)),
        (0.8, SKY_BLUE),
        (1.0, BLUE),
    ];
    let t = if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        0.0
    };
    for w in STOPS.windows(2) {
        let ((a, ca), (b, cb)) = (w[0], w[1]);
        if t <= b {
            return ca.mix(cb, (t - a) / (b - a));
        }
    }
    BLUE
}

/// Pixels per inch of the SVG user unit (CSS).
pub const PX_PER_INCH: f64 = 96.0;

/// Sizes in pixels derived from the options.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Metrics {
    /// Chart width.
    pub width: u32,
    /// Axis titles and legends.
    pub font: f64,
    /// Tick labels, values printed on bars and in cells.
    pub small: f64,
    /// Outer padding.
    pub pad: f64,
}

impl Metrics {
    pub fn new(o: &ChartOptions) -> Metrics {
        let inches = match o.size {
            PaperSize::SingleColumn => 3.3,
            PaperSize::FullWidth => 7.0,
        };
        let pt = if o.font_pt.is_finite() {
            o.font_pt.clamp(4.0, 24.0)
        } else {
            ChartOptions::default().font_pt
        };
        let font = pt * PX_PER_INCH / 72.0;
        Metrics {
            width: (inches * PX_PER_INCH).round() as u32,
            font,
            small: font * 0.9,
            pad: (font * 0.5).max(4.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcome_palette_goes_from_dark_to_light() {
        let l: Vec<f64> = OUTCOMES.iter().map(|c| c.lightness()).collect();
        assert!(l.windows(2).all(|w| w[1] - w[0] >= 9.0), "{l:?}");
    }

    #[test]
    fn first_four_series_differ_in_lightness() {
        let four = &SERIES[..4];
        for (a, x) in four.iter().enumerate() {
            for y in &four[..a] {
                let d = (x.lightness() - y.lightness()).abs();
                assert!(d >= 18.0, "{x:?} {y:?} {d}");
            }
        }
    }

    #[test]
    fn sequential_is_monotone_in_lightness() {
        let l: Vec<f64> = (0..=10)
            .map(|i| sequential(f64::from(i) / 10.0).lightness())
            .collect();
        assert!(l.windows(2).all(|w| w[1] < w[0]), "{l:?}");
    }

    #[test]
    fn sizes_follow_the_paper() {
        let single = ChartOptions {
            size: PaperSize::SingleColumn,
            ..ChartOptions::default()
        };
        assert_eq!(Metrics::new(&single).width, 317);
        let full = Metrics::new(&ChartOptions::default());
        assert_eq!(full.width, 672);
        assert!((full.font - 8.5 * 96.0 / 72.0).abs() < 1e-12);
    }
}
