//! `solve`'s answer held in Rust: the instance, the exact allocation and the fields written
//! beside it, turned into Python objects only when asked for. An answer of a few hundred
//! users holds hundreds of exact numbers of hundreds of bits; making a `fractions.Fraction`
//! of each costs about as much as the solve itself, and a caller often reads a few of them.
//!
//! The pieces are those of the CLI's JSON answer (`write_json`): `mechanism`, `exact`,
//! `resources`, `capacity`, `users` (name, tasks, allocation, dominant and weighted share),
//! `consumption`, `saturated`, then the mechanism's extra fields; the Python layer
//! (`leontief.Allocation`) caches what it builds and assembles `to_dict()` in that order.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::{Arc, OnceLock};

use leontief::commands::solve::Solution;
use leontief::output::allocation::{consumption, per_task_shares, saturated};
use leontief::solver::Rational;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList, PyTuple};

use crate::{big_int, maker, to_py, TEXT_KEYS};

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

#[pymethods]
impl Answer {
    /// The mechanism's name.
    #[getter]
    fn mechanism(&self) -> &'static str {
        self.solution.mechanism
    }

    /// Whether the numbers are exact.
    #[getter]
    fn exact(&self) -> bool {
        self.solution.exact
    }

    /// The resources' names.
    fn resources(&self) -> Vec<String> {
        self.solution.instance.resources().to_vec()
    }

    /// How many users.
    fn __len__(&self) -> usize {
        self.solution.instance.num_users()
    }

    /// The capacities, as Fractions.
    fn capacity<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        Fractions::new(py)?.list(self.solution.instance.capacity().iter().cloned())
    }

    /// Every user's row: `(name, tasks, allocation, dominant_share, weighted_share)`, the
    /// weighted share the dominant share's object when the user has no per-resource weights.
    fn users<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let (inst, x) = (&self.solution.instance, &self.solution.allocation);
        let mut make = Fractions::new(py)?;
        // At most tasks, bundle and two shares per user: no rehashing as the caches grow.
        make.reserve(inst.num_users() * (inst.num_resources() + 3));
        let rows = PyList::empty(py);
        for (i, u) in inst.users().iter().enumerate() {
            let t = &x.tasks[i];
            let (dominant, weighted) = per_task_shares(inst, i);
            let share = make.fraction(&(t * &dominant))?;
            let weighted = match weighted {
                Some(w) => make.fraction(&(t * &w))?,
                None => share.clone(),
            };
            let row = PyTuple::new(
                py,
                [
                    inst.user_path(i).into_pyobject(py)?.into_any(),
                    make.fraction(t)?,
                    make.list(u.demand.iter().map(|d| d * t))?.into_any(),
                    share,
                    weighted,
                ],
            )?;
            rows.append(row)?;
        }
        Ok(rows)
    }

    /// What the users consume of each resource, as Fractions.
    fn consumption<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        Fractions::new(py)?.list(self.used(py).iter().cloned())
    }

    /// The resources used to capacity.
    fn saturated(&self, py: Python<'_>) -> Vec<String> {
        saturated(&self.solution.instance, self.used(py))
            .into_iter()
            .map(str::to_owned)
            .collect()
    }

    /// The fields written after the allocation (trace, LP stages, discrete options), in the
    /// CLI's order, exact numbers as Fractions.
    fn extra<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let out = PyDict::new(py);
        for (k, v) in &self.solution.extra {
            out.set_item(k, to_py(py, v, TEXT_KEYS.contains(&k.as_str()))?)?;
        }
        Ok(out)
    }
}

/// Makes the Fractions of one answer, each distinct value once (Fractions are immutable):
/// an answer's numbers repeat values (zero entries, equal shares) and share few denominators
/// (users frozen at the same level), and a Python int of a hundred bits costs more to make
/// than to look up.
struct Fractions<'py> {
    py: Python<'py>,
    fraction: Bound<'py, PyAny>,
    object_new: Bound<'py, PyAny>,
    /// Whether a bare `Fraction` with its slots set is the Fraction (checked once per
    /// process: the slots are CPython's private layout); if not, the public constructor.
    slots: bool,
    ints: HashMap<Int, Bound<'py, PyAny>, BuildHasherDefault<WordHasher>>,
    values: HashMap<(Int, Int), Bound<'py, PyAny>, BuildHasherDefault<WordHasher>>,
}

/// An integer, as a cache key.
#[derive(PartialEq, Eq, Hash, Clone)]
enum Int {
    Small(i128),
    Big(num_bigint::BigInt),
}

impl<'py> Fractions<'py> {
    fn new(py: Python<'py>) -> PyResult<Self> {
        let m = maker(py)?;
        let mut make = Fractions {
            py,
            fraction: m.fraction.bind(py).clone(),
            object_new: m.object_new.bind(py).clone(),
            slots: true,
            ints: HashMap::default(),
            values: HashMap::default(),
        };
        make.slots = slots_work(&mut make)?;
        Ok(make)
    }

    /// Room for `n` distinct values (and as many integers) without growing the caches.
    fn reserve(&mut self, n: usize) {
        self.values.reserve(n);
        self.ints.reserve(n);
    }

    /// A Python int: machine words directly, larger ones made once per value.
    fn int(&mut self, x: &Int) -> PyResult<Bound<'py, PyAny>> {
        if let Int::Small(v) = x
            && let Ok(v) = i64::try_from(*v)
        {
            return Ok(v.into_pyobject(self.py)?.into_any());
        }
        if let Some(v) = self.ints.get(x) {
            return Ok(v.clone());
        }
        let v = match x {
            Int::Small(v) => v.into_pyobject(self.py)?.into_any(),
            Int::Big(v) => big_int(self.py, v)?,
        };
        self.ints.insert(x.clone(), v.clone());
        Ok(v)
    }

    /// The Fraction of `x` (in lowest terms, as `Rational` keeps it: the constructor's gcd
    /// is skipped by setting the two slots of a bare `Fraction`).
    fn fraction(&mut self, x: &Rational) -> PyResult<Bound<'py, PyAny>> {
        // Keyed by the integers (a `Rational`'s own hash expands a continued fraction).
        let key = match x.as_small() {
            Some((n, d)) => (Int::Small(n), Int::Small(d)),
            None => (Int::Big(x.numer()), Int::Big(x.denom())),
        };
        if let Some(v) = self.values.get(&key) {
            return Ok(v.clone());
        }
        let (n, d) = (self.int(&key.0)?, self.int(&key.1)?);
        let f = self.make(n, d)?;
        self.values.insert(key, f.clone());
        Ok(f)
    }

    fn make(&self, n: Bound<'py, PyAny>, d: Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let py = self.py;
        if !self.slots {
            return self.fraction.call1((n, d));
        }
        let f = self.object_new.call1((&self.fraction,))?;
        f.setattr(pyo3::intern!(py, "_numerator"), n)?;
        f.setattr(pyo3::intern!(py, "_denominator"), d)?;
        Ok(f)
    }

    fn list(&mut self, xs: impl IntoIterator<Item = Rational>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(self.py);
        for x in xs {
            list.append(self.fraction(&x)?)?;
        }
        Ok(list)
    }
}

/// A multiply-rotate hash over words (the keys are integers made by this process, not
/// chosen by an adversary): SipHash was a tenth of the time spent making an answer's
/// Fractions.
#[derive(Default)]
struct WordHasher(u64);

impl Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// Whether Fractions made by setting the slots equal the constructor's (value, hash, text,
/// arithmetic), decided once per process.
fn slots_work(make: &mut Fractions<'_>) -> PyResult<bool> {
    static WORK: PyOnceLock<bool> = PyOnceLock::new();
    let py = make.py;
    WORK.get_or_try_init(py, || {
        let x = Rational::new(-3, 4).expect("a nonzero denominator");
        let made = match make.fraction(&x) {
            Ok(f) => f,
            Err(_) => return Ok(false),
        };
        make.values.clear();
        let public = make.fraction.call1((-3, 4))?;
        let same = made.eq(&public)?
            && made.hash()? == public.hash()?
            && made.str()?.to_cow()? == public.str()?.to_cow()?
            && made.add(&public)?.eq(make.fraction.call1((-3, 2))?)?
            && made
                .get_type()
                .is(make.fraction.cast::<pyo3::types::PyType>()?);
        Ok(same)
    })
    .copied()
}
