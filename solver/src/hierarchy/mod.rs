//! The hierarchy of an instance: its tree view, and the tree form of its JSON
//! (`docs/theory.md` §4).
//!
//! An [`Instance`] may group its users into **pools** ([`Pool`](crate::Pool): a name, a
//! weight among its siblings, a parent pool or the root). The users and pools form a tree
//! whose root is the cluster; a user without a pool sits directly under the root, so an
//! instance without pools is the one-level tree of weighted DRF. [`Hierarchy`] is the view
//! of that tree the mechanisms and oracles walk: children, paths and guaranteed shares
//! `g_root = 1`, `g_v = g_parent · w_v / Σ_{siblings s of v, v included} w_s`, computed once
//! ([`Instance::hierarchy`] caches it). [`Tree`] is an instance seen through that view, its
//! nodes addressed by path and by [`NodeId`]: what the hierarchical policies take.
//!
//! The tree form of the JSON input (`{"capacity": .., "tree": {"name": "root", "children":
//! [..]}}`, see [`read_tree_form`]) is read here into the same instance: one user per leaf
//! (in pre-order), one pool per inner node below the root. Names need only be unique among
//! siblings (nodes are addressed by path); empty pools and idle leaves (all-zero demand) are
//! part of the tree and come after their siblings that hold a leaf demanding something
//! (empty pools first, in the order listed, then idle leaves).
//!
//! Each node also carries its production fields resolved exactly (`docs/production.md`):
//! its guarantee vector ([`TreeNode::guarantee`]), limit, mode and usage (a pool's: its leaves'
//! sum).
//!
//! # Example
//! The lecture's tree: A against the pool B = {B1, B2}: guaranteed shares 1/2, 1/2, 1/4, 1/4.
//! ```
//! use leontief_solver::{Instance, Pool, User};
//! let inst = Instance::builder(vec![1.into(), 1.into()])
//!     .pools(vec![Pool::new("B")])
//!     .users(vec![User::new("A", [1, 0]), User::new("B1", [1, 0]).pool(0), User::new("B2", [0, 1]).pool(0)])
//!     .build()
//!     .unwrap();
//! let h = inst.hierarchy();
//! let g: Vec<String> = (0..3).map(|i| h.node(h.leaf(i)).guaranteed.to_string()).collect();
//! assert_eq!(g, ["1/2", "1/4", "1/4"]);
//! assert_eq!(h.path(h.node(h.leaf(2)).parent.unwrap()), "B");
//! assert_eq!(h.path(h.leaf(2)), "B/B2");
//! ```
//!
//! # References
//! - A. Bhattacharya, D. Culler, E. Friedman, A. Ghodsi, S. Shenker, I. Stoica.
//!   *Hierarchical Scheduling for Diverse Datacenter Workloads.* SoCC 2013.

use crate::{
    Guarantee, Instance, LimitBelowGuarantee, Mode, Oversubscribed, Rational, SolverError,
};

pub use tree::{NodeId, NodeView, Tree};
pub use tree_form::{read_tree_form, NodeSpec, MAX_DEPTH, TREE_FIELDS};

pub(crate) use layout::lay_out;

mod layout;
mod tree;
mod tree_form;

/// A node of the tree: the root, a pool, or a user's leaf.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct TreeNode {
    /// Its own name (`root` for the root).
    pub name: String,
    /// Its weight among its siblings (1 for the root).
    pub weight: Rational,
    /// Its parent (`None` for the root).
    pub parent: Option<usize>,
    /// Its children, ordered by the first user (lowest user index) below each.
    pub children: Vec<usize>,
    /// The user whose leaf it is.
    pub user: Option<usize>,
    /// The pool it is (index into [`Instance::pools`]).
    pub pool: Option<usize>,
    /// The idle leaf it is (index into [`Instance::idle_users`]).
    pub idle: Option<usize>,
    /// Its guaranteed share `g_v = g_parent · w_v / Σ_siblings w` (from the weights).
    pub guaranteed: Rational,
    /// Its depth (the root has 0).
    pub depth: usize,
    /// Its explicit guarantee, resolved to absolute amounts (`docs/production.md`): the
    /// capacity for the root; the vector written, or the fraction written of the parent's;
    /// for a pool without one, the sum of its children's; zeros for a leaf without one.
    /// Scaled or lowered when the instance's [`crate::Rules`] say so.
    pub guarantee: Vec<Rational>,
    /// Whether `guarantee` was written on the node (or is the root's capacity) rather than
    /// implied (zeros, or the sum of the children's).
    pub guarantee_written: bool,
    /// Its limit on what the subtree holds (raised to the guarantee when the rules say so).
    pub limit: Option<Vec<Rational>>,
    /// How it serves its children (`Fair` for leaves and the root).
    pub mode: Mode,
    /// What it holds now: a leaf's usage (zeros when not given), a pool's the sum of its
    /// children's.
    pub usage: Vec<Rational>,
}

impl TreeNode {
    /// Whether it is a leaf (a user's or an idle one).
    pub fn is_leaf(&self) -> bool {
        self.user.is_some() || self.idle.is_some()
    }
}

/// Where each active user and each idle leaf was in the list given, for messages (`i` when
/// not listed): an error names a user `users[given]`, a pool `pools[k]`, the root `users`.
pub(crate) type Given<'a> = (&'a [usize], &'a [usize]);

/// The tree of an instance's pools and users; node 0 is the root, nodes are numbered in
/// pre-order and the children of a node are ordered by the lowest user index below each.
///
/// Why that order: it depends on the users' order only (not on the order pools are
/// listed in), and for an instance whose users are listed in the pre-order of a tree — the
/// tree form, [`read_tree_form`] — it is that tree's order, so a tree read into an instance
/// and viewed again is the same tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hierarchy {
    nodes: Vec<TreeNode>,
    leaf_of_user: Vec<usize>,
    node_of_pool: Vec<usize>,
}

impl Hierarchy {
    /// The tree of `instance`'s pools and users, built anew (see [`Instance::hierarchy`] for
    /// the cached one, built by this).
    ///
    /// # Complexity
    /// `O((n + p) · depth + (n + p) log(n + p))` rational operations for `n` users and `p`
    /// pools.
    pub fn of(instance: &Instance) -> Hierarchy {
        Self::resolve(instance, (&[], &[]))
            .expect("a validated instance's guarantees and limits resolve")
    }

    /// The tree and its resolved guarantees and limits, errors naming users as `given` says.
    pub(crate) fn resolve(instance: &Instance, given: Given) -> Result<Hierarchy, SolverError> {
        let pools = instance.pools();
        let users = instance.users();
        let idle = instance.idle_users();
        let m = instance.num_resources();
        let zeros = vec![Rational::ZERO; m];
        // The lowest user index below each pool: its place among its siblings. Empty pools
        // and idle leaves come after the siblings that hold users (key `usize::MAX`).
        let mut first = vec![usize::MAX; pools.len()];
        for (i, u) in users.iter().enumerate() {
            let mut at = u.pool;
            while let Some(p) = at {
                if first[p] <= i {
                    break;
                }
                first[p] = i;
                at = pools[p].parent;
            }
        }
        // Children of the root (slot 0) and of each pool (slot p + 1), as (first user, item).
        #[derive(Clone, Copy)]
        enum Item {
            Pool(usize),
            User(usize),
            Idle(usize),
        }
        let mut slots: Vec<Vec<(usize, Item)>> = vec![Vec::new(); pools.len() + 1];
        for (p, pool) in pools.iter().enumerate() {
            slots[pool.parent.map_or(0, |q| q + 1)].push((first[p], Item::Pool(p)));
        }
        for (i, u) in users.iter().enumerate() {
            slots[u.pool.map_or(0, |q| q + 1)].push((i, Item::User(i)));
        }
        for (k, u) in idle.iter().enumerate() {
            slots[u.pool.map_or(0, |q| q + 1)].push((usize::MAX, Item::Idle(k)));
        }
        for s in &mut slots {
            s.sort_by_key(|(f, _)| *f);
        }
        let blank =
            |name: String, weight: Rational, parent: Option<usize>, depth: usize| TreeNode {
                name,
                weight,
                parent,
                depth,
                guarantee: zeros.clone(),
                usage: zeros.clone(),
                ..TreeNode::default()
            };
        let mut root = blank("root".into(), Rational::ONE, None, 0);
        root.guaranteed = Rational::ONE;
        root.guarantee = instance.capacity().to_vec();
        root.guarantee_written = true;
        let mut h = Hierarchy {
            nodes: vec![root],
            leaf_of_user: vec![0; users.len()],
            node_of_pool: vec![0; pools.len()],
        };
        // What each node wrote (by node index): its guarantee, as written.
        let mut written: Vec<Option<&Guarantee>> = vec![None];
        // Pre-order with an explicit stack (no recursion on deep inputs).
        let mut stack: Vec<(usize, usize)> = vec![(0, 0)]; // (node, next child in its slot)
        let slot_of = |h: &Hierarchy, v: usize| h.nodes[v].pool.map_or(0, |p| p + 1);
        while let Some(&(v, k)) = stack.last() {
            let slot = &slots[slot_of(&h, v)];
            if k == slot.len() {
                stack.pop();
                continue;
            }
            stack.last_mut().expect("non-empty").1 += 1;
            let id = h.nodes.len();
            let depth = h.nodes[v].depth + 1;
            let node = match slot[k].1 {
                Item::Pool(p) => {
                    h.node_of_pool[p] = id;
                    let q = &pools[p];
                    let mut n = blank(q.name.clone(), q.weight.clone(), Some(v), depth);
                    n.pool = Some(p);
                    n.limit.clone_from(&q.limit);
                    n.mode = q.mode;
                    written.push(q.guarantee.as_ref());
                    n
                }
                Item::User(i) | Item::Idle(i) => {
                    let is_user = matches!(slot[k].1, Item::User(_));
                    let u = if is_user { &users[i] } else { &idle[i] };
                    let mut n = blank(u.name.clone(), u.weight.clone(), Some(v), depth);
                    if is_user {
                        h.leaf_of_user[i] = id;
                        n.user = Some(i);
                    } else {
                        n.idle = Some(i);
                    }
                    n.limit.clone_from(&u.limit);
                    n.usage = u.usage.clone().unwrap_or_else(|| zeros.clone());
                    written.push(u.guarantee.as_ref());
                    n
                }
            };
            let is_pool = node.pool.is_some();
            h.nodes.push(node);
            h.nodes[v].children.push(id);
            if is_pool {
                stack.push((id, 0));
            }
        }
        // Guaranteed shares top-down (pre-order: a parent precedes its children).
        for v in 0..h.nodes.len() {
            if h.nodes[v].children.is_empty() {
                continue;
            }
            let total: Rational = h.nodes[v]
                .children
                .iter()
                .map(|&c| &h.nodes[c].weight)
                .sum();
            let g = h.nodes[v].guaranteed.clone();
            for c in h.nodes[v].children.clone() {
                h.nodes[c].guaranteed = &(&g * &h.nodes[c].weight) / &total;
            }
        }
        h.resolve_production(instance, &written, given)?;
        Ok(h)
    }

    /// How node `v` is named in messages.
    fn field_of(&self, v: usize, (users, idle): Given) -> String {
        let n = &self.nodes[v];
        let at = |given: &[usize], i: usize| format!("users[{}]", given.get(i).unwrap_or(&i));
        match (n.pool, n.user, n.idle) {
            (Some(p), _, _) => format!("pools[{p}]"),
            (_, Some(i), _) => at(users, i),
            (_, _, Some(k)) => at(idle, k),
            _ => "users".to_string(),
        }
    }

    /// Resolves the explicit guarantees, limits and usages (`docs/production.md`).
    fn resolve_production(
        &mut self,
        instance: &Instance,
        written: &[Option<&Guarantee>],
        given: Given,
    ) -> Result<(), SolverError> {
        let rules = instance.rules();
        let resources = instance.resources();
        let n = self.nodes.len();
        // Bottom-up: what each node guarantees by itself, without its parent: the vector
        // written, zeros for a leaf without one, the children's sum for a pool without one.
        for v in (1..n).rev() {
            match written[v] {
                Some(Guarantee::Vector(x)) => {
                    self.nodes[v].guarantee.clone_from(x);
                    self.nodes[v].guarantee_written = true;
                }
                Some(Guarantee::Fraction(_)) => self.nodes[v].guarantee_written = true,
                None => {
                    let children = &self.nodes[v].children;
                    let fraction =
                        |&&c: &&usize| matches!(written[c], Some(Guarantee::Fraction(_)));
                    if let Some(&c) = children.iter().find(fraction) {
                        return Err(SolverError::invalid(
                            format!("{}.guarantee", self.field_of(c, given)),
                            format!(
                                "a fraction of the parent's guarantee, but {:?} has none",
                                self.path(v)
                            ),
                        ));
                    }
                    self.nodes[v].guarantee = self.plus_children(v, |n| &n.guarantee);
                }
            }
        }
        // Usage adds up the tree (a leaf's is its own, left as it is).
        for v in (0..n).rev() {
            if !self.nodes[v].children.is_empty() {
                self.nodes[v].usage = self.plus_children(v, |n| &n.usage);
            }
        }
        // Top-down: fractions of the parent's, the limit rule, then the children's sum
        // against the parent's.
        for v in 0..n {
            let children = self.nodes[v].children.clone();
            if children.is_empty() {
                continue;
            }
            let g = self.nodes[v].guarantee.clone();
            for &c in &children {
                if let Some(Guarantee::Fraction(f)) = written[c] {
                    self.nodes[c].guarantee = g.iter().map(|x| f * x).collect();
                }
                self.apply_limit_rule(c, rules.limit_below_guarantee, resources, given)?;
            }
            // Scaled by one common factor, the largest that fits on every resource.
            let mut factor = Rational::ONE;
            for (j, cap) in g.iter().enumerate() {
                let sum: Rational = children.iter().map(|&c| &self.nodes[c].guarantee[j]).sum();
                if sum <= *cap {
                    continue;
                }
                match rules.oversubscribed {
                    Oversubscribed::Error => {
                        let whose = if v == 0 {
                            "the capacity".to_string()
                        } else {
                            format!("the guarantee of {:?}", self.path(v))
                        };
                        return Err(SolverError::invalid(
                            format!("{}.children", self.field_of(v, given)),
                            format!(
                                "the children's guarantees add up to {sum} of {}, above {whose}, {cap}",
                                resources[j]
                            ),
                        ));
                    }
                    Oversubscribed::Scale => factor = factor.min(cap / &sum),
                }
            }
            if factor < Rational::ONE {
                for &c in &children {
                    for x in &mut self.nodes[c].guarantee {
                        *x = &*x * &factor;
                    }
                }
            }
        }
        Ok(())
    }

    /// Node `v`'s `part` (its guarantee or its usage) plus its children's.
    fn plus_children(&self, v: usize, part: fn(&TreeNode) -> &Vec<Rational>) -> Vec<Rational> {
        let mut sum = part(&self.nodes[v]).clone();
        for &c in &self.nodes[v].children {
            for (s, x) in sum.iter_mut().zip(part(&self.nodes[c])) {
                *s = &*s + x;
            }
        }
        sum
    }

    /// Checks node `c`'s limit against its guarantee, or applies the rule.
    fn apply_limit_rule(
        &mut self,
        c: usize,
        rule: LimitBelowGuarantee,
        resources: &[String],
        given: Given,
    ) -> Result<(), SolverError> {
        let Some(mut limit) = self.nodes[c].limit.clone() else {
            return Ok(());
        };
        for j in 0..limit.len() {
            if limit[j] >= self.nodes[c].guarantee[j] {
                continue;
            }
            match rule {
                LimitBelowGuarantee::Error => {
                    return Err(SolverError::invalid(
                        format!("{}.limit[{j}]", self.field_of(c, given)),
                        format!(
                            "{} of {} is below the guarantee, {}",
                            limit[j], resources[j], self.nodes[c].guarantee[j]
                        ),
                    ))
                }
                LimitBelowGuarantee::RaiseLimit => {
                    limit[j] = self.nodes[c].guarantee[j].clone();
                }
                LimitBelowGuarantee::LowerGuarantee => {
                    self.nodes[c].guarantee[j] = limit[j].clone();
                }
            }
        }
        self.nodes[c].limit = Some(limit);
        Ok(())
    }

    /// Node `v`.
    pub fn node(&self, v: usize) -> &TreeNode {
        &self.nodes[v]
    }

    /// The number of nodes (root, pools and leaves).
    #[allow(clippy::len_without_is_empty)] // a tree always has a root
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// User `i`'s leaf.
    pub fn leaf(&self, i: usize) -> usize {
        self.leaf_of_user[i]
    }

    /// Pool `p`'s node.
    pub fn pool_node(&self, p: usize) -> usize {
        self.node_of_pool[p]
    }

    /// The users in the order of their leaves (pre-order).
    pub fn users_in_order(&self) -> Vec<usize> {
        self.nodes.iter().filter_map(|n| n.user).collect()
    }

    /// Whether every user sits directly under the root (no pools).
    pub fn is_flat(&self) -> bool {
        self.node_of_pool.is_empty()
    }

    /// The nodes of the subtree of `v`, `v` first, in pre-order.
    pub fn subtree(&self, v: usize) -> impl Iterator<Item = usize> + '_ {
        let mut stack = vec![v];
        std::iter::from_fn(move || {
            let x = stack.pop()?;
            stack.extend(self.nodes[x].children.iter().rev());
            Some(x)
        })
    }

    /// The users in the subtree of `v`, in increasing index.
    pub fn users_below(&self, v: usize) -> Vec<usize> {
        let subtree = self.subtree(v);
        let mut out: Vec<usize> = subtree.filter_map(|x| self.nodes[x].user).collect();
        out.sort_unstable();
        out
    }

    /// `v` and every node above it, up to the root.
    pub fn ancestors(&self, v: usize) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(Some(v), |&x| self.nodes[x].parent)
    }

    /// `P/Q/x`: the names from below the root down to `v` (the root is the empty path).
    pub fn path(&self, v: usize) -> String {
        let mut parts: Vec<&str> = (self.ancestors(v).filter(|&x| x != 0))
            .map(|x| self.nodes[x].name.as_str())
            .collect();
        parts.reverse();
        parts.join("/")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Pool, User};

    fn inst(pools: Vec<Pool>, users: Vec<User>) -> Instance {
        Instance::builder(vec![1.into()])
            .pools(pools)
            .users(users)
            .build()
            .unwrap()
    }

    #[test]
    fn weighted_pools() {
        // P (weight 3) = {x, y} against z: g_P = 3/4, g_x = g_y = 3/8, g_z = 1/4.
        let i = inst(
            vec![Pool::new("P").weight(3)],
            vec![
                User::new("x", [1]).pool(0),
                User::new("z", [1]),
                User::new("y", [1]).pool(0),
            ],
        );
        let h = i.hierarchy();
        let g = |u| h.node(h.leaf(u)).guaranteed.to_string();
        assert_eq!([g(0), g(1), g(2)], ["3/8", "1/4", "3/8"]);
        assert!(!h.is_flat());
        assert_eq!(h.users_below(h.node(h.leaf(0)).parent.unwrap()), [0, 2]);
        // Pre-order: root, P, x, y, z (P's first user, x, comes before z).
        assert_eq!(h.users_in_order(), [0, 2, 1]);
        assert_eq!(h.path(h.leaf(2)), "P/y");
        let flat = inst(vec![], vec![User::new("a", [1]), User::new("b", [1])]);
        assert!(flat.hierarchy().is_flat());
    }

    #[test]
    fn children_follow_the_users_not_the_pool_list() {
        // Q is listed first but holds the later user: the root's children are x's P, then Q.
        let i = inst(
            vec![Pool::new("Q"), Pool::new("P")],
            vec![User::new("x", [1]).pool(1), User::new("y", [1]).pool(0)],
        );
        let h = i.hierarchy();
        let names: Vec<&str> = h
            .node(0)
            .children
            .iter()
            .map(|&c| h.node(c).name.as_str())
            .collect();
        assert_eq!(names, ["P", "Q"]);
        assert_eq!(h.node(h.pool_node(0)).name, "Q");
    }
}
