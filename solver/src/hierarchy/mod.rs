//! The hierarchy of an instance: its tree view, and the tree form of its JSON
//! (`docs/theory.md` §4).
//!
//! An [`Instance`] may group its users into **pools** ([`Pool`](crate::Pool): a name, a
//! weight among its siblings, a parent pool or the root). The users and pools form a tree
//! whose root is the cluster; a user without a pool sits directly under the root, so an
//! instance without pools is the one-level tree of weighted DRF. [`Hierarchy`] is the view
//! of that tree the mechanisms and oracles walk: children, paths and guaranteed shares
//! `g_root = 1`, `g_v = g_parent · w_v / Σ_{siblings s of v, v included} w_s`, computed once
//! ([`Instance::hierarchy`] caches it).
//!
//! The tree form of the JSON input (`{"capacity": .., "tree": {"name": "root", "children":
//! [..]}}`, see [`read_tree_form`]) is read here into the same instance: one user per leaf
//! (in pre-order), one pool per inner node below the root. Names need only be unique among
//! siblings (nodes are addressed by path); empty pools and idle leaves (all-zero demand) are
//! part of the tree and come after their siblings that hold a leaf demanding something
//! (empty pools first, in the order listed, then idle leaves).
//!
//! Each node also carries its production fields resolved exactly (`docs/production.md`):
//! its guarantee vector ([`Node::guarantee`]), limit, mode and usage (a pool's: its leaves'
//! sum).
//!
//! # Example
//! The lecture's tree: A against the pool B = {B1, B2}: guaranteed shares 1/2, 1/2, 1/4, 1/4.
//! ```
//! use leontief_solver::{Instance, Pool, User};
//! let inst = Instance::with_pools(vec!["r1".into(), "r2".into()], vec![1.into(), 1.into()],
//!     vec![Pool::new("B")],
//!     vec![User::new("A", [1, 0]), User::new("B1", [1, 0]).pool(0), User::new("B2", [0, 1]).pool(0)])
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

use std::collections::HashMap;

use serde_json::Value;

use crate::json::{
    kind, read_number, read_numbers, read_object, read_optional, read_resources, read_string,
    reject_unknown,
};
use crate::model::Production;
use crate::{
    Guarantee, Instance, LimitBelowGuarantee, Mode, Oversubscribed, Pool, Rational, SolverError,
    User,
};

/// A node of the tree: the root, a pool, or a user's leaf.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Node {
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

impl Node {
    /// Whether it is a leaf (a user's or an idle one).
    pub fn is_leaf(&self) -> bool {
        self.user.is_some() || self.idle.is_some()
    }
}

/// A field of an instance, for messages: how its reader names it.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Field {
    /// The root (its children).
    Root,
    /// Pool `k`.
    Pool(usize),
    /// User `i`.
    User(usize),
    /// Idle leaf `k`.
    Idle(usize),
}

/// The tree of an instance's pools and users; node 0 is the root, nodes are numbered in
/// pre-order and the children of a node are ordered by the lowest user index below each.
///
/// Why that order: it depends on the users' order only (not on the order pools are
/// listed in), and for an instance whose users are listed in the pre-order of a tree — the
/// tree form, [`read_tree_form`] — it is that tree's order, so a tree read into an instance
/// and viewed again is the same tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hierarchy {
    nodes: Vec<Node>,
    leaf_of_user: Vec<usize>,
    node_of_pool: Vec<usize>,
}

impl Hierarchy {
    /// The tree of `instance`'s pools and users (see [`Instance::hierarchy`] for the cached
    /// one).
    ///
    /// # Complexity
    /// `O((n + p) · depth + (n + p) log(n + p))` rational operations for `n` users and `p`
    /// pools.
    pub fn of(instance: &Instance) -> Hierarchy {
        if let Some(h) = instance.cached_view() {
            return h.clone();
        }
        Self::resolve(instance, &|_| String::new())
            .expect("a validated instance's guarantees and limits resolve")
    }

    /// The tree and its resolved guarantees and limits, errors naming fields by `field`.
    pub(crate) fn resolve(
        instance: &Instance,
        field: &dyn Fn(Field) -> String,
    ) -> Result<Hierarchy, SolverError> {
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
        let blank = |name: String, weight: Rational, parent: Option<usize>, depth: usize| Node {
            name,
            weight,
            parent,
            children: Vec::new(),
            user: None,
            pool: None,
            idle: None,
            guaranteed: Rational::ZERO,
            depth,
            guarantee: zeros.clone(),
            guarantee_written: false,
            limit: None,
            mode: Mode::Fair,
            usage: zeros.clone(),
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
                Item::User(i) => {
                    h.leaf_of_user[i] = id;
                    let u = &users[i];
                    let mut n = blank(u.name.clone(), u.weight.clone(), Some(v), depth);
                    n.user = Some(i);
                    n.limit.clone_from(&u.limit);
                    n.usage = u.usage.clone().unwrap_or_else(|| zeros.clone());
                    written.push(u.guarantee.as_ref());
                    n
                }
                Item::Idle(k) => {
                    let u = &idle[k];
                    let mut n = blank(u.name.clone(), u.weight.clone(), Some(v), depth);
                    n.idle = Some(k);
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
        h.resolve_production(instance, &written, field)?;
        Ok(h)
    }

    /// How node `v` is named in messages.
    fn field_of(&self, v: usize, field: &dyn Fn(Field) -> String) -> String {
        let n = &self.nodes[v];
        match (n.pool, n.user, n.idle) {
            (Some(p), _, _) => field(Field::Pool(p)),
            (_, Some(i), _) => field(Field::User(i)),
            (_, _, Some(k)) => field(Field::Idle(k)),
            _ => field(Field::Root),
        }
    }

    /// Resolves the explicit guarantees, limits and usages (`docs/production.md`).
    fn resolve_production(
        &mut self,
        instance: &Instance,
        written: &[Option<&Guarantee>],
        field: &dyn Fn(Field) -> String,
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
                    let mut sum = self.nodes[v].guarantee.clone();
                    for &c in &self.nodes[v].children {
                        if matches!(written[c], Some(Guarantee::Fraction(_))) {
                            return Err(SolverError::invalid(
                                format!("{}.guarantee", self.field_of(c, field)),
                                format!(
                                    "a fraction of the parent's guarantee, but {:?} has none",
                                    self.path(v)
                                ),
                            ));
                        }
                        for (s, x) in sum.iter_mut().zip(&self.nodes[c].guarantee) {
                            *s = &*s + x;
                        }
                    }
                    self.nodes[v].guarantee = sum;
                }
            }
            // Usage adds up the tree.
            if !self.nodes[v].children.is_empty() {
                let mut sum = self.nodes[v].usage.clone();
                for &c in &self.nodes[v].children {
                    for (s, x) in sum.iter_mut().zip(&self.nodes[c].usage) {
                        *s = &*s + x;
                    }
                }
                self.nodes[v].usage = sum;
            }
        }
        let mut root_usage = vec![Rational::ZERO; instance.num_resources()];
        for &c in &self.nodes[0].children {
            for (s, x) in root_usage.iter_mut().zip(&self.nodes[c].usage) {
                *s = &*s + x;
            }
        }
        self.nodes[0].usage = root_usage;
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
                self.apply_limit_rule(c, rules.limit_below_guarantee, resources, field)?;
            }
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
                            self.children_field(v, field),
                            format!(
                                "the children's guarantees add up to {sum} of {}, above {whose}, {cap}",
                                resources[j]
                            ),
                        ));
                    }
                    Oversubscribed::Scale => {}
                }
            }
            if rules.oversubscribed == Oversubscribed::Scale {
                // One common factor, the largest that fits on every resource.
                let mut factor = Rational::ONE;
                for (j, cap) in g.iter().enumerate() {
                    let sum: Rational = children.iter().map(|&c| &self.nodes[c].guarantee[j]).sum();
                    if sum > *cap {
                        let f = cap / &sum;
                        if f < factor {
                            factor = f;
                        }
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
        }
        Ok(())
    }

    /// How the children of `v` are named in messages about their sum.
    fn children_field(&self, v: usize, field: &dyn Fn(Field) -> String) -> String {
        format!("{}.children", self.field_of(v, field))
    }

    /// Checks node `c`'s limit against its guarantee, or applies the rule.
    fn apply_limit_rule(
        &mut self,
        c: usize,
        rule: LimitBelowGuarantee,
        resources: &[String],
        field: &dyn Fn(Field) -> String,
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
                        format!("{}.limit[{j}]", self.field_of(c, field)),
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
    pub fn node(&self, v: usize) -> &Node {
        &self.nodes[v]
    }

    /// The number of nodes (root, pools and leaves).
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Always false: there is a root.
    pub fn is_empty(&self) -> bool {
        false
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

    /// The users in the subtree of `v`, in increasing index.
    pub fn users_below(&self, v: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut stack = vec![v];
        while let Some(x) = stack.pop() {
            if let Some(i) = self.nodes[x].user {
                out.push(i);
            }
            stack.extend(self.nodes[x].children.iter().rev());
        }
        out.sort_unstable();
        out
    }

    /// `P/Q/x`: the names from below the root down to `v` (the root is the empty path).
    pub fn path(&self, v: usize) -> String {
        let mut parts = Vec::new();
        let mut at = Some(v);
        while let Some(x) = at {
            if x != 0 {
                parts.push(self.nodes[x].name.as_str());
            }
            at = self.nodes[x].parent;
        }
        parts.reverse();
        parts.join("/")
    }
}

// ------------------------------------------------------------------ the tree form

/// The deepest tree accepted (the root has depth 0). Deeper inputs are rejected rather than
/// risking the stack on recursive reading.
pub const MAX_DEPTH: usize = 64;

const NODE_FIELDS: &[&str] = &[
    "name",
    "weight",
    "demand",
    "tasks",
    "children",
    "guarantee",
    "limit",
    "mode",
    "usage",
];
// The listing in messages names the fields every tree uses; the production fields
// (guarantee, limit, mode, usage) are optional extras, documented with the form.
const NODE_LISTING: &str = "name, weight, demand, tasks, children";
const TREE_TOP_FIELDS: &[&str] = &["resources", "capacity", "tree", "about", "note"];

/// A node as written in the tree form, before validation (names unique among siblings).
///
/// Exactly one of `demand` (a leaf) and `children` (a pool) must be present; the fields
/// mirror the JSON form so that invalid trees can be represented and rejected with a path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeSpec {
    /// Unique name (no `/`, which separates path components).
    pub name: String,
    /// Weight among siblings, `> 0`.
    pub weight: Rational,
    /// Per-task demand, one entry per resource (leaves).
    pub demand: Option<Vec<Rational>>,
    /// Task cap `T > 0` (leaves, optional).
    pub cap: Option<Rational>,
    /// Children (pools).
    pub children: Option<Vec<NodeSpec>>,
    /// Its guarantee (see [`Guarantee`]).
    pub guarantee: Option<Guarantee>,
    /// A cap on what its subtree holds.
    pub limit: Option<Vec<Rational>>,
    /// How it serves its children (pools only).
    pub mode: Option<Mode>,
    /// What it holds now (leaves only).
    pub usage: Option<Vec<Rational>>,
}

impl NodeSpec {
    /// A leaf of weight 1 without cap.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::hierarchy::NodeSpec;
    /// let a = NodeSpec::leaf("A", [1, 0]).weight(2).cap(5);
    /// assert_eq!(a.cap.unwrap().to_string(), "5");
    /// ```
    pub fn leaf<T: Into<Rational>>(
        name: impl Into<String>,
        demand: impl IntoIterator<Item = T>,
    ) -> Self {
        NodeSpec::bare(
            name.into(),
            Some(demand.into_iter().map(Into::into).collect()),
            None,
        )
    }

    /// A pool of weight 1.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::hierarchy::NodeSpec;
    /// let b = NodeSpec::pool("B", [NodeSpec::leaf("B1", [1, 0]), NodeSpec::leaf("B2", [0, 1])]);
    /// assert_eq!(b.children.unwrap().len(), 2);
    /// ```
    pub fn pool(name: impl Into<String>, children: impl IntoIterator<Item = NodeSpec>) -> Self {
        NodeSpec::bare(name.into(), None, Some(children.into_iter().collect()))
    }

    /// A node of weight 1 with only its name, demand (a leaf) or children (a pool).
    fn bare(name: String, demand: Option<Vec<Rational>>, children: Option<Vec<NodeSpec>>) -> Self {
        NodeSpec {
            name,
            weight: Rational::ONE,
            demand,
            cap: None,
            children,
            guarantee: None,
            limit: None,
            mode: None,
            usage: None,
        }
    }

    /// Sets the weight.
    pub fn weight(mut self, weight: impl Into<Rational>) -> Self {
        self.weight = weight.into();
        self
    }

    /// Sets the guarantee.
    pub fn guarantee(mut self, g: Guarantee) -> Self {
        self.guarantee = Some(g);
        self
    }

    /// Sets the limit.
    pub fn limit<T: Into<Rational>>(mut self, l: impl IntoIterator<Item = T>) -> Self {
        self.limit = Some(l.into_iter().map(Into::into).collect());
        self
    }

    /// Sets the mode (pools only).
    pub fn mode(mut self, mode: Mode) -> Self {
        self.mode = Some(mode);
        self
    }

    /// Sets the running usage (leaves only).
    pub fn usage<T: Into<Rational>>(mut self, u: impl IntoIterator<Item = T>) -> Self {
        self.usage = Some(u.into_iter().map(Into::into).collect());
        self
    }

    /// Sets the task cap (leaves only; a pool with a cap is rejected by validation).
    pub fn cap(mut self, cap: impl Into<Rational>) -> Self {
        self.cap = Some(cap.into());
        self
    }
}

/// Reads the tree form `{"resources": [..], "capacity": [..], "tree": {"name", "weight",
/// "children" | "demand", "tasks"}}` into resource names, capacities and the root's spec
/// (structure only; [`Instance::from_tree`] validates the values).
///
/// `resources` is optional (default `r1..rm`), the root's `name` is optional (default
/// `root`), `weight` defaults to 1, `tasks` (the cap) is optional and only for leaves.
/// The production fields (`docs/production.md`) are optional too: `guarantee` (a vector or
/// a fraction of the parent's) and `limit` on any node below the root, `mode` (`fair`,
/// `fifo`) on pools, `usage` on leaves.
///
/// # Errors
/// A malformed or unknown field, named by its path, e.g. `tree.children[1].weight`.
pub fn read_tree_form(
    value: &Value,
) -> Result<(Vec<String>, Vec<Rational>, NodeSpec), SolverError> {
    let obj = read_object("(top level)", value)?;
    reject_unknown(obj, "", TREE_TOP_FIELDS, &TREE_TOP_FIELDS.join(", "))?;
    let (resources, capacity) = read_resources(obj)?;
    let root = match obj.get("tree") {
        Some(v) => read_node(v, "tree", 0)?,
        None => return Err(SolverError::invalid("tree", "missing")),
    };
    Ok((resources, capacity, root))
}

/// Reads one node at path `at` (structure only; values are validated by
/// [`Instance::from_tree`]).
fn read_node(v: &Value, at: &str, depth: usize) -> Result<NodeSpec, SolverError> {
    if depth > MAX_DEPTH {
        return Err(SolverError::invalid(
            at,
            format!("the tree is deeper than {MAX_DEPTH} levels"),
        ));
    }
    let obj = read_object(at, v)?;
    reject_unknown(obj, at, NODE_FIELDS, NODE_LISTING)?;
    let field = |f: &str| format!("{at}.{f}");
    let name = match obj.get("name") {
        None if depth == 0 => "root".to_string(),
        None => return Err(SolverError::invalid(field("name"), "missing")),
        Some(v) => read_string(&field("name"), v)?,
    };
    let weight = match obj.get("weight") {
        Some(w) => read_number(&field("weight"), w)?,
        None => Rational::ONE,
    };
    let demand = read_optional(obj, "demand", field, read_numbers)?;
    let cap = match obj.get("tasks") {
        None | Some(Value::Null) => None,
        Some(t) => Some(read_number(&field("tasks"), t)?),
    };
    let children = match obj.get("children") {
        None => None,
        Some(Value::Array(list)) => Some(
            list.iter()
                .enumerate()
                .map(|(k, c)| read_node(c, &format!("{at}.children[{k}]"), depth + 1))
                .collect::<Result<Vec<_>, _>>()?,
        ),
        Some(other) => {
            return Err(SolverError::invalid(
                field("children"),
                format!("expected a list of nodes, found {}", kind(other)),
            ))
        }
    };
    let Production {
        guarantee,
        limit,
        mode,
        usage,
    } = Production::read(obj, field)?;
    Ok(NodeSpec {
        name,
        weight,
        demand,
        cap,
        children,
        guarantee,
        limit,
        mode,
        usage,
    })
}

/// A tree spec laid out as pools and users, with where each was in the tree form.
pub(crate) struct Laid {
    pub pools: Vec<Pool>,
    pub users: Vec<User>,
    pool_at: Vec<String>,
    user_at: Vec<String>,
}

impl Laid {
    /// An error about `pools[k]` or `users[i]` renamed by the node's path in the tree form.
    pub fn rename(&self, e: SolverError) -> SolverError {
        let SolverError::Invalid { field, reason } = &e else {
            return e;
        };
        let swap = |prefix: &str, at: &[String]| -> Option<String> {
            let rest = field.strip_prefix(prefix)?;
            let close = rest.find(']')?;
            let k: usize = rest[..close].parse().ok()?;
            Some(format!("{}{}", at.get(k)?, &rest[close + 1..]))
        };
        let renamed = swap("pools[", &self.pool_at)
            .or_else(|| swap("users[", &self.user_at))
            .or_else(|| (field == "users").then(|| "tree".to_string()))
            .or_else(|| {
                field
                    .strip_prefix("users.")
                    .map(|rest| format!("tree.{rest}"))
            });
        match renamed {
            Some(field) => SolverError::invalid(field, reason.clone()),
            None => e,
        }
    }
}

/// Validates a tree spec's structure and lays it out as pools and users (leaves in
/// pre-order), every error naming the node by its path in the tree form
/// (`tree.children[1].demand`); the values of the production fields are checked by
/// [`Instance::with_pools_and_rules`], whose messages [`Laid::rename`] maps back.
pub(crate) fn lay_out(root: &NodeSpec, m: usize) -> Result<Laid, SolverError> {
    if root.children.is_none() {
        return Err(SolverError::invalid(
            "tree",
            "the root must be a pool (a node with children)",
        ));
    }
    for (f, set) in [
        ("guarantee", root.guarantee.is_some()),
        ("limit", root.limit.is_some()),
        ("usage", root.usage.is_some()),
    ] {
        if set {
            return Err(SolverError::invalid(
                format!("tree.{f}"),
                "the root holds the whole cluster: its guarantee and limit are the capacity, \
                 its usage its leaves'",
            ));
        }
    }
    if root.mode == Some(Mode::Fifo) {
        return Err(SolverError::invalid(
            "tree.mode",
            "the root shares fairly; put its children in a fifo pool below it",
        ));
    }
    let mut out = Layout {
        m,
        laid: Laid {
            pools: Vec::new(),
            users: Vec::new(),
            pool_at: Vec::new(),
            user_at: Vec::new(),
        },
    };
    out.add(root, None, "tree".to_string(), 0)?;
    Ok(out.laid)
}

struct Layout {
    m: usize,
    laid: Laid,
}

impl Layout {
    /// Adds `spec` below `parent` (`None`: `spec` is the root; `Some(None)`: directly below
    /// the root; `Some(Some(p))`: in pool `p`), validating as it goes.
    fn add(
        &mut self,
        spec: &NodeSpec,
        parent: Option<Option<usize>>,
        at: String,
        depth: usize,
    ) -> Result<(), SolverError> {
        let m = self.m;
        let field = |f: &str| format!("{at}.{f}");
        if depth > MAX_DEPTH {
            return Err(SolverError::invalid(
                at,
                format!("the tree is deeper than {MAX_DEPTH} levels"),
            ));
        }
        if spec.name.is_empty() {
            return Err(SolverError::invalid(field("name"), "empty name"));
        }
        if spec.name.contains('/') {
            return Err(SolverError::invalid(
                field("name"),
                format!(
                    "{:?} contains '/', which separates the parts of a path",
                    spec.name
                ),
            ));
        }
        if !spec.weight.is_positive() {
            return Err(SolverError::invalid(
                field("weight"),
                format!("must be positive, found {}", spec.weight),
            ));
        }
        match (&spec.demand, &spec.children) {
            (Some(_), Some(_)) => {
                return Err(SolverError::invalid(
                    at,
                    "a node has either demand (a leaf) or children (a pool), not both",
                ))
            }
            (None, None) => {
                return Err(SolverError::invalid(
                    at,
                    "a node needs either demand (a leaf) or children (a pool)",
                ))
            }
            _ => {}
        }
        if let Some(demand) = &spec.demand {
            if demand.len() != m {
                return Err(SolverError::invalid(
                    field("demand"),
                    format!(
                        "expected {m} entries, one per resource, found {}",
                        demand.len()
                    ),
                ));
            }
            for (j, d) in demand.iter().enumerate() {
                if d.is_negative() {
                    return Err(SolverError::invalid(
                        format!("{at}.demand[{j}]"),
                        format!("must not be negative, found {d}"),
                    ));
                }
            }
            if let Some(t) = &spec.cap {
                if !t.is_positive() {
                    return Err(SolverError::invalid(
                        field("tasks"),
                        format!("must be positive, found {t}"),
                    ));
                }
            }
            if spec.mode.is_some() {
                return Err(SolverError::invalid(
                    field("mode"),
                    "only a pool has a mode; a leaf runs its own tasks",
                ));
            }
            self.laid.users.push(User {
                name: spec.name.clone(),
                demand: demand.clone(),
                weight: spec.weight.clone(),
                resource_weights: None,
                cap: spec.cap.clone(),
                pool: parent.flatten(),
                guarantee: spec.guarantee.clone(),
                limit: spec.limit.clone(),
                usage: spec.usage.clone(),
            });
            self.laid.user_at.push(at);
        } else if let Some(children) = &spec.children {
            if spec.cap.is_some() {
                return Err(SolverError::invalid(
                    field("tasks"),
                    "only a leaf has a task cap; a pool's demand is its leaves'",
                ));
            }
            if spec.usage.is_some() {
                return Err(SolverError::invalid(
                    field("usage"),
                    "only a leaf has a usage; a pool's is the sum of its leaves'",
                ));
            }
            // Names need only be unique among siblings: nodes are addressed by path.
            let mut seen: HashMap<&str, usize> = HashMap::new();
            for (k, c) in children.iter().enumerate() {
                if let Some(first) = seen.insert(c.name.as_str(), k) {
                    return Err(SolverError::invalid(
                        format!("{at}.children[{k}].name"),
                        format!(
                            "duplicate name {:?} among siblings (first used at {at}.children[{first}])",
                            c.name
                        ),
                    ));
                }
            }
            let me = match parent {
                None => None,
                Some(up) => {
                    self.laid.pools.push(Pool {
                        name: spec.name.clone(),
                        weight: spec.weight.clone(),
                        parent: up,
                        guarantee: spec.guarantee.clone(),
                        limit: spec.limit.clone(),
                        mode: spec.mode.unwrap_or_default(),
                    });
                    self.laid.pool_at.push(at.clone());
                    Some(self.laid.pools.len() - 1)
                }
            };
            // Laid out in the order the tree view lists siblings (those holding a leaf that
            // demands something, then the other pools, then idle leaves, each group in the
            // order given), so that a tree written from its view reads back the same.
            let group = |c: &NodeSpec| match (holds_demand(c), &c.children) {
                (true, _) => 0,
                (false, Some(_)) => 1,
                (false, None) => 2,
            };
            let mut order: Vec<usize> = (0..children.len()).collect();
            order.sort_by_key(|&k| group(&children[k]));
            for k in order {
                let child = &children[k];
                self.add(child, Some(me), format!("{at}.children[{k}]"), depth + 1)?;
            }
        }
        Ok(())
    }
}

/// Whether a node is, or holds, a leaf demanding something. The depth is bounded by the
/// caller's check before the recursion reaches it.
fn holds_demand(spec: &NodeSpec) -> bool {
    match (&spec.demand, &spec.children) {
        (Some(d), _) => d.iter().any(|x| !x.is_zero()),
        (None, Some(children)) => children.iter().any(holds_demand),
        (None, None) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inst(pools: Vec<Pool>, users: Vec<User>) -> Instance {
        Instance::with_pools(vec!["r1".into()], vec![1.into()], pools, users).unwrap()
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
