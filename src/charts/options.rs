//! What a chart is asked for: which average it shows ([`Average`]), the
//! paper width ([`PaperSize`]) and the font size ([`ChartOptions`]).
//!
//! Owns: the options' types and defaults. Plain data: used by every chart
//! module beside it and re-exported by `charts`; depends on nothing.

/// Which average of precision, recall, F1 and accuracy a chart shows
/// (SPEC §3.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Average {
    /// Counts pooled over all documents and fields.
    Micro,
    /// Mean over documents (M4's table).
    MacroDocuments,
    /// Mean over fields (scikit-learn's macro average).
    MacroFields,
}

/// Figure width for a paper.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PaperSize {
    /// One column of a two-column paper: 3.3 in (317 px).
    SingleColumn,
    /// The text width of a one-column paper or a `figure*`: 7 in (672 px).
    FullWidth,
}

/// How a chart is drawn.
#[derive(Clone, Debug)]
pub struct ChartOptions {
    /// The average shown by `charts::metric_bars`. Default
    /// [`Average::MacroDocuments`]. The other charts show pooled numbers and
    /// say so in their captions.
    pub average: Average,
    /// Default [`PaperSize::FullWidth`].
    pub size: PaperSize,
    /// Font size of axis titles, labels and legends in points (1 pt = 96/72
    /// px); tick labels and printed values are 90 % of it. Default 8.5;
    /// values outside 4–24 are clamped.
    pub font_pt: f64,
}

impl Default for ChartOptions {
    fn default() -> Self {
        ChartOptions {
            average: Average::MacroDocuments,
            size: PaperSize::FullWidth,
            font_pt: 8.5,
        }
    }
}
