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

use std::collections::HashSet;
use std::fmt;
use std::sync::{Arc, OnceLock};

use crate::hierarchy::{lay_out, Field, Hierarchy, NodeSpec};

use crate::json::{check_vector, Sign};
use crate::{Rational, SolverError};

pub use crate::json::{read_number, read_numbers};
pub use allocation::Allocation;
pub use production::{Guarantee, GuaranteeRule, LimitBelowGuarantee, Mode, Oversubscribed, Rules};

pub(crate) use json::Production;

mod allocation;
mod flat_fast;
mod json;
mod production;

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
    /// Its guarantee, as written (see [`Guarantee`]; resolved on the tree view).
    pub guarantee: Option<Guarantee>,
    /// A cap on what it holds, one entry per resource.
    pub limit: Option<Vec<Rational>>,
    /// What it holds now, one entry per resource (`None`: nothing).
    pub usage: Option<Vec<Rational>>,
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
            guarantee: None,
            limit: None,
            usage: None,
        }
    }

    /// Sets the guarantee (an absolute vector or a fraction of the parent's).
    pub fn guarantee(mut self, g: Guarantee) -> Self {
        self.guarantee = Some(g);
        self
    }

    /// Sets the limit vector.
    pub fn limit<T: Into<Rational>>(mut self, l: impl IntoIterator<Item = T>) -> Self {
        self.limit = Some(l.into_iter().map(Into::into).collect());
        self
    }

    /// Sets the running usage vector.
    pub fn usage<T: Into<Rational>>(mut self, u: impl IntoIterator<Item = T>) -> Self {
        self.usage = Some(u.into_iter().map(Into::into).collect());
        self
    }

    /// Whether it is idle: its demand is all zeros (it wants nothing and gets nothing).
    pub fn is_idle(&self) -> bool {
        self.demand.iter().all(Rational::is_zero)
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
    /// Its guarantee, as written (see [`Guarantee`]; resolved on the tree view).
    pub guarantee: Option<Guarantee>,
    /// A cap on what its subtree holds, one entry per resource.
    pub limit: Option<Vec<Rational>>,
    /// How it serves its children.
    pub mode: Mode,
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
            guarantee: None,
            limit: None,
            mode: Mode::Fair,
        }
    }

    /// Sets the guarantee (an absolute vector or a fraction of the parent's).
    pub fn guarantee(mut self, g: Guarantee) -> Self {
        self.guarantee = Some(g);
        self
    }

    /// Sets the limit vector.
    pub fn limit<T: Into<Rational>>(mut self, l: impl IntoIterator<Item = T>) -> Self {
        self.limit = Some(l.into_iter().map(Into::into).collect());
        self
    }

    /// Sets the mode.
    pub fn mode(mut self, mode: Mode) -> Self {
        self.mode = mode;
        self
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
    /// The idle leaves (all-zero demand), kept apart from `users` so that every mechanism
    /// sees users who demand something; listed after the users in the JSON form.
    idle: Vec<User>,
    /// Whether the instance was read as a tree (pools or the tree form): its names need only
    /// be unique among siblings and idle leaves are allowed.
    hierarchical: bool,
    /// How guarantees and limits are resolved.
    rules: Rules,
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
            && self.idle == other.idle
            && self.rules == other.rules
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
        d.field("users", &self.users);
        if !self.idle.is_empty() {
            d.field("idle", &self.idle);
        }
        d.finish()
    }
}

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
        Self::build(
            resources,
            capacity,
            Vec::new(),
            users,
            (false, false),
            Rules::default(),
        )
    }

    /// Validates and builds an instance whose users are grouped into pools (see [`Pool`]).
    ///
    /// # Errors
    /// Besides the flat conditions: a pool's parent that is not an earlier pool
    /// (`pools[k].parent`), a weight that is not positive (`pools[k].weight`), an empty name,
    /// a name with `/` or one used twice among siblings (`pools[k].name`, or
    /// `users[i].name` for a user named like a sibling pool), a user's pool out of range
    /// (`users[i].pool`). A pool with nothing below it is allowed: it gets nothing.
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
        // Built in code, every user demands something, as before trees had idle leaves.
        Self::build(
            resources,
            capacity,
            pools,
            users,
            (true, false),
            Rules::default(),
        )
    }

    /// [`Instance::with_pools`], resolving guarantees and limits with `rules` (see
    /// [`Rules`] and `docs/production.md`).
    ///
    /// A tree's names need only be unique among siblings. Unlike [`Instance::with_pools`]
    /// (whose users all demand something, as every instance built in code did before idle
    /// leaves), users whose demand is all zeros are accepted as the tree's *idle* leaves
    /// ([`Instance::idle_users`]), kept apart from [`Instance::users`]: they get nothing.
    ///
    /// # Errors
    /// Those of [`Instance::with_pools`], and the production fields': a vector of the wrong
    /// length or with a negative entry, a fraction outside `[0, 1]` or under a pool without
    /// a guarantee, a usage above the capacity (one leaf's, or all leaves' together), a
    /// limit below the guarantee and children's guarantees above their parent's (unless
    /// `rules` say otherwise), each naming the field (`pools[k].limit`, `users[i].usage`).
    pub fn with_pools_and_rules(
        resources: Vec<String>,
        capacity: Vec<Rational>,
        pools: Vec<Pool>,
        users: Vec<User>,
        rules: Rules,
    ) -> Result<Self, SolverError> {
        Self::build(resources, capacity, pools, users, (true, true), rules)
    }

    /// Validates and builds; `hierarchical`: names unique among siblings, idle leaves
    /// allowed.
    fn build(
        resources: Vec<String>,
        capacity: Vec<Rational>,
        pools: Vec<Pool>,
        users: Vec<User>,
        (hierarchical, allow_idle): (bool, bool),
        rules: Rules,
    ) -> Result<Self, SolverError> {
        let mut inst = Instance {
            resources,
            capacity,
            pools,
            users,
            idle: Vec::new(),
            hierarchical,
            rules,
            view: OnceLock::new(),
        };
        inst.validate(allow_idle)?;
        // Where each user (active, then idle) was in the list given, for messages.
        let mut given = Vec::with_capacity(inst.users.len());
        let mut idle_given = Vec::new();
        // Moving every user through the partition costs a copy of the list; most instances
        // have no idle leaf.
        if hierarchical && inst.users.iter().any(User::is_idle) {
            let (idle, active): (Vec<_>, Vec<_>) = std::mem::take(&mut inst.users)
                .into_iter()
                .enumerate()
                .partition(|(_, u)| u.is_idle());
            given = active.iter().map(|(i, _)| *i).collect();
            idle_given = idle.iter().map(|(i, _)| *i).collect();
            inst.users = active.into_iter().map(|(_, u)| u).collect();
            inst.idle = idle.into_iter().map(|(_, u)| u).collect();
            // A tree whose leaves are all idle, or that has none, is valid: everyone gets
            // nothing, and the notes say so.
        } else {
            given.extend(0..inst.users.len());
        }
        // Without guarantees, limits, modes, usages or idle leaves nothing in the tree can
        // fail to resolve, so the view is left to be built on first use: flat mechanisms
        // never look at it, and at a million users it is a large part of the memory.
        if !inst.has_production_fields() {
            return Ok(inst);
        }
        let view = Hierarchy::resolve(&inst, &|f| match f {
            Field::Root => "users".to_string(),
            Field::Pool(k) => format!("pools[{k}]"),
            Field::User(i) => format!("users[{}]", given[i]),
            Field::Idle(k) => format!("users[{}]", idle_given[k]),
        })?;
        let _ = inst.view.set(Arc::new(view));
        Ok(inst)
    }

    /// The same instance resolved with other rules (see [`Rules`]).
    pub fn with_rules(&self, rules: Rules) -> Result<Self, SolverError> {
        let mut users = self.users.clone();
        users.extend(self.idle.iter().cloned());
        Self::build(
            self.resources.clone(),
            self.capacity.clone(),
            self.pools.clone(),
            users,
            (self.hierarchical, true),
            rules,
        )
    }

    /// The rules its guarantees and limits were resolved with.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The idle leaves: users of a tree whose demand is all zeros (they get nothing), in the
    /// order given; not among [`Instance::users`].
    pub fn idle_users(&self) -> &[User] {
        &self.idle
    }

    /// Idle leaf `k`'s path from the root (see [`Instance::user_path`]).
    pub fn idle_path(&self, k: usize) -> String {
        let u = &self.idle[k];
        match u.pool {
            None => u.name.clone(),
            Some(p) => format!("{}/{}", self.pool_path(p), u.name),
        }
    }

    /// Whether any node has a production field (a guarantee, a limit, a FIFO mode or a
    /// usage) or the tree has idle leaves: when not, every policy behaves as before these
    /// fields existed.
    pub fn has_production_fields(&self) -> bool {
        !self.idle.is_empty() || self.has_production_rules()
    }

    /// Whether any node, idle leaves included, has a guarantee, a limit, a FIFO mode or a
    /// usage (the fields that change what a node is owed or may hold).
    pub fn has_production_rules(&self) -> bool {
        self.idle
            .iter()
            .any(|u| u.guarantee.is_some() || u.limit.is_some() || u.usage.is_some())
            || self
                .pools
                .iter()
                .any(|p| p.guarantee.is_some() || p.limit.is_some() || p.mode != Mode::Fair)
            || self
                .users
                .iter()
                .any(|u| u.guarantee.is_some() || u.limit.is_some() || u.usage.is_some())
    }

    /// How user `i` is keyed in allocations and reports: its name when no other user has
    /// it (so every instance that was valid before keeps its keys), its path (`P/Q/x`) when
    /// two users in different pools share the name.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::Instance;
    /// let inst = Instance::from_json_str(r#"{"capacity": [1], "tree": {"children": [
    ///     {"name": "a", "children": [{"name": "web", "demand": [1]}]},
    ///     {"name": "b", "children": [{"name": "web", "demand": [1]}]}]}}"#).unwrap();
    /// assert_eq!((inst.user_key(0), inst.user_key(1)), ("a/web".to_string(), "b/web".to_string()));
    /// ```
    pub fn user_key(&self, i: usize) -> String {
        let name = &self.users[i].name;
        if self.users.iter().filter(|u| &u.name == name).count() > 1 {
            self.user_path(i)
        } else {
            name.clone()
        }
    }

    /// Validates a tree spec and builds its instance: one pool per inner node below the
    /// root, one user per leaf (in pre-order; idle leaves apart, see
    /// [`Instance::idle_users`]), errors naming the node by its path in the tree form
    /// (`tree.children[1].demand`). Names need only be unique among siblings.
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
        Self::from_tree_with(resources, capacity, root, Rules::default())
    }

    /// [`Instance::from_tree`] with guarantees and limits resolved by `rules`; every error
    /// names the node by its path in the tree form (`tree.children[1].guarantee`).
    pub fn from_tree_with(
        resources: Vec<String>,
        capacity: Vec<Rational>,
        root: &NodeSpec,
        rules: Rules,
    ) -> Result<Self, SolverError> {
        validate_resources(&resources, &capacity)?;
        let mut laid = lay_out(root, capacity.len())?;
        let (pools, users) = (
            std::mem::take(&mut laid.pools),
            std::mem::take(&mut laid.users),
        );
        Self::build(resources, capacity, pools, users, (true, true), rules)
            .map_err(|e| laid.rename(e))
    }

    fn validate(&self, allow_idle: bool) -> Result<(), SolverError> {
        let m = self.capacity.len();
        validate_resources(&self.resources, &self.capacity)?;
        if self.users.is_empty() && !self.hierarchical {
            return Err(SolverError::invalid(
                "users",
                "expected at least one user, found none",
            ));
        }
        self.validate_pools()?;
        let mut names = HashSet::with_capacity(self.users.len());
        for (i, u) in self.users.iter().enumerate() {
            let at = |f: &str| format!("users[{i}].{f}");
            if u.name.is_empty() {
                return Err(SolverError::invalid(at("name"), "empty name"));
            }
            // A tree's names need only be unique among siblings (nodes are addressed by
            // path); a flat instance's users are addressed by name.
            let key = if self.hierarchical { u.pool } else { None };
            if !names.insert((key, u.name.as_str())) {
                return Err(SolverError::invalid(
                    at("name"),
                    if self.hierarchical {
                        format!("duplicate name {:?} among siblings", u.name)
                    } else {
                        format!("duplicate user name {:?}", u.name)
                    },
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
            // The field's path is written only for the message (a million users read fast).
            if u.demand.len() != m || u.demand.iter().any(Rational::is_negative) {
                check_vector(&at("demand"), &u.demand, m, Sign::NonNegative)?;
            }
            if !allow_idle && u.is_idle() {
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
            if u.guarantee.is_some() {
                // The path is written only when there is a field to check.
                check_guarantee(&at("guarantee"), u.guarantee.as_ref(), m)?;
            }
            if let Some(l) = &u.limit {
                check_vector(&at("limit"), l, m, Sign::NonNegative)?;
            }
            if let Some(x) = &u.usage {
                check_vector(&at("usage"), x, m, Sign::NonNegative)?;
                for (j, (x, c)) in x.iter().zip(&self.capacity).enumerate() {
                    if x > c {
                        return Err(SolverError::invalid(
                            format!("users[{i}].usage[{j}]"),
                            format!("{x} is above the capacity {c}"),
                        ));
                    }
                }
            }
        }
        // The leaves' usage together fits in the cluster (a pass over the users per
        // resource, skipped when none holds anything).
        let any_usage = self.users.iter().any(|u| u.usage.is_some());
        for j in (0..m).filter(|_| any_usage) {
            let total: Rational = self
                .users
                .iter()
                .filter_map(|u| u.usage.as_ref().map(|x| &x[j]))
                .sum();
            if total > self.capacity[j] {
                return Err(SolverError::invalid(
                    "users",
                    format!(
                        "the leaves' usage of {} adds up to {total}, above the capacity {}",
                        self.resources[j], self.capacity[j]
                    ),
                ));
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
            check_guarantee(&at("guarantee"), p.guarantee.as_ref(), self.capacity.len())?;
            if let Some(l) = &p.limit {
                check_vector(&at("limit"), l, self.capacity.len(), Sign::NonNegative)?;
            }
        }
        Ok(())
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

    /// The tree view, when already built.
    pub(crate) fn cached_view(&self) -> Option<&Hierarchy> {
        self.view.get().map(|h| &**h)
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
        // On machine words: the largest d_ij / R_j by cross-multiplication, then one
        // reduction (instead of one division of fractions per resource).
        let small = || {
            let mut best: Option<(i128, i128)> = None;
            for (d, r) in self.users[i].demand.iter().zip(&self.capacity) {
                if d.is_zero() {
                    continue;
                }
                let ((a, b), (c, e)) = (d.as_small()?, r.as_small()?);
                let (p, q) = (a.checked_mul(e)?, b.checked_mul(c)?);
                best = match best {
                    Some((bp, bq)) if p.checked_mul(bq)? <= bp.checked_mul(q)? => Some((bp, bq)),
                    _ => Some((p, q)),
                };
            }
            let (p, q) = best?;
            Rational::new(p, q)
        };
        if let Some(mu) = small() {
            return mu;
        }
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
            idle: self.idle.clone(),
            hierarchical: self.hierarchical,
            rules: self.rules,
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
        if self.has_production_fields() {
            // Guarantees (fractions of the capacity) and usages depend on the capacity:
            // resolve and check them again.
            let mut users = self.users.clone();
            users.extend(self.idle.iter().cloned());
            return Self::build(
                self.resources.clone(),
                capacity,
                self.pools.clone(),
                users,
                (self.hierarchical, true),
                self.rules,
            );
        }
        Ok(Instance {
            resources: self.resources.clone(),
            capacity,
            pools: self.pools.clone(),
            users: self.users.clone(),
            idle: self.idle.clone(),
            hierarchical: self.hierarchical,
            rules: self.rules,
            view: self.view.clone(),
        })
    }

    /// The same pools with other users (validated): what changes a user's fields keeps
    /// its place in the tree.
    /// The idle leaves stay.
    pub fn with_users(&self, mut users: Vec<User>) -> Result<Self, SolverError> {
        users.extend(self.idle.iter().cloned());
        Self::build(
            self.resources.clone(),
            self.capacity.clone(),
            self.pools.clone(),
            users,
            (
                self.hierarchical || !self.pools.is_empty(),
                !self.idle.is_empty(),
            ),
            self.rules,
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
        // Idle leaves stay, and so do the pools that hold one.
        users.extend(self.idle.iter().cloned());
        let (pools, users) = prune_pools(&self.pools, users);
        Self::build(
            self.resources.clone(),
            self.capacity.clone(),
            pools,
            users,
            (
                self.hierarchical || !self.pools.is_empty(),
                !self.idle.is_empty(),
            ),
            self.rules,
        )
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

/// A guarantee as written: a vector of `m` non-negative entries, or a fraction in `[0, 1]`.
fn check_guarantee(field: &str, g: Option<&Guarantee>, m: usize) -> Result<(), SolverError> {
    match g {
        None => Ok(()),
        Some(Guarantee::Vector(v)) => check_vector(field, v, m, Sign::NonNegative),
        Some(Guarantee::Fraction(f)) => {
            if f.is_negative() || *f > Rational::ONE {
                Err(SolverError::invalid(
                    field,
                    format!("a fraction of the parent's guarantee must be in [0, 1], found {f}"),
                ))
            } else {
                Ok(())
            }
        }
    }
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
