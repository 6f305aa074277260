//! Weighted trees: pools and leaves, their JSON form, validation and guaranteed shares.
//!
//! A tree has `m` resources with capacities `R_j > 0`. Every node has a name, unique across
//! the whole tree, and a weight `w_v > 0` among its siblings (default 1). A **leaf**
//! (user, operation) has a per-task demand vector `d >= 0` with a positive entry and an
//! optional task cap `T > 0`; a **pool** has at least one child. The root is a pool.
//!
//! The **guaranteed share** of a node (`SPEC.md` §4) is `g_root = 1` and
//! `g_v = g_parent * w_v / Σ_{siblings s of v, v included} w_s`, exact.
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

use std::collections::HashMap;

use leontief_solver::{read_number, read_numbers, Instance, Rational, User};
use serde_json::{Map, Value};

use crate::error::{kind, reject_unknown, Result, SolverError};
use leontief_solver::json::read_names;

/// The deepest tree accepted (the root has depth 0). Deeper inputs are rejected rather than
/// risking the stack on recursive reading.
pub const MAX_DEPTH: usize = 64;

const NODE_FIELDS: &[&str] = &["name", "weight", "demand", "tasks", "children"];
const TOP_FIELDS: &[&str] = &["resources", "capacity", "tree", "about", "note"];

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

/// A node as written in the input, before validation: what [`Tree::new`] takes.
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
}

impl NodeSpec {
    /// A leaf of weight 1 without cap.
    ///
    /// # Example
    /// ```
    /// use leontief_hdrf::NodeSpec;
    /// let a = NodeSpec::leaf("A", [1, 0]).weight(2).cap(5);
    /// assert_eq!(a.cap.unwrap().to_string(), "5");
    /// ```
    pub fn leaf<T: Into<Rational>>(
        name: impl Into<String>,
        demand: impl IntoIterator<Item = T>,
    ) -> Self {
        NodeSpec {
            name: name.into(),
            weight: Rational::ONE,
            demand: Some(demand.into_iter().map(Into::into).collect()),
            cap: None,
            children: None,
        }
    }

    /// A pool of weight 1.
    ///
    /// # Example
    /// ```
    /// use leontief_hdrf::NodeSpec;
    /// let b = NodeSpec::pool("B", [NodeSpec::leaf("B1", [1, 0]), NodeSpec::leaf("B2", [0, 1])]);
    /// assert_eq!(b.children.unwrap().len(), 2);
    /// ```
    pub fn pool(name: impl Into<String>, children: impl IntoIterator<Item = NodeSpec>) -> Self {
        NodeSpec {
            name: name.into(),
            weight: Rational::ONE,
            demand: None,
            cap: None,
            children: Some(children.into_iter().collect()),
        }
    }

    /// Sets the weight.
    pub fn weight(mut self, weight: impl Into<Rational>) -> Self {
        self.weight = weight.into();
        self
    }

    /// Sets the task cap (leaves only; a pool with a cap is rejected by validation).
    pub fn cap(mut self, cap: impl Into<Rational>) -> Self {
        self.cap = Some(cap.into());
        self
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
}

/// A validated weighted tree. See the [module docs](self).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tree {
    resources: Vec<String>,
    capacity: Vec<Rational>,
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
        validate_resources(&resources, &capacity)?;
        if root.children.is_none() {
            return Err(SolverError::invalid(
                "tree",
                "the root must be a pool (a node with children)",
            ));
        }
        let mut tree = Tree {
            resources,
            capacity,
            nodes: Vec::new(),
        };
        let mut names: HashMap<String, String> = HashMap::new();
        tree.add(&root, None, "tree".to_string(), 0, &mut names)?;
        tree.compute_guarantees();
        Ok(tree)
    }

    /// Adds `spec` and its subtree in pre-order, validating as it goes.
    fn add(
        &mut self,
        spec: &NodeSpec,
        parent: Option<NodeId>,
        at: String,
        depth: usize,
        names: &mut HashMap<String, String>,
    ) -> Result<NodeId> {
        let m = self.capacity.len();
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
        if let Some(first) = names.get(&spec.name) {
            return Err(SolverError::invalid(
                field("name"),
                format!(
                    "duplicate node name {:?} (first used at {first}); names must be unique across the tree",
                    spec.name
                ),
            ));
        }
        names.insert(spec.name.clone(), at.clone());
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
        let id = NodeId(self.nodes.len());
        self.nodes.push(Node {
            name: spec.name.clone(),
            weight: spec.weight.clone(),
            parent,
            children: Vec::new(),
            demand: None,
            cap: None,
            guaranteed: Rational::ZERO,
            depth,
        });
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
            if demand.iter().all(Rational::is_zero) {
                return Err(SolverError::invalid(
                    field("demand"),
                    "all entries are zero; a leaf must demand some resource",
                ));
            }
            if let Some(t) = &spec.cap {
                if !t.is_positive() {
                    return Err(SolverError::invalid(
                        field("tasks"),
                        format!("must be positive, found {t}"),
                    ));
                }
            }
            self.nodes[id.0].demand = Some(demand.clone());
            self.nodes[id.0].cap = spec.cap.clone();
        } else if let Some(children) = &spec.children {
            if spec.cap.is_some() {
                return Err(SolverError::invalid(
                    field("tasks"),
                    "only a leaf has a task cap; a pool's demand is its leaves'",
                ));
            }
            if children.is_empty() {
                return Err(SolverError::invalid(
                    field("children"),
                    "a pool needs at least one child",
                ));
            }
            for (k, child) in children.iter().enumerate() {
                let c = self.add(
                    child,
                    Some(id),
                    format!("{at}.children[{k}]"),
                    depth + 1,
                    names,
                )?;
                self.nodes[id.0].children.push(c);
            }
        }
        Ok(id)
    }

    fn compute_guarantees(&mut self) {
        self.nodes[0].guaranteed = Rational::ONE;
        // Pre-order: a parent's share is known before its children's.
        for v in 0..self.nodes.len() {
            let children = self.nodes[v].children.clone();
            let total: Rational = children.iter().map(|c| &self.nodes[c.0].weight).sum();
            let g = self.nodes[v].guaranteed.clone();
            for c in children {
                let share = &g * &self.nodes[c.0].weight / &total;
                self.nodes[c.0].guaranteed = share;
            }
        }
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
        let obj = value.as_object().ok_or_else(|| {
            SolverError::invalid(
                "(top level)",
                format!("expected an object, found {}", kind(value)),
            )
        })?;
        reject_unknown(obj, "", TOP_FIELDS)?;
        let capacity = match obj.get("capacity") {
            Some(v) => read_numbers("capacity", v)?,
            None => return Err(SolverError::invalid("capacity", "missing")),
        };
        let resources = match obj.get("resources") {
            None => (1..=capacity.len()).map(|j| format!("r{j}")).collect(),
            Some(v) => read_names("resources", v)?,
        };
        let root = match obj.get("tree") {
            Some(v) => read_node(v, "tree", 0)?,
            None => return Err(SolverError::invalid("tree", "missing")),
        };
        Self::with_resources(resources, capacity, root)
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
        let mut o = Map::new();
        o.insert(
            "resources".into(),
            self.resources.iter().cloned().map(Value::String).collect(),
        );
        o.insert("capacity".into(), exact_list(&self.capacity));
        o.insert("tree".into(), self.node_json(NodeId::ROOT));
        Value::Object(o)
    }

    fn node_json(&self, v: NodeId) -> Value {
        let n = &self.nodes[v.0];
        let mut o = Map::new();
        o.insert("name".into(), Value::String(n.name.clone()));
        if n.weight != Rational::ONE {
            o.insert("weight".into(), Value::String(n.weight.to_string()));
        }
        match &n.demand {
            Some(d) => {
                o.insert("demand".into(), exact_list(d));
                if let Some(t) = &n.cap {
                    o.insert("tasks".into(), Value::String(t.to_string()));
                }
            }
            None => {
                let children = n.children.iter().map(|&c| self.node_json(c)).collect();
                o.insert("children".into(), Value::Array(children));
            }
        }
        Value::Object(o)
    }

    /// Resource names.
    pub fn resources(&self) -> &[String] {
        &self.resources
    }

    /// Capacities `R_j`.
    pub fn capacity(&self) -> &[Rational] {
        &self.capacity
    }

    /// Number of resources `m`.
    pub fn num_resources(&self) -> usize {
        self.capacity.len()
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

    /// The node called `name`.
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
            .zip(&self.capacity)
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
        Instance::with_resources(self.resources.clone(), self.capacity.clone(), users)
            .expect("a valid tree's leaves form a valid instance")
    }
}

fn validate_resources(resources: &[String], capacity: &[Rational]) -> Result<()> {
    let m = capacity.len();
    if m == 0 {
        return Err(SolverError::invalid(
            "capacity",
            "expected at least one resource, found none",
        ));
    }
    if resources.len() != m {
        return Err(SolverError::invalid(
            "resources",
            format!(
                "expected {m} names, one per capacity entry, found {}",
                resources.len()
            ),
        ));
    }
    for (j, name) in resources.iter().enumerate() {
        if name.is_empty() {
            return Err(SolverError::invalid(
                format!("resources[{j}]"),
                "empty name",
            ));
        }
        if resources[..j].contains(name) {
            return Err(SolverError::invalid(
                format!("resources[{j}]"),
                format!("duplicate resource name {name:?}"),
            ));
        }
    }
    for (j, c) in capacity.iter().enumerate() {
        if !c.is_positive() {
            return Err(SolverError::invalid(
                format!("capacity[{j}]"),
                format!("must be positive, found {c}"),
            ));
        }
    }
    Ok(())
}

/// Reads one node at path `at` (structure only; values are validated by [`Tree::add`]).
fn read_node(v: &Value, at: &str, depth: usize) -> Result<NodeSpec> {
    if depth > MAX_DEPTH {
        return Err(SolverError::invalid(
            at,
            format!("the tree is deeper than {MAX_DEPTH} levels"),
        ));
    }
    let obj = v.as_object().ok_or_else(|| {
        SolverError::invalid(at, format!("expected an object, found {}", kind(v)))
    })?;
    reject_unknown(obj, at, NODE_FIELDS)?;
    let field = |f: &str| format!("{at}.{f}");
    let name = match obj.get("name") {
        None if depth == 0 => "root".to_string(),
        None => return Err(SolverError::invalid(field("name"), "missing")),
        Some(Value::String(s)) => s.clone(),
        Some(other) => {
            return Err(SolverError::invalid(
                field("name"),
                format!("expected a string, found {}", kind(other)),
            ))
        }
    };
    let weight = match obj.get("weight") {
        Some(w) => read_number(&field("weight"), w)?,
        None => Rational::ONE,
    };
    let demand = obj
        .get("demand")
        .map(|d| read_numbers(&field("demand"), d))
        .transpose()?;
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
                .collect::<Result<Vec<_>>>()?,
        ),
        Some(other) => {
            return Err(SolverError::invalid(
                field("children"),
                format!("expected a list of nodes, found {}", kind(other)),
            ))
        }
    };
    Ok(NodeSpec {
        name,
        weight,
        demand,
        cap,
        children,
    })
}

pub(crate) fn exact_list(v: &[Rational]) -> Value {
    Value::Array(v.iter().map(|x| Value::String(x.to_string())).collect())
}
