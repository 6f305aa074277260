//! Real-root isolation by Descartes' rule of signs with bisection (Vincent–Collins–Akritas),
//! and refinement of an isolating interval to any width.
//!
//! **Isolation.** After taking the squarefree part and dividing out a root at 0, the positive
//! roots of `f` lie in `(0, 2^e)` by Cauchy's bound `|z| < 1 + max |a_i / a_n|`, so
//! `g(x) = f(2^e x)` has them in `(0, 1)`. For a polynomial `h` with its roots of interest in
//! `(0, 1)`, the sign variations `V` of `(x + 1)^n h(1 / (x + 1))` bound the roots in `(0, 1)`
//! and have their parity (Descartes' rule after the Möbius map `x ↦ 1/(x + 1)`): `V = 0`
//! means none, `V = 1` exactly one. Otherwise the interval is halved — the left half is
//! `2^n h(x/2)`, the right half its Taylor shift by 1 — and a root at the midpoint shows as a
//! zero constant term of the right half, recorded exactly and divided out. Negative roots are
//! the positive roots of `f(−x)`. All arithmetic is on integer polynomials; every interval is
//! dyadic.
//!
//! **Refinement.** Bisection halves an interval whose ends have opposite signs. When the
//! root is well inside, the secant (regula falsi) point predicts it far better: quadratic
//! interval refinement cuts the interval into `N` dyadic pieces, tries the piece holding the
//! secant point, squares `N` on success (quadratic convergence, like Newton's method) and
//! falls back to bisection with `√N` pieces on failure, so the worst case stays bisection.
//!
//! # Complexity
//! The Collins–Akritas tree has `O(n (L + log n))` nodes for degree `n` and `L`-bit
//! coefficients (Eigenwillig, Sharma, Yap), each a Taylor shift of `O(n²)` big-integer
//! operations. Refinement to width `2^−w` takes at most `w + log₂(initial width)` bisection
//! steps, and `O(log w)` steps once the secant steps succeed, each one exact evaluation.
//!
//! # References
//! - G. E. Collins, A. G. Akritas, *Polynomial real root isolation using Descartes' rule of
//!   signs*, SYMSAC 1976, 272–275.
//! - J. Abbott, *Quadratic interval refinement for real roots*, ACM Commun. Comput. Algebra
//!   48 (2014), 3–12.
//! - A. Eigenwillig, V. Sharma, C. Yap, *Almost tight recursion tree bounds for the Descartes
//!   method*, ISSAC 2006.
//!
//! # Example
//! ```
//! use leontief_solver::algebraic::{isolate_real_roots, Limits, Poly, RootInterval};
//! // x³ − x has the roots −1, 0, 1; x² − 2 has ±√2.
//! let f = Poly::from_i64s(&[0, -1, 0, 1]).mul(&Poly::from_i64s(&[-2, 0, 1]));
//! let roots = isolate_real_roots(&f, &Limits::default()).unwrap();
//! assert_eq!(roots.len(), 5);
//! let zero = num_rational::BigRational::from_integer(0.into());
//! assert!(matches!(roots[2], RootInterval::Exact(ref r) if *r == zero));
//! ```

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{pow, One, Zero};

use super::poly::Poly;
use super::squarefree::squarefree_part;
use super::{AlgebraicError, Limits};

/// One isolated real root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RootInterval {
    /// A rational root, exactly.
    Exact(BigRational),
    /// Exactly one root lies in the open interval `(lo, hi)`, the polynomial has opposite
    /// nonzero signs at `lo` and `hi`.
    Open {
        /// The lower end.
        lo: BigRational,
        /// The upper end.
        hi: BigRational,
    },
}

impl RootInterval {
    /// The lower end (the root itself when exact).
    pub fn lo(&self) -> &BigRational {
        match self {
            RootInterval::Exact(r) => r,
            RootInterval::Open { lo, .. } => lo,
        }
    }

    /// The upper end (the root itself when exact).
    pub fn hi(&self) -> &BigRational {
        match self {
            RootInterval::Exact(r) => r,
            RootInterval::Open { hi, .. } => hi,
        }
    }
}

/// The distinct real roots of `f`, in increasing order, each isolated: exact when rational
/// and found at a bisection point, otherwise in an open dyadic interval. Constants have no
/// roots.
///
/// # Errors
/// [`AlgebraicError::ZeroPolynomial`], the degree and coefficient limits, and
/// [`AlgebraicError::RefinementLimit`] when the bisection tree would exceed
/// `limits.max_refine_steps` nodes.
pub fn isolate_real_roots(f: &Poly, limits: &Limits) -> Result<Vec<RootInterval>, AlgebraicError> {
    limits.check(f)?;
    let mut p = squarefree_part(f);
    let mut out = Vec::new();
    if p.degree() == Some(0) {
        return Ok(out);
    }
    if p.coeff(0).is_zero() {
        out.push(RootInterval::Exact(BigRational::zero()));
        p = Poly::new(p.coeffs()[1..].to_vec());
    }
    let whole = squarefree_part(f);
    let mut budget = limits.max_refine_steps;
    let positive = isolate_positive(&p, &mut budget, limits)?;
    let negative = isolate_positive(&p.reflect(), &mut budget, limits)?;
    for r in negative {
        out.push(match r {
            RootInterval::Exact(x) => RootInterval::Exact(-x),
            RootInterval::Open { lo, hi } => RootInterval::Open { lo: -hi, hi: -lo },
        });
    }
    out.extend(positive);
    // An interval may end at a rational root found exactly (0 or a bisection point): move
    // such ends inside, so that every interval has nonzero signs at its ends.
    for r in out.iter_mut() {
        detach_ends(&whole, r, &mut budget, limits)?;
    }
    out.sort_by(|a, b| a.lo().cmp(b.lo()));
    Ok(out)
}

/// Bisects an open interval of the squarefree `p` holding one root until neither end is a
/// root of `p`. Just inside a simple root `e`, `p` has the sign of `p'(e)` on its right and
/// the opposite sign on its left, which stands in for the sign at such an end.
fn detach_ends(
    p: &Poly,
    r: &mut RootInterval,
    budget: &mut u64,
    limits: &Limits,
) -> Result<(), AlgebraicError> {
    let RootInterval::Open { lo, hi } = r else {
        return Ok(());
    };
    let (mut lo, mut hi) = (lo.clone(), hi.clone());
    let dp = p.derivative();
    let side_lo = |x: &BigRational| match p.sign_at(x) {
        0 => dp.sign_at(x),
        s => s,
    };
    let s_lo = side_lo(&lo);
    while p.sign_at(&lo) == 0 || p.sign_at(&hi) == 0 {
        if *budget == 0 {
            return Err(AlgebraicError::RefinementLimit {
                steps: limits.max_refine_steps,
            });
        }
        *budget -= 1;
        let mid = (&lo + &hi) / BigRational::from_integer(2.into());
        match p.sign_at(&mid) {
            0 => {
                *r = RootInterval::Exact(mid);
                return Ok(());
            }
            s if s == s_lo => lo = mid,
            _ => hi = mid,
        }
    }
    *r = RootInterval::Open { lo, hi };
    Ok(())
}

/// The roots of `p` in `(0, ∞)`; `p(0) ≠ 0` and `p` squarefree.
fn isolate_positive(
    p: &Poly,
    budget: &mut u64,
    limits: &Limits,
) -> Result<Vec<RootInterval>, AlgebraicError> {
    let mut out = Vec::new();
    let Some(n) = p.degree() else {
        return Ok(out);
    };
    if n == 0 || p.sign_variations() == 0 {
        return Ok(out);
    }
    // Cauchy: every root has |z| < 1 + max|a_i|/|a_n| ≤ 2^e.
    let max_bits = p.coeffs()[..n].iter().map(BigInt::bits).max().unwrap_or(0) as i64;
    let lc_bits = p.leading().bits() as i64;
    let e = (max_bits - lc_bits + 1).max(0) + 1;
    let scale = BigRational::from_integer(BigInt::one() << e as u64);
    let g = p.scale_roots_pow2(-e);
    // Each entry: h with h's roots in (0, 1) ↔ g's roots in (c/2^k, (c + 1)/2^k).
    let mut stack = vec![(g, BigInt::zero(), 0u64)];
    while let Some((h, c, k)) = stack.pop() {
        if *budget == 0 {
            return Err(AlgebraicError::RefinementLimit {
                steps: limits.max_refine_steps,
            });
        }
        *budget -= 1;
        let v = h.reverse().shift_one().sign_variations();
        let at = |num: BigInt| BigRational::new(num, BigInt::one() << k) * &scale;
        match v {
            0 => {}
            1 => out.push(RootInterval::Open {
                lo: at(c.clone()),
                hi: at(&c + 1),
            }),
            _ => {
                let mut left = h.scale_roots_pow2(1);
                let mut right = left.shift_one();
                let c2: BigInt = &c * 2;
                if right.coeff(0).is_zero() {
                    // A root at the midpoint: exact, and divided out of both halves (it is
                    // x = 0 of the right half and x = 1 of the left one), so that no
                    // interval ends at a root.
                    let mid = BigRational::new(&c2 + 1, BigInt::one() << (k + 1)) * &scale;
                    out.push(RootInterval::Exact(mid));
                    right = Poly::new(right.coeffs()[1..].to_vec());
                    left = left.div_exact(&Poly::from_i64s(&[-1, 1])).unwrap_or(left);
                }
                stack.push((right, &c2 + 1, k + 1));
                stack.push((left, c2, k + 1));
            }
        }
    }
    Ok(out)
}

/// Refines an isolating interval of the squarefree polynomial `p` — `p(lo)` and `p(hi)`
/// nonzero of opposite signs, exactly one root inside — until `hi − lo ≤ max_width`, or
/// until a step lands on the root exactly.
///
/// # Errors
/// [`AlgebraicError::NotIsolating`] when the ends do not have opposite nonzero signs,
/// [`AlgebraicError::RefinementLimit`] after `limits.max_refine_steps` steps.
pub fn refine_root(
    p: &Poly,
    lo: &BigRational,
    hi: &BigRational,
    max_width: &BigRational,
    limits: &Limits,
) -> Result<RootInterval, AlgebraicError> {
    let (mut lo, mut hi) = (lo.clone(), hi.clone());
    let sign_lo = p.sign_at(&lo);
    if lo >= hi || sign_lo == 0 || p.sign_at(&hi) != -sign_lo {
        return Err(AlgebraicError::NotIsolating {
            poly: p.to_string(),
            lo: lo.to_string(),
            hi: hi.to_string(),
        });
    }
    let mut pieces: u64 = 4;
    let mut steps = 0u64;
    while &hi - &lo > *max_width {
        if steps >= limits.max_refine_steps {
            return Err(AlgebraicError::RefinementLimit {
                steps: limits.max_refine_steps,
            });
        }
        steps += 1;
        let width = &hi - &lo;
        // Secant step on a grid of `pieces` dyadic pieces: the secant crosses 0 at the
        // fraction t = f(lo) / (f(lo) − f(hi)) ∈ (0, 1) of the interval (the ends have
        // opposite signs), and j = ⌊t · pieces⌋. With lo = a/q, hi = b/r and f of degree
        // d, f(lo) = F_lo / q^d and f(hi) = F_hi / r^d (integers, `eval_homogeneous`), so
        // t = F_lo r^d / (F_lo r^d − F_hi q^d): integer products, no rational normalized.
        let d = p.degree().unwrap_or(0);
        let f_lo = p.eval_homogeneous(lo.numer(), lo.denom()) * pow(hi.denom().clone(), d);
        let f_hi = p.eval_homogeneous(hi.numer(), hi.denom()) * pow(lo.denom().clone(), d);
        let j = (&f_lo * BigInt::from(pieces)).div_floor(&(&f_lo - f_hi));
        let n = BigRational::from_integer(pieces.into());
        let j = BigRational::from_integer(j);
        let a = &lo + &width * &j / &n;
        let b = &lo + &width * (j + BigRational::one()) / &n;
        let (sa, sb) = (p.sign_at(&a), p.sign_at(&b));
        if sa == 0 {
            return Ok(RootInterval::Exact(a));
        }
        if sb == 0 {
            return Ok(RootInterval::Exact(b));
        }
        if sa == sign_lo && sb == -sign_lo {
            lo = a;
            hi = b;
            pieces = pieces.saturating_mul(pieces).min(1 << 32);
            continue;
        }
        pieces = pieces.isqrt().max(4);
        let mid = (&lo + &hi) / BigRational::from_integer(2.into());
        match p.sign_at(&mid) {
            0 => return Ok(RootInterval::Exact(mid)),
            s if s == sign_lo => lo = mid,
            _ => hi = mid,
        }
    }
    Ok(RootInterval::Open { lo, hi })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }

    #[test]
    fn rational_roots_at_bisection_points_are_exact() {
        // (2x − 1)(x − 3)(x + 5): roots 1/2, 3, −5.
        let f = Poly::from_i64s(&[-1, 2])
            .mul(&Poly::from_i64s(&[-3, 1]))
            .mul(&Poly::from_i64s(&[5, 1]));
        let roots = isolate_real_roots(&f, &Limits::default()).unwrap();
        assert_eq!(roots.len(), 3);
        for (r, want) in roots.iter().zip([q(-5, 1), q(1, 2), q(3, 1)]) {
            assert!(r.lo() <= &want && &want <= r.hi(), "{r:?} vs {want}");
        }
    }

    #[test]
    fn no_interval_ends_at_a_root_at_zero() {
        // x(x − 2): 0 exact; the positive root's first interval (0, 8) must not keep the end 0.
        let f = Poly::from_i64s(&[0, -2, 1]);
        let roots = isolate_real_roots(&f, &Limits::default()).unwrap();
        assert_eq!(roots[0], RootInterval::Exact(q(0, 1)));
        match &roots[1] {
            RootInterval::Exact(r) => assert_eq!(r, &q(2, 1)),
            RootInterval::Open { lo, hi } => {
                assert!(f.sign_at(lo) * f.sign_at(hi) < 0);
                assert!(lo < &q(2, 1) && &q(2, 1) < hi);
            }
        }
    }

    #[test]
    fn no_interval_ends_at_a_midpoint_root() {
        // (x − 1)(x − 32): Cauchy's bound 2^7 = 128 puts 32 at the midpoint of (0, 64), the
        // right end of the half that still holds 1.
        let f = Poly::from_i64s(&[-1, 1]).mul(&Poly::from_i64s(&[-32, 1]));
        let roots = isolate_real_roots(&f, &Limits::default()).unwrap();
        assert_eq!(roots.len(), 2);
        for (r, want) in roots.iter().zip([q(1, 1), q(32, 1)]) {
            match r {
                RootInterval::Exact(x) => assert_eq!(x, &want),
                RootInterval::Open { lo, hi } => {
                    assert!(f.sign_at(lo) * f.sign_at(hi) < 0);
                    assert!(lo < &want && &want < hi);
                }
            }
        }
    }

    #[test]
    fn refinement_reaches_the_width_and_keeps_the_root() {
        // √2 ∈ (1, 2); 1.41421356237 < √2 < 1.41421356238 (1.41421356237² < 2 < …38²).
        let f = Poly::from_i64s(&[-2, 0, 1]);
        let w = q(1, 1_000_000_000_000);
        let r = refine_root(&f, &q(1, 1), &q(2, 1), &w, &Limits::default()).unwrap();
        let RootInterval::Open { lo, hi } = r else {
            panic!("√2 is irrational")
        };
        assert!(&hi - &lo <= w);
        assert!(lo > q(141_421_356_237, 100_000_000_000));
        assert!(hi < q(141_421_356_238, 100_000_000_000));
    }
}
