//! Single-resource fairness (SRF) and bottleneck fairness (BF): on one resource, or on a
//! common bottleneck, the allocation is weighted max-min with caps (`docs/theory.md` §3).

use super::*;

/// How an allocation of one resource fails to be weighted max-min (with caps).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MaxMinViolation {
    /// `below_cap` is below its cap yet has a smaller weighted amount `x_i d_ij / w_ij` than
    /// `other`.
    Unequal {
        /// The user below its cap with the smaller amount.
        below_cap: usize,
        /// Its weighted amount.
        below_cap_amount: Rational,
        /// The user with the larger amount.
        other: usize,
        /// Its weighted amount.
        other_amount: Rational,
    },
    /// The resource is not used up although `user` is below its cap.
    Unsaturated {
        /// A user below its cap.
        user: usize,
        /// Total use of the resource.
        used: Rational,
        /// Its capacity.
        capacity: Rational,
    },
}

/// The allocation of `resource` is not weighted max-min (SRF, BF).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MaxMinWitness {
    /// The resource (the only one for SRF, the common bottleneck for BF).
    pub resource: usize,
    /// What is wrong.
    pub violation: MaxMinViolation,
}

/// The common bottleneck: a resource `j*` with `d_ij*/R_j* >= d_ij/R_j` for every user `i`
/// and resource `j` (the first such), if any.
///
/// # Example
/// ```
/// use leontief_solver::properties::allocation::bottleneck;
/// use leontief_solver::{Instance, User};
/// let thm2 = Instance::new(vec![21.into(), 21.into()],
///     vec![User::new("1", [3, 2]), User::new("2", [4, 1])]).unwrap();
/// assert_eq!(bottleneck(&thm2), Some(0));
/// let paper = Instance::new(vec![9.into(), 18.into()],
///     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
/// assert_eq!(bottleneck(&paper), None);
/// ```
pub fn bottleneck(instance: &Instance) -> Option<usize> {
    let mu: Vec<Rational> = (0..instance.num_users())
        .map(|i| instance.task_dominant_share(i))
        .collect();
    (0..instance.num_resources()).find(|&j| {
        instance
            .users()
            .iter()
            .zip(&mu)
            .all(|(u, mu)| &u.demand[j] / &instance.capacity()[j] == *mu)
    })
}

/// SRF: with one resource the answer is weighted max-min with caps — every user below its
/// cap has the largest weighted amount `x_i d_i / w_i`, and the resource is used up unless
/// every user is at its cap. Not applicable with several resources.
///
/// BF: when some resource is every user's (percent-wise) most demanded — [`bottleneck`] —
/// the answer is weighted max-min with caps on it, compared by `x_i d_ij* / w_ij*`; not
/// applicable otherwise.
///
/// Either ([`check_allocation`] with [`Property::Srf`] or [`Property::Bf`]) on an answer
/// with its exact form (when it has one): weighted max-min on the one resource or on the
/// common bottleneck.
pub(super) fn max_min_fairness(
    instance: &Instance,
    x: &Answer,
    property: Property,
) -> Result<Verdict, SolverError> {
    check_tasks(instance, &x.allocation, "allocation")?;
    let m = instance.num_resources();
    let (j, subject) = match property {
        Property::Srf if m != 1 => {
            return Ok(Verdict::not_applicable(format!(
                "srf applies to one resource; this instance has {m}"
            )));
        }
        Property::Srf => (0, "the resource".to_string()),
        _ => match bottleneck(instance) {
            Some(j) => (
                j,
                format!("the common bottleneck {}", instance.resources()[j]),
            ),
            None => {
                return Ok(Verdict::not_applicable(
                    "no resource is every user's most demanded (percent-wise)",
                ));
            }
        },
    };
    judged(instance, x, |instance, x, used, judge| {
        match max_min_on(instance, x, used, j, judge) {
            Some(w) => Verdict::fails(
                Witness::MaxMin(w),
                format!("{subject} is not shared weighted max-min"),
            ),
            None => Verdict::holds(format!("{subject} is shared weighted max-min (with caps)")),
        }
    })
}

/// Weighted max-min with caps on resource `j` of a feasible allocation, where every user
/// demands `j`: the resource is used up unless all users are capped, and no user below its
/// cap has a smaller weighted amount than anyone. With an approximate allocation the
/// witness pairs the user below its cap with the smallest upper bound on its amount and
/// the user with the largest lower bound (the computed extremes when exact).
pub(super) fn max_min_on(
    instance: &Instance,
    x: &Answer,
    used: &[Bounded],
    j: usize,
    judge: &mut Judge,
) -> Option<MaxMinWitness> {
    let users = instance.users();
    let n = users.len();
    let tasks = Bounded::all_tasks(x);
    let amounts: Vec<Bounded> = (0..n)
        .map(|i| tasks[i].map(&Gauge::scale(&users[i].demand[j] / users[i].weight_on(j))))
        .collect();
    let below: Vec<Test> = (0..n).map(|i| below_cap(&users[i], &tasks[i])).collect();
    // Nobody below its cap, even on the computed numbers: max-min holds.
    below.iter().position(|t| t.exact)?;
    let first_certain = below.iter().position(|t| t.certain);
    let unsaturated =
        Test::any(below.iter().copied()).and(Test::less_than(&used[j], &instance.capacity()[j]));
    if let (true, Some(user)) = (judge.settle(unsaturated), first_certain) {
        return Some(MaxMinWitness {
            resource: j,
            violation: MaxMinViolation::Unsaturated {
                user,
                used: used[j].value.clone(),
                capacity: instance.capacity()[j].clone(),
            },
        });
    }
    // On the computed numbers: the smallest amount below the cap against the largest.
    let smallest = (0..n)
        .filter(|&i| below[i].exact)
        .map(|i| &amounts[i].value)
        .min();
    let largest = amounts.iter().map(|a| &a.value).max();
    let exact = matches!((smallest, largest), (Some(lo), Some(hi)) if lo < hi);
    // For certain: the smallest upper bound below the cap against the largest lower bound.
    let lo = (0..n)
        .filter(|&i| below[i].certain)
        .filter_map(|i| amounts[i].hi().map(|h| (i, h)))
        .reduce(|a, b| if b.1 < a.1 { b } else { a });
    let hi = (0..n)
        .filter_map(|i| amounts[i].lo().map(|l| (i, l)))
        .reduce(|a, b| if b.1 > a.1 { b } else { a });
    let (certain, pair) = match (lo, hi) {
        (Some((lo, lo_bound)), Some((hi, hi_bound))) => (lo_bound < hi_bound, Some((lo, hi))),
        _ => (false, None),
    };
    let (unequal, pair) = if x.algebraic().is_some() {
        // Exact amounts: the first pair (below its cap, other) whose amounts differ, decided
        // exactly.
        let tests = (0..n)
            .filter(|&i| below[i].certain)
            .flat_map(|i| (0..n).map(move |k| (i, k)))
            .map(|(i, k)| ((i, k), Test::less(&amounts[i], &amounts[k])));
        let mut found = (Test::any([]), None);
        for (pair, test) in tests {
            found.0 = found.0.or(test);
            if test.certain {
                found.1 = Some(pair);
                break;
            }
        }
        found
    } else {
        (Test::decided(exact, certain), pair)
    };
    match (judge.settle(unequal), pair) {
        (true, Some((lo, hi))) => Some(MaxMinWitness {
            resource: j,
            violation: MaxMinViolation::Unequal {
                below_cap: lo,
                below_cap_amount: amounts[lo].value.clone(),
                other: hi,
                other_amount: amounts[hi].value.clone(),
            },
        }),
        _ => None,
    }
}
