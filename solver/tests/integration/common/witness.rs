//! Independent re-verification of property witnesses: recompute the allocations a
//! witness claims and the utilities it reports from scratch (`Instance::utility` on explicit
//! bundles), and check that they really violate the property.

use leontief_solver::properties::manipulation::GspReading;
use leontief_solver::properties::{check, MaxMinViolation, Property, Scenario, Witness};
use leontief_solver::{Allocation, Instance, Mechanism, Rational, User};

/// `min(T_i, x)`, computed here without the oracle's helpers.
fn capped(inst: &Instance, i: usize, x: &Rational) -> Rational {
    match &inst.users()[i].cap {
        Some(t) if t < x => t.clone(),
        _ => x.clone(),
    }
}

/// User `i`'s true utility from `tasks` tasks of `demand`: `Instance::utility` on the
/// explicit bundle.
fn true_utility(inst: &Instance, i: usize, tasks: &Rational, demand: &[Rational]) -> Rational {
    let bundle: Vec<Rational> = demand.iter().map(|d| d * tasks).collect();
    inst.utility(i, &bundle)
}

fn scalar_weight_total(inst: &Instance) -> Rational {
    inst.users().iter().map(|u| u.weight.clone()).sum()
}

/// Re-checks a failing witness from scratch: recomputes the allocations it claims and the
/// utilities it reports, and checks that they really violate the property.
/// `inst` with these users in place of its own: same resources and capacity.
pub fn with_users(inst: &Instance, users: Vec<User>) -> Instance {
    Instance::builder(inst.capacity().to_vec())
        .resources(inst.resources().to_vec())
        .users(users)
        .build()
        .unwrap()
}

pub fn verify(mech: &dyn Mechanism, inst: &Instance, truth: &Allocation, w: &Witness) {
    let n = inst.num_users();
    match w {
        Witness::Infeasible(f) => {
            assert!(!Allocation::new(f.tasks.clone()).is_feasible(inst));
        }
        Witness::Si(s) => {
            assert!(inst.users().iter().all(|u| u.resource_weights.is_none()));
            let share = &inst.users()[s.user].weight / &scalar_weight_total(inst);
            let split: Vec<Rational> = inst.capacity().iter().map(|c| c * &share).collect();
            assert_eq!(s.split, split);
            assert_eq!(inst.utility(s.user, &split), s.split_utility);
            assert_eq!(s.tasks, truth.tasks[s.user]);
            assert!(capped(inst, s.user, &truth.tasks[s.user]) < s.split_utility);
        }
        Witness::Ef(e) => {
            let (i, k) = (e.envious, e.envied);
            let ratio = &inst.users()[i].weight / &inst.users()[k].weight;
            let bundle: Vec<Rational> = truth.bundle(inst, k).iter().map(|b| b * &ratio).collect();
            assert_eq!(e.scaled_bundle, bundle);
            assert_eq!(inst.utility(i, &bundle), e.scaled_utility);
            assert!(e.scaled_utility > capped(inst, i, &truth.tasks[i]));
        }
        Witness::Po(p) => {
            let better = Allocation::new(p.improved.clone());
            assert!(better.is_feasible(inst), "improving allocation infeasible");
            for i in 0..n {
                let (old, new) = (
                    capped(inst, i, &truth.tasks[i]),
                    capped(inst, i, &better.tasks[i]),
                );
                assert!(new >= old, "user {i} loses in the improvement");
                if i == p.user {
                    assert!(new > old, "the named user does not gain");
                    assert_eq!(&better.tasks[i] - &truth.tasks[i], p.gain);
                }
            }
        }
        Witness::MaxMin(mm) => {
            let j = mm.resource;
            let amount = |i: usize| {
                &(&truth.tasks[i] * &inst.users()[i].demand[j]) / inst.users()[i].weight_on(j)
            };
            let below = |i: usize| {
                inst.users()[i]
                    .cap
                    .as_ref()
                    .is_none_or(|t| truth.tasks[i] < *t)
            };
            match &mm.violation {
                MaxMinViolation::Unequal {
                    below_cap,
                    below_cap_amount,
                    other,
                    other_amount,
                } => {
                    assert!(below(*below_cap));
                    assert_eq!(amount(*below_cap), *below_cap_amount);
                    assert_eq!(amount(*other), *other_amount);
                    assert!(below_cap_amount < other_amount);
                }
                MaxMinViolation::Unsaturated { user, used, .. } => {
                    assert!(below(*user));
                    assert_eq!(truth.consumption(inst)[j], *used);
                    assert!(*used < inst.capacity()[j]);
                }
            }
        }
        Witness::Bbf(b) => {
            let used = truth.consumption(inst);
            let u = &inst.users()[b.user];
            assert!(u.cap.as_ref().is_none_or(|t| truth.tasks[b.user] < *t));
            let entitlement = &u.weight / &scalar_weight_total(inst);
            let shares: Vec<(usize, Rational)> = u
                .demand
                .iter()
                .zip(used.iter().zip(inst.capacity()))
                .enumerate()
                .filter(|(_, (d, (c, r)))| !d.is_zero() && c == r)
                .map(|(j, (d, (_, r)))| (j, &(&truth.tasks[b.user] * d) / r))
                .collect();
            assert!(shares.iter().all(|(_, s)| *s < entitlement));
            let listed: Vec<(usize, Rational)> = b
                .shares
                .iter()
                .map(|s| (s.resource, s.share.clone()))
                .collect();
            assert_eq!(listed, shares);
            assert!(b.shares.iter().all(|s| s.entitlement == entitlement));
        }
        Witness::Sp(s) => {
            let lied = inst.with_demand(s.user, s.report.clone()).unwrap();
            let x = mech.allocate(&lied).unwrap();
            assert_eq!(x.tasks, s.tasks_under_lie);
            assert_eq!(s.before, capped(inst, s.user, &truth.tasks[s.user]));
            assert_eq!(
                s.after,
                true_utility(inst, s.user, &x.tasks[s.user], &s.report)
            );
            assert!(s.after > s.before);
        }
        Witness::Gsp(g) => {
            let mut users = inst.users().to_vec();
            for (i, report) in &g.reports {
                users[*i].demand = report.clone();
            }
            let lied = with_users(inst, users);
            let x = mech.allocate(&lied).unwrap();
            assert_eq!(x.tasks, g.tasks_under_lie);
            for i in 0..n {
                assert_eq!(g.before[i], capped(inst, i, &truth.tasks[i]));
                let reported = &lied.users()[i].demand;
                assert_eq!(g.after[i], true_utility(inst, i, &x.tasks[i], reported));
            }
            let liars: Vec<usize> = g.reports.iter().map(|(i, _)| *i).collect();
            let coalition: Vec<usize> = (0..n)
                .filter(|i| liars.contains(i) || g.after[*i] > g.before[*i])
                .collect();
            assert_eq!(g.coalition, coalition);
            match g.reading {
                GspReading::Strong => {
                    assert!(coalition.iter().all(|&i| g.after[i] >= g.before[i]));
                    assert!(coalition.iter().any(|&i| g.after[i] > g.before[i]));
                }
                GspReading::Weak => {
                    assert!(coalition.iter().all(|&i| g.after[i] > g.before[i]));
                }
            }
        }
        Witness::Pm(p) => {
            let mut users = inst.users().to_vec();
            users.remove(p.leaving);
            let smaller = with_users(inst, users);
            let x = mech.allocate(&smaller).unwrap();
            let after: Vec<Option<Rational>> = (0..n)
                .map(|i| match i.cmp(&p.leaving) {
                    std::cmp::Ordering::Less => Some(x.tasks[i].clone()),
                    std::cmp::Ordering::Equal => None,
                    std::cmp::Ordering::Greater => Some(x.tasks[i - 1].clone()),
                })
                .collect();
            assert_eq!(after, p.tasks_after);
            assert_ne!(p.user, p.leaving);
            assert_eq!(p.before, capped(inst, p.user, &truth.tasks[p.user]));
            let mine = after[p.user].as_ref().unwrap();
            assert_eq!(p.after, capped(inst, p.user, mine));
            assert!(p.after < p.before);
        }
        Witness::Rm(m) => {
            assert!(m.capacity.iter().zip(inst.capacity()).all(|(a, b)| a >= b));
            let grown = Instance::builder(m.capacity.clone())
                .resources(inst.resources().to_vec())
                .users(inst.users().to_vec())
                .build()
                .unwrap();
            let x = mech.allocate(&grown).unwrap();
            assert_eq!(x.tasks, m.tasks_after);
            assert_eq!(m.before, capped(inst, m.user, &truth.tasks[m.user]));
            assert_eq!(m.after, capped(inst, m.user, &x.tasks[m.user]));
            assert!(m.after < m.before);
        }
        Witness::Sg(g) => {
            // Recompute the dominant share of the node's users together, by hand.
            let share = (0..inst.num_resources())
                .map(|j| {
                    let used = g.users.iter().fold(Rational::ZERO, |a, &i| {
                        a + &(&truth.tasks[i] * &inst.users()[i].demand[j])
                    });
                    &used / &inst.capacity()[j]
                })
                .max()
                .unwrap();
            assert_eq!(g.dominant_share, share);
            assert!(g.dominant_share < g.guaranteed);
            assert!(g.users.contains(&g.unmet_user));
            let u = &inst.users()[g.unmet_user];
            assert!(u
                .cap
                .as_ref()
                .is_none_or(|t| truth.tasks[g.unmet_user] < *t));
            if !g.node.contains('/') && g.users.len() == 1 {
                // A user directly under the root: g = w_i / W.
                let i = g.users[0];
                assert_eq!(
                    g.guaranteed,
                    &inst.users()[i].weight / &scalar_weight_total(inst)
                );
            }
        }
    }
}

/// `check`, then re-verify the witness when it fails.
pub fn checked(
    mech: &dyn Mechanism,
    inst: &Instance,
    property: Property,
    scenario: &Scenario,
) -> leontief_solver::properties::CheckReport {
    let report = check(mech, inst, property, scenario).unwrap();
    assert_eq!(
        report.verdict.holds,
        report.witness().is_none(),
        "{property}"
    );
    if let Some(w) = report.witness() {
        verify(mech, inst, &report.allocation, w);
    }
    report
}
