//! Hierarchical policies as flat mechanisms, over instances whose user names are paths
//! (`B/B1`, `P@2/Q/x`: see `leontief_solver::hierarchy`).
//!
//! [`Hierarchical`] implements `leontief_solver::Mechanism`: it rebuilds the tree from the
//! instance's names on every call and runs the policy. So every flat oracle (SP, GSP, PM, RM,
//! PO, EF, share guarantee `sg`…), `check`, `verify`, the counterexample search, the shrinker
//! and the corpus apply to the hierarchical policies unchanged: a lie changes a leaf's demand,
//! a departure removes a leaf (and a pool left empty), a capacity change is the cluster's.
//! [`to_flat`] writes a [`Tree`] in that form, [`tree_of`] reads it back.
//!
//! # Example
//! The lecture's tree: naive HDRF gives A 1/2, B1 1/2, B2 1 (reference/trees.json).
//! ```
//! use leontief_hdrf::flat::{to_flat, Hierarchical};
//! use leontief_hdrf::{Policy, Tree};
//! use leontief_solver::Mechanism;
//! let tree = Tree::from_json_str(r#"{"capacity": [1, 1], "tree": {"name": "root", "children": [
//!     {"name": "A", "demand": [1, 0]},
//!     {"name": "B", "children": [{"name": "B1", "demand": [1, 0]}, {"name": "B2", "demand": [0, 1]}]}]}}"#).unwrap();
//! let flat = to_flat(&tree);
//! let names: Vec<&str> = flat.users().iter().map(|u| u.name.as_str()).collect();
//! assert_eq!(names, ["A", "B/B1", "B/B2"]);
//! let x = Hierarchical::new(Policy::Naive).allocate(&flat).unwrap();
//! assert_eq!(x.tasks, vec!["1/2".parse().unwrap(), "1/2".parse().unwrap(), 1.into()]);
//! ```

use std::collections::HashMap;

use leontief_solver::hierarchy::Hierarchy;
use leontief_solver::{Allocation, Instance, Mechanism, Rational, User};

use crate::tree::{NodeId, NodeSpec, Tree};
use crate::{allocate, Policy, SolverError};

/// The tree `instance`'s user names describe, with the users' demands, weights and caps on
/// its leaves.
///
/// # Errors
/// Names that do not describe a tree (see `Hierarchy::of`), names used twice across the tree
/// (a leaf's or pool's own name must be unique, as in tree files), per-resource weights.
///
/// # Example
/// ```
/// use leontief_hdrf::flat::tree_of;
/// use leontief_solver::{Instance, User};
/// let inst = Instance::new(vec![1.into()], vec![User::new("P@3/x", [1]), User::new("y", [1])]).unwrap();
/// let tree = tree_of(&inst).unwrap();
/// assert_eq!(tree.guaranteed_share(tree.find("x").unwrap()).to_string(), "3/4");
/// ```
pub fn tree_of(instance: &Instance) -> Result<Tree, SolverError> {
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
    let h = Hierarchy::of(instance)?;
    fn spec(h: &Hierarchy, instance: &Instance, v: usize) -> NodeSpec {
        let node = h.node(v);
        match node.user {
            Some(i) => {
                let u = &instance.users()[i];
                let mut leaf = NodeSpec::leaf(node.name.clone(), u.demand.clone());
                leaf.weight = u.weight.clone();
                leaf.cap = u.cap.clone();
                leaf
            }
            None => {
                let children = node.children.iter().map(|&c| spec(h, instance, c));
                NodeSpec::pool(node.name.clone(), children).weight(node.weight.clone())
            }
        }
    }
    let root = spec(&h, instance, 0);
    Tree::with_resources(
        instance.resources().to_vec(),
        instance.capacity().to_vec(),
        root,
    )
    .map_err(|e| match e {
        SolverError::Invalid { field, reason } => {
            SolverError::invalid("users[].name", format!("as a tree, {field}: {reason}"))
        }
        other => other,
    })
}

/// The flat instance of a tree: one user per leaf, in the tree's order, named by its path
/// below the root with pool weights other than 1 written `pool@w`; leaf weights and caps as
/// the users' weights and caps.
///
/// # Example
/// ```
/// use leontief_hdrf::flat::to_flat;
/// use leontief_hdrf::{NodeSpec, Tree};
/// let tree = Tree::new(vec![1.into()], NodeSpec::pool("root", [
///     NodeSpec::pool("P", [NodeSpec::leaf("x", [1]).weight(2)]).weight(3),
///     NodeSpec::leaf("y", [1]),
/// ])).unwrap();
/// let flat = to_flat(&tree);
/// assert_eq!(flat.users()[0].name, "P@3/x");
/// assert_eq!(flat.users()[0].weight, 2.into());
/// ```
pub fn to_flat(tree: &Tree) -> Instance {
    let users = tree
        .leaves()
        .map(|leaf| {
            let mut parts = Vec::new();
            let mut at = tree.node(leaf).parent();
            while let Some(p) = at {
                if tree.node(p).parent().is_some() {
                    let n = tree.node(p);
                    parts.push(if *n.weight() == Rational::ONE {
                        n.name().to_string()
                    } else {
                        format!("{}@{}", n.name(), n.weight())
                    });
                }
                at = tree.node(p).parent();
            }
            parts.reverse();
            let node = tree.node(leaf);
            parts.push(node.name().to_string());
            let mut u = User::new(
                parts.join("/"),
                node.demand().expect("a leaf has a demand").to_vec(),
            );
            u.weight = node.weight().clone();
            u.cap = node.cap().cloned();
            u
        })
        .collect();
    Instance::with_resources(tree.resources().to_vec(), tree.capacity().to_vec(), users)
        .expect("a valid tree has valid leaves")
}

/// A hierarchical policy as a flat mechanism over path-named users.
///
/// # Example
/// The DRF paper's example (9 CPU, 18 GB; A ⟨1,4⟩, B ⟨3,1⟩) is a one-level tree: every policy
/// is DRF there, 3 and 2 tasks.
/// ```
/// use leontief_hdrf::flat::Hierarchical;
/// use leontief_hdrf::Policy;
/// use leontief_solver::{Instance, Mechanism, User};
/// let paper = Instance::new(vec![9.into(), 18.into()],
///     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
/// for p in Policy::ALL {
///     let x = Hierarchical::new(p).allocate(&paper).unwrap();
///     assert_eq!(x.tasks, vec![3.into(), 2.into()], "{p}");
/// }
/// ```
#[derive(Debug, Clone)]
pub struct Hierarchical {
    policy: Policy,
    name: String,
}

impl Hierarchical {
    /// The policy as a mechanism named `hdrf:<policy>`.
    pub fn new(policy: Policy) -> Self {
        Hierarchical {
            policy,
            name: format!("hdrf:{}", policy.name()),
        }
    }

    /// The policy.
    pub fn policy(&self) -> Policy {
        self.policy
    }
}

impl Mechanism for Hierarchical {
    fn name(&self) -> &str {
        &self.name
    }

    fn is_exact(&self) -> bool {
        true
    }

    fn allocate(&self, instance: &Instance) -> Result<Allocation, SolverError> {
        let tree = tree_of(instance)?;
        let x = allocate(&tree, self.policy)?;
        let by_name: HashMap<&str, NodeId> =
            tree.leaves().map(|v| (tree.node(v).name(), v)).collect();
        let tasks = instance
            .users()
            .iter()
            .map(|u| {
                let leaf = u.name.rsplit('/').next().unwrap_or(&u.name);
                let v = by_name[leaf];
                x.tasks(v).cloned().expect("leaves have tasks")
            })
            .collect();
        Ok(Allocation::new(tasks))
    }
}
