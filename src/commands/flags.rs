//! Flag groups shared by several subcommands (flattened into their `Args`), the value
//! parsers that take accepted values, help and errors from the enumerations and the mechanism
//! table, and the generator domain every verdict of `verify` and `search` states.

use std::ffi::OsStr;
use std::marker::PhantomData;
use std::str::FromStr;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::error::ErrorKind;
use clap::Args;
use leontief_counterexamples::instance_generator::{parse_range, Chance, GeneratorConfig};
use leontief_counterexamples::mechanisms;
use leontief_counterexamples::search::{Run, Shard};
use leontief_counterexamples::space::Strategy;
use leontief_solver::registry::{unknown_name, Descriptor};
use leontief_solver::{GuaranteeRule, LimitBelowGuarantee, Oversubscribed, Rational, SolverError};
use serde::Serialize;
use serde_json::Value;
use strum::{EnumMessage, VariantArray, VariantNames};

use crate::cli::{in_file, inline_instance, number_flag, read_text, CliError};
use crate::commands::usage;
use crate::output::Numbers;

/// The instance: a FILE (or `-`), or inline `--capacity`/`--user`/`--resources` flags.
#[derive(Debug, Clone, Default, Args)]
pub struct InstanceInput {
    /// Instance JSON file, or - for standard input:
    /// {"resources": ["cpu","mem"], "capacity": [9, 18], "users": [{"name": "A", "demand": [1, 4], "weight": 1, "tasks": 10}]}
    /// or a tree file ({"tree": ..}: its leaves become users in pools, printed by path, e.g. B/B1).
    pub file: Option<String>,
    /// Inline instance: capacities, e.g. 9,18.
    #[arg(long, value_name = "R1,R2,..")]
    pub capacity: Option<String>,
    /// Inline instance: a user, e.g. A=1,4 or B=3,1:weight=2:tasks=5 (repeatable).
    #[arg(long = "user", value_name = "NAME=D1,D2,..")]
    pub users: Vec<String>,
    /// Inline instance: resource names, e.g. cpu,mem.
    #[arg(long, value_name = "NAME,..")]
    pub resources: Option<String>,
}

impl InstanceInput {
    /// Whether any inline flag is given.
    fn inline(&self) -> bool {
        self.capacity.is_some() || !self.users.is_empty() || self.resources.is_some()
    }

    /// Reads the instance (the file or standard input, or the inline flags).
    pub fn load(&self) -> Result<leontief_solver::Instance, CliError> {
        let (file, resources) = (self.file.as_deref(), self.resources.as_deref());
        if file.is_some() && self.inline() {
            return Err(usage(
                "give either an instance FILE or inline --capacity/--user flags, not both",
            ));
        }
        match (file, &self.capacity) {
            (Some(path), _) => in_file(
                path,
                leontief_solver::Instance::from_json_str(&read_text(path)?),
            ),
            (None, Some(cap)) => inline_instance(cap, &self.users, resources),
            (None, None) if !self.users.is_empty() => Err(usage("--user needs --capacity")),
            (None, None) => Err(usage(
                "no instance: give a FILE (or - for standard input), or --capacity and --user",
            )),
        }
    }

    /// Reads the instance with the tree `rules` (flags given: a file only, not the inline
    /// flags, which make no tree).
    pub fn load_with(&self, rules: &RulesFlags) -> Result<leontief_solver::Instance, CliError> {
        match (rules.given(), &self.file) {
            (Some(flag), None) => Err(usage(format!(
                "{flag} applies to a tree (a FILE); inline --capacity/--user make none"
            ))),
            (Some(_), Some(path)) if !self.inline() => {
                let text = read_text(path)?;
                let rules = rules.rules();
                Ok(leontief_solver::Instance::from_json_str_with(&text, rules)?)
            }
            // The default rules: the ordinary reader, with its fast path for flat files (and
            // its error for a file beside inline flags).
            _ => self.load(),
        }
    }
}

/// How a tree's guarantees and limits are resolved and used (`docs/production.md`), where
/// production schedulers differ.
#[derive(Debug, Clone, Default, Args)]
pub struct RulesFlags {
    /// Trees: how guarantees enter the static shares [default: additive].
    #[arg(long, value_name = "RULE", value_parser = rule::<GuaranteeRule>())]
    pub guarantees: Option<GuaranteeRule>,
    /// Trees: children's guarantees above their parent's [default: error].
    #[arg(long, value_name = "RULE", value_parser = rule::<Oversubscribed>())]
    pub oversubscribed: Option<Oversubscribed>,
    /// Trees: a limit below the node's guarantee [default: error].
    #[arg(long, value_name = "RULE", value_parser = rule::<LimitBelowGuarantee>())]
    pub limit_below_guarantee: Option<LimitBelowGuarantee>,
}

impl RulesFlags {
    /// The first of the flags given, by name, if any.
    pub fn given(&self) -> Option<&'static str> {
        self.guarantees
            .map(|_| "--guarantees")
            .or(self.oversubscribed.map(|_| "--oversubscribed"))
            .or(self
                .limit_below_guarantee
                .map(|_| "--limit-below-guarantee"))
    }

    /// The rules: each flag given, the default for the others.
    pub fn rules(&self) -> leontief_solver::Rules {
        leontief_solver::Rules {
            guarantees: self.guarantees.unwrap_or_default(),
            oversubscribed: self.oversubscribed.unwrap_or_default(),
            limit_below_guarantee: self.limit_below_guarantee.unwrap_or_default(),
        }
    }

    /// The tree file `path` (or - for standard input), read under these rules.
    pub fn read_tree(&self, path: &str) -> Result<leontief_hdrf::Tree, CliError> {
        let text = read_text(path)?;
        in_file(
            path,
            leontief_solver::json::parse_strict(&text)
                .and_then(|doc| leontief_hdrf::Tree::from_json_with(&doc, self.rules())),
        )
    }

    /// An error unless `mechanism` is hierarchical (`hdrf:*`) or no flag is given.
    pub fn for_mechanism(&self, mechanism: &Descriptor) -> Result<(), CliError> {
        match self.given() {
            Some(flag) if mechanism.shape != leontief_solver::registry::Shape::Hierarchical => {
                Err(usage(format!(
                    "{flag} applies to the hierarchical mechanisms (hdrf:*); not to --mechanism {}",
                    mechanism.name
                )))
            }
            _ => Ok(()),
        }
    }
}

/// The value parser of a rule flag (a tree's rules, discrete-drf's `--misfit`): the rule's names, each with the first paragraph of
/// its documentation as help, and clap's own error for an unknown name.
pub(crate) fn rule<T>() -> impl TypedValueParser<Value = T>
where
    T: VariantArray + EnumMessage + Into<&'static str> + FromStr + Clone + Send + Sync + 'static,
    T::Err: std::error::Error + Send + Sync + 'static,
{
    let values = <T as VariantArray>::VARIANTS.iter().map(|rule| {
        let doc = rule.get_documentation().unwrap_or_default();
        let summary: Vec<&str> = doc
            .lines()
            .map(str::trim)
            .take_while(|l| !l.is_empty())
            .collect();
        let help = summary.join(" ");
        PossibleValue::new(rule.clone().into()).help(help.trim_end_matches('.').to_string())
    });
    PossibleValuesParser::new(values).try_map(|name| name.parse::<T>())
}

/// How numbers are printed (every command that prints numbers): exact strings by default.
#[derive(Debug, Clone, Default, Args)]
pub struct NumberFlags {
    /// Print each number correctly rounded to N significant digits (ties to even, from the
    /// exact value) as a JSON number, instead of the exact string "p/q"; JSON answers then
    /// say "precision": {"decimals": N}.
    #[arg(long, value_name = "N")]
    pub decimals: Option<u32>,
}

/// The most significant digits `--decimals` accepts.
pub const MAX_DECIMALS: u32 = 1000;

impl NumberFlags {
    /// Reads the flag: `--decimals N` with `1 ≤ N ≤ 1000`.
    pub fn numbers(&self) -> Result<Numbers, CliError> {
        match self.decimals {
            None => Ok(Numbers::Exact),
            Some(0) => Err(usage(
                "--decimals: expected at least 1 significant digit, found 0",
            )),
            Some(n) if n > MAX_DECIMALS => Err(usage(format!(
                "--decimals: expected at most {MAX_DECIMALS} significant digits, found {n}"
            ))),
            Some(n) => Ok(Numbers::Decimals(n)),
        }
    }
}

/// How `verify` and `search` draw instances: the same flags with the same defaults, so that
/// both commands speak of the same domain unless told otherwise.
///
/// The defaults allow zero demand entries (`--zeros 1/3`): several properties fail only when
/// a user does not need some resource (the lecture's group-manipulation example has
/// `op1 = ⟨1, 0, 0⟩`), so a domain without zeros would report them as holding.
#[derive(Debug, Clone, Args)]
pub struct GeneratorFlags {
    /// Users per instance, a..b.
    #[arg(long, default_value = "2..4", value_name = "A..B")]
    pub users: String,
    /// Resources per instance, a..b.
    #[arg(long, default_value = "2..3", value_name = "A..B")]
    pub resources: String,
    /// search and explore only: the value grid, grid instances' demand entries (capacities 1)
    /// and grid lies [default: 0,1/2,1].
    #[arg(long, value_name = "V1,V2,..")]
    pub values: Option<String>,
    /// Probability that a random instance's demand entry is zero (exact, e.g. 0.3 or 1/3;
    /// each user keeps one positive entry).
    #[arg(long, default_value = "1/3", value_name = "P")]
    pub zeros: String,
    /// Random instances get random integer weights in 1..4.
    #[arg(long)]
    pub weights: bool,
    /// About a third of random instances' users get a task cap.
    #[arg(long)]
    pub caps: bool,
    /// Trees: random instances get a..b pools (users are printed by path, e.g. p1/u3) and grid
    /// instances the shapes "first users under the root, the rest in one pool".
    #[arg(long, value_name = "A..B")]
    pub pools: Option<String>,
    /// Seed: the same seed gives the same instances, whatever --threads.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// The default value grid of `search`.
pub const DEFAULT_VALUES: &str = "0,1/2,1";

/// The generator the flags describe, validated, and the domain as the verdicts state it: as
/// JSON `{"users": "2..4", "resources": "2..3", "demands": "integers 1..6", "zeros": "1/3",
/// "weights": false, "caps": false, "pools": null, "values": [..]}` (`values` only with a grid).
#[derive(Debug, Clone, Serialize)]
pub struct Domain {
    /// The random instances' generator.
    #[serde(skip)]
    pub generator: GeneratorConfig,
    users: String,
    resources: String,
    demands: String,
    /// The probability of a zero demand entry.
    pub zeros: Rational,
    weights: bool,
    caps: bool,
    pools: Option<String>,
    /// The value grid (search only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub values: Option<Vec<Rational>>,
}

impl GeneratorFlags {
    /// Reads the flags; `grid` says whether the command has a value grid (search).
    pub fn domain(&self, grid: bool) -> Result<Domain, CliError> {
        let zeros = number_flag("--zeros", &self.zeros)?;
        let chance = Chance::from_rational(&zeros).ok_or_else(|| {
            SolverError::invalid(
                "--zeros",
                format!("expected a probability in [0, 1], found {zeros}"),
            )
        })?;
        let mut generator = GeneratorConfig::new();
        generator.users = parse_range("--users", &self.users)?;
        generator.resources = parse_range("--resources", &self.resources)?;
        generator.zeros = chance;
        generator.weights = self.weights;
        generator.caps = self.caps;
        generator.pools = self
            .pools
            .as_deref()
            .map(|p| parse_range("--pools", p))
            .transpose()?;
        generator.validate()?;
        let values = match (&self.values, grid) {
            (Some(_), false) => {
                return Err(usage(
                    "--values: the value grid is search's; verify draws random instances only",
                ))
            }
            (values, true) => Some(parse_values(values.as_deref().unwrap_or(DEFAULT_VALUES))?),
            (None, false) => None,
        };
        let g = &generator;
        Ok(Domain {
            users: range(&g.users),
            resources: range(&g.resources),
            demands: format!("integers 1..{}", g.max_demand),
            zeros,
            weights: g.weights,
            caps: g.caps,
            pools: g.pools.as_ref().map(range),
            generator,
            values,
        })
    }
}

impl Domain {
    /// The domain on one line: `users 2..4, resources 2..3, demands integers 1..6, zeros 1/3,
    /// weights no, caps no, pools none[, values 0,1/2,1]`.
    pub fn summary(&self) -> String {
        // The JSON form's fields in order, each as text.
        let Value::Object(fields) = crate::commands::to_value(self) else {
            return String::new();
        };
        let text = |v: &Value| match v {
            Value::String(s) => s.clone(),
            Value::Bool(b) => (if *b { "yes" } else { "no" }).to_string(),
            Value::Null => "none".to_string(),
            Value::Array(xs) => {
                let xs: Vec<&str> = xs.iter().map(|x| x.as_str().unwrap_or_default()).collect();
                xs.join(",")
            }
            other => other.to_string(),
        };
        let fields: Vec<String> = fields
            .iter()
            .map(|(k, v)| format!("{k} {}", text(v)))
            .collect();
        fields.join(", ")
    }
}

/// A range as the flags write it: `a..b`.
fn range(r: &std::ops::RangeInclusive<usize>) -> String {
    format!("{}..{}", r.start(), r.end())
}

fn parse_values(text: &str) -> Result<Vec<Rational>, SolverError> {
    let mut values = Vec::new();
    for (k, part) in text.split(',').enumerate() {
        let v = number_flag(&format!("--values[{k}]"), part)?;
        if v.is_negative() {
            return Err(SolverError::invalid(
                format!("--values[{k}]"),
                format!("expected a nonnegative number, found {v}"),
            ));
        }
        values.push(v);
    }
    if !values.iter().any(Rational::is_positive) {
        return Err(SolverError::invalid(
            "--values",
            "expected at least one positive value",
        ));
    }
    Ok(values)
}

/// The flags `search` and `explore` share: the instances drawn, where the run stops, threads
/// and output, and how numbers are printed.
#[derive(Debug, Clone, Args)]
pub struct SpaceFlags {
    /// How instances are drawn.
    #[command(flatten)]
    pub generator: GeneratorFlags,
    /// Time, budget and shard.
    #[command(flatten)]
    pub limits: LimitFlags,
    /// Threads and output.
    #[command(flatten)]
    pub run: RunFlags,
    /// How numbers are printed.
    #[command(flatten)]
    pub numbers: NumberFlags,
}

/// How a parallel run is controlled: threads and an output file (`verify`, `search`).
#[derive(Debug, Clone, Args)]
pub struct RunFlags {
    /// Worker threads (default: all cores). The output does not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Write the output here (created or truncated) instead of standard output.
    #[arg(long)]
    pub out: Option<String>,
}

/// Where a search stops and which part of the space it takes (`search`).
#[derive(Debug, Clone, Args)]
pub struct LimitFlags {
    /// Wall-time limit, e.g. 30s, 5m (default 30s unless --budget or exhaustive).
    #[arg(long)]
    pub time: Option<String>,
    /// Scenario budget: stop once this many scenarios were tried (deterministic); no unit
    /// tries more, so a small budget stops soon at any instance size.
    #[arg(long)]
    pub budget: Option<u64>,
    /// This process's shard i/N of the search space (units k with k mod N = i).
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
}

impl RunFlags {
    /// Checks the flags: at least one thread.
    pub fn check(&self) -> Result<(), CliError> {
        if self.threads == Some(0) {
            return Err(usage("--threads: expected at least 1"));
        }
        Ok(())
    }
}

impl SpaceFlags {
    /// Checks the threads and limits, then sets the units and limits of a run over `domain`
    /// as the flags ask: the grid, the strategy, the shard, the budget and the time (30 s when
    /// neither is given and the space is not finite), and the cancel flag
    /// [`crate::workers::with_cancel`] set.
    pub fn limit(
        &self,
        run: &mut Run,
        domain: &Domain,
        strategy: Strategy,
    ) -> Result<(), CliError> {
        self.run.check()?;
        let limits = &self.limits;
        if limits.budget == Some(0) {
            return Err(usage("--budget: expected at least 1 scenario, found 0"));
        }
        run.time = limits.time.as_deref().map(parse_duration).transpose()?;
        run.budget = limits.budget;
        run.shard = match &limits.shard {
            Some(shard) => Shard::parse(shard)?,
            None => Shard::ALL,
        };
        run.values = domain.values.clone().unwrap_or_default();
        run.strategy = strategy;
        if run.budget.is_none() && run.time.is_none() && strategy != Strategy::Exhaustive {
            run.time = Some(std::time::Duration::from_secs(30));
        }
        run.cancel = crate::workers::cancel_flag();
        Ok(())
    }
}

/// Reads a duration: `500ms`, `30s`, `2m`, `1h`, or plain seconds.
///
/// # Example
/// ```
/// use leontief::commands::flags::parse_duration;
/// assert_eq!(parse_duration("30s").unwrap().as_secs(), 30);
/// assert_eq!(parse_duration("2m").unwrap().as_secs(), 120);
/// assert_eq!(parse_duration("250ms").unwrap().as_millis(), 250);
/// assert!(parse_duration("soon").is_err());
/// ```
pub fn parse_duration(text: &str) -> Result<std::time::Duration, SolverError> {
    let t = text.trim();
    let bad = || {
        SolverError::invalid(
            "--time",
            format!("expected a duration like 500ms, 30s, 2m or 1h, found {text:?}"),
        )
    };
    // Each unit in milliseconds ("ms" before "s" and "m"); plain seconds without one.
    let units = [("ms", 1u64), ("s", 1000), ("m", 60_000), ("h", 3_600_000)];
    let (number, unit_ms) = (units.iter())
        .find_map(|&(unit, ms)| t.strip_suffix(unit).map(|n| (n, ms)))
        .unwrap_or((t, 1000));
    let n: u64 = number.trim().parse().map_err(|_| bad())?;
    let ms = n.checked_mul(unit_ms).ok_or_else(bad)?;
    if ms == 0 {
        return Err(bad());
    }
    Ok(std::time::Duration::from_millis(ms))
}

/// The `--mechanism` value parser: accepted values, their help (description and exactness)
/// and the error listing the known names all come from the mechanism table
/// (`leontief_counterexamples::mechanisms`).
#[derive(Debug, Clone, Copy)]
pub struct MechanismParser;

impl TypedValueParser for MechanismParser {
    type Value = &'static Descriptor;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<Self::Value, clap::Error> {
        let text = value.to_string_lossy();
        mechanisms::descriptor(text.trim()).map_err(|e| {
            let reason = match e {
                SolverError::Invalid { reason, .. } => reason,
                other => other.to_string(),
            };
            let arg = arg.map_or_else(|| "--mechanism".to_string(), ToString::to_string);
            clap::Error::raw(
                ErrorKind::InvalidValue,
                format!("invalid value '{text}' for '{arg}': {reason}\n"),
            )
            .with_cmd(cmd)
        })
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(mechanisms::all().iter().map(|d| {
            PossibleValue::new(d.name).help(format!("{} [{}]", d.description, d.exactness))
        })))
    }
}

/// A value parser for an enumeration with derived names (strum): the accepted values and
/// help come from `T::VARIANTS`, a bad value fails with `--flag: unknown WHAT "x" (expected
/// a, b or c)`.
#[derive(Debug, Clone)]
pub struct NameParser<T> {
    what: &'static str,
    help: Option<fn(T) -> &'static str>,
    kind: PhantomData<fn() -> T>,
}

impl<T> NameParser<T> {
    /// A parser for values called `what` in messages (e.g. `property`).
    pub fn new(what: &'static str) -> Self {
        NameParser {
            what,
            help: None,
            kind: PhantomData,
        }
    }

    /// With a one-line description of each value in `--help`.
    pub fn with_help(mut self, help: fn(T) -> &'static str) -> Self {
        self.help = Some(help);
        self
    }
}

impl<T> TypedValueParser for NameParser<T>
where
    T: FromStr + VariantNames + Clone + Send + Sync + 'static,
{
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<T, clap::Error> {
        let text = value.to_string_lossy();
        text.trim().parse::<T>().map_err(|_| {
            let flag = arg
                .and_then(clap::Arg::get_long)
                .map_or_else(String::new, |l| format!("--{l}"));
            let err = unknown_name::<T>(&flag, self.what, text.trim());
            clap::Error::raw(ErrorKind::InvalidValue, format!("{err}\n")).with_cmd(cmd)
        })
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(T::VARIANTS.iter().map(|&name| {
            let value = PossibleValue::new(name);
            match (self.help, name.parse::<T>()) {
                (Some(help), Ok(t)) => value.help(help(t)),
                _ => value,
            }
        })))
    }
}

/// A `--policy` value of `hdrf` and `simulate`: one policy by name, or every one (`all`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OneOrAll<T>(pub Vec<T>);

/// The parser of a [`OneOrAll`] value: a policy's derived name, or `all` (every policy of
/// the list it holds, in its order).
#[derive(Debug, Clone, Copy)]
pub struct OneOrAllParser<T: 'static>(pub &'static [T]);

impl<T> TypedValueParser for OneOrAllParser<T>
where
    T: FromStr + VariantNames + Clone + Send + Sync + 'static,
{
    type Value = OneOrAll<T>;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<OneOrAll<T>, clap::Error> {
        let text = value.to_string_lossy();
        let text = text.trim();
        if text == "all" {
            return Ok(OneOrAll(self.0.to_vec()));
        }
        text.parse::<T>().map(|p| OneOrAll(vec![p])).map_err(|_| {
            let names: Vec<&str> = T::VARIANTS.iter().copied().chain(["all"]).collect();
            let message = format!(
                "--policy: unknown policy {text:?} (expected {})\n",
                leontief_solver::registry::one_of(&names)
            );
            clap::Error::raw(ErrorKind::InvalidValue, message).with_cmd(cmd)
        })
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        let names = T::VARIANTS.iter().copied().chain(["all"]);
        Some(Box::new(names.map(PossibleValue::new)))
    }
}
