//! What the metrics of [`explore`](crate::explore) share beyond the
//! [`Metric`](crate::explore::metric::Metric) trait: the one scenario of the metrics that take
//! none, and the [`Evaluation`] of a measured ratio — a user's certified ratio of two
//! [`Spread`]s kept when it beats the best so far, or an exact ratio.

use leontief_solver::properties::Scenario;
use leontief_solver::{Allocation, Instance, Mechanism, Rational, SolverError};

use crate::candidate::Candidate;
use crate::explore::knife;
use crate::explore::metric::{ratio, try_scenario, Ctx, Direction, Evaluation, Metric, Spread};

/// The only scenario of a metric that takes none: the instance itself; then, in a local
/// task, the instance's knife-edge instances ([`knife::instance_strata`]).
pub(crate) fn evaluate_bounded(
    metric: &dyn Metric,
    mechanism: &dyn Mechanism,
    instance: &Instance,
    truth: &Allocation,
    ctx: &mut Ctx,
) -> Option<Evaluation> {
    let mut best = None;
    let c = Candidate::new(instance.clone(), Scenario::Bounded);
    try_scenario(metric, mechanism, c, truth, ctx, &mut best);
    knife::instance_strata(metric, mechanism, instance, truth, ctx, &mut best);
    best
}

/// Refuses a scenario for the metric `name`, which takes none.
pub(crate) fn no_scenario(name: &str, candidate: &Candidate) -> Result<(), SolverError> {
    if candidate.scenario != Scenario::Bounded {
        return Err(SolverError::invalid(
            "witness",
            format!("{name} takes no scenario"),
        ));
    }
    Ok(())
}

/// What an evaluation is of: the scenario, the mechanism's answer on the true instance and
/// its answer in the scenario (or the allocation compared with), when there is one.
#[derive(Clone, Copy)]
pub(crate) struct Of<'a> {
    candidate: &'a Candidate,
    before: &'a Allocation,
    after: Option<&'a Allocation>,
}

impl<'a> Of<'a> {
    /// An evaluation of `candidate`, from the answers `before` and `after`.
    pub(crate) fn new(
        candidate: &'a Candidate,
        before: &'a Allocation,
        after: Option<&'a Allocation>,
    ) -> Self {
        Of {
            candidate,
            before,
            after,
        }
    }

    /// Whether both answers are exact.
    fn exact(&self) -> bool {
        self.before.tolerance.is_none() && self.after.is_none_or(|a| a.tolerance.is_none())
    }

    /// User `user`'s ratio `numerator / denominator` (with `other`, the user it is about),
    /// put in `best` when it beats it for `direction` ([`Evaluation::beats`]); a ratio that
    /// may divide by 0 is none. Nothing is copied for a ratio that does not beat the best.
    pub(crate) fn keep_ratio(
        &self,
        best: &mut Option<Evaluation>,
        direction: Direction,
        user: usize,
        other: Option<usize>,
        numerator: &Spread,
        denominator: &Spread,
    ) {
        let Some((value, lo, hi)) = ratio(numerator, denominator) else {
            return;
        };
        let beaten = match (best.as_ref(), direction) {
            (None, _) => true,
            (Some(e), Direction::Max) => lo > e.lo,
            (Some(e), Direction::Min) => hi < e.hi,
        };
        if beaten {
            *best = Some(Evaluation {
                value,
                lo,
                hi,
                exact: self.exact(),
                candidate: self.candidate.clone(),
                user,
                other,
                numerator: numerator.value.clone(),
                denominator: denominator.value.clone(),
                before: self.before.clone(),
                after: self.after.cloned(),
            });
        }
    }

    /// The exact ratio `numerator / denominator` of exact answers (`lo = value = hi`), about
    /// `user` and `other` (user 0 for a value about the whole allocation).
    ///
    /// # Panics
    /// When `denominator` is 0 (the callers divide by a positive quantity).
    pub(crate) fn exact_ratio(
        &self,
        user: usize,
        other: Option<usize>,
        numerator: Rational,
        denominator: Rational,
    ) -> Evaluation {
        let value = &numerator / &denominator;
        Evaluation {
            lo: value.clone(),
            hi: value.clone(),
            value,
            exact: true,
            candidate: self.candidate.clone(),
            user,
            other,
            numerator,
            denominator,
            before: self.before.clone(),
            after: self.after.cloned(),
        }
    }
}
