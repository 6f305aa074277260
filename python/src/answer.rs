//! `solve`'s answer held in Rust: the instance, the exact allocation and the fields written
//! beside it, turned into Python objects only when asked for. An answer of a few hundred
//! users holds hundreds of exact numbers of hundreds of bits; making a `fractions.Fraction`
//! of each costs about as much as the solve itself, and a caller often reads a few of them.
//!
//! The pieces are those of the CLI's JSON answer (`write_json`): `mechanism`, `exact`,
//! `resources`, `capacity`, `users` (name, tasks, allocation, dominant and weighted share),
//! `consumption`, `saturated`, then the mechanism's extra fields; the Python layer
//! (`leontief.Allocation`) caches what it builds and assembles `to_dict()` in that order.

use std::sync::{Arc, OnceLock};

use leontief::commands::solve::Solution;
use leontief::output::allocation::{consumption, per_task_shares, saturated};
use leontief::solver::Rational;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use pyo3::IntoPyObjectExt;

use crate::to_python::{is_text_key, Fractions};

/// An exact allocation as `leontief solve` answers it, its numbers made on request.
#[pyclass(module = "leontief._leontief", frozen)]
pub(crate) struct Answer {
    /// The answer (its `consumption` moved to `used`).
    solution: Solution,
    /// The pool of `solve(threads=)`: sums over many users run in it.
    pool: Option<Arc<rayon::ThreadPool>>,
    used: OnceLock<Vec<Rational>>,
}

impl Answer {
    pub(crate) fn new(mut solution: Solution, pool: Option<Arc<rayon::ThreadPool>>) -> Answer {
        // The filling's own exact totals when the mechanism kept them; summed on request
        // otherwise.
        let used = solution
            .consumption
            .take()
            .map_or_else(OnceLock::new, OnceLock::from);
        Answer {
            solution,
            pool,
            used,
        }
    }

    /// What each resource's users consume in total (computed once).
    fn used(&self, py: Python<'_>) -> &[Rational] {
        if let Some(used) = self.used.get() {
            return used;
        }
        // Computed without the GIL and outside the lock: a thread holding the GIL never
        // waits for one that needs it back.
        let s = &self.solution;
        let used = py.detach(|| match &self.pool {
            Some(pool) => pool.install(|| consumption(&s.instance, &s.allocation)),
            None => consumption(&s.instance, &s.allocation),
        });
        self.used.get_or_init(|| used)
    }
}

/// The fields of `write_json`'s answer before the mechanism's extra fields, in its order.
const FIELDS: [&str; 7] = [
    "mechanism",
    "exact",
    "resources",
    "capacity",
    "users",
    "consumption",
    "saturated",
];

#[pymethods]
impl Answer {
    /// The answer's fields, in the CLI's order.
    fn keys(&self) -> Vec<&str> {
        let extra = self.solution.extra.keys().map(String::as_str);
        FIELDS.into_iter().chain(extra).collect()
    }

    /// The field `key` as Python objects, exact numbers as Fractions; `default` when the
    /// answer has no such field.
    #[pyo3(signature = (key, default=None))]
    fn get<'py>(
        &self,
        py: Python<'py>,
        key: &str,
        default: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (s, inst) = (&self.solution, &self.solution.instance);
        let fractions = |xs: &[Rational]| {
            let mut make = Fractions::new(py)?;
            let xs = xs.iter().map(|x| make.fraction(x));
            PyList::new(py, xs.collect::<PyResult<Vec<_>>>()?)?.into_bound_py_any(py)
        };
        match key {
            "mechanism" => s.mechanism.into_bound_py_any(py),
            "exact" => s.exact.into_bound_py_any(py),
            "resources" => inst.resources().into_bound_py_any(py),
            "capacity" => fractions(inst.capacity()),
            "users" => self.users(py),
            "consumption" => fractions(self.used(py)),
            "saturated" => saturated(inst, self.used(py)).into_bound_py_any(py),
            _ => match s.extra.get(key) {
                Some(v) => Fractions::new(py)?.value(v, is_text_key(key)),
                None => Ok(default.unwrap_or_else(|| py.None().into_bound(py))),
            },
        }
    }

    /// How many users.
    fn __len__(&self) -> usize {
        self.solution.instance.num_users()
    }
}

impl Answer {
    /// Every user's row (a dict per user, `write_json`'s fields); equal numbers are one
    /// Fraction (the weighted share is the dominant share's object when the user has no
    /// per-resource weights). Made from the `Rational`s' integers directly: through the
    /// serializer each number would be printed and read back (about twice the time on the
    /// benchmark's 100 x 5 answer).
    fn users<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let (inst, x) = (&self.solution.instance, &self.solution.allocation);
        let mut make = Fractions::new(py)?;
        // At most tasks, bundle and two shares per user: no rehashing as the caches grow.
        make.reserve(inst.num_users() * (inst.num_resources() + 3));
        let rows = PyList::empty(py);
        for (i, u) in inst.users().iter().enumerate() {
            let tasks = &x.tasks[i];
            let (dominant, weighted) = per_task_shares(inst, i);
            let allocation = u.demand.iter().map(|d| make.fraction(&(d * tasks)));
            let allocation = PyList::new(py, allocation.collect::<PyResult<Vec<_>>>()?)?;
            let share = make.fraction(&(tasks * &dominant))?;
            let weighted = match weighted {
                Some(w) => make.fraction(&(tasks * &w))?,
                None => share.clone(),
            };
            let row = PyDict::new(py);
            row.set_item(intern!(py, "name"), inst.user_path(i))?;
            row.set_item(intern!(py, "tasks"), make.fraction(tasks)?)?;
            row.set_item(intern!(py, "allocation"), allocation)?;
            row.set_item(intern!(py, "dominant_share"), share)?;
            row.set_item(intern!(py, "weighted_share"), weighted)?;
            rows.append(row)?;
        }
        Ok(rows.into_any())
    }
}
