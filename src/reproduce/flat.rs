//! The flat worked examples: the DRF paper's running example, its Table 1 step by step,
//! weighted DRF with caps and zero demands, the lecture's four operations, DRF's resource
//! monotonicity failure, asset fairness, the property table and CEEI (`reference/flat.json`).

use leontief_solver::{
    AssetFairness, DiscreteDrf, DiscreteTieBreak, Drf, Instance, Mechanism, Rational,
};
use serde_json::Value;

use super::*;
use crate::cli::CliError;

pub(super) fn drf_paper() -> Result<Vec<Check>, CliError> {
    let (case, inst) = reference_case("drf-paper-running")?;
    let fill = Drf::extended().fill(&inst);
    let mut checks = tasks_checks(&inst, &fill.tasks, &case["tasks"], "tasks")?;
    // "user A gets 3 CPU, 12 GB and B gets 6 CPU, 2 GB ... each user gets 2/3 of its dominant
    // resource" (§4.1).
    let x = leontief_solver::Allocation::new(fill.tasks.clone());
    let bundle = |i: usize| vector(&x.bundle(&inst, i));
    checks.push(Check::text("A bundle <CPU, GB>", bundle(0), "<3, 12>"));
    checks.push(Check::text("B bundle <CPU, GB>", bundle(1), "<6, 2>"));
    checks.push(Check::exact("A dominant share", &fill.levels[0], "2/3"));
    checks.push(Check::exact("B dominant share", &fill.levels[1], "2/3"));
    let (discrete, _) = reference_case("drf-paper-running-discrete")?;
    let out = DiscreteDrf::paper().run(&inst, false)?;
    let tasks: Vec<Rational> = out.tasks.iter().map(|&t| Rational::from(t)).collect();
    checks.extend(tasks_checks(
        &inst,
        &tasks,
        &discrete["tasks"],
        "tasks, discrete",
    )?);
    Ok(checks)
}

/// The DRF paper's Table 1 (the case's `table_1`, as printed in the paper): each step's picked
/// user; A's shares <CPU, RAM> and dominant share; B's; CPU and RAM allocated in total.
pub(super) fn drf_paper_table1() -> Result<Vec<Check>, CliError> {
    let (case, inst) = reference_case("drf-paper-running-discrete")?;
    let out = DiscreteDrf::paper()
        .with_tie_break(DiscreteTieBreak::ReverseUserOrder)
        .run(&inst, true)?;
    let trace = out.trace.unwrap_or_default();
    let launched: Vec<_> = trace.iter().filter(|s| s.launched).collect();
    let mut checks = Vec::new();
    let line = |c: &[String]| {
        format!(
            "{} | A <{}, {}> {} | B <{}, {}> {} | CPU {} RAM {}",
            c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8]
        )
    };
    // A missing table or a short row is an error, never a reproduction with fewer checks.
    let table_1 = case["table_1"].as_array().ok_or_else(|| {
        CliError::Internal("reference case drf-paper-running-discrete has no table_1".into())
    })?;
    for (k, row) in table_1.iter().enumerate() {
        let row: Vec<String> = row.as_array().into_iter().flatten().map(str_of).collect();
        if row.len() != 9 {
            let at = k + 1;
            return Err(CliError::Internal(format!(
                "table_1 row {at} has not 9 cells"
            )));
        }
        let step = launched.get(k).map(|s| {
            let [a, b] = [&s.resource_shares[0], &s.resource_shares[1]];
            let d = &s.dominant_shares;
            let figures = [&a[0], &a[1], &d[0], &b[0], &b[1], &d[1]];
            let figures = figures.into_iter().chain(&s.allocated[..2]);
            let mut cells = vec![inst.users()[s.user].name.clone()];
            cells.extend(figures.map(ToString::to_string));
            cells
        });
        // Equal as exact values: the paper writes 3/9 where we print 1/3.
        let ok = step.as_ref().is_some_and(|cells| {
            cells[0] == row[0]
                && cells[1..]
                    .iter()
                    .zip(&row[1..])
                    .all(|(a, b)| a.parse::<Rational>().ok() == b.parse::<Rational>().ok())
        });
        checks.push(Check {
            what: format!("step {}", k + 1),
            computed: step.map_or_else(|| "no step".to_string(), |cells| line(&cells)),
            source: line(&row),
            ok,
        });
    }
    checks.push(Check::text(
        "tasks launched",
        launched.len().to_string(),
        "5",
    ));
    Ok(checks)
}

pub(super) fn weighted_cap_zero() -> Result<Vec<Check>, CliError> {
    let (case, inst) = reference_case("weighted-cap-zero")?;
    let x = Drf::extended().allocate(&inst)?;
    tasks_checks(&inst, &x.tasks, &case["tasks"], "tasks")
}

pub(super) fn four_operations() -> Result<Vec<Check>, CliError> {
    let (case, inst) = reference_case("collusion-four-operations")?;
    let truthful = Drf::extended().allocate(&inst)?;
    let mut checks = tasks_checks(&inst, &truthful.tasks, &case["tasks"], "tasks, truthful")?;
    // Apply the lies, allocate on the reported profile, measure with the true demands.
    let mut reported = inst.clone();
    for (i, demand) in reference_lies(&inst, &case["manipulation"]["lies"])? {
        reported = reported.with_demand(i, demand)?;
    }
    let lie = Drf::extended().allocate(&reported)?;
    let utilities: Vec<Rational> = (0..inst.num_users())
        .map(|i| inst.utility(i, &lie.bundle(&reported, i)))
        .collect();
    checks.extend(tasks_checks(
        &inst,
        &utilities,
        &case["manipulation"]["true_utilities_under_lie"],
        "true utility under the lie",
    )?);
    Ok(checks)
}

pub(super) fn drf_not_rm() -> Result<Vec<Check>, CliError> {
    let (case, inst) = reference_case("drf-not-rm")?;
    let before = Drf::extended().allocate(&inst)?;
    let mut checks = tasks_checks(&inst, &before.tasks, &case["tasks"], "tasks at (1,1)")?;
    let capacity = leontief_solver::read_numbers("after_capacity", &case["after_capacity"])?;
    let bigger = Instance::builder(capacity)
        .resources(inst.resources().to_vec())
        .users(inst.users().to_vec())
        .build()?;
    let after = Drf::extended().allocate(&bigger)?;
    checks.extend(tasks_checks(
        &bigger,
        &after.tasks,
        &case["tasks_after"],
        "tasks at (1,4)",
    )?);
    Ok(checks)
}

pub(super) fn asset_paper() -> Result<Vec<Check>, CliError> {
    let mut checks = Vec::new();
    for (id, label) in [
        ("asset-paper-running", "tasks"),
        ("asset-violates-si", "tasks at (30, 30)"),
        ("asset-violates-bf", "tasks at (21, 21)"),
    ] {
        let (case, inst) = reference_case(id)?;
        let x = AssetFairness.allocate(&inst)?;
        checks.extend(tasks_checks(&inst, &x.tasks, &case["tasks"], label)?);
        if id == "asset-violates-si" {
            // "the second user gets less than half (15) of both resources".
            let user2 = user_named(&inst, "2")?;
            let bundle = x.bundle(&inst, user2);
            checks.push(Check::text(
                "user 2 below half of both resources",
                (bundle.iter().all(|b| *b < Rational::from(15))).to_string(),
                "true",
            ));
        }
        if id == "asset-violates-bf" {
            // "equalizing their aggregate usage to 15": 3 tasks × (3+2) and 3 × (4+1).
            for (i, u) in inst.users().iter().enumerate() {
                let aggregate: Rational = x.bundle(&inst, i).iter().sum();
                checks.push(Check::exact(
                    format!("{} aggregate usage", u.name),
                    &aggregate,
                    "15",
                ));
            }
        }
    }
    Ok(checks)
}

/// Instances per cell of the property table.
pub const TABLE_2_INSTANCES: u64 = 200;

pub(super) fn property_table() -> Result<Vec<Check>, CliError> {
    use leontief_counterexamples::instance_generator::GeneratorConfig;
    use leontief_counterexamples::verify::{verify, VerifyConfig};
    use leontief_solver::properties::Property;

    // The DRF paper's Table 2 (`table_2` of reference/flat.json): for each property, whether
    // Asset, CEEI and DRF have it.
    let reference: Value =
        serde_json::from_str(FLAT_REFERENCE).map_err(|e| CliError::Internal(e.to_string()))?;
    let table = reference["table_2"]
        .as_object()
        .ok_or_else(|| CliError::Internal("reference/flat.json has no table_2".into()))?;
    let mut checks = Vec::new();
    for (mech_name, column) in [("asset", 0), ("ceei", 1), ("drf", 2)] {
        let mech = leontief_counterexamples::mechanisms::by_name(mech_name)?;
        for (prop_name, row) in table {
            let want = row[column].as_bool().ok_or_else(|| {
                CliError::Internal(format!("table_2.{prop_name}[{column}] is not a boolean"))
            })?;
            let property: Property = prop_name.parse()?;
            let mut generator = GeneratorConfig::new();
            // SRF is about one resource, BF about a common bottleneck: draw instances where
            // they apply (one resource; the generator's few resources often share one).
            generator.resources = if prop_name == "srf" { 1..=1 } else { 2..=3 };
            generator.users = 2..=4;
            let cfg = VerifyConfig::new(TABLE_2_INSTANCES, 2011, generator);
            let summary = verify(mech.as_ref(), property, &cfg, &|| {});
            if summary.error_count > 0 {
                let (index, message) = summary.errors.first().cloned().unwrap_or_default();
                return Err(CliError::Internal(format!(
                    "{mech_name} {prop_name}: instance {index}: {message}"
                )));
            }
            let has = summary.violations == 0;
            let computed = if has {
                format!(
                    "✓ ({} instances, {} applicable, {} scenarios)",
                    summary.instances,
                    summary.instances - summary.not_applicable,
                    summary.scenarios
                )
            } else {
                let w = &summary.witnesses[0];
                let witness = serde_json::to_string(&w.report["witness"]).unwrap_or_default();
                format!(
                    "✗ ({} of {} instances; instance #{}: {})",
                    summary.violations, summary.instances, w.index, witness
                )
            };
            checks.push(Check::new(
                format!("{mech_name} {prop_name}"),
                has == want,
                computed,
                if want { "✓" } else { "✗" },
            ));
        }
    }
    Ok(checks)
}

fn ceei_checks(inst: &Instance, expected: &Value, label: &str) -> Result<Vec<Check>, CliError> {
    let out = leontief_solver::ceei::Ceei::new().solve(inst)?;
    let mut checks = vec![Check::text(
        format!("certified ({label})"),
        out.certified.to_string(),
        "true",
    )];
    if let Some(tasks) = &out.tasks_exact {
        checks.extend(tasks_checks(inst, tasks, expected, label)?);
    }
    Ok(checks)
}

pub(super) fn ceei_paper() -> Result<Vec<Check>, CliError> {
    let (running, inst) = reference_case("ceei-paper-running")?;
    let mut checks = ceei_checks(&inst, &running["tasks"], "tasks")?;

    // Theorem 4: user 1 gains by reporting <16, 8>; its true utility under the lie is 25/6.
    let (sp, inst) = reference_case("ceei-not-sp")?;
    checks.extend(ceei_checks(&inst, &sp["tasks"], "tasks, truthful")?);
    let liar = user_named(&inst, "1")?;
    let report = leontief_solver::read_numbers("lies.1", &sp["manipulation"]["lies"]["1"])?;
    let lied = inst.with_demand(liar, report)?;
    checks.extend(ceei_checks(
        &lied,
        &sp["manipulation"]["tasks_under_lie"],
        "tasks under the lie",
    )?);
    let under = leontief_solver::ceei::Ceei::new().solve(&lied)?;
    if let Some(tasks) = &under.tasks_exact {
        let x = leontief_solver::Allocation::new(tasks.clone());
        let gain = inst.utility(liar, &x.bundle(&lied, liar));
        checks.push(Check::exact(
            "user 1 true utility under the lie",
            &gain,
            "25/6",
        ));
    }

    // Theorem 5: with user 3 the equilibrium is irrational (≈ 11.28, 5.35, 3.09); without it
    // user 2 falls to 100/21.
    let (pm, inst) = reference_case("ceei-not-pm")?;
    let out = leontief_solver::ceei::Ceei::new().solve(&inst)?;
    if let Some(approx) = pm["tasks_approx"].as_object() {
        for (name, want) in approx {
            let i = user_named(&inst, name)?;
            let want = want.as_f64().unwrap_or(f64::NAN);
            let got = out.tasks[i];
            checks.push(Check {
                what: format!("{name} tasks, three users (5 decimals)"),
                computed: format!("{got:.5}"),
                source: format!("{want:.5}"),
                ok: (got - want).abs() <= 5e-6,
            });
        }
    }
    let leaving = pm["after_removing"].as_str().unwrap_or("3");
    let k = user_named(&inst, leaving)?;
    let after = inst.without_user(k)?;
    checks.extend(ceei_checks(
        &after,
        &pm["tasks_after"],
        "tasks after user 3 leaves",
    )?);
    checks.push(exact_pm_ratio(&pm, &inst)?);
    Ok(checks)
}

/// The DRF paper's Theorem 5 ratio, exactly: user 2's tasks after user 3 leaves (100/21,
/// rational) over its tasks before (u2 = (3800 + 100√373)/1071), divided in Q(√373) from
/// the two exact answers, beside the ratio of the paper's printed values.
///
/// By hand: (100/21) / u2 = 100 · 1071 / (21 · (3800 + 100√373)) = 51 / (38 + √373)
/// (1071 = 21 · 51) = 51 (38 − √373) / (38² − 373) = 51 (38 − √373) / 1071
/// = (38 − √373)/21 ≈ 0.8898472421; from 21t − 38 = −√373, 441t² − 1596t + 1444 = 373, and
/// over 21, 21t² − 76t + 51 = 0.
pub(super) fn exact_pm_ratio(case: &Value, inst: &Instance) -> Result<Check, CliError> {
    use leontief_solver::algebraic::Limits;
    use leontief_solver::ceei::{Ceei, ExactNumber};
    let internal = |e: &dyn std::fmt::Display| CliError::Internal(format!("ceei-not-pm: {e}"));
    let user = inst.user_index("2").ok_or_else(|| internal(&"user 2"))?;
    let leaving = inst
        .user_index(case["after_removing"].as_str().unwrap_or_default())
        .ok_or_else(|| internal(&"after_removing"))?;
    let kept: Vec<_> = (0..inst.num_users()).filter(|&i| i != leaving).collect();
    let after_inst = inst.without_user(leaving)?;
    let limits = Limits::default();
    let before = Ceei::new().solve_exact_figures(inst, &limits)?;
    let after = Ceei::new().solve_exact_figures(&after_inst, &limits)?;
    let after_user = kept
        .iter()
        .position(|&i| i == user)
        .ok_or_else(|| internal(&"user 2 left"))?;
    let tasks_after = after
        .outcome
        .tasks_exact
        .as_ref()
        .filter(|_| after.outcome.certified)
        .map(|t| t[after_user].clone())
        .ok_or_else(|| internal(&"the answer after the departure is not rational"))?;
    let eq = match before.algebraic {
        Some(Ok(eq)) => eq,
        Some(Err(e)) => return Err(internal(&e)),
        None => return Err(internal(&"the answer before the departure is rational")),
    };
    let k = &eq.field.field;
    let ratio = k
        .div(&k.rational(tasks_after.to_big()), &eq.field.tasks[user])
        .and_then(|r| k.to_real(&r, &limits))
        .and_then(|r| ExactNumber::from_real(r, &limits))
        .map_err(|e| internal(&e))?;
    let ExactNumber::Algebraic(ratio) = ratio else {
        return Err(internal(&"the ratio is rational"));
    };
    // The paper prints user 2's tasks before to 5 decimals.
    let (lo, hi, source) = printed_pm_ratio(case, &tasks_after)?;
    Ok(Check {
        what: "user 2's ratio when user 3 leaves, exact in Q(√373)".into(),
        computed: format!(
            "{} = {}",
            ratio.closed_form().unwrap_or_default(),
            ratio.decimal()
        ),
        source,
        ok: ratio.value().cmp_rational(&lo.to_big()).is_gt()
            && ratio.value().cmp_rational(&hi.to_big()).is_lt(),
    })
}
