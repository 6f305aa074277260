//! The one way an instance is built in code: [`InstanceBuilder`], from [`Instance::builder`].

use super::{validate_resources, Instance, Pool, Rules, User};
use crate::hierarchy::{lay_out, NodeSpec};
use crate::{Rational, SolverError};

/// An instance being described: capacities, then optionally resource names, users with
/// their pools (or a tree spec) and rules; [`InstanceBuilder::build`] validates it.
///
/// # Errors
/// [`InstanceBuilder::build`] names the field at fault, as the JSON reader does: besides
/// the flat conditions (`capacity[j]`, `resources[j]`, `users[i].demand`, ...), a pool's
/// parent that is not an earlier pool (`pools[k].parent`), a weight that is not positive
/// (`pools[k].weight`), an empty name, a name with `/` or one used twice among siblings
/// (`pools[k].name`, or `users[i].name` for a user named like a sibling pool), a user's
/// pool out of range (`users[i].pool`), and the production fields' errors (`pools[k].limit`,
/// `users[i].usage`; see [`Rules`] and `docs/production.md`). A tree spec's errors name the
/// node by its path in the tree form (`tree.children[1].demand`).
///
/// # Example
/// A weighted pool: P (weight 3) = {x} against y; x is guaranteed 3/4.
/// ```
/// use leontief_solver::{Instance, Pool, User};
/// let inst = Instance::builder(vec![1.into()])
///     .pools(vec![Pool::new("P").weight(3)])
///     .users(vec![User::new("x", [1]).pool(0), User::new("y", [1])])
///     .build()
///     .unwrap();
/// let h = inst.hierarchy();
/// assert_eq!(h.node(h.leaf(0)).guaranteed.to_string(), "3/4");
/// assert_eq!(inst.user_path(0), "P/x");
/// let bad = Instance::builder(vec![1.into()])
///     .pools(vec![Pool::new("P").weight(0)])
///     .users(vec![User::new("x", [1]).pool(0)])
///     .build();
/// assert_eq!(bad.unwrap_err().to_string(), "pools[0].weight: must be positive, found 0");
/// ```
#[derive(Debug, Clone, Default)]
#[must_use]
pub struct InstanceBuilder {
    pub(crate) resources: Option<Vec<String>>,
    pub(crate) capacity: Vec<Rational>,
    pub(crate) pools: Option<Vec<Pool>>,
    pub(crate) users: Vec<User>,
    pub(crate) tree: Option<NodeSpec>,
    pub(crate) idle_leaves: bool,
    pub(crate) rules: Rules,
}

impl InstanceBuilder {
    crate::setters! {
        /// Named resources (default `r1..rm`).
        resources(names: Vec<String>) => resources = Some(names);
        /// Users grouped into these pools, parents first (see [`Pool`]): the instance is a
        /// tree, whose names need only be unique among siblings. A pool with nothing below
        /// it is allowed: it gets nothing.
        pools(pools: Vec<Pool>) => pools = Some(pools);
        /// The users, in order.
        users(users: Vec<User>) => users = users;
        /// The pools and users laid out from a tree spec: one pool per inner node below the
        /// root, one user per leaf in pre-order (replaces [`InstanceBuilder::pools`] and
        /// [`InstanceBuilder::users`]); idle leaves are accepted.
        tree(root: NodeSpec) => tree = Some(root);
        /// In a tree, users whose demand is all zeros accepted as *idle* leaves
        /// ([`Instance::idle_users`]): they get nothing. Without it (the default) every user
        /// must demand something.
        idle_leaves(accepted: bool) => idle_leaves = accepted;
        /// How guarantees and limits are resolved (see [`Rules`]).
        rules(rules: Rules) => rules = rules;
    }

    /// Validates and builds the instance (see the [type docs](Self) for the errors).
    pub fn build(self) -> Result<Instance, SolverError> {
        let m = self.capacity.len();
        let resources = self
            .resources
            .unwrap_or_else(|| (1..=m).map(|j| format!("r{j}")).collect());
        let Some(root) = &self.tree else {
            let hierarchical = self.pools.is_some();
            return Instance::build(
                resources,
                self.capacity,
                self.pools.unwrap_or_default(),
                self.users,
                (hierarchical, hierarchical && self.idle_leaves),
                self.rules,
            );
        };
        validate_resources(&resources, &self.capacity)?;
        let mut laid = lay_out(root, m)?;
        let pools = std::mem::take(&mut laid.pools);
        let users = std::mem::take(&mut laid.users);
        Instance::build(
            resources,
            self.capacity,
            pools,
            users,
            (true, true),
            self.rules,
        )
        .map_err(|e| laid.rename(e))
    }
}
