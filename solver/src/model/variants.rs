//! Validated variants of an [`Instance`]: a user's demand or the capacity replaced, users
//! replaced or removed.

use super::{validate_resources, Instance, User};
use crate::json::{check_vector, Sign};
use crate::{Rational, SolverError};

impl Instance {
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
        // Reports change demands only: the tree view stays.
        let mut inst = self.clone();
        for (i, demand) in reports {
            let at = format!("users[{i}].demand");
            let Some(u) = inst.users.get_mut(*i) else {
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
        Ok(inst)
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
        crate::json::check_length("capacity", &capacity, self.capacity.len())?;
        validate_resources(&self.resources, &capacity)?;
        if self.has_production_fields() {
            // Guarantees (fractions of the capacity) and usages depend on the capacity:
            // resolve and check them again.
            return self.rebuilt(capacity, self.users.clone(), false);
        }
        Ok(Instance {
            capacity,
            ..self.clone()
        })
    }

    /// The same pools with other users (validated): what changes a user's fields keeps
    /// its place in the tree.
    /// The idle leaves stay.
    pub fn with_users(&self, users: Vec<User>) -> Result<Self, SolverError> {
        self.rebuilt(self.capacity.clone(), users, false)
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
    /// let inst = Instance::builder(vec![1.into()])
    ///     .pools(vec![Pool::new("P"), Pool::new("Q")])
    ///     .users(vec![User::new("x", [1]).pool(0), User::new("y", [1]).pool(1), User::new("z", [1])])
    ///     .build().unwrap();
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
        self.rebuilt(self.capacity.clone(), users, true)
    }
}
