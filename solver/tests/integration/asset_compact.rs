//! Asset fairness's level-coefficient filling against the plain exact progressive filling
//! (`AssetFairness::fill_plain`, the reference): the same events, levels, task counts,
//! consumption and saturated resources on random instances, both ways — the compact answer
//! written out equals the reference, and the reference's task counts factor as the compact
//! form says (`x_i = λ_k c_i` or the cap).

use leontief_solver::asset::{fill_compact, AssetFairness, CompactTasks, EventLevel};
use leontief_solver::drf::FrozenBy;
use leontief_solver::random_instances::SplitMix64;
use leontief_solver::{Instance, Mechanism, Rational, User};

use crate::common;

/// A random instance. `grid` draws demands and capacities from a few small values, so that
/// ties between caps and saturations, and between resources, are frequent (they exercise
/// the exact fall-back of the decisions); otherwise numbers are drawn from wide ranges.
fn random_instance(rng: &mut SplitMix64, grid: bool) -> Instance {
    let n = rng.range(1, 7) as usize;
    let m = rng.range(1, 4) as usize;
    let capacity: Vec<Rational> = (0..m)
        .map(|_| {
            if grid {
                Rational::from(rng.range(1, 3) * 2)
            } else {
                Rational::new(rng.range(1, 500) as i128, rng.range(1, 7) as i128).unwrap()
            }
        })
        .collect();
    let users = (0..n)
        .map(|i| {
            let mut demand: Vec<Rational> = (0..m)
                .map(|_| {
                    if rng.chance(1, 3) {
                        Rational::ZERO
                    } else if grid {
                        Rational::from(rng.range(1, 2))
                    } else {
                        Rational::new(rng.range(1, 60) as i128, rng.range(1, 4) as i128).unwrap()
                    }
                })
                .collect();
            if demand.iter().all(Rational::is_zero) {
                demand[rng.range(0, m as u64 - 1) as usize] = Rational::ONE;
            }
            let mut u = User::new(format!("u{i}"), demand);
            match rng.range(0, 5) {
                0 => u = u.weight(rng.range(1, 3)),
                1 => {
                    let w: Vec<Rational> =
                        (0..m).map(|_| Rational::from(rng.range(1, 3))).collect();
                    u = u.resource_weights(w);
                }
                _ => {}
            }
            if rng.chance(2, 5) {
                let cap = if grid {
                    Rational::new(rng.range(1, 6) as i128, 2).unwrap()
                } else {
                    Rational::new(rng.range(1, 40) as i128, rng.range(1, 3) as i128).unwrap()
                };
                u = u.cap(cap);
            }
            u
        })
        .collect();
    Instance::new(capacity, users).expect("valid by construction")
}

/// Checks the compact filling against the reference on one instance.
fn agree(inst: &Instance) {
    let reference = AssetFairness.fill_plain(inst);
    let compact = fill_compact(inst);
    // Compact → written out equals the reference (every field of the outcome).
    assert_eq!(
        compact.expand(inst),
        reference,
        "instance {:?}",
        inst.to_json()
    );
    // Reference → compact: each task count is the cap or λ_k times the coefficient, with λ_k
    // the reference's level of the user, and the intervals contain the exact values.
    for i in 0..inst.num_users() {
        // An interval around user i's tasks (scale 2^F): exact for capped users.
        let (lo, hi) = match &compact.tasks[i] {
            CompactTasks::Exact(t) => {
                assert_eq!(reference.frozen_by[i], FrozenBy::Cap);
                assert_eq!(&reference.tasks[i], t);
                (t.clone(), t.clone())
            }
            CompactTasks::Level { level, coefficient } => {
                assert_eq!(&reference.levels[i] * coefficient, reference.tasks[i]);
                let saturation = &compact.saturations[*level];
                let e = saturation.event;
                assert_eq!(reference.events[e].level, reference.levels[i]);
                assert!(reference.events[e].frozen.contains(&i));
                let (lo, hi) = saturation.bounds.bounds(compact.precision);
                (lo * coefficient, hi * coefficient)
            }
            _ => unreachable!("no other form"),
        };
        assert!(lo <= reference.tasks[i] && reference.tasks[i] <= hi);
    }
    for (j, (lo, hi)) in compact.consumption_bounds().into_iter().enumerate() {
        assert!(lo <= reference.consumption[j] && reference.consumption[j] <= hi);
    }
    for (e, r) in compact.events.iter().zip(&reference.events) {
        if let EventLevel::Cap(l) = &e.level {
            assert_eq!(l, &r.level);
        }
    }
}

#[test]
fn agrees_with_the_plain_filling_on_random_instances() {
    let mut rng = SplitMix64::new(15);
    for _ in 0..400 {
        agree(&random_instance(&mut rng, false));
    }
}

#[test]
fn agrees_with_the_plain_filling_where_events_tie() {
    let mut rng = SplitMix64::new(16);
    for _ in 0..400 {
        agree(&random_instance(&mut rng, true));
    }
}

#[test]
fn ties_resolve_as_progressive_filling_does() {
    // Hand-derived: capacities (2, 2); a ⟨1, 0⟩ with cap 1, b ⟨0, 1⟩, c ⟨1, 1⟩.
    // Aggregate shares per task: a 1/2, b 1/2, c 1; coefficients 2, 2, 1.
    // At level λ: resource 1 uses 2λ + λ = 3λ (a and c), resource 2 uses 3λ (b and c): both
    // saturate at λ = 2/3, and a's cap level is 1 × 1/2 = 1/2 < 2/3, so a stops first at 1/2
    // (1 task); then resource 1 uses 1 + λ, saturating at λ = 1, and resource 2 still at 2/3:
    // resource 2 first, freezing b and c at 2/3 (b 4/3, c 2/3 tasks). Nothing is left growing.
    let inst = common::instance(
        &[2, 2],
        vec![
            User::new("a", [1, 0]).cap(1),
            User::new("b", [0, 1]),
            User::new("c", [1, 1]),
        ],
    );
    let fill = fill_compact(&inst);
    let x = fill.expand(&inst);
    let shown: Vec<String> = x.tasks.iter().map(|t| t.to_string()).collect();
    assert_eq!(shown, ["1", "4/3", "2/3"]);
    assert_eq!(
        x.frozen_by,
        vec![FrozenBy::Cap, FrozenBy::Resource(1), FrozenBy::Resource(1)]
    );
    assert_eq!(x.saturated, vec![1]);
    assert_eq!(x, AssetFairness.fill_plain(&inst));
    // Equal saturation levels on two resources: the lower index first. Capacities (1, 1),
    // a ⟨1, 0⟩, b ⟨0, 1⟩: both saturate at λ = 1 (coefficients 1); resource 1 freezes a,
    // then resource 2 freezes b at the same level.
    let tie = Instance::new(
        vec![1.into(), 1.into()],
        vec![User::new("a", [1, 0]), User::new("b", [0, 1])],
    )
    .unwrap();
    let x = fill_compact(&tie).expand(&tie);
    assert_eq!(
        x.frozen_by,
        vec![FrozenBy::Resource(0), FrozenBy::Resource(1)]
    );
    assert_eq!(x.events[0].level, x.events[1].level);
    assert_eq!(x, AssetFairness.fill_plain(&tie));
    // A cap at exactly the saturation level: the saturation comes first. Capacity 2, a ⟨1⟩
    // with cap 1 and b ⟨1⟩: shares 1/2 each, coefficients 2; the resource saturates at
    // 2λ + 2λ = 2, λ = 1/2, which is a's cap level 1 × 1/2: a is frozen by the resource.
    let at_cap = Instance::new(
        vec![2.into()],
        vec![User::new("a", [1]).cap(1), User::new("b", [1])],
    )
    .unwrap();
    let x = fill_compact(&at_cap).expand(&at_cap);
    assert_eq!(
        x.frozen_by,
        vec![FrozenBy::Resource(0), FrozenBy::Resource(0)]
    );
    assert_eq!(x, AssetFairness.fill_plain(&at_cap));
}

#[test]
fn agrees_at_a_few_hundred_users_with_distinct_capacities() {
    // The workload whose exact answer is large: cluster users on distinct capacities, so the
    // aggregate shares are distinct fractions.
    for (n, seed) in [(60, 1), (200, 2)] {
        let base = leontief_solver::random_instances::cluster_workload(n, 5, seed);
        let mut rng = SplitMix64::new(seed);
        let capacity = (0..5)
            .map(|_| Rational::from(rng.range(25 * n as u64, 75 * n as u64)))
            .collect();
        let inst = Instance::new(capacity, base.users().to_vec()).unwrap();
        agree(&inst);
        // The mechanism (which uses the compact filling above 32 users) gives the reference.
        assert_eq!(
            AssetFairness.allocate(&inst).unwrap().tasks,
            AssetFairness.fill_plain(&inst).tasks
        );
    }
}

/// The decimal answer: every number the exact value correctly rounded (the exact kernel
/// `Rational::to_decimal` applied to the reference's values), in order: the decimals, the
/// capacities, each user's tasks, bundle, dominant and weighted share, the consumption.
fn decimals_agree(inst: &Instance, digits: u32) {
    let reference = AssetFairness.fill_plain(inst);
    let compact = fill_compact(inst);
    let mut out = Vec::new();
    compact
        .write_json(inst, "asset", Some(digits), &mut out)
        .unwrap();
    let text = String::from_utf8(out).unwrap();
    let parsed: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    assert_eq!(parsed["precision"]["decimals"], digits);
    // The same layout as serde_json's pretty printer (numbers kept as written: the
    // workspace's serde_json has `arbitrary_precision`).
    assert_eq!(serde_json::to_string_pretty(&parsed).unwrap() + "\n", text);
    let x = leontief_solver::Allocation::new(reference.tasks.clone());
    let mut want = vec![digits.to_string()];
    want.extend(inst.capacity().iter().map(|c| c.to_decimal(digits)));
    for i in 0..inst.num_users() {
        want.push(reference.tasks[i].to_decimal(digits));
        want.extend(x.bundle(inst, i).iter().map(|b| b.to_decimal(digits)));
        want.push(x.dominant_share(inst, i).to_decimal(digits));
        want.push(x.weighted_share(inst, i).to_decimal(digits));
    }
    want.extend(reference.consumption.iter().map(|c| c.to_decimal(digits)));
    let numbers: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || ",:[]{}".contains(c))
        .filter(|t| !t.is_empty() && !t.starts_with('"') && *t != "true")
        .collect();
    assert_eq!(numbers, want);
}

#[test]
fn decimals_are_the_exact_values_correctly_rounded() {
    let mut rng = SplitMix64::new(17);
    for t in 0..300 {
        let inst = random_instance(&mut rng, t % 2 == 0);
        decimals_agree(&inst, [1, 3, 6, 12, 17][t % 5]);
    }
    let base = leontief_solver::random_instances::cluster_workload(300, 6, 3);
    let mut rng = SplitMix64::new(3);
    let capacity = (0..6)
        .map(|_| Rational::from(rng.range(25 * 300, 75 * 300)))
        .collect();
    let inst = Instance::new(capacity, base.users().to_vec()).unwrap();
    decimals_agree(&inst, 12);
}

#[test]
fn the_exact_form_expands_to_the_reference() {
    // Reading the level-coefficient JSON back as a reader would: tasks = levels[k] ×
    // coefficient, or the tasks given.
    let mut rng = SplitMix64::new(18);
    for t in 0..100 {
        let inst = random_instance(&mut rng, t % 2 == 0);
        let reference = AssetFairness.fill_plain(&inst);
        let mut out = Vec::new();
        fill_compact(&inst)
            .write_json(&inst, "asset", None, &mut out)
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(v["form"], "level-coefficient");
        assert_eq!(
            serde_json::to_string_pretty(&v).unwrap() + "\n",
            String::from_utf8(out).unwrap()
        );
        let r = |s: &serde_json::Value| s.as_str().unwrap().parse::<Rational>().unwrap();
        for (i, u) in v["users"].as_array().unwrap().iter().enumerate() {
            let tasks = match u.get("tasks") {
                Some(t) => r(t),
                None => {
                    let k = u["level"].as_u64().unwrap() as usize;
                    r(&v["levels"][k]) * r(&u["coefficient"])
                }
            };
            assert_eq!(tasks, reference.tasks[i]);
        }
        let consumption: Vec<Rational> =
            v["consumption"].as_array().unwrap().iter().map(r).collect();
        assert_eq!(consumption, reference.consumption);
    }
}
