//! The production fields of a tree: guarantees, limits, pool modes, running usage, and the
//! rules that settle what production schedulers disagree on (`docs/production.md`).
//!
//! Every field is optional; a node without them behaves exactly as before they existed.
//! - `guarantee` (pools and leaves): a resource vector of absolute amounts, or a fraction of
//!   the parent's resolved guarantee (the root's guarantee is the capacity). Resolved exactly
//!   to a vector, top-down ([`crate::hierarchy::TreeNode::guarantee`]).
//! - `limit` (pools and leaves): a resource vector capping what the whole subtree holds.
//! - `mode` (pools): [`Mode::Fair`] (default) or [`Mode::Fifo`] (children served in the
//!   order listed, each up to its demand, before the next).
//! - `usage` (leaves): what the leaf holds now.
//!
//! # Example
//! ```
//! use leontief_solver::Instance;
//! let inst = Instance::from_json_str(r#"{"capacity": [8, 8], "tree": {"children": [
//!     {"name": "prod", "guarantee": "1/2", "limit": [6, 8], "mode": "fifo", "children": [
//!         {"name": "web", "demand": [1, 1], "guarantee": [2, 2], "usage": [1, 1]}]},
//!     {"name": "dev", "demand": [1, 0]}]}}"#).unwrap();
//! let h = inst.hierarchy();
//! let prod = h.node(h.pool_node(0));
//! assert_eq!(prod.guarantee, vec![4.into(), 4.into()]); // 1/2 of the capacity
//! assert_eq!(h.node(h.leaf(0)).usage, vec![1.into(), 1.into()]);
//! ```

use crate::Rational;

/// A node's guarantee as written: absolute amounts or a fraction of the parent's guarantee.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(untagged)]
pub enum Guarantee {
    /// Absolute amounts, one per resource (like the capacity).
    Vector(Vec<Rational>),
    /// That fraction, in `[0, 1]`, of the parent's resolved guarantee vector (the root's is
    /// the capacity). No production scheduler has this form for a guarantee (YARN's
    /// percentages are of the cluster and for limits only); it is our extension, resolved
    /// exactly.
    Fraction(Rational),
}

crate::name_enum! {
    /// How a pool serves its children: `fair` or `fifo`, as in the JSON form.
    #[derive(Default)]
    pub enum Mode {
        /// By the policy's fair-sharing rule (the default).
        #[default]
        Fair,
        /// In the order listed, each child up to its demand before the next (YTsaurus FIFO
        /// pools).
        Fifo,
    }
}

crate::name_enum! {
    /// What to do when the children's guarantees add up to more than their parent's
    /// (`docs/production.md`): the systems differ. Each variant's first paragraph is its help
    /// in the CLI's `--help`.
    #[derive(Default, ::strum::EnumMessage)]
    pub enum Oversubscribed {
        /// Refuse the tree (Mesos; the default).
        ///
        /// Reject the tree, naming the parent (Mesos rejects quota guarantees whose children
        /// exceed their parent). The default.
        #[default]
        Error,
        /// Scale the children's guarantees by one factor to fit (YTsaurus).
        ///
        /// Scale every child's guarantee by one common factor, the largest that fits on every
        /// resource (YTsaurus scales its pools' strong guarantees so).
        Scale,
    }
}

crate::name_enum! {
    /// What to do with a limit below the node's guarantee on some resource: the systems
    /// differ. Each variant's first paragraph is its help in the CLI's `--help`.
    #[derive(Default, ::strum::EnumMessage)]
    pub enum LimitBelowGuarantee {
        /// Refuse the tree (Mesos; the default).
        ///
        /// Reject the tree, naming the limit (Mesos). The default.
        #[default]
        Error,
        /// Raise the limit to the guarantee (YARN).
        ///
        /// Raise the limit to the guarantee on those resources (YARN's `maxResources` is
        /// raised to `minResources`).
        RaiseLimit,
        /// Lower the guarantee to the limit (YTsaurus).
        ///
        /// Lower the guarantee to the limit on those resources (YTsaurus).
        LowerGuarantee,
    }
}

crate::name_enum! {
    /// How a guarantee enters a node's share in the static policies (`docs/production.md` §2):
    /// the systems differ. Named `additive` or `clamp`, as the CLI spells it; each variant's
    /// first paragraph is its help in the CLI's `--help`.
    #[derive(Default, ::strum::EnumMessage)]
    pub enum GuaranteeRule {
        /// Guarantees first, then a fair part of the rest on what each node gets beyond its
        /// guarantee (YTsaurus; the default).
        ///
        /// Guarantees first, then a fair part of the rest, the keys comparing what each node
        /// gets *beyond* its guarantee (YTsaurus' vector HDRF; Kueue's dominant resource share,
        /// which counts only usage above the nominal quota). The default.
        #[default]
        Additive,
        /// Guarantees first, then fair sharing on everything a node holds: max(fair share,
        /// guarantee) (YARN's minResources).
        ///
        /// Guarantees first, then fair sharing with the keys comparing everything a node holds,
        /// its guarantee included: a node gets `max(fair share, guarantee)` (YARN's
        /// `ComputeFairShares`, `max(w·R, minResources)`; Mesos' sorter after quota).
        Clamp,
    }
}

/// The rules a tree's guarantees and limits are resolved with (every default: reject).
///
/// # Example
/// ```
/// use leontief_solver::{Instance, Oversubscribed, Rules};
/// let text = r#"{"capacity": [4], "tree": {"children": [
///     {"name": "a", "demand": [1], "guarantee": [3]}, {"name": "b", "demand": [1], "guarantee": [3]}]}}"#;
/// let err = Instance::from_json_str(text).unwrap_err();
/// assert!(err.to_string().starts_with("tree.children: the children's guarantees add up to"), "{err}");
/// let rules = Rules { oversubscribed: Oversubscribed::Scale, ..Rules::default() };
/// let inst = Instance::from_json_str_with(text, rules).unwrap();
/// let h = inst.hierarchy();
/// assert_eq!(h.node(h.leaf(0)).guarantee[0].to_string(), "2"); // 3 · 4/6
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Children's guarantees above their parent's.
    pub oversubscribed: Oversubscribed,
    /// A limit below the guarantee.
    pub limit_below_guarantee: LimitBelowGuarantee,
    /// How guarantees enter the static policies' shares (resolution does not depend on it).
    pub guarantees: GuaranteeRule,
}
