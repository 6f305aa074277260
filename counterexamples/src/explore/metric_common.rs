//! What the metrics of [`explore`](crate::explore) share beyond the
//! [`Metric`](crate::explore::metric::Metric) trait: the one scenario of the metrics that take
//! none, and the [`Evaluation`] of a measured ratio — a user's certified ratio of two
//! [`Spread`]s kept when it beats the best so far, or an exact ratio.

use leontief_solver::properties::Scenario;
use leontief_solver::{Allocation, Instance, Rational, SolverError};

use crate::candidate::Candidate;
use crate::explore::knife;
use crate::explore::metric::{ratio, At, Ctx, Direction, Evaluation, Metric, Spread, Subject};
use crate::search::{grid_lies, neighbour_profile, user_lies, Lies};

/// The only scenario of a metric that takes none: the instance itself; then, in a local
/// task, the instance's knife-edge instances ([`knife::instance_strata`]).
pub(crate) fn evaluate_bounded(
    metric: &dyn Metric,
    on: &Subject,
    ctx: &mut Ctx,
) -> Option<Evaluation> {
    let mut best = None;
    on.try_scenario(metric, Scenario::Bounded, ctx, &mut best);
    knife::instance_strata(metric, on, ctx, &mut best);
    best
}

/// A lie profile: the liars and their reports.
pub(crate) type Profile = Vec<(usize, Vec<Rational>)>;

/// The search of the lie metrics (`sp-gain`, one liar; `gsp-gain`, coalitions of up to
/// `max_liars`): the elite's profile when it fits, every user's structured and grid lies
/// (`search::user_lies`; the grid lies alone with [`Ctx::grid_only`]), then the knife-edge
/// lies and a local climb over the best profile (`search::neighbour_profile`), a step kept
/// when the value does not fall.
pub(crate) struct LieSearch<'a> {
    metric: &'a dyn Metric,
    on: Subject<'a>,
    max_liars: usize,
    /// Every user's lies.
    pub lists: Vec<Lies>,
    /// The best evaluation so far.
    pub best: Option<Evaluation>,
    /// The profile the climb starts from: the last whose value was at least the best's.
    top: Option<(Rational, Profile)>,
}

impl<'a> LieSearch<'a> {
    /// The search on `on`, after the elite's profile (when it has 1 to `max_liars` liars
    /// among the users, reports of the right length) and with every user's lies drawn.
    pub(crate) fn new(
        metric: &'a dyn Metric,
        on: &Subject<'a>,
        max_liars: usize,
        ctx: &mut Ctx,
    ) -> Self {
        let (instance, n) = (on.instance, on.instance.num_users());
        let mut search = LieSearch {
            metric,
            on: *on,
            max_liars,
            lists: Vec::new(),
            best: None,
            top: None,
        };
        if let Some(Scenario::Lies(hint)) = ctx.hint.clone()
            && (1..=max_liars).contains(&hint.len())
            && hint
                .iter()
                .all(|(i, r)| *i < n && r.len() == instance.num_resources())
        {
            search.consider(hint, ctx);
        }
        search.lists = (0..n)
            .map(|i| match ctx.grid_only() {
                true => grid_lies(instance, i, &ctx.cfg.run.values),
                false => user_lies(instance, i, &ctx.cfg.run.values, ctx.grid, &mut ctx.rng),
            })
            .collect();
        search
    }

    /// Tries the profile `p`; it becomes the climb's start when its value is at least the
    /// start's.
    pub(crate) fn consider(&mut self, p: Profile, ctx: &mut Ctx) {
        let scenario = Scenario::Lies(p.clone());
        if let Some(e) = self
            .on
            .try_scenario(self.metric, scenario, ctx, &mut self.best)
            && self.top.as_ref().is_none_or(|(v, _)| e.value >= *v)
        {
            self.top = Some((e.value, p));
        }
    }

    /// Every single lie of the users `liar` accepts; `false` when the limit ran out.
    pub(crate) fn singles(&mut self, ctx: &mut Ctx, liar: impl Fn(usize) -> bool) -> bool {
        for i in (0..self.lists.len()).filter(|&i| liar(i)) {
            for k in 0..self.lists[i].len() {
                if ctx.spent() {
                    return false;
                }
                let lie = self.lists[i].get(k);
                self.consider(vec![(i, lie)], ctx);
            }
        }
        true
    }

    /// The knife-edge lies (super::knife), in place of as many climb steps, then the climb;
    /// on a grid-only run, the best as it is (both leave the grid).
    pub(crate) fn finish(mut self, ctx: &mut Ctx) -> Option<Evaluation> {
        if ctx.grid_only() {
            return self.best;
        }
        let before = ctx.scenarios;
        knife::lie_strata(self.metric, &self.on, ctx, &mut self.best);
        let climb = ctx
            .cfg
            .climb_steps
            .saturating_sub((ctx.scenarios - before) as usize);
        let (_, mut current) = self.top.clone()?;
        for _ in 0..climb {
            if ctx.spent() {
                break;
            }
            let (instance, values) = (self.on.instance, &ctx.cfg.run.values);
            let liars = self.max_liars;
            let next =
                neighbour_profile(instance, values, &current, &self.lists, liars, &mut ctx.rng);
            let Some(next) = next else {
                continue;
            };
            self.consider(next.clone(), ctx);
            if self.top.as_ref().is_some_and(|(_, p)| *p == next) {
                current = next;
            }
        }
        self.best
    }
}

/// The error of a scenario `metric` cannot measure: it needs `what`.
pub(crate) fn needs(metric: &dyn Metric, what: &str) -> SolverError {
    SolverError::invalid("witness", format!("{} needs {what}", metric.name()))
}

/// The lies of `at`'s scenario; otherwise the error that `metric` needs `what`.
pub(crate) fn lies_of<'a>(
    metric: &dyn Metric,
    at: &At<'a>,
    what: &str,
) -> Result<&'a [(usize, Vec<Rational>)], SolverError> {
    match &at.candidate.scenario {
        Scenario::Lies(lies) => Ok(lies),
        _ => Err(needs(metric, what)),
    }
}

/// The instance of `at` for a metric that takes no scenario; a scenario is refused.
pub(crate) fn bounded<'a>(metric: &dyn Metric, at: &At<'a>) -> Result<&'a Instance, SolverError> {
    if at.candidate.scenario != Scenario::Bounded {
        return Err(SolverError::invalid(
            "witness",
            format!("{} takes no scenario", metric.name()),
        ));
    }
    Ok(&at.candidate.instance)
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
        let Some(spread) = ratio(numerator, denominator) else {
            return;
        };
        let beaten = match (best.as_ref(), direction) {
            (None, _) => true,
            (Some(e), Direction::Max) => spread.lo > e.lo,
            (Some(e), Direction::Min) => spread.hi < e.hi,
        };
        if beaten {
            let (n, d) = (numerator.value.clone(), denominator.value.clone());
            *best = Some(self.evaluation(user, other, n, d, spread, self.exact()));
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
        let spread = Spread::exact(&numerator / &denominator);
        self.evaluation(user, other, numerator, denominator, spread, true)
    }

    /// The evaluation of `user`'s ratio `numerator / denominator` (about `other`) of value
    /// `spread.value` in `[spread.lo, spread.hi]`, exact or not.
    pub(crate) fn evaluation(
        &self,
        user: usize,
        other: Option<usize>,
        numerator: Rational,
        denominator: Rational,
        Spread { value, lo, hi }: Spread,
        exact: bool,
    ) -> Evaluation {
        Evaluation {
            value,
            lo,
            hi,
            exact,
            candidate: self.candidate.clone(),
            user,
            other,
            numerator,
            denominator,
            before: self.before.clone(),
            after: self.after.cloned(),
            algebraic: None,
            inexact_reason: None,
        }
    }
}
