//! Where a panel's run is (bootstrap intervals, literature metrics,
//! threshold sweeps, the gate): [`Progress`], moved by the panel's own
//! actions (start, Cancel) and by its run's answers, which
//! [`super::Page::on`] routes to it. Pure and tested natively; the page's
//! `app::progress` keeps one in a signal and draws its line. May depend
//! on `protocol` only.

use crate::protocol::Answer;

/// Where a panel's run is.
#[derive(Debug, Clone, PartialEq)]
pub enum Progress<T> {
    /// Not started (or reset because its input changed).
    Idle,
    /// `done` of `total` units of work so far.
    Running(usize, usize),
    /// Stopped after `done` of `total` units: by the user's Cancel (shown
    /// at the click, with the progress the line showed) or by a newer run.
    /// `settled` once the worker has let go of the run (its `Stopped`,
    /// whose count then shows, or the answer it had finished before the
    /// Cancel reached it).
    Cancelled {
        done: usize,
        total: usize,
        settled: bool,
    },
    /// Finished, with its result.
    Done(T),
    /// Could not run; the message says why.
    Failed(String),
}

impl<T> Progress<T> {
    /// Whether the run is under way.
    pub fn is_running(&self) -> bool {
        matches!(self, Progress::Running(..))
    }

    /// The panel's Cancel button: a running run shows as cancelled at once,
    /// after the units the line showed; the worker's answer settles it
    /// ([`Progress::answer`]). Anything else stays as it is.
    pub fn cancel(&mut self) {
        if let Progress::Running(done, total) = *self {
            *self = Progress::Cancelled {
                done,
                total,
                settled: false,
            };
        }
    }

    /// Takes the worker's progress, stop or failure for the panel's run (a
    /// result is the panel's to take).
    pub fn answer(&mut self, answer: Answer) {
        match answer {
            Answer::Progress { done, total, .. } if self.is_running() => {
                *self = Progress::Running(done, total)
            }
            Answer::Stopped { done, total, .. } => {
                *self = match *self {
                    // The worker's count, where it stopped; 0 of 0 (a run
                    // stopped before it started, or one whose result the
                    // Cancel dropped) keeps the numbers the line showed.
                    Progress::Running(shown_done, shown_total)
                    | Progress::Cancelled {
                        done: shown_done,
                        total: shown_total,
                        ..
                    } if total == 0 => Progress::Cancelled {
                        done: shown_done,
                        total: shown_total,
                        settled: true,
                    },
                    _ => Progress::Cancelled {
                        done,
                        total,
                        settled: true,
                    },
                }
            }
            Answer::Failed { reason, .. } => *self = Progress::Failed(reason),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stopped(done: usize, total: usize) -> Answer {
        Answer::Stopped {
            generation: 4,
            done,
            total,
        }
    }

    fn settled(done: usize, total: usize) -> Progress<u8> {
        Progress::Cancelled {
            done,
            total,
            settled: true,
        }
    }

    fn progress(done: usize, total: usize) -> Answer {
        Answer::Progress {
            generation: 4,
            done,
            total,
        }
    }

    /// Cancel shows at once with the count the line showed; the worker's
    /// `Stopped` settles it with the count it reached; a late progress
    /// changes nothing; a 0 of 0 (the result dropped) keeps the count.
    #[test]
    fn cancel_shows_at_once_and_the_worker_settles_it() {
        let mut p: Progress<u8> = Progress::Running(0, 1000);
        p.answer(progress(240, 1000));
        assert_eq!(p, Progress::Running(240, 1000));
        p.cancel();
        let unsettled = Progress::Cancelled {
            done: 240,
            total: 1000,
            settled: false,
        };
        assert_eq!(p, unsettled);
        p.answer(progress(480, 1000));
        assert_eq!(p, unsettled);
        p.answer(stopped(512, 1000));
        assert_eq!(p, settled(512, 1000));
        let mut p: Progress<u8> = Progress::Running(240, 1000);
        p.cancel();
        p.answer(stopped(0, 0));
        assert_eq!(p, settled(240, 1000));
    }

    /// A run stopped by a newer one (no Cancel on this panel) shows the
    /// worker's count, settled; stopped before it started (0 of 0), the
    /// total the line showed.
    #[test]
    fn stopped_by_the_worker_shows_its_count() {
        let mut p: Progress<u8> = Progress::Running(3, 21);
        p.answer(stopped(7, 21));
        assert_eq!(p, settled(7, 21));
        let mut p: Progress<u8> = Progress::Running(0, 21);
        p.answer(stopped(0, 0));
        assert_eq!(p, settled(0, 21));
    }

    /// Cancel does nothing to a run that is not under way; a failure
    /// shows its reason.
    #[test]
    fn cancel_when_not_running_and_failures() {
        for mut p in [
            Progress::Idle,
            Progress::Done(1u8),
            Progress::Failed("x".into()),
        ] {
            let before = p.clone();
            p.cancel();
            assert_eq!(p, before);
        }
        let mut p: Progress<u8> = Progress::Running(1, 2);
        p.answer(Answer::Failed {
            generation: 4,
            reason: "no truth file".into(),
        });
        assert_eq!(p, Progress::Failed("no truth file".into()));
        // Progress is taken only while running.
        let mut p: Progress<u8> = Progress::Idle;
        p.answer(progress(1, 2));
        assert_eq!(p, Progress::Idle);
    }
}
