//! Who is offered the next task: every node's exact share, guarantee deficit and rank under a
//! production scheduler's ordering rule, given what each leaf holds now.
//!
//! The static policies ([`crate::allocate`]) fill an empty cluster; a running scheduler asks
//! another question every round: *given the current usage, which node is offered resources
//! next?* (the DRF sorter of Apache Mesos, the comparator of the YARN Fair Scheduler, the
//! fair-sharing tournament of Kueue, YTsaurus' best-child search). This module answers it
//! exactly, on plain inputs ([`OrderTree`]: per node its usage, guarantee, limit, weight and
//! children), so that the ranking does not depend on how a tree was read.
//!
//! # Figures of a node `v`
//! With `U_v` the sum of the usage vectors of the leaves below `v` (subtree-aggregated, as
//! Mesos' sorter and YARN's queues count it), `R` the capacity, `w_v` the weight and `g_v` the
//! explicit guarantee (a resource vector; none means zero; read from a [`Tree`], the model's
//! resolved guarantee):
//! - `dominant_share = max_j U_vj / R_j` (the cluster is the denominator, as in all four
//!   systems' sorters);
//! - `weighted_share = dominant_share / w_v`;
//! - `deficit = (g_v - U_v)⁺`, componentwise, exact;
//! - `needy`, YARN's reading: `U_vd < g_vd` where `d` is the dominant resource of `U_v`
//!   (`argmax_j U_vj / R_j`, the first resource on ties);
//! - `count`: how many times the node was served: with a history of offers
//!   ([`OrderConfig::served`]) the number of offers to leaves below it (Mesos' allocation
//!   count, counted at every ancestor, never reset), otherwise the whole tasks its leaves
//!   hold (`floor(min_{j: d_j > 0} U_lj / d_j)` for a leaf with per-task demand `d`).
//!
//! # Active leaves
//! A leaf is offered a task only if it wants one and one can start: it has a demand with a
//! positive entry, holds at most `T - 1` tasks when it has a task count `T` (so `floor(T)`
//! running tasks at most, as in [`crate::simulate`]), its next task fits in what
//! is free (`Σ U + d <= R`), and no node from it to the root would exceed its limit
//! (`U_a + d <= L_a`). Every other leaf is listed with the reason and no rank; a pool is
//! active when a leaf below it is.
//!
//! # Rules ([`Rule`])
//! At every pool the active children are sorted by the rule's key (smallest first), then by
//! the tie-breaks ([`TieBreaks`]) in the order given, then by their order in the tree; the
//! offer order is the active leaves in pre-order of the sorted tree, as Mesos' `DRFSorter::sort`
//! emits them (a whole subtree before its next sibling). A pool in `fifo` mode sorts its
//! active children by their order in the tree alone.
//! - [`Rule::Naive`] (default): the key is `weighted_share`. This is our naive HDRF
//!   (`docs/theory.md` §4) read on running usage, and exactly Mesos' DRF sorter
//!   (`src/master/allocator/mesos/sorter/drf/sorter.cpp`, `DRFSorter::calculateShare` and
//!   `Node::compareDRF` in `sorter.hpp`, <https://github.com/apache/mesos>): share of the
//!   subtree over the cluster, divided by the weight, then allocation count, then path.
//!   Default tie-breaks: `count`, `name`.
//! - [`Rule::Yarn`]: YARN Fair Scheduler's DRF comparator
//!   (`DominantResourceFairnessPolicy.DominantResourceFairnessComparatorN.compare`,
//!   <https://github.com/apache/hadoop>): needy nodes first; two needy nodes compare
//!   `U_j / g_j` (`+∞` when `g_j = 0`), two others `U_j / R_j / w`, each lexicographically
//!   over its **own** resources sorted by descending usage share (equal shares keep resource
//!   order). Default tie-break: `name` (YARN's queues all report start time 0,
//!   `FSQueue.getStartTime`, so its comparator orders sibling queues by name).
//! - [`Rule::Kueue`]: Kueue's fair sharing (`pkg/cache/scheduler/fair_sharing.go`,
//!   `dominantResourceShare`; `pkg/scheduler/fair_sharing_iterator.go`,
//!   <https://github.com/kubernetes-sigs/kueue>): the key is the *dominant resource share* of
//!   what the child borrows beyond its guarantee **after** admitting its nominee's next task,
//!   `max_j (U_cj + d_j - g_cj)⁺ / P_j` over the weight, where `d` is the per-task demand of
//!   the child's first leaf in its own order and `P` the parent's potential
//!   (componentwise minimum of the capacity and the limits of the parent and its ancestors);
//!   `+∞` for a weight-0 child that borrows. A child within its guarantee has key 0. Default
//!   tie-break: `first` (Kueue keeps the earlier candidate).
//! - [`Rule::Ytsaurus`]: YTsaurus' fair-share mode
//!   (`TDynamicAttributesManager::GetBestActiveChildFairShare`,
//!   `TPoolTreeElement::ComputeLocalSatisfactionRatio`, <https://github.com/ytsaurus/ytsaurus>):
//!   the key is the satisfaction ratio of usage over the node's fair share `f`
//!   ([`OrderNode::fair_share`]): `+∞` when `f = 0`; `max_j U_j / f_j` (`+∞` where `f_j = 0 <
//!   U_j`) when some `U_j > f_j`; otherwise `max_{j: f_j > 0} U_j / f_j`. (YTsaurus also
//!   skips resources whose fair share covers the demand; demands here are per task, so that
//!   refinement is not applied.) Default tie-break: `first`.
//!
//! # Example
//! Mesos' `DRFSorterTest.DRF`, first step: total (100, 100), `a` holds (5, 5), `b` (6, 6):
//! `a` is offered first.
//! ```
//! use leontief_hdrf::order::{order, OrderConfig, OrderTree, Rule};
//! use leontief_hdrf::Tree;
//! let tree = Tree::from_json_str(r#"{"capacity": [100, 100], "tree": {"children": [
//!     {"name": "a", "demand": [1, 1], "usage": [5, 5]},
//!     {"name": "b", "demand": [1, 1], "usage": [6, 6]}]}}"#).unwrap();
//! let out = order(&OrderTree::from_tree(&tree).unwrap(), &OrderConfig::new(Rule::Naive)).unwrap();
//! assert_eq!(out.offer_paths(), ["root/a", "root/b"]);
//! assert_eq!(out.nodes[1].dominant_share.to_string(), "1/20");
//! ```
//!
//! # Complexity
//! `O(N · m)` rational operations for the figures, `O(N log N)` comparisons (each `O(m log m)`
//! for `yarn`) for the sort, `O(H)` for a history of `H` offers.
//!
//! # References
//! - B. Hindman et al. *Mesos: A Platform for Fine-Grained Resource Sharing in the Data
//!   Center.* NSDI 2011; Apache Mesos, `src/tests/sorter_tests.cpp`.
//! - Apache Hadoop YARN, Fair Scheduler documentation
//!   (<https://hadoop.apache.org/docs/stable/hadoop-yarn/hadoop-yarn-site/FairScheduler.html>).
//! - Kueue, fair sharing (<https://kueue.sigs.k8s.io/docs/concepts/preemption/#fair-sharing>).
//! - A. Ghodsi et al. *Dominant Resource Fairness.* NSDI 2011.

use std::cmp::Ordering;
use std::fmt;

use leontief_solver::json::{check_vector, Sign};
use leontief_solver::Rational;

use crate::error::{Result, SolverError};
use crate::tiebreak::{Candidate, SiblingTieBreak, TieBreaks};
use crate::Tree;

/// A rational or `+∞` (a guarantee or fair share of zero in a denominator).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Extended {
    /// A finite value.
    Finite(Rational),
    /// `+∞`, above every finite value.
    Infinite,
}

impl fmt::Display for Extended {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Extended::Finite(x) => write!(f, "{x}"),
            Extended::Infinite => f.write_str("inf"),
        }
    }
}

/// `num / den`, `+∞` when `den` is zero.
fn ratio(num: &Rational, den: &Rational) -> Extended {
    if den.is_zero() {
        Extended::Infinite
    } else {
        Extended::Finite(num / den)
    }
}

leontief_solver::name_enum! {
    #[unknown("rule", "rule")]
    /// The ordering rule: whose key decides which child is offered next (see the
    /// [module docs](self)). Its name on the command line: `naive`, `yarn`, `kueue`,
    /// `ytsaurus`.
    pub enum Rule {
        /// Smallest weighted dominant share of the subtree (naive HDRF; Mesos' DRF sorter).
        Naive,
        /// YARN Fair Scheduler's DRF comparator: needy first, then lexicographic shares.
        Yarn,
        /// Kueue's fair sharing: smallest weighted share of what is borrowed beyond the guarantee.
        Kueue,
        /// YTsaurus' fair-share mode: smallest satisfaction ratio, usage over fair share.
        Ytsaurus,
    }
}

impl Rule {
    /// The tie-breaks the rule's system applies when none are given: Mesos' allocation count
    /// then path for `naive`, YARN's name (queues all start at time 0) for `yarn`, the
    /// earlier candidate for `kueue` and `ytsaurus`.
    pub fn default_ties(self) -> TieBreaks {
        let rules = match self {
            Rule::Naive => vec![SiblingTieBreak::Count, SiblingTieBreak::Name],
            Rule::Yarn => vec![SiblingTieBreak::Name],
            Rule::Kueue | Rule::Ytsaurus => vec![SiblingTieBreak::First],
        };
        TieBreaks::new(rules).expect("a valid chain")
    }
}

/// How a pool orders its children: [`Mode::Fair`] by the rule's key, [`Mode::Fifo`] in the
/// order listed.
pub use leontief_solver::Mode;

/// One node of an [`OrderTree`]: plain inputs, amounts in resource units.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderNode {
    /// Name, unique among its siblings.
    pub name: String,
    /// Weight among its siblings (positive).
    pub weight: Rational,
    /// Children, as indices into [`OrderTree::nodes`] (empty for a leaf).
    pub children: Vec<usize>,
    /// Pools: how the children are ordered.
    pub mode: Mode,
    /// Leaves: the per-task demand vector (`None` for a pool).
    pub demand: Option<Vec<Rational>>,
    /// Leaves: the most tasks the leaf wants, if bounded.
    pub tasks: Option<Rational>,
    /// Leaves: what the leaf holds now (ignored for pools: theirs is their leaves' sum).
    pub usage: Vec<Rational>,
    /// The explicit guarantee, resolved to a resource vector.
    pub guarantee: Option<Vec<Rational>>,
    /// The limit on what the subtree holds.
    pub limit: Option<Vec<Rational>>,
    /// The node's fair share (a resource vector), for [`Rule::Ytsaurus`].
    pub fair_share: Option<Vec<Rational>>,
}

/// A tree of [`OrderNode`]s, the root at index 0.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderTree {
    /// Resource names.
    pub resources: Vec<String>,
    /// Capacities `R_j > 0`.
    pub capacity: Vec<Rational>,
    /// The nodes; 0 is the root, every other node is the child of exactly one.
    pub nodes: Vec<OrderNode>,
}

impl OrderTree {
    /// The plain inputs of a validated [`Tree`]: names, weights, children, demands, task
    /// counts, and each node's usage, explicit guarantee, limit and mode.
    ///
    /// # Errors
    /// A tree in which no leaf has a `usage`: the ranking is of what the leaves hold now.
    pub fn from_tree(tree: &Tree) -> Result<OrderTree> {
        let inst = tree.instance();
        // Idle leaves count: one may hold something it no longer asks more of.
        if !inst
            .users()
            .iter()
            .chain(inst.idle_users())
            .any(|u| u.usage.is_some())
        {
            return Err(no_usage());
        }
        let nodes = tree
            .nodes()
            .map(|v| {
                let n = tree.node(v);
                OrderNode {
                    name: n.name().to_string(),
                    weight: n.weight().clone(),
                    children: n.children().map(|c| c.index()).collect(),
                    mode: tree.node(v).mode(),
                    demand: n.demand().map(<[Rational]>::to_vec),
                    tasks: n.cap().cloned(),
                    usage: tree.node(v).usage().to_vec(),
                    guarantee: Some(tree.node(v).guarantee().to_vec()),
                    limit: tree.node(v).limit().map(<[Rational]>::to_vec),
                    fair_share: None,
                }
            })
            .collect();
        Ok(OrderTree {
            resources: tree.resources().to_vec(),
            capacity: tree.capacity().to_vec(),
            nodes,
        })
    }
}

/// The error of a tree without any usage.
fn no_usage() -> SolverError {
    SolverError::invalid(
        "usage",
        "no leaf of the tree has a \"usage\"; order ranks the nodes by what their leaves hold now (give \"usage\": [..] on the leaves that hold something)",
    )
}

/// What [`order`] is asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderConfig {
    /// The rule.
    pub rule: Rule,
    /// Tie-breaks, in order; the tree order always decides last.
    pub ties: TieBreaks,
    /// The history of offers, oldest first, as leaf indices (needed by [`SiblingTieBreak::Lru`]; with
    /// it [`SiblingTieBreak::Count`] counts offers instead of whole tasks held).
    pub served: Option<Vec<usize>>,
}

impl OrderConfig {
    /// The rule with its default tie-breaks ([`Rule::default_ties`]) and no history.
    pub fn new(rule: Rule) -> OrderConfig {
        OrderConfig {
            rule,
            ties: rule.default_ties(),
            served: None,
        }
    }

    leontief_solver::setters! {
        /// With these tie-breaks.
        ties(ties: TieBreaks) => ties = ties;
        /// With this history of offers (leaf indices, oldest first).
        served(served: Vec<usize>) => served = Some(served);
    }
}

/// The figures and rank of one node (see the [module docs](self)).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct NodeOrder {
    /// Names from the root, joined by `/`.
    pub path: String,
    /// Whether it is a leaf.
    pub leaf: bool,
    /// `U_v`: what the subtree holds.
    pub usage: Vec<Rational>,
    /// `max_j U_vj / R_j`.
    pub dominant_share: Rational,
    /// `dominant_share / w_v`.
    pub weighted_share: Rational,
    /// The explicit guarantee, if any.
    pub guarantee: Option<Vec<Rational>>,
    /// `(g_v - U_v)⁺` (zero without a guarantee).
    pub deficit: Vec<Rational>,
    /// YARN's needy: `U_vd < g_vd` for the dominant resource `d`.
    pub needy: bool,
    /// The rule's key, compared lexicographically (one entry except for `yarn`: needy `0` or
    /// not `1`, then the ratios).
    pub key: Vec<Extended>,
    /// Offers to leaves below it (with a history) or the whole tasks its leaves hold.
    pub count: u64,
    /// The position of its last offer in the history, 1 the oldest (0: never), with a
    /// history.
    pub last_served: Option<u64>,
    /// Why it is not offered a task (`None` when it is active).
    pub inactive: Option<String>,
    /// Position among its active siblings, 1 first (`None` for the root and inactive nodes).
    pub sibling_rank: Option<usize>,
    /// Leaves: position in the offer order, 1 = offered next (`None` when inactive).
    pub rank: Option<usize>,
}

/// The answer of [`order`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderOutcome {
    /// The rule applied.
    pub rule: Rule,
    /// The tie-breaks applied (the tree order decides last).
    pub ties: TieBreaks,
    /// Every node, in the input's node order.
    pub nodes: Vec<NodeOrder>,
    /// The node indices in pre-order (a parent before its children, siblings as listed).
    pub preorder: Vec<usize>,
    /// The active leaves in offer order, as node indices.
    pub offer: Vec<usize>,
}

impl OrderOutcome {
    /// The paths of [`OrderOutcome::offer`].
    pub fn offer_paths(&self) -> Vec<&str> {
        self.offer
            .iter()
            .map(|&v| self.nodes[v].path.as_str())
            .collect()
    }
}

/// Checks the shape and the vectors of a tree and returns each node's parent and path.
fn validate(tree: &OrderTree) -> Result<(Vec<Option<usize>>, Vec<String>)> {
    let m = tree.capacity.len();
    let n = tree.nodes.len();
    if n == 0 {
        return Err(SolverError::invalid("tree", "no root"));
    }
    let mut parent: Vec<Option<usize>> = vec![None; n];
    let mut seen = vec![false; n];
    seen[0] = true;
    let mut stack = vec![0usize];
    let mut paths = vec![String::new(); n];
    paths[0] = tree.nodes[0].name.clone();
    while let Some(v) = stack.pop() {
        for &c in &tree.nodes[v].children {
            if c >= n || seen[c] {
                return Err(SolverError::invalid(
                    format!("{}.children", paths[v]),
                    format!("child index {c} is out of range or used twice"),
                ));
            }
            seen[c] = true;
            parent[c] = Some(v);
            paths[c] = format!("{}/{}", paths[v], tree.nodes[c].name);
            stack.push(c);
        }
    }
    if let Some(v) = seen.iter().position(|s| !s) {
        return Err(SolverError::invalid(
            format!("nodes[{v}]"),
            "not below the root",
        ));
    }
    for (v, node) in tree.nodes.iter().enumerate() {
        let at = &paths[v];
        let vectors = [
            ("demand", node.demand.as_ref()),
            ("usage", node.demand.as_ref().map(|_| &node.usage)),
            ("guarantee", node.guarantee.as_ref()),
            ("limit", node.limit.as_ref()),
            ("fair_share", node.fair_share.as_ref()),
        ];
        for (field, vector) in vectors {
            let Some(vector) = vector else { continue };
            if vector.len() != m || vector.iter().any(Rational::is_negative) {
                check_vector(&format!("{at}.{field}"), vector, m, Sign::NonNegative)?;
            }
        }
        if node.weight.is_negative() {
            return Err(SolverError::invalid(
                format!("{at}.weight"),
                format!("must not be negative, found {}", node.weight),
            ));
        }
    }
    Ok((parent, paths))
}

/// Every node's figures and the order in which `config.rule` offers the next task (see the
/// [module docs](self)).
///
/// # Errors
/// A malformed tree (vectors of the wrong length, negative amounts, a child index out of
/// range), leaves holding more than the capacity of a resource, a history naming a node
/// that is not a leaf, [`SiblingTieBreak::Lru`] without a history, [`Rule::Ytsaurus`] on a node without
/// a fair share.
///
/// # Complexity
/// See the [module docs](self).
pub fn order(tree: &OrderTree, config: &OrderConfig) -> Result<OrderOutcome> {
    let (parent, paths) = validate(tree)?;
    let walk = Walk::new(tree, parent, paths)?;
    let (count, last) = walk.history(config)?;
    let inactive = walk.inactivity();
    let mut figures = walk.figures(&count, last.as_deref(), &inactive);
    let sorted = walk.sort_children(config, &inactive, &mut figures)?;
    // The offer order: active leaves in pre-order of the sorted tree.
    let mut offer = Vec::new();
    let mut stack = vec![0usize];
    while let Some(v) = stack.pop() {
        if inactive[v].is_some() {
            continue;
        }
        if walk.is_leaf(v) {
            offer.push(v);
            figures[v].rank = Some(offer.len());
        }
        stack.extend(sorted[v].iter().rev());
    }
    Ok(OrderOutcome {
        rule: config.rule,
        ties: config.ties.clone(),
        nodes: figures,
        preorder: walk.preorder,
        offer,
    })
}

/// A validated tree with what every step of [`order`] reads: parents, paths, a pre-order
/// and the subtree-aggregated usages.
struct Walk<'t> {
    tree: &'t OrderTree,
    parent: Vec<Option<usize>>,
    paths: Vec<String>,
    /// Parents before children; reversed, a post-order to aggregate.
    preorder: Vec<usize>,
    /// `U_v`, subtree-aggregated.
    usage: Vec<Vec<Rational>>,
}

impl<'t> Walk<'t> {
    /// Pre-order and usages of a validated tree with its `parent`s and `paths`.
    ///
    /// # Errors
    /// Leaves holding more than the capacity of a resource.
    fn new(tree: &'t OrderTree, parent: Vec<Option<usize>>, paths: Vec<String>) -> Result<Self> {
        let m = tree.capacity.len();
        let n = tree.nodes.len();
        let cap = &tree.capacity;
        let mut preorder = Vec::with_capacity(n);
        let mut stack = vec![0usize];
        while let Some(v) = stack.pop() {
            preorder.push(v);
            stack.extend(tree.nodes[v].children.iter().rev());
        }
        let mut usage: Vec<Vec<Rational>> = (0..n)
            .map(|v| match tree.nodes[v].demand {
                Some(_) => tree.nodes[v].usage.clone(),
                None => vec![Rational::ZERO; m],
            })
            .collect();
        for &v in preorder.iter().rev() {
            if let Some(p) = parent[v] {
                let below = usage[v].clone();
                for (s, x) in usage[p].iter_mut().zip(&below) {
                    *s = &*s + x;
                }
            }
        }
        if let Some(j) = (0..m).find(|&j| usage[0][j] > cap[j]) {
            return Err(SolverError::invalid(
                "usage",
                format!(
                    "the leaves hold {} of {}, more than its capacity {}",
                    usage[0][j], tree.resources[j], cap[j]
                ),
            ));
        }
        Ok(Walk {
            tree,
            parent,
            paths,
            preorder,
            usage,
        })
    }

    fn is_leaf(&self, v: usize) -> bool {
        self.tree.nodes[v].demand.is_some()
    }

    /// Per node, the offers to leaves below it and the position of the last one, from the
    /// history; without one, the whole tasks its leaves hold and no positions.
    ///
    /// # Errors
    /// A history naming a node that is not a leaf; [`SiblingTieBreak::Lru`] without a history.
    fn history(&self, config: &OrderConfig) -> Result<(Vec<u64>, Option<Vec<u64>>)> {
        let (tree, parent) = (self.tree, &self.parent);
        let n = tree.nodes.len();
        match &config.served {
            Some(served) => {
                let mut count = vec![0u64; n];
                let mut last = vec![0u64; n];
                for (k, &l) in served.iter().enumerate() {
                    if l >= n || !self.is_leaf(l) {
                        return Err(SolverError::invalid(
                            format!("served[{k}]"),
                            "not a leaf of the tree",
                        ));
                    }
                    let mut at = Some(l);
                    while let Some(v) = at {
                        count[v] += 1;
                        last[v] = k as u64 + 1;
                        at = parent[v];
                    }
                }
                Ok((count, Some(last)))
            }
            None => {
                if config.ties.rules().contains(&SiblingTieBreak::Lru) {
                    return Err(SolverError::invalid(
                        "tie",
                        "lru needs the history of offers (served)",
                    ));
                }
                let mut count = vec![0u64; n];
                for &v in self.preorder.iter().rev() {
                    if let Some(d) = &tree.nodes[v].demand {
                        count[v] = held_tasks(d, &self.usage[v])
                            .floor_u64()
                            .unwrap_or(u64::MAX);
                    }
                    if let Some(p) = parent[v] {
                        count[p] = count[p].saturating_add(count[v]);
                    }
                }
                Ok((count, None))
            }
        }
    }

    /// Per node, why it is not offered a task (`None` when it is active).
    fn inactivity(&self) -> Vec<Option<String>> {
        let (tree, cap, usage) = (self.tree, &self.tree.capacity, &self.usage);
        let free: Vec<Rational> = (0..cap.len()).map(|j| &cap[j] - &usage[0][j]).collect();
        let mut inactive: Vec<Option<String>> = vec![None; tree.nodes.len()];
        for &v in self.preorder.iter().rev() {
            let node = &tree.nodes[v];
            inactive[v] = match &node.demand {
                Some(d) => leaf_inactivity(tree, &self.parent, &self.paths, usage, &free, v, d),
                None if node.children.iter().all(|&c| inactive[c].is_some()) => {
                    Some(if node.children.is_empty() {
                        "empty pool".to_string()
                    } else {
                        "no leaf below can start a task".to_string()
                    })
                }
                None => None,
            };
        }
        inactive
    }

    /// Every node's figures, without key and ranks.
    fn figures(
        &self,
        count: &[u64],
        last: Option<&[u64]>,
        inactive: &[Option<String>],
    ) -> Vec<NodeOrder> {
        let (tree, cap) = (self.tree, &self.tree.capacity);
        let m = cap.len();
        (0..tree.nodes.len())
            .map(|v| {
                let node = &tree.nodes[v];
                let u = &self.usage[v];
                let shares: Vec<Rational> = (0..m).map(|j| &u[j] / &cap[j]).collect();
                let dominant = shares.iter().max().cloned().unwrap_or(Rational::ZERO);
                let d = (0..m).find(|&j| shares[j] == dominant).unwrap_or_default();
                let weighted = if node.weight.is_zero() {
                    dominant.clone()
                } else {
                    &dominant / &node.weight
                };
                let zero = vec![Rational::ZERO; m];
                let g = node.guarantee.as_ref().unwrap_or(&zero);
                let deficit = (0..m)
                    .map(|j| (&g[j] - &u[j]).max(Rational::ZERO))
                    .collect();
                let needy = m > 0 && u[d] < g[d];
                NodeOrder {
                    path: self.paths[v].clone(),
                    leaf: self.is_leaf(v),
                    usage: u.clone(),
                    dominant_share: dominant,
                    weighted_share: weighted,
                    guarantee: node.guarantee.clone(),
                    deficit,
                    needy,
                    key: Vec::new(),
                    count: count[v],
                    last_served: last.map(|l| l[v]),
                    inactive: inactive[v].clone(),
                    sibling_rank: None,
                    rank: None,
                }
            })
            .collect()
    }

    /// Sets every node's key and sibling rank, bottom-up (Kueue's key needs the child's
    /// nominee), and returns each pool's active children in offer order.
    ///
    /// # Errors
    /// [`Rule::Ytsaurus`] on a node without a fair share.
    fn sort_children(
        &self,
        config: &OrderConfig,
        inactive: &[Option<String>],
        figures: &mut [NodeOrder],
    ) -> Result<Vec<Vec<usize>>> {
        let (tree, parent, usage) = (self.tree, &self.parent, &self.usage);
        let n = tree.nodes.len();
        let mut sorted: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut nominee: Vec<Option<usize>> = vec![None; n];
        for &v in self.preorder.iter().rev() {
            if self.is_leaf(v) {
                nominee[v] = inactive[v].is_none().then_some(v);
            }
            let key = match config.rule {
                Rule::Naive => vec![Extended::Finite(figures[v].weighted_share.clone())],
                Rule::Yarn => yarn_key(&usage[v], &tree.capacity, &tree.nodes[v], figures[v].needy),
                Rule::Kueue => kueue_key(tree, parent, &usage[v], v, nominee[v]),
                Rule::Ytsaurus => {
                    let f = tree.nodes[v].fair_share.as_ref().ok_or_else(|| {
                        SolverError::invalid(
                            format!("{}.fair_share", self.paths[v]),
                            "the ytsaurus rule needs every node's fair share",
                        )
                    })?;
                    vec![satisfaction(&usage[v], f)]
                }
            };
            figures[v].key = key;
            if self.is_leaf(v) {
                continue;
            }
            let node = &tree.nodes[v];
            // (child, position among its siblings)
            let mut active: Vec<(usize, usize)> = node
                .children
                .iter()
                .copied()
                .enumerate()
                .filter(|&(_, c)| inactive[c].is_none())
                .map(|(k, c)| (c, k))
                .collect();
            if node.mode == Mode::Fair {
                active.sort_by(|&a, &b| compare(figures, tree, config, a, b));
            }
            let active: Vec<usize> = active.into_iter().map(|(c, _)| c).collect();
            for (k, &c) in active.iter().enumerate() {
                figures[c].sibling_rank = Some(k + 1);
            }
            nominee[v] = active.first().and_then(|&c| nominee[c]);
            sorted[v] = active;
            if v != 0 && config.rule == Rule::Kueue {
                // The pool's key needs its nominee, known only now.
                figures[v].key = kueue_key(tree, parent, &usage[v], v, nominee[v]);
            }
        }
        // A pool's children were sorted with their keys final: a Kueue pool's key is set
        // after its own children are sorted, and before its parent sorts it (post-order).
        Ok(sorted)
    }
}

/// Tasks held: `min_{j: d_j > 0} u_j / d_j` (0 for an idle demand).
fn held_tasks(d: &[Rational], u: &[Rational]) -> Rational {
    d.iter()
        .zip(u)
        .filter(|(d, _)| d.is_positive())
        .map(|(d, u)| u / d)
        .min()
        .unwrap_or(Rational::ZERO)
}

/// Why leaf `v` cannot be offered a task now, if it cannot.
#[allow(clippy::too_many_arguments)]
fn leaf_inactivity(
    tree: &OrderTree,
    parent: &[Option<usize>],
    paths: &[String],
    usage: &[Vec<Rational>],
    free: &[Rational],
    v: usize,
    d: &[Rational],
) -> Option<String> {
    if d.iter().all(Rational::is_zero) {
        return Some("idle (all-zero demand)".into());
    }
    if let Some(t) = &tree.nodes[v].tasks {
        let held = held_tasks(d, &tree.nodes[v].usage);
        if &(&held + &Rational::ONE) > t {
            return Some(format!("holds {held} of its {t} tasks"));
        }
    }
    if let Some(j) = (0..d.len()).find(|&j| d[j] > free[j]) {
        return Some(format!(
            "its next task does not fit: needs {} {}, {} free",
            d[j], tree.resources[j], free[j]
        ));
    }
    let mut at = Some(v);
    while let Some(a) = at {
        if let Some(l) = &tree.nodes[a].limit
            && let Some(j) = (0..d.len()).find(|&j| &usage[a][j] + &d[j] > l[j])
        {
            return Some(format!(
                "its next task would exceed the limit of {} on {} ({} held, limit {})",
                paths[a], tree.resources[j], usage[a][j], l[j]
            ));
        }
        at = parent[a];
    }
    None
}

/// YARN's DRF comparator key: `[0, U_j / g_j ...]` when needy, `[1, U_j / R_j / w ...]`
/// otherwise, the resources in descending order of `U_j / R_j` (stable).
fn yarn_key(u: &[Rational], cap: &[Rational], node: &OrderNode, needy: bool) -> Vec<Extended> {
    let m = cap.len();
    let shares: Vec<Rational> = (0..m).map(|j| &u[j] / &cap[j]).collect();
    let mut by_usage: Vec<usize> = (0..m).collect();
    by_usage.sort_by(|&a, &b| shares[b].cmp(&shares[a]));
    let mut key = Vec::with_capacity(m + 1);
    if needy {
        key.push(Extended::Finite(Rational::ZERO));
        let g = node.guarantee.as_deref().unwrap_or_default();
        key.extend(by_usage.iter().map(|&j| ratio(&u[j], &g[j])));
    } else {
        key.push(Extended::Finite(Rational::ONE));
        key.extend(by_usage.iter().map(|&j| ratio(&shares[j], &node.weight)));
    }
    key
}

/// Kueue's weighted dominant resource share of what `v` borrows beyond its guarantee once
/// its nominee's next task is added; 0 for the root and for a node without a nominee's task.
fn kueue_key(
    tree: &OrderTree,
    parent: &[Option<usize>],
    u: &[Rational],
    v: usize,
    nominee: Option<usize>,
) -> Vec<Extended> {
    let m = tree.capacity.len();
    let Some(p) = parent[v] else {
        return vec![Extended::Finite(Rational::ZERO)];
    };
    // The parent's potential: the capacity, capped by the limits of the parent and above.
    let mut potential = tree.capacity.clone();
    let mut at = Some(p);
    while let Some(a) = at {
        if let Some(l) = &tree.nodes[a].limit {
            for j in 0..m {
                if l[j] < potential[j] {
                    potential[j] = l[j].clone();
                }
            }
        }
        at = parent[a];
    }
    let add = nominee
        .and_then(|l| tree.nodes[l].demand.clone())
        .unwrap_or_else(|| vec![Rational::ZERO; m]);
    let zero = vec![Rational::ZERO; m];
    let g = tree.nodes[v].guarantee.as_ref().unwrap_or(&zero);
    let drs = (0..m)
        .filter(|&j| potential[j].is_positive())
        .map(|j| (&(&u[j] + &add[j]) - &g[j]).max(Rational::ZERO) / &potential[j])
        .max()
        .unwrap_or(Rational::ZERO);
    let w = &tree.nodes[v].weight;
    vec![if drs.is_zero() {
        Extended::Finite(Rational::ZERO)
    } else {
        ratio(&drs, w)
    }]
}

/// YTsaurus' local satisfaction ratio of usage `u` over fair share `f`.
fn satisfaction(u: &[Rational], f: &[Rational]) -> Extended {
    if f.iter().all(Rational::is_zero) {
        return Extended::Infinite;
    }
    let over = u.iter().zip(f).any(|(u, f)| u > f);
    u.iter()
        .zip(f)
        .filter(|(_, f)| over || f.is_positive())
        .map(|(u, f)| ratio(u, f))
        .max()
        .unwrap_or(Extended::Finite(Rational::ZERO))
}

/// The rule's key, then the tie-breaks, then the tree order (`position`: among the
/// siblings).
fn compare(
    figures: &[NodeOrder],
    tree: &OrderTree,
    config: &OrderConfig,
    (a, pa): (usize, usize),
    (b, pb): (usize, usize),
) -> Ordering {
    let (x, y) = (&figures[a], &figures[b]);
    x.key.cmp(&y.key).then_with(|| {
        let candidate = |v: usize, position: usize| Candidate {
            position,
            count: figures[v].count,
            last_served: figures[v].last_served.unwrap_or(0),
            name: &tree.nodes[v].name,
        };
        config.ties.compare(&candidate(a, pa), &candidate(b, pb))
    })
}

#[cfg(test)]
mod tests;
