//! SPEC §9.2's slice discovery: is a model's micro F1 lower on a slice
//! than on the rest of the documents?
//!
//! Owns: the test of each slice ([`test_slices`]); the parent applies
//! Holm and decides which slices are weak. Pure; depends on
//! `bootstrap` (its generator and [`draw_weights`]), `counts`
//! ([`strict_scores`]) and `config`.
//!
//! **Tested slices.** A slice is tested when it has at least
//! `slices.min_documents` documents and at least that many documents lie
//! outside it (so which slices are tested does not depend on the model).
//!
//! **Statistic.** `δ = F1(rest) − F1(slice)`, each the micro F1 (SPEC
//! §3.1–§3.2, [`strict_scores`]) of the documents' counts summed.
//!
//! **Bootstrap.** Resample `b` (of `B = slices.resamples`) draws `n_in`
//! of the slice's documents and then `n_out` of the rest's, each
//! uniformly with replacement by [`draw_weights`] (the statistics' own
//! `fastrand` generator, `u64` draws: the same on every platform, wasm32
//! included), and computes `δ_b` from the drawn documents' counts summed
//! (`Σ wᵢ·countsᵢ`, integers, so exact). `p = (1 + #{b : δ_b ≤ 0}) /
//! (B + 1)`. Every model is resampled with the same draws (a paired
//! design, as the statistics' bootstrap does).
//!
//! **Seeds.** Each slice has its own generator, seeded
//! [`named_seed`]`(seed, key + "\0" + value's JSON text)` (`seed` the
//! statistics' default, 1), so a slice's p-value depends neither on the
//! other slices (nor on the other keys of `slice_by`) nor on how many
//! threads test them: the slices are tested in parallel on the caller's
//! rayon pool (native only), one thread on wasm32, with the same numbers.
//!
//! **Cost.** Per tested slice and resample, `n` draws and, per model,
//! `n` weighted sums of six `u64`s: O(S · B · n · M) integer work, no
//! outcome touched (the bench `benches/slices.rs` measures 10,000
//! documents × 3 models × 50 slices × 1,000 resamples).

use super::Slice;
use crate::eval::bootstrap::{draw_weights, named_seed, BootstrapOptions};
use crate::eval::config::Config;
use crate::eval::counts::strict_scores;
use crate::eval::report::Counts;

/// The settings of the test (SPEC §9.2, config `slices`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    pub min_documents: usize,
    pub resamples: usize,
    pub alpha: f64,
    /// The statistics' default seed ([`BootstrapOptions`]).
    pub seed: u64,
}

impl Settings {
    /// From the config's `slices` section.
    pub fn of(config: &Config) -> Settings {
        Settings {
            min_documents: config.slices.min_documents,
            resamples: config.slices.resamples,
            alpha: config.slices.alpha,
            seed: BootstrapOptions::default().seed,
        }
    }
}

/// A tested slice's δ and p-value (before Holm).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tested {
    pub delta: f64,
    pub p_value: f64,
}

/// Whether a slice of `inside` documents out of `documents` is tested.
pub fn is_tested(inside: usize, documents: usize, min_documents: usize) -> bool {
    inside >= min_documents && documents - inside.min(documents) >= min_documents
}

/// Per model (in the order of `counts`, each model's documents' counts in
/// document order, `documents` of them), per slice: its test, `None` when
/// not tested.
pub fn test_slices(
    slices: &[Slice],
    counts: &[&[Counts]],
    documents: usize,
    settings: &Settings,
    config: &Config,
) -> Vec<Vec<Option<Tested>>> {
    let work = |slice: &Slice| -> Vec<Option<Tested>> {
        if !is_tested(slice.documents.len(), documents, settings.min_documents) {
            return vec![None; counts.len()];
        }
        let name = format!("{}\0{}", slice.key, slice.value);
        let seed = named_seed(settings.seed, &name);
        test_one(seed, &slice.documents, counts, documents, settings, config)
            .into_iter()
            .map(Some)
            .collect()
    };
    #[cfg(not(target_arch = "wasm32"))]
    let per_slice: Vec<Vec<Option<Tested>>> = {
        use rayon::prelude::*;
        slices.par_iter().map(work).collect()
    };
    #[cfg(target_arch = "wasm32")]
    let per_slice: Vec<Vec<Option<Tested>>> = slices.iter().map(work).collect();
    (0..counts.len())
        .map(|m| per_slice.iter().map(|s| s[m]).collect())
        .collect()
}

/// The test of a slice (documents `inside`, ascending; its generator's
/// seed `seed`) for every model.
fn test_one(
    seed: u64,
    inside: &[u32],
    counts: &[&[Counts]],
    documents: usize,
    settings: &Settings,
    config: &Config,
) -> Vec<Tested> {
    let mut is_in = vec![false; documents];
    for &d in inside {
        if let Some(slot) = is_in.get_mut(d as usize) {
            *slot = true;
        }
    }
    // Each model's counts inside and outside, gathered contiguously.
    let split: Vec<(Vec<Counts>, Vec<Counts>)> = counts
        .iter()
        .map(|c| {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            for (d, x) in c.iter().enumerate().take(documents) {
                if is_in[d] {
                    a.push(*x);
                } else {
                    b.push(*x);
                }
            }
            (a, b)
        })
        .collect();
    let f1 = |c: &Counts| strict_scores(c, config).f1;
    let observed: Vec<f64> = split
        .iter()
        .map(|(a, b)| f1(&b.iter().copied().sum()) - f1(&a.iter().copied().sum()))
        .collect();
    let (n_in, n_out) = split.first().map_or((0, 0), |(a, b)| (a.len(), b.len()));
    let mut rng = fastrand::Rng::with_seed(seed);
    let (mut w_in, mut w_out) = (vec![0u32; n_in], vec![0u32; n_out]);
    let mut at_most_zero = vec![0usize; counts.len()];
    for _ in 0..settings.resamples {
        draw_weights(&mut rng, &mut w_in);
        draw_weights(&mut rng, &mut w_out);
        for ((a, b), le) in split.iter().zip(at_most_zero.iter_mut()) {
            let delta = f1(&weighted_sum(b, &w_out)) - f1(&weighted_sum(a, &w_in));
            if delta <= 0.0 {
                *le += 1;
            }
        }
    }
    observed
        .into_iter()
        .zip(at_most_zero)
        .map(|(delta, le)| Tested {
            delta,
            p_value: (1 + le) as f64 / (settings.resamples + 1) as f64,
        })
        .collect()
}

/// `Σ wᵢ · countsᵢ`: the counts of a resample (document `i` drawn `wᵢ`
/// times).
pub fn weighted_sum(counts: &[Counts], weights: &[u32]) -> Counts {
    let mut s = [0u64; 6];
    for (c, &w) in counts.iter().zip(weights) {
        let w = u64::from(w);
        s[0] = s[0].wrapping_add(w.wrapping_mul(c.exact));
        s[1] = s[1].wrapping_add(w.wrapping_mul(c.partial));
        s[2] = s[2].wrapping_add(w.wrapping_mul(c.incorrect));
        s[3] = s[3].wrapping_add(w.wrapping_mul(c.missed));
        s[4] = s[4].wrapping_add(w.wrapping_mul(c.spurious));
        s[5] = s[5].wrapping_add(w.wrapping_mul(c.true_negative));
    }
    Counts {
        exact: s[0],
        partial: s[1],
        incorrect: s[2],
        missed: s[3],
        spurious: s[4],
        true_negative: s[5],
    }
}
