//! `sg-deficit`: how far below its guaranteed share a node of the tree ends, minimized
//! (docs/explore.md §3.10; the share guarantee, docs/theory.md §4.8).
//!
//! On an instance with pools, every node `v` below the root has a guaranteed share `g_v`
//! (its parent's times its weight over its siblings'; [`Instance::hierarchy`]) and a
//! dominant share `S_v = max_j Σ_{i below v} x_i d_ij / R_j`. Over the nodes with unmet
//! demand (some user below `v` uncapped or under its cap):
//!
//! `sg-deficit = min_v S_v / g_v`.
//!
//! The share guarantee holds exactly when the value is at least 1; below 1 it is the size
//! of the violation (the node holds that fraction of its guarantee). The numerator is
//! `S_v`, the denominator `g_v`, and the witness names the node by its path (`node`, e.g.
//! `P` or `P/x`; the first in the tree's pre-order among the minimal ones). The root, whose
//! guarantee is the whole cluster, is left out, as in the share-guarantee oracle. The value
//! is about a node, not a user, and does not depend on `--utility`.
//!
//! It applies to the hierarchical mechanisms `hdrf:*`; an instance without pools has no
//! value. Re-derivation confirms the value's side of 1 with the solver's share-guarantee
//! oracle ([`share_guarantee_violations`]), and a value below 1 with its witness node.
//!
//! # Example
//! The lecture's tree: A ⟨1, 0⟩ against the pool B = {B1 ⟨1, 0⟩, B2 ⟨0, 1⟩}, capacities
//! (1, 1). The collapsed policy (weighted DRF over the leaves, weights 1/2, 1/4, 1/4)
//! gives A 2/3 and B1 1/3 of resource 1 and B2 all of resource 2: B's dominant share is
//! 1 ≥ 1/2 — but A, with unmet demand, holds 2/3 ≥ 1/2 too; the least ratio is A's
//! `(2/3) / (1/2) = 4/3`.
//! ```
//! use leontief_counterexamples::candidate::Candidate;
//! use leontief_counterexamples::explore::{At, MetricName, Utility};
//! use leontief_counterexamples::mechanisms::by_name;
//! use leontief_solver::properties::Scenario;
//! use leontief_solver::{Instance, Pool, User};
//! let inst = Instance::builder(vec![1.into(), 1.into()])
//!     .pools(vec![Pool::new("B")])
//!     .users(vec![User::new("A", [1, 0]), User::new("B1", [1, 0]).pool(0), User::new("B2", [0, 1]).pool(0)])
//!     .build().unwrap();
//! let m = by_name("hdrf:collapsed").unwrap();
//! let truth = m.allocate(&inst).unwrap();
//! let c = Candidate::new(inst, Scenario::Bounded);
//! let e = MetricName::SgDeficit.metric().at(&At::new(m.as_ref(), &c, &truth, Utility::Tasks)).unwrap().unwrap();
//! assert_eq!(e.value.to_string(), "4/3");
//! ```
//!
//! # Complexity
//! `O(N · n · m)` for `N` nodes, `n` users and `m` resources.
//!
//! # References
//! - A. A. Bhattacharya, D. Culler, E. Friedman, A. Ghodsi, S. Shenker, I. Stoica.
//!   *Hierarchical Scheduling for Diverse Datacenter Workloads.* ACM SoCC 2013 (H-DRF and
//!   the share guarantee of a hierarchy).

use serde_json::Value;

use leontief_solver::properties::allocation::share_guarantee_violations;
use leontief_solver::properties::Property;
use leontief_solver::{Allocation, Instance, Rational, SolverError};

use super::metric::{Applies, At, Direction, Evaluation, Metric, MetricInfo};
use super::metric_common::{bounded, Of};

/// See the [module docs](self).
pub struct SgDeficit;

/// The node of least `S_v / g_v` among the nodes below the root with unmet demand, with
/// `S_v` and `g_v` (the first in pre-order among equals); `None` without such a node.
pub(crate) fn least_node(inst: &Instance, x: &Allocation) -> Option<(usize, Rational, Rational)> {
    let h = inst.hierarchy();
    let users = inst.users();
    let mut best: Option<(usize, Rational, Rational, Rational)> = None;
    for v in 1..h.len() {
        let below = h.users_below(v);
        let unmet = below
            .iter()
            .any(|&i| users[i].cap.as_ref().is_none_or(|t| x.tasks[i] < *t));
        if !unmet {
            continue;
        }
        let share = (inst.capacity().iter().enumerate())
            .filter(|(_, r)| r.is_positive())
            .map(|(j, r)| {
                let used: Rational = below
                    .iter()
                    .map(|&i| &x.tasks[i] * &users[i].demand[j])
                    .sum();
                &used / r
            })
            .fold(Rational::ZERO, Rational::max);
        let g = h.node(v).guaranteed.clone();
        let ratio = &share / &g;
        if best.as_ref().is_none_or(|(_, _, _, b)| ratio < *b) {
            best = Some((v, share, g, ratio));
        }
    }
    best.map(|(v, s, g, _)| (v, s, g))
}

/// What the metric measures, in which direction, and how its record is shaped.
pub(super) const INFO: MetricInfo = MetricInfo {
    applies: Applies::Only {
        accepts: |name| name.starts_with("hdrf:"),
        reason: "sg-deficit measures the share guarantee of a tree: it applies to the \
                 hierarchical mechanisms hdrf:*",
    },
    uses_utility: false,
    ratio_of: "dominant shares",
    per_user: false,
    ..MetricInfo::ratio(
        "min over nodes v with unmet demand of S_v / g_v, the node's dominant share over its \
         guaranteed share (1 or more with the share guarantee; hdrf:* on instances with pools)",
        Direction::Min,
        Property::Sg,
    )
};

impl Metric for SgDeficit {
    fn detail(&self, _: &str, e: &Evaluation) -> Option<Value> {
        let inst = &e.candidate.instance;
        let (v, _, _) = least_node(inst, &e.before)?;
        Some(serde_json::json!({ "node": inst.hierarchy().path(v) }))
    }

    fn at(&self, at: &At) -> Result<Option<Evaluation>, SolverError> {
        let inst = bounded(self, at)?;
        let (candidate, truth) = (at.candidate, at.truth);
        if inst.pools().is_empty() || truth.tolerance.is_some() {
            return Ok(None);
        }
        let Some((_, share, g)) = least_node(inst, truth) else {
            return Ok(None);
        };
        let of = Of::new(candidate, truth, None);
        Ok(Some(of.exact_ratio(0, None, share, g)))
    }
}

/// The share-guarantee oracle agrees with the value: below 1 exactly when some node below
/// the root violates the guarantee, and then the recorded node is one of the violators,
/// with the recorded shares.
pub(crate) fn confirm(
    record: &Value,
    inst: &Instance,
    x: &Allocation,
    e: &Evaluation,
) -> Result<(), SolverError> {
    let bad: Vec<_> = share_guarantee_violations(inst, x)?
        .into_iter()
        .filter(|w| w.vertex != 0)
        .collect();
    let claims = e.value < Rational::ONE;
    let violated = !bad.is_empty();
    if claims != violated {
        return Err(SolverError::invalid(
            "value",
            format!(
                "sg-deficit = {} but the sg oracle says the property {}",
                e.value,
                if bad.is_empty() { "holds" } else { "fails" }
            ),
        ));
    }
    if claims {
        let node = record["witness"]["node"].as_str().unwrap_or_default();
        if !bad.iter().any(|w| {
            w.node == node && w.dominant_share == e.numerator && w.guaranteed == e.denominator
        }) {
            return Err(SolverError::invalid(
                "witness.node",
                format!("{node:?} is not a share-guarantee violation with the recorded shares"),
            ));
        }
    }
    Ok(())
}
