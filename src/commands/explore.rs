//! `leontief explore`: maximize (or minimize) a metric over generated instances — the
//! search's instance space and flags, an optimizer instead of a yes/no hunt. JSONL records
//! out, one per improvement, flushed as found, the last marked `"best": true`; a summary on
//! standard error (docs/explore.md).

use std::time::Duration;

use clap::Args;
use leontief_counterexamples::explore::exact::read_exact;
use leontief_counterexamples::explore::knife::Knife;
use leontief_counterexamples::explore::{
    explore, explore_with, wire, Direction, Evaluator, ExploreConfig, ExploreSummary, Family,
    Found, MetricName, RoundEvaluator, Utility, WorkItem,
};
use leontief_counterexamples::prove::{self, Goal, Solver, Statement};
use leontief_counterexamples::space::Strategy;
use leontief_solver::registry::Descriptor;
use leontief_solver::{read_number, Rational, SolverError};
use serde::Serialize;
use serde_json::Value;

use crate::cli::CliError;
use crate::commands::flags::{Domain, MechanismParser, NameParser, SpaceFlags};
use crate::commands::search::summary_tail;
use crate::commands::{to_value, usage, with_jsonl_out};
use crate::output::finish_json;
use crate::workers::{progress, thread_pool};

/// The flags of `leontief explore`.
#[derive(Debug, Clone, Args)]
pub struct ExploreArgs {
    /// The mechanism.
    #[arg(long, default_value = "drf", value_parser = MechanismParser)]
    pub mechanism: &'static Descriptor,
    /// The metric to optimize (direction and definition in docs/explore.md).
    #[arg(long, required = true, value_parser = NameParser::<MetricName>::new("metric").with_help(MetricName::description))]
    pub metric: MetricName,
    /// How utilities are measured before the ratio: tasks, or dominant share with
    /// capacities scaled to 1 (default: tasks, except dominant-share for welfare-ratio and
    /// fair-welfare-ratio; the per-user ratios differ only for rm-loss, whose capacities
    /// change; refused for discrete-gap and sg-deficit, ratios of dominant shares either way,
    /// and for starvation, a ratio of times).
    #[arg(long, value_parser = NameParser::<Utility>::new("utility"))]
    pub utility: Option<Utility>,
    /// Which seed instances: grid and random interleaved, random only, or exhaustive: every
    /// instance of the value grid once, each measured on its grid scenarios alone (grid
    /// lies, grid joiners, the capacity grid's growths; no random scenario, no climb), then
    /// stop: the record is the grid's extreme.
    #[arg(long, default_value = "combined", value_parser = NameParser::<Strategy>::new("strategy"))]
    pub strategy: Strategy,
    /// Local-search tasks per round (restarts from the best instances; 0: sampling only).
    /// Default 32, and 0 with --strategy exhaustive: asked for there, its records leave the
    /// grid and say so ("off_grid": true).
    #[arg(long)]
    pub local: Option<usize>,
    /// Which knife-edge strata each evaluation searches (docs/explore.md §5.1): off; the
    /// lie lines of sp-gain and gsp-gain on the instance and its tightened instance; or all
    /// (default): also ties of a user's two largest shares and, with --caps, caps that just
    /// bind, for every metric but starvation (the others' in local tasks).
    #[arg(long, value_parser = NameParser::<Knife>::new("knife-edge strata"))]
    pub knife: Option<Knife>,
    /// Report improvements as found, without shrinking them.
    #[arg(long)]
    pub no_shrink: bool,
    /// Seeds from a parametric family over the --users and --resources ranges, with local
    /// moves that change a kind's demand vector for all its users at once (docs/explore.md
    /// §5); records carry "family". Flat, unweighted, uncapped: --pools, --weights and
    /// --caps do not apply, nor --zeros to pps.
    #[arg(long, value_parser = NameParser::<Family>::new("family").with_help(Family::description))]
    pub family: Option<Family>,
    /// After the run, ask `prove` whether any instance of the best record's size (its users
    /// and resources, one user more for a join; the run's demand domain, weights and caps)
    /// beats it: the best record then carries "certified": "maximum" (or "minimum"), "not
    /// maximum" (or "not minimum", with "certification"."better", prove's counterexample)
    /// or "unknown" (with the open cases). Encoded: sp-gain, gsp-gain, welfare-ratio
    /// (dominant shares), pm-loss and rm-loss (tasks) of drf, drf-common-level, asset and ceei,
    /// on flat instances; z3 as for
    /// prove ($LEONTIEF_Z3, else on PATH), 60 s per case.
    #[arg(long)]
    pub certify: bool,
    /// How instances are drawn, where the run stops, threads, output and numbers.
    #[command(flatten)]
    pub space: SpaceFlags,
}

/// `explore`'s configuration, validated.
struct Config {
    mechanism: &'static Descriptor,
    explore: ExploreConfig,
    domain: Domain,
    certify: Option<Certify>,
}

/// What `--certify` asks `prove`: the statement "no instance of the record's size beats its
/// value", on the run's domain.
#[derive(Debug, Clone)]
struct Certify {
    mechanism: prove::ProvedMechanism,
    metric: MetricName,
    /// Demands strictly positive: `--zeros 0` and no grid value 0 (the grid's vectors keep
    /// their zeros whatever `--zeros` says).
    positive: bool,
    weights: bool,
    caps: bool,
}

/// The time limit of one case of a certification (prove's default).
const CERTIFY_CASE_TIME: Duration = Duration::from_secs(60);

impl Certify {
    /// The statement for a record with `users` users and `resources` resources and value
    /// `value`: the metric is at most `value` everywhere.
    fn statement(
        &self,
        users: usize,
        resources: usize,
        value: Rational,
    ) -> Result<Statement, SolverError> {
        // `Certify::new` admitted only metrics with an encoding.
        let goal = Goal::bounding(self.metric, value).ok_or_else(|| {
            SolverError::invalid(
                "--metric",
                format!("{} has no encoding for prove", self.metric),
            )
        })?;
        Statement::new(
            self.mechanism,
            goal,
            users,
            resources,
            self.positive,
            self.weights,
            self.caps,
            None,
        )
    }

    /// The refusal of a run `--certify` cannot certify, naming the flag that stands in the way.
    fn new(args: &ExploreArgs, cfg: &ExploreConfig, domain: &Domain) -> Result<Self, CliError> {
        let refuse = |flag: &str, why: String| Err(usage(format!("--certify: {why} ({flag})")));
        let mechanism = match args.mechanism.name.parse::<prove::ProvedMechanism>() {
            Ok(m) => m,
            Err(SolverError::Invalid { reason, .. }) => return refuse("--mechanism", reason),
            Err(e) => return Err(e.into()),
        };
        match args.metric {
            MetricName::SpGain | MetricName::GspGain | MetricName::PmLoss => {}
            MetricName::WelfareRatio if cfg.utility == Utility::DominantShare => {}
            MetricName::WelfareRatio => {
                return refuse(
                    "--utility",
                    "welfare-ratio is encoded in dominant shares only".into(),
                )
            }
            // Capacities grow, so the two utilities differ; the encoding compares tasks.
            MetricName::RmLoss if cfg.utility == Utility::Tasks => {}
            MetricName::RmLoss => {
                return refuse("--utility", "rm-loss is encoded in tasks only".into())
            }
            other => {
                return refuse(
                    "--metric",
                    format!(
                        "{other} has no encoding for prove; encoded: sp-gain, gsp-gain, \
                         welfare-ratio, pm-loss, rm-loss"
                    ),
                )
            }
        }
        let g = &domain.generator;
        if g.pools.is_some() {
            return refuse("--pools", "prove's instances are flat".into());
        }
        // prove decides hdrf:collapsed on every tree, that is on any leaf weights: a run
        // without them would be certified on a larger domain than its own.
        if mechanism.on_every_tree() && !g.weights {
            return refuse(
                "--weights",
                format!(
                    "prove decides {} on every tree, that is on any leaf weights; run with \
                     --weights",
                    mechanism.name()
                ),
            );
        }
        // pm-loss's joins compare the instance with one user more.
        let joiner = usize::from(args.metric == MetricName::PmLoss);
        if g.users.end() + joiner > prove::statement::MAX_USERS {
            return refuse(
                "--users",
                format!(
                    "prove takes at most {} users{}",
                    prove::statement::MAX_USERS,
                    if joiner == 1 {
                        " (pm-loss's joins make one more)"
                    } else {
                        ""
                    }
                ),
            );
        }
        if *g.resources.end() > prove::statement::MAX_RESOURCES {
            return refuse(
                "--resources",
                format!(
                    "prove takes at most {} resources",
                    prove::statement::MAX_RESOURCES
                ),
            );
        }
        let grid = args.strategy != Strategy::Random || args.family.is_some();
        let positive = domain.zeros.is_zero()
            && args.family.is_none()
            && !(grid && cfg.run.values.iter().any(Rational::is_zero));
        let certify = Certify {
            mechanism,
            metric: args.metric,
            positive,
            weights: g.weights,
            caps: g.caps,
        };
        // Every size the run can record must make a statement prove accepts.
        for users in g.users.clone() {
            for resources in g.resources.clone() {
                let users = (users + joiner).max(2);
                if let Err(e) = certify.statement(users, resources.max(1), Rational::ONE) {
                    return Err(usage(format!("--certify: {e}")));
                }
            }
        }
        Ok(certify)
    }

    /// `record` with the certification added: "certified" and "certification".
    fn certify(&self, record: &Value, solver: &Solver) -> Value {
        let mut out = record.clone();
        let (verdict, detail) = match self.decide(record, solver) {
            Ok(decided) => decided,
            Err(reason) => ("unknown", to_value(&Undecided { reason })),
        };
        if let Some(o) = out.as_object_mut() {
            o.insert("certified".into(), Value::from(verdict));
            o.insert("certification".into(), detail);
        }
        out
    }

    fn decide(&self, record: &Value, solver: &Solver) -> Result<(&'static str, Value), String> {
        let inst = &record["instance"];
        // A join compares the instance with one user more: prove's populations are the
        // larger ones.
        let joined = usize::from(record["witness"].get("joined").is_some());
        let users = inst["users"].as_array().map_or(0, Vec::len) + joined;
        let resources = inst["capacity"].as_array().map_or(0, Vec::len);
        let direction = self.metric.metric().direction();
        // The value a better record must beat: the exact value when the record has one (an
        // irrational one declared exactly in the scripts), else the end of the record's
        // interval worst for the claim.
        let statement = if record["exact"] == Value::Bool(false) {
            let end = &record["interval"][usize::from(direction == Direction::Min)];
            let value = read_number("value", end).map_err(|e| e.to_string())?;
            self.statement(users, resources, value)
                .map_err(|e| e.to_string())?
        } else {
            let exact = read_exact("value", &record["value"])
                .map_err(|e| e.to_string())?
                .ok_or_else(|| "the record has no value".to_string())?;
            self.statement(users, resources, Rational::ONE)
                .and_then(|s| s.with_exact_bound(exact))
                .map_err(|e| e.to_string())?
        };
        let options = prove::Options {
            time: CERTIFY_CASE_TIME,
            emit_smt: None,
        };
        let proof = prove::prove(&statement, solver, &options).map_err(|e| e.to_string())?;
        // The proof's claim, domain, split, verdict and what it rests on, as `prove` writes
        // them (it writes all five), in this fixed order whatever the order of its document;
        // then the cases and the solver; the better record of a refutation, or the cases left
        // open.
        let mut full = proof.to_json(&statement);
        let mut detail: serde_json::Map<String, Value> =
            ["claim", "domain", "split", "verdict", "rests_on"]
                .into_iter()
                .map(|key| {
                    (
                        key.to_string(),
                        full.get_mut(key).map_or(Value::Null, Value::take),
                    )
                })
                .collect();
        detail.insert("cases".into(), Value::from(proof.cases.len()));
        detail.insert("solver".into(), Value::from(proof.solver.to_string()));
        let max = direction == Direction::Max;
        let verdict = match &proof.verdict {
            prove::Verdict::Proved if max => "maximum",
            prove::Verdict::Proved => "minimum",
            prove::Verdict::Refuted(better) => {
                detail.insert("better".into(), (**better).clone());
                if max {
                    "not maximum"
                } else {
                    "not minimum"
                }
            }
            prove::Verdict::Unknown(open) => {
                detail.insert("open".into(), to_value(open));
                "unknown"
            }
        };
        Ok((verdict, Value::Object(detail)))
    }
}

/// A certification that could not be decided, and why.
#[derive(Serialize)]
struct Undecided {
    reason: String,
}

fn config(args: &ExploreArgs) -> Result<Config, CliError> {
    let metric = args.metric.metric();
    metric.applies_to(args.mechanism).map_err(|reason| {
        usage(format!(
            "--metric: {} does not apply to {}: {reason}",
            metric.name(),
            args.mechanism.name
        ))
    })?;
    if args.utility.is_some() && !args.metric.info().uses_utility {
        return Err(usage(format!(
            "--utility: {} is a ratio of {}; --utility does not apply",
            metric.name(),
            args.metric.info().ratio_of
        )));
    }
    if args.knife.is_some() && args.metric == MetricName::Starvation {
        return Err(usage(
            "--knife: starvation simulates workloads and searches no knife-edge strata; \
             --knife does not apply",
        ));
    }
    let domain = args.space.generator.domain(true)?;
    if let Some(f) = args.family {
        family_conflicts(args, f)?;
        f.check(&domain.generator)?;
    }
    let mut cfg = ExploreConfig::new(
        args.metric,
        args.space.generator.seed,
        domain.generator.clone(),
    );
    cfg.utility = args.utility.unwrap_or(args.metric.info().default_utility);
    args.space.limit(&mut cfg.run, &domain, args.strategy)?;
    cfg.local = args.local.unwrap_or(match args.strategy {
        Strategy::Exhaustive => 0,
        _ => 32,
    });
    cfg.family = args.family;
    cfg.knife = args.knife.unwrap_or(Knife::All);
    if args.no_shrink {
        cfg.shrink = None;
    }
    let certify = if args.certify {
        Some(Certify::new(args, &cfg, &domain)?)
    } else {
        None
    };
    Ok(Config {
        mechanism: args.mechanism,
        explore: cfg,
        domain,
        certify,
    })
}

/// `--zeros`'s default (GeneratorFlags): any other value was asked for.
const DEFAULT_ZEROS: &str = "1/3";

/// The flags a family leaves no room for, refused by name.
fn family_conflicts(args: &ExploreArgs, f: Family) -> Result<(), CliError> {
    let g = &args.space.generator;
    let refuse = |flag: &str, why: &str| Err(usage(format!("{flag}: {why} with --family {f}")));
    if g.pools.is_some() {
        return refuse("--pools", "families are flat (no pools)");
    }
    if g.weights {
        return refuse("--weights", "families are unweighted");
    }
    if g.caps {
        return refuse("--caps", "families are uncapped");
    }
    if f == Family::Pps && g.zeros.trim() != DEFAULT_ZEROS {
        return refuse(
            "--zeros",
            "pps's demands are fixed (<1,...,1> and single-resource users); it does not apply",
        );
    }
    if f == Family::TwoKinds && args.strategy == Strategy::Exhaustive {
        return refuse(
            "--strategy",
            "two-kinds draws its demand vectors at random; exhaustive does not apply",
        );
    }
    if args.metric == MetricName::SgDeficit {
        return refuse(
            "--metric",
            "sg-deficit measures trees and families are flat",
        );
    }
    Ok(())
}

/// Runs `leontief explore`. The records go to `--out` or standard output as they are found.
pub fn run(args: ExploreArgs) -> Result<String, CliError> {
    with_jsonl_out(args.space.run.out.as_deref(), |on_record, ready| {
        run_with(&args, None, on_record, ready).map(|summary| vec![summary])
    })
}

/// A [`RoundEvaluator`] over a [`Transport`]: every item encoded (checked to read back
/// equal), every result decoded; the first failure is kept for the error message.
struct Remote<'t, 'a> {
    transport: &'t mut Transport<'a>,
    failure: Option<String>,
}

impl Remote<'_, '_> {
    fn round(&mut self, items: &[WorkItem]) -> Result<Vec<Found>, String> {
        let sent = items
            .iter()
            .map(|i| wire::item_to_json_checked(i).map(|v| v.to_string()))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| e.to_string())?;
        let back = (self.transport)(sent)?;
        if back.len() != items.len() {
            return Err(format!(
                "{} results for {} work items",
                back.len(),
                items.len()
            ));
        }
        back.iter()
            .map(|text| {
                let v: Value = serde_json::from_str(text).map_err(|e| format!("a result: {e}"))?;
                wire::found_from_json(&v).map_err(|e| e.to_string())
            })
            .collect()
    }
}

impl RoundEvaluator for Remote<'_, '_> {
    fn evaluate_round(&mut self, items: &[WorkItem]) -> std::io::Result<Vec<Found>> {
        self.round(items).map_err(|e| {
            self.failure.get_or_insert(e.clone());
            std::io::Error::other(e)
        })
    }
}

/// Carries a round's work items elsewhere and their results back: each item's serialized
/// form as JSON text ([`wire::item_to_json_checked`]) in, one result's per item, in order, out
/// ([`wire::found_to_json_checked`], e.g. from [`evaluate_items_until`] run on other machines with the
/// same flags); `Err(message)` stops the run.
pub type Transport<'a> = dyn FnMut(Vec<String>) -> Result<Vec<String>, String> + Send + 'a;

/// The work of `leontief explore` with the records handed to `on_record` as found (with
/// the numbers as `--decimals` asks) instead of written; `ready` runs once the flags are
/// validated, before the work. Returns the summary as the CLI prints it on standard error.
/// Stops early (by `cancelled`) when [`crate::workers::with_cancel`]'s flag is set.
///
/// With a `transport` (the Python package's `leontief.ray.explore`), the rounds' work items
/// are evaluated through it: the same records and summary as without when the transport
/// returns what [`evaluate_items_until`] does with the same flags. The driver (merging,
/// shrinking, re-derivation, budget, time, cancel) runs here; `time` is checked between
/// rounds.
///
/// # Errors
/// Invalid flags, a failed write; a transport failure, or a result that does not read back,
/// stops the run with an internal error naming it.
pub fn run_with(
    args: &ExploreArgs,
    transport: Option<&mut Transport<'_>>,
    on_record: &mut (dyn FnMut(&Value) -> std::io::Result<()> + Send),
    ready: &dyn Fn() -> Result<(), CliError>,
) -> Result<String, CliError> {
    let numbers = args.space.numbers.numbers()?;
    let cfg = config(args)?;
    let mech = cfg.mechanism.build();
    let pool = thread_pool(args.space.run.threads)?;
    // The solver is looked for before the run, so that a missing one stops it at once.
    let solver = match &cfg.certify {
        Some(_) => Some(Solver::find(None).map_err(|e| usage(format!("--certify: {e}")))?),
        None => None,
    };
    ready()?;
    let bar = progress(None);
    let metric = cfg.explore.metric;
    let tick = |s: &ExploreSummary| {
        let secs = s.elapsed.as_secs_f64().max(1e-9);
        bar.set_message(format!(
            "{metric}: {} evaluations, {} scenarios ({:.0}/s), best {}",
            s.evaluations,
            s.scenarios,
            s.scenarios as f64 / secs,
            s.best.as_ref().map_or("-".to_string(), ToString::to_string),
        ));
        bar.tick();
    };
    let certify = cfg.certify.clone();
    let mut on_finished = |r: &Value| {
        let r = match (&certify, &solver) {
            (Some(c), Some(solver)) if r["best"] == Value::Bool(true) => c.certify(r, solver),
            _ => r.clone(),
        };
        on_record(&finish_json(r, numbers))
    };
    let mut remote = transport.map(|transport| Remote {
        transport,
        failure: None,
    });
    let result = pool.install(|| match remote.as_mut() {
        None => explore(mech.as_ref(), &cfg.explore, &mut on_finished, &tick),
        Some(r) => explore_with(mech.as_ref(), &cfg.explore, r, &mut on_finished, &tick),
    });
    bar.finish_and_clear();
    if let Some(why) = remote.and_then(|r| r.failure) {
        return Err(CliError::Internal(format!(
            "explore: evaluating a round: {why}"
        )));
    }
    let summary = result.map_err(|e| CliError::Internal(format!("writing output: {e}")))?;
    Ok(summary_text(&cfg, &summary))
}

/// How far a stopped [`evaluate_items_until`] got.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stopped {
    /// Items evaluated before the stop (each one in full).
    pub evaluated: usize,
    /// Items given.
    pub total: usize,
}

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "explore: stopped after evaluating {} of {} work items",
            self.evaluated, self.total
        )
    }
}

/// Evaluates work items of the run `args` describes (each in [`wire`]'s form, as JSON
/// text) and returns each result in that form, in order: what a remote worker of
/// [`run_with`] with a transport runs, with the same flags as the driver. Each result is
/// checked to read back equal before it leaves. `stop` is asked before each item: once it answers true
/// no item starts (it is not asked again), the items under way finish, and the result is
/// [`Stopped`] instead of the results. A worker stopped mid-chunk (a cancelled Ray task) so
/// frees its CPUs after at most one item per thread, not after its whole chunk.
///
/// # Errors
/// Invalid flags (as `leontief explore`); an item that does not read (an internal error).
///
/// # Complexity
/// One metric evaluation per item, in parallel over `--threads`, plus one call of `stop`
/// per item started.
pub fn evaluate_items_until(
    args: &ExploreArgs,
    items: &[String],
    stop: &(dyn Fn() -> bool + Sync),
) -> Result<Result<Vec<String>, Stopped>, CliError> {
    use rayon::prelude::*;
    use std::sync::atomic::{AtomicBool, Ordering};
    let cfg = config(args)?;
    let mech = cfg.mechanism.build();
    let pool = thread_pool(args.space.run.threads)?;
    let items = items
        .iter()
        .enumerate()
        .map(|(k, text)| {
            serde_json::from_str::<Value>(text)
                .map_err(|e| e.to_string())
                .and_then(|v| wire::item_from_json(&v).map_err(|e| e.to_string()))
                .map_err(|e| CliError::Internal(format!("explore work item {k}: {e}")))
        })
        .collect::<Result<Vec<WorkItem>, _>>()?;
    let evaluator = Evaluator::new(mech.as_ref(), &cfg.explore);
    // Once set, the remaining items are skipped without asking `stop` again.
    let halted = AtomicBool::new(false);
    let found: Vec<Option<Found>> = pool.install(|| {
        items
            .par_iter()
            .map(|item| {
                if halted.load(Ordering::Relaxed) || stop() {
                    halted.store(true, Ordering::Relaxed);
                    return None;
                }
                Some(evaluator.evaluate(item))
            })
            .collect()
    });
    if halted.load(Ordering::Relaxed) {
        return Ok(Err(Stopped {
            evaluated: found.iter().filter(|f| f.is_some()).count(),
            total: items.len(),
        }));
    }
    found
        .iter()
        .flatten()
        .map(|f| {
            wire::found_to_json_checked(f)
                .map(|v| v.to_string())
                .map_err(|e| CliError::Internal(e.to_string()))
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Ok)
}

fn summary_text(cfg: &Config, s: &ExploreSummary) -> String {
    let e = &cfg.explore;
    let secs = s.elapsed.as_secs_f64();
    let rate = |k: u64| if secs > 0.0 { k as f64 / secs } else { 0.0 };
    let best = s.best.as_ref().map_or("none".to_string(), |b| {
        leontief_counterexamples::explore::record::decimal(b, 6)
    });
    let mut out = format!(
        "explore {} {} ({}, utility {}): {} evaluations ({:.0}/s), {} scenarios ({:.0}/s) in {:.2} s; \
         {} improvement(s), best {best}; stopped by {}",
        cfg.mechanism.name,
        e.metric,
        e.metric.metric().direction(),
        e.utility,
        s.evaluations,
        rate(s.evaluations),
        s.scenarios,
        rate(s.scenarios),
        secs,
        s.improvements,
        s.stop.map_or("-", |x| x.name()),
    );
    if let Some(t) = s.first_violation {
        out += &format!("; past 1 after {:.2} s", t.as_secs_f64());
    }
    if e.run.shard.count > 1 {
        out += &format!("; shard {}/{}", e.run.shard.index, e.run.shard.count);
    }
    let mut domain = format!("{}, strategy {}", cfg.domain.summary(), e.run.strategy);
    if let Some(f) = e.family {
        domain += &format!(", family {f}");
    }
    out + &summary_tail(&domain, "error(s)", s.errors, &s.error_messages)
}
