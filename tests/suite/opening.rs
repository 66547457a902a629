//! The example's opening answers the app ships (`assets/opening/`, which
//! Trunk copies beside the page) are what `service::opening_answers` makes
//! from today's code, byte for byte: the page draws them before its
//! evaluation worker starts, so they must be the worker's own first
//! answers. Kept as files rather than made at every build so that building
//! the app compiles no native code.
//!
//! `UPDATE_GOLDEN=1 cargo test --test tests opening` rewrites them.

use fieldscope::protocol::{decode, encode, Answer, OPENING_DETAILS_FILE, OPENING_FILE};
use std::path::PathBuf;

#[test]
fn the_shipped_opening_answers_are_what_the_worker_answers_first() {
    let answers = fieldscope::service::opening_answers();
    // The file list, then the example's report (not a failure).
    assert_eq!(answers.first.len(), 2);
    assert!(matches!(answers.first[0], Answer::Files { .. }));
    assert!(matches!(answers.first[1], Answer::Report { .. }));
    assert!(!answers.details.is_empty());
    assert!(answers
        .details
        .iter()
        .all(|a| matches!(a, Answer::Details { .. })));

    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/opening");
    let update = super::common::update_golden();
    for (name, answers) in [
        (OPENING_FILE, &answers.first),
        (OPENING_DETAILS_FILE, &answers.details),
    ] {
        let path = dir.join(name);
        let bytes = encode(answers);
        if update {
            std::fs::write(&path, &bytes).unwrap();
            continue;
        }
        let shipped =
            std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        // What the page decodes is what the worker would send.
        let read: Vec<Answer> =
            decode(&shipped).unwrap_or_else(|e| panic!("{} does not decode: {e}", path.display()));
        assert_eq!(read.len(), answers.len(), "{}", path.display());
        assert!(
            shipped == bytes,
            "{} ({} bytes) is not what service::opening_answers makes now ({} bytes): the \
             report, the protocol or the built-in example changed. Run \
             `UPDATE_GOLDEN=1 cargo test --test tests opening` and commit the files.",
            path.display(),
            shipped.len(),
            bytes.len()
        );
    }
}
