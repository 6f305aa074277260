//! Two positive prices: the clearing polynomial in `p1`.
//!
//! With residual capacities `c1, c2`, uncapped budget `W` and user groups `g` (budget
//! `W_g`, direction `e_g` on the two resources), Walras' law `p1 c1 + p2 c2 = W` gives
//! `p2 = (W − p1 c1)/c2`, so `p · e_g = L_g(p1) / c2` with the linear
//! `L_g(p1) = (e_g1 c2 − c1 e_g2) p1 + W e_g2`. Resource 1 clears when
//! `Σ_g W_g e_g1 c2 / L_g(p1) = c1`; over the groups with `e_g1 > 0` the numerator
//! `N(p1) = Σ_g W_g e_g1 c2 ∏_{k≠g} L_k − c1 ∏_k L_k` is a polynomial of degree at most the
//! number of groups. Both prices are positive exactly for `0 < p1 < W/c1`; `L_g > 0` there,
//! so its roots in that interval are the solutions.

use num_rational::BigRational;
use num_traits::{One, Signed};

use super::{q_add, q_mul, roots_near, Candidate, Reduced};
use crate::algebraic::{Limits, NumberField, Poly};
use crate::ceei::algebraic::AlgebraicCeeiError;

/// The solutions with both prices positive, nearest the numeric `p1` first.
pub(super) fn candidates(
    red: &Reduced,
    target: f64,
    limits: &Limits,
) -> Result<Vec<Candidate>, AlgebraicCeeiError> {
    let (c1, c2) = (&red.residual[0], &red.residual[1]);
    let total = &red.budget;
    // Σ_g a_g ∏_{k≠g} L_k and ∏ L_k, built one group at a time:
    // (A, P) ← (A L_h + a_h P, P L_h).
    let mut sum: Vec<BigRational> = Vec::new();
    let mut product = vec![BigRational::one()];
    for g in red.groups.iter().filter(|g| g.direction[0].is_positive()) {
        let (e1, e2) = (&g.direction[0], &g.direction[1]);
        let linear = [total * e2, e1 * c2 - c1 * e2];
        let a: BigRational = &g.weight * e1 * c2;
        let scaled: Vec<BigRational> = product.iter().map(|p| p * &a).collect();
        sum = q_add(&q_mul(&sum, &linear), &scaled);
        product = q_mul(&product, &linear);
    }
    let neg_c1_product: Vec<BigRational> = product.iter().map(|p| -(c1 * p)).collect();
    let numerator = q_add(&sum, &neg_c1_product);
    let poly = Poly::primitive_from_rationals(&numerator);
    let upper = total / c1;
    let zero = BigRational::from_integer(0.into());
    let roots = roots_near(&poly, &zero, &upper, target, limits)?;
    Ok(roots
        .into_iter()
        .map(|r| {
            let field = NumberField::new(r);
            let p1 = field.generator();
            let p2 = field.element(vec![total / c2, -(c1 / c2)]);
            Candidate {
                field,
                poly: poly.clone(),
                prices: vec![p1, p2],
            }
        })
        .collect())
}
