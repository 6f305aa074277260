//! Who is offered the next task: every node's exact share, guarantee deficit and rank under a
//! production scheduler's ordering rule, given what each leaf holds now.
//!
//! The static policies ([`crate::allocate`]) fill an empty cluster; a running scheduler asks
//! another question every round: *given the current usage, which node is offered resources
//! next?* (the DRF sorter of Apache Mesos, the comparator of the YARN Fair Scheduler, the
//! fair-sharing tournament of Kueue, YTsaurus' best-child search). This module answers it
//! exactly, on a [`Tree`] whose leaves carry their `usage`: per node its usage, resolved
//! guarantee, limit, weight, mode and children.
//!
//! # Figures of a node `v`
//! With `U_v` the sum of the usage vectors of the leaves below `v` (subtree-aggregated, as
//! Mesos' sorter and YARN's queues count it), `R` the capacity, `w_v` the weight and `g_v` the
//! resolved guarantee ([`NodeView::guarantee`], a resource vector):
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
//!   ([`OrderConfig::fair_share`]): `+∞` when `f = 0`; `max_j U_j / f_j` (`+∞` where `f_j = 0 <
//!   U_j`) when some `U_j > f_j`; otherwise `max_{j: f_j > 0} U_j / f_j`. (YTsaurus also
//!   skips resources whose fair share covers the demand; demands here are per task, so that
//!   refinement is not applied.) Default tie-break: `first`.
//!
//! # Example
//! Mesos' `DRFSorterTest.DRF`, first step: total (100, 100), `a` holds (5, 5), `b` (6, 6):
//! `a` is offered first.
//! ```
//! use leontief_hdrf::order::{order, OrderConfig, Rule};
//! use leontief_hdrf::Tree;
//! let tree = Tree::from_json_str(r#"{"capacity": [100, 100], "tree": {"children": [
//!     {"name": "a", "demand": [1, 1], "usage": [5, 5]},
//!     {"name": "b", "demand": [1, 1], "usage": [6, 6]}]}}"#).unwrap();
//! let out = order(&tree, &OrderConfig::new(Rule::Naive)).unwrap();
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

use std::fmt;

use leontief_solver::hierarchy::{Hierarchy, TreeNode};
use leontief_solver::json::{check_vector, Sign};
use leontief_solver::Rational;
use serde::Serialize;

use crate::error::{Result, SolverError};
use crate::policies::production::tasks_within;
use crate::tiebreak::{Candidate, SiblingTieBreak, TieBreaks};
use crate::{NodeView, Tree};

/// A rational or `+∞` (a guarantee or fair share of zero in a denominator).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Extended {
    /// A finite value.
    Finite(Rational),
    /// `+∞`, above every finite value.
    Infinite,
}

/// Written as its text, like a [`Rational`].
impl Serialize for Extended {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
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

/// Checks that some leaf of `tree` has a `usage` (idle leaves count: one may hold something
/// it no longer asks more of): [`order`] ranks the nodes by what their leaves hold now.
///
/// # Errors
/// A tree in which no leaf has a `usage`.
pub fn check_usage(tree: &Tree) -> Result<()> {
    let inst = tree.instance();
    let mut users = inst.users().iter().chain(inst.idle_users());
    if users.any(|u| u.usage.is_some()) {
        return Ok(());
    }
    Err(SolverError::invalid(
        "usage",
        "no leaf of the tree has a \"usage\"; order ranks the nodes by what their leaves hold now (give \"usage\": [..] on the leaves that hold something)",
    ))
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
    /// Every node's fair share (a resource vector, by node index), for [`Rule::Ytsaurus`].
    pub fair_share: Option<Vec<Vec<Rational>>>,
}

impl OrderConfig {
    /// The rule with its default tie-breaks ([`Rule::default_ties`]), no history and no
    /// fair shares.
    pub fn new(rule: Rule) -> OrderConfig {
        OrderConfig {
            rule,
            ties: rule.default_ties(),
            served: None,
            fair_share: None,
        }
    }

    leontief_solver::setters! {
        /// With these tie-breaks.
        ties(ties: TieBreaks) => ties = ties;
        /// With this history of offers (leaf indices, oldest first).
        served(served: Vec<usize>) => served = Some(served);
        /// With these fair shares (one resource vector per node, by node index).
        fair_share(shares: Vec<Vec<Rational>>) => fair_share = Some(shares);
    }
}

/// The figures and rank of one node (see the [module docs](self)); its JSON form has the
/// fields in this order, `leaf` written as `kind` (`"leaf"` or `"pool"`), the key entries as
/// strings, and `fair_share`, `last_served` and `inactive` only when present.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct NodeOrder {
    /// Names from the root, joined by `/`.
    pub path: String,
    /// Whether it is a leaf.
    #[serde(rename = "kind", serialize_with = "serialize_kind")]
    pub leaf: bool,
    /// `U_v`: what the subtree holds.
    pub usage: Vec<Rational>,
    /// The resolved guarantee ([`NodeView::guarantee`](crate::NodeView::guarantee)): as
    /// written, else the children's sum for a pool, zeros for a leaf.
    pub guarantee: Vec<Rational>,
    /// Its fair share ([`OrderConfig::fair_share`]), when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fair_share: Option<Vec<Rational>>,
    /// `max_j U_vj / R_j`.
    pub dominant_share: Rational,
    /// `dominant_share / w_v`.
    pub weighted_share: Rational,
    /// `(g_v - U_v)⁺`.
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
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_served: Option<u64>,
    /// Position among its active siblings, 1 first (`None` for the root and inactive nodes).
    pub sibling_rank: Option<usize>,
    /// Leaves: position in the offer order, 1 = offered next (`None` when inactive).
    pub rank: Option<usize>,
    /// Why it is not offered a task (`None` when it is active).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inactive: Option<String>,
}

/// A node's kind as [`NodeOrder`]'s JSON form writes it.
fn serialize_kind<S: serde::Serializer>(leaf: &bool, s: S) -> std::result::Result<S::Ok, S::Error> {
    s.serialize_str(if *leaf { "leaf" } else { "pool" })
}

/// The answer of [`order`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderOutcome {
    /// The rule applied.
    pub rule: Rule,
    /// The tie-breaks applied (the tree order decides last).
    pub ties: TieBreaks,
    /// Every node, in the tree's node order (pre-order: a parent before its children).
    pub nodes: Vec<NodeOrder>,
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

/// Every node's figures and the order in which `config.rule` offers the next task (see the
/// [module docs](self)).
///
/// # Errors
/// A tree in which no leaf has a `usage` ([`check_usage`]), fair shares that are not one per
/// node, of the wrong length or negative, a history naming a node that is not a leaf,
/// [`SiblingTieBreak::Lru`] without a history, [`Rule::Ytsaurus`] without fair shares.
///
/// # Complexity
/// See the [module docs](self).
pub fn order(tree: &Tree, config: &OrderConfig) -> Result<OrderOutcome> {
    check_usage(tree)?;
    let walk = Walk::new(tree, config)?;
    let mut figures = walk.figures(config);
    walk.history(config, &mut figures)?;
    walk.inactivity(&mut figures);
    let sorted = walk.sort_children(config, &mut figures)?;
    // The offer order: active leaves in pre-order of the sorted tree.
    let mut offer = Vec::new();
    let mut stack = vec![0usize];
    while let Some(v) = stack.pop() {
        if figures[v].inactive.is_some() {
            continue;
        }
        if walk.node(v).is_leaf() {
            offer.push(v);
            figures[v].rank = Some(offer.len());
        }
        stack.extend(sorted[v].iter().rev());
    }
    Ok(OrderOutcome {
        rule: config.rule,
        ties: config.ties.clone(),
        nodes: figures,
        offer,
    })
}

/// What every step of [`order`] reads: the tree, its resolved nodes (numbered in pre-order,
/// so that a reversed index range is a post-order) and their paths.
struct Walk<'t> {
    tree: &'t Tree,
    hierarchy: &'t Hierarchy,
    paths: Vec<String>,
}

impl<'t> Walk<'t> {
    /// The walk of `tree`, with the check of `config`'s fair shares (the tree's usages are
    /// checked against the capacity when it is read).
    ///
    /// # Errors
    /// Fair shares not one per node, of the wrong length or negative.
    fn new(tree: &'t Tree, config: &OrderConfig) -> Result<Self> {
        let m = tree.num_resources();
        let paths: Vec<String> = tree.nodes().map(|v| tree.path(v)).collect();
        if let Some(f) = &config.fair_share
            && f.len() != paths.len()
        {
            return Err(SolverError::invalid(
                "fair_share",
                format!(
                    "expected {} entries, one per node, found {}",
                    paths.len(),
                    f.len()
                ),
            ));
        }
        for (f, at) in config.fair_share.iter().flatten().zip(&paths) {
            check_vector(&format!("{at}.fair_share"), f, m, Sign::NonNegative)?;
        }
        Ok(Walk {
            tree,
            hierarchy: tree.hierarchy(),
            paths,
        })
    }

    /// Node `v`, resolved.
    fn node(&self, v: usize) -> &'t TreeNode {
        self.hierarchy.node(v)
    }

    /// Node `v`, as the tree reads it (the root's name and weight as written).
    fn view(&self, v: usize) -> NodeView<'t> {
        self.tree
            .node(self.tree.node_id(v).expect("a node of the tree"))
    }

    /// Sets every node's count, the offers to leaves below it, and the position of the last
    /// one, from the history; without one, the whole tasks its leaves hold.
    ///
    /// # Errors
    /// A history naming a node that is not a leaf; [`SiblingTieBreak::Lru`] without a history.
    fn history(&self, config: &OrderConfig, figures: &mut [NodeOrder]) -> Result<()> {
        let n = self.tree.len();
        match &config.served {
            Some(served) => {
                for (k, &l) in served.iter().enumerate() {
                    if l >= n || !self.node(l).is_leaf() {
                        return Err(SolverError::invalid(
                            format!("served[{k}]"),
                            "not a leaf of the tree",
                        ));
                    }
                    for v in self.hierarchy.ancestors(l) {
                        figures[v].count += 1;
                        figures[v].last_served = Some(k as u64 + 1);
                    }
                }
            }
            None => {
                if config.ties.rules().contains(&SiblingTieBreak::Lru) {
                    return Err(SolverError::invalid(
                        "tie",
                        "lru needs the history of offers (served)",
                    ));
                }
                for v in (0..n).rev() {
                    if let Some(d) = self.view(v).demand() {
                        figures[v].count = held_tasks(d, &self.node(v).usage)
                            .floor_u64()
                            .unwrap_or(u64::MAX);
                    }
                    if let Some(p) = self.node(v).parent {
                        figures[p].count = figures[p].count.saturating_add(figures[v].count);
                    }
                }
            }
        }
        Ok(())
    }

    /// Sets every node's reason not to be offered a task (`None` when it is active).
    fn inactivity(&self, figures: &mut [NodeOrder]) {
        let (cap, held) = (self.tree.capacity(), &self.node(0).usage);
        let free: Vec<Rational> = (0..cap.len()).map(|j| &cap[j] - &held[j]).collect();
        for v in (0..self.tree.len()).rev() {
            let children = &self.node(v).children;
            figures[v].inactive = match self.view(v).demand() {
                Some(d) => self.leaf_inactivity(&free, v, d),
                None if children.iter().all(|&c| figures[c].inactive.is_some()) => {
                    Some(if children.is_empty() {
                        "empty pool".to_string()
                    } else {
                        "no leaf below can start a task".to_string()
                    })
                }
                None => None,
            };
        }
    }

    /// Why leaf `v` (of demand `d`) cannot be offered a task now, if it cannot.
    fn leaf_inactivity(&self, free: &[Rational], v: usize, d: &[Rational]) -> Option<String> {
        let resources = self.tree.resources();
        if d.iter().all(Rational::is_zero) {
            return Some("idle (all-zero demand)".into());
        }
        if let Some(t) = self.view(v).cap() {
            let held = held_tasks(d, &self.node(v).usage);
            if &(&held + &Rational::ONE) > t {
                return Some(format!("holds {held} of its {t} tasks"));
            }
        }
        if let Some(j) = (0..d.len()).find(|&j| d[j] > free[j]) {
            return Some(format!(
                "its next task does not fit: needs {} {}, {} free",
                d[j], resources[j], free[j]
            ));
        }
        for a in self.hierarchy.ancestors(v) {
            let node = self.node(a);
            if let Some(l) = &node.limit
                && let Some(j) = (0..d.len()).find(|&j| &node.usage[j] + &d[j] > l[j])
            {
                return Some(format!(
                    "its next task would exceed the limit of {} on {} ({} held, limit {})",
                    self.paths[a], resources[j], node.usage[j], l[j]
                ));
            }
        }
        None
    }

    /// Every node's figures, without count, key, ranks and reason to be inactive.
    fn figures(&self, config: &OrderConfig) -> Vec<NodeOrder> {
        let cap = self.tree.capacity();
        let m = cap.len();
        (0..self.tree.len())
            .map(|v| {
                let node = self.node(v);
                let (u, g) = (&node.usage, &node.guarantee);
                let shares: Vec<Rational> = (0..m).map(|j| &u[j] / &cap[j]).collect();
                let dominant = shares.iter().max().cloned().unwrap_or(Rational::ZERO);
                let d = (0..m).find(|&j| shares[j] == dominant).unwrap_or_default();
                // A tree's weights are positive.
                let weighted = &dominant / self.view(v).weight();
                let deficit = (0..m)
                    .map(|j| (&g[j] - &u[j]).max(Rational::ZERO))
                    .collect();
                let needy = m > 0 && u[d] < g[d];
                NodeOrder {
                    path: self.paths[v].clone(),
                    leaf: node.is_leaf(),
                    usage: u.clone(),
                    dominant_share: dominant,
                    weighted_share: weighted,
                    guarantee: g.clone(),
                    fair_share: config.fair_share.as_ref().map(|f| f[v].clone()),
                    deficit,
                    needy,
                    key: Vec::new(),
                    count: 0,
                    last_served: config.served.as_ref().map(|_| 0),
                    inactive: None,
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
        figures: &mut [NodeOrder],
    ) -> Result<Vec<Vec<usize>>> {
        let n = self.tree.len();
        let mut sorted: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut nominee: Vec<Option<usize>> = vec![None; n];
        for v in (0..n).rev() {
            let node = self.node(v);
            if node.is_leaf() {
                nominee[v] = figures[v].inactive.is_none().then_some(v);
            }
            let key = match config.rule {
                Rule::Naive => vec![Extended::Finite(figures[v].weighted_share.clone())],
                Rule::Yarn => self.yarn_key(v, figures[v].needy),
                Rule::Kueue => self.kueue_key(v, nominee[v]),
                Rule::Ytsaurus => {
                    let shares = config.fair_share.as_ref();
                    let f = shares.and_then(|f| f.get(v)).ok_or_else(|| {
                        SolverError::invalid(
                            format!("{}.fair_share", self.paths[v]),
                            "the ytsaurus rule needs every node's fair share",
                        )
                    })?;
                    vec![satisfaction(&node.usage, f)]
                }
            };
            figures[v].key = key;
            if node.is_leaf() {
                continue;
            }
            // (child, position among its siblings)
            let mut active: Vec<(usize, usize)> = node
                .children
                .iter()
                .copied()
                .enumerate()
                .filter(|&(_, c)| figures[c].inactive.is_none())
                .map(|(k, c)| (c, k))
                .collect();
            if node.mode == Mode::Fair {
                // The rule's key, then the tie-breaks, then the tree order.
                let candidate = |v: usize, position: usize| Candidate {
                    position,
                    count: figures[v].count,
                    last_served: figures[v].last_served.unwrap_or(0),
                    name: self.view(v).name(),
                };
                active.sort_by(|&(a, pa), &(b, pb)| {
                    let by_key = figures[a].key.cmp(&figures[b].key);
                    by_key.then_with(|| config.ties.compare(&candidate(a, pa), &candidate(b, pb)))
                });
            }
            let active: Vec<usize> = active.into_iter().map(|(c, _)| c).collect();
            for (k, &c) in active.iter().enumerate() {
                figures[c].sibling_rank = Some(k + 1);
            }
            nominee[v] = active.first().and_then(|&c| nominee[c]);
            sorted[v] = active;
            if v != 0 && config.rule == Rule::Kueue {
                // The pool's key needs its nominee, known only now.
                figures[v].key = self.kueue_key(v, nominee[v]);
            }
        }
        // A pool's children were sorted with their keys final: a Kueue pool's key is set
        // after its own children are sorted, and before its parent sorts it (post-order).
        Ok(sorted)
    }

    /// YARN's DRF comparator key: `[0, U_j / g_j ...]` when needy, `[1, U_j / R_j / w ...]`
    /// otherwise, the resources in descending order of `U_j / R_j` (stable).
    fn yarn_key(&self, v: usize, needy: bool) -> Vec<Extended> {
        let (cap, node) = (self.tree.capacity(), self.node(v));
        let (u, m) = (&node.usage, cap.len());
        let shares: Vec<Rational> = (0..m).map(|j| &u[j] / &cap[j]).collect();
        let mut by_usage: Vec<usize> = (0..m).collect();
        by_usage.sort_by(|&a, &b| shares[b].cmp(&shares[a]));
        let mut key = Vec::with_capacity(m + 1);
        if needy {
            key.push(Extended::Finite(Rational::ZERO));
            let g = &node.guarantee;
            key.extend(by_usage.iter().map(|&j| ratio(&u[j], &g[j])));
        } else {
            key.push(Extended::Finite(Rational::ONE));
            let w = self.view(v).weight();
            key.extend(by_usage.iter().map(|&j| ratio(&shares[j], w)));
        }
        key
    }

    /// Kueue's key of `v` ([`kueue_share`]) once its nominee's next task is added, over its
    /// parent's potential; 0 for the root.
    fn kueue_key(&self, v: usize, nominee: Option<usize>) -> Vec<Extended> {
        let m = self.tree.num_resources();
        let Some(p) = self.node(v).parent else {
            return vec![Extended::Finite(Rational::ZERO)];
        };
        // The parent's potential: the capacity, capped by the limits of the parent and above.
        let mut potential = self.tree.capacity().to_vec();
        for a in self.hierarchy.ancestors(p) {
            if let Some(l) = &self.node(a).limit {
                for j in 0..m {
                    if l[j] < potential[j] {
                        potential[j] = l[j].clone();
                    }
                }
            }
        }
        let zero = vec![Rational::ZERO; m];
        let add = nominee.and_then(|l| self.view(l).demand()).unwrap_or(&zero);
        let node = self.node(v);
        vec![kueue_share(
            &node.usage,
            add,
            &node.guarantee,
            &potential,
            self.view(v).weight(),
        )]
    }
}

/// Tasks held: `min_{j: d_j > 0} u_j / d_j` (0 for an idle demand).
fn held_tasks(d: &[Rational], u: &[Rational]) -> Rational {
    tasks_within(d, u).unwrap_or(Rational::ZERO)
}

/// Kueue's weighted dominant resource share of what a node of usage `u`, guarantee `g` and
/// weight `w` borrows once `add` is added: `max_j (u_j + add_j - g_j)⁺ / P_j` over the
/// resources of positive potential `P_j`, divided by `w` (`+∞` for a weight of 0 that
/// borrows); 0 when nothing is borrowed.
fn kueue_share(
    u: &[Rational],
    add: &[Rational],
    g: &[Rational],
    potential: &[Rational],
    w: &Rational,
) -> Extended {
    let drs = (0..potential.len())
        .filter(|&j| potential[j].is_positive())
        .map(|j| (&(&u[j] + &add[j]) - &g[j]).max(Rational::ZERO) / &potential[j])
        .max()
        .unwrap_or(Rational::ZERO);
    if drs.is_zero() {
        Extended::Finite(Rational::ZERO)
    } else {
        ratio(&drs, w)
    }
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

#[cfg(test)]
mod tests;
