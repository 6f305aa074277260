//! The layout of a tree spec as an instance's pools and users (one user per leaf in
//! pre-order, one pool per inner node below the root), with where each came from in the
//! tree form for messages.

use std::collections::HashMap;

use super::tree_form::check_depth;
use super::NodeSpec;
use crate::json::{check_vector, Sign};
use crate::model::{check_node_name, check_positive};
use crate::{Mode, Pool, Rational, SolverError, User};

/// A tree spec laid out as pools and users, with where each was in the tree form.
#[derive(Default)]
pub(crate) struct Laid {
    pub pools: Vec<Pool>,
    pub users: Vec<User>,
    pool_at: Vec<String>,
    user_at: Vec<String>,
    /// The number of resources.
    m: usize,
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
/// [`InstanceBuilder::build`](crate::InstanceBuilder::build), whose messages
/// [`Laid::rename`] maps back.
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
    let mut laid = Laid {
        m,
        ..Laid::default()
    };
    laid.add(root, None, "tree".to_string(), 0)?;
    Ok(laid)
}

impl Laid {
    /// Adds `spec` below `parent` (`None`: `spec` is the root; `Some(None)`: directly below
    /// the root; `Some(Some(p))`: in pool `p`), validating as it goes.
    fn add(
        &mut self,
        spec: &NodeSpec,
        parent: Option<Option<usize>>,
        at: String,
        depth: usize,
    ) -> Result<(), SolverError> {
        check_node(spec, &at, depth)?;
        if let Some(demand) = &spec.demand {
            self.add_leaf(spec, demand, parent, at)
        } else if let Some(children) = &spec.children {
            self.add_pool(spec, children, parent, at, depth)
        } else {
            Ok(()) // `check_node` rejects a node with neither
        }
    }

    /// Adds leaf `spec` demanding `demand` below `parent`, validating its leaf fields.
    fn add_leaf(
        &mut self,
        spec: &NodeSpec,
        demand: &[Rational],
        parent: Option<Option<usize>>,
        at: String,
    ) -> Result<(), SolverError> {
        let m = self.m;
        let field = |f: &str| format!("{at}.{f}");
        // The field's path is written only for the message.
        if demand.len() != m || demand.iter().any(Rational::is_negative) {
            check_vector(&field("demand"), demand, m, Sign::NonNegative)?;
        }
        if let Some(t) = &spec.cap {
            check_positive(t, || field("tasks"))?;
        }
        if spec.mode.is_some() {
            return Err(SolverError::invalid(
                field("mode"),
                "only a pool has a mode; a leaf runs its own tasks",
            ));
        }
        self.users.push(User {
            name: spec.name.clone(),
            demand: demand.to_vec(),
            weight: spec.weight.clone(),
            resource_weights: None,
            cap: spec.cap.clone(),
            pool: parent.flatten(),
            guarantee: spec.guarantee.clone(),
            limit: spec.limit.clone(),
            usage: spec.usage.clone(),
        });
        self.user_at.push(at);
        Ok(())
    }

    /// Adds pool `spec` below `parent` (`None`: the root, which is no pool of the layout),
    /// then its `children`, validating its pool fields and its children's names.
    fn add_pool(
        &mut self,
        spec: &NodeSpec,
        children: &[NodeSpec],
        parent: Option<Option<usize>>,
        at: String,
        depth: usize,
    ) -> Result<(), SolverError> {
        let field = |f: &str| format!("{at}.{f}");
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
                self.pools.push(Pool {
                    name: spec.name.clone(),
                    weight: spec.weight.clone(),
                    parent: up,
                    guarantee: spec.guarantee.clone(),
                    limit: spec.limit.clone(),
                    mode: spec.mode.unwrap_or_default(),
                });
                self.pool_at.push(at.clone());
                Some(self.pools.len() - 1)
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
        Ok(())
    }
}

/// The checks every node passes, leaf or pool, at path `at` and `depth`: the depth bound,
/// its name, its weight, and exactly one of demand and children.
fn check_node(spec: &NodeSpec, at: &str, depth: usize) -> Result<(), SolverError> {
    let field = |f: &str| format!("{at}.{f}");
    check_depth(at, depth)?;
    check_node_name(&spec.name, || field("name"))?;
    check_positive(&spec.weight, || field("weight"))?;
    match (&spec.demand, &spec.children) {
        (Some(_), Some(_)) => Err(SolverError::invalid(
            at,
            "a node has either demand (a leaf) or children (a pool), not both",
        )),
        (None, None) => Err(SolverError::invalid(
            at,
            "a node needs either demand (a leaf) or children (a pool)",
        )),
        _ => Ok(()),
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
