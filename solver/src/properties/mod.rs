//! Exact property oracles: sharing incentive, envy-freeness, Pareto efficiency, the
//! fairness-on-one-resource properties, strategy-proofness and monotonicity (`docs/theory.md` §3).
//!
//! Every property is decided in exact rationals and comes back as a [`Verdict`]; a failing
//! verdict carries a [`Witness`] that can be re-checked by hand (and whose
//! [`Witness::to_json`] names users and resources and writes every number as an exact
//! `"p/q"` string).
//!
//! - *Allocation properties* ([`Property::Si`], [`Property::Ef`], [`Property::Po`],
//!   [`Property::Srf`], [`Property::Bf`], [`Property::Bbf`]) are decided on the mechanism's
//!   answer alone: see [`allocation`]. Each first checks feasibility; an infeasible answer
//!   fails with [`Witness::Infeasible`], since the definitions presuppose a feasible one.
//! - *Scenario properties* ([`Property::Sp`], [`Property::GspStrong`], [`Property::GspWeak`],
//!   [`Property::Pm`], [`Property::Rm`]) compare the answer with the answer on a changed
//!   instance: see [`manipulation`] and [`monotonicity`]. Given one [`Scenario`], the oracle
//!   decides it exactly. Without one, it tries a fixed, deterministic set from [`scenarios`]
//!   and says so ([`CheckReport::bounded`], [`Verdict::note`]): a holding verdict is then
//!   evidence, not proof (except for PM, whose single departures are all tried).
//!
//! # Approximate allocations
//! An allocation may carry a tolerance ([`Allocation::tolerance`], e.g. a float solver's
//! uncertified answer): its task counts are then known only to within relative error `t`.
//! Whenever an allocation a verdict rests on (the truthful answer or an answer under a
//! scenario) carries one, a comparison counts as a violation only when it holds with a
//! margin larger than the error can explain — SP's `after > before` becomes
//! `after > before + margin`, PM's and RM's `after < before` becomes
//! `after < before − margin`, PO's gain must exceed what the error in the slack of every
//! resource allows, and so on; the margins and why they are safe are derived in one place,
//! the private `tolerance` module (`properties/tolerance.rs`). A reported violation then
//! holds for every true allocation the error admits, so its witness is genuine (its numbers
//! are the computed ones; a PO witness's gain is the one guaranteed under every admissible
//! truth). The verdict records the tolerance ([`Verdict::tolerance`]) and says so in its
//! note; when it holds although a comparison on the computed numbers fell inside the margin
//! it is marked [`Verdict::within_tolerance`] ("holds within numerical tolerance").
//!
//! # Exact algebraic answers
//! An approximate answer may have an exact form: CEEI's equilibrium is real algebraic, and
//! [`Mechanism::algebraic_tasks`] gives it (found in a number field and accepted only after
//! the exact KKT check). [`check`] asks for it — for the truthful answer and for the answer
//! under every scenario (the lie, the departure, the grown capacities) — and then decides
//! every comparison exactly with the algebraic kernel, equality included: utilities, shares
//! and envied bundles are `min(T, c · x)` of one task count (a Möbius image of it), a
//! resource's consumption an exact sum, each compared by
//! [`RealAlgebraic::try_cmp`](crate::algebraic::RealAlgebraic::try_cmp) or
//! [`RealAlgebraic::cmp_rational`](crate::algebraic::RealAlgebraic::cmp_rational). The report
//! is then [`CheckReport::exact`], carries no tolerance, and writes its task counts and the
//! witness's figures as exact numbers ([`ExactFigures`]: `"p/q"`, or the algebraic number with
//! its decimal and closed form). Where the exact form is refused (a stated limit of the exact
//! solve: too many users, more than three positive prices, the degree) the tolerance
//! judgement above applies and the note gives the reason. The scenario functions of
//! [`manipulation`] and [`monotonicity`], the allocation oracles and [`check_with`], which
//! verification and searches call on every instance and candidate, judge the allocations
//! they are given as given: the exact solve is too costly for that many.
//! Exact allocations (`tolerance == None`) are judged exactly, with no margin: a violation
//! of `1e-30` is a violation.
//!
//! # Readings (`docs/theory.md` §3)
//! Weighted forms with `W = Σ_i w_i`. Utilities are Leontief and measured with the user's
//! **true** demand and cap: at the truth user `i` has `min(T_i, x_i)`; after reporting
//! `d'_i` and receiving `x'_i` tasks it has `u_i(x'_i d'_i) = min(T_i, min_{j: d_ij > 0}
//! x'_i d'_ij / d_ij)`.
//!
//! Per-resource weights `w_ij` (DRF paper §4.3) enter every weighted definition resource by
//! resource, with `W_j = Σ_k w_kj` (a user without a weight vector counts `w_kj = w_k`):
//! user `i`'s equal split of resource `j` (SI) is `(w_ij / W_j) R_j`, its entitlement for BBF
//! is `w_ij / W_j` of resource `j`, envy (EF) scales user `k`'s bundle by `w_ij / w_kj` on
//! resource `j`, and max-min on resource `j` (SRF, BF) compares `x_i d_ij / w_ij`. The split
//! is always feasible (the shares of every resource sum to 1) and with scalar weights all
//! of this is the `w_i / W` form of `docs/theory.md` §3.1.
//!
//! # Example
//! The DRF paper's running example (9 CPUs, 18 GB; A ⟨1, 4⟩, B ⟨3, 1⟩): DRF gives 3 and 2
//! tasks and is strategy-proof against the structured lies; asset fairness is not
//! bottleneck fair elsewhere, but here no resource is everyone's bottleneck.
//! ```
//! use leontief_solver::properties::{check, Property, Scenario};
//! use leontief_solver::{AssetFairness, Drf, Instance, User};
//! let paper = Instance::new(vec![9.into(), 18.into()],
//!     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
//! let sp = check(&Drf::extended(), &paper, Property::Sp, &Scenario::Bounded).unwrap();
//! assert_eq!(sp.allocation.tasks, vec![3.into(), 2.into()]);
//! assert!(sp.verdict.holds && sp.bounded && sp.scenarios > 0);
//! let bf = check(&AssetFairness, &paper, Property::Bf, &Scenario::Bounded).unwrap();
//! assert!(!bf.verdict.applicable);
//! ```
//!
//! # References
//! - A. Ghodsi, M. Zaharia, B. Hindman, A. Konwinski, S. Shenker, I. Stoica. *Dominant
//!   Resource Fairness: Fair Allocation of Multiple Resource Types.* NSDI 2011 (SI, EF, PO,
//!   SP, SRF, BF, PM, RM).
//! - D. Parkes, A. Procaccia, N. Shah. *Beyond Dominant Resource Fairness: Extensions,
//!   Limitations, and Indivisibilities.* EC 2012 (zero demands, weights, group
//!   strategy-proofness).
//! - D. Dolev, D. Feitelson, J. Halpern, R. Kupferman, N. Linial. *No Justified Complaints:
//!   On Fair Sharing of Multiple Resources.* ITCS 2012 (bottleneck-based fairness).

use serde_json::{json, Value};

use crate::{Allocation, Instance, Mechanism, Rational, SolverError, User};
use document::{by_user_figure, user_name};
use exact::Answer;
pub use tolerance::Gauge;
use tolerance::Judge;

pub mod allocation;
mod document;
mod exact;
pub mod manipulation;
pub mod monotonicity;
pub mod scenarios;
mod tolerance;

pub use exact::{ExactFigure, ExactFigures};

pub use allocation::{
    BbfWitness, EfWitness, InfeasibleWitness, MaxMinViolation, MaxMinWitness, PoWitness,
    SaturatedShare, SgWitness, SiWitness,
};
pub use manipulation::{GspReading, GspWitness, SpWitness};
pub use monotonicity::{PmWitness, RmWitness};
pub use scenarios::{Bounds, LieProfiles};

crate::name_enum! {
    #[unknown("property", "property")]
    /// A property of a mechanism (docs/theory.md §3), by its command-line name: `si, ef, po,
    /// srf, bf, bbf, sp, gsp-strong, gsp-weak, pm, rm, sg` (derived from the variant's name).
    /// An unknown name is `property: unknown property "x" (expected si, ef, ... or sg)`.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::properties::Property;
    /// let p: Property = "gsp-strong".parse().unwrap();
    /// assert_eq!(p, Property::GspStrong);
    /// assert_eq!(p.name(), "gsp-strong");
    /// assert!("gsp".parse::<Property>().is_err());
    /// ```
    #[derive(PartialOrd, Ord, strum::EnumCount, strum::EnumMessage)]
    pub enum Property {
        /// Sharing incentive: every user gets at least what its weighted equal split gives.
        #[strum(message = "sharing incentive: x_i >= u_i((w_i/W) R) for every user")]
        Si,
        /// Envy-freeness: nobody prefers another's bundle scaled to its own weight.
        #[strum(message = "envy-freeness: u_i((w_i/w_k) x_k d_k) <= x_i for all i, k")]
        Ef,
        /// Pareto efficiency: no feasible allocation is better for someone and worse for nobody.
        #[strum(message = "Pareto efficiency: no feasible x' >= x with one strict")]
        Po,
        /// Single-resource fairness: with one resource the answer is weighted max-min.
        #[strum(message = "single-resource fairness: with m = 1, weighted max-min")]
        Srf,
        /// Bottleneck fairness: with a common bottleneck the answer is weighted max-min on it.
        #[strum(message = "bottleneck fairness: with a common bottleneck, weighted max-min on it")]
        Bf,
        /// Bottleneck-based fairness (Dolev et al.): every user reaches its cap or gets its
        /// entitlement of some saturated resource it needs.
        #[strum(message = "bottleneck-based fairness: cap reached or w_i/W of some saturated resource needed")]
        Bbf,
        /// Strategy-proofness: no user gains by misreporting its demand.
        #[strum(message = "strategy-proofness: no user gains by misreporting its demand")]
        Sp,
        /// Group strategy-proofness, strong reading: no coalition all weakly better, one strictly.
        #[strum(message = "group strategy-proofness (strong): no coalition weakly better, one strictly")]
        GspStrong,
        /// Group strategy-proofness, weak reading: no coalition all strictly better.
        #[strum(message = "group strategy-proofness (weak): no coalition whose members all strictly gain")]
        GspWeak,
        /// Population monotonicity: nobody loses when a user leaves.
        #[strum(message = "population monotonicity: nobody loses when a user leaves")]
        Pm,
        /// Resource monotonicity: nobody loses when capacities grow.
        #[strum(message = "resource monotonicity: nobody loses when capacities grow")]
        Rm,
        /// Share guarantee (docs/theory.md §4.8): every node of the instance's tree (its pools, see
        /// [`hierarchy`](crate::hierarchy)) with unmet demand holds its guaranteed share of its
        /// dominant resource.
        #[strum(message = "share guarantee: every node with unmet demand holds its guaranteed share g_v")]
        Sg,
    }
}

impl Property {
    /// Every property, in the order of docs/theory.md §3 (the enum's order).
    pub const ALL: [Property; <Property as strum::EnumCount>::COUNT] =
        crate::registry::variant_array(<Property as strum::VariantArray>::VARIANTS);

    /// A one-line description.
    pub fn description(self) -> &'static str {
        strum::EnumMessage::get_message(&self).expect("every property has a description")
    }

    /// Whether the property is decided on the mechanism's answer alone (no scenario).
    pub fn is_allocation_property(self) -> bool {
        matches!(
            self,
            Self::Si | Self::Ef | Self::Po | Self::Srf | Self::Bf | Self::Bbf | Self::Sg
        )
    }
}

/// Why a property fails, one variant per kind of failure; re-checkable by hand.
#[derive(Debug, Clone, PartialEq, Eq, strum::IntoStaticStr)]
#[strum(serialize_all = "kebab-case")]
pub enum Witness {
    /// The allocation is not feasible (any allocation property).
    Infeasible(InfeasibleWitness),
    /// A user below its weighted equal split (SI).
    Si(SiWitness),
    /// A user envying another's weight-scaled bundle (EF).
    Ef(EfWitness),
    /// A feasible allocation better for one user and no worse for anyone (PO).
    Po(PoWitness),
    /// The allocation of one resource is not weighted max-min (SRF, BF).
    MaxMin(MaxMinWitness),
    /// A user below its cap with less than its entitlement of every saturated resource it
    /// needs (BBF).
    Bbf(BbfWitness),
    /// A profitable lie (SP).
    Sp(SpWitness),
    /// A profitable group lie (gsp-strong, gsp-weak).
    Gsp(GspWitness),
    /// A user that loses when another leaves (PM).
    Pm(PmWitness),
    /// A user that loses when capacities grow (RM).
    Rm(RmWitness),
    /// A node with unmet demand below its guaranteed share (SG).
    Sg(SgWitness),
}

impl Witness {
    /// The kind: `infeasible, si, ef, po, max-min, bbf, sp, gsp, pm, rm, sg`.
    pub fn kind(&self) -> &'static str {
        self.into()
    }
}

/// The decision on one property.
///
/// `holds` is `true` when no violation was found; for a property that does not apply
/// (`applicable == false`, e.g. SRF with several resources) it is vacuously `true`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// No violation found (vacuously true when not applicable).
    pub holds: bool,
    /// Whether the property's premise applies (SRF needs `m = 1`, BF a common bottleneck,
    /// PM two users).
    pub applicable: bool,
    /// Why it fails, when it fails.
    pub witness: Option<Witness>,
    /// What was decided and how (readings, scenario counts, bounds, tolerance).
    pub note: String,
    /// The largest [`Allocation::tolerance`] among the allocations the verdict was decided
    /// on (the truthful answer and the answers under the scenarios tried); `None` when all
    /// were exact, and then every comparison was decided exactly on the given numbers.
    pub tolerance: Option<Rational>,
    /// `true` when the verdict holds only within numerical tolerance: some comparison that
    /// the given (approximate) numbers, read exactly, would count as a violation fell inside
    /// the margin their error allows. Always `false` when `tolerance` is `None` or the
    /// verdict fails.
    pub within_tolerance: bool,
}

impl Verdict {
    /// A holding verdict.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::properties::Verdict;
    /// let v = Verdict::holds("every user at or above its equal split");
    /// assert!(v.holds && v.applicable && v.witness.is_none());
    /// ```
    pub fn holds(note: impl Into<String>) -> Self {
        Verdict {
            holds: true,
            applicable: true,
            witness: None,
            note: note.into(),
            tolerance: None,
            within_tolerance: false,
        }
    }

    /// A failing verdict with its witness.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::properties::{PoWitness, Verdict, Witness};
    /// let w = Witness::Po(PoWitness { user: 0, gain: 1.into(), improved: vec![2.into()] });
    /// let v = Verdict::fails(w, "user 0 can grow");
    /// assert!(!v.holds && v.applicable && v.witness.is_some());
    /// ```
    pub fn fails(witness: Witness, note: impl Into<String>) -> Self {
        Verdict {
            holds: false,
            witness: Some(witness),
            ..Verdict::holds(note)
        }
    }

    /// A verdict for a property whose premise does not apply (vacuously holding).
    ///
    /// # Example
    /// ```
    /// use leontief_solver::properties::Verdict;
    /// let v = Verdict::not_applicable("srf needs exactly one resource");
    /// assert!(v.holds && !v.applicable);
    /// ```
    pub fn not_applicable(note: impl Into<String>) -> Self {
        Verdict {
            applicable: false,
            ..Verdict::holds(note)
        }
    }

    fn with_note_prefix(mut self, prefix: &str) -> Self {
        if !prefix.is_empty() {
            self.note = format!("{prefix}; {}", self.note);
        }
        self
    }
}

/// What changes in the instance for a scenario property.
///
/// # Example
/// ```
/// use leontief_solver::properties::Scenario;
/// use leontief_solver::Rational;
/// let lie = Scenario::Lies(vec![(0, vec![16.into(), 8.into()])]);
/// let grow = Scenario::Capacity(vec![1.into(), 4.into()]);
/// assert_eq!(Scenario::default(), Scenario::Bounded);
/// # let _ = (lie, grow, Scenario::Remove(2));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
// A user carries its optional production fields; scenarios are built a few at a time, so
// the size of `Join` costs nothing worth a box in every match.
#[allow(clippy::large_enum_variant)]
pub enum Scenario {
    /// No scenario given: allocation properties need none; scenario properties try the
    /// bounded default set of [`scenarios`].
    #[default]
    Bounded,
    /// Users (by index) report these demands instead of their true ones. One liar for SP;
    /// one or more distinct liars for GSP.
    Lies(Vec<(usize, Vec<Rational>)>),
    /// This user (by index) leaves (PM).
    Remove(usize),
    /// The capacities become these, each at least the old one (RM).
    Capacity(Vec<Rational>),
    /// This user joins, after the existing ones (PM read from the arrival side: the join of
    /// `k` into `I` is the departure of `k` from `I + k`, docs/theory.md §3.6). The oracles
    /// decide departures; `check` refuses a join, explore's `pm-loss` measures it.
    Join(User),
    /// Work arrives and finishes over time: the churn workload drawn from this seed for the
    /// task-level simulator (explore's `starvation`). No property oracle takes it.
    Churn(u64),
}

/// A scenario property's verdict with how many scenarios it took.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// The decision.
    pub verdict: Verdict,
    /// Scenarios tried (stops at the first violation).
    pub scenarios: usize,
    /// Whether a holding verdict covers only part of the scenario space.
    pub bounded: bool,
}

/// Tries the scenarios in order and stops at the first violation: `decide` gives the
/// failing verdict of a scenario (the `tried`-th, from 1), if any, and `holds` the note of
/// the holding verdict after `tried` scenarios.
fn first_violation<S>(
    mut judge: Judge,
    bounded: bool,
    scenarios: impl IntoIterator<Item = S>,
    mut decide: impl FnMut(S, usize, &mut Judge) -> Result<Option<Verdict>, SolverError>,
    holds: impl FnOnce(usize) -> String,
) -> Result<Outcome, SolverError> {
    let mut tried = 0;
    for scenario in scenarios {
        tried += 1;
        if let Some(fails) = decide(scenario, tried, &mut judge)? {
            return Ok(judge.outcome(fails, tried, bounded));
        }
    }
    Ok(judge.outcome(Verdict::holds(holds(tried)), tried, bounded))
}

/// The result of [`check`]: the truthful allocation, the verdict and how it was reached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckReport {
    /// The property checked.
    pub property: Property,
    /// The mechanism's name.
    pub mechanism: String,
    /// Whether every answer the verdict used was exact: the mechanism is exact, or each of
    /// its answers carried no tolerance or was decided on its exact algebraic form
    /// ([`Mechanism::algebraic_tasks`]). Otherwise some rational answer was judged with the
    /// margin its [`Allocation::tolerance`] allows (see [`Verdict::tolerance`]).
    pub exact: bool,
    /// The mechanism's answer on the instance.
    pub allocation: Allocation,
    /// The true task counts (per user, under the key `tasks`) when the answer is
    /// approximate and was decided on its exact algebraic form
    /// ([`Mechanism::algebraic_tasks`]); `None` otherwise.
    pub exact_tasks: Option<ExactFigures>,
    /// The decision (with its witness when it fails).
    pub verdict: Verdict,
    /// Scenarios tried (0 for allocation properties).
    pub scenarios: usize,
    /// `true` when a holding verdict is evidence from a finite sample of scenarios rather
    /// than a decision over all of them.
    pub bounded: bool,
}

impl CheckReport {
    /// The witness, when the property fails.
    pub fn witness(&self) -> Option<&Witness> {
        self.verdict.witness.as_ref()
    }

    /// The JSON form, with names and exact numbers.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::properties::{check, Property, Scenario};
    /// use leontief_solver::{Drf, Instance, User};
    /// let paper = Instance::new(vec![9.into(), 18.into()],
    ///     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
    /// let report = check(&Drf::extended(), &paper, Property::Ef, &Scenario::Bounded).unwrap();
    /// let json = report.to_json(&paper);
    /// assert_eq!(json["property"], "ef");
    /// assert_eq!(json["holds"], true);
    /// assert_eq!(json["tasks"]["A"], "3");
    /// ```
    pub fn to_json(&self, instance: &Instance) -> Value {
        let tasks = by_user_figure(
            instance,
            self.exact_tasks.as_ref(),
            "tasks",
            &self.allocation.tasks,
        );
        json!({
            "property": self.property.name(),
            "mechanism": self.mechanism,
            "exact": self.exact,
            "holds": self.verdict.holds,
            "applicable": self.verdict.applicable,
            "bounded": self.bounded,
            "scenarios": self.scenarios,
            "note": self.verdict.note,
            "tolerance": self.verdict.tolerance,
            "within_tolerance": self.verdict.within_tolerance,
            "tasks": tasks,
            "witness": self.witness().map(|w| w.to_json(instance)),
        })
    }
}

/// Checks one property of a mechanism on an instance, exactly.
///
/// Allocation properties take [`Scenario::Bounded`] only. SP takes a one-liar
/// [`Scenario::Lies`], GSP one with any number of distinct liars, PM [`Scenario::Remove`],
/// RM [`Scenario::Capacity`] (each entry at least the old capacity; otherwise
/// `SolverError::Invalid` on `capacity`). With [`Scenario::Bounded`] the scenario
/// properties try the default sets of [`scenarios`] under [`Bounds::default`].
///
/// # Errors
/// A scenario that does not fit the property or the instance (wrong user, a lie that makes
/// the instance invalid, shrinking capacities), and any error of the mechanism.
///
/// # Example
/// DRF fails resource monotonicity (reference case `drf-not-rm`): on (1, 1) with A ⟨2, 1⟩
/// and B ⟨1, 2⟩ both get 1/3; with 4 units of the second resource A falls to 1/4.
/// ```
/// use leontief_solver::properties::{check, Property, Scenario, Witness};
/// use leontief_solver::{Drf, Instance, Rational, User};
/// let inst = Instance::new(vec![1.into(), 1.into()],
///     vec![User::new("A", [2, 1]), User::new("B", [1, 2])]).unwrap();
/// let grow = Scenario::Capacity(vec![1.into(), 4.into()]);
/// let report = check(&Drf::extended(), &inst, Property::Rm, &grow).unwrap();
/// let Some(Witness::Rm(w)) = report.witness() else { panic!("expected an RM witness") };
/// assert_eq!((w.user, w.before.to_string(), w.after.to_string()), (0, "1/3".into(), "1/4".into()));
/// ```
pub fn check(
    mechanism: &dyn Mechanism,
    instance: &Instance,
    property: Property,
    scenario: &Scenario,
) -> Result<CheckReport, SolverError> {
    let truth = mechanism.allocate(instance)?;
    let bounds = Bounds::default();
    check_with_exact_form(mechanism, instance, &truth, property, scenario, &bounds)
}

/// [`check_with`], seeking the exact algebraic form of every approximate answer as
/// [`check`] does. A driver that judges many instances as given (the fast path) calls it
/// on the reports it shows, so that a shown witness is exact where the answer is.
///
/// # Errors
/// As [`check_with`].
pub fn check_with_exact_form(
    mechanism: &dyn Mechanism,
    instance: &Instance,
    truth: &Allocation,
    property: Property,
    scenario: &Scenario,
    bounds: &Bounds,
) -> Result<CheckReport, SolverError> {
    check_tasks(instance, truth, "allocation")?;
    let truth = Answer::of(mechanism, instance, truth.clone());
    check_answer(mechanism, instance, truth, property, scenario, bounds)
}

/// [`check`] with the mechanism's truthful answer already computed (so that a driver
/// checking several properties computes it once) and explicit bounds for the default
/// scenario sets. Unlike [`check`], it judges every answer as given and does not seek the
/// exact algebraic form ([`Mechanism::algebraic_tasks`]).
///
/// # Errors
/// As [`check`]; also when `truth` does not have one entry per user.
///
/// # Example
/// ```
/// use leontief_solver::properties::{check_with, Bounds, Property, Scenario};
/// use leontief_solver::{Drf, Instance, Mechanism, User};
/// let paper = Instance::new(vec![9.into(), 18.into()],
///     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
/// let drf = Drf::extended();
/// let truth = drf.allocate(&paper).unwrap();
/// let bounds = Bounds { max_liars: Some(1), max_profiles: 100 };
/// for p in [Property::Si, Property::Po, Property::GspWeak] {
///     let r = check_with(&drf, &paper, &truth, p, &Scenario::Bounded, &bounds).unwrap();
///     assert!(r.verdict.holds, "{p}");
/// }
/// // SP tries each user's 6 structured lies; PM both departures, which is exhaustive.
/// let sp = check_with(&drf, &paper, &truth, Property::Sp, &Scenario::Bounded, &bounds).unwrap();
/// assert_eq!((sp.scenarios, sp.bounded), (12, true));
/// let pm = check_with(&drf, &paper, &truth, Property::Pm, &Scenario::Bounded, &bounds).unwrap();
/// assert_eq!((pm.scenarios, pm.bounded), (2, false));
/// // Under the default bounds GSP tries single liars and pairs of liars.
/// let all = Bounds::default();
/// let gsp = check_with(&drf, &paper, &truth, Property::GspWeak, &Scenario::Bounded, &all).unwrap();
/// assert_eq!(gsp.scenarios, 6 + 6 + 6 * 6);
/// ```
pub fn check_with(
    mechanism: &dyn Mechanism,
    instance: &Instance,
    truth: &Allocation,
    property: Property,
    scenario: &Scenario,
    bounds: &Bounds,
) -> Result<CheckReport, SolverError> {
    let truth = given(instance, truth)?;
    check_answer(mechanism, instance, truth, property, scenario, bounds)
}

/// The report on `truth`, the mechanism's answer on `instance`: with its exact form when
/// [`Answer::of`] sought one ([`check`]), as given otherwise ([`check_with`]).
fn check_answer(
    mechanism: &dyn Mechanism,
    instance: &Instance,
    truth: Answer,
    property: Property,
    scenario: &Scenario,
    bounds: &Bounds,
) -> Result<CheckReport, SolverError> {
    let outcome = decide(mechanism, instance, &truth, property, scenario, bounds)?;
    let exact = mechanism.is_exact() || (truth.is_exact() && outcome.verdict.tolerance.is_none());
    let exact_note = if mechanism.is_exact() {
        String::new()
    } else {
        let how = if exact {
            ", but every answer used here was exact (certified rational, or the exact \
             algebraic equilibrium)"
        } else if outcome.verdict.tolerance.is_some() {
            ": its rational answers are judged with the tolerance they carry"
        } else {
            ": its rational answers are judged exactly as given"
        };
        format!("{} is not exact{how}", mechanism.name())
    };
    Ok(CheckReport {
        property,
        mechanism: mechanism.name().to_string(),
        exact,
        exact_tasks: ExactFigures::default()
            .with_users("tasks", truth.exact_tasks())
            .into_option(),
        allocation: truth.allocation,
        verdict: outcome.verdict.with_note_prefix(&exact_note),
        scenarios: outcome.scenarios,
        bounded: outcome.bounded,
    })
}

fn decide(
    mechanism: &dyn Mechanism,
    instance: &Instance,
    truth: &Answer,
    property: Property,
    scenario: &Scenario,
    bounds: &Bounds,
) -> Result<Outcome, SolverError> {
    let wrong = |expected: &str| {
        Err(SolverError::invalid(
            "scenario",
            format!("{property} takes {expected}"),
        ))
    };
    let reading = if property == Property::GspStrong {
        GspReading::Strong
    } else {
        GspReading::Weak
    };
    // The judge of a single scenario: the truth and the scenario's answer.
    let mut judge = Judge::on(truth);
    let judge = &mut judge;
    // A single scenario's witness, if any, and the notes of failing and of holding.
    let (found, fails, holds) = match (property, scenario) {
        (p, Scenario::Bounded) if p.is_allocation_property() => {
            return Ok(Outcome {
                verdict: allocation::check_answer(instance, truth, property)?,
                scenarios: 0,
                bounded: false,
            });
        }
        (Property::Sp, Scenario::Bounded) => {
            return manipulation::sp_bounded(mechanism, instance, truth)
        }
        (Property::Sp, Scenario::Lies(lies)) => {
            let [(liar, report)] = lies.as_slice() else {
                return wrong("exactly one liar (use gsp-strong or gsp-weak for groups)");
            };
            let found = manipulation::sp_judged(mechanism, instance, truth, *liar, report, judge)?;
            (
                found.map(Witness::Sp),
                "the lie is profitable".to_string(),
                "the lie is not profitable".to_string(),
            )
        }
        (Property::GspStrong | Property::GspWeak, Scenario::Bounded) => {
            return manipulation::gsp_bounded(mechanism, instance, truth, reading, bounds)
        }
        (Property::GspStrong | Property::GspWeak, Scenario::Lies(lies)) => {
            let found = manipulation::gsp_judged(mechanism, instance, truth, lies, reading, judge)?;
            (
                found.map(Witness::Gsp),
                format!("the group lie violates {}", reading.name()),
                format!("the group lie does not violate {}", reading.name()),
            )
        }
        (Property::Pm, Scenario::Bounded) => {
            return monotonicity::pm_bounded(mechanism, instance, truth)
        }
        (Property::Pm, Scenario::Remove(k)) => (
            monotonicity::pm_judged(mechanism, instance, truth, *k, judge)?.map(Witness::Pm),
            "a remaining user loses".to_string(),
            "no remaining user loses".to_string(),
        ),
        (Property::Rm, Scenario::Bounded) => {
            return monotonicity::rm_bounded(mechanism, instance, truth)
        }
        (Property::Rm, Scenario::Capacity(c)) => (
            monotonicity::rm_judged(mechanism, instance, truth, c, judge)?.map(Witness::Rm),
            "a user loses as capacities grow".to_string(),
            "no user loses as capacities grow".to_string(),
        ),
        (Property::Sp, _) => return wrong("lies (one user and its report)"),
        (Property::GspStrong | Property::GspWeak, _) => {
            return wrong("lies (a list of users and their reports)")
        }
        (Property::Pm, _) => return wrong("the removal of one user"),
        (Property::Rm, _) => return wrong("new capacities"),
        _ => return wrong("no scenario"),
    };
    let verdict = match found {
        Some(w) => Verdict::fails(w, fails),
        None => Verdict::holds(holds),
    };
    // One scenario decided exactly is not the whole property: bounded.
    Ok(judge.outcome(verdict, 1, true))
}

/// User `i`'s utility at the truth when it runs `tasks` tasks: `min(T_i, x_i)` (the bundle
/// `x_i d_i` runs `x_i` tasks of its own demand).
///
/// # Panics
/// When `i` is not a user of `instance`.
///
/// # Example
/// ```
/// use leontief_solver::properties::utility_at_truth;
/// use leontief_solver::{Instance, User};
/// let inst = Instance::new(vec![9.into()], vec![User::new("A", [1]).cap(2)]).unwrap();
/// assert_eq!(utility_at_truth(&inst, 0, &3.into()), 2.into());
/// ```
pub fn utility_at_truth(instance: &Instance, i: usize, tasks: &Rational) -> Rational {
    // One comparison: the gauge's general product is per user on the search's paths.
    match &instance.users()[i].cap {
        Some(t) if t < tasks => t.clone(),
        _ => tasks.clone(),
    }
}

/// User `i`'s **true** utility when it reported `report` and received `tasks` tasks of it:
/// `u_i(x'_i d'_i) = min(T_i, min_{j: d_ij > 0} x'_i d'_ij / d_ij)`, measured with its true
/// demand and cap in `instance`. Entries of `report` beyond the instance's resources are
/// ignored; a missing one counts as zero.
///
/// # Panics
/// When `i` is not a user of `instance`.
///
/// # Example
/// The reference case `ceei-not-sp`: user 1 needs ⟨16, 1⟩, reports ⟨16, 8⟩ and receives
/// 25/6 tasks of the report: it can run 25/6 real tasks.
/// ```
/// use leontief_solver::properties::utility_of_report;
/// use leontief_solver::{Instance, Rational, User};
/// let inst = Instance::new(vec![100.into(), 100.into()],
///     vec![User::new("1", [16, 1]), User::new("2", [1, 2])]).unwrap();
/// let x: Rational = "25/6".parse().unwrap();
/// assert_eq!(utility_of_report(&inst, 0, &x, &[16.into(), 8.into()]), x);
/// assert_eq!(utility_of_report(&inst, 0, &x, &[32.into(), 0.into()]), 0.into());
/// ```
pub fn utility_of_report(
    instance: &Instance,
    i: usize,
    tasks: &Rational,
    report: &[Rational],
) -> Rational {
    report_gauge(instance, i, report).apply(tasks)
}

/// `min(T_i, y)`: user `i`'s utility at the truth with `y` tasks ([`utility_at_truth`]), as
/// a [`Gauge`] (which also maps exact algebraic task counts).
pub fn truth_gauge(instance: &Instance, i: usize) -> Gauge {
    Gauge::capped(instance.users()[i].cap.as_ref())
}

/// User `i`'s true utility with `y` tasks of `report` ([`utility_of_report`]):
/// `min(T_i, min_{j: d_ij > 0} y d'_ij / d_ij)`, 0 when it did not ask for a resource it needs
/// (a missing entry of `report` counts as zero).
pub fn report_gauge(instance: &Instance, i: usize, report: &[Rational]) -> Gauge {
    let u = &instance.users()[i];
    // The true tasks per task of the report, `d'_ij / d_ij` over the resources it needs.
    let fractions = u.demand.iter().enumerate().filter(|(_, d)| !d.is_zero());
    let fraction = fractions
        .map(|(j, d)| report.get(j).map_or(Rational::ZERO, |r| r / d))
        .min()
        .expect("validated: some demand is positive");
    Gauge::min_of([fraction], u.cap.as_ref())
}

/// `truth`, checked to have one entry per user, to be judged as given.
fn given(instance: &Instance, truth: &Allocation) -> Result<Answer, SolverError> {
    check_tasks(instance, truth, "allocation")?;
    Ok(Answer::given(truth.clone()))
}

/// Decides one scenario on `truth`, checked and judged as given, with a [`Judge`] on it.
fn on_given<T>(
    instance: &Instance,
    truth: &Allocation,
    decide: impl FnOnce(&Answer, &mut Judge) -> Result<T, SolverError>,
) -> Result<T, SolverError> {
    let truth = given(instance, truth)?;
    decide(&truth, &mut Judge::on(&truth))
}

/// `i` is a user of `instance`.
fn check_user(instance: &Instance, i: usize, field: &str) -> Result<(), SolverError> {
    if i >= instance.num_users() {
        return Err(SolverError::invalid(
            field,
            format!(
                "no user {i}: the instance has {} (indices from 0)",
                instance.num_users()
            ),
        ));
    }
    Ok(())
}

/// `tasks` has one entry per user.
fn check_tasks(instance: &Instance, x: &Allocation, field: &str) -> Result<(), SolverError> {
    if x.tasks.len() != instance.num_users() {
        return Err(SolverError::invalid(
            field,
            format!(
                "expected {} task counts, one per user, found {}",
                instance.num_users(),
                x.tasks.len()
            ),
        ));
    }
    Ok(())
}
