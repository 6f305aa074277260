//! `Rational`'s reduced big-by-big addition and multiplication against GMP's (`mpq_add`,
//! `mpq_mul` through rug), on fractions whose numerators and denominators are random
//! `b`-bit numbers (so the denominators' gcd is small and the reduction costs a full gcd).
//!
//! `cargo run --release` in this folder; prints one line per size: the median over 5 rounds
//! of the mean time per operation.

use leontief_solver::Rational;
use num_bigint::{BigInt, BigUint};
use rug::integer::Order;
use std::time::Instant;

/// xorshift64: a fixed, seedable stream of limbs.
fn limbs(state: &mut u64, count: usize) -> Vec<u64> {
    (0..count)
        .map(|_| {
            *state ^= *state << 13;
            *state ^= *state >> 7;
            *state ^= *state << 17;
            *state | 1 << 63 // full length
        })
        .collect()
}

fn ours(x: &[u64]) -> BigInt {
    BigInt::from(BigUint::from_slice(
        &x.iter()
            .flat_map(|w| [*w as u32, (w >> 32) as u32])
            .collect::<Vec<_>>(),
    ))
}

fn gmp(x: &[u64]) -> rug::Integer {
    rug::Integer::from_digits(x, Order::Lsf)
}

/// Median over 5 rounds of the mean time of `op` over `pairs`, in microseconds.
fn time<T>(pairs: &[(T, T)], op: impl Fn(&T, &T) -> u64) -> f64 {
    let mut rounds: Vec<f64> = (0..5)
        .map(|_| {
            let start = Instant::now();
            let mut sink = 0u64;
            for (a, b) in pairs {
                sink = sink.wrapping_add(op(a, b));
            }
            std::hint::black_box(sink);
            start.elapsed().as_secs_f64() * 1e6 / pairs.len() as f64
        })
        .collect();
    rounds.sort_by(f64::total_cmp);
    rounds[2]
}

fn main() {
    let mut state = 0x9E37_79B9_7F4A_7C15;
    println!("bits    add: ours / GMP (µs)        mul: ours / GMP (µs)");
    for bits in [256usize, 1024, 4096, 12_288, 25_600, 51_200] {
        let n = bits / 64;
        let count = (2_000_000 / (n * n)).clamp(10, 2_000);
        let mut ours_pairs = Vec::new();
        let mut gmp_pairs = Vec::new();
        for _ in 0..count {
            let parts: Vec<Vec<u64>> = (0..4).map(|_| limbs(&mut state, n)).collect();
            let ours_of =
                |p: &[u64], q: &[u64]| Rational::from_big_parts(ours(p), ours(q)).unwrap();
            let gmp_of = |p: &[u64], q: &[u64]| rug::Rational::from((gmp(p), gmp(q)));
            ours_pairs.push((ours_of(&parts[0], &parts[1]), ours_of(&parts[2], &parts[3])));
            gmp_pairs.push((gmp_of(&parts[0], &parts[1]), gmp_of(&parts[2], &parts[3])));
        }
        let ours_add = time(&ours_pairs, |a, b| (a + b).bits());
        let gmp_add = time(&gmp_pairs, |a, b| {
            u64::from(rug::Rational::from(a + b).denom().significant_bits())
        });
        let ours_mul = time(&ours_pairs, |a, b| (a * b).bits());
        let gmp_mul = time(&gmp_pairs, |a, b| {
            u64::from(rug::Rational::from(a * b).denom().significant_bits())
        });
        println!(
            "{bits:>6}  {ours_add:>9.2} / {gmp_add:>9.2} ({:.2}×)   {ours_mul:>9.2} / {gmp_mul:>9.2} ({:.2}×)",
            ours_add / gmp_add,
            ours_mul / gmp_mul
        );
    }
}
