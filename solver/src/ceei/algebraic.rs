//! Exact algebraic CEEI for two resources with both prices positive.
//!
//! With budgets `w_i` (equal incomes: all 1) and total `W = Σ w_i`, Walras' law
//! `p1 c1 + p2 c2 = W` gives `p2 = (W − p1 c1)/c2`. User `i` then buys
//! `x_i = w_i / (p · d_i)` tasks, and `p · d_i = L_i(p1) / c2` with the linear
//! `L_i(p1) = (d_i1 c2 − c1 d_i2) p1 + W d_i2`. Resource 1 clears when
//! `Σ_i w_i d_i1 c2 / L_i(p1) = c1`, one rational equation in `p1`; its numerator
//! `N(p1) = Σ_i w_i d_i1 c2 ∏_{k≠i} L_k − c1 ∏_k L_k` (over the users with `d_i1 > 0`) is a
//! polynomial with rational coefficients. [`solve_two_resources`] factors `N`, takes its real
//! roots in `(0, W/c1)` (both prices positive), picks the one nearest the floating-point
//! price of [`Ceei::solve_float`](super::Ceei::solve_float), and returns the prices and tasks
//! as elements of Q(p1), after checking exactly that both resources clear. Then every user
//! spends its budget and both markets clear at positive prices: a competitive equilibrium,
//! so an optimum of the Eisenberg–Gale program (whose utilities are unique).
//!
//! # Complexity
//! Forming `N` costs `O(n²)` rational operations for `n` users; the degree of `N` is at most
//! `n`, and factoring, isolating and the conversions are bounded by the [`Limits`] given.
//!
//! # References
//! - E. Eisenberg, D. Gale, *Consensus of subjective probabilities: the pari-mutuel method*,
//!   Ann. Math. Statist. 30 (1959).
//! - A. Ghodsi et al., *Dominant Resource Fairness*, NSDI 2011, Theorem 5 (the instance of
//!   the example below).
//!
//! # Example
//! The DRF paper's Theorem 5 instance: the tasks lie in Q(√373).
//! ```
//! use leontief_solver::algebraic::Limits;
//! use leontief_solver::ceei::algebraic::solve_two_resources;
//! use leontief_solver::{Instance, User};
//! let inst = Instance::new(vec![100.into(), 100.into()], vec![
//!     User::new("1", [4, 1]), User::new("2", [1, 16]), User::new("3", [16, 1])]).unwrap();
//! let eq = solve_two_resources(&inst, &Limits::default()).unwrap();
//! assert_eq!(eq.task_values[0].closed_form().unwrap(), "(3125 - 125*sqrt(373))/63");
//! ```

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, Zero};

use super::Ceei;
use crate::algebraic::{AlgebraicError, FieldElement, Limits, NumberField, Poly, RealAlgebraic};
use crate::{Instance, SolverError};

/// Why [`solve_two_resources`] gave no answer.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum AlgebraicCeeiError {
    /// The instance does not have exactly two resources.
    #[error("resources: exact algebraic CEEI needs exactly 2 resources, the instance has {0}")]
    Resources(usize),
    /// A user has a field the method does not cover.
    #[error("users[{user}].{field}: not supported by exact algebraic CEEI")]
    Unsupported {
        /// The user's index.
        user: usize,
        /// The field (`cap` or `resource_weights`).
        field: &'static str,
    },
    /// The floating-point solve failed.
    #[error(transparent)]
    Solver(#[from] SolverError),
    /// The floating-point equilibrium has a price that is not positive.
    #[error("prices[{resource}] is not positive in the numeric equilibrium ({value}); only both prices positive is covered")]
    PriceNotPositive {
        /// The resource.
        resource: usize,
        /// The numeric price.
        value: f64,
    },
    /// The clearing polynomial has no root with both prices positive.
    #[error("the clearing polynomial {poly} has no root with both prices positive")]
    NoRoot {
        /// The polynomial.
        poly: String,
    },
    /// The exact check failed: resource `resource` does not clear.
    #[error("resource {resource} does not clear exactly at the algebraic prices")]
    NotClearing {
        /// The resource.
        resource: usize,
    },
    /// An algebraic computation hit a limit.
    #[error(transparent)]
    Algebraic(#[from] AlgebraicError),
}

/// An exact equilibrium in the number field Q(p1).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct AlgebraicEquilibrium {
    /// Q(p1).
    pub field: NumberField,
    /// The clearing polynomial `N` (primitive), of which p1 is a root.
    pub clearing_poly: Poly,
    /// `[p1, p2]` as field elements.
    pub prices: Vec<FieldElement>,
    /// `x_i = w_i / (p · d_i)` as field elements.
    pub tasks: Vec<FieldElement>,
    /// The prices as real algebraic numbers.
    pub price_values: Vec<RealAlgebraic>,
    /// The tasks as real algebraic numbers.
    pub task_values: Vec<RealAlgebraic>,
}

/// The exact CEEI of a two-resource instance whose equilibrium prices are both positive (see
/// the [module docs](self)).
///
/// # Errors
/// See [`AlgebraicCeeiError`]: not two resources, a user with a cap or per-resource weights,
/// a zero price, and the limits of the algebraic kernel.
pub fn solve_two_resources(
    inst: &Instance,
    limits: &Limits,
) -> Result<AlgebraicEquilibrium, AlgebraicCeeiError> {
    if inst.num_resources() != 2 {
        return Err(AlgebraicCeeiError::Resources(inst.num_resources()));
    }
    for (i, u) in inst.users().iter().enumerate() {
        if u.cap.is_some() {
            return Err(AlgebraicCeeiError::Unsupported {
                user: i,
                field: "cap",
            });
        }
        if u.resource_weights.is_some() {
            return Err(AlgebraicCeeiError::Unsupported {
                user: i,
                field: "resource_weights",
            });
        }
    }
    let float = Ceei::new().solve_float(inst)?;
    for (j, &v) in float.prices.iter().enumerate() {
        if v.is_nan() || v <= 0.0 {
            return Err(AlgebraicCeeiError::PriceNotPositive {
                resource: j,
                value: v,
            });
        }
    }
    let c1 = inst.capacity()[0].to_big();
    let c2 = inst.capacity()[1].to_big();
    let weights: Vec<BigRational> = inst.users().iter().map(|u| u.weight.to_big()).collect();
    let demands: Vec<[BigRational; 2]> = inst
        .users()
        .iter()
        .map(|u| [u.demand[0].to_big(), u.demand[1].to_big()])
        .collect();
    let total: BigRational = weights.iter().sum();
    // L_i(p1) = (d_i1 c2 − c1 d_i2) p1 + W d_i2, constant term first.
    let linear: Vec<Vec<BigRational>> = demands
        .iter()
        .map(|[d1, d2]| vec![&total * d2, d1 * &c2 - &c1 * d2])
        .collect();
    let buyers: Vec<usize> = (0..demands.len())
        .filter(|&i| demands[i][0].is_positive())
        .collect();
    let mut numerator = vec![];
    let mut all = vec![BigRational::from_integer(1.into())];
    for &i in &buyers {
        all = q_mul(&all, &linear[i]);
    }
    for &i in &buyers {
        let mut term = vec![&weights[i] * &demands[i][0] * &c2];
        for &k in &buyers {
            if k != i {
                term = q_mul(&term, &linear[k]);
            }
        }
        numerator = q_add(&numerator, &term);
    }
    let neg_c1_all: Vec<BigRational> = all.iter().map(|a| -(&c1 * a)).collect();
    numerator = q_add(&numerator, &neg_c1_all);
    let clearing_poly = Poly::primitive_from_rationals(&numerator);
    if clearing_poly.degree().unwrap_or(0) == 0 {
        return Err(AlgebraicCeeiError::NoRoot {
            poly: clearing_poly.to_string(),
        });
    }
    // Roots with both prices positive: 0 < p1 < W/c1.
    let upper = &total / &c1;
    let zero = BigRational::zero();
    let candidates: Vec<RealAlgebraic> = RealAlgebraic::roots(&clearing_poly, limits)?
        .into_iter()
        .filter(|r| r.cmp_rational(&zero).is_gt() && r.cmp_rational(&upper).is_lt())
        .collect();
    let target = BigRational::from_float(float.prices[0]).unwrap_or_default();
    let width = BigRational::new(1.into(), BigInt::from(1u64) << 80u32);
    let mut best: Option<(BigRational, RealAlgebraic)> = None;
    for mut r in candidates {
        r.refine(&width, limits)?;
        let (lo, hi) = r.interval();
        let mid = (lo + hi) / BigRational::from_integer(2.into());
        let dist = (mid - &target).abs();
        if best.as_ref().is_none_or(|(d, _)| dist < *d) {
            best = Some((dist, r));
        }
    }
    let Some((_, p1)) = best else {
        return Err(AlgebraicCeeiError::NoRoot {
            poly: clearing_poly.to_string(),
        });
    };
    let field = NumberField::new(p1);
    let price1 = field.generator();
    let price2 = field.element(vec![&total / &c2, -(&c1 / &c2)]);
    let mut tasks = Vec::with_capacity(demands.len());
    for (i, [d1, d2]) in demands.iter().enumerate() {
        let spend = field.add(
            &field.mul(&field.rational(d1.clone()), &price1),
            &field.mul(&field.rational(d2.clone()), &price2),
        );
        let inv = field.inverse(&spend)?;
        tasks.push(field.mul(&field.rational(weights[i].clone()), &inv));
    }
    for (j, cap) in [&c1, &c2].into_iter().enumerate() {
        let used = tasks
            .iter()
            .zip(&demands)
            .fold(field.rational(zero.clone()), |acc, (x, d)| {
                field.add(&acc, &field.mul(&field.rational(d[j].clone()), x))
            });
        if used != field.rational(cap.clone()) {
            return Err(AlgebraicCeeiError::NotClearing { resource: j });
        }
    }
    let prices = vec![price1, price2];
    let price_values = prices
        .iter()
        .map(|p| field.to_real(p, limits))
        .collect::<Result<Vec<_>, _>>()?;
    let task_values = tasks
        .iter()
        .map(|x| field.to_real(x, limits))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(AlgebraicEquilibrium {
        field,
        clearing_poly,
        prices,
        tasks,
        price_values,
        task_values,
    })
}

fn q_mul(a: &[BigRational], b: &[BigRational]) -> Vec<BigRational> {
    if a.is_empty() || b.is_empty() {
        return Vec::new();
    }
    let mut out = vec![BigRational::zero(); a.len() + b.len() - 1];
    for (i, x) in a.iter().enumerate() {
        for (j, y) in b.iter().enumerate() {
            out[i + j] += x * y;
        }
    }
    out
}

fn q_add(a: &[BigRational], b: &[BigRational]) -> Vec<BigRational> {
    let n = a.len().max(b.len());
    (0..n)
        .map(|i| a.get(i).cloned().unwrap_or_default() + b.get(i).cloned().unwrap_or_default())
        .collect()
}
