//! Kueue `ClusterQueue` and `Cohort` objects into the tree form.
//!
//! | Kueue | tree form |
//! |---|---|
//! | `Cohort` (hierarchical through `spec.parentName`; implicit when only named) | pool |
//! | `ClusterQueue` (in the cohort `spec.cohortName`, v1beta1 `spec.cohort`) | leaf (idle unless demands are given) |
//! | a (flavor, resource) pair | a resource (`cpu`, or `flavor/cpu` when there are several flavors) |
//! | `nominalQuota` | `guarantee` (a cohort's: its own quota plus its children's) |
//! | `nominalQuota + borrowingLimit`, and what others may not borrow (`lendingLimit`) | `limit` |
//! | `fairSharing.weight` | `weight` |
//! | `queueingStrategy` (`StrictFIFO`, `BestEffortFIFO`, the default) | `mode: fifo` once the queue's workloads are given as jobs |
//!
//! The capacity is the sum of every nominal quota: in Kueue the quotas are the capacity model.
//! A node's `limit` is the most it can hold when everything else is idle, computed as Kueue's
//! `potentialAvailable` (`pkg/cache/scheduler/resource_node.go`): its own unlendable quota
//! plus what its parent can reach, capped by `nominalQuota + borrowingLimit`; a cohort's also
//! counts the unlendable quota below it. So a `lendingLimit` keeps the guarantee whole and
//! lowers the *others'* limits: the quota a queue may not lend is out of their reach (the
//! documentation's example: team-b's `lendingLimit: 1` leaves team-a at most 9 + 1 CPUs). A
//! ClusterQueue cannot use a (flavor, resource) it does not list ("A ClusterQueue can only
//! borrow quota for flavors that the ClusterQueue defines"): its limit there is 0.
//! Independent cohort trees, and ClusterQueues without a cohort, go under a pool named
//! `root`, each limited to its own quota (Kueue lends nothing between them).
//!
//! Fields without a tree equivalent (`namespaceSelector`, `preemption`, `flavorFungibility`,
//! `admissionChecks`, `stopPolicy`, …), `status`, and objects of other Kueue kinds
//! (`ResourceFlavor`, `LocalQueue`, …) are listed in the warnings; unknown fields and non-Kueue
//! objects are errors naming the document and field. How Kueue orders nodes (dominant share
//! of the *borrowed* amount, after admission) is for the ordering command, not the import.
//!
//! # References
//! Kueue documentation, *Cluster Queue* (quotas, borrowing and lending limits):
//! <https://kueue.sigs.k8s.io/docs/concepts/cluster_queue/>; *Cohort* (hierarchical cohorts):
//! <https://kueue.sigs.k8s.io/docs/concepts/cohort/>; *Fair Sharing*:
//! <https://kueue.sigs.k8s.io/docs/concepts/fair_sharing/>; API types
//! `apis/kueue/v1beta2/{clusterqueue,cohort}_types.go` in
//! <https://github.com/kubernetes-sigs/kueue>.

use leontief_solver::hierarchy::MAX_DEPTH;
use leontief_solver::{Rational, SolverError};
use yaml_rust2::Yaml;

use super::{
    add, capped, decimal, listed, non_negative, positive_weight, unknown_field, Imported,
    ImportedNode, DROPPED,
};

/// The field that errors about the whole stream name.
pub const DOCUMENT: &str = "kueue file";

/// Reads a Kubernetes quantity exactly: `9`, `0.5`, `500m`, `36Gi`, `1e3`, `2k`.
///
/// # Example
/// ```
/// use leontief::import::kueue::quantity;
/// assert_eq!(quantity("x", "36Gi").unwrap().to_string(), "38654705664");
/// assert_eq!(quantity("x", "500m").unwrap().to_string(), "1/2");
/// ```
///
/// # Errors
/// A text that is not a quantity, or a negative one.
pub fn quantity(field: &str, text: &str) -> Result<Rational, SolverError> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '+' || c == '-'))
        .unwrap_or(t.len());
    let (num, suffix) = t.split_at(split);
    let base = decimal(field, num)?;
    let pow = |b: i128, e: u32| Rational::integer(b.pow(e));
    let factor = match suffix {
        "" => Rational::ONE,
        "Ki" => pow(1024, 1),
        "Mi" => pow(1024, 2),
        "Gi" => pow(1024, 3),
        "Ti" => pow(1024, 4),
        "Pi" => pow(1024, 5),
        "Ei" => pow(1024, 6),
        "n" => Rational::ONE / pow(1000, 3),
        "u" => Rational::ONE / pow(1000, 2),
        "m" => Rational::ONE / pow(1000, 1),
        "k" => pow(1000, 1),
        "M" => pow(1000, 2),
        "G" => pow(1000, 3),
        "T" => pow(1000, 4),
        "P" => pow(1000, 5),
        "E" => pow(1000, 6),
        s if s.starts_with(['e', 'E']) => {
            return non_negative(field, decimal(field, t)?);
        }
        s => {
            return Err(SolverError::invalid(
                field,
                format!("unknown quantity suffix {s:?} in {t:?} (expected Ki, Mi, Gi, Ti, Pi, Ei, n, u, m, k, M, G, T, P, E or an exponent)"),
            ))
        }
    };
    non_negative(field, base * factor)
}

fn yaml_quantity(field: &str, v: &Yaml) -> Result<Rational, SolverError> {
    match v {
        Yaml::Integer(i) => non_negative(field, Rational::integer(i128::from(*i))),
        Yaml::Real(s) | Yaml::String(s) => quantity(field, s),
        other => Err(expected(field, "a quantity", other)),
    }
}

/// The error for a value at `at` that is not `what`.
fn expected(at: &str, what: &str, v: &Yaml) -> SolverError {
    SolverError::invalid(at, format!("expected {what}, found {}", kind(v)))
}

fn kind(v: &Yaml) -> &'static str {
    match v {
        Yaml::Real(_) | Yaml::Integer(_) => "a number",
        Yaml::String(_) => "a string",
        Yaml::Boolean(_) => "a boolean",
        Yaml::Array(_) => "a list",
        Yaml::Hash(_) => "a mapping",
        Yaml::Alias(_) => "an alias",
        Yaml::Null => "null",
        Yaml::BadValue => "a bad value",
    }
}

/// A mapping's fields that are read, with the mapping's path.
struct Fields<'a> {
    at: String,
    found: Vec<(&'a str, &'a Yaml)>,
}

impl<'a> Fields<'a> {
    /// The keys of the mapping `v` at `at`, checked against what is read and what is dropped
    /// (those are named in `out`): any other key is an error.
    fn read(
        v: &'a Yaml,
        at: String,
        read: &[&str],
        dropped: &[&str],
        out: &mut Vec<String>,
    ) -> Result<Self, SolverError> {
        let Yaml::Hash(h) = v else {
            return Err(expected(&at, "a mapping", v));
        };
        let mut found = Vec::new();
        for (k, val) in h {
            let Some(k) = k.as_str() else {
                return Err(SolverError::invalid(at, "a key is not a string"));
            };
            if read.contains(&k) {
                found.push((k, val));
            } else if dropped.contains(&k) {
                out.push(format!("{at}.{k}"));
            } else {
                return Err(unknown_field(&at, k, &[read, dropped].concat()));
            }
        }
        Ok(Fields { at, found })
    }

    /// The path of the field `key`.
    fn at(&self, key: &str) -> String {
        format!("{}.{key}", self.at)
    }

    fn get(&self, key: &str) -> Option<&'a Yaml> {
        self.found.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
    }

    /// The field `key`, which must be there.
    fn required(&self, key: &str) -> Result<&'a Yaml, SolverError> {
        self.get(key)
            .ok_or_else(|| SolverError::invalid(self.at(key), "missing"))
    }

    /// The string field `key` (a missing one is null).
    fn string(&self, key: &str) -> Result<String, SolverError> {
        string(self.get(key).unwrap_or(&Yaml::Null), &self.at(key))
    }

    /// The list field `key`, which must be there.
    fn list(&self, key: &str) -> Result<&'a [Yaml], SolverError> {
        list(self.required(key)?, &self.at(key))
    }

    /// The quantity field `key`, when given.
    fn quantity(&self, key: &str) -> Result<Option<Rational>, SolverError> {
        self.get(key)
            .map(|q| yaml_quantity(&self.at(key), q))
            .transpose()
    }
}

fn string(v: &Yaml, at: &str) -> Result<String, SolverError> {
    match v {
        Yaml::String(s) if !s.is_empty() => Ok(s.clone()),
        other => Err(expected(at, "a non-empty string", other)),
    }
}

/// A ClusterQueue's or Cohort's name, or a reference to one. Kubernetes names never hold
/// `/`, and a tree path could not either.
fn object_name(v: &Yaml, at: &str) -> Result<String, SolverError> {
    let name = string(v, at)?;
    if name.contains('/') {
        return Err(SolverError::invalid(
            at,
            format!("{name:?} is not a Kubernetes object name: it contains '/'"),
        ));
    }
    Ok(name)
}

fn list<'a>(v: &'a Yaml, at: &str) -> Result<&'a [Yaml], SolverError> {
    match v {
        Yaml::Array(a) => Ok(a),
        other => Err(expected(at, "a list", other)),
    }
}

/// One quota line: a (flavor, resource) pair and its amounts.
#[derive(Debug, Clone)]
struct Quota {
    flavor: String,
    resource: String,
    nominal: Rational,
    borrowing: Option<Rational>,
    lending: Option<Rational>,
}

/// A ClusterQueue or Cohort as read.
#[derive(Debug, Clone, Default)]
struct Object {
    cohort: bool,
    name: String,
    parent: Option<String>,
    quotas: Vec<Quota>,
    weight: Option<Rational>,
    at: String,
}

const TOP: &[&str] = &["apiVersion", "kind", "metadata", "spec"];
const CQ_READ: &[&str] = &[
    "cohortName",
    "cohort",
    "resourceGroups",
    "fairSharing",
    "queueingStrategy",
];
const CQ_DROPPED: &[&str] = &[
    "namespaceSelector",
    "preemption",
    "flavorFungibility",
    "admissionChecks",
    "admissionChecksStrategy",
    "stopPolicy",
    "admissionScope",
];
const COHORT_READ: &[&str] = &["parentName", "parent", "resourceGroups", "fairSharing"];
const IGNORED_KINDS: &[&str] = &[
    "ResourceFlavor",
    "LocalQueue",
    "WorkloadPriorityClass",
    "AdmissionCheck",
    "Topology",
    "ProvisioningRequestConfig",
    "MultiKueueConfig",
    "MultiKueueCluster",
];

fn resource_groups(
    v: &Yaml,
    at: &str,
    dropped: &mut Vec<String>,
) -> Result<Vec<Quota>, SolverError> {
    let mut quotas: Vec<Quota> = Vec::new();
    for (i, g) in list(v, at)?.iter().enumerate() {
        let at = format!("{at}[{i}]");
        let fs = Fields::read(g, at, &["coveredResources", "flavors"], &[], dropped)?;
        let field = fs.at("coveredResources");
        let covered: Vec<String> = fs
            .list("coveredResources")?
            .iter()
            .enumerate()
            .map(|(j, r)| string(r, &format!("{field}[{j}]")))
            .collect::<Result<_, _>>()?;
        for (j, f) in fs.list("flavors")?.iter().enumerate() {
            let at = format!("{}[{j}]", fs.at("flavors"));
            let ffs = Fields::read(f, at, &["name", "resources"], &[], dropped)?;
            let flavor = ffs.string("name")?;
            let mut names = Vec::new();
            for (k, r) in ffs.list("resources")?.iter().enumerate() {
                let at = format!("{}[{k}]", ffs.at("resources"));
                let known = ["name", "nominalQuota", "borrowingLimit", "lendingLimit"];
                let rfs = Fields::read(r, at, &known, &[], dropped)?;
                let resource = rfs.string("name")?;
                if !covered.contains(&resource) {
                    return Err(SolverError::invalid(
                        rfs.at("name"),
                        format!(
                            "{resource:?} is not among the group's coveredResources ({})",
                            covered.join(", ")
                        ),
                    ));
                }
                if quotas
                    .iter()
                    .any(|q| q.flavor == flavor && q.resource == resource)
                {
                    return Err(SolverError::invalid(
                        rfs.at("name"),
                        format!("flavor {flavor:?} lists {resource:?} twice"),
                    ));
                }
                let nominal = rfs.required("nominalQuota")?;
                let nominal = yaml_quantity(&rfs.at("nominalQuota"), nominal)?;
                let lending = rfs.quantity("lendingLimit")?;
                if let Some(l) = &lending
                    && l > &nominal
                {
                    return Err(SolverError::invalid(
                        rfs.at("lendingLimit"),
                        format!("{l} is above the nominalQuota {nominal} (Kueue rejects it)"),
                    ));
                }
                names.push(resource.clone());
                quotas.push(Quota {
                    flavor: flavor.clone(),
                    resource,
                    nominal,
                    borrowing: rfs.quantity("borrowingLimit")?,
                    lending,
                });
            }
            if let Some(m) = covered.iter().find(|c| !names.contains(c)) {
                return Err(SolverError::invalid(
                    ffs.at("resources"),
                    format!("no quota for the covered resource {m:?} (each flavor lists every covered resource)"),
                ));
            }
        }
    }
    Ok(quotas)
}

/// One document: a ClusterQueue or Cohort, or `None` for what is ignored.
fn object(
    doc: &Yaml,
    i: usize,
    dropped: &mut Vec<String>,
    ignored: &mut Vec<String>,
) -> Result<Option<Object>, SolverError> {
    let at0 = format!("document {i}");
    if matches!(doc, Yaml::Null) {
        return Ok(None);
    }
    let fs = Fields::read(doc, at0.clone(), TOP, &["status"], &mut Vec::new())?;
    let api = fs.string("apiVersion")?;
    let kind_name = fs.string("kind")?;
    if !api.starts_with("kueue.x-k8s.io/") {
        return Err(SolverError::invalid(
            fs.at("apiVersion"),
            format!("{api:?} is not a Kueue API (kueue.x-k8s.io/...)"),
        ));
    }
    let name = match fs.get("metadata") {
        Some(Yaml::Hash(h)) => h
            .get(&Yaml::String("name".into()))
            .map(|n| object_name(n, &format!("{at0}.metadata.name")))
            .transpose()?,
        _ => None,
    }
    .ok_or_else(|| SolverError::invalid(format!("{at0}.metadata.name"), "missing"))?;
    let cohort = match kind_name.as_str() {
        "ClusterQueue" => false,
        "Cohort" => true,
        k if IGNORED_KINDS.contains(&k) => {
            ignored.push(format!("{k} {name}"));
            return Ok(None);
        }
        k => {
            return Err(SolverError::invalid(
                fs.at("kind"),
                format!(
                    "unknown Kueue kind {k:?} (read: ClusterQueue, Cohort; ignored: {})",
                    IGNORED_KINDS.join(", ")
                ),
            ))
        }
    };
    let at = format!("{at0} ({kind_name} {name})");
    if fs.get("status").is_some() {
        dropped.push(format!("{at}.status"));
    }
    let mut obj = Object {
        cohort,
        name,
        at: at.clone(),
        ..Object::default()
    };
    let Some(spec) = fs.get("spec") else {
        return Ok(Some(obj));
    };
    let (read, drop, parent_keys): (&[&str], &[&str], [&str; 2]) = if cohort {
        (COHORT_READ, &[], ["parentName", "parent"])
    } else {
        (CQ_READ, CQ_DROPPED, ["cohortName", "cohort"])
    };
    let sfs = Fields::read(spec, format!("{at}.spec"), read, drop, dropped)?;
    for key in parent_keys {
        if let Some(p) = sfs.get(key) {
            if obj.parent.is_some() {
                return Err(SolverError::invalid(
                    &sfs.at,
                    format!("give {} or {}, not both", parent_keys[0], parent_keys[1]),
                ));
            }
            obj.parent = Some(object_name(p, &sfs.at(key))?);
        }
    }
    if let Some(g) = sfs.get("resourceGroups") {
        obj.quotas = resource_groups(g, &sfs.at("resourceGroups"), dropped)?;
    }
    if let Some(f) = sfs.get("fairSharing") {
        let fs = Fields::read(f, sfs.at("fairSharing"), &["weight"], &[], dropped)?;
        // Kueue lets a queue of weight 0 borrow only what nobody else wants.
        obj.weight = fs
            .quantity("weight")?
            .map(|w| positive_weight(&fs.at("weight"), w))
            .transpose()?;
    }
    if let Some(q) = sfs.get("queueingStrategy") {
        let s = string(q, &sfs.at("queueingStrategy"))?;
        if s != "StrictFIFO" && s != "BestEffortFIFO" {
            return Err(SolverError::invalid(
                sfs.at("queueingStrategy"),
                format!("expected StrictFIFO or BestEffortFIFO, found {s:?}"),
            ));
        }
    }
    Ok(Some(obj))
}

/// The Kueue quota model (see the module docs): per node, its quota line in each dimension
/// (none where it does not list the (flavor, resource)), and its children.
struct Model<'a> {
    quotas: Vec<Vec<Option<&'a Quota>>>,
    children: Vec<Vec<usize>>,
}

impl Model<'_> {
    /// (our guarantee G, Kueue's SubtreeQuota kq, localQuota, Σ local strictly below).
    fn up(&self, v: usize, out: &mut [[Vec<Rational>; 4]]) {
        let own = self.quotas[v]
            .iter()
            .map(|q| q.map_or(Rational::ZERO, |q| q.nominal.clone()));
        let mut g: Vec<Rational> = own.collect();
        let d = g.len();
        let mut kq = g.clone();
        let mut below = vec![Rational::ZERO; d];
        for &c in &self.children[v] {
            self.up(c, out);
            let [cg, ckq, clocal, cbelow] = &out[c];
            g = add(&g, cg);
            // What the child's subtree lends: its quota less what it keeps.
            kq = kq
                .iter()
                .zip(ckq.iter().zip(clocal))
                .map(|(k, (c, l))| k + c - l)
                .collect();
            below = add(&add(&below, clocal), cbelow);
        }
        let local: Vec<Rational> = (0..d)
            .map(|r| {
                let lending = self.quotas[v][r].and_then(|q| q.lending.as_ref());
                lending.map_or(Rational::ZERO, |l| (&kq[r] - l).max(Rational::ZERO))
            })
            .collect();
        out[v] = [g, kq, local, below];
    }

    /// Kueue's potentialAvailable, top-down.
    fn down(
        &self,
        v: usize,
        parent_pot: Option<&[Rational]>,
        q: &[[Vec<Rational>; 4]],
        pot: &mut Vec<Vec<Rational>>,
    ) {
        let [_, kq, local, _] = &q[v];
        let mut p = match parent_pot {
            None => kq.clone(),
            Some(pp) => add(local, pp),
        };
        for (r, x) in p.iter_mut().enumerate() {
            if let Some(b) = self.quotas[v][r].and_then(|q| q.borrowing.as_ref()) {
                *x = x.clone().min(&kq[r] + b);
            }
        }
        pot[v] = p.clone();
        for &c in &self.children[v] {
            self.down(c, Some(&p), q, pot);
        }
    }
}

/// Reads a multi-document YAML stream of Kueue objects.
///
/// # Example
/// ```
/// let yaml = "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: a}\n\
///   spec:\n  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n    - name: f\n      \
///   resources: [{name: cpu, nominalQuota: 4}]\n";
/// let t = leontief::import::kueue::import(yaml).unwrap();
/// assert_eq!(t.capacity, vec![4.into()]);
/// ```
///
/// # Errors
/// Malformed YAML, non-Kueue objects, unknown fields, malformed quantities, a cohort cycle,
/// duplicate names: errors naming the document and the field.
///
/// # Complexity
/// Linear in the stream's size times the number of (flavor, resource) pairs.
pub fn import(text: &str) -> Result<Imported, SolverError> {
    let docs = super::yaml::load(text, DOCUMENT)?;
    let mut dropped = Vec::new();
    let mut ignored = Vec::new();
    let mut objects = read_objects(&docs, &mut dropped, &mut ignored)?;
    add_implicit_cohorts(&mut objects);
    let parent = parents(&objects)?;
    let (dims, resources) = dimensions(&objects)?;
    let model = model_of(&objects, &parent, &dims);
    let n = objects.len();
    let d = dims.len();
    let mut notes = Vec::new();
    for (v, o) in objects.iter().enumerate() {
        if parent[v].is_none() && o.quotas.iter().any(|q| q.lending.is_some()) {
            notes.push(format!("{}: a lendingLimit on a node without a parent cohort has nothing to lend to; ignored.", o.at));
        }
    }
    let roots: Vec<usize> = (0..n).filter(|&v| parent[v].is_none()).collect();
    let mut q = vec![Default::default(); n];
    let mut pot = vec![Vec::new(); n];
    for &r in &roots {
        model.up(r, &mut q);
        model.down(r, None, &q, &mut pot);
    }
    // A root's total: its guarantee, its own quota plus its children's.
    let totals: Vec<Vec<Rational>> = roots.iter().map(|&r| q[r][0].clone()).collect();
    let capacity = super::sum(&totals, d);
    if let Some(r) = capacity.iter().position(|c| c.is_zero()) {
        return Err(SolverError::invalid(
            DOCUMENT,
            format!(
                "every nominalQuota of {:?} is 0: the capacity (their sum) must be positive",
                resources[r]
            ),
        ));
    }
    let build = |v: usize| -> Result<ImportedNode, SolverError> {
        node(v, &objects, &model, &q, &pot, &capacity)
    };
    let root = if roots.len() == 1 && objects[roots[0]].cohort {
        let mut root = build(roots[0])?;
        // The root's guarantee is the capacity.
        root.guarantee = None;
        root
    } else {
        let mut children = Vec::new();
        for (&r, total) in roots.iter().zip(totals) {
            let mut c = build(r)?;
            // Kueue lends nothing between separate cohort trees: each keeps to its own quota.
            c.limit = Some(total).filter(|t| *t != capacity);
            if children.iter().any(|x: &ImportedNode| x.name == c.name) {
                return Err(SolverError::invalid(
                    &objects[r].at,
                    "a ClusterQueue and a root Cohort share this name",
                ));
            }
            children.push(c);
        }
        if roots.len() > 1 {
            let names: Vec<&str> = roots.iter().map(|&r| objects[r].name.as_str()).collect();
            notes.push(format!(
                "Independent cohort trees and ClusterQueues without a cohort ({}) are placed under a pool named root, each limited to its own quota (Kueue lends nothing between them).",
                names.join(", ")
            ));
        }
        ImportedNode::new("root", "root", Some(children))
    };
    let mut warnings = Vec::new();
    warnings.extend(listed("Ignored objects (no quota)", &ignored, ", "));
    warnings.extend(listed(DROPPED, &dropped, ", "));
    warnings.extend(notes);
    let fifo_leaves = objects
        .iter()
        .filter(|o| !o.cohort)
        .map(|o| o.name.clone())
        .collect();
    Ok(Imported {
        about: "Imported from Kueue ClusterQueues and Cohorts by leontief import kueue: nominalQuota as guarantee, nominalQuota + borrowingLimit (and what lendingLimits keep out of reach) as limit, fairSharing.weight as weight; the capacity is the sum of the nominal quotas; leaves are idle unless demands are given.".into(),
        resources,
        capacity,
        root,
        warnings,
        fifo_leaves,
        key_prefix: None,
    })
}

/// (flavor, resource) pairs.
type Dims = Vec<(String, String)>;

/// The stream's ClusterQueues and Cohorts, refusing one defined twice; what the tree cannot
/// express goes to `dropped`, objects without quota to `ignored`.
fn read_objects(
    docs: &[Yaml],
    dropped: &mut Vec<String>,
    ignored: &mut Vec<String>,
) -> Result<Vec<Object>, SolverError> {
    let mut objects: Vec<Object> = Vec::new();
    for (i, doc) in docs.iter().enumerate() {
        if let Some(o) = object(doc, i + 1, dropped, ignored)? {
            if let Some(prev) = objects
                .iter()
                .find(|p| p.cohort == o.cohort && p.name == o.name)
            {
                return Err(SolverError::invalid(
                    &o.at,
                    format!("defined again (first in {})", prev.at),
                ));
            }
            objects.push(o);
        }
    }
    Ok(objects)
}

/// Implicit cohorts: named by a ClusterQueue or a Cohort but not defined.
fn add_implicit_cohorts(objects: &mut Vec<Object>) {
    // The cohorts added have no parent: only the objects read name one.
    for k in 0..objects.len() {
        if let Some(p) = objects[k].parent.clone()
            && !objects.iter().any(|o| o.cohort && o.name == p)
        {
            let at = format!("cohort {p} (implicit, named by {})", objects[k].at);
            objects.push(Object {
                cohort: true,
                name: p,
                at,
                ..Object::default()
            });
        }
    }
}

/// Each object's parent cohort, refusing a cycle and nesting deeper than `MAX_DEPTH`.
fn parents(objects: &[Object]) -> Result<Vec<Option<usize>>, SolverError> {
    let cohort = |name: &str| objects.iter().position(|o| o.cohort && o.name == name);
    let parent: Vec<Option<usize>> = objects
        .iter()
        .map(|o| o.parent.as_deref().and_then(cohort))
        .collect();
    for v in 0..objects.len() {
        let mut seen = vec![v];
        let mut u = v;
        while let Some(p) = parent[u] {
            if seen.contains(&p) {
                let names: Vec<&str> = seen.iter().map(|&s| objects[s].name.as_str()).collect();
                return Err(SolverError::invalid(
                    &objects[v].at,
                    format!("the cohorts form a cycle: {}", names.join(" -> ")),
                ));
            }
            if seen.len() >= MAX_DEPTH {
                return Err(SolverError::invalid(
                    &objects[v].at,
                    format!("the cohorts nest deeper than {MAX_DEPTH} levels"),
                ));
            }
            seen.push(p);
            u = p;
        }
    }
    Ok(parent)
}

/// The dimensions, (flavor, resource) pairs in order of first appearance, and the resources'
/// names (the flavor omitted when there is one).
fn dimensions(objects: &[Object]) -> Result<(Dims, Vec<String>), SolverError> {
    let mut dims: Dims = Vec::new();
    for o in objects {
        for q in &o.quotas {
            if !dims.iter().any(|(f, r)| *f == q.flavor && *r == q.resource) {
                dims.push((q.flavor.clone(), q.resource.clone()));
            }
        }
    }
    if dims.is_empty() {
        return Err(SolverError::invalid(
            DOCUMENT,
            "no ClusterQueue or Cohort defines a quota",
        ));
    }
    let one_flavor = dims.iter().all(|(f, _)| *f == dims[0].0);
    let resources: Vec<String> = dims
        .iter()
        .map(|(f, r)| {
            if one_flavor {
                r.clone()
            } else {
                format!("{f}/{r}")
            }
        })
        .collect();
    Ok((dims, resources))
}

/// The quota model: each object's own quotas and limits per dimension, and the cohort tree.
fn model_of<'a>(objects: &'a [Object], parent: &[Option<usize>], dims: &Dims) -> Model<'a> {
    let n = objects.len();
    let mut model = Model {
        quotas: vec![vec![None; dims.len()]; n],
        children: vec![Vec::new(); n],
    };
    for (v, o) in objects.iter().enumerate() {
        for q in &o.quotas {
            let r = dims
                .iter()
                .position(|(f, x)| *f == q.flavor && *x == q.resource)
                .unwrap_or(0);
            model.quotas[v][r] = Some(q);
        }
        if let Some(p) = parent[v] {
            model.children[p].push(v);
        }
    }
    model
}

/// The tree node of object `v` and its subtree.
fn node(
    v: usize,
    objects: &[Object],
    model: &Model,
    q: &[[Vec<Rational>; 4]],
    pot: &[Vec<Rational>],
    capacity: &[Rational],
) -> Result<ImportedNode, SolverError> {
    let o = &objects[v];
    let [g, _, _, below] = &q[v];
    let mut limit: Vec<Rational> = add(&pot[v], below);
    if !o.cohort {
        for (r, x) in limit.iter_mut().enumerate() {
            if model.quotas[v][r].is_none() {
                *x = Rational::ZERO;
            }
        }
    }
    let limit = capped(limit, capacity);
    let children = if o.cohort {
        let mut children: Vec<ImportedNode> = Vec::new();
        for &c in &model.children[v] {
            let child = node(c, objects, model, q, pot, capacity)?;
            if children.iter().any(|x| x.name == child.name) {
                return Err(SolverError::invalid(
                    &objects[c].at,
                    format!(
                        "a ClusterQueue and a Cohort named {:?} share the cohort {}",
                        child.name, o.name
                    ),
                ));
            }
            children.push(child);
        }
        Some(children)
    } else {
        None
    };
    let mut n = ImportedNode::new(o.name.clone(), o.name.clone(), children);
    if let Some(w) = &o.weight {
        n.weight = w.clone();
    }
    n.guarantee = Some(g.clone());
    n.limit = (limit != capacity).then_some(limit);
    Ok(n)
}
