//! Pausing a long computation: where the evaluation lets its caller in.
//!
//! Owns: [`Pace`] (asked between documents whether to wait, go on or
//! stop), [`NoPause`] (never waits: the command-line tool, the tests) and
//! [`run_now`] (runs a computation that never waits to its end, without an
//! executor). The browser app's pace waits for the page to paint and
//! handle input every few tens of milliseconds and stops an evaluation
//! whose settings changed meanwhile, so the page stays responsive however
//! large the files (`crate::app`). Pure: std only, no I/O, no web types.

use std::future::Future;
use std::ops::ControlFlow;
use std::pin::{pin, Pin};
use std::task::{Context, Poll, Waker};

/// What a pause waits for; `Break` stops the computation.
pub type PauseFuture = Pin<Box<dyn Future<Output = ControlFlow<()>>>>;

/// Asked before each slice of work: `done` of `total` units so far (the
/// units are the computation's own; only their ratio means anything).
/// `None` goes on at once. A trait object, so that a computation has one
/// compiled form whatever its pace.
pub trait Pace {
    fn pause(&mut self, done: usize, total: usize) -> Option<PauseFuture>;
}

/// Never waits, never stops.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoPause;

impl Pace for NoPause {
    fn pause(&mut self, _: usize, _: usize) -> Option<PauseFuture> {
        None
    }
}

/// Runs `computation` to its end, provided it never waits (its pace is
/// [`NoPause`]): one poll. `None` if it waited after all.
pub fn run_now<T>(computation: impl Future<Output = T>) -> Option<T> {
    let computation = pin!(computation);
    match computation.poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(value) => Some(value),
        Poll::Pending => None,
    }
}

/// Waits when `pace` asks for a pause; `true` when the computation must
/// stop.
pub async fn should_stop(pace: &mut dyn Pace, done: usize, total: usize) -> bool {
    match pace.pause(done, total) {
        None => false,
        Some(wait) => wait.await.is_break(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Stops at the `at`-th pause, recording every (done, total) asked.
    struct StopAt {
        at: usize,
        seen: Vec<(usize, usize)>,
    }

    impl Pace for StopAt {
        fn pause(&mut self, done: usize, total: usize) -> Option<PauseFuture> {
            self.seen.push((done, total));
            if self.seen.len() == self.at {
                Some(Box::pin(std::future::ready(ControlFlow::Break(()))))
            } else {
                Some(Box::pin(std::future::ready(ControlFlow::Continue(()))))
            }
        }
    }

    async fn count_to(n: usize, pace: &mut dyn Pace) -> Option<usize> {
        let mut sum = 0;
        for i in 0..n {
            if should_stop(pace, i, n).await {
                return None;
            }
            sum += i;
        }
        Some(sum)
    }

    #[test]
    fn no_pause_runs_to_the_end_in_one_poll() {
        assert_eq!(run_now(count_to(5, &mut NoPause)), Some(Some(10)));
    }

    #[test]
    fn a_pace_that_stops_ends_the_computation_there() {
        let mut pace = StopAt {
            at: 3,
            seen: Vec::new(),
        };
        assert_eq!(run_now(count_to(5, &mut pace)), Some(None));
        assert_eq!(pace.seen, vec![(0, 5), (1, 5), (2, 5)]);
    }

    #[test]
    fn a_computation_that_waits_is_not_run_now() {
        struct Forever;
        impl Pace for Forever {
            fn pause(&mut self, _: usize, _: usize) -> Option<PauseFuture> {
                Some(Box::pin(std::future::pending()))
            }
        }
        assert_eq!(run_now(count_to(5, &mut Forever)), None);
    }
}
