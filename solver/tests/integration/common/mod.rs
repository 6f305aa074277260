//! Helpers shared by the solver's integration tests: exact literals, the reference cases of
//! `reference/flat.json`, the DRF paper's running example and a small random-instance
//! strategy; [`oracle`] holds the `Rational` tests' independent oracle.
//!
//! Each test file is its own crate and includes this module with `mod common;`, using only
//! some of the helpers, hence the `dead_code` allowance.

#![allow(dead_code)]

pub mod clarabel;
pub mod oracle;
pub mod witness;

use leontief_solver::{Instance, Rational, User};
use proptest::prelude::*;
use serde_json::Value;

/// The reference cases, with their sources' numbers.
pub const FLAT: &str = include_str!("../../../../reference/flat.json");

/// An exact literal: `"7/3"`, `"2.5"`, `"1e-4"`.
pub fn r(s: &str) -> Rational {
    s.parse().expect("test literal")
}

/// Exact literals.
pub fn rs(v: &[&str]) -> Vec<Rational> {
    v.iter().map(|s| r(s)).collect()
}

/// Every case of `reference/flat.json`.
pub fn reference_cases() -> Vec<Value> {
    let all: Value = serde_json::from_str(FLAT).unwrap();
    all["cases"].as_array().unwrap().clone()
}

/// The case of `reference/flat.json` with this `id`.
pub fn reference_case(id: &str) -> Value {
    reference_cases()
        .into_iter()
        .find(|c| c["id"] == id)
        .unwrap_or_else(|| panic!("no reference case {id}"))
}

/// The instance of a reference case.
pub fn case_instance(id: &str) -> Instance {
    Instance::from_json(&reference_case(id)["instance"]).unwrap()
}

/// An instance with integer capacities.
pub fn instance(capacity: &[i64], users: Vec<User>) -> Instance {
    Instance::new(capacity.iter().map(|&c| c.into()).collect(), users).expect("valid test instance")
}

/// The DRF paper's running example: 9 CPUs, 18 GB; A = ⟨1, 4⟩, B = ⟨3, 1⟩.
pub fn paper() -> Instance {
    instance(
        &[9, 18],
        vec![User::new("A", [1, 4]), User::new("B", [3, 1])],
    )
}

/// The running example with per-resource weights (DRF paper §4.3): A weighs memory 2, so
/// its share of memory counts half.
pub fn paper_weighting_memory() -> Instance {
    instance(
        &[9, 18],
        vec![
            User::new("A", [1, 4]).resource_weights([1, 2]),
            User::new("B", [3, 1]),
        ],
    )
}

/// Instances with zero demands, weights and caps: at most `max_users` users, `m <= 3`.
/// Every user demands something (a zero row gets a 1); caps are halves.
pub fn small_instances(max_users: usize) -> impl Strategy<Value = Instance> {
    (1usize..=3, 1usize..=max_users).prop_flat_map(|(m, n)| {
        let demand = prop::collection::vec(prop_oneof![2 => Just(0u32), 5 => 1u32..=6], m);
        let user = (demand, 1u32..=3, prop::option::weighted(0.3, 1u32..=12));
        (
            prop::collection::vec(1u32..=20, m),
            prop::collection::vec(user, n),
        )
            .prop_map(|(capacity, users)| {
                let users = users
                    .into_iter()
                    .enumerate()
                    .map(|(i, (mut d, w, cap))| {
                        if d.iter().all(|&x| x == 0) {
                            let at = i % d.len();
                            d[at] = 1;
                        }
                        let mut u = User::new(format!("u{i}"), d).weight(w);
                        if let Some(c) = cap {
                            u = u.cap(Rational::new(i128::from(c), 2).unwrap());
                        }
                        u
                    })
                    .collect();
                Instance::new(capacity.into_iter().map(Rational::from).collect(), users).unwrap()
            })
    })
}
