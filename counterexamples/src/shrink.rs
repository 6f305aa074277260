//! Shrinking: reduce a counterexample while it stays a genuine violation.
//!
//! Greedy and deterministic: the reductions below are tried in order on the current
//! counterexample; the first one that still violates the property — decided from scratch by
//! [`evaluate`], exactly — is taken and the list starts again; shrinking ends when none
//! applies or after `max_evaluations` re-verifications. In order:
//! 1. drop a user (never the only liar of SP, nor the user who leaves in PM; a pool left
//!    without users disappears);
//! 2. drop a liar from a coalition (its report reverts to the truth);
//! 3. drop a resource;
//! 4. drop a task cap, set a weight to 1, drop per-resource weights;
//! 5. RM: undo the growth of one resource;
//! 6. measure a resource in units of its capacity (capacity 1), a user's demand (and
//!    report) in units of its largest entry;
//! 7. replace one number by a simpler one: 0 (demands and reports), 1, 2, 1/2, its floor
//!    and ceiling, its continued-fraction convergents — only candidates with a smaller
//!    `|numerator| + denominator`, simplest first.
//!
//! Every step re-verifies, so the result is a violation whenever the input was.

use leontief_solver::properties::{Property, Scenario};
use leontief_solver::{Instance, Mechanism, Rational, User};

use crate::candidate::{evaluate, Candidate, Violation};

/// Limits of shrinking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShrinkConfig {
    /// The most re-verifications.
    pub max_evaluations: usize,
}

impl Default for ShrinkConfig {
    fn default() -> Self {
        ShrinkConfig {
            max_evaluations: 600,
        }
    }
}

/// Shrinks a violation; returns the smallest counterexample reached and its verification
/// (the input itself when nothing applies).
///
/// # Example
/// A DRF resource-monotonicity counterexample with a bystander and awkward numbers shrinks
/// to two users.
/// ```
/// use leontief_counterexamples::candidate::{evaluate, Candidate};
/// use leontief_counterexamples::shrink::{shrink, ShrinkConfig};
/// use leontief_solver::properties::{Property, Scenario};
/// use leontief_solver::{Drf, Instance, User};
/// let inst = Instance::new(vec![10.into(), 10.into()], vec![
///     User::new("A", [20, 10]), User::new("B", [10, 20]), User::new("C", [1, 1])]).unwrap();
/// let c = Candidate::new(inst, Scenario::Capacity(vec![10.into(), 40.into()]));
/// let v = evaluate(&Drf::extended(), Property::Rm, &c).unwrap().unwrap();
/// let (small, w) = shrink(&Drf::extended(), Property::Rm, &c, &v, &ShrinkConfig::default());
/// assert_eq!(small.instance.num_users(), 2);
/// assert!(evaluate(&Drf::extended(), Property::Rm, &small).unwrap().is_some());
/// assert!(!w.coalition.is_empty());
/// ```
pub fn shrink(
    mechanism: &dyn Mechanism,
    property: Property,
    candidate: &Candidate,
    violation: &Violation,
    cfg: &ShrinkConfig,
) -> (Candidate, Violation) {
    let mut verified = violation.clone();
    let mut still_fails = |c: &Candidate| match evaluate(mechanism, property, c) {
        Ok(Some(v)) => {
            verified = v;
            true
        }
        _ => false,
    };
    let small = shrink_while(candidate, &mut still_fails, cfg.max_evaluations);
    (small, verified)
}

/// The same greedy reductions as [`shrink`], kept while `keep` accepts them (e.g. while a
/// metric keeps its value, for `explore`): returns the last accepted candidate (`candidate`
/// itself when none is); the scenario names the users who may not be dropped. At most
/// `max_evaluations` calls of `keep`.
pub fn shrink_while(
    candidate: &Candidate,
    keep: &mut dyn FnMut(&Candidate) -> bool,
    max_evaluations: usize,
) -> Candidate {
    let mut current = candidate.clone();
    let mut evaluations = 0;
    loop {
        let smaller = proposals(&current)
            .take(max_evaluations - evaluations)
            .find(|proposal| {
                evaluations += 1;
                keep(proposal)
            });
        match smaller {
            Some(proposal) => current = proposal,
            None => return current,
        }
    }
}

/// Every reduction of `c`, in the order of the module docs, built one stage at a time: the
/// shrinker takes the first that still fails, usually from an early stage, so the later
/// (larger) stages are built only when the earlier ones are exhausted.
fn proposals(c: &Candidate) -> impl Iterator<Item = Candidate> + '_ {
    (1..=STAGES).flat_map(move |stage| stage_proposals(stage, c))
}

/// Number of stages of [`stage_proposals`].
const STAGES: usize = 7;

/// The reductions of stage `stage` (1 to [`STAGES`], as numbered in the module docs).
fn stage_proposals(stage: usize, c: &Candidate) -> Vec<Candidate> {
    let mut out = Vec::new();
    let inst = &c.instance;
    let n = inst.num_users();
    let m = inst.num_resources();
    match stage {
        // 1. Drop a user.
        1 => {
            for u in (0..n).rev() {
                let keeps_liar = match &c.scenario {
                    Scenario::Lies(l) => !(l.len() == 1 && l[0].0 == u),
                    Scenario::Remove(r) => *r != u,
                    _ => true,
                };
                if n > 1 && keeps_liar {
                    out.extend(without_user(c, u));
                }
            }
        }
        // 2. Drop a liar.
        2 => {
            if let Scenario::Lies(l) = &c.scenario
                && l.len() > 1
            {
                for t in 0..l.len() {
                    let mut fewer = l.clone();
                    fewer.remove(t);
                    out.push(Candidate::new(inst.clone(), Scenario::Lies(fewer)));
                }
            }
        }
        // 3. Drop a resource.
        3 if m > 1 => {
            for j in (0..m).rev() {
                out.extend(without_resource(c, j));
            }
        }
        // 4. Caps, weights.
        4 => {
            for i in 0..n {
                let u = &inst.users()[i];
                if u.cap.is_some() {
                    out.extend(with_user(c, i, |u| u.cap = None));
                }
                if u.weight != Rational::ONE {
                    out.extend(with_user(c, i, |u| u.weight = Rational::ONE));
                }
                if u.resource_weights.is_some() {
                    out.extend(with_user(c, i, |u| u.resource_weights = None));
                }
            }
        }
        // 5. Undo one resource's growth.
        5 => {
            if let Scenario::Capacity(grown) = &c.scenario {
                for j in 0..m {
                    if grown[j] != inst.capacity()[j] {
                        let mut g = grown.clone();
                        g[j] = inst.capacity()[j].clone();
                        out.push(Candidate::new(inst.clone(), Scenario::Capacity(g)));
                    }
                }
            }
        }
        // 6. Units.
        6 => {
            for j in 0..m {
                let r = &inst.capacity()[j];
                if *r != Rational::ONE {
                    let f = r.recip().expect("capacities are positive");
                    out.extend(scale_resource(c, j, &f));
                }
            }
            for i in 0..n {
                let u = &inst.users()[i];
                let largest = u.demand.iter().max().expect("m >= 1");
                if u.cap.is_none() && *largest != Rational::ONE {
                    let f = largest.recip().expect("some demand is positive");
                    let scale = |v: &mut Vec<Rational>| v.iter_mut().for_each(|x| *x = &*x * &f);
                    let mut parts = Parts::of(c);
                    scale(&mut parts.users[i].demand);
                    if let Scenario::Lies(l) = &mut parts.scenario {
                        for (k, r) in l.iter_mut() {
                            if *k == i {
                                scale(r);
                            }
                        }
                    }
                    out.extend(parts.build());
                }
            }
        }
        // 7. Simpler numbers.
        7 => {
            let mut parts = Parts::of(c);
            for (k, (value, zero_ok, _)) in parts.numbers().into_iter().enumerate() {
                for simpler in simpler_numbers(value, zero_ok) {
                    let mut parts = Parts::of(c);
                    let (x, _, lie) = parts.numbers().swap_remove(k);
                    *x = simpler;
                    // A report simplified to the user's true demand is no lie.
                    if let (Some(t), Scenario::Lies(l)) = (lie, &parts.scenario)
                        && l[t].1 == parts.users[l[t].0].demand
                    {
                        continue;
                    }
                    out.extend(parts.build());
                }
            }
        }
        _ => {}
    }
    out
}

/// A candidate taken apart, as the reductions change it: the instance's resources,
/// capacities and users, and the scenario; rebuilt with the instance's pools.
struct Parts<'a> {
    inst: &'a Instance,
    resources: Vec<String>,
    capacity: Vec<Rational>,
    users: Vec<User>,
    scenario: Scenario,
}

impl<'a> Parts<'a> {
    fn of(c: &'a Candidate) -> Self {
        Parts::new(&c.instance, c.scenario.clone())
    }

    fn new(inst: &'a Instance, scenario: Scenario) -> Self {
        Parts {
            inst,
            resources: inst.resources().to_vec(),
            capacity: inst.capacity().to_vec(),
            users: inst.users().to_vec(),
            scenario,
        }
    }

    /// Applies `f` to every vector with an entry per resource but the per-resource weights:
    /// the capacities, each demand, each report, the grown capacities.
    fn each_vector(&mut self, mut f: impl FnMut(&mut Vec<Rational>)) {
        f(&mut self.capacity);
        for u in &mut self.users {
            f(&mut u.demand);
        }
        match &mut self.scenario {
            Scenario::Lies(l) => l.iter_mut().for_each(|(_, r)| f(r)),
            Scenario::Capacity(g) => f(g),
            _ => {}
        }
    }

    /// Every number of the parts, in the order stage 7 simplifies them: each capacity;
    /// each user's demand entries, cap and weight (when not 1); the reports' entries (with
    /// the lie they are in); the grown capacities. Each with whether 0 may replace it
    /// (demands and reports).
    fn numbers(&mut self) -> Vec<(&mut Rational, bool, Option<usize>)> {
        let mut out: Vec<_> = self.capacity.iter_mut().map(|x| (x, false, None)).collect();
        for u in self.users.iter_mut() {
            out.extend(u.demand.iter_mut().map(|x| (x, true, None)));
            out.extend(u.cap.as_mut().map(|t| (t, false, None)));
            if u.weight != Rational::ONE {
                out.push((&mut u.weight, false, None));
            }
        }
        match &mut self.scenario {
            Scenario::Lies(l) => {
                for (t, (_, r)) in l.iter_mut().enumerate() {
                    out.extend(r.iter_mut().map(|x| (x, true, Some(t))));
                }
            }
            Scenario::Capacity(g) => out.extend(g.iter_mut().map(|x| (x, false, None))),
            _ => {}
        }
        out
    }

    /// The candidate, `None` when the instance or a report is invalid (the reports must
    /// keep a positive entry; grown capacities are checked by the oracle).
    fn build(self) -> Option<Candidate> {
        if let Scenario::Lies(l) = &self.scenario
            && l.iter().any(|(_, r)| {
                r.iter().all(|x| !x.is_positive()) || r.iter().any(Rational::is_negative)
            })
        {
            return None;
        }
        let inst = Instance::builder(self.capacity)
            .resources(self.resources)
            .pools(self.inst.pools().to_vec())
            .users(self.users)
            .build()
            .ok()?;
        Some(Candidate::new(inst, self.scenario))
    }
}

fn with_user(c: &Candidate, i: usize, change: impl Fn(&mut User)) -> Option<Candidate> {
    let mut parts = Parts::of(c);
    change(&mut parts.users[i]);
    parts.build()
}

fn without_user(c: &Candidate, u: usize) -> Option<Candidate> {
    let shift = |i: usize| if i > u { i - 1 } else { i };
    let scenario = match &c.scenario {
        Scenario::Lies(l) => Scenario::Lies(
            l.iter()
                .filter(|(i, _)| *i != u)
                .map(|(i, r)| (shift(*i), r.clone()))
                .collect(),
        ),
        Scenario::Remove(r) => Scenario::Remove(shift(*r)),
        other => other.clone(),
    };
    if matches!(&scenario, Scenario::Lies(l) if l.is_empty()) {
        return None;
    }
    // A pool left without users disappears.
    let smaller = c.instance.without_user(u).ok()?;
    Parts::new(&smaller, scenario).build()
}

fn without_resource(c: &Candidate, j: usize) -> Option<Candidate> {
    let mut parts = Parts::of(c);
    parts.resources.remove(j);
    parts.each_vector(|v| {
        v.remove(j);
    });
    for u in &mut parts.users {
        if let Some(w) = &mut u.resource_weights {
            w.remove(j);
        }
    }
    parts.build()
}

fn scale_resource(c: &Candidate, j: usize, f: &Rational) -> Option<Candidate> {
    let mut parts = Parts::of(c);
    parts.each_vector(|v| v[j] = &v[j] * f);
    parts.build()
}

/// `|numerator| + denominator`, or `None` beyond 128 bits.
fn size(x: &Rational) -> Option<u128> {
    let (p, q) = x.as_small()?;
    p.unsigned_abs().checked_add(q.unsigned_abs())
}

/// Simpler replacements for `x` (smaller size), simplest first, without duplicates.
fn simpler_numbers(x: &Rational, zero_ok: bool) -> Vec<Rational> {
    let own = size(x).unwrap_or(u128::MAX);
    let mut c: Vec<Rational> = Vec::new();
    if zero_ok {
        c.push(Rational::ZERO);
    }
    c.extend([
        Rational::ONE,
        Rational::from(2),
        Rational::new(1, 2).expect("nonzero"),
        x.floor(),
        x.ceil(),
    ]);
    c.extend(convergents(x));
    c.retain(|y| !y.is_negative() && (zero_ok || y.is_positive()) && y != x);
    c.retain(|y| size(y).is_some_and(|s| s < own));
    c.sort_by_key(|y| size(y).unwrap_or(u128::MAX));
    c.dedup();
    c
}

/// The continued-fraction convergents of a nonnegative `x` (below `x` itself), for
/// fixed-width values.
fn convergents(x: &Rational) -> Vec<Rational> {
    let Some((mut p, mut q)) = x.as_small() else {
        return Vec::new();
    };
    if p < 0 {
        return Vec::new();
    }
    let (mut h0, mut h1, mut k0, mut k1) = (0i128, 1i128, 1i128, 0i128);
    let mut out = Vec::new();
    while q != 0 && out.len() < 12 {
        let a = p / q;
        let (Some(h), Some(k)) = (
            a.checked_mul(h1).and_then(|v| v.checked_add(h0)),
            a.checked_mul(k1).and_then(|v| v.checked_add(k0)),
        ) else {
            break;
        };
        if let Some(r) = Rational::new(h, k) {
            out.push(r);
        }
        (h0, h1, k0, k1) = (h1, h, k1, k);
        (p, q) = (q, p - a * q);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn convergents_of_a_fraction() {
        // 7/3 = [2; 3]: convergents 2, 7/3.
        let c = convergents(&Rational::new(7, 3).unwrap());
        assert_eq!(c, vec![Rational::from(2), Rational::new(7, 3).unwrap()]);
        // 355/113 = [3; 7, 16]: 3, 22/7, 355/113.
        let c = convergents(&Rational::new(355, 113).unwrap());
        assert_eq!(c[1], Rational::new(22, 7).unwrap());
    }

    #[test]
    fn simpler_numbers_are_simpler() {
        let x = Rational::new(22, 7).unwrap();
        let s = simpler_numbers(&x, true);
        assert_eq!(s[0], Rational::ZERO);
        assert!(s.contains(&Rational::from(3)));
        assert!(s.iter().all(|y| size(y).unwrap() < 29));
        assert!(simpler_numbers(&Rational::ONE, false).is_empty());
    }
}
