//! `explore` set beside published quantitative results: strategy-proofness of DRF, its
//! resource-monotonicity loss, CEEI's manipulation gain below the incentive-ratio bound,
//! CEEI's population-monotonicity loss, asset fairness's sharing-incentive gap, DRF's
//! welfare ratio on the Parkes–Procaccia–Shah family, the prices of max-min (DRF) and
//! proportional (CEEI) fairness found by `explore --family pps`, and discrete DRF against
//! the DRF paper's Theorem 7.

use leontief_counterexamples::explore::family::Point;
use leontief_counterexamples::explore::{ExploreConfig, Family, MetricName, Utility};
use leontief_counterexamples::instance_generator::GeneratorConfig;
use leontief_counterexamples::space::Strategy;
use leontief_solver::random_instances::SplitMix64;
use leontief_solver::{AssetFairness, Drf, Instance, Mechanism, Rational};
use serde_json::Value;
use std::cmp::Ordering;

use super::*;
use crate::cli::CliError;

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

/// The best record of `explore --metric M --budget B --seed 1` on `generator`'s instances.
fn best_within(
    mechanism: &dyn Mechanism,
    metric: MetricName,
    generator: GeneratorConfig,
    budget: u64,
) -> Result<Value, CliError> {
    let mut cfg = ExploreConfig::new(metric, 1, generator);
    cfg.run.budget = Some(budget);
    explore_best(mechanism, &cfg)
}

/// `explore --family F --metric M --users U --resources R`: every point of the family once
/// (exhaustive, no local search) when `budget` is `None`, else a run of `budget` scenarios
/// with the local search.
fn family_run(
    metric: MetricName,
    family: Family,
    users: std::ops::RangeInclusive<usize>,
    resources: std::ops::RangeInclusive<usize>,
    budget: Option<u64>,
) -> ExploreConfig {
    let mut g = GeneratorConfig::new();
    g.users = users;
    g.resources = resources;
    let mut cfg = ExploreConfig::new(metric, 1, g);
    cfg.family = Some(family);
    cfg.run.budget = budget;
    if budget.is_none() {
        cfg.run.strategy = Strategy::Exhaustive;
        cfg.local = 0;
    }
    cfg
}

/// The command line's default domain (`--users 2..4 --resources 2..3 --zeros 1/3`).
fn cli_generator() -> Result<GeneratorConfig, CliError> {
    let mut g = GeneratorConfig::new();
    g.users = 2..=4;
    g.resources = 2..=3;
    g.zeros = leontief_counterexamples::instance_generator::Chance::new(1, 3)
        .ok_or_else(|| CliError::Internal("1/3 is a probability".into()))?;
    Ok(g)
}

/// `F(k, m)` of a pps record's family parameters.
fn pps_point(record: &Value) -> String {
    let p = &record["family"]["params"];
    format!("F({}, {})", p["k"], p["m"])
}

fn record_value(record: &Value) -> Result<Rational, CliError> {
    rational_at(&record["value"], || {
        format!("a record without a value: {record}")
    })
}

/// The exact number written as the string `v`; else the internal error `what` says.
fn rational_at(v: &Value, what: impl FnOnce() -> String) -> Result<Rational, CliError> {
    v.as_str()
        .and_then(|t| t.parse().ok())
        .ok_or_else(|| CliError::Internal(what()))
}

/// A record's value: the exact number when the record has one (`"exact": true`, rational or
/// algebraic), else its certified interval.
enum RecordValue {
    Exact(leontief_solver::algebraic::RealAlgebraic),
    Interval(Rational, Rational),
}

impl RecordValue {
    fn of(record: &Value) -> Result<RecordValue, CliError> {
        if let Some(i) = record["interval"].as_array() {
            let end = |k: usize| rational_at(&i[k], || "interval".into());
            return Ok(RecordValue::Interval(end(0)?, end(1)?));
        }
        leontief_counterexamples::explore::exact::read_exact("value", &record["value"])?
            .map(RecordValue::Exact)
            .ok_or_else(|| CliError::Internal(format!("a record without a value: {record}")))
    }

    /// How the value certainly compares with `r` (`None`: an interval around `r`).
    fn cmp(&self, r: &Rational) -> Option<Ordering> {
        match self {
            RecordValue::Exact(x) => Some(x.cmp_rational(&r.to_big())),
            RecordValue::Interval(_, hi) if hi < r => Some(Ordering::Less),
            RecordValue::Interval(lo, _) if lo > r => Some(Ordering::Greater),
            RecordValue::Interval(..) => None,
        }
    }

    /// The exact number (its closed form and 9 decimals), or the interval to 9 decimals.
    fn show(&self) -> String {
        let limits = leontief_solver::algebraic::Limits::default();
        match self {
            RecordValue::Exact(x) => {
                let digits = x.to_decimal(9, &limits).unwrap_or_default();
                match (x.as_rational(), x.closed_form()) {
                    (Some(r), _) => Rational::from_big(r.clone()).to_string(),
                    (None, Ok(c)) => format!("{c} = {digits}..."),
                    (None, Err(_)) => format!("{digits}... (degree {})", x.degree()),
                }
            }
            RecordValue::Interval(lo, hi) => {
                let show = |x: &Rational| leontief_counterexamples::explore::record::decimal(x, 9);
                format!("[{}, {}]", show(lo), show(hi))
            }
        }
    }
}

/// A metric's evaluation on one scenario of an instance, in the given utility.
fn metric_in(
    mechanism: &dyn Mechanism,
    metric: MetricName,
    instance: Instance,
    scenario: leontief_solver::properties::Scenario,
    utility: Utility,
) -> Result<leontief_counterexamples::explore::Evaluation, CliError> {
    let c = leontief_counterexamples::candidate::Candidate::new(instance, scenario);
    let truth = mechanism.allocate(&c.instance)?;
    metric
        .metric()
        .at(&leontief_counterexamples::explore::At::new(
            mechanism, &c, &truth, utility,
        ))?
        .ok_or_else(|| CliError::Internal("the scenario has no value".into()))
}

/// A metric's value on one scenario of an instance, in tasks.
fn metric_at(
    mechanism: &dyn Mechanism,
    metric: MetricName,
    instance: Instance,
    scenario: leontief_solver::properties::Scenario,
) -> Result<Rational, CliError> {
    Ok(metric_in(mechanism, metric, instance, scenario, Utility::Tasks)?.value)
}

/// DRF's welfare ratio on `F(k, m)`, in dominant shares.
fn drf_welfare_on_pps(k: usize, m: usize) -> Result<Rational, CliError> {
    Ok(metric_in(
        &Drf::extended(),
        MetricName::WelfareRatio,
        // F(k, m): capacities 1, k users <1, ..., 1>, m users each demanding one resource.
        Family::Pps.instance(
            Point { n: k + m, k, m },
            &GeneratorConfig::new(),
            &mut SplitMix64::new(0),
        ),
        leontief_solver::properties::Scenario::Bounded,
        Utility::DominantShare,
    )?
    .value)
}

pub(super) fn explore_drf_sp() -> Result<Vec<Check>, CliError> {
    let drf = Drf::extended();
    let best = best_within(&drf, MetricName::SpGain, GeneratorConfig::new(), 20_000)?;
    Ok(vec![Check::exact(
        "largest gain found (20,000 scenarios)",
        &record_value(&best)?,
        "1",
    )])
}

pub(super) fn explore_drf_rm() -> Result<Vec<Check>, CliError> {
    use leontief_solver::properties::Scenario;
    let (case, inst) = reference_case("drf-not-rm")?;
    let capacity = leontief_solver::read_numbers("after_capacity", &case["after_capacity"])?;
    // The source's loss: A's tasks after over before.
    let tasks = |k: &str| rational_at(&case[k]["A"], || format!("drf-not-rm: {k}.A"));
    let source = &tasks("tasks_after")? / &tasks("tasks")?;
    let ours = metric_at(
        &Drf::extended(),
        MetricName::RmLoss,
        inst,
        Scenario::Capacity(capacity),
    )?;
    let mut g = GeneratorConfig::new();
    g.users = 2..=2;
    g.resources = 2..=2;
    let found = record_value(&best_within(
        &Drf::extended(),
        MetricName::RmLoss,
        g,
        5_000,
    )?)?;
    Ok(vec![
        Check::exact("rm-loss of the paper's growth", &ours, &source.to_string()),
        Check::new(
            "record of a run on 2 users, 2 resources (5,000 scenarios)",
            found <= source,
            found,
            format!("at most {source}"),
        ),
    ])
}

pub(super) fn explore_ceei_sp() -> Result<Vec<Check>, CliError> {
    use leontief_solver::properties::Scenario;
    let (case, inst) = reference_case("ceei-not-sp")?;
    let tasks = |v: &Value| rational_at(&v["1"], || "ceei-not-sp: user 1's tasks".into());
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
    let best = best_within(&ceei, MetricName::SpGain, GeneratorConfig::new(), 20_000)?;
    let best = RecordValue::of(&best)?;
    Ok(vec![
        Check::exact("gain of the paper's lie", &ours, &source.to_string()),
        Check {
            what: "gain found from a cold start (20,000 scenarios), exact or certified".into(),
            computed: best.show(),
            source: "above 1 (CEEI is not strategy-proof)".into(),
            ok: best.cmp(&Rational::ONE) == Some(Ordering::Greater),
        },
        Check {
            what: "gain found, against the incentive ratio".into(),
            computed: best.show(),
            source: "below 2 (incentive ratio)".into(),
            ok: best.cmp(&Rational::from(2)) == Some(Ordering::Less),
        },
    ])
}

pub(super) fn explore_asset_si() -> Result<Vec<Check>, CliError> {
    use leontief_solver::properties::Scenario;
    let (case, inst) = reference_case("asset-violates-si")?;
    let tasks = rational_at(&case["tasks"]["2"], || "asset-violates-si: tasks.2".into())?;
    // Half of (30, 30) runs 15 tasks of <1, 1>.
    let source = &tasks / &Rational::from(15);
    let ours = metric_at(&AssetFairness, MetricName::SiGap, inst, Scenario::Bounded)?;
    // `explore --mechanism asset --metric si-gap --budget 5000 --seed 1`.
    let found = best_within(&AssetFairness, MetricName::SiGap, cli_generator()?, 5_000)?;
    let found = record_value(&found)?;
    Ok(vec![
        Check::exact(
            "si-gap (user 2: its tasks over its equal split's)",
            &ours,
            &source.to_string(),
        ),
        Check::new(
            "record of a cold-start run (5,000 scenarios)",
            found <= source,
            found,
            format!("at most {source} (a violation at least as large as the paper's)"),
        ),
    ])
}

pub(super) fn explore_ceei_pm() -> Result<Vec<Check>, CliError> {
    use leontief_solver::properties::Scenario;
    let (case, inst) = reference_case("ceei-not-pm")?;
    let leaving = inst
        .user_index(case["after_removing"].as_str().unwrap_or_default())
        .ok_or_else(|| CliError::Internal("ceei-not-pm: after_removing".into()))?;
    let after = rational_at(&case["tasks_after"]["2"], || {
        "ceei-not-pm: tasks_after.2".into()
    })?;
    let (source_lo, source_hi, source) = printed_pm_ratio(&case, &after)?;
    let ceei = leontief_solver::ceei::Ceei::new();
    let departure = Scenario::Remove(leaving);
    let exact_ratio = super::flat::exact_pm_ratio(&case, &inst)?;
    let e = metric_in(&ceei, MetricName::PmLoss, inst, departure, Utility::Tasks)?;
    Ok(vec![
        Check {
            what: "pm-loss of user 3 leaving (certified interval)".into(),
            computed: RecordValue::Interval(e.lo.clone(), e.hi.clone()).show(),
            source,
            ok: !e.exact && e.lo <= source_hi && e.hi >= source_lo,
        },
        Check {
            what: "certified upper end of the loss".into(),
            computed: leontief_counterexamples::explore::record::decimal(&e.hi, 9),
            source: "below 1 (CEEI is not population monotonic)".into(),
            ok: e.hi < Rational::ONE,
        },
        exact_ratio,
        found_loss(&ceei, &source_lo)?,
    ])
}

/// The paper's ratio of user 2's tasks `after` user 3 leaves over its tasks before, which it
/// gives to 5 decimals (5.35137 ± 0.000005, read exactly from the JSON number's text): the
/// interval that allows, and how the source shows it.
pub(super) fn printed_pm_ratio(
    case: &Value,
    after: &Rational,
) -> Result<(Rational, Rational, String), CliError> {
    let printed = leontief_solver::read_number("tasks_approx.2", &case["tasks_approx"]["2"])?;
    let half = Rational::new(5, 1_000_000).unwrap_or_default();
    let (lo, hi) = (after / &(&printed + &half), after / &(&printed - &half));
    let shown = format!(
        "({after}) / {} = {}",
        leontief_counterexamples::explore::record::decimal(&printed, 5),
        RecordValue::Interval(lo.clone(), hi.clone()).show()
    );
    Ok((lo, hi, shown))
}

/// `explore --mechanism ceei --metric pm-loss --users 3..3 --resources 2..2 --budget 5000
/// --seed 1`: the certified interval of the record on instances of the paper's size (3 users,
/// 2 resources), against the paper's loss.
fn found_loss(ceei: &dyn Mechanism, source_lo: &Rational) -> Result<Check, CliError> {
    let mut generator = cli_generator()?;
    generator.users = 3..=3;
    generator.resources = 2..=2;
    let best = RecordValue::of(&best_within(ceei, MetricName::PmLoss, generator, 5_000)?)?;
    let show = |x: &Rational| leontief_counterexamples::explore::record::decimal(x, 9);
    Ok(Check {
        what: "record of a cold-start run on 3 users, 2 resources (5,000 scenarios), exact".into(),
        computed: best.show(),
        source: format!(
            "the paper's loss on 3 users and 2 resources is {}: a larger loss (below it)",
            show(source_lo)
        ),
        ok: best.cmp(source_lo) == Some(Ordering::Less),
    })
}

pub(super) fn explore_drf_welfare() -> Result<Vec<Check>, CliError> {
    // DRF raises all k + m users to one share t with k t + t = 1 on every resource:
    // welfare (k + m)/(k + 1); the optimum gives each specialist its resource: m. The
    // ratio m (k + 1)/(k + m) tends to m as k grows.
    let drf = Drf::extended();
    let mut checks = Vec::new();
    for (k, m) in [(1usize, 2usize), (3, 2), (10, 3), (50, 4)] {
        let ours = drf_welfare_on_pps(k, m)?;
        let formula = Rational::new((m * (k + 1)) as i128, (k + m) as i128)
            .ok_or_else(|| CliError::Internal("k + m is positive".into()))?;
        checks.push(Check::exact(
            format!("welfare-ratio on F({k}, {m}), against m(k+1)/(k+m)"),
            &ours,
            &formula.to_string(),
        ));
        let bound = Rational::from(m as i64);
        checks.push(Check::new(
            format!("welfare-ratio on F({k}, {m}), against the bound m"),
            ours < bound,
            ours,
            format!("below {m}"),
        ));
    }
    // explore over the whole family, n <= 54 and m <= 4: m (k + 1)/(k + m) grows with k and
    // with m, so the record is the largest point, F(50, 4), 34/9.
    let cfg = family_run(MetricName::WelfareRatio, Family::Pps, 3..=54, 2..=4, None);
    let best = explore_best(&drf, &cfg)?;
    let found = record_value(&best)?;
    checks.push(Check::exact(
        format!(
            "record of explore --family pps (n <= 54, m <= 4), at {}",
            pps_point(&best)
        ),
        &found,
        "34/9",
    ));
    Ok(checks)
}

pub(super) fn explore_drf_pof() -> Result<Vec<Check>, CliError> {
    // On F(k, m) DRF's ratio is m (k + 1)/(k + m) (see explore_drf_welfare). With n odd,
    // k = (n - 1)/2 and m = (n + 1)/2 there are n = k + m users and k + 1 = m, so the ratio
    // is m^2 / n = (n + 1)^2 / (4n): exactly the bound on the price of max-min fairness when
    // every user alone reaches the same utility (in dominant shares every user alone reaches
    // 1, and DRF is the max-min fair allocation).
    let drf = Drf::extended();
    let mut checks = Vec::new();
    for (n, k, m) in [(3usize, 1usize, 2usize), (5, 2, 3), (7, 3, 4), (9, 4, 5)] {
        let ours = drf_welfare_on_pps(k, m)?;
        let bound = Rational::new(((n + 1) * (n + 1)) as i128, (4 * n) as i128)
            .ok_or_else(|| CliError::Internal("n is positive".into()))?;
        checks.push(Check::exact(
            format!("welfare-ratio of DRF on F({k}, {m}), n = {n}, against (n+1)^2/(4n)"),
            &ours,
            &bound.to_string(),
        ));
        // explore over every F(n - m', m'), m' < n: the record is the bound, at m' = m.
        let cfg = family_run(
            MetricName::WelfareRatio,
            Family::Pps,
            n..=n,
            1..=n - 1,
            None,
        );
        let best = explore_best(&drf, &cfg)?;
        checks.push(Check::exact(
            format!(
                "record of explore --family pps --users {n}, at {}",
                pps_point(&best)
            ),
            &record_value(&best)?,
            &bound.to_string(),
        ));
    }
    Ok(checks)
}

pub(super) fn explore_ceei_pof() -> Result<Vec<Check>, CliError> {
    // Bertsimas, Farias and Trichakis: when every player's largest achievable utility is
    // the same, the proportionally fair allocation keeps at least (2√n − 1)/n of the
    // utilitarian optimum, tight when √n is an integer. In dominant shares every user alone
    // reaches 1, and CEEI maximizes Σ log x_i = Σ log u_i − Σ log μ_i: it is the
    // proportionally fair allocation. On F(n − r, r), r = √n, CEEI gives the n − r users
    // <1,...,1> x tasks each and the r specialists y each, with (n − r) x + y = 1 on every
    // resource; maximizing (n − r) log x + r log y (multiplier λ: x = 1/λ, y = r/λ, so
    // λ = n) gives x = 1/n, y = r/n. Every μ_i is 1, so the welfare is
    // (n − r)/n + r · r/n = (2n − r)/n; the optimum gives each specialist its resource, r.
    // The ratio is r n/(2n − r) = n/(2r − 1) (r² = n): 4/3 at n = 4, 9/5 at n = 9.
    let ceei = leontief_solver::ceei::Ceei::new();
    let mut checks = Vec::new();
    for (n, r) in [(4usize, 2usize), (9, 3)] {
        let cfg = family_run(
            MetricName::WelfareRatio,
            Family::Pps,
            n..=n,
            1..=n - 1,
            Some(200),
        );
        let best = explore_best(&ceei, &cfg)?;
        let bound = Rational::new(n as i128, (2 * r - 1) as i128)
            .ok_or_else(|| CliError::Internal("2r - 1 is positive".into()))?;
        checks.push(Check::exact(
            format!("record of explore --family pps --users {n} (200 scenarios), n/(2√n − 1)"),
            &record_value(&best)?,
            &bound.to_string(),
        ));
        checks.push(Check::text(
            format!("its point, F(n − √n, √n) at n = {n}"),
            pps_point(&best),
            &format!("F({}, {r})", n - r),
        ));
    }
    Ok(checks)
}

pub(super) fn explore_drf_discrete() -> Result<Vec<Check>, CliError> {
    // Theorem 7 of the DRF paper bounds the pairwise difference of discrete and fluid
    // allocations by one max-task (docs/explore.md §3.9): discrete-gap <= 1. It holds on one
    // resource (and on several when every demand is positive), and the bound is attained; on
    // two resources with zero demands (the command line's --zeros 1/3) the paper's stop rule
    // (stop when the least user's task does not fit) leaves a user far below its fluid share.
    let dd = leontief_solver::DiscreteDrf::paper();
    // `explore --mechanism discrete-drf --metric discrete-gap --users 2..3 --resources R
    //  --budget 500 --seed 1` (the command line's --zeros 1/3).
    let run = |resources: std::ops::RangeInclusive<usize>| -> Result<Value, CliError> {
        let mut g = cli_generator()?;
        g.users = 2..=3;
        g.resources = resources;
        best_within(&dd, MetricName::DiscreteGap, g, 500)
    };
    let one = record_value(&run(1..=1)?)?;
    let two = record_value(&run(2..=2)?)?;
    Ok(vec![
        Check::exact(
            "record on one resource (500 scenarios): the bound, attained",
            &one,
            "1",
        ),
        Check::new(
            "record on two resources with zero demands (500 scenarios), in max-tasks",
            two > Rational::ONE,
            two,
            "at most 1 under the theorem's hypotheses; above 1 once zero demands are allowed",
        ),
    ])
}
