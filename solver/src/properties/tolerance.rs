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
//! 5. *Exact algebraic answers.* When an approximate answer comes with its exact form
//!    ([`Answer`], the [`exact`](super::exact) module), a quantity carries its true value
//!    as a real algebraic number ([`Spread::Algebraic`]) and every comparison whose sides
//!    are both known exactly is decided by the algebraic kernel — with no margin, equality
//!    included. The derived quantities of step 2 are all `min(T, c · x)` of one count `x`
//!    ([`Gauge`]), a Möbius image capped by a rational, or consumption, an exact sum. Should
//!    the kernel hit one of its limits, the comparison falls back to the isolating
//!    intervals (rigorous bounds, as in step 3) and the verdict says so.
//!
//! A verdict is "within tolerance" ([`Verdict::within_tolerance`]) when it holds although
//! some decisive test held on the computed numbers read exactly but not beyond the margin:
//! [`Judge`] records that and writes the note.

use std::cmp::Ordering;
use std::fmt::Write;

use crate::algebraic::RealAlgebraic;
use crate::{Instance, Mechanism, Rational, SolverError};

use super::exact::{exact_sum, limits, Answer, Form};
use super::{check_tasks, Outcome, Verdict};

/// The interval of a computed value's true value.
#[derive(Debug, Clone)]
enum Spread {
    /// The computed value is the true one.
    Exact,
    /// `lo <= true <= hi`. With `fell_back`, an exact value the kernel could not form (a
    /// limit), bounded by the isolating intervals: every comparison with it is marked
    /// undecided.
    Within {
        lo: Rational,
        hi: Rational,
        fell_back: bool,
    },
    /// Nothing is known.
    Unbounded,
    /// The true value is `exact`, a real algebraic number, within `lo <= exact <= hi` (its
    /// isolating interval: the bounds a comparison falls back to).
    Algebraic {
        exact: RealAlgebraic,
        lo: Rational,
        hi: Rational,
    },
}

impl Spread {
    /// The true value known exactly, `lo = hi` of its interval.
    fn algebraic(exact: RealAlgebraic) -> Spread {
        let (lo, hi) = exact.interval();
        let (lo, hi) = (
            Rational::from_big(lo.clone()),
            Rational::from_big(hi.clone()),
        );
        Spread::Algebraic { exact, lo, hi }
    }
}

/// `y ↦ min(cap, c · y)`: every quantity an oracle derives from one task count `y` (step 2
/// of the [module docs](self)). `c` is a minimum of non-negative ratios `c_j`, which is
/// `low · y` for `y >= 0` and `high · y` below 0 (`low`, `high` the least and largest
/// ratio); `None` when some ratio is 0 and the quantity vanishes.
#[derive(Debug, Clone)]
pub struct Gauge {
    ratios: Option<(Rational, Rational)>,
    cap: Option<Rational>,
}

impl Gauge {
    /// `min(cap, min_j c_j y)` over the given ratios (at least one), `0` when one is 0.
    pub fn min_of(ratios: impl IntoIterator<Item = Rational>, cap: Option<&Rational>) -> Gauge {
        let mut range: Option<(Rational, Rational)> = None;
        let mut vanishes = false;
        for r in ratios {
            vanishes |= r.is_zero();
            range = Some(match range {
                None => (r.clone(), r),
                Some((lo, hi)) => (lo.min(r.clone()), hi.max(r)),
            });
        }
        Gauge {
            ratios: if vanishes { None } else { range },
            cap: cap.cloned(),
        }
    }

    /// `c · y`, uncapped.
    pub fn scale(c: Rational) -> Gauge {
        Gauge::min_of([c], None)
    }

    /// `min(cap, y)`: a utility at the truth.
    pub fn capped(cap: Option<&Rational>) -> Gauge {
        Gauge::min_of([Rational::ONE], cap)
    }

    /// The quantity at a rational `y`.
    pub fn apply(&self, y: &Rational) -> Rational {
        let Some((low, high)) = &self.ratios else {
            return Rational::ZERO;
        };
        let v = if y.is_negative() { y * high } else { y * low };
        match &self.cap {
            Some(t) if *t < v => t.clone(),
            _ => v,
        }
    }

    /// The quantity at a real algebraic `y`, exactly: a Möbius image, then the cap; `None`
    /// when the kernel meets one of its limits.
    pub fn apply_exact(&self, y: &RealAlgebraic) -> Option<RealAlgebraic> {
        let Some((low, high)) = &self.ratios else {
            return Some(RealAlgebraic::from_rational(Rational::ZERO.to_big()));
        };
        let c = if y.signum() < 0 { high } else { low };
        let (zero, one) = (Rational::ZERO.to_big(), Rational::ONE.to_big());
        let v = if c.is_zero() {
            RealAlgebraic::from_rational(zero)
        } else {
            y.mobius([&c.to_big(), &zero, &zero, &one], &limits())
                .ok()?
        };
        Some(match &self.cap {
            Some(t) if v.cmp_rational(&t.to_big()) == Ordering::Greater => {
                RealAlgebraic::from_rational(t.to_big())
            }
            _ => v,
        })
    }
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
    /// User `i`'s task count in `answer`, with `[x_i − e_i, x_i + e_i]`, or its exact value
    /// when the answer has its algebraic form.
    pub(crate) fn tasks(answer: &Answer, i: usize) -> Self {
        let x = &answer.allocation;
        let value = x.tasks[i].clone();
        if let Some(exact) = answer.algebraic() {
            return Bounded {
                value,
                spread: Spread::algebraic(exact[i].clone()),
            };
        }
        Bounded::around(value, x.error_bound(i))
    }

    /// Every user's task count in `answer` ([`Bounded::tasks`]).
    pub(crate) fn all_tasks(answer: &Answer) -> Vec<Self> {
        let n = answer.allocation.tasks.len();
        (0..n).map(|i| Bounded::tasks(answer, i)).collect()
    }

    /// The quantity `g` of this one (non-decreasing): `[g(lo), g(hi)]`, or `g` of the exact
    /// value. Should the kernel fail on it (a limit), the image of the isolating interval.
    pub(crate) fn map(&self, g: &Gauge) -> Self {
        let f = |y: &Rational| g.apply(y);
        let within = |lo, hi, fell_back| Spread::Within {
            lo: f(lo),
            hi: f(hi),
            fell_back,
        };
        let spread = match &self.spread {
            Spread::Exact => Spread::Exact,
            Spread::Within { lo, hi, fell_back } => within(lo, hi, *fell_back),
            Spread::Unbounded => Spread::Unbounded,
            Spread::Algebraic { exact, lo, hi } => match g.apply_exact(exact) {
                Some(v) => Spread::algebraic(v),
                None => within(lo, hi, true),
            },
        };
        Bounded {
            value: f(&self.value),
            spread,
        }
    }

    /// The true value when it is known exactly (as a real algebraic number, rational ones
    /// of degree 1), `None` for a bounded or unbounded one.
    pub(crate) fn exact_value(&self) -> Option<RealAlgebraic> {
        match &self.spread {
            Spread::Exact => Some(RealAlgebraic::from_rational(self.value.to_big())),
            Spread::Algebraic { exact, .. } => Some(exact.clone()),
            _ => None,
        }
    }

    /// The exact value as a printable figure, when it comes from an exact algebraic form.
    pub(crate) fn exact_figure(&self) -> Option<crate::ceei::ExactNumber> {
        match &self.spread {
            Spread::Algebraic { exact, .. } => super::exact::exact_number(exact),
            _ => None,
        }
    }

    /// Whether the true value comes from an exact algebraic form.
    fn is_algebraic(&self) -> bool {
        matches!(self.spread, Spread::Algebraic { .. })
    }

    /// Whether an exact value was lost to a limit of the kernel.
    fn fell_back(&self) -> bool {
        matches!(
            self.spread,
            Spread::Within {
                fell_back: true,
                ..
            }
        )
    }

    /// The least the true value can be (`None`: unbounded).
    pub(crate) fn lo(&self) -> Option<&Rational> {
        self.range().map(|(lo, _)| lo)
    }

    /// The most the true value can be (`None`: unbounded).
    pub(crate) fn hi(&self) -> Option<&Rational> {
        self.range().map(|(_, hi)| hi)
    }

    /// The least and the most the true value can be (`None`: unbounded).
    fn range(&self) -> Option<(&Rational, &Rational)> {
        match &self.spread {
            Spread::Exact => Some((&self.value, &self.value)),
            Spread::Within { lo, hi, .. } | Spread::Algebraic { lo, hi, .. } => Some((lo, hi)),
            Spread::Unbounded => None,
        }
    }

    /// `value` within `± spread`; `None` when some error is unbounded.
    fn around(value: Rational, spread: Option<Rational>) -> Bounded {
        let spread = match spread {
            Some(s) if s.is_zero() => Spread::Exact,
            Some(s) => Spread::Within {
                lo: &value - &s,
                hi: &value + &s,
                fell_back: false,
            },
            None => Spread::Unbounded,
        };
        Bounded { value, spread }
    }
}

/// What the users `among` hold of each resource, `Σ_k x_k d_kj` over them (all users: the
/// consumption), within `± Σ_k e_k d_kj` (or exactly, for an answer with its algebraic form).
pub(crate) fn holdings_bounds(
    instance: &Instance,
    answer: &Answer,
    among: &[usize],
) -> Vec<Bounded> {
    let x = &answer.allocation;
    (0..instance.num_resources())
        .map(|j| {
            let value = x.consumption_among(instance, among.iter().copied(), j);
            if let Some(exact) = answer.algebraic() {
                return exact_consumption(instance, exact, among, j, value);
            }
            let spread = among.iter().try_fold(Rational::ZERO, |s, &k| {
                let d = &instance.users()[k].demand[j];
                if d.is_zero() {
                    return Some(s);
                }
                Some(s + &x.error_bound(k)? * d)
            });
            Bounded::around(value, spread)
        })
        .collect()
}

/// `Σ_{k in users} x_k d_kj` of the exact task counts, beside its computed `value`; when the
/// kernel fails on the sum (a limit), the sum of the isolating intervals.
fn exact_consumption(
    instance: &Instance,
    exact: &[RealAlgebraic],
    users: &[usize],
    j: usize,
    value: Rational,
) -> Bounded {
    let terms: Vec<(Rational, &RealAlgebraic)> = users
        .iter()
        .map(|&k| (instance.users()[k].demand[j].clone(), &exact[k]))
        .collect();
    let spread = match exact_sum(&terms, &limits()) {
        Ok(sum) => Spread::algebraic(sum),
        Err(_) => {
            let (mut lo, mut hi) = (Rational::ZERO, Rational::ZERO);
            for (d, x) in &terms {
                let (a, b) = x.interval();
                lo += &(d * &Rational::from_big(a.clone()));
                hi += &(d * &Rational::from_big(b.clone()));
            }
            Spread::Within {
                lo,
                hi,
                fell_back: true,
            }
        }
    };
    Bounded { value, spread }
}

/// A test decided twice: on the computed numbers read exactly, and for every true value the
/// errors admit (step 3 of the [module docs](self)). `certain` implies `exact`. A test whose
/// sides are both known exactly (step 5) is decided once: `exact == certain`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Test {
    /// The test holds on the computed numbers.
    pub(crate) exact: bool,
    /// The test holds beyond the margin: for every admissible true value.
    pub(crate) certain: bool,
    /// An exact comparison hit a limit of the algebraic kernel and was decided on the
    /// isolating intervals instead.
    pub(crate) undecided: bool,
}

impl Test {
    /// A test that holds.
    pub(crate) const TRUE: Test = Test {
        exact: true,
        certain: true,
        undecided: false,
    };

    /// A test decided elsewhere: `exact` on the computed numbers, `certain` beyond the
    /// margin (which implies `exact`).
    pub(crate) fn decided(exact: bool, certain: bool) -> Test {
        Test {
            exact: exact || certain,
            certain,
            undecided: false,
        }
    }

    /// The order of the true values when both are known exactly and one comes from an
    /// algebraic form (`Err` when the kernel hits a limit); `None` otherwise.
    fn exact_order(a: &Bounded, b: &Bounded) -> Option<Result<Ordering, ()>> {
        if !(a.is_algebraic() || b.is_algebraic()) {
            return None;
        }
        let (x, y) = (a.exact_value()?, b.exact_value()?);
        Some(x.try_cmp(&y, &limits()).map_err(|_| ()))
    }

    /// `a < b`.
    pub(crate) fn less(a: &Bounded, b: &Bounded) -> Test {
        Test::compare(a, b, Ordering::is_lt)
    }

    /// `a <= b`.
    pub(crate) fn at_most(a: &Bounded, b: &Bounded) -> Test {
        Test::compare(a, b, Ordering::is_le)
    }

    /// `holds(a ? b)` for `holds` true on `Less` (`<` or `<=`): certain when it holds of
    /// the most `a` and the least `b` can be.
    fn compare(a: &Bounded, b: &Bounded, holds: fn(Ordering) -> bool) -> Test {
        let undecided = match Test::exact_order(a, b) {
            Some(Ok(o)) => return Test::decided(holds(o), holds(o)),
            Some(Err(())) => true,
            None => a.fell_back() || b.fell_back(),
        };
        Test {
            exact: holds(a.value.cmp(&b.value)),
            certain: matches!((a.hi(), b.lo()), (Some(h), Some(l)) if holds(h.cmp(l))),
            undecided,
        }
    }

    /// `a < b` for an exactly known `b`.
    pub(crate) fn less_than(a: &Bounded, b: &Rational) -> Test {
        Test::against(a, b, Ordering::is_lt, a.hi())
    }

    /// `a > b` for an exactly known `b`.
    pub(crate) fn more_than(a: &Bounded, b: &Rational) -> Test {
        Test::against(a, b, Ordering::is_gt, a.lo())
    }

    /// `holds(a ? b)` for an exactly known `b`: certain when it holds of `worst`, the bound
    /// of `a` nearest to failing it.
    fn against(
        a: &Bounded,
        b: &Rational,
        holds: fn(Ordering) -> bool,
        worst: Option<&Rational>,
    ) -> Test {
        if let Spread::Algebraic { exact, .. } = &a.spread {
            let holds = holds(exact.cmp_rational(&b.to_big()));
            return Test::decided(holds, holds);
        }
        Test {
            exact: holds(a.value.cmp(b)),
            certain: worst.is_some_and(|w| holds(w.cmp(b))),
            undecided: a.fell_back(),
        }
    }

    /// Both tests.
    pub(crate) fn and(self, other: Test) -> Test {
        Test {
            exact: self.exact && other.exact,
            certain: self.certain && other.certain,
            undecided: self.undecided || other.undecided,
        }
    }

    /// Either test.
    pub(crate) fn or(self, other: Test) -> Test {
        Test {
            exact: self.exact || other.exact,
            certain: self.certain || other.certain,
            undecided: self.undecided || other.undecided,
        }
    }

    /// Every test (true when there are none).
    pub(crate) fn all(tests: impl IntoIterator<Item = Test>) -> Test {
        tests.into_iter().fold(Test::TRUE, Test::and)
    }

    /// Some test (false when there are none).
    pub(crate) fn any(tests: impl IntoIterator<Item = Test>) -> Test {
        tests
            .into_iter()
            .fold(Test::decided(false, false), Test::or)
    }
}

/// Settles the tests that decide a verdict and remembers what the tolerance excused.
#[derive(Debug, Clone, Default)]
pub(crate) struct Judge {
    /// The largest tolerance of the allocations judged with their margins.
    tolerance: Option<Rational>,
    /// The largest tolerance of the allocations decided on their exact algebraic form (the
    /// margin a comparison falls back to when the kernel hits a limit).
    exact_tolerance: Option<Rational>,
    /// Some allocation was decided on its exact algebraic form.
    algebraic: bool,
    /// Why the exact form of an approximate allocation was refused (each reason once).
    refused: Vec<String>,
    /// Some decisive test held on the computed numbers but not beyond the margin.
    excused: bool,
    /// Some exact comparison fell back to the isolating intervals.
    undecided: bool,
    /// Whether the answers under the scenarios seek their exact form (as the truth did).
    seek_exact: bool,
}

/// Keeps the larger of `slot` and `t`.
fn raise(slot: &mut Option<Rational>, t: &Rational) {
    if slot.as_ref().is_none_or(|s| s < t) {
        *slot = Some(t.clone());
    }
}

impl Judge {
    /// A judge for verdicts on `x` (and whatever else is [`involve`](Judge::involve)d).
    pub(crate) fn on(x: &Answer) -> Self {
        let mut judge = Judge {
            seek_exact: x.sought,
            ..Judge::default()
        };
        judge.involve(x);
        judge
    }

    /// The mechanism's answer on a scenario's instance, checked to have one entry per user
    /// (`field` names it in the error) and [`involve`](Judge::involve)d: with its exact form
    /// when the truth sought one, as given otherwise.
    pub(crate) fn answer(
        &mut self,
        mechanism: &dyn Mechanism,
        instance: &Instance,
        field: &str,
    ) -> Result<Answer, SolverError> {
        let x = if self.seek_exact {
            Answer::compute(mechanism, instance)?
        } else {
            Answer::given(mechanism.allocate(instance)?)
        };
        check_tasks(instance, &x.allocation, field)?;
        self.involve(&x);
        Ok(x)
    }

    /// Records that `x` takes part in the verdict.
    pub(crate) fn involve(&mut self, x: &Answer) {
        let Some(t) = x.allocation.tolerance.as_ref().map(Rational::abs) else {
            return;
        };
        if t.is_zero() {
            return;
        }
        match &x.form {
            Form::Algebraic(_) => {
                self.algebraic = true;
                raise(&mut self.exact_tolerance, &t);
            }
            Form::Refused(reason) => {
                raise(&mut self.tolerance, &t);
                if !self.refused.contains(reason) {
                    self.refused.push(reason.clone());
                }
            }
            Form::Given => raise(&mut self.tolerance, &t),
        }
    }

    /// Whether a decisive test (one that makes a violation) counts: it must be certain.
    /// One that holds only on the computed numbers is excused and remembered.
    pub(crate) fn settle(&mut self, test: Test) -> bool {
        if test.exact && !test.certain {
            self.excused = true;
        }
        self.undecided |= test.undecided;
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
        if !verdict.applicable {
            return verdict;
        }
        // An exact comparison that fell back to the intervals (or excused something, which
        // only such a fallback can) leaves the verdict resting on the margins after all.
        let fell_back =
            self.algebraic && (self.undecided || (self.excused && self.tolerance.is_none()));
        let mut tolerance = self.tolerance.clone();
        if fell_back && let Some(t) = &self.exact_tolerance {
            raise(&mut tolerance, t);
        }
        let Some(t) = &tolerance else {
            if self.algebraic {
                let note = "; compared exactly on the algebraic equilibria, with no margin";
                verdict.note.push_str(note);
            }
            return verdict;
        };
        let note = &mut verdict.note;
        if !self.refused.is_empty() {
            write!(note, "; no exact form: {}", self.refused.join("; ")).unwrap();
        }
        if fell_back {
            note.push_str(
                "; an exact comparison exceeded the algebraic kernel's limits and fell back to \
                 the margins",
            );
        }
        let within_tolerance = verdict.holds && self.excused;
        if within_tolerance {
            write!(
                note,
                "; holds within numerical tolerance: decided with tolerance {t}, and some \
                 comparison fell inside the margin that this error allows"
            )
        } else {
            write!(
                note,
                "; decided with tolerance {t} (only differences beyond the margin that this \
                 error allows count)"
            )
        }
        .unwrap();
        verdict.tolerance = Some(t.clone());
        verdict.within_tolerance = within_tolerance;
        verdict
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algebraic::{Limits, Poly};

    /// A computed value with the exact true value `exact`.
    fn known(value: &str, exact: RealAlgebraic) -> Bounded {
        Bounded {
            value: value.parse().unwrap(),
            spread: Spread::algebraic(exact),
        }
    }

    fn sqrt2() -> RealAlgebraic {
        RealAlgebraic::roots(&Poly::from_i64s(&[-2, 0, 1]), &Limits::default()).unwrap()[1].clone()
    }

    // √2 twice, with different computed approximations (1.4142 and 1.4143) and different
    // isolating intervals ((1, 2) and, through the Möbius map x ↦ (2x + 0)/(0x + 2) = x, its
    // image refined): `a < b` is false and `a <= b` true, decided exactly, although the
    // computed numbers differ — no margin, no excuse.
    #[test]
    fn equal_algebraic_values_are_decided_equal() {
        let two = Rational::from(2).to_big();
        let zero = Rational::ZERO.to_big();
        let same = sqrt2()
            .mobius([&two, &zero, &zero, &two], &Limits::default())
            .unwrap();
        let (a, b) = (known("1.4142", sqrt2()), known("1.4143", same));
        assert_eq!(Test::less(&a, &b), Test::decided(false, false));
        assert_eq!(Test::at_most(&a, &b), Test::decided(true, true));
        assert_eq!(Test::less(&b, &a), Test::decided(false, false));
        let mut judge = Judge::default();
        assert!(!judge.settle(Test::less(&a, &b)));
        assert!(!judge.excused && !judge.undecided);
    }

    // √2 against rationals and through a gauge: min(1, √2) = 1 (the cap binds, exactly),
    // (1/2)·√2 < 3/4 since 2/4 < 9/16.
    #[test]
    fn gauges_map_algebraic_values_exactly() {
        let a = known("1.4142", sqrt2());
        let capped = a.map(&Gauge::capped(Some(&Rational::ONE)));
        assert_eq!(
            capped.exact_value(),
            Some(RealAlgebraic::from_rational(Rational::ONE.to_big()))
        );
        let half = a.map(&Gauge::scale("1/2".parse().unwrap()));
        assert_eq!(
            Test::less_than(&half, &"3/4".parse().unwrap()),
            Test::decided(true, true)
        );
        assert_eq!(
            Test::more_than(&half, &"7/10".parse().unwrap()),
            Test::decided(true, true)
        );
    }
}
