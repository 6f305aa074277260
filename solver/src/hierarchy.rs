//! The tree a flat instance describes through its user names (SPEC.md §4).
//!
//! A user named `B/B1` is the leaf `B1` in the pool `B`; `P@2/Q/x` is the leaf `x` in the
//! pool `Q` inside the pool `P` of weight 2 (a pool's weight may be written on any of its
//! users' paths; where it is written twice it must agree; unwritten it is 1). A leaf's
//! weight is its user's `weight`. A name without `/` is a leaf under the root, so an instance
//! with plain names is the one-level tree of weighted DRF.
//!
//! This encoding is how the hierarchical policies become flat mechanisms (the
//! `leontief-hdrf` crate's `flat` module) that every flat oracle, the search, the shrinker
//! and the corpus handle unchanged: a lie changes a leaf's demand, a departure removes a
//! leaf (a pool left empty disappears), a capacity change is the cluster's.
//!
//! # Example
//! The lecture's tree: A against the pool B = {B1, B2}: guaranteed shares 1/2, 1/2, 1/4, 1/4.
//! ```
//! use leontief_solver::hierarchy::Hierarchy;
//! use leontief_solver::{Instance, User};
//! let inst = Instance::new(vec![1.into(), 1.into()], vec![
//!     User::new("A", [1, 0]), User::new("B/B1", [1, 0]), User::new("B/B2", [0, 1])]).unwrap();
//! let h = Hierarchy::of(&inst).unwrap();
//! let g: Vec<String> = (0..3).map(|i| h.node(h.leaf(i)).guaranteed.to_string()).collect();
//! assert_eq!(g, ["1/2", "1/4", "1/4"]);
//! assert_eq!(h.path(h.node(h.leaf(2)).parent.unwrap()), "B");
//! ```

use crate::{Instance, Rational, SolverError};

/// A node of the tree: the root, a pool, or a user's leaf.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Node {
    /// Its own name (the last path segment, without a weight).
    pub name: String,
    /// Its weight among its siblings.
    pub weight: Rational,
    /// Its parent (`None` for the root).
    pub parent: Option<usize>,
    /// Its children in order of first appearance.
    pub children: Vec<usize>,
    /// The user whose leaf it is.
    pub user: Option<usize>,
    /// Its guaranteed share `g_v = g_parent · w_v / Σ_siblings w`.
    pub guaranteed: Rational,
}

/// The tree of an instance's user names; node 0 is the root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hierarchy {
    nodes: Vec<Node>,
    leaf_of_user: Vec<usize>,
}

/// `name@w` → (`name`, `Some(w)`); a segment without `@` has no weight.
fn pool_segment(at: &str, segment: &str) -> Result<(String, Option<Rational>), SolverError> {
    let (name, weight) = match segment.rsplit_once('@') {
        Some((name, w)) => {
            let w: Rational = w.trim().parse().map_err(|e| {
                SolverError::invalid(at, format!("pool weight in {segment:?}: {e}"))
            })?;
            if !w.is_positive() {
                return Err(SolverError::invalid(
                    at,
                    format!("pool weight in {segment:?} must be positive"),
                ));
            }
            (name, Some(w))
        }
        None => (segment, None),
    };
    if name.is_empty() {
        return Err(SolverError::invalid(
            at,
            format!("empty pool name in {segment:?}"),
        ));
    }
    Ok((name.to_string(), weight))
}

impl Hierarchy {
    /// The tree of `instance`'s user names.
    ///
    /// # Errors
    /// An empty path segment, a bad or conflicting pool weight, or a name that is both a
    /// user and a pool — each on `users[i].name`.
    pub fn of(instance: &Instance) -> Result<Hierarchy, SolverError> {
        let root = Node {
            name: "root".into(),
            weight: Rational::ONE,
            parent: None,
            children: Vec::new(),
            user: None,
            guaranteed: Rational::ONE,
        };
        let mut nodes = vec![root];
        // Explicit pool weights, to detect conflicts.
        let mut explicit: Vec<bool> = vec![false];
        let mut leaf_of_user = Vec::with_capacity(instance.num_users());
        for (i, u) in instance.users().iter().enumerate() {
            let at = format!("users[{i}].name");
            let segments: Vec<&str> = u.name.split('/').collect();
            let (leaf_name, pools) = segments.split_last().expect("split yields one item");
            let mut parent = 0;
            for segment in pools {
                let (name, weight) = pool_segment(&at, segment)?;
                let existing = nodes[parent]
                    .children
                    .iter()
                    .copied()
                    .find(|&c| nodes[c].name == name);
                let pool = match existing {
                    Some(c) if nodes[c].user.is_some() => {
                        return Err(SolverError::invalid(
                            at,
                            format!("{name:?} is both a user and a pool"),
                        ))
                    }
                    Some(c) => c,
                    None => {
                        nodes.push(Node {
                            name,
                            weight: Rational::ONE,
                            parent: Some(parent),
                            children: Vec::new(),
                            user: None,
                            guaranteed: Rational::ZERO,
                        });
                        explicit.push(false);
                        let c = nodes.len() - 1;
                        nodes[parent].children.push(c);
                        c
                    }
                };
                if let Some(w) = weight {
                    if explicit[pool] && nodes[pool].weight != w {
                        return Err(SolverError::invalid(
                            at,
                            format!(
                                "pool {:?} has weight {} elsewhere, {w} here",
                                nodes[pool].name, nodes[pool].weight
                            ),
                        ));
                    }
                    nodes[pool].weight = w;
                    explicit[pool] = true;
                }
                parent = pool;
            }
            if leaf_name.is_empty() {
                return Err(SolverError::invalid(at, "empty leaf name after the last /"));
            }
            if nodes[parent]
                .children
                .iter()
                .any(|&c| nodes[c].name == *leaf_name)
            {
                return Err(SolverError::invalid(
                    at,
                    format!("{leaf_name:?} is both a user and a pool"),
                ));
            }
            nodes.push(Node {
                name: leaf_name.to_string(),
                weight: u.weight.clone(),
                parent: Some(parent),
                children: Vec::new(),
                user: Some(i),
                guaranteed: Rational::ZERO,
            });
            explicit.push(true);
            let leaf = nodes.len() - 1;
            nodes[parent].children.push(leaf);
            leaf_of_user.push(leaf);
        }
        // Guaranteed shares top-down (parents precede children in `nodes`).
        for v in 0..nodes.len() {
            let total: Rational = nodes[v]
                .children
                .iter()
                .fold(Rational::ZERO, |a, &c| a + &nodes[c].weight);
            let g = nodes[v].guaranteed.clone();
            for c in nodes[v].children.clone() {
                nodes[c].guaranteed = &(&g * &nodes[c].weight) / &total;
            }
        }
        Ok(Hierarchy {
            nodes,
            leaf_of_user,
        })
    }

    /// Node `v`.
    pub fn node(&self, v: usize) -> &Node {
        &self.nodes[v]
    }

    /// The number of nodes (root, pools and leaves).
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Always false: there is a root.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// User `i`'s leaf.
    pub fn leaf(&self, i: usize) -> usize {
        self.leaf_of_user[i]
    }

    /// Whether every user sits directly under the root (no pools).
    pub fn is_flat(&self) -> bool {
        self.nodes[0]
            .children
            .iter()
            .all(|&c| self.nodes[c].user.is_some())
    }

    /// The users in the subtree of `v`, in order.
    pub fn users_below(&self, v: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut stack = vec![v];
        while let Some(x) = stack.pop() {
            if let Some(i) = self.nodes[x].user {
                out.push(i);
            }
            stack.extend(self.nodes[x].children.iter().rev());
        }
        out.sort_unstable();
        out
    }

    /// `P/Q/x` (no weights; the root is the empty path).
    pub fn path(&self, v: usize) -> String {
        let mut parts = Vec::new();
        let mut at = Some(v);
        while let Some(x) = at {
            if x != 0 {
                parts.push(self.nodes[x].name.as_str());
            }
            at = self.nodes[x].parent;
        }
        parts.reverse();
        parts.join("/")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::User;

    fn inst(names: &[&str]) -> Result<Hierarchy, SolverError> {
        let users = names.iter().map(|n| User::new(*n, [1])).collect::<Vec<_>>();
        Hierarchy::of(&Instance::new(vec![1.into()], users).unwrap())
    }

    #[test]
    fn weighted_pools() {
        // P (weight 3) = {x, y} against z: g_P = 3/4, g_x = g_y = 3/8, g_z = 1/4.
        let h = inst(&["P@3/x", "z", "P/y"]).unwrap();
        let g = |i| h.node(h.leaf(i)).guaranteed.to_string();
        assert_eq!([g(0), g(1), g(2)], ["3/8", "1/4", "3/8"]);
        assert!(!h.is_flat());
        assert_eq!(h.users_below(h.node(h.leaf(0)).parent.unwrap()), [0, 2]);
        assert!(inst(&["a", "b"]).unwrap().is_flat());
    }

    #[test]
    fn bad_paths_are_named() {
        for (names, needle) in [
            (vec!["P@2/x", "P@3/y"], "weight 2 elsewhere"),
            (vec!["P", "P/x"], "both a user and a pool"),
            (vec!["P/x", "P"], "both a user and a pool"),
            (vec!["/x"], "empty pool name"),
            (vec!["P/"], "empty leaf name"),
            (vec!["P@0/x"], "must be positive"),
        ] {
            let e = inst(&names).unwrap_err().to_string();
            assert!(e.contains(needle) && e.contains("users["), "{names:?}: {e}");
        }
    }
}
