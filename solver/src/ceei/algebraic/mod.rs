//! Exact algebraic CEEI: the equilibrium of any instance whose equilibrium has at most
//! three positive prices, as elements of one number field Q(α), checked exactly against the
//! Eisenberg–Gale KKT conditions.
//!
//! # Method
//! 1. **Support.** [`Ceei::solve_float`](super::Ceei::solve_float) gives a numeric
//!    equilibrium; from it are read the *support* `S` (the resources with positive prices)
//!    and the capped users `C` (at `x_i = T_i`). When the reading is ambiguous (a price or a
//!    cap's slack near 0) or the prices are not unique, nearby supports are tried in a fixed
//!    order (`support.rs`) and the first whose solution passes the exact KKT check is kept.
//! 2. **Reduced market.** The capped users' use is fixed, so the others face the *residual*
//!    capacities `c'_j = c_j − Σ_{i∈C} T_i d_ij` on `S`; each uncapped user buys
//!    `x_i = w_i / (p · d_i)`, and users with proportional demands on `S` act as one with
//!    the summed budget. Every `j ∈ S` must clear: `Σ_{i∉C} x_i d_ij = c'_j`. Multiplying by
//!    `p_j` and summing gives Walras' law `Σ_{j∈S} p_j c'_j = W_U` (`W_U` the uncapped
//!    budgets), which replaces one clearing equation (given the others, it implies the last
//!    because that price is positive).
//! 3. **Elimination**, by the size `k` of `S`:
//!    - `k = 0`: no price is positive; every user is capped; the field is Q.
//!    - `k = 1`: `p = W_U / c'`, rational.
//!    - `k = 2` (`two.rs`): Walras leaves `p1`; clearing resource 1 is one polynomial
//!      equation `N(p1) = 0` of degree at most the number of user groups.
//!    - `k = 3` (`three.rs`): Walras leaves `(p1, p2)`; the two clearing equations are
//!      polynomials `F1, F2`; `p2` is eliminated by the resultant `R = Res_{p2}(F1, F2)`
//!      ([`bivariate`](crate::algebraic::bivariate)), `p1` is a root of `R`, and `p2` is
//!      the root of the gcd of `F1(p1, ·)` and `F2(p1, ·)` over Q(p1) — linear when the
//!      solution above `p1` is unique; otherwise the primitive element `p1 + s p2` is used
//!      for `s = 1, −1, 2, 3`.
//!
//!    The polynomial is factored, its real roots in the range of positive prices are tried
//!    nearest the numeric price first, and the prices and tasks are computed in Q(root).
//! 4. **Exact check.** [`check_kkt`] decides the KKT conditions in Q(α) — equalities on the
//!    coordinates, signs from α's isolating interval — which include that the resources
//!    outside `S` (price 0) are not over-demanded and that capped users would buy at least
//!    their caps. The program is concave, so passing proves the answer *the* equilibrium
//!    (the tasks are unique).
//!
//! More than three positive prices, or a polynomial beyond the [`Limits`], is a named
//! [`AlgebraicCeeiError`] (a stated fallback to the numeric answer), not a wrong answer.
//!
//! # Complexity
//! For `n` user groups: `N` costs `O(n²)` rational operations (degree ≤ `n`); `F1, F2` cost
//! `O(n³)` and the resultant, of degree ≤ `n²`, `n² + 1` univariate resultants. Factoring,
//! isolation, refinement and number-field conversions are bounded by the [`Limits`]. Tasks
//! and prices that are linear fractions of α (always with `k ≤ 2`) are converted to real
//! algebraic numbers by a Möbius transform of α's minimal polynomial, without factoring.
//!
//! # References
//! - E. Eisenberg, D. Gale, *Consensus of subjective probabilities: the pari-mutuel method*,
//!   Ann. Math. Statist. 30 (1959).
//! - V. Vazirani, *Combinatorial algorithms for market equilibria*, ch. 5 of N. Nisan et
//!   al. (eds.), *Algorithmic Game Theory*, Cambridge University Press 2007 (Fisher
//!   markets and the Eisenberg–Gale program).
//! - N. Devanur, C. Papadimitriou, A. Saberi, V. Vazirani, *Market equilibrium via a
//!   primal–dual algorithm for a convex program*, JACM 55(5), 2008.
//! - D. Cox, J. Little, D. O'Shea, *Ideals, Varieties, and Algorithms*, §3.6 (resultants).
//! - A. Ghodsi et al., *Dominant Resource Fairness*, NSDI 2011, Theorem 5 (the instance of
//!   the example below).
//!
//! # Example
//! The DRF paper's Theorem 5 instance: the tasks lie in Q(√373).
//! ```
//! use leontief_solver::algebraic::Limits;
//! use leontief_solver::ceei::algebraic::{check_kkt, solve_exact};
//! use leontief_solver::{Instance, User};
//! let inst = Instance::new(vec![100.into(), 100.into()], vec![
//!     User::new("1", [4, 1]), User::new("2", [1, 16]), User::new("3", [16, 1])]).unwrap();
//! let eq = solve_exact(&inst, &Limits::default()).unwrap();
//! assert_eq!(eq.task_values[0].closed_form().unwrap(), "(3125 - 125*sqrt(373))/63");
//! assert_eq!(eq.support, vec![0, 1]);
//! assert_eq!(check_kkt(&inst, &eq), Ok(()));
//! ```

mod kkt;
mod support;
mod three;
mod two;

use std::collections::BTreeMap;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use rayon::prelude::*;

pub use kkt::check_kkt;

use super::{Ceei, FloatSolution, KktViolation};
use crate::algebraic::{AlgebraicError, FieldElement, Limits, NumberField, Poly, RealAlgebraic};
use crate::{Instance, SolverError};

/// The linear changes of variable `u = p1 + s p2` tried, in order, with three positive
/// prices (`s = 0` first: `p1` itself).
const SHIFTS: [i64; 5] = [0, 1, -1, 2, 3];

/// Why [`solve_exact`] (or [`solve_two_resources`]) gave no answer.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum AlgebraicCeeiError {
    /// [`solve_two_resources`] was given an instance without exactly two resources.
    #[error("resources: exact algebraic CEEI for two resources needs exactly 2 resources, the instance has {0}")]
    Resources(usize),
    /// A user has a field the method does not cover.
    #[error("users[{user}].{field}: not supported by exact algebraic CEEI")]
    Unsupported {
        /// The user's index.
        user: usize,
        /// The field (`resource_weights`).
        field: &'static str,
    },
    /// The floating-point solve failed.
    #[error(transparent)]
    Solver(#[from] SolverError),
    /// The equilibrium has more than three positive prices.
    #[error("the equilibrium has {positive} positive prices; exact elimination covers at most 3")]
    SupportTooLarge {
        /// The number of positive prices in the numeric equilibrium.
        positive: usize,
    },
    /// With three positive prices, several solutions share the coordinate eliminated to for
    /// every change of variable tried.
    #[error("no primitive element p1 + s p2 (s in {SHIFTS:?}) separates the solutions")]
    NoPrimitiveElement,
    /// No candidate support gave a solution passing the exact KKT check.
    #[error("none of the {tried} candidate supports gives an exact equilibrium")]
    NoEquilibrium {
        /// The number of supports tried.
        tried: usize,
    },
    /// The exact KKT check could not decide a sign within its refinement limit.
    #[error(transparent)]
    Kkt(#[from] KktViolation),
    /// An algebraic computation hit a limit.
    #[error(transparent)]
    Algebraic(#[from] AlgebraicError),
}

/// An exact equilibrium in a number field Q(α).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct AlgebraicEquilibrium {
    /// Q(α): α is a root of [`Self::clearing_poly`] (a price, or with three positive prices
    /// `p1 + s p2` for a small integer `s`); degree 1 when everything is rational.
    pub field: NumberField,
    /// The polynomial (primitive, integer) whose root generates the field: the clearing
    /// polynomial `N` with two positive prices, the resultant (less the factors of points
    /// where two users' costs vanish) with three, the minimal polynomial of the rational
    /// generator otherwise.
    pub clearing_poly: Poly,
    /// One price per resource, 0 where unpriced, as field elements.
    pub prices: Vec<FieldElement>,
    /// The tasks: `T_i` for a capped user, else `x_i = w_i / (p · d_i)`.
    pub tasks: Vec<FieldElement>,
    /// The prices as real algebraic numbers.
    pub price_values: Vec<RealAlgebraic>,
    /// The tasks as real algebraic numbers.
    pub task_values: Vec<RealAlgebraic>,
    /// The resources with positive prices, increasing.
    pub support: Vec<usize>,
    /// The users held at their caps (`x_i = T_i`), increasing.
    pub capped: Vec<usize>,
}

/// The exact CEEI of a two-resource instance (see the [module docs](self)); since the
/// general method covers any support, this is [`solve_exact`] restricted to two resources.
///
/// # Errors
/// [`AlgebraicCeeiError::Resources`] without exactly two resources; otherwise as
/// [`solve_exact`].
pub fn solve_two_resources(
    inst: &Instance,
    limits: &Limits,
) -> Result<AlgebraicEquilibrium, AlgebraicCeeiError> {
    if inst.num_resources() != 2 {
        return Err(AlgebraicCeeiError::Resources(inst.num_resources()));
    }
    solve_exact(inst, limits)
}

/// The exact CEEI of an instance whose equilibrium has at most three positive prices (see
/// the [module docs](self)); the answer has passed [`check_kkt`].
///
/// # Errors
/// [`AlgebraicCeeiError::Unsupported`] for per-resource weights (the Eisenberg–Gale program
/// takes one weight per user); [`AlgebraicCeeiError::Solver`] when the numeric solver
/// refuses the instance; [`AlgebraicCeeiError::SupportTooLarge`] for more than three
/// positive prices; [`AlgebraicCeeiError::Algebraic`] when a polynomial exceeds `limits`;
/// [`AlgebraicCeeiError::NoPrimitiveElement`] and [`AlgebraicCeeiError::NoEquilibrium`]
/// when elimination finds no exact equilibrium (the numeric answer stands).
pub fn solve_exact(
    inst: &Instance,
    limits: &Limits,
) -> Result<AlgebraicEquilibrium, AlgebraicCeeiError> {
    for (user, u) in inst.users().iter().enumerate() {
        if u.resource_weights.is_some() {
            return Err(AlgebraicCeeiError::Unsupported {
                user,
                field: "resource_weights",
            });
        }
    }
    let market = Market::new(inst);
    if inst.num_users() == 0 {
        // Nobody buys: all prices 0 is an equilibrium.
        if let Some(red) = Reduced::new(&market, &[], &[]) {
            let cand = rational_candidate(BigRational::zero(), Vec::new());
            if let Some(eq) = finish(inst, &market, &red, &[], &[], cand, limits)? {
                return Ok(eq);
            }
        }
    }
    let float = Ceei::new().solve_float(inst)?;
    let candidates = support::candidates(inst, &float);
    let reading = candidates.first().map_or(0, |(s, _)| s.len());
    let mut no_shift = false;
    let mut tried = 0;
    for (support, capped) in &candidates {
        if support.len() > 3 {
            continue;
        }
        tried += 1;
        match solve_support(inst, &market, support, capped, &float, limits) {
            Ok(Some(eq)) => return Ok(eq),
            Ok(None) => {}
            Err(AlgebraicCeeiError::NoPrimitiveElement) => no_shift = true,
            Err(e) => return Err(e),
        }
    }
    if reading > 3 {
        return Err(AlgebraicCeeiError::SupportTooLarge { positive: reading });
    }
    if no_shift {
        return Err(AlgebraicCeeiError::NoPrimitiveElement);
    }
    Err(AlgebraicCeeiError::NoEquilibrium { tried })
}

/// The instance's numbers as big rationals.
struct Market {
    capacity: Vec<BigRational>,
    demand: Vec<Vec<BigRational>>,
    weight: Vec<BigRational>,
    cap: Vec<Option<BigRational>>,
}

impl Market {
    fn new(inst: &Instance) -> Market {
        let users = inst.users();
        Market {
            capacity: inst.capacity().iter().map(|c| c.to_big()).collect(),
            demand: users
                .iter()
                .map(|u| u.demand.iter().map(|d| d.to_big()).collect())
                .collect(),
            weight: users.iter().map(|u| u.weight.to_big()).collect(),
            cap: users
                .iter()
                .map(|u| u.cap.as_ref().map(|t| t.to_big()))
                .collect(),
        }
    }
}

/// Uncapped users with proportional demands on the support: they buy as one user with the
/// summed budget, facing the cost `p · direction`.
pub(super) struct Group {
    /// `Σ w_i` over the members.
    weight: BigRational,
    /// The members' common demand direction on the support, scaled so that its first
    /// nonzero entry is 1.
    direction: Vec<BigRational>,
}

/// The market the uncapped users face on a candidate support (module docs, step 2).
pub(super) struct Reduced {
    /// `c'_j` for the support's resources, in order.
    residual: Vec<BigRational>,
    /// `W_U`, the uncapped users' budgets.
    budget: BigRational,
    groups: Vec<Group>,
    /// Per user: `None` when capped, else its group and the scale `s_i` with
    /// `d_i = s_i · direction` on the support.
    membership: Vec<Option<(usize, BigRational)>>,
}

impl Reduced {
    /// `None` when the support cannot hold: a residual capacity that is not positive (then
    /// the price can drop to 0 without breaking any condition, a smaller support), or an
    /// uncapped user demanding nothing on it (stationarity fails, see [`check_kkt`]).
    fn new(market: &Market, support: &[usize], capped: &[usize]) -> Option<Reduced> {
        let mut residual: Vec<BigRational> = support
            .iter()
            .map(|&j| market.capacity[j].clone())
            .collect();
        for &i in capped {
            let t = market.cap[i].as_ref()?;
            for (r, &j) in residual.iter_mut().zip(support) {
                *r -= t * &market.demand[i][j];
            }
        }
        if residual.iter().any(|r| !r.is_positive()) {
            return None;
        }
        let mut groups: Vec<Group> = Vec::new();
        let mut membership = Vec::with_capacity(market.weight.len());
        let mut budget = BigRational::zero();
        for (i, w) in market.weight.iter().enumerate() {
            if capped.contains(&i) {
                membership.push(None);
                continue;
            }
            let on_support: Vec<BigRational> = support
                .iter()
                .map(|&j| market.demand[i][j].clone())
                .collect();
            let scale = on_support.iter().find(|d| !d.is_zero())?.clone();
            let direction: Vec<BigRational> = on_support.iter().map(|d| d / &scale).collect();
            let g = match groups.iter().position(|g| g.direction == direction) {
                Some(g) => g,
                None => {
                    groups.push(Group {
                        weight: BigRational::zero(),
                        direction,
                    });
                    groups.len() - 1
                }
            };
            groups[g].weight += w;
            budget += w;
            membership.push(Some((g, scale)));
        }
        Some(Reduced {
            residual,
            budget,
            groups,
            membership,
        })
    }
}

/// A solution of the support's equations: the field and the support's prices in it.
pub(super) struct Candidate {
    field: NumberField,
    poly: Poly,
    prices: Vec<FieldElement>,
}

/// A candidate whose field is Q, generated by the rational `generator`.
fn rational_candidate(generator: BigRational, prices: Vec<BigRational>) -> Candidate {
    let alpha = RealAlgebraic::from_rational(generator);
    let poly = alpha.min_poly().clone();
    let field = NumberField::new(alpha);
    let prices = prices.into_iter().map(|p| field.rational(p)).collect();
    Candidate {
        field,
        poly,
        prices,
    }
}

/// The exact equilibrium on one candidate support, if there is one.
fn solve_support(
    inst: &Instance,
    market: &Market,
    support: &[usize],
    capped: &[usize],
    float: &FloatSolution,
    limits: &Limits,
) -> Result<Option<AlgebraicEquilibrium>, AlgebraicCeeiError> {
    let Some(red) = Reduced::new(market, support, capped) else {
        return Ok(None);
    };
    let target: Vec<f64> = support.iter().map(|&j| float.prices[j]).collect();
    let candidates = match support.len() {
        0 => {
            if !red.groups.is_empty() {
                return Ok(None);
            }
            vec![rational_candidate(BigRational::zero(), Vec::new())]
        }
        1 => {
            let p = &red.budget / &red.residual[0];
            vec![rational_candidate(p.clone(), vec![p])]
        }
        2 => {
            // The root the numeric price points to first; every root only if that fails.
            let clearing = two::Clearing::new(&red);
            if let Some(cand) = clearing.near(target[0], limits)?
                && let Some(eq) = finish(inst, market, &red, support, capped, cand, limits)?
            {
                return Ok(Some(eq));
            }
            clearing.all(target[0], limits)?
        }
        _ => {
            for &shift in &SHIFTS {
                let found = three::candidates(&red, &target, shift, limits)?;
                for cand in found.candidates {
                    if let Some(eq) = finish(inst, market, &red, support, capped, cand, limits)? {
                        return Ok(Some(eq));
                    }
                }
                if !found.needs_shift {
                    return Ok(None);
                }
            }
            return Err(AlgebraicCeeiError::NoPrimitiveElement);
        }
    };
    for cand in candidates {
        if let Some(eq) = finish(inst, market, &red, support, capped, cand, limits)? {
            return Ok(Some(eq));
        }
    }
    Ok(None)
}

/// Tasks from the candidate's prices, the exact KKT check, and the real values; `None`
/// when the check fails (or a user's cost vanishes).
fn finish(
    inst: &Instance,
    market: &Market,
    red: &Reduced,
    support: &[usize],
    capped: &[usize],
    cand: Candidate,
    limits: &Limits,
) -> Result<Option<AlgebraicEquilibrium>, AlgebraicCeeiError> {
    let k = &cand.field;
    let zero = || k.rational(BigRational::zero());
    let mut prices = vec![zero(); market.capacity.len()];
    for (p, &j) in cand.prices.iter().zip(support) {
        prices[j] = p.clone();
    }
    // Per group: the cost p · direction, and its inverse unless the cost is linear in α
    // (then each task `f / (c0 + c1 α)` is one inverse of `c0/f + (c1/f) α`).
    let mut costs = Vec::with_capacity(red.groups.len());
    let mut inverses = Vec::with_capacity(red.groups.len());
    for g in &red.groups {
        let cost = g
            .direction
            .iter()
            .zip(&cand.prices)
            .fold(zero(), |acc, (e, p)| {
                k.add(&acc, &k.mul(&k.rational(e.clone()), p))
            });
        let inverse = match cost.coeffs() {
            [_, _] => None,
            _ => match k.inverse(&cost) {
                Ok(inv) => Some(inv),
                Err(AlgebraicError::DivisionByZero) => return Ok(None),
                Err(e) => return Err(e.into()),
            },
        };
        inverses.push(inverse);
        costs.push(cost);
    }
    let mut tasks = Vec::with_capacity(market.weight.len());
    for (i, member) in red.membership.iter().enumerate() {
        tasks.push(match member {
            None => k.rational(market.cap[i].clone().unwrap_or_default()),
            Some((g, scale)) => {
                let factor = &market.weight[i] / scale;
                match (&inverses[*g], costs[*g].coeffs()) {
                    (Some(inverse), _) => k.mul(&k.rational(factor), inverse),
                    (None, [c0, c1]) => inverse_linear(k, &(c0 / &factor), &(c1 / &factor)),
                    // Not reached: a group without an inverse has a linear cost.
                    (None, _) => return Ok(None),
                }
            }
        });
    }
    match kkt::check(inst, k, &prices, &tasks) {
        Ok(()) => {}
        Err(v @ KktViolation::SignUndecided { .. }) => return Err(v.into()),
        Err(_) => return Ok(None),
    }
    let alpha = k.generating_number();
    let price_values = prices
        .iter()
        .map(|p| value(k, p, limits))
        .collect::<Result<Vec<_>, _>>()?;
    // Users of one group with the same w_i / s_i have the same task: each distinct
    // (group, w_i / s_i) is converted once, and the conversions run in parallel.
    let mut keys: Vec<(usize, BigRational)> = Vec::new();
    let mut key_of: BTreeMap<(usize, BigRational), usize> = BTreeMap::new();
    let slots: Vec<Option<usize>> = red
        .membership
        .iter()
        .enumerate()
        .map(|(i, member)| {
            member.as_ref().map(|(g, scale)| {
                let key = (*g, &market.weight[i] / scale);
                *key_of.entry(key.clone()).or_insert_with(|| {
                    keys.push(key);
                    keys.len() - 1
                })
            })
        })
        .collect();
    // A group whose cost has degree ≥ 2 in α (three prices) has tasks that are rational
    // multiples of 1 / cost: that one is converted once per group.
    let units = red
        .groups
        .par_iter()
        .enumerate()
        .map(|(g, _)| match &inverses[g] {
            Some(inverse) if costs[g].coeffs().len() > 2 => k.to_real(inverse, limits).map(Some),
            _ => Ok(None),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let (zero_q, one_q) = (BigRational::zero(), BigRational::one());
    let values = keys
        .par_iter()
        .map(|(g, factor)| {
            let c = costs[*g].coeffs();
            match (c.len(), &units[*g]) {
                (0 | 1, _) => Ok(RealAlgebraic::from_rational(factor / coeff(c, 0))),
                // x = factor / (c0 + c1 α), a Möbius image of α.
                (2, _) => alpha.mobius([&zero_q, factor, &c[1], &c[0]], limits),
                (_, Some(unit)) => unit.mobius([factor, &zero_q, &zero_q, &one_q], limits),
                // Not reached: a cost of degree ≥ 2 in α has its inverse.
                (_, None) => Err(AlgebraicError::DivisionByZero),
            }
        })
        .collect::<Result<Vec<_>, AlgebraicError>>()?;
    let task_values = slots
        .iter()
        .enumerate()
        .map(|(i, slot)| match slot {
            Some(key) => values[*key].clone(),
            None => RealAlgebraic::from_rational(market.cap[i].clone().unwrap_or_default()),
        })
        .collect();
    Ok(Some(AlgebraicEquilibrium {
        field: cand.field.clone(),
        clearing_poly: cand.poly,
        prices,
        tasks,
        price_values,
        task_values,
        support: support.to_vec(),
        capped: capped.to_vec(),
    }))
}

/// `1 / (c0 + c1 α)` for `c1 ≠ 0` in a field of degree ≥ 2, in `O(n)` operations: with
/// `r = −c0/c1` and `q(x) = (m(x) − m(r))/(x − r)` (synthetic division),
/// `(α − r) q(α) = −m(r)`, so `1/(c0 + c1 α) = −q(α) / (c1 m(r))`; `m(r) ≠ 0` because the
/// minimal polynomial has no rational root. Over Z, for `r = u/v`: the synthetic division's
/// partial sums are `C_j / v^(n−j)` with `C_n = m_n` and `C_j = C_(j+1) u + m_j v^(n−j)`, so
/// `q_k = C_(k+1) / v^(n−k−1)`, `m(r) = C_0 / v^n`, and coordinate `k` of the inverse is
/// `−C_(k+1) v^(k+1) / (c1 C_0)`: integers over one denominator, no gcd in the recurrence.
fn inverse_linear(k: &NumberField, c0: &BigRational, c1: &BigRational) -> FieldElement {
    let r = -(c0 / c1);
    let (u, v) = (r.numer(), r.denom());
    let m = k.generating_number().min_poly().coeffs();
    let n = m.len() - 1;
    // partial[j] = C_j for j = 0..=n.
    let mut partial = vec![BigInt::zero(); n + 1];
    partial[n] = m[n].clone();
    let mut v_pow = BigInt::one();
    for j in (0..n).rev() {
        v_pow *= v;
        partial[j] = &partial[j + 1] * u + &m[j] * &v_pow;
    }
    let den = -(c1.numer() * &partial[0]);
    let mut v_pow = BigInt::one();
    let nums = (0..n)
        .map(|i| {
            v_pow *= v;
            &partial[i + 1] * &v_pow * c1.denom()
        })
        .collect();
    FieldElement::from_integral(nums, den)
}

fn coeff(c: &[BigRational], i: usize) -> BigRational {
    c.get(i).cloned().unwrap_or_default()
}

/// An element as a real algebraic number: a linear `c0 + c1 α` by a Möbius transform, any
/// other by the field's conversion.
fn value(
    k: &NumberField,
    a: &FieldElement,
    limits: &Limits,
) -> Result<RealAlgebraic, AlgebraicError> {
    let c = a.coeffs();
    match c.len() {
        0 | 1 => Ok(RealAlgebraic::from_rational(coeff(c, 0))),
        2 => {
            let (zero, one) = (BigRational::zero(), BigRational::one());
            k.generating_number()
                .mobius([&c[1], &c[0], &zero, &one], limits)
        }
        _ => k.to_real(a, limits),
    }
}

/// The width a root of a clearing polynomial is refined to once, before the figures (Möbius
/// images of it) are formed: each figure then starts from a narrow interval instead of
/// refining its own polynomial.
pub(super) fn root_width() -> BigRational {
    BigRational::new(1.into(), BigInt::from(1u64) << 80u32)
}

/// The real roots of `poly` in the open interval `(lo, hi)`, nearest `target` first.
pub(super) fn roots_near(
    poly: &Poly,
    lo: &BigRational,
    hi: &BigRational,
    target: f64,
    limits: &Limits,
) -> Result<Vec<RealAlgebraic>, AlgebraicError> {
    if poly.degree().unwrap_or(0) == 0 {
        return Ok(Vec::new());
    }
    let target = BigRational::from_float(target).unwrap_or_default();
    let width = root_width();
    let mut found: Vec<(BigRational, RealAlgebraic)> = Vec::new();
    for mut r in RealAlgebraic::roots(poly, limits)? {
        if !(r.cmp_rational(lo).is_gt() && r.cmp_rational(hi).is_lt()) {
            continue;
        }
        r.refine(&width, limits)?;
        let (a, b) = r.interval();
        let mid = (a + b) / BigRational::from_integer(2.into());
        found.push(((mid - &target).abs(), r));
    }
    found.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(found.into_iter().map(|(_, r)| r).collect())
}
