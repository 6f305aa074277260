//! The simulator's input: a tree plus what every leaf submits, read from JSON with errors
//! that name the field (see the [parent module](super) for the format).

use leontief_solver::hierarchy::TREE_FIELDS;
use leontief_solver::random_instances::SplitMix64;
use leontief_solver::{read_number, Rational};
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::error::{kind, reject_unknown, Result, SolverError};
use crate::{NodeId, Tree};

/// The scenario's own top-level fields, after the tree form's (the keys of a workload file).
pub const SCENARIO_FIELDS: &[&str] = &[
    "workload",
    "horizon",
    "seed",
    "warmup",
    "starvation_tolerance",
];
const LEAF_FIELDS: &[&str] = &["duration", "count", "arrivals", "start"];
const UNIFORM_FIELDS: &[&str] = &["uniform", "steps"];
const ARRIVAL_FIELDS: &[&str] = &["time", "count"];

/// Grid points of `{"uniform": [a, b]}` when `steps` is not given: `a + (b - a) k / 10`.
pub const DEFAULT_STEPS: u64 = 10;

/// How long a task of a leaf runs once started.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Duration {
    /// Every task runs exactly this long (`> 0`).
    Fixed(Rational),
    /// Drawn uniformly from the grid `low + (high - low) k / steps`, `k = 0..=steps`, from the
    /// leaf's own seeded stream (`0 < low <= high`, `steps >= 1`). Exact: no floats.
    Uniform {
        /// Shortest duration, `> 0`.
        low: Rational,
        /// Longest duration, `>= low`.
        high: Rational,
        /// Grid intervals, `>= 1`.
        steps: u64,
    },
}

impl Duration {
    /// The longest duration a task can draw.
    ///
    /// # Example
    /// ```
    /// use leontief_hdrf::simulate::Duration;
    /// let d = Duration::Uniform { low: 1.into(), high: 3.into(), steps: 8 };
    /// assert_eq!(d.max().to_string(), "3");
    /// ```
    pub fn max(&self) -> &Rational {
        match self {
            Duration::Fixed(d) => d,
            Duration::Uniform { high, .. } => high,
        }
    }

    /// One draw (a fixed duration ignores `rng`).
    ///
    /// # Example
    /// ```
    /// use leontief_hdrf::simulate::Duration;
    /// use leontief_solver::random_instances::SplitMix64;
    /// let d = Duration::Uniform { low: 1.into(), high: 2.into(), steps: 4 };
    /// let x = d.draw(&mut SplitMix64::new(7));
    /// assert!(x >= 1.into() && x <= 2.into() && (x * leontief_solver::Rational::from(4)).is_integer());
    /// ```
    pub fn draw(&self, rng: &mut SplitMix64) -> Rational {
        match self {
            Duration::Fixed(d) => d.clone(),
            Duration::Uniform { low, high, steps } => {
                let k = rng.range(0, *steps);
                if k == 0 {
                    return low.clone();
                }
                low + (high - low) * Rational::from(k) / Rational::from(*steps)
            }
        }
    }
}

/// The JSON form the reader reads: the number, or `{"uniform": [low, high], "steps": n}`.
impl Serialize for Duration {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        match self {
            Duration::Fixed(d) => d.serialize(s),
            Duration::Uniform { low, high, steps } => {
                let mut map = s.serialize_map(Some(2))?;
                map.serialize_entry("uniform", &[low, high])?;
                map.serialize_entry("steps", steps)?;
                map.end()
            }
        }
    }
}

/// A batch of tasks submitted at one time (JSON form `{"time": t, "count": n}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Arrival {
    /// Submission time, `>= 0`.
    pub time: Rational,
    /// Number of tasks.
    pub count: u64,
}

/// What a leaf submits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Supply {
    /// Always has work from `start` on (`"count": null`): an unbounded backlog, every task of
    /// which counts as submitted at `start`.
    Unlimited {
        /// When the backlog appears.
        start: Rational,
    },
    /// Batches at given times (`"count": n` is one batch at `start`).
    Arrivals(Vec<Arrival>),
}

/// One leaf's workload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeafWorkload {
    /// Task duration.
    pub duration: Duration,
    /// When tasks are submitted.
    pub supply: Supply,
}

impl LeafWorkload {
    /// Always has work from time 0 (`"count": null`), tasks of the given duration.
    ///
    /// # Example
    /// ```
    /// use leontief_hdrf::simulate::{Duration, LeafWorkload, Supply};
    /// let w = LeafWorkload::unlimited(Duration::Fixed(2.into()));
    /// assert_eq!(w.supply, Supply::Unlimited { start: 0.into() });
    /// // The default of a leaf not in the workload: the same with duration 1.
    /// assert_eq!(LeafWorkload::default(), LeafWorkload::unlimited(Duration::Fixed(1.into())));
    /// ```
    pub fn unlimited(duration: Duration) -> Self {
        LeafWorkload {
            duration,
            supply: Supply::Unlimited {
                start: Rational::ZERO,
            },
        }
    }

    /// No work at all (`"count": 0`).
    ///
    /// # Example
    /// ```
    /// use leontief_hdrf::simulate::LeafWorkload;
    /// assert!(!LeafWorkload::idle().has_work());
    /// assert!(LeafWorkload::default().has_work());
    /// ```
    pub fn idle() -> Self {
        LeafWorkload {
            duration: Duration::Fixed(Rational::ONE),
            supply: Supply::Arrivals(Vec::new()),
        }
    }

    /// Whether the leaf ever submits a task.
    pub fn has_work(&self) -> bool {
        match &self.supply {
            Supply::Unlimited { .. } => true,
            Supply::Arrivals(list) => list.iter().any(|a| a.count > 0),
        }
    }
}

/// The JSON form the reader reads: `{"duration": d, "arrivals": [..]}`, or `{"duration": d,
/// "count": null, "start": t}` for an unlimited backlog.
impl Serialize for LeafWorkload {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("duration", &self.duration)?;
        match &self.supply {
            Supply::Arrivals(list) => map.serialize_entry("arrivals", list)?,
            Supply::Unlimited { start } => {
                map.serialize_entry("count", &())?;
                map.serialize_entry("start", start)?;
            }
        }
        map.end()
    }
}

impl Default for LeafWorkload {
    fn default() -> Self {
        LeafWorkload::unlimited(Duration::Fixed(Rational::ONE))
    }
}

/// A tree and its workload: what [`super::simulate`] runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scenario {
    /// The weighted tree.
    pub tree: Tree,
    leaves: Vec<Option<LeafWorkload>>,
    /// End of the simulated time, `> 0` (`None`: must come from the run's configuration).
    pub horizon: Option<Rational>,
    /// Seed of the random durations (default 1).
    pub seed: u64,
    /// Start of the steady-state window `[warmup, horizon)` (default `horizon / 2`).
    pub warmup: Option<Rational>,
    /// A node is flagged starved when it stays below its guarantee, with unmet demand, for
    /// longer than this (default `horizon / 10`).
    pub starvation_tolerance: Option<Rational>,
}

impl Scenario {
    /// A scenario where every leaf has the default workload ([`LeafWorkload::default`]).
    ///
    /// # Example
    /// ```
    /// use leontief_hdrf::simulate::{LeafWorkload, Scenario};
    /// use leontief_hdrf::Tree;
    /// let tree = Tree::from_json_str(r#"{"capacity": [1], "tree": {"children": [
    ///     {"name": "A", "demand": [1]}]}}"#).unwrap();
    /// let a = tree.find("A").unwrap();
    /// let s = Scenario::new(tree);
    /// assert_eq!(s.workload(a), &LeafWorkload::default());
    /// ```
    pub fn new(tree: Tree) -> Self {
        let leaves = vec![None; tree.len()];
        Scenario {
            tree,
            leaves,
            horizon: None,
            seed: 1,
            warmup: None,
            starvation_tolerance: None,
        }
    }

    /// The workload of `leaf` (the default when none was set, see
    /// [`Scenario::from_json`]'s example).
    /// An idle leaf (all-zero demand) submits nothing, whatever the workload says: its
    /// tasks would take nothing and never end the run.
    pub fn workload(&self, leaf: NodeId) -> &LeafWorkload {
        static DEFAULT: std::sync::OnceLock<LeafWorkload> = std::sync::OnceLock::new();
        static IDLE: std::sync::OnceLock<LeafWorkload> = std::sync::OnceLock::new();
        if self.tree.node(leaf).is_idle() {
            return IDLE.get_or_init(LeafWorkload::idle);
        }
        self.leaves
            .get(leaf.index())
            .and_then(Option::as_ref)
            .unwrap_or_else(|| DEFAULT.get_or_init(LeafWorkload::default))
    }

    /// Sets the workload of the leaf `name`.
    ///
    /// # Errors
    /// [`SolverError::Invalid`] (field `workload.NAME`) when there is no such leaf.
    ///
    /// # Example
    /// ```
    /// use leontief_hdrf::simulate::{LeafWorkload, Scenario};
    /// use leontief_hdrf::Tree;
    /// let tree = Tree::from_json_str(r#"{"capacity": [1], "tree": {"children": [
    ///     {"name": "A", "demand": [1]}]}}"#).unwrap();
    /// let mut s = Scenario::new(tree);
    /// s.set_workload("A", LeafWorkload::idle()).unwrap();
    /// assert!(s.set_workload("root", LeafWorkload::idle()).is_err());
    /// ```
    pub fn set_workload(&mut self, name: &str, workload: LeafWorkload) -> Result<()> {
        let field = format!("workload.{name}");
        let v = self.tree.find(name).ok_or_else(|| {
            SolverError::invalid(&field, format!("no leaf named {name:?} in the tree"))
        })?;
        if !self.tree.node(v).is_leaf() {
            return Err(SolverError::invalid(
                field,
                format!("{name:?} is a pool; a workload belongs to a leaf"),
            ));
        }
        if self.tree.node(v).is_idle() && workload.has_work() {
            return Err(SolverError::invalid(
                field,
                format!("{name:?} is idle (all-zero demand): it runs no tasks; give it a demand or no work"),
            ));
        }
        self.leaves[v.index()] = Some(workload);
        Ok(())
    }

    /// Reads the JSON form (see the [parent module](super)).
    ///
    /// # Example
    /// ```
    /// use leontief_hdrf::simulate::Scenario;
    /// let err = Scenario::from_json_str(r#"{"capacity": [1], "horizon": 10,
    ///     "tree": {"children": [{"name": "B1", "demand": [1]}]},
    ///     "workload": {"B1": {"duration": 0}}}"#).unwrap_err();
    /// assert_eq!(err.to_string(), "workload.B1.duration: expected a positive number, found 0");
    /// ```
    pub fn from_json_str(text: &str) -> Result<Scenario> {
        let value = leontief_solver::json::parse_strict(text)?;
        Self::from_json(&value)
    }

    /// Reads the JSON form from a parsed value (see [`Scenario::from_json_str`]).
    ///
    /// # Example
    /// ```
    /// use leontief_hdrf::simulate::{Duration, Scenario, Supply};
    /// let doc = serde_json::json!({"capacity": [1], "horizon": 10, "seed": 7,
    ///     "tree": {"children": [{"name": "x", "demand": [1]}, {"name": "y", "demand": [1]}]},
    ///     "workload": {"x": {"duration": {"uniform": [1, 2], "steps": 4}, "count": 3, "start": 2}}});
    /// let s = Scenario::from_json(&doc).unwrap();
    /// let x = s.workload(s.tree.find("x").unwrap());
    /// assert_eq!(x.duration.max().to_string(), "2");
    /// assert!(matches!(&x.supply, Supply::Arrivals(a) if a[0].count == 3 && a[0].time == 2.into()));
    /// // y is not in the workload: always busy, tasks of duration 1.
    /// let y = s.workload(s.tree.find("y").unwrap());
    /// assert_eq!(y.duration, Duration::Fixed(1.into()));
    /// assert_eq!((s.seed, s.horizon.clone().unwrap().to_string()), (7, "10".to_string()));
    /// ```
    pub fn from_json(value: &Value) -> Result<Scenario> {
        let obj = top_object(value)?;
        reject_unknown(obj, "", &[TREE_FIELDS, SCENARIO_FIELDS].concat())?;
        let tree_part: Map<String, Value> = obj
            .iter()
            .filter(|(k, _)| TREE_FIELDS.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        Self::from_json_on(Tree::from_json(&Value::Object(tree_part))?, value)
    }

    /// The scenario's own keys of `value` (`horizon`, `seed`, `warmup`,
    /// `starvation_tolerance`, `workload`) read on `tree`; its tree keys are ignored.
    pub fn from_json_on(tree: Tree, value: &Value) -> Result<Scenario> {
        let obj = top_object(value)?;
        let mut scenario = Scenario::new(tree);
        scenario.horizon = optional(obj, "horizon", positive)?;
        if let Some(v) = obj.get("seed") {
            scenario.seed = read_u64("seed", v)?;
        }
        scenario.warmup = optional(obj, "warmup", non_negative)?;
        scenario.starvation_tolerance = optional(obj, "starvation_tolerance", non_negative)?;
        if let (Some(h), Some(w)) = (&scenario.horizon, &scenario.warmup)
            && w >= h
        {
            return Err(SolverError::invalid(
                "warmup",
                format!("must be below the horizon {h}, found {w}"),
            ));
        }
        match obj.get("workload") {
            None | Some(Value::Null) => {}
            Some(Value::Object(map)) => {
                for (name, spec) in map {
                    let field = format!("workload.{name}");
                    scenario.set_workload(name, read_leaf(&field, spec)?)?;
                }
            }
            Some(other) => {
                return Err(SolverError::invalid(
                    "workload",
                    format!(
                        "expected an object of leaf names to workloads, found {}",
                        kind(other)
                    ),
                ))
            }
        }
        Ok(scenario)
    }
}

/// The whole document as an object.
fn top_object(value: &Value) -> Result<&Map<String, Value>> {
    value.as_object().ok_or_else(|| {
        SolverError::invalid(
            "(top level)",
            format!("expected an object, found {}", kind(value)),
        )
    })
}

/// `field` of `obj` read by `read`, `None` when absent or null.
fn optional(
    obj: &Map<String, Value>,
    field: &str,
    read: fn(&str, &Value) -> Result<Rational>,
) -> Result<Option<Rational>> {
    match obj.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => read(field, v).map(Some),
    }
}

/// A number `> 0` at `field`.
pub(crate) fn positive(field: &str, v: &Value) -> Result<Rational> {
    checked(field, v, "a positive number", Rational::is_positive)
}

/// An error on `field` unless `x > 0`: "expected a positive `what`, found `x`".
pub fn require_positive(field: &str, what: &str, x: &Rational) -> Result<()> {
    if x.is_positive() {
        return Ok(());
    }
    Err(SolverError::invalid(
        field,
        format!("expected a positive {what}, found {x}"),
    ))
}

fn non_negative(field: &str, v: &Value) -> Result<Rational> {
    checked(field, v, "a non-negative number", |x| !x.is_negative())
}

/// A number at `field` for which `ok` holds; else "expected `what`, found" what it is.
fn checked(field: &str, v: &Value, what: &str, ok: fn(&Rational) -> bool) -> Result<Rational> {
    let x = match v {
        Value::Number(_) | Value::String(_) => read_number(field, v)?,
        other => {
            return Err(SolverError::invalid(
                field,
                format!("expected {what}, found {}", kind(other)),
            ))
        }
    };
    if !ok(&x) {
        return Err(SolverError::invalid(
            field,
            format!("expected {what}, found {x}"),
        ));
    }
    Ok(x)
}

fn read_u64(field: &str, v: &Value) -> Result<u64> {
    let x = checked(field, v, "a non-negative integer", |x| {
        x.is_integer() && !x.is_negative()
    })?;
    x.floor_u64().ok_or_else(|| {
        SolverError::invalid(field, format!("{x} is too large (at most {})", u64::MAX))
    })
}

fn read_leaf(at: &str, v: &Value) -> Result<LeafWorkload> {
    let obj = v.as_object().ok_or_else(|| {
        SolverError::invalid(
            at,
            format!(
                "expected an object such as {{\"duration\": 1, \"count\": null}}, found {}",
                kind(v)
            ),
        )
    })?;
    reject_unknown(obj, at, LEAF_FIELDS)?;
    let field = |f: &str| format!("{at}.{f}");
    let duration = match obj.get("duration") {
        None => Duration::Fixed(Rational::ONE),
        Some(Value::Object(d)) => read_uniform(&field("duration"), d)?,
        Some(d) => Duration::Fixed(positive(&field("duration"), d)?),
    };
    let start = match obj.get("start") {
        None => None,
        Some(s) => Some(non_negative(&field("start"), s)?),
    };
    let supply = match (obj.get("arrivals"), obj.get("count")) {
        (Some(_), Some(_)) => {
            return Err(SolverError::invalid(
                field("arrivals"),
                "give either count (with an optional start) or arrivals, not both",
            ))
        }
        (Some(_), None) if start.is_some() => {
            return Err(SolverError::invalid(
                field("start"),
                "not with arrivals, whose times are absolute",
            ))
        }
        (Some(list), None) => Supply::Arrivals(read_arrivals(&field("arrivals"), list)?),
        (None, None | Some(Value::Null)) => Supply::Unlimited {
            start: start.unwrap_or(Rational::ZERO),
        },
        (None, Some(c)) => Supply::Arrivals(vec![Arrival {
            time: start.unwrap_or(Rational::ZERO),
            count: read_u64(&field("count"), c)?,
        }]),
    };
    Ok(LeafWorkload { duration, supply })
}

fn read_uniform(at: &str, obj: &Map<String, Value>) -> Result<Duration> {
    reject_unknown(obj, at, UNIFORM_FIELDS)?;
    let field = format!("{at}.uniform");
    let bounds = match obj.get("uniform") {
        Some(Value::Array(list)) if list.len() == 2 => list,
        Some(other) => {
            return Err(SolverError::invalid(
                field,
                format!("expected two numbers [low, high], found {}", kind(other)),
            ))
        }
        None => return Err(SolverError::invalid(
            field,
            "missing; a duration is a positive number or {\"uniform\": [low, high], \"steps\": n}",
        )),
    };
    let low = positive(&format!("{field}[0]"), &bounds[0])?;
    let high = positive(&format!("{field}[1]"), &bounds[1])?;
    if high < low {
        return Err(SolverError::invalid(
            field,
            format!("low {low} exceeds high {high}"),
        ));
    }
    let steps = match obj.get("steps") {
        None => DEFAULT_STEPS,
        Some(s) => {
            let n = read_u64(&format!("{at}.steps"), s)?;
            if n == 0 {
                return Err(SolverError::invalid(
                    format!("{at}.steps"),
                    "expected a positive integer, found 0",
                ));
            }
            n
        }
    };
    Ok(Duration::Uniform { low, high, steps })
}

fn read_arrivals(at: &str, v: &Value) -> Result<Vec<Arrival>> {
    let list = v.as_array().ok_or_else(|| {
        SolverError::invalid(
            at,
            format!(
                "expected a list of times or {{\"time\": t, \"count\": n}} objects, found {}",
                kind(v)
            ),
        )
    })?;
    list.iter()
        .enumerate()
        .map(|(i, a)| {
            let field = format!("{at}[{i}]");
            match a {
                Value::Object(o) => {
                    reject_unknown(o, &field, ARRIVAL_FIELDS)?;
                    let time = match o.get("time") {
                        Some(t) => non_negative(&format!("{field}.time"), t)?,
                        None => {
                            return Err(SolverError::invalid(format!("{field}.time"), "missing"))
                        }
                    };
                    let count = match o.get("count") {
                        Some(c) => read_u64(&format!("{field}.count"), c)?,
                        None => 1,
                    };
                    Ok(Arrival { time, count })
                }
                other => Ok(Arrival {
                    time: non_negative(&field, other)?,
                    count: 1,
                }),
            }
        })
        .collect()
}
