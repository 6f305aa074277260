//! Property oracles' sanity on hand-built allocations (wasteful, infeasible, envied, ...),
//! the property names and the scenario sets' errors; failing witnesses re-verified
//! independently (`common::witness`).

use leontief_solver::properties::allocation::{check_allocation, envy_freeness, pareto_efficiency};
use leontief_solver::properties::scenarios::{
    capacity_grid, count_lie_profiles, departures, structured_lies,
};
use leontief_solver::properties::{
    check, check_with, Bounds, LieProfiles, MaxMinViolation, Property, Scenario, Witness,
};
use leontief_solver::{Allocation, AssetFairness, Drf, Instance, Mechanism, SolverError, User};

use crate::common;
use common::witness::{checked, verify};
use common::{case_instance, paper, r, rs};

fn four_operations() -> Instance {
    case_instance("collusion-four-operations")
}

// ------------------------------------------------------------ oracle sanity

#[test]
fn wasteful_allocation_fails_po_with_a_valid_improvement() {
    // Paper example at (2, 2): 1 CPU and 8 GB left; A can run one more task.
    let inst = paper();
    let x = Allocation::new(rs(&["2", "2"]));
    let v = pareto_efficiency(&inst, &x).unwrap();
    let Some(Witness::Po(w)) = &v.witness else {
        panic!("expected a PO witness")
    };
    assert_eq!((w.user, w.gain.clone()), (0, r("1")));
    assert_eq!(w.improved, rs(&["3", "2"]));
    verify(&Drf::extended(), &inst, &x, v.witness.as_ref().unwrap());
    // Caps bound the improvement.
    let capped_inst = Instance::new(
        vec![9.into(), 18.into()],
        vec![User::new("A", [1, 4]).cap(r("5/2")), User::new("B", [3, 1])],
    )
    .unwrap();
    let v = pareto_efficiency(&capped_inst, &x).unwrap();
    let Some(Witness::Po(w)) = &v.witness else {
        panic!("expected a PO witness")
    };
    assert_eq!(w.gain, r("1/2"));
    verify(
        &Drf::extended(),
        &capped_inst,
        &x,
        v.witness.as_ref().unwrap(),
    );
}

#[test]
fn infeasible_allocation_is_its_own_failure() {
    let inst = paper();
    let x = Allocation::new(rs(&["3", "3"]));
    for p in Property::ALL
        .into_iter()
        .filter(|p| p.is_allocation_property())
    {
        let v = check_allocation(&inst, &x, p).unwrap();
        if p == Property::Srf || p == Property::Bf {
            assert!(!v.applicable);
            continue;
        }
        let Some(Witness::Infeasible(w)) = &v.witness else {
            panic!("{p}: expected an infeasibility witness")
        };
        assert_eq!(w.over_capacity, vec![(0, r("12"))]);
        let json = v.witness.as_ref().unwrap().to_json(&inst);
        assert_eq!(json["over_capacity"]["r1"], "12");
    }
    let negative = Allocation::new(rs(&["-1", "2"]));
    let v = pareto_efficiency(&inst, &negative).unwrap();
    let Some(Witness::Infeasible(w)) = &v.witness else {
        panic!("expected an infeasibility witness")
    };
    assert_eq!(w.negative, vec![0]);
}

#[test]
fn envied_allocation_fails_ef() {
    // B with 1/2 task envies A's 3 tasks <3, 12>, which would run 1 task of B's.
    let inst = paper();
    let x = Allocation::new(rs(&["3", "1/2"]));
    let v = envy_freeness(&inst, &x).unwrap();
    let Some(Witness::Ef(w)) = &v.witness else {
        panic!("expected an EF witness")
    };
    assert_eq!((w.envious, w.envied), (1, 0));
    assert_eq!(w.scaled_utility, r("1"));
    verify(&Drf::extended(), &inst, &x, v.witness.as_ref().unwrap());
    // Weights scale the bundle: with w_B = 1/4, B's entitlement is a quarter of A's bundle.
    let weighted = Instance::new(
        vec![9.into(), 18.into()],
        vec![
            User::new("A", [1, 4]),
            User::new("B", [3, 1]).weight(r("1/4")),
        ],
    )
    .unwrap();
    assert!(envy_freeness(&weighted, &x).unwrap().holds);
}

#[test]
fn common_level_drf_fails_po_on_four_operations() {
    // Everyone freezes when CPU saturates at level 1/2: op3 and op4 stop at 1/2 although
    // memory (3/4 used) and network (1/2 used) are free. op3 can grow by 1/4.
    let inst = four_operations();
    let mech = Drf::common_level();
    let report = checked(&mech, &inst, Property::Po, &Scenario::Bounded);
    assert_eq!(report.allocation.tasks, rs(&["1/2", "1/2", "1/2", "1/2"]));
    let Some(Witness::Po(w)) = report.witness() else {
        panic!("expected a PO witness")
    };
    assert_eq!(inst.users()[w.user].name, "op3");
    assert_eq!(w.gain, r("1/4"));
    assert_eq!(w.improved, rs(&["1/2", "1/2", "3/4", "1/2"]));
    let json = report.witness().unwrap().to_json(&inst);
    assert_eq!(json["user"], "op3");
    assert_eq!(json["improved_tasks"]["op3"], "3/4");
    // Extended DRF is PO there.
    assert!(
        checked(&Drf::extended(), &inst, Property::Po, &Scenario::Bounded)
            .verdict
            .holds
    );
}

#[test]
fn single_resource_fairness_with_weights_and_caps() {
    // One resource of 12: a (1), b (2, weight 2), c (1, cap 1). Max-min: c capped at 1;
    // a and b share 11 with x_a = x_b (b's amount 2 x_b over weight 2): 11/3 each.
    let inst = Instance::new(
        vec![12.into()],
        vec![
            User::new("a", [1]),
            User::new("b", [2]).weight(2),
            User::new("c", [1]).cap(1),
        ],
    )
    .unwrap();
    let drf = checked(&Drf::extended(), &inst, Property::Srf, &Scenario::Bounded);
    assert!(drf.verdict.holds && drf.verdict.applicable);
    assert_eq!(drf.allocation.tasks, rs(&["11/3", "11/3", "1"]));
    let unfair = Allocation::new(rs(&["5", "3", "1"]));
    let v = check_allocation(&inst, &unfair, Property::Srf).unwrap();
    assert!(matches!(
        v.witness,
        Some(Witness::MaxMin(ref w)) if matches!(w.violation, MaxMinViolation::Unequal { below_cap: 1, other: 0, .. })
    ));
    let idle = Allocation::new(rs(&["3", "3", "1"]));
    let v = check_allocation(&inst, &idle, Property::Srf).unwrap();
    assert!(matches!(
        v.witness,
        Some(Witness::MaxMin(ref w)) if matches!(w.violation, MaxMinViolation::Unsaturated { user: 0, .. })
    ));
}

/// SRF holds at the weighted max-min answer and fails away from it.
#[test]
fn single_resource_fairness_on_one_resource() {
    let one = Instance::new(
        vec![12.into()],
        vec![User::new("a", [1]), User::new("b", [2]).weight(2)],
    )
    .unwrap();
    let srf = |x: Allocation| check_allocation(&one, &x, Property::Srf).unwrap().holds;
    assert!(srf(Allocation::new(vec![4.into(), 4.into()])));
    assert!(!srf(Allocation::new(vec![6.into(), 3.into()])));
}

/// The DRF paper's Theorem 2: asset fairness gives (21, 21), ⟨3, 2⟩, ⟨4, 1⟩ 3 tasks each,
/// so user 1 holds 9 units of the bottleneck and user 2 holds 12.
#[test]
fn asset_fairness_is_not_bottleneck_fair_on_theorem_2() {
    let thm2 = Instance::new(
        vec![21.into(), 21.into()],
        vec![User::new("1", [3, 2]), User::new("2", [4, 1])],
    )
    .unwrap();
    let x = AssetFairness.allocate(&thm2).unwrap();
    let v = check_allocation(&thm2, &x, Property::Bf).unwrap();
    let witness = v.witness.map(|w| match w {
        Witness::MaxMin(w) => Some(w.violation),
        _ => None,
    });
    let Some(Some(MaxMinViolation::Unequal {
        below_cap, other, ..
    })) = witness
    else {
        panic!("expected an unequal max-min witness")
    };
    assert_eq!((below_cap, other), (0, 1));
}

/// DRF saturates CPU on the paper's example; A holds 3/9 < 1/2 of it, B 6/9: not BBF.
#[test]
fn drf_is_not_bottleneck_based_fair_on_the_paper_example() {
    let x = Allocation::new(vec![3.into(), 2.into()]);
    let v = check_allocation(&paper(), &x, Property::Bbf).unwrap();
    assert!(!v.holds);
}

#[test]
fn sharing_incentive_with_per_resource_weights() {
    // A's split of resource j is w_Aj / (w_Aj + w_Bj): with weights (1, 3) against (1, 1), A
    // owns 1/2 of CPU and 3/4 of memory.
    let inst = Instance::new(
        vec![8.into(), 8.into()],
        vec![
            User::new("A", [1, 1]).resource_weights([1, 3]),
            User::new("B", [1, 1]),
        ],
    )
    .unwrap();
    let split = leontief_solver::properties::allocation::equal_split(&inst);
    assert_eq!(split[0], rs(&["4", "6"]));
    assert_eq!(split[1], rs(&["4", "2"]));
    let v = check_allocation(&inst, &Allocation::new(rs(&["3", "2"])), Property::Si).unwrap();
    let Some(Witness::Si(w)) = &v.witness else {
        panic!("expected an SI witness")
    };
    assert_eq!((w.user, w.split_utility.clone()), (0, r("4")));
    assert!(v.note.contains("per-resource"));
}

// ------------------------------------------------------------ API and scenario sets

#[test]
fn property_names_round_trip() {
    // Every property round-trips below; the names are distinct, and those of the sources (the
    // DRF paper's SI, EF, PO, SP; Parkes, Procaccia and Shah's PM and RM; H-DRF's share
    // guarantee) are among them.
    let mut names: Vec<&str> = Property::ALL.iter().map(|p| p.name()).collect();
    for name in [
        "si",
        "ef",
        "po",
        "sp",
        "gsp-strong",
        "gsp-weak",
        "pm",
        "rm",
        "sg",
    ] {
        assert!(names.contains(&name), "{name}: {names:?}");
    }
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), Property::ALL.len());
    for p in Property::ALL {
        assert_eq!(p.name().parse::<Property>().unwrap(), p);
        assert_eq!(p.to_string(), p.name());
    }
    let err = "gsp".parse::<Property>().unwrap_err();
    assert!(matches!(err, SolverError::Invalid { ref field, .. } if field == "property"));
}

#[test]
fn bad_scenarios_are_errors() {
    let inst = paper();
    let drf = Drf::extended();
    let invalid_field = |res: Result<_, SolverError>| match res {
        Err(SolverError::Invalid { field, .. }) => field,
        other => panic!("expected an invalid-input error, got {other:?}"),
    };
    // Shrinking capacity.
    let f = invalid_field(check(
        &drf,
        &inst,
        Property::Rm,
        &Scenario::Capacity(rs(&["8", "18"])),
    ));
    assert_eq!(f, "capacity");
    let f = invalid_field(check(
        &drf,
        &inst,
        Property::Rm,
        &Scenario::Capacity(rs(&["9"])),
    ));
    assert_eq!(f, "capacity");
    // An all-zero report makes the instance invalid.
    let zero = Scenario::Lies(vec![(0, rs(&["0", "0"]))]);
    assert!(check(&drf, &inst, Property::Sp, &zero).is_err());
    // SP takes one liar; GSP distinct liars; users must exist.
    let two = Scenario::Lies(vec![(0, rs(&["1", "8"])), (1, rs(&["6", "1"]))]);
    assert_eq!(
        invalid_field(check(&drf, &inst, Property::Sp, &two)),
        "scenario"
    );
    assert!(
        check(&drf, &inst, Property::GspWeak, &two)
            .unwrap()
            .verdict
            .holds
    );
    let twice = Scenario::Lies(vec![(0, rs(&["1", "8"])), (0, rs(&["2", "8"]))]);
    assert!(check(&drf, &inst, Property::GspStrong, &twice).is_err());
    let nobody = Scenario::Lies(vec![(7, rs(&["1", "8"]))]);
    assert!(check(&drf, &inst, Property::Sp, &nobody).is_err());
    assert!(check(&drf, &inst, Property::Pm, &Scenario::Remove(2)).is_err());
    // Scenarios only where they belong.
    assert_eq!(
        invalid_field(check(&drf, &inst, Property::Si, &Scenario::Remove(0))),
        "scenario"
    );
    assert_eq!(
        invalid_field(check(&drf, &inst, Property::Pm, &two)),
        "scenario"
    );
    // A lone user cannot leave; PM is not applicable.
    let alone = Instance::new(vec![1.into()], vec![User::new("a", [1])]).unwrap();
    assert!(check(&drf, &alone, Property::Pm, &Scenario::Remove(0)).is_err());
    let pm = check(&drf, &alone, Property::Pm, &Scenario::Bounded).unwrap();
    assert!(pm.verdict.holds && !pm.verdict.applicable);
    // A truthful answer of the wrong length.
    let short = Allocation::new(rs(&["1"]));
    assert!(check_with(
        &drf,
        &inst,
        &short,
        Property::Si,
        &Scenario::Bounded,
        &Bounds::default()
    )
    .is_err());
}

#[test]
fn scenario_sets_are_deterministic_and_bounded() {
    let inst = four_operations();
    for i in 0..inst.num_users() {
        let lies = structured_lies(&inst, i);
        assert_eq!(lies, structured_lies(&inst, i));
        assert!(!lies.contains(&inst.users()[i].demand));
        for (a, lie) in lies.iter().enumerate() {
            assert!(!lies[a + 1..].contains(lie), "duplicate lie");
            assert!(inst.with_demand(i, lie.clone()).is_ok());
        }
    }
    assert_eq!(departures(&inst).len(), 4);
    assert_eq!(capacity_grid(&inst).len(), 3 * 3 + 3);
    let counts: Vec<usize> = (0..4).map(|i| structured_lies(&inst, i).len()).collect();
    let all: Vec<_> = LieProfiles::new(counts.clone(), 4, usize::MAX).collect();
    assert_eq!(all.len() as u128, count_lie_profiles(&counts, 4));
    assert_eq!(
        all,
        LieProfiles::new(counts.clone(), 4, usize::MAX).collect::<Vec<_>>()
    );
    // Sizes never decrease, liars are distinct and increasing.
    assert!(all.windows(2).all(|w| w[0].len() <= w[1].len()));
    assert!(all
        .iter()
        .all(|p| p.windows(2).all(|w| w[0].0 < w[1].0) && p.iter().all(|&(i, l)| l < counts[i])));
    // The cut is honoured and reported.
    let bounds = Bounds {
        max_liars: None,
        max_profiles: 50,
    };
    let drf = Drf::extended();
    let truth = drf.allocate(&inst).unwrap();
    let report = check_with(
        &drf,
        &inst,
        &truth,
        Property::GspWeak,
        &Scenario::Bounded,
        &bounds,
    )
    .unwrap();
    assert!(report.verdict.holds);
    assert_eq!(report.scenarios, 50);
    assert!(
        report.verdict.note.contains("cut at 50"),
        "{}",
        report.verdict.note
    );
}

#[test]
fn report_json_is_exact_and_named() {
    let inst = case_instance("drf-not-rm");
    let report = checked(
        &Drf::extended(),
        &inst,
        Property::Rm,
        &Scenario::Capacity(rs(&["1", "4"])),
    );
    let json = report.to_json(&inst);
    assert_eq!(json["property"], "rm");
    assert_eq!(json["mechanism"], "drf");
    assert_eq!(json["holds"], false);
    assert_eq!(json["bounded"], true);
    assert_eq!(json["tasks"]["A"], "1/3");
    assert_eq!(json["witness"]["kind"], "rm");
    assert_eq!(json["witness"]["user"], "A");
    assert_eq!(json["witness"]["capacity"]["r2"], "4");
    assert_eq!(json["witness"]["tasks_after"]["B"], "1/2");
}
