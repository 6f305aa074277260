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

use super::poly::Poly;

/// The squarefree decomposition of a nonzero polynomial: `(a_i, i)` for every nonconstant
/// `a_i`, each primitive with a positive leading coefficient, so that
/// `primitive_part(f) = ∏ a_i^i`. Zero and constants give an empty list.
pub fn squarefree_decomposition(f: &Poly) -> Vec<(Poly, u32)> {
    let f = f.primitive_part();
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
    f.div_exact(&f.gcd(&f.derivative()))
        .unwrap_or_default()
        .primitive_part()
}

#[cfg(test)]
mod tests {
    use super::*;

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
