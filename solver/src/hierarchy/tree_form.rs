//! The tree form of the JSON input: [`NodeSpec`], a node as written, and its reader
//! [`read_tree_form`], with the depth bound [`MAX_DEPTH`].

use serde_json::Value;

use crate::json::{
    expected, read_number, read_numbers, read_object, read_optional, read_resources, read_string,
    reject_unknown, required,
};
use crate::model::{read_guarantee, read_mode};
use crate::setters::rationals;
use crate::{Guarantee, InstanceBuilder, Mode, Rational, SolverError};

/// The deepest tree accepted (the root has depth 0). Deeper inputs are rejected rather than
/// risking the stack on recursive reading.
pub const MAX_DEPTH: usize = 64;

const NODE_FIELDS: &[&str] = &[
    "name",
    "weight",
    "demand",
    "tasks",
    "children",
    "guarantee",
    "limit",
    "mode",
    "usage",
];
// The listing in messages names the fields every tree uses; the production fields
// (guarantee, limit, mode, usage) are optional extras, documented with the form.
const NODE_LISTING: &str = "name, weight, demand, tasks, children";
/// The top-level fields of the tree form.
pub const TREE_FIELDS: &[&str] = &["resources", "capacity", "tree", "about", "note"];

/// An error on `field` when `depth` is beyond [`MAX_DEPTH`].
pub(crate) fn check_depth(field: impl Into<String>, depth: usize) -> Result<(), SolverError> {
    if depth <= MAX_DEPTH {
        return Ok(());
    }
    Err(SolverError::invalid(
        field,
        format!("the tree is deeper than {MAX_DEPTH} levels"),
    ))
}

/// A node as written in the tree form, before validation (names unique among siblings).
///
/// Exactly one of `demand` (a leaf) and `children` (a pool) must be present; the fields
/// mirror the JSON form so that invalid trees can be represented and rejected with a path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeSpec {
    /// Unique name (no `/`, which separates path components).
    pub name: String,
    /// Weight among siblings, `> 0`.
    pub weight: Rational,
    /// Per-task demand, one entry per resource (leaves).
    pub demand: Option<Vec<Rational>>,
    /// Task cap `T > 0` (leaves, optional).
    pub cap: Option<Rational>,
    /// Children (pools).
    pub children: Option<Vec<NodeSpec>>,
    /// Its guarantee (see [`Guarantee`]).
    pub guarantee: Option<Guarantee>,
    /// A cap on what its subtree holds.
    pub limit: Option<Vec<Rational>>,
    /// How it serves its children (pools only).
    pub mode: Option<Mode>,
    /// What it holds now (leaves only).
    pub usage: Option<Vec<Rational>>,
}

impl NodeSpec {
    /// A leaf of weight 1 without cap.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::hierarchy::NodeSpec;
    /// let a = NodeSpec::leaf("A", [1, 0]).weight(2).cap(5);
    /// assert_eq!(a.cap.unwrap().to_string(), "5");
    /// ```
    pub fn leaf<T: Into<Rational>>(
        name: impl Into<String>,
        demand: impl IntoIterator<Item = T>,
    ) -> Self {
        NodeSpec::bare(name.into(), Some(rationals(demand)), None)
    }

    /// A pool of weight 1.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::hierarchy::NodeSpec;
    /// let b = NodeSpec::pool("B", [NodeSpec::leaf("B1", [1, 0]), NodeSpec::leaf("B2", [0, 1])]);
    /// assert_eq!(b.children.unwrap().len(), 2);
    /// ```
    pub fn pool(name: impl Into<String>, children: impl IntoIterator<Item = NodeSpec>) -> Self {
        NodeSpec::bare(name.into(), None, Some(children.into_iter().collect()))
    }

    /// A node of weight 1 with only its name, demand (a leaf) or children (a pool).
    fn bare(name: String, demand: Option<Vec<Rational>>, children: Option<Vec<NodeSpec>>) -> Self {
        NodeSpec {
            name,
            weight: Rational::ONE,
            demand,
            cap: None,
            children,
            guarantee: None,
            limit: None,
            mode: None,
            usage: None,
        }
    }

    crate::setters! {
        /// Sets the weight.
        weight(weight: impl Into<Rational>) => weight = weight.into();
        /// Sets the guarantee.
        guarantee(g: Guarantee) => guarantee = Some(g);
        /// Sets the limit.
        limit(l: impl IntoIterator<Item = impl Into<Rational>>) => limit = Some(rationals(l));
        /// Sets the mode (pools only).
        mode(mode: Mode) => mode = Some(mode);
        /// Sets the running usage (leaves only).
        usage(u: impl IntoIterator<Item = impl Into<Rational>>) => usage = Some(rationals(u));
        /// Sets the task cap (leaves only; a pool with a cap is rejected by validation).
        cap(cap: impl Into<Rational>) => cap = Some(cap.into());
    }
}

/// Reads the tree form `{"resources": [..], "capacity": [..], "tree": {"name", "weight",
/// "children" | "demand", "tasks"}}` into the builder of its instance: resource names,
/// capacities and the root's spec (structure only; [`InstanceBuilder::build`] validates the
/// values).
///
/// `resources` is optional (default `r1..rm`), the root's `name` is optional (default
/// `root`), `weight` defaults to 1, `tasks` (the cap) is optional and only for leaves.
/// The production fields (`docs/production.md`) are optional too: `guarantee` (a vector or
/// a fraction of the parent's) and `limit` on any node below the root, `mode` (`fair`,
/// `fifo`) on pools, `usage` on leaves.
///
/// # Errors
/// A malformed or unknown field, named by its path, e.g. `tree.children[1].weight`.
pub fn read_tree_form(value: &Value) -> Result<InstanceBuilder, SolverError> {
    let obj = read_object("(top level)", value)?;
    reject_unknown(obj, "", TREE_FIELDS, &TREE_FIELDS.join(", "))?;
    let builder = read_resources(obj)?;
    Ok(builder.tree(read_node(required(obj, "tree", str::to_owned)?, "tree", 0)?))
}

/// Reads one node at path `at` (structure only; values are validated by
/// [`InstanceBuilder::build`](crate::InstanceBuilder::build)).
fn read_node(v: &Value, at: &str, depth: usize) -> Result<NodeSpec, SolverError> {
    check_depth(at, depth)?;
    let obj = read_object(at, v)?;
    reject_unknown(obj, at, NODE_FIELDS, NODE_LISTING)?;
    let field = |f: &str| format!("{at}.{f}");
    let name = match obj.get("name") {
        None if depth == 0 => "root".to_string(),
        None => return Err(SolverError::invalid(field("name"), "missing")),
        Some(v) => read_string(&field("name"), v)?,
    };
    let read_children = |f: &str, v: &Value| match v {
        Value::Array(list) => list
            .iter()
            .enumerate()
            .map(|(k, c)| read_node(c, &format!("{at}.children[{k}]"), depth + 1))
            .collect(),
        other => Err(expected(f, "a list of nodes", other)),
    };
    // The fields in this order, so that of two faults the same one is named first.
    Ok(NodeSpec {
        name,
        weight: read_optional(obj, "weight", field, read_number)?.unwrap_or(Rational::ONE),
        demand: read_optional(obj, "demand", field, read_numbers)?,
        cap: match obj.get("tasks") {
            None | Some(Value::Null) => None,
            Some(t) => Some(read_number(&field("tasks"), t)?),
        },
        children: read_optional(obj, "children", field, read_children)?,
        guarantee: read_optional(obj, "guarantee", field, read_guarantee)?,
        limit: read_optional(obj, "limit", field, read_numbers)?,
        mode: read_optional(obj, "mode", field, read_mode)?,
        usage: read_optional(obj, "usage", field, read_numbers)?,
    })
}
