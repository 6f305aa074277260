//! What every metric shares: the [`Metric`] trait, the evaluation it returns (an exact
//! value, or a certified interval for an approximate answer) and the helpers that turn task
//! counts into utilities under either normalisation (docs/explore.md).

use std::cmp::Ordering;

use leontief_solver::algebraic::{Limits, RealAlgebraic};
use leontief_solver::properties::{Property, Scenario};
use leontief_solver::random_instances::SplitMix64;
use leontief_solver::registry::Descriptor;
use leontief_solver::{Allocation, Instance, Mechanism, Rational, SolverError};

pub use super::exact::AlgebraicValue;
use super::MetricName;
use crate::candidate::Candidate;
use crate::search::keep_errors;

leontief_solver::name_enum! {
    /// Whether a metric's record is its largest or its smallest value. Names `max`, `min`.
    pub enum Direction {
        /// The larger the worse (a gain, an envy).
        Max,
        /// The smaller the worse (a loss, a gap below the guarantee).
        Min,
    }
}

/// How a user's utility is measured before a ratio is taken (docs/explore.md §2): the
/// solver's welfare normalisations, `tasks` or `dominant-share`.
pub use leontief_solver::welfare::Utility;

/// A metric's value on one scenario: the computed ratio and the interval its true value
/// lies in (`lo = hi = value` for an exact answer), with everything to re-derive it.
/// Serialized ([`wire`](super::wire)) without the exact forms, which are asked for only when
/// the coordinator keeps a record ([`At::algebraic`]).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Evaluation {
    /// The ratio computed from the answers' task counts.
    pub value: Rational,
    /// The least the true ratio can be.
    pub lo: Rational,
    /// The most the true ratio can be.
    pub hi: Rational,
    /// `true` when both answers are exact (then `lo = value = hi`), or when the value is
    /// known exactly as a real algebraic number ([`Evaluation::algebraic`]; then `(lo, hi)`
    /// is its isolating interval, refined to width at most 2^-100, and `value` its midpoint).
    pub exact: bool,
    /// The exact value and answers when the mechanism's answers are irrational but known
    /// exactly ([`Mechanism::algebraic_tasks`], CEEI); asked for with [`At::algebraic`].
    #[serde(skip)]
    pub algebraic: Option<Box<AlgebraicValue>>,
    /// Why the value stayed an interval when its exact form was asked for (a stated limit of
    /// the exact solve or of the arithmetic).
    #[serde(skip)]
    pub inexact_reason: Option<String>,
    /// The instance and the scenario (the lie, the leaving user, the grown capacities;
    /// [`Scenario::Bounded`] for envy and the sharing-incentive gap).
    pub candidate: Candidate,
    /// The user whose ratio is the value (unused, 0, when the value is about the whole
    /// allocation: [`Metric::per_user`] is false).
    pub user: usize,
    /// The other user the value is about (the envied one), if any.
    pub other: Option<usize>,
    /// The ratio's numerator and denominator (utilities in the chosen normalisation).
    pub numerator: Rational,
    /// See `numerator`.
    pub denominator: Rational,
    /// The mechanism's answer on the true instance.
    pub before: Allocation,
    /// Its answer in the scenario (`None` without a scenario), or the allocation the answer
    /// is compared with (the optimum of the welfare ratios); recorded under
    /// [`Metric::compared`].
    pub after: Option<Allocation>,
}

impl Evaluation {
    /// The exact value as a real algebraic number, when it is known: the algebraic value,
    /// or the rational value of exact answers.
    pub fn exact_value(&self) -> Option<RealAlgebraic> {
        match (&self.algebraic, self.exact) {
            (Some(a), _) => Some(a.real()),
            (None, true) => Some(RealAlgebraic::from_rational(self.value.to_big())),
            (None, false) => None,
        }
    }

    /// Whether `self` is strictly better than `other` for a metric of `direction`: by the
    /// exact values when both are known (equal values are a tie, not an improvement), else by
    /// the certified end worst for the claim.
    pub fn beats(&self, other: &Evaluation, direction: Direction) -> bool {
        if (self.algebraic.is_some() || other.algebraic.is_some())
            && let (Some(a), Some(b)) = (self.exact_value(), other.exact_value())
            && let Ok(order) = a.try_cmp(&b, &Limits::default())
        {
            return match direction {
                Direction::Max => order == Ordering::Greater,
                Direction::Min => order == Ordering::Less,
            };
        }
        match direction {
            Direction::Max => self.lo > other.lo,
            Direction::Min => self.hi < other.hi,
        }
    }
}

/// The working state of one evaluation: where lies come from, the random stream, and the
/// counters.
pub struct Ctx<'a> {
    /// The run's configuration: the value grid (grid lies), the climb's steps, the
    /// coalitions tried, the normalisation, the knife-edge strata, whether caps are drawn.
    pub cfg: &'a super::ExploreConfig,
    /// Whether the instance is a grid instance (capacities 1: every grid vector is a lie).
    pub grid: bool,
    /// This evaluation's random stream.
    pub rng: SplitMix64,
    /// A scenario to start from (the elite's, in the local search).
    pub hint: Option<Scenario>,
    /// Whether this evaluation searches the knife-edge instances of the metrics other than
    /// the lie metrics: in a round's first `elites` local tasks alone (one restart from each
    /// elite when the pool is full), where they cost the least sampling.
    pub instance_strata: bool,
    /// Scenarios tried (one mechanism call each).
    pub scenarios: u64,
    /// Mechanism failures.
    pub errors: Vec<String>,
}

impl Ctx<'_> {
    /// Only the grid's own scenarios (`--strategy exhaustive` on a grid instance): grid
    /// lies, grid joiners and the capacity grid's growths; no random scenario, no climb.
    pub fn grid_only(&self) -> bool {
        self.grid && self.cfg.run.strategy == crate::space::Strategy::Exhaustive
    }

    /// Whether the evaluation has tried as many scenarios as its limit allows: the loops
    /// that list scenarios stop there, and [`Subject::try_scenario`] tries no more. The limit
    /// is the run's budget less the truthful answer, one of its scenarios: one evaluation
    /// never runs past the budget, whatever the instance's size.
    pub fn spent(&self) -> bool {
        (self.cfg.run.budget).is_some_and(|b| self.scenarios >= b.saturating_sub(1))
    }

    /// Runs one scenario within the limit: nothing once it is spent, else counts it and
    /// records its failure.
    pub(crate) fn scenario<T>(
        &mut self,
        run: impl FnOnce(&Self) -> Result<T, SolverError>,
    ) -> Option<T> {
        if self.spent() {
            return None;
        }
        self.scenarios += 1;
        run(self)
            .map_err(|e| keep_errors(&mut self.errors, [e.to_string()]))
            .ok()
    }
}

/// What describes a metric apart from how it is computed: a constant in the metric's own
/// module, returned by [`Described::info`] and read by the trait's provided methods.
#[derive(Debug, Clone, Copy)]
pub struct MetricInfo {
    /// A one-line definition (shown in `explore --help`).
    pub description: &'static str,
    /// Whether the record is the largest or the smallest value.
    pub direction: Direction,
    /// The property whose violation the value measures: its scenario kind (lies,
    /// departures, growths or none) and the shrinker's reductions. Whole-allocation
    /// measures (the welfare ratios, `discrete-gap`) use Pareto efficiency's: fewer users
    /// and resources, simpler numbers, no scenario to carry along.
    pub property: Property,
    /// The normalisation used unless `--utility` says otherwise.
    pub default_utility: Utility,
    /// Whether the value depends on the normalisation; `false` for ratios of dominant
    /// shares and of times, for which `--utility` does not apply.
    pub uses_utility: bool,
    /// What the value is a ratio of (`utilities`, `dominant shares`, `times`): named when
    /// `--utility` is refused because the value does not use it.
    pub ratio_of: &'static str,
    /// Whether the value is one user's ratio (recorded as `witness.user`); `false` for a
    /// value about the whole allocation or a node.
    pub per_user: bool,
    /// The witness key of [`Evaluation::after`]: `allocation_after` (the answer in the
    /// scenario) unless the metric compares with another allocation.
    pub compared: &'static str,
    /// Whether 1 is the value of doing nothing (a lie metric's truthful report): an
    /// evaluation at 1 or below found no violation and shows no slope, so the local search
    /// does not restart from it (its budget goes to more seed units instead).
    pub one_is_neutral: bool,
    /// Which mechanisms the metric says something about.
    pub applies: Applies,
}

/// Which mechanisms a metric says something about (read by [`Metric::applies_to`]).
#[derive(Debug, Clone, Copy)]
pub enum Applies {
    /// Every mechanism.
    Every,
    /// Every mechanism not proved to have the metric's property; the reason follows the
    /// mechanism's name in the refusal (`"drf is envy-free (...): ..."`).
    UnlessProved(&'static str),
    /// The mechanisms `accepts` takes by name; `", not <mechanism>"` follows the reason in
    /// the refusal.
    Only {
        /// Whether a mechanism, by name, is one the metric applies to.
        accepts: fn(&str) -> bool,
        /// Why the others are refused.
        reason: &'static str,
    },
}

impl MetricInfo {
    /// A per-user ratio of utilities in tasks, compared with the answer in the scenario:
    /// the common case, from which the rows of the table differ.
    pub(crate) const fn ratio(
        description: &'static str,
        direction: Direction,
        property: Property,
    ) -> Self {
        MetricInfo {
            description,
            direction,
            property,
            default_utility: Utility::Tasks,
            uses_utility: true,
            ratio_of: "utilities",
            per_user: true,
            compared: "allocation_after",
            one_is_neutral: false,
            applies: Applies::Every,
        }
    }
}

/// What describes a metric: its [`MetricInfo`], given where the metric is registered
/// ([`MetricName`]).
pub trait Described {
    /// Which metric this is.
    fn id(&self) -> MetricName;
    /// What it measures, in which direction, and how its record is shaped.
    fn info(&self) -> &'static MetricInfo;
}

/// A quantitative property: a ratio maximized or minimized over instances and scenarios.
/// An implementation is one module: its [`MetricInfo`] (what it measures, in which
/// direction) and how the value is computed.
pub trait Metric: Described + Sync {
    /// Its command-line name.
    fn name(&self) -> &'static str {
        self.id().name()
    }
    /// See [`MetricInfo::direction`].
    fn direction(&self) -> Direction {
        self.info().direction
    }
    /// See [`MetricInfo::property`].
    fn property(&self) -> Property {
        self.info().property
    }
    /// The witness fields beyond the common ones, a JSON object (the node of `sg-deficit`,
    /// the second user of `discrete-gap`, the run of `starvation` under `mechanism`),
    /// recomputed from the evaluation; none by default.
    fn detail(&self, _mechanism: &str, _e: &Evaluation) -> Option<serde_json::Value> {
        None
    }
    /// `Err(reason)` when the metric says nothing about this mechanism (e.g. envy of a
    /// mechanism proved envy-free): see [`MetricInfo::applies`].
    fn applies_to(&self, mechanism: &Descriptor) -> Result<(), String> {
        match self.info().applies {
            Applies::UnlessProved(reason) if mechanism.is_proved(self.property()) => {
                Err(format!("{} {reason}", mechanism.name))
            }
            Applies::Only { accepts, reason } if !accepts(mechanism.name) => {
                Err(format!("{reason}, not {}", mechanism.name))
            }
            Applies::Every | Applies::UnlessProved(_) | Applies::Only { .. } => Ok(()),
        }
    }
    /// The value on one scenario ([`At`]): `Ok(None)` when the scenario has no value (e.g. the liar had nothing before, a coalition member loses).
    ///
    /// # Errors
    /// A scenario that does not fit, or a mechanism failure.
    fn at(&self, at: &At) -> Result<Option<Evaluation>, SolverError>;
    /// The best value over the scenarios this metric tries on the subject's instance (see
    /// each metric's docs); `None` when none has a value. By default the instance alone, for
    /// a metric that takes no scenario.
    fn evaluate(&self, on: &Subject, ctx: &mut Ctx) -> Option<Evaluation> {
        super::metric_common::evaluate_bounded(self.id().metric(), on, ctx)
    }
}

/// One scenario to measure: the mechanism, the instance with the scenario, the mechanism's
/// answer on the true instance (`truth`) and the normalisation.
#[derive(Clone, Copy)]
pub struct At<'a> {
    /// The mechanism.
    pub mechanism: &'a dyn Mechanism,
    /// The true instance and the scenario.
    pub candidate: &'a Candidate,
    /// The mechanism's answer on the true instance.
    pub truth: &'a Allocation,
    /// The normalisation.
    pub utility: Utility,
    /// Whether an irrational answer's value is wanted exactly ([`Evaluation::algebraic`]):
    /// asked for when a record is kept and re-derived, not while searching.
    pub algebraic: bool,
}

impl<'a> At<'a> {
    /// The scenario `candidate` of `mechanism`, whose answer on the true instance is `truth`.
    pub fn new(
        mechanism: &'a dyn Mechanism,
        candidate: &'a Candidate,
        truth: &'a Allocation,
        utility: Utility,
    ) -> Self {
        At {
            mechanism,
            candidate,
            truth,
            utility,
            algebraic: false,
        }
    }

    /// The same scenario with the value wanted exactly when the answers are irrational
    /// ([`At::algebraic`]).
    pub fn algebraic(self) -> Self {
        At {
            algebraic: true,
            ..self
        }
    }
}

/// What a metric is evaluated on: the mechanism, the true instance and the mechanism's
/// answer on it.
#[derive(Clone, Copy)]
pub struct Subject<'a> {
    /// The mechanism.
    pub mechanism: &'a dyn Mechanism,
    /// The true instance.
    pub instance: &'a Instance,
    /// The mechanism's answer on it.
    pub truth: &'a Allocation,
}

impl Subject<'_> {
    /// Tries `scenario` on the subject's instance: counts it and keeps the better
    /// evaluation; nothing once the context's limit is spent.
    pub(crate) fn try_scenario(
        &self,
        metric: &dyn Metric,
        scenario: Scenario,
        ctx: &mut Ctx,
        best: &mut Option<Evaluation>,
    ) -> Option<Evaluation> {
        let c = Candidate::new(self.instance.clone(), scenario);
        let e = ctx
            .scenario(|ctx| metric.at(&At::new(self.mechanism, &c, self.truth, ctx.cfg.utility)))
            .flatten()?;
        if best.as_ref().is_none_or(|b| e.beats(b, metric.direction())) {
            *best = Some(e.clone());
        }
        Some(e)
    }
}

/// A computed quantity and the interval of its true value.
#[derive(Debug, Clone)]
pub(crate) struct Spread {
    pub value: Rational,
    pub lo: Rational,
    pub hi: Rational,
}

impl Spread {
    /// A quantity known exactly: `lo = value = hi`.
    pub(crate) fn exact(value: Rational) -> Spread {
        Spread {
            lo: value.clone(),
            hi: value.clone(),
            value,
        }
    }
}

/// `f(x_i)` for a non-decreasing `f`, with `[f(x_i − e_i), f(x_i + e_i)]` from the answer's
/// error bound (`Allocation::error_bound`; task counts below 0 are clamped to 0); `None`
/// when the answer's error is unbounded.
pub(crate) fn spread(
    x: &Allocation,
    i: usize,
    f: impl Fn(&Rational) -> Rational,
) -> Option<Spread> {
    let t = &x.tasks[i];
    let e = x.error_bound(i)?;
    let value = f(t);
    if e.is_zero() {
        return Some(Spread::exact(value));
    }
    let low = (t - &e).max(Rational::ZERO);
    Some(Spread {
        lo: f(&low),
        hi: f(&(t + &e)),
        value,
    })
}

/// `a / b` with its interval; `None` when `b` may be 0.
pub(crate) fn ratio(a: &Spread, b: &Spread) -> Option<Spread> {
    if !b.lo.is_positive() {
        return None;
    }
    Some(Spread {
        value: &a.value / &b.value,
        lo: &a.lo / &b.hi,
        hi: &a.hi / &b.lo,
    })
}
