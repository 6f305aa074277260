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
    /// When the guarantee at fault is the node's explicit guarantee vector
    /// (`docs/production.md`): that vector; the node then holds less than it of every
    /// resource `unmet_user` demands, and neither that user nor a pool between them is at
    /// its limit. `None`: the guaranteed share `g_v` of the weights.
    pub explicit: Option<Vec<Rational>>,
}

/// A node holding more of a resource than its limit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LimitWitness {
    /// The node's path.
    pub node: String,
    /// The node's index in the instance's [`Hierarchy`](crate::hierarchy::Hierarchy).
    pub vertex: usize,
    /// The resource.
    pub resource: usize,
    /// What the node holds of it.
    pub holds: Rational,
    /// Its limit on it.
    pub limit: Rational,
}

/// Every node (pool or user) holding more of some resource than its limit
/// (`docs/production.md`), in the tree's pre-order: limits are never to be exceeded.
///
/// # Errors
/// When `x` does not have one entry per user.
///
/// # Example
/// ```
/// use leontief_solver::properties::allocation::limit_violations;
/// use leontief_solver::{Allocation, Instance};
/// let inst = Instance::from_json_str(r#"{"capacity": [10], "tree": {"children": [
///     {"name": "P", "limit": [3], "children": [{"name": "a", "demand": [1]}]}, {"name": "b", "demand": [1]}]}}"#).unwrap();
/// let bad = limit_violations(&inst, &Allocation::new(vec![4.into(), 6.into()])).unwrap();
/// assert_eq!((bad[0].node.as_str(), bad[0].holds.to_string()), ("P", "4".into()));
/// assert!(limit_violations(&inst, &Allocation::new(vec![3.into(), 7.into()])).unwrap().is_empty());
/// ```
pub fn limit_violations(
    instance: &Instance,
    x: &Allocation,
) -> Result<Vec<LimitWitness>, SolverError> {
    check_tasks(instance, x, "allocation")?;
    let h = instance.hierarchy();
    let holds = holdings(instance, x);
    let mut out = Vec::new();
    for (v, held) in holds.iter().enumerate().skip(1) {
        let Some(limit) = &h.node(v).limit else {
            continue;
        };
        for (j, (a, l)) in held.iter().zip(limit).enumerate() {
            if a > l {
                out.push(LimitWitness {
                    node: h.path(v),
                    vertex: v,
                    resource: j,
                    holds: a.clone(),
                    limit: l.clone(),
                });
            }
        }
    }
    Ok(out)
}

/// What every node of the instance's tree holds, per resource.
fn holdings(instance: &Instance, x: &Allocation) -> Vec<Vec<Rational>> {
    let h = instance.hierarchy();
    let m = instance.num_resources();
    let mut sums: Vec<Vec<ExactSum>> = vec![vec![ExactSum::new(); m]; h.len()];
    for (i, u) in instance.users().iter().enumerate() {
        for v in h.ancestors(h.leaf(i)) {
            for (j, d) in u.demand.iter().enumerate() {
                if !d.is_zero() {
                    sums[v][j].add(&(&x.tasks[i] * d));
                }
            }
        }
    }
    sums.into_iter()
        .map(|s| s.into_iter().map(|mut e| e.value()).collect())
        .collect()
}

/// Explicit guarantees (`docs/production.md`): every node `v` below the root with a nonzero
/// guarantee vector `G_v` and a user below it that could still grow within it — under its
/// cap, no limit binding on a resource it demands at its leaf or at a pool between it and
/// `v`, and `v` holding less than `G_v` of every resource it demands. Exact allocations
/// only (an approximate answer is not judged here). The first such node, or every one.
fn explicit_scan(instance: &Instance, x: &Allocation, first: bool) -> Vec<SgWitness> {
    let h = instance.hierarchy();
    let holds = holdings(instance, x);
    let mut out = Vec::new();
    for v in 1..h.len() {
        let g = &h.node(v).guarantee;
        if g.iter().all(Rational::is_zero) {
            continue;
        }
        let users = h.users_below(v);
        let unmet = users.iter().copied().find(|&i| {
            let u = &instance.users()[i];
            if u.cap.as_ref().is_some_and(|t| x.tasks[i] >= *t) {
                return false;
            }
            let demanded = || u.demand.iter().enumerate().filter(|(_, d)| !d.is_zero());
            if demanded().any(|(j, _)| holds[v][j] >= g[j]) {
                return false;
            }
            // No limit binds between the user's leaf and v (v's own is above its
            // guarantee).
            !h.ancestors(h.leaf(i)).take_while(|&a| a != v).any(|a| {
                let limit = h.node(a).limit.as_ref();
                limit.is_some_and(|l| demanded().any(|(j, _)| holds[a][j] >= l[j]))
            })
        });
        let Some(unmet_user) = unmet else {
            continue;
        };
        let share = holds[v]
            .iter()
            .zip(instance.capacity())
            .map(|(a, r)| a / r)
            .max()
            .expect("m >= 1");
        out.push(SgWitness {
            node: h.path(v),
            vertex: v,
            users,
            guaranteed: h.node(v).guaranteed.clone(),
            dominant_share: share,
            unmet_user,
            explicit: Some(g.clone()),
        });
        if first {
            break;
        }
    }
    out
}

/// Every node below its explicit guarantee vector with a user below it that could still
/// use it (see `docs/production.md`), in the tree's pre-order; empty when the tree has no
/// explicit guarantees.
///
/// # Errors
/// When `x` does not have one entry per user.
///
/// # Example
/// ```
/// use leontief_solver::properties::allocation::explicit_guarantee_violations;
/// use leontief_solver::{Allocation, Instance};
/// let inst = Instance::from_json_str(r#"{"capacity": [10], "tree": {"children": [
///     {"name": "a", "demand": [1], "guarantee": [6]}, {"name": "b", "demand": [1]}]}}"#).unwrap();
/// let bad = explicit_guarantee_violations(&inst, &Allocation::new(vec![5.into(), 5.into()])).unwrap();
/// assert_eq!(bad[0].node, "a");
/// assert!(explicit_guarantee_violations(&inst, &Allocation::new(vec![6.into(), 4.into()])).unwrap().is_empty());
/// ```
pub fn explicit_guarantee_violations(
    instance: &Instance,
    x: &Allocation,
) -> Result<Vec<SgWitness>, SolverError> {
    check_tasks(instance, x, "allocation")?;
    Ok(explicit_scan(instance, x, false))
}

/// Share guarantee (`docs/theory.md` §4) on the instance's tree of pools
/// ([`Instance::hierarchy`]): every node below the root — pool or user — with unmet demand
/// (some user below it uncapped or under its cap) holds at least its guaranteed share `g_v`
/// of its dominant resource, `S_v = max_j Σ_{i below v} x_i d_ij / R_j`. Without pools the
/// tree has one level and `g_i = w_i / Σ_k w_k`. Witness: the first such node in the tree's
/// order. (The root, whose "guarantee" is the whole cluster, is not checked: that is
/// efficiency, which `po` decides; [`share_guarantee_violations`] lists it too.)
///
/// A tree with explicit guarantee vectors (`docs/production.md`) is judged on them too, on
/// exact answers: no node `v` may hold less than its guarantee `G_v` of every resource a
/// user below it demands while that user could still grow (under its cap, no limit binding
/// on its way up to `v`); see [`explicit_guarantee_violations`].
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
/// let inst = Instance::builder(vec![1.into(), 1.into()])
///     .pools(vec![Pool::new("P")])
///     .users(vec![User::new("P1", [1, 0]).pool(0), User::new("P2", [0, 1]).pool(0), User::new("Q", [1, 1])])
///     .build().unwrap();
/// let third = Rational::new(1, 3).unwrap();
/// let v = share_guarantee(&inst, &Allocation::new(vec![third.clone(), third.clone(), third])).unwrap();
/// let Some(Witness::Sg(w)) = v.witness else { panic!("expected a share-guarantee witness") };
/// assert_eq!((w.node.as_str(), w.dominant_share.to_string()), ("P", "1/3".into()));
/// let half = Rational::new(1, 2).unwrap();
/// assert!(share_guarantee(&inst, &Allocation::new(vec![half.clone(), half.clone(), half])).unwrap().holds);
/// ```
pub fn share_guarantee(instance: &Instance, x: &Allocation) -> Result<Verdict, SolverError> {
    check_allocation(instance, x, Property::Sg)
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
/// let inst = Instance::builder(vec![1.into(), 1.into()])
///     .pools(vec![Pool::new("P")])
///     .users(vec![User::new("P1", [1, 0]).pool(0), User::new("P2", [0, 1]).pool(0), User::new("Q", [1, 1])])
///     .build().unwrap();
/// let bad = share_guarantee_violations(&inst, &Allocation::new(vec![0.into(); 3])).unwrap();
/// let nodes: Vec<&str> = bad.iter().map(|w| w.node.as_str()).collect();
/// assert_eq!(nodes, ["", "P", "P/P1", "P/P2", "Q"]);
/// ```
pub fn share_guarantee_violations(
    instance: &Instance,
    x: &Allocation,
) -> Result<Vec<SgWitness>, SolverError> {
    check_tasks(instance, x, "allocation")?;
    let exact = Answer::given(Allocation::new(x.tasks.clone()));
    let mut judge = Judge::on(&exact);
    Ok(sg_scan(instance, &exact, &mut judge, 0, false))
}

/// The share-guarantee scan over the nodes `from..` of the instance's tree (pre-order):
/// every node with unmet demand whose dominant share is certainly below its guarantee
/// (`judge` settles the comparisons of approximate answers); only the first when `first`.
pub(super) fn sg_scan(
    instance: &Instance,
    answer: &Answer,
    judge: &mut Judge,
    from: usize,
    first: bool,
) -> Vec<SgWitness> {
    let h = instance.hierarchy();
    let tasks = Bounded::all_tasks(answer);
    let mut out = Vec::new();
    for v in from..h.len() {
        let users = h.users_below(v);
        // Unmet demand: uncapped, or under the cap (beyond the error, to be certain); the
        // first such user by index.
        let unmet = users.iter().copied().find_map(|i| {
            let test = below_cap(&instance.users()[i], &tasks[i]);
            test.exact.then_some((i, test))
        });
        let Some((unmet_user, unmet_test)) = unmet else {
            continue;
        };
        // S_v computed, and its upper bound from the users' upper bounds on their tasks (no
        // exact algebraic sum per node: the bound only has to be certain).
        let mut share = Rational::ZERO;
        let mut share_hi: Option<Rational> = Some(Rational::ZERO);
        for (j, r) in instance.capacity().iter().enumerate() {
            let used = answer
                .allocation
                .consumption_among(instance, users.iter().copied(), j);
            let used_hi = users.iter().try_fold(ExactSum::new(), |mut sum, &i| {
                let d = &instance.users()[i].demand[j];
                if !d.is_zero() {
                    sum.add(&(tasks[i].hi()? * d));
                }
                Some(sum)
            });
            share = share.max(&used / r);
            share_hi = share_hi
                .zip(used_hi)
                .map(|(best, mut hi)| best.max(&hi.value() / r));
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
                explicit: None,
            });
            if first {
                break;
            }
        }
    }
    out
}

pub(super) fn share_guarantee_on(
    instance: &Instance,
    x: &Answer,
    _: &[Bounded],
    judge: &mut Judge,
) -> Verdict {
    // From node 1: the root is not checked (see `share_guarantee`).
    if let Some(witness) = sg_scan(instance, x, judge, 1, true).pop() {
        let note = format!(
            "{} holds a dominant share of {}, below its guaranteed {}",
            witness.node, witness.dominant_share, witness.guaranteed
        );
        return Verdict::fails(Witness::Sg(witness), note);
    }
    // Explicit guarantees, judged on exact answers.
    if x.allocation.tolerance.is_none()
        && let Some(witness) = explicit_scan(instance, &x.allocation, true).pop()
    {
        let note = format!(
            "{} holds less than its guarantee of every resource {} demands, which could \
                 still use it",
            witness.node,
            instance.user_path(witness.unmet_user)
        );
        return Verdict::fails(Witness::Sg(witness), note);
    }
    Verdict::holds(if instance.hierarchy().is_flat() {
        "every user with unmet demand holds at least w_i / W of its dominant resource"
    } else {
        "every node with unmet demand holds at least its guaranteed share of its dominant resource"
    })
}
