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
//! at. Depends on `leptos` and `super::browser` (the paint timing) only.

use leptos::prelude::*;

/// Per-field rows over all models (`ModelReport::fields`) above which a
/// report is drawn in stages. The wide benchmark's 10,000 fields × 3
/// models blocked the page for about 0.37 s drawn at once; 2,000 rows draw
/// in well under a frame's budget of work.
pub const STAGED_ROWS: usize = 2_000;

/// How one report is drawn: at once, or in stages with the report's
/// height held meanwhile.
#[derive(Clone, Copy)]
pub struct Pace {
    staged: bool,
    /// The report's least height in pixels while its stages draw.
    hold: RwSignal<Option<i32>>,
}

impl Pace {
    /// Pace for a report with `rows` per-field rows in all; `hold` is the
    /// page's report-height signal and `height` the height the previous
    /// report had on the page (kept until the last stage is drawn).
    pub fn new(rows: usize, hold: RwSignal<Option<i32>>, height: Option<i32>) -> Pace {
        let staged = rows > STAGED_ROWS;
        hold.try_set(if staged {
            height.filter(|&h| h > 0)
        } else {
            None
        });
        Pace { staged, hold }
    }

    /// Ends the held height (after the last stage).
    fn release(self) {
        self.hold.try_set(None);
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
    let ready = RwSignal::new(!pace.staged);
    if pace.staged {
        after_paints(step, move || {
            // `Some` back: this report was replaced meanwhile.
            if ready.try_set(true).is_none() && last {
                // One more paint: the last section is laid out by then.
                super::browser::after_next_paint(move || pace.release());
            }
        });
    }
    move || ready.get().then(|| children())
}
