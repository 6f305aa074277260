//! Counterexample records: one JSON object per line (JSONL), exact strings, read back and
//! replayed; and the canonical key that identifies a counterexample up to permutations of
//! users and resources and scaling.
//!
//! A record:
//! ```text
//! {"mechanism": "drf", "property": "gsp-strong",
//!  "instance": {..same schema as `leontief solve`..},
//!  "lies": {"op1": ["1", "0", "1/2"], ..} | null,   // SP, GSP
//!  "remove": "u2" | null,                             // PM
//!  "capacity": ["1", "4"] | null,                     // RM: the grown capacities
//!  "before": {user: utility}, "after": {user: utility} | null,
//!  "coalition": [user, ..], "witness": {..the oracle's witness..},
//!  "seed": 7 | null, "unit": 123 | null, "strategy": "exhaustive" | null,
//!  "source": ".." | null, "key": "..", "original": {instance, lies, remove, capacity,
//!  before, after, coalition} | null}
//! ```
//! `before`/`after` are every user's **true** utility (tasks it can really run) under the
//! mechanism's answer on the true instance and in the scenario; a user who left is absent
//! from `after`. `original` is the counterexample as found, before shrinking. Users are
//! named by their paths from the root (`P/x` for the user `x` in the pool `P`, see
//! `Instance::user_path`), the instance's pools written in its `pools` field.

use std::collections::BTreeMap;

use leontief_solver::hierarchy::Hierarchy;
use leontief_solver::properties::{Property, Scenario};
use leontief_solver::{read_number, Instance, Mechanism, Rational, SolverError};
use serde::Serialize;
use serde_json::Value;

use crate::candidate::{evaluate, fits, Candidate, Violation};
use crate::doc::{self, ByName};

/// What can go wrong reading or replaying records.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RecordError {
    /// A malformed record (the field is named).
    #[error(transparent)]
    Input(#[from] SolverError),
    /// The record does not violate the property when re-verified.
    #[error("{0}")]
    NotAViolation(String),
    /// The record re-verifies but a recorded value differs from the recomputed one.
    #[error("{field}: recorded {recorded}, recomputed {computed}")]
    Mismatch {
        /// The field, e.g. `after`.
        field: String,
        /// The recorded value.
        recorded: String,
        /// The recomputed value.
        computed: String,
    },
}

/// A counterexample with where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// The mechanism's name.
    pub mechanism: String,
    /// The property violated.
    pub property: Property,
    /// The (shrunk) counterexample.
    pub candidate: Candidate,
    /// Its verification.
    pub violation: Violation,
    /// The counterexample as found, before shrinking (`None` when shrinking changed nothing
    /// or the record did not come from a search).
    pub original: Option<(Candidate, Violation)>,
    /// The search's seed.
    pub seed: Option<u64>,
    /// The search unit that found it.
    pub unit: Option<u64>,
    /// The strategy that found it.
    pub strategy: Option<String>,
    /// Where a hand-entered record comes from.
    pub source: Option<String>,
}

impl Record {
    /// The canonical key of the (shrunk) counterexample; see [`canonical_key`].
    pub fn key(&self) -> String {
        canonical_key(&self.mechanism, self.property, &self.candidate)
    }

    /// The JSON form (one line of a JSONL file).
    ///
    /// # Example
    /// ```
    /// use leontief_counterexamples::candidate::{evaluate, Candidate};
    /// use leontief_counterexamples::record::Record;
    /// use leontief_solver::properties::{Property, Scenario};
    /// use leontief_solver::{Drf, Instance, User};
    /// let inst = Instance::new(vec![1.into(), 1.into()],
    ///     vec![User::new("A", [2, 1]), User::new("B", [1, 2])]).unwrap();
    /// let c = Candidate::new(inst, Scenario::Capacity(vec![1.into(), 4.into()]));
    /// let v = evaluate(&Drf::extended(), Property::Rm, &c).unwrap().unwrap();
    /// let r = Record::new("drf", Property::Rm, c, v);
    /// let json = r.to_json();
    /// assert_eq!(json["before"]["A"], "1/3");
    /// assert_eq!(json["after"]["A"], "1/4"); // B: 1/3 -> 1/2
    /// assert_eq!(json["after"]["B"], "1/2");
    /// assert_eq!(json["capacity"][1], "4");
    /// ```
    pub fn to_json(&self) -> Value {
        doc::value(&self.document())
    }

    /// The JSON form with a gain's `metric` and exact `value` after the record's fields
    /// (`prove`'s refutations of a bound on a gain).
    pub(crate) fn to_json_with_gain(&self, metric: &'static str, value: &Rational) -> Value {
        let mut record = self.document();
        record.gain = Some(GainDoc { metric, value });
        doc::value(&record)
    }

    fn document(&self) -> RecordDoc<'_> {
        RecordDoc {
            mechanism: &self.mechanism,
            property: self.property.name(),
            counterexample: counterexample_doc(&self.candidate, &self.violation),
            witness: self.violation.witness.to_json(&self.candidate.instance),
            seed: self.seed,
            unit: self.unit,
            strategy: self.strategy.as_deref(),
            source: self.source.as_deref(),
            key: self.key(),
            original: self
                .original
                .as_ref()
                .map(|(c, v)| counterexample_doc(c, v)),
            gain: None,
        }
    }

    /// A record without provenance.
    pub fn new(
        mechanism: impl Into<String>,
        property: Property,
        candidate: Candidate,
        violation: Violation,
    ) -> Self {
        Record {
            mechanism: mechanism.into(),
            property,
            candidate,
            violation,
            original: None,
            seed: None,
            unit: None,
            strategy: None,
            source: None,
        }
    }
}

/// A record as written: one JSONL line.
#[derive(Serialize)]
struct RecordDoc<'a> {
    mechanism: &'a str,
    property: &'static str,
    #[serde(flatten)]
    counterexample: CounterexampleDoc<'a>,
    witness: Value,
    seed: Option<u64>,
    unit: Option<u64>,
    strategy: Option<&'a str>,
    source: Option<&'a str>,
    key: String,
    /// The counterexample as found, before shrinking.
    original: Option<CounterexampleDoc<'a>>,
    #[serde(flatten)]
    gain: Option<GainDoc<'a>>,
}

/// A gain's metric and exact value.
#[derive(Serialize)]
struct GainDoc<'a> {
    metric: &'static str,
    value: &'a Rational,
}

/// A counterexample: the instance, the scenario (`lies`, `remove` or `capacity`, the others
/// `null`), each user's utility before and after, the coalition.
#[derive(Serialize)]
struct CounterexampleDoc<'a> {
    instance: Value,
    lies: Option<ByName<&'a [Rational]>>,
    remove: Option<String>,
    capacity: Option<&'a [Rational]>,
    before: ByName<&'a Rational>,
    after: Option<ByName<&'a Rational>>,
    coalition: Vec<String>,
}

fn counterexample_doc<'a>(c: &'a Candidate, v: &'a Violation) -> CounterexampleDoc<'a> {
    let inst = &c.instance;
    let name = |i: usize| inst.user_path(i);
    let (lies, remove, capacity) = match &c.scenario {
        Scenario::Lies(lies) => (
            Some(lies.iter().map(|(i, r)| (name(*i), r.as_slice())).collect()),
            None,
            None,
        ),
        Scenario::Remove(i) => (None, Some(name(*i)), None),
        Scenario::Capacity(cap) => (None, None, Some(cap.as_slice())),
        _ => (None, None, None),
    };
    CounterexampleDoc {
        instance: inst.to_json(),
        lies,
        remove,
        capacity,
        before: v
            .before
            .iter()
            .enumerate()
            .map(|(i, u)| (name(i), u))
            .collect(),
        after: v.after.as_ref().map(|after| {
            after
                .iter()
                .enumerate()
                .filter_map(|(i, u)| u.as_ref().map(|u| (name(i), u)))
                .collect()
        }),
        coalition: v.coalition.iter().map(|&i| name(i)).collect(),
    }
}

/// The mechanism, property and candidate of a record's JSON, with the field named on error.
///
/// # Errors
/// A missing or malformed field, an unknown property, a user or resource that is not in
/// the instance, a scenario that does not fit the property.
pub fn read_candidate(value: &Value) -> Result<(String, Property, Candidate), SolverError> {
    let mechanism = doc::text(value, "mechanism")?.to_string();
    let property: Property = doc::text(value, "property")?
        .parse()
        .map_err(|e| SolverError::invalid("property", format!("{e}")))?;
    let candidate = read_counterexample(value, "")?;
    if !fits(property, &candidate.scenario) {
        return Err(SolverError::invalid(
            "lies/remove/capacity",
            format!("{property} needs {}", needs(property)),
        ));
    }
    Ok((mechanism, property, candidate))
}

fn needs(property: Property) -> &'static str {
    match property {
        Property::Sp => "\"lies\" with exactly one user",
        Property::GspStrong | Property::GspWeak => "\"lies\" with at least one user",
        Property::Pm => "\"remove\"",
        Property::Rm => "\"capacity\"",
        _ => "no scenario (lies, remove and capacity null)",
    }
}

/// The instance and scenario of a record (or of its `original`), fields prefixed by `at`,
fn read_counterexample(value: &Value, at: &str) -> Result<Candidate, SolverError> {
    let path = |k: &str| format!("{at}{k}");
    let inst_value = value
        .get("instance")
        .ok_or_else(|| SolverError::invalid(path("instance"), "missing"))?;
    let instance = Instance::from_json(inst_value).map_err(|e| match e {
        SolverError::Invalid { field, reason } => {
            SolverError::invalid(format!("{}.{field}", path("instance")), reason)
        }
        other => other,
    })?;
    let present = |k: &str| value.get(k).filter(|v| !v.is_null());
    let numbers = |k: &str, v: &Value| -> Result<Vec<Rational>, SolverError> {
        let list = v
            .as_array()
            .ok_or_else(|| SolverError::invalid(k, "expected a list of numbers"))?;
        if list.len() != instance.num_resources() {
            return Err(SolverError::invalid(
                k,
                format!(
                    "expected {} entries, one per resource, found {}",
                    instance.num_resources(),
                    list.len()
                ),
            ));
        }
        list.iter()
            .enumerate()
            .map(|(j, x)| read_number(&format!("{k}[{j}]"), x))
            .collect()
    };
    let scenarios = ["lies", "remove", "capacity"]
        .iter()
        .filter(|k| present(k).is_some())
        .count();
    if scenarios > 1 {
        return Err(SolverError::invalid(
            path("lies/remove/capacity"),
            "at most one of them may be given",
        ));
    }
    let scenario = if let Some(lies) = present("lies") {
        doc::read_lies(
            &instance,
            lies,
            &path("lies"),
            "expected {user: [..]}",
            numbers,
        )?
    } else if let Some(name) = present("remove") {
        let name = (name.as_str())
            .ok_or_else(|| SolverError::invalid(path("remove"), "expected a user name"))?;
        Scenario::Remove(doc::user_at(&instance, &path("remove"), name)?)
    } else if let Some(cap) = present("capacity") {
        Scenario::Capacity(numbers(&path("capacity"), cap)?)
    } else {
        Scenario::Bounded
    };
    Ok(Candidate::new(instance, scenario))
}

/// Re-verifies one record with `mechanism`: it must still violate its property and every
/// recorded `before`, `after` and `coalition` value must be recomputed exactly (also for
/// the `original`, when present).
///
/// # Errors
/// A malformed record, a mechanism error, no violation, or a differing value.
///
/// # Example
/// ```
/// use leontief_counterexamples::record::replay;
/// use leontief_solver::Drf;
/// let line = r#"{"mechanism": "drf", "property": "rm",
///   "instance": {"capacity": [1, 1], "users": [{"name": "A", "demand": [2, 1]}, {"name": "B", "demand": [1, 2]}]},
///   "capacity": [1, 4], "before": {"A": "1/3", "B": "1/3"}, "after": {"A": "1/4", "B": "1/2"}, "coalition": ["A"]}"#;
/// let value: serde_json::Value = serde_json::from_str(line).unwrap();
/// replay(&Drf::extended(), &value).unwrap();
/// ```
pub fn replay(mechanism: &dyn Mechanism, value: &Value) -> Result<Record, RecordError> {
    let (name, property, candidate) = read_candidate(value)?;
    let violation = reverify(mechanism, property, &candidate, value, "")?;
    let original = (value.get("original").filter(|v| !v.is_null()))
        .map(|orig| -> Result<_, RecordError> {
            let c = read_counterexample(orig, "original.")?;
            let v = reverify(mechanism, property, &c, orig, "original.")?;
            Ok((c, v))
        })
        .transpose()?;
    let num = |k: &str| value.get(k).and_then(Value::as_u64);
    let text = |k: &str| value.get(k).and_then(Value::as_str).map(str::to_string);
    Ok(Record {
        mechanism: name,
        property,
        candidate,
        violation,
        original,
        seed: num("seed"),
        unit: num("unit"),
        strategy: text("strategy"),
        source: text("source"),
    })
}

fn reverify(
    mechanism: &dyn Mechanism,
    property: Property,
    candidate: &Candidate,
    recorded: &Value,
    at: &str,
) -> Result<Violation, RecordError> {
    let violation = evaluate(mechanism, property, candidate)?.ok_or_else(|| {
        RecordError::NotAViolation(format!(
            "{at}: {} does not violate {property} here when re-verified",
            mechanism.name()
        ))
    })?;
    let computed = doc::value(&counterexample_doc(candidate, &violation));
    for k in ["before", "after", "coalition"] {
        if let Some(r) = recorded.get(k) {
            let c = &computed[k];
            if !same_values(r, c) {
                return Err(RecordError::Mismatch {
                    field: format!("{at}{k}"),
                    recorded: r.to_string(),
                    computed: c.to_string(),
                });
            }
        }
    }
    Ok(violation)
}

/// Equal as exact numbers where both are numbers or numeric strings, structurally otherwise.
fn same_values(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_values(v, w)))
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(v, w)| same_values(v, w))
        }
        (x, y) if x == y => true,
        (x, y) => match (read_number("", x), read_number("", y)) {
            (Ok(p), Ok(q)) => p == q,
            _ => false,
        },
    }
}

/// A key equal for two counterexamples exactly when one is the other up to a permutation
/// of users, a permutation of resources (all `m!` of them for `m <= 6`; for larger `m`
/// resources keep their order), and scaling: each resource measured in units of its
/// capacity, each user's demand (and report) in units of its dominant share per task (its
/// cap scaled to match), weights relative to the largest. Names do not matter; of an
/// instance with pools the tree's shape and pool weights do, as an unordered tree, not the
/// pools' names.
///
/// # Example
/// The same RM counterexample with users swapped, resources swapped, the first resource
/// counted in tenths and `y`'s tasks three times larger has the same key.
/// ```
/// use leontief_counterexamples::candidate::Candidate;
/// use leontief_counterexamples::record::canonical_key;
/// use leontief_solver::properties::{Property, Scenario};
/// use leontief_solver::{Instance, User};
/// let a = Candidate::new(Instance::new(vec![1.into(), 1.into()],
///     vec![User::new("A", [2, 1]), User::new("B", [1, 2])]).unwrap(),
///     Scenario::Capacity(vec![1.into(), 4.into()]));
/// let b = Candidate::new(Instance::new(vec![10.into(), 1.into()],
///     vec![User::new("x", [20, 1]), User::new("y", [30, 6])]).unwrap(),
///     Scenario::Capacity(vec![40.into(), 1.into()]));
/// assert_eq!(canonical_key("drf", Property::Rm, &a), canonical_key("drf", Property::Rm, &b));
/// ```
pub fn canonical_key(mechanism: &str, property: Property, candidate: &Candidate) -> String {
    let inst = &candidate.instance;
    let m = inst.num_resources();
    let cap = inst.capacity();
    let max_weight = inst
        .users()
        .iter()
        .map(|u| u.weight.clone())
        .max()
        .unwrap_or(Rational::ONE);
    let lies: BTreeMap<usize, &Vec<Rational>> = match &candidate.scenario {
        Scenario::Lies(l) => l.iter().map(|(i, r)| (*i, r)).collect(),
        _ => BTreeMap::new(),
    };
    let leaving = match candidate.scenario {
        Scenario::Remove(i) => Some(i),
        _ => None,
    };
    // Per user: normalised demand, report and per-resource weights (columns), and the
    // scalar attributes.
    struct Row {
        columns: Vec<Vec<Rational>>,
        scalars: String,
    }
    let rows: Vec<Row> = inst
        .users()
        .iter()
        .enumerate()
        .map(|(i, u)| {
            let s = inst.task_dominant_share(i);
            let unit = |x: &Rational, j: usize| &(x / &cap[j]) / &s;
            let columns = (0..m)
                .map(|j| {
                    let mut col = vec![unit(&u.demand[j], j)];
                    if let Some(r) = lies.get(&i) {
                        col.push(unit(&r[j], j));
                    }
                    if let Some(w) = &u.resource_weights {
                        col.push(w[j].clone());
                    }
                    col
                })
                .collect();
            let scalars = format!(
                "w={} t={} {}{}",
                &u.weight / &max_weight,
                u.cap
                    .as_ref()
                    .map_or("-".to_string(), |t| (t * &s).to_string()),
                if lies.contains_key(&i) { "L" } else { "" },
                if leaving == Some(i) { "R" } else { "" },
            );
            Row { columns, scalars }
        })
        .collect();
    let growth: Option<Vec<Rational>> = match &candidate.scenario {
        Scenario::Capacity(c) => Some((0..m).map(|j| &c[j] / &cap[j]).collect()),
        _ => None,
    };
    // Instances with pools: their tree, encoded below as an unordered tree.
    let tree = Some(inst.hierarchy()).filter(|h| !h.is_flat());
    let render = |perm: &[usize]| -> String {
        let lines: Vec<String> = rows
            .iter()
            .map(|r| {
                let cols: Vec<String> = perm
                    .iter()
                    .map(|&j| {
                        r.columns[j]
                            .iter()
                            .map(Rational::to_string)
                            .collect::<Vec<_>>()
                            .join(":")
                    })
                    .collect();
                format!("{} {}", cols.join(","), r.scalars)
            })
            .collect();
        let lines = if let Some(tree) = tree {
            canonical_tree(tree, 0, &lines)
        } else {
            let mut lines = lines;
            lines.sort();
            lines.join(" ; ")
        };
        let g = growth.as_ref().map_or(String::new(), |g| {
            perm.iter()
                .map(|&j| g[j].to_string())
                .collect::<Vec<_>>()
                .join(",")
        });
        format!("{lines} | {g}")
    };
    let body = if m <= 6 {
        permutations(m)
            .iter()
            .map(|p| render(p))
            .min()
            .unwrap_or_default()
    } else {
        render(&(0..m).collect::<Vec<_>>())
    };
    format!("{mechanism} {} | {body}", property.name())
}

/// The canonical form of node `v` of `tree` (users' leaves replaced by their `lines`) as
/// an unordered tree: a pool is its weight and the sorted forms of its children, so pool
/// names and the order of siblings do not matter (the AHU encoding).
fn canonical_tree(tree: &Hierarchy, v: usize, lines: &[String]) -> String {
    let node = tree.node(v);
    if let Some(u) = node.user {
        return lines[u].clone();
    }
    let mut items: Vec<String> = node
        .children
        .iter()
        .map(|&c| canonical_tree(tree, c, lines))
        .collect();
    items.sort();
    format!("({}: {})", node.weight, items.join(" ; "))
}

/// Every permutation of `0..m`, as vectors.
pub(crate) fn permutations(m: usize) -> Vec<Vec<usize>> {
    let mut out = vec![Vec::new()];
    for k in 0..m {
        out = out
            .into_iter()
            .flat_map(|p| {
                (0..=k).map(move |pos| {
                    let mut q = p.clone();
                    q.insert(pos, k);
                    q
                })
            })
            .collect();
    }
    out
}
