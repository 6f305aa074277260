//! Three positive prices: elimination by a resultant.
//!
//! With residual capacities `c1, c2, c3`, uncapped budget `W` and user groups `g` (budget
//! `W_g`, direction `e_g`), Walras' law gives `p3 = (W − c1 p1 − c2 p2)/c3`, so
//! `p · e_g = M_g(p1, p2) / c3` with the affine
//! `M_g = (e_g1 c3 − e_g3 c1) p1 + (e_g2 c3 − e_g3 c2) p2 + e_g3 W`. Resource `j ∈ {1, 2}`
//! clears when `Σ_g W_g e_gj c3 / M_g = c_j`; clearing the denominators of the groups
//! with `e_gj > 0` gives `F_j = Σ_g W_g e_gj c3 ∏_{k≠g} M_k − c_j ∏_k M_k`.
//!
//! In the coordinates `u = p1 + s p2`, `y = p2` (a shift `s` is tried when one `u` carries
//! several solutions), `R(u) = Res_y(F_1, F_2)` vanishes at every common zero. Some common
//! zeros are artefacts of clearing denominators: where two of the `M_g` vanish, every
//! term of `F_j` with both in its product vanishes, so both `F_j` can vanish there. Such a
//! point has a rational `u` (two affine equations); its linear factors are divided out of `R`
//! before factoring, and the rational `u` kept as candidates of last resort in case a true
//! solution shares it. For a root `u*` of `R`, the solutions above it are the roots of
//! `gcd(F_1(u*, y), F_2(u*, y))` over Q(u*); when that gcd is linear, `y` (so `p2`, then
//! `p1 = u* − s y` and `p3`) lies in Q(u*).

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

use super::{roots_near, Candidate, Reduced};
use crate::algebraic::bivariate::{first_subresultant_in_y, resultant_in_y};
use crate::algebraic::{AlgebraicError, FieldElement, Limits, NumberField, Poly, RealAlgebraic};
use crate::ceei::algebraic::AlgebraicCeeiError;

/// A polynomial in `(u, y)` with rational coefficients: `c[i][j]` multiplies `u^i y^j`.
type Bivariate = Vec<Vec<BigRational>>;

/// What one change of variable gave.
pub(super) struct Found {
    /// The solutions, nearest the numeric prices first.
    pub(super) candidates: Vec<Candidate>,
    /// Whether some root `u*` had a gcd of degree ≥ 2 (several solutions on one `u`).
    pub(super) needs_shift: bool,
}

/// The solutions with coordinates `u = p1 + shift · p2`, nearest the numeric prices first.
pub(super) fn candidates(
    red: &Reduced,
    target: &[f64],
    shift: i64,
    limits: &Limits,
) -> Result<Found, AlgebraicCeeiError> {
    let c = &red.residual;
    let total = &red.budget;
    let s = BigRational::from_integer(BigInt::from(shift));
    // M_g = a u + b y + k in the coordinates (u, y).
    let forms: Vec<[BigRational; 3]> = red
        .groups
        .iter()
        .map(|g| {
            let e = &g.direction;
            let a = &e[0] * &c[2] - &e[2] * &c[0];
            let b = &e[1] * &c[2] - &e[2] * &c[1] - &s * &a;
            [a, b, &e[2] * total]
        })
        .collect();
    let mut clearing = Vec::with_capacity(2);
    for j in 0..2 {
        let mut sum: Bivariate = Vec::new();
        let mut product: Bivariate = vec![vec![BigRational::one()]];
        for (g, form) in red.groups.iter().zip(&forms) {
            if !g.direction[j].is_positive() {
                continue;
            }
            let a = &g.weight * &g.direction[j] * &c[2];
            sum = bi_add(&bi_mul_affine(&sum, form), &bi_scale(&product, &a));
            product = bi_mul_affine(&product, form);
        }
        let f = bi_add(&sum, &bi_scale(&product, &-c[j].clone()));
        clearing.push(f);
    }
    let integral: Vec<Vec<Poly>> = clearing.iter().map(to_integer_in_u).collect();
    let full = resultant_in_y(&integral[0], &integral[1], limits)?;
    if full.is_zero() {
        // A common factor: a curve of solutions (prices not unique on this support).
        return Ok(Found {
            candidates: Vec::new(),
            needs_shift: false,
        });
    }
    // Divide out the u of every point where two of the M_g vanish.
    let mut resultant = full.primitive_part();
    let mut artefacts: Vec<BigRational> = Vec::new();
    for (g, f) in forms.iter().enumerate() {
        for h in &forms[g + 1..] {
            let det = &f[0] * &h[1] - &h[0] * &f[1];
            if det.is_zero() {
                continue;
            }
            let u0 = (&h[2] * &f[1] - &f[2] * &h[1]) / det;
            if artefacts.contains(&u0) {
                continue;
            }
            let linear = Poly::new(vec![-u0.numer().clone(), u0.denom().clone()]);
            let mut divided = false;
            while let Some(q) = resultant.div_exact(&linear) {
                resultant = q;
                divided = true;
            }
            if divided {
                artefacts.push(u0);
            }
        }
    }
    // u ranges over p1 + s p2 with 0 < p1 < W/c1, 0 < p2 < W/c2.
    let (max1, max2) = (total / &c[0], total / &c[1]);
    let lo = if shift < 0 {
        &s * &max2
    } else {
        BigRational::zero()
    };
    let hi = if shift > 0 { &max1 + &s * &max2 } else { max1 };
    let target_u = target[0] + shift as f64 * target[1];
    let mut roots = if resultant.degree().unwrap_or(0) > 0 {
        roots_near(&resultant, &lo, &hi, target_u, limits)?
    } else {
        Vec::new()
    };
    roots.extend(
        artefacts
            .into_iter()
            .filter(|u| *u > lo && *u < hi)
            .map(RealAlgebraic::from_rational),
    );
    let mut found = Found {
        candidates: Vec::new(),
        needs_shift: false,
    };
    let subresultant = first_subresultant_in_y(&integral[0], &integral[1], limits)?;
    for root in roots {
        let field = NumberField::new(root);
        let Some(y) = solution_above(&field, &clearing, &integral, subresultant.as_ref())? else {
            found.needs_shift = true;
            continue;
        };
        if let Some(y) = y {
            let x = field.sub(
                &field.generator(),
                &field.mul(&field.rational(s.clone()), &y),
            );
            // p3 = (W − c1 p1 − c2 p2)/c3
            let spent = field.add(
                &field.mul(&field.rational(c[0].clone()), &x),
                &field.mul(&field.rational(c[1].clone()), &y),
            );
            let p3 = field.mul(
                &field.sub(&field.rational(total.clone()), &spent),
                &field.rational(BigRational::one() / &c[2]),
            );
            found.candidates.push(Candidate {
                field: field.clone(),
                poly: resultant.clone(),
                prices: vec![x, y, p3],
            });
        }
    }
    Ok(found)
}

/// The `y` of the common zero of `F_1(α, y)` and `F_2(α, y)` for a root α of the resultant:
/// `Some(Some(y))` when their gcd is linear, `Some(None)` when they have no common zero,
/// `None` when the gcd has degree ≥ 2. Where neither leading coefficient in `y` vanishes at
/// α, the first subresultant decides it (`y = −s_10(α)/s_11(α)` when `s_11(α) ≠ 0`, else
/// degree ≥ 2); otherwise Euclid's algorithm over Q(α) does.
fn solution_above(
    field: &NumberField,
    clearing: &[Bivariate],
    integral: &[Vec<Poly>],
    subresultant: Option<&[Poly; 2]>,
) -> Result<Option<Option<FieldElement>>, AlgebraicError> {
    let at = |p: &Poly| {
        field.element(
            p.coeffs()
                .iter()
                .map(|c| BigRational::from_integer(c.clone()))
                .collect(),
        )
    };
    let leading_survive = integral
        .iter()
        .all(|f| f.last().is_some_and(|lc| !at(lc).is_zero()));
    if let (true, Some([s10, s11])) = (leading_survive, subresultant) {
        let lead = at(s11);
        if lead.is_zero() {
            return Ok(None);
        }
        let zero = field.rational(BigRational::zero());
        return Ok(Some(Some(field.div(&field.sub(&zero, &at(s10)), &lead)?)));
    }
    let on_root: Vec<Vec<FieldElement>> = clearing.iter().map(|f| specialise(field, f)).collect();
    let g = gcd(field, on_root[0].clone(), on_root[1].clone())?;
    match g.len() {
        2 => {
            let zero = field.rational(BigRational::zero());
            Ok(Some(Some(field.div(&field.sub(&zero, &g[0]), &g[1])?)))
        }
        0 | 1 => Ok(Some(None)),
        _ => Ok(None),
    }
}

/// `p · (a u + b y + k)`.
fn bi_mul_affine(p: &Bivariate, [a, b, k]: &[BigRational; 3]) -> Bivariate {
    if p.is_empty() {
        return Vec::new();
    }
    let rows = p.len() + 1;
    let cols = p.iter().map(Vec::len).max().unwrap_or(0) + 1;
    let mut out = vec![vec![BigRational::zero(); cols]; rows];
    for (i, row) in p.iter().enumerate() {
        for (j, v) in row.iter().enumerate() {
            if v.is_zero() {
                continue;
            }
            out[i + 1][j] += v * a;
            out[i][j + 1] += v * b;
            out[i][j] += v * k;
        }
    }
    out
}

fn bi_add(p: &Bivariate, q: &Bivariate) -> Bivariate {
    let rows = p.len().max(q.len());
    (0..rows)
        .map(|i| {
            let (a, b) = (p.get(i), q.get(i));
            let cols = a.map_or(0, Vec::len).max(b.map_or(0, Vec::len));
            (0..cols)
                .map(|j| {
                    let x = a.and_then(|r| r.get(j)).cloned().unwrap_or_default();
                    let y = b.and_then(|r| r.get(j)).cloned().unwrap_or_default();
                    x + y
                })
                .collect()
        })
        .collect()
}

fn bi_scale(p: &Bivariate, c: &BigRational) -> Bivariate {
    p.iter()
        .map(|row| row.iter().map(|v| v * c).collect())
        .collect()
}

/// The polynomial times the common denominator of its coefficients, as coefficients of
/// `y^0, y^1, …` in Z\[u\] (one scale for all, so resultants stay consistent).
fn to_integer_in_u(p: &Bivariate) -> Vec<Poly> {
    let den = p.iter().flatten().fold(BigInt::one(), |acc, c| {
        crate::algebraic::integer::lcm(&acc, c.denom())
    });
    let cols = p.iter().map(Vec::len).max().unwrap_or(0);
    (0..cols)
        .map(|j| {
            Poly::new(
                p.iter()
                    .map(|row| {
                        row.get(j)
                            .map_or_else(BigInt::zero, |c| c.numer() * (&den / c.denom()))
                    })
                    .collect(),
            )
        })
        .collect()
}

/// `p(α, y)` as a polynomial in `y` over Q(α), trailing zeros dropped.
fn specialise(field: &NumberField, p: &Bivariate) -> Vec<FieldElement> {
    let cols = p.iter().map(Vec::len).max().unwrap_or(0);
    let mut out: Vec<FieldElement> = (0..cols)
        .map(|j| {
            field.element(
                p.iter()
                    .map(|row| row.get(j).cloned().unwrap_or_default())
                    .collect(),
            )
        })
        .collect();
    trim(&mut out);
    out
}

fn trim(p: &mut Vec<FieldElement>) {
    while p.last().is_some_and(FieldElement::is_zero) {
        p.pop();
    }
}

/// The gcd over Q(α)\[y\] by Euclid's algorithm (exact field arithmetic, so no
/// pseudo-division is needed), not normalised; empty when both are zero.
fn gcd(
    field: &NumberField,
    mut a: Vec<FieldElement>,
    mut b: Vec<FieldElement>,
) -> Result<Vec<FieldElement>, AlgebraicError> {
    trim(&mut a);
    trim(&mut b);
    while !b.is_empty() {
        let r = rem(field, a, &b)?;
        a = std::mem::replace(&mut b, r);
    }
    Ok(a)
}

fn rem(
    field: &NumberField,
    mut a: Vec<FieldElement>,
    b: &[FieldElement],
) -> Result<Vec<FieldElement>, AlgebraicError> {
    let Some(lead) = b.last() else {
        return Ok(a);
    };
    let inv = field.inverse(lead)?;
    while a.len() >= b.len() {
        let Some(top) = a.last() else { break };
        let q = field.mul(top, &inv);
        let offset = a.len() - b.len();
        for (j, bj) in b.iter().enumerate() {
            a[offset + j] = field.sub(&a[offset + j], &field.mul(&q, bj));
        }
        a.pop();
        trim(&mut a);
    }
    Ok(a)
}
