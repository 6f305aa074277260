//! The event queue and the leaves' pending work: events keyed by `(time, sequence)` in a
//! heap, running tasks in a slab, pending submissions in runs.

use std::collections::VecDeque;

use leontief_solver::Rational;

/// What happens at an event.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Kind {
    /// A task finishes (stale when the slot's generation moved on: the task was preempted).
    Complete { task: u32, r#gen: u32 },
    /// A batch of `count` tasks is submitted.
    Arrive { leaf: u32, count: u64 },
    /// An unlimited backlog appears.
    Backlog { leaf: u32 },
    /// Preemption: has `node` been below its guarantee since `since`?
    Check { node: u32, since: Rational },
}

/// An event, ordered by `(time, seq)` (the sequence numbers are unique; the heap holds them
/// [`Reverse`](std::cmp::Reverse)d, so that its maximum is the earliest).
#[derive(PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Event {
    pub(super) time: Rational,
    pub(super) seq: u64,
    pub(super) kind: Kind,
}

/// A running task (or a free slot of the slab).
pub(super) struct Task {
    pub(super) leaf: u32,
    pub(super) machine: u32,
    pub(super) r#gen: u32,
    pub(super) alive: bool,
    /// Index in its leaf's list of running tasks.
    pub(super) pos: u32,
    pub(super) start: Rational,
    pub(super) submit: Rational,
}

/// A leaf's pending tasks: an unlimited backlog, or runs of `(submission time, count)` in
/// submission order.
#[derive(Default)]
pub(super) struct Pending {
    pub(super) unlimited: Option<Rational>,
    pub(super) queue: VecDeque<(Rational, u64)>,
}

impl Pending {
    pub(super) fn has(&self) -> bool {
        self.unlimited.is_some() || !self.queue.is_empty()
    }

    pub(super) fn head(&self) -> Option<&Rational> {
        self.unlimited.as_ref().or(self.queue.front().map(|f| &f.0))
    }

    pub(super) fn pop(&mut self) -> Rational {
        if let Some(t) = &self.unlimited {
            return t.clone();
        }
        let front = self.queue.front_mut().expect("a pending task");
        let t = front.0.clone();
        front.1 -= 1;
        if front.1 == 0 {
            self.queue.pop_front();
        }
        t
    }

    /// A preempted task goes back to the front (it was submitted before every pending one).
    pub(super) fn push_front(&mut self, t: Rational) {
        if self.unlimited.is_some() {
            return;
        }
        match self.queue.front_mut() {
            Some(front) if front.0 == t => front.1 += 1,
            _ => self.queue.push_front((t, 1)),
        }
    }

    pub(super) fn push_back(&mut self, t: Rational, count: u64) {
        match self.queue.back_mut() {
            Some(back) if back.0 == t => back.1 = back.1.saturating_add(count),
            _ => self.queue.push_back((t, count)),
        }
    }
}
