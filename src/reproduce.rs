//! `leontief reproduce`: re-derive the sources' worked examples and set each computed value
//! beside the source's.
//!
//! The sources' values live in `reference/flat.json` (copied from the sources: the DRF
//! paper, the lecture on hierarchical DRF and collusion) and, for the DRF paper's Table 1,
//! in [`TABLE_1`] below, transcribed from the paper. Nothing here is the code's own output.

use leontief_solver::{AssetFairness, DiscreteDrf, Drf, Instance, Mechanism, Rational, TieBreak};
use serde_json::{json, Value};

use crate::cli::CliError;

/// The worked flat examples with their sources' answers.
pub const FLAT_REFERENCE: &str = include_str!("../reference/flat.json");

/// One comparison: what was computed and what the source says.
#[derive(Debug, Clone)]
pub struct Check {
    /// What is compared, e.g. `A tasks`.
    pub what: String,
    /// The value computed now.
    pub computed: String,
    /// The source's value.
    pub source: String,
    /// Whether they are equal (exactly, as rationals, where both are numbers).
    pub ok: bool,
}

impl Check {
    fn exact(what: impl Into<String>, computed: &Rational, source: &str) -> Check {
        let ok = source.parse::<Rational>().is_ok_and(|s| &s == computed);
        Check {
            what: what.into(),
            computed: computed.to_string(),
            source: source.to_string(),
            ok,
        }
    }

    fn text(what: impl Into<String>, computed: String, source: &str) -> Check {
        Check {
            ok: computed == source,
            what: what.into(),
            computed,
            source: source.to_string(),
        }
    }
}

/// A reproduced example.
#[derive(Debug, Clone)]
pub struct Reproduction {
    /// Short name, as given to `leontief reproduce NAME`.
    pub name: &'static str,
    /// What it is.
    pub title: &'static str,
    /// Where the source's numbers come from.
    pub source: &'static str,
    /// The comparisons.
    pub checks: Vec<Check>,
}

type Builder = fn() -> Result<Vec<Check>, CliError>;

/// Every example: name, title, source, builder.
const EXAMPLES: &[(&str, &str, &str, Builder)] = &[
    (
        "drf-paper",
        "DRF on the running example: 9 CPU, 18 GB; A needs <1 CPU, 4 GB>, B <3 CPU, 1 GB>",
        "Ghodsi et al., Dominant Resource Fairness, NSDI 2011, section 4.1",
        drf_paper,
    ),
    (
        "drf-paper-table1",
        "Discrete DRF (Algorithm 1) step by step on the running example",
        "Ghodsi et al., NSDI 2011, Table 1 (the paper picks B first on the 0/0 tie: reverse user order)",
        drf_paper_table1,
    ),
    (
        "weighted-cap-zero",
        "Extended DRF with a zero demand, a weight-2 user and a task cap",
        "reference/flat.json, case weighted-cap-zero (hand-derived)",
        weighted_cap_zero,
    ),
    (
        "four-operations",
        "The four-operation collusion example: truthful DRF allocation and true utilities when op1, op2 claim network",
        "Yandex lecture on cluster resource allocation (2016); reference/flat.json, case collusion-four-operations",
        four_operations,
    ),
    (
        "asset-paper",
        "Asset fairness on the running example, and its two failures: sharing incentive (30, 30) and bottleneck fairness (21, 21)",
        "Ghodsi et al., NSDI 2011, section 2.2 and Theorems 1-2; reference/flat.json, cases asset-*",
        asset_paper,
    ),
    (
        "ceei-paper",
        "CEEI on the running example, its strategy-proofness failure and its population-monotonicity failure",
        "Ghodsi et al., NSDI 2011, section 5 and Theorems 4-5; reference/flat.json, cases ceei-*",
        ceei_paper,
    ),
    (
        "property-table",
        "The DRF paper's property table (Asset / CEEI / DRF), decided by `verify` on generated instances with strictly positive demands",
        "Ghodsi et al., NSDI 2011, Table 2 and section 5 (asset fairness violates SI, BF, RM; CEEI violates SP, PM, RM; DRF violates RM)",
        property_table,
    ),
    (
        "hdrf-static",
        "Hierarchical policies, static fill from zero: the lecture's tree, the H-DRF paper's tree, and the flattening failure",
        "Yandex lecture (2016); Bhattacharya et al., SoCC 2013; reference/trees.json",
        hdrf_static,
    ),
    (
        "hdrf-dynamic",
        "Hierarchical policies under task churn (the task-level simulator): naive HDRF starves B1 (lecture) and n22 (H-DRF paper); min-satisfaction keeps B1 at its guarantee, H-DRF keeps n22",
        "Yandex lecture (2016), naive and min-satisfaction HDRF; Bhattacharya et al., SoCC 2013; reference/trees.json (dynamic); workloads examples/lecture-churn.json, examples/hdrf-paper-churn.json",
        hdrf_dynamic,
    ),
    (
        "collusion",
        "A cold-start search finds a strong group manipulation of extended DRF like the lecture's four operations, and no weak one",
        "Yandex lecture (2016), the four-operation collusion; Parkes, Procaccia, Shah, EC 2012 (extended DRF is group strategy-proof: no coalition all strictly gains)",
        collusion,
    ),
    (
        "drf-not-rm",
        "DRF violates resource monotonicity: capacities (1,1) -> (1,4)",
        "Ghodsi et al., NSDI 2011, section 5 (resource monotonicity); reference/flat.json, case drf-not-rm",
        drf_not_rm,
    ),
    (
        "explore-drf-sp",
        "explore: DRF's largest single-liar gain is exactly 1 (a cold-start run of sp-gain)",
        "Ghodsi et al., NSDI 2011, section 4.2 (DRF is strategy-proof: no lie raises a user's tasks)",
        explore_drf_sp,
    ),
    (
        "explore-drf-rm",
        "explore: DRF's resource-monotonicity loss on the paper's example, and a 2-user, 2-resource run that reaches at least that loss",
        "Ghodsi et al., NSDI 2011, section 5: capacities (1,1) -> (1,4), A falls from 1/3 to 1/4 tasks; reference/flat.json, case drf-not-rm",
        explore_drf_rm,
    ),
    (
        "explore-ceei-sp",
        "explore: CEEI's manipulation gain on the paper's example, and the gain a cold-start run finds, below the incentive-ratio bound 2",
        "Ghodsi et al., NSDI 2011, section 5 (user 1: 100/31 tasks truthfully, 25/6 reporting <16, 8>); Chen, Deng, Zhang, How Profitable Are Strategic Behaviors in a Market?, ESA 2011 (incentive ratio below 2)",
        explore_ceei_sp,
    ),
    (
        "explore-ceei-pm",
        "explore: CEEI's population-monotonicity loss on the paper's example, where CEEI's answer is irrational: a certified interval",
        "Ghodsi et al., NSDI 2011, section 5: user 2 falls from about 5.35137 to 100/21 tasks when user 3 leaves; reference/flat.json, case ceei-not-pm",
        explore_ceei_pm,
    ),
    (
        "explore-asset-si",
        "explore: asset fairness's sharing-incentive gap on the paper's example",
        "Ghodsi et al., NSDI 2011, section 2.2: on (30, 30) user 2 <1, 1> gets 12 tasks, its equal split would run 15; reference/flat.json, case asset-violates-si",
        explore_asset_si,
    ),
    (
        "explore-drf-welfare",
        "explore: DRF's welfare ratio (dominant shares) on the family F(k, m) — k users needing <1,...,1> and m single-resource users, capacities 1 — equals m(k+1)/(k+m), below the bound m",
        "Parkes, Procaccia, Shah, Beyond Dominant Resource Fairness: Extensions, Limitations, and Indivisibilities, ACM EC 2012 (DRF keeps at least 1/m of the optimal utilitarian welfare, and no SI, EF or SP mechanism keeps more); docs/theory.md §5, question 5",
        explore_drf_welfare,
    ),
];

/// The names accepted by `leontief reproduce NAME`.
pub fn names() -> Vec<&'static str> {
    EXAMPLES.iter().map(|e| e.0).collect()
}

/// Runs the named examples (all when `names` is empty), in the listed order.
pub fn run(selected: &[String]) -> Result<Vec<Reproduction>, CliError> {
    for name in selected {
        if !EXAMPLES.iter().any(|e| e.0 == name) {
            return Err(CliError::Usage(format!(
                "unknown example {name:?}; known: {}",
                names().join(", ")
            )));
        }
    }
    EXAMPLES
        .iter()
        .filter(|e| selected.is_empty() || selected.iter().any(|s| s == e.0))
        .map(|&(name, title, source, build)| {
            Ok(Reproduction {
                name,
                title,
                source,
                checks: build()?,
            })
        })
        .collect()
}

/// The report as text with check marks, and a closing `N passed, M failed` line.
pub fn render_text(reports: &[Reproduction]) -> String {
    let mut out = String::new();
    for r in reports {
        out.push_str(&format!(
            "{} — {}\n  source: {}\n",
            r.name, r.title, r.source
        ));
        let width = r
            .checks
            .iter()
            .map(|c| c.what.chars().count())
            .max()
            .unwrap_or(0);
        let cwidth = r
            .checks
            .iter()
            .map(|c| c.computed.chars().count())
            .max()
            .unwrap_or(0);
        for c in &r.checks {
            let mark = if c.ok { "✓" } else { "✗" };
            out.push_str(&format!(
                "  {mark} {:<width$}  {:<cwidth$}  source: {}\n",
                c.what, c.computed, c.source
            ));
        }
        out.push('\n');
    }
    let (passed, failed) = tally(reports);
    out.push_str(&format!("reproduce: {passed} passed, {failed} failed\n"));
    out
}

/// The report as JSON.
pub fn render_json(reports: &[Reproduction]) -> Value {
    let (passed, failed) = tally(reports);
    let examples: Vec<Value> = reports
        .iter()
        .map(|r| {
            let checks: Vec<Value> = r
                .checks
                .iter()
                .map(|c| json!({"what": c.what, "computed": c.computed, "source": c.source, "ok": c.ok}))
                .collect();
            json!({"name": r.name, "title": r.title, "source": r.source, "checks": checks})
        })
        .collect();
    json!({"examples": examples, "passed": passed, "failed": failed})
}

/// Checks passed and failed.
pub fn tally(reports: &[Reproduction]) -> (usize, usize) {
    let all = reports.iter().flat_map(|r| &r.checks);
    let passed = all.clone().filter(|c| c.ok).count();
    (passed, all.count() - passed)
}

fn reference_case(id: &str) -> Result<Value, CliError> {
    let all: Value =
        serde_json::from_str(FLAT_REFERENCE).map_err(|e| CliError::Internal(e.to_string()))?;
    all["cases"]
        .as_array()
        .and_then(|cases| cases.iter().find(|c| c["id"] == id))
        .cloned()
        .ok_or_else(|| CliError::Internal(format!("reference case {id} is missing")))
}

fn instance_of(case: &Value) -> Result<Instance, CliError> {
    Ok(Instance::from_json(&case["instance"])?)
}

fn str_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Compares a mechanism's tasks with a case's `field` (`{"A": "3", ..}`).
fn tasks_checks(
    inst: &Instance,
    tasks: &[Rational],
    expected: &Value,
    label: &str,
) -> Result<Vec<Check>, CliError> {
    let expected = expected
        .as_object()
        .ok_or_else(|| CliError::Internal("reference tasks are not an object".into()))?;
    expected
        .iter()
        .map(|(name, want)| {
            let i = inst.user_index(name).ok_or_else(|| {
                CliError::Internal(format!("reference names unknown user {name}"))
            })?;
            Ok(Check::exact(
                format!("{name} {label}"),
                &tasks[i],
                &str_of(want),
            ))
        })
        .collect()
}

fn drf_paper() -> Result<Vec<Check>, CliError> {
    let case = reference_case("drf-paper-running")?;
    let inst = instance_of(&case)?;
    let fill = Drf::extended().fill(&inst);
    let mut checks = tasks_checks(&inst, &fill.tasks, &case["tasks"], "tasks")?;
    // "user A gets 3 CPU, 12 GB and B gets 6 CPU, 2 GB ... each user gets 2/3 of its dominant
    // resource" (§4.1).
    let bundle = |i: usize| -> Vec<Rational> {
        inst.users()[i]
            .demand
            .iter()
            .map(|d| d * &fill.tasks[i])
            .collect()
    };
    let show = |v: Vec<Rational>| {
        format!(
            "<{}>",
            v.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    checks.push(Check::text(
        "A bundle <CPU, GB>",
        show(bundle(0)),
        "<3, 12>",
    ));
    checks.push(Check::text("B bundle <CPU, GB>", show(bundle(1)), "<6, 2>"));
    checks.push(Check::exact("A dominant share", &fill.levels[0], "2/3"));
    checks.push(Check::exact("B dominant share", &fill.levels[1], "2/3"));
    let discrete = reference_case("drf-paper-running-discrete")?;
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

/// The DRF paper's Table 1: picked user; A's shares <CPU, RAM> and dominant share; B's;
/// CPU and RAM allocated in total — as printed in the paper.
pub const TABLE_1: [[&str; 9]; 5] = [
    ["B", "0", "0", "0", "3/9", "1/18", "1/3", "3/9", "1/18"],
    [
        "A", "1/9", "4/18", "2/9", "3/9", "1/18", "1/3", "4/9", "5/18",
    ],
    [
        "A", "2/9", "8/18", "4/9", "3/9", "1/18", "1/3", "5/9", "9/18",
    ],
    [
        "B", "2/9", "8/18", "4/9", "6/9", "2/18", "2/3", "8/9", "10/18",
    ],
    [
        "A", "3/9", "12/18", "2/3", "6/9", "2/18", "2/3", "1", "14/18",
    ],
];

fn drf_paper_table1() -> Result<Vec<Check>, CliError> {
    let inst = instance_of(&reference_case("drf-paper-running")?)?;
    let out = DiscreteDrf::paper()
        .with_tie_break(TieBreak::ReverseUserOrder)
        .run(&inst, true)?;
    let trace = out.trace.unwrap_or_default();
    let launched: Vec<_> = trace.iter().filter(|s| s.launched).collect();
    let mut checks = Vec::new();
    for (k, row) in TABLE_1.iter().enumerate() {
        let source = format!(
            "{} | A <{}, {}> {} | B <{}, {}> {} | CPU {} RAM {}",
            row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7], row[8]
        );
        let computed = match launched.get(k) {
            None => "no step".to_string(),
            Some(s) => format!(
                "{} | A <{}, {}> {} | B <{}, {}> {} | CPU {} RAM {}",
                inst.users()[s.user].name,
                s.resource_shares[0][0],
                s.resource_shares[0][1],
                s.dominant_shares[0],
                s.resource_shares[1][0],
                s.resource_shares[1][1],
                s.dominant_shares[1],
                s.allocated[0],
                s.allocated[1]
            ),
        };
        // Equal as exact values: the paper writes 3/9 where we print 1/3.
        let ok = launched.get(k).is_some_and(|s| {
            let want: Vec<Rational> = row[1..]
                .iter()
                .map(|x| x.parse().unwrap_or_default())
                .collect();
            inst.users()[s.user].name == row[0]
                && [
                    &s.resource_shares[0][0],
                    &s.resource_shares[0][1],
                    &s.dominant_shares[0],
                ]
                .into_iter()
                .chain([
                    &s.resource_shares[1][0],
                    &s.resource_shares[1][1],
                    &s.dominant_shares[1],
                ])
                .chain([&s.allocated[0], &s.allocated[1]])
                .zip(&want)
                .all(|(a, b)| a == b)
        });
        checks.push(Check {
            what: format!("step {}", k + 1),
            computed,
            source,
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

fn weighted_cap_zero() -> Result<Vec<Check>, CliError> {
    let case = reference_case("weighted-cap-zero")?;
    let inst = instance_of(&case)?;
    let x = Drf::extended().allocate(&inst)?;
    tasks_checks(&inst, &x.tasks, &case["tasks"], "tasks")
}

fn four_operations() -> Result<Vec<Check>, CliError> {
    let case = reference_case("collusion-four-operations")?;
    let inst = instance_of(&case)?;
    let truthful = Drf::extended().allocate(&inst)?;
    let mut checks = tasks_checks(&inst, &truthful.tasks, &case["tasks"], "tasks, truthful")?;
    // Apply the lies, allocate on the reported profile, measure with the true demands.
    let mut reported = inst.clone();
    let lies = case["manipulation"]["lies"]
        .as_object()
        .ok_or_else(|| CliError::Internal("reference lies are not an object".into()))?;
    for (name, demand) in lies {
        let i = inst
            .user_index(name)
            .ok_or_else(|| CliError::Internal(format!("unknown liar {name}")))?;
        let demand = leontief_solver::read_numbers(&format!("lies.{name}"), demand)?;
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

fn drf_not_rm() -> Result<Vec<Check>, CliError> {
    let case = reference_case("drf-not-rm")?;
    let inst = instance_of(&case)?;
    let before = Drf::extended().allocate(&inst)?;
    let mut checks = tasks_checks(&inst, &before.tasks, &case["tasks"], "tasks at (1,1)")?;
    let capacity = leontief_solver::read_numbers("after_capacity", &case["after_capacity"])?;
    let bigger =
        Instance::with_resources(inst.resources().to_vec(), capacity, inst.users().to_vec())?;
    let after = Drf::extended().allocate(&bigger)?;
    checks.extend(tasks_checks(
        &bigger,
        &after.tasks,
        &case["tasks_after"],
        "tasks at (1,4)",
    )?);
    Ok(checks)
}

fn asset_paper() -> Result<Vec<Check>, CliError> {
    let mut checks = Vec::new();
    for (id, label) in [
        ("asset-paper-running", "tasks"),
        ("asset-violates-si", "tasks at (30, 30)"),
        ("asset-violates-bf", "tasks at (21, 21)"),
    ] {
        let case = reference_case(id)?;
        let inst = instance_of(&case)?;
        let x = AssetFairness.allocate(&inst)?;
        checks.extend(tasks_checks(&inst, &x.tasks, &case["tasks"], label)?);
        if id == "asset-violates-si" {
            // "the second user gets less than half (15) of both resources".
            let user2 = inst
                .user_index("2")
                .ok_or_else(|| CliError::Internal("user 2".into()))?;
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

/// The DRF paper's Table 2: for each property, whether Asset, CEEI and DRF have it.
pub const TABLE_2: [(&str, [bool; 3]); 8] = [
    ("si", [false, true, true]),
    ("sp", [true, false, true]),
    ("ef", [true, true, true]),
    ("po", [true, true, true]),
    ("srf", [true, true, true]),
    ("bf", [false, true, true]),
    ("pm", [true, false, true]),
    ("rm", [false, false, false]),
];

/// Instances per cell of the property table.
pub const TABLE_2_INSTANCES: u64 = 200;

fn property_table() -> Result<Vec<Check>, CliError> {
    use leontief_counterexamples::generate::GeneratorConfig;
    use leontief_counterexamples::verify::{verify, VerifyConfig};
    use leontief_solver::properties::Property;

    let mut checks = Vec::new();
    for (mech_name, column) in [("asset", 0), ("ceei", 1), ("drf", 2)] {
        let mech = crate::mechanisms::by_name(mech_name)?;
        for (prop_name, row) in TABLE_2 {
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
            let source = if row[column] { "✓" } else { "✗" };
            checks.push(Check {
                what: format!("{mech_name} {prop_name}"),
                ok: has == row[column],
                computed,
                source: source.to_string(),
            });
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

fn ceei_paper() -> Result<Vec<Check>, CliError> {
    let running = reference_case("ceei-paper-running")?;
    let mut checks = ceei_checks(&instance_of(&running)?, &running["tasks"], "tasks")?;

    // Theorem 4: user 1 gains by reporting <16, 8>; its true utility under the lie is 25/6.
    let sp = reference_case("ceei-not-sp")?;
    let inst = instance_of(&sp)?;
    checks.extend(ceei_checks(&inst, &sp["tasks"], "tasks, truthful")?);
    let liar = inst
        .user_index("1")
        .ok_or_else(|| CliError::Internal("user 1".into()))?;
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
    let pm = reference_case("ceei-not-pm")?;
    let inst = instance_of(&pm)?;
    let out = leontief_solver::ceei::Ceei::new().solve(&inst)?;
    if let Some(approx) = pm["tasks_approx"].as_object() {
        for (name, want) in approx {
            let i = inst
                .user_index(name)
                .ok_or_else(|| CliError::Internal(format!("user {name}")))?;
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
    let k = inst
        .user_index(leaving)
        .ok_or_else(|| CliError::Internal("leaving user".into()))?;
    let users: Vec<_> = inst
        .users()
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != k)
        .map(|(_, u)| u.clone())
        .collect();
    let after =
        Instance::with_resources(inst.resources().to_vec(), inst.capacity().to_vec(), users)?;
    checks.extend(ceei_checks(
        &after,
        &pm["tasks_after"],
        "tasks after user 3 leaves",
    )?);
    Ok(checks)
}

/// The hierarchical examples with the sources' answers.
pub const TREES_REFERENCE: &str = include_str!("../reference/trees.json");

fn hdrf_static() -> Result<Vec<Check>, CliError> {
    use leontief_hdrf::{allocate, properties::share_guarantee, Policy, Tree};
    let all: Value =
        serde_json::from_str(TREES_REFERENCE).map_err(|e| CliError::Internal(e.to_string()))?;
    let cases = all["cases"].as_array().cloned().unwrap_or_default();
    let mut checks = Vec::new();
    for case in &cases {
        let id = case["id"].as_str().unwrap_or("?");
        let resources = if id == "hdrf-paper-starvation" {
            ["cpu", "gpu"]
        } else {
            ["cpu", "mem"]
        };
        let tree = Tree::from_json(
            &json!({"resources": resources, "capacity": [1, 1], "tree": case["tree"]}),
        )?;
        let mut expected: Vec<(Policy, &Value)> = Vec::new();
        for key in ["static_fill_from_zero", "static"] {
            if let Some(map) = case[key].as_object() {
                for (policy, values) in map {
                    expected.push((policy.parse()?, values));
                }
            }
        }
        for (policy, values) in expected {
            let alloc = allocate(&tree, policy)?;
            for (name, want) in values.as_object().into_iter().flatten() {
                let node = tree
                    .find(name)
                    .ok_or_else(|| CliError::Internal(format!("node {name}")))?;
                checks.push(Check::exact(
                    format!("{id}: {name} dominant share, {}", policy.name()),
                    alloc.dominant_share(node),
                    &str_of(want),
                ));
            }
        }
        for (name, want) in case["guaranteed"].as_object().into_iter().flatten() {
            let node = tree
                .find(name)
                .ok_or_else(|| CliError::Internal(format!("node {name}")))?;
            checks.push(Check::exact(
                format!("{id}: {name} guaranteed share"),
                tree.guaranteed_share(node),
                &str_of(want),
            ));
        }
    }
    // The lecture's flattening failure: a pool promised 1/2 whose children have different
    // dominant resources gets 1/3 when the tree is flattened; the tree policies keep 1/2.
    let tree = Tree::from_json(
        &json!({"resources": ["cpu", "mem"], "capacity": [1, 1], "tree": {"name": "root", "children": [
        {"name": "P", "children": [{"name": "P1", "demand": [1, 0]}, {"name": "P2", "demand": [0, 1]}]},
        {"name": "Q", "children": [{"name": "Q1", "demand": [1, 1]}]}]}}),
    )?;
    let p = tree
        .find("P")
        .ok_or_else(|| CliError::Internal("P".into()))?;
    for (policy, want, holds) in [
        (Policy::Collapsed, "1/3", false),
        (Policy::MinSatisfaction, "1/2", true),
        (Policy::Hdrf, "1/2", true),
    ] {
        let alloc = allocate(&tree, policy)?;
        checks.push(Check::exact(
            format!("flattening: P dominant share, {}", policy.name()),
            alloc.dominant_share(p),
            want,
        ));
        checks.push(Check::text(
            format!("flattening: share guarantee holds, {}", policy.name()),
            share_guarantee(&tree, &alloc).is_empty().to_string(),
            &holds.to_string(),
        ));
    }
    Ok(checks)
}

/// The search budget of `reproduce collusion` (scenarios), the same for both readings.
const COLLUSION_BUDGET: u64 = 400_000;

fn collusion() -> Result<Vec<Check>, CliError> {
    use leontief_counterexamples::candidate::{evaluate, Candidate};
    use leontief_counterexamples::generate::{Chance, GeneratorConfig};
    use leontief_counterexamples::search::{search, SearchConfig};
    use leontief_solver::properties::{Property, Scenario};

    let drf = Drf::extended();
    let mut checks = Vec::new();
    // The lecture's own example, as a candidate: strong yes, weak no.
    let case = reference_case("collusion-four-operations")?;
    let inst = instance_of(&case)?;
    let mut lies = Vec::new();
    if let Some(obj) = case["manipulation"]["lies"].as_object() {
        for (name, demand) in obj {
            let i = inst
                .user_index(name)
                .ok_or_else(|| CliError::Internal(format!("unknown liar {name}")))?;
            lies.push((
                i,
                leontief_solver::read_numbers(&format!("lies.{name}"), demand)?,
            ));
        }
    }
    let lecture = Candidate::new(inst, Scenario::Lies(lies));
    for (p, expected) in [
        (Property::GspStrong, "violated"),
        (Property::GspWeak, "holds"),
    ] {
        let v = evaluate(&drf, p, &lecture)?;
        checks.push(Check::text(
            format!("lecture's four operations: {p}"),
            if v.is_some() { "violated" } else { "holds" }.into(),
            expected,
        ));
    }
    // Cold start: random and grid instances with zero demands, nothing about the example.
    let mut generator = GeneratorConfig::new();
    generator.users = 2..=4;
    generator.zeros = Chance::new(1, 3).expect("valid");
    let run = |property: Property| -> Result<(Vec<leontief_counterexamples::record::Record>, u64), CliError> {
        let mut cfg = SearchConfig::new(property, 1, generator.clone());
        cfg.budget = Some(COLLUSION_BUDGET);
        cfg.max_found = Some(1);
        let mut found = Vec::new();
        let summary = search(&drf, &cfg, &mut |r| {
            found.push(r.clone());
            Ok(())
        }, &|_| {})
        .map_err(|e| CliError::Internal(e.to_string()))?;
        Ok((found, summary.scenarios))
    };
    let (found, scenarios) = run(Property::GspStrong)?;
    let Some(r) = found.first() else {
        checks.push(Check::text(
            format!("search gsp-strong (seed 1, budget {COLLUSION_BUDGET})"),
            "none found".into(),
            "a violation",
        ));
        return Ok(checks);
    };
    let c = &r.candidate;
    let inst = &c.instance;
    let v = evaluate(&drf, Property::GspStrong, c)?;
    checks.push(Check::text(
        format!(
            "search gsp-strong (seed 1): found after {scenarios} scenarios, shrunk, re-verified"
        ),
        if v.is_some() {
            "a violation"
        } else {
            "not a violation"
        }
        .into(),
        "a violation",
    ));
    let Scenario::Lies(lies) = &c.scenario else {
        return Err(CliError::Internal("a gsp witness without lies".into()));
    };
    let describe = lies
        .iter()
        .map(|(i, rep)| {
            let u = &inst.users()[*i];
            format!("{} {} reports {}", u.name, vector(&u.demand), vector(rep))
        })
        .collect::<Vec<_>>()
        .join("; ");
    let claims_unused = lies.iter().all(|(i, rep)| {
        let d = &inst.users()[*i].demand;
        d.iter()
            .zip(rep)
            .any(|(t, r)| t.is_zero() && r.is_positive())
    });
    checks.push(Check::text(
        format!("found: {describe}"),
        if claims_unused {
            "liars claim a resource they do not use"
        } else {
            "other lies"
        }
        .into(),
        "liars claim a resource they do not use",
    ));
    let gainers: Vec<String> = r
        .violation
        .coalition
        .iter()
        .filter(|i| !lies.iter().any(|(k, _)| k == *i))
        .map(|&i| {
            let after = r
                .violation
                .after
                .as_ref()
                .and_then(|a| a[i].clone())
                .unwrap_or(Rational::ZERO);
            format!(
                "{} {} -> {}",
                inst.users()[i].name,
                r.violation.before[i],
                after
            )
        })
        .collect();
    checks.push(Check::text(
        format!(
            "truthful coalition members who gain: {}",
            gainers.join(", ")
        ),
        if gainers.is_empty() { "none" } else { "some" }.into(),
        "some",
    ));
    checks.push(Check::text(
        "size of the shrunk counterexample",
        format!(
            "{} users, {} resources",
            inst.num_users(),
            inst.num_resources()
        ),
        "4 users, 3 resources",
    ));
    let (weak, weak_scenarios) = run(Property::GspWeak)?;
    checks.push(Check::text(
        format!("search gsp-weak (seed 1, {weak_scenarios} scenarios)"),
        if weak.is_empty() {
            "none found".into()
        } else {
            format!("{} found", weak.len())
        },
        "none found",
    ));
    Ok(checks)
}

fn vector(v: &[Rational]) -> String {
    format!(
        "<{}>",
        v.iter()
            .map(Rational::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// The churn workloads of `reproduce hdrf-dynamic` (the trees of `reference/trees.json`).
pub const LECTURE_CHURN: &str = include_str!("../examples/lecture-churn.json");
/// The H-DRF paper's tree under churn.
pub const HDRF_PAPER_CHURN: &str = include_str!("../examples/hdrf-paper-churn.json");

fn hdrf_dynamic() -> Result<Vec<Check>, CliError> {
    use leontief_hdrf::simulate::{simulate, Record, Scenario, SimConfig, SimPolicy, Simulation};
    let at_least = |what: String, computed: &Rational, bound: &str| Check {
        ok: bound.parse::<Rational>().is_ok_and(|b| *computed >= b),
        what,
        computed: computed.to_string(),
        source: format!("≥ {bound}"),
    };
    let run = |s: &Scenario, policy: SimPolicy| -> Result<Simulation, CliError> {
        Ok(simulate(s, &SimConfig::new(policy).record(Record::Off))?)
    };
    let node = |s: &Scenario, name: &str| -> Result<usize, CliError> {
        s.tree
            .find(name)
            .map(|v| v.index())
            .ok_or_else(|| CliError::Internal(format!("node {name}")))
    };
    let mut checks = Vec::new();

    // The lecture: "every CPU that B1 frees goes to A ... B1 drains to 0"; min-satisfaction
    // "gives every node at least its guaranteed share" (B1: 1/4).
    let lecture = Scenario::from_json_str(LECTURE_CHURN)?;
    let (a, b1) = (node(&lecture, "A")?, node(&lecture, "B1")?);
    let naive = run(&lecture, SimPolicy::Naive)?;
    checks.push(Check::exact(
        "lecture: B1 min share over [50, 100), naive",
        &naive.nodes[b1].min_share_steady,
        "0",
    ));
    checks.push(Check::exact(
        "lecture: A min share over [50, 100), naive (A takes all the CPU)",
        &naive.nodes[a].min_share_steady,
        "1",
    ));
    checks.push(Check::text(
        "lecture: B1 starved, naive",
        naive.nodes[b1].starved.to_string(),
        "true",
    ));
    let fair = run(&lecture, SimPolicy::MinSatisfaction)?;
    checks.push(at_least(
        "lecture: B1 min share over [50, 100), min-satisfaction".into(),
        &fair.nodes[b1].min_share_steady,
        "1/4",
    ));
    checks.push(Check::text(
        "lecture: B1 starved, min-satisfaction",
        fair.nodes[b1].starved.to_string(),
        "false",
    ));

    // The H-DRF paper: naive starves n22 under churn (the GPU drifts to n1); H-DRF does not.
    let paper = Scenario::from_json_str(HDRF_PAPER_CHURN)?;
    let (n1, n22) = (node(&paper, "n1")?, node(&paper, "n22")?);
    let naive = run(&paper, SimPolicy::Naive)?;
    checks.push(Check::exact(
        "H-DRF paper: n22 min share over [50, 100), naive",
        &naive.nodes[n22].min_share_steady,
        "0",
    ));
    checks.push(Check::exact(
        "H-DRF paper: n1 min share over [50, 100), naive (the GPU drifts to n1)",
        &naive.nodes[n1].min_share_steady,
        "1",
    ));
    checks.push(Check::text(
        "H-DRF paper: n22 starved, naive",
        naive.nodes[n22].starved.to_string(),
        "true",
    ));
    for policy in [SimPolicy::Hdrf, SimPolicy::MinSatisfaction] {
        let x = run(&paper, policy)?;
        checks.push(at_least(
            format!("H-DRF paper: n22 min share over [50, 100), {policy}"),
            &x.nodes[n22].min_share_steady,
            "1/4",
        ));
        checks.push(Check::text(
            format!("H-DRF paper: n22 starved, {policy}"),
            x.nodes[n22].starved.to_string(),
            "false",
        ));
    }
    Ok(checks)
}

/// The best record of a short `explore` run (the last line, marked `"best": true`).
fn explore_best(
    mechanism: &dyn Mechanism,
    cfg: &leontief_counterexamples::explore::ExploreConfig,
) -> Result<Value, CliError> {
    let mut last = None;
    leontief_counterexamples::explore::explore(
        mechanism,
        cfg,
        &mut |r| {
            last = Some(r.clone());
            Ok(())
        },
        &|_| {},
    )
    .map_err(|e| CliError::Internal(e.to_string()))?;
    last.ok_or_else(|| CliError::Internal("explore found no record".into()))
}

fn record_value(record: &Value) -> Result<Rational, CliError> {
    record["value"]
        .as_str()
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| CliError::Internal(format!("a record without a value: {record}")))
}

/// A metric's value on one scenario of an instance.
fn metric_at(
    mechanism: &dyn Mechanism,
    metric: leontief_counterexamples::explore::MetricName,
    instance: Instance,
    scenario: leontief_solver::properties::Scenario,
) -> Result<Rational, CliError> {
    let c = leontief_counterexamples::candidate::Candidate::new(instance, scenario);
    let truth = mechanism.allocate(&c.instance)?;
    let e = metric
        .metric()
        .at(
            mechanism,
            &c,
            &truth,
            leontief_counterexamples::explore::Utility::Tasks,
        )?
        .ok_or_else(|| CliError::Internal("the scenario has no value".into()))?;
    Ok(e.value)
}

/// A check that a computed value respects a source's bound.
fn bound_check(what: &str, computed: &Rational, source: &str, ok: bool) -> Check {
    Check {
        what: what.into(),
        computed: computed.to_string(),
        source: source.into(),
        ok,
    }
}

fn explore_drf_sp() -> Result<Vec<Check>, CliError> {
    use leontief_counterexamples::explore::{ExploreConfig, MetricName};
    let mut cfg = ExploreConfig::new(
        MetricName::SpGain,
        1,
        leontief_counterexamples::generate::GeneratorConfig::new(),
    );
    cfg.budget = Some(20_000);
    let best = explore_best(&Drf::extended(), &cfg)?;
    Ok(vec![Check::exact(
        "largest gain found (20,000 scenarios)",
        &record_value(&best)?,
        "1",
    )])
}

fn explore_drf_rm() -> Result<Vec<Check>, CliError> {
    use leontief_counterexamples::explore::{ExploreConfig, MetricName};
    use leontief_solver::properties::Scenario;
    let case = reference_case("drf-not-rm")?;
    let inst = instance_of(&case)?;
    let capacity = leontief_solver::read_numbers("after_capacity", &case["after_capacity"])?;
    // The source's loss: A's tasks after over before.
    let tasks = |k: &str| -> Result<Rational, CliError> {
        case[k]["A"]
            .as_str()
            .and_then(|v| v.parse::<Rational>().ok())
            .ok_or_else(|| CliError::Internal(format!("drf-not-rm: {k}.A")))
    };
    let source = &tasks("tasks_after")? / &tasks("tasks")?;
    let ours = metric_at(
        &Drf::extended(),
        MetricName::RmLoss,
        inst,
        Scenario::Capacity(capacity),
    )?;
    let mut g = leontief_counterexamples::generate::GeneratorConfig::new();
    g.users = 2..=2;
    g.resources = 2..=2;
    let mut cfg = ExploreConfig::new(MetricName::RmLoss, 1, g);
    cfg.budget = Some(5_000);
    let found = record_value(&explore_best(&Drf::extended(), &cfg)?)?;
    Ok(vec![
        Check::exact("rm-loss of the paper's growth", &ours, &source.to_string()),
        bound_check(
            "record of a run on 2 users, 2 resources (5,000 scenarios)",
            &found,
            &format!("at most {source}"),
            found <= source,
        ),
    ])
}

fn explore_ceei_sp() -> Result<Vec<Check>, CliError> {
    use leontief_counterexamples::explore::{ExploreConfig, MetricName};
    use leontief_solver::properties::Scenario;
    let case = reference_case("ceei-not-sp")?;
    let inst = instance_of(&case)?;
    let tasks = |v: &Value| -> Result<Rational, CliError> {
        v["1"]
            .as_str()
            .and_then(|t| t.parse::<Rational>().ok())
            .ok_or_else(|| CliError::Internal("ceei-not-sp: user 1's tasks".into()))
    };
    // The lie <16, 8> keeps user 1's CPU need, so its real tasks are the tasks it receives.
    let source = &tasks(&case["manipulation"]["tasks_under_lie"])? / &tasks(&case["tasks"])?;
    let lie = leontief_solver::read_numbers("lies.1", &case["manipulation"]["lies"]["1"])?;
    let ceei = leontief_solver::ceei::Ceei::new();
    let ours = metric_at(
        &ceei,
        MetricName::SpGain,
        inst,
        Scenario::Lies(vec![(0, lie)]),
    )?;
    let mut cfg = ExploreConfig::new(
        MetricName::SpGain,
        1,
        leontief_counterexamples::generate::GeneratorConfig::new(),
    );
    cfg.budget = Some(20_000);
    let best = explore_best(&ceei, &cfg)?;
    // The certified lower end of the record (the value itself when exact).
    let lo = match best["interval"].as_array() {
        Some(i) => i[0]
            .as_str()
            .and_then(|t| t.parse::<Rational>().ok())
            .ok_or_else(|| CliError::Internal("interval".into()))?,
        None => record_value(&best)?,
    };
    let hi = match best["interval"].as_array() {
        Some(i) => i[1]
            .as_str()
            .and_then(|t| t.parse::<Rational>().ok())
            .ok_or_else(|| CliError::Internal("interval".into()))?,
        None => lo.clone(),
    };
    Ok(vec![
        Check::exact("gain of the paper's lie", &ours, &source.to_string()),
        bound_check(
            "gain found from a cold start (20,000 scenarios), certified lower end",
            &lo,
            "above 1 (CEEI is not strategy-proof)",
            lo > Rational::ONE,
        ),
        bound_check(
            "gain found, certified upper end",
            &hi,
            "below 2 (incentive ratio)",
            hi < Rational::from(2),
        ),
    ])
}

fn explore_asset_si() -> Result<Vec<Check>, CliError> {
    use leontief_counterexamples::explore::MetricName;
    use leontief_solver::properties::Scenario;
    let case = reference_case("asset-violates-si")?;
    let inst = instance_of(&case)?;
    let tasks: Rational = case["tasks"]["2"]
        .as_str()
        .and_then(|t| t.parse().ok())
        .ok_or_else(|| CliError::Internal("asset-violates-si: tasks.2".into()))?;
    // Half of (30, 30) runs 15 tasks of <1, 1>.
    let source = &tasks / &Rational::from(15);
    let ours = metric_at(&AssetFairness, MetricName::SiGap, inst, Scenario::Bounded)?;
    Ok(vec![Check::exact(
        "si-gap (user 2: its tasks over its equal split's)",
        &ours,
        &source.to_string(),
    )])
}

fn explore_ceei_pm() -> Result<Vec<Check>, CliError> {
    use leontief_counterexamples::explore::{MetricName, Utility};
    use leontief_solver::properties::Scenario;
    let case = reference_case("ceei-not-pm")?;
    let inst = instance_of(&case)?;
    let leaving = inst
        .user_index(case["after_removing"].as_str().unwrap_or_default())
        .ok_or_else(|| CliError::Internal("ceei-not-pm: after_removing".into()))?;
    let after: Rational = case["tasks_after"]["2"]
        .as_str()
        .and_then(|t| t.parse().ok())
        .ok_or_else(|| CliError::Internal("ceei-not-pm: tasks_after.2".into()))?;
    // The source gives user 2's truthful tasks to 5 decimals: 5.35137 ± 0.000005 (read
    // exactly from the JSON number's text).
    let before = leontief_solver::read_number("tasks_approx.2", &case["tasks_approx"]["2"])?;
    let digits = |delta: &str| -> Result<Rational, CliError> {
        let d: Rational = delta
            .parse()
            .map_err(|_| CliError::Internal("delta".into()))?;
        Ok(&before + &d)
    };
    let source_lo = &after / &digits("0.000005")?;
    let source_hi = &after / &digits("-0.000005")?;
    let ceei = leontief_solver::ceei::Ceei::new();
    let c = leontief_counterexamples::candidate::Candidate::new(inst, Scenario::Remove(leaving));
    let truth = ceei.allocate(&c.instance)?;
    let e = MetricName::PmLoss
        .metric()
        .at(&ceei, &c, &truth, Utility::Tasks)?
        .ok_or_else(|| CliError::Internal("the departure has no value".into()))?;
    let show = |lo: &Rational, hi: &Rational| {
        format!(
            "[{}, {}]",
            leontief_counterexamples::explore::record::decimal(lo, 9),
            leontief_counterexamples::explore::record::decimal(hi, 9)
        )
    };
    Ok(vec![
        Check {
            what: "pm-loss of user 3 leaving (certified interval)".into(),
            computed: show(&e.lo, &e.hi),
            source: format!(
                "(100/21) / {} = {}",
                leontief_counterexamples::explore::record::decimal(&before, 5),
                show(&source_lo, &source_hi)
            ),
            ok: !e.exact && e.lo <= source_hi && e.hi >= source_lo,
        },
        Check {
            what: "certified upper end of the loss".into(),
            computed: leontief_counterexamples::explore::record::decimal(&e.hi, 9),
            source: "below 1 (CEEI is not population monotonic)".into(),
            ok: e.hi < Rational::ONE,
        },
    ])
}

/// The family `F(k, m)`: capacities 1 on `m` resources, `k` users demanding `<1, ..., 1>`
/// and `m` users each demanding only its own resource.
fn hogs_and_specialists(k: usize, m: usize) -> Result<Instance, CliError> {
    let mut users: Vec<leontief_solver::User> = (0..k)
        .map(|h| leontief_solver::User::new(format!("h{h}"), vec![1; m]))
        .collect();
    for j in 0..m {
        let mut d = vec![0; m];
        d[j] = 1;
        users.push(leontief_solver::User::new(format!("s{j}"), d));
    }
    Ok(Instance::new(vec![Rational::ONE; m], users)?)
}

fn explore_drf_welfare() -> Result<Vec<Check>, CliError> {
    use leontief_counterexamples::candidate::Candidate;
    use leontief_counterexamples::explore::{MetricName, Utility};
    use leontief_solver::properties::Scenario;
    // DRF raises all k + m users to one share t with k t + t = 1 on every resource:
    // welfare (k + m)/(k + 1); the optimum gives each specialist its resource: m. The
    // ratio m (k + 1)/(k + m) tends to m as k grows.
    let drf = Drf::extended();
    let mut checks = Vec::new();
    for (k, m) in [(1usize, 2usize), (3, 2), (10, 3), (50, 4)] {
        let c = Candidate::new(hogs_and_specialists(k, m)?, Scenario::Bounded);
        let truth = drf.allocate(&c.instance)?;
        let ours = MetricName::WelfareRatio
            .metric()
            .at(&drf, &c, &truth, Utility::DominantShare)?
            .ok_or_else(|| CliError::Internal("welfare-ratio: no value".into()))?
            .value;
        let formula = Rational::new((m * (k + 1)) as i128, (k + m) as i128)
            .ok_or_else(|| CliError::Internal("k + m is positive".into()))?;
        checks.push(Check::exact(
            format!("welfare-ratio on F({k}, {m}), against m(k+1)/(k+m)"),
            &ours,
            &formula.to_string(),
        ));
        let bound = Rational::from(m as i64);
        checks.push(bound_check(
            &format!("welfare-ratio on F({k}, {m}), against the bound m"),
            &ours,
            &format!("below {m}"),
            ours < bound,
        ));
    }
    Ok(checks)
}
