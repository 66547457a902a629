//! A character-level diff between a truth and a prediction, as the app's
//! document view shows it (`<del>`/`<ins>` runs). Pure; depends on std.

/// One run of a character-level diff between a truth and a prediction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DiffPart {
    Same(String),
    /// In the truth, missing from the prediction.
    Deleted(String),
    /// In the prediction, not in the truth.
    Inserted(String),
}

/// A character-level diff (Unicode scalar values) of two texts, for showing
/// near misses; adjacent runs of one kind are merged.
///
/// Myers' algorithm with `similar`'s compaction and replace hooks, exactly
/// what `similar::TextDiff::from_chars` computes (a test compares the two),
/// called directly so that the browser app carries one diff algorithm
/// instead of all of `TextDiff`'s (about 100 KB of WebAssembly).
pub fn char_diff(truth: &str, prediction: &str) -> Vec<DiffPart> {
    use similar::algorithms::{myers, Capture, Compact, Replace};
    let old: Vec<char> = truth.chars().collect();
    let new: Vec<char> = prediction.chars().collect();
    let mut hook = Compact::new(Replace::new(Capture::new()), &old[..], &new[..]);
    // Capture never fails (its error type is `Infallible`).
    let Ok(()) = myers::diff(&mut hook, &old[..], 0..old.len(), &new[..], 0..new.len());
    let text = |chars: &[char]| chars.iter().collect::<String>();
    let mut parts: Vec<DiffPart> = Vec::new();
    let mut push = |part: DiffPart| match (parts.last_mut(), part) {
        (Some(DiffPart::Same(a)), DiffPart::Same(b))
        | (Some(DiffPart::Deleted(a)), DiffPart::Deleted(b))
        | (Some(DiffPart::Inserted(a)), DiffPart::Inserted(b)) => a.push_str(&b),
        (_, part) => parts.push(part),
    };
    for op in hook.into_inner().into_inner().into_ops() {
        let (tag, o, n) = op.as_tag_tuple();
        let (o, n) = (
            old.get(o).unwrap_or_default(),
            new.get(n).unwrap_or_default(),
        );
        match tag {
            similar::DiffTag::Equal => push(DiffPart::Same(text(o))),
            similar::DiffTag::Delete => push(DiffPart::Deleted(text(o))),
            similar::DiffTag::Insert => push(DiffPart::Inserted(text(n))),
            // A replacement reads as its deletion, then its insertion.
            similar::DiffTag::Replace => {
                push(DiffPart::Deleted(text(o)));
                push(DiffPart::Inserted(text(n)));
            }
        }
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn char_diff_marks_insertions_and_deletions() {
        assert_eq!(
            char_diff("Invoice 1234", "Invoice 1243"),
            vec![
                DiffPart::Same("Invoice 12".into()),
                DiffPart::Inserted("4".into()),
                DiffPart::Same("3".into()),
                DiffPart::Deleted("4".into()),
            ]
        );
        assert_eq!(char_diff("", "x"), vec![DiffPart::Inserted("x".into())]);
        assert_eq!(char_diff("é𝔸", "é𝔸"), vec![DiffPart::Same("é𝔸".into())]);
    }

    /// `char_diff` against `similar::TextDiff::from_chars` (what it
    /// replaces) on random texts over a small alphabet, short and long
    /// (over 100 characters, where `TextDiff` takes other paths).
    #[test]
    fn char_diff_equals_textdiff_from_chars() {
        fn reference(truth: &str, prediction: &str) -> Vec<DiffPart> {
            let diff = similar::TextDiff::from_chars(truth, prediction);
            let mut parts: Vec<DiffPart> = Vec::new();
            for change in diff.iter_all_changes() {
                let text = change.value().to_string();
                let part = match change.tag() {
                    similar::ChangeTag::Equal => DiffPart::Same(text),
                    similar::ChangeTag::Delete => DiffPart::Deleted(text),
                    similar::ChangeTag::Insert => DiffPart::Inserted(text),
                };
                match (parts.last_mut(), part) {
                    (Some(DiffPart::Same(a)), DiffPart::Same(b))
                    | (Some(DiffPart::Deleted(a)), DiffPart::Deleted(b))
                    | (Some(DiffPart::Inserted(a)), DiffPart::Inserted(b)) => a.push_str(&b),
                    (_, part) => parts.push(part),
                }
            }
            parts
        }
        let mut rng = fastrand::Rng::with_seed(7);
        let alphabet = ['a', 'b', 'c', ' ', '1', 'é', '𝔸'];
        let mut random = |len: usize| -> String {
            (0..len)
                .map(|_| alphabet[rng.usize(..alphabet.len())])
                .collect()
        };
        for round in 0..3000 {
            let max = if round % 10 == 0 { 400 } else { 30 };
            let truth = random(round % (max + 1));
            let mut prediction: Vec<char> = truth.chars().collect();
            // Edits of a copy, so that most pairs are near misses.
            for _ in 0..(round % 7) {
                let at = (round * 31 + prediction.len()) % (prediction.len() + 1);
                match round % 3 {
                    0 => prediction.insert(at, 'x'),
                    1 if at < prediction.len() => {
                        prediction.remove(at);
                    }
                    _ => prediction.insert(at, 'é'),
                }
            }
            let prediction: String = if round % 5 == 4 {
                random(round % (max + 1))
            } else {
                prediction.into_iter().collect()
            };
            assert_eq!(
                char_diff(&truth, &prediction),
                reference(&truth, &prediction),
                "{truth:?} vs {prediction:?}"
            );
        }
    }
}
