//! Manipulation: strategy-proofness (SP) and group strategy-proofness in its two readings
//! (`docs/theory.md` §3), decided exactly on given lies or on the bounded default sets of
//! [`scenarios`](super::scenarios).
//!
//! A lie replaces some users' demands; the mechanism answers the reported profile with
//! `x'`, and every user's utility is measured with its **true** demand and cap: the liars'
//! with [`utility_of_report`], everyone else's with [`utility_at_truth`]. Caps are not
//! reported (they stay as in the instance).
//!
//! - SP fails when the liar's true utility strictly rises.
//! - GSP's coalition is the liars plus whoever strictly gains. [`GspReading::Strong`]
//!   (`gsp-strong`) fails when every member is weakly better off and one strictly — so when
//!   no liar loses and someone gains; [`GspReading::Weak`] (`gsp-weak`) fails when every
//!   member strictly gains — so when every liar does.
//!
//! # Example
//! The lecture's four operations: op1 and op2 claim network they do not need; op3 rises
//! from 2/3 to 3/4 tasks and op1, op2 keep 1/2 — a `gsp-strong` violation, not a `gsp-weak`
//! one.
//! ```
//! use leontief_solver::properties::manipulation::{gsp_scenario, GspReading};
//! use leontief_solver::{Drf, Instance, Mechanism, Rational, User};
//! let inst = Instance::new(vec![1.into(); 3], vec![
//!     User::new("op1", [1, 0, 0]), User::new("op2", [1, 0, 0]),
//!     User::new("op3", [0, 1, 0]), User::new("op4", ["0", "1/2", "1"].map(|s| s.parse::<Rational>().unwrap())),
//! ]).unwrap();
//! let drf = Drf::extended();
//! let truth = drf.allocate(&inst).unwrap();
//! let lie: Vec<Rational> = ["1", "0", "1/2"].iter().map(|s| s.parse().unwrap()).collect();
//! let lies = vec![(0, lie.clone()), (1, lie)];
//! let w = gsp_scenario(&drf, &inst, &truth, &lies, GspReading::Strong).unwrap().unwrap();
//! assert_eq!(w.coalition, vec![0, 1, 2]);
//! assert_eq!(w.after[2].to_string(), "3/4");
//! assert!(gsp_scenario(&drf, &inst, &truth, &lies, GspReading::Weak).unwrap().is_none());
//! ```
//!
//! # References
//! - A. Ghodsi et al. *Dominant Resource Fairness.* NSDI 2011 (strategy-proofness).
//! - D. Parkes, A. Procaccia, N. Shah. *Beyond Dominant Resource Fairness.* EC 2012 (group
//!   strategy-proofness of extended DRF in the weak reading).

use super::exact::Answer;
use super::scenarios::{count_lie_profiles, structured_lies, Bounds, LieProfiles};
use super::tolerance::{Bounded, Judge, Test};
use super::{
    check_user, first_violation, on_given, report_gauge, truth_gauge, user_name, ExactFigures,
    Outcome, Verdict, Witness,
};
use crate::{Allocation, Instance, Mechanism, Rational, SolverError};

/// Which reading of group strategy-proofness, by the name of its property (`gsp-` and the
/// variant, derived with strum).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, strum::IntoStaticStr, strum::Display)]
#[strum(prefix = "gsp-", serialize_all = "kebab-case")]
pub enum GspReading {
    /// `gsp-strong`: no coalition all weakly better off and one strictly.
    Strong,
    /// `gsp-weak`: no coalition all strictly better off.
    Weak,
}

impl GspReading {
    /// `gsp-strong` or `gsp-weak`.
    pub fn name(self) -> &'static str {
        self.into()
    }
}

/// A profitable lie (SP): `user` reports `report`, receives `tasks_under_lie[user]` tasks of
/// it, and its true utility rises from `before` to `after`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpWitness {
    /// The liar.
    pub user: usize,
    /// Its report.
    pub report: Vec<Rational>,
    /// The mechanism's answer on the reported profile.
    pub tasks_under_lie: Vec<Rational>,
    /// True utility at the truth, `min(T_i, x_i)`.
    pub before: Rational,
    /// True utility under the lie, `u_i(x'_i d'_i) > before`.
    pub after: Rational,
    /// The exact values of `tasks_under_lie`, `before` and `after` (by those keys) when an
    /// answer was decided on its exact algebraic form; the fields above then hold the
    /// computed approximations.
    pub exact: Option<ExactFigures>,
}

/// A profitable group lie (GSP) in one reading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GspWitness {
    /// The reading violated.
    pub reading: GspReading,
    /// The liars and their reports, by user index.
    pub reports: Vec<(usize, Vec<Rational>)>,
    /// The mechanism's answer on the reported profile.
    pub tasks_under_lie: Vec<Rational>,
    /// The coalition: the liars plus whoever strictly gains, in index order.
    pub coalition: Vec<usize>,
    /// Every user's true utility at the truth.
    pub before: Vec<Rational>,
    /// Every user's true utility under the lie.
    pub after: Vec<Rational>,
    /// The exact values of `tasks_under_lie`, `before` and `after` (per user, by the keys
    /// `tasks_under_lie`, `utilities_before`, `utilities_after`) when an answer was decided
    /// on its exact algebraic form.
    pub exact: Option<ExactFigures>,
}

/// Decides one lie of one user (SP): `Some` witness when it is profitable.
///
/// # Errors
/// When `liar` is not a user, the report makes the instance invalid (wrong length,
/// negative or all-zero entries), `truth` does not fit, or the mechanism fails.
///
/// # Example
/// The DRF paper's example: A ⟨1, 4⟩ claiming ⟨1, 8⟩ does not gain under DRF.
/// ```
/// use leontief_solver::properties::manipulation::sp_scenario;
/// use leontief_solver::{Drf, Instance, Mechanism, User};
/// let paper = Instance::new(vec![9.into(), 18.into()],
///     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
/// let truth = Drf::extended().allocate(&paper).unwrap();
/// let found = sp_scenario(&Drf::extended(), &paper, &truth, 0, &[1.into(), 8.into()]).unwrap();
/// assert!(found.is_none());
/// ```
pub fn sp_scenario(
    mechanism: &dyn Mechanism,
    instance: &Instance,
    truth: &Allocation,
    liar: usize,
    report: &[Rational],
) -> Result<Option<SpWitness>, SolverError> {
    on_given(instance, truth, |truth, judge| {
        sp_judged(mechanism, instance, truth, liar, report, judge)
    })
}

/// [`sp_scenario`], recording the allocations and excused comparisons in `judge`.
pub(crate) fn sp_judged(
    mechanism: &dyn Mechanism,
    instance: &Instance,
    truth: &Answer,
    liar: usize,
    report: &[Rational],
    judge: &mut Judge,
) -> Result<Option<SpWitness>, SolverError> {
    check_user(instance, liar, "scenario.lies")?;
    let lied = instance.with_demand(liar, report.to_vec())?;
    let before = truthful_utility(instance, truth, liar);
    sp_on(mechanism, instance, &lied, liar, &before, judge)
}

/// SP on an already built reported instance: the liar's true utility must rise beyond the
/// margin the answers' errors allow.
fn sp_on(
    mechanism: &dyn Mechanism,
    instance: &Instance,
    lied: &Instance,
    liar: usize,
    before: &Bounded,
    judge: &mut Judge,
) -> Result<Option<SpWitness>, SolverError> {
    let x = judge.answer(mechanism, lied, "allocation under the lie")?;
    let report = &lied.users()[liar].demand;
    let after = Bounded::tasks(&x, liar).map(&report_gauge(instance, liar, report));
    if !judge.settle(Test::less(before, &after)) {
        return Ok(None);
    }
    let exact = ExactFigures::default()
        .with_users("tasks_under_lie", x.exact_tasks())
        .with("before", before.exact_figure())
        .with("after", after.exact_figure())
        .into_option();
    Ok(Some(SpWitness {
        user: liar,
        report: report.clone(),
        tasks_under_lie: x.allocation.tasks,
        before: before.value.clone(),
        after: after.value,
        exact,
    }))
}

/// SP over every user's [`structured_lies`]; stops at the first profitable one.
pub(crate) fn sp_bounded(
    mechanism: &dyn Mechanism,
    instance: &Instance,
    truth: &Answer,
) -> Result<Outcome, SolverError> {
    let before = truthful_utilities(instance, truth);
    // Structured lies are valid reports; anything else is simply not a scenario.
    let lies = (0..instance.num_users()).flat_map(|liar| {
        structured_lies(instance, liar)
            .into_iter()
            .filter_map(move |report| Some((liar, instance.with_demand(liar, report).ok()?)))
    });
    first_violation(
        Judge::on(truth),
        true,
        lies,
        |(liar, lied), tried, judge| {
            let found = sp_on(mechanism, instance, &lied, liar, &before[liar], judge)?;
            Ok(found.map(|w| {
                let note = format!(
                    "user {} gains by misreporting (bounded: found at structured lie {tried})",
                    user_name(instance, liar)
                );
                Verdict::fails(Witness::Sp(w), note)
            }))
        },
        |tried| {
            format!(
                "bounded: no profitable lie among {tried} structured lies (each user: \
                 components doubled, plus the largest, zeroed; unused resources at 1/2 and 1 x \
                 the dominant share; dominant component halved and doubled)"
            )
        },
    )
}

/// Decides one group lie in one reading: `Some` witness when it violates it.
///
/// # Errors
/// When the list is empty, names a user twice or a non-user, a report makes the instance
/// invalid, `truth` does not fit, or the mechanism fails.
///
/// # Example
/// See the [module docs](self) for the four-operation example.
/// ```
/// use leontief_solver::properties::manipulation::{gsp_scenario, GspReading};
/// use leontief_solver::{Drf, Instance, Mechanism, User};
/// let paper = Instance::new(vec![9.into(), 18.into()],
///     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
/// let truth = Drf::extended().allocate(&paper).unwrap();
/// let lies = vec![(0, vec![1.into(), 8.into()]), (1, vec![6.into(), 1.into()])];
/// assert!(gsp_scenario(&Drf::extended(), &paper, &truth, &lies, GspReading::Weak).unwrap().is_none());
/// ```
pub fn gsp_scenario(
    mechanism: &dyn Mechanism,
    instance: &Instance,
    truth: &Allocation,
    reports: &[(usize, Vec<Rational>)],
    reading: GspReading,
) -> Result<Option<GspWitness>, SolverError> {
    on_given(instance, truth, |truth, judge| {
        gsp_judged(mechanism, instance, truth, reports, reading, judge)
    })
}

/// [`gsp_scenario`], recording the allocations and excused comparisons in `judge`.
pub(crate) fn gsp_judged(
    mechanism: &dyn Mechanism,
    instance: &Instance,
    truth: &Answer,
    reports: &[(usize, Vec<Rational>)],
    reading: GspReading,
    judge: &mut Judge,
) -> Result<Option<GspWitness>, SolverError> {
    if reports.is_empty() {
        return Err(SolverError::invalid(
            "scenario.lies",
            "expected at least one liar",
        ));
    }
    for (pos, (i, _)) in reports.iter().enumerate() {
        check_user(instance, *i, "scenario.lies")?;
        if reports[..pos].iter().any(|(k, _)| k == i) {
            return Err(SolverError::invalid(
                "scenario.lies",
                format!("user {} lies twice", user_name(instance, *i)),
            ));
        }
    }
    let lied = instance.with_reports(reports)?;
    let before = truthful_utilities(instance, truth);
    gsp_on(mechanism, instance, &lied, reports, &before, reading, judge)
}

/// User `i`'s true utility at the truth, with its error bounds.
fn truthful_utility(instance: &Instance, truth: &Answer, i: usize) -> Bounded {
    Bounded::tasks(truth, i).map(&truth_gauge(instance, i))
}

/// Every user's true utility at the truth, with its error bounds.
fn truthful_utilities(instance: &Instance, truth: &Answer) -> Vec<Bounded> {
    (0..instance.num_users())
        .map(|i| truthful_utility(instance, truth, i))
        .collect()
}

/// GSP on an already built reported instance. With approximate answers a gain or a "no
/// loss" counts only beyond the margin their errors allow, and the coalition is the liars
/// plus whoever gains beyond it.
fn gsp_on(
    mechanism: &dyn Mechanism,
    instance: &Instance,
    lied: &Instance,
    reports: &[(usize, Vec<Rational>)],
    before: &[Bounded],
    reading: GspReading,
    judge: &mut Judge,
) -> Result<Option<GspWitness>, SolverError> {
    let x = judge.answer(mechanism, lied, "allocation under the lie")?;
    let report_of = |i: usize| reports.iter().find(|(k, _)| *k == i).map(|(_, r)| r);
    let after: Vec<Bounded> = (0..instance.num_users())
        .map(|i| {
            Bounded::tasks(&x, i).map(&match report_of(i) {
                Some(r) => report_gauge(instance, i, r),
                None => truth_gauge(instance, i),
            })
        })
        .collect();
    let gains = |i: usize| Test::less(&before[i], &after[i]);
    let violated = match reading {
        // Gainers are strictly better by definition: it comes down to the liars.
        GspReading::Strong => Test::all(
            reports
                .iter()
                .map(|(i, _)| Test::at_most(&before[*i], &after[*i])),
        )
        .and(Test::any((0..instance.num_users()).map(gains))),
        GspReading::Weak => Test::all(reports.iter().map(|(i, _)| gains(*i))),
    };
    if !judge.settle(violated) {
        return Ok(None);
    }
    let coalition = (0..instance.num_users())
        .filter(|&i| report_of(i).is_some() || gains(i).certain)
        .collect();
    let exact_of = |v: &[Bounded]| -> Option<Vec<Option<crate::ceei::ExactNumber>>> {
        let figures: Vec<_> = v.iter().map(Bounded::exact_figure).collect();
        figures.iter().any(Option::is_some).then_some(figures)
    };
    let exact = ExactFigures::default()
        .with_users("tasks_under_lie", x.exact_tasks())
        .with_users("utilities_before", exact_of(before))
        .with_users("utilities_after", exact_of(&after))
        .into_option();
    Ok(Some(GspWitness {
        reading,
        reports: reports.to_vec(),
        tasks_under_lie: x.allocation.tasks,
        coalition,
        before: before.iter().map(|b| b.value.clone()).collect(),
        after: after.into_iter().map(|a| a.value).collect(),
        exact,
    }))
}

/// GSP in one reading over the group-lie profiles of [`LieProfiles`] built from every
/// user's [`structured_lies`], within `bounds`; stops at the first violation.
pub(crate) fn gsp_bounded(
    mechanism: &dyn Mechanism,
    instance: &Instance,
    truth: &Answer,
    reading: GspReading,
    bounds: &Bounds,
) -> Result<Outcome, SolverError> {
    let n = instance.num_users();
    let lies: Vec<Vec<Vec<Rational>>> = (0..n).map(|i| structured_lies(instance, i)).collect();
    let counts: Vec<usize> = lies.iter().map(Vec::len).collect();
    let max_liars = bounds.liars_for(n);
    let total = count_lie_profiles(&counts, max_liars);
    let before = truthful_utilities(instance, truth);
    let profiles = LieProfiles::new(counts, max_liars, bounds.max_profiles).filter_map(|profile| {
        let reports: Vec<(usize, Vec<Rational>)> = profile
            .iter()
            .map(|&(i, l)| (i, lies[i][l].clone()))
            .collect();
        let lied = instance.with_reports(&reports).ok()?;
        Some((reports, lied))
    });
    first_violation(
        Judge::on(truth),
        true,
        profiles,
        |(reports, lied): (Vec<(usize, Vec<Rational>)>, Instance), tried, judge| {
            let found = gsp_on(
                mechanism, instance, &lied, &reports, &before, reading, judge,
            )?;
            Ok(found.map(|w| {
                let note = format!(
                    "a group lie violates {} (bounded: found at profile {tried})",
                    reading.name()
                );
                Verdict::fails(Witness::Gsp(w), note)
            }))
        },
        |tried| {
            let cut = if (tried as u128) < total {
                format!(", cut at {} profiles", bounds.max_profiles)
            } else {
                String::new()
            };
            format!(
                "bounded: no {} violation among {tried} of {total} group-lie profiles \
                 (1 to {max_liars} liars, each telling one structured lie{cut}; the coalition \
                 is the liars plus whoever gains)",
                reading.name()
            )
        },
    )
}

#[cfg(test)]
mod tests {
    use super::GspReading;
    use crate::properties::Property;

    #[test]
    fn each_reading_is_named_as_its_property() {
        // The readings are the properties gsp-strong and gsp-weak (properties/mod.rs).
        assert_eq!(GspReading::Strong.name(), Property::GspStrong.name());
        assert_eq!(GspReading::Weak.name(), Property::GspWeak.name());
        assert_eq!(GspReading::Weak.to_string(), "gsp-weak");
    }
}
