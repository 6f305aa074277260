//! Squarefree decomposition by Yun's algorithm.
//!
//! For a primitive `f` in Z\[x\], Yun's algorithm finds pairwise coprime squarefree
//! `a_1, a_2, …` with `f = lc-sign · ∏ a_i^i`: with `g = gcd(f, f')`, `c_1 = f/g`,
//! `d_1 = f'/g − c_1'`, each step takes `a_i = gcd(c_i, d_i)`, `c_{i+1} = c_i / a_i` and
//! `d_{i+1} = d_i / a_i − c_{i+1}'`. Because every gcd is primitive, Gauss's lemma makes each
//! division exact in Z\[x\], so the algorithm runs without fractions.
//!
//! # Complexity
//! The cost of a few gcds of polynomials of degree at most `n`: `O(n)` subresultant chains.
//!
//! # References
//! - D. Y. Y. Yun, *On square-free decomposition algorithms*, SYMSAC 1976, 26–35.
//! - J. von zur Gathen, J. Gerhard, *Modern Computer Algebra*, Algorithm 14.21.
//!
//! # Example
//! ```
//! use leontief_solver::algebraic::{squarefree_decomposition, Poly};
//! // (x − 1)² (x + 2) = x³ − 3x + 2
//! let parts = squarefree_decomposition(&Poly::from_i64s(&[2, -3, 0, 1]));
//! assert_eq!(parts, vec![(Poly::from_i64s(&[2, 1]), 1), (Poly::from_i64s(&[-1, 1]), 2)]);
//! ```

use num_traits::Zero;

use super::factor::{fp_derivative, fp_gcd, reduce};
use super::poly::Poly;

/// Primes below 2^31 (the bound of the F_p arithmetic) tried by [`certified_squarefree`]:
/// large, so that they rarely divide a discriminant.
const CERTIFICATE_PRIMES: [u64; 4] = [2_147_483_647, 2_147_483_629, 2_147_483_587, 2_147_483_579];

/// Whether a nonconstant `f` is certified squarefree by a prime: for `p ∤ lc(f)` with
/// `gcd(f mod p, f' mod p) = 1` in F_p\[x\], `f` is squarefree over Q. (A square factor
/// `g²` of `f`, `g` primitive of degree ≥ 1, has `lc(g) | lc(f)`, so `g mod p` keeps its
/// degree and `(g mod p)²` divides `f mod p`, making `g mod p` a common factor of
/// `f mod p` and its derivative.) `false` says only that no prime tried certifies it; the
/// primes that fail divide `lc(f)` or the discriminant, finitely many.
///
/// The point is cost: a gcd over F_p of degree-`n` polynomials is `O(n²)` word operations,
/// where the subresultant gcd over Z works on integers that grow with `n`.
pub fn certified_squarefree(f: &Poly) -> bool {
    let Some(n) = f.degree() else {
        return false;
    };
    if n == 0 {
        return false;
    }
    let lc = f.leading();
    CERTIFICATE_PRIMES.iter().any(|&p| {
        if (&lc % p).is_zero() {
            return false;
        }
        let fp = reduce(f, p);
        fp_gcd(&fp, &fp_derivative(&fp, p), p).len() == 1
    })
}

/// The squarefree decomposition of a nonzero polynomial: `(a_i, i)` for every nonconstant
/// `a_i`, each primitive with a positive leading coefficient, so that
/// `primitive_part(f) = ∏ a_i^i`. Zero and constants give an empty list.
pub fn squarefree_decomposition(f: &Poly) -> Vec<(Poly, u32)> {
    let f = f.primitive_part();
    if certified_squarefree(&f) {
        return vec![(f, 1)];
    }
    if f.degree().unwrap_or(0) == 0 {
        return Vec::new();
    }
    let df = f.derivative();
    let g = f.gcd(&df);
    // Both divisions are exact: g is primitive and divides f and f' over Q.
    let mut c = f.div_exact(&g).unwrap_or_default();
    let mut d = df.div_exact(&g).unwrap_or_default().sub(&c.derivative());
    let mut out = Vec::new();
    let mut i = 1u32;
    while c.degree().unwrap_or(0) > 0 {
        let a = c.gcd(&d).primitive_part();
        c = c.div_exact(&a).unwrap_or_default();
        d = d.div_exact(&a).unwrap_or_default().sub(&c.derivative());
        if a.degree().unwrap_or(0) > 0 {
            out.push((a, i));
        }
        i += 1;
    }
    out
}

/// The squarefree part `∏ a_i` of a nonzero polynomial (primitive, positive leading
/// coefficient); the constant 1 for constants.
pub fn squarefree_part(f: &Poly) -> Poly {
    let f = f.primitive_part();
    if f.degree().unwrap_or(0) == 0 {
        return Poly::from_i64s(&[1]);
    }
    if certified_squarefree(&f) {
        return f;
    }
    f.div_exact(&f.gcd(&f.derivative()))
        .unwrap_or_default()
        .primitive_part()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// x² − 2 is squarefree and stays so modulo 2^31 − 1 (its discriminant 8 is not
    /// divisible by an odd prime); (x − 1)²(x + 2) = x³ − 3x + 2 has a square factor, which
    /// no prime can hide (the certificate never lies), and its squarefree part is
    /// (x − 1)(x + 2) = x² + x − 2.
    #[test]
    fn squarefree_certificate_by_a_prime() {
        assert!(certified_squarefree(&Poly::from_i64s(&[-2, 0, 1])));
        let square = Poly::from_i64s(&[2, -3, 0, 1]);
        assert!(!certified_squarefree(&square));
        assert_eq!(squarefree_part(&square), Poly::from_i64s(&[-2, 1, 1]));
        assert!(!certified_squarefree(&Poly::from_i64s(&[5])));
    }

    #[test]
    fn decomposition_multiplies_back() {
        // (x² + 1)³ (x − 2)² (3x + 1): parts of multiplicity 1, 2 and 3.
        let a1 = Poly::from_i64s(&[1, 3]);
        let a2 = Poly::from_i64s(&[-2, 1]);
        let a3 = Poly::from_i64s(&[1, 0, 1]);
        let f = a1.mul(&a2.pow(2)).mul(&a3.pow(3));
        let parts = squarefree_decomposition(&f);
        assert_eq!(
            parts,
            vec![(a1.clone(), 1), (a2.clone(), 2), (a3.clone(), 3)]
        );
        assert_eq!(squarefree_part(&f), a1.mul(&a2).mul(&a3));
    }
}
