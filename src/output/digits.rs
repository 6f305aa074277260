//! Decimal text of integers and exact products, written straight into the output.
//!
//! Big integers are taken as 32-bit limbs and divided by `10^9` one limb at a time: each step
//! divides a 64-bit word by a constant, which compiles to a multiplication (a 128-bit
//! division, as `10^19` chunks of 64-bit limbs need, is a slow library call). The digits are
//! written two at a time from a table, back to front, into one buffer that is appended once.
//!
//! [`Denominators::write_times`] writes `a · p/q` for a small fraction `a` and a big reduced
//! `p/q`, as `Rational`'s `Display` prints it, without building big-integer values: `p` is
//! held in base `10^9` on the stack ([`Product`]) and multiplied by a word chunk by chunk as
//! its digits are written, `q` is converted once for all the fractions that share it, and the
//! gcds are taken with `a`'s parts only, since `p/q` is reduced.
//!
//! # Complexity
//! `O(k²)` word operations to convert a `k`-limb integer (each pass removes nine digits); a
//! product then costs `O(k)` word operations for its remainders, its multiplication and its
//! digits.
//!
//! # Example
//! ```
//! use leontief::output::digits::{write_bigint, Denominators};
//! use leontief_solver::Rational;
//! use num_bigint::BigInt;
//!
//! let p = BigInt::from(3u32).pow(100u32);
//! let mut text = String::new();
//! write_bigint(&p, &mut text);
//! assert_eq!(text, p.to_string());
//!
//! // (10/7) · (3^100 / 2^130), reduced: 5 · 3^100 / (7 · 2^129).
//! let t = Rational::from_big_parts(p, BigInt::from(2u32).pow(130u32)).unwrap();
//! let (num, den) = t.big_parts().unwrap();
//! let mut dens = Denominators::default();
//! let product = dens.product(num, den).unwrap();
//! let mut text = String::new();
//! dens.write_times(&product, 10, 7, &mut text);
//! assert_eq!(text, (Rational::new(10, 7).unwrap() * &t).to_string());
//! ```
//!
//! # References
//! - Knuth, *The Art of Computer Programming* vol. 2, §4.4 (radix conversion by repeated
//!   division) and §4.3.1 (division of a multiple-precision number by a word, Exercise 16).
//! - Granlund and Montgomery, "Division by invariant integers using multiplication", PLDI
//!   1994, <https://gmplib.org/~tege/divcnst-pldi94.pdf> (why a constant divisor is cheap).

use num_bigint::{BigInt, Sign};

/// The decimal pairs `00` to `99`, back to back.
const PAIRS: &[u8; 200] = b"\
0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

/// `10^9`, the largest power of ten below `2^32`.
const TEN9: u64 = 1_000_000_000;

/// Limbs held on the stack; larger numbers use a heap buffer.
const INLINE: usize = 32;

/// Writes `c < 10^9` as exactly nine digits into `dst`.
#[inline]
fn nine(mut c: u32, dst: &mut [u8]) {
    for k in (0..4).rev() {
        let p = (c % 100) as usize * 2;
        c /= 100;
        dst[1 + 2 * k..3 + 2 * k].copy_from_slice(&PAIRS[p..p + 2]);
    }
    dst[0] = b'0' + c as u8;
}

/// Appends ASCII digits (always valid UTF-8).
#[inline]
fn push_ascii(digits: &[u8], out: &mut String) {
    out.push_str(std::str::from_utf8(digits).unwrap_or_default());
}

/// The length of `limbs` without its leading zero limbs.
#[inline]
fn trimmed(limbs: &[u32], mut len: usize) -> usize {
    while len > 0 && limbs[len - 1] == 0 {
        len -= 1;
    }
    len
}

/// Up to this many limbs, nine digits per pass over word-sized limbs cost less than nineteen
/// per pass of 128-by-64-bit divisions over half as many words; from about 256 bits on the
/// second is faster (1.1 against 0.63 µs at 1,024 bits, release build, 2026-11-27).
const WORD_LIMBS_UP_TO: usize = 6;

/// Appends the big integer `n` in decimal (as its `Display` does).
pub fn write_bigint(n: &BigInt, out: &mut String) {
    if n.sign() == Sign::Minus {
        out.push('-');
    }
    let magnitude = n.magnitude();
    if magnitude.iter_u32_digits().len() <= WORD_LIMBS_UP_TO
        && let Some(digits) = Decimal::of(n)
    {
        digits.write_times(1, out);
    } else {
        write_words(magnitude.to_u64_digits(), out);
    }
}

/// `10^19`, the largest power of ten below `2^64`.
const TEN19: u128 = 10_000_000_000_000_000_000;

/// Appends the number held in `words` (little-endian, base `2^64`, more than two words) in
/// decimal, nineteen digits per pass. On long numbers a pass over half as many words with
/// one 128-by-64-bit division each costs less than two passes of word-sized ones.
fn write_words(mut words: Vec<u64>, out: &mut String) {
    let mut buf = vec![0u8; 20 * words.len() + 20];
    let mut end = buf.len();
    while words.len() > 1 {
        let mut rem: u128 = 0;
        for w in words.iter_mut().rev() {
            // rem < 10^19, so cur < 10^19 · 2^64 and the quotient fits a word.
            let cur = (rem << 64) | u128::from(*w);
            *w = (cur / TEN19) as u64;
            rem = cur % TEN19;
        }
        while words.last() == Some(&0) {
            words.pop();
        }
        // Nineteen digits, zero-padded: the quotient is still nonzero.
        let mut c = rem as u64;
        let stop = end - 19;
        while end > stop + 1 {
            let k = (c % 100) as usize * 2;
            c /= 100;
            end -= 2;
            buf[end..end + 2].copy_from_slice(&PAIRS[k..k + 2]);
        }
        end -= 1;
        buf[end] = b'0' + c as u8;
    }
    out.push_str(itoa::Buffer::new().format(words.first().copied().unwrap_or(0)));
    push_ascii(&buf[end..], out);
}

/// Base-`10^9` digits ("chunks") held on the stack: the most significant chunk of a
/// `INLINE`-limb number, with room to spare.
const CHUNKS: usize = INLINE * 10 / 9 + 2;

/// A nonnegative integer in base `10^9` on the stack, least significant chunk first: it
/// prints without a conversion, and multiplies and divides by words one chunk at a time.
#[derive(Clone, Copy)]
struct Decimal {
    len: usize,
    chunks: [u32; CHUNKS],
}

impl Decimal {
    /// `n`'s magnitude, when it fits `INLINE` limbs.
    fn of(n: &BigInt) -> Option<Decimal> {
        let digits = n.magnitude().iter_u32_digits();
        let len = digits.len();
        if len > INLINE {
            return None;
        }
        let mut limbs = [0u32; INLINE];
        for (l, w) in limbs.iter_mut().zip(digits) {
            *l = w;
        }
        Some(Decimal::from_limbs(&mut limbs[..len]))
    }

    /// The number held in `limbs` (little-endian, base `2^32`, at most `INLINE`; destroyed).
    fn from_limbs(limbs: &mut [u32]) -> Decimal {
        let mut len = trimmed(limbs, limbs.len());
        let mut out = Decimal {
            len: 0,
            chunks: [0; CHUNKS],
        };
        // Nine digits per pass: each divides a 64-bit word by a constant.
        while len > 0 {
            let mut rem = 0u64;
            for w in limbs[..len].iter_mut().rev() {
                let cur = (rem << 32) | u64::from(*w);
                *w = (cur / TEN9) as u32;
                rem = cur % TEN9;
            }
            out.chunks[out.len] = rem as u32;
            out.len += 1;
            len = trimmed(limbs, len);
        }
        out
    }

    /// The remainder modulo `d > 0`.
    fn rem(&self, d: u32) -> u32 {
        let d = u64::from(d);
        // r < d < 2^32, so r·10^9 + c < 2^63.
        self.chunks[..self.len]
            .iter()
            .rev()
            .fold(0u64, |r, &c| (r * TEN9 + u64::from(c)) % d) as u32
    }

    /// Divides by `d > 0`, which divides the number.
    fn div_exact(&mut self, d: u32) {
        let d = u64::from(d);
        let mut rem = 0u64;
        for c in self.chunks[..self.len].iter_mut().rev() {
            let cur = rem * TEN9 + u64::from(*c);
            *c = (cur / d) as u32;
            rem = cur % d;
        }
        self.len = trimmed(&self.chunks, self.len);
    }

    fn is_one(&self) -> bool {
        self.len == 1 && self.chunks[0] == 1
    }

    /// Appends the number times `k` in decimal, multiplying chunk by chunk on the way.
    fn write_times(&self, k: u32, out: &mut String) {
        let mut buf = [0u8; 9 * (CHUNKS + 2)];
        let mut end = buf.len();
        let k = u64::from(k);
        let mut carry = 0u64;
        for &c in &self.chunks[..self.len] {
            // c·k + carry < 10^9 · 2^32 + 2^32 < 2^63.
            let v = u64::from(c) * k + carry;
            carry = v / TEN9;
            end -= 9;
            nine((v % TEN9) as u32, &mut buf[end..end + 9]);
        }
        while carry > 0 {
            end -= 9;
            nine((carry % TEN9) as u32, &mut buf[end..end + 9]);
            carry /= TEN9;
        }
        // The leading zeros of the top chunk (all but one digit of a zero).
        let last = buf.len() - 1;
        while end < last && buf[end] == b'0' {
            end += 1;
        }
        if end == buf.len() {
            out.push('0');
        } else {
            push_ascii(&buf[end..], out);
        }
    }
}

/// `gcd(a, b)` of words.
fn gcd(mut a: u32, mut b: u32) -> u32 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// How many small factors `n` a denominator remembers `gcd(n, q)` for (`n < MEMO`), and
/// how many denominators [`Denominators`] holds.
const MEMO: usize = 128;
const REMEMBERED: usize = 16;

/// A denominator `q` converted once: its base-`10^9` digits, its text, and `gcd(n, q)` for
/// the small factors `n` met so far (`0`: not known yet).
struct Denominator {
    big: BigInt,
    q: Decimal,
    text: String,
    gcds: [u8; MEMO],
}

/// The denominators of recent big fractions, each converted once: progressive filling gives
/// many users the same denominator (97 distinct ones among the 100,000 users of the
/// 100,000 × 8 benchmark), and each of their products by a demand needs its text and its gcd
/// with the demand. The oldest entry is replaced once `REMEMBERED` are held.
#[derive(Default)]
pub struct Denominators {
    entries: Vec<Denominator>,
    next: usize,
}

/// A big nonnegative fraction `p/q` (reduced) ready to be multiplied by small fractions: `p`
/// in base `10^9`, and `q`'s slot in [`Denominators`].
pub struct Product {
    p: Decimal,
    slot: usize,
}

impl Denominators {
    /// `p/q` prepared, when `p ≥ 0` and both fit the stack.
    pub fn product(&mut self, p: &BigInt, q: &BigInt) -> Option<Product> {
        if p.sign() == Sign::Minus {
            return None;
        }
        let p = Decimal::of(p)?;
        if let Some(slot) = self.entries.iter().position(|d| d.big == *q) {
            return Some(Product { p, slot });
        }
        let digits = Decimal::of(q)?;
        let mut text = String::new();
        digits.write_times(1, &mut text);
        let entry = Denominator {
            big: q.clone(),
            q: digits,
            text,
            gcds: [0; MEMO],
        };
        let slot = if self.entries.len() < REMEMBERED {
            self.entries.push(entry);
            self.entries.len() - 1
        } else {
            let k = self.next;
            self.next = (k + 1) % REMEMBERED;
            self.entries[k] = entry;
            k
        };
        Some(Product { p, slot })
    }

    /// Appends `p/q` itself (`p` when `q = 1`).
    pub fn write_self(&self, x: &Product, out: &mut String) {
        let d = &self.entries[x.slot];
        x.p.write_times(1, out);
        if !d.q.is_one() {
            out.push('/');
            out.push_str(&d.text);
        }
    }

    /// Appends the reduced `(n/m) · (p/q)` for `n/m` reduced with `0 ≤ n` and `0 < m` (`n`
    /// alone when `m = 1`), as `Rational`'s `Display` prints it.
    ///
    /// `gcd(p, q) = gcd(n, m) = 1`, so the product's common factors are `g1 = gcd(n, q)` and
    /// `g2 = gcd(m, p)`: it is `(n/g1 · p/g2) / (q/g1 · m/g2)`.
    pub fn write_times(&mut self, x: &Product, n: u32, m: u32, out: &mut String) {
        if n == 0 {
            out.push('0');
            return;
        }
        let d = &mut self.entries[x.slot];
        let g1 = match usize::try_from(n) {
            Ok(1) => 1,
            Ok(k) if k < MEMO => {
                if d.gcds[k] == 0 {
                    // gcd(n, q) ≤ n < 128.
                    d.gcds[k] = gcd(n, d.q.rem(n)) as u8;
                }
                u32::from(d.gcds[k])
            }
            _ => gcd(n, d.q.rem(n)),
        };
        let g2 = if m == 1 { 1 } else { gcd(m, x.p.rem(m)) };
        if g2 == 1 {
            x.p.write_times(n / g1, out);
        } else {
            let mut p = x.p;
            p.div_exact(g2);
            p.write_times(n / g1, out);
        }
        if g1 == 1 && g2 == m {
            // The denominator is q's.
            if !d.q.is_one() {
                out.push('/');
                out.push_str(&d.text);
            }
            return;
        }
        if g1 == 1 {
            out.push('/');
            d.q.write_times(m / g2, out);
            return;
        }
        let mut q = d.q;
        q.div_exact(g1);
        if !(q.is_one() && g2 == m) {
            out.push('/');
            q.write_times(m / g2, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use leontief_solver::Rational;
    use num_bigint::BigInt;

    #[test]
    fn integers_print_as_display_does() {
        let mut n = BigInt::from(1);
        for k in 0..1200u32 {
            // Powers of 3 and their neighbours, signed, and powers of ten: every limb count
            // (past the stack's), nine-digit chunks that are zero or start with zeros.
            for m in [&n - 1, n.clone(), &n + 1, -&n, BigInt::from(10).pow(k / 3)] {
                let mut s = String::new();
                write_bigint(&m, &mut s);
                assert_eq!(s, m.to_string());
            }
            n *= 3;
        }
        for v in [
            i128::MIN + 1,
            i128::MAX,
            u64::MAX.into(),
            10i128.pow(19),
            10i128.pow(19) - 1,
            99,
            100,
            -1,
            0,
            1 << 64,
            -(1 << 64) - 1,
            1 << 96,
        ] {
            let mut s = String::new();
            crate::output::write_exact(&Rational::new(v, 1).unwrap(), &mut s);
            assert_eq!(s, v.to_string());
        }
    }

    #[test]
    fn products_print_as_the_reduced_rational() {
        // (n/m)·(p/q) against Rational's own product and Display, with common factors on
        // both sides (g1 = gcd(n, q), g2 = gcd(m, p)) and without, a big integer p/1, and
        // products whose denominator is 1.
        let base: BigInt = BigInt::from(3u32).pow(90u32) * 7u32 * 11u32;
        let cases = [
            (
                base.clone() + 1u32,
                BigInt::from(2u32).pow(100u32) * 5u32 * 13u32,
            ),
            (base.clone(), BigInt::from(2u32).pow(90u32) * 17u32 + 1u32),
            (base.clone() * 2u32, BigInt::from(1)),
            (BigInt::from(5), BigInt::from(3u32).pow(100u32)),
            (BigInt::from(2u32).pow(300u32) * 3u32, BigInt::from(7)),
        ];
        // Few slots, so that denominators are also replaced.
        let mut dens = Denominators::default();
        for round in 0..2 {
            for (p, q) in &cases {
                let t = Rational::from_big_parts(p.clone(), q.clone()).unwrap();
                let (p, q) = t.big_parts().expect("big");
                let product = dens.product(p, q).expect("fits");
                let mut s = String::new();
                dens.write_self(&product, &mut s);
                assert_eq!(s, t.to_string());
                for n in [0u32, 1, 2, 5, 7, 13, 26, 65, 77, 99, 127, 128, u32::MAX] {
                    for m in [1u32, 2, 3, 7, 10, 11, 3125, 5_000_000, u32::MAX] {
                        let a = Rational::new(i128::from(n), i128::from(m)).unwrap();
                        let (n, m) = a.as_small().unwrap();
                        let mut s = String::new();
                        dens.write_times(&product, n as u32, m as u32, &mut s);
                        assert_eq!(s, (&a * &t).to_string(), "{a} · {t}, round {round}");
                    }
                }
            }
        }
        // More denominators than slots: the oldest are replaced and products stay right.
        for k in 0..(REMEMBERED as u32 + 3) {
            let q: BigInt = BigInt::from(3u32).pow(90u32) + k;
            let t = Rational::from_big_parts(BigInt::from(2u32).pow(140u32) + 1u32, q).unwrap();
            let (p, q) = t.big_parts().expect("big");
            let product = dens.product(p, q).expect("fits");
            let mut s = String::new();
            dens.write_times(&product, 6, 5, &mut s);
            let a = Rational::new(6, 5).unwrap();
            assert_eq!(s, (&a * &t).to_string());
        }
    }
}
