//! H-DRF (Bhattacharya et al., SoCC 2013): naive HDRF with two fixes to a pool's share.
//!
//! 1. *Rescaling to minimum nodes*: before summing, every non-blocked child's vector is
//!    rescaled so that its (weighted) dominant share equals the smallest one among the
//!    non-blocked children.
//! 2. *Ignoring blocked nodes*: blocked children take no part in that minimum and are not
//!    rescaled — their vectors are added as they are — and saturated resources do not count
//!    in a pool's share.
//!
//! # The rule, as keys
//! A node is *active* when some leaf below it can grow, and *stopped* otherwise: every leaf
//! below it has reached its cap or waits on a saturated resource (blocked). The effective
//! vector of an active node is, for a leaf, its bundle (in shares `x d / R`), and for a pool
//! `p`
//!
//! `V_p = Σ_{stopped children} U_c + Σ_{active children} V_c · λ_p / K_c`,
//!
//! where `U_c` is a child's actual usage, `K_c = E_c / w_c` its key, and `λ_p = min K_c` over
//! the active children. The second sum is fix 1: every active child's vector is rescaled so
//! that its key equals the minimum. The effective share `E_p` is the largest entry of `V_p`
//! over the **unsaturated** resources (fix 2's second half), and the key a parent compares is
//! `E_p / w_p` (for a leaf, `x mu / w`). With equal weights this is the paper's "rescale to
//! the minimum dominant share"; weights divide the shares as in naive HDRF.
//!
//! Why children at their caps count as they are: if a leaf that reached its cap were dropped,
//! its pool would compete as if that leaf's resources were not its own, and the share
//! guarantee would fail even with one resource (root → {n1 (weight 1) → {n2}, n3 (weight 3)
//! → {n4, n5, n6 capped at 1/6 of the resource}} would leave n1 with 5/24 < 1/4). Counted as
//! they are, H-DRF on one resource is hierarchical max-min, as it should be.
//!
//! # Blocked children: counted as they are
//! At every internal node, H-DRF
//! 1. takes the minimum dominant share `M` among the **non-blocked** children;
//! 2. rescales every non-blocked child's consumption vector to dominant share `M`;
//! 3. adds **all** children's vectors, blocked ones as they are, to get the node's vector;
//! 4. ignores saturated resources when taking an internal node's dominant share.
//!
//! These are the steps of the paper as Volcano's H-DRF design note sets them out, with the
//! paper's two figures; with weights, `M` is `λ_p` in key units. "Ignoring blocked nodes"
//! could also be read as dropping a blocked child's vector altogether. The two readings agree
//! unless a child blocked by one resource holds another, unsaturated one: on `C1`, `C2` on
//! the CPU, `A = (0,1)`, `B = {B1 = (1,1), B2 = (0,1)}` the rule above gives `A = 1/2`,
//! `B2 = 3/10` (B1's memory counts against B), the dropping reading `A = B2 = 2/5`
//! (`tests/integration/hdrf_paper.rs`). The paper's own examples come out the same under both
//! (`n1 = (0,1)` against `n2 = {(1,0), (0,1)}`: 1/2, 1, 1/2, in `tests/integration/reference.rs`; `n1`,
//! `n2`, `n3,1` on the CPU against `n3,2`, `n4` on the GPUs: 1/3 each, then the GPUs split
//! evenly, in `tests/integration/hdrf_paper.rs`). Volcano's DRF plugin
//! (`pkg/scheduler/plugins/drf/drf.go`, `updateHierarchicalShare`) adds blocked children
//! unscaled as in step 3 but takes a node's share over all resources, without step 4; this
//! module implements all four steps.
//!
//! # Fluid definition (exact)
//! Water-filling on these keys at every pool, from zero (see [`crate::fill`]). When a leaf
//! stops, its pool's effective vector counts it as it is instead of rescaled, the minimum
//! `λ_p` may move to another child, and a resource may drop out of the share, so keys can
//! jump either way: a pool whose key drops grows alone until its siblings' level is reached (a
//! catch-up event), one whose key jumps up waits; while a child waits its rescaled vector
//! grows with `λ_p`. Ties are equalised; degenerate children (a pool whose effective share
//! is held by a stopped child's resource its growing leaves do not use) are handled as in
//! [`crate::fill`].
//!
//! The task-by-task version converges to this fluid allocation (but for the tie of degenerate
//! siblings described in the crate docs) when a leaf is treated as blocked as soon as a
//! resource it needs lacks room (the tests' task-by-task fill, `tests/integration/common/discrete.rs`, checks every leaf
//! after every slice). A scheduler that discovers a blocked leaf only when it picks it keeps
//! treating the blocked leaves of pools it does not visit as active (in the minimum and the
//! rescaling) and can converge to another allocation (see the notes of that fill).
//!
//! # Code
//! [`Policy::fluid_key`](crate::Policy::fluid_key) is the policy's key in the fluid fill; [`effective_vector`] aggregates a pool's
//! children for the task-by-task engines (the tests' `tests/integration/common/discrete.rs`,
//! [`crate::simulate`]), and the
//! fluid engine ([`crate::fill`]) accumulates the same vector with its rates.
//!
//! # References
//! - A. Bhattacharya, D. Culler, E. Friedman, A. Ghodsi, S. Shenker, I. Stoica.
//!   *Hierarchical Scheduling for Diverse Datacenter Workloads.* SoCC 2013,
//!   <https://people.eecs.berkeley.edu/~alig/papers/h-drf.pdf>.
//! - Volcano's H-DRF design note (`volcano-sh/volcano`, `docs/design/hdrf.md`):
//!   <https://go-mod-viewer.appspot.com/volcano.sh/volcano@v1.9.0/docs/design/hdrf.md>, and
//!   its DRF plugin, `pkg/scheduler/plugins/drf/drf.go`.

use leontief_solver::Rational;

use super::affine::add_scaled;
use crate::allocation::TreeAllocation;
use crate::error::Result;
use crate::Policy;
use crate::Tree;

/// The H-DRF allocation: the exact fluid limit of a fill from zero (see the
/// [module docs](self)).
///
/// # Complexity
/// As [`crate::naive()`], plus `O(c·m)` per recomputed pool for the effective vectors. The
/// exact numbers grow much faster than under the other policies, because the allocation's
/// own do (see [`crate::fill`], "Number sizes"): on the generated three-level clusters of
/// the benchmark, the allocation of 2,000 leaves has 51,000-bit denominators (17 million
/// bits over the leaves' task counts), and every big operation costs in proportion (times
/// in BENCHMARKS.md).
///
/// # Example
/// The H-DRF paper's example: `n1 = (0,1)` against `n2 = {n21 = (1,0), n22 = (0,1)}`.
/// Memory is split evenly between `n1` and `n2` (whose share is `n22`'s memory, equal to
/// `n21`'s CPU); when memory saturates, `n21` takes the remaining CPU.
/// ```
/// use leontief_hdrf::{hdrf, Tree};
/// let tree = Tree::from_json_str(r#"{"capacity": [1, 1], "tree": {"children": [
///     {"name": "n1", "demand": [0, 1]},
///     {"name": "n2", "children": [{"name": "n21", "demand": [1, 0]}, {"name": "n22", "demand": [0, 1]}]}]}}"#).unwrap();
/// let x = hdrf(&tree).unwrap();
/// let share = |name| x.dominant_share(tree.find(name).unwrap()).to_string();
/// assert_eq!([share("n1"), share("n21"), share("n22")], ["1/2", "1", "1/2"]);
/// ```
///
/// # References
/// - A. Bhattacharya, D. Culler, E. Friedman, A. Ghodsi, S. Shenker, I. Stoica.
///   *Hierarchical Scheduling for Diverse Datacenter Workloads.* SoCC 2013,
///   <https://people.eecs.berkeley.edu/~alig/papers/h-drf.pdf>.
/// - Volcano's H-DRF design note (`volcano-sh/volcano`, `docs/design/hdrf.md`), which sets
///   out the paper's rule step by step with its figures:
///   <https://go-mod-viewer.appspot.com/volcano.sh/volcano@v1.9.0/docs/design/hdrf.md>.
pub fn hdrf(tree: &Tree) -> Result<TreeAllocation> {
    crate::allocate(tree, Policy::Hdrf)
}

/// A child of a pool as H-DRF's aggregation sees it.
#[derive(Debug, Clone, Copy)]
pub enum Child<'a> {
    /// Some leaf below it can grow: its key and its effective vector.
    Active {
        /// Its key `K_c`.
        key: &'a Rational,
        /// Its effective vector `V_c`.
        vector: &'a [Rational],
    },
    /// Every leaf below it is at its cap, blocked (or, in the simulator, without work): its
    /// usage `U_c`.
    Stopped(&'a [Rational]),
}

/// H-DRF's effective vector of an active pool from its children's, and its effective share:
/// `V_p = Σ_stopped U_c + Σ_active V_c · λ_p / K_c` with `λ_p` the smallest active key, and
/// `E_p` the largest entry of `V_p` over the unsaturated resources (0 when every resource
/// is saturated). The pool's key is `E_p / w_p`. Used by the task-by-task engines
/// (the tests' `tests/integration/common/discrete.rs`, [`crate::simulate`]), which recompute it from the current bundles.
///
/// # Complexity
/// `O(c·m)` rational operations for `c` children.
///
/// # Example
/// A pool with a stopped child holding `(1/4, 0)` and two active ones: `(0, 1/5)` at key
/// 1/5 and `(0, 1/2)` at key 1/2, rescaled to 1/5. With the first resource saturated, the
/// effective share is that of the second: `1/5 + 1/5 = 2/5`.
/// ```
/// use leontief_hdrf::policies::hdrf::{effective_vector, Child};
/// use leontief_solver::Rational;
/// let r = |s: &str| s.parse::<Rational>().unwrap();
/// let (stopped, a, b) = ([r("1/4"), r("0")], [r("0"), r("1/5")], [r("0"), r("1/2")]);
/// let (ka, kb) = (r("1/5"), r("1/2"));
/// let children = [Child::Stopped(&stopped), Child::Active { key: &ka, vector: &a },
///                 Child::Active { key: &kb, vector: &b }];
/// let (v, e) = effective_vector(children, &[true, false]);
/// assert_eq!(v, [r("1/4"), r("2/5")]);
/// assert_eq!(e, r("2/5"));
/// ```
pub fn effective_vector<'a, I>(children: I, saturated: &[bool]) -> (Vec<Rational>, Rational)
where
    I: IntoIterator<Item = Child<'a>>,
    I::IntoIter: Clone,
{
    let children = children.into_iter();
    let lam = children
        .clone()
        .filter_map(|c| match c {
            Child::Active { key, .. } => Some(key),
            Child::Stopped(_) => None,
        })
        .min()
        .expect("an active pool has an active child");
    let mut out = vec![Rational::ZERO; saturated.len()];
    for child in children {
        match child {
            Child::Active { key, vector } if key != lam => {
                add_scaled(&mut out, vector, Some(&(lam / key)));
            }
            // At the minimum the rescaling factor is 1.
            Child::Active { vector, .. } => add_scaled(&mut out, vector, None),
            Child::Stopped(usage) => add_scaled(&mut out, usage, None),
        }
    }
    let e = out
        .iter()
        .zip(saturated)
        .filter(|(_, s)| !**s)
        .map(|(x, _)| x)
        .max()
        .cloned()
        .unwrap_or(Rational::ZERO);
    (out, e)
}

/// H-DRF's effective vector of a pool in the fluid fill ([`crate::fill`]) and its rate per
/// unit of the pool's own clock, accumulated child by child: the usage of its stopped
/// children as it is, every active child's effective vector rescaled to the smallest key
/// `λ_p` (`V_c λ_p / K_c`; the leaf group's is `λ_p Σ a_l / c_l`).
pub(crate) struct FluidEffective<'a> {
    lam: &'a Rational,
    degenerate: bool,
    v: Vec<Rational>,
    dv: Vec<Rational>,
}

impl<'a> FluidEffective<'a> {
    /// Starts from `settled`, the usage of the stopped children; `λ_p` rises at rate 1
    /// unless degenerate children grow.
    pub(crate) fn new(settled: Vec<Rational>, lam: &'a Rational, degenerate: bool) -> Self {
        let dv = vec![Rational::ZERO; settled.len()];
        FluidEffective {
            lam,
            degenerate,
            v: settled,
            dv,
        }
    }

    /// The active leaf children, whose keys all equal `ℓ_p`, with `Σ a_l / c_l` = `rate`:
    /// as they are at the minimum or waiting, their rescaled vector is `λ_p · rate`.
    pub(crate) fn add_leaf_group(&mut self, rate: &[Rational]) {
        add_scaled(&mut self.v, rate, Some(self.lam));
        if !self.degenerate {
            add_scaled(&mut self.dv, rate, None);
        }
    }

    /// An active pool child: its effective vector `vector` now, its rate `slope` per unit of
    /// its own clock, its key, and, when it grows, its clock rate per unit of this pool's.
    pub(crate) fn add_child(
        &mut self,
        vector: &[Rational],
        slope: &[Rational],
        key: &Rational,
        growth: Option<&Rational>,
    ) {
        if key == self.lam {
            // At the minimum the rescaling factor is 1.
            add_scaled(&mut self.v, vector, None);
            if let Some(rate) = growth {
                add_scaled(&mut self.dv, slope, Some(rate));
            }
        } else {
            // Waiting: rescaled by λ_p / K_c, which grows with λ_p.
            let inv_key = key.recip().expect("above the minimum: positive");
            add_scaled(&mut self.v, vector, Some(&(self.lam * &inv_key)));
            if !self.degenerate {
                add_scaled(&mut self.dv, vector, Some(&inv_key));
            }
        }
    }

    /// The effective vector and its rate.
    pub(crate) fn finish(self) -> (Vec<Rational>, Vec<Rational>) {
        (self.v, self.dv)
    }
}
