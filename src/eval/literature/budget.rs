//! How much work one document's ANLS\* or nTED may take ([`MAX_WORK`])
//! and the countdown the scorers spend it from ([`Budget`], failing with
//! [`TooLarge`]).
//!
//! Owns: the budget. Used by `anls_star` and `donut` beside it and
//! re-exported by `literature`; depends on nothing.

/// The most work one document's ANLS\* or nTED may take, in elementary
/// steps (a table cell, one matrix cell of a Hungarian scan, one
/// character pair of a Levenshtein distance) and bytes of memory held
/// alike: 2×10⁸. A document over it — a list of thousands of items, or
/// thousands of nodes on both sides — is not scored ([`TooLarge`]): its
/// value and the dataset's are `null` and a warning names it, rather than
/// stalling the CLI or the page or exhausting its memory. An invoice with
/// 30 line items takes under 1 % of it (tested).
pub const MAX_WORK: u64 = 200_000_000;

/// A document whose ANLS\* or nTED would take more than [`MAX_WORK`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooLarge;

/// What is left of a document's [`MAX_WORK`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget(pub(super) u64);

impl Budget {
    /// A budget of `units`.
    pub fn new(units: u64) -> Budget {
        Budget(units)
    }

    /// Spends `units`, or fails (spending nothing) when fewer are left.
    pub fn spend(&mut self, units: u64) -> Result<(), TooLarge> {
        self.0 = self.0.checked_sub(units).ok_or(TooLarge)?;
        Ok(())
    }
}
