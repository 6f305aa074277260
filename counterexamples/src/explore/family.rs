//! Parametric families (`explore --family NAME`): instances of a fixed structure, named by a
//! few integers, that reach extremes random instances miss (docs/explore.md §5).
//!
//! - `two-kinds`: `k` users of one kind and `n − k` of another — users `a1..ak` share one
//!   demand vector, `b1..b(n−k)` another; both vectors drawn at random (integers in
//!   `1..=max_demand`, each entry 0 with the `--zeros` chance, one entry kept positive), the
//!   capacities too (integers in `1..=4 max_demand`, as random instances). Parameters
//!   `n`, `k`, `m`: every `n` in `--users` (at least 2), `1 <= k <= n/2` (the kinds are drawn
//!   alike, so `k` and `n − k` are the same point), every `m` in `--resources`.
//! - `pps`: the family `F(k, m)` of docs/theory.md §5 question 5 (Parkes, Procaccia and
//!   Shah's extremal instances, and Bertsimas, Farias and Trichakis's at `m = √n` or
//!   `(n + 1)/2`): capacities 1 on `m` resources, users `h1..hk` demanding `⟨1, …, 1⟩` and
//!   `s1..sm`, user `sj` demanding resource `j` alone. Parameters `k`, `m`: every `m` in
//!   `--resources` and `n = k + m` in `--users` with `k >= 1`. No randomness: the seeds are
//!   exactly these points.
//!
//! Seed unit `u` of a run is point `u mod P` of the `P` points, in the order `n`, then `k`
//! (two-kinds) or `m`, then `m` (two-kinds); for `pps` the units end after the `P` points.
//! The local search ([`local::perturb`](super::local::perturb) with the family) keeps the
//! structure: it moves one entry of a kind's demand vector for **every** user of the kind at
//! once (the moves of
//! [`super::local`]: an entry set to 0, doubled, halved, a grid value × the largest entry,
//! raised by a quarter of it), or one capacity (×3/2, ×2/3, ×2, ×1/2). For `pps` only the
//! `h` users' common vector moves: each `sj` keeps demanding resource `j` alone.
//!
//! A record carries `"family": {"name", "params"}`; [`Family::params`] recognises the
//! structure from the instance alone (users' names, shared vectors), so re-derivation
//! checks it ([`verify`]). Families are flat, unweighted and uncapped.
//!
//! # Example
//! ```
//! use leontief_counterexamples::explore::family::Family;
//! use leontief_counterexamples::instance_generator::GeneratorConfig;
//! let mut g = GeneratorConfig::new();
//! g.users = 4..=4;
//! g.resources = 2..=2;
//! let space = Family::Pps.space(&g, 1);
//! let f22 = space.instance(0).unwrap(); // F(2, 2): h1, h2 ⟨1, 1⟩, s1 ⟨1, 0⟩, s2 ⟨0, 1⟩
//! assert_eq!(f22.num_users(), 4);
//! assert!(space.instance(1).is_none()); // one point only
//! let p = Family::Pps.params(&f22).unwrap();
//! assert_eq!((p["k"].as_u64(), p["m"].as_u64()), (Some(2), Some(2)));
//! ```
//!
//! # Complexity
//! `O(|users| · |resources|)` points; an instance or a move costs `O(n m)`.
//!
//! # References
//! - D. C. Parkes, A. D. Procaccia, N. Shah. *Beyond Dominant Resource Fairness: Extensions,
//!   Limitations, and Indivisibilities.* ACM EC 2012.
//! - D. Bertsimas, V. F. Farias, N. Trichakis. *The Price of Fairness.* Operations Research
//!   59(1), 2011.

use leontief_solver::random_instances::SplitMix64;
use leontief_solver::{Instance, Rational, SolverError, User};
use serde::Serialize;
use serde_json::Value;

use super::local::entry_move;
use crate::doc;
use crate::instance_generator::GeneratorConfig;

leontief_solver::name_enum! {
    #[unknown("--family", "family")]
    /// Every family, by its command-line name (derived from the variant).
    pub enum Family {
        /// `k` users of one kind and `n − k` of another (random vectors).
        TwoKinds,
        /// `F(k, m)`: `k` users `⟨1, …, 1⟩` and `m` single-resource users, capacities 1.
        Pps,
    }
}

/// A point of a family's parameter space: `n` users (`k` of the first kind), `m`
/// resources.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Point {
    /// Users.
    pub n: usize,
    /// Users of the first kind (`a` or `h`).
    pub k: usize,
    /// Resources.
    pub m: usize,
}

impl Family {
    /// A one-line definition (shown in `explore --help`).
    pub fn description(self) -> &'static str {
        match self {
            Family::TwoKinds => {
                "k users of one kind and n-k of another: two random demand vectors, \
                 n in --users, 1 <= k <= n/2, m in --resources"
            }
            Family::Pps => {
                "F(k, m): capacities 1, k users <1,...,1> and m users each demanding one \
                 resource alone; m in --resources, n = k + m in --users"
            }
        }
    }

    /// The first kind's user-name prefix and the second's.
    fn prefixes(self) -> (&'static str, &'static str) {
        match self {
            Family::TwoKinds => ("a", "b"),
            Family::Pps => ("h", "s"),
        }
    }

    /// How many users lead with the first kind's prefix.
    fn first_kind(self, users: &[User]) -> usize {
        let (first, _) = self.prefixes();
        users
            .iter()
            .take_while(|u| u.name.starts_with(first))
            .count()
    }

    /// The parameter points over the generator's ranges, in order.
    pub fn points(self, g: &GeneratorConfig) -> Vec<Point> {
        let mut out = Vec::new();
        for n in g.users.clone() {
            match self {
                Family::TwoKinds => {
                    for k in 1..=n / 2 {
                        for m in g.resources.clone() {
                            out.push(Point { n, k, m });
                        }
                    }
                }
                Family::Pps => {
                    for m in g.resources.clone().filter(|&m| m < n) {
                        out.push(Point { n, k: n - m, m });
                    }
                }
            }
        }
        out
    }

    /// Checks that the ranges hold at least one point.
    ///
    /// # Errors
    /// None: an error naming `--users` (and `--resources` for `pps`).
    pub fn check(self, g: &GeneratorConfig) -> Result<(), SolverError> {
        if !self.points(g).is_empty() {
            return Ok(());
        }
        Err(match self {
            Family::TwoKinds => SolverError::invalid(
                "--users",
                "two-kinds needs at least 2 users (one of each kind)",
            ),
            Family::Pps => SolverError::invalid(
                "--users",
                "pps needs more users than resources (n = k + m with k >= 1, m in --resources)",
            ),
        })
    }

    /// Whether the seeds are exactly the points (no random part).
    pub fn finite(self) -> bool {
        matches!(self, Family::Pps)
    }

    /// The family's seed units for a run seeded by `seed`.
    pub fn space(self, g: &GeneratorConfig, seed: u64) -> FamilySpace {
        FamilySpace {
            family: self,
            points: self.points(g),
            generator: g.clone(),
            seed,
        }
    }

    /// The instance of a point (`rng` draws the random parts).
    pub fn instance(self, p: Point, g: &GeneratorConfig, rng: &mut SplitMix64) -> Instance {
        let (first, second) = self.prefixes();
        let (capacity, a, b): (Vec<Rational>, Vec<Rational>, Vec<Vec<Rational>>) = match self {
            Family::TwoKinds => {
                let capacity = g.capacity(p.m, rng);
                let a = g.demand(p.m, rng);
                let b = g.demand(p.m, rng);
                (capacity, a, vec![b; p.n - p.k])
            }
            Family::Pps => {
                let specialist = |j: usize| {
                    let mut d = vec![Rational::ZERO; p.m];
                    d[j] = Rational::ONE;
                    d
                };
                let ones = vec![Rational::ONE; p.m];
                (ones.clone(), ones, (0..p.m).map(specialist).collect())
            }
        };
        let mut users: Vec<User> = (1..=p.k)
            .map(|i| User::new(format!("{first}{i}"), a.clone()))
            .collect();
        users.extend(
            b.into_iter()
                .enumerate()
                .map(|(i, d)| User::new(format!("{second}{}", i + 1), d)),
        );
        Instance::new(capacity, users).expect("family instances are valid")
    }

    /// The parameters of `instance` as a member of the family (`{"n", "k", "m"}` for
    /// two-kinds, `{"k", "m"}` for pps), recognised from its structure: flat, unweighted,
    /// uncapped; the users named `a1..ak` then `b1..b(n−k)` (`h1..hk` then `s1..sm`) in
    /// order, each kind sharing one demand vector (for pps, `sj` demanding resource `j`
    /// alone and exactly `m` of them).
    ///
    /// # Errors
    /// The first departure from the structure, naming the user.
    pub fn params(self, instance: &Instance) -> Result<Value, SolverError> {
        let bad = |what: String| SolverError::invalid("family", what);
        if !instance.pools().is_empty() {
            return Err(bad(format!("{} instances have no pools", self.name())));
        }
        let (first, second) = self.prefixes();
        let users = instance.users();
        let k = self.first_kind(users);
        let m = instance.num_resources();
        for (i, u) in users.iter().enumerate() {
            // The user's name and the user whose demand vector its kind shares.
            let (prefix, index, model) = if i < k {
                (first, i + 1, 0)
            } else {
                (second, i - k + 1, k)
            };
            if u.name != format!("{prefix}{index}") {
                return Err(bad(format!("user {} should be {prefix}{index}", u.name)));
            }
            if u.weight != Rational::ONE || u.cap.is_some() || u.resource_weights.is_some() {
                return Err(bad(format!("user {} has a weight or a cap", u.name)));
            }
            let shares = match self {
                Family::Pps if i >= k => {
                    let j = i - k;
                    u.demand
                        .iter()
                        .enumerate()
                        .all(|(l, d)| (l == j) == d.is_positive())
                }
                _ => u.demand == users[model].demand,
            };
            if !shares {
                return Err(bad(format!(
                    "user {} does not share its kind's demand vector",
                    u.name
                )));
            }
        }
        let n = users.len();
        let p = match self {
            Family::TwoKinds => {
                if k == 0 || k == n {
                    return Err(bad("two-kinds needs users of both kinds".into()));
                }
                Params { n: Some(n), k, m }
            }
            Family::Pps => {
                if k == 0 || n - k != m {
                    return Err(bad(format!(
                        "pps needs k >= 1 users h and one user s per resource ({m})"
                    )));
                }
                Params { n: None, k, m }
            }
        };
        Ok(doc::value(&p))
    }

    /// The record's `family` field: `{"name": …, "params": {…}}`.
    ///
    /// # Errors
    /// An instance outside the family (see [`Family::params`]).
    pub fn to_json(self, instance: &Instance) -> Result<Value, SolverError> {
        let params = self.params(instance)?;
        Ok(doc::value(&FamilyDoc {
            name: self.name(),
            params,
        }))
    }

    /// One structure-keeping demand move on the users of a member (for
    /// [`local::perturb`](super::local::perturb)); `None`: no move.
    pub(crate) fn move_demand(
        self,
        users: &mut [User],
        values: &[Rational],
        rng: &mut SplitMix64,
    ) -> Option<()> {
        let k = self.first_kind(users);
        // The kinds that move: both for two-kinds, the h users for pps.
        let kind = match self {
            Family::TwoKinds => rng.range(0, 1) as usize,
            Family::Pps => 0,
        };
        let members = if kind == 0 { 0..k } else { k..users.len() };
        if members.is_empty() {
            return None;
        }
        let m = users[members.start].demand.len();
        let j = rng.range(0, m as u64 - 1) as usize;
        let value = entry_move(&users[members.start].demand, j, values, rng);
        for u in &mut users[members] {
            u.demand[j] = value.clone();
        }
        Some(())
    }
}

/// A family's parameters as a record states them: `n` (two-kinds only), `k`, `m`.
#[derive(Serialize)]
struct Params {
    #[serde(skip_serializing_if = "Option::is_none")]
    n: Option<usize>,
    k: usize,
    m: usize,
}

/// The record's `family` field.
#[derive(Serialize)]
struct FamilyDoc {
    name: &'static str,
    params: Value,
}

/// A record's `family` field checked against its instance: the family is known and the
/// parameters are the instance's.
///
/// # Errors
/// An unknown family, or parameters that are not the instance's, named.
pub fn verify(field: &Value, instance: &Instance) -> Result<(), SolverError> {
    let name = field["name"]
        .as_str()
        .ok_or_else(|| SolverError::invalid("family.name", "expected a string"))?;
    let family: Family = name
        .parse()
        .map_err(|_| SolverError::invalid("family.name", format!("unknown family {name:?}")))?;
    let params = family.params(instance)?;
    if field["params"] != params {
        return Err(SolverError::invalid(
            "family.params",
            format!("recorded {}, the instance's {params}", field["params"]),
        ));
    }
    Ok(())
}

/// The seed units of a family (see the [module docs](self)).
#[derive(Debug, Clone)]
pub struct FamilySpace {
    family: Family,
    points: Vec<Point>,
    generator: GeneratorConfig,
    seed: u64,
}

impl FamilySpace {
    /// Seed unit `unit`'s instance; `None` past the last point of a finite family (or
    /// when there is no point).
    pub fn instance(&self, unit: u64) -> Option<Instance> {
        let p = self.points.len() as u64;
        if p == 0 || (self.family.finite() && unit >= p) {
            return None;
        }
        let point = self.points[(unit % p) as usize];
        let mut rng = SplitMix64::new(
            self.seed ^ 0xFA41_17E5_0000_0000 ^ unit.wrapping_mul(0x9E37_79B9_7F4A_7C15),
        );
        rng.next_u64();
        Some(self.family.instance(point, &self.generator, &mut rng))
    }
}

#[cfg(test)]
mod tests {
    use super::super::local::walk;
    use super::*;

    fn q(s: &str) -> Rational {
        s.parse().unwrap()
    }

    fn ranges(
        users: std::ops::RangeInclusive<usize>,
        resources: std::ops::RangeInclusive<usize>,
    ) -> GeneratorConfig {
        let mut g = GeneratorConfig::new();
        g.users = users;
        g.resources = resources;
        g
    }

    #[test]
    fn points_cover_the_ranges() {
        // pps, n in 3..4, m in 1..3 with m < n: (3: m = 1, 2), (4: m = 1, 2, 3).
        let p = Family::Pps.points(&ranges(3..=4, 1..=3));
        let nm: Vec<(usize, usize, usize)> = p.iter().map(|x| (x.n, x.k, x.m)).collect();
        assert_eq!(nm, [(3, 2, 1), (3, 1, 2), (4, 3, 1), (4, 2, 2), (4, 1, 3)]);
        // two-kinds, n in 2..4, k in 1..n/2, m in 2..2: (2,1), (3,1), (4,1), (4,2).
        let p = Family::TwoKinds.points(&ranges(2..=4, 2..=2));
        let nk: Vec<(usize, usize)> = p.iter().map(|x| (x.n, x.k)).collect();
        assert_eq!(nk, [(2, 1), (3, 1), (4, 1), (4, 2)]);
        assert!(Family::TwoKinds.check(&ranges(1..=1, 2..=2)).is_err());
        let e = Family::Pps.check(&ranges(2..=2, 2..=3)).unwrap_err();
        assert!(e.to_string().contains("--users"), "{e}");
    }

    #[test]
    fn pps_is_f_k_m_and_its_moves_keep_the_specialists() {
        let space = Family::Pps.space(&ranges(5..=5, 2..=2), 0);
        let f = space.instance(0).unwrap();
        assert!(space.instance(1).is_none());
        let names: Vec<&str> = f.users().iter().map(|u| u.name.as_str()).collect();
        assert_eq!(names, ["h1", "h2", "h3", "s1", "s2"]);
        assert_eq!(f.users()[4].demand, [q("0"), q("1")]);
        assert_eq!(f.capacity(), [q("1"), q("1")]);
        let mut rng = SplitMix64::new(3);
        let mut x = f.clone();
        for _ in 0..200 {
            x = walk(
                &x,
                &[q("0"), q("1/2"), q("1")],
                &mut rng,
                2,
                Some(Family::Pps),
            );
            let p = Family::Pps.params(&x).unwrap();
            assert_eq!((p["k"].as_u64(), p["m"].as_u64()), (Some(3), Some(2)));
            assert_eq!(x.users()[3].demand[1], q("0"));
        }
        assert_ne!(x, f);
    }

    #[test]
    fn two_kinds_moves_a_whole_kind_and_recognition_rejects_a_stray_user() {
        let space = Family::TwoKinds.space(&ranges(5..=5, 3..=3), 7);
        let inst = space.instance(1).unwrap(); // point (5, 2, 3): unit 1 of 2
        let p = Family::TwoKinds.params(&inst).unwrap();
        assert_eq!(
            (p["n"].as_u64(), p["k"].as_u64(), p["m"].as_u64()),
            (Some(5), Some(2), Some(3))
        );
        let mut rng = SplitMix64::new(11);
        let mut x = inst.clone();
        for _ in 0..200 {
            x = walk(&x, &[], &mut rng, 3, Some(Family::TwoKinds));
            assert!(Family::TwoKinds.params(&x).is_ok());
        }
        // One user of kind b alone changed: no longer a member.
        let mut users = x.users().to_vec();
        users[4].demand[0] = &users[4].demand[0] + &q("1");
        let stray = x.with_users(users).unwrap();
        let e = Family::TwoKinds.params(&stray).unwrap_err();
        assert!(e.to_string().contains("b3"), "{e}");
        assert!(verify(&Family::TwoKinds.to_json(&x).unwrap(), &x).is_ok());
        assert!(verify(&Family::TwoKinds.to_json(&x).unwrap(), &stray).is_err());
    }
}
