//! SPEC §9.2's slice discovery: is a model's micro F1 lower on a slice
//! than on the rest of the documents?
//!
//! Owns: the test of each slice ([`test_slices`]); the parent applies
//! Holm and decides which slices are weak. Pure; depends on `bootstrap`
//! (its generator, the draws of [`draw_weights`], [`named_seed`]),
//! `counts` ([`strict_scores`]) and `config`.
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
//! uniformly with replacement with [`draw_weights`]' draws (the
//! statistics' own `fastrand` generator, `u64` draws: the same on every
//! platform, wasm32 included), and computes `δ_b` from the drawn
//! documents' counts summed (integers, so exact; each drawn document's
//! counts are added as it is drawn: the same sums as `Σ wᵢ·countsᵢ`,
//! [`weighted_sum`], over `draw_weights`' weights — tested).
//! `p = (1 + #{b : δ_b ≤ 0}) / (B + 1)`. Every model is resampled with
//! the same draws (a paired design, as the statistics' bootstrap does).
//!
//! **Seeds.** Each slice has its own generator, seeded
//! [`named_seed`]`(seed, key + "\0" + value's JSON text)` (`seed` the
//! statistics' default, 1), so a slice's p-value depends neither on the
//! other slices (nor on the other keys of `slice_by`) nor on how many
//! threads test them: the slices are tested in parallel on the caller's
//! rayon pool (native only), one thread on wasm32, with the same numbers.
//!
//! **Cost.** Per tested slice and resample, `n` draws and, per model and
//! draw, four `u64` additions (what F1 reads: COR, INC + PAR, MIS, SPU):
//! O(S · B · n · M) integer work, no outcome touched (`benches/slices.rs`
//! measures 10,000 documents × 3 models × 50 slices × 1,000 resamples).
//!
//! [`draw_weights`]: crate::eval::bootstrap::draw_weights

use super::Slice;
use crate::eval::bootstrap::{named_seed, BootstrapOptions};
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
    // Each document's counts for every model, inside and outside, packed
    // side by side (document k's model m at k·M + m).
    let models = counts.len();
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for (d, &inside) in is_in.iter().enumerate() {
        let side = if inside { &mut a } else { &mut b };
        side.extend(
            counts
                .iter()
                .map(|c| pack(c.get(d).copied().unwrap_or_default())),
        );
    }
    let f1 = |c: &Counts| strict_scores(c, config).f1;
    let all = |side: &[Packed], m: usize| -> Counts {
        let mut s = [0u64; 4];
        side.iter()
            .skip(m)
            .step_by(models.max(1))
            .for_each(|x| add(&mut s, x));
        unpack(&s)
    };
    let observed: Vec<f64> = (0..models)
        .map(|m| f1(&all(&b, m)) - f1(&all(&a, m)))
        .collect();
    let (n_in, n_out) = (a.len() / models.max(1), b.len() / models.max(1));
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut at_most_zero = vec![0usize; models];
    let (mut s_in, mut s_out) = (vec![[0u64; 4]; models], vec![[0u64; 4]; models]);
    for _ in 0..settings.resamples {
        draw_sums(&mut rng, &a, models, n_in, &mut s_in);
        draw_sums(&mut rng, &b, models, n_out, &mut s_out);
        for m in 0..models {
            let delta = f1(&unpack(&s_out[m])) - f1(&unpack(&s_in[m]));
            if delta <= 0.0 {
                at_most_zero[m] += 1;
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

/// What micro F1 reads of a document's counts (SPEC §3.1: TP = COR,
/// FP = INC + PAR + SPU, FN = MIS (+ INC + PAR)): COR, INC + PAR, MIS,
/// SPU. [`unpack`] gives them back as [`Counts`] (PAR in INC, no true
/// negative), whose [`strict_scores`] F1 is the original's.
type Packed = [u64; 4];

fn pack(c: Counts) -> Packed {
    [
        c.exact,
        c.incorrect.wrapping_add(c.partial),
        c.missed,
        c.spurious,
    ]
}

fn unpack(s: &Packed) -> Counts {
    Counts {
        exact: s[0],
        incorrect: s[1],
        missed: s[2],
        spurious: s[3],
        ..Counts::default()
    }
}

fn add(sum: &mut Packed, x: &Packed) {
    for (s, v) in sum.iter_mut().zip(x) {
        *s = s.wrapping_add(*v);
    }
}

/// One resample of one side: `n` documents drawn uniformly with
/// replacement — the draws of `bootstrap::draw_weights` (`n` times
/// `rng.u64(0..n)`, in the same order), but each drawn document's counts
/// added at once instead of counted in a weight first — their packed
/// counts summed per model into `sums`.
fn draw_sums(
    rng: &mut fastrand::Rng,
    side: &[Packed],
    models: usize,
    n: usize,
    sums: &mut [Packed],
) {
    sums.iter_mut().for_each(|s| *s = [0; 4]);
    for _ in 0..n {
        let k = rng.u64(0..n as u64) as usize;
        for (s, x) in sums.iter_mut().zip(&side[k * models..(k + 1) * models]) {
            add(s, x);
        }
    }
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
