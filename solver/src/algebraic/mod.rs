//! Exact real algebraic numbers: a kernel of univariate polynomial algorithms over Z and Q.
//!
//! A real algebraic number is kept as its minimal polynomial (primitive in Z\[x\], positive
//! leading coefficient) and an isolating interval with rational endpoints
//! ([`RealAlgebraic`]). The pieces, one algorithm per file:
//! - [`poly`]: dense polynomials over Z — arithmetic, pseudo-division, content, subresultant
//!   gcd and resultant, exact evaluation at rationals, Taylor shifts, sign variations;
//! - [`integer`]: gcds of big integers by Lehmer's method, and rationals normalized by them;
//! - [`squarefree`]: Yun's squarefree decomposition;
//! - [`isolate`]: real-root isolation by Descartes' rule with bisection
//!   (Vincent–Collins–Akritas) and refinement of an isolating interval;
//! - [`factor`]: factoring over Z by Zassenhaus (Cantor–Zassenhaus over F_p, Hensel
//!   lifting, bounded recombination);
//! - [`number`]: [`RealAlgebraic`] (sign, order, correctly rounded decimals) and arithmetic
//!   in one number field Q(α) ([`NumberField`], [`FieldElement`]);
//! - [`closed_form`]: quadratic irrationals as text, `(a + b*sqrt(d))/c`;
//! - [`arith`]: sum, difference, product and quotient of two real algebraic numbers from
//!   different fields, by resultants and interval arithmetic;
//! - [`bivariate`]: the resultant `Res_y(f, g)` of two polynomials in `Z[x][y]`, by
//!   evaluation and interpolation (elimination of one variable).
//!
//! Every entry point is bounded by [`Limits`] (degree, coefficient size, recombination
//! subsets, refinement steps) and answers an [`AlgebraicError`] naming the limit when the
//! input needs more; nothing panics on input. The mathematics is in `docs/algebraic.md`.
//!
//! # Example
//! The golden ratio: the positive root of x² − x − 1.
//! ```
//! use leontief_solver::algebraic::{Limits, Poly, RealAlgebraic};
//! let roots = RealAlgebraic::roots(&Poly::from_i64s(&[-1, -1, 1]), &Limits::default()).unwrap();
//! assert_eq!(roots.len(), 2);
//! let phi = &roots[1];
//! assert_eq!(phi.to_decimal(10, &Limits::default()).unwrap(), "1.6180339887");
//! assert_eq!(phi.closed_form().unwrap(), "(1 + sqrt(5))/2");
//! ```

pub mod arith;
pub mod bivariate;
pub mod closed_form;
pub mod factor;
pub mod field;
pub mod integer;
pub mod isolate;
pub mod number;
pub mod poly;
pub mod squarefree;

pub use factor::{factor, Factorization};
pub use isolate::{isolate_real_roots, RootInterval};
pub use number::{FieldElement, NumberField, RealAlgebraic};
pub use poly::Poly;
pub use squarefree::squarefree_decomposition;

/// Bounds on the work of every algorithm in this module.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The largest polynomial degree accepted.
    pub max_degree: usize,
    /// The largest coefficient length in bits accepted on input.
    pub max_coeff_bits: u64,
    /// The most factor subsets tried in Zassenhaus recombination.
    pub subset_budget: u64,
    /// The most refinement steps (bisections or secant steps) per refinement.
    pub max_refine_steps: u64,
}

impl Default for Limits {
    /// Degree 64, 4096-bit coefficients, 100 000 subsets, 100 000 refinement steps.
    fn default() -> Self {
        Limits {
            max_degree: 64,
            max_coeff_bits: 4096,
            subset_budget: 100_000,
            max_refine_steps: 100_000,
        }
    }
}

impl Limits {
    /// Checks a polynomial against the degree and coefficient limits.
    pub fn check(&self, p: &Poly) -> Result<(), AlgebraicError> {
        let degree = p.degree().ok_or(AlgebraicError::ZeroPolynomial)?;
        if degree > self.max_degree {
            return Err(AlgebraicError::DegreeLimit {
                degree,
                limit: self.max_degree,
            });
        }
        let bits = p.max_coeff_bits();
        if bits > self.max_coeff_bits {
            return Err(AlgebraicError::CoefficientLimit {
                bits,
                limit: self.max_coeff_bits,
            });
        }
        Ok(())
    }
}

/// Why an algebraic computation stopped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AlgebraicError {
    /// The polynomial is zero where a nonzero one is needed.
    #[error("the polynomial is zero")]
    ZeroPolynomial,
    /// The polynomial is constant where a root is needed.
    #[error("the polynomial is constant and has no roots")]
    ConstantPolynomial,
    /// The degree exceeds [`Limits::max_degree`].
    #[error("degree {degree} exceeds the limit max_degree = {limit}")]
    DegreeLimit {
        /// The degree met.
        degree: usize,
        /// The limit.
        limit: usize,
    },
    /// A coefficient exceeds [`Limits::max_coeff_bits`].
    #[error("a coefficient of {bits} bits exceeds the limit max_coeff_bits = {limit}")]
    CoefficientLimit {
        /// The length met.
        bits: u64,
        /// The limit.
        limit: u64,
    },
    /// Zassenhaus recombination would try more than [`Limits::subset_budget`] subsets.
    #[error("factor recombination exceeded the limit subset_budget = {budget} subsets")]
    SubsetBudget {
        /// The limit.
        budget: u64,
    },
    /// A refinement needed more than [`Limits::max_refine_steps`] steps.
    #[error("interval refinement exceeded the limit max_refine_steps = {steps}")]
    RefinementLimit {
        /// The limit.
        steps: u64,
    },
    /// No prime below the search bound keeps the polynomial squarefree.
    #[error("no prime below {bound} keeps the polynomial squarefree modulo p")]
    NoGoodPrime {
        /// The largest prime tried.
        bound: u64,
    },
    /// The interval does not isolate exactly one root of the polynomial.
    #[error("the interval ({lo}, {hi}) does not isolate exactly one root of {poly}")]
    NotIsolating {
        /// The polynomial.
        poly: String,
        /// The lower end.
        lo: String,
        /// The upper end.
        hi: String,
    },
    /// The polynomial given as a minimal polynomial is reducible over Q.
    #[error("{poly} is reducible over Q, so it is not a minimal polynomial")]
    Reducible {
        /// The polynomial.
        poly: String,
    },
    /// Division by zero in a number field.
    #[error("division by zero")]
    DivisionByZero,
    /// A closed form was asked of a number of another degree.
    #[error("a closed form needs degree 1 or 2, the minimal polynomial has degree {degree}")]
    NotQuadratic {
        /// The degree met.
        degree: usize,
    },
    /// The discriminant is too large to find its squarefree part by trial division.
    #[error("the discriminant {discriminant} is too large to find its squarefree part")]
    DiscriminantTooLarge {
        /// The discriminant.
        discriminant: String,
    },
}
