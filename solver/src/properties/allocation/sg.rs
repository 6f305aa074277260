//! Share guarantee (SG) on the instance's tree of pools (`docs/theory.md` §4).

use super::*;

/// A node with unmet demand below its guaranteed share (share guarantee).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SgWitness {
    /// The node's path (`P/Q`, or `P/x` for a user's leaf; see
    /// [`Hierarchy::path`](crate::hierarchy::Hierarchy::path)).
    pub node: String,
    /// The node's index in the instance's [`Hierarchy`](crate::hierarchy::Hierarchy).
    pub vertex: usize,
    /// The users below it.
    pub users: Vec<usize>,
    /// Its guaranteed share `g_v`.
    pub guaranteed: Rational,
    /// Its dominant share `S_v < g_v`: the largest share of a resource its users hold
    /// together.
    pub dominant_share: Rational,
    /// A user below it under its cap (the unmet demand): the first by index.
    pub unmet_user: usize,
}

impl SgWitness {
    /// `{"node", "users", "guaranteed_share", "dominant_share", "unmet_user"}`.
    pub fn to_json(&self, instance: &Instance) -> Value {
        object(vec![
            ("node", Value::String(self.node.clone())),
            (
                "users",
                self.users
                    .iter()
                    .map(|&i| Value::String(user_name(instance, i)))
                    .collect(),
            ),
            ("guaranteed_share", exact(&self.guaranteed)),
            ("dominant_share", exact(&self.dominant_share)),
            (
                "unmet_user",
                Value::String(user_name(instance, self.unmet_user)),
            ),
        ])
    }
}

/// Share guarantee (`docs/theory.md` §4) on the instance's tree of pools
/// ([`Instance::hierarchy`]): every node below the root — pool or user — with unmet demand
/// (some user below it uncapped or under its cap) holds at least its guaranteed share `g_v`
/// of its dominant resource, `S_v = max_j Σ_{i below v} x_i d_ij / R_j`. Without pools the
/// tree has one level and `g_i = w_i / Σ_k w_k`. Witness: the first such node in the tree's
/// order. (The root, whose "guarantee" is the whole cluster, is not checked: that is
/// efficiency, which `po` decides; [`share_guarantee_violations`] lists it too.)
///
/// # Errors
/// When `x` does not have one entry per user.
///
/// # Example
/// The lecture's flattening failure: P = {P1 ⟨1,0⟩, P2 ⟨0,1⟩} against Q ⟨1,1⟩; weighted DRF
/// over the leaves gives P1, P2 and Q 1/3 each, so P holds 1/3 of each resource, below its
/// guarantee 1/2.
/// ```
/// use leontief_solver::properties::{allocation::share_guarantee, Witness};
/// use leontief_solver::{Allocation, Instance, Pool, Rational, User};
/// let inst = Instance::with_pools(vec!["r1".into(), "r2".into()], vec![1.into(), 1.into()],
///     vec![Pool::new("P")],
///     vec![User::new("P1", [1, 0]).pool(0), User::new("P2", [0, 1]).pool(0), User::new("Q", [1, 1])]).unwrap();
/// let third = Rational::new(1, 3).unwrap();
/// let v = share_guarantee(&inst, &Allocation::new(vec![third.clone(), third.clone(), third])).unwrap();
/// let Some(Witness::Sg(w)) = v.witness else { panic!("expected a share-guarantee witness") };
/// assert_eq!((w.node.as_str(), w.dominant_share.to_string()), ("P", "1/3".into()));
/// let half = Rational::new(1, 2).unwrap();
/// assert!(share_guarantee(&inst, &Allocation::new(vec![half.clone(), half.clone(), half])).unwrap().holds);
/// ```
pub fn share_guarantee(instance: &Instance, x: &Allocation) -> Result<Verdict, SolverError> {
    judged(x, |judge| share_guarantee_judged(instance, x, judge))
}

/// Every node with unmet demand holding less than its guaranteed share, in the tree's
/// pre-order, the root included: the share-guarantee oracle of both the flat property
/// ([`share_guarantee`], which reports the first below the root) and the tree
/// allocations of the hierarchical policies. Decided on the computed task counts (the
/// allocation's tolerance, if any, is not applied) and without a feasibility check.
///
/// # Errors
/// When `x` does not have one entry per user.
///
/// # Complexity
/// `O(N · n · m)` for `N` nodes, `n` users and `m` resources.
///
/// # Example
/// The allocation that leaves the whole cluster idle fails everywhere: root, P, P1, P2, Q.
/// ```
/// use leontief_solver::properties::allocation::share_guarantee_violations;
/// use leontief_solver::{Allocation, Instance, Pool, User};
/// let inst = Instance::with_pools(vec!["r1".into(), "r2".into()], vec![1.into(), 1.into()],
///     vec![Pool::new("P")],
///     vec![User::new("P1", [1, 0]).pool(0), User::new("P2", [0, 1]).pool(0), User::new("Q", [1, 1])]).unwrap();
/// let bad = share_guarantee_violations(&inst, &Allocation::new(vec![0.into(); 3])).unwrap();
/// let nodes: Vec<&str> = bad.iter().map(|w| w.node.as_str()).collect();
/// assert_eq!(nodes, ["", "P", "P/P1", "P/P2", "Q"]);
/// ```
pub fn share_guarantee_violations(
    instance: &Instance,
    x: &Allocation,
) -> Result<Vec<SgWitness>, SolverError> {
    check_tasks(instance, x, "allocation")?;
    let exact = Allocation::new(x.tasks.clone());
    let mut judge = Judge::on(&exact);
    Ok(sg_scan(instance, &exact, &mut judge, 0, false))
}

/// The share-guarantee scan over the nodes `from..` of the instance's tree (pre-order):
/// every node with unmet demand whose dominant share is certainly below its guarantee
/// (`judge` settles the comparisons of approximate answers); only the first when `first`.
pub(super) fn sg_scan(
    instance: &Instance,
    x: &Allocation,
    judge: &mut Judge,
    from: usize,
    first: bool,
) -> Vec<SgWitness> {
    let h = instance.hierarchy();
    let tasks: Vec<Bounded> = (0..x.tasks.len()).map(|i| Bounded::tasks(x, i)).collect();
    let m = instance.num_resources();
    let mut out = Vec::new();
    for v in from..h.len() {
        let users = h.users_below(v);
        // Unmet demand: uncapped, or under the cap (beyond the error, to be certain); the
        // first such user by index.
        let unmet = users.iter().copied().find_map(|i| {
            let test = match &instance.users()[i].cap {
                None => Test::TRUE,
                Some(t) => Test::less_than(&tasks[i], t),
            };
            test.exact.then_some((i, test))
        });
        let Some((unmet_user, unmet_test)) = unmet else {
            continue;
        };
        // S_v computed, and its upper bound over the admissible true answers.
        let mut share = Rational::ZERO;
        let mut share_hi: Option<Rational> = Some(Rational::ZERO);
        for j in 0..m {
            let mut used = ExactSum::new();
            let mut used_hi = Some(ExactSum::new());
            for &i in &users {
                let d = &instance.users()[i].demand[j];
                if d.is_zero() {
                    continue;
                }
                used.add(&(&x.tasks[i] * d));
                used_hi = match (used_hi, tasks[i].hi()) {
                    (Some(mut s), Some(hi)) => {
                        s.add(&(hi * d));
                        Some(s)
                    }
                    _ => None,
                };
            }
            let r = &instance.capacity()[j];
            let s = &used.value() / r;
            if s > share {
                share = s;
            }
            share_hi = match (share_hi, used_hi) {
                (Some(best), Some(mut u)) => Some(best.max(&u.value() / r)),
                _ => None,
            };
        }
        let g = &h.node(v).guaranteed;
        let below = Test::decided(share < *g, share_hi.as_ref().is_some_and(|s| s < g));
        if judge.settle(unmet_test.and(below)) {
            out.push(SgWitness {
                node: h.path(v),
                vertex: v,
                users,
                guaranteed: g.clone(),
                dominant_share: share,
                unmet_user,
            });
            if first {
                break;
            }
        }
    }
    out
}

pub(super) fn share_guarantee_judged(
    instance: &Instance,
    x: &Allocation,
    judge: &mut Judge,
) -> Result<Verdict, SolverError> {
    if let Err(v) = feasible_or_verdict(instance, x, judge)? {
        return Ok(v);
    }
    // From node 1: the root is not checked (see `share_guarantee`).
    if let Some(witness) = sg_scan(instance, x, judge, 1, true).pop() {
        let note = format!(
            "{} holds a dominant share of {}, below its guaranteed {}",
            witness.node, witness.dominant_share, witness.guaranteed
        );
        return Ok(Verdict::fails(Witness::Sg(witness), note));
    }
    Ok(Verdict::holds(if instance.hierarchy().is_flat() {
        "every user with unmet demand holds at least w_i / W of its dominant resource"
    } else {
        "every node with unmet demand holds at least its guaranteed share of its dominant resource"
    }))
}
