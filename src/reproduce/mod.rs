//! `leontief reproduce`: re-derive the sources' worked examples and set each computed value
//! beside the source's.
//!
//! The sources' values live in `reference/flat.json` (copied from the sources: the DRF
//! paper, its Table 1 transcribed, the lecture on hierarchical DRF and collusion). Nothing
//! here is the code's own output.

use leontief_solver::{Instance, Rational};
use serde::Serialize;
use serde_json::Value;

use crate::cli::CliError;

mod explore;
mod flat;
mod production;
mod prove;
mod search;
mod trees;

use explore::*;
use flat::*;
use production::*;
use prove::*;
use search::*;
use trees::*;

/// The worked flat examples with their sources' answers.
pub const FLAT_REFERENCE: &str = include_str!("../../reference/flat.json");

/// One comparison: what was computed and what the source says.
#[derive(Debug, Clone, Serialize)]
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
    /// A comparison already decided (`ok`), with both sides as they are shown.
    fn new(
        what: impl Into<String>,
        ok: bool,
        computed: impl ToString,
        source: impl Into<String>,
    ) -> Check {
        Check {
            what: what.into(),
            computed: computed.to_string(),
            source: source.into(),
            ok,
        }
    }

    fn exact(what: impl Into<String>, computed: &Rational, source: &str) -> Check {
        let ok = source.parse::<Rational>().is_ok_and(|s| &s == computed);
        Check::new(what, ok, computed, source)
    }

    fn text(what: impl Into<String>, computed: String, source: &str) -> Check {
        Check::new(what, computed == source, computed, source)
    }
}

/// A reproduced example.
#[derive(Debug, Clone, Serialize)]
pub struct Reproduction {
    /// Short name, as given to `leontief reproduce NAME`.
    pub name: &'static str,
    /// What it is.
    pub title: &'static str,
    /// Where the source's numbers come from.
    pub source: &'static str,
    /// The comparisons.
    pub checks: Vec<Check>,
    /// Why the example was not run (it needs a solver and `--all` found none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skipped: Option<String>,
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
        "production",
        "Production schedulers' own tests and documentation: fair shares with guarantees and limits, who is offered next, Kueue's borrowed shares (every case of reference/production.json)",
        "Apache Hadoop YARN (TestComputeFairShares, TestFairScheduler, TestFairSchedulerFairShare, TestDominantResourceFairnessPolicy), Apache Mesos (sorter_tests.cpp, hierarchical_allocator_tests.cpp), Kueue (fair_sharing_test.go, ClusterQueue docs), YTsaurus (fair_share_update_ut.cpp, fair-share docs); reference/production.json",
        production,
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
    (
        "explore-drf-pof",
        "explore: DRF attains the price of max-min fairness — (n+1)^2/(4n), optimum over fair welfare, in dominant shares — exactly on F((n-1)/2, (n+1)/2) for odd n",
        "Bertsimas, Farias, Trichakis, The Price of Fairness, Operations Research 59(1), 2011 (when every player's largest achievable utility is the same, the max-min fair allocation keeps at least 4n/(n+1)^2 of the utilitarian optimum, and this is tight); docs/theory.md §5, question 5",
        explore_drf_pof,
    ),
    (
        "explore-ceei-pof",
        "explore: CEEI attains the price of proportional fairness — n/(2√n − 1), optimum over CEEI's welfare, in dominant shares — and explore --family pps finds it at F(n − √n, √n) for n = 4 and 9",
        "Bertsimas, Farias, Trichakis, The Price of Fairness, Operations Research 59(1), 2011 (the proportionally fair allocation keeps at least (2√n − 1)/n of the utilitarian optimum when every player's largest achievable utility is the same, tight when √n is an integer); docs/theory.md §5, question 5",
        explore_ceei_pof,
    ),
    (
        "explore-drf-discrete",
        "explore: discrete DRF (Algorithm 1) against fluid DRF in max-tasks — within one on one resource, the bound attained; beyond it on two resources with zero demands",
        "Ghodsi et al., NSDI 2011, Theorem 7 (with discrete tasks the allocations of any two users differ by at most one max-task from the continuous allocation); docs/explore.md §3.9",
        explore_drf_discrete,
    ),
    (
        "prove-ceei-gain",
        "prove: CEEI's single-liar gain over every instance of a size — at most 2 − 1/n (proved), and any smaller bound refuted by an instance re-derived exactly",
        "docs/theory.md §6.8 (the bound 2 − 1/n with equal incomes, attained by the family of §6.7); Chen, Deng, Zhang, How Profitable Are Strategic Behaviors in a Market?, ESA 2011 (incentive ratio of Leontief markets below 2)",
        prove_ceei_gain,
    ),
    (
        "prove-sp",
        "prove: strategy-proofness over every instance of a size — DRF and asset fairness have it, CEEI does not",
        "Ghodsi et al., NSDI 2011, section 4 and Table 2 (DRF and asset fairness strategy-proof, CEEI not); Parkes, Procaccia, Shah, EC 2012 (extended DRF with zero demands strategy-proof)",
        prove_sp,
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
            let skipped = match NEEDS_SOLVER.contains(&name).then(prove::solver) {
                // Named, it is an error; under --all the others still run.
                Some(Err(why)) if !selected.is_empty() => return Err(why),
                Some(Err(why)) => Some(why.to_string()),
                _ => None,
            };
            Ok(Reproduction {
                name,
                title,
                source,
                checks: if skipped.is_none() {
                    build()?
                } else {
                    Vec::new()
                },
                skipped,
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
        let widest = |cell: fn(&Check) -> &str| {
            let widths = r.checks.iter().map(|c| cell(c).chars().count());
            widths.max().unwrap_or(0)
        };
        let (width, cwidth) = (widest(|c| &c.what), widest(|c| &c.computed));
        if let Some(why) = &r.skipped {
            out.push_str(&format!("  skipped: {why}\n"));
        }
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

/// The report as JSON: every example, then the checks passed and failed.
#[derive(Debug, Serialize)]
pub struct Report<'a> {
    /// The examples, in the order run.
    pub examples: &'a [Reproduction],
    /// Checks passed.
    pub passed: usize,
    /// Checks failed.
    pub failed: usize,
}

/// The report as JSON.
pub fn render_json(reports: &[Reproduction]) -> Report<'_> {
    let (passed, failed) = tally(reports);
    Report {
        examples: reports,
        passed,
        failed,
    }
}

/// Checks passed and failed.
pub fn tally(reports: &[Reproduction]) -> (usize, usize) {
    let all = reports.iter().flat_map(|r| &r.checks);
    let passed = all.clone().filter(|c| c.ok).count();
    (passed, all.count() - passed)
}

/// The cases of a reference file (`{"cases": [..]}`).
fn reference_cases(text: &str) -> Result<Vec<Value>, CliError> {
    let all: Value = serde_json::from_str(text).map_err(|e| CliError::Internal(e.to_string()))?;
    Ok(all["cases"].as_array().cloned().unwrap_or_default())
}

/// The flat reference case `id` and its instance.
fn reference_case(id: &str) -> Result<(Value, Instance), CliError> {
    let cases = reference_cases(FLAT_REFERENCE)?;
    let case = cases.into_iter().find(|c| c["id"] == id);
    let case = case.ok_or_else(|| CliError::Internal(format!("reference case {id} is missing")))?;
    let inst = Instance::from_json(&case["instance"])?;
    Ok((case, inst))
}

/// A reference case's lies (`{"A": [..], ..}`): each liar's index and reported demand.
fn reference_lies(inst: &Instance, lies: &Value) -> Result<Vec<(usize, Vec<Rational>)>, CliError> {
    let lies = lies
        .as_object()
        .ok_or_else(|| CliError::Internal("reference lies are not an object".into()))?;
    lies.iter()
        .map(|(name, demand)| {
            let i = user_named(inst, name)?;
            let field = format!("lies.{name}");
            Ok((i, leontief_solver::read_numbers(&field, demand)?))
        })
        .collect()
}

/// The index of the user a reference case names.
fn user_named(inst: &Instance, name: &str) -> Result<usize, CliError> {
    inst.user_index(name)
        .ok_or_else(|| CliError::Internal(format!("reference names unknown user {name}")))
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
            let i = user_named(inst, name)?;
            Ok(Check::exact(
                format!("{name} {label}"),
                &tasks[i],
                &str_of(want),
            ))
        })
        .collect()
}
