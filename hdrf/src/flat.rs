//! Hierarchical policies as mechanisms of the model: over an [`Instance`] whose users are
//! grouped into pools (`leontief_solver::Pool`; an instance without pools is a one-level
//! tree).
//!
//! [`Hierarchical`] implements `leontief_solver::Mechanism`: it views the instance's pools as
//! a [`Tree`] and runs the policy. So every flat oracle (SP, GSP, PM, RM, PO, EF, share
//! guarantee `sg`…), `check`, `verify`, the counterexample search, the shrinker and the
//! corpus apply to the hierarchical policies unchanged: a lie changes a leaf's demand, a
//! departure removes a leaf (and a pool left empty), a capacity change is the cluster's.
//! [`Tree::instance`] is a tree's instance, [`Tree::from_instance`] an instance's tree.
//!
//! # Example
//! The lecture's tree: naive HDRF gives A 1/2, B1 1/2, B2 1 (reference/trees.json).
//! ```
//! use leontief_hdrf::flat::Hierarchical;
//! use leontief_hdrf::{Policy, Tree};
//! use leontief_solver::Mechanism;
//! let tree = Tree::from_json_str(r#"{"capacity": [1, 1], "tree": {"name": "root", "children": [
//!     {"name": "A", "demand": [1, 0]},
//!     {"name": "B", "children": [{"name": "B1", "demand": [1, 0]}, {"name": "B2", "demand": [0, 1]}]}]}}"#).unwrap();
//! let flat = tree.instance();
//! let paths: Vec<String> = (0..3).map(|i| flat.user_path(i)).collect();
//! assert_eq!(paths, ["A", "B/B1", "B/B2"]);
//! let x = Hierarchical::new(Policy::Naive).allocate(flat).unwrap();
//! assert_eq!(x.tasks, vec!["1/2".parse().unwrap(), "1/2".parse().unwrap(), 1.into()]);
//! ```

use leontief_solver::{Allocation, Instance, Mechanism};

use crate::Tree;
use crate::{allocate, Policy, SolverError};

/// A hierarchical policy as a mechanism over instances with pools.
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
}

impl Mechanism for Hierarchical {
    fn name(&self) -> &str {
        &self.name
    }

    fn is_exact(&self) -> bool {
        true
    }

    fn allocate(&self, instance: &Instance) -> Result<Allocation, SolverError> {
        let tree = Tree::from_instance(instance)?;
        let x = allocate(&tree, self.policy)?;
        // The tree's nodes are numbered as the instance's hierarchy view.
        let h = instance.hierarchy();
        let tasks = (0..instance.num_users())
            .map(|i| {
                let v = tree.node_id(h.leaf(i)).expect("the same tree");
                x.tasks(v).cloned().expect("leaves have tasks")
            })
            .collect();
        Ok(Allocation::new(tasks))
    }
}
