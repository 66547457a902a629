//! Drawing a large report in stages (issue 34: the page never blocks).
//!
//! Owns [`Pace`] (whether a report is drawn at once or in stages, and the
//! height kept while it is) and [`Later`] (a section drawn `step` paints
//! after the report arrived). A report of more than [`STAGED_ROWS`]
//! per-field rows draws its overview in the task that decoded it and each
//! later section in a frame of its own, so no single task draws them all;
//! a smaller one (the built-in example, most real data) is drawn at once,
//! as before. While the stages draw, the report keeps at least the height
//! it had, so a re-evaluation does not move what the reader is looking
//! at. Depends on `leptos` and `super::browser` (the paint timing, the
//! held height) only.

use leptos::html::Section;
use leptos::prelude::*;

/// Per-field rows over all models (`ModelReport::fields`) above which a
/// report is drawn in stages. A judgment between two measured ends: the
/// app bench's reports (a few dozen rows) drew at once in tasks of at most
/// about 60 ms, the wide benchmark's 30,003 rows (10,001 fields × 3
/// models) in one task of about 0.37 s.
pub const STAGED_ROWS: usize = 2_000;

/// How one report is drawn: at once, or in stages with the report's
/// height held meanwhile.
#[derive(Clone, Copy)]
pub struct Pace {
    staged: bool,
    /// The element that holds the report's sections (the page's content
    /// column).
    holder: NodeRef<Section>,
}

impl Pace {
    /// Pace for a report with `rows` per-field rows in all, drawn into
    /// `holder`. Called before the previous report's sections are
    /// replaced: a staged report holds their height at once (on the
    /// element itself, so that no layout in between can see the page
    /// shorter and cut the scroll position back) until its last stage.
    pub fn new(rows: usize, holder: NodeRef<Section>) -> Pace {
        let staged = rows > STAGED_ROWS;
        match holder.get_untracked() {
            Some(el) if staged => super::browser::hold_height(&el),
            _ => release(holder),
        }
        Pace { staged, holder }
    }
}

/// Ends a held height (after the last stage, or when no report is shown).
pub fn release(holder: NodeRef<Section>) {
    if let Some(el) = holder.get_untracked() {
        super::browser::release_height(&el);
    }
}

/// Runs `f` after `paints` more paints (at once for 0), each wait in a
/// task of its own.
fn after_paints(paints: u32, f: impl FnOnce() + 'static) {
    if paints == 0 {
        f();
    } else {
        super::browser::after_next_paint(move || after_paints(paints - 1, f));
    }
}

/// Draws `children` at once when `pace` is not staged; otherwise `step`
/// paints after the report arrived (`last` ends the held height once
/// drawn). A report replaced before then drops the wait harmlessly: the
/// signal it would set is gone.
#[component]
pub fn Later(
    pace: Pace,
    step: u32,
    #[prop(optional)] last: bool,
    children: ChildrenFn,
) -> impl IntoView {
    if !pace.staged {
        // Drawn as if not wrapped: no signal, no reactive closure.
        return children().into_any();
    }
    let ready = RwSignal::new(false);
    after_paints(step, move || {
        // `Some` back: this report was replaced meanwhile.
        if ready.try_set(true).is_none() && last {
            // One more paint: the last section is laid out by then.
            super::browser::after_next_paint(move || release(pace.holder));
        }
    });
    (move || ready.get().then(|| children())).into_any()
}
