//! Judging approximate allocations: the one place where the error an approximate
//! [`Allocation`] admits ([`Allocation::tolerance`]) becomes the margin a comparison must
//! clear before it counts as a violation.
//!
//! # Why the margins are safe
//! 1. *Task counts.* An allocation with tolerance `t` promises
//!    `|x_k − x*_k| <= t · max(1, |x*_k|)` for the true answer `x*`. In terms of the computed
//!    `x_k` this gives `|x_k − x*_k| <= e_k = t / (1 − t) · max(1, |x_k|)`
//!    ([`Allocation::error_bound`]; no bound when `t >= 1`), so `x*_k ∈ [x_k − e_k, x_k + e_k]`.
//!    An exact allocation has `e_k = 0`.
//! 2. *Derived quantities.* Everything an oracle compares is either a non-decreasing
//!    function of one task count — utilities `min(T_i, x_i)` and
//!    `min(T_i, min_j x_i d'_ij / d_ij)`, envy's scaled utility `min(T_i, min_j c_j x_k)` with
//!    `c_j >= 0`, weighted amounts `x_i d_ij / w_ij`, shares `x_i d_ij / R_j` — or a
//!    non-negative combination of task counts — consumption `Σ_k x_k d_kj`. A non-decreasing
//!    `f` maps the interval to `f(x*) ∈ [f(x − e), f(x + e)]`, and consumption is within
//!    `Σ_k e_k d_kj = t/(1 − t) · Σ_k max(1, |x_k|) d_kj` of the computed one, which is
//!    also the error of every slack `R_j − used_j`. [`Bounded`] carries a computed value
//!    with this interval.
//! 3. *Comparisons.* A strict `a < b` counts only when `hi(a) < lo(b)` — i.e. `a < b − m`
//!    with the margin `m = (hi(a) − a) + (b − lo(b))` — and a weak `a <= b` (GSP strong's
//!    "no liar loses") only when `hi(a) <= lo(b)` ([`Test`]). Then the comparison holds for
//!    every true allocation the error admits, so the reported violation is genuine; an
//!    unbounded interval never clears a margin. With exact allocations `lo = hi = value`
//!    and every decision is the exact one.
//! 4. *Conjunctions and the PO gain.* A violation that needs several comparisons
//!    (PO: below the cap *and* every needed resource unsaturated) counts when all of them
//!    count; the PO witness then raises the user by the gain guaranteed under every
//!    admissible truth, `min(T_i − hi(x_i), min_j (R_j − hi(used_j)) / d_ij) > 0`, which is
//!    also feasible on the computed allocation.
//!
//! A verdict is "within tolerance" ([`Verdict::within_tolerance`]) when it holds although
//! some decisive test held on the computed numbers read exactly but not beyond the margin:
//! [`Judge`] records that and writes the note.

use crate::{Allocation, Instance, Rational};

use super::{Outcome, Verdict};

/// The interval of a computed value's true value.
#[derive(Debug, Clone)]
enum Spread {
    /// The computed value is the true one.
    Exact,
    /// `lo <= true <= hi`.
    Within { lo: Rational, hi: Rational },
    /// Nothing is known.
    Unbounded,
}

/// A computed quantity with bounds on its true value (step 2 of the [module
/// docs](self)).
#[derive(Debug, Clone)]
pub(crate) struct Bounded {
    /// The value computed from the given task counts.
    pub(crate) value: Rational,
    spread: Spread,
}

impl Bounded {
    /// An exactly known value.
    pub(crate) fn exact(value: Rational) -> Self {
        Bounded {
            value,
            spread: Spread::Exact,
        }
    }

    /// User `i`'s task count in `x`, with `[x_i − e_i, x_i + e_i]`.
    pub(crate) fn tasks(x: &Allocation, i: usize) -> Self {
        let value = x.tasks[i].clone();
        let spread = match x.error_bound(i) {
            Some(e) if e.is_zero() => Spread::Exact,
            Some(e) => Spread::Within {
                lo: &value - &e,
                hi: &value + &e,
            },
            None => Spread::Unbounded,
        };
        Bounded { value, spread }
    }

    /// `f` of this quantity, for a **non-decreasing** `f`: `[f(lo), f(hi)]`.
    pub(crate) fn map(&self, f: impl Fn(&Rational) -> Rational) -> Self {
        let spread = match &self.spread {
            Spread::Exact => Spread::Exact,
            Spread::Within { lo, hi } => Spread::Within {
                lo: f(lo),
                hi: f(hi),
            },
            Spread::Unbounded => Spread::Unbounded,
        };
        Bounded {
            value: f(&self.value),
            spread,
        }
    }

    /// The least the true value can be (`None`: unbounded).
    pub(crate) fn lo(&self) -> Option<&Rational> {
        match &self.spread {
            Spread::Exact => Some(&self.value),
            Spread::Within { lo, .. } => Some(lo),
            Spread::Unbounded => None,
        }
    }

    /// The most the true value can be (`None`: unbounded).
    pub(crate) fn hi(&self) -> Option<&Rational> {
        match &self.spread {
            Spread::Exact => Some(&self.value),
            Spread::Within { hi, .. } => Some(hi),
            Spread::Unbounded => None,
        }
    }
}

impl Bounded {
    /// `value` within `± spread`; `None` when some error is unbounded.
    fn around(value: Rational, spread: Option<Rational>) -> Bounded {
        let spread = match spread {
            Some(s) if s.is_zero() => Spread::Exact,
            Some(s) => Spread::Within {
                lo: &value - &s,
                hi: &value + &s,
            },
            None => Spread::Unbounded,
        };
        Bounded { value, spread }
    }
}

/// Total use of each resource, `Σ_k x_k d_kj`, given its exact value `used` on the computed
/// tasks, within `± Σ_k e_k d_kj`.
pub(crate) fn consumption_bounds(
    instance: &Instance,
    x: &Allocation,
    used: Vec<Rational>,
) -> Vec<Bounded> {
    if x.tolerance.as_ref().is_none_or(Rational::is_zero) {
        return used.into_iter().map(Bounded::exact).collect();
    }
    let errors: Vec<Option<Rational>> = (0..x.tasks.len()).map(|k| x.error_bound(k)).collect();
    used.into_iter()
        .enumerate()
        .map(|(j, value)| {
            let mut spread = Some(Rational::ZERO);
            for (u, e) in instance.users().iter().zip(&errors) {
                let d = &u.demand[j];
                if d.is_zero() {
                    continue;
                }
                spread = match (spread, e) {
                    (Some(s), Some(e)) => Some(s + e * d),
                    _ => None,
                };
            }
            Bounded::around(value, spread)
        })
        .collect()
}

/// What the users `below` hold of each resource, `Σ_k x_k d_kj` over them, within
/// `± Σ_k e_k d_kj` (a node's holdings, for its limit).
pub(crate) fn holdings_bounds(
    instance: &Instance,
    x: &Allocation,
    below: &[usize],
) -> Vec<Bounded> {
    let m = instance.num_resources();
    (0..m)
        .map(|j| {
            let mut spread = Some(Rational::ZERO);
            for &k in below {
                let d = &instance.users()[k].demand[j];
                if d.is_zero() {
                    continue;
                }
                spread = match (spread, x.error_bound(k)) {
                    (Some(s), Some(e)) => Some(s + &e * d),
                    _ => None,
                };
            }
            let value = x.consumption_among(instance, below.iter().copied(), j);
            Bounded::around(value, spread)
        })
        .collect()
}

/// A test decided twice: on the computed numbers read exactly, and for every true value the
/// errors admit (step 3 of the [module docs](self)). `certain` implies `exact`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Test {
    /// The test holds on the computed numbers.
    pub(crate) exact: bool,
    /// The test holds beyond the margin: for every admissible true value.
    pub(crate) certain: bool,
}

impl Test {
    /// A test that holds.
    pub(crate) const TRUE: Test = Test {
        exact: true,
        certain: true,
    };

    /// A test decided elsewhere: `exact` on the computed numbers, `certain` beyond the
    /// margin (which implies `exact`).
    pub(crate) fn decided(exact: bool, certain: bool) -> Test {
        Test {
            exact: exact || certain,
            certain,
        }
    }

    /// `a < b`.
    pub(crate) fn less(a: &Bounded, b: &Bounded) -> Test {
        Test {
            exact: a.value < b.value,
            certain: matches!((a.hi(), b.lo()), (Some(h), Some(l)) if h < l),
        }
    }

    /// `a <= b`.
    pub(crate) fn at_most(a: &Bounded, b: &Bounded) -> Test {
        Test {
            exact: a.value <= b.value,
            certain: matches!((a.hi(), b.lo()), (Some(h), Some(l)) if h <= l),
        }
    }

    /// `a < b` for an exactly known `b`.
    pub(crate) fn less_than(a: &Bounded, b: &Rational) -> Test {
        Test {
            exact: a.value < *b,
            certain: a.hi().is_some_and(|h| h < b),
        }
    }

    /// `a > b` for an exactly known `b`.
    pub(crate) fn more_than(a: &Bounded, b: &Rational) -> Test {
        Test {
            exact: a.value > *b,
            certain: a.lo().is_some_and(|l| l > b),
        }
    }

    /// Both tests.
    pub(crate) fn and(self, other: Test) -> Test {
        Test {
            exact: self.exact && other.exact,
            certain: self.certain && other.certain,
        }
    }

    /// Either test.
    pub(crate) fn or(self, other: Test) -> Test {
        Test {
            exact: self.exact || other.exact,
            certain: self.certain || other.certain,
        }
    }

    /// Every test (true when there are none).
    pub(crate) fn all(tests: impl IntoIterator<Item = Test>) -> Test {
        tests.into_iter().fold(Test::TRUE, Test::and)
    }

    /// Some test (false when there are none).
    pub(crate) fn any(tests: impl IntoIterator<Item = Test>) -> Test {
        let none = Test {
            exact: false,
            certain: false,
        };
        tests.into_iter().fold(none, Test::or)
    }
}

/// Settles the tests that decide a verdict and remembers what the tolerance excused.
#[derive(Debug, Clone, Default)]
pub(crate) struct Judge {
    /// The largest tolerance of the allocations involved.
    tolerance: Option<Rational>,
    /// Some decisive test held on the computed numbers but not beyond the margin.
    excused: bool,
}

impl Judge {
    /// A judge for verdicts on `x` (and whatever else is [`involve`](Judge::involve)d).
    pub(crate) fn on(x: &Allocation) -> Self {
        let mut judge = Judge::default();
        judge.involve(x);
        judge
    }

    /// Records that `x` takes part in the verdict.
    pub(crate) fn involve(&mut self, x: &Allocation) {
        if let Some(t) = &x.tolerance {
            let t = t.abs();
            if !t.is_zero() && self.tolerance.as_ref().is_none_or(|s| *s < t) {
                self.tolerance = Some(t);
            }
        }
    }

    /// Whether a decisive test (one that makes a violation) counts: it must be certain.
    /// One that holds only on the computed numbers is excused and remembered.
    pub(crate) fn settle(&mut self, test: Test) -> bool {
        if test.exact && !test.certain {
            self.excused = true;
        }
        test.certain
    }

    /// The outcome of `scenarios` tried: the verdict [`finish`](Judge::finish)ed, and whether
    /// a holding verdict covers only part of the scenario space.
    pub(crate) fn outcome(&self, verdict: Verdict, scenarios: usize, bounded: bool) -> Outcome {
        Outcome {
            verdict: self.finish(verdict),
            scenarios,
            bounded,
        }
    }

    /// The verdict with the tolerance, [`Verdict::within_tolerance`] and the note set.
    pub(crate) fn finish(&self, mut verdict: Verdict) -> Verdict {
        let Some(t) = &self.tolerance else {
            return verdict;
        };
        if !verdict.applicable {
            return verdict;
        }
        verdict.tolerance = Some(t.clone());
        verdict.within_tolerance = verdict.holds && self.excused;
        verdict.note = if verdict.within_tolerance {
            format!(
                "{}; holds within numerical tolerance: decided with tolerance {t}, and some \
                 comparison fell inside the margin that this error allows",
                verdict.note
            )
        } else {
            format!(
                "{}; decided with tolerance {t} (only differences beyond the margin that this \
                 error allows count)",
                verdict.note
            )
        };
        verdict
    }
}
