//! Importing production scheduler configurations into the tree JSON form.
//!
//! Two sources are read:
//! - [`yarn`]: an Apache Hadoop YARN Fair Scheduler allocation file (`fair-scheduler.xml`);
//! - [`kueue`]: Kubernetes Kueue `ClusterQueue` and `Cohort` objects (a multi-document YAML
//!   stream).
//!
//! Both produce an [`Imported`] tree: the resources, the capacity, and a node per queue with
//! the fields of the tree form (`weight`, `guarantee`, `limit`, `mode`; leaves' `demand`,
//! `tasks`, `usage`). A configuration says what each queue is entitled to, not what it asks
//! for, so leaves are imported idle (an all-zero `demand`) unless the user gives demands:
//! [`Demands`] (`--demands FILE`, `--demand VECTOR`).
//!
//! Nothing is dropped silently: elements the tree form cannot express are listed in
//! [`Imported::warnings`]; elements the importer does not know are errors naming their path.
//!
//! # References
//! - Apache Hadoop, *Fair Scheduler* (allocation file format):
//!   <https://hadoop.apache.org/docs/stable/hadoop-yarn/hadoop-yarn-site/FairScheduler.html>
//! - Kueue, *Cluster Queue* and *Cohort* concepts:
//!   <https://kueue.sigs.k8s.io/docs/concepts/cluster_queue/>,
//!   <https://kueue.sigs.k8s.io/docs/concepts/cohort/>

pub mod kueue;
pub mod yaml;
pub mod yarn;

use leontief_solver::json::{check_length, check_vector, parse_strict, reject_unknown, Sign};
use leontief_solver::{read_number, read_numbers, Rational, SolverError};
use serde::{Serialize, Serializer};
use serde_json::{Map, Value};

/// One imported node, in the tree form's terms; serialized as a node of the tree file (a pool
/// has `mode` and `children`, a leaf `demand`, `tasks` and `usage`; fields at their defaults
/// are left out).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ImportedNode {
    /// The node's name (unique among its siblings).
    pub name: String,
    /// The source's name for the node (YARN's dotted queue name, Kueue's object name): the key
    /// of the node in a demands file.
    #[serde(skip)]
    pub key: String,
    /// The weight (1 unless the source says otherwise).
    #[serde(skip_serializing_if = "is_one", serialize_with = "exact")]
    pub weight: Rational,
    /// The guarantee, absolute, one entry per resource.
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "exact")]
    pub guarantee: Option<Vec<Rational>>,
    /// The limit, absolute, one entry per resource.
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "exact")]
    pub limit: Option<Vec<Rational>>,
    /// `fifo` when the node (a pool) serves its children in order (default: fair). Set on
    /// pools only: it is written as it is, and the tree reader refuses a mode on a leaf.
    #[serde(rename = "mode", skip_serializing_if = "std::ops::Not::not")]
    #[serde(serialize_with = "fifo_mode")]
    pub fifo: bool,
    /// A pool's children (possibly none: an empty pool); `None` for a leaf, which holds tasks
    /// (idle until demands are given).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub children: Option<Vec<ImportedNode>>,
    /// A leaf's per-task demand (all zero: idle). Leaves only, as are `tasks` and `usage`: they
    /// are written as they are, and the tree reader refuses them on a pool.
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "exact")]
    pub demand: Option<Vec<Rational>>,
    /// A leaf's task count.
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "exact")]
    pub tasks: Option<Rational>,
    /// A leaf's usage (what it holds now).
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "exact")]
    pub usage: Option<Vec<Rational>>,
}

impl ImportedNode {
    /// A node with the defaults: weight 1, no guarantee, no limit, fair; a pool of `children`,
    /// or a leaf (`None`).
    pub fn new(
        name: impl Into<String>,
        key: impl Into<String>,
        children: Option<Vec<ImportedNode>>,
    ) -> ImportedNode {
        ImportedNode {
            name: name.into(),
            key: key.into(),
            weight: Rational::ONE,
            guarantee: None,
            limit: None,
            fifo: false,
            children,
            demand: None,
            tasks: None,
            usage: None,
        }
    }
}

/// An imported configuration, serialized as the tree JSON form: `{"about", "note"?,
/// "resources", "capacity", "tree"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Imported {
    /// What the source is (written to the output's `about`).
    pub about: String,
    /// What the tree form cannot express and was dropped, or how a source rule was applied
    /// (joined in the output's `note`).
    #[serde(rename = "note", skip_serializing_if = "Vec::is_empty")]
    #[serde(serialize_with = "note")]
    pub warnings: Vec<String>,
    /// Resource names.
    pub resources: Vec<String>,
    /// The capacity, one entry per resource.
    #[serde(serialize_with = "exact")]
    pub capacity: Vec<Rational>,
    /// The root.
    #[serde(rename = "tree")]
    pub root: ImportedNode,
    /// Nodes whose source order policy is FIFO over their jobs: with jobs from a demands file
    /// they become `fifo` pools (keys).
    #[serde(skip)]
    pub fifo_leaves: Vec<String>,
    /// A prefix a demands file may leave out of its keys (YARN's `root.`).
    #[serde(skip)]
    pub key_prefix: Option<String>,
}

/// Rationals (one, a list, or an optional one) as the tree file writes them: integers as JSON
/// numbers, anything else as exact `"p/q"` strings.
fn exact<T: Serialize, S: Serializer>(x: &T, serializer: S) -> Result<S::Ok, S::Error> {
    fn integers(v: Value) -> Value {
        match v {
            Value::String(text) => crate::output::decimal_value(text),
            Value::Array(xs) => xs.into_iter().map(integers).collect(),
            v => v,
        }
    }
    let v = serde_json::to_value(x).map_err(serde::ser::Error::custom)?;
    integers(v).serialize(serializer)
}

fn is_one(w: &Rational) -> bool {
    *w == Rational::ONE
}

fn fifo_mode<S: Serializer>(_: &bool, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str("fifo")
}

fn note<S: Serializer>(warnings: &[String], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&warnings.join(" "))
}

impl Imported {
    /// Applies demands (see [`Demands`]) to the leaves; every key of the demands file must
    /// name a leaf.
    ///
    /// # Errors
    /// A key naming no leaf, a vector of the wrong length, a negative number: errors naming
    /// the demands file's field.
    pub fn apply(&mut self, demands: &Demands) -> Result<(), SolverError> {
        let n = self.resources.len();
        if let Some(d) = &demands.default {
            check_length("--demand", d, n)?;
        }
        let mut leaves = Vec::new();
        collect_leaves(&self.root, &mut leaves);
        // The entries by their leaves' full keys.
        let mut entries: Vec<(String, &DemandEntry)> = Vec::new();
        for (key, entry) in &demands.entries {
            let full = match &self.key_prefix {
                Some(p) if !leaves.contains(key) => format!("{p}{key}"),
                _ => key.clone(),
            };
            if !leaves.contains(&full) {
                return Err(SolverError::invalid(
                    format!("demands.{key}"),
                    format!("no such leaf (leaves: {})", leaves.join(", ")),
                ));
            }
            if entries.iter().any(|(k, _)| *k == full) {
                return Err(SolverError::invalid(
                    format!("demands.{key}"),
                    format!("{full} is given twice"),
                ));
            }
            entries.push((full, entry));
        }
        let idle = vec![Rational::ZERO; n];
        let default = demands.default.as_ref().unwrap_or(&idle);
        apply_node(&mut self.root, &entries, default, &self.fifo_leaves)
    }
}

fn collect_leaves(node: &ImportedNode, out: &mut Vec<String>) {
    match &node.children {
        None => out.push(node.key.clone()),
        Some(children) => children.iter().for_each(|c| collect_leaves(c, out)),
    }
}

/// Applies the demand `entries` (by full key) to the leaves below `node`, `default` to the
/// others.
fn apply_node(
    node: &mut ImportedNode,
    entries: &[(String, &DemandEntry)],
    default: &[Rational],
    fifo: &[String],
) -> Result<(), SolverError> {
    if let Some(children) = &mut node.children {
        for c in children {
            apply_node(c, entries, default, fifo)?;
        }
        return Ok(());
    }
    let n = default.len();
    match entries.iter().find(|(k, _)| *k == node.key) {
        None => node.demand = Some(default.to_vec()),
        Some((key, entry)) => {
            let at = format!("demands.{key}");
            match &entry.jobs {
                None => entry.spec.fill(node, &at, n)?,
                Some(jobs) => {
                    if entry.spec != LeafSpec::default() {
                        return Err(SolverError::invalid(
                            at,
                            "give either \"jobs\" or the queue's own demand, tasks and usage, not both",
                        ));
                    }
                    let mut children: Vec<ImportedNode> = Vec::new();
                    for (i, (name, spec)) in jobs.iter().enumerate() {
                        let at = format!("{at}.jobs[{i}]");
                        if children.iter().any(|c| &c.name == name) {
                            return Err(SolverError::invalid(
                                format!("{at}.name"),
                                format!("{name:?} is already a job of this queue"),
                            ));
                        }
                        let mut job =
                            ImportedNode::new(name.clone(), format!("{key}/{name}"), None);
                        spec.fill(&mut job, &at, n)?;
                        children.push(job);
                    }
                    node.fifo = fifo.contains(&node.key);
                    node.children = Some(children);
                }
            }
        }
    }
    Ok(())
}

/// A leaf's demand, task count and usage as a demands file gives them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LeafSpec {
    /// Per-task demand.
    pub demand: Option<Vec<Rational>>,
    /// Task count.
    pub tasks: Option<Rational>,
    /// Usage.
    pub usage: Option<Vec<Rational>>,
    /// Weight (jobs only: an entry's own fields leave it out).
    pub weight: Option<Rational>,
}

impl LeafSpec {
    fn fill(&self, node: &mut ImportedNode, at: &str, n: usize) -> Result<(), SolverError> {
        let demand = self
            .demand
            .clone()
            .unwrap_or_else(|| vec![Rational::ZERO; n]);
        check_length(&format!("{at}.demand"), &demand, n)?;
        if let Some(u) = &self.usage {
            check_length(&format!("{at}.usage"), u, n)?;
        }
        node.demand = Some(demand);
        node.tasks = self.tasks.clone();
        node.usage = self.usage.clone();
        if let Some(w) = &self.weight {
            node.weight = w.clone();
        }
        Ok(())
    }
}

/// One entry of a demands file: the leaf's own demand, or its jobs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DemandEntry {
    /// The leaf's own demand, tasks and usage.
    pub spec: LeafSpec,
    /// Jobs (applications, workloads): the leaf becomes a pool of these, served in order when
    /// the source orders them FIFO.
    pub jobs: Option<Vec<(String, LeafSpec)>>,
}

/// Demands for imported leaves: `--demands FILE` and `--demand VECTOR`.
///
/// The file is a JSON object keyed by the source's queue name (YARN: `root.a.b`, the `root.`
/// prefix optional; Kueue: the ClusterQueue's name), each value either
/// `{"demand": [..], "tasks": n, "usage": [..]}` or `{"jobs": [{"name", "demand", "tasks",
/// "usage", "weight"}, ..]}`. Leaves it does not name get `default` (`--demand`), or are idle.
///
/// # Example
/// ```
/// use leontief::import::Demands;
/// let d = Demands::from_json_str(r#"{"root.a": {"demand": [1024, 1], "tasks": 4}}"#, None).unwrap();
/// assert_eq!(d.entries[0].0, "root.a");
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Demands {
    /// Entries by source key, in file order.
    pub entries: Vec<(String, DemandEntry)>,
    /// The demand of every other leaf (default: idle).
    pub default: Option<Vec<Rational>>,
}

const ENTRY_FIELDS: &[&str] = &["demand", "tasks", "usage", "jobs"];
const JOB_FIELDS: &[&str] = &["name", "demand", "tasks", "usage", "weight"];

impl Demands {
    /// Reads a demands file (see [`Demands`]); `default` is `--demand`.
    ///
    /// # Errors
    /// Unreadable JSON, an unknown field, a malformed number: errors naming the field.
    pub fn from_json_str(
        text: &str,
        default: Option<Vec<Rational>>,
    ) -> Result<Demands, SolverError> {
        let value = parse_strict(text)?;
        let obj = value.as_object().ok_or_else(|| {
            SolverError::invalid("demands", "expected an object keyed by queue name")
        })?;
        let mut entries = Vec::new();
        for (key, v) in obj {
            let at = format!("demands.{key}");
            let o = object(v, &at)?;
            reject_unknown(o, &at, ENTRY_FIELDS, &ENTRY_FIELDS.join(", "))?;
            let spec = leaf_spec(o, &at)?;
            let jobs = match o.get("jobs") {
                None => None,
                Some(list) => {
                    let list = list.as_array().ok_or_else(|| {
                        SolverError::invalid(format!("{at}.jobs"), "expected a list")
                    })?;
                    let mut jobs = Vec::new();
                    for (i, j) in list.iter().enumerate() {
                        let at = format!("{at}.jobs[{i}]");
                        let jo = object(j, &at)?;
                        reject_unknown(jo, &at, JOB_FIELDS, &JOB_FIELDS.join(", "))?;
                        let name = jo
                            .get("name")
                            .and_then(Value::as_str)
                            .filter(|s| !s.is_empty() && !s.contains('/'))
                            .ok_or_else(|| {
                                SolverError::invalid(
                                    format!("{at}.name"),
                                    "expected a non-empty name without '/'",
                                )
                            })?;
                        jobs.push((name.to_string(), leaf_spec(jo, &at)?));
                    }
                    Some(jobs)
                }
            };
            entries.push((key.clone(), DemandEntry { spec, jobs }));
        }
        Ok(Demands { entries, default })
    }
}

fn object<'a>(v: &'a Value, at: &str) -> Result<&'a Map<String, Value>, SolverError> {
    v.as_object()
        .ok_or_else(|| SolverError::invalid(at, "expected an object"))
}

/// The error for the field `k` of the object at `at`, which is none of `known`.
fn unknown_field(at: &str, k: &str, known: &[&str]) -> SolverError {
    SolverError::invalid(
        format!("{at}.{k}"),
        format!("unknown field (expected {})", known.join(", ")),
    )
}

fn leaf_spec(o: &Map<String, Value>, at: &str) -> Result<LeafSpec, SolverError> {
    let vec = |f: &str| -> Result<Option<Vec<Rational>>, SolverError> {
        match o.get(f) {
            None => Ok(None),
            Some(v) => {
                let field = format!("{at}.{f}");
                let xs = read_numbers(&field, v)?;
                // Signs only: the length is checked against the resources when applied.
                check_vector(&field, &xs, xs.len(), Sign::NonNegative)?;
                Ok(Some(xs))
            }
        }
    };
    let one = |f: &str| {
        o.get(f)
            .map(|v| amount(&format!("{at}.{f}"), v))
            .transpose()
    };
    // Read in this order: an error names the first bad field of these.
    Ok(LeafSpec {
        tasks: one("tasks")?,
        demand: vec("demand")?,
        usage: vec("usage")?,
        weight: one("weight")?,
    })
}

/// The warning that lists what the tree form cannot express.
const DROPPED: &str = "Dropped (no tree equivalent)";

/// A warning listing `items` after `label` (none when there are none).
fn listed(label: &str, items: &[String], separator: &str) -> Option<String> {
    (!items.is_empty()).then(|| format!("{label}: {}.", items.join(separator)))
}

/// `a + b`, entry by entry.
fn add(a: &[Rational], b: &[Rational]) -> Vec<Rational> {
    a.iter().zip(b).map(|(x, y)| x + y).collect()
}

/// `v` capped at `cap`, entry by entry.
fn capped(v: Vec<Rational>, cap: &[Rational]) -> Vec<Rational> {
    v.into_iter()
        .zip(cap)
        .map(|(x, c)| x.min(c.clone()))
        .collect()
}

/// The entry-by-entry sum of `vs`, vectors of `n` entries.
fn sum(vs: &[Vec<Rational>], n: usize) -> Vec<Rational> {
    vs.iter()
        .fold(vec![Rational::ZERO; n], |acc, v| add(&acc, v))
}

/// The number at `field`, which must not be negative.
fn amount(field: &str, v: &Value) -> Result<Rational, SolverError> {
    non_negative(field, read_number(field, v)?)
}

/// A weight `w` read at `field`, which must not be 0: a tree's shares are divided by the
/// weight (the sources allow 0, with a meaning of their own).
fn positive_weight(field: &str, w: Rational) -> Result<Rational, SolverError> {
    if w.is_zero() {
        return Err(SolverError::invalid(
            field,
            "0 has no tree equivalent: the tree form needs a positive weight",
        ));
    }
    Ok(w)
}

/// `x`, or an error naming `field` when it is negative.
pub(crate) fn non_negative(field: &str, x: Rational) -> Result<Rational, SolverError> {
    if x.is_negative() {
        Err(SolverError::invalid(
            field,
            format!("must not be negative, found {x}"),
        ))
    } else {
        Ok(x)
    }
}

/// Reads an exact decimal the way a configuration writes it (`2.0`, `0.75`, `1e3`).
pub(crate) fn decimal(field: &str, text: &str) -> Result<Rational, SolverError> {
    Rational::from_decimal_str(text.trim()).map_err(|e| SolverError::number(field, e))
}
