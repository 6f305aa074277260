//! The model: resources with capacities, users with Leontief demands, optionally grouped
//! into a hierarchy of weighted pools; its validation, its JSON forms and allocations.
//!
//! The definitions are those of `docs/theory.md` §1: user `i` has a per-task demand
//! vector `d_i >= 0` with a positive entry, a weight `w_i > 0` (default 1), an optional task
//! cap `T_i > 0` and optionally per-resource weights `w_ij > 0` (DRF paper §4.3). An
//! allocation gives user `i` a (rational) number of tasks `x_i` and the bundle `x_i d_i`.
//! Pools (`docs/theory.md` §4) group users into a tree: see [`Pool`] and
//! [`crate::hierarchy`]; an instance without pools is flat, the one-level tree.
//!
//! # Example
//! ```
//! use leontief_solver::{Instance, User};
//! let paper = Instance::new(vec![9.into(), 18.into()], vec![
//!     User::new("A", [1, 4]),
//!     User::new("B", [3, 1]),
//! ]).unwrap();
//! assert_eq!(paper.resources(), ["r1", "r2"]);
//! let err = Instance::from_json_str(r#"{"capacity": [9, 18], "users": [{"demand": [1, 4, 0]}]}"#)
//!     .unwrap_err();
//! assert_eq!(err.to_string(), "users[0].demand: expected 2 entries, one per resource, found 3");
//! ```

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::{Arc, OnceLock};

use serde_json::{Map, Value};

use crate::hierarchy::{lay_out, read_tree_form, Hierarchy, NodeSpec};

use crate::json::{check_vector, exact_list, kind, read_names, reject_unknown, Sign};
use crate::{ExactSum, Rational, SolverError};

pub use crate::json::{read_number, read_numbers};

/// One user (tenant, framework, queue): a Leontief demand per task and how much it counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    /// Unique name.
    pub name: String,
    /// Demand of one task, one entry per resource.
    pub demand: Vec<Rational>,
    /// Weight `w_i > 0`.
    pub weight: Rational,
    /// Per-resource weights `w_ij > 0` (DRF paper §4.3); replaces `weight` when present.
    pub resource_weights: Option<Vec<Rational>>,
    /// Task cap `T_i > 0` (the most tasks the user can run); `None` for unbounded demand.
    pub cap: Option<Rational>,
    /// The pool it belongs to (index into [`Instance::pools`]); `None`: directly under the
    /// root.
    pub pool: Option<usize>,
}

impl User {
    /// A user of weight 1 with no cap.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::{Rational, User};
    /// let a = User::new("A", [1, 4]).weight(2).cap(10);
    /// assert_eq!(a.weight, Rational::from(2));
    /// ```
    pub fn new<T: Into<Rational>>(
        name: impl Into<String>,
        demand: impl IntoIterator<Item = T>,
    ) -> Self {
        User {
            name: name.into(),
            demand: demand.into_iter().map(Into::into).collect(),
            weight: Rational::ONE,
            resource_weights: None,
            cap: None,
            pool: None,
        }
    }

    /// Puts the user into pool `p` (an index into the instance's pools).
    pub fn pool(mut self, p: usize) -> Self {
        self.pool = Some(p);
        self
    }

    /// Sets the weight.
    pub fn weight(mut self, weight: impl Into<Rational>) -> Self {
        self.weight = weight.into();
        self
    }

    /// Sets the task cap.
    pub fn cap(mut self, cap: impl Into<Rational>) -> Self {
        self.cap = Some(cap.into());
        self
    }

    /// Sets per-resource weights.
    pub fn resource_weights<T: Into<Rational>>(mut self, w: impl IntoIterator<Item = T>) -> Self {
        self.resource_weights = Some(w.into_iter().map(Into::into).collect());
        self
    }

    /// The weight on resource `j`: `w_ij`, or `w_i` when no vector is given.
    pub fn weight_on(&self, j: usize) -> &Rational {
        match &self.resource_weights {
            Some(w) => &w[j],
            None => &self.weight,
        }
    }
}

/// A pool: an inner node of the hierarchy, holding users and other pools, with a weight
/// among its siblings (`docs/theory.md` §4).
///
/// Pools are listed parents first: a pool's `parent` is the index of an earlier pool, or
/// `None` for a pool directly under the root. Every pool has a user below it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pool {
    /// Its name, unique among its siblings (no `/`, which separates the parts of a path).
    pub name: String,
    /// Its weight among its siblings, `> 0`.
    pub weight: Rational,
    /// Its parent pool (an earlier index); `None`: under the root.
    pub parent: Option<usize>,
}

impl Pool {
    /// A pool of weight 1 under the root.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::{Pool, Rational};
    /// let q = Pool::new("Q").weight(3).parent(0);
    /// assert_eq!((q.weight, q.parent), (Rational::from(3), Some(0)));
    /// ```
    pub fn new(name: impl Into<String>) -> Self {
        Pool {
            name: name.into(),
            weight: Rational::ONE,
            parent: None,
        }
    }

    /// Sets the weight.
    pub fn weight(mut self, weight: impl Into<Rational>) -> Self {
        self.weight = weight.into();
        self
    }

    /// Puts the pool inside pool `p` (an earlier index).
    pub fn parent(mut self, p: usize) -> Self {
        self.parent = Some(p);
        self
    }

    /// Drops the pools with no user below them and renumbers the rest (keeping their
    /// order and the users'): what remains of a tree when users leave.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::{Pool, User};
    /// let (pools, users) = Pool::prune(&[Pool::new("P"), Pool::new("Q")], vec![User::new("y", [1]).pool(1)]);
    /// assert_eq!((pools.len(), pools[0].name.as_str(), users[0].pool), (1, "Q", Some(0)));
    /// ```
    pub fn prune(pools: &[Pool], users: Vec<User>) -> (Vec<Pool>, Vec<User>) {
        prune_pools(pools, users)
    }
}

/// A validated instance. Construct with [`Instance::new`], [`Instance::with_pools`] or
/// [`Instance::from_json_str`]; every instance that exists satisfies the model's conditions.
#[derive(Clone)]
pub struct Instance {
    resources: Vec<String>,
    capacity: Vec<Rational>,
    pools: Vec<Pool>,
    users: Vec<User>,
    /// The tree view, built on first use and shared by clones (see [`Instance::hierarchy`]).
    view: OnceLock<Arc<Hierarchy>>,
}

impl PartialEq for Instance {
    fn eq(&self, other: &Self) -> bool {
        // The view is derived from the other fields.
        self.resources == other.resources
            && self.capacity == other.capacity
            && self.pools == other.pools
            && self.users == other.users
    }
}

impl Eq for Instance {}

impl fmt::Debug for Instance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("Instance");
        d.field("resources", &self.resources)
            .field("capacity", &self.capacity);
        if !self.pools.is_empty() {
            d.field("pools", &self.pools);
        }
        d.field("users", &self.users).finish()
    }
}

// The listings in messages about unknown fields name the pool fields only to documents that
// use pools: a flat document's messages stay those of the flat form.
const USER_FIELDS: &str = "name, demand, weight, weights, tasks";
const USER_FIELDS_POOLS: &str = "name, demand, weight, weights, tasks, pool";
const POOL_FIELDS: &str = "name, weight, parent";
const TOP_FIELDS: &str = "resources, capacity, users (and the free-text about, note)";
const TOP_FIELDS_POOLS: &str = "resources, capacity, pools, users (and the free-text about, note)";

impl Instance {
    /// Validates and builds an instance with resources named `r1..rm`.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::{Instance, User};
    /// let inst = Instance::new(vec![9.into(), 18.into()], vec![User::new("A", [1, 4])]).unwrap();
    /// assert_eq!(inst.num_users(), 1);
    /// assert!(Instance::new(vec![0.into()], vec![User::new("A", [1])]).is_err());
    /// ```
    pub fn new(capacity: Vec<Rational>, users: Vec<User>) -> Result<Self, SolverError> {
        let resources = (1..=capacity.len()).map(|j| format!("r{j}")).collect();
        Self::with_resources(resources, capacity, users)
    }

    /// Validates and builds an instance with named resources.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::{Instance, User};
    /// let inst = Instance::with_resources(
    ///     vec!["cpu".into(), "mem".into()], vec![9.into(), 18.into()],
    ///     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
    /// assert_eq!(inst.resources(), ["cpu", "mem"]);
    /// ```
    pub fn with_resources(
        resources: Vec<String>,
        capacity: Vec<Rational>,
        users: Vec<User>,
    ) -> Result<Self, SolverError> {
        Self::with_pools(resources, capacity, Vec::new(), users)
    }

    /// Validates and builds an instance whose users are grouped into pools (see [`Pool`]).
    ///
    /// # Errors
    /// Besides the flat conditions: a pool's parent that is not an earlier pool
    /// (`pools[k].parent`), a weight that is not positive (`pools[k].weight`), an empty name,
    /// a name with `/` or one used twice among siblings (`pools[k].name`, or
    /// `users[i].name` for a user named like a sibling pool), a user's pool out of range
    /// (`users[i].pool`), a pool with no user below it (`pools[k]`).
    ///
    /// # Example
    /// A weighted pool: P (weight 3) = {x} against y; x is guaranteed 3/4.
    /// ```
    /// use leontief_solver::{Instance, Pool, User};
    /// let inst = Instance::with_pools(vec!["r1".into()], vec![1.into()],
    ///     vec![Pool::new("P").weight(3)],
    ///     vec![User::new("x", [1]).pool(0), User::new("y", [1])]).unwrap();
    /// let h = inst.hierarchy();
    /// assert_eq!(h.node(h.leaf(0)).guaranteed.to_string(), "3/4");
    /// assert_eq!(inst.user_path(0), "P/x");
    /// let bad = Instance::with_pools(vec!["r1".into()], vec![1.into()],
    ///     vec![Pool::new("P").weight(0)], vec![User::new("x", [1]).pool(0)]);
    /// assert_eq!(bad.unwrap_err().to_string(), "pools[0].weight: must be positive, found 0");
    /// ```
    pub fn with_pools(
        resources: Vec<String>,
        capacity: Vec<Rational>,
        pools: Vec<Pool>,
        users: Vec<User>,
    ) -> Result<Self, SolverError> {
        let inst = Instance {
            resources,
            capacity,
            pools,
            users,
            view: OnceLock::new(),
        };
        inst.validate()?;
        Ok(inst)
    }

    /// Validates a tree spec and builds its instance: one pool per inner node below the
    /// root, one user per leaf (in pre-order), errors naming the node by its path in the
    /// tree form (`tree.children[1].demand`). Names must be unique across the tree.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::hierarchy::NodeSpec;
    /// use leontief_solver::Instance;
    /// let inst = Instance::from_tree(vec!["r1".into(), "r2".into()], vec![1.into(), 1.into()],
    ///     &NodeSpec::pool("root", [NodeSpec::leaf("A", [1, 0]),
    ///         NodeSpec::pool("B", [NodeSpec::leaf("B1", [1, 0]), NodeSpec::leaf("B2", [0, 1])])]))
    ///     .unwrap();
    /// assert_eq!((inst.pools().len(), inst.user_path(2).as_str()), (1, "B/B2"));
    /// ```
    pub fn from_tree(
        resources: Vec<String>,
        capacity: Vec<Rational>,
        root: &NodeSpec,
    ) -> Result<Self, SolverError> {
        validate_resources(&resources, &capacity)?;
        let (pools, users) = lay_out(root, capacity.len())?;
        Self::with_pools(resources, capacity, pools, users)
    }

    fn validate(&self) -> Result<(), SolverError> {
        let m = self.capacity.len();
        validate_resources(&self.resources, &self.capacity)?;
        if self.users.is_empty() {
            return Err(SolverError::invalid(
                "users",
                "expected at least one user, found none",
            ));
        }
        self.validate_pools()?;
        let mut names = HashSet::new();
        for (i, u) in self.users.iter().enumerate() {
            let at = |f: &str| format!("users[{i}].{f}");
            if u.name.is_empty() {
                return Err(SolverError::invalid(at("name"), "empty name"));
            }
            if !names.insert(u.name.as_str()) {
                return Err(SolverError::invalid(
                    at("name"),
                    format!("duplicate user name {:?}", u.name),
                ));
            }
            if !self.pools.is_empty() && u.name.contains('/') {
                return Err(SolverError::invalid(
                    at("name"),
                    format!(
                        "{:?} contains '/', which separates the parts of a path (an instance \
                         with pools names its users by their paths)",
                        u.name
                    ),
                ));
            }
            if let Some(p) = u.pool {
                if p >= self.pools.len() {
                    return Err(SolverError::invalid(
                        at("pool"),
                        format!("no pool {p}: the instance has {}", self.pools.len()),
                    ));
                }
            }
            check_vector(&at("demand"), &u.demand, m, Sign::NonNegative)?;
            if u.demand.iter().all(Rational::is_zero) {
                return Err(SolverError::invalid(
                    at("demand"),
                    "all entries are zero; a user must demand some resource",
                ));
            }
            if !u.weight.is_positive() {
                return Err(SolverError::invalid(
                    at("weight"),
                    format!("must be positive, found {}", u.weight),
                ));
            }
            if let Some(w) = &u.resource_weights {
                check_vector(&at("weights"), w, m, Sign::Positive)?;
            }
            if let Some(t) = &u.cap {
                if !t.is_positive() {
                    return Err(SolverError::invalid(
                        at("tasks"),
                        format!("must be positive, found {t}"),
                    ));
                }
            }
        }
        if !self.pools.is_empty() {
            // A user named like a sibling pool would share its path.
            let pool_names: HashSet<(Option<usize>, &str)> = self
                .pools
                .iter()
                .map(|p| (p.parent, p.name.as_str()))
                .collect();
            for (i, u) in self.users.iter().enumerate() {
                if pool_names.contains(&(u.pool, u.name.as_str())) {
                    return Err(SolverError::invalid(
                        format!("users[{i}].name"),
                        format!("{:?} is also the name of a pool beside it", u.name),
                    ));
                }
            }
            // Every pool holds a user (empty pools are not part of the model yet).
            let mut holds = vec![false; self.pools.len()];
            for u in &self.users {
                let mut at = u.pool;
                while let Some(p) = at {
                    if holds[p] {
                        break;
                    }
                    holds[p] = true;
                    at = self.pools[p].parent;
                }
            }
            if let Some(k) = holds.iter().position(|h| !h) {
                return Err(SolverError::invalid(
                    format!("pools[{k}]"),
                    format!(
                        "no user below pool {:?}; a pool must hold a user",
                        self.pool_path(k)
                    ),
                ));
            }
        }
        Ok(())
    }

    fn validate_pools(&self) -> Result<(), SolverError> {
        let mut siblings = HashSet::new();
        for (k, p) in self.pools.iter().enumerate() {
            let at = |f: &str| format!("pools[{k}].{f}");
            if p.name.is_empty() {
                return Err(SolverError::invalid(at("name"), "empty name"));
            }
            if p.name.contains('/') {
                return Err(SolverError::invalid(
                    at("name"),
                    format!(
                        "{:?} contains '/', which separates the parts of a path",
                        p.name
                    ),
                ));
            }
            if !p.weight.is_positive() {
                return Err(SolverError::invalid(
                    at("weight"),
                    format!("must be positive, found {}", p.weight),
                ));
            }
            if let Some(q) = p.parent {
                if q >= k {
                    return Err(SolverError::invalid(
                        at("parent"),
                        format!(
                            "pool {q} is not listed before pool {k} (pools are listed parents first)"
                        ),
                    ));
                }
            }
            if !siblings.insert((p.parent, p.name.as_str())) {
                return Err(SolverError::invalid(
                    at("name"),
                    format!("duplicate pool {:?}", self.pool_path(k)),
                ));
            }
        }
        Ok(())
    }

    /// Reads the JSON form, flat or tree.
    ///
    /// The flat form is
    /// `{"resources": [..], "capacity": [..], "pools": [{"name", "weight", "parent"}],
    /// "users": [{"name", "demand", "weight", "weights", "tasks", "pool"}]}`
    /// (`resources`, `pools`, `name`, `weight`, `weights`, `tasks`, `pool`, `parent`
    /// optional). A pool's `parent` and a user's `pool` name a pool by its **path** from the
    /// root, its ancestors' names and its own joined by `/` (`"P/Q"`), so that a name need
    /// only be unique among its siblings; pools are listed parents first. Numbers may be JSON
    /// numbers (read exactly from their text) or strings `"7"`, `"2.5"`, `"7/3"`.
    ///
    /// The tree form `{"resources", "capacity", "tree": {"name", "weight", "children" |
    /// "demand", "tasks"}}` ([`crate::hierarchy::read_tree_form`]) gives the same instance:
    /// a pool per inner node below the root, a user per leaf in pre-order.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::Instance;
    /// let inst = Instance::from_json_str(r#"{"capacity": [9, 18],
    ///     "users": [{"name": "A", "demand": [1, 4]}, {"name": "B", "demand": ["3", 0.5e1]}]}"#).unwrap();
    /// assert_eq!(inst.users()[1].demand[1].to_string(), "5");
    /// let flat = Instance::from_json_str(r#"{"capacity": [1, 1], "pools": [{"name": "B"}],
    ///     "users": [{"name": "A", "demand": [1, 0]},
    ///               {"name": "B1", "demand": [1, 0], "pool": "B"}, {"name": "B2", "demand": [0, 1], "pool": "B"}]}"#).unwrap();
    /// let tree = Instance::from_json_str(r#"{"capacity": [1, 1], "tree": {"children": [
    ///     {"name": "A", "demand": [1, 0]},
    ///     {"name": "B", "children": [{"name": "B1", "demand": [1, 0]}, {"name": "B2", "demand": [0, 1]}]}]}}"#).unwrap();
    /// assert_eq!(flat, tree);
    /// ```
    pub fn from_json_str(text: &str) -> Result<Self, SolverError> {
        let value: Value = serde_json::from_str(text).map_err(|e| SolverError::json(&e))?;
        Self::from_json(&value)
    }

    /// Reads the JSON form, flat or tree, from a parsed value (see
    /// [`Instance::from_json_str`]).
    pub fn from_json(value: &Value) -> Result<Self, SolverError> {
        let obj = value.as_object().ok_or_else(|| {
            SolverError::invalid(
                "(top level)",
                format!("expected an object, found {}", kind(value)),
            )
        })?;
        if obj.contains_key("tree") {
            let (resources, capacity, root) = read_tree_form(value)?;
            return Self::from_tree(resources, capacity, &root);
        }
        let has_pools = obj.contains_key("pools");
        reject_unknown(
            obj,
            "",
            &["resources", "capacity", "pools", "users", "about", "note"],
            if has_pools {
                TOP_FIELDS_POOLS
            } else {
                TOP_FIELDS
            },
        )?;
        let capacity = match obj.get("capacity") {
            Some(v) => read_numbers("capacity", v)?,
            None => return Err(SolverError::invalid("capacity", "missing")),
        };
        let resources = match obj.get("resources") {
            None => (1..=capacity.len()).map(|j| format!("r{j}")).collect(),
            Some(v) => read_names("resources", v)?,
        };
        let (pools, by_path) = match obj.get("pools") {
            None => (Vec::new(), HashMap::new()),
            Some(v) => read_pools(v)?,
        };
        let users_v = obj
            .get("users")
            .ok_or_else(|| SolverError::invalid("users", "missing"))?;
        let list = users_v.as_array().ok_or_else(|| {
            SolverError::invalid("users", format!("expected a list, found {}", kind(users_v)))
        })?;
        let mut users = Vec::with_capacity(list.len());
        for (i, u) in list.iter().enumerate() {
            users.push(read_user(i, u, &by_path, has_pools)?);
        }
        Self::with_pools(resources, capacity, pools, users)
    }

    /// The JSON form (flat, with `pools` when there are any), with every number an exact
    /// string; [`Instance::from_json`] reads it back.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::{Instance, Pool, User};
    /// let inst = Instance::with_pools(vec!["r1".into()], vec![1.into()],
    ///     vec![Pool::new("P").weight(2), Pool::new("Q").parent(0)],
    ///     vec![User::new("x", [1]).pool(1), User::new("y", [1])]).unwrap();
    /// let json = inst.to_json();
    /// assert_eq!(json["pools"][1], serde_json::json!({"name": "Q", "parent": "P"}));
    /// assert_eq!(json["users"][0]["pool"], "P/Q");
    /// assert_eq!(Instance::from_json(&json).unwrap(), inst);
    /// ```
    pub fn to_json(&self) -> Value {
        let users: Vec<Value> = self
            .users
            .iter()
            .map(|u| {
                let mut o = Map::new();
                o.insert("name".into(), Value::String(u.name.clone()));
                o.insert("demand".into(), exact_list(&u.demand));
                if u.weight != Rational::ONE {
                    o.insert("weight".into(), Value::String(u.weight.to_string()));
                }
                if let Some(w) = &u.resource_weights {
                    o.insert("weights".into(), exact_list(w));
                }
                if let Some(t) = &u.cap {
                    o.insert("tasks".into(), Value::String(t.to_string()));
                }
                if let Some(p) = u.pool {
                    o.insert("pool".into(), Value::String(self.pool_path(p)));
                }
                Value::Object(o)
            })
            .collect();
        let mut o = Map::new();
        o.insert(
            "resources".into(),
            self.resources.iter().cloned().map(Value::String).collect(),
        );
        o.insert("capacity".into(), exact_list(&self.capacity));
        if !self.pools.is_empty() {
            let pools = self
                .pools
                .iter()
                .map(|p| {
                    let mut o = Map::new();
                    o.insert("name".into(), Value::String(p.name.clone()));
                    if p.weight != Rational::ONE {
                        o.insert("weight".into(), Value::String(p.weight.to_string()));
                    }
                    if let Some(q) = p.parent {
                        o.insert("parent".into(), Value::String(self.pool_path(q)));
                    }
                    Value::Object(o)
                })
                .collect();
            o.insert("pools".into(), Value::Array(pools));
        }
        o.insert("users".into(), Value::Array(users));
        Value::Object(o)
    }

    /// The pools, parents first (empty for a flat instance).
    pub fn pools(&self) -> &[Pool] {
        &self.pools
    }

    /// The tree of pools and users, built on first use and then shared by this instance
    /// and its later clones.
    ///
    /// Why cached: the hierarchical mechanisms and the share-guarantee oracle need the
    /// tree on every call, and a search calls them on many derived instances (reports,
    /// grown capacities) whose tree is the same; [`Instance::with_reports`] and
    /// [`Instance::with_capacity`] hand the built view on. Lazily, because flat mechanisms
    /// never look at it.
    pub fn hierarchy(&self) -> &Hierarchy {
        self.view.get_or_init(|| Arc::new(Hierarchy::of(self)))
    }

    /// Pool `p`'s path from the root: its ancestors' names and its own, joined by `/`.
    pub fn pool_path(&self, p: usize) -> String {
        path_of(&self.pools, p)
    }

    /// User `i`'s path from the root (`P/Q/x`; its name when it has no pool): how records
    /// and witnesses name it.
    pub fn user_path(&self, i: usize) -> String {
        let u = &self.users[i];
        match u.pool {
            None => u.name.clone(),
            Some(p) => format!("{}/{}", self.pool_path(p), u.name),
        }
    }

    /// Index of the user whose path is `path` (see [`Instance::user_path`]).
    pub fn user_at_path(&self, path: &str) -> Option<usize> {
        if self.pools.is_empty() {
            return self.user_index(path);
        }
        (0..self.users.len()).find(|&i| self.user_path(i) == path)
    }

    /// Resource names.
    pub fn resources(&self) -> &[String] {
        &self.resources
    }

    /// Capacities `R_j`.
    pub fn capacity(&self) -> &[Rational] {
        &self.capacity
    }

    /// The users.
    pub fn users(&self) -> &[User] {
        &self.users
    }

    /// Number of users `n`.
    pub fn num_users(&self) -> usize {
        self.users.len()
    }

    /// Number of resources `m`.
    pub fn num_resources(&self) -> usize {
        self.capacity.len()
    }

    /// Index of the user called `name`.
    pub fn user_index(&self, name: &str) -> Option<usize> {
        self.users.iter().position(|u| u.name == name)
    }

    /// The dominant share of one task of user `i`: `mu_i = max_j d_ij / R_j`.
    pub fn task_dominant_share(&self, i: usize) -> Rational {
        self.users[i]
            .demand
            .iter()
            .zip(&self.capacity)
            .filter(|(d, _)| !d.is_zero())
            .map(|(d, r)| d / r)
            .max()
            .expect("validated: some demand is positive")
    }

    /// The weighted dominant share of one task of user `i`: `max_j d_ij / (R_j w_ij)`; the
    /// level of progressive filling rises by this much per task.
    pub fn task_weighted_share(&self, i: usize) -> Rational {
        let u = &self.users[i];
        match &u.resource_weights {
            None => self.task_dominant_share(i) / &u.weight,
            Some(w) => u
                .demand
                .iter()
                .zip(&self.capacity)
                .zip(w)
                .filter(|((d, _), _)| !d.is_zero())
                .map(|((d, r), w)| d / &(r * w))
                .max()
                .expect("validated: some demand is positive"),
        }
    }

    /// User `i`'s Leontief utility for a bundle, measured with its (true) demand in this
    /// instance: `min(T_i, min_{j: d_ij > 0} B_j / d_ij)` — tasks it can actually run.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::{Instance, Rational, User};
    /// let inst = Instance::new(vec![9.into(), 18.into()], vec![User::new("A", [1, 4]).cap(2)]).unwrap();
    /// assert_eq!(inst.utility(0, &[3.into(), 8.into()]), Rational::from(2));
    /// ```
    pub fn utility(&self, i: usize, bundle: &[Rational]) -> Rational {
        let u = &self.users[i];
        let runnable = u
            .demand
            .iter()
            .zip(bundle)
            .filter(|(d, _)| !d.is_zero())
            .map(|(d, b)| b / d)
            .min()
            .expect("validated: some demand is positive");
        match &u.cap {
            Some(t) if *t < runnable => t.clone(),
            _ => runnable,
        }
    }

    /// The same instance with a user's demand replaced (a report), validated.
    pub fn with_demand(&self, i: usize, demand: Vec<Rational>) -> Result<Self, SolverError> {
        self.with_reports(&[(i, demand)])
    }

    /// The same instance with several users' demands replaced (a group's reports); only
    /// the reports are validated (the rest already is), so this is cheap enough for a
    /// search's inner loop.
    ///
    /// # Errors
    /// A user index out of range, or a report of the wrong length, with a negative entry or
    /// all zeros (named as `users[i].demand`).
    ///
    /// # Example
    /// ```
    /// use leontief_solver::{Instance, User};
    /// let paper = Instance::new(vec![9.into(), 18.into()],
    ///     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
    /// let lied = paper.with_reports(&[(0, vec![1.into(), 8.into()])]).unwrap();
    /// assert_eq!(lied.users()[0].demand[1], 8.into());
    /// assert!(paper.with_reports(&[(1, vec![0.into(), 0.into()])]).is_err());
    /// ```
    pub fn with_reports(&self, reports: &[(usize, Vec<Rational>)]) -> Result<Self, SolverError> {
        let m = self.capacity.len();
        let mut users = self.users.clone();
        for (i, demand) in reports {
            let at = format!("users[{i}].demand");
            let Some(u) = users.get_mut(*i) else {
                return Err(SolverError::invalid(
                    at,
                    format!("no user {i}: the instance has {}", self.users.len()),
                ));
            };
            check_vector(&at, demand, m, Sign::NonNegative)?;
            if demand.iter().all(Rational::is_zero) {
                return Err(SolverError::invalid(
                    at,
                    "all entries are zero; a user must demand some resource",
                ));
            }
            u.demand.clone_from(demand);
        }
        Ok(Instance {
            resources: self.resources.clone(),
            capacity: self.capacity.clone(),
            pools: self.pools.clone(),
            users,
            // Reports change demands only: the tree stays.
            view: self.view.clone(),
        })
    }

    /// The same instance (users, pools) on other capacities, validated.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::{Instance, User};
    /// let inst = Instance::new(vec![1.into()], vec![User::new("A", [1])]).unwrap();
    /// assert_eq!(inst.with_capacity(vec![4.into()]).unwrap().capacity()[0], 4.into());
    /// assert!(inst.with_capacity(vec![0.into()]).is_err());
    /// ```
    pub fn with_capacity(&self, capacity: Vec<Rational>) -> Result<Self, SolverError> {
        if capacity.len() != self.capacity.len() {
            return Err(SolverError::invalid(
                "capacity",
                format!(
                    "expected {} entries, one per resource, found {}",
                    self.capacity.len(),
                    capacity.len()
                ),
            ));
        }
        validate_resources(&self.resources, &capacity)?;
        Ok(Instance {
            resources: self.resources.clone(),
            capacity,
            pools: self.pools.clone(),
            users: self.users.clone(),
            view: self.view.clone(),
        })
    }

    /// The same pools with other users (validated): what changes a user's fields keeps
    /// its place in the tree.
    pub fn with_users(&self, users: Vec<User>) -> Result<Self, SolverError> {
        Self::with_pools(
            self.resources.clone(),
            self.capacity.clone(),
            self.pools.clone(),
            users,
        )
    }

    /// The instance without user `i` (the others keep their order); a pool left without a
    /// user below it disappears, so the tree is that of the users who stay.
    ///
    /// # Errors
    /// `i` out of range, or the only user.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::{Instance, Pool, User};
    /// let inst = Instance::with_pools(vec!["r1".into()], vec![1.into()],
    ///     vec![Pool::new("P"), Pool::new("Q")],
    ///     vec![User::new("x", [1]).pool(0), User::new("y", [1]).pool(1), User::new("z", [1])]).unwrap();
    /// let smaller = inst.without_user(0).unwrap();
    /// assert_eq!(smaller.pools().len(), 1);
    /// assert_eq!(smaller.user_path(0), "Q/y");
    /// ```
    pub fn without_user(&self, i: usize) -> Result<Self, SolverError> {
        let n = self.users.len();
        if i >= n {
            return Err(SolverError::invalid(
                "users",
                format!("no user {i}: the instance has {n}"),
            ));
        }
        let mut users = self.users.clone();
        users.remove(i);
        let (pools, users) = prune_pools(&self.pools, users);
        Self::with_pools(self.resources.clone(), self.capacity.clone(), pools, users)
    }
}

fn prune_pools(pools: &[Pool], mut users: Vec<User>) -> (Vec<Pool>, Vec<User>) {
    let mut holds = vec![false; pools.len()];
    for u in &users {
        let mut at = u.pool;
        while let Some(p) = at {
            if holds[p] {
                break;
            }
            holds[p] = true;
            at = pools.get(p).and_then(|q| q.parent);
        }
    }
    let mut index = vec![None; pools.len()];
    let mut kept = Vec::new();
    for (p, pool) in pools.iter().enumerate() {
        if holds[p] {
            index[p] = Some(kept.len());
            let mut pool = pool.clone();
            pool.parent = pool.parent.and_then(|q| index[q]);
            kept.push(pool);
        }
    }
    for u in &mut users {
        u.pool = u.pool.and_then(|p| index[p]);
    }
    (kept, users)
}

/// The resource names and capacities: at least one resource, one name per capacity, names
/// non-empty and distinct, capacities positive.
fn validate_resources(resources: &[String], capacity: &[Rational]) -> Result<(), SolverError> {
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
    let mut seen = HashSet::new();
    for (j, name) in resources.iter().enumerate() {
        if name.is_empty() {
            return Err(SolverError::invalid(
                format!("resources[{j}]"),
                "empty name",
            ));
        }
        if !seen.insert(name.as_str()) {
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

/// Reads `pools` (parents first, parents named by path) and the map from each pool's path
/// to its index.
fn read_pools(v: &Value) -> Result<(Vec<Pool>, HashMap<String, usize>), SolverError> {
    let list = v.as_array().ok_or_else(|| {
        SolverError::invalid("pools", format!("expected a list, found {}", kind(v)))
    })?;
    let mut pools = Vec::with_capacity(list.len());
    let mut by_path: HashMap<String, usize> = HashMap::new();
    for (k, p) in list.iter().enumerate() {
        let at = |f: &str| format!("pools[{k}].{f}");
        let obj = p.as_object().ok_or_else(|| {
            SolverError::invalid(
                format!("pools[{k}]"),
                format!("expected an object, found {}", kind(p)),
            )
        })?;
        reject_unknown(
            obj,
            &format!("pools[{k}]"),
            &["name", "weight", "parent"],
            POOL_FIELDS,
        )?;
        let name = match obj.get("name") {
            None => return Err(SolverError::invalid(at("name"), "missing")),
            Some(Value::String(s)) => s.clone(),
            Some(other) => {
                return Err(SolverError::invalid(
                    at("name"),
                    format!("expected a string, found {}", kind(other)),
                ))
            }
        };
        let weight = match obj.get("weight") {
            Some(w) => read_number(&at("weight"), w)?,
            None => Rational::ONE,
        };
        let parent = match obj.get("parent") {
            None | Some(Value::Null) => None,
            Some(Value::String(path)) => Some(*by_path.get(path).ok_or_else(|| {
                SolverError::invalid(
                    at("parent"),
                    format!("unknown pool {path:?} (a parent is listed before its children)"),
                )
            })?),
            Some(other) => {
                return Err(SolverError::invalid(
                    at("parent"),
                    format!("expected a pool's path, found {}", kind(other)),
                ))
            }
        };
        let path = match parent {
            None => name.clone(),
            Some(q) => format!("{}/{name}", path_of(&pools, q)),
        };
        by_path.entry(path).or_insert(k);
        pools.push(Pool {
            name,
            weight,
            parent,
        });
    }
    Ok((pools, by_path))
}

fn path_of(pools: &[Pool], p: usize) -> String {
    let mut parts = vec![pools[p].name.as_str()];
    let mut at = pools[p].parent;
    while let Some(q) = at {
        parts.push(&pools[q].name);
        at = pools[q].parent;
    }
    parts.reverse();
    parts.join("/")
}

/// An allocation: `tasks[i] = x_i`, user `i` receives the bundle `x_i d_i`.
///
/// # Exact and approximate allocations
/// An allocation is *exact* (`tolerance == None`, [`Allocation::new`]) when `tasks` is the
/// mechanism's answer itself. It is *approximate* (`tolerance == Some(t)`,
/// [`Allocation::approximate`]) when `tasks` only approximates the true answer `x*` — e.g.
/// a float solver's answer rounded to rationals — with, for every user `i`,
///
/// `|x_i − x*_i| <= t · max(1, |x*_i|)`
///
/// (relative error `t` for task counts of magnitude at least 1, absolute error `t` below).
/// `t` is read as `|t|`; `t = 0` is an exact answer, and `t >= 1` bounds nothing at all. [`Allocation::error_bound`] turns this into a bound in terms of the
/// computed `x_i`. The property oracles ([`properties`](crate::properties)) count a
/// comparison as a violation only when it holds with a margin larger than this error can
/// explain.
///
/// Equality is structural: the same task counts with different tolerances (or one exact,
/// one approximate) are different allocations, since they claim different things about the
/// true answer. [`Allocation::approximate`] stores a zero tolerance as `None`, so an
/// approximation with `t = 0` equals the exact allocation.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Allocation {
    /// Tasks per user, in the instance's user order.
    pub tasks: Vec<Rational>,
    /// `None` when `tasks` is exact; `Some(t)` when each task count is known only to within
    /// relative error `t`: `|x_i − x*_i| <= t · max(1, |x*_i|)` for the true answer `x*`.
    pub tolerance: Option<Rational>,
}

impl Allocation {
    /// An allocation of `tasks[i]` tasks to user `i`.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::{Allocation, Instance, User};
    /// let inst = Instance::new(vec![9.into(), 18.into()],
    ///     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
    /// let x = Allocation::new(vec![3.into(), 2.into()]);
    /// assert_eq!(x.consumption(&inst), vec![9.into(), 14.into()]);
    /// assert_eq!(x.saturated(&inst), vec![0]);
    /// assert_eq!(x.dominant_share(&inst, 0).to_string(), "2/3");
    /// ```
    pub fn new(tasks: Vec<Rational>) -> Self {
        Allocation {
            tasks,
            tolerance: None,
        }
    }

    /// An approximate allocation: `tasks[i]` is within relative error `tolerance` of the true
    /// answer `x*_i`, `|x_i − x*_i| <= t · max(1, |x*_i|)` with `t = |tolerance|` (see the
    /// [type docs](Allocation)). A zero tolerance gives an exact allocation.
    ///
    /// # Example
    /// A float solver's answer close to the DRF paper's (3, 2), known to within `1e-12`:
    /// ```
    /// use leontief_solver::{Allocation, Rational};
    /// let t = Rational::from_decimal_str("1e-12").unwrap();
    /// let x = Allocation::approximate(
    ///     vec!["2.999999999999".parse().unwrap(), 2.into()], t.clone());
    /// assert_eq!(x.tolerance, Some(t.clone()));
    /// // In terms of the computed count 2: |2 - x*| <= t/(1 - t) * 2.
    /// assert_eq!(x.error_bound(1), Some(Rational::new(2, 999_999_999_999).unwrap()));
    /// assert_eq!(Allocation::approximate(vec![3.into()], 0), Allocation::new(vec![3.into()]));
    /// ```
    pub fn approximate(tasks: Vec<Rational>, tolerance: impl Into<Rational>) -> Self {
        let t = tolerance.into().abs();
        Allocation {
            tasks,
            tolerance: (!t.is_zero()).then_some(t),
        }
    }

    /// A bound on how far user `i`'s computed task count can be from the true one, in terms
    /// of the computed count: `|x_i − x*_i| <= e_i`. `Some(0)` for an exact allocation,
    /// `None` when the tolerance bounds nothing (`|t| >= 1`), otherwise
    /// `e_i = t / (1 − t) · max(1, |x_i|)` with `t = |tolerance|`.
    ///
    /// Why: if `|x*_i| <= 1` the error is at most `t`; otherwise
    /// `|x_i − x*_i| <= t |x*_i| <= t (|x_i| + |x_i − x*_i|)`, so
    /// `|x_i − x*_i| <= t |x_i| / (1 − t)`; both are at most `e_i`.
    ///
    /// # Panics
    /// When `i` is not a user index of the allocation.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::{Allocation, Rational};
    /// let x = Allocation::approximate(vec!["1/2".parse().unwrap(), 10.into()], Rational::new(1, 3).unwrap());
    /// assert_eq!(x.error_bound(0), Some(Rational::new(1, 2).unwrap())); // (1/3)/(2/3) * 1
    /// assert_eq!(x.error_bound(1), Some(5.into()));
    /// assert_eq!(Allocation::new(vec![1.into()]).error_bound(0), Some(0.into()));
    /// assert_eq!(Allocation::approximate(vec![1.into()], 1).error_bound(0), None);
    /// ```
    pub fn error_bound(&self, i: usize) -> Option<Rational> {
        let x = &self.tasks[i];
        let t = match &self.tolerance {
            None => return Some(Rational::ZERO),
            Some(t) => t.abs(),
        };
        if t.is_zero() {
            return Some(Rational::ZERO);
        }
        if t >= Rational::ONE {
            return None;
        }
        let scale = &t / &(Rational::ONE - &t);
        Some(scale * x.abs().max(Rational::ONE))
    }

    /// User `i`'s bundle `x_i d_i`.
    pub fn bundle(&self, instance: &Instance, i: usize) -> Vec<Rational> {
        instance.users[i]
            .demand
            .iter()
            .map(|d| d * &self.tasks[i])
            .collect()
    }

    /// Total use of each resource, `sum_i x_i d_ij`.
    pub fn consumption(&self, instance: &Instance) -> Vec<Rational> {
        (0..instance.num_resources())
            .map(|j| {
                let mut s = ExactSum::new();
                for (u, x) in instance.users.iter().zip(&self.tasks) {
                    if !u.demand[j].is_zero() {
                        s.add(&(&u.demand[j] * x));
                    }
                }
                s.value()
            })
            .collect()
    }

    /// Indices of the resources used to capacity.
    pub fn saturated(&self, instance: &Instance) -> Vec<usize> {
        self.consumption(instance)
            .iter()
            .zip(instance.capacity())
            .enumerate()
            .filter(|(_, (c, r))| c >= r)
            .map(|(j, _)| j)
            .collect()
    }

    /// Whether the allocation respects capacities and caps and gives no negative tasks.
    pub fn is_feasible(&self, instance: &Instance) -> bool {
        self.tasks.len() == instance.num_users()
            && self.tasks.iter().all(|x| !x.is_negative())
            && self
                .tasks
                .iter()
                .zip(instance.users())
                .all(|(x, u)| u.cap.as_ref().is_none_or(|t| x <= t))
            && self
                .consumption(instance)
                .iter()
                .zip(instance.capacity())
                .all(|(c, r)| c <= r)
    }

    /// User `i`'s dominant share `x_i * mu_i`.
    pub fn dominant_share(&self, instance: &Instance, i: usize) -> Rational {
        &self.tasks[i] * &instance.task_dominant_share(i)
    }

    /// User `i`'s weighted dominant share: `x_i max_j d_ij / (R_j w_ij)` (with a scalar
    /// weight, the dominant share over `w_i`).
    pub fn weighted_share(&self, instance: &Instance, i: usize) -> Rational {
        &self.tasks[i] * &instance.task_weighted_share(i)
    }
}

fn read_user(
    i: usize,
    v: &Value,
    pools: &HashMap<String, usize>,
    has_pools: bool,
) -> Result<User, SolverError> {
    let at = |f: &str| format!("users[{i}].{f}");
    let obj = v.as_object().ok_or_else(|| {
        SolverError::invalid(
            format!("users[{i}]"),
            format!("expected an object, found {}", kind(v)),
        )
    })?;
    reject_unknown(
        obj,
        &format!("users[{i}]"),
        &["name", "demand", "weight", "weights", "tasks", "pool"],
        if has_pools {
            USER_FIELDS_POOLS
        } else {
            USER_FIELDS
        },
    )?;
    let name = match obj.get("name") {
        None => format!("u{}", i + 1),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        Some(other) => {
            return Err(SolverError::invalid(
                at("name"),
                format!("expected a string, found {}", kind(other)),
            ))
        }
    };
    let demand = match obj.get("demand") {
        Some(d) => read_numbers(&at("demand"), d)?,
        None => return Err(SolverError::invalid(at("demand"), "missing")),
    };
    if obj.contains_key("weight") && obj.contains_key("weights") {
        return Err(SolverError::invalid(
            at("weights"),
            "give either a scalar weight or per-resource weights, not both",
        ));
    }
    let weight = match obj.get("weight") {
        Some(w) => read_number(&at("weight"), w)?,
        None => Rational::ONE,
    };
    let resource_weights = obj
        .get("weights")
        .map(|w| read_numbers(&at("weights"), w))
        .transpose()?;
    let cap = match obj.get("tasks") {
        None | Some(Value::Null) => None,
        Some(t) => Some(read_number(&at("tasks"), t)?),
    };
    let pool =
        match obj.get("pool") {
            None | Some(Value::Null) => None,
            Some(Value::String(path)) => Some(*pools.get(path).ok_or_else(|| {
                SolverError::invalid(at("pool"), format!("unknown pool {path:?}"))
            })?),
            Some(other) => {
                return Err(SolverError::invalid(
                    at("pool"),
                    format!("expected a pool's path, found {}", kind(other)),
                ))
            }
        };
    Ok(User {
        name,
        demand,
        weight,
        resource_weights,
        cap,
        pool,
    })
}
