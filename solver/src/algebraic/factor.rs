//! Factoring in Z\[x\] by Zassenhaus's method.
//!
//! 1. Content and Yun's squarefree decomposition reduce to a primitive squarefree `f`.
//! 2. A prime `p` not dividing `lc(f)` that keeps `f` squarefree modulo `p` (one of the first
//!    five such odd primes, the one giving the fewest modular factors).
//! 3. Factoring over F_p: distinct-degree factorization (`gcd(x^(p^i) − x, f)`), then
//!    Cantor–Zassenhaus equal-degree splitting with `gcd(a^((p^d − 1)/2) − 1, g)` for
//!    pseudo-random `a` from a SplitMix64 generator with a fixed seed, so the result never
//!    depends on anything but the input.
//! 4. Hensel lifting of `f ≡ lc(f) · g_1 ⋯ g_r (mod p)` to `p^k > 2 |lc(f)| B`, with `B`
//!    Mignotte's bound `2^n ‖f‖₂` on the coefficients of any factor of `f`, by repeated
//!    two-factor linear lifting (`g_i` against the product of the rest).
//! 5. Recombination: for subset sizes `s = 1, 2, …` while `2s ≤ r`, every product
//!    `lc(f) · ∏_{i∈S} g_i mod p^k` (symmetric residues) is a candidate; its primitive part is
//!    a true factor exactly when it divides `f`, tested first on the constant terms and then
//!    by exact division. Found factors leave the pool; what remains at the end is one
//!    irreducible factor. The number of subsets tried is bounded by
//!    [`Limits::subset_budget`], the reason for the error when it runs out.
//!
//! # Complexity
//! Steps 1–4 are polynomial in the degree `n` and the coefficient length; the
//! recombination is exponential in the number `r` of modular factors in the worst case
//! (Swinnerton-Dyer polynomials split into linear or quadratic factors modulo every prime),
//! hence the budget.
//!
//! # References
//! - H. Zassenhaus, *On Hensel factorization I*, J. Number Theory 1 (1969), 291–311.
//! - D. G. Cantor, H. Zassenhaus, *A new algorithm for factoring polynomials over finite
//!   fields*, Math. Comp. 36 (1981), 587–592.
//! - M. Mignotte, *An inequality about factors of polynomials*, Math. Comp. 28 (1974).
//! - J. von zur Gathen, J. Gerhard, *Modern Computer Algebra*, chapters 14–15.
//! - H. Cohen, *A Course in Computational Algebraic Number Theory*, §3.4–3.5.
//!
//! # Example
//! ```
//! use leontief_solver::algebraic::{factor, Limits, Poly};
//! // x⁴ − 1 = (x − 1)(x + 1)(x² + 1)
//! let f = factor(&Poly::from_i64s(&[-1, 0, 0, 0, 1]), &Limits::default()).unwrap();
//! assert_eq!(f.factors.len(), 3);
//! assert_eq!(f.factors[2].0, Poly::from_i64s(&[1, 0, 1]));
//! ```

use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_traits::{One, Signed, ToPrimitive, Zero};

use super::poly::Poly;
use super::squarefree::squarefree_decomposition;
use super::{AlgebraicError, Limits};

/// `f = content · ∏ factor^multiplicity`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Factorization {
    /// The signed content.
    pub content: BigInt,
    /// Irreducible, primitive factors with positive leading coefficients and their
    /// multiplicities, sorted by degree, then coefficients.
    pub factors: Vec<(Poly, u32)>,
}

impl Factorization {
    /// The product back.
    pub fn product(&self) -> Poly {
        self.factors
            .iter()
            .fold(Poly::constant(self.content.clone()), |acc, (g, e)| {
                acc.mul(&g.pow(*e))
            })
    }
}

/// The factorization of a nonzero polynomial into irreducibles over Z.
///
/// # Errors
/// [`AlgebraicError::ZeroPolynomial`], the degree and coefficient limits,
/// [`AlgebraicError::SubsetBudget`] when recombination exhausts `limits.subset_budget`,
/// [`AlgebraicError::NoGoodPrime`] (not met in practice: only the finitely many primes
/// dividing the discriminant or the leading coefficient are unusable).
pub fn factor(f: &Poly, limits: &Limits) -> Result<Factorization, AlgebraicError> {
    limits.check(f)?;
    let mut content = f.content();
    if f.leading().is_negative() {
        content = -content;
    }
    let mut factors = Vec::new();
    let mut budget = limits.subset_budget;
    for (part, mult) in squarefree_decomposition(f) {
        let mut part = part;
        if part.coeff(0).is_zero() {
            factors.push((Poly::x(), mult));
            part = Poly::new(part.coeffs()[1..].to_vec());
        }
        if part.degree().unwrap_or(0) == 0 {
            continue;
        }
        for g in factor_squarefree(&part, &mut budget, limits)? {
            factors.push((g, mult));
        }
    }
    factors.sort_by(|(a, _), (b, _)| {
        a.degree()
            .cmp(&b.degree())
            .then_with(|| a.coeffs().cmp(b.coeffs()))
    });
    Ok(Factorization { content, factors })
}

/// Whether `f` is irreducible over Q (nonconstant with a single factor of multiplicity 1).
///
/// # Errors
/// As [`factor`].
pub fn is_irreducible(f: &Poly, limits: &Limits) -> Result<bool, AlgebraicError> {
    let fac = factor(f, limits)?;
    Ok(fac.factors.len() == 1 && fac.factors[0].1 == 1)
}

/// The irreducible factors of a primitive squarefree `f` with `f(0) ≠ 0`, positive leading
/// coefficient.
fn factor_squarefree(
    f: &Poly,
    budget: &mut u64,
    limits: &Limits,
) -> Result<Vec<Poly>, AlgebraicError> {
    let n = f.degree().unwrap_or(0);
    if n <= 1 {
        return Ok(vec![f.clone()]);
    }
    let lc = f.leading();
    // Step 2: the distinct-degree factorizations modulo the first few good primes, which
    // may certify irreducibility (below); else the prime with the fewest factors.
    let mut best: Option<(u64, DistinctDegree, usize)> = None;
    let mut possible = vec![true; n + 1];
    let mut good = 0;
    // Primes from 2^16 up: modulo a small prime the roots of a polynomial built from many
    // linear forms (a CEEI clearing polynomial) collide, which splits off linear factors
    // that Hensel lifting and recombination then pay for; above 2^16 a collision of `n`
    // roots has probability about n²/2^17. Products of residues still fit in a u64.
    let mut p = (1u64 << 16) + 1;
    const PRIME_BOUND: u64 = 1 << 20;
    while good < 5 && p < PRIME_BOUND {
        if is_prime(p) && !(&lc % p).is_zero() {
            let fp = reduce(f, p);
            let dfp = fp_derivative(&fp, p);
            if fp_gcd(&fp, &dfp, p).len() == 1 {
                good += 1;
                let monic = fp_monic(&fp, p);
                let ddf = distinct_degree(&monic, p);
                let count: usize = ddf.iter().map(|(d, g)| (g.len() - 1) / d).sum();
                if narrow_factor_degrees(&mut possible, &ddf) {
                    return Ok(vec![f.clone()]);
                }
                if best.as_ref().is_none_or(|(_, _, c)| count < *c) {
                    best = Some((p, ddf, count));
                }
            }
        }
        p += 2;
    }
    let Some((p, ddf, _)) = best else {
        return Err(AlgebraicError::NoGoodPrime { bound: PRIME_BOUND });
    };
    let mut rng = SplitMix64(0x05EE_DA16_EB8A);
    let mut modular = Vec::new();
    for (d, g) in &ddf {
        equal_degree(g, *d, p, &mut rng, &mut modular);
    }
    // Step 4: lift to p^k > 2 |lc| 2^n ‖f‖₂.
    let norm2 = f.coeffs().iter().map(|c| c * c).sum::<BigInt>().sqrt() + 1;
    let bound = BigInt::from(2) * lc.abs() * (BigInt::one() << n) * norm2;
    let mut k = 1u32;
    let pb = BigInt::from(p);
    let mut modulus = pb.clone();
    while modulus <= bound {
        modulus *= &pb;
        k += 1;
    }
    let lifted = hensel_lift(f, &modular, p, k);
    recombine(f, lifted, &modulus, budget, limits)
}

/// Lifts the monic modular factors (`f ≡ lc(f) ∏ g_i mod p`) to monic factors mod `p^k`.
fn hensel_lift(f: &Poly, modular: &[Vec<u64>], p: u64, k: u32) -> Vec<Vec<BigInt>> {
    let pk = num_traits::pow(BigInt::from(p), k as usize);
    let lc = f.leading();
    let mut target: Vec<BigInt> = f.coeffs().to_vec();
    let mut out = Vec::with_capacity(modular.len());
    for (i, g0) in modular.iter().enumerate().take(modular.len() - 1) {
        let mut h0 = vec![lc_mod(&lc, p)];
        for gj in &modular[i + 1..] {
            h0 = fp_mul(&h0, gj, p);
        }
        let (_, s, t) = fp_ext_gcd(g0, &h0, p);
        let mut g: Vec<BigInt> = g0.iter().map(|&c| BigInt::from(c)).collect();
        let mut h: Vec<BigInt> = h0.iter().map(|&c| BigInt::from(c)).collect();
        // The leading coefficient of h is the target's, exactly; it never changes below.
        let top = h.len() - 1;
        h[top] = target.last().cloned().unwrap_or_default().mod_floor(&pk);
        let mut pj = BigInt::from(p);
        for _ in 1..k {
            let prod = int_mul(&g, &h);
            let len = target.len().max(prod.len());
            let e: Vec<u64> = (0..len)
                .map(|i| {
                    let d = target.get(i).cloned().unwrap_or_default()
                        - prod.get(i).cloned().unwrap_or_default();
                    let q = d / &pj; // exact: f ≡ g h (mod p^j)
                    q.mod_floor(&BigInt::from(p)).to_u64().unwrap_or(0)
                })
                .collect();
            let e = fp_trim(e);
            let h_mod = reduce_vec(&h, p);
            let (q, sigma) = fp_divrem(&fp_mul(&s, &e, p), &h_mod, p);
            let tau = fp_add(&fp_mul(&t, &e, p), &fp_mul(&q, g0, p), p);
            add_scaled(&mut g, &tau, &pj);
            add_scaled(&mut h, &sigma, &pj);
            pj *= p;
        }
        for c in g.iter_mut() {
            *c = c.mod_floor(&pk);
        }
        for c in h.iter_mut() {
            *c = c.mod_floor(&pk);
        }
        out.push(g);
        target = h;
    }
    // The last factor carries lc(f): make it monic mod p^k.
    let inv = mod_inverse(&lc, &pk);
    out.push(target.iter().map(|c| (c * &inv).mod_floor(&pk)).collect());
    out
}

/// Step 5: recombination of lifted factors into true factors.
fn recombine(
    f: &Poly,
    mut pool: Vec<Vec<BigInt>>,
    modulus: &BigInt,
    budget: &mut u64,
    limits: &Limits,
) -> Result<Vec<Poly>, AlgebraicError> {
    let mut rest = f.clone();
    let mut found = Vec::new();
    let mut size = 1;
    'sizes: while 2 * size <= pool.len() {
        let mut idx: Vec<usize> = (0..size).collect();
        loop {
            if *budget == 0 {
                return Err(AlgebraicError::SubsetBudget {
                    budget: limits.subset_budget,
                });
            }
            *budget -= 1;
            let lc = rest.leading();
            let mut cand = vec![lc.clone()];
            for &i in &idx {
                cand = int_mul(&cand, &pool[i]);
                for c in cand.iter_mut() {
                    *c = symmetric(c, modulus);
                }
            }
            let cand = Poly::new(cand);
            let c0 = cand.coeff(0);
            let r0 = rest.coeff(0) * &lc;
            let plausible = c0.is_zero() || (&r0 % &c0).is_zero();
            if plausible {
                let g = cand.primitive_part();
                if let Some(q) = rest.div_exact(&g) {
                    found.push(g);
                    rest = q;
                    for &i in idx.iter().rev() {
                        pool.remove(i);
                    }
                    continue 'sizes;
                }
            }
            if !next_combination(&mut idx, pool.len()) {
                break;
            }
        }
        size += 1;
    }
    if rest.degree().unwrap_or(0) > 0 {
        found.push(rest.primitive_part());
    }
    Ok(found)
}

/// The next `k`-subset of `0..n` in lexicographic order; false after the last.
fn next_combination(idx: &mut [usize], n: usize) -> bool {
    let k = idx.len();
    for i in (0..k).rev() {
        if idx[i] < n - k + i {
            idx[i] += 1;
            for j in i + 1..k {
                idx[j] = idx[j - 1] + 1;
            }
            return true;
        }
    }
    false
}

fn symmetric(c: &BigInt, m: &BigInt) -> BigInt {
    let r = c.mod_floor(m);
    if &r * 2 > *m {
        r - m
    } else {
        r
    }
}

fn mod_inverse(a: &BigInt, m: &BigInt) -> BigInt {
    let e = a.mod_floor(m).extended_gcd(m);
    e.x.mod_floor(m)
}

fn lc_mod(lc: &BigInt, p: u64) -> u64 {
    lc.mod_floor(&BigInt::from(p)).to_u64().unwrap_or(0)
}

fn int_mul(a: &[BigInt], b: &[BigInt]) -> Vec<BigInt> {
    if a.is_empty() || b.is_empty() {
        return Vec::new();
    }
    let mut out = vec![BigInt::zero(); a.len() + b.len() - 1];
    for (i, x) in a.iter().enumerate() {
        for (j, y) in b.iter().enumerate() {
            out[i + j] += x * y;
        }
    }
    out
}

fn add_scaled(a: &mut Vec<BigInt>, b: &[u64], s: &BigInt) {
    if a.len() < b.len() {
        a.resize(b.len(), BigInt::zero());
    }
    for (x, &y) in a.iter_mut().zip(b) {
        *x += s * y;
    }
}

fn is_prime(n: u64) -> bool {
    if n < 2 {
        return false;
    }
    let mut d = 2;
    while d * d <= n {
        if n.is_multiple_of(d) {
            return false;
        }
        d += 1;
    }
    true
}

/// The SplitMix64 generator (Steele, Lea, Flood 2014): tiny, deterministic, well mixed.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

// Polynomials over F_p (p < 2^31), constant term first, no trailing zeros.

fn fp_trim(mut a: Vec<u64>) -> Vec<u64> {
    while a.last() == Some(&0) {
        a.pop();
    }
    a
}

pub(super) fn reduce(f: &Poly, p: u64) -> Vec<u64> {
    reduce_vec(f.coeffs(), p)
}

fn reduce_vec(f: &[BigInt], p: u64) -> Vec<u64> {
    let pb = BigInt::from(p);
    fp_trim(
        f.iter()
            .map(|c| c.mod_floor(&pb).to_u64().unwrap_or(0))
            .collect(),
    )
}

fn fp_add(a: &[u64], b: &[u64], p: u64) -> Vec<u64> {
    let n = a.len().max(b.len());
    fp_trim(
        (0..n)
            .map(|i| (a.get(i).copied().unwrap_or(0) + b.get(i).copied().unwrap_or(0)) % p)
            .collect(),
    )
}

fn fp_sub(a: &[u64], b: &[u64], p: u64) -> Vec<u64> {
    let n = a.len().max(b.len());
    fp_trim(
        (0..n)
            .map(|i| (a.get(i).copied().unwrap_or(0) + p - b.get(i).copied().unwrap_or(0)) % p)
            .collect(),
    )
}

fn fp_mul(a: &[u64], b: &[u64], p: u64) -> Vec<u64> {
    if a.is_empty() || b.is_empty() {
        return Vec::new();
    }
    // Products of residues below 2^31 are below 2^62, so a u128 accumulator takes every
    // term of a coefficient and is reduced once.
    let mut acc = vec![0u128; a.len() + b.len() - 1];
    for (i, &x) in a.iter().enumerate() {
        if x == 0 {
            continue;
        }
        for (j, &y) in b.iter().enumerate() {
            acc[i + j] += u128::from(x * y);
        }
    }
    fp_trim(acc.into_iter().map(|c| reduce_sum(c, p)).collect())
}

/// `c mod p` for an accumulator of residue products.
fn reduce_sum(c: u128, p: u64) -> u64 {
    u64::try_from(c % u128::from(p)).unwrap_or_default()
}

fn fp_pow_scalar(mut b: u64, mut e: u64, p: u64) -> u64 {
    let mut r = 1u64;
    b %= p;
    while e > 0 {
        if e & 1 == 1 {
            r = r * b % p;
        }
        b = b * b % p;
        e >>= 1;
    }
    r
}

fn fp_inv(a: u64, p: u64) -> u64 {
    fp_pow_scalar(a, p - 2, p)
}

/// Quotient and remainder; `b` nonzero.
fn fp_divrem(a: &[u64], b: &[u64], p: u64) -> (Vec<u64>, Vec<u64>) {
    if a.len() < b.len() {
        return (Vec::new(), a.to_vec());
    }
    let inv = fp_inv(*b.last().unwrap_or(&1), p);
    // Lazy reduction as in `fp_mul`: each coefficient of the running remainder gathers at
    // most one product below 2^62 per quotient step and is reduced only when read.
    let mut r: Vec<u128> = a.iter().map(|&c| u128::from(c)).collect();
    let db = b.len() - 1;
    let mut q = vec![0u64; a.len() - db];
    for k in (0..q.len()).rev() {
        let c = reduce_sum(r[k + db], p) * inv % p;
        q[k] = c;
        if c != 0 {
            let minus_c = p - c;
            for (j, &bj) in b[..db].iter().enumerate() {
                r[k + j] += u128::from(minus_c * bj);
            }
        }
    }
    r.truncate(db);
    (
        fp_trim(q),
        fp_trim(r.into_iter().map(|c| reduce_sum(c, p)).collect()),
    )
}

fn fp_monic(a: &[u64], p: u64) -> Vec<u64> {
    match a.last() {
        None => Vec::new(),
        Some(&lc) => {
            let inv = fp_inv(lc, p);
            a.iter().map(|&c| c * inv % p).collect()
        }
    }
}

pub(super) fn fp_gcd(a: &[u64], b: &[u64], p: u64) -> Vec<u64> {
    let (mut a, mut b) = (a.to_vec(), b.to_vec());
    while !b.is_empty() {
        let r = fp_divrem(&a, &b, p).1;
        a = b;
        b = r;
    }
    fp_monic(&a, p)
}

/// `(g, s, t)` with `s a + t b = g = gcd(a, b)` monic.
fn fp_ext_gcd(a: &[u64], b: &[u64], p: u64) -> (Vec<u64>, Vec<u64>, Vec<u64>) {
    let (mut r0, mut r1) = (a.to_vec(), b.to_vec());
    let (mut s0, mut s1) = (vec![1u64], Vec::new());
    let (mut t0, mut t1) = (Vec::new(), vec![1u64]);
    while !r1.is_empty() {
        let (q, r) = fp_divrem(&r0, &r1, p);
        let s2 = fp_sub(&s0, &fp_mul(&q, &s1, p), p);
        let t2 = fp_sub(&t0, &fp_mul(&q, &t1, p), p);
        r0 = std::mem::replace(&mut r1, r);
        s0 = std::mem::replace(&mut s1, s2);
        t0 = std::mem::replace(&mut t1, t2);
    }
    let inv = fp_inv(*r0.last().unwrap_or(&1), p);
    let sc = |v: &[u64]| fp_trim(v.iter().map(|&c| c * inv % p).collect());
    (sc(&r0), sc(&s0), sc(&t0))
}

pub(super) fn fp_derivative(a: &[u64], p: u64) -> Vec<u64> {
    fp_trim(
        a.iter()
            .enumerate()
            .skip(1)
            .map(|(i, &c)| c * (i as u64 % p) % p)
            .collect(),
    )
}

fn fp_mulmod(a: &[u64], b: &[u64], m: &[u64], p: u64) -> Vec<u64> {
    fp_divrem(&fp_mul(a, b, p), m, p).1
}

fn fp_powmod(base: &[u64], e: &BigUint, m: &[u64], p: u64) -> Vec<u64> {
    let mut r = vec![1u64];
    let b = fp_divrem(base, m, p).1;
    for i in (0..e.bits()).rev() {
        r = fp_mulmod(&r, &r, m, p);
        if e.bit(i) {
            r = fp_mulmod(&r, &b, m, p);
        }
    }
    r
}

/// The irreducibility certificate: `possible[k]` says whether a factor over Z of degree
/// `k` is still possible, and this prime's distinct-degree factorization `ddf` narrows it
/// to the subset sums of the modular factors' degrees. A factor `g` of a primitive `f` over
/// Z has `lc(g) | lc(f)`, so modulo a good prime (`p ∤ lc(f)`, `f mod p` squarefree) it
/// keeps its degree and is the product of some of the modular irreducible factors: its
/// degree is a subset sum for every good prime. Returns whether no degree strictly between
/// 0 and `deg f` is left, i.e. `f` is irreducible over Q. One prime may not settle it
/// (`x⁴ + 1` splits into factors of degree ≤ 2 modulo every prime), and then factoring
/// decides.
fn narrow_factor_degrees(possible: &mut [bool], ddf: &[(usize, Vec<u64>)]) -> bool {
    let n = possible.len() - 1;
    let mut sums = vec![false; n + 1];
    sums[0] = true;
    for (d, g) in ddf {
        for _ in 0..(g.len() - 1) / d {
            for k in (*d..=n).rev() {
                if sums[k - d] {
                    sums[k] = true;
                }
            }
        }
    }
    for (p, s) in possible.iter_mut().zip(&sums) {
        *p &= *s;
    }
    possible[1..n].iter().all(|p| !p)
}

/// A distinct-degree factorization: each degree present, with the product of the factors of
/// that degree.
type DistinctDegree = Vec<(usize, Vec<u64>)>;

/// The distinct-degree factorization of a monic squarefree `f` over F_p, `p` odd: each
/// degree `d` present with the product of the irreducible factors of degree `d`
/// (`gcd(x^(p^d) − x, ·)` of what is left).
fn distinct_degree(f: &[u64], p: u64) -> DistinctDegree {
    let mut out = Vec::new();
    let x = vec![0u64, 1];
    let mut rest = f.to_vec();
    let mut h = x.clone();
    let mut d = 1usize;
    let pe = BigUint::from(p);
    while rest.len() > 2 * d {
        h = fp_powmod(&h, &pe, &rest, p);
        let g = fp_gcd(&fp_sub(&h, &x, p), &rest, p);
        if g.len() > 1 {
            rest = fp_divrem(&rest, &g, p).0;
            h = fp_divrem(&h, &rest, p).1;
            out.push((d, g));
        }
        d += 1;
    }
    if rest.len() > 1 {
        // What is left has no factor of degree ≤ half its own: it is irreducible.
        out.push((rest.len() - 1, rest));
    }
    out
}

/// The monic irreducible factors of a monic squarefree `f` over F_p, `p` odd.
#[cfg(test)]
fn fp_factor(f: &[u64], p: u64, rng: &mut SplitMix64) -> Vec<Vec<u64>> {
    let mut out = Vec::new();
    for (d, g) in distinct_degree(f, p) {
        equal_degree(&g, d, p, rng, &mut out);
    }
    out
}

/// Cantor–Zassenhaus splitting of a product of irreducibles of degree `d`.
fn equal_degree(g: &[u64], d: usize, p: u64, rng: &mut SplitMix64, out: &mut Vec<Vec<u64>>) {
    let n = g.len() - 1;
    if n == d {
        out.push(g.to_vec());
        return;
    }
    let e = (num_traits::pow(BigUint::from(p), d) - 1u32) / 2u32;
    loop {
        let a = fp_trim((0..n).map(|_| rng.next() % p).collect());
        if a.len() < 2 {
            continue;
        }
        let b = fp_sub(&fp_powmod(&a, &e, g, p), &[1], p);
        let h = fp_gcd(&b, g, p);
        if h.len() > 1 && h.len() < g.len() {
            let other = fp_divrem(g, &h, p).0;
            equal_degree(&h, d, p, rng, out);
            equal_degree(&fp_monic(&other, p), d, p, rng, out);
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modular_factoring_of_x_pow_p_minus_x() {
        // x^5 − x = x(x − 1)(x − 2)(x − 3)(x − 4) over F_5.
        let f = vec![0, 4, 0, 0, 0, 1];
        let mut rng = SplitMix64(1);
        let mut fs = fp_factor(&f, 5, &mut rng);
        fs.sort();
        assert_eq!(fs.len(), 5);
        assert!(fs.iter().all(|g| g.len() == 2));
    }

    /// x⁴ + 1 is irreducible over Q (its roots are the primitive 8th roots of unity, of
    /// degree φ(8) = 4) but splits modulo every prime: for odd p, p² ≡ 1 (mod 8), so F_(p²)
    /// holds the 8th roots of unity and every factor mod p has degree ≤ 2 — mod 3 it is
    /// (x² + x + 2)(x² + 2x + 2). No number of primes certifies it, so the certificate
    /// must leave degree 2 possible, and factoring must still find it irreducible.
    #[test]
    fn certificate_never_claims_x4_plus_1_irreducible() {
        let f = Poly::from_i64s(&[1, 0, 0, 0, 1]);
        let mut possible = vec![true; 5];
        for p in [3u64, 5, 7, 11, 13, 17, 19] {
            let ddf = distinct_degree(&reduce(&f, p), p);
            assert!(ddf.iter().all(|(d, _)| *d <= 2), "mod {p}: {ddf:?}");
            assert!(!narrow_factor_degrees(&mut possible, &ddf));
        }
        assert!(possible[2]);
        assert!(is_irreducible(&f, &Limits::default()).unwrap());
    }

    /// f = x⁴ − 3x³ − 3x² − 2x + 1. Mod 3 it is x⁴ + x + 1 = (x − 1)(x³ + x² + x + 2)
    /// (f(1) = 3 ≡ 0; the cubic takes 2, 5, 16 ≡ 2, 2, 1 at 0, 1, 2, no root, so it is
    /// irreducible), degrees {1, 3}, subset sums {0, 1, 3, 4}: one prime does not settle it. Mod
    /// 5 it is (x² − 2x − 2)(x² − x + 2) = x⁴ − 3x³ + 2x² − 2x − 4 ≡ f (2 ≡ −3, −4 ≡ 1), and
    /// neither quadratic has a root mod 5 (f mod 5 takes 1, 4, 2, 3, 4 at 0..4), degrees
    /// {2, 2}, subset sums {0, 2, 4}. The intersection {0, 4} proves f irreducible over Q
    /// with no lifting. (x² + 1)(x² + 2) = x⁴ + 3x² + 2 is reducible: degree 2 stays
    /// possible for every prime, and factoring finds both factors.
    #[test]
    fn certificate_on_an_irreducible_and_a_reducible_quartic() {
        let f = Poly::from_i64s(&[1, -2, -3, -3, 1]);
        let mut possible = vec![true; 5];
        assert!(!narrow_factor_degrees(
            &mut possible,
            &distinct_degree(&reduce(&f, 3), 3)
        ));
        assert_eq!(possible, vec![true, true, false, true, true]);
        assert!(narrow_factor_degrees(
            &mut possible,
            &distinct_degree(&reduce(&f, 5), 5)
        ));
        assert!(is_irreducible(&f, &Limits::default()).unwrap());
        let g = Poly::from_i64s(&[2, 0, 3, 0, 1]);
        let mut possible = vec![true; 5];
        for p in [5u64, 7, 11, 13] {
            assert!(!narrow_factor_degrees(
                &mut possible,
                &distinct_degree(&reduce(&g, p), p)
            ));
        }
        let fac = factor(&g, &Limits::default()).unwrap();
        let factors: Vec<&Poly> = fac.factors.iter().map(|(g, _)| g).collect();
        assert_eq!(
            factors,
            vec![&Poly::from_i64s(&[1, 0, 1]), &Poly::from_i64s(&[2, 0, 1])]
        );
    }
}
