//! Records written before instances had pools encoded a hierarchy in the user names: `B/B1`
//! is the user `B1` in the pool `B`, `P@2/Q/x` the user `x` in the pool `Q` inside the pool
//! `P` of weight 2 (a pool's weight may be written on any of its users' paths; where it is
//! written twice it must agree; unwritten it is 1). This module reads that encoding, and
//! only to load such records: [`with_pools`] turns the instance into the same instance with
//! pools, once, when the record is read.
//!
//! # Example
//! ```
//! use leontief_counterexamples::legacy::with_pools;
//! use leontief_solver::{Instance, User};
//! let old = Instance::new(vec![1.into()], vec![User::new("P@3/x", [1]), User::new("y", [1])]).unwrap();
//! let new = with_pools(&old).unwrap().expect("a path-named instance");
//! assert_eq!((new.pools()[0].name.as_str(), new.pools()[0].weight.to_string()), ("P", "3".into()));
//! assert_eq!((new.users()[0].name.as_str(), new.user_path(0).as_str()), ("x", "P/x"));
//! ```

use std::collections::HashMap;

use leontief_solver::{Instance, Pool, Rational, SolverError, User};

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

/// The instance with the hierarchy its user names encode turned into pools (users named by
/// their last path segment, in the same order; pools in order of first appearance, parents
/// first); `Ok(None)` when no name contains `/` (the instance is flat as it is).
///
/// # Errors
/// An empty path segment, a bad or conflicting pool weight, or a name that is both a user
/// and a pool — each on `users[i].name`.
pub fn with_pools(instance: &Instance) -> Result<Option<Instance>, SolverError> {
    if instance.users().iter().all(|u| !u.name.contains('/')) || !instance.pools().is_empty() {
        return Ok(None);
    }
    let mut pools: Vec<Pool> = Vec::new();
    // Pools by (parent, name), and whether each pool's weight was written.
    let mut index: HashMap<(Option<usize>, String), usize> = HashMap::new();
    let mut explicit: Vec<bool> = Vec::new();
    let mut users: Vec<User> = Vec::with_capacity(instance.num_users());
    for (i, u) in instance.users().iter().enumerate() {
        let at = format!("users[{i}].name");
        let segments: Vec<&str> = u.name.split('/').collect();
        let (leaf, path) = segments.split_last().expect("split yields one item");
        let mut parent = None;
        for segment in path {
            let (name, weight) = pool_segment(&at, segment)?;
            let p = match index.get(&(parent, name.clone())) {
                Some(&p) => p,
                None => {
                    let mut pool = Pool::new(name.clone());
                    pool.parent = parent;
                    pools.push(pool);
                    explicit.push(false);
                    index.insert((parent, name), pools.len() - 1);
                    pools.len() - 1
                }
            };
            if let Some(w) = weight {
                if explicit[p] && pools[p].weight != w {
                    return Err(SolverError::invalid(
                        at,
                        format!(
                            "pool {:?} has weight {} elsewhere, {w} here",
                            pools[p].name, pools[p].weight
                        ),
                    ));
                }
                pools[p].weight = w;
                explicit[p] = true;
            }
            parent = Some(p);
        }
        if leaf.is_empty() {
            return Err(SolverError::invalid(at, "empty leaf name after the last /"));
        }
        let mut user = u.clone();
        user.name = leaf.to_string();
        user.pool = parent;
        users.push(user);
    }
    // A user named like a pool beside it: the names do not describe a tree.
    for (i, u) in users.iter().enumerate() {
        if index.contains_key(&(u.pool, u.name.clone())) {
            return Err(SolverError::invalid(
                format!("users[{i}].name"),
                format!("{:?} is both a user and a pool", u.name),
            ));
        }
    }
    Instance::with_pools(
        instance.resources().to_vec(),
        instance.capacity().to_vec(),
        pools,
        users,
    )
    .map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn convert(names: &[&str]) -> Result<Option<Instance>, SolverError> {
        let users = names.iter().map(|n| User::new(*n, [1])).collect::<Vec<_>>();
        with_pools(&Instance::new(vec![1.into()], users).unwrap())
    }

    #[test]
    fn weighted_pools() {
        // P (weight 3) = {x, y} against z: g_P = 3/4, g_x = g_y = 3/8, g_z = 1/4.
        let inst = convert(&["P@3/x", "z", "P/y"]).unwrap().unwrap();
        let h = inst.hierarchy();
        let g = |i| h.node(h.leaf(i)).guaranteed.to_string();
        assert_eq!([g(0), g(1), g(2)], ["3/8", "1/4", "3/8"]);
        assert_eq!(inst.user_path(2), "P/y");
        assert!(convert(&["a", "b"]).unwrap().is_none());
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
            let e = convert(&names).unwrap_err().to_string();
            assert!(e.contains(needle) && e.contains("users["), "{names:?}: {e}");
        }
    }
}
