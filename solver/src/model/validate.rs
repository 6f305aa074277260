//! The validation of an [`Instance`]: resources, users, pools and their production fields.

use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};

use super::{Guarantee, Instance, User};
use crate::json::{check_vector, Sign};
use crate::{Rational, SolverError};

impl Instance {
    pub(super) fn validate(&self, allow_idle: bool) -> Result<(), SolverError> {
        let m = self.capacity.len();
        validate_resources(&self.resources, &self.capacity)?;
        if self.users.is_empty() && !self.hierarchical {
            return Err(SolverError::invalid(
                "users",
                "expected at least one user, found none",
            ));
        }
        self.validate_pools()?;
        // A flat instance whose names are all distinct (the common case, checked by sorting)
        // needs no table of names; otherwise the table finds the first repeat, as named below.
        let distinct = !self.hierarchical && names_are_distinct(&self.users);
        let mut names = HashSet::with_capacity(if distinct { 0 } else { self.users.len() });
        for (i, u) in self.users.iter().enumerate() {
            let at = |f: &str| format!("users[{i}].{f}");
            if u.name.is_empty() {
                return Err(SolverError::invalid(at("name"), "empty name"));
            }
            // A tree's names need only be unique among siblings (nodes are addressed by
            // path); a flat instance's users are addressed by name.
            let key = if self.hierarchical { u.pool } else { None };
            if !distinct && !names.insert((key, u.name.as_str())) {
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
            if let Some(p) = u.pool
                && p >= self.pools.len()
            {
                return Err(SolverError::invalid(
                    at("pool"),
                    format!("no pool {p}: the instance has {}", self.pools.len()),
                ));
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
            check_positive(&u.weight, || at("weight"))?;
            if let Some(w) = &u.resource_weights {
                check_vector(&at("weights"), w, m, Sign::Positive)?;
            }
            if let Some(t) = &u.cap {
                check_positive(t, || at("tasks"))?;
            }
            check_guarantee_limit(u.guarantee.as_ref(), u.limit.as_deref(), m, at)?;
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
            check_node_name(&p.name, || at("name"))?;
            check_positive(&p.weight, || at("weight"))?;
            if let Some(q) = p.parent
                && q >= k
            {
                return Err(SolverError::invalid(
                    at("parent"),
                    format!(
                        "pool {q} is not listed before pool {k} (pools are listed parents first)"
                    ),
                ));
            }
            if !siblings.insert((p.parent, p.name.as_str())) {
                return Err(SolverError::invalid(
                    at("name"),
                    format!("duplicate pool {:?}", self.pool_path(k)),
                ));
            }
            check_guarantee_limit(
                p.guarantee.as_ref(),
                p.limit.as_deref(),
                self.capacity.len(),
                at,
            )?;
        }
        Ok(())
    }
}

/// A pool's or a node's name, one part of a path: not empty and without `/`; `field` names
/// it in the error.
pub(crate) fn check_node_name(
    name: &str,
    field: impl FnOnce() -> String,
) -> Result<(), SolverError> {
    if name.is_empty() {
        return Err(SolverError::invalid(field(), "empty name"));
    }
    check_no_slash(name, field)
}

/// A name without `/`, which separates the parts of a path.
pub(crate) fn check_no_slash(
    name: &str,
    field: impl FnOnce() -> String,
) -> Result<(), SolverError> {
    if name.contains('/') {
        return Err(SolverError::invalid(
            field(),
            format!("{name:?} contains '/', which separates the parts of a path"),
        ));
    }
    Ok(())
}

/// A weight, a cap or a capacity: positive; `field` names it in the error (written only then: a
/// million users are read fast).
pub(crate) fn check_positive(
    x: &Rational,
    field: impl FnOnce() -> String,
) -> Result<(), SolverError> {
    if !x.is_positive() {
        return Err(SolverError::invalid(
            field(),
            format!("must be positive, found {x}"),
        ));
    }
    Ok(())
}

/// A guarantee and a limit as written: the guarantee a vector of `m` non-negative entries or
/// a fraction in `[0, 1]`, the limit `m` non-negative entries; `at("guarantee")` and
/// `at("limit")` name them (the path is written only when there is a field to check).
fn check_guarantee_limit(
    g: Option<&Guarantee>,
    limit: Option<&[Rational]>,
    m: usize,
    at: impl Fn(&str) -> String,
) -> Result<(), SolverError> {
    match g {
        None => {}
        Some(Guarantee::Vector(v)) => check_vector(&at("guarantee"), v, m, Sign::NonNegative)?,
        Some(Guarantee::Fraction(f)) if f.is_negative() || *f > Rational::ONE => {
            return Err(SolverError::invalid(
                at("guarantee"),
                format!("a fraction of the parent's guarantee must be in [0, 1], found {f}"),
            ))
        }
        Some(Guarantee::Fraction(_)) => {}
    }
    match limit {
        Some(l) => check_vector(&at("limit"), l, m, Sign::NonNegative),
        None => Ok(()),
    }
}

/// The resource names and capacities: at least one resource, one name per capacity, names
/// non-empty and distinct, capacities positive.
pub(super) fn validate_resources(
    resources: &[String],
    capacity: &[Rational],
) -> Result<(), SolverError> {
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
        check_positive(c, || format!("capacity[{j}]"))?;
    }
    Ok(())
}

/// Whether no two users share a name: the names sorted by (hash, name) and neighbours
/// compared. A hash table of a million names spends its time in cache misses; the sort
/// compares names only where hashes are equal.
fn names_are_distinct(users: &[User]) -> bool {
    let mut keys: Vec<(u64, &str)> = users
        .iter()
        .map(|u| {
            let mut h = DefaultHasher::new();
            u.name.hash(&mut h);
            (h.finish(), u.name.as_str())
        })
        .collect();
    keys.sort_unstable();
    keys.windows(2).all(|w| w[0] != w[1])
}
