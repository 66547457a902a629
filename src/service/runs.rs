//! The runs of the evaluation worker ([`Run`]): what each computation
//! the page asks for does once [`Service::start`](super::Service::start)
//! has made it from the session — the report, the bootstrap, the gate,
//! the literature metrics, a sweep — checking its [`Pace`] between
//! documents (or resamples) and answering with the result or
//! [`Answer::Stopped`].
//!
//! Depends on `eval`, `protocol`, `session`; no web types.

use crate::eval::bootstrap::{Bootstrap, BootstrapOptions, ModelTallies};
use crate::eval::gate::{GateOptions, GateRun, GateSpec};
use crate::eval::literature;
use crate::eval::pace::{should_stop, Pace, PauseFuture};
use crate::eval::sweep::SweepRun;
use crate::eval::Report;
use crate::protocol::{Answer, Generation, ValidityStatus};
use crate::session::{Evaluation, Kept};
use std::sync::Arc;

/// Resamples (bootstrap, gate) between two checks: one. A resample of
/// 10,000 documents × 3 models takes a few milliseconds, 25 of them over
/// 100 ms (a Cancel then took 118 ms to show); the worker's pace decides
/// itself how often (every 15 ms) it looks at the inbox, so a check costs
/// only a clock reading.
const RESAMPLES_PER_CHECK: usize = 1;

/// A run made from the session as it was asked: it owns what it reads,
/// so the session may change while it runs.
pub struct Run {
    pub(super) generation: Generation,
    pub(super) work: Work,
}

pub(super) enum Work {
    Report {
        evaluation: Evaluation,
        validity: ValidityStatus,
    },
    Bootstrap(Evaluation),
    Gate {
        evaluation: Evaluation,
        baseline: String,
        candidate: String,
    },
    Literature(literature::Job),
    Sweep {
        input: crate::eval::EvalInput<Arc<crate::eval::DocFile>>,
        run: SweepRun,
    },
}

/// A pace that reports `(done, total)` of its own instead of the
/// computation's (the evaluation before a bootstrap or a gate counts as
/// none of its resamples).
struct Fixed<'a> {
    pace: &'a mut dyn Pace,
    done: usize,
    total: usize,
}

impl Pace for Fixed<'_> {
    fn pause(&mut self, _: usize, _: usize) -> Option<PauseFuture> {
        self.pace.pause(self.done, self.total)
    }
}

impl Run {
    /// Runs to the end, asking `pace` between documents (or resamples)
    /// whether to wait or stop; the answer, or [`Answer::Stopped`].
    pub async fn run(
        self,
        pace: &mut dyn Pace,
        now_ms: &dyn Fn() -> f64,
    ) -> (Answer, Option<Kept>) {
        let generation = self.generation;
        let failed = |reason: String| Answer::Failed { generation, reason };
        let stopped = |done: usize, total: usize| Answer::Stopped {
            generation,
            done,
            total,
        };
        match self.work {
            Work::Report {
                evaluation,
                validity,
            } => {
                let start = now_ms();
                let (report, kept) = evaluation.run(pace).await;
                let answer = match report {
                    None => stopped(0, 0),
                    Some(Err(reason)) => failed(reason),
                    Some(Ok(report)) => Answer::Report {
                        generation,
                        report: Box::new(report),
                        validity,
                        evaluation_ms: now_ms() - start,
                        details_follow: false,
                    },
                };
                (answer, kept)
            }
            Work::Bootstrap(evaluation) => {
                let total = BootstrapOptions::default().resamples;
                let (report, kept) = detailed(evaluation, pace, total).await;
                let answer = match report {
                    Some(Ok(r)) => bootstrap(generation, r, pace).await,
                    Some(Err(e)) => failed(e),
                    None => stopped(0, total),
                };
                (answer, kept)
            }
            Work::Gate {
                evaluation,
                baseline,
                candidate,
            } => {
                let total = GateOptions::default().resamples;
                let (report, kept) = detailed(evaluation, pace, total).await;
                let answer = match report {
                    Some(Ok(r)) => gate(generation, r, baseline, candidate, pace).await,
                    Some(Err(e)) => failed(e),
                    None => stopped(0, total),
                };
                (answer, kept)
            }
            Work::Literature(job) => (literature(generation, job, pace).await, None),
            Work::Sweep { input, run } => (sweep(generation, input, run, pace).await, None),
        }
    }
}

/// The bootstrap of a detailed `report`.
async fn bootstrap(generation: Generation, report: Report, pace: &mut dyn Pace) -> Answer {
    let options = BootstrapOptions::default();
    let total = options.resamples;
    let config = report.config.clone();
    let models = report.models.iter().filter_map(ModelTallies::of).collect();
    // The details of every document are not needed to resample: freed
    // now rather than held for the whole run.
    drop(report);
    let mut bootstrap = Bootstrap::new(models, &config, options);
    while bootstrap.done() < total {
        if should_stop(pace, bootstrap.done(), total).await {
            return Answer::Stopped {
                generation,
                done: bootstrap.done(),
                total,
            };
        }
        bootstrap.step(RESAMPLES_PER_CHECK);
    }
    Answer::Bootstrap {
        generation,
        result: Box::new(bootstrap.finish()),
    }
}

/// The gate of `candidate` against `baseline` on a detailed `report`.
async fn gate(
    generation: Generation,
    mut pair: Report,
    baseline: String,
    candidate: String,
    pace: &mut dyn Pace,
) -> Answer {
    let failed = |reason: String| Answer::Failed { generation, reason };
    let options = GateOptions::default();
    let config = pair.config.clone();
    // The two models only: a model's numbers do not depend on the others.
    pair.models
        .retain(|m| m.name == baseline || m.name == candidate);
    let spec = GateSpec {
        baseline: Some(baseline),
        ..GateSpec::default()
    };
    let mut run = match GateRun::new(&pair, &config, &spec, &options) {
        Ok(run) => run,
        Err(e) => return failed(e.to_string()),
    };
    while run.done() < run.resamples() {
        if should_stop(pace, run.done(), run.resamples()).await {
            return Answer::Stopped {
                generation,
                done: run.done(),
                total: run.resamples(),
            };
        }
        run.step(RESAMPLES_PER_CHECK);
    }
    match run.finish() {
        Ok(result) => Answer::Gate {
            generation,
            result: Box::new(result),
        },
        Err(e) => failed(e.to_string()),
    }
}

/// The literature metrics, a document pair at a time.
async fn literature(
    generation: Generation,
    mut job: literature::Job,
    pace: &mut dyn Pace,
) -> Answer {
    let total = job.total();
    while job.done() < total {
        if should_stop(pace, job.done(), total).await {
            return Answer::Stopped {
                generation,
                done: job.done(),
                total,
            };
        }
        if let Err(e) = job.step(1) {
            return Answer::Failed {
                generation,
                reason: e.to_string(),
            };
        }
    }
    let (models, warnings) = job.finish();
    Answer::Literature {
        generation,
        models,
        warnings,
    }
}

/// A threshold sweep, a value at a time.
async fn sweep(
    generation: Generation,
    input: crate::eval::EvalInput<Arc<crate::eval::DocFile>>,
    mut run: SweepRun,
    pace: &mut dyn Pace,
) -> Answer {
    let total = run.total();
    loop {
        let stopped = |done| Answer::Stopped {
            generation,
            done,
            total,
        };
        if should_stop(pace, run.done(), total).await {
            return stopped(run.done());
        }
        let mut fixed = Fixed {
            pace: &mut *pace,
            done: run.done(),
            total,
        };
        match run.step_paced(&input, &mut fixed).await {
            None => return stopped(run.done()),
            Some(Err(e)) => {
                return Answer::Failed {
                    generation,
                    reason: e.to_string(),
                }
            }
            Some(Ok(true)) => {
                return Answer::Sweep {
                    generation,
                    result: Box::new(run.finish()),
                }
            }
            Some(Ok(false)) => {}
        }
    }
}

/// The detailed report of `evaluation`, its progress shown as none of
/// `total` units; `None` when stopped.
async fn detailed(
    evaluation: Evaluation,
    pace: &mut dyn Pace,
    total: usize,
) -> (Option<Result<Report, String>>, Option<Kept>) {
    let mut fixed = Fixed {
        pace,
        done: 0,
        total,
    };
    evaluation.run(&mut fixed).await
}
