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

use std::fmt;
use std::sync::{Arc, OnceLock};

use crate::hierarchy::Hierarchy;

use crate::{Rational, SolverError};

pub use crate::json::{read_number, read_numbers};
pub use allocation::{saturated_resources, Allocation};
pub use builder::InstanceBuilder;
pub use pool::Pool;
pub use production::{Guarantee, GuaranteeRule, LimitBelowGuarantee, Mode, Oversubscribed, Rules};
pub use user::User;

pub(crate) use json::{read_guarantee, read_mode};
use pool::path_of;
use validate::validate_resources;
pub(crate) use validate::{check_no_slash, check_node_name, check_positive};

mod allocation;
mod builder;
mod flat_fast;
mod json;
mod pool;
mod production;
mod user;
mod validate;
mod variants;

/// A validated instance. Construct with [`Instance::new`], [`Instance::builder`] or
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
    /// Validates and builds a flat instance with resources named `r1..rm`: short for
    /// `Instance::builder(capacity).users(users).build()`.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::{Instance, User};
    /// let inst = Instance::new(vec![9.into(), 18.into()], vec![User::new("A", [1, 4])]).unwrap();
    /// assert_eq!(inst.num_users(), 1);
    /// assert!(Instance::new(vec![0.into()], vec![User::new("A", [1])]).is_err());
    /// ```
    pub fn new(capacity: Vec<Rational>, users: Vec<User>) -> Result<Self, SolverError> {
        Self::builder(capacity).users(users).build()
    }

    /// The builder of an instance on these capacities: every instance built in code goes
    /// through [`InstanceBuilder::build`], which validates it.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::{Instance, User};
    /// let inst = Instance::builder(vec![9.into(), 18.into()])
    ///     .resources(vec!["cpu".into(), "mem".into()])
    ///     .users(vec![User::new("A", [1, 4]), User::new("B", [3, 1])])
    ///     .build()
    ///     .unwrap();
    /// assert_eq!(inst.resources(), ["cpu", "mem"]);
    /// ```
    pub fn builder(capacity: Vec<Rational>) -> InstanceBuilder {
        InstanceBuilder {
            capacity,
            ..InstanceBuilder::default()
        }
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
        // Where each user (active, then idle) was in the list given, for messages; none kept
        // when no user is idle (user `i` was then given at `i`).
        let (mut given, mut idle_given) = (Vec::new(), Vec::new());
        // Moving every user through the partition costs a copy of the list; most instances
        // have no idle leaf.
        if hierarchical && inst.users.iter().any(User::is_idle) {
            let (idle, active): (Vec<_>, Vec<_>) = std::mem::take(&mut inst.users)
                .into_iter()
                .enumerate()
                .partition(|(_, u)| u.is_idle());
            (given, inst.users) = active.into_iter().unzip();
            (idle_given, inst.idle) = idle.into_iter().unzip();
            // A tree whose leaves are all idle, or that has none, is valid: everyone gets
            // nothing, and the notes say so.
        }
        // Without guarantees, limits, modes, usages or idle leaves nothing in the tree can
        // fail to resolve, so the view is left to be built on first use: flat mechanisms
        // never look at it, and at a million users it is a large part of the memory.
        if !inst.has_production_fields() {
            return Ok(inst);
        }
        let view = Hierarchy::resolve(&inst, (&given, &idle_given))?;
        let _ = inst.view.set(Arc::new(view));
        Ok(inst)
    }

    /// These users, then the idle leaves, in the same pools (`prune`: but those left with no
    /// user below them, [`Pool::prune`]) with these capacities, validated and resolved again
    /// as this instance was (as a tree or flat, with its rules).
    fn rebuilt(
        &self,
        capacity: Vec<Rational>,
        mut users: Vec<User>,
        prune: bool,
    ) -> Result<Self, SolverError> {
        users.extend(self.idle.iter().cloned());
        let (pools, users) = if prune {
            Pool::prune(&self.pools, users)
        } else {
            (self.pools.clone(), users)
        };
        Self::build(
            self.resources.clone(),
            capacity,
            pools,
            users,
            (self.hierarchical, !self.idle.is_empty()),
            self.rules,
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

    /// Whether any node has a production field (a guarantee, a limit, a FIFO mode or a
    /// usage) or the tree has idle leaves: when not, every policy behaves as before these
    /// fields existed.
    pub fn has_production_fields(&self) -> bool {
        // A guarantee, a limit, a FIFO mode or a usage on any node, idle leaves included
        // (the fields that change what a node is owed or may hold).
        !self.idle.is_empty()
            || self
                .pools
                .iter()
                .any(|p| p.guarantee.is_some() || p.limit.is_some() || p.mode != Mode::Fair)
            || self
                .users
                .iter()
                .chain(&self.idle)
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
}
