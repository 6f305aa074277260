//! [`Pool`]: an inner node of the hierarchy, and the pruning of pools that hold no user.

use super::{Guarantee, Mode, User};
use crate::setters::rationals;
use crate::Rational;

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

    crate::setters! {
        /// Sets the guarantee (an absolute vector or a fraction of the parent's).
        guarantee(g: Guarantee) => guarantee = Some(g);
        /// Sets the limit vector.
        limit(l: impl IntoIterator<Item = impl Into<Rational>>) => limit = Some(rationals(l));
        /// Sets the mode.
        mode(mode: Mode) => mode = mode;
        /// Sets the weight.
        weight(weight: impl Into<Rational>) => weight = weight.into();
        /// Puts the pool inside pool `p` (an earlier index).
        parent(p: usize) => parent = Some(p);
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
    pub fn prune(pools: &[Pool], mut users: Vec<User>) -> (Vec<Pool>, Vec<User>) {
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
}

pub(super) fn path_of(pools: &[Pool], p: usize) -> String {
    let mut parts = vec![pools[p].name.as_str()];
    let mut at = pools[p].parent;
    while let Some(q) = at {
        parts.push(&pools[q].name);
        at = pools[q].parent;
    }
    parts.reverse();
    parts.join("/")
}
