//! The resultant of two bivariate polynomials with respect to one variable:
//! `Res_y(f, g) ∈ Z[x]` for `f, g ∈ Z[x][y]`, by evaluation at integer points `x = t` and
//! interpolation.
//!
//! A bivariate polynomial is a slice of [`Poly`]s in `x`, the coefficients of `y^0, y^1, …`.
//! The Sylvester matrix of `f` and `g` in `y` has entries in `Z[x]`, and its determinant is
//! the resultant; substituting `x = t` commutes with the determinant as long as the matrix
//! keeps its shape, i.e. when neither leading coefficient `lc_y(f)`, `lc_y(g)` vanishes at
//! `t`. So `Res_y(f, g)(t) = Res(f(t, y), g(t, y))` at every such `t`, each a univariate
//! resultant of integer polynomials (the subresultant algorithm of [`Poly::resultant`]).
//! The degree of the resultant in `x` is at most `deg_y g · max_j deg_x f_j +
//! deg_y f · max_j deg_x g_j` and at most the product of the total degrees (Bézout); that
//! many points plus one determine it (Newton's divided differences over Q; the result has
//! integer values at integer points and is returned with integer coefficients).
//!
//! # Complexity
//! `D + 1` univariate resultants (each `O(d²)` operations on integers of growing size for
//! `y`-degree `d`) and an `O(D²)` interpolation, for the degree bound `D`.
//!
//! # References
//! - D. Cox, J. Little, D. O'Shea. *Ideals, Varieties, and Algorithms*, 4th ed., Springer
//!   2015, §3.6 (resultants and elimination; specialisation of the Sylvester matrix).
//! - J. von zur Gathen, J. Gerhard. *Modern Computer Algebra*, §6.8 (resultants by
//!   evaluation and interpolation).
//!
//! # Example
//! The circle `x² + y² − 2` and the line `y − x` meet where `2x² − 2 = 0`:
//! `Res_y(y² + x² − 2, y − x) = 2x² − 2`.
//! ```
//! use leontief_solver::algebraic::{bivariate::resultant_in_y, Limits, Poly};
//! let f = [Poly::from_i64s(&[-2, 0, 1]), Poly::zero(), Poly::from_i64s(&[1])];
//! let g = [Poly::from_i64s(&[0, -1]), Poly::from_i64s(&[1])];
//! let r = resultant_in_y(&f, &g, &Limits::default()).unwrap();
//! assert_eq!(r, Poly::from_i64s(&[-2, 0, 2]));
//! ```

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;

use super::poly::Poly;
use super::{AlgebraicError, Limits};

/// The degree in `y` (the index of the last nonzero coefficient), `None` for zero.
fn y_degree(f: &[Poly]) -> Option<usize> {
    f.iter().rposition(|c| !c.is_zero())
}

/// The total degree `max_j (j + deg_x f_j)`.
fn total_degree(f: &[Poly]) -> usize {
    f.iter()
        .enumerate()
        .filter_map(|(j, c)| c.degree().map(|d| d + j))
        .max()
        .unwrap_or(0)
}

fn max_x_degree(f: &[Poly]) -> usize {
    f.iter().filter_map(Poly::degree).max().unwrap_or(0)
}

/// `Res_y(f, g)` as a polynomial in `x` (see the [module docs](self)); zero when `f` or `g`
/// is zero or when they share a factor of positive degree in `y`.
///
/// # Errors
/// [`AlgebraicError::DegreeLimit`] when the degree bound exceeds four times
/// `limits.max_degree` (the result is then too large to be factored in any case).
pub fn resultant_in_y(f: &[Poly], g: &[Poly], limits: &Limits) -> Result<Poly, AlgebraicError> {
    let (Some(m), Some(n)) = (y_degree(f), y_degree(g)) else {
        return Ok(Poly::zero());
    };
    let bound = (n * max_x_degree(f) + m * max_x_degree(g)).min(total_degree(f) * total_degree(g));
    if bound > 4 * limits.max_degree {
        return Err(AlgebraicError::DegreeLimit {
            degree: bound,
            limit: limits.max_degree,
        });
    }
    let (lf, lg) = (&f[m], &g[n]);
    let mut xs: Vec<BigRational> = Vec::with_capacity(bound + 1);
    let mut ys: Vec<BigRational> = Vec::with_capacity(bound + 1);
    // Points 0, 1, −1, 2, −2, …: small, so the values stay small; a point where a leading
    // coefficient vanishes is skipped (at most deg lf + deg lg of them).
    let mut k: i64 = 0;
    while xs.len() <= bound {
        let t = if k % 2 == 0 { -(k / 2) } else { k / 2 + 1 };
        k += 1;
        let tq = BigRational::from_integer(BigInt::from(t));
        if lf.sign_at(&tq) == 0 || lg.sign_at(&tq) == 0 {
            continue;
        }
        let at = |h: &[Poly]| -> Poly {
            Poly::new(h[..].iter().map(|c| c.eval(&tq).to_integer()).collect())
        };
        ys.push(BigRational::from_integer(
            at(&f[..=m]).resultant(&at(&g[..=n])),
        ));
        xs.push(tq);
    }
    let coeffs = interpolate(&xs, &ys);
    // The values are integers at integer points and the resultant lies in Z[x], so the
    // interpolant's coefficients are integers.
    Ok(Poly::new(
        coeffs.iter().map(BigRational::to_integer).collect(),
    ))
}

/// The first subresultant of `f` and `g` in `y`, `S_1 = s_10(x) + s_11(x) y`, as
/// `[s_10, s_11]`; `None` when `f` or `g` has degree below 1 in `y`.
///
/// Where neither leading coefficient in `y` vanishes at `x = t`, `S_1` specialises to the
/// first subresultant of `f(t, y)` and `g(t, y)`, and the degree of their gcd is the least
/// `k` with a nonzero principal subresultant coefficient. So at a root `t` of the resultant
/// with `s_11(t) ≠ 0` the gcd is linear and its root is `y = −s_10(t)/s_11(t)` (Basu,
/// Pollack, Roy, *Algorithms in Real Algebraic Geometry*, §4.2). With `d_f, d_g ≥ 2` the
/// coefficients are the determinants of the Sylvester submatrix of the rows
/// `y^(d_g−2) f, …, f, y^(d_f−2) g, …, g` on the columns of `y^(d_f+d_g−2), …, y^2` and of
/// `y^j`; each is computed at the same points as the resultant (fraction-free Gaussian
/// elimination, Bareiss 1968) and interpolated. When one of them is linear in `y`, it is its
/// own first subresultant.
///
/// # Errors
/// As [`resultant_in_y`].
pub fn first_subresultant_in_y(
    f: &[Poly],
    g: &[Poly],
    limits: &Limits,
) -> Result<Option<[Poly; 2]>, AlgebraicError> {
    let (Some(m), Some(n)) = (y_degree(f), y_degree(g)) else {
        return Ok(None);
    };
    if m == 0 || n == 0 {
        return Ok(None);
    }
    if m == 1 {
        return Ok(Some([f[0].clone(), f[1].clone()]));
    }
    if n == 1 {
        return Ok(Some([g[0].clone(), g[1].clone()]));
    }
    let bound = (n * max_x_degree(f) + m * max_x_degree(g)).min(total_degree(f) * total_degree(g));
    if bound > 4 * limits.max_degree {
        return Err(AlgebraicError::DegreeLimit {
            degree: bound,
            limit: limits.max_degree,
        });
    }
    let (lf, lg) = (&f[m], &g[n]);
    let size = m + n - 2;
    let mut xs: Vec<BigRational> = Vec::with_capacity(bound + 1);
    let mut values: [Vec<BigRational>; 2] = [Vec::new(), Vec::new()];
    let mut k: i64 = 0;
    while xs.len() <= bound {
        let t = if k % 2 == 0 { -(k / 2) } else { k / 2 + 1 };
        k += 1;
        let tq = BigRational::from_integer(BigInt::from(t));
        if lf.sign_at(&tq) == 0 || lg.sign_at(&tq) == 0 {
            continue;
        }
        let fa: Vec<BigInt> = f[..=m].iter().map(|c| c.eval(&tq).to_integer()).collect();
        let ga: Vec<BigInt> = g[..=n].iter().map(|c| c.eval(&tq).to_integer()).collect();
        // Rows as coefficient vectors indexed by the power of y, 0 ..= m + n − 2.
        let mut rows: Vec<Vec<BigInt>> = Vec::with_capacity(size);
        for (poly, shifts) in [(&fa, n - 1), (&ga, m - 1)] {
            for s in 0..shifts {
                let mut row = vec![BigInt::zero(); size + 1];
                for (i, c) in poly.iter().enumerate() {
                    row[i + s] = c.clone();
                }
                rows.push(row);
            }
        }
        for (j, out) in values.iter_mut().enumerate() {
            // Columns y^(m+n−2), …, y^2, then y^j.
            let matrix: Vec<Vec<BigInt>> = rows
                .iter()
                .map(|row| {
                    let mut r: Vec<BigInt> = (2..=size).rev().map(|e| row[e].clone()).collect();
                    r.push(row[j].clone());
                    r
                })
                .collect();
            out.push(BigRational::from_integer(determinant(matrix)));
        }
        xs.push(tq);
    }
    let [v0, v1] = values;
    let to_poly = |ys: &[BigRational]| {
        Poly::new(
            interpolate(&xs, ys)
                .iter()
                .map(BigRational::to_integer)
                .collect(),
        )
    };
    Ok(Some([to_poly(&v0), to_poly(&v1)]))
}

/// The determinant of a square integer matrix by Bareiss's fraction-free elimination
/// (every division is exact).
fn determinant(mut a: Vec<Vec<BigInt>>) -> BigInt {
    let n = a.len();
    if n == 0 {
        return BigInt::from(1);
    }
    let mut negate = false;
    let mut prev = BigInt::from(1);
    for k in 0..n - 1 {
        if a[k][k].is_zero() {
            let Some(r) = (k + 1..n).find(|&r| !a[r][k].is_zero()) else {
                return BigInt::zero();
            };
            a.swap(k, r);
            negate = !negate;
        }
        for i in k + 1..n {
            for j in k + 1..n {
                let v = (&a[i][j] * &a[k][k] - &a[i][k] * &a[k][j]) / &prev;
                a[i][j] = v;
            }
        }
        prev = a[k][k].clone();
    }
    let d = a[n - 1][n - 1].clone();
    if negate {
        -d
    } else {
        d
    }
}

/// The polynomial of degree ≤ `xs.len() − 1` through the points (Newton's divided
/// differences), constant term first.
fn interpolate(xs: &[BigRational], ys: &[BigRational]) -> Vec<BigRational> {
    let n = xs.len();
    let mut dd = ys.to_vec();
    for j in 1..n {
        for i in (j..n).rev() {
            dd[i] = (&dd[i] - &dd[i - 1]) / (&xs[i] - &xs[i - j]);
        }
    }
    let mut p: Vec<BigRational> = Vec::new();
    for i in (0..n).rev() {
        // p ← p · (x − x_i) + dd[i]
        let mut next = vec![BigRational::zero(); p.len() + 1];
        for (e, c) in p.iter().enumerate() {
            next[e + 1] += c;
            next[e] -= c * &xs[i];
        }
        next[0] += &dd[i];
        p = next;
    }
    while p.last().is_some_and(Zero::is_zero) {
        p.pop();
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `Res(f, g) = lc(f)^deg g · ∏_{f(ξ)=0} g(ξ)`; for `f = y − x²` (root `ξ = x²`) and
    /// `g = y − x` that is `g(x²) = x² − x`.
    #[test]
    fn two_lines_in_y() {
        let f = [Poly::from_i64s(&[0, 0, -1]), Poly::from_i64s(&[1])];
        let g = [Poly::from_i64s(&[0, -1]), Poly::from_i64s(&[1])];
        let r = resultant_in_y(&f, &g, &Limits::default()).unwrap();
        assert_eq!(r, Poly::from_i64s(&[0, -1, 1]));
    }

    /// A shared factor `(y − x)` makes the resultant vanish identically.
    #[test]
    fn common_factor_gives_zero() {
        // f = (y − x)(y + 1) = y² + (1 − x) y − x, g = (y − x)(y − 2) = y² − (2 + x) y + 2x.
        let f = [
            Poly::from_i64s(&[0, -1]),
            Poly::from_i64s(&[1, -1]),
            Poly::from_i64s(&[1]),
        ];
        let g = [
            Poly::from_i64s(&[0, 2]),
            Poly::from_i64s(&[-2, -1]),
            Poly::from_i64s(&[1]),
        ];
        assert!(resultant_in_y(&f, &g, &Limits::default())
            .unwrap()
            .is_zero());
    }

    /// `f = (y − x)(y − 1)`, `g = (y − x)(y + 1)`: at every `x` the gcd is `y − x`, so
    /// `S_1` is a multiple of `y − x`. By the determinant definition with
    /// `f = y² − (x + 1) y + x`, `g = y² + (1 − x) y − x`: rows `f`, `g` on the columns
    /// `y², y^j`: `s_11 = det [[1, −(x+1)], [1, 1 − x]] = 1 − x + x + 1 = 2`,
    /// `s_10 = det [[1, x], [1, −x]] = −2x`; `S_1 = 2y − 2x`.
    #[test]
    fn first_subresultant_is_the_common_factor() {
        let f = [
            Poly::from_i64s(&[0, 1]),
            Poly::from_i64s(&[-1, -1]),
            Poly::from_i64s(&[1]),
        ];
        let g = [
            Poly::from_i64s(&[0, -1]),
            Poly::from_i64s(&[1, -1]),
            Poly::from_i64s(&[1]),
        ];
        let [s10, s11] = first_subresultant_in_y(&f, &g, &Limits::default())
            .unwrap()
            .unwrap();
        assert_eq!(s10, Poly::from_i64s(&[0, -2]));
        assert_eq!(s11, Poly::from_i64s(&[2]));
    }

    /// Bareiss on a 3×3 matrix with a zero pivot: rows (0 1 2), (1 0 3), (4 −3 8); expanding
    /// along the first row: 0·(0·8 − 3·(−3)) − 1·(1·8 − 3·4) + 2·(1·(−3) − 0·4) = 4 − 6 = −2.
    #[test]
    fn bareiss_determinant() {
        let m: Vec<Vec<BigInt>> = [[0, 1, 2], [1, 0, 3], [4, -3, 8]]
            .iter()
            .map(|r| r.iter().map(|&v| BigInt::from(v)).collect())
            .collect();
        assert_eq!(determinant(m), BigInt::from(-2));
    }

    /// A leading coefficient that vanishes at `x = 0` (`x y − 1` and `y − 1`): the point 0 is
    /// skipped; with `f = x y − 1` (root `1/x`, leading coefficient `x`) the formula above
    /// gives `x · (1/x − 1) = 1 − x`.
    #[test]
    fn vanishing_leading_coefficient_is_skipped() {
        let f = [Poly::from_i64s(&[-1]), Poly::from_i64s(&[0, 1])];
        let g = [Poly::from_i64s(&[-1]), Poly::from_i64s(&[1])];
        let r = resultant_in_y(&f, &g, &Limits::default()).unwrap();
        assert_eq!(r, Poly::from_i64s(&[1, -1]));
    }
}
