//! Weighted trees: an [`Instance`] with pools seen as pools and leaves, addressed by path.
//!
//! A tree has `m` resources with capacities `R_j > 0`. Every node has a name, unique among
//! its siblings (nodes are addressed by path, `root/prod/web`), and a weight `w_v > 0` among
//! its siblings (default 1). A **leaf** (user, operation) has a per-task demand vector
//! `d >= 0` and an optional task cap `T > 0`; a leaf whose demand is all zeros is *idle*. A
//! **pool** has children, possibly none. The root is a pool. Idle leaves and empty pools
//! get nothing ([`Tree::notes`]). Nodes may also carry guarantees, limits, a pool mode and
//! a leaf's usage ([`NodeView::guarantee`], `docs/production.md`).
//!
//! The **guaranteed share** of a node (`docs/theory.md` §4) is `g_root = 1` and
//! `g_v = g_parent * w_v / Σ_{siblings s of v, v included} w_s`, exact.
//!
//! A [`Tree`] is its instance (one pool per inner node below the root, one user per leaf, in
//! pre-order) and that instance's [`Hierarchy`], built once and cached by the instance; it
//! adds only the root's name and weight as written. [`Tree::instance`] is that instance,
//! [`Tree::from_instance`] views an instance as a tree. The tree form
//! is read by the instance's reader ([`read_tree_form`]); it is written as the instance
//! ([`Instance::to_json`], with pools), so a tree file and the same tree written as pools
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
//! use leontief_solver::hierarchy::Tree;
//! let tree = Tree::from_json_str(r#"{"capacity": [1, 1], "tree": {"children": [
//!     {"name": "A", "demand": [1, 0]},
//!     {"name": "B", "weight": 2, "children": [
//!         {"name": "B1", "demand": [1, 0]}, {"name": "B2", "demand": [0, 1]}]}]}}"#).unwrap();
//! let b1 = tree.find("B1").unwrap();
//! assert_eq!(tree.path(b1), "root/B/B1");
//! assert_eq!(tree.node(b1).guaranteed_share().to_string(), "1/3"); // 2/3 of B, split in two
//! ```

use serde_json::Value;

use super::tree_form::check_depth;
use super::{read_tree_form, Hierarchy, NodeSpec, TreeNode};
use crate::model::check_no_slash;
use crate::{Instance, InstanceBuilder, Mode, Rational, Rules, SolverError, User};

/// Index of a node in a [`Tree`]: nodes are numbered in pre-order, the root is 0 (the
/// numbering of the instance's [`Hierarchy`]).
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

/// One node of a [`Tree`], borrowed: its fields read from the tree's instance and hierarchy.
#[derive(Debug, Clone, Copy)]
pub struct NodeView<'a> {
    tree: &'a Tree,
    id: NodeId,
}

impl<'a> NodeView<'a> {
    fn resolved(self) -> &'a TreeNode {
        self.tree.hierarchy().node(self.id.0)
    }

    /// The user (active or idle) of a leaf.
    fn user(self) -> Option<&'a User> {
        let n = self.resolved();
        let instance = &self.tree.instance;
        n.user
            .map(|i| &instance.users()[i])
            .or_else(|| n.idle.map(|k| &instance.idle_users()[k]))
    }

    /// The node's name.
    pub fn name(self) -> &'a str {
        if self.id == NodeId::ROOT {
            &self.tree.root_name
        } else {
            &self.resolved().name
        }
    }

    /// Weight among its siblings.
    pub fn weight(self) -> &'a Rational {
        if self.id == NodeId::ROOT {
            &self.tree.root_weight
        } else {
            &self.resolved().weight
        }
    }

    /// The parent (`None` for the root).
    pub fn parent(self) -> Option<NodeId> {
        self.resolved().parent.map(NodeId)
    }

    /// Children in input order (none for a leaf).
    pub fn children(
        self,
    ) -> impl DoubleEndedIterator<Item = NodeId> + ExactSizeIterator + Clone + 'a {
        self.resolved().children.iter().map(|&c| NodeId(c))
    }

    /// Per-task demand (leaves only).
    pub fn demand(self) -> Option<&'a [Rational]> {
        self.user().map(|u| u.demand.as_slice())
    }

    /// Task cap (leaves with a cap only).
    pub fn cap(self) -> Option<&'a Rational> {
        self.user().and_then(|u| u.cap.as_ref())
    }

    /// Whether this is a leaf.
    pub fn is_leaf(self) -> bool {
        self.resolved().is_leaf()
    }

    /// Guaranteed share `g_v`.
    pub fn guaranteed_share(self) -> &'a Rational {
        &self.resolved().guaranteed
    }

    /// Depth (the root has 0).
    pub fn depth(self) -> usize {
        self.resolved().depth
    }

    /// Its explicit guarantee resolved to absolute amounts (`docs/production.md`): the
    /// capacity for the root, zeros for a leaf without one, the children's sum for a pool
    /// without one.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::hierarchy::Tree;
    /// use leontief_solver::Mode;
    /// let tree = Tree::from_json_str(r#"{"capacity": [8, 4], "tree": {"children": [
    ///     {"name": "prod", "guarantee": "1/2", "limit": [8, 3], "mode": "fifo", "children": [
    ///         {"name": "web", "demand": [1, 1], "usage": [2, 1]}, {"name": "idle", "demand": [0, 0]}]},
    ///     {"name": "dev", "children": [{"name": "web", "demand": [1, 0], "guarantee": [1, 0]}]}]}}"#).unwrap();
    /// let prod = tree.find_path("root/prod").unwrap();
    /// assert_eq!(tree.node(prod).guarantee(), [4.into(), 2.into()]);
    /// assert_eq!(tree.node(prod).limit().unwrap(), [8.into(), 3.into()]);
    /// assert_eq!(tree.node(prod).mode(), Mode::Fifo);
    /// assert_eq!(tree.node(prod).usage(), [2.into(), 1.into()]);
    /// assert!(tree.node(tree.find_path("root/prod/idle").unwrap()).is_idle());
    /// // dev has no guarantee of its own: it guarantees what its children do.
    /// assert_eq!(tree.node(tree.find_path("root/dev").unwrap()).guarantee(), [1.into(), 0.into()]);
    /// ```
    pub fn guarantee(self) -> &'a [Rational] {
        &self.resolved().guarantee
    }

    /// Whether a guarantee was written on it (the root's, the capacity, counts as written).
    pub fn has_guarantee(self) -> bool {
        self.resolved().guarantee_written
    }

    /// Its limit on what its subtree holds, if any.
    pub fn limit(self) -> Option<&'a [Rational]> {
        self.resolved().limit.as_deref()
    }

    /// How it serves its children (`Fair` for leaves and the root).
    pub fn mode(self) -> Mode {
        self.resolved().mode
    }

    /// What it holds now: a leaf's usage, a pool's its leaves' sum.
    pub fn usage(self) -> &'a [Rational] {
        &self.resolved().usage
    }

    /// Whether it is an idle leaf (all-zero demand): it gets nothing.
    pub fn is_idle(self) -> bool {
        self.resolved().idle.is_some()
    }
}

/// A validated weighted tree. See the [module docs](self).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tree {
    /// The model's instance: a user per leaf, in pre-order, a pool per inner node.
    instance: Instance,
    /// The root's name and weight as written (the hierarchy's root is `root`, of weight 1).
    root_name: String,
    root_weight: Rational,
}

impl Tree {
    /// Validates and builds a tree with resources named `r1..rm`: short for
    /// `Tree::build(Instance::builder(capacity).tree(root))`.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::hierarchy::{NodeSpec, Tree};
    /// let tree = Tree::new(vec![1.into(), 1.into()], NodeSpec::pool("root", [
    ///     NodeSpec::leaf("A", [1, 0]),
    ///     NodeSpec::pool("B", [NodeSpec::leaf("B1", [1, 0]), NodeSpec::leaf("B2", [0, 1])]),
    /// ])).unwrap();
    /// assert_eq!(tree.len(), 5);
    /// let err = Tree::new(vec![1.into()], NodeSpec::pool("root", [NodeSpec::leaf("A", [1, 0])]));
    /// assert_eq!(err.unwrap_err().to_string(),
    ///     "tree.children[0].demand: expected 1 entries, one per resource, found 2");
    /// ```
    pub fn new(capacity: Vec<Rational>, root: NodeSpec) -> Result<Tree, SolverError> {
        Self::build(Instance::builder(capacity).tree(root))
    }

    /// Validates and builds the tree an instance builder describes: its tree spec (with the
    /// root's name and weight as written), or else its pools and users
    /// ([`Tree::from_instance`]).
    ///
    /// # Example
    /// ```
    /// use leontief_solver::hierarchy::{NodeSpec, Tree};
    /// use leontief_solver::{Instance, Rules};
    /// let tree = Tree::build(Instance::builder(vec![9.into(), 18.into()])
    ///     .resources(vec!["cpu".into(), "mem".into()])
    ///     .tree(NodeSpec::pool("root", [NodeSpec::leaf("A", [1, 4]), NodeSpec::leaf("B", [3, 1])]))
    ///     .rules(Rules::default())).unwrap();
    /// assert_eq!(tree.resources(), ["cpu", "mem"]);
    /// ```
    pub fn build(builder: InstanceBuilder) -> Result<Tree, SolverError> {
        let Some(root) = &builder.tree else {
            return Tree::from_instance(&builder.build()?);
        };
        let (root_name, root_weight) = (root.name.clone(), root.weight.clone());
        Ok(Tree {
            instance: builder.build()?,
            root_name,
            root_weight,
        })
    }

    /// The tree of an instance's pools and users: the inverse of [`Tree::instance`].
    ///
    /// # Errors
    /// Per-resource weights (`users[i].weights`: a node has one weight), a name containing
    /// `/` (`users[i].name`, `pools[k].name`), a tree deeper than
    /// [`MAX_DEPTH`](super::MAX_DEPTH). (Names need only be unique among siblings, which the
    /// instance already ensures.)
    ///
    /// # Example
    /// ```
    /// use leontief_solver::hierarchy::Tree;
    /// use leontief_solver::{Instance, Pool, User};
    /// let inst = Instance::builder(vec![1.into()])
    ///     .pools(vec![Pool::new("P").weight(3)])
    ///     .users(vec![User::new("x", [1]).pool(0), User::new("y", [1])])
    ///     .build().unwrap();
    /// let tree = Tree::from_instance(&inst).unwrap();
    /// assert_eq!(tree.node(tree.find("x").unwrap()).guaranteed_share().to_string(), "3/4");
    /// assert_eq!(tree.instance(), &inst);
    /// ```
    pub fn from_instance(instance: &Instance) -> Result<Tree, SolverError> {
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
            check_depth(&field, node.depth)?;
            check_no_slash(&node.name, || field)?;
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
        Ok(Tree {
            instance,
            root_name: "root".into(),
            root_weight: Rational::ONE,
        })
    }

    /// The model's instance of the tree: a pool per inner node below the root, a user per
    /// leaf (named as the leaf, in pre-order: user `k` is the `k`-th leaf), weights and caps
    /// as the nodes'.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::hierarchy::{NodeSpec, Tree};
    /// use leontief_solver::Instance;
    /// let tree = Tree::new(vec![1.into()], NodeSpec::pool("root", [
    ///     NodeSpec::pool("P", [NodeSpec::leaf("x", [1]).weight(2)]).weight(3),
    ///     NodeSpec::leaf("y", [1]),
    /// ])).unwrap();
    /// let inst = tree.instance();
    /// assert_eq!((inst.pools()[0].name.as_str(), inst.pools()[0].weight.to_string()), ("P", "3".into()));
    /// assert_eq!(inst.user_path(0), "P/x");
    /// assert_eq!(&Tree::from_instance(inst).unwrap(), &tree);
    /// // Written as the instance, with pools, and read back.
    /// let back = Instance::from_json(&inst.to_json()).unwrap();
    /// assert_eq!(Tree::from_instance(&back).unwrap(), tree);
    /// ```
    pub fn instance(&self) -> &Instance {
        &self.instance
    }

    /// The instance's hierarchy: the tree's nodes, resolved (built once, by the instance).
    pub fn hierarchy(&self) -> &Hierarchy {
        self.instance.hierarchy()
    }

    /// Reads the JSON form (see the [module docs](self)).
    ///
    /// # Example
    /// ```
    /// use leontief_solver::hierarchy::Tree;
    /// let err = Tree::from_json_str(r#"{"capacity": [1, 1], "tree": {"children": [
    ///     {"name": "A", "demand": [1, 0]},
    ///     {"name": "B", "children": [{"name": "B1", "demand": [1, 0, 2]}]}]}}"#).unwrap_err();
    /// assert_eq!(err.to_string(),
    ///     "tree.children[1].children[0].demand: expected 2 entries, one per resource, found 3");
    /// ```
    pub fn from_json_str(text: &str) -> Result<Tree, SolverError> {
        Self::from_json(&crate::json::parse_strict(text)?)
    }

    /// Reads the JSON form from a parsed value (see [`Tree::from_json_str`]).
    ///
    /// # Example
    /// ```
    /// use leontief_solver::hierarchy::Tree;
    /// let doc = serde_json::json!({"resources": ["cpu", "mem"], "capacity": [1, "1/2"],
    ///     "tree": {"name": "all", "children": [{"name": "A", "demand": [1, 0], "tasks": 0.5}]}});
    /// let tree = Tree::from_json(&doc).unwrap();
    /// assert_eq!(tree.path(tree.find("A").unwrap()), "all/A");
    /// assert_eq!(tree.capacity()[1].to_string(), "1/2");
    /// ```
    pub fn from_json(value: &Value) -> Result<Tree, SolverError> {
        Self::from_json_with(value, Rules::default())
    }

    /// [`Tree::from_json`], resolving guarantees and limits by `rules`.
    pub fn from_json_with(value: &Value, rules: Rules) -> Result<Tree, SolverError> {
        Self::build(read_tree_form(value)?.rules(rules))
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
    #[allow(clippy::len_without_is_empty)] // a tree always has a root
    pub fn len(&self) -> usize {
        self.hierarchy().len()
    }

    /// The root.
    pub fn root(&self) -> NodeId {
        NodeId::ROOT
    }

    /// Every node, in pre-order (a parent before its children, siblings in input order).
    pub fn nodes(
        &self,
    ) -> impl DoubleEndedIterator<Item = NodeId> + ExactSizeIterator + Clone + '_ {
        (0..self.len()).map(NodeId)
    }

    /// The leaves, in pre-order.
    pub fn leaves(&self) -> impl DoubleEndedIterator<Item = NodeId> + '_ {
        self.nodes().filter(|&v| self.node(v).is_leaf())
    }

    /// The pools, in pre-order (the root first).
    pub fn pools(&self) -> impl DoubleEndedIterator<Item = NodeId> + '_ {
        self.nodes().filter(|&v| !self.node(v).is_leaf())
    }

    /// The node `v`.
    ///
    /// # Panics
    /// When `v` belongs to another, larger tree (on reading a field).
    pub fn node(&self, v: NodeId) -> NodeView<'_> {
        NodeView { tree: self, id: v }
    }

    /// The node with pre-order index `index`, if there is one.
    pub fn node_id(&self, index: usize) -> Option<NodeId> {
        (index < self.len()).then_some(NodeId(index))
    }

    /// The first node (in pre-order) called `name`; names repeat across pools, so
    /// [`Tree::find_path`] is the exact address.
    pub fn find(&self, name: &str) -> Option<NodeId> {
        self.nodes().find(|&v| self.node(v).name() == name)
    }

    /// The node at `path` (as printed by [`Tree::path`], e.g. `root/B/B1`).
    ///
    /// # Example
    /// ```
    /// use leontief_solver::hierarchy::{NodeSpec, Tree};
    /// let tree = Tree::new(vec![1.into()], NodeSpec::pool("root", [
    ///     NodeSpec::pool("B", [NodeSpec::leaf("B1", [1])])])).unwrap();
    /// assert_eq!(tree.find_path("root/B/B1"), tree.find("B1"));
    /// assert_eq!(tree.find_path("root/B1"), None);
    /// ```
    pub fn find_path(&self, path: &str) -> Option<NodeId> {
        let mut parts = path.split('/');
        if parts.next()? != self.root_name {
            return None;
        }
        let mut v = NodeId::ROOT;
        for part in parts {
            v = self
                .node(v)
                .children()
                .find(|&c| self.node(c).name() == part)?;
        }
        Some(v)
    }

    /// The names from the root down to `v`, joined by `/`, e.g. `root/B/B1`.
    pub fn path(&self, v: NodeId) -> String {
        let below = self.hierarchy().path(v.0);
        if below.is_empty() {
            self.root_name.clone()
        } else {
            format!("{}/{below}", self.root_name)
        }
    }

    /// Whether any node has a guarantee, limit, FIFO mode or usage, or the tree an idle leaf
    /// or an empty pool: when not, every policy allocates as before these existed.
    pub fn has_production_fields(&self) -> bool {
        self.instance.has_production_fields() || self.pools().any(|v| self.is_empty_pool(v))
    }

    /// Whether `v` is a pool without children.
    fn is_empty_pool(&self, v: NodeId) -> bool {
        let n = self.node(v);
        !n.is_leaf() && n.children().len() == 0
    }

    /// What the output should say about the tree's shape: every idle leaf and every pool
    /// with nothing below it, which get nothing.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::hierarchy::Tree;
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
                if self.node(v).is_idle() {
                    Some(format!(
                        "{}: idle leaf (all-zero demand); it gets nothing",
                        self.path(v)
                    ))
                } else if self.is_empty_pool(v) {
                    Some(format!("{}: empty pool; it gets nothing", self.path(v)))
                } else {
                    None
                }
            })
            .collect()
    }

    /// The nodes of `v`'s subtree, `v` first, in pre-order.
    pub fn subtree(&self, v: NodeId) -> Vec<NodeId> {
        self.hierarchy().subtree(v.0).map(NodeId).collect()
    }

    /// `v` and its ancestors, up to the root.
    pub fn ancestors(&self, v: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        self.hierarchy().ancestors(v.0).map(NodeId)
    }

    /// The dominant share of one task of leaf `v`: `mu_v = max_j d_vj / R_j` (`None` for a
    /// pool or an idle leaf).
    pub fn task_dominant_share(&self, v: NodeId) -> Option<Rational> {
        // An idle leaf demands nothing: it has none either.
        (self.node(v).resolved().user).map(|i| self.instance.task_dominant_share(i))
    }

    /// The flat instance of the leaves, each weighted by its guaranteed share `g_leaf`
    /// (users in pre-order, named as the leaves): what the `collapsed` policy allocates.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::hierarchy::{NodeSpec, Tree};
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
            .filter(|&v| !self.node(v).is_idle())
            .map(|v| {
                let n = self.node(v);
                User {
                    cap: n.cap().cloned(),
                    ..User::new(n.name(), n.demand().unwrap_or_default().to_vec())
                        .weight(n.guaranteed_share().clone())
                }
            })
            .collect();
        Instance::builder(self.capacity().to_vec())
            .resources(self.resources().to_vec())
            .users(users)
            .build()
            .expect("a valid tree's leaves form a valid instance")
    }
}
