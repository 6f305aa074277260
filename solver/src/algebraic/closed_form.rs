//! Quadratic irrationals as text: `(a + b*sqrt(d))/c` or `(a - b*sqrt(d))/c`.
//!
//! A root of the irreducible `A t² + B t + C` (`A > 0`) is `(−B ± √Δ) / (2A)` with
//! `Δ = B² − 4AC > 0` not a square. Writing `Δ = s² d` with `d` squarefree gives
//! `(−B ± s √d) / (2A)`, reduced by `g = gcd(B, s, 2A)`. The sign is `+` for the larger root,
//! the one above the midpoint `−B / (2A)`. Rationals print as `a` or `a/c`.
//!
//! Output format: `(a + b*sqrt(d))/c` with `b > 0`, `c > 1`, `gcd(a, b, c) = 1`; the factor
//! `b*` is left out when `b = 1`, `/c` when `c = 1`, and `a + ` when `a = 0`
//! (`sqrt(2)`, `-sqrt(2)/2`).
//!
//! The squarefree part of `Δ` is found by trial division by every integer up to
//! [`TRIAL_DIVISION_BOUND`]; what is left after that has no prime factor below the bound,
//! so when it is below the bound's cube it is 1, a prime, a prime square or a product of
//! two distinct primes, and a square test settles it. A larger remainder is an
//! [`AlgebraicError::DiscriminantTooLarge`].
//!
//! # Complexity
//! `O(TRIAL_DIVISION_BOUND)` divisions of the discriminant at most.
//!
//! # References
//! - H. Cohen, *A Course in Computational Algebraic Number Theory*, §5.1 (quadratic fields).
//!
//! # Example
//! ```
//! use leontief_solver::algebraic::{Limits, Poly, RealAlgebraic};
//! // 64t² − 180t + 75 has the roots (45 ± 5√33)/32.
//! let roots = RealAlgebraic::roots(&Poly::from_i64s(&[75, -180, 64]), &Limits::default()).unwrap();
//! assert_eq!(roots[0].closed_form().unwrap(), "(45 - 5*sqrt(33))/32");
//! assert_eq!(roots[1].closed_form().unwrap(), "(45 + 5*sqrt(33))/32");
//! ```

use std::cmp::Ordering;

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

use super::number::RealAlgebraic;
use super::AlgebraicError;

/// Trial division bound for the squarefree part of a discriminant: exact for discriminants
/// below its cube, 10^18.
pub const TRIAL_DIVISION_BOUND: u64 = 1_000_000;

impl RealAlgebraic {
    /// The closed form of a number of degree 1 or 2 (see the [module docs](self)).
    ///
    /// # Errors
    /// [`AlgebraicError::NotQuadratic`] for degree 3 and up,
    /// [`AlgebraicError::DiscriminantTooLarge`].
    pub fn closed_form(&self) -> Result<String, AlgebraicError> {
        if let Some(r) = self.as_rational() {
            return Ok(if r.is_integer() {
                r.numer().to_string()
            } else {
                format!("{}/{}", r.numer(), r.denom())
            });
        }
        let m = self.min_poly();
        if m.degree() != Some(2) {
            return Err(AlgebraicError::NotQuadratic {
                degree: self.degree(),
            });
        }
        let (c, b, a) = (m.coeff(0), m.coeff(1), m.coeff(2));
        let disc = &b * &b - BigInt::from(4) * &a * &c;
        let (s, d) = square_split(&disc)?;
        let two_a: BigInt = &a * 2;
        let larger = self.cmp_rational(&BigRational::new(-&b, two_a.clone())) == Ordering::Greater;
        let g = b.gcd(&s).gcd(&two_a);
        let (num, coef, den) = (-&b / &g, &s / &g, &two_a / &g);
        Ok(format_quadratic(&num, &coef, larger, &d, &den))
    }
}

fn format_quadratic(a: &BigInt, b: &BigInt, plus: bool, d: &BigInt, c: &BigInt) -> String {
    let root = if b.is_one() {
        format!("sqrt({d})")
    } else {
        format!("{b}*sqrt({d})")
    };
    let sign = if plus { '+' } else { '-' };
    let body = match (a.is_zero(), plus) {
        (true, true) => root,
        (true, false) => format!("-{root}"),
        (false, _) => format!("({a} {sign} {root})"),
    };
    if c.is_one() {
        body
    } else {
        format!("{body}/{c}")
    }
}

/// `(s, d)` with `n = s² d`, `d` squarefree, for `n > 0`.
fn square_split(n: &BigInt) -> Result<(BigInt, BigInt), AlgebraicError> {
    let mut rest = n.abs();
    let mut s = BigInt::one();
    let mut d = BigInt::one();
    let mut k = 2u64;
    while k <= TRIAL_DIVISION_BOUND && BigInt::from(k) * k <= rest {
        let kb = BigInt::from(k);
        let mut e = 0u32;
        while (&rest % &kb).is_zero() {
            rest /= &kb;
            e += 1;
        }
        s *= num_traits::pow(kb.clone(), (e / 2) as usize);
        if e % 2 == 1 {
            d *= &kb;
        }
        k += 1;
    }
    if BigInt::from(k) * k > rest {
        // rest is 1 or a prime.
        return Ok((s, d * rest));
    }
    let bound = BigInt::from(TRIAL_DIVISION_BOUND);
    if rest >= &bound * &bound * &bound {
        return Err(AlgebraicError::DiscriminantTooLarge {
            discriminant: n.to_string(),
        });
    }
    // No prime factor ≤ the bound and rest < bound³: a prime, p² or p·q.
    let r = rest.sqrt();
    if &r * &r == rest {
        Ok((s * r, d))
    } else {
        Ok((s, d * rest))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_split_of_small_numbers() {
        let sp = |n: i64| square_split(&BigInt::from(n)).unwrap();
        // 13200 = 2^4 · 3 · 5^2 · 11 = 20² · 33.
        assert_eq!(sp(13200), (20.into(), 33.into()));
        assert_eq!(sp(373), (1.into(), 373.into()));
        assert_eq!(sp(72), (6.into(), 2.into()));
    }
}
