//! Exact discrete fills: the task-by-task schedulers whose fluid limits the policies are.
//!
//! Every leaf's task is cut into `k` equal slices (`d_l / k` each). A leaf is *blocked* as
//! soon as its next slice does not fit — its cap or a resource it demands lacks room — and is
//! skipped from then on (skip-and-continue, as Mesos and YARN do); blocking is checked for
//! every leaf after every slice. Repeatedly: descend from the root, at every pool to the
//! active child with the smallest key (the policy's key, as in [`leontief_hdrf::fill`], computed from
//! the current bundles; ties to the first child in input order), and give the leaf reached
//! one slice. `collapsed` picks the active leaf with the smallest `x mu / g` directly.
//! Everything is exact. As `k` grows the result converges to the fluid allocation at rate
//! `O(1/k)` (`tests/integration/discrete.rs` measures it on random trees), except where the fluid fill
//! grows several tied *degenerate* siblings together (see [`leontief_hdrf::fill`]) and the resource
//! they compete for runs out before their keys start rising. Here the tie goes to the first
//! of them; a slice leaves its key unchanged, so it stays tied and first and takes every slice
//! until its key rises or the resource runs out; in the second case the siblings after it
//! never get their turn, at any `k`. On capacity (1,1) and root {c {c1 = (1,0) weight 2
//! cap 2/5, c2 = (0,1)}, e {e1 = (1,0) weight 2 cap 2/5, e2 = (0,1)}, d = (0,1)}, naive,
//! min-satisfaction and H-DRF give `c2 = e2 = 3/10` statically and `c2 = 2/5`, `e2 = 1/5`
//! task by task at every `k` that is a multiple of 5 (`tests/integration/discrete.rs`, with the
//! derivation).
//!
//! Eager blocking matters for H-DRF, whose keys leave blocked nodes out of the minimum and
//! the rescaling: a scheduler that finds out a leaf is blocked only when it picks it keeps
//! treating, in the pools it does not visit, leaves that can no longer grow as active, and
//! can converge to a different allocation. Naive HDRF and
//! collapsed count every leaf's bundle whether it is blocked or not; min-satisfaction's
//! "active nodes" depend on blocking too.
//!
//! This is not the task-level simulator with churn; it is a cross-check of the fluid
//! definitions and a measure of the discretisation error (`docs/theory.md` §5, question 4).
//!
//! # References
//! - A. Ghodsi et al. *Dominant Resource Fairness.* NSDI 2011 (Algorithm 1, the task-by-task
//!   scheduler these generalise).

use leontief_solver::Rational;

use leontief_hdrf::error::Result;
use leontief_hdrf::policies::hdrf::{effective_vector, Child};
use leontief_hdrf::policies::{Aggregation, Normaliser};
use leontief_hdrf::{NodeId, Policy, SolverError, Tree, TreeAllocation};

/// The most slices [`discrete`] launches before giving up.
pub const MAX_STEPS: u64 = 50_000_000;

/// The exact discrete fill of `policy` with slices of `1/k` task (see the
/// [module docs](self)).
///
/// # Complexity
/// `O(N·m)` rational operations per slice for `N` nodes; slices: about `k` times the total
/// tasks of the result, plus one per leaf. Meant for small trees.
///
/// # Errors
/// [`SolverError::Invalid`] when `k == 0`; [`SolverError::Mechanism`] beyond
/// [`MAX_STEPS`] slices.
pub fn discrete(tree: &Tree, policy: Policy, k: u64) -> Result<TreeAllocation> {
    if k == 0 {
        return Err(SolverError::invalid("k", "must be at least 1"));
    }
    if tree.has_production_fields() {
        // The task-by-task fill knows plain trees only (docs/production.md).
        return Err(SolverError::invalid(
            "tree",
            "the task-level fill does not take guarantees, limits, fifo pools, usage, idle \
             leaves or empty pools yet; the static policies do",
        ));
    }
    let mut fill = Slices::new(tree, policy, k);
    let mut steps: u64 = 0;
    loop {
        fill.block_unfitting();
        if !fill.active[0] {
            break;
        }
        if steps >= MAX_STEPS {
            return Err(SolverError::Mechanism {
                mechanism: policy.to_string(),
                reason: format!("the discrete fill did not finish within {MAX_STEPS} slices"),
            });
        }
        let leaf = fill.next_leaf();
        fill.give_slice(leaf);
        steps += 1;
    }
    let tasks = tree
        .leaves()
        .map(|l| Rational::from(fill.count[l.index()]) * &fill.slice)
        .collect();
    TreeAllocation::from_tasks(tree, policy, tasks)
}

/// The state of a discrete fill: slices given per node, usages, who is still active, and
/// the keys and (H-DRF) effective vectors of the last descent.
struct Slices<'t> {
    tree: &'t Tree,
    rule: Policy,
    normaliser: Normaliser,
    k: u64,
    /// `1/k`.
    slice: Rational,
    /// Per leaf: shares `a_lj = d_lj / R_j` of one slice.
    a_slice: Vec<Vec<Rational>>,
    /// Per leaf: the dominant share of one task.
    mu: Vec<Rational>,
    /// Per leaf: slices given.
    count: Vec<u64>,
    /// Per node: shares used in its subtree.
    usage: Vec<Vec<Rational>>,
    active: Vec<bool>,
    /// Children before parents.
    post: Vec<NodeId>,
    leaves: Vec<NodeId>,
    key: Vec<Rational>,
    /// H-DRF: effective vectors.
    effective: Vec<Vec<Rational>>,
    /// H-DRF: resources that stopped a leaf.
    saturated: Vec<bool>,
}

impl<'t> Slices<'t> {
    fn new(tree: &'t Tree, policy: Policy, k: u64) -> Self {
        let rule = policy;
        let n = tree.len();
        let m = tree.num_resources();
        let slice = Rational::new(1, i128::from(k)).expect("k > 0");
        let mut a_slice: Vec<Vec<Rational>> = vec![Vec::new(); n];
        let mut mu: Vec<Rational> = vec![Rational::ZERO; n];
        for l in tree.leaves() {
            let d = tree.node(l).demand().expect("a leaf");
            a_slice[l.index()] = d
                .iter()
                .zip(tree.capacity())
                .map(|(d, r)| d / r * &slice)
                .collect();
            mu[l.index()] = tree.task_dominant_share(l).expect("a leaf");
        }
        Slices {
            tree,
            rule,
            normaliser: rule.normaliser(),
            k,
            slice,
            a_slice,
            mu,
            count: vec![0; n],
            usage: vec![vec![Rational::ZERO; m]; n],
            active: vec![true; n],
            post: tree.nodes().rev().collect(),
            leaves: tree.leaves().collect(),
            key: vec![Rational::ZERO; n],
            effective: vec![Vec::new(); n],
            saturated: vec![false; m],
        }
    }

    /// Eager blocking: a leaf whose next slice does not fit stops now, as the fluid model
    /// stops every demander of a saturated resource at once; a pool stops with its last
    /// active child.
    fn block_unfitting(&mut self) {
        let tree = self.tree;
        for &leaf in &self.leaves {
            let i = leaf.index();
            if !self.active[i] {
                continue;
            }
            let cap_ok = tree
                .node(leaf)
                .cap()
                .is_none_or(|t| Rational::from(self.count[i] + 1) * &self.slice <= *t);
            let mut fits = cap_ok;
            for (j, (a, u)) in self.a_slice[i].iter().zip(&self.usage[0]).enumerate() {
                if !a.is_zero() && u + a > Rational::ONE {
                    self.saturated[j] = true;
                    fits = false;
                }
            }
            if fits {
                continue;
            }
            self.active[i] = false;
            let mut at = tree.node(leaf).parent();
            while let Some(u) = at {
                if tree.node(u).children().any(|c| self.active[c.index()]) {
                    break;
                }
                self.active[u.index()] = false;
                at = tree.node(u).parent();
            }
        }
    }

    /// A leaf's key: its dominant share `x mu` over the policy's normaliser.
    fn key_of_leaf(&self, l: NodeId) -> Rational {
        let i = l.index();
        let share = Rational::from(self.count[i]) * &self.mu[i] / Rational::from(self.k);
        share / self.normaliser.of(self.tree.node(l))
    }

    /// The leaf that gets the next slice (the root is active).
    fn next_leaf(&mut self) -> NodeId {
        if self.rule.aggregation() == Aggregation::Flattened {
            // Pools are transparent: the active leaf with the smallest key, directly.
            return self
                .leaves
                .iter()
                .copied()
                .filter(|l| self.active[l.index()])
                .min_by(|&a, &b| self.key_of_leaf(a).cmp(&self.key_of_leaf(b)))
                .expect("the root is active");
        }
        self.update_keys();
        let tree = self.tree;
        let mut v = tree.root();
        while !tree.node(v).is_leaf() {
            v = tree
                .node(v)
                .children()
                .filter(|c| self.active[c.index()])
                .min_by(|a, b| self.key[a.index()].cmp(&self.key[b.index()]))
                .expect("an active pool has an active child");
        }
        v
    }

    /// Every active node's key (and H-DRF's effective vector), children first.
    fn update_keys(&mut self) {
        let (tree, rule, normaliser) = (self.tree, self.rule, self.normaliser);
        for k in 0..self.post.len() {
            let v = self.post[k];
            if !self.active[v.index()] {
                continue;
            }
            let node = tree.node(v);
            if node.is_leaf() {
                self.key[v.index()] = self.key_of_leaf(v);
                if rule.aggregation() == Aggregation::Effective {
                    self.effective[v.index()] = self.usage[v.index()].clone();
                }
                continue;
            }
            let (own, lam) = if rule.aggregation() == Aggregation::Effective {
                let (key, effective_now, usage, active) =
                    (&self.key, &self.effective, &self.usage, &self.active);
                let children = node.children().map(move |c| {
                    if active[c.index()] {
                        Child::Active {
                            key: &key[c.index()],
                            vector: &effective_now[c.index()],
                        }
                    } else {
                        // Stopped (at its cap or blocked): counted as it is.
                        Child::Stopped(&usage[c.index()])
                    }
                });
                let (vector, e) = effective_vector(children, &self.saturated);
                self.effective[v.index()] = vector;
                (e / normaliser.of(node), None)
            } else {
                let s = self.usage[v.index()].iter().max().expect("m >= 1");
                let lam = rule.key_follows_activity().then(|| {
                    tree.node(v)
                        .children()
                        .filter(|c| self.active[c.index()])
                        .map(|c| &self.key[c.index()])
                        .min()
                        .expect("an active pool has an active child")
                        .clone()
                });
                (s / normaliser.of(node), lam)
            };
            self.key[v.index()] = rule.pool_key(own, lam.as_ref());
        }
    }

    /// One slice to `leaf`: its count, and its shares in the usage of its ancestors.
    fn give_slice(&mut self, leaf: NodeId) {
        let i = leaf.index();
        self.count[i] += 1;
        let mut at = Some(leaf);
        while let Some(u) = at {
            for (uj, aj) in self.usage[u.index()].iter_mut().zip(&self.a_slice[i]) {
                if !aj.is_zero() {
                    *uj += aj;
                }
            }
            at = self.tree.node(u).parent();
        }
    }
}
