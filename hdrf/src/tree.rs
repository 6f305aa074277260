//! Weighted trees: pools and leaves, their JSON form, validation and guaranteed shares.
//!
//! A tree has `m` resources with capacities `R_j > 0`. Every node has a name, unique among
//! its siblings (nodes are addressed by path, `root/prod/web`), and a weight `w_v > 0` among
//! its siblings (default 1). A **leaf** (user, operation) has a per-task demand vector
//! `d >= 0` and an optional task cap `T > 0`; a leaf whose demand is all zeros is *idle*. A
//! **pool** has children, possibly none. The root is a pool. Idle leaves and empty pools
//! get nothing ([`Tree::notes`]). Nodes may also carry guarantees, limits, a pool mode and
//! a leaf's usage ([`Tree::guarantee`], `docs/production.md`).
//!
//! The **guaranteed share** of a node (`docs/theory.md` §4) is `g_root = 1` and
//! `g_v = g_parent * w_v / Σ_{siblings s of v, v included} w_s`, exact.
//!
//! A tree is a view of an [`Instance`] with pools (the model's form of a hierarchy, see
//! `leontief_solver::hierarchy`): one pool per inner node below the root, one user per leaf,
//! in pre-order. [`Tree::instance`] is that instance, [`Tree::from_instance`] (or
//! `Tree::try_from`) views an instance as a tree; the JSON form is read and validated by
//! the solver's reader of the tree form, so a tree file and the same tree written as pools
//! are the same instance.
//!
//! # JSON
//! ```json
//! {"resources": ["cpu", "mem"], "capacity": [1, 1],
//!  "tree": {"name": "root", "children": [
//!     {"name": "A", "weight": 1, "demand": [1, 0], "tasks": 5},
//!     {"name": "B", "weight": 2, "children": [{"name": "B1", "demand": [1, 0]}]}]}}
//! ```
//! `resources` is optional (default `r1..rm`), the root's `name` is optional (default
//! `root`), `weight` defaults to 1, `tasks` (the cap) is optional and only for leaves.
//! Numbers are JSON numbers, read exactly from their text, or strings such as `"7/3"`.
//! Errors name the offending field by its path in the input, e.g.
//! `tree.children[1].children[0].demand: expected 2 entries, one per resource, found 3`.
//!
//! # Example
//! ```
//! use leontief_hdrf::Tree;
//! let tree = Tree::from_json_str(r#"{"capacity": [1, 1], "tree": {"children": [
//!     {"name": "A", "demand": [1, 0]},
//!     {"name": "B", "weight": 2, "children": [
//!         {"name": "B1", "demand": [1, 0]}, {"name": "B2", "demand": [0, 1]}]}]}}"#).unwrap();
//! let b1 = tree.find("B1").unwrap();
//! assert_eq!(tree.path(b1), "root/B/B1");
//! assert_eq!(tree.guaranteed_share(b1).to_string(), "1/3"); // 2/3 of B, split in two
//! ```

use leontief_solver::hierarchy::read_tree_form;
use leontief_solver::{Guarantee, Instance, Mode, Rational, Rules, User};
use serde::Serialize;
use serde_json::Value;

use crate::error::{Result, SolverError};

pub use leontief_solver::hierarchy::{NodeSpec, MAX_DEPTH};

/// Index of a node in a [`Tree`]: nodes are numbered in pre-order, the root is 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(usize);

impl NodeId {
    /// The root of every tree.
    pub const ROOT: NodeId = NodeId(0);

    /// The pre-order index, `0..tree.len()`.
    pub fn index(self) -> usize {
        self.0
    }
}

/// One validated node of a [`Tree`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    name: String,
    weight: Rational,
    parent: Option<NodeId>,
    children: Vec<NodeId>,
    demand: Option<Vec<Rational>>,
    cap: Option<Rational>,
    guaranteed: Rational,
    depth: usize,
    guarantee: Vec<Rational>,
    guarantee_written: bool,
    limit: Option<Vec<Rational>>,
    mode: Mode,
    usage: Vec<Rational>,
    idle: bool,
}

impl Node {
    /// The node's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Weight among its siblings.
    pub fn weight(&self) -> &Rational {
        &self.weight
    }

    /// The parent (`None` for the root).
    pub fn parent(&self) -> Option<NodeId> {
        self.parent
    }

    /// Children in input order (empty for a leaf).
    pub fn children(&self) -> &[NodeId] {
        &self.children
    }

    /// Per-task demand (leaves only).
    pub fn demand(&self) -> Option<&[Rational]> {
        self.demand.as_deref()
    }

    /// Task cap (leaves with a cap only).
    pub fn cap(&self) -> Option<&Rational> {
        self.cap.as_ref()
    }

    /// Whether this is a leaf.
    pub fn is_leaf(&self) -> bool {
        self.demand.is_some()
    }

    /// Guaranteed share `g_v`.
    pub fn guaranteed_share(&self) -> &Rational {
        &self.guaranteed
    }

    /// Depth (the root has 0).
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// Its explicit guarantee resolved to absolute amounts (`docs/production.md`): the
    /// capacity for the root, zeros for a leaf without one, the children's sum for a pool
    /// without one.
    pub fn guarantee(&self) -> &[Rational] {
        &self.guarantee
    }

    /// Whether a guarantee was written on it (the root's, the capacity, counts as written).
    pub fn has_guarantee(&self) -> bool {
        self.guarantee_written
    }

    /// Its limit on what its subtree holds, if any.
    pub fn limit(&self) -> Option<&[Rational]> {
        self.limit.as_deref()
    }

    /// How it serves its children (`Fair` for leaves and the root).
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// What it holds now: a leaf's usage, a pool's its leaves' sum.
    pub fn usage(&self) -> &[Rational] {
        &self.usage
    }

    /// Whether it is an idle leaf (all-zero demand): it gets nothing.
    pub fn is_idle(&self) -> bool {
        self.idle
    }
}

/// A validated weighted tree. See the [module docs](self).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tree {
    /// The model's instance: a user per leaf, in pre-order, a pool per inner node.
    instance: Instance,
    nodes: Vec<Node>,
}

impl Tree {
    /// Validates and builds a tree with resources named `r1..rm`.
    ///
    /// # Example
    /// ```
    /// use leontief_hdrf::{NodeSpec, Tree};
    /// let tree = Tree::new(vec![1.into(), 1.into()], NodeSpec::pool("root", [
    ///     NodeSpec::leaf("A", [1, 0]),
    ///     NodeSpec::pool("B", [NodeSpec::leaf("B1", [1, 0]), NodeSpec::leaf("B2", [0, 1])]),
    /// ])).unwrap();
    /// assert_eq!(tree.len(), 5);
    /// let err = Tree::new(vec![1.into()], NodeSpec::pool("root", [NodeSpec::leaf("A", [1, 0])]));
    /// assert_eq!(err.unwrap_err().to_string(),
    ///     "tree.children[0].demand: expected 1 entries, one per resource, found 2");
    /// ```
    pub fn new(capacity: Vec<Rational>, root: NodeSpec) -> Result<Tree> {
        let resources = (1..=capacity.len()).map(|j| format!("r{j}")).collect();
        Self::with_resources(resources, capacity, root)
    }

    /// Validates and builds a tree with named resources.
    ///
    /// # Example
    /// ```
    /// use leontief_hdrf::{NodeSpec, Tree};
    /// let tree = Tree::with_resources(vec!["cpu".into(), "mem".into()], vec![9.into(), 18.into()],
    ///     NodeSpec::pool("root", [NodeSpec::leaf("A", [1, 4]), NodeSpec::leaf("B", [3, 1])])).unwrap();
    /// assert_eq!(tree.resources(), ["cpu", "mem"]);
    /// ```
    pub fn with_resources(
        resources: Vec<String>,
        capacity: Vec<Rational>,
        root: NodeSpec,
    ) -> Result<Tree> {
        Self::with_rules(resources, capacity, root, Rules::default())
    }

    /// [`Tree::with_resources`], resolving guarantees and limits by `rules` (see
    /// `docs/production.md`).
    pub fn with_rules(
        resources: Vec<String>,
        capacity: Vec<Rational>,
        root: NodeSpec,
        rules: Rules,
    ) -> Result<Tree> {
        let instance = Instance::from_tree_with(resources, capacity, &root, rules)?;
        Ok(Tree::view(instance, root.name, root.weight))
    }

    /// The tree of an instance's pools and users: the inverse of [`Tree::instance`].
    ///
    /// # Errors
    /// Per-resource weights (`users[i].weights`: a node has one weight), a name containing
    /// `/` (`users[i].name`, `pools[k].name`), a tree deeper than [`MAX_DEPTH`]. (Names need
    /// only be unique among siblings, which the instance already ensures.)
    ///
    /// # Example
    /// ```
    /// use leontief_hdrf::Tree;
    /// use leontief_solver::{Instance, Pool, User};
    /// let inst = Instance::with_pools(vec!["r1".into()], vec![1.into()], vec![Pool::new("P").weight(3)],
    ///     vec![User::new("x", [1]).pool(0), User::new("y", [1])]).unwrap();
    /// let tree = Tree::from_instance(&inst).unwrap();
    /// assert_eq!(tree.guaranteed_share(tree.find("x").unwrap()).to_string(), "3/4");
    /// assert_eq!(tree.instance(), &inst);
    /// ```
    pub fn from_instance(instance: &Instance) -> Result<Tree> {
        if let Some(i) = instance
            .users()
            .iter()
            .position(|u| u.resource_weights.is_some())
        {
            return Err(SolverError::invalid(
                format!("users[{i}].weights"),
                "hierarchical policies take one weight per node, not per resource",
            ));
        }
        let h = instance.hierarchy();
        for v in 1..h.len() {
            let node = h.node(v);
            let field = match (node.user, node.pool, node.idle) {
                (Some(i), _, _) => format!("users[{i}].name"),
                (_, Some(p), _) => format!("pools[{p}].name"),
                (_, _, Some(k)) => format!("idle[{k}].name"),
                _ => unreachable!("only the root is neither a user, an idle leaf nor a pool"),
            };
            if node.depth > MAX_DEPTH {
                return Err(SolverError::invalid(
                    field,
                    format!("the tree is deeper than {MAX_DEPTH} levels"),
                ));
            }
            if node.name.contains('/') {
                return Err(SolverError::invalid(
                    field,
                    format!(
                        "{:?} contains '/', which separates the parts of a path",
                        node.name
                    ),
                ));
            }
        }
        // The tree's instance lists its users in pre-order, so that a leaf's user index is
        // its rank among the leaves (the node order does not change: it follows the users).
        let order = h.users_in_order();
        let instance = if order.iter().enumerate().all(|(k, &i)| k == i) {
            instance.clone()
        } else {
            let users = order.iter().map(|&i| instance.users()[i].clone()).collect();
            instance.with_users(users)?
        };
        Ok(Tree::view(instance, "root".into(), Rational::ONE))
    }

    /// The tree's nodes from its instance's hierarchy, the root named `root_name`.
    fn view(instance: Instance, root_name: String, root_weight: Rational) -> Tree {
        let h = instance.hierarchy();
        let nodes = (0..h.len())
            .map(|v| {
                let n = h.node(v);
                let user: Option<&User> = n
                    .user
                    .map(|i| &instance.users()[i])
                    .or_else(|| n.idle.map(|k| &instance.idle_users()[k]));
                Node {
                    name: if v == 0 {
                        root_name.clone()
                    } else {
                        n.name.clone()
                    },
                    weight: if v == 0 {
                        root_weight.clone()
                    } else {
                        n.weight.clone()
                    },
                    parent: n.parent.map(NodeId),
                    children: n.children.iter().map(|&c| NodeId(c)).collect(),
                    demand: user.map(|u| u.demand.clone()),
                    cap: user.and_then(|u| u.cap.clone()),
                    guaranteed: n.guaranteed.clone(),
                    depth: n.depth,
                    guarantee: n.guarantee.clone(),
                    guarantee_written: n.guarantee_written,
                    limit: n.limit.clone(),
                    mode: n.mode,
                    usage: n.usage.clone(),
                    idle: n.idle.is_some(),
                }
            })
            .collect();
        Tree { instance, nodes }
    }

    /// The model's instance of the tree: a pool per inner node below the root, a user per
    /// leaf (named as the leaf, in pre-order: user `k` is the `k`-th leaf), weights and caps
    /// as the nodes'.
    ///
    /// # Example
    /// ```
    /// use leontief_hdrf::{NodeSpec, Tree};
    /// let tree = Tree::new(vec![1.into()], NodeSpec::pool("root", [
    ///     NodeSpec::pool("P", [NodeSpec::leaf("x", [1]).weight(2)]).weight(3),
    ///     NodeSpec::leaf("y", [1]),
    /// ])).unwrap();
    /// let inst = tree.instance();
    /// assert_eq!((inst.pools()[0].name.as_str(), inst.pools()[0].weight.to_string()), ("P", "3".into()));
    /// assert_eq!(inst.user_path(0), "P/x");
    /// assert_eq!(Tree::from_instance(inst).unwrap().to_json()["tree"]["children"], tree.to_json()["tree"]["children"]);
    /// ```
    pub fn instance(&self) -> &Instance {
        &self.instance
    }

    /// The user of leaf `v` in [`Tree::instance`] (`None` for a pool).
    pub fn user_of(&self, v: NodeId) -> Option<usize> {
        self.instance.hierarchy().node(v.0).user
    }

    /// Reads the JSON form (see the [module docs](self)).
    ///
    /// # Example
    /// ```
    /// use leontief_hdrf::Tree;
    /// let err = Tree::from_json_str(r#"{"capacity": [1, 1], "tree": {"children": [
    ///     {"name": "A", "demand": [1, 0]},
    ///     {"name": "B", "children": [{"name": "B1", "demand": [1, 0, 2]}]}]}}"#).unwrap_err();
    /// assert_eq!(err.to_string(),
    ///     "tree.children[1].children[0].demand: expected 2 entries, one per resource, found 3");
    /// ```
    pub fn from_json_str(text: &str) -> Result<Tree> {
        let value = leontief_solver::json::parse_strict(text)?;
        Self::from_json(&value)
    }

    /// [`Tree::from_json_str`], resolving guarantees and limits and using guarantees by
    /// `rules` (`docs/production.md`).
    pub fn from_json_str_with(text: &str, rules: Rules) -> Result<Tree> {
        let value = leontief_solver::json::parse_strict(text)?;
        Self::from_json_with(&value, rules)
    }

    /// Reads the JSON form from a parsed value (see [`Tree::from_json_str`]).
    ///
    /// # Example
    /// ```
    /// use leontief_hdrf::Tree;
    /// let doc = serde_json::json!({"resources": ["cpu", "mem"], "capacity": [1, "1/2"],
    ///     "tree": {"name": "all", "children": [{"name": "A", "demand": [1, 0], "tasks": 0.5}]}});
    /// let tree = Tree::from_json(&doc).unwrap();
    /// assert_eq!(tree.path(tree.find("A").unwrap()), "all/A");
    /// assert_eq!(tree.capacity()[1].to_string(), "1/2");
    /// ```
    pub fn from_json(value: &Value) -> Result<Tree> {
        Self::from_json_with(value, Rules::default())
    }

    /// [`Tree::from_json`], resolving guarantees and limits by `rules`.
    pub fn from_json_with(value: &Value, rules: Rules) -> Result<Tree> {
        let (resources, capacity, root) = read_tree_form(value)?;
        Self::with_rules(resources, capacity, root, rules)
    }

    /// The JSON form, every number an exact string; [`Tree::from_json`] reads it back.
    ///
    /// # Example
    /// ```
    /// use leontief_hdrf::{NodeSpec, Tree};
    /// let tree = Tree::new(vec![1.into(), 1.into()], NodeSpec::pool("root", [
    ///     NodeSpec::leaf("A", [1, 0]).cap(2), NodeSpec::leaf("B", [0, 1]).weight(3)])).unwrap();
    /// assert_eq!(Tree::from_json(&tree.to_json()).unwrap(), tree);
    /// ```
    pub fn to_json(&self) -> Value {
        // A document of strings and string-keyed maps always serializes.
        serde_json::to_value(self.document()).unwrap_or(Value::Null)
    }

    /// The JSON form (see [`Tree::to_json`]) as a document type, for writers that serialize
    /// it directly.
    pub fn document(&self) -> TreeDoc<'_> {
        TreeDoc { tree: self }
    }

    fn node_fields(&self, v: NodeId) -> NodeFields<'_> {
        let n = &self.nodes[v.0];
        // The production fields as written (a fraction stays a fraction).
        let h = self.instance.hierarchy().node(v.0);
        let (mode, guarantee, limit, usage) = match (h.pool, h.user, h.idle) {
            (Some(p), _, _) => {
                let q = &self.instance.pools()[p];
                let mode = (q.mode != Mode::Fair).then(|| q.mode.name());
                (mode, q.guarantee.as_ref(), q.limit.as_ref(), None)
            }
            (_, Some(i), _) => {
                let u = &self.instance.users()[i];
                (
                    None,
                    u.guarantee.as_ref(),
                    u.limit.as_ref(),
                    u.usage.as_ref(),
                )
            }
            (_, _, Some(k)) => {
                let u = &self.instance.idle_users()[k];
                (
                    None,
                    u.guarantee.as_ref(),
                    u.limit.as_ref(),
                    u.usage.as_ref(),
                )
            }
            _ => (None, None, None, None),
        };
        NodeFields {
            name: &n.name,
            weight: (n.weight != Rational::ONE).then_some(&n.weight),
            mode,
            guarantee: guarantee.map(|g| match g {
                Guarantee::Vector(g) => GuaranteeField::Vector(g),
                Guarantee::Fraction(f) => GuaranteeField::Fraction(f),
            }),
            limit: limit.map(Vec::as_slice),
            usage: usage.map(Vec::as_slice),
            demand: n.demand.as_deref(),
            tasks: n.demand.as_ref().and(n.cap.as_ref()),
            children: n
                .demand
                .is_none()
                .then(|| n.children.iter().map(|&c| self.node_fields(c)).collect()),
        }
    }

    /// Resource names.
    pub fn resources(&self) -> &[String] {
        self.instance.resources()
    }

    /// Capacities `R_j`.
    pub fn capacity(&self) -> &[Rational] {
        self.instance.capacity()
    }

    /// Number of resources `m`.
    pub fn num_resources(&self) -> usize {
        self.instance.num_resources()
    }

    /// Number of nodes, pools and leaves.
    #[allow(clippy::len_without_is_empty)] // a tree always has a root and a leaf
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// The root.
    pub fn root(&self) -> NodeId {
        NodeId::ROOT
    }

    /// Every node, in pre-order (a parent before its children, siblings in input order).
    pub fn nodes(&self) -> impl DoubleEndedIterator<Item = NodeId> + ExactSizeIterator + '_ {
        (0..self.nodes.len()).map(NodeId)
    }

    /// The leaves, in pre-order.
    pub fn leaves(&self) -> impl DoubleEndedIterator<Item = NodeId> + '_ {
        self.nodes().filter(|&v| self.nodes[v.0].is_leaf())
    }

    /// The pools, in pre-order (the root first).
    pub fn pools(&self) -> impl DoubleEndedIterator<Item = NodeId> + '_ {
        self.nodes().filter(|&v| !self.nodes[v.0].is_leaf())
    }

    /// Number of leaves.
    pub fn num_leaves(&self) -> usize {
        self.leaves().count()
    }

    /// The node `v`.
    ///
    /// # Panics
    /// When `v` belongs to another, larger tree.
    pub fn node(&self, v: NodeId) -> &Node {
        &self.nodes[v.0]
    }

    /// The node with pre-order index `index`, if there is one.
    pub fn node_id(&self, index: usize) -> Option<NodeId> {
        (index < self.nodes.len()).then_some(NodeId(index))
    }

    /// The first node (in pre-order) called `name`; names repeat across pools, so
    /// [`Tree::find_path`] is the exact address.
    pub fn find(&self, name: &str) -> Option<NodeId> {
        self.nodes.iter().position(|n| n.name == name).map(NodeId)
    }

    /// The node at `path` (as printed by [`Tree::path`], e.g. `root/B/B1`).
    ///
    /// # Example
    /// ```
    /// use leontief_hdrf::{NodeSpec, Tree};
    /// let tree = Tree::new(vec![1.into()], NodeSpec::pool("root", [
    ///     NodeSpec::pool("B", [NodeSpec::leaf("B1", [1])])])).unwrap();
    /// assert_eq!(tree.find_path("root/B/B1"), tree.find("B1"));
    /// assert_eq!(tree.find_path("root/B1"), None);
    /// ```
    pub fn find_path(&self, path: &str) -> Option<NodeId> {
        let mut parts = path.split('/');
        if parts.next()? != self.nodes[0].name {
            return None;
        }
        let mut v = NodeId::ROOT;
        for part in parts {
            v = *self.nodes[v.0]
                .children
                .iter()
                .find(|c| self.nodes[c.0].name == part)?;
        }
        Some(v)
    }

    /// The names from the root down to `v`, joined by `/`, e.g. `root/B/B1`.
    pub fn path(&self, v: NodeId) -> String {
        let mut names = vec![self.nodes[v.0].name.as_str()];
        let mut at = v;
        while let Some(p) = self.nodes[at.0].parent {
            names.push(&self.nodes[p.0].name);
            at = p;
        }
        names.reverse();
        names.join("/")
    }

    /// Guaranteed share `g_v` (exact).
    pub fn guaranteed_share(&self, v: NodeId) -> &Rational {
        &self.nodes[v.0].guaranteed
    }

    /// `v`'s explicit guarantee, resolved to absolute amounts (see [`Node::guarantee`]).
    ///
    /// # Example
    /// ```
    /// use leontief_hdrf::{Mode, Tree};
    /// let tree = Tree::from_json_str(r#"{"capacity": [8, 4], "tree": {"children": [
    ///     {"name": "prod", "guarantee": "1/2", "limit": [8, 3], "mode": "fifo", "children": [
    ///         {"name": "web", "demand": [1, 1], "usage": [2, 1]}, {"name": "idle", "demand": [0, 0]}]},
    ///     {"name": "dev", "children": [{"name": "web", "demand": [1, 0], "guarantee": [1, 0]}]}]}}"#).unwrap();
    /// let prod = tree.find_path("root/prod").unwrap();
    /// assert_eq!(tree.guarantee(prod), [4.into(), 2.into()]);
    /// assert_eq!(tree.limit(prod).unwrap(), [8.into(), 3.into()]);
    /// assert_eq!(tree.mode(prod), Mode::Fifo);
    /// assert_eq!(tree.usage(prod), [2.into(), 1.into()]);
    /// assert!(tree.node(tree.find_path("root/prod/idle").unwrap()).is_idle());
    /// // dev has no guarantee of its own: it guarantees what its children do.
    /// assert_eq!(tree.guarantee(tree.find_path("root/dev").unwrap()), [1.into(), 0.into()]);
    /// ```
    pub fn guarantee(&self, v: NodeId) -> &[Rational] {
        &self.nodes[v.0].guarantee
    }

    /// `v`'s limit, if any.
    pub fn limit(&self, v: NodeId) -> Option<&[Rational]> {
        self.nodes[v.0].limit.as_deref()
    }

    /// How `v` serves its children.
    pub fn mode(&self, v: NodeId) -> Mode {
        self.nodes[v.0].mode
    }

    /// What `v` holds now (a pool: its leaves' sum).
    pub fn usage(&self, v: NodeId) -> &[Rational] {
        &self.nodes[v.0].usage
    }

    /// Whether any node has a guarantee, limit, FIFO mode or usage, or the tree an idle leaf
    /// or an empty pool: when not, every policy allocates as before these existed.
    pub fn has_production_fields(&self) -> bool {
        self.instance.has_production_fields()
            || self
                .nodes
                .iter()
                .any(|n| !n.is_leaf() && n.children.is_empty())
    }

    /// What the output should say about the tree's shape: every idle leaf and every pool
    /// with nothing below it, which get nothing.
    ///
    /// # Example
    /// ```
    /// use leontief_hdrf::Tree;
    /// let tree = Tree::from_json_str(r#"{"capacity": [1], "tree": {"children": [
    ///     {"name": "a", "demand": [1]}, {"name": "b", "demand": [0]}, {"name": "c", "children": []}]}}"#).unwrap();
    /// // Nodes holding no active leaf come after their siblings, pools before idle leaves.
    /// assert_eq!(tree.notes(), [
    ///     "root/c: empty pool; it gets nothing",
    ///     "root/b: idle leaf (all-zero demand); it gets nothing",
    /// ]);
    /// ```
    pub fn notes(&self) -> Vec<String> {
        self.nodes()
            .filter_map(|v| {
                let n = &self.nodes[v.0];
                if n.idle {
                    Some(format!(
                        "{}: idle leaf (all-zero demand); it gets nothing",
                        self.path(v)
                    ))
                } else if !n.is_leaf() && n.children.is_empty() {
                    Some(format!("{}: empty pool; it gets nothing", self.path(v)))
                } else {
                    None
                }
            })
            .collect()
    }

    /// Children of `v` (empty for a leaf).
    pub fn children(&self, v: NodeId) -> &[NodeId] {
        &self.nodes[v.0].children
    }

    /// Parent of `v`.
    pub fn parent(&self, v: NodeId) -> Option<NodeId> {
        self.nodes[v.0].parent
    }

    /// The leaves below `v` (`v` itself when it is a leaf), in pre-order.
    pub fn leaves_below(&self, v: NodeId) -> Vec<NodeId> {
        let mut out = Vec::new();
        let mut stack = vec![v];
        while let Some(u) = stack.pop() {
            let n = &self.nodes[u.0];
            if n.is_leaf() {
                out.push(u);
            }
            stack.extend(n.children.iter().rev());
        }
        out
    }

    /// The dominant share of one task of leaf `v`: `mu_v = max_j d_vj / R_j` (`None` for a
    /// pool).
    pub fn task_dominant_share(&self, v: NodeId) -> Option<Rational> {
        let d = self.nodes[v.0].demand.as_ref()?;
        d.iter()
            .zip(self.capacity())
            .filter(|(d, _)| !d.is_zero())
            .map(|(d, r)| d / r)
            .max()
    }

    /// The flat instance of the leaves, each weighted by its guaranteed share `g_leaf`
    /// (users in pre-order, named as the leaves): what the `collapsed` policy allocates.
    ///
    /// # Example
    /// ```
    /// use leontief_hdrf::{NodeSpec, Tree};
    /// let tree = Tree::new(vec![1.into(), 1.into()], NodeSpec::pool("root", [
    ///     NodeSpec::leaf("A", [1, 0]),
    ///     NodeSpec::pool("B", [NodeSpec::leaf("B1", [1, 0]), NodeSpec::leaf("B2", [0, 1])]),
    /// ])).unwrap();
    /// let flat = tree.leaf_instance();
    /// assert_eq!(flat.users()[2].weight.to_string(), "1/4");
    /// ```
    pub fn leaf_instance(&self) -> Instance {
        let users = self
            .leaves()
            .filter(|&v| !self.nodes[v.0].idle)
            .map(|v| {
                let n = &self.nodes[v.0];
                let mut u = User::new(n.name.clone(), n.demand.clone().unwrap_or_default())
                    .weight(n.guaranteed.clone());
                if let Some(t) = &n.cap {
                    u = u.cap(t.clone());
                }
                u
            })
            .collect();
        Instance::with_resources(self.resources().to_vec(), self.capacity().to_vec(), users)
            .expect("a valid tree's leaves form a valid instance")
    }
}

impl From<&Tree> for Instance {
    /// [`Tree::instance`].
    fn from(tree: &Tree) -> Instance {
        tree.instance.clone()
    }
}

impl TryFrom<&Instance> for Tree {
    type Error = SolverError;

    /// [`Tree::from_instance`].
    fn try_from(instance: &Instance) -> Result<Tree> {
        Tree::from_instance(instance)
    }
}

/// The JSON form of a [`Tree`] (see [`Tree::to_json`]).
#[derive(Debug, Clone, Copy)]
pub struct TreeDoc<'a> {
    tree: &'a Tree,
}

/// The fields of [`TreeDoc`], in output order.
#[derive(Serialize)]
struct TreeFields<'a> {
    resources: &'a [String],
    capacity: &'a [Rational],
    tree: NodeFields<'a>,
}

/// One node of the tree form: a leaf has `demand` (and `tasks` when capped), a pool
/// `children` (and `mode` when not fair).
#[derive(Serialize)]
struct NodeFields<'a> {
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    weight: Option<&'a Rational>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mode: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    guarantee: Option<GuaranteeField<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    limit: Option<&'a [Rational]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    usage: Option<&'a [Rational]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    demand: Option<&'a [Rational]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tasks: Option<&'a Rational>,
    #[serde(skip_serializing_if = "Option::is_none")]
    children: Option<Vec<NodeFields<'a>>>,
}

/// A guarantee as written: absolute amounts, or a fraction of the parent's.
#[derive(Serialize)]
#[serde(untagged)]
enum GuaranteeField<'a> {
    Vector(&'a [Rational]),
    Fraction(&'a Rational),
}

impl Serialize for TreeDoc<'_> {
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        let tree = self.tree;
        TreeFields {
            resources: tree.resources(),
            capacity: tree.capacity(),
            tree: tree.node_fields(NodeId::ROOT),
        }
        .serialize(serializer)
    }
}
