//! A candidate counterexample — an instance and a scenario — and its exact re-verification.
//!
//! Everything the search reports goes through [`evaluate`]: the mechanism's truthful answer
//! is recomputed and the property decided on the one scenario by the oracles of
//! `leontief_solver::properties`, exactly (or with the margin an approximate answer carries).
//! The shrinker and the corpus replay use the same function, so nothing is reported that
//! does not re-verify from scratch.

use leontief_solver::properties::{
    check_with, utility_at_truth, utility_of_report, Bounds, Property, Scenario, Witness,
};
use leontief_solver::{Allocation, Instance, Mechanism, Rational, SolverError};

/// An instance and the scenario in which a property is claimed to fail.
///
/// Scenario per property: SP a one-liar [`Scenario::Lies`], GSP one or more liars, PM
/// [`Scenario::Remove`], RM [`Scenario::Capacity`], the allocation properties (SI, EF, PO,
/// SRF, BF, BBF) [`Scenario::Bounded`] (no change to the instance). Serialized as
/// `{"instance", "scenario"}`, the scenario by kind (explore's [`wire`](crate::explore::wire)
/// form).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(
    into = "crate::explore::wire::CandidateDoc",
    try_from = "crate::explore::wire::CandidateDoc"
)]
pub struct Candidate {
    /// The true instance.
    pub instance: Instance,
    /// What changes.
    pub scenario: Scenario,
}

/// A verified violation: the oracle's witness and every user's true utility before and
/// after the scenario.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// The oracle's witness.
    pub witness: Witness,
    /// Every user's true utility under the mechanism's answer on the true instance.
    pub before: Vec<Rational>,
    /// Every user's true utility in the scenario (`None` for a user who left); `None` for
    /// the allocation properties, which have no scenario.
    pub after: Option<Vec<Option<Rational>>>,
    /// The users the violation is about: the coalition for SP/GSP (liars and whoever
    /// strictly gains), the users who lose for PM/RM, the users the witness names for the
    /// allocation properties.
    pub coalition: Vec<usize>,
}

impl Candidate {
    /// A candidate.
    ///
    /// # Example
    /// The lecture's collusion: op1 and op2 claim network they do not use.
    /// ```
    /// use leontief_counterexamples::candidate::{evaluate, Candidate};
    /// use leontief_solver::properties::{Property, Scenario};
    /// use leontief_solver::{Drf, Instance, Rational, User};
    /// let q = |s: &str| s.parse::<Rational>().unwrap();
    /// let inst = Instance::new(vec![1.into(); 3], vec![
    ///     User::new("op1", [1, 0, 0]), User::new("op2", [1, 0, 0]),
    ///     User::new("op3", [0, 1, 0]), User::new("op4", [q("0"), q("1/2"), q("1")]),
    /// ]).unwrap();
    /// let lie = vec![q("1"), q("0"), q("1/2")];
    /// let c = Candidate::new(inst, Scenario::Lies(vec![(0, lie.clone()), (1, lie)]));
    /// let v = evaluate(&Drf::extended(), Property::GspStrong, &c).unwrap().unwrap();
    /// assert_eq!(v.coalition, vec![0, 1, 2]);
    /// assert!(evaluate(&Drf::extended(), Property::GspWeak, &c).unwrap().is_none());
    /// ```
    pub fn new(instance: Instance, scenario: Scenario) -> Self {
        Candidate { instance, scenario }
    }
}

/// Whether `scenario` is the kind `property` takes.
pub fn fits(property: Property, scenario: &Scenario) -> bool {
    match (property, scenario) {
        (Property::Sp, Scenario::Lies(l)) => l.len() == 1,
        (Property::GspStrong | Property::GspWeak, Scenario::Lies(l)) => !l.is_empty(),
        (Property::Pm, Scenario::Remove(_)) => true,
        (Property::Rm, Scenario::Capacity(_)) => true,
        (p, Scenario::Bounded) => p.is_allocation_property(),
        _ => false,
    }
}

/// Decides `property` of `mechanism` on the candidate's one scenario, from scratch.
///
/// # Errors
/// A scenario that does not fit the property or the instance, and any error of the
/// mechanism.
///
/// # Example
/// DRF is not resource monotonic (reference case `drf-not-rm`).
/// ```
/// use leontief_counterexamples::candidate::{evaluate, Candidate};
/// use leontief_solver::properties::{Property, Scenario};
/// use leontief_solver::{Drf, Instance, User};
/// let inst = Instance::new(vec![1.into(), 1.into()],
///     vec![User::new("A", [2, 1]), User::new("B", [1, 2])]).unwrap();
/// let c = Candidate::new(inst, Scenario::Capacity(vec![1.into(), 4.into()]));
/// let v = evaluate(&Drf::extended(), Property::Rm, &c).unwrap().unwrap();
/// assert_eq!(v.coalition, vec![0]);
/// assert_eq!(v.before[0].to_string(), "1/3");
/// ```
pub fn evaluate(
    mechanism: &dyn Mechanism,
    property: Property,
    candidate: &Candidate,
) -> Result<Option<Violation>, SolverError> {
    let truth = mechanism.allocate(&candidate.instance)?;
    evaluate_with(mechanism, property, candidate, &truth)
}

/// [`evaluate`] with the truthful answer already computed.
///
/// # Errors
/// As [`evaluate`].
pub fn evaluate_with(
    mechanism: &dyn Mechanism,
    property: Property,
    candidate: &Candidate,
    truth: &Allocation,
) -> Result<Option<Violation>, SolverError> {
    let inst = &candidate.instance;
    if !fits(property, &candidate.scenario) {
        return Err(SolverError::invalid(
            "scenario",
            format!("{property} does not take this kind of scenario"),
        ));
    }
    let report = check_with(
        mechanism,
        inst,
        truth,
        property,
        &candidate.scenario,
        &Bounds::default(),
    )?;
    let witness = if report.verdict.applicable && !report.verdict.holds {
        report.verdict.witness
    } else {
        None
    };
    Ok(witness.map(|w| violation(inst, truth, w)))
}

/// Every user's utility for the task counts `tasks`, measured with the true demands.
pub(crate) fn truthful_utilities(instance: &Instance, tasks: &[Rational]) -> Vec<Rational> {
    (0..instance.num_users())
        .map(|i| utility_at_truth(instance, i, &tasks[i]))
        .collect()
}

fn violation(inst: &Instance, truth: &Allocation, witness: Witness) -> Violation {
    let n = inst.num_users();
    let before = truthful_utilities(inst, &truth.tasks);
    // The utilities after, with the users who lost.
    let losers = |after: Vec<Option<Rational>>| {
        let c: Vec<usize> = (0..n)
            .filter(|&i| after[i].as_ref().is_some_and(|a| *a < before[i]))
            .collect();
        (Some(after), c)
    };
    let (after, coalition) = match &witness {
        Witness::Sp(w) => {
            let mut after = truthful_utilities(inst, &w.tasks_under_lie);
            let i = w.user;
            after[i] = utility_of_report(inst, i, &w.tasks_under_lie[i], &w.report);
            (Some(after.into_iter().map(Some).collect()), vec![i])
        }
        Witness::Gsp(w) => (
            Some(w.after.iter().cloned().map(Some).collect()),
            w.coalition.clone(),
        ),
        Witness::Pm(w) => losers(
            w.tasks_after
                .iter()
                .enumerate()
                .map(|(i, t)| t.as_ref().map(|t| utility_at_truth(inst, i, t)))
                .collect(),
        ),
        Witness::Rm(w) => losers(
            (truthful_utilities(inst, &w.tasks_after).into_iter())
                .map(Some)
                .collect(),
        ),
        other => (None, named_users(other)),
    };
    Violation {
        witness,
        before,
        after,
        coalition,
    }
}

/// The users an allocation-property witness names.
fn named_users(witness: &Witness) -> Vec<usize> {
    match witness {
        Witness::Si(w) => vec![w.user],
        Witness::Ef(w) => vec![w.envious, w.envied],
        Witness::Po(w) => vec![w.user],
        Witness::Bbf(w) => vec![w.user],
        Witness::Sg(w) => w.users.clone(),
        _ => Vec::new(),
    }
}
