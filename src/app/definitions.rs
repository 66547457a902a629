//! The report's "Definitions" card: every outcome, score and rate in
//! words, at the end of the report. Static text; depends on `leptos` only.

use leptos::prelude::*;

#[component]
pub fn Definitions() -> impl IntoView {
    view! {
        <section class="card definitions" aria-labelledby="defs-heading">
            <h2 id="defs-heading">"Definitions"</h2>
            <dl>
                <dt>"Outcomes"</dt><dd>"Per (document, field): exact, partial (similar strings), incorrect, missed (truth present, prediction absent), spurious (truth absent, prediction present), true negative (both absent). Absent = missing, null, [], or an absent value such as NOT_FOUND."</dd>
                <dt>"Strict scores"</dt><dd>"TP = exact; FP = incorrect + partial + spurious; FN = missed (+ incorrect + partial under [\"fp\",\"fn\"]). Precision = TP/(TP+FP), recall = TP/(TP+FN), F1 = 2PR/(P+R), accuracy = (TP+TN)/N."</dd>
                <dt>"Partial credit"</dt><dd>"credit = exact + 0.5·partial; M_total = Σ credit; precision = credit/|Pred|, recall = credit/|Truth|."</dd>
                <dt>"Averages"</dt><dd>"Micro pools counts over everything; macro over documents averages per-document scores (a document with nothing to find and nothing predicted scores P = R = 1); macro over fields averages per-field scores."</dd>
                <dt>"CER"</dt><dd>"Levenshtein edits / truth characters over normalised strings; pooled CER = Σ edits / Σ characters."</dd>
                <dt>"Rates"</dt><dd>"Hallucination = spurious/(spurious + true negatives); abstention = missed/|Truth|."</dd>
            </dl>
        </section>
    }
}
