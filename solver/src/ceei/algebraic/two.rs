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

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed};

use super::{root_width, roots_near, Candidate, Reduced};
use crate::algebraic::{Limits, NumberField, Poly, RealAlgebraic};
use crate::ceei::algebraic::AlgebraicCeeiError;

/// The clearing polynomial of a two-price support, and its solutions.
pub(super) struct Clearing<'a> {
    red: &'a Reduced,
    /// `N`, primitive.
    poly: Poly,
    /// `N` without the root `W/c1` outside the range.
    search: Poly,
    /// `W/c1`: both prices are positive for `0 < p1 < W/c1`.
    upper: BigRational,
}

impl<'a> Clearing<'a> {
    pub(super) fn new(red: &'a Reduced) -> Clearing<'a> {
        let (c1, c2) = (&red.residual[0], &red.residual[1]);
        let total = &red.budget;
        // Σ_g a_g ∏_{k≠g} L_k and ∏ L_k, built one group at a time over Z: each L_g is
        // scaled to an integer ℓ_g = κ_g L_g (κ_g > 0 its denominators' lcm), which scales N
        // by the positive ∏ κ_g, a_g becomes a_g κ_g, and the rational sum is kept as an
        // integer polynomial over a positive common denominator δ:
        // (A/δ, P) ← ((v A ℓ_h + δ u P)/(δ v), P ℓ_h) for a_h κ_h = u/v.
        let mut sum = Poly::zero();
        let mut sum_den = BigInt::one();
        let mut product = Poly::constant(BigInt::one());
        for g in red.groups.iter().filter(|g| g.direction[0].is_positive()) {
            let (e1, e2) = (&g.direction[0], &g.direction[1]);
            let linear = [total * e2, e1 * c2 - c1 * e2];
            let kappa = linear[0].denom().lcm(linear[1].denom());
            let int = |v: &BigRational| v.numer() * (&kappa / v.denom());
            let linear = Poly::new(vec![int(&linear[0]), int(&linear[1])]);
            let a: BigRational = &g.weight * e1 * c2 * BigRational::from_integer(kappa.clone());
            let (u, v) = (a.numer(), a.denom());
            sum = sum
                .mul(&linear)
                .scale(v)
                .add(&product.scale(&(&sum_den * u)));
            sum_den *= v;
            product = product.mul(&linear);
        }
        // N ∝ A/δ − c1 P = (t A − δ s P)/(δ t) for c1 = s/t.
        let numerator = sum
            .scale(c1.denom())
            .sub(&product.scale(&(&sum_den * c1.numer())));
        let poly = numerator.primitive_part();
        let upper = total / c1;
        // When every group demands resource 1, `p1 = W/c1` (so `p2 = 0`) is a root: there
        // each `L_g = e_g1 c2 W/c1`, and `N = (c2 W/c1)^(G−1) ∏ e_k1 · (c2 Σ_g W_g − c2 W)
        // = 0`. It lies outside the open range of positive prices, and dividing it out first
        // often leaves an irreducible polynomial, which factoring certifies without lifting.
        let end = Poly::new(vec![-upper.numer(), upper.denom().clone()]);
        let search = if poly.sign_at(&upper) == 0 {
            poly.div_exact(&end).unwrap_or_else(|| poly.clone())
        } else {
            poly.clone()
        };
        Clearing {
            red,
            poly,
            search,
            upper,
        }
    }

    /// The solution the numeric `p1` points to, when a narrow window around it certifies a
    /// single root in the range ([`RealAlgebraic::root_near`]).
    pub(super) fn near(
        &self,
        target: f64,
        limits: &Limits,
    ) -> Result<Option<Candidate>, AlgebraicCeeiError> {
        let Some(target) = BigRational::from_float(target) else {
            return Ok(None);
        };
        let zero = BigRational::from_integer(0.into());
        let Some(mut root) = RealAlgebraic::root_near(&self.search, &target, limits)? else {
            return Ok(None);
        };
        if !(root.cmp_rational(&zero).is_gt() && root.cmp_rational(&self.upper).is_lt()) {
            return Ok(None);
        }
        root.refine(&root_width(), limits)?;
        Ok(Some(self.candidate(root)))
    }

    /// Every solution with both prices positive, nearest the numeric `p1` first.
    pub(super) fn all(
        &self,
        target: f64,
        limits: &Limits,
    ) -> Result<Vec<Candidate>, AlgebraicCeeiError> {
        let zero = BigRational::from_integer(0.into());
        let roots = roots_near(&self.search, &zero, &self.upper, target, limits)?;
        Ok(roots.into_iter().map(|r| self.candidate(r)).collect())
    }

    fn candidate(&self, root: RealAlgebraic) -> Candidate {
        let (c1, c2) = (&self.red.residual[0], &self.red.residual[1]);
        let field = NumberField::new(root);
        let p1 = field.generator();
        let p2 = field.element(vec![&self.red.budget / c2, -(c1 / c2)]);
        Candidate {
            field,
            poly: self.poly.clone(),
            prices: vec![p1, p2],
        }
    }
}
